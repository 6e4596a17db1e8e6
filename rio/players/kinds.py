"""What a seat plays: its policy's kind and weights (:class:`Policy`, one row per colour), the engine's
argument for every decision (:mod:`rio.engine.seam`)."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np


class Kind(IntEnum):
    RANDOM = 0      # every legal option equally likely
    HEURISTIC = 1   # the weighted heuristic (rio.players.policy, rio.players.war_policy)
    SEARCH = 2      # rollouts over the heuristic's best options (rio.players.search); plays wars as HEURISTIC


class Policy(NamedTuple):
    kind: np.ndarray   # int32[MAX_COLOURS]: a Kind per colour (the shadow colour's is its controller's)
    w: np.ndarray      # float64[MAX_COLOURS, W]: the heuristic's weights (rio.players.weights.W)
    war: np.ndarray    # float64[MAX_COLOURS, WW]: the war policy's weights (rio.players.war_policy.WW)
    budget: np.ndarray  # int32[MAX_COLOURS]: the search player's rollouts per decision

