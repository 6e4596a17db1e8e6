"""``trinidad tune``: a heuristic's weights tuned by an evolution strategy, against a pool of
heuristics (trinidad.train.heuristic) or against the Solo A.I. (trinidad.train.heuristic_solo)."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from trinidad.commands.common import fail, with_bar


def _tune_and_write(tuner, write, target: Path, as_json: bool, note) -> tuple | None:
    """Run ``tuner(progress)`` under the progress bar (``note(info)``: a generation's note) and write
    the tuned strategy to ``target`` with ``write``: (result, written path), or None when the result
    was printed as JSON (:func:`trinidad.commands.common.with_bar`)."""
    from trinidad.train.heuristic import TuneError

    written = []

    def work(bar):
        def tick(phase: str, done: int, total: int, info: dict) -> None:
            who = f"{info['label']}: " if info.get("label") else ""  # the Solo tuner's per-Character searches
            if phase == "search":
                bar.update(done, total, who + note(info))
            else:
                bar.update(None, total, f"{who}checked")

        res = tuner(tick if bar else None)
        written.append(write(res, target))
        return res

    res = with_bar("tune", "generations", as_json, TuneError, work)
    return None if res is None else (res, written[0])


def _tune_solo(ai: str, base: str, games: int, budget: int, seed: int, out: Path | None, threads: int | None,
               as_json: bool, character: str | None = None, perturb: float = 0.0) -> None:
    """``trinidad tune --ai``: trinidad.train.heuristic_solo, its progress bar, its table and its file."""
    from trinidad.train.heuristic_solo import default_out, tune_solo, write_strategy

    if threads is not None and threads < 1:
        fail(f"--threads: must be >= 1, got {threads}")
    target = out if out is not None else default_out(base)
    if target.suffix != ".toml":
        fail(f"--out: must be a .toml file, got {str(target)!r}")
    done = _tune_and_write(
        lambda progress: tune_solo(base, [s for s in ai.split(",")], games=games, budget=budget, seed=seed, threads=threads,
                                   progress=progress, characters=None if character is None else character.split(","),
                                   perturb=perturb),
        write_strategy, target, as_json, lambda info: f"fitness {info['mean_fitness']:+.3f} sigma {info['sigma']:.2f}")
    if done is None:
        return
    res, path = done
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"{base} tuned against the Solo A.I., seed {seed}: win rate on fresh games (Wilson 95% CI)")
    for col in ("A.I. strength", f"before ({base})", "after (tuned)", "n"):
        t.add_column(col, justify="left" if col == "A.I. strength" else "right")
    def cell(r: dict) -> str:
        return f"{r['win_rate']:.1%} [{r['ci_low']:.1%}, {r['ci_high']:.1%}]"

    rows = [(f"{ck}, {s_}", ct.before[s_], ct.after[s_]) for ck, ct in res.characters.items() for s_ in res.strengths]
    rows += [(f"{s_}, these Characters" if res.characters else s_, res.before[s_], res.after[s_]) for s_ in res.strengths]
    for label, b, a in rows:
        t.add_row(label, cell(b), cell(a), f"{a['n']:,}")
    Console(file=sys.stdout, width=110).print(t)
    typer.echo(f"search: {res.generations} generations x ({res.popsize} + 1) candidates x {res.games} games per strength; "
               f"{res.seconds:.0f} s")
    typer.echo(f"wrote {path}")


def tune(
    character: Annotated[str | None, typer.Option("--character", "-c", help=(
        "the Character whose heuristic weights are tuned; with --ai, Characters (comma-separated, or all) "
        "each tuned on its own Solo games"))] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="games per candidate evaluation (the check plays 4x as many fresh games)")] = 200,
    budget: Annotated[int, typer.Option("--budget", "-b", help="candidate evaluations (one generation = popsize offspring + the mean)")] = 40,
    seed: Annotated[int, typer.Option("--seed", "-s", help="master seed")] = 1,
    players: Annotated[int, typer.Option("--players", "-p", help="2-5")] = 4,
    pool: Annotated[str, typer.Option(help="comma-separated opponent strategies, drawn per seat")] = "heuristic,greedy",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="tuned strategy TOML (default: strategies/tuned/heuristic-<name>.toml)")] = None,
    threads: Annotated[int | None, typer.Option("--threads", "-t", help="threads (default: all); results do not depend on it")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object", metavar="")] = False,
    ai: Annotated[str | None, typer.Option("--ai", help=(
        "tune against the Solo A.I. at these strengths (weak,medium): one shift of every weight block of --base, "
        "or with --character each Character's own table; --pool is not used"))] = None,
    base: Annotated[str, typer.Option("--base", help="--ai: the greedy or heuristic strategy whose weights are shifted")] = "heuristic",
    perturb: Annotated[float, typer.Option("--perturb", help=(
        "--ai: the share of the tuning games in which the player is forced to one option (trinidad probe's, at random) "
        "at its first legal chance, then plays on"))] = 0.0,
) -> None:
    """Tune the heuristic's weights for one Character with a noise-robust evolution strategy (common
    random numbers per generation), check before/after on fresh seeds and write the tuned strategy TOML.
    With ``--ai``, tune against the rulebook's Solo A.I. instead (trinidad.train.heuristic_solo)."""
    from strategies.registry import CHARACTER_KEYS, split_names
    from trinidad.train.heuristic import TuneError, check_args, default_out, write_strategy
    from trinidad.train.heuristic import tune as run_tune

    if ai is not None:
        _tune_solo(ai, base, games, budget, seed, out, threads, as_json, character, perturb)
        return
    if not character:
        fail(f"--character: required; allowed: {', '.join(CHARACTER_KEYS)}")
    if threads is not None and threads < 1:
        fail(f"--threads: must be >= 1, got {threads}")
    try:
        check_args(character, games, budget, seed, players)
        target = out if out is not None else default_out(character)
        if target.suffix != ".toml":
            raise TuneError(f"out: must be a .toml file, got {str(target)!r}")
    except TuneError as e:
        fail(f"--{e}")
    t0 = time.perf_counter()
    done = _tune_and_write(
        lambda progress: run_tune(character, games=games, budget=budget, seed=seed, players=players,
                                  pool=split_names(pool), threads=threads, progress=progress),
        write_strategy, target, as_json, lambda info: f"mean {info['mean_fitness']:.1%} sigma {info['sigma']:.2f}")
    if done is None:
        return
    res, path = done
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"Tuned heuristic for the {res.character}, {res.players} players, seed {res.seed}")
    for col in ("weights", "win rate", "95% CI (Wilson)", "n"):
        t.add_column(col, justify="left" if col == "weights" else "right")
    for label, r in (("before (heuristic.toml)", res.before), ("after (tuned)", res.after)):
        t.add_row(label, f"{r['win_rate']:.1%}", f"{r['ci_low']:.1%} - {r['ci_high']:.1%}", f"{r['n']:,}")
    Console(file=sys.stdout, width=110).print(t)
    typer.echo(f"search: {res.generations} generations x ({res.popsize} + 1) candidates x {res.games} games; "
               f"check: {res.before['n']:,} fresh games each; {time.perf_counter() - t0:.0f} s")
    typer.echo(f"wrote {path}")
