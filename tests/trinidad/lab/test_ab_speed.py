"""trinidad.lab.ab_speed: the alternating pairs' summary (medians, the ratio's interval, Wilcoxon),
callgrind's count read from its output, and the engine's run in a fresh process of this tree, with
the callgrind marks loaded (natively they do nothing)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from trinidad.lab.ab_speed import ROOT, build_marks, callgrind_total, paired_summary, play


def _drifting(n: int, seed: int) -> np.ndarray:
    """Rates of a machine that drifts by 3x over a session: what alternating pairs cancel."""
    rng = np.random.default_rng(seed)
    return 1000.0 * np.exp(np.linspace(0, np.log(3), n)) * (1 + 0.01 * rng.standard_normal(n))


def test_a_build_three_percent_slower_is_found_through_the_drift():
    base = _drifting(20, 1)
    tree = base * 0.97 * (1 + 0.005 * np.random.default_rng(2).standard_normal(20))
    s = paired_summary(base, tree)
    assert s["pairs"] == 20 and s["tree_slower"] == 20
    assert s["ratio_ci"][1] < 1 and abs(s["ratio_median"] - 0.97) < 0.01
    assert s["wilcoxon_p"] == pytest.approx(stats.wilcoxon(tree, base).pvalue) and s["wilcoxon_p"] < 0.001
    # the medians of each build alone carry the drift, not the difference
    assert s["base_median"] == pytest.approx(np.median(base))


def test_the_same_build_twice_gives_an_interval_around_one():
    base = _drifting(20, 3)
    tree = base * (1 + 0.01 * np.random.default_rng(4).standard_normal(20))
    s = paired_summary(base, tree)
    assert s["ratio_ci"][0] < 1 < s["ratio_ci"][1] and s["wilcoxon_p"] > 0.05


def test_the_ratio_is_the_median_of_the_pairs_ratios():
    s = paired_summary([100, 200, 400], [110, 180, 400])
    assert s["ratio_median"] == pytest.approx(1.0) and s["tree_slower"] == 1
    with pytest.raises(ValueError, match="two equal lists"):
        paired_summary([1, 2], [1])


def test_callgrind_total_reads_the_collected_line():
    out = "==10378== Events    : Ir\n==10378== Collected : 5259467258\n==10378== \n==10378== I   refs:      5,259,467,258\n"
    assert callgrind_total(out) == 5_259_467_258
    with pytest.raises(ValueError, match="Collected"):
        callgrind_total("==1== error")


def test_a_run_of_this_tree_counts_its_games(engine, tmp_path):
    r, _ = play(ROOT, 3)
    assert r["games"] == 3 and r["cpu_s"] > 0 and r["wall_s"] > 0
    if shutil.which("cc") and Path("/usr/include/valgrind/callgrind.h").exists():
        r, _ = play(ROOT, 2, env={"AB_SPEED_MARKS": str(build_marks(tmp_path))})
        assert r["games"] == 2
