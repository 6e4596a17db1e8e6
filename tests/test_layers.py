"""The layers import one way (README, "Layout"): orchestration (trinidad) ->
players (strategies) -> engine (sim); analysis reads data only, reports read analysis. The one
exception is the seam: sim/seam.py, the only engine module that imports strategies.

Río de la Plata (rio) is a second game beside Trinidad's: neither game's engine imports the other's,
and no module of rio imports Trinidad's layers above an engine either (strategies, trinidad, analysis,
reports). Inside rio the same one way: its rules modules (rio.keys, rio.tags, rio.overrides,
rio.packing, rio.rules, rio.formulas: every rio module outside rio.engine and rio.players) import
neither its engine nor its players; its engine (rio.engine) imports its rules, and its players only
in its seam, rio/engine/seam.py; its players (rio.players) import the engine and the rules; its front door (rio.play, rio.audit: named
players playing batches, the invariants over many games) imports all three.

Beneath both engines: what the two games' rules files share (rulesfile) and what their engines share
(gamekit: the random numbers, the Numba cache folder). Neither imports anything of the project."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "strategies", "trinidad", "analysis", "reports", "rio", "rulesfile", "gamekit")
SEAM = "sim.seam"
RIO_SEAM = "rio.engine.seam"

# package -> packages of this project it must never import (at module level or inside a function)
FORBIDDEN = {
    "sim": {"strategies", "trinidad", "analysis", "reports", "rio"},
    # Río de la Plata: a game's engine never imports the other game's (sim is Trinidad's), and no module
    # of rio imports Trinidad's layers above an engine (players, orchestration, analysis, reports)
    "rio": {"sim", "strategies", "trinidad", "analysis", "reports"},
    # the format both games' rules files share, read by both engines: it imports none of the project
    "rulesfile": {"sim", "strategies", "trinidad", "analysis", "reports", "rio", "gamekit"},
    # what both engines share beneath them (random numbers, the Numba cache folder): none of the project
    "gamekit": {"sim", "strategies", "trinidad", "analysis", "reports", "rio", "rulesfile"},
    "strategies": {"trinidad", "analysis", "reports"},
    "trinidad": set(),
    "analysis": {"strategies", "trinidad", "reports"},
    "reports": {"strategies", "trinidad"},
}

# Inside rio, by layer (:func:`rio_layer`): the layers of rio each must never import
RIO_FORBIDDEN = {
    "rules": {"rio.engine", "rio.players"},  # rio.keys, rio.packing, rio.rules, ...: plain Python, no engine
    "rio.engine": {"rio.players"},  # but for its seam (RIO_SEAM)
    "rio.players": set(),  # the engine and the rules
    "front": set(),  # rio.play, rio.audit: a table of named players plays batches (the harness's door to the game)
}
RIO_FRONT = ("rio.play", "rio.audit")


def _within(module: str, pkg: str) -> bool:
    return module == pkg or module.startswith(pkg + ".")


def rio_layer(module: str) -> str:
    """The layer of a module of rio: ``rio.engine``, ``rio.players``, ``front`` (the door the harness plays
    through: rio.play, rio.audit) or ``rules`` (every other module of rio, the package itself included)."""
    if module in RIO_FRONT:
        return "front"
    return next((sub for sub in ("rio.engine", "rio.players") if _within(module, sub)), "rules")


def imported_modules(source: str, module: str) -> set[str]:
    """Every module ``source`` (the text of ``module``) imports, wherever the import stands."""
    out: set[str] = set()
    pkg = module.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import
                base = ".".join(pkg.split(".")[: len(pkg.split(".")) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names if base in PACKAGES)  # `from strategies import policy`
    return out


def violations(module: str, source: str) -> list[str]:
    top = module.split(".")[0]
    bad = []
    for imp in sorted(imported_modules(source, module)):
        target = imp.split(".")[0]
        if target in FORBIDDEN[top]:
            if module == SEAM and target == "strategies":
                continue
            bad.append(f"{module} imports {imp}")
        elif top == "rio" and target == "rio" and any(_within(imp, f) for f in RIO_FORBIDDEN[rio_layer(module)]):
            if module == RIO_SEAM and _within(imp, "rio.players"):
                continue
            bad.append(f"{module} imports {imp}")
    return bad


def project_modules():
    for pkg in PACKAGES:
        for p in sorted((ROOT / pkg).rglob("*.py")):
            rel = p.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            yield ".".join(parts), p.read_text()


def test_layers_import_one_way():
    bad = [v for module, source in project_modules() for v in violations(module, source)]
    assert bad == [], "imports against the layering:\n" + "\n".join(bad)


def test_the_seam_is_the_engines_only_import_of_the_players():
    seam = [m for m, src in project_modules() if m.startswith("sim") and
            any(i.split(".")[0] == "strategies" for i in imported_modules(src, m))]
    assert seam == [SEAM]
    # Río's engine: its seam alone (which names the players' decision functions as they are written)
    rio_seam = {m for m, src in project_modules() if _within(m, "rio.engine") and
                any(_within(i, "rio.players") for i in imported_modules(src, m))}
    assert rio_seam <= {RIO_SEAM}


def test_rios_layers_are_the_ones_named():
    # every rio module belongs to one layer, and the rules modules are the plain-Python loader's
    layers = {m: rio_layer(m) for m, _ in project_modules() if _within(m, "rio")}
    assert {m for m, layer in layers.items() if layer == "rules"} >= {
        "rio", "rio.keys", "rio.tags", "rio.overrides", "rio.packing", "rio.rules", "rio.formulas"}
    assert layers["rio.engine"] == layers[RIO_SEAM] == "rio.engine" and layers["rio.players"] == "rio.players"
    assert layers["rio.play"] == "front"


def test_the_checker_sees_every_kind_of_import():
    # the checker itself must catch a function-level import, a from-import and a plain import
    assert violations("sim.core", "def f():\n    from strategies.policy import choose\n") == ["sim.core imports strategies.policy"]
    assert violations("sim.deck", "import trinidad.runner\n") == ["sim.deck imports trinidad.runner"]
    assert violations("strategies.policy", "from trinidad import batch\n") == ["strategies.policy imports trinidad",
                                                                                "strategies.policy imports trinidad.batch"]
    assert violations("analysis.data", "from sim.state import VS_NAMES\n") == []
    assert violations(SEAM, "from strategies.policy import choose\n") == []
    # the two games' engines: neither imports the other, and the seam is sim's alone
    assert violations("rio.rules", "import sim.rules\n") == ["rio.rules imports sim.rules"]
    assert violations("rio.packing", "from strategies import policy\n") == ["rio.packing imports strategies",
                                                                           "rio.packing imports strategies.policy"]
    assert violations("sim.game", "def f():\n    from rio.rules import K\n") == ["sim.game imports rio.rules"]
    assert violations("rio.formulas", "from rio.rules import K\nimport numpy\n") == []
    # the rules files' shared format: both engines read it, it reads neither
    assert violations("rio.overrides", "from rulesfile import check_same_shape\n") == []
    assert violations("sim.rule_overrides", "from rulesfile import read_toml\n") == []
    assert violations("rulesfile", "from sim.rule_keys import RulesError\n") == ["rulesfile imports sim.rule_keys"]
    # what both engines share: both import it, it imports none of the project
    assert violations("sim.rng", "from gamekit.rng import mix64\n") == []
    assert violations("rio.engine.state", "from gamekit import rng\n") == []
    assert violations("gamekit.numba_cache", "def f():\n    from sim import rules\n") == ["gamekit.numba_cache imports sim",
                                                                                        "gamekit.numba_cache imports sim.rules"]
    assert violations("gamekit.rng", "import rio.keys\n") == ["gamekit.rng imports rio.keys"]
    assert violations("rulesfile", "from gamekit.rng import mix64\n") == ["rulesfile imports gamekit.rng"]
    # rio, every layer: never Trinidad's
    assert violations("rio.engine.core", "from sim.rng import mix64\n") == ["rio.engine.core imports sim.rng"]
    assert violations("rio.players.kinds", "import trinidad.batch\n") == ["rio.players.kinds imports trinidad.batch"]
    # inside rio: the rules modules import neither engine nor players, the engine its players only in its seam
    assert violations("rio.packing", "from rio.engine.state import G\n") == ["rio.packing imports rio.engine.state"]
    assert violations("rio.rules", "def f():\n    from rio import players\n") == ["rio.rules imports rio.players"]
    assert violations("rio", "import rio.engine\n") == ["rio imports rio.engine"]
    assert violations("rio.engine.core", "from rio.players.kinds import Kind\n") == ["rio.engine.core imports rio.players.kinds"]
    assert violations("rio.engine.core", "from ..players import kinds\n") == ["rio.engine.core imports rio.players"]
    assert violations("rio.engine", "from rio.players import kinds\n") == ["rio.engine imports rio.players"]
    assert violations(RIO_SEAM, "from rio.players.kinds import Kind\n") == []
    assert violations("rio.engine.core", "from rio.engine.state import G\nfrom rio.keys import K\n") == []
    assert violations("rio.players.kinds", "from rio.engine import seam\nfrom rio.packing import Rules\n") == []


HOOKS = {"extended_war", "extended_war_entry", "solo_ai", "solo_ai_entry"}  # sim.compiled_parts: hook = extended_war(fn)


def _hook_targets(tree) -> dict[str, str]:
    """A module's hooks of sim.compiled_parts and the functions they call: ``xw_end_war = extended_war_entry(end_war)``."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and getattr(node.value.func, "id", None) in HOOKS:
            out[node.targets[0].id] = getattr(node.value.args[0], "id", None)
    return out


