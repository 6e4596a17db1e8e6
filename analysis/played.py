"""What was played: per strategy, how often a seat-game built each Minor building type, took each
main action and free action, and what it gained (the games table's ``built_*``, ``act_*``,
``gained_*``, ``cards_taken`` and ``cards_used`` columns), and the Houses and Palaces standing at
each Scoring (the decades table's rows with ``scoring`` > 0).

Runs written before these columns existed lack them: the tables are then empty (no rows).
"""

from __future__ import annotations

import polars as pl

from sim.codes import FIRST_FREE_ACT, Act

BUILT_PREFIX = "built_"
ACT_PREFIX = "act_"
GAINS = ["gained_wood", "gained_stone", "gained_precious", "gained_metal", "cards_taken", "cards_used"]


def played_columns(columns) -> list[str]:
    """The what-was-played columns present in a games table, in table order: buildings, main
    actions, free actions, gains."""
    cols = list(columns)
    built = [c for c in cols if c.startswith(BUILT_PREFIX)]
    acts = [c for c in cols if c.startswith(ACT_PREFIX)]
    return built + acts + [c for c in GAINS if c in cols]


def item_label(col: str) -> str:
    """A column's row label: ``built palace``, ``main SHIP``, ``free F_VOTE``, ``gained metal``."""
    if col.startswith(BUILT_PREFIX):
        return "built " + col[len(BUILT_PREFIX):].replace("_", " ")
    if col.startswith(ACT_PREFIX):
        a = Act[col[len(ACT_PREFIX):].upper()]
        return ("free " if a >= FIRST_FREE_ACT else "main ") + a.name
    return col.replace("_", " ")


def played_table(games: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """One row per (strategy, item): ``share`` = the share of the strategy's seat-games with a
    count > 0, ``mean`` = the mean count per seat-game, ``n`` = seat-games. Strategies in name
    order, items in :func:`played_columns` order."""
    lf = games.lazy()
    cols = played_columns(lf.collect_schema().names())
    if not cols:
        return pl.DataFrame(schema={"strategy": pl.String, "item": pl.String, "share": pl.Float64, "mean": pl.Float64,
                                    "n": pl.UInt32})
    agg = (lf.group_by(pl.col("strategy").cast(pl.String))
           .agg([pl.len().alias("n")] + [(pl.col(c) > 0).mean().alias(f"s:{c}") for c in cols]
                + [pl.col(c).cast(pl.Float64).mean().alias(f"m:{c}") for c in cols])
           .sort("strategy").collect(engine="streaming"))
    rows = []
    for r in agg.iter_rows(named=True):
        for c in cols:
            rows.append({"strategy": r["strategy"], "item": c, "share": r[f"s:{c}"], "mean": r[f"m:{c}"], "n": r["n"]})
    return pl.DataFrame(rows, schema={"strategy": pl.String, "item": pl.String, "share": pl.Float64, "mean": pl.Float64,
                                      "n": pl.UInt32})


def scoring_table(decades: pl.LazyFrame | pl.DataFrame) -> pl.DataFrame:
    """Mean Houses and Palaces of a seat on the map at each Scoring (the decade rows with
    ``scoring`` > 0: the Era scored at the end of that decade), per strategy and Era."""
    lf = decades.lazy()
    if "scoring" not in lf.collect_schema().names():
        return pl.DataFrame(schema={"strategy": pl.String, "scoring": pl.Int8, "houses": pl.Float64, "palaces": pl.Float64,
                                    "n": pl.UInt32})
    return (lf.filter(pl.col("scoring") > 0).group_by(pl.col("strategy").cast(pl.String), "scoring")
            .agg(pl.col("houses_on_map").cast(pl.Float64).mean().alias("houses"),
                 pl.col("palaces_on_map").cast(pl.Float64).mean().alias("palaces"), pl.len().alias("n"))
            .sort("strategy", "scoring").collect(engine="streaming"))


def format_played(played: pl.DataFrame, scorings: pl.DataFrame | None = None, indent: str = "  ") -> list[str]:
    """Text lines: one row per item (those no seat ever did too: what is never played is the point),
    one column per strategy (``share  mean``); then the Houses and Palaces at each Scoring."""
    if played.height == 0:
        return []
    strategies = sorted(set(played["strategy"].to_list()))
    by = {(r["strategy"], r["item"]): r for r in played.iter_rows(named=True)}
    items = list(dict.fromkeys(played["item"].to_list()))
    w = max(14, *(len(s) for s in strategies))
    lines = [f"{indent}what was played, per seat-game: share of seat-games that did it at least once, mean count:",
             f"{indent}  {'':<22}" + "".join(f"{s:>{w + 2}}" for s in strategies),
             f"{indent}  {'seat-games':<22}" + "".join(f"{by[(s, items[0])]['n']:>{w + 2},}" for s in strategies)]
    for i in items:
        cells = []
        for s in strategies:
            r = by.get((s, i))
            cells.append(f"{'-':>{w + 2}}" if r is None else f"{r['share']:>{w - 6}.1%} {r['mean']:6.2f}")
        lines.append(f"{indent}  {item_label(i):<22}" + "".join(f"{c:>{w + 2}}" for c in cells))
    if scorings is not None and scorings.height:
        lines.append(f"{indent}Houses and Palaces of a seat on the map at each Scoring (means):")
        for s in strategies:
            sub = scorings.filter(pl.col("strategy") == s)
            if sub.height:
                lines.append(f"{indent}  {s:<{w}}  " + "  ".join(
                    f"Era {r['scoring']}: {r['houses']:.2f} Houses, {r['palaces']:.2f} Palaces" for r in sub.iter_rows(named=True)))
    return lines
