"""Affiliate cards 43-48, the Sailmaker group (CARD REFERENCE > AFFILIATE CARDS > SAILMAKER CARDS):
Load the Ship with City Council workers (43), a silver when the Dock holds 3+X elements (44), 1
metal waiving 4 elements of an action (45), two Ship loads (46), a silver for a triplet (47), the
City Warehouse's 4 resources into 1 metal (48).

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

from helpers import assert_spent, cid, clear_hands, clear_map, coins_load, give, load, rows, set_items, three, turn_rows, upright, use

from sim.actions import apply_option, end_main_action, end_turn, turn_options
from sim.codes import Act
from sim.economy import coin_value
from sim.game import ship_sails
from sim.rules import AP, RK
from sim.state import PF, B, G, Sup


def test_card_43_load_the_ship_with_council_workers(blank, rules):
    """Card 43. 'You can do the Load the Ship action discounting the Workers cost. To gain this
    discount, place 2 City Council workers, or 1 if the Harbor has been built, in the Dock space of
    the board. If the City Council worker(s) is (are) not available, this card effect cannot be
    applied.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 43)
    p = r.aff_p[cid(43)]
    n, nh = int(p[AP.COUNCIL_WORKERS]), int(p[AP.COUNCIL_WORKERS_WITH_HARBOR])
    assert (n, nh) == (r.k[RK.SHIP_WORKERS], r.k[RK.SHIP_WORKERS_HARBOR]) == (2, 1)
    st.pl[0, PF.WORKERS] = 1
    st.pl[0, PF.CC_WORKERS] = 0
    set_items(st, 0, wood=3)
    assert len(turn_rows(st, r, 0, Act.SHIP)) == 0  # 1 worker: not enough
    use(st, r, 0, 43)
    # limit: only 1 City Council worker in the supply: no discount
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    st.supply[Sup.COUNCIL_WORKERS] = n - 1
    assert len(turn_rows(st, r, 0, Act.SHIP)) == 0
    st.supply[Sup.COUNCIL_WORKERS] = sup
    got = turn_rows(st, r, 0, Act.SHIP)
    ld = int(got[0, 1])
    assert r.ship_put[ld, 0] == 3
    apply_option(st, r, 0, int(Act.SHIP), ld, 0, 0)
    assert st.pl[0, PF.WORKERS] == 1 and st.supply[Sup.COUNCIL_WORKERS] == sup - n
    assert st.dock[0] == 3 and st.card_active[cid(43)] == 0
    # with the Harbor built: 1 City Council worker
    end_turn(st, 0)
    st.pl[0, PF.SHIP_LOAD] = -1
    st.g[G.HARBOR_BUILT] = 1
    set_items(st, 0, wood=3)
    upright(st, 43)
    use(st, r, 0, 43)
    st.supply[Sup.COUNCIL_WORKERS] = nh
    apply_option(st, r, 0, int(Act.SHIP), ld, 0, 0)
    assert st.pl[0, PF.WORKERS] == 1 and st.supply[Sup.COUNCIL_WORKERS] == 0


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


def start_cell(st, r):
    """An empty Starting Area space (construction needs no adjacency there)."""
    for c in range(r.cell_start.shape[0]):
        if r.cell_start[c] == 1 and st.cell_b[c] == B.NONE:
            return c
    raise AssertionError("no free Starting Area space")


