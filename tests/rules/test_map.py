"""The city map (ruling R-04, revision 2): the constraints the rulebook's text and examples set,
checked on the map of the rules file, and every rulebook example that lays buildings out on the
map played on it with the printed numbers (SCORING PHASE City; 11. MAJOR BUILDING Cabildo,
Cathedral, Walls; CARD REFERENCE > CHARACTER CARDS Architect, Governor, Defender; card 35).

Places are named by district (``N1`` ... ``S4``) and by the rules file's map arrays, so the tests
hold for any map that meets R-04; the few coordinates used are the default map's.
"""

from __future__ import annotations

import tomllib

import numpy as np
import pytest
from helpers import cell, clear_map

from sim.city import district_closed, district_value, n_closed_districts
from sim.rules import DEFAULT_RULES, RK
from sim.scoring import architect_types, character_base, city_total
from sim.state import PF, B, G, Sup

N1, N2, N3, N4, S1, S2, S3, S4 = range(8)
PERIMETER = (N1, N2, N3, N4, S1, S4)
CENTRAL = (S2, S3)
ARCHITECT, GOVERNOR, DEFENDER = 9, 10, 3  # Character numbers 10, 11, 4 (R-09 order)


@pytest.fixture(scope="module")
def doc():
    return tomllib.loads(DEFAULT_RULES.read_text())


def xy(r, c):
    w = int(r.k[RK.MAP_W])
    return int(c) % w, int(c) // w


def spaces(r, d):
    """District d's buildable spaces, in map order."""
    return [int(c) for c in r.district_cells[d, : r.district_ncells[d]]]


def ring(r):
    return [int(c) for c in np.flatnonzero(r.cell_cab)]


def plaza(r):
    return [int(c) for c in np.flatnonzero(r.cell_plaza)]


def fill(st, r, cells, items):
    """Put ``items`` ((building, owner) pairs) on ``cells`` in order."""
    assert len(items) <= len(cells)
    for c, (b, owner) in zip(cells, items):
        st.cell_b[c] = b
        st.cell_owner[c] = owner


# ----------------------------------------------------------------------------- the constraints


def test_eight_districts_six_on_the_perimeter_two_central(rules):
    """'There are 8 districts on the map, but only the 6 districts along the city perimeters can be
    closed by walls; the two Central districts cannot gain the related VPs bonus.'"""
    assert rules.district_ncells.shape[0] == 8
    for d in PERIMETER:
        assert rules.district_nseg[d] > 0
    for d in CENTRAL:
        assert rules.district_nseg[d] == 0


def test_the_perimeter_is_west_north_east_not_the_sea_side(rules):
    """'The City perimeter is made by the West-North-East map sides, ignoring the South map side
    (Sea side).' Every district space on the west, north or east edge has its outer side(s) as wall
    segments; the south edge has none."""
    w, h = int(rules.k[RK.MAP_W]), int(rules.k[RK.MAP_H])
    expected = []
    for c in range(w * h):
        d = int(rules.cell_district[c])
        x, y = c % w, c // w
        if d >= 0:
            expected += [d] * ((x == 0) + (y == 0) + (x == w - 1))
    assert sorted(rules.seg_district.tolist()) == sorted(expected)
    south = [int(rules.cell_district[(h - 3) * w + x]) for x in range(w)]  # the last city row
    assert set(south) - {-1} == {S1, S4}  # the districts beside the Plaza reach the sea, unwalled there


def test_every_district_holds_the_city_example(rules):
    """The City example puts the Cathedral (2 spaces) and ten more buildings (Barracks, Church,
    Monument, Quarry, Market, 1 Lot, 3 Houses, 1 Palace) in one district: 12 spaces."""
    assert min(rules.district_ncells.tolist()) >= 12


