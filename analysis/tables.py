"""The tidy-table container every analysis function returns (and the report section that holds them), and the shared win-rate table.

A :class:`Table` is a polars DataFrame plus what a reader needs to judge it: a title, a note
(how the numbers were made) and a power line (the smallest difference the run can detect).
Estimates with a 95% interval are stored as three columns ``x``, ``x_lo``, ``x_hi``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import polars as pl

from analysis import stats


@dataclass
class Table:
    name: str  # file stem for CSV output
    title: str
    df: pl.DataFrame
    note: str = ""
    power: str = ""
    pct: set[str] = field(default_factory=set)  # columns shown as percentages
    show: bool = True  # False: too big for the HTML page (still written as CSV/JSON)

    @property
    def empty(self) -> bool:
        return self.df.height == 0


@dataclass
class Section:
    id: str
    title: str
    intro: str = ""
    tables: list[Table] = field(default_factory=list)
    absent: str | None = None  # why the section has no analysis for this run
    bullets: list[str] = field(default_factory=list)  # plain sentences shown as a list under the intro
    subsections: list[Section] = field(default_factory=list)  # one level down (h3), e.g. one per Character

    def table(self, name: str) -> Table:
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(name)


def win_rates(games, by: list[str], family: list[str], p0: pl.Expr | float | None = None) -> pl.DataFrame:
    """Win rate (mean ``credit``) per ``by`` group with its n, Wilson 95% CI, a two-sided score
    test against ``p0`` (default 1/players) and Holm-adjusted p within each ``family`` group
    (e.g. all Characters of one player count)."""
    from analysis.data import sum_chunks

    if p0 is None:  # sums only, so a run read a shard at a time (analysis.data.Games) gives the same table
        t = sum_chunks(games, by, [pl.len().alias("n"), pl.col("credit").sum().alias("wins")], ["credit"])
        t = t.with_columns((1.0 / pl.col("players").cast(pl.Float64)).alias("expected")).sort(by) if t.height else t
    else:
        p0e = p0 if isinstance(p0, pl.Expr) else pl.lit(float(p0))
        t = (games.lazy().group_by(by).agg(pl.len().alias("n"), pl.col("credit").sum().alias("wins"), p0e.first().alias("expected"))
             .sort(by).collect())
    return rates_from_counts(t, family)


def rates_from_counts(t: pl.DataFrame, family: list[str]) -> pl.DataFrame:
    """Win rates from a table of ``n``, ``wins`` and ``expected`` per group: Wilson CI, score test
    against ``expected``, the difference and Holm p within each ``family`` group."""
    if t.height == 0:
        return t.with_columns(*(pl.lit(None, pl.Float64).alias(c) for c in ("win_rate", "win_rate_lo", "win_rate_hi", "diff", "p", "p_holm")))
    n = t["n"].to_numpy().astype(float)
    w = t["wins"].to_numpy()
    lo, hi = stats.wilson(w, n)
    p = stats.prop_test(w, n, t["expected"].to_numpy())
    t = t.with_columns(pl.Series("win_rate", w / n), pl.Series("win_rate_lo", lo), pl.Series("win_rate_hi", hi), pl.Series("p", p))
    t = t.with_columns((pl.col("win_rate") - pl.col("expected")).alias("diff"))
    return holm_within(t, family)


def holm_within(t: pl.DataFrame, family: list[str], p: str = "p", out: str = "p_holm") -> pl.DataFrame:
    """Add Holm-adjusted ``p`` per family (groups of ``family`` columns; one family if empty)."""
    if t.height == 0:
        return t.with_columns(pl.lit(None, pl.Float64).alias(out))
    t = t.with_row_index("_i")
    adj = np.full(t.height, np.nan)
    parts = t.partition_by(family, maintain_order=True) if family else [t]
    for part in parts:
        adj[part["_i"].to_numpy()] = stats.holm(part[p].to_numpy())
    return t.with_columns(pl.Series(out, adj)).drop("_i")


def power_line_rates(t: pl.DataFrame, what: str, family: list[str]) -> str:
    """'Power: ...' for a family of one-sample win-rate tests against 1/N. Uses the smallest n
    in each family and alpha = 0.05/m (Holm's strictest step), so it is a guaranteed bound."""
    if t.height == 0:
        return ""
    parts = t.partition_by(family, maintain_order=True) if family else [t]
    bits = []
    for part in parts:
        m = part.height
        n = int(part["n"].min())
        p0 = float(part["expected"][0])
        mde = stats.mde_proportion(n, p0, alpha=stats.ALPHA / max(m, 1))
        label = ", ".join(f"{part[c][0]} {c}" for c in family)
        bits.append(f"{label}: ±{stats.fmt_pts(mde)} (n ≥ {n:,} per {what}, {m} tests)")
    return ("Power: the smallest win-rate difference from the fair share 1/N detectable with 80% power at α = 0.05/m "
            "(two-sided; Holm's first step) — " + "; ".join(bits) + ".")
