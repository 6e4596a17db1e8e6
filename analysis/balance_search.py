"""The arithmetic of ``trinidad balance`` (issue 96, item 3; the search is run by :mod:`trinidad.balance`):
each knob's effect on every group's win rate from paired games, the linearised step that brings the
rates to their fair share with as few knobs moved as the target allows, and the verification's
before-and-after figures. Numpy and scipy only: no engine, no run directory.

The model. A *knob* is a rules number (``character.captain_vp``) a designer lets move between bounds on
a grid of steps from its value in the rules (its *anchor*). The *rows* are the target's rates: each group
of the game (Trinidad's Characters) and each seat at each player count, whose fair share is 1/N, the
player's beat rate against the Solo A.I. at a strength, the share of games holding a record (a Palace
built). Each row has a *band* it must lie in (:class:`Band`: the fair share +-X, a target rate +-X, or a
designer's min and max) and, where the target names a value (a fair share, a target rate), a *centre*. At
a point x (every knob's value) the rows' rates are ``y``; a knob's *sensitivity* is the paired finite
difference (y(x + h e_k) - y(x)) / h, the two points played on the same seeds and the difference taken
game by game, with its variance. Near x the rates at the moves u from the anchors (u = values - anchors)
are linear::

    y(u) = e + S u,      e = y - S u_x      (u_x: x's moves)

The target is met where every row lies in its band; the step (:func:`linear_step`) minimises, under the
sensitivities' own noise (each prediction y_r(u) normal, its variance s_r^2 = sum_k V_rk (u_k - u_x,k)^2:
what measuring S adds when a knob moves from where it was measured), the squared *excess* beyond the bands
first and the squared deviation from the centres as the tie-break, plus a price per knob moved::

    J(u) = W sum_r E[ex_r(u)^2] + sum_r c_r E[(y_r(u) - centre_r)^2] + cost * #{k : u_k != 0}

    ex_r = (y_r - hi_r)+ + (lo_r - y_r)+,   c_r = 1 where the row has a centre, else 0,   W = BAND_WEIGHT

E[(a + sZ)+^2] = (a^2 + s^2) Phi(a/s) + a s phi(a/s) for Z standard normal (scipy.stats.norm), and the
tie-break term is |y - centre|^2 + sum_k v_k (u_k - u_x,k)^2, v_k = sum over the centred rows of V_rk:
with W = 0 and every band the centre +-X this J is the least-squares one of the first search (issue 96,
item 3). W is large (:data:`BAND_WEIGHT`), so a proposal that brings every row into its band beats one
with a lower squared deviation but a row outside: the target says "every group within +-X", not "as close
to the centre as can be". J without its price is convex in u (the squared excess is convex in the
prediction's mean and spread and grows with the spread, which is a norm of u - u_x), so the bounded
quasi-Newton solve (``scipy.optimize.minimize``, L-BFGS-B within the designer's bounds) finds its minimum.
A knob whose effect is noise is not worth moving (its noise enters every row's expected excess and
deviation), and a knob moves far only when its effect was measured well. Knobs are chosen by greedy forward
selection (the knob that lowers J most joins, while J falls and the predicted rates are not all in their
bands), each subset solved within the bounds; the values are then rounded to the knobs' grids (every
floor/ceil combination of the chosen knobs, the best J kept) and knobs are dropped again, last chosen
first, while the rounded prediction stays in every band without them (backward elimination). Forward
selection: Efroymson's stepwise regression (1960); Hastie, Tibshirani and Friedman, The Elements of
Statistical Learning, 2nd ed., 3.3.2.
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
# J's weight of the squared excess beyond the bands against the squared deviation from the centres (the tie-break):
# a point outside a band weighs as a hundred points of deviation inside it (sqrt(1e4)), so that twelve Characters
# each at the edge of +-4 points (192 squared points) still beat eleven at their fair share and one a point outside
BAND_WEIGHT = 1e4
SCALE = 1e4  # the solver's J in squared points, not squared fractions: L-BFGS-B's stopping tests are relative to max(|J|, 1)
INSIDE = 1e-12  # a predicted rate this close to its band counts as in it (the solve's and the rounding's last digits)


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


@dataclass(frozen=True)
class Band:
    """Each row's target (module docstring): the band [lo, hi] its rate must lie in, and the centre its squared
    deviation (the tie-break) is measured from; NaN where the row has none (a band the designer gave by its
    bounds: the row adds nothing to the tie-break)."""

    lo: np.ndarray
    hi: np.ndarray
    centre: np.ndarray

    def __post_init__(self):
        for name in ("lo", "hi", "centre"):
            object.__setattr__(self, name, np.atleast_1d(np.asarray(getattr(self, name), float)))

    @classmethod
    def around(cls, centre, tolerance) -> Band:
        """Every row within ``tolerance`` of its ``centre`` (a fair share +-X)."""
        c = np.atleast_1d(np.asarray(centre, float))
        t = np.broadcast_to(np.asarray(tolerance, float), c.shape)
        return cls(c - t, c + t, c)

    def excess(self, y) -> np.ndarray:
        """How far each rate lies beyond its band: positive above it, negative below it, 0 within."""
        y = np.asarray(y, float)
        return np.where(y > self.hi, y - self.hi, np.where(y < self.lo, y - self.lo, 0.0))

    def inside(self, y) -> bool:
        return bool(np.all(np.abs(self.excess(y)) <= INSIDE))

    def deviation(self, y) -> np.ndarray:
        """Each rate's deviation from its centre; 0 where the row has none."""
        return np.where(np.isnan(self.centre), 0.0, np.asarray(y, float) - np.nan_to_num(self.centre))

    def score(self, y) -> tuple[float, float]:
        """A measured point's (squared excess, squared deviation): J's two terms without the model's noise, compared
        in this order (:func:`better`)."""
        ex, dev = self.excess(y), self.deviation(y)
        return float(ex @ ex), float(dev @ dev)


