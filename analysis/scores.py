"""Final score distributions and the split of final VP by source, per Character."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from analysis import stats
from analysis.data import sum_chunks, vp_sources
from analysis.tables import Table


def score_distribution(games) -> Table:
    """Per player count and Character: seats, mean final VP (t 95% CI), sd and quantiles."""
    # the run's VP histogram per Character (integer VP: a few hundred values), summed a shard at a time;
    # each group's values are then exactly its seats' VP, in order, for numpy's quantiles
    hist = sum_chunks(games, ["players", "character", "vp"], [pl.len().alias("count")], [])
    rows = []
    for (n, ch), part in sorted(hist.partition_by(["players", "character"], as_dict=True).items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        part = part.sort("vp")
        v = np.repeat(part["vp"].to_numpy().astype(float), part["count"].to_numpy())
        m, lo, hi = stats.mean_ci(v)
        q = np.quantile(v, [0.1, 0.25, 0.5, 0.75, 0.9])
        rows.append({"players": n, "character": str(ch), "n": len(v), "mean_vp": m, "mean_vp_lo": lo, "mean_vp_hi": hi,
                     "sd": float(v.std(ddof=1)) if len(v) > 1 else math.nan, "p10": q[0], "p25": q[1], "median": q[2], "p75": q[3],
                     "p90": q[4], "min": int(v.min()), "max": int(v.max())})
    t = pl.DataFrame(rows)
    pw = ""
    if t.height:
        nmin = int(t["n"].min())
        sd = float(t["sd"].median())
        m = t.group_by("players").len()["len"].max()
        mde = stats.mde_mean(nmin, sd, alpha=stats.ALPHA / max(int(m), 1), two_sample=True)
        pw = (f"Power: with n ≥ {nmin:,} seats per Character and a typical sd of {sd:.1f} VP, a difference of {mde:.1f} VP between a "
              f"Character and another is detectable with 80% power at α = 0.05/{m}.")
    return Table("scores", "Final VP by Character", t, note="Final VP (after end-of-game scoring); quantiles p10…p90.", power=pw)


def vp_split(games, by: str = "character", label: str = "Character") -> Table:
    """Per player count and Character (``by``, ``label`` in words): mean final VP by source and its share of the total."""
    names = games.lazy().collect_schema().names() if isinstance(games, (pl.DataFrame, pl.LazyFrame)) else games.columns()
    src = vp_sources(names)
    sums = sum_chunks(games, ["players", by], [pl.len().alias("_n"), *[pl.col(c).cast(pl.Float64).sum() for c in src]], src)
    long = (sums.select("players", by, *[pl.col(c) / pl.col("_n") for c in src])
            .with_columns(pl.col(by).cast(pl.String))
            .unpivot(index=["players", by], on=src, variable_name="source", value_name="mean_vp")
            .with_columns(pl.col("source").str.strip_prefix("vp_")))
    tot = long.group_by("players", by).agg(pl.col("mean_vp").sum().alias("total"))
    long = (long.join(tot, on=["players", by])
            .with_columns(pl.when(pl.col("total") != 0).then(pl.col("mean_vp") / pl.col("total")).otherwise(None).alias("share"))
            .drop("total").sort("players", by, "source"))
    active = long.group_by("source").agg(pl.col("mean_vp").abs().max().alias("m")).filter(pl.col("m") > 0)["source"]
    long = long.filter(pl.col("source").is_in(active.implode()))
    return Table("vp_split", f"Final VP by source and {label}", long,
                 note="Mean final VP per seat from each source (negative sources, e.g. war penalties, reduce the total).",
                 power="Power: descriptive means (no test).", pct={"share"}, show=False)
