"""The test suite's compile settings, set in the environment before anything imports Numba: by the session
fixtures (conftest.py) and by ``make test``'s warm step (tests/warm.py), so that both use one cache folder.

One compiled engine for the whole suite: every rules record includes the Extended War and the Solo A.I.
(sim.compiled_parts), so that the normal, Extended War and Solo games of the tests share one compile instead
of paying up to four. tests/sim/test_variants.py checks the lean records.

The suite's kernels are compiled at LLVM level 1 (gamekit.deferred): a fresh suite compiles about 180 entry
points (tests call kernels from Python), and after the first one each is mostly optimisation. The kernels
tests call get no pass over the whole of what they link (their code is optimised function by function only:
two to three times less compile, docs/notebook/performance.md); the batch kernel through which the suite's
games are played gets one, so its simulations run at about the speed of a run's. The games are the same.
Their machine code lives in a cache folder of its own (gamekit.numba_cache.compile_settings), never loaded by
a user's run."""

from __future__ import annotations

import os


def apply() -> None:
    os.environ.setdefault("TRINIDAD_COMPILE", "all")
    os.environ.setdefault("NUMBA_OPT", "1")
    os.environ.setdefault("TRINIDAD_OPT_PASSES", "0")
    os.environ.setdefault("TRINIDAD_OPT_ENTRY_PASSES", "play_games=1,play_games_search=1")
