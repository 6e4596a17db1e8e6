"""``trinidad play --game NAME`` (trinidad.commands.play, issue 97): ``--game`` names the game, as ``trinidad run
--game`` does; Río de la Plata's game is played through rio.play (trinidad.games.rio.play_one) and printed as a table
or one JSON object, the same seed giving the same output, and the same game a run plays on that seed; every bad
input, another game's option among them, is one line. Trinidad's own play is tests/trinidad/test_cli.py's, its
replays tests/trinidad/test_replay.py's.

Río de la Plata's games are played by rio.play.play, whose one entry point the suite compiles for tests/rio
(a minute or two the first time); a game then takes milliseconds."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from rio.engine.records import GR
from rio.engine.state import VPS
from trinidad.cli import app

RIO = "rio-de-la-plata"
cli = CliRunner()


def _one_line(output: str) -> str:
    lines = [x for x in output.strip().splitlines() if x.strip()]
    assert len(lines) == 1, output
    return lines[0]


def _play(*args: str) -> str:
    res = cli.invoke(app, ["play", "--game", RIO, *args])
    assert res.exit_code == 0, res.output
    return res.stdout


def test_a_rio_game_in_json_is_a_function_of_its_seed():
    a, b = _play("--seed", "4", "--json"), _play("--seed", "4", "--json")
    assert a == b and a != _play("--seed", "5", "--json")
    out = json.loads(a)
    assert (out["game"], out["players"], out["seed"], out["level"], out["short"]) == (RIO, 4, 4, "expert", False)
    # the default table: the heuristic and the first archetypes
    assert [s["strategy"] for s in out["seats"]] == ["heuristic", "builder", "officer", "merchant"]
    first = [s["seat"] for s in out["seats"] if s["rank"] == 1]  # a seat, or the seats that tie for first
    assert first and out["winner"] == (first[0] if len(first) == 1 else first)
    for s in out["seats"]:
        assert set(s["resources"]) == {"silver", "wood", "stone", "precious"} and set(s["vp_by_source"]) <= {m.name.lower() for m in VPS}
        assert len(s["offices"]) <= 12 and all({"office", "turn"} == set(o) for o in s["offices"])
    assert sum(s["attacks"] for s in out["seats"]) == len(out["wars"])  # every war led by a seat
    for w in out["wars"]:
        assert w["outcome"] == ("all destroyed" if w["survivors"] == 0 else f"{w['survivors']} standing")


def test_the_result_is_the_games_record():
    """The seats' VP, rank and VP by source are what rio.play records for the game of that seed: the game a run
    plays on that seed (the games table's ``seed``) with the same seats, level and length."""
    from rio.play import play
    from rio.rules import load_rules

    out = json.loads(_play("--seed", "12345678901234567", "--players", "3", "--strategies", "random,merchant,defender",
                           "--level", "beginner", "--short", "--json"))
    rec = play(load_rules(), 3, "beginner", True, np.array([12345678901234567], np.uint64), ["random", "merchant", "defender"])
    for s in out["seats"]:
        row = rec.seat[0, s["seat"]]
        assert (s["vp"], s["rank"], s["houses"]) == (row[GR.VP], row[GR.RANK] + 1, row[GR.HOUSES])
        assert s["vp_by_source"] == {m.name.lower(): int(row[GR.VPS + m]) for m in VPS if row[GR.VPS + m]}
    assert out["turns"] < 20 and out["level"] == "beginner" and out["short"] is True


def test_a_rio_game_as_tables():
    text = _play("--seed", "2", "--players", "2", "--strategies", "search:budget=2,width=2,depth=0,heuristic")
    assert "Río de la Plata, 2 players, expert, seed 2" in text and "VP by source" in text
    assert "search:budget=2,width=2,depth=0" in text and ("Wars" in text or "No war was fought." in text)
    assert text == _play("--seed", "2", "--players", "2", "--strategies", "search:budget=2,width=2,depth=0,heuristic")


@pytest.mark.parametrize("args, line", [
    (["--game", "monopoly"], "--game: unknown game 'monopoly'; allowed: trinidad, rio-de-la-plata"),
    (["--game", RIO, "--level", "pro"], "--level: allowed: beginner, intermediate, expert, got 'pro'"),
    (["--game", RIO, "--players", "6"], "--players: must be 2..5, got 6"),
    (["--game", RIO, "--players", "3", "--strategies", "random,random"], "--strategies: give one player or one a seat (3), got 2"),
    (["--game", RIO, "--strategies", "greedy"], "--strategies: rio player: unknown player 'greedy'; allowed: random, heuristic, "),
    (["--game", RIO, "--seed", "-1"], "--seed: must be 0..2^64-1 (a game's seed), got -1"),
    (["--game", RIO, "--first-game"], "--first-game: an option of Trinidad's games, not of Río de la Plata's (--game rio-de-la-plata)"),
    (["--game", RIO, "--log"], "--log: an option of Trinidad's games, not of Río de la Plata's"),
    (["--game", RIO, "--ai"], "--ai: an option of Trinidad's games"),
    (["--game", RIO, "--run", "runs/x", "--index", "1"], "--run: an option of Trinidad's games"),
    (["--level", "expert"], "--level: an option of Río de la Plata's games, not of Trinidad's (--game trinidad)"),
    (["--game", "trinidad", "--short"], "--short: an option of Río de la Plata's games, not of Trinidad's"),
])
def test_bad_input_is_one_line(args, line):
    res = cli.invoke(app, ["play", *args])
    assert res.exit_code == 2 and _one_line(res.output).startswith(line), res.output


def test_a_bad_rules_file_is_one_line(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text("[office]\nnosuch = 0\n")
    res = cli.invoke(app, ["play", "--game", RIO, "--rules", str(p)])
    assert res.exit_code == 2 and _one_line(res.output).startswith("--rules: office.nosuch: no such rule")
    p.write_text("[office]\nfine_vp = 0\n")  # a fine of nothing: random players pay none
    fines = [json.loads(_play("--strategies", "random", "--json", *extra))["seats"][0]["vp_by_source"].get("office_fine", 0)
             for extra in ([], ["--rules", str(p)])]
    assert fines[0] < 0 and fines[1] == 0
