"""The search of ``trinidad balance`` (trinidad.balance): rounds of paired games on the search's seeds, each
an experiment of the spec's game played by the runner (:func:`trinidad.runner.run.run_experiment`, local
threads or Ray) into OUT/search/round-<r>, read into each target row's observations game by game (win credits,
:func:`analysis.sequential.game_rates`; a record held), beside, where the target holds the player's beat rate
against the Solo A.I., the Solo games of every variant at each strength it names (:func:`trinidad.ai_scale.solo_credits`,
into OUT/search/round-<r>/solo.parquet), and the linearised steps of :mod:`analysis.balance_search`.

1. Round 0 plays the rules' values (the *point*) and, for every knob the spec allows, the point with that
   knob moved by its probe (up, or down where up leaves the bounds): each knob's sensitivity on every row by
   paired finite differences (the same deals in every variant). Every round plays as many games a variant,
   player count and A.I. strength (:func:`trinidad.balance.spec.planned_games`: the budget over the variants
   planned, a confirming round planned with PLANNED_MOVES knobs moved), a round that moves more knobs fewer,
   within its share of what is left.
2. A step (:func:`analysis.balance_search.linear_step`) from the best point measured so far proposes new values
   with as few knobs moved as the linear model needs to bring every row into its band (the squared excess beyond
   the bands first, the squared deviation from the centres the tie-break), each knob moved at most TRUST probes
   (where the model was measured; the next round measures it again where it lands).
3. A confirming round plays the proposal and, beside it, a probe of each knob it moves (their sensitivities
   measured again where they now are: the model re-linearised); then step 2 again. The rounds stop early when
   a point measured is in every band, when the step proposes a point already played (converged), or when the
   budget left pays for too few games.
4. Where the best point is still out of the target, the game's knobs the spec did not allow are probed
   beside it (DIAGNOSE_SHARE of the budget is kept for this): the knob each row out of reach would need
   (:func:`analysis.balance_search.needed_knobs`).
5. The recheck (``recheck_games`` a variant, default the verification's; beyond the budget, as the verification
   is): the best point of the rounds played again on as many deals as the verification plays, of a seed of its
   own (none of the rounds' deals, on which that point was chosen: its rates there are the luckiest of the
   points measured), then up to ``recheck_steps`` steps (2.; default 1), each from the best point the recheck
   has read, played on the same deals; the proposal is the best of them there (:func:`rank`), and the rows out
   of reach are read at it. The recheck stops early where its best point is in every band or a step proposes a
   point it has read. The rounds measure a point on a few hundred deals (+-7 points a Character at 4 players
   against a band of +-4, the worked study); the recheck reads it as the verification will, and its steps start
   from those rates.

The best point (:func:`rank`): one measured in every band, with the fewest knobs moved, then the least squared
deviation; else the least squared excess beyond the bands, then the least squared deviation. Every round plays
the same master seed (:meth:`Spec.derived_seed`: game i of n players, and Solo game i, has the same deal in every
round and variant), so points are compared on the same deals (the recheck's points on the recheck's); nothing reads
the clock or the number of workers, and the tables of a run (and the Solo games) are the same on any number of
workers: the same spec and seed give the same proposal."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis import balance_search as bs
from analysis.data import load_run
from analysis.sequential import game_rates
from trinidad.balance.spec import DIAGNOSE_SHARE, MIN_GAMES, RECHECK, SEARCH, Knob, Row, Spec, planned_games, round_games
from trinidad.games.sweeps import short
from trinidad.runner.run import run_experiment

KNOB_COST = 0.5  # a knob moved costs J as much as one row off its centre by half the tolerance: it must earn more than that to move
TRUST = 2  # a step moves a knob at most this many probes from where it was measured (the linear model's trust region)
SOLO_FILE = "solo.parquet"  # a round's (or the verification's) Solo games: variant, strength, game, the player's credit


@dataclass
class Point:
    """A point measured: its round (an int; the recheck's points "recheck", "recheck step", "recheck step 2" ...),
    every knob's value, the games a variant (per player count and A.I. strength), each row's rate, its standard
    error, and the rows' bands."""

    round: int | str
    values: dict
    games: int
    rate: np.ndarray
    se: np.ndarray
    band: bs.Band

    @property
    def excess(self) -> np.ndarray:
        return self.band.excess(self.rate)

    @property
    def dev(self) -> np.ndarray:
        """Each row's deviation from its centre (0 where it has none)."""
        return self.band.deviation(self.rate)

    @property
    def met(self) -> bool:
        return self.band.inside(self.rate)

    def moved(self, knobs: list[Knob]) -> list[str]:
        return [k.key for k in knobs if self.values[k.key] != k.value]

    def to_dict(self, rows: list[str], knobs: list[Knob]) -> dict:
        ex, dev = self.excess, self.dev
        return {"round": self.round, "games": self.games, "values": {k.key: self.values[k.key] for k in knobs}, "moved": self.moved(knobs),
                "met": self.met, "max_excess": float(np.max(np.abs(ex), initial=0.0)), "squared_excess": float(ex @ ex),
                "max_deviation": float(np.max(np.abs(dev), initial=0.0)), "squared_deviation": float(dev @ dev),
                "rates": [{"row": r, "rate": float(a), "se": float(s), "deviation": float(d), "excess": float(e), "lo": float(lo),
                           "hi": float(hi)}
                          for r, a, s, d, e, lo, hi in zip(rows, self.rate, self.se, dev, ex, self.band.lo, self.band.hi, strict=True)]}


@dataclass
class Search:
    """What the search found: the points measured by the rounds, the sensitivities (rows x knobs, the allowed knobs
    then the others; NaN where never measured), each round's record, the best point (the recheck's better point
    where it played), the rows still out and the knob each would need, and the games spent by the rounds (of them
    against the Solo A.I.); the recheck's points, its record and its games."""

    spec: Spec
    points: list[Point]
    S: np.ndarray
    V: np.ndarray
    rounds: list[dict]
    best: Point
    needed: list[dict] = field(default_factory=list)
    spent: int = 0
    solo_spent: int = 0
    rechecked: list[Point] = field(default_factory=list)
    recheck: dict = field(default_factory=dict)
    recheck_spent: int = 0

    @property
    def proposal(self) -> dict:
        """The best point's values of the knobs it moves."""
        return {k: self.best.values[k] for k in self.best.moved(self.spec.knobs)}


def row_labels(spec: Spec, rows: list[Row] | None = None) -> list[str]:
    """A target row as the summary names it: its label, and its player count where the target has several (the
    Solo A.I.'s rows are the Solo game's)."""
    many = len(spec.players) > 1
    return [f"{r.label} ({r.players}p)" if many and r.kind != "ai" else str(r.label) for r in (spec.rows if rows is None else rows)]


def spec_band(spec: Spec, rows: list[Row] | None = None) -> bs.Band:
    rows = spec.rows if rows is None else rows
    return bs.Band([r.lo for r in rows], [r.hi for r in rows], [r.centre for r in rows])


def _typed(k: Knob, v: float):
    """A value on the knob's grid, as the rules number's type (an integer stays an integer)."""
    return int(round(v)) if isinstance(k.value, int) else round(float(v), 12)


def probe_value(k: Knob, x):
    """Where a knob at ``x`` is probed: a probe up, or down where up leaves the bounds, or as far as the bounds allow."""
    for h in (k.probe, -k.probe):
        if k.lo <= x + h <= k.hi:
            return _typed(k, x + h)
    return k.hi if k.hi - x >= x - k.lo else k.lo


def multi_rows(rows: list[Row]) -> bool:
    """Whether the rows read the runs' multi-player games (all but the Solo A.I.'s)."""
    return any(r.kind != "ai" for r in rows)


def play_solo(spec: Spec, out: Path, player: str, points: list[tuple[str, dict]], games: int, seed: int, strengths: list[str],
              threads: int | None) -> dict[str, dict[str, np.ndarray]]:
    """Each point's Solo games against the A.I. at each of ``strengths`` (:func:`trinidad.ai_scale.solo_credits`: the
    same seeds and deal for every point, so a probe pairs with its point game by game): {point: {strength: the
    player's credit in each game}}. Kept in ``out``/solo.parquet with what they were played for: a resumed search
    reads them again rather than playing them twice."""
    from trinidad.ai_scale import solo_credits

    key = {"player": player, "games": games, "seed": seed, "strengths": strengths,
           "points": {name: spec.overrides_at(values) for name, values in points}, "rules_file": spec.rules_file}
    path, meta = out / SOLO_FILE, out / "solo.json"
    if path.exists() and meta.exists() and json.loads(meta.read_text()) == json.loads(json.dumps(key)):
        t = pl.read_parquet(path)
        return {name: {s: t.filter((pl.col("variant") == name) & (pl.col("strength") == s)).sort("game")["credit"].to_numpy()
                       for s in strengths} for name, _ in points}
    res, frames = {}, []
    for name, values in points:
        c = solo_credits(player, games, seed, strengths, threads, spec.rules_file, spec.overrides_at(values))
        res[name] = {s: c[s][:, 0] for s in strengths}
        frames += [pl.DataFrame({"variant": name, "strength": s, "game": np.arange(games), "credit": res[name][s]}) for s in strengths]
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / (SOLO_FILE + ".tmp")
    pl.concat(frames).write_parquet(tmp)
    tmp.replace(path)  # complete or absent: a search interrupted while writing plays them again
    meta.write_text(json.dumps(key, indent=1) + "\n")
    return res


class Rounds:
    """Plays a round's points as one experiment of the spec's game on the search's seed (and their Solo games where
    the target holds the A.I.), and reads each variant's games x rows observations (rows: the spec's, count by count,
    then strength by strength; NaN in another block's columns)."""

    def __init__(self, spec: Spec, backend: str, workers: int | None, resume: bool, progress: bool, say):
        self.spec, self.backend, self.workers, self.resume, self.progress, self.say = spec, backend, workers, resume, progress, say
        self.spent = self.solo_spent = 0

    def play(self, tag: str, points: list[tuple[str, dict]], games: int, purpose: int = SEARCH) -> dict[str, np.ndarray]:
        spec = self.spec
        seed = spec.derived_seed(purpose)
        out = spec.out / "search" / f"round-{tag}"
        strengths = spec.strengths
        if self.progress:
            what = [f"{len(spec.players)} player count{'s' if len(spec.players) > 1 else ''}"] if multi_rows(spec.rows) else []
            what += [f"{len(strengths)} Solo A.I. strength{'s' if len(strengths) > 1 else ''}"] if strengths else []
            self.say(f"round {tag}: {len(points)} variant{'s' if len(points) > 1 else ''} x {games:,} games x ({' + '.join(what)}) ({out})")
        if multi_rows(spec.rows):
            variants = [{"name": name, "overrides": spec.overrides_at(values)} for name, values in points]
            doc = spec.experiment_doc(f"{spec.name}-round-{tag}", out, games, seed, spec.player, variants)
            exp = spec.game.experiment(doc, str(spec.path))
            run_experiment(exp, backend=self.backend, workers=self.workers, resume=self.resume and (out / "manifest.json").exists(),
                           progress=False, say=self.say, ai_games=0)
            self.spent += games * len(points) * len(spec.players)
        solo = None
        if strengths:
            # the Solo games play on this machine's threads, as a run's A.I. table does (trinidad run --ai-games), under Ray too
            solo = play_solo(spec, out, spec.player, points, games, seed, strengths,
                             self.workers if self.backend == "local" else None)
            n = games * len(points) * len(strengths)
            self.spent += n
            self.solo_spent += n
        return read_rows(out, spec, [name for name, _ in points], solo)


def _observations(games: pl.LazyFrame, rows: list[Row]) -> tuple[np.ndarray, np.ndarray]:
    """Per game of one variant's games at one player count, each row's observation (:class:`Row`): a win rate's win
    credit (:func:`analysis.sequential.game_rates`), a record held (1 or 0 by game, the share of seats by seat).
    Returns (the game indices, ascending; the games x rows matrix)."""
    idx = np.unique(games.select("game").collect()["game"].to_numpy())
    m = np.full((len(idx), len(rows)), np.nan)
    wins = [j for j, r in enumerate(rows) if r.kind in ("groups", "seats")]
    if wins:
        gi, w = game_rates(games, [(rows[j].column, rows[j].value, rows[j].label) for j in wins])
        if not np.array_equal(gi, idx):
            raise RuntimeError("a win rate's games are not the table's")
        m[:, wins] = w
    for j, r in enumerate(rows):
        if r.kind != "records":
            continue
        held = (pl.col(r.column) >= r.value).cast(pl.Float64)
        t = games.group_by("game").agg((held.max() if r.per == "game" else held.mean()).alias("x")).collect()
        m[np.searchsorted(idx, t["game"].to_numpy()), j] = t["x"].to_numpy()
    return idx, m


def read_rows(out: Path, spec: Spec, variants: list[str], solo: dict[str, dict[str, np.ndarray]] | None = None,
              rows: list[Row] | None = None) -> dict[str, np.ndarray]:
    """Each variant's games x rows observations: the multi-player rows from the run in ``out`` (the player counts'
    games one after the other in game order), then the Solo A.I.'s rows from ``solo`` (:func:`play_solo`, strength
    after strength): the same game in the same row for every variant (common seeds)."""
    rows = spec.rows if rows is None else rows
    run = load_run(out) if multi_rows(rows) else None
    res: dict[str, np.ndarray] = {}
    idx_of: dict[int, np.ndarray] = {}
    for v in variants:
        blocks = []
        for n in spec.players:
            cols = [j for j, r in enumerate(rows) if r.players == n and r.kind != "ai"]
            if not cols:
                continue
            idx, m = _observations(run.games_of(v).filter(pl.col("players") == n), [rows[j] for j in cols])
            if n in idx_of and not np.array_equal(idx, idx_of[n]):
                raise RuntimeError(f"{out}: variant {v} holds other games than the first variant at {n} players")
            idx_of[n] = idx
            full = np.full((len(idx), len(rows)), np.nan)
            full[:, cols] = m
            blocks.append(full)
        for s in dict.fromkeys(r.value for r in rows if r.kind == "ai"):
            cols = [j for j, r in enumerate(rows) if r.kind == "ai" and r.value == s]
            c = solo[v][s]
            full = np.full((len(c), len(rows)), np.nan)
            full[:, cols] = c[:, None]
            blocks.append(full)
        res[v] = np.vstack(blocks) if blocks else np.empty((0, len(rows)))  # no row (a check player, only A.I. targets): no game
    return res


def _box(knobs: list[Knob]) -> bs.Box:
    return bs.Box(anchor=[k.value for k in knobs], step=[k.step for k in knobs], lo=[k.lo for k in knobs], hi=[k.hi for k in knobs],
                  allowed=[k.allowed for k in knobs])


def rank(p: Point, knobs: list[Knob]) -> tuple:
    """A point's rank, the least best: in every band first (then the fewest knobs moved); else the least squared
    excess beyond the bands (:meth:`analysis.balance_search.Band.score`); then the least squared deviation."""
    excess, deviation = p.band.score(p.rate)
    return (not p.met, 0.0 if p.met else excess, len(p.moved(knobs)) if p.met else 0, deviation)


def _best(points: list[Point], knobs: list[Knob]) -> Point:
    return min(points, key=lambda p: rank(p, knobs))


def search(spec: Spec, backend: str = "local", workers: int | None = None, resume: bool = False, progress: bool = True,
           say=print) -> Search:
    """The search (module docstring)."""
    with spec.game.engine_parts(len(spec.strengths)):  # Trinidad: the engine compiled once, with the Solo A.I. where it plays
        return _search(spec, backend, workers, resume, progress, say)


def _search(spec: Spec, backend: str, workers: int | None, resume: bool, progress: bool, say) -> Search:
    knobs, others = spec.knobs, spec.others
    every = [*knobs, *others]
    rows, band = row_labels(spec), spec_band(spec)
    R, K = len(spec.rows), len(every)
    S, V = np.full((R, K), np.nan), np.full((R, K), np.nan)
    rounds = Rounds(spec, backend, workers, resume, progress, say)
    units, block = spec.units, spec.block
    cost = (KNOB_COST * spec.tolerance) ** 2

    def measure(tag: str, r: int | str, at: dict, probed: list[int], games: int, purpose: int = SEARCH) -> Point:
        names = ["point", *(f"probe-{every[j].key}" for j in probed)]
        vals = [at, *({**at, every[j].key: probe_value(every[j], at[every[j].key])} for j in probed)]
        m = rounds.play(tag, list(zip(names, vals, strict=True)), games, purpose)
        base = m["point"]
        rate, se, _ = bs.point_rates(base)
        for j, name, v in zip(probed, names[1:], vals[1:], strict=True):
            h = v[every[j].key] - at[every[j].key]
            S[:, j], V[:, j] = bs.sensitivity(base, m[name], h)
        p = Point(r, dict(at), games, rate, se, band)
        if progress:
            ex = p.excess
            worst = int(np.argmax(np.abs(ex))) if not p.met else int(np.argmax(np.abs(p.dev)))
            say(f"  measured: {'within' if p.met else 'out of'} the target; furthest: {rows[worst]} {100 * p.rate[worst]:.1f}% "
                + (f"({100 * ex[worst]:+.1f} points beyond its band)" if not p.met else f"({100 * p.dev[worst]:+.1f} points from its centre)"))
        return p

    box = _box(knobs)

    def step_from(p: Point) -> tuple[dict, dict]:
        """The linearised step from a point measured (module docstring, 2.): the values it proposes, and its record."""
        x = np.array([p.values[k.key] for k in knobs], float)
        Sk, Vk = np.nan_to_num(S[:, : len(knobs)]), np.nan_to_num(V[:, : len(knobs)])
        step = bs.linear_step(p.rate, Sk, Vk, x, box, band, cost, TRUST * np.array([k.probe for k in knobs], float))
        new = {**p.values, **{k.key: _typed(k, v) for k, v in zip(knobs, step.values, strict=True)}}
        return new, {"from_round": p.round, "chosen": [knobs[j].key for j in step.chosen], "point": new,
                     "predicted_max_excess": float(np.max(np.abs(band.excess(step.predicted)), initial=0.0)),
                     "predicted_max_deviation": float(np.max(np.abs(band.deviation(step.predicted)), initial=0.0))}

    def say_step(p: Point, new: dict) -> None:
        if progress:
            say("  step: " + (", ".join(f"{short(k.key)} {p.values[k.key]} -> {new[k.key]}" for k in knobs
                                         if new[k.key] != p.values[k.key]) or "no knob moves"))

    at = {k.key: k.value for k in every}
    g0 = planned_games(spec)
    points = [measure("0", 0, at, list(range(len(knobs))), g0)]
    reserve = DIAGNOSE_SHARE * spec.budget if others else 0.0
    records = [{"round": 0, "games": g0, "point": points[0].values, "probed": [k.key for k in knobs]}]
    for r in range(1, spec.rounds + 1):
        best = _best(points, knobs)
        if best.met:
            break
        new, rec = step_from(best)
        rec = {"round": r} | rec
        if any(p.values == new for p in points):
            records.append(rec | {"games": 0, "stopped": "the step proposes a point already measured (converged)"})
            break
        moved = [j for j, k in enumerate(knobs) if new[k.key] != k.value]
        g = min(g0, round_games((spec.budget - rounds.spent - reserve) / (spec.rounds - r + 1), 1 + len(moved), units, block))
        if g < max(MIN_GAMES, block):
            records.append(rec | {"games": 0, "stopped": "the budget left pays for too few games"})
            break
        say_step(best, new)
        points.append(measure(str(r), r, new, moved, g))
        records.append(rec | {"games": g, "probed": [knobs[j].key for j in moved]})
    best = _best(points, knobs)
    needed = []
    if not best.met:
        if others:
            g = round_games(spec.budget - rounds.spent, 1 + len(others), units, block)
            if g >= max(MIN_GAMES, block):
                if progress:
                    say(f"  out of reach: measuring the {len(others)} knobs the spec does not allow, at the best point")
                measure("diagnose", len(records), best.values, list(range(len(knobs), K)), g)
                records.append({"round": "diagnose", "games": g, "point": best.values, "probed": [k.key for k in others]})
    spent, solo_spent = rounds.spent, rounds.solo_spent
    rechecked, recheck = [], {}
    if spec.recheck:
        # module docstring, 5.: the rounds' best point on fresh deals, then steps from what they read, on the same deals
        recheck = {"games": spec.recheck, "seed": spec.derived_seed(RECHECK), "from_round": best.round}
        if progress:
            say(f"  recheck: the best point (round {best.round}) on {spec.recheck:,} fresh deals")
        rechecked.append(measure("recheck", "recheck", best.values, [], spec.recheck, RECHECK))
        recheck["steps"] = []
        for i in range(1, spec.recheck_steps + 1):
            at_best = _best(rechecked, knobs)
            if at_best.met:
                recheck["stopped"] = "a point rechecked is within the target"
                break
            new, rec = step_from(at_best)
            if any(p.values == new for p in rechecked):
                recheck["stopped"] = "the step proposes a point the recheck has read (converged)"
                break
            recheck["steps"].append(rec)
            say_step(at_best, new)
            tag = "recheck-step" if i == 1 else f"recheck-step-{i}"  # OUT/search/round-<tag>; the point's name: "recheck step 2"
            rechecked.append(measure(tag, tag.replace("-", " "), new, [], spec.recheck, RECHECK))
        best = _best(rechecked, knobs)
        recheck["chosen"] = best.round
    if not best.met:
        xs = np.array([best.values[k.key] for k in every], float)
        needed = bs.needed_knobs(best.rate, np.nan_to_num(S), np.nan_to_num(V), xs, _box(every), np.array([k.probe for k in every], float),
                                 band)
        for n in needed:
            n["row"] = rows[n["row"]]
            if n["knob"] is not None:
                n["knob"] = every[n["knob"]].key
    return Search(spec, points, S, V, records, best, needed, spent, solo_spent, rechecked, recheck, rounds.spent - spent)
