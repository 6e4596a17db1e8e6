"""``trinidad balance SPEC``: rule changes that bring every group of a game within a tolerance of its fair
share, found on common seeds and verified on fresh ones (trinidad.balance)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from trinidad.commands.common import fail


def balance(
    spec: Annotated[Path, typer.Argument(help="balance spec TOML: knobs (rules keys, bounds, steps), targets, player, budget, seed")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="output folder (overrides the spec's out)")] = None,
    backend: Annotated[str, typer.Option(help="local (threads) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (default: start a local Ray)")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="threads (local) or CPUs (ray)")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="finish an interrupted search in its out folder (the same spec)",
                                         metavar="")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress lines", metavar="")] = False,
) -> None:
    """Search for the smallest change of the allowed rules numbers that brings every group (Trinidad: every Character) within
    the spec's tolerance of its fair share, and every other target the spec sets into its band (every seat within +-X, the
    player's beat rate against the Solo A.I. at a strength, how often a games-table record is held), on common seeds (paired
    finite differences, a linearised step that minimises the excess beyond the bands first, confirming rounds), then verify
    it on fresh seeds: OUT/proposal.toml (a rules override file), OUT/verify/ (base against proposal, with its report),
    OUT/verify-ai/ (the Solo A.I. at every strength, where the spec asks), OUT/balance.md and OUT/balance.json (the knobs
    moved, each row before and after, the chi-square before and after, and the knob a row out of reach would need)."""
    from trinidad.balance.search import search
    from trinidad.balance.spec import BalanceError, read_spec
    from trinidad.balance.verify import verify_player, write_outputs
    from trinidad.experiment import ExperimentError
    from trinidad.runner.ray_backend import ray_connect

    if backend not in ("local", "ray"):
        fail(f"--backend: allowed: local, ray, got {backend!r}")
    if workers is not None and workers < 1:
        fail(f"--workers: must be >= 1, got {workers}")
    try:
        sp = read_spec(spec, out)
    except BalanceError as e:
        fail(str(e))
    if sp.out.exists() and not sp.out.is_dir():
        fail(f"--out: {sp.out} is a file; choose an empty or new folder")
    if sp.out.exists() and any(sp.out.iterdir()) and not resume:
        fail(f"--out: {sp.out} exists and is not empty; --resume finishes the search there, or choose another --out")

    def say(line: str) -> None:
        typer.echo(line, err=True)

    joined = False
    try:
        joined = ray_connect(address, workers or os.cpu_count() or 1) if backend == "ray" else False
        found = search(sp, backend=backend, workers=workers, resume=resume, progress=not quiet, say=say)
        verified = [verify_player(sp, found, p, backend, workers, resume, not quiet, say)
                    for p in dict.fromkeys([sp.player, *([sp.check_player] if sp.check_player else [])])]
        doc = write_outputs(sp, found, verified)
    except (ExperimentError, BalanceError) as e:
        fail(str(e))
    except KeyboardInterrupt:
        typer.echo(f"interrupted: the rounds played are kept; finish with: trinidad balance {spec} --resume --out {sp.out}", err=True)
        raise typer.Exit(130) from None
    finally:
        if joined:
            import ray

            ray.shutdown()
    from trinidad.balance.verify import summary_lines

    for line in summary_lines(doc):
        typer.echo(line)
    typer.echo(f"\nbalance: {sp.out / 'balance.md'}, {sp.out / 'proposal.toml'}, report {verified[0]['report']}")
