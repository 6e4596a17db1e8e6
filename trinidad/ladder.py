"""The skill ladder, measured and written by a command: ``python -m trinidad.ladder --write
docs/ladder.md`` plays each rung against the next one up (seats rotated on common seeds, as
``trinidad tournament``) and the top rung against three random players, and writes the table with
the commit, the machine and the command that produced it. The file is never typed by hand.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from trinidad.runner import cpu_model, git_commit
from trinidad.tournament import TournamentResult, run_tournament

RUNGS = ["random", "greedy", "heuristic", "rollout"]


def matches(rungs: list[str]) -> list[tuple[list[str], int]]:
    """(lineup, seed) of each tournament: each rung against the next, then the top rung alone against
    three random players (the seeds are the ones the table has always been measured on)."""
    pairs = [([a, b], 3) for a, b in zip(rungs, rungs[1:])]
    return pairs + [([rungs[-2], "random", "random", "random"], 5)]


def _cell(res: TournamentResult, name: str) -> str:
    s = res.stats(name)
    return f"{name} {s.win_rate:.1%} [{s.ci_low:.1%}, {s.ci_high:.1%}]"


def _dirty() -> bool:
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=Path(__file__).parent,
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(out.stdout.strip())


def measure(rungs: list[str], games: int, players: int = 4, threads: int | None = None) -> str:
    """Play the ladder and return it as a markdown page."""
    commit = git_commit() or "unknown"
    rows = []
    t_all = time.perf_counter()
    for lineup, seed in matches(rungs):
        t0 = time.perf_counter()
        res = run_tournament(lineup, players=players, games=games, seed=seed, threads=threads)
        dt = time.perf_counter() - t0
        names = list(dict.fromkeys(lineup))
        cmd = f"trinidad tournament --strategies {','.join(lineup)} --players {players} --games {games} --seed {seed} --json"
        rows.append(f"| `{cmd}` | {' | '.join(_cell(res, n) for n in names)} | {res.tie_games} | {dt:.1f} s |")
        print(rows[-1], flush=True)
    return "\n".join([
        "# The skill ladder",
        "",
        "Written by `python -m trinidad.ladder --write docs/ladder.md` (trinidad/ladder.py); not typed by hand.",
        "",
        f"Measured at commit `{commit[:12]}`{' (with uncommitted changes)' if _dirty() else ''}, on `{cpu_model()}`, "
        f"in {time.perf_counter() - t_all:.0f} s. {players} players, seats rotated on common seeds; each cell is a "
        "strategy's win rate per seat-game with its Wilson 95% CI (a tie for first among k seats gives each 1/k of "
        "a win). With two strategies at 4 players each holds two seats: the fair share is 25% a seat, a clean "
        "sweep 50%. The last row is the top rung but one alone against three random players.",
        "",
        "| tournament | A | B | games with a tie | time |",
        "|---|---|---|---|---|",
        *rows,
        "",
    ])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trinidad.ladder", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4000, help="games per tournament (default 4000)")
    ap.add_argument("--rungs", default=",".join(RUNGS), help="strategies from weakest to strongest")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--write", type=Path, help="write the page here (e.g. docs/ladder.md)")
    a = ap.parse_args(argv)
    page = measure([s.strip() for s in a.rungs.split(",") if s.strip()], a.games, threads=a.threads)
    if a.write:
        a.write.write_text(page)
        print(f"wrote {a.write}")
    else:
        print(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
