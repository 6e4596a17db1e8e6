"""What was played: per strategy, how often a seat-game built each Minor building type, took each
main action and free action, and what it gained (the games table's ``built_*``, ``act_*``,
``gained_*``, ``cards_taken`` and ``cards_used`` columns), and the Houses and Palaces standing at
each Scoring (the decades table's rows with ``scoring`` > 0).

Runs written before these columns existed lack them: the tables are then empty (no rows).
"""

from __future__ import annotations

import polars as pl

from analysis.labels import action_label, building_label
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
    """A column's row label in the rulebook's words (:mod:`analysis.labels`): ``built Palace``,
    ``main: 5. Load the Ship``, ``free: Call a City Council vote``, ``gained metal``."""
    if col.startswith(BUILT_PREFIX):
        return "built " + building_label(col[len(BUILT_PREFIX):])
    if col.startswith(ACT_PREFIX):
        a = Act[col[len(ACT_PREFIX):].upper()]
        return ("free: " if a >= FIRST_FREE_ACT else "main: ") + action_label(a.name)
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


# ---------------------------------------------------------------------------------------------
# The report's "What is played and what is never played" (issue 23 part 3): every building type,
# action and Affiliate card, how often a seat-game used it (per player tier, else per strategy;
# never pooled), and the win rate of the seat-games that used it against those that did not.

NEVER_SHARE = 0.01  # "never or almost never played": used in fewer than this share of seat-games
CARD_PREFIX = "uses_card_"
CAUSE_WARNING = ("Association is not cause: a seat that used an option and won may have used it because it was already winning "
                 "(a rich seat builds more), or because of its Character or its deal; only a restricted-play probe (trinidad probe: "
                 "the same deals with one seat forced to take the option) measures what taking the option does.")
_USE_SCHEMA = {"group": pl.String, "players": pl.Int64, "item": pl.String, "n": pl.Int64, "used": pl.Int64,
               "wins_used": pl.Float64, "wins": pl.Float64, "total": pl.Float64}


def option_columns(columns) -> list[str]:
    """The option columns of a games table (Minor buildings built, main and free actions, resources
    gained, Affiliate cards taken and used), or of a decades table (``uses_card_*``), in table order."""
    cols = list(columns)
    return played_columns(cols) + [c for c in cols if c.startswith(CARD_PREFIX)]


def item_kind(col: str) -> str:
    """``building``, ``main action``, ``free action``, ``gain`` or ``card``."""
    if col.startswith(BUILT_PREFIX):
        return "building"
    if col.startswith(ACT_PREFIX):
        return "free action" if Act[col[len(ACT_PREFIX):].upper()] >= FIRST_FREE_ACT else "main action"
    if col.startswith(CARD_PREFIX):
        return "card"
    return "gain"


def card_groups(doc: dict | None = None) -> dict[int, str]:
    """Affiliate card number -> its group (the Character whose series it belongs to), from a rules
    document (default: the shipped rules)."""
    from sim.rule_overrides import load_rules_doc

    doc = doc if doc and doc.get("affiliate") else load_rules_doc()
    return {int(a["number"]): str(a["group"]) for a in doc["affiliate"]}


def option_label(col: str, groups: dict[int, str] | None = None) -> str:
    """:func:`item_label`, and ``card 13 (Carpenter)`` for an Affiliate card's uses."""
    if col.startswith(CARD_PREFIX):
        num = int(col[len(CARD_PREFIX):])
        return f"card {num}" + (f" ({groups[num]})" if groups and num in groups else "")
    return item_label(col)


