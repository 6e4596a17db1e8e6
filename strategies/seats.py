"""The players' part of the state record: each seat's strategy weights and the policy's scratch and
memos. The engine (sim.state) owns the game; these fields belong to the players, so they are
declared here and reach the engine only through :mod:`sim.seam`: :func:`sim.game.allocate` packs
:func:`seat_data`'s arrays after the engine's own fields into the one state record, SETUP hands each
seat its weights (:func:`seat_weights`, then :func:`character_weights` once the Characters are dealt),
and :func:`sim.game.copy_state` copies what a simulation of the game needs (:func:`copy_seat_data`).
Nothing in the engine reads them; :mod:`strategies.policy` and the planners do.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from sim.state import MAX_GROUPS, MAX_OPTIONS, MAX_PLAYERS, N_BUILDING_TYPES, N_CHARACTERS, N_DISTRICTS, PF
from strategies.weights import N_WEIGHTS


class SeatData(NamedTuple):
    """The players' fields of the state record (sim.state.pack puts them after :class:`sim.state.State`'s)."""

    # ---- game state: copied into a simulation's state (copy_seat_data)
    w: np.ndarray  # float64[5, N_WEIGHTS]    each seat's strategy weights (family in column 0), set at SETUP
    # ---- work areas: one decision's values
    vals: np.ndarray  # float64[MAX_OPTIONS]  policy: value of each option of the current decision (st.opts)
    grp_vals: np.ndarray  # float64[MAX_GROUPS]  policy: value of each BUILD group of a grouped TURN listing (st.grp)
    # ---- work areas: memos (rebuilt whenever what they were made from differs: strategies.policy_build.memo_refresh)
    dist: np.ndarray  # int32[5, 4, 8]        per seat, district table [value, own marker buildings, own Houses + Palaces, filled]
    bval: np.ndarray  # float64[5, 2, 17, 9]  per seat, BUILD value by (Status marker, type, district + 1); NaN unfilled
    memo_key: np.ndarray  # int32[5, MK]      per seat, what dist and bval were computed from
    memo_w: np.ndarray  # float64[5, N_WEIGHTS] per seat, the weights they were computed with


SEAT_GAME_FIELDS = ("w",)
SEAT_WORK_FIELDS = tuple(f for f in SeatData._fields if f not in SEAT_GAME_FIELDS)


def memo_key_len(n_cells: int, n_segments: int) -> int:
    """Length of a seat's policy memo key: cell_b, cell_owner, roads, walls, then Fort built, Harbor
    built, the seat's Faith, its Character and a valid flag (strategies.policy_build.memo_refresh)."""
    return 2 * n_cells + N_DISTRICTS + n_segments + 5


def seat_data(n_cells: int, n_segments: int) -> SeatData:
    """The players' fields for a map of ``n_cells`` spaces and ``n_segments`` wall segments, blank."""
    z = np.zeros
    return SeatData(
        w=z((MAX_PLAYERS, N_WEIGHTS), np.float64),
        vals=z(MAX_OPTIONS, np.float64),
        grp_vals=z(MAX_GROUPS, np.float64),
        dist=z((MAX_PLAYERS, 4, N_DISTRICTS), np.int32),
        bval=z((MAX_PLAYERS, 2, N_BUILDING_TYPES, N_DISTRICTS + 1), np.float64),
        memo_key=z((MAX_PLAYERS, memo_key_len(n_cells, n_segments)), np.int32),  # valid flag 0: empty
        memo_w=z((MAX_PLAYERS, N_WEIGHTS), np.float64),
    )


@njit(cache=True)
def seat_weights(st, W, s, strategy):
    """SETUP: seat ``s`` plays strategy ``strategy`` (a row of ``W``; below 0 none: the A.I.'s seat):
    the row's first block (strategies.registry) until the Characters are dealt. The policy reads
    its weights from the state, so no array has to be passed down to every decision."""
    for j in range(N_WEIGHTS):
        st.w[s, j] = W[strategy, j] if j < W.shape[1] and strategy >= 0 else 0.0


@njit(cache=True)
def character_weights(st, W, n, strategies):
    """SETUP, once the Characters are dealt: a strategy may carry one weight set per Character (W
    block 1 + character, strategies.registry); each seat plays its own Character's set from now on."""
    if W.shape[1] < N_WEIGHTS * (1 + N_CHARACTERS):
        return
    for s in range(n):
        if strategies[s] < 0:
            continue
        o = N_WEIGHTS * (1 + st.pl[s, PF.CHARACTER])
        for j in range(N_WEIGHTS):
            st.w[s, j] = W[strategies[s], o + j]


@njit(cache=True)
def copy_seat_data(dst, src):
    """sim.game.copy_state's share: the seats' weights (the memos and work areas are rebuilt as needed)."""
    dst.w[:] = src.w
