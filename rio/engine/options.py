"""The kinds of the options a player chooses among (``Scratch.opts`` rows, column OPT.KIND): :class:`PL`
for A | WORKER PLACEMENT (rio.engine.placement), :class:`EF` for B | EFFECTS OF WORKERS (rio.engine.effects);
their arguments are described in those modules. Apart so that the players read them without the phases."""

from __future__ import annotations

from enum import IntEnum

from numba import njit

from rio.engine.state import OPT


class PL(IntEnum):
    CITY = 0
    SUBSTITUTE = 1
    GRID = 2
    MINE = 3
    FIELD = 4
    ARTISAN = 5
    DOCK = 6
    OFFICE = 7
    ORDER = 8
    DEPART = 9
    PASS = 10


class EF(IntEnum):
    BUILD = 0
    ACTIVATE = 1
    GRID_PAY = 2
    ARTISAN = 3
    LOAD = 4
    OFFICE = 5
    DONE = 6


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def add_option(sc, n, kind, a, b, c, d):
    """Write option ``n`` and return ``n + 1``."""
    sc.opts[n, OPT.KIND] = kind
    sc.opts[n, OPT.A] = a
    sc.opts[n, OPT.B] = b
    sc.opts[n, OPT.C] = c
    sc.opts[n, OPT.D] = d
    return n + 1
