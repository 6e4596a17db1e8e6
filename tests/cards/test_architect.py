"""Affiliate cards 67-72, the Architect group (CARD REFERENCE > AFFILIATE CARDS > ARCHITECT CARDS): a
production penalty turned into a double bonus (67), an adjacent district's buildings counted (68), a
City Council worker on any grid (69), silver for a Major building or a full district (70), another
player's Houses borrowed (71), a City Council VP penalty halved (72).

One test per card power (more where the text has several parts) on a hand-built state, quoting
the card text and the rules file's ``reading`` where the text is ambiguous; each asserts the effect
and at least one limit of the text, with the numbers of the rules record (``r.aff_p[c, AP.X]``).
Cards are named by their printed number (card id = number - 1). Turn-time powers are used with the
F_CARD free action (``use``) and then change the seat's next action of the turn (listed by
``turn_options``, done by ``apply_option``); lightning powers are triggered by calling the rule area
of their moment. The ``blank`` fixture seats greedy players, who use a lightning card whenever it
triggers. Checks shared with cards of other groups are in tests/helpers.py (Affiliate card
families).
"""

from __future__ import annotations

from helpers import (
    ALL_GRIDS,
    N1,
    N2,
    cell,
    cells_of,
    cid,
    clear_hands,
    clear_map,
    clone,
    give,
    grid_card,
    put,
    scored,
    scoring_state,
    set_items,
    upright,
    use,
)

from sim.actions import build
from sim.city import district_value
from sim.core import CCW
from sim.council_vote import council_cost
from sim.economy import coin_value
from sim.major_buildings import complete
from sim.rules import AP, RK
from sim.state import PF, VS, B, G, M, Sup


def test_card_67_production_penalty_becomes_a_double_bonus_in_one_district(blank, rules):
    """Card 67. '⚡ In the target District, VP penalties for productive buildings are doubled and
    converted into VPs bonus. For example, a District has a VP penalty for 3 productive buildings for
    a total of -2 VPs. With this card, the penalty is converted to a bonus of +4 VPs to the District
    value.' Reading: 'At a Scoring phase, in one district, the production term (-1 per
    Market/Carpentry/Quarry beyond the first) becomes +2 per such building beyond the first, for that
    Scoring phase only.'"""
    st, r = blank, rules
    scoring_state(st)
    give(st, 0, 67)
    factor = int(r.aff_p[cid(67), AP.PENALTY_FACTOR])
    assert factor == -2
    # district 0 (N1): 3 production buildings (-2); district 3 (N4): 2 (-1); a Palace of seat 1 in each
    for x, y, b in ((0, 0, B.QUARRY), (1, 0, B.CARPENTRY), (2, 0, B.MARKET), (12, 0, B.QUARRY), (13, 0, B.MARKET)):
        put(st, r, x, y, b)
    put(st, r, 0, 1, B.PALACE, 1)
    put(st, r, 12, 1, B.PALACE, 1)
    pen0 = 2 * int(r.k[RK.PRODUCTION_PENALTY])
    dv0, dv3 = district_value(st, r, 0), district_value(st, r, 3)
    assert (dv0, dv3) == (pen0, int(r.k[RK.PRODUCTION_PENALTY])) and pen0 == -2
    base = int(r.k[RK.PALACE_BASE])
    got = scored(st, r)
    new0 = dv0 - pen0 + pen0 * factor
    assert new0 == 4  # the rulebook example: -2 becomes +4
    assert got[1, VS.CITY] == (new0 + base) + (dv3 + base)  # one district only: the best one
    assert got[0, VS.CITY] == 0 and st.card_rot[cid(67)] == 1  # the holder needs no building there
    assert district_value(st, r, 0) == dv0  # for that Scoring phase only
    # limit: no district with a production penalty: the card is kept
    upright(st, 67)
    st.cell_b[[cell(r, 1, 0), cell(r, 2, 0), cell(r, 13, 0)]] = B.NONE
    got = scored(st, r)
    assert got[1, VS.CITY] == 2 * base and st.card_rot[cid(67)] == 0


