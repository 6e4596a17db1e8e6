"""11. MAJOR BUILDING: grids, first-worker VP, completion and placement (Cabildo, Cathedral
with displacement, Fort, Harbor, Walls, Roads), Recover Workers (free action and decade end).
"""

from numba import njit

from sim.banners import FACE_DOWN, banner_step
from sim.cardpower import offer
from sim.city import district_closed, district_occupied
from sim.codes import Card, Dec, Ev
from sim.core import CCW, add_vp, decide, gain_vp, log, set_option
from sim.economy import give_coins_from_supply, take_coins
from sim.rules import AP, RK
from sim.state import PF, VS, B, Banner, G, M, Sup

EMPTY = -1
CC_GONE = -2  # a City Council worker's space after completion (it went back to the supply)


@njit(cache=True)
def n_spaces(st, r, m):
    return r.major_spaces[m, st.g[G.NPLAYERS] - 2]


@njit(cache=True)
def grid_free(st, r, m):
    n = 0
    for i in range(n_spaces(st, r, m)):
        if st.major[m, i] == EMPTY:
            n += 1
    return n


@njit(cache=True)
def grid_empty(st, r, m):
    return grid_free(st, r, m) == n_spaces(st, r, m)


@njit(cache=True)
def built_flag(m):
    if m == M.CATHEDRAL:
        return G.CATHEDRAL_BUILT
    if m == M.FORT:
        return G.FORT_BUILT
    if m == M.CABILDO:
        return G.CABILDO_BUILT
    return G.HARBOR_BUILT


@njit(cache=True)
def free_segments(st):
    n = 0
    for s in range(st.walls.shape[0]):
        if st.walls[s] == 0:
            n += 1
    return n


@njit(cache=True)
def major_open(st, r, m):
    """Can workers go on this grid? Not while completed (until Recover Workers), never again for
    the four single buildings, and for Roads/Walls only while markers/miniatures (and a place
    for them) remain."""
    if st.major_state[m, 0] == 1:
        return False
    if r.major_rep[m] == 0:
        return st.major_state[m, 1] == 0
    if m == M.ROADS:
        if st.supply[Sup.ROAD_MARKERS] <= 0:
            return False
        for d in range(st.roads.shape[0]):
            if st.roads[d] == 0:
                return True
        return False
    return st.supply[Sup.WALLS] > 0 and free_segments(st) > 0


@njit(cache=True)
def own_on_grid(st, m, seat):
    n = 0
    for i in range(st.major.shape[1]):
        if st.major[m, i] == seat:
            n += 1
    return n


@njit(cache=True)
def _best_free_space(st, r, m, lowest):
    best = -1
    for i in range(n_spaces(st, r, m)):
        if st.major[m, i] != EMPTY:
            continue
        if best < 0:
            best = i
        elif lowest and r.major_space_vp[m, i] < r.major_space_vp[m, best]:
            best = i
        elif not lowest and r.major_space_vp[m, i] > r.major_space_vp[m, best]:
            best = i
    return best


@njit(cache=True)
def place_on_grid(st, r, seat, m, n):
    """11. MAJOR BUILDING (the main action): put n workers on a Major Building grid at once. Own
    workers take the highest-VP free spaces (City Council workers score nothing, so they go after).
    The first player to put a worker on an empty grid scores its first-worker VP (not for a City
    Council worker). The player who fills the last space completes the building. Putting own workers
    on a grid is joining its construction: it flips a face-down ocher banner (BANNERS Ocher,
    scoring.ocher_flip_on_join)."""
    was_empty = grid_empty(st, r, m)
    cc = min(st.pl[seat, PF.CC_WORKERS], max(0, n - st.pl[seat, PF.WORKERS]))
    own = n - cc
    for _ in range(own):
        i = _best_free_space(st, r, m, False)
        st.major[m, i] = seat
    for _ in range(cc):
        i = _best_free_space(st, r, m, True)
        st.major[m, i] = CCW
    st.pl[seat, PF.WORKERS] -= own
    st.pl[seat, PF.CC_WORKERS] -= cc
    log(st, Ev.MAJOR, seat, m, own, cc)
    if was_empty and own > 0:
        gain_vp(st, r, seat, r.major_first_vp[m], VS.MAJOR_FIRST)
    if own > 0 and r.k[RK.OCHER_FLIP_ON_JOIN] == 1 and st.pl[seat, PF.BANNER_OCHER] == FACE_DOWN:
        banner_step(st, r, seat, Banner.OCHER)
    if grid_free(st, r, m) == 0:
        # the player's own worker is placed last when it has one; otherwise the first player places it
        placer = seat if own > 0 else st.order[0]
        complete(st, r, placer, m)


