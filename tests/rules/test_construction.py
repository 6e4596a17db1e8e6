"""1-2. MINOR BUILDING CONSTRUCTION, GROUP A-B: where a building may go (Construction requirements) and
what a construction takes from and gives back to the supply (the Hacienda marker cube, SETUP).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

import numpy as np
from helpers import clear_map, put, set_items, turn_rows

from sim.codes import Act
from sim.rules import RK
from sim.state import PF, B, Sup


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


def test_hacienda_marker_cube_leaves_the_supply_and_returns_when_displaced(blank, rules):
    """'Place a resource cube on the corresponding Hacienda (wood or stone, taken from the game supply)
    to distinguish it from the Corporation.' The cube is a component: it leaves the supply while the
    Hacienda stands and comes back when the building is displaced."""
    from sim.actions import build
    from sim.major_buildings import remove_minor

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
