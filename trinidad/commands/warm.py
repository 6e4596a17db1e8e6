"""``trinidad warm``: compile (or load from its cache) a game's engine once and say how long it took."""

from __future__ import annotations

import time
from typing import Annotated

import typer


def warm(
    game: Annotated[str | None, typer.Option("--game", help="the game: trinidad (default) or rio-de-la-plata")] = None,
    profile: Annotated[int, typer.Option("--profile", help="after a compile, list the N functions that took longest to compile "
                                                          "(run it with NUMBA_CACHE_DIR=$(mktemp -d) for a cold compile)")] = 0,
    extended_war: Annotated[bool, typer.Option("--extended-war", help="the engine with the EXTENDED WAR (compiled on its first use)",
                                               metavar="")] = False,
    solo: Annotated[bool, typer.Option("--solo", help="the engine with the Solo A.I. (compiled on its first use)", metavar="")] = False,
) -> None:
    """Compile (or load from cache) the engine once and report how long it took: the normal game, or
    with --extended-war / --solo the engine that includes them (each compiled on first use). --game
    rio-de-la-plata: Río de la Plata's game loop (one game of its bench table), which compiles none of
    Trinidad's engine."""
    from trinidad.commands.common import game_option, refuse
    from trinidad.lab.compile_progress import profile as compile_profile

    g = game_option(game)
    if g.bench is not None:  # a game that supplies its seat table (trinidad.games.spec.BenchTable): one game compiles it
        refuse([("--extended-war", extended_war), ("--solo", solo)], "Trinidad", g)
    prof = compile_profile() if profile > 0 else None
    t0 = time.perf_counter()
    if g.bench is not None:
        g.bench().play(0, 1)
        typer.echo(f"{g.title}'s engine ready in {time.perf_counter() - t0:.1f} s")
        _profile_lines(prof, profile)
        return
    from sim.rules import load_rules
    from sim.state import AI_STRATEGY
    from strategies.match import run_game
    from strategies.registry import load_strategies

    W, _ = load_strategies(["random"])
    rules = load_rules(overrides={"extended_war": {"enabled": True}} if extended_war else None)
    if solo:
        run_game(rules, W, 2, 0, [0, AI_STRATEGY])
    else:
        run_game(rules, W, 3, 0, [0, 0, 0])
    parts = [p for p, on in (("the Extended War", extended_war), ("the Solo A.I.", solo)) if on]
    typer.echo(f"engine ready in {time.perf_counter() - t0:.1f} s" + (f" (with {' and '.join(parts)})" if parts else ""))
    _profile_lines(prof, profile)


def _profile_lines(prof, profile: int) -> None:
    """The ``--profile`` table: the functions compiled, the ``profile`` that took longest."""
    if prof is not None:
        n, specs, own, llvm = prof.totals()
        typer.echo(f"compiled {n} functions ({specs} specializations): {own:.1f} s, of which {llvm:.1f} s in LLVM")
        typer.echo(f"{'own s':>8} {'LLVM s':>8} {'n':>3}  function")
        for name, k, t, ll in prof.table(profile):
            typer.echo(f"{t:8.2f} {ll:8.2f} {k:3d}  {name}")
