"""Sweeps in the report (issue 96, item 1): a section per ``[[sweeps]]`` of the run's experiment
(trinidad.games.sweeps records them in the manifest: each sweep's axes, values, the baseline's value and
the variant playing each point), for every game: the game names the seats whose win rates are followed
(:class:`Family`: Trinidad's Characters; Río de la Plata's strategies and start positions) and the
game-level metrics its tables hold (:class:`Metric`: mean VP, Wars per game, the game's length), and
:func:`sweep_sections` draws the rest alike.

Every point of a sweep plays the baseline's seeds (common seeds: the same deal, another value), so each
game of a point is paired with the baseline's game of the same player count and index:

- win rate of each group at each value: mean win credit (a tie for first shares the win), Wilson 95%
  interval; its change against the baseline game by game (paired t 95% interval, Holm over the groups
  of a point and player count);
- the metrics and the VP by source: mean per game (t 95% interval), change against the baseline (paired
  t); the turn-position spread (the best turn position's win rate minus the worst's) is not a mean of
  games, so its interval is a bootstrap over whole games (``scipy.stats.bootstrap``, percentile), the
  point's and the baseline's games resampled together for its change;
- where each group crosses its fair share 1/N (:func:`crossing`): a fractional logit (a binomial GLM of
  the win credit on the value, statsmodels) fitted to the group's seat-games over the curve's points,
  with a covariance robust to the clustering of a deal's games across the points (the paired design),
  inverted at p = 1/N; the 95% interval is Fieller's, the values x at which the Wald test of "the
  fitted rate at x is 1/N" does not reject (unbounded where the slope is not distinguishable from 0).

A sweep over several player counts has one curve per count; a grid (two keys) has one curve along
the first key per value of the second.
"""

from __future__ import annotations

import math
import re
import warnings
from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis import stats
from analysis.data import vp_sources
from analysis.labels import METRICS
from analysis.tables import Section, Table, holm_within

BOOT_RESAMPLES = 999  # the turn-position spread's bootstrap (scipy.stats.bootstrap)
WITHIN = "within the swept values"  # a crossing found between the curve's first and last value, its interval bounded
PCT = {"expected", "win_rate", "win_rate_lo", "win_rate_hi", "change", "change_lo", "change_hi"}


@dataclass(frozen=True)
class Family:
    """Seats whose win rates a sweep follows: one curve per group (a Character, a strategy, a start position)."""

    id: str  # in the tables' names: sweep_<id>__<sweep>, sweep_<id>_crossing__<sweep>
    column: str  # the group's column in those tables ("character", "strategy", "turn_position")
    expr: pl.Expr  # a seat-game's group, from the games table
    plural: str  # in words ("Characters")


@dataclass(frozen=True)
class Metric:
    """A game-level number the game's tables hold, followed against the value."""

    name: str  # the metric column's value ("mean_vp", "wars", "rounds"; analysis.labels.METRICS words it)
    expr: pl.Expr  # per game: an aggregation over its seats' rows
    needs: tuple[str, ...]  # the games-table columns it reads: left out of a run without them


def sweeps_of(manifest: dict) -> list[dict]:
    """The sweeps a run's experiment recorded (trinidad.games.sweeps.description); [] for none."""
    return list(((manifest or {}).get("experiment") or {}).get("sweeps") or [])


