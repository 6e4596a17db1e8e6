"""``trinidad cards``: the 72 Affiliate cards and how often each power fired in a sample run."""

from __future__ import annotations

from typing import Annotated

import typer

from trinidad.commands.common import fail


def cards(
    games: Annotated[int, typer.Option("--games", "-n", help="games in the sample run that counts how often each power fired")] = 300,
    players: Annotated[int, typer.Option("--players", "-p")] = 4,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 1,
) -> None:
    """List the 72 Affiliate cards: number, group, lightning, a one-line power, and how many times it
    fired in a sample run with random players."""
    import numpy as np

    from sim.affiliates import IMPLEMENTED
    from sim.rules import load_rules_doc, rules_from_doc
    from strategies.match import run_game
    from strategies.registry import load_strategies

    if not 2 <= players <= 5:
        fail(f"--players: must be 2..5, got {players}")
    if games < 0:
        fail(f"--games: must be >= 0, got {games}")
    doc = load_rules_doc()
    r = rules_from_doc(doc)
    W, _ = load_strategies(["random"])
    fired = np.zeros(r.aff_group.shape[0], np.int64)
    from sim.rng import player_seeds

    for sd in player_seeds(seed, players, 0, games):
        fired += run_game(r, W, players, int(sd), [0] * players).card_uses
    for row in doc["affiliate"]:
        num = row["number"]
        flag = "⚡" if row["lightning"] else " "
        status = f"{int(fired[num - 1]):6d}" if num in IMPLEMENTED else "     -"
        typer.echo(f"{num:3d} {row['group']:<11} {flag} {status}  {row['summary']}")
    note = "" if len(IMPLEMENTED) == len(doc["affiliate"]) else \
        f"; '-' = power not implemented ({len(IMPLEMENTED)} of {len(doc['affiliate'])} implemented)"
    typer.echo(f"fired: times each power was used in {games} random-player {players}-player games (seed {seed}){note}")
