"""Affiliate cards 13-18, the Carpenter group (CARD REFERENCE > AFFILIATE CARDS > CARPENTER CARDS): a
Carpentry worker discount (13), a City Council worker on any grid for 2 wood (14), a Carpentry twice
with 1 worker (15), a wood cost of 0 (16), a bronze for 3 wood at Ship Sails (17), wood from the
game supply (18).

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
    PALACE,
    act_row,
    cid,
    clear_hands,
    discount_activation,
    give,
    grid_card,
    load,
    palace_rows,
    palace_state,
    rows,
    set_items,
    supply_card,
    three,
    twice_card,
    upright,
    use,
)

from sim.actions import apply_option, build_wood_stone
from sim.codes import Act
from sim.economy import coin_value, grid_range, take_from_grids
from sim.game import ship_sails
from sim.rules import AP
from sim.state import PF, B, Sup


def test_card_13_carpentry_activation_with_a_council_worker_far_from_own_buildings(blank, rules):
    """Card 13. 'You can do the Carpentry/Wood Hacienda construction/activation action with the
    discount of 1 Worker. You can activate them, also if they are not adjacent to a your building.
    ... If the City Council worker is not available, this card effect cannot be done.' Reading: 'One
    construction OR one activation of a Carpentry or Wood Hacienda costs 1 player worker less: 1 City
    Council worker from the supply stands in for it'."""
    st, r = blank, rules
    a = act_row(r, B.CARPENTRY, inp=[0] * 6)  # gain 2 wood
    set_items(st, 0)
    discount_activation(st, r, 13, B.CARPENTRY, a, B.QUARRY)
    assert st.pl[0, PF.WOOD] == r.act_out[a, 0]


def test_card_14_pay_2_wood_one_council_worker_on_any_grid(blank, rules):
    """Card 14. 'If City Council workers are still available in the game supply, pay 2 wood
    resources and immediately place 1 City Council worker in any Major Building grid. This City
    Council worker will count for completing the grid but will not provide you any VPs.'"""
    st, r = blank, rules
    assert r.aff_p[cid(14), AP.PAY_WOOD] == 2 and r.aff_p[cid(14), AP.COUNCIL_WORKERS] == 1
    offered = grid_card(st, r, 14, ALL_GRIDS, {"wood": 2})
    assert {b for _, b in offered} == {1}
    # limit: 2 wood are needed (1 wood, or 2 stone, is not enough)
    upright(st, 14)
    set_items(st, 0, wood=1, stone=2)
    assert rows(st, r, 0, 14) == []


def test_card_15_carpentry_twice_with_1_worker(blank, rules):
    """Card 15. 'You can use a Carpentry or Wood Hacienda building twice in a single turn using 1
    worker only. For example, at Carpentry, with this card, you can gain 2 wood resources and convert
    them immediately into 1 precious resource using 1 Worker only.'"""
    twice_card(blank, rules, 15, B.CARPENTRY, 0, B.QUARRY)


def test_card_16_wood_cost_of_one_construction_is_0(blank, rules):
    """Card 16. 'One of your single costs in wood is reduced to 0. This works for 1 action only. ...
    For example, you can build a palace with this card alone by paying 4 workers 3 stone 1 precious
    and 1 metal resource.'"""
    st, r = blank, rules
    p = r.aff_p[cid(16)]
    assert p[AP.COST_TO] == 0 and p[AP.ACTIONS] == 1
    c = palace_state(st, r, 16)
    cost = r.b_cost[B.PALACE]
    assert cost[1] > 0
    set_items(st, 0, stone=cost[2], precious=cost[3], metal=cost[4])
    assert len(palace_rows(st, r, c)) == 0  # no wood
    use(st, r, 0, 16)
    assert build_wood_stone(st, r, 0, PALACE) == (0, cost[2])
    assert len(palace_rows(st, r, c)) == 1
    apply_option(st, r, 0, int(Act.BUILD), int(B.PALACE), c, 0)
    assert st.cell_b[c] == B.PALACE and st.pl[0, PF.WORKERS] == 0
    assert (st.pl[0, PF.WOOD], st.pl[0, PF.STONE], st.pl[0, PF.PRECIOUS], st.pl[0, PF.METAL]) == (0, 0, 0, 0)
    # limit: 1 action only: the next construction pays its wood
    assert st.card_active[cid(16)] == 0
    assert build_wood_stone(st, r, 0, PALACE) == (cost[1], cost[2])


def test_card_17_extra_bronze_for_3_wood_at_ship_sails(blank, rules):
    """Card 17. '⚡ Gain 1 extra bronze coin at the Ship Sails for Spain procedure (Decade End) if you
    are selling 3 wood resources.'"""
    st, r = blank, rules
    clear_hands(st)
    st.spain[:] = 0
    give(st, 1, 17)
    assert r.aff_p[cid(17), AP.BRONZE] == 1
    assert st.order[0] == 0
    ld = load(st, r, 0, three(0))  # not the holder, paid first
    load(st, r, 1, three(0))
    ship_sails(st, r)
    pay = int(2 * r.ship_pay[ld, 0] + r.ship_pay[ld, 1])
    assert coin_value(st, r, 0) == pay
    assert coin_value(st, r, 1) == pay + 1 and st.pl[1, PF.BRONZE] == r.ship_pay[ld, 1] + 1
    assert st.card_rot[cid(17)] == 1 and st.card_uses[cid(17)] == 1
    # limit: only when selling 3 wood (a 3-stone load gets nothing extra, the card is kept)
    upright(st, 17)
    ld = load(st, r, 1, three(1))
    ship_sails(st, r)
    assert coin_value(st, r, 1) == int(2 * r.ship_pay[ld, 0] + r.ship_pay[ld, 1])
    assert st.card_rot[cid(17)] == 0 and st.card_uses[cid(17)] == 1


def test_card_18_wood_from_the_game_supply(blank, rules):
    """Card 18. 'If you have to take wood resources, you can receive them from the game supply
    instead of from the board.'"""
    st, r = blank, rules
    supply_card(st, r, 18, B.CARPENTRY, act_row(r, B.CARPENTRY, inp=[0] * 6), 0)
    # limit: wood only: stone still comes from the board
    upright(st, 18)
    use(st, r, 0, 18)
    lo, hi = grid_range(r, 1)
    stones = int(st.grids[lo:hi].sum())
    assert take_from_grids(st, r, 0, 1, 1) == 1 and st.grids[lo:hi].sum() == stones - 1


def test_card_18_short_supply_the_rest_comes_from_the_board(blank, rules):
    """Card 18 reading: 'you may take any or all of them from the game supply instead of the board
    grids'. With 1 wood left in the game supply and 2 wood to take, the player takes 1 from the
    supply and 1 from the board (COIN STACKS AND RESOURCE GRIDS: take all available up to the
    amount), not 1 wood in all."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 18)
    use(st, r, 0, 18)
    lo, hi = grid_range(r, 0)
    st.grids[lo:hi] = 3
    st.supply[Sup.WOOD] = 1
    set_items(st, 0)
    assert take_from_grids(st, r, 0, 0, 2) == 2
    assert st.pl[0, PF.WOOD] == 2 and st.supply[Sup.WOOD] == 0 and st.grids[lo:hi].sum() == 3 * (hi - lo) - 1