def _use_sums(frame: pl.DataFrame, cols: list[str]) -> list[pl.DataFrame]:
    """Per (group, players): seat-games ``n``, wins, and per item the seat-games that used it, their
    wins and the item's total count (sums only, so chunks add up)."""
    used = [(pl.col(c) > 0).cast(pl.Int64).sum().alias(f"u:{c}") for c in cols]
    wins_used = [pl.when(pl.col(c) > 0).then(pl.col("credit")).otherwise(0.0).sum().alias(f"w:{c}") for c in cols]
    total = [pl.col(c).cast(pl.Float64).sum().alias(f"t:{c}") for c in cols]
    return [frame.group_by("group", "players").agg(pl.len().cast(pl.Int64).alias("n"), pl.col("credit").sum().alias("wins"),
                                                   *used, *wins_used, *total)]


def _long(agg: pl.DataFrame, cols: list[str]) -> pl.DataFrame:
    rows = []
    for r in agg.iter_rows(named=True):
        for c in cols:
            rows.append({"group": r["group"], "players": int(r["players"]), "item": c, "n": int(r["n"]), "used": int(r[f"u:{c}"]),
                         "wins_used": float(r[f"w:{c}"]), "wins": float(r["wins"]), "total": float(r[f"t:{c}"])})
    return pl.DataFrame(rows, schema=_USE_SCHEMA)


def _no_ai(lf: pl.LazyFrame) -> pl.LazyFrame:
    """The players' seats only: the Solo A.I.'s seat (strategy ``ai-*``) takes no decisions of its own."""
    return lf.filter(~pl.col("strategy").cast(pl.String).str.starts_with("ai-"))


def use_counts(games, group: str | None = None) -> pl.DataFrame:
    """Long table (group, players, item, n, used, wins_used, wins, total) of the games table's
    option columns. ``games``: a :class:`analysis.data.Games` (read a shard at a time) or a frame
    with ``credit``; ``group``: a fixed label for every row (a player tier), else each seat's strategy."""
    from analysis.data import Games

    if isinstance(games, Games):
        cols = played_columns(games.columns())
        chunks = games.chunks(["players", "strategy", "credit", *cols])
    else:
        lf = games.lazy()
        cols = played_columns(lf.collect_schema().names())
        chunks = [lf.select("players", "strategy", "credit", *cols).collect()]
    if not cols:
        return pl.DataFrame(schema=_USE_SCHEMA)
    parts = []
    for c in chunks:
        c = _no_ai(c.lazy()).with_columns(pl.lit(group).alias("group") if group else pl.col("strategy").cast(pl.String).alias("group"))
        parts += _use_sums(c.collect(), cols)
    if not parts:
        return pl.DataFrame(schema=_USE_SCHEMA)
    agg = pl.concat(parts).group_by("group", "players").agg(pl.exclude("group", "players").sum())
    return _long(agg.sort("group", "players"), cols)


def card_use_counts(decades: pl.LazyFrame | None, games: pl.LazyFrame, group: str | None = None) -> pl.DataFrame:
    """:func:`use_counts` of the Affiliate cards: each seat-game's uses of each card's power (the
    decades table's cumulative ``uses_card_*`` at the last decade played), joined to the seat's
    win credit. Reads whole frames: pass a run cut to a subset (:meth:`analysis.data.Run.subset`)."""
    if decades is None:
        return pl.DataFrame(schema=_USE_SCHEMA)
    names = decades.collect_schema().names()
    cols = [c for c in names if c.startswith(CARD_PREFIX)]
    if not cols:
        return pl.DataFrame(schema=_USE_SCHEMA)
    key = ["variant", "players", "game", "seat"]
    last = decades.select(pl.col("decade").max()).collect(engine="streaming").item()  # 12, or 8 with the First Game Option: the same for every game
    d = decades.filter(pl.col("decade") == last).select(*key, *cols).with_columns(pl.col("variant").cast(pl.String))
    g = games.select(*key, "strategy", "credit").with_columns(pl.col("variant").cast(pl.String))
    f = _no_ai(d.join(g, on=key, how="inner")).with_columns(
        pl.lit(group).alias("group") if group else pl.col("strategy").cast(pl.String).alias("group")).collect()
    return frame_use_counts(f, cols)


