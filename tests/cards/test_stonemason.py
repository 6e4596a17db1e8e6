"""Affiliate cards 19-24, the Stonemason group (CARD REFERENCE > AFFILIATE CARDS > STONECUTTER CARDS
(the rules file's Stonemason group)): a Quarry worker discount (19), a City Council worker on any
grid for 2 stone (20), a Quarry twice with 1 worker (21), a stone cost of 0 and, with card 16, both
costs 1 (22), a bronze for 3 stone at Ship Sails (23), stone from the game supply (24).

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
from helpers import (
    ALL_GRIDS,
    PALACE,
    act_row,
    cid,
    clear_hands,
    clear_map,
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
    turn_rows,
    twice_card,
    upright,
    use,
)

from sim.actions import apply_option, build_wood_stone
from sim.cardpower import spend
from sim.codes import Act
from sim.economy import coin_value, grid_range, take_from_grids
from sim.game import ship_sails
from sim.rules import AP
from sim.state import PF, B, Sup


def test_card_19_quarry_construction_with_a_council_worker(blank, rules):
    """Card 19. 'You can do the Quarry or stone Hacienda construction/activation action with the
    discount of 1 Worker.' Reading: 'One construction OR one activation ... costs 1 player worker
    less ... The no-adjacency waiver applies to the activation only; a construction keeps the
    Starting Area/adjacency placement rule.'"""
    st, r = blank, rules
    a = act_row(r, B.HACIENDA_STONE, inp=[0] * 6)  # gain stone
    set_items(st, 0)
    discount_activation(st, r, 19, B.HACIENDA_STONE, a, B.CARPENTRY)
    assert st.pl[0, PF.STONE] == r.act_out[a, 1] + r.act_out[a, 4]
    # construction: a Quarry (1 worker) for no worker of the seat's, in the Starting Area only
    clear_map(st)
    upright(st, 19)
    use(st, r, 0, 19)
    cost = r.b_cost[B.QUARRY]
    assert cost[0] == 1
    set_items(st, 0, wood=cost[1], stone=cost[2])
    quarry = turn_rows(st, r, 0, Act.BUILD)
    quarry = quarry[quarry[:, 1] == B.QUARRY]
    start = set(np.flatnonzero(r.cell_start & r.cell_buildable).tolist())
    assert {int(x) for x in quarry[:, 2]} == start  # limit: no adjacency waiver for a construction
    assert set(quarry[:, 3].tolist()) == {1 << 1}  # the discount rides above the Status-marker bit
    c = min(start)
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    apply_option(st, r, 0, int(Act.BUILD), int(B.QUARRY), c, 1 << 1)
    assert st.cell_b[c] == B.QUARRY and st.pl[0, PF.WORKERS] == 1
    assert st.supply[Sup.COUNCIL_WORKERS] == sup - 1 and st.pl[0, PF.WOOD] == 0
    assert st.card_active[cid(19)] == 0


def test_card_20_pay_2_stone_one_council_worker_on_any_grid(blank, rules):
    """Card 20. 'If City Council workers are still available in the game supply, pay 2 stone
    resources and immediately place 1 City Council worker in any Major Building grid.'"""
    st, r = blank, rules
    assert r.aff_p[cid(20), AP.PAY_STONE] == 2 and r.aff_p[cid(20), AP.COUNCIL_WORKERS] == 1
    offered = grid_card(st, r, 20, ALL_GRIDS, {"stone": 2})
    assert {b for _, b in offered} == {1}
    upright(st, 20)
    set_items(st, 0, wood=2, stone=1)
    assert rows(st, r, 0, 20) == []


def test_card_21_quarry_twice_with_1_worker(blank, rules):
    """Card 21. 'You can use a Quarry or stone Hacienda building twice in a single turn using 1
    worker only. For example, with this card you can gain from a Quarry 4 stone resource using 1
    worker.'"""
    twice_card(blank, rules, 21, B.QUARRY, 1, B.CARPENTRY)