def test_card_45_one_metal_waives_four_elements_of_one_action(blank, rules):
    """Card 45 (lightning). 'You can spend 1 metal resource to gain in a single action a discount of
    up to 4 elements (workers and/or stone/wood/precious resources) ... If you use this card to gain a
    worker discount, place the City Council workers instead of your workers. If the City Council
    workers are not available, this card effect cannot be applied.' Reading: the rows choose how many
    of the 4 are workers (Council workers lent for the next main action); the rest waives resources,
    first what the seat lacks."""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    p = r.aff_p[cid(45)]
    most = int(p[AP.DISCOUNT_MAX])
    give(st, 0, 45)
    set_items(st, 0, wood=2, stone=1, metal=p[AP.PAY_METAL])
    sup_cc = int(st.supply[Sup.COUNCIL_WORKERS])
    assert rows(st, r, 0, 45) == [(wk, most - wk) for wk in range(min(most, sup_cc) + 1)]
    # a Church costs 2 workers, 2 wood, 3 stone, 1 precious: out of reach with 2 wood and 1 stone
    cost = r.b_cost[B.CHURCH]
    st.pl[0, PF.WORKERS] = 1
    k = turn_options(st, r, 0)
    assert not any(st.opts[i, 0] == Act.BUILD and st.opts[i, 1] == B.CHURCH for i in range(k))
    # 1 worker and 3 resources waived: the Church is built with 1 own worker, 2 wood and 1 stone
    use(st, r, 0, 45, 1, most - 1)
    assert st.pl[0, PF.METAL] == 0 and st.g[G.POOL_CC] == 1 and st.supply[Sup.COUNCIL_WORKERS] == sup_cc - 1
    k = turn_options(st, r, 0)
    builds = [i for i in range(k) if st.opts[i, 0] == Act.BUILD and st.opts[i, 1] == B.CHURCH]
    assert builds
    c = start_cell(st, r)
    i = next(i for i in builds if st.opts[i, 2] == c)
    cc0 = int(st.pl[0, PF.CC_WORKERS])
    apply_option(st, r, 0, int(Act.BUILD), int(B.CHURCH), c, int(st.opts[i, 3]))
    end_main_action(st, r, 0, cc0 - int(st.pl[0, PF.CC_WORKERS]))
    assert st.cell_b[c] == B.CHURCH
    assert st.pl[0, PF.WOOD] == 0 and st.pl[0, PF.STONE] == 0 and st.pl[0, PF.PRECIOUS] == 0
    assert cost[1] + cost[2] + cost[3] - (most - 1) == 2 + 1  # what was paid
    assert st.pl[0, PF.WORKERS] == 0 and st.pl[0, PF.WORKERS_PLACED] == cost[0] - 1
    assert st.pl[0, PF.CC_PLACED] == 1  # the City Council worker stands in on the action space
    # "in a single action": nothing is left for the next one
    assert st.g[G.CARD45_RES] == 0 and st.g[G.POOL_CC] == 0 and st.card_active[cid(45)] == 0
    assert_spent(st, r, 0, 45)
    # limits: no metal, no use; no City Council worker in the supply, only the resource part
    upright(st, 45)
    assert rows(st, r, 0, 45) == []
    st.pl[0, PF.METAL] = 1
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert rows(st, r, 0, 45) == [(0, most)]


def test_card_45_no_discount_on_load_the_ship(blank, rules):
    """Card 45: 'It is not possible to sell (or load on in the ship) discounted resources'; LOAD THE
    SHIP NOTE: 'Any effect that produces a discount ... does not apply to this action.' The lent City
    Council workers do not count for Load the Ship and go back to the supply if it is taken."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 45)
    set_items(st, 0, wood=3, metal=1)
    ship = r.k[RK.SHIP_WORKERS]
    st.pl[0, PF.WORKERS] = ship - 1
    k = turn_options(st, r, 0)
    assert not any(st.opts[i, 0] == Act.SHIP for i in range(k))
    sup_cc = int(st.supply[Sup.COUNCIL_WORKERS])
    use(st, r, 0, 45, 1, r.aff_p[cid(45), AP.DISCOUNT_MAX] - 1)
    k = turn_options(st, r, 0)
    assert not any(st.opts[i, 0] == Act.SHIP for i in range(k))  # the lent worker does not help
    st.pl[0, PF.WORKERS] = ship
    k = turn_options(st, r, 0)
    i = next(i for i in range(k) if st.opts[i, 0] == Act.SHIP)
    apply_option(st, r, 0, int(Act.SHIP), int(st.opts[i, 1]), int(st.opts[i, 2]), 0)
    assert st.supply[Sup.COUNCIL_WORKERS] == sup_cc and st.pl[0, PF.CC_PLACED] == 0
    assert st.pl[0, PF.WORKERS_PLACED] == ship and st.pl[0, PF.WOOD] == 0


def test_card_46_one_more_worker_two_loads_both_paid(blank, rules):
    """Card 46. 'In this decade using an additional worker you can load up to 6 elements in your Dock
    space. For example, with this card, you can load a triplet (stone, wood, precious) of resources
    and 1.5 silver coins using 3 workers. At the decade end you will gain both rewards.'"""
    st, r = blank, rules
    clear_hands(st)
    p = r.aff_p[cid(46)]
    triplet, coins = 2, 3  # ship.load rows: 1 wood + 1 stone + 1 precious; 1 silver + 1 bronze
    assert list(r.ship_put[triplet]) == [1, 1, 1, 0, 0] and list(r.ship_put[coins]) == [0, 0, 0, 1, 1]
    set_items(st, 0, wood=1, stone=1, precious=1, silver=1, bronze=1)
    st.pl[0, PF.WORKERS] = 5
    # limit: without the card a single load of at most 3 elements
    k = turn_options(st, r, 0)
    ships = [tuple(st.opts[i, 1:3]) for i in range(k) if st.opts[i, 0] == Act.SHIP]
    assert ships and all(b == 0 for _, b in ships)
    give(st, 0, 46)
    use(st, r, 0, 46)
    k = turn_options(st, r, 0)
    pairs = {(int(a), int(b)) for a, b in (tuple(st.opts[i, 1:3]) for i in range(k) if st.opts[i, 0] == Act.SHIP)}
    assert (triplet, coins + 1) in pairs
    for a, b in pairs:  # never more than 6 elements, nor items the seat does not hold
        assert r.ship_put[a].sum() + (r.ship_put[b - 1].sum() if b else 0) <= p[AP.DOCK_MAX_ELEMENTS]
    apply_option(st, r, 0, int(Act.SHIP), triplet, coins + 1, 0)
    assert st.pl[0, PF.WORKERS_PLACED] == r.k[RK.SHIP_WORKERS] + p[AP.EXTRA_WORKERS]  # 3 workers
    assert st.pl[0, PF.SHIP_LOAD] == triplet and st.pl[0, PF.SHIP_LOAD2] == coins and st.dock[0] == 5
    assert st.pl[0, PF.WOOD] == st.pl[0, PF.STONE] == st.pl[0, PF.PRECIOUS] == st.pl[0, PF.SILVER] == st.pl[0, PF.BRONZE] == 0
    metal0, faith0 = int(st.pl[0, PF.METAL]), int(st.pl[0, PF.FAITH])
    ship_sails(st, r)
    assert st.pl[0, PF.METAL] == metal0 + r.ship_pay[triplet, 2]  # both rewards
    assert st.pl[0, PF.FAITH] == faith0 + r.ship_pay[coins, 3]
    assert st.pl[0, PF.SHIP_LOAD] == st.pl[0, PF.SHIP_LOAD2] == -1 and st.dock[0] == 0