def slug(name: str) -> str:
    """A sweep's name in ids and file names."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") or "sweep"


def _fmt(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


# ---------------------------------------------------------------------------------------------- the crossing


def crossing(x, y, clusters, p0: float, alpha: float = stats.ALPHA) -> dict:
    """Where a fitted win rate crosses ``p0``: the fractional logit (Papke and Wooldridge's quasi-likelihood
    binomial GLM, ``statsmodels.api.GLM`` with the logit link) of ``y`` (win credit in [0, 1]) on ``x``
    (the swept value), its covariance clustered by ``clusters`` (a deal: the same game of every point, so
    the points' games are not independent); the crossing x* = (logit p0 - b0) / b1 and Fieller's
    interval: {x : (b0 + b1 x - logit p0)^2 <= z^2 Var(b0 + b1 x)}, the inversion of the Wald test of the
    fitted log-odds at x. Bounded when the slope differs from 0 at ``alpha`` (a > 0 below); else the set
    is unbounded (returned as -inf, inf, the crossing itself NaN). Also the slope (log-odds per unit) with its interval and p."""
    import statsmodels.api as sm
    from scipy.special import logit
    from scipy.stats import norm

    x, y = np.asarray(x, float), np.asarray(y, float)
    out = dict(slope=math.nan, slope_lo=math.nan, slope_hi=math.nan, p=math.nan, crossing=math.nan, crossing_lo=math.nan,
               crossing_hi=math.nan, fit="")
    if len(np.unique(x)) < 2:
        return out | {"fit": "one value: no curve"}
    if y.sum() == 0 or y.sum() == len(y):
        return out | {"fit": "never won" if y.sum() == 0 else "always won"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a near-separated fit warns; its interval below says how little it knows
        res = sm.GLM(y, sm.add_constant(x), family=sm.families.Binomial()).fit(
            cov_type="cluster", cov_kwds={"groups": np.unique(np.asarray(clusters), return_inverse=True)[1]})
    (b0, b1), v = np.asarray(res.params, float), np.asarray(res.cov_params(), float)
    z = float(norm.ppf(1 - alpha / 2))
    se1 = math.sqrt(max(v[1, 1], 0.0))
    out.update(slope=float(b1), slope_lo=float(b1 - z * se1), slope_hi=float(b1 + z * se1), p=float(np.asarray(res.pvalues)[1]))
    if not np.isfinite([b0, b1]).all() or b1 == 0:
        return out | {"fit": "flat"}
    c = b0 - float(logit(p0))
    out["crossing"] = float(-c / b1)
    a = b1 * b1 - z * z * v[1, 1]
    b = 2 * (b1 * c - z * z * v[0, 1])
    cc = c * c - z * z * v[0, 0]
    if a > 0:
        r = math.sqrt(max(b * b - 4 * a * cc, 0.0))
        out.update(crossing_lo=(-b - r) / (2 * a), crossing_hi=(-b + r) / (2 * a), fit="fitted")
    else:  # the ratio's estimate means nothing when its denominator may be 0: the set is all we know
        out.update(crossing=math.nan, crossing_lo=-math.inf, crossing_hi=math.inf, fit="slope not distinguishable from 0: no crossing located")
    return out


# ---------------------------------------------------------------------------------------------- the tables


def _points(sw: dict) -> tuple[list[str], pl.DataFrame]:
    """The sweep's keys and a frame of its points: ``variant`` and one column per key (its value there)."""
    keys = [a["key"] for a in sw["axes"]]
    rows = [{"variant": p["variant"], **{k: float(v) for k, v in zip(keys, p["values"], strict=True)}} for p in sw["points"]]
    return keys, pl.DataFrame(rows, schema={"variant": pl.String, **{k: pl.Float64 for k in keys}})


def _paired(point: pl.DataFrame, base: pl.DataFrame, on: list[str], cols: list[str]) -> dict[str, dict]:
    """Each column's paired test (:func:`analysis.stats.paired_test`) of the point's rows against the
    baseline's joined on ``on`` (the same game: the same seed)."""
    j = point.join(base, on=on, suffix="_base")
    return {c: stats.paired_test((j[c] - j[f"{c}_base"]).to_numpy()) for c in cols}


def family_rates(g: pl.DataFrame, fam: Family, keys: list[str], pts: pl.DataFrame, baseline: str, sid: str) -> Table:
    """Per player count, point and group: the win rate (Wilson 95%) and its change against the baseline
    on the same games (paired t 95%), Holm over the groups of a point and player count."""
    per = g.group_by("variant", "players", "game", "group").agg(pl.col("credit").mean(), pl.len().alias("seats"))
    base = per.filter(pl.col("variant") == baseline).select("players", "game", "group", pl.col("credit").alias("credit_base"))
    per = per.join(base, on=["players", "game", "group"], how="left")  # the baseline's same game (null: the group sat out there)
    rows = []
    for (v, n, grp), part in sorted(per.partition_by(["variant", "players", "group"], as_dict=True).items(), key=lambda kv: kv[0]):
        wins, seats = float((part["credit"] * part["seats"]).sum()), int(part["seats"].sum())
        r = stats.paired_test((part["credit"] - part["credit_base"]).drop_nulls().to_numpy())
        rows.append({"variant": v, "players": n, "group": grp, "n": seats, "wins": wins, "pairs": r["n"], "change": r["diff"],
                     "change_lo": r["diff_lo"], "change_hi": r["diff_hi"], "p": math.nan if v == baseline else r["p"],
                     "sd": math.nan if v == baseline else r["sd"]})
    schema = {"variant": pl.String, "players": pl.Int64, "group": g.schema["group"], "n": pl.Int64, "wins": pl.Float64, "pairs": pl.Int64,
              "change": pl.Float64, "change_lo": pl.Float64, "change_hi": pl.Float64, "p": pl.Float64, "sd": pl.Float64}
    t = pl.DataFrame(rows, schema=schema)
    lo, hi = stats.wilson(t["wins"].to_numpy(), t["n"].to_numpy())
    t = t.with_columns((1.0 / pl.col("players")).alias("expected"), (pl.col("wins") / pl.col("n")).alias("win_rate"),
                       pl.Series("win_rate_lo", lo), pl.Series("win_rate_hi", hi))
    t = holm_within(t.with_columns(pl.col("p").fill_nan(None)), ["variant", "players"]) if t.height else t.with_columns(p_holm=pl.lit(None))
    power = _power(t, fam)
    t = (t.join(pts, on="variant").rename({"group": fam.column})
         .select("players", *keys, "variant", fam.column, "n", "expected", "win_rate", "win_rate_lo", "win_rate_hi", "pairs", "change",
                 "change_lo", "change_hi", "p", "p_holm")
         .sort("players", *keys, fam.column))
    return Table(f"sweep_{fam.id}__{sid}", f"Win rate by {fam.column.replace('_', ' ')} at each value", t, pct=PCT,
                 note=(f"Win rate = mean win credit per seat (a tie for first shares the win), Wilson 95% interval. change = win rate "
                       f"at the point − in the baseline ({baseline}), game by game on the same seeds, over the games the "
                       f"{fam.column.replace('_', ' ')} played in both (pairs); paired t 95% interval; Holm over the {fam.plural} "
                       "of a point and player count."), power=power)


def _power(t: pl.DataFrame, fam: Family) -> str:
    """The rates table's power line: the smallest paired change detectable with 80% power at Holm's
    strictest level, from the fewest pairs and the median sd of the paired differences (as the Rule
    variants' Character table says it, analysis.rule_variants)."""
    moving = t["sd"].drop_nans().drop_nulls().filter(t["sd"].drop_nans().drop_nulls() > 0)
    if not moving.len():
        return "Power: no paired difference moved (every point's games ended as the baseline's), so no change is measurable."
    m = int(t.group_by("variant", "players").len()["len"].max())
    nmin = int(t.filter(pl.col("sd").is_not_nan() & pl.col("sd").is_not_null())["pairs"].min())
    mde = stats.mde_mean(nmin, float(moving.median()), alpha=stats.ALPHA / m)
    return (f"Power: with n ≥ {nmin:,} paired games per {fam.column.replace('_', ' ')} and point and the median sd of the paired "
            f"differences ({float(moving.median()):.2f}), a change of {stats.fmt_pts(mde)} against the baseline is detectable with 80% "
            f"power at α = 0.05/{m} (paired t).")


def family_crossings(g: pl.DataFrame, fam: Family, keys: list[str], pts: pl.DataFrame, sid: str) -> Table:
    """Per curve (player count; a grid: and value of the second key) and group: the fitted slope and
    the value at which the group's win rate crosses the fair share 1/N (:func:`crossing`)."""
    gp = g.join(pts, on="variant")
    rows = []
    for (n, *at), part in sorted(gp.partition_by(["players", *keys[1:]], as_dict=True).items(), key=lambda kv: kv[0]):
        curve = keys[0] + "".join(f" at {k} = {_fmt(_num(v))}" for k, v in zip(keys[1:], at, strict=True))
        lo, hi = float(part[keys[0]].min()), float(part[keys[0]].max())
        for (grp,), sub in sorted(part.partition_by("group", as_dict=True).items(), key=lambda kv: kv[0]):
            r = crossing(sub[keys[0]].to_numpy(), sub["credit"].to_numpy(), sub["game"].to_numpy(), 1.0 / n)
            where = r["fit"]  # why there is no bounded crossing (never won, a flat curve, an unbounded interval)
            if where == "fitted":
                where = WITHIN if lo <= r["crossing"] <= hi else "extrapolated: beyond the swept values"
            rows.append({"players": n, "curve": curve, "group": grp, "points": sub["variant"].n_unique(), "n": sub.height,
                         "expected": 1.0 / n, **{k: r[k] for k in ("slope", "slope_lo", "slope_hi", "p", "crossing", "crossing_lo",
                                                                    "crossing_hi")}, "where": where})
    schema = {"players": pl.Int64, "curve": pl.String, "group": g.schema["group"], "points": pl.Int64, "n": pl.Int64, "expected": pl.Float64,
              **{k: pl.Float64 for k in ("slope", "slope_lo", "slope_hi", "p", "crossing", "crossing_lo", "crossing_hi")},
              "where": pl.String}
    t = pl.DataFrame(rows, schema=schema).rename({"group": fam.column})
    return Table(f"sweep_{fam.id}_crossing__{sid}", f"Where each {fam.column.replace('_', ' ')} crosses its fair share", t, pct={"expected"},
                 power="Power: each crossing's interval is how precisely the run locates it; more games a point, or points nearer the "
                       "crossing, narrow it.",
                 note=("crossing = the value of " + keys[0] + " at which the fitted win rate is the fair share 1/N: a fractional logit "
                       "(binomial GLM of the seat-games' win credit on the value, statsmodels) over the curve's points, covariance "
                       "clustered by deal (each game index is played at every point: the paired design); 95% interval by Fieller's "
                       "method (the values at which the Wald test of 'the fitted rate is 1/N' does not reject), unbounded (−∞, ∞) when "
                       "the slope is not distinguishable from 0. slope = change in log-odds of winning per unit of the key (95% "
                       "interval, p of the Wald test of slope 0)."))


def _num(v):
    return int(v) if float(v).is_integer() else float(v)


def game_metrics(g: pl.DataFrame, metrics: list[Metric], sources: list[str]) -> pl.DataFrame:
    """One row a game of every point: each metric and the mean VP per seat by source."""
    return g.group_by("variant", "players", "game").agg(*[m.expr.cast(pl.Float64).alias(m.name) for m in metrics],
                                                        *[pl.col(c).cast(pl.Float64).mean() for c in sources])


def _spread(m: np.ndarray, axis: int = -2) -> np.ndarray:
    """The best turn position's win rate minus the worst's, over the games of ``m`` (games x positions)."""
    r = m.mean(axis=axis)
    return r.max(axis=-1) - r.min(axis=-1)


def _boot(idx: np.ndarray, stat) -> tuple[float, float]:
    """Percentile bootstrap interval (``scipy.stats.bootstrap``) of ``stat(indices)`` over whole games."""
    from scipy.stats import bootstrap

    if len(idx) < 2:
        return math.nan, math.nan
    res = bootstrap((idx,), stat, vectorized=True, n_resamples=BOOT_RESAMPLES, method="percentile", batch=64,
                    rng=np.random.default_rng(0))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def spread_rows(g: pl.DataFrame, baseline: str) -> list[dict]:
    """The turn-position spread at each point and player count, with its bootstrap interval and its
    change against the baseline (the same games resampled for both)."""
    per = g.group_by("variant", "players", "game", "position").agg(pl.col("credit").sum())
    rows = []
    mats = {}
    for (v, n), part in per.partition_by(["variant", "players"], as_dict=True).items():
        wide = part.pivot(on="position", index="game", values="credit").sort("game").fill_null(0.0)
        cols = sorted(c for c in wide.columns if c != "game")
        mats[(v, n)] = (wide["game"].to_numpy(), wide.select(cols).to_numpy())
    for (v, n), (games, m) in sorted(mats.items()):
        val = float(_spread(m, 0))
        lo, hi = _boot(np.arange(len(games)), lambda i, axis=-1, m=m: _spread(m[i]))
        row = {"variant": v, "players": n, "metric": "turn_position_spread", "games": len(games), "value": val, "value_lo": lo,
               "value_hi": hi, "change": 0.0, "change_lo": 0.0, "change_hi": 0.0, "p": math.nan}
        if v != baseline and (baseline, n) in mats:
            bg, bm = mats[(baseline, n)]
            common, ia, ib = np.intersect1d(games, bg, return_indices=True)
            a, b = m[ia], bm[ib]
            row["change"] = float(_spread(a, 0) - _spread(b, 0))
            row["change_lo"], row["change_hi"] = _boot(np.arange(len(common)), lambda i, axis=-1, a=a, b=b: _spread(a[i]) - _spread(b[i]))
        rows.append(row)
    return rows


def metric_rows(gm: pl.DataFrame, cols: list[str], baseline: str) -> list[dict]:
    """Per point, player count and column of the game metrics: the mean per game (t 95%) and its change
    against the baseline on the same games (paired t)."""
    base = gm.filter(pl.col("variant") == baseline).drop("variant")
    rows = []
    for (v, n), part in sorted(gm.partition_by(["variant", "players"], as_dict=True).items(), key=lambda kv: kv[0]):
        paired = {} if v == baseline else _paired(part.drop("variant"), base, ["players", "game"], cols)
        for c in cols:
            m, lo, hi = stats.mean_ci(part[c].to_numpy())
            r = paired.get(c) or {"diff": 0.0, "diff_lo": 0.0, "diff_hi": 0.0, "p": math.nan}
            rows.append({"variant": v, "players": n, "metric": c, "games": part.height, "value": m, "value_lo": lo, "value_hi": hi,
                         "change": r["diff"], "change_lo": r["diff_lo"], "change_hi": r["diff_hi"], "p": r["p"]})
    return rows


_METRIC_SCHEMA = {"variant": pl.String, "players": pl.Int64, "metric": pl.String, "games": pl.Int64, "value": pl.Float64,
                  "value_lo": pl.Float64, "value_hi": pl.Float64, "change": pl.Float64, "change_lo": pl.Float64, "change_hi": pl.Float64,
                  "p": pl.Float64}


def _metric_table(rows: list[dict], keys: list[str], pts: pl.DataFrame, name: str, title: str, note: str, label: str = "metric") -> Table:
    t = (pl.DataFrame(rows, schema=_METRIC_SCHEMA).join(pts, on="variant")
         .select("players", *keys, "variant", "metric", "games", "value", "value_lo", "value_hi", "change", "change_lo", "change_hi", "p")
         .sort("players", "metric", *keys))
    if label != "metric":
        t = t.with_columns(pl.col("metric").str.strip_prefix("vp_")).rename({"metric": label})
    return Table(name, title, t, note=note, power="Power: a change's paired 95% interval is what the run can tell of it; its p is the "
                                                 "paired t test's, not corrected across the rows.")


def sweep_section(run, det, sw: dict, families: list[Family], metrics: list[Metric], position: str) -> Section:
    """The section of one sweep (see the module's docstring): the win rates of each family's groups and
    where they cross the fair share, the metrics and the VP by source, against the value."""
    keys, pts = _points(sw)
    baseline = sw.get("baseline") or run.baseline
    sid = slug(sw["name"])
    names = det.games.collect_schema().names()
    want = sorted(set(pts["variant"]) | {baseline})
    missing = [v for v in want if v not in run.variants]
    axes = "; ".join(f"{a['key']} over {', '.join(_fmt(v) for v in a['values'])} (the baseline {baseline!r} plays {_fmt(a['base'])})"
                     for a in sw["axes"])
    s = Section(f"sweep-{sid}", f"Sweep: {sw['name']}",
                f"Swept: {axes}. {pts.height} points, each a variant playing the baseline's seeds (the same deals, another value), so "
                "every game of a point is paired with the baseline's game. "
                + ("One curve per player count." if len(keys) == 1 else f"One curve along {keys[0]} per value of {keys[1]} and player count.")
                + (f" The tables use a random {det.detail:,} of the run's game indices (the same in every point)." if det.detail else ""))
    if missing:
        s.absent = f"The run has no games of {', '.join(map(repr, missing))} (an interrupted run?): the sweep cannot be drawn."
        return s
    sources = vp_sources(names)
    usable = [m for m in metrics if set(m.needs) <= set(names)]
    cols = ["variant", "players", "game", "seat", "credit", position, *sorted({c for m in usable for c in m.needs} | set(sources))]
    lf = det.games.filter(pl.col("variant").cast(pl.String).is_in(want)).with_columns(pl.col("variant").cast(pl.String))
    g = lf.select(*dict.fromkeys(cols), *[f.expr.alias(f"group:{f.id}") for f in families]).collect()
    for f in families:
        fg = g.select("variant", "players", "game", "credit", pl.col(f"group:{f.id}").alias("group"))
        rates = family_rates(fg, f, keys, pts, baseline, sid)
        cross = family_crossings(fg.join(pts.select("variant"), on="variant"), f, keys, pts, sid)  # the curve's points alone
        s.tables += [rates, cross]
        s.bullets += crossing_sentences(cross.df, f)
    gm = game_metrics(g, usable, sources)
    mrows = metric_rows(gm, [m.name for m in usable], baseline) + spread_rows(g.rename({position: "position"}), baseline)
    s.tables.append(_metric_table(
        mrows, keys, pts, f"sweep_metrics__{sid}", "Game metrics at each value",
        "Per game: " + ", ".join(METRICS.get(m.name, m.name.replace("_", " ")) for m in usable)
        + " (t 95% interval of the mean), and the turn-position spread: the best turn position's win rate minus the worst's "
        f"(percentile bootstrap 95% interval over whole games, {BOOT_RESAMPLES} resamples). change = the point − the baseline "
        f"({baseline}) on the same games: paired t, or for the spread the same games resampled together."))
    s.tables.append(_metric_table(
        metric_rows(gm, sources, baseline), keys, pts, f"sweep_vp__{sid}", "Mean VP per seat by source at each value",
        f"Mean final VP per seat from each source in a game (t 95% interval); change = the point − the baseline ({baseline}) on the "
        "same games (paired t).", label="source"))
    s.tables[-1].show = False  # a row per source, point and player count: the chart and the CSV carry it
    return s


def crossing_sentences(t: pl.DataFrame, fam: Family) -> list[str]:
    """A sentence per curve and group whose crossing lies within the swept values with a bounded interval,
    then how many do not."""
    out = []
    for r in t.filter(pl.col("where") == WITHIN).iter_rows(named=True):
        key, _, at = r["curve"].partition(" at ")  # a grid's curve: "<first key> at <second key> = <value>"
        out.append(f"{r['players']} players{', ' + at if at else ''}: {r[fam.column]} crosses its fair share {100 * r['expected']:.1f}% "
                   f"at {key} = {r['crossing']:.2f} [{r['crossing_lo']:.2f}, {r['crossing_hi']:.2f}].")
    none = t.filter(pl.col("where") != WITHIN).height
    if none:
        out.append(f"{none} of the {t.height} curves of the {fam.plural} cross the fair share nowhere within the swept values with a "
                   "bounded interval: see the crossing table for where they would, and why not.")
    return out


def sweep_sections(run, det, families: list[Family], metrics: list[Metric], position: str) -> list[Section]:
    """A section per sweep of the run's experiment (none without sweeps). ``det``: the run or its subset
    of game indices (analysis.data.Run.subset), the same in every point; ``position``: the games
    table's column of a seat's turn position at the start (0 = first)."""
    return [sweep_section(run, det, sw, families, metrics, position) for sw in sweeps_of(run.manifest)]
