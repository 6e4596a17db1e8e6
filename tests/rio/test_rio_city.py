"""The City's kernels (rio.engine.city), the end scoring (rio.engine.scoring) and the City's choices
(rio.players.city_choices) on states set up by hand: the rulebook's City VP example, roads and the road
connection (RP-08), walls and the Defender's FAQ (RP-09), the Square's condition (RP-05), the Palace on
the ring (RP-11), the offices' end powers, the Short game's +3 per office and the tie-breaks (RP-23)."""

from __future__ import annotations

import numpy as np
import pytest

from rio import formulas as f
from rio.engine.board import allowed_activations
from rio.engine.city import (
    ROAD_H,
    ROAD_V,
    SIDES,
    city_closed,
    district_closed,
    district_values,
    legal_road,
    legal_wall,
    place_ring_major,
    place_road,
    place_wall,
    ring_spaces_for_major,
    road_built,
    road_connected,
    road_open,
    segment,
    square_ok,
    vertex_step,
)
from rio.engine.geometry import build_geo
from rio.engine.scoring import end_scoring, ranks
from rio.engine.scratch import new_scratch
from rio.engine.state import MAX_COLOURS, NO, PK, SPACE_CATHEDRAL, SPACE_PALACE, VPS, G, new_state
from rio.players.city_choices import BIG, choose_ring_space, choose_road, choose_wall, road_ways
from rio.players.kinds import Kind, Policy
from rio.rules import MK, Building, Edge, K, Major, Office, Pool, Side, TieBreak, load_rules

R = load_rules()
GEO = build_geo(R)
H, W = (int(n) for n in R.map_district.shape)
ND = len(GEO.centre_vertex)
D1, D2, D5, D6, D7 = 0, 1, 4, 5, 6  # district indices of "1 2 3 4 / 5 6 7 8" (RP-07)
GREEN, RED, BLACK = 0, 1, 2
SC = new_scratch(R, GEO)  # the working arrays the kernels fill (the road connection in SC.conn)


def sp(x: int, y: int) -> int:
    """Space (x, y), 0-based from the north-west corner."""
    return y * W + x


def fresh(players: int = 3):
    st = new_state(H, W, R.major_space_vp.shape[1], len(R.mine_space_workers))
    st.edge[:] = R.map_edge.reshape(-1, len(Side))
    st.g[G.PLAYERS] = st.g[G.COLOURS] = players
    st.g[G.STICKS] = R.k[K.TILES_WALL_ROAD_PIECES]
    st.pl[:players, PK.HUTS] = R.pool_tiles[Pool.HUT_HOUSE]
    st.pool_left[:] = R.pool_tiles
    st.rng[0] = 20250601
    return st


def build(st, s: int, b: Building, owner: int = NO) -> None:
    st.sp_building[s] = b
    st.sp_owner[s] = owner
    st.sp_pool[s] = int(np.nonzero(R.building_pool[b])[0][0])


def policy(kind: Kind):
    return Policy(kind=np.full(MAX_COLOURS, kind, np.int32), w=np.zeros((MAX_COLOURS, 1)), war=np.zeros((MAX_COLOURS, 1)),
                  budget=np.zeros(MAX_COLOURS, np.int32))


def connected(st) -> np.ndarray:
    road_connected(GEO, st, SC)
    return SC.conn.copy()


def values(st) -> np.ndarray:
    out = np.zeros(ND, np.int32)
    road_connected(GEO, st, SC)
    district_values(R, GEO, st, SC, out, True)
    return out


def test_city_vp_example():
    """VICTORY POINTS CALCULATIONS, 3) CITY: "there are 2 production buildings (-1), a Barracks (+1) and a
    monument (+1). The district provides a bonus of +1 and therefore every house provides 3 VPs (2+1). The
    Green player receives 3 VPs (1 house, the huts do not provide VPs), the Red player receives 9 VPs (3
    houses) and the Black player receives 3 VPs (1 house)."""
    st = fresh()
    build(st, sp(0, 0), Building.STONECUTTER)
    build(st, sp(1, 0), Building.MARKET)
    build(st, sp(2, 0), Building.BARRACKS)
    build(st, sp(3, 0), Building.MONUMENT)
    build(st, sp(0, 1), Building.HOUSE, GREEN)
    build(st, sp(1, 1), Building.HUT, GREEN)
    for x, y in ((2, 1), (3, 1), (0, 2)):
        build(st, sp(x, y), Building.HOUSE, RED)
    build(st, sp(1, 2), Building.HOUSE, BLACK)
    build(st, sp(2, 2), Building.HUT, BLACK)
    v = values(st)
    ref = f.district_value(R, {Building.STONECUTTER: 1, Building.MARKET: 1, Building.BARRACKS: 1, Building.MONUMENT: 1, Building.HOUSE: 5,
                               Building.HUT: 2})
    assert v[D1] == ref == 1 and (v[1:] == 0).all()
    end_scoring(R, GEO, st, SC)
    assert st.vp_src[:3, VPS.END_HOUSES].tolist() == [3, 9, 3]
    assert st.pl[:3, PK.VP].tolist() == [3, 9, 3]


