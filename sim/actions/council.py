"""9. CITY COUNCIL as a main action: workers for City Council points (the vote and the laws are
:mod:`sim.council_vote`)."""

from numba import njit

from sim.actions.turn_rows import add_row
from sim.codes import Act, Ev
from sim.core import log, place_workers
from sim.council_vote import gain_council
from sim.state import PF


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def council_rows(st, r, k, avail):
    """9. CITY COUNCIL: the COUNCIL rows from row ``k``, 1 or 2 workers (one row per entry of
    ``actions.council_gain``)."""
    for w in range(1, min(avail, r.council_gain.shape[0]) + 1):
        k = add_row(st, k, Act.COUNCIL, w, 0, 0, 0)
    return k


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def city_council(st, r, seat, w):
    place_workers(st, seat, w)
    gain_council(st, r, seat, r.council_gain[w - 1])
    log(st, Ev.COUNCIL, seat, w, r.council_gain[w - 1], st.pl[seat, PF.COUNCIL])
