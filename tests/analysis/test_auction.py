"""The auction price of each Character (analysis.auction, issue 23 part 2): the handicap curve
against brute-force re-ranking, the crossing, a planted VP advantage recovered within its
interval, a fair Character priced near 0, and the win-rate spread at the prices."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis import load_run
from analysis.auction import (
    auction_prices,
    auction_section_tables,
    charges,
    handicap_curve,
    margins_and_ties,
    price,
    rerank_credit,
    spread,
    win_spread,
)
from analysis.synthetic import write_synthetic_run


def test_rerank_credit_ranks_as_the_engine():
    vp = np.array([[10, 10, 8], [10, 10, 10], [5, 7, 7]])
    res = np.array([[3, 2, 9], [1, 1, 1], [0, 4, 4]])
    c = rerank_credit(vp, res)
    # VP first, then resources; seats equal on both share first place
    assert c.tolist() == [[1, 0, 0], [1 / 3, 1 / 3, 1 / 3], [0, 0.5, 0.5]]


def test_handicap_curve_equals_brute_force_reranking():
    """Every point of the curve is the mean credit of the Character's seats after subtracting p
    from its VP and ranking every game again (VP, then resources, fractional ties)."""
    rng = np.random.default_rng(4)
    games, n = 400, 4
    vp = rng.integers(20, 30, (games, n))  # narrow: many VP ties, so the resources tie-break matters
    res = rng.integers(0, 3, (games, n))
    d, tie = margins_and_ties(vp, res)
    seat = 1  # "the Character" sits at seat 1 in every game
    p, f = handicap_curve(d[:, seat], tie[:, seat])
    assert f[0] == 1 and f[-1] == 0 and np.all(np.diff(f) <= 1e-12)  # from always winning to never, non-increasing
    for pk, fk in zip(p, f, strict=True):
        v = vp.astype(float)
        v[:, seat] -= pk
        assert rerank_credit(v, res)[:, seat].mean() == pytest.approx(fk), pk
    assert f[np.nonzero(p == 0)[0][0]] == pytest.approx(rerank_credit(vp, res)[:, seat].mean())  # p = 0: as played


def test_price_of_a_fair_character_is_zero_and_a_shift_moves_it():
    # two seats, the Character 1 VP ahead or behind, resources equal: exactly fair at N = 2
    d = np.array([1, -1] * 50)
    tie = np.full(100, 0.5)
    assert price(d, tie, 0.5) == pytest.approx(0.0)
    assert price(d + 3, tie, 0.5) == pytest.approx(3.0)  # three VP more: it pays three VP more
    assert price(d - 2, tie, 0.5) == pytest.approx(-2.0)


def test_charges_are_whole_and_never_pay_a_seat():
    assert charges({"Captain": 4.4, "Architect": -2.6, "Bishop": 0.0}) == {"Captain": 7, "Architect": 0, "Bishop": 3}
    assert charges({"Captain": 2, "Bishop": 1}) == {"Captain": 2, "Bishop": 1}  # a Character left out costs 0: the lowest
    assert charges({}) == {}


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    """A balanced synthetic run where the Captain gets 6 VP more in every game (3 and 4 players)."""
    d = tmp_path_factory.mktemp("auction")
    run = load_run(write_synthetic_run(d / "run", games=2400, players=(3, 4), vp_shift={"Captain": 6}, seed=3, decades=False))
    return run, run.games_of().collect()


K = 6


def test_a_planted_vp_advantage_is_recovered_as_its_price(planted):
    """Issue 23: a planted VP advantage of k VP is recovered as an auction price within its CI."""
    _, g = planted
    t = auction_prices(g)
    cap = t.filter(pl.col("character") == "Captain")
    assert cap.height == 2
    for r in cap.iter_rows(named=True):
        assert r["price_lo"] <= K <= r["price_hi"], r
        assert r["price_hi"] - r["price_lo"] < 4, r  # 800-ish games a Character: an interval of a few VP, not absurd
        assert r["price_whole"] in (K - 1, K, K + 1)
        assert r["price_lo"] > 2  # and clearly not a fair Character
    # the others: no plant; their prices sit near 0 (a little below: the Captain takes some of their wins)
    rest = t.filter(pl.col("character") != "Captain")
    inside = rest.filter((pl.col("price_lo") <= 0) & (pl.col("price_hi") >= 0)).height
    assert inside >= rest.height - 3, rest
    assert abs(float(rest["price"].median())) < 1.5


def test_no_plant_no_price(tmp_path):
    run = load_run(write_synthetic_run(tmp_path / "fair", games=1200, players=(4,), seed=8, decades=False))
    t = auction_prices(run.games_of().collect())
    assert t.height == 12 and (t["n"] == 400).all()
    inside = t.filter((pl.col("price_lo") <= 0) & (pl.col("price_hi") >= 0)).height
    assert inside >= 10, t  # 95% intervals: about 0.6 of 12 expected outside
    assert (t["price_lo"] < t["price"]).all() and (t["price"] < t["price_hi"]).all()


def test_paying_the_prices_flattens_the_win_rates(planted):
    run, g = planted
    t = auction_prices(g)
    sp = win_spread(g, t)
    for n in (3, 4):
        rows = {r["what"].split(",")[0]: r for r in sp.filter(pl.col("players") == n).iter_rows(named=True)}
        before, after = rows["as played"], rows["the same games re-ranked"]
        assert before["p"] < 1e-6 and after["p"] > 0.01  # the Captain's 6 VP show; paid back, they do not
        assert after["range"] < before["range"] / 2 and after["chi2"] < before["chi2"] / 4
    tables, absent = auction_section_tables(g, run.manifest)
    assert absent is None and [x.name for x in tables] == ["auction_price", "auction_spread"]
    assert all(x.note and x.power for x in tables)


def test_spread_is_scipy_chisquare_on_the_character_wins():
    from scipy.stats import chisquare

    credit = np.array([[1, 0], [0.5, 0.5], [0, 1], [1, 0]])
    chars = np.array([["A", "B"], ["B", "C"], ["C", "A"], ["A", "C"]])
    s = spread(credit, chars)
    wins = [3, 0.5, 0.5]  # A, B, C
    seats = np.array([3, 2, 3])
    assert s["chi2"] == pytest.approx(chisquare(wins, seats * 4 / 8).statistic)
    assert s["df"] == 2 and s["range"] == pytest.approx(1 - 1 / 6)


def test_a_drafted_run_says_why_it_has_no_prices(planted):
    run, g = planted
    m = dict(run.manifest) | {"experiment": dict(run.manifest["experiment"]) | {"char_assign": "draft"}}
    tables, absent = auction_section_tables(g, m)
    assert tables == [] and "drafted" in absent and "already paid" in absent


def test_a_priced_run_reports_the_residual_price_and_the_vp_given_back(planted):
    """A run played with prices (manifest experiment.prices, vp_auction = -paid): the price is what
    is left beyond the charge, and giving the VP back restores the unpriced spread."""
    run, g = planted
    paid = pl.when(pl.col("character").cast(pl.String) == "Captain").then(K).otherwise(0)
    priced = g.with_columns((pl.col("vp") - paid).alias("vp"), (-paid).alias("vp_auction"))
    from analysis.data import prepare_games

    priced = prepare_games(priced.drop("credit", "margin")).collect()
    m = dict(run.manifest) | {"experiment": dict(run.manifest["experiment"]) | {"prices": {"3": {"Captain": K}, "4": {"Captain": K}}}}
    tables, _ = auction_section_tables(priced, m)
    t = tables[0].df.filter(pl.col("character") == "Captain")
    assert (t["paid"] == K).all()
    assert ((t["price_lo"] <= 0) & (t["price_hi"] >= 0)).all(), t  # nothing left to pay
    sp = tables[1].df
    back = sp.filter(pl.col("what").str.contains("given back"))
    for n, x2 in zip(back["players"], back["chi2"], strict=True):  # the unpriced games, ranked as the engine ranks them
        a = g.filter(pl.col("players") == n).sort("game", "seat")
        shape = (-1, n)
        credit = rerank_credit(a["vp"].to_numpy().reshape(shape), a["resources"].to_numpy().reshape(shape))
        assert x2 == pytest.approx(spread(credit, a["character"].cast(pl.String).to_numpy().reshape(shape))["chi2"])
    assert "residual" in tables[0].note
    from analysis.auction import price_sentences

    assert "beyond what it paid" in price_sentences(tables[0].df)[0]
    from analysis.manifest import manifest_table

    row = dict(manifest_table(m, run.game_counts()).df.iter_rows())["Characters"]
    assert "paid its Character's price" in row and '"Captain": 6' in row
    assert price_sentences(auction_prices(g))[0].startswith("3 players, auction prices: Captain is worth about")
