"""Affiliate card powers (CARD REFERENCE > AFFILIATE CARDS): one test per card on a hand-built
state, quoting the card text (and the rules file's ``reading`` where the text is ambiguous); the
effect and at least one limit of the text are asserted. Turn-time powers are listed by
``card_options`` and applied with ``apply_option(..., Act.F_CARD, card, a, b)``; lightning powers
are triggered by calling the rule area where their moment happens (``ship_sails``, ``fight``,
``tension_and_war``, ``pay_salary``, ``place_walls``, ``place_road``, ``complete``, ``build``).

Cards are named by their number (card id = number - 1); every number of a power comes from the
rules record (``r.aff_p[c, AP.X]``). The ``blank`` fixture seats greedy players, who always answer
"use it" to a lightning trigger (Dec.USE_CARD). Then random-policy play: every implemented power
fires, and the component invariants hold after every decade.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest
from helpers import (
    assert_spent,
    cid,
    clear_hands,
    clear_map,
    coins_load,
    deck_card,
    fresh,
    give,
    load,
    quiet_deck,
    rows,
    script,
    set_items,
    stack_deck,
    three,
    turn_card_rows,
    upright,
    use,
)
from invariants import check_state

from sim.actions import apply_option, build, end_turn
from sim.affiliates import IMPLEMENTED
from sim.cards import pay_salary
from sim.codes import Act
from sim.core import CCW, coin_value
from sim.game import allocate, play_decade, setup, ship_sails
from sim.major import complete, grid_free, major_open, place_road, place_walls
from sim.rules import AP, RK
from sim.state import MAX_PLAYERS, N_CARDS, PF, VS, B, G, Loc, M, Mini, Sup
from sim.war import NATIVES, PIRATES, fight, tension_and_war
from strategies.match import play_game

JIT = not numba.config.DISABLE_JIT

# ============================================================================= City Council workers on a grid


def _grid_card(st, r, num, allowed, pay=None):
    """Shared checks of the cards placing City Council workers on a Major Building grid. Returns
    the offered (grid, workers) rows. 'If City Council workers are still available in the game
    supply ... immediately place ... This City Council worker will count for completing the grid
    but will not provide you any VPs.'"""
    clear_hands(st)
    give(st, 0, num)
    p = r.aff_p[cid(num)]
    pay = pay or {}
    set_items(st, 0, **pay)
    exact, most = int(p[AP.COUNCIL_WORKERS]), int(p[AP.COUNCIL_WORKERS_MAX])
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    expect = set()
    for m in allowed:
        room = min(exact or most, sup, grid_free(st, r, m))
        if not major_open(st, r, m) or room <= 0:
            continue
        expect |= {(m, room)} if exact else {(m, n) for n in range(1, room + 1)}
    offered = rows(st, r, 0, num)
    assert set(offered) == expect and len(offered) == len(expect)
    assert all((cid(num), a, b) in turn_card_rows(st, r, 0) for a, b in offered)  # a free action of the turn
    m, n = max(offered, key=lambda x: (x[1], -x[0]))
    vp0, vps0 = int(st.pl[0, PF.VP]), st.vps.copy()
    sup_res = st.supply.copy()
    assert grid_free(st, r, m) > n  # the grid is not completed by the card here
    use(st, r, 0, num, m, n)
    assert (st.major[m] == CCW).sum() == n and st.supply[Sup.COUNCIL_WORKERS] == sup - n
    assert st.pl[0, PF.VP] == vp0 and (st.vps == vps0).all()  # no first-worker VP, no VP at all
    for key, slot in (("wood", Sup.WOOD), ("stone", Sup.STONE), ("precious", Sup.PRECIOUS)):
        assert st.supply[slot] == sup_res[slot] + pay.get(key, 0)  # paid to the game supply
    assert st.pl[0, PF.WOOD] == st.pl[0, PF.STONE] == st.pl[0, PF.PRECIOUS] == 0
    assert_spent(st, r, 0, num)
    # limit: no City Council worker in the game supply, no option
    upright(st, num)
    set_items(st, 0, **pay)
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert rows(st, r, 0, num) == []
    st.supply[Sup.COUNCIL_WORKERS] = sup - n
    assert rows(st, r, 0, num)
    return offered


ALL_GRIDS = tuple(M)


def test_card_14_pay_2_wood_one_council_worker_on_any_grid(blank, rules):
    """Card 14. 'If City Council workers are still available in the game supply, pay 2 wood
    resources and immediately place 1 City Council worker in any Major Building grid. This City
    Council worker will count for completing the grid but will not provide you any VPs.'"""
    st, r = blank, rules
    assert r.aff_p[cid(14), AP.PAY_WOOD] == 2 and r.aff_p[cid(14), AP.COUNCIL_WORKERS] == 1
    offered = _grid_card(st, r, 14, ALL_GRIDS, {"wood": 2})
    assert {b for _, b in offered} == {1}
    # limit: 2 wood are needed (1 wood, or 2 stone, is not enough)
    upright(st, 14)
    set_items(st, 0, wood=1, stone=2)
    assert rows(st, r, 0, 14) == []


def test_card_20_pay_2_stone_one_council_worker_on_any_grid(blank, rules):
    """Card 20. 'If City Council workers are still available in the game supply, pay 2 stone
    resources and immediately place 1 City Council worker in any Major Building grid.'"""
    st, r = blank, rules
    assert r.aff_p[cid(20), AP.PAY_STONE] == 2 and r.aff_p[cid(20), AP.COUNCIL_WORKERS] == 1
    offered = _grid_card(st, r, 20, ALL_GRIDS, {"stone": 2})
    assert {b for _, b in offered} == {1}
    upright(st, 20)
    set_items(st, 0, wood=2, stone=1)
    assert rows(st, r, 0, 20) == []


