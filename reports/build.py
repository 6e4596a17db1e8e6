"""``trinidad report DIR``: analyse a run directory and write the report.

Output (default ``DIR/report/``)::

    index.html        the self-contained page (charts embedded as base64 PNG)
    charts/*.png|svg  every chart as a file
    tables/*.csv      every analysis table in full
    summary.csv       headline estimates: one row per rate or difference, with n, 95% CI, p, Holm p
    summary.json      the same plus every table, its note and power line, and the manifest (rules omitted)
"""

from __future__ import annotations

import base64
import datetime as _dt
import io
import json
import math
import sys
from pathlib import Path

import polars as pl

from analysis import DETAIL_GAMES, TIE_RULE, Analysis, RunError, analyze, load_run, summary_rows
from analysis.data import TRINIDAD, tier_dirs
from analysis.played import NEVER_SHARE, load_probe
from reports import charts, course_charts
from reports.html import Figure, render
from reports.sweep_charts import sweep_charts

# The charts drawn from one table each, in the page's order: (table, chart file stem, caption, draw, draw's
# further arguments); draw(table, *arguments) returns the figure. A table missing or empty in a run gets none.
ONE_TABLE_CHARTS = (
    ("character_balance", "character_win_rates", "Character win rates with 95% Wilson CIs", charts.rate_bars,
     "character", "Character win rates"),
    ("character_model", "character_model", "Model-adjusted Character odds ratios", charts.odds_forest),
    ("auction_price", "auction_prices", "Auction price of each Character (VP handicap to the fair share, 95% CI)", charts.price_bars),
    ("finishes_above", "character_vs_character", "Character × Character: share of shared games finishing above", charts.heatmap_above),
    ("ratings", "character_ratings", "Plackett-Luce ratings", charts.ratings_chart),
    ("seat_balance", "seat_win_rates", "Win rate by turn position", charts.seat_chart),
    ("trajectories", "era_trajectories", "VP ahead of the average Character and rank, by decade", course_charts.trajectories_chart),
    ("vp_by_era", "era_vp_by_source", "VP gained by source in each Era", course_charts.stacked_sources,
     "period", "Mean VP per seat gained in each Era, by source"),
    ("vp_by_era_character", "era_vp_by_source_character", "VP gained by source in each Era, by Character",
     course_charts.era_character_sources),
    ("lead_change_counts", "lead_changes", "Lead changes per game", course_charts.lead_changes_chart),
    ("comebacks", "comebacks", "Comeback probability by deficit", course_charts.comeback_chart),
)
AFTER_THE_WARS = (
    ("scores", "score_distribution", "Final VP by Character", charts.score_boxes),
    ("vp_split", "vp_split", "Final VP by source and Character", course_charts.stacked_sources,
     "character", "Mean final VP by source and Character", True),
    ("strategy_balance", "strategy_win_rates", "Win rate by strategy", charts.rate_bars, "strategy", "Win rate by strategy"),
    ("character_strategy", "character_strategy", "Win rate by Character × strategy", charts.strategy_heatmap),
    ("solo_beat", "solo_beat_rates", "How often a player beats the A.I., by A.I. strength and strategy", charts.beat_chart),
    ("solo_scores", "solo_scores", "The player's final VP against each A.I. strength", charts.solo_boxes),
    ("variant_characters", "variant_characters", "Character win-rate change per variant", charts.variant_forest),
    ("option_use", "option_use", "How often a seat-game used each building type, action and gain", charts.option_share_chart,
     "Share of seat-games that used each option", NEVER_SHARE),
    ("option_use", "option_association", "Win rate when an option was used against when it was not (association, not cause)",
     charts.association_forest),
    ("card_use", "card_use", "How often a seat-game used each Affiliate card's power", charts.option_share_chart,
     "Share of seat-games that used each Affiliate card's power", NEVER_SHARE),
)


