"""Resource grids, coin stacks and payments (COIN STACKS AND RESOURCE GRIDS; C. END OF THE DECADE,
4. REFILL; 1 silver = 2 bronze).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

from helpers import act_row, cell, clear_map, put, set_items, stack_value, supply_coin_value

from sim.actions import activate
from sim.economy import coin_value, grid_range, take_coins, take_from_grids
from sim.game import refill
from sim.rules import RK
from sim.state import PF, VS, B, G, Sup


def test_take_from_grids_takes_all_available_up_to_the_amount(blank, rules):
    """'If all resource grids are empty, no further resources are available during this decade from
    this source. The player who takes the last resource from a grid immediately loses 1 VP'."""
    st, r = blank, rules
    lo, hi = grid_range(r, 1)  # stone grids
    st.grids[lo:hi] = 0
    st.grids[lo] = st.grids[lo + 1] = 1
    wlo, whi = grid_range(r, 0)
    wood_grids = st.grids[wlo:whi].copy()
    s0, vp0 = int(st.pl[0, PF.STONE]), int(st.pl[0, PF.VP])
    assert take_from_grids(st, r, 0, 1, 3) == 2
    assert st.pl[0, PF.STONE] == s0 + 2 and st.grids[lo:hi].sum() == 0
    assert st.pl[0, PF.VP] - vp0 == 2 * r.k[RK.GRID_LAST_VP] and st.vps[0, VS.GRID_LAST] == 2 * r.k[RK.GRID_LAST_VP]
    assert take_from_grids(st, r, 0, 1, 2) == 0 and st.pl[0, PF.STONE] == s0 + 2
    assert (st.grids[wlo:whi] == wood_grids).all()
    # taking without emptying a grid costs nothing
    st.grids[lo:hi] = 3
    vp0 = int(st.pl[0, PF.VP])
    assert take_from_grids(st, r, 0, 1, 2) == 2
    assert st.grids[lo:hi].sum() == 3 * (hi - lo) - 2 and st.pl[0, PF.VP] == vp0


def test_take_coins_all_available_and_emptying_a_stack_costs_1_vp(blank, rules):
    """'If no coins are available in any of the coin stacks, no further coins can be acquired during
    that decade. The player who empties a coin stack immediately loses 1 VP' ... 'They must take all
    coins available up to the required amount.'"""
    st, r = blank, rules
    st.stacks[:] = 0
    st.stacks[0] = [1, 0]
    set_items(st, 0)
    vp0 = int(st.pl[0, PF.VP])
    take_coins(st, r, 0, 2, 0)
    assert st.pl[0, PF.SILVER] == 1 and st.pl[0, PF.BRONZE] == 0
    assert st.stacks.sum() == 0 and st.pl[0, PF.VP] - vp0 == r.k[RK.GRID_LAST_VP]
    take_coins(st, r, 0, 1, 1)
    assert coin_value(st, r, 0) == 2 and st.pl[0, PF.VP] - vp0 == r.k[RK.GRID_LAST_VP]


def test_bronze_from_a_silver_stack_makes_change(blank, rules):
    """'When you need a bronze coin from a board stack of silver coins, take 1 silver coin and place it
    in the game supply. Then take 2 bronze coins from the game supply and add 1 to your reserve and 1
    to the same coin stack. In this case the player has not emptied the stack and does not lose a VP.'"""
    st, r = blank, rules
    st.stacks[:] = 0
    st.stacks[2] = [1, 0]
    ss, sb = int(st.supply[Sup.SILVER]), int(st.supply[Sup.BRONZE])
    silver0, bronze0, vp0 = int(st.pl[0, PF.SILVER]), int(st.pl[0, PF.BRONZE]), int(st.pl[0, PF.VP])
    take_coins(st, r, 0, 0, 1)
    assert st.stacks[2].tolist() == [0, 1]
    assert st.pl[0, PF.BRONZE] == bronze0 + 1 and st.pl[0, PF.SILVER] == silver0
    assert st.supply[Sup.SILVER] == ss + 1 and st.supply[Sup.BRONZE] == sb - 2
    assert st.pl[0, PF.VP] == vp0


