"""The Solo game and the 2-player game with the A.I. outside the engine: `trinidad play --solo` /
`--players 2 --ai` (deterministic, --log, --json), experiments with an ``[ai]`` table (players
besides the A.I., strengths as variants), their tables, `trinidad runs summarize` and the report."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from reports.build import build_report
from sim.state import AI_STRATEGY
from trinidad.cli import app
from trinidad.experiment import ExperimentError, experiment_from_dict
from trinidad.runner.run import run_experiment
from trinidad.runner.summary import summarize

runner = CliRunner()


def _play(*args):
    res = runner.invoke(app, ["play", *args])
    assert res.exit_code == 0, res.output
    return res.output


def test_play_solo_json(engine):
    obj = json.loads(_play("--solo", "--seed", "4", "--json", "--strategies", "greedy"))
    assert obj["solo"] is True and obj["players"] == 1 and obj["ai"] == {"seat": 1, "strength": "medium"}
    human, ai = obj["seats"]
    assert ai["strategy"] == "ai-medium" and ai["ai"] is True and "beat_ai" not in ai
    assert human["beat_ai"] == (human["rank"] < ai["rank"])
    assert sum(ai["vp_by_source"].values()) == ai["vp"]
    assert "salary" not in ai["vp_by_source"] and "banners" not in ai["vp_by_source"]
    strong = json.loads(_play("--solo", "--seed", "4", "--json", "--strategies", "greedy", "--ai-strength", "divinity"))
    assert strong["ai"]["strength"] == "divinity" and strong["seats"][1]["strategy"] == "ai-divinity"


def test_play_two_players_and_the_ai(engine):
    obj = json.loads(_play("--players", "2", "--ai", "--seed", "6", "--json", "--strategies", "random,greedy"))
    assert obj["solo"] is False and [s["strategy"] for s in obj["seats"]] == ["random", "greedy", "ai-medium"]
    assert all("beat_ai" in s for s in obj["seats"][:2])
    out = _play("--players", "2", "--ai", "--seed", "6", "--log", "--ai-strength", "weak")
    assert "draws Solo card" in out and "A.I." in out and "Randomizer: Affiliate #" in out
    assert out.count("--- Scoring, Era") == 3 and "beats the A.I." in out


def test_play_solo_is_byte_identical_across_processes(engine):
    for args in (["--solo"], ["--players", "2", "--ai", "--ai-strength", "strong"]):
        cmd = [sys.executable, "-m", "trinidad.cli", "play", "--seed", "8", "--log", "--json", *args]
        a = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        b = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        assert a == b and "Solo card" in a


@pytest.mark.parametrize("args, msg", [
    (["--solo", "--players", "2"], "--solo"),
    (["--ai", "--players", "3"], "--players"),
    (["--ai-strength", "weak"], "--ai-strength: needs --ai"),
    (["--solo", "--ai-strength", "godlike"], "--ai-strength: allowed: weak, medium, strong, divinity"),
    (["--players", "1"], "--players"),
])
def test_play_bad_ai_flags_one_line(engine, args, msg):
    res = runner.invoke(app, ["play", *args])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and msg in lines[0]


def _exp(tmp_path, **kw):
    d = {"name": "solo", "players": [1, 2], "games": 12, "seed": 5, "out": str(tmp_path / "run"), "shard_games": 6,
         "seats": {"strategies": ["greedy", "random"], "assign": "rotate"}, "characters": {"assign": "balanced"},
         "ai": {"strength": ["weak", "strong"]}}
    d.update(kw)
    return experiment_from_dict(d)


def test_experiment_ai_table(tmp_path):
    e = _exp(tmp_path)
    assert e.ai == ["weak", "strong"] and [v.name for v in e.variants] == ["weak", "strong"]
    assert [v.overrides for v in e.variants] == [{"solo": {"strength": "weak"}}, {"solo": {"strength": "strong"}}]
    assert e.seats(1) == 2 and e.seats(2) == 3
    s = e.seat_strategies(1, np.arange(48))
    # every strategy plays Solo, and each meets the A.I. at both seats (with balanced Characters the seats
    # are arranged once a deal block of 12 games, and a strategy keeps the table while the rotation goes
    # round): strategy and seat are not aliased
    assert s[::12].tolist() == [[0, AI_STRATEGY], [AI_STRATEGY, 0], [1, AI_STRATEGY], [AI_STRATEGY, 1]]
    assert all((s[b * 12:(b + 1) * 12] == s[b * 12]).all() for b in range(4))
    for sid in (0, 1):
        assert {int(np.flatnonzero(row == sid)[0]) for row in s if sid in row} == {0, 1}
    assert e.seat_strategies(2, np.arange(0, 36, 12)).tolist() == [[0, 1, AI_STRATEGY], [1, AI_STRATEGY, 0], [AI_STRATEGY, 0, 1]]
    d = _exp(tmp_path, characters={"assign": "draft"})  # drafted Characters: the seats move every game
    assert d.seat_strategies(1, np.arange(4)).tolist() == [[0, AI_STRATEGY], [AI_STRATEGY, 0], [1, AI_STRATEGY], [AI_STRATEGY, 1]]
    e2 = _exp(tmp_path, ai={"strength": "divinity"}, variants=[{"name": "base"}, {"name": "rich", "overrides": {"setup": {"start_silver": 3}}}])
    assert [v.name for v in e2.variants] == ["base", "rich"]
    assert e2.variants[1].overrides == {"setup": {"start_silver": 3}, "solo": {"strength": "divinity"}}
    e3 = _exp(tmp_path, variants=[{"name": "base"}, {"name": "rich", "overrides": {"setup": {"start_silver": 3}}}])
    assert [v.name for v in e3.variants] == ["base-weak", "base-strong", "rich-weak", "rich-strong"]
    for bad, key in (({"ai": {"strength": "godlike"}}, "ai.strength"), ({"ai": {"strenght": "weak"}}, "ai.strenght"),
                     ({"players": [3]}, "players"), ({"ai": "weak"}, "ai")):
        with pytest.raises(ExperimentError, match=f"experiment: {key}:"):
            _exp(tmp_path, **bad)
    with pytest.raises(ExperimentError, match="experiment: players:"):
        experiment_from_dict({"players": 1})


def test_a_rotated_solo_run_plays_the_ai_tables_games(tmp_path):
    """SETUP 1 draws the turn order at random; a Solo run with its seats rotated and balanced Characters deals
    as the A.I. table does (trinidad.ai_scale: the A.I. first in every other block of 12, the player dealt
    every Character once a block), so `trinidad run` and the ladder's A.I. column play the very same games."""
    from trinidad.ai_scale import deal

    games = np.arange(96)
    e = _exp(tmp_path, players=1, games=96, seats={"strategies": ["greedy"], "assign": "rotate"}, ai={"strength": "weak"})
    fixed = _exp(tmp_path, players=1, games=96, seats={"strategies": ["greedy"], "assign": "fixed"}, ai={"strength": "weak"})
    strat, chars, seat = deal(0, fixed.seat_characters(1, games)[:, 0])
    assert np.array_equal(e.seat_strategies(1, games), strat)
    got = e.seat_characters(1, games)
    assert np.array_equal(got[games, seat], chars[games, seat])
    for block in range(8):  # each block of 12: all 12 Characters, the A.I.'s seat the same through it
        rows = slice(12 * block, 12 * block + 12)
        assert sorted(got[rows][np.arange(12), seat[rows]].tolist()) == list(range(12)) and len(set(seat[rows])) == 1


