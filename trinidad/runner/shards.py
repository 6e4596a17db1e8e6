"""A run's shards (trinidad.runner): a shard is (variant, player count, a range of game indices),
played a chunk at a time and written by one :class:`ShardWriter` on either backend; the shards a
run still lacks (``--resume``) and the check that the ones it has are readable."""

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
from sim import compiled_parts
from sim.dataset import NUMPY_TYPE, column_type, shard_name
from sim.rng import player_seeds
from sim.rules import RK, ai_strength_names, character_names, rules_from_doc
from sim.schema import DECADE_COLUMNS, GAME_COLUMNS
from sim.state import AI_STRATEGY
from strategies.registry import Players
from trinidad.batch import play_batch
from trinidad.experiment import Experiment, experiment_from_dict


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


def tables(exp: Experiment, vi: int, n: int, gi: np.ndarray, seeds: np.ndarray, dec: np.ndarray,
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
def experiment_of_doc(doc_json: str) -> Experiment:
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
    return tables(exp, vi, n, *_play_records(exp, players, vi, n, start, count, threads))


def run_shard(exp_dict: dict, players: Players, out: str, vi: int, n: int, k: int, start: int, count: int,
              threads: int | None = None) -> ShardResult:
    """Play and write one shard a chunk at a time (the unit of work of a Ray task): the chunks and
    the writer of the local backend, so the files are the same, and a task holds one chunk's
    tables, never a whole shard's."""
    t0 = time.perf_counter()
    exp = experiment_of_doc(json.dumps(exp_dict, sort_keys=True))  # validated once per process, not per shard
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
            stderr_line(f"{g.name}: a shard file in {out} cannot be read or is incomplete; playing that shard again")
            for f in (g, d):
                f.unlink(missing_ok=True)
            todo.append(s)
    return todo


def stderr_line(line: str) -> None:
    """A progress line of a run, on stderr (the summary goes to stdout)."""
    import sys

    print(line, file=sys.stderr, flush=True)
