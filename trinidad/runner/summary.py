"""The text summary of a run directory (``trinidad run``, ``trinidad runs summarize``): read from its
manifest and tables alone, so that it loads no engine."""

from __future__ import annotations

import json
import math
from pathlib import Path

import polars as pl

from analysis.data import RunError, bad_shards_line
from sim.dataset import MANIFEST
from sim.state import MAX_PLAYERS


def check_shards(run: Path, command: str) -> None:
    """One line naming the first unreadable shard file and the fix, for the commands that read a
    run (``runs summarize``, ``report``): a resume plays a corrupt shard again."""
    bad = bad_shards_line(run, command)
    if bad:
        raise RunError(bad)


def summarize(out: str | Path) -> list[str]:
    """A short text summary of a run directory."""
    o = Path(out)
    if not (o / MANIFEST).exists():
        raise RunError(f"runs: {o}: no {MANIFEST} (not a run directory)")
    m = json.loads((o / MANIFEST).read_text())
    lines = [f"run {m['experiment']['name']} in {o}: {m['status']}, {m['counts']['games_done']:,} of "
             f"{m['counts']['games_total']:,} games, {m['wall_s']:.1f} s, {m['games_per_s'] or 0:,.0f} games/s "
             + (f"(+{m['compile_s']:.1f} s preparing the engine) " if m.get("compile_s") else "")
             + f"({m['backend']}, {m['workers']} worker{'' if m['workers'] == 1 else 's'}), rules {', '.join(v['rules_hash'] for v in m['variants'])}"]
    if m.get("write_cpu_s_this_session") is not None and m.get("cpu_s_this_session") and m.get("games_this_session"):
        lines += cpu_lines(m)
    if m.get("strategy_aliases"):
        lines.append("  strategies named by an alias: " + ", ".join(f"{a} = {t}" for a, t in m["strategy_aliases"].items()))
    if not any((o / "games").glob("*.parquet")):
        return lines  # interrupted before its first shard: nothing to summarize yet
    check_shards(o, "runs")
    # streamed, and no per-game key over the whole table: the summary of a 10-million-game run stays
    # within the run's own memory (a game has one row per seat, so its rows / players is its games).
    # Games with a tie for first are few: their rows (one per tied winner, tie = 1) are counted alone.
    games = pl.scan_parquet(str(o / "games" / "*.parquet"))
    by = ["variant", "players"]
    k = (games.filter(pl.col("tie") == 1).group_by(*by, "game").agg(pl.len().alias("k"))  # seats tied for first
         .collect(engine="streaming"))
    ties = {(row["variant"], row["players"]): row["len"] for row in k.group_by(*by).len().iter_rows(named=True)}
    t = (games.group_by(*by).agg(pl.len().alias("rows"), pl.col("vp").mean().alias("mean_vp"))
         .sort(*by).collect(engine="streaming"))
    for row in t.iter_rows(named=True):
        n_games = row["rows"] // row["players"]
        tie_rate = ties.get((row["variant"], row["players"]), 0) / n_games
        lines.append(f"  {row['variant']} / {row['players']} players: {n_games:,} games, mean VP {row['mean_vp']:.1f}, "
                     f"games with a tie for first {tie_rate:.1%}")
    # a tie for first among k seats gives each 1/k of a win (as the report counts it), summed exactly
    # in units of 1/lcm(1..5) of a win: the streamed sums' order cannot reorder equal rates, which
    # then follow Character order (the join leaves rows in no fixed order)
    unit = math.lcm(*range(1, MAX_PLAYERS + 1))
    win = pl.col("winner").cast(pl.Int64) * unit // pl.col("k").fill_null(1)
    ch = (games.join(k.lazy(), on=[*by, "game"], how="left").group_by(*by, "character").agg(
        pl.len().alias("n"), (win.sum() / (unit * pl.len())).alias("win"), pl.col("vp").mean().alias("vp"))
        .sort(*by, "win", "character", descending=[False, False, True, False]).collect(engine="streaming"))
    for (var, n), grp in ch.group_by(by, maintain_order=True):
        lines.append(f"  win rate by Character ({var}, {n} players; fair share {1 / n:.1%}; a tie for first shares the win):")
        for row in grp.iter_rows(named=True):
            lines.append(f"    {row['character']:<14} {row['win']:6.1%}  mean VP {row['vp']:6.1f}  ({row['n']:,} seats)")
    if m["experiment"].get("ai"):
        lines += _summarize_ai(games)
    from analysis.played import format_played, played_table, scoring_table

    decades = pl.scan_parquet(str(o / "decades" / "*.parquet")) if any((o / "decades").glob("*.parquet")) else None
    lines += format_played(played_table(games), scoring_table(decades) if decades is not None else None)
    from trinidad import ai_scale

    scale = ai_scale.read(o)
    if scale is not None:
        lines += ["  against the Solo A.I. (" + ai_scale.note(scale) + ")", *("    " + x for x in ai_scale.table(scale))]
    return lines


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


def _summarize_ai(games: pl.LazyFrame) -> list[str]:
    """The players against the A.I.: per variant, game size and strategy, how often the seat beat it
    (Wilson 95% CI), its VP, and in how many of its games the A.I. sat first in turn order (a player
    moving after the A.I. beats it measurably more often: docs/notebook/solo.md, "Who moves first"; ``[seats]
    assign = "fixed"`` keeps the A.I. last in every game, ``"rotate"`` moves it round the turn order)."""
    from analysis.against_ai import beat_ai_table
    from analysis.stats import wilson

    t = (beat_ai_table(games).group_by("variant", "players", "ai", "strategy")
         .agg(pl.len().alias("n"), pl.col("beat_ai").sum().alias("beat"), pl.col("vp").mean().alias("vp"),
              pl.col("ai_vp").mean().alias("ai_vp"), (pl.col("ai_seat") == 0).sum().alias("ai_first"))
         .sort("variant", "players", "strategy").collect(engine="streaming"))
    lines = []
    for (var, n, ai), grp in t.group_by(["variant", "players", "ai"], maintain_order=True):
        what = "the Solo game" if n == 2 else f"{n - 1} players"
        lines.append(f"  against the A.I. ({var}, {what} + {ai}; A.I. mean VP {grp['ai_vp'].mean():.1f}; beating it = finishing ahead of it):")
        lo, hi = wilson(grp["beat"].to_numpy(), grp["n"].to_numpy())
        for row, a, b in zip(grp.iter_rows(named=True), lo, hi):
            lines.append(f"    {str(row['strategy']):<14} beats the A.I. {row['beat'] / row['n']:6.1%} [{a:.1%}, {b:.1%}]  "
                         f"mean VP {row['vp']:6.1f}  ({row['n']:,} seats; the A.I. first in turn order in {row['ai_first']:,})")
    return lines
