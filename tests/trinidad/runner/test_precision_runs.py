"""Runs that stop when the answer is precise enough (``trinidad run --precision``, issue 96;
trinidad.runner.sequential): the blocks a run plays are a pure function of the blocks it has written
(the same blocks however a run was interrupted, whichever blocks of a round were written first);
each variant stops precise, decided against the base or at the cap, and the manifest says how many
games each needed and why; a real run (Trinidad, the heuristic player, blocks of 48 games) and its
resume give the same files; the flag and the key are checked in one line; Río de la Plata's rates.

The rule is read on synthetic games tables where the engine is not the point (no engine, a few ms a
round); the real runs are tiny."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from analysis import sequential as sq
from sim.dataset import shard_name
from sim.rules import character_names
from trinidad.cli import app
from trinidad.experiment import ExperimentError, experiment_from_dict
from trinidad.games import game_of
from trinidad.runner.run import run_experiment
from trinidad.runner.sequential import Schedule
from trinidad.runner.summary import summarize

cli = CliRunner()
CHARACTERS = character_names()
VARIANTS = [{"name": "base"}, {"name": "captain-0", "overrides": {"character": {"captain_vp": 0}}},
            {"name": "same", "overrides": {"character": {"captain_vp": 8}}}]


def _doc(out: Path, **kw) -> dict:
    return {"name": "seq", "players": [4], "games": 1200, "seed": 7, "out": str(out), "shard_games": 48, "precision": 0.15,
            "seats": {"strategies": ["heuristic"]}, "characters": {"assign": "balanced"}, "variants": VARIANTS} | kw


# ----------------------------------------------------------------------------- the rule over synthetic blocks


def _write_block(exp, out: Path, shard: tuple) -> None:
    """A block's games table, made up: each game's winner drawn with the same uniform number in every
    variant (common seeds), the Captain's seat three times as likely to win as another in the base
    (and in ``same``), never in ``captain-0``."""
    vi, n, k, a, c = shard
    rows = []
    for gi, chars in zip(range(a, a + c), exp.seat_characters(n, np.arange(a, a + c))):
        names = [CHARACTERS[ch] for ch in chars]
        w = np.array([(0.0 if exp.variants[vi].name == "captain-0" else 3.0) if x == "Captain" else 1.0 for x in names])
        u = np.random.default_rng([exp.seed, gi]).random()
        win = int(np.searchsorted(np.cumsum(w) / w.sum(), u, side="right"))
        for s in range(n):
            rows.append({"variant": exp.variants[vi].name, "players": n, "game": gi, "seat": s, "vp": 10 * (s == win),
                         "winner": int(s == win), "tie": 0, "character": names[s]})
    (out / "games").mkdir(parents=True, exist_ok=True)
    pl.DataFrame(rows).write_parquet(out / "games" / shard_name(vi, n, k))


def _play(exp, out: Path, pick=None) -> tuple[dict, int]:
    """Play the schedule's rounds on synthetic blocks until it asks for none; ``pick`` chooses which
    of a round's blocks get written (an interrupted round). Returns (the record, rounds)."""
    sched, rounds = Schedule(exp, out), 0
    while True:
        todo, stops, written = sched.state()
        if not todo:
            return sched.record(stops, written), rounds
        for sh in (pick(todo) if pick else todo):
            _write_block(exp, out, sh)
        rounds += 1
        sched = Schedule(exp, out) if pick else sched  # an interrupted run resumes in a fresh process: nothing kept


def _blocks(out: Path) -> list[str]:
    return sorted(p.name for p in (out / "games").glob("*.parquet"))


