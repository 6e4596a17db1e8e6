"""The ``trinidad`` command (typer + rich): the app and its commands, one module a command or
command group under :mod:`trinidad.commands`. A command module imports the engine inside its
function, so that the commands that read a finished run (``report``, ``compare``, ``runs``) load
no compiler."""

from __future__ import annotations

import typer

from trinidad.commands.balance import balance
from trinidad.commands.bench import bench
from trinidad.commands.cards import cards
from trinidad.commands.common import Command, Group
from trinidad.commands.ladder import ladder
from trinidad.commands.play import play
from trinidad.commands.players import players
from trinidad.commands.probe import probe
from trinidad.commands.report import compare, report
from trinidad.commands.run import run
from trinidad.commands.runs import runs_app
from trinidad.commands.tournament import tournament
from trinidad.commands.train import train
from trinidad.commands.tune import tune
from trinidad.commands.warm import warm

app = typer.Typer(cls=Group, add_completion=False, no_args_is_help=True, help="Trinidad balance simulator.")

# The commands that only read run directories: no engine runs, so no compile is watched (watching
# imports Numba, which a report on a finished run never needs; issue 95).
READS_RUNS = {"report", "compare", "runs"}


@app.callback()
def _main(ctx: typer.Context) -> None:
    """Trinidad balance simulator."""
    if ctx.invoked_subcommand in READS_RUNS:
        return
    from trinidad.lab.compile_progress import install

    install()  # the first run after an install or an engine edit says what it compiles and how far along it is


for _command in (play, players, cards, warm, run, balance, tournament, train, probe, ladder, tune):
    app.command(cls=Command)(_command)
app.add_typer(runs_app, name="runs")
for _command in (report, compare, bench):
    app.command(cls=Command)(_command)


if __name__ == "__main__":
    app()