def test_card_26_pay_1_precious_up_to_2_council_workers_on_one_grid(blank, rules):
    """Card 26. 'If City Council workers are still available in the game supply, pay 1 precious
    resource and immediately place up to 2 City Council workers in any Major Building grid.'
    Reading: 'on ONE Major Building grid of your choice ... as many as the supply has, up to 2'."""
    st, r = blank, rules
    assert r.aff_p[cid(26), AP.PAY_PRECIOUS] == 1 and r.aff_p[cid(26), AP.COUNCIL_WORKERS_MAX] == 2
    offered = _grid_card(st, r, 26, ALL_GRIDS, {"precious": 1})
    assert {b for _, b in offered} == {1, 2}
    # only 1 City Council worker left: only 1 can be placed
    upright(st, 26)
    set_items(st, 0, precious=1)
    st.supply[Sup.COUNCIL_WORKERS] = 1
    assert {b for _, b in rows(st, r, 0, 26)} == {1}
    set_items(st, 0)
    assert rows(st, r, 0, 26) == []  # no precious, no option


def test_card_33_up_to_2_council_workers_on_the_walls_grid(blank, rules):
    """Card 33. 'If City Council workers are still available in the game supply, immediately place
    up to 2 City Council workers on the Walls grid. These City Council workers will count for
    completing the grid but will not provide you any VPs. When the grid is complete, place the City
    Council workers back in the game supply.'"""
    st, r = blank, rules
    clear_map(st)
    offered = _grid_card(st, r, 33, (M.WALLS,))
    assert {a for a, _ in offered} == {M.WALLS}  # only on the named grid
    # the workers complete the grid: walls are placed (by the first player), the workers go back
    st.major[M.WALLS] = -1
    upright(st, 33)
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    n = int(r.major_spaces[M.WALLS, 2])
    st.major[M.WALLS, :n - 2] = 1
    walls0 = int(st.supply[Sup.WALLS])
    use(st, r, 0, 33, M.WALLS, 2)
    assert st.major_state[M.WALLS, 1] == 1 and (st.major[M.WALLS] == CCW).sum() == 0
    assert st.supply[Sup.COUNCIL_WORKERS] == sup
    assert st.walls.sum() == r.k[RK.WALLS_PER_COMPLETION] and st.supply[Sup.WALLS] == walls0 - st.walls.sum()
    # a completed grid is closed until Recover Workers: no option
    upright(st, 33)
    assert not major_open(st, r, M.WALLS) and rows(st, r, 0, 33) == []


def test_card_37_up_to_2_council_workers_on_the_roads_grid(blank, rules):
    """Card 37. 'If City Council workers are still available in the game supply, immediately place
    up to 2 City Council workers on the Roads grid.'"""
    st, r = blank, rules
    offered = _grid_card(st, r, 37, (M.ROADS,))
    assert {a for a, _ in offered} == {M.ROADS} and {b for _, b in offered} == {1, 2}
    # no District Road marker left: the grid is closed, no option
    upright(st, 37)
    st.supply[Sup.ROAD_MARKERS] = 0
    assert rows(st, r, 0, 37) == []


def test_card_49_up_to_3_council_workers_on_the_fort_grid(blank, rules):
    """Card 49. 'If City Council workers are still available in the game supply, immediately place
    up to 3 of them on the Fort grid. These City Council workers will count for completing the grid
    but will not provide you with VPs.'"""
    st, r = blank, rules
    offered = _grid_card(st, r, 49, (M.FORT,))
    assert {a for a, _ in offered} == {M.FORT} and {b for _, b in offered} == {1, 2, 3}
    # the Fort built: never again
    upright(st, 49)
    st.major_state[M.FORT, 1] = 1
    assert rows(st, r, 0, 49) == []


def test_card_61_up_to_3_council_workers_on_the_cathedral_grid(blank, rules):
    """Card 61. 'If City Council workers are still available in the game supply, immediately place
    up to 3 of them on the Catedral (Cathedral) grid.'"""
    st, r = blank, rules
    offered = _grid_card(st, r, 61, (M.CATHEDRAL,))
    assert {a for a, _ in offered} == {M.CATHEDRAL} and {b for _, b in offered} == {1, 2, 3}
    # only 2 free spaces: at most 2
    upright(st, 61)
    st.major[M.CATHEDRAL, :] = -1
    st.major[M.CATHEDRAL, :int(r.major_spaces[M.CATHEDRAL, 2]) - 2] = 1
    assert {b for _, b in rows(st, r, 0, 61)} == {1, 2}


def test_card_69_one_council_worker_on_any_grid_completing_it(blank, rules):
    """Card 69. 'If City Council workers are still available in the game supply, immediately place
    1 of them on any Major building grid. This City Council worker will count for the completion of
    the grid but will not provide you VPs. When the grid is complete, place the city council worker
    back in the game supply.'"""
    st, r = blank, rules
    clear_map(st)
    offered = _grid_card(st, r, 69, ALL_GRIDS)
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


