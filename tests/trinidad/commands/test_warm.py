"""``trinidad warm`` (trinidad.commands.warm): a game's engine compiled or loaded once; ``--game
rio-de-la-plata`` plays one game of Río de la Plata's bench table (the entry point tests/rio compile); the
options of Trinidad's engine with another game, and a game of no name, are one line each."""

from __future__ import annotations

from typer.testing import CliRunner

from trinidad.cli import app

cli = CliRunner()


def test_warm_rio_de_la_plata_compiles_its_engine():
    r = cli.invoke(app, ["warm", "--game", "rio-de-la-plata"])
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()  # a compile's progress lines first, where it compiles
    assert lines[-1].startswith("Río de la Plata's engine ready in ") and lines[-1].endswith(" s")


def test_bad_warm_options_are_one_line():
    r = cli.invoke(app, ["warm", "--game", "rio-de-la-plata", "--solo"])
    assert r.exit_code != 0
    assert r.output.strip().endswith("--solo: an option of Trinidad's games, not of Río de la Plata's (--game rio-de-la-plata)")
    assert r.output.strip().count("\n") == 0
    r = cli.invoke(app, ["warm", "--game", "chess"])
    assert r.exit_code != 0 and r.output.strip().count("\n") == 0 and "chess" in r.output
