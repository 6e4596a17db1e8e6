"""FREE ACTIONS: Use City Warehouse and Recover Workers (with the rulebook's worked examples).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

from sim.actions import apply_option, end_turn
from sim.codes import Act
from sim.economy import pay_resources
from sim.major_buildings import recover_workers_free
from sim.rules import RK
from sim.state import PF, M, Sup


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
        apply_option(st, r, 2, int(Act.F_WAREHOUSE), 1, 0, 0)
    assert st.warehouse[1] == 0 and st.pl[2, PF.STONE] == s0 + n
    assert st.pl[2, PF.VP] - vp0 == n * r.k[RK.WAREHOUSE_VP]
    pay_resources(st, 2, 0, 1, 0, 0, 0)  # one cube used during the turn
    end_turn(st, 2)
    assert st.pl[2, PF.STONE] == s0  # the player's own stone is untouched
    assert st.supply[Sup.STONE] == sup0 + n  # 1 spent + the unused ones removed
    assert st.warehouse[1] == 0  # back only at C.4 Refill
    assert st.pl[2, PF.VP] - vp0 == n * r.k[RK.WAREHOUSE_VP]


def test_city_warehouse_minus_4(blank, rules):
    """'takes 2 wood resources from City Warehouse and takes a -4 VPs penalty.'"""
    st = blank
    vp0 = st.pl[1, PF.VP]
    w0 = st.pl[1, PF.WOOD]
    apply_option(st, rules, 1, int(Act.F_WAREHOUSE), 0, 0, 0)
    apply_option(st, rules, 1, int(Act.F_WAREHOUSE), 0, 0, 0)
    assert st.pl[1, PF.VP] - vp0 == -4 and st.pl[1, PF.WOOD] == w0 + 2
    pay_resources(st, 1, 1, 0, 0, 0, 0)  # used one to pay a cost
    end_turn(st, 1)
    assert st.pl[1, PF.WOOD] == w0  # +2 taken, 1 spent, the unused one went back to the supply


def test_recover_workers_minus_12(blank, rules):
    """'placed 3 workers in the Cathedral grid ... remove them. He immediately loses 12 VPs.'"""
    st = blank
    st.major[M.CATHEDRAL, :3] = 2
    st.pl[2, PF.WORKERS] -= 3
    vp0 = st.pl[2, PF.VP]
    recover_workers_free(st, rules, 2, M.CATHEDRAL)
    assert st.pl[2, PF.VP] - vp0 == -12 and st.pl[2, PF.WORKERS] == rules.k[RK.WORKERS]
