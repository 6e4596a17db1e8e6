"""The tuned heuristic against the untuned one, measured and written by a command:
``python -m trinidad.lab.tuning --write docs/notebook/tuning.md`` plays, for each Character, the seat holding
it with the untuned weights (strategies/untuned/heuristic.toml) and with the tuned ones
(strategies/heuristic.toml) on the same fresh 4-player games, opponents drawn from the tuned
heuristic and greedy (trinidad.train.heuristic.play_candidates: common seeds, seats and opponents), and
writes the table between the markers of the page, with the commit and the machine.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from strategies.registry import CHARACTER_KEYS, STRATEGY_DIR, load_strategies
from trinidad.pages import PageError, markers, write_blocks
from trinidad.runner.manifest import cpu_model, git_commit, git_dirty
from trinidad.tournament import wilson
from trinidad.train.heuristic import block_slice, play_candidates

UNTUNED = STRATEGY_DIR / "untuned" / "heuristic.toml"
BEGIN, END = markers("tuning-table")


def measure(games: int = 1600, seed: int = 7, start: int = 1_000_000, players: int = 4, threads: int | None = None) -> list[dict]:
    """Per Character: the untuned and the tuned seat's fractional win rate and Wilson 95% CI."""
    from sim.rules import load_rules

    rules = load_rules()
    W, _ = load_strategies(["heuristic", "greedy"])  # the tuned heuristic and greedy: the opponents' pool
    U, _ = load_strategies([str(UNTUNED)])
    out = []
    for c, name in enumerate(CHARACTER_KEYS):
        X = np.vstack([U[0, block_slice(c)], W[0, block_slice(c)]])  # row 0 untuned, row 1 tuned
        rates = play_candidates(rules, W[0], W, c, X, seed=seed, players=players, start=start, count=games, threads=threads)
        row = {"character": name}
        for label, wr in zip(("untuned", "tuned"), rates):
            lo, hi = wilson(float(wr) * games, games)
            row[label] = (float(wr), lo, hi)
        out.append(row)
    return out


def table(rows: list[dict], games: int, seed: int, start: int, seconds: float) -> str:
    commit = git_commit() or "unknown"
    lines = [BEGIN,
             f"Measured at commit `{commit[:12]}`{' (with uncommitted changes)' if git_dirty() else ''} on `{cpu_model()}` in "
             f"{seconds:.0f} s by `python -m trinidad.lab.tuning --write docs/notebook/tuning.md` ({games:,} games per Character and "
             f"weight set, game indices from {start:,}, seed {seed}; win rate with its Wilson 95% CI):",
             "", "| Character | untuned | tuned |", "|---|---|---|"]
    for r in rows:
        cells = [f"{r[k][0]:.1%} [{r[k][1]:.1%}, {r[k][2]:.1%}]" for k in ("untuned", "tuned")]
        lines.append(f"| {r['character']} | {cells[0]} | {cells[1]} |")
    lines.append(END)
    return "\n".join(lines)


def write(page: Path, block: str) -> None:
    """Replace the block between the markers of ``page`` (the prose around it is kept)."""
    try:
        write_blocks(page, {"tuning-table": block.removeprefix(BEGIN).removesuffix(END)})
    except PageError as e:
        raise SystemExit(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trinidad.lab.tuning", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1600)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--write", type=Path, help="the page whose table block to replace (docs/notebook/tuning.md)")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    rows = measure(a.games, a.seed, threads=a.threads)
    block = table(rows, a.games, a.seed, 1_000_000, time.perf_counter() - t0)
    if a.write:
        write(a.write, block)
        print(f"wrote {a.write}")
    else:
        print(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
