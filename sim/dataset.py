"""The run dataset's layout (``trinidad run`` writes it, :mod:`analysis` reads it): each record
column's Parquet type and the shard file names.

Layout of a run directory::

    DIR/manifest.json                 version, git commit, experiment, rules (resolved) and hashes, counts, timing
    DIR/decades/part-v00-p4-00000.parquet   one row per game x decade x seat
    DIR/games/part-v00-p4-00000.parquet     one row per game x seat
"""

from __future__ import annotations

import numpy as np
import polars as pl

from sim.schema import DECADE_COLUMNS
from sim.state import VS_NAMES

MANIFEST = "manifest.json"
_INT8 = {"decade", "era", "seat", "turn_pos", "nat_pos", "nat_double", "pir_pos", "pir_double", "war_faction",
         "winner", "tie", "rank", "scoring", "probe_decade"} | {c for c in DECADE_COLUMNS if c.startswith("banner_")}
_INT32 = {"vp", "decisions"} | {f"vp_{s}" for s in VS_NAMES}

NUMPY_TYPE = {pl.Int8: np.int8, pl.Int16: np.int16, pl.Int32: np.int32}


def column_type(col: str) -> pl.DataType:
    """The Parquet integer type of a record column (the narrowest that holds its values)."""
    if col in _INT8:
        return pl.Int8
    if col in _INT32:
        return pl.Int32
    return pl.Int16


def shard_name(vi: int, n: int, k: int) -> str:
    """File name of shard ``k`` of variant ``vi`` at ``n`` players (in ``decades/`` and ``games/``)."""
    return f"part-v{vi:02d}-p{n}-{k:05d}.parquet"
