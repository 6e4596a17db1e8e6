"""``trinidad players``: the shipped players (strategies/*.toml) in one table: what each is, what a game of it
costs, how strong it is and what to use it for, the numbers read from strategies/measurements.json (cost:
``trinidad bench --record``; strength: the skill ladder, docs/reference/ladder.md), each with its machine and
date. ``--lab`` adds the research rungs (strategies/lab/, played as ``lab/NAME``)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Annotated

import typer

from trinidad.commands.common import fail

MEASUREMENTS = Path(__file__).resolve().parents[2] / "strategies" / "measurements.json"
# Which job a shipped player is for (the README's three jobs); a player not named here is for its family's job
USE = {
    "random": "a floor: what no skill scores",
    "greedy": "sweeps of millions of games (a rule change's first read)",
    "heuristic": "sweeps of millions of games that play the Characters",
    "rollout": "a cheap planner: does a finding survive lookahead",
    "search": "findings at a fraction of best's cost",
    "best": "trustworthy findings (the strongest at a table; against the A.I. it plays rollout-warm-solo)",
    "pyexample": "a template for a player written in Python (slow)",
    "heuristic-solo": "Solo sweeps (tuned against the A.I.)",
    "rollout-warm-solo": "Solo findings (the strongest against the A.I.; best plays it there)",
}
ARCHETYPE_USE = "sweeps: does a rule favour this style of play"


def _doc(name: str) -> dict:
    from strategies.registry import strategy_path

    p = strategy_path(name)
    try:
        return tomllib.loads(p.read_text()) if p is not None else {}
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def _family(name: str) -> str:
    from strategies.registry import resolve

    doc = _doc(name)
    return f"alias of {doc['alias']}" if "alias" in doc else str(_doc(resolve(name)).get("family", "?"))


def _ms(entry: dict | None) -> str:
    """``3,700`` core-ms, or ``-`` when never measured."""
    return "-" if not entry else f"{entry['core_ms']:,.4g}"


def _rate(cell: str | None) -> str:
    """The point estimate of a ladder cell (``45.2% [41.8%, 48.7%]`` -> ``45.2%``)."""
    return "-" if not cell else cell.split(" [")[0]


def _ai_row(name: str, against_ai: dict) -> dict:
    """The ladder's A.I. row of a player: its own, or that of the alias that plays it against the A.I. (best's solo)."""
    from strategies.registry import resolve

    if name in against_ai:
        return against_ai[name]
    me = resolve(name, solo=True)
    return next((row for a, row in against_ai.items() if resolve(a, solo=True) == me), {})


def _ladder_cell(name: str, ladder: dict) -> str:
    """``k/N, 46.2% vs rollout``: the rung's place on the ladder (top = N) and its win rate a seat against the rung
    below it (fair share 25%, a sweep 50%); an alias reads the rung it names."""
    from strategies.registry import resolve

    rungs = ladder.get("rungs", [])
    rung = name if name in rungs else resolve(name)
    if rung not in rungs:
        return "-"
    k = rungs.index(rung)
    below = f", {_rate(ladder['rung_vs_rung'][rung].get(rungs[k - 1]))} vs {rungs[k - 1]}" if k else ""
    return f"{k + 1}/{len(rungs)}{below}"


def players_table(lab: bool = False, path: Path = MEASUREMENTS):
    """The rich table of the players (with ``lab``, the rungs of strategies/lab/ after them) and the lines that say
    where its numbers come from."""
    from rich.table import Table

    from strategies.registry import available

    doc = json.loads(path.read_text())
    ladder, cost = doc.get("ladder", {}), doc.get("cost", {})
    against_ai = ladder.get("against_ai", {})
    strengths = list(next(iter(against_ai.values()), {}))
    t = Table(title="Players" + (" and the lab's rungs" if lab else ""), show_lines=False)
    for col, style in [("name", "bold"), ("family", ""), ("description", ""), ("core-ms 4p", "")]:
        t.add_column(col, style=style or None, overflow="fold")
    t.add_column("core-ms Solo")
    for s in strengths:
        t.add_column(f"beats {s}")
    t.add_column("ladder")
    t.add_column("use for", overflow="fold")
    for name in available(lab=lab):
        d = _doc(name)
        c = cost.get(name, {})
        ai = _ai_row(name, against_ai)
        use = "research rung (docs/notebook/players.md)" if name.startswith("lab/") else USE.get(name, ARCHETYPE_USE)
        t.add_row(name, _family(name), d.get("description", ""), _ms(c.get("4p")), _ms(c.get("solo")),
                  *[_rate(ai.get(s)) for s in strengths], _ladder_cell(name, ladder), use)
    notes = []
    machines = sorted({(e["machine"], e["date"]) for c in cost.values() for e in c.values()})
    if machines:
        notes.append("cost: core-milliseconds a game (4 players; a Solo game against every A.I. strength), measured by "
                     "`trinidad bench --record` on " + "; ".join(f"{m} ({d})" for m, d in machines)
                     + " (strategies/measurements.json: the games each figure took)")
    if ladder:
        notes.append(f"strength: the skill ladder ({ladder['source']}), `{ladder['command']}` at commit {ladder['commit']} on "
                     f"{ladder['machine']} ({ladder['date']}): beat rates against the Solo A.I. in {ladder['ai_games']} games a "
                     f"strength; ladder k/N with the win rate a seat against the rung below ({ladder['players']} players, "
                     f"{ladder['games_a_pair']} games a pair; fair share 25%)")
    notes.append("a player's settings can be changed where it is named: search:budget=64, best:budget=48 (no new file)")
    return t, notes


def players(
    lab: Annotated[bool, typer.Option("--lab", help="list the research rungs of strategies/lab/ too (played as lab/NAME)",
                                      metavar="")] = False,
) -> None:
    """The players to pick from: family, what each does, its cost a game, its strength against the Solo A.I. and on the
    skill ladder, and what to use it for, read from the stored measurements (strategies/measurements.json)."""
    from rich.console import Console

    if not MEASUREMENTS.exists():
        fail(f"players: {MEASUREMENTS} not found (trinidad bench --record writes it)")
    table, notes = players_table(lab)
    console = Console(width=max(Console().width, 200))
    console.print(table)
    for n in notes:
        console.print(n, highlight=False)
