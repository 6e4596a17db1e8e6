"""What happens when a group enters a space (COMBAT RULES; BATTLE; RP-20, RP-21): a battle between tokens,
an attack on a building, a merge with a friendly group. :func:`enter` is the kernel the war's movement
calls and the tests call directly (the BATTLE example's three battles, merging two pairs, dominance).

VP: the defenders score war.defender_kill_vp per attacker destroyed in a token battle (+ the General's
office.general.battle_kill_vp per kill to its owner) and war.defender_loss_vp per own token lost; a mixed
group splits the kills' VP by share, .5 rounded by war.mixed_vp_rounding, and loses its top token first;
the attacker scores the building's attacker VP; attackers lost to buildings give nothing (RP-21).
Destroyed tokens of the defenders go back to their owners' supply (they are the players' discs).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rio.engine.core import add_vp, scores
from rio.engine.state import NO, PK, SPACE_CATHEDRAL, SPACE_PALACE, VPS
from rio.engine.war_state import (
    GF,
    WR,
    WV,
    barracks_in_district,
    battle_outcome,
    general_active,
    gone,
    lead_on_top,
    place,
)
from rio.keys import BK, Enemy, K, Major

MOVED = 0
BATTLE = 1
MERGED = 2


@njit(cache=True)
def war_vp(st, ws, colour, src, n):
    """VP from the war (core.add_vp: the shadow colour scores nothing), counted in the war's record."""
    if n == 0 or not scores(st, colour):
        return
    add_vp(st, colour, src, n)
    ws.rec[WR.ATTACKER_VP if src == VPS.WAR_ATTACKER else WR.DEFENDER_VP] += n


@njit(cache=True)
def share(half_down, num, den):
    """num / den rounded to the nearest integer, .5 up (war.mixed_vp_rounding "half up"; RP-21) or down."""
    return (2 * num + den - half_down) // (2 * den)


@njit(cache=True)
def release(r, st, ws, g, sacrificed):
    """Group ``g`` leaves the board: a defender's tokens go back to their owners' supply (a sacrifice for a
    bonus movement: war.sacrificed_vp each, RP-20); attacking tokens are simply removed."""
    if ws.gi[g, GF.SIDE] == 0:
        for i in range(ws.gi[g, GF.SIZE]):
            c = ws.tok[g, i]
            st.pl[c, PK.SUPPLY] += 1
            if sacrificed:
                war_vp(st, ws, c, VPS.WAR_LOSSES, np.int64(r.k[K.WAR_SACRIFICED_VP]))
    gone(ws.gi, ws.at, g)


@njit(cache=True)
def building_battle(r, st, ws, ga, s):
    """Surviving attackers on a building: the building and war.building_battle_losses attacker go; the
    attacker scores the building (BATTLE; Battle 2, Battle 3). A minor tile goes back to its pool (a
    Hut/House to its owner's, RP-06); the Palace or Cathedral leaves the map (its grid stays completed)."""
    b = st.sp_building[s]
    if b == SPACE_PALACE:
        st.major_at[Major.PALACE] = NO
    elif b == SPACE_CATHEDRAL:
        st.major_at[Major.CATHEDRAL] = NO
    else:
        pool = st.sp_pool[s]
        for p in range(r.building_pool.shape[1]):  # a tile of unknown pool: the building's first
            if pool == NO and r.building_pool[b, p]:
                pool = p
        if r.building[b, BK.OWNED] and r.pool_per_colour[pool] and st.sp_owner[s] != NO:
            st.pl[st.sp_owner[s], PK.HUTS] += 1
        else:
            st.pool_left[pool] += 1
    st.sp_building[s] = NO
    st.sp_owner[s] = NO
    st.sp_pool[s] = NO
    st.sp_built[s] = 0
    st.sp_used[s] = 0
    war_vp(st, ws, ws.v[WV.ATTACKER], VPS.WAR_ATTACKER, ws.vp[s])
    ws.vp[s] = 0
    ws.v[WV.DESTROYED] += 1
    ws.rec[WR.BUILDINGS] += 1
    st.sp_destroyed[s] += 1  # the records' count by district (rio.engine.records: DR.DESTROYED)
    n = ws.gi[ga, GF.SIZE] - min(ws.gi[ga, GF.SIZE], r.k[K.WAR_BUILDING_BATTLE_LOSSES])
    ws.gi[ga, GF.SIZE] = n
    if n == 0:
        gone(ws.gi, ws.at, ga)


