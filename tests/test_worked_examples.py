"""Every base-game worked example of the rulebook, on hand-built states."""

from __future__ import annotations

import numpy as np
from helpers import clear_map

from sim.rules import RK
from sim.state import PF, VS, B, G, Loc, Mini

W_ = 12  # map width


def cell(x, y):
    return y * W_ + x


def put(st, x, y, b, owner=-1):
    st.cell_b[cell(x, y)] = b
    st.cell_owner[cell(x, y)] = owner


def test_district_value_example(blank, rules):
    """'a district with a Cathedral (+5), Barracks (+2), a Church (+2), Monument (+2), Quarry (0,
    first production building), and Market (-1) has a value of 10 VPs.'"""
    from sim.city import district_value

    st = blank
    clear_map(st)
    put(st, 4, 3, B.CATHEDRAL)
    put(st, 4, 4, B.CATHEDRAL)
    st.g[G.CATHEDRAL_BUILT] = 1
    put(st, 3, 3, B.BARRACKS)
    put(st, 5, 3, B.CHURCH)
    put(st, 3, 4, B.MONUMENT)
    put(st, 3, 5, B.QUARRY)
    put(st, 4, 5, B.MARKET)
    assert district_value(st, rules, 5) == 10  # S2
    put(st, 4, 5, B.NONE)
    assert district_value(st, rules, 5) == 11  # a single production building costs nothing


def test_cathedral_split_gives_two_each(blank, rules):
    from sim.city import district_value

    st = blank
    clear_map(st)
    put(st, 5, 3, B.CATHEDRAL)
    put(st, 6, 3, B.CATHEDRAL)
    assert district_value(st, rules, 5) == 2 and district_value(st, rules, 6) == 2


def test_city_scoring_example_50(blank, rules):
    """District value 10; Yellow owns 1 Lot, 3 Houses, 1 Palace and a marked Monument there and 2
    Faith tokens: Houses 8 each (24) + Palace 26 = 50. Built in N1 with Fort (+5), closed Walls (+5),
    Monument (+2), Quarry (0), Market (-1), Carpentry (-1) = 10 (a 3x3 district cannot hold the
    rulebook's own layout and Yellow's six buildings)."""
    from sim.city import district_value
    from sim.scoring import city_total

    st = blank
    clear_map(st)
    y = 2
    st.g[G.FORT_BUILT] = 1
    for s in range(rules.seg_district.shape[0]):
        if rules.seg_district[s] == 0:
            st.walls[s] = 1
    put(st, 0, 0, B.LOT, y)
    put(st, 1, 0, B.HOUSE, y)
    put(st, 2, 0, B.HOUSE, y)
    put(st, 0, 1, B.HOUSE, y)
    put(st, 1, 1, B.PALACE, y)
    put(st, 2, 1, B.MONUMENT, y)
    put(st, 0, 2, B.QUARRY)
    put(st, 1, 2, B.MARKET)
    put(st, 2, 2, B.CARPENTRY)
    st.pl[y, PF.FAITH] = 2
    assert district_value(st, rules, 0) == 10
    assert city_total(st, rules, y) == 50


def test_house_capped_by_district_value(blank, rules):
    """'If the district value were only 4 VPs, the House value would be 4 VPs only.'"""
    from sim.city import house_value

    st = blank
    clear_map(st)
    for x in range(3):
        put(st, x, 0, B.HOUSE, 1)
    st.pl[1, PF.FAITH] = 3
    assert house_value(st, rules, 1, 0, 3, 4) == 4
    assert house_value(st, rules, 1, 0, 3, 20) == 6


def test_palace_value_example(rules):
    """'the district values 8 VPs ... 1 Palace ... 1 Faith token. The Palace values 21 VPs.'"""
    from sim.city import palace_value

    assert palace_value(rules, 1, 8) == 21


def test_card_series_example_22(rules):
    """Cabildo built, Era 2: 5 red + 3 blue + yellow, green, black singles -> 22 VP."""
    from sim.scoring import series_base

    counts = np.zeros(12, np.int32)
    counts[0] = 5
    counts[1] = 3
    counts[2] = counts[3] = counts[4] = 1
    assert series_base(rules, counts, True) * 2 == 22
    assert series_base(rules, counts, False) * 2 == 2 * (6 + 1)


