"""The local backend of ``trinidad run`` (trinidad.runner): a run's shards played a chunk at a time
on threads, at most :func:`chunk_window` chunks held at once, each shard written in order by
:class:`trinidad.runner.shards.ShardWriter`."""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from pathlib import Path

from trinidad.games import game_of
from trinidad.runner import shards  # shards._play_records: looked up at each call, where a test replaces it
from trinidad.runner.shards import ShardWriter, chunk_bounds, experiment_of_doc, tables


def chunk_window(workers: int) -> int:
    """The most chunks the local backend holds at once (in play, or played and waiting for an
    earlier chunk of their shard to be written): two a worker, so that a chunk that plays slowly
    keeps no worker waiting until the others have played one more chunk each behind it. It bounds
    a run's memory by the chunk, whatever the shard size."""
    return 2 * workers


class _Chunks:
    """The local backend's schedule (:func:`run_local`): hands out chunks in order (a shard's
    chunks in order, then the next shard's), at most ``window`` of them not yet written; keeps a
    played chunk's tables until the chunks before it in its shard are written, and has them written
    in order by one worker at a time per shard (:meth:`put`). Thread-safe (one lock; the writes
    themselves run outside it)."""

    def __init__(self, todo: list, out: Path, window: int, tables: tuple[str, ...]):
        self.todo = list(reversed(todo))  # popped from the end: todo order
        self.out, self.window, self.tables = out, window, tables
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
                                      "writer": ShardWriter(self.out, vi, n, k, self.tables)}
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


def run_local(exp_doc: dict, players, out: Path, todo: list, workers: int, tick) -> dict:
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
    thread-safe; the game's ``plays_alone``) plays one chunk at a time, behind a lock; the others still build
    tables and write.

    Ticks come as shards are complete (in any order; a shard's files do not depend on the order
    nor on the workers: its chunks are cut and written in order whatever their number). On Ctrl-C
    or an error the workers take no more chunks, drop the chunks they finish, and finish the
    writes under way; the shards not complete are then removed: only complete shards remain, and
    every one of them has been ticked. Returns the workers' thread CPU seconds: ``play`` (the
    kernel and the Python around it) and ``write`` (table rows and Arrow's Parquet writer,
    compression included), and ``max_held``, the most chunks held at once."""
    exp = experiment_of_doc(json.dumps(exp_doc, sort_keys=True))
    game = game_of(exp)
    sched = _Chunks(todo, out, chunk_window(workers), game.tables)
    done: queue.Queue = queue.Queue()  # games of each complete shard, for the main thread's tick
    cpu = {"play": 0.0, "write": 0.0}
    cpu_lock = threading.Lock()
    play_lock = threading.Lock() if game.plays_alone(players) else contextlib.nullcontext()
    errors: list[BaseException] = []

    def worker() -> None:
        play = write = 0.0
        try:
            while (job := sched.take()) is not None:
                sh, j = job
                (vi, n, _), lo, hi = sh["key"], int(sh["bounds"][j]), int(sh["bounds"][j + 1])
                c0 = time.thread_time()
                with play_lock:
                    records = shards._play_records(exp, players, vi, n, sh["start"] + lo, hi - lo, 1)
                c1 = time.thread_time()
                frag = [tables(exp, vi, n, *records)]
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


def warm_engine(exp, players, todo: list, threads: int, say) -> float:
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
        shards._play_records(exp, players, vi, n, a, 1, threads)
    finally:
        stop.set()
        t.join()
    took = time.perf_counter() - t0
    say(f"engine ready in {took:.1f} s")
    return took
