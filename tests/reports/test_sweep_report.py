"""Sweeps end to end (issue 96, item 1): an experiment file with ``[[sweeps]]`` played by ``trinidad run``
(the heuristic, two values, a few dozen games) records the sweep in its manifest, plays every value on
the same seeds, and its report has the sweep's section: Trinidad's (the Characters' curves and crossings,
read from the real run) and Río de la Plata's through ``trinidad report`` (the page, its curves, the
crossing table, summary.json). Trinidad's whole page with a sweep is checked in Chromium on a synthetic
run (tests/reports/test_report.py): its report draws some forty charts, too many for a test of the
suite's time."""

from __future__ import annotations

import json

import polars as pl
from typer.testing import CliRunner

from analysis import load_run, trinidad_sweeps
from trinidad.cli import app

cli = CliRunner()


def _run(tmp_path, text: str):
    f = tmp_path / "sweep.toml"
    f.write_text(text)
    out = tmp_path / "run"
    r = cli.invoke(app, ["run", str(f), "--out", str(out), "--workers", "2"])
    assert r.exit_code == 0, r.output
    m = json.loads((out / "manifest.json").read_text())
    g = pl.read_parquet(out / "games" / "*.parquet")
    seeds = g.group_by("variant", "players").agg(pl.col("seed").unique().sort()).group_by("players").agg(pl.col("seed").n_unique())
    assert (seeds["seed"] == 1).all()  # common seeds: every value plays the same deals
    return out, m


def test_a_trinidad_sweep_runs_into_its_section(tmp_path):
    out, m = _run(tmp_path, 'name = "tiny-sweep"\nplayers = 4\ngames = 24\nseed = 7\nshard_games = 24\n'
                            '[seats]\nstrategies = ["heuristic"]\n[characters]\nassign = "balanced"\n'
                            '[[sweeps]]\nname = "captain"\nkey = "character.captain_vp"\nvalues = [4, 8]\n')
    assert [v["name"] for v in m["variants"]] == ["base", "character.captain_vp=4"]  # 8 is the rulebook's: the baseline
    assert m["experiment"]["sweeps"][0]["points"] == [{"values": [4], "variant": "character.captain_vp=4"}, {"values": [8], "variant": "base"}]
    run = load_run(out)
    [s] = trinidad_sweeps(run, run)
    assert s.id == "sweep-captain" and s.absent is None
    rates = s.table("sweep_character__captain").df
    assert rates.height == 2 * 12 and (rates.filter(pl.col("variant") != "base")["pairs"] == 24 * 4 // 12).all()
    cr = s.table("sweep_character_crossing__captain").df
    assert cr.height == 12 and set(cr["curve"]) == {"character.captain_vp"} and (cr["points"] == 2).all()
    assert set(s.table("sweep_metrics__captain").df["metric"]) == {"mean_vp", "wars", "rounds", "turn_position_spread"}


def test_a_rio_sweep_runs_and_reports(tmp_path):
    out, m = _run(tmp_path, 'game = "rio-de-la-plata"\nname = "rio-sweep"\nplayers = 4\ngames = 8\nseed = 3\nshard_games = 6\n'
                            '[seats]\nstrategies = ["heuristic", "random"]\nassign = "rotate"\n'
                            '[[sweeps]]\nname = "fine"\nkey = "office.fine_vp"\nvalues = [-5, 0]\n')
    assert [v["name"] for v in m["variants"]] == ["base", "office.fine_vp=0"]  # -5 is the rulebook's
    r = cli.invoke(app, ["report", str(out)])
    assert r.exit_code == 0, r.output
    root = out / "report"
    html = (root / "index.html").read_text()
    sec = html.split('<section id="sweep-fine">')[1].split("</section>")[0]
    assert "<h2>Sweep: fine</h2>" in sec and "could not be drawn" not in sec
    for stem in ("sweep_strategy__fine", "sweep_position__fine", "sweep_metrics__fine", "sweep_vp__fine"):
        assert f"charts/{stem}.svg" in sec and (root / "charts" / f"{stem}.png").stat().st_size > 1000
    assert "Where each strategy crosses its fair share" in sec and "Fieller" in sec
    cr = pl.read_csv(root / "tables" / "sweep_position_crossing__fine.csv")
    assert cr.height == 4 and set(cr["curve"]) == {"office.fine_vp"}  # a curve per start position
    m = pl.read_csv(root / "tables" / "sweep_metrics__fine.csv")
    assert set(m["metric"]) == {"mean_vp", "wars", "turns", "turn_position_spread"}
    doc = json.loads((root / "summary.json").read_text())
    assert [x["id"] for x in doc["sections"]][-2:] == ["sweep-fine", "manifest"]
    assert {"sweep_strategy_crossing__fine", "sweep_position_crossing__fine"} <= {x["table"] for x in doc["summary"]}