def test_card_series_pairs_are_not_odd_cards(rules):
    from sim.scoring import series_base

    counts = np.zeros(12, np.int32)
    counts[0] = 4
    counts[1] = counts[2] = 2  # pairs cannot be used as odd cards
    counts[3] = 1
    assert series_base(rules, counts, False) == 2


def test_card_status_iii_example_45(rules):
    """'a 4-player game ... 10 x 1.5 x 3 = 45' (the example names 11 colours but computes with 10:
    the arithmetic is taken as the rule, see the closing note)."""
    n_colours = 10
    assert n_colours * rules.card_l3_half[4 - 2] * 3 // 2 == 45
    assert n_colours * rules.card_l3_half[3 - 2] * 3 // 2 == 30


def test_council_vote_red_loses_8(blank, rules):
    """Red at council 1 uses 4 votes: -3 -> loses 8 VP, back to 1. Green/Red win 4 VP each in Era 2."""
    from sim.council import SIDE_NO, SIDE_YES, council_cost, tally

    st = blank
    sides = np.array([SIDE_NO, SIDE_NO, SIDE_YES, SIDE_YES, 0], np.int32)
    votes = np.array([2, 1, 4, 1, 0], np.int32)
    approved, yes, no, by_council = tally(st, rules, 4, sides, votes)
    assert approved and yes == 5 and no == 3 and not by_council
    st.pl[2, PF.COUNCIL] = 1
    vp0 = st.pl[2, PF.VP]
    council_cost(st, rules, 2, 4)
    assert st.pl[2, PF.VP] - vp0 == -8 and st.pl[2, PF.COUNCIL] == 1
    assert rules.k[RK.VOTE_VP_PER_ERA] * 2 // 2 == 4


def test_council_tie_on_council_values(blank, rules):
    """Green NO 3 vs Yellow YES 2 + Blue YES 1: tie; council 12 (Green) vs 7 + 6: approved."""
    from sim.council import SIDE_ABSTAIN, SIDE_NO, SIDE_YES, tally

    st = blank
    sides = np.array([SIDE_ABSTAIN, SIDE_NO, SIDE_YES, SIDE_YES, 0], np.int32)
    votes = np.array([0, 3, 2, 1, 0], np.int32)
    st.pl[1, PF.COUNCIL] = 12
    st.pl[2, PF.COUNCIL] = 7
    st.pl[3, PF.COUNCIL] = 6
    approved, yes, no, by_council = tally(st, rules, 4, sides, votes)
    assert approved and by_council and yes == no == 3
    st.pl[3, PF.COUNCIL] = 5  # 12 vs 12: still tied -> rejected
    approved, *_ = tally(st, rules, 4, sides, votes)
    assert not approved


def test_council_zero_votes_rejected(blank, rules):
    from sim.council import tally

    st = blank
    approved, *_ = tally(st, rules, 4, np.zeros(5, np.int32), np.zeros(5, np.int32))
    assert not approved


def test_council_value_5_paying_7(blank, rules):
    """'council value is 5 ... must pay 7 ... it becomes -2, they lose 6 VPs, and then 1.'"""
    from sim.council import council_cost

    st = blank
    st.pl[1, PF.COUNCIL] = 5
    vp0 = st.pl[1, PF.VP]
    council_cost(st, rules, 1, 7)
    assert st.pl[1, PF.VP] - vp0 == -6 and st.pl[1, PF.COUNCIL] == 1


