"""analysis/against_ai.py's VP by source against the A.I. on a hand-made games table: the means of both
seats, the player's lead per game with its t interval (scipy), sources neither seat scored left out."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis.against_ai import vp_sources


def _games():
    rows = []
    city = [10, 0, 20, 6]  # the player's City VP in games 0..3; the A.I.'s is 30 in each
    money = [7, 7, 0, 14]
    for g in range(4):
        rows.append({"variant": "weak", "players": 2, "game": g, "seat": 0, "strategy": "best", "vp": 50 + g, "rank": 1,
                     "vp_city": city[g], "vp_money": money[g], "vp_faith": 0})
        rows.append({"variant": "weak", "players": 2, "game": g, "seat": 1, "strategy": "ai-weak", "vp": 40, "rank": 2,
                     "vp_city": 30, "vp_money": 0, "vp_faith": 0})
    return pl.DataFrame(rows)


def test_vp_by_source_player_against_the_ai():
    t = vp_sources(_games()).df
    assert set(t["source"]) == {"city", "money"}  # faith: nobody scored from it
    city = t.filter(pl.col("source") == "city").row(0, named=True)
    assert city["ai"] == "ai-weak" and city["strategy"] == "best" and city["game"] == "Solo" and city["n"] == 4
    assert city["player_vp"] == pytest.approx(9.0) and city["ai_vp"] == pytest.approx(30.0)
    d = np.array([10, 0, 20, 6]) - 30.0
    lo, hi = sps.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=sps.sem(d))
    assert city["lead"] == pytest.approx(-21.0) and city["lead_lo"] == pytest.approx(lo) and city["lead_hi"] == pytest.approx(hi)
    money = t.filter(pl.col("source") == "money").row(0, named=True)
    assert money["lead"] == pytest.approx(7.0)
