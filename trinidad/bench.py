"""``trinidad bench``: speed and memory of the engine, measured (never asserted in tests).

Each measurement that needs a clean process (no JIT, a cold compile, a cached start) runs in a
subprocess; rates are medians over repeated chunks because the machines are shared and noisy.

What is played depends only on the arguments, never on the clock: a planning player (rollout:
hundreds of partial games per decision) costs about a thousand times a one-step player's game, so
its default game count is scaled down by its budget (:func:`default_games`) and its no-JIT
measurement is skipped unless asked for. Each chunk played prints a line (stderr, no terminal
needed), so a slow strategy is seen to progress.

Both games' benches share the timing (:func:`_rate`: chunks of a game's own bench player, their median
rate and the CPU seconds per game), the progress lines and the output (:func:`summary_line`,
:func:`report_lines`, one JSON object); each game supplies what it plays. Trinidad's
(:func:`run_bench`, a strategy at every seat) plays through trinidad.games.trinidad.bench_play and adds
the cold compile, the cached start, the no-JIT engine and all threads; another game's
(:func:`measure_table`, ``trinidad bench --game rio-de-la-plata``) is the seat table its ``Game.bench``
gives (:class:`trinidad.games.spec.BenchTable`), measured on one thread after a warm-up game.
"""

from __future__ import annotations

import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
ONE_STEP_GAMES = 20000  # default --games of a player that decides without looking ahead
PLAYOUT_GAMES = 2048  # a planning player's default --games times its playouts per decision
PYTHON_GAMES = 400  # a Python strategy answers every decision through an objmode callback: ~100x a jitted game
NOJIT_GAMES = 6  # default --nojit-games of a jitted one-step player (a no-JIT game takes seconds)

# A subprocess that plays one game (loading or compiling the kernels), then `games` more, with one
# thread, and prints its timings as JSON.
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


def budget(strategy: str) -> tuple[str, dict]:
    """(family, budget) of a strategy (aliases followed): a rollout's candidates, rollouts and
    horizon as compiled (its file's values, defaults filled in); for another family with a table
    of its own name in its file (``[search]``), that table; else no budget."""
    from strategies.policy import P
    from strategies.registry import FAMILIES, HORIZONS, ROLLOUT_KEYS, load_strategies, resolve, strategy_path

    W, _ = load_strategies([strategy])
    fam = {v: k for k, v in FAMILIES.items()}.get(int(W[0, 0]), str(int(W[0, 0])))
    if fam == "rollout":
        h = int(W[0, P.HORIZON])  # strategies.rollout.rollout: 0 the Era, 1 the game, k >= 2 the Era at least k decades on
        b = {k: int(W[0, slot]) for k, (slot, _, _) in ROLLOUT_KEYS.items()}
        b |= {"horizon": "era", "min_decades": h} if h >= 2 else {"horizon": {v: k for k, v in HORIZONS.items()}[h]}
        if W[0, P.CHARACTER_AHEAD]:  # how a simulation's end is valued, not how many there are (a float: no factor of playouts())
            b["character_ahead"] = float(W[0, P.CHARACTER_AHEAD])
        if W[0, P.WIN_BONUS]:
            b["win_bonus"] = float(W[0, P.WIN_BONUS])
        return fam, b
    if fam == "search":
        from strategies.registry import SEARCH_KEYS, SEARCH_OFFSET

        return fam, {k: int(W[0, SEARCH_OFFSET + slot]) for k, (slot, _, _) in SEARCH_KEYS.items()}
    path = strategy_path(resolve(strategy))
    try:
        table = tomllib.loads(path.read_text()).get(fam) if path is not None else None  # a py: name has no file
    except (OSError, tomllib.TOMLDecodeError):
        table = None
    return fam, dict(table) if isinstance(table, dict) else {}


