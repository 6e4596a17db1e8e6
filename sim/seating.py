"""The seats of the games a Python shell hands the engine, checked once: each seat's strategy id
(a row of the strategies' table, or ``sim.state.AI_STRATEGY`` for the Solo A.I. of TWO PLAYERS
GAME & SOLO MODE, at most one a game), the Characters forced on the seats and the VP each seat
pays for its own (SETUP; sim.game.setup). The A.I. draws its own Character and pays nothing.

The one check of :func:`strategies.match.run_game` (one game) and :func:`trinidad.batch.play_batch`
(many). Plain numpy: no engine code is loaded.
"""

from __future__ import annotations

import numpy as np

from sim.state import AI_STRATEGY, MAX_PLAYERS, N_CHARACTERS


def seat_arrays(n_players: int, games: int, strategies, n_strategies: int, characters=None, paid=None):
    """The engine's seat inputs of ``games`` games of ``n_players``: ``strategies[i, s]`` (any shape
    of ``games * n_players`` ids, game by game) below ``n_strategies`` or the A.I.; ``characters``
    (None: drafted by the rules) and ``paid`` (None: nothing; needs ``characters``) likewise.
    Returns int32 ``(strategies, characters, paid)``, each ``[games, MAX_PLAYERS]``: seats beyond
    ``n_players`` 0 (-1 for the Characters), the A.I.'s Character -1 and its price 0. A bad input
    is a ValueError naming the argument."""
    if not 2 <= n_players <= MAX_PLAYERS:
        raise ValueError(f"players: must be 2..{MAX_PLAYERS}, got {n_players}")
    s_ = _per_seat("strategies", strategies, games, n_players)
    ai = s_ == AI_STRATEGY
    if np.any((s_ < 0) & ~ai) or np.any(s_ >= n_strategies):
        raise ValueError(f"strategies: ids must be 0..{n_strategies - 1} (or {AI_STRATEGY} for the A.I.), got {sorted(set(s_[~ai].tolist()))}")
    if np.any(ai.sum(axis=1) > 1):
        raise ValueError(f"strategies: at most one A.I. seat ({AI_STRATEGY}) a game")
    strat = np.zeros((games, MAX_PLAYERS), np.int32)
    strat[:, :n_players] = s_
    chars = np.full((games, MAX_PLAYERS), -1, np.int32)
    if characters is not None:
        c = _per_seat("characters", characters, games, n_players)
        c[ai] = -1  # the A.I. draws its own Character
        humans = n_players - ai.sum(axis=1)
        if np.any((c < 0) & ~ai) or np.any(c >= N_CHARACTERS) or \
                any(len(set(row) - {-1}) != k for row, k in zip(c.tolist(), humans.tolist())):
            raise ValueError(f"characters: each game needs {n_players} distinct Character ids 0..{N_CHARACTERS - 1} (the A.I.'s aside)")
        chars[:, :n_players] = c
    pay = np.zeros((games, MAX_PLAYERS), np.int32)
    if paid is not None:
        v = np.asarray(paid, np.float64)
        if characters is None or v.size != games * n_players or np.any(v < 0) or np.any(v != np.floor(v)):
            raise ValueError(f"paid: needs forced characters and {n_players} whole VP >= 0 a game")
        p = v.reshape(games, n_players).astype(np.int32)
        p[ai] = 0  # the A.I. pays nothing for its Character
        pay[:, :n_players] = p
    return strat, chars, pay


def _per_seat(name: str, values, games: int, n_players: int) -> np.ndarray:
    v = np.asarray(values)
    if v.size != games * n_players:
        raise ValueError(f"{name}: need one per seat ({n_players}) in each of {games} game(s), got {v.size}")
    return v.astype(np.int32).reshape(games, n_players)