def test_card_68_walls_roads_and_a_minor_building_of_an_adjacent_district(blank, rules):
    """Card 68 (lightning). 'For district VP value, consider a Major or/and a Minor building of an
    adjacent District also in the selected District. For example, ... the Walls and a Barracks of an
    adjacent District ... gains +7 to its value.' One Major term (here Roads, +5) and one Minor term
    (a Barracks, +2) of N2 count in N1."""
    st, r = blank, rules
    scoring_state(st)
    a, b = cells_of(r, N1, 1)[0], cells_of(r, N2, 1)[0]
    st.cell_b[a], st.cell_owner[a] = B.PALACE, 0
    st.cell_b[b] = B.BARRACKS
    st.roads[N2] = 1
    base = clone(st)
    plain = scored(clone(base), r)[:, VS.CITY]
    give(st, 0, 68)
    got = scored(st, r)[:, VS.CITY]
    assert got[0] - plain[0] == r.k[RK.DISTRICT_BONUS] + r.b_dv[B.BARRACKS] == 7
    assert st.card_uses[cid(68)] == 1
    # limit: a term the district already has adds nothing (N1 has its own Roads): only the Barracks
    st2 = clone(base)
    st2.roads[N1] = 1
    plain2 = scored(clone(st2), r)[:, VS.CITY]
    give(st2, 0, 68)
    got2 = scored(st2, r)[:, VS.CITY]
    assert got2[0] - plain2[0] == r.b_dv[B.BARRACKS]


def test_card_69_one_council_worker_on_any_grid_completing_it(blank, rules):
    """Card 69. 'If City Council workers are still available in the game supply, immediately place
    1 of them on any Major building grid. This City Council worker will count for the completion of
    the grid but will not provide you VPs. When the grid is complete, place the city council worker
    back in the game supply.'"""
    st, r = blank, rules
    clear_map(st)
    offered = grid_card(st, r, 69, ALL_GRIDS)
    assert {b for _, b in offered} == {1}
    # the last space of the Harbor: the building is completed and the worker returns
    st.major[M.HARBOR] = -1
    upright(st, 69)
    n = int(r.major_spaces[M.HARBOR, 2])
    st.major[M.HARBOR, :n - 1] = 1
    sup, vp0 = int(st.supply[Sup.COUNCIL_WORKERS]), int(st.pl[0, PF.VP])
    use(st, r, 0, 69, M.HARBOR, 1)
    assert st.g[G.HARBOR_BUILT] == 1 and st.major_state[M.HARBOR, 1] == 1
    assert (st.major[M.HARBOR] == CCW).sum() == 0 and st.supply[Sup.COUNCIL_WORKERS] == sup
    assert st.pl[0, PF.VP] == vp0


def test_card_70_silver_for_a_major_building_two_for_a_completed_district(blank, rules):
    """Card 70. '⚡ Gain 1 silver coin when the Cabildo, Catedral (Cathedral), Fuerte (Fort), or
    Puerto (Harbor) are built or 2 silver coins when a district is completed (when all district
    spaces are occupied).' Reading: any player's completion; 'all district spaces' = all buildable
    spaces, the Plaza Mayor spaces excluded."""
    st, r = blank, rules
    p = r.aff_p[cid(70)]
    assert p[AP.SILVER_MAJOR] == 1 and p[AP.SILVER_DISTRICT_FULL] == 2
    clear_map(st)
    clear_hands(st)
    give(st, 1, 70)
    set_items(st, 1)
    # limit: the Roads and Walls grids are not among the four buildings
    complete(st, r, 0, M.ROADS)
    complete(st, r, 0, M.WALLS)
    assert coin_value(st, r, 1) == 0 and st.card_rot[cid(70)] == 0
    for m in (M.CABILDO, M.CATHEDRAL, M.FORT, M.HARBOR):
        upright(st, 70)
        set_items(st, 1)
        complete(st, r, 0, m)
        assert st.pl[1, PF.SILVER] == 1 and st.pl[1, PF.BRONZE] == 0 and st.card_rot[cid(70)] == 1
    assert st.g[G.CABILDO_BUILT] == st.g[G.CATHEDRAL_BUILT] == st.g[G.FORT_BUILT] == st.g[G.HARBOR_BUILT] == 1
    # a district completed by a construction: 2 silver (a central district: the Plaza Mayor excluded)
    clear_map(st)
    d = next(d for d in range(r.district_ncells.shape[0]) if r.district_nseg[d] == 0)  # Central: beside the Plaza
    cells = r.district_cells[d, :r.district_ncells[d]]
    assert not r.cell_plaza[cells].any()
    st.cell_b[cells[:-2]] = B.SQUARE
    cost = r.b_cost[B.LOT]

    def build_lot(c):
        st.pl[0, PF.WORKERS] = cost[0]
        set_items(st, 0, wood=cost[1], stone=cost[2], precious=cost[3], metal=cost[4])
        build(st, r, 0, B.LOT, int(c), 0)

    upright(st, 70)
    set_items(st, 1)
    build_lot(cells[-2])  # one space still free: nothing
    assert coin_value(st, r, 1) == 0 and st.card_rot[cid(70)] == 0
    build_lot(cells[-1])
    assert st.pl[1, PF.SILVER] == 2 and st.pl[1, PF.BRONZE] == 0 and st.card_rot[cid(70)] == 1
    assert st.card_uses[cid(70)] == 5


