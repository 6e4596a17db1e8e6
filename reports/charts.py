"""Matplotlib charts of the analysis tables (one function per figure, each returning a Figure).

Charts are drawn only from the tidy tables of :mod:`analysis` (converted to pandas where
matplotlib wants it), never from raw games, so a figure and its CSV always agree. Every chart
is faceted by player count, since fair shares differ by player count.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # headless: the report is written by a CLI and in CI

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import FormatStrFormatter  # noqa: E402

from analysis.labels import source_label  # noqa: E402

# 12 distinguishable colours for the 12 Characters (tab10 and two dark ones), each line also with its own
# marker, so a 12-line chart can be read without telling close hues apart (issue 23 part 6)
PALETTE = list(plt.get_cmap("tab10").colors) + ["#000000", "#8b6914", "#6b6b00", "#008b8b", "#8b008b", "#2f4f4f"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "<", ">", "h", "*", "p"]
STYLES = ["-", "--", "-.", ":"]
SIG = "#c0392b"
NEUTRAL = "#34495e"

plt.rcParams.update({"figure.dpi": 100, "savefig.dpi": 120, "font.size": 9, "axes.titlesize": 10, "axes.spines.top": False,
                     "axes.spines.right": False, "svg.fonttype": "none", "axes.grid": True, "grid.alpha": 0.25})


def _pd(df: pl.DataFrame) -> pd.DataFrame:
    return df.to_pandas()


def _facets(n: int, w: float = 4.6, h: float = 3.6, sharey: bool = False, rows: int = 1, min_w: float = 6.8):
    """A row of panels per player count; at least ``min_w`` inches wide so the title fits."""
    cols = max(n, 1)
    fig, axes = plt.subplots(rows, cols, figsize=(min(max(w * cols, min_w), 15), h * rows), squeeze=False, sharey=sharey,
                             layout="constrained")
    return fig, axes


def _players(df: pd.DataFrame) -> list[int]:
    return sorted(int(x) for x in df["players"].unique())


def _err(df: pd.DataFrame, col: str) -> np.ndarray:
    """Error-bar lengths (below, above) from the ``col_lo``/``col_hi`` columns; 0 where missing."""
    lo = (df[col] - df[f"{col}_lo"]).clip(lower=0).to_numpy(dtype=float)
    hi = (df[f"{col}_hi"] - df[col]).clip(lower=0).to_numpy(dtype=float)
    return np.nan_to_num(np.vstack([lo, hi]))


def rate_bars(t: pl.DataFrame, group: str, title: str, xlabel: str = "win rate") -> Figure:
    """Win rate per group (horizontal points with 95% CI), the fair share 1/N as a dashed line,
    Holm-significant groups in red; one panel per player count."""
    df = _pd(t)
    ps = _players(df)
    h = max(2.6, 0.28 * df.groupby("players").size().max() + 1.2)
    fig, axes = _facets(len(ps), h=h)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values("win_rate")
        y = np.arange(len(d))
        colors = [SIG if (p is not None and p == p and p < 0.05) else NEUTRAL for p in d.get("p_holm", pd.Series([np.nan] * len(d)))]
        ax.errorbar(100 * d["win_rate"], y, xerr=100 * _err(d, "win_rate"), fmt="none", ecolor="#95a5a6", elinewidth=1.5, capsize=2)
        ax.scatter(100 * d["win_rate"], y, c=colors, zorder=3, s=22)
        ax.axvline(100 / n, ls="--", color="#7f8c8d", lw=1)
        ax.set_yticks(y, [str(v) for v in d[group]])
        ax.set_xlabel(f"{xlabel} (%)")
        ax.set_title(f"{n} players (fair share {100 / n:.1f}%)")
    fig.suptitle(title + " (95% Wilson CI; red: Holm p < 0.05)")
    return fig


def price_bars(t: pl.DataFrame) -> Figure:
    """Auction price of each Character (VP handicap to the fair share, analysis.auction): bars
    sorted by price with the bootstrap 95% CI, 0 = the average Character; one panel per player count."""
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), h=max(2.6, 0.28 * df.groupby("players").size().max() + 1.2))
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values("price")
        y = np.arange(len(d))
        colors = [SIG if lo > 0 or hi < 0 else NEUTRAL for lo, hi in zip(d["price_lo"], d["price_hi"])]
        ax.barh(y, d["price"], color=colors, alpha=0.75, height=0.6)
        ax.errorbar(d["price"], y, xerr=_err(d, "price"), fmt="none", ecolor="#2c3e50", elinewidth=1.2, capsize=2)
        ax.axvline(0, color="#7f8c8d", lw=1)
        ax.set_yticks(y, [str(v) for v in d["character"]])
        ax.set_xlabel("price (VP more than the average Character)")
        ax.set_title(f"{n} players")
    fig.suptitle("Auction price: VP handicap to the fair share (bootstrap 95% CI; red: excludes 0)")
    return fig


def odds_forest(t: pl.DataFrame) -> Figure:
    """Model-adjusted odds ratios against the average Character (log scale, 95% CI)."""
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), h=max(2.6, 0.28 * df.groupby("players").size().max() + 1.2))
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values("odds_ratio")
        y = np.arange(len(d))
        colors = [SIG if p < 0.05 else NEUTRAL for p in d["p_holm"].fillna(1)]
        ax.errorbar(d["odds_ratio"], y, xerr=_err(d, "odds_ratio"), fmt="none", ecolor="#95a5a6", capsize=2)
        ax.scatter(d["odds_ratio"], y, c=colors, zorder=3, s=22)
        ax.axvline(1, ls="--", color="#7f8c8d", lw=1)
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.xaxis.set_minor_formatter(FormatStrFormatter("%g"))
        ax.tick_params(axis="x", which="minor", labelsize=7)
        ax.set_yticks(y, list(d["character"]))
        ax.set_xlabel("odds ratio vs average Character")
        ax.set_title(f"{n} players")
    fig.suptitle("Model-adjusted Character effects (95% CI; red: Holm p < 0.05)")
    return fig


def _strength_order(m: pd.DataFrame) -> list[str]:
    """Row labels of a square 'row finishes above column' matrix, strongest first (the row's mean
    share of finishing above the others)."""
    return list(m.mean(axis=1, skipna=True).sort_values(ascending=False).index)


def _cell_text(ax, m: np.ndarray, shown: np.ndarray, norm, fmt: str = "{:.0f}", fontsize: float = 7.5) -> None:
    """Numbers on heatmap cells, white on dark cells and black on light ones, so every cell reads."""
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            v = shown[i, j]
            if v == v:
                dark = abs(norm(m[i, j]) - 0.5) > 0.3
                ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=fontsize, color="white" if dark else "black")


def heatmap_above(t: pl.DataFrame) -> Figure:
    """Character x Character 'finishes above' rates, one heatmap per player count; rows and columns
    ordered by strength (the row's mean share of finishing above), strongest at the top left."""
    from matplotlib.colors import Normalize

    df = _pd(t)
    ps = _players(df)
    chars = sorted(set(df["character_a"]) | set(df["character_b"]))
    size = 0.5 * len(chars) + 1.8
    fig, axes = _facets(len(ps), w=size + 0.6, h=size)
    im = None
    norm = Normalize(vmin=30, vmax=70)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n]
        m = d.pivot(index="character_a", columns="character_b", values="rate").reindex(index=chars, columns=chars)
        order = _strength_order(m)
        m = m.reindex(index=order, columns=order)
        v = 100 * m.to_numpy(dtype=float)
        im = ax.imshow(v, cmap="RdBu_r", norm=norm)
        ax.set_xticks(range(len(order)), order, rotation=60, ha="right")
        ax.set_yticks(range(len(order)), order)
        ax.grid(False)
        if len(order) <= 14:
            _cell_text(ax, v, v, norm)
        ax.set_title(f"{n} players: row finishes above column (%)\nstrongest first")
    if im is not None:
        fig.colorbar(im, ax=axes[0].tolist(), shrink=0.7, label="% of shared games")
    return fig


