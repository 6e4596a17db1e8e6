"""Playing against the A.I. (TWO PLAYERS GAME & SOLO MODE): a Solo player's questions, per A.I.
strength (one variant per strength, ``trinidad.experiment``'s ``[ai]``) and player strategy: how
often the player beats the A.I., and the player's score distribution.

The A.I.'s seat is the one whose strategy is ``ai-<strength>``. Beating it = finishing ahead of it
by the rulebook's order (most VP, then most resources); a full tie shares the win, which is not
counted as beating it.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from analysis import stats
from analysis.tables import Table

KEY = ["variant", "players", "game"]


def has_ai(games: pl.LazyFrame | pl.DataFrame) -> bool:
    """The run's games include an A.I. seat."""
    s = games.lazy().select(pl.col("strategy").cast(pl.String).str.starts_with("ai-").any()).collect().item()
    return bool(s)


def beat_ai_table(games: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    """The players' seats of the games with the A.I., each with the A.I.'s strategy (``ai``), VP
    (``ai_vp``), rank and seat (``ai_seat``: seat s starts at turn position s, so 0 is the A.I. first in
    turn order) in its game and ``beat_ai`` (ahead of the A.I.)."""
    lf = games.lazy()
    is_ai = pl.col("strategy").cast(pl.String).str.starts_with("ai-")
    ai = lf.filter(is_ai).select(*KEY, pl.col("strategy").cast(pl.String).alias("ai"), pl.col("vp").alias("ai_vp"),
                                 pl.col("rank").alias("ai_rank"), pl.col("seat").alias("ai_seat"))
    return (lf.filter(~is_ai).join(ai, on=KEY, how="inner")
            .with_columns((pl.col("rank") < pl.col("ai_rank")).alias("beat_ai"), pl.col("strategy").cast(pl.String)))


def _game(n: int) -> str:
    return "Solo" if n == 2 else f"{n - 1} players + A.I."


def beat_rates(games) -> Table:
    """Per A.I. strength, game and strategy: the share of the player's seats that beat the A.I.,
    Wilson 95% CI, and the mean VP margin over it."""
    t = (beat_ai_table(games).group_by("ai", "players", "strategy")
         .agg(pl.len().alias("n"), pl.col("beat_ai").sum().cast(pl.Float64).alias("beats"),
              (pl.col("vp") - pl.col("ai_vp")).mean().alias("margin"), pl.col("ai_vp").mean().alias("ai_mean_vp"))
         .sort("players", "ai", "strategy").collect())
    if t.height == 0:
        return Table("solo_beat", "How often a player beats the A.I.", t)
    n = t["n"].to_numpy().astype(float)
    lo, hi = stats.wilson(t["beats"].to_numpy(), n)
    t = t.with_columns(pl.Series("beat_rate", t["beats"].to_numpy() / n), pl.Series("beat_rate_lo", lo),
                       pl.Series("beat_rate_hi", hi), pl.col("players").map_elements(_game, return_dtype=pl.String).alias("game"))
    t = t.select("game", "players", "ai", "strategy", "n", "beats", "beat_rate", "beat_rate_lo", "beat_rate_hi", "margin", "ai_mean_vp")
    nmin = int(t["n"].min())
    mde = stats.mde_proportion(nmin, 0.5)
    return Table("solo_beat", "How often a player beats the A.I. (by A.I. strength and player strategy)", t,
                 note=("A player's seat beats the A.I. when it finishes ahead of it: more VP, or equal VP and more resources "
                       "(a full tie is a shared win, not counted). margin: the player's final VP minus the A.I.'s, mean over games. "
                       "In the 2-player game with the A.I. each player's seat counts on its own."),
                 power=f"Power: with n ≥ {nmin:,} seats per row, a beat rate differing from 50% by ±{stats.fmt_pts(mde)} is "
                       "detectable with 80% power at α = 0.05 (two-sided).",
                 pct={"beat_rate"})


def player_scores(games) -> Table:
    """Per A.I. strength, game and strategy: the player's final VP (mean with t 95% CI, sd,
    quantiles), beside the A.I.'s mean."""
    g = beat_ai_table(games).collect()
    rows = []
    for (ai, n, strat), part in sorted(g.partition_by(["ai", "players", "strategy"], as_dict=True).items(),
                                       key=lambda kv: (kv[0][1], kv[0][0], kv[0][2])):
        v = part["vp"].to_numpy().astype(float)
        m, lo, hi = stats.mean_ci(v)
        q = np.quantile(v, [0.1, 0.25, 0.5, 0.75, 0.9])
        rows.append({"game": _game(n), "players": n, "ai": ai, "strategy": strat, "n": len(v), "mean_vp": m, "mean_vp_lo": lo,
                     "mean_vp_hi": hi, "sd": float(v.std(ddof=1)) if len(v) > 1 else math.nan, "p10": q[0], "p25": q[1],
                     "median": q[2], "p75": q[3], "p90": q[4], "min": int(v.min()), "max": int(v.max()),
                     "ai_mean_vp": float(part["ai_vp"].mean())})
    t = pl.DataFrame(rows)
    return Table("solo_scores", "The player's final VP against the A.I. (by A.I. strength and player strategy)", t,
                 note="Final VP of the player's seats (after end-of-game scoring); quantiles p10…p90; ai mean vp: the A.I.'s mean in the same games.",
                 power="Power: descriptive distribution; the CI is the t interval of the mean.")


def vp_sources(games) -> Table:
    """Per A.I. strength, game and strategy: where the player's VP and the A.I.'s come from (the
    games table's ``vp_<source>`` columns, sim.state.VS), each source's mean for both seats and the
    player's lead in it with its t 95% CI (paired by game): when a player beats the A.I. more often,
    this says with what."""
    from analysis.data import vp_sources as vp_columns

    g = games.lazy()
    cols = vp_columns(g.collect_schema().names())
    b = beat_ai_table(g)
    ai = (g.filter(pl.col("strategy").cast(pl.String).str.starts_with("ai-"))
          .select(*KEY, *[pl.col(c).alias(f"ai_{c}") for c in cols]))
    t = b.join(ai, on=KEY, how="inner").collect()
    rows = []
    for (a, n, strat), part in sorted(t.partition_by(["ai", "players", "strategy"], as_dict=True).items(),
                                      key=lambda kv: (kv[0][1], kv[0][0], kv[0][2])):
        for c in cols:
            mine = part[c].to_numpy().astype(float)
            theirs = part[f"ai_{c}"].to_numpy().astype(float)
            if not (mine.any() or theirs.any()):
                continue  # a source neither seat scored from
            m, lo, hi = stats.mean_ci(mine - theirs)
            rows.append({"game": _game(n), "players": n, "ai": a, "strategy": strat, "source": c.removeprefix("vp_"),
                         "n": len(mine), "player_vp": float(mine.mean()), "ai_vp": float(theirs.mean()), "lead": m,
                         "lead_lo": lo, "lead_hi": hi})
    return Table("solo_sources", "Where the player's VP and the A.I.'s come from (by A.I. strength and player strategy)",
                 pl.DataFrame(rows),
                 note=("Mean VP by source (SCORING PHASE and every other VP assignation, sim.state.VS) of the player's seat and of the "
                       "A.I.'s in the same games; lead: the player's minus the A.I.'s, with its t 95% CI over the games. Sources "
                       "neither seat scored from are left out."),
                 power="Power: descriptive; each lead's CI is the t interval of the per-game difference.")


def ai_scale_table(tiers: list) -> Table | None:
    """Each player tier's strategies against the rulebook's Solo A.I. at each strength, as the run
    recorded it (``trinidad run --ai-games N`` writes :data:`analysis.data.AI_SCALE_FILE` with
    ``trinidad.ai_scale``: Solo games, balanced Characters, the A.I. first in half, Wilson 95% CI;
    a full tie is half a beat). ``tiers``: :class:`analysis.sensitivity.Tier`, strongest first.
    None when no tier's run holds the file."""
    import json

    from analysis.data import AI_SCALE_FILE

    rows, strengths, games = [], [], set()
    for t in tiers:
        f = t.run.path / AI_SCALE_FILE
        if not f.exists():
            continue
        d = json.loads(f.read_text())
        strengths = strengths or d["strengths"]
        games.add(d["games"])
        for name in d["strategies"]:
            row = {"tier": t.label, "strategy": name, "n": d["games"]}
            for b in (b for b in d["beats"] if b["strategy"] == name):
                row |= {b["strength"]: b["win_rate"], f"{b['strength']}_lo": b["ci_low"], f"{b['strength']}_hi": b["ci_high"]}
            rows.append(row)
    if not rows:
        return None
    df = pl.DataFrame(rows)
    missing = [t.label for t in tiers if not (t.run.path / AI_SCALE_FILE).exists()]
    nmin = int(df["n"].min())
    return Table("tier_ai_scale", "Each tier against the rulebook's Solo A.I. (beat rate by A.I. strength)", df,
                 note=("Each strategy of the tier plays n Solo games against the A.I. of TWO PLAYERS GAME & SOLO MODE at each "
                       "strength, on common seeds: the player's Character dealt balanced, the A.I. first in turn order in half the "
                       "games. A beat is a win (most VP, then most resources); a full tie is half a beat. Wilson 95% CI. "
                       "Recorded by trinidad run (--ai-games) in the run's " + AI_SCALE_FILE + "; trinidad ladder prints the same table."
                       + (f" Not recorded for: {', '.join(missing)}." if missing else "")),
                 power=f"Power: with n = {nmin:,} games a cell, a beat rate differing from 50% by ±{stats.fmt_pts(stats.mde_proportion(nmin, 0.5))} "
                       "is detectable with 80% power at α = 0.05 (two-sided).",
                 pct={c for c in df.columns if c not in ("tier", "strategy", "n")})
