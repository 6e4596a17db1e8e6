"""8. PLAYER ORDER: workers on the Player Order space (the next decade's order, C.5)."""

from numba import njit

from sim.actions.turn_rows import add_row
from sim.codes import Act, Ev
from sim.core import log, place_workers
from sim.state import PF


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def order_rows(st, k, avail):
    """8. PLAYER ORDER: the ORDER rows from row ``k``, 1 .. ``avail`` workers."""
    for w in range(1, avail + 1):
        k = add_row(st, k, Act.ORDER, w, 0, 0, 0)
    return k


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def player_order(st, seat, w):
    place_workers(st, seat, w)
    st.pl[seat, PF.ORDER_WORKERS] += w
    log(st, Ev.ORDER, seat, w)
