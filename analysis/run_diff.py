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

from analysis.data import TRINIDAD, Run, RunError, load_run, vp_sources
from analysis.stats import paired_test, wilson
from analysis.tables import holm_within

KEY = ["players", "game", "seat"]
BUILT = ["lot", "house", "palace", "quarry", "carpentry", "market", "corporation", "hacienda_wood",
         "hacienda_stone", "square", "monument", "fountain", "barracks", "church"]


@dataclass
class Comparison:
    paired: bool  # the two runs share their deals: rows matched by (players, game, seat, seed, character)
    n_a: int  # seat-games
    n_b: int
    characters: pl.DataFrame  # players, character, win_a, lo_a, hi_a, win_b, lo_b, hi_b, diff, diff_lo, diff_hi, p, p_holm
    spearman: float  # rank correlation of the Characters' win rates, A against B (the largest player count)
    sources: pl.DataFrame  # source, mean_a, mean_b, diff, diff_lo, diff_hi (VP per seat per game)
    built: pl.DataFrame  # building, mean_a, mean_b (constructed per seat per game; final map counts)
    seats: pl.DataFrame = None  # players, seat (turn position from 1), the same columns as characters
    spearman_by_players: dict = None  # players -> rank correlation of the Characters' win rates


def _last_decade(run: Run) -> pl.DataFrame | None:
    if run.decades is None:
        return None
    d = run.decades_of()
    cols = d.collect_schema().names()
    keep = [f"built_{b}" for b in BUILT if f"built_{b}" in cols] + [c for c in ("houses_on_map", "palaces_on_map") if c in cols]
    return (d.filter(pl.col("decade") == pl.col("decade").max().over(KEY))
            .select(*KEY, *keep).collect())


def _diff(a: np.ndarray, b: np.ndarray, pairs: np.ndarray | None) -> dict:
    """B - A: the paired t interval of the per-deal differences when the runs share their deals,
    else Welch's two-sample t interval (scipy)."""
    if pairs is not None:
        return paired_test(pairs)
    out = {"diff": float(b.mean() - a.mean()) if len(a) and len(b) else np.nan, "diff_lo": np.nan, "diff_hi": np.nan, "p": np.nan}
    if len(a) > 1 and len(b) > 1 and (a.std() > 0 or b.std() > 0):
        r = stats.ttest_ind(b, a, equal_var=False)
        ci = r.confidence_interval(0.95)
        out.update(diff_lo=float(ci.low), diff_hi=float(ci.high), p=float(r.pvalue))
    return out


