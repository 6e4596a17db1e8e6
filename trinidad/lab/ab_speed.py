"""Trinidad's engine speed against another commit, in alternating runs on this machine:
``python -m trinidad.lab.ab_speed 80bf724`` checks the commit out in a temporary git worktree, plays
the same 4-player heuristic games (``trinidad bench``'s seeds) with each build in fresh processes,
the order alternating pair by pair (base, this tree; this tree, base; ...), and prints each build's
median games per CPU-second, the median of the pairs' ratios with its bootstrap 95% interval, how many
pairs the tree lost and the Wilcoxon signed-rank test. The developers' guide asks for exactly this
(compare builds in alternating runs on one machine, quote medians and ratios): a machine that
drifts by 3x in a session moves both builds of a pair alike.

``--instructions`` adds what the machine's noise cannot touch: each build's instructions per game,
counted by valgrind's callgrind between two client requests around the counted games (a small C
library, :data:`MARKS`, built with the system's C compiler; natively its calls do nothing), so the
interpreter's start and the engine's loading stay out of the count. Both builds are compiled for one
fixed CPU (:data:`FIXED_CPU`) in Numba caches of their own, because valgrind's virtual CPU lacks this
machine's AVX-512 and a native cache would be recompiled under valgrind at fifty times the cost; the
count is of that code, not of the native one. Repeated runs of one build differ by about 0.1% (the
thread pool's waits are counted too), so each build is counted ``--instruction-runs`` times.

Stop other work on the machine while it runs (the balance study: ``kill -STOP``); the first run of
each build compiles its engine (minutes) and is not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from scipy import stats

ROOT = Path(__file__).resolve().parents[2]

# What each build runs, in its own process with PYTHONPATH and the working folder at its tree. It
# works for the commits before Río de la Plata too (game_seeds moved from sim.rng to gamekit.rng with
# it), and it asserts that every package of the project came from the tree: an editable install of
# this tree would otherwise lend an older tree the packages it lacks (gamekit, which patches Numba).
# Prints the games, the wall seconds and the CPU seconds of the counted games (after 8 warm-up games).
CHILD = r"""
import os, sys, time
import numba
import numpy as np
from sim.rules import load_rules
from strategies.registry import load_strategies
from trinidad.batch import play_batch
if os.path.isdir("gamekit"):
    from gamekit.rng import game_seeds
else:
    from sim.rng import game_seeds
here = os.path.realpath(os.getcwd())
for name, mod in list(sys.modules.items()):
    if name.split(".")[0] in ("gamekit", "sim", "strategies", "trinidad", "analysis"):
        f = os.path.realpath(getattr(mod, "__file__", None) or here)
        assert f.startswith(here + os.sep) or f == here, f"{name} was imported from {f}, outside {here}"
n, threads, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
numba.set_num_threads(threads)
rules = load_rules()
W, _ = load_strategies(["heuristic"])
def play(start, count):
    with np.errstate(over="ignore"):
        seeds = game_seeds(seed, start, count)
    play_batch(rules, W, 4, seeds, np.zeros((count, 4), np.int32), threads=threads)
play(0, 8)
marks = None
if os.environ.get("AB_SPEED_MARKS"):  # callgrind counts only between these two calls
    import ctypes
    marks = ctypes.CDLL(os.environ["AB_SPEED_MARKS"])
    marks.ab_start()
t0, c0 = time.perf_counter(), time.process_time()
if n:
    play(8, n)
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
if marks is not None:
    marks.ab_stop()
