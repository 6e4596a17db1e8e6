"""Tuning a heuristic strategy against the rulebook's Solo A.I. (``trinidad tune --ai weak,medium``).

The yardstick of issue 36 is the A.I. of TWO PLAYERS GAME & SOLO MODE: a player a designer can
trust must at least beat that script. The heuristic's weights were tuned in 4-player games against
other heuristics (``trinidad tune --character``, trinidad.train.heuristic); against the A.I. they lose most
games (the A.I. pays no resources, no salaries, keeps all its workers each decade and builds the
City). This module tunes them against the A.I. itself.

What is tuned: one **shift** ``x`` added to every weight block of the base strategy (its
``[weights]`` and each ``[characters.<Name>]`` table; the weights of :data:`trinidad.train.heuristic.TUNABLE`,
the Extended War's ``xw_*`` coefficients left out: a Solo game without the expansion never reads
them). The Character tables keep what sets them apart from each other (each was tuned for its
Character); the shift moves them all toward what pays against the A.I. One vector of
``len(TUNABLE)`` numbers instead of 13 is what the budget of a two-core machine can search.

**Per Character** (``characters``, ``trinidad tune --ai ... --character all``): one shift per
Character, each moving that Character's own table only and tuned by its own ES on Solo games in which
the player is that Character (fresh games of its own, see below); the ``[weights]`` block and the
other tables are left as they are. A game reads the table of its player's Character only (SETUP's
per-Character weights), so the 12 searches are independent and the file holds all 12 results. One
shift for all 12 tables leaves the weak Characters weak (docs/notebook/solo.md); this asks what each
Character's own play against the A.I. should be.

Search: trinidad.train.heuristic's separable CMA-style ES (:func:`trinidad.train.heuristic.es_optimize`), with common
random numbers: generation ``g`` plays every candidate (and the current mean) on the same Solo
games, ``games`` per A.I. strength, fresh games every generation. Each game's player Character is
drawn uniformly, its seat (before or after the A.I.) by a fair coin.

Fitness: the candidate's mean win share (a full tie half a win, as :mod:`trinidad.ai_scale` counts
it) plus the mean of tanh(margin / :data:`MARGIN_SCALE`), the margin being the player's VP less the
A.I.'s. The second term ranks candidates by how far they are from winning, which a win/loss count
of a few hundred games hardly sees: a less noisy signal in the same direction.

Games: the tuning games are game indices ``TUNE_FIRST + g * games ..`` of ``sim.rng.player_seeds(seed,
2, ...)`` (a Character's own search: from ``TUNE_FIRST + (1 + c) * CHARACTER_STRIDE``), a range no
measurement of :mod:`trinidad.ai_scale` (indices from 0) reaches, so the check and every A.I. table
are played on games the tuning never saw. The final check plays the base and the tuned strategy
on ``FINAL_FACTOR x games`` fresh games per strength (after the search's) and reports each win rate with its Wilson 95% interval.

Everything is a pure function of the arguments: the same command writes the same file, on any
number of threads.
"""

from __future__ import annotations

import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from strategies.registry import CHARACTER_KEYS, STRATEGY_DIR, StrategyError, load_strategies
from trinidad.train.heuristic import FINAL_FACTOR, TUNABLE, TuneError, _num, es_optimize, es_plan, wilson

MARGIN_SCALE = 25.0  # VP: tanh(margin / 25) is about linear within a close game and saturates in a rout
SIGMA0 = 0.2  # initial step of the shift (the weights are O(1))
BOUND = 2.0  # each component of the shift within [-2, 2]
POPSIZE = 16  # offspring per generation (mirrored pairs)
TUNE_FIRST = 1_000_000  # first game index of the tuning games (the A.I. tables play indices from 0)
DEFAULT_STRENGTHS = ("weak", "medium")
CHARACTER_STRIDE = 1 << 24  # game indices apart between two Characters' own searches (a strength's are 1 << 20 apart)
SHIFTED = np.array([not k.startswith("xw_") for k in TUNABLE])  # the Extended War's coefficients are not tuned here


