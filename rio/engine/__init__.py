"""Río de la Plata's engine (Numba): the game state (:mod:`rio.engine.state`), the city map's geometry
(:mod:`rio.engine.geometry`) and the kernels that play the rulebook's phases. The rules are arguments
(:class:`rio.packing.Rules`, :class:`rio.engine.geometry.Geo`), never module globals, so that a rules
sweep does not recompile."""

from gamekit import numba_cache

# The cache folder both engines share (gamekit.numba_cache), chosen right after Numba's first import,
# before any kernel here is decorated (or at once when Numba is imported already). No import of sim:
# a process that plays only Río de la Plata never loads Trinidad's engine.
numba_cache.install()