def test_solo_run_tables_summary_and_report(engine, tmp_path):
    # drafted Characters: the seats move every game, so 12 games a strength already put both strategies at
    # both seats (with balanced Characters they move once a deal block of 12: test_experiment_ai_table)
    e = _exp(tmp_path, characters={"assign": "draft"})
    run_experiment(e, workers=1, progress=False)
    games = pl.read_parquet(str(tmp_path / "run" / "games" / "*.parquet"))
    assert games["strategy"].dtype == pl.Enum(["greedy", "random", "ai-weak", "ai-medium", "ai-strong", "ai-divinity"])
    ai = games.filter(pl.col("strategy").cast(pl.String).str.starts_with("ai-"))
    assert ai.height == 2 * 2 * 12  # one A.I. seat per game: 2 strengths x 2 game sizes x 12 games
    assert set(zip(ai["variant"].cast(pl.String), ai["strategy"].cast(pl.String))) == {("weak", "ai-weak"), ("strong", "ai-strong")}
    assert sorted(games["players"].unique().to_list()) == [2, 3]  # seats: the players and the A.I.
    assert (games.group_by("variant", "players", "game").agg(pl.col("seat").n_unique().alias("k"))
            .select((pl.col("k") == pl.col("players")).all()).item())
    again = run_experiment(_exp(tmp_path, out=str(tmp_path / "again"), characters={"assign": "draft"}), workers=2, progress=False)
    assert again["status"] == "complete"
    g2 = pl.read_parquet(str(tmp_path / "again" / "games" / "*.parquet"))
    key = ["variant", "players", "game", "seat"]
    assert games.sort(key).equals(g2.sort(key))  # the same games on 1 and 2 workers
    # a resume keeps the complete shards: their games files hold the A.I.'s rows too (a resume once
    # counted the players' seats alone, took every shard of a run with the A.I. for cut short and
    # deleted and played them all again)
    shards = sorted((tmp_path / "again" / "games").glob("part-*.parquet"))
    assert len(shards) == 2 * 2 * 2
    kept = {p.name: p.stat().st_mtime_ns for p in shards[1:]}
    shards[0].unlink()
    resumed = run_experiment(_exp(tmp_path, out=str(tmp_path / "again"), characters={"assign": "draft"}), workers=2, resume=True,
                             progress=False)
    assert resumed["status"] == "complete" and resumed["games_this_session"] == 6
    assert {p.name: p.stat().st_mtime_ns for p in sorted((tmp_path / "again" / "games").glob("part-*.parquet"))[1:]} == kept
    assert pl.read_parquet(str(tmp_path / "again" / "games" / "*.parquet")).sort(key).equals(g2.sort(key))
    lines = summarize(tmp_path / "run")
    text = "\n".join(lines)
    assert "against the A.I. (weak, the Solo game + ai-weak" in text and "against the A.I. (strong, 2 players + ai-strong" in text
    assert text.count("beats the A.I.") == 2 * (2 + 2)  # per strength: Solo both strategies (game by game), 2 players both
    # who moves first is said: the rotation puts the A.I. first in every other Solo game of a strategy (6 of
    # them a strength) and in every third game of two players + the A.I.
    assert text.count("(6 seats; the A.I. first in turn order in 3)") == 2 * 2
    assert text.count("(12 seats; the A.I. first in turn order in 4)") == 2 * 2
    page = build_report(tmp_path / "run")
    html = page.read_text()
    assert 'id="solo"' in html and "Playing against the A.I." in html and "could not be drawn" not in html
    assert (page.parent / "charts" / "solo_beat_rates.png").exists() and (page.parent / "charts" / "solo_scores.svg").exists()
    beat = pl.read_csv(page.parent / "tables" / "solo_beat.csv")
    src = pl.read_csv(page.parent / "tables" / "solo_sources.csv")  # where each side's VP come from
    assert {"ai-weak", "ai-strong"} <= set(src["ai"]) and "lead" in src.columns
    assert set(beat["ai"]) == {"ai-weak", "ai-strong"} and beat["n"].sum() == 12 * 2 + 12 * 2 * 2
