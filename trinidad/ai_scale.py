"""Strength on a scale a designer understands: how often a strategy beats the rulebook's Solo A.I.
at each of its strengths (TWO PLAYERS GAME & SOLO MODE: weak, medium, strong, divinity).

:func:`measure` plays, per strategy and A.I. strength, ``games`` Solo games (one player and the
A.I., the rules' ``solo.strength`` overridden by :func:`sim.rules.apply_overrides`) and counts the
player's wins, each with its Wilson 95% interval (:func:`analysis.stats.wilson`, statsmodels'
``proportion_confint(method="wilson")``). ``trinidad ladder`` prints it beside the rung matrix and
``trinidad run`` records it in the run directory (:data:`analysis.data.AI_SCALE_FILE`), where the
report shows it beside the player tiers.

- **A beat** is a game the player's seat wins: ``RG.WINNER`` marks the seats ranked first, ties
  broken as the rulebook breaks them (most VP, then most resources, sim.game.finish_game), so two
  winners means a full tie, a shared win: it counts as half a beat (1/k of a win among k winners,
  as every win rate of the project counts it).
- **The games** are those of a Solo experiment (``players = 1``, ``[ai]``), on its seeds
  (:func:`sim.rng.player_seeds` of the master seed for 2 seats: game ``i`` has the same seed at
  every strength and for every strategy, so they are compared on common deals). The player's
  Character is dealt balanced as the experiment deals it (``characters.assign = "balanced"``,
  :meth:`trinidad.experiment.Experiment.seat_characters`: in every block of 12 games each
  Character once); the A.I. draws its own. The A.I. sits first in turn order in every other block
  of 12 games (games 12-23, 36-47, ...), so over every 24 games each Character plays once before
  and once after the A.I., and neither seat order is favoured.
- Every game is a pure function of (master seed, game index): the threads change nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from analysis.data import AI_SCALE_FILE

AI_GAMES = 96  # Solo games per strategy and A.I. strength (a multiple of 24: every Character once in each seat order)
ORDER_BLOCK = 12  # games per block of the balanced deal; the A.I. is first in every other block


@dataclass
class Beat:
    """One strategy against one A.I. strength: its wins (a shared win counts 1/k) in ``games``."""

    strategy: str
    strength: str
    games: int
    wins: float
    ai_wins: float  # the A.I.'s (wins + ai_wins = games: every game has one win, shared or not)
    ai_first: int  # games with the A.I. first in turn order
    win_rate: float
    ci_low: float  # Wilson 95%
    ci_high: float


@dataclass
class AIScale:
    strategies: list[str]
    strengths: list[str]  # the rules' solo.strengths, weakest first
    games: int  # per strategy and strength
    seed: int
    seconds: float
    beats: list[Beat] = field(default_factory=list)
    aliases: dict[str, str] = field(default_factory=dict)  # each alias measured and the player it named against the A.I.

    def beat(self, strategy: str, strength: str) -> Beat:
        for b in self.beats:
            if b.strategy == strategy and b.strength == strength:
                return b
        raise KeyError((strategy, strength))

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> AIScale:
        return cls(**(d | {"beats": [Beat(**b) for b in d["beats"]]}))


def solo_experiment(strategy: str, games: int, seed: int, strengths: list[str], rules_file: str | None = None,
                    overrides: dict | None = None):
    """The Solo experiment whose games are measured: ``strategy`` and the A.I., balanced Characters."""
    from trinidad.games.trinidad_experiment import experiment_from_dict

    return experiment_from_dict({"name": "ai-scale", "players": 1, "games": games, "seed": seed, "out": "runs/ai-scale",
                                 "seats": {"strategies": [strategy], "assign": "fixed"}, "characters": {"assign": "balanced"},
                                 "rules": ({"file": rules_file} if rules_file else {}) | {"overrides": overrides or {}},
                                 "ai": {"strength": strengths}}, "ai-scale")


def ai_first(games: int) -> np.ndarray:
    """Whether the A.I. sits first in turn order (seat 0) in each game: every other block of 12."""
    return (np.arange(games) // ORDER_BLOCK) % 2 == 1


def deal(strategy_id: int, characters: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seats of each game (``[games, 2]``: the strategy id and ``AI_STRATEGY``), their Characters
    (the player's dealt one; the A.I.'s column is ignored) and the player's seat."""
    from sim.state import AI_STRATEGY

    g = len(characters)
    first = ai_first(g)
    seat = first.astype(np.int64)  # the player's seat: 1 when the A.I. is first
    strat = np.where(first[:, None], [[AI_STRATEGY, strategy_id]], [[strategy_id, AI_STRATEGY]]).astype(np.int32)
    none = np.full_like(characters, -1)  # the A.I. draws its own Character
    chars = np.where(first[:, None], np.stack([none, characters], 1), np.stack([characters, none], 1)).astype(np.int32)
    return strat, chars, seat


