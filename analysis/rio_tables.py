"""Río de la Plata's report tables (:mod:`analysis.rio` puts them in sections): the Public Offices, the
wars, the Major buildings and the houses, and the variants side by side. Each reads the run's tables
(trinidad.games.rio: games, offices, wars) with the shared statistics (:mod:`analysis.stats`,
:mod:`analysis.tables`): every rate with its Wilson 95% interval, every mean with its t interval, every
family of tests Holm-corrected. Plain polars: no engine.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.tables import Table, holm_within

KEY = ["variant", "players", "game"]
OFFICE_PREFIX = "office_"


def means(frame: pl.DataFrame | pl.LazyFrame, by: list[str], cols: list[str], n: str = "n") -> pl.DataFrame:
    """Per ``by`` group: the rows ``n`` and each column's mean with its t 95% interval (``x``, ``x_lo``, ``x_hi``)."""
    agg = (frame.lazy().group_by(by).agg(pl.len().alias(n), *[pl.col(c).cast(pl.Float64).sum().alias(f"{c}:1") for c in cols],
                                         *[(pl.col(c).cast(pl.Float64) ** 2).sum().alias(f"{c}:2") for c in cols])
           .sort(by).collect())
    out = agg.select(*by, n)
    for c in cols:
        m, lo, hi = stats.mean_ci_moments(agg[n].to_numpy(), agg[f"{c}:1"].to_numpy(), agg[f"{c}:2"].to_numpy())
        out = out.with_columns(pl.Series(c, m), pl.Series(f"{c}_lo", lo), pl.Series(f"{c}_hi", hi))
    return out


def shares(t: pl.DataFrame, count: str, total: str, name: str) -> pl.DataFrame:
    """``name`` = ``count`` / ``total`` with its Wilson 95% interval."""
    lo, hi = stats.wilson(t[count].to_numpy(), t[total].to_numpy())
    with np.errstate(all="ignore"):
        return t.with_columns((pl.col(count) / pl.col(total)).alias(name), pl.Series(f"{name}_lo", lo), pl.Series(f"{name}_hi", hi))


def _string(lf: pl.LazyFrame, *cols: str) -> pl.LazyFrame:
    return lf.with_columns(pl.col(c).cast(pl.String) for c in cols)


# ---------------------------------------------------------------------------------------------- Public Offices


def office_purchases(offices: pl.LazyFrame) -> Table:
    """Per player count and office: how often it was bought (share of games, Wilson CI) and when."""
    o = _string(offices, "office").with_columns((pl.col("owner") >= 0).cast(pl.Int64).alias("bought"))
    t = (o.group_by("players", "office").agg(pl.len().alias("games"), pl.col("bought").sum(),
                                             pl.col("turn").filter(pl.col("owner") >= 0).cast(pl.Float64).mean().alias("mean_turn"),
                                             pl.col("turn").filter(pl.col("owner") >= 0).min().alias("first_turn"))
         .sort("players", "office").collect())
    t = shares(t, "bought", "games", "bought_share").select("players", "office", "games", "bought", "bought_share", "bought_share_lo",
                                                            "bought_share_hi", "mean_turn", "first_turn")
    return Table("office_purchases", "How often each Public Office is bought, and when", t.sort("players", "bought_share", descending=[False, True]),
                 note="Share of games in which a player bought the office (it is then his for the rest of the game; Wilson 95% CI); "
                      "mean_turn and first_turn: the turn it was bought (the engine's record, rio.engine.records), over the games it was bought.",
                 power="Power: descriptive rates (no test).", pct={"bought_share", "bought_share_lo", "bought_share_hi"})


def office_buyers(offices: pl.LazyFrame, games: pl.LazyFrame) -> Table:
    """Per player count, office and strategy: purchases per seat-game of the strategy (Wilson CI)."""
    seats = _string(games, "strategy").group_by("players", "strategy").agg(pl.len().alias("seats"))
    bought = (_string(offices, "office", "strategy").filter(pl.col("owner") >= 0).group_by("players", "office", "strategy")
              .agg(pl.len().alias("bought")))
    offices_seen = _string(offices, "office").select("players", "office").unique()
    t = (offices_seen.join(seats, on="players").join(bought, on=["players", "office", "strategy"], how="left")
         .with_columns(pl.col("bought").fill_null(0).cast(pl.Int64)).sort("players", "office", "strategy").collect())
    t = shares(t, "bought", "seats", "rate").select("players", "office", "strategy", "seats", "bought", "rate", "rate_lo", "rate_hi")
    return Table("office_buyers", "Who buys each Public Office: purchases per seat-game, by strategy", t,
                 note="rate = the strategy's purchases of the office / its seat-games (a seat buys an office once at most; Wilson 95% CI).",
                 power="Power: descriptive rates (no test).", pct={"rate", "rate_lo", "rate_hi"}, show=t.height <= 120)