def ratings_chart(t: pl.DataFrame) -> Figure:
    """Plackett-Luce ratings: mu with ±2 sigma, one panel per player count."""
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), h=max(2.6, 0.28 * df.groupby("players").size().max() + 1.2))
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values("mu")
        y = np.arange(len(d))
        ax.errorbar(d["mu"], y, xerr=2 * d["sigma"], fmt="o", color=NEUTRAL, ecolor="#95a5a6", capsize=2, ms=4)
        ax.set_yticks(y, list(d["character"]))
        ax.set_xlabel("rating μ (±2σ)")
        ax.set_title(f"{n} players")
    fig.suptitle("Character ratings (openskill Plackett-Luce)")
    return fig


def seat_chart(t: pl.DataFrame) -> Figure:
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=3.6, h=3.0)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values("turn_position")
        colors = [SIG if p < 0.05 else NEUTRAL for p in d["p_holm"].fillna(1)]
        ax.bar(d["turn_position"].astype(int), 100 * d["win_rate"], yerr=100 * _err(d, "win_rate"), color=colors, alpha=0.85, capsize=3)
        ax.axhline(100 / n, ls="--", color="#7f8c8d", lw=1)
        ax.set_xticks(d["turn_position"].astype(int))
        ax.set_xlabel("turn position at the start (1 = First Player)")
        ax.set_ylabel("win rate (%)")
        ax.set_title(f"{n} players")
    fig.suptitle("Win rate by turn position (95% Wilson CI; dashed = 1/N; red: Holm p < 0.05)")
    return fig


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
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=3.8, h=3.0)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values("changes")
        ax.bar(d["changes"], 100 * d["share"], color=NEUTRAL, alpha=0.85)
        ax.set_xlabel("lead changes in a game")
        ax.set_ylabel("% of games")
        ax.set_title(f"{n} players")
    fig.suptitle("Lead changes per game (decade ends and final standings)")
    return fig


