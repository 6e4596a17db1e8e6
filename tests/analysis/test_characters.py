"""analysis.characters: the per-Character pages (issue 23 part 4) on a synthetic run: each
Character's page holds its VP against the average, its opponents and three example games."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.characters import slug


def test_a_page_per_character(run, a):
    s = a.section("characters")
    chars = s.table("character_balance").df["character"].unique().to_list()
    assert sorted(sub.id for sub in s.subsections) == sorted(f"character-{slug(c)}" for c in chars)
    assert len(s.subsections) == 12
    cap = next(sub for sub in s.subsections if sub.id == "character-captain")
    g = run.games_of().collect()
    vp = cap.table("character_vp_captain").df.filter(pl.col("players") == 4)
    mil = vp.filter(pl.col("source") == "military").row(0, named=True)
    me = g.filter((pl.col("players") == 4) & (pl.col("character") == "Captain"))
    assert mil["vp"] == pytest.approx(me["vp_military"].mean())
    assert mil["average"] == pytest.approx(g.filter(pl.col("players") == 4)["vp_military"].mean())
    assert mil["vp_lo"] < mil["vp"] < mil["vp_hi"]
    opp = cap.table("character_opponents_captain").df.filter(pl.col("players") == 4)
    assert opp.height == 11 and opp["note"][0] == "best" and opp["note"][-1] == "worst" and opp["rate"][0] >= opp["rate"][-1]
    ex = cap.table("character_examples_captain").df.filter(pl.col("players") == 4)
    assert ex["example"].to_list() == ["typical win", "typical loss", "outlier"]
    rows = {r["example"]: r for r in ex.iter_rows(named=True)}
    wins = me.filter(pl.col("credit") > 0)
    assert rows["typical win"]["rank"] == 1 and rows["typical loss"]["rank"] > 1
    assert abs(rows["typical win"]["margin"] - wins["margin"].median()) == (wins["margin"] - wins["margin"].median()).abs().min()
    assert abs(rows["outlier"]["margin"]) == me["margin"].abs().max()
    assert rows["outlier"]["command"] == f"trinidad play --run {run.path.resolve()} --players 4 --index {rows['outlier']['game']}"
    cards = cap.table("character_cards_captain").df.filter(pl.col("players") == 4)
    assert cards["item"][:2].to_list() == ["Affiliate cards taken", "Affiliate card powers used"]
    assert cards["item"][0] == "Affiliate cards taken" and "card 40 (Roadmaker)" not in cards["item"].to_list()  # never used
    assert cards["ratio"][2:].is_sorted(descending=True)
    assert any(t.name == "character_examples_captain" for t in a.tables())  # sub-section tables are written with the others
    assert np.isfinite(cards["per_game"].to_numpy()).all()
