"""The heuristic's weights (:class:`W`, one float per slot; values in VP-equivalents) and the archetypes a
designer recognises, each a set of weights over the balanced heuristic's:

- ``heuristic``: the balanced player;
- ``builder``: Houses in strong districts (Huts, Houses, the district buildings that raise their value);
- ``officer``: the office buyer (money kept, offices valued high);
- ``contractor``: the Major-grid contractor (grid spaces, completions);
- ``merchant``: the merchant with the Ship (the Harbor, dock work, precious cubes, the Shipowner);
- ``defender``: walls, the Barracks and a garrison (wall grid, tokens bought in war, the General and Defender).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np


class W(IntEnum):
    WORKER = 0        # what a worker placed costs (its other uses this turn)
    WOOD = 1          # a cube held
    STONE = 2
    PRECIOUS = 3
    SILVER = 4
    HUT = 5           # a Hut: room to expand, a House to come
    HOUSE = 6         # a House beyond its end VP (activation rights)
    PRODUCER = 7      # a Stonecutter or Carpenter, per turn left
    MARKET = 8        # a Market or Corporation, per turn left
    NOBLE = 9         # a Square, Monument, Garden, Barracks or Church beyond its VP
    GRID = 10         # a grid space's printed VP
    GRID_WAIT = 11    # a grid worker waiting, per empty space left on its grid
    HARBOR = 12       # the Harbor's completion (the Ship opens)
    DEFENSE = 13      # walls, the Barracks, the Fort
    SHIP = 14         # the Ship's payouts
    OFFICE = 15       # an office's value, multiplier
    ORDER = 16        # a worker on the order track
    NOISE = 17        # uniform noise added to each option's value (diversity between games)
    HORIZON = 18      # turns over which a production building's activations are counted
    PUBLIC = 19       # share of the horizon a production building is worth without an own House beside it
    GRID_RATE = 20    # spaces of a Major grid the table fills a turn (the chance a grid completes, policy.complete_chance)


ARCHETYPES = ("heuristic", "builder", "officer", "contractor", "merchant", "defender")


def default_weights() -> np.ndarray:
    """The balanced heuristic's weights."""
    w = np.zeros(len(W))
    w[W.WORKER] = 0.25
    w[W.WOOD] = 0.5
    w[W.STONE] = 0.5
    w[W.PRECIOUS] = 1.2
    # a coin's worth beyond its end VP (3 coins, 1 VP): what it buys; while he saves for an office within
    # his VP reach, what that office returns per coin (policy.silver_value). At 0.7 (office multiplier 1, the war's coin
    # 0.5) the heuristic spent every coin and never bought an office; a flat 4 (x5 while saving) bought them
    # but hoarded (26 coins at the end, half a House); this buys about one a seat in two games, builds 3
    # Houses and wins 26.1% a seat at one table against the flat 4, 37% against 0.7 (docs/notebook/rio.md,
    # "The heuristic's coins")
    w[W.SILVER] = 2.0
    w[W.HUT] = 3.0
    w[W.HOUSE] = 1.5
    w[W.PRODUCER] = 0.35
    w[W.MARKET] = 0.3
    w[W.NOBLE] = 1.0
    # a grid space's VP are paid only when its grid completes (policy.grid_value weighs them by the chance,
    # policy.complete_chance, that the table fills the spaces left at W.GRID_RATE a turn). At GRID 1 with every
    # space's VP counted as sure, the table put 2 workers a seat on the Palace, Cathedral, Fort and Harbor, none
    # completed and their VP were never paid; with the chance at 0.3 a turn and GRID 2 the heuristic completes
    # the Roads and the Harbor (the Ship sails) and wins 40.7% a seat against the sure-VP heuristic at one table
    # (docs/notebook/rio.md, "The heuristic's grids")
    w[W.GRID] = 2.0
    w[W.GRID_WAIT] = 0.15
    w[W.HARBOR] = 3.0
    w[W.DEFENSE] = 1.0
    w[W.SHIP] = 1.0
    w[W.OFFICE] = 3.0
    w[W.ORDER] = -1.0
    w[W.NOISE] = 0.3
    w[W.HORIZON] = 8.0
    w[W.PUBLIC] = 0.25
    w[W.GRID_RATE] = 0.3
    return w


def archetype_weights(name: str) -> np.ndarray:
    """The weights of an archetype (module docstring); an unknown name is one clear error."""
    if name not in ARCHETYPES:
        raise ValueError(f"rio player: unknown archetype {name!r}; allowed: {', '.join(ARCHETYPES)}")
    w = default_weights()
    if name == "builder":
        w[W.HUT] *= 1.6
        w[W.HOUSE] *= 1.8
        w[W.NOBLE] *= 1.5
    elif name == "officer":
        w[W.OFFICE] *= 1.8
        w[W.SILVER] *= 1.4
    elif name == "contractor":
        w[W.GRID] *= 1.6
        w[W.GRID_WAIT] *= 0.5
    elif name == "merchant":
        w[W.HARBOR] *= 2.0
        w[W.SHIP] *= 1.8
        w[W.PRECIOUS] *= 1.2
    elif name == "defender":
        w[W.DEFENSE] *= 2.5
    return w
