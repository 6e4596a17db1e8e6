"""Río de la Plata's experiments: what a batch run of Río de la Plata plays (``trinidad run FILE`` of a
file with ``game = "rio-de-la-plata"``, or ``trinidad run --game rio-de-la-plata``)::

    game = "rio-de-la-plata"
    name = "rio-levels"
    players = [3, 4]          # 2..5, or one number
    games = 2000              # per player count and variant
    seed = 7
    out = "runs/rio-levels"
    shard_games = 1000        # games per Parquet shard (the unit of resume)
    # precision = 0.03        # blocks until every strategy's and start position's win rate is within +-3 points
    level = ["beginner", "expert"]   # experience level(s) (HOW TO LEARN THE GAME); a list: one variant each
    short = false             # the Short game (VARIANTS); [false, true]: both, one variant each

    [seats]
    strategies = ["heuristic", "random"]   # Río de la Plata's players (rio.play.PLAYERS), cycled to fill the seats
    assign = "rotate"                      # fixed | rotate | permute

    [rules]
    # file = "my-rio-rules.toml"           # a whole rules file instead of the bundled one
    overrides.office.fine_vp = -3          # Río de la Plata's rule keys (rio.rules)

    [[variants]]
    name = "base"

    [[variants]]
    name = "cheap-offices"
    overrides.office.fine_vp = 0

    [[sweeps]]                             # a rules number and its values, one variant each (trinidad.games.sweeps)
    key = "office.fine_vp"
    values = [-5, -3, 0]

The variants are the file's ``[[variants]]`` crossed with the levels and the Short game, each on the
same seeds, named as the A.I. strengths name Trinidad's (:func:`trinidad.games.keys.crossed_variants`):
``expert``, ``cheap-offices-beginner``, ``base-expert-short``... The seats, the variants, the rules and
the shards mean what they mean for Trinidad (:mod:`trinidad.games.keys`). A key of Trinidad's
experiments (its Characters, the Solo A.I., the Extended War) is one line naming it; so is a rule
of Trinidad's (rio.rules).

Player tiers are read as Trinidad's are (:func:`trinidad.games.keys.tier_runs`): ``[[tiers]]``, each a
``name`` and its ``strategies`` (Río de la Plata's players) in place of ``seats.strategies``, play the same
games once per tier into OUT/<name> (``trinidad run FILE``; :func:`trinidad.experiment.tier_experiments`)::

    [[tiers]]
    name = "search"
    strategies = ["search", "heuristic", "search", "heuristic"]
    [[tiers]]
    name = "heuristic"
    strategies = ["heuristic"]
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from rio.keys import Level, RulesError, member_names
from trinidad.games import keys, sweeps
from trinidad.games.keys import BaseExperiment, Variant, err, int_key

GAME = "rio-de-la-plata"
DEFAULT_EXPERIMENT = Path(__file__).resolve().parents[1] / "experiments" / "rio-default.toml"
LEVELS = member_names(Level)  # beginner, intermediate, expert
_TOP_KEYS = {"game", "name", "players", "games", "seed", "out", "shard_games", "level", "short", "seats", "rules", "variants", "sweeps",
             "precision"}
_TABLE_OF = {"strategies": "seats", "assign": "seats", "file": "rules", "overrides": "rules"}
# Trinidad's keys (trinidad.games.trinidad_experiment): each is one line saying whose it is
TRINIDAD_KEYS = {"characters": "its Characters", "ai": "the Solo A.I.", "ai_games": "the Solo A.I. table",
                 "extended_war": "the Extended War expansion", "first_game": "the First Game Option"}


@dataclass
class RioVariant(Variant):
    """A variant: its rule overrides, and the experience level and game length it is played at."""

    level: str = "expert"
    short: bool = False


@dataclass
class RioExperiment(BaseExperiment):
    GAME: ClassVar[str] = GAME

    name: str = "rio-default"
    out: str = "runs/rio-default"
    game: str = GAME  # recorded: the manifest's experiment names its game
    levels: list[str] = field(default_factory=lambda: ["expert"])
    shorts: list[bool] = field(default_factory=lambda: [False])
    strategies: list[str] = field(default_factory=lambda: ["heuristic"])
    seat_assign: str = "fixed"
    rules_file: str | None = None
    overrides: dict = field(default_factory=dict)
    variants: list[RioVariant] = field(default_factory=lambda: [RioVariant("base")])
    declared_variants: list[Variant] = field(default_factory=list)  # the file's variants, before the levels and lengths

    def resolved_rules_docs(self) -> list[dict]:
        """The full rules document of each variant (base file + experiment overrides + variant's), checked by rio.rules."""
        from rio.rules import RulesError, apply_overrides, load_rules_doc, pack

        return keys.variant_docs(self.variants, self.overrides, lambda: load_rules_doc(self.rules_file), apply_overrides, pack, RulesError)

    def rules_resolver(self):
        """``resolve(overrides)``: the rules document of the rules file (read once) with the experiment's
        overrides and then ``overrides``, checked by rio.rules (a sweep's points, :mod:`trinidad.games.sweeps`);
        a bad rule raises its RulesError."""
        from rio.rules import apply_overrides, load_rules_doc, pack

        base = load_rules_doc(self.rules_file)

        def resolve(overrides: dict) -> dict:
            doc = base
            for ov in (self.overrides, overrides):
                doc = apply_overrides(doc, ov) if ov else doc
            pack(doc)
            return doc

        return resolve

    def seats(self, n: int) -> int:
        """Seats of a game of ``n`` players (rows of a game in the games table)."""
        return n

    def seat_strategies(self, n: int, game_index: np.ndarray) -> np.ndarray:
        """Strategy-name indices (into :meth:`strategy_names`) per game and seat: a pure function of the game index."""
        gi = np.asarray(game_index, np.int64)
        names = self.strategy_names()
        base = np.tile(np.array([names.index(x) for x in self.lineup(n)], np.int32), (len(gi), 1))
        return np.take_along_axis(base, self._entries(n, gi), axis=1)


def check_players(names: list[str]) -> None:
    """Río de la Plata's players (rio.play): each name known, its settings valid, and one setting of
    the search player (the search seats of one table share theirs)."""
    from rio.play import PlayerError, parse_player

    searches = {str(s.settings) for s in map(parse_player, names) if s.settings}
    if len(searches) > 1:
        raise PlayerError("the search seats of one table share their settings (budget, width, depth): name one search player")


def _trinidad_rule(key: str) -> str | None:
    """The line for a sweep's key that is a rule of Trinidad's rules file (given to the wrong game), else None."""
    from sim.rule_overrides import load_rules_doc

    return "a Trinidad rule, not a Río de la Plata one" if sweeps.has_rule(load_rules_doc(), key) else None


def experiment_from_dict(d: dict, where: str = "experiment") -> RioExperiment:
    """Validate a parsed experiment document of Río de la Plata."""
    from rio.play import PlayerError

    keys.refuse_tiers(d)
    theirs = sorted(k for k in d if k in TRINIDAD_KEYS)
    if theirs:
        k = theirs[0]
        raise err(k, f"a key of Trinidad's experiments ({TRINIDAD_KEYS[k]}), not of Río de la Plata's; remove it")
    keys.unknown_keys(d, _TOP_KEYS, _TABLE_OF)
    if d.get("game") != GAME:
        raise err("game", f"expected {GAME!r} for Río de la Plata's keys, got {d.get('game')!r}")
    e = RioExperiment()
    e.name = str(d.get("name", Path(where).stem))
    e.players = keys.player_counts(d, e.players, 2, 5)
    e.games = int_key(d, "games", e.games, 1)
    e.seed = int_key(d, "seed", e.seed, 0, 2**63 - 1)
    e.shard_games = int_key(d, "shard_games", e.shard_games, 1, 1_000_000)
    e.precision = keys.precision_key(d)
    e.out = keys.out_dir(d, e.name)
    e.levels = keys.choices(d, "level", LEVELS, e.levels[0], f"one of {', '.join(LEVELS)}")
    e.shorts = keys.choices(d, "short", [False, True], False, "true or false")
    e.strategies, e.seat_assign = keys.seats_table(d, e.strategies, e.seat_assign, check_players, PlayerError)
    e.rules_file, e.overrides = keys.rules_table(d)
    e.declared_variants = keys.variants_list(d)
    swept = sweeps.read(d)
    sweeps.refuse_crossed(swept, "level", e.levels, "levels")
    sweeps.refuse_crossed(swept, "short", e.shorts, "game lengths (short)")
    played, e.sweeps = sweeps.variants(swept, e.declared_variants, e.rules_resolver(), RulesError, other_game=_trinidad_rule)
    axes = [[(lv, lv) for lv in e.levels], [("short" if s else "full", s) for s in e.shorts]]
    e.variants = keys.crossed_variants(played, axes,
                                       lambda v, values, name: RioVariant(name, copy.deepcopy(v.overrides), values[0], values[1]))
    e.resolved_rules_docs()  # fail now, with the key, rather than in a worker
    return e


def record(exp) -> dict:
    """The experiment as the TOML-shaped document :func:`experiment_from_dict` reads (workers, resume)."""
    return ({
        "game": GAME, "name": exp.name, "players": exp.players, "games": exp.games, "seed": exp.seed, "out": exp.out,
        "shard_games": exp.shard_games, "level": exp.levels, "short": exp.shorts,
        "seats": {"strategies": exp.strategies, "assign": exp.seat_assign},
        "rules": ({"file": exp.rules_file} if exp.rules_file else {}) | {"overrides": exp.overrides},
        "variants": [{"name": v.name, "overrides": v.overrides} for v in exp.declared_variants],
    } | ({"sweeps": sweeps.record(exp.sweeps)} if getattr(exp, "sweeps", None) else {})  # the sweeps make their points again
    | ({"precision": exp.precision} if getattr(exp, "precision", None) else {}))  # a run recorded before precision has none
