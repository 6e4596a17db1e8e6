"""Batch runs (README, "Batch runs"): reproducibility over threads, workers, shard sizes and backends; resume
after an interruption (simulated and a real SIGKILL); row counts and schema of the Parquet tables;
seat and Character assignment; one-line experiment errors; the no-JIT engine; `runs summarize`
and aliases in the manifest.

Every run is tiny (a few dozen games) and writes under ``tmp_path``. Master seed 7 is used
throughout: see ``test_any_master_seed_runs`` for why the seed matters.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from trinidad.cli import app
from trinidad.experiment import ExperimentError, experiment_from_dict, load_experiment
from trinidad.runner.run import run_experiment
from trinidad.runner.summary import summarize

ROOT = Path(__file__).resolve().parents[3]
SEED = 7  # game_seed(7, n) < 2**63 for every player count n: see test_any_master_seed_runs
cli = CliRunner()

_M64 = 2**64 - 1


def _mix64(z: int) -> int:
    """SplitMix64's output function in plain Python (the reference for sim.rng)."""
    z &= _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _game_seed(master: int, index: int) -> int:
    return _mix64((_mix64(master) + index) & _M64)


def _expected_seeds(master: int, n: int, games: int) -> list[int]:
    """The documented rule: seed of game i with n players = game_seed(game_seed(master, n), i)."""
    return [_game_seed(_game_seed(master, n), i) for i in range(games)]


def _doc(out: Path, **kw) -> dict:
    d = {
        "name": "t", "players": [3], "games": 12, "seed": SEED, "out": str(out), "shard_games": 6,
        "seats": {"strategies": ["greedy", "random"], "assign": "rotate"},
        "characters": {"assign": "balanced"},
    }
    d.update(kw)
    return d


def _exp(out: Path, **kw):
    return experiment_from_dict(_doc(out, **kw))


def _run(out: Path, workers: int = 2, **kw) -> dict:
    return run_experiment(_exp(out, **kw), workers=workers, progress=False)


