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
from sim.seating import seat_arrays
from sim.state import MAX_PLAYERS
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
    seeds = np.ascontiguousarray(seeds, np.uint64)
    W = writable_weights(W)
    g = seeds.shape[0]
    strat, chars, pay = seat_arrays(n_players, g, strategies, W.shape[0], characters, paid)
    rules = for_players(rules, strat)  # the Solo A.I. compiled in when a seat is the A.I. (sim.compiled_parts)
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
