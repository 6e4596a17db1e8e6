"""Affiliate cards 25-30, the Merchant group (CARD REFERENCE > AFFILIATE CARDS > MERCHANT CARDS): a
Market worker discount (25), up to 2 City Council workers on a grid for 1 precious (26), two trades
with 1 worker (27), the City Warehouse at 1 VP a resource (28), one more precious (29), precious
from the game supply (30).

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
    act_row,
    assert_spent,
    cid,
    clear_hands,
    clear_map,
    discount_activation,
    give,
    grid_card,
    put,
    rows,
    set_items,
    supply_card,
    upright,
    use,
)

from sim.actions import apply_option, end_turn
from sim.codes import Act, Ev
from sim.economy import coin_value, take_from_grids
from sim.rules import AP, RK
from sim.state import PF, VS, B, G, Sup


def test_card_25_market_sale_with_a_council_worker(blank, rules):
    """Card 25. 'You can do the Market or Corporation activation/construction action with the
    discount of 1 Worker. You can activate them, also if they are not adjacent to a your building.
    To gain the discount, place 1 City Council worker in your board's Market/Corporation activation
    space. If the City Council worker is not available, this card effect cannot be done.'"""
    st, r = blank, rules
    a = act_row(r, B.MARKET, inp=[0, 2, 0, 0, 0, 0])  # sell 2 stone
    set_items(st, 0, stone=2)
    discount_activation(st, r, 25, B.MARKET, a, B.CHURCH)
    assert st.pl[0, PF.STONE] == 0 and coin_value(st, r, 0) == 2 * r.act_out[a, 6] + r.act_out[a, 7]


def test_card_26_pay_1_precious_up_to_2_council_workers_on_one_grid(blank, rules):
    """Card 26. 'If City Council workers are still available in the game supply, pay 1 precious
    resource and immediately place up to 2 City Council workers in any Major Building grid.'
    Reading: 'on ONE Major Building grid of your choice ... as many as the supply has, up to 2'."""
    st, r = blank, rules
    assert r.aff_p[cid(26), AP.PAY_PRECIOUS] == 1 and r.aff_p[cid(26), AP.COUNCIL_WORKERS_MAX] == 2
    offered = grid_card(st, r, 26, ALL_GRIDS, {"precious": 1})
    assert {b for _, b in offered} == {1, 2}
    # only 1 City Council worker left: only 1 can be placed
    upright(st, 26)
    set_items(st, 0, precious=1)
    st.supply[Sup.COUNCIL_WORKERS] = 1
    assert {b for _, b in rows(st, r, 0, 26)} == {1}
    set_items(st, 0)
    assert rows(st, r, 0, 26) == []  # no precious, no option


def test_card_27_market_two_trades_with_1_worker(blank, rules):
    """Card 27. 'You can use a Market, a Corporation twice in 1 turn using 1 worker only. For
    example, with this card and 2 workers, you can sell 2 wood resources at the Market for 1 silver
    coin and sell 1 precious resource for another coin in a single action.' Reading: 'One Market OR
    one Corporation ... gives two trades (sale and/or purchase) for 1 worker'. The second trade is
    the seat's choice among those it can pay: the log names it."""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 27)
    assert r.aff_p[cid(27), AP.USES] == 2 and r.aff_p[cid(27), AP.WORKERS] == 1
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, B.MARKET)
    put(st, r, 2, 0, B.QUARRY)
    sell = act_row(r, B.MARKET, inp=[2, 0, 0, 0, 0, 0])
    st.pl[0, PF.WORKERS] = 2
    st.act_used[0, :] = 0
    use(st, r, 0, 27)
    # limit: a Quarry is not a Market or Corporation: one effect, the card still active
    set_items(st, 0)
    apply_option(st, r, 0, int(Act.ACTIVATE), act_row(r, B.QUARRY, inp=[0] * 6), 2, 0)
    assert st.pl[0, PF.STONE] == 2 and st.card_active[cid(27)] == 1
    set_items(st, 0, wood=2, precious=1)
    st.g[G.LOG_ON] = 1
    st.g[G.LOG_N] = 0
    apply_option(st, r, 0, int(Act.ACTIVATE), sell, 0, 0)
    log = st.log[:st.g[G.LOG_N]]
    trades = [int(e[2]) for e in log if e[0] == Ev.ACTIVATE and e[1] == 0]
    assert len(trades) == 2 and trades[0] == sell and r.act_b[trades[1]] == B.MARKET
    a2 = trades[1]
    assert st.pl[0, PF.WORKERS] == 0 and st.card_active[cid(27)] == 0 and st.act_used[0, 0] == 1  # 1 worker each
    # both trades applied: items = start - inputs + outputs
    rate = int(r.k[RK.BRONZE_PER_SILVER])

    def coins(v, i):
        return rate * v[i] + v[i + 1]

    start = {"wood": 2, "stone": 0, "precious": 1, "metal": 0, "coins": 0}
    for a in (sell, a2):
        i, o = r.act_in[a], r.act_out[a]
        start["wood"] += o[0] + o[3] - i[0]
        start["stone"] += o[1] + o[4] - i[1]
        start["precious"] += o[2] - i[2]
        start["metal"] += o[5] - i[3]
        start["coins"] += coins(o, 6) - coins(i, 4)
    assert (st.pl[0, PF.WOOD], st.pl[0, PF.STONE], st.pl[0, PF.PRECIOUS], st.pl[0, PF.METAL], coin_value(st, r, 0)) == (
        start["wood"], start["stone"], start["precious"], start["metal"], start["coins"])


