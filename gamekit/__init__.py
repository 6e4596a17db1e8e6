"""What both games' engines share beneath them (Trinidad's :mod:`sim` and Río de la Plata's :mod:`rio.engine`):
the random numbers (:mod:`gamekit.rng`) and the Numba cache folder they compile into
(:mod:`gamekit.numba_cache`). Imports nothing of the project.

Importing the package installs the cache folder's set-up (:func:`gamekit.numba_cache.install`: a hook
on Numba's first import, no compiler loaded now), so that its own kernels, whoever imports them
first, compile into that folder too."""

from gamekit import numba_cache

numba_cache.install()
