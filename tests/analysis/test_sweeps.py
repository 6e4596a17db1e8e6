"""A sweep's section of the report (analysis.sweeps, issue 96 item 1) on synthetic data: the crossing of
the fair share with its Fieller interval, checked where the crossing is known (it covers it, and 95%
intervals cover it about 95% of the time over repeated samples); the win rates, their paired changes,
the metrics and the crossings of a synthetic sweep run (one curve per player count) and of a grid (one
curve per value of the second key); the curves drawn (reports.sweep_charts). No engine."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy.special import expit, logit
from scipy.stats import norm

from analysis import load_run, trinidad_sweeps
from analysis.sweeps import WITHIN, Family, crossing, crossing_sentences, slug, sweeps_of
from analysis.synthetic import write_synthetic_sweep
from reports import charts
from reports.sweep_charts import sweep_charts

CAPTAIN = "character.captain_vp"
BISHOP = "character.bishop_cathedral"
X_STAR = 7.0  # where the planted Captain crosses its fair share
TRINIDAD_CHARACTERS = Family("character", "character", pl.col("character").cast(pl.String), "Characters")  # analysis.trinidad_sweeps's


def _paired_games(rng, games: int, values, slope: float, x_star: float, p0: float, rho: float = 0.8):
    """Win (1/0) of one seat at each value in each of ``games`` deals, every value on the same deals: a
    Gaussian copula (a deal's latent draw shared by every value, correlation ``rho``), so the win rate at x
    is exactly expit(logit p0 + slope (x - x_star)) and crosses p0 at ``x_star``."""
    z = rng.normal(size=games)
    x = np.repeat(np.asarray(values, float), games)
    g = np.tile(np.arange(games), len(values))
    lat = rho * z[g] + math.sqrt(1 - rho ** 2) * rng.normal(size=len(x))
    return x, (norm.cdf(lat) < expit(logit(p0) + slope * (x - x_star))).astype(float), g


def test_the_crossing_interval_covers_a_known_crossing():
    rng = np.random.default_rng(96)
    x, y, g = _paired_games(rng, 1500, range(6), 0.35, 2.5, 0.25)
    r = crossing(x, y, g, 0.25)
    assert r["fit"] == "fitted" and r["crossing_lo"] < 2.5 < r["crossing_hi"] and r["crossing_hi"] - r["crossing_lo"] < 1.0
    assert abs(r["crossing"] - 2.5) < 0.3 and r["slope_lo"] < 0.35 < r["slope_hi"] and r["p"] < 1e-6
    # the interval is 95%: over repeated samples it covers the crossing about that often (binomial slack for 200 draws)
    hits = [crossing(*_paired_games(rng, 300, range(6), 0.35, 2.5, 0.25), 0.25) for _ in range(200)]
    cover = np.mean([h["crossing_lo"] <= 2.5 <= h["crossing_hi"] for h in hits])
    assert 0.90 <= cover <= 0.99, cover


def test_no_crossing_is_said_so():
    rng = np.random.default_rng(1)
    x, y, g = _paired_games(rng, 200, range(4), 0.0, 0.0, 0.25)  # a flat curve: no slope to invert
    r = crossing(x, y, g, 0.25)
    assert math.isnan(r["crossing"]) and r["crossing_lo"] == -math.inf and r["crossing_hi"] == math.inf
    assert r["fit"].startswith("slope not distinguishable from 0")
    assert crossing(x, np.zeros_like(y), g, 0.25)["fit"] == "never won"
    assert crossing(np.ones_like(x), y, g, 0.25)["fit"] == "one value: no curve"


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    """A synthetic 1-D sweep at 3 and 4 players: the Captain's advantage planted linear in the value,
    0 (the fair share) at X_STAR; the baseline at 8."""
    d = tmp_path_factory.mktemp("sweep")
    run = write_synthetic_sweep(d / "run", [(CAPTAIN, [4, 6, 10, 12], 8)], lambda v: {"Captain": 0.03 * (v - X_STAR)}, name="captain",
                                games=600, players=(3, 4), seed=5)
    r = load_run(run)
    return r, {s.id: s for s in trinidad_sweeps(r, r)}  # the sweep's section alone (analysis.analyze adds it after Rule variants)


def test_a_sweep_section_per_sweep(swept):
    run, secs = swept
    s = secs["sweep-captain"]
    assert [t.name for t in s.tables] == ["sweep_character__captain", "sweep_character_crossing__captain", "sweep_metrics__captain",
                                          "sweep_vp__captain"]
    assert list(secs) == ["sweep-captain"] and sweeps_of(run.manifest)[0]["name"] == "captain" and slug("a b.c") == "a-b-c"
    rates = s.table("sweep_character__captain").df
    assert rates.columns[:4] == ["players", CAPTAIN, "variant", "character"]
    assert sorted(set(rates[CAPTAIN])) == [4, 6, 8, 10, 12] and rates.height == 5 * 2 * 12
    base = rates.filter(pl.col("variant") == "base")
    assert (base["change"] == 0).all() and base["p"].is_null().all()
    cap = rates.filter((pl.col("character") == "Captain") & (pl.col("players") == 4)).sort(CAPTAIN)
    assert cap["win_rate"].to_list()[0] < 0.25 < cap["win_rate"].to_list()[-1]  # the planted slope
    assert (cap["win_rate_lo"] <= cap["win_rate"]).all() and (cap["win_rate"] <= cap["win_rate_hi"]).all()
    # the change is paired: every game of a point against the baseline's same game
    low = cap.row(0, named=True)
    assert low["pairs"] == 600 * 4 // 12 and low["change_hi"] < 0 and low["p_holm"] < 0.05


def test_the_captain_crosses_where_it_was_planted(swept):
    s = swept[1]["sweep-captain"]
    cr = s.table("sweep_character_crossing__captain").df
    assert cr.columns[:3] == ["players", "curve", "character"] and cr.height == 2 * 12
    for n in (3, 4):  # one curve per player count
        r = cr.filter((pl.col("character") == "Captain") & (pl.col("players") == n)).row(0, named=True)
        assert r["where"] == WITHIN and r["crossing_lo"] < X_STAR < r["crossing_hi"] and r["slope_lo"] > 0, r
        assert r["curve"] == CAPTAIN and r["points"] == 5
    assert any(b.startswith("4 players: Captain crosses its fair share 25.0% at character.captain_vp = ") for b in s.bullets)
    grid = crossing_sentences(cr.with_columns(pl.lit(f"{CAPTAIN} at {BISHOP} = 5").alias("curve")), TRINIDAD_CHARACTERS)
    assert any(b.startswith(f"4 players, {BISHOP} = 5: Captain crosses its fair share 25.0% at {CAPTAIN} = ") for b in grid)


def test_the_metrics_at_each_value(swept):
    s = swept[1]["sweep-captain"]
    m = s.table("sweep_metrics__captain").df
    assert set(m["metric"]) == {"mean_vp", "wars", "rounds", "turn_position_spread"}
    # the synthetic Wars and rounds are drawn alike in every variant: the paired change is exactly 0
    w = m.filter((pl.col("metric") == "wars") & (pl.col("variant") != "base"))
    assert (w["change"] == 0).all() and (w["change_lo"] == 0).all()
    sp = m.filter(pl.col("metric") == "turn_position_spread")
    assert (sp["value_lo"] <= sp["value"]).all() and (sp["value"] <= sp["value_hi"]).all() and (sp["value"] > 0).all()
    vp = s.table("sweep_vp__captain").df
    assert {"character", "vp_status"} <= set(vp["source"]) and "vp_vp_status" not in set(vp["source"]) and not s.tables[-1].show


def test_a_grid_draws_a_curve_per_value_of_its_second_key(tmp_path):
    run = write_synthetic_sweep(tmp_path / "grid", [(CAPTAIN, [4, 8, 12], 8), (BISHOP, [3, 5], 5)],
                                lambda c, b: {"Captain": 0.03 * (c - X_STAR), "Bishop": 0.04 * (b - 5)}, name="grid",
                                games=240, players=(4,), seed=6, decades=False)
    r = load_run(run)
    [s] = trinidad_sweeps(r, r)
    cr = s.table("sweep_character_crossing__grid").df
    assert sorted(set(cr["curve"])) == [f"{CAPTAIN} at {BISHOP} = 3", f"{CAPTAIN} at {BISHOP} = 5"]
    assert (cr["points"] == 3).all()
    rates = s.table("sweep_character__grid").df
    assert rates.columns[:5] == ["players", CAPTAIN, BISHOP, "variant", "character"] and rates.height == 6 * 12
    specs = sweep_charts({t.name: t.df for t in s.tables})
    assert [x[0] for x in specs] == ["sweep_character__grid", "sweep_metrics__grid"]  # the VP by source: a single key's
    for _, _, _, draw in specs:
        fig = draw()
        assert len([ax for ax in fig.axes if ax.get_visible()]) >= 4
        charts.close(fig)


def test_the_curves_are_drawn(swept):
    s = swept[1]["sweep-captain"]
    specs = sweep_charts({t.name: t.df for t in s.tables})
    assert [x[1] for x in specs] == ["sweep_character__captain", "sweep_metrics__captain", "sweep_vp__captain"]
    fig = specs[0][3]()
    ax = fig.axes[0]
    assert len(ax.get_lines()) >= 12 and "fair share" in ax.get_title()  # a curve per Character, the fair share
    assert len(fig.axes) == 4  # win rate and change, a column per player count
    charts.close(fig)