def test_card_28_up_to_4_warehouse_resources_at_1_vp_each(blank, rules):
    """Card 28. 'Take up to 4 resources from the City Warehouse, taking a 1 VP penalty/resource
    only.' Reading: the Use City Warehouse free action with the penalty cut to 1 VP per resource
    (normally 2); taken resources not used by the end of your turn are removed."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 28)
    p = r.aff_p[cid(28)]
    assert p[AP.RESOURCES_MAX] == 4 and p[AP.VP_PENALTY_PER_RESOURCE] == 1 and r.k[RK.WAREHOUSE_VP] == -2
    st.warehouse[:] = [2, 2]
    offered = rows(st, r, 0, 28)
    assert set(offered) == {(w, s) for w in range(3) for s in range(3)} - {(0, 0)}
    set_items(st, 0, wood=1)
    vp0, wh0 = int(st.pl[0, PF.VP]), int(st.vps[0, VS.WAREHOUSE])
    sup_w, sup_s = int(st.supply[Sup.WOOD]), int(st.supply[Sup.STONE])
    use(st, r, 0, 28, 2, 2)
    assert st.warehouse.tolist() == [0, 0] and st.pl[0, PF.WOOD] == 3 and st.pl[0, PF.STONE] == 2
    assert st.pl[0, PF.VP] - vp0 == -4 and st.vps[0, VS.WAREHOUSE] - wh0 == -4  # 1 VP each, not 2
    assert_spent(st, r, 0, 28)
    # the Warehouse rule stays: unused taken resources leave at the end of the turn
    st.pl[0, PF.STONE] -= 1  # one stone spent (to the supply)
    st.supply[Sup.STONE] += 1
    end_turn(st, 0)
    assert st.pl[0, PF.WOOD] == 1 and st.pl[0, PF.STONE] == 0
    assert st.supply[Sup.WOOD] == sup_w + 2 and st.supply[Sup.STONE] == sup_s + 2
    # limit: up to 4 resources (a Warehouse holding more never gives 5), none from an empty one
    upright(st, 28)
    st.warehouse[:] = [3, 3]
    assert max(a + b for a, b in rows(st, r, 0, 28)) == 4
    st.warehouse[:] = [0, 0]
    assert rows(st, r, 0, 28) == []


def test_card_29_params_make_variants(blank, rules):
    """Card 29's rules data drive the engine: ``extra_precious`` more precious once at least
    ``min_precious_gained`` are gained (here 2 more, from a gain of 2 or more)."""
    from sim.rules import load_rules

    st, _ = blank, rules
    r = load_rules(overrides={"affiliate": {"29": {"params": {"extra_precious": 2, "min_precious_gained": 2}}}})
    clear_hands(st)
    give(st, 0, 29)
    st.grids[8] = 6
    set_items(st, 0)
    use(st, r, 0, 29)
    assert take_from_grids(st, r, 0, 2, 1) == 1 and st.card_active[cid(29)] == 1  # 1 < 2: waits
    assert take_from_grids(st, r, 0, 2, 2) == 4 and st.pl[0, PF.PRECIOUS] == 5
    assert st.grids[8] == 1 and st.card_active[cid(29)] == 0


def test_card_29_one_more_precious(blank, rules):
    """Card 29. 'If you gain at least 1 precious resource, obtain 1 more, if available. For example,
    you can use a Quarry with 2 stone resources with this card and gain 2 precious resources instead
    of 1.' Reading: 'take 1 more (one, not one per precious) from the board's precious grid; if the
    grid is empty you get nothing, and taking its last resource costs 1 VP as usual.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 29)
    p = r.aff_p[cid(29)]
    assert p[AP.MIN_PRECIOUS_GAINED] == 1 and p[AP.EXTRA_PRECIOUS] == 1
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, B.QUARRY)
    put(st, r, 2, 0, B.CARPENTRY)
    conv = act_row(r, B.QUARRY, inp=[0, 2, 0, 0, 0, 0])
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 3
    st.grids[8] = 3
    set_items(st, 0, stone=2)
    use(st, r, 0, 29)
    # limit: a wood gain is no precious gain: the card waits
    apply_option(st, r, 0, int(Act.ACTIVATE), act_row(r, B.CARPENTRY, inp=[0] * 6), 2, 0)
    assert st.pl[0, PF.PRECIOUS] == 0 and st.card_active[cid(29)] == 1
    apply_option(st, r, 0, int(Act.ACTIVATE), conv, 0, 0)
    assert st.pl[0, PF.PRECIOUS] == r.act_out[conv, 2] + p[AP.EXTRA_PRECIOUS] == 2
    assert st.grids[8] == 1 and st.card_active[cid(29)] == 0
    # limit: once per use: the next precious gain of the turn gets no extra
    assert take_from_grids(st, r, 0, 2, 1) == 1 and st.pl[0, PF.PRECIOUS] == 3
    # limit: 'if available': the grid's last precious taken, none left for the extra one
    end_turn(st, 0)
    upright(st, 29)
    use(st, r, 0, 29)
    st.grids[8] = 1
    vp = int(st.pl[0, PF.VP])
    assert take_from_grids(st, r, 0, 2, 1) == 1
    assert st.pl[0, PF.PRECIOUS] == 4 and st.pl[0, PF.VP] == vp + r.k[RK.GRID_LAST_VP]


def test_card_30_precious_from_the_game_supply(blank, rules):
    """Card 30. 'If you have to take precious resources, you can receive them from the game supply
    instead of from the board.'"""
    st, r = blank, rules
    set_items(st, 0, stone=2)
    supply_card(st, r, 30, B.QUARRY, act_row(r, B.QUARRY, inp=[0, 2, 0, 0, 0, 0]), 2)
    assert st.pl[0, PF.STONE] == 0
