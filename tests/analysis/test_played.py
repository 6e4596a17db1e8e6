"""analysis.played: the "what was played" table of a run (``trinidad runs summarize``), on a run the
engine played; and the option use (issue 23 part 3) on synthetic runs: a planted never-used option
is listed, shares and win-rate associations match a direct computation (statsmodels for the
intervals), tiers are never pooled, probe results are read."""

from __future__ import annotations

import json

import polars as pl
import pytest
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint

from analysis import analyze, load_run
from analysis.data import RunError
from analysis.played import (
    NEVER_SHARE,
    card_use_counts,
    format_played,
    item_label,
    load_probe,
    played_columns,
    played_table,
    probe_table,
    scoring_table,
    use_counts,
    use_table,
)
from analysis.synthetic import write_synthetic_run
from trinidad.experiment import experiment_from_dict
from trinidad.runner.run import run_experiment
from trinidad.runner.summary import summarize


@pytest.fixture(scope="module")
def played_run(engine, tmp_path_factory):
    out = tmp_path_factory.mktemp("played") / "r"
    exp = experiment_from_dict({"name": "played", "players": [3], "games": 12, "seed": 2, "out": str(out), "shard_games": 6,
                                "seats": {"strategies": ["heuristic", "random"], "assign": "rotate"},
                                "characters": {"assign": "balanced"}})
    run_experiment(exp, workers=1, progress=False)
    return out


def test_the_games_table_records_what_was_played(played_run):
    g = pl.read_parquet(str(played_run / "games" / "*.parquet"))
    assert (g["act_pass"] == 12).all()  # one PASS per seat and decade
    assert g["probe_decade"].sum() == 0 and g.schema["probe_decade"] == pl.Int8
    d = pl.read_parquet(str(played_run / "decades" / "*.parquet"))
    last = d.filter(pl.col("decade") == 12).sort("game", "seat")
    for c in [c for c in g.columns if c.startswith("built_")]:  # the decades' cumulative counts, at the end
        assert g.sort("game", "seat")[c].to_list() == last[c].to_list()
    assert g.sort("game", "seat")["cards_used"].to_list() == last["cards_used"].to_list()
    assert sorted(d.filter(pl.col("scoring") > 0).select("decade", "scoring").unique().rows()) == [(4, 1), (8, 2), (12, 3)]


def test_played_table_shares_and_means(played_run):
    g = pl.read_parquet(str(played_run / "games" / "*.parquet"))
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
    sc = scoring_table(pl.scan_parquet(str(played_run / "decades" / "*.parquet")))
    d = pl.read_parquet(str(played_run / "decades" / "*.parquet"))
    want = d.filter((pl.col("decade") == 8) & (pl.col("strategy").cast(pl.String) == "random"))["houses_on_map"].mean()
    assert sc.filter((pl.col("strategy") == "random") & (pl.col("scoring") == 2))["houses"].item() == pytest.approx(want)
    assert item_label("act_ship") == "main: 5. Load the Ship" and item_label("act_f_vote") == "free: Call a City Council vote"
    assert item_label("built_hacienda_wood") == "built Hacienda (wood)" and item_label("cards_taken") == "cards taken"


def test_summarize_shows_what_was_played(played_run):
    lines = summarize(played_run)
    i = next(k for k, line in enumerate(lines) if "what was played" in line)
    assert "heuristic" in lines[i + 1] and "random" in lines[i + 1]
    assert any(line.split()[:2] == ["main:", "Pass"] and line.split()[2:] == ["100.0%", "12.00"] * 2 for line in lines)
    assert any("Era 3:" in line for line in lines)


def test_runs_without_the_columns_show_nothing():
    old = pl.DataFrame({"strategy": ["a"], "vp": [3]})
    assert played_table(old).height == 0 and format_played(played_table(old)) == []
    assert scoring_table(pl.DataFrame({"strategy": ["a"], "decade": [4]})).height == 0


# ----------------------------------------------------------------------------- option use, on synthetic runs
# (the run with options planted as never used: tests/analysis/conftest.py)

