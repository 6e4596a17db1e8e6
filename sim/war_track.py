"""The War Penalty track after a War, won or lost: one rule for the base War (C.3 WAR PROCEDURE)
and the Extended War (END OF THE WAR), which move the same marker with the same bookkeeping."""

from numba import njit

from sim.banners import banner_step
from sim.cardpower import offer
from sim.codes import Card
from sim.core import gain_vp
from sim.economy import take_coins
from sim.rules import AP, RK
from sim.state import PF, TS, VS, Banner

NATIVES = 1  # the factions (C.3 TENSION LEVEL & WAR), as sim.war and sim.extended_war name them
PIRATES = 2


@njit(cache=True)
def gain_war_vp(st, r, seat, amount):
    """A VP assignation the War makes (cards 34, 55, 57: an Affiliate card's lightning power), with
    what the VP status bonus adds to it, tallied for the records (``TS.WAR_VP``)."""
    before = st.pl[seat, PF.VP]
    gain_vp(st, r, seat, amount, VS.AFFILIATE)
    st.tally[seat, TS.WAR_VP] += st.pl[seat, PF.VP] - before


@njit(cache=True)
def war_won(st, r, seat, faction, steps):
    """A War won: the War Penalty marker ``steps`` to the left (not past the track's first space,
    R-07), the wars won (the Captain's in this Era too), the red banner, and cards 50 and 55
    (lightning: "when you win a War", more against the Pirates). Returns the steps moved (<= 0)."""
    before = st.pl[seat, PF.WAR_PENALTY]
    st.pl[seat, PF.WAR_PENALTY] = max(r.k[RK.PENALTY_MIN], before - steps)
    st.pl[seat, PF.WARS_WON] += 1
    st.pl[seat, PF.WARS_WON_ERA] += 1
    banner_step(st, r, seat, Banner.RED)
    if offer(st, r, Card.C50, seat) >= 0:
        p = r.aff_p[Card.C50]
        take_coins(st, r, seat, p[AP.SILVER_VS_PIRATES] if faction == PIRATES else p[AP.SILVER], 0)
    if offer(st, r, Card.C55, seat) >= 0:
        p = r.aff_p[Card.C55]
        gain_war_vp(st, r, seat, p[AP.VP_VS_PIRATES] if faction == PIRATES else p[AP.VP])
    return st.pl[seat, PF.WAR_PENALTY] - before


@njit(cache=True)
def war_lost(st, r, seat, steps):
    """A War lost: the War Penalty marker ``steps`` to the right; past the track's end the City
    Council marker moves down instead, one step per step left over (R-07, "the end of the track"),
    not below its war floor. Returns (steps moved, City Council change)."""
    st.pl[seat, PF.WARS_LOST] += 1
    before = st.pl[seat, PF.WAR_PENALTY]
    newp = before + steps
    dcouncil = 0
    over = newp - r.k[RK.PENALTY_MAX]
    if over > 0:
        newp = r.k[RK.PENALTY_MAX]
        cb = st.pl[seat, PF.COUNCIL]
        st.pl[seat, PF.COUNCIL] = max(r.k[RK.COUNCIL_FLOOR_WAR], cb - over)
        dcouncil = st.pl[seat, PF.COUNCIL] - cb
    st.pl[seat, PF.WAR_PENALTY] = newp
    return newp - before, dcouncil
