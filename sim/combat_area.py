"""EXTENDED WAR: what the Combat Area shows, read only: who stands where, a miniature's AV and HP,
the friends beside a fighter, the pillage score, the AV a red war power adds in a fight.

The war's kernels (:mod:`sim.extended_war`) and the players' valuation of the war decisions
(strategies.war_policy, which sees the engine only below the seam) read the area through these
functions, so both count a fight the same way. Nothing here changes the state.

Sides: 0 the players (SIDE_PLAYER), 1 the attackers (SIDE_ATTACKER). A player miniature is the
one on war marker ``slot`` of ``seat``, an attacker the one on War Opponent tile ``t``.
"""

from numba import njit

from sim.codes import WP
from sim.rules import RK, XK, XWP
from sim.state import AS, XA, XF, XG, XM, XP, B, G, Mini

SIDE_PLAYER = 0
SIDE_ATTACKER = 1
CANCELLED = 128  # added to a card id in State.xw_cards once an opponent's card cancels it


@njit(cache=True)
def is_soldier(kind):
    return kind == Mini.SOLDIER or kind == Mini.SOLDIER_VET


@njit(cache=True)
def has_buildings(st, r, d):
    """District ``d`` holds a building (Lot, House, Palace, Minor or Major building)."""
    for i in range(r.district_ncells[d]):
        if st.cell_b[r.district_cells[d, i]] != B.NONE:
            return True
    return False


@njit(cache=True)
def owns_building_in(st, r, seat, d):
    """The seat has a building of its colour (Lot, House, Palace) in district ``d``."""
    for i in range(r.district_ncells[d]):
        c = r.district_cells[d, i]
        b = st.cell_b[c]
        if st.cell_owner[c] == seat and (b == B.LOT or b == B.HOUSE or b == B.PALACE):
            return True
    return False


@njit(cache=True)
def attackers_on_board(st, kind):
    """Attacker miniatures of ``kind`` (AK; -1 any) in the Combat Area (outside a district or in one)."""
    n = 0
    for t in range(st.xw[XG.N_TILES]):
        s = st.xw_att[t, XA.STATE]
        if (s == AS.OUTSIDE or s == AS.IN) and (kind < 0 or st.xw_att[t, XA.KIND] == kind):
            n += 1
    return n


@njit(cache=True)
def attackers_in(st, d):
    n = 0
    for t in range(st.xw[XG.N_TILES]):
        if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
            n += 1
    return n


@njit(cache=True)
def _player_minis_in(st, r, d, by_hp):
    """The player miniatures in district ``d``: how many, or (``by_hp``) the sum of their HP."""
    n = 0
    for s in range(st.g[G.NPLAYERS]):
        for k in range(r.k[RK.WAR_MARKERS]):
            m = st.minis[s, k, 0]
            if st.xw_mini[s, k, XM.POS] == d and m != Mini.NONE:
                n += r.xw_player_hp[m] if by_hp else 1
    return n


@njit(cache=True)
def players_in(st, r, d):
    return _player_minis_in(st, r, d, False)


@njit(cache=True)
def player_hp_in(st, r, d):
    """Sum of the HP of the player miniatures in district ``d`` (the attackers' movement tie)."""
    return _player_minis_in(st, r, d, True)


@njit(cache=True)
def pillage_score(st, r):
    """The pillage markers' score (END OF THE WAR 1)."""
    v = 0
    for d in range(st.xw_pillage.shape[0]):
        v += r.xw_pillage_score[st.xw_pillage[d]]
    return v


@njit(cache=True)
def player_stats(r, kind, as_elite, as_standard):
    """MINIATURE AV, HP & INITIATIVE: AV and HP of a player miniature kind, seen as an Elite (card
    46) or a Standard (card 47); veteran status kept."""
    k = kind
    if as_elite and not is_soldier(k):
        k = Mini.SOLDIER if k == Mini.MILICIANO else Mini.SOLDIER_VET
    if as_standard and is_soldier(k):
        k = Mini.MILICIANO if k == Mini.SOLDIER else Mini.MILICIANO_VET
    return r.xw_player_av[k], r.xw_player_hp[k]


@njit(cache=True)
def attacker_stats(r, kind, as_elite, as_standard):
    """MINIATURE AV, HP & INITIATIVE: AV and HP of an attacker kind, seen as an Elite (card 46) or a
    Standard (card 47)."""
    k = kind
    if as_elite:
        k = kind | 1
    if as_standard:
        k = kind & 2
    return r.xw_att_av[k], r.xw_att_hp[k]


