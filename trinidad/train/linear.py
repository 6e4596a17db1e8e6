"""``trinidad train``: the search family's linear evaluation (strategies.value_model), learned by self-play
in expert-iteration generations.

Each generation:

1. the incumbent search player plays ``games`` games against itself (Characters drafted as the
   rules say), a share ``explore`` of the seats played by explorers (the incumbent with its
   holdings' weights moved at random, strategies.value_model.explorer_model: without them a holding
   no seat values, such as metal for a Palace, never varies and its worth cannot be learned), and
   every seat's value features are recorded at the end of each decade (inside the jitted loop:
   ``play_batch(features=True)``), with the seat's final VP as the target, or with ``lam`` < 1 a
   TD(lambda) target bootstrapped from the incumbent's model (:func:`td_targets`: the next decade's
   predicted final VP, mixed with the real one; in the first Era the features explain about 5% of
   the final VP's variance, so a fit to the outcome alone there follows noise);
2. a candidate model is fitted on the positions of every generation so far: one ridge regression
   per Era still to come, shrunk toward the prior and with the monotone weights bounded below by 0
   (scipy ``lsq_linear``), games split 80/20 to measure it held out (R^2 of the targets and how
   often the predicted leader is the real winner);
3. the candidate plays the incumbent, two seats each and seats rotated on common seeds, in batches
   until Wald's SPRT (analysis.stats.sprt, on the per-seed difference of the two sides' win
   shares) decides: it is promoted only when it is better (H1 "+"); otherwise the incumbent stays
   and the next generation adds more positions.

Everything is a pure function of the seed (games by sim.rng seeds, the fit deterministic): the same
command writes the same value file, on any number of threads. The result is a value file
(strategies/values/*.toml) with its provenance, which a search strategy file names in
``[search] value``.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from strategies.value_model import N_STAGES, N_VF, VF, VF_NAMES, lower_bounds, prior_model
from trinidad.train.selfplay import TrainError, challenge, td_returns, verdict


@dataclass
class Generation:
    """One generation's record (in the value file's provenance)."""

    gen: int
    games: int
    positions: int
    r2: list[float]
    winner_accuracy: list[float]
    sprt: str
    sprt_games: int
    candidate_share: float
    promoted: bool
    # the generation's fitted candidate, promoted or not (trinidad train --keep-candidates writes it); not in the log
    candidate: np.ndarray | None = field(default=None, repr=False)


@dataclass
class TrainResult:
    model: np.ndarray
    generations: list[Generation] = field(default_factory=list)
    seconds: float = 0.0


PLANT_DEFAULT = "city_plan"  # trinidad train --plant-as: what a planted seat plays unless told


def plant_row(row: np.ndarray, plant_as: str) -> np.ndarray:
    """The W row of a planted seat (``trinidad train --plant-as``): ``row`` pushed into a commitment, then its own
    play. ``plant_as`` is a probe option (trinidad.probe.parse_option: ``city_plan``, the plan to a Palace;
    ``build_house``, one House at the first legal chance and free play after it, the issue's "early commitment,
    then play on freely"; any main action or Major building) or ``value:FEATURE=VP,...``, a value bonus
    (trinidad.probe.parse_bonus: the search with those weights raised in every Era, so it builds what they price
    and plays as well as the search does everywhere else). Raises TrainError on text that names neither."""
    from trinidad.probe import ProbeError, bonus_weights, parse_bonus, parse_option, probe_weights

    try:
        if plant_as.strip().lower().startswith("value:"):
            return bonus_weights(row[None, :], parse_bonus(plant_as.strip()[len("value:"):]), "the trained strategy")[1]
        return probe_weights(row[None, :], parse_option(plant_as))[1]
    except ProbeError as e:
        raise TrainError(f"plant-as: {e}") from None


def positions(rules, row: np.ndarray, games: int, seed: int, players: int, threads: int | None,
              explore: float = 0.0, sigma: float = 1.0, plant: float = 0.0, explore_city: bool = False,
              plant_as: str = PLANT_DEFAULT):
    """Self-play of the search strategy ``row``: (X, y, stage, game, winners, planted) with one row per seat x
    decade (the last decade left out: its value is the final VP itself). With ``explore`` > 0 each
    seat is, with that probability, an explorer: ``row`` with its model's holding weights moved at
    random (strategies.value_model.explorer_model, ``sigma``), one of 8 explorers drawn per
    generation (``explore_city``: their City district weights moved too, :func:`explorer_rows`); seats and
    explorers are drawn from ``seed``. With ``plant`` > 0 each seat is, with
    that probability (drawn apart, so ``plant`` 0 leaves the games as they were; a planted seat is
    no explorer), ``row`` playing ``plant_as`` (:func:`plant_row`; by default
    the City plan, strategies.forced_play: Lot > House > metal > Palace at each first chance): positions in
    which Houses, metal and Palaces are held, whose worth explorers of the weights alone never show
    when no seat of the population builds them. ``planted``: 1 on a planted seat's rows."""
    from sim.rng import player_seeds
    from sim.rules import RK
    from sim.schema import RG
    from strategies.value_model import stage_of
    from trinidad.batch import play_batch

    seeds = player_seeds(seed, players, 0, games)
    rows = [row]
    strat = np.zeros((games, players), np.int32)
    planted = np.zeros((games, players), bool)
    if explore > 0:
        rng = np.random.default_rng([seed, 7])
        rows += explorer_rows(row, sigma, rng, explore_city)
        pick = rng.random((games, players)) < explore
        strat = np.where(pick, rng.integers(1, N_EXPLORERS + 1, (games, players)), 0).astype(np.int32)
    if plant > 0:
        rows.append(plant_row(row, plant_as))
        planted = np.random.default_rng([seed, 11]).random((games, players)) < plant
        strat = np.where(planted, len(rows) - 1, strat).astype(np.int32)
    _, gam, feats = play_batch(rules, np.stack(rows), players, seeds, strat, threads=threads, features=True)
    last = int(rules.k[RK.DECADES])
    X, y, stg, gid, pl = [], [], [], [], []
    for d in range(1, last):
        X.append(feats[:, d - 1, :players, :].reshape(-1, N_VF))
        y.append(gam[:, :players, RG.VP].reshape(-1).astype(np.float64))
        stg.append(np.full(games * players, stage_of(rules, d), np.int64))
        gid.append(np.repeat(np.arange(games), players))
        pl.append(planted.reshape(-1))
    return (np.concatenate(X), np.concatenate(y), np.concatenate(stg), np.concatenate(gid), gam[:, :players, RG.WINNER],
            np.concatenate(pl))


N_EXPLORERS = 8  # explorer models per generation (trinidad train --explore)
# The City's district features (trinidad train --explore-city): strategies.value_model.EXPLORE_SCALE predates
# them, so an explorer never moved them, and an evaluation started from a model without them (the old chain's
# strategies/values/search.toml has none: they are 0 there) learns none of them when no seat builds: a
# House's worth in a district the seat holds stays unseen (docs/notebook/network.md, the evaluations behind the
# disagreement). The same units as EXPLORE_SCALE: about one unit's VP at the table, a building more in the
# seat's best district (a House there scores up to that count + Faith), a VP of district value, a VP of
# Lots-as-Houses, one building more the seat can activate. Kept here, not in EXPLORE_SCALE, so that the
# commands of the shipped value files, which drew without them, still draw the same explorers.
CITY_EXPLORE_SCALE = {VF.DISTRICT_OWN: 2.0, VF.BEST_DISTRICT: 1.0, VF.LOTS_HOUSE_VP: 1.0, VF.ACTIVATABLE: 1.0}


def explorer_rows(row: np.ndarray, sigma: float, rng: np.random.Generator, city: bool = False) -> list[np.ndarray]:
    """:data:`N_EXPLORERS` copies of the search row ``row``, each with its linear model's holding weights
    moved at random (strategies.value_model.explorer_model, ``sigma``), drawn from ``rng`` in turn; with
    ``city`` also its :data:`CITY_EXPLORE_SCALE` weights, in the same way (one draw a feature, every Era,
    kept within strategies.value_model.lower_bounds), drawn after the explorer's others."""
    from strategies.registry import set_value_model, value_model
    from strategies.value_model import explorer_model

    base = value_model(row)
    out = []
    for _ in range(N_EXPLORERS):
        m = explorer_model(base, sigma, rng)
        if city:
            m = explorer_model(m, sigma, rng, CITY_EXPLORE_SCALE)
        out.append(set_value_model(row, m))
    return out


def td_targets(X: np.ndarray, y: np.ndarray, stage: np.ndarray, games: int, players: int, model: np.ndarray,
               lam: float) -> np.ndarray:
    """The fit's targets for one generation's positions, laid out as :func:`positions` returns them
    (decade-major, then game, then seat; ``y`` the seat's final VP in every decade's block): with
    ``lam`` 1 the final VP itself, else the TD(lambda) return (:func:`td_returns`) bootstrapped from
    ``model``'s predicted final VP of the seat's next decade-end position (each position by its own
    Era's model, as the search reads a leaf)."""
    y = np.asarray(y, np.float64)
    if lam >= 1.0:
        return y.copy()
    T = len(y) // (games * players)
    V = np.einsum("rf,rf->r", X, model[stage]).reshape(T, games, players).transpose(1, 0, 2)
    z = y.reshape(T, games, players)[0]
    return td_returns(V, z, lam).transpose(1, 0, 2).reshape(-1)


def fit(X, y, stage, game, winners, alpha: float, prior: np.ndarray, holdout: float = 0.2,
        fixed: dict[int, float] | None = None, nuisance: np.ndarray | None = None):
    """Per-stage ridge models on the first (1 - holdout) of the games, shrunk toward ``prior`` (a
    feature the games never vary, such as Palaces before anyone builds one, keeps the prior's weight
    instead of falling to 0) and with the monotone weights >= 0; returns
    (model, R^2 per stage, winner accuracy per stage) measured on the held-out games.
    ``winners``: [games, players] 0/1. ``fixed``: {feature: weight} kept at that weight in every
    stage, not fitted (their part of the target is taken out first): a feature whose worth the rules
    fix, such as the City VP in hand, which a free fit credits with whatever goes with it.
    ``nuisance``: per row, 1 where the row's seat played by a plan (a planted seat): a column of its
    own in the regression, unbounded and left out of the model, so that what a plan does to a seat's
    final VP is not credited to the holdings that go with it."""
    from scipy.optimize import lsq_linear
    from sklearn.metrics import r2_score

    n_games = winners.shape[0]
    players = winners.shape[1]
    cut = int(round(n_games * (1 - holdout)))
    lo = lower_bounds()
    model = np.maximum(np.asarray(prior, np.float64), lo)  # a prior outside the bounds starts on them
    fixed = fixed or {}
    free = np.array([f for f in range(N_VF) if f not in fixed], np.int64)
    for f, v in fixed.items():
        model[:, f] = v
    y_fixed = y - (X[:, list(fixed)] @ np.array(list(fixed.values()), np.float64) if fixed else 0.0)
    r2, acc = [], []
    for s in range(N_STAGES):
        m = stage == s
        tr = m & (game < cut)
        te = m & (game >= cut)
        if tr.sum() < 4 * N_VF:
            r2.append(float("nan"))
            acc.append(float("nan"))
            continue  # too few positions: the stage keeps the prior
        # ridge toward the prior (min |X w - y|^2 + alpha |w - prior|^2) with the monotone weights
        # bounded below by 0 (strategies.value_model.lower_bounds): a least-squares problem on the
        # stacked system, solved with its bounds by scipy
        k = len(free)
        extra = 0 if nuisance is None else 1
        cols = X[tr][:, free] if not extra else np.column_stack([X[tr][:, free], nuisance[tr].astype(np.float64)])
        a = np.vstack([cols, np.sqrt(alpha) * np.eye(k + extra)])
        b = np.concatenate([y_fixed[tr], np.sqrt(alpha) * model[s, free], np.zeros(extra)])
        lb = np.concatenate([lo[free], np.full(extra, -np.inf)])
        sol = lsq_linear(a, b, bounds=(lb, np.inf), method="bvls").x
        model[s, free] = sol[:k]
        plan_effect = sol[k] if extra else 0.0
        if te.sum() == 0:
            r2.append(float("nan"))
            acc.append(float("nan"))
            continue
        pred = X[te] @ model[s] + (plan_effect * nuisance[te] if extra else 0.0)
        r2.append(float(r2_score(y[te], pred)))
        # rows come in blocks of `players` seats of one game and decade: is the predicted leader a winner?
        p = pred.reshape(-1, players)
        g = game[te].reshape(-1, players)[:, 0]
        lead = np.argmax(p, axis=1)
        acc.append(float(np.mean(winners[g, lead] == 1)))
    return model, r2, acc


def fixed_weights(items: list[str]) -> dict[int, float]:
    """``trinidad train --fix``'s FEATURE=WEIGHT items as {feature: weight}. FEATURE is a value feature's
    name (strategies.value_model.VF_NAMES) or a shell-style pattern naming several: ``ch_*=0`` keeps every
    Character's weight at 0, an evaluation that never reads which Character a seat holds (as
    ``[search] character_weights = false`` plays a trained one, strategies.registry.character_blind)."""
    from fnmatch import fnmatchcase

    out: dict[int, float] = {}
    for item in items:
        name, eq, val = item.partition("=")
        hits = [f for f, n in enumerate(VF_NAMES) if fnmatchcase(n, name.strip())]
        try:
            weight = float(val)
        except ValueError:
            weight = None
        if not eq or not hits or weight is None:
            raise TrainError(f"fix: expected FEATURE=WEIGHT with FEATURE one of {', '.join(VF_NAMES)} or a pattern "
                             f"such as ch_*, got {item!r}")
        out.update(dict.fromkeys(hits, weight))
    return out


def train(rules, base_row: np.ndarray, generations: int, games: int, seed: int, players: int = 4,
          duel_games: int = 2000, duel_batch: int = 200, delta: float = 0.1, alpha: float = 1.0,
          init: np.ndarray | None = None, threads: int | None = None, explore: float = 0.0,
          sigma: float = 1.0, plant: float = 0.0, fixed: dict[int, float] | None = None, lam: float = 1.0,
          explore_city: bool = False, plant_as: str = PLANT_DEFAULT,
          say: Callable[[str], None] | None = None) -> TrainResult:
    """Expert iteration (see the module's docstring). ``base_row``: the search strategy's W row (its
    budget and base weights); ``init``: the generation-0 model (default the prior); ``plant``: the
    share of self-play seats planted (:func:`positions`; never in the duels), playing ``plant_as``
    (:func:`plant_row`; default the City plan); ``explore_city``:
    the explorers move the City's district weights too (:func:`explorer_rows`);
    ``fixed``: weights kept, not fitted (:func:`fit`): every candidate carries them, and so does the
    generation-0 model. ``lam``: TD(lambda)'s lambda of the targets (:func:`td_targets`, recomputed each
    generation for every generation's positions by the newest incumbent); 1, the final VP alone."""
    from strategies.registry import set_value_model

    if generations < 1:
        raise TrainError(f"generations: must be >= 1, got {generations}")
    if games < 10:
        raise TrainError(f"games: must be >= 10, got {games}")
    if not 0.0 <= explore < 1.0:
        raise TrainError(f"explore: must be in [0, 1), got {explore}")
    if not sigma > 0:
        raise TrainError(f"explore-sigma: must be > 0, got {sigma}")
    if not 0.0 <= plant < 1.0:
        raise TrainError(f"plant: must be in [0, 1), got {plant}")
    if plant > 0:
        plant_row(base_row, plant_as)  # refuse a bad --plant-as before any game is played
    if not 0.0 <= lam <= 1.0:
        raise TrainError(f"lambda: must be in [0, 1], got {lam}")
    t0 = time.perf_counter()
    from strategies.weights import N_WEIGHTS

    model = prior_model(base_row[:N_WEIGHTS]) if init is None else np.asarray(init, np.float64).copy()
    for f, v in (fixed or {}).items():
        if not (v >= lower_bounds()[f] and np.isfinite(v)):
            raise TrainError(f"fix: {VF_NAMES[f]} = {v} is below its least weight {lower_bounds()[f]}")
        model[:, f] = v  # the generation-0 incumbent carries them too: an --init fitted without them is held to them
    prior = model.copy()
    res = TrainResult(model=model)
    pool_X, pool_y, pool_s, pool_g, pool_w, pool_p = [], [], [], [], [], []
    offset = 0
    for gen in range(1, generations + 1):
        row = set_value_model(base_row, res.model)
        X, y, stg, gid, win, planted = positions(rules, row, games, seed * 1000 + gen, players, threads, explore, sigma, plant,
                                                       explore_city, plant_as)
        pool_p.append(planted)
        pool_X.append(X)
        pool_y.append(y)
        pool_s.append(stg)
        pool_g.append(gid + offset)
        pool_w.append(win)
        offset += games
        # held out: the last fifth of the newest generation's games (every older game trains)
        allg = np.concatenate(pool_g)
        targets = [td_targets(Xg, yg, sg, games, players, res.model, lam) for Xg, yg, sg in zip(pool_X, pool_y, pool_s)]
        cand, r2, acc = fit(np.concatenate(pool_X), np.concatenate(targets), np.concatenate(pool_s), allg,
                            np.concatenate(pool_w), alpha, prior, holdout=0.2 * games / offset, fixed=fixed,
                            nuisance=np.concatenate(pool_p) if plant > 0 else None)
        decision, played, share, promoted = challenge(rules, set_value_model(base_row, cand), row, duel_games, duel_batch, seed, gen,
                                                      players, delta, threads)
        if promoted:
            res.model = cand
        res.generations.append(Generation(gen, games, int(len(y)), r2, acc, decision, played, share, promoted, cand))
        if say:
            say(f"generation {gen}: {len(y):,} positions, held-out R2 {', '.join(f'{v:.3f}' for v in r2)}, "
                f"leader is the winner {', '.join(f'{v:.1%}' for v in acc)}; {verdict(share, played, decision, promoted)}")
    res.seconds = time.perf_counter() - t0
    return res


def _toml_value(v) -> str:
    """A provenance value as TOML: JSON's scalars, strings and arrays are TOML too, but a JSON object
    is not (``{"vp": 1.0}``), so a table is written inline with ``=`` (``{"vp" = 1.0}``)."""
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, float) and not np.isfinite(v):
        # JSON writes NaN / Infinity, which TOML refuses; TOML's own are nan / inf (a stage with too
        # few positions to fit has no held-out R^2)
        return "nan" if v != v else ("inf" if v > 0 else "-inf")
    return json.dumps(v)


