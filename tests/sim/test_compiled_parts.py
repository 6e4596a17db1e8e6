"""sim.compiled_parts: the Extended War and the Solo A.I. compiled only into the runs that play them."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

from sim import compiled_parts
from sim.rules import XK, load_rules
from sim.state import AI_STRATEGY

ROOT = Path(__file__).resolve().parents[2]
HOOKS = {"extended_war", "extended_war_entry", "solo_ai", "solo_ai_entry"}  # sim.compiled_parts: the hook factories
# the parts, and what of them the rest of the project may call directly: a query of the state
PART_MODULES = ("sim.extended_war", "sim.solo", "sim.solo_placement", "sim.ai_choice", "strategies.war_policy", "strategies.ai_tie")
DIRECT_OK = {"is_ai"}


def _in_part(module: str) -> bool:
    return any(module == p or module.startswith(p + ".") for p in PART_MODULES)


def _project_sources():
    for pkg in ("sim", "strategies", "trinidad"):
        for p in sorted((ROOT / pkg).rglob("*.py")):
            rel = p.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            yield ".".join(parts), p.read_text()


def hooked(sources) -> set[str]:
    """The functions given a hook anywhere (``xw_end_war = extended_war_entry(end_war)``): the parts'
    functions, those that live beside other code too (strategies.search.war_turn_searched...)."""
    out = set()
    for _, src in sources:
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in HOOKS and len(node.args) == 1:
                out.add(getattr(node.args[0], "id", None))
    return out - {None}


def direct_calls(module: str, source: str, part_functions: set[str]) -> list[str]:
    """Direct calls in ``source`` of a part's function (imported from a part's module, or one of
    ``part_functions``) from outside a part's function: such a call compiles the part into every game."""
    tree = ast.parse(source)
    called = set(part_functions)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and _in_part(node.module):
            called.update(a.asname or a.name for a in node.names)
    called -= DIRECT_OK
    bad = []
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef) and fn.name not in part_functions:
            bad += [f"{module}:{node.lineno} calls {node.func.id}" for node in ast.walk(fn)
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in called]
    return bad


def test_the_rest_of_the_project_reaches_a_part_only_through_its_hook():
    sources = list(_project_sources())
    part_functions = hooked(sources)
    assert {"war_turn_searched", "play_out_war", "begin_extended_war", "ai_decide"} <= part_functions
    bad = [v for m, src in sources if not _in_part(m) for v in direct_calls(m, src, part_functions)]
    assert bad == [], "calls into the Extended War or the Solo A.I. that would compile them into every game:\n" + "\n".join(bad)


def test_the_checker_sees_a_direct_call():
    src = "from sim.extended_war import end_war\nfrom sim.compiled_parts import extended_war_entry\n" \
          "xw_end_war = extended_war_entry(end_war)\n" \
          "def f(st, r):\n    xw_end_war(r, None, st, r)\n    end_war(st, r)\n"
    assert direct_calls("sim.game", src, set()) == ["sim.game:6 calls end_war"]
    src = "def war_turn_searched(st):\n    pass\n\ndef f(st):\n    war_turn_searched(st)\n"
    assert direct_calls("strategies.search", src, {"war_turn_searched"}) == ["strategies.search:5 calls war_turn_searched"]


