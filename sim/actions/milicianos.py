"""4. DEPLOY MILICIANOS: a Miliciano from the supply onto one of the seat's War markers, or a
Miliciano made a Veteran for precious (card 45 may waive it)."""

from numba import njit

from sim.actions.turn_rows import add_row
from sim.codes import Act, Ev
from sim.core import log, place_workers
from sim.economy import card45_cut, pay_plan, pay_resources
from sim.rules import RK
from sim.state import G, Mini, Sup


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def miliciano_rows(st, r, seat, k, avail):
    """The MILICIANO rows from row ``k``: (0, the first empty War marker) to deploy, (1, marker) to
    make each Miliciano a Veteran."""
    if avail >= r.k[RK.MILICIANO_WORKERS]:
        if st.supply[Sup.MILICIANOS] > 0:
            for j in range(r.k[RK.WAR_MARKERS]):
                if st.minis[seat, j, 0] == Mini.NONE:
                    k = add_row(st, k, Act.MILICIANO, 0, j, 0, 0)
                    break
        if pay_plan(st, seat, 0, 0, card45_cut(st, r, seat, 0, 0, r.k[RK.MILICIANO_VET_PRECIOUS])[2], 0, 1) >= 0:
            for j in range(r.k[RK.WAR_MARKERS]):
                if st.minis[seat, j, 0] == Mini.MILICIANO:
                    k = add_row(st, k, Act.MILICIANO, 1, j, 0, 0)
    return k


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def deploy_milicianos(st, r, seat, vet, j):
    """4. DEPLOY MILICIANOS: row (``vet``, ``j``) of :func:`miliciano_rows` on War marker ``j``."""
    place_workers(st, seat, r.k[RK.MILICIANO_WORKERS])
    if vet == 0:
        st.supply[Sup.MILICIANOS] -= 1
        st.minis[seat, j, 0] = Mini.MILICIANO
        st.minis[seat, j, 1] = 0
    else:
        pv = card45_cut(st, r, seat, 0, 0, r.k[RK.MILICIANO_VET_PRECIOUS])[2]
        st.g[G.CARD45_RES] = 0
        pay_resources(st, seat, 0, 0, pv, 0, pay_plan(st, seat, 0, 0, pv, 0, 1))
        st.minis[seat, j, 0] = Mini.MILICIANO_VET
    log(st, Ev.MILICIANO, seat, vet, j)