@njit(cache=True)
def council_workers_on_grid(st, r, seat, m, n, placer):
    """CITY COUNCIL WORKERS of the Major Building Act (and the cards placing them): up to n City
    Council workers from the supply on the grid; they score nothing, so they take the lowest-VP
    spaces and leave the best to players. If they complete the building, ``placer`` places it."""
    k = min(n, st.supply[Sup.COUNCIL_WORKERS], grid_free(st, r, m))
    for _ in range(k):
        i = _best_free_space(st, r, m, True)
        st.major[m, i] = CCW
    st.supply[Sup.COUNCIL_WORKERS] -= k
    log(st, Ev.MAJOR, seat, m, 0, k)
    if grid_free(st, r, m) == 0:
        complete(st, r, placer, m)


@njit(cache=True)
def remove_minor(st, r, c):
    """Displacement by the Cabildo/Cathedral: the building goes back to its owner's or the game
    supply; a House's owner gets 1 bronze, a Palace's owner 2 silver from the game supply."""
    b = st.cell_b[c]
    o = st.cell_owner[c]
    log(st, Ev.DISPLACED, b, c, o)
    if b == B.LOT:
        st.pl[o, PF.LOTS] += 1
    elif b == B.HOUSE:
        st.pl[o, PF.HOUSES] += 1
        give_coins_from_supply(st, o, 0, r.k[RK.HOUSE_REMOVED_BRONZE])
    elif b == B.PALACE:
        st.supply[Sup.PALACE] += 1
        st.pl[o, PF.PALACE_MARKERS] += 1
        give_coins_from_supply(st, o, r.k[RK.PALACE_REMOVED_SILVER], 0)
    elif b == B.MONUMENT or b == B.FOUNTAIN:
        st.supply[r.b_sup[b]] += 1
        st.supply[Sup.SQUARE] += 1
        if o >= 0:
            st.pl[o, PF.STATUS_MARKERS] += 1
    else:
        st.supply[r.b_sup[b]] += 1
        if b == B.HACIENDA_WOOD:
            st.supply[Sup.WOOD] += st.cell_cube[c]
        elif b == B.HACIENDA_STONE:
            st.supply[Sup.STONE] += st.cell_cube[c]
    st.cell_b[c] = B.NONE
    st.cell_owner[c] = -1
    st.cell_cube[c] = 0


@njit(cache=True)
def _displaceable(st, c):
    b = st.cell_b[c]
    return b != B.CABILDO and b != B.CATHEDRAL


@njit(cache=True)
def _put_major(st, r, c, b):
    """The Cabildo or (one of its two spaces) the Cathedral on space ``c``, owned by no player,
    displacing the Minor Building there (:func:`remove_minor`)."""
    if st.cell_b[c] != B.NONE:
        remove_minor(st, r, c)
    st.cell_b[c] = b
    st.cell_owner[c] = -1


@njit(cache=True)
def place_cabildo(st, r, seat):
    """Around the Plaza Mayor; if every such space is occupied, remove one Minor Building."""
    k = 0
    for c in range(st.cell_b.shape[0]):
        if r.cell_cab[c] == 1 and st.cell_b[c] == B.NONE:
            set_option(st, k, c)
            k += 1
    if k == 0:
        for c in range(st.cell_b.shape[0]):
            if r.cell_cab[c] == 1 and _displaceable(st, c):
                set_option(st, k, c)
                k += 1
    if k == 0:
        return -1
    c = st.opts[decide(st, r, seat, Dec.PLACE_CABILDO, k), 0]
    _put_major(st, r, c, B.CABILDO)
    return c


