"""trinidad.bench (`trinidad bench`): what is played follows from the arguments and the strategy's
budget (never from the clock); the output names the budget and the cost per game. Rates are
measured, never asserted beyond being positive. `--game rio-de-la-plata` measures a seat table of
Río de la Plata's players (trinidad.games.rio.bench_table) on one core after a warm-up game, through
rio.play.play (the entry point the suite compiles for tests/rio); Trinidad's bench is unchanged."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from strategies.registry import resolve
from trinidad.bench import budget, default_games, default_nojit_games, format_budget, playouts
from trinidad.cli import app
from trinidad.games.rio import bench_table

RIO = "rio-de-la-plata"
cli = CliRunner()


def test_the_budget_comes_from_the_strategy_file_with_defaults_filled_in(tmp_path):
    assert budget("rollout") == ("rollout", {"candidates": 4, "rollouts": 4, "horizon": "era"})
    # an alias measures what it names (best = lab/search-long-nogrid-all-td61-noship-nolot, 24 simulations a decision)
    assert budget("best") == budget(resolve("best")) == ("search", {"budget": 24, "width": 8, "horizon": 1, "war": 1})
    assert budget("heuristic") == ("heuristic", {}) and budget("random") == ("random", {})
    p = tmp_path / "deep.toml"
    p.write_text('family = "rollout"\n[rollout]\nrollouts = 8\nhorizon = "game"\n')
    assert budget(str(p)) == ("rollout", {"candidates": 4, "rollouts": 8, "horizon": "game"})
    p.write_text('family = "rollout"\n[rollout]\nmin_decades = 3\n')
    assert budget(str(p)) == ("rollout", {"candidates": 4, "rollouts": 4, "horizon": "era", "min_decades": 3})
    p.write_text('family = "rollout"\n[rollout]\ncharacter_ahead = 0.5\n')
    b = budget(str(p))[1]
    assert b == {"candidates": 4, "rollouts": 4, "horizon": "era", "character_ahead": 0.5} and playouts(b) == 16
    assert format_budget(b) == "candidates 4 x rollouts 4, horizon era, character_ahead 0.5"
    p.write_text('family = "rollout"\n[rollout]\nwin_bonus = 100\n')
    b = budget(str(p))[1]  # how a simulation's end is valued: named, not a factor of the playouts
    assert b == {"candidates": 4, "rollouts": 4, "horizon": "era", "win_bonus": 100.0} and playouts(b) == 16


def test_the_default_game_counts_scale_with_the_budget():
    era = {"candidates": 4, "rollouts": 4, "horizon": "era"}
    assert playouts(era) == 16 and playouts(era | {"horizon": "game"}) == 48 and playouts({}) == 0
    assert default_games("heuristic", {}) == 20000 and default_nojit_games("heuristic", {}) == 6
    assert default_games("rollout", era) == 128 and default_nojit_games("rollout", era) == 0  # no-JIT rollout: hours
    assert default_games("rollout", era | {"horizon": "game"}) == 42
    assert default_games("rollout", {"candidates": 64, "rollouts": 1024, "horizon": "game"}) == 8  # never below 8
    assert default_games("python", {}) == 400
    b0 = {"budget": 0, "width": 8, "horizon": 1}  # a search of its 1-ply ranking alone: a planning player still
    assert playouts(b0) == 2 and default_nojit_games("search", b0) == 0 and default_games("search", b0) == 1024
    assert format_budget(era) == "candidates 4 x rollouts 4, horizon era" and format_budget({}) == "-"
    assert playouts(era | {"min_decades": 2}) == 16  # where a simulation stops is no factor of the count
    assert format_budget(era | {"min_decades": 2}) == "candidates 4 x rollouts 4, horizon era, min_decades 2"


def test_bench_json(engine):
    res = cli.invoke(app, ["bench", "--no-cold", "--games", "30", "--nojit-games", "1", "--players", "3", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)  # one JSON object on stdout; progress lines on stderr
    for key in ("games_per_s", "games_per_s_per_core", "core_s_per_game", "core_s_per_game_1_thread", "speedup_vs_nojit",
                "start_s_cached", "peak_rss_mib"):
        assert isinstance(obj[key], (int, float)) and obj[key] > 0, (key, obj)
    assert "compile_s_cold" not in obj
    assert obj["games"] == 30 and obj["games_1_thread"] == 7 and obj["players"] == 3 and obj["nojit_games"] == 1
    assert obj["family"] == "heuristic" and obj["budget"] == {}
    assert isinstance(obj["cpu"], str) and obj["cpu"]
    chunks = [ln for ln in res.stderr.splitlines() if "chunk" in ln]
    assert len(chunks) == 6 and chunks[-1].startswith("bench: jitted engine, ") and "30 games: chunk 3/3, 10 games" in chunks[-1]


def test_a_rollout_bench_skips_the_no_jit_engine_and_names_its_budget(engine):
    res = cli.invoke(app, ["bench", "--strategies", "rollout", "--games", "2", "--nojit-games", "0", "--no-cold"])
    assert res.exit_code == 0, res.output
    first = res.stdout.splitlines()[0]
    assert first.startswith("rollout [rollout; budget candidates 4 x rollouts 4, horizon era]: ") and "core-s per game" in first
    assert "games_per_s_nojit: skipped" in res.stdout and "no-JIT engine skipped" in res.stderr
    assert "2 games: chunk 2/2, 1 games" in res.stderr  # 2 games: two chunks of one


def test_a_rio_bench_measures_its_seat_table_on_one_core():
    res = cli.invoke(app, ["bench", "--game", RIO, "--games", "6", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert (obj["game"], obj["players"], obj["strategy"], obj["family"], obj["budget"]) == (RIO, 4, "heuristic,builder,officer,merchant",
                                                                                          "heuristic", {})
    assert obj["seats"] == ["heuristic", "builder", "officer", "merchant"] and (obj["level"], obj["short"], obj["seed"]) == ("expert", False, 7)
    assert (obj["threads"], obj["games"], obj["reps"]) == (1, 6, 3)
    for key in ("games_per_s_per_core", "core_s_per_game", "peak_rss_mib"):
        assert isinstance(obj[key], (int, float)) and obj[key] > 0, (key, obj)
    assert isinstance(obj["warm_up_s"], (int, float)) and obj["warm_up_s"] >= 0  # 0.0 when another test loaded the kernels
    assert not {"compile_s_cold", "start_s_cached", "games_per_s_nojit"} & set(obj)  # Trinidad's own measurements
    chunks = [ln for ln in res.stderr.splitlines() if "chunk" in ln]
    assert len(chunks) == 3 and "1 thread, 6 games: chunk 3/3, 2 games" in chunks[-1]


def test_a_rio_search_table_names_its_budget_and_plays_fewer_games():
    t = bench_table("search,heuristic,search,heuristic")
    assert (t.family, t.budget, t.seats) == ("search+heuristic", {"budget": 16, "width": 4, "depth": 1}, ("search", "heuristic") * 2)
    assert t.default_games == 15  # 1000 / (2 search seats x 16 simulations x (1 + 1) turns)
    assert bench_table().default_games == 1000 and bench_table(None, 3).seats == ("heuristic", "builder", "officer")
    assert bench_table("random", 2, "beginner", True).setup == {"level": "beginner", "short": True, "seed": 7}
    assert bench_table("search:budget=1000,heuristic").default_games == 4  # never below 4
    res = cli.invoke(app, ["bench", "--game", RIO, "--strategies", "search:budget=2,width=2,depth=0,heuristic", "-n", "2", "--reps", "2", "-q"])
    assert res.exit_code == 0, res.output
    first = res.stdout.splitlines()[0]
    assert first.startswith(f"{RIO}: search:budget=2,width=2,depth=0,heuristic [search+heuristic; budget budget 2 x width 2 x depth 0]: ")
    assert "core-s per game (2 games on 1 thread, 2 players, expert; " in first and "games/s per core" in first
    assert not res.stderr  # -q: no progress lines


@pytest.mark.parametrize("args, option", [(["--games", "0"], "--games"), (["--nojit-games", "-1"], "--nojit-games"),
                                          (["--strategies", "nosuch"], "--strategies"), (["--reps", "0"], "--reps"),
                                          (["--game", "monopoly"], "--game: unknown game 'monopoly'; allowed: trinidad, rio-de-la-plata"),
                                          (["--level", "expert"], "--level: an option of Río de la Plata's games, not of Trinidad's"),
                                          (["--short"], "--short"),
                                          (["--game", RIO, "--level", "pro"], "--level: allowed: beginner, intermediate, expert"),
                                          (["--game", RIO, "--cold"], "--cold: an option of Trinidad's games, not of Río de la Plata's"),
                                          (["--game", RIO, "--nojit-games", "2"], "--nojit-games: an option of Trinidad's"),
                                          (["--game", RIO, "--record"], "--record"), (["--game", RIO, "--players", "6"], "--players"),
                                          (["--game", RIO, "--strategies", "greedy"], "--strategies: rio player: unknown player"),
                                          (["--game", RIO, "-p", "3", "--strategies", "random,builder"], "--strategies: give one player")])
def test_bad_bench_arguments_fail_with_one_line(args, option):
    res = cli.invoke(app, ["bench", "--no-cold", *args])
    assert res.exit_code == 2 and res.output.startswith(option) and len(res.output.strip().splitlines()) == 1, res.output
