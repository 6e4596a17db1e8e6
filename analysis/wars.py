"""War balance from the decades table, under either War rules.

The decade records hold, per decade, the faction of the War declared at its end (``war_faction``:
0 none, 1 Natives, 2 Pirates) and the base War's final War Attack (``war_wa``), and per seat the
cumulative ``wars_fought`` and ``wars_won``, the War Penalty position ``war_penalty``, the base
War's steps taken in this decade's war (``war_penalty_steps``) and the Attack Value of the seat's
miniatures under the War rules in play (``military_av``). The war tallies (sim.state ``TS``/``TG``,
cumulative like ``wars_fought``) count what happened as it happened: ``fights`` (base War: battles
with miniatures fielded; Extended War: Fight!s of the seat's miniatures), ``fights_won`` /
``fights_lost``, ``wounds_taken``, ``minis_lost``, ``war_vp`` (VP the War assigned: cards 34, 55,
57), the Extended War's ``xw_penalties`` / ``xw_cancelled`` (War penalties taken at a war's end and
cancelled by control cards), ``xw_pillage`` (pillage markers in districts holding the seat's
buildings), ``xw_defeated``, Fight!s by attacker kind and by the seat's miniature kind, and per
game ``rounds``, ``xw_rounds``, ``wars_natives`` / ``wars_pirates`` (Wars fought), ``xw_attackers``,
``xw_left``, ``xw_pillage_score``. A decade's count is the difference of two decade ends.

Normal War (C.3 WAR): each declared War is fought at once at the End of the decade Phase, so a
decade's ``war_faction`` is the War its seats fought. A seat *fielded* miniatures when its
``fights`` grew in that decade. Runs recorded before the tallies lack ``fights``: there it is
derived from the penalty steps, as before: the engine counts every seat as fighting each War, with
or without miniatures, so ``wars_fought`` alone does not say who took part; a seat fielded
miniatures when it won (a win needs Attack Value), or when it lost but took fewer penalty steps
than the War Attack would give an unarmed seat (``min(WA, penalty_max - position before)``); a
loss that ran into the end of the track is ambiguous and counted as not fielded.

Extended War (the expansion, rules ``extended_war.enabled``): a War declared at the end of decade
d is fought in decade d + 1 (the last decade's at once), so ``war_faction`` and ``war_penalty_steps``
do not describe the War a decade's seats fought. Here a War belongs to the decade it ended in
(``wars_natives`` / ``wars_pirates`` grew), in that decade's Era; a seat fielded miniatures when
its Fight!s grew; it won the War with no penalty left after its control cards (``wars_won``).
:func:`extended_war` reads which rules a variant played from the manifest.
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
# the Extended War's miniatures are worth 2, 4, 5 and 10 AV (MINIATURE AV, HP & INITIATIVE): wider bins
XW_AV_BINS = [(0, 0, "0"), (1, 4, "1–4"), (5, 9, "5–9"), (10, 14, "10–14"), (15, 19, "15–19"), (20, 10**6, "20+")]
# attacker kinds (sim.state.AK) and the players' miniature kinds (sim.state.Mini 1..4): column stem, label, faction
ATTACKERS = [("indio", "Indio", "Natives"), ("warrior", "Warrior", "Natives"), ("freebooter", "Freebooter", "Pirates"),
             ("captain", "Captain", "Pirates")]
MINIATURES = [("miliciano", "Miliciano"), ("miliciano_vet", "veteran Miliciano"), ("soldier", "Soldier"), ("soldier_vet", "veteran Soldier")]
KEY = ["players", "game", "seat"]


def extended_war(manifest: dict | None, variant: str) -> bool:
    """Whether ``variant`` played the Extended War (its resolved rules' ``extended_war.enabled``;
    False when the manifest does not say, as for runs written before the expansion)."""
    for v in (manifest or {}).get("variants", []):
        if v.get("name") == variant:
            try:
                return bool(v["rules"]["extended_war"]["enabled"]["value"])
            except (KeyError, TypeError):
                return False
    return False


def has_tallies(decades: pl.LazyFrame | pl.DataFrame) -> bool:
    """The decades table holds the war tallies (runs written since they were recorded)."""
    return "fights" in decades.lazy().collect_schema().names()


def _diffs(decades: pl.LazyFrame, cols: list[str], key: list[str] = KEY) -> pl.LazyFrame:
    """Each cumulative column of ``cols`` as its growth in the decade (``d_<col>``), rows sorted by
    ``key`` and decade."""
    return decades.lazy().sort(*key, "decade").with_columns(
        (pl.col(c).cast(pl.Int32) - pl.col(c).cast(pl.Int32).shift(1, fill_value=0).over(key)).alias(f"d_{c}") for c in cols)


def _faction_of(nat: pl.Expr, pir: pl.Expr) -> pl.Expr:
    """The faction of a decade's War(s) from the Wars fought against each: both in one decade (the
    last decade's own War after the one declared before it) reads "both"."""
    return (pl.when((nat > 0) & (pir > 0)).then(pl.lit("both")).when(nat > 0).then(pl.lit("Natives"))
            .when(pir > 0).then(pl.lit("Pirates")).otherwise(pl.lit(None, pl.String)))


