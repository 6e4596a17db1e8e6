"""Matplotlib charts of the game's course (one function per figure, each returning a Figure): the Characters'
trajectories over the decades, the VP gained by source in each Era, lead changes and comebacks, and the Wars.

The rest of the report's charts, and the set-up they share (the palette, the panels per player count), are
:mod:`reports.charts`; like them, these are drawn only from the tidy tables of :mod:`analysis`.
"""

from __future__ import annotations

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from analysis.labels import source_label

# pyplot as reports.charts set it up: the headless backend chosen before pyplot is first imported
from reports.charts import MARKERS, NEUTRAL, PALETTE, SIG, STYLES, _axis_labels, _err, _facets, _panels, _pd, _players, plt


def _colors(names: list[str]) -> dict[str, tuple]:
    """name -> (colour, line style, marker): distinct colours first, then markers tell lines apart."""
    return {c: (PALETTE[i % len(PALETTE)], STYLES[(i // len(PALETTE)) % len(STYLES)], MARKERS[i % len(MARKERS)])
            for i, c in enumerate(names)}


def _end_labels(ax, ends: list[tuple[float, float, str, tuple]], gap: float) -> None:
    """Each line's name at its right end, nudged apart vertically (at least ``gap`` data units)."""
    ends = sorted(ends, key=lambda e: e[1])
    ys = [e[1] for e in ends]
    for k in range(1, len(ys)):
        ys[k] = max(ys[k], ys[k - 1] + gap)
    shift = (ys[-1] - max(e[1] for e in ends)) / 2 if ys else 0
    for (x, _, name, col), y in zip(ends, ys):
        ax.annotate(name, (x, y - shift), xytext=(4, 0), textcoords="offset points", va="center", fontsize=7, color=col)


def trajectories_chart(t: pl.DataFrame) -> Figure:
    """Each Character's mean VP against the average Character at each decade end (top; the
    cumulative VP of twelve Characters lie on one another), and its mean rank (bottom); one column
    per player count. Twelve distinct colours and markers, each line named at its end."""
    df = _pd(t)
    ps = _players(df)
    chars = sorted(df["character"].unique())
    cs = _colors(chars)
    fig, axes = _facets(len(ps), w=6.2, h=3.8, rows=2)
    for k, n in enumerate(ps):
        d = df[df["players"] == n].copy()
        d["ahead"] = d["mean_vp"] - d.groupby("decade")["mean_vp"].transform("mean")
        top, bottom = [], []
        for c in chars:
            dc = d[d["character"] == c].sort_values("decade")
            if dc.empty:
                continue
            col, ls, mk = cs[c]
            axes[0][k].plot(dc["decade"], dc["ahead"], color=col, ls=ls, marker=mk, ms=3.5, lw=1.3, label=c)
            axes[1][k].plot(dc["decade"], dc["mean_rank"], color=col, ls=ls, marker=mk, ms=3.5, lw=1.3, label=c)
            top.append((dc["decade"].iloc[-1], dc["ahead"].iloc[-1], c, col))
            bottom.append((dc["decade"].iloc[-1], dc["mean_rank"].iloc[-1], c, col))
        for ax, ends in ((axes[0][k], top), (axes[1][k], bottom)):
            lo, hi = ax.get_ylim()
            _end_labels(ax, ends, (hi - lo) / 28)
            ax.set_xlim(right=d["decade"].max() + 2.2)
        eras_end = d.groupby("era")["decade"].max().to_numpy()[:-1]
        for ax in (axes[0][k], axes[1][k]):
            for e in eras_end:
                ax.axvline(e + 0.5, color="#bdc3c7", lw=0.8)
            ax.set_xlabel("decade")
        axes[0][k].axhline(0, color="#7f8c8d", lw=0.8, ls="--")
        axes[0][k].set_title(f"{n} players")
        axes[0][k].set_ylabel("mean VP − average Character's")
        axes[1][k].set_ylabel("mean rank (1 = leading)")
        axes[1][k].invert_yaxis()
    fig.suptitle("VP ahead of the average Character, and rank, at each decade end (grey lines: Era ends)")
    return fig


def _source_colours(sources: list[str]) -> dict[str, tuple]:
    """A colour per VP source (tab20: pairs of a dark and a light shade, so neighbours differ)."""
    cmap = plt.get_cmap("tab20")
    return {s: cmap(i % 20) for i, s in enumerate(sources)}


def era_character_sources(t: pl.DataFrame) -> Figure:
    """The VP each Character gained from each source in each Era (the vp_by_era_character table) as
    small multiples: one row of panels per player count, one panel per Era (and the final
    scoring), a stacked bar per Character; the legend names the sources as the rulebook does."""
    df = _pd(t)
    ps = _players(df)
    periods = list(dict.fromkeys(df.sort_values("period")["period"]))
    periods = [p for p in periods if p != "Final scoring"] + [p for p in periods if p == "Final scoring"]
    sources = sorted(df["source"].unique(), key=lambda s: -df.loc[df["source"] == s, "mean_vp"].abs().sum())
    cs = _source_colours(sources)
    chars = sorted(df["character"].astype(str).unique(), reverse=True)
    fig, axes = plt.subplots(len(ps), len(periods), figsize=(min(3.1 * len(periods) + 2.6, 15), (0.22 * len(chars) + 1.2) * len(ps)),
                             squeeze=False, sharey=True, sharex=True, layout="constrained")
    for r, n in enumerate(ps):
        for k, per in enumerate(periods):
            ax = axes[r][k]
            d = df[(df["players"] == n) & (df["period"] == per)]
            piv = d.pivot_table(index="character", columns="source", values="mean_vp", aggfunc="sum").reindex(index=chars, columns=sources)
            piv = piv.fillna(0)
            pos = np.zeros(len(chars))
            neg = np.zeros(len(chars))
            idx = np.arange(len(chars))
            for s in sources:
                v = piv[s].to_numpy()
                ax.barh(idx, v, left=np.where(v >= 0, pos, neg), color=cs[s], label=source_label(s), height=0.75)
                pos += np.where(v >= 0, v, 0)
                neg += np.where(v < 0, v, 0)
            ax.set_yticks(idx, chars)
            ax.set_title(f"{n} players, {per}", fontsize=9)
            if r == len(ps) - 1:
                ax.set_xlabel("mean VP per seat")
    handles, labels = axes[0][-1].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8.5, loc="outside right center", frameon=False)
    fig.suptitle("VP gained in each Era by source and Character")
    return fig


def stacked_sources(t: pl.DataFrame, x: str, title: str, horizontal: bool = False) -> Figure:
    """Mean VP by source as stacked bars (one bar per ``x`` value), one panel per player count."""
    df = _pd(t)
    ps = _players(df)
    sources = sorted(df["source"].unique(), key=lambda s: -df.loc[df["source"] == s, "mean_vp"].abs().sum())
    cs = _source_colours(sources)
    nx = df[x].nunique()
    fig, axes = _facets(len(ps), w=max(4.2, 0.5 * nx + 2.5) if not horizontal else 5.2,
                        h=3.6 if not horizontal else max(3.0, 0.3 * nx + 1.5))
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n]
        order = list(dict.fromkeys(d[x])) if not horizontal else sorted(d[x].unique())
        piv = d.pivot_table(index=x, columns="source", values="mean_vp", aggfunc="sum").reindex(index=order, columns=sources).fillna(0)
        pos = np.zeros(len(piv))
        neg = np.zeros(len(piv))
        idx = np.arange(len(piv))
        for s in sources:
            v = piv[s].to_numpy()
            bottom = np.where(v >= 0, pos, neg)
            if horizontal:
                ax.barh(idx, v, left=bottom, color=cs[s], label=source_label(s), height=0.75)
            else:
                ax.bar(idx, v, bottom=bottom, color=cs[s], label=source_label(s), width=0.75)
            pos += np.where(v >= 0, v, 0)
            neg += np.where(v < 0, v, 0)
        if horizontal:
            ax.set_yticks(idx, list(piv.index))
            ax.set_xlabel("mean VP per seat")
        else:
            ax.set_xticks(idx, list(piv.index), rotation=0)
            ax.set_ylabel("mean VP per seat")
        ax.set_title(f"{n} players")
    axes[0][-1].legend(fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
    fig.suptitle(title)
    return fig


def lead_changes_chart(t: pl.DataFrame) -> Figure:
    fig, panels = _panels(t, "changes", w=3.8, h=3.0)
    for ax, n, d in panels:
        ax.bar(d["changes"], 100 * d["share"], color=NEUTRAL, alpha=0.85)
        _axis_labels(ax, n, "lead changes in a game", "% of games")
    fig.suptitle("Lead changes per game (decade ends and final standings)")
    return fig


def comeback_chart(t: pl.DataFrame) -> Figure:
    fig, panels = _panels(t, w=4.6, h=3.4)
    for ax, n, d in panels:
        bins = list(dict.fromkeys(d["deficit_bin"]))
        from analysis.eras import DEFICIT_BINS

        order = [b[2] for b in DEFICIT_BINS if b[2] in bins]
        for k, era in enumerate(sorted(d["era"].unique())):
            de = d[d["era"] == era].set_index("deficit_bin").reindex(order)
            x = np.arange(len(order)) + (k - 1) * 0.08
            ax.errorbar(x, 100 * de["win_rate"], yerr=100 * _err(de, "win_rate"), marker="o", ms=4, capsize=2,
                        label=f"end of Era {era}", color=PALETTE[k])
        ax.axhline(100 / n, ls="--", color="#7f8c8d", lw=1)
        ax.set_xticks(range(len(order)), order, rotation=30)
        _axis_labels(ax, n, "VP behind the leader", "win rate (%)")
    panels[-1][0].legend(fontsize=7, frameon=False)
    fig.suptitle("Comeback probability by deficit at each Era end (95% Wilson CI)")
    return fig


def wars_chart(per_game: pl.DataFrame, outcomes: pl.DataFrame | None, share: str = "win_share", won: str = "fights won") -> Figure:
    """Wars per game by Era and faction (bars), and the share of fights won (points with CI; the
    Extended War's outcomes: ``share`` "war_win_share", the seat-Wars won)."""
    df = _pd(per_game)
    ps = _players(df)
    rows = 2 if outcomes is not None and outcomes.height else 1
    fig, axes = _facets(len(ps), w=4.2, h=3.0, rows=rows)
    fc = {"Natives": "#16a085", "Pirates": "#8e44ad"}
    for k, n in enumerate(ps):
        ax = axes[0][k]
        d = df[df["players"] == n]
        eras = sorted(d["era"].unique())
        for j, f in enumerate(["Natives", "Pirates"]):
            de = d[d["faction"] == f].set_index("era").reindex(eras)
            ax.bar(np.arange(len(eras)) + (j - 0.5) * 0.38, de["wars_per_game"], width=0.38, yerr=_err(de, "wars_per_game"),
                   color=fc[f], label=f, capsize=2)
        ax.set_xticks(range(len(eras)), [f"Era {e}" for e in eras])
        ax.set_ylabel("Wars per game")
        ax.set_title(f"{n} players")
        if rows == 2:
            ax2 = axes[1][k]
            o = _pd(outcomes)
            o = o[o["players"] == n]
            for j, f in enumerate(["Natives", "Pirates"]):
                de = o[o["faction"] == f].set_index("era").reindex(eras)
                ax2.errorbar(np.arange(len(eras)) + (j - 0.5) * 0.2, 100 * de[share], yerr=100 * _err(de, share),
                             fmt="o", color=fc[f], capsize=2, label=f)
            ax2.set_xticks(range(len(eras)), [f"Era {e}" for e in eras])
            ax2.set_ylabel(f"{won} (%)")
    axes[0][-1].legend(fontsize=7, frameon=False)
    fig.suptitle("Wars per game by faction and Era" + (f", and {won} (95% CI)" if rows == 2 else ""))
    return fig


def xw_fights_chart(t: pl.DataFrame) -> Figure:
    """Extended War: the share of Fight!s the players won (95% Wilson CI) by Era, one line per
    attacker kind (top row) and per player miniature kind (bottom row), one column per player count."""
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=4.2, h=3.0, rows=2)
    colors = {"Indio": "#16a085", "Warrior": "#0b5345", "Freebooter": "#8e44ad", "Captain": "#4a235a",
              "Miliciano": "#95a5a6", "veteran Miliciano": "#5d6d7e", "Soldier": "#e67e22", "veteran Soldier": "#a04000"}
    for k, n in enumerate(ps):
        for row, by in enumerate(("attacker", "miniature")):
            ax = axes[row][k]
            d = df[(df["players"] == n) & (df["by"] == by)]
            kinds = list(dict.fromkeys(d["kind"]))
            for j, kind in enumerate(kinds):
                e = d[d["kind"] == kind].sort_values("era")
                ax.errorbar(e["era"] + (j - (len(kinds) - 1) / 2) * 0.08, 100 * e["win_share"], yerr=100 * _err(e, "win_share"),
                            fmt="o-", capsize=2, color=colors.get(kind, NEUTRAL), label=kind)
            eras = sorted(d["era"].unique())
            ax.set_xticks(eras, [f"Era {x}" for x in eras])
            ax.set_ylabel("Fight!s won (%)")
            ax.set_title(f"{n} players, by {by}")
            if k == len(ps) - 1 and kinds:
                ax.legend(fontsize=7, frameon=False)
    fig.suptitle("Extended War: Fight!s won by the players (95% Wilson CI)")
    return fig


def penalty_chart(t: pl.DataFrame) -> Figure:
    fig, panels = _panels(t, w=3.8, h=2.8)
    for ax, n, d in panels:
        ax.bar(d["war_penalty"], 100 * d["share"], color="#c0392b", alpha=0.8)
        _axis_labels(ax, n, "final War Penalty position", "% of seats")
    fig.suptitle("War Penalty at the end of the game")
    return fig


def binned_rate_chart(t: pl.DataFrame, x: str, title: str, xlabel: str) -> Figure:
    fig, panels = _panels(t, w=3.8, h=3.0)
    for ax, n, d in panels:
        ax.errorbar(range(len(d)), 100 * d["win_rate"], yerr=100 * _err(d, "win_rate"), fmt="o-", color=NEUTRAL, capsize=3)
        ax.axhline(100 / n, ls="--", color="#7f8c8d", lw=1)
        ax.set_xticks(range(len(d)), list(d[x]))
        _axis_labels(ax, n, xlabel, "win rate (%)")
    fig.suptitle(title)
    return fig


def participation_chart(t: pl.DataFrame) -> Figure:
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=4.0, h=0.45 * df.groupby("players").size().max() + 1.4)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].reset_index(drop=True)
        y = np.arange(len(d))
        colors = [SIG if p < 0.05 else NEUTRAL for p in d["p_holm"].fillna(1)]
        ax.errorbar(100 * d["diff"], y, xerr=100 * _err(d, "diff"), fmt="none", ecolor="#95a5a6", capsize=3)
        ax.scatter(100 * d["diff"], y, c=colors, zorder=3)
        ax.axvline(0, color="#7f8c8d", ls="--", lw=1)
        ax.set_yticks(y, list(d["factor"]))
        ax.set_xlabel("win-rate difference, yes − no (points)")
        ax.set_title(f"{n} players")
    fig.suptitle("Win-rate effect of war participation (95% Newcombe CI)")
    return fig