def test_card_73_up_to_2_council_workers_on_the_cabildo_grid(blank, rules):
    """Card 73. 'If City Council workers are still available in the game supply, immediately place
    up to 2 of them on the Cabildo grid.'"""
    st, r = blank, rules
    offered = _grid_card(st, r, 73, (M.CABILDO,))
    assert {a for a, _ in offered} == {M.CABILDO} and {b for _, b in offered} == {1, 2}
    upright(st, 73)
    st.major_state[M.CABILDO, 1] = 1  # the Cabildo built
    assert rows(st, r, 0, 73) == []


# ============================================================================= turn-time powers


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


def test_card_31_one_free_wall_if_available(blank, rules):
    """Card 31. 'Place 1 free wall piece (1 miniature), if available in the game supply.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 31)
    assert r.aff_p[cid(31), AP.WALLS] == 1
    assert (cid(31), 0, 0) in turn_card_rows(st, r, 0)
    set_items(st, 0, wood=3, stone=3, silver=2)
    items0, sup = st.pl[0].copy(), int(st.supply[Sup.WALLS])
    use(st, r, 0, 31)
    assert st.walls.sum() == 1 and st.supply[Sup.WALLS] == sup - 1
    assert (st.pl[0] == items0).all()  # free: nothing paid, workers untouched
    assert_spent(st, r, 0, 31)
    # limit: no wall miniature in the supply (or no free perimeter segment), no option
    upright(st, 31)
    st.supply[Sup.WALLS] = 0
    assert rows(st, r, 0, 31) == []
    st.supply[Sup.WALLS] = 5
    st.walls[:] = 1
    assert rows(st, r, 0, 31) == []
    st.walls[0] = 0
    assert rows(st, r, 0, 31) == [(0, 0)]


def test_card_48_all_4_warehouse_resources_into_1_metal(blank, rules):
    """Card 48. 'If you take all 4 resources from the City warehouse, you can immediately convert
    them into 1 metal resource.' Reading: when you take all 4 resources of a full City Warehouse
    (Use City Warehouse, still paying its VP penalty: 2 VP each), you may at once return those 4 to
    the supply and take 1 metal from the game supply; the metal is yours to keep."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 48)
    p = r.aff_p[cid(48)]
    assert p[AP.WAREHOUSE_RESOURCES] == 4 and p[AP.METAL] == 1
    st.warehouse[:] = [2, 2]
    set_items(st, 0, wood=1)
    assert rows(st, r, 0, 48) == []  # a full Warehouse, nothing taken yet
    vp0 = int(st.pl[0, PF.VP])
    for res in (0, 0, 1):
        apply_option(st, r, 0, Act.F_WAREHOUSE, res, 0, 0)
    assert rows(st, r, 0, 48) == []  # limit: 3 of the 4 taken
    apply_option(st, r, 0, Act.F_WAREHOUSE, 1, 0, 0)
    assert st.warehouse.tolist() == [0, 0] and rows(st, r, 0, 48) == [(0, 0)]
    sup = st.supply.copy()
    use(st, r, 0, 48)
    assert st.pl[0, PF.METAL] == 1 and st.pl[0, PF.WOOD] == 1 and st.pl[0, PF.STONE] == 0  # own wood kept
    assert st.supply[Sup.WOOD] == sup[Sup.WOOD] + 2 and st.supply[Sup.STONE] == sup[Sup.STONE] + 2
    assert st.supply[Sup.METAL] == sup[Sup.METAL] - 1
    assert st.pl[0, PF.VP] - vp0 == 4 * r.k[RK.WAREHOUSE_VP] == -8  # the Warehouse penalty still paid
    assert_spent(st, r, 0, 48)
    end_turn(st, 0)
    assert st.pl[0, PF.METAL] == 1 and st.pl[0, PF.WOOD] == 1  # the metal is kept
    # limit: one of the 4 already spent, or no metal left in the game supply
    upright(st, 48)
    st.warehouse[:] = [2, 2]
    set_items(st, 0)
    for res in (0, 0, 1, 1):
        apply_option(st, r, 0, Act.F_WAREHOUSE, res, 0, 0)
    assert rows(st, r, 0, 48) == [(0, 0)]
    st.supply[Sup.METAL] = 0
    assert rows(st, r, 0, 48) == []
    st.supply[Sup.METAL] = 5
    st.pl[0, PF.STONE] -= 1
    st.pl[0, PF.WH_STONE] -= 1  # spent (sim.core.pay_resources spends Warehouse cubes first)
    st.supply[Sup.STONE] += 1
    assert rows(st, r, 0, 48) == []


