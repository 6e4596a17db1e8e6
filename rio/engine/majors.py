"""2. ON THE BUILDING GRIDS OUTSIDE THE CITY: a Major building's grid completes when every space in play
holds a paid worker (at the start of the Effect phase, or at once after the payment that fills it; RP-10).
Its workers go home and score their spaces' printed VP; the completer (the last paid worker's placer, IT)
takes the Fort's or the Harbor's bonus and places the tile or the pieces (RP-08, RP-09, RP-11). Each
completion is logged for the records (``State.major_log``): its completer, the first one's turn, and
the grid spaces each seat's workers held."""

from __future__ import annotations

from numba import njit

from rio.engine import seam
from rio.engine.city import place_ring_major, place_road, place_wall, road_connected
from rio.engine.core import add_vp
from rio.engine.state import MR, NO, PK, VPS, G
from rio.keys import MK, Placement


@njit(cache=True)
def log_completion(st, m, completer):
    """Completion of ``m`` by ``completer`` into ``State.major_log`` (before its grid is emptied): the
    completer's count, the first completer and turn, and the spaces each seat built, by the seat that
    placed the worker (a shadow disc is its placer's, RP-24)."""
    for i in range(st.grid.shape[1]):
        p = st.grid_placer[m, i]
        if st.grid[m, i] != NO and p != NO:
            st.major_log[m, MR.SPACES + p] += 1
    if completer == NO:
        return
    st.major_log[m, MR.COMPLETED + completer] += 1
    if st.major_log[m, MR.FIRST_COMPLETER] == 0:  # stored + 1: 0 is never (rio.engine.state.MR)
        st.major_log[m, MR.FIRST_COMPLETER] = completer + 1
        st.major_log[m, MR.FIRST_TURN] = st.g[G.TURN] + 1


@njit(cache=True)
def lay_road(r, geo, st, sc, pol, seat):
    """One road piece where ``seat`` chooses (RP-08); False when none can be laid."""
    kind, y, x = seam.choose_road(r, geo, st, sc, pol, seat)
    if kind < 0:
        return False
    place_road(st, kind, y, x)
    return True


@njit(cache=True)
def lay_wall(r, geo, st, sc, pol, seat):
    """One wall piece on an open outer edge where ``seat`` chooses (RP-09); False when none can be laid."""
    s, side = seam.choose_wall(r, geo, st, sc, pol, seat)
    if s < 0:
        return False
    place_wall(st, s, side)
    return True


@njit(cache=True)
def grid_filled(r, st, m):
    on = r.major_space_on_short if st.g[G.SHORT] else r.major_space_on
    any_space = False
    for i in range(st.grid.shape[1]):
        if on[st.g[G.COUNT], m, i]:
            any_space = True
            if st.grid[m, i] == NO or st.grid_paid[m, i] == 0:
                return False
    return any_space


@njit(cache=True)
def complete_grid(r, geo, st, sc, pol, m):
    """The grid of ``m`` is complete: VP, workers home, the completer's bonus and tile or pieces."""
    last, completer = 0, NO
    for i in range(st.grid.shape[1]):  # the completer first: the log reads the grid before it is emptied
        if st.grid[m, i] != NO and st.grid_paid[m, i] > last:
            last, completer = st.grid_paid[m, i], st.grid_placer[m, i]
    log_completion(st, m, completer)
    for i in range(st.grid.shape[1]):
        c = st.grid[m, i]
        if c == NO:
            continue
        add_vp(st, c, VPS.GRID_SPACES, r.major_space_vp[m, i])
        st.pl[c, PK.SUPPLY] += 1
        st.grid[m, i] = NO
        st.grid_placer[m, i] = NO
        st.grid_paid[m, i] = 0
    st.major_done[m] += 1
    add_vp(st, completer, VPS.COMPLETION, r.major[m, MK.COMPLETION_VP])
    how = r.major[m, MK.PLACEMENT]
    if how == Placement.RING:
        s = seam.choose_ring_space(r, geo, st, sc, pol, completer, m)
        if s >= 0:
            place_ring_major(r, geo, st, m, s)
    elif how == Placement.WALL_EDGES:
        for _ in range(r.major[m, MK.PIECES]):
            if not lay_wall(r, geo, st, sc, pol, completer):
                break
    elif how == Placement.ROAD_SEGMENTS:
        for _ in range(r.major[m, MK.PIECES]):
            if not lay_road(r, geo, st, sc, pol, completer):
                break
        road_connected(geo, st, sc)


@njit(cache=True)
def check_grid(r, geo, st, sc, pol, m):
    if grid_filled(r, st, m):
        complete_grid(r, geo, st, sc, pol, m)


@njit(cache=True)
def complete_ready_grids(r, geo, st, sc, pol):
    """At the start of the Effect phase: every grid filled and paid in the Placement phase completes, in the
    grids' order."""
    for m in range(st.major_done.shape[0]):
        check_grid(r, geo, st, sc, pol, m)