def penalty_max(manifest: dict | None) -> int:
    """The War Penalty track's last position (rules ``war.penalty_max``; 10 if the manifest lacks it)."""
    try:
        return int(manifest["variants"][0]["rules"]["war"]["penalty_max"]["value"])
    except (KeyError, IndexError, TypeError, ValueError):
        return 10


def fights(decades: pl.LazyFrame, pmax: int = 10) -> pl.DataFrame:
    """Normal War: one row per seat and decade with a War: fought, won, penalty steps, fielded
    (recorded, or derived for runs without the tallies: see module doc)."""
    if has_tallies(decades):
        d = (_diffs(decades, ["wars_fought", "wars_won", "fights"]).filter(pl.col("war_faction") > 0)
             .select(*KEY, "decade", "era", "character", "war_faction", "war_wa", pl.col("d_wars_fought").alias("fought"),
                     pl.col("d_wars_won").alias("won"), "war_penalty", "war_penalty_steps", "military_av",
                     (pl.col("d_fights") > 0).alias("fielded")))
        return d.with_columns(pl.col("war_faction").replace_strict(FACTIONS, default="?").alias("faction")).collect()
    key = KEY
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


def wars_per_game(decades: pl.LazyFrame, xw: bool = False, name: str = "wars_per_game") -> Table:
    """Mean number of Wars per game by faction and Era, per player count (t 95% CI over games;
    games without a war in that cell count as 0). Normal War: the Wars declared (and fought) in
    each decade; Extended War (``xw``): the Wars fought, in the Era of the decade they ended in."""
    if xw:
        d = (_diffs(decades.lazy().filter(pl.col("seat") == 0), ["wars_natives", "wars_pirates"])
             .select("players", "game", "era", "d_wars_natives", "d_wars_pirates").collect())
        parts = [d.select("players", "game", "era", pl.lit(f, pl.Int8).alias("war_faction"), pl.col(c).alias("wars"))
                 for f, c in ((1, "d_wars_natives"), (2, "d_wars_pirates"))]
        cnt = pl.concat(parts).filter(pl.col("wars") > 0).group_by("players", "game", "era", "war_faction").agg(pl.col("wars").sum())
    else:
        d = decades.lazy().filter(pl.col("seat") == 0).select("players", "game", "era", "war_faction").collect()
        cnt = d.filter(pl.col("war_faction") > 0).group_by("players", "game", "era", "war_faction").agg(pl.len().alias("wars"))
    games = d.select("players", "game").unique()
    eras = d.select("players", "era").unique()
    grid = games.join(eras, on="players").join(pl.DataFrame({"war_faction": [1, 2]}).cast(pl.Int8), how="cross")
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
    note = ("Extended War: Wars fought per game, by faction and the Era of the decade the War was fought in (declared at the end of "
            "the decade before; the last decade's own War at once)." if xw else "Wars declared per game (a decade's single War, by its faction).")
    return Table(name, "Wars per game by faction and Era", t, note=note,
                 power=(f"Power: with {nmin:,} games, a change of {mde:.2f} Wars per game (all factions and Eras) between two runs of this "
                        "size is detectable with 80% power at α = 0.05." if nmin and np.isfinite(mde) else "Power: no Wars to test."))


def war_outcomes(f: pl.DataFrame, name: str = "war_outcomes") -> Table:
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
    return Table(name, "War outcomes", t,
                 note=("A fight = one seat against one War. Won: War Attack (WA) − Attack Value ≤ 0. Fielded miniatures: share of fights "
                       "with miniatures. Mean War Attack: the WA a seat faced."),
                 power=(f"Power: two cells of n ≥ {nmin:,} fights differ detectably in win share by {stats.fmt_pts(mde)} (80%, α = 0.05)."
                        if nmin > 1 else "Power: no fights to test."),
                 pct={"win_share", "win_share_lo", "win_share_hi", "fielded"})


def penalty_distribution(decades: pl.LazyFrame, name: str = "war_penalty") -> Table:
    """Final War Penalty position (last decade record) per player count: seats and share."""
    last = decades.lazy().filter(pl.col("decade") == pl.col("decade").max().over("players"))
    t = (last.group_by("players", "war_penalty").agg(pl.len().alias("seats")).sort("players", "war_penalty")
         .with_columns((pl.col("seats") / pl.col("seats").sum().over("players")).alias("share")).collect())
    return Table(name, "Final War Penalty position", t,
                 note="War Penalty track position at the end of the last decade (negative = left of start).",
                 power="Power: descriptive distribution (no test).", pct={"share"})


