"""11. MAJOR BUILDING: completing a grid (MAJOR BUILDING DESCRIPTION, Walls).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

from helpers import clear_map

from sim.major_buildings import major_open, n_spaces, place_on_grid, recover_completed
from sim.rules import RK
from sim.state import PF, M, Sup


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
