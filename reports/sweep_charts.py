"""The curves of a sweep's section (analysis.sweeps), drawn from its tables as every chart of the report
is (reports.charts): each group's win rate against the swept value with its Wilson band and its change
against the baseline with the paired band; the game metrics the same way; the VP by source's change.
A sweep over several player counts draws one curve per count; a grid one curve along its first key per
value of its second.

A sweep table's columns are ``players``, then the swept keys (one or two, named by the key), then
``variant``: :func:`sweep_charts` finds the keys there and the group's column right after."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from analysis.labels import column_label, source_label, value_label
from reports.charts import MARKERS, PALETTE, STYLES, plt

BAND = 0.12  # the bands' opacity: twelve Characters' bands overlap
TOP_SOURCES = 8  # VP sources drawn: those that move most (every source is in the table's CSV)


def axes_of(t: pl.DataFrame) -> list[str]:
    """The swept keys of a sweep table: its columns between ``players`` and ``variant``."""
    cols = t.columns
    return cols[cols.index("players") + 1:cols.index("variant")]


def _curves(t: pl.DataFrame, by: list[str]) -> list[tuple[tuple, pl.DataFrame]]:
    """The rows of each curve (``by``'s values), sorted along the first swept key."""
    x = axes_of(t)[0]
    return sorted(((k, d.sort(x)) for k, d in t.partition_by(by, as_dict=True).items()), key=lambda kv: kv[0])


def _line(ax, d: pl.DataFrame, x: str, y: str, scale: float, label: str, color, marker: str, style: str = "-") -> None:
    """A curve with its 95% band (``y_lo``..``y_hi``)."""
    xs = d[x].to_numpy()
    ax.plot(xs, scale * d[y].to_numpy(), style, color=color, marker=marker, ms=4, lw=1.3, label=label)
    lo, hi = d[f"{y}_lo"].cast(pl.Float64).to_numpy(), d[f"{y}_hi"].cast(pl.Float64).to_numpy()
    ok = np.isfinite(lo) & np.isfinite(hi)
    if ok.sum() > 1:
        ax.fill_between(xs[ok], scale * lo[ok], scale * hi[ok], color=color, alpha=BAND, lw=0)


def _label(g, group: str) -> str:
    """A group in a legend: a name as it is, a number after its column's words (``turn position 2``)."""
    return g if isinstance(g, str) else f"{column_label(group)} {g}"


def _grid(n: int, cols: int, w: float = 3.4, h: float = 2.8):
    rows = max(1, math.ceil(n / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(min(w * cols + 2.2, 15), h * rows + 0.6), squeeze=False, layout="constrained")
    for ax in axes.ravel()[n:]:
        ax.set_visible(False)
    return fig, axes.ravel()


def rate_curves(t: pl.DataFrame, group: str, title: str) -> Figure:
    """Each group's win rate against the value (Wilson band; dashed: the fair share 1/N) and, for a
    single key, its change against the baseline (paired band), one column of panels per player count;
    a grid: a panel per group, a curve per value of the second key and player count."""
    keys = axes_of(t)
    groups = sorted(t[group].unique().to_list(), key=str)
    ps = sorted(t["players"].unique().to_list())
    if len(keys) == 1:
        x = keys[0]
        fig, axes = plt.subplots(2, len(ps), figsize=(min(4.6 * len(ps) + 2.4, 15), 6.6), squeeze=False, layout="constrained")
        for j, n in enumerate(ps):
            for (g,), d in _curves(t.filter(pl.col("players") == n), [group]):
                i = groups.index(g)
                c, m = PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)]
                _line(axes[0, j], d, x, "win_rate", 100, _label(g, group), c, m)
                _line(axes[1, j], d, x, "change", 100, _label(g, group), c, m)
            axes[0, j].axhline(100 / n, ls="--", color="#7f8c8d", lw=1)
            axes[1, j].axhline(0, color="#7f8c8d", lw=1)
            axes[0, j].set_title(f"{n} players (fair share {100 / n:.1f}%)")
            axes[0, j].set_ylabel("win rate (%)")
            axes[1, j].set_ylabel("change against the baseline (points)")
            axes[1, j].set_xlabel(x)
        handles, labels = axes[0, 0].get_legend_handles_labels()
    else:
        x, x2 = keys
        fig, axes = _grid(len(groups), min(4, len(groups)))
        seconds = sorted(t[x2].unique().to_list())
        for i, g in enumerate(groups):
            ax = axes[i]
            for (n, v2), d in _curves(t.filter(pl.col(group) == g), ["players", x2]):
                k = seconds.index(v2)
                _line(ax, d, x, "win_rate", 100, f"{n} players, {x2} = {v2:g}", PALETTE[k % len(PALETTE)], MARKERS[k % len(MARKERS)],
                      STYLES[ps.index(n) % len(STYLES)])
            for n in ps:
                ax.axhline(100 / n, ls="--", color="#7f8c8d", lw=0.8)
            ax.set_title(_label(g, group))
            ax.set_xlabel(x)
            ax.set_ylabel("win rate (%)")
        handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right upper", fontsize=7.5)
    fig.suptitle(f"{title} (95% bands: Wilson{'; change: paired t on common seeds' if len(keys) == 1 else ''}; grey: the fair share)")
    return fig


