"""Río de la Plata's report tables (:mod:`analysis.rio` puts them in sections): the Public Offices, the
wars, the districts and the Major buildings, the houses, and the variants side by side. Each reads the
run's tables (trinidad.games.rio: games, offices, wars, districts, majors) with the shared statistics
(:mod:`analysis.stats`, :mod:`analysis.tables`): every rate with its Wilson 95% interval, every mean with its t interval, every
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


def by_start(g: pl.DataFrame) -> pl.DataFrame:
    """The seat-games with ``seat`` = the start position (0 = first on the order track), as the seat tables read it."""
    return g.drop("seat").rename({"start_position": "seat"})


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


# ---------------------------------------------------------------------------------------------- districts and Major buildings


def district_values(districts: pl.LazyFrame, by: list[str]) -> Table:
    """Per ``by`` group (the player count; with several variants, the variant too) and district: its value
    at the end (what each House there adds to its 2 VP, as the end scoring counted it), the Houses and Huts
    standing and the buildings destroyed there in wars (means, t CI), and how often it ends road-connected
    and, a perimeter district, closed by walls (Wilson CI)."""
    d = _string(districts, *(c for c in by if c == "variant"))
    keys = [*by, "district"]
    t = means(d, keys, ["value", "house", "hut", "destroyed"], "games")
    flags = d.group_by(keys).agg(pl.col("road_connected").cast(pl.Int64).sum().alias("connected"),
                                 pl.col("closed").cast(pl.Int64).sum().alias("walled")).collect()
    t = shares(t.join(flags, on=keys), "connected", "games", "road_connected")
    t = shares(t, "walled", "games", "closed").drop("connected", "walled")
    t = t.select(*keys, "games", *(f"{c}{x}" for c in ("value", "house", "hut", "road_connected", "closed", "destroyed")
                                   for x in ("", "_lo", "_hi"))).sort(keys)
    return Table("district_values", "The districts at the end: value, Houses and Huts, roads, walls, wars", t,
                 note="Per game and district (THE CITY DISTRICTS, 1-4 north, 5-8 south; 6 and 7 round the Plaza Mayor), at the end "
                      "(t 95% CI): value = what each House there adds to its 2 VP (VICTORY POINTS AT THE END OF THE GAME: the "
                      "Garden, Monument, Church, Barracks, the Palace and the Cathedral standing there, the road connection, the "
                      "production penalty), Houses and Huts standing, buildings destroyed there in wars; road_connected: games in "
                      "which a road links its centre to the Plaza Mayor (the Roadmaker's count); closed: games in which every access "
                      "point of the district is walled (the Defender's count; the central districts 6 and 7 never count); Wilson 95% CI.",
                 power="Power: descriptive (no test).", pct={"road_connected", "road_connected_lo", "road_connected_hi", "closed",
                                                             "closed_lo", "closed_hi"})


def built_kinds(districts: pl.LazyFrame) -> list[str]:
    """The districts table's building columns (trinidad.games.rio: after ``destroyed``, a column a kind of
    building, the minor buildings then the Palace and the Cathedral)."""
    cols = districts.collect_schema().names()
    return cols[cols.index("destroyed") + 1:]


def district_buildings(districts: pl.LazyFrame, by: list[str], kinds: list[str]) -> Table:
    """Per ``by`` group and district: the mean number of buildings of each kind standing at the end (the
    minor buildings, the Palace and the Cathedral)."""
    d = _string(districts, *(c for c in by if c == "variant"))
    keys = [*by, "district"]
    t = (d.group_by(keys).agg(pl.len().alias("games"), *(pl.col(c).cast(pl.Float64).mean() for c in kinds),
                              pl.sum_horizontal(*kinds).cast(pl.Float64).mean().alias("buildings"))
         .sort(keys).collect())
    return Table("district_buildings", "What is built where: buildings standing in each district at the end", t,
                 note="Mean buildings of each kind standing in the district at the end of a game (Huts and Houses are the players' "
                      "own; a destroyed building no longer stands; the Palace and the Cathedral stand on the ring round the Plaza "
                      "Mayor, in districts 6 and 7); buildings: all kinds together.",
                 power="Power: descriptive means (no test).")


def major_completions(majors: pl.LazyFrame, by: list[str]) -> Table:
    """Per ``by`` group and Major building: the share of games in which it was completed (Wilson CI), the
    completions a game, and the turn of the first completion (mean, t CI, over the games it was completed)."""
    m = _string(majors, *(c for c in by if c == "variant"), "major")
    per_game = m.filter(pl.col("seat") == 0)
    keys = [*by, "major"]
    t = (per_game.group_by(keys).agg(pl.len().alias("games"), (pl.col("completions") > 0).cast(pl.Int64).sum().alias("completed"),
                                     pl.col("completions").cast(pl.Float64).mean().alias("completions"))
         .collect())
    turn = means(per_game.filter(pl.col("first_turn") >= 0), keys, ["first_turn"], "done")
    t = shares(t, "completed", "games", "completed_share").join(turn.drop("done"), on=keys, how="left")
    order = {x: i for i, x in enumerate(enum_names(majors, "major"))}
    t = t.with_columns(pl.col("major").replace_strict(order, return_dtype=pl.Int64).alias("_o")).sort([*by, "_o"]).drop("_o")
    t = t.select(*keys, "games", "completed", "completed_share", "completed_share_lo", "completed_share_hi", "completions",
                 "first_turn", "first_turn_lo", "first_turn_hi")
    return Table("major_completions", "Which Major buildings get completed, how often and when", t,
                 note="completed_share: games in which the Major building was completed at least once (Wilson 95% CI); completions: "
                      "mean completions a game (the Walls and the Roads repeat); first_turn: the turn of its first completion "
                      "(1 = the first turn; t 95% CI over the games in which it was completed).",
                 power="Power: descriptive (no test).", pct={"completed_share", "completed_share_lo", "completed_share_hi"})


def major_completers(majors: pl.LazyFrame, by: list[str]) -> Table:
    """Per ``by`` group, Major building and strategy: how often a seat of the strategy completes it (Wilson
    CI), its share of the first completions (Wilson CI), and the grid spaces its workers built a seat-game."""
    m = _string(majors, *(c for c in by if c == "variant"), "major", "strategy")
    keys = [*by, "major"]
    t = (m.group_by([*keys, "strategy"]).agg(
        pl.len().alias("seats"), (pl.col("completed") > 0).cast(pl.Int64).sum().alias("completers"),
        (pl.col("first_completer") == pl.col("seat")).cast(pl.Int64).sum().alias("first"),
        pl.col("completed").cast(pl.Float64).mean().alias("completions"), pl.col("spaces").cast(pl.Float64).mean().alias("spaces"))
        .collect())
    done = m.filter((pl.col("seat") == 0) & (pl.col("completions") > 0)).group_by(keys).agg(pl.len().alias("completed_games")).collect()
    t = shares(t, "completers", "seats", "completer_rate")
    t = shares(t.join(done, on=keys, how="left").with_columns(pl.col("completed_games").fill_null(0)), "first", "completed_games",
               "first_share")
    t = t.with_columns(pl.col(c).fill_nan(None) for c in ("first_share", "first_share_lo", "first_share_hi"))  # never completed: no share
    order = {x: i for i, x in enumerate(enum_names(majors, "major"))}
    t = (t.with_columns(pl.col("major").replace_strict(order, return_dtype=pl.Int64).alias("_o")).sort([*by, "_o", "strategy"]).drop("_o")
         .select(*keys, "strategy", "seats", "completers", "completer_rate", "completer_rate_lo", "completer_rate_hi", "first",
                 "first_share", "first_share_lo", "first_share_hi", "completions", "spaces"))
    return Table("major_completers", "Who completes each Major building, and who builds it: by strategy", t,
                 note="The completer is the player who builds the last part of the grid (MAJOR BUILDING CHARACTERISTICS). "
                      "completer_rate: the strategy's seat-games in which the seat completed the Major building at least once; "
                      "first_share: of the games in which it was completed, the share whose first completion was the strategy's "
                      "(compare with the strategy's share of the seats); Wilson 95% CIs. completions and spaces: per seat-game, the "
                      "seat's completions and the grid spaces its workers held when the grid was completed (who built it; a "
                      "shadow disc counts for the seat that placed it).",
                 power="Power: descriptive rates (no test).",
                 pct={"completer_rate", "completer_rate_lo", "completer_rate_hi", "first_share", "first_share_lo", "first_share_hi"},
                 show=t.height <= 240)


def major_value(majors: pl.LazyFrame, games: pl.LazyFrame, by: list[str]) -> Table:
    """Does completing pay? Per ``by`` group and Major building: the win rate of the seat-games that completed
    it against the other seats' (:func:`analysis.played.use_table`: Newcombe interval of the difference,
    score test, Holm over the Major buildings of a group), and their VP (t CI)."""
    from analysis.played import use_table

    key = [*KEY, "seat"]
    m = _string(majors, "variant", "major").select(*key, "major", "completed")
    g = _string(games, "variant").select(*key, "credit", "vp")
    f = (m.join(g.with_columns(pl.col("seat").cast(m.collect_schema()["seat"]), pl.col("game").cast(m.collect_schema()["game"])),
                on=key, how="inner")
         .with_columns((pl.col("completed") > 0).alias("completer"),
                       (pl.col("variant") if "variant" in by else pl.lit("all seats")).alias("group")))
    counts = (f.group_by("group", "players", "major").agg(
        pl.len().cast(pl.Int64).alias("n"), pl.col("completer").cast(pl.Int64).sum().alias("used"),
        pl.when(pl.col("completer")).then(pl.col("credit")).otherwise(0.0).sum().alias("wins_used"),
        pl.col("credit").sum().alias("wins"), pl.col("completed").cast(pl.Float64).sum().alias("total"))
        .rename({"major": "item"}).with_columns(pl.col("players").cast(pl.Int64)).sort("group", "players", "item").collect())
    use = use_table(counts).with_columns(pl.col("p_holm").fill_nan(None))  # a Major never completed is no test
    vp = means(f, ["group", "players", "major", "completer"], ["vp"])

    def side(completer: bool, name: str) -> pl.DataFrame:
        return vp.filter(pl.col("completer") == completer).select("group", pl.col("players").cast(pl.Int64), pl.col("major").alias("item"),
                                                                   *(pl.col(f"vp{x}").alias(f"{name}{x}") for x in ("", "_lo", "_hi")))

    on = ["group", "players", "item"]
    t = use.join(side(True, "vp_completers"), on=on, how="left").join(side(False, "vp_others"), on=on, how="left")
    verdict = (pl.when(pl.col("used") == 0).then(pl.lit("never completed"))
               .when(pl.col("p_holm").is_null()).then(pl.lit("no comparison"))
               .when((pl.col("p_holm") < 0.05) & (pl.col("diff") > 0)).then(pl.lit("completers win more"))
               .when(pl.col("p_holm") < 0.05).then(pl.lit("completers win less"))
               .otherwise(pl.lit("no detectable difference")))
    order = {x: i for i, x in enumerate(enum_names(majors, "major"))}
    t = (t.with_columns(verdict.alias("verdict"), pl.col("item").replace_strict(order, return_dtype=pl.Int64).alias("_o"))
         .rename({"item": "major", "used": "completers", "share": "completer_share", "share_lo": "completer_share_lo",
                  "share_hi": "completer_share_hi", "win_used": "win_completers", "win_unused": "win_others"})
         .sort("group", "players", "_o").drop("_o"))
    lead = ["variant"] if "variant" in by else []
    t = t.rename({"group": "variant"}) if lead else t.drop("group")
    t = t.select(*lead, "players", "major", "n", "completers", "completer_share", "completer_share_lo", "completer_share_hi",
                 "win_completers", "win_others", "diff", "diff_lo", "diff_hi", "p", "p_holm", "vp_completers", "vp_completers_lo",
                 "vp_completers_hi", "vp_others", "vp_others_lo", "vp_others_hi", "verdict")
    return Table("major_value", "Does completing pay? The completers of each Major building against the other seats", t,
                 note="win_completers / win_others: mean win credit (ties share a win) of the seat-games that completed the Major "
                      "building at least once and of the others; diff with the Newcombe 95% interval; p: score test of equal rates; "
                      "Holm p over the Major buildings of a player count. The completers' VP include the grid's VP and the "
                      "completion bonus. Association, not cause: a seat that is ahead can afford to finish a grid.",
                 power="Power: see the intervals of diff (a Major completed in few games, or by almost every seat, leaves them wide).",
                 pct={"completer_share", "completer_share_lo", "completer_share_hi", "win_completers", "win_others", "diff", "diff_lo",
                      "diff_hi"})


def enum_names(lf: pl.LazyFrame, col: str) -> list[str]:
    """An Enum column's categories in the engine's order (every Major building, every office)."""
    dt = lf.collect_schema().get(col)
    return dt.categories.to_list() if isinstance(dt, pl.Enum) else sorted(lf.select(pl.col(col).cast(pl.String).unique()).collect()
                                                                          .to_series().to_list())