def test_card_48_converts_the_4_resources_taken_with_card_28(blank, rules):
    """Card 48 reading: 'When you take all 4 resources of a full City Warehouse (Use City Warehouse,
    still paying its VP penalty: 2 VP each, or 1 VP each with card 28), you may at once return
    those 4 to the supply and take 1 metal from the game supply'."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 28)
    give(st, 0, 48)
    st.warehouse[:] = [2, 2]
    set_items(st, 0)
    vp0 = int(st.pl[0, PF.VP])
    use(st, r, 0, 28, 2, 2)  # all 4, 1 VP each
    assert rows(st, r, 0, 48) == [(0, 0)]
    use(st, r, 0, 48)
    assert st.pl[0, PF.METAL] == 1 and st.pl[0, PF.WOOD] == st.pl[0, PF.STONE] == 0
    assert st.pl[0, PF.VP] - vp0 == -4


def test_card_53_buy_a_banner_for_2_silver(blank, rules):
    """Card 53. 'Acquire a banner paying 2 silver coins to the game supply. If the banner type
    requires two steps, add it face-down (or flip it, if it is already on your player board).'"""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 53)
    assert r.aff_p[cid(53), AP.PAY_SILVER] == 2
    one = [b for b in range(6) if r.banner_steps[b] == 1]
    two = [b for b in range(6) if r.banner_steps[b] == 2]
    assert one and two
    st.pl[0, PF.BANNER_BLACK:PF.BANNER_OCHER + 1] = 0
    # limit: 2 silver coins are needed
    set_items(st, 0, silver=1, bronze=1)
    assert rows(st, r, 0, 53) == []
    set_items(st, 0, silver=2)
    assert rows(st, r, 0, 53) == [(b, 0) for b in range(6)]
    sup = int(st.supply[Sup.SILVER])
    use(st, r, 0, 53, one[0])  # a one-step banner: face-up at once
    assert st.pl[0, PF.BANNER_BLACK + one[0]] == 2
    assert coin_value(st, r, 0) == 0 and st.supply[Sup.SILVER] == sup + 2
    assert_spent(st, r, 0, 53)
    b = two[0]
    for level in (1, 2):  # a two-step banner: face-down, then flipped
        upright(st, 53)
        set_items(st, 0, silver=2)
        use(st, r, 0, 53, b)
        assert st.pl[0, PF.BANNER_BLACK + b] == level
    # a banner already face-up is not offered again
    upright(st, 53)
    set_items(st, 0, silver=2)
    offered = {a for a, _ in rows(st, r, 0, 53)}
    assert one[0] not in offered and b not in offered and len(offered) == 4


def test_card_60_discard_a_card_to_reactivate_all_others(blank, rules):
    """Card 60. 'Discard 1 card, also this one, to immediately reactivate all your cards, excluding
    this one. This is not a burn a card action. Put the reactivated cards straight.' Reading: all
    your rotated cards, Character card included, turn upright; card 60, if kept, stays rotated."""
    st, r = blank, rules
    clear_hands(st)
    ch = int(st.pl[0, PF.CHARACTER])
    c60 = give(st, 0, 60)
    ca = give(st, 0, 14, rotated=True)
    cb = give(st, 0, 20)
    give(st, 1, 26, rotated=True)  # another player's card
    st.card_rot[ch] = 1
    assert set(rows(st, r, 0, 60)) == {(c60, 0), (ca, 0), (cb, 0)}  # any of the seat's Affiliates
    av0 = int(st.pl[0, PF.BURN_AV])
    use(st, r, 0, 60, cb)
    assert st.card_loc[cb] == Loc.PILE + 0  # discarded face up to the player's pile
    assert st.card_rot[ca] == 0 and st.card_rot[ch] == 0  # reactivated, the Character too
    assert st.card_rot[c60] == 1  # excluding this one
    assert st.card_rot[cid(26)] == 1  # only the player's own cards
    assert st.pl[0, PF.BURN_AV] == av0  # not a burn: no AV
    assert_spent(st, r, 0, 60)
    # discarding card 60 itself
    upright(st, 60)
    st.card_rot[ca] = 1
    use(st, r, 0, 60, c60)
    assert st.card_loc[c60] == Loc.PILE + 0 and st.card_rot[ca] == 0
    # limit: nothing to reactivate, no option
    give(st, 0, 60)
    assert rows(st, r, 0, 60) == []


