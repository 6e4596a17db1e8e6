"""END OF THE WAR: when the war is over, and its end: each player's War penalties (the pillage score
and the attackers left), cancelled by the HP of the control cards it gained, moved on the War
Penalty track; then the Combat Area is emptied and a new deck made."""

from numba import njit

from sim.codes import Ev
from sim.combat_area import attackers_on_board, has_buildings, pillage_score
from sim.core import log
from sim.deck import put_on, shuffle_deck
from sim.extended_war.setup import discards_to_deck
from sim.extended_war.wounds import _clear_mini
from sim.rules import RK, XK
from sim.state import AS, PF, TG, TS, XA, XG, XM, XP, G, Loc
from sim.war_track import PIRATES, card57_pays, war_lost, war_won


@njit(cache=True)
def war_over(st, r):
    """END OF THE WAR: every attacker defeated, or every district with buildings pillaged twice
    (the decade's end is the caller's). A city without a building has nothing to pillage: only
    its attackers' defeat or the decade's end ends that war."""
    if attackers_on_board(st, -1) == 0:
        return True
    top = r.xw_pillage_score.shape[0] - 1
    built = False
    for d in range(r.district_ncells.shape[0]):
        if has_buildings(st, r, d):
            built = True
            if st.xw_pillage[d] < top:
                return False
    return built


@njit(cache=True)
def penalties_after_control(r, penalties, control_hp):
    """END OF THE WAR 2: every 2 HP on the control cards a player gained cancels 1 War penalty.
    Returns (penalties left, penalties cancelled)."""
    cancel = min(penalties, control_hp // r.xw_k[XK.CONTROL_HP_PER_PENALTY])
    return penalties - cancel, cancel


@njit(cache=True)
def move_war_penalty(st, r, seat, left):
    """The War Penalty track: 0 penalties left win the War (1 step left); otherwise 1 step right
    per penalty, past the end of the track the City Council marker moves down instead (as in the
    normal War). Returns (steps moved, council change)."""
    st.pl[seat, PF.WARS_FOUGHT] += 1
    if left == 0:
        dpen, dcouncil = war_won(st, r, seat, st.xw[XG.FACTION], r.xw_k[XK.WIN_STEPS]), 0
    else:
        dpen, dcouncil = war_lost(st, r, seat, left * r.xw_k[XK.STEPS_PER_PENALTY])
    st.pl[seat, PF.WAR_PENALTY_LAST] = dpen
    return dpen, dcouncil


@njit(cache=True)
def end_war(st, r):
    """END OF THE WAR, in reverse turn order: each player takes the pillage score plus the attackers
    left as War penalties, cancels 1 per 2 HP of the control cards it gained, and moves on the War
    Penalty track; card 57 pays for the miniatures used (sim.war_track.card57_pays). Then the control
    cards go to the discard pile, the attackers to the supply, the surviving miniatures back to their
    owners (wounds stay; card 83 recruits and card 59's worker leave), and the remaining cards with
    the game discard pile make a new deck."""
    score = pillage_score(st, r)
    left = attackers_on_board(st, -1)
    st.xw[XG.LEFT] = left
    st.xw[XG.PILLAGE_SCORE] = score
    log(st, Ev.XW_END, st.xw[XG.FACTION], score, left)
    st.tally_g[TG.WARS_PIRATES if st.xw[XG.FACTION] == PIRATES else TG.WARS_NATIVES] += 1
    st.tally_g[TG.XW_LEFT] += left
    st.tally_g[TG.XW_PILLAGE_SCORE] += score
    n = st.g[G.NPLAYERS]
    for i in range(n - 1, -1, -1):
        s = st.order[i]
        pen = score + left
        rest, cancel = penalties_after_control(r, pen, st.xw_seat[s, XP.CONTROL_HP])
        st.xw_seat[s, XP.PENALTIES] = pen
        st.xw_seat[s, XP.CANCELLED] = cancel
        st.tally[s, TS.XW_PENALTIES] += pen
        st.tally[s, TS.XW_CANCELLED] += cancel
        steps, dc = move_war_penalty(st, r, s, rest)
        log(st, Ev.XW_PENALTY, s, pen, cancel, steps, dc)
    card57_pays(st, r)
    for t in range(st.xw[XG.N_TILES]):
        c = st.xw_att[t, XA.CARD]
        if c >= 0 and st.card_loc[c] == Loc.COMBAT:
            put_on(st, c, Loc.GAME_DISCARD)
        st.xw_att[t, XA.STATE] = AS.NONE
        st.xw_att[t, XA.WOUNDS] = 0
    for s in range(n):
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.RECRUIT] > 0:
                _clear_mini(st, s, k)
            st.xw_mini[s, k, XM.POS] = -1
    m = discards_to_deck(st)
    shuffle_deck(st)
    log(st, Ev.RESHUFFLE, m)
    st.xw[XG.ACTIVE] = 0
