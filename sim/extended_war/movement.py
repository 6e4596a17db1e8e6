"""A miniature's step of one district: the players' Move (PLAYER WAR ACTIONS) and the attackers'
Movement (ATTACKERS WAR ACTIONS: "orthogonally in the direction of the nearest district with
buildings"), which the cards of a Fight! also make (cards 41, 70, 77)."""

from numba import njit

from sim.city import district_closed
from sim.codes import Dec, Ev
from sim.combat_area import SIDE_ATTACKER, SIDE_PLAYER, has_buildings, player_hp_in
from sim.core import decide, log, set_option
from sim.state import AS, XA, XM


@njit(cache=True)
def _move_player(st, seat, slot, d):
    log(st, Ev.XW_MOVE, SIDE_PLAYER, seat, slot, st.xw_mini[seat, slot, XM.POS], d)
    st.xw_mini[seat, slot, XM.POS] = d
    st.xw_mini[seat, slot, XM.MOVES] += 1


@njit(cache=True)
def _move_attacker(st, r, t, d):
    """Move an attacker one district; entering the city from outside into a district closed by
    Walls crosses a Wall (the walls bonus of a fight in this turn)."""
    frm = st.xw_att[t, XA.POS] if st.xw_att[t, XA.STATE] == AS.IN else -1
    if st.xw_att[t, XA.STATE] == AS.OUTSIDE:
        st.xw_att[t, XA.STATE] = AS.IN
        if district_closed(st, r, d):
            st.xw_att[t, XA.CROSSED] = 1
    st.xw_att[t, XA.POS] = d
    st.xw_att[t, XA.MOVES] += 1
    log(st, Ev.XW_MOVE, SIDE_ATTACKER, -1, t, frm, d)


@njit(cache=True)
def attacker_step(st, r, t):
    """ATTACKERS WAR ACTIONS, Movement: the district an attacker steps into, orthogonally toward
    the nearest district with buildings not yet pillaged twice; ties: fewer player HP there, then
    the first player in turn order decides (``Dec.XW_MOVE_TIE`` rows [step, aim, steps, HP, t]).
    An attacker outside steps into its edge's district. -1: nowhere to go."""
    if st.xw_att[t, XA.STATE] == AS.OUTSIDE:
        return st.xw_att[t, XA.POS]
    d = st.xw_att[t, XA.POS]
    nd = r.district_ncells.shape[0]
    top = r.xw_pillage_score.shape[0] - 1
    best_dist = 1 << 20
    best_hp = 1 << 20
    for e in range(nd):
        if e == d or not has_buildings(st, r, e) or st.xw_pillage[e] >= top or r.xw_dist[d, e] < 0:
            continue
        de = r.xw_dist[d, e]
        hp = player_hp_in(st, r, e)
        if de < best_dist or (de == best_dist and hp < best_hp):
            best_dist = de
            best_hp = hp
    if best_dist == 1 << 20:
        return -1
    k = 0
    for e in range(nd):
        if e == d or not has_buildings(st, r, e) or st.xw_pillage[e] >= top:
            continue
        if r.xw_dist[d, e] != best_dist or player_hp_in(st, r, e) != best_hp:
            continue
        for s in range(nd):
            if r.district_adj[d, s] == 1 and r.xw_dist[s, e] == best_dist - 1:
                set_option(st, k, s, e, best_dist, best_hp, t)
                k += 1
    i = decide(st, r, st.order[0], Dec.XW_MOVE_TIE, k)
    return st.opts[i, 0]
