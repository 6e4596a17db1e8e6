"""trinidad-sim: the rules engine (Numba).

Numba's on-disk cache (``cache=True``) checks only a kernel's own source file: when a callee in
another file changes, callers keep the stale machine code of the old callee. So the cache lives in
a folder named after a hash of every jitted source file (of sim, strategies and trinidad) (``sim/__pycache__/numba-<hash>``): an
edit anywhere starts a fresh cache, and a process still running old code can only write into the
old folder (no race between processes). Older folders are removed. A ``NUMBA_CACHE_DIR`` set by
the user wins (the benchmark uses it for a cold compile).

Importing the package also installs :mod:`sim.specialize` (one compiled specialization per
engine function).
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path


def engine_hash(root: Path) -> str:
    """A hash of every jitted source file under ``root``'s sim, strategies and trinidad packages,
    subpackages (sim/actions/) included, with the enums the code freezes and the specialization
    hook: the name of the engine's cache folder."""
    h = hashlib.sha256()
    for d in (root / "sim", root / "strategies", root / "trinidad"):
        for p in sorted(d.rglob("*.py")):
            src = p.read_bytes()
            if b"@njit" in src or p.name in ("state.py", "codes.py", "rules.py", "specialize.py", "deferred.py", "schema.py",
                                               "weights.py", "variants.py"):
                h.update(str(p.relative_to(root)).encode())
                h.update(src)
    return h.hexdigest()[:16]


def _engine_cache_dir() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    root = Path(__file__).resolve().parent.parent
    base = root / "sim" / "__pycache__"
    cache = base / f"numba-{engine_hash(root)}"
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only install: leave Numba's default
        return
    for old in base.glob("numba-*"):
        if old != cache:
            shutil.rmtree(old, ignore_errors=True)
    import numba

    numba.config.CACHE_DIR = str(cache)


_engine_cache_dir()

from sim import deferred, specialize  # noqa: E402,F401  (before anything compiles: machine code per entry point, one specialization per function)
