"""Río de la Plata's design report: the sections ``trinidad report DIR`` writes for a run of Río de la Plata
(its manifest's ``game``), in the report frame Trinidad's use (reports.build, reports.html: the page,
summary.json), with the shared statistics (:mod:`analysis.stats`, :mod:`analysis.tables`, the GLM of
:func:`analysis.balance.character_model`, the paired variants of :mod:`analysis.rule_variants`).

Sections: the strategies (win rate and VP, model-adjusted), the start positions (the last player's bonus),
the Public Offices (bought how often, by whom, when, and whether their owners win more: which are never
worth their price), the wars (how often, Natives or Pirates, buildings destroyed, VP to the attacker and
the defenders, whether attacking pays), the districts and Major buildings (what is built where, the districts'
values, which Majors are completed, by whom, and whether completing pays), the variants side
by side (levels, the Short game, player counts), the run's manifest; with player tiers (several runs of
one experiment, strongest first), first whether those findings hold for every tier (:mod:`analysis.rio_tiers`).
The tables are in :mod:`analysis.rio_tables`. Plain polars: no engine (the column names are the run's)."""

from __future__ import annotations

import polars as pl

from analysis import rio_tables as rt
from analysis.data import Run, RunError
from analysis.tables import Section, Table, power_line_rates, win_rates

TITLE = "Río de la Plata"
PCT = {"expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff"}


def _names(lf: pl.LazyFrame | None, col: str) -> list[str]:
    """The categories of an Enum column (every office, every level), in the engine's order."""
    if lf is None:
        return []
    dt = lf.collect_schema().get(col)
    return dt.categories.to_list() if isinstance(dt, pl.Enum) else sorted(lf.select(pl.col(col).cast(pl.String).unique()).collect()
                                                                          .to_series().to_list())


def strategy_tables(full, g: pl.DataFrame) -> list[Table]:
    """Win rate by strategy (Wilson CI, score test against 1/N, Holm), VP and rank by strategy (t CI),
    the GLM of the win on strategy and start position, and the VP by source."""
    from analysis.balance import character_model
    from analysis.scores import vp_split

    s = win_rates(full, ["players", "strategy"], ["players"]).select(
        "players", "strategy", "n", "wins", "expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff", "p", "p_holm")
    out = [Table("strategy_balance", "Win rate by strategy", s.sort(["players", "win_rate"], descending=[False, True]),
                 note="Win rate = mean win credit per seat (a tie for first shares the win). p: score test against 1/N; Holm p over the "
                      "strategies of a player count.", power=power_line_rates(s, "strategy", ["players"]), pct=PCT),
           Table("strategy_vp", "Final VP and rank by strategy", rt.means(g.lazy().with_columns(pl.col("strategy").cast(pl.String)),
                                                                          ["players", "strategy"], ["vp", "rank", "margin"], "seats"),
                 note="Per seat (t 95% CI): final VP, rank (0 = first; ties share a rank) and margin (own VP minus the best other seat's).",
                 power="Power: descriptive means (no test).")]
    if g["strategy"].n_unique() > 1:
        out.append(character_model(rt.by_start(g), group="strategy", label="strategy", name="strategy_model"))
    out.append(vp_split(full, by="strategy", label="strategy"))
    return out


def seat_tables(g: pl.DataFrame) -> list[Table]:
    """Win rate by start position (chi-square of the wins by position) and the VP at each position."""
    from analysis.balance import seat_balance

    seat, chi = seat_balance(rt.by_start(g))
    vp = rt.means(g.lazy().with_columns((pl.col("start_position").cast(pl.Int64) + 1).alias("turn_position")),
                  ["players", "turn_position"], ["vp", "wood", "stone", "silver"], "seats")
    return [seat, chi, Table("position_vp", "Final VP and resources left by start position", vp,
                             note="Per seat (t 95% CI) at each start position (1 = first on the order track; the last starts with "
                                  "one more wood and stone, GAME PREPARATION): final VP, and wood, stone and silver left at the end.",
                             power="Power: descriptive means (no test).")]


