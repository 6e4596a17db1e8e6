"""Statistics used by every table: thin, vectorised wrappers over statsmodels and scipy.

Nothing here re-derives a textbook formula that those libraries already implement: Wilson
intervals are ``statsmodels.stats.proportion.proportion_confint(method="wilson")``, Holm is
``statsmodels.stats.multitest.multipletests(method="holm")``, power is
``statsmodels.stats.power.NormalIndPower`` / ``TTestPower`` with Cohen's h from
``proportion_effectsize``. The one procedure neither library has, Wald's sequential probability
ratio test, is written out in :func:`sprt`. The interval of a rank agreement, :func:`tau_ci`, is
``scipy.stats.bootstrap`` over whole games around ``scipy.stats.kendalltau``; where two players' group
rates differ, :func:`paired_groups`, is ``scipy.stats.ttest_1samp`` by group and
``scipy.stats.permutation_test`` (the players swapped within a deal) over all groups.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower, TTestIndPower, TTestPower
from statsmodels.stats.proportion import proportion_confint, proportion_effectsize, proportions_ztest

ALPHA = 0.05
POWER = 0.80


def wilson(count, nobs, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval (1 - alpha) of count/nobs, elementwise; NaN where nobs is 0.

    Counts may be fractional (a tie for first credits 1/k of a win), which the score interval
    accepts as it only uses the estimated proportion and n."""
    c = np.atleast_1d(np.asarray(count, float))
    n = np.atleast_1d(np.asarray(nobs, float))
    lo = np.full(c.shape, np.nan)
    hi = np.full(c.shape, np.nan)
    ok = n > 0
    if ok.any():
        lo[ok], hi[ok] = proportion_confint(c[ok], n[ok], alpha=alpha, method="wilson")
    return lo, hi


def _no_collect(*_args) -> int:
    return 0


def holm(pvals) -> np.ndarray:
    """Holm-adjusted p-values of one family (NaN entries are left out of the family)."""
    import gc

    p = np.atleast_1d(np.asarray(pvals, float))
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        # statsmodels' Holm branch runs gc.collect() on every call: a full collection (tens of ms
        # with polars and matplotlib loaded) that the report would pay hundreds of times
        saved, gc.collect = gc.collect, _no_collect
        try:
            out[ok] = multipletests(p[ok], alpha=ALPHA, method="holm")[1]
        finally:
            gc.collect = saved
    return out


def prop_test(count, nobs, p0) -> np.ndarray:
    """Two-sided score test of H0: p = p0 (z with the null variance p0(1-p0)/n, the test the
    Wilson interval inverts), elementwise."""
    c = np.atleast_1d(np.asarray(count, float))
    n = np.atleast_1d(np.asarray(nobs, float))
    p0 = np.broadcast_to(np.asarray(p0, float), c.shape)
    out = np.full(c.shape, np.nan)
    for i in range(len(c)):
        if n[i] > 0 and 0 < p0[i] < 1:
            out[i] = proportions_ztest(c[i], n[i], value=p0[i], prop_var=p0[i])[1]
    return out


def _p_for_h(h: float, p0: float) -> float:
    """The proportion p1 > p0 whose Cohen's h against p0 is h (root of proportion_effectsize)."""
    f = lambda p1: proportion_effectsize(p1, p0) - h  # noqa: E731
    if f(1 - 1e-12) < 0:
        return 1.0
    return optimize.brentq(f, p0, 1 - 1e-12)


def mde_proportion(nobs: float, p0: float, alpha: float = ALPHA, power: float = POWER, nobs2: float | None = None) -> float:
    """Smallest increase over p0 detectable with ``power`` by a two-sided test at ``alpha``:
    one sample of ``nobs`` against the fixed p0 (``nobs2`` None), or two independent samples of
    ``nobs`` and ``nobs2``. Solved for Cohen's h with NormalIndPower, then mapped back to a
    difference in proportion around p0."""
    if not nobs or nobs < 2 or (nobs2 is not None and nobs2 < 2) or not 0 < p0 < 1:
        return math.nan
    ratio = 0.0 if nobs2 is None else nobs2 / nobs  # ratio=0: one-sample test (statsmodels convention)
    h = NormalIndPower().solve_power(effect_size=None, nobs1=nobs, alpha=alpha, power=power, ratio=ratio)
    return _p_for_h(float(np.ravel(h)[0]), p0) - p0


