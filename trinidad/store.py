"""The games ``trinidad ladder --store`` keeps: one function, in a module of its own that is not meant to change.

joblib.Memory keys a function's results by its arguments and clears *all* of them when it sees the function's
source change. It reads that source from the file on disk: a ladder that runs for an hour while the module
holding the function is edited (its lines shifted) reads another block at the old line, takes it for new code and
empties the store. Here nothing else lives beside the function, so editing the ladder cannot do that; what the
games depend on is in the key itself (``engine``: sim.engine_hash, and every input of the games).
"""

from __future__ import annotations

import numpy as np


def stored_games(engine: str, threads: int | None, **args) -> np.ndarray:
    """:func:`trinidad.batch.play_batch`'s game records for ``args``: a pure function of them and of the engine's
    code (``engine``: :func:`sim.engine_hash`), so a store (joblib.Memory, keyed by every argument but
    ``threads``, on which the games do not depend) may keep them and give them back."""
    from trinidad.batch import play_batch

    return play_batch(threads=threads, **args)[1]