def test_house_value_never_below_zero():
    """"The value of a house is at least 0: negative values are not allowed." Four production buildings: -3."""
    st = fresh()
    for x, b in enumerate((Building.STONECUTTER, Building.CARPENTER, Building.MARKET, Building.CORPORATION)):
        build(st, sp(4 + x, 0), b)
    build(st, sp(4, 1), Building.HOUSE, GREEN)
    assert values(st)[D2] == -3
    end_scoring(R, GEO, st, SC)
    assert st.vp_src[GREEN, VPS.END_HOUSES] == 0 and st.pl[GREEN, PK.VP] == 0


def test_road_connects_district_centre_to_plaza():
    """ROADS: "A district is connected when the centre of the district (marked with a black dot) is
    connected to the Plaza Mayor." District 6's centre, vertex (6, 7), lies two pieces from the Plaza
    (RP-07): (6, 7)-(7, 7), then (7, 7)-(7, 8), a corner of the Plaza."""
    st = fresh()
    assert connected(st).sum() == 0
    assert legal_road(GEO, st, ROAD_H, 6, 6) and legal_road(GEO, st, ROAD_V, 7, 6)
    place_road(st, ROAD_H, 6, 6)
    assert connected(st)[D6] == 0  # one piece short
    place_road(st, ROAD_V, 7, 6)
    assert connected(st).tolist() == [0, 0, 0, 0, 0, 1, 0, 0]
    assert st.g[G.STICKS] == R.k[K.TILES_WALL_ROAD_PIECES] - 2
    assert not legal_road(GEO, st, ROAD_V, 7, 6)  # built already
    # MINOR BUILDING ACTIVATION: twice a turn in the connected district, once elsewhere
    road_connected(GEO, st, SC)
    assert allowed_activations(R, GEO, SC, sp(4, 5)) == R.k[K.ACTIVATION_PER_TURN_ROAD_CONNECTED] == 2
    assert allowed_activations(R, GEO, SC, sp(10, 5)) == R.k[K.ACTIVATION_PER_TURN] == 1
    assert values(st)[D6] == R.major[Major.ROADS, MK.DISTRICT_VALUE] == 1  # "+1 Connected by Road"
    st.road_h[6, 6] = 0
    assert connected(st)[D6] == 0
    # never inside the Plaza Mayor (spaces (7..8, 8..9)); its borders are fine; none when pieces run out (RP-06)
    assert not legal_road(GEO, st, ROAD_V, 8, 7) and not legal_road(GEO, st, ROAD_H, 8, 7)
    assert legal_road(GEO, st, ROAD_V, 8, 6)
    assert not legal_road(GEO, st, ROAD_V, 0, W - 1) and not legal_road(GEO, st, ROAD_H, H - 1, 0)  # off the arrays
    st.g[G.STICKS] = 0
    assert not legal_road(GEO, st, ROAD_V, 8, 6)


def test_heuristic_road_builds_the_cheapest_way():
    """District 1's centre is 10 pieces from the Plaza (RP-07); the heuristic player with Houses there
    connects it with exactly 10 pieces; a random player's pieces are legal."""
    st = fresh()
    build(st, sp(1, 1), Building.HOUSE, GREEN)
    build(st, sp(12, 1), Building.HUT, RED)
    heur = policy(Kind.HEURISTIC)
    for n in range(1, 11):
        kind, y, x = choose_road(R, GEO, st, SC, heur, GREEN)
        assert kind >= 0 and legal_road(GEO, st, kind, y, x)
        place_road(st, kind, y, x)
        assert connected(st)[D1] == (n == 10)
    # red's Hut is in district 4: its way next
    kind, y, x = choose_road(R, GEO, st, SC, heur, RED)
    assert kind >= 0
    rnd = policy(Kind.RANDOM)
    for _ in range(20):
        kind, y, x = choose_road(R, GEO, st, SC, rnd, BLACK)
        assert legal_road(GEO, st, kind, y, x)
        place_road(st, kind, y, x)
    st.g[G.STICKS] = 0
    assert choose_road(R, GEO, st, SC, heur, GREEN)[0] == -1


