"""Experiments: what a batch run plays (``trinidad run [EXPERIMENT.toml]``), for every game the
harness plays (:mod:`trinidad.games`). The file names its game, ``game = "rio-de-la-plata"``; a file
that names none is Trinidad's. Each game reads its own keys: Trinidad's in
:mod:`trinidad.games.trinidad_experiment` (its Characters, the Solo A.I., the Extended War),
Río de la Plata's in :mod:`trinidad.games.rio_experiment` (its experience levels, the Short game); the
keys both have (name, players, games, seed, out, shard_games, ``[seats]``, ``[rules]``,
``[[variants]]``, ``[[tiers]]``) are read alike by :mod:`trinidad.games.keys`.

Every error is one line naming the key and what is allowed (:class:`ExperimentError`). Trinidad's
names are importable from here as before (:class:`Experiment`, ...).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trinidad.games import game_named, game_of_document
from trinidad.games.keys import SEAT_ASSIGN, ExperimentError, Variant, read_document, tier_runs
from trinidad.games.trinidad_experiment import AI_MAX_PLAYERS, CHAR_ASSIGN, DEFAULT_EXPERIMENT, Experiment

__all__ = ["AI_MAX_PLAYERS", "CHAR_ASSIGN", "DEFAULT_EXPERIMENT", "SEAT_ASSIGN", "Experiment", "ExperimentError", "Variant",
           "experiment_document", "experiment_from_dict", "load_experiment", "tier_experiments"]


def experiment_from_dict(d: dict, where: str = "experiment"):
    """Validate a parsed experiment document of any game (its ``game`` key; none: Trinidad)."""
    return game_of_document(d).experiment(d, where)


def tier_experiments(d: dict, where: str = "experiment") -> list:
    """(tier name, experiment) of a document with ``[[tiers]]`` of any game (its ``game`` key), strongest first,
    each into OUT/<tier name> (:func:`trinidad.games.keys.tier_runs`)."""
    return tier_runs(d, where, game_of_document(d).experiment)


def load_experiment(path: str | Path | None = None, **flags: Any):
    """Read an experiment file (default: the built-in one of the flags' ``game``, else Trinidad's) and
    apply command-line flags (players, games, seed, out, strategies, game...) over it."""
    d, p = experiment_document(path, **flags)
    return experiment_from_dict(d, str(p))


def experiment_document(path: str | Path | None = None, **flags: Any) -> tuple[dict, Path]:
    """The experiment file's document (default: the built-in one of the flags' ``game``, else
    Trinidad's) with the command-line flags applied, and its path."""
    if path:
        p = Path(path)
    else:
        p = game_named(flags["game"], "--game").default_experiment if flags.get("game") is not None else DEFAULT_EXPERIMENT
    if flags.get("game") is not None:
        game_named(flags["game"], "--game")  # a flag naming no game: one line, before the file is read
    return read_document(p, flags), p
