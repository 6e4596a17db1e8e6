"""The arithmetic of ``trinidad balance`` (issue 96, item 3; the search is run by :mod:`trinidad.balance`):
each knob's effect on every group's win rate from paired games, the linearised step that brings the
rates to their fair share with as few knobs moved as the target allows, and the verification's
before-and-after figures. Numpy and scipy only: no engine, no run directory.

The model. A *knob* is a rules number (``character.captain_vp``) a designer lets move between bounds on
a grid of steps from its value in the rules (its *anchor*). The *rows* are the target's win rates: each
group of the game (Trinidad's Characters) at each player count, whose fair share is 1/N. At a point x
(every knob's value) the rows deviate from their fair shares by ``dev``; a knob's *sensitivity* is the
paired finite difference (y(x + h e_k) - y(x)) / h, the two points played on the same seeds and the
difference taken game by game, with its variance. Near x the deviation at the moves u from the anchors
(u = values - anchors) is linear::

    d(u) = e + S u,      e = dev - S u_x      (u_x: x's moves)

The step (:func:`linear_step`) minimises the expected squared deviation under the sensitivities' own
noise plus a price per knob moved::

    J(u) = |e + S u|^2 + sum_k v_k (u_k - u_x,k)^2 + cost * #{k : u_k != 0},   v_k = sum over rows of Var(S_rk)

The middle term is what the prediction's variance adds when a knob moves by u_k - u_x,k from where its
sensitivity was measured (the rows' errors taken independent): a knob whose effect is noise is not worth
moving, and a knob moves far only when its effect was measured well (a ridge whose weights are the
measurement's variances). Knobs are chosen by greedy forward selection (the knob that lowers J most joins,
while J falls and the predicted deviations are not all within the tolerance), each subset solved by
bounded least squares (``scipy.optimize.lsq_linear``, bounded-variable least squares: the bounds are the
designer's); the values are then rounded to the knobs' grids (every floor/ceil combination of the chosen
knobs, the best J kept) and knobs are dropped again, last chosen first, while the rounded prediction stays
within the tolerance without them (backward elimination). Forward selection: Efroymson's stepwise
regression (1960); Hastie, Tibshirani and Friedman, The Elements of Statistical Learning, 2nd ed., 3.3.2.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize
from scipy import stats as sps

from analysis import stats

MAX_COMBINATIONS_KNOBS = 12  # chosen knobs rounded by trying every floor/ceil combination (2^12); more: each to its nearest value


@dataclass(frozen=True)
class Box:
    """The knobs' grids and bounds, one entry a knob in the search's order: the rules' values (``anchor``),
    the grid's step, the bounds (on the grid), and which knobs the designer allows to move."""

    anchor: np.ndarray
    step: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    allowed: np.ndarray  # bool

    def __post_init__(self):
        for name in ("anchor", "step", "lo", "hi"):
            object.__setattr__(self, name, np.asarray(getattr(self, name), float))
        object.__setattr__(self, "allowed", np.asarray(self.allowed, bool))


@dataclass
class Step:
    """A proposal of :func:`linear_step`: the knobs' values, the moves from the anchors, the knobs moved in
    the order they were chosen, the deviations the linear model predicts there and its J."""

    values: np.ndarray
    moves: np.ndarray
    chosen: list[int]
    predicted: np.ndarray
    objective: float
    met: bool  # every predicted deviation within the tolerance
    path: list[dict] = field(default_factory=list)  # the forward selection: each knob as it joined, J after


