"""The report page: one self-contained HTML file (inline CSS, charts as base64 PNG data URIs, a
small inline script, no font, stylesheet or script from the network), laid out for a laptop
screen. Every table is sortable by a click on its header and filterable by a box above it
(:data:`SCRIPT`, progressive enhancement: without script the tables are plain and complete);
headers, legends and sentences use the rulebook's names (:mod:`analysis.labels`)."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import polars as pl

from analysis import TIE_RULE, Analysis
from analysis.labels import column_label, value_label
from analysis.tables import Table

CSS = """
:root { --fg:#1f2d3a; --muted:#5d6d7e; --line:#d5dbe1; --bg:#fff; --soft:#f4f6f8; --sig:#fdecea; --sigfg:#a93226; }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color:var(--fg); background:var(--bg); }
header { background:#1f2d3a; color:#fff; padding:18px 24px; }
header h1 { margin:0 0 4px; font-size:22px; }
header p { margin:0; color:#d0d7de; font-size:13px; }
nav { position:sticky; top:0; background:var(--soft); border-bottom:1px solid var(--line); padding:6px 24px; z-index:2; font-size:13px;
      display:flex; flex-wrap:wrap; column-gap:14px; row-gap:2px; }
nav a { color:#1a5276; text-decoration:none; white-space:nowrap; }
main { max-width:1180px; margin:0 auto; padding:8px 24px 48px; }
section { border-bottom:1px solid var(--line); padding-bottom:12px; }
h2 { margin:28px 0 6px; font-size:20px; }
h3 { margin:22px 0 6px; font-size:16px; }
p.intro { color:var(--muted); margin:4px 0 10px; }
p.absent { background:#fef9e7; border-left:4px solid #f1c40f; padding:8px 12px; }
p.note, p.power { font-size:13px; color:var(--muted); margin:4px 0; }
p.power { border-left:3px solid #85929e; padding-left:8px; }
p.warn { color:var(--sigfg); }
figure { margin:8px 0 12px; }
figure img { max-width:100%; height:auto; border:1px solid var(--line); border-radius:4px; }
figcaption { font-size:12px; color:var(--muted); }
.tablewrap { overflow-x:auto; margin:6px 0; }
table { border-collapse:collapse; font-size:12.5px; font-variant-numeric: tabular-nums; }
th, td { padding:3px 8px; border-bottom:1px solid var(--line); text-align:right; white-space:nowrap; }
th { background:var(--soft); position:sticky; top:0; }
td.txt, th.txt { text-align:left; }
tr.sig td { background:var(--sig); }
details summary { cursor:pointer; color:#1a5276; font-size:13px; }
ul.glance li { margin:3px 0; }
.files { font-size:13px; }
code { background:var(--soft); padding:0 3px; border-radius:3px; }
/* --- issue 23 part 6: incomplete-run flag, sortable and filterable tables --- */
header p.incomplete { margin:8px 0 0; padding:6px 10px; background:#f9e79f; color:#4d3800; border-radius:4px; font-size:14px; font-weight:600; }
th.sortable { cursor:pointer; user-select:none; }
th.sortable:hover, th.sortable:focus { background:#e3e9ef; outline:none; }
th.sortable::after { content:" \\2195"; color:#aab4be; font-size:11px; }
th[aria-sort="ascending"]::after { content:" \\25B2"; color:var(--fg); }
th[aria-sort="descending"]::after { content:" \\25BC"; color:var(--fg); }
.tabletools { margin:6px 0 2px; font-size:12.5px; color:var(--muted); }
.tabletools input { font:inherit; padding:2px 6px; width:16em; border:1px solid var(--line); border-radius:3px; margin-right:8px; }
/* --- end part 6 --- */
h4 { margin:16px 0 4px; font-size:14px; }
div.subsection { border-top:1px dashed var(--line); margin-top:18px; }
p.subnav { font-size:13px; }
ul.bullets li { margin:3px 0; }
"""

# --- issue 23 part 6: sorting and filtering every table (vanilla JS, inline, no network) ---
# A header click sorts the rows by that column (again: the other way); numbers sort as numbers
# (cells carry their raw value in data-sort; else the text is read: 12.5%, 1,234, −3, <0.001, ∞),
# missing values (–) last either way. The box above a table keeps the rows holding every word typed.
SCRIPT = r"""
(function () {
  "use strict";
  function key(td) {
    var raw = td.getAttribute("data-sort");
    if (raw !== null && raw !== "") { return parseFloat(raw); }
    var t = td.textContent.trim();
    if (t === "" || t === "\u2013" || t === "n/a") { return NaN; }
    if (t === "\u221e") { return Infinity; }
    if (t === "\u2212\u221e") { return -Infinity; }
    var u = t.replace(/\u2212/g, "-").replace(/,/g, "");
    var m = u.match(/^<\s*(-?\d*\.?\d+)/);
    if (m) { return parseFloat(m[1]) - 1e-12; }
    m = u.match(/^[+]?(-?\d*\.?\d+(?:e[+-]?\d+)?)%?(\s|\[|$)/i);
    return m ? parseFloat(m[1]) : t.toLowerCase();
  }
  function compare(a, b) {
    var an = typeof a === "number", bn = typeof b === "number";
    if (an && isNaN(a)) { return (bn && isNaN(b)) ? 0 : 1; }
    if (bn && isNaN(b)) { return -1; }
    if (an && bn) { return a < b ? -1 : a > b ? 1 : 0; }
    if (an !== bn) { return an ? -1 : 1; }
    return String(a).localeCompare(String(b), undefined, {numeric: true});
  }
  function sortBy(table, th) {
    var col = Array.prototype.indexOf.call(th.parentNode.children, th);
    var dir = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
    var ths = table.tHead.rows[0].cells;
    for (var i = 0; i < ths.length; i++) { ths[i].removeAttribute("aria-sort"); }
    th.setAttribute("aria-sort", dir);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows).map(function (r, i) { return {r: r, i: i, k: key(r.cells[col])}; });
    rows.sort(function (x, y) {
      var missX = typeof x.k === "number" && isNaN(x.k), missY = typeof y.k === "number" && isNaN(y.k);
      if (missX || missY) { return missX === missY ? x.i - y.i : (missX ? 1 : -1); }
      var c = compare(x.k, y.k);
      return (dir === "ascending" ? c : -c) || x.i - y.i;
    });
    rows.forEach(function (x) { body.appendChild(x.r); });
  }
  function filter(table, input, count) {
    var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var rows = table.tBodies[0].rows, shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var text = rows[i].textContent.toLowerCase();
      var keep = words.every(function (w) { return text.indexOf(w) >= 0; });
      rows[i].hidden = !keep;
      if (keep) { shown++; }
    }
    count.textContent = shown + " of " + rows.length + (rows.length === 1 ? " row" : " rows");
  }
  function enhance(table) {
    if (!table.tHead || !table.tBodies.length) { return; }
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.classList.add("sortable");
      th.tabIndex = 0;
      th.title = "Sort by this column (click again: the other way)";
      th.addEventListener("click", function () { sortBy(table, th); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(table, th); }
      });
    });
    var wrap = table.parentNode;
    var tools = document.createElement("div");
    tools.className = "tabletools";
    var input = document.createElement("input");
    input.type = "search";
    input.placeholder = "Filter rows\u2026";
    input.setAttribute("aria-label", "Filter the rows of this table");
    var count = document.createElement("span");
    var n = table.tBodies[0].rows.length;
    count.textContent = n + (n === 1 ? " row" : " rows");
    input.addEventListener("input", function () { filter(table, input, count); });
    tools.appendChild(input);
    tools.appendChild(count);
    wrap.parentNode.insertBefore(tools, wrap);
  }
  document.querySelectorAll("div.tablewrap > table").forEach(enhance);
})();
"""
# --- end part 6 script ---


@dataclass
class Figure:
    name: str
    title: str
    png_b64: str | None
    error: str | None = None


def _esc(x) -> str:
    return html.escape(str(x), quote=True)


def _num(v, col: str, t: Table) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, float) and math.isinf(v):  # an unbounded interval (a Character that always wins)
        return "∞" if v > 0 else "−∞"
    if col in t.pct:
        return f"{100 * v:.1f}%"
    if col in ("p", "p_holm") or col.startswith(("p_", "p (", "Holm p")):  # "Holm p · <tier>", "p (none differs)": Agent sensitivity
        return "<0.001" if v < 0.001 else f"{v:.3f}"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if v == int(v) and abs(v) < 1e6 and col in ("wins", "above"):
            return f"{v:,.0f}"
        if col.startswith(("odds", "llr", "chi2")):
            return f"{v:.3f}" if col.startswith("odds") else f"{v:.2f}"
        return f"{v:,.2f}" if abs(v) < 1e5 else f"{v:,.0f}"
    return str(v)  # plain text: the caller escapes it


def _sort_key(v) -> str:
    """A numeric cell's raw value for the page's sorting script (``data-sort``); '' when missing."""
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int | float) and not (isinstance(v, float) and math.isnan(v)):
        return repr(float(v)) if not math.isinf(v) else ("Infinity" if v > 0 else "-Infinity")
    return ""


def render_table(t: Table) -> str:
    """An HTML table: ``x, x_lo, x_hi`` become one 'x (95% CI)' column; headers and engine names
    in cells (VP sources) in the rulebook's words (:mod:`analysis.labels`); every cell escaped;
    numeric cells carry their raw value for sorting; rows whose Holm p is below 0.05 are shaded;
    long tables fold. The page's script makes every such table sortable and filterable."""
    df = t.df
    cols = df.columns
    skip = {c for c in cols if (c.endswith("_lo") and c[:-3] in cols) or (c.endswith("_hi") and c[:-3] in cols)}
    shown = [c for c in cols if c not in skip]
    head = []
    for c in shown:
        label = column_label(c)
        if f"{c}_lo" in cols:
            label += " (95% CI)"
        cls = ' class="txt"' if df[c].dtype in (pl.String, pl.Categorical) or isinstance(df[c].dtype, pl.Enum) else ""
        head.append(f'<th scope="col"{cls}>{_esc(label)}</th>')
    body = []
    for r in df.iter_rows(named=True):
        cells = []
        for c in shown:
            v = r[c]
            txt = isinstance(v, str)
            s = _esc(value_label(c, v)) if txt else _esc(_num(v, c, t))
            if f"{c}_lo" in cols and v is not None:
                s += _esc(f" [{_num(r[f'{c}_lo'], c, t)}, {_num(r[f'{c}_hi'], c, t)}]")
            k = "" if txt else _sort_key(v)
            cells.append(f'<td class="txt">{s}</td>' if txt else (f'<td data-sort="{k}">{s}</td>' if k else f"<td>{s}</td>"))
        ph = r.get("p_holm")
        sig = ph is not None and isinstance(ph, float) and not math.isnan(ph) and ph < 0.05
        body.append(('<tr class="sig">' if sig else "<tr>") + "".join(cells) + "</tr>")
    table = f'<div class="tablewrap"><table><thead><tr>{"".join(head)}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'
    if df.height > 30:
        return f"<details><summary>Show the table ({df.height} rows)</summary>{table}</details>"
    return table


def _figure(f: Figure) -> str:
    if f.error:
        return f'<p class="note warn">Chart {_esc(f.name)} could not be drawn: {_esc(f.error)}</p>'
    return (f'<figure><img alt="{_esc(f.title)}" src="data:image/png;base64,{f.png_b64}">'
            f'<figcaption>{_esc(f.title)} — also <a href="charts/{_esc(f.name)}.svg">SVG</a>, '
            f'<a href="charts/{_esc(f.name)}.png">PNG</a></figcaption></figure>')


def render_bullets(s) -> str:
    """A section's plain sentences (``Section.bullets``) as a list; empty when it has none."""
    if not s.bullets:
        return ""
    return f'<ul class="bullets">{"".join(f"<li>{_esc(b)}</li>" for b in s.bullets)}</ul>'


def render_table_block(t: Table, anchor: str, heading: str, figures: dict[str, list[Figure]]) -> str:
    """One table of a section or sub-section: its heading (``h3``/``h4`` with id ``anchor``), its
    charts, the table (or a link to its CSV when it is not shown, or a line when it has no rows),
    its method note and power line."""
    out = [f'<{heading} id="{anchor}">{_esc(t.title)}</{heading}>', *(_figure(f) for f in figures.get(t.name, []))]
    if t.empty:
        out.append('<p class="absent">No rows: the run has no data for this table.</p>')
    elif t.show:
        out.append(render_table(t))
    else:
        out.append(f'<p class="files">Full table ({t.df.height:,} rows): <a href="tables/{t.name}.csv">tables/{t.name}.csv</a></p>')
    if t.note:
        out.append(f'<p class="note">{_esc(t.note)}</p>')
    if t.power:
        out.append(f'<p class="power">{_esc(t.power)}</p>')
    return "\n".join(out)


def section_body(s, heading: str, figures: dict[str, list[Figure]]) -> list[str]:
    """A section's or sub-section's intro, why it has no analysis, its sentences and its tables
    (each under a ``heading`` with the id ``<section id>-<table name>``)."""
    out = [f'<p class="intro">{_esc(s.intro)}</p>'] if s.intro else []
    if s.absent:
        out.append(f'<p class="absent">{_esc(s.absent)}</p>')
    out.append(render_bullets(s))
    return out + [render_table_block(t, f"{s.id}-{t.name}", heading, figures) for t in s.tables]


def render_subsections(s, figures: dict[str, list[Figure]]) -> str:
    """A section's sub-sections (``Section.subsections``, e.g. one per Character): a line of links,
    then each as an ``<h3 id=...>`` with its intro, sentences, and tables under ``<h4>`` headings."""
    if not s.subsections:
        return ""
    links = " · ".join(f'<a href="#{sub.id}">{_esc(sub.title)}</a>' for sub in s.subsections)
    out = [f'<p class="subnav">{links}</p>']
    for sub in s.subsections:
        out += [f'<div class="subsection" id="{sub.id}"><h3>{_esc(sub.title)}</h3>', *section_body(sub, "h4", figures), "</div>"]
    return "\n".join(out)


def players_glance(a: Analysis) -> list[str]:
    """Which players made the numbers; with several tiers, only the findings robust across the two
    strongest (see :mod:`analysis.sensitivity`), each naming the tiers that produced it."""
    from analysis.sensitivity import DEPENDS, robust_sentences, strategies_of

    if len(a.tiers) < 2:
        return [f"Players: {', '.join(strategies_of(a.run)) or 'unknown'}, one player family. Whether the findings hold for "
                "stronger or weaker players was not checked (see Agent sensitivity)."]
    names = ", ".join(f"{t.label}" for t in a.tiers)
    out = [f"Players: {len(a.tiers)} tiers, strongest first: {names}. The sentences below keep only the findings robust at the "
           f"two strongest ({a.tiers[0].label} and {a.tiers[1].label}); the tables further down describe {a.tiers[0].label}."]
    f = a.section("agent-sensitivity").table("tier_findings").df
    rob = robust_sentences(f, a.tiers)
    out += rob or [f"No Character or turn position differs from the fair share at both {a.tiers[0].label} and {a.tiers[1].label}."]
    dep = f.filter(pl.col("verdict") == DEPENDS).height
    if dep:
        out.append(f"{dep} more finding{'s' if dep > 1 else ''} depend{'s' if dep == 1 else ''} on the players "
                   "(significant in one tier only, or with opposite signs): see Agent sensitivity.")
    return out


GLANCE_MAX = 4  # sentences of one kind per player count; the rest are counted, the tables have them


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _p(p: float) -> str:
    v = _num(p, "p", Table("", "", pl.DataFrame()))
    return f"p < {v[1:]}" if v.startswith("<") else f"p = {v}"


def character_glance(cb: pl.DataFrame) -> list[str]:
    """One short sentence per Character whose win rate differs from the fair share (Holm p < 0.05),
    with its rate and interval; else one sentence naming the highest and the lowest."""
    out = []
    for (n,), part in sorted(cb.partition_by("players", as_dict=True).items()):
        fair = _pct(1 / n)
        sig = part.filter(pl.col("p_holm") < 0.05).sort(pl.col("diff").abs(), descending=True)
        top, rest = sig.head(GLANCE_MAX).sort("diff", descending=True), sig.slice(GLANCE_MAX).sort("diff", descending=True)
        for r in top.iter_rows(named=True):  # the largest departures, one sentence each
            more = "more" if r["diff"] > 0 else "less"
            out.append(f"{n} players: {r['character']} wins {_pct(r['win_rate'])} [{_pct(r['win_rate_lo'])}, {_pct(r['win_rate_hi'])}], "
                       f"{more} than the fair {fair} (Holm {_p(r['p_holm'])}).")
        if rest.height:
            out.append(f"{n} players: {rest.height} more Character{'s' if rest.height > 1 else ''} differ{'s' if rest.height == 1 else ''} "
                       "from the fair share: " + ", ".join(f"{r['character']} {_pct(r['win_rate'])}" for r in rest.iter_rows(named=True)) + ".")
        if not sig.height:
            hi, lo = part.sort("win_rate", descending=True).row(0, named=True), part.sort("win_rate").row(0, named=True)
            out.append(f"{n} players: no Character's win rate differs from the fair {fair} (Holm-corrected). "
                       f"Highest: {hi['character']} {_pct(hi['win_rate'])}. Lowest: {lo['character']} {_pct(lo['win_rate'])}.")
    return out


def seat_glance(sb: pl.DataFrame, chi: pl.DataFrame) -> list[str]:
    """Per player count: the turn positions that win most and least, and the chi-square verdict."""
    out = []
    tests = {int(r["players"]): r["p"] for r in chi.iter_rows(named=True)}
    for (n,), part in sorted(sb.partition_by("players", as_dict=True).items()):
        part = part.sort("win_rate", descending=True)
        hi, lo = part.row(0, named=True), part.row(part.height - 1, named=True)
        line = (f"{n} players: turn position {hi['turn_position']} wins {_pct(hi['win_rate'])}, "
                f"turn position {lo['turn_position']} wins {_pct(lo['win_rate'])} (fair share {_pct(1 / n)}).")
        p = tests.get(int(n))
        if p is not None and p == p:
            line += (" The turn positions differ" if p < 0.05 else " The difference is not detectable") + f" (chi-square {_p(p)})."
        out.append(line)
    return out


def glance(a: Analysis) -> list[str]:
    """Plain short sentences with numbers: what the Holm-corrected tests found (and what they could
    not), one finding per sentence (issue 23 part 6). With several player tiers, Character and
    turn-position sentences come from the robust findings only."""
    out = players_glance(a)
    if len(a.tiers) < 2:  # with tiers, the robust findings above replace these
        try:
            out += character_glance(a.section("characters").table("character_balance").df)
        except KeyError:
            pass
        try:
            from analysis.auction import price_sentences

            out += price_sentences(a.section("auction-price").table("auction_price").df)
        except KeyError:
            pass
        try:
            s = a.section("seats")
            out += seat_glance(s.table("seat_balance").df, s.table("seat_chisquare").df)
        except KeyError:
            pass
    try:
        sb = a.section("solo").table("solo_beat").df
        for r in sb.iter_rows(named=True):
            out.append(f"{r['game']}, {r['strategy']} against {r['ai']}: beats the A.I. in {_pct(r['beat_rate'])} "
                       f"[{_pct(r['beat_rate_lo'])}, {_pct(r['beat_rate_hi'])}] of {r['n']:,} seats, VP margin {r['margin']:+.1f}.")
    except KeyError:
        pass
    v = a.section("variants")
    if not v.absent:
        ch = v.table("variant_characters").df.filter(pl.col("sprt").str.starts_with("H1")).sort("diff", descending=True)
        for r in ch.head(2 * GLANCE_MAX).iter_rows(named=True):
            out.append(f"Rule variant {r['variant']}, {r['players']} players: {r['character']}'s win rate goes from "
                       f"{_pct(r['win_rate_base'])} to {_pct(r['win_rate'])} ({100 * r['diff']:+.1f} points; SPRT decision).")
        if ch.height > 2 * GLANCE_MAX:
            out.append(f"{ch.height - 2 * GLANCE_MAX} more SPRT decisions: see Rule variants.")
        if not ch.height:
            out.append("Rule variants: no Character's win rate changed by the stated effect size (SPRT).")
    return out


# --- issue 23 part 6: the header says when the run is not complete ---
def incomplete_note(manifest: dict, run_dir) -> str:
    """A warning line for the page header when the run's manifest status is not 'complete'
    (trinidad.runner writes 'running' while it plays, 'interrupted' on Ctrl-C); '' when complete."""
    status = manifest.get("status")
    if status == "complete":
        return ""
    c = manifest.get("counts") or {}
    done, total = c.get("games_done"), c.get("games_total")
    played = f" {done:,} of {total:,} games played when the manifest was last written;" if isinstance(done, int) and isinstance(total, int) else ""
    why = {"running": "it is still playing, or it was killed before it finished",
           "interrupted": "it was interrupted"}.get(status, "its manifest does not say it finished")
    return (f"Incomplete run (status: {status or 'missing'}): {why};{played} these numbers describe the games on disk only. "
            f"Finish it with: trinidad run --resume --out {run_dir}")
# --- end part 6 header ---


def render(a: Analysis, figures: dict[str, list[Figure]], generated: str, files_note: str) -> str:
    m = a.run.manifest
    name = (m.get("experiment") or {}).get("name", a.run.path.name)
    games = int(a.run.game_counts()["games"].sum())
    per_variant = f" ({games // len(a.run.variants):,} per variant)" if len(a.run.variants) > 1 else ""
    from analysis.sensitivity import strategies_of

    who = (f"players: {', '.join(t.label for t in a.tiers)} (tiers, strongest first)" if len(a.tiers) > 1
           else f"players: {', '.join(strategies_of(a.run))}")
    sections = []
    nav = []
    for s in a.sections:
        nav.append(f'<a href="#{s.id}">{_esc(s.title)}</a>')
        parts = [f'<section id="{s.id}"><h2>{_esc(s.title)}</h2>', *section_body(s, "h3", figures), render_subsections(s, figures)]
        parts.append("</section>")
        sections.append("\n".join(parts))
    bullets = "".join(f"<li>{_esc(b)}</li>" for b in (glance(a) if a.glance is None else a.glance))
    flag = incomplete_note(m, a.run.path)
    flag = f'<p class="incomplete" role="alert">{_esc(flag)}</p>' if flag else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(a.title)} design report: {_esc(name)}</title><style>{CSS}</style></head>
<body><header><h1>{_esc(a.title)} design report: {_esc(name)}</h1>
<p>{_esc(str(a.run.path))} · {games:,} games{per_variant} · {_esc(who)}
· variants: {_esc(", ".join(a.run.variants))} · generated {_esc(generated)}</p>{flag}</header>
<nav><a href="#glance">At a glance</a>{"".join(nav)}</nav>
<main><section id="glance"><h2>At a glance</h2><ul class="glance">{bullets}</ul>
<p class="note">{_esc(TIE_RULE)} Every rate is shown with its n and a Wilson 95% interval; tests within a table are Holm-corrected
per player count (shaded rows: Holm p &lt; 0.05); each table ends with the smallest difference this run can detect at 80% power.</p>
<p class="files">{files_note}</p></section>
{"".join(sections)}
</main><script>{SCRIPT}</script></body></html>
"""
