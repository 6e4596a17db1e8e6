"""The Numba cache folder both engines share (gamekit.numba_cache): its name follows every file the
kernels of either game compile from, and only those; the folder is made, the old ones removed, the
user's NUMBA_CACHE_DIR and a read-only install respected. The hook on Numba's import, in fresh
interpreters: tests/test_architecture.py."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gamekit import numba_cache

KERNEL = "from numba import njit\n\n@njit(cache=True)\ndef f():\n    return 1\n"


def _tree(root: Path, files: dict[str, str]) -> Path:
    for rel, src in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(src)
    return root


def _edit(root: Path, rel: str) -> None:
    p = root / rel
    p.write_text(p.read_text() + "# edited\n")


def test_the_folder_follows_both_engines_and_what_they_share(tmp_path):
    """An edit of a kernel of either game, of Río's engine or players (state, geometry, policy rows:
    all engine data), of the rule keys and packed layout its kernels freeze, or of gamekit's kernels
    names a fresh folder; an edit of Río's plain-Python rules modules does not."""
    root = _tree(tmp_path, {"sim/core.py": KERNEL, "strategies/policy.py": KERNEL, "trinidad/batch.py": KERNEL,
                            "gamekit/rng.py": KERNEL, "gamekit/numba_cache.py": "X = 1\n",
                            "rio/keys.py": "K = 1\n", "rio/packing.py": "P = 1\n", "rio/rules.py": "R = 1\n",
                            "rio/formulas.py": "F = 1\n", "rio/tags.py": "T = 1\n", "rio/overrides.py": "O = 1\n",
                            "rio/engine/state.py": "G = 1\n", "rio/engine/geometry.py": "GEO = 1\n", "rio/engine/core.py": KERNEL,
                            "rio/engine/seam.py": "\n", "rio/players/kinds.py": "KIND = 1\n", "rio/players/policy.py": KERNEL})
    before = numba_cache.engine_hash(root)
    for rel in ("rio/formulas.py", "rio/tags.py", "rio/overrides.py", "gamekit/numba_cache.py"):
        _edit(root, rel)
        assert numba_cache.engine_hash(root) == before, rel
    for rel in ("sim/core.py", "strategies/policy.py", "trinidad/batch.py", "gamekit/rng.py", "rio/keys.py", "rio/packing.py",
                "rio/rules.py", "rio/engine/state.py", "rio/engine/geometry.py", "rio/engine/core.py", "rio/engine/seam.py",
                "rio/players/kinds.py", "rio/players/policy.py"):
        _edit(root, rel)
        after = numba_cache.engine_hash(root)
        assert after != before, rel
        before = after


def test_trinidads_engine_hash_leaves_rio_out(tmp_path):
    """sim.engine_hash, the key of Trinidad's stored games: Trinidad's code and gamekit's, not Río's,
    hashed as before (sim, strategies, trinidad, gamekit)."""
    from sim import TRINIDAD_PACKAGES, engine_hash

    root = _tree(tmp_path, {"sim/core.py": KERNEL, "gamekit/rng.py": KERNEL, "rio/engine/core.py": KERNEL})
    before = engine_hash(root)
    assert before == numba_cache.engine_hash(root, TRINIDAD_PACKAGES) != numba_cache.engine_hash(root)
    _edit(root, "rio/engine/core.py")
    assert engine_hash(root) == before
    _edit(root, "gamekit/rng.py")
    assert engine_hash(root) != before


def test_the_folder_is_made_and_the_old_ones_go(tmp_path, monkeypatch):
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)  # restored after the test
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    root = _tree(tmp_path / "repo", {"sim/core.py": KERNEL})
    base = tmp_path / "cache"
    h = numba_cache.engine_hash(root)
    now = 1_800_000_000
    for i, old in enumerate(("aaaa", "bbbb", "cccc")):  # cccc used longest ago
        (base / f"numba-{old}").mkdir(parents=True)
        os.utime(base / f"numba-{old}", (now - 10 * i, now - 10 * i))
    cache = numba_cache.choose_cache_dir(root, base)
    assert cache == base / f"numba-{h}{numba_cache.compile_settings()}" and cache.is_dir()
    assert numba.config.CACHE_DIR == str(cache)
    assert sorted(p.name for p in base.iterdir()) == sorted([cache.name, "numba-aaaa", "numba-bbbb"])


def test_the_users_folder_and_a_read_only_install_are_left_alone(tmp_path, monkeypatch):
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", "unchanged")
    root = _tree(tmp_path / "repo", {"sim/core.py": KERNEL})
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert numba_cache.choose_cache_dir(root, tmp_path / "cache") is None
    assert not (tmp_path / "cache").exists() and numba.config.CACHE_DIR == "unchanged"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    (tmp_path / "file").write_text("")  # a folder that cannot be made
    assert numba_cache.choose_cache_dir(root, tmp_path / "file") is None
    assert numba.config.CACHE_DIR == "unchanged"


def test_a_set_up_installed_after_numba_runs_at_once_and_once(monkeypatch):
    import numba  # noqa: F401

    calls = []
    monkeypatch.setattr(numba_cache, "_chosen", True)  # this process's folder is chosen already
    numba_cache.install(lambda: calls.append(1))
    numba_cache.install()
    assert calls == [1] and numba_cache._pending == []
    assert not any(isinstance(f, numba_cache._AfterNumba) for f in __import__("sys").meta_path)


@pytest.mark.parametrize("spec, out", [("", {}), (" play_games=1, plan_choice = 0 ,", {"play_games": 1, "plan_choice": 0})])
def test_entry_passes_are_read_here_for_both_engines(spec, out):
    import sim

    assert numba_cache.entry_passes(spec) == out and sim.entry_passes is numba_cache.entry_passes
