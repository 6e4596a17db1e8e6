"""The war policy (WAR; COMBAT RULES; BATTLE): every decision a player takes in a war, asked by
:mod:`rio.engine.war` through :mod:`rio.engine.seam`. Each function takes ``(r, geo, st, ws, pol, seat, ...)``
(``ws``: :class:`rio.engine.war_state.WarScratch`, whose ``opt``/``alt`` hold the legal options) and answers
for ``seat``: ``pol.kind[seat] == Kind.RANDOM`` picks uniformly among the legal options (each reachable);
HEURISTIC and SEARCH play the weighted heuristic below with ``pol.war[seat]`` (weights :class:`WW`).

The heuristic. Attacker: place groups of WW.GROUP_SIZE at the access points nearest the most valuable
buildings (their appeal falling by WW.SPREAD per group sent), then walk toward the best target (a
building's attacker VP less the token it costs, less WW.DECAY a step, as the enemy walks), fight the groups
he beats when a building lies behind, avoid giving the defenders VP and ending where a defender group can
beat or tie him (Manhattan steps within its move). Cannons: the bet with the most
expected kills. Defender: tokens on his most valuable buildings nearest the attackers, bought while a
token's VP beats its silver and the attackers outnumber his side; groups intercept attacker groups they beat
or tie (VP either way: kills and losses both score), else guard threatened buildings (Manhattan steps);
keep groups as workers where they can build or upgrade.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numba import njit

from gamekit.rng import rand_below
from rio.engine.state import NO
from rio.engine.war_state import GF, WV, barracks_in_district, battle_outcome, reach
from rio.keys import BK, PLAZA, Building, Enemy, K
from rio.players.kinds import Kind

NEG = -1.0e9  # a score below every real one


class WW(IntEnum):
    """The war heuristic's weights (``Policy.war[colour]``)."""
    GROUP_SIZE = 0    # attacker: size of the groups he places (1..war.max_group)
    SPREAD = 1        # attacker: an access point's appeal kept after each group sent there (0..1)
    BUILDING = 2      # attacker: weight of a building's attacker VP
    OWN_BUILDING = 3  # attacker: penalty per VP of destroying his own Hut or House
    TOKEN = 4         # attacker: value of one of his tokens
    GIFT = 5          # attacker: cost per VP his battles give the defenders
    DANGER = 6        # attacker: weight of ending a move where a defender group beats or ties him
    DECAY = 7         # both: value lost per step to a target
    KILL = 8          # defender: weight of VP from attackers destroyed
    LOSS = 9          # defender: weight of VP from his tokens lost
    GUARD = 10        # defender: weight of standing on (or stacking tokens in) a threatened building, per VP
    TOKEN_VP = 11     # defender: VP a bought token is expected to bring
    SILVER = 12       # defender: VP a silver coin is worth to him now
    KEEP = 13         # defender: > 0.5: keep groups on the map where they can build or upgrade
    BONUS_GAIN = 14   # both: score a bonus movement must bring per token discarded


def default_war_weights() -> np.ndarray:
    """The heuristic's default weights (float64[len(WW)])."""
    w = np.zeros(len(WW))
    w[WW.GROUP_SIZE], w[WW.SPREAD], w[WW.BUILDING], w[WW.OWN_BUILDING] = 1.0, 0.5, 1.0, 2.0
    w[WW.TOKEN], w[WW.GIFT], w[WW.DANGER], w[WW.DECAY] = 1.0, 0.5, 1.0, 0.5
    w[WW.KILL], w[WW.LOSS], w[WW.GUARD], w[WW.TOKEN_VP] = 1.0, 0.5, 1.0, 2.0
    w[WW.SILVER], w[WW.KEEP], w[WW.BONUS_GAIN] = 4.0, 1.0, 2.0  # a coin as rio.players.weights values it
    return w


@njit(cache=True)
def _target(vp, blk, owner, w, seat, s):
    """An attacker's value of destroying the building on ``s`` (0: none or off limits; his own Hut or House
    less WW.OWN_BUILDING)."""
    v = vp[s]
    if v == 0 or blk[s]:
        return 0.0
    val = w[WW.BUILDING] * v
    if owner[s] == seat:
        val -= w[WW.OWN_BUILDING] * v
    return val


