"""trinidad.replay and ``trinidad play --run DIR --index N`` (issue 23 part 4): the report's example
games replay exactly. A small real run (24 games of heuristic and greedy, seats rotated, Characters
balanced, two rule variants); every example command of a Character page, run through the CLI,
gives each seat the Character, strategy and final VP of the dataset's row. ``--game`` names the game
(issue 97); the old spelling of the index, ``--game N``, still replays with ``--run``."""

from __future__ import annotations

import json
import shlex

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis import analyze, load_run
from trinidad.cli import app
from trinidad.experiment import experiment_from_dict
from trinidad.runner.run import run_experiment

cli = CliRunner()


@pytest.fixture(scope="module")
def run(engine, tmp_path_factory):
    out = tmp_path_factory.mktemp("replay") / "run"
    exp = experiment_from_dict({"name": "replay", "players": [4], "games": 24, "seed": 7, "out": str(out), "shard_games": 12,
                                "seats": {"strategies": ["heuristic", "greedy"], "assign": "rotate"},
                                "characters": {"assign": "balanced"},
                                "variants": [{"name": "base"}, {"name": "wood-4", "overrides": {"setup": {"start_wood": 4}}}]})
    run_experiment(exp, workers=1, progress=False)
    return out


def _replay(args: list[str]) -> dict:
    r = cli.invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _dataset(run, variant: str, game: int) -> list[tuple]:
    g = pl.read_parquet(run / "games" / "*.parquet").filter((pl.col("variant").cast(pl.String) == variant) & (pl.col("game") == game))
    return [(r["seat"], str(r["character"]), str(r["strategy"]), r["vp"], r["rank"]) for r in g.sort("seat").iter_rows(named=True)]


def _seats(out: dict) -> list[tuple]:
    return [(s["seat"], s["character"], s["strategy"], s["vp"], s["rank"]) for s in out["seats"]]


def test_the_example_commands_replay_the_dataset_rows(run):
    a = analyze(load_run(run))
    pages = a.section("characters").subsections
    assert len(pages) == 12
    commands = {r["command"]: r for p in pages[:3] for r in p.tables[-1].df.iter_rows(named=True)}
    assert len(commands) >= 3
    for cmd, row in commands.items():
        args = shlex.split(cmd)
        assert args[:2] == ["trinidad", "play"]
        out = _replay(args[1:])
        assert _seats(out) == _dataset(run, "base", row["game"]), cmd
        assert out["seats"][row["seat"]]["vp"] == row["vp"] and str(out["seed"]) == row["seed"]
        assert out["replay"]["game"] == row["game"]


def test_a_variant_replays_with_its_rules(run):
    for game in (0, 13):
        assert _seats(_replay(["play", "--run", str(run), "--index", str(game), "--variant", "wood-4"])) == _dataset(run, "wood-4", game)
    base = [_dataset(run, "base", k) for k in range(24)]
    wood = [_dataset(run, "wood-4", k) for k in range(24)]
    assert base != wood  # the override changed games: a replay that ignored it would not match


def test_bad_replay_options_fail_in_one_line(run):
    for args, msg in [(["--run", str(run), "--index", "24"], "--index: the run's games are 0..23"),
                      (["--run", str(run), "--game", "24"], "--game: the run's games are 0..23"),  # the old spelling, named as typed
                      (["--run", str(run)], "--index: --run DIR and --index N go together"),
                      (["--index", "3"], "--run: --run DIR and --index N go together"),
                      (["--run", str(run), "--game", "1", "--index", "1"], "--game: 1 is a game's index (the old spelling of --index)"),
                      (["--run", str(run), "--game", "rio-de-la-plata", "--index", "1"], "--run: an option of Trinidad's games"),
                      (["--run", str(run), "--index", "1", "--variant", "nope"], "--variant: the run's variants are base, wood-4"),
                      (["--run", str(run), "--index", "1", "--players", "3"], "--players: the run has 4 players"),
                      (["--run", str(run), "--index", "1", "--seed", "0"], "--seed: with --run the game is set up as the run played it"),
                      (["--run", str(run.parent / "nothing"), "--index", "1"], "--run: ")]:
        r = cli.invoke(app, ["play", *args])
        assert r.exit_code == 2 and msg in r.output and len(r.output.strip().splitlines()) == 1, (args, r.output)


def test_the_old_spelling_of_the_index_still_replays(run):
    """``--game N`` with ``--run`` is the index (a game's name is never an integer); ``-i`` is ``--index``'s short
    form; ``--game trinidad`` names the game the run is of."""
    game = ["play", "--run", str(run), "--variant", "wood-4"]
    want = _dataset(run, "wood-4", 5)
    for spelling in (["--index", "5"], ["-i", "5"], ["--game", "5"], ["--game", "trinidad", "--index", "5"]):
        assert _seats(_replay([*game, *spelling])) == want, spelling


def test_a_run_with_the_ai_replays(engine, tmp_path):
    """The A.I.'s seat moves with the rotation, its strength is the variant: the replay follows both;
    the report's commands count the players besides the A.I. (as ``trinidad play --ai``)."""
    out = tmp_path / "ai"
    exp = experiment_from_dict({"name": "ai", "players": [2], "games": 6, "seed": 5, "out": str(out), "shard_games": 6,
                                "seats": {"strategies": ["greedy", "random"], "assign": "rotate"}, "characters": {"assign": "balanced"},
                                "ai": {"strength": ["weak", "strong"]}})
    run_experiment(exp, workers=1, progress=False)
    for game in range(3):  # the A.I. at seats 2, 0, 1
        got = _replay(["play", "--run", str(out), "--index", str(game), "--variant", "strong"])
        assert _seats(got) == _dataset(out, "strong", game) and got["ai"]["strength"] == "strong"
        assert got["seats"][got["ai"]["seat"]]["strategy"] == "ai-strong"
    ex = analyze(load_run(out)).section("characters").subsections[0].tables[-1].df
    row = ex.row(0, named=True)
    assert f"--players 2 --index {row['game']}" in row["command"]
    assert _seats(_replay(shlex.split(row["command"])[1:])) == _dataset(out, "weak", row["game"])


def test_a_priced_run_replays_with_its_prices(engine, tmp_path):
    """A run played at Characters' auction prices ([characters] prices): the replay charges them too."""
    out = tmp_path / "priced"
    exp = experiment_from_dict({"name": "priced", "players": [4], "games": 12, "seed": 5, "out": str(out), "shard_games": 12,
                                "seats": {"strategies": ["heuristic"]}, "characters": {"assign": "balanced", "prices": {"Captain": 9, "Governor": -6}}})
    run_experiment(exp, workers=1, progress=False)
    g = pl.read_parquet(out / "games" / "*.parquet")
    paid = g.filter(pl.col("vp_auction") < 0)
    assert paid.height > 0  # the run charged some seats
    for game in paid["game"].unique().to_list()[:2]:
        rows = _dataset(out, "base", game)
        assert _seats(_replay(["play", "--run", str(out), "--players", "4", "--index", str(game)])) == rows
