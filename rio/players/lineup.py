"""A table's players as the engine takes them: :func:`make_policy` builds a :class:`rio.players.kinds.Policy`
from each seat's kind and weights (the heuristic's and the war policy's defaults where none are given)."""

from __future__ import annotations

import numpy as np

from rio.engine.state import MAX_COLOURS
from rio.players.kinds import Policy
from rio.players.war_policy import WW, default_war_weights
from rio.players.weights import W, default_weights


def make_policy(kinds, weights=None, war_weights=None, budget=0) -> Policy:
    """A :class:`Policy` for seats 0..len(kinds)-1 (a Kind each); ``weights`` one row per seat (or one row for
    all); the shadow colour (2-player game) plays as seat 0's kind with no weights of its own (it has no
    decisions: its discs are placed by the seats)."""
    kind = np.zeros(MAX_COLOURS, np.int32)
    w = np.tile(default_weights(), (MAX_COLOURS, 1)) if weights is None else np.zeros((MAX_COLOURS, len(W)))
    ww = np.tile(default_war_weights(), (MAX_COLOURS, 1)) if war_weights is None else np.zeros((MAX_COLOURS, len(WW)))
    for i, k in enumerate(kinds):
        kind[i] = int(k)
        if weights is not None:
            w[i] = np.asarray(weights[i] if np.ndim(weights) == 2 else weights, float)
        if war_weights is not None:
            ww[i] = np.asarray(war_weights[i] if np.ndim(war_weights) == 2 else war_weights, float)
    kind[len(kinds):] = kind[0]
    return Policy(kind=kind, w=w, war=ww, budget=np.full(MAX_COLOURS, budget, np.int32))
