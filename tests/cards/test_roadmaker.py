"""Affiliate cards 37-42, the Roadmaker group (CARD REFERENCE > AFFILIATE CARDS > ROADMAKER CARDS):
City Council workers on the Roads grid (37), bronze per district with Roads when loading the Ship
(38), one more resource, bronze or Faith in a district with Roads (39), a vote per district with
Roads (40), coins when Roads are built (41), Houses and Palaces in a district with Roads (42).

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
    act_row,
    cell,
    cid,
    clear_hands,
    clear_map,
    give,
    grid_card,
    house_palace_card,
    load,
    new_vote,
    perimeter_district,
    put,
    rows,
    set_items,
    three,
    upright,
    use,
    vote_as,
    vote_state,
)

from sim.actions import apply_option
from sim.codes import Act, Law
from sim.council_vote import SIDE_NO, call_vote
from sim.economy import coin_value, grid_range
from sim.major_buildings import place_road
from sim.rules import AP, RK
from sim.state import PF, B, G, M, Sup


def test_card_37_up_to_2_council_workers_on_the_roads_grid(blank, rules):
    """Card 37. 'If City Council workers are still available in the game supply, immediately place
    up to 2 City Council workers on the Roads grid.'"""
    st, r = blank, rules
    offered = grid_card(st, r, 37, (M.ROADS,))
    assert {a for a, _ in offered} == {M.ROADS} and {b for _, b in offered} == {1, 2}
    # no District Road marker left: the grid is closed, no option
    upright(st, 37)
    st.supply[Sup.ROAD_MARKERS] = 0
    assert rows(st, r, 0, 37) == []


def test_card_38_bronze_per_road_district_for_3_identical_resources(blank, rules):
    """Card 38. 'When you do a Load the Ship action with 3 identical resources, use an additional
    worker to gain 1 bronze coin for every District with Roads.' Reading: 'place 1 more of your
    workers on the Dock and immediately take 1 bronze per district with Roads from the board coin
    stacks'."""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 38)
    p = r.aff_p[cid(38)]
    assert p[AP.EXTRA_WORKERS] == 1 and p[AP.BRONZE_PER_ROAD_DISTRICT] == 1
    st.roads[[0, 3, 7]] = 1
    use(st, r, 0, 38)
    ship = int(r.k[RK.SHIP_WORKERS])
    # limit: a triplet is not 3 identical resources: nothing more, the card waits
    load(st, r, 0, lambda q: q[0] == q[1] == q[2] == 1)
    assert coin_value(st, r, 0) == 0 and st.pl[0, PF.WORKERS] == r.k[RK.WORKERS] - ship
    assert st.card_active[cid(38)] == 1
    st.pl[0, PF.SHIP_LOAD] = -1
    stacks = int(2 * st.stacks[:, 0].sum() + st.stacks[:, 1].sum())
    load(st, r, 0, three(1))
    assert st.pl[0, PF.BRONZE] == 3 * p[AP.BRONZE_PER_ROAD_DISTRICT] and st.pl[0, PF.SILVER] == 0
    assert int(2 * st.stacks[:, 0].sum() + st.stacks[:, 1].sum()) == stacks - 3  # from the board's stacks
    assert st.pl[0, PF.WORKERS] == r.k[RK.WORKERS] - ship - p[AP.EXTRA_WORKERS]
    assert st.card_active[cid(38)] == 0


