"""War balance from the decades table.

The decade records hold, per decade, the faction at war (``war_faction``: 0 none, 1 Natives,
2 Pirates) and its final War Attack (``war_wa``), and per seat the cumulative ``wars_fought`` and
``wars_won``, the War Penalty position ``war_penalty``, the steps taken in this decade's war
(``war_penalty_steps``) and the Attack Value of the seat's miniatures (``military_av``).

Derived here: a seat's fights and wins per decade (differences of the cumulative counts), and
whether it *fielded* miniatures. The engine counts every seat as fighting each War, with or
without miniatures, so ``wars_fought`` alone does not say who took part. A seat fielded
miniatures when it won (a win needs Attack Value), or when it lost but took fewer penalty steps
than the War Attack would give an unarmed seat (``min(WA, penalty_max - position before)``).
A loss that ran into the end of the track is ambiguous and counted as not fielded.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl

from analysis import stats
from analysis.tables import Table, holm_within

FACTIONS = {1: "Natives", 2: "Pirates"}
AV_BINS = [(0, 0, "0"), (1, 1, "1"), (2, 2, "2"), (3, 3, "3"), (4, 4, "4"), (5, 6, "5–6"), (7, 10**6, "7+")]


def penalty_max(manifest: dict | None) -> int:
    """The War Penalty track's last position (rules ``war.penalty_max``; 10 if the manifest lacks it)."""
    try:
        return int(manifest["variants"][0]["rules"]["war"]["penalty_max"]["value"])
    except (KeyError, IndexError, TypeError, ValueError):
        return 10


def fights(decades: pl.LazyFrame, pmax: int = 10) -> pl.DataFrame:
    """One row per seat and decade with a War: fought, won, penalty steps, fielded (see module doc)."""
    key = ["players", "game", "seat"]
    d = (decades.lazy().sort(*key, "decade")
         .with_columns((pl.col("wars_fought").cast(pl.Int32) - pl.col("wars_fought").cast(pl.Int32).shift(1, fill_value=0).over(key)).alias("fought"),
                       (pl.col("wars_won").cast(pl.Int32) - pl.col("wars_won").cast(pl.Int32).shift(1, fill_value=0).over(key)).alias("won"))
         .filter(pl.col("war_faction") > 0)
         .select(*key, "decade", "era", "character", "war_faction", "war_wa", "fought", "won", "war_penalty",
                 "war_penalty_steps", "military_av"))
    pen_before = pl.col("war_penalty").cast(pl.Int32) - pl.col("war_penalty_steps").cast(pl.Int32)
    unarmed = pl.min_horizontal(pl.col("war_wa").cast(pl.Int32), pl.lit(pmax) - pen_before)
    return d.with_columns(((pl.col("won") > 0) | ((pl.col("fought") > 0) & (pl.col("war_penalty_steps").cast(pl.Int32) < unarmed)))
                          .alias("fielded"),
                          pl.col("war_faction").replace_strict(FACTIONS, default="?").alias("faction")).collect()