print("AB", n, wall, cpu)
"""

# A CPU valgrind emulates (x86-64 with AVX2, no AVX-512): both builds are compiled for it when
# instructions are counted, so that the cached code loads under valgrind (Numba keys its cache by
# the CPU name and features) and the two builds' code is for the same target.
FIXED_CPU = {"NUMBA_CPU_NAME": "haswell",
             "NUMBA_CPU_FEATURES": "+64bit,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+f16c,+fma,+fxsr,+lzcnt,+mmx,+movbe,"
                                   "+popcnt,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave"}


# The client requests around the counted games (valgrind/callgrind.h); outside valgrind they do nothing.
MARKS = r"""
#include <valgrind/callgrind.h>
void ab_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void ab_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
"""


def paired_summary(base: Sequence[float], tree: Sequence[float], seed: int = 1) -> dict:
    """Alternating pairs' rates (higher is faster): each build's median, the median of the ratios
    tree / base with scipy's bootstrap 95% interval (BCa), the pairs in which the tree was slower and
    the two-sided Wilcoxon signed-rank p-value."""
    b, t = np.asarray(base, float), np.asarray(tree, float)
    if b.shape != t.shape or b.size < 2:
        raise ValueError(f"need two equal lists of at least 2 pairs, got {b.size} and {t.size}")
    r = t / b
    ci = stats.bootstrap((r,), np.median, confidence_level=0.95, random_state=seed).confidence_interval
    return {"pairs": int(r.size), "base_median": float(np.median(b)), "tree_median": float(np.median(t)),
            "ratio_median": float(np.median(r)), "ratio_ci": (float(ci.low), float(ci.high)),
            "tree_slower": int((r < 1).sum()), "wilcoxon_p": float(stats.wilcoxon(t, b).pvalue)}


def callgrind_total(text: str) -> int:
    """The instructions a callgrind run collected, from its closing line (``==pid== Collected : 1234``)."""
    m = re.search(r"Collected\s*:\s*(\d+)", text)
    if m is None:
        raise ValueError("no 'Collected' line in valgrind's output")
    return int(m.group(1))


def _env(tree: Path, extra: dict | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CPU")}
    env["PYTHONPATH"] = str(tree)
    env.update(extra or {})
    return env


def play(tree: Path, games: int, threads: int = 1, env: dict | None = None, wrap: Sequence[str] = ()) -> tuple[dict, str]:
    """One fresh process of ``tree``'s engine: ``games`` counted games after 8 warm-up ones. Returns
    {games, wall_s, cpu_s} and the process's stderr (valgrind writes its count there). The seed is
    ``trinidad bench``'s, read here in this tree and passed to the child (the base may predate the name)."""
    from trinidad.games.trinidad import BENCH_SEED

    p = subprocess.run([*wrap, sys.executable, "-c", CHILD, str(games), str(threads), str(BENCH_SEED)], cwd=tree,
                       env=_env(tree, env), capture_output=True, text=True)
    line = next((x for x in p.stdout.splitlines() if x.startswith("AB ")), None)
    if p.returncode or line is None:
        raise RuntimeError(f"{tree}: the engine's run failed ({p.returncode}):\n{p.stderr[-2000:]}")
    _, n, wall, cpu = line.split()
    return {"games": int(n), "wall_s": float(wall), "cpu_s": float(cpu)}, p.stderr


@contextmanager
def checkout(rev: str):
    """A temporary git worktree of ``rev`` (a directory given instead is used as it is)."""
    if Path(rev).is_dir():
        yield Path(rev).resolve()
        return
    with tempfile.TemporaryDirectory(prefix="ab-speed-") as d:
        wt = Path(d) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(wt), rev], cwd=ROOT, check=True)
        try:
            yield wt
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(wt)], cwd=ROOT, check=False)


def alternate(base: Path, tree: Path, pairs: int, games: int, threads: int, say=print) -> dict:
    """``pairs`` alternating pairs after one uncounted run of each build (it compiles or loads the
    engine): games per CPU-second (per core) of each, summarised by :func:`paired_summary`."""
    for t in (base, tree):
        play(t, 8, threads)
    rates: dict[str, list[float]] = {"base": [], "tree": []}
    for i in range(pairs):
        order = ("base", "tree") if i % 2 == 0 else ("tree", "base")
        for who in order:
            r, _ = play(base if who == "base" else tree, games, threads)
            rates[who].append(r["games"] / r["cpu_s"])
        say(f"pair {i + 1}/{pairs}: base {rates['base'][-1]:,.0f}, tree {rates['tree'][-1]:,.0f} games per CPU-second")
    return {**paired_summary(rates["base"], rates["tree"]), "rates": rates}


