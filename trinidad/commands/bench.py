"""``trinidad bench``: the engine's speed, compile times and memory (trinidad.bench), of either game (``--game``)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from trinidad.commands.common import fail, game_option, refuse


def bench(
    game: Annotated[str | None, typer.Option("--game", help="the game: trinidad (default) or rio-de-la-plata")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="2-5 (default 4; Río de la Plata: the length of a "
                                                                       "--strategies list, else 4)")] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", help="games for the jitted measurement (default: 20000, scaled down by a planning player's budget: rollout 128; "
                              "Río de la Plata: 1000, with search seats 1000 / (search seats x budget x (1 + depth)), at least 4)")] = None,
    nojit_games: Annotated[int | None, typer.Option(
        help="Trinidad: games for the NUMBA_DISABLE_JIT=1 measurement; 0 skips it (default: 6; 0 for a planning player)")] = None,
    strategies: Annotated[str | None, typer.Option(
        help="Trinidad: the strategy for every seat (default heuristic); Río de la Plata: one player for every seat or one a seat, "
             "comma-separated (default heuristic,builder,officer,merchant, the first --players of them and contractor; "
             "random, heuristic, the archetypes, search:budget=16,width=4,depth=1)")] = None,
    reps: Annotated[int, typer.Option("--reps", help="chunks a rate is the median of")] = 3,
    level: Annotated[str | None, typer.Option("--level", help="Río de la Plata: beginner, intermediate or expert (default expert)")] = None,
    short: Annotated[bool, typer.Option("--short", help="Río de la Plata: the Short game", metavar="")] = False,
    cold: Annotated[bool | None, typer.Option("--cold/--no-cold", help="Trinidad: also measure a cold compile (minutes) in a fresh cache "
                                                                     "(default: on)", metavar="")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress lines", metavar="")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object", metavar="")] = False,
    record: Annotated[bool, typer.Option("--record", help="Trinidad: store the cost per game in strategies/measurements.json "
                                                          "(trinidad players)", metavar="")] = False,
    solo_games: Annotated[int, typer.Option(help="with --record: Solo games a strength to measure the cost of a Solo game too (0: not)")] = 0,
) -> None:
    """Measure games/s (total and per core), core-seconds per game, the speed-up over the same
    engine without JIT, cold compile and cached start times, and peak memory, with the strategy's
    search budget. Progress goes to stderr, a line per measured chunk. --game rio-de-la-plata: a seat
    table of Río de la Plata's players, on one core after a warm-up game: games/s per core and
    core-seconds per game."""
    from trinidad.bench import measure_table, report_lines

    g = game_option(game)
    if games is not None and games < 1:
        fail(f"--games: must be >= 1, got {games}")
    if reps < 1:
        fail(f"--reps: must be >= 1, got {reps}")
    if g.bench is not None:  # a game that supplies its seat table (trinidad.games.spec.BenchTable)
        refuse([("--nojit-games", nojit_games), ("--cold", cold or None), ("--record", record), ("--solo-games", solo_games)], "Trinidad", g)
        try:
            table = g.bench(strategies, players, level=level, short=short)
            res = measure_table(g.name, table, len(table.seats), games=games, reps=reps, progress=not quiet)
        except ValueError as e:
            fail(f"--{e}")
    else:
        res = _trinidad(players, games, nojit_games, strategies, reps, level, short, cold, quiet, record, solo_games, g)
    if as_json:
        print(json.dumps(res, sort_keys=True))
        return
    for line in report_lines(res):
        typer.echo(line)


def _trinidad(players, games, nojit_games, strategies, reps, level, short, cold, quiet, record, solo_games, g) -> dict:
    """Trinidad's bench (trinidad.bench.run_bench): a strategy at every seat, with the cold compile, the cached start,
    the no-JIT engine and all threads; ``--record`` stores its cost."""
    from strategies.registry import StrategyError
    from trinidad.bench import record as record_cost
    from trinidad.bench import run_bench

    refuse([("--level", level), ("--short", short)], "Río de la Plata", g)
    players = 4 if players is None else players
    if not 2 <= players <= 5:
        fail(f"--players: must be 2..5, got {players}")
    if nojit_games is not None and nojit_games < 0:
        fail(f"--nojit-games: must be >= 0 (0 skips the measurement), got {nojit_games}")
    try:
        res = run_bench(players=players, games=games, nojit_games=nojit_games, strategy=strategies or "heuristic",
                        cold=True if cold is None else cold, progress=not quiet, reps=reps)
    except StrategyError as e:
        fail(f"--strategies: {e}")
    if record:
        entry = record_cost(res, solo_games, say=None if quiet else lambda line: typer.echo(f"bench: {line}", err=True))
        typer.echo(f"recorded in strategies/measurements.json: {res['strategy']} {json.dumps(entry)}", err=True)
    return res
