"""Statistics over a run directory: tidy tables for every figure of the design report.

    from analysis import load_run, analyze
    a = analyze(load_run("runs/demo"))
    a.section("characters").table("character_balance").df      # a polars DataFrame

Each section holds :class:`analysis.tables.Table` objects (a frame, a note on method and a power
line) or, when the run lacks the data (one variant, one strategy, no decade records, no wars), a
plain sentence saying so. The balance sections describe the baseline variant (the experiment's
first); the variants section compares the others with it on common seeds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import polars as pl

from analysis.data import TIE_RULE, TRINIDAD, Run, RunError, load_run, prepare_games
from analysis.tables import Section, Table

__all__ = ["DETAIL_GAMES", "Analysis", "Run", "RunError", "Section", "Table", "TIE_RULE", "analyze", "load_run", "prepare_games", "summary_rows"]


@dataclass
class Analysis:
    run: Run
    sections: list[Section]
    tiers: list = field(default_factory=list)  # analysis.sensitivity.Tier, strongest first; the first is ``run``
    sensitivity: dict = field(default_factory=dict)  # summary.json's agent_sensitivity
    option_use: dict = field(default_factory=dict)  # summary.json's option_use
    title: str = "Trinidad"  # the game, in the page's title
    glance: list[str] | None = None  # the page's sentences at a glance (None: Trinidad's, reports.html.glance)

    def section(self, sid: str) -> Section:
        for s in self.sections:
            if s.id == sid:
                return s
        raise KeyError(sid)

    def tables(self) -> list[Table]:
        """Every table, those of the sub-sections included (after their section's own)."""
        return [t for s in self.sections for t in [*s.tables, *(t for sub in s.subsections for t in sub.tables)]]


DETAIL_GAMES = 20_000  # game indices kept for the per-game tables (Run.subset): bounds the report's memory


def analyze(run: Run, delta: float = 0.05, rating_games: int = 50_000, others: list[Run] | None = None,
            detail_games: int = DETAIL_GAMES, probes: list[dict] | None = None) -> Analysis:
    """Every table of the report for ``run``; ``delta`` is the SPRT effect size (win-rate points
    as a fraction) for the variant comparison. ``others``: runs of the same experiment played by
    weaker player tiers, strongest first after ``run``, for the Agent sensitivity section.
    ``detail_games``: the per-game tables (the model, Eras, Wars, rule variants, the A.I.) use at
    most this many game indices (:meth:`Run.subset`); the tables made of sums read every game a
    shard at a time (:class:`analysis.data.Games`). ``probes``: ``trinidad probe --json`` results
    (:func:`analysis.played.load_probe`) shown in the option-use section."""
    from analysis import against_ai, auction, balance, eras, played, rule_variants, scores
    from analysis.characters import character_pages
    from analysis.manifest import manifest_table
    from analysis.sensitivity import Tier, agent_sensitivity, single_tier_text, tier_docs, tier_labels

    if run.game != TRINIDAD:  # its own sections (trinidad.games: the game's analyze; trinidad report looks it up)
        raise RunError(f"report: {run.path} holds a run of {run.game}, not of Trinidad: report it with trinidad report {run.path}")
    base = run.baseline
    full = run.all_games(base)  # every game, read a shard at a time: the tables made of sums
    det = run.subset(detail_games)  # the per-game tables (model, Eras, Wars, variants): at most detail_games games
    g = det.games_of(base).collect()
    dec = det.decades_of(base)
    counts = run.game_counts()
    scope = f"Variant {base!r}" + (" (the baseline; other variants are compared in Rule variants)" if len(run.variants) > 1 else "")
    sub = (f" Per-game tables here use a random {det.detail:,} of the run's {run.game_count():,} game indices (the same games in "
           "every table and variant; a 10,000,000-game run is reported in bounded memory); win rates, scores and finishes-above use "
           "every game." if det.detail else "")
    out: list[Section] = []

    runs = [run, *(others or [])]
    tiers = [Tier(label, r) for label, r in zip(tier_labels(runs), runs, strict=True)]
    s = Section("agent-sensitivity", "Agent sensitivity",
                "The balance findings asked again of every player tier (tiers strongest first; never pooled): does a finding hold "
                "for the strongest players, or only for some?")
    if len(tiers) > 1:
        s.tables, sens = agent_sensitivity(tiers, detail_games)
        s.intro += " Tiers: " + "; ".join(f"{k + 1}. {t.label} ({t.run.path})" for k, t in enumerate(tiers)) + "."
    else:
        s.absent = single_tier_text(run)
        sens = {"checked": False, "tiers": tier_docs(tiers), "note": s.absent}
    scale = against_ai.ai_scale_table(tiers)  # each tier against the Solo A.I., beside the tiers
    if scale is None:
        s.bullets.append("No tier's run records its players against the Solo A.I. (trinidad run --ai-games N records it in the run).")
    else:
        s.tables.append(scale)
        sens["ai_scale"] = scale.df.to_dicts()
    out.append(s)

    s = Section("characters", "Character balance", f"{scope}. {TIE_RULE}{sub.replace('Per-game tables', 'The model and the ratings')}")
    s.tables = [balance.character_balance(full), balance.character_model(g), balance.finishes_above(full),
                balance.ratings(g, max_games=rating_games)]
    s.intro += " Then one page per Character (best win rate first): its VP by source, opponents, Affiliate cards and example games."
    s.subsections = character_pages(run, full, g, dec, s.tables[0].df, s.tables[2].df, det.detail)
    out.append(s)

    s = Section("auction-price", "Auction price of each Character",
                f"{scope}. In the real game the Characters are auctioned for VP (SETUP, Starting Character card: players bid 1 or more "
                "VPs), so an imbalance is priced by the players: here, the VP each Character would have to pay to win exactly its fair "
                f"share.{sub.replace('Per-game tables here', 'The prices')}")
    s.tables, s.absent = auction.auction_section_tables(g, run.manifest)
    out.append(s)

    seat, chi = balance.seat_balance(full)
    out.append(Section("seats", "Turn position balance",
                       f"{scope}. Players are numbered by turn position at the start of the game: 1 is the First Player.", [seat, chi]))

    s = Section("eras", "Era balance", f"{scope}. From the decade records (VP cumulative at each decade end).{sub}")
    if dec is None:
        s.absent = "This run has no decade records (DIR/decades is empty), so there are no per-Era tables."
    else:
        lc = eras.lead_change_counts(dec, g.lazy())
        gains = eras.era_gains(dec, g.lazy())
        s.tables = [eras.trajectories(dec), eras.vp_by_era(dec, g.lazy(), gains=gains),
                    eras.vp_by_era(dec, g.lazy(), by_character=True, gains=gains),
                    eras.lead_changes(dec, g.lazy()),
                    Table("lead_change_counts", "Lead changes per game (distribution)", lc, pct={"share"}, show=False,
                          power="Power: descriptive distribution (no test)."),
                    eras.comebacks(dec, g.lazy())]
    out.append(s)

    out.append(war_section(run, det, g, dec, scope, sub))

    out.append(Section("scores", "Score distributions", f"{scope}. Final VP after end-of-game scoring.",
                       [scores.score_distribution(full), scores.vp_split(full)]))

    s = Section("strategies", "Strategies", scope + ".")
    strat = run.games_of(base).select(pl.col("strategy").cast(pl.String).unique()).collect().to_series().to_list()
    if len(strat) < 2:
        s.absent = (f"Only one strategy ({strat[0] if strat else 'none'}) played in this run, so strategies cannot be compared: "
                    "every seat had it.")
    else:
        s.tables = list(balance.strategy_balance(full))
    out.append(s)

    s = Section("option-use", "What is played and what is never played",
                f"{scope}. How often a seat-game built each Minor building type, took each action, gained each resource and used "
                "each Affiliate card's power, " + ("per player tier (strongest first, never pooled)" if len(tiers) > 1 else
                                                   "per strategy") + ", and the win rate of the seat-games that used it against "
                f"those that did not. Never or almost never played: used in under {played.NEVER_SHARE:.0%} of the seat-games.")
    s.tables, option_use, s.bullets = played.option_use_section(tiers, detail_games, probes)
    if s.table("option_use").empty:
        s.absent = ("This run's games table has no what-was-played columns (built_*, act_*: runs written before they existed), so "
                    "what is played cannot be shown.")
    out.append(s)

    if against_ai.has_ai(det.games):
        out.append(Section("solo", "Playing against the A.I.",
                           "The Solo game (one player and the A.I.) and the 2-player game with the A.I. (TWO PLAYERS GAME & SOLO MODE), "
                           "every variant of the run: one variant per A.I. strength. A player beats the A.I. by finishing ahead of it.",
                           [against_ai.beat_rates(det.games), against_ai.player_scores(det.games), against_ai.vp_sources(det.games)]))

    s = Section("variants", "Rule variants", f"Baseline: {base!r}. Each variant plays the baseline's seeds; games are paired by seed.{sub}")
    if len(run.variants) < 2:
        s.absent = f"This run has a single variant ({base!r}): there is no rule variant to compare."
    else:
        s.tables = [rule_variants.variant_overview(det.games), rule_variants.paired_metrics(det.games, base, run.variants),
                    rule_variants.paired_characters(det.games, base, run.variants, delta)]
    out.append(s)

    out += trinidad_sweeps(run, det)
    out.append(Section("manifest", "Run manifest", "", [manifest_table(run.manifest, counts)]))
    return Analysis(run, out, tiers, sens, option_use)


def trinidad_sweeps(run: Run, det: Run) -> list[Section]:
    """A section per ``[[sweeps]]`` of the run (:mod:`analysis.sweeps`): each Character's win rate against
    the value, and the mean VP, Wars per game and Action phase rounds (the turn position: the seat)."""
    from analysis.sweeps import Family, Metric, sweep_sections

    return sweep_sections(run, det, [Family("character", "character", pl.col("character").cast(pl.String), "Characters")],
                          [Metric("mean_vp", pl.col("vp").mean(), ("vp",)),
                           Metric("wars", (pl.col("wars_natives") + pl.col("wars_pirates")).max(), ("wars_natives", "wars_pirates")),
                           Metric("rounds", pl.col("rounds").max(), ("rounds",))], position="seat")


def war_section(run: Run, det: Run, g: pl.DataFrame, dec, scope: str, sub: str) -> Section:
    """War balance: the baseline's Wars under the War rules it played (normal or Extended War,
    :func:`analysis.wars.extended_war`); then, for each variant that played the other War rules,
    a sub-section with its own War tables (names ending ``__<variant>``) and one comparing the two
    rules game by game on common seeds (:func:`analysis.wars.war_rules_comparison`)."""
    from analysis import wars

    base = run.baseline
    xw = wars.extended_war(run.manifest, base)
    rules = ("Extended War (the expansion: Wars fought in the Combat Area during the decade after their declaration)" if xw
             else "the normal War (C.3 WAR: each War fought at once at the End of the decade Phase)")
    s = Section("wars", "War balance", f"{scope}. War rules: {rules}. Factions: Natives and Pirates; one War declared at most per decade.{sub}")
    if dec is None:
        s.absent = "This run has no decade records, so Wars cannot be counted."
        return s
    s.tables, s.absent = wars.war_tables(dec, g.lazy(), run.manifest, xw)
    for v in run.variants[1:]:
        vxw = wars.extended_war(run.manifest, v)
        if vxw == xw:
            continue
        slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", v)
        sfx = f"__{slug}"
        other = "the Extended War" if vxw else "the normal War"
        tabs, absent = wars.war_tables(det.decades_of(v), det.games_of(v), run.manifest, vxw, sfx)
        s.subsections.append(Section(f"wars-{slug}", f"Variant {v!r}: {other}",
                                     f"The War tables of variant {v!r}, which played {other} on the baseline's seeds (tables named *{sfx}).",
                                     tabs, absent))
        s.subsections.append(Section(f"wars-{slug}-compared", f"{other[0].upper()}{other[1:]} against {base!r}, game by game",
                                     f"Variant {v!r} against the baseline {base!r}: the same seeds, so each game of one is paired with the "
                                     "same game under the other War rules.",
                                     wars.war_rules_comparison(det.games, det.decades, base, v, sfx)))
    if s.subsections:
        s.intro += " Variants that played the other War rules follow in sub-sections, with the two rules compared on common seeds."
    return s


_SUMMARY = {  # table -> (group columns, estimate column)
    "character_balance": (["character"], "win_rate"),
    "character_model": (["character"], "odds_ratio"),
    "auction_price": (["character"], "price"),
    "seat_balance": (["turn_position"], "win_rate"),
    "strategy_balance": (["strategy"], "win_rate"),
    "character_strategy": (["character", "strategy"], "win_rate"),
    "war_participation": (["factor"], "diff"),
    "variant_paired": (["variant", "metric"], "diff"),
    "variant_characters": (["variant", "character"], "diff"),
    "war_rules_characters": (["character"], "diff"),  # a War balance sub-section's (name ending __<variant>)
    "war_rules_paired": (["metric"], "diff"),
    "solo_beat": (["ai", "strategy"], "beat_rate"),
    "strategy_model": (["strategy"], "odds_ratio"),  # Río de la Plata's (analysis.rio)
    "office_value": (["office"], "diff"),
    "attacker_pays": (["metric"], "diff"),
    "sweep_character_crossing": (["curve", "character"], "crossing"),  # a sweep's (analysis.sweeps; name ending __<sweep>)
    "sweep_strategy_crossing": (["curve", "strategy"], "crossing"),
    "sweep_position_crossing": (["curve", "turn_position"], "crossing"),
}


def summary_rows(a: Analysis) -> pl.DataFrame:
    """The report's headline estimates in one long table: section, table, players, group,
    metric, estimate, 95% CI, n, p and Holm p."""
    rows = []
    for s in a.sections:
        # a sub-section's tables count when they name their variant (the War rules compared)
        subs = [t for sub in s.subsections for t in sub.tables if "variant" in t.df.columns]
        for t in [*s.tables, *subs]:
            key = t.name.split("__")[0]
            if key not in _SUMMARY or t.df.height == 0:
                continue
            groups, est = _SUMMARY[key]
            n_col = next((c for c in ("n", "pairs", "n_yes") if c in t.df.columns), None)
            for r in t.df.iter_rows(named=True):
                rows.append({"section": s.id, "table": t.name, "variant": r.get("variant", a.run.baseline),
                             "players": int(r["players"]), "group": " / ".join(str(r[c]) for c in groups),
                             "metric": r["metric"] if "metric" in t.df.columns else est,
                             "estimate": r.get(est), "ci_low": r.get(f"{est}_lo"), "ci_high": r.get(f"{est}_hi"),
                             "n": r.get(n_col) if n_col else None, "p": r.get("p"), "p_holm": r.get("p_holm")})
    schema = {"section": pl.String, "table": pl.String, "variant": pl.String, "players": pl.Int64, "group": pl.String, "metric": pl.String,
              "estimate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64, "n": pl.Int64, "p": pl.Float64, "p_holm": pl.Float64}
    return pl.DataFrame(rows, schema=schema)
