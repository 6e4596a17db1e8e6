"""The text summary of a run directory (``trinidad run``, ``trinidad runs summarize``): read from its
manifest and tables alone (the lines of its game: trinidad.games), so that it loads no engine."""

from __future__ import annotations

import json
from pathlib import Path

from analysis.data import RunError, bad_shards_line
from sim.dataset import MANIFEST
from trinidad.games import game_of_run


def check_shards(run: Path, command: str) -> None:
    """One line naming the first unreadable shard file and the fix, for the commands that read a
    run (``runs summarize``, ``report``): a resume plays a corrupt shard again."""
    bad = bad_shards_line(run, command)
    if bad:
        raise RunError(bad)


def summarize(out: str | Path) -> list[str]:
    """A short text summary of a run directory: its record (the manifest), then its game's lines
    (:attr:`trinidad.games.spec.Game.summary`)."""
    o = Path(out)
    if not (o / MANIFEST).exists():
        raise RunError(f"runs: {o}: no {MANIFEST} (not a run directory)")
    m = json.loads((o / MANIFEST).read_text())
    stopping = m.get("stopping")
    of = (f"{m['counts']['games_done']:,} games (until every rate is within +-{100 * stopping['precision']:g} points; at most "
          f"{m['counts']['games_total']:,})" if stopping else f"{m['counts']['games_done']:,} of {m['counts']['games_total']:,} games")
    lines = [f"run {m['experiment']['name']} in {o}: {m['status']}, {of}, {m['wall_s']:.1f} s, {m['games_per_s'] or 0:,.0f} games/s "
             + (f"(+{m['compile_s']:.1f} s preparing the engine) " if m.get("compile_s") else "")
             + f"({m['backend']}, {m['workers']} worker{'' if m['workers'] == 1 else 's'}), rules {', '.join(v['rules_hash'] for v in m['variants'])}"]
    if m.get("write_cpu_s_this_session") is not None and m.get("cpu_s_this_session") and m.get("games_this_session"):
        lines += cpu_lines(m)
    if stopping:  # each variant and player count: its games and why it stopped (trinidad.runner.sequential)
        from analysis.sequential import stop_line

        lines += ["  " + stop_line(r) for r in stopping["streams"]]
    if m.get("strategy_aliases"):
        lines.append("  strategies named by an alias: " + ", ".join(f"{a} = {t}" for a, t in m["strategy_aliases"].items()))
    if not any((o / "games").glob("*.parquet")):
        return lines  # interrupted before its first shard: nothing to summarize yet
    check_shards(o, "runs")
    return lines + game_of_run(o).summary(o, m)


def cpu_lines(m: dict) -> list[str]:
    """Where the last session's CPU went, per game (issue 24): playing, building tables and writing
    Parquet on the workers' threads, and the rest (the main thread, the libraries' own thread
    pools: polars compressed the files there in builds before the chunk writer). A manifest of a
    build that had one writer thread and no play time says the writer's."""
    cpu, wr, g = m["cpu_s_this_session"], m["write_cpu_s_this_session"], m["games_this_session"]

    def part(x: float) -> str:
        return f"{x:,.1f} core-s ({x / cpu:.0%}, {1000 * x / g:,.3f} core-ms a game)"

    lines = [f"  CPU of the last session: {cpu:,.1f} core-s ({1000 * cpu / g:,.3f} core-ms a game, {m['workers']} "
             f"worker{'' if m['workers'] == 1 else 's'})"]
    if m.get("play_cpu_s_this_session") is None:
        return lines + [f"    writing tables and Parquet (one writer thread): {part(wr)}"]
    play = m["play_cpu_s_this_session"]
    return lines + [f"    playing:                                 {part(play)}",
                    f"    building tables and writing Parquet:     {part(wr)}",
                    f"    other threads (the main, library pools): {part(max(0.0, cpu - play - wr))}"]