def credit(game_records: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """The player's and the A.I.'s win credit per game (``[games, 2]``) from ``play_batch``'s game
    records, the player's seat given: 1 a win, 1/k a win shared among k seats ranked first (a full
    tie), 0 a loss."""
    from trinidad.tournament import win_credit

    share = win_credit(game_records, 2)
    rows = np.arange(len(seat))
    return np.stack([share[rows, seat], share[rows, 1 - seat]], axis=1)


def solo_credits(strategy: str, games: int, seed: int = 1, strengths: list[str] | None = None, threads: int | None = None,
                 rules_file: str | None = None, overrides: dict | None = None,
                 play: Callable[..., np.ndarray] | None = None) -> dict[str, np.ndarray]:
    """The Solo games :func:`measure` plays for one strategy, game by game: at each A.I. strength (``strengths``;
    default every strength of the rules, weakest first) the player's and the A.I.'s win credit in each game
    (``[games, 2]``, :func:`credit`). The seeds and the deal are the same at every strength and under any rules
    (``overrides``), so two rules' games pair game by game (``trinidad balance`` measures a rules change so)."""
    from sim.rng import player_seeds
    from sim.rules import ai_strength_names, apply_overrides, load_rules_doc, rules_from_doc
    from strategies.registry import compile_players
    from trinidad.tournament import played_records

    if games < 1:
        raise ValueError(f"games: must be >= 1, got {games}")
    play = play or played_records
    base = load_rules_doc(rules_file)
    if overrides:
        base = apply_overrides(base, overrides)
    every = ai_strength_names(base)
    strengths = every if strengths is None else list(strengths)
    seeds = player_seeds(seed, 2, 0, games)  # the Solo experiment's: 2 seats
    exp = solo_experiment(strategy, games, seed, every, rules_file, overrides)
    players = compile_players(exp.strategy_names(), solo=True)  # an alias's player against the A.I. (best.toml's solo)
    dealt = exp.seat_characters(1, np.arange(games))[:, 0]  # the player's seat of the balanced deal
    strat, chars, seat = deal(0, dealt)
    out = {}
    for s in strengths:
        gam = play(rules=rules_from_doc(apply_overrides(base, {"solo": {"strength": s}})), W=players.matrix(), n_players=2, seeds=seeds,
                   strategies=strat, characters=chars, threads=threads)
        out[s] = credit(gam, seat)
    return out


def measure(strategies: list[str], games: int = AI_GAMES, seed: int = 1, threads: int | None = None, rules_file: str | None = None,
            overrides: dict | None = None, say: Callable[[str], None] | None = None,
            play: Callable[..., np.ndarray] | None = None) -> AIScale:
    """Each strategy against every A.I. strength of the rules (module docstring): ``games`` Solo
    games each (:func:`solo_credits`), the beat rate and its Wilson 95% interval. ``play``: what plays a
    strength's games (:func:`trinidad.tournament.played_records`' signature; the same games whatever it is)."""
    from analysis.stats import wilson
    from sim.rules import ai_strength_names, apply_overrides, load_rules_doc

    if games < 1:
        raise ValueError(f"games: must be >= 1, got {games}")
    say = say or (lambda _line: None)
    base = load_rules_doc(rules_file)
    if overrides:
        base = apply_overrides(base, overrides)
    strengths = ai_strength_names(base)
    t0 = time.perf_counter()
    beats = []
    for name in strategies:
        t1 = time.perf_counter()
        for s, c in solo_credits(name, games, seed, strengths, threads, rules_file, overrides, play).items():
            won, ai_won = c.sum(axis=0).tolist()
            lo, hi = wilson(won, games)
            beats.append(Beat(name, s, games, won, ai_won, int(ai_first(games).sum()), won / games, float(lo[0]), float(hi[0])))
        say(f"  {name} against the A.I. ({', '.join(strengths)}), {games:,} Solo games each: {time.perf_counter() - t1:.1f} s")
    from strategies.registry import resolve

    aliases = {n: resolve(n, solo=True) for n in strategies if resolve(n, solo=True) != n}
    return AIScale(list(strategies), strengths, games, seed, round(time.perf_counter() - t0, 1), beats, aliases)


# ----------------------------------------------------------------------------- text and file

def cell(b: Beat) -> str:
    return f"{b.win_rate:.1%} [{b.ci_low:.1%}, {b.ci_high:.1%}]"


def table(scale: AIScale, label: Callable[[str], str] | None = None) -> list[str]:
    """Markdown: strategy | one column per A.I. strength, each cell "win% [lo%, hi%]"; an alias is
    labelled with the player it played (``scale.aliases``) unless ``label`` says otherwise."""
    if label is None:
        def label(name: str) -> str:
            return f"{name} (= {scale.aliases[name]})" if name in scale.aliases else name

    lines = ["| strategy | " + " | ".join(scale.strengths) + " |", "|---" * (len(scale.strengths) + 1) + "|"]
    for name in scale.strategies:
        lines.append(f"| **{label(name)}** | " + " | ".join(cell(scale.beat(name, s)) for s in scale.strengths) + " |")
    return lines


def note(scale: AIScale) -> str:
    return (f"Each strategy's beat rate against the rulebook's Solo A.I. (TWO PLAYERS GAME & SOLO MODE) at each strength, with "
            f"its Wilson 95% CI: n = {scale.games:,} Solo games a cell, on common seeds (master seed {scale.seed}), the player's "
            f"Character dealt balanced, the A.I. first in turn order in {int(ai_first(scale.games).sum()):,} of them. A beat is "
            "a win (most VP, then most resources); a full tie is half a beat."
            + "".join(f" `{a}` plays `{t}` against the A.I." for a, t in scale.aliases.items()))


def write(scale: AIScale, run_dir: str | Path) -> Path:
    """Record the scale in a run directory (:data:`analysis.data.AI_SCALE_FILE`), where the report reads it."""
    p = Path(run_dir) / AI_SCALE_FILE
    p.write_text(json.dumps(scale.to_dict(), indent=1) + "\n")
    return p


def read(run_dir: str | Path) -> AIScale | None:
    p = Path(run_dir) / AI_SCALE_FILE
    return AIScale.from_dict(json.loads(p.read_text())) if p.exists() else None