@njit(cache=True)
def _attacker_field(r, geo, st, ws, pol, seat):
    """``ws.field``: the best target's value (less the token it costs) less WW.DECAY a step, as the enemy
    walks (buildings reached, not crossed; tokens ignored). Computed again only once a building has fallen."""
    v = ws.v
    if v[WV.FIELD_AT] == v[WV.DESTROYED] + 1:
        return
    v[WV.FIELD_AT] = v[WV.DESTROYED] + 1
    w = pol.war[seat]
    ws.field[:] = NEG
    cost = w[WW.TOKEN] * r.k[K.WAR_BUILDING_BATTLE_LOSSES]  # a building costs a token: beside it is worth less
    # the targets, most valuable first (insertion sort, ties in space order): the field is their maximum
    # whatever the order (_flood_field), and a flood stops where a stronger one already reached, so the
    # strongest first leaves the others little to cover
    m = 0
    for t in range(ws.field.shape[0]):
        val = _target(ws.vp, ws.blk, st.sp_owner, w, seat, t) - cost
        if val <= 0:
            continue
        i = m
        while i > 0 and ws.srcv[i - 1] < val:
            ws.src[i], ws.srcv[i] = ws.src[i - 1], ws.srcv[i - 1]
            i -= 1
        ws.src[i], ws.srcv[i] = t, val
        m += 1
    ws.d2[:] = -1  # as _flood_field expects it, and leaves it
    for i in range(m):
        _flood_field(geo.nb4, ws.blk, st.sp_building, ws.field, ws.d2, ws.q2, ws.src[i], ws.srcv[i], w[WW.DECAY])


@njit(cache=True)
def _flood_field(nb4, blk, building, field, d2, q2, src, val, decay):
    """``field[x] = max(field[x], val - decay * steps)`` over every space ``x`` the enemy reaches from
    ``src`` in ``steps`` (breadth first; spaces off limits never entered; a building reached but not crossed,
    ``src`` aside; tokens ignored).

    With ``decay`` >= 0 a space whose field is already at least this source's value there is not crossed:
    the source that set it crossed it (only a building is not crossed, by every source but its own) and
    gives every space beyond at least as much, so the maximum is the same as with every flood complete.

    ``d2`` is -1 everywhere on entry and is left so (the spaces reached are reset from the queue, not the
    whole map: most floods stop within a few steps)."""
    d2[src] = 0
    q2[0] = src
    head, tail = 0, 1
    while head < tail:
        s = q2[head]
        head += 1
        x = val - decay * d2[s]
        if x > field[s]:
            field[s] = x
        elif s != src and decay >= 0:
            continue
        if s != src and building[s] != NO:
            continue
        for side in range(nb4.shape[1]):
            t = nb4[s, side]
            if t == NO or d2[t] >= 0 or blk[t]:
                continue
            d2[t] = d2[s] + 1
            q2[tail] = t
            tail += 1
    for i in range(tail):
        d2[q2[i]] = -1


@njit(cache=True)
def _best(r, geo, st, ws, pol, seat, g, n):
    """The best of reach's ``n`` options for group ``g`` (ties: the first, staying first): (index, score)
    (:func:`_best_within`)."""
    bi, bs, _, _ = _best_within(r, geo, st, ws, pol, seat, g, n, -1)
    return bi, bs


