"""``trinidad report`` and ``trinidad compare``: the HTML pages of runs (reports.build, reports.compare);
they read run directories and load no engine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from trinidad.commands.common import fail


def report(
    directories: Annotated[list[Path], typer.Argument(
        help="a run directory (with manifest.json, games/ and decades/); several: the same experiment played by different "
             "players, strongest first (the report describes the first and checks its findings against the others)",
        metavar="DIR...")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="HTML file or folder (default: DIR/report/index.html)")] = None,
    delta: Annotated[float, typer.Option(help="SPRT effect size for rule variants: a change in a Character's win rate, in points")] = 5.0,
    force: Annotated[bool, typer.Option("--force", help="write into a folder that holds files the report did not write", metavar="")] = False,
    detail_games: Annotated[int, typer.Option(
        "--detail-games", help="game indices kept for the per-game tables (the model, Eras, Wars, rule variants); win rates, "
                               "scores and finishes-above use every game")] = 20_000,
    probes: Annotated[list[Path] | None, typer.Option(
        "--probes", help="a probe result (trinidad probe ... --json > FILE) to show in the option-use section; repeatable")] = None,
) -> None:
    """Write the design report of a run: a self-contained HTML page, charts (PNG, SVG), summary.csv and summary.json,
    with the sections of the run's game (its manifest's; Trinidad's or Río de la Plata's). Several runs (player tiers,
    strongest first, or the folder of an experiment with [[tiers]]) add the tiers' section: Trinidad's Agent sensitivity
    (which findings hold at the two strongest tiers), Río de la Plata's "Do the findings hold for every tier?"."""
    from analysis import RunError
    from analysis.data import tier_dirs
    from reports.build import build_report
    from trinidad.games import game_of_run

    if not 0 < delta < 100:
        fail(f"--delta: must be between 0 and 100 (win-rate points), got {delta}")
    if detail_games < 100:
        fail(f"--detail-games: at least 100, got {detail_games}")
    try:
        first = (tier_dirs(directories[0]) or [directories[0]])[0]  # a tiers folder has no manifest: its first tier names the game
        page = build_report(directories[0], out, delta=delta / 100, force=force, others=directories[1:], detail_games=detail_games,
                            probes=probes, sections=game_of_run(first).analyze)
    except RunError as e:
        fail(str(e))
    typer.echo(f"report: {page}")


def compare(
    a: Annotated[Path, typer.Argument(help="run A: the run compared against (before a change, the other rule set, player count or tier)")],
    b: Annotated[Path, typer.Argument(help="run B: the run compared (after the change)")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="HTML file or folder (default: B/compare/index.html)")] = None,
    force: Annotated[bool, typer.Option("--force", help="write into a folder that holds files the page did not write", metavar="")] = False,
) -> None:
    """Write a page comparing two runs side by side: win rate by Character and turn position, VP
    by source, buildings; paired by deal where the runs share their seeds (B − A)."""
    from analysis import RunError
    from reports.compare import build_comparison

    try:
        page = build_comparison(a, b, out, force=force)
    except RunError as e:
        fail(str(e))
    typer.echo(f"compare: {page}")
