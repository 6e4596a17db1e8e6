"""The analysis on synthetic runs with known truth (README, "Design reports"): a planted 5-point Character
win-rate advantage is detected, a fair game reports no Character beyond the false-positive rate,
a planted variant effect is found on common seeds. No engine: the fixture generator
(analysis.synthetic) writes the engine's Parquet schema directly."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis import analyze, balance, load_run
from analysis.synthetic import games_frame, planted_weight, write_synthetic_run
from analysis.tables import win_rates
from sim.schema import DECADE_COLUMNS, GAME_COLUMNS

ADV = 0.05  # the planted advantage: 5 points of win rate


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """4 players, 7,200 games (2,400 seats per Character), Captain +5 points; games only."""
    out = tmp_path_factory.mktemp("planted")
    return load_run(write_synthetic_run(out, games=7200, players=(4,), advantage={"Captain": ADV}, decades=False, seed=11))


@pytest.fixture(scope="module")
def fair(tmp_path_factory):
    out = tmp_path_factory.mktemp("fair")
    return load_run(write_synthetic_run(out, games=7200, players=(4,), decades=False, seed=12))


def test_synthetic_schema_is_the_engines(tmp_path):
    run = load_run(write_synthetic_run(tmp_path / "r", games=24, players=(3,), strategies=("greedy", "random")))
    gcols = run.games.collect_schema().names()
    dcols = run.decades.collect_schema().names()
    for c in ["game", "seed", "variant", "players", *GAME_COLUMNS]:
        assert c in gcols
    for c in ["game", "seed", "variant", "players", *DECADE_COLUMNS]:
        assert c in dcols
    g = run.games.collect()
    assert g.height == 24 * 3 and g.group_by("game").agg(pl.col("credit").sum())["credit"].to_list() == pytest.approx([1.0] * 24)
    # the decade records add up to the games table (VP by source, final decade plus end-game scoring)
    d = run.decades.filter(pl.col("decade") == 12).collect()
    assert (d["vp"].to_numpy() <= g.sort("game", "seat")["vp"].to_numpy()).all()


def test_planted_weight_gives_the_stated_win_rate():
    w = planted_weight(4, ADV)
    assert w / (w + 3) == pytest.approx(0.30)
    assert planted_weight(3, 0.0) == pytest.approx(1.0)


def test_planted_advantage_is_detected(planted):
    t = balance.character_balance(planted.games_of().collect()).df
    cap = t.filter(pl.col("character") == "Captain").row(0, named=True)
    assert cap["p_holm"] < 0.001
    assert cap["win_rate_lo"] < 0.30 < cap["win_rate_hi"]  # the planted rate is inside the Wilson interval
    assert cap["diff"] == pytest.approx(ADV, abs=0.025)
    # the others lose a little (0.05 / 11 points on average), too little to be flagged at this size
    others = t.filter(pl.col("character") != "Captain")
    assert (others["p_holm"] > 0.05).all()
    # the model-adjusted effect agrees
    m = balance.character_model(planted.games_of().collect()).df
    capm = m.filter(pl.col("character") == "Captain").row(0, named=True)
    assert capm["odds_ratio_lo"] > 1 and capm["p_holm"] < 0.001
    assert capm["adjusted_win_rate"] == pytest.approx(0.30, abs=0.025)
    # and the Plackett-Luce ratings rank the Captain first
    r = balance.ratings(planted.games_of().collect()).df
    assert r.sort("mu", descending=True)["character"][0] == "Captain"


def test_power_line_says_5_points_are_detectable(planted):
    t = balance.character_balance(planted.games_of().collect())
    assert t.power.startswith("Power:") and "4 players" in t.power
    mde = float(t.power.split("±")[1].split(" points")[0])
    assert mde < 100 * ADV  # 7,200 games are enough to see the planted effect with 80% power


def test_fair_game_reports_no_character(fair):
    t = balance.character_balance(fair.games_of().collect()).df
    assert (t["p_holm"] > 0.05).all()
    m = balance.character_model(fair.games_of().collect()).df
    assert (m["p_holm"] > 0.05).all()


def test_fair_false_positive_rate():
    """Holm keeps the family-wise error rate at 5%: over many fair datasets, the share in which
    any Character is flagged stays near 5% (and so does the per-test rate before correction)."""
    reps, flagged, raw = 100, 0, []
    for k in range(reps):
        g = games_frame(1200, 4, seed=1000 + k)
        t = win_rates(g, ["players", "character"], ["players"])
        flagged += bool((t["p_holm"] < 0.05).any())
        raw.extend(t["p"].to_list())
    se = np.sqrt(0.05 * 0.95 / reps)
    assert flagged / reps <= 0.05 + 3 * se
    assert abs(np.mean(np.asarray(raw) < 0.05) - 0.05) < 0.02


def test_planted_variant_effect_on_common_seeds(tmp_path):
    out = write_synthetic_run(tmp_path / "v", games=3000, players=(4,), decades=False, seed=3,
                              variants={"bishop-buff": {"Bishop": 0.08}})
    a = analyze(load_run(out))
    t = a.section("variants").table("variant_characters").df
    b = t.filter(pl.col("character") == "Bishop").row(0, named=True)
    assert b["p_holm"] < 0.001 and b["diff_lo"] > 0
    assert b["sprt"] == "H1: change (+)"
    rest = t.filter(pl.col("character") != "Bishop")
    assert (rest["sprt"] != "H1: change (+)").all()
    # common seeds: every game of the variant is paired
    assert (t["pairs"] == 1000).all()


def test_model_with_characters_fixed_by_seat():
    """Forced Characters (one per seat): seat and Character are confounded, so the model leaves
    seat out, says so, and still fits (a fair game here: no Character flagged)."""
    g = games_frame(2000, 4, characters=["A", "B", "C", "D"], seed=21)
    g = g.with_columns(pl.col("seat").replace_strict({0: "A", 1: "B", 2: "C", 3: "D"}).alias("character"))
    m = balance.character_model(g)
    assert "seat is left out" in m.note
    assert m.df.height == 4 and m.df["odds_ratio_lo"].is_finite().all() and (m.df["p_holm"] > 0.05).all()