def test_a_planted_never_used_option_is_listed(a, planted):
    s = a.section("option-use")
    never = s.table("never_played").df
    for grp in ("greedy", "random"):
        for n in (3, 4):
            got = set(never.filter((pl.col("group") == grp) & (pl.col("players") == n))["item"].to_list())
            assert got == set(planted), (grp, n, got)  # the planted ones, and nothing used at random (share ~ 86% and 10%)
    assert (never["used"] == 0).all() and (never["share_hi"] > 0).all()
    assert any("built Church" in b and "main: 5. Load the Ship" in b
               and "card 40 (Roadmaker)" in b and b.startswith("greedy, 4 players") for b in s.bullets)
    assert s.bullets[-1].startswith("Association is not cause")
    assert {r["item"] for r in a.option_use["never_played"]} == set(planted) and a.option_use["threshold"] == NEVER_SHARE
    assert a.option_use["grouped_by"] == "strategy" and a.option_use["groups"] == ["greedy", "random"]


def test_rare_options_are_almost_never_played(tmp_path):
    """An option used in a few seat-games (under 1%) is listed with its share, not as never played."""
    run = load_run(write_synthetic_run(tmp_path / "r", games=300, players=(4,), never=("built_palace",), seed=1))
    g = pl.read_parquet(run.path / "games" / "*.parquet")
    g = g.with_columns(pl.when(pl.col("game") < 2).then(1).otherwise(0).cast(g.schema["built_palace"]).alias("built_palace"))
    f = run.path / "games" / next(iter(p.name for p in (run.path / "games").glob("*.parquet")))
    g.write_parquet(f)
    s = analyze(load_run(run.path)).section("option-use")
    row = s.table("never_played").df.filter(pl.col("item") == "built_palace").row(0, named=True)
    assert row["used"] == 8 and row["share"] == pytest.approx(8 / 1200)
    assert "almost never (in under 1% of seat-games): built Palace 0.67%" in s.bullets[0]


def test_use_table_against_a_direct_computation(run):
    g = run.games_of().collect()
    t = use_table(use_counts(g))
    r = t.filter((pl.col("group") == "greedy") & (pl.col("players") == 4) & (pl.col("item") == "built_house")).row(0, named=True)
    me = g.filter((pl.col("strategy") == "greedy") & (pl.col("players") == 4))
    used = me.filter(pl.col("built_house") > 0)
    rest = me.filter(pl.col("built_house") == 0)
    assert r["n"] == me.height and r["used"] == used.height and r["share"] == pytest.approx(used.height / me.height)
    lo, hi = proportion_confint(used.height, me.height, method="wilson")
    assert (r["share_lo"], r["share_hi"]) == pytest.approx((lo, hi))
    assert r["mean"] == pytest.approx(me["built_house"].mean())
    assert r["win_used"] == pytest.approx(used["credit"].mean()) and r["win_unused"] == pytest.approx(rest["credit"].mean())
    assert r["diff"] == pytest.approx(used["credit"].mean() - rest["credit"].mean())
    dlo, dhi = confint_proportions_2indep(used["credit"].sum(), used.height, rest["credit"].sum(), rest.height, method="newcombe")
    assert (r["diff_lo"], r["diff_hi"]) == pytest.approx((dlo, dhi))
    fam = t.filter((pl.col("group") == "greedy") & (pl.col("players") == 4) & pl.col("p").is_not_null())
    assert fam["p_holm"].to_numpy() == pytest.approx(multipletests(fam["p"].to_numpy(), method="holm")[1])
    # never used: no association to compute
    assert t.filter(pl.col("item") == "built_church")["diff"].null_count() == t.filter(pl.col("item") == "built_church").height


def test_chunked_counts_equal_whole_counts(run):
    whole = use_counts(run.games_of().collect()).sort("group", "players", "item")
    chunked = use_counts(run.all_games()).sort("group", "players", "item")
    assert whole.equals(chunked)