@dataclass
class CharacterTune:
    """One Character's own search (``tune_solo(characters=...)``): the shift of its table and the
    check on fresh games in which the player is that Character."""
    character: str
    shift: dict[str, float]
    before: dict  # strength -> win_rate, ci_low, ci_high, n
    after: dict

    def to_dict(self) -> dict:
        return {"before": self.before, "after": self.after}


@dataclass
class SoloTuneResult:
    base: str
    strengths: list[str]
    shift: dict[str, float]
    before: dict  # strength -> win_rate, ci_low, ci_high, n (the base strategy on the fresh games)
    after: dict
    games: int
    budget: int
    seed: int
    generations: int
    popsize: int
    seconds: float
    history: list[dict] = field(default_factory=list)
    out: str | None = None
    characters: dict[str, CharacterTune] = field(default_factory=dict)  # per-Character searches, in order
    perturb: float = 0.0  # the share of the tuning games with the player forced to one option (play_solo)

    def to_dict(self) -> dict:
        d = {"base": self.base, "strengths": self.strengths, "before": self.before, "after": self.after,
             "games": self.games, "budget": self.budget, "seed": self.seed, "out": self.out}
        if self.characters:
            d["characters"] = {c: t.to_dict() for c, t in self.characters.items()}
        if self.perturb:
            d["perturb"] = self.perturb
        return d

    def row(self, base_row: np.ndarray) -> np.ndarray:
        """``base_row`` with this result's shifts added: the one shift to every block, or each
        Character's own shift to its own table."""
        if not self.characters:
            return shifted_rows(base_row, np.array([[self.shift[k] for k in TUNABLE]]))[0]
        row = base_row.copy()
        for ck, t in self.characters.items():
            b = 1 + CHARACTER_KEYS.index(ck)
            row = shifted_rows(row, np.array([[t.shift[k] for k in TUNABLE]]), block=b)[0]
        return row


def _blocks(W_row: np.ndarray) -> list[slice]:
    """The columns of each weight block (base, then the 12 Characters) that the shift moves."""
    from sim.state import N_CHARACTERS
    from strategies.weights import N_WEIGHTS

    return [slice(N_WEIGHTS * b + 1, N_WEIGHTS * b + 1 + len(TUNABLE)) for b in range(1 + N_CHARACTERS)]


def shifted_rows(base_row: np.ndarray, X: np.ndarray, block: int | None = None) -> np.ndarray:
    """One W row per shift (rows of ``X``): ``base_row`` with the shift added to every block, or to
    block ``block`` alone (0 the ``[weights]``, ``1 + c`` Character ``c``'s table)."""
    out = np.repeat(base_row[None, :], len(X), axis=0)
    blocks = _blocks(base_row)
    for sl in blocks if block is None else [blocks[block]]:
        out[:, sl] += np.where(SHIFTED, X, 0.0)
    return out


def solo_lineups(seed: int, strength_index: int, start: int, games: int, character: int | None = None):
    """Games ``start ..`` for one strength: (engine seeds, the player's seat, its Character); a pure
    function of the arguments. With ``character`` (an index), that Character's own games: the player
    is always that Character, on game indices of its own."""
    from sim.rng import player_seeds
    from sim.state import N_CHARACTERS

    first = TUNE_FIRST + start + strength_index * (1 << 20)
    if character is None:
        rng = np.random.default_rng([seed, strength_index, start])
    else:
        rng = np.random.default_rng([seed, strength_index, start, 1 + character])
        first += (1 + character) * CHARACTER_STRIDE
    seeds = player_seeds(seed, 2, first, games)
    seat = (rng.random(games) < 0.5).astype(np.int64)
    chars = rng.integers(0, N_CHARACTERS, games) if character is None else np.full(games, character, np.int64)
    return seeds, seat, chars


def forced_options(seed: int, strength_index: int, start: int, games: int, perturb: float) -> np.ndarray:
    """Per game, 0 or ``1 + i``: in a share ``perturb`` of the games the player is forced to take
    :data:`trinidad.probe.OPTIONS` ``[i]`` (drawn at random) at its first legal chance, then plays on
    by its own weights (a stream of its own: the games and seats of :func:`solo_lineups` do not
    depend on it)."""
    from trinidad.probe import OPTIONS

    if perturb <= 0.0:
        return np.zeros(games, np.int64)
    rng = np.random.default_rng([seed, strength_index, start, 7919])
    u, o = rng.random(games), rng.integers(0, len(OPTIONS), games)
    return np.where(u < perturb, 1 + o, 0)