def war_effects(f: pl.DataFrame, games: pl.LazyFrame | pl.DataFrame, av: pl.DataFrame | None = None, xw: bool = False,
                suffix: str = "") -> tuple[Table, Table]:
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
    t1 = Table(f"war_participation{suffix}", "Win rate and war participation", part_t,
               note=("Seats that fielded miniatures in (or won) at least one War against the other seats. Difference = yes − no, "
                     "Newcombe 95% CI, score-test p, Holm over the two factors of a player count. Observational: stronger "
                     "positions may both fight and win."),
               power=("Power: smallest detectable difference (80%, α = 0.05/2) — " + "; ".join(pw) + "." if pw
                      else "Power: too few seats on one side to test."),
               pct={"win_rate_yes", "win_rate_yes_lo", "win_rate_yes_hi", "win_rate_no", "win_rate_no_lo", "win_rate_no_hi",
                    "diff", "diff_lo", "diff_hi"})
    return t1, military_investment(f, seat, av, XW_AV_BINS if xw else AV_BINS, f"military_investment{suffix}")


def peak_av(decades: pl.LazyFrame) -> pl.DataFrame:
    """Peak military Attack Value per seat over the game."""
    return (decades.lazy().group_by("players", "game", "seat").agg(pl.col("military_av").max().cast(pl.Int32).alias("peak_av"))
            .collect())


def military_investment(f: pl.DataFrame, seat: pl.DataFrame, av: pl.DataFrame | None = None, bins=AV_BINS,
                        name: str = "military_investment") -> Table:
    """Win rate by peak military AV bin (Wilson CI) and the GLM odds ratio per AV point."""
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    if av is None:
        return Table(name, "Win rate by military investment", pl.DataFrame(), note="no decade records")
    s = seat.join(av, on=["players", "game", "seat"], how="left").with_columns(pl.col("peak_av").fill_null(0))
    expr = None
    for lo, hi, label in bins:
        cond = pl.col("peak_av").is_between(lo, hi)
        expr = pl.when(cond).then(pl.lit(label)) if expr is None else expr.when(cond).then(pl.lit(label))
    s = s.with_columns(expr.otherwise(None).cast(pl.Enum([b[2] for b in bins])).alias("av_bin"))
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
    return Table(name, "Win rate by military investment (peak Attack Value)", t,
                 note=("Peak AV = the highest Attack Value of the seat's miniatures at any decade end (under the War rules played: the "
                       "Extended War's miniatures are worth 2/4/5/10 AV). Adjusted trend: binomial GLM of win "
                       "credit on peak AV + Character, errors clustered by game — " + ("; ".join(slopes) if slopes else "not fitted") + "."),
                 power=(f"Power: a bin of the median size (n = {nmed:,} seats) resolves ±{stats.fmt_pts(mde)} from 1/N with 80% power at "
                        "α = 0.05." if nmed else ""),
                 pct={"win_rate", "win_rate_lo", "win_rate_hi"})


# ----------------------------------------------------------------------------- the Extended War

_XW_SEAT = ["wars_fought", "wars_won", "fights", "fights_won", "fights_lost", "wounds_taken", "minis_lost", "war_vp", "xw_penalties",
            "xw_cancelled", "xw_pillage", "xw_defeated", "wars_natives", "wars_pirates", "war_penalty"]


def xw_fights(decades: pl.LazyFrame) -> pl.DataFrame:
    """Extended War: one row per seat and decade in which a War ended (see module doc): Wars fought
    (``fought``) and won, ``fielded`` (its miniatures fought), its Fight!s won and lost, Wounds and
    miniatures lost, War penalties taken and cancelled, pillage markers on its districts, attackers
    defeated, VP the War assigned, and the War Penalty track's move (``war_penalty_steps``)."""
    d = (_diffs(decades, _XW_SEAT).filter((pl.col("d_wars_natives") + pl.col("d_wars_pirates")) > 0)
         .select(*KEY, "decade", "era", "character", "turn_pos", "military_av",
                 _faction_of(pl.col("d_wars_natives"), pl.col("d_wars_pirates")).alias("faction"),
                 (pl.col("d_wars_natives") + pl.col("d_wars_pirates")).alias("wars"),
                 pl.col("d_wars_fought").alias("fought"), pl.col("d_wars_won").alias("won"), (pl.col("d_fights") > 0).alias("fielded"),
                 pl.col("d_fights").alias("fights"), pl.col("d_fights_won").alias("fights_won"), pl.col("d_fights_lost").alias("fights_lost"),
                 pl.col("d_wounds_taken").alias("wounds"), pl.col("d_minis_lost").alias("minis_lost"), pl.col("d_war_vp").alias("war_vp"),
                 pl.col("d_xw_penalties").alias("penalties"), pl.col("d_xw_cancelled").alias("cancelled"),
                 pl.col("d_xw_pillage").alias("pillage"), pl.col("d_xw_defeated").alias("defeated"), "war_penalty",
                 pl.col("d_war_penalty").alias("war_penalty_steps")))
    return d.collect()


