"""The city map's kernels: roads and the road connection of a district (ROADS; RP-08), walls and closed
districts (THE WALLS; RP-09), the Square's condition (THE CITY DISTRICTS; RP-05), the Palace and the
Cathedral on the ring round the Plaza Mayor (MAJOR BUILDING CHARACTERISTICS; RP-11), a building's
activations per turn (MINOR BUILDING ACTIVATION), the districts' values at the end (VICTORY POINTS AT
THE END OF THE GAME; RP-23) and the city's records at the end (:func:`record_city`).

Road pieces lie on the border between two city spaces; vertices as in :mod:`rio.engine.geometry`
(``v = Y * (width + 1) + X``, X from the west edge, Y from the north edge):

- ``st.road_v[y, x]`` (kind :data:`ROAD_V`): the border between spaces (x, y) and (x + 1, y), the vertical
  segment from vertex (x + 1, y) to (x + 1, y + 1);
- ``st.road_h[y, x]`` (kind :data:`ROAD_H`): the border between spaces (x, y) and (x, y + 1), the horizontal
  segment from vertex (x, y + 1) to (x + 1, y + 1).

Neither array holds an outer edge (roads never run there, RP-08); a border between two Plaza Mayor spaces
is in the arrays but never legal. Wall pieces turn an outer edge ``st.edge[s, side] == Edge.OPEN`` into
``Edge.WALL``. Both use the shared pieces ``st.g[G.STICKS]`` (RP-06).
"""

from __future__ import annotations

from numba import njit

from rio.engine.records import DR
from rio.engine.state import MR, NO, PK, SPACE_CATHEDRAL, SPACE_PALACE, G
from rio.keys import BK, MK, PLAZA, Building, Edge, K, Major

ROAD_V = 0  # a piece in st.road_v (module docstring)
ROAD_H = 1  # a piece in st.road_h
MINORS = len(Building)  # sp_building below this: a minor building's tile
SIDES = 4  # rio.keys.Side


# ---------------------------------------------------------------------------------------------- roads (RP-08)
@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def segment(h, w, X, Y, k):
    """The road piece from vertex (X, Y) in direction ``k`` (0 north, 1 east, 2 south, 3 west, as Side):
    (kind, y, x), kind -1 where the segment is an outer edge or off the map."""
    if k == 0:  # to (X, Y - 1): the border between spaces (X - 1, Y - 1) and (X, Y - 1)
        if 1 <= X <= w - 1 and Y >= 1:
            return ROAD_V, Y - 1, X - 1
    elif k == 2:  # to (X, Y + 1)
        if 1 <= X <= w - 1 and Y <= h - 1:
            return ROAD_V, Y, X - 1
    elif k == 3:  # to (X - 1, Y): the border between spaces (X - 1, Y - 1) and (X - 1, Y)
        if 1 <= Y <= h - 1 and X >= 1:
            return ROAD_H, Y - 1, X - 1
    else:  # to (X + 1, Y)
        if 1 <= Y <= h - 1 and X <= w - 1:
            return ROAD_H, Y - 1, X
    return -1, 0, 0


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def vertex_step(w, v, k):
    """The vertex one step from ``v`` in direction ``k`` (see :func:`segment`; valid where it is)."""
    if k == 0:
        return v - (w + 1)
    if k == 2:
        return v + (w + 1)
    if k == 3:
        return v - 1
    return v + 1


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def road_built(st, kind, y, x):
    if kind == ROAD_V:
        return st.road_v[y, x] != 0
    return st.road_h[y, x] != 0


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def road_spaces(geo, kind, y, x):
    """The two spaces either side of a road piece."""
    a = y * geo.dims[1] + x
    return a, (a + 1 if kind == ROAD_V else a + geo.dims[1])


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def road_open(geo, st, kind, y, x):
    """A border where a piece may still go: on the map, not built, not inside the Plaza Mayor (RP-08:
    Plaza borders included). Pieces left are not checked (:func:`legal_road` does)."""
    h, w = geo.dims[0], geo.dims[1]
    if kind == ROAD_V:
        if not (0 <= y < h and 0 <= x < w - 1):
            return False
    elif kind == ROAD_H:
        if not (0 <= y < h - 1 and 0 <= x < w):
            return False
    else:
        return False
    if road_built(st, kind, y, x):
        return False
    a, b = road_spaces(geo, kind, y, x)
    return not (geo.district[a] == PLAZA and geo.district[b] == PLAZA)


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def legal_road(geo, st, kind, y, x):
    """Whether a road piece may go on this border now (RP-08; pieces left, RP-06)."""
    return st.g[G.STICKS] > 0 and road_open(geo, st, kind, y, x)