# Río de la Plata's charts (analysis.rio), drawn as ONE_TABLE_CHARTS are
RIO_CHARTS = (
    ("strategy_balance", "strategy_win_rates", "Win rate by strategy", charts.rate_bars, "strategy", "Win rate by strategy"),
    ("seat_balance", "seat_win_rates", "Win rate by start position", charts.seat_chart),
    ("vp_split", "vp_split", "Final VP by source and strategy", course_charts.stacked_sources,
     "strategy", "Mean final VP by source and strategy", True),
    ("office_value", "office_value", "Win rate of a Public Office's owners against the other seats",
     lambda t: charts.association_forest(t.rename({"office": "option"}).with_columns(pl.lit("all seats").alias("group")))),
)


def _charts_for(a: Analysis) -> dict[str, list[tuple[str, str, callable]]]:
    """table name -> [(chart file stem, caption, draw())] for the tables present in ``a``."""
    t = {tb.name: tb.df for tb in a.tables()}
    out: dict[str, list] = {}

    def add(table, stem, caption, fn):
        if table in t and t[table].height:
            out.setdefault(table, []).append((stem, caption, fn))

    def add_one_table(charts_list):
        for table, stem, caption, draw, *args in charts_list:
            add(table, stem, caption, lambda table=table, draw=draw, args=args: draw(t[table], *args))

    for table, stem, caption, draw in sweep_charts(t):  # the sweeps' curves, every game's (analysis.sweeps)
        add(table, stem, caption, draw)
    if a.run.game != TRINIDAD:  # the owners' chart only where some office had owners and others to compare
        compared = "office_value" in t and t["office_value"]["diff"].drop_nulls().len() > 0
        add_one_table([c for c in RIO_CHARTS if c[0] != "office_value" or compared])
        return out
    add_one_table(ONE_TABLE_CHARTS)
    # War balance: the baseline's tables, then those of a variant that played the other War rules (names ending __<variant>)
    suffixes = [""] + sorted({n[len("wars_per_game"):] for n in t if n.startswith("wars_per_game__")})
    for x in suffixes:
        of = f" ({x[2:]})" if x else ""
        add(f"wars_per_game{x}", f"wars{x}", f"Wars per game and fights or Wars won{of}",
            lambda x=x: course_charts.wars_chart(t[f"wars_per_game{x}"], t.get(f"war_outcomes{x}"),
                                                 *(("war_win_share", "Wars won by a seat") if f"xw_fights{x}" in t else ())))
        add(f"xw_fights{x}", f"xw_fights{x}", f"Extended War: Fight!s won by attacker and miniature kind{of}",
            lambda x=x: course_charts.xw_fights_chart(t[f"xw_fights{x}"]))
        add(f"war_penalty{x}", f"war_penalty{x}", f"Final War Penalty distribution{of}",
            lambda x=x: course_charts.penalty_chart(t[f"war_penalty{x}"]))
        add(f"war_participation{x}", f"war_participation{x}", f"Win-rate effect of war participation{of}",
            lambda x=x: course_charts.participation_chart(t[f"war_participation{x}"]))
        add(f"military_investment{x}", f"military_investment{x}", f"Win rate by peak military Attack Value{of}",
            lambda x=x: course_charts.binned_rate_chart(t[f"military_investment{x}"], "av_bin",
                                                        "Win rate by peak military Attack Value (95% Wilson CI)",
                                                        "peak Attack Value of the seat's miniatures"))
        if x:
            add(f"war_rules_characters{x}", f"war_rules_characters{x}", f"Character win-rate change under the other War rules{of}",
                lambda x=x: charts.variant_forest(t[f"war_rules_characters{x}"],
                                                  "Win-rate change under the other War rules, common seeds (95% CI; red: Holm p < 0.05)"))
    add_one_table(AFTER_THE_WARS)
    for sub in (sub for s in a.sections for sub in s.subsections):
        name = f"character_vp_{sub.id.removeprefix('character-')}"
        title = f"{sub.title}: mean VP by source against the average seat (95% CI)"
        add(name, name, title, lambda name=name, title=title: charts.vp_against_average(t[name], title))
    return out