def xw_war_outcomes(f: pl.DataFrame, name: str = "war_outcomes") -> Table:
    """Extended War outcomes per player count, Era and faction: the share of a seat's Wars won
    (Wilson CI; won = no War penalty left after its control cards), the share in which its
    miniatures fought, its Fight!s and their win share, and per seat and War the penalties taken,
    cancelled, and the pillage markers in districts holding its buildings."""
    t = (f.group_by("players", "era", "faction")
         .agg(pl.col("fought").sum().alias("seat_wars"), pl.col("won").sum().alias("won"), pl.col("fielded").mean().alias("fielded"),
              pl.col("fights").sum().alias("fights"), pl.col("fights_won").sum().alias("fights_won"),
              (pl.col("penalties").sum() / pl.col("fought").sum()).alias("penalties"),
              (pl.col("cancelled").sum() / pl.col("fought").sum()).alias("cancelled"),
              (pl.col("pillage").sum() / pl.col("fought").sum()).alias("pillage"),
              (pl.col("war_penalty_steps").filter(pl.col("won") == 0).mean()).alias("steps_per_lost_war"))
         .sort("players", "era", "faction"))
    lo, hi = stats.wilson(t["won"].to_numpy(), t["seat_wars"].to_numpy())
    t = t.with_columns((pl.col("won") / pl.col("seat_wars")).alias("war_win_share"), pl.Series("war_win_share_lo", lo),
                       pl.Series("war_win_share_hi", hi), (pl.col("fights") / pl.col("seat_wars")).alias("fights_per_war"),
                       (pl.col("fights_won") / pl.col("fights")).alias("fight_win_share"))
    t = t.select("players", "era", "faction", "seat_wars", "won", "war_win_share", "war_win_share_lo", "war_win_share_hi", "fielded",
                 "fights_per_war", "fight_win_share", "penalties", "cancelled", "pillage", "steps_per_lost_war")
    nmin = int(t["seat_wars"].min()) if t.height else 0
    mde = stats.mde_proportion(nmin, max(min(float(t["war_win_share"].mean()), 0.95), 0.05), nobs2=nmin) if nmin > 1 else math.nan
    return Table(name, "War outcomes (Extended War)", t,
                 note=("One row per seat and War it took part in (every seat takes part in every War; 'both': a decade in which a War "
                       "against each faction ended). Won: no War penalty left after the control cards (END OF THE WAR). Fielded: share of "
                       "seat-Wars in which its miniatures fought. Penalties, cancelled, pillage: per seat and War (penalties = the pillage "
                       "score + the attackers left; cancelled: 1 per 2 HP of its control cards; pillage: markers put in districts holding "
                       "its buildings). War Penalty steps per lost War: the marker stops at the track's end (then the City Council "
                       "marker moves down instead)."),
                 power=(f"Power: two cells of n ≥ {nmin:,} seat-Wars differ detectably in win share by {stats.fmt_pts(mde)} (80%, α = 0.05)."
                        if nmin > 1 else "Power: no Wars to test."),
                 pct={"war_win_share", "war_win_share_lo", "war_win_share_hi", "fielded", "fight_win_share"})