def test_card_39_one_more_faith_or_bronze_in_a_district_with_roads(blank, rules):
    """Card 39. 'Gain +1 resource or +1 bronze coin or +1 Faith token (depending on your activation
    type) when you activate a building in a District with Roads. ... For Example, with this card,
    when you activate a Church in a district with Roads, you will gain 2 Faith tokens, or when you
    activate a Market to sell 2 stone resources, you will gain 1 bronze and 1 silver coin.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 39)
    p = r.aff_p[cid(39)]
    assert p[AP.EXTRA_FAITH] == 1 and p[AP.EXTRA_BRONZE] == 1 and p[AP.EXTRA_RESOURCE] == 1
    church = act_row(r, B.CHURCH, inp=[0, 0, 0, 0, 1, 0])
    sell = act_row(r, B.MARKET, inp=[0, 2, 0, 0, 0, 0])
    put(st, r, 0, 0, B.CHURCH)  # district 0, with Roads
    put(st, r, 1, 0, B.MARKET)  # district 0
    put(st, r, 10, 1, B.MARKET)  # district 3, no Roads, next to the seat's Lot
    put(st, r, 10, 2, B.LOT, 0)
    st.roads[0] = 1
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 3
    st.pl[0, PF.FAITH] = 0
    use(st, r, 0, 39)
    # limit: a district without Roads: the usual sale, the card waits
    set_items(st, 0, stone=2)
    apply_option(st, r, 0, int(Act.ACTIVATE), sell, cell(r, 10, 1), 0)
    assert st.pl[0, PF.SILVER] == 1 and st.pl[0, PF.BRONZE] == 0 and st.card_active[cid(39)] == 1
    # the Church in the district with Roads: 2 Faith tokens
    set_items(st, 0, silver=1)
    apply_option(st, r, 0, int(Act.ACTIVATE), church, 0, 0)
    assert st.pl[0, PF.FAITH] == r.act_out[church, 8] + p[AP.EXTRA_FAITH] == 2
    assert st.card_active[cid(39)] == 0  # one activation per use
    # the Market sale of 2 stone: 1 silver and 1 bronze
    upright(st, 39)
    use(st, r, 0, 39)
    set_items(st, 0, stone=2)
    apply_option(st, r, 0, int(Act.ACTIVATE), sell, 1, 0)
    assert st.pl[0, PF.SILVER] == 1 and st.pl[0, PF.BRONZE] == p[AP.EXTRA_BRONZE]


def test_card_39_extra_resource_comes_from_the_board_grids(blank, rules):
    """Card 39 reading: '+1 of the resource type that activation yields ... Wood/stone/precious come
    from the board grids, metal and Faith from the game supply, bronze from the coin stacks.' A
    Carpentry's 2 wood and the card's 1 more all come from the wood grids."""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 39)
    put(st, r, 0, 0, B.CARPENTRY)
    st.roads[0] = 1
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 1
    set_items(st, 0)
    lo, hi = grid_range(r, 0)
    st.grids[lo:hi] = 3
    sup = int(st.supply[Sup.WOOD])
    use(st, r, 0, 39)
    apply_option(st, r, 0, int(Act.ACTIVATE), act_row(r, B.CARPENTRY, inp=[0] * 6), 0, 0)
    assert st.pl[0, PF.WOOD] == 3
    assert st.grids[lo:hi].sum() == 3 * (hi - lo) - 3 and st.supply[Sup.WOOD] == sup


def test_card_40_one_vote_per_district_with_roads(blank, rules):
    """Card 40. '⚡ Use this card before a City Council voting procedure begins. You will gain +1 vote
    for each district with Roads.' Reading: 'your vote gets +1 per district with Roads on the side
    (yes/no) you vote, none if you abstain; these votes cost no City Council points.'"""
    st, r = blank, rules
    vote_state(st)
    give(st, 0, 40)
    per = int(r.aff_p[cid(40), AP.VOTES_PER_ROAD_DISTRICT])
    assert per == 1
    st.roads[:] = 0
    st.roads[[0, 3, 7]] = 1
    st.pl[:4, PF.COUNCIL] = 10
    d = int(st.g[G.DECADE])
    vote_as(st, r, 1, SIDE_NO, 3)
    call_vote(st, r, 0, Law.SPAIN, 1)  # the legislator: yes with 1, +3 from the card
    assert st.pl[1, PF.COUNCIL] == 10 - 3  # the scripted vote: no with 3
    assert st.spain[d + 1] == 1  # 1 + 3 > 3: approved
    assert st.pl[0, PF.COUNCIL] == 10 - 1  # the card's votes are free
    assert st.card_rot[cid(40)] == 1
    # limit: a holder who abstains adds nothing (the card is played before the votes)
    clear_hands(st)
    give(st, 2, 40)
    new_vote(st)
    st.spain[:] = 0
    vote_as(st, r, 1, SIDE_NO, 3)
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.pl[1, PF.COUNCIL] == 10 - 3 - 3
    assert st.spain.sum() == 0 and st.pl[2, PF.COUNCIL] == 10  # rejected, 1 against 3


def test_card_41_coins_when_roads_are_built_in_a_district(blank, rules):
    """Card 41. '⚡ Gain 1 silver and 1 bronze coin when Roads are built in a District (2 silver coins
    if it was also closed by Walls).' Reading: 2 silver instead of 1 silver + 1 bronze."""
    st, r = blank, rules
    p = r.aff_p[cid(41)]
    assert (p[AP.SILVER], p[AP.BRONZE], p[AP.SILVER_IF_WALLS]) == (1, 1, 2)
    clear_map(st)
    clear_hands(st)
    give(st, 2, 41)
    set_items(st, 2)
    d = perimeter_district(r)
    st.roads[:] = 1
    st.roads[d] = 0
    place_road(st, r, 0)
    assert st.roads[d] == 1
    assert st.pl[2, PF.SILVER] == 1 and st.pl[2, PF.BRONZE] == 1 and st.card_rot[cid(41)] == 1
    # rotated: another road pays nothing
    st.roads[d] = 0
    place_road(st, r, 0)
    assert coin_value(st, r, 2) == 3 and st.card_uses[cid(41)] == 1
    # a district closed by Walls: 2 silver instead
    st.roads[d] = 0
    st.walls[r.seg_district == d] = 1
    upright(st, 41)
    set_items(st, 2)
    place_road(st, r, 1)
    assert st.pl[2, PF.SILVER] == 2 and st.pl[2, PF.BRONZE] == 0 and st.card_uses[cid(41)] == 2


def test_card_42_houses_or_palaces_in_a_district_with_roads(blank, rules):
    """Card 42. '⚡ You can increase your Houses value by +1 or your Palaces by +7 in a district with
    Roads. It requires the payment of 1 silver coin. With this card, it is possible to exceed the
    Houses VP value limit.'"""
    st, r = blank, rules
    assert r.aff_district[cid(42)] == 2

    def roads(st, d):
        st.roads[d] = 1

    def no_roads(st, d):
        st.roads[d] = 0

    house_palace_card(st, r, 42, roads, no_roads)