def _callers(name: str) -> set[str]:
    """module.function of every function of the project that calls ``name`` (directly or through
    a hook of sim.compiled_parts)."""
    out = set()
    for module, source in project_modules():
        tree = ast.parse(source)
        hooks = _hook_targets(tree)
        for fn in ast.walk(tree):
            if isinstance(fn, ast.FunctionDef):
                for node in ast.walk(fn):
                    if not isinstance(node, ast.Call):
                        continue
                    called = getattr(node.func, "id", getattr(node.func, "attr", None))
                    if hooks.get(called, called) == name:
                        out.add(f"{module}.{fn.name}")
    return out


def test_one_definition_of_the_game_loop():
    # the rounds of the Action phase: one loop, whoever plays the turns (sim.actions.own_turn or
    # strategies.match.family_turn); a decade's phases: one sequence, in the real game and in the
    # players' simulations alike
    assert _callers("war_round_begin") == {"sim.actions.turn.action_rounds"}
    assert _callers("any_active") == {"sim.actions.turn.action_rounds"}
    assert _callers("start_of_decade") == {"sim.game.play_decade"}
    assert _callers("record_decade") == {"sim.game.play_decade"}
    # the decades of a game: one loop (sim.game.play_decades), in the game and in the players'
    # simulations of its rest; play_own_decade is Python's single decade (tests, tools)
    assert _callers("play_decade") == {"sim.game.play_decades", "sim.game.play_own_decade"}
    assert _callers("play_decades") == {"strategies.match.play_game", "strategies.rollout.play_on"}


