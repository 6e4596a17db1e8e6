"""A run's shards (trinidad.runner): a shard is (variant, player count, a range of game indices),
played a chunk at a time by its game (trinidad.games) and written by one :class:`ShardWriter` on
either backend; the shards a run still lacks (``--resume``) and the check that the ones it has are
readable."""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis.data import shard_rows
from sim.dataset import shard_name
from trinidad.experiment import experiment_from_dict
from trinidad.games import game_of
from trinidad.games.trinidad import TABLES as TRINIDAD_TABLES


@dataclass
class ShardResult:
    games: int
    seconds: float


def _play_records(exp, players, vi: int, n: int, start: int, count: int, threads: int | None = None):
    """Play ``count`` games of a shard from game ``start``: the records of the experiment's game
    (:attr:`trinidad.games.spec.Game.play`). Every backend plays through here (a test replaces it)."""
    return game_of(exp).play(exp, players, vi, n, start, count, threads)


def tables(exp, vi: int, n: int, *records) -> tuple[pl.DataFrame, ...]:
    """A played chunk's tables from its records (:func:`_play_records`), in the order of the game's
    ``tables`` (Trinidad: decades, games)."""
    return game_of(exp).frames(exp, vi, n, *records)


@functools.lru_cache(maxsize=8)
def experiment_of_doc(doc_json: str):
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
    """One shard's Parquet files, one a table of its game (``tables``, the folders of the run
    directory; Trinidad's: decades, games), written a chunk at a time: each :meth:`append` adds the
    chunk's tables as one row group to each file (chunks must come in order). The files have
    temporary names until :meth:`finish` renames them, the games file last, so that a shard is
    complete exactly when its games file exists; :meth:`abort` removes them. The one writing path
    of both backends (a Ray task writes its shard with it too), so their files are the same."""

    def __init__(self, out: str | Path, vi: int, n: int, k: int, tables: tuple[str, ...] = TRINIDAD_TABLES):
        name = shard_name(vi, n, k)
        self.paths = [Path(out) / t / name for t in tables]
        self.tmps = [p.with_name(f".{p.name}.{os.getpid()}.tmp") for p in self.paths]
        self.writers: list = [None] * len(tables)  # opened with the first chunk, whose tables give the schema

    def append(self, *frames: pl.DataFrame) -> None:
        """Write one chunk's tables (one a file, in the files' order) as the next row group of each file."""
        import pyarrow.parquet as pq

        for i, df in enumerate(frames):
            table = df.to_arrow()  # the polars schema (Enum categories) rides in the file's Arrow schema
            if self.writers[i] is None:
                self.writers[i] = pq.ParquetWriter(self.tmps[i], table.schema, **PARQUET_OPTIONS)
            self.writers[i].write_table(table, row_group_size=max(1, table.num_rows))

    def finish(self) -> None:
        """Close the files and give them their names, the games file last."""
        for i in range(len(self.paths)):
            self.writers[i].close()
            self.writers[i] = None
            os.replace(self.tmps[i], self.paths[i])

    def abort(self) -> None:
        """Drop an incomplete shard: close its files and remove them."""
        for i in range(len(self.paths)):
            w, self.writers[i] = self.writers[i], None
            if w is not None:
                with contextlib.suppress(Exception):  # already failing (a full disk): removing the file is what matters
                    w.close()
            self.tmps[i].unlink(missing_ok=True)


def _chunk_tables(exp, players, vi: int, n: int, start: int, count: int, threads: int | None = None) -> tuple[pl.DataFrame, ...]:
    """Play ``count`` games from game ``start`` and return their tables."""
    return tables(exp, vi, n, *_play_records(exp, players, vi, n, start, count, threads))


def run_shard(exp_dict: dict, players, out: str, vi: int, n: int, k: int, start: int, count: int,
              threads: int | None = None) -> ShardResult:
    """Play and write one shard a chunk at a time (the unit of work of a Ray task): the chunks and
    the writer of the local backend, so the files are the same, and a task holds one chunk's
    tables, never a whole shard's."""
    t0 = time.perf_counter()
    exp = experiment_of_doc(json.dumps(exp_dict, sort_keys=True))  # validated once per process, not per shard
    writer = ShardWriter(out, vi, n, k, game_of(exp).tables)
    try:
        b = chunk_bounds(count)
        for lo, hi in zip(b[:-1].tolist(), b[1:].tolist()):
            writer.append(*_chunk_tables(exp, players, vi, n, start + lo, hi - lo, threads))
        writer.finish()
    except BaseException:
        writer.abort()
        raise
    return ShardResult(count, time.perf_counter() - t0)



def pending_shards(exp, out: Path, repair: bool = False) -> list[tuple[int, int, int, int, int]]:
    """The shards still to play: no games file, or (with ``repair``, as a resume does) a file of its
    tables that cannot be read, or a games file with the wrong number of game rows (one per seat);
    with ``repair`` the files of such a shard are removed, so that it is played again."""
    todo = []
    others = [t for t in game_of(exp).tables if t != "games"]
    for s in exp.shards():
        name = shard_name(s[0], s[1], s[2])
        g, rest = out / "games" / name, [out / t / name for t in others]
        if not g.exists():
            todo.append(s)
        elif repair and (shard_rows(g) != s[4] * exp.seats(s[1]) or any(shard_rows(f) is None for f in rest)):  # the A.I.'s seat has its rows too
            stderr_line(f"{g.name}: a shard file in {out} cannot be read or is incomplete; playing that shard again")
            for f in (g, *rest):
                f.unlink(missing_ok=True)
            todo.append(s)
    return todo


def stderr_line(line: str) -> None:
    """A progress line of a run, on stderr (the summary goes to stdout)."""
    import sys

    print(line, file=sys.stderr, flush=True)