def test_spent_items_go_to_the_supply_acquired_ones_come_from_the_board(blank, rules):
    """'When a player acquires resources ... he/she must take them from the resource grids on the
    board, while sold/used resources must be put in the game supply.' 'Acquired coins must be taken
    from coin stacks on the board, and used coins must be placed in the game supply.'"""
    st, r = blank, rules
    clear_map(st)
    put(st, r, 4, 2, B.MARKET)
    c = cell(r, 4, 2)
    sell = act_row(r, B.MARKET, inp=[2, 0, 0, 0, 0, 0])  # sell 2 wood
    buy = act_row(r, B.MARKET, inp=[0, 0, 0, 0, 1, 0], out=[2, 0, 0, 0, 0, 0, 0, 0, 0])  # buy 2 wood
    set_items(st, 0, wood=r.act_in[sell, 0])
    sup, stacks, grids = st.supply.copy(), stack_value(st), st.grids.copy()
    activate(st, r, 0, sell, c)
    gain = int(2 * r.act_out[sell, 6] + r.act_out[sell, 7])
    assert gain > 0 and coin_value(st, r, 0) == gain and st.pl[0, PF.WOOD] == 0
    assert st.supply[Sup.WOOD] == sup[Sup.WOOD] + r.act_in[sell, 0]
    assert stack_value(st) == stacks - gain and supply_coin_value(st) == 2 * sup[Sup.SILVER] + sup[Sup.BRONZE]
    assert (st.grids == grids).all()
    st.act_used[0, c] = 0
    set_items(st, 0, silver=r.act_in[buy, 4])
    sup, stacks = st.supply.copy(), stack_value(st)
    activate(st, r, 0, buy, c)
    assert coin_value(st, r, 0) == 0 and st.pl[0, PF.WOOD] == r.act_out[buy, 0]
    assert st.supply[Sup.SILVER] == sup[Sup.SILVER] + r.act_in[buy, 4] and stack_value(st) == stacks
    wlo, whi = grid_range(r, 0)
    assert st.grids[wlo:whi].sum() == grids[wlo:whi].sum() - r.act_out[buy, 0] and st.supply[Sup.WOOD] == sup[Sup.WOOD]


def test_refill_only_empty_grids_and_stacks_and_the_warehouse(blank, rules):
    """'Refill the empty resource grids with resources (stone/wood: 3/5/6/7 resources per grid in
    2/3/4/5 players; precious: 1 resource per player) and empty coin stacks with 1 silver coin per
    player. IMPORTANT! Refill only the empty grids/stacks! Every grid/stack with 1 or more
    resources/coin (bronze or silver) must remain as it is.' 'Refill the City Warehouse to have 2 wood
    and 2 stone resources.'"""
    st, r = blank, rules
    n = int(st.g[G.NPLAYERS])
    cubes = int(r.grid_cubes[n - 2])
    slo, shi = grid_range(r, 1)
    wlo, whi = grid_range(r, 0)
    # emptied items go back to the supply (as if taken and spent), so that the refill can be made
    st.supply[Sup.STONE] += st.grids[slo:shi].sum() - 3
    st.grids[slo:shi] = [0, 1, 0, 2]
    st.supply[Sup.WOOD] += st.grids[wlo:whi].sum() - 5 + st.warehouse[0]
    st.grids[wlo:whi] = [1, 0, 3, 1]
    st.supply[Sup.PRECIOUS] += st.grids[8]
    st.grids[8] = 0
    st.supply[Sup.SILVER] += st.stacks[:, 0].sum() - 1
    st.supply[Sup.BRONZE] += st.stacks[:, 1].sum() - 1
    st.stacks[:] = [[0, 0], [0, 1], [1, 0], [0, 0]]
    st.supply[Sup.STONE] += st.warehouse[1] - 1
    st.warehouse[:] = [0, 1]
    refill(st, r, n, False)
    assert st.grids[slo:shi].tolist() == [cubes, 1, cubes, 2]
    assert st.grids[wlo:whi].tolist() == [1, cubes, 3, 1]
    assert st.grids[8] == n * r.k[RK.PRECIOUS_PER_PLAYER]
    per = int(n * r.k[RK.SILVER_PER_STACK])
    assert st.stacks.tolist() == [[per, 0], [0, 1], [1, 0], [per, 0]]
    assert st.warehouse.tolist() == [r.k[RK.WAREHOUSE_WOOD], r.k[RK.WAREHOUSE_STONE]]


def test_paying_an_odd_amount_with_silver_gives_bronze_change(blank, rules):
    """Coins: 1 silver = game.bronze_per_silver bronze. Paying 1 bronze with only silver: a silver goes
    to the supply and the change comes back in bronze from the supply."""
    from sim.economy import pay_coins

    st, r = blank, rules
    rate = int(r.k[RK.BRONZE_PER_SILVER])
    assert rate == 2
    set_items(st, 0, silver=2)
    sup_s, sup_b = int(st.supply[Sup.SILVER]), int(st.supply[Sup.BRONZE])
    assert coin_value(st, r, 0) == 2 * rate
    pay_coins(st, r, 0, 1)
    assert st.pl[0, PF.SILVER] == 1 and st.pl[0, PF.BRONZE] == rate - 1
    assert st.supply[Sup.SILVER] == sup_s + 1 and st.supply[Sup.BRONZE] == sup_b - (rate - 1)
    pay_coins(st, r, 0, rate)  # 1 silver's worth: the silver itself, the bronze is kept
    assert st.pl[0, PF.SILVER] == 0 and st.pl[0, PF.BRONZE] == rate - 1
