"""The one jitted policy entry point: ``choose(st, r, seat, kind, n)`` picks one of the legal
options ``st.opts[:n]`` of a decision of kind ``kind`` (sim.codes.Dec) for ``seat``.

``W`` is a float64 matrix, one row per strategy id: ``W[sid, 0]`` is the strategy family, then
come the weights over the named features in :data:`FEATURES` (:class:`F`), the named valuation
coefficients (:class:`K`, each with its default in :data:`K_DEFAULT`) and the strategy parameters
(:class:`P`), all loaded from the TOML files in ``strategies/`` (strategies.registry). The
valuation writes no number of its own but structural ones (indices, counts, flags, sentinels).
Families: 0 ``random`` (uniform over the legal options), 1 ``greedy`` (best
immediate VP/resource value: the weighted feature delta of each option), 2 ``heuristic`` (greedy
plus the ``character`` feature: progress toward the seat's own Character card scoring, CARD
REFERENCE > CHARACTER CARDS; a strategy file may give one weight set per Character).

The engine reaches this module through sim.seam (its one import of strategies), so this module
imports only the engine modules below the seam (city, codes, rng, rules, state, variants): it reads the state
only. A test over the import graph keeps it so.
"""

import numpy as np
from numba import njit, objmode

from sim.city import district_tally, district_value, house_value, next_to_faith, own_buildings_in_district, palace_value
from sim.codes import FIRST_FREE_ACT, Act, Card, Ch, Dec, Law, Side
from sim.compiled_parts import extended_war, extended_war_entry, solo_ai_entry
from sim.rng import rand_below
from sim.rules import AP, RK
from sim.series import card_group, n_colours, pile_loc, scorings_ahead, series_base, series_counts, top_of
from sim.state import GROUP_SIZE, N_CHARACTERS, N_GROUPS, PF, TL, B, G, M, Mini
from strategies import python_bridge
from strategies.ai_tie import ai_tie_value
from strategies.war_policy import defender_value, war_value
from strategies.weights import (  # noqa: F401 (the slots and families, re-exported: imported from here across the project)
    COEFFICIENTS,
    FAMILY_GREEDY,
    FAMILY_HEURISTIC,
    FAMILY_PYTHON,
    FAMILY_RANDOM,
    FAMILY_ROLLOUT,
    FAMILY_SEARCH,
    FEATURES,
    FORBID_CITY,
    FORBID_PRODUCTION,
    K_DEFAULT,
    N_FEATURES,
    N_WEIGHTS,
    P_DEFAULT,
    P_RANGE,
    PARAMETERS,
    WEIGHTS,
    F,
    K,
    P,
    default_weights,
)

# the optional parts, reached only through their hooks (sim.compiled_parts: compiled only into the runs that play them)
solo_ai_tie_value = solo_ai_entry(ai_tie_value)
xw_defender_value = extended_war(defender_value)
xw_war_value = extended_war_entry(war_value)


@njit(cache=True)
def _res_value(w, a, b, c, d):
    return w[F.WOOD] * a + w[F.STONE] * b + w[F.PRECIOUS] * c + w[F.METAL] * d


@njit(cache=True)
def _district_row(st, r, seat, t, d):
    """Fill column d of ``t``: [district value, seat's marker buildings, seat's Houses + Palaces,
    1 = filled]. Filled on first use (:func:`_city_gain`), not once per option."""
    v, own, homes = district_tally(st, r, seat, d)
    t[0, d] = v
    t[1, d] = own
    t[2, d] = homes
    t[3, d] = 1


@njit(cache=True)
def _city_gain(st, r, w, seat, t, c):
    """Estimated city VP from putting building t on cell c (next scoring); reads the seat's
    district table (st.dist[seat], a district's column filled on first use by :func:`_district_row`)."""
    dist = st.dist[seat]
    d = r.cell_district[c]
    if d < 0:
        return 0.0
    if dist[3, d] == 0:
        _district_row(st, r, seat, dist, d)
    dv = dist[0, d]
    faith = st.pl[seat, PF.FAITH]
    house = float(min(dv, dist[1, d] + 1 + faith * r.k[RK.HOUSE_PER_FAITH]))
    if t == B.LOT:
        return w[K.LOT_BASE] + w[K.LOT_HOUSE] * max(0.0, house)  # a Lot is worth a share of the House it leads to
    if t == B.HOUSE:
        return house
    if t == B.PALACE:
        return float(palace_value(r, faith, dv) - min(dv, dist[1, d] + faith * r.k[RK.HOUSE_PER_FAITH]))
    return float(r.b_dv[t] * dist[2, d])


@njit(cache=True)
def memo_refresh(st, r, seat):
    """Bring the seat's policy memo (its district table ``st.dist[seat]`` and BUILD values
    ``st.bval[seat]``) up to date with the state: empty whatever may have changed since it was
    filled. Those values read nothing but the map (cell_b, cell_owner, roads, walls), the Fort and
    Harbor flags, the seat's Faith, Character and weights (and the rules, fixed within a game);
    ``st.memo_key[seat]`` and ``st.memo_w[seat]`` hold these as they were, and are compared in full.
    A district's column and its BUILD values depend on its own spaces and Road only (Walls, Fort,
    Harbor, Faith, Character and weights on everything), so a building put up empties one district.
    No engine code has to say when the map changed: a missed write site cannot leave a stale value.
    In played 4-player heuristic games, 3 in 4 district columns and 2 in 3 BUILD values are reused."""
    key = st.memo_key[seat]
    dist = st.dist[seat]
    bval = st.bval[seat]
    nc = st.cell_b.shape[0]
    nd = st.roads.shape[0]
    ns = st.walls.shape[0]
    o = 2 * nc + nd + ns
    diff = 0  # ORs of XORs, no early exit: the loops vectorise
    for j in range(ns):
        diff |= key[2 * nc + nd + j] ^ st.walls[j]
    diff |= key[o] ^ st.g[G.FORT_BUILT]
    diff |= key[o + 1] ^ st.g[G.HARBOR_BUILT]
    diff |= key[o + 2] ^ st.pl[seat, PF.FAITH]
    diff |= key[o + 3] ^ st.pl[seat, PF.CHARACTER]
    diff |= key[o + 4] ^ 1  # 0 in a blank state: empty
    same_w = True
    for j in range(st.w.shape[1]):
        same_w &= st.memo_w[seat, j] == st.w[seat, j]
    if diff != 0 or not same_w:  # everything may have changed
        for d in range(nd):
            dist[3, d] = 0
        bval[:] = np.nan  # one contiguous fill: a nested loop was vectorised into AVX-512 scatters (slow)
        key[2 * nc + nd:o] = st.walls
        key[o] = st.g[G.FORT_BUILT]
        key[o + 1] = st.g[G.HARBOR_BUILT]
        key[o + 2] = st.pl[seat, PF.FAITH]
        key[o + 3] = st.pl[seat, PF.CHARACTER]
        key[o + 4] = 1
        st.memo_w[seat] = st.w[seat]
    else:
        for c in range(nc):
            diff |= (key[c] ^ st.cell_b[c]) | (key[nc + c] ^ st.cell_owner[c])
        for d in range(nd):
            diff |= key[2 * nc + d] ^ st.roads[d]
        if diff == 0:
            return  # the whole map as it was: the usual case
        for d in range(nd):  # the districts whose spaces or Road changed
            dd = key[2 * nc + d] ^ st.roads[d]
            for i in range(r.district_ncells[d]):
                c = r.district_cells[d, i]
                dd |= (key[c] ^ st.cell_b[c]) | (key[nc + c] ^ st.cell_owner[c])
            if dd != 0:
                dist[3, d] = 0
                bval[:, :, d + 1] = np.nan
    key[:nc] = st.cell_b
    key[nc:2 * nc] = st.cell_owner
    key[2 * nc:2 * nc + nd] = st.roads


