"""Affiliate cards 73-78, the Governor group (CARD REFERENCE > AFFILIATE CARDS > GOVERNOR CARDS): City
Council workers on the Cabildo grid (73), a card counted as another colour (74), one more activation
(75), a bronze and a tension step (76), a step left on the War Penalty track (77), a bronze off a
payment (78).

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

import numpy as np
from helpers import act_row, assert_spent, cid, clear_hands, clear_map, give, grid_card, put, rows, scored, scoring_state, set_items, upright, use

from sim.actions import apply_option
from sim.codes import Act
from sim.economy import coin_value, pay_coins
from sim.rules import AP, RK
from sim.scoring import series_base, series_counts
from sim.state import N_GROUPS, PF, VS, B, G, Loc, M, Sup
from sim.war import NATIVES, PIRATES


def test_card_73_up_to_2_council_workers_on_the_cabildo_grid(blank, rules):
    """Card 73. 'If City Council workers are still available in the game supply, immediately place
    up to 2 of them on the Cabildo grid.'"""
    st, r = blank, rules
    offered = grid_card(st, r, 73, (M.CABILDO,))
    assert {a for a, _ in offered} == {M.CABILDO} and {b for _, b in offered} == {1, 2}
    upright(st, 73)
    st.major_state[M.CABILDO, 1] = 1  # the Cabildo built
    assert rows(st, r, 0, 73) == []


def test_card_74_one_card_counts_as_another_colour(blank, rules):
    """Card 74. '⚡ Consider one of your cards of a different color.' Reading: 'At a Scoring phase, one
    of your cards (Character or Affiliate, this one included) counts as a card of another colour of
    your choice for Cards series (and for Card status III's colour count), for that Scoring phase
    only.'"""
    st, r = blank, rules
    scoring_state(st)
    ch = int(st.pl[0, PF.CHARACTER])
    gov = (74 - 13) // 6
    grp = next(g for g in range(N_GROUPS) if g not in (ch, gov))
    give(st, 0, 74)
    counts = np.zeros(N_GROUPS, np.int32)
    series_counts(st, 0, counts)
    assert counts.sum() == 2 and series_base(r, counts, False) == 0  # the Character and card 74
    # limit: no colour change can score more: the card is kept
    era = 2
    assert scored(st, r, era)[0, VS.SERIES] == 0 and st.card_rot[cid(74)] == 0
    # 2 cards of one colour, 2 single ones: one single joins the pair (3 of a colour), only one card
    give(st, 0, 13 + 6 * grp)
    give(st, 0, 14 + 6 * grp)
    series_counts(st, 0, counts)
    assert series_base(r, counts, False) == 0
    got = scored(st, r, era)
    assert got[0, VS.SERIES] == r.series_vp[3] * era and r.series_vp[4] > r.series_vp[3]
    assert st.card_rot[cid(74)] == 1
    # limit: rotated, for that Scoring phase only
    assert scored(st, r, era)[0, VS.SERIES] == 0


