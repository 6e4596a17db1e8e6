"""Session fixtures: the rules, the strategy weights and one warm-up game (compiles or loads the
jitted engine once per test session)."""

from __future__ import annotations

import os
import sys

# One compiled engine for the whole suite: every rules record includes the Extended War and the Solo
# A.I. (sim.variants), so that the normal, Extended War and Solo games of the tests share one
# compile instead of paying up to four. tests/sim/test_variants.py checks the lean records.
os.environ.setdefault("TRINIDAD_COMPILE", "all")
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def rules():
    from sim.rules import load_rules

    return load_rules()


@pytest.fixture(scope="session")
def weights():
    from strategies.registry import load_strategies

    W, names = load_strategies(["random", "greedy"])
    assert names == ["random", "greedy"]
    return W


@pytest.fixture(scope="session")
def engine(rules, weights):
    """Warm the kernels once: a whole game compiles every kernel the engine uses."""
    from strategies.match import run_game

    run_game(rules, weights, 4, 0, [0, 1, 0, 1])
    return rules, weights


@pytest.fixture()
def blank(engine):
    """An empty 4-player state after setup (fresh per test), to be edited by hand."""
    import numpy as np

    from sim.game import allocate, setup
    from sim.state import MAX_PLAYERS, G

    r, W = engine
    st = allocate(r)
    st.rng[0] = 12345
    strat = np.zeros(MAX_PLAYERS, np.int32)
    strat[:4] = 1
    setup(st, r, W, 4, strat, np.full(5, -1, np.int32), np.zeros(5, np.int32), 0)
    st.g[G.DECADE] = 1
    st.g[G.ERA] = 1
    return st