def reference_ways(st):
    """Dijkstra with a heap keyed by (distance, vertex), the order road_ways documents: its distances and the
    direction each vertex was first reached by at its final distance."""
    import heapq

    h, w = int(GEO.dims[0]), int(GEO.dims[1])
    nv = (h + 1) * (w + 1)
    dist = [0 if GEO.plaza_vertex[v] else BIG for v in range(nv)]
    back, done = [-1] * nv, [False] * nv
    heap = [(0, v) for v in range(nv) if GEO.plaza_vertex[v]]
    while heap:
        d, v = heapq.heappop(heap)
        if done[v] or d != dist[v]:
            continue
        done[v] = True
        for k in range(SIDES):
            kind, y, x = segment(h, w, v % (w + 1), v // (w + 1), k)
            if kind < 0:
                continue
            c = 0 if road_built(st, kind, y, x) else 1 if road_open(GEO, st, kind, y, x) else None
            u = vertex_step(w, v, k)
            if c is not None and d + c < dist[u]:
                dist[u], back[u] = d + c, k
                heapq.heappush(heap, (dist[u], u))
    return dist, back


def test_road_ways_is_dijkstra_in_the_documented_order():
    """road_ways (two rows of bit marks) gives the distances and the ways of a heap-ordered Dijkstra, ties to the
    lowest vertex, on random networks of road pieces, Plaza borders included."""
    rng = np.random.default_rng(20261206)
    h, w = int(GEO.dims[0]), int(GEO.dims[1])
    nv = (h + 1) * (w + 1)
    dist, back = np.zeros(nv, np.int32), np.zeros(nv, np.int32)
    for trial in range(40):
        st = fresh()
        share = trial / 40  # from no piece built to most of the map's borders
        for kind, ys, xs in ((ROAD_V, h, w - 1), (ROAD_H, h - 1, w)):
            for y in range(ys):
                for x in range(xs):
                    if rng.random() < share and legal_road(GEO, st, kind, y, x):
                        place_road(st, kind, y, x)
        road_ways(GEO, st, dist, back, SC.vlevel)
        want_dist, want_back = reference_ways(st)
        assert dist.tolist() == want_dist and back.tolist() == want_back, trial


def test_walls_close_a_district_and_the_defender_faq():
    """RP-09 and the FAQ: "Only the six districts around the city perimeter (side North, East, and West)
    score points for the Defender character at the end of the game (3 VP for each district closed by
    wall)." District 5 has three access points (west edges of rows 7..9, RP-07)."""
    st = fresh()
    build(st, sp(1, 7), Building.HUT, GREEN)
    heur = policy(Kind.HEURISTIC)
    assert not district_closed(GEO, st, D5)
    for _ in range(3):
        s, side = choose_wall(R, GEO, st, SC, heur, GREEN)
        assert GEO.district[s] == D5 and side == Side.WEST and legal_wall(GEO, st, s, side)
        place_wall(st, s, side)
    assert district_closed(GEO, st, D5) and not city_closed(GEO, st)
    assert st.g[G.STICKS] == R.k[K.TILES_WALL_ROAD_PIECES] - 3
    assert not legal_wall(GEO, st, sp(0, 7), Side.WEST)  # walled now
    assert not legal_wall(GEO, st, sp(5, 5), Side.NORTH)  # an inner edge
    assert not legal_wall(GEO, st, sp(5, H - 1), Side.SOUTH)  # the printed South walls
    # the whole city closed: the two central districts never count
    rnd = policy(Kind.RANDOM)
    while True:
        s, side = choose_wall(R, GEO, st, SC, rnd, RED)
        if s < 0:
            break
        assert legal_wall(GEO, st, s, side)
        place_wall(st, s, side)
    assert city_closed(GEO, st)
    assert [bool(district_closed(GEO, st, d)) for d in range(ND)] == [True] * 5 + [False, False, True]
    st.office_owner[Office.DEFENDER] = RED
    end_scoring(R, GEO, st, SC)
    assert st.vp_src[RED, VPS.END_DEFENDER] == 6 * R.k[K.OFFICE_DEFENDER_CLOSED_DISTRICT_VP] == 18


def test_square_condition():
    """THE CITY DISTRICTS: "The Square can be built only in a space surrounded by 5 minor buildings (except
    other squares) or walls" (RP-05: Monument and Garden count, Palace and Cathedral do not; each walled
    outer edge of the space counts, printed or built)."""
    st = fresh()
    s = sp(10, 2)
    ring = [sp(9, 1), sp(10, 1), sp(11, 1), sp(9, 2), sp(11, 2)]
    for t, b in zip(ring, (Building.HUT, Building.HOUSE, Building.STONECUTTER, Building.MONUMENT, Building.GARDEN)):
        build(st, t, b, GREEN if b in (Building.HUT, Building.HOUSE) else NO)
    assert square_ok(R, GEO, st, s)
    build(st, ring[2], Building.SQUARE)
    assert not square_ok(R, GEO, st, s)  # a Square does not count
    st.sp_building[ring[2]] = SPACE_PALACE
    assert not square_ok(R, GEO, st, s)  # nor the Palace
    # the north-west corner: two printed walls (north of x = 1, west of y = 1) and its three neighbours
    c = sp(0, 0)
    for t in (sp(1, 0), sp(0, 1), sp(1, 1)):
        build(st, t, Building.CARPENTER)
    assert st.edge[c, Side.NORTH] == st.edge[c, Side.WEST] == Edge.WALL and square_ok(R, GEO, st, c)
    # (0, 2): an open west edge; four of its five neighbours built: short until a wall is built
    e = sp(0, 2)
    build(st, sp(1, 2), Building.CARPENTER)
    build(st, sp(1, 3), Building.CARPENTER)
    assert not square_ok(R, GEO, st, e)
    place_wall(st, e, Side.WEST)
    assert square_ok(R, GEO, st, e)


def test_palace_on_a_full_ring_discards_a_building():
    """RP-11: the Palace goes on an empty ring space; with none, on one with a minor building, which returns
    to its pool (a Hut to its owner), the workers there to their owners."""
    st = fresh()
    opts = np.zeros(H * W, np.int32)
    assert ring_spaces_for_major(GEO, st, opts) == 8 and (opts == GEO.ring).all()
    ring = np.nonzero(GEO.ring)[0]
    for s in ring:
        build(st, s, Building.HUT, RED)
    hut = ring[0]
    build(st, ring[1], Building.CHURCH)
    st.sp_workers[ring[1], BLACK] = 2
    st.pl[RED, PK.HUTS] -= len(ring)
    st.pool_left[Pool.CHURCH_BARRACKS] -= 1
    assert ring_spaces_for_major(GEO, st, opts) == 8
    place_ring_major(R, GEO, st, Major.CATHEDRAL, ring[1])
    assert st.sp_building[ring[1]] == SPACE_CATHEDRAL and st.major_at[Major.CATHEDRAL] == ring[1]
    assert st.pool_left[Pool.CHURCH_BARRACKS] == R.pool_tiles[Pool.CHURCH_BARRACKS]
    assert st.pl[BLACK, PK.SUPPLY] == 2 and st.sp_workers[ring[1]].sum() == 0
    place_ring_major(R, GEO, st, Major.PALACE, hut)
    assert st.pl[RED, PK.HUTS] == R.pool_tiles[Pool.HUT_HOUSE] - len(ring) + 1
    assert ring_spaces_for_major(GEO, st, opts) == 6  # the Huts left; the majors are not discarded
    # both on district 6's side of the ring: "+3 Palace", "+2 Cathedral" to its value
    assert GEO.district[hut] == GEO.district[ring[1]] == D6
    assert values(st)[D6] == R.major[Major.PALACE, MK.DISTRICT_VALUE] + R.major[Major.CATHEDRAL, MK.DISTRICT_VALUE] == 5


def test_heuristic_ring_space_in_the_district_of_most_houses():
    st = fresh()
    build(st, sp(10, 5), Building.HOUSE, GREEN)
    build(st, sp(11, 5), Building.HOUSE, GREEN)
    build(st, sp(4, 5), Building.HOUSE, GREEN)
    s = choose_ring_space(R, GEO, st, SC, policy(Kind.HEURISTIC), GREEN, Major.PALACE)
    assert GEO.ring[s] and GEO.district[s] == D7
    s = choose_ring_space(R, GEO, st, SC, policy(Kind.RANDOM), GREEN, Major.PALACE)
    assert GEO.ring[s] and st.sp_building[s] == NO


@pytest.mark.parametrize("short", [0, 1])
def test_office_end_powers(short):
    """PUBLIC OFFICE TABLE at the end: Governor 12 VP + 6 a district with 4 of the 5 noble buildings (a
    second Square is no fifth kind), Bishop 4 a church or Cathedral, Architect 7 a Major building in the
    City, Roadmaker 2 a connected district; the Short game: "All Public Offices give +3 VPs at the end of
    the game" (the General's 0 too); money 1 VP per 3 silver."""
    st = fresh()
    st.g[G.SHORT] = short
    for x, b in enumerate((Building.SQUARE, Building.MONUMENT, Building.GARDEN, Building.BARRACKS)):
        build(st, sp(x, 0), b)  # district 1: four kinds
    for x, b in enumerate((Building.SQUARE, Building.SQUARE, Building.MONUMENT, Building.CHURCH)):
        build(st, sp(4 + x, 0), b)  # district 2: three kinds
    build(st, sp(8, 0), Building.CHURCH)
    place_ring_major(R, GEO, st, Major.CATHEDRAL, int(np.nonzero(GEO.ring)[0][0]))
    st.major_done[Major.FORT] = 1
    st.major_at[Major.PALACE] = NO
    place_road(st, ROAD_H, 6, 6)
    place_road(st, ROAD_V, 7, 6)  # district 6 connected
    st.office_owner[Office.GOVERNOR] = GREEN
    st.office_owner[Office.GENERAL] = GREEN
    st.office_owner[Office.BISHOP] = RED
    st.office_owner[Office.ARCHITECT] = RED
    st.office_owner[Office.ROADMAKER] = BLACK
    st.pl[GREEN, PK.SILVER] = 8
    end_scoring(R, GEO, st, SC)
    plus = short * R.k[K.SHORT_GAME_OFFICE_END_VP]
    assert st.vp_src[GREEN, VPS.END_GOVERNOR] == 6
    assert st.vp_src[GREEN, VPS.END_OFFICES] == 12 + 0 + 2 * plus
    assert st.vp_src[GREEN, VPS.END_MONEY] == 2 and st.pl[GREEN, PK.SILVER] == 8
    assert st.vp_src[RED, VPS.END_BISHOP] == 3 * 4  # two churches and the Cathedral
    assert st.vp_src[RED, VPS.END_ARCHITECT] == 2 * 7  # the Fort and the Cathedral
    assert st.vp_src[RED, VPS.END_OFFICES] == 2 * plus
    assert st.vp_src[BLACK, VPS.END_ROADMAKER] == 2 and st.vp_src[BLACK, VPS.END_OFFICES] == plus
    assert (st.vp_src.sum(axis=1) == st.pl[:, PK.VP]).all()


def test_tie_breaks():
    """"In case of a tie ... the winner is the one with most coins left after the exchange made in point
    1); if still tied, the player with the most precious resources wins and, if still tied, the most wood
    and stone resources." Still tied: a shared rank."""
    assert R.tie_breaks.tolist() == [TieBreak.SILVER_LEFT, TieBreak.PRECIOUS, TieBreak.WOOD_AND_STONE]
    st = fresh(4)
    out = np.zeros(4, np.int32)
    st.pl[:4, PK.VP] = [30, 30, 30, 12]
    st.pl[:4, PK.SILVER] = [5, 7, 2, 0]  # left after the exchange: 2, 1, 2
    assert ranks(R, st, out) == 2 and out.tolist() == [0, 2, 0, 3]
    st.pl[0, PK.PRECIOUS] = 1
    assert ranks(R, st, out) == 1 and out.tolist() == [0, 2, 1, 3]
    st.pl[2, PK.PRECIOUS] = 1
    st.pl[2, PK.WOOD] = 1
    assert ranks(R, st, out) == 1 and out.tolist() == [1, 2, 0, 3]
    st.pl[0, PK.STONE] = 1
    assert ranks(R, st, out) == 2 and out.tolist() == [0, 2, 0, 3]