def xw_fight_kinds(decades: pl.LazyFrame, name: str = "xw_fights") -> Table:
    """Extended War Fight!s per player count and Era, by the attacker kind fought and by the seat's
    miniature kind: Fight!s and the share the players won (Wilson CI)."""
    cols = ([f"xw_fights_vs_{k}" for k, _, _ in ATTACKERS] + [f"xw_won_vs_{k}" for k, _, _ in ATTACKERS]
            + [f"xw_fights_{k}" for k, _ in MINIATURES] + [f"xw_won_{k}" for k, _ in MINIATURES])
    per = _diffs(decades, cols).group_by("players", "era").agg(pl.col(f"d_{c}").sum().alias(c) for c in cols).collect()
    rows = []
    for r in per.iter_rows(named=True):
        for k, label, faction in ATTACKERS:
            rows.append({"players": r["players"], "era": r["era"], "by": "attacker", "kind": label, "faction": faction,
                         "fights": r[f"xw_fights_vs_{k}"], "won": r[f"xw_won_vs_{k}"]})
        for k, label in MINIATURES:
            rows.append({"players": r["players"], "era": r["era"], "by": "miniature", "kind": label, "faction": "",
                         "fights": r[f"xw_fights_{k}"], "won": r[f"xw_won_{k}"]})
    t = pl.DataFrame(rows) if rows else pl.DataFrame(schema={"players": pl.Int8, "era": pl.Int8, "by": pl.String, "kind": pl.String,
                                                             "faction": pl.String, "fights": pl.Int64, "won": pl.Int64})
    t = t.filter(pl.col("fights") > 0).sort("players", "by", "era", "kind")
    lo, hi = stats.wilson(t["won"].to_numpy(), t["fights"].to_numpy())
    t = t.with_columns((pl.col("won") / pl.col("fights")).alias("win_share"), pl.Series("win_share_lo", lo), pl.Series("win_share_hi", hi))
    nmin = int(t["fights"].min()) if t.height else 0
    mde = stats.mde_proportion(nmin, 0.5, nobs2=nmin) if nmin > 1 else math.nan
    return Table(name, "Fight!s and their win share by attacker kind, miniature kind and Era (Extended War)", t,
                 note=("Every Fight! of a player miniature against an attacker, in the Era it was fought: by the attacker's kind (Indio, "
                       "Warrior: Natives; Freebooter, Captain: Pirates; Elite: Warrior, Captain) and by the player miniature's kind. Won: "
                       "the player's side won it (FIGHT! 5: the higher final AV; a tie has no winner, it counts as not won)."),
                 power=(f"Power: two cells of n ≥ {nmin:,} Fight!s differ detectably in win share by {stats.fmt_pts(mde)} around 50% "
                        "(80%, α = 0.05)." if nmin > 1 else "Power: no Fight! to test."),
                 pct={"win_share", "win_share_lo", "win_share_hi"})


def xw_wars(decades: pl.LazyFrame, name: str = "xw_wars") -> Table:
    """Extended War: each War's course per player count, faction and Era: attackers placed,
    defeated by the players, left at the end, the pillage score, war rounds, and the share of Wars
    the players ended with no penalty at all (every attacker defeated, no pillage)."""
    g = ["xw_attackers", "xw_left", "xw_pillage_score", "xw_rounds", "wars_natives", "wars_pirates"]
    game_key = ["players", "game"]
    seat0 = _diffs(decades.lazy().filter(pl.col("seat") == 0), g, game_key)
    defeated = _diffs(decades, ["xw_defeated"]).group_by(*game_key, "decade").agg(pl.col("d_xw_defeated").sum().alias("defeated"))
    d = (seat0.join(defeated, on=[*game_key, "decade"], how="left")
         .with_columns((pl.col("d_wars_natives") + pl.col("d_wars_pirates")).alias("wars"),
                       _faction_of(pl.col("d_wars_natives"), pl.col("d_wars_pirates")).alias("faction"))
         .filter(pl.col("wars") > 0).collect())
    t = (d.group_by("players", "era", "faction")
         .agg(pl.col("wars").sum(), pl.col("d_xw_attackers").sum().alias("attackers"), pl.col("defeated").sum(),
              pl.col("d_xw_left").sum().alias("left"), pl.col("d_xw_pillage_score").sum().alias("pillage_score"),
              pl.col("d_xw_rounds").sum().alias("rounds"),
              ((pl.col("d_xw_left") + pl.col("d_xw_pillage_score")) == 0).sum().alias("clean"))
         .sort("players", "era", "faction"))
    per = [pl.col(c) / pl.col("wars") for c in ("attackers", "defeated", "left", "pillage_score", "rounds")]
    lo, hi = stats.wilson(t["clean"].to_numpy(), t["wars"].to_numpy())
    t = t.with_columns(*per, (pl.col("clean") / pl.col("wars")).alias("clean_share"), pl.Series("clean_share_lo", lo),
                       pl.Series("clean_share_hi", hi)).drop("clean")
    return Table(name, "The Wars' course (Extended War)", t,
                 note=("Per War (means): attackers placed at the Combat Area setup (the War Table), attackers the players defeated "
                       "(control cards gained), attackers left at the war's end, the pillage score (END OF THE WAR 1), war rounds played "
                       "(Action phase rounds with the war on, or the last decade's rounds). clean_share: Wars that ended with no War "
                       "penalty for anyone (no attacker left, no pillage score), Wilson 95% CI. Decade 12 may end two Wars (the one "
                       "declared before it and its own): such a decade's totals are divided by its Wars."),
                 power="Power: descriptive (no test).", pct={"clean_share", "clean_share_lo", "clean_share_hi"})


