"""The report page: one self-contained HTML file (inline CSS, charts as base64 PNG data URIs,
no script, no font or stylesheet from the network), laid out for a laptop screen."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

import polars as pl

from analysis import TIE_RULE, Analysis
from analysis.tables import Table

CSS = """
:root { --fg:#1f2d3a; --muted:#5d6d7e; --line:#d5dbe1; --bg:#fff; --soft:#f4f6f8; --sig:#fdecea; --sigfg:#a93226; }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color:var(--fg); background:var(--bg); }
header { background:#1f2d3a; color:#fff; padding:18px 24px; }
header h1 { margin:0 0 4px; font-size:22px; }
header p { margin:0; color:#d0d7de; font-size:13px; }
nav { position:sticky; top:0; background:var(--soft); border-bottom:1px solid var(--line); padding:6px 24px; z-index:2; font-size:13px; }
nav a { margin-right:14px; color:#1a5276; text-decoration:none; white-space:nowrap; }
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
h4 { margin:16px 0 4px; font-size:14px; }
div.subsection { border-top:1px dashed var(--line); margin-top:18px; }
p.subnav { font-size:13px; }
ul.bullets li { margin:3px 0; }
"""


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
    if col in ("p", "p_holm") or col.startswith("p_"):
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
    return _esc(v)


def render_table(t: Table) -> str:
    """An HTML table: ``x, x_lo, x_hi`` become one 'x (95% CI)' column; rows whose Holm p is
    below 0.05 are shaded; long tables fold."""
    df = t.df
    cols = df.columns
    skip = {c for c in cols if (c.endswith("_lo") and c[:-3] in cols) or (c.endswith("_hi") and c[:-3] in cols)}
    shown = [c for c in cols if c not in skip]
    head = []
    for c in shown:
        label = c.replace("_", " ")
        if f"{c}_lo" in cols:
            label += " (95% CI)"
        cls = ' class="txt"' if df[c].dtype in (pl.String, pl.Categorical) or isinstance(df[c].dtype, pl.Enum) else ""
        head.append(f"<th{cls}>{_esc(label)}</th>")
    body = []
    for r in df.iter_rows(named=True):
        cells = []
        for c in shown:
            v = r[c]
            txt = isinstance(v, str)
            s = _esc(v) if txt else _num(v, c, t)
            if f"{c}_lo" in cols and v is not None:
                s += f" [{_num(r[f'{c}_lo'], c, t)}, {_num(r[f'{c}_hi'], c, t)}]"
            cells.append(f'<td class="txt">{s}</td>' if txt else f"<td>{s}</td>")
        ph = r.get("p_holm")
        sig = ph is not None and isinstance(ph, float) and not math.isnan(ph) and ph < 0.05
        body.append(f'<tr{" class=sig" if sig else ""}>' + "".join(cells) + "</tr>")
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


def render_subsections(s, figures: dict[str, list[Figure]]) -> str:
    """A section's sub-sections (``Section.subsections``, e.g. one per Character): a line of links,
    then each as an ``<h3 id=...>`` with its intro, sentences, and tables under ``<h4>`` headings."""
    if not s.subsections:
        return ""
    links = " · ".join(f'<a href="#{sub.id}">{_esc(sub.title)}</a>' for sub in s.subsections)
    out = [f'<p class="subnav">{links}</p>']
    for sub in s.subsections:
        out.append(f'<div class="subsection" id="{sub.id}"><h3>{_esc(sub.title)}</h3>')
        if sub.intro:
            out.append(f'<p class="intro">{_esc(sub.intro)}</p>')
        if sub.absent:
            out.append(f'<p class="absent">{_esc(sub.absent)}</p>')
        out.append(render_bullets(sub))
        for t in sub.tables:
            out.append(f'<h4 id="{sub.id}-{t.name}">{_esc(t.title)}</h4>')
            for f in figures.get(t.name, []):
                out.append(_figure(f))
            out.append('<p class="absent">No rows: the run has no data for this table.</p>' if t.empty else render_table(t))
            if t.note:
                out.append(f'<p class="note">{_esc(t.note)}</p>')
            if t.power:
                out.append(f'<p class="power">{_esc(t.power)}</p>')
        out.append("</div>")
    return "\n".join(out)


def players_glance(a: Analysis) -> list[str]:
    """Which players made the numbers; with several tiers, only the findings robust across the two
    strongest (see :mod:`analysis.sensitivity`), each naming the tiers that produced it."""
    from analysis.sensitivity import DEPENDS, robust_sentences, single_tier_text

    if len(a.tiers) < 2:
        return [single_tier_text(a.run)]
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


def glance(a: Analysis) -> list[str]:
    """Plain-sentence headlines: what the Holm-corrected tests found (and what they could not).
    With several player tiers, Character and seat sentences come from the robust findings only."""
    out = players_glance(a)
    try:
        if len(a.tiers) > 1:
            raise KeyError("tiers")  # the robust findings above replace the one-tier sentences
        cb = a.section("characters").table("character_balance").df
        for (n,), part in sorted(cb.partition_by("players", as_dict=True).items()):
            sig = part.filter(pl.col("p_holm") < 0.05).sort("diff", descending=True)
            if sig.height:
                bits = ", ".join(f"{r['character']} {100 * r['win_rate']:.1f}% [{100 * r['win_rate_lo']:.1f}, {100 * r['win_rate_hi']:.1f}]"
                                 for r in sig.iter_rows(named=True))
                out.append(f"{n} players: Characters whose win rate differs from the fair {100 / n:.1f}% (Holm p < 0.05): {bits}.")
            else:
                out.append(f"{n} players: no Character's win rate differs from the fair {100 / n:.1f}% after Holm correction "
                           f"(range {100 * part['win_rate'].min():.1f}%–{100 * part['win_rate'].max():.1f}%).")
    except KeyError:
        pass
    try:
        if len(a.tiers) > 1:
            raise KeyError("tiers")
        chi = a.section("seats").table("seat_chisquare").df
        for r in chi.iter_rows(named=True):
            verdict = "differ" if r["p"] == r["p"] and r["p"] < 0.05 else "do not detectably differ"
            pv = _num(r["p"], "p", Table("", "", chi))
            out.append(f"{r['players']} players: wins by seat {verdict} (chi-square p {pv if pv.startswith('<') else '= ' + pv}).")
    except KeyError:
        pass
    try:
        sb = a.section("solo").table("solo_beat").df
        for r in sb.iter_rows(named=True):
            out.append(f"{r['game']}, {r['strategy']} against {r['ai']}: beats the A.I. in {100 * r['beat_rate']:.1f}% "
                       f"[{100 * r['beat_rate_lo']:.1f}, {100 * r['beat_rate_hi']:.1f}] of {r['n']:,} seats, "
                       f"VP margin {r['margin']:+.1f}.")
    except KeyError:
        pass
    v = a.section("variants")
    if not v.absent:
        vc = v.table("variant_characters").df
        ch = vc.filter(pl.col("sprt").str.starts_with("H1"))
        if ch.height:
            out.append("Rule variants, SPRT decisions of a win-rate change: " + ", ".join(
                f"{r['variant']} ({r['players']}p) {r['character']} {100 * r['diff']:+.1f} points" for r in ch.iter_rows(named=True)) + ".")
        else:
            out.append("Rule variants: no Character's win rate changed by the stated effect size according to the SPRT.")
    return out


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
        parts = [f'<section id="{s.id}"><h2>{_esc(s.title)}</h2>']
        if s.intro:
            parts.append(f'<p class="intro">{_esc(s.intro)}</p>')
        if s.absent:
            parts.append(f'<p class="absent">{_esc(s.absent)}</p>')
        parts.append(render_bullets(s))
        for t in s.tables:
            parts.append(f'<h3 id="{s.id}-{t.name}">{_esc(t.title)}</h3>')
            for f in figures.get(t.name, []):
                parts.append(_figure(f))
            if t.empty:
                parts.append('<p class="absent">No rows: the run has no data for this table.</p>')
            elif t.show:
                parts.append(render_table(t))
            else:
                parts.append(f'<p class="files">Full table ({t.df.height:,} rows): <a href="tables/{t.name}.csv">tables/{t.name}.csv</a></p>')
            if t.note:
                parts.append(f'<p class="note">{_esc(t.note)}</p>')
            if t.power:
                parts.append(f'<p class="power">{_esc(t.power)}</p>')
        parts.append(render_subsections(s, figures))
        parts.append("</section>")
        sections.append("\n".join(parts))
    bullets = "".join(f"<li>{_esc(b)}</li>" for b in glance(a))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trinidad design report: {_esc(name)}</title><style>{CSS}</style></head>
<body><header><h1>Trinidad design report: {_esc(name)}</h1>
<p>{_esc(str(a.run.path))} · {games:,} games{per_variant} · {_esc(who)}
· variants: {_esc(", ".join(a.run.variants))} · generated {_esc(generated)}</p></header>
<nav><a href="#glance">At a glance</a>{"".join(nav)}</nav>
<main><section id="glance"><h2>At a glance</h2><ul class="glance">{bullets}</ul>
<p class="note">{_esc(TIE_RULE)} Every rate is shown with its n and a Wilson 95% interval; tests within a table are Holm-corrected
per player count (shaded rows: Holm p &lt; 0.05); each table ends with the smallest difference this run can detect at 80% power.</p>
<p class="files">{files_note}</p></section>
{"".join(sections)}
</main></body></html>
"""