def test_plaza_mayor_is_2_by_2_on_the_south_side_with_fort_and_harbor_below(rules, doc):
    """'The four spaces on the map above the Fort space form the Plaza Mayor ... no building can be
    built upon them'; 'The Fort is placed below the Plaza Mayor'; 'The Harbor ... must be placed
    below the Fort's space'."""
    w = int(rules.k[RK.MAP_W])
    p = plaza(rules)
    xs, ys = {c % w for c in p}, {c // w for c in p}
    assert len(p) == 4 and len(xs) == 2 and len(ys) == 2
    assert all(rules.cell_buildable[c] == 0 and rules.cell_district[c] == -1 for c in p)
    special = doc["map"]["special"].strip("\n").split("\n")
    fort = [(x, y) for y, row in enumerate(special) for x, ch in enumerate(row) if ch == "F"]
    harbor = [(x, y) for y, row in enumerate(special) for x, ch in enumerate(row) if ch == "H"]
    assert {x for x, _ in fort} == xs and {y for _, y in fort} == {max(ys) + 1}
    assert {x for x, _ in harbor} == xs and {y for _, y in harbor} == {max(ys) + 2}
    for x, y in fort + harbor:  # outside every district: no Architect or Governor count
        assert rules.cell_district[y * w + x] == -1
    assert max(ys) == int(rules.k[RK.MAP_H]) - 3  # the Plaza's south row is the city's last


def test_the_spaces_around_the_plaza_belong_to_both_central_and_two_perimeter_districts(rules):
    """Cabildo and Cathedral 'must be placed in one of the spaces surrounding the Plaza Mayor', and
    the Architect example's district holds both the Cabildo and Walls: so some of those spaces lie in
    perimeter districts, one west and one east of the Plaza, besides the two Central districts."""
    w = int(rules.k[RK.MAP_W])
    p = set(plaza(rules))
    around = {a for c in p for a in rules.adj[c].tolist() if a >= 0 and a not in p and rules.cell_district[a] >= 0}
    assert set(ring(rules)) == around
    owners = {int(rules.cell_district[c]) for c in around}
    assert owners == {S1, S2, S3, S4}
    px = min(c % w for c in p)
    assert all(c % w < px for c in around if rules.cell_district[c] == S1)
    assert all(c % w > px + 1 for c in around if rules.cell_district[c] == S4)


def test_starting_area_is_two_equal_rows_at_the_centre_across_districts(rules):
    """'STARTING AREA: The red spaces at the center of the city map'; the Solo randomizer uses its
    'top row' or 'bottom row' and counts along it."""
    w, h = int(rules.k[RK.MAP_W]), int(rules.k[RK.MAP_H])
    start = [int(c) for c in np.flatnonzero(rules.cell_start)]
    rows = sorted({c // w for c in start})
    assert len(rows) == 2 and rows[1] == rows[0] + 1
    top = [c for c in start if c // w == rows[0]]
    bottom = [c for c in start if c // w == rows[1]]
    assert [c % w for c in top] == [c % w for c in bottom]
    assert len({int(rules.cell_district[c]) for c in start}) > 1
    cx = (min(c % w for c in start) + max(c % w for c in start)) / 2
    assert cx == (w - 1) / 2  # centred west-east
    assert all(rules.cell_buildable[c] for c in start)
    assert rows[0] < h // 2 < rows[1] + 3  # in the middle band, north of the Plaza


def test_27_walls_close_some_but_not_all_districts_and_13_close_one(rules):
    """Box: 27 Walls (13 in the 2-player game without A.I.). Where to wall is a choice: the box
    closes some districts, never all six; the 2-player box closes at least one."""
    nseg = sorted(int(rules.district_nseg[d]) for d in PERIMETER)
    walls = rules.supply_n[:, Sup.WALLS].tolist()  # by player count 2..5
    assert max(walls) == 27 and min(walls) == 13
    assert sum(nseg) > max(walls) and len(rules.seg_district) == sum(nseg)
    assert nseg[0] <= min(walls)
    assert nseg[0] <= rules.k[RK.WALLS_PER_COMPLETION]  # one Walls completion can close a district (card 35)


def test_every_district_is_north_or_south(rules):
    """The Solo A.I.'s placement: 'First, determine if the district is a South or a North district.'"""
    assert rules.district_north.tolist() == [1, 1, 1, 1, 0, 0, 0, 0]
    w = int(rules.k[RK.MAP_W])
    for d in range(8):
        ys = [c // w for c in spaces(rules, d)]
        if rules.district_north[d]:
            assert min(ys) == 0  # on the north edge
        else:
            assert min(ys) > 0


def test_cathedral_placements_inside_one_district_and_across_two(rules):
    """'the Cathedral miniature occupies 2 spaces of the map'; 'If the Cathedral is placed on spaces
    belonging to two districts ... +2 VPs bonus each.' Both kinds of placement exist."""
    kinds = {int(rules.cell_district[a] != rules.cell_district[b]) for a, b in rules.cath_pairs.tolist()}
    assert kinds == {0, 1}
    for a, b in rules.cath_pairs.tolist():
        assert rules.cell_cab[a] and rules.cell_cab[b]
        assert b - a in (1, int(rules.k[RK.MAP_W]))


def test_adjacency_is_the_8_surrounding_spaces(rules):
    """'ADJACENT SPACE: Any of the 8 spaces around a selected space', across district borders."""
    w, h = int(rules.k[RK.MAP_W]), int(rules.k[RK.MAP_H])
    for c in range(w * h):
        x, y = c % w, c // w
        want = {(y + dy) * w + x + dx for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h}
        assert {a for a in rules.adj[c].tolist() if a >= 0} == want


# ----------------------------------------------------------------------------- the examples


def test_city_example_50_vp_in_a_cathedral_district(blank, rules):
    """SCORING PHASE City: 'a district with a Cathedral (+5), Barracks (+2), a Church (+2), Monument
    (+2), Quarry (0, first production building), and Market (-1 ...) has a value of 10 VPs. In this
    district the Yellow player owns 1 Lot, 3 Houses, 1 Palace, and 1 Monument ... They own 2 Faith
    tokens ... 8 VPs x 3 Houses = 24 VPs and 26 VPs for the Palace ... The total is 50 VPs.'
    Laid out whole in each district that can hold the Cathedral on its own two spaces."""
    yellow = 2
    whole = [(a, b) for a, b in rules.cath_pairs.tolist() if rules.cell_district[a] == rules.cell_district[b]]
    assert whole
    for a, b in whole:
        st = blank
        clear_map(st)
        d = int(rules.cell_district[a])
        st.cell_b[[a, b]] = B.CATHEDRAL
        st.g[G.CATHEDRAL_BUILT] = 1
        free = [c for c in spaces(rules, d) if c not in (a, b)]
        fill(st, rules, free, [(B.BARRACKS, -1), (B.CHURCH, -1), (B.MONUMENT, yellow), (B.QUARRY, -1), (B.MARKET, -1),
                               (B.LOT, yellow), (B.HOUSE, yellow), (B.HOUSE, yellow), (B.HOUSE, yellow), (B.PALACE, yellow)])
        st.pl[yellow, PF.FAITH] = 2
        assert district_value(st, rules, d) == 10
        assert city_total(st, rules, yellow) == 50


def test_district_value_8_house_and_palace_examples(blank, rules):
    """'the district value is 8 VPs; the Yellow player owns 1 Palace, 3 Houses, 1 Lot in this
    district, and 3 Faith tokens ... each House values 5+3 ... = 8 VPs/House'; 'the district values
    8 VPs. The Yellow player owns 1 Palace ... and owns 1 Faith token. The Palace values 21 VPs.'
    District value 8 in a Central district: Fort (+5), Monument (+2), Church (+2), Quarry (0),
    Market (-1)."""
    st = blank
    clear_map(st)
    yellow = 2
    st.g[G.FORT_BUILT] = 1
    fill(st, rules, spaces(rules, S3), [(B.MONUMENT, -1), (B.CHURCH, -1), (B.QUARRY, -1), (B.MARKET, -1),
                                        (B.PALACE, yellow), (B.HOUSE, yellow), (B.HOUSE, yellow), (B.HOUSE, yellow), (B.LOT, yellow)])
    assert district_value(st, rules, S3) == 8
    st.pl[yellow, PF.FAITH] = 3
    assert city_total(st, rules, yellow) == 3 * 8 + (8 + 10 + 3 * 3)
    st.pl[yellow, PF.FAITH] = 1
    for c in spaces(rules, S3):
        if st.cell_b[c] in (B.HOUSE, B.LOT):
            st.cell_b[c] = B.NONE
            st.cell_owner[c] = -1
    assert city_total(st, rules, yellow) == 21


def test_architect_example_eight_buildings_with_walls_and_the_cabildo(blank, rules):
    """Architect: 'during the third Era scoring phase, in a 4-player game, there is a district with
    8 different buildings (house, palace, quarry, walls, market, square, monument, Cabildo). The
    Yellow player who owns the Architect card scores 5 x 3 (third Era) = 15 VPs.' The Cabildo on a
    space around the Plaza Mayor, a Wall on the same district's perimeter."""
    st = blank
    for d in (S1, S4):
        clear_map(st)
        st.pl[0, PF.CHARACTER] = ARCHITECT
        cab = [c for c in ring(rules) if rules.cell_district[c] == d][0]
        st.cell_b[cab] = B.CABILDO
        st.g[G.CABILDO_BUILT] = 1
        free = [c for c in spaces(rules, d) if c != cab]
        fill(st, rules, free, [(B.HOUSE, 1), (B.PALACE, 1), (B.QUARRY, -1), (B.MARKET, -1), (B.SQUARE, -1), (B.MONUMENT, -1)])
        st.walls[int(np.flatnonzero(rules.seg_district == d)[0])] = 1
        assert architect_types(st, rules, d) == 8
        assert character_base(st, rules, 0, 4) * 3 == 15


def test_cathedral_across_two_districts_gives_each_two(blank, rules):
    """'If the Cathedral is placed on spaces belonging to two districts ... the two districts divide
    the bonus ..., gaining +2 VPs bonus each.' On one district's own two spaces it gives that one +5."""
    st = blank
    for a, b in rules.cath_pairs.tolist():
        clear_map(st)
        st.cell_b[[a, b]] = B.CATHEDRAL
        da, db = int(rules.cell_district[a]), int(rules.cell_district[b])
        if da != db:
            assert district_value(st, rules, da) == 2 and district_value(st, rules, db) == 2
        else:
            assert district_value(st, rules, da) == 5


def test_walls_example_central_districts_cannot_close(blank, rules):
    """'For example, the districts on red are closed by walls. The two Central district, shown in
    blue, cannot gain Walls protection.' Every segment walled closes the six perimeter districts,
    never the Central two."""
    st = blank
    clear_map(st)
    st.walls[:] = 1
    assert [d for d in range(8) if district_closed(st, rules, d)] == list(PERIMETER)
    assert district_value(st, rules, S2) == 0


def test_card_35_example_four_walls_close_a_district(blank, rules):
    """Card 35: 'the Blue player completes the Walls grid and places 4 new walls, closing a
    district.' A Walls completion places 'up to 5'; a district of 4 outer segments closes with 4."""
    st = blank
    clear_map(st)
    four = [d for d in PERIMETER if rules.district_nseg[d] == 4]
    assert four
    for s in np.flatnonzero(rules.seg_district == four[0]):
        assert not district_closed(st, rules, four[0])
        st.walls[s] = 1
    assert district_closed(st, rules, four[0])


def test_defender_example_two_districts_closed(blank, rules):
    """Defender: 'during the second Era scoring phase, in a 3-player game, there are 2 Districts
    closed by Walls. The Yellow player ... scores 2 x 2 (2 walls) = 4 +1 bonus = 5 x 2 = 10 VPs.'
    Closed with the box's Walls (two 4-segment districts take 8 of 27)."""
    st = blank
    clear_map(st)
    st.pl[0, PF.CHARACTER] = DEFENDER
    four = [d for d in PERIMETER if rules.district_nseg[d] == 4][:2]
    for d in four:
        st.walls[np.flatnonzero(rules.seg_district == d)] = 1
    assert n_closed_districts(st, rules) == 2
    assert character_base(st, rules, 0, 3) * 2 == 10


def test_governor_example_a_half_full_and_a_full_district(blank, rules):
    """Governor: 'in a 4-player game during the third Era scoring phase, there is a district with 3
    free spaces and another district with no free space. The Yellow player ... scores (3+5=8) 8 x 3
    (third Era) = 24 VPs.' Three free spaces leave every district of the map at least half full."""
    st = blank
    clear_map(st)
    st.pl[0, PF.CHARACTER] = GOVERNOR
    full, half = N2, N4
    fill(st, rules, spaces(rules, full), [(B.SQUARE, -1)] * int(rules.district_ncells[full]))
    fill(st, rules, spaces(rules, half), [(B.LOT, 1)] * (int(rules.district_ncells[half]) - 3))
    assert character_base(st, rules, 0, 4) * 3 == 24
    for d in range(8):  # 3 free spaces: half full in every district of this map
        assert 100 * (rules.district_ncells[d] - 3) >= rules.district_ncells[d] * rules.k[RK.CH_GOV_HALF_PCT]


def test_log_names_the_map_space_by_column_row_and_district(rules, doc):
    from sim.log import _cell

    names = doc["map"]["district_names"]
    c = cell(rules, 6, 8)
    assert _cell(rules, c, names) == "(6,8) S1"
    assert xy(rules, c) == (6, 8)
