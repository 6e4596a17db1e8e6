"""analysis.played: the "what was played" table of a run (``trinidad runs summarize``)."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.played import format_played, item_label, played_columns, played_table, scoring_table
from trinidad.experiment import experiment_from_dict
from trinidad.runner import run_experiment, summarize


@pytest.fixture(scope="module")
def run(engine, tmp_path_factory):
    out = tmp_path_factory.mktemp("played") / "r"
    exp = experiment_from_dict({"name": "played", "players": [3], "games": 12, "seed": 2, "out": str(out), "shard_games": 6,
                                "seats": {"strategies": ["heuristic", "random"], "assign": "rotate"},
                                "characters": {"assign": "balanced"}})
    run_experiment(exp, workers=1, progress=False)
    return out


def test_the_games_table_records_what_was_played(run):
    g = pl.read_parquet(str(run / "games" / "*.parquet"))
    assert (g["act_pass"] == 12).all()  # one PASS per seat and decade
    assert g["probe_decade"].sum() == 0 and g.schema["probe_decade"] == pl.Int8
    d = pl.read_parquet(str(run / "decades" / "*.parquet"))
    last = d.filter(pl.col("decade") == 12).sort("game", "seat")
    for c in [c for c in g.columns if c.startswith("built_")]:  # the decades' cumulative counts, at the end
        assert g.sort("game", "seat")[c].to_list() == last[c].to_list()
    assert g.sort("game", "seat")["cards_used"].to_list() == last["cards_used"].to_list()
    assert sorted(d.filter(pl.col("scoring") > 0).select("decade", "scoring").unique().rows()) == [(4, 1), (8, 2), (12, 3)]


def test_played_table_shares_and_means(run):
    g = pl.read_parquet(str(run / "games" / "*.parquet"))
    t = played_table(g)
    cols = played_columns(g.columns)
    assert cols[0] == "built_lot" and "act_f_card" in cols and cols[-1] == "cards_used"
    assert t.height == 2 * len(cols)
    for s in ("heuristic", "random"):
        mine = g.filter(pl.col("strategy").cast(pl.String) == s)
        for c in ("act_ship", "built_lot", "gained_precious"):
            row = t.filter((pl.col("strategy") == s) & (pl.col("item") == c)).row(0, named=True)
            assert row["share"] == pytest.approx((mine[c] > 0).mean()) and row["mean"] == pytest.approx(mine[c].mean())
            assert row["n"] == mine.height == (24 if s == "heuristic" else 12)  # the lineup cycled to 3 seats
    sc = scoring_table(pl.scan_parquet(str(run / "decades" / "*.parquet")))
    d = pl.read_parquet(str(run / "decades" / "*.parquet"))
    want = d.filter((pl.col("decade") == 8) & (pl.col("strategy").cast(pl.String) == "random"))["houses_on_map"].mean()
    assert sc.filter((pl.col("strategy") == "random") & (pl.col("scoring") == 2))["houses"].item() == pytest.approx(want)
    assert item_label("act_ship") == "main: 5. Load the Ship" and item_label("act_f_vote") == "free: Call a City Council vote"
    assert item_label("built_hacienda_wood") == "built Hacienda (wood)" and item_label("cards_taken") == "cards taken"


def test_summarize_shows_what_was_played(run):
    lines = summarize(run)
    i = next(k for k, line in enumerate(lines) if "what was played" in line)
    assert "heuristic" in lines[i + 1] and "random" in lines[i + 1]
    assert any(line.split()[:2] == ["main:", "Pass"] and line.split()[2:] == ["100.0%", "12.00"] * 2 for line in lines)
    assert any("Era 3:" in line for line in lines)


def test_runs_without_the_columns_show_nothing():
    old = pl.DataFrame({"strategy": ["a"], "vp": [3]})
    assert played_table(old).height == 0 and format_played(played_table(old)) == []
    assert scoring_table(pl.DataFrame({"strategy": ["a"], "decade": [4]})).height == 0
