"""``trinidad ladder``: the skill ladder measured, printed and written into its pages (trinidad.ladder)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from trinidad.commands.common import fail

AI_GAMES = 96  # trinidad.ai_scale.AI_GAMES (not imported: the command starts without numpy); a test checks they agree


def ladder(
    rungs: Annotated[str | None, typer.Option(
        help="comma-separated strategies, weakest first (names or TOML paths; default: random,greedy,heuristic,rollout,search)")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="games per pair of rungs (the rollout rung costs about 0.2-0.5 core-s a game)")] = 600,
    character_games: Annotated[int | None, typer.Option(
        "--character-games", help="games per rung on balanced-Character deals (default: --games rounded up to a multiple of 12)")] = None,
    ai_games: Annotated[int, typer.Option("--ai-games", help="Solo games per rung and A.I. strength (weak, medium, strong, divinity); "
                                                             "0: none")] = AI_GAMES,
    ai_also: Annotated[str, typer.Option("--ai-also", help="comma-separated players added to the A.I. table only, after the rungs "
                                                           "(one whose Solo player a rung already plays is left out; '' for none)")] = "best",
    seed: Annotated[int, typer.Option("--seed", "-s", help="master seed")] = 3,
    threads: Annotated[int | None, typer.Option("--threads", "-t", help="threads (default: all); results do not depend on it")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="also write everything measured to this JSON file")] = None,
    store: Annotated[Path | None, typer.Option("--store", help="keep every game of the ladder (the pairs, the balanced deals, the Solo "
                                                              "A.I.) in this folder and read them back when the same rungs (their "
                                                              "compiled weights), rules, deals and engine come again; the results do "
                                                              "not depend on it")] = None,
    write: Annotated[Path | None, typer.Option("--write", help="write the ladder page here (docs/reference/ladder.md)")] = None,
    readme: Annotated[Path | None, typer.Option("--readme", help="replace the ladder and characters blocks of this page (README.md)")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress lines", metavar="")] = False,
) -> None:
    """Play every pair of rungs (4 players, two seats each, seats rotated on common seeds) and each
    rung alone on balanced-Character deals and against the Solo A.I. at each strength; print the rung
    x rung win-rate matrix (Wilson 95% CIs), each rung's beat rate against the A.I., the Character
    win rates per rung and how the rungs agree on them (Kendall tau, reversals)."""
    from strategies.registry import split_names  # names with settings keep their commas (search:budget=64,width=4)
    from trinidad import ladder as lad_mod
    from trinidad import ladder_page
    from trinidad.pages import PageError, replace_block, write_blocks
    from trinidad.tournament import MAX_SEED

    names = lad_mod.RUNGS if rungs is None else split_names(rungs)
    if len(names) < 2 or len(set(names)) != len(names):
        fail(f"--rungs: give at least 2 distinct comma-separated strategy names, got {rungs!r}")
    if games < 1:
        fail(f"--games: must be >= 1, got {games}")
    cg = -(-games // 12) * 12 if character_games is None else character_games
    if cg < 1:
        fail(f"--character-games: must be >= 1, got {cg}")
    if ai_games < 0:
        fail(f"--ai-games: must be >= 0, got {ai_games}")
    if not 0 <= seed <= MAX_SEED:
        fail(f"--seed: must be 0..{MAX_SEED}, got {seed}")
    if threads is not None and threads < 1:
        fail(f"--threads: must be >= 1, got {threads}")
    if readme is not None:  # a page without its blocks fails now, not after minutes of play
        try:
            text = readme.read_text()
            for name in lad_mod.BLOCKS:
                replace_block(text, name, "")
        except OSError as e:
            fail(f"--readme: {readme}: {e.strerror or e}")
        except PageError as e:
            fail(f"--readme: {readme}: {e}")
    from strategies.registry import StrategyError, load_strategies

    try:
        load_strategies(names)
    except StrategyError as e:
        fail(f"--rungs: {e}")
    also = split_names(ai_also)
    try:
        lad_mod.ai_players(names, also)  # a bad name fails now, not after the 4-player games
    except StrategyError as e:
        fail(f"--ai-also: {e}")
    say = (lambda _line: None) if quiet else (lambda line: typer.echo(f"ladder: {line}", err=True))
    res = lad_mod.measure(names, games, cg, seed=seed, threads=threads, say=say, ai_games=ai_games, ai_also=also, store=store)
    outputs = [f"{opt} {p}" for opt, p in (("--json", json_out), ("--write", write), ("--readme", readme)) if p is not None]
    for line in ladder_page.lines(res):
        typer.echo(line)
    if json_out is not None:
        json_out.write_text(json.dumps(res.to_dict(), indent=1) + "\n")
        typer.echo(f"wrote {json_out}")
    if write is not None:
        write.write_text(ladder_page.page(res, *outputs))
        typer.echo(f"wrote {write}")
    if readme is not None:
        try:
            write_blocks(readme, ladder_page.readme_blocks(res, *outputs))
        except PageError as e:
            fail(f"--readme: {e}")
        typer.echo(f"wrote the ladder and characters blocks of {readme}")