def comeback_chart(t: pl.DataFrame) -> Figure:
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=4.6, h=3.4)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n]
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
        ax.set_xlabel("VP behind the leader")
        ax.set_ylabel("win rate (%)")
        ax.set_title(f"{n} players")
    axes[0][-1].legend(fontsize=7, frameon=False)
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
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=3.8, h=2.8)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n]
        ax.bar(d["war_penalty"], 100 * d["share"], color="#c0392b", alpha=0.8)
        ax.set_xlabel("final War Penalty position")
        ax.set_ylabel("% of seats")
        ax.set_title(f"{n} players")
    fig.suptitle("War Penalty at the end of the game")
    return fig


def binned_rate_chart(t: pl.DataFrame, x: str, title: str, xlabel: str) -> Figure:
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=3.8, h=3.0)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n]
        ax.errorbar(range(len(d)), 100 * d["win_rate"], yerr=100 * _err(d, "win_rate"), fmt="o-", color=NEUTRAL, capsize=3)
        ax.axhline(100 / n, ls="--", color="#7f8c8d", lw=1)
        ax.set_xticks(range(len(d)), list(d[x]))
        ax.set_xlabel(xlabel)
        ax.set_ylabel("win rate (%)")
        ax.set_title(f"{n} players")
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


def score_boxes(t: pl.DataFrame) -> Figure:
    """Final VP by Character as boxes drawn from the quantile table (box: p25-p75, whiskers: p10-p90)."""
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=4.6, h=max(2.8, 0.3 * df.groupby("players").size().max() + 1.2))
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values("median")
        bx = [{"label": c, "med": m, "q1": a, "q3": b, "whislo": lo, "whishi": hi, "mean": mu, "fliers": []}
              for c, m, a, b, lo, hi, mu in zip(d["character"], d["median"], d["p25"], d["p75"], d["p10"], d["p90"], d["mean_vp"])]
        ax.bxp(bx, orientation="horizontal", showmeans=True, meanprops={"marker": "D", "markersize": 3, "markerfacecolor": SIG,
                                                                         "markeredgecolor": SIG})
        ax.set_xlabel("final VP")
        ax.set_title(f"{n} players")
    fig.suptitle("Final VP by Character (box p25–p75, median line, whiskers p10–p90, ◆ mean)")
    return fig


