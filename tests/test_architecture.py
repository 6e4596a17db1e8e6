"""The house's shape (issue 95): no import circle among the project's modules, no module past its
size, and a reader of runs that loads no compiler.

The import graph (:func:`import_graph`) is built from the sources' syntax, every import counted
wherever it stands (module level or inside a function: a function's import closes a circle at run
time as surely, only later). Its nodes are the modules of sim, strategies, trinidad, analysis,
reports, rio (its engine and players included), rulesfile and gamekit (a package is its ``__init__``); an
import is an edge to the module whose names the importer reads:

- ``import a.b.c`` and ``from a.b.c import name``: an edge to ``a.b.c``;
- ``from a.b import c`` where ``a/b/c.py`` (or ``a/b/c/``) exists: an edge to the module ``a.b.c``,
  not to the package: Python runs ``a/b/__init__.py`` first, but the importer reads nothing of it;
- ``from a.b import name`` of anything else: an edge to the package ``a.b`` (its ``__init__``'s names);
- relative imports as the absolute ones they stand for.

The packages that hold a module are not edges by themselves: Python initialises a package before
any of its modules, so a package whose ``__init__`` imports its own modules is no circle, unless one
of those modules reads the package's names back (``from a.b import name`` of an ``__init__`` name,
an edge to ``a.b``): that is a circle here, as it is at run time (the module may run while the
package's ``__init__`` is half done). A circle is a strongly connected component of more than one
module; the test lists each with one of its cycles.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "strategies", "trinidad", "analysis", "reports", "rio", "rulesfile", "gamekit")
# the most lines a module may have, by top-level package (issue 95, "One module a command"): the
# engines' (sim, Trinidad's; rio, Río de la Plata's, its players included) 800, every other package's 600
MAX_LINES = {"sim": 800, "strategies": 600, "trinidad": 600, "analysis": 600, "reports": 600, "rio": 800, "rulesfile": 600,
             "gamekit": 600}


def project_files() -> dict[str, Path]:
    """Every module of the project by its dotted name (a package by its own name)."""
    out = {}
    for pkg in PACKAGES:
        for p in sorted((ROOT / pkg).rglob("*.py")):
            rel = p.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            out[".".join(parts)] = p
    return out


def imports_of(module: str, source: str, modules: set[str], is_package: bool = False) -> set[str]:
    """The project modules ``module`` imports (module docstring's rules)."""
    out: set[str] = set()
    pkg = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the importer's package, one level up per further dot
                up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.add(sub if sub in modules else base)
    return {m for m in out if m in modules and m != module}


def import_graph() -> dict[str, set[str]]:
    files = project_files()
    names = set(files)
    return {m: imports_of(m, p.read_text(), names, p.name == "__init__.py") for m, p in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative),
    each as one of its cycles: ``[a, b, ..., a]``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on, stack, comps = set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return [_cycle(graph, set(c)) for c in sorted(comps)]


def _cycle(graph: dict[str, set[str]], comp: set[str]) -> list[str]:
    """A cycle from the component's first module back to it (breadth-first, inside the component)."""
    start = min(comp)
    prev = {start: None}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v] & comp):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w not in prev:
                prev[w] = v
                todo.append(w)
    return sorted(comp)


def test_the_scans_cover_every_package():
    # every package has its size limit, and the graph holds modules of each (rio's loader among them)
    assert set(MAX_LINES) == set(PACKAGES)
    graph = import_graph()
    assert {m.split(".")[0] for m in graph} == set(PACKAGES)
    assert {"rio.keys", "rio.packing"} <= graph["rio.rules"]
    # the format both games' rules files share: read by each game's rules modules
    assert "rulesfile" in graph["sim.rule_overrides"] and "rulesfile" in graph["rio.overrides"]
    # Río's engine and players, and what both engines share: the cache folder's set-up, the random numbers
    assert {"rio.engine", "rio.engine.state", "rio.engine.seam", "rio.players", "rio.players.kinds", "gamekit.rng"} <= set(graph)
    assert "gamekit.numba_cache" in graph["sim"] and "gamekit.numba_cache" in graph["rio.engine"]
    assert "gamekit.rng" in graph["sim.rng"]


def test_no_import_circle():
    found = circles(import_graph())
    assert found == [], "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_graph_follows_each_kind_of_import():
    mods = {"sim", "sim.rules", "sim.state", "sim.actions", "sim.actions.turn", "strategies.policy"}
    assert imports_of("sim.rules", "def f():\n    from sim.state import G\n", mods) == {"sim.state"}
    assert imports_of("sim.rules", "import sim.state\n", mods) == {"sim.state"}
    # a module named in a from-import is the edge, not its package
    assert imports_of("strategies.policy", "from sim.actions import turn\n", mods) == {"sim.actions.turn"}
    # a name of a package's __init__: the package
    assert imports_of("sim.actions.turn", "from sim.actions import play_turn\n", mods) == {"sim.actions"}
    assert imports_of("sim.actions.turn", "from . import play_turn\nfrom .turn import x\n", mods) == {"sim.actions"}
    assert imports_of("sim.actions", "from .turn import play_turn\n", mods, is_package=True) == {"sim.actions.turn"}
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c", "a"]]
    assert circles({"p": {"p.m"}, "p.m": set()}) == []  # a package importing its module
    assert circles({"p": {"p.m"}, "p.m": {"p"}}) == [["p", "p.m", "p"]]  # ... which reads the package's names back