@njit(cache=True)
def _present_in(st, r, d, t):
    for j in range(r.district_ncells[d]):
        if st.cell_b[r.district_cells[d, j]] == t:
            return True
    return False


@njit(cache=True)
def _progress_acts(ch):
    """Bit ``act`` is set for the TURN rows :func:`_character_progress` can value non-zero for
    Character ``ch`` (it returns 0.0 for every other row): :func:`_turn_values` skips the call for
    the rest. tests/strategies/test_strategies.py checks the two agree on played positions."""
    if ch <= Ch.MERCHANT or ch == Ch.SAILMAKER:
        return (1 << Act.ACTIVATE) | (1 << Act.BUILD) | (1 << Act.F_WAREHOUSE) | (1 << Act.SHIP)
    if ch == Ch.DEFENDER or ch == Ch.ROADMAKER:
        return (1 << Act.MAJOR) | (1 << Act.F_CARD)
    if ch == Ch.GENERAL or ch == Ch.BISHOP:
        return (1 << Act.BUILD) | (1 << Act.MAJOR)
    if ch == Ch.CAPTAIN:
        return (1 << Act.MILICIANO) | (1 << Act.ACTIVATE)
    if ch == Ch.ARCHITECT or ch == Ch.GOVERNOR:
        return 1 << Act.BUILD
    if ch == Ch.NOBLEWOMAN:
        return 1 << Act.F_VOTE
    return 0


@njit(cache=True)
def _character_progress(st, r, seat, i):
    """Heuristic family: how far TURN option i moves the seat toward its Character card's scoring
    (CARD REFERENCE > CHARACTER CARDS), in about VP x Era units: the resource the Carpenter,
    Stonemason, Merchant and Sailmaker must hold most of; Walls (Defender), Roads (Roadmaker);
    Barracks, Monuments and the Fort (General); miniatures (Captain); Churches, the Cathedral and
    Monuments/Fountains next to them (Bishop); a building type new to its district (Architect);
    occupied district spaces (Governor); Peace rather than War (Noblewoman)."""
    w = st.w[seat]
    ch = st.pl[seat, PF.CHARACTER]
    act = st.opts[i, 0]
    a = st.opts[i, 1]
    b = st.opts[i, 2]
    if ch <= Ch.MERCHANT or ch == Ch.SAILMAKER:
        res = ch if ch <= Ch.MERCHANT else 3  # wood, stone, precious, metal
        if act == Act.ACTIVATE:
            out = r.act_out[a]
            gain = out[2] if res == 2 else (out[res] + out[3 + res] if res < 2 else out[5])
            return float(gain - r.act_in[a, res])
        if act == Act.BUILD:
            return -float(r.b_cost[a, 1 + res])
        if act == Act.F_WAREHOUSE:
            return 1.0 if a == res else 0.0
        if act == Act.SHIP:
            p = r.ship_put[a]
            return float(r.ship_pay[a, 2]) if res == 3 else -float(p[res]) if res < 3 else 0.0
        return 0.0
    if ch == Ch.DEFENDER or ch == Ch.ROADMAKER:
        m = M.WALLS if ch == Ch.DEFENDER else M.ROADS
        per = r.k[RK.CH_DEFENDER] if ch == Ch.DEFENDER else r.k[RK.CH_ROADMAKER]
        if act == Act.MAJOR and a == m:
            return w[K.CH_WALL_ROAD] * per * b
        if act == Act.F_CARD and a == Card.C31 and ch == Ch.DEFENDER:
            return w[K.CH_WALL_ROAD] * per
        return 0.0
    if ch == Ch.GENERAL:
        if act == Act.BUILD and a == B.BARRACKS:
            return float(r.k[RK.CH_GEN_BARRACKS])
        if act == Act.BUILD and a == B.MONUMENT:
            return float(r.k[RK.CH_GEN_MONUMENT])
        if act == Act.MAJOR and a == M.FORT and st.g[G.FORT_BUILT] == 0:
            return w[K.CH_MAJOR] * r.k[RK.CH_GEN_FORT] * b
        return 0.0
    if ch == Ch.CAPTAIN:
        if act == Act.MILICIANO or (act == Act.ACTIVATE and r.act_kind[a] != 0):
            return w[K.CH_CAPTAIN] * r.k[RK.CH_CAPTAIN]
        return 0.0
    if ch == Ch.BISHOP:
        if act == Act.BUILD and a == B.CHURCH:
            return float(r.k[RK.CH_BISHOP_CHURCH])
        if act == Act.BUILD and (a == B.MONUMENT or a == B.FOUNTAIN) and next_to_faith(st, r, b):
            return float(r.k[RK.CH_BISHOP_SQUARE])
        if act == Act.MAJOR and a == M.CATHEDRAL and st.g[G.CATHEDRAL_BUILT] == 0:
            return w[K.CH_MAJOR] * r.k[RK.CH_BISHOP_CATHEDRAL] * b
        return 0.0
    if ch == Ch.ARCHITECT:
        if act == Act.BUILD:
            d = r.cell_district[b]
            if d >= 0 and not _present_in(st, r, d, a):
                return w[K.CH_ARCHITECT]
        return 0.0
    if ch == Ch.GOVERNOR:
        if act == Act.BUILD and st.cell_b[b] == B.NONE:
            d = r.cell_district[b]
            if d < 0:
                return 0.0
            occ = 0
            for j in range(r.district_ncells[d]):
                if st.cell_b[r.district_cells[d, j]] != B.NONE:
                    occ += 1
            cap = r.district_ncells[d]
            if occ + 1 == cap:
                return float(r.k[RK.CH_GOV_FULL] - r.k[RK.CH_GOV_HALF])
            if 100 * (occ + 1) >= cap * r.k[RK.CH_GOV_HALF_PCT] and 100 * occ < cap * r.k[RK.CH_GOV_HALF_PCT]:
                return float(r.k[RK.CH_GOV_HALF])
            return w[K.CH_GOVERNOR]
        return 0.0
    if ch == Ch.NOBLEWOMAN:
        if act == Act.F_VOTE and a == Law.PEACE:
            return w[K.CH_NOBLEWOMAN] * r.k[RK.CH_NOBLEWOMAN]
        if act == Act.F_VOTE and a == Law.WAR:
            return -w[K.CH_NOBLEWOMAN] * r.k[RK.CH_NOBLEWOMAN]
        return 0.0
    return 0.0


