"""Río de la Plata's player tiers (issue 97): the report's findings asked again of every tier of an
experiment with ``[[tiers]]`` (the same games, seed, rules and variants, one run per tier, strongest
first; :func:`trinidad.games.keys.tier_runs`). Does a Public Office pay, is it never worth its price or
never bought, does the last start position win more, does attacking pay, for the strong player and the
heuristic alike?

Each tier's numbers are its own report's (the tables of :mod:`analysis.rio_tables` and
:func:`analysis.balance.seat_balance` on its baseline variant), never pooled: side by side by tier, then
how far the tiers agree: Kendall's tau-b of the offices' purchase-rate ranking (scipy.stats.kendalltau)
and, office by office, whether the verdict is the same. The tiers are :class:`analysis.sensitivity.Tier`
(labels by their strategies, as Trinidad's). Plain polars: no engine.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import polars as pl
from scipy import stats

from analysis import rio_tables as rt
from analysis.sensitivity import Tier, tier_docs
from analysis.tables import Section, Table

SIG = 0.05  # Holm-adjusted p below which a tier finds a difference (as the tier's own report)
ATTACK = "attacker - one defender"  # the comparison the report's glance reads (a defender's share of the defenders' VP)
_PCT = {"bought_share", "bought_share_lo", "bought_share_hi", "win_owners", "win_others", "diff", "diff_lo", "diff_hi",
        "win_rate", "win_rate_lo", "win_rate_hi", "expected"}


@dataclass
class TierTables:
    """One tier's own tables (its baseline variant): offices bought and their value, start positions, attacking."""

    tier: str
    purchases: pl.DataFrame | None  # rt.office_purchases (None: the run has no offices table)
    value: pl.DataFrame | None  # rt.office_value
    seats: pl.DataFrame  # analysis.balance.seat_balance by start position
    attack: pl.DataFrame | None  # rt.attacker_pays (None: no war was fought)


def tier_tables(t: Tier, detail_games: int | None) -> TierTables:
    """The tables the tier's own report shows (the same calls on the same games), for its baseline variant."""
    from analysis.balance import seat_balance

    run = t.run
    base = run.baseline
    g = (run.subset(detail_games) if detail_games else run).games_of(base).collect()
    offices, wars = run.table("offices"), run.table("wars")
    purchases = value = attack = None
    if offices is not None:
        ob = offices.filter(pl.col("variant").cast(pl.String) == base)
        names = rt.enum_names(offices, "office")
        purchases = rt.office_purchases(ob).df
        value = rt.office_value(rt.owned_frame(g, ob, names), names).df
    if wars is not None:
        wb = wars.filter(pl.col("variant").cast(pl.String) == base)
        if wb.select(pl.len()).collect().item():
            attack = rt.attacker_pays(wb).df.filter(pl.col("metric") == ATTACK)
    return TierTables(t.label, purchases, value, seat_balance(rt.by_start(g))[0].df, attack)


def _tagged(tt: list[TierTables], df_of, order: list[str]) -> pl.DataFrame | None:
    """The tiers' frames one under the other, led by ``tier`` and its strength order (1 = strongest)."""
    parts = [df_of(x).select(pl.lit(k + 1).alias("tier_order"), pl.lit(x.tier).alias("tier"), pl.all())
             for k, x in enumerate(tt) if df_of(x) is not None]
    return pl.concat(parts, how="diagonal_relaxed").sort(order) if parts else None


def office_table(tt: list[TierTables]) -> Table | None:
    """Per player count, office and tier: its purchase rate (Wilson CI) and its owners' win rate against the other
    seats' (Newcombe CI of the difference, Holm p), with the tier's verdict."""
    def of(x: TierTables) -> pl.DataFrame | None:
        if x.purchases is None:
            return None
        v = x.value.select(pl.col("players").cast(pl.Int64), "office", "win_owners", "win_others", "diff", "diff_lo", "diff_hi",
                           "p_holm", "verdict")
        return x.purchases.select(pl.col("players").cast(pl.Int64), "office", "games", "bought_share", "bought_share_lo",
                                  "bought_share_hi").join(v, on=["players", "office"], how="left")

    df = _tagged(tt, of, ["players", "office", "tier_order"])
    if df is None:
        return None
    return Table("rio_tier_offices", "Public Offices by tier: bought how often, and do their owners win more?", df.drop("tier_order"),
                 note="Each tier's own numbers on its baseline variant (its report's How often each Public Office is bought, Wilson "
                      "95% CI, and Is each Public Office worth its price?: the owners' win rate minus the other seats', Newcombe 95% "
                      "CI, Holm p over the offices of a player count). Verdict: pays = the owners win more often, Holm p < 0.05; never "
                      "worth its price = they win no more often; never bought.",
                 power="Power: see each tier's intervals (a seat owns an office in a few seat-games: wide in a small run).", pct=_PCT)


