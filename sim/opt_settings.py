"""The optimisation settings a process compiles with, read from the environment without loading
Numba: ``NUMBA_OPT`` (Numba's LLVM level), ``TRINIDAD_OPT_PASSES`` (:mod:`sim.deferred`'s passes over
an entry point) and ``TRINIDAD_OPT_ENTRY_PASSES`` (the same by entry point's name). The engine's cache
folder is named after them (:func:`compile_settings`, sim/__init__.py) and sim.deferred reads its
passes with :func:`entry_passes`; a module of its own so that neither imports the other's package
names back.
"""

from __future__ import annotations

import os


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
    """The cache folder's suffix for optimisation settings other than the defaults (sim/__init__.py's
    docstring): ``""``, or ``"-"`` followed by ``o<NUMBA_OPT>`` and/or ``p<TRINIDAD_OPT_PASSES>``,
    then each ``TRINIDAD_OPT_ENTRY_PASSES`` override as ``e<name><passes>``."""
    opt = os.environ.get("NUMBA_OPT", "").strip()
    passes = os.environ.get("TRINIDAD_OPT_PASSES", "").strip()
    tag = (f"o{opt}" if opt not in ("", "3") else "") + (f"p{passes}" if passes not in ("", "2") else "")
    tag += "".join(f"e{name}{n}" for name, n in sorted(entry_passes(os.environ.get("TRINIDAD_OPT_ENTRY_PASSES", "")).items()))
    return f"-{tag}" if tag else ""