def xw_characters(f: pl.DataFrame, name: str = "xw_characters") -> Table:
    """Extended War per player count and Character: the share of its Wars won (Wilson CI), per
    seat and War its Fight!s and their win share, penalties taken and cancelled, pillage on its
    districts, attackers defeated, miniatures lost and VP the War assigned."""
    t = (f.group_by("players", "character")
         .agg(pl.col("fought").sum().alias("seat_wars"), pl.col("won").sum().alias("won"),
              (pl.col("fights").sum() / pl.col("fought").sum()).alias("fights_per_war"),
              *((pl.col(c).sum() / pl.col("fought").sum()).alias(c)
                for c in ("penalties", "cancelled", "pillage", "defeated", "minis_lost", "war_vp")),
              (pl.col("fights_won").sum() / pl.col("fights").sum()).alias("fight_win_share"))
         .with_columns(pl.col("character").cast(pl.String)).sort("players", "character"))
    lo, hi = stats.wilson(t["won"].to_numpy(), t["seat_wars"].to_numpy())
    t = t.with_columns((pl.col("won") / pl.col("seat_wars")).alias("war_win_share"), pl.Series("war_win_share_lo", lo),
                       pl.Series("war_win_share_hi", hi))
    t = t.select("players", "character", "seat_wars", "won", "war_win_share", "war_win_share_lo", "war_win_share_hi", "fights_per_war",
                 "fight_win_share", "penalties", "cancelled", "pillage", "defeated", "minis_lost", "war_vp")
    return Table(name, "Wars by Character (Extended War)", t,
                 note=("Per seat and War, by the seat's Character: Wars won (no penalty left), Fight!s of its miniatures and the share "
                       "won, War penalties taken and cancelled by its control cards, pillage markers in districts holding its buildings, "
                       "attackers it defeated, miniatures it lost and VP the War assigned (cards 34, 55)."),
                 power="Power: descriptive; the Character win rates are in Character balance.",
                 pct={"war_win_share", "war_win_share_lo", "war_win_share_hi", "fight_win_share"})


def war_tables(dec: pl.LazyFrame, games: pl.LazyFrame, manifest: dict | None, xw: bool, suffix: str = "") -> tuple[list[Table], str | None]:
    """The War balance tables of one variant's decades and games: (tables, why there are no
    outcomes, or None). ``xw``: the variant played the Extended War; ``suffix`` ends every table name
    (a variant's tables beside the baseline's)."""
    if xw and not has_tallies(dec):
        return [], "This run's decade records predate the war tallies, which the Extended War's tables need."
    tables = [wars_per_game(dec, xw, f"wars_per_game{suffix}")]
    f = xw_fights(dec) if xw else fights(dec, penalty_max(manifest))
    if f.height == 0:
        return tables, "No War was declared in any game of this run: there are no outcomes or participation effects to show."
    part, inv = war_effects(f, games, peak_av(dec), xw, suffix)
    if xw:
        tables += [xw_war_outcomes(f, f"war_outcomes{suffix}"), xw_fight_kinds(dec, f"xw_fights{suffix}"), xw_wars(dec, f"xw_wars{suffix}"),
                   xw_characters(f, f"xw_characters{suffix}")]
    else:
        tables.append(war_outcomes(f, f"war_outcomes{suffix}"))
    tables += [penalty_distribution(dec, f"war_penalty{suffix}"), part, inv]
    return tables, None


# ----------------------------------------------------------------------------- the two War rules compared

# game-level metrics of the paired comparison: column, label
RULES_METRICS = [
    ("vp_from_wars", "VP from wars per seat (war_vp + vp_end_war)"),
    ("war_vp", "VP the War assigned per seat (cards 34, 55, 57)"),
    ("vp_end_war", "End of the game War Penalty VP per seat"),
    ("wars", "Wars fought per game"),
    ("wars_won", "Wars won per seat"),
    ("war_penalty", "final War Penalty position per seat"),
    ("minis_lost", "miniatures lost per seat"),
    ("rounds", "Action phase rounds per game"),
    ("turns", "turns per game (all seats)"),
    ("mean_vp", "final VP per seat"),
]


def _rules_frame(games: pl.LazyFrame, decades: pl.LazyFrame | None, variants: list[str]) -> pl.DataFrame:
    """Per seat-game of ``variants``: credit, final VP, VP from wars, Wars, length, and from the last
    decade record the Wars won and the final War Penalty position."""
    g = (games.lazy().filter(pl.col("variant").cast(pl.String).is_in(variants))
         .select(pl.col("variant").cast(pl.String), "players", "game", "seed", "seat", pl.col("character").cast(pl.String), "credit",
                 "vp", "war_vp", "vp_end_war", "minis_lost", "turns", "rounds", "wars_natives", "wars_pirates").collect())
    if decades is not None:
        last = (decades.lazy().filter(pl.col("variant").cast(pl.String).is_in(variants))
                .filter(pl.col("decade") == pl.col("decade").max().over("variant", "players", "game"))
                .select(pl.col("variant").cast(pl.String), "players", "game", "seat", "wars_won", "war_penalty", "decade").collect())
        g = g.join(last, on=["variant", "players", "game", "seat"], how="left")
    else:
        g = g.with_columns(pl.lit(None, pl.Int16).alias(c) for c in ("wars_won", "war_penalty", "decade"))
    return g.with_columns((pl.col("war_vp").cast(pl.Int32) + pl.col("vp_end_war").cast(pl.Int32)).alias("vp_from_wars"),
                          (pl.col("wars_natives").cast(pl.Int32) + pl.col("wars_pirates").cast(pl.Int32)).alias("wars"))