@njit(cache=True)
def place_road(st, kind, y, x):
    """Place one road piece (checked by :func:`legal_road`)."""
    if kind == ROAD_V:
        st.road_v[y, x] = 1
    else:
        st.road_h[y, x] = 1
    st.g[G.STICKS] -= 1


@njit(cache=True)
def road_connected(geo, st, sc):
    """``sc.conn[d]`` = 1 when a chain of road pieces links district d's centre to a vertex of the Plaza
    Mayor (ROADS: "connected when the centre of the district is connected to the Plaza Mayor"; RP-08): a
    breadth-first search over the vertices from the whole Plaza. Returns the districts connected."""
    h, w = geo.dims[0], geo.dims[1]
    nv = (h + 1) * (w + 1)
    seen, queue, out = sc.vseen, sc.vqueue, sc.conn
    tail = 0
    for v in range(nv):
        seen[v] = 0
    for v in range(nv):
        if geo.plaza_vertex[v]:
            seen[v] = 1
            queue[tail] = v
            tail += 1
    head = 0
    while head < tail:
        v = queue[head]
        head += 1
        X, Y = v % (w + 1), v // (w + 1)
        for k in range(SIDES):
            kind, y, x = segment(h, w, X, Y, k)
            if kind >= 0 and road_built(st, kind, y, x):
                u = vertex_step(w, v, k)
                if not seen[u]:
                    seen[u] = 1
                    queue[tail] = u
                    tail += 1
    n = 0
    for d in range(out.shape[0]):
        out[d] = seen[geo.centre_vertex[d]]
        n += out[d]
    return n


# ---------------------------------------------------------------------------------------------- walls (RP-09)
@njit(cache=True)
def legal_wall(geo, st, s, side):
    """Whether a wall piece may close this outer edge now: an open access point (RP-09: the W/N/E edges;
    the South is printed walls, MAJOR BUILDING CHARACTERISTICS) and pieces left (RP-06)."""
    if st.g[G.STICKS] <= 0 or not (0 <= s < st.edge.shape[0]) or not (0 <= side < SIDES):
        return False
    return st.edge[s, side] == Edge.OPEN


@njit(cache=True)
def place_wall(st, s, side):
    """Place one wall piece (checked by :func:`legal_wall`)."""
    st.edge[s, side] = Edge.WALL
    st.g[G.STICKS] -= 1


@njit(cache=True)
def open_edges(geo, st, d):
    """The open outer edges (access points) of district ``d``'s spaces."""
    n = 0
    for i in range(geo.district_spaces.shape[1]):
        s = geo.district_spaces[d, i]
        if s < 0:
            break
        for side in range(SIDES):
            if st.edge[s, side] == Edge.OPEN:
                n += 1
    return n


@njit(cache=True)
def district_closed(geo, st, d):
    """A perimeter district whose outer edges are all walled (RP-09). The two central districts are never
    "closed" here: their only outer side is the printed South wall, and they never score for the
    Defender (FAQ: only the six perimeter districts)."""
    return geo.perimeter[d] != 0 and open_edges(geo, st, d) == 0


@njit(cache=True)
def city_closed(geo, st):
    """No open access point left: no more wars (MAJOR BUILDING CHARACTERISTICS; RP-09)."""
    for s in range(st.edge.shape[0]):
        for side in range(SIDES):
            if st.edge[s, side] == Edge.OPEN:
                return False
    return True