@njit(cache=True)
def token_battle(r, geo, st, ws, ga, gd, s):
    """Attacking group ``ga`` against defending group ``gd`` on ``s`` (BATTLE; RP-21): the larger wins
    unharmed; equal: both go, but war.dominance_survivors of the side with dominance survive (the Pirates;
    defenders in a district with a Barracks; both: none)."""
    gi, tok = ws.gi, ws.tok
    a, d = gi[ga, GF.SIZE], gi[gd, GF.SIZE]
    pirates = ws.v[WV.ENEMY] == Enemy.PIRATES
    ad = r.k[K.WAR_PIRATES_DOMINANCE] if pirates else r.k[K.WAR_NATIVES_DOMINANCE]
    dd = r.k[K.WAR_BARRACKS_DOMINANCE] != 0 and barracks_in_district(geo.district, geo.district_spaces, st.sp_building, s)
    al, dl = battle_outcome(a, d, ad != 0, dd, r.k[K.WAR_DOMINANCE_SURVIVORS])
    killed, lost = a - al, d - dl
    if killed > 0:  # each colour of the group its share of the kills (the General's +1 to its owner)
        for i in range(d):
            c = tok[gd, i]
            first, n_c = True, 0
            for j in range(d):
                n_c += tok[gd, j] == c
                if j < i and tok[gd, j] == c:
                    first = False
            if first:
                per = r.k[K.WAR_DEFENDER_KILL_VP]
                if general_active(r, st, ws.v[WV.ATTACKER], c):
                    per += r.k[K.OFFICE_GENERAL_BATTLE_KILL_VP]
                war_vp(st, ws, c, VPS.WAR_KILLS, share(r.k[K.WAR_MIXED_VP_ROUNDING], per * killed * n_c, d))
    for i in range(lost):  # the top token is destroyed first
        c = tok[gd, d - 1 - i]
        st.pl[c, PK.SUPPLY] += 1
        war_vp(st, ws, c, VPS.WAR_LOSSES, np.int64(r.k[K.WAR_DEFENDER_LOSS_VP]))
    ws.rec[WR.KILLED] += killed
    ws.rec[WR.LOST] += lost
    gi[ga, GF.SIZE] = al
    gi[gd, GF.SIZE] = dl
    gi[ga, GF.FOUGHT] = 1
    gi[gd, GF.FOUGHT] = 1
    gi[ga, GF.SPACE] = s
    gi[ga, GF.ENTRY] = NO
    gi[gd, GF.SPACE] = s
    ws.at[s] = ga if al > 0 else gd if dl > 0 else NO
    if al == 0:
        gone(gi, ws.at, ga)
    if dl == 0:
        gone(gi, ws.at, gd)


@njit(cache=True)
def merge(gi, tok, at, dcol, nd, max_group, g, h):
    """Group ``g`` joins the friendly group ``h`` (COMBAT RULES "Movement"): up to war.max_group they become
    one group (a mixed one led by the larger share, its tokens on top); two pairs: the mover stays where it
    is and gives its top token to the top of ``h`` (a triplet and a single). Both groups' movement ends."""
    a, b = gi[g, GF.SIZE], gi[h, GF.SIZE]
    if a + b <= max_group:
        for i in range(a):
            tok[h, b + i] = tok[g, i]
        gi[h, GF.SIZE] = a + b
        gone(gi, at, g)
        if gi[h, GF.SIDE] == 0:
            lead_on_top(gi, tok, dcol, nd, h)
    else:
        give = a + b - max_group
        for i in range(give):
            tok[h, b + i] = tok[g, a - 1 - i]
        gi[h, GF.SIZE] = max_group
        gi[g, GF.SIZE] = a - give
        gi[g, GF.PTS] = 0
        gi[g, GF.DONE] = 1
    gi[h, GF.PTS] = 0
    gi[h, GF.DONE] = 1


@njit(cache=True)
def enter(r, geo, st, ws, g, s):
    """Group ``g`` (on its space, or outside at its access point) steps onto ``s``: a free space; a friend
    (merge); an opposing group (token battle, then the survivors attack the building there); an attacker
    onto a building (building battle). A battle involving attackers counts for the attacker's conduct.
    Returns MOVED, BATTLE or MERGED."""
    gi = ws.gi
    h = ws.at[s]
    att = gi[g, GF.SIDE]
    if h != NO and gi[h, GF.SIDE] == att:
        merge(gi, ws.tok, ws.at, ws.dcol, ws.v[WV.DEFENDERS], r.k[K.WAR_MAX_GROUP], g, h)
        return MERGED
    if h == NO and (att == 0 or st.sp_building[s] == NO):
        place(gi, ws.at, g, s)
        return MOVED
    old = gi[g, GF.SPACE]
    if old != NO and ws.at[old] == g:
        ws.at[old] = NO
    ws.v[WV.BATTLES] += 1
    ga = g if att == 1 else h
    if h != NO:
        token_battle(r, geo, st, ws, ga, g if att == 0 else h, s)
    else:
        gi[g, GF.SPACE] = s
        gi[g, GF.ENTRY] = NO
        gi[g, GF.FOUGHT] = 1
        ws.at[s] = g
    if gi[ga, GF.SIZE] > 0 and st.sp_building[s] != NO:
        building_battle(r, st, ws, ga, s)
    return BATTLE
