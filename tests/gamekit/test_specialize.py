"""gamekit.specialize: calls between the engine's jitted functions compile one specialization per
function, whatever integer types the callers pass (compile time; values unchanged)."""

from __future__ import annotations

import os

import numpy as np
from numba import njit, types

from gamekit.specialize import _canonical
from sim.city import district_occupied
from sim.codes import Dec
from sim.state import B


def test_canonical_types_widen_integers_and_drop_literals():
    assert _canonical(types.literal(0)) == types.int64
    assert _canonical(types.literal(True)) == types.boolean
    assert _canonical(types.int32) == types.int64
    assert _canonical(types.int8) == types.int64
    assert _canonical(types.IntEnumMember(Dec, types.int64)) == types.int64
    for keep in (types.int64, types.uint8, types.float64, types.boolean, types.int32[:]):
        assert _canonical(keep) == keep


@njit
def _calls_with_every_integer_type(st, r, d32):
    # an int32 from the state, a literal, an int64 loop value: one specialization serves all three
    a = district_occupied(st, r, d32)
    b = district_occupied(st, r, 2)
    c = 0
    for d in range(st.roads.shape[0]):
        c += district_occupied(st, r, d)
    return a, b, c


def test_engine_calls_from_jitted_code_share_one_int64_specialization(blank, rules):
    st, r = blank, rules
    for d in range(st.roads.shape[0]):  # one building in each district, two in district 3
        st.cell_b[r.district_cells[d, 0]] = B.LOT
    st.cell_b[r.district_cells[3, 1]] = B.HOUSE
    d32 = np.int32(3)
    a, b, c = _calls_with_every_integer_type(st, r, d32)
    assert (a, b, c) == (
        district_occupied(st, r, 3),
        district_occupied(st, r, 2),
        sum(district_occupied(st, r, d) for d in range(st.roads.shape[0])),
    )
    assert a == 2 and c == st.roads.shape[0] + 1
    for sig in district_occupied.signatures:
        d_type = sig[2]
        assert d_type == types.int64, district_occupied.signatures


@njit
def _plain_callee(x):
    return x + 1


@njit
def _calls_plain_with_three_integer_types(d32):
    # the same three kinds of argument as above, to a function outside the hook's packages
    return _plain_callee(d32) + _plain_callee(2) + _plain_callee(np.int64(5))


def test_the_hook_is_still_needed_and_still_installed():
    """The hook patches Numba internals (pinned in pyproject.toml to the range it was written
    against). It is needed while Numba itself still compiles one specialization per argument type:
    the same calls to a function outside sim/strategies/trinidad give several. When a Numba release
    stops doing that, this test fails and the hook can go."""
    assert _calls_plain_with_three_integer_types(np.int32(1)) == 2 + 3 + 6
    assert len(_plain_callee.signatures) >= 2, _plain_callee.signatures
    assert types.Dispatcher.get_call_type.__module__ == "gamekit.specialize"


def test_the_engine_cache_folder_follows_every_jitted_file_subpackages_included(tmp_path):
    """Numba's cache checks only a kernel's own file: the folder name must change when any jitted
    file changes, sim/actions/*.py included, or callers keep a stale callee's machine code."""
    from sim import engine_hash

    for rel in ("sim/core.py", "sim/actions/turn.py", "strategies/policy.py", "trinidad/batch.py"):
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("from numba import njit\n\n@njit(cache=True)\ndef f():\n    return 1\n")
    (tmp_path / "sim/actions/notes.py").write_text("X = 1\n")  # no jitted code: not hashed
    before = engine_hash(tmp_path)
    (tmp_path / "sim/actions/notes.py").write_text("X = 2\n")
    assert engine_hash(tmp_path) == before
    for rel in ("sim/actions/turn.py", "sim/core.py", "trinidad/batch.py"):
        p = tmp_path / rel
        p.write_text(p.read_text().replace("return 1", "return 2"))
        after = engine_hash(tmp_path)
        assert after != before, rel
        before = after


def test_other_optimisation_settings_compile_into_a_folder_of_their_own(monkeypatch):
    """sim.compile_settings: the defaults (Numba's level 3, two passes) keep the plain folder name;
    other settings get a suffix, so a test run's machine code (level 1, no pass over a tested kernel's
    whole code, one over the batch kernel's: tests/conftest.py) is never loaded by a user's run. This
    suite runs under those settings."""
    import numba

    from gamekit import deferred
    from sim import compile_settings

    for opt, passes, entry, tag in ((None, None, None, ""), ("3", "2", "", ""), ("1", "1", None, "-o1p1"), ("1", None, None, "-o1"),
                                    (None, "1", None, "-p1"), ("1", "0", "play_games=1", "-o1p0eplay_games1"),
                                    (None, None, "b=2,a=0", "-ea0eb2")):
        for k, v in (("NUMBA_OPT", opt), ("TRINIDAD_OPT_PASSES", passes), ("TRINIDAD_OPT_ENTRY_PASSES", entry)):
            if v is None:
                monkeypatch.delenv(k, raising=False)
            else:
                monkeypatch.setenv(k, v)
        assert compile_settings() == tag
    assert int(numba.config.OPT) == 1 and deferred.OPT_PASSES == 0 and deferred.ENTRY_PASSES == {"play_games": 1, "play_games_search": 1}
    if not os.environ.get("NUMBA_CACHE_DIR"):
        assert numba.config.CACHE_DIR.endswith("-o1p0eplay_games1eplay_games_search1")


def test_an_engine_edit_keeps_the_engines_used_last_and_removes_the_rest_with_every_setting(tmp_path):
    """The cache folders of the engines used longest ago go, each engine's folders for every
    optimisation setting together; this engine's and the two other engines used most recently
    stay (a revert or a branch switch loads their machine code again). An engine's last use is the
    newest time among its folders."""
    from sim import KEEP_ENGINES, stale_cache_dirs

    assert KEEP_ENGINES == 3
    ages = {"numba-aaaa": 50, "numba-aaaa-o1p1": 60, "numba-bbbb": 10, "numba-bbbb-o1p1": 40, "numba-aaaab": 30,
            "numba-cccc": 20, "numba-dddd-o1p1": 5}  # seconds ago
    now = 1_800_000_000
    for name, ago in ages.items():
        (tmp_path / name).mkdir()
        os.utime(tmp_path / name, (now - ago, now - ago))
    # the other engines, last used first: dddd (5 s ago), bbbb (10: its newer folder), cccc (20), aaaab (30)
    assert [p.name for p in stale_cache_dirs(tmp_path, "aaaa")] == ["numba-aaaab", "numba-cccc"]
    assert [p.name for p in stale_cache_dirs(tmp_path, "aaaa", keep=1)] == [
        "numba-aaaab", "numba-bbbb", "numba-bbbb-o1p1", "numba-cccc", "numba-dddd-o1p1"]
    assert [p.name for p in stale_cache_dirs(tmp_path, "eeee", keep=4)] == ["numba-aaaa", "numba-aaaa-o1p1", "numba-aaaab"]
    assert stale_cache_dirs(tmp_path, "aaaa", keep=9) == []
