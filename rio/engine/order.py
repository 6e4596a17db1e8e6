"""Player order (PLAYER ORDER; RP-15): in phase C the players who added workers to the order track move,
the fewest added first (ties: the later in the current order first, as in the rulebook's example); each
moves his marker to any position, the others sliding, and takes his added workers back, or stays and
keeps them for the next turn."""

from __future__ import annotations

from numba import njit

from rio.engine import seam
from rio.engine.state import PK, G
from rio.keys import K


@njit(cache=True)
def position_of(st, seat):
    for p in range(st.g[G.PLAYERS]):
        if st.order[p] == seat:
            return p
    return -1


@njit(cache=True)
def move_marker(st, seat, to):
    """Move ``seat`` to position ``to``; the markers between slide by one, in their order."""
    frm = position_of(st, seat)
    if frm < to:
        for p in range(frm, to):
            st.order[p] = st.order[p + 1]
    else:
        for p in range(frm, to, -1):
            st.order[p] = st.order[p - 1]
    st.order[to] = seat


@njit(cache=True)
def next_mover(r, st, done):
    """The next player to move on the order track: among those with added workers who have not moved
    (``done``: a bit per seat), the fewest added first; ties: the later in the current order first (RP-15).
    -1 when none is left."""
    later_first = r.k[K.ORDER_TIE] == 0
    pick, best, best_pos = -1, 0, -1
    for p in range(st.g[G.PLAYERS]):
        seat = st.order[p]
        a = st.pl[seat, PK.ORDER_ADDED]
        if a == 0 or done & (1 << seat):
            continue
        fewer = a < best if r.k[K.ORDER_FEWEST_ADDED_FIRST] else a > best
        tie = a == best and ((later_first and p > best_pos) or (not later_first and p < best_pos))
        if pick < 0 or fewer or tie:
            pick, best, best_pos = seat, a, p
    return pick


@njit(cache=True)
def update_order(r, st, pol):
    done = 0
    while True:
        pick = next_mover(r, st, done)
        if pick < 0:
            return
        done |= 1 << pick
        to = seam.choose_position(r, st, pol, pick)
        if to != position_of(st, pick) or not r.k[K.ORDER_KEEP_ADDED_IF_STAYING]:
            move_marker(st, pick, to)
            st.pl[pick, PK.SUPPLY] += st.pl[pick, PK.ORDER_ADDED]
            st.pl[pick, PK.ORDER_ADDED] = 0
