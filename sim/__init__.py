"""trinidad-sim: the rules engine (Numba).

Numba's on-disk cache (``cache=True``) checks only a kernel's own source file: when a callee in
another file changes, callers keep the stale machine code of the old callee. So the cache lives in
a folder named after a hash of every jitted source file (of sim, strategies and trinidad) (``sim/__pycache__/numba-<hash>``): an
edit anywhere starts a fresh cache, and a process still running old code can only write into the
old folder (no race between processes). Older folders are removed. A ``NUMBA_CACHE_DIR`` set by
the user wins (the benchmark uses it for a cold compile).

Machine code compiled with other optimisation settings (``NUMBA_OPT``, Numba's LLVM level, default
3; ``TRINIDAD_OPT_PASSES``, sim.deferred's passes over an entry point, default 2, and
``TRINIDAD_OPT_ENTRY_PASSES``, the same by entry point's name) lives in a folder of its own beside it
(``numba-<hash>-o1p0eplay_games1``): Numba's cache does not record the settings, so a test run
(tests/conftest.py compiles at level 1, no pass but over the batch kernel) must not leave its code to a user's run,
nor the two remove each other's folders.

The engine's set-up (this cache folder, the housekeeping of the old ones, :mod:`sim.deferred`'s
machine code per entry point, :mod:`sim.specialize`'s one compiled specialization per engine
function) runs when Numba is first imported, right after Numba's own import and before any module
can decorate a kernel with it, whatever the entry point (the CLI, the tests, ``python -m``, a Ray
worker unpickling a task): :class:`_AfterNumba` hooks Numba's import, or the set-up runs at once
when Numba was imported before this package. Importing the package alone does nothing else: a
reader of a run's tables (:mod:`analysis`, :mod:`reports`, through :mod:`sim.schema` and
:mod:`sim.dataset`) loads no compiler and hashes no source (issue 95; tests/test_architecture.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import os
import shutil
import sys
from pathlib import Path

from sim.opt_settings import compile_settings, entry_passes  # noqa: F401  (sim.compile_settings, sim.entry_passes)


def engine_hash(root: Path) -> str:
    """A hash of every jitted source file under ``root``'s sim, strategies and trinidad packages,
    subpackages (sim/actions/) included, with the enums the code freezes and the specialization
    hook: the name of the engine's cache folder."""
    h = hashlib.sha256()
    for d in (root / "sim", root / "strategies", root / "trinidad"):
        for p in sorted(d.rglob("*.py")):
            src = p.read_bytes()
            if b"@njit" in src or p.name in ("state.py", "codes.py", "rules.py", "specialize.py", "deferred.py", "schema.py",
                                               "weights.py", "compiled_parts.py", "rule_keys.py"):
                h.update(str(p.relative_to(root)).encode())
                h.update(src)
    return h.hexdigest()[:16]


# Engines whose machine code is kept: this one and the two used most recently before it, so that a
# revert, a branch switch or two builds benched in turn load their machine code again rather than
# compile it (a few MB a folder since sim.deferred).
KEEP_ENGINES = 3


def stale_cache_dirs(base: Path, h: str, keep: int = KEEP_ENGINES) -> list[Path]:
    """The cache folders under ``base`` to remove at import: those of every engine but the one
    hashed ``h`` and the ``keep`` - 1 other engines used most recently (the newest time of an
    engine's folders; :func:`_engine_cache_dir` touches this engine's folder at every import).
    An engine's folders for every optimisation setting (``numba-<h>``, ``numba-<h>-o1p1``, ...) go
    or stay together."""
    engines: dict[str, list[Path]] = {}
    for p in base.glob("numba-*"):
        engines.setdefault(p.name[len("numba-"):].split("-")[0], []).append(p)
    engines.pop(h, None)

    def last_used(e: str) -> float:
        t = 0.0
        for p in engines[e]:
            with contextlib.suppress(OSError):  # another process may be removing it
                t = max(t, p.stat().st_mtime)
        return t

    old = sorted(engines, key=last_used, reverse=True)[max(0, keep - 1):]
    return sorted(p for e in old for p in engines[e])


def _engine_cache_dir() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parent.parent
    base = root / "sim" / "__pycache__"
    h = engine_hash(root)
    cache = base / f"numba-{h}{compile_settings()}"
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only install: leave Numba's default
        return
    with contextlib.suppress(OSError):  # used now: the folders of the engines used longest ago go first
        os.utime(cache)
    for old in stale_cache_dirs(base, h):
        shutil.rmtree(old, ignore_errors=True)
    import numba

    numba.config.CACHE_DIR = str(cache)


def _set_up_engine() -> None:
    """The engine's set-up (module docstring): Numba is imported; nothing has been compiled yet."""
    global _engine_set_up
    if _engine_set_up:
        return
    _engine_set_up = True
    _engine_cache_dir()
    from sim import deferred, specialize  # noqa: F401  (machine code per entry point, one specialization per function)


class _AfterNumba(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Numba's import, followed by the engine's set-up before the importer gets Numba back (so
    before any kernel is decorated, a cache folder chosen or machine code loaded)."""

    def find_spec(self, name, path=None, target=None):
        if name != "numba":
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None:
            return None
        self._loader = spec.loader
        spec.loader = self
        return spec

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        module.__loader__ = module.__spec__.loader = self._loader  # Numba's own loader from now on
        self._loader.exec_module(module)
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        _set_up_engine()


_engine_set_up = False
if "numba" in sys.modules:
    _set_up_engine()
else:
    sys.meta_path.insert(0, _AfterNumba())
