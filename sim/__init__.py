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

Importing the package also installs :mod:`sim.specialize` (one compiled specialization per
engine function).
"""

from __future__ import annotations

import contextlib
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
                                               "weights.py", "compiled_parts.py"):
                h.update(str(p.relative_to(root)).encode())
                h.update(src)
    return h.hexdigest()[:16]


def entry_passes(spec: str) -> dict[str, int]:
    """``TRINIDAD_OPT_ENTRY_PASSES``: passes for named entry points, overriding ``TRINIDAD_OPT_PASSES``
    (``"play_games=1"``; comma-separated). The test suite gives every kernel a test calls from Python
    no pass of its own and the batch kernel that plays its games one (tests/conftest.py)."""
    out = {}
    for item in filter(None, (x.strip() for x in spec.split(","))):
        name, _, n = item.partition("=")
        if not name.strip() or not n.strip().isdigit():
            raise ValueError(f"TRINIDAD_OPT_ENTRY_PASSES: {item!r} is not NAME=PASSES")
        out[name.strip()] = int(n)
    return out


def compile_settings() -> str:
    """The cache folder's suffix for optimisation settings other than the defaults (module
    docstring): ``""``, or ``"-"`` followed by ``o<NUMBA_OPT>`` and/or ``p<TRINIDAD_OPT_PASSES>``,
    then each ``TRINIDAD_OPT_ENTRY_PASSES`` override as ``e<name><passes>``."""
    opt = os.environ.get("NUMBA_OPT", "").strip()
    passes = os.environ.get("TRINIDAD_OPT_PASSES", "").strip()
    tag = (f"o{opt}" if opt not in ("", "3") else "") + (f"p{passes}" if passes not in ("", "2") else "")
    tag += "".join(f"e{name}{n}" for name, n in sorted(entry_passes(os.environ.get("TRINIDAD_OPT_ENTRY_PASSES", "")).items()))
    return f"-{tag}" if tag else ""


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


_engine_cache_dir()

from sim import deferred, specialize  # noqa: E402,F401  (before anything compiles: machine code per entry point, one specialization per function)
