"""The engine's random numbers: a SplitMix64 generator whose 64-bit state lives in the game
state (``State.rng``), so every game owns its stream.

Why not ``np.random`` inside Numba: its generator is one per thread and ``np.random.seed`` takes
only 32 bits, so a run of millions of games would repeat seeds (about 116 colliding pairs per
million games) and a game's stream would depend on which thread played it. Here a game's whole
course is a pure function of its 64-bit seed, whatever the threads, processes or machines.
SplitMix64 (Steele, Lea & Flood 2014; the seeding generator of Java's SplittableRandom and of
xoshiro) passes BigCrush; the engine draws a few thousand numbers per game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(cache=True)
def mix64(z):
    """The SplitMix64 output function (a bijection on 64-bit words)."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def next_u64(st):
    z = st.rng[0] + _GOLDEN
    st.rng[0] = z
    return mix64(z)


@njit(cache=True)
def rand_below(st, n):
    """Uniform integer in 0..n-1 (n >= 1), without modulo bias."""
    un = np.uint64(n)
    lim = _ALL - (_ALL % un)
    x = next_u64(st)
    while x >= lim:
        x = next_u64(st)
    return np.int64(x % un)


@njit(cache=True)
def permutation(st, n):
    """A uniformly random permutation of 0..n-1 (Fisher-Yates)."""
    p = np.arange(n)
    permute_into(st, p, n)
    return p


@njit(cache=True)
def permute_into(st, p, n):
    """``p[:n]``: a uniformly random permutation of 0..n-1 (Fisher-Yates), the same draws as
    :func:`permutation`, into an array the caller holds (an engine that allocates nothing in play)."""
    for i in range(n):
        p[i] = i
    for i in range(n - 1, 0, -1):
        j = rand_below(st, i + 1)
        t = p[i]
        p[i] = p[j]
        p[j] = t


@njit(cache=True)
def game_seed(master, index):
    """Seed of game ``index`` of a run with master seed ``master``: a pure function of the two,
    so a run splits and resumes anywhere and gives the same games on any number of workers.
    Distinct indices give distinct seeds (``mix64`` is a bijection). Seeds are unsigned 64-bit."""
    return mix64(mix64(np.uint64(master)) + np.uint64(index))


@njit(cache=True)
def game_seeds(master, start, count):
    out = np.empty(count, np.uint64)
    for i in range(count):
        out[i] = game_seed(master, start + i)
    return out


def player_seeds(master: int, n: int, start: int, count: int) -> np.ndarray:
    """Seeds of games ``start .. start + count - 1`` of an ``n``-player run with master seed
    ``master``: ``game_seed(game_seed(master, n), i)``, the same in every variant and tool (runs,
    tournaments, tuning), so results are compared on common seeds."""
    with np.errstate(over="ignore"):
        # np.uint64: a jitted game_seed returns a Python int, which Numba would otherwise type as int64
        return game_seeds(np.uint64(game_seed(np.uint64(master), n)), start, count)
