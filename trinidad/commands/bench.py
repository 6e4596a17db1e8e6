"""``trinidad bench``: the engine's speed, compile times and memory (trinidad.bench)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from trinidad.commands.common import fail


def bench(
    players: Annotated[int, typer.Option("--players", "-p")] = 4,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", help="games for the jitted measurement (default: 20000, scaled down by a planning player's budget: rollout 128)")] = None,
    nojit_games: Annotated[int | None, typer.Option(
        help="games for the NUMBA_DISABLE_JIT=1 measurement; 0 skips it (default: 6; 0 for a planning player)")] = None,
    strategies: Annotated[str, typer.Option(help="strategy for every seat")] = "heuristic",
    cold: Annotated[bool, typer.Option("--cold/--no-cold", help="also measure a cold compile (minutes) in a fresh cache", metavar="")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress lines", metavar="")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object", metavar="")] = False,
    record: Annotated[bool, typer.Option("--record", help="store the cost per game in strategies/measurements.json (trinidad players)",
                                         metavar="")] = False,
    solo_games: Annotated[int, typer.Option(help="with --record: Solo games a strength to measure the cost of a Solo game too (0: not)")] = 0,
) -> None:
    """Measure games/s (total and per core), core-seconds per game, the speed-up over the same
    engine without JIT, cold compile and cached start times, and peak memory, with the strategy's
    search budget. Progress goes to stderr, a line per measured chunk."""
    from strategies.registry import StrategyError
    from trinidad.bench import format_budget, run_bench, summary_line
    from trinidad.bench import record as record_cost

    if not 2 <= players <= 5:
        fail(f"--players: must be 2..5, got {players}")
    if games is not None and games < 1:
        fail(f"--games: must be >= 1, got {games}")
    if nojit_games is not None and nojit_games < 0:
        fail(f"--nojit-games: must be >= 0 (0 skips the measurement), got {nojit_games}")
    try:
        res = run_bench(players=players, games=games, nojit_games=nojit_games, strategy=strategies, cold=cold,
                        progress=not quiet)
    except StrategyError as e:
        fail(f"--strategies: {e}")
    if record:
        entry = record_cost(res, solo_games, say=None if quiet else lambda line: typer.echo(f"bench: {line}", err=True))
        typer.echo(f"recorded in strategies/measurements.json: {res['strategy']} {json.dumps(entry)}", err=True)
    if as_json:
        print(json.dumps(res, sort_keys=True))
        return
    typer.echo(summary_line(res))
    for k, v in res.items():
        typer.echo(f"{k:>24}: {'skipped' if v is None else format_budget(v) if k == 'budget' else v}")
