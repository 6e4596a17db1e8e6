"""Batch runs (``trinidad run``): an experiment's games in shards, played by the jitted batch
kernel on local threads or as Ray tasks, streamed to Parquet.

The run directory's layout is :mod:`sim.dataset`.
A shard is (variant, player count, a range of game indices). Both its files are written to a
temporary name and renamed, the games file last: a shard is complete exactly when its games file
exists. Ctrl-C (or a killed process) leaves only complete shards, and ``--resume`` plays the
missing ones. Game ``i`` of player count ``n`` has seed ``game_seed(game_seed(master, n), i)``
(sim.rng) in every variant, so variants are compared on common seeds, and the tables do not
depend on threads, workers, backend or how the run was split.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import platform
import queue
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis.data import bad_shards_line, shard_rows
from sim import compiled_parts
from sim.dataset import MANIFEST, NUMPY_TYPE, column_type, shard_name
from sim.rng import player_seeds
from sim.rules import RK, ai_strength_names, character_names, rules_from_doc, rules_hash
from sim.schema import DECADE_COLUMNS, GAME_COLUMNS
from sim.state import AI_STRATEGY, MAX_PLAYERS
from strategies.registry import Players, compile_players, has_python, resolve
from trinidad.batch import play_batch
from trinidad.experiment import Experiment, ExperimentError, experiment_from_dict


def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("trinidad-sim")
    except Exception:  # not installed (running from a checkout)
        return "unknown"


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def cpu_model() -> str:
    """The processor's model name: games/s read on different machines differ by 3x on the same build
    (the development machines changed from session to session), so a rate names its machine."""
    info: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, val = line.partition(":")
            info.setdefault(key.strip(), val.strip())
    except OSError:
        pass
    name = info.get("model name") or platform.processor() or platform.machine() or "unknown"
    # a virtual machine may show only the vendor's line name ("AMD EPYC"): family and model tell its generation
    if "cpu family" in info and "model" in info:
        name += f" (family {info['cpu family']}, model {info['model']})"
    return name




@dataclass
class ShardResult:
    games: int
    seconds: float


_RULES_CACHE: dict = {}


def _variant_rules(exp: Experiment, vi: int):
    """(resolved rules document, rules record) of a variant, built once per process."""
    key = (json.dumps(exp.to_dict(), sort_keys=True), vi, tuple(sorted(compiled_parts.always_compiled())))
    if key not in _RULES_CACHE:
        doc = exp.resolved_rules_docs()[vi]
        _RULES_CACHE[key] = (doc, rules_from_doc(doc))
    return _RULES_CACHE[key]


def _columns(arr: np.ndarray, block: int = 2048) -> np.ndarray:
    """The rows of ``arr`` (its last axis the columns, its other axes the rows in C order; a view
    that is not contiguous will do) as a contiguous (columns x rows) array, each column one run.
    Transposed in blocks of about ``block`` rows that stay in the cache: about twice as fast as one
    ``np.ascontiguousarray(arr.T)`` on a shard's records, and a view of the records (the played
    decades and seats of a game) is never copied whole (a chunk's decades rows are 28 MB)."""
    per = math.prod(arr.shape[1:-1])  # rows per index of the first axis
    out = np.empty((arr.shape[-1], arr.shape[0] * per), arr.dtype)
    step = max(1, block // max(1, per))
    for i in range(0, arr.shape[0], step):
        out[:, i * per:(i + step) * per] = arr[i:i + step].reshape(-1, arr.shape[-1]).T
    return out


def record_inputs(exp: Experiment, players: Players, vi: int, n: int, start: int, count: int) -> tuple[np.ndarray, dict]:
    """One shard's game indices and the arguments of :func:`trinidad.batch.play_batch` that play it
    (every input the games are a function of, the engine's code aside)."""
    _, rules = _variant_rules(exp, vi)
    gi = np.arange(start, start + count, dtype=np.int64)
    ns = exp.seats(n)  # with the A.I.: one more seat than players
    chars = exp.seat_characters(n, gi)
    return gi, dict(rules=rules, W=players.matrix(), n_players=ns, seeds=player_seeds(exp.seed, ns, start, count),
                    strategies=exp.seat_strategies(n, gi), characters=chars, first_game=exp.first_game,
                    paid=exp.seat_paid(n, chars))


def _play_records(exp: Experiment, players: Players, vi: int, n: int, start: int, count: int, threads: int | None = None):
    """Play one shard's games: (game indices, seeds, decade records, game records) as arrays."""
    gi, args = record_inputs(exp, players, vi, n, start, count)
    dec, gam = play_batch(threads=threads, **args)
    return gi, args["seeds"], dec, gam


def strategy_categories(exp: Experiment) -> list[str]:
    """The games/decades tables' strategy names: the experiment's, then ``ai-<strength>`` for every
    A.I. strength of the rules (the A.I.'s seat, strategy id ``AI_STRATEGY``) when it plays."""
    names = exp.strategy_names()
    if exp.ai:
        names = names + [f"ai-{s}" for s in ai_strength_names(_variant_rules(exp, 0)[0])]
    return names


def _tables(exp: Experiment, vi: int, n: int, gi: np.ndarray, seeds: np.ndarray, dec: np.ndarray,
            gam: np.ndarray) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A played shard's (decades, games) tables from its records (:func:`_play_records`)."""
    doc, rules = _variant_rules(exp, vi)
    names = strategy_categories(exp)
    ai_code = len(exp.strategy_names()) + int(rules.k[RK.AI_STRENGTH])  # the A.I.'s seat: ai-<the variant's strength>
    n = exp.seats(n)
    count = gi.shape[0]
    last = int(dec[0, :, 0, 0].astype(bool).sum()) if count else 12  # decades played (12, or 8 with the First Game Option)
    characters = character_names(doc)
    variants = [v.name for v in exp.variants]
    char_enum = pl.Enum(characters)
    strat_enum = pl.Enum(names)
    var_enum = pl.Enum(variants)

    def enum_column(name: str, categories: list[str], enum: pl.Enum, codes: np.ndarray) -> pl.Series:
        # gathered from the categories by code: building the strings row by row cost more than the games' records
        return pl.Series(name, categories, dtype=enum).gather(codes)

    def frame(arr: np.ndarray, cols: list[str], reps: int) -> pl.DataFrame:
        cols_first = _columns(arr)
        rows = cols_first.shape[1]
        lo, hi = (cols_first.min(axis=1), cols_first.max(axis=1)) if rows else (np.zeros(len(cols)), np.zeros(len(cols)))
        body = [
            pl.Series("game", np.repeat(gi, reps)),
            pl.Series("seed", np.repeat(seeds, reps)),
            enum_column("variant", variants, var_enum, np.full(rows, vi, np.int32)),
            pl.Series("players", np.full(rows, n, np.int8)),
        ]
        for j, c in enumerate(cols):
            col = cols_first[j]
            if c == "character":
                body.append(enum_column(c, characters, char_enum, col))
            elif c == "strategy":
                body.append(enum_column(c, names, strat_enum, np.where(col == AI_STRATEGY, ai_code, col)))
            else:
                t = NUMPY_TYPE[column_type(c)]
                if lo[j] < np.iinfo(t).min or hi[j] > np.iinfo(t).max:  # a record outgrew its column: never wrap silently
                    raise OverflowError(f"column {c}: values {lo[j]}..{hi[j]} do not fit {np.dtype(t).name}")
                body.append(pl.Series(c, col.astype(t, copy=False)))
        return pl.DataFrame(body)

    # the played decades and seats, as views: _columns reads them a block of games at a time
    return frame(dec[:, :last, :n, :], DECADE_COLUMNS, last * n), frame(gam[:, :n, :], GAME_COLUMNS, n)


@functools.lru_cache(maxsize=8)
def _experiment(doc_json: str) -> Experiment:
    return experiment_from_dict(json.loads(doc_json))


CHUNK_GAMES = 1000  # games played in one call and written as one row group: their records (~35 KB a game) stay small

# Arrow's Parquet writer, set to write files no larger than polars' of the same rows: zstd at polars'
# default level, and one data page per column of a row group (Arrow's default of 20,000 rows a page
# split a 1,000-game chunk's decades in three, each compressed alone: 12% larger files)
PARQUET_OPTIONS = {"compression": "zstd", "compression_level": 3, "max_rows_per_page": 1 << 30}


def chunk_bounds(count: int) -> np.ndarray:
    """Where a shard of ``count`` games is cut into chunks: the games one call plays and one row
    group of the shard's files. As even as can be and none over :data:`CHUNK_GAMES` games; never
    dependent on the workers, so that a shard's files are the same byte for byte on any number."""
    chunks = max(1, math.ceil(count / CHUNK_GAMES))
    return np.linspace(0, count, chunks + 1).astype(np.int64)


class ShardWriter:
    """One shard's two Parquet files, written a chunk at a time: each :meth:`append` adds the
    chunk's tables as one row group to each file (chunks must come in order). The files have
    temporary names until :meth:`finish` renames them, the games file last, so that a shard is
    complete exactly when its games file exists; :meth:`abort` removes them. The one writing path
    of both backends (a Ray task writes its shard with it too), so their files are the same."""

    def __init__(self, out: str | Path, vi: int, n: int, k: int):
        name = shard_name(vi, n, k)
        self.paths = [Path(out) / "decades" / name, Path(out) / "games" / name]
        self.tmps = [p.with_name(f".{p.name}.{os.getpid()}.tmp") for p in self.paths]
        self.writers: list = [None, None]  # opened with the first chunk, whose tables give the schema

    def append(self, dec: pl.DataFrame, gam: pl.DataFrame) -> None:
        """Write one chunk's (decades, games) tables as the next row group of each file."""
        import pyarrow.parquet as pq

        for i, df in enumerate((dec, gam)):
            table = df.to_arrow()  # the polars schema (Enum categories) rides in the file's Arrow schema
            if self.writers[i] is None:
                self.writers[i] = pq.ParquetWriter(self.tmps[i], table.schema, **PARQUET_OPTIONS)
            self.writers[i].write_table(table, row_group_size=max(1, table.num_rows))

    def finish(self) -> None:
        """Close both files and give them their names, the games file last."""
        for i in (0, 1):
            self.writers[i].close()
            self.writers[i] = None
            os.replace(self.tmps[i], self.paths[i])

    def abort(self) -> None:
        """Drop an incomplete shard: close its files and remove them."""
        for i in (0, 1):
            w, self.writers[i] = self.writers[i], None
            if w is not None:
                with contextlib.suppress(Exception):  # already failing (a full disk): removing the file is what matters
                    w.close()
            self.tmps[i].unlink(missing_ok=True)


def _chunk_tables(exp: Experiment, players: Players, vi: int, n: int, start: int, count: int,
                  threads: int | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Play ``count`` games from game ``start`` and return their (decades, games) tables."""
    return _tables(exp, vi, n, *_play_records(exp, players, vi, n, start, count, threads))


def run_shard(exp_dict: dict, players: Players, out: str, vi: int, n: int, k: int, start: int, count: int,
              threads: int | None = None) -> ShardResult:
    """Play and write one shard a chunk at a time (the unit of work of a Ray task): the chunks and
    the writer of the local backend, so the files are the same, and a task holds one chunk's
    tables, never a whole shard's."""
    t0 = time.perf_counter()
    exp = _experiment(json.dumps(exp_dict, sort_keys=True))  # validated once per process, not per shard
    writer = ShardWriter(out, vi, n, k)
    try:
        b = chunk_bounds(count)
        for lo, hi in zip(b[:-1].tolist(), b[1:].tolist()):
            writer.append(*_chunk_tables(exp, players, vi, n, start + lo, hi - lo, threads))
        writer.finish()
    except BaseException:
        writer.abort()
        raise
    return ShardResult(count, time.perf_counter() - t0)


def chunk_window(workers: int) -> int:
    """The most chunks the local backend holds at once (in play, or played and waiting for an
    earlier chunk of their shard to be written): two a worker, so that a chunk that plays slowly
    keeps no worker waiting until the others have played one more chunk each behind it. It bounds
    a run's memory by the chunk, whatever the shard size."""
    return 2 * workers


class _Chunks:
    """The local backend's schedule (:func:`_run_local`): hands out chunks in order (a shard's
    chunks in order, then the next shard's), at most ``window`` of them not yet written; keeps a
    played chunk's tables until the chunks before it in its shard are written, and has them written
    in order by one worker at a time per shard (:meth:`put`). Thread-safe (one lock; the writes
    themselves run outside it)."""

    def __init__(self, todo: list, out: Path, window: int):
        self.todo = list(reversed(todo))  # popped from the end: todo order
        self.out, self.window = out, window
        self.current: dict | None = None  # the shard whose chunks are being handed out
        self.open: list[dict] = []  # shards with a chunk handed out and not yet complete (their files are open)
        self.held = 0  # chunks handed out and not yet written
        self.max_held = 0
        self.stopped = False
        self.cond = threading.Condition()

    def take(self):
        """(shard, chunk index) to play next; None when there is nothing left or the run stops."""
        with self.cond:
            while True:
                cur = self.current
                exhausted = cur is None or cur["next"] == cur["chunks"]
                if self.stopped or (exhausted and not self.todo):
                    return None
                if self.held < self.window:
                    break
                self.cond.wait()  # for a chunk to be written
            if exhausted:
                vi, n, k, a, c = self.todo.pop()
                b = chunk_bounds(c)
                cur = self.current = {"key": (vi, n, k), "start": a, "games": c, "bounds": b, "chunks": len(b) - 1,
                                      "next": 0, "written": 0, "ready": {}, "writing": False,
                                      "writer": ShardWriter(self.out, vi, n, k)}
                self.open.append(cur)
            cur["next"] += 1
            self.held += 1
            self.max_held = max(self.max_held, self.held)
            return cur, cur["next"] - 1

    def put(self, sh: dict, j: int, frag: tuple) -> bool:
        """Keep chunk ``j``'s tables and write every chunk of the shard that is next in order,
        unless another worker is writing the shard (it writes them before it stops). True when this
        call wrote the shard's last chunk and gave the files their names. After :meth:`stop` a
        chunk is dropped and no write starts: the writes under way finish."""
        with self.cond:
            if self.stopped:
                return False
            sh["ready"][j] = frag
            if sh["writing"]:
                return False
            sh["writing"] = True
        del frag
        while True:
            with self.cond:
                nxt = sh["ready"].pop(sh["written"], None)
                if nxt is None or self.stopped:
                    sh["writing"] = False
                    return False
            sh["writer"].append(*nxt)  # outside the lock: the other workers play and write on
            del nxt
            with self.cond:
                sh["written"] += 1
                self.held -= 1
                self.cond.notify_all()
                if sh["written"] < sh["chunks"]:
                    continue
            sh["writer"].finish()
            with self.cond:
                self.open.remove(sh)
            return True

    def stop(self) -> None:
        with self.cond:
            self.stopped = True
            self.cond.notify_all()

    def abort_open(self) -> None:
        """Remove the files of every shard not complete (once no worker is running)."""
        with self.cond:
            dropped, self.open = self.open, []
        for sh in dropped:
            sh["writer"].abort()
            sh["ready"].clear()


def _run_local(exp_doc: dict, players: Players, out: Path, todo: list, workers: int, tick) -> dict:
    """The local backend (issue 24, scaling past two cores): ``workers`` threads, each of which
    plays a chunk of a shard on its own (the jitted kernel runs without the GIL), turns the chunk's
    records into table rows at once (so records never pile up), and writes them as the next row
    group of the shard's files, with any later chunks of the shard that were waiting for it
    (:class:`_Chunks`). Every part of a game's cost therefore runs on every worker: nothing is
    left to one thread.

    Why threads that each do everything (measured on 2 cores, 4-player heuristic games, 5,000-game
    shards): a game costs about 0.5 core-ms of play, 0.04-0.06 of building its table rows (numpy
    and polars, on the thread that calls them; about 7% of it holds the GIL, py-spy --gil) and
    0.08 of zstd compression (Arrow's Parquet writer, on the worker's thread without the GIL). One
    writer thread beside the play threads (the design before) building every shard's rows capped a
    run at about 1 / 0.09 ms = 11,000 games/s, and the play threads waited for one another at the
    end of every shard. Here no part of the work is left to one thread, and no worker waits for
    another but at the run's last chunks. The GIL is held for about 10 µs a game (the rows, and the
    Python around each kernel call): 16 workers at 1,500 games/s each would keep it busy a quarter
    of the time. A process pool would not share the GIL, but each process would load the engine
    and take the players by pickle, and the Ctrl-C and error paths would cross processes; threads
    keep one process whose writes the main thread sees finish.

    Memory (issue 24, memory): at most :func:`chunk_window` chunks of at most :data:`CHUNK_GAMES`
    games are held at once, in play or waiting for an earlier chunk of their shard: flat in the
    run's size and in the shard size (a shard's rows were once joined before it was written, which
    made the peak follow ``--shard-games``). A Python strategy (its objects need not be
    thread-safe) plays one chunk at a time, behind a lock; the others still build tables and write.

    Ticks come as shards are complete (in any order; a shard's files do not depend on the order
    nor on the workers: its chunks are cut and written in order whatever their number). On Ctrl-C
    or an error the workers take no more chunks, drop the chunks they finish, and finish the
    writes under way; the shards not complete are then removed: only complete shards remain, and
    every one of them has been ticked. Returns the workers' thread CPU seconds: ``play`` (the
    kernel and the Python around it) and ``write`` (table rows and Arrow's Parquet writer,
    compression included), and ``max_held``, the most chunks held at once."""
    exp = _experiment(json.dumps(exp_doc, sort_keys=True))
    sched = _Chunks(todo, out, chunk_window(workers))
    done: queue.Queue = queue.Queue()  # games of each complete shard, for the main thread's tick
    cpu = {"play": 0.0, "write": 0.0}
    cpu_lock = threading.Lock()
    play_lock = threading.Lock() if has_python(players.matrix()) else contextlib.nullcontext()
    errors: list[BaseException] = []

    def worker() -> None:
        play = write = 0.0
        try:
            while (job := sched.take()) is not None:
                sh, j = job
                (vi, n, _), lo, hi = sh["key"], int(sh["bounds"][j]), int(sh["bounds"][j + 1])
                c0 = time.thread_time()
                with play_lock:
                    records = _play_records(exp, players, vi, n, sh["start"] + lo, hi - lo, 1)
                c1 = time.thread_time()
                frag = [_tables(exp, vi, n, *records)]
                del records
                # handed over by pop: while this worker writes its shard's chunks in put, the
                # schedule alone holds this chunk's tables, freed once written
                if sched.put(sh, j, frag.pop()):  # this worker wrote the shard's last chunk: the shard is complete
                    done.put(sh["games"])
                c2 = time.thread_time()
                play, write = play + c1 - c0, write + c2 - c1
        except BaseException as e:  # noqa: BLE001 (a KeyboardInterrupt raised in a worker too): stop the run, say it in the main thread
            errors.append(e)
            sched.stop()
        finally:
            with cpu_lock:
                cpu["play"] += play
                cpu["write"] += write

    threads = [threading.Thread(target=worker, name=f"trinidad-worker-{i}") for i in range(workers)]
    for t in threads:
        t.start()
    try:
        while any(t.is_alive() for t in threads):
            try:
                tick(done.get(timeout=0.2))
            except queue.Empty:
                pass
    finally:  # Ctrl-C here, or an error: no more chunks; the writes under way finish
        sched.stop()
        for t in threads:
            t.join()
        sched.abort_open()  # no worker runs now: the incomplete shards' temporary files go
        while not done.empty():  # every complete shard counts
            tick(done.get())
    if errors:
        raise errors[0]
    return cpu | {"max_held": sched.max_held}


def warm_engine(exp: Experiment, players: Players, todo: list, threads: int, say) -> float:
    """Compile (or load from the cache) the engine before the clock of play starts: one game of
    the first pending shard, discarded. On a fresh machine this is the Numba compile of a few
    minutes; ``say`` (a line printer that needs no terminal) tells so at once and every 30 s.
    Returns the seconds it took (``compile_s`` in the manifest; games/s leave it out)."""

    if not todo:
        return 0.0
    t0 = time.perf_counter()
    say("preparing the engine (compiled on the first run on a machine, one to three minutes; cached after)")
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(30.0):
            say(f"  still compiling the engine ({time.perf_counter() - t0:.0f} s)")

    t = threading.Thread(target=beat, daemon=True)
    t.start()
    try:
        vi, n, _, a, _ = todo[0]
        _play_records(exp, players, vi, n, a, 1, threads)
    finally:
        stop.set()
        t.join()
    took = time.perf_counter() - t0
    say(f"engine ready in {took:.1f} s")
    return took


def check_shards(run: Path, command: str) -> None:
    """One line naming the first unreadable shard file and the fix, for the commands that read a
    run (``runs summarize``, ``report``): a resume plays a corrupt shard again."""
    bad = bad_shards_line(run, command)
    if bad:
        raise ExperimentError(bad)


def pending_shards(exp: Experiment, out: Path, repair: bool = False) -> list[tuple[int, int, int, int, int]]:
    """The shards still to play: no games file, or (with ``repair``, as a resume does) a games or
    decades file that cannot be read or holds the wrong number of game rows (one per seat); with
    ``repair`` the files of such a shard are removed, so that it is played again."""
    todo = []
    for s in exp.shards():
        name = shard_name(s[0], s[1], s[2])
        g, d = out / "games" / name, out / "decades" / name
        if not g.exists():
            todo.append(s)
        elif repair and (shard_rows(g) != s[4] * exp.seats(s[1]) or shard_rows(d) is None):  # the A.I.'s seat has its rows too
            _say(f"{g.name}: a shard file in {out} cannot be read or is incomplete; playing that shard again")
            for f in (g, d):
                f.unlink(missing_ok=True)
            todo.append(s)
    return todo


def _manifest_fixed(exp: Experiment) -> dict:
    """The manifest's entries that do not change during a run (resolving and hashing every
    variant's rules takes about 0.1 s: once per run, not once per shard)."""
    docs = exp.resolved_rules_docs()
    return {
        "package_version": package_version(),
        "git_commit": git_commit(),
        "python": platform.python_version(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "experiment": exp.to_dict(),
        "strategy_aliases": strategy_aliases(exp),
        "variants": [{"name": v.name, "overrides": v.overrides, "rules_hash": rules_hash(d), "rules": d}
                     for v, d in zip(exp.variants, docs)],
        "seeds": {"master": exp.seed, "rule": "seed(game i, n players) = game_seed(game_seed(master, n), i), sim.rng (SplitMix64)"},
    }


def strategy_aliases(exp: Experiment) -> dict[str, str]:
    """Each alias among the run's strategies (``best``) and the strategy it names now: the games
    table keeps the alias, the manifest what it stood for."""
    solo = bool(exp.ai)  # games with the Solo A.I.: an alias's solo name (strategies.registry.resolve)
    return {n: resolve(n, solo) for n in exp.strategy_names() if resolve(n, solo) != n}


def _manifest(exp: Experiment, fixed: dict, status: str, games_done: int, wall_s: float, backend: str, workers: int) -> dict:
    return {
        "status": status,
        **fixed,
        "counts": {"games_total": exp.total_games(), "games_done": games_done, "shards": exp.shard_count()},
        "backend": backend,
        "workers": workers,
        "wall_s": round(wall_s, 3),
        "games_per_s": round(games_done / wall_s, 1) if wall_s > 0 else None,
    }


def _write_manifest(out: Path, m: dict) -> None:
    tmp = out / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(m, indent=2, sort_keys=True))
    os.replace(tmp, out / MANIFEST)


def check_out(exp: Experiment, out: Path, resume: bool) -> None:
    """Check the output directory: a new run needs it empty; ``resume`` needs the same experiment."""
    if out.exists() and not out.is_dir():
        raise ExperimentError(f"out: {out} is a file, not a run directory; choose an empty or new --out")
    if (out / MANIFEST).exists():
        if not resume:
            raise ExperimentError(f"out: {out} already holds a run; use --resume to finish it or choose another --out")
        old = json.loads((out / MANIFEST).read_text())
        def same(e: dict) -> dict:  # where the run lies is not part of it: a moved run directory resumes
            return {k: v for k, v in e.items() if k != "out"}

        if same(old.get("experiment") or {}) != same(json.loads(json.dumps(exp.to_dict()))):
            raise ExperimentError(f"out: {out} holds a different experiment; --resume needs the same experiment and flags")
        then, now = old.get("strategy_aliases", {}), strategy_aliases(exp)
        changed = sorted(a for a in now if a in then and then[a] != now[a])
        if changed:  # the rest of the run would be played by another player under the same name
            a = changed[0]
            raise ExperimentError(f"out: {out} was played with {a} = {then[a]}; {a} now names {now[a]}")
    elif out.exists() and any(out.iterdir()):
        raise ExperimentError(f"out: {out} exists and is not a run directory; choose an empty or new --out")


def _make_run_dirs(out: Path) -> None:
    """The run directory's folders (after :func:`check_out`), without an interrupted shard's leftovers."""
    try:
        (out / "decades").mkdir(parents=True, exist_ok=True)
        (out / "games").mkdir(parents=True, exist_ok=True)
    except OSError as e:  # a parent that is a file, no permission
        raise ExperimentError(f"out: cannot make the run directory {out}: {e.strerror or e}; choose another --out") from None
    for tmp in list(out.glob("*/.*.tmp")):  # leftovers of an interrupted shard
        tmp.unlink()


def _say(line: str) -> None:
    import sys

    print(line, file=sys.stderr, flush=True)


def record_ai_scale(exp: Experiment, out: Path, ai_games: int, workers: int | None, progress: bool, say=_say) -> None:
    """The run's strategies against the Solo A.I. at each strength (:func:`trinidad.ai_scale.measure`,
    ``ai_games`` games each, the run's seed and rules) into ``out``/ai_scale.json, where the report
    reads it; one already there of the same strategies, games and seed is kept (a resumed run)."""
    if ai_games < 1:
        return
    from trinidad import ai_scale

    names = exp.strategy_names()
    old = ai_scale.read(out)
    if old is not None and (old.strategies, old.games, old.seed) == (names, ai_games, exp.seed):
        return
    if progress:
        say(f"{', '.join(names)} against the Solo A.I. (weak to divinity), {ai_games:,} Solo games a strength...")
    scale = ai_scale.measure(names, ai_games, exp.seed, workers, exp.rules_file, exp.overrides, say=say if progress else None)
    ai_scale.write(scale, out)


def _solo_too(ai_games: int):
    """A run that then plays Solo games (``ai_games`` > 0) compiles the engine once, with the Solo
    A.I. in, rather than twice (sim.compiled_parts)."""
    return compiled_parts.including(compiled_parts.SOLO_AI) if ai_games > 0 else contextlib.nullcontext()


def run_experiment(exp: Experiment, backend: str = "local", workers: int | None = None, address: str | None = None,
                   resume: bool = False, progress: bool = True, say=_say, ai_games: int = 0) -> dict:
    """Play every pending shard of ``exp`` and return the final manifest. ``say`` prints the
    engine's preparation lines (with ``progress``). ``ai_games`` > 0: then record the run's
    strategies against the Solo A.I. (:func:`record_ai_scale`)."""
    if backend not in ("local", "ray"):
        raise ExperimentError(f"backend: allowed: local, ray, got {backend!r}")
    out = Path(exp.out)
    check_out(exp, out, resume)  # the checks first: a refused run starts no Ray and writes nothing
    joined = _ray_connect(address, workers or os.cpu_count() or 1) if backend == "ray" else False
    try:  # a Ray that cannot be joined has written nothing; one joined here is left here
        with _solo_too(ai_games):
            m = _run_experiment(exp, out, backend, workers, resume, progress, say)
            record_ai_scale(exp, out, ai_games, workers, progress, say)
        return m
    finally:
        if joined:
            import ray

            ray.shutdown()


def run_tiers(tiers: list[tuple[str, Experiment]], out: str | Path, backend: str = "local", workers: int | None = None,
              address: str | None = None, resume: bool = False, progress: bool = True, say=_say, ai_games: int = 0) -> list[dict]:
    """Play an experiment with ``[[tiers]]`` (:func:`trinidad.experiment.tier_experiments`): one run
    directory per tier in ``out``, strongest first, listed in ``out``/tiers.json (with each tier's
    experiment, so ``--resume --out`` finishes them). Every output is checked before any game.
    ``ai_games`` > 0: each tier's strategies against the Solo A.I., in its run (:func:`record_ai_scale`)."""
    from analysis.data import TIERS_FILE

    top = Path(out)
    if top.exists() and not top.is_dir():
        raise ExperimentError(f"out: {top} is a file, not a folder; choose an empty or new --out")
    if (top / MANIFEST).exists():
        raise ExperimentError(f"out: {top} holds a single run; an experiment with [[tiers]] needs an empty or new --out")
    listed = top / TIERS_FILE
    doc = {"tiers": [{"name": n, "out": n, "experiment": _experiment_document(e)} for n, e in tiers]}
    if listed.exists():
        if not resume:
            raise ExperimentError(f"out: {top} already holds tier runs; use --resume to finish them or choose another --out")
        if [t["name"] for t in json.loads(listed.read_text())["tiers"]] != [n for n, _ in tiers]:
            raise ExperimentError(f"out: {top} holds other tiers; --resume needs the same experiment")
    elif top.exists() and any(top.iterdir()):
        raise ExperimentError(f"out: {top} exists and holds other files; choose an empty or new --out")
    for _, e in tiers:
        check_out(e, Path(e.out), resume or listed.exists())
    joined = _ray_connect(address, workers or os.cpu_count() or 1) if backend == "ray" else False
    try:
        top.mkdir(parents=True, exist_ok=True)
        listed.write_text(json.dumps(doc, indent=1) + "\n")
        done = []
        for n, e in tiers:
            if progress:
                say(f"tier {n}: {', '.join(e.strategy_names())}")
            with _solo_too(ai_games):
                done.append(_run_experiment(e, Path(e.out), backend, workers, (Path(e.out) / MANIFEST).exists(), progress, say))
                record_ai_scale(e, Path(e.out), ai_games, workers, progress, say)
        return done
    finally:
        if joined:
            import ray

            ray.shutdown()


def tiers_of_run(out: str | Path) -> list[tuple[str, dict]] | None:
    """(tier name, TOML-shaped experiment document) of a folder written by :func:`run_tiers`, or
    None when ``out`` is not one."""
    from analysis.data import TIERS_FILE

    f = Path(out) / TIERS_FILE
    if not f.exists():
        return None
    return [(t["name"], t["experiment"]) for t in json.loads(f.read_text())["tiers"]]


def _run_experiment(exp: Experiment, out: Path, backend: str, workers: int | None, resume: bool, progress: bool,
                    say) -> dict:
    import numba

    _make_run_dirs(out)
    todo = pending_shards(exp, out, repair=resume)
    done_before = exp.total_games() - sum(s[4] for s in todo)
    nw = workers or (numba.config.NUMBA_NUM_THREADS if backend == "local" else os.cpu_count() or 1)
    old = json.loads((out / MANIFEST).read_text()) if resume and (out / MANIFEST).exists() else None
    if old is not None and not todo and old.get("status") == "complete":
        return old  # nothing left to play: the record of the run stays as it was
    # wall_s and games_per_s cover every session of the run (the play time of an interrupted run
    # and of its resumes, added); games_this_session and its rate are this session's
    wall_before = float(old.get("wall_s") or 0.0) if old is not None else 0.0
    fixed = _manifest_fixed(exp)
    _write_manifest(out, _manifest(exp, fixed, "running", done_before, wall_before, backend, nw))
    exp_dict_flat = _experiment_document(exp)
    players = compile_players(exp.strategy_names(), solo=bool(exp.ai))  # once per run: workers are handed the weights
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
        task = bar.add_task(exp.name, total=exp.total_games(), completed=done_before, rate="-")
        played = 0

        def tick(n_games: int) -> None:
            nonlocal done, played
            done += n_games
            played += n_games
            el = time.perf_counter() - t0
            bar.update(task, completed=done, rate=f"{played / el:,.0f}" if el > 0 else "-")
            _write_manifest(out, _manifest(exp, fixed, "running", done, wall_before + el, backend, nw))

        cpu0 = time.process_time()
        worker_cpu = None
        try:
            if backend == "local":
                worker_cpu = _run_local(exp_dict_flat, players, out, todo, nw, tick)
            else:
                _run_ray(exp_dict_flat, players, out, todo, tick)
        except KeyboardInterrupt:  # the record names what is on disk: the complete shards, counted there
            on_disk = exp.total_games() - sum(sh[4] for sh in pending_shards(exp, out))
            _write_manifest(out, _manifest(exp, fixed, "interrupted", on_disk, wall_before + time.perf_counter() - t0, backend, nw))
            raise
    wall = time.perf_counter() - t0
    m = _manifest(exp, fixed, "complete", done, wall_before + wall, backend, nw)
    m["games_this_session"] = done - done_before
    m["games_per_s_this_session"] = round((done - done_before) / wall, 1) if wall > 0 else None
    # where this session's CPU went (local backend): the whole process; the workers' threads playing
    # and writing (tables, and Arrow's Parquet writer compressing them), summed over the workers;
    # the rest is the main thread and the libraries' own thread pools
    m["cpu_s_this_session"] = round(time.process_time() - cpu0, 3)
    m["play_cpu_s_this_session"] = round(worker_cpu["play"], 3) if worker_cpu is not None else None
    m["write_cpu_s_this_session"] = round(worker_cpu["write"], 3) if worker_cpu is not None else None
    _write_manifest(out, m)
    return m


def _experiment_document(exp: Experiment) -> dict:
    """The experiment as the TOML-shaped document :func:`experiment_from_dict` reads (for workers)."""
    d = {
        "name": exp.name, "players": exp.players, "games": exp.games, "seed": exp.seed, "out": exp.out,
        "shard_games": exp.shard_games, "first_game": exp.first_game,
        "seats": {"strategies": exp.strategies, "assign": exp.seat_assign},
        "characters": {"assign": exp.char_assign} | ({"forced": exp.forced} if exp.char_assign == "forced" else {})
        | ({"prices": exp.prices} if getattr(exp, "prices", None) else {}),
        "rules": ({"file": exp.rules_file} if exp.rules_file else {}) | {"overrides": exp.overrides},
        "variants": [{"name": v.name, "overrides": v.overrides} for v in (exp.declared_variants if exp.ai else exp.variants)],
    }
    if exp.ai:
        d["ai"] = {"strength": exp.ai}
    return d


def experiment_of_run(out: str | Path) -> dict:
    """The TOML-shaped experiment document a run directory was played from (its manifest), so that
    ``trinidad run --resume --out DIR`` needs no experiment file or flags."""
    from types import SimpleNamespace

    o = Path(out)
    if not (o / MANIFEST).exists():
        raise ExperimentError(f"out: {o}: no {MANIFEST} to resume (not a run directory)")
    e = json.loads((o / MANIFEST).read_text())["experiment"]
    ns = SimpleNamespace(**(e | {k: [SimpleNamespace(**v) for v in e[k]] for k in ("variants", "declared_variants")}))
    return _experiment_document(ns)


def _ray_token_available() -> bool:
    """A Ray authentication token this process can present: RAY_AUTH_TOKEN, the file named by
    RAY_AUTH_TOKEN_PATH, or Ray's default ~/.ray/auth_token (written by ``ray start`` or ``ray
    get-auth-token --generate`` on this machine, or copied from the cluster's head)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    p = os.environ.get("RAY_AUTH_TOKEN_PATH")
    return Path(p).is_file() if p else (Path.home() / ".ray" / "auth_token").is_file()


def _reachable(address: str, timeout_s: float = 5.0) -> None:
    """One line, at once, when nothing listens at ``address`` (HOST:PORT): Ray itself would retry
    for minutes."""
    import socket

    host, _, port = address.rpartition(":")
    if address.startswith("ray://") or not port.isdigit():
        return  # a Ray Client or an address Ray resolves itself ("auto"): Ray's own checks
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout_s):
            pass
    except OSError as e:
        raise ExperimentError(f"--address: nothing answers at {address} ({e.strerror or e}); start the cluster with "
                              "`ray start --head` on that machine, or leave --address out for a local Ray") from None


def _ray_connect(address: str | None, workers: int) -> bool:
    """Join the Ray cluster at ``address`` (or start a local Ray with ``workers`` CPUs) before the
    run writes anything; True when this call started or joined it (and must shut it down).

    Current Ray turns token authentication on for a cluster started where a token exists, and a
    driver joining it must say so (RAY_AUTH_MODE=token) or it cannot connect: with a token at hand
    and no mode set, the mode is set for this process, before Ray is first imported (Ray reads its
    mode and token once per process: a program that imported Ray earlier sets RAY_AUTH_MODE
    itself). A cluster that cannot be reached is one line naming the address and what it needs."""
    if address:
        _reachable(address)
    set_mode = bool(address) and "RAY_AUTH_MODE" not in os.environ and _ray_token_available()
    if set_mode:  # before Ray reads its configuration (at import)
        os.environ["RAY_AUTH_MODE"] = "token"
    try:
        import ray
    except ImportError:
        raise ExperimentError("backend: ray needs the ray extra: pip install 'trinidad-sim[ray]'") from None
    if ray.is_initialized():
        return False
    try:
        ray.init(address=address, num_cpus=None if address else workers, include_dashboard=False,
                 log_to_driver=False, ignore_reinit_error=True)
    except (ConnectionError, RuntimeError, ValueError) as e:
        why = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise ExperimentError(f"--address: cannot join the Ray cluster at {address or 'local'} ({why}); start it with "
                              "`ray start --head`, and where it uses token authentication give this machine its token "
                              "(RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token, see `ray get-auth-token`)") from None
    return True


def _run_ray(exp_doc: dict, players: Players, out: Path, todo: list, tick) -> None:
    """One Ray task per shard on the Ray this process has joined (:func:`_ray_connect`)."""
    import ray

    task = ray.remote(num_cpus=1)(_ray_shard)
    players_ref = ray.put(players)
    refs = {task.remote(exp_doc, players_ref, str(out.resolve()), vi, n, k, a, c): c for (vi, n, k, a, c) in todo}
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            ray.get(ref)
            tick(refs[ref])


def _ray_shard(exp_doc: dict, players: Players, out: str, vi: int, n: int, k: int, a: int, c: int) -> int:
    run_shard(exp_doc, players, out, vi, n, k, a, c, 1)
    return c


def summarize(out: str | Path) -> list[str]:
    """A short text summary of a run directory."""
    o = Path(out)
    if not (o / MANIFEST).exists():
        raise ExperimentError(f"runs: {o}: no {MANIFEST} (not a run directory)")
    m = json.loads((o / MANIFEST).read_text())
    lines = [f"run {m['experiment']['name']} in {o}: {m['status']}, {m['counts']['games_done']:,} of "
             f"{m['counts']['games_total']:,} games, {m['wall_s']:.1f} s, {m['games_per_s'] or 0:,.0f} games/s "
             + (f"(+{m['compile_s']:.1f} s preparing the engine) " if m.get("compile_s") else "")
             + f"({m['backend']}, {m['workers']} worker{'' if m['workers'] == 1 else 's'}), rules {', '.join(v['rules_hash'] for v in m['variants'])}"]
    if m.get("write_cpu_s_this_session") is not None and m.get("cpu_s_this_session") and m.get("games_this_session"):
        lines += cpu_lines(m)
    if m.get("strategy_aliases"):
        lines.append("  strategies named by an alias: " + ", ".join(f"{a} = {t}" for a, t in m["strategy_aliases"].items()))
    if not any((o / "games").glob("*.parquet")):
        return lines  # interrupted before its first shard: nothing to summarize yet
    check_shards(o, "runs")
    # streamed, and no per-game key over the whole table: the summary of a 10-million-game run stays
    # within the run's own memory (a game has one row per seat, so its rows / players is its games).
    # Games with a tie for first are few: their rows (one per tied winner, tie = 1) are counted alone.
    games = pl.scan_parquet(str(o / "games" / "*.parquet"))
    by = ["variant", "players"]
    k = (games.filter(pl.col("tie") == 1).group_by(*by, "game").agg(pl.len().alias("k"))  # seats tied for first
         .collect(engine="streaming"))
    ties = {(row["variant"], row["players"]): row["len"] for row in k.group_by(*by).len().iter_rows(named=True)}
    t = (games.group_by(*by).agg(pl.len().alias("rows"), pl.col("vp").mean().alias("mean_vp"))
         .sort(*by).collect(engine="streaming"))
    for row in t.iter_rows(named=True):
        n_games = row["rows"] // row["players"]
        tie_rate = ties.get((row["variant"], row["players"]), 0) / n_games
        lines.append(f"  {row['variant']} / {row['players']} players: {n_games:,} games, mean VP {row['mean_vp']:.1f}, "
                     f"games with a tie for first {tie_rate:.1%}")
    # a tie for first among k seats gives each 1/k of a win (as the report counts it), summed exactly
    # in units of 1/lcm(1..5) of a win: the streamed sums' order cannot reorder equal rates, which
    # then follow Character order (the join leaves rows in no fixed order)
    unit = math.lcm(*range(1, MAX_PLAYERS + 1))
    win = pl.col("winner").cast(pl.Int64) * unit // pl.col("k").fill_null(1)
    ch = (games.join(k.lazy(), on=[*by, "game"], how="left").group_by(*by, "character").agg(
        pl.len().alias("n"), (win.sum() / (unit * pl.len())).alias("win"), pl.col("vp").mean().alias("vp"))
        .sort(*by, "win", "character", descending=[False, False, True, False]).collect(engine="streaming"))
    for (var, n), grp in ch.group_by(by, maintain_order=True):
        lines.append(f"  win rate by Character ({var}, {n} players; fair share {1 / n:.1%}; a tie for first shares the win):")
        for row in grp.iter_rows(named=True):
            lines.append(f"    {row['character']:<14} {row['win']:6.1%}  mean VP {row['vp']:6.1f}  ({row['n']:,} seats)")
    if m["experiment"].get("ai"):
        lines += _summarize_ai(games)
    from analysis.played import format_played, played_table, scoring_table

    decades = pl.scan_parquet(str(o / "decades" / "*.parquet")) if any((o / "decades").glob("*.parquet")) else None
    lines += format_played(played_table(games), scoring_table(decades) if decades is not None else None)
    from trinidad import ai_scale

    scale = ai_scale.read(o)
    if scale is not None:
        lines += ["  against the Solo A.I. (" + ai_scale.note(scale) + ")", *("    " + x for x in ai_scale.table(scale))]
    return lines


def cpu_lines(m: dict) -> list[str]:
    """Where the last session's CPU went, per game (issue 24): playing, building tables and writing
    Parquet on the workers' threads, and the rest (the main thread, the libraries' own thread
    pools: polars compressed the files there in builds before the chunk writer). A manifest of a
    build that had one writer thread and no play time says the writer's."""
    cpu, wr, g = m["cpu_s_this_session"], m["write_cpu_s_this_session"], m["games_this_session"]

    def part(x: float) -> str:
        return f"{x:,.1f} core-s ({x / cpu:.0%}, {1000 * x / g:,.3f} core-ms a game)"

    lines = [f"  CPU of the last session: {cpu:,.1f} core-s ({1000 * cpu / g:,.3f} core-ms a game, {m['workers']} "
             f"worker{'' if m['workers'] == 1 else 's'})"]
    if m.get("play_cpu_s_this_session") is None:
        return lines + [f"    writing tables and Parquet (one writer thread): {part(wr)}"]
    play = m["play_cpu_s_this_session"]
    return lines + [f"    playing:                                 {part(play)}",
                    f"    building tables and writing Parquet:     {part(wr)}",
                    f"    other threads (the main, library pools): {part(max(0.0, cpu - play - wr))}"]


def _summarize_ai(games: pl.LazyFrame) -> list[str]:
    """The players against the A.I.: per variant, game size and strategy, how often the seat beat it
    (Wilson 95% CI), its VP, and in how many of its games the A.I. sat first in turn order (a player
    moving after the A.I. beats it measurably more often: docs/solo.md, "Who moves first"; ``[seats]
    assign = "fixed"`` keeps the A.I. last in every game, ``"rotate"`` moves it round the turn order)."""
    from analysis.against_ai import beat_ai_table
    from analysis.stats import wilson

    t = (beat_ai_table(games).group_by("variant", "players", "ai", "strategy")
         .agg(pl.len().alias("n"), pl.col("beat_ai").sum().alias("beat"), pl.col("vp").mean().alias("vp"),
              pl.col("ai_vp").mean().alias("ai_vp"), (pl.col("ai_seat") == 0).sum().alias("ai_first"))
         .sort("variant", "players", "strategy").collect(engine="streaming"))
    lines = []
    for (var, n, ai), grp in t.group_by(["variant", "players", "ai"], maintain_order=True):
        what = "the Solo game" if n == 2 else f"{n - 1} players"
        lines.append(f"  against the A.I. ({var}, {what} + {ai}; A.I. mean VP {grp['ai_vp'].mean():.1f}; beating it = finishing ahead of it):")
        lo, hi = wilson(grp["beat"].to_numpy(), grp["n"].to_numpy())
        for row, a, b in zip(grp.iter_rows(named=True), lo, hi):
            lines.append(f"    {str(row['strategy']):<14} beats the A.I. {row['beat'] / row['n']:6.1%} [{a:.1%}, {b:.1%}]  "
                         f"mean VP {row['vp']:6.1f}  ({row['n']:,} seats; the A.I. first in turn order in {row['ai_first']:,})")
    return lines