def test_each_variant_stops_precise_decided_or_at_the_cap_and_says_why(tmp_path):
    exp = experiment_from_dict(_doc(tmp_path / "a"))
    rec, _ = _play(exp, tmp_path / "a")
    by = {r["variant"]: r for r in rec["streams"]}
    assert by["captain-0"]["stopped"] == sq.DECIDED and by["captain-0"]["decided_by"]["rate"] == "Captain"
    assert by["captain-0"]["decided_by"]["hi"] < 0 < by["captain-0"]["games"] < by["base"]["games"]
    # the same rules as the base: every difference 0, never decided; precise with the base
    assert by["same"]["stopped"] == by["base"]["stopped"] == sq.PRECISE
    assert by["same"]["games"] == by["base"]["games"] == by["base"]["precise_at_games"] < 1200
    assert all(abs(d["diff"]) == 0 for d in by["same"]["diffs"])
    for vi, r in enumerate(rec["streams"]):  # the games on disk are the games recorded, in whole blocks from block 0
        assert r["variant"] == VARIANTS[vi]["name"] and r["games"] == r["blocks"] * 48
        assert [b for b in _blocks(tmp_path / "a") if b.startswith(f"part-v{vi:02d}-")] == [shard_name(vi, 4, k) for k in range(r["blocks"])]
        assert len(r["rates"]) == 12 and {x["rate"] for x in r["rates"]} >= {"Captain", "Merchant"}
    base = by["base"]
    assert max((x["hi"] - x["lo"]) / 2 for x in base["rates"]) <= 0.15 == rec["precision"]
    assert base["widest"]["half_width"] == pytest.approx(max((x["hi"] - x["lo"]) / 2 for x in base["rates"]), abs=1e-5)
    # a cap below what precision needs: every variant stops there
    capped = experiment_from_dict(_doc(tmp_path / "b", games=96))
    rec, _ = _play(capped, tmp_path / "b")
    assert [(r["stopped"], r["games"]) for r in rec["streams"]] == [(sq.CAP, 96)] * 3


def test_the_blocks_played_do_not_depend_on_how_the_rounds_were_cut(tmp_path):
    """Rounds written in part (an interruption: whichever blocks of a round finished first), each
    resumed afresh, and a block lost in the middle (a corrupt shard that resume plays again) end
    with exactly the blocks and the record of the run written round by round."""
    exp = experiment_from_dict(_doc(tmp_path / "whole"))
    whole, rounds = _play(exp, tmp_path / "whole")
    rng = np.random.default_rng(1)
    out = tmp_path / "cut"
    cut, more = _play(experiment_from_dict(_doc(out)), out,
                      lambda todo: [todo[i] for i in sorted(rng.choice(len(todo), rng.integers(1, len(todo) + 1), replace=False))])
    assert _blocks(out) == _blocks(tmp_path / "whole") and cut == whole and more > rounds
    (out / "games" / shard_name(0, 4, 3)).unlink()
    (out / "games" / shard_name(1, 4, 2)).unlink()
    assert _play(experiment_from_dict(_doc(out)), out)[0] == whole and _blocks(out) == _blocks(tmp_path / "whole")


# ----------------------------------------------------------------------------- a real run


def test_a_real_run_with_precision_and_its_resume(engine, tmp_path):
    """Trinidad, the heuristic player, 4 players, blocks of 48 games, +-15 points: the manifest
    records each variant's games and why it stopped, the tables hold those games; a resume after
    losing blocks (a corrupt shard, the interrupted last round) on another number of workers ends
    with the same files."""
    doc = _doc(tmp_path / "full", variants=VARIANTS[:2])
    m = run_experiment(experiment_from_dict(doc), workers=2, progress=False)
    assert m["status"] == "complete" and m["experiment"]["precision"] == 0.15
    st = {r["variant"]: r for r in m["stopping"]["streams"]}
    assert st["base"]["stopped"] == sq.PRECISE and st["captain-0"]["stopped"] == sq.DECIDED
    assert st["captain-0"]["decided_by"]["rate"] == "Captain" and st["captain-0"]["games"] < st["base"]["games"] < 1200
    g = pl.read_parquet(tmp_path / "full" / "games" / "*.parquet")
    counts = dict(g.filter(pl.col("seat") == 0).group_by(pl.col("variant").cast(pl.String)).len().iter_rows())
    assert counts == {"base": st["base"]["games"], "captain-0": st["captain-0"]["games"]}
    assert m["counts"]["games_done"] == sum(counts.values()) and m["counts"]["games_total"] == 2 * 1200
    lines = summarize(tmp_path / "full")
    assert "until every rate is within +-15 points; at most 2,400" in lines[0]
    assert any(x.startswith(f"  captain-0 / 4 players: {counts['captain-0']:,} games, decided against base (Captain ") for x in lines)

    out = tmp_path / "cut"
    shutil.copytree(tmp_path / "full", out)  # a moved run directory resumes as the same run
    last = st["base"]["blocks"] - 1
    for vi, k in ((0, 1), (0, last), (1, st["captain-0"]["blocks"] - 1)):
        for t in ("games", "decades"):
            (out / t / shard_name(vi, 4, k)).unlink()
    mm = json.loads((out / "manifest.json").read_text()) | {"status": "interrupted"}
    (out / "manifest.json").write_text(json.dumps(mm))
    r = run_experiment(experiment_from_dict(doc | {"out": str(out)}), workers=1, resume=True, progress=False)
    assert r["stopping"] == m["stopping"] and r["games_this_session"] == 48 * 3
    for t in ("games", "decades"):
        assert sorted(p.name for p in (out / t).glob("*.parquet")) == sorted(p.name for p in (tmp_path / "full" / t).glob("*.parquet"))
    key = ["variant", "game", "seat"]
    assert pl.read_parquet(out / "games" / "*.parquet").sort(key).equals(g.sort(key))


