"""Where a player puts the City's pieces: road pieces (the Roads grid's completer places major.roads.pieces,
the Roadmaker 1 a turn; RP-08), wall pieces (the Walls grid's completer places major.walls.pieces, the
Defender 1 a turn; RP-09) and the Palace or the Cathedral on the ring round the Plaza Mayor (RP-11).
The engine asks one piece at a time through :mod:`rio.engine.seam` and places it itself.

A random seat (Kind.RANDOM) takes each legal option with equal chance. The heuristic:

- road: of the districts not yet connected, the one where the seat has the most Huts and Houses (ties:
  the most buildings, then the shortest way, then the lower number); the cheapest way from its centre to
  the Plaza Mayor's network (a shortest-path search over the vertices: an existing piece costs 0, a new
  one 1); the way's first missing piece from the Plaza's side, so the network grows out of the Plaza. With
  every district connected, any legal piece (random).
- wall: of the perimeter districts with an open access point, the one where the seat has the most Huts
  and Houses (ties: the fewest open edges left, then the lower number); its first open edge.
- ring space: the district where the seat has the most Houses (ties: not discarding its own building,
  then its Huts, then the lower space).
"""

from __future__ import annotations

from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros  # LLVM's cttz: Numba's own intrinsic (the pinned releases have it)

from gamekit.rng import rand_below
from rio.engine.city import (
    SIDES,
    legal_road,
    legal_wall,
    open_edges,
    ring_spaces_for_major,
    road_built,
    road_open,
    segment,
    vertex_step,
)
from rio.engine.state import NO, G
from rio.keys import Building, Edge
from rio.players.kinds import Kind

BIG = 1 << 30  # a distance no way reaches


# ---------------------------------------------------------------------------------------------- roads
@njit(cache=True)
def _road_nth(geo, st, i):
    """The ``i``-th legal road piece in (kind, y, x) order, or the count of legal pieces when ``i`` < 0."""
    h, w = geo.dims[0], geo.dims[1]
    n = 0
    for kind in range(2):
        ys = h if kind == 0 else h - 1
        xs = w - 1 if kind == 0 else w
        for y in range(ys):
            for x in range(xs):
                if legal_road(geo, st, kind, y, x):
                    if n == i:
                        return kind, y, x
                    n += 1
    return -1, n, 0


@njit(cache=True)
def random_road(geo, st):
    """A uniformly random legal road piece: (kind, y, x), kind -1 when none is legal."""
    _, n, _ = _road_nth(geo, st, -1)
    if n == 0:
        return -1, -1, -1
    return _road_nth(geo, st, rand_below(st, n))


@njit(cache=True)
def _lowest(level, row):
    """The lowest vertex marked in ``level[row]`` (64 vertices a word), -1 when none."""
    for i in range(level.shape[1]):
        if level[row, i] != 0:
            return (i << 6) + trailing_zeros(level[row, i])
    return -1


@njit(cache=True)
def road_ways(geo, st, dist, back, level):
    """The cheapest ways from the Plaza Mayor to every vertex (existing pieces cost 0, a legal new one 1;
    Dijkstra from all the Plaza's vertices at once, over the ~200 vertices). Fills ``dist`` (BIG where no
    way) and ``back`` (the direction each vertex was reached by, -1 at the Plaza); ``level``: int64[2, words]
    of bit marks (rio.engine.scratch.Scratch.vlevel).

    Dijkstra's order, each time the vertex of least distance (ties: the lowest number). Costs are 0 or 1, so
    while the vertices at distance ``cur`` are taken every vertex not yet taken is at ``cur``, ``cur`` + 1 or
    unreached: two sets of marks, this distance's and the next's (row ``cur`` % 2 and the other), hold them,
    and the next vertex is the lowest mark of this distance's row."""
    h, w = geo.dims[0], geo.dims[1]
    nv = (h + 1) * (w + 1)
    for i in range(level.shape[1]):
        level[0, i] = 0
        level[1, i] = 0
    for v in range(nv):
        back[v] = -1
        if geo.plaza_vertex[v]:
            dist[v] = 0
            level[0, v >> 6] |= 1 << (v & 63)
        else:
            dist[v] = BIG
    cur = 0
    while True:
        row = cur & 1
        v = _lowest(level, row)
        if v < 0:  # none left at this distance: the next distance's, if any
            if _lowest(level, 1 - row) < 0:
                return
            cur += 1
            continue
        level[row, v >> 6] &= ~(1 << (v & 63))
        X, Y = v % (w + 1), v // (w + 1)
        for k in range(SIDES):
            kind, y, x = segment(h, w, X, Y, k)
            if kind < 0:
                continue
            if road_built(st, kind, y, x):
                c = 0
            elif road_open(geo, st, kind, y, x):
                c = 1
            else:
                continue
            u = vertex_step(w, v, k)
            if cur + c < dist[u]:
                if dist[u] < BIG:  # it waited at the next distance: now at this one
                    level[1 - row, u >> 6] &= ~(1 << (u & 63))
                dist[u] = cur + c
                back[u] = k
                level[(cur + c) & 1, u >> 6] |= 1 << (u & 63)


