"""Rule variants compared on common seeds.

Every variant of an experiment plays the same seeds (game ``i`` of ``n`` players has the same
seed in each variant), so each game of a variant is paired with the baseline's game of the same
player count and index, and differences are taken game by game: the paired design removes the
between-game variance the two rule sets share.
"""

from __future__ import annotations

import polars as pl

from analysis import stats
from analysis.tables import Table, holm_within

DELTA = 0.05  # SPRT effect size: a change of 5 points in a Character's win rate


def _game_metrics(games: pl.LazyFrame) -> pl.LazyFrame:
    return (games.lazy().group_by("variant", "players", "game")
            .agg(pl.col("seed").first(), pl.col("vp").mean().alias("mean_vp"), pl.col("vp").max().alias("winner_vp"),
                 pl.col("margin").max().alias("win_margin"), pl.col("tie").max().cast(pl.Float64).alias("tie")))


def variant_overview(games: pl.LazyFrame) -> Table:
    """Per variant and player count: games, mean VP, tie rate (Wilson CI) and the spread of the
    Character win rates (highest minus lowest)."""
    gm = _game_metrics(games).collect()
    t = (gm.group_by("variant", "players").agg(pl.len().alias("games"), pl.col("mean_vp").mean(), pl.col("tie").sum().alias("ties"))
         .with_columns(pl.col("variant").cast(pl.String)))
    ch = (games.lazy().group_by("variant", "players", "character").agg(pl.col("credit").mean().alias("wr")).collect()
          .group_by("variant", "players").agg((pl.col("wr").max() - pl.col("wr").min()).alias("character_spread"))
          .with_columns(pl.col("variant").cast(pl.String)))
    t = t.join(ch, on=["variant", "players"], how="left")
    lo, hi = stats.wilson(t["ties"].to_numpy(), t["games"].to_numpy())
    t = t.with_columns((pl.col("ties") / pl.col("games")).alias("tie_rate"), pl.Series("tie_rate_lo", lo), pl.Series("tie_rate_hi", hi))
    t = t.select("variant", "players", "games", "mean_vp", "tie_rate", "tie_rate_lo", "tie_rate_hi", "character_spread").sort("players", "variant")
    return Table("variant_overview", "Variants at a glance", t,
                 note="character_spread = highest minus lowest Character win rate (a balance summary; larger = less balanced).",
                 power="Power: see the paired tables below.", pct={"tie_rate", "tie_rate_lo", "tie_rate_hi", "character_spread"})


def paired_metrics(games: pl.LazyFrame, baseline: str, variants: list[str]) -> Table:
    """Per variant (against the baseline) and player count: paired differences of game-level
    metrics (mean VP per seat, winner's VP, winning margin, tie for first) over games with the
    same seed, with paired-t 95% CI, p and Holm over the metrics of one variant and player count."""
    gm = _game_metrics(games).with_columns(pl.col("variant").cast(pl.String)).collect()
    base = gm.filter(pl.col("variant") == baseline).drop("variant")
    rows = []
    for v in variants:
        if v == baseline:
            continue
        j = gm.filter(pl.col("variant") == v).drop("variant").join(base, on=["players", "game"], suffix="_base")
        j = j.filter(pl.col("seed") == pl.col("seed_base"))  # only truly common seeds
        for (n,), part in sorted(j.partition_by("players", as_dict=True).items()):
            for m in ("mean_vp", "winner_vp", "win_margin", "tie"):
                r = stats.paired_test((part[m].cast(pl.Float64) - part[f"{m}_base"].cast(pl.Float64)).to_numpy())
                rows.append({"variant": v, "players": n, "metric": m, "pairs": r["n"],
                             "baseline": float(part[f"{m}_base"].mean()), "value": float(part[m].mean()),
                             "diff": r["diff"], "diff_lo": r["diff_lo"], "diff_hi": r["diff_hi"], "sd": r["sd"], "p": r["p"],
                             "mde": stats.mde_mean(r["n"], r["sd"], alpha=stats.ALPHA / 4)})
    t = pl.DataFrame(rows)
    if t.height:
        t = holm_within(t, ["variant", "players"])
    pw = "; ".join(f"{r['variant']} {r['players']}p {r['metric']}: {r['mde']:.2f}" for r in rows if r["mde"] == r["mde"])
    same = sorted({f"{r['variant']} ({r['players']}p)" for r in rows if r["metric"] == "mean_vp" and r["sd"] == 0})
    if same:
        pw += (("; " if pw else "") + ", ".join(same)
               + ": every game was identical to the baseline's (all paired differences 0), so no change is measurable")
    return Table("variant_paired", "Paired differences against the baseline (common seeds)", t,
                 note=(f"Difference = variant − baseline ({baseline}), game by game on the same seed; paired t 95% CI; Holm over the 4 metrics "
                       "of a variant and player count. tie: share of games with a tie for first."),
                 power=("Power: the smallest paired difference detectable with 80% power at α = 0.05/4 (the mde column) — " + pw + "."
                        if pw else ""))


