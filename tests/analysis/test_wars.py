"""analysis.wars and the War balance section: on a tiny engine run with the Extended War as a
variant of the normal War (the shipped comparison experiment, made small), every table is checked
against a direct polars / scipy computation of the same records; the normal War's recorded
``fights`` agree with the old derivation from the penalty steps wherever that one could tell."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats as st
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from analysis import analyze, load_run, summary_rows
from analysis import wars as W
from trinidad.experiment import load_experiment
from trinidad.runner.run import run_experiment

EXPERIMENT = Path(__file__).parents[2] / "trinidad" / "experiments" / "extended-war.toml"
GAMES = 96  # per variant, 4 players: about 150 Extended Wars


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """The shipped experiment, small: heuristic and random seats (the random seat varies the play)."""
    out = tmp_path_factory.mktemp("xw") / "run"
    exp = load_experiment(EXPERIMENT, games=GAMES, shard_games=48, out=str(out), strategies=["heuristic", "random"])
    exp.seat_assign = "rotate"
    run_experiment(exp, workers=2, progress=False)
    return load_run(out)


@pytest.fixture(scope="module")
def analysis(run):
    return analyze(run)


def _games(run, variant):
    return run.games_of(variant).collect()


def _decades(run, variant):
    return run.decades_of(variant).collect()


def test_the_manifest_says_which_war_rules(run):
    assert run.variants == ["normal-war", "extended-war"]
    assert not W.extended_war(run.manifest, "normal-war") and W.extended_war(run.manifest, "extended-war")
    assert not W.extended_war({}, "x") and not W.extended_war(run.manifest, "no-such-variant")


def test_section_layout(analysis):
    s = analysis.section("wars")
    assert "normal War" in s.intro and s.absent is None
    assert [t.name for t in s.tables] == ["wars_per_game", "war_outcomes", "war_penalty", "war_participation", "military_investment"]
    assert [sub.id for sub in s.subsections] == ["wars-extended-war", "wars-extended-war-compared"]
    xw, cmp = s.subsections
    assert [t.name for t in xw.tables] == [f"{n}__extended-war" for n in ("wars_per_game", "war_outcomes", "xw_fights", "xw_wars",
                                                                          "xw_characters", "war_penalty", "war_participation",
                                                                          "military_investment")]
    assert [t.name for t in cmp.tables] == ["war_rules_characters__extended-war", "war_rules_paired__extended-war",
                                            "war_rules_vp_character__extended-war"]
    assert all(t.df.height for t in [*xw.tables, *cmp.tables]), [t.name for t in [*xw.tables, *cmp.tables] if not t.df.height]


def _table(analysis, name):
    return next(t for t in analysis.tables() if t.name == name).df


def test_wars_per_game_counts_the_wars_fought(run, analysis):
    """Extended War: the Wars fought per game (the game tallies), in the Era of the decade they ended in."""
    t = _table(analysis, "wars_per_game__extended-war")
    g = _games(run, "extended-war").filter(pl.col("seat") == 0)
    for f, col in (("Natives", "wars_natives"), ("Pirates", "wars_pirates")):
        got = float((t.filter(pl.col("faction") == f)["wars_per_game"] * t.filter(pl.col("faction") == f)["games"]).sum())
        assert got == pytest.approx(float(g[col].sum()))
    # by Era: a War belongs to the decade whose record shows it fought
    d = _decades(run, "extended-war").filter(pl.col("seat") == 0).sort("game", "decade")
    d = d.with_columns((pl.col("wars_natives") - pl.col("wars_natives").shift(1, fill_value=0).over("game")).alias("nat"))
    era2 = t.filter((pl.col("era") == 2) & (pl.col("faction") == "Natives"))
    assert float(era2["wars_per_game"][0]) == pytest.approx(d.filter(pl.col("era") == 2)["nat"].sum() / GAMES)
    # the normal War: declared Wars, each fought in its decade (war_faction), as the tallies count them too
    n = _table(analysis, "wars_per_game")
    gn = _games(run, "normal-war").filter(pl.col("seat") == 0)
    assert float((n["wars_per_game"] * n["games"]).sum()) == pytest.approx(float((gn["wars_natives"] + gn["wars_pirates"]).sum()))


def test_extended_war_outcomes_and_characters(run, analysis):
    g = _games(run, "extended-war")
    last = _decades(run, "extended-war").filter(pl.col("decade") == pl.col("decade").max())
    o = _table(analysis, "war_outcomes__extended-war")
    assert int(o["seat_wars"].sum()) == int(last["wars_fought"].sum()) and int(o["won"].sum()) == int(last["wars_won"].sum())
    lo, hi = proportion_confint(o["won"].to_numpy(), o["seat_wars"].to_numpy(), method="wilson")
    assert np.allclose(o["war_win_share_lo"].to_numpy(), lo) and np.allclose(o["war_win_share_hi"].to_numpy(), hi)
    c = _table(analysis, "xw_characters__extended-war")
    for ch in ("Captain", "General"):
        row = c.filter(pl.col("character") == ch)
        mine = g.filter(pl.col("character").cast(pl.String) == ch)
        wars = float(last.filter(pl.col("character").cast(pl.String) == ch)["wars_fought"].sum())
        assert float(row["penalties"][0]) == pytest.approx(mine["xw_penalties"].sum() / wars)
        assert float(row["cancelled"][0]) == pytest.approx(mine["xw_cancelled"].sum() / wars)
        assert float(row["pillage"][0]) == pytest.approx(mine["xw_pillage"].sum() / wars)
        assert float(row["fights_per_war"][0]) == pytest.approx(mine["fights"].sum() / wars)
        assert float(row["war_vp"][0]) == pytest.approx(mine["war_vp"].sum() / wars)
    assert float(o["penalties"].mean()) > 0  # the Wars cost the seats something


def test_fight_kinds_and_the_wars_course(run, analysis):
    g = _games(run, "extended-war")
    f = _table(analysis, "xw_fights__extended-war")
    for stem, label, _ in W.ATTACKERS:
        rows = f.filter((pl.col("by") == "attacker") & (pl.col("kind") == label))
        assert int(rows["fights"].sum()) == int(g[f"xw_fights_vs_{stem}"].sum())
        assert int(rows["won"].sum()) == int(g[f"xw_won_vs_{stem}"].sum())
    m = f.filter(pl.col("by") == "miniature")
    assert int(m["fights"].sum()) == int(g["fights"].sum()) and int(m["won"].sum()) == int(g["fights_won"].sum())
    w = _table(analysis, "xw_wars__extended-war")
    s0 = g.filter(pl.col("seat") == 0)
    wars = float((s0["wars_natives"] + s0["wars_pirates"]).sum())
    assert int(w["wars"].sum()) == wars
    assert float((w["attackers"] * w["wars"]).sum()) == pytest.approx(float(s0["xw_attackers"].sum()))
    assert float((w["left"] * w["wars"]).sum()) == pytest.approx(float(s0["xw_left"].sum()))
    assert float((w["defeated"] * w["wars"]).sum()) == pytest.approx(float(g["xw_defeated"].sum()))
    assert float((w["rounds"] * w["wars"]).sum()) == pytest.approx(float(s0["xw_rounds"].sum()))


def test_the_paired_comparison(run, analysis):
    """Character win rates and the per-game metrics, against scipy's paired t test and statsmodels' Holm."""
    g = run.games.collect().with_columns(pl.col("variant").cast(pl.String), pl.col("character").cast(pl.String))
    b = g.filter(pl.col("variant") == "normal-war")
    x = g.filter(pl.col("variant") == "extended-war")
    j = x.join(b, on=["players", "game", "seat"], suffix="_b")
    assert (j["seed"] == j["seed_b"]).all() and (j["character"] == j["character_b"]).all()
    t = _table(analysis, "war_rules_characters__extended-war").sort("character")
    ps = []
    for ch in t["character"]:
        part = j.filter(pl.col("character") == ch)
        r = st.ttest_rel(part["credit"].to_numpy(), part["credit_b"].to_numpy())
        ci = r.confidence_interval()
        row = t.filter(pl.col("character") == ch)
        assert float(row["win_rate"][0]) == pytest.approx(part["credit"].mean())
        assert float(row["win_rate_base"][0]) == pytest.approx(part["credit_b"].mean())
        if np.isfinite(r.pvalue):
            assert float(row["p"][0]) == pytest.approx(r.pvalue)
            assert float(row["diff_lo"][0]) == pytest.approx(ci.low) and float(row["diff_hi"][0]) == pytest.approx(ci.high)
            ps.append(r.pvalue)
    ok = t["p"].is_not_nan()
    assert np.allclose(t.filter(ok)["p_holm"].to_numpy(), multipletests(ps, method="holm")[1])
    # per game: VP from wars (per seat), rounds and turns
    per = (j.group_by("game").agg(((pl.col("war_vp") + pl.col("vp_end_war")).cast(pl.Float64).mean()).alias("v"),
                                  ((pl.col("war_vp_b") + pl.col("vp_end_war_b")).cast(pl.Float64).mean()).alias("v_b"),
                                  pl.col("rounds").first().cast(pl.Float64), pl.col("rounds_b").first().cast(pl.Float64),
                                  pl.col("turns").sum().cast(pl.Float64), pl.col("turns_b").sum().cast(pl.Float64)))
    m = _table(analysis, "war_rules_paired__extended-war")
    for metric, a, bb in (("vp_from_wars", "v", "v_b"), ("rounds", "rounds", "rounds_b"), ("turns", "turns", "turns_b")):
        r = st.ttest_rel(per[a].to_numpy(), per[bb].to_numpy())
        row = m.filter(pl.col("metric") == metric)
        assert float(row["diff"][0]) == pytest.approx(float((per[a] - per[bb]).mean()))
        assert float(row["p"][0]) == pytest.approx(r.pvalue)
        assert float(row["diff_lo"][0]) == pytest.approx(r.confidence_interval().low)
    assert np.allclose(m["p_holm"].to_numpy(), multipletests(m["p"].to_numpy(), method="holm")[1], equal_nan=True)
    assert set(m["metric"]) == {k for k, _ in W.RULES_METRICS}
    assert "every game played 12 decades" in next(t for t in analysis.tables() if t.name == "war_rules_paired__extended-war").note
    # summary.csv names the comparison's variant
    s = summary_rows(analysis).filter(pl.col("table").str.starts_with("war_rules"))
    assert s.height == t.height + m.height and set(s["variant"]) == {"extended-war"}


def test_recorded_fields_agree_with_the_derivation(run):
    """Normal War: the recorded battles with miniatures (``fights``) against the old reading of the
    penalty steps: the same wherever the steps could tell (a loss short of the track's end)."""
    d = run.decades_of("normal-war")
    rec = W.fights(d, W.penalty_max(run.manifest))
    old = W.fights(d.drop("fights"), W.penalty_max(run.manifest))
    j = rec.join(old, on=["players", "game", "seat", "decade"], suffix="_old")
    assert j.height == rec.height == old.height > 0
    differ = j.filter(pl.col("fielded") != pl.col("fielded_old"))
    # only where the loss ran into the end of the track: recorded fielded, derived not
    assert differ["fielded"].all() if differ.height else True
    assert (differ["war_penalty"] == W.penalty_max(run.manifest)).all()
    assert j["fielded"].any() and not j["fielded"].all()


def test_a_run_of_the_expansion_alone(tmp_path):
    """``extended_war = true`` for the whole run: the section's own tables are the Extended War's."""
    from trinidad.experiment import experiment_from_dict

    out = tmp_path / "xw"
    exp = experiment_from_dict({"name": "xw", "players": 3, "games": 36, "seed": 3, "out": str(out), "shard_games": 36,
                                "extended_war": True, "seats": {"strategies": ["random", "heuristic"], "assign": "rotate"},
                                "characters": {"assign": "balanced"}})
    run_experiment(exp, workers=1, progress=False)
    r = load_run(out)
    s = analyze(r).section("wars")
    assert "Extended War" in s.intro and not s.subsections and s.absent is None
    assert [t.name for t in s.tables] == ["wars_per_game", "war_outcomes", "xw_fights", "xw_wars", "xw_characters", "war_penalty",
                                          "war_participation", "military_investment"]
    # participation: a seat fielded miniatures in a War when its Fight!s grew in that decade
    g = r.games_of().collect()
    part = s.table("war_participation").df.filter(pl.col("factor") == "fielded miniatures in a War")
    assert int(part["n_yes"][0]) == int((g["fights"] > 0).sum())
    inv = s.table("military_investment").df
    assert list(inv["av_bin"]) == [b[2] for b in W.XW_AV_BINS if b[2] in set(inv["av_bin"])]


def test_the_report_shows_the_comparison(run, tmp_path):
    import json

    from reports.build import build_report

    page = build_report(run.path, tmp_path / "report")
    html = page.read_text()
    for anchor in ("wars-extended-war", "wars-extended-war-compared", "wars-extended-war-compared-war_rules_paired__extended-war"):
        assert f'id="{anchor}"' in html
    charts = {p.stem for p in (tmp_path / "report" / "charts").glob("*.png")}
    assert {"wars", "wars__extended-war", "xw_fights__extended-war", "war_rules_characters__extended-war",
            "military_investment__extended-war"} <= charts
    assert (tmp_path / "report" / "tables" / "war_rules_paired__extended-war.csv").exists()
    doc = json.loads((tmp_path / "report" / "summary.json").read_text())
    wars = next(s for s in doc["sections"] if s["id"] == "wars")
    assert [sub["id"] for sub in wars["subsections"]] == ["wars-extended-war", "wars-extended-war-compared"]