@njit(cache=True)
def _build_base(st, r, w, seat, t, c):
    """The part of a BUILD row's value that depends on the building type and the district only
    (see :func:`_build_value`)."""
    cost = r.b_cost[t]
    v = -_res_value(w, cost[1], cost[2], cost[3], cost[4]) + w[F.WORKER] * cost[0]
    v += w[F.VP] * r.b_vp[t] + w[F.COUNCIL] * r.b_cp[t] + w[F.CITY] * _city_gain(st, r, w, seat, t, c)
    return v


@njit(cache=True)
def _build_value(st, r, w, seat, i, cache, per_space):
    """BUILD row i, the Character term included: building cost, VP, council
    points, the city VP it adds (:func:`_city_gain`), production in reach, the Status marker and
    the Character progress. A turn offers dozens of BUILD rows that share a type, a district and
    the Status-marker flag, and then a value: it is computed once (``cache``, the seat's memo, NaN
    until filled; kept across decisions while :func:`memo_refresh` finds its inputs unchanged;
    :func:`_turn_values` reads it). ``per_space``: the seat's Character progress depends on
    the space itself (the Bishop's Monument or Fountain next to a Church, the Governor's empty
    space), so the cache holds the value before the Character term, added per row."""
    a = st.opts[i, 1]
    mark = st.opts[i, 3] & 1  # the marker bit; a worker discount rides above it
    key = r.cell_district[st.opts[i, 2]] + 1
    v = _build_base(st, r, w, seat, a, st.opts[i, 2])
    if a >= B.QUARRY and a <= B.CHURCH and a != B.SQUARE and a != B.MONUMENT and a != B.FOUNTAIN:
        v += w[F.PRODUCTION]
    if mark == 1:
        v += w[F.CITY] * w[K.MARKER_CITY] - w[F.STATUS] * w[K.MARKER_STATUS]
    wc = w[F.CHARACTER]
    if per_space:
        cache[mark, a, key] = v
        return v + wc * _character_progress(st, r, seat, i)
    if wc != 0.0:
        v = v + wc * _character_progress(st, r, seat, i)
    cache[mark, a, key] = v
    return v


@njit(cache=True)
def _series_change(st, r, w, seat, card, sign):
    """The card series VP (SCORING PHASE, VPS ASSIGNATION: Cards series, and Card status III's VP
    per colour) at every Scoring still to come, times their Era, that the seat gains by taking
    ``card`` into its hand (``sign`` 1) or loses by giving it up (-1: discarded for a salary, burnt),
    its hand otherwise as it is now; in VP (x ``K.SERIES``). 0 when the strategy does not count
    series (``K.SERIES`` 0) or there is no card."""
    if w[K.SERIES] == 0.0 or card < 0:
        return 0.0
    n = st.g[G.NPLAYERS]
    _, eras = scorings_ahead(r, st.g[G.DECADE] - 1, st.g[G.LAST_DECADE])  # this decade's Scoring still to come
    if eras == 0:
        return 0.0
    counts = np.zeros(N_GROUPS, np.int32)
    series_counts(st, seat, counts)
    cab = st.g[G.CABILDO_BUILT] == 1
    # counted in half VP: Card status III's VP per colour is kept so in the rules (1.5 VP in 4-5 players)
    half = r.card_l3_half[n - 2] if st.pl[seat, PF.ST_CARDS] >= 3 else 0
    before = 2 * series_base(r, counts, cab) + half * n_colours(counts)
    g = card_group(card)
    counts[g] = max(0, counts[g] + sign)
    after = 2 * series_base(r, counts, cab) + half * n_colours(counts)
    return w[K.SERIES] * w[F.VP] * (after - before) * eras / 2