def build_marks(folder: Path) -> Path:
    """:data:`MARKS` compiled into a shared library in ``folder`` (needs a C compiler and valgrind's headers)."""
    src, lib = folder / "ab_marks.c", folder / "ab_marks.so"
    src.write_text(MARKS)
    p = subprocess.run([os.environ.get("CC", "cc"), "-O1", "-shared", "-fPIC", "-o", str(lib), str(src)], capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"could not build the callgrind marks (a C compiler and valgrind/callgrind.h are needed): {p.stderr.strip()}")
    return lib


def instructions(base: Path, tree: Path, games: int, runs: int = 2, say=print) -> dict:
    """Each build's instructions per game under callgrind, counted around ``games`` games only, ``runs``
    times, compiled for :data:`FIXED_CPU` in a fresh cache of its own: {who: [per game, ...]} and the ratio
    of the means tree / base."""
    out: dict = {}
    with tempfile.TemporaryDirectory(prefix="ab-speed-") as d:
        lib = build_marks(Path(d))
        for who, t in (("base", base), ("tree", tree)):
            cache = Path(d) / f"cache-{who}"
            env = {**FIXED_CPU, "NUMBA_CACHE_DIR": str(cache), "AB_SPEED_MARKS": str(lib)}
            say(f"{who}: compiling for {FIXED_CPU['NUMBA_CPU_NAME']} (minutes)...")
            play(t, 0, 1, env)
            out[who] = []
            for _ in range(runs):
                _, err = play(t, games, 1, env, wrap=("valgrind", "--tool=callgrind", "--instr-atstart=no",
                                                      "--callgrind-out-file=/dev/null"))
                out[who].append(callgrind_total(err) / games)
            say(f"{who}: {', '.join(f'{x:,.0f}' for x in out[who])} instructions a game")
    out["ratio"] = float(np.mean(out["tree"]) / np.mean(out["base"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trinidad.lab.ab_speed", description=__doc__.split("\n\n")[0])
    ap.add_argument("base", help="the commit to compare with (or a directory holding a checkout)")
    ap.add_argument("--pairs", type=int, default=20, help="alternating pairs (default 20)")
    ap.add_argument("--games", type=int, default=4000, help="counted games a run (default 4000)")
    ap.add_argument("--threads", type=int, default=1, help="Numba threads a run (default 1)")
    ap.add_argument("--instructions", action="store_true", help="also count instructions a game with valgrind")
    ap.add_argument("--instruction-games", type=int, default=1000, help="games a counted valgrind run (default 1000)")
    ap.add_argument("--instruction-runs", type=int, default=2, help="valgrind runs of each build (default 2)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args(argv)
    if a.pairs < 2 or a.games < 1 or a.threads < 1:
        ap.error("--pairs must be >= 2, --games and --threads >= 1")

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    with checkout(a.base) as base:
        res = {"base": a.base, "games": a.games, "threads": a.threads, **alternate(base, ROOT, a.pairs, a.games, a.threads, say)}
        if a.instructions:
            res["instructions"] = instructions(base, ROOT, a.instruction_games, a.instruction_runs, say)
    if a.json:
        print(json.dumps(res))
        return 0
    lo, hi = res["ratio_ci"]
    print(f"{res['pairs']} alternating pairs, {a.games:,} games a run, {a.threads} thread(s), games per CPU-second: "
          f"{a.base} {res['base_median']:,.0f}, this tree {res['tree_median']:,.0f} (medians); ratio tree/base "
          f"{res['ratio_median']:.3f} [{lo:.3f}, {hi:.3f}]; tree slower in {res['tree_slower']} of {res['pairs']}; "
          f"Wilcoxon p = {res['wilcoxon_p']:.2f}")
    if "instructions" in res:
        ins = res["instructions"]
        each = {k: ", ".join(f"{x:,.0f}" for x in ins[k]) for k in ("base", "tree")}
        print(f"instructions a game ({FIXED_CPU['NUMBA_CPU_NAME']} code, callgrind, {a.instruction_games:,} games a run): "
              f"{a.base} {each['base']}, this tree {each['tree']} (ratio of the means {ins['ratio']:.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