def test_one_check_of_the_seats():
    # the seats' strategies, the A.I. and the forced Characters are checked once (sim.seating), for
    # one game and for a batch alike
    assert _callers("seat_arrays") == {"strategies.match.run_game", "trinidad.batch.play_batch"}


# EXTENDED WAR hooks into the base game where the game's flow runs: the decade's phases (sim.game:
# the war begun, a last decade's war fought at once, the war ended at the decade's end) and the
# Action Phase's rounds (sim.actions.turn). The base War (sim.war) only declares a war
# (XG.PENDING), and no other engine module knows the expansion.
EXPANSION = "sim.extended_war"
KNOW_THE_EXPANSION = {"sim.game", "sim.actions.turn"}


def _is_expansion(module: str) -> bool:
    return module == EXPANSION or module.startswith(EXPANSION + ".")


def test_the_base_game_does_not_import_the_extended_war():
    sources = dict(project_modules())
    importers = {m for m, src in sources.items() if m.startswith("sim.") and not _is_expansion(m)
                 and any(_is_expansion(i) for i in imported_modules(src, m))}
    assert importers == KNOW_THE_EXPANSION
    # nor through another module: what the base War imports, and what that imports, leaves it out
    seen, todo = set(), ["sim.war"]
    while todo:
        m = todo.pop()
        if m in seen or m not in sources:
            continue
        seen.add(m)
        todo.extend(imported_modules(sources[m], m))
    assert "sim.war" in seen and not any(_is_expansion(m) for m in seen), sorted(m for m in seen if _is_expansion(m))
