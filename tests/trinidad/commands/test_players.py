"""``trinidad players`` (trinidad.commands.players): the shipped players in one table, its cost and strength columns
read from the stored measurements (strategies/measurements.json) with their machine and date; ``--lab`` adds the rungs."""

from __future__ import annotations

import io
import json

import typer
from rich.console import Console
from typer.testing import CliRunner

from strategies.registry import available
from trinidad.commands import players as pc


def _text(lab: bool = False, path=pc.MEASUREMENTS) -> str:
    table, notes = pc.players_table(lab, path)
    console = Console(width=400, record=True, file=io.StringIO())
    console.print(table)
    return console.export_text() + "\n".join(notes)


def test_the_table_lists_every_shipped_player_and_the_lab_only_when_asked():
    text = _text()
    for name in available():
        assert f" {name} " in text
    assert "│ lab/" not in text
    lab = _text(lab=True)
    rungs = [n for n in available(lab=True) if n.startswith("lab/")]
    assert rungs and all(f"│ {n} " in lab for n in rungs)


def test_its_numbers_come_from_the_stored_file_with_machine_and_date(tmp_path):
    doc = json.loads(pc.MEASUREMENTS.read_text())
    ladder = doc["ladder"]
    assert ladder["commit"] and ladder["machine"] and ladder["date"] and ladder["command"].startswith("trinidad ladder")
    doc["cost"] = {"greedy": {"4p": {"core_ms": 1.25, "games": 9, "threads": 2, "machine": "Test CPU, 2 cores", "date": "2031-01-02"}},
                   "best": {"solo": {"core_ms": 3456.0, "games": 4, "threads": 1, "machine": "Test CPU, 2 cores", "date": "2031-01-02"}}}
    doc["ladder"]["against_ai"]["heuristic"]["weak"] = "12.3% [1.0%, 20.0%]"
    p = tmp_path / "m.json"
    p.write_text(json.dumps(doc))
    text = _text(path=p)
    row = next(line for line in text.splitlines() if line.startswith("│ greedy "))
    assert "1.25" in row
    assert "3,456" in next(line for line in text.splitlines() if line.startswith("│ best "))
    assert "12.3%" in next(line for line in text.splitlines() if line.startswith("│ heuristic "))
    assert "Test CPU, 2 cores (2031-01-02)" in text and ladder["machine"] in text and ladder["date"] in text
    # the top rung: best reads the rung it names, 8/8, and against the A.I. its solo player's row
    assert "8/8" in next(line for line in text.splitlines() if line.startswith("│ best "))


def test_the_command_prints_the_table():
    app = typer.Typer()
    app.command()(pc.players)
    app.command("unused")(lambda: None)  # two commands: typer keeps the subcommand name
    r = CliRunner().invoke(app, ["players", "--lab"])
    assert r.exit_code == 0, r.output
    assert "rollout-warm-solo" in r.output and "lab/search-long" in r.output and "strength:" in r.output