def owned_frame(games: pl.DataFrame, offices: pl.LazyFrame, names: list[str]) -> pl.DataFrame:
    """The seat-games of ``games`` (with ``credit``) with a column ``office_<name>`` (1: the seat owns it) per office."""
    own = (_string(offices, "variant", "office").filter(pl.col("owner") >= 0).select(*KEY, pl.col("owner").cast(pl.Int64).alias("seat"), "office")
           .collect())
    wide = (own.with_columns(pl.lit(1).alias("own")).pivot(on="office", index=[*KEY, "seat"], values="own")
            if own.height else own.select(*KEY, "seat"))
    wide = wide.rename({c: OFFICE_PREFIX + c for c in wide.columns if c not in (*KEY, "seat")})
    g = games.with_columns(pl.col("variant").cast(pl.String), pl.col("game").cast(pl.Int64), pl.col("seat").cast(pl.Int64))
    f = g.join(wide.with_columns(pl.col("game").cast(pl.Int64), pl.col("players").cast(g.schema["players"])),
               on=[*KEY, "seat"], how="left")
    return f.with_columns(pl.col(OFFICE_PREFIX + x).fill_null(0).cast(pl.Int64) if OFFICE_PREFIX + x in f.columns
                          else pl.lit(0, pl.Int64).alias(OFFICE_PREFIX + x) for x in names)


def office_value(f: pl.DataFrame, names: list[str]) -> Table:
    """Per player count and office: the win rate and VP of its owners against the other seats
    (:func:`analysis.played.use_table`: Newcombe interval of the difference, score test, Holm over the
    offices of a player count), and a verdict: never worth its price when the owners do not win more often."""
    from analysis.played import frame_use_counts, use_table

    cols = [OFFICE_PREFIX + x for x in names]
    use = use_table(frame_use_counts(f.with_columns(pl.lit("all seats").alias("group")), cols))
    # the VP of the owners and of the others (t intervals): a row per player count, office and side
    vp = means(pl.concat([f.select("players", "vp", (pl.col(c) > 0).alias("owns"), pl.lit(c).alias("item")) for c in cols]),
               ["players", "item", "owns"], ["vp"])

    def side(owns: bool, name: str) -> pl.DataFrame:
        return vp.filter(pl.col("owns") == owns).select(pl.col("players").cast(pl.Int64), "item", *(
            pl.col(f"vp{x}").alias(f"{name}{x}") for x in ("", "_lo", "_hi")))

    on = ["players", "item"]
    t = (use.join(side(True, "vp_owners"), on=on, how="left").join(side(False, "vp_others"), on=on, how="left")
         .with_columns(pl.col("item").str.strip_prefix(OFFICE_PREFIX).alias("office")))
    verdict = (pl.when(pl.col("used") == 0).then(pl.lit("never bought"))
               .when(pl.col("win_used").is_null() | pl.col("win_unused").is_null()).then(pl.lit("no comparison"))
               .when(pl.col("win_used") <= pl.col("win_unused")).then(pl.lit("never worth its price"))
               .when(pl.col("p_holm") < 0.05).then(pl.lit("pays"))
               .otherwise(pl.lit("above, not significant")))
    renamed = {"used": "owners", "share": "owned_share", "share_lo": "owned_share_lo", "share_hi": "owned_share_hi",
               "win_used": "win_owners", "win_unused": "win_others"}
    t = t.with_columns(verdict.alias("verdict")).rename(renamed).select(
        "players", "office", "n", "owners", "owned_share", "owned_share_lo", "owned_share_hi", "win_owners", "win_others", "diff",
        "diff_lo", "diff_hi", "p", "p_holm", "vp_owners", "vp_owners_lo", "vp_owners_hi", "vp_others", "vp_others_lo", "vp_others_hi",
        "verdict")
    t = t.sort("players", "diff", descending=[False, True], nulls_last=True)
    return Table("office_value", "Is each Public Office worth its price? Its owners against the other seats", t,
                 note="win_owners / win_others: mean win credit (ties share a win) of the seat-games that owned the office at the end and of "
                      "those that did not; diff with the Newcombe 95% interval; p: score test of equal rates; Holm p over the offices of a "
                      "player count. Verdict: never worth its price = the owners win no more often than the others; pays = more often, "
                      "Holm p < 0.05. The owners' VP include what the office scored, its price paid. Association, not cause: a seat "
                      "that is ahead can afford an office.",
                 power="Power: see the intervals of diff (a seat owns an office in a few seat-games: they are wide in a small run).",
                 pct={"owned_share", "owned_share_lo", "owned_share_hi", "win_owners", "win_others", "diff", "diff_lo", "diff_hi"})