def wars_per_game(decades: pl.LazyFrame) -> Table:
    """Mean number of Wars per game by faction and Era, per player count (t 95% CI over games;
    games without a war in that cell count as 0)."""
    d = decades.lazy().filter(pl.col("seat") == 0).select("players", "game", "era", "war_faction").collect()
    games = d.select("players", "game").unique()
    eras = d.select("players", "era").unique()
    grid = games.join(eras, on="players").join(pl.DataFrame({"war_faction": [1, 2]}).cast(pl.Int8), how="cross")
    cnt = d.filter(pl.col("war_faction") > 0).group_by("players", "game", "era", "war_faction").agg(pl.len().alias("wars"))
    full = grid.join(cnt, on=["players", "game", "era", "war_faction"], how="left").with_columns(pl.col("wars").fill_null(0))
    rows = []
    for (n, era, f), part in sorted(full.partition_by(["players", "era", "war_faction"], as_dict=True).items()):
        m, lo, hi = stats.mean_ci(part["wars"].to_numpy())
        rows.append({"players": n, "era": era, "faction": FACTIONS.get(f, str(f)), "games": part.height,
                     "wars_per_game": m, "wars_per_game_lo": lo, "wars_per_game_hi": hi})
    t = pl.DataFrame(rows)
    tot = full.group_by("players", "game").agg(pl.col("wars").sum())
    nmin = int(tot.group_by("players").len()["len"].min()) if tot.height else 0
    sd = float(tot["wars"].std()) if tot.height > 1 else math.nan
    mde = stats.mde_mean(nmin, sd, two_sample=True) if nmin else math.nan
    return Table("wars_per_game", "Wars per game by faction and Era", t,
                 note="Wars declared per game (a decade's single War, by its faction).",
                 power=(f"Power: with {nmin:,} games, a change of {mde:.2f} Wars per game (all factions and Eras) between two runs of this "
                        "size is detectable with 80% power at α = 0.05." if nmin and np.isfinite(mde) else "Power: no Wars to test."))


def war_outcomes(f: pl.DataFrame) -> Table:
    """Fights won (share with Wilson 95% CI), by faction and Era, per player count; also the
    share of fights in which the seat fielded miniatures and the mean penalty steps of a loss."""
    t = (f.filter(pl.col("fought") > 0).group_by("players", "era", "faction")
         .agg(pl.len().alias("fights"), (pl.col("won") > 0).sum().alias("won"), pl.col("fielded").mean().alias("fielded"),
              pl.col("war_penalty_steps").filter(pl.col("won") == 0).mean().alias("steps_per_loss"),
              pl.col("war_wa").mean().alias("mean_wa"))
         .sort("players", "era", "faction"))
    lo, hi = stats.wilson(t["won"].to_numpy(), t["fights"].to_numpy())
    t = t.with_columns((pl.col("won") / pl.col("fights")).alias("win_share"), pl.Series("win_share_lo", lo), pl.Series("win_share_hi", hi))
    t = t.select("players", "era", "faction", "fights", "won", "win_share", "win_share_lo", "win_share_hi", "fielded", "steps_per_loss", "mean_wa")
    nmin = int(t["fights"].min()) if t.height else 0
    mde = stats.mde_proportion(nmin, max(min(float(t["win_share"].mean()), 0.95), 0.05), nobs2=nmin) if nmin > 1 else math.nan
    return Table("war_outcomes", "War outcomes", t,
                 note=("A fight = one seat against one War. Won: War Attack (WA) − Attack Value ≤ 0. Fielded miniatures: share of fights "
                       "with miniatures. Mean War Attack: the WA a seat faced."),
                 power=(f"Power: two cells of n ≥ {nmin:,} fights differ detectably in win share by {stats.fmt_pts(mde)} (80%, α = 0.05)."
                        if nmin > 1 else "Power: no fights to test."),
                 pct={"win_share", "win_share_lo", "win_share_hi", "fielded"})


def penalty_distribution(decades: pl.LazyFrame) -> Table:
    """Final War Penalty position (last decade record) per player count: seats and share."""
    last = decades.lazy().filter(pl.col("decade") == pl.col("decade").max().over("players"))
    t = (last.group_by("players", "war_penalty").agg(pl.len().alias("seats")).sort("players", "war_penalty")
         .with_columns((pl.col("seats") / pl.col("seats").sum().over("players")).alias("share")).collect())
    return Table("war_penalty", "Final War Penalty position", t,
                 note="War Penalty track position at the end of the last decade (negative = left of start).",
                 power="Power: descriptive distribution (no test).", pct={"share"})


