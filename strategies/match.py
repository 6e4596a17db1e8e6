"""A whole game between players: the engine's phases (:mod:`sim.game`), each seat's turn played
as its family plays it, and the Python shell that validates and allocates one game.

Families that decide one option at a time (random, greedy, heuristic, python) play their turns
through the engine's own :func:`sim.actions.play_turn`, every decision reaching them through
:mod:`sim.seam`. Families that search play their turns here (:func:`action_phase`): the rollout
family by :func:`strategies.rollout.play_turn_planned`, the search family by
:func:`strategies.search.play_turn_searched`. Their simulations use the engine's plain
phases, so planning never nests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.actions import any_active, play_turn
from sim.extended_war import war_attackers, war_round_begin, war_round_end, war_turn_begin, war_turn_end
from sim.game import allocate, end_of_decade, finish_game, set_decade, start_game, start_of_decade
from sim.records import record_decade
from sim.rules import Rules
from sim.state import AI_STRATEGY, MAX_PLAYERS, N_CHARACTERS, N_GROUPS, PF, TG, TS, G, State
from strategies.evaluation import N_VF, value_features
from strategies.policy import FAMILY_ROLLOUT, FAMILY_SEARCH, F
from strategies.probe import play_turn_probed, probe_pending
from strategies.rollout import play_turn_planned
from strategies.search import play_turn_searched, war_turn_searched

NO_FEATURES = np.zeros((0, MAX_PLAYERS, N_VF), np.float64)  # play_game records no features


@njit(cache=True)
def action_phase(st, sc, r, W):
    """B. ACTION PHASE of the real game: as sim.actions.action_phase, each seat's turn played by
    its family (rollout- and search-family seats plan theirs; ``sc`` is their scratch state record,
    ``W`` the strategies' rows, where a search seat finds its parameters and evaluation)."""
    n = st.g[G.NPLAYERS]
    for s in range(n):
        st.pl[s, PF.PASSED] = 0
    for _ in range(1000):
        if not any_active(st):
            break
        st.tally_g[TG.ROUNDS] += 1  # the records' game length (sim.state.TG), as sim.actions.action_rounds
        war_round_begin(st)
        for i in range(n):
            seat = st.order[i]
            if st.pl[seat, PF.PASSED] == 0:
                st.tally[seat, TS.TURNS] += 1
                fam = int(st.w[seat, F.FAMILY])
                if fam == FAMILY_SEARCH:
                    war_turn_searched(st, sc, r, W, seat, i)  # EXTENDED WAR: its war actions searched too
                else:
                    war_turn_begin(st, r, seat)
                # a probed seat's forced turn (strategies.probe), whatever its family
                if not (probe_pending(st, seat) and play_turn_probed(st, r, seat)):
                    if fam == FAMILY_ROLLOUT:
                        play_turn_planned(st, sc, r, seat, i)
                    elif fam == FAMILY_SEARCH:
                        play_turn_searched(st, sc, r, W, seat, i)
                    else:
                        play_turn(st, r, seat)
                war_turn_end(st, r, seat)
            war_attackers(st, r, i + 1)  # EXTENDED WAR (WAR FLOW): as sim.actions.action_rounds
        war_round_end(st, r)


@njit(cache=True)
def play_game(st, sc, r, W, n, seed, strategies, chars, paid, first_game, feats):
    """A whole game from setup to the end-game VP variations; its random stream starts at
    ``seed`` (a 64-bit word, see sim.rng). ``sc`` is a scratch state record for searching seats.
    ``chars``/``paid``: forced Characters and the VP each seat pays for its own (sim.game.setup).
    ``feats``: float64[decades, 5, N_VF] to record every seat's value features at the end of each
    decade (strategies.evaluation, what ``trinidad train`` learns from), or an empty array."""
    start_game(st, r, W, n, seed, strategies, chars, paid, first_game)
    last = st.g[G.LAST_DECADE]
    scratch = np.zeros(N_GROUPS + 8, np.int32)
    for d in range(1, last + 1):
        set_decade(st, r, d)
        start_of_decade(st, r)
        action_phase(st, sc, r, W)
        end_of_decade(st, r)
        record_decade(st, r)
        if d <= feats.shape[0]:
            value_features(st, r, d, feats[d - 1], scratch)
    finish_game(st, n)


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
    if not 2 <= n_players <= MAX_PLAYERS:
        raise ValueError(f"players: must be 2..{MAX_PLAYERS}, got {n_players}")
    strat = np.zeros(MAX_PLAYERS, np.int32)
    strategies = list(strategies)
    if len(strategies) != n_players:
        raise ValueError(f"strategies: need one per seat ({n_players}), got {len(strategies)}")
    strat[:n_players] = strategies
    ai = [s for s in range(n_players) if strategies[s] == AI_STRATEGY]
    if len(ai) > 1:
        raise ValueError(f"strategies: at most one A.I. seat ({AI_STRATEGY}), got {len(ai)}")
    chars = np.full(MAX_PLAYERS, -1, np.int32)
    if characters is not None:
        characters = list(characters)
        human = [c for s, c in enumerate(characters) if s not in ai]  # the A.I. draws its own Character
        if len(characters) != n_players or len(set(human)) != len(human) or not all(0 <= c < N_CHARACTERS for c in human):
            raise ValueError(f"characters: need {n_players} distinct Character ids 0..{N_CHARACTERS - 1}, got {characters}")
        chars[:n_players] = characters
        chars[ai] = -1
    pay = np.zeros(MAX_PLAYERS, np.int32)
    if paid is not None:
        paid = list(paid)
        if characters is None or len(paid) != n_players or not all(int(v) == v and v >= 0 for v in paid):
            raise ValueError(f"paid: needs forced characters and {n_players} whole VP >= 0, got {paid}")
        pay[:n_players] = paid
        pay[ai] = 0
    weights = writable_weights(weights)
    st = allocate(rules)
    sc = allocate(rules)
    st.g[G.LOG_ON] = 1 if log else 0
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed: must be 0..2**64-1, got {seed}")
    with np.errstate(over="ignore"):  # uint64 wrap-around is the point of the generator (matters only without JIT)
        play_game(st, sc, rules, weights, n_players, np.uint64(seed), strat, chars, pay, 1 if first_game else 0, NO_FEATURES)
    return st
