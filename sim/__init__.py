"""trinidad-sim: the rules engine (Numba).

The engine compiles into the Numba cache folder both games' engines share (:mod:`gamekit.numba_cache`:
``gamekit/__pycache__/numba-<hash>``, named after a hash of every jitted source file of sim,
strategies, trinidad, rio and gamekit, because Numba's cache checks only a kernel's own file; older
folders are removed; a ``NUMBA_CACHE_DIR`` set by the user wins). Machine code compiled with other
optimisation settings (``NUMBA_OPT``, ``TRINIDAD_OPT_PASSES``, ``TRINIDAD_OPT_ENTRY_PASSES``) lives in a
folder of its own beside it (``numba-<hash>-o1p0eplay_games1``: tests/conftest.py compiles at level 1,
no pass but over the batch kernel, and must not leave its code to a user's run). The names
:func:`compile_settings`, :func:`entry_passes`, :func:`stale_cache_dirs` and :data:`KEEP_ENGINES` are
gamekit.numba_cache's, read here too. :func:`engine_hash` is Trinidad's code alone (the key of stored
games: trinidad.store, the ladder), so an edit of Río's engine keeps them.

The engine's set-up (that cache folder and its housekeeping, then :mod:`gamekit.deferred`'s machine
code per entry point and :mod:`gamekit.specialize`'s one compiled specialization per engine function,
which Río de la Plata's engine shares) runs
when Numba is first imported, right after Numba's own import and before any module can decorate a
kernel with it, whatever the entry point (the CLI, the tests, ``python -m``, a Ray worker unpickling a
task): :func:`gamekit.numba_cache.install` hooks Numba's import, or the set-up runs at once when Numba
was imported before this package. Importing the package alone does nothing else: a reader of a run's
tables (:mod:`analysis`, :mod:`reports`, through :mod:`sim.schema` and :mod:`sim.dataset`) loads no
compiler and hashes no source (issue 95; tests/test_architecture.py).
"""

from __future__ import annotations

from pathlib import Path

from gamekit import numba_cache
from gamekit.numba_cache import KEEP_ENGINES, compile_settings, entry_passes, stale_cache_dirs  # noqa: F401  (sim.compile_settings, ...)

# Trinidad's packages: the code a game of Trinidad runs (gamekit's random numbers included)
TRINIDAD_PACKAGES = ("sim", "strategies", "trinidad", "gamekit")


def engine_hash(root: Path) -> str:
    """A hash of every jitted source file under ``root``'s sim, strategies, trinidad and gamekit
    packages, subpackages (sim/actions/) included, with the enums the code freezes and the
    specialization hook: Trinidad's engine code, the key of stored games. The cache folder's name
    hashes these and Río's engine too (:func:`gamekit.numba_cache.engine_hash`)."""
    return numba_cache.engine_hash(root, TRINIDAD_PACKAGES)


def _set_up_engine() -> None:
    """Trinidad's own set-up (module docstring), after the cache folder's: Numba is imported;
    nothing has been compiled yet."""
    global _engine_set_up
    if _engine_set_up:
        return
    _engine_set_up = True  # the compile hooks came with the cache folder (gamekit.numba_cache); nothing of sim's own


_engine_set_up = False
numba_cache.install(_set_up_engine)
