"""A whole game between players: the engine's phases (:mod:`sim.game`), each seat's turn played
as its family plays it, and the Python shell that validates and allocates one game.

The game loop is the engine's (sim.game.play_decade, sim.actions.action_rounds); what a game
adds is the turn it hands that loop, :func:`family_turn`. Families that decide one option at a
time (random, greedy, heuristic, python) play the engine's own turn (sim.actions.own_turn), every
decision reaching them through :mod:`sim.seam`; the rollout family plans its turns
(:func:`strategies.rollout.play_turn_planned`) and the search family searches them
(:func:`strategies.search.play_turn_searched`). Their simulations run the same loop with the
engine's own turn, so planning never nests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.actions import play_turn
from sim.actions.turn import xw_war_turn_begin  # the Action Phase's own hook (one per part's function)
from sim.compiled_parts import extended_war, for_players
from sim.game import allocate, finish_game, play_decades, start_game
from sim.records import N_RD, N_RG
from sim.rules import Rules
from sim.seating import seat_arrays
from sim.state import MAX_PLAYERS, N_GROUPS, G, State
from strategies.forced_play import play_turn_probed, probe_pending
from strategies.policy import FAMILY_ROLLOUT, FAMILY_SEARCH, F
from strategies.rollout import new_labels, play_turn_planned
from strategies.search import play_turn_searched, war_turn_searched
from strategies.value_model import N_VF, value_features

# the optional parts, reached only through their hooks (sim.compiled_parts: compiled only into the runs that play them)
xw_war_turn_searched = extended_war(war_turn_searched)

NO_FEATURES = np.zeros((0, MAX_PLAYERS, N_VF), np.float64)  # a game that records no features


@njit(cache=True)
def family_turn(st, r, seat, pos, players):
    """A seat's turn in the real game, played as its family plays it (``players``: the scratch
    state record ``sc`` of the seats that plan, the strategies' rows ``W``, where a search
    seat finds its parameters and evaluation, and the room where a planning seat keeps its
    decisions' labels, strategies.rollout.record_labels); the turn sim.actions.action_rounds plays in
    :func:`play_game`. A rollout-family seat plans its TURN decisions, a search-family seat searches
    them and, during an Extended War, its war actions too; a probed seat's forced turn comes first
    (strategies.forced_play); every other seat plays the engine's own turn (sim.actions.own_turn)."""
    sc, W, labels = players
    fam = int(st.w[seat, F.FAMILY])
    if fam == FAMILY_SEARCH:
        xw_war_turn_searched(r, None, st, sc, r, W, seat, pos, labels)  # EXTENDED WAR: its war actions searched too
    else:
        xw_war_turn_begin(r, None, st, r, seat)
    if probe_pending(st, seat) and play_turn_probed(st, r, seat):
        return
    if fam == FAMILY_ROLLOUT:
        play_turn_planned(st, sc, r, seat, pos, labels, W)
    elif fam == FAMILY_SEARCH:
        play_turn_searched(st, sc, r, W, seat, pos, labels)
    else:
        play_turn(st, r, seat)


@njit(cache=True)
def play_game(st, sc, r, W, n, seed, strategies, chars, paid, first_game, feats, labels):
    """A whole game from setup to the end-game VP variations; its random stream starts at
    ``seed`` (a 64-bit word, see sim.rng). ``sc`` is a scratch state record for searching seats.
    ``chars``/``paid``: forced Characters and the VP each seat pays for its own (sim.game.setup).
    ``feats``: float64[decades, 5, N_VF] to record every seat's value features at the end of each
    decade (strategies.value_model, what ``trinidad train`` learns from), or an empty array.
    ``labels``: room for the rollout seats' decisions (strategies.rollout.new_labels; none kept
    when it has none). The decades are sim.game.play_decades with the players' own turns
    (:func:`family_turn`)."""
    start_game(st, r, W, n, seed, strategies, chars, paid, first_game)
    play_decades(st, r, st.g[G.LAST_DECADE], family_turn, (sc, W, labels), decade_features, (feats, np.zeros(N_GROUPS + 8, np.int32)))
    finish_game(st, n)