# ---------------------------------------------------------------------------------------------- the Square (RP-05)
@njit(cache=True)
def square_neighbours(r, geo, st, s):
    """What surrounds space ``s`` for the Square's condition (RP-05): the 8 neighbours holding a minor
    building other than a Square (Monument and Garden count; Palace and Cathedral do not: not minor),
    plus each walled outer edge of ``s`` itself (printed or built, South included)."""
    n = 0
    for i in range(8):
        t = geo.nb8[s, i]
        if t < 0:
            continue
        b = st.sp_building[t]
        if 0 <= b < MINORS:
            if b != Building.SQUARE or r.k[K.SQUARE_SQUARES_COUNT]:
                n += 1
        elif (b == SPACE_PALACE or b == SPACE_CATHEDRAL) and r.k[K.SQUARE_MAJORS_COUNT]:
            n += 1
    if r.k[K.SQUARE_WALLS_COUNT]:
        for side in range(SIDES):
            if st.edge[s, side] == Edge.WALL:
                n += 1
    return n


@njit(cache=True)
def square_ok(r, geo, st, s):
    """The Square "can be built only in a space surrounded by 5 minor buildings (except other squares) or
    walls" (THE CITY DISTRICTS; RP-05: at least 5, when built)."""
    return square_neighbours(r, geo, st, s) >= r.k[K.SQUARE_MIN_NEIGHBOURS]


# ---------------------------------------------------------------------------------------------- Palace, Cathedral (RP-11)
@njit(cache=True)
def return_tile(r, st, s):
    """The minor building on space ``s`` leaves the map: its tile back to its pool, a Hut or House to its
    owner's tiles (RP-06). Workers stay (callers decide)."""
    b = st.sp_building[s]
    if 0 <= b < MINORS:
        if r.building[b, BK.OWNED] and st.sp_owner[s] != NO:
            st.pl[st.sp_owner[s], PK.HUTS] += 1
        elif st.sp_pool[s] != NO:
            st.pool_left[st.sp_pool[s]] += 1
    st.sp_building[s] = NO
    st.sp_owner[s] = NO
    st.sp_pool[s] = NO
    st.sp_used[s] = 0


@njit(cache=True)
def ring_spaces_for_major(geo, st, out):
    """Where the Palace or the Cathedral may go (RP-11): ``out[s]`` = 1 on the empty ring spaces round
    the Plaza Mayor; if none is empty, on the ring spaces holding a minor building (which is then
    discarded, MAJOR BUILDING CHARACTERISTICS). Returns the number of spaces."""
    n = 0
    for s in range(out.shape[0]):
        out[s] = 0
        if geo.ring[s] and st.sp_building[s] == NO:
            out[s] = 1
            n += 1
    if n == 0:
        for s in range(out.shape[0]):
            if geo.ring[s] and 0 <= st.sp_building[s] < MINORS:
                out[s] = 1
                n += 1
    return n


@njit(cache=True)
def place_ring_major(r, geo, st, m, s):
    """The completer puts the Palace or the Cathedral (``m``) on ring space ``s`` (one of
    :func:`ring_spaces_for_major`'s): a minor building there is discarded (RP-11: its tile back to its
    pool), workers there go back to their owners' supply."""
    if st.sp_building[s] != NO:
        return_tile(r, st, s)
    for c in range(st.sp_workers.shape[1]):
        st.pl[c, PK.SUPPLY] += st.sp_workers[s, c]
        st.sp_workers[s, c] = 0
    st.sp_building[s] = SPACE_PALACE if m == Major.PALACE else SPACE_CATHEDRAL
    st.sp_owner[s] = NO
    st.sp_pool[s] = NO
    st.sp_used[s] = 0
    st.sp_built[s] = st.g[G.TURN] + 1
    st.major_at[m] = s


@njit(cache=True)
def major_standing(st, m):
    """The Palace or the Cathedral stands in the City (placed, and not destroyed in a war since)."""
    s = st.major_at[m]
    if s == NO:
        return False
    return st.sp_building[s] == (SPACE_PALACE if m == Major.PALACE else SPACE_CATHEDRAL)


