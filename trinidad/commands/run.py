"""``trinidad run``: an experiment's games into a run directory (trinidad.runner)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from trinidad.commands.common import fail


def run(
    experiment: Annotated[Path | None, typer.Argument(help="experiment TOML (default: the built-in one of --game)")] = None,
    game: Annotated[str | None, typer.Option("--game", help="the game: trinidad or rio-de-la-plata (overrides the file's game; "
                                                            "with no file, that game's built-in experiment)")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="player count (overrides the file)")] = None,
    games: Annotated[int | None, typer.Option("--games", "-n", help="games per player count and variant")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="master seed")] = None,
    out: Annotated[str | None, typer.Option("--out", "-o", help="output directory")] = None,
    strategies: Annotated[str | None, typer.Option(help="comma-separated strategies, cycled over the seats")] = None,
    backend: Annotated[str, typer.Option(help="local (threads) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (default: start a local Ray)")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="threads (local) or CPUs (ray)")] = None,
    shard_games: Annotated[int | None, typer.Option("--shard-games", help="games per Parquet shard (overrides the file; the unit of resume)")] = None,
    prices: Annotated[str | None, typer.Option("--prices", help="a report's summary.json: each seat pays its dealt Character's auction "
                                                                "price in VP at setup (overrides characters.prices)")] = None,
    extended_war: Annotated[bool, typer.Option("--extended-war", help="the EXTENDED WAR expansion (the file's extended_war = true)",
                                               metavar="")] = False,
    precision: Annotated[float | None, typer.Option("--precision", help="play each variant in blocks of --shard-games games until every "
                                                                      "rate of interest (Trinidad: each Character's win rate; Río de la "
                                                                      "Plata: each strategy's and start position's) has a 95% interval "
                                                                      "within +-PRECISION (0.02: +-2 points), or the variant clearly "
                                                                      "differs from the base; --games is then the cap (overrides the "
                                                                      "file's precision)")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="finish an interrupted run in --out", metavar="")] = False,
    ai_games: Annotated[int | None, typer.Option("--ai-games", help="then each strategy against the Solo A.I.: Solo games per A.I. "
                                                                    "strength (weak, medium, strong, divinity), into DIR/ai_scale.json for "
                                                                    "the report, announced with its cost (overrides the file's ai_games; "
                                                                    "default 0: none)")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar", metavar="")] = False,
) -> None:
    """Play an experiment's games in parallel and write them to Parquet (DIR/manifest.json and a folder a table: Trinidad's
    DIR/decades, DIR/games; Río de la Plata's DIR/games, offices, wars, turns); with --precision P (or the file's precision), each
    variant in blocks until its rates are within +-P or it clearly differs from the base (the manifest's stopping: games and why);
    with --ai-games N (or the file's ai_games), then each strategy against the Solo A.I. (DIR/ai_scale.json)."""
    from trinidad.experiment import ExperimentError, experiment_document, experiment_from_dict, load_experiment, tier_experiments
    from trinidad.runner.manifest import experiment_of_run, tiers_of_run
    from trinidad.runner.run import run_experiment, run_tiers
    from trinidad.runner.summary import summarize

    if backend not in ("local", "ray"):
        fail(f"--backend: allowed: local, ray, got {backend!r}")
    if workers is not None and workers < 1:
        fail(f"--workers: must be >= 1, got {workers}")
    if ai_games is not None and ai_games < 0:
        fail(f"--ai-games: must be >= 0, got {ai_games}")
    from strategies.registry import split_names  # names with settings keep their commas (search:budget=64,width=4)

    strat = split_names(strategies) if strategies else None
    try:
        flags = dict(game=game, players=players, games=games, seed=seed, out=out, strategies=strat, shard_games=shard_games,
                     prices=prices, extended_war=True if extended_war else None, ai_games=ai_games, precision=precision)
        tiers = None
        if resume and experiment is None and out is not None and tiers_of_run(out) is not None:  # tiers: their own experiments
            if any(v is not None for k, v in flags.items() if k not in ("out", "ai_games")):
                fail("run: --resume of tier runs takes only --out (each tier's experiment is in tiers.json)")
            tiers = [(n, experiment_from_dict(d | {"out": str(Path(out) / n)})) for n, d in tiers_of_run(out)]
        elif experiment is not None:
            doc, where = experiment_document(experiment, **flags)
            if "tiers" in doc:  # several runs, one a tier, of either game
                if strat:
                    fail("--strategies: an experiment with [[tiers]] names the strategies of each tier")
                tiers = tier_experiments(doc, str(where))
        if tiers is not None:
            top = out or str(Path(tiers[0][1].out).parent)
            for m in run_tiers(tiers, top, backend=backend, workers=workers, address=address, resume=resume, progress=not quiet,
                               ai_games=ai_games):
                typer.echo(f"tier {Path(m['experiment']['out']).name}:")
                for line in summarize(m["experiment"]["out"]):
                    typer.echo("  " + line)
            typer.echo(f"report all tiers: trinidad report {top}")
            return
        if resume and experiment is None and out is not None:  # the run's own experiment, from its manifest
            doc = experiment_of_run(out)
            for k, v in flags.items():  # a flag given as well must match the run (check_out checks)
                if v is not None and k == "strategies":
                    doc.setdefault("seats", {})["strategies"] = v
                elif v is not None and k == "prices":
                    doc.setdefault("characters", {})["prices"] = v
                elif v is not None:
                    doc[k] = v
            exp = experiment_from_dict(doc)
        else:
            exp = load_experiment(experiment, **flags)
        m = run_experiment(exp, backend=backend, workers=workers, address=address, resume=resume, progress=not quiet, ai_games=ai_games)
    except ExperimentError as e:
        fail(str(e))
    except KeyboardInterrupt:
        typer.echo(f"interrupted: complete shards are kept; finish with: trinidad run --resume --out {exp.out}", err=True)
        raise typer.Exit(130) from None
    for line in summarize(m["experiment"]["out"]):
        typer.echo(line)
