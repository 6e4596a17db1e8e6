"""``trinidad run``: an experiment (or its tiers) played into a run directory on the local or the
Ray backend, resumed where an interrupted run stopped, then, when asked, each strategy against the
Solo A.I. (DIR/ai_scale.json)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from analysis.sequential import stop_line
from sim.dataset import MANIFEST
from trinidad.experiment import ExperimentError
from trinidad.games import game_of
from trinidad.runner.local import run_local, warm_engine
from trinidad.runner.manifest import check_out, experiment_record, make_run_dirs, manifest_doc, manifest_fixed, write_manifest
from trinidad.runner.ray_backend import ray_connect, run_ray
from trinidad.runner.sequential import Schedule
from trinidad.runner.shards import pending_shards
from trinidad.runner.shards import stderr_line as _say


def run_experiment(exp, backend: str = "local", workers: int | None = None, address: str | None = None,
                   resume: bool = False, progress: bool = True, say=_say, ai_games: int | None = None) -> dict:
    """Play every pending shard of ``exp`` and return the final manifest. ``say`` prints the
    engine's preparation lines (with ``progress``). Trinidad: ``ai_games`` (default: the experiment's
    ``ai_games``) > 0: then record the run's strategies against the Solo A.I.
    (:func:`trinidad.games.trinidad.record_ai_scale`, the game's ``after``), announced before the games with its cost."""
    game = game_of(exp)
    ai_games = getattr(exp, "ai_games", 0) if ai_games is None else ai_games
    if backend not in ("local", "ray"):
        raise ExperimentError(f"backend: allowed: local, ray, got {backend!r}")
    out = Path(exp.out)
    check_out(exp, out, resume)  # the checks first: a refused run starts no Ray and writes nothing
    if progress:
        game.announce(exp, ai_games, say)
    joined = ray_connect(address, workers or os.cpu_count() or 1) if backend == "ray" else False
    try:  # a Ray that cannot be joined has written nothing; one joined here is left here
        with game.engine_parts(ai_games):
            m = _run_experiment(exp, out, backend, workers, resume, progress, say)
            game.after(exp, out, ai_games, workers, progress, say)
        return m
    finally:
        if joined:
            import ray

            ray.shutdown()


def run_tiers(tiers: list, out: str | Path, backend: str = "local", workers: int | None = None,
              address: str | None = None, resume: bool = False, progress: bool = True, say=_say, ai_games: int | None = None) -> list[dict]:
    """Play an experiment with ``[[tiers]]`` (:func:`trinidad.experiment.tier_experiments`): one run
    directory per tier in ``out``, strongest first, listed in ``out``/tiers.json (with each tier's
    experiment, so ``--resume --out`` finishes them). Every output is checked before any game.
    ``ai_games`` (default: each tier's experiment's) > 0: each tier's strategies against the Solo A.I., in its run
    (the game's ``after``). Either game's tiers (:func:`trinidad.experiment.tier_experiments`)."""
    from analysis.data import TIERS_FILE

    top = Path(out)
    if top.exists() and not top.is_dir():
        raise ExperimentError(f"out: {top} is a file, not a folder; choose an empty or new --out")
    if (top / MANIFEST).exists():
        raise ExperimentError(f"out: {top} holds a single run; an experiment with [[tiers]] needs an empty or new --out")
    listed = top / TIERS_FILE
    doc = {"tiers": [{"name": n, "out": n, "experiment": experiment_record(e)} for n, e in tiers]}
    if listed.exists():
        if not resume:
            raise ExperimentError(f"out: {top} already holds tier runs; use --resume to finish them or choose another --out")
        if [t["name"] for t in json.loads(listed.read_text())["tiers"]] != [n for n, _ in tiers]:
            raise ExperimentError(f"out: {top} holds other tiers; --resume needs the same experiment")
    elif top.exists() and any(top.iterdir()):
        raise ExperimentError(f"out: {top} exists and holds other files; choose an empty or new --out")
    for _, e in tiers:
        check_out(e, Path(e.out), resume or listed.exists())
    joined = ray_connect(address, workers or os.cpu_count() or 1) if backend == "ray" else False
    try:
        top.mkdir(parents=True, exist_ok=True)
        listed.write_text(json.dumps(doc, indent=1) + "\n")
        done = []
        for n, e in tiers:
            game = game_of(e)
            games_ai = getattr(e, "ai_games", 0) if ai_games is None else ai_games  # Río de la Plata has no Solo A.I.
            if progress:
                say(f"tier {n}: {', '.join(e.strategy_names())}")
                game.announce(e, games_ai, say)
            with game.engine_parts(games_ai):
                done.append(_run_experiment(e, Path(e.out), backend, workers, (Path(e.out) / MANIFEST).exists(), progress, say))
                game.after(e, Path(e.out), games_ai, workers, progress, say)
        return done
    finally:
        if joined:
            import ray

            ray.shutdown()


def _run_experiment(exp, out: Path, backend: str, workers: int | None, resume: bool, progress: bool,
                    say) -> dict:
    """Play the shards ``exp`` still lacks in ``out``: every one of a fixed run; for a run with
    ``precision``, round after round, the blocks its stopping rule asks for next
    (:class:`trinidad.runner.sequential.Schedule`), until every variant and player count has stopped."""
    import numba

    game = game_of(exp)
    make_run_dirs(out, game.tables)
    pending = pending_shards(exp, out, repair=resume)  # a sequential run's too: the cap's shards not on disk, repaired
    done_before = exp.total_games() - sum(s[4] for s in pending)
    sched = Schedule(exp, out) if exp.precision is not None else None
    stopping = None
    if sched is None:
        todo = pending
    else:
        todo, stops, written = sched.state()
        stopping = sched.record(stops, written)
    nw = workers or (numba.config.NUMBA_NUM_THREADS if backend == "local" else os.cpu_count() or 1)
    old = json.loads((out / MANIFEST).read_text()) if resume and (out / MANIFEST).exists() else None
    if old is not None and not todo and old.get("status") == "complete":
        return old  # nothing left to play: the record of the run stays as it was
    # wall_s and games_per_s cover every session of the run (the play time of an interrupted run
    # and of its resumes, added); games_this_session and its rate are this session's
    wall_before = float(old.get("wall_s") or 0.0) if old is not None else 0.0
    fixed = manifest_fixed(exp)

    def doc(status: str, games: int, wall: float) -> dict:
        return manifest_doc(exp, fixed, status, games, wall, backend, nw, stopping)

    write_manifest(out, doc("running", done_before, wall_before))
    exp_dict_flat = experiment_record(exp)
    players = game.players(exp)  # once per run: workers are handed them (Trinidad: the weights)
    compile_s = 0.0
    if backend == "local":  # Ray workers compile (or load the cache) in their own processes
        numba.set_num_threads(min(nw, numba.config.NUMBA_NUM_THREADS))
        compile_s = warm_engine(exp, players, todo, nw, say if progress else (lambda _line: None))
    fixed["compile_s"] = round(compile_s, 1)
    t0 = time.perf_counter()
    done = done_before
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    cols = [TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
            TextColumn("{task.fields[rate]} games/s"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn()]
    with Progress(*cols, disable=not progress, transient=False) as bar:
        # a run with precision: the bar counts up to the cap, and ends where the run stops
        task = bar.add_task(exp.name, total=exp.total_games(), completed=done_before, rate="-")
        played = 0

        def tick(n_games: int) -> None:
            nonlocal done, played
            done += n_games
            played += n_games
            el = time.perf_counter() - t0
            bar.update(task, completed=done, rate=f"{played / el:,.0f}" if el > 0 else "-")
            write_manifest(out, doc("running", done, wall_before + el))

        cpu0 = time.process_time()
        worker_cpu = None
        try:
            while todo:
                if backend == "local":
                    c = run_local(exp_dict_flat, players, out, todo, nw, tick)
                    worker_cpu = c if worker_cpu is None else {"play": worker_cpu["play"] + c["play"],
                                                               "write": worker_cpu["write"] + c["write"],
                                                               "max_held": max(worker_cpu["max_held"], c["max_held"])}
                else:
                    run_ray(exp_dict_flat, players, out, todo, tick)
                if sched is None:
                    break
                was = {(r["variant"], r["players"]) for r in stopping["streams"] if r["stopped"]}
                todo, stops, written = sched.state()  # the next round: read from the blocks now written
                stopping = sched.record(stops, written)
                if progress:
                    for r in stopping["streams"]:
                        if r["stopped"] and (r["variant"], r["players"]) not in was:
                            say("stopped: " + stop_line(r))
        except KeyboardInterrupt:  # the record names what is on disk: the complete shards, counted there
            on_disk = exp.total_games() - sum(sh[4] for sh in pending_shards(exp, out))
            if sched is not None:
                stopping = sched.record(*sched.state()[1:])
            write_manifest(out, doc("interrupted", on_disk, wall_before + time.perf_counter() - t0))
            raise
        bar.update(task, total=done)
    wall = time.perf_counter() - t0
    m = doc("complete", done, wall_before + wall)
    m["games_this_session"] = done - done_before
    m["games_per_s_this_session"] = round((done - done_before) / wall, 1) if wall > 0 else None
    # where this session's CPU went (local backend): the whole process; the workers' threads playing
    # and writing (tables, and Arrow's Parquet writer compressing them), summed over the workers;
    # the rest is the main thread and the libraries' own thread pools
    m["cpu_s_this_session"] = round(time.process_time() - cpu0, 3)
    m["play_cpu_s_this_session"] = round(worker_cpu["play"], 3) if worker_cpu is not None else None
    m["write_cpu_s_this_session"] = round(worker_cpu["write"], 3) if worker_cpu is not None else None
    write_manifest(out, m)
    return m