def forced_rows(W: np.ndarray) -> np.ndarray:
    """Each row of ``W`` followed by its copies forced to each of :data:`trinidad.probe.OPTIONS`
    (``1 + len(OPTIONS)`` rows a row, in that order)."""
    from trinidad.probe import OPTIONS, probe_weights

    out = []
    for row in W:
        out.append(row)
        out += [probe_weights(row[None, :], o)[1] for o in OPTIONS]
    return np.vstack(out)


def play_solo(rules_by_strength: list, W: np.ndarray, seed: int, start: int, games: int,
              threads: int | None = None, character: int | None = None,
              perturb: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Every row of ``W`` plays the same Solo games (``games`` per strength): its win shares and VP
    margins, each ``[rows, strengths x games]``. With ``perturb``, that share of the games has the
    player forced to one option at its first legal chance (:func:`forced_options`), the same games
    and options for every row."""
    from sim.schema import RG
    from sim.state import AI_STRATEGY
    from trinidad.batch import play_batch

    k = len(W)
    m = 1
    if perturb > 0.0:
        from trinidad.probe import OPTIONS

        m = 1 + len(OPTIONS)
        W = forced_rows(W)
    wins, margins = [], []
    idx = np.arange(games)
    for si, rules in enumerate(rules_by_strength):
        seeds, seat, chars = solo_lineups(seed, si, start, games, character)
        forced = forced_options(seed, si, start, games, perturb)
        strat = np.zeros((k, games, 2), np.int32)
        strat[:] = (np.arange(k)[:, None] * m + forced[None, :]).astype(np.int32)[:, :, None]
        strat[:, idx, 1 - seat] = AI_STRATEGY
        ch = np.full((games, 2), -1, np.int32)
        ch[idx, seat] = chars
        _, gam = play_batch(rules, W, 2, np.tile(seeds, k), strat.reshape(k * games, 2), np.tile(ch, (k, 1)),
                            threads=threads)
        g = gam[:, :2, :].reshape(k, games, 2, -1)
        pw = g[:, idx, seat, RG.WINNER].astype(np.float64)
        aw = g[:, idx, 1 - seat, RG.WINNER].astype(np.float64)
        wins.append(pw / np.maximum(1.0, pw + aw))
        margins.append((g[:, idx, seat, RG.VP] - g[:, idx, 1 - seat, RG.VP]).astype(np.float64))
    return np.concatenate(wins, axis=1), np.concatenate(margins, axis=1)


def _rate(w: np.ndarray) -> dict:
    lo, hi = wilson(float(w.sum()), len(w))
    return {"win_rate": float(w.mean()), "ci_low": lo, "ci_high": hi, "n": int(len(w))}


def tune_solo(base: str = "heuristic", strengths: list[str] | tuple[str, ...] = DEFAULT_STRENGTHS, games: int = 400,
              budget: int = 2040, seed: int = 1, threads: int | None = None, rules_file: str | None = None,
              progress: Callable[[str, int, int, dict], None] | None = None,
              characters: list[str] | tuple[str, ...] | None = None, perturb: float = 0.0) -> SoloTuneResult:
    """The shift of ``base``'s weights that plays best against the A.I. at ``strengths`` (module
    docstring); with ``characters`` (Character keys, or ``["all"]``), each one's own shift of its own
    table, one search after the other, each with ``budget`` evaluations."""
    from sim.rules import ai_strength_names, apply_overrides, load_rules_doc, rules_from_doc

    if games < 1:
        raise TuneError(f"games: must be >= 1, got {games}")
    if not 0.0 <= perturb <= 1.0:
        raise TuneError(f"perturb: a share of the games, in 0..1, got {perturb}")
    lam, gens = es_plan(budget, POPSIZE)
    doc = load_rules_doc(rules_file)
    known = ai_strength_names(doc)
    strengths = [s.strip() for s in strengths]
    if not strengths or any(s not in known for s in strengths):
        raise TuneError(f"ai: give A.I. strengths among {', '.join(known)}, got {','.join(strengths)!r}")
    chars = _character_list(characters)
    try:
        W0, _ = load_strategies([base])
    except StrategyError as e:
        raise TuneError(f"base: {e}") from None
    base_row = W0[0]
    from strategies.policy import FAMILY_GREEDY, FAMILY_HEURISTIC, F

    if base_row[F.FAMILY] not in (FAMILY_GREEDY, FAMILY_HEURISTIC):
        raise TuneError(f"base: {base} must be a greedy or heuristic strategy (its weights are tuned)")
    rules = [rules_from_doc(apply_overrides(doc, {"solo": {"strength": s}})) for s in strengths]
    t0 = time.perf_counter()
    n_final = FINAL_FACTOR * games
    checks = []  # each search's check: win shares [base, tuned] x (strengths x n_final)

    def search(block: int | None, character: int | None, label: str):
        def fitness(X: np.ndarray, g: int) -> np.ndarray:
            w, m = play_solo(rules, shifted_rows(base_row, X, block), seed, g * games, games, threads, character, perturb)
            return w.mean(axis=1) + np.tanh(m / MARGIN_SCALE).mean(axis=1)

        def cb(g: int, total: int, info: dict) -> None:
            if progress is not None:
                progress("search", g, total, {**info, "label": label})

        es = es_optimize(fitness, np.zeros(len(TUNABLE)), budget, seed=seed, sigma0=SIGMA0, bounds=(-BOUND, BOUND),
                         popsize=POPSIZE, callback=cb)
        x = np.where(SHIFTED, np.round(es.x, 4), 0.0)
        w, _ = play_solo(rules, shifted_rows(base_row, np.vstack([np.zeros_like(x), x]), block), seed, gens * games,
                         n_final, threads, character)
        if progress is not None:
            progress("check", 1, 1, {"label": label})
        checks.append(w)
        before = {s: _rate(w[0, i * n_final:(i + 1) * n_final]) for i, s in enumerate(strengths)}
        after = {s: _rate(w[1, i * n_final:(i + 1) * n_final]) for i, s in enumerate(strengths)}
        return x, before, after, es.history

    res = SoloTuneResult(base=base, strengths=list(strengths), shift={k: 0.0 for k in TUNABLE}, before={}, after={},
                         games=games, budget=budget, seed=seed, generations=gens, popsize=lam, seconds=0.0, perturb=perturb)
    if not chars:
        x, res.before, res.after, res.history = search(None, None, "")
        res.shift = {k: float(v) for k, v in zip(TUNABLE, x)}
    for ck in chars:
        c = CHARACTER_KEYS.index(ck)
        x, before, after, _ = search(1 + c, c, ck)
        res.characters[ck] = CharacterTune(ck, {k: float(v) for k, v in zip(TUNABLE, x)}, before, after)
    if chars:  # the whole over the Characters tuned: each strength's check games pooled
        for row, side in ((0, "before"), (1, "after")):
            setattr(res, side, {s: _rate(np.concatenate([w[row, i * n_final:(i + 1) * n_final] for w in checks]))
                                for i, s in enumerate(strengths)})
    res.seconds = round(time.perf_counter() - t0, 1)
    return res


def _character_list(characters) -> list[str]:
    """The Characters of a per-Character tuning, in the rulebook's order; ``["all"]`` is all 12."""
    if characters is None:
        return []
    keys = [c.strip() for c in characters if c.strip()]
    if keys == ["all"]:
        return list(CHARACTER_KEYS)
    bad = [c for c in keys if c not in CHARACTER_KEYS]
    if not keys or bad or len(set(keys)) != len(keys):
        raise TuneError(f"character: give Characters among {', '.join(CHARACTER_KEYS)} (each once) or all, "
                        f"got {','.join(keys)!r}")
    return sorted(keys, key=CHARACTER_KEYS.index)


