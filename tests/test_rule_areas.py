"""Unit tests per rule area (issue 2): the map, resource grids and coin stacks, the Ship, status
powers, the City Council laws, war and scoring, on hand-built states with the kernels called
directly. Every test quotes the rulebook sentence it checks; every number comes from the rules
record (``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence itself is the number.

Decisions go through the seats' policy (the ``blank`` fixture seats greedy players); the states
are built so that every choice the policy could make leads to the asserted outcome, or a
test-local weight row in ``st.w`` scripts the choices (the salary worked example).
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import act_row, cell, clear_map, deck_card, put, quiet_deck, set_items, stack_deck, turn_rows

from sim.actions import activate, activation_ok, apply_option, end_turn, ship_workers
from sim.cards import PILE_GAME, back_symbols, draw_and_keep, n_affiliates, nonempty_piles, pay_salary, salary_free, top_of
from sim.city import adjacent_to_own, can_activate_at, can_build_at, count_type, district_closed, district_value, mark_near_own, n_closed_districts
from sim.codes import Act, Law
from sim.core import CCW, coin_value, gain_vp, grid_range, pay_plan, pay_resources, take_coins, take_from_grids, workers_available
from sim.council import apply_law, call_vote, can_call_vote, council_cost, law_options
from sim.game import refill, ship_sails
from sim.major import major_open, n_spaces, place_on_grid, recover_completed
from sim.rules import RK
from sim.scoring import city_total, score_era
from sim.state import N_CARDS, N_CHARACTERS, PF, VS, B, G, Loc, M, Mini, Sup
from sim.war import NATIVES, PIRATES, advance_tension, fight, tension_and_war, tension_modifier, tension_step, war_faction
from strategies.policy import FAMILY_GREEDY, F, default_weights

# ----------------------------------------------------------------------------- helpers


def stack_value(st):
    return int(2 * st.stacks[:, 0].sum() + st.stacks[:, 1].sum())


def supply_coin_value(st):
    return int(2 * st.supply[Sup.SILVER] + st.supply[Sup.BRONZE])


def set_affiliates(st, seat, n):
    """Make the seat hold exactly n Affiliate cards (extra ones go back to the deck)."""
    hand = [c for c in range(N_CHARACTERS, N_CARDS) if st.card_loc[c] == Loc.HAND + seat]
    for c in hand[n:]:
        st.card_loc[c] = Loc.DECK
    need = n - min(n, len(hand))
    for c in range(N_CHARACTERS, N_CARDS):
        if need == 0:
            break
        if st.card_loc[c] == Loc.DECK:
            st.card_loc[c] = Loc.HAND + seat
            st.card_rot[c] = 0
            need -= 1
    assert n_affiliates(st, seat) == n


def pile_size(st, seat):
    return int((st.card_loc == Loc.PILE + seat).sum())


def row_by_put(r, pred):
    for ld in range(r.ship_put.shape[0]):
        if pred(r.ship_put[ld]):
            return ld
    raise AssertionError("no such ship load")


# ============================================================================= 1. the map


def test_adjacency_is_the_8_neighbours_across_district_borders(blank, rules):
    """'The player must select an empty space inside the Starting Area OR adjacent to a building
    they own (Lot, House, Palace, Monument or Fountain of their color).' 'ADJACENT SPACE: Any of the
    8 spaces around a selected space.' Activation: 'The activated building must be adjacent (on one
    of the surrounding 8 spaces) to a building of the player color'."""
    st, r = blank, rules
    clear_map(st)
    nc = st.cell_b.shape[0]
    x0, y0 = 2, 4  # S1's east column: three of its neighbours lie in S2
    put(st, r, x0, y0, B.LOT, 0)
    nbrs = {cell(r, x0 + dx, y0 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy}
    assert len(nbrs) == 8
    assert len({int(r.cell_district[c]) for c in nbrs}) == 2  # across a district border
    start = set(np.flatnonzero(r.cell_start).tolist())
    expect = {c for c in range(nc) if r.cell_buildable[c] and (c in start or c in nbrs)}
    assert {c for c in range(nc) if can_build_at(st, r, 0, c)} == expect
    # another player's Lot gives no adjacency
    assert {c for c in range(nc) if can_build_at(st, r, 1, c)} == start
    # activation needs adjacency: the Starting Area alone is not enough
    assert {c for c in range(nc) if can_activate_at(st, r, 0, c)} == nbrs
    assert not any(can_activate_at(st, r, 1, c) for c in start)
    # a Monument counts only when marked with the player's Status marker
    far = cell(r, 10, 1)
    assert not can_build_at(st, r, 0, far)
    put(st, r, 9, 0, B.MONUMENT, -1)
    assert not can_build_at(st, r, 0, far)
    put(st, r, 9, 0, B.MONUMENT, 0)
    assert can_build_at(st, r, 0, far) and can_activate_at(st, r, 0, far)


def test_near_own_mask_is_adjacency_on_every_space(blank, rules):
    """The TURN listing finds 'adjacent to a building they own' with one mask per decision
    (city.mark_near_own); on a crowded map with every kind of owner it must equal the per-space
    scan (city.adjacent_to_own) for every seat and every space."""
    st, r = blank, rules
    rng = np.random.default_rng(7)
    nc = st.cell_b.shape[0]
    kinds = [B.LOT, B.HOUSE, B.PALACE, B.MONUMENT, B.FOUNTAIN, B.QUARRY, B.CHURCH]
    near = np.zeros(nc, np.int32)
    seen = set()
    for _ in range(5):
        clear_map(st)
        for c in rng.choice(nc, size=nc // 3, replace=False):
            st.cell_b[c] = kinds[rng.integers(len(kinds))]
            st.cell_owner[c] = rng.integers(-1, 4)
        for seat in range(4):
            mark_near_own(st, r, seat, near)
            scan = [int(adjacent_to_own(st, r, seat, c)) for c in range(nc)]
            assert near.tolist() == scan
            seen.add(sum(scan))
    assert len(seen) > 5 and max(seen) < nc  # neither empty nor full: the check has teeth


def test_activatable_buildings_are_those_with_activation_rows(rules):
    """2. Minor building activation: the production and service buildings (Quarry to Church) are
    activated; Lots, Houses, Palaces, the Square, Monuments, Fountains and the Major buildings are
    not. city.activatable decides which spaces the TURN listing's activation pass visits, so it
    must name exactly the building types the rules give activation rows."""
    from sim.city import activatable

    for b in B:
        assert activatable(int(b)) == (rules.act_nrows[int(b)] > 0), b.name
    assert sum(activatable(int(b)) for b in B) == 8


def test_own_spaces_kept_across_decisions_follow_every_map_change(blank, rules):
    """city.own_spaces keeps each seat's spaces, its 'adjacent to a building they own' mask and
    its buildable spaces by (building there, district) while the map stays the same. After any
    change of a building, an owner or a Road, one at a time (the way the game changes the map),
    it must give what a fresh scan gives: the spaces with cell_owner == seat in map order,
    adjacent_to_own on every space, the count and first space of minor_space_ok spaces, and the
    spaces with an activatable building the seat may activate there, in map order."""
    from sim.city import activatable, activation_place_ok, minor_space_ok, own_spaces

    st, r = blank, rules
    rng = np.random.default_rng(11)
    nc = st.cell_b.shape[0]
    kinds = [B.NONE, B.LOT, B.HOUSE, B.PALACE, B.MONUMENT, B.FOUNTAIN, B.QUARRY, B.CHURCH]
    clear_map(st)
    st.own_key[:] = 0  # a blank state's memo is empty
    moved = 0
    counted = 0
    act_changes = 0
    activatable_seen = 0
    for step in range(600):
        c = int(rng.integers(nc))
        if step % 3 == 0:
            st.cell_b[c] = kinds[rng.integers(len(kinds))]
        elif step % 3 == 1:
            st.cell_owner[c] = rng.integers(-1, 4)
        else:
            d = int(rng.integers(st.roads.shape[0]))
            st.roads[d] = 1 - st.roads[d]
        for seat in range(4):
            before = (st.own_near[seat].copy(), st.own_cnt[seat].copy(), st.own_act[seat, :st.own_key[seat, -1]].tolist())
            n = own_spaces(st, r, int(seat))
            assert st.own_list[seat, :n].tolist() == [x for x in range(nc) if st.cell_owner[x] == seat]
            near = [int(adjacent_to_own(st, r, seat, x)) for x in range(nc)]
            assert st.own_near[seat].tolist() == near
            cnt = np.zeros_like(st.own_cnt[seat])
            first = np.full_like(st.own_first[seat], -1)
            for x in range(nc):
                if minor_space_ok(st, r, seat, x, near[x] == 1):
                    b, dd = st.cell_b[x], r.cell_district[x] + 1
                    first[b, dd] = x if cnt[b, dd] == 0 else first[b, dd]
                    cnt[b, dd] += 1
            np.testing.assert_array_equal(st.own_cnt[seat], cnt, err_msg=f"step {step}, seat {seat}")
            np.testing.assert_array_equal(st.own_first[seat], first, err_msg=f"step {step}, seat {seat}")
            acts = [x for x in range(nc) if activatable(st.cell_b[x]) and activation_place_ok(st, r, x, near[x] == 1)]
            assert st.own_act[seat, :st.own_key[seat, -1]].tolist() == acts, f"step {step}, seat {seat}"
            moved += not np.array_equal(before[0], st.own_near[seat])
            counted += not np.array_equal(before[1], st.own_cnt[seat])
            activatable_seen = max(activatable_seen, len(acts))
            act_changes += acts != before[2]
    # the memo did change along the way, Roads included: one that never refreshed would fail
    assert moved > 100 and counted > 200 and act_changes > 100 and activatable_seen > 3, (moved, counted, act_changes, activatable_seen)


def test_first_building_goes_in_the_starting_area(blank, rules):
    """'STARTING AREA: The red spaces at the center of the city map.' 'The player must select an
    empty space inside the Starting Area OR adjacent to a building they own'."""
    st, r = blank, rules
    clear_map(st)
    start = set(np.flatnonzero(r.cell_start).tolist())
    rows = turn_rows(st, r, 0, Act.BUILD)
    new_types = {int(t) for t in rows[:, 1] if r.b_requires[t] == 0}
    assert B.LOT in new_types and len(new_types) > 1
    for t in new_types:
        assert {int(c) for c in rows[rows[:, 1] == t, 2]} == start, t
    # an occupied space is not offered, and an upgrade needs the replaced building
    c = min(start)
    put(st, r, c % int(r.k[RK.MAP_W]), c // int(r.k[RK.MAP_W]), B.SQUARE)
    rows = turn_rows(st, r, 0, Act.BUILD)
    lot_cells = {int(x) for x in rows[rows[:, 1] == B.LOT, 2]}
    assert lot_cells == start - {c}
    assert not (rows[:, 1] == B.HOUSE).any()  # no own Lot yet


def test_plaza_mayor_is_never_built_on(blank, rules):
    """'The four spaces on the map above the Fort space form the Plaza Mayor ... They remain empty
    and no building can be built upon them.' (even with Roads, which let players 'freely build')."""
    st, r = blank, rules
    clear_map(st)
    st.roads[:] = 1
    put(st, r, 4, 4, B.LOT, 0)  # own Lots next to the Plaza Mayor
    put(st, r, 7, 5, B.LOT, 0)
    plaza = set(np.flatnonzero(r.cell_plaza).tolist())
    assert len(plaza) == 4
    assert not any(can_build_at(st, r, 0, c) for c in plaza)
    rows = turn_rows(st, r, 0, Act.BUILD)
    built_on = {int(c) for c in rows[:, 2]}
    assert built_on and not (built_on & plaza)
    assert cell(r, 4, 5) in built_on  # the spaces around the Plaza are fine
    assert all(r.cell_district[c] >= 0 for c in built_on)  # nor below it (the Fort row)


def test_walls_close_a_district_only_when_all_its_segments_hold_a_wall(blank, rules):
    """'If the district's external side(s) are entirely protected by walls, the district is closed
    by walls and gains +5 VPs to its VP value' ... 'only the 6 districts along the city perimeters
    can be closed by walls; the two Central districts cannot gain the related VPs bonus.'"""
    st, r = blank, rules
    clear_map(st)
    bonus = int(r.k[RK.DISTRICT_BONUS])
    for d in range(r.district_nseg.shape[0]):
        st.walls[:] = 0
        base = district_value(st, r, d)
        segs = np.flatnonzero(r.seg_district == d)
        st.walls[:] = 1
        if len(segs) == 0:  # a central district
            assert not district_closed(st, r, d) and district_value(st, r, d) == base
            continue
        for missing in segs:  # every other wall on the perimeter, one of this district's missing
            st.walls[:] = 1
            st.walls[missing] = 0
            assert not district_closed(st, r, d), (d, missing)
            assert district_value(st, r, d) == base
        st.walls[:] = 0
        st.walls[segs] = 1  # this district's own segments are enough
        assert district_closed(st, r, d) and district_value(st, r, d) == base + bonus
        assert n_closed_districts(st, r) == 1
    st.walls[:] = 1
    assert n_closed_districts(st, r) == 6


def test_completing_the_walls_grid_places_up_to_5_walls(blank, rules):
    """'This grid can be completed multiple times, as long as wall miniatures are available in the
    game supply. Once a Wall grid is completed, up to 5 wall miniatures are freely placed on the
    external perimeter of the City.'"""
    st, r = blank, rules
    clear_map(st)
    n = n_spaces(st, r, M.WALLS)
    sup0 = int(st.supply[Sup.WALLS])
    vp0 = int(st.pl[0, PF.VP])
    place_on_grid(st, r, 0, M.WALLS, n)
    per = int(r.k[RK.WALLS_PER_COMPLETION])
    assert st.walls.sum() == per and st.supply[Sup.WALLS] == sup0 - per
    assert st.pl[0, PF.VP] - vp0 == r.major_first_vp[M.WALLS]
    assert not major_open(st, r, M.WALLS)  # completed: workers come back at Recover Workers
    recover_completed(st, r)
    assert major_open(st, r, M.WALLS)
    st.supply[Sup.WALLS] = 2  # fewer miniatures than a completion places
    place_on_grid(st, r, 0, M.WALLS, n)
    assert st.walls.sum() == per + 2 and st.supply[Sup.WALLS] == 0
    recover_completed(st, r)
    assert not major_open(st, r, M.WALLS)  # no wall miniature left


def test_roads_let_anyone_build_and_activate_in_the_district(blank, rules):
    """'A district with Roads gains +5 VPs to its VP value during the Scoring phase. In addition to
    this, the players can freely build and activate any building in this district, no matter if
    they have an adjacent building.'"""
    st, r = blank, rules
    clear_map(st)
    quarry = cell(r, 0, 0)  # N1, far from the Starting Area
    put(st, r, 0, 0, B.QUARRY)
    free = cell(r, 1, 1)
    other = cell(r, 4, 0)  # N2
    d = int(r.cell_district[quarry])
    assert r.cell_district[other] != d
    assert not can_build_at(st, r, 0, free) and not can_activate_at(st, r, 0, quarry)
    assert not (turn_rows(st, r, 0, Act.ACTIVATE)[:, 2] == quarry).any()
    base = district_value(st, r, d)
    st.roads[d] = 1
    assert can_build_at(st, r, 0, free) and can_activate_at(st, r, 0, quarry)
    assert not can_build_at(st, r, 0, other)
    assert (turn_rows(st, r, 0, Act.ACTIVATE)[:, 2] == quarry).any()
    assert district_value(st, r, d) == base + r.k[RK.DISTRICT_BONUS]
    # 'The player who completed the Road grid chooses a District without Roads and places a District
    # Road marker on the corresponding space of the mini-map' ... 'as long as District Road markers are available.'
    st.roads[:] = 1
    st.roads[2] = 0  # the only district without Roads
    sup0 = int(st.supply[Sup.ROAD_MARKERS])
    place_on_grid(st, r, 1, M.ROADS, n_spaces(st, r, M.ROADS))
    assert st.roads.all() and st.supply[Sup.ROAD_MARKERS] == sup0 - 1
    recover_completed(st, r)
    assert not major_open(st, r, M.ROADS)  # every district has Roads


# ============================================================================= 2. grids and coin stacks


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


def test_unused_city_warehouse_cubes_leave_at_the_end_of_the_turn(blank, rules):
    """'A player can take any number of resources available in the City Warehouse spaces of the
    board. For each resource taken, the player loses 2 VPs as a penalty. If these resources are not
    used before the end of the player turn they are removed to the general supply.'"""
    st, r = blank, rules
    st.warehouse[:] = [r.k[RK.WAREHOUSE_WOOD], r.k[RK.WAREHOUSE_STONE]]
    s0, vp0, sup0 = int(st.pl[2, PF.STONE]), int(st.pl[2, PF.VP]), int(st.supply[Sup.STONE])
    n = int(st.warehouse[1])
    assert n >= 2
    for _ in range(n):
        apply_option(st, r, 2, Act.F_WAREHOUSE, 1, 0, 0)
    assert st.warehouse[1] == 0 and st.pl[2, PF.STONE] == s0 + n
    assert st.pl[2, PF.VP] - vp0 == n * r.k[RK.WAREHOUSE_VP]
    pay_resources(st, 2, 0, 1, 0, 0, 0)  # one cube used during the turn
    end_turn(st, 2)
    assert st.pl[2, PF.STONE] == s0  # the player's own stone is untouched
    assert st.supply[Sup.STONE] == sup0 + n  # 1 spent + the unused ones removed
    assert st.warehouse[1] == 0  # back only at C.4 Refill
    assert st.pl[2, PF.VP] - vp0 == n * r.k[RK.WAREHOUSE_VP]


# ============================================================================= 3. the Ship


@pytest.mark.parametrize("spain", ["none", "current", "next"])
def test_ship_loads_and_pay_out(blank, rules, spain):
    """'a player can load on the Dock 3 wood or 3 stone resources, or a resources triplet (1 wood,
    1 stone, and 1 precious), or 1.5 silver coins (1 silver and 1 bronze coin).' 'At the end of the
    Decade, the players are paid: 1 silver and 1 bronze coin for any 3 wood (or stone) resources,
    1 metal resource for every triplet ..., or 1 faith token for each 1.5 silver coins ... Then the
    resources and coins on the ship are moved to the game supply.' 'Metal resources and faith tokens
    are taken from the game supply, while coins are taken from the main board coin stacks.'
    Spain support Act: 'When a cube is in the current decade, players who loaded elements on the Ship
    will receive 1 additional metal resource (for a triplet) or 1 extra silver coin (for three
    identical resources) or 1 extra faith token (for 1.5 silver coins).'"""
    st, r = blank, rules
    base = [ld for ld in range(r.ship_put.shape[0]) if r.ship_needs[ld] < 0]  # loads open without a Major building
    nl = len(base)
    assert base == list(range(nl)) and nl <= st.g[G.NPLAYERS]  # one load per seat
    d = int(st.g[G.DECADE])
    if spain == "current":
        st.spain[d] = 1
    elif spain == "next":
        st.spain[d + 1] = 1
    for seat in range(nl):
        p = r.ship_put[seat]
        set_items(st, seat, wood=p[0], stone=p[1], precious=p[2], silver=p[3], bronze=p[4])
        st.pl[seat, PF.FAITH] = 0
        assert seat in turn_rows(st, r, seat, Act.SHIP)[:, 1]
        apply_option(st, r, seat, Act.SHIP, seat, 0, 0)
        assert st.pl[seat, PF.WOOD:PF.BRONZE + 1].sum() == 0
        assert st.dock[seat] == p.sum() <= r.k[RK.SHIP_MAX_ELEMENTS]
    put = r.ship_put[base].sum(axis=0)
    sup, stacks = st.supply.copy(), stack_value(st)
    ship_sails(st, r)
    paid = np.zeros(4, np.int64)
    for seat in range(nl):
        pay = r.ship_pay[seat] + (r.ship_spain[seat] if spain == "current" else 0)
        got = [st.pl[seat, PF.SILVER], st.pl[seat, PF.BRONZE], st.pl[seat, PF.METAL], st.pl[seat, PF.FAITH]]
        assert got == pay.tolist(), (seat, spain)
        assert st.dock[seat] == 0 and st.pl[seat, PF.SHIP_LOAD] == -1
        paid += pay
    # the three kinds of load: identical resources -> coins, triplet -> metal, coins -> faith
    identical = row_by_put(r, lambda p: p[0] == p.sum())
    triplet = row_by_put(r, lambda p: p[0] > 0 and p[1] > 0 and p[2] > 0)
    coins = row_by_put(r, lambda p: p[3] + p[4] == p.sum())
    assert r.ship_pay[identical, :2].tolist() == [1, 1] and r.ship_pay[triplet, 2] == 1 and r.ship_pay[coins, 3] == 1
    if spain == "current":
        assert r.ship_spain[identical, 0] == 1 and r.ship_spain[triplet, 2] == 1 and r.ship_spain[coins, 3] == 1
    # Black banner: 'When a player does the Load the Ship action with a triplet and gain 1 metal resource,
    # they gain the black banner: place it face-down on the player board.'
    assert [int(st.pl[seat, PF.BANNER_BLACK]) for seat in range(nl)] == [int(seat == triplet) for seat in range(nl)]
    # dock to the supply; metal and faith from the supply; coins from the board's stacks
    assert st.supply[Sup.WOOD] == sup[Sup.WOOD] + put[0] and st.supply[Sup.STONE] == sup[Sup.STONE] + put[1]
    assert st.supply[Sup.PRECIOUS] == sup[Sup.PRECIOUS] + put[2]
    assert supply_coin_value(st) == 2 * sup[Sup.SILVER] + sup[Sup.BRONZE] + 2 * put[3] + put[4]
    assert stack_value(st) == stacks - (2 * paid[0] + paid[1])
    assert st.supply[Sup.METAL] == sup[Sup.METAL] - paid[2] and st.supply[Sup.FAITH] == sup[Sup.FAITH] - paid[3]


def test_one_load_of_at_most_3_elements_per_player_and_decade(blank, rules):
    """'It's not possible to load more than 3 elements (resources and/or coins) for each player or
    other elements combination.'"""
    st, r = blank, rules
    mx = int(r.k[RK.SHIP_MAX_ELEMENTS])
    assert (r.ship_put.sum(axis=1) <= mx).all()
    set_items(st, 0, wood=9, stone=9, precious=9, silver=9, bronze=9)
    rows = turn_rows(st, r, 0, Act.SHIP)
    base = [ld for ld in range(r.ship_put.shape[0]) if r.ship_needs[ld] < 0]  # the Cathedral row is not open yet
    assert sorted(rows[:, 1].tolist()) == base
    apply_option(st, r, 0, Act.SHIP, int(rows[0, 1]), 0, 0)
    assert len(turn_rows(st, r, 0, Act.SHIP)) == 0  # a second load would pass 3 elements
    r2 = r.copy()  # a load of more than 3 elements is never offered
    r2.ship_put[0] = [mx + 1, 0, 0, 0, 0]
    set_items(st, 1, wood=9, stone=9, precious=9, silver=9, bronze=9)
    loads = set(turn_rows(st, r2, 1, Act.SHIP)[:, 1].tolist())
    assert 0 not in loads and loads == set(base) - {0}


def test_harbor_makes_loading_cost_1_worker(blank, rules):
    """'Placing 2 Workers in the Dock area of the board, a player can load ...' 'If the Harbor has been
    built (see the Major Building section), this action only costs 1 Worker.'"""
    st, r = blank, rules
    w_h = int(r.k[RK.SHIP_WORKERS_HARBOR])
    assert w_h < r.k[RK.SHIP_WORKERS]
    set_items(st, 0, wood=3, stone=3, precious=1)
    st.pl[0, PF.WORKERS] = w_h
    assert ship_workers(st, r) == r.k[RK.SHIP_WORKERS]
    assert len(turn_rows(st, r, 0, Act.SHIP)) == 0
    st.g[G.HARBOR_BUILT] = 1
    assert ship_workers(st, r) == w_h
    rows = turn_rows(st, r, 0, Act.SHIP)
    assert len(rows) > 0
    apply_option(st, r, 0, Act.SHIP, int(rows[0, 1]), 0, 0)
    assert st.pl[0, PF.WORKERS] == 0 and st.pl[0, PF.WORKERS_PLACED] == w_h


def test_cathedral_lowers_the_ship_faith_load_by_1_bronze(blank, rules):
    """Cathedral: 'It decreases the Faith tokens cost from Harbor and Church of 1 bronze coin.' The
    Church row does it (1 bronze instead of 1 silver); the Harbor's (the Dock's) faith load of
    1.5 silver coins should then cost 1 silver coin."""
    st, r = blank, rules
    coins = row_by_put(r, lambda p: p[3] == 1 and p[4] == 1 and p.sum() == 2)
    cheap = row_by_put(r, lambda p: p[3] == 1 and p.sum() == 1)
    assert r.ship_pay[coins].tolist() == r.ship_pay[cheap].tolist()  # the same Faith token
    set_items(st, 0, silver=1, bronze=1)
    offered = turn_rows(st, r, 0, Act.SHIP)[:, 1].tolist()
    assert coins in offered and cheap not in offered  # no Cathedral: 1.5 silver coins
    st.g[G.CATHEDRAL_BUILT] = 1
    st.major_state[M.CATHEDRAL, 1] = 1
    set_items(st, 0, silver=1)
    offered = turn_rows(st, r, 0, Act.SHIP)[:, 1].tolist()
    assert cheap in offered and coins not in offered  # Cathedral: 1 silver coin
    apply_option(st, r, 0, Act.SHIP, cheap, 0, 0)
    assert st.pl[0, PF.SILVER] == 0 and st.dock[0] == 1


# ============================================================================= 4. status powers


def test_construction_status_swaps(blank, rules):
    """Construction status. 'Level I The player can consider a wood resource like a stone resource (and
    viceversa) 1 time per Decade. Level II In addition to the Level I action power, the player can
    consider a wood or stone resource like a precious resource (and viceversa) 1 time per Decade.
    Level III In addition ..., the player can consider a wood or stone resource like a metal resource
    (and viceversa) 1 time per Decade.'"""
    st, r = blank, rules
    house = r.b_cost[B.HOUSE, 1:]  # wood, stone, precious, metal
    assert house[0] > 0 and house[1] > 0 and house[2:].sum() == 0
    set_items(st, 0, wood=house[0] + house[1])
    assert pay_plan(st, 0, *house, 1) < 0  # no status: no swap
    st.pl[0, PF.ST_CONSTRUCTION] = 1
    plan = pay_plan(st, 0, *house, 1)
    assert plan >= 0
    sup = int(st.supply[Sup.WOOD])
    pay_resources(st, 0, *house, plan)
    assert st.pl[0, PF.WOOD] == 0 and st.pl[0, PF.STONE] == 0 and st.supply[Sup.WOOD] == sup + house[0] + house[1]
    assert st.pl[0, PF.USED_SWAP1] == 1
    set_items(st, 0, wood=house[0] + house[1])
    assert pay_plan(st, 0, *house, 1) < 0  # once per decade
    # Level II: stone as precious (and Level I still there)
    monument = r.b_cost[B.MONUMENT, 1:]
    assert monument[2] > 0
    set_items(st, 1, stone=monument[1] + monument[2])
    st.pl[1, PF.ST_CONSTRUCTION] = 1
    assert pay_plan(st, 1, *monument, 1) < 0
    st.pl[1, PF.ST_CONSTRUCTION] = 2
    plan = pay_plan(st, 1, *monument, 1)
    assert plan >= 0
    pay_resources(st, 1, *monument, plan)
    assert st.pl[1, PF.STONE] == 0 and st.pl[1, PF.PRECIOUS] == 0 and st.pl[1, PF.USED_SWAP2] == 1
    set_items(st, 1, wood=house[0] + house[1])
    assert pay_plan(st, 1, *house, 1) >= 0
    # Level III: wood as metal, and metal as wood (viceversa)
    set_items(st, 2, wood=1)
    st.pl[2, PF.ST_CONSTRUCTION] = 2
    assert pay_plan(st, 2, 0, 0, 0, 1, 1) < 0
    st.pl[2, PF.ST_CONSTRUCTION] = 3
    plan = pay_plan(st, 2, 0, 0, 0, 1, 1)
    assert plan >= 0
    pay_resources(st, 2, 0, 0, 0, 1, plan)
    assert st.pl[2, PF.WOOD] == 0 and st.pl[2, PF.METAL] == 0 and st.pl[2, PF.USED_SWAP3] == 1
    set_items(st, 3, metal=1)
    st.pl[3, PF.ST_CONSTRUCTION] = 3
    assert pay_plan(st, 3, 1, 0, 0, 0, 1) >= 0
    # 'Sales require real resources. Any effect that produces a discount ... does not apply'
    sell_stone = act_row(r, B.MARKET, inp=[0, 2, 0, 0, 0, 0])
    set_items(st, 3, wood=2)
    assert not activation_ok(st, r, 3, sell_stone)
    set_items(st, 3, stone=2)
    assert activation_ok(st, r, 3, sell_stone)
    # Ship: 'To Load the Ship, real resources or coins are required. Any effect that produces a discount
    # (or considers a resource or coin type equivalent to another one) does not apply to this action.'
    three_wood = row_by_put(r, lambda p: p[0] == p.sum())
    need = int(r.ship_put[three_wood, 0])
    set_items(st, 3, wood=need - 1, stone=3, precious=3, metal=3)
    assert three_wood not in turn_rows(st, r, 3, Act.SHIP)[:, 1]
    st.pl[3, PF.WOOD] = need
    assert three_wood in turn_rows(st, r, 3, Act.SHIP)[:, 1]


def test_worker_status_council_workers(blank, rules):
    """Worker status. 'Level I 1 time per decade, the player gains 1 City Council Worker, if available
    in the game, paying 1 bronze coin to the game supply. This worker can be used like other player
    workers' 'Level II The Level I action is available spending 1 bronze coin OR 1 resource
    (wood/stone).' 'Level III The Level I action is doubled and free: the player can use up to 2 City
    Council Workers for free 1 time per decade.'"""
    st, r = blank, rules

    def pays(seat):
        return set(turn_rows(st, r, seat, Act.F_CC_WORKER)[:, 1].tolist())

    assert pays(0) == set()
    # Level I: bronze only
    st.pl[0, PF.ST_WORKER] = 1
    assert pays(0) == {0}
    cv, sb, cc, avail = coin_value(st, r, 0), int(st.supply[Sup.BRONZE]), int(st.supply[Sup.COUNCIL_WORKERS]), workers_available(st, 0)
    apply_option(st, r, 0, Act.F_CC_WORKER, 0, 0, 0)
    assert coin_value(st, r, 0) == cv - r.worker_bronze[0] and st.supply[Sup.BRONZE] == sb + r.worker_bronze[0]
    assert st.pl[0, PF.CC_WORKERS] == r.worker_cc[0] and st.supply[Sup.COUNCIL_WORKERS] == cc - r.worker_cc[0]
    assert workers_available(st, 0) == avail + r.worker_cc[0]
    assert pays(0) == set()  # once per decade
    # Level II: bronze, or a wood or a stone
    st.pl[1, PF.ST_WORKER] = 2
    assert pays(1) == {0, 1, 2}
    w, cv = int(st.pl[1, PF.WOOD]), coin_value(st, r, 1)
    apply_option(st, r, 1, Act.F_CC_WORKER, 1, 0, 0)
    assert st.pl[1, PF.WOOD] == w - 1 and coin_value(st, r, 1) == cv and st.pl[1, PF.CC_WORKERS] == r.worker_cc[1]
    # Level III: two, free
    st.pl[2, PF.ST_WORKER] = 3
    assert pays(2) == {3}
    cv, w, s = coin_value(st, r, 2), int(st.pl[2, PF.WOOD]), int(st.pl[2, PF.STONE])
    apply_option(st, r, 2, Act.F_CC_WORKER, 3, 0, 0)
    assert st.pl[2, PF.CC_WORKERS] == r.worker_cc[2] == 2
    assert (coin_value(st, r, 2), st.pl[2, PF.WOOD], st.pl[2, PF.STONE]) == (cv, w, s)
    # 'if available in the game'
    st.pl[3, PF.ST_WORKER] = 1
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert pays(3) == set()


def test_vp_status_bonus_rounds_down_and_waits_for_a_gain(blank, rules):
    """VP status. 'Level I 1 time per decade, the player gains a bonus of 25% on the VPs from a single
    source (rounded down). This bonus applies to a single VPs assignation.'"""
    st, r = blank, rules
    pct = int(r.vp_bonus_pct[0])
    st.pl[0, PF.ST_VP] = 1
    vp0 = int(st.pl[0, PF.VP])
    gain_vp(st, r, 0, -4, VS.SALARY)  # a loss gets no bonus
    small = 100 // pct - 1  # 25 % of it rounds down to 0
    gain_vp(st, r, 0, small, VS.MONEY)
    assert st.pl[0, PF.VP] - vp0 == small - 4 and st.pl[0, PF.USED_VP_STATUS] == 0
    big = 4 * (100 // pct)
    gain_vp(st, r, 0, big, VS.MONEY)
    assert st.pl[0, PF.VP] - vp0 == small - 4 + big + big * pct // 100
    assert st.vps[0, VS.VP_STATUS] == big * pct // 100 and st.pl[0, PF.USED_VP_STATUS] == 1


def test_card_status_ignores_cards_for_the_salary(blank, rules):
    """Cards status. 'Level I ... The player can also ignore 1 Affiliate card in the salaries payment
    procedure.' 'Level II ... (for a total of 2 free cards).' 'Level III ... (for a total of 3 free
    cards).'"""
    st, r = blank, rules
    per = int(r.k[RK.SALARY_PER_BRONZE])
    for lvl in (1, 2, 3):
        seat = lvl - 1
        free = int(r.card_free[lvl - 1])
        assert free == lvl
        set_affiliates(st, seat, free + per)
        set_items(st, seat, bronze=1)  # enough only with the free cards
        assert salary_free(st, r, seat) == 0
        st.pl[seat, PF.ST_CARDS] = lvl
        assert salary_free(st, r, seat) == free
        vp0 = int(st.pl[seat, PF.VP])
        pay_salary(st, r, seat)
        assert coin_value(st, r, seat) == 0 and st.pl[seat, PF.VP] == vp0
        assert n_affiliates(st, seat) == free + per


def test_card_status_extra_draw_and_free_reactivation(blank, rules):
    """Cards status. 'Level I 1 time per Decade, the player can draw 1 additional card when they have to
    draw cards from the deck (this doesn't influence the number of cards they can keep).' 'Level II In
    addition to the Level I action power, 1 time per decade, the player can do the Reactivate cards
    action as a free action with no cost.'"""
    st, r = blank, rules
    n = int(r.k[RK.DRAW])

    def drawn(seat):
        h, p = n_affiliates(st, seat), pile_size(st, seat)
        draw_and_keep(st, r, seat, n)
        kept = n_affiliates(st, seat) - h
        assert kept <= 1
        return kept + pile_size(st, seat) - p

    st.pl[0, PF.ST_CARDS] = 1
    assert drawn(0) == n + r.k[RK.CARD_EXTRA_DRAW]
    assert drawn(0) == n  # once per decade
    assert drawn(1) == n  # no status
    # Level II: Reactivate Cards as a free action, once per decade
    assert len(turn_rows(st, r, 0, Act.F_FREE_REACT)) == 0
    st.pl[0, PF.ST_CARDS] = 2
    assert len(turn_rows(st, r, 0, Act.F_FREE_REACT)) == 1
    w = workers_available(st, 0)
    apply_option(st, r, 0, Act.F_FREE_REACT, 0, 0, 0)
    assert st.pl[0, PF.REACT_FREE] == 1 and workers_available(st, 0) == w
    assert len(turn_rows(st, r, 0, Act.F_FREE_REACT)) == 0


def test_top_of_a_pile_and_the_nonempty_piles_on_any_layout(blank):
    """The top of the deck or a discard pile is its card with the highest ``card_seq`` (C.7 SCORING,
    A. DRAW CARDS: cards are drawn from the top and discarded onto it). ``top_of`` and
    ``nonempty_piles`` are branch-free scans: checked here against the plain definition on random
    layouts, with equal ``card_seq`` values (a blank state's, before any shuffle: the lowest id
    wins), and with empty piles."""
    st = blank
    rng = np.random.default_rng(5)
    locs = np.array([Loc.DECK, Loc.GAME_DISCARD, Loc.BOX] + [Loc.HAND + s for s in range(4)] + [Loc.PILE + s for s in range(5)])
    ids = np.arange(N_CHARACTERS, N_CARDS)
    for trial in range(300):
        st.card_loc[N_CHARACTERS:] = rng.choice(locs[: 2 + trial % len(locs)], N_CARDS - N_CHARACTERS)
        st.card_seq[N_CHARACTERS:] = rng.integers(0, 3 if trial % 3 == 0 else 10_000, N_CARDS - N_CHARACTERS)
        for loc in locs:
            at = ids[st.card_loc[N_CHARACTERS:] == loc]
            want = -1 if len(at) == 0 else int(at[np.argmax(st.card_seq[at])])  # argmax: the first of equals
            assert top_of(st, int(loc)) == want, (trial, int(loc))
        want_piles = sum(1 << p for p in range(5) if (st.card_loc[N_CHARACTERS:] == Loc.PILE + p).any())
        want_piles |= (1 << PILE_GAME) if (st.card_loc[N_CHARACTERS:] == Loc.GAME_DISCARD).any() else 0
        assert nonempty_piles(st) == want_piles, trial


# ============================================================================= 5. City Council and laws


def test_peace_act_is_paid_before_the_vote_and_places_a_marker(blank, rules):
    """'Peace Act. As a requirement, the legislator must pay 1 silver coin before the vote. If approved,
    a new peace marker is put on the current or next decade on the Decade track'. 'Only one vote is
    permitted per decade' 'Assign 4 VPs x Era to the faction which wins the vote' '1 or more
    abstentions breaks unanimity.' 'each player decreases their own City Council value of the value of
    tokens used.' Blue banner: 'When a player wins a City Council vote, they gain the blue banner:
    place it face-down'."""
    st, r = blank, rules

    def laws(seat):
        k = law_options(st, r, seat, 0)
        return [tuple(x) for x in st.opts[:k, 1:3].tolist()]

    set_items(st, 0)
    assert not [x for x in laws(0) if x[0] == Law.PEACE]
    set_items(st, 0, silver=r.k[RK.PEACE_ACT_SILVER])
    assert {x for x in laws(0) if x[0] == Law.PEACE} == {(Law.PEACE, 0), (Law.PEACE, 1)}
    d, era = int(st.g[G.DECADE]), int(st.g[G.ERA])
    sup, vp0, cp0 = int(st.supply[Sup.SILVER]), int(st.pl[0, PF.VP]), int(st.pl[0, PF.COUNCIL])
    assert can_call_vote(st, 0)
    call_vote(st, r, 0, Law.PEACE, 1)  # greedy: the legislator votes yes with 1, the others abstain
    assert st.pl[0, PF.SILVER] == 0 and st.supply[Sup.SILVER] == sup + r.k[RK.PEACE_ACT_SILVER]
    assert st.peace[d + 1] == 1 and st.peace[d] == 0
    assert st.g[G.VOTE_DONE] == 1 and not can_call_vote(st, 0) and not can_call_vote(st, 1)
    assert st.card_rot[st.pl[0, PF.CHARACTER]] == 1
    assert st.pl[0, PF.VP] - vp0 == r.k[RK.VOTE_VP_PER_ERA] * era
    assert st.pl[0, PF.COUNCIL] == cp0 - 1 and st.pl[0, PF.BANNER_BLUE] == 1
    assert (st.pl[1:4, PF.BANNER_BLUE] == 0).all()


def test_peace_and_spain_markers_go_to_the_first_free_decade(blank, rules):
    """Peace Act: 'a new peace marker is put on the current or next decade on the Decade track (or on
    the first available space if there is already a peace marker).' Spain support Act: 'If approved,
    a black cube marker (a metal resource) is put on the current or next decade on the Decade track.'"""
    st, r = blank, rules
    d = int(st.g[G.DECADE])
    for law, track in ((Law.PEACE, st.peace), (Law.SPAIN, st.spain)):
        track[:] = 0
        apply_law(st, r, 0, law, 1)
        assert np.flatnonzero(track).tolist() == [d + 1]
        apply_law(st, r, 0, law, 0)
        assert np.flatnonzero(track).tolist() == [d, d + 1]
        apply_law(st, r, 0, law, 0)
        assert np.flatnonzero(track).tolist() == [d, d + 1, d + 2]


def test_war_proclamation_removes_a_peace_marker_or_raises_native_tension(blank, rules):
    """'War Proclamation. If approved, and there is a peace marker in the current or next decade, the
    legislator removes it. If approved and there is no peace marker in current or next decade, the
    legislator increases the Tension level with Natives by 3 steps.'"""
    st, r = blank, rules
    d = int(st.g[G.DECADE])
    st.peace[:] = 0
    st.peace[d + 1] = 1
    apply_law(st, r, 0, Law.WAR, 0)
    assert st.peace.sum() == 0 and st.g[G.NAT_POS] == 0 and st.g[G.PIR_POS] == 0
    st.peace[d + 2] = 1  # not the current or next decade
    apply_law(st, r, 0, Law.WAR, 0)
    assert st.g[G.NAT_POS] == r.k[RK.WAR_PROCLAMATION] and st.g[G.PIR_POS] == 0
    assert st.peace[d + 2] == 1


def test_major_building_act_places_up_to_3_council_workers(blank, rules):
    """'Major Building Act ... If approved, the legislator places up to 3 City Council workers in the
    selected building grid. If there are not enough City Council Workers in the game supply, place
    only the disks available. These workers do not provide VPs'."""
    st, r = blank, rules
    n = int(r.k[RK.MAJOR_ACT_WORKERS])
    sup, vp0 = int(st.supply[Sup.COUNCIL_WORKERS]), int(st.pl[0, PF.VP])
    assert sup >= n and n < n_spaces(st, r, M.FORT)
    apply_law(st, r, 0, Law.MAJOR_BUILDING, M.FORT)
    assert (st.major[M.FORT] == CCW).sum() == n and st.supply[Sup.COUNCIL_WORKERS] == sup - n
    assert st.pl[0, PF.VP] == vp0 and st.g[G.FORT_BUILT] == 0  # no first-worker VP; not complete
    st.supply[Sup.COUNCIL_WORKERS] = n - 1
    apply_law(st, r, 0, Law.MAJOR_BUILDING, M.HARBOR)
    assert (st.major[M.HARBOR] == CCW).sum() == n - 1 and st.supply[Sup.COUNCIL_WORKERS] == 0
    # the law can only name a grid still open
    st.major_state[M.CABILDO, 1] = 1
    k = law_options(st, r, 0, 0)
    named = {int(m) for law, m in st.opts[:k, 1:3].tolist() if law == Law.MAJOR_BUILDING}
    assert M.CABILDO not in named and M.FORT in named


def test_major_building_act_in_the_last_decade_completes_the_building(blank, rules):
    """'If the current decade is the final one, without placing city council workers and even if
    incomplete, the building is immediately completed and placed by the legislator. In either case VPs
    are awarded to any players with workers on the grid as usual.'"""
    st, r = blank, rules
    clear_map(st)
    st.g[G.DECADE] = st.g[G.LAST_DECADE]
    place_on_grid(st, r, 1, M.CABILDO, 1)
    space_vp = int(r.major_space_vp[M.CABILDO][st.major[M.CABILDO] == 1].sum())
    sup, vp1 = int(st.supply[Sup.COUNCIL_WORKERS]), int(st.pl[1, PF.VP])
    apply_law(st, r, 0, Law.MAJOR_BUILDING, M.CABILDO)
    assert st.g[G.CABILDO_BUILT] == 1 and st.major_state[M.CABILDO, 1] == 1
    assert (st.major[M.CABILDO] == CCW).sum() == 0 and st.supply[Sup.COUNCIL_WORKERS] == sup
    assert count_type(st, B.CABILDO) == 1
    recover_completed(st, r)
    assert st.pl[1, PF.VP] - vp1 == space_vp > 0
    assert not major_open(st, r, M.CABILDO)


def test_council_value_reaching_zero_costs_2_vp(blank, rules):
    """'If a player goes to 0 or lower value, they immediately lose 2 VPs + 2 VPs x their negative
    value. Then, after VP penalization, the player City Council marker goes back to value 1.'"""
    st, r = blank, rules
    st.pl[0, PF.COUNCIL] = 3
    vp0 = int(st.pl[0, PF.VP])
    council_cost(st, r, 0, 3)  # exactly 0
    assert st.pl[0, PF.VP] - vp0 == r.k[RK.BELOW_ONE_BASE] and st.pl[0, PF.COUNCIL] == r.k[RK.COUNCIL_RESET]
    st.pl[1, PF.COUNCIL] = 3
    vp0 = int(st.pl[1, PF.VP])
    council_cost(st, r, 1, 2)  # 1: no penalty
    assert st.pl[1, PF.VP] == vp0 and st.pl[1, PF.COUNCIL] == 1
    st.pl[2, PF.COUNCIL] = 2
    vp0 = int(st.pl[2, PF.VP])
    council_cost(st, r, 2, 5)  # -3
    assert st.pl[2, PF.VP] - vp0 == r.k[RK.BELOW_ONE_BASE] + 3 * r.k[RK.BELOW_ONE_PER_POINT]
    assert st.vps[2, VS.COUNCIL_BELOW] == r.k[RK.BELOW_ONE_BASE] + 3 * r.k[RK.BELOW_ONE_PER_POINT]


# ============================================================================= 6. war


def test_empty_grids_and_stacks_raise_tension(blank, rules):
    """'A. Check the stone and wood resource grids ... For each empty grid, increase the tension level
    with the Natives by 1 step.' 'B. Check the precious resource grid and coin stacks. For each of the
    empty grid/stacks, increase the tension level with the Pirates by 1 step. NOTE: a coin stack is
    empty when it is without coins.' 'C. Discard the first card from the card deck and check the
    symbol on the back of the new card, which is now on top of the deck.'"""
    st, r = blank, rules
    per = int(r.k[RK.PER_EMPTY_GRID])
    slo, shi = grid_range(r, 1)
    wlo, whi = grid_range(r, 0)
    st.grids[slo:slo + 2] = 0
    st.grids[wlo] = 0
    st.grids[8] = 0
    st.stacks[0] = [0, 0]
    st.stacks[1] = [0, 1]  # a bronze coin: not empty
    first = deck_card(st, r, 0, 0)
    top = deck_card(st, r, 1, 1)
    stack_deck(st, first, top)
    tension_step(st, r)
    na, pi = back_symbols(r, top)
    assert st.g[G.NAT_POS] == 3 * per + na and st.g[G.PIR_POS] == 2 * per + pi
    assert st.card_loc[first] == Loc.GAME_DISCARD and st.card_loc[top] == Loc.DECK
    # nothing empty and a blank back: no change
    refill(st, r, int(st.g[G.NPLAYERS]), False)
    st.g[G.NAT_POS] = st.g[G.PIR_POS] = 0
    quiet_deck(st, r)
    tension_step(st, r)
    assert st.g[G.NAT_POS] == 0 and st.g[G.PIR_POS] == 0


def test_tension_marker_past_the_end_becomes_a_double_disk(blank, rules):
    """'If a tension marker reaches the final space of a track and must advance further, put another
    black disk over the current marker, place it on the track's first space and advance from there.
    If the marker is already made by 2 disks, it cannot advance more.' TENSION MODIFIER: 'If there is
    only a single disk marker, the tension level is shown as a big number ... If there are a couple of
    disks, the tension level is shown as a little number'."""
    st, r = blank, rules
    last = int(r.k[RK.TENSION_SPACES]) - 1
    st.g[G.NAT_POS] = last - 1
    assert tension_modifier(st, r, NATIVES) == r.ten_single[last - 1]
    advance_tension(st, r, NATIVES, 3, 0)  # last-1 -> last -> (double) 0 -> 1
    assert st.g[G.NAT_DOUBLE] == 1 and st.g[G.NAT_POS] == 1
    assert tension_modifier(st, r, NATIVES) == r.ten_double[1]
    advance_tension(st, r, NATIVES, 4 * last, 0)
    assert st.g[G.NAT_DOUBLE] == 1 and st.g[G.NAT_POS] == last
    assert st.g[G.PIR_POS] == 0 and st.g[G.PIR_DOUBLE] == 0


@pytest.mark.parametrize("nat,pir,expect", [
    # (position relative to the red zone start, double disk), ...
    ((0, 0), (-1, 0), NATIVES),  # only the Natives in the red zone
    ((-1, 0), (-1, 0), 0),  # nobody in the red zone, no double disk: no war
    ((0, 0), (0, 0), PIRATES),  # both in the red zone, tie: Pirates
    ((2, 0), (1, 0), NATIVES),  # both in the red zone: the farthest right
    ((0, 0), (2, 0), PIRATES),
    ((-5, 1), (2, 0), NATIVES),  # a double disk beats a single one in the red zone
    ((-2, 1), (-3, 1), NATIVES),  # both double: the farthest right
    ((-4, 1), (-4, 1), PIRATES),  # both double, tie: Pirates
])
def test_war_faction_choice(blank, rules, nat, pir, expect):
    """'To identify the belligerent faction determine which tension marker has advanced the farthest:
    This will be the faction with a double disk marker. If both factions have them, the farthest right,
    if there is a tie the Pirates battle. If no double disk stack, the faction with single disk marker
    in the red zone, if both the farthest right. If there is a tie the Pirates battle.'"""
    st, r = blank, rules
    red = int(r.k[RK.RED_ZONE])
    st.g[G.NAT_POS], st.g[G.NAT_DOUBLE] = red + nat[0], nat[1]
    st.g[G.PIR_POS], st.g[G.PIR_DOUBLE] = red + pir[0], pir[1]
    assert 0 <= st.g[G.NAT_POS] < r.k[RK.TENSION_SPACES] and 0 <= st.g[G.PIR_POS] < r.k[RK.TENSION_SPACES]
    assert war_faction(st, r) == expect


@pytest.mark.parametrize("faction", [NATIVES, PIRATES])
def test_war_resets_tension_and_places_a_peace_marker(blank, rules, faction):
    """'The base War Attack (WA) value is equal to 2 for Natives and 4 for Pirates. Then add to this
    value the War Tension modifier' 'If the result is positive, the player loses the War and moves
    their marker on the War Penalty track ... of many spaces equal to the result' 'If there is a Pirate
    war reset both tension markers to their start positions. If a Native war only reset the Native
    marker. Place a peace marker on the Decade track on the following decade.'"""
    st, r = blank, rules
    clear_map(st)
    quiet_deck(st, r)
    red = int(r.k[RK.RED_ZONE])
    d = int(st.g[G.DECADE])
    st.peace[:] = 0
    st.minis[:] = 0  # nobody defends
    at, below = (G.NAT_POS, G.PIR_POS) if faction == NATIVES else (G.PIR_POS, G.NAT_POS)
    st.g[at] = red
    st.g[below] = red - 1
    tension_and_war(st, r)
    base = r.k[RK.ATTACK_NATIVES] if faction == NATIVES else r.k[RK.ATTACK_PIRATES]
    wa = int(base + r.ten_single[red])
    assert st.g[G.WAR_FACTION] == faction and st.g[G.WAR_WA] == wa > 0
    n = int(st.g[G.NPLAYERS])
    assert (st.pl[:n, PF.WAR_PENALTY] == r.k[RK.WAR_PENALTY_START] + wa).all()
    assert st.g[G.NAT_POS] == 0
    assert st.g[G.PIR_POS] == (0 if faction == PIRATES else red - 1)
    assert st.peace[d + 1] == 1


def test_peace_marker_stops_war_except_in_the_last_decade(blank, rules):
    """'D. If the current decade is not the last game decade and has a peace marker, stop reading here
    and go to point 4, "Refill". IMPORTANT: Ignore any peace marker in the last game decade because a
    war can always happen in this decade.'"""
    st, r = blank, rules
    clear_map(st)
    st.minis[:] = 0
    red = int(r.k[RK.RED_ZONE])
    d = int(st.g[G.DECADE])
    quiet_deck(st, r)
    st.g[G.NAT_POS] = red
    st.peace[d] = 1
    tension_and_war(st, r)
    assert st.g[G.WAR_FACTION] == 0 and st.g[G.NAT_POS] == red
    assert (st.pl[:4, PF.WAR_PENALTY] == r.k[RK.WAR_PENALTY_START]).all()
    last = int(st.g[G.LAST_DECADE])
    st.g[G.DECADE] = last
    st.peace[last] = 1
    quiet_deck(st, r)
    tension_and_war(st, r)
    assert st.g[G.WAR_FACTION] == NATIVES and st.g[G.NAT_POS] == 0


def test_walls_reduce_the_war_attack(blank, rules):
    """'If there is any district closed by Walls, complete this procedure: First, discard the top card
    from the Affiliate deck. Afterward, draw one card for each district closed by Walls. Check the back
    of all drawn cards: for each symbol that matches the current attacker (Natives or Pirates), reduce
    the WA by 1.' 'Finally, if WA value is positive, a battle happens.'"""
    st, r = blank, rules
    clear_map(st)
    st.minis[:] = 0
    for d in (0, 1):
        st.walls[r.seg_district == d] = 1
    assert n_closed_districts(st, r) == 2
    red = int(r.k[RK.RED_ZONE])
    st.g[G.NAT_POS] = red
    c0 = deck_card(st, r, 0, 0)
    c1 = deck_card(st, r, 0, 0, exclude=(c0,))  # the tension step's top card, then discarded by the walls
    c2 = deck_card(st, r, 1, 0)
    c3 = deck_card(st, r, 2, 0)
    stack_deck(st, c0, c1, c2, c3)
    tension_and_war(st, r)
    reduction = int(back_symbols(r, c2)[0] + back_symbols(r, c3)[0])
    wa = int(r.k[RK.ATTACK_NATIVES] + r.ten_single[red]) - reduction
    assert reduction == 3 and wa <= 0
    assert st.g[G.WAR_FACTION] == NATIVES and st.g[G.WAR_WA] == wa
    assert (st.pl[:4, PF.WAR_PENALTY] == r.k[RK.WAR_PENALTY_START]).all()  # no battle
    assert all(st.card_loc[c] == Loc.GAME_DISCARD for c in (c0, c1, c2, c3))


def _no_affiliates(st, seat):
    """Cards to burn would add AV: keep the fights to the miniatures."""
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.HAND + seat:
            st.card_loc[c] = Loc.DECK


def test_wounds_pirates_give_two_and_a_miniature_leaves_at_its_limit(blank, rules):
    """'Then assign 1 wound token (or 2 wound tokens for Pirates) to each miniature that has fought
    ... If the number of wound tokens is now equal to the WO value, remove the miniature, which goes
    back to the game supply.'"""
    st, r = blank, rules
    _no_affiliates(st, 0)
    st.minis[0] = 0
    st.minis[0, 0, 0] = Mini.SOLDIER
    wo = int(r.war_wo[Mini.SOLDIER])
    wp = int(r.k[RK.WOUNDS_PIRATES])
    assert wp < wo <= 2 * wp
    sup = int(st.supply[Sup.SOLDIERS])
    wa = int(r.war_av[Mini.SOLDIER])  # the Soldier alone wins
    fight(st, r, 0, wa, PIRATES)
    assert st.minis[0, 0].tolist() == [Mini.SOLDIER, wp] and st.pl[0, PF.WARS_WON] == 1
    fight(st, r, 0, wa, PIRATES)
    assert st.minis[0, 0].tolist() == [Mini.NONE, 0] and st.supply[Sup.SOLDIERS] == sup + 1
    # a veteran Miliciano: 1 wound against the Natives, but 2 against the Pirates remove it
    _no_affiliates(st, 1)
    st.minis[1] = 0
    st.minis[1, 0, 0] = Mini.MILICIANO_VET
    st.minis[1, 1, 0] = Mini.MILICIANO_VET
    wn = int(r.k[RK.WOUNDS_NATIVES])
    assert wn < r.war_wo[Mini.MILICIANO_VET] <= wp
    sup = int(st.supply[Sup.MILICIANOS])
    fight(st, r, 1, 2 * int(r.war_av[Mini.MILICIANO_VET]), NATIVES)
    assert st.minis[1, :2].tolist() == [[Mini.MILICIANO_VET, wn]] * 2
    fight(st, r, 1, 2 * int(r.war_av[Mini.MILICIANO_VET]), PIRATES)
    assert (st.minis[1, :2, 0] == Mini.NONE).all() and st.supply[Sup.MILICIANOS] == sup + 2


def test_wounds_stay_when_the_miniature_is_upgraded(blank, rules):
    """'Keep wound tokens on the miniature during the game (they also remain if the miniature is
    upgraded; only the effect of some card can remove wounds).' Barracks: 'Convert a Veteran Miliciano
    into a Soldier by paying 1 metal resource to the game supply.'"""
    st, r = blank, rules
    clear_map(st)
    put(st, r, 4, 2, B.BARRACKS)
    a = next(i for i in range(r.act_b.shape[0]) if r.act_b[i] == B.BARRACKS and r.act_kind[i] == 1)
    st.minis[0] = 0
    st.minis[0, 0] = [Mini.MILICIANO_VET, 1]
    set_items(st, 0, metal=r.act_in[a, 3])
    assert activation_ok(st, r, 0, a)
    sm, ss, smet = int(st.supply[Sup.MILICIANOS]), int(st.supply[Sup.SOLDIERS]), int(st.supply[Sup.METAL])
    activate(st, r, 0, a, cell(r, 4, 2))
    assert st.minis[0, 0].tolist() == [Mini.SOLDIER, 1]
    assert st.pl[0, PF.METAL] == 0 and st.supply[Sup.METAL] == smet + r.act_in[a, 3]
    assert st.supply[Sup.MILICIANOS] == sm + 1 and st.supply[Sup.SOLDIERS] == ss - 1


def test_war_penalty_track_ends(blank, rules):
    """'If the result is 0 or negative, the player wins the War and moves their marker on the War
    Penalty track by 1 step on the left (to gain points). It's not possible to go further the maximum
    value of the track.' 'If the player reaches the end of the track, they will move their City Council
    marker instead (move it to lose City Council points).'"""
    st, r = blank, rules
    lo, hi = int(r.k[RK.PENALTY_MIN]), int(r.k[RK.PENALTY_MAX])
    # a loss of 3 from one step before the end: 1 step on the track, 2 on the City Council track
    _no_affiliates(st, 0)
    st.minis[0] = 0
    st.pl[0, PF.WAR_PENALTY] = hi - 1
    st.pl[0, PF.COUNCIL] = 8
    fight(st, r, 0, 3, NATIVES)
    assert st.pl[0, PF.WAR_PENALTY] == hi and st.pl[0, PF.COUNCIL] == 6
    assert st.pl[0, PF.WARS_LOST] == 1 and st.pl[0, PF.BANNER_RED] == 0
    # a win at the left end stays there (and progresses the red banner)
    _no_affiliates(st, 1)
    st.minis[1] = 0
    st.minis[1, 0, 0] = Mini.SOLDIER
    st.pl[1, PF.WAR_PENALTY] = lo
    fight(st, r, 1, 1, NATIVES)
    assert st.pl[1, PF.WAR_PENALTY] == lo and st.pl[1, PF.BANNER_RED] == 1
    # a win elsewhere: one step left
    st.pl[1, PF.WAR_PENALTY] = 2
    fight(st, r, 1, 1, NATIVES)
    assert st.pl[1, PF.WAR_PENALTY] == 1 and st.pl[1, PF.BANNER_RED] == 2


# ============================================================================= 7. scoring


def _scoring_state(st):
    clear_map(st)
    n = int(st.g[G.NPLAYERS])
    for s in range(n):
        set_items(st, s)
        st.pl[s, PF.FAITH] = 0
        st.pl[s, PF.ST_VP] = 0
        st.pl[s, PF.BANNER_BLACK:PF.BANNER_OCHER + 1] = 0
    st.minis[:] = 0
    return n


def _score(st, r, era):
    before = st.vps.copy()
    score_era(st, r, era)
    return st.vps - before


def test_money_and_faith_majorities_split_ties_rounded_down(blank, rules):
    """'Money: The richest player gains 7 VPs x Era ... If there is a tie, players split the VPs (round
    down). The richest player is the player with the most coin value.' 'Faith tokens: The player who
    owns most Faith tokens gains 7 VPs x Era: in the first era 7 VPs, in the second era 14 VPs, in the
    third Era 21 VPs. If there is a tie, players split the VPs (round down).'"""
    st, r = blank, rules
    _scoring_state(st)
    set_items(st, 0, silver=3)  # 6 bronze of value
    set_items(st, 1, silver=2, bronze=2)  # 6
    set_items(st, 2, bronze=5)
    for era in (1, 2, 3):
        got = _score(st, r, era)[:4, VS.MONEY]
        share = r.k[RK.MONEY_VP] * era // 2
        assert got.tolist() == [share, share, 0, 0], era
    set_items(st, 2, bronze=7)  # now the richest alone
    assert _score(st, r, 2)[:4, VS.MONEY].tolist() == [0, 0, 2 * r.k[RK.MONEY_VP], 0]
    # faith tokens
    st.pl[:4, PF.FAITH] = [2, 3, 3, 0]
    share = 3 * r.k[RK.FAITH_VP] // 2
    assert _score(st, r, 3)[:4, VS.FAITH].tolist() == [0, share, share, 0]
    st.pl[:4, PF.FAITH] = [2, 3, 1, 0]
    assert _score(st, r, 1)[:4, VS.FAITH].tolist() == [0, r.k[RK.FAITH_VP], 0, 0]


def test_military_majority_breaks_ties_on_the_next_miniature(blank, rules):
    """'Military: The player who controls the strongest miniature (the miniature with the highest AV
    value) gains 7 VPs x Era ... If there is a tie, consider between the tying players the second
    strongest miniature, then the third, and so on. If the tie persists, the tying players split the
    VPs (round down).'"""
    st, r = blank, rules
    _scoring_state(st)
    st.minis[0, 0, 0], st.minis[0, 1, 0] = Mini.SOLDIER, Mini.MILICIANO
    st.minis[1, 0, 0], st.minis[1, 1, 0] = Mini.MILICIANO_VET, Mini.SOLDIER  # order on the markers is irrelevant
    st.minis[2, :, 0] = Mini.MILICIANO_VET  # more miniatures, none as strong
    assert r.war_av[Mini.SOLDIER] > r.war_av[Mini.MILICIANO_VET] > r.war_av[Mini.MILICIANO]
    got = _score(st, r, 3)[:4, VS.MILITARY]
    assert got.tolist() == [0, 3 * r.k[RK.MILITARY_VP], 0, 0]
    st.minis[0, 1, 0] = Mini.MILICIANO_VET  # now the same miniatures: split
    got = _score(st, r, 3)[:4, VS.MILITARY]
    assert got.tolist() == [3 * r.k[RK.MILITARY_VP] // 2] * 2 + [0, 0]


def test_banners_score_by_face_up_count(blank, rules):
    """'Banners: The players gains 11 VPs x Era owning 6 face-up banners, 7 VPs x Era with 5 face-up
    banners, or 4 VPs with 4 face-up banner.' (R-13: all three x Era; 3 or fewer score 0)."""
    st, r = blank, rules
    _scoring_state(st)
    first = PF.BANNER_BLACK
    st.pl[0, first:first + 4] = 2
    st.pl[1, first:first + 3] = 2
    st.pl[1, first + 3:first + 6] = 1  # face-down banners do not count
    st.pl[2, first:first + 6] = 2
    st.pl[3, first:first + 5] = 2
    got = _score(st, r, 2)[:4, VS.BANNERS]
    assert got.tolist() == [2 * r.banner_vp[4], 2 * r.banner_vp[3], 2 * r.banner_vp[6], 2 * r.banner_vp[5]]
    assert r.banner_vp[3] == 0 and r.banner_vp[4] > 0


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
    put(st, r, 3, 0, B.PALACE, y)
    put(st, r, 4, 0, B.HOUSE, y)
    put(st, r, 5, 0, B.MONUMENT)
    dv2 = district_value(st, r, 1)
    assert dv2 == r.b_dv[B.MONUMENT]
    hpf, ppf = int(r.k[RK.HOUSE_PER_FAITH]), int(r.k[RK.PALACE_PER_FAITH])
    house1 = min(2 + faith * hpf, dv1)
    house2 = min(2 + faith * hpf, dv2)
    palace2 = dv2 + r.k[RK.PALACE_BASE] + faith * ppf
    assert house1 == dv1 < 0 and house2 == dv2 < 2 + faith * hpf  # both capped
    assert city_total(st, r, y) == house1 + house2 + palace2
    assert city_total(st, r, 0) == 0


# ============================================================================= 8. the salary worked example


def test_salary_worked_example_7_cards_discard_2_pay_1_bronze_lose_4(blank, rules):
    """A. SALARY: 'the Yellow player owns 7 Affiliate cards and must pay 3 bronze coins. They choose to
    discard 2 cards. In this way, they now have 5 Affiliate cards and should pay 2 bronze coins; they
    choose to pay 1 bronze coin, which covers 3 cards. Two cards remain unpaid, so they lose 4 VPs.'

    The choices are scripted by a greedy weight row written into the seat's ``st.w``: a SALARY option 'pay b bronze,
    leave u cards unpaid' is worth -coin*b - 2*vp*u and 'discard a card' -card - 0.1, so with vp=1,
    coin=5, card=9.5 the best option is discard (7 cards), discard (6 cards), pay 1 (5 cards)."""
    st, r = blank, rules
    y = 2
    row = default_weights()  # the named coefficients (salary_vp, salary_discard) at their defaults
    row[F.FAMILY] = FAMILY_GREEDY
    row[F.VP], row[F.COIN], row[F.CARD] = 1.0, 5.0, 9.5
    st.w[y, :] = row  # the seat's policy weights (copied from the strategy table at setup)
    set_affiliates(st, y, 7)
    set_items(st, y, silver=1, bronze=1)  # worth 3 bronze: paying in full is possible, the choices decide
    assert salary_free(st, r, y) == 0
    per = int(r.k[RK.SALARY_PER_BRONZE])
    assert -(-7 // per) == 3 and -(-5 // per) == 2
    vp0, pile0, sb = int(st.pl[y, PF.VP]), pile_size(st, y), int(st.supply[Sup.BRONZE])
    pay_salary(st, r, y)
    assert n_affiliates(st, y) == 5 and pile_size(st, y) == pile0 + 2  # discarded to their pile
    assert st.pl[y, PF.BRONZE] == 0 and st.pl[y, PF.SILVER] == 1 and st.supply[Sup.BRONZE] == sb + 1
    assert st.pl[y, PF.VP] - vp0 == 2 * r.k[RK.SALARY_VP] == -4
    assert st.vps[y, VS.SALARY] == -4


# ============================================================================= components on buildings, coin change


def test_hacienda_marker_cube_leaves_the_supply_and_returns_when_displaced(blank, rules):
    """'Place a resource cube on the corresponding Hacienda (wood or stone, taken from the game supply)
    to distinguish it from the Corporation.' The cube is a component: it leaves the supply while the
    Hacienda stands and comes back when the building is displaced."""
    from sim.actions import build
    from sim.major import remove_minor

    st, r = blank, rules
    c = int(np.flatnonzero((r.cell_start == 1) & (st.cell_b == B.NONE))[0])
    st.cell_b[c] = B.CARPENTRY
    st.supply[Sup.CARPENTRY] -= 1
    cost = r.b_cost[B.HACIENDA_WOOD]
    set_items(st, 0, wood=cost[1], stone=cost[2], precious=cost[3], metal=cost[4])
    st.pl[0, PF.WORKERS] = cost[0]
    wood0, carp0 = int(st.supply[Sup.WOOD]), int(st.supply[Sup.CARPENTRY])
    build(st, r, 0, B.HACIENDA_WOOD, c, 0)
    marker = int(r.k[RK.HACIENDA_MARKER])
    assert marker == 1
    assert st.cell_b[c] == B.HACIENDA_WOOD and st.cell_cube[c] == marker
    assert st.supply[Sup.WOOD] == wood0 + cost[1] - marker  # paid wood in, the marker cube out
    assert st.supply[Sup.CARPENTRY] == carp0 + 1  # the replaced Carpentry goes back to the supply
    remove_minor(st, r, c)
    assert st.cell_b[c] == B.NONE and st.cell_cube[c] == 0 and st.supply[Sup.WOOD] == wood0 + cost[1]
    # an empty supply: the cube is one of the stones just paid (they reach the supply first)
    st.cell_b[c] = B.QUARRY
    st.supply[Sup.QUARRY] -= 1
    set_items(st, 0, wood=cost[1], stone=cost[2], precious=cost[3], metal=cost[4])
    st.pl[0, PF.WORKERS] = cost[0]
    st.supply[Sup.STONE] = 0
    build(st, r, 0, B.HACIENDA_STONE, c, 0)
    assert st.cell_b[c] == B.HACIENDA_STONE and st.cell_cube[c] == marker and st.supply[Sup.STONE] == cost[2] - marker
    remove_minor(st, r, c)
    st.supply[Sup.STONE] = 0  # no cube anywhere: the Hacienda is still built, without a marker
    st.cell_b[c] = B.QUARRY
    st.supply[Sup.QUARRY] -= 1
    st.pl[0, PF.ST_CONSTRUCTION] = 0
    set_items(st, 0, wood=cost[1] + cost[2], stone=0, precious=cost[3], metal=cost[4])
    r2 = r.copy()
    r2.b_cost[B.HACIENDA_STONE, 1] = cost[1] + cost[2]
    r2.b_cost[B.HACIENDA_STONE, 2] = 0
    st.pl[0, PF.WORKERS] = cost[0]
    build(st, r2, 0, B.HACIENDA_STONE, c, 0)
    assert st.cell_b[c] == B.HACIENDA_STONE and st.cell_cube[c] == 0 and st.supply[Sup.STONE] == 0


def test_paying_an_odd_amount_with_silver_gives_bronze_change(blank, rules):
    """Coins: 1 silver = game.bronze_per_silver bronze. Paying 1 bronze with only silver: a silver goes
    to the supply and the change comes back in bronze from the supply."""
    from sim.core import pay_coins

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


# ----------------------------------------------------------------------------- option rows


def test_every_option_row_is_written_whole():
    """A decision's rows share the ``st.opts`` buffer with every earlier decision, and the policy
    reads rows whole (a CARD_TARGET row's column 2 names the card for some powers). A listing that
    wrote only some columns left the rest from an earlier decision: card 83's grid rows were valued
    by a stale column 2 (a BUILD row's space number, sometimes equal to a scoring card's id). Every
    write of an option row in the engine is sim.core.set_option or a block writing columns 0-4."""
    import re
    from pathlib import Path

    write = re.compile(r"(\s*)st\.opts\[([^\]]+?), (\d)\] = ")
    partial = []
    for path in sorted((Path(__file__).parent.parent / "sim").glob("*.py")):
        lines = path.read_text().splitlines()
        i = 0
        while i < len(lines):
            m = write.match(lines[i])
            if not m:
                i += 1
                continue
            cols = []
            while i < len(lines) and (m2 := write.match(lines[i])) and m2.group(2) == m.group(2):
                cols.append(int(m2.group(3)))
                i += 1
            if cols != [0, 1, 2, 3, 4]:
                partial.append(f"{path.name}:{i}: columns {cols}")
    assert not partial, partial


def test_card_83_grid_rows_leave_no_column_of_an_earlier_decision(blank, rules):
    """Card 83's grid rows (CARD_TARGET, [grid, card]) must read 0 in the columns they do not use,
    whatever an earlier decision left in the buffer."""
    from sim.affiliates import _card83_targets
    from sim.codes import Card

    st, r = blank, rules
    st.grids[:] = 0  # room on every grid
    st.opts[:] = Card.C36  # a scoring card's id, which the CARD_TARGET valuation keys on in column 2
    k = _card83_targets(st, r, 5, Card.C83, True)
    assert k > 0 and st.opts[:k, 1].tolist() == [Card.C83] * k
    assert (st.opts[:k, 2:] == 0).all()
