"""Records into table columns, for every game's shard tables (trinidad.games): the records' rows a
column at a time, a name column gathered from its categories by code, and an integer column in the
narrow type of its table, never wrapped silently."""

from __future__ import annotations

import math

import numpy as np
import polars as pl


def columns_first(arr: np.ndarray, block: int = 2048) -> np.ndarray:
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


def enum_column(name: str, categories: list[str], enum: pl.Enum, codes: np.ndarray) -> pl.Series:
    """A name column from codes into ``categories``: gathered by code (building the strings row by
    row cost more than the games' records)."""
    return pl.Series(name, categories, dtype=enum).gather(codes)


def int_column(name: str, col: np.ndarray, lo, hi, t: type) -> pl.Series:
    """An integer column of numpy type ``t`` from ``col``, whose values lie in ``lo..hi``: a record
    that outgrew its column is an error naming it, never a wrapped value."""
    if lo < np.iinfo(t).min or hi > np.iinfo(t).max:
        raise OverflowError(f"column {name}: values {lo}..{hi} do not fit {np.dtype(t).name}")
    return pl.Series(name, col.astype(t, copy=False))