def test_card_62_heal_a_wound_and_gain_5_vp(blank, rules):
    """Card 62. 'Remove a wound from a Soldier or a Miliciano and gain 5 VPs. First, check if the
    unit is alive, then you can heal its wound.' Reading: one of your own miniatures in play; with
    no wounded miniature there is nothing to heal and no VPs."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 62)
    p = r.aff_p[cid(62)]
    assert p[AP.WOUNDS_REMOVED] == 1 and p[AP.VP] == 5
    st.minis[:] = 0
    st.minis[0, 1] = [Mini.MILICIANO, 0]
    st.minis[1, 0] = [Mini.SOLDIER, 2]  # another player's wounded Soldier
    assert rows(st, r, 0, 62) == []  # nothing of yours to heal
    st.minis[0, 2] = [Mini.SOLDIER, 2]
    assert rows(st, r, 0, 62) == [(2, 0)]
    vp0, aff0 = int(st.pl[0, PF.VP]), int(st.vps[0, VS.AFFILIATE])
    use(st, r, 0, 62, 2)
    assert st.minis[0, 2].tolist() == [Mini.SOLDIER, 1] and st.minis[1, 0].tolist() == [Mini.SOLDIER, 2]
    assert st.pl[0, PF.VP] - vp0 == 5 and st.vps[0, VS.AFFILIATE] - aff0 == 5
    assert_spent(st, r, 0, 62)


def test_card_64_reactivate_one_target_card(blank, rules):
    """Card 64. 'Reactivate a target card. Rotate the chosen card to an upright position. It may be
    re-used immediately.' Reading: one of your own rotated cards (Character or Affiliate), not card
    64 itself."""
    st, r = blank, rules
    clear_hands(st)
    ch = int(st.pl[0, PF.CHARACTER])
    c64 = give(st, 0, 64)
    assert rows(st, r, 0, 64) == []  # nothing rotated
    ca = give(st, 0, 31, rotated=True)
    give(st, 1, 14, rotated=True)
    st.card_rot[ch] = 1
    assert set(rows(st, r, 0, 64)) == {(ca, 0), (ch, 0)}
    use(st, r, 0, 64, ca)
    assert st.card_rot[ca] == 0 and st.card_rot[ch] == 1 and st.card_rot[c64] == 1  # one target only
    assert_spent(st, r, 0, 64)
    assert rows(st, r, 0, 31)  # re-usable immediately


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


def test_card_83_adds_x_plus_1_resources_to_the_grids(blank, rules):
    """Card 83. 'Add a total of X+1 resources to grids, where X is the player number. ... Take the
    resources from the game supply. You can add wood or stone resource, or precious resources,
    considering them x2 resources. It's not possible to go over the normal grid capacity.' Reading:
    X = number of players; no grid may exceed its refill amount."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 83)
    n = int(st.g[G.NPLAYERS])
    p = r.aff_p[cid(83)]
    assert p[AP.RESOURCES_PLUS_PLAYERS] == 1 and p[AP.PRECIOUS_COUNTS] == 2
    cubes = int(r.grid_cubes[n - 2])
    prec = n * int(r.k[RK.PRECIOUS_PER_PLAYER])

    def fill():
        st.grids[0:8] = cubes
        st.grids[8] = prec

    # every grid at its refill amount: nothing can be added
    fill()
    assert rows(st, r, 0, 83) == []
    # one wood grid with room for everything: X+1 wood from the supply
    st.grids[5] = 0
    assert cubes >= n + 1
    sup = st.supply.copy()
    use(st, r, 0, 83)
    assert st.grids[5] == n + 1 and st.supply[Sup.WOOD] == sup[Sup.WOOD] - (n + 1)
    assert_spent(st, r, 0, 83)
    # precious count 2: X+1 = 5 units add 2 precious (the last unit buys nothing)
    fill()
    st.grids[8] = 0
    upright(st, 83)
    sup = st.supply.copy()
    use(st, r, 0, 83)
    assert st.grids[8] == (n + 1) // 2 and st.supply[Sup.PRECIOUS] == sup[Sup.PRECIOUS] - (n + 1) // 2
    # never over a grid's refill amount: a stone grid with room for 3 takes 3
    fill()
    st.grids[2] = cubes - 3
    upright(st, 83)
    use(st, r, 0, 83)
    assert st.grids[2] == cubes and st.grids[0:8].sum() == 8 * cubes and st.grids[8] == prec
    # several grids: the total is X+1 units and no grid goes over
    fill()
    st.grids[0] = cubes - 2
    st.grids[4] = cubes - 2
    st.grids[8] = prec - 2
    upright(st, 83)
    before = st.grids.copy()
    use(st, r, 0, 83)
    added = st.grids - before
    assert added[0] <= 2 and added[4] <= 2 and added[8] <= 2
    assert added[0] + added[4] + 2 * added[8] in (n + 1, n)  # n: a single unit left cannot buy a precious
    assert (st.grids[0:8] <= cubes).all() and st.grids[8] <= prec


# ============================================================================= lightning: the Ship


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


def test_card_44_silver_when_the_dock_holds_3_plus_x_elements(blank, rules):
    """Card 44. '⚡ Gain 1 silver coin if the Dock contains at least 3+X resources/coins loaded, where
    X is the player number. For example, in a 4 players game, there are 7 resources in the Dock
    spaces. With this card the player gains 1 silver coin, no matter who loaded the resources in the
    Dock.'"""
    st, r = blank, rules
    clear_hands(st)
    st.spain[:] = 0
    n = int(st.g[G.NPLAYERS])
    p = r.aff_p[cid(44)]
    need = int(p[AP.DOCK_MIN_BASE] + p[AP.DOCK_MIN_PER_PLAYER] * n)
    assert need == 7 and p[AP.SILVER] == 1
    give(st, 3, 44)
    set_items(st, 3)
    # 6 elements: not enough
    load(st, r, 0, three(0))
    load(st, r, 1, three(1))
    assert st.dock[:n].sum() == need - 1
    ship_sails(st, r)
    assert coin_value(st, r, 3) == 0 and st.card_rot[cid(44)] == 0
    # exactly 7 (3 + 2 + 2), none of them loaded by the holder
    load(st, r, 0, three(0))
    load(st, r, 1, coins_load)
    load(st, r, 2, coins_load)
    assert st.dock[:n].sum() == need
    ship_sails(st, r)
    assert st.pl[3, PF.SILVER] == 1 and st.pl[3, PF.BRONZE] == 0
    assert st.card_rot[cid(44)] == 1 and st.card_uses[cid(44)] == 1


# ============================================================================= lightning: War


def _war_state(st, r, holder_num=None, holder=0):
    clear_map(st)
    clear_hands(st)
    st.minis[:] = 0
    st.peace[:] = 0
    if holder_num:
        give(st, holder, holder_num)