@njit(cache=True)
def decade_features(st, r, d, extra):
    """After decade ``d`` (sim.game.play_decades): every seat's value features into ``feats[d - 1]``
    while ``feats`` (``extra``: feats and a work area) has room."""
    feats, scratch = extra
    if d <= feats.shape[0]:
        value_features(st, r, d, feats[d - 1], scratch)


@njit(cache=True, nogil=True)
def play_games(r, W, n, seeds, strat, chars, paid, first_game, states, blank, dec_out, game_out, feat_out, labels, c, nt):
    """Games c, c + nt, c + 2 nt, ... of a batch, on thread c's two state records (the game's and
    a search scratch); ``feat_out[i]`` (no decades: not recorded) takes each game's value features
    and ``labels`` the rollout seats' decisions (one thread only: it is shared).
    The one jitted entry point of a game: :func:`run_game` plays one game through it and
    trinidad.batch.play_batch many, one call per Python thread, without the GIL, so the engine's
    machine code is made once (gamekit.deferred). (Not a prange kernel: a Python strategy's objmode
    callback from Numba's own worker threads aborted the process.)"""
    for i in range(c, seeds.shape[0], nt):
        states[2 * c] = blank[0]  # a fresh state: one copy of the blank record
        st = states[2 * c]
        play_game(st, states[2 * c + 1], r, W, n, seeds[i], strat[i], chars[i], paid[i], first_game, feat_out[i], labels)
        dec_out[i] = st.rec_decade
        game_out[i] = st.rec_game


def writable_weights(W: np.ndarray) -> np.ndarray:
    """``W`` as the one array type the jitted entry points are compiled for: C-contiguous, float64
    and writable. Numba types a read-only array apart (Ray hands its workers read-only arrays from
    its object store), and a second type of ``W`` compiles the whole engine a second time; a copy
    of the small weight table is cheaper."""
    return np.require(W, np.float64, ["C_CONTIGUOUS", "WRITEABLE"])


def run_game(rules: Rules, weights: np.ndarray, n_players: int, seed: int, strategies, first_game: bool = False,
             log: bool = False, characters=None, paid=None) -> State:
    """Validate, allocate and play one game; returns the final state (records and log inside).
    ``characters``: a Character card id per seat to force them, or None to draft by the rules;
    ``paid``: with forced Characters, the VP each seat pays for its card at setup (default none).
    A seat whose strategy is ``AI_STRATEGY`` is the Solo A.I. (its strength: the rules' ``solo.strength``)."""
    weights = writable_weights(weights)
    strat, chars, pay = seat_arrays(n_players, 1, list(strategies), weights.shape[0], characters, paid)
    rules = for_players(rules, strat)  # the Solo A.I. compiled in for an A.I. seat (sim.compiled_parts)
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed: must be 0..2**64-1, got {seed}")
    blank_rec = allocate(rules)
    blank = np.array([blank_rec], dtype=blank_rec.dtype).view(np.recarray)
    blank[0].g[G.LOG_ON] = 1 if log else 0
    states = np.repeat(blank, 2).view(np.recarray)
    with np.errstate(over="ignore"):  # uint64 wrap-around is the point of the generator (matters only without JIT)
        play_games(rules, weights, n_players, np.array([seed], np.uint64), strat, chars, pay, 1 if first_game else 0,
                   states, blank, np.zeros((1, 12, MAX_PLAYERS, N_RD), np.int32), np.zeros((1, MAX_PLAYERS, N_RG), np.int32),
                   np.zeros((1, 0, MAX_PLAYERS, N_VF), np.float64), new_labels(blank, 0), 0, 1)
    return states[0]