def auction_price_doc(a: Analysis) -> dict:
    """summary.json's ``auction_price``: each Character's price per player count (VP, bootstrap 95%
    CI, whole VP), the spread of the win rates, and why there are none (a drafted run). An
    experiment's ``[characters] prices = "SUMMARY.json"`` reads the prices back from here."""
    s = a.section("auction-price")
    rows = {t.name: _records(t.df) for t in s.tables}
    prices = [{"players": r["players"], "character": r["character"], "price": r["price"], "ci_low": r["price_lo"],
               "ci_high": r["price_hi"], "price_whole": r["price_whole"], "n": r["n"], "win_rate": r["win_rate"], "paid": r["paid"]}
              for r in rows.get("auction_price", [])]
    return {"prices": prices, "spread": rows.get("auction_spread", []), "absent": s.absent,
            "played_with_prices": (a.run.manifest.get("experiment") or {}).get("prices") or {}}


def _draw(stem: str, caption: str, fn, chart_dir: Path) -> Figure:
    try:
        fig = fn()
    except Exception as ex:  # a chart must not take the whole report down; the page says which one failed
        print(f"report: chart {stem} failed: {type(ex).__name__}: {ex}", file=sys.stderr)
        return Figure(stem, caption, None, f"{type(ex).__name__}: {ex}")
    try:
        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        png = buf.getvalue()
        (chart_dir / f"{stem}.png").write_bytes(png)
        try:  # the PNG pass placed every artist: keep that layout rather than solving it again for the SVG
            fig.set_layout_engine("none")
        except RuntimeError:  # figures with a colorbar cannot drop their layout engine
            pass
        fig.savefig(chart_dir / f"{stem}.svg", format="svg")
    finally:
        charts.close(fig)
    return Figure(stem, caption, base64.b64encode(png).decode("ascii"))


def _clean(v):
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    return v


def _records(df: pl.DataFrame) -> list[dict]:
    return [{k: _clean(v) for k, v in r.items()} for r in df.iter_rows(named=True)]


def _manifest_light(m: dict) -> dict:
    """The manifest without the full resolved rules documents (the hashes identify them)."""
    out = {k: v for k, v in m.items() if k != "variants"}
    out["variants"] = [{k: v for k, v in var.items() if k != "rules"} | {"rules_version": ((var.get("rules") or {}).get("meta") or {}).get("version")}
                       for var in m.get("variants", [])]
    return out


def resolve_out(run_dir: Path, out: str | Path | None) -> Path:
    """The HTML path: DIR/report/index.html by default; PATH if it ends in .html, else PATH/index.html."""
    if out is None:
        return run_dir / "report" / "index.html"
    p = Path(out)
    return p if p.suffix.lower() in (".html", ".htm") else p / "index.html"


REPORT_MARK = ".trinidad-report"  # written into every report folder: what the tool may overwrite


def _is_report_folder(root: Path) -> bool:
    """Written by a report: its mark, or (reports written before the mark) a summary.json of ours."""
    if (root / REPORT_MARK).exists():
        return True
    try:
        doc = json.loads((root / "summary.json").read_text())
    except (OSError, ValueError):
        return False
    return isinstance(doc, dict) and {"run", "sections", "summary"} <= set(doc)


def check_out(run_dir: Path, out: str | Path | None, force: bool = False) -> Path:
    """The HTML path, once it is safe to write the report there: a report is one folder (the page,
    charts/, tables/, summary.*), new, empty or written by an earlier report (it holds
    :data:`REPORT_MARK`). Anything else raises RunError naming the path (a file where the folder
    would be; a folder holding files the report did not write, e.g. a run directory, or an HTML
    page of one's own), unless ``force``."""
    page = resolve_out(run_dir, out)
    root = page.parent
    if page.is_dir():
        raise RunError(f"out: {page} is a folder; name a new .html file or a folder for the report")
    if root.exists() and not root.is_dir():
        raise RunError(f"out: {root} is a file, not a folder; choose a new or empty folder for the report")
    if root.is_dir() and not _is_report_folder(root) and not force:
        theirs = sorted(p.name for p in root.iterdir())
        if theirs:
            raise RunError(f"out: {root} holds files the report did not write ({theirs[0]}"
                           f"{f' and {len(theirs) - 1} more' if len(theirs) > 1 else ''}); the report writes its page, "
                           "charts/, tables/ and summary.* together: choose a new or empty folder, or --force")
    return page