def better(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether the score ``a`` (:meth:`Band.score`) beats ``b``: the lesser squared excess, then the lesser squared
    deviation (a point with every row in its band beats any with a row outside, whatever their deviations)."""
    return a < b


def _band(band: Band | float, y: np.ndarray) -> Band:
    """A tolerance alone: the rows are deviations from their fair shares, each held to +-tolerance around 0."""
    return band if isinstance(band, Band) else Band.around(np.zeros(len(y)), band)


@dataclass
class Step:
    """A proposal of :func:`linear_step`: the knobs' values, the moves from the anchors, the knobs moved in
    the order they were chosen, the rates the linear model predicts there and its J."""

    values: np.ndarray
    moves: np.ndarray
    chosen: list[int]
    predicted: np.ndarray
    objective: float
    met: bool  # every predicted rate in its band
    path: list[dict] = field(default_factory=list)  # the forward selection: each knob as it joined, J after


def point_rates(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each row's rate from a games x rows matrix of observations (win credits, beats, a record held; NaN: no
    observation of that row in the game): (mean, its standard error, observations)."""
    n = np.sum(~np.isnan(m), axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nanmean(m, axis=0) if m.size else np.full(m.shape[1], np.nan)
        sd = np.nanstd(m, axis=0, ddof=1) if m.shape[0] > 1 else np.full(m.shape[1], np.nan)
        se = sd / np.sqrt(n)
    return mean, se, n


def sensitivity(point: np.ndarray, probe: np.ndarray, h: float) -> tuple[np.ndarray, np.ndarray]:
    """A knob's paired finite difference per unit of the knob: ``point`` and ``probe`` are the games x rows
    observations of the same games (common seeds, the same game in the same row) at x and at x + h e_k. Returns
    (the sensitivity of each row, its variance: the variance of the mean paired difference over h^2)."""
    if point.shape != probe.shape:
        raise ValueError(f"the point and its probe hold different games ({point.shape} against {probe.shape})")
    d = probe - point
    n = np.sum(~np.isnan(d), axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, np.nansum(d, axis=0) / np.maximum(n, 1), 0.0)
        var = np.where(n > 1, np.nanvar(d, axis=0, ddof=1) / np.maximum(n, 1), 0.0) if d.shape[0] > 1 else np.zeros(d.shape[1])
    return mean / h, np.nan_to_num(var) / h**2


def _squared_hinge(a: np.ndarray, sd: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """E[(a + sd Z)+^2] for Z standard normal, elementwise (sd 0: a+^2), its derivative in a, and P(a + sd Z > 0),
    whose 2 sd multiple is its derivative in sd."""
    pos = np.maximum(a, 0.0)
    f, g, p = pos**2, 2 * pos, (a > 0).astype(float)
    noisy = sd > 0
    if noisy.any():
        an, sn = a[noisy], sd[noisy]
        z = an / sn
        cdf, pdf = sps.norm.cdf(z), sps.norm.pdf(z)
        f[noisy] = (an**2 + sn**2) * cdf + an * sn * pdf
        g[noisy] = 2 * (an * cdf + sn * pdf)
        p[noisy] = cdf
    return f, g, p


@dataclass
class _Model:
    """The linear model at a point (module docstring): rates ``e + S u`` at the moves ``u``, their variance
    ``V (u - ux)^2``, the rows' bands."""

    e: np.ndarray
    S: np.ndarray
    V: np.ndarray
    ux: np.ndarray
    band: Band

    def __post_init__(self):
        self.centred = (~np.isnan(self.band.centre)).astype(float)
        self.centre = np.nan_to_num(self.band.centre)

    def pred(self, u: np.ndarray) -> np.ndarray:
        return self.e + self.S @ u

    def inside(self, u: np.ndarray) -> bool:
        return self.band.inside(self.pred(u))

    def objective(self, u: np.ndarray, cost: float = 0.0, grad: bool = False):
        """J at the moves ``u`` (module docstring), with its gradient in ``u`` (the price aside) where ``grad``."""
        d = u - self.ux
        mu = self.pred(u)
        var = self.V @ (d * d)
        sd = np.sqrt(var)
        fu, gu, pu = _squared_hinge(mu - self.band.hi, sd)
        fl, gl, pl = _squared_hinge(self.band.lo - mu, sd)
        dev = self.centred * (mu - self.centre)
        j = float(BAND_WEIGHT * (fu.sum() + fl.sum()) + dev @ dev + self.centred @ var + cost * np.count_nonzero(np.abs(u) > 1e-12))
        if not grad:
            return j
        # through the mean: S^T dJ/dmu; through the spread: d/du_k of s_r^2 is 2 V_rk d_k, and d/d(s_r^2) of the
        # squared excess is P(out) (the derivative in s_r, 2 s_r P(out), over 2 s_r), of the squared deviation 1
        g = self.S.T @ (BAND_WEIGHT * (gu - gl) + 2 * dev) + 2 * d * (self.V.T @ (BAND_WEIGHT * (pu + pl) + self.centred))
        return j, g


def _solve(m: _Model, box: Box, cols: list[int]) -> np.ndarray:
    """The moves u (from the anchors) minimising J (its price aside) with only ``cols`` free (the rest at their
    anchors), within the bounds: L-BFGS-B from the point measured (J is convex: any start ends at its minimum)."""
    u = np.zeros(len(box.anchor))
    if not cols:
        return u
    c = np.array(cols)
    lo, hi = box.lo[c] - box.anchor[c], box.hi[c] - box.anchor[c]

    def fun(z):
        uu = u.copy()
        uu[c] = z
        j, g = m.objective(uu, grad=True)
        return SCALE * j, SCALE * g[c]

    r = optimize.minimize(fun, np.clip(m.ux[c], lo, hi), jac=True, method="L-BFGS-B", bounds=list(zip(lo, hi, strict=True)),
                          options={"ftol": 1e-14, "gtol": 1e-10, "maxiter": 2000})
    u[c] = np.clip(r.x, lo, hi)
    return u


def _round(m: _Model, box: Box, u: np.ndarray, cols: list[int], cost: float) -> np.ndarray:
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
        j = m.objective(out, cost)
        if j < best_j * (1 - 1e-12) - 1e-300:
            best, best_j = np.array(combo), j
    out[c] = best
    return out


def linear_step(y: np.ndarray, S: np.ndarray, V: np.ndarray, x: np.ndarray, box: Box, band: Band | float, cost: float,
                trust: np.ndarray | None = None) -> Step:
    """The linearised step from the point ``x`` (the knobs' values) whose rows' rates are ``y``, each held to its
    ``band`` (a :class:`Band`; a number: ``y`` are deviations from the fair shares, each held within +-that), with
    sensitivities ``S`` (rows x knobs, per unit of a knob) and their variances ``V`` (module docstring: greedy
    forward selection over the allowed knobs, the bounded solve of J, rounding to the grids, backward
    elimination). ``cost``: J's price of a knob moved (squared deviation). ``trust``: the most each knob moves
    from ``x`` in this step (a box trust region: the knobs are chosen with the whole bounds, by what the linear
    model says the target needs, and the move toward that solution is cut to the box, where the model was
    measured; None: the bounds alone)."""
    y, S, V, x = (np.asarray(a, float) for a in (y, S, V, x))
    band = _band(band, y)
    ux = x - box.anchor
    m = _Model(y - S @ ux, S, V, ux, band)
    movable = [k for k in range(len(x)) if box.allowed[k] and box.hi[k] > box.lo[k]]

    chosen: list[int] = []
    u = np.zeros(len(x))
    j = m.objective(u, cost)
    path = []
    while not m.inside(u):
        best = None
        for k in movable:
            if k in chosen:
                continue
            uk = _solve(m, box, [*chosen, k])
            jk = m.objective(uk) + cost * (len(chosen) + 1)
            if best is None or jk < best[0] * (1 - 1e-12):
                best = (jk, k, uk)
        if best is None or best[0] >= j * (1 - 1e-12):
            break
        j, k, u = best
        chosen.append(k)
        ex = band.excess(m.pred(u))
        path.append({"knob": k, "objective": j, "max_excess": float(np.max(np.abs(ex), initial=0.0))})
    if trust is not None:
        u = np.clip(u, ux - trust, ux + trust)
    u = _round(m, box, u, chosen, cost)
    chosen = [k for k in chosen if abs(u[k]) > 1e-12]
    if m.inside(u):
        for k in reversed(list(chosen)):  # the last chosen first: the knobs the target needed least
            rest = [q for q in chosen if q != k]
            ur = _solve(m, box, rest)
            ur = _round(m, box, ur if trust is None else np.clip(ur, ux - trust, ux + trust), rest, cost)
            if m.inside(ur):
                chosen, u = [q for q in rest if abs(ur[q]) > 1e-12], ur
    p = m.pred(u)
    return Step(values=box.anchor + u, moves=u, chosen=chosen, predicted=p, objective=m.objective(u, cost), met=band.inside(p), path=path)


def needed_knobs(y: np.ndarray, S: np.ndarray, V: np.ndarray, x: np.ndarray, box: Box, probe: np.ndarray,
                 band: Band | float, t_min: float = 2.0) -> list[dict]:
    """For each row out of its band at the point ``x`` (rates ``y``; ``band`` as :func:`linear_step`'s): the knob
    that would bring it back, among the knobs the designer did not allow (measured for this) and the allowed knobs
    at the bound the row needs to pass: the largest effect on the row in the direction it needs, per ``probe`` (a
    knob's finite difference, its typical move, so that knobs of other scales compare), among the effects measured
    at least ``t_min`` standard errors from 0, with the value the linear model says it would need to bring the row
    to its centre (to the bound it passes, where it has none) and whether that value lies within the knob's bounds
    (a linear extrapolation: a value far off says the knob alone would not do). Rows no such knob moves the right
    way get knob None. ``deviation``: the row's distance from that goal; ``excess``: from its band."""
    y = np.asarray(y, float)
    band = _band(band, y)
    ex = band.excess(y)
    out = []
    for r in np.nonzero(np.abs(ex) > INSIDE)[0]:
        goal = band.centre[r] if not np.isnan(band.centre[r]) else band.hi[r] if ex[r] > 0 else band.lo[r]
        dev = y[r] - goal
        best = None
        for k in range(len(x)):
            s = S[r, k]
            if s == 0 or not np.isfinite(s) or abs(s) < t_min * math.sqrt(max(V[r, k], 0.0)):
                continue
            need = -dev / s  # the move of knob k that brings row r to its goal
            blocked = not box.allowed[k] or (need > 0 and x[k] >= box.hi[k]) or (need < 0 and x[k] <= box.lo[k])
            if not blocked:
                continue
            effect = abs(s) * probe[k]
            if best is None or effect > best["effect"]:
                t = s / math.sqrt(V[r, k]) if V[r, k] > 0 else math.inf
                best = {"knob": k, "effect": effect, "value_needed": float(x[k] + need), "t": float(t),
                        "within_bounds": bool(box.lo[k] <= x[k] + need <= box.hi[k])}
        out.append({"row": int(r), "deviation": float(dev), "excess": float(ex[r]), **({"knob": None} if best is None else best)})
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