def _tables(out: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(decades, games) of a run directory, in a canonical row order."""
    dec = pl.read_parquet(str(out / "decades" / "*.parquet")).sort("variant", "players", "game", "decade", "seat")
    gam = pl.read_parquet(str(out / "games" / "*.parquet")).sort("variant", "players", "game", "seat")
    return dec, gam


def _assert_same_tables(a: Path, b: Path) -> None:
    da, ga = _tables(a)
    db, gb = _tables(b)
    assert ga.height > 0 and da.height > 0
    assert_frame_equal(ga, gb)
    assert_frame_equal(da, db)


def _shard_files(out: Path, table: str = "games") -> list[str]:
    return sorted(p.name for p in (out / table).glob("part-*.parquet"))


def _write_toml(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _subprocess_env(**extra: str) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.update(extra)
    return env


def _one_line(text: str) -> str:
    # a kernel the run compiles first (its cache cold for this process's engine) prints its progress on
    # stderr (trinidad.lab.compile_progress): that is not part of the error message
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("[compile] ")]
    assert len(lines) == 1, text
    return lines[0]


# ----------------------------------------------------------------------------- 1. reproducibility


def test_play_batch_same_records_on_1_2_3_threads(engine):
    from sim.rules import load_rules
    from strategies.registry import load_strategies
    from trinidad.batch import play_batch

    r = load_rules()
    W, _ = load_strategies(["greedy", "random"])
    seeds = np.array(_expected_seeds(SEED, 3, 8), np.uint64)
    strat = np.array([[(s + i) % 2 for s in range(3)] for i in range(8)], np.int32)
    outs = [play_batch(r, W, 3, seeds, strat, threads=t) for t in (1, 2, 3)]
    dec1, gam1 = outs[0]
    assert dec1.shape[0] == gam1.shape[0] == 8
    assert gam1[:, :3, :].any() and not gam1[:, 3:, :].any()  # seats beyond the players stay zero
    for dec, gam in outs[1:]:
        np.testing.assert_array_equal(dec, dec1)
        np.testing.assert_array_equal(gam, gam1)
    # a game's record does not depend on its batch: game 5 alone gives row 5
    dec5, gam5 = play_batch(r, W, 3, seeds[5:6], strat[5:6], threads=1)
    np.testing.assert_array_equal(gam5[0], gam1[5])
    np.testing.assert_array_equal(dec5[0], dec1[5])


def test_run_same_files_on_1_2_and_3_workers(engine, tmp_path, monkeypatch):
    """A shard is cut into chunks of at most CHUNK_GAMES games (2 here: a 7-game shard is 4 chunks)
    whatever the workers, and its files are written a chunk (a row group) at a time in chunk order,
    as the chunks come. Each shard's first chunk plays slowly, so that with 2 and 3 workers the
    later chunks finish first and wait: the same digests, and the same Parquet files byte for byte
    on 1, 2 and 3 workers, and from the Ray task's writer (run_shard) too (issue 24)."""
    import threading

    import pyarrow.parquet as pq

    import trinidad.runner.shards as runner
    from strategies.registry import compile_players
    from trinidad.digest import run_digest
    from trinidad.runner.manifest import experiment_of_run
    from trinidad.runner.shards import run_shard

    monkeypatch.setattr(runner, "CHUNK_GAMES", 2)
    real = runner._play_records
    waited = []

    def play(exp, players, vi, n, start, count, threads=None):
        if start % 7 == 0 and threading.current_thread() is not threading.main_thread():
            time.sleep(0.3)  # a shard's first chunk: the chunks behind it are played first
        return real(exp, players, vi, n, start, count, threads)

    from trinidad.runner.local import _Chunks

    real_put = _Chunks.put

    def put(self, sh, j, frag):
        with self.cond:
            if sh["written"] < j:
                waited.append(j)  # played before an earlier chunk of its shard was written
        return real_put(self, sh, j, frag)

    monkeypatch.setattr(runner, "_play_records", play)
    monkeypatch.setattr(_Chunks, "put", put)
    kw = {"players": [3, 4], "games": 14, "shard_games": 7}
    ms = {w: _run(tmp_path / f"w{w}", workers=w, **kw) for w in (1, 2, 3)}
    assert [m["workers"] for m in ms.values()] == [1, 2, 3]
    assert waited  # the out-of-order path was taken
    digests = {w: run_digest(tmp_path / f"w{w}") for w in ms}
    assert digests[1] == digests[2] == digests[3]
    _assert_same_tables(tmp_path / "w1", tmp_path / "w3")
    exp = experiment_of_run(tmp_path / "w1")
    (tmp_path / "task" / "games").mkdir(parents=True)
    (tmp_path / "task" / "decades").mkdir()
    run_shard(exp, compile_players(["greedy", "random"]), str(tmp_path / "task"), 0, 4, 1, 7, 7, 1)

    for table in ("games", "decades"):
        names = _shard_files(tmp_path / "w1", table)
        assert len(names) == 4
        for name in names:
            one = (tmp_path / "w1" / table / name).read_bytes()
            assert pq.read_metadata(tmp_path / "w1" / table / name).num_row_groups == 4  # 2 + 2 + 1 + 2 games
            assert all((tmp_path / f"w{w}" / table / name).read_bytes() == one for w in (2, 3)), name
        assert (tmp_path / "task" / table / "part-v00-p4-00001.parquet").read_bytes() == \
            (tmp_path / "w1" / table / "part-v00-p4-00001.parquet").read_bytes()


def test_chunks_cover_a_shard_in_at_most_chunk_games():
    from trinidad.runner.shards import CHUNK_GAMES, chunk_bounds

    for count in (1, 7, 999, 1000, 1001, 5000, 12345):
        b = chunk_bounds(count)
        sizes = np.diff(b)
        assert b[0] == 0 and b[-1] == count and sizes.min() >= 1 and sizes.max() <= CHUNK_GAMES
        assert sizes.max() - sizes.min() <= 1  # even: no chunk keeps the others waiting
        assert len(sizes) == -(-count // CHUNK_GAMES)


@pytest.mark.parametrize("shard_games", [4, 40])
def test_local_backend_holds_a_bounded_number_of_games(engine, tmp_path, monkeypatch, shard_games):
    """Chunks of 2 games, writing made slow (0.1 s a chunk): the workers play on, but never hold
    more than trinidad.runner.local.chunk_window(workers) chunks (in play, or played and not yet written) at once,
    whatever the shard size: a run's memory follows the chunk, not --shard-games (issue 24, memory).
    The tables are those of an ordinary run."""
    import threading

    import trinidad.runner.shards as runner
    from trinidad.runner.local import chunk_window

    monkeypatch.setattr(runner, "CHUNK_GAMES", 2)
    real_play, real_append = runner._play_records, runner.ShardWriter.append
    lock = threading.Lock()
    held = [0]
    peak = [0]

    def play(exp, players, vi, n, start, count, threads=None):
        if threading.current_thread() is not threading.main_thread():  # the main thread prepares the engine
            with lock:
                held[0] += count
                peak[0] = max(peak[0], held[0])
        return real_play(exp, players, vi, n, start, count, threads)

    def slow_append(self, dec, gam):
        time.sleep(0.1)
        real_append(self, dec, gam)
        with lock:
            held[0] -= gam["game"].n_unique()

    monkeypatch.setattr(runner, "_play_records", play)
    monkeypatch.setattr(runner.ShardWriter, "append", slow_append)
    m = _run(tmp_path / "slow", workers=2, games=40, shard_games=shard_games)
    assert m["status"] == "complete" and held[0] == 0
    assert m["counts"]["shards"] == 40 // shard_games
    assert chunk_window(2) * runner.CHUNK_GAMES == 8  # 4 chunks of 2 games
    assert 2 * 2 <= peak[0] <= 8
    monkeypatch.undo()
    _run(tmp_path / "plain", workers=1, games=40, shard_games=40)
    _assert_same_tables(tmp_path / "slow", tmp_path / "plain")


def test_a_python_strategy_plays_one_chunk_at_a_time(engine, tmp_path, monkeypatch):
    """A Python strategy's objects need not be thread-safe: with 2 workers its games are never
    played by two threads at once (the others still write), and the tables are those of 1 worker."""
    import threading

    import trinidad.runner.shards as runner

    real = runner._play_records
    lock = threading.Lock()
    now, most = [0], [0]

    def play(*a, **k):
        with lock:
            now[0] += 1
            most[0] = max(most[0], now[0])
        try:
            return real(*a, **k)
        finally:
            with lock:
                now[0] -= 1

    monkeypatch.setattr(runner, "_play_records", play)
    seats = {"strategies": ["py:strategies.pyexample:Builder", "greedy"], "assign": "rotate"}
    _run(tmp_path / "w2", workers=2, games=8, shard_games=4, seats=seats)
    assert most[0] == 1
    most[0] = 0
    _run(tmp_path / "g2", workers=2, games=40, shard_games=20)  # jitted players: the workers do play at once
    assert most[0] == 2
    monkeypatch.setattr(runner, "_play_records", real)
    _run(tmp_path / "w1", workers=1, games=8, shard_games=4, seats=seats)
    _assert_same_tables(tmp_path / "w1", tmp_path / "w2")


def test_run_same_tables_for_any_shard_size(engine, tmp_path):
    for sg in (5, 7, 24):
        _run(tmp_path / f"s{sg}", shard_games=sg, games=14, players=[3, 4])
    assert len(_shard_files(tmp_path / "s5")) == 2 * 3
    assert len(_shard_files(tmp_path / "s7")) == 2 * 2
    assert len(_shard_files(tmp_path / "s24")) == 2 * 1
    _assert_same_tables(tmp_path / "s5", tmp_path / "s24")
    _assert_same_tables(tmp_path / "s7", tmp_path / "s24")


# ----------------------------------------------------------------------------- 2. Ray backend


def test_ray_backend_same_tables_as_local(engine, tmp_path, monkeypatch):
    ray = pytest.importorskip("ray")
    # Ray's workers are fresh processes: they must find the project and the warm Numba cache
    monkeypatch.setenv("PYTHONPATH", _subprocess_env()["PYTHONPATH"])
    # a local Ray turns token authentication on and saves its token under ~/.ray (Path.home()):
    # the test keeps it in its own temporary home, so it leaves nothing outside the temp directories
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    import pwd

    real_token = Path(pwd.getpwuid(os.getuid()).pw_dir) / ".ray" / "auth_token"
    had_token = real_token.exists()
    assert not ray.is_initialized()
    m = run_experiment(_exp(tmp_path / "ray", games=12, shard_games=6), backend="ray", workers=2, progress=False)
    assert not ray.is_initialized()  # the runner shuts down the Ray it started
    assert m["status"] == "complete" and m["backend"] == "ray" and m["counts"]["games_done"] == 12
    _run(tmp_path / "local", games=12, shard_games=6)
    assert _shard_files(tmp_path / "ray") == _shard_files(tmp_path / "local")
    _assert_same_tables(tmp_path / "ray", tmp_path / "local")
    for table in ("games", "decades"):  # one writer (runner.ShardWriter) for both backends: the same files
        for name in _shard_files(tmp_path / "local", table):
            assert (tmp_path / "ray" / table / name).read_bytes() == (tmp_path / "local" / table / name).read_bytes(), name
    assert real_token.exists() == had_token  # nothing written to the real home


def test_ray_backend_on_a_real_cluster_with_token_authentication(engine, tmp_path, monkeypatch):
    """`ray start --head` on loopback (current Ray turns token authentication on where a token
    exists), then `trinidad run --backend ray --address`: the same tables as the local backend.
    Nothing answering at an address, or a cluster whose token this machine lacks: one line, exit 2,
    nothing written. The cluster is stopped after; its token lives in a temporary home."""
    pytest.importorskip("ray")
    import socket

    home = tmp_path / "home"
    home.mkdir()
    env = _subprocess_env() | {"HOME": str(home), "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_AUTH_MODE", None)
    monkeypatch.setenv("HOME", str(home))
    ray_bin = str(Path(sys.executable).parent / "ray")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    subprocess.run([ray_bin, "get-auth-token", "--generate"], env=env, capture_output=True, timeout=60, check=True)
    assert (home / ".ray" / "auth_token").is_file()
    start = subprocess.run([ray_bin, "start", "--head", "--port", str(port), "--node-ip-address", "127.0.0.1", "--num-cpus", "2",
                            "--include-dashboard", "false"], env=env, capture_output=True, text=True, timeout=180)
    try:
        assert start.returncode == 0, start.stderr[-2000:]
        address = f"127.0.0.1:{port}"
        out = tmp_path / "cluster"
        # a fresh process, as a user runs it (Ray caches the token it read once per process)
        res = subprocess.run([sys.executable, "-m", "trinidad.cli", "run", "--quiet", "--backend", "ray", "--address", address,
                              "--players", "3", "--games", "12", "--shard-games", "6", "--seed", str(SEED),
                              "--strategies", "greedy,random", "--out", str(out)], cwd=str(ROOT), env=env,
                             capture_output=True, text=True, timeout=300)
        assert res.returncode == 0, res.stderr[-3000:]
        local = tmp_path / "local"
        cli.invoke(app, ["run", "--quiet", "--players", "3", "--games", "12", "--shard-games", "6", "--seed", str(SEED),
                         "--strategies", "greedy,random", "--out", str(local), "-w", "1"])
        _assert_same_tables(out, local)
        assert json.loads((out / "manifest.json").read_text())["backend"] == "ray"
        # the same cluster without its token on this machine: refused in one line, nothing written
        (home / ".ray" / "auth_token").rename(tmp_path / "token")
        res = subprocess.run([sys.executable, "-m", "trinidad.cli", "run", "--quiet", "--backend", "ray", "--address", address,
                              "--games", "4", "--strategies", "greedy", "--out", str(tmp_path / "no-token")], cwd=str(ROOT),
                             env=env, capture_output=True, text=True, timeout=300)
        assert res.returncode == 2, res.stderr[-3000:]
        assert res.stderr.strip().splitlines()[-1].startswith("--address: cannot join the Ray cluster") and "auth_token" in res.stderr
        assert not (tmp_path / "no-token").exists()
    finally:
        subprocess.run([ray_bin, "stop", "--force"], env=env, capture_output=True, timeout=120)
    with socket.socket() as s:  # a free port: nothing answers there
        s.bind(("127.0.0.1", 0))
        idle = s.getsockname()[1]
    res = cli.invoke(app, ["run", "--quiet", "--backend", "ray", "--address", f"127.0.0.1:{idle}", "--games", "4",
                           "--strategies", "greedy", "--out", str(tmp_path / "nobody")])
    assert res.exit_code == 2 and _one_line(res.output).startswith("--address: nothing answers at 127.0.0.1:")
    assert not (tmp_path / "nobody").exists()


# ----------------------------------------------------------------------------- 3. resume


def test_resume_after_simulated_interruption(engine, tmp_path):
    variants = [{"name": "base"}, {"name": "rich", "overrides": {"setup": {"start_silver": 3}}}]
    kw = {"players": [3, 4], "games": 18, "shard_games": 6, "variants": variants}
    _run(tmp_path / "full", **kw)
    out = tmp_path / "cut"
    _run(out, **kw)
    shards = _shard_files(out)
    assert len(shards) == 2 * 2 * 3
    # a killed run: one shard wrote its decades but not its games file; another was mid-write
    victim = "part-v01-p3-00001.parquet"
    (out / "games" / victim).unlink()
    (out / "games" / "part-v00-p4-00002.parquet").unlink()
    (out / "decades" / "part-v00-p4-00002.parquet").unlink()
    stray = [out / "decades" / ".part-v00-p4-00002.parquet.4242.tmp", out / "games" / ".part-v00-p4-00002.parquet.4242.tmp"]
    for p in stray:
        p.write_bytes(b"half a parquet file")
    m = json.loads((out / "manifest.json").read_text())
    m["status"] = "running"
    m["wall_s"] = 1000.0  # the interrupted session's play time: the record adds the resume's to it
    (out / "manifest.json").write_text(json.dumps(m))

    m = run_experiment(_exp(out, **kw), workers=2, resume=True, progress=False)
    assert m["status"] == "complete"
    assert 1000.0 < m["wall_s"] < 1000.0 + 600 and m["games_per_s"] == pytest.approx(m["counts"]["games_done"] / m["wall_s"], rel=0.01, abs=0.05)
    assert m["games_per_s_this_session"] > m["games_per_s"]
    assert m["counts"]["games_done"] == m["counts"]["games_total"] == 2 * 2 * 18
    assert m["games_this_session"] == 2 * 6
    assert not any(p.exists() for p in stray)
    assert not list(out.glob("*/.*.tmp"))
    assert _shard_files(out) == shards and _shard_files(out, "decades") == shards
    dec, gam = _tables(out)
    assert gam.select("variant", "players", "game", "seat").is_duplicated().sum() == 0
    assert dec.select("variant", "players", "game", "decade", "seat").is_duplicated().sum() == 0
    _assert_same_tables(out, tmp_path / "full")
    # resuming a complete run plays nothing and changes nothing, its record included
    # (a no-op resume once wrote a wall time of 0.1 s and 0 games/s over the run's own)
    before = (out / "manifest.json").read_text()
    m2 = run_experiment(_exp(out, **kw), workers=2, resume=True, progress=False)
    assert m2 == m and (out / "manifest.json").read_text() == before
    _assert_same_tables(out, tmp_path / "full")


def test_engine_preparation_is_said_and_timed_apart_from_play(engine, tmp_path):
    """The engine is compiled (or loaded) before the clock of play starts, said in lines that need
    no terminal; the manifest has its time as compile_s and games/s leave it out."""
    said = []
    m = run_experiment(_exp(tmp_path / "r", games=12, shard_games=6), workers=1, progress=True, say=said.append)
    assert said[0].startswith("preparing the engine") and said[-1].startswith("engine ready in")
    assert m["compile_s"] >= 0 and m["games_per_s"] == pytest.approx(12 / m["wall_s"], rel=0.02, abs=0.05)  # wall_s is rounded
    quiet = []
    run_experiment(_exp(tmp_path / "q", games=12, shard_games=6), workers=1, progress=False, say=quiet.append)
    assert quiet == []


def test_a_corrupt_shard_is_named_everywhere_and_played_again_on_resume(engine, tmp_path):
    """A shard file cut short (or a decades file overwritten with junk): `runs summarize` and
    `report` name it in one line with the command that mends it (exit 2); `--resume` (of the run
    directory moved elsewhere) finds it by its footer, plays that shard again and the tables equal
    an undamaged run's."""
    _run(tmp_path / "clean")
    out = tmp_path / "hurt"
    _run(out)
    g = out / "games" / "part-v00-p3-00001.parquet"
    g.write_bytes(g.read_bytes()[:300])
    (out / "decades" / "part-v00-p3-00000.parquet").write_bytes(b"not parquet")
    for cmd in (["runs", "summarize", str(out)], ["report", str(out), "--out", str(tmp_path / "rep")]):
        res = cli.invoke(app, cmd)
        assert res.exit_code == 2, res.output
        line = _one_line(res.output)
        assert "part-v00-p3-0000" in line and "not a readable Parquet file" in line and f"--resume --out {out}" in line
    assert not (tmp_path / "rep").exists()
    moved = out.rename(tmp_path / "moved")  # a run directory moved elsewhere resumes too
    res = cli.invoke(app, ["run", "--resume", "--out", str(moved), "-q"])
    assert res.exit_code == 0, res.output
    assert res.output.count("playing that shard again") == 2
    _assert_same_tables(moved, tmp_path / "clean")
    m = json.loads((moved / "manifest.json").read_text())
    assert m["status"] == "complete" and m["experiment"]["out"] == str(moved)


def test_ctrl_c_leaves_a_true_record(engine, tmp_path, monkeypatch):
    """Ctrl-C during play: the manifest says `interrupted` and counts exactly the games of the
    complete shards on disk (it used to lag one shard behind and keep `running`)."""
    import trinidad.runner.shards as runner_mod

    real = runner_mod._play_records
    calls = {"n": 0}

    def play_then_interrupt(*a, **k):
        calls["n"] += 1
        if calls["n"] == 4:  # the first call prepares the engine (runner.warm_engine)
            raise KeyboardInterrupt
        return real(*a, **k)

    monkeypatch.setattr(runner_mod, "_play_records", play_then_interrupt)
    out = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        _run(out, games=24, shard_games=6, workers=1)
    m = json.loads((out / "manifest.json").read_text())
    on_disk = len(list((out / "games").glob("*.parquet")))
    assert on_disk == 2 and m["status"] == "interrupted" and m["counts"]["games_done"] == 6 * on_disk
    monkeypatch.setattr(runner_mod, "_play_records", real)
    m = run_experiment(_exp(out, games=24, shard_games=6), workers=1, resume=True, progress=False)
    assert m["status"] == "complete" and m["games_this_session"] == 12
    _run(tmp_path / "whole", games=24, shard_games=6, workers=1)
    _assert_same_tables(out, tmp_path / "whole")


def test_used_out_dir_needs_resume_and_the_same_experiment(engine, tmp_path):
    out = tmp_path / "run"
    _run(out)
    with pytest.raises(ExperimentError) as ei:
        _run(out)
    msg = str(ei.value)
    assert msg.startswith("out:") and "--resume" in msg and "\n" not in msg
    for other in ({"seed": SEED + 1}, {"games": 13}, {"seats": {"strategies": ["greedy"], "assign": "fixed"}}):
        with pytest.raises(ExperimentError, match="different experiment") as ei:
            run_experiment(_exp(out, **other), workers=2, resume=True, progress=False)
        assert str(ei.value).startswith("out:") and "\n" not in str(ei.value)
    # a non-empty directory that is not a run is refused too, resume or not
    junk = tmp_path / "junk"
    junk.mkdir()
    (junk / "notes.txt").write_text("mine")
    for resume in (False, True):
        with pytest.raises(ExperimentError, match="^out: .*not a run directory"):
            run_experiment(_exp(junk), workers=2, resume=resume, progress=False)
    assert sorted(p.name for p in junk.iterdir()) == ["notes.txt"]
    # the CLI says the same in one line, exit code 2
    res = cli.invoke(app, ["run", "--quiet", "--games", "12", "--players", "3", "--seed", str(SEED), "--out", str(out)])
    assert res.exit_code == 2
    assert _one_line(res.output).startswith("out:")


def test_resume_after_a_real_kill(engine, tmp_path):
    out = tmp_path / "killed"
    toml = _write_toml(tmp_path / "kill.toml", f"""
name = "kill"
players = 3
games = 120
seed = {SEED}
out = "{out}"
shard_games = 5

[seats]
strategies = ["greedy", "random"]
assign = "rotate"

[characters]
assign = "balanced"
""")
    total = 120 // 5
    p = subprocess.Popen([sys.executable, "-m", "trinidad.cli", "run", str(toml), "--quiet", "--workers", "1"], cwd=str(ROOT),
                         env=_subprocess_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not (out / "games").is_dir() or not any((out / "games").glob("part-*.parquet")):
            assert p.poll() is None, f"trinidad run exited ({p.returncode}) before its first shard: {p.communicate()[1][-2000:]!r}"
            assert time.monotonic() < deadline, "no shard after 120 s"
            time.sleep(0.005)
        os.kill(p.pid, signal.SIGKILL)
    finally:
        if p.poll() is None:
            p.kill()
        p.communicate()
    assert p.returncode == -signal.SIGKILL
    done = len(_shard_files(out))
    assert 1 <= done < total, f"the run was not interrupted ({done} of {total} shards)"
    assert json.loads((out / "manifest.json").read_text())["status"] == "running"

    res = cli.invoke(app, ["run", str(toml), "--resume", "--quiet"])
    assert res.exit_code == 0, res.output
    assert f"complete, {120:,} of {120:,} games" in res.output
    assert len(_shard_files(out)) == total and not list(out.glob("*/.*.tmp"))
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "complete" and m["games_this_session"] == 120 - 5 * done

    ref = tmp_path / "ref"
    run_experiment(load_experiment(toml, out=str(ref), shard_games=120), workers=2, progress=False)
    _, gam = _tables(out)
    assert gam.height == 120 * 3 and gam.select("game", "seat").is_duplicated().sum() == 0
    _assert_same_tables(out, ref)


def test_a_failed_shard_write_stops_the_run_and_resume_finishes_it(engine, tmp_path, monkeypatch):
    """The local backend writes a shard's chunks as they come while the other workers play: a
    failed write (the second chunk of shard 1) must still stop the run with its error, remove the
    incomplete shard's temporary files, count exactly the shards whose files exist (shards finish
    in any order: one behind the failed one may have been written first), and leave a directory
    that --resume completes to the same tables."""
    import trinidad.runner.shards as runner

    monkeypatch.setattr(runner, "CHUNK_GAMES", 3)  # 2 chunks a shard
    real = runner.ShardWriter.append

    out = tmp_path / "cut"

    def flaky(self, dec, gam):
        if self.paths[1].name.endswith("00001.parquet") and gam["game"].min() == 9:
            # shard 0 is played and written by the other worker thread, which nothing here blocks: wait
            # for its files (a machine busy compiling can finish it after this chunk) so that the run
            # stops with a complete shard behind it to count
            for _ in range(1200):
                if "part-v00-p3-00000.parquet" in _shard_files(out):
                    break
                time.sleep(0.05)
            raise OSError("disk full")
        real(self, dec, gam)

    monkeypatch.setattr(runner.ShardWriter, "append", flaky)
    with pytest.raises(OSError, match="disk full"):
        _run(out, games=24)  # 4 shards of 6 games
    on_disk = _shard_files(out)
    assert "part-v00-p3-00000.parquet" in on_disk and "part-v00-p3-00001.parquet" not in on_disk
    assert not list(out.glob("*/.*.tmp"))  # shard 1's first chunk had been written under a temporary name
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "running" and m["counts"]["games_done"] == 6 * len(on_disk)
    monkeypatch.setattr(runner.ShardWriter, "append", real)
    m = run_experiment(_exp(out, games=24), workers=2, resume=True, progress=False)
    assert m["status"] == "complete" and m["games_this_session"] == 24 - 6 * len(on_disk)
    _run(tmp_path / "full", games=24)
    _assert_same_tables(out, tmp_path / "full")


def test_a_record_beyond_its_column_type_is_an_error_not_a_wrapped_value(engine, tmp_path):
    """Records are int32 in the engine and narrower in Parquet (int8/int16 columns): a value that
    does not fit must fail loudly, naming the column."""
    from sim.records import DECADE_COLUMNS, N_RG
    from trinidad.runner.shards import tables as shard_tables

    exp = _exp(tmp_path / "x")
    dec = np.zeros((2, 12, 5, len(DECADE_COLUMNS)), np.int32)
    dec[:, :, :3, DECADE_COLUMNS.index("decade")] = np.arange(1, 13)[None, :, None]
    gam = np.zeros((2, 5, N_RG), np.int32)
    gi, seeds = np.arange(2, dtype=np.int64), np.array([1, 2], np.uint64)
    d, g = shard_tables(exp, 0, 3, gi, seeds, dec, gam)
    assert d.height == 2 * 12 * 3 and g.height == 2 * 3 and d["wood"].dtype == pl.Int16
    dec[1, 5, 2, DECADE_COLUMNS.index("wood")] = 40000
    with pytest.raises(OverflowError, match="column wood: values 0..40000 do not fit int16"):
        shard_tables(exp, 0, 3, gi, seeds, dec, gam)


# ----------------------------------------------------------------------------- 4. rows, schema, seats, Characters


GAME_DTYPES = {"game": pl.Int64, "seed": pl.UInt64, "players": pl.Int8, "seat": pl.Int8, "vp": pl.Int32, "rank": pl.Int8,
               "winner": pl.Int8, "tie": pl.Int8, "decisions": pl.Int32, "vp_money": pl.Int32}
DECADE_DTYPES = {"game": pl.Int64, "seed": pl.UInt64, "players": pl.Int8, "seat": pl.Int8, "decade": pl.Int8, "era": pl.Int8,
                 "vp": pl.Int32, "wood": pl.Int16, "banner_black": pl.Int8, "vp_money": pl.Int32, "built_church": pl.Int16}


def test_rows_schema_and_common_seeds(engine, tmp_path):
    from sim.records import DECADE_COLUMNS, GAME_COLUMNS
    from sim.rules import character_names

    variants = [{"name": "base"}, {"name": "no-money", "overrides": {"scoring": {"money_vp_per_era": 0}}}]
    games = 12
    _run(tmp_path / "r", players=[3, 4], games=games, shard_games=5, variants=variants)
    dec, gam = _tables(tmp_path / "r")

    lead = ["game", "seed", "variant", "players"]
    assert gam.columns == lead + GAME_COLUMNS
    assert dec.columns == lead + DECADE_COLUMNS
    for df, dtypes in ((gam, GAME_DTYPES), (dec, DECADE_DTYPES)):
        for col, dt in dtypes.items():
            assert df.schema[col] == dt, (col, df.schema[col])
        assert df.schema["variant"] == pl.Enum(["base", "no-money"])
        assert df.schema["character"] == pl.Enum(character_names())
        assert df.schema["strategy"] == pl.Enum(["greedy", "random"])

    counts = {(v, n): c for v, n, c in gam.group_by("variant", "players").len().iter_rows()}
    assert counts == {(v, n): games * n for v in ("base", "no-money") for n in (3, 4)}
    counts = {(v, n): c for v, n, c in dec.group_by("variant", "players").len().iter_rows()}
    assert counts == {(v, n): games * 12 * n for v in ("base", "no-money") for n in (3, 4)}
    assert dec.group_by("variant", "players", "game", "seat").agg(pl.col("decade").sort()).get_column("decade").to_list() \
        == [list(range(1, 13))] * (2 * games * 7)
    assert dec.filter(pl.col("decade") == 12).get_column("era").unique().to_list() == [3]

    # ranks 1..n, one or more winners per game (all rank 1, the most VP), ties flagged
    per_game = gam.group_by("variant", "players", "game").agg(
        pl.col("winner").sum().alias("winners"), pl.col("rank").min().alias("best"), pl.col("rank").max().alias("worst"),
        pl.col("tie").sum().alias("ties"), pl.col("vp").max().alias("top"),
        pl.col("vp").filter(pl.col("winner") == 1).min().alias("winner_vp"), pl.col("seat").n_unique().alias("seats"))
    assert per_game.height == 2 * 2 * games
    assert (per_game["winners"] >= 1).all() and (per_game["best"] == 1).all()
    assert (per_game["worst"] <= per_game["players"]).all() and (per_game["seats"] == per_game["players"]).all()
    assert (per_game["winner_vp"] == per_game["top"]).all()
    assert per_game.filter(pl.col("ties") != pl.when(pl.col("winners") > 1).then(pl.col("winners")).otherwise(0)).height == 0
    assert (gam["winner"] == (gam["rank"] == 1).cast(pl.Int8)).all()
    assert gam["seat"].min() == 0 and (gam["seat"] < gam["players"]).all()
    # within a game a better rank never has fewer VP
    for (_v, _n, _g), grp in gam.group_by("variant", "players", "game"):
        rows = sorted(zip(grp["rank"], grp["vp"]))
        assert all(a[1] >= b[1] for a, b in zip(rows, rows[1:])), rows

    # common seeds: every variant plays the same seed for game i; the seed follows the documented rule
    for n in (3, 4):
        s = {v: gam.filter((pl.col("variant") == v) & (pl.col("players") == n) & (pl.col("seat") == 0))["seed"].to_list()
             for v in ("base", "no-money")}
        assert s["base"] == s["no-money"] == _expected_seeds(SEED, n, games)
    assert len(set(gam["seed"].to_list())) == 2 * games  # two player counts, distinct seeds
    # decade records agree with the game records on seed, Character and strategy
    last = dec.filter(pl.col("decade") == 12).select("variant", "players", "game", "seat", "seed", "character", "strategy")
    assert_frame_equal(last, gam.select(last.columns))
    # the variant's override took effect; the manifest records each variant's resolved rules
    assert gam.filter(pl.col("variant") == "no-money")["vp_money"].abs().sum() == 0
    assert gam.filter(pl.col("variant") == "base")["vp_money"].abs().sum() > 0
    m = json.loads((tmp_path / "r" / "manifest.json").read_text())
    assert [v["name"] for v in m["variants"]] == ["base", "no-money"]
    assert m["variants"][0]["rules_hash"] != m["variants"][1]["rules_hash"]
    assert m["variants"][1]["rules"]["scoring"]["money_vp_per_era"]["value"] == 0
    assert m["counts"] == {"games_total": 2 * 2 * games, "games_done": 2 * 2 * games, "shards": 2 * 2 * 3}


def test_first_game_option_records_eight_decades(engine, tmp_path):
    _run(tmp_path / "fg", games=6, shard_games=6, first_game=True, characters={"assign": "draft"})
    dec, gam = _tables(tmp_path / "fg")
    assert gam.height == 6 * 3
    assert dec.height == 6 * 8 * 3 and dec["decade"].max() == 8


def test_characters_balanced(engine, tmp_path):
    from sim.rules import character_names

    names = character_names()
    for n, games in ((3, 12), (4, 24)):
        out = tmp_path / f"b{n}"
        _run(out, players=[n], games=games, shard_games=5)  # shards cut across the blocks of 12
        _, gam = _tables(out)
        assert Counter(gam["character"].to_list()) == dict.fromkeys(names, games * n // 12)
        for s in range(n):
            at_seat = gam.filter(pl.col("seat") == s)["character"].to_list()
            assert Counter(at_seat) == dict.fromkeys(names, games // 12), (n, s)
        assert (gam.group_by("game").agg(pl.col("character").n_unique())["character"] == n).all()
        # and by strategy: a strategy in k entries of the rotated lineup (greedy, random, greedy[, random]) is
        # dealt every Character k times a block, as a seat is dealt them (the seats are arranged once a block)
        lineup = ["greedy", "random"] * 2
        for strategy in ("greedy", "random"):
            of = gam.filter(pl.col("strategy") == strategy)["character"].to_list()
            assert Counter(of) == dict.fromkeys(names, games // 12 * lineup[:n].count(strategy)), (n, strategy)


def test_characters_balanced_for_every_strategy_under_every_seat_assignment(tmp_path):
    """`balanced` holds for every lineup entry, whatever the seats' assignment: over a block of 12 games
    each entry is dealt each Character once, and so is each seat."""
    lineup = ["greedy", "random", "heuristic", "builder"]
    for assign in ("fixed", "rotate", "permute"):
        e = _exp(tmp_path, players=[4], seats={"strategies": lineup, "assign": assign})
        gi = np.arange(12 * 24)
        strat, chars = e.seat_strategies(4, gi), e.seat_characters(4, gi)
        names = e.strategy_names()
        for x in lineup:
            assert np.bincount(chars[strat == names.index(x)], minlength=12).tolist() == [24] * 12, (assign, x)
        for s in range(4):
            assert np.bincount(chars[:, s], minlength=12).tolist() == [24] * 12, (assign, s)
        if assign != "fixed":
            assert len({tuple(row) for row in strat}) > 1  # the seats do move


def test_characters_forced_and_draft(engine, tmp_path):
    forced = ["captain", "Bishop", "MERCHANT", "Noblewoman"]
    _run(tmp_path / "f", players=[3, 4], games=6, characters={"assign": "forced", "forced": forced})
    _, gam = _tables(tmp_path / "f")
    want = ["Captain", "Bishop", "Merchant", "Noblewoman"]
    for (n, s), grp in gam.group_by("players", "seat"):
        assert grp["character"].to_list() == [want[s]] * 6, (n, s)
    _run(tmp_path / "d", players=[4], games=6, characters={"assign": "draft"})
    _, gam = _tables(tmp_path / "d")
    assert (gam.group_by("game").agg(pl.col("character").n_unique())["character"] == 4).all()


@pytest.mark.parametrize("assign", ["fixed", "rotate", "permute"])
def test_seat_assignment(engine, tmp_path, assign):
    strategies = ["greedy", "random", "random"]  # lineup of 3 seats: greedy, random, random
    games = 12
    _run(tmp_path / assign, players=[3], games=games, shard_games=5, seats={"strategies": strategies, "assign": assign},
         characters={"assign": "draft"})
    _, gam = _tables(tmp_path / assign)
    got = [gam.filter(pl.col("game") == i).sort("seat")["strategy"].to_list() for i in range(games)]
    perms = list(itertools.permutations(range(3)))
    if assign == "fixed":
        want = [strategies] * games
    elif assign == "rotate":  # game i: seat s plays the lineup's (s + i) mod n
        want = [[strategies[(s + i) % 3] for s in range(3)] for i in range(games)]
    else:  # game i: the (i mod n!)-th permutation of the lineup
        want = [[strategies[perms[i % 6][s]] for s in range(3)] for i in range(games)]
    assert got == want
    greedy_at_seat = Counter(row.index("greedy") for row in got)
    if assign == "fixed":
        assert greedy_at_seat == {0: games}
    else:  # rotate and permute put the lone greedy player at every seat equally often
        assert greedy_at_seat == {0: games // 3, 1: games // 3, 2: games // 3}
    assert all(Counter(row) == {"greedy": 1, "random": 2} for row in got)


def test_strategies_cycle_over_the_seats(engine, tmp_path):
    _run(tmp_path / "c", players=[5], games=2, seats={"strategies": ["random", "greedy"], "assign": "fixed"}, characters={"assign": "draft"})
    _, gam = _tables(tmp_path / "c")
    assert gam.filter(pl.col("game") == 0).sort("seat")["strategy"].to_list() == ["random", "greedy", "random", "greedy", "random"]


def test_any_master_seed_runs(engine, tmp_path):
    """Every master seed 0..2**63-1 is allowed; the per-player-count seed game_seed(master, n) is
    uniform over 64 bits. With master 3, the 3-player seed is < 2**63 (played first, so game_seeds
    gets an int64 overload) and the 4-player seed is >= 2**63."""
    assert _game_seed(3, 3) < 2**63 <= _game_seed(3, 4)
    _run(tmp_path / "s3", seed=3, players=[3, 4], games=2, shard_games=2)
    _, gam = _tables(tmp_path / "s3")
    for n in (3, 4):
        assert gam.filter((pl.col("seat") == 0) & (pl.col("players") == n))["seed"].to_list() == _expected_seeds(3, n, 2)


# ----------------------------------------------------------------------------- 5. bad experiment files


BAD = [
    ("colour = 'red'\n", ["colour", "unknown key"]),
    ("strategies = ['greedy']\n", ["strategies", "unknown key", "belongs under [seats]"]),
    ("strength = 'weak'\n", ["strength", "belongs under [ai]"]),
    ("players = 6\n", ["players", "2..5"]),
    ("players = [3, 1]\n", ["players"]),
    ("[seats]\nassign = 'shuffle'\n", ["seats.assign", "shuffle", "rotate"]),
    ("[seats]\nstrategies = ['greedy', 'nosuch']\n", ["seats.strategies", "nosuch"]),
    ("[seats]\nwho = 'me'\n", ["seats.who"]),
    ("players = 4\n[characters]\nassign = 'forced'\nforced = ['Captain', 'Pirate', 'Bishop', 'Merchant']\n", ["characters.forced", "Pirate"]),
    ("[characters]\nassign = 'lottery'\n", ["characters.assign", "lottery"]),
    ("[[variants]]\nname = 'base'\n[[variants]]\nname = 'x'\noverrides.setup.start_woood = 3\n", ["variants[x].overrides", "setup.start_woood"]),
    ("[[variants]]\nname = 'base'\ncolour = 1\n", ["variants[0].colour"]),
    ("[[variants]]\nname = 'a'\n[[variants]]\nname = 'a'\n", ["variants", "distinct"]),
    ("[rules]\noverrides.setup.start_wood = 'lots'\n", ["rules", "setup.start_wood"]),
    ("games = 0\n", ["games"]),
    ("shard_games = 'many'\n", ["shard_games"]),
    ("[characters]\nassign = 'balanced'\nprices = { Pirate = 3 }\n", ["characters.prices", "Pirate"]),
    ("[characters]\nassign = 'balanced'\nprices = { Captain = 2.5 }\n", ["characters.prices.Captain", "whole VP"]),
    ("[characters]\nassign = 'draft'\nprices = { Captain = 2 }\n", ["characters.prices", "dealt Characters"]),
    ("[characters]\nassign = 'balanced'\nprices = 'no-such-summary.json'\n", ["characters.prices", "no-such-summary.json"]),
    ("players = 4\n[characters]\nassign = 'balanced'\nprices = { '3' = { Captain = 1 } }\n", ["characters.prices", "no prices for 4 players"]),
    ("[characters]\nassign = 'balanced'\nprices = 7\n", ["characters.prices", "summary.json"]),
]


@pytest.mark.parametrize(("text", "keys"), BAD, ids=[f"{i}-{k[0]}" for i, (_, k) in enumerate(BAD)])
def test_bad_experiment_one_line_error(engine, tmp_path, text, keys):
    p = _write_toml(tmp_path / "bad.toml", f"out = '{tmp_path / 'out'}'\n" + text)
    with pytest.raises(ExperimentError) as ei:
        load_experiment(p)
    msg = str(ei.value)
    assert "\n" not in msg and msg.startswith("experiment: ")
    for k in keys:
        assert k in msg, (k, msg)
    res = cli.invoke(app, ["run", str(p), "--quiet"])
    assert res.exit_code == 2, res.output
    line = _one_line(res.output)
    assert line == msg
    assert not (tmp_path / "out").exists()


def test_bad_flags_one_line_error(engine, tmp_path):
    with pytest.raises(ExperimentError, match=r"^experiment: players: ") as ei:
        load_experiment(None, players=7, out=str(tmp_path / "o"))
    assert "\n" not in str(ei.value)
    for args, key in ((["--players", "1"], "players"), (["--workers", "0"], "--workers"), (["--backend", "mpi"], "--backend"),
                      (["--strategies", "greedy,nosuch"], "nosuch"), ([str(tmp_path / "missing.toml")], "missing.toml")):
        res = cli.invoke(app, ["run", "--quiet", "--out", str(tmp_path / "o"), *args])
        assert res.exit_code == 2, (args, res.output)
        assert key in _one_line(res.output)
    assert not (tmp_path / "o").exists()
    # --out naming a file (or a path under one): one line naming it, the file untouched
    f = tmp_path / "notes.txt"
    f.write_text("mine")
    for out in (f, f / "sub"):
        res = cli.invoke(app, ["run", "--quiet", "--games", "4", "--out", str(out)])
        assert res.exit_code == 2, res.output
        assert _one_line(res.output).startswith("out:") and str(out) in res.output
    assert f.read_text() == "mine"


# ----------------------------------------------------------------------------- 6. no JIT


def test_nojit_run_matches_jitted_run(engine, tmp_path):
    toml = _write_toml(tmp_path / "nojit.toml", f"""
players = 3
games = 2
seed = {SEED}
out = "{tmp_path / 'nojit'}"

[seats]
strategies = ["greedy", "random"]
assign = "rotate"

[characters]
assign = "balanced"
""")
    p = subprocess.run([sys.executable, "-m", "trinidad.cli", "run", str(toml), "--quiet", "--workers", "1"], cwd=str(ROOT),
                       env=_subprocess_env(NUMBA_DISABLE_JIT="1"), capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "complete, 2 of 2 games" in p.stdout
    run_experiment(load_experiment(toml, out=str(tmp_path / "jit")), workers=1, progress=False)
    _assert_same_tables(tmp_path / "nojit", tmp_path / "jit")


# ----------------------------------------------------------------------------- 7. summarize and run commands


def test_run_and_summarize_commands(engine, tmp_path):
    out = tmp_path / "cli"
    res = cli.invoke(app, ["run", "--quiet", "--players", "3", "--games", "12", "--seed", str(SEED), "--out", str(out),
                           "--strategies", "greedy,random", "--workers", "2"])
    assert res.exit_code == 0, res.output
    assert "complete, 12 of 12 games" in res.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["experiment"]["players"] == [3] and m["experiment"]["strategies"] == ["greedy", "random"]
    assert m["counts"] == {"games_total": 12, "games_done": 12, "shards": 1}
    assert isinstance(m["cpu"], str) and m["cpu"] and m["cores"] >= 1
    assert m["seeds"]["master"] == SEED and len(m["variants"]) == 1 and len(m["variants"][0]["rules_hash"]) > 0
    # where the session's CPU went: the workers' playing and writing parts of the process's (issue 24, scaling)
    assert m["cpu_s_this_session"] > 0 and 0 < m["write_cpu_s_this_session"] and 0 < m["play_cpu_s_this_session"]
    assert m["play_cpu_s_this_session"] + m["write_cpu_s_this_session"] <= m["cpu_s_this_session"] * 1.01

    res = cli.invoke(app, ["runs", "summarize", str(out)])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines() == summarize(out)
    first = res.output.splitlines()[0]
    assert first.startswith("run default in ") and "complete, 12 of 12 games" in first
    assert "  base / 3 players: 12 games, mean VP " in res.output
    assert "win rate by Character" in res.output
    assert "  CPU of the last session: " in res.output and "core-ms a game, 2 workers)" in res.output
    for part in ("playing:", "building tables and writing Parquet:", "other threads (the main, library pools):"):
        assert f"    {part}" in res.output

    res = cli.invoke(app, ["runs", "summarize", str(tmp_path)])
    assert res.exit_code == 2
    assert "manifest.json" in _one_line(res.output)


def test_cpu_lines_split_a_session_per_game():
    """`runs summarize`'s CPU lines: playing, writing and the rest per game from the manifest; a
    manifest of the build with one writer thread (no play time) says only the writer's part."""
    from trinidad.runner.summary import cpu_lines

    m = {"cpu_s_this_session": 10.0, "play_cpu_s_this_session": 8.0, "write_cpu_s_this_session": 0.5,
         "games_this_session": 1000, "workers": 3}
    lines = cpu_lines(m)
    assert lines[0] == "  CPU of the last session: 10.0 core-s (10.000 core-ms a game, 3 workers)"
    assert lines[1].split() == ["playing:", "8.0", "core-s", "(80%,", "8.000", "core-ms", "a", "game)"]
    assert lines[2].endswith("0.5 core-s (5%, 0.500 core-ms a game)")
    assert lines[3].endswith("1.5 core-s (15%, 1.500 core-ms a game)") and "library pools" in lines[3]
    old = cpu_lines({k: v for k, v in m.items() if k != "play_cpu_s_this_session"} | {"workers": 1})
    assert old[0].endswith("1 worker)") and len(old) == 2 and "one writer thread" in old[1] and "(5%, 0.500" in old[1]


def test_summarize_counts_games_with_a_tie_not_tied_seats(tmp_path):
    """A game with a tie for first has one row with tie = 1 per tied winner: the summary's share
    counts such games once (it once divided tied seats by games: 125% here), and the win rates split
    a tied win (they once gave each tied seat a whole win: rates summing to 125%)."""
    out = tmp_path / "ties"
    (out / "games").mkdir(parents=True)
    m = {"experiment": {"name": "t"}, "status": "complete", "counts": {"games_total": 4, "games_done": 4, "shards": 1},
         "wall_s": 1.0, "games_per_s": 4.0, "backend": "local", "workers": 1, "variants": [{"rules_hash": "h"}]}
    (out / "manifest.json").write_text(json.dumps(m))
    # game 0: a three-way tie; game 1: two of three tied; games 2 and 3: one winner
    winner = [1, 1, 1, 1, 1, 0, 1, 0, 0, 0, 1, 0]
    tie = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    pl.DataFrame({
        "game": np.repeat(np.arange(4), 3), "variant": ["base"] * 12, "players": [3] * 12,
        "character": ["Governor", "Bishop", "General"] * 4, "vp": [10, 10, 10, 9, 9, 5, 8, 7, 6, 1, 2, 0],
        "winner": winner, "tie": tie,
    }).write_parquet(out / "games" / "part-v00-p3-00000.parquet")
    lines = summarize(out)
    assert "  base / 3 players: 4 games, mean VP 6.4, games with a tie for first 50.0%" in lines
    # and a tie among k seats gives each 1/k of a win: Governor 1/3 + 1/2 + 1 of 4, General 1/3 of 4
    assert any(line.split() == ["Governor", "45.8%", "mean", "VP", "7.0", "(4", "seats)"] for line in lines), lines
    assert any(line.split() == ["General", "8.3%", "mean", "VP", "5.2", "(4", "seats)"] for line in lines), lines


def test_shard_count_is_the_number_of_shards(tmp_path):
    for games, shard_games, players, variants in [(12, 6, [3], 1), (13, 5, [2, 4, 5], 3), (1, 100, [4], 2)]:
        exp = _exp(tmp_path / "x", games=games, shard_games=shard_games, players=players,
                   variants=[{"name": f"v{i}", "overrides": {}} for i in range(variants)])
        assert exp.shard_count() == len(exp.shards()) > 0


def test_summarize_a_run_killed_before_its_first_shard(engine, tmp_path):
    """A run directory whose manifest says running and that holds no shard yet is a run: `runs
    summarize` prints its one status line and exits 0 (only a directory without a manifest is an
    error: one line, exit 2)."""
    out = tmp_path / "early"
    _run(out, games=12, shard_games=6)
    for p in [*(out / "games").glob("*.parquet"), *(out / "decades").glob("*.parquet")]:
        p.unlink()
    m = json.loads((out / "manifest.json").read_text())
    m.update(status="running", games_this_session=0)
    m["counts"]["games_done"] = 0
    (out / "manifest.json").write_text(json.dumps(m))
    res = cli.invoke(app, ["runs", "summarize", str(out)])
    assert res.exit_code == 0 and res.exception is None, (res.exit_code, repr(res.exception), res.output)
    assert _one_line(res.output).startswith(f"run t in {out}: running, 0 of 12 games, ")
    assert res.output.splitlines() == summarize(out)


def test_an_alias_is_recorded_in_the_manifest_and_a_resume_under_another_target_fails(engine, tmp_path):
    """The games table keeps the alias's name; the manifest says what it named, and the rest of a
    run is never played by another player under the same name."""
    top = tmp_path / "top.toml"
    top.write_text('alias = "greedy"\n')
    out = tmp_path / "r"
    m = _run(out, seats={"strategies": [str(top), "random"], "assign": "rotate"})
    assert m["strategy_aliases"] == {str(top): "greedy"}
    assert f"strategies named by an alias: {top} = greedy" in "\n".join(summarize(out))
    (out / "games" / "part-v00-p3-00001.parquet").unlink()  # an interrupted run, to be resumed
    top.write_text('alias = "heuristic"\n')
    with pytest.raises(ExperimentError, match=f"was played with {top} = greedy; {top} now names heuristic"):
        run_experiment(_exp(out, seats={"strategies": [str(top), "random"], "assign": "rotate"}), workers=1, resume=True,
                       progress=False)


def test_the_built_in_experiment_plays_the_best_player(tmp_path):
    """`trinidad run` with no file and `make demo` play `best` (the ladder's top rung), Characters
    balanced; a file naming no strategies plays the fast heuristic (README, Experiment files)."""
    exp = load_experiment(None, out=str(tmp_path / "o"))
    assert exp.strategies == ["best"] and exp.games == 600 and exp.players == [4]
    f = _write_toml(tmp_path / "plain.toml", f'players = 4\ngames = 4\nout = "{tmp_path / "p"}"\n')
    assert load_experiment(f).strategies == ["heuristic"]


TIERS_TOML = """
name = "tiers"
players = 4
games = 24
seed = 3
shard_games = 12
[characters]
assign = "balanced"
[[tiers]]
name = "strong"
strategies = ["heuristic"]
[[tiers]]
name = "weak"
strategies = ["random"]
"""


def test_tiers_play_the_same_deals_and_report_together(engine, tmp_path):
    """An experiment with [[tiers]]: one run per tier on the same seeds and Characters, listed
    strongest first; resumed from --out alone; reported together (Agent sensitivity), each tier
    beside its beat rates against the Solo A.I. (--ai-games, recorded in each tier's run)."""
    from trinidad.ai_scale import read

    f = tmp_path / "tiers.toml"
    f.write_text(TIERS_TOML)
    out = tmp_path / "out"
    r = cli.invoke(app, ["run", "--ai-games", "2", str(f), "--out", str(out), "-q"])
    assert r.exit_code == 0, r.output
    assert "tier strong:" in r.output and f"trinidad report {out}" in r.output
    assert "| strategy | weak | medium | strong | divinity |" in r.output and "| **random** | " in r.output  # the summary
    scales = {t: read(out / t) for t in ("strong", "weak")}
    assert scales["strong"].strategies == ["heuristic"] and scales["weak"].strategies == ["random"]
    assert all(len(sc.beats) == 4 and sc.games == 2 and sc.seed == 3 for sc in scales.values())
    recorded = (out / "weak" / "ai_scale.json").stat().st_mtime_ns
    assert json.loads((out / "tiers.json").read_text())["tiers"][0]["name"] == "strong"
    a = pl.read_parquet(out / "strong" / "games" / "*.parquet").sort("game", "seat")
    b = pl.read_parquet(out / "weak" / "games" / "*.parquet").sort("game", "seat")
    assert a["seed"].to_list() == b["seed"].to_list() and a["character"].cast(pl.String).to_list() == b["character"].cast(pl.String).to_list()
    assert set(a["strategy"].cast(pl.String)) == {"heuristic"} and set(b["strategy"].cast(pl.String)) == {"random"}
    assert a["vp"].to_list() != b["vp"].to_list()
    # a second run into the same folder is refused; --resume finishes (nothing left) from --out alone
    r = cli.invoke(app, ["run", str(f), "--out", str(out), "-q"])
    assert r.exit_code == 2 and "already holds tier runs" in r.output
    (out / "weak" / "games" / sorted(p.name for p in (out / "weak" / "games").iterdir())[-1]).unlink()
    r = cli.invoke(app, ["run", "--ai-games", "2", "--resume", "--out", str(out), "-q"])
    assert r.exit_code == 0, r.output
    assert_frame_equal(pl.read_parquet(out / "weak" / "games" / "*.parquet").sort("game", "seat"), b)
    assert (out / "weak" / "ai_scale.json").stat().st_mtime_ns == recorded  # the same Solo games: kept, not replayed
    r = cli.invoke(app, ["report", str(out)])
    assert r.exit_code == 0, r.output
    doc = json.loads((out / "report" / "summary.json").read_text())
    sens = doc["agent_sensitivity"]
    assert sens["checked"] and [t["tier"] for t in sens["tiers"]] == ["heuristic", "random"]
    assert sens["agreement"][0]["shared deals"] == 1.0
    rows = {(x["tier"], x["strategy"]): x for x in sens["ai_scale"]}
    assert list(rows) == [("heuristic", "heuristic"), ("random", "random")]  # strongest tier first
    for (tier, strat), x in rows.items():
        beat = read(out / ("strong" if tier == "heuristic" else "weak")).beat(strat, "divinity")
        assert (x["n"], x["divinity"], x["divinity_lo"], x["divinity_hi"]) == (2, beat.win_rate, beat.ci_low, beat.ci_high)
    html = (out / "report" / "index.html").read_text().split('id="agent-sensitivity"')[1].split("</section>")[0]
    assert 'id="agent-sensitivity-tier_ai_scale"' in html and "divinity" in html.lower() and html.count("% [") >= 2 * 4


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('name = "weak"', 'name = "strong"'), "given twice"),
    (lambda t: t.replace('name = "weak"', 'name = "../x"'), "folder name"),
    (lambda t: t + '[seats]\nstrategies = ["best"]\n', "remove seats.strategies"),
    (lambda t: t.replace('strategies = ["random"]', 'strategies = ["nobody"]'), "tiers[1] (weak): seats.strategies"),
])
def test_tiers_are_checked_in_one_line(tmp_path, edit, message):
    f = tmp_path / "tiers.toml"
    f.write_text(edit(TIERS_TOML))
    r = cli.invoke(app, ["run", str(f), "--out", str(tmp_path / "out"), "-q"])
    assert r.exit_code == 2 and message in r.output, r.output
    assert not (tmp_path / "out").exists()


# ----------------------------------------------------------------------------- 6. auction prices (issue 23 part 2)


PRICES = {"Captain": 4, "Architect": -2, "Bishop": 1}  # charged relative to the cheapest: Captain 6, Bishop 3, Architect 0, others 2


def test_prices_are_paid_at_setup_as_vp_auction(engine, tmp_path):
    """Every seat pays its dealt Character's price (less the lowest) at setup, recorded as vp_auction;
    the Characters and seeds are those of the unpriced run."""
    base = tmp_path / "base"
    priced = tmp_path / "priced"
    kw = dict(players=[4], games=48, shard_games=24, seats={"strategies": ["heuristic"]})
    _run(base, **kw)
    m = _run(priced, characters={"assign": "balanced", "prices": PRICES}, **kw)
    assert m["experiment"]["prices"] == {"4": PRICES}
    _, gb = _tables(base)
    _, gp = _tables(priced)
    assert gp.select("game", "seat", "seed", "character").equals(gb.select("game", "seat", "seed", "character"))
    cost = {"Captain": 6, "Bishop": 3, "Architect": 0}
    want = [-cost.get(c, 2) for c in gp["character"].cast(pl.String)]
    assert gp["vp_auction"].to_list() == want
    assert (gb["vp_auction"] == 0).all()
    # the VP paid is all that is lost: every other VP source sums to the final VP
    src = [c for c in gp.columns if c.startswith("vp_")]
    assert (gp.select(pl.sum_horizontal(src)).to_series() == gp["vp"]).all()
    # a resume reads the prices back from the manifest
    from trinidad.runner.manifest import experiment_of_run

    assert experiment_from_dict(experiment_of_run(priced)).prices == {"4": PRICES}


def test_zero_prices_play_the_very_same_games(engine, tmp_path):
    from trinidad.digest import run_digest

    kw = dict(players=[3], games=12, shard_games=12)
    _run(tmp_path / "none", **kw)
    m = _run(tmp_path / "zero", characters={"assign": "balanced", "prices": {"Captain": 0, "Bishop": 0}}, **kw)
    assert m["experiment"]["prices"] == {}
    assert run_digest(tmp_path / "none") == run_digest(tmp_path / "zero")


def test_prices_read_from_a_report(engine, tmp_path):
    """``prices = "summary.json"`` (or trinidad run --prices) takes a report's auction prices, rounded to whole VP."""
    from analysis.synthetic import write_synthetic_run
    from reports.build import build_report

    run = write_synthetic_run(tmp_path / "syn", games=600, players=(3, 4), vp_shift={"Captain": 5}, seed=2, decades=False)
    summary = build_report(run).parent / "summary.json"
    rows = json.loads(summary.read_text())["auction_price"]["prices"]
    e = _exp(tmp_path / "o", players=[3, 4], characters={"assign": "balanced", "prices": str(summary)})
    for r in rows:
        assert e.prices[str(r["players"])].get(r["character"], 0) == round(r["price"])
    assert 3 <= e.prices["4"]["Captain"] <= 7
    chars = e.seat_characters(4, np.arange(24))
    paid = e.seat_paid(4, chars)
    from analysis.auction import charges
    from sim.rules import character_names

    names = character_names()
    cost = charges({c: e.prices["4"].get(c, 0) for c in names})
    assert min(cost.values()) == 0 and paid.tolist() == [[cost[names[c]] for c in row] for row in chars.tolist()]
    res = cli.invoke(app, ["run", "--quiet", "--players", "5", "--games", "12",
                               "--out", str(tmp_path / "p5"), "--prices", str(summary)])
    assert res.exit_code == 2 and _one_line(res.output) == "experiment: characters.prices: no prices for 5 players (given for 3, 4)"
