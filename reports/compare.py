"""``trinidad compare A B``: two runs side by side as a page (two rule sets, two player counts,
two player tiers, before and after a change), paired by deal where the runs share their seeds.

Output (default ``B/compare/``)::

    index.html        the self-contained page
    charts/*.png|svg  the win-rate change chart
    tables/*.csv      every table
    summary.json      the tables' rows, the pairing and the two runs' manifests (rules omitted)
"""

from __future__ import annotations

import datetime as _dt
import json
from pathlib import Path

import polars as pl

from analysis.data import load_run
from analysis.run_diff import Comparison, compare_runs
from analysis.tables import Table
from reports import charts
from reports.build import REPORT_MARK, _draw, _manifest_light, _records, check_out
from reports.html import CSS, SCRIPT, _esc, _figure, incomplete_note, render_table


def _tables(c: Comparison, name_a: str, name_b: str) -> list[tuple[str, str, Table]]:
    """(section id, section title, table) in page order."""
    how = "paired t interval of the per-deal differences" if c.paired else "Welch's two-sample t interval (the runs share no deals)"

    def rates(df: pl.DataFrame, key: str) -> pl.DataFrame:
        return df.rename({"win_a": f"win rate · {name_a}", "lo_a": f"win rate · {name_a}_lo", "hi_a": f"win rate · {name_a}_hi",
                          "win_b": f"win rate · {name_b}", "lo_b": f"win rate · {name_b}_lo", "hi_b": f"win rate · {name_b}_hi",
                          "diff": "B − A", "diff_lo": "B − A_lo", "diff_hi": "B − A_hi", **({key: key} if key else {})})

    pct = {f"win rate · {name_a}", f"win rate · {name_b}", "B − A"}
    out = [("compare-characters", "Character win rates",
            Table("compare_characters", "Win rate by Character, A and B", rates(c.characters, ""), pct=pct,
                  note=(f"Mean win credit (ties share the win) with Wilson 95% intervals; B − A in points with the {how}; "
                        "Holm p over the Characters of one player count. Spearman rank correlation of the Characters' win rates: "
                        + ", ".join(f"{n} players {r:.2f}" for n, r in sorted((c.spearman_by_players or {}).items())) + ".")))]
    if c.seats is not None and c.seats.height:
        out.append(("compare-seats", "Turn positions",
                    Table("compare_seats", "Win rate by turn position, A and B", rates(c.seats.rename({"seat": "turn position"}), ""),
                          pct=pct, note=f"Turn position 1 starts. B − A with the {how}; Holm p over the positions of one player count.")))
    src = c.sources.rename({"mean_a": f"mean · {name_a}", "mean_b": f"mean · {name_b}", "diff": "B − A", "diff_lo": "B − A_lo",
                            "diff_hi": "B − A_hi"})
    out.append(("compare-sources", "VP by source",
                Table("compare_sources", "Final VP per seat per game by source", src,
                      note=f"Mean VP a seat scored from each source; B − A with the {how}.")))
    if c.built.height:
        out.append(("compare-buildings", "Buildings",
                    Table("compare_buildings", "Buildings per seat per game", c.built.rename(
                        {"mean_a": f"mean · {name_a}", "mean_b": f"mean · {name_b}"}),
                          note="Minor buildings constructed during the game, per seat; Houses and Palaces on the map: standing at the end.")))
    return out


