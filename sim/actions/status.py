"""10. IMPROVE STATUS as a main action: one level up in a Status category (Construction,
Worker, VP, Cards), a Status marker taken for a new category; card 84's discount. What each level
gives is applied where it is used (costs, City Council workers, VP assignation, cards)."""

from numba import njit

from sim.actions.turn_rows import add_row
from sim.cardpower import card_active
from sim.codes import Act, Card, Ev
from sim.core import council_worker_stands_in, log, place_workers
from sim.economy import coin_value, pay_coins
from sim.rules import AP, RK
from sim.state import N_STATUS, PF, Sup


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def status_rows(st, r, seat, k, avail):
    """The STATUS rows from row ``k``: (category, new level, card 84 in use); at most 2 categories
    (2 Status markers); a category's levels are the entries of ``status.level_workers`` (3)."""
    for cat in range(N_STATUS):
        lvl = st.pl[seat, PF.ST_CONSTRUCTION + cat]
        if lvl >= r.st_workers.shape[0]:
            continue
        if lvl == 0 and st.pl[seat, PF.STATUS_MARKERS] <= 0:
            continue
        # card 84 used this turn: 1 worker (a City Council worker stands in) and 1 bronze less
        d84 = 1 if (card_active(st, seat, Card.C84) and st.supply[Sup.COUNCIL_WORKERS] >= max(1, r.aff_p[Card.C84, AP.WORKER_DISCOUNT])) else 0
        wk = r.st_workers[lvl] - d84 * r.aff_p[Card.C84, AP.WORKER_DISCOUNT]
        cost = r.k[RK.BRONZE_PER_SILVER] * r.st_silver[lvl] - d84 * r.aff_p[Card.C84, AP.BRONZE_DISCOUNT]
        if wk <= avail and coin_value(st, r, seat) >= cost:
            k = add_row(st, k, Act.STATUS, cat, lvl + 1, d84, 0)
    return k


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def improve_status(st, r, seat, cat, d84):
    """Row (``cat``, _, ``d84``) of :func:`status_rows`."""
    lvl = st.pl[seat, PF.ST_CONSTRUCTION + cat]
    if d84 > 0:  # card 84
        st.card_active[Card.C84] = 0
        wd = r.aff_p[Card.C84, AP.WORKER_DISCOUNT]
        place_workers(st, seat, r.st_workers[lvl] - wd)
        for _ in range(wd):
            council_worker_stands_in(st, seat)
        pay_coins(st, r, seat, r.k[RK.BRONZE_PER_SILVER] * r.st_silver[lvl] - r.aff_p[Card.C84, AP.BRONZE_DISCOUNT])
    else:
        place_workers(st, seat, r.st_workers[lvl])
        pay_coins(st, r, seat, r.k[RK.BRONZE_PER_SILVER] * r.st_silver[lvl])
    if lvl == 0:
        st.pl[seat, PF.STATUS_MARKERS] -= 1
    st.pl[seat, PF.ST_CONSTRUCTION + cat] = lvl + 1
    log(st, Ev.STATUS, seat, cat, lvl + 1)
