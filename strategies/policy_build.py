"""The policy's BUILD rows (strategies.policy): the City VP a building adds at the next scoring, read
from the seat's district table, and the row's value; both kept in the seat's memo (``st.dist``,
``st.bval``) while what they were computed from stays the same (:func:`memo_refresh`).
"""

import numpy as np
from numba import njit

from sim.city import district_tally, palace_value
from sim.rules import RK
from sim.state import PF, B, G
from strategies.policy_character import _character_progress
from strategies.policy_terms import _res_value
from strategies.weights import F, K


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
    :func:`strategies.policy_turn._turn_values` reads it). ``per_space``: the seat's Character progress depends on
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