# ---------------------------------------------------------------------------------------------- wars


def wars_per_game(games: pl.LazyFrame) -> Table:
    """Per player count: wars a game (mean, t CI) and the share of games with a war (Wilson CI)."""
    g = games.filter(pl.col("seat") == 0).with_columns((pl.col("wars") > 0).cast(pl.Int64).alias("war"))
    t = means(g, ["players"], ["wars"], "games").join(g.group_by("players").agg(pl.col("war").sum()).collect(), on="players")
    t = shares(t, "war", "games", "games_with_war").drop("war").sort("players")
    return Table("wars_per_game", "Wars a game", t, note="Wars fought a game (the engine's count); games_with_war: share of games with one "
                 "or more (Wilson 95% CI).", power="Power: descriptive (no test).", pct={"games_with_war", "games_with_war_lo", "games_with_war_hi"})


def war_enemies(wars: pl.LazyFrame) -> Table:
    """Per player count and enemy (Natives, Pirates): the share of wars, and per war the buildings destroyed,
    the attacker's and the defenders' VP, attackers killed, defending tokens lost (means, t CI)."""
    w = _string(wars, "enemy")
    t = means(w, ["players", "enemy"], ["buildings", "attacker_vp", "defender_vp", "killed", "lost", "rounds"], "wars")
    tot = t.group_by("players").agg(pl.col("wars").sum().alias("all_wars"))
    forced = w.group_by("players", "enemy").agg(pl.col("forced").sum().alias("forced")).collect()
    t = shares(t.join(tot, on="players"), "wars", "all_wars", "share").join(forced, on=["players", "enemy"]).drop("all_wars")
    t = t.select("players", "enemy", "wars", "share", "share_lo", "share_hi", "forced", *[c for c in t.columns if c.startswith((
        "buildings", "attacker_vp", "defender_vp", "killed", "lost", "rounds"))]).sort("players", "enemy")
    return Table("war_enemies", "Wars by enemy: Natives and Pirates", t,
                 note="share: of the wars of a player count (Wilson 95% CI); forced: wars of the last turn without a roll (RP-19); per war "
                      "(t 95% CI): buildings destroyed, the attacker's VP, the defenders' VP (token battles, losses, cannons: all "
                      "defenders together), attackers killed, defending tokens lost, rounds.",
                 power="Power: descriptive (no test).", pct={"share", "share_lo", "share_hi"})


def attacker_pays(wars: pl.LazyFrame) -> Table:
    """Does being the attacker pay? Per player count, war by war: the attacker's VP minus the defenders'
    (all together, and per defender), paired t 95% CI, p, Holm over the two comparisons."""
    w = wars.select("players", "attacker_vp", "defender_vp").collect()
    rows = []
    for (n,), part in sorted(w.partition_by("players", as_dict=True).items()):
        a, d = part["attacker_vp"].cast(pl.Float64).to_numpy(), part["defender_vp"].cast(pl.Float64).to_numpy()
        for metric, diff in (("attacker - defenders", a - d), ("attacker - one defender", a - d / max(1, n - 1))):
            r = stats.paired_test(diff)
            rows.append({"players": n, "metric": metric, "wars": r["n"], "attacker_vp": float(a.mean()), "defenders_vp": float(d.mean()),
                         "diff": r["diff"], "diff_lo": r["diff_lo"], "diff_hi": r["diff_hi"], "p": r["p"],
                         "mde": stats.mde_mean(r["n"], r["sd"], alpha=stats.ALPHA / 2)})
    t = pl.DataFrame(rows, schema={"players": pl.Int64, "metric": pl.String, "wars": pl.Int64, "attacker_vp": pl.Float64,
                                   "defenders_vp": pl.Float64, "diff": pl.Float64, "diff_lo": pl.Float64, "diff_hi": pl.Float64,
                                   "p": pl.Float64, "mde": pl.Float64})
    t = holm_within(t, ["players"])
    pw = "; ".join(f"{r['players']} players {r['metric']}: {r['mde']:.2f} VP" for r in rows if r["mde"] == r["mde"])
    return Table("attacker_pays", "Does being the attacker pay? The attacker's VP from a war against the defenders'", t,
                 note="War by war: the attacker's VP (buildings destroyed) minus the defenders' (token battles, losses, cannons), all "
                      "defenders together and per defender (divided by the players less the attacker); paired t 95% CI; Holm over the "
                      "two comparisons of a player count. Positive: attacking pays more than defending.",
                 power=("Power: the smallest difference detectable with 80% power at α = 0.05/2 (mde) — " + pw + ".") if pw else "")