def war_rules_comparison(games: pl.LazyFrame, decades: pl.LazyFrame | None, base: str, variant: str, suffix: str = "") -> list[Table]:
    """The variant's War rules against the baseline's, game by game on common seeds: Character win
    rates in each (Wilson CIs) and their paired difference (paired t CI, Holm over the Characters of
    a player count); VP from wars, Wars, game length and final VP per seat and game (paired t, Holm
    over the metrics of a player count); VP from wars by Character (paired, Holm over Characters)."""
    df = _rules_frame(games, decades, [base, variant])
    b = df.filter(pl.col("variant") == base).drop("variant")
    v = df.filter(pl.col("variant") == variant).drop("variant")
    pair_seat = v.join(b, on=["players", "game", "seat"], suffix="_base").filter(pl.col("seed") == pl.col("seed_base"))
    # the same seed deals the same Characters in both (the setup comes before any War): pair them by Character
    pair_seat = pair_seat.filter(pl.col("character") == pl.col("character_base"))
    return [_rules_characters(pair_seat, base, variant, f"war_rules_characters{suffix}"),
            _rules_metrics(pair_seat, base, variant, f"war_rules_paired{suffix}"),
            _rules_vp_characters(pair_seat, base, variant, f"war_rules_vp_character{suffix}")]


def _rules_characters(p: pl.DataFrame, base: str, variant: str, name: str) -> Table:
    rows = []
    for (n, ch), part in sorted(p.partition_by(["players", "character"], as_dict=True).items()):
        r = stats.paired_test((part["credit"] - part["credit_base"]).to_numpy())
        rows.append({"variant": variant, "players": n, "character": ch, "pairs": r["n"], "wins_base": float(part["credit_base"].sum()),
                     "wins": float(part["credit"].sum()), "win_rate_base": float(part["credit_base"].mean()),
                     "win_rate": float(part["credit"].mean()), "diff": r["diff"], "diff_lo": r["diff_lo"], "diff_hi": r["diff_hi"],
                     "sd": r["sd"], "p": r["p"]})
    t = pl.DataFrame(rows)
    pw = ""
    if t.height:
        t = holm_within(t, ["players"])
        lo, hi = stats.wilson(t["wins_base"].to_numpy(), t["pairs"].to_numpy())
        lo2, hi2 = stats.wilson(t["wins"].to_numpy(), t["pairs"].to_numpy())
        t = t.with_columns(pl.Series("win_rate_base_lo", lo), pl.Series("win_rate_base_hi", hi), pl.Series("win_rate_lo", lo2),
                           pl.Series("win_rate_hi", hi2))
        t = t.select("variant", "players", "character", "pairs", "win_rate_base", "win_rate_base_lo", "win_rate_base_hi", "win_rate",
                     "win_rate_lo", "win_rate_hi", "diff", "diff_lo", "diff_hi", "sd", "p", "p_holm")
        sds = t["sd"].drop_nans().drop_nulls()
        sd = float(sds.filter(sds > 0).median()) if sds.filter(sds > 0).len() else 0.0
        m = int(t.group_by("players").len()["len"].max())
        nmin = int(t["pairs"].min())
        mde = stats.mde_mean(nmin, sd, alpha=stats.ALPHA / m)
        pw = (f"Power: with n ≥ {nmin:,} paired games per Character and the median sd of the paired differences ({sd:.2f}), a win-rate "
              f"change of {stats.fmt_pts(mde)} is detectable with 80% power at α = 0.05/{m} (paired t).")
    return Table(name, f"Character win rates: {variant!r} against {base!r} (common seeds)", t,
                 note=(f"Win rate (mean win credit, Wilson 95% CI) of each Character under each War rules, over the same games (seed and "
                       f"seat); difference = {variant} − {base} game by game, paired t 95% CI, Holm over the Characters of a player count. "
                       "The Rule variants section adds the SPRT of the same differences."),
                 power=pw, pct={"win_rate_base", "win_rate_base_lo", "win_rate_base_hi", "win_rate", "win_rate_lo", "win_rate_hi", "diff",
                                "diff_lo", "diff_hi"})