def point_rates(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's rate from a games x rows matrix of win credits (NaN: no seat of that group in the game):
    (mean, its standard error, observations)."""
    n = np.sum(~np.isnan(m), axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nanmean(m, axis=0) if m.size else np.full(m.shape[1], np.nan)
        sd = np.nanstd(m, axis=0, ddof=1) if m.shape[0] > 1 else np.full(m.shape[1], np.nan)
        se = sd / np.sqrt(n)
    return mean, se, n


def sensitivity(point: np.ndarray, probe: np.ndarray, h: float) -> tuple[np.ndarray, np.ndarray]:
    """A knob's paired finite difference per unit of the knob: ``point`` and ``probe`` are the games x rows
    credits of the same games (common seeds, the same game in the same row) at x and at x + h e_k. Returns
    (the sensitivity of each row, its variance: the variance of the mean paired difference over h^2)."""
    if point.shape != probe.shape:
        raise ValueError(f"the point and its probe hold different games ({point.shape} against {probe.shape})")
    d = probe - point
    n = np.sum(~np.isnan(d), axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.nansum(d, axis=0) / np.maximum(n, 1), 0.0)
        var = np.where(n > 1, np.nanvar(d, axis=0, ddof=1) / np.maximum(n, 1), 0.0) if d.shape[0] > 1 else np.zeros(d.shape[1])
    return mean / h, np.nan_to_num(var) / h**2


def _objective(e, S, v, ux, u, cost) -> float:
    r = e + S @ u
    return float(r @ r + np.sum(v * (u - ux) ** 2) + cost * np.count_nonzero(np.abs(u) > 1e-12))


def _solve(e, S, v, ux, box: Box, cols: list[int]) -> np.ndarray:
    """The moves u (from the anchors) minimising J's first two terms with only ``cols`` free (the rest at
    their anchors), within the bounds: bounded-variable least squares."""
    u = np.zeros(len(box.anchor))
    if not cols:
        return u
    c = np.array(cols)
    w = np.sqrt(v[c])
    A = np.vstack([S[:, c], np.diag(w)])
    b = np.concatenate([-(e), w * ux[c]])
    lo, hi = box.lo[c] - box.anchor[c], box.hi[c] - box.anchor[c]
    u[c] = optimize.lsq_linear(A, b, bounds=(lo, hi), method="bvls").x
    return u


def _round(e, S, v, ux, box: Box, u: np.ndarray, cols: list[int], cost: float) -> np.ndarray:
    """``u`` with the ``cols`` knobs on their grids: every floor/ceil combination (the nearest value each
    where the knobs are more than :data:`MAX_COMBINATIONS_KNOBS`), the one of least J."""
    out = u.copy()
    if not cols:
        return out
    c = np.array(cols)
    k = (u[c]) / box.step[c]
    options = [np.unique(np.clip(np.array([math.floor(x), math.ceil(x)]) * s, lo - a, hi - a))
               for x, s, lo, hi, a in zip(k, box.step[c], box.lo[c], box.hi[c], box.anchor[c], strict=True)]
    if len(cols) > MAX_COMBINATIONS_KNOBS:
        out[c] = np.clip(np.round(k) * box.step[c], box.lo[c] - box.anchor[c], box.hi[c] - box.anchor[c])
        return out
    best, best_j = None, math.inf
    for combo in itertools.product(*options):
        out[c] = combo
        j = _objective(e, S, v, ux, out, cost)
        if j < best_j - 1e-15:
            best, best_j = np.array(combo), j
    out[c] = best
    return out


def linear_step(dev: np.ndarray, S: np.ndarray, V: np.ndarray, x: np.ndarray, box: Box, tolerance: float, cost: float,
                trust: np.ndarray | None = None) -> Step:
    """The linearised step from the point ``x`` (the knobs' values) whose rows deviate from their fair
    shares by ``dev``, with sensitivities ``S`` (rows x knobs, per unit of a knob) and their variances
    ``V`` (module docstring: greedy forward selection over the allowed knobs, bounded least squares,
    rounding to the grids, backward elimination). ``cost``: J's price of a knob moved (squared deviation).
    ``trust``: the most each knob moves from ``x`` in this step (a box trust region: the knobs are chosen
    with the whole bounds, by what the linear model says the target needs, and the move toward that
    solution is cut to the box, where the model was measured; None: the bounds alone)."""
    dev, S, V, x = (np.asarray(a, float) for a in (dev, S, V, x))
    ux = x - box.anchor
    e = dev - S @ ux
    v = V.sum(axis=0)
    movable = [k for k in range(len(x)) if box.allowed[k] and box.hi[k] > box.lo[k]]

    def pred(u):
        return e + S @ u

    chosen: list[int] = []
    u = np.zeros(len(x))
    j = _objective(e, S, v, ux, u, cost)
    path = []
    while np.max(np.abs(pred(u)), initial=0.0) > tolerance:
        best = None
        for k in movable:
            if k in chosen:
                continue
            uk = _solve(e, S, v, ux, box, [*chosen, k])
            jk = _objective(e, S, v, ux, uk, 0.0) + cost * (len(chosen) + 1)
            if best is None or jk < best[0] - 1e-15:
                best = (jk, k, uk)
        if best is None or best[0] >= j - 1e-15:
            break
        j, k, u = best
        chosen.append(k)
        path.append({"knob": k, "objective": j, "max_deviation": float(np.max(np.abs(pred(u))))})
    if trust is not None:
        u = np.clip(u, ux - trust, ux + trust)
    u = _round(e, S, v, ux, box, u, chosen, cost)
    chosen = [k for k in chosen if abs(u[k]) > 1e-12]
    if np.max(np.abs(pred(u)), initial=0.0) <= tolerance:
        for k in reversed(list(chosen)):  # the last chosen first: the knobs the target needed least
            rest = [q for q in chosen if q != k]
            ur = _solve(e, S, v, ux, box, rest)
            ur = _round(e, S, v, ux, box, ur if trust is None else np.clip(ur, ux - trust, ux + trust), rest, cost)
            if np.max(np.abs(pred(ur)), initial=0.0) <= tolerance:
                chosen, u = [q for q in rest if abs(ur[q]) > 1e-12], ur
    p = pred(u)
    return Step(values=box.anchor + u, moves=u, chosen=chosen, predicted=p, objective=_objective(e, S, v, ux, u, cost),
                met=bool(np.max(np.abs(p), initial=0.0) <= tolerance), path=path)


def needed_knobs(dev: np.ndarray, S: np.ndarray, V: np.ndarray, x: np.ndarray, box: Box, probe: np.ndarray,
                 tolerance: float, t_min: float = 2.0) -> list[dict]:
    """For each row out of the tolerance at the point ``x``: the knob that would bring it back, among the
    knobs the designer did not allow (measured for this) and the allowed knobs at the bound the row needs
    to pass: the largest effect on the row in the direction it needs, per ``probe`` (a knob's finite
    difference, its typical move, so that knobs of other scales compare), among the effects measured at
    least ``t_min`` standard errors from 0, with the value the linear model says it would need and whether
    that value lies within the knob's bounds (a linear extrapolation: a value far off says the knob alone
    would not do). Rows no such knob moves the right way get knob None."""
    out = []
    for r in np.nonzero(np.abs(dev) > tolerance)[0]:
        best = None
        for k in range(len(x)):
            s = S[r, k]
            if s == 0 or not np.isfinite(s) or abs(s) < t_min * math.sqrt(max(V[r, k], 0.0)):
                continue
            need = -dev[r] / s  # the move of knob k that brings row r to its fair share
            blocked = not box.allowed[k] or (need > 0 and x[k] >= box.hi[k]) or (need < 0 and x[k] <= box.lo[k])
            if not blocked:
                continue
            effect = abs(s) * probe[k]
            if best is None or effect > best["effect"]:
                t = s / math.sqrt(V[r, k]) if V[r, k] > 0 else math.inf
                best = {"knob": k, "effect": effect, "value_needed": float(x[k] + need), "t": float(t),
                        "within_bounds": bool(box.lo[k] <= x[k] + need <= box.hi[k])}
        out.append({"row": int(r), "deviation": float(dev[r]), **({"knob": None} if best is None else best)})
    return out


def chi_square(wins: np.ndarray, seats: np.ndarray) -> dict:
    """How far the groups' win rates lie from each other: chi-square of each group's wins against its
    seat-games' share of all wins (scipy.stats.chisquare, df = groups - 1; as the report's Auction spread,
    :func:`analysis.auction.spread`)."""
    wins, seats = np.asarray(wins, float), np.asarray(seats, float)
    if len(wins) < 2 or wins.sum() <= 0:
        return {"chi2": math.nan, "df": max(len(wins) - 1, 0), "p": math.nan}
    x2, p = sps.chisquare(wins, seats * wins.sum() / seats.sum())
    return {"chi2": float(x2), "df": len(wins) - 1, "p": float(p)}


def before_after(base: np.ndarray, after: np.ndarray, labels: list[str], fair: float) -> list[dict]:
    """Each group's win rate before (``base``) and after (``after``), games x groups credits of the same
    games: the rates with Wilson 95% intervals (:func:`analysis.stats.wilson`), the paired change (paired t
    95% interval, :func:`analysis.stats.paired_test`) and the distance from the fair share after."""
    rows = []
    for j, label in enumerate(labels):
        b, a = base[:, j], after[:, j]
        nb, na = int(np.sum(~np.isnan(b))), int(np.sum(~np.isnan(a)))
        (blo,), (bhi,) = stats.wilson(np.nansum(b), nb)
        (alo,), (ahi,) = stats.wilson(np.nansum(a), na)
        d = stats.paired_test(a - b)
        rb = float(np.nanmean(b)) if nb else math.nan
        ra = float(np.nanmean(a)) if na else math.nan
        rows.append({"group": label, "fair": fair, "n": na, "before": rb, "before_lo": float(blo), "before_hi": float(bhi),
                     "after": ra, "after_lo": float(alo), "after_hi": float(ahi), "change": d["diff"], "change_lo": d["diff_lo"],
                     "change_hi": d["diff_hi"], "off_before": rb - fair, "off_after": ra - fair})
    return rows
