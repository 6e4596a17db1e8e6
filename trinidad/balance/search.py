"""The search of ``trinidad balance`` (trinidad.balance): rounds of paired games on the search's seeds, each
an experiment of the spec's game played by the runner (:func:`trinidad.runner.run.run_experiment`, local
threads or Ray) into OUT/search/round-<r>, read into each target row's win credits game by game
(:func:`analysis.sequential.game_rates`), and the linearised steps of :mod:`analysis.balance_search`.

1. Round 0 plays the rules' values (the *point*) and, for every knob the spec allows, the point with that
   knob moved by its probe (up, or down where up leaves the bounds): each knob's sensitivity on every row by
   paired finite differences (the same deals in every variant). Every round plays as many games a variant
   (:func:`trinidad.balance.spec.planned_games`: the budget over the variants planned, a confirming round
   planned with PLANNED_MOVES knobs moved), a round that moves more knobs fewer, within its share of what is left.
2. A step (:func:`analysis.balance_search.linear_step`) from the best point measured so far proposes new values
   with as few knobs moved as the linear model needs to bring every row within the tolerance, each knob moved
   at most TRUST probes (where the model was measured; the next round measures it again where it lands).
3. A confirming round plays the proposal and, beside it, a probe of each knob it moves (their sensitivities
   measured again where they now are: the model re-linearised); then step 2 again. The rounds stop early when
   a point measured is within the tolerance, when the step proposes a point already played (converged), or
   when the budget left pays for too few games.
4. Where the best point is still out of the tolerance, the game's knobs the spec did not allow are probed
   beside it (DIAGNOSE_SHARE of the budget is kept for this): the knob each row out of reach would need
   (:func:`analysis.balance_search.needed_knobs`).

The best point: the one measured within the tolerance with the fewest knobs moved (then the least squared
deviation), else the least squared deviation. Every round plays the same master seed (:meth:`Spec.derived_seed`:
game i of n players has the same deal in every round and variant), so points are compared on the same deals;
nothing reads the clock or the number of workers, and the tables of a run are the same on any number of
workers: the same spec and seed give the same proposal."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis import balance_search as bs
from analysis.data import load_run
from analysis.sequential import game_rates
from trinidad.balance.spec import DIAGNOSE_SHARE, MIN_GAMES, SEARCH, Knob, Spec, planned_games, round_games
from trinidad.games.sweeps import short
from trinidad.runner.run import run_experiment

KNOB_COST = 0.5  # a knob moved costs J as much as one row off by half the tolerance: it must earn more than that to move
TRUST = 2  # a step moves a knob at most this many probes from where it was measured (the linear model's trust region)


@dataclass
class Point:
    """A point measured: its round, every knob's value, the games per player count, each row's rate, its
    standard error and its deviation from the fair share."""

    round: int
    values: dict
    games: int
    rate: np.ndarray
    se: np.ndarray
    dev: np.ndarray
    tolerance: float

    @property
    def met(self) -> bool:
        return bool(np.max(np.abs(self.dev)) <= self.tolerance)

    def moved(self, knobs: list[Knob]) -> list[str]:
        return [k.key for k in knobs if self.values[k.key] != k.value]

    def to_dict(self, rows: list[str], knobs: list[Knob]) -> dict:
        return {"round": self.round, "games": self.games, "values": {k.key: self.values[k.key] for k in knobs}, "moved": self.moved(knobs),
                "met": self.met, "max_deviation": float(np.max(np.abs(self.dev))), "squared_deviation": float(self.dev @ self.dev),
                "rates": [{"row": r, "rate": float(a), "se": float(s), "deviation": float(d)}
                          for r, a, s, d in zip(rows, self.rate, self.se, self.dev, strict=True)]}


@dataclass
class Search:
    """What the search found: the points measured, the sensitivities (rows x knobs, the allowed knobs then the
    others; NaN where never measured), each round's record, the best point, the rows still out and the knob
    each would need, and the games spent."""

    spec: Spec
    points: list[Point]
    S: np.ndarray
    V: np.ndarray
    rounds: list[dict]
    best: Point
    needed: list[dict] = field(default_factory=list)
    spent: int = 0

    @property
    def proposal(self) -> dict:
        """The best point's values of the knobs it moves."""
        return {k: self.best.values[k] for k in self.best.moved(self.spec.knobs)}


