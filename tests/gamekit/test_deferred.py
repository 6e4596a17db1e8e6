"""gamekit.deferred: a project function compiled as a callee gets no machine code and no cache entry;
the entry point that Python calls links every callee once, optimises the whole once and is cached;
a callee that Python calls later gets its machine code then. Each case runs in a fresh process
with a fresh Numba cache, on a small module written for the test (its top package counted as the
project's), so the outcome does not depend on what the test session compiled before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

KERNELS = '''
import numpy as np
from numba import njit


@njit(cache=True)
def leaf(a, i):
    return a[i] * 2 + 1


@njit(cache=True)
def shared(a):  # called from two callers: linked into the entry point once
    b = np.empty(a.shape[0], np.int64)
    b[:] = a  # slice assignment: Numba's own overloads, linked like a callee
    return b.sum()


@njit(cache=True)
def left(a):
    s = 0
    for i in range(a.shape[0]):
        s += leaf(a, i)
    return s + shared(a)


@njit(cache=True)
def right(a):
    return shared(a) * 3 + leaf(a, 0)


@njit(cache=True)
def top(a):
    return left(a) + right(a)
'''

PROBE = '''
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
import gamekit.deferred as deferred
deferred._OWN = deferred._OWN + ("deferkernels",)
import numpy as np
passes = {}  # the passes over each library's whole code, by name, as it is optimised
optimize = deferred.codegen.CPUCodeLibrary._optimize_final_module
def _optimize(lib):
    passes[lib.name] = getattr(lib, "_trinidad_passes", 1)
    return optimize(lib)
deferred.codegen.CPUCodeLibrary._optimize_final_module = _optimize
import deferkernels as k
a = np.arange(6, dtype=np.int64)
out = {"top": int(k.top(a))}
kinds = {}
for name in ("left", "right", "shared", "leaf"):
    disp = getattr(k, name)
    cres = next(iter(disp.overloads.values())) if disp.overloads else None
    kinds[name] = type(cres.entry_point).__name__ if cres is not None else None
out["entry_kind_before_call"] = kinds
out["left"] = int(k.left(a))  # a callee called from Python: machine code made now
out["left_again"] = int(k.left(a))
out["hits"] = {n: sum(getattr(k, n).stats.cache_hits.values()) for n in ("top", "left")}
out["passes"] = {n: passes.get(n) for n in ("top", "left")}
print(json.dumps(out))
'''


def _run(tmp_path: Path, cache: Path, env_extra: dict | None = None) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), **(env_extra or {})}
    res = subprocess.run([sys.executable, "-c", PROBE, str(ROOT), str(tmp_path)], capture_output=True, text=True, env=env,
                         timeout=300, check=False)
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def _expected() -> dict:
    import numpy as np

    a = np.arange(6, dtype=np.int64)
    leaf = lambda i: int(a[i]) * 2 + 1  # noqa: E731
    shared = int(a.sum())
    left = sum(leaf(i) for i in range(6)) + shared
    right = shared * 3 + leaf(0)
    return {"top": left + right, "left": left}


def _cached_files(cache: Path) -> set[str]:
    return {p.name.split("-")[0] for p in cache.rglob("*.nbi")}


def test_callees_get_no_machine_code_until_python_calls_them(tmp_path):
    (tmp_path / "deferkernels.py").write_text(textwrap.dedent(KERNELS))
    cache = tmp_path / "cache"
    want = _expected()
    first = _run(tmp_path, cache)
    assert first["top"] == want["top"]
    assert first["left"] == first["left_again"] == want["left"]
    # compiled as callees of top: a lazy entry, no machine code
    assert first["entry_kind_before_call"] == {"left": "LazyEntry", "right": "LazyEntry", "shared": "LazyEntry", "leaf": "LazyEntry"}
    # cached: the entry point and the callee Python called; not the callees Python never called
    assert _cached_files(cache) == {"deferkernels.top", "deferkernels.left"}
    second = _run(tmp_path, cache)
    assert second["top"] == want["top"] and second["left"] == want["left"]
    assert second["hits"] == {"top": 1, "left": 1}  # both loaded from the cache, nothing recompiled
    # the callees of a cached entry point are not even typed
    assert second["entry_kind_before_call"] == {"left": None, "right": None, "shared": None, "leaf": None}


def test_the_numba_way_when_switched_off(tmp_path):
    (tmp_path / "deferkernels.py").write_text(textwrap.dedent(KERNELS))
    cache = tmp_path / "cache"
    out = _run(tmp_path, cache, {"TRINIDAD_DEFER": "0"})
    assert out["top"] == _expected()["top"]
    assert "LazyEntry" not in out["entry_kind_before_call"].values()
    assert _cached_files(cache) == {"deferkernels.top", "deferkernels.left", "deferkernels.right", "deferkernels.shared",
                                    "deferkernels.leaf"}


def test_passes_over_an_entry_point_by_name(tmp_path):
    """TRINIDAD_OPT_PASSES sets the passes over every entry point's whole code, TRINIDAD_OPT_ENTRY_PASSES
    overrides them by name (the test suite: none for the kernels it calls, one for the batch kernel);
    a callee that Python calls later is an entry point too. The results do not change."""
    (tmp_path / "deferkernels.py").write_text(textwrap.dedent(KERNELS))
    want = _expected()
    out = _run(tmp_path, tmp_path / "cache", {"TRINIDAD_OPT_PASSES": "0", "TRINIDAD_OPT_ENTRY_PASSES": "left=2"})
    assert out["passes"] == {"top": 0, "left": 2}
    assert out["top"] == want["top"] and out["left"] == want["left"]
    out = _run(tmp_path, tmp_path / "cache2", {"TRINIDAD_OPT_PASSES": "1", "TRINIDAD_OPT_ENTRY_PASSES": ""})
    assert out["passes"] == {"top": 1, "left": 1}


def test_entry_passes_are_read_as_name_equals_passes():
    from sim import entry_passes

    assert entry_passes("") == {}
    assert entry_passes(" play_games=1, plan_choice = 0 ,") == {"play_games": 1, "plan_choice": 0}
    for bad in ("play_games", "=1", "play_games=one"):
        with pytest.raises(ValueError, match="NAME=PASSES"):
            entry_passes(bad)