def _rules_metrics(p: pl.DataFrame, base: str, variant: str, name: str) -> Table:
    per_seat = [m for m, _ in RULES_METRICS if m not in ("wars", "rounds", "turns", "mean_vp")]
    aggs = ([pl.col(m).cast(pl.Float64).mean().alias(m) for m in per_seat]
            + [pl.col(f"{m}_base").cast(pl.Float64).mean().alias(f"{m}_base") for m in per_seat]
            + [pl.col("wars").first().cast(pl.Float64), pl.col("wars_base").first().cast(pl.Float64),
               pl.col("rounds").first().cast(pl.Float64), pl.col("rounds_base").first().cast(pl.Float64),
               pl.col("turns").sum().cast(pl.Float64), pl.col("turns_base").sum().cast(pl.Float64),
               pl.col("vp").cast(pl.Float64).mean().alias("mean_vp"), pl.col("vp_base").cast(pl.Float64).mean().alias("mean_vp_base"),
               pl.col("decade").max().alias("decades"), pl.col("decade_base").max().alias("decades_base")])
    gm = p.group_by("players", "game").agg(aggs)
    rows = []
    for (n,), part in sorted(gm.partition_by("players", as_dict=True).items()):
        for m, _ in RULES_METRICS:
            r = stats.paired_test((part[m] - part[f"{m}_base"]).to_numpy())
            rows.append({"variant": variant, "players": n, "metric": m, "pairs": r["n"],
                         "baseline": float(part[f"{m}_base"].mean()), "value": float(part[m].mean()), "diff": r["diff"],
                         "diff_lo": r["diff_lo"], "diff_hi": r["diff_hi"], "sd": r["sd"], "p": r["p"],
                         "mde": stats.mde_mean(r["n"], r["sd"], alpha=stats.ALPHA / len(RULES_METRICS))})
    t = pl.DataFrame(rows)
    if t.height:
        t = holm_within(t, ["players"])
    decs = sorted({int(x) for x in gm["decades"].drop_nulls().to_list() + gm["decades_base"].drop_nulls().to_list()}) if gm.height else []
    length = (f"Game length: the game ends after its last decade (END OF THE GAME), so every game played {', '.join(map(str, decs))} "
              "decades under both rules; it varies in the Action phases' rounds (a round: each player still in the phase takes a turn; "
              "an Extended War's war rounds are these rounds) and in the turns the seats took. " if decs else "")
    pw = "; ".join(f"{r['players']}p {r['metric']}: {r['mde']:.2f}" for r in rows if r["mde"] == r["mde"])
    return Table(name, f"VP from wars, Wars and game length: {variant!r} against {base!r} (common seeds)", t,
                 note=(f"Per game (per-seat metrics averaged over the game's seats), difference = {variant} − {base} on the same seed, paired t "
                       f"95% CI, Holm over the {len(RULES_METRICS)} metrics of a player count. VP from wars = the VP the War assigned "
                       "(cards 34, 55, 57 and the VP status bonus they took) + the End of the game War Penalty VP. " + length +
                       "Wars won and the War Penalty position are read from the last decade record."),
                 power=("Power: the smallest paired difference detectable with 80% power at α = 0.05/" + str(len(RULES_METRICS))
                        + " (the mde column) — " + pw + "." if pw else ""))


def _rules_vp_characters(p: pl.DataFrame, base: str, variant: str, name: str) -> Table:
    rows = []
    for (n, ch), part in sorted(p.partition_by(["players", "character"], as_dict=True).items()):
        r = stats.paired_test((part["vp_from_wars"] - part["vp_from_wars_base"]).cast(pl.Float64).to_numpy())
        rows.append({"variant": variant, "players": n, "character": ch, "pairs": r["n"],
                     "vp_from_wars_base": float(part["vp_from_wars_base"].mean()), "vp_from_wars": float(part["vp_from_wars"].mean()),
                     "war_vp_base": float(part["war_vp_base"].mean()), "war_vp": float(part["war_vp"].mean()),
                     "diff": r["diff"], "diff_lo": r["diff_lo"], "diff_hi": r["diff_hi"], "p": r["p"]})
    t = pl.DataFrame(rows)
    if t.height:
        t = holm_within(t, ["players"])
    return Table(name, f"VP from wars by Character: {variant!r} against {base!r} (common seeds)", t,
                 note=(f"Mean VP from wars of a Character's seat (the VP the War assigned + the End of the game War Penalty VP) under each "
                       f"War rules; difference = {variant} − {base} game by game, paired t 95% CI, Holm over the Characters of a player "
                       "count."),
                 power="Power: see the per-game table above (the same paired design, per Character).")