def war_effects(f: pl.DataFrame, games: pl.LazyFrame | pl.DataFrame, av: pl.DataFrame | None = None) -> tuple[Table, Table]:
    """Win-rate effect of war participation and of military investment, per player count.

    Participation: seats that fielded miniatures in at least one War, and seats that won at
    least one, against the rest: win rates with Wilson CIs, the difference with a Newcombe
    score CI and a score test (statsmodels confint/test_proportions_2indep), Holm over the two
    comparisons of a player count. Investment: win rate by the seat's peak military Attack Value
    over the game (bins), and the odds ratio per AV point from a binomial GLM of the win credit
    on peak AV and Character, errors clustered by game."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    g = games.lazy().select("players", "game", "seat", "character", "credit").collect()
    per_seat = (f.group_by("players", "game", "seat")
                .agg(pl.col("fielded").any().alias("fielded"), (pl.col("won") > 0).any().alias("won_war")))
    seat = g.join(per_seat, on=["players", "game", "seat"], how="left").with_columns(
        pl.col("fielded").fill_null(False), pl.col("won_war").fill_null(False))
    rows = []
    for (n,), part in sorted(seat.partition_by("players", as_dict=True).items()):
        for factor, label in (("fielded", "fielded miniatures in a War"), ("won_war", "won a War")):
            a = part.filter(pl.col(factor))
            b = part.filter(~pl.col(factor))
            row = {"players": n, "factor": label, "n_yes": a.height, "n_no": b.height,
                   "win_rate_yes": a["credit"].mean() if a.height else math.nan,
                   "win_rate_no": b["credit"].mean() if b.height else math.nan,
                   "diff": math.nan, "diff_lo": math.nan, "diff_hi": math.nan, "p": math.nan}
            if a.height > 1 and b.height > 1:
                c1, c2 = float(a["credit"].sum()), float(b["credit"].sum())
                row["diff"] = c1 / a.height - c2 / b.height
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    lo, hi = confint_proportions_2indep(c1, a.height, c2, b.height, method="newcomb", compare="diff")
                    p = test_proportions_2indep(c1, a.height, c2, b.height, method="score", compare="diff").pvalue
                row.update(diff_lo=float(lo), diff_hi=float(hi), p=float(p))
            rows.append(row)
    part_t = pl.DataFrame(rows) if rows else pl.DataFrame()
    if part_t.height:
        part_t = holm_within(part_t, ["players"])
        lo_y, hi_y = stats.wilson(part_t["win_rate_yes"].fill_nan(0).to_numpy() * part_t["n_yes"].to_numpy(), part_t["n_yes"].to_numpy())
        part_t = part_t.with_columns(pl.Series("win_rate_yes_lo", lo_y), pl.Series("win_rate_yes_hi", hi_y))
        lo_n, hi_n = stats.wilson(part_t["win_rate_no"].fill_nan(0).to_numpy() * part_t["n_no"].to_numpy(), part_t["n_no"].to_numpy())
        part_t = part_t.with_columns(pl.Series("win_rate_no_lo", lo_n), pl.Series("win_rate_no_hi", hi_n))
        part_t = part_t.select("players", "factor", "n_yes", "win_rate_yes", "win_rate_yes_lo", "win_rate_yes_hi", "n_no", "win_rate_no",
                               "win_rate_no_lo", "win_rate_no_hi", "diff", "diff_lo", "diff_hi", "p", "p_holm")
    pw = []
    for r in rows:
        if r["n_yes"] > 1 and r["n_no"] > 1:
            mde = stats.mde_proportion(r["n_yes"], 1 / r["players"], alpha=stats.ALPHA / 2, nobs2=r["n_no"])
            pw.append(f"{r['players']} players, {r['factor']}: {stats.fmt_pts(mde)}")
    t1 = Table("war_participation", "Win rate and war participation", part_t,
               note=("Seats that fielded miniatures in (or won) at least one War against the other seats. Difference = yes − no, "
                     "Newcombe 95% CI, score-test p, Holm over the two factors of a player count. Observational: stronger "
                     "positions may both fight and win."),
               power=("Power: smallest detectable difference (80%, α = 0.05/2) — " + "; ".join(pw) + "." if pw
                      else "Power: too few seats on one side to test."),
               pct={"win_rate_yes", "win_rate_yes_lo", "win_rate_yes_hi", "win_rate_no", "win_rate_no_lo", "win_rate_no_hi",
                    "diff", "diff_lo", "diff_hi"})
    return t1, military_investment(f, seat, av)


def peak_av(decades: pl.LazyFrame) -> pl.DataFrame:
    """Peak military Attack Value per seat over the game."""
    return (decades.lazy().group_by("players", "game", "seat").agg(pl.col("military_av").max().cast(pl.Int32).alias("peak_av"))
            .collect())


def military_investment(f: pl.DataFrame, seat: pl.DataFrame, av: pl.DataFrame | None = None) -> Table:
    """Win rate by peak military AV bin (Wilson CI) and the GLM odds ratio per AV point."""
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    if av is None:
        return Table("military_investment", "Win rate by military investment", pl.DataFrame(), note="no decade records")
    s = seat.join(av, on=["players", "game", "seat"], how="left").with_columns(pl.col("peak_av").fill_null(0))
    expr = None
    for lo, hi, label in AV_BINS:
        cond = pl.col("peak_av").is_between(lo, hi)
        expr = pl.when(cond).then(pl.lit(label)) if expr is None else expr.when(cond).then(pl.lit(label))
    s = s.with_columns(expr.otherwise(None).cast(pl.Enum([b[2] for b in AV_BINS])).alias("av_bin"))
    t = s.group_by("players", "av_bin").agg(pl.len().alias("n"), pl.col("credit").sum().alias("wins")).sort("players", "av_bin")
    lo, hi = stats.wilson(t["wins"].to_numpy(), t["n"].to_numpy())
    t = t.with_columns((pl.col("wins") / pl.col("n")).alias("win_rate"), pl.Series("win_rate_lo", lo), pl.Series("win_rate_hi", hi),
                       pl.col("av_bin").cast(pl.String))
    slopes = []
    for (n,), part in sorted(s.partition_by("players", as_dict=True).items()):
        pdf = part.select("game", "character", "credit", "peak_av").to_pandas()
        pdf["character"] = pdf["character"].astype(str)
        if pdf["peak_av"].nunique() < 2 or pdf["game"].nunique() < 10:
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                formula = "credit ~ peak_av" + (" + C(character)" if pdf["character"].nunique() > 1 else "")
                res = smf.glm(formula, pdf, family=sm.families.Binomial()).fit(cov_type="cluster", cov_kwds={"groups": pdf["game"].to_numpy()})
            b = float(res.params["peak_av"])
            ci = res.conf_int(alpha=stats.ALPHA).loc["peak_av"]
            slopes.append(f"{n} players: odds ratio per AV point {math.exp(b):.3f} [{math.exp(ci.iloc[0]):.3f}, {math.exp(ci.iloc[1]):.3f}], "
                          f"p = {float(res.pvalues['peak_av']):.3g}")
        except Exception as ex:
            slopes.append(f"{n} players: model not fitted ({type(ex).__name__})")
    nmed = int(t["n"].median()) if t.height else 0
    n_players = int(t["players"].min()) if t.height else 0
    mde = stats.mde_proportion(nmed, 1 / n_players) if nmed and n_players else math.nan
    return Table("military_investment", "Win rate by military investment (peak Attack Value)", t,
                 note=("Peak AV = the highest Attack Value of the seat's miniatures at any decade end. Adjusted trend: binomial GLM of win "
                       "credit on peak AV + Character, errors clustered by game — " + ("; ".join(slopes) if slopes else "not fitted") + "."),
                 power=(f"Power: a bin of the median size (n = {nmed:,} seats) resolves ±{stats.fmt_pts(mde)} from 1/N with 80% power at "
                        "α = 0.05." if nmed else ""),
                 pct={"win_rate", "win_rate_lo", "win_rate_hi"})