@njit(cache=True)
def _turn_base(st, r, seat, i):
    w = st.w[seat]
    act = st.opts[i, 0]
    a = st.opts[i, 1]
    b = st.opts[i, 2]
    if act == Act.PASS:
        return 0.0
    if act == Act.ACTIVATE:
        inp = r.act_in[a]
        out = r.act_out[a]
        v = w[F.WORKER] * r.act_w[a] - _res_value(w, inp[0], inp[1], inp[2], inp[3])
        v -= w[F.COIN] * (r.k[RK.BRONZE_PER_SILVER] * inp[4] + inp[5])
        v += _res_value(w, out[0] + out[3], out[1] + out[4], out[2], out[5])
        v += w[F.COIN] * (r.k[RK.BRONZE_PER_SILVER] * out[6] + out[7]) + w[F.FAITH] * out[8]
        if r.act_kind[a] != 0:
            v += w[F.MILITARY]
            # EXTENDED WAR: the miniature it upgrades (a veteran Miliciano to a Soldier, a Soldier to a veteran)
            if r.act_kind[a] == 1:
                v += xw_defender_value(r, 0.0, st, r, w, seat, Mini.MILICIANO_VET, Mini.SOLDIER)
            else:
                v += xw_defender_value(r, 0.0, st, r, w, seat, Mini.SOLDIER, Mini.SOLDIER_VET)
        return v
    if act == Act.REMOVE:
        return w[F.WORKER] - w[F.CITY] * w[K.REMOVE_CITY]
    if act == Act.MILICIANO:
        v = w[F.WORKER] + w[F.MILITARY] - (w[F.PRECIOUS] if a == 1 else 0.0)
        if a == 1:
            return v + xw_defender_value(r, 0.0, st, r, w, seat, Mini.MILICIANO, Mini.MILICIANO_VET)
        return v + xw_defender_value(r, 0.0, st, r, w, seat, Mini.NONE, Mini.MILICIANO)
    if act == Act.SHIP:
        p = r.ship_put[a]
        q = r.ship_pay[a]
        v = -_res_value(w, p[0], p[1], p[2], 0) - w[F.COIN] * (r.k[RK.BRONZE_PER_SILVER] * p[3] + p[4])
        v += w[F.COIN] * (r.k[RK.BRONZE_PER_SILVER] * q[0] + q[1]) + w[F.METAL] * q[2] + w[F.FAITH] * q[3]
        return v + w[F.WORKER] * (r.k[RK.SHIP_WORKERS_HARBOR] if st.g[G.HARBOR_BUILT] else r.k[RK.SHIP_WORKERS])
    if act == Act.CARD_DRAW:
        return w[F.CARD] + w[F.WORKER] * r.k[RK.TAKE_CARD_WORKERS]
    if act == Act.CARD_PILE:  # the pile's top card is face up: its colour counts (looked up only when series count)
        v = w[F.CARD] + w[F.WORKER] * r.k[RK.TAKE_CARD_WORKERS]
        return v + _series_change(st, r, w, seat, top_of(st, pile_loc(a)), 1) if w[K.SERIES] != 0.0 else v
    if act == Act.CARD_BUY:
        return (w[K.CARD_BUY] * w[F.CARD] + w[F.WORKER] * r.k[RK.TAKE_CARD_WORKERS] - w[F.COIN] * r.k[RK.BUY_CARD_BRONZE]
                + _series_change(st, r, w, seat, a, 1))
    if act == Act.REACTIVATE:
        return w[F.WORKER] * a + w[K.REACTIVATE] * w[F.CARD] * a
    if act == Act.ORDER:
        return (w[F.WORKER] + w[F.ORDER]) * a
    if act == Act.COUNCIL:
        gain = min(r.council_gain[a - 1], r.k[RK.COUNCIL_MAX] - st.pl[seat, PF.COUNCIL])
        return w[F.WORKER] * a + w[F.COUNCIL] * gain
    if act == Act.STATUS:
        return w[F.WORKER] * r.st_workers[b - 1] - w[F.COIN] * r.k[RK.BRONZE_PER_SILVER] * r.st_silver[b - 1] + w[F.STATUS] * b
    if act == Act.MAJOR:
        v = w[F.WORKER] * b
        empty = True
        nf = 0
        spaces = r.major_spaces[a, st.g[G.NPLAYERS] - 2]
        for j in range(spaces):
            if st.major[a, j] != -1:
                empty = False
            else:
                nf += 1
        if empty:
            v += w[F.VP] * r.major_first_vp[a]
        # the b best free spaces (own workers take the highest-VP spaces), best first
        left = min(b, nf)
        for q in range(r.major_vp_order.shape[1]):
            if left == 0:
                break
            j = r.major_vp_order[a, q]
            if j < spaces and st.major[a, j] == -1:
                v += w[F.VP] * r.major_space_vp[a, j]
                left -= 1
        if b >= nf:
            v += w[F.BANNER]
        return v
    if act == Act.F_BURN:
        return -w[F.CARD] + _series_change(st, r, w, seat, a, -1)
    if act == Act.F_WAREHOUSE:
        return w[F.VP] * r.k[RK.WAREHOUSE_VP] + (w[F.WOOD] if a == 0 else w[F.STONE])
    if act == Act.F_RECOVER:
        return -w[F.VP] * r.k[RK.RECOVER_VP_FACTOR] * r.major_first_vp[a] - w[F.WORKER] * w[K.RECOVER_WORKERS]
    if act == Act.F_REMOVE_LOT:
        return -w[F.CITY]
    if act == Act.F_CC_WORKER:
        lvl = st.pl[seat, PF.ST_WORKER]
        v = -w[F.WORKER] * r.worker_cc[lvl - 1]
        if a == 0:
            v -= w[F.COIN] * r.worker_bronze[lvl - 1]
        elif a == 1:
            v -= w[F.WOOD]
        elif a == 2:
            v -= w[F.STONE]
        return v
    if act == Act.F_FREE_REACT:
        return w[K.REACTIVATE] * w[F.CARD]
    if act == Act.F_CARD:
        return _card_value(st, r, w, seat, a, b, st.opts[i, 3])
    return 0.0


@njit(cache=True)
def _card_value(st, r, w, seat, c, a, b):
    """Greedy value of using Affiliate card c now with targets (a, b) (sim.affiliates); the card
    itself is spent (rotated) until reactivated."""
    p = r.aff_p[c]
    rate = r.k[RK.BRONZE_PER_SILVER]
    spent = -w[K.CARD_SPENT] * w[F.CARD]
    num = c + 1
    if r.aff_grid[c] >= -1:  # City Council workers onto a Major Building grid (cards naming a grid)
        free = 0
        mine = 0
        for j in range(r.major_spaces[a, st.g[G.NPLAYERS] - 2]):
            free += 1 if st.major[a, j] == -1 else 0
            mine += 1 if st.major[a, j] == seat else 0
        v = w[K.GRID_CARD_VP] * b * w[F.VP] + (w[F.VP] * w[K.GRID_CARD_CLOSE] if b >= free and mine > 0 else 0.0)
        return spent + v - _res_value(w, p[AP.PAY_WOOD], p[AP.PAY_STONE], p[AP.PAY_PRECIOUS], 0)
    if num == 31:
        return spent + w[F.CITY] * w[K.C31_CITY]
    if num == 62:
        return spent + w[F.VP] * p[AP.VP] + w[K.C62_HEAL] * w[F.MILITARY]
    if num == 76:
        return spent + w[F.COIN] * p[AP.BRONZE] - w[K.C76_TENSION]
    if num == 83:
        return spent + w[K.C83_GRIDS]
    if num == 53:
        return spent + w[F.BANNER] * w[K.C53_BANNER] - w[F.COIN] * p[AP.PAY_SILVER] * rate
    if num == 60 or num == 64:
        return spent + w[K.REACTIVATE] * w[F.CARD]
    if num == 77:
        return spent + w[F.VP] * w[K.PENALTY_STEP] - w[F.COIN] * p[AP.PAY_SILVER] * rate
    if num == 28:
        return spent + w[F.WOOD] * a + w[F.STONE] * b - w[F.VP] * p[AP.VP_PENALTY_PER_RESOURCE] * (a + b) - w[K.C28_USE]
    if num == 45:  # a: City Council workers lent, b: wood/stone/precious waived in the next main action
        return spent - w[F.WORKER] * a * w[K.CARD_WORKER] + w[K.C45_WAIVE] * b * w[F.STONE] - w[F.METAL] * p[AP.PAY_METAL]
    if num == 51:  # one more main action now, a City Council worker in it
        return spent - w[F.WORKER] * w[K.CARD_WORKER]
    if num == 48:  # the 4 Warehouse resources turned into metal, taken as half wood, half stone (0.5: their mean, not a worth)
        return spent + w[F.METAL] * p[AP.METAL] - (w[F.WOOD] + w[F.STONE]) * p[AP.WAREHOUSE_RESOURCES] * 0.5
    if p[AP.WORKER_DISCOUNT] > 0:  # a worker saved on this turn's action (13, 19, 25, 58, 65, 84)
        return spent - w[F.WORKER] * p[AP.WORKER_DISCOUNT] * w[K.CARD_WORKER]
    return spent + w[K.CARD_MODIFIER]  # other modifiers of this turn (18, 24, 29, 30, 52, 66)


@njit(cache=True)
def _vote_cost(st, r, w, s, v):
    """Value lost by casting v votes: the City Council points they cost, plus the below-one penalty
    (CITY COUNCIL VOTE: at 0 or below, 2 VP + 2 VP per point below zero)."""
    left = st.pl[s, PF.COUNCIL] - v
    cost = w[F.COUNCIL] * v
    if v > 0 and left <= 0:
        cost -= w[F.VP] * (r.k[RK.BELOW_ONE_BASE] + r.k[RK.BELOW_ONE_PER_POINT] * (-left))
    return cost