def test_card_22_stone_cost_0_and_with_card_16_both_costs_1(blank, rules):
    """Card 22. 'One of your single costs in stone is reduced to 0. This works for 1 action only. If
    used in combination with card 16, however, both cards' effect is to reduce the cost of both
    resources to 1. For example, you can build a Palace with both cards by paying 4 workers 1 wood 1
    stone 1 precious and 1 metal resource.'"""
    st, r = blank, rules
    p = r.aff_p[cid(22)]
    assert p[AP.COST_TO] == 0 and p[AP.COMBO_STONE_TO] == 1 and r.aff_p[cid(16), AP.COMBO_WOOD_TO] == 1
    assert p[AP.COMBO_CARD] == 16 and r.aff_p[cid(16), AP.COMBO_CARD] == 22 and p[AP.ACTIONS] == 1
    c = palace_state(st, r, 22)
    give(st, 0, 16)
    cost = r.b_cost[B.PALACE]
    use(st, r, 0, 22)
    assert build_wood_stone(st, r, 0, PALACE) == (cost[1], 0)  # alone: stone 0
    use(st, r, 0, 16)
    assert build_wood_stone(st, r, 0, PALACE) == (1, 1)  # together: 1 and 1
    # limit: together the costs are 1, not 0
    set_items(st, 0, precious=cost[3], metal=cost[4])
    assert len(palace_rows(st, r, c)) == 0
    set_items(st, 0, wood=1, stone=1, precious=cost[3], metal=cost[4])
    assert len(palace_rows(st, r, c)) == 1
    apply_option(st, r, 0, int(Act.BUILD), int(B.PALACE), c, 0)
    assert st.cell_b[c] == B.PALACE
    assert (st.pl[0, PF.WOOD], st.pl[0, PF.STONE], st.pl[0, PF.PRECIOUS], st.pl[0, PF.METAL]) == (0, 0, 0, 0)
    assert st.card_active[cid(16)] == 0 and st.card_active[cid(22)] == 0  # one action, both spent


def test_cards_16_and_22_params_make_variants(blank, rules):
    """The rules data of cards 16 and 22 drive the engine: ``combo_card`` (the combination holds while
    each card names the other; without it each card keeps its own reduction) and ``actions`` (the
    constructions one use reduces, here 2: the second construction of the turn, e.g. card 51's)."""
    from sim.rules import load_rules

    st, r = blank, rules
    palace_state(st, r, 22)
    give(st, 0, 16)
    use(st, r, 0, 22)
    use(st, r, 0, 16)
    apart = load_rules(overrides={"affiliate": {"16": {"params": {"combo_card": 0}}}})
    assert build_wood_stone(st, apart, 0, PALACE) == (0, 0)  # no combination: each cost 0
    assert build_wood_stone(st, r, 0, PALACE) == (1, 1)
    twice = load_rules(overrides={"affiliate": {"22": {"params": {"actions": 2}}}})
    st.card_active[cid(16)] = 0
    st.card_rot[cid(22)] = 0
    use(st, twice, 0, 22)
    assert st.card_active[cid(22)] == 2
    spend(st, cid(22))
    assert build_wood_stone(st, twice, 0, PALACE)[1] == 0  # still reduces after one action
    spend(st, cid(22))
    assert build_wood_stone(st, twice, 0, PALACE)[1] == r.b_cost[B.PALACE, 2]


def test_card_23_extra_bronze_for_3_stone_at_ship_sails(blank, rules):
    """Card 23. '⚡ Gain 1 bronze silver coin at the Ship Sails for Spain procedure (Decade End) if
    you are selling 3 stone resources.' Reading: 1 extra bronze coin (not a silver coin), as card 17
    with stone for wood."""
    st, r = blank, rules
    clear_hands(st)
    st.spain[:] = 0
    give(st, 2, 23)
    assert r.aff_p[cid(23), AP.BRONZE] == 1 and r.aff_p[cid(23), AP.SILVER] == 0
    ld = load(st, r, 2, three(1))
    ship_sails(st, r)
    assert st.pl[2, PF.SILVER] == r.ship_pay[ld, 0] and st.pl[2, PF.BRONZE] == r.ship_pay[ld, 1] + 1
    assert st.card_rot[cid(23)] == 1
    # limit: a 3-wood load gets nothing extra; nor does another player's 3-stone load
    upright(st, 23)
    ld = load(st, r, 2, three(0))
    load(st, r, 3, three(1))
    ship_sails(st, r)
    assert coin_value(st, r, 2) == coin_value(st, r, 3) == int(2 * r.ship_pay[ld, 0] + r.ship_pay[ld, 1])
    assert st.card_rot[cid(23)] == 0 and st.card_uses[cid(23)] == 1


def test_card_24_stone_from_the_game_supply(blank, rules):
    """Card 24. 'If you have to take stone resources, you can receive them from the game supply
    instead of from the board.'"""
    st, r = blank, rules
    supply_card(st, r, 24, B.QUARRY, act_row(r, B.QUARRY, inp=[0] * 6), 1)
    upright(st, 24)
    use(st, r, 0, 24)
    lo, hi = grid_range(r, 0)
    wood = int(st.grids[lo:hi].sum())
    assert take_from_grids(st, r, 0, 0, 1) == 1 and st.grids[lo:hi].sum() == wood - 1
