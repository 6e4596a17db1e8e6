"""``trinidad tournament``: strategies against each other, seats rotated on common seeds (trinidad.tournament)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from trinidad.commands.common import fail, with_bar


def tournament(
    strategies: Annotated[str | None, typer.Option(help="comma-separated strategies (names in strategies/ or TOML paths), at least 2")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="2-5 (default: the number of strategies if 2-5, else 4)")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="games in total, rounded up to a multiple of the number of strategies")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="master seed")] = 1,
    threads: Annotated[int | None, typer.Option("--threads", "-t", help="threads (default: all); results do not depend on it")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object", metavar="")] = False,
) -> None:
    """Play strategies against each other, every base seed once per rotation of the strategies over
    the seats, and print each strategy's win rate (Wilson 95% CI), mean rank and mean VP."""
    from trinidad.tournament import TournamentError, run_tournament

    if not strategies:
        from strategies.registry import listing

        fail(f"--strategies: required, at least 2 comma-separated names (available: {listing()}) or TOML paths")
    from strategies.registry import split_names  # names with settings keep their commas (search:budget=64,width=4)

    names = split_names(strategies)
    res = with_bar("tournament", "games", as_json, TournamentError, lambda bar: run_tournament(
        names, players=players, games=games, seed=seed, threads=threads, progress=bar and bar.update))
    if res is None:
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"Tournament, {res.players} players, seed {res.seed}")
    for col in ("strategy", "win rate", "95% CI (Wilson)", "mean rank", "mean VP", "n"):
        t.add_column(col, justify="left" if col == "strategy" else "right")
    for s in sorted(res.strategies, key=lambda x: -x.win_rate):
        t.add_row(s.name, f"{s.win_rate:.1%}", f"{s.ci_low:.1%} - {s.ci_high:.1%}", f"{s.mean_rank:.2f}", f"{s.mean_vp:.1f}",
                  f"{s.n:,}")
    con = Console(file=sys.stdout, width=110)
    con.print(t)
    typer.echo(f"{res.games:,} games: {res.base_seeds:,} seeds x {res.rotations} rotations of the strategies over the seats.")
    if res.aliases:
        typer.echo("Aliases: " + ", ".join(f"{a} = {t}" for a, t in res.aliases.items()) + " (as resolved for these games).")
    typer.echo(f"n = seat-games (each seat a strategy holds counts); fair win rate 1/{res.players} = {1 / res.players:.1%}.")
    typer.echo(f"Ties: a tie for first among k seats gives each 1/k of a win ({res.tie_games:,} games had one); "
               "the CI uses this fractional count.")