def test_markers_follow_the_rules_and_the_players(monkeypatch):
    monkeypatch.delenv("TRINIDAD_COMPILE", raising=False)
    r = load_rules()
    assert not compiled_parts.has(r, compiled_parts.EXTENDED_WAR) and not compiled_parts.has(r, compiled_parts.SOLO_AI)
    xw = load_rules(overrides={"extended_war": {"enabled": True}})
    assert compiled_parts.has(xw, compiled_parts.EXTENDED_WAR) and not compiled_parts.has(xw, compiled_parts.SOLO_AI)
    assert compiled_parts.for_players(r, [0, 1, 2]) is r
    solo = compiled_parts.for_players(r, [0, AI_STRATEGY])
    assert compiled_parts.has(solo, compiled_parts.SOLO_AI)
    for name in r.dtype.names:  # the same rules, only the marker's length differs
        if name != "ai_compiled":
            assert np.array_equal(np.asarray(solo[name]), np.asarray(r[name])), name
    assert compiled_parts.with_parts(solo, compiled_parts.SOLO_AI) is solo
    with compiled_parts.including(compiled_parts.SOLO_AI):
        assert compiled_parts.has(load_rules(), compiled_parts.SOLO_AI)
    assert not compiled_parts.has(load_rules(), compiled_parts.SOLO_AI)
    monkeypatch.setenv("TRINIDAD_COMPILE", "all")
    both = load_rules()
    assert compiled_parts.has(both, compiled_parts.EXTENDED_WAR) and compiled_parts.has(both, compiled_parts.SOLO_AI)
    assert both.xw_k[XK.ENABLED] == r.xw_k[XK.ENABLED] == 0  # the expansion's compiled in, not enabled: the game is the same
    monkeypatch.setenv("TRINIDAD_COMPILE", "solo")
    with pytest.raises(ValueError, match="TRINIDAD_COMPILE"):
        load_rules()


@njit(cache=False)
def _part(x):
    return x + 1


_xw_part = compiled_parts.extended_war(_part)
_ai_part = compiled_parts.solo_ai(_part)
_ai_part_entry = compiled_parts.solo_ai_entry(_part)


@njit(cache=False)
def _through_hooks(r, x):
    return _xw_part(r, -1, x), _ai_part(r, -2, x)


@njit(cache=False)
def _entry_hook(r, x):
    return _ai_part_entry(r, -2, x)


def test_hooks_call_the_part_or_give_the_default(monkeypatch):
    monkeypatch.delenv("TRINIDAD_COMPILE", raising=False)
    lean = load_rules()
    full = compiled_parts.with_parts(lean, compiled_parts.EXTENDED_WAR, compiled_parts.SOLO_AI)
    assert _through_hooks(lean, 5) == (-1, -2)
    assert _through_hooks(full, 5) == (6, 6)
    assert _through_hooks.py_func(lean, 5) == (-1, -2)  # the same without the JIT
    assert _through_hooks.py_func(full, 5) == (6, 6)
    assert _entry_hook(full, 1) == 2
    with pytest.raises(RuntimeError, match="Solo A.I. is not compiled"):
        _entry_hook(lean, 1)
    with pytest.raises(RuntimeError, match="Solo A.I. is not compiled"):
        _entry_hook.py_func(lean, 1)


LEAN_PROBE = """
import json
from numba import njit
from sim.game import allocate
from sim.rules import load_rules
from sim.compiled_parts import extended_war, solo_ai_entry
from sim.extended_war import begin_extended_war
from sim.solo import ai_turn

xw_begin = extended_war(begin_extended_war)
solo_turn = solo_ai_entry(ai_turn)

@njit(cache=False)  # a -c script has no file to cache beside
def turn(st, r, seat):
    xw_begin(r, None, st, r)
    if seat > 10:
        solo_turn(r, None, st, r, seat)
    return seat

r = load_rules()
turn(allocate(r), r, 0)
lib = next(iter(turn.overloads.values())).library
print(json.dumps([len(begin_extended_war.signatures), len(ai_turn.signatures), len(turn.signatures), lib.has_dynamic_globals]))
"""


def test_a_normal_game_does_not_compile_the_parts(tmp_path):
    # a fresh process and cache: nothing compiled before; the hooks' targets stay untyped
    env = {k: v for k, v in os.environ.items() if k != "TRINIDAD_COMPILE"} | {"NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", LEAN_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0, 0, 1, False]  # and cacheable: no run-time addresses


def test_the_engine_with_both_parts_can_be_cached(engine):
    # the suite's engine has both parts (TRINIDAD_COMPILE=all): its entry point holds no run-time
    # address (a jitted function passed as a value would), so Numba caches its machine code
    from strategies.match import play_games

    assert os.environ.get("TRINIDAD_COMPILE") == "all"
    libs = [cres.library for cres in play_games.overloads.values()]
    assert libs and not any(lib.has_dynamic_globals for lib in libs)