def test_card_75_one_more_activation_with_another_worker(blank, rules):
    """Card 75. 'You can activate a building 1 additional time in a single turn. For example, with
    this card, a player can activate the same Carpentry two times using two workers.' (Unlike cards
    15, 21, 27 the extra activation takes another worker.)"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 75)
    assert r.aff_p[cid(75), AP.EXTRA_ACTIVATIONS] == 1
    conv = act_row(r, B.CARPENTRY, inp=[2, 0, 0, 0, 0, 0])
    gain = act_row(r, B.CARPENTRY, inp=[0] * 6)
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, B.CARPENTRY)
    put(st, r, 2, 0, B.CARPENTRY)
    st.act_used[0, :] = 0
    st.grids[8] = 3
    use(st, r, 0, 75)
    # limit: no worker left for the extra activation: one effect, the card waits
    st.pl[0, PF.WORKERS] = 1
    set_items(st, 0, wood=2)
    apply_option(st, r, 0, int(Act.ACTIVATE), conv, 0, 0)
    assert st.pl[0, PF.PRECIOUS] == 1 and st.pl[0, PF.WOOD] == 0 and st.card_active[cid(75)] == 1
    # two workers: the same Carpentry twice (convert, then gain)
    st.pl[0, PF.WORKERS] = 2
    set_items(st, 0, wood=2)
    apply_option(st, r, 0, int(Act.ACTIVATE), conv, 2, 0)
    assert st.pl[0, PF.PRECIOUS] == r.act_out[conv, 2] and st.pl[0, PF.WOOD] == r.act_out[gain, 0]
    assert st.pl[0, PF.WORKERS] == 0 and st.card_active[cid(75)] == 0


def test_card_76_one_bronze_and_one_tension_step(blank, rules):
    """Card 76. 'Gain 1 bronze coin and increase a tension level by 1. For example, with this card,
    the player can increase the Pirate tension level by 1 step and take 1 bronze coin from the
    board's coin stacks.'"""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 76)
    p = r.aff_p[cid(76)]
    assert p[AP.BRONZE] == 1 and p[AP.TENSION_STEPS] == 1
    assert rows(st, r, 0, 76) == [(NATIVES, 0), (PIRATES, 0)]
    st.g[G.NAT_POS] = st.g[G.PIR_POS] = 1
    set_items(st, 0)
    stacks = int(2 * st.stacks[:, 0].sum() + st.stacks[:, 1].sum())
    use(st, r, 0, 76, PIRATES)
    assert st.g[G.PIR_POS] == 2 and st.g[G.NAT_POS] == 1  # one level, by 1
    assert coin_value(st, r, 0) == 1 and st.pl[0, PF.BRONZE] == 1
    assert int(2 * st.stacks[:, 0].sum() + st.stacks[:, 1].sum()) == stacks - 1  # from the board's stacks
    assert_spent(st, r, 0, 76)


def test_card_76_tension_step_is_logged(blank, rules):
    """The game log (``trinidad play --log``) names the reason of every tension step; card 76's step
    has the reason code T_AFFILIATE."""
    from sim.log import format_log
    from sim.rules import load_rules_doc

    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 76)
    st.g[G.LOG_ON] = 1
    st.g[G.LOG_N] = 0
    use(st, r, 0, 76, NATIVES)
    lines = format_log(st, r, load_rules_doc(), ["A", "B", "C", "D"])
    assert any("tension" in line for line in lines)
    assert any("uses Affiliate #76" in line for line in lines)


def test_card_77_one_step_left_on_the_war_penalty_track(blank, rules):
    """Card 77. 'If you have negative victory points on the War penalty track, pay 1 silver coin to
    move 1 step to the left (to gain points).'"""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 77)
    p = r.aff_p[cid(77)]
    assert p[AP.PAY_SILVER] == 1 and p[AP.STEPS_LEFT] == 1
    lo = int(r.k[RK.PENALTY_MIN])
    set_items(st, 0, silver=1)
    zero = next(pos for pos in range(lo, int(r.k[RK.PENALTY_MAX]) + 1) if r.penalty_vp[pos - lo] == 0)
    st.pl[0, PF.WAR_PENALTY] = zero  # 0 VP: not negative
    assert rows(st, r, 0, 77) == []
    st.pl[0, PF.WAR_PENALTY] = zero + 2
    assert r.penalty_vp[zero + 2 - lo] < 0
    set_items(st, 0, bronze=1)  # limit: 1 silver coin is needed
    assert rows(st, r, 0, 77) == []
    set_items(st, 0, silver=1)
    assert rows(st, r, 0, 77) == [(0, 0)]
    sup = int(st.supply[Sup.SILVER])
    use(st, r, 0, 77)
    assert st.pl[0, PF.WAR_PENALTY] == zero + 1 and coin_value(st, r, 0) == 0 and st.supply[Sup.SILVER] == sup + 1
    assert_spent(st, r, 0, 77)
    # one more step brings the marker to 0 VP: then the card cannot be used any more
    upright(st, 77)
    set_items(st, 0, silver=2)
    use(st, r, 0, 77)
    assert st.pl[0, PF.WAR_PENALTY] == zero
    upright(st, 77)
    assert rows(st, r, 0, 77) == []


