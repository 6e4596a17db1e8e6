"""8. PLAYER ORDER: workers on the Player Order space (the next decade's order, C.5)."""

from numba import njit

from sim.actions.turn_rows import add_row
from sim.codes import Act, Ev
from sim.core import log, place_workers
from sim.state import PF


@njit(cache=True)
def worker_rows(st, k, act, n):
    """The ``act`` rows from row ``k`` of an action whose only choice is its number of workers,
    1 .. ``n`` (8. PLAYER ORDER, 7. REACTIVATE CARDS)."""
    for w in range(1, n + 1):
        k = add_row(st, k, act, w, 0, 0, 0)
    return k


@njit(cache=True)
def workers_on(st, seat, w, slot, ev):
    """``w`` of the seat's workers on the action's space, counted in its ``st.pl`` ``slot``, logged
    as ``ev`` (8. PLAYER ORDER, 7. REACTIVATE CARDS)."""
    place_workers(st, seat, w)
    st.pl[seat, slot] += w
    log(st, ev, seat, w)


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def order_rows(st, k, avail):
    """8. PLAYER ORDER: the ORDER rows from row ``k``, 1 .. ``avail`` workers."""
    return worker_rows(st, k, Act.ORDER, avail)


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def player_order(st, seat, w):
    workers_on(st, seat, w, PF.ORDER_WORKERS, Ev.ORDER)