def test_the_precision_flag_and_key(engine, tmp_path):
    out = tmp_path / "cli"
    res = cli.invoke(app, ["run", "--quiet", "--games", "96", "--shard-games", "48", "--precision", "0.02", "--strategies", "heuristic",
                           "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "192 games" not in res.output.splitlines()[0] and "96 games (until every rate is within +-2 points; at most 96)" in res.output
    assert "  base / 4 players: 96 games, cap reached (widest: " in res.output
    assert json.loads((out / "manifest.json").read_text())["stopping"]["streams"][0]["stopped"] == sq.CAP
    for bad in ("0", "0.5", "-0.1"):
        res = cli.invoke(app, ["run", "--quiet", "--precision", bad, "--out", str(tmp_path / "x")])
        assert res.exit_code == 2 and res.output.strip().startswith("experiment: precision: ") and "\n" not in res.output.strip()
    for bad in ('"0.02"', "true", "1"):
        with pytest.raises(ExperimentError, match="^experiment: precision: "):
            experiment_from_dict(_doc(tmp_path / "y", precision=json.loads(bad)))
    assert not (tmp_path / "x").exists()
    # a run without precision records none (runs written before it resume as the same experiment)
    assert "precision" not in experiment_from_dict(_doc(tmp_path / "z", precision=None)).to_dict()
    rio = experiment_from_dict({"game": "rio-de-la-plata", "players": 3, "precision": 0.05, "seats": {"strategies": ["heuristic", "random"]}})
    assert rio.precision == 0.05 and game_of(rio).record(rio)["precision"] == 0.05


def test_rio_rates_are_its_strategies_and_start_positions():
    e = experiment_from_dict({"game": "rio-de-la-plata", "players": [3, 4], "precision": 0.05,
                              "seats": {"strategies": ["heuristic", "builder", "officer", "random"], "assign": "rotate"}})
    rates = game_of(e).rates
    assert [x[2] for x in rates(e, 3)] == ["strategy heuristic", "strategy builder", "strategy officer",
                                           "start position 1", "start position 2", "start position 3"]
    one = experiment_from_dict({"game": "rio-de-la-plata", "players": 4, "precision": 0.05, "seats": {"strategies": ["heuristic"]}})
    assert [x[0] for x in game_of(one).rates(one, 4)] == ["start_position"] * 4  # one player at every seat wins 1/n exactly
    g = pl.DataFrame({"variant": ["base"] * 6, "players": [3] * 6, "game": [0, 0, 0, 1, 1, 1], "seat": [0, 1, 2] * 2,
                      "vp": [9, 9, 1, 5, 2, 7], "win": [1, 1, 0, 0, 0, 1], "start_position": [2, 0, 1, 0, 1, 2],
                      "strategy": ["heuristic", "builder", "officer"] * 2})
    _, m = sq.game_rates(g.lazy(), rates(e, 3))
    np.testing.assert_allclose(m, [[0.5, 0.5, 0.0, 0.5, 0.0, 0.5], [0.0, 0.0, 1.0, 0.0, 0.0, 1.0]])
