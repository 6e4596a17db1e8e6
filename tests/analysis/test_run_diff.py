"""analysis.run_diff and ``trinidad runs compare``: two runs side by side, paired by deal."""

from __future__ import annotations

import numpy as np
import polars as pl
from scipy import stats
from typer.testing import CliRunner

from analysis.run_diff import compare_runs, format_comparison
from analysis.synthetic import write_synthetic_run
from trinidad.cli import app


def test_same_deals_are_paired_and_a_planted_change_is_found(tmp_path):
    a = write_synthetic_run(tmp_path / "a", games=3000, seed=4)
    b = write_synthetic_run(tmp_path / "b", games=3000, seed=4, advantage={"Captain": 0.10})
    c = compare_runs(a, b)
    assert c.paired and c.n_a == c.n_b == 3000 * 4
    rows = {r["character"]: r for r in c.characters.iter_rows(named=True)}
    cap = rows["Captain"]
    assert cap["diff_lo"] > 0.03  # the planted +10 points, with a paired interval above 0
    assert abs(cap["diff"] - (cap["win_b"] - cap["win_a"])) < 1e-12
    # the paired interval is the t interval of the per-seat differences (scipy)
    ga = pl.read_parquet(a / "games").sort("game", "seat")
    gb = pl.read_parquet(b / "games").sort("game", "seat")
    from analysis.data import prepare_games

    da = prepare_games(ga).collect().filter(pl.col("character") == "Captain").get_column("credit").to_numpy()
    db = prepare_games(gb).collect().filter(pl.col("character") == "Captain").get_column("credit").to_numpy()
    ci = stats.ttest_1samp(db - da, 0.0).confidence_interval(0.95)
    assert np.isclose(cap["diff_lo"], ci.low) and np.isclose(cap["diff_hi"], ci.high)
    tot = c.sources.filter(pl.col("source") == "total").row(0, named=True)
    assert np.isclose(tot["mean_a"], ga.get_column("vp").mean())
    lines = format_comparison(c, "a", "b")
    assert any(line.strip().startswith("Captain") for line in lines)
    assert "paired by deal" in lines[0]


def test_runs_without_common_deals_are_not_paired(tmp_path):
    a = write_synthetic_run(tmp_path / "a", games=500, seed=1)
    b = write_synthetic_run(tmp_path / "b", games=500, seed=2)
    c = compare_runs(a, b)
    assert not c.paired
    # independent samples: Welch's t interval of the win credits (scipy)
    cap = c.characters.filter(pl.col("character") == "Captain").row(0, named=True)
    from analysis.data import load_run

    xa = load_run(a).games_of().filter(pl.col("character") == "Captain").collect().get_column("credit").to_numpy()
    xb = load_run(b).games_of().filter(pl.col("character") == "Captain").collect().get_column("credit").to_numpy()
    ci = stats.ttest_ind(xb, xa, equal_var=False).confidence_interval(0.95)
    assert np.isclose(cap["diff_lo"], ci.low) and np.isclose(cap["diff_hi"], ci.high)
    assert "not paired" in format_comparison(c)[0] and "Welch" in format_comparison(c)[2]


def test_runs_compare_command(tmp_path):
    a = write_synthetic_run(tmp_path / "x" / "before", games=300, seed=3)
    b = write_synthetic_run(tmp_path / "x" / "after", games=300, seed=3)
    res = CliRunner().invoke(app, ["runs", "compare", str(a), str(b)])
    assert res.exit_code == 0, res.output
    assert "x/after against x/before" in res.output and "Spearman" in res.output
    res = CliRunner().invoke(app, ["runs", "compare", str(a), str(tmp_path / "none")])
    assert res.exit_code == 2 and "no manifest.json" in res.output


def test_compare_page(tmp_path):
    """``trinidad compare A B``: a page with the paired differences, its tables and summary.json."""
    import json

    a = write_synthetic_run(tmp_path / "a", games=2000, players=(3, 4), seed=4)
    b = write_synthetic_run(tmp_path / "b", games=2000, players=(3, 4), seed=4, advantage={"Captain": 0.12})
    res = CliRunner().invoke(app, ["compare", str(a), str(b)])
    assert res.exit_code == 0, res.output
    page = b / "compare" / "index.html"
    html = page.read_text()
    for sid in ("glance", "compare-characters", "compare-seats", "compare-sources", "compare-buildings"):
        assert f'id="{sid}"' in html
    glance = html.split('id="glance"')[1].split("</section>")[0]
    assert "same deals (paired)" in glance and "Captain wins" in glance
    doc = json.loads((page.parent / "summary.json").read_text())
    assert doc["paired"] is True
    cap = [r for r in doc["tables"]["compare_characters"] if r["character"] == "Captain"]
    assert len(cap) == 2 and all(r["p_holm"] < 0.05 and r["B − A_lo"] > 0 for r in cap)
    assert (page.parent / "charts" / "compare_characters.png").exists()
    # a folder the page did not write is refused; a run that is not one is one line
    res = CliRunner().invoke(app, ["compare", str(a), str(b), "--out", str(a)])
    assert res.exit_code == 2 and "did not write" in res.output
    res = CliRunner().invoke(app, ["compare", str(a), str(tmp_path / "none"), "--out", str(tmp_path / "c")])
    assert res.exit_code == 2 and "no manifest.json" in res.output
