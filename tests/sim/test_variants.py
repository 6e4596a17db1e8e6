"""sim.variants: the Extended War and the Solo A.I. compiled only into the runs that play them."""

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

from sim import variants
from sim.rules import XK, load_rules
from sim.state import AI_STRATEGY

ROOT = Path(__file__).resolve().parents[2]
HOOKS = {"extended_war", "extended_war_entry", "solo_ai", "solo_ai_entry"}
# the parts, and what of them the rest of the project may call directly: a query of the state
PART_MODULES = ("sim.extended_war", "sim.solo", "sim.ai_choice", "strategies.war_policy", "strategies.ai_tie")
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
    """Names passed to a hook anywhere (``extended_war(r, default, fn, ...)``): the part's functions,
    those that live beside other code too (strategies.search.war_turn_searched and the like)."""
    out = set()
    for _, src in sources:
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in HOOKS and len(node.args) > 2:
                out.add(getattr(node.args[2], "id", None))
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
    src = "from sim.extended_war import end_war\nfrom sim.variants import extended_war\n" \
          "def f(st, r):\n    extended_war(r, None, end_war, st, r)\n    end_war(st, r)\n"
    assert direct_calls("sim.game", src, set()) == ["sim.game:5 calls end_war"]
    src = "def war_turn_searched(st):\n    pass\n\ndef f(st):\n    war_turn_searched(st)\n"
    assert direct_calls("strategies.search", src, {"war_turn_searched"}) == ["strategies.search:5 calls war_turn_searched"]


def test_markers_follow_the_rules_and_the_players(monkeypatch):
    monkeypatch.delenv("TRINIDAD_COMPILE", raising=False)
    r = load_rules()
    assert not variants.has(r, variants.EXTENDED_WAR) and not variants.has(r, variants.SOLO_AI)
    xw = load_rules(overrides={"extended_war": {"enabled": True}})
    assert variants.has(xw, variants.EXTENDED_WAR) and not variants.has(xw, variants.SOLO_AI)
    assert variants.for_players(r, [0, 1, 2]) is r
    solo = variants.for_players(r, [0, AI_STRATEGY])
    assert variants.has(solo, variants.SOLO_AI)
    for name in r.dtype.names:  # the same rules, only the marker's length differs
        if name != "ai_compiled":
            assert np.array_equal(np.asarray(solo[name]), np.asarray(r[name])), name
    assert variants.with_parts(solo, variants.SOLO_AI) is solo
    with variants.including(variants.SOLO_AI):
        assert variants.has(load_rules(), variants.SOLO_AI)
    assert not variants.has(load_rules(), variants.SOLO_AI)
    monkeypatch.setenv("TRINIDAD_COMPILE", "all")
    both = load_rules()
    assert variants.has(both, variants.EXTENDED_WAR) and variants.has(both, variants.SOLO_AI)
    assert both.xw_k[XK.ENABLED] == r.xw_k[XK.ENABLED] == 0  # the expansion's compiled in, not enabled: the game is the same
    monkeypatch.setenv("TRINIDAD_COMPILE", "solo")
    with pytest.raises(ValueError, match="TRINIDAD_COMPILE"):
        load_rules()


@njit(cache=False)
def _part(x):
    return x + 1


@njit(cache=False)
def _through_hooks(r, x):
    a = variants.extended_war(r, -1, _part, x)
    b = variants.solo_ai(r, -2, _part, x)
    return a, b


@njit(cache=False)
def _entry_hook(r, x):
    return variants.solo_ai_entry(r, -2, _part, x)


def test_hooks_call_the_part_or_give_the_default(monkeypatch):
    monkeypatch.delenv("TRINIDAD_COMPILE", raising=False)
    lean = load_rules()
    full = variants.with_parts(lean, variants.EXTENDED_WAR, variants.SOLO_AI)
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
from sim.rules import XK, load_rules
from sim.variants import extended_war, solo_ai_entry
from sim.extended_war import begin_extended_war
from sim.solo import ai_turn

@njit(cache=False)
def turn(st, r, seat):
    extended_war(r, None, begin_extended_war, st, r)
    if seat > 10:
        solo_ai_entry(r, None, ai_turn, st, r, seat)
    return seat

r = load_rules()
turn(allocate(r), r, 0)
print(json.dumps([len(begin_extended_war.signatures), len(ai_turn.signatures), len(turn.signatures)]))
"""


def test_a_normal_game_does_not_compile_the_parts(tmp_path):
    # a fresh process and cache: nothing compiled before; the hooks' targets stay untyped
    env = {k: v for k, v in os.environ.items() if k != "TRINIDAD_COMPILE"} | {"NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", LEAN_PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0, 0, 1]
