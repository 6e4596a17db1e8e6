"""Runs that stop when the answer is precise enough (``trinidad run --precision``, the experiment's
``precision``; issue 96): which blocks of a run to play next, read from the blocks already written.

A run with ``precision`` plays each variant and player count (a *stream*) in blocks, a block being
one shard (``shard_games`` games, the shard ``k`` of the stream); ``games`` is the cap. After each
block the stream's rates of interest (the game's :attr:`~trinidad.games.spec.Game.rates`: Trinidad's
Characters' win rates, Río de la Plata's strategies' and start positions') are read with the
anytime-valid intervals of :mod:`analysis.sequential`, and the stream stops at the first block
boundary where

- every rate's interval is within +-precision (``precise``), or
- it is a variant other than the base (the first) and the paired difference (common seeds) of some
  rate against the base excludes 0 (``decided against base``), or
- it has played the cap (``cap reached``).

The base goes on while any other variant of its player count plays (the variants' differences are
paired with its games of the same indices), and stops at the first boundary where it is precise and
every other variant has stopped (or at the cap).

Determinism (resume, any number of workers, either backend): the rule reads a stream at boundary b
from its blocks 0..b-1 alone (and the base's 0..b-1), never from a block beyond, and a block is
played only when the rule at the boundary before it says "go on". Which blocks a run plays is then a
pure function of the blocks it has written, decided over complete blocks in block order: a resumed
run (or one on more workers, where the blocks of one round finish in any order) plays exactly the
blocks the uninterrupted run plays. A stream whose next reading needs a base block not yet written
(after an interruption) waits for it; so does a base that needs another variant's reading.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis import sequential as sq
from sim.dataset import shard_name
from trinidad.experiment import ExperimentError
from trinidad.games import game_of


@dataclass
class Stop:
    """Where a stream stopped: after ``blocks`` blocks, why, and the reading that stopped it."""

    blocks: int
    reason: str
    check: sq.Check


class Schedule:
    """A run's streams and the stopping rule over the blocks written in ``out``. Readings are kept
    (a block's rates are read once; a reading at a boundary is a function of the blocks before it),
    so each round reads only the new blocks."""

    def __init__(self, exp, out: Path):
        game = game_of(exp)
        self.exp, self.out, self.precision = exp, Path(out), float(exp.precision)
        self.cap = math.ceil(exp.games / exp.shard_games)  # blocks
        self.rates = {n: game.rates(exp, n) for n in exp.players}
        for n, r in self.rates.items():
            if not r:
                raise ExperimentError(f"experiment: precision: {game.title} has no rates of interest at {n} players to stop on")
        self._blocks: dict[tuple[int, int, int], np.ndarray] = {}
        self._checks: dict[tuple[int, int, int], sq.Check] = {}

    # ---------------------------------------------------------------- the data, block by block

    def shard(self, vi: int, n: int, k: int) -> tuple[int, int, int, int, int]:
        """Block ``k`` of a stream as a shard: (variant, players, shard index, first game, games)."""
        a = k * self.exp.shard_games
        return vi, n, k, a, min(self.exp.games, a + self.exp.shard_games) - a

    def written(self, vi: int, n: int) -> int:
        """How many blocks of the stream are complete, counted from block 0 (a block after a gap
        counts once the gap is played again)."""
        b = 0
        while b < self.cap and (self.out / "games" / shard_name(vi, n, b)).exists():
            b += 1
        return b

    def games(self, vi: int, n: int, b: int) -> int:
        """The games of a stream's blocks 0..b-1."""
        return sum(self.shard(vi, n, k)[4] for k in range(b))

    def _block(self, vi: int, n: int, k: int) -> np.ndarray:
        key = (vi, n, k)
        if key not in self._blocks:
            games = pl.scan_parquet(self.out / "games" / shard_name(vi, n, k))
            idx, m = sq.game_rates(games, self.rates[n])
            _, _, _, a, c = self.shard(vi, n, k)
            if not np.array_equal(idx, np.arange(a, a + c)):
                raise ExperimentError(f"{self.out}: shard {shard_name(vi, n, k)} does not hold games {a}..{a + c - 1}; "
                                      "resume repairs it (trinidad run --resume)")
            self._blocks[key] = m
        return self._blocks[key]

    def _data(self, vi: int, n: int, b: int) -> np.ndarray:
        return np.concatenate([self._block(vi, n, k) for k in range(b)])

    def reading(self, vi: int, n: int, b: int) -> sq.Check:
        """The rule's reading of stream (vi, n) after its blocks 0..b-1 (and the base's, for a variant)."""
        key = (vi, n, b)
        if key not in self._checks:
            labels = [label for _, _, label in self.rates[n]]
            base = self._data(0, n, b) if vi else None
            self._checks[key] = sq.check(self._data(vi, n, b), labels, self.precision, base)
        return self._checks[key]

    # ---------------------------------------------------------------- the rule

    def state(self) -> tuple[list[tuple[int, int, int, int, int]], dict[tuple[int, int], Stop | None], dict[tuple[int, int], int]]:
        """(the blocks to play next, as shards; each stream's Stop or None while it plays on; each
        stream's blocks written)."""
        todo, stops, written = [], {}, {}
        nv = len(self.exp.variants)
        for n in self.exp.players:
            w = {vi: self.written(vi, n) for vi in range(nv)}
            written |= {(vi, n): w[vi] for vi in range(nv)}
            for vi in range(1, nv):
                stop, need = None, None
                for b in range(1, w[vi] + 1):
                    if b > w[0]:
                        break  # the base's block b-1 is not written yet: the reading at b waits for it
                    c = self.reading(vi, n, b)
                    if c.precise or c.decided or b == self.cap:
                        stop = Stop(b, sq.PRECISE if c.precise else sq.DECIDED if c.decided else sq.CAP, c)
                        break
                else:
                    need = w[vi]  # read at every boundary it has and still going: its next block
                stops[(vi, n)] = stop
                if stop is None and need is not None and need <= w[0]:
                    todo.append(self.shard(vi, n, need))
            stop, waiting = None, False
            for b in range(1, w[0] + 1):
                c = self.reading(0, n, b)
                if b == self.cap:
                    stop = Stop(b, sq.PRECISE if c.precise else sq.CAP, c)
                    break
                if not c.precise:
                    continue
                # precise: it stops here when every other variant has stopped by b; one whose readings
                # do not reach b yet leaves the base's reading at b undecided
                if any(stops[(vi, n)] is None and w[vi] < b for vi in range(1, nv)):
                    waiting = True
                    break
                if all(stops[(vi, n)] is not None and stops[(vi, n)].blocks <= b for vi in range(1, nv)):
                    stop = Stop(b, sq.PRECISE, c)
                    break
            stops[(0, n)] = stop
            if stop is None and not waiting:
                todo.append(self.shard(0, n, w[0]))
        return todo, stops, written

    def record(self, stops: dict, written: dict) -> dict:
        """The manifest's ``stopping`` entry: the rule, and per variant and player count its games, why
        it stopped (null while it plays), the games at which its rates were first all precise, and
        its latest reading (each rate's interval; a variant's paired differences against the base)."""
        streams = []
        for (vi, n), stop in sorted(stops.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            b = stop.blocks if stop else written[(vi, n)]
            read = b if stop or vi == 0 else min(b, written[(0, n)])  # a variant is read where the base's blocks reach
            c = self.reading(vi, n, read) if read else None
            first = next((self.games(vi, n, j) for j in range(1, read + 1) if self.reading(vi, n, j).precise), None)
            games = self.games(vi, n, b)
            rec = {"variant": self.exp.variants[vi].name, "players": n, "games": games, "blocks": b,
                   "stopped": stop.reason if stop else None, "precise_at_games": first}
            if c is not None:
                w = c.widest()
                rec["widest"] = {"rate": w["rate"], "half_width": round((w["hi"] - w["lo"]) / 2, 5)} if w else None
                rec["rates"] = [_rounded(r) for r in c.rates]
                if vi:
                    rec["diffs"] = [_rounded(d) for d in c.diffs]
                    d = c.deciding()
                    if d is not None:
                        rec["decided_by"] = _rounded(d)
            streams.append(rec)
        return {"precision": self.precision, "alpha": sq.ALPHA, "block_games": self.exp.shard_games, "cap_games": self.exp.games,
                "rule": ("PrPl-EB confidence sequences (Waudby-Smith & Ramdas 2024, Theorem 2), Bonferroni over the rates of a variant "
                         "and player count; stop when every rate is within +-precision, or a variant's paired difference against the "
                         "base excludes 0 for some rate, or at the cap; read at block boundaries"),
                "streams": streams}


def _rounded(d: dict) -> dict:
    return {k: round(v, 5) if isinstance(v, float) else v for k, v in d.items()}