def paired_characters(games: pl.LazyFrame, baseline: str, variants: list[str], delta: float = DELTA) -> Table:
    """Per variant, player count and Character: the change in win rate on common seeds (mean of
    the per-game difference in the Character's win credit, over games it played in both), with
    paired-t 95% CI, Holm over the Characters, and Wald's SPRT of 'no change' against a change of
    ±``delta`` (see :func:`analysis.stats.sprt`) run in game order."""
    g = games.lazy().select("variant", "players", "game", "seed", "character", "credit").with_columns(
        pl.col("variant").cast(pl.String), pl.col("character").cast(pl.String)).collect()
    base = g.filter(pl.col("variant") == baseline).drop("variant")
    rows = []
    for v in variants:
        if v == baseline:
            continue
        j = (g.filter(pl.col("variant") == v).drop("variant").join(base, on=["players", "game", "character"], suffix="_base")
             .filter(pl.col("seed") == pl.col("seed_base")).sort("players", "game"))
        for (n, ch), part in sorted(j.partition_by(["players", "character"], as_dict=True).items()):
            d = (part["credit"] - part["credit_base"]).to_numpy()
            r = stats.paired_test(d)
            s = stats.sprt(d, delta)
            rows.append({"variant": v, "players": n, "character": ch, "pairs": r["n"],
                         "win_rate_base": float(part["credit_base"].mean()), "win_rate": float(part["credit"].mean()),
                         "diff": r["diff"], "diff_lo": r["diff_lo"], "diff_hi": r["diff_hi"], "sd": r["sd"], "p": r["p"],
                         "sprt": s.decision + (f" ({s.direction})" if s.direction else ""),
                         "sprt_games": s.n_decision, "llr_plus": s.llr_plus, "llr_minus": s.llr_minus})
    t = pl.DataFrame(rows)
    pw = ""
    if t.height:
        t = holm_within(t, ["variant", "players"])
        sds = t["sd"].drop_nans().drop_nulls()
        moving = sds.filter(sds > 0)
        sd = float(moving.median()) if moving.len() else 0.0  # Characters whose results never moved say nothing about the noise
        nmin = int(t["pairs"].min())
        m = int(t.group_by("variant", "players").len()["len"].max())
        mde = stats.mde_mean(nmin, sd, alpha=stats.ALPHA / m)
        pw = ("Power: every paired difference is 0 (the variant's games ended exactly as the baseline's), so no change is measurable."
              if sd == 0 else
              f"Power: with n ≥ {nmin:,} paired games per Character and the median sd of the paired differences ({sd:.2f}), a win-rate "
              f"change of {stats.fmt_pts(mde)} is detectable with 80% power at α = 0.05/{m} (paired t).")
    lo, hi = stats.sprt_bounds()
    return Table("variant_characters", "Character win-rate change against the baseline (common seeds)", t,
                 note=(f"Difference = win rate in the variant − in the baseline ({baseline}) over games the Character played in both; Holm over "
                       f"the Characters. SPRT: H0 no change vs H1 a change of ±{100 * delta:.0f} points, α = 0.05 (0.025 per direction), "
                       "β = 0.05, generalised SPRT (normal approximation, running mean and variance, no decision in the first 20 games) "
                       f"of the paired differences in game order; bounds log-LR {lo:.2f} / {hi:.2f} per direction; 'continue' = not "
                       "decided within the games run; sprt_games = games used when decided."),
                 power=pw, pct={"win_rate_base", "win_rate", "diff", "diff_lo", "diff_hi"})
