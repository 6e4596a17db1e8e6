"""Session fixtures: the rules, the strategy weights and one warm-up game (compiles or loads the
jitted engine once per test session)."""

from __future__ import annotations

import os
import sys

# One compiled engine for the whole suite: every rules record includes the Extended War and the Solo
# A.I. (sim.compiled_parts), so that the normal, Extended War and Solo games of the tests share one
# compile instead of paying up to four. tests/sim/test_variants.py checks the lean records.
os.environ.setdefault("TRINIDAD_COMPILE", "all")
# The suite's kernels are compiled at LLVM level 1 (gamekit.deferred): a fresh suite compiles about 180
# entry points (tests call kernels from Python), and after the first one each is mostly optimisation.
# The kernels tests call get no pass over the whole of what they link (their code is optimised function
# by function only: two to three times less compile, docs/notebook/performance.md); the batch kernel through
# which the suite's games are played gets one, so its simulations run at about the speed of a run's.
# The games are the same. Their machine code lives in a cache folder of its own
# (gamekit.numba_cache.compile_settings), never loaded by a user's run. Set before anything imports Numba.
os.environ.setdefault("NUMBA_OPT", "1")
os.environ.setdefault("TRINIDAD_OPT_PASSES", "0")
os.environ.setdefault("TRINIDAD_OPT_ENTRY_PASSES", "play_games=1,play_games_search=1")
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


# ----------------------------------------------------------------------------- the files' order on two workers
# `make test` runs two xdist workers with --dist loadfile --no-loadscope-reorder: each takes the next file of
# this order when it runs short of work. A fresh suite compiles two engines, Trinidad's (the session fixture's
# game) and Río de la Plata's game loop, and a worker loads from the shared cache what the other has compiled:
# so one worker starts with a Trinidad file and the other with Río de la Plata's files, each compiling one
# engine while the other compiles the other, instead of both compiling both side by side. The rest follows as
# xdist orders it itself: the files with the most tests first.
TRINIDAD_FIRST = "tests/trinidad/runner/test_runner.py"  # the engine fixture, then the runner's kernels
RIO_FIRST = "tests/rio/test_rio_play.py"  # its second test plays whole games: Río's game loop compiled


def _rio_only(path: str) -> bool:
    return path.startswith("tests/rio/") or path.endswith("/test_rio_runs.py")


def pytest_collection_modifyitems(config, items):
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return
    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    if TRINIDAD_FIRST not in files or RIO_FIRST not in files:  # a part of the suite: xdist's own order
        return

    def rank(path: str):
        first = 0 if path == TRINIDAD_FIRST else 1 if path == RIO_FIRST else 2 if _rio_only(path) else 3
        return (first, -len(files[path]), path)

    items[:] = [item for path in sorted(files, key=rank) for item in files[path]]
