"""trinidad.runner.run: the A.I. table (each strategy against the Solo A.I., DIR/ai_scale.json) is
played only when asked, by ``--ai-games N`` or the experiment's ``ai_games`` key, and announced with
its cost before the games (issue 95: a run does what it says)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from trinidad.ai_scale import read
from trinidad.cli import app
from trinidad.experiment import ExperimentError, load_experiment
from trinidad.runner.manifest import experiment_of_run
from trinidad.runner.run import run_experiment

EXPERIMENT = """
name = "asked"
players = 3
games = 4
seed = 5
shard_games = 4
ai_games = {ai_games}

[seats]
strategies = ["random"]
"""


def _file(tmp_path: Path, ai_games: int) -> Path:
    f = tmp_path / f"ai{ai_games}.toml"
    f.write_text(EXPERIMENT.format(ai_games=ai_games))
    return f


def test_a_run_without_the_flag_plays_no_ai_table(engine, tmp_path):
    out = tmp_path / "plain"
    res = CliRunner().invoke(app, ["run", "--players", "3", "--games", "4", "--strategies", "random", "--out", str(out), "-w", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert (out / "manifest.json").exists() and not (out / "ai_scale.json").exists()
    assert "Solo" not in res.output
    # a run recorded before the key existed resumes as one that asked for no A.I. table
    m = json.loads((out / "manifest.json").read_text())
    assert m["experiment"].pop("ai_games") == 0
    (out / "manifest.json").write_text(json.dumps(m))
    assert "ai_games" not in experiment_of_run(out)
    assert CliRunner().invoke(app, ["run", "--resume", "--out", str(out), "-w", "1", "-q"]).exit_code == 0


def test_the_experiment_key_asks_for_the_ai_table_and_the_flag_overrides_it(engine, tmp_path):
    exp = load_experiment(_file(tmp_path, 2), out=str(tmp_path / "asked"))
    assert exp.ai_games == 2
    said: list[str] = []
    run_experiment(exp, workers=1, say=said.append)
    where = tmp_path / "asked" / "ai_scale.json"
    assert said[0] == f"asked for the A.I. table: after the games, 1 strategy x 4 A.I. strengths x 2 = 8 Solo games ({where})"
    scale = read(tmp_path / "asked")
    assert scale is not None and scale.strategies == ["random"] and scale.games == 2 and len(scale.beats) == 4
    # the command line over the file: --ai-games 0 plays none
    out = tmp_path / "overridden"
    res = CliRunner().invoke(app, ["run", str(_file(tmp_path, 2)), "--ai-games", "0", "--out", str(out), "-w", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert (out / "manifest.json").exists() and not (out / "ai_scale.json").exists()


def test_the_ai_games_key_is_checked(tmp_path):
    with pytest.raises(ExperimentError, match=r"^experiment: ai_games: must be in 0\.\.1000000, got -1$"):
        load_experiment(_file(tmp_path, -1))
    res = CliRunner().invoke(app, ["run", "--ai-games", "-1", "--out", str(tmp_path / "x"), "-q"])
    assert res.exit_code == 2 and res.output.strip().splitlines()[-1] == "--ai-games: must be >= 0, got -1"