def test_card_71_borrow_up_to_three_houses_paying_one_bronze_each(blank, rules):
    """Card 71 (lightning). 'In the Scoring phase, you can consider up to 3 Houses of another player
    like yours (they work for you AND the other player). Pay 1 bronze coin to this player per House
    used in this way. The selected buildings must be in the same district of the player Houses, and
    this payment must be considered for the Richest Player determination.'"""
    st, r = blank, rules
    scoring_state(st)
    st.g[G.FORT_BUILT] = 1  # every district's value is +5
    cs = cells_of(r, N1, 5)
    st.cell_b[cs[0]], st.cell_owner[cs[0]] = B.HOUSE, 0
    for c in cs[1:5]:  # 4 Houses of seat 1: at most 3 can be borrowed
        st.cell_b[c], st.cell_owner[c] = B.HOUSE, 1
    set_items(st, 0, bronze=5)
    base = clone(st)
    plain = scored(clone(base), r)[:, VS.CITY]
    give(st, 0, 71)
    got = scored(st, r)[:, VS.CITY]
    most = int(r.aff_p[cid(71), AP.HOUSES_MAX])
    dv = 5
    assert plain[0] == min(1, dv) and plain[1] == 4 * min(4, dv)
    assert got[0] == (1 + most) * min(1 + most, dv)  # own House + 3 borrowed, each worth own buildings 4
    assert got[1] == plain[1]  # they still score for their owner
    assert st.pl[0, PF.BRONZE] == 5 - most * r.aff_p[cid(71), AP.PAY_BRONZE_PER_HOUSE]
    assert st.pl[1, PF.BRONZE] == most * r.aff_p[cid(71), AP.PAY_BRONZE_PER_HOUSE]
    assert st.card_uses[cid(71)] == 1
    # limit: no House of the holder in the district: the card is not used
    st2 = clone(base)
    st2.cell_b[cs[0]] = B.PALACE
    give(st2, 0, 71)
    scored(st2, r)[:, VS.CITY]
    assert st2.card_uses[cid(71)] == 0 and st2.pl[0, PF.BRONZE] == 5


def test_card_72_halves_a_city_council_vp_penalty(blank, rules):
    """Card 72. '⚡ Reduce any City Council VPs penalty by half (round down). For example, the Blue
    player City council score is 2. During a vote, they uses 7 votes, so they should take 12 VPs
    penalty. With this card they can reduce the penalty to 6 VPs.'"""
    st, r = blank, rules
    clear_hands(st)
    st.pl[:, PF.ST_VP] = 0
    give(st, 1, 72)
    div = int(r.aff_p[cid(72), AP.PENALTY_DIVISOR])
    full = int(r.k[RK.BELOW_ONE_BASE] + r.k[RK.BELOW_ONE_PER_POINT] * (7 - 2))
    assert full == -12 and div == 2
    # limit: no penalty, the card is kept
    st.pl[1, PF.COUNCIL] = 10
    council_cost(st, r, 1, 3)
    assert st.pl[1, PF.COUNCIL] == 7 and st.card_rot[cid(72)] == 0
    # limit: another player's penalty is paid in full
    st.pl[2, PF.COUNCIL] = 2
    vp2 = int(st.pl[2, PF.VP])
    council_cost(st, r, 2, 7)
    assert st.pl[2, PF.VP] == vp2 + full and st.card_rot[cid(72)] == 0
    # the rulebook example: 12 VPs become 6
    st.pl[1, PF.COUNCIL] = 2
    vp1, below = int(st.pl[1, PF.VP]), int(st.vps[1, VS.COUNCIL_BELOW])
    council_cost(st, r, 1, 7)
    assert st.pl[1, PF.VP] == vp1 - 12 // div and st.vps[1, VS.COUNCIL_BELOW] == below - 6
    assert st.pl[1, PF.COUNCIL] == r.k[RK.COUNCIL_RESET] and st.card_rot[cid(72)] == 1
    # limit: rotated, the next penalty is paid in full
    st.pl[1, PF.COUNCIL] = 2
    council_cost(st, r, 1, 7)
    assert st.pl[1, PF.VP] == vp1 - 6 + full
