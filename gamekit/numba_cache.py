"""The Numba cache folder both games' engines compile into, and the set-up that chooses it.

Numba's on-disk cache (``cache=True``) checks only a kernel's own source file: when a callee in
another file changes, callers keep the stale machine code of the old callee. So the cache lives in
a folder named after a hash of every jitted source file of both engines (:func:`engine_hash` over
:data:`ENGINE_PACKAGES`: Trinidad's sim, strategies and trinidad, Río de la Plata's rio, and this
package), ``gamekit/__pycache__/numba-<hash>``: an edit anywhere starts a fresh cache, and a process
still running old code can only write into the old folder (no race between processes). This
build's folders and those of the two builds used most recently before it are kept, older ones
removed (:func:`stale_cache_dirs`). A ``NUMBA_CACHE_DIR`` set by the user wins (the benchmark uses it
for a cold compile); a read-only install leaves Numba's default. Numba's cache folder is one per
process, so the two engines share it: a process that plays both games, in either order, compiles
into one folder, and an edit of either game's engine starts it afresh (Trinidad's machine code too).

Machine code compiled with other optimisation settings (``NUMBA_OPT``, Numba's LLVM level, default
3; ``TRINIDAD_OPT_PASSES``, gamekit.deferred's passes over an entry point, default 2, and
``TRINIDAD_OPT_ENTRY_PASSES``, the same by entry point's name) lives in a folder of its own beside it
(``numba-<hash>-o1p0eplay_games1``, :func:`compile_settings`): Numba's cache does not record the
settings, so a test run must not leave its code to a user's run, nor the two remove each other's
folders.

The folder is chosen when Numba is first imported, right after Numba's own import and before any
module can decorate a kernel with it, whatever the entry point: :func:`install` (called by ``sim``,
``rio.engine`` and this package) hooks Numba's import, or chooses at once when Numba was imported
before. An engine's own set-up (sim's compile hooks) is a callback :func:`install` runs after the
choice. Importing this module loads no compiler and hashes no source.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.abc
import importlib.machinery
import os
import shutil
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from gamekit.compile_env import entry_passes  # read here, and re-exported (sim.entry_passes)

ROOT = Path(__file__).resolve().parent.parent
# where the cache folders live: beside this package's own compiled files, neither game's
CACHE_BASE = Path(__file__).resolve().parent / "__pycache__"
# the packages whose jitted sources name the cache folder: both engines, their players and orchestration
ENGINE_PACKAGES = ("sim", "strategies", "trinidad", "gamekit", "rio")
# files without a kernel whose contents the kernels freeze into machine code (enums, sizes, record
# layouts) or that change how the engine compiles (sim's compile hooks), by name in any package ...
FROZEN_NAMES = ("state.py", "codes.py", "rules.py", "specialize.py", "deferred.py", "schema.py", "weights.py",
                "compiled_parts.py", "rule_keys.py")
# ... and by path: Río's rule keys and packed-rules layout (rio.keys, rio.packing)
FROZEN_FILES = ("rio/keys.py", "rio/packing.py")
# folders hashed whole: Río's engine and players (their state, geometry and policy rows are all engine data)
WHOLE_FOLDERS = ("rio/engine", "rio/players")


def _hashed(rel: Path, src: bytes) -> bool:
    return (b"@njit" in src or rel.name in FROZEN_NAMES or rel.as_posix() in FROZEN_FILES
            or any(rel.as_posix().startswith(d + "/") for d in WHOLE_FOLDERS))


def engine_hash(root: Path, packages: Iterable[str] = ENGINE_PACKAGES) -> str:
    """A hash of every jitted source file under ``root``'s ``packages`` (subpackages included),
    with the files the kernels freeze (:data:`FROZEN_NAMES`, :data:`FROZEN_FILES`,
    :data:`WHOLE_FOLDERS`): over :data:`ENGINE_PACKAGES`, the name of the cache folder."""
    h = hashlib.sha256()
    for pkg in packages:
        for p in sorted((root / pkg).rglob("*.py")):
            rel = p.relative_to(root)
            src = p.read_bytes()
            if _hashed(rel, src):
                h.update(str(rel).encode())
                h.update(src)
    return h.hexdigest()[:16]


# Engines whose machine code is kept: this one and the two used most recently before it, so that a
# revert, a branch switch or two builds benched in turn load their machine code again rather than
# compile it (a few MB a folder since gamekit.deferred).
KEEP_ENGINES = 3


def stale_cache_dirs(base: Path, h: str, keep: int = KEEP_ENGINES) -> list[Path]:
    """The cache folders under ``base`` to remove at Numba's import: those of every engine but the
    one hashed ``h`` and the ``keep`` - 1 other engines used most recently (the newest time of an
    engine's folders; :func:`choose_cache_dir` touches this engine's folder at every import).
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