def _rates(ga: pl.DataFrame, gb: pl.DataFrame, j: pl.DataFrame | None, by: str) -> pl.DataFrame:
    """Win rate of A and B per (players, ``by``) with Wilson intervals, and B - A with its interval
    (paired or Welch, see :func:`_diff`), p and Holm p over the groups of one player count."""
    rows = []
    for (n, g), part_a in sorted(ga.group_by("players", by), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        part_b = gb.filter((pl.col("players") == n) & (pl.col(by) == g))
        ca, cb = part_a.get_column("credit").to_numpy(), part_b.get_column("credit").to_numpy()
        lo_a, hi_a = wilson(ca.sum(), len(ca))
        lo_b, hi_b = wilson(cb.sum(), len(cb))
        pairs = None
        if j is not None:
            jj = j.filter((pl.col("players") == n) & (pl.col(by) == g))
            pairs = (jj.get_column("credit_b") - jj.get_column("credit")).to_numpy()
        t = _diff(ca, cb, pairs)
        rows.append({"players": int(n), by: str(g) if by == "character" else int(g) + 1, "win_a": float(ca.mean()) if len(ca) else np.nan,
                     "lo_a": float(lo_a[0]), "hi_a": float(hi_a[0]), "win_b": float(cb.mean()) if len(cb) else np.nan,
                     "lo_b": float(lo_b[0]), "hi_b": float(hi_b[0]), "diff": t["diff"], "diff_lo": t["diff_lo"],
                     "diff_hi": t["diff_hi"], "p": t["p"]})
    out = pl.DataFrame(rows)
    return holm_within(out, ["players"]) if out.height else out


def compare_runs(path_a, path_b) -> Comparison:
    """Compare run B against run A (B - A), within each player count."""
    a, b = load_run(path_a), load_run(path_b)
    for r in (a, b):
        if r.game != TRINIDAD:
            raise RunError(f"compare: {r.path} holds a run of {r.game}: runs are compared for Trinidad only (by Character)")
    ga = a.games_of().collect()
    gb = b.games_of().collect()
    src = [c for c in vp_sources(ga.columns) if c in gb.columns]
    j = ga.join(gb, on=[*KEY, "seed", "character"], how="inner", suffix="_b")
    paired = j.height == ga.height == gb.height
    chars = _rates(ga, gb, j if paired else None, "character").sort(["players", "win_b"], descending=[False, True])
    seats = _rates(ga, gb, j if paired else None, "seat").sort("players", "seat")
    rho_by = {}
    for (n,), part in chars.partition_by("players", as_dict=True).items():
        rho_by[int(n)] = float(stats.spearmanr(part["win_a"], part["win_b"]).statistic) if part.height > 2 else np.nan
    rho = rho_by[max(rho_by)] if rho_by else np.nan
    srows = []
    for c in ["vp", *src]:
        xa, xb = ga.get_column(c).cast(pl.Float64).to_numpy(), gb.get_column(c).cast(pl.Float64).to_numpy()
        pairs = (j.get_column(f"{c}_b").cast(pl.Float64) - j.get_column(c).cast(pl.Float64)).to_numpy() if paired else None
        t = _diff(xa, xb, pairs)
        srows.append(dict(source=c.removeprefix("vp_") if c != "vp" else "total", mean_a=float(xa.mean()),
                          mean_b=float(xb.mean()), diff=t["diff"], diff_lo=t["diff_lo"], diff_hi=t["diff_hi"]))
    sources = pl.DataFrame(srows)
    da, db = _last_decade(a), _last_decade(b)
    brows = []
    if da is not None and db is not None:
        for c in da.columns:
            if c in KEY or c not in db.columns:
                continue
            brows.append(dict(building=c.removeprefix("built_"), mean_a=float(da.get_column(c).mean()), mean_b=float(db.get_column(c).mean())))
    built = pl.DataFrame(brows, schema={"building": pl.String, "mean_a": pl.Float64, "mean_b": pl.Float64})
    return Comparison(paired, ga.height, gb.height, chars, rho, sources, built, seats, rho_by)


def _pts(x: float) -> str:
    return "   n/a" if np.isnan(x) else f"{100 * x:+6.1f}"


def format_comparison(c: Comparison, name_a: str = "A", name_b: str = "B") -> list[str]:
    """The comparison as text lines (win rates in %, VP per seat per game)."""
    how = "paired by deal (game, seat)" if c.paired else "not paired: the runs do not share their deals"
    interval = "the paired t interval" if c.paired else "Welch's t interval"
    out = [f"{name_b} against {name_a}: {c.n_a:,} / {c.n_b:,} seat-games, {how}",
           "", f"win rate by Character (95% Wilson CI; difference with {interval})",
           f"  {'Character':<12} {name_a:>22} {name_b:>22}   {'B - A (points)':>22}"]
    many = c.characters["players"].n_unique() > 1
    for r in c.characters.iter_rows(named=True):
        name = f"{r['character']} ({r['players']}p)" if many else r["character"]
        out.append(f"  {name:<12} {100 * r['win_a']:5.1f}% [{100 * r['lo_a']:4.1f}, {100 * r['hi_a']:4.1f}]"
                   f"   {100 * r['win_b']:5.1f}% [{100 * r['lo_b']:4.1f}, {100 * r['hi_b']:4.1f}]"
                   f"   {_pts(r['diff'])} [{_pts(r['diff_lo'])}, {_pts(r['diff_hi'])}]")
    out.append(f"  Spearman rank correlation of the Characters' win rates: {c.spearman:.2f}")
    out += ["", f"VP per seat per game by source (difference with {interval})",
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