def test_card_34_seven_vp_when_walls_reduce_the_war_attack(blank, rules):
    """Card 34. '⚡ Gain 7 VPs every time Walls are part of the Fight calculation: When a Wall
    reduces opponent WA value'. Reading: 7 VPs once per use, when the Walls step of the WAR
    PROCEDURE reduces the WA by at least 1 (any holder, out of turn)."""
    st, r = blank, rules
    assert r.aff_p[cid(34), AP.VP] == 7
    red = int(r.k[RK.RED_ZONE])

    def war(reducing):
        st.g[G.NAT_POS] = red
        st.g[G.NAT_DOUBLE] = 0
        c0 = deck_card(st, r, 0, 0)
        c1 = deck_card(st, r, 0, 0, exclude=(c0,))
        c2 = deck_card(st, r, 1 if reducing else 0, 0, exclude=(c0, c1))
        stack_deck(st, c0, c1, c2)
        tension_and_war(st, r)
        assert st.g[G.WAR_FACTION] == NATIVES

    _war_state(st, r, 34, holder=2)
    st.walls[r.seg_district == 0] = 1  # one district closed by Walls: one card drawn
    # limit: the drawn card shows no Native symbol, the Walls reduce nothing: no VPs
    vp0 = int(st.pl[2, PF.VP])
    war(False)
    assert st.g[G.WAR_WA] == r.k[RK.ATTACK_NATIVES] + r.ten_single[red]
    assert st.card_rot[cid(34)] == 0 and st.pl[2, PF.VP] == vp0
    # the Walls reduce the WA by 1: the holder gains 7 VPs
    war(True)
    assert st.g[G.WAR_WA] == r.k[RK.ATTACK_NATIVES] + r.ten_single[red] - 1
    assert st.card_rot[cid(34)] == 1 and st.card_uses[cid(34)] == 1
    assert st.vps[2, VS.AFFILIATE] == 7 and st.pl[2, PF.VP] == vp0 + 7
    # once per use: the next reduction pays nothing while the card is rotated
    war(True)
    assert st.vps[2, VS.AFFILIATE] == 7 and st.card_uses[cid(34)] == 1


def _soldier(st, seat):
    st.minis[seat] = 0
    st.minis[seat, 0, 0] = Mini.SOLDIER


def test_card_50_silver_when_you_win_a_war_two_against_pirates(blank, rules):
    """Card 50. '⚡ Gain 1 silver coin when you win a War (2 silver coins if they were Pirates). The
    player must use this card just after the War conclusion.'"""
    st, r = blank, rules
    p = r.aff_p[cid(50)]
    assert p[AP.SILVER] == 1 and p[AP.SILVER_VS_PIRATES] == 2
    _war_state(st, r, 50, holder=0)
    av = int(r.war_av[Mini.SOLDIER])
    # limit: a lost War pays nothing
    set_items(st, 0)
    fight(st, r, 0, 1, NATIVES)
    assert st.pl[0, PF.WARS_LOST] == 1 and coin_value(st, r, 0) == 0 and st.card_rot[cid(50)] == 0
    # limit: another player's win pays the holder nothing
    _soldier(st, 1)
    fight(st, r, 1, av, NATIVES)
    assert st.pl[1, PF.WARS_WON] == 1 and coin_value(st, r, 0) == 0 and st.card_rot[cid(50)] == 0
    # a win against the Natives: 1 silver
    _soldier(st, 0)
    fight(st, r, 0, av, NATIVES)
    assert st.pl[0, PF.WARS_WON] == 1 and st.pl[0, PF.SILVER] == 1 and st.card_rot[cid(50)] == 1
    # rotated: the next win pays nothing
    fight(st, r, 0, av, NATIVES)
    assert st.pl[0, PF.WARS_WON] == 2 and st.pl[0, PF.SILVER] == 1
    # against the Pirates: 2 silver
    upright(st, 50)
    _soldier(st, 0)
    set_items(st, 0)
    fight(st, r, 0, av, PIRATES)
    assert st.pl[0, PF.SILVER] == 2 and st.pl[0, PF.BRONZE] == 0 and st.card_uses[cid(50)] == 2


def test_card_55_vp_when_you_win_a_war_more_against_pirates(blank, rules):
    """Card 55. '⚡ Gain 5 VPs when you win a War (8 VPs, if they were Pirates).'"""
    st, r = blank, rules
    p = r.aff_p[cid(55)]
    assert p[AP.VP] == 5 and p[AP.VP_VS_PIRATES] == 8
    _war_state(st, r, 55, holder=1)
    av = int(r.war_av[Mini.SOLDIER])
    fight(st, r, 1, 1, PIRATES)  # no miniature: lost
    assert st.vps[1, VS.AFFILIATE] == 0 and st.card_rot[cid(55)] == 0
    _soldier(st, 1)
    fight(st, r, 1, av, NATIVES)
    assert st.vps[1, VS.AFFILIATE] == 5 and st.card_rot[cid(55)] == 1
    upright(st, 55)
    _soldier(st, 1)
    fight(st, r, 1, av, PIRATES)
    assert st.vps[1, VS.AFFILIATE] == 5 + 8 and st.card_uses[cid(55)] == 2


def _fighters(st, n, kinds):
    """Seats fight with the given miniature whenever it lowers their loss (VP weight only) and never
    burn the held card."""
    for s in range(n):
        script(st, s, vp=1.0, card=10.0)
        st.minis[s] = 0
        if kinds[s] != Mini.NONE:
            st.minis[s, 0, 0] = kinds[s]