@njit(cache=True)
def _likely_no(st, r, s):
    """Votes a player with this policy would cast against a law it does not want: two while that
    leaves it above zero on the council track, else one while that does, else none."""
    c = st.pl[s, PF.COUNCIL]
    return 2 if c >= 3 else (1 if c >= 2 else 0)


@njit(cache=True)
def _call_value(st, r, w, seat):
    """Calling a City Council vote, valued as the legislator's best "yes" in :func:`_vote_value`
    (the same model of the opposition); when the opposition is out of reach, the other players share
    the VP, which counts against calling (a third of them, as one rival in three)."""
    best = -1e9
    mv = 0
    for t in range(r.vote_tiles.shape[0]):
        mv += r.vote_tiles[t]
    opp = _opposition(st, r, seat)  # the same for every number of votes
    for v in range(1, mv + 1):
        x = _legislator_yes(st, r, w, seat, v, 0.0, opp)
        if x > best:
            best = x
    total = float(r.k[RK.VOTE_VP_PER_ERA] * st.g[G.ERA])
    return max(best, -w[F.VP] * total / w[P.VOTE_RIVALS])


@njit(cache=True)
def _opposition(st, r, seat):
    """The "no" votes a legislator expects: every other player voting as :func:`_likely_no`."""
    opp = 0
    for s in range(st.g[G.NPLAYERS]):
        if s != seat:
            opp += _likely_no(st, r, s)
    return opp


@njit(cache=True)
def _legislator_yes(st, r, w, seat, v, pref, opp):
    """The legislator's v "yes" votes against ``opp`` expected "no" votes (:func:`_vote_value`)."""
    total = float(r.k[RK.VOTE_VP_PER_ERA] * st.g[G.ERA])
    cost = _vote_cost(st, r, w, seat, v)
    p = 1.0 if v > opp else (w[P.VOTE_TIE] if v == opp else 0.0)
    return w[F.VP] * total * p + w[K.VOTE_WIN] * p - cost + pref


@njit(cache=True)
def _vote_value(st, r, w, seat, side, v, law, leg):
    """A secret vote (CITY COUNCIL VOTE): the winning faction shares 4 VP x Era, a unanimous "yes"
    gives them all to the legislator, each vote costs a council point.

    The legislator estimates the opposition from the public council track (every other player
    voting "no" as :func:`_likely_no`) and casts the cheapest winning "yes", or none worth it. Any
    other player cannot see the legislator's fist; bots' legislators usually cast 1 or 2, so "no"
    with 2 votes is taken to win and 1 vote to tie; the VP are taken as shared with one more
    winner. A side tile without value tiles is left alone. "Yes" joins the legislator's likely win, shared three ways and at risk of giving the
    legislator a unanimous sweep, so it is worth less. The Noblewoman prefers Peace to War."""
    if side == Side.ABSTAIN:
        return 0.0
    if v == 0:
        return -w[K.VOTE_TILE_ALONE]  # a side tile alone changes no count: as good as abstaining, so abstain
    pref = 0.0
    if st.pl[seat, PF.CHARACTER] == Ch.NOBLEWOMAN and (law == Law.WAR or law == Law.PEACE):
        pref = w[K.CH_NOBLEWOMAN] * r.k[RK.CH_NOBLEWOMAN] * w[F.CHARACTER] * (1.0 if law == Law.PEACE else -1.0)
    if seat == leg:
        if side == Side.NO:
            return -1e9
        return _legislator_yes(st, r, w, seat, v, pref, _opposition(st, r, seat))
    total = float(r.k[RK.VOTE_VP_PER_ERA] * st.g[G.ERA])
    cost = _vote_cost(st, r, w, seat, v)
    if side == Side.YES:
        return w[F.VP] * total * w[P.VOTE_YES_KEEP] / w[P.VOTE_YES_WINNERS] - cost + pref
    p = 1.0 if v >= w[P.VOTE_NO_WINS] else w[P.VOTE_TIE]
    return w[F.VP] * total * p / w[P.VOTE_NO_WINNERS] - cost - pref


@njit(cache=True)
def _scoring_floor(st, r, seat):
    """The seat's largest single assignation at this decade's Scoring as far as the state now shows
    it (VPS ASSIGNATION): its best House or Palace, its face-up banners, a Money or Faith majority it
    holds alone, and in the last decade its City Council VPs when the VP status bonus may take them
    (status.vp_bonus_end_game). A floor: the Character, the card series and the strongest miniature
    are not counted."""
    era = st.g[G.ERA]
    faith = st.pl[seat, PF.FAITH]
    best = 0
    for d in range(r.district_ncells.shape[0]):
        dv = 0
        seen = False  # the district's value is looked up at its first House or Palace of the seat
        for j in range(r.district_ncells[d]):
            c = r.district_cells[d, j]
            if st.cell_owner[c] != seat or (st.cell_b[c] != B.HOUSE and st.cell_b[c] != B.PALACE):
                continue
            if not seen:
                dv = district_value(st, r, d)
                seen = True
            if st.cell_b[c] == B.PALACE:
                best = max(best, palace_value(r, faith, dv))
            else:
                best = max(best, house_value(st, r, seat, d, faith, dv))
    up = 0
    for b in range(PF.BANNER_OCHER - PF.BANNER_BLACK + 1):
        if st.pl[seat, PF.BANNER_BLACK + b] >= 2:  # face-up (sim.banners.FACE_UP)
            up += 1
    best = max(best, r.banner_vp[up] * era)
    rate = r.k[RK.BRONZE_PER_SILVER]
    coins = rate * st.pl[seat, PF.SILVER] + st.pl[seat, PF.BRONZE]
    rich = coins > 0
    pious = faith > 0
    for s in range(st.g[G.NPLAYERS]):
        if s != seat:
            rich = rich and coins > rate * st.pl[s, PF.SILVER] + st.pl[s, PF.BRONZE]
            pious = pious and faith > st.pl[s, PF.FAITH]
    if rich:
        best = max(best, r.k[RK.MONEY_VP] * era)
    if pious:
        best = max(best, r.k[RK.FAITH_VP] * era)
    if st.g[G.DECADE] == st.g[G.LAST_DECADE] and r.k[RK.VP_BONUS_END_GAME] == 1:
        best = max(best, r.council_vp[st.pl[seat, PF.COUNCIL]])
    return best


