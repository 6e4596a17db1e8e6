"""The games the harness plays, one module each (:class:`trinidad.games.spec.Game`): Trinidad
(:mod:`trinidad.games.trinidad`) and Río de la Plata (:mod:`trinidad.games.rio`). An experiment names its
game (``game = "rio-de-la-plata"``; none: ``"trinidad"``), and so does a run's manifest (none: Trinidad's);
``trinidad run``, ``trinidad report`` and ``trinidad runs summarize`` find the game here, and the runner
(trinidad.runner) calls it through its :class:`~trinidad.games.spec.Game` alone.

What every game's experiment shares is read by :mod:`trinidad.games.keys`; the records into table
columns by :mod:`trinidad.games.frames`."""

from __future__ import annotations

import json
from pathlib import Path

from trinidad.games import rio, trinidad
from trinidad.games.keys import ExperimentError
from trinidad.games.spec import Game

__all__ = ["DEFAULT", "GAMES", "Game", "game_named", "game_of", "game_of_document", "game_of_run"]

GAMES: dict[str, Game] = {g.name: g for g in (trinidad.GAME, rio.GAME)}
DEFAULT = trinidad.NAME  # an experiment or a run that names no game


def game_named(name, key: str = "game") -> Game:
    """The game called ``name``; anything else is one line listing the games (``key``: the flag or
    key that named it)."""
    if not isinstance(name, str) or name not in GAMES:
        raise ExperimentError(f"experiment: {key}: unknown game {name!r}; allowed: {', '.join(GAMES)}")
    return GAMES[name]


def game_of_document(d: dict) -> Game:
    """The game of a TOML-shaped experiment document."""
    return game_named(d.get("game", DEFAULT))


def game_of(exp) -> Game:
    """The game of an experiment (its class's ``GAME``)."""
    return GAMES[type(exp).GAME]


def game_of_run(out: str | Path) -> Game:
    """The game of a run directory, named by its manifest (none: Trinidad's, as every run written
    before a second game came); a missing or unreadable manifest is Trinidad's too (the command
    then says what is wrong with the directory)."""
    try:
        m = json.loads((Path(out) / "manifest.json").read_text())
    except (OSError, ValueError):
        return GAMES[DEFAULT]
    name = m.get("game", DEFAULT) if isinstance(m, dict) else DEFAULT
    return GAMES.get(name, GAMES[DEFAULT])
