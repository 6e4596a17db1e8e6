"""Era balance from the decades table (one row per game x decade x seat, VP cumulative).

Derived here rather than in the engine: the rank of a seat at a decade end (by VP, ties share
the better rank), the VP gained in each Era (cumulative VP by source at the Era's last decade
minus at the previous Era's), the end-of-game scoring (final VP by source minus the last decade
record), sole leaders and lead changes, and the deficit to the leader at each Era end.
"""

from __future__ import annotations

import polars as pl

from analysis import stats
from analysis.data import vp_sources
from analysis.tables import Table

DEFICIT_BINS = [(0, 0, "0 (leading)"), (1, 5, "1–5"), (6, 10, "6–10"), (11, 20, "11–20"), (21, 30, "21–30"), (31, 50, "31–50"),
                (51, 10**6, "51+")]


def _with_rank(dec: pl.LazyFrame) -> pl.LazyFrame:
    g = ["players", "game", "decade"]
    return dec.with_columns(pl.col("vp").rank(method="min", descending=True).over(g).cast(pl.Int16).alias("rank_now"),
                            (pl.col("vp").max().over(g) - pl.col("vp")).cast(pl.Int32).alias("deficit"))


def trajectories(decades: pl.LazyFrame) -> Table:
    """Per player count, decade and Character: mean cumulative VP and mean rank at the decade
    end (t 95% intervals from the per-seat sd)."""
    d = _with_rank(decades.lazy())
    t = (d.group_by("players", "era", "decade", "character")
         .agg(pl.len().alias("n"), pl.col("vp").mean().alias("mean_vp"), pl.col("vp").std().alias("sd_vp"),
              pl.col("rank_now").mean().alias("mean_rank"), pl.col("rank_now").std().alias("sd_rank"))
         .sort("players", "decade", "character").collect())
    t = t.with_columns(pl.col("character").cast(pl.String))
    nmin = int(t["n"].min()) if t.height else 0
    sd = float(t["sd_vp"].median()) if t.height else float("nan")
    mde = stats.mde_mean(nmin, sd, two_sample=True) if nmin else float("nan")
    return Table("trajectories", "VP and rank by decade and Character", t,
                 note="Cumulative VP and rank (1 = leading; ties share the better rank) at each decade end.",
                 power=(f"Power: with n ≥ {nmin:,} seats per Character and decade and a typical VP sd of {sd:.1f}, two Characters' mean VP "
                        f"at a decade differ detectably (80% power, α = 0.05, one comparison) by about {mde:.1f} VP." if nmin else ""),
                 show=False)


