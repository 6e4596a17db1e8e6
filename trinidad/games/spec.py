"""What a game gives the harness (:class:`Game`, one per module of :mod:`trinidad.games`): how its
experiment is read and recorded, how a chunk of its games is played and turned into the tables of a
shard, which tables those are, what ``trinidad runs summarize`` says of a run, which report sections
``trinidad report`` writes, and what ``trinidad bench`` plays of it (:class:`BenchTable`). The runner
(trinidad.runner: shards, the writer, the manifest, resume, the local and Ray backends) and the
commands call a game only through these.

A game's module imports its engine inside the functions it hands over, never at its top: the commands
that read a finished run (``report``, ``runs summarize``) look the game up and load no compiler."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def _nothing(*_args, **_kw) -> None:
    return None


@dataclass(frozen=True)
class BenchTable:
    """A seat table ``trinidad bench --game NAME`` measures (trinidad.bench.measure_table): named, priced by its
    planning seats' budget, and played a chunk at a time on one thread. What is played depends on the arguments
    alone: ``play(start, count)`` plays games ``start .. start + count - 1`` of the table's own fixed seeds."""

    strategy: str  # the seat table as given on the command line: one name a seat, comma-separated
    seats: tuple[str, ...]  # a player name per seat
    family: str  # the seats' player families in seat order, distinct, joined by "+" ("search+heuristic")
    budget: dict  # a planning seat's settings (what its cost per decision scales with); {} without one
    default_games: int  # --games when not given: a count that follows from the table, never from the clock
    play: Callable[[int, int], None]  # (start, count): those games played, their records discarded (memory stays flat)
    setup: dict = field(default_factory=dict)  # what else the games are played with (Río: level, short), into the result


@dataclass(frozen=True)
class Game:
    """One game of the harness. ``exp`` below is the game's experiment (its own class, with the
    fields and methods of :class:`trinidad.games.keys.BaseExperiment`, ``GAME`` its name, ``seats(n)`` the rows of a
    game in its games table, ``resolved_rules_docs()`` and ``to_dict()``)."""

    name: str  # the experiment file's ``game``
    title: str  # in words, for pages and lines
    tables: tuple[str, ...]  # a shard's tables: the run directory's folders, written in this order; the last,
    #                          "games" (one row a game and seat), is written last and marks a complete shard
    default_experiment: Path  # ``trinidad run --game NAME`` with no file
    experiment: Callable[[dict, str], Any]  # (TOML-shaped document, where) -> exp; ExperimentError: one line naming the key
    record: Callable[[Any], dict]  # exp -> the TOML-shaped document ``experiment`` reads back (workers, resume)
    players: Callable[[Any], Any]  # exp -> its players, prepared once a run and handed to every worker (picklable)
    plays_alone: Callable[[Any], bool]  # players -> whether one chunk at a time may play (objects that are not thread-safe)
    play: Callable[..., tuple]  # (exp, players, vi, n, start, count, threads) -> a chunk's records
    frames: Callable[..., tuple]  # (exp, vi, n, *records) -> the chunk's tables (polars), in ``tables`` order
    aliases: Callable[[Any], dict]  # exp -> {strategy alias: the player it names now} (the manifest)
    summary: Callable[[Path, dict], list[str]]  # (run directory, manifest) -> the lines of ``runs summarize`` after the first
    analyze: Callable[..., Any]  # (analysis.Run, **options) -> analysis.Analysis: the report's sections
    announce: Callable[..., None] = _nothing  # (exp, ai_games, say): what a run asked for besides its games
    after: Callable[..., None] = _nothing  # (exp, out, ai_games, workers, progress, say): played after the games
    engine_parts: Callable[[int], Any] = field(default=lambda _ai_games: contextlib.nullcontext())  # the engine's parts to compile
    # (exp, players) -> the rates of interest of a run with ``precision`` (trinidad.runner.sequential): (a games-table column,
    # a value of it, a label) each, the rate being the mean win credit of the seats holding that value (a tie shares the win),
    # per variant and player count; every rate the game's report gives that a designer reads, and only those that can be seen
    rates: Callable[[Any, int], list[tuple[str, Any, str]]] = field(default=lambda _exp, _n: [])
    # ``trinidad balance`` (trinidad.balance): the rules keys its search moves when the spec names none (resolved rules
    # document -> dotted keys of numbers; none: the spec must name its knobs), and the experiment keys its runs are played
    # with besides the spec's (Trinidad: the Characters dealt balanced, so that every Character's rate is measured alike)
    balance_knobs: Callable[[dict], list[str]] = field(default=lambda _doc: [])
    balance_setup: dict = field(default_factory=dict)
    # ``trinidad bench --game NAME`` (trinidad.bench.measure_table): (--strategies, --players, **the game's own options)
    # -> the BenchTable it measures; a bad option raises ValueError, one line led by its name. None: Trinidad, whose bench is
    # trinidad.bench.run_bench (a strategy at every seat, besides the cold compile, the no-JIT engine and all threads)
    bench: Callable[..., BenchTable] | None = None
    # ``trinidad balance``'s targets besides the groups: (exp, n) -> each seat's win rate at n players, as ``rates`` gives
    # its rates (none: the spec may not hold the seats); resolved rules document -> the strengths of the game's Solo A.I.
    # (none: the game has none, and no spec may target or verify against it); the games table's numeric columns a record
    # target may name (none: the spec may name no record)
    balance_seats: Callable[[Any, int], list[tuple[str, Any, str]]] = field(default=lambda _exp, _n: [])
    solo_strengths: Callable[[dict], list[str]] = field(default=lambda _doc: [])
    record_columns: tuple[str, ...] = ()
