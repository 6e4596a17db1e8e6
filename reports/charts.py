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


def _panels(t: pl.DataFrame, sort: str | None = None, **facets) -> tuple[Figure, list[tuple]]:
    """A panel per player count (``facets``: the sizes of :func:`_facets`): the figure, and per panel
    (axes, player count, the table's rows of that player count, sorted by ``sort`` if given)."""
    df = _pd(t)
    ps = _players(df)
    fig, axes = _facets(len(ps), **facets)
    return fig, [(ax, n, df[df["players"] == n].sort_values(sort) if sort else df[df["players"] == n]) for ax, n in zip(axes[0], ps)]


def _axis_labels(ax, n: int, xlabel: str, ylabel: str) -> None:
    """A panel's axis labels, and its player count as its title."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(f"{n} players")


def _row_panels(t: pl.DataFrame, sort: str) -> tuple[Figure, list[tuple]]:
    """One panel per player count with a row per group (a Character, a strategy), tall enough for the
    rows: the figure, and per panel (axes, player count, its rows sorted by ``sort``, their y positions)."""
    rows = t.group_by("players").len().get_column("len").max() if t.height else 0
    fig, panels = _panels(t, sort, h=max(2.6, 0.28 * rows + 1.2))
    return fig, [(ax, n, d, np.arange(len(d))) for ax, n, d in panels]


def rate_bars(t: pl.DataFrame, group: str, title: str, xlabel: str = "win rate") -> Figure:
    """Win rate per group (horizontal points with 95% CI), the fair share 1/N as a dashed line,
    Holm-significant groups in red; one panel per player count."""
    fig, panels = _row_panels(t, "win_rate")
    for ax, n, d, y in panels:
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
    fig, panels = _row_panels(t, "price")
    for ax, n, d, y in panels:
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
    fig, panels = _row_panels(t, "odds_ratio")
    for ax, n, d, y in panels:
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
    fig, panels = _row_panels(t, "mu")
    for ax, n, d, y in panels:
        ax.errorbar(d["mu"], y, xerr=2 * d["sigma"], fmt="o", color=NEUTRAL, ecolor="#95a5a6", capsize=2, ms=4)
        ax.set_yticks(y, list(d["character"]))
        ax.set_xlabel("rating μ (±2σ)")
        ax.set_title(f"{n} players")
    fig.suptitle("Character ratings (openskill Plackett-Luce)")
    return fig


def seat_chart(t: pl.DataFrame) -> Figure:
    fig, panels = _panels(t, "turn_position", w=3.6, h=3.0)
    for ax, n, d in panels:
        colors = [SIG if p < 0.05 else NEUTRAL for p in d["p_holm"].fillna(1)]
        ax.bar(d["turn_position"].astype(int), 100 * d["win_rate"], yerr=100 * _err(d, "win_rate"), color=colors, alpha=0.85, capsize=3)
        ax.axhline(100 / n, ls="--", color="#7f8c8d", lw=1)
        ax.set_xticks(d["turn_position"].astype(int))
        _axis_labels(ax, n, "turn position at the start (1 = First Player)", "win rate (%)")
    fig.suptitle("Win rate by turn position (95% Wilson CI; dashed = 1/N; red: Holm p < 0.05)")
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

