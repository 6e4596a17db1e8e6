"""trinidad.commands.report, trinidad.commands.runs: the commands that read a finished run load no
compiler (issue 95: `trinidad report` on a run directory compiles nothing, and `trinidad runs ...`
neither). Each command runs in a fresh interpreter, which then lists the Numba modules it holds."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from analysis.synthetic import write_synthetic_run

ROOT = Path(__file__).resolve().parents[3]

# the command as the `trinidad` script runs it (its app, its callback), then what it imported
PROBE = """
import json, sys
from trinidad.cli import app
try:
    app(sys.argv[1:], prog_name="trinidad")
except SystemExit as e:
    code = e.code or 0
print(json.dumps({"code": code, "numba": sorted(m for m in sys.modules if m == "numba" or m.startswith("numba."))[:3]}))
"""


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    return write_synthetic_run(tmp_path_factory.mktemp("read") / "run", games=120, players=(4,), seed=6)


def _imports(*args: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + (os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else ""))
    res = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=str(ROOT), env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("command", [["report", "{run}", "--out", "{tmp}/page"], ["compare", "{run}", "{run}", "--out", "{tmp}/cmp"],
                                     ["runs", "summarize", "{run}"], ["runs", "digest", "{run}"], ["runs", "compare", "{run}", "{run}"]])
def test_reading_a_run_loads_no_compiler(run_dir, tmp_path, command):
    got = _imports(*(a.format(run=run_dir, tmp=tmp_path) for a in command))
    assert got["code"] == 0
    assert got["numba"] == [], f"trinidad {command[0]} imported {got['numba']}"