def position_table(tt: list[TierTables]) -> Table:
    """Per player count, start position and tier: the win rate (Wilson CI, score test against 1/N, Holm)."""
    df = _tagged(tt, lambda x: x.seats.with_columns(pl.col("players").cast(pl.Int64)), ["players", "turn_position", "tier_order"])
    return Table("rio_tier_positions", "Win rate by start position, by tier", df.drop("tier_order").select(
        "players", "turn_position", "tier", "n", "expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff", "p_holm"),
        note="Start position 1 places first on the order track; the last starts with one more wood and stone. Each tier's own "
             "Wilson 95% CI; p: score test against 1/N, Holm over the positions of a player count.",
        power="Power: see each tier's intervals.", pct=_PCT)


def attack_table(tt: list[TierTables]) -> Table | None:
    """Per player count and tier: the attacker's VP a war minus one defender's (paired t CI, Holm p) and whether it pays."""
    def of(x: TierTables) -> pl.DataFrame | None:
        if x.attack is None:
            return None
        return x.attack.select(pl.col("players").cast(pl.Int64), "wars", "attacker_vp", "diff", "diff_lo", "diff_hi", "p_holm").with_columns(
            pl.when(pl.col("p_holm") >= SIG).then(pl.lit("neither pays nor costs detectably"))
            .when(pl.col("diff") > 0).then(pl.lit("pays")).otherwise(pl.lit("does not pay")).alias("verdict"))

    df = _tagged(tt, of, ["players", "tier_order"])
    if df is None:
        return None
    return Table("rio_tier_attack", "Does being the attacker pay? By tier", df.drop("tier_order"),
                 note="War by war in each tier's baseline variant: the attacker's VP minus one defender's (the defenders' VP divided "
                      "by the players less the attacker); paired t 95% CI, Holm p over the tier report's two comparisons. A tier "
                      "whose games saw no war has no row.",
                 power="Power: see each tier's intervals.")


def ranking_table(tt: list[TierTables]) -> Table | None:
    """Per player count and pair of tiers: Kendall's tau-b between the offices' purchase rates (their ranking)."""
    rows = []
    for a, b in itertools.combinations([x for x in tt if x.purchases is not None], 2):
        both = a.purchases.select("players", "office", pl.col("bought_share").alias("a")).join(
            b.purchases.select("players", "office", pl.col("bought_share").alias("b")), on=["players", "office"])
        for (n,), part in sorted(both.partition_by("players", as_dict=True).items()):
            r = stats.kendalltau(part["a"].to_numpy(), part["b"].to_numpy())  # tau-b: ties (offices never bought) allowed
            rows.append({"players": int(n), "tier_a": a.tier, "tier_b": b.tier, "offices": part.height,
                         "kendall_tau": float(r.statistic), "p": float(r.pvalue)})
    if not rows:
        return None
    return Table("rio_tier_ranking", "Do the tiers rank the Public Offices alike? Kendall's tau of their purchase rates",
                 pl.DataFrame(rows, schema={"players": pl.Int64, "tier_a": pl.String, "tier_b": pl.String, "offices": pl.Int64,
                                            "kendall_tau": pl.Float64, "p": pl.Float64}),
                 note="Kendall's tau-b (scipy.stats.kendalltau) between two tiers' purchase rates of the offices: 1 = the same order, 0 = "
                      "unrelated, -1 = reversed; p: its test of no association. Empty (NaN) when a tier's rates are all equal.",
                 power="Power: twelve offices; a tau needs to be large to be told from 0.")


def verdict_table(tt: list[TierTables]) -> Table | None:
    """Per player count and office: each tier's verdict side by side, and whether every tier gives the same."""
    have = [x for x in tt if x.value is not None]
    if len(have) < 2:
        return None
    df = None
    for x in have:
        v = x.value.select(pl.col("players").cast(pl.Int64), "office", pl.col("verdict").alias(x.tier))
        df = v if df is None else df.join(v, on=["players", "office"], how="full", coalesce=True)
    cols = [x.tier for x in have]
    df = df.with_columns(pl.concat_list(cols).list.n_unique().eq(1).alias("agree")).sort("players", "office")
    return Table("rio_tier_verdicts", "Is each Public Office's verdict the same for every tier?", df,
                 note="Each tier's verdict from its own owners-against-the-others test (pays: Holm p < 0.05 and above; never worth its "
                      "price: the owners win no more often; never bought; above, not significant). agree: every tier gives the same.",
                 power="Power: a verdict of pays needs a detectable difference; a small tier says above, not significant more often.")


