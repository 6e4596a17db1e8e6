"""Runs that stop when the answer is precise enough (``trinidad run --precision``, issue 96): the
anytime-valid intervals a run's stopping rule reads at each block boundary, and the rates they are
taken of. Numpy and polars only: no engine (the runner, :mod:`trinidad.runner.sequential`, decides
which blocks to play from these).

The interval of a rate is a confidence sequence: a sequence of intervals that covers the true rate at
every number of games at once with probability 1 - alpha, so that looking after every block and
stopping when it is narrow enough keeps its coverage (repeated fixed-n intervals would not: peeking
at a 95% Wilson interval after every block and stopping when it is narrow or excludes a value covers
less than 95%). The one used is the predictable plug-in empirical-Bernstein confidence sequence
(PrPl-EB) of Waudby-Smith and Ramdas, "Estimating means of bounded random variables by betting",
J. R. Stat. Soc. B 86(1):1-27, 2024 (arXiv:2010.09686), Theorem 2: exact (not asymptotic) for any
observations in [0, 1], adaptive to their variance (a rate of 12% needs fewer games than one of
50%), in closed form. The ``confseq`` package of the same authors does not build on this
platform (its C++ extension needs Boost), so the few lines are written out in
:func:`confidence_sequence`.

Multiple rates: every rate of a variant and player count is one family (as the report's Holm
corrections are), and each of its R rates gets the interval at alpha / R (Bonferroni), so that all
of them cover together with probability at least 1 - alpha at whatever block the run stops. The
paired differences against the base are a second family, likewise at alpha / R each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import polars as pl

ALPHA = 0.05
LAMBDA_MAX = 0.5  # the largest bet (Waudby-Smith and Ramdas's c: 1/2 or 3/4); ours are about precision / variance, far below

PRECISE, DECIDED, CAP = "precise", "decided against base", "cap reached"
REASONS = (PRECISE, DECIDED, CAP)


def confidence_sequence(x, alpha: float, precision: float, lam_max: float = LAMBDA_MAX) -> tuple[np.ndarray, np.ndarray]:
    """The (1 - ``alpha``) PrPl-EB confidence sequence of the mean of observations ``x`` in [0, 1]
    taken in order along the last axis (other axes: independent sequences): (low, high) after each
    observation (Waudby-Smith and Ramdas 2024, Theorem 2). With mu_t = (1/2 + sum x_i) / (t + 1),
    s2_t = (1/4 + sum (x_i - mu_i)^2) / (t + 1), a predictable bet lambda_t in (0, 1),
    v_t = 4 (x_t - mu_{t-1})^2 and psi(l) = (-log(1 - l) - l) / 4, the interval after t observations
    is ``sum l_i x_i / sum l_i  +-  (log(2 / alpha) + sum v_i psi(l_i)) / sum l_i``; it holds for
    every t at once for any bets fixed before their observation.

    The bets: lambda_t = min(lam_max, precision / s2_{t-1}). For a constant bet l the half-width
    after t observations of variance s2 is about log(2/alpha) / (t l) + s2 l / 2, and the bet that
    reaches +-``precision`` in the fewest observations is l = precision / s2, reached at
    t = 2 s2 log(2/alpha) / precision^2 (the paper's default bets shrink as sqrt(log t / t) and
    aim at no particular width: about twice as wide at the sizes a run stops at). The bet uses only
    earlier observations' variance, so it is predictable and the sequence stays valid.

    Returned as the running intersection (the tightest interval so far: a confidence sequence
    intersected over time is one too, and a run's interval then never widens), clipped to [0, 1]."""
    x = np.asarray(x, float)
    if x.shape[-1] == 0:
        return np.zeros(x.shape), np.ones(x.shape)
    t = np.arange(1, x.shape[-1] + 1, dtype=float)
    mu = (0.5 + np.cumsum(x, axis=-1)) / (t + 1)
    s2 = (0.25 + np.cumsum((x - mu) ** 2, axis=-1)) / (t + 1)

    def before(a: np.ndarray, first: float) -> np.ndarray:  # a_{t-1}, with the prior's value before the first observation
        return np.concatenate([np.full((*a.shape[:-1], 1), first), a[..., :-1]], axis=-1)

    mu_prev, s2_prev = before(mu, 0.5), before(s2, 0.25)
    lam = np.minimum(lam_max, precision / s2_prev)
    psi = (-np.log1p(-lam) - lam) / 4
    total = np.cumsum(lam, axis=-1)
    centre = np.cumsum(lam * x, axis=-1) / total
    half = (math.log(2 / alpha) + np.cumsum(4 * (x - mu_prev) ** 2 * psi, axis=-1)) / total
    lo = np.maximum.accumulate(centre - half, axis=-1)
    hi = np.minimum.accumulate(centre + half, axis=-1)
    return np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)


def interval(x, alpha: float, precision: float) -> tuple[float, float]:
    """The confidence sequence of the observations ``x`` (in [0, 1], in order) after the last of
    them; (0, 1) before any."""
    x = np.asarray(x, float)
    if not len(x):
        return 0.0, 1.0
    lo, hi = confidence_sequence(x, alpha, precision)
    return float(lo[-1]), float(hi[-1])