def init_record(init: Path | None, prov: dict) -> dict:
    """What a trained value file records of the file it started from: its content hash and its own
    provenance, so a chain of trainings can be followed back to the prior."""
    if init is None:
        return {}
    return {"init_sha256": hashlib.sha256(init.read_bytes()).hexdigest(), "init_provenance": json.dumps(prov, sort_keys=True)}


def write_value_file(path: Path, res: TrainResult, provenance: dict) -> Path:
    """The value file: one table per stage (feature = weight) and the provenance."""
    lines = ["# The search family's evaluation (strategies.value_model), written by `trinidad train`; not typed by hand.",
             "# One linear model per Era still to come: predicted final VP = sum of weight x feature.", ""]
    for s in range(N_STAGES):
        lines.append(f"[stage{s + 1}]")
        for f, name in enumerate(VF_NAMES):
            lines.append(f"{name} = {float(res.model[s, f])!r}")
        lines.append("")
    lines.append("[provenance]")
    for k, v in provenance.items():
        lines.append(f"{k} = {_toml_value(v)}")
    gens = [
        {"gen": g.gen, "games": g.games, "positions": g.positions, "held_out_r2": [round(x, 4) for x in g.r2],
         "held_out_winner_accuracy": [round(x, 4) for x in g.winner_accuracy], "sprt": g.sprt, "sprt_games": g.sprt_games,
         "candidate_win_share": round(g.candidate_share, 4), "promoted": g.promoted}
        for g in res.generations
    ]
    lines.append(f"generation_log = {json.dumps(json.dumps(gens))}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")
    return path
