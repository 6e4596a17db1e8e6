"""FREE ACTIONS (any number, before the turn's main action): call a City Council vote, burn an
Affiliate card, take a City Warehouse cube, recover workers from a Major Building grid, remove a
Lot, a City Council worker by Worker status, the Cards status' free reactivation, and using an
Affiliate card (:mod:`sim.affiliates`)."""

from numba import njit

from sim.actions.turn_rows import add_row
from sim.affiliates import hand_card_options
from sim.codes import Act, Ev
from sim.core import add_vp, log
from sim.council_vote import can_call_vote, law_options
from sim.economy import coin_value, pay_coins
from sim.major_buildings import own_on_grid
from sim.rules import RK
from sim.state import N_CHARACTERS, PF, VS, B, Sup


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def free_rows(st, r, seat, k, hand, n_hand, n_own, own):
    """FREE ACTIONS: the free action rows from row ``k``; ``hand[:n_hand]`` the seat's cards,
    ``own[:n_own]`` its spaces."""
    if can_call_vote(st, r, seat):
        k = law_options(st, r, seat, k)
    for j in range(n_hand):
        c = hand[j]
        if c >= N_CHARACTERS and st.card_turn[c] == 0:
            k = add_row(st, k, Act.F_BURN, c, 0, 0, 0)
    for res in range(2):
        if st.warehouse[res] > 0:
            k = add_row(st, k, Act.F_WAREHOUSE, res, 0, 0, 0)
    for m in range(6):
        if st.major_state[m, 0] == 0 and own_on_grid(st, m, seat) > 0:
            k = add_row(st, k, Act.F_RECOVER, m, 0, 0, 0)
    for j in range(n_own):
        c = own[j]
        if st.cell_b[c] == B.LOT:
            k = add_row(st, k, Act.F_REMOVE_LOT, c, 0, 0, 0)
    lvl = st.pl[seat, PF.ST_WORKER]
    if lvl > 0 and st.pl[seat, PF.USED_CC_STATUS] == 0 and st.supply[Sup.COUNCIL_WORKERS] > 0:
        if r.worker_bronze[lvl - 1] == 0:
            k = add_row(st, k, Act.F_CC_WORKER, 3, 0, 0, 0)
        else:
            if coin_value(st, r, seat) >= r.worker_bronze[lvl - 1]:
                k = add_row(st, k, Act.F_CC_WORKER, 0, 0, 0, 0)
            if lvl >= 2:
                if st.pl[seat, PF.WOOD] > 0:
                    k = add_row(st, k, Act.F_CC_WORKER, 1, 0, 0, 0)
                if st.pl[seat, PF.STONE] > 0:
                    k = add_row(st, k, Act.F_CC_WORKER, 2, 0, 0, 0)
    if st.pl[seat, PF.ST_CARDS] >= 2 and st.pl[seat, PF.REACT_FREE] == 0:
        k = add_row(st, k, Act.F_FREE_REACT, 0, 0, 0, 0)
    return hand_card_options(st, r, seat, k, hand, n_hand)


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def warehouse_cube(st, r, seat, res):
    """Take a City Warehouse cube (wood 0, stone 1): it must be used this turn (END of the turn)."""
    st.warehouse[res] -= 1
    st.pl[seat, PF.WOOD + res] += 1
    st.pl[seat, PF.WH_WOOD + res] += 1
    st.gained[seat, res] += 1
    log(st, Ev.WAREHOUSE, seat, res)
    add_vp(st, seat, r.k[RK.WAREHOUSE_VP], VS.WAREHOUSE)


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def remove_lot(st, seat, c):
    st.cell_b[c] = B.NONE
    st.cell_owner[c] = -1
    st.pl[seat, PF.LOTS] += 1
    log(st, Ev.REMOVE_LOT, seat, c)


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def status_council_worker(st, r, seat, pay):
    """Worker status: City Council workers once per decade, paid in bronze (``pay`` 0), a wood (1)
    or a stone (2), or free (3)."""
    lvl = st.pl[seat, PF.ST_WORKER]
    if pay == 0:
        pay_coins(st, r, seat, r.worker_bronze[lvl - 1])
    elif pay == 1 or pay == 2:
        res = pay - 1
        st.pl[seat, PF.WOOD + res] -= 1
        st.supply[Sup.WOOD + res] += 1
        st.pl[seat, PF.WH_WOOD + res] = max(0, st.pl[seat, PF.WH_WOOD + res] - 1)
    n = min(r.worker_cc[lvl - 1], st.supply[Sup.COUNCIL_WORKERS])
    st.supply[Sup.COUNCIL_WORKERS] -= n
    st.pl[seat, PF.CC_WORKERS] += n
    st.pl[seat, PF.USED_CC_STATUS] = 1
    log(st, Ev.CC_WORKER, seat, n, pay)


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def free_reactivation(st, seat):
    """Cards status II: one free reactivation this decade."""
    st.pl[seat, PF.REACT_FREE] = 1
    log(st, Ev.REACTIVATE, seat, 0)