def mde_mean(nobs: float, sd: float, alpha: float = ALPHA, power: float = POWER, two_sample: bool = False) -> float:
    """Smallest mean difference detectable with ``power`` by a two-sided t test at ``alpha``:
    one sample (or paired differences) of ``nobs`` against 0 (TTestPower), or two independent
    samples of ``nobs`` each (TTestIndPower); Cohen's d times ``sd``."""
    if not nobs or nobs < 3 or not np.isfinite(sd) or sd <= 0:
        return math.nan
    if two_sample:
        d = TTestIndPower().solve_power(effect_size=None, nobs1=nobs, alpha=alpha, power=power, ratio=1.0)
    else:
        d = TTestPower().solve_power(effect_size=None, nobs=nobs, alpha=alpha, power=power)
    return float(np.ravel(d)[0]) * sd


def mean_ci(x, alpha: float = ALPHA) -> tuple[float, float, float]:
    """(mean, low, high): the t interval of a mean (statsmodels DescrStatsW)."""
    from statsmodels.stats.weightstats import DescrStatsW

    a = np.asarray(x, float)
    a = a[~np.isnan(a)]
    if len(a) == 0:
        return math.nan, math.nan, math.nan
    if len(a) < 2 or np.all(a == a[0]):
        return float(a.mean()), float(a.mean()), float(a.mean())
    lo, hi = DescrStatsW(a).tconfint_mean(alpha=alpha)
    return float(a.mean()), float(lo), float(hi)