def test_card_57_vp_per_miniature_used_in_the_war(blank, rules, engine):
    """Card 57. '⚡ Gain 1 VP for each Miliciano (and 2 VPs for each Soldier) used in the current War
    (add 1 VP in 2-3 player game). For example, in a 3-player game, two players used 1 Soldier
    each, and the player used 1 Miliciano in the War. With this card, the player gains 6 VPs
    (2+2+1=5 and +1=6).'"""
    r, W = engine
    p = r.aff_p[cid(57)]
    assert p[AP.VP_PER_MILICIANO] == 1 and p[AP.VP_PER_SOLDIER] == 2 and p[AP.SMALL_GAME_EXTRA_VP] == 1
    red = int(r.k[RK.RED_ZONE])
    assert r.k[RK.ATTACK_NATIVES] + r.ten_single[red] > 0

    def war(st):
        quiet_deck(st, r)
        st.g[G.NAT_POS] = red
        tension_and_war(st, r)
        assert st.g[G.WAR_FACTION] == NATIVES

    # the rulebook example: 3 players, two Soldiers and the holder's Miliciano
    st = fresh(r, W, 3)
    _war_state(st, r, 57, holder=2)
    _fighters(st, 3, [Mini.SOLDIER, Mini.SOLDIER, Mini.MILICIANO])
    war(st)
    assert st.g[G.WAR_SOLDIERS] == 2 and st.g[G.WAR_MILICIANOS] == 1
    assert st.vps[2, VS.AFFILIATE] == 6 and st.card_rot[cid(57)] == 1
    # 4 players: no extra VP; the holder need not fight
    st = blank
    _war_state(st, r, 57, holder=3)
    _fighters(st, 4, [Mini.SOLDIER, Mini.MILICIANO, Mini.MILICIANO, Mini.NONE])
    war(st)
    assert st.vps[3, VS.AFFILIATE] == 2 + 1 + 1 and st.card_rot[cid(57)] == 1
    # limit: no miniature used in the War, no VPs (the card is kept)
    upright(st, 57)
    st.minis[:] = 0
    war(st)
    assert st.vps[3, VS.AFFILIATE] == 4 and st.card_rot[cid(57)] == 0 and st.card_uses[cid(57)] == 1


# ============================================================================= lightning: salary


def test_card_56_salary_discount_of_1_bronze(blank, rules):
    """Card 56. '⚡ Discount 1 bronze coin from the salaries which you have to pay.' (A. SALARY: 1
    bronze per 3 Affiliate cards, rounded up; each card left unpaid costs 2 VP.)"""
    st, r = blank, rules
    assert r.aff_p[cid(56), AP.BRONZE_DISCOUNT] == 1 and r.k[RK.SALARY_PER_BRONZE] == 3
    clear_hands(st)
    for s in (0, 1):
        script(st, s, vp=1.0, coin=1.0, card=100.0)  # pay rather than discard; fewest VP lost, then fewest coins
        st.pl[s, PF.BANNER_BLACK:PF.BANNER_OCHER + 1] = 0
        st.pl[s, PF.ST_CARDS] = 0
        set_items(st, s, bronze=5)
    for num in (56, 14, 20, 26):
        give(st, 0, num)
    for num in (31, 33, 37, 49):
        give(st, 1, num)
    vp = st.pl[:2, PF.VP].copy()
    pay_salary(st, r, 0)
    pay_salary(st, r, 1)
    assert st.pl[0, PF.BRONZE] == 5 - 1 and st.pl[1, PF.BRONZE] == 5 - 2  # 4 cards: 2 bronze, 1 with the card
    assert (st.pl[:2, PF.VP] == vp).all()  # nothing unpaid
    assert st.card_rot[cid(56)] == 1 and st.card_uses[cid(56)] == 1
    # rotated: the next salary is paid in full
    pay_salary(st, r, 0)
    assert st.pl[0, PF.BRONZE] == 5 - 1 - 2
    # limit: no salary to pay (free cards), the card is not used
    upright(st, 56)
    st.pl[0, PF.ST_CARDS] = 3
    st.pl[0, PF.BANNER_BLACK] = 2
    pay_salary(st, r, 0)
    assert st.pl[0, PF.BRONZE] == 2 and st.card_rot[cid(56)] == 0 and st.card_uses[cid(56)] == 1


# ============================================================================= lightning: Walls, Roads, buildings


def _perimeter_district(r):
    """A district with at least 2 perimeter segments."""
    for d in range(r.district_nseg.shape[0]):
        if (r.seg_district == d).sum() >= 2:
            return d
    raise AssertionError


def test_card_35_coins_when_a_district_is_closed_by_walls(blank, rules):
    """Card 35. '⚡ Gain 1 silver coin and 1 bronze coin when a District is closed by walls (2 silver
    coins if it also has Roads). For example, the Blue player completes the Walls grid and places 4
    new walls, closing a district. You play this card and gain 1 silver and 1 bronze coin'. Reading:
    2 silver instead of (not in addition to) 1 silver + 1 bronze."""
    st, r = blank, rules
    p = r.aff_p[cid(35)]
    assert (p[AP.SILVER], p[AP.BRONZE], p[AP.SILVER_IF_ROADS]) == (1, 1, 2)
    clear_map(st)
    clear_hands(st)
    give(st, 1, 35)
    set_items(st, 1)
    d = _perimeter_district(r)
    segs = np.flatnonzero(r.seg_district == d)
    st.walls[:] = 1
    st.walls[segs[:2]] = 0  # two walls missing in district d, every other segment walled
    # limit: a wall that does not close the district pays nothing
    place_walls(st, r, 0, 1)
    assert st.walls.sum() == len(st.walls) - 1
    assert coin_value(st, r, 1) == 0 and st.card_rot[cid(35)] == 0
    # the last wall closes it (placed by another player): 1 silver + 1 bronze to the holder
    place_walls(st, r, 0, 1)
    assert st.walls.all()
    assert st.pl[1, PF.SILVER] == 1 and st.pl[1, PF.BRONZE] == 1 and st.card_rot[cid(35)] == 1
    # with Roads in the district: 2 silver instead
    st.walls[segs[0]] = 0
    st.supply[Sup.WALLS] += 1
    st.roads[d] = 1
    upright(st, 35)
    set_items(st, 1)
    place_walls(st, r, 0, 1)
    assert st.pl[1, PF.SILVER] == 2 and st.pl[1, PF.BRONZE] == 0 and st.card_uses[cid(35)] == 2


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
    d = _perimeter_district(r)
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
    d = next(d for d in range(r.district_ncells.shape[0]) if r.district_ncells[d] < 9)
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