def test_salary_example_arithmetic(blank, rules):
    """7 cards -> 3 bronze; discard 2 -> 5 cards -> 2 bronze; pay 1 (covers 3): 2 unpaid = -4 VP."""
    per = rules.k[RK.SALARY_PER_BRONZE]
    assert -(-7 // per) == 3 and -(-5 // per) == 2
    assert (5 - per * 1) * rules.k[RK.SALARY_VP] == -4


def test_salary_banners_example(blank, rules):
    """'owns 5 Affiliate cards and gained 2 banners: ignore 2 cards, pay 1 bronze for the 3 left.'"""
    from sim.cards import salary_free

    st = blank
    st.pl[0, PF.BANNER_RED] = 2
    st.pl[0, PF.BANNER_BLUE] = 2
    st.pl[0, PF.BANNER_OCHER] = 1  # face-down: no discount
    assert salary_free(st, rules, 0) == 2
    st.pl[0, PF.ST_CARDS] = 3
    assert salary_free(st, rules, 0) == 5


def _chars(st, seat, ch):
    st.pl[seat, PF.CHARACTER] = ch


def test_character_examples(blank, rules):
    from sim.scoring import character_base

    st = blank
    clear_map(st)
    n = 4
    # Carpenter: 8 wood vs 1 + 3 + 2 = 6 -> 8 x 2 = 16
    _chars(st, 0, 0)
    for s, w in enumerate([8, 1, 3, 2]):
        st.pl[s, PF.WOOD] = w
    assert character_base(st, rules, 0, n) * 2 == 16
    st.pl[1, PF.WOOD] = 3  # 8 vs 8: only the most
    assert character_base(st, rules, 0, n) == 5
    # Merchant: 3 precious, the only one -> 8 x Era
    _chars(st, 0, 2)
    st.pl[:, PF.PRECIOUS] = 0
    st.pl[0, PF.PRECIOUS] = 3
    assert character_base(st, rules, 0, n) == 8
    # Sailmaker: 4 metal vs 2 + 1 -> 6 x Era
    _chars(st, 0, 5)
    for s, m in enumerate([4, 2, 1, 0]):
        st.pl[s, PF.METAL] = m
    assert character_base(st, rules, 0, n) == 6
    # General, 4 players: Fort + 2 Barracks -> 7 x 2 = 14
    _chars(st, 0, 6)
    st.g[G.FORT_BUILT] = 1
    put(st, 0, 0, B.BARRACKS)
    put(st, 3, 0, B.BARRACKS)
    assert character_base(st, rules, 0, n) * 2 == 14
    # Captain: won a war this era -> 8 x 3 = 24
    _chars(st, 0, 7)
    st.pl[0, PF.WARS_WON_ERA] = 1
    assert character_base(st, rules, 0, n) * 3 == 24
    # Noblewoman: 10 x Era with no war in the era
    _chars(st, 0, 11)
    st.g[G.WARS_ERA] = 0
    assert character_base(st, rules, 0, n) == 10
    st.g[G.WARS_ERA] = 1
    assert character_base(st, rules, 0, n) == 0


def test_defender_roadmaker_examples(blank, rules):
    from sim.scoring import character_base

    st = blank
    clear_map(st)
    # Defender, 3 players, 2 closed districts, Era 2: (2 x 2 + 1) x 2 = 10
    _chars(st, 0, 3)
    for s in range(rules.seg_district.shape[0]):
        if rules.seg_district[s] in (1, 2):
            st.walls[s] = 1
    assert character_base(st, rules, 0, 3) * 2 == 10
    assert character_base(st, rules, 0, 4) * 2 == 8
    # Roadmaker, 3 players, 4 districts with Roads, Era 3: (8 + 1) x 3 = 27
    _chars(st, 0, 4)
    st.roads[:4] = 1
    assert character_base(st, rules, 0, 3) * 3 == 27


def test_bishop_example(blank, rules):
    """Cathedral, 1 Church, 1 Fountain adjacent to the Church, 4 players, Era 2: 9 x 2 = 18."""
    from sim.scoring import character_base

    st = blank
    clear_map(st)
    _chars(st, 0, 8)
    st.g[G.CATHEDRAL_BUILT] = 1
    put(st, 4, 3, B.CATHEDRAL)
    put(st, 5, 3, B.CATHEDRAL)
    put(st, 0, 0, B.CHURCH)
    put(st, 1, 0, B.FOUNTAIN)
    assert character_base(st, rules, 0, 4) * 2 == 18


def test_architect_example(blank, rules):
    """A district with 8 different buildings (house, palace, quarry, walls, market, square,
    monument, Cabildo), 4 players, Era 3: 5 x 3 = 15."""
    from sim.scoring import character_base

    st = blank
    clear_map(st)
    _chars(st, 0, 9)
    # S2 (cols 3-5, rows 3-5) holds the Cabildo space (4,3); walls: use N1 instead, which has a perimeter
    put(st, 0, 0, B.HOUSE, 1)
    put(st, 1, 0, B.PALACE, 1)
    put(st, 2, 0, B.QUARRY)
    put(st, 0, 1, B.MARKET)
    put(st, 1, 1, B.SQUARE)
    put(st, 2, 1, B.MONUMENT)
    put(st, 0, 2, B.CABILDO)
    st.walls[0] = 1
    assert character_base(st, rules, 0, 4) * 3 == 15
    st.walls[:] = 0  # 7 types: 3 x Era
    assert character_base(st, rules, 0, 4) == 3


def test_governor_example(blank, rules):
    """A district with 3 free spaces (half full) and a full one, 4 players, Era 3: 8 x 3 = 24."""
    from sim.scoring import character_base

    st = blank
    clear_map(st)
    _chars(st, 0, 10)
    for i, (x, y) in enumerate([(x, y) for y in range(3) for x in range(3)]):
        put(st, x, y, B.LOT, 1)
    for x, y in [(3, 0), (4, 0), (5, 0), (3, 1), (4, 1), (5, 1)]:
        put(st, x, y, B.SQUARE)
    assert character_base(st, rules, 0, 4) * 3 == 24


def test_war_example_wa_3(blank, rules):
    """WA 3: Yellow's two Milicianos (AV 2) lose by 1 (War Penalty +1) and both fall; Green's
    Soldier (AV 3) wins and takes 1 wound."""
    from sim.war import NATIVES, fight

    st = blank
    yellow, green = 2, 3
    for s in (yellow, green):
        st.card_loc[12:] = np.where(st.card_loc[12:] == Loc.HAND + s, Loc.DECK, st.card_loc[12:])
        st.minis[s, :, :] = 0
    st.minis[yellow, 0, 0] = Mini.MILICIANO
    st.minis[yellow, 1, 0] = Mini.MILICIANO
    st.minis[green, 0, 0] = Mini.SOLDIER
    fight(st, rules, yellow, 3, NATIVES)
    fight(st, rules, green, 3, NATIVES)
    assert st.pl[yellow, PF.WAR_PENALTY] == 1
    assert (st.minis[yellow, :, 0] == Mini.NONE).all()
    assert st.pl[green, PF.WAR_PENALTY] == -1 and st.pl[green, PF.BANNER_RED] == 1
    assert st.minis[green, 0, 0] == Mini.SOLDIER and st.minis[green, 0, 1] == 1


def test_war_attack_example(rules):
    """'if the War Tension modifier marker is on +2 space, the WA value in a War with Natives will be 4.'"""
    assert rules.k[RK.ATTACK_NATIVES] + rules.ten_single[7] == 4


def test_vp_status_bonus(blank, rules):
    """VP status I/II/III: +25 % / +50 % / +150 % (rounded down) on one VP assignation a decade."""
    from sim.core import gain_vp

    st = blank
    for lvl, bonus in ((1, 2), (2, 5), (3, 15)):
        st.pl[0, PF.ST_VP] = lvl
        st.pl[0, PF.USED_VP_STATUS] = 0
        vp0 = st.pl[0, PF.VP]
        gain_vp(st, rules, 0, 10, VS.MONEY)  # greedy uses the bonus
        assert st.pl[0, PF.VP] - vp0 == 10 + bonus
        vp0 = st.pl[0, PF.VP]
        gain_vp(st, rules, 0, 10, VS.MONEY)  # once per decade
        assert st.pl[0, PF.VP] - vp0 == 10


def test_recover_workers_minus_12(blank, rules):
    """'placed 3 workers in the Cathedral grid ... remove them. He immediately loses 12 VPs.'"""
    from sim.major import recover_workers_free
    from sim.state import M

    st = blank
    st.major[M.CATHEDRAL, :3] = 2
    st.pl[2, PF.WORKERS] -= 3
    vp0 = st.pl[2, PF.VP]
    recover_workers_free(st, rules, 2, M.CATHEDRAL)
    assert st.pl[2, PF.VP] - vp0 == -12 and st.pl[2, PF.WORKERS] == rules.k[RK.WORKERS]


def test_city_warehouse_minus_4(blank, rules):
    """'takes 2 wood resources from City Warehouse and takes a -4 VPs penalty.'"""
    from sim.actions import apply_option, end_turn
    from sim.codes import Act
    from sim.core import pay_resources

    st = blank
    vp0 = st.pl[1, PF.VP]
    w0 = st.pl[1, PF.WOOD]
    apply_option(st, rules, 1, Act.F_WAREHOUSE, 0, 0, 0)
    apply_option(st, rules, 1, Act.F_WAREHOUSE, 0, 0, 0)
    assert st.pl[1, PF.VP] - vp0 == -4 and st.pl[1, PF.WOOD] == w0 + 2
    pay_resources(st, 1, 1, 0, 0, 0, 0)  # used one to pay a cost
    end_turn(st, 1)
    assert st.pl[1, PF.WOOD] == w0  # +2 taken, 1 spent, the unused one went back to the supply