def oversized() -> list[str]:
    out = []
    for module, p in project_files().items():
        n = len(p.read_text().splitlines())
        limit = MAX_LINES[module.split(".")[0]]
        if n > limit:
            out.append(f"{p.relative_to(ROOT)}: {n} lines (at most {limit})")
    return out


def test_no_module_over_its_size():
    big = oversized()
    assert big == [], "modules over their size:\n" + "\n".join(big)


def _fresh(code: str) -> str:
    """Run ``code`` in a fresh interpreter from the repository root; its standard output."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_reading_runs_loads_no_compiler(tmp_path):
    """``import analysis, reports``, and reading and analysing a run's tables, import no Numba and so
    run none of the engine's set-up (gamekit.numba_cache: the cache folder by engine hash, its
    housekeeping; sim's compile hooks): a report on a finished run pays for no engine. Nor does Río de
    la Plata's rules loader (``import rio, rio.rules``, loading the rules): plain Python and numpy; nor
    the cache folder's set-up until Numba comes."""
    out = _fresh(f"""
        import sys
        import rio, rio.rules, rio.formulas
        assert "numba" not in sys.modules, "import rio, rio.rules, rio.formulas"
        import gamekit.numba_cache
        assert "numba" not in sys.modules, "import gamekit.numba_cache"
        rio.rules.load_rules()
        assert "numba" not in sys.modules, "rio.rules.load_rules()"
        import analysis, reports
        assert "numba" not in sys.modules, "import analysis, reports"
        from analysis import analyze, load_run
        from analysis.synthetic import write_synthetic_run
        run = load_run(write_synthetic_run({str(tmp_path / "run")!r}, games=40, players=(4,), strategies=("greedy", "random"), seed=1))
        analyze(run, rating_games=1000)
        assert "numba" not in sys.modules, "reading and analysing a run"
        import sim
        assert not sim._engine_set_up
        print("ok")
    """)
    assert out.strip() == "ok"


def test_the_engine_is_set_up_before_anything_compiles():
    """The first import of Numba, from any module, sets the engine up (its cache folder, gamekit.deferred,
    gamekit.specialize) before the importer can decorate a kernel; so does importing sim after Numba."""
    for first in ("import sim.state\nimport numba", "import numba\nimport sim", "from strategies.match import run_game\nimport numba"):
        out = _fresh(first + """
import os, sys
import sim
assert sim._engine_set_up and "gamekit.deferred" in sys.modules and "gamekit.specialize" in sys.modules
from numba.core.types import Dispatcher
assert Dispatcher.get_call_type.__module__ == "gamekit.specialize"
print(os.environ.get("NUMBA_CACHE_DIR") or numba.config.CACHE_DIR)
""")
        assert os.environ.get("NUMBA_CACHE_DIR") or Path(out.strip()).name.startswith("numba-"), (first, out)


def test_rios_engine_sets_the_cache_folder_up_without_sim():
    """Río's engine sets up the cache folder both engines share (gamekit.numba_cache) without Trinidad's
    engine: installed by ``import rio.engine`` (no Numba loaded then), chosen at Numba's first import or
    at once when Numba came first, before any kernel is decorated (gamekit.rng's, whoever imports it);
    sim's own set-up comes only with sim. A process that imports both engines, in either order, compiles
    into the one folder whose name hashes both."""
    folders = set()
    for first in ("import rio.engine\nassert 'numba' not in sys.modules\nimport numba", "import numba\nimport rio.engine",
                  "import gamekit.rng"):
        out = _fresh("import sys\n" + first + """
import os, sys
import numba
from gamekit import numba_cache, rng
assert "sim" not in sys.modules and "strategies" not in sys.modules, sorted(m for m in sys.modules if m.startswith(("sim", "strat")))
name = f"numba-{numba_cache.engine_hash(numba_cache.ROOT)}{numba_cache.compile_settings()}"
expected = os.environ.get("NUMBA_CACHE_DIR") or str(numba_cache.CACHE_BASE / name)
assert numba.config.CACHE_DIR == expected, (numba.config.CACHE_DIR, expected)
assert rng.mix64._cache._cache_path.startswith(expected), rng.mix64._cache._cache_path
import sim
assert sim._engine_set_up and "gamekit.deferred" in sys.modules
assert numba.config.CACHE_DIR == expected
print(expected)
""")
        folders.add(out.strip())
    out = _fresh("""
import sim, numba, rio.engine
print(numba.config.CACHE_DIR)
""")
    folders.add(out.strip())
    assert len(folders) == 1, folders
    if not os.environ.get("NUMBA_CACHE_DIR"):
        assert Path(folders.pop()).parent == ROOT / "gamekit" / "__pycache__"
