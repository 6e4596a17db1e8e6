"""The report of a tiny real run (README, "Design reports"): the engine plays a few dozen games through the batch
runner (two strategies, two rule variants), and the report has every section with data, every
chart, and the manifest's rules version, overrides, seeds and runtime."""

from __future__ import annotations

import json

import polars as pl
import pytest

from analysis import analyze, load_run
from reports.build import build_report
from trinidad.experiment import experiment_from_dict
from trinidad.runner.run import run_experiment

SEED = 7  # as in test_runner: game_seed(7, n) < 2**63 for every player count


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory, engine):
    out = tmp_path_factory.mktemp("tiny") / "run"
    exp = experiment_from_dict({
        "name": "tiny", "players": [4], "games": 36, "seed": SEED, "out": str(out), "shard_games": 36,
        "seats": {"strategies": ["greedy", "random"], "assign": "rotate"}, "characters": {"assign": "balanced"},
        "variants": [{"name": "base"}, {"name": "wood-4", "overrides": {"setup": {"start_wood": 4}}}],
    })
    run_experiment(exp, workers=2, progress=False, ai_games=4)  # and each strategy against the Solo A.I., 4 games a strength
    return out


def test_report_of_a_real_run_has_every_section(tiny_run):
    a = analyze(load_run(tiny_run))
    ids = [s.id for s in a.sections]
    assert ids == ["agent-sensitivity", "characters", "auction-price", "seats", "eras", "wars", "scores", "strategies", "option-use", "variants",
                   "manifest"]
    for s in a.sections:
        if s.id == "agent-sensitivity":  # one run: one player family, said plainly, beside its strength against the A.I.
            assert "was not checked" in s.absent
            ai = s.table("tier_ai_scale").df
            assert ai["strategy"].to_list() == ["greedy", "random"] and ai["tier"].to_list() == ["greedy+random"] * 2
            assert ai["n"].to_list() == [4, 4]
            for x in ("weak", "medium", "strong", "divinity"):
                assert ai[x].is_between(0, 1).all() and (ai[f"{x}_lo"] <= ai[x]).all() and (ai[x] <= ai[f"{x}_hi"]).all()
            continue
        assert s.absent is None, (s.id, s.absent)
        assert s.tables and all(t.df.height > 0 for t in s.tables if t.name not in ("character_model", "never_played")), s.id
        assert all(t.power or t.name == "manifest" for t in s.tables), s.id
    cb = a.section("characters").table("character_balance").df
    assert cb["n"].sum() == 36 * 4 and cb["wins"].sum() == pytest.approx(36)
    v = a.section("variants").table("variant_paired").df
    assert (v["pairs"] == 36).all()  # both variants played the same 36 seeds
    assert v.filter(pl.col("metric") == "mean_vp")["sd"].item() > 0  # and the rule change changed the games
    m = dict(a.section("manifest").table("manifest").df.iter_rows())
    assert "rules version" in m["variant base"] and '"start_wood": 4' in m["variant wood-4"]
    assert m["master seed"] == str(SEED) and m["games played"] == "72 of 72" and m["wall time"].endswith(" s")
    assert m["machine"].endswith(" cores") and m["machine"] != "n/a"

    page = build_report(tiny_run)
    html = page.read_text()
    for sid in ("glance", *ids):
        assert f'id="{sid}"' in html
    assert "could not be drawn" not in html
    assert html.count("data:image/png;base64,") == len(list((page.parent / "charts").glob("*.png"))) >= 17
    doc = json.loads((page.parent / "summary.json").read_text())
    assert doc["baseline"] == "base" and doc["variants"] == ["base", "wood-4"]
    s = pl.read_csv(page.parent / "summary.csv")
    assert set(s["section"]) >= {"characters", "seats", "strategies", "wars", "variants"}
