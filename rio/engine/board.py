"""What a space of the city allows a player (1) INSIDE THE CITY MAP; MINOR BUILDING ACTIVATION; RP-03, RP-04):
where he may place, how many of his workers a space may hold, and the limits applied again once a building
stands (the excess returns at once, FAQ). Shared by the Placement and the Effect phases."""

from __future__ import annotations

from numba import njit

from rio.engine.state import NO, PK, SPACE_CATHEDRAL, SPACE_PALACE, G
from rio.keys import BK, PLAZA, Activation, Building, K


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def allowed_activations(r, geo, sc, s):
    """Activations of the building on ``s`` a turn: once, twice when its district is connected by road to the
    Plaza Mayor (MINOR BUILDING ACTIVATION; RP-08)."""
    d = geo.district[s]
    if d != PLAZA and sc.conn[d]:
        return r.k[K.ACTIVATION_PER_TURN_ROAD_CONNECTED]
    return r.k[K.ACTIVATION_PER_TURN]


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def has_house_near(geo, st, seat, s, before_turn):
    """An own House among the 8 neighbours of ``s``; with ``before_turn`` only a House standing before this
    turn counts (FAQ: not one built in the same Effect phase)."""
    for k in range(geo.nb8.shape[1]):
        t = geo.nb8[s, k]
        if t < 0:
            break
        if st.sp_building[t] == Building.HOUSE and st.sp_owner[t] == seat:
            if not before_turn or st.sp_built[t] <= st.g[G.TURN]:
                return True
    return False


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def may_reach(geo, st, seat, s):
    """RP-04: the starting line, own Hut/House spaces and their 8 neighbours; only the starting line in the
    first turn (FAQ). Never the Plaza Mayor."""
    if geo.district[s] == PLAZA:
        return False
    if geo.start[s]:
        return True
    if st.g[G.FIRST_TURN]:
        return False
    b = st.sp_building[s]
    if (b == Building.HUT or b == Building.HOUSE) and st.sp_owner[s] == seat:
        return True
    for k in range(geo.nb8.shape[1]):
        t = geo.nb8[s, k]
        if t < 0:
            break
        bt = st.sp_building[t]
        if (bt == Building.HUT or bt == Building.HOUSE) and st.sp_owner[t] == seat:
            return True
    return False


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def upgrade_workers(r, b):
    """The most workers an upgrade of building ``b`` costs (House on a Hut 1, Corporation 2, Monument or
    Garden 2; RP-03's exception), 0 if nothing is built on it."""
    best = 0
    for u in range(r.building.shape[0]):
        if r.building[u, BK.REQUIRES] == b:
            best = max(best, r.building[u, BK.WORKERS])
    return best


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def others_on(st, seat, s):
    """Workers of other colours on ``s``."""
    n = 0
    for c in range(st.g[G.COLOURS]):
        if c != seat:
            n += st.sp_workers[s, c]
    return n


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def space_cap(r, geo, st, sc, seat, s, before_turn):
    """How many of ``seat``'s workers space ``s`` may hold now (0: none may stand there).

    Empty: up to placement.max_workers_per_space, one colour. Own Hut: the House's workers. A minor
    building other than Hut/House: an own House adjacent (before this turn when ``before_turn``), then as
    many as its activations a turn (a second colour only for a road-connected activation, 1) INSIDE THE
    CITY MAP) or as its upgrade costs (RP-03). Palace and Cathedral spaces: none."""
    most = r.k[K.PLACEMENT_MAX_WORKERS_PER_SPACE]
    b = st.sp_building[s]
    other = others_on(st, seat, s)
    if geo.district[s] == PLAZA or b == SPACE_PALACE or b == SPACE_CATHEDRAL:
        return 0
    if b == NO:
        return 0 if other > 0 else most
    if b == Building.HUT or b == Building.HOUSE:
        if st.sp_owner[s] != seat or other > 0:
            return 0
        return min(most, upgrade_workers(r, b))
    if r.k[K.PLACEMENT_HOUSE_ADJACENT_TO_ACTIVATE] and not has_house_near(geo, st, seat, s, before_turn):
        return 0
    act = allowed_activations(r, geo, sc, s) if r.building[b, BK.ACTIVATION] == Activation.WORKER else 0
    if other > 0:
        return max(0, act - other)  # road-connected activation only
    up = upgrade_workers(r, b) if r.k[K.PLACEMENT_UPGRADE_WORKERS_EXCEPTION] else 0
    return min(most, max(act, up))


@njit(cache=True)
def enforce_limits(r, geo, st, sc, s):
    """After a building appears on ``s``: each colour's workers beyond what the space now allows it go back
    to its supply at once (MINOR BUILDING ACTIVATION; FAQ: no House adjacent, more than the activations)."""
    for c in range(st.g[G.COLOURS]):
        n = st.sp_workers[s, c]
        if n == 0:
            continue
        cap = space_cap(r, geo, st, sc, c, s, True)
        if n > cap:
            st.sp_workers[s, c] = cap
            st.pl[c, PK.SUPPLY] += n - cap


@njit(cache=True)
def city_workers(st, colour):
    """``colour``'s workers on the city map."""
    n = 0
    for s in range(st.sp_workers.shape[0]):
        n += st.sp_workers[s, colour]
    return n