def paired_interval(xv, xb, alpha: float, precision: float) -> tuple[float, float]:
    """The confidence sequence of the mean paired difference ``xv - xb`` (each in [0, 1], the same
    games in order) after the last pair: the differences in [-1, 1] mapped to [0, 1] by
    (d + 1) / 2, :func:`confidence_sequence` there with the bets aimed at +-``precision`` on the
    difference, mapped back."""
    d = (np.asarray(xv, float) - np.asarray(xb, float) + 1) / 2
    lo, hi = interval(d, alpha, precision / 2)
    return 2 * lo - 1, 2 * hi - 1


@dataclass
class Check:
    """The stopping rule's reading of one variant and player count at a block boundary: each rate's
    interval (``rates``: rate, seats-games n, mean, lo, hi) and, for a variant other than the base,
    each rate's paired difference against the base (``diffs``: rate, pairs, diff, lo, hi)."""

    precise: bool  # every rate's interval within +-precision
    decided: bool  # some rate's paired difference excludes 0
    rates: list[dict] = field(default_factory=list)
    diffs: list[dict] = field(default_factory=list)

    def widest(self) -> dict | None:
        """The rate with the widest interval (the one the run waits for)."""
        return max(self.rates, key=lambda r: r["hi"] - r["lo"], default=None)

    def deciding(self) -> dict | None:
        """The difference furthest from 0 among those that exclude it."""
        out = [d for d in self.diffs if d["lo"] > 0 or d["hi"] < 0]
        return max(out, key=lambda d: max(d["lo"], -d["hi"]), default=None)


def check(x: np.ndarray, labels: list[str], precision: float, base: np.ndarray | None = None, alpha: float = ALPHA) -> Check:
    """Read a variant's rates: ``x`` (games x rates, in game order; NaN where the game has no seat of
    that rate's group) and, for a variant other than the base, ``base``: the base's games of the same
    indices, the same columns. Each of the R rates gets its interval at alpha / R, each paired
    difference (over the games both have the group in) at alpha / R (Bonferroni in each family).
    A rate with no observation is not precise."""
    r = len(labels)
    a = alpha / max(r, 1)
    rates, diffs = [], []
    for j, label in enumerate(labels):
        col = x[:, j]
        obs = col[~np.isnan(col)]
        lo, hi = interval(obs, a, precision)
        rates.append({"rate": label, "n": int(len(obs)), "mean": float(obs.mean()) if len(obs) else None, "lo": lo, "hi": hi})
        if base is not None:
            both = ~np.isnan(col) & ~np.isnan(base[:, j])
            if both.any():
                dlo, dhi = paired_interval(col[both], base[both, j], a, precision)
                diffs.append({"rate": label, "pairs": int(both.sum()), "diff": float((col[both] - base[both, j]).mean()),
                              "lo": dlo, "hi": dhi})
    precise = bool(rates) and all(q["n"] > 0 and (q["hi"] - q["lo"]) / 2 <= precision for q in rates)
    decided = any(d["lo"] > 0 or d["hi"] < 0 for d in diffs)
    return Check(precise, decided, rates, diffs)


def game_rates(games: pl.DataFrame | pl.LazyFrame, rates: list[tuple[str, object, str]]) -> tuple[np.ndarray, np.ndarray]:
    """Per game of a games table (one row a seat; one variant and player count), each rate's
    observation: the mean win credit (:func:`analysis.data.prepare_games`: a tie for first shares the
    win) of the seats whose column ``rates[j][0]`` holds ``rates[j][1]``, NaN where no seat does.
    Returns (the game indices, ascending; the games x rates matrix)."""
    from analysis.data import prepare_games

    cols = list(dict.fromkeys(c for c, _, _ in rates))
    g = (prepare_games(games).select("game", "credit", *[pl.col(c).cast(pl.String) for c in cols]).collect()
         if rates else pl.DataFrame({"game": []}, schema={"game": pl.Int64}))
    idx = np.unique(g["game"].to_numpy())
    m = np.full((len(idx), len(rates)), np.nan)
    for c in cols:
        t = g.group_by("game", c).agg(pl.col("credit").mean())
        for j, (cj, value, _) in enumerate(rates):
            if cj != c:
                continue
            part = t.filter(pl.col(c) == str(value))
            m[np.searchsorted(idx, part["game"].to_numpy()), j] = part["credit"].to_numpy()
    return idx, m


def stop_line(rec: dict) -> str:
    """One line of where a variant and player count stopped (a record of the manifest's ``stopping``:
    :meth:`trinidad.runner.sequential.Schedule.record`), for the run's progress lines, ``runs summarize`` and
    the report's manifest table."""
    what = f"{rec['variant']} / {rec['players']} players: {rec['games']:,} games"
    if rec["stopped"] is None:
        return f"{what}, playing on"
    why = rec["stopped"]
    if why == DECIDED and rec.get("decided_by"):
        d = rec["decided_by"]
        why += f" ({d['rate']} {100 * d['diff']:+.1f} points, interval [{100 * d['lo']:+.1f}, {100 * d['hi']:+.1f}])"
    elif rec.get("widest"):
        w = rec["widest"]
        why += f" (widest: {w['rate']} +-{100 * w['half_width']:.1f} points)"
    return f"{what}, {why}"