@njit(cache=True)
def _missing_nearest_plaza(geo, st, v, back):
    """Walking the way from vertex ``v`` (a district's centre) back to the Plaza: the last piece not yet
    built, the one nearest the Plaza's network. (-1, -1, -1) when the way is all built."""
    h, w = geo.dims[0], geo.dims[1]
    kind0, y0, x0 = -1, -1, -1
    while back[v] >= 0:
        k = back[v]
        u = vertex_step(w, v, (k + 2) % SIDES)  # the vertex the way came from
        kind, y, x = segment(h, w, u % (w + 1), u // (w + 1), k)
        if not road_built(st, kind, y, x):
            kind0, y0, x0 = kind, y, x
        v = u
    return kind0, y0, x0


@njit(cache=True)
def _seat_counts(geo, st, seat, own, houses, buildings):
    """Per district: the seat's Huts and Houses, its Houses, and all buildings."""
    for d in range(own.shape[0]):
        own[d] = 0
        houses[d] = 0
        buildings[d] = 0
    for s in range(st.sp_building.shape[0]):
        d = geo.district[s]
        b = st.sp_building[s]
        if d < 0 or b == NO:
            continue
        buildings[d] += 1
        if st.sp_owner[s] == seat:
            own[d] += 1
            if b == Building.HOUSE:
                houses[d] += 1


@njit(cache=True)
def choose_road(r, geo, st, sc, pol, seat):
    """Where ``seat`` puts its next road piece: (kind, y, x) (rio.engine.city's ROAD_V/ROAD_H), kind -1
    when no piece is legal (none left, RP-06). Works in ``sc`` (rio.engine.scratch.Scratch)."""
    if pol.kind[seat] == Kind.RANDOM:
        return random_road(geo, st)
    nd = geo.centre_vertex.shape[0]
    own, houses, bld = sc.dcount[0], sc.dcount[1], sc.dcount[2]
    _seat_counts(geo, st, seat, own, houses, bld)
    dist, back = sc.vqueue, sc.vback
    road_ways(geo, st, dist, back, sc.vlevel)
    best = -1
    for d in range(nd):
        cost = dist[geo.centre_vertex[d]]
        if cost == 0 or cost >= BIG:  # connected already (a way of built pieces), or no way
            continue
        if best < 0 or own[d] > own[best] or (own[d] == own[best] and (bld[d] > bld[best] or (
                bld[d] == bld[best] and cost < dist[geo.centre_vertex[best]]))):
            best = d
    if best >= 0:
        kind, y, x = _missing_nearest_plaza(geo, st, geo.centre_vertex[best], back)
        if kind >= 0 and legal_road(geo, st, kind, y, x):
            return kind, y, x
    return random_road(geo, st)


# ---------------------------------------------------------------------------------------------- walls
@njit(cache=True)
def _wall_nth(st, i):
    """The ``i``-th legal wall (space, side), or (-1, count) when ``i`` < 0."""
    n = 0
    for s in range(st.edge.shape[0]):
        for side in range(SIDES):
            if st.edge[s, side] == Edge.OPEN:
                if n == i:
                    return s, side
                n += 1
    return -1, n


@njit(cache=True)
def choose_wall(r, geo, st, sc, pol, seat):
    """Where ``seat`` puts its next wall piece: (space, side), space -1 when no piece is legal (the City
    closed, or no pieces left). Works in ``sc`` (rio.engine.scratch.Scratch)."""
    _, n = _wall_nth(st, -1)
    if n == 0 or st.g[G.STICKS] <= 0:
        return -1, -1
    if pol.kind[seat] != Kind.RANDOM:
        nd = geo.centre_vertex.shape[0]
        own, houses, bld = sc.dcount[0], sc.dcount[1], sc.dcount[2]
        _seat_counts(geo, st, seat, own, houses, bld)
        best, best_open = -1, 0
        for d in range(nd):
            if not geo.perimeter[d]:
                continue
            o = open_edges(geo, st, d)
            if o == 0:
                continue
            if best < 0 or own[d] > own[best] or (own[d] == own[best] and o < best_open):
                best, best_open = d, o
        if best >= 0:
            for i in range(geo.district_spaces.shape[1]):
                s = geo.district_spaces[best, i]
                if s < 0:
                    break
                for side in range(SIDES):
                    if legal_wall(geo, st, s, side):
                        return s, side
    return _wall_nth(st, rand_below(st, n))


# ---------------------------------------------------------------------------------------------- Palace, Cathedral
@njit(cache=True)
def choose_ring_space(r, geo, st, sc, pol, seat, m):
    """The ring space where ``seat``, the completer, puts Major building ``m`` (the Palace or the
    Cathedral; one of rio.engine.city.ring_spaces_for_major's, RP-11); -1 if none. Works in ``sc``."""
    n_sp = st.sp_building.shape[0]
    opts = sc.seen
    n = ring_spaces_for_major(geo, st, opts)
    if n == 0:
        return -1
    if pol.kind[seat] == Kind.RANDOM:
        i = rand_below(st, n)
        for s in range(n_sp):
            if opts[s]:
                if i == 0:
                    return s
                i -= 1
    own, houses, bld = sc.dcount[0], sc.dcount[1], sc.dcount[2]
    _seat_counts(geo, st, seat, own, houses, bld)
    best, b0, b1, b2 = -1, 0, 0, 0
    for s in range(n_sp):
        if not opts[s]:
            continue
        d = geo.district[s]
        k0 = houses[d]
        k1 = 0 if st.sp_owner[s] == seat else 1  # rather discard another's tile than its own
        k2 = own[d] - houses[d]
        # the key (k0, k1, k2) compared in that order, the first best kept
        if best < 0 or k0 > b0 or (k0 == b0 and (k1 > b1 or (k1 == b1 and k2 > b2))):
            best, b0, b1, b2 = s, k0, k1, k2
    return best