# ---------------------------------------------------------------------------------------------- the city


def majors(games: pl.LazyFrame, names: list[str]) -> Table:
    """Per player count and Major building: the share of games it was completed (Wilson CI) and completions a game."""
    g = games.filter(pl.col("seat") == 0)
    cols = [c for c in (f"major_{x}" for x in names) if c in g.collect_schema().names()]
    agg = g.group_by("players").agg(pl.len().alias("games"), *[(pl.col(c) > 0).sum().alias(f"done:{c}") for c in cols],
                                    *[pl.col(c).cast(pl.Float64).mean().alias(f"mean:{c}") for c in cols]).sort("players").collect()
    rows = [{"players": int(r["players"]), "major": c.removeprefix("major_"), "games": int(r["games"]), "completed": int(r[f"done:{c}"]),
             "completions": float(r[f"mean:{c}"])} for r in agg.iter_rows(named=True) for c in cols]
    t = pl.DataFrame(rows, schema={"players": pl.Int64, "major": pl.String, "games": pl.Int64, "completed": pl.Int64, "completions": pl.Float64})
    t = shares(t, "completed", "games", "completed_share").select("players", "major", "games", "completed", "completed_share",
                                                                  "completed_share_lo", "completed_share_hi", "completions")
    return Table("majors", "How often each Major building is completed", t,
                 note="completed_share: games in which the Major building was completed at least once (Wilson 95% CI); completions: "
                      "mean completions a game (a repeatable one may be completed more than once).",
                 power="Power: descriptive rates (no test).", pct={"completed_share", "completed_share_lo", "completed_share_hi"})


def houses(games: pl.LazyFrame) -> Table:
    """Per player count and strategy: Houses and Huts standing at the end, offices owned, mean (t CI) per seat."""
    t = means(_string(games, "strategy"), ["players", "strategy"], ["houses", "huts", "offices", "attacks"], "seats")
    return Table("houses", "Houses, Huts and Public Offices by strategy", t,
                 note="Per seat at the end of the game (t 95% CI): Houses and Huts standing in the city, Public Offices owned, and the "
                      "times the seat was the attacker.", power="Power: descriptive means (no test).")


def city_end(games: pl.LazyFrame) -> Table:
    """Per player count: what is left of the city's wall and road pieces and open access points, and the Ship's voyages."""
    t = means(games.filter(pl.col("seat") == 0), ["players"], ["walls_open", "sticks", "voyages", "turns"], "games")
    return Table("city_end", "The city at the end: open access points, pieces left, voyages", t,
                 note="Per game (t 95% CI): open access points of the city's walls left, wall/road pieces left in the supply, "
                      "completed shipments of the Ship, turns played.", power="Power: descriptive means (no test).")


# ---------------------------------------------------------------------------------------------- variants


def variant_overview(games: pl.LazyFrame) -> Table:
    """Per variant and player count, side by side: level, Short game, games, mean VP (t CI), the winner's
    VP, games with a tie, wars, offices bought and Major completions a game, Houses a seat."""
    g = _string(games, "variant", "level")
    per_game = g.group_by(*KEY).agg(pl.col("level").first(), pl.col("short").first(), pl.col("vp").max().alias("winner_vp"),
                                    pl.col("tie").max().alias("tie"), pl.col("wars").first(), pl.col("houses").mean().alias("houses"),
                                    pl.col("offices").sum().alias("offices"),
                                    pl.sum_horizontal(pl.col("^major_.*$").first()).alias("majors"))
    t = means(per_game, ["variant", "players", "level", "short"], ["winner_vp", "wars", "offices", "majors", "houses"], "games")
    vp = means(g, ["variant", "players"], ["vp"], "seats")
    ties = per_game.group_by("variant", "players").agg(pl.col("tie").sum().alias("ties")).collect()
    t = shares(t.join(vp, on=["variant", "players"]).join(ties, on=["variant", "players"]), "ties", "games", "tie_rate")
    order = {v: i for i, v in enumerate(dict.fromkeys(games.select(pl.col("variant").cast(pl.String)).unique(maintain_order=True)
                                                      .collect().to_series().to_list()))}
    t = t.with_columns(pl.col("variant").replace_strict(order, return_dtype=pl.Int64).alias("_o")).sort("players", "_o").drop("_o", "seats", "ties")
    return Table("rio_variant_overview", "The variants side by side", t,
                 note="Per game (t 95% CI): the winner's VP, wars, Public Offices bought, Major buildings completed, Houses a seat; vp: "
                      "mean final VP a seat; tie_rate: games with a tie for first (Wilson 95% CI). Every variant plays the same seeds.",
                 power="Power: see the paired differences below.", pct={"tie_rate", "tie_rate_lo", "tie_rate_hi"})
