"""11. MAJOR BUILDING as a main action: workers on an open Major Building grid (the grids,
completion and placement are :mod:`sim.major_buildings`)."""

from numba import njit

from sim.actions.turn_rows import add_row
from sim.codes import Act
from sim.major_buildings import grid_free, major_open


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def major_rows(st, r, k, avail):
    """The MAJOR rows from row ``k``: (building, workers), several workers at once."""
    for m in range(6):
        if major_open(st, r, m):
            for w in range(1, min(avail, grid_free(st, r, m)) + 1):
                k = add_row(st, k, Act.MAJOR, m, w, 0, 0)
    return k