def playouts(b: dict) -> int:
    """Partial games a planning player plays per decision, from its budget: the product of its
    integer entries (rollout: candidates x rollouts), three times that when it plays on to the end
    of the game rather than of the Era (three Eras); a search player's ``budget`` (simulations of a
    part of a decade, plus ``horizon`` decades; at least one, as at ``budget = 0`` its 1-ply ranking still
    carries out every row on a copy of the game); 0 without a budget."""
    if "budget" in b and "width" in b:
        return max(1, int(b["budget"])) * (1 + int(b.get("horizon", 0)))
    ints = [v for k, v in b.items() if isinstance(v, int) and not isinstance(v, bool) and k != "min_decades"]
    if not ints:
        return 0
    return math.prod(ints) * (3 if b.get("horizon") == "game" else 1)


def default_games(family: str, b: dict) -> int:
    """The --games default: scaled down by the budget, so that a planning player's bench plays
    about as many partial games as a one-step player's plays games (a count, not a time limit)."""
    if family == "python":
        return PYTHON_GAMES
    n = playouts(b)
    return ONE_STEP_GAMES if n == 0 else max(8, PLAYOUT_GAMES // n)


def default_nojit_games(family: str, b: dict) -> int:
    """The --nojit-games default: 0 (skipped) for a planning player, whose one game without JIT
    would take hours."""
    return 0 if playouts(b) else NOJIT_GAMES


def format_budget(b: dict) -> str:
    """``candidates 4 x rollouts 4, horizon era``; ``-`` without a budget."""
    def product(k, v):  # the factors of playouts(); min_decades is where a simulation stops
        return isinstance(v, int) and not isinstance(v, bool) and k != "min_decades"

    ints = [f"{k} {v}" for k, v in b.items() if product(k, v)]
    rest = [f"{k} {v}" for k, v in b.items() if not product(k, v)]
    return ", ".join([" x ".join(ints)] * bool(ints) + rest) or "-"


def _rate(play: Callable[[int, int], None], games: int, reps: int = 3, say: Callable[[str], None] | None = None,
          what: str = "") -> tuple[float, float]:
    """(median games/s over ``reps`` chunks that together play ``games`` games, the process's CPU seconds per game
    over them); ``play(start, count)`` plays a chunk (a game's bench player: trinidad.games.trinidad.bench_play,
    :attr:`trinidad.games.spec.BenchTable.play`). ``say`` gets a line per chunk. CPU time counts what the games cost
    on a machine shared with other work, where the threads may get less than a core each and the wall clock
    overstates it."""
    reps = max(1, min(reps, games))
    bounds = np.linspace(0, games, reps + 1).astype(int)  # chunk sizes differ by at most one game
    rates = []
    c0 = time.process_time()
    for k in range(reps):
        chunk = int(bounds[k + 1] - bounds[k])
        t0 = time.perf_counter()
        play(int(bounds[k]), chunk)
        dt = time.perf_counter() - t0
        rates.append(chunk / dt)
        if say is not None:
            say(f"{what}: chunk {k + 1}/{reps}, {chunk:,} games in {dt:.1f} s ({chunk / dt:,.1f} games/s)")
    return statistics.median(rates), (time.process_time() - c0) / games


def _sig(x: float, digits: int = 3) -> float:
    return float(f"{x:.{digits}g}")


def _say(progress: bool) -> Callable[[str], None]:
    """The progress lines: ``bench: ...`` on stderr (no terminal needed), or nothing."""
    def say(msg: str) -> None:
        if progress:
            print(f"bench: {msg}", file=sys.stderr, flush=True)

    return say


def measure_table(game: str, table, players: int, games: int | None = None, reps: int = 3, progress: bool = True) -> dict:
    """Measure a game's seat table (:class:`trinidad.games.spec.BenchTable`, from its ``Game.bench``): one game
    played first and timed apart (``warm_up_s``: the compiled kernels loaded, or compiled), then ``games``
    (None: the table's default) on one thread in ``reps`` chunks: the median games/s (one thread: per core) and
    the CPU seconds per game, with what was played (the seats, their family and budget, the game's setup)."""
    from trinidad.runner.manifest import cpu_model

    games = table.default_games if games is None else games
    if games < 1 or reps < 1:
        raise ValueError(f"games: must be >= 1 and reps >= 1, got {games} and {reps}")
    say = _say(progress)
    res: dict = {"game": game, "players": players, "strategy": table.strategy, "seats": list(table.seats), "family": table.family,
                 "budget": table.budget, **table.setup, "cores": os.cpu_count(), "threads": 1, "cpu": cpu_model()}
    say("warm-up: one game (loads the compiled kernels, or compiles them: minutes the first time)...")
    t0 = time.perf_counter()
    table.play(0, 1)
    res["warm_up_s"] = round(time.perf_counter() - t0, 3)
    rate, cpu = _rate(table.play, games, reps, say=say, what=f"jitted engine, 1 thread, {games:,} games")
    res.update({"games_per_s_per_core": round(rate, 2), "core_s_per_game": _sig(cpu), "games": games, "reps": min(reps, games),
                "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)})
    return res


def run_bench(players: int = 4, games: int | None = None, nojit_games: int | None = None, strategy: str = "heuristic",
              cold: bool = True, progress: bool = True, reps: int = 3) -> dict:
    """Measure Trinidad's strategy (every seat): ``games`` jitted games on all threads (a quarter of them,
    at least one, on one thread), ``nojit_games`` without JIT (0: skipped); None picks the defaults
    (:func:`default_games`, :func:`default_nojit_games`); each rate the median of ``reps`` chunks."""
    import numba

    from sim.rules import load_rules
    from strategies.registry import load_strategies, resolve
    from trinidad.games.trinidad import bench_play
    from trinidad.runner.manifest import cpu_model

    say = _say(progress)

    family, b = budget(strategy)
    games = default_games(family, b) if games is None else games
    nojit_games = default_nojit_games(family, b) if nojit_games is None else nojit_games
    if games < 1 or nojit_games < 0:
        raise ValueError(f"games: must be >= 1 and nojit_games >= 0, got {games} and {nojit_games}")
    res: dict = {"players": players, "strategy": strategy, "family": family, "budget": b,
                 "cores": os.cpu_count(), "threads": numba.get_num_threads(), "cpu": cpu_model()}
    if resolve(strategy) != strategy:
        res["alias_of"] = resolve(strategy)
    if cold:
        say("cold compile in a fresh Numba cache (minutes)...")
        with tempfile.TemporaryDirectory() as d:
            c = _child(players, 0, strategy, {"NUMBA_CACHE_DIR": d})
        res["compile_s_cold"] = round(c["first_game_s"], 1)
    say("cached start (a fresh process to its first game's end, 3 times)...")
    _child(players, 0, strategy, {})  # make sure the normal cache is warm
    starts = [_child(players, 0, strategy, {})["first_game_s"] for _ in range(3)]
    res["start_s_cached"] = round(statistics.median(starts), 2)
    nojit_rate = None
    if nojit_games:
        say(f"no-JIT engine, {nojit_games} games...")
        nj = _child(players, nojit_games, strategy, {"NUMBA_DISABLE_JIT": "1"})
        nojit_rate = nojit_games / nj["games_s"]
    else:
        say("no-JIT engine skipped (--nojit-games 0)")
    r = load_rules()
    W, _ = load_strategies([strategy])
    one_games = max(1, games // 4)
    one_thread = bench_play(r, W, players, 1)
    _rate(one_thread, min(8, one_games), reps=1)  # load the kernels
    one, one_cpu = _rate(one_thread, one_games, reps, say=say, what=f"jitted engine, 1 thread, {one_games:,} games")
    nt = numba.get_num_threads()
    allr, all_cpu = _rate(bench_play(r, W, players, nt), games, reps, say=say, what=f"jitted engine, {nt} threads, {games:,} games")
    res.update({
        "games_per_s": round(allr, 1),
        "games_per_s_per_core": round(allr / nt, 2),
        "core_s_per_game": _sig(all_cpu),
        "games_per_s_1_thread": round(one, 2),
        "core_s_per_game_1_thread": _sig(one_cpu),
        "games_per_s_nojit": None if nojit_rate is None else round(nojit_rate, 2),
        "speedup_vs_nojit": None if nojit_rate is None else round(one / nojit_rate, 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "games": games,
        "games_1_thread": one_games,
        "nojit_games": nojit_games,
    })
    return res


def summary_line(res: dict) -> str:
    """The bench in one line: the game (when not Trinidad), strategy, budget, rate per core and core time per game,
    and what was played (a game's setup, such as Río de la Plata's level and Short game, when it has one)."""
    name = res["strategy"] + (f" (= {res['alias_of']})" if "alias_of" in res else "")
    game = f"{res['game']}: " if "game" in res else ""
    threads = "thread" if game and res["threads"] == 1 else "threads"  # Trinidad's line as it always read
    setup = (f", {res['level']}" if "level" in res else "") + (", the Short game" if res.get("short") else "")
    return (f"{game}{name} [{res['family']}; budget {format_budget(res['budget'])}]: {res['games_per_s_per_core']:,} games/s per core, "
            f"{res['core_s_per_game']:.3g} core-s per game ({res['games']:,} games on {res['threads']} {threads}, "
            f"{res['players']} players{setup}; {res['cpu']})")


def report_lines(res: dict) -> list[str]:
    """The text output of every game's bench: :func:`summary_line`, then a line a measured or recorded value."""
    def shown(k, v):
        return "skipped" if v is None else format_budget(v) if k == "budget" else ",".join(v) if k == "seats" else v

    return [summary_line(res)] + [f"{k:>24}: {shown(k, v)}" for k, v in res.items()]


# ----------------------------------------------------------------------------- stored measurements (trinidad players)

MEASUREMENTS = ROOT / "strategies" / "measurements.json"  # read by `trinidad players`, cost entries written by `bench --record`


def solo_cost(strategy: str, games: int, say: Callable[[str], None] | None = None) -> tuple[float, int]:
    """(core-seconds per Solo game, games played): ``strategy`` against the Solo A.I. (TWO PLAYERS GAME & SOLO MODE)
    at every strength of the rules, ``games`` each, on one thread, as the A.I. table plays them (trinidad.ai_scale;
    an alias plays its ``solo`` name). The kernels are loaded by one game first, outside the count."""
    from trinidad import ai_scale

    ai_scale.measure([strategy], games=1, seed=2, threads=1)
    c0 = time.process_time()
    scale = ai_scale.measure([strategy], games=games, seed=1, threads=1, say=say)
    played = games * len(scale.strengths)
    return (time.process_time() - c0) / played, played


def record(res: dict, solo_games: int = 0, path: Path = MEASUREMENTS, say: Callable[[str], None] | None = None) -> dict:
    """Store a bench's cost of ``res["strategy"]`` in ``path`` (strategies/measurements.json): core-ms a game at
    ``res["players"]`` players (its all-threads figure) and, with ``solo_games``, core-ms a Solo game
    (:func:`solo_cost`), each with the machine, the date and what was played. Returns the entry written."""
    doc = json.loads(path.read_text()) if path.exists() else {}
    machine = f"{res['cpu']}, {res['cores']} cores"
    date = time.strftime("%Y-%m-%d", time.gmtime())
    entry = doc.setdefault("cost", {}).setdefault(res["strategy"], {})
    entry[f"{res['players']}p"] = {"core_ms": round(res["core_s_per_game"] * 1000, 1), "games": res["games"],
                                  "threads": res["threads"], "machine": machine, "date": date}
    if solo_games:
        s, played = solo_cost(res["strategy"], solo_games, say)
        entry["solo"] = {"core_ms": round(s * 1000, 1), "games": played, "threads": 1, "machine": machine, "date": date}
    path.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
    return entry
