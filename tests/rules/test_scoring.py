"""SCORING PHASE, VPS ASSIGNATION: Money, Faith and Military majorities, the City (Houses, Palaces,
district values), Cards series and the Character cards (CARD REFERENCE > CHARACTER CARDS), with
the rulebook's worked examples.

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

import numpy as np
from helpers import clear_map, put, scored, scoring_state, set_items

from sim.city import district_value, house_value, palace_value
from sim.codes import Ch
from sim.rules import RK, RK_KEYS, load_rules
from sim.scoring import character_base, city_total, series_base, series_parts
from sim.state import PF, VS, B, G, Mini

RK_KEYS_BY_NAME = {key.split(".")[1]: rk for rk, key in RK_KEYS.items() if key.startswith("character.")}  # [character]'s scalars


def test_money_and_faith_majorities_split_ties_rounded_down(blank, rules):
    """'Money: The richest player gains 7 VPs x Era ... If there is a tie, players split the VPs (round
    down). The richest player is the player with the most coin value.' 'Faith tokens: The player who
    owns most Faith tokens gains 7 VPs x Era: in the first era 7 VPs, in the second era 14 VPs, in the
    third Era 21 VPs. If there is a tie, players split the VPs (round down).'"""
    st, r = blank, rules
    scoring_state(st)
    set_items(st, 0, silver=3)  # 6 bronze of value
    set_items(st, 1, silver=2, bronze=2)  # 6
    set_items(st, 2, bronze=5)
    for era in (1, 2, 3):
        got = scored(st, r, era)[:4, VS.MONEY]
        share = r.k[RK.MONEY_VP] * era // 2
        assert got.tolist() == [share, share, 0, 0], era
    set_items(st, 2, bronze=7)  # now the richest alone
    assert scored(st, r, 2)[:4, VS.MONEY].tolist() == [0, 0, 2 * r.k[RK.MONEY_VP], 0]
    # faith tokens
    st.pl[:4, PF.FAITH] = [2, 3, 3, 0]
    share = 3 * r.k[RK.FAITH_VP] // 2
    assert scored(st, r, 3)[:4, VS.FAITH].tolist() == [0, share, share, 0]
    st.pl[:4, PF.FAITH] = [2, 3, 1, 0]
    assert scored(st, r, 1)[:4, VS.FAITH].tolist() == [0, r.k[RK.FAITH_VP], 0, 0]


