"""Tuning the heuristic's weights for one Character (``trinidad tune``).

What is tuned: the ``[characters.<Name>]`` block of ``strategies/heuristic.toml`` for one Character,
that is the weights of :data:`TUNABLE` (``strategies.policy.WEIGHTS``: the 17 feature weights, every
feature of ``FEATURES`` except ``family``, and the named valuation coefficients of ``policy.K``) the
seat uses once it holds that Character; a coefficient the file leaves out starts at its default
(``policy.K_DEFAULT``). The vote model's parameters (``policy.P``) are not tuned. The search starts
from heuristic.toml's block for it, and every candidate is clipped to ``[LOW, HIGH] = [-3, 5]`` (a
sane range: the hand-set feature weights lie in [-0.6, 2], the coefficients' defaults in [-1, 5]; the
clip keeps the search bounded and the policy's scores finite).

Search: a separable (diagonal) CMA-style evolution strategy, ``(mu/mu_w, lambda)`` with mirrored
sampling, cumulative step-size adaptation and a rank-mu update of the per-weight variances
(Ros & Hansen 2008, "sep-CMA-ES", without the rank-one term). Noise robustness comes from:

- **Common random numbers.** Generation ``g`` plays every candidate (the ``lambda`` offspring and the
  current mean) on the SAME ``games`` games: the same seeds, the same seat for the tuned Character,
  the same opponents and the same opponents' Characters. Only the candidate's weights differ, so the
  ranking within a generation is not driven by which deals a candidate happened to meet.
- **Fresh seeds every generation.** Generation ``g`` uses game indices ``[g * games, (g + 1) * games)``,
  so noise does not accumulate in favour of one fixed set of deals.
- **Recombination.** The mean moves to the weighted average of the best ``mu`` of ``lambda``, which
  averages noise out; the result is the final mean (a noisy ES's best estimate of the optimum; the
  single best-scoring candidate would be biased upwards by the winner's curse).

Budget: ``budget`` = candidate evaluations, each ``games`` games; one generation costs ``lambda + 1``
evaluations (the offspring plus the mean, re-evaluated on the generation's seeds to report progress),
so ``generations = max(1, budget // (lambda + 1))`` and ``lambda = min(popsize, budget - 1)``, made even
(at least 2).

Games: seat ``s = i % players`` of game ``i`` holds the candidate with the Character forced (via
``play_batch(..., characters=...)``); each other seat plays a strategy drawn uniformly from ``pool``
(default: the untuned ``heuristic`` and ``greedy``) with a Character drawn from the other 11, all
drawn from a generator seeded by ``(seed, first game index)``. Game ``i``'s engine seed is
``player_seeds(seed, players, i, 1)`` (as in ``trinidad run`` / ``tournament``).

Fitness: the candidate seat's fractional win rate (a tie for first between ``k`` seats gives each
``1/k``, as in ``trinidad tournament``).

Final check: the untuned default and the tuned weights play the same FRESH games (indices after the
search's, ``4 x games`` by default, never seen by the search), and each gets a win rate with a Wilson
95% interval (statsmodels, via :func:`trinidad.tournament.wilson`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from strategies.policy import WEIGHTS
from strategies.registry import CHARACTER_KEYS, STRATEGY_DIR, StrategyError, load_strategies
from trinidad.tournament import MAX_SEED, wilson

TUNABLE = WEIGHTS  # every feature but `family`, and every named coefficient (W slots 1.. in order)
LOW, HIGH = -3.0, 5.0
SIGMA0 = 0.3  # initial step size (weights are O(1))
POPSIZE = 8
FINAL_FACTOR = 4  # fresh games for the before/after check = FINAL_FACTOR x games
DEFAULT_POOL = ("heuristic", "greedy")


class TuneError(ValueError):
    """A bad tuning argument; the message is one line starting with the option's name."""


# --------------------------------------------------------------------------- the optimizer


@dataclass
class ESResult:
    x: np.ndarray  # the final mean (the tuned weights)
    history: list[dict] = field(default_factory=list)  # per generation: mean_fitness, best_fitness, sigma
    evaluations: int = 0


