"""What a player may build where (MINOR BUILDING CHARACTERISTICS; THE CITY DISTRICTS; RP-02, RP-05, RP-06):
the per-district limits, the tiles (the supply, flipping, a Square's tile swapped) and the whole check.
Read by the Effect phase and by the players' planning."""

from __future__ import annotations

from numba import njit

from rio.engine.city import square_ok
from rio.engine.core import can_pay
from rio.engine.state import NO, PK, G
from rio.keys import BK, PLAZA, Building, Pool


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def district_has(geo, st, d, b):
    n = 0
    for k in range(geo.district_spaces.shape[1]):
        t = geo.district_spaces[d, k]
        if t < 0:
            break
        if st.sp_building[t] == b:
            n += 1
    return n


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def tile_source(r, st, seat, s, b):
    """Where the tile of building ``b`` on ``s`` comes from (RP-06): (0, _) none available; (1, _) the space's
    own tile flipped; (2, pool) the supply; (3, space) a Square's tile swapped with the Square on ``space``;
    (4, pool) the space's Square tile swapped with one of ``pool`` in the supply."""
    if b == Building.HUT:
        return (2, Pool.HUT_HOUSE) if st.pl[seat, PK.HUTS] > 0 else (0, 0)
    cur = st.sp_pool[s]
    if cur != NO and st.sp_building[s] != NO:  # an upgrade: flip if the tile's back is the building
        if r.building_pool[b, cur]:
            return (1, 0)
        for t in range(st.sp_building.shape[0]):  # a Square swaps tiles with a Square on the map
            if t != s and st.sp_building[t] == Building.SQUARE and r.building_pool[b, st.sp_pool[t]]:
                return (3, t)
        for p in range(r.pool_tiles.shape[0]):
            if p != cur and r.building_pool[b, p] and st.pool_left[p] > 0:
                return (4, p)
        return (0, 0)
    best, bp = 0, NO
    for p in range(r.pool_tiles.shape[0]):
        if r.building_pool[b, p] and st.pool_left[p] > best:
            best, bp = st.pool_left[p], p
    return (2, bp) if bp != NO else (0, 0)


@njit(cache=True)
def take_tile(st, seat, s, src, arg):
    if src == 2:
        if arg == Pool.HUT_HOUSE:
            st.pl[seat, PK.HUTS] -= 1
        else:
            st.pool_left[arg] -= 1
        st.sp_pool[s] = arg
    elif src == 3:
        mine = st.sp_pool[s]
        st.sp_pool[s] = st.sp_pool[arg]
        st.sp_pool[arg] = mine
    elif src == 4:
        st.pool_left[st.sp_pool[s]] += 1
        st.pool_left[arg] -= 1
        st.sp_pool[s] = arg


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def can_build(r, geo, st, seat, s, b):
    """MINOR BUILDING CHARACTERISTICS: ``seat`` may build ``b`` on ``s`` with his workers there now."""
    return can_build_counted(r, geo, st, seat, s, b, NO)


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def can_build_counted(r, geo, st, seat, s, b, in_district):
    """:func:`can_build` given how many ``b`` stand in the district of ``s`` (``in_district``; NO: counted
    here): a caller checking many spaces with the buildings unchanged counts them once."""
    if geo.district[s] == PLAZA or st.sp_built[s] == st.g[G.TURN] + 1:
        return False  # one building a space a turn
    if st.sp_workers[s, seat] < r.building[b, BK.WORKERS]:
        return False
    req = r.building[b, BK.REQUIRES]
    if req == NO:
        if st.sp_building[s] != NO:
            return False
    elif st.sp_building[s] != req or (r.building[req, BK.OWNED] and st.sp_owner[s] != seat):
        return False
    lim = r.building[b, BK.PER_DISTRICT]
    if lim > 0 and (in_district if in_district != NO else district_has(geo, st, geo.district[s], b)) >= lim:
        return False
    if b == Building.SQUARE and not square_ok(r, geo, st, s):
        return False
    if not can_pay(r, st, seat, r.building[b, BK.WOOD], r.building[b, BK.STONE], r.building[b, BK.PRECIOUS], 0):
        return False
    return tile_source(r, st, seat, s, b)[0] != 0