def _glance(c: Comparison, name_a: str, name_b: str) -> list[str]:
    how = "on the same deals (paired)" if c.paired else "on different deals (not paired)"
    out = [f"{name_b} against {name_a}, {c.n_a:,} and {c.n_b:,} seat-games, {how}."]
    for n, rho in sorted((c.spearman_by_players or {}).items()):
        out.append(f"{n} players: the Characters' win rates rank alike at Spearman {rho:.2f} (1 = the same order).")
    sig = c.characters.filter(pl.col("p_holm") < 0.05).sort("diff")
    for r in sig.iter_rows(named=True):
        out.append(f"{r['players']} players: {r['character']} wins {100 * r['win_a']:.1f}% in {name_a} and {100 * r['win_b']:.1f}% in "
                   f"{name_b} ({100 * r['diff']:+.1f} points [{100 * r['diff_lo']:+.1f}, {100 * r['diff_hi']:+.1f}], Holm p < 0.05).")
    if not sig.height:
        out.append("No Character's win rate differs between the two runs after Holm correction.")
    tot = c.sources.filter(pl.col("source") == "total")
    if tot.height:
        r = tot.row(0, named=True)
        out.append(f"Final VP per seat: {r['mean_a']:.1f} in {name_a}, {r['mean_b']:.1f} in {name_b}.")
    return out


def build_comparison(path_a: str | Path, path_b: str | Path, out: str | Path | None = None, force: bool = False) -> Path:
    """Write the comparison page of run B against run A; returns the page's path."""
    a, b = Path(path_a), Path(path_b)
    page = check_out(b, Path(out) if out is not None else b / "compare", force)
    c = compare_runs(a, b)
    name_a, name_b = "A: " + "/".join(a.parts[-2:]), "B: " + "/".join(b.parts[-2:])
    root = page.parent
    chart_dir, table_dir = root / "charts", root / "tables"
    for d in (root, chart_dir, table_dir):
        d.mkdir(parents=True, exist_ok=True)
    tables = _tables(c, name_a, name_b)
    forest = c.characters.with_columns(pl.lit("B − A").alias("variant"))
    fig = _draw("compare_characters", "Win-rate change B − A by Character (95% CI)",
                lambda: charts.variant_forest(forest, title=f"{name_b} − {name_a}: win-rate change (95% CI; red: Holm p < 0.05)"),
                chart_dir)
    parts, nav = [], []
    for sid, title, t in tables:
        t.df.write_csv(table_dir / f"{t.name}.csv")
        nav.append(f'<a href="#{sid}">{_esc(title)}</a>')
        body = [f'<section id="{sid}"><h2>{_esc(title)}</h2><h3>{_esc(t.title)}</h3>']
        if sid == "compare-characters":
            body.append(_figure(fig))
        body += [render_table(t), f'<p class="note">{_esc(t.note)}</p>', "</section>"]
        parts.append("\n".join(body))
    generated = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    ma, mb = load_run(a).manifest, load_run(b).manifest
    flags = "".join(f'<p class="incomplete" role="alert">{_esc(name)}: {_esc(note)}</p>'
                    for name, note in ((name_a, incomplete_note(ma, a)), (name_b, incomplete_note(mb, b))) if note)
    doc = {"a": str(a), "b": str(b), "paired": c.paired, "generated": generated, "seat_games": {"a": c.n_a, "b": c.n_b},
           "spearman": c.spearman_by_players, "tables": {t.name: _records(t.df) for _, _, t in tables},
           "manifests": {"a": _manifest_light(ma), "b": _manifest_light(mb)}}
    (root / "summary.json").write_text(json.dumps(doc, indent=1, default=str))
    bullets = "".join(f"<li>{_esc(x)}</li>" for x in _glance(c, name_a, name_b))
    page.write_text(f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trinidad comparison: {_esc(name_b)} against {_esc(name_a)}</title><style>{CSS}</style></head>
<body><header><h1>Trinidad comparison</h1><p>{_esc(name_b)} against {_esc(name_a)} · generated {_esc(generated)}</p>{flags}</header>
<nav><a href="#glance">At a glance</a>{"".join(nav)}</nav>
<main><section id="glance"><h2>At a glance</h2><ul class="glance">{bullets}</ul>
<p class="files">Files beside this page: <a href="summary.json">summary.json</a>, the chart in <code>charts/</code>,
every table in <code>tables/</code> (CSV).</p></section>
{"".join(parts)}
</main><script>{SCRIPT}</script></body></html>
""", encoding="utf-8")
    (root / REPORT_MARK).write_text(json.dumps({"run": str(b), "against": str(a), "page": page.name, "generated": generated}) + "\n")
    return page
