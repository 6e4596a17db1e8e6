"""What the Extended War's sections share: the wounds and the removal of a miniature (FIGHT! ACTION
DESCRIPTION: "If this is the second wound token, remove the miniature immediately"; "The removed
player miniature comes back to the game supply"), who commands a seat's troops (TWO PLAYERS GAME &
SOLO MODE: the Solo A.I.'s by the first human player in turn order), a fight without a winner, and
the codes of a player miniature that took none from the supply (``XM.RECRUIT``)."""

from numba import njit

from sim.ai_choice import first_human
from sim.codes import Ev
from sim.combat_area import SIDE_ATTACKER, SIDE_PLAYER, is_soldier
from sim.core import log
from sim.rules import XK
from sim.state import AS, TS, XA, XG, XM, XP, G, Mini, Sup

CARD83_RECRUIT = 1  # XM.RECRUIT: a Miliciano card 83 added (no supply miniature; it leaves at the war's end)
CARD59_WORKER = 2  # XM.RECRUIT: card 59's worker fighting as a Miliciano (likewise)

NO_WINNER = -1


@njit(cache=True)
def commander(st, seat):
    """Who decides for the seat's troops: the seat itself, or for the Solo A.I. the first human
    player in turn order (TWO PLAYERS GAME & SOLO MODE: "the first player in the turn order uses A.I. troops")."""
    if st.g[G.AI] == seat + 1:
        h = first_human(st)
        return h if h >= 0 else seat
    return seat


@njit(cache=True)
def wounds_in_use(st, r):
    """Wounds markers on miniatures (player miniatures keep theirs after a war)."""
    n = 0
    for s in range(st.minis.shape[0]):
        for k in range(st.minis.shape[1]):
            if st.minis[s, k, 0] != Mini.NONE:
                n += st.minis[s, k, 1]
    for t in range(st.xw[XG.N_TILES]):
        s = st.xw_att[t, XA.STATE]
        if s == AS.OUTSIDE or s == AS.IN:
            n += st.xw_att[t, XA.WOUNDS]
    return n


@njit(cache=True)
def _clear_mini(st, seat, slot):
    st.minis[seat, slot, 0] = Mini.NONE
    st.minis[seat, slot, 1] = 0
    st.xw_mini[seat, slot, XM.POS] = -1
    st.xw_mini[seat, slot, XM.RECRUIT] = 0
    st.xw_mini[seat, slot, XM.MOVES] = 0
    st.xw_mini[seat, slot, XM.FOUGHT] = 0
    st.xw_mini[seat, slot, XM.IMMOBILE] = 0


@njit(cache=True)
def remove_player_mini(st, seat, slot):
    """The removed player miniature "comes back to the game supply" (a card 83 recruit, which took
    none from it, just leaves)."""
    kind = st.minis[seat, slot, 0]
    if st.xw_mini[seat, slot, XM.RECRUIT] == 0:
        if is_soldier(kind):
            st.supply[Sup.SOLDIERS] += 1
        else:
            st.supply[Sup.MILICIANOS] += 1
    _clear_mini(st, seat, slot)
    st.tally[seat, TS.MINIS_LOST] += 1
    log(st, Ev.XW_REMOVED, SIDE_PLAYER, seat, slot, -1)
    log(st, Ev.MINI_LOST, seat, kind)


@njit(cache=True)
def remove_attacker(st, r, t, by_seat):
    """An attacker leaves the area: defeated by ``by_seat`` (who keeps its control card until the
    war ends; a recruit has none) or, with ``by_seat`` -1, gone by its own card."""
    st.xw_att[t, XA.STATE] = AS.DEFEATED if by_seat >= 0 else AS.GONE
    st.xw_att[t, XA.OWNER] = by_seat if st.xw_att[t, XA.CARD] >= 0 else -1
    if by_seat >= 0 and st.xw_att[t, XA.CARD] >= 0:
        st.xw_seat[by_seat, XP.CONTROL_HP] += r.xw_att_hp[st.xw_att[t, XA.KIND]]
    if by_seat >= 0:
        st.tally[by_seat, TS.XW_DEFEATED] += 1
    st.xw_att[t, XA.WOUNDS] = 0
    log(st, Ev.XW_REMOVED, SIDE_ATTACKER, -1, t, by_seat)


@njit(cache=True)
def wound_player(st, r, seat, slot):
    """One wound on a player miniature: the second removes it. Returns 1 when it was removed.
    A first wound with no Wounds marker left in the box is not placed."""
    if st.minis[seat, slot, 0] == Mini.NONE:
        return 0
    if st.minis[seat, slot, 1] + 1 >= r.xw_k[XK.WOUNDS_REMOVE]:
        remove_player_mini(st, seat, slot)
        return 1
    if wounds_in_use(st, r) >= r.xw_k[XK.WOUND_MARKERS]:
        return 0
    st.minis[seat, slot, 1] += 1
    st.tally[seat, TS.WOUNDS] += 1
    log(st, Ev.XW_WOUND, SIDE_PLAYER, seat, slot, st.minis[seat, slot, 1])
    return 0


@njit(cache=True)
def wound_attacker(st, r, t, by_seat):
    """One wound on an attacker (dealt by ``by_seat``, -1 its own side): the second removes it."""
    s = st.xw_att[t, XA.STATE]
    if s != AS.IN and s != AS.OUTSIDE:
        return 0
    if st.xw_att[t, XA.WOUNDS] + 1 >= r.xw_k[XK.WOUNDS_REMOVE]:
        remove_attacker(st, r, t, by_seat)
        return 1
    if wounds_in_use(st, r) >= r.xw_k[XK.WOUND_MARKERS]:
        return 0
    st.xw_att[t, XA.WOUNDS] += 1
    log(st, Ev.XW_WOUND, SIDE_ATTACKER, -1, t, st.xw_att[t, XA.WOUNDS])
    return 0
