"""What every command module of ``trinidad`` (trinidad.cli) shares: the command and group classes,
the one-line error, the ``--game`` option of the commands that play either game, and the progress bar
on stderr."""

from __future__ import annotations

import json
import sys

import typer
from typer.core import TyperCommand, TyperGroup


class _NoMetavarHelp:
    """``--help`` is a flag: show it without the ``<bool>`` placeholder Typer gives every flag that
    does not set ``metavar`` (our own flags set ``metavar=""``)."""

    def get_help_option(self, ctx):
        opt = super().get_help_option(ctx)
        if opt is not None:
            opt.metavar = ""
        return opt


class Command(_NoMetavarHelp, TyperCommand):
    """Every ``trinidad`` command's class (trinidad.cli registers each with it)."""


class Group(_NoMetavarHelp, TyperGroup):
    """The class of ``trinidad`` and of its command groups (``trinidad runs``)."""


class LazyBar:
    """A rich progress bar on stderr, started by the first update (callers pass ``update`` as a
    progress callback only when stderr is a terminal)."""

    def __init__(self, label: str, unit: str) -> None:
        self.label, self.unit = label, unit
        self.bar = self.task = None

    def update(self, done: int | None, total: int, note: str = "") -> None:
        """``done`` None: only the note changes."""
        if self.bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn(f"[bold]{self.label}"), BarColumn(), MofNCompleteColumn(), TextColumn(self.unit),
                                TextColumn("{task.fields[note]}"), TimeElapsedColumn(), console=Console(stderr=True),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total, note="")
        if done is None:
            self.bar.update(self.task, note=note)
        else:
            self.bar.update(self.task, completed=done, note=note)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def fail(msg: str) -> None:
    typer.echo(msg, err=True)
    raise typer.Exit(2)


def game_option(name: str | None):
    """``--game NAME`` (trinidad.games; none: Trinidad): the game's :class:`~trinidad.games.spec.Game`; a name of
    no game is one line listing the games (:func:`trinidad.games.game_named`'s, without its ``experiment:``)."""
    from trinidad.games import DEFAULT, ExperimentError, game_named

    try:
        return game_named(DEFAULT if name is None else name, "--game")
    except ExperimentError as e:
        fail(str(e).removeprefix("experiment: "))


def refuse(options: list[tuple[str, object]], whose: str, game) -> None:
    """Options of another game's (``whose``: its title) given with ``game``: the first given (not None, False or
    0) ends the command with one line naming it and the game asked for."""
    for flag, value in options:
        if value is not None and value is not False and value != 0:
            fail(f"{flag}: an option of {whose}'s games, not of {game.title}'s (--game {game.name})")


def with_bar(label: str, unit: str, as_json: bool, errors: type[Exception] | tuple[type[Exception], ...], work):
    """``work(bar)`` under a progress bar on stderr (``bar`` None when stderr is no terminal or the
    output is JSON); an error of ``errors`` ends the command with its one line (``--`` and the
    message, which starts with the option's name). With ``as_json`` the result's ``to_dict()`` is
    printed as one JSON object and None returned; otherwise the result, for the command's table."""
    bar = LazyBar(label, unit)
    try:
        res = work(bar if not as_json and sys.stderr.isatty() else None)
    except errors as e:
        fail(f"--{e}")
    finally:
        bar.stop()
    if as_json:
        print(json.dumps(res.to_dict()))
        return None
    return res