def row_labels(spec: Spec) -> list[str]:
    """A target row as the summary names it: the group, and its player count where the target has several."""
    many = len(spec.players) > 1
    return [f"{label} ({n}p)" if many else str(label) for n, _, _, label in spec.rows]


def fair_shares(spec: Spec) -> np.ndarray:
    return np.array([1.0 / n for n, _, _, _ in spec.rows])


def _typed(k: Knob, v: float):
    """A value on the knob's grid, as the rules number's type (an integer stays an integer)."""
    return int(round(v)) if isinstance(k.value, int) else round(float(v), 12)


def probe_value(k: Knob, x):
    """Where a knob at ``x`` is probed: a probe up, or down where up leaves the bounds, or as far as the bounds allow."""
    for h in (k.probe, -k.probe):
        if k.lo <= x + h <= k.hi:
            return _typed(k, x + h)
    return k.hi if k.hi - x >= x - k.lo else k.lo


class Rounds:
    """Plays a round's points as one experiment of the spec's game on the search's seed, and reads each
    variant's games x rows win credits (rows: the spec's, count by count; NaN in another count's columns)."""

    def __init__(self, spec: Spec, backend: str, workers: int | None, resume: bool, progress: bool, say):
        self.spec, self.backend, self.workers, self.resume, self.progress, self.say = spec, backend, workers, resume, progress, say
        self.spent = 0

    def play(self, tag: str, points: list[tuple[str, dict]], games: int) -> dict[str, np.ndarray]:
        spec = self.spec
        out = spec.out / "search" / f"round-{tag}"
        variants = [{"name": name, "overrides": spec.overrides_at(values)} for name, values in points]
        doc = spec.experiment_doc(f"{spec.name}-round-{tag}", out, games, spec.derived_seed(SEARCH), spec.player, variants)
        exp = spec.game.experiment(doc, str(spec.path))
        if self.progress:
            self.say(f"round {tag}: {len(points)} variant{'s' if len(points) > 1 else ''} x {games:,} games x {len(spec.players)} player "
                     f"count{'s' if len(spec.players) > 1 else ''} ({out})")
        run_experiment(exp, backend=self.backend, workers=self.workers, resume=self.resume and (out / "manifest.json").exists(),
                       progress=False, say=self.say, ai_games=0)
        self.spent += games * len(points) * len(spec.players)
        return read_rows(out, spec, [name for name, _ in points])


def read_rows(out: Path, spec: Spec, variants: list[str]) -> dict[str, np.ndarray]:
    """Each variant's games x rows win credits of a run (a tie for first shares the win), the player counts'
    games one after the other in game order: the same game in the same row for every variant (common seeds)."""
    run = load_run(out)
    res: dict[str, np.ndarray] = {}
    idx_of: dict[int, np.ndarray] = {}
    for v in variants:
        blocks = []
        for n in spec.players:
            cols = [j for j, r in enumerate(spec.rows) if r[0] == n]
            idx, m = game_rates(run.games_of(v).filter(pl.col("players") == n), [spec.rows[j][1:] for j in cols])
            if n in idx_of and not np.array_equal(idx, idx_of[n]):
                raise RuntimeError(f"{out}: variant {v} holds other games than the first variant at {n} players")
            idx_of[n] = idx
            full = np.full((len(idx), len(spec.rows)), np.nan)
            full[:, cols] = m
            blocks.append(full)
        res[v] = np.vstack(blocks)
    return res


def _box(knobs: list[Knob]) -> bs.Box:
    return bs.Box(anchor=[k.value for k in knobs], step=[k.step for k in knobs], lo=[k.lo for k in knobs], hi=[k.hi for k in knobs],
                  allowed=[k.allowed for k in knobs])


def _best(points: list[Point], knobs: list[Knob]) -> Point:
    return min(points, key=lambda p: (not p.met, len(p.moved(knobs)) if p.met else 0, float(p.dev @ p.dev)))