def es_plan(budget: int, popsize: int = POPSIZE) -> tuple[int, int]:
    """(lambda, generations) for a budget of candidate evaluations (see the module docstring)."""
    if budget < 3:
        raise TuneError(f"budget: must be >= 3 (one generation = 2 offspring + the mean), got {budget}")
    lam = max(2, min(popsize, budget - 1))
    lam -= lam % 2
    return lam, max(1, budget // (lam + 1))


def es_optimize(fitness: Callable[[np.ndarray, int], np.ndarray], x0: np.ndarray, budget: int, seed: int = 1,
                sigma0: float = SIGMA0, bounds: tuple[float, float] = (LOW, HIGH), popsize: int = POPSIZE,
                callback: Callable[[int, int, dict], None] | None = None) -> ESResult:
    """Maximise a noisy ``fitness(X, generation) -> values`` (``X``: ``[k, d]`` candidates, all to be
    scored on the same noise, i.e. common random numbers) from ``x0`` with a separable CMA-style ES.

    Row 0 of every ``X`` is the current mean, rows 1.. the offspring. Deterministic in ``seed``."""
    lo, hi = bounds
    x0 = np.clip(np.asarray(x0, np.float64), lo, hi)
    d = x0.size
    lam, gens = es_plan(budget, popsize)
    mu = lam // 2
    w = np.log(mu + 0.5) - np.log(np.arange(1, mu + 1))
    w /= w.sum()
    mueff = 1.0 / np.sum(w ** 2)
    # step-size control (CSA) and diagonal rank-mu update constants (Hansen's tutorial; sep-CMA's c_mu x (d+2)/3)
    cs = (mueff + 2) / (d + mueff + 5)
    ds = 1 + 2 * max(0.0, np.sqrt((mueff - 1) / (d + 1)) - 1) + cs
    chi = np.sqrt(d) * (1 - 1 / (4 * d) + 1 / (21 * d * d))
    cmu = min(1.0, (d + 2) / 3 * 2 * (mueff - 2 + 1 / mueff) / ((d + 2) ** 2 + mueff))
    cmu = max(cmu, 0.05)
    rng = np.random.default_rng(seed)
    m, sigma, diag, ps = x0.copy(), float(sigma0), np.ones(d), np.zeros(d)
    res = ESResult(x=m.copy())
    for g in range(gens):
        half = rng.standard_normal((lam // 2, d))
        z = np.vstack([half, -half])  # mirrored sampling: antithetic pairs halve the sampling noise of the mean step
        X = np.clip(m + sigma * np.sqrt(diag) * z, lo, hi)
        f = np.asarray(fitness(np.vstack([m, X]), g), np.float64)
        res.evaluations += lam + 1
        f_mean, f_off = float(f[0]), f[1:]
        order = np.argsort(-f_off, kind="stable")[:mu]
        y = (X[order] - m) / sigma  # steps actually taken (after clipping), in sigma units
        m = m + sigma * (w @ y)
        zw = w @ (y / np.sqrt(diag))
        ps = (1 - cs) * ps + np.sqrt(cs * (2 - cs) * mueff) * zw
        sigma *= float(np.exp(cs / ds * (np.linalg.norm(ps) / chi - 1)))
        sigma = float(np.clip(sigma, 1e-3, (hi - lo) / 2))
        diag = (1 - cmu) * diag + cmu * (w @ (y ** 2))
        diag = np.clip(diag, 1e-4, 1e4)
        m = np.clip(m, lo, hi)
        info = {"generation": g + 1, "mean_fitness": f_mean, "best_fitness": float(f_off.max()), "sigma": sigma}
        res.history.append(info)
        if callback is not None:
            callback(g + 1, gens, info)
    res.x = m
    return res


# --------------------------------------------------------------------------- the games


def character_index(name: str) -> int:
    for i, k in enumerate(CHARACTER_KEYS):
        if k.lower() == str(name).strip().lower():
            return i
    raise TuneError(f"character: unknown Character {name!r}; allowed: {', '.join(CHARACTER_KEYS)}")


def block_slice(c: int) -> slice:
    """Columns of W for the tunable weights of Character ``c``'s block."""
    from strategies.weights import N_WEIGHTS

    a = N_WEIGHTS * (1 + c)
    return slice(a + 1, a + 1 + len(TUNABLE))


def lineups(seed: int, players: int, start: int, count: int, char: int, pool_size: int):
    """Games ``[start, start + count)``: (engine seeds, tuned seat, pool index per seat (-1 = the
    candidate), Character per seat). Depends only on the arguments."""
    from sim.rng import player_seeds
    from sim.state import N_CHARACTERS

    seeds = player_seeds(seed, players, start, count)
    idx = np.arange(start, start + count)
    seat = idx % players
    rng = np.random.default_rng([seed, players, start, count, char])
    pool = rng.integers(0, pool_size, size=(count, players))
    keys = rng.random((count, N_CHARACTERS))
    keys[:, char] = np.inf  # the tuned Character is never an opponent's
    others = np.argsort(keys, axis=1, kind="stable")[:, :players - 1]
    chars = np.empty((count, players), np.int64)
    rows = np.arange(count)
    pool[rows, seat] = -1
    mask = np.ones((count, players), bool)
    mask[rows, seat] = False
    chars[mask] = others.ravel()
    chars[rows, seat] = char
    return seeds, seat, pool, chars


def play_candidates(rules, base_row: np.ndarray, pool_W: np.ndarray, char: int, X: np.ndarray, seed: int,
                    players: int, start: int, count: int, threads: int | None = None) -> np.ndarray:
    """Fractional win rate of each candidate (rows of ``X``: the tuned weights) on the same games."""
    from trinidad.batch import play_batch
    from trinidad.tournament import win_credit

    k = X.shape[0]
    W = np.vstack([np.repeat(base_row[None, :], k, axis=0), pool_W])
    W[:k, block_slice(char)] = X
    seeds, seat, pool, chars = lineups(seed, players, start, count, char, pool_W.shape[0])
    strat = np.empty((k, count, players), np.int64)
    strat[:] = pool + k  # pool rows follow the k candidate rows
    rows = np.arange(count)
    strat[:, rows, seat] = np.arange(k)[:, None]
    _, gam = play_batch(rules, W, players, np.tile(seeds, k), strat.reshape(k * count, players),
                        characters=np.tile(chars, (k, 1)), threads=threads)
    return win_credit(gam, players).reshape(k, count, players)[:, rows, seat].mean(axis=1)


# --------------------------------------------------------------------------- the whole run


@dataclass
class TuneResult:
    character: str
    weights: dict[str, float]  # the tuned [characters.<Name>] table
    before: dict  # win_rate, ci_low, ci_high, n (the untuned default on the fresh games)
    after: dict
    games: int
    budget: int
    seed: int
    players: int
    pool: list[str]
    generations: int
    popsize: int
    search_games: tuple[int, int]  # game index range of the search
    final_games: tuple[int, int]  # game index range of the before/after check
    history: list[dict]
    out: str | None = None

    def to_dict(self) -> dict:
        """The ``--json`` object."""
        return {"character": self.character, "before": self.before, "after": self.after, "out": self.out,
                "games": self.games, "budget": self.budget, "seed": self.seed}


def _rate(wr: float, n: int) -> dict:
    lo, hi = wilson(wr * n, n)
    return {"win_rate": float(wr), "ci_low": lo, "ci_high": hi, "n": int(n)}


def check_args(character: str, games: int, budget: int, seed: int, players: int) -> int:
    """Validate the arguments (a :class:`TuneError` naming the first bad one); returns the Character id."""
    from sim.state import MAX_PLAYERS

    c = character_index(character)
    if games < 1:
        raise TuneError(f"games: must be >= 1, got {games}")
    es_plan(budget)
    if not 0 <= seed <= MAX_SEED:
        raise TuneError(f"seed: must be 0..{MAX_SEED}, got {seed}")
    if not 2 <= players <= MAX_PLAYERS:
        raise TuneError(f"players: must be 2..{MAX_PLAYERS}, got {players}")
    return c


def tune(character: str, games: int = 200, budget: int = 40, seed: int = 1, players: int = 4,
         pool: list[str] | tuple[str, ...] = DEFAULT_POOL, popsize: int = POPSIZE, threads: int | None = None,
         rules=None, progress: Callable[[str, int, int, dict], None] | None = None) -> TuneResult:
    """Tune heuristic.toml's ``[characters.<character>]`` weights (see the module docstring).

    ``progress(phase, done, total, info)`` is called after each generation (phase ``"search"``) and
    after the final check (phase ``"check"``)."""
    c = check_args(character, games, budget, seed, players)
    name = CHARACTER_KEYS[c]
    pool = [str(p).strip() for p in pool]
    if not pool or any(not p for p in pool):
        raise TuneError(f"pool: give at least 1 comma-separated strategy name, got {','.join(pool)!r}")
    lam, gens = es_plan(budget, popsize)
    try:
        Wh, _ = load_strategies(["heuristic"])
        pool_W, _ = load_strategies(pool)
    except StrategyError as e:
        raise TuneError(f"pool: {e}") from None
    pool_W = pool_W[[list(dict.fromkeys(pool)).index(p) for p in pool]]  # a name given twice is drawn twice as often
    if rules is None:
        from sim.rules import load_rules

        rules = load_rules()
    base_row = Wh[0]
    x0 = base_row[block_slice(c)].copy()

    def fitness(X: np.ndarray, g: int) -> np.ndarray:
        return play_candidates(rules, base_row, pool_W, c, X, seed, players, g * games, games, threads)

    def cb(g: int, total: int, info: dict) -> None:
        if progress is not None:
            progress("search", g, total, info)

    es = es_optimize(fitness, x0, budget, seed=seed, popsize=popsize, callback=cb)
    x = np.round(es.x, 4)
    start, n_final = gens * games, FINAL_FACTOR * games
    wr = play_candidates(rules, base_row, pool_W, c, np.vstack([np.clip(x0, LOW, HIGH), x]), seed, players, start,
                         n_final, threads)
    if progress is not None:
        progress("check", 1, 1, {})
    return TuneResult(character=name, weights={f: float(v) for f, v in zip(TUNABLE, x)},
                      before=_rate(wr[0], n_final), after=_rate(wr[1], n_final), games=games, budget=budget, seed=seed,
                      players=players, pool=pool, generations=gens, popsize=lam, search_games=(0, start),
                      final_games=(start, start + n_final), history=es.history)


# --------------------------------------------------------------------------- the TOML file


def default_out(character: str) -> Path:
    return STRATEGY_DIR / "tuned" / f"heuristic-{CHARACTER_KEYS[character_index(character)].lower()}.toml"


def _num(v: float) -> str:
    return repr(float(round(v, 4)))


def _pct(r: dict) -> str:
    return f"{r['win_rate']:.1%} (95% CI {r['ci_low']:.1%} - {r['ci_high']:.1%}, n = {r['n']:,})"


def strategy_toml(res: TuneResult) -> str:
    """A full heuristic strategy file: heuristic.toml's weights and Character tables, with the tuned
    Character's table replaced by all tuned weights, and a header comment recording the run."""
    doc = tomllib.loads((STRATEGY_DIR / "heuristic.toml").read_text())
    lines = [
        f"# heuristic.toml with the [characters.{res.character}] weights tuned by `trinidad tune`",
        "# (trinidad/train/heuristic.py: separable CMA-style ES, common random numbers per generation).",
        f"# character = {res.character}; seed = {res.seed}; players = {res.players}; pool = {','.join(res.pool)}",
        f"# games = {res.games} per evaluation; budget = {res.budget} evaluations "
        f"({res.generations} generations of {res.popsize} + the mean)",
        f"# search seeds: games {res.search_games[0]}..{res.search_games[1] - 1}; "
        f"check seeds (fresh): games {res.final_games[0]}..{res.final_games[1] - 1} "
        f"(engine seed of game i = sim.rng.player_seeds({res.seed}, {res.players}, i, 1))",
        f"# before (untuned heuristic): win rate {_pct(res.before)}",
        f"# after (tuned):              win rate {_pct(res.after)}",
        f"name = \"heuristic-{res.character.lower()}\"",
        f"description = \"heuristic with [characters.{res.character}] tuned by trinidad tune (seed {res.seed})\"",
        f"family = \"{doc['family']}\"",
        "",
        "[weights]",
    ]
    lines += [f"{k} = {_num(v)}" for k, v in doc.get("weights", {}).items()]
    if doc.get("parameters"):
        lines += ["", "[parameters]"] + [f"{k} = {v!r}" for k, v in doc["parameters"].items()]
    chars = dict(doc.get("characters", {}))
    chars[res.character] = res.weights
    for name in CHARACTER_KEYS:
        if name in chars:
            lines += ["", f"[characters.{name}]"] + [f"{k} = {_num(v)}" for k, v in chars[name].items()]
    return "\n".join(lines) + "\n"


def write_strategy(res: TuneResult, out: Path | str | None = None) -> Path:
    p = Path(out) if out is not None else default_out(res.character)
    if p.suffix != ".toml":
        raise TuneError(f"out: must be a .toml file, got {str(p)!r}")
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(strategy_toml(res))
    res.out = str(p)
    return p
