"""The `trinidad play` command: same seed -> byte-identical output; --log; --json; bad overrides."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from trinidad.cli import app, runs_app

runner = CliRunner()


def test_play_json_shape(engine):
    """`play --json`: one object; ``winner`` is the seat ranked first, a seat number when one seat
    is first (as in this game) and the list of the tied seats only when seats tie for first."""
    res = runner.invoke(app, ["play", "--players", "3", "--seed", "5", "--json", "--strategies", "random,greedy,greedy"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.output)
    assert len(obj["seats"]) == 3
    for seat in obj["seats"]:
        assert {"character", "strategy", "vp", "vp_by_source"} <= set(seat)
        assert sum(seat["vp_by_source"].values()) == seat["vp"]
    assert [seat["seat"] for seat in obj["seats"]] == [0, 1, 2]
    first = [seat["seat"] for seat in obj["seats"] if seat["rank"] == 1]
    assert len(first) == 1 and obj["seats"][first[0]]["vp"] == max(seat["vp"] for seat in obj["seats"])
    assert type(obj["winner"]) is int and obj["winner"] == first[0]


def test_play_log_tells_the_game(engine):
    res = runner.invoke(app, ["play", "--players", "4", "--seed", "1", "--log"])
    assert res.exit_code == 0, res.output
    out = res.output
    for d in range(1, 13):
        assert f"=== Decade {d} " in out
    assert out.count("--- Scoring, Era") == 3
    assert "builds a" in out and "VP (" in out


def test_same_seed_byte_identical_across_processes(engine):
    cmd = [sys.executable, "-m", "trinidad.cli", "play", "--players", "4", "--seed", "3", "--log", "--json"]
    a = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    b = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    assert a == b and len(a) > 1000


def test_bad_override_one_line(engine, tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text("[setup]\nstart_woood = 3\n")
    res = runner.invoke(app, ["play", "--rules", str(p)])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "setup.start_woood" in lines[0]


def test_override_changes_the_game(engine, tmp_path):
    p = tmp_path / "rich.toml"
    p.write_text("[setup]\nstart_silver = 5\n")
    a = runner.invoke(app, ["play", "--seed", "2", "--json"]).output
    b = runner.invoke(app, ["play", "--seed", "2", "--json", "--rules", str(p)]).output
    assert a != b


def test_bad_strategy_and_players(engine):
    assert runner.invoke(app, ["play", "--players", "6"]).exit_code == 2
    res = runner.invoke(app, ["play", "--strategies", "nosuch"])
    assert res.exit_code == 2 and "nosuch" in res.output


def test_flags_show_no_value_placeholder():
    """A flag takes no value: no `<bool>` placeholder in any command's help, --help included."""
    def name(c):
        return c.name or c.callback.__name__.replace("_", "-")

    cmds = [[name(c)] for c in app.registered_commands] + [["runs", name(c)] for c in runs_app.registered_commands] + [[]]
    assert len(cmds) > 10
    for cmd in cmds:
        res = runner.invoke(app, [*cmd, "--help"], terminal_width=200)
        assert res.exit_code == 0, cmd
        assert "--help" in res.output
        flags = [ln for ln in res.output.splitlines() if "<bool>" in ln]
        assert not flags, (cmd, flags)


def test_experiment_errors_name_the_key_once(tmp_path):
    """One line, the key named once: no 'rules: rules:' and the available strategies listed once."""
    p = tmp_path / "bad.toml"
    p.write_text('name = "x"\ngames = 12\n[rules]\noverrides.setup.start_wood = -1\n')
    res = runner.invoke(app, ["run", str(p), "--out", str(tmp_path / "r"), "-q"])
    assert res.exit_code == 2 and "rules: rules:" not in res.output and "experiment: rules: setup.start_wood" in res.output
    res = runner.invoke(app, ["run", "--games", "12", "--strategies", "genius", "--out", str(tmp_path / "s"), "-q"])
    assert res.exit_code == 2 and res.output.count("available") == 1 and "heuristic" in res.output


def test_run_shard_games_option(engine, tmp_path):
    out = tmp_path / "r"
    res = runner.invoke(app, ["run", "--games", "12", "--shard-games", "4", "--out", str(out), "-w", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert len(list((out / "games").glob("*.parquet"))) == 3
    assert "(local, 1 worker)" in res.output
    res = runner.invoke(app, ["run", "--games", "12", "--shard-games", "0", "--out", str(tmp_path / "z"), "-q"])
    assert res.exit_code == 2 and "shard_games" in res.output


def test_resume_reads_the_experiment_from_the_run(engine, tmp_path):
    """`trinidad run --resume --out DIR` alone finishes a run of any experiment: it reads the
    experiment from DIR's manifest, and the finished run has the same games as one played whole."""
    from trinidad.digest import run_digest

    exp = tmp_path / "e.toml"
    exp.write_text('name = "e"\nplayers = 3\ngames = 18\nseed = 5\nshard_games = 6\n[seats]\nstrategies = ["greedy", "random"]\nassign = "rotate"\n')
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    for out in (whole, cut):
        assert runner.invoke(app, ["run", str(exp), "--out", str(out), "-w", "1", "-q"]).exit_code == 0
    for t in ("games", "decades"):
        sorted((cut / t).glob("*.parquet"))[-1].unlink()
    res = runner.invoke(app, ["run", "--resume", "--out", str(cut), "-w", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert run_digest(cut) == run_digest(whole)
    res = runner.invoke(app, ["run", "--resume", "--out", str(tmp_path / "none"), "-q"])
    assert res.exit_code == 2 and "no manifest.json" in res.output
