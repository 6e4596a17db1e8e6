"""Report statistics (README, "Design reports") against known values: Wilson and Holm against statsmodels and
published examples, score tests, power (minimum detectable differences) and the SPRT."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy.stats import kendalltau
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower, TTestPower
from statsmodels.stats.proportion import proportion_confint, proportion_effectsize

from analysis import stats
from analysis.data import prepare_games
from analysis.tables import holm_within, win_rates


def test_wilson_matches_statsmodels_and_newcombe():
    # Newcombe (1998), Table I, example 81/263: Wilson 95% interval 0.2553 to 0.3662
    lo, hi = stats.wilson([81], [263])
    assert lo[0] == pytest.approx(0.2553, abs=5e-5) and hi[0] == pytest.approx(0.3662, abs=5e-5)
    rng = np.random.default_rng(1)
    n = rng.integers(1, 5000, 200)
    k = rng.integers(0, n + 1)
    lo, hi = stats.wilson(k, n)
    elo, ehi = proportion_confint(k, n, alpha=0.05, method="wilson")
    np.testing.assert_allclose(lo, elo, rtol=0, atol=1e-12)
    np.testing.assert_allclose(hi, ehi, rtol=0, atol=1e-12)
    # boundary cases: 0 and n successes stay inside [0, 1]; n = 0 has no interval
    lo, hi = stats.wilson([0, 10, 0], [10, 10, 0])
    assert lo[0] == pytest.approx(0, abs=1e-12) and 0 < hi[0] < 0.35 and hi[1] == pytest.approx(1) and np.isnan(lo[2])


def test_wilson_fractional_wins():
    # a tie for first credits 1/k: 10.5 wins in 40 seats is the proportion 0.2625
    lo, hi = stats.wilson([10.5], [40])
    elo, ehi = proportion_confint(10.5, 40, method="wilson")
    assert (lo[0], hi[0]) == pytest.approx((elo, ehi))
    assert lo[0] < 10.5 / 40 < hi[0]


def test_holm_matches_statsmodels_and_textbook():
    # Holm (1979) by hand: sorted p 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, made monotone
    p = [0.01, 0.04, 0.03, 0.005]
    np.testing.assert_allclose(stats.holm(p), [0.03, 0.06, 0.06, 0.02])
    rng = np.random.default_rng(2)
    for m in (1, 2, 7, 30):
        p = rng.random(m) ** 3
        np.testing.assert_allclose(stats.holm(p), multipletests(p, method="holm")[1])
    # NaN entries are outside the family
    out = stats.holm([0.01, np.nan, 0.04])
    np.testing.assert_allclose(out[[0, 2]], multipletests([0.01, 0.04], method="holm")[1])
    assert np.isnan(out[1])


def test_holm_within_families():
    t = pl.DataFrame({"players": [3, 3, 4, 4, 4], "p": [0.01, 0.02, 0.01, 0.02, 0.5]})
    out = holm_within(t, ["players"])["p_holm"].to_list()
    np.testing.assert_allclose(out[:2], multipletests([0.01, 0.02], method="holm")[1])
    np.testing.assert_allclose(out[2:], multipletests([0.01, 0.02, 0.5], method="holm")[1])


def test_score_test_against_fair_share():
    from statsmodels.stats.proportion import proportions_ztest

    p = stats.prop_test([30, 25, 60], [100, 100, 150], [0.25, 0.25, 1 / 3])
    assert p[1] == pytest.approx(1.0)
    assert p[0] == pytest.approx(proportions_ztest(30, 100, value=0.25, prop_var=0.25)[1])
    # the score test and the Wilson interval agree: p < 0.05 exactly when p0 is outside the interval
    for k in range(0, 101, 3):
        lo, hi = stats.wilson([k], [100])
        inside = lo[0] <= 0.25 <= hi[0]
        assert (stats.prop_test([k], [100], 0.25)[0] >= 0.05) == inside


def test_minimum_detectable_difference_has_80_percent_power():
    for n, p0 in ((500, 0.25), (2000, 1 / 3), (120, 0.2)):
        d = stats.mde_proportion(n, p0)
        h = proportion_effectsize(p0 + d, p0)
        assert NormalIndPower().power(h, nobs1=n, alpha=0.05, ratio=0) == pytest.approx(0.8, abs=1e-4)
    # more games, smaller detectable differences; a stricter alpha, larger ones
    assert stats.mde_proportion(4000, 0.25) < stats.mde_proportion(1000, 0.25) < stats.mde_proportion(1000, 0.25, alpha=0.005)
    d2 = stats.mde_proportion(800, 0.25, nobs2=1600)
    assert NormalIndPower().power(proportion_effectsize(0.25 + d2, 0.25), nobs1=800, alpha=0.05, ratio=2) == pytest.approx(0.8, abs=1e-4)
    m = stats.mde_mean(200, 3.0)
    assert TTestPower().power(m / 3.0, nobs=200, alpha=0.05) == pytest.approx(0.8, abs=1e-4)
    assert np.isnan(stats.mde_proportion(0, 0.25)) and np.isnan(stats.mde_mean(10, 0.0))


def test_paired_test_matches_scipy():
    from scipy import stats as ss

    rng = np.random.default_rng(3)
    a, b = rng.normal(0, 1, 300), rng.normal(0.1, 1, 300)
    r = stats.paired_test(b - a)
    e = ss.ttest_rel(b, a)
    ci = e.confidence_interval()
    assert r["p"] == pytest.approx(e.pvalue) and (r["diff_lo"], r["diff_hi"]) == pytest.approx((ci.low, ci.high))


def test_sprt_decides_each_way():
    rng = np.random.default_rng(4)
    # per-game win-credit differences of one Character (values in {-1, 0, 1}): a true +8 point change
    up = rng.choice([-1.0, 0.0, 1.0], size=4000, p=[0.06, 0.80, 0.14])
    s = stats.sprt(up, 0.05)
    assert s.decision == "H1: change" and s.direction == "+" and s.n_decision < 4000
    down = -up
    assert stats.sprt(down, 0.05).direction == "-"
    none = rng.choice([-1.0, 0.0, 1.0], size=4000, p=[0.1, 0.8, 0.1])
    s0 = stats.sprt(none, 0.05)
    assert s0.decision == "H0: no change" and s0.llr_plus < s0.lower and s0.llr_minus < s0.lower
    assert stats.sprt(none[:15], 0.05).decision == "continue"  # no decision within the burn-in
    lo, hi = stats.sprt_bounds()
    assert (lo, hi) == pytest.approx((np.log(0.05 / 0.975), np.log(0.95 / 0.025)))


def test_sprt_error_rates_are_near_nominal():
    """Simulated error rates: under no change the SPRT decides 'change' in about alpha = 5% of
    runs, and under a true 5-point change it decides 'no change' in about beta = 5%."""
    rng = np.random.default_rng(5)
    reps = 1000
    wrong = sum(stats.sprt(rng.choice([-1.0, 0.0, 1.0], size=3000, p=[0.12, 0.76, 0.12]), 0.05).decision == "H1: change"
                for _ in range(reps))
    missed = sum(stats.sprt(rng.choice([-1.0, 0.0, 1.0], size=3000, p=[0.095, 0.76, 0.145]), 0.05).decision == "H0: no change"
                 for _ in range(reps))
    assert wrong / reps <= 0.07 and missed / reps <= 0.07  # nominal 0.05 + about 3 standard errors


def test_win_credit_splits_ties():
    g = pl.DataFrame({"variant": ["b"] * 6, "players": [3] * 6, "game": [0, 0, 0, 1, 1, 1], "seat": [0, 1, 2] * 2,
                      "character": ["A", "B", "C"] * 2, "vp": [10, 10, 5, 7, 9, 8], "winner": [1, 1, 0, 0, 1, 0],
                      "tie": [1, 1, 0, 0, 0, 0], "rank": [1, 1, 3, 3, 1, 2]})
    p = prepare_games(g).collect()
    assert p["credit"].to_list() == [0.5, 0.5, 0.0, 0.0, 1.0, 0.0]
    assert p["margin"].to_list() == [0, 0, -5, -2, 1, -1]
    t = win_rates(p, ["players", "character"], ["players"])
    assert t.filter(pl.col("character") == "B")["win_rate"].item() == pytest.approx(0.75)
    assert t["wins"].sum() == pytest.approx(2.0)


def test_mean_ci_from_moments_is_the_t_interval():
    """The mean and t interval from summed moments (n, sum, sum of squares: what a shard-at-a-time read
    keeps) are mean_ci's."""
    rng = np.random.default_rng(0)
    for n in (2, 7, 500):
        x = rng.integers(-20, 40, n).astype(float)
        m, lo, hi = stats.mean_ci_moments(np.array([n]), np.array([x.sum()]), np.array([(x**2).sum()]))
        assert np.allclose([m[0], lo[0], hi[0]], stats.mean_ci(x))


