"""``trinidad train --play``: the search evaluation's early Eras tuned on play, not fitted to the VP.

Why: the trainer of :mod:`trinidad.train.linear` fits each Era's linear model to the seats' final VP and
promotes a fit only when it beats the incumbent. In the first Eras the features predict the final VP
poorly (held-out R^2 about 0.2 in the first), and a plain fit there plays far worse than the
promoted model it was fitted from: the shipped models are selections among noisy fits, and two
training chains keep two different ones (docs/notebook/search-long.md, "Why the chains differ"). Here the
first two Eras' weights are moved toward what wins instead.

What is tuned: the weights of :data:`TUNED_STAGES` (the models used before the last Era) for every
feature of :data:`TUNED` (each one a decision can change: not the bias, the decade, the Scorings
left, the A.I. flag or the Character, which are the same for every move of one seat), in units of
one VP per standard deviation of the feature over the init's self-play positions (so a step moves
every weight's effect alike), bounded below by the trainer's least weights
(:func:`strategies.value_model.lower_bounds`). The last Era keeps the init's weights: its fit plays as
well as the selected one.

Search: :func:`trinidad.train.heuristic.es_optimize` (a separable CMA-style evolution strategy with mirrored
sampling). Fitness: a candidate's share of the wins against the init, two seats each, seats rotated
on common seeds (as :func:`trinidad.train.selfplay.duel` plays); every candidate of a generation plays the
same ``games`` deals, and each generation fresh ones (common random numbers within a generation,
no deal seen twice). Final check: the tuned model against the init on ``final_games`` deals the
search never played (:func:`trinidad.train.selfplay.duel`, the SPRT), and the file keeps the init's model
unless that check finds the tuned one better.

Everything is a pure function of the seed, on any number of threads.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from strategies.value_model import N_STAGES, UNBOUNDED, VF, lower_bounds

TUNED_STAGES = tuple(range(N_STAGES - 1))  # every Era's model but the last's (see the module docstring)
# features the same for every move of one seat at one decision (they only shift its level, or which rival leads):
# the evaluation's unbounded ones, the intercept, the clock and who the seat is
CONSTANT = set(UNBOUNDED)
TUNED = tuple(int(f) for f in VF if f not in CONSTANT)
SIGMA0 = 1.0  # initial step: one VP per standard deviation of a feature
BOUND = 10.0  # a step of at most 10 VP per standard deviation from the init (the refits moved weights by up to ~10)
SCALE_GAMES = 100  # self-play games of the init whose positions give each feature's spread
FINAL_GAMES = 800


class PlayTrainError(ValueError):
    """Bad arguments to ``trinidad train --play`` (one line, naming the option)."""


@dataclass
class PlayResult:
    model: np.ndarray  # the model written: the tuned one if the final check promoted it, else the init
    tuned: np.ndarray  # the search's final mean as a model
    promoted: bool
    final: dict  # the final check: decision, games, share
    history: list[dict] = field(default_factory=list)
    seconds: float = 0.0


def spreads(rules, row: np.ndarray, players: int, seed: int, threads: int | None, games: int | None = None) -> np.ndarray:
    """``[len(TUNED_STAGES), len(TUNED)]``: each tuned feature's standard deviation over the init's
    self-play positions of that Era (:func:`trinidad.train.linear.positions`, no explorers; ``games``,
    default :data:`SCALE_GAMES`); a feature that never varies there gets 0 and is left at its weight."""
    from trinidad.train.linear import positions

    X, _, stg, *_ = positions(rules, row, games or SCALE_GAMES, seed, players, threads)
    return np.stack([X[stg == s][:, list(TUNED)].std(axis=0) for s in TUNED_STAGES])


def model_of(init: np.ndarray, x: np.ndarray, spread: np.ndarray) -> np.ndarray:
    """The init with the tuned weights moved by ``x`` (VP per standard deviation; flat over
    TUNED_STAGES x TUNED), each weight bounded below by its least weight."""
    m = np.array(init, np.float64, copy=True)
    step = x.reshape(len(TUNED_STAGES), len(TUNED))
    inv = np.divide(1.0, spread, out=np.zeros_like(spread), where=spread > 0)
    lo = lower_bounds()[list(TUNED)]
    for i, s in enumerate(TUNED_STAGES):
        m[s, list(TUNED)] = np.maximum(m[s, list(TUNED)] + step[i] * inv[i], lo)
    return m


def shares(rules, base_row: np.ndarray, models: list[np.ndarray], init: np.ndarray, games: int, seed: int, start: int,
           players: int, threads: int | None) -> np.ndarray:
    """Each model's share of the wins against ``init`` on the same ``games`` games (two seats each,
    seats rotated: ``games // 2`` base seeds from index ``start``, each played in both rotations)."""
    from sim.rng import player_seeds
    from strategies.registry import set_value_model
    from trinidad.batch import play_batch
    from trinidad.tournament import rotations, win_credit

    k = len(models)
    nb = max(1, games // 2)
    W = np.stack([set_value_model(base_row, m) for m in models] + [set_value_model(base_row, init)])
    rot = rotations([0, 1], players)  # 0: the candidate, 1: the init
    seeds = np.tile(np.repeat(player_seeds(seed, players, start, nb), 2), k)
    strat = np.concatenate([np.where(np.tile(rot, (nb, 1)) == 0, j, k) for j in range(k)]).astype(np.int32)
    _, gam = play_batch(rules, W, players, seeds, strat, threads=threads)
    cand = (win_credit(gam, players) * (strat != k)).sum(axis=1)
    return cand.reshape(k, 2 * nb).mean(axis=1)


def train_play(rules, base_row: np.ndarray, init: np.ndarray, generations: int, games: int, seed: int, players: int = 4,
               final_games: int = FINAL_GAMES, threads: int | None = None, popsize: int = 8,
               say: Callable[[str], None] | None = None) -> PlayResult:
    """Tune TUNED_STAGES' weights of ``init`` (the evaluation of the search row ``base_row``) on
    play (the module docstring): ``generations`` generations of the ES, each candidate on ``games``
    games against ``init``; then the final check on ``final_games`` fresh games."""
    from strategies.registry import set_value_model
    from trinidad.train.heuristic import es_optimize
    from trinidad.train.selfplay import duel

    if generations < 1:
        raise PlayTrainError(f"generations: must be >= 1, got {generations}")
    if games < 2:
        raise PlayTrainError(f"games: must be >= 2, got {games}")
    if final_games < 2:
        raise PlayTrainError(f"duel-games: must be >= 2, got {final_games}")
    t0 = time.perf_counter()
    init = np.asarray(init, np.float64)
    spread = spreads(rules, set_value_model(base_row, init), players, seed * 1000 + 1, threads)
    per_gen = games // 2  # base seeds a generation

    def fitness(X: np.ndarray, g: int) -> np.ndarray:
        return shares(rules, base_row, [model_of(init, x, spread) for x in X], init, games, seed * 1000 + 2,
                      g * per_gen, players, threads)

    def cb(g: int, total: int, info: dict) -> None:
        if say:
            say(f"generation {g}/{total}: the mean's share of the wins against the init {info['mean_fitness']:.1%}, "
                f"the best offspring's {info['best_fitness']:.1%}, step {info['sigma']:.2f}")

    d = len(TUNED_STAGES) * len(TUNED)
    es = es_optimize(fitness, np.zeros(d), generations * (popsize + 1), seed=seed, sigma0=SIGMA0, bounds=(-BOUND, BOUND),
                     popsize=popsize, callback=cb)
    tuned = model_of(init, es.x, spread)
    decision, played, share, _ = duel(rules, set_value_model(base_row, tuned), set_value_model(base_row, init),
                                      final_games, 200, seed * 1000 + 3, players, 0.1, threads)
    promoted = decision.startswith("H1") and decision.endswith("(+)")
    if say:
        say(f"final check on {played} fresh games: the tuned model's share of the wins {share:.1%}: {decision} -> "
            f"{'the tuned model' if promoted else 'the init kept'}")
    return PlayResult(model=tuned if promoted else init.copy(), tuned=tuned, promoted=promoted,
                      final={"decision": decision, "games": played, "share": round(share, 4)},
                      history=[{k: (round(v, 4) if isinstance(v, float) else v) for k, v in h.items()} for h in es.history],
                      seconds=time.perf_counter() - t0)