def beat_chart(t: pl.DataFrame) -> Figure:
    """The share of the player's seats that beat the A.I. per (A.I. strength, strategy) with its 95%
    Wilson CI; one panel per game (Solo, 2 players + A.I.)."""
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), h=max(2.6, 0.3 * df.groupby("players").size().max() + 1.2))
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values(["ai", "strategy"], ascending=False)
        y = np.arange(len(d))
        ax.errorbar(100 * d["beat_rate"], y, xerr=100 * _err(d, "beat_rate"), fmt="none", ecolor="#95a5a6", elinewidth=1.5, capsize=2)
        ax.scatter(100 * d["beat_rate"], y, c=NEUTRAL, zorder=3, s=22)
        ax.axvline(50, ls="--", color="#7f8c8d", lw=1)
        ax.set_yticks(y, [f"{a} / {s}" for a, s in zip(d["ai"], d["strategy"])])
        ax.set_xlim(-2, 102)
        ax.set_xlabel("beats the A.I. (%)")
        ax.set_title(str(d["game"].iloc[0]) if len(d) else f"{n} seats")
    fig.suptitle("How often a player beats the A.I. (95% Wilson CI)")
    return fig


def solo_boxes(t: pl.DataFrame) -> Figure:
    """The player's final VP per (A.I. strength, strategy) as boxes from the quantile table, the
    A.I.'s mean marked."""
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=4.8, h=max(2.8, 0.32 * df.groupby("players").size().max() + 1.2))
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values(["ai", "strategy"], ascending=False)
        bx = [{"label": f"{a} / {s}", "med": m, "q1": q1, "q3": q3, "whislo": lo, "whishi": hi, "mean": mu, "fliers": []}
              for a, s, m, q1, q3, lo, hi, mu in zip(d["ai"], d["strategy"], d["median"], d["p25"], d["p75"], d["p10"], d["p90"],
                                                     d["mean_vp"])]
        ax.bxp(bx, orientation="horizontal", showmeans=True, meanprops={"marker": "D", "markersize": 3, "markerfacecolor": SIG,
                                                                         "markeredgecolor": SIG})
        ax.scatter(d["ai_mean_vp"], np.arange(1, len(d) + 1), marker="|", s=120, c="#7f8c8d", zorder=3, label="A.I. mean VP")
        ax.set_xlabel("final VP")
        ax.set_title(str(d["game"].iloc[0]) if len(d) else f"{n} seats")
        ax.legend(loc="lower right", fontsize=7)
    fig.suptitle("The player's final VP against the A.I. (box p25–p75, whiskers p10–p90, ◆ mean, | the A.I.'s mean)")
    return fig


