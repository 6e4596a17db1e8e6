"""``trinidad bench``: speed and memory of the engine, measured (never asserted in tests).

Each measurement that needs a clean process (no JIT, a cold compile, a cached start) runs in a
subprocess; rates are medians over repeated chunks because the machines are shared and noisy.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent

# A subprocess that plays `games` games with one thread and prints its timings as JSON.
_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from trinidad.batch import play_batch
from sim.rng import game_seeds
from sim.rules import load_rules
from strategies.registry import load_strategies
players, games, strategy = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
r = load_rules(); W, _ = load_strategies([strategy])
with np.errstate(over="ignore"):
    seeds = game_seeds(99, 0, games + 1)
play_batch(r, W, players, seeds[:1], np.zeros((1, players), np.int32), threads=1)
t1 = time.perf_counter()
play_batch(r, W, players, seeds[1:], np.zeros((games, players), np.int32), threads=1)
t2 = time.perf_counter()
print(json.dumps({"first_game_s": t1 - t0, "games_s": t2 - t1}))
"""


def _child(players: int, games: int, strategy: str, env: dict) -> dict:
    e = dict(os.environ)
    e.update(env)
    e["PYTHONPATH"] = str(ROOT) + os.pathsep + e.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-c", _CHILD, str(players), str(games), strategy], env=e, capture_output=True,
                       text=True, cwd=str(ROOT))
    if p.returncode != 0:
        raise RuntimeError(f"bench subprocess failed: {p.stderr.strip().splitlines()[-1] if p.stderr.strip() else p.returncode}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def _rate(rules, W, players: int, games: int, threads: int, reps: int = 3) -> float:
    """Median games/s over ``reps`` chunks of ``games // reps`` games (outputs discarded: memory stays flat)."""
    from sim.rng import game_seeds
    from trinidad.batch import play_batch

    chunk = max(1, games // reps)
    rates = []
    for k in range(reps):
        with np.errstate(over="ignore"):
            seeds = game_seeds(7, k * chunk, chunk)
        t0 = time.perf_counter()
        play_batch(rules, W, players, seeds, np.zeros((chunk, players), np.int32), threads=threads)
        rates.append(chunk / (time.perf_counter() - t0))
    return statistics.median(rates)


def run_bench(players: int = 4, games: int = 20000, nojit_games: int = 6, strategy: str = "heuristic", cold: bool = True,
              progress: bool = True) -> dict:
    import numba

    from sim.rules import load_rules
    from strategies.registry import load_strategies

    def say(msg: str) -> None:
        if progress:
            print(f"bench: {msg}", file=sys.stderr, flush=True)

    from trinidad.runner import cpu_model

    res: dict = {"players": players, "strategy": strategy, "cores": os.cpu_count(), "threads": numba.get_num_threads(),
                 "cpu": cpu_model()}
    if cold:
        say("cold compile in a fresh Numba cache (minutes)...")
        with tempfile.TemporaryDirectory() as d:
            c = _child(players, 1, strategy, {"NUMBA_CACHE_DIR": d})
        res["compile_s_cold"] = round(c["first_game_s"], 1)
    say("cached start...")
    _child(players, 1, strategy, {})  # make sure the normal cache is warm
    starts = [_child(players, 1, strategy, {})["first_game_s"] for _ in range(3)]
    res["start_s_cached"] = round(statistics.median(starts), 2)
    say(f"no-JIT engine, {nojit_games} games...")
    nj = _child(players, nojit_games, strategy, {"NUMBA_DISABLE_JIT": "1"})
    nojit_rate = nojit_games / nj["games_s"]
    r = load_rules()
    W, _ = load_strategies([strategy])
    _rate(r, W, players, 8, 1, reps=1)  # load the kernels
    say(f"jitted engine, 1 thread, {games // 4} games...")
    one = _rate(r, W, players, max(3, games // 4), 1)
    nt = numba.get_num_threads()
    say(f"jitted engine, {nt} threads, {games} games...")
    allr = _rate(r, W, players, games, nt)
    res.update({
        "games_per_s": round(allr, 1),
        "games_per_s_per_core": round(allr / nt, 1),
        "games_per_s_1_thread": round(one, 1),
        "games_per_s_nojit": round(nojit_rate, 2),
        "speedup_vs_nojit": round(one / nojit_rate, 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "games": games,
    })
    return res