def metric_curves(t: pl.DataFrame) -> Figure:
    """Each game metric against the value (its 95% band) and its change against the baseline (paired
    band): a column per metric, a curve per player count (a grid: per player count and value of the
    second key)."""
    keys = axes_of(t)
    metrics = list(dict.fromkeys(t.sort("metric")["metric"].to_list()))
    fig, axes = plt.subplots(2, len(metrics), figsize=(min(3.6 * len(metrics) + 2.4, 15), 6.2), squeeze=False, layout="constrained")
    by = ["players", *keys[1:]]
    for j, m in enumerate(metrics):
        for k, ((n, *at), d) in enumerate(_curves(t.filter(pl.col("metric") == m), by)):
            label = f"{n} players" + "".join(f", {key} = {v:g}" for key, v in zip(keys[1:], at, strict=True))
            c, mk = PALETTE[k % len(PALETTE)], MARKERS[k % len(MARKERS)]
            _line(axes[0, j], d, keys[0], "value", 1, label, c, mk)
            _line(axes[1, j], d, keys[0], "change", 1, label, c, mk)
        axes[0, j].set_title(str(value_label("metric", m)))
        axes[1, j].axhline(0, color="#7f8c8d", lw=1)
        axes[1, j].set_xlabel(keys[0])
    axes[0, 0].set_ylabel("per game")
    axes[1, 0].set_ylabel("change against the baseline")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right upper", fontsize=7.5)
    fig.suptitle("Game metrics against the value (95% bands; change: paired on common seeds)")
    return fig


def vp_curves(t: pl.DataFrame) -> Figure:
    """The change in mean VP per seat by source against the baseline (paired band), a panel per
    player count: the sources that move most."""
    keys = axes_of(t)
    ps = sorted(t["players"].unique().to_list())
    moved = (t.group_by("source").agg(pl.col("change").abs().max().alias("m")).filter(pl.col("m") > 0)
             .sort("m", "source", descending=[True, False])["source"].head(TOP_SOURCES).to_list())
    fig, axes = plt.subplots(1, len(ps), figsize=(min(4.8 * len(ps) + 2.6, 15), 3.8), squeeze=False, layout="constrained")
    for j, n in enumerate(ps):
        ax = axes[0, j]
        for i, s in enumerate(moved):
            d = t.filter((pl.col("players") == n) & (pl.col("source") == s)).sort(keys[0])
            if d.height:
                _line(ax, d, keys[0], "change", 1, source_label(s), PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)])
        ax.axhline(0, color="#7f8c8d", lw=1)
        ax.set_title(f"{n} players")
        ax.set_xlabel(keys[0])
        ax.set_ylabel("VP per seat: change against the baseline")
    handles, labels = axes[0, 0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside right upper", fontsize=7.5)
    fig.suptitle(f"VP by source against the value: the {len(moved)} sources that move most (paired 95% bands)")
    return fig


def sweep_charts(tables: dict[str, pl.DataFrame]) -> list[tuple[str, str, str, object]]:
    """(table, chart file stem, caption, draw()) for the sweep tables among ``tables`` (name -> frame),
    in the report's order: the win rates of each family, the game metrics, the VP by source (a single key)."""
    out = []
    for name, t in tables.items():
        if not name.startswith("sweep_") or "__" not in name or t.height == 0:
            continue
        kind = name.split("__")[0].removeprefix("sweep_")
        if kind == "metrics":
            out.append((name, name, "Game metrics against the swept value", lambda t=t: metric_curves(t)))
        elif kind == "vp":
            if len(axes_of(t)) == 1:
                out.append((name, name, "VP by source against the swept value (change against the baseline)", lambda t=t: vp_curves(t)))
        elif not kind.endswith("_crossing"):
            group = t.columns[t.columns.index("variant") + 1]
            what = column_label(group)
            out.append((name, name, f"Win rate by {what} against the swept value",
                        lambda t=t, group=group, what=what: rate_curves(t, group, f"Win rate by {what}")))
    return out