def analyze(run: Run, delta: float = 0.05, rating_games: int = 50_000, others: list | None = None, detail_games: int | None = None,
            probes: list | None = None):
    """Every table of the report of a Río de la Plata run (the options of :func:`analysis.analyze`; probes
    are Trinidad's). The balance sections describe the baseline variant (the first). ``others``: the same
    experiment played by weaker player tiers (strongest first after ``run``, each a Río de la Plata run):
    the section "Do the findings hold for every tier?" (:mod:`analysis.rio_tiers`) leads, as Trinidad's
    Agent sensitivity does, and its sentences join the glance."""
    from analysis import DETAIL_GAMES, Analysis
    from analysis.manifest import manifest_table
    from analysis.rule_variants import paired_metrics
    from analysis.sensitivity import Tier, tier_labels

    for o in others or []:
        if o.game != run.game:  # a tier of another game shares no table with this one
            raise RunError(f"report: {o.path} holds a run of {o.game}, not of {run.game}: name the tiers of one experiment")
    if probes:
        raise RunError("report: --probes are Trinidad's (trinidad probe); a Río de la Plata run has none")
    base = run.baseline
    det = run.subset(detail_games or DETAIL_GAMES)
    full = run.all_games(base)
    g = det.games_of(base).collect()
    offices, wars = run.table("offices"), run.table("wars")

    def of_base(lf: pl.LazyFrame | None) -> pl.LazyFrame | None:
        return lf.filter(pl.col("variant").cast(pl.String) == base) if lf is not None else None

    scope = f"Variant {base!r}" + (" (the baseline; the variants are compared in Variants)" if len(run.variants) > 1 else "")
    sub = (f" Per-seat tables here use a random {det.detail:,} of the run's {run.game_count():,} game indices; win rates use every game."
           if det.detail else "")
    out: list[Section] = []
    runs = [run, *(others or [])]
    tiers = [Tier(label, r) for label, r in zip(tier_labels(runs), runs, strict=True)]
    sens, tier_lines = {}, []
    if len(tiers) > 1:
        from analysis.rio_tiers import tiers_section

        s, sens, tier_lines = tiers_section(tiers, detail_games or DETAIL_GAMES)
        out.append(s)

    s = Section("strategies", "Strategies", f"{scope}. Which player wins, and by how much.{sub}")
    strat = g["strategy"].cast(pl.String).unique().to_list()
    s.tables = strategy_tables(full, g)
    if len(strat) < 2:
        s.bullets.append(f"Only one strategy ({strat[0] if strat else 'none'}) played: the strategies cannot be compared.")
    out.append(s)
    out.append(Section("seats", "Start positions", f"{scope}. The order track at the start of the game (drawn at random): position 1 "
                       "places first; the last starts with one more wood and one more stone (GAME PREPARATION).", seat_tables(g)))

    s = Section("offices", "Public Offices", f"{scope}. The twelve Public Offices: how often each is bought, by whom and when, and whether "
                "its owners win more often than the other seats.")
    ob = of_base(offices)
    if ob is None:
        s.absent = "This run has no offices table (DIR/offices)."
    else:
        names = _names(offices, "office")
        s.tables = [rt.office_purchases(ob), rt.office_buyers(ob, run.games_of(base)),
                    rt.office_value(rt.owned_frame(g, ob, names), names)]
        value = s.tables[2].df
        for verdict, what in (("never worth its price", "never worth its price (owners win no more often than the others)"),
                              ("never bought", "never bought")):
            for (n,), part in sorted(value.filter(pl.col("verdict") == verdict).partition_by("players", as_dict=True).items()):
                s.bullets.append(f"{n} players: {what}: " + ", ".join(x.replace("_", " ") for x in part["office"].to_list()) + ".")
    out.append(s)

    s = Section("wars", "Wars", f"{scope}. WAR: how often, Natives or Pirates, what they destroy, and who scores from them.")
    wb = of_base(wars)
    s.tables = [rt.wars_per_game(run.games_of(base))]
    if wb is None or wb.select(pl.len()).collect().item() == 0:
        s.bullets.append("No war was fought in this variant's games.")
    else:
        s.tables += [rt.war_enemies(wb), rt.attacker_pays(wb)]
    out.append(s)

    out.append(city_section(run, base, scope))

    s = Section("variants", "Variants", "The run's variants side by side (experience levels, the Short game, rule variants) and its "
                f"player counts; each variant plays the baseline's ({base!r}) seeds, so games are paired by seed.{sub}")
    s.tables = [rt.variant_overview(det.games)]
    vs = win_rates(det.games.with_columns(pl.col("variant").cast(pl.String)), ["variant", "players", "strategy"], ["variant", "players"])
    s.tables.append(Table("variant_strategies", "Win rate by strategy in each variant", vs.select(
        "variant", "players", "strategy", "n", "expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff", "p", "p_holm"),
        note="p: score test against 1/N; Holm p over the strategies of a variant and player count.", pct=PCT))
    if len(run.variants) > 1:
        s.tables.append(paired_metrics(det.games, base, run.variants))
    else:
        s.bullets.append(f"This run has a single variant ({base!r}): nothing to pair.")
    out.append(s)

    out += rio_sweeps(run, det, len(strat) > 1)
    out.append(Section("manifest", "Run manifest", "", [manifest_table(run.manifest, run.game_counts())]))
    a = Analysis(run, out, tiers=tiers, sensitivity=sens, title=TITLE)
    a.glance = glance(a) + tier_lines
    return a