def frame_use_counts(frame: pl.DataFrame, cols: list[str]) -> pl.DataFrame:
    """:func:`use_counts` of a frame of seat-games with ``group``, ``players``, ``credit`` and the count
    columns ``cols`` (a card's uses; Río de la Plata: a Public Office owned)."""
    if frame.height == 0:
        return pl.DataFrame(schema=_USE_SCHEMA)
    return _long(_use_sums(frame, cols)[0].sort("group", "players"), cols)


def use_table(counts: pl.DataFrame, groups: dict[int, str] | None = None) -> pl.DataFrame:
    """From :func:`use_counts` rows: ``share`` of seat-games that used the item (Wilson 95% CI),
    ``mean`` count per seat-game, ``win_used`` / ``win_unused`` (mean win credit of the seat-games
    that did / did not use it), ``diff`` = their difference with the Newcombe 95% interval
    (statsmodels ``confint_proportions_2indep``), the score test's p (``test_proportions_2indep``)
    and Holm p over the items of one group and player count."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    from analysis import stats
    from analysis.tables import holm_within

    if counts.height == 0:
        f = pl.Float64
        return pl.DataFrame(schema={"group": pl.String, "players": pl.Int64, "kind": pl.String, "option": pl.String, "item": pl.String,
                                    "n": pl.Int64, "used": pl.Int64} | {c: f for c in _USE_STATS})
    n = counts["n"].to_numpy().astype(float)
    u = counts["used"].to_numpy().astype(float)
    wu = counts["wins_used"].to_numpy()
    wn = counts["wins"].to_numpy() - wu
    lo, hi = stats.wilson(u, n)
    import numpy as np

    both = (u > 0) & (u < n)
    d, dlo, dhi, p = (np.full(len(n), np.nan) for _ in range(4))
    if both.any():
        i = both
        dlo[i], dhi[i] = confint_proportions_2indep(wu[i], u[i], wn[i], n[i] - u[i], method="newcombe")
        d[i] = wu[i] / u[i] - wn[i] / (n[i] - u[i])
        for k in np.flatnonzero(i):
            with np.errstate(all="ignore"):
                p[k] = test_proportions_2indep(wu[k], u[k], wn[k], n[k] - u[k], method="score").pvalue
    with np.errstate(all="ignore"):
        t = counts.with_columns(
            pl.col("item").map_elements(item_kind, return_dtype=pl.String).alias("kind"),
            pl.col("item").map_elements(lambda c: option_label(c, groups), return_dtype=pl.String).alias("option"),
            pl.Series("share", u / n), pl.Series("share_lo", lo), pl.Series("share_hi", hi),
            (pl.col("total") / pl.col("n")).alias("mean"),
            pl.Series("win_used", np.where(u > 0, wu / np.maximum(u, 1), np.nan)),
            pl.Series("win_unused", np.where(u < n, wn / np.maximum(n - u, 1), np.nan)),
            pl.Series("diff", d), pl.Series("diff_lo", dlo), pl.Series("diff_hi", dhi), pl.Series("p", p))
    t = holm_within(t.with_columns(pl.col(c).fill_nan(None) for c in ("win_used", "win_unused", "diff", "diff_lo", "diff_hi", "p")),
                    ["group", "players"])
    return t.select("group", "players", "kind", "option", "item", "n", "used", *_USE_STATS)


_USE_STATS = ("share", "share_lo", "share_hi", "mean", "win_used", "win_unused", "diff", "diff_lo", "diff_hi", "p", "p_holm")


def never_played(t: pl.DataFrame, threshold: float = NEVER_SHARE) -> pl.DataFrame:
    """The rows of :func:`use_table` used in fewer than ``threshold`` of the seat-games, rarest first."""
    if t.height == 0:
        return t.select("group", "players", "kind", "option", "item", "n", "used", "share", "share_lo", "share_hi")
    return (t.filter(pl.col("share") < threshold).sort("group", "players", "used", "item")
            .select("group", "players", "kind", "option", "item", "n", "used", "share", "share_lo", "share_hi"))


def never_sentences(never: pl.DataFrame, threshold: float = NEVER_SHARE, what: str = "") -> list[str]:
    """One plain sentence per group and player count: the options never used, and those used in
    fewer than ``threshold`` of the seat-games (with the share)."""
    out = []
    for (grp, n), part in sorted(never.partition_by("group", "players", as_dict=True).items()):
        zero = part.filter(pl.col("used") == 0)
        rare = part.filter(pl.col("used") > 0)
        seats = int(part["n"].max())
        bits = []
        if zero.height:
            bits.append(f"never played ({zero.height}): " + ", ".join(zero["option"].to_list()))
        if rare.height:
            bits.append(f"almost never (in under {threshold:.0%} of seat-games): "
                        + ", ".join(f"{r['option']} {100 * r['share']:.2f}%" for r in rare.iter_rows(named=True)))
        out.append(f"{what}{grp}, {n} players (up to {seats:,} seat-games): " + "; ".join(bits) + ".")
    return out


PROBE_KEYS = ("strategy", "players", "games", "seed", "threshold", "options")


def load_probe(path) -> dict:
    """A probe result written by ``trinidad probe ... --json > FILE`` (:meth:`trinidad.probe.ProbeResult.to_dict`);
    a file that is not one raises :class:`analysis.data.RunError` naming it."""
    import json
    from pathlib import Path

    from analysis.data import RunError

    p = Path(path)
    try:
        doc = json.loads(p.read_text())
    except (OSError, ValueError) as e:
        raise RunError(f"probes: {p}: not a readable JSON file ({type(e).__name__})") from None
    missing = [k for k in PROBE_KEYS if not isinstance(doc, dict) or k not in doc]
    if missing or not isinstance(doc["options"], list) or not all(isinstance(o, dict) and "option" in o for o in doc["options"]):
        raise RunError(f"probes: {p}: not a probe result (missing {', '.join(missing) or 'options[].option'}); "
                       "write one with: trinidad probe ... --json > FILE")
    doc["file"] = str(p)
    return doc


def probe_table(probes: list[dict]) -> pl.DataFrame:
    """The probed options of each probe result: how often it was used unforced, how often the
    forced seat could take it, that seat's win rate unforced and forced (Wilson 95%), the paired
    differences of win credit and VP margin (t 95%), the margin's p and Holm p over the options of one probe."""
    from analysis.tables import holm_within

    def nan(v):
        return float("nan") if v is None else float(v)

    def ci(o, k, i):
        v = o.get(k) or []
        return nan(v[i]) if len(v) == 2 else float("nan")

    rows = []
    for k, d in enumerate(probes):
        for o in d["options"]:
            if not o.get("probed"):
                continue
            rows.append({"probe": k + 1, "strategy": str(d["strategy"]), "players": int(d["players"]), "option": str(o["option"]),
                         "n": int(o.get("n") or 0), "used": nan(o.get("used")), "forced": nan(o.get("forced")),
                         "win_unforced": nan(o.get("win_base")), "win_unforced_lo": ci(o, "win_base_ci", 0),
                         "win_unforced_hi": ci(o, "win_base_ci", 1),
                         "win_forced": nan(o.get("win_forced")), "win_forced_lo": ci(o, "win_forced_ci", 0),
                         "win_forced_hi": ci(o, "win_forced_ci", 1),
                         "win_diff": nan(o.get("win_diff")), "win_diff_lo": ci(o, "win_diff_ci", 0), "win_diff_hi": ci(o, "win_diff_ci", 1),
                         "margin_diff": nan(o.get("margin_diff")), "margin_diff_lo": ci(o, "margin_diff_ci", 0),
                         "margin_diff_hi": ci(o, "margin_diff_ci", 1), "p": nan(o.get("margin_p"))})
    schema = {"probe": pl.Int64, "strategy": pl.String, "players": pl.Int64, "option": pl.String, "n": pl.Int64, "used": pl.Float64,
              "forced": pl.Float64} | {c: pl.Float64 for c in ("win_unforced", "win_unforced_lo", "win_unforced_hi", "win_forced",
                                                                "win_forced_lo", "win_forced_hi", "win_diff", "win_diff_lo",
                                                                "win_diff_hi", "margin_diff", "margin_diff_lo", "margin_diff_hi", "p")}
    t = pl.DataFrame(rows, schema=schema).with_columns(pl.col("p").fill_nan(None))
    return holm_within(t, ["probe"])


