"""3. DEFENDERS PLACEMENT: the districts where a player's Milicianos and Soldiers may stand and their
placement, at the war's start and for "the new Milicianos or Soldiers created during the War"
(the Deploy after a turn, :mod:`sim.extended_war.flow`), with cards 54 (a Barracks in the adjacent
district) and 59 (a worker as a Miliciano)."""

from numba import njit

from sim.cardpower import holder, offer, use
from sim.codes import Card, Dec, Ev
from sim.combat_area import is_soldier, owns_building_in
from sim.core import decide, log, set_option
from sim.extended_war.wounds import CARD59_WORKER, commander
from sim.rules import RK
from sim.state import PF, XG, XM, B, G, Mini
from sim.war_track import card59_takes_worker, card59_worker


@njit(cache=True)
def barracks_in(st, r, d):
    for i in range(r.district_ncells[d]):
        if st.cell_b[r.district_cells[d, i]] == B.BARRACKS:
            return True
    return False


@njit(cache=True)
def can_deploy(st, r, seat, slot, d):
    """DEFENDERS PLACEMENT: a Miliciano in a district where its player owns a building, a Soldier
    in a district with a Barracks (or the district its player selected with card 54 in this war:
    :func:`card54_district`), or anywhere once the Fort is built."""
    kind = st.minis[seat, slot, 0]
    if kind == Mini.NONE:
        return False
    if is_soldier(kind):
        return st.g[G.FORT_BUILT] == 1 or barracks_in(st, r, d) or card54_district(st, seat) == d
    return owns_building_in(st, r, seat, d)


@njit(cache=True)
def card54_district(st, seat):
    """Card 54 (lightning: "Consider a Barracks present in the selected district adjacent. This
    allows you to hire Soldiers there"): the district the seat selected with it in this war, where
    its Soldiers are placed as if a Barracks stood there; -1 none (rules extended_war.reading_card54)."""
    if st.xw[XG.C54_SEAT] != seat + 1:
        return -1
    return st.xw[XG.C54_DISTRICT] - 1


@njit(cache=True)
def card54_can_select(st, r, seat, d):
    """The seat may place a Soldier in district ``d`` by using card 54 now: it holds the card upright,
    has selected no district with it in this war, and ``d`` has no Barracks of its own but one in an
    adjacent district (the reading of the Scoring's card 54, sim.scoring)."""
    if holder(st, Card.C54) != seat or st.xw[XG.C54_SEAT] != 0 or barracks_in(st, r, d):
        return False
    for e in range(r.district_ncells.shape[0]):
        if r.district_adj[d, e] == 1 and barracks_in(st, r, e):
            return True
    return False


@njit(cache=True)
def deploy(st, r, seat, slot, d):
    """Put the seat's miniature on war marker ``slot`` into district ``d`` (legal by :func:`can_deploy`)."""
    st.xw_mini[seat, slot, XM.POS] = d
    st.xw_mini[seat, slot, XM.READY] = 0
    log(st, Ev.XW_DEPLOY, seat, slot, d)


@njit(cache=True)
def deploy_defenders(st, r, seat):
    """DEFENDERS PLACEMENT: "Each player must place his Milicianos and Soldiers in the Combat Area":
    each miniature off the area with a legal district goes to one the player chooses
    (``Dec.XW_DEPLOY`` rows [district, slot, seat, 1 when card 54 is used to place it there]: a
    Soldier may also go to a district next to a Barracks by using card 54, which then serves the
    seat's Soldiers for the rest of the war, :func:`card54_district`)."""
    nm = r.k[RK.WAR_MARKERS]
    nd = r.district_ncells.shape[0]
    for slot in range(nm):
        if st.minis[seat, slot, 0] == Mini.NONE or st.xw_mini[seat, slot, XM.POS] >= 0:
            continue
        k = 0
        for d in range(nd):
            if can_deploy(st, r, seat, slot, d):
                set_option(st, k, d, slot, seat, 0)
                k += 1
            elif is_soldier(st.minis[seat, slot, 0]) and card54_can_select(st, r, seat, d):
                set_option(st, k, d, slot, seat, 1)
                k += 1
        if k > 0:
            i = decide(st, r, commander(st, seat), Dec.XW_DEPLOY, k)
            d = st.opts[i, 0]
            if st.opts[i, 3] == 1:
                use(st, seat, Card.C54)
                st.xw[XG.C54_DISTRICT] = d + 1
                st.xw[XG.C54_SEAT] = seat + 1
                log(st, Ev.CARD_EFFECT, seat, Card.C54, d)
            deploy(st, r, seat, slot, d)


@njit(cache=True)
def free_war_marker(st, r, seat):
    """The seat's first war marker it has and holds no miniature on (where a card 59 worker or a
    card 83 recruit joins its defenders), or -1."""
    for k in range(r.k[RK.WAR_MARKERS]):
        if st.minis[seat, k, 0] == Mini.NONE and k < st.pl[seat, PF.WAR_MARKERS]:
            return k
    return -1


@njit(cache=True)
def card59_miliciano(st, r, seat):
    """Card 59 (lightning: "You can consider your worker disk like a Miliciano miniature. Place the
    used worker on this card until the end of the next decade") at the DEFENDERS PLACEMENT of an
    Extended War: offered when the seat has a free war marker and a district to place a Miliciano
    in; used, one of its workers joins its defenders as a standard Miliciano on that war marker
    (no supply miniature: it leaves at the war's end, as a card 83 recruit) and stays on the card
    until the end of the war's decade, "the next decade" after the War's declaration (rules
    extended_war.reading_card59)."""
    w59 = card59_worker(st, seat)
    if w59 < 0:
        return
    free = free_war_marker(st, r, seat)
    if free < 0:
        return
    placed = False
    for d in range(r.district_ncells.shape[0]):
        if owns_building_in(st, r, seat, d):
            placed = True
            break
    if not placed or offer(st, r, Card.C59, seat) < 0:
        return
    card59_takes_worker(st, seat, w59, False)
    st.minis[seat, free, 0] = Mini.MILICIANO
    st.minis[seat, free, 1] = 0
    st.xw_mini[seat, free, XM.POS] = -1
    st.xw_mini[seat, free, XM.RECRUIT] = CARD59_WORKER


@njit(cache=True)
def defenders_placement(st, r):
    """COMBAT AREA SETUP 3. DEFENDERS PLACEMENT, in turn order: card 59's worker first
    (:func:`card59_miliciano`), then every miniature (:func:`deploy_defenders`)."""
    for i in range(st.g[G.NPLAYERS]):
        s = st.order[i]
        card59_miliciano(st, r, s)
        deploy_defenders(st, r, s)