def _pct(r: dict) -> str:
    return f"{r['win_rate']:.1%} [{r['ci_low']:.1%}, {r['ci_high']:.1%}] of {r['n']:,}"


def strategy_toml(res: SoloTuneResult, name: str) -> str:
    """A full strategy file: every block of the base with the shift added (or each Character's own
    shift to its table), every weight written (a table that left a weight to its default holds it
    now), and a header recording the run."""
    from strategies.registry import strategy_path

    W, _ = load_strategies([res.base])
    row = res.row(W[0])
    doc = tomllib.loads(strategy_path(res.base).read_text())
    ai = ",".join(res.strengths)
    chars = ",".join(res.characters) if len(res.characters) < len(CHARACTER_KEYS) else "all"
    perturb = f" --perturb {res.perturb:g}" if res.perturb else ""
    if res.characters:
        lines = [
            f"# {res.base} with each Character's table shifted by its own tuning against the rulebook's Solo A.I. ({ai}),",
            f"# `trinidad tune --ai {ai} --base {res.base} --character {chars} --games {res.games} --budget {res.budget} "
            f"--seed {res.seed}{perturb}`",
            "# (trinidad/train/heuristic_solo.py: per Character a separable CMA-style ES, common random numbers per generation;",
            f"# {res.generations} generations of {res.popsize} + the mean, {res.games} Solo games per strength each, the player",
            f"# always that Character, game indices from {TUNE_FIRST:,} + (1 + c) x {CHARACTER_STRIDE:,} of",
            f"# sim.rng.player_seeds({res.seed}, 2, ...): no A.I. table plays them).",
            f"# Check on {FINAL_FACTOR * res.games:,} fresh games per strength and Character (win rate, Wilson 95% CI):",
        ]
        for ck, t in res.characters.items():
            lines.append(f"#   {ck}: " + "; ".join(f"{s} {t.before[s]['win_rate']:.1%} -> {t.after[s]['win_rate']:.1%}"
                                                  for s in res.strengths))
        lines.append("# Over these Characters:")
    else:
        lines = [
            f"# {res.base} with one shift of every weight block tuned against the rulebook's Solo A.I. ({ai}) by",
            f"# `trinidad tune --ai {ai} --base {res.base} --games {res.games} --budget {res.budget} --seed {res.seed}{perturb}`",
            "# (trinidad/train/heuristic_solo.py: separable CMA-style ES, common random numbers per generation;",
            f"# {res.generations} generations of {res.popsize} + the mean, {res.games} Solo games per strength each,",
            f"# game indices from {TUNE_FIRST:,} of sim.rng.player_seeds({res.seed}, 2, ...): no A.I. table plays them).",
            f"# Check on {FINAL_FACTOR * res.games:,} fresh games per strength (win rate, Wilson 95% CI):",
        ]
    if res.perturb:
        lines.append(f"# (in {res.perturb:.0%} of the tuning games the player was forced to one option at its first legal "
                     "chance; the check plays none)")
    for s in res.strengths:
        lines.append(f"#   {s}: {res.base} {_pct(res.before[s])} -> tuned {_pct(res.after[s])}")
    how = "per Character " if res.characters else ""
    lines += [f'name = "{name}"', f'description = "{res.base} tuned {how}against the Solo A.I. ({ai}) by trinidad tune --ai"',
              f'family = "{doc["family"]}"', "", "[weights]"]
    blocks = _blocks(row)
    lines += [f"{k} = {_num(v)}" for k, v in zip(TUNABLE, row[blocks[0]])]
    if doc.get("parameters"):
        lines += ["", "[parameters]"] + [f"{k} = {v!r}" for k, v in doc["parameters"].items()]
    for c, ck in enumerate(CHARACTER_KEYS):
        lines += ["", f"[characters.{ck}]"] + [f"{k} = {_num(v)}" for k, v in zip(TUNABLE, row[blocks[1 + c]])]
    return "\n".join(lines) + "\n"


def default_out(base: str) -> Path:
    return STRATEGY_DIR / f"{base}-solo.toml"


def write_strategy(res: SoloTuneResult, out: Path | str | None = None) -> Path:
    p = Path(out) if out is not None else default_out(res.base)
    if p.suffix != ".toml":
        raise TuneError(f"out: must be a .toml file, got {str(p)!r}")
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(strategy_toml(res, p.stem))
    res.out = str(p)
    return p
