"""Agent sensitivity (analysis.sensitivity): findings checked across player tiers, on synthetic
runs of the same deals with effects planted in some tiers only."""

import json
import re

import polars as pl
import pytest

from analysis import RunError, analyze, load_run
from analysis.sensitivity import DEPENDS, ROBUST, paired_reading, seat_games, shared_deals, tau_interval, tier_labels
from analysis.synthetic import write_synthetic_run
from reports.build import build_report

GAMES = 3000


@pytest.fixture(scope="module")
def tiers(tmp_path_factory):
    root = tmp_path_factory.mktemp("tiers")
    # Governor weak for both strong tiers (robust); Captain strong in the strongest tier only
    # (depends on the players); the weakest tier sees Governor strong, which must not matter.
    best = write_synthetic_run(root / "best", games=GAMES, strategies=("best",), seed=7,
                               advantage={"Governor": -0.1, "Captain": 0.1})
    rollout = write_synthetic_run(root / "rollout", games=GAMES, strategies=("rollout",), seed=7, advantage={"Governor": -0.1})
    heur = write_synthetic_run(root / "heuristic", games=GAMES, strategies=("heuristic",), seed=7, advantage={"Governor": 0.1})
    return [best, rollout, heur]


def test_planted_findings_get_their_verdicts(tiers):
    runs = [load_run(p) for p in tiers]
    a = analyze(runs[0], others=runs[1:])
    f = a.section("agent-sensitivity").table("tier_findings").df
    verdict = {(r["kind"], r["group"]): r["verdict"] for r in f.iter_rows(named=True)}
    assert verdict[("Character", "Governor")] == ROBUST
    assert verdict[("Character", "Captain")] == DEPENDS
    assert a.sensitivity["checked"] is True
    assert [t["tier"] for t in a.sensitivity["tiers"]] == ["best", "rollout", "heuristic"]


def test_order_of_tiers_decides_what_is_robust(tiers):
    # rollout and heuristic strongest: Governor goes opposite ways there, so it is not robust
    runs = [load_run(p) for p in (tiers[1], tiers[2], tiers[0])]
    f = analyze(runs[0], others=runs[1:]).section("agent-sensitivity").table("tier_findings").df
    gov = f.filter((f["kind"] == "Character") & (f["group"] == "Governor"))
    assert gov["verdict"].to_list() == [DEPENDS]


def test_tiers_side_by_side_and_rank_agreement(tiers):
    runs = [load_run(p) for p in tiers]
    a = analyze(runs[0], others=runs[1:])
    ch = a.section("agent-sensitivity").table("tier_characters").df
    assert ch.height == 12
    assert {"win rate · best", "win rate · rollout", "win rate · heuristic"} <= set(ch.columns)
    # never pooled: each column is that run's own estimate
    gov = ch.filter(ch["character"] == "Governor")
    assert gov["win rate · best"][0] < 0.25 < gov["win rate · heuristic"][0]
    ag = a.section("agent-sensitivity").table("tier_agreement").df
    assert ag.height == 3 and set(ag["shared deals"].to_list()) == {1.0}
    assert ag["kendall tau"].is_between(-1, 1).all()
    assert (ag["tau low"] <= ag["tau high"]).all() and ag["tau low"].is_between(-1, 1).all()
    names = ch["character"].to_list()
    first = ag.row(0, named=True)  # each tier read once for all its pairs: the same interval as a pair alone
    assert (first["tau low"], first["tau high"]) == tau_interval(runs[0], runs[1], first["players"], names)