@njit(cache=True)
def _best_within(r, geo, st, ws, pol, seat, g, n, pts):
    """The best of reach's ``n`` options for group ``g`` (ties: the first, staying first), and the best of
    those within ``pts`` steps: (index, score, index, score). Reach lists its options breadth first, so
    those within ``pts`` steps come first, in the order reach with ``pts`` lists them.
    Attacker: a building's value, a battle's cost in tokens and in VP given, else the target field less the
    danger of a defender group that beats or ties it within its move. Defender: a battle's VP, else the best
    attacker group it beats or ties less WW.DECAY a step, or guarding the building there against the nearest
    attacker (steps: Manhattan)."""
    gi = ws.gi
    att = gi[g, GF.SIDE] == 1
    if att:
        _attacker_field(r, geo, st, ws, pol, seat)
    size = gi[g, GF.SIZE]
    w = pol.war[seat]
    wd = geo.dims[1]
    kv, lv = r.k[K.WAR_DEFENDER_KILL_VP], r.k[K.WAR_DEFENDER_LOSS_VP]
    ad = (r.k[K.WAR_PIRATES_DOMINANCE] if ws.v[WV.ENEMY] == Enemy.PIRATES else r.k[K.WAR_NATIVES_DOMINANCE]) != 0
    surv = r.k[K.WAR_DOMINANCE_SURVIVORS]
    # the other side's groups the options are weighed against, listed once (ws.near: column, row, size, and
    # an attacker's move or a defender's extra step from outside): not once per option
    near, m = ws.near, 0
    for f in range(ws.v[WV.GROUPS]):
        src, extra = gi[f, GF.SPACE], 0
        if att:
            if gi[f, GF.SIDE] != 0 or src == NO or gi[f, GF.SIZE] <= 0:
                continue
            extra = r.war_move[gi[f, GF.SIZE]]
        else:
            if src == NO:
                src, extra = gi[f, GF.ENTRY], 1
            if gi[f, GF.SIDE] != 1 or gi[f, GF.SIZE] <= 0 or src == NO:
                continue
        near[m, 0], near[m, 1], near[m, 2], near[m, 3] = src % wd, src // wd, f, extra
        m += 1
    bi, bs, pi, ps = 0, NEG, 0, NEG
    for i in range(n):
        x = ws.opt[i]
        within = x == NO or ws.dist[x] <= pts
        if x == NO:
            x = gi[g, GF.SPACE]
        if x == NO:  # an attacker outside stays: one step from its entry
            e = gi[g, GF.ENTRY]
            sc = NEG if e == NO else ws.field[e] - w[WW.DECAY]
        else:
            h = ws.at[x]
            if h == g:
                h = NO
            foe = h != NO and gi[h, GF.SIDE] != gi[g, GF.SIDE]
            dd = foe and r.k[K.WAR_BARRACKS_DOMINANCE] != 0 and barracks_in_district(
                geo.district, geo.district_spaces, st.sp_building, x)
            if att:
                sc, left = 0.0, size
                if foe:
                    d = gi[h, GF.SIZE]
                    al, dl = battle_outcome(size, d, ad, dd, surv)
                    sc -= w[WW.TOKEN] * (size - al) + w[WW.GIFT] * ((size - al) * kv + (d - dl) * lv)
                    left = al
                if left > 0 and st.sp_building[x] != NO and (h == NO or foe):
                    sc += _target(ws.vp, ws.blk, st.sp_owner, w, seat, x) - w[WW.TOKEN] * min(left, r.k[K.WAR_BUILDING_BATTLE_LOSSES])
                elif left > 0:
                    sc += ws.field[x]
                    xc, xr = x % wd, x // wd
                    for q in range(m):  # a defender group that beats or ties it, within its move
                        f = near[q, 2]
                        if gi[f, GF.SIZE] >= left and f != h and abs(xc - near[q, 0]) + abs(xr - near[q, 1]) <= near[q, 3]:
                            sc -= w[WW.DANGER] * (w[WW.TOKEN] * left + w[WW.GIFT] * left * kv)
                            break
            elif foe:
                a = gi[h, GF.SIZE]
                al, dl = battle_outcome(a, size, ad, dd, surv)
                sc = w[WW.KILL] * (a - al) * kv + w[WW.LOSS] * (size - dl) * lv
            else:
                sc, threat = NEG, 0.0
                xc, xr = x % wd, x // wd
                for q in range(m):
                    a = near[q, 2]
                    d = abs(xc - near[q, 0]) + abs(xr - near[q, 1]) + near[q, 3]
                    threat = max(threat, 1.0 / (1.0 + d))
                    if size >= gi[a, GF.SIZE]:
                        sc = max(sc, w[WW.KILL] * kv * gi[a, GF.SIZE] - w[WW.DECAY] * d)
                own = 1.0 if st.sp_owner[x] == seat else 0.5
                sc = max(sc, w[WW.GUARD] * ws.vp[x] * own * threat)
        if sc > bs:
            bi, bs = i, sc
        if within and sc > ps:
            pi, ps = i, sc
    return bi, bs, pi, ps


# ---------------------------------------------------------------------------------------------- the decisions
@njit(cache=True)
def war_split(r, geo, st, ws, pol, seat, n_att):
    """PLACEMENT OF ATTACKERS: the attacker's groups (``ws.buf[i]`` = size, access point index); returns how
    many."""
    nacc = ws.v[WV.ACCESS]
    mg = r.k[K.WAR_MAX_GROUP]
    k, left = 0, n_att
    if pol.kind[seat] == Kind.RANDOM:
        while left > 0:
            m = 1 + rand_below(st, min(mg, left))
            ws.buf[k, 0], ws.buf[k, 1] = m, rand_below(st, nacc)
            k += 1
            left -= m
        return k
    w = pol.war[seat]
    _attacker_field(r, geo, st, ws, pol, seat)
    val = ws.fo  # the first nacc: each access point's value
    for a in range(nacc):
        e = ws.acc[a]
        if ws.blk[e]:  # it leads onto the attacker's own inactive workers: no way in
            val[a] = NEG
        elif st.sp_building[e] != NO:
            val[a] = _target(ws.vp, ws.blk, st.sp_owner, w, seat, e) - w[WW.TOKEN] * r.k[K.WAR_BUILDING_BATTLE_LOSSES]
        else:
            val[a] = ws.field[e] - w[WW.DECAY]
    size = min(max(int(w[WW.GROUP_SIZE] + 0.5), 1), mg)
    while left > 0:
        m = min(size, left)
        a = 0
        for x in range(1, nacc):  # the first best, as np.argmax
            if val[x] > val[a]:
                a = x
        ws.buf[k, 0], ws.buf[k, 1] = m, a
        val[a] = val[a] * w[WW.SPREAD] if val[a] > 0 else val[a] - 1.0
        k += 1
        left -= m
    return k