@njit(cache=True)
def _vp_wait(st, r, w, seat, ahead):
    """Waiting with the VP status bonus (10. IMPROVE STATUS, VP status: once per decade, on a single
    assignation): the bonus a larger assignation still ahead in this decade would get. In a Scoring
    the engine tells it (``ahead``, the bonus on the largest one still to come); before it, in a
    decade that ends with a Scoring, the floor the state shows (:func:`_scoring_floor`); in a decade
    without one, nothing: what the rest of the decade brings is small and not foreseen."""
    if ahead >= 0:
        return w[K.VP_WAIT_SCORING] * ahead
    d = st.g[G.DECADE]
    if d % r.k[RK.DECADES_PER_ERA] != 0 and d != st.g[G.LAST_DECADE]:
        return 0.0
    lvl = st.pl[seat, PF.ST_VP]
    return w[K.VP_WAIT_LATER] * (_scoring_floor(st, r, seat) * r.vp_bonus_pct[lvl - 1] // 100)


@njit(cache=True)
def _option_value(st, r, seat, kind, i):
    """Greedy family: immediate value of option i of a decision other than TURN (:func:`_turn_values`)."""
    w = st.w[seat]
    o = st.opts[i]
    if kind == Dec.GRID:
        # o = [grid, cubes on it, resource]: prefer full grids, avoid taking a grid's last cube (VP penalty)
        return w[K.GRID_CUBE] * o[1] - (w[F.VP] if o[1] <= 1 else 0.0)
    if kind == Dec.STACK:
        # o = [stack, 1 when making bronze change, coins on it]: avoid taking a stack's last coin
        if o[1] == 1:
            return 0.0
        return -w[F.VP] if o[2] == 1 else 0.0
    if kind == Dec.BID:
        return w[K.BID_PASS] if o[0] == 0 else (w[K.BID_LOW] if o[0] <= w[P.BID_LOW_MAX] else w[K.BID_HIGH])
    if kind == Dec.DRAW_SOURCE:
        if o[0] < 0:
            return w[K.DRAW_DECK]
        if w[K.SERIES] == 0.0:  # the top card looked up only when series count
            return w[K.DRAW_PILE]
        return w[K.DRAW_PILE] + _series_change(st, r, w, seat, top_of(st, pile_loc(o[0])), 1)
    if kind == Dec.KEEP:
        if o[0] < 0:
            return 0.0
        own = w[K.KEEP_OWN] if (o[0] - N_CHARACTERS) // GROUP_SIZE == st.pl[seat, PF.CHARACTER] else 1.0
        return w[F.CARD] * own + _series_change(st, r, w, seat, o[0], 1)
    if kind == Dec.SALARY:
        if o[0] == 1:
            return -w[F.COIN] * o[1] - w[K.SALARY_VP] * w[F.VP] * o[2]
        return -w[F.CARD] - w[K.SALARY_DISCARD] + _series_change(st, r, w, seat, o[1], -1)
    if kind == Dec.VOTE:
        if int(w[F.FAMILY]) == FAMILY_GREEDY:
            # greedy sees only the vote's immediate cost: as legislator the cheapest "yes", otherwise
            # no council points spent (it abstains); the heuristic models the vote (_vote_value)
            if o[3] == seat:
                return 1.0 if o[0] == Side.YES and o[1] == 1 else 0.0
            return 1.0 if o[0] == Side.ABSTAIN else 0.0
        return _vote_value(st, r, w, seat, o[0], o[1], o[2], o[3])
    if kind == Dec.WAR_FIGHT:
        wa = o[2]
        av = o[1]
        loss = max(0, wa - av)
        v = -w[K.PENALTY_STEP] * w[F.VP] * loss + (w[K.PENALTY_STEP] * w[F.VP] if loss == 0 else 0.0)
        bits = 0
        for j in range(r.k[RK.WAR_MARKERS]):
            if o[0] & (1 << j):
                bits += 1
        if o[0] >> r.k[RK.WAR_MARKERS]:  # card 59: a worker fights and is held until the next decade ends
            v += w[F.WORKER] - w[F.CARD] * w[K.CARD_SPENT]
        return v - w[K.WAR_MARKER] * w[F.MILITARY] * bits
    if kind == Dec.WAR_BURN:
        if o[0] < 0:
            return 0.0
        return (w[K.PENALTY_STEP] * w[F.VP] if o[1] > 0 else w[K.BURN_SPARE]) - w[F.CARD] + _series_change(st, r, w, seat, o[0], -1)
    if kind == Dec.PLACE_CABILDO or kind == Dec.PLACE_ROAD:
        d = r.cell_district[o[0]] if kind == Dec.PLACE_CABILDO else o[0]
        v = float(own_buildings_in_district(st, r, seat, d))
        if kind == Dec.PLACE_CABILDO and st.cell_b[o[0]] != B.NONE:
            v -= w[K.CABILDO_OWN] if st.cell_owner[o[0]] == seat else w[K.CABILDO_OTHER]
        return v
    if kind == Dec.PLACE_CATHEDRAL:
        return float(own_buildings_in_district(st, r, seat, r.cell_district[o[0]])
                     + own_buildings_in_district(st, r, seat, r.cell_district[o[1]]))
    if kind == Dec.PLACE_WALL:
        if o[0] < 0:
            return -w[K.WALL_STOP]
        return float(own_buildings_in_district(st, r, seat, o[1]))
    if kind == Dec.VP_BONUS:
        # o = [1 take / 0 wait, this assignation's bonus, the bonus on the largest one still to come in
        # this Scoring (-1: not in a Scoring)]; greedy takes the immediate value
        if o[0] == 1:
            return float(o[1])
        if int(w[F.FAMILY]) == FAMILY_GREEDY:
            return 0.0
        later = _vp_wait(st, r, w, seat, o[2])
        return later if later > o[1] else 0.0
    if kind == Dec.USE_CARD:
        if o[0] == 0:
            return 0.0
        return w[K.USE_GAIN] if o[2] > 0 else -w[K.USE_IDLE]  # o = [use?, card, gain]: use a trigger that brings something
    if kind == Dec.CARD_TARGET:
        if o[2] == Card.C36 or o[2] == Card.C42 or o[2] == Card.C54 or o[2] == Card.C68:  # o = [VP gained, district, card, ...]
            return w[F.VP] * o[0]
        if o[2] == Card.C71:  # o = [VP gained, district, card, other player, Houses paid for]
            return w[F.VP] * o[0] - w[F.COIN] * o[4] * r.aff_p[Card.C71, AP.PAY_BRONZE_PER_HOUSE]
        if o[2] == Card.C67:  # o = [district, production buildings beyond the first, card]
            return float(o[1])
        return -w[K.TARGET_STOP] if o[0] < 0 else 0.0  # a step of a card power: doing it beats stopping
    if kind == Dec.REACTIVATE:
        if o[0] < 0:
            return 0.0
        return w[K.REACT_CHARACTER] if o[0] < N_CHARACTERS else w[K.REACT_AFFILIATE]
    if kind == Dec.AI_TIE:
        return solo_ai_tie_value(r, 0.0, st, r, seat, i)  # the Solo A.I.'s tie, the human's choice (strategies.ai_tie)
    if kind >= Dec.XW_TARGET:
        return xw_war_value(r, 0.0, st, r, seat, kind, i)  # EXTENDED WAR (strategies.war_policy)
    return 0.0


TIE = 1e-9  # values this close to the best count as tied for it


@njit(cache=True)
def _count_tied(vals, n, best):
    """How many of ``vals[:n]`` are tied for ``best`` (:data:`TIE`)."""
    ties = 0
    for i in range(n):
        if vals[i] > best - TIE:
            ties += 1
    return ties


@njit(cache=True)
def _nth_tied(vals, n, best, pick):
    """The index of the ``pick``-th of ``vals[:n]`` tied for ``best`` (0 if none)."""
    for i in range(n):
        if vals[i] > best - TIE:
            if pick == 0:
                return i
            pick -= 1
    return 0


@njit(cache=True)
def _per_space(st, seat):
    """The Bishop's and the Governor's BUILD progress depends on the space itself (a Monument or
    Fountain next to a Church; an empty space): with a Character weight, their BUILD rows that share
    a type, a district and the Status marker differ in value (added per row, :func:`_build_value`)."""
    ch = st.pl[seat, PF.CHARACTER]
    return st.w[seat, F.CHARACTER] != 0.0 and (ch == Ch.BISHOP or ch == Ch.GOVERNOR)


@njit(cache=True)
def turn_groups_ok(st, seat):
    """The seat's TURN decision may see the BUILD rows grouped by (type, district, Status marker)
    (sim.actions.decide_turn): its policy values rows (greedy, heuristic, rollout) and those rows
    share a value (not :func:`_per_space`), and it carries no forbid probe (:func:`drop_forbidden`
    works on the full listing). A search's simulation forbid (P.SIM_FORBID) of an Act other than BUILD
    keeps the groups: it takes only rows that are not BUILD rows, and the BUILD rows stay a legal main
    action, so the grouped listing less that Act's rows (:func:`drop_sim_forbidden`) is the full
    listing's :func:`drop_forbidden`, in the same order (the simulations of `best`, whose every seat is
    kept from the Major buildings, listed every BUILD row one by one without it)."""
    fam = int(st.w[seat, F.FAMILY])
    return (fam != FAMILY_RANDOM and fam != FAMILY_PYTHON and not _per_space(st, seat)
            and not _probe_forbids(st, seat) and not sim_forbids(st, seat, Act.BUILD))


@njit(cache=True)
def sim_forbids(st, seat, act):
    """Inside a search's simulations the seat is kept from Act ``act`` (P.SIM_FORBID: the set of Acts as a
    bit mask, bit ``act`` set; 0 none; strategies.search.SB.ROLLOUT_FORBID)."""
    return (int(st.w[seat, P.SIM_FORBID]) >> act) & 1 == 1


@njit(cache=True)
def _probe_forbids(st, seat):
    """The seat carries a forbid probe (strategies.forced_play: P.PROBE_ACT or P.PROBE_PLAN below 0)."""
    return st.w[seat, P.PROBE_ACT] < 0 or st.w[seat, P.PROBE_PLAN] < 0


@njit(cache=True)
def drop_sim_forbidden(st, seat, k):
    """A grouped TURN listing's rows ``st.opts[:k]`` (sim.actions.decide_turn: no BUILD row among them,
    :func:`turn_groups_ok` held) less those of the Act a search's simulations keep the seat from
    (P.SIM_FORBID, :func:`sim_forbids`), the rest kept in order; returns how many are left. With BUILD groups
    listed another main action stays legal, so this is :func:`drop_forbidden` over the full listing."""
    if st.w[seat, P.SIM_FORBID] <= 0:
        return k
    m = 0
    for i in range(k):
        if not sim_forbids(st, seat, st.opts[i, 0]):
            if m != i:
                st.opts[m] = st.opts[i]
            m += 1
    return m


@njit(cache=True)
def _forbids(st, seat):
    """The seat carries a forbid probe (strategies.forced_play: P.PROBE_ACT or P.PROBE_PLAN below 0) or, inside a
    search's simulations, that search's forbid (P.SIM_FORBID)."""
    return _probe_forbids(st, seat) or st.w[seat, P.SIM_FORBID] > 0


@njit(cache=True)
def _forbidden(st, r, seat, act, a):
    """TURN row (``act``, ``a``) is one the seat's forbid probe takes away: an Act (P.PROBE_ACT = -Act), of one
    column a (P.PROBE_ARG = a + 1, 0 any), or a group of BUILD rows (P.PROBE_PLAN: FORBID_CITY, the Lots, Houses
    and Palaces; FORBID_PRODUCTION, the Production buildings of SCORING PHASE City, ``r.b_prod``), or the
    Acts a search's simulations keep the seat from (P.SIM_FORBID, any column: :func:`sim_forbids`)."""
    if st.w[seat, P.SIM_FORBID] > 0 and sim_forbids(st, seat, act):
        return True
    pa = st.w[seat, P.PROBE_ACT]
    if pa < 0:
        arg = st.w[seat, P.PROBE_ARG]
        return act == -pa and (arg == 0 or a == arg - 1)
    plan = st.w[seat, P.PROBE_PLAN]
    if act != Act.BUILD:
        return False
    if plan == FORBID_CITY:
        return a == B.LOT or a == B.HOUSE or a == B.PALACE
    if plan == FORBID_PRODUCTION:
        return r.b_prod[a] > 0
    return False


@njit(cache=True)
def drop_forbidden(st, r, seat, k):
    """A forbid probe (``trinidad probe --forbid``): the seat's TURN rows ``st.opts[:k]`` less those its probe
    forbids (:func:`_forbidden`), the rest kept in order; returns how many are left. Only while another main
    action stays legal: a seat whose every main action is forbidden takes one (a turn must end in a main action
    or PASS, B. ACTION PHASE), and the record shows it. Every family lists its TURN rows through
    sim.actions.turn_options, so a searching seat never considers the option, nor plays it in its simulations
    (its copies carry the probe); the other seats are unchanged."""
    if not _forbids(st, seat):
        return k
    drop = -1  # the first forbidden row: none, nothing to do
    left = False  # a main action not forbidden
    for i in range(k):
        if _forbidden(st, r, seat, st.opts[i, 0], st.opts[i, 1]):
            if drop < 0:
                drop = i
        elif st.opts[i, 0] < FIRST_FREE_ACT:
            left = True
        if left and drop >= 0:
            break
    if drop < 0 or not left:
        return k
    m = drop
    for i in range(drop, k):
        if not _forbidden(st, r, seat, st.opts[i, 0], st.opts[i, 1]):
            if m != i:
                st.opts[m] = st.opts[i]
            m += 1
    return m


@njit(cache=True)
def choose_grouped(st, r, seat, k):
    """:func:`choose` for a grouped TURN listing (sim.actions.decide_turn): rows ``st.opts[:k]``
    (no BUILD row among them) and BUILD groups ``st.grp[:st.turn_n[TL.GROUPS]]`` of [type, district + 1,
    c column, spaces, first space]. The full listing puts its BUILD rows first, each group's rows
    sharing the group's value (:func:`turn_groups_ok`); so the values, the best, the number of rows
    tied for it and the one random draw among them are :func:`choose`'s over the full listing.
    Returns the row index, or ``-(p + 1)`` for the p-th tied BUILD row in listing order, the tied
    groups marked in ``st.grp_tied`` (entries of groups not listed this time are stale: no BUILD row
    of this listing reads them)."""
    w = st.w[seat]
    ng = st.turn_n[TL.GROUPS]
    grp = st.grp
    gv = st.grp_vals
    best = _turn_values(st, r, seat, k)
    if ng > 0:
        memo_refresh(st, r, seat)
        cache = st.bval[seat]
        opts = st.opts
        for g in range(ng):
            t = grp[g, 0]
            v = cache[grp[g, 2] & 1, t, grp[g, 1]]
            if v != v:
                # the value reads the space's district only: the group's first space stands in (row k, scratch)
                opts[k, 0] = Act.BUILD
                opts[k, 1] = t
                opts[k, 2] = grp[g, 4]
                opts[k, 3] = grp[g, 2]
                opts[k, 4] = 0
                v = _build_value(st, r, w, seat, k, cache, False)
            gv[g] = v
            if v > best:
                best = v
    tied = st.grp_tied
    tb = 0  # tied BUILD rows
    for g in range(ng):
        on = gv[g] > best - TIE
        tied[grp[g, 2] & 1, grp[g, 0], grp[g, 1]] = 1 if on else 0
        if on:
            tb += grp[g, 3]
    ties = tb + _count_tied(st.vals, k, best)
    pick = rand_below(st, ties) if ties > 1 else 0
    if pick < tb:
        return -(pick + 1)
    return _nth_tied(st.vals, k, best, pick - tb)


@njit(cache=True)
def _turn_values(st, r, seat, n):
    """:func:`option_values` of a TURN decision: each row's :func:`_turn_base` value plus the
    Character weight times its :func:`_character_progress`; what rows share is computed once (the
    value of calling a vote), or kept in the seat's memo while its inputs stay the same (the
    district table and the BUILD values by type and district, :func:`_build_value`,
    :func:`memo_refresh`)."""
    w = st.w[seat]
    builds = False
    for i in range(n):
        if st.opts[i, 0] == Act.BUILD:
            builds = True
            break
    cache = st.bval[seat]
    if builds:
        memo_refresh(st, r, seat)  # the seat's BUILD values and district table, kept while still valid
    call = np.nan
    greedy = int(w[F.FAMILY]) == FAMILY_GREEDY
    wc = w[F.CHARACTER]
    ch = st.pl[seat, PF.CHARACTER]
    acts = _progress_acts(ch)  # the rows whose Character term can be non-zero
    per_space = _per_space(st, seat)
    vals = st.vals
    opts = st.opts
    best = -1e18
    for i in range(n):
        act = opts[i, 0]
        if act == Act.BUILD:
            # the cached value when the row's (Status marker, type, district) has one
            v = cache[opts[i, 3] & 1, opts[i, 1], r.cell_district[opts[i, 2]] + 1]
            if v != v:
                v = _build_value(st, r, w, seat, i, cache, per_space)  # the Character term included
            elif per_space:
                v = v + wc * _character_progress(st, r, seat, i)
        else:
            if act == Act.F_VOTE:
                if greedy:  # a coin-flip share of the vote's VP for one council point
                    v = w[F.VP] * r.k[RK.VOTE_VP_PER_ERA] * st.g[G.ERA] * w[P.GREEDY_VOTE_CHANCE] - w[F.COUNCIL]
                else:
                    if call != call:
                        call = _call_value(st, r, w, seat)  # once per decision
                    v = call
                if opts[i, 1] == Law.PEACE:
                    v -= w[F.COIN] * r.k[RK.BRONZE_PER_SILVER] * r.k[RK.PEACE_ACT_SILVER]
            else:
                v = _turn_base(st, r, seat, i)
            if wc != 0.0 and (acts >> act) & 1:
                v = v + wc * _character_progress(st, r, seat, i)
        vals[i] = v
        if v > best:
            best = v
    return best


@njit(cache=True)
def option_values(st, r, seat, kind, n):
    """The greedy/heuristic value of each option into ``st.vals[:n]``; returns the best value."""
    if kind == Dec.TURN:
        return _turn_values(st, r, seat, n)
    vals = st.vals
    best = -1e18
    for i in range(n):
        v = _option_value(st, r, seat, kind, i)
        vals[i] = v
        if v > best:
            best = v
    return best


@njit(cache=True)
def turn_value_basis(st, r, seat, n, out):
    """The heuristic's TURN values of ``st.opts[:n]`` split by feature weight (B. ACTION PHASE, the rows
    :func:`_turn_values` values): ``out[0, i]`` row i's value with every feature weight (F.VP..F.CHARACTER)
    at 0, which the valuation coefficients (K) still give, and ``out[f, i]`` what weight ``f`` = 1 adds to
    it. For the rows whose value is linear in the feature weights (all but a Council vote's call, a
    maximum over the votes) the seat's own value is ``out[0] + w[1:N_FEATURES] @ out[1:]``: what a
    fit of the simulated players' weights to a searching seat's choices needs (strategies.search, the
    labels). The seat's weights are restored; its policy memo, keyed by them (:func:`memo_refresh`),
    is refilled at its next use, so no game changes."""
    w = st.w[seat]
    saved = w[1:N_FEATURES].copy()
    for f in range(N_FEATURES):
        w[1:N_FEATURES] = 0.0
        if f > 0:
            w[f] = 1.0
        _turn_values(st, r, seat, n)
        for i in range(n):
            out[f, i] = st.vals[i]
    w[1:N_FEATURES] = saved
    for f in range(1, N_FEATURES):
        for i in range(n):
            out[f, i] -= out[0, i]


@njit(cache=True)
def choose(st, r, seat, kind, n):
    """Pick an option index for ``seat`` (strategy ``st.pl[seat, PF.STRATEGY]``). The rollout family
    decides here as the heuristic does: its simulations happen one level up (strategies.rollout.plan_choice)."""
    w = st.w[seat]
    fam = int(w[F.FAMILY])
    if fam == FAMILY_RANDOM:
        return rand_below(st, n)
    if fam == FAMILY_PYTHON:
        return python_choose(st, seat, kind, n)
    best = option_values(st, r, seat, kind, n)
    # one random draw among the best (one draw per decision, not per tie)
    ties = _count_tied(st.vals, n, best)
    return _nth_tied(st.vals, n, best, rand_below(st, ties) if ties > 1 else 0)


@njit(cache=True)
def python_choose(st, seat, kind, n):
    """Call back into Python (strategies.python_bridge): the seat's object picks from ``st.opts[:n]``. The
    arrays are handed over as they are; the Python side copies what it keeps and hides what the
    seat cannot see."""
    slot = int(st.w[seat, P.PY_SLOT])
    opts = st.opts[:n]
    g = st.g
    pl = st.pl
    vps = st.vps
    order = st.order
    cell_b = st.cell_b
    cell_owner = st.cell_owner
    card_loc = st.card_loc
    card_rot = st.card_rot
    major = st.major
    with objmode(i="int64"):
        i = python_bridge.call(slot, seat, kind, opts, g, pl, vps, order, cell_b, cell_owner, card_loc, card_rot, major)
    return i