@njit(cache=True)
def place_cathedral(st, r, seat):
    """On two adjacent spaces around the Plaza Mayor; if no two are free, remove one or two
    Minor Buildings."""
    k = 0
    for i in range(r.cath_pairs.shape[0]):
        a = r.cath_pairs[i, 0]
        b = r.cath_pairs[i, 1]
        if st.cell_b[a] == B.NONE and st.cell_b[b] == B.NONE:
            set_option(st, k, a, b)
            k += 1
    if k == 0:
        for i in range(r.cath_pairs.shape[0]):
            a = r.cath_pairs[i, 0]
            b = r.cath_pairs[i, 1]
            if _displaceable(st, a) and _displaceable(st, b):
                set_option(st, k, a, b)
                k += 1
    if k == 0:
        return -1
    i = decide(st, r, seat, Dec.PLACE_CATHEDRAL, k)
    a = st.opts[i, 0]
    b = st.opts[i, 1]
    _put_major(st, r, a, B.CATHEDRAL)
    _put_major(st, r, b, B.CATHEDRAL)
    return a


@njit(cache=True)
def place_walls(st, r, seat, n, may_stop=True):
    """Up to ``n`` walls (5 per Walls completion, freely: the placer may stop), or exactly ``n``
    while supply and segments last (card 31: "Place 1 free wall piece"), on free segments of the
    West-North-East perimeter."""
    for _ in range(n):
        if st.supply[Sup.WALLS] <= 0:
            break
        k = 0
        for s in range(st.walls.shape[0]):
            if st.walls[s] == 0:
                set_option(st, k, s, r.seg_district[s])
                k += 1
        if k == 0:
            break
        if may_stop:
            set_option(st, k, -1, -1)
            k += 1
        s = st.opts[decide(st, r, seat, Dec.PLACE_WALL, k), 0]
        if s < 0:
            break
        d = r.seg_district[s]
        was_closed = district_closed(st, r, d)
        st.walls[s] = 1
        st.supply[Sup.WALLS] -= 1
        closed = district_closed(st, r, d)
        log(st, Ev.WALL, seat, s, 1 if closed else 0)
        if closed and not was_closed:
            # card 35 (lightning): coins when a District is closed by walls (2 silver with Roads)
            h = offer(st, r, Card.C35, -1)
            if h >= 0:
                p = r.aff_p[Card.C35]
                if st.roads[d] == 1:
                    take_coins(st, r, h, p[AP.SILVER_IF_ROADS], 0)
                else:
                    take_coins(st, r, h, p[AP.SILVER], p[AP.BRONZE])


@njit(cache=True)
def place_road(st, r, seat):
    """A District Road marker on a district without Roads."""
    k = 0
    for d in range(st.roads.shape[0]):
        if st.roads[d] == 0:
            set_option(st, k, d)
            k += 1
    if k == 0 or st.supply[Sup.ROAD_MARKERS] <= 0:
        return
    d = st.opts[decide(st, r, seat, Dec.PLACE_ROAD, k), 0]
    st.roads[d] = 1
    st.supply[Sup.ROAD_MARKERS] -= 1
    log(st, Ev.ROAD, seat, d)
    # card 41 (lightning): coins when Roads are built in a District (2 silver if closed by Walls)
    h = offer(st, r, Card.C41, -1)
    if h >= 0:
        p = r.aff_p[Card.C41]
        if district_closed(st, r, d):
            take_coins(st, r, h, p[AP.SILVER_IF_WALLS], 0)
        else:
            take_coins(st, r, h, p[AP.SILVER], p[AP.BRONZE])


@njit(cache=True)
def n_full_districts(st, r):
    """Districts whose every buildable space is occupied."""
    n = 0
    for d in range(r.district_ncells.shape[0]):
        if r.district_ncells[d] > 0 and district_occupied(st, r, d) == r.district_ncells[d]:
            n += 1
    return n


@njit(cache=True)
def district_completed(st, r):
    """A district has just been completed (all its spaces occupied): card 70 (lightning) pays 2 silver."""
    h = offer(st, r, Card.C70, -1)
    if h >= 0:
        take_coins(st, r, h, r.aff_p[Card.C70, AP.SILVER_DISTRICT_FULL], 0)


