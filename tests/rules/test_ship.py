"""5. LOAD THE SHIP and C. END OF THE DECADE, 2. SHIP SAILS FOR SPAIN: the loads, their pay-out, the
Spain support Act's extra, the Harbor's and the Cathedral's effects.

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import row_by_put, set_items, stack_value, supply_coin_value, turn_rows

from sim.actions import apply_option, ship_workers
from sim.codes import Act
from sim.game import ship_sails
from sim.rules import RK
from sim.state import PF, G, M, Sup


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
        apply_option(st, r, seat, int(Act.SHIP), seat, 0, 0)
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
    apply_option(st, r, 0, int(Act.SHIP), int(rows[0, 1]), 0, 0)
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
    apply_option(st, r, 0, int(Act.SHIP), int(rows[0, 1]), 0, 0)
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
    apply_option(st, r, 0, int(Act.SHIP), cheap, 0, 0)
    assert st.pl[0, PF.SILVER] == 0 and st.dock[0] == 1
