"""Two runs side by side: Character win rates, VP by source and the buildings put up, paired by
(game, seat) where the two runs played the same deals (same master seed, players and game
indices, e.g. one experiment before and after a rules or player change).

Used for the before/after measurements a rules change or a new player owes (``trinidad runs
compare A B``). Win rates are mean win credits (a tie for first shares the win, see
:mod:`analysis.data`) with Wilson intervals per run; a paired difference comes with the t interval
of the per-seat differences (:func:`analysis.stats.paired_test`), which is narrower than two
independent intervals when the deals are common.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats

from analysis.data import Run, load_run, vp_sources
from analysis.stats import paired_test, wilson

KEY = ["players", "game", "seat"]
BUILT = ["lot", "house", "palace", "quarry", "carpentry", "market", "corporation", "hacienda_wood",
         "hacienda_stone", "square", "monument", "fountain", "barracks", "church"]


@dataclass
class Comparison:
    paired: bool  # the two runs share their deals: rows matched by (players, game, seat, seed, character)
    n_a: int  # seat-games
    n_b: int
    characters: pl.DataFrame  # character, win_a, lo_a, hi_a, win_b, lo_b, hi_b, diff, diff_lo, diff_hi
    spearman: float  # rank correlation of the Characters' win rates, A against B
    sources: pl.DataFrame  # source, mean_a, mean_b, diff, diff_lo, diff_hi (VP per seat per game)
    built: pl.DataFrame  # building, mean_a, mean_b (constructed per seat per game; final map counts)


def _last_decade(run: Run) -> pl.DataFrame | None:
    if run.decades is None:
        return None
    d = run.decades_of()
    cols = d.collect_schema().names()
    keep = [f"built_{b}" for b in BUILT if f"built_{b}" in cols] + [c for c in ("houses_on_map", "palaces_on_map") if c in cols]
    return (d.filter(pl.col("decade") == pl.col("decade").max().over(KEY))
            .select(*KEY, *keep).collect())


def compare_runs(path_a, path_b) -> Comparison:
    """Compare run B against run A (B - A)."""
    a, b = load_run(path_a), load_run(path_b)
    ga = a.games_of().collect()
    gb = b.games_of().collect()
    src = [c for c in vp_sources(ga.columns) if c in gb.columns]
    j = ga.join(gb, on=[*KEY, "seed", "character"], how="inner", suffix="_b")
    paired = j.height == ga.height == gb.height
    rows = []
    for ch in ga.get_column("character").cast(pl.String).unique().sort().to_list():
        ca = ga.filter(pl.col("character").cast(pl.String) == ch).get_column("credit")
        cb = gb.filter(pl.col("character").cast(pl.String) == ch).get_column("credit")
        lo_a, hi_a = wilson(ca.sum(), len(ca))
        lo_b, hi_b = wilson(cb.sum(), len(cb))
        if paired:
            jj = j.filter(pl.col("character").cast(pl.String) == ch)
            t = paired_test((jj.get_column("credit_b") - jj.get_column("credit")).to_numpy())
        else:
            t = {"diff": float(cb.mean() - ca.mean()), "diff_lo": np.nan, "diff_hi": np.nan}
        rows.append(dict(character=ch, win_a=float(ca.mean()), lo_a=float(lo_a[0]), hi_a=float(hi_a[0]),
                         win_b=float(cb.mean()), lo_b=float(lo_b[0]), hi_b=float(hi_b[0]),
                         diff=t["diff"], diff_lo=t["diff_lo"], diff_hi=t["diff_hi"]))
    chars = pl.DataFrame(rows).sort("win_b", descending=True)
    rho = float(stats.spearmanr(chars.get_column("win_a"), chars.get_column("win_b")).statistic) if chars.height > 2 else np.nan
    srows = []
    for c in ["vp", *src]:
        if paired:
            t = paired_test((j.get_column(f"{c}_b").cast(pl.Float64) - j.get_column(c).cast(pl.Float64)).to_numpy())
        else:
            t = {"diff": float(gb.get_column(c).mean() - ga.get_column(c).mean()), "diff_lo": np.nan, "diff_hi": np.nan}
        srows.append(dict(source=c.removeprefix("vp_") if c != "vp" else "total", mean_a=float(ga.get_column(c).mean()),
                          mean_b=float(gb.get_column(c).mean()), diff=t["diff"], diff_lo=t["diff_lo"], diff_hi=t["diff_hi"]))
    sources = pl.DataFrame(srows)
    da, db = _last_decade(a), _last_decade(b)
    brows = []
    if da is not None and db is not None:
        for c in da.columns:
            if c in KEY or c not in db.columns:
                continue
            brows.append(dict(building=c.removeprefix("built_"), mean_a=float(da.get_column(c).mean()), mean_b=float(db.get_column(c).mean())))
    built = pl.DataFrame(brows, schema={"building": pl.String, "mean_a": pl.Float64, "mean_b": pl.Float64})
    return Comparison(paired, ga.height, gb.height, chars, rho, sources, built)


def _pts(x: float) -> str:
    return "   n/a" if np.isnan(x) else f"{100 * x:+6.1f}"


def format_comparison(c: Comparison, name_a: str = "A", name_b: str = "B") -> list[str]:
    """The comparison as text lines (win rates in %, VP per seat per game)."""
    how = "paired by deal (game, seat)" if c.paired else "not paired: the runs do not share their deals"
    out = [f"{name_b} against {name_a}: {c.n_a:,} / {c.n_b:,} seat-games, {how}",
           "", "win rate by Character (95% Wilson CI; difference with the paired t interval)",
           f"  {'Character':<12} {name_a:>22} {name_b:>22}   {'B - A (points)':>22}"]
    for r in c.characters.iter_rows(named=True):
        out.append(f"  {r['character']:<12} {100 * r['win_a']:5.1f}% [{100 * r['lo_a']:4.1f}, {100 * r['hi_a']:4.1f}]"
                   f"   {100 * r['win_b']:5.1f}% [{100 * r['lo_b']:4.1f}, {100 * r['hi_b']:4.1f}]"
                   f"   {_pts(r['diff'])} [{_pts(r['diff_lo'])}, {_pts(r['diff_hi'])}]")
    out.append(f"  Spearman rank correlation of the Characters' win rates: {c.spearman:.2f}")
    out += ["", "VP per seat per game by source (difference with the paired t interval)",
            f"  {'source':<16} {name_a:>8} {name_b:>8} {'B - A':>8}  95% CI"]
    for r in c.sources.iter_rows(named=True):
        if r["mean_a"] == 0 and r["mean_b"] == 0:
            continue
        ci = "" if np.isnan(r["diff_lo"]) else f"[{r['diff_lo']:+.2f}, {r['diff_hi']:+.2f}]"
        out.append(f"  {r['source']:<16} {r['mean_a']:8.2f} {r['mean_b']:8.2f} {r['diff']:+8.2f}  {ci}")
    if c.built.height:
        out += ["", "buildings per seat per game (constructed during the game; *_on_map: standing at the end)",
                f"  {'building':<16} {name_a:>8} {name_b:>8}"]
        for r in c.built.iter_rows(named=True):
            out.append(f"  {r['building']:<16} {r['mean_a']:8.3f} {r['mean_b']:8.3f}")
    return out