@njit(cache=True)
def war_bet(r, geo, st, ws, pol, seat, n_att, plus):
    """CANNONS: the bet (war.cannon_bet_min..attackers); the heuristic maximises bet x P(dice + plus >=
    war.cannon_fixed + bet)."""
    lo = r.k[K.WAR_CANNON_BET_MIN]
    if pol.kind[seat] == Kind.RANDOM:
        return lo + rand_below(st, n_att - lo + 1)
    dice, faces = r.k[K.WAR_CANNON_DICE], r.k[K.WAR_CANNON_DIE_FACES]
    top = dice * faces
    if top + 1 > ws.fo.shape[0]:
        raise ValueError("rio war: more cannon sums than the war scratch holds")
    ways = ws.fo  # ways[t]: the throws of the dice summing to t, counted in place one die at a time
    for t in range(top + 1):
        ways[t] = 0.0
    ways[0] = 1.0
    for _ in range(dice):
        for t in range(top, -1, -1):  # downwards: ways[t - f] is still the previous die's count
            x = 0.0
            for f in range(1, faces + 1):
                if t - f >= 0:
                    x += ways[t - f]
            ways[t] = x
    total = 0.0
    for t in range(top + 1):
        total += ways[t]
    best, best_e = lo, -1.0
    for bet in range(lo, n_att + 1):
        need = r.k[K.WAR_CANNON_FIXED] + bet - plus
        p = 0.0
        for t in range(top + 1):
            if t >= need:
                p += ways[t]
        e = bet * p / total
        if e > best_e:
            best, best_e = bet, e
    return best


@njit(cache=True)
def war_victim(r, geo, st, ws, pol, seat, n):
    """CANNONS: the attacker group (``ws.opt[:n]``) that loses a token; the heuristic: the smallest."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, n)
    bi = 0
    for i in range(1, n):
        if ws.gi[ws.opt[i], GF.SIZE] < ws.gi[ws.opt[bi], GF.SIZE]:
            bi = i
    return bi


@njit(cache=True)
def war_token(r, geo, st, ws, pol, seat, colour, n, optional):
    """WAR step 4: the space (``ws.opt[:n]``) for a defending token of ``colour``; -1 (only if ``optional``,
    a free token): none. The heuristic: the most valuable building nearest the attackers, stacking."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, n + 1) - 1 if optional else rand_below(st, n)
    ws.d2[:] = -1  # steps from the attackers (outside: their entry, one step more)
    head, tail = 0, 0
    for a in range(ws.v[WV.GROUPS]):
        if ws.gi[a, GF.SIDE] == 1 and ws.gi[a, GF.SIZE] > 0:
            s = ws.gi[a, GF.SPACE] if ws.gi[a, GF.SPACE] != NO else ws.gi[a, GF.ENTRY]
            if s != NO and ws.d2[s] < 0:
                ws.d2[s] = 0
                ws.q2[tail] = s
                tail += 1
    while head < tail:
        s = ws.q2[head]
        head += 1
        for side in range(geo.nb4.shape[1]):
            t = geo.nb4[s, side]
            if t != NO and ws.d2[t] < 0:
                ws.d2[t] = ws.d2[s] + 1
                ws.q2[tail] = t
                tail += 1
    bi, bs = 0, NEG
    for i in range(n):
        s = ws.opt[i]
        h = ws.at[s]
        stack = ws.gi[h, GF.SIZE] if h != NO else 0
        own = 1.0 if st.sp_owner[s] == seat else 0.5
        prox = 1.0 / (2.0 + ws.d2[s]) if ws.d2[s] >= 0 else 0.0
        sc = (ws.vp[s] * own + pol.war[seat, WW.GUARD] * stack) * prox
        if sc > bs:
            bi, bs = i, sc
    return bi


