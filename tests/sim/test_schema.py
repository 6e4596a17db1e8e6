"""sim.schema: the record schema (the column names and numbers of the decades and games tables) in
a module of its own, apart from the jitted kernels that fill the rows (sim.records), so that the
data layer reads the column names without loading the engine (issue 37).

The analysis and the reports are imported in a fresh interpreter (the test session has long
loaded the engine): none of them may load an engine kernel module, nor the players or the
orchestration. Numba itself may be loaded: ``import sim`` sets Numba's cache folder up and
installs gamekit.deferred and gamekit.specialize (hooks, no jitted code) before anything else.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA_LAYER = ("analysis", "reports")  # what reads the run's tables (README, "Layout")

_PROBE = """
import importlib, json, re, sys
from pathlib import Path

for pkg in {pkgs!r}:
    importlib.import_module(pkg)
    for p in sorted(Path(pkg).glob("*.py")):
        if p.stem != "__init__":
            importlib.import_module(f"{{pkg}}.{{p.stem}}")
own = sorted(m for m in sys.modules if m.split(".")[0] in ("sim", "strategies", "trinidad"))
disp = sys.modules.get("numba.core.dispatcher")
kernels = sorted(m for m in own if disp is not None and any(isinstance(v, disp.Dispatcher) for v in vars(sys.modules[m]).values()))
jitted = sorted(m for m in own if (getattr(sys.modules[m], "__file__", None) or "").endswith(".py")
                and re.search(r"^\\s*@(numba\\.)?njit\\b", Path(sys.modules[m].__file__).read_text(), re.MULTILINE))
print(json.dumps({{"own": own, "kernels": kernels, "jitted": jitted}}))
"""


def _loaded_by(pkgs: tuple[str, ...]) -> dict:
    """What importing every module of ``pkgs`` loads, in a fresh interpreter: the project's
    modules, those holding a jitted function (a Numba dispatcher), those whose source has a line
    decorated ``@njit`` (a jitted source file)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-c", _PROBE.format(pkgs=pkgs)], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=False, timeout=300)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_the_data_layer_loads_no_engine_kernel():
    got = _loaded_by(DATA_LAYER)
    assert got["kernels"] == [] and got["jitted"] == [], f"the data layer loaded engine kernels: {got['jitted'] or got['kernels']}"
    assert "sim.schema" in got["own"]  # analysis.synthetic's column names, sim.dataset's types
    assert [m for m in got["own"] if m.split(".")[0] != "sim"] == []


# the names sim.records defined before the schema had a module of its own
SCHEMA_NAMES = ("N_BUILT", "RD", "N_AFFILIATES", "N_RD", "TALLY_COLUMNS", "TALLY_G_COLUMNS", "DECADE_COLUMNS", "ACT_CODES", "N_ACTS",
                "N_RES", "RG", "N_RG", "GAME_COLUMNS", "act_column")


def test_records_re_exports_the_schema():
    """The kernels' module keeps every name it used to define (the engine and the tests import
    them from there), and the kernels index the rows by the very same enums."""
    from sim import records, schema

    for n in SCHEMA_NAMES:
        assert getattr(records, n) is getattr(schema, n), n
    assert len(schema.DECADE_COLUMNS) == schema.N_RD and len(schema.GAME_COLUMNS) == schema.N_RG


@pytest.mark.parametrize("frozen", ["sim/schema.py", "strategies/weights.py", "sim/compiled_parts.py", "sim/rule_keys.py"])
def test_the_engine_cache_folder_follows_the_schema(tmp_path, frozen):
    """The kernels freeze the schema's enums and sizes (RD, RG, N_BUILT, ACT_CODES) into their
    machine code (as the policy's slots in strategies/weights.py, and the parts' hooks in
    sim/compiled_parts.py), and Numba's cache checks only a kernel's own file: an edit of one of them
    alone must start a fresh cache folder, as an edit of sim/state.py does."""
    from sim import engine_hash

    for d in ("sim", "strategies", "trinidad"):
        (tmp_path / d).mkdir()
    (tmp_path / frozen).write_text("N_BUILT = 15\n")
    before = engine_hash(tmp_path)
    (tmp_path / frozen).write_text("N_BUILT = 16\n")
    assert engine_hash(tmp_path) != before