def strategy_heatmap(t: pl.DataFrame) -> Figure:
    """Win rate per Character x strategy, coloured by the difference from 1/N; Characters ordered
    by their mean win rate over the strategies (strongest at the top), numbers readable on every cell."""
    from matplotlib.colors import Normalize

    df = _pd(t)
    df["character"] = df["character"].astype(str)
    df["strategy"] = df["strategy"].astype(str)
    ps = _players(df)
    strats = sorted(df["strategy"].unique())
    n_chars = df["character"].nunique()
    fig, axes = _facets(len(ps), w=1.0 * len(strats) + 2.6, h=0.32 * n_chars + 1.6)
    im = None
    norm = Normalize(vmin=-15, vmax=15)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n]
        m = d.pivot(index="character", columns="strategy", values="win_rate").reindex(columns=strats)
        m = m.loc[m.mean(axis=1, skipna=True).sort_values(ascending=False).index]
        chars = list(m.index)
        v = m.to_numpy(dtype=float)
        im = ax.imshow(100 * (v - 1 / n), cmap="RdBu_r", norm=norm, aspect="auto")
        ax.set_xticks(range(len(strats)), strats)
        ax.set_yticks(range(len(chars)), chars)
        ax.grid(False)
        _cell_text(ax, 100 * (v - 1 / n), 100 * v, norm)
        ax.set_title(f"{n} players: win rate % (colour: vs 1/N)")
    if im is not None:
        fig.colorbar(im, ax=axes[0].tolist(), shrink=0.7, label="points above 1/N")
    return fig


def variant_forest(t: pl.DataFrame, title: str = "Win-rate change against the baseline, common seeds (95% CI; red: Holm p < 0.05)",
                   xlabel: str = "win-rate change (points)") -> Figure:
    """Per-Character win-rate change against the baseline (paired, 95% CI), one row of panels per
    variant and one column per player count."""
    df = _pd(t)
    ps = _players(df)
    vs = list(dict.fromkeys(df["variant"]))
    fig, axes = _facets(len(ps), w=4.6, h=max(2.6, 0.26 * df.groupby(["variant", "players"]).size().max() + 1.2), rows=len(vs))
    for r, v in enumerate(vs):
        for k, n in enumerate(ps):
            ax = axes[r][k]
            d = df[(df["variant"] == v) & (df["players"] == n)].sort_values("diff")
            y = np.arange(len(d))
            colors = [SIG if p < 0.05 else NEUTRAL for p in d["p_holm"].fillna(1)]
            ax.errorbar(100 * d["diff"], y, xerr=100 * _err(d, "diff"), fmt="none", ecolor="#95a5a6", capsize=2)
            ax.scatter(100 * d["diff"], y, c=colors, zorder=3, s=20)
            ax.axvline(0, color="#7f8c8d", ls="--", lw=1)
            ax.set_yticks(y, list(d["character"]))
            ax.set_xlabel(xlabel)
            ax.set_title(f"{v}, {n} players")
    fig.suptitle(title)
    return fig


def option_share_chart(t: pl.DataFrame, title: str, threshold: float) -> Figure:
    """The share of seat-games that used each option (95% Wilson CI, log scale), one marker per
    group (player tier or strategy), one panel per player count; the never-played threshold dashed."""
    df = _pd(t)
    ps = _players(df)
    groups = list(dict.fromkeys(df["group"]))
    opts = list(dict.fromkeys(df["option"]))
    fig, axes = _facets(len(ps), w=5.0, h=max(3.0, 0.16 * len(opts) + 1.4), sharey=True)
    floor = 1e-4  # an option never used sits at the left edge of the log axis
    for ax, n in zip(axes[0], ps):
        for k, grp in enumerate(groups):
            d = df[(df["players"] == n) & (df["group"] == grp)].set_index("option").reindex(opts)
            y = np.arange(len(opts)) + (k - (len(groups) - 1) / 2) * 0.8 / max(len(groups), 1)
            x = np.clip(d["share"].to_numpy(dtype=float), floor, 1)
            lo = np.clip(d["share_lo"].to_numpy(dtype=float), floor, 1)
            hi = np.clip(d["share_hi"].to_numpy(dtype=float), floor, 1)
            err = np.clip(np.nan_to_num(np.vstack([x - lo, hi - x])), 0, None)  # a Wilson bound of a share of 1 sits a hair below it
            ax.errorbar(100 * x, y, xerr=100 * err, fmt="o", ms=3, color=PALETTE[k % len(PALETTE)], ecolor="#bdc3c7", elinewidth=1,
                        label=grp)
        ax.axvline(100 * threshold, ls="--", color=SIG, lw=1)
        ax.set_xscale("log")
        ax.set_xlim(100 * floor * 0.8, 100)
        ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
        ax.set_yticks(np.arange(len(opts)), opts)
        ax.set_xlabel("share of seat-games that used it (%, log scale; left edge: never)")
        ax.set_title(f"{n} players")
    axes[0][0].invert_yaxis()  # the table's order, top down (the panels share the axis: invert it once)
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.suptitle(title + f"\n(95% Wilson CI; dashed: {100 * threshold:.0f}%)")
    return fig