@njit(cache=True)
def friends_in(st, r, side, seat, slot, t, d):
    """Friendly miniatures beside the fighter in district ``d`` (rules ``extended_war.friends``)."""
    n = 0
    if side == SIDE_PLAYER:
        for s in range(st.g[G.NPLAYERS]):
            if r.xw_k[XK.FRIENDS_SIDE] == 0 and s != seat:
                continue
            for k in range(r.k[RK.WAR_MARKERS]):
                if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE and not (s == seat and k == slot):
                    n += 1
    else:
        for u in range(st.xw[XG.N_TILES]):
            if u != t and st.xw_att[u, XA.STATE] == AS.IN and st.xw_att[u, XA.POS] == d:
                n += 1
    return n


@njit(cache=True)
def fight_total(st, r, side):
    """FIGHT! 5: base AV + walls bonus + friends bonus + the cards' bonus (+5 burns, card 77's
    bonus), times 2 for each x2 burn ("2 +1 +3 = 6 x 2 = 12")."""
    f = st.xw_fight[side]
    tot = f[XF.AV] + f[XF.WALLS] + f[XF.FRIENDS] + f[XF.CARD_AV] + f[XF.BURN_AV] + f[XF.BONUS]
    for _ in range(f[XF.FACTOR]):
        tot *= r.xw_k[XK.BURN_FACTOR]
    return tot


@njit(cache=True)
def side_position(st, side, seat, slot, t):
    """The district of the fighter of ``side`` (the player's miniature or the attacker)."""
    if side == SIDE_PLAYER:
        return st.xw_mini[seat, slot, XM.POS]
    return st.xw_att[t, XA.POS]


@njit(cache=True)
def opponents_value(st, r, side, d, std_av, elite_av):
    """Card 17's bonus from the opponents of ``side`` in district ``d``."""
    v = 0
    if side == SIDE_PLAYER:
        for t in range(st.xw[XG.N_TILES]):
            if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
                v += elite_av if st.xw_att[t, XA.KIND] & 1 else std_av
    else:
        for s in range(st.g[G.NPLAYERS]):
            for k in range(r.k[RK.WAR_MARKERS]):
                if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                    v += elite_av if is_soldier(st.minis[s, k, 0]) else std_av
    return v


@njit(cache=True)
def wounded_opponents(st, r, side, d):
    n = 0
    if side == SIDE_PLAYER:
        for t in range(st.xw[XG.N_TILES]):
            if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d and st.xw_att[t, XA.WOUNDS] > 0:
                n += 1
    else:
        for s in range(st.g[G.NPLAYERS]):
            for k in range(r.k[RK.WAR_MARKERS]):
                if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE and st.minis[s, k, 1] > 0:
                    n += 1
    return n


@njit(cache=True)
def card_av(st, r, side, c, seat, slot, t, pending):
    """FIGHT! 4: the AV card ``c``'s red war power adds to ``side``'s fighter (the player's miniature
    on (``seat``, ``slot``) against the attacker on tile ``t``): flat (+av), 17 (opponents in the
    district and the best adjacent one), 23 (per movement this turn), 40 (wounded opponents near),
    76 (per fight of the side this turn, this one included: ``pending`` fights not yet counted);
    0 for the other powers."""
    d = side_position(st, side, seat, slot, t)
    kd = r.xw_power_kind[c]
    p = r.xw_power_p[c]
    if kd == WP.AV:
        return p[XWP.AV]
    if kd == WP.AV_PER_OPPONENT_NEAR:
        here = opponents_value(st, r, side, d, p[XWP.STANDARD_AV], p[XWP.ELITE_AV])
        near = 0
        if p[XWP.ADJACENT] > 0:
            for e in range(r.district_ncells.shape[0]):
                if r.district_adj[d, e] == 1:
                    near = max(near, opponents_value(st, r, side, e, p[XWP.STANDARD_AV], p[XWP.ELITE_AV]))
        return here + near
    if kd == WP.AV_PER_MOVE:
        moves = st.xw_mini[seat, slot, XM.MOVES] if side == SIDE_PLAYER else st.xw_att[t, XA.MOVES]
        return p[XWP.AV] * moves
    if kd == WP.AV_PER_WOUNDED_NEAR:
        n = wounded_opponents(st, r, side, d)
        for e in range(r.district_ncells.shape[0]):
            if r.district_adj[d, e] == 1:
                n += wounded_opponents(st, r, side, e)
        return p[XWP.AV] * n
    if kd == WP.AV_PER_FIGHT:
        done = st.xw_seat[seat, XP.FIGHTS_TURN] if side == SIDE_PLAYER else st.xw_att[t, XA.FIGHTS]
        return p[XWP.AV] * (done + pending)
    return 0
