"""Per-Character pages (issue 23 part 4): for each Character of the baseline variant, where its VP
come from against the average Character, its best and worst opponents, its Affiliate card use, and
three example games (a typical win, a typical loss, an outlier) with the ``trinidad play`` command
that replays each.

Bounded memory: the VP sums and the cards taken and used read every game a shard at a time
(:class:`analysis.data.Games`, :func:`analysis.data.sum_chunks`); the card-by-card uses and the
example games come from the report's detail subset (:meth:`analysis.data.Run.subset`).
"""

from __future__ import annotations

import re
import shlex

import numpy as np
import polars as pl

from analysis import stats
from analysis.data import sum_chunks, vp_sources
from analysis.labels import source_label
from analysis.played import CARD_PREFIX, card_groups, option_label
from analysis.tables import Section, Table, holm_within

TOP_CARDS = 8  # the cards a page lists: those this Character uses most above the average Character


def slug(name: str) -> str:
    """``Captain`` -> ``captain``; the HTML id of a page is ``character-<slug>``."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def vp_moments(games) -> pl.DataFrame:
    """Per (players, character): seats ``n`` and, per VP source, the sum and sum of squares (sums
    only, so a :class:`analysis.data.Games` is read a shard at a time)."""
    names = _names(games)
    cols = vp_sources(names)
    extra = [c for c in ("cards_taken", "cards_used") if c in names]
    aggs = [pl.len().alias("n"), *(pl.col(c).cast(pl.Float64).sum().alias(f"s:{c}") for c in cols + extra),
            *((pl.col(c).cast(pl.Float64) ** 2).sum().alias(f"q:{c}") for c in cols)]
    return (sum_chunks(games, ["players", "character"], aggs, cols + extra)
            .with_columns(pl.col("character").cast(pl.String), pl.col("players").cast(pl.Int64)).sort("players", "character"))


def _names(games) -> list[str]:
    """The columns of a :class:`analysis.data.Games` or a frame."""
    return games.columns() if hasattr(games, "files") else games.lazy().collect_schema().names()


def vp_table(moments: pl.DataFrame, character: str) -> pl.DataFrame:
    """One row per player count and VP source: the Character's mean VP per seat-game from it (t
    95% interval), the average over all seats of that player count, and the difference."""
    cols = [c[2:] for c in moments.columns if c.startswith("s:vp_")]
    rows = []
    for (n,), part in sorted(moments.partition_by("players", as_dict=True).items()):
        me = part.filter(pl.col("character") == character)
        if me.height == 0:
            continue
        total = int(part["n"].sum())
        for c in cols:
            m, lo, hi = stats.mean_ci_moments(me["n"].to_numpy(), me[f"s:{c}"].to_numpy(), me[f"q:{c}"].to_numpy())
            avg = float(part[f"s:{c}"].sum()) / total
            if part[f"s:{c}"].sum() == 0:
                continue  # a source no seat scored from in this run
            rows.append({"players": int(n), "source": c[3:], "n": int(me["n"][0]), "vp": float(m[0]), "vp_lo": float(lo[0]),
                         "vp_hi": float(hi[0]), "average": avg, "diff": float(m[0]) - avg})
    return pl.DataFrame(rows, schema={"players": pl.Int64, "source": pl.String, "n": pl.Int64, "vp": pl.Float64, "vp_lo": pl.Float64,
                                      "vp_hi": pl.Float64, "average": pl.Float64, "diff": pl.Float64})


def opponents_table(above: pl.DataFrame, character: str) -> pl.DataFrame:
    """The Character against each other Character (from the finishes-above pairs): the share of
    shared games it finished above it (Wilson 95%), a score test against 50% with Holm over the
    opponents of one player count, and ``best`` / ``worst`` marking the extremes."""
    t = above.filter(pl.col("character_a") == character).select(
        pl.col("players").cast(pl.Int64), pl.col("character_b").alias("opponent"), "n", "above", "rate", "rate_lo", "rate_hi")
    if t.height == 0:
        return t.with_columns(pl.lit(None, pl.Float64).alias("p"), pl.lit(None, pl.Float64).alias("p_holm"), pl.lit("").alias("note"))
    t = t.with_columns(pl.Series("p", stats.prop_test(t["above"].to_numpy(), t["n"].to_numpy(), 0.5)))
    t = holm_within(t, ["players"]).sort(["players", "rate"], descending=[False, True])
    best = pl.col("rate") == pl.col("rate").max().over("players")
    worst = pl.col("rate") == pl.col("rate").min().over("players")
    return t.with_columns(pl.when(best).then(pl.lit("best")).when(worst).then(pl.lit("worst")).otherwise(pl.lit("")).alias("note"))


def card_totals(dec: pl.LazyFrame | None, games: pl.LazyFrame) -> pl.DataFrame:
    """Per (players, character): seat-games ``n`` and the summed uses of each Affiliate card's power
    (the decades' cumulative ``uses_card_*`` at the last decade), from the detail subset."""
    if dec is None:
        return pl.DataFrame()
    cols = [c for c in dec.collect_schema().names() if c.startswith(CARD_PREFIX)]
    if not cols:
        return pl.DataFrame()
    last = dec.select(pl.col("decade").max()).collect(engine="streaming").item()
    return (dec.filter(pl.col("decade") == last).group_by(pl.col("players").cast(pl.Int64), pl.col("character").cast(pl.String))
            .agg(pl.len().alias("n"), *(pl.col(c).cast(pl.Float64).sum() for c in cols)).sort("players", "character").collect())


def cards_table(moments: pl.DataFrame, totals: pl.DataFrame, character: str, groups: dict[int, str]) -> pl.DataFrame:
    """Cards taken and powers used per seat-game against the average (every game), then the
    :data:`TOP_CARDS` Affiliate cards whose power this Character used most above the average Character
    (per seat-game; ratio = this Character's rate / the average)."""
    rows = []
    for (n,), part in sorted(moments.partition_by("players", as_dict=True).items()):
        me = part.filter(pl.col("character") == character)
        if me.height == 0:
            continue
        for c, label in (("cards_taken", "Affiliate cards taken"), ("cards_used", "Affiliate card powers used")):
            if f"s:{c}" in part.columns:
                mine, avg = float(me[f"s:{c}"][0]) / int(me["n"][0]), float(part[f"s:{c}"].sum()) / int(part["n"].sum())
                rows.append({"players": int(n), "item": label, "per_game": mine, "average": avg, "ratio": mine / avg if avg else None})
        if totals.height == 0:
            continue
        tp = totals.filter(pl.col("players") == n)
        mt = tp.filter(pl.col("character") == character)
        if mt.height == 0:
            continue
        cards = []
        for c in (c for c in tp.columns if c.startswith(CARD_PREFIX)):
            avg = float(tp[c].sum()) / int(tp["n"].sum())
            mine = float(mt[c][0]) / int(mt["n"][0])
            if mine > 0:
                cards.append({"players": int(n), "item": option_label(c, groups), "per_game": mine, "average": avg,
                              "ratio": mine / avg if avg else None})
        rows += sorted(cards, key=lambda r: (-(r["ratio"] or 0), -r["per_game"]))[:TOP_CARDS]
    return pl.DataFrame(rows, schema={"players": pl.Int64, "item": pl.String, "per_game": pl.Float64, "average": pl.Float64,
                                      "ratio": pl.Float64})


def replay_command(run, players: int, game: int, variant: str | None = None) -> str:
    """The ``trinidad play`` command that replays game ``game`` of the run's ``players``-player games
    (``players``: the games table's column, which counts the A.I.'s seat; ``--players`` does not)."""
    if (run.manifest.get("experiment") or {}).get("ai"):
        players -= 1
    cmd = f"trinidad play --run {shlex.quote(str(run.path.resolve()))} --players {players} --index {game}"  # absolute: pasted from anywhere
    if variant is not None and variant != run.baseline:
        cmd += f" --variant {shlex.quote(variant)}"
    return cmd


def examples_table(g: pl.DataFrame, character: str, run) -> pl.DataFrame:
    """Per player count, three of the Character's games: a typical win (a win whose margin is nearest
    the median margin of its wins), a typical loss (likewise among its losses) and an outlier (the
    largest margin either way), each with the command that replays it. Ties: the lowest game index."""
    cols = ["players", "game", "seed", "seat", "strategy", "vp", "rank", "margin", "credit"]
    me = g.filter(pl.col("character").cast(pl.String) == character).select(cols).with_columns(
        pl.col("players").cast(pl.Int64), pl.col("strategy").cast(pl.String))
    rows = []

    def pick(part: pl.DataFrame, key: pl.Expr) -> dict | None:
        return None if part.height == 0 else part.with_columns(key.alias("_k")).sort("_k", "game").row(0, named=True)

    for (n,), part in sorted(me.partition_by("players", as_dict=True).items()):
        wins, losses = part.filter(pl.col("credit") > 0), part.filter(pl.col("credit") == 0)
        chosen = [("typical win", pick(wins, (pl.col("margin") - wins["margin"].median()).abs()) if wins.height else None),
                  ("typical loss", pick(losses, (pl.col("margin") - losses["margin"].median()).abs()) if losses.height else None),
                  ("outlier", pick(part, -pl.col("margin").abs()))]
        for what, r in chosen:
            if r is None:
                continue
            rows.append({"players": int(n), "example": what, "game": int(r["game"]), "seed": str(r["seed"]), "seat": int(r["seat"]),
                         "strategy": r["strategy"], "vp": int(r["vp"]), "rank": int(r["rank"]), "margin": int(r["margin"]),
                         "command": replay_command(run, int(n), int(r["game"]))})
    return pl.DataFrame(rows, schema={"players": pl.Int64, "example": pl.String, "game": pl.Int64, "seed": pl.String, "seat": pl.Int64,
                                      "strategy": pl.String, "vp": pl.Int64, "rank": pl.Int64, "margin": pl.Int64, "command": pl.String})


def character_pages(run, full, g: pl.DataFrame, dec: pl.LazyFrame | None, balance: pl.DataFrame, above: pl.DataFrame,
                    detail: int | None):
    """One :class:`analysis.Section` per Character of the baseline variant (id ``character-<slug>``),
    in the order of the Character balance table's first player count (best win rate first)."""
    moments = vp_moments(full)
    totals = card_totals(dec, g.lazy())
    doc = run.manifest.get("variants") or [{}]
    groups = card_groups((doc[0] or {}).get("rules"))
    order = list(dict.fromkeys(balance["character"].cast(pl.String).to_list()))
    sub = (f" Card by card and the example games: a random {detail:,} of the run's game indices." if detail else "")
    pages = []
    for ch in order:
        sid = slug(ch)
        vp = vp_table(moments, ch)
        opp = opponents_table(above, ch)
        cards = cards_table(moments, totals, ch, groups)
        ex = examples_table(g, ch, run)
        intro = []
        for r in balance.filter(pl.col("character").cast(pl.String) == ch).iter_rows(named=True):
            bits = [f"{r['players']} players: wins {100 * r['win_rate']:.1f}% [{100 * r['win_rate_lo']:.1f}, {100 * r['win_rate_hi']:.1f}] "
                    f"of {r['n']:,} seats (fair share {100 / r['players']:.1f}%)"]
            v = vp.filter(pl.col("players") == r["players"]).sort("diff")
            if v.height:
                hi, lo = v.row(-1, named=True), v.row(0, named=True)
                bits.append(f"VP most above the average from {source_label(hi['source'])} ({hi['diff']:+.1f} a game), "
                            f"most below from {source_label(lo['source'])} "
                            f"({lo['diff']:+.1f})")
            o = opp.filter(pl.col("players") == r["players"])
            if o.height:
                b, w = o.row(0, named=True), o.row(-1, named=True)
                bits.append(f"best opponent {b['opponent']} (finishes above it in {100 * b['rate']:.0f}% of {b['n']:,} shared games), "
                            f"worst {w['opponent']} ({100 * w['rate']:.0f}% of {w['n']:,})")
            intro.append("; ".join(bits) + ".")
        s = Section(f"character-{sid}", ch, " ".join(intro))
        s.tables = [
            Table(f"character_vp_{sid}", f"{ch}: VP by source against the average Character", vp,
                  note=(f"Mean VP per seat-game from each source when {ch} played (t 95% interval), the mean of every seat of that "
                        "player count (all Characters, the one shown included), and the difference. Sources no seat scored from "
                        "are left out."),
                  power=power_vp(vp)),
            Table(f"character_opponents_{sid}", f"{ch} against each other Character", opp,
                  note=(f"rate: the share of games shared with the opponent in which {ch} finished above it (equal ranks ½; Wilson "
                        "95%); p: score test against 50%, p_holm over the opponents of one player count; best / worst: the highest "
                        "and lowest rate."),
                  power=power_pairs(opp), pct={"rate", "rate_lo", "rate_hi"}),
            Table(f"character_cards_{sid}", f"{ch}: Affiliate cards", cards,
                  note=(f"Per seat-game of {ch} against the average seat of that player count (every game): Affiliate cards taken "
                        f"and card powers used; then the {TOP_CARDS} cards whose power {ch} used most above the average "
                        f"(ratio = {ch}'s uses per seat-game / the average's; card N (Character): the card's number and series)." + sub),
                  power="Power: descriptive rates (no test); a card used a handful of times has a ratio of little weight."),
            Table(f"character_examples_{sid}", f"{ch}: three example games", ex,
                  note=(f"Typical win: a win of {ch} whose VP margin (own VP minus the best other seat's) is nearest the median "
                        f"margin of its wins; typical loss: likewise among its losses; outlier: its game with the largest margin "
                        "either way. The command replays the whole game (every seat, as the run played it) and prints each seat's "
                        "VP; the seat column says which seat was " + ch + "."),
                  power="Power: examples, not estimates."),
        ]
        pages.append(s)
    return pages


def power_vp(vp: pl.DataFrame) -> str:
    """The smallest VP difference from the average detectable with the Character's seats, per
    player count, for the source with the largest spread."""
    if vp.height == 0:
        return ""
    bits = []
    for (n,), part in sorted(vp.partition_by("players", as_dict=True).items()):
        k = int(part["n"][0])
        sd = float(np.nanmax(((part["vp_hi"] - part["vp"]).to_numpy() / 1.96) * np.sqrt(k)))
        bits.append(f"{n} players: ±{stats.mde_mean(k, sd):.2f} VP at the most spread source (n = {k:,} seats)")
    return "Power: the smallest difference from the average detectable with 80% power at α = 0.05 (one source) — " + "; ".join(bits) + "."


def power_pairs(opp: pl.DataFrame) -> str:
    if opp.height == 0:
        return ""
    nmin = int(opp["n"].min())
    mde = stats.mde_proportion(nmin, 0.5, alpha=stats.ALPHA / max(opp.height, 1))
    return (f"Power: with n ≥ {nmin:,} shared games per opponent, a departure of ±{stats.fmt_pts(mde)} from 50% is detectable "
            "with 80% power at α = 0.05/m (Holm's first step).")
