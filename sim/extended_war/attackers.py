"""ATTACKERS WAR ACTIONS: an attacker's turn (fight, pillage, pillage again, move) and the attackers
of one Initiative acting one at a time (WAR FLOW: "Amongst the attackers with the same initiative,
follow the attacker card number")."""

from numba import njit

from sim.codes import Ev
from sim.combat_area import has_buildings, owns_building_in, players_in
from sim.core import log
from sim.extended_war.fight import attacker_target, fight
from sim.extended_war.movement import _move_attacker, attacker_step
from sim.extended_war.setup import attacker_initiative
from sim.rules import XK
from sim.state import AS, N_CARDS, TS, XA, XG, G


@njit(cache=True)
def attackers_of_initiative(st, r, ini):
    """WAR FLOW: the attackers with Initiative ``ini`` in acting order (the lower tile number, or
    card number with rules round_order = "card", first) into ``st.xw_tmp``; returns how many."""
    n = 0
    for t in range(st.xw[XG.N_TILES]):
        s = st.xw_att[t, XA.STATE]
        if (s == AS.OUTSIDE or s == AS.IN) and st.xw_att[t, XA.READY] <= st.xw[XG.ROUND] \
                and attacker_initiative(st, r, t) == ini:
            st.xw_tmp[n] = t
            n += 1
    if r.xw_k[XK.ORDER_BY_TILE] == 0:
        for i in range(1, n):  # insertion sort by card number (recruits, without a card, last)
            j = i
            while j > 0 and _card_key(st, st.xw_tmp[j]) < _card_key(st, st.xw_tmp[j - 1]):
                x = st.xw_tmp[j]
                st.xw_tmp[j] = st.xw_tmp[j - 1]
                st.xw_tmp[j - 1] = x
                j -= 1
    return n


@njit(cache=True)
def _card_key(st, t):
    c = st.xw_att[t, XA.CARD]
    return c if c >= 0 else N_CARDS + t


@njit(cache=True)
def attackers_act(st, r, ini):
    """The attackers of Initiative ``ini`` act one at a time, in order."""
    n = attackers_of_initiative(st, r, ini)
    order = st.xw_tmp[:n].copy()  # fixed before anyone acts: a fight may remove or recruit attackers
    for i in range(n):
        t = order[i]
        s = st.xw_att[t, XA.STATE]
        if s == AS.OUTSIDE or s == AS.IN:
            attacker_turn(st, r, t)


@njit(cache=True)
def attacker_turn(st, r, t):
    """ATTACKERS WAR ACTIONS: repeat until the miniature's turn ends: with a player miniature in its
    district it fights (the one with the least HP); else in a district with buildings it pillages
    (one flame), pillages again (two flames); else it moves (1 district a turn), and an attacker
    that cannot move ends its turn. Returns the number of steps taken (always ends: each step
    but a move ends the turn, and moves are limited)."""
    st.xw_att[t, XA.MOVES] = 0
    st.xw_att[t, XA.CROSSED] = 0
    st.xw_att[t, XA.FIGHTS] = 0
    top = r.xw_pillage_score.shape[0] - 1
    steps = 0
    while True:
        steps += 1
        s = st.xw_att[t, XA.STATE]
        if s != AS.IN and s != AS.OUTSIDE:
            break
        if s == AS.IN:
            d = st.xw_att[t, XA.POS]
            if players_in(st, r, d) > 0:
                seat, slot = attacker_target(st, r, d, t)
                fight(st, r, seat, slot, t, True)
                break
            if has_buildings(st, r, d) and st.xw_pillage[d] < top:
                if st.xw_pillage[d] > 0 or pillage_markers_in_use(st) < r.xw_k[XK.PILLAGE_MARKERS]:
                    st.xw_pillage[d] += 1
                    owners = tally_pillage(st, r, d)
                    log(st, Ev.XW_PILLAGE, t, d, st.xw_pillage[d], owners)
                break
        if st.xw_att[t, XA.MOVES] >= r.xw_k[XK.MOVES_PER_TURN] or st.xw_att[t, XA.IMMOBILE] > 0:
            break
        e = attacker_step(st, r, t)
        if e < 0:
            break
        _move_attacker(st, r, t, e)
    if st.xw_att[t, XA.IMMOBILE] > 0:
        st.xw_att[t, XA.IMMOBILE] -= 1
    return steps


@njit(cache=True)
def tally_pillage(st, r, d):
    """A pillage marker in district ``d`` falls on the buildings there: tallied for each player with
    a building of its colour in it (``TS.XW_PILLAGE``). Returns those players as a bit mask (the log's)."""
    mask = 0
    for s in range(st.g[G.NPLAYERS]):
        if owns_building_in(st, r, s, d):
            st.tally[s, TS.XW_PILLAGE] += 1
            mask |= 1 << s
    return mask


@njit(cache=True)
def pillage_markers_in_use(st):
    n = 0
    for d in range(st.xw_pillage.shape[0]):
        if st.xw_pillage[d] > 0:
            n += 1
    return n
