"""What several main actions share: a TURN row written whole (:func:`add_row`), the Minor
building types, and the worker-discount cards (13, 19, 25, 58, 65) that 1-2. MINOR BUILDING
CONSTRUCTION and 2. MINOR BUILDING ACTIVATION both honour."""

from numba import njit

from sim.cardpower import card_active
from sim.codes import Card
from sim.core import set_option
from sim.rules import AP
from sim.state import Sup

N_MINOR = 15  # building types 1..14 are built with the Minor building actions
# cards 13, 19, 25, 58, 65: build or activate their buildings with one Worker less (worker_discount)
WORKER_DISCOUNT_CARDS = (Card.C13, Card.C19, Card.C25, Card.C58, Card.C65)


@njit(cache=True)
def add_row(st, k, act, a, b, c, d):
    """TURN row ``k`` written whole (core.set_option); returns ``k + 1``."""
    set_option(st, k, act, a, b, c, d)
    return k + 1


@njit(cache=True)
def worker_discount(st, r, seat, t):
    """Cards 13, 19, 25, 58, 65 used this turn: build or activate their buildings (bit t of the
    card's buildings) "with the discount of 1 Worker" if a City Council worker is available (one
    City Council worker stands in for each worker saved, ``worker_discount``)."""
    if st.supply[Sup.COUNCIL_WORKERS] <= 0:
        return 0
    for c in WORKER_DISCOUNT_CARDS:
        if card_active(st, seat, c) and (r.aff_buildings[c] >> t) & 1:
            return r.aff_p[c, AP.WORKER_DISCOUNT] if st.supply[Sup.COUNCIL_WORKERS] >= r.aff_p[c, AP.WORKER_DISCOUNT] else 0
    return 0


@njit(cache=True)
def worker_discount_any(st, r, seat):
    """One of the worker-discount cards (:func:`worker_discount`) applies to something this turn."""
    if st.supply[Sup.COUNCIL_WORKERS] <= 0:
        return False
    for c in WORKER_DISCOUNT_CARDS:
        if card_active(st, seat, c):
            return True
    return False


@njit(cache=True)
def spend_discount(st, r, seat, t):
    """A discount card works for one action: the one whose buildings include t stops applying."""
    for c in WORKER_DISCOUNT_CARDS:
        if card_active(st, seat, c) and (r.aff_buildings[c] >> t) & 1:
            st.card_active[c] = 0
            return