def mean_ci_moments(n, s1, s2, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(mean, low, high) elementwise from counts, sums and sums of squares: the same t interval as
    :func:`mean_ci` (scipy.stats.t.interval), for tables summed over chunks of a large run."""
    n = np.asarray(n, float)
    mean = np.divide(s1, n, out=np.full(n.shape, np.nan), where=n > 0)
    var = np.divide(np.asarray(s2, float) - n * mean**2, n - 1, out=np.full(n.shape, np.nan), where=n > 1)
    se = np.sqrt(np.clip(var, 0, None) / np.where(n > 0, n, np.nan))
    lo, hi = mean.copy(), mean.copy()
    ok = (n > 1) & (se > 0)
    if ok.any():
        lo[ok], hi[ok] = stats.t.interval(1 - alpha, n[ok] - 1, loc=mean[ok], scale=se[ok])
    return mean, lo, hi


def paired_test(d, alpha: float = ALPHA) -> dict:
    """Paired differences d = after - before: mean, t interval and two-sided p
    (scipy.stats.ttest_1samp against 0, the paired t test)."""
    a = np.asarray(d, float)
    a = a[~np.isnan(a)]
    out = {"n": len(a), "diff": math.nan, "diff_lo": math.nan, "diff_hi": math.nan, "p": math.nan, "sd": math.nan}
    if len(a) == 0:
        return out
    out["diff"] = float(a.mean())
    if len(a) < 2:
        return out
    out["sd"] = float(a.std(ddof=1))
    if out["sd"] == 0:
        out.update(diff_lo=out["diff"], diff_hi=out["diff"], p=1.0 if out["diff"] == 0 else 0.0)
        return out
    r = stats.ttest_1samp(a, 0.0)
    ci = r.confidence_interval(1 - alpha)
    out.update(diff_lo=float(ci.low), diff_hi=float(ci.high), p=float(r.pvalue))
    return out


@dataclass
class SPRT:
    """Outcome of Wald's SPRT on a sequence of paired differences."""

    decision: str  # "H1: change" | "H0: no change" | "continue"
    direction: str  # "+", "-" or ""
    n_decision: int | None  # observations used when a bound was crossed
    n: int
    llr_plus: float  # final log-likelihood ratio of +delta against 0
    llr_minus: float  # ... of -delta against 0
    lower: float
    upper: float


def sprt_bounds(alpha: float = ALPHA, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds on the log-likelihood ratio of one direction of a two-sided SPRT with total
    type I error ``alpha`` (alpha/2 per direction): (accept H0 below, accept H1 above)."""
    a = alpha / 2
    return math.log(beta / (1 - a)), math.log((1 - beta) / a)


def sprt(d, delta: float, alpha: float = ALPHA, beta: float = 0.05, burn_in: int = 20) -> SPRT:
    """Wald's sequential probability ratio test of H0: mean 0 against H1: mean +delta and,
    separately, H1': mean -delta, on paired differences taken in the order played.

    The generalised SPRT of engine-testing practice: after i observations, with the running mean
    m_i and running variance v_i of the differences (no variance, no decision yet), the normal
    log-likelihood ratio of mean mu1 against mu0 is ``i (mu1 - mu0) (2 m_i - mu0 - mu1) / (2 v_i)``.
    No decision is taken in the first ``burn_in`` observations, where the running variance is too
    noisy (it would inflate the error rates).
    Each direction is tested at alpha / 2 (so the chance of deciding "change" when there is none
    is about alpha in all), with bounds: accept H1 when the ratio reaches log((1 - beta) / (alpha/2)),
    accept H0 when it falls to log(beta / (1 - alpha/2)). The two one-sided tests run together: the
    first to accept its H1 decides "change"; "no change" needs both to accept H0; otherwise the run
    is too short to decide ("continue")."""
    a = np.asarray(d, float)
    a = a[~np.isnan(a)]
    lower, upper = sprt_bounds(alpha, beta)
    if len(a) < 2:
        return SPRT("continue", "", None, len(a), 0.0, 0.0, lower, upper)
    i = np.arange(1, len(a) + 1, dtype=float)
    m = np.cumsum(a) / i
    v = np.cumsum(a * a) / i - m * m
    ok = (v > 1e-12) & (i >= burn_in)
    with np.errstate(divide="ignore", invalid="ignore"):
        llr_p = np.where(ok, i * delta * (2 * m - delta) / (2 * v), np.nan)
        llr_m = np.where(ok, i * -delta * (2 * m + delta) / (2 * v), np.nan)

    def first(mask):
        idx = np.flatnonzero(mask)
        return int(idx[0]) if len(idx) else None

    up_p, up_m = first(llr_p >= upper), first(llr_m >= upper)
    lo_p, lo_m = first(llr_p <= lower), first(llr_m <= lower)
    fin_p = float(llr_p[-1]) if np.isfinite(llr_p[-1]) else 0.0
    fin_m = float(llr_m[-1]) if np.isfinite(llr_m[-1]) else 0.0
    # a one-sided test stops at its first crossing; its H1 wins only if reached before its H0
    hit_p = up_p if up_p is not None and (lo_p is None or up_p < lo_p) else None
    hit_m = up_m if up_m is not None and (lo_m is None or up_m < lo_m) else None
    if hit_p is not None or hit_m is not None:
        if hit_m is None or (hit_p is not None and hit_p <= hit_m):
            return SPRT("H1: change", "+", hit_p + 1, len(a), fin_p, fin_m, lower, upper)
        return SPRT("H1: change", "-", hit_m + 1, len(a), fin_p, fin_m, lower, upper)
    if lo_p is not None and lo_m is not None:
        return SPRT("H0: no change", "", max(lo_p, lo_m) + 1, len(a), fin_p, fin_m, lower, upper)
    return SPRT("continue", "", None, len(a), fin_p, fin_m, lower, upper)


def _group_rates(groups: np.ndarray, credit: np.ndarray, k: int) -> np.ndarray:
    """Mean credit of each group 0..k-1 over the seats of ``groups`` (NaN where a group never played)."""
    n = np.bincount(groups.ravel(), minlength=k)[:k].astype(float)
    w = np.bincount(groups.ravel(), weights=credit.ravel(), minlength=k)[:k]
    return np.divide(w, n, out=np.full(k, np.nan), where=n > 0)


def tau_ci(groups_a, credit_a, groups_b, credit_b, k: int, paired: bool, alpha: float = ALPHA,
           n_resamples: int = 1999, seed: int = 0) -> tuple[float, float]:
    """Bootstrap interval (percentile, ``scipy.stats.bootstrap``) of Kendall's tau-b
    (``scipy.stats.kendalltau``) between two players' win rates of the groups 0..k-1 (e.g. the
    Characters).

    ``groups_x`` and ``credit_x`` are (games, seats) arrays: each seat's group and its win credit
    (a seat of group ``k`` or more is left out, so games with fewer seats can be padded).
    Whole games are resampled, so the seats of one game (whose credits sum to one) stay together;
    ``paired``: row i of a and of b is the same deal, resampled together (the ladder's and the tiers'
    common deals), else each player's games are resampled on their own. The interval is what the tau
    of a rerun on other deals of the same size would read: it sits below the tau of the true rates,
    since sampling noise in either player's rates can only scramble the order.
    """
    ga, ca = np.asarray(groups_a, np.int64), np.asarray(credit_a, float)
    gb, cb = np.asarray(groups_b, np.int64), np.asarray(credit_b, float)
    if paired and ga.shape[0] != gb.shape[0]:
        raise ValueError(f"paired games need the same deals: {ga.shape[0]} against {gb.shape[0]}")

    def tau(ia, ib=None):
        ib = ia if ib is None else ib
        return stats.kendalltau(_group_rates(ga[ia], ca[ia], k), _group_rates(gb[ib], cb[ib], k),
                                nan_policy="omit").statistic

    data = (np.arange(ga.shape[0]),) if paired else (np.arange(ga.shape[0]), np.arange(gb.shape[0]))
    res = stats.bootstrap(data, tau, paired=False, vectorized=False, n_resamples=n_resamples,
                          confidence_level=1 - alpha, method="percentile", batch=16,  # 16 resamples of indices at a time
                          rng=np.random.default_rng(seed))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def kendall_tau_rows(a, b) -> np.ndarray:
    """Kendall's tau-b between row i of ``a`` and row i of ``b`` (each ``[rows, k]``), for every row at
    once: what ``scipy.stats.kendalltau(a[i], b[i]).statistic`` gives (NaN where a row is constant), without
    a call per row, which the permutation tests of :func:`paired_groups` would make thousands of times.
    Tau-b = sum over pairs of sign(a_i - a_j) sign(b_i - b_j) / sqrt(pairs untied in a x pairs untied in b)."""
    a, b = np.atleast_2d(np.asarray(a, float)), np.atleast_2d(np.asarray(b, float))
    i, j = np.triu_indices(a.shape[1], 1)
    sa, sb = np.sign(a[:, i] - a[:, j]), np.sign(b[:, i] - b[:, j])
    den = np.sqrt(np.count_nonzero(sa, axis=1).astype(float) * np.count_nonzero(sb, axis=1))
    return np.divide((sa * sb).sum(axis=1), den, out=np.full(a.shape[0], np.nan), where=den > 0)


@dataclass
class PairedGroups:
    """:func:`paired_groups`: where two players on the same deals differ, group by group (index 0..k-1)."""
    diff: np.ndarray  # rate of a minus rate of b, each group's seats paired by deal; NaN where never played
    low: np.ndarray  # its paired t 95% interval
    high: np.ndarray
    p: np.ndarray  # paired t test (scipy.stats.ttest_1samp of the deals' differences against 0)
    p_holm: np.ndarray  # Holm over the groups
    p_same: float  # permutation p of "the two players have the same rates in every group"
    tau_same: float  # median Kendall tau-b the permutations read: two players alike, on these deals


def _deal_sums(groups: np.ndarray, credit: np.ndarray, k: int) -> np.ndarray:
    """(games, k): each deal's credit summed over its seats of each group (groups >= k left out)."""
    g, c = np.asarray(groups, np.int64), np.asarray(credit, float)
    rows = np.repeat(np.arange(g.shape[0]), g.shape[1]).reshape(g.shape)
    ok = (g >= 0) & (g < k)
    out = np.zeros((g.shape[0], k))
    np.add.at(out, (rows[ok], g[ok]), c[ok])
    return out


def paired_groups(groups, credit_a, credit_b, k: int, alpha: float = ALPHA, n_resamples: int = 1999,
                  seed: int = 0) -> PairedGroups:
    """Do two players, each playing the same deals (row i of ``credit_a`` and of ``credit_b``: one deal,
    the same ``groups`` at the same seats, e.g. the ladder's balanced-Character deals), win with each
    group at different rates?

    By group: the deals' differences of that group's credit, a paired t test, Holm over the groups.
    Over all groups: a permutation test with the two players' games of a deal swapped at random (the test
    ``scipy.stats.permutation_test(permutation_type="samples")`` makes, which keeps the deals' pairing), on
    the statistic
    sum over groups of (sum of the deals' differences)^2 / (sum of their squares), which a swap leaves the
    denominators of; ``p_same`` is its p-value. The same swaps give ``tau_same``: the median Kendall tau-b
    between the two swapped players' group rates, what two players with equal rates (the mean of a's and
    b's) read on these deals. A tau well below it is the players disagreeing, not the deals' noise.
    """
    ga = np.asarray(groups, np.int64)
    a, b = _deal_sums(ga, credit_a, k), _deal_sums(ga, credit_b, k)
    seats = _deal_sums(ga, np.ones(ga.shape), k)
    n = seats.sum(axis=0)
    diff, low, high, p = (np.full(k, np.nan) for _ in range(4))
    for c in range(k):
        dealt = seats[:, c] > 0
        if dealt.any():  # the deals' totals of the group, scaled to a seat (seats a deal: n / deals)
            r, m = paired_test((a - b)[dealt, c], alpha), n[c] / dealt.sum()
            diff[c], low[c], high[c], p[c] = r["diff"] / m, r["diff_lo"] / m, r["diff_hi"] / m, r["p"]
    games = a.shape[0]
    d = a - b
    den = (d ** 2).sum(axis=0)
    live = (n > 0) & (den > 0)
    ok, half = n > 0, (a + b).sum(axis=0) / 2

    def null(flips: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each row of ``flips`` (+1 keeps a deal's two games, -1 swaps them): the statistic and the tau."""
        s = flips @ d  # the swapped players' summed difference, by group: sum a' - sum b'
        qs = (s[:, live] ** 2 / den[live]).sum(axis=1)
        return qs, kendall_tau_rows((half + s / 2)[:, ok] / n[ok], (half - s / 2)[:, ok] / n[ok])

    p_same = tau_same = math.nan
    if games > 0 and not live.any():  # the same credits on every deal: a swap changes nothing
        p_same, tau_same = 1.0, float(null(np.ones((1, games)))[1][0])
    elif games > 0:
        # The test scipy.stats.permutation_test(permutation_type="samples") makes of two paired samples: each
        # deal's two games swapped at random, here as a random sign on each deal's difference. Written out
        # because scipy's loops over the deals in Python (about 4 s a pair of 2,000 deals), and the report
        # reads every pair of tiers; tests/analysis/test_stats.py checks the two nulls agree.
        rng = np.random.default_rng(seed)
        qs, taus = [], []
        for lo in range(0, n_resamples, 256):
            flips = rng.choice(np.array([-1.0, 1.0]), size=(min(256, n_resamples - lo), games))
            q, t = null(flips)
            qs.append(q)
            taus.append(t)
        q0 = null(np.ones((1, games)))[0][0]
        qs = np.concatenate(qs)
        p_same = float((np.sum(qs >= q0 * (1 - 1e-12)) + 1) / (n_resamples + 1))  # scipy's: the observed counts once
        tau_same = float(np.nanmedian(np.concatenate(taus)))
    return PairedGroups(diff, low, high, p, holm(p), p_same, tau_same)


def chisquare_uniform(observed) -> tuple[float, float]:
    """Chi-square goodness of fit of counts against equal shares (scipy.stats.chisquare)."""
    o = np.asarray(observed, float)
    if len(o) < 2 or o.sum() <= 0:
        return math.nan, math.nan
    r = stats.chisquare(o)
    return float(r.statistic), float(r.pvalue)


def fmt_pts(x: float) -> str:
    """A proportion difference in percentage points, for power lines."""
    return "n/a" if x is None or not np.isfinite(x) else f"{100 * x:.1f} points"