def _dealt(rng, games: int, true: np.ndarray, seats: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Games of ``seats`` distinct groups drawn from ``len(true)``; one winner a game, drawn in
    proportion to the groups' strengths ``true``."""
    g = np.stack([rng.permutation(len(true))[:seats] for _ in range(games)])
    w = true[g]
    u = rng.random((games, 1)) * w.sum(axis=1, keepdims=True)
    c = np.cumsum(w, axis=1)
    return g, ((u > c - w) & (u <= c)).astype(float)


def test_tau_ci_pairs_the_deals_and_reads_what_a_rerun_would():
    rng = np.random.default_rng(3)
    true = np.linspace(0.10, 0.45, 12)
    ga, ca = _dealt(rng, 1200, true)
    # the same games twice, paired: every resample reads tau 1; unpaired, the two resamples differ
    assert stats.tau_ci(ga, ca, ga, ca, k=12, paired=True, n_resamples=199) == pytest.approx((1.0, 1.0))
    lo, hi = stats.tau_ci(ga, ca, ga, ca, k=12, paired=False, n_resamples=199)
    assert lo < 0.9 and hi <= 1.0
    # a player who loses exactly where the other wins ranks the groups the other way round, in every resample
    lo, hi = stats.tau_ci(ga, ca, ga, (1 - ca) / 3, k=12, paired=True, n_resamples=199)
    assert (lo, hi) == pytest.approx((-1.0, -1.0))
    # the interval is what independent reruns of two players with the same true rates read
    gb, cb = _dealt(rng, 1200, true)
    lo, hi = stats.tau_ci(ga, ca, gb, cb, k=12, paired=False, n_resamples=499, seed=1)
    reruns = []
    for _ in range(60):
        (x, cx), (y, cy) = _dealt(rng, 1200, true), _dealt(rng, 1200, true)
        reruns.append(kendalltau(stats._group_rates(x, cx, 12), stats._group_rates(y, cy, 12)).statistic)
    assert lo <= np.median(reruns) <= hi
    assert stats.tau_ci(ga, ca, gb, cb, k=12, paired=False, n_resamples=99, seed=5) == \
        stats.tau_ci(ga, ca, gb, cb, k=12, paired=False, n_resamples=99, seed=5)  # a pure function of its seed
    with pytest.raises(ValueError, match="same deals"):
        stats.tau_ci(ga, ca, gb[:10], cb[:10], k=12, paired=True)


def _credit(rng, g: np.ndarray, true: np.ndarray) -> np.ndarray:
    """One winner a game on the deals ``g``, drawn in proportion to the groups' strengths ``true``."""
    w = true[g]
    u = rng.random((g.shape[0], 1)) * w.sum(axis=1, keepdims=True)
    c = np.cumsum(w, axis=1)
    return ((u > c - w) & (u <= c)).astype(float)


def test_paired_groups_names_the_groups_two_players_differ_on():
    from scipy.stats import ttest_rel

    rng = np.random.default_rng(11)
    true = np.linspace(0.10, 0.45, 12)
    g, a = _dealt(rng, 2400, true)
    # two players alike on the same deals: no group differs, the permutation test does not reject
    alike = stats.paired_groups(g, a, _credit(rng, g, true), 12, n_resamples=499)
    assert np.all(alike.p_holm >= 0.05) and alike.p_same > 0.05
    # the same games twice: nothing differs and every swap reads the same ranking
    same = stats.paired_groups(g, a, a, 12, n_resamples=99)
    assert same.p_same == 1.0 and same.tau_same == pytest.approx(1.0) and np.all(same.diff == 0)
    # one group twice as strong under b: it is named, with the sign a - b, and the whole test rejects
    stronger = true.copy()
    stronger[0] *= 2
    b = _credit(rng, g, stronger)
    r = stats.paired_groups(g, a, b, 12, n_resamples=499)
    assert r.p_holm[0] < 0.05 and r.diff[0] < 0 and r.p_same < 0.01
    # each group's difference is the paired t test of its seats (one a deal here)
    for c in (0, 5, 11):
        rows, seat = np.nonzero(g == c)
        t = ttest_rel(a[rows, seat], b[rows, seat])
        ci = t.confidence_interval()
        assert (r.diff[c], r.low[c], r.high[c], r.p[c]) == pytest.approx(
            ((a - b)[rows, seat].mean(), ci.low, ci.high, t.pvalue))
    # the alike tau is what two players with the same rates read on these deals
    reruns = [kendalltau(stats._group_rates(g, _credit(rng, g, true), 12),
                         stats._group_rates(g, _credit(rng, g, true), 12)).statistic for _ in range(60)]
    assert abs(alike.tau_same - np.median(reruns)) < 0.1
    x, y = (stats.paired_groups(g, a, b, 12, n_resamples=99, seed=4) for _ in range(2))
    assert (x.p_same, x.tau_same) == (y.p_same, y.tau_same)  # a pure function of its seed


def test_kendall_tau_rows_is_scipys_tau_b_row_by_row():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 5, (200, 12)).astype(float)  # few values: many ties, where tau-b and tau-a part
    b = a + rng.integers(-2, 3, (200, 12))
    a[0] = 3.0  # a constant row: scipy reads NaN
    want = np.array([kendalltau(u, v).statistic for u, v in zip(a, b, strict=True)])
    got = stats.kendall_tau_rows(a, b)
    assert np.isnan(got[0]) and np.isnan(want[0])
    assert got[1:] == pytest.approx(want[1:])


def test_paired_groups_swaps_the_deals_as_scipys_permutation_test_does():
    from scipy.stats import permutation_test

    rng = np.random.default_rng(3)
    true = np.linspace(0.10, 0.45, 12)
    g, a = _dealt(rng, 300, true)
    stronger = true.copy()
    stronger[3] *= 1.6
    b = _credit(rng, g, stronger)
    r = stats.paired_groups(g, a, b, 12, n_resamples=4999)
    sa, sb = stats._deal_sums(g, a, 12), stats._deal_sums(g, b, 12)
    den = ((sa - sb) ** 2).sum(axis=0)
    live = den > 0

    def q(x, y, axis=-1):  # scipy hands each group's deals on the last axis
        return (((x - y).sum(axis=-1)[..., live]) ** 2 / den[live]).sum(axis=-1)

    want = permutation_test((sa, sb), q, permutation_type="samples", alternative="greater", n_resamples=4999,
                            rng=np.random.default_rng(1), axis=0, vectorized=True)
    assert r.p_same == pytest.approx(want.pvalue, abs=0.02)
    assert 0.005 < want.pvalue < 0.5  # a p where the two nulls' shapes, not only their tails, are compared
