"""The optimisation settings a process reads from its environment, apart from the cache folder
(:mod:`gamekit.numba_cache`) and the compile hooks (:mod:`gamekit.deferred`), which both read them and
one of which imports the other. Loads no compiler."""

from __future__ import annotations


def entry_passes(spec: str) -> dict[str, int]:
    """``TRINIDAD_OPT_ENTRY_PASSES``: passes for named entry points, overriding ``TRINIDAD_OPT_PASSES``
    (``"play_games=1"``; comma-separated). The test suite gives every kernel a test calls from Python
    no pass of its own and the batch kernel that plays its games one (tests/conftest.py)."""
    out = {}
    for item in filter(None, (x.strip() for x in spec.split(","))):
        name, _, n = item.partition("=")
        if not name.strip() or not n.strip().isdigit():
            raise ValueError(f"TRINIDAD_OPT_ENTRY_PASSES: {item!r} is not NAME=PASSES")
        out[name.strip()] = int(n)
    return out
