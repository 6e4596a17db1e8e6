"""The stopping rule of runs with ``precision`` (analysis.sequential, issue 96) on synthetic data with
a known truth, numpy only (no engine): the interval read where a run stops covers the true rate (at
least 94% of 95% intervals over many simulated runs, each run stopping at the first block whose
interval is within +-precision); the rates of a family cover together; a clear difference against
the base stops a run before the fixed design's games; no difference is rarely "decided", where
peeking at fixed-n intervals after every block would decide often."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats

from analysis import sequential as sq

BLOCK = 50


def _stops(lo: np.ndarray, hi: np.ndarray, precision: float) -> tuple[np.ndarray, np.ndarray]:
    """Per simulated run (first axis), the index of the observation at the first block boundary
    whose interval is within +-precision (all rates together where there is a rates axis), and
    whether the run stopped there before the cap."""
    ends = np.arange(BLOCK, lo.shape[-1] + 1, BLOCK) - 1
    ok = (hi[..., ends] - lo[..., ends]) / 2 <= precision
    if ok.ndim == 3:
        ok = ok.all(axis=1)
    return ends[ok.argmax(axis=1)], ok.any(axis=1)


@pytest.mark.parametrize("p", [0.12, 0.25, 0.5])
def test_the_interval_where_a_run_stops_covers_the_truth(p):
    rng = np.random.default_rng(96)
    runs, cap, precision = 800, 1500, 0.05
    x = (rng.random((runs, cap)) < p).astype(float)
    lo, hi = sq.confidence_sequence(x, sq.ALPHA, precision)
    at, stopped = _stops(lo, hi, precision)
    r = np.arange(runs)
    covered = (lo[r, at] <= p) & (p <= hi[r, at])
    assert stopped.all()  # every run reached +-5 points before the cap
    assert covered.mean() >= 0.94, covered.mean()
    # and the rule does what it says: the interval at the stop is within +-precision
    assert ((hi[r, at] - lo[r, at]) / 2 <= precision).all()
    # the one interval the runner reads (analysis.sequential.interval) is the sequence's last
    assert sq.interval(x[0, :at[0] + 1], sq.ALPHA, precision) == pytest.approx((lo[0, at[0]], hi[0, at[0]]))


def test_the_rates_of_a_family_cover_together():
    """Bonferroni over the family: each of K rates at alpha / K, the run stopping when all are
    precise; all K intervals cover at once in at least 94% of runs."""
    rng = np.random.default_rng(7)
    ps = np.array([0.1, 0.25, 0.4, 0.55])
    runs, cap, precision = 300, 1500, 0.07
    x = (rng.random((runs, len(ps), cap)) < ps[None, :, None]).astype(float)
    lo, hi = sq.confidence_sequence(x, sq.ALPHA / len(ps), precision)
    at, stopped = _stops(lo, hi, precision)
    r = np.arange(runs)
    together = ((lo[r, :, at] <= ps) & (ps <= hi[r, :, at])).all(axis=1)
    assert stopped.all() and together.mean() >= 0.94, together.mean()


def test_a_clear_difference_stops_before_the_fixed_design():
    """Base 25%, variant 40%, +-2 points asked: the fixed design needs 1,801 games for a 95%
    interval of +-2 points at 25% (1.96^2 p (1-p) / 0.02^2); the rule, read at every block
    boundary through :func:`analysis.sequential.check` as the runner reads it, stops every run
    'decided against base' well before that."""
    rng = np.random.default_rng(3)
    precision, cap = 0.02, 3000
    fixed = stats.norm.ppf(0.975) ** 2 * 0.25 * 0.75 / precision**2
    games = []
    for _ in range(60):
        base = (rng.random((cap, 1)) < 0.25).astype(float)
        var = (rng.random((cap, 1)) < 0.40).astype(float)
        for b in range(BLOCK, cap + 1, BLOCK):
            c = sq.check(var[:b], ["rate"], precision, base=base[:b])
            if c.precise or c.decided:
                break
        assert c.decided and not c.precise and c.deciding()["lo"] > 0
        games.append(b)
    assert max(games) < fixed and np.median(games) < fixed / 2, (np.median(games), max(games), fixed)


def test_no_difference_is_rarely_decided_where_peeking_at_fixed_intervals_often_is():
    """The variant plays the base's rules (the same 25%): the anytime-valid difference excludes 0
    at some block in at most 5% of runs; stopping at the first block whose fixed-n 95% paired t
    interval excludes 0 (peeking) decides wrongly far more often."""
    rng = np.random.default_rng(11)
    runs, cap, precision = 400, 1500, 0.02
    d = (rng.random((runs, cap)) < 0.25).astype(float) - (rng.random((runs, cap)) < 0.25).astype(float)
    lo, hi = sq.confidence_sequence((d + 1) / 2, sq.ALPHA, precision / 2)  # as paired_interval maps it
    ends = np.arange(BLOCK, cap + 1, BLOCK) - 1
    wrong = ((lo[:, ends] > 0.5) | (hi[:, ends] < 0.5)).any(axis=1).mean()
    n = np.arange(1, cap + 1)
    mean = np.cumsum(d, axis=1) / n
    sd = np.sqrt(np.maximum(np.cumsum(d * d, axis=1) - n * mean**2, 0) / np.maximum(n - 1, 1))
    peek = (np.abs(mean) > stats.t.ppf(0.975, np.maximum(n - 1, 1)) * sd / np.sqrt(n))[:, ends].any(axis=1).mean()
    assert wrong <= 0.05 and peek > 0.2, (wrong, peek)


def test_a_rate_with_no_seat_yet_is_not_precise_and_pairs_need_both_games():
    x = np.array([[1.0, np.nan], [0.0, np.nan], [1.0, np.nan]])
    c = sq.check(x, ["seen", "unseen"], 0.4)
    assert not c.precise and c.rates[1]["n"] == 0 and c.rates[1]["mean"] is None and (c.rates[1]["lo"], c.rates[1]["hi"]) == (0, 1)
    base = np.array([[0.0, 1.0], [np.nan, 0.0], [0.0, 1.0]])
    c = sq.check(x, ["seen", "unseen"], 0.4, base=base)
    assert [d["rate"] for d in c.diffs] == ["seen"] and c.diffs[0]["pairs"] == 2 and c.diffs[0]["diff"] == 1.0


def test_game_rates_are_the_reports_win_credit_by_group():
    """A game's observation of a group is the mean win credit of its seats (a tie for first shares
    the win, analysis.data.prepare_games); a game without the group is NaN."""
    g = pl.DataFrame({
        "variant": ["base"] * 6, "players": [3] * 6, "game": [4, 4, 4, 5, 5, 5], "seat": [0, 1, 2] * 2,
        "vp": [10, 10, 5, 3, 9, 1], "winner": [1, 1, 0, 0, 1, 0], "tie": [1, 1, 0, 0, 0, 0],
        "character": ["Captain", "Bishop", "Merchant", "Captain", "Merchant", "Merchant"],
        "strategy": ["a", "b", "b", "a", "b", "b"],
    })
    rates = [("character", "Captain", "Captain"), ("character", "Bishop", "Bishop"), ("strategy", "b", "b")]
    idx, m = sq.game_rates(g.lazy(), rates)
    assert idx.tolist() == [4, 5]
    np.testing.assert_allclose(m, [[0.5, 0.5, 0.25], [0.0, np.nan, 0.5]])