def era_gains(decades: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Per seat and period ('Era e', then 'Final scoring'): VP gained by source. An Era's gain is
    the cumulative VP by source at its last decade minus at the previous Era's last decade; the
    final scoring is the games table's final VP by source minus the last decade record."""
    d = decades.lazy()
    src = vp_sources(d.collect_schema().names())
    gsrc = [c for c in src if c in games.collect_schema().names()]
    ends = d.group_by("players", "era").agg(pl.col("decade").max().alias("end"))
    key = ["players", "game", "seat"]
    cum = (d.join(ends, left_on=["players", "era", "decade"], right_on=["players", "era", "end"])
           .select(*key, pl.col("era").cast(pl.Int8), pl.col("character").cast(pl.String), *gsrc).collect())
    # joins rather than per-column windows: one pass however many sources there are
    prev = cum.select(*key, (pl.col("era") + 1).cast(pl.Int8).alias("era"), *[pl.col(c).alias(f"{c}_prev") for c in gsrc])
    gained = (cum.join(prev, on=[*key, "era"], how="left")
              .select(*key, "character", "era", ("Era " + pl.col("era").cast(pl.String)).alias("period"),
                      *[(pl.col(c) - pl.col(f"{c}_prev").fill_null(0)).alias(c) for c in gsrc]))
    last = cum.filter(pl.col("era") == pl.col("era").max().over("players")).select(*key, *[pl.col(c).alias(f"{c}_last") for c in gsrc])
    fin = (games.lazy().select(*key, pl.col("character").cast(pl.String), *gsrc).collect().join(last, on=key)
           .select(*key, "character", pl.lit(99, pl.Int8).alias("era"), pl.lit("Final scoring").alias("period"),
                   *[(pl.col(c) - pl.col(f"{c}_last")).alias(c) for c in gsrc]))
    return pl.concat([gained, fin.select(gained.columns)])


def vp_by_era(decades: pl.LazyFrame, games: pl.LazyFrame, by_character: bool = False, gains: pl.DataFrame | None = None) -> Table:
    """Mean VP gained per seat in each Era by source, plus 'Final scoring' (the end-of-game VP
    not yet in the last decade record), per player count (and Character); see :func:`era_gains`."""
    allp = era_gains(decades, games) if gains is None else gains
    gsrc = [c for c in allp.columns if c.startswith("vp_")]
    by = ["players", "era", "period"] + (["character"] if by_character else [])
    # average per group first, then go long: the long form of every seat would be seats x periods x sources rows
    long = (allp.group_by(by).agg(pl.len().alias("n"), *[pl.col(c).mean() for c in gsrc])
            .unpivot(index=[*by, "n"], on=gsrc, variable_name="source", value_name="mean_vp")
            .with_columns(pl.col("source").str.strip_prefix("vp_"))
            .select(*by, "source", "mean_vp", "n")
            .sort(*by, "source"))
    nonzero = long.group_by("source").agg(pl.col("mean_vp").abs().max().alias("m")).filter(pl.col("m") > 0)["source"]
    long = long.filter(pl.col("source").is_in(nonzero.implode()))
    # when the last decade record already holds the end-of-game scoring, 'Final scoring' is empty
    fin_total = long.filter(pl.col("period") == "Final scoring")["mean_vp"].abs().sum()
    if fin_total == 0:
        long = long.filter(pl.col("period") != "Final scoring")
    return Table("vp_by_era_character" if by_character else "vp_by_era", "VP gained by source in each Era"
                 + (" and Character" if by_character else ""), long.drop("era"),
                 note=("Mean VP per seat gained in each Era (cumulative VP by source at the Era's last decade minus the previous "
                       "Era's); 'Final scoring' is the end-of-game VP after the last decade record."),
                 power="Power: descriptive means (no test).", show=False)


def _leaders(decades: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """(players, game, step, leader): the sole VP leader at each decade end (null when tied),
    with a last step for the final standings."""
    g = ["players", "game", "decade"]
    d = (decades.lazy().filter(pl.col("vp") == pl.col("vp").max().over(g))
         .group_by(g).agg(pl.len().alias("k"), pl.col("seat").first().alias("seat"))
         .select("players", "game", pl.col("decade").cast(pl.Int16).alias("step"),
                 pl.when(pl.col("k") == 1).then(pl.col("seat")).otherwise(None).alias("leader")))
    fin = (games.lazy().filter(pl.col("winner") == 1).group_by("players", "game")
           .agg(pl.len().alias("k"), pl.col("seat").first().alias("seat"))
           .select("players", "game", pl.lit(99, pl.Int16).alias("step"),
                   pl.when(pl.col("k") == 1).then(pl.col("seat")).otherwise(None).alias("leader")))
    return pl.concat([d, fin]).sort("players", "game", "step").collect()


def lead_changes(decades: pl.LazyFrame, games: pl.LazyFrame) -> Table:
    """Per player count: lead changes per game (mean with t CI, share of games with none, the
    share in which the final scoring changed the leader), where a change is a new sole leader
    different from the previous sole leader (decade ends, then the final standings)."""
    ld = _leaders(decades, games).drop_nulls("leader")
    ld = ld.with_columns(((pl.col("leader") != pl.col("leader").shift(1).over("players", "game"))
                          .fill_null(False)).alias("change"))
    per_game = ld.group_by("players", "game").agg(pl.col("change").sum().alias("changes"),
                                                  pl.col("change").filter(pl.col("step") == 99).any().alias("final_flip"))
    rows = []
    for (n,), part in sorted(per_game.partition_by("players", as_dict=True).items()):
        m, lo, hi = stats.mean_ci(part["changes"].to_numpy())
        flips = float(part["final_flip"].sum())
        none = float((part["changes"] == 0).sum())
        g = part.height
        flo, fhi = stats.wilson(flips, g)
        nlo, nhi = stats.wilson(none, g)
        rows.append({"players": n, "games": g, "lead_changes": m, "lead_changes_lo": lo, "lead_changes_hi": hi,
                     "no_change": none / g, "no_change_lo": nlo[0], "no_change_hi": nhi[0],
                     "final_flip": flips / g, "final_flip_lo": flo[0], "final_flip_hi": fhi[0],
                     "max_changes": int(part["changes"].max())})
    t = pl.DataFrame(rows)
    nmin = int(t["games"].min()) if t.height else 0
    sd = float(per_game["changes"].std()) if per_game.height > 1 else float("nan")
    mde = stats.mde_mean(nmin, sd, two_sample=True) if nmin else float("nan")
    return Table("lead_changes", "Lead changes", t,
                 note=("A lead change: the sole VP leader at a decade end (or in the final standings) differs from the previous sole "
                       "leader; decades with a shared lead are skipped. Final scoring changed the leader: the share of games whose final "
                       "scoring changed the sole leader."),
                 power=(f"Power: with {nmin:,} games, a difference of {mde:.2f} lead changes per game between two runs of this size "
                        "is detectable with 80% power (α = 0.05)." if nmin else ""),
                 pct={"no_change", "no_change_lo", "no_change_hi", "final_flip", "final_flip_lo", "final_flip_hi"})


def lead_change_counts(decades: pl.LazyFrame, games: pl.LazyFrame) -> pl.DataFrame:
    """Distribution of lead changes per game: (players, changes, games, share)."""
    ld = _leaders(decades, games).drop_nulls("leader")
    ld = ld.with_columns(((pl.col("leader") != pl.col("leader").shift(1).over("players", "game")).fill_null(False)).alias("change"))
    per_game = ld.group_by("players", "game").agg(pl.col("change").sum().alias("changes"))
    return (per_game.group_by("players", "changes").agg(pl.len().alias("games"))
            .with_columns((pl.col("games") / pl.col("games").sum().over("players")).alias("share")).sort("players", "changes"))


def comebacks(decades: pl.LazyFrame, games: pl.LazyFrame) -> Table:
    """Comeback probability: win rate (mean credit, Wilson 95% CI) of seats by their VP deficit
    to the leader at the end of each Era, per player count."""
    d = _with_rank(decades.lazy())
    # the last Era ends with the game: a deficit there is final, so only earlier Era ends are shown
    ends = (d.group_by("players", "era").agg(pl.col("decade").max().alias("end"))
            .filter(pl.col("end") < pl.col("end").max().over("players")))
    at = d.join(ends, left_on=["players", "era", "decade"], right_on=["players", "era", "end"]).select(
        "players", "game", "seat", "era", "deficit")
    expr = None
    for lo, hi, label in DEFICIT_BINS:
        cond = pl.col("deficit").is_between(lo, hi)
        expr = pl.when(cond).then(pl.lit(label)) if expr is None else expr.when(cond).then(pl.lit(label))
    order = pl.Enum([b[2] for b in DEFICIT_BINS])
    at = at.with_columns(expr.otherwise(None).cast(order).alias("deficit_bin"))
    j = at.join(games.lazy().select("players", "game", "seat", "credit"), on=["players", "game", "seat"])
    t = (j.group_by("players", "era", "deficit_bin").agg(pl.len().alias("n"), pl.col("credit").sum().alias("wins"))
         .sort("players", "era", "deficit_bin").collect())
    lo, hi = stats.wilson(t["wins"].to_numpy(), t["n"].to_numpy())
    t = t.with_columns((pl.col("wins") / pl.col("n")).alias("win_rate"), pl.Series("win_rate_lo", lo), pl.Series("win_rate_hi", hi),
                       pl.col("deficit_bin").cast(pl.String))
    nmed = int(t["n"].median()) if t.height else 0
    pw = ""
    if nmed:
        n_players = int(t["players"].min())
        mde = stats.mde_proportion(nmed, 1 / n_players)
        pw = (f"Power: a bin of the median size (n = {nmed:,} seats) resolves a win rate ±{stats.fmt_pts(mde)} from 1/N "
              f"({n_players} players) with 80% power at α = 0.05.")
    return Table("comebacks", "Comeback probability by deficit at each Era end", t,
                 note=("Deficit = leader's VP − own VP at the Era's last decade; win rate = mean win credit of those seats. The last "
                       "Era's end is the end of the game, so it is not shown."),
                 power=pw, pct={"win_rate", "win_rate_lo", "win_rate_hi"})