def tiers_section(tiers: list[Tier], detail_games: int | None = None) -> tuple[Section, dict, list[str]]:
    """The section "Do the findings hold for every tier?" for two or more tiers (strongest first), its
    summary.json entry and its sentences for the report's glance."""
    if len(tiers) < 2:
        raise ValueError("the tiers' section needs two or more tiers")
    tt = [tier_tables(t, detail_games) for t in tiers]
    s = Section("tiers", "Do the findings hold for every tier?",
                "The Public Offices, the start positions and the wars asked again of every player tier (the same experiment, "
                "strongest first; never pooled): does a finding hold for the strong player and the heuristic alike? Tiers: "
                + "; ".join(f"{k + 1}. {t.label} ({t.run.path})" for k, t in enumerate(tiers)) + f". The other sections describe "
                f"{tiers[0].label}.")
    for table in (office_table(tt), ranking_table(tt), verdict_table(tt), position_table(tt), attack_table(tt)):
        if table is not None:
            s.tables.append(table)
    if not any(x.purchases is not None for x in tt):
        s.bullets.append("No tier's run has an offices table (DIR/offices): the offices cannot be compared.")
    s.bullets += sentences(s, [t.label for t in tiers])
    doc = {"checked": True, "game": "rio-de-la-plata", "tiers": tier_docs(tiers)} | {t.name: t.df.to_dicts() for t in s.tables}
    return s, doc, s.bullets


def sentences(s: Section, labels: list[str]) -> list[str]:
    """Short sentences with numbers: how alike the tiers rank the offices, which offices' verdicts differ, and
    whether the last start position's and the attacker's verdicts hold in every tier."""
    out = [f"Tiers, strongest first: {', '.join(labels)}; the tables of the other sections describe {labels[0]}."]
    try:
        rk = s.table("rio_tier_ranking").df
        for r in rk.iter_rows(named=True):
            tau = "undefined (a tier's purchase rates are all equal)" if r["kendall_tau"] != r["kendall_tau"] else (
                f"Kendall tau {r['kendall_tau']:.2f} (p = {r['p']:.2g})")
            out.append(f"{r['players']} players: {r['tier_a']} and {r['tier_b']} rank the offices by purchase rate with {tau}.")
    except KeyError:
        pass
    try:
        vd = s.table("rio_tier_verdicts").df
        cols = [c for c in vd.columns if c not in ("players", "office", "agree")]
        for (n,), part in sorted(vd.partition_by("players", as_dict=True).items()):
            differ = part.filter(~pl.col("agree"))
            line = f"{n} players: {part.height - differ.height} of {part.height} offices get the same verdict in every tier"
            if differ.height:
                line += "; they differ for " + "; ".join(
                    f"{r['office'].replace('_', ' ')} (" + ", ".join(f"{c}: {r[c]}" for c in cols) + ")"
                    for r in differ.iter_rows(named=True))
            out.append(line + ".")
    except KeyError:
        pass
    pos = s.table("rio_tier_positions").df
    for (n,), part in sorted(pos.partition_by("players", as_dict=True).items()):
        last = part.filter(pl.col("turn_position") == part["turn_position"].max())
        words = [f"{r['tier']} {100 * r['win_rate']:.1f}% [{100 * r['win_rate_lo']:.1f}, {100 * r['win_rate_hi']:.1f}]"
                 + (" (differs, Holm)" if r["p_holm"] is not None and r["p_holm"] < SIG else "") for r in last.iter_rows(named=True)]
        out.append(f"{n} players: the last start position wins {'; '.join(words)} against a fair {100 / n:.1f}%.")
    try:
        at = s.table("rio_tier_attack").df
        for (n,), part in sorted(at.partition_by("players", as_dict=True).items()):
            same = part["verdict"].n_unique() == 1 and part.height == len(labels)
            words = "; ".join(f"{r['tier']}: {r['verdict']} ({r['diff']:+.1f} VP [{r['diff_lo']:+.1f}, {r['diff_hi']:+.1f}])"
                              for r in part.iter_rows(named=True))
            out.append(f"{n} players: attacking — {words}" + (" — the same in every tier." if same else "."))
    except KeyError:
        pass
    return out