def build_report(run_dir: str | Path, out: str | Path | None = None, delta: float = 0.05, rating_games: int = 50_000,
                 force: bool = False, others: list[str | Path] | None = None, detail_games: int = DETAIL_GAMES,
                 probes: list[str | Path] | None = None, sections=None) -> Path:
    """Analyse ``run_dir`` and write the report; returns the path of the HTML page. Checks the
    output first (:func:`check_out`), so a refused output costs no analysis. ``others``: run
    directories of the same experiment played by weaker player tiers (strongest first after
    ``run_dir``): the Agent sensitivity section compares them. ``probes``: files written by
    ``trinidad probe ... --json > FILE``, shown in the option-use section. ``sections``: the run's
    game's analysis (trinidad.games: ``trinidad report`` looks it up; Trinidad's, :func:`analysis.analyze`,
    by default)."""
    run_dir = Path(run_dir)
    page = check_out(run_dir, out, force)
    tiers = tier_dirs(run_dir)
    if tiers is not None:  # the folder of an experiment with [[tiers]]: its runs, strongest first
        if others:
            raise RunError(f"report: {run_dir} holds tier runs already; name it alone")
        run_dir, others = tiers[0], tiers[1:]
    run = load_run(run_dir)
    more = [load_run(Path(o)) for o in others or []]
    probe_docs = [load_probe(p) for p in probes or []]
    paths = [run.path.resolve(), *(r.path.resolve() for r in more)]
    if len(set(paths)) < len(paths):
        raise RunError("report: the same run directory is named twice; name each tier's run once, strongest first")
    a = (sections or analyze)(run, delta=delta, rating_games=rating_games, others=more, detail_games=detail_games, probes=probe_docs)
    root = page.parent
    chart_dir, table_dir = root / "charts", root / "tables"
    for d in (root, chart_dir, table_dir):
        d.mkdir(parents=True, exist_ok=True)
    figures: dict[str, list[Figure]] = {}
    for table, specs in _charts_for(a).items():
        figures[table] = [_draw(stem, cap, fn, chart_dir) for stem, cap, fn in specs]
    for t in a.tables():
        t.df.write_csv(table_dir / f"{t.name}.csv")
    summary = summary_rows(a)
    summary.write_csv(root / "summary.csv")
    generated = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    doc = {
        "run": str(run_dir), "generated": generated, "baseline": run.baseline, "variants": run.variants, "tie_rule": TIE_RULE,
        "sprt_delta": delta, "manifest": _manifest_light(run.manifest),
        "sections": [{"id": s.id, "title": s.title, "intro": s.intro, "absent": s.absent,
                      "tables": [{"name": t.name, "title": t.title, "note": t.note, "power": t.power, "rows": _records(t.df)}
                                 for t in s.tables],
                      "subsections": [{"id": sub.id, "title": sub.title, "intro": sub.intro,
                                       "tables": [{"name": t.name, "title": t.title, "note": t.note, "power": t.power,
                                                   "rows": _records(t.df)} for t in sub.tables]} for sub in s.subsections]}
                     for s in a.sections],
        "summary": _records(summary),
        "agent_sensitivity": a.sensitivity,
        "auction_price": auction_price_doc(a) if any(s.id == "auction-price" for s in a.sections) else None,
        "option_use": a.option_use,
    } | ({"game": run.game} if run.game != TRINIDAD else {})
    (root / "summary.json").write_text(json.dumps(doc, indent=1, default=str))
    files_note = ('Files beside this page: <a href="summary.csv">summary.csv</a>, <a href="summary.json">summary.json</a>, '
                  "every chart in <code>charts/</code> (PNG and SVG) and every table in <code>tables/</code> (CSV).")
    page.write_text(render(a, figures, generated, files_note), encoding="utf-8")
    (root / REPORT_MARK).write_text(json.dumps({"run": str(run_dir), "page": page.name, "generated": generated}) + "\n")
    return page