def association_forest(t: pl.DataFrame) -> Figure:
    """Win rate of the seat-games that used an option minus those that did not (Newcombe 95% CI),
    one marker per group, one panel per player count; red: Holm p < 0.05."""
    df = _pd(t.filter(pl.col("diff").is_not_null()))
    ps = _players(df)
    groups = list(dict.fromkeys(df["group"]))
    opts = list(dict.fromkeys(df["option"]))
    fig, axes = _facets(len(ps), w=5.0, h=max(3.0, 0.16 * len(opts) + 1.4), sharey=True)
    for ax, n in zip(axes[0], ps):
        for k, grp in enumerate(groups):
            d = df[(df["players"] == n) & (df["group"] == grp)].set_index("option").reindex(opts)
            y = np.arange(len(opts)) + (k - (len(groups) - 1) / 2) * 0.8 / max(len(groups), 1)
            x = 100 * d["diff"].to_numpy(dtype=float)
            err = 100 * np.clip(np.nan_to_num(np.vstack([(d["diff"] - d["diff_lo"]).to_numpy(dtype=float),
                                                         (d["diff_hi"] - d["diff"]).to_numpy(dtype=float)])), 0, None)
            ax.errorbar(x, y, xerr=err, fmt="none", ecolor="#bdc3c7", elinewidth=1)
            sig = d["p_holm"].fillna(1).to_numpy(dtype=float) < 0.05
            ax.scatter(x, y, s=12, color=[SIG if z else PALETTE[k % len(PALETTE)] for z in sig], zorder=3, label=grp)
        ax.axvline(0, ls="--", color="#7f8c8d", lw=1)
        ax.set_yticks(np.arange(len(opts)), opts)
        ax.set_xlabel("win rate used − not used (points)")
        ax.set_title(f"{n} players")
    axes[0][0].invert_yaxis()  # shared axis: invert it once
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.suptitle("Win rate of the seat-games that used an option against those that did not\n"
                 "(95% CI; red: Holm p < 0.05). Association, not cause.", fontsize=9)
    return fig


def vp_against_average(t: pl.DataFrame, title: str) -> Figure:
    """A small chart of one Character's mean VP by source (95% CI) against the average seat's,
    one panel per player count."""
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), w=4.0, h=max(2.4, 0.2 * df.groupby("players").size().max() + 1.0), min_w=5.0)
    for ax, n in zip(axes[0], ps):
        d = df[df["players"] == n].sort_values("average")
        y = np.arange(len(d))
        ax.barh(y, d["average"], color="#d5dbe1", height=0.7, label="average seat")
        ax.errorbar(d["vp"], y, xerr=_err(d, "vp"), fmt="o", ms=3.5, color=NEUTRAL, ecolor="#7f8c8d", elinewidth=1, label="this Character")
        ax.set_yticks(y, [source_label(s) for s in d["source"]])
        ax.set_xlabel("mean VP per seat-game")
        ax.set_title(f"{n} players")
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="outside lower center", ncols=2, fontsize=7, frameon=False)
    fig.suptitle(title)
    return fig


def placeholder(text: str) -> Figure:
    fig = plt.figure(figsize=(5, 1.2))
    fig.text(0.5, 0.5, text, ha="center", va="center")
    return fig


def close(fig: Figure) -> None:
    plt.close(fig)

