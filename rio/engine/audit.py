"""The game's invariants, checked on a state between phases (the random-play and heuristic-play tests, and
``python -m rio.audit`` over many games): every colour's workers conserved (9 usable: in the supply, on
the map, on the grids, on the other areas, on the order track), never more than 3 a space or two colours
on a space outside road-connected activation, no negative resources or coins, tile supplies respected
(every tile on the map or in its supply), wall and road pieces accounted for, every VP traced to a source
and the sources summing to the total, every Major building's completions logged for the records (each with
its completer, a first completer exactly when it was completed).

:func:`audit` returns 0 when all hold, else the number of the first broken invariant (:class:`Broken`); the game
loop (rio.players.search.play_games_search) checks it between phases when asked (rio.play.play(audit=True))."""

from __future__ import annotations

from enum import IntEnum

from numba import njit

from rio.engine.board import allowed_activations
from rio.engine.state import MAX_SEATS, MR, NO, PK, G
from rio.keys import BK, Activation, Building, Edge, K, Pool


class Broken(IntEnum):
    NONE = 0
    WORKERS = 1        # a colour's workers not conserved
    CROWDED = 2        # more than placement.max_workers_per_space on a space
    COLOURS = 3        # two colours on a space outside road-connected activation
    NEGATIVE = 4       # a negative resource, coin, supply or tile count
    TILES = 5          # a tile neither on the map nor in its supply (or one too many)
    PIECES = 6         # wall/road pieces not accounted for
    VP_SOURCES = 7     # the VP sources do not sum to the VP
    MAJORS = 8         # a Major building's completions and its log (State.major_log) disagree


# the codes as plain integers: the kernels return these (Numba does not turn an IntEnum member into an int)
NONE, WORKERS, CROWDED, COLOURS, NEGATIVE, TILES, PIECES, VP_SOURCES, MAJORS = (int(b) for b in Broken)


@njit(cache=True)
def _workers_of(r, st, c):
    n = st.pl[c, PK.SUPPLY] + st.pl[c, PK.FIELD] + st.pl[c, PK.ARTISAN] + st.pl[c, PK.DOCK] + st.pl[c, PK.ORDER_ADDED]
    for s in range(st.sp_workers.shape[0]):
        n += st.sp_workers[s, c]
    for m in range(st.grid.shape[0]):
        for i in range(st.grid.shape[1]):
            n += st.grid[m, i] == c
    for t in range(st.mine.shape[0]):
        for i in range(st.mine.shape[1]):
            if st.mine[t, i] == c:
                n += r.mine_space_workers[i]
    for o in range(st.office_worker.shape[0]):
        n += st.office_worker[o] == c
    return n


@njit(cache=True)
def audit(r, geo, st, sc):
    colours = st.g[G.COLOURS]
    for c in range(colours):
        if _workers_of(r, st, c) != r.k[K.GAME_USABLE_WORKERS]:
            return WORKERS
        for k in (PK.WOOD, PK.STONE, PK.PRECIOUS, PK.SILVER, PK.SUPPLY, PK.HUTS):
            if st.pl[c, k] < 0:
                return NEGATIVE
        total = 0
        for v in range(st.vp_src.shape[1]):
            total += st.vp_src[c, v]
        if total + r.k[K.GAME_START_VP] * (c < st.g[G.PLAYERS]) != st.pl[c, PK.VP]:
            return VP_SOURCES
    most = r.k[K.PLACEMENT_MAX_WORKERS_PER_SPACE]
    for s in range(st.sp_workers.shape[0]):
        n, kinds = 0, 0
        for c in range(colours):
            n += st.sp_workers[s, c]
            kinds += st.sp_workers[s, c] > 0
        if n > most:
            return CROWDED
        if kinds > 1:
            b = st.sp_building[s]
            ok = (b != NO and b < r.building.shape[0] and r.building[b, BK.ACTIVATION] == Activation.WORKER
                  and n <= allowed_activations(r, geo, sc, s) and allowed_activations(r, geo, sc, s) > r.k[K.ACTIVATION_PER_TURN])
            if not ok:
                return COLOURS
    # tiles: what stands on the map from each pool, plus the supply, is the box's count
    for p in range(r.pool_tiles.shape[0]):
        if p == Pool.HUT_HOUSE:
            continue
        on_map = 0
        for s in range(st.sp_building.shape[0]):
            on_map += st.sp_building[s] != NO and st.sp_pool[s] == p
        if st.pool_left[p] < 0 or on_map + st.pool_left[p] != r.pool_tiles[p]:
            return TILES
    for c in range(st.g[G.PLAYERS]):
        on_map = 0
        for s in range(st.sp_building.shape[0]):
            b = st.sp_building[s]
            on_map += (b == Building.HUT or b == Building.HOUSE) and st.sp_owner[s] == c
        if on_map + st.pl[c, PK.HUTS] != r.pool_tiles[Pool.HUT_HOUSE]:
            return TILES
    # pieces: the walls built (edges walled now but not printed) and the roads laid
    laid = 0
    h, w = geo.dims[0], geo.dims[1]
    for y in range(h):
        for x in range(w):
            for sd in range(st.edge.shape[1]):
                laid += st.edge[y * w + x, sd] == Edge.WALL and r.map_edge[y, x, sd] != Edge.WALL
    for y in range(st.road_v.shape[0]):
        for x in range(st.road_v.shape[1]):
            laid += st.road_v[y, x]
    for y in range(st.road_h.shape[0]):
        for x in range(st.road_h.shape[1]):
            laid += st.road_h[y, x]
    if st.g[G.STICKS] < 0 or laid + st.g[G.STICKS] != r.k[K.TILES_WALL_ROAD_PIECES]:
        return PIECES
    # the Major buildings' log (rio.engine.majors.log_completion): one completer a completion
    for m in range(st.major_done.shape[0]):
        by = 0
        for c in range(MAX_SEATS):
            by += st.major_log[m, MR.COMPLETED + c]
        if by != st.major_done[m] or (st.major_done[m] > 0) != (st.major_log[m, MR.FIRST_COMPLETER] > 0):
            return MAJORS
    return NONE