# ---------------------------------------------------------------------------------------------- districts' values (RP-23)
@njit(cache=True)
def district_values(r, geo, st, sc, out, roads):
    """``out[d]``: the bonus/penalty each House in district d adds to its 2 VP (VICTORY POINTS AT THE END
    OF THE GAME; RP-23): production_penalty per production building past the first, +district_value of
    each building (Garden, Monument, Church, Barracks +1), +3 the Palace, +2 the Cathedral when it
    stands in the district, and with ``roads`` +1 when the district is road-connected (``connected`` from
    :func:`road_connected`, ``sc.conn``; the players' view during the game leaves the roads out)."""
    nd = out.shape[0]
    prod, connected = sc.dwork, sc.conn
    for d in range(nd):
        out[d] = 0
        prod[d] = 0
    for s in range(st.sp_building.shape[0]):
        d = geo.district[s]
        b = st.sp_building[s]
        if d < 0 or b == NO:
            continue
        if b < MINORS:
            prod[d] += r.building[b, BK.PRODUCTION]
            out[d] += r.building[b, BK.DISTRICT_VALUE]
        elif b == SPACE_PALACE:
            out[d] += r.major[Major.PALACE, MK.DISTRICT_VALUE]
        elif b == SPACE_CATHEDRAL:
            out[d] += r.major[Major.CATHEDRAL, MK.DISTRICT_VALUE]
    for d in range(nd):
        out[d] += r.k[K.SCORING_PRODUCTION_PENALTY] * max(0, prod[d] - r.k[K.SCORING_PRODUCTION_FREE])
        if roads and connected[d]:
            out[d] += r.major[Major.ROADS, MK.DISTRICT_VALUE]


@njit(cache=True)
def house_vp(r, value):
    """A House's end VP: 2 plus its district's value, at least 0 (VICTORY POINTS AT THE END OF THE GAME)."""
    return max(r.k[K.SCORING_HOUSE_MIN_VP], r.k[K.SCORING_HOUSE_VP] + value)


# ---------------------------------------------------------------------------------------------- the records at the end
@njit(cache=True)
def record_city(r, geo, st, sc, rec, gi):
    """The city at the end of game ``gi``, per district (:class:`rio.engine.records.DR`): its value as the
    end scoring counts it (the same kernels on the final state: :func:`road_connected`, then
    :func:`district_values`; VICTORY POINTS AT THE END OF THE GAME), road-connected (ROADS), closed by walls
    (THE WALLS: the Defender's perimeter districts), its open access points, the buildings standing by kind
    and those destroyed in wars; per Major building the log of its completions (``State.major_log``, the
    first completer a seat and the first turn from 1, NO never)."""
    road_connected(geo, st, sc)
    district_values(r, geo, st, sc, sc.dval, True)
    for d in range(rec.district.shape[1]):
        row = rec.district[gi, d]
        row[DR.VALUE] = sc.dval[d]
        row[DR.ROAD_CONNECTED] = sc.conn[d]
        row[DR.CLOSED] = 1 if district_closed(geo, st, d) else 0
        row[DR.ACCESS_POINTS] = open_edges(geo, st, d)
    for s in range(st.sp_building.shape[0]):
        d = geo.district[s]
        if d < 0:  # the Plaza Mayor: no building stands there
            continue
        rec.district[gi, d, DR.DESTROYED] += st.sp_destroyed[s]
        if st.sp_building[s] != NO:
            rec.district[gi, d, DR.BUILDINGS + st.sp_building[s]] += 1
    for m in range(st.major_log.shape[0]):
        for j in range(st.major_log.shape[1]):
            rec.major[gi, m, j] = st.major_log[m, j]
        rec.major[gi, m, MR.FIRST_COMPLETER] = st.major_log[m, MR.FIRST_COMPLETER] - 1  # kept + 1 in play
        if st.major_log[m, MR.FIRST_TURN] == 0:
            rec.major[gi, m, MR.FIRST_TURN] = NO