def test_card_counts_are_the_last_decade(run):
    c = card_use_counts(run.decades_of(), run.games_of())
    d = run.decades_of().filter(pl.col("decade") == 12).collect()
    row = c.filter((pl.col("group") == "random") & (pl.col("players") == 3) & (pl.col("item") == "uses_card_13")).row(0, named=True)
    me = d.filter((pl.col("strategy") == "random") & (pl.col("players") == 3))
    assert row["n"] == me.height and row["used"] == (me["uses_card_13"] > 0).sum() and row["total"] == me["uses_card_13"].sum()


def test_tiers_are_never_pooled(tmp_path):
    a = load_run(write_synthetic_run(tmp_path / "a", games=120, players=(4,), strategies=("rollout",), never=("built_square",), seed=2))
    b = load_run(write_synthetic_run(tmp_path / "b", games=120, players=(4,), strategies=("greedy",), seed=2))
    res = analyze(a, others=[b])
    t = res.section("option-use").table("option_use").df
    assert t["group"].unique(maintain_order=True).to_list() == ["rollout", "greedy"]  # strongest first
    assert (t["n"] == 480).all()  # each tier's own seat-games
    never = res.section("option-use").table("never_played").df
    assert never.filter(pl.col("item") == "built_square")["group"].to_list() == ["rollout"]
    assert res.option_use["grouped_by"] == "tier"


def _probe_doc() -> dict:
    opt = {"option": "SHIP", "key": "ship", "used": 0.01, "probed": True, "n": 400, "forced": 0.9, "forced_decade": 3.2,
           "win_base": 0.25, "win_base_ci": [0.21, 0.29], "win_forced": 0.2, "win_forced_ci": [0.16, 0.24], "win_diff": -0.05,
           "win_diff_ci": [-0.09, -0.01], "margin_base": -2.0, "margin_forced": -4.0, "margin_diff": -2.0,
           "margin_diff_ci": [-3.0, -1.0], "margin_p": 0.001}
    return {"strategy": "heuristic", "players": 4, "games": 400, "seed": 1, "threshold": 0.05,
            "options": [opt, opt | {"option": "BUILD PALACE", "margin_p": 0.04, "margin_diff_ci": [-1.0, 0.5]},
                        {"option": "BUILD HOUSE", "key": "build_house", "used": 0.9, "probed": False}]}


def test_probe_results_are_read_with_their_intervals(tmp_path, run):
    f = tmp_path / "probe.json"
    f.write_text(json.dumps(_probe_doc()))
    doc = load_probe(f)
    t = probe_table([doc])
    assert t["option"].to_list() == ["SHIP", "BUILD PALACE"]  # the probed options only
    assert t["win_diff_lo"][0] == pytest.approx(-0.09) and t["margin_diff_hi"][1] == pytest.approx(0.5)
    assert t["p_holm"].to_list() == pytest.approx(list(multipletests([0.001, 0.04], method="holm")[1]))
    res = analyze(run, probes=[doc])
    s = res.section("option-use")
    assert s.table("probe_effects").df.height == 2 and "trinidad probe --strategy heuristic --players 4" in s.table("probe_effects").note
    assert res.option_use["probes"][0]["file"] == str(f)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"strategy": "x"}))
    with pytest.raises(RunError, match="not a probe result"):
        load_probe(bad)
    with pytest.raises(RunError, match="not a readable JSON"):
        load_probe(tmp_path / "missing.json")


def test_a_run_without_the_played_columns_says_so(tmp_path):
    run = write_synthetic_run(tmp_path / "old", games=48, players=(4,), decades=False, seed=4)
    f = next((run / "games").glob("*.parquet"))
    g = pl.read_parquet(f)
    g.drop([c for c in g.columns if c.startswith(("built_", "act_", "gained_", "cards_"))]).write_parquet(f)
    a = analyze(load_run(run))
    s = a.section("option-use")
    assert s.absent and "no what-was-played columns" in s.absent and s.bullets == []
    assert all(t.empty for t in s.tables) and a.option_use["never_played"] == []
    assert len(a.section("characters").subsections) == 12