# ============================================================================= random play


# Implemented powers whose moment is too rare in random play for this file's coverage test, with the
# measured rate (random seats, seeds 0..9,999 for each player count): asserted only when implemented.
RARE_IN_RANDOM_PLAY = {
    36: "a district closed by Walls holding the holder's House or Palace at a Scoring: 1 game in ~40,000",
    71: "the holder's House and another player's House in one district at a Scoring: 1 game in ~15,000",
}


def test_every_implemented_power_fires_in_random_play(engine):
    """Random-policy play, 3 players, seeds 0..19,999: every power in IMPLEMENTED (but the
    RARE_IN_RANDOM_PLAY ones) is used at least once, no other card's power ever fires, and the
    per-card and per-seat use counters agree.

    Calibration (random seats, 10,000 games per player count, then 40,000 3-player games): every
    other power fires within 5,000 3-player games but cards 44 (1 silver when the Dock holds 3+X
    elements: random players seldom load the Ship) and 42 (a district with Roads at a Scoring),
    which fire in about 1 game in 5,000 and 1 in 3,300 with 3 players, and more rarely with 2, 4
    or 5. 20,000 games (~15 s) cover them 5 and 7 times; on a changed random stream each is
    missed with a chance of about 2 % and 0.2 %. The games are those of
    ``run_game(r, W, 3, seed, [0, 0, 0])``, played on one reused state."""
    if not JIT:
        pytest.skip("20,000 games: needs the jitted engine")
    r, W = engine
    games, n = 20_000, 3
    blank = allocate(r)
    buf = np.array([blank], dtype=blank.dtype).view(np.recarray)
    strat = np.zeros(MAX_PLAYERS, np.int32)  # random policy everywhere
    chars = np.full(MAX_PLAYERS, -1, np.int32)
    total = np.zeros(N_CARDS, np.int64)
    sc = allocate(r)
    for seed in range(games):
        buf[0] = blank
        st = buf[0]
        play_game(st, sc, r, W, n, np.uint64(seed), strat, chars, 0)
        assert st.g[G.GAME_OVER] == 1
        assert st.card_uses.sum() == st.card_uses_seat[:n].sum() and st.card_uses_seat[n:].sum() == 0
        total += st.card_uses
    assert set(RARE_IN_RANDOM_PLAY) <= set(IMPLEMENTED)
    implemented = [cid(num) for num in IMPLEMENTED]
    missing = [c + 1 for c in implemented if total[c] == 0 and c + 1 not in RARE_IN_RANDOM_PLAY]
    assert not missing, f"powers never used in {games} games: {missing}"
    others = [c + 1 for c in range(N_CARDS) if c not in implemented and total[c] > 0]
    assert not others, f"powers used but not implemented: {others}"


def test_invariants_every_decade_with_random_card_use(engine):
    """tests/test_random_play.py checks the components after every decade on 40 games whose random
    seats play only 2- and 4-player games (3 and 5 players are greedy, and greedy never uses some
    cards, e.g. 17, 23, 28, 44, 48, 62, 76): here 40 random-policy games, 10 per player count, with
    card powers used in each, checked after every decade."""
    if not JIT:
        pytest.skip("40 games: needs the jitted engine")
    r, W = engine
    for seed in range(40):
        n = 2 + seed % 4
        st = allocate(r)
        st.rng[0] = 5000 + seed
        strat = np.zeros(MAX_PLAYERS, np.int32)
        setup(st, r, W, n, strat, np.full(5, -1, np.int32), 0)
        assert not check_state(st, r)
        for d in range(1, 13):
            st.g[G.DECADE] = d
            st.g[G.ERA] = (d - 1) // 4 + 1
            play_decade(st, r)
            errs = check_state(st, r)
            assert not errs, (seed, d, errs)
            assert st.g[G.EMPTY_OPTS] == 0, (seed, d)
        assert st.card_uses.sum() > 0, seed
        assert st.card_uses.sum() == st.card_uses_seat[:n].sum()


def test_only_the_cost_cards_change_a_construction_cost(blank, rules):
    """The TURN listing reads the printed construction cost unless actions.cost_cards_in_use says
    card 16, 22 or 45 is in use. With each Affiliate card in use alone (card 45's 4 elements left),
    either that says so or build_cost is the printed cost for every Minor building, and it says so
    for exactly the three cards whose power changes a cost."""
    from sim.actions import N_MINOR, build_cost, cost_cards_in_use
    from sim.state import N_CHARACTERS

    st, r = blank, rules
    seat = 0
    st.pl[seat, PF.WOOD] = 1
    st.pl[seat, PF.STONE] = 0
    st.pl[seat, PF.PRECIOUS] = 0
    st.g[G.CARD45_RES] = 4
    flagged = []
    for c in range(N_CHARACTERS, N_CARDS):
        st.card_active[:] = 0
        st.card_active[c] = 1
        old = st.card_loc[c]
        st.card_loc[c] = Loc.HAND + seat
        changed = any(tuple(build_cost(st, r, seat, t)) != tuple(r.b_cost[t, 1:4]) for t in range(1, N_MINOR))
        if cost_cards_in_use(st, seat):
            flagged.append(c + 1)
        else:
            assert not changed, f"card {c + 1} changes a cost the listing does not see"
        st.card_loc[c] = old
    st.card_active[:] = 0
    assert flagged == [16, 22, 45]