def compile_settings() -> str:
    """The cache folder's suffix for optimisation settings other than the defaults (module
    docstring), read from the environment without loading Numba: ``""``, or ``"-"`` followed by
    ``o<NUMBA_OPT>`` and/or ``p<TRINIDAD_OPT_PASSES>``, then each ``TRINIDAD_OPT_ENTRY_PASSES``
    override as ``e<name><passes>``."""
    opt = os.environ.get("NUMBA_OPT", "").strip()
    passes = os.environ.get("TRINIDAD_OPT_PASSES", "").strip()
    tag = (f"o{opt}" if opt not in ("", "3") else "") + (f"p{passes}" if passes not in ("", "2") else "")
    tag += "".join(f"e{name}{n}" for name, n in sorted(entry_passes(os.environ.get("TRINIDAD_OPT_ENTRY_PASSES", "")).items()))
    return f"-{tag}" if tag else ""


def choose_cache_dir(root: Path = ROOT, base: Path = CACHE_BASE) -> Path | None:
    """Point Numba at this build's cache folder (``base/numba-<hash><settings>``), made if need be,
    and remove the folders of the engines used longest ago; the folder, or None where the user's
    ``NUMBA_CACHE_DIR`` wins or ``base`` is read-only (Numba's default stays)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    h = engine_hash(root)
    cache = base / f"numba-{h}{compile_settings()}"
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only install: leave Numba's default
        return None
    with contextlib.suppress(OSError):  # used now: the folders of the engines used longest ago go first
        os.utime(cache)
    for old in stale_cache_dirs(base, h):
        shutil.rmtree(old, ignore_errors=True)
    import numba

    numba.config.CACHE_DIR = str(cache)
    return cache


_chosen = False  # the cache folder is chosen (once a process)
_pending: list[Callable[[], None]] = []  # engines' set-ups not run yet


def _set_up() -> None:
    """Numba is imported, nothing of the project compiled: the cache folder, the compile hooks both
    engines share (machine code once per entry point, gamekit.deferred; one specialization per function,
    gamekit.specialize), then the engines' own set-ups."""
    global _chosen
    if not _chosen:
        _chosen = True
        choose_cache_dir()
        from gamekit import deferred, specialize  # noqa: F401  (they patch Numba when imported)
    while _pending:
        _pending.pop(0)()


def install(set_up: Callable[[], None] | None = None) -> None:
    """Choose the cache folder, then run ``set_up`` (an engine's own set-up, once), right after
    Numba's first import; at once when Numba is imported already. Safe to call from every engine:
    one hook, one folder a process."""
    if set_up is not None:
        _pending.append(set_up)
    if "numba" in sys.modules:
        _set_up()
    elif not any(isinstance(f, _AfterNumba) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterNumba())


class _AfterNumba(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Numba's import, followed by the set-up before the importer gets Numba back (so before any
    kernel is decorated, a cache folder chosen or machine code loaded)."""

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
        _set_up()