def search(spec: Spec, backend: str = "local", workers: int | None = None, resume: bool = False, progress: bool = True,
           say=print) -> Search:
    """The search (module docstring)."""
    knobs, others = spec.knobs, spec.others
    every = [*knobs, *others]
    rows, fair = row_labels(spec), fair_shares(spec)
    R, K = len(spec.rows), len(every)
    S, V = np.full((R, K), np.nan), np.full((R, K), np.nan)
    rounds = Rounds(spec, backend, workers, resume, progress, say)
    P = len(spec.players)
    cost = (KNOB_COST * spec.tolerance) ** 2

    def measure(tag: str, r: int, at: dict, probed: list[int], games: int) -> Point:
        names = ["point", *(f"probe-{every[j].key}" for j in probed)]
        vals = [at, *({**at, every[j].key: probe_value(every[j], at[every[j].key])} for j in probed)]
        m = rounds.play(tag, list(zip(names, vals, strict=True)), games)
        base = m["point"]
        rate, se, _ = bs.point_rates(base)
        for j, name, v in zip(probed, names[1:], vals[1:], strict=True):
            h = v[every[j].key] - at[every[j].key]
            S[:, j], V[:, j] = bs.sensitivity(base, m[name], h)
        p = Point(r, dict(at), games, rate, se, rate - fair, spec.tolerance)
        if progress:
            worst = int(np.argmax(np.abs(p.dev)))
            say(f"  measured: {'within' if p.met else 'out of'} +-{100 * spec.tolerance:g} points; furthest: {rows[worst]} "
                f"{100 * p.rate[worst]:.1f}% ({100 * p.dev[worst]:+.1f} points)")
        return p

    at = {k.key: k.value for k in every}
    g0 = planned_games(spec)
    points = [measure("0", 0, at, list(range(len(knobs))), g0)]
    reserve = DIAGNOSE_SHARE * spec.budget if others else 0.0
    records = [{"round": 0, "games": g0, "point": points[0].values, "probed": [k.key for k in knobs]}]
    box = _box(knobs)
    for r in range(1, spec.rounds + 1):
        best = _best(points, knobs)
        if best.met:
            break
        x = np.array([best.values[k.key] for k in knobs], float)
        Sk, Vk = np.nan_to_num(S[:, : len(knobs)]), np.nan_to_num(V[:, : len(knobs)])
        step = bs.linear_step(best.dev, Sk, Vk, x, box, spec.tolerance, cost, TRUST * np.array([k.probe for k in knobs], float))
        new = {**best.values, **{k.key: _typed(k, v) for k, v in zip(knobs, step.values, strict=True)}}
        rec = {"round": r, "from_round": best.round, "chosen": [knobs[j].key for j in step.chosen], "point": new,
               "predicted_max_deviation": float(np.max(np.abs(step.predicted)))}
        if any(p.values == new for p in points):
            records.append(rec | {"games": 0, "stopped": "the step proposes a point already measured (converged)"})
            break
        moved = [j for j, k in enumerate(knobs) if new[k.key] != k.value]
        g = min(g0, round_games((spec.budget - rounds.spent - reserve) / (spec.rounds - r + 1), 1 + len(moved), P))
        if g < MIN_GAMES:
            records.append(rec | {"games": 0, "stopped": "the budget left pays for too few games"})
            break
        if progress:
            say("  step: " + (", ".join(f"{short(k.key)} {best.values[k.key]} -> {new[k.key]}" for k in knobs
                                         if new[k.key] != best.values[k.key]) or "no knob moves"))
        points.append(measure(str(r), r, new, moved, g))
        records.append(rec | {"games": g, "probed": [knobs[j].key for j in moved]})
    best = _best(points, knobs)
    needed = []
    if not best.met:
        if others:
            g = round_games(spec.budget - rounds.spent, 1 + len(others), P)
            if g >= MIN_GAMES:
                if progress:
                    say(f"  out of reach: measuring the {len(others)} knobs the spec does not allow, at the best point")
                measure("diagnose", len(records), best.values, list(range(len(knobs), K)), g)
                records.append({"round": "diagnose", "games": g, "point": best.values, "probed": [k.key for k in others]})
        xs = np.array([best.values[k.key] for k in every], float)
        needed = bs.needed_knobs(best.dev, np.nan_to_num(S), np.nan_to_num(V), xs, _box(every), np.array([k.probe for k in every], float),
                                 spec.tolerance)
        for n in needed:
            n["row"] = rows[n["row"]]
            if n["knob"] is not None:
                n["knob"] = every[n["knob"]].key
    return Search(spec, points, S, V, records, best, needed, rounds.spent)