def option_use_section(tiers: list, detail_games: int, probes: list[dict] | None = None, threshold: float = NEVER_SHARE):
    """The tables, summary.json document and plain sentences of the report's option-use section.

    ``tiers``: :class:`analysis.sensitivity.Tier` objects, strongest first. With several tiers each
    row is one tier's own (never pooled); with one, each row is one strategy of the run. The
    buildings, actions and gains read every game of the baseline variant a shard at a time; the
    Affiliate cards (the decades table) use at most ``detail_games`` game indices (:meth:`analysis.data.Run.subset`)."""
    from analysis.tables import Table

    by_tier = len(tiers) > 1
    counts, cards, subset = [], [], []
    for t in tiers:
        run = t.run
        counts.append(use_counts(run.all_games(), t.label if by_tier else None))
        det = run.subset(detail_games)
        if det.detail:
            subset.append(f"{t.label}: {det.detail:,} of {run.game_count():,} game indices" if by_tier else
                          f"a random {det.detail:,} of the run's {run.game_count():,} game indices")
        cards.append(card_use_counts(det.decades_of(run.baseline), det.games_of(run.baseline), t.label if by_tier else None))
    doc = tiers[0].run.manifest.get("variants") or [{}]
    groups = card_groups((doc[0] or {}).get("rules"))
    order = {t.label: k for k, t in enumerate(tiers)}

    def ordered(df):
        return df.sort(pl.col("group").replace_strict(order, default=len(order)) if by_tier else pl.col("group"), "players")

    opt = ordered(use_table(pl.concat(counts)))
    card = ordered(use_table(pl.concat(cards), groups))
    never = never_played(pl.concat([opt, card], how="diagonal_relaxed") if card.height else opt, threshold)
    never = ordered(never) if never.height else never
    who = "player tier (strongest first; tiers are never pooled)" if by_tier else "strategy"
    pct = {"share", "share_lo", "share_hi", "win_used", "win_unused", "diff", "diff_lo", "diff_hi"}
    assoc = ("win_used / win_unused: mean win credit (ties 1/k) of the seat-games that used the option / did not; diff = their "
             "difference with the Newcombe 95% interval (statsmodels), p: score test of equal rates, p_holm: Holm over the options "
             "of one " + ("tier" if by_tier else "strategy") + " and player count. The seats of one game share one win, so the "
             "intervals are somewhat too narrow. " + CAUSE_WARNING)
    from analysis import stats

    def power(df: pl.DataFrame) -> str:
        if df.height == 0:
            return ""
        bits = []
        for (grp, n), part in sorted(df.partition_by("group", "players", as_dict=True).items(), key=lambda kv: (order.get(kv[0][0], 0), kv[0])):
            seats = int(part["n"].max())
            half = stats.mde_proportion(seats // 2, 1 / n, alpha=stats.ALPHA / part.height, nobs2=seats - seats // 2)
            bits.append(f"{grp}, {n} players: ±{stats.fmt_pts(half)} with an even split of {seats:,} seat-games")
        return ("Power: the smallest difference in win rate between the seat-games that used an option and those that did not, "
                "detectable with 80% power at α = 0.05/m (Holm's first step): " + "; ".join(bits)
                + " (an option used by few seat-games needs a far larger difference).")

    sub = f" The cards use {'; '.join(subset)} (the decades table)." if subset else ""
    tables = [
        Table("option_use", f"Buildings, actions and gains per seat-game, by {who}", opt,
              note=("share: the share of seat-games that did it at least once (Wilson 95% CI); mean: count per seat-game (Minor "
                    "buildings constructed, TURN rows of each main and free action, resources gained, Affiliate cards taken and "
                    "powers used); the Solo A.I.'s seat is left out. " + assoc),
              power=power(opt), pct=pct),
        Table("card_use", f"Affiliate card powers used per seat-game, by {who}", card,
              note=("share: the share of seat-games that used the card's power at least once (Wilson 95% CI); mean: uses per "
                    f"seat-game; card N (Character): the Affiliate card's number and its series.{sub} " + assoc),
              power=power(card), pct=pct),
        Table("never_played", f"Never or almost never played (in under {threshold:.0%} of seat-games)", never,
              note=(f"Every building type, action, gain and Affiliate card used in fewer than {threshold:.0%} of a {who}'s "
                    "seat-games; used = 0: never in this run (share_hi: the Wilson 95% upper bound of its true share)."),
              power=("Power: an option never used in n seat-games has a true share below about 3/n at 95% confidence (the rule of "
                     "three); the upper bounds are in the table."), pct={"share", "share_lo", "share_hi"}),
    ]
    if probes:
        pt = probe_table(probes)
        cmds = "; ".join(f"{k + 1}. trinidad probe --strategy {d['strategy']} --players {d['players']} --games {d['games']} "
                         f"--seed {d['seed']} --json ({d['file']})" for k, d in enumerate(probes))
        tables.append(Table("probe_effects", "Restricted-play probes: forcing one seat to take a rarely used option", pt,
                            note=("The same deals played again with one seat (game g: seat g mod players) forced to take the option "
                                  "at its first legal chance, the other seats unchanged. forced: the share of games in which it "
                                  "was legal, and so taken. win: that seat's win rate unforced and forced (ties 1/k; Wilson 95%); "
                                  "win_diff and margin_diff (VP minus the best other seat's): forced − unforced on the same deal "
                                  "(paired t 95%); p: the margin's paired t test, p_holm over the options of one probe. Unlike "
                                  "the association tables, a probe measures an effect. Probes: " + cmds + "."),
                            power=("Power: per probe, n paired games; a difference whose 95% interval holds 0 is not detected "
                                   "(the interval's half-width is the detectable size)."),
                            pct={"used", "forced", "win_unforced", "win_unforced_lo", "win_unforced_hi", "win_forced", "win_forced_lo",
                                 "win_forced_hi", "win_diff", "win_diff_lo", "win_diff_hi"}))
    if opt.height == 0:
        return tables, {"threshold": threshold, "grouped_by": "tier" if by_tier else "strategy", "groups": [], "never_played": [],
                        "probes": [], "warning": CAUSE_WARNING, "sentences": []}, []
    bullets = never_sentences(never, threshold) if never.height else [
        f"Every building type, action and Affiliate card was used in at least {threshold:.0%} of every {who}'s seat-games."]
    bullets.append(CAUSE_WARNING)
    summary = {"threshold": threshold, "grouped_by": "tier" if by_tier else "strategy",
               "groups": list(dict.fromkeys(opt["group"].to_list() + card["group"].to_list())),
               "never_played": [{k: r[k] for k in ("group", "players", "kind", "option", "item", "n", "used", "share", "share_hi")}
                                for r in never.iter_rows(named=True)],
               "probes": [{k: d[k] for k in ("file", "strategy", "players", "games", "seed", "threshold")} for d in probes or []],
               "warning": CAUSE_WARNING, "sentences": bullets[:-1]}
    return tables, summary, bullets