def test_tiers_of_the_same_deals_are_read_deal_by_deal(tiers):
    # best and rollout differ only in the planted Captain (+10 points); best and heuristic in the Governor
    # (-10 against +10: -20 points) and the Captain
    runs = [load_run(p) for p in tiers]
    ag = analyze(runs[0], others=runs[1:]).section("agent-sensitivity").table("tier_agreement").df
    row = {(r["tier A"], r["tier B"]): r for r in ag.iter_rows(named=True)}
    br, bh = row[("best", "rollout")], row[("best", "heuristic")]
    def points(r):  # "Captain +10.5, General -1.2, ...": largest first
        return {x.rsplit(" ", 1)[0]: float(x.rsplit(" ", 1)[1]) for x in r["differ (points, A - B)"].split(", ")}

    br_pts, bh_pts = points(br), points(bh)
    # the planted Captain first; the others give up its win share between them (a deal's credits sum to one)
    assert list(br_pts)[0] == "Captain" and 7 < br_pts["Captain"] < 13
    assert all(abs(v) < 3 for c, v in br_pts.items() if c != "Captain")
    assert list(bh_pts)[0] == "Governor" and -26 < bh_pts["Governor"] < -14 and bh_pts["Captain"] > 5
    assert all(r["p (none differs)"] < 0.01 for r in row.values())
    assert all(r["two alike would read"] > r["kendall tau"] for r in (br, bh))
    # where the differing Characters' VP moved: one row each; the planted Captain scores more under best, its
    # rivals less, and every source of its VP (a share of the total) moves the same way
    a = analyze(runs[0], others=runs[1:])
    moved = a.section("agent-sensitivity").table("tier_moved").df
    assert moved.height == sum(len(points(r)) for r in row.values()) and a.sensitivity["moved"] == moved.to_dicts()
    cap = moved.filter((pl.col("tier B") == "rollout") & (pl.col("character") == "Captain")).row(0, named=True)
    assert cap["VP (A - B)_lo"] > 0 and cap["rivals' VP (A - B)"] < cap["VP (A - B)"]
    assert cap["win rate (A - B)"] == pytest.approx(br_pts["Captain"] / 100, abs=0.001)
    moves = re.findall(r"(\w+) ([+-][\d.]+) \[", cap["sources that moved most"])
    assert len(moves) == 3 and all(float(v) > 0 for _, v in moves)
    names = sorted(runs[0].games.select(pl.col("character").cast(pl.String).unique()).collect().to_series().to_list())
    n = runs[0].player_counts()[0]
    same = paired_reading(runs[0], runs[0], n, names)
    assert same.p_same == 1.0 and not (same.p_holm < 0.05).any()  # a tier against itself differs nowhere
    other = write_synthetic_run(tiers[0].parent / "other-deals", games=300, strategies=("best",), seed=8)
    assert paired_reading(runs[0], load_run(other), n, names) is None  # other deals: nothing to pair


def test_the_tau_interval_resamples_whole_shared_deals(tiers):
    runs = [load_run(p) for p in tiers]
    names = sorted(runs[0].games.select(pl.col("character").cast(pl.String).unique()).collect().to_series().to_list())
    n = runs[0].player_counts()[0]
    deals, g, c = seat_games(runs[0], n, names)
    assert g.shape[0] == deals.height and (c.sum(axis=1) == pytest.approx(1.0))  # a game's credits sum to one
    assert deals.equals(seat_games(runs[1], n, names)[0])  # the tiers played the same deals
    assert tau_interval(runs[0], runs[0], n, names) == pytest.approx((1.0, 1.0))  # paired: every resample agrees
    # a large run's interval is taken on the report's per-game subset: the same indices in every tier, still paired
    small = [r.subset(500) for r in runs[:2]]
    assert seat_games(small[0], n, names)[0].equals(seat_games(small[1], n, names)[0])
    assert seat_games(small[0], n, names)[0].height <= 500
    assert tau_interval(small[0], small[0], n, names) == pytest.approx((1.0, 1.0))


def test_single_tier_says_it_was_not_checked(tiers):
    a = analyze(load_run(tiers[0]))
    s = a.section("agent-sensitivity")
    assert s.absent and "not checked" in s.absent and "best" in s.absent
    assert a.sensitivity["checked"] is False


def test_report_with_tiers(tiers, tmp_path):
    page = build_report(tiers[0], tmp_path / "rep", rating_games=2000, others=tiers[1:])
    html = page.read_text()
    assert 'id="agent-sensitivity"' in html
    doc = json.loads((page.parent / "summary.json").read_text())
    sens = doc["agent_sensitivity"]
    assert sens["checked"] and {f["group"]: f["verdict"] for f in sens["findings"] if f["kind"] == "Character"}["Governor"] == ROBUST
    glance = html.split('id="glance"')[1].split("</section>")[0]
    assert "Governor" in glance and "Captain" not in glance  # At a glance keeps robust findings only
    findings = html.split('id="agent-sensitivity-tier_findings"')[1].split("</table>")[0]
    assert "&lt;0.001" in findings  # each tier's Holm p shown as a p-value
    with pytest.raises(RunError, match="named twice"):
        build_report(tiers[0], tmp_path / "rep2", others=[tiers[0]])


def test_labels_and_shared_deals(tiers, tmp_path):
    other = write_synthetic_run(tmp_path / "best", games=200, strategies=("best",), seed=8)
    runs = [load_run(tiers[0]), load_run(other)]
    assert tier_labels(runs) == ["best (best) #1", "best (best) #2"]
    assert tier_labels([runs[0], load_run(tiers[1])]) == ["best", "rollout"]
    assert shared_deals(runs[0], runs[1]) == 0.0