@njit(cache=True)
def complete(st, r, placer, m):
    """The building is completed: the placer puts the miniature(s) on the map (MAJOR BUILDING
    DESCRIPTION: the Cabildo, Cathedral, Walls and Roads placed, the Fort and Harbor marked); City
    Council workers leave the grid for the supply; everyone who joined progresses the ocher banner:
    the face-down step, and (scoring.ocher_flip_on_join false) the flip."""
    st.major_state[m, 0] = 1
    st.major_state[m, 1] += 1
    full_before = n_full_districts(st, r)
    cell = -1
    if m == M.CATHEDRAL:
        cell = place_cathedral(st, r, placer)
        st.g[G.CATHEDRAL_BUILT] = 1
    elif m == M.CABILDO:
        cell = place_cabildo(st, r, placer)
        st.g[G.CABILDO_BUILT] = 1
    elif m == M.FORT:
        st.g[G.FORT_BUILT] = 1
    elif m == M.HARBOR:
        st.g[G.HARBOR_BUILT] = 1
    log(st, Ev.COMPLETE, m, placer, cell)
    # card 70 (lightning): 1 silver when the Cabildo, Cathedral, Fort or Harbor is built,
    # 2 silver when a district is completed (the Cabildo/Cathedral can fill its last space)
    if (r.aff_majors[Card.C70] >> m) & 1:
        h = offer(st, r, Card.C70, -1)
        if h >= 0:
            take_coins(st, r, h, r.aff_p[Card.C70, AP.SILVER_MAJOR], 0)
    for _ in range(n_full_districts(st, r) - full_before):
        district_completed(st, r)
    if m == M.WALLS:
        place_walls(st, r, placer, r.k[RK.WALLS_PER_COMPLETION])
    elif m == M.ROADS:
        place_road(st, r, placer)
    for i in range(st.major.shape[1]):
        if st.major[m, i] == CCW:
            st.major[m, i] = CC_GONE
            st.supply[Sup.COUNCIL_WORKERS] += 1
    for s in range(st.g[G.NPLAYERS]):
        if own_on_grid(st, m, s) > 0 and (r.k[RK.OCHER_FLIP_ON_JOIN] == 0 or st.pl[s, PF.BANNER_OCHER] == 0):
            banner_step(st, r, s, Banner.OCHER)


@njit(cache=True)
def recover_completed(st, r):
    """C.6 RECOVER WORKERS from the completed grids (the others return in sim.game.end_of_decade):
    for each completed grid, players take back their workers and score the VP printed on the spaces
    they held (one VP assignation per worker); the grid is cleared."""
    for m in range(st.major.shape[0]):
        if st.major_state[m, 0] != 1:
            continue
        for s in range(st.g[G.NPLAYERS]):
            seat = st.order[s]
            n = 0
            tot = 0
            for i in range(st.major.shape[1]):
                if st.major[m, i] == seat:
                    n += 1
                    v = r.major_space_vp[m, i]
                    tot += v
                    if v != 0:
                        gain_vp(st, r, seat, v, VS.MAJOR_SPACES)
            if n > 0:
                st.pl[seat, PF.WORKERS] += n
                log(st, Ev.WORKERS_BACK, seat, m, n, tot)
        for i in range(st.major.shape[1]):
            if st.major[m, i] == CCW:
                st.supply[Sup.COUNCIL_WORKERS] += 1
            st.major[m, i] = EMPTY
        st.major_state[m, 0] = 0


@njit(cache=True)
def recover_workers_free(st, r, seat, m):
    """Free action Recover Workers: take own workers back from an incomplete grid, paying twice
    the first-worker VP (independent of the number of workers)."""
    n = 0
    for i in range(st.major.shape[1]):
        if st.major[m, i] == seat:
            st.major[m, i] = EMPTY
            n += 1
    st.pl[seat, PF.WORKERS] += n
    log(st, Ev.RECOVER, seat, m, n)
    add_vp(st, seat, -r.k[RK.RECOVER_VP_FACTOR] * r.major_first_vp[m], VS.RECOVER)


@njit(cache=True)
def complete_by_law(st, r, seat, m):
    """Major Building Act in the last decade: the building is completed at once, placed by the
    legislator, even with free spaces left."""
    complete(st, r, seat, m)