def test_card_46_second_load_later_in_the_decade(blank, rules):
    """Card 46: the Dock holds 6 elements for the rest of the decade ('In this decade'): a load made
    with the card can be followed by a second one; a third is never offered."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 46)
    set_items(st, 0, wood=6)
    st.pl[0, PF.WORKERS] = 5
    use(st, r, 0, 46)
    apply_option(st, r, 0, int(Act.SHIP), 0, 0, 0)  # 3 wood, with the card's extra worker
    end_turn(st, 0)
    assert st.pl[0, PF.DOCK6_DECADE] == st.g[G.DECADE]
    st.pl[0, PF.WORKERS] = r.k[RK.SHIP_WORKERS]
    k = turn_options(st, r, 0)
    assert any(st.opts[i, 0] == Act.SHIP and st.opts[i, 1] == 0 for i in range(k))
    apply_option(st, r, 0, int(Act.SHIP), 0, 0, 0)
    assert st.dock[0] == 6 and st.pl[0, PF.SHIP_LOAD2] == 0
    st.pl[0, PF.WORKERS] = 5
    set_items(st, 0, wood=3)
    k = turn_options(st, r, 0)
    assert not any(st.opts[i, 0] == Act.SHIP for i in range(k))
    # the next decade the Dock is back to 3 elements
    st.g[G.DECADE] += 1
    ship_sails(st, r)
    k = turn_options(st, r, 0)
    assert all(st.opts[i, 2] == 0 for i in range(k) if st.opts[i, 0] == Act.SHIP)


def test_card_47_silver_for_a_triplet_with_one_more_worker(blank, rules):
    """Card 47. 'When you do a Load the Ship action with a triplet, use 1 additional worker to gain 1
    silver coin. For example, the Blue player loads 1 stone, 1 wood and 1 precious on the Dock using
    3 workers and this card. They immediately receive 1 silver coin.'"""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 47)
    p = r.aff_p[cid(47)]
    assert p[AP.EXTRA_WORKERS] == 1 and p[AP.SILVER] == 1
    use(st, r, 0, 47)
    ship = int(r.k[RK.SHIP_WORKERS])
    # limit: 3 wood is not a triplet
    load(st, r, 0, three(0))
    assert coin_value(st, r, 0) == 0 and st.card_active[cid(47)] == 1
    st.pl[0, PF.SHIP_LOAD] = -1
    ld = load(st, r, 0, lambda q: q[0] == q[1] == q[2] == 1)
    assert ld == r.aff_load[cid(47)]
    assert st.pl[0, PF.SILVER] == p[AP.SILVER] and st.pl[0, PF.BRONZE] == 0
    assert r.k[RK.WORKERS] - st.pl[0, PF.WORKERS] == ship + p[AP.EXTRA_WORKERS] == 3  # 'using 3 workers'
    assert st.card_active[cid(47)] == 0


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
        apply_option(st, r, 0, int(Act.F_WAREHOUSE), res, 0, 0)
    assert rows(st, r, 0, 48) == []  # limit: 3 of the 4 taken
    apply_option(st, r, 0, int(Act.F_WAREHOUSE), 1, 0, 0)
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
        apply_option(st, r, 0, int(Act.F_WAREHOUSE), res, 0, 0)
    assert rows(st, r, 0, 48) == [(0, 0)]
    st.supply[Sup.METAL] = 0
    assert rows(st, r, 0, 48) == []
    st.supply[Sup.METAL] = 5
    st.pl[0, PF.STONE] -= 1
    st.pl[0, PF.WH_STONE] -= 1  # spent (sim.economy.pay_resources spends Warehouse cubes first)
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