def test_military_majority_breaks_ties_on_the_next_miniature(blank, rules):
    """'Military: The player who controls the strongest miniature (the miniature with the highest AV
    value) gains 7 VPs x Era ... If there is a tie, consider between the tying players the second
    strongest miniature, then the third, and so on. If the tie persists, the tying players split the
    VPs (round down).'"""
    st, r = blank, rules
    scoring_state(st)
    st.minis[0, 0, 0], st.minis[0, 1, 0] = Mini.SOLDIER, Mini.MILICIANO
    st.minis[1, 0, 0], st.minis[1, 1, 0] = Mini.MILICIANO_VET, Mini.SOLDIER  # order on the markers is irrelevant
    st.minis[2, :, 0] = Mini.MILICIANO_VET  # more miniatures, none as strong
    assert r.war_av[Mini.SOLDIER] > r.war_av[Mini.MILICIANO_VET] > r.war_av[Mini.MILICIANO]
    got = scored(st, r, 3)[:4, VS.MILITARY]
    assert got.tolist() == [0, 3 * r.k[RK.MILITARY_VP], 0, 0]
    st.minis[0, 1, 0] = Mini.MILICIANO_VET  # now the same miniatures: split
    got = scored(st, r, 3)[:4, VS.MILITARY]
    assert got.tolist() == [3 * r.k[RK.MILITARY_VP] // 2] * 2 + [0, 0]


def test_house_value_is_capped_by_the_district_value_which_can_be_negative(blank, rules):
    """'each House scores as many VPs as to the number of buildings of the player color in the select
    district ... This value increases of +1/Faith token ... the Houses value cannot be higher than the
    district value.' 'Each Palace scores their owner the district VP value + 10 VPs. This value
    increases of +3 VPs/Faith token' 'NOTE: City VPs can be negative!' Production: '-1 For each
    Production building (Market, Carpentry, and Quarry) excluding the first one'."""
    st, r = blank, rules
    clear_map(st)
    y, faith = 1, 2
    st.pl[y, PF.FAITH] = faith
    # N1: a House, a Lot and three production buildings
    put(st, r, 0, 0, B.HOUSE, y)
    put(st, r, 1, 0, B.LOT, y)
    put(st, r, 2, 0, B.QUARRY)
    put(st, r, 0, 1, B.MARKET)
    put(st, r, 1, 1, B.CARPENTRY)
    dv1 = district_value(st, r, 0)
    assert dv1 == 2 * r.k[RK.PRODUCTION_PENALTY] < 0
    # N2: a Palace, a House and a Monument
    put(st, r, 4, 0, B.PALACE, y)
    put(st, r, 5, 0, B.HOUSE, y)
    put(st, r, 6, 0, B.MONUMENT)
    dv2 = district_value(st, r, 1)
    assert dv2 == r.b_dv[B.MONUMENT]
    hpf, ppf = int(r.k[RK.HOUSE_PER_FAITH]), int(r.k[RK.PALACE_PER_FAITH])
    house1 = min(2 + faith * hpf, dv1)
    house2 = min(2 + faith * hpf, dv2)
    palace2 = dv2 + r.k[RK.PALACE_BASE] + faith * ppf
    assert house1 == dv1 < 0 and house2 == dv2 < 2 + faith * hpf  # both capped
    assert city_total(st, r, y) == house1 + house2 + palace2
    assert city_total(st, r, 0) == 0


def test_house_capped_by_district_value(blank, rules):
    """'If the district value were only 4 VPs, the House value would be 4 VPs only.'"""
    st = blank
    clear_map(st)
    for x in range(3):
        put(st, rules, x, 0, B.HOUSE, 1)
    st.pl[1, PF.FAITH] = 3
    assert house_value(st, rules, 1, 0, 3, 4) == 4
    assert house_value(st, rules, 1, 0, 3, 20) == 6


def test_palace_value_example(rules):
    """'the district values 8 VPs ... 1 Palace ... 1 Faith token. The Palace values 21 VPs.'"""
    assert palace_value(rules, 1, 8) == 21


def test_card_series_example_22(rules):
    """Cabildo built, Era 2: 5 red + 3 blue + yellow, green, black singles -> 22 VP."""
    counts = np.zeros(12, np.int32)
    counts[0] = 5
    counts[1] = 3
    counts[2] = counts[3] = counts[4] = 1
    assert series_base(rules, counts, True) * 2 == 22
    assert series_base(rules, counts, False) * 2 == 2 * (6 + 1)
    # '6 red cards = 9 VPs x Era = 18 VPs; 3 blue cards = 2 VP x Era = 4 VPs': two series, two VP
    # assignations (10. VP status: 'the VPs coming from a card color series')
    parts = np.zeros(12, np.int32)
    assert series_parts(rules, counts, True, parts) == 11
    assert (parts * 2).tolist() == [18, 4] + [0] * 10


def test_card_series_pairs_are_not_odd_cards(rules):
    """Cards series: 'Each player can consider any 3 odd cards of different colors as 1 card of any
    color. Please note that only single odd cards that are not part of a series (even a non scoring
    pair) can be used in this way.'"""
    counts = np.zeros(12, np.int32)
    counts[0] = 4
    counts[1] = counts[2] = 2  # pairs cannot be used as odd cards
    counts[3] = 1
    assert series_base(rules, counts, False) == 2


def _chars(st, seat, ch):
    st.pl[seat, PF.CHARACTER] = ch


def test_character_examples(blank, rules):
    """The worked examples of CARD REFERENCE > CHARACTER CARDS: Carpenter, Merchant, Sailmaker,
    General, Captain and Noblewoman."""
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
    put(st, rules, 0, 0, B.BARRACKS)
    put(st, rules, 3, 0, B.BARRACKS)
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


# each number the Carpenter, Stonemason, Merchant and Sailmaker print alike is the card's own key (issue
# 96, item 3): the key, its card, and the holdings of the card's resource (seats 0-3) whose VP it sets
OWN_NUMBERS = [
    ("carpenter_most_vp", Ch.CARPENTER, "most"), ("carpenter_more_than_all_vp", Ch.CARPENTER, "all"),
    ("stonemason_most_vp", Ch.STONEMASON, "most"), ("stonemason_more_than_all_vp", Ch.STONEMASON, "all"),
    ("merchant_most_vp", Ch.MERCHANT, "most"), ("merchant_max_vp", Ch.MERCHANT, "all"),
    ("sailmaker_most_vp", Ch.SAILMAKER, "most"), ("sailmaker_max_vp", Ch.SAILMAKER, "all"),
]
# 3 against 2 + 1 + 1: the most, not more than all the others (the Merchant's and Sailmaker's no unit above);
# 12 against 1 + 1: more than all the others (the Merchant's and Sailmaker's 5 + 10, above their max)
HOLDINGS = {"most": [3, 2, 1, 1], "all": [12, 1, 1, 0]}


def _every_character_vp(st, r) -> dict[tuple[int, str], int]:
    """Seat 0's Character VP (before x Era, 4 players) as each of the 12 Characters, at each holding of
    wood, stone, precious and metal alike."""
    out = {}
    for name, held in HOLDINGS.items():
        for s, x in enumerate(held):
            st.pl[s, PF.WOOD] = st.pl[s, PF.STONE] = st.pl[s, PF.PRECIOUS] = st.pl[s, PF.METAL] = x
        for ch in Ch:
            _chars(st, 0, int(ch))
            out[(int(ch), name)] = int(character_base(st, r, 0, 4))
    return out


def test_each_characters_own_number_moves_its_vp_alone(blank, rules):
    """A key of one Character moved by 1 moves that Character's VP, at the holding it scores, by 1, and
    no other Character's, nor the same Character's at the other holding."""
    st = blank
    clear_map(st)
    before = _every_character_vp(st, rules)
    assert before[(Ch.CARPENTER, "most")] == rules.k[RK.CH_CARPENTER_MOST]
    assert before[(Ch.SAILMAKER, "all")] == rules.k[RK.CH_SAILMAKER_MAX]
    for key, ch, holding in OWN_NUMBERS:
        moved = load_rules(overrides={"character": {key: int(rules.k[RK_KEYS_BY_NAME[key]]) + 1}})
        after = _every_character_vp(st, moved)
        assert {c: after[c] - before[c] for c in before if after[c] != before[c]} == {(int(ch), holding): 1}, key


def test_defender_roadmaker_examples(blank, rules):
    """The worked examples of CARD REFERENCE > CHARACTER CARDS: Defender ('in a 3-player game, there are
    2 Districts closed by Walls ... 5 x 2 (second Era) = 10 VPs') and Roadmaker ('in a 3-player game
    ... 4 Districts with Roads ... 9 x 3 (third Era) = 27 VPs')."""
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
    st = blank
    clear_map(st)
    _chars(st, 0, 8)
    st.g[G.CATHEDRAL_BUILT] = 1
    put(st, rules, 6, 7, B.CATHEDRAL)  # around the Plaza Mayor
    put(st, rules, 7, 7, B.CATHEDRAL)
    put(st, rules, 0, 0, B.CHURCH)
    put(st, rules, 1, 0, B.FOUNTAIN)
    assert character_base(st, rules, 0, 4) * 2 == 18
