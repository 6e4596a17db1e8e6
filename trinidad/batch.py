"""Many games in one jitted call (strategies.match.play_games): what the runner, bench, tournament and tune use.

Each game is a pure function of its seed (sim.rng), so a batch gives the same records on any
number of threads: game ``i`` always lands in row ``i`` of the outputs. Threads are Python threads,
each running the jitted loop without the GIL.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np

from sim.compiled_parts import for_players
from sim.game import allocate
from sim.rules import Rules
from sim.schema import N_RD, N_RG
from sim.state import AI_STRATEGY, MAX_PLAYERS, N_CHARACTERS
from strategies.match import play_games, writable_weights
from strategies.registry import has_python
from strategies.rollout import new_labels
from strategies.value_model import N_VF


def play_batch(rules: Rules, W: np.ndarray, n_players: int, seeds: np.ndarray, strategies: np.ndarray,
               characters: np.ndarray | None = None, first_game: bool = False, threads: int | None = None,
               features: bool = False, paid: np.ndarray | None = None, labels: tuple | None = None):
    """Play ``len(seeds)`` games of ``n_players``; ``strategies[i, s]`` is the strategy id of seat
    ``s`` in game ``i`` and ``characters[i, s]`` its forced Character (-1 everywhere to draft);
    ``paid[i, s]`` the VP that seat pays for its forced Character at setup (default: none; the
    Characters' auction prices, issue 23), data handed to the jitted loop like the Characters.

    Returns ``(decades, games)``: int32 arrays ``[games, 12, 5, N_RD]`` and ``[games, 5, N_RG]``
    (seats beyond ``n_players`` are zero); with ``features`` also ``float64[games, 12, 5, N_VF]``, every
    seat's value features at the end of each decade (strategies.value_model). ``labels``: room from
    strategies.rollout.new_labels (for this game's rules) where the rollout seats keep their
    decisions' counterfactual labels, filled in place; the games are then played on one thread."""
    if not 2 <= n_players <= MAX_PLAYERS:
        raise ValueError(f"players: must be 2..{MAX_PLAYERS}, got {n_players}")
    seeds = np.ascontiguousarray(seeds, np.uint64)
    W = writable_weights(W)
    g = seeds.shape[0]
    strat = np.zeros((g, MAX_PLAYERS), np.int32)
    strat[:, :n_players] = np.asarray(strategies, np.int32).reshape(g, n_players)
    s_ = strat[:, :n_players]
    ai = s_ == AI_STRATEGY  # the Solo A.I.'s seat (at most one per game)
    if np.any((s_ < 0) & ~ai) or np.any(s_ >= W.shape[0]) or np.any(ai.sum(axis=1) > 1):
        raise ValueError(f"strategies: ids must be 0..{W.shape[0] - 1} (or {AI_STRATEGY} for one A.I. seat)")
    chars = np.full((g, MAX_PLAYERS), -1, np.int32)
    if characters is not None:
        chars[:, :n_players] = np.asarray(characters, np.int32).reshape(g, n_players)
        c = chars[:, :n_players]
        c[ai] = -1  # the A.I. draws its own Character
        k = n_players - ai.sum(axis=1)
        if np.any((c < 0) & ~ai) or np.any(c >= N_CHARACTERS) or \
                any(len(set(row) - {-1}) != kk for row, kk in zip(c.tolist(), k.tolist())):
            raise ValueError(f"characters: each game needs {n_players} distinct ids 0..{N_CHARACTERS - 1}")
    pay = np.zeros((g, MAX_PLAYERS), np.int32)
    if paid is not None:
        pay[:, :n_players] = np.asarray(paid, np.int32).reshape(g, n_players)
        if characters is None or np.any(pay < 0):
            raise ValueError("paid: needs forced characters and VP >= 0 per seat")
        pay[:, :n_players][ai] = 0  # the A.I. draws its own Character and pays nothing
    rules = for_players(rules, s_)  # the Solo A.I. compiled in when a seat is the A.I. (sim.compiled_parts)
    nt = threads or numba.get_num_threads()
    if has_python(W):
        nt = 1  # Python strategies (objmode callbacks) are called from one thread: their objects need not be thread-safe
    if labels is not None:
        nt = 1  # one room, filled in game order
    nt = max(1, min(nt, g))
    blank_rec = allocate(rules)
    # record arrays (recarray views) so that the same code also runs with NUMBA_DISABLE_JIT=1
    blank = np.array([blank_rec], dtype=blank_rec.dtype).view(np.recarray)
    states = np.repeat(blank, 2 * nt).view(np.recarray)  # per thread: the game's state and a rollout scratch
    dec_out = np.zeros((g, 12, MAX_PLAYERS, N_RD), np.int32)
    game_out = np.zeros((g, MAX_PLAYERS, N_RG), np.int32)
    feat_out = np.zeros((g, 12 if features else 0, MAX_PLAYERS, N_VF), np.float64)  # no decades: none recorded
    if labels is None:
        labels = new_labels(blank, 0)
    elif labels[0].dtype != blank.dtype:
        raise ValueError("labels: made for another game's rules (strategies.rollout.new_labels with this game's state record)")
    if g:
        def part(c):
            with np.errstate(over="ignore"):  # uint64 wrap-around in sim.rng (matters only without JIT)
                play_games(rules, W, n_players, seeds, strat, chars, pay, 1 if first_game else 0, states, blank, dec_out, game_out,
                            feat_out, labels, c, nt)

        if nt == 1:
            part(0)
        else:
            with ThreadPoolExecutor(nt) as ex:
                list(ex.map(part, range(nt)))  # re-raises a thread's exception
    if features:
        return dec_out, game_out, feat_out
    return dec_out, game_out
