"""``trinidad runs``: read run directories (summary, digest, comparison) without the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from trinidad.commands.common import Command, Group, fail

runs_app = typer.Typer(cls=Group, add_completion=False, no_args_is_help=True, help="Inspect run directories.")


@runs_app.command("summarize", cls=Command)
def runs_summarize(directory: Annotated[Path, typer.Argument(help="a run directory (with manifest.json)")]) -> None:
    """Print a short text summary of a run."""
    from analysis.data import RunError
    from trinidad.runner.summary import summarize

    try:
        for line in summarize(directory):
            typer.echo(line)
    except RunError as e:
        fail(str(e))


@runs_app.command("digest", cls=Command)
def runs_digest(directories: Annotated[list[Path], typer.Argument(help="run directories (with manifest.json)")]) -> None:
    """Print a content digest of each run's games and decades tables: equal digests, same games
    (whatever the sharding, resume, workers or machine)."""
    from polars.exceptions import PolarsError

    from trinidad.digest import run_digest

    for d in directories:
        try:
            dg = run_digest(d)
        except (FileNotFoundError, PolarsError) as e:
            fail(f"runs digest: {d}: {e}" if isinstance(e, PolarsError) else f"runs digest: {e}")
        typer.echo(f"{d}: games {dg['games']}  decades {dg['decades']}")


@runs_app.command("compare", cls=Command)
def runs_compare(
    a: Annotated[Path, typer.Argument(help="the run to compare against (e.g. before a change)")],
    b: Annotated[Path, typer.Argument(help="the run compared (e.g. after the change)")],
) -> None:
    """Print two runs side by side: win rate by Character, VP by source and buildings per seat,
    paired by deal where the runs share their seeds (one experiment before and after a change)."""
    from analysis import RunError
    from analysis.run_diff import compare_runs, format_comparison

    try:
        c = compare_runs(a, b)
    except RunError as e:
        fail(f"runs compare: {e}")
    for line in format_comparison(c, "/".join(a.parts[-2:]), "/".join(b.parts[-2:])):
        typer.echo(line)