@njit(cache=True)
def war_buy(r, geo, st, ws, pol, seat, colour, price, n):
    """WAR step 4: buy one more token at ``price`` silver? The heuristic: while WW.TOKEN_VP beats the silver
    and the defenders' tokens on the map are fewer than the attackers."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, 2) == 1
    w = pol.war[seat]
    if w[WW.TOKEN_VP] <= w[WW.SILVER] * price:
        return False
    att, dfn = 0, 0
    for g in range(ws.v[WV.GROUPS]):
        if ws.gi[g, GF.SIDE] == 1:
            att += ws.gi[g, GF.SIZE]
        elif ws.gi[g, GF.SPACE] != NO:
            dfn += ws.gi[g, GF.SIZE]
    return dfn < att


@njit(cache=True)
def war_pick(r, geo, st, ws, pol, seat, n):
    """Which of the mover's groups (``ws.opt[:n]``) moves next; the heuristic: in order."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, n)
    return 0


@njit(cache=True)
def war_bonus(r, geo, st, ws, pol, seat, g, n, pts):
    """Bonus movement: the group (``ws.alt[:n]``) to discard for one more space for ``g``; -1 none. The
    heuristic: the smallest group, when the extra step gains WW.BONUS_GAIN a token discarded."""
    if pol.kind[seat] == Kind.RANDOM:
        return -1 if rand_below(st, 2) == 0 else rand_below(st, n)
    bi = 0
    for i in range(1, n):
        if ws.gi[ws.alt[i], GF.SIZE] < ws.gi[ws.alt[bi], GF.SIZE]:
            bi = i
    # one pass over the options with the bonus, the best without it among them (reach's order:
    # _best_within's docstring); that best is where the group goes if it takes no bonus: kept for war_dest
    i, more, pi, base = _best_within(r, geo, st, ws, pol, seat, g, reach(r, geo, st, ws, g, pts + r.k[K.WAR_BONUS_MOVE]), pts)
    ws.v[WV.DEST_GROUP], ws.v[WV.DEST_PTS], ws.v[WV.DEST_OPTION] = g, pts, pi
    if ws.opt[i] == NO or ws.dist[ws.opt[i]] <= pts:  # the best is in reach without it
        return -1
    if more - base > pol.war[seat, WW.BONUS_GAIN] * ws.gi[ws.alt[bi], GF.SIZE]:
        ws.v[WV.DEST_PTS] = 0
        return bi
    return -1


@njit(cache=True)
def war_dest(r, geo, st, ws, pol, seat, g, n):
    """Where group ``g`` goes: reach's options ``ws.opt[:n]`` (0: stay); the one :func:`war_bonus` found
    when it just weighed a bonus for ``g`` with these points and took none (the same choice)."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, n)
    if ws.v[WV.DEST_PTS] > 0 and ws.v[WV.DEST_GROUP] == g and ws.v[WV.DEST_PTS] == ws.gi[g, GF.PTS]:
        ws.v[WV.DEST_PTS] = 0
        return ws.v[WV.DEST_OPTION]
    return _best(r, geo, st, ws, pol, seat, g, n)[0]


@njit(cache=True)
def war_consent(r, geo, st, ws, pol, seat, g, h):
    """Does ``seat`` (commanding ``h``) agree that ``g`` merges with it into a mixed group? The heuristic:
    when some attacker group is at least as large as either (the merge helps fight)."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, 2) == 1
    big = max(ws.gi[g, GF.SIZE], ws.gi[h, GF.SIZE])
    for a in range(ws.v[WV.GROUPS]):
        if ws.gi[a, GF.SIDE] == 1 and ws.gi[a, GF.SIZE] >= big:
            return True
    return False


@njit(cache=True)
def war_keep(r, geo, st, ws, pol, seat, g):
    """End of the War: does group ``g`` stay on the map as workers? The heuristic (WW.KEEP > 0.5): on his
    own Hut or House, or enough of them on an empty space for a Hut."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, 2) == 1
    if pol.war[seat, WW.KEEP] <= 0.5:
        return False
    s = ws.gi[g, GF.SPACE]
    b = st.sp_building[s]
    if b != NO:
        return b < r.building.shape[0] and r.building[b, BK.OWNED] != 0 and st.sp_owner[s] == seat
    return geo.district[s] != PLAZA and ws.gi[g, GF.SIZE] >= r.building[Building.HUT, BK.WORKERS]