def test_card_78_one_bronze_off_a_payment(blank, rules):
    """Card 78. '⚡ Gain a discount of 1 bronze coin in any payment. It includes also payment due to
    other players.' Reading: 'One coin payment you make (to the supply or to a player) is reduced by
    1 bronze's worth; a cost in silver is paid with the rest in bronze (1 silver -> 1 bronze).'"""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 78)
    assert r.aff_p[cid(78), AP.BRONZE_DISCOUNT] == 1
    # limit: nothing to pay, the card is kept
    set_items(st, 0, silver=1)
    pay_coins(st, r, 0, 0)
    assert st.card_rot[cid(78)] == 0 and st.pl[0, PF.SILVER] == 1
    # limit: another player's payment is not discounted
    set_items(st, 1, silver=1)
    pay_coins(st, r, 1, 2)
    assert coin_value(st, r, 1) == 0 and st.card_rot[cid(78)] == 0
    # Improve Status to Level I costs 1 silver: the holder pays 1 bronze's worth
    st.pl[0, PF.ST_CONSTRUCTION:PF.ST_CONSTRUCTION + 4] = 0
    st.pl[0, PF.STATUS_MARKERS] = 2
    st.pl[0, PF.WORKERS] = 1
    price = int(r.k[RK.BRONZE_PER_SILVER] * r.st_silver[0])
    assert price == 2
    sup_s, sup_b = int(st.supply[Sup.SILVER]), int(st.supply[Sup.BRONZE])
    apply_option(st, r, 0, int(Act.STATUS), 0, 1, 0)
    assert st.pl[0, PF.ST_CONSTRUCTION] == 1
    assert st.pl[0, PF.SILVER] == 0 and st.pl[0, PF.BRONZE] == 1  # 1 silver paid, 1 bronze change
    assert st.supply[Sup.SILVER] == sup_s + 1 and st.supply[Sup.BRONZE] == sup_b - 1
    assert st.card_rot[cid(78)] == 1 and st.card_uses[cid(78)] == 1
    # limit: one payment per use
    pay_coins(st, r, 0, 1)
    assert coin_value(st, r, 0) == 0


def test_card_78_discount_on_a_payment_to_another_player(blank, rules):
    """Card 78: 'It includes also payment due to other players.' Reading: 'One coin payment you make
    (to the supply or to a player) is reduced by 1 bronze's worth'. Buying a card of the buyer's
    group from another player (Take a card: 1 bronze to that player) with card 78: the buyer pays 1
    bronze less, and the seller receives that payment, 1 bronze less."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 78)
    grp = int(st.pl[0, PF.CHARACTER])
    num = 13 + 6 * grp
    give(st, 1, num)
    price = int(r.k[RK.BUY_CARD_BRONZE])
    set_items(st, 0, bronze=price)
    set_items(st, 1)
    st.pl[0, PF.WORKERS] = r.k[RK.TAKE_CARD_WORKERS]
    coins0 = int(2 * st.supply[Sup.SILVER] + st.supply[Sup.BRONZE])
    apply_option(st, r, 0, int(Act.CARD_BUY), cid(num), 1, 0)
    assert st.card_loc[cid(num)] == Loc.HAND + 0 and st.card_rot[cid(78)] == 1
    assert coin_value(st, r, 0) == 1  # the buyer pays 1 bronze less
    assert coin_value(st, r, 1) == price - 1  # the seller receives the discounted payment
    assert int(2 * st.supply[Sup.SILVER] + st.supply[Sup.BRONZE]) == coins0
