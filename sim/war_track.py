"""The War Penalty track after a War, won or lost: one rule for the base War (C.3 WAR PROCEDURE)
and the Extended War (END OF THE WAR), which move the same marker with the same bookkeeping.

Also which of the two a declared War is (:func:`extended_war_on`), asked by the base War's
declaration (sim.war): here beside what both Wars share, so that the base War need not import the
expansion (sim.extended_war).
"""

from numba import njit

from sim.banners import banner_step
from sim.cardpower import holder, offer
from sim.codes import Card, Ev
from sim.core import gain_vp, log
from sim.economy import take_coins
from sim.rules import AP, RK, XK
from sim.state import PF, TS, VS, Banner, G

NATIVES = 1  # the factions (C.3 TENSION LEVEL & WAR), as sim.war and sim.extended_war name them
PIRATES = 2


@njit(cache=True)
def extended_war_on(r):
    """The expansion is in play (rules ``extended_war.enabled``): the decade's flow asks this
    before using anything of the expansion (sim.extended_war), so that the normal game runs none of it."""
    return r.xw_k[XK.ENABLED] == 1


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


@njit(cache=True)
def card57_pays(st, r):
    """Card 57 (lightning) at a War's end: "Gain 1 VP for each Miliciano (and 2 VPs for each Soldier)
    used in the current War (add 1 VP in 2-3 player game)", every player's miniatures counted
    (``G.WAR_MILICIANOS`` / ``G.WAR_SOLDIERS``: those that fought in the normal War; in the Extended
    War those that fought a Fight!, rules extended_war.reading_card57)."""
    used = st.g[G.WAR_MILICIANOS] + st.g[G.WAR_SOLDIERS]
    if used <= 0:
        return
    s = offer(st, r, Card.C57, -1)
    if s >= 0:
        p = r.aff_p[Card.C57]
        v = st.g[G.WAR_MILICIANOS] * p[AP.VP_PER_MILICIANO] + st.g[G.WAR_SOLDIERS] * p[AP.VP_PER_SOLDIER]
        if st.g[G.NPLAYERS] <= r.k[RK.SMALL_GAME_MAX]:
            v += p[AP.SMALL_GAME_EXTRA_VP]
        gain_war_vp(st, r, s, v)


@njit(cache=True)
def card59_worker(st, seat):
    """Where the worker card 59 can send to fight comes from: 0 an available worker, 1 one placed on
    an action space this decade (all are by the time of the War), -1 none or the card not held upright."""
    if holder(st, Card.C59) != seat:
        return -1
    if st.pl[seat, PF.WORKERS] > 0:
        return 0
    if st.pl[seat, PF.WORKERS_PLACED] > 0:
        return 1
    return -1


@njit(cache=True)
def card59_takes_worker(st, seat, w59, next_decade):
    """Card 59 used (rotated by the caller): "Place the used worker on this card until the end of the
    next decade": the worker (``w59`` of :func:`card59_worker`) leaves the seat's workers and comes
    back at the Recover Workers of the next decade (``next_decade``) or of this one."""
    if w59 == 0:
        st.pl[seat, PF.WORKERS] -= 1
    else:
        st.pl[seat, PF.WORKERS_PLACED] -= 1
    if next_decade:
        st.pl[seat, PF.CARD59_NEXT] += 1
    else:
        st.pl[seat, PF.CARD59_THIS] += 1
    log(st, Ev.CARD_EFFECT, seat, Card.C59, w59)