def city_section(run: Run, base: str, scope: str) -> Section:
    """Districts and Major buildings: what is built where (buildings by kind per district, the districts'
    values, roads, walls, wars), which Major buildings get completed, how often and when, by whom (the
    completers' strategies), and whether completing pays (the completers' win rate against the other
    seats'). With several variants the district and Major tables show each (its level, its length) by
    player count; without a districts or majors table (a run written before they existed) the games
    table's counts only."""
    districts, majors = run.table("districts"), run.table("majors")
    several = len(run.variants) > 1
    by = ["variant", "players"] if several else ["players"]
    every = ("Every variant of the run, side by side by player count (its name says its experience level and length)"
             if several else scope)
    s = Section("city", "Districts and Major buildings", f"{every}. What is built where and what each district is worth at the end, "
                "which Major buildings get completed, how often, when and by whom, and whether completing one goes with winning. "
                "The Houses, Public Offices and the city's pieces by seat are the baseline's.")
    if districts is not None:
        s.tables += [rt.district_buildings(districts, by, rt.built_kinds(districts)), rt.district_values(districts, by)]
    if majors is not None:
        games = run.games if several else run.games_of(base)
        s.tables += [rt.major_completions(majors if several else majors.filter(pl.col("variant").cast(pl.String) == base), by),
                     rt.major_completers(majors if several else majors.filter(pl.col("variant").cast(pl.String) == base), by),
                     rt.major_value(majors if several else majors.filter(pl.col("variant").cast(pl.String) == base), games, by)]
    else:
        s.tables.append(rt.majors(run.games_of(base), [c.removeprefix("major_") for c in run.games.collect_schema().names()
                                                       if c.startswith("major_")]))
    s.tables += [rt.houses(run.games_of(base)), rt.city_end(run.games_of(base))]
    if districts is None or majors is None:
        s.bullets.append("This run has no districts or majors table (DIR/districts, DIR/majors: runs written before they were "
                         "recorded): the Major buildings' completions and the Houses by seat only.")
    s.bullets += city_findings(s)
    return s


def city_findings(s: Section) -> list[str]:
    """The section's strongest findings in a sentence each, per player count (and variant): the Major building
    whose completers' win rate differs most from the other seats' (Holm p < 0.05), else the Major building
    completed most often; and the district worth most to a House."""
    out = []
    try:
        value, done, dv = s.table("major_value").df, s.table("major_completions").df, s.table("district_values").df
    except KeyError:
        return out
    lead = ["variant"] if "variant" in value.columns else []
    for key, part in sorted(value.partition_by([*lead, "players"], as_dict=True).items()):
        where = (f"{key[0]}, " if lead else "") + f"{key[-1]} players"
        sig = part.filter(pl.col("p_holm") < 0.05).sort(pl.col("diff").abs(), descending=True)
        if sig.height:
            r = sig.row(0, named=True)
            how = "goes with winning" if r["diff"] > 0 else "goes with losing"
            out.append(f"{where}: completing the {_title(r['major'])} {how}: its completers win {_pct(r['win_completers'])}, the other "
                       f"seats {_pct(r['win_others'])} ({100 * r['diff']:+.1f} points [{100 * r['diff_lo']:+.1f}, "
                       f"{100 * r['diff_hi']:+.1f}], Holm p < 0.05).")
        else:
            flt = pl.all_horizontal(*(pl.col(c) == v for c, v in zip([*lead, "players"], key, strict=True)))
            r = done.filter(flt).sort("completed_share", descending=True).row(0, named=True)
            verb = "are" if r["major"].endswith("s") else "is"  # the Walls, the Roads
            out.append(f"{where}: no Major building's completers win detectably more or less than the other seats; the "
                       f"{_title(r['major'])} {verb} completed most often, in {_pct(r['completed_share'])} of the games.")
        flt = pl.all_horizontal(*(pl.col(c) == v for c, v in zip([*lead, "players"], key, strict=True)))
        never = done.filter(flt & (pl.col("completed") == 0))
        if never.height:
            games = int(never["games"].max())
            out.append(f"{where}: never completed in {games:,} games: " + ", ".join(_title(x) for x in never["major"].to_list()) + ".")
        d = dv.filter(flt).sort("value", descending=True)
        if d.height:
            top = d.row(0, named=True)
            out.append(f"{where}: district {top['district']} is worth most at the end, {top['value']:+.1f} VP a House "
                       f"[{top['value_lo']:+.1f}, {top['value_hi']:+.1f}], with {top['house']:.1f} Houses standing.")
    return out


