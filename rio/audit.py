"""The game's invariants over many games (rio.engine.audit): ``python -m rio.audit --games 100000`` plays
the games spread over 2-5 players, every experience level, the normal and the Short game, with random
players and with the heuristic family, checking every invariant after each seat's placements and each
turn, and says how many games broke which invariant (exit status 1 if any did).

The games are common seeds (gamekit.rng.player_seeds) of master seed ``--seed``, so a failure replays."""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter

import numpy as np

from gamekit.rng import player_seeds
from rio.engine.audit import Broken
from rio.keys import PLAYER_COUNTS, Level
from rio.play import play
from rio.rules import load_rules

TABLES = {"random": ["random"] * 5, "heuristic": ["heuristic", "builder", "officer", "contractor", "merchant"],
          "archetypes": ["defender", "merchant", "builder", "officer", "contractor"]}


def run(games: int, seed: int, tables: list[str], chunk: int = 500, out=sys.stdout) -> Counter:
    """Play ``games`` audited games spread over every (table, players, level, short) cell; the broken
    invariants counted by name (an empty Counter when every game kept them all)."""
    r = load_rules()
    cells = list(itertools.product(tables, PLAYER_COUNTS, list(Level), (0, 1)))
    per = max(1, games // len(cells))
    broken: Counter = Counter()
    played = 0
    t0 = time.time()
    for table, players, level, short in cells:
        cell_seed = seed * 1000 + int(level) * 10 + short
        for start in range(0, per, chunk):
            n = min(chunk, per - start)
            res = np.zeros(n, np.int64)
            play(r, players, int(level), bool(short), player_seeds(cell_seed, players, start, n), TABLES[table][:players], audit=res)
            for code in res[res != 0]:
                what = Broken(int(code) // 1000).name if code >= 1000 else "DID_NOT_END"
                broken[what] += 1
            played += n
        print(f"{table:10s} {players}p {Level(level).name.lower():12s} {'short' if short else 'normal':6s} "
              f"{per} games, broken so far: {sum(broken.values())}", file=out)
    print(f"{played} games in {time.time() - t0:.0f} s; broken: {dict(broken) or 'none'}", file=out)
    return broken


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rio.audit", description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000, help="games in all (spread over the cells)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tables", default="random,heuristic,archetypes", help=f"comma-separated: {', '.join(TABLES)}")
    a = ap.parse_args(argv)
    tables = [t for t in a.tables.split(",") if t]
    bad = [t for t in tables if t not in TABLES]
    if bad:
        ap.error(f"unknown table {bad[0]!r}; allowed: {', '.join(TABLES)}")
    return 1 if run(a.games, a.seed, tables) else 0


if __name__ == "__main__":
    sys.exit(main())
