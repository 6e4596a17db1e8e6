"""Session fixtures: the rules, the strategy weights and one warm-up game (compiles or loads the
jitted engine once per test session)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

# The suite's compile settings (tests/suite_settings.py), set before anything imports Numba.
from suite_settings import apply  # noqa: E402

apply()
import pytest  # noqa: E402


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


# ----------------------------------------------------------------------------- where a fresh suite's compile goes
# TRINIDAD_TEST_COMPILE_LOG=DIR: each pytest process (each xdist worker) writes DIR/<worker>.json, every
# compile it paid (a call from Python that Numba compiled, or gamekit.deferred making an entry point's machine
# code for a function first compiled as a callee): the function, its argument types, the seconds and the
# test that paid it. `python -m trinidad.lab.compile_progress DIR` sums it up (docs/notebook/performance.md).
_COMPILE_LOG = os.environ.get("TRINIDAD_TEST_COMPILE_LOG")
if _COMPILE_LOG:
    import json
    import time

    _compiles: list[dict] = []
    _now = {"test": "(collection)"}

    def pytest_runtest_setup(item):
        _now["test"] = item.nodeid

    def pytest_configure(config):
        from numba.core import event

        from gamekit import deferred
        from trinidad.lab.compile_progress import _name

        class _Log(event.Listener):
            depth = 0
            t0 = 0.0

            def on_start(self, ev):
                if self.depth == 0:
                    self.t0 = time.perf_counter()
                self.depth += 1

            def on_end(self, ev):
                self.depth -= 1
                if self.depth == 0:
                    _compiles.append({"what": "compile", "function": _name(ev.data), "args": repr(ev.data.get("args")),
                                      "seconds": round(time.perf_counter() - self.t0, 2), "test": _now["test"]})

        event.register("numba:compile", _Log())
        materialize = deferred.LazyEntry._materialize

        def _timed(self):
            if self.cfunc is not None:
                return materialize(self)
            t0 = time.perf_counter()
            out = materialize(self)
            _compiles.append({"what": "materialize", "function": self.fndesc.qualname, "args": repr(self.fndesc.argtypes),
                              "seconds": round(time.perf_counter() - t0, 2), "test": _now["test"]})
            return out

        deferred.LazyEntry._materialize = _timed

    def pytest_sessionfinish(session):
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        out = Path(_COMPILE_LOG)
        out.mkdir(parents=True, exist_ok=True)
        (out / f"{worker}.json").write_text(json.dumps(_compiles, indent=1))
