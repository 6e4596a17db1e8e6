"""One game of a run directory, set up exactly as the run played it (``trinidad play --run DIR --index N``),
so the design report's example games can be replayed and watched (issue 23 part 4).

A run's game is a pure function of what its manifest records: the variant's resolved rules (kept in
the manifest, so a later change of the rules file does not change the replay), the master seed and
the game index (the game's seed, :func:`sim.rng.player_seeds`), the strategies of the seats
(:meth:`trinidad.experiment.Experiment.seat_strategies`) and their Characters
(:meth:`~trinidad.experiment.Experiment.seat_characters`; drafted by the game when the run drafts),
and the First Game Option. The strategies are loaded by name now: a strategy file changed since the
run plays differently.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.dataset import MANIFEST


class ReplayError(ValueError):
    """A bad ``--run``/``--index``/``--players``/``--variant``; one line starting with the option."""


@dataclass
class RunGame:
    doc: dict  # the variant's resolved rules document
    players: int  # players besides the A.I.
    seats: int  # seats of the game (one more with the A.I.)
    seed: int  # the game's seed
    strategy_ids: list[int]  # per seat, into ``W`` (sim.state.AI_STRATEGY for the A.I.)
    names: list[str]  # per seat, as the games table names them
    characters: list[int] | None  # forced Character ids per seat (None: drafted)
    paid: list[int] | None  # VP each seat paid for its Character at setup (a run with [characters] prices), or None
    first_game: bool
    ai_seat: int | None
    W: np.ndarray


def run_game_setup(run: str | Path, game: int, players: int | None = None, variant: str | None = None) -> RunGame:
    """Everything :func:`strategies.match.run_game` needs to play game ``game`` of the run's
    ``players``-player games of ``variant`` (default: the run's only player count, its first variant).
    With the A.I., ``players`` counts the players besides it (as ``trinidad play --ai`` does)."""
    from sim.rng import player_seeds
    from sim.rule_overrides import recorded_doc
    from sim.rules import RulesError, ai_strength_names, rules_from_doc
    from sim.state import AI_STRATEGY
    from strategies.registry import StrategyError, compile_players
    from trinidad.experiment import ExperimentError, experiment_from_dict
    from trinidad.runner.manifest import experiment_of_run

    p = Path(run)
    try:
        manifest = json.loads((p / MANIFEST).read_text())
        exp = experiment_from_dict(experiment_of_run(p))
    except (OSError, ValueError) as e:
        raise ReplayError(f"run: {p}: not a run directory ({str(e) or type(e).__name__})") from None
    except ExperimentError as e:
        raise ReplayError(f"run: {p}: its experiment no longer loads ({e})") from None
    if manifest.get("game", "trinidad") != "trinidad":  # trinidad.games: a run of another game names it
        raise ReplayError(f"run: {p}: a run of {manifest['game']}; trinidad play replays Trinidad's games only")
    if players is None:
        if len(exp.players) > 1:
            raise ReplayError(f"players: the run has {', '.join(map(str, exp.players))} players; name one")
        players = exp.players[0]
    if players not in exp.players:
        raise ReplayError(f"players: the run has {', '.join(map(str, exp.players))} players, got {players}")
    names = [v.name for v in exp.variants]
    variant = variant or names[0]
    if variant not in names:
        raise ReplayError(f"variant: the run's variants are {', '.join(names)}, got {variant!r}")
    if not 0 <= game < exp.games:
        raise ReplayError(f"index: the run's games are 0..{exp.games - 1}, got {game}")
    vi = names.index(variant)
    recorded = [v for v in manifest.get("variants", []) if v.get("name") == variant and v.get("rules")]
    # the rules the run played, as recorded (numbers split into one key per card since: sim.rule_overrides.recorded_doc)
    doc = recorded_doc(recorded[0]["rules"]) if recorded else exp.resolved_rules_docs()[vi]
    try:
        rules_from_doc(doc)
        pl = compile_players(exp.strategy_names(), solo=bool(exp.ai))
    except (RulesError, StrategyError) as e:
        raise ReplayError(f"run: {p}: {e}") from None
    gi = np.array([game], np.int64)
    ns = exp.seats(players)
    ids = [int(x) for x in exp.seat_strategies(players, gi)[0]]
    chars = exp.seat_characters(players, gi)
    paid = exp.seat_paid(players, chars)  # the prices the run charged (trinidad.experiment, [characters] prices)
    strat_names = exp.strategy_names()
    ai_seat = ids.index(AI_STRATEGY) if AI_STRATEGY in ids else None
    strength = None
    if ai_seat is not None:
        from sim.rules import RK

        strength = ai_strength_names(doc)[int(rules_from_doc(doc).k[RK.AI_STRENGTH])]
    return RunGame(doc=doc, players=players, seats=ns, seed=int(player_seeds(exp.seed, ns, game, 1)[0]), strategy_ids=ids,
                   names=[f"ai-{strength}" if i == AI_STRATEGY else strat_names[i] for i in ids],
                   characters=None if chars is None else [int(c) for c in chars[0]],
                   paid=None if paid is None else [int(v) for v in paid[0][:ns]], first_game=exp.first_game, ai_seat=ai_seat,
                   W=pl.matrix())