def _title(name: str) -> str:
    """A Major building's engine name as the rulebook writes it (``fort`` -> Fort)."""
    return name.replace("_", " ").capitalize()


def rio_sweeps(run: Run, det: Run, strategies: bool) -> list[Section]:
    """A section per ``[[sweeps]]`` of the run (:mod:`analysis.sweeps`): the win rate of each strategy (with
    two or more) and each start position against the value, and the mean VP, wars and turns per game."""
    from analysis.sweeps import Family, Metric, sweep_sections

    fams = [Family("strategy", "strategy", pl.col("strategy").cast(pl.String), "strategies")] if strategies else []
    fams.append(Family("position", "turn_position", pl.col("start_position").cast(pl.Int64) + 1, "start positions"))
    return sweep_sections(run, det, fams, [Metric("mean_vp", pl.col("vp").mean(), ("vp",)), Metric("wars", pl.col("wars").max(), ("wars",)),
                                           Metric("turns", pl.col("turns").max(), ("turns",))], position="start_position")


def _pct(x) -> str:
    return "–" if x is None or x != x else f"{100 * x:.1f}%"


def glance(a) -> list[str]:
    """Plain short sentences with numbers: the strategies, the last player's bonus, the offices never worth
    their price, the Major building whose completion goes with winning (or the one completed most), whether
    attacking pays."""
    out = [f"Players: {', '.join(a.run.strategies())}. Río de la Plata's players are not yet ranked by strength: read the "
           "strategies' results as those of these players."]
    sb = a.section("strategies").table("strategy_balance").df
    for (n,), part in sorted(sb.partition_by("players", as_dict=True).items()):
        part = part.sort("win_rate", descending=True)
        hi, lo = part.row(0, named=True), part.row(part.height - 1, named=True)
        sig = part.filter(pl.col("p_holm") < 0.05).height
        out.append(f"{n} players: {hi['strategy']} wins {_pct(hi['win_rate'])} [{_pct(hi['win_rate_lo'])}, {_pct(hi['win_rate_hi'])}], "
                   f"{lo['strategy']} {_pct(lo['win_rate'])} (fair share {_pct(1 / n)}; {sig} of {part.height} differ from it, Holm).")
    seats = a.section("seats").table("seat_balance").df
    for (n,), part in sorted(seats.partition_by("players", as_dict=True).items()):
        r = part.sort("turn_position").row(part.height - 1, named=True)
        verdict = "more than" if r["p_holm"] is not None and r["p_holm"] < 0.05 and r["diff"] > 0 else (
            "less than" if r["p_holm"] is not None and r["p_holm"] < 0.05 else "not detectably different from")
        out.append(f"{n} players: the last player (start position {r['turn_position']}, one more wood and stone) wins "
                   f"{_pct(r['win_rate'])} [{_pct(r['win_rate_lo'])}, {_pct(r['win_rate_hi'])}], {verdict} the fair {_pct(1 / n)}.")
    out += a.section("offices").bullets
    base = a.run.baseline  # with several variants, the baseline's lines (the balance sections' variant)
    out += [b for b in a.section("city").bullets if ("completing the" in b or "completed most often" in b or "never completed" in b)
            and (b[0].isdigit() or b.startswith(f"{base}, "))]
    try:
        ap = a.section("wars").table("attacker_pays").df.filter(pl.col("metric") == "attacker - one defender")
        for r in ap.iter_rows(named=True):
            pays = "pays" if r["p_holm"] is not None and r["p_holm"] < 0.05 and r["diff"] > 0 else (
                "does not pay" if r["p_holm"] is not None and r["p_holm"] < 0.05 else "neither pays nor costs detectably")
            out.append(f"{r['players']} players: attacking {pays}: the attacker scores {r['attacker_vp']:.1f} VP a war, "
                       f"{r['diff']:+.1f} [{r['diff_lo']:+.1f}, {r['diff_hi']:+.1f}] against one defender ({r['wars']:,} wars).")
    except KeyError:
        pass
    return out
