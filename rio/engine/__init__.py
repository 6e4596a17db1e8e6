"""Río de la Plata's engine (Numba): the game state (:mod:`rio.engine.state`), the city map's geometry
(:mod:`rio.engine.geometry`) and the kernels that play the rulebook's phases. The rules are arguments
(:class:`rio.packing.Rules`, :class:`rio.engine.geometry.Geo`), never module globals, so that a rules
sweep does not recompile.

Two rules keep a game fast (docs/notebook/rio.md, "Speed"):

- Nothing is allocated while a game plays: the working arrays are the table's
  (:class:`rio.engine.scratch.Scratch`, the wars' part included), and the game loop
  (rio.players.search.play_games_search) is compiled without Numba's runtime (``_nrt=False``), which its
  callees inherit. Numba otherwise counts references on every array of the state, rules and scratch
  tuples at every call, atomically: that was most of a game's time.
- Numba passes a tuple of arrays as each array's fields, one argument a word: a call with the rules,
  the map, the state and the scratch pushes several hundred words. The small functions called once per
  option, space or building are compiled ``forceinline=True`` (LLVM's alwaysinline), so the loops that
  call them pay nothing for the call."""

from gamekit import numba_cache

# The cache folder both engines share (gamekit.numba_cache), chosen right after Numba's first import,
# before any kernel here is decorated (or at once when Numba is imported already). No import of sim:
# a process that plays only Río de la Plata never loads Trinidad's engine.
numba_cache.install()
