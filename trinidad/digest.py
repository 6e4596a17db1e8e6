"""Content digests of runs: the proof that two builds, machines or splits play the same games.

``trinidad runs digest DIR`` prints a digest of each of a run's tables (games, decades): a hash
of the table's content in a fixed row order, independent of how the run was sharded, resumed or
compressed. A change meant to keep the games (a refactor, a speed-up) is checked with the
suite below, which plays one fixed-seed experiment per player family::

    python -m trinidad.digest --save before.json     # on the old build
    python -m trinidad.digest --check before.json    # on the new one: exit 1 on any difference
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import polars as pl

from sim.dataset import MANIFEST

ORDER = ("variant", "players", "game", "seat", "decade")

# one experiment per player family (and the heuristic's other weight files, mixed), on fixed seeds
SUITE = {
    "random": dict(players=[2, 3, 4, 5], games=300, strategies=["random"], assign="fixed"),
    "greedy": dict(players=[3, 4], games=300, strategies=["greedy", "random"], assign="rotate"),
    "heuristic": dict(players=[2, 4, 5], games=600, strategies=["heuristic"], assign="fixed"),
    "mixed": dict(players=[4], games=600, strategies=["heuristic", "builder", "civic", "militarist"], assign="rotate"),
    "rollout": dict(players=[4], games=40, strategies=["rollout", "heuristic"], assign="rotate"),
    "python": dict(players=[3], games=60, strategies=["pyexample", "greedy"], assign="rotate"),
    # the A.I. (TWO PLAYERS GAME & SOLO MODE): the Solo game and 2 players + A.I., every strength
    "ai": dict(players=[1, 2], games=100, strategies=["heuristic", "greedy"], assign="rotate",
               ai={"strength": ["weak", "medium", "strong", "divinity"]}),
}


def table_digest(run: Path, table: str, cols: int | None = None) -> str:
    """``<12 hex digits> (<rows> rows, <columns> cols)`` of ``run/table/*.parquet``, rows sorted by
    variant, players, game, seat (and decade). ``cols``: digest only the table's first ``cols``
    columns (see :func:`digest_width`)."""
    df = pl.read_parquet(str(Path(run) / table / "*.parquet"))
    df = df.sort([c for c in ORDER if c in df.columns])
    if cols is not None and cols < df.width:
        df = df.select(df.columns[:cols])
    h = hashlib.sha256(df.write_csv().encode()).hexdigest()[:12]
    return f"{h} ({df.height} rows, {df.width} cols)"


def digest_width(digest: str) -> int:
    """The column count a digest was taken over (``... (<rows> rows, <columns> cols)``)."""
    return int(digest.rsplit(",", 1)[1].split()[0])


def run_digest(run: Path, cols: dict[str, int] | None = None) -> dict[str, str]:
    """Digests of the run's tables (games, then the others: Trinidad's decades; Río de la Plata's offices,
    turns, wars); ``cols`` (table -> count) narrows a table to its first columns."""
    run = Path(run)
    if not (run / MANIFEST).exists():
        raise FileNotFoundError(f"{run}: no {MANIFEST} (not a run directory)")
    others = sorted(d.name for d in run.iterdir() if d.is_dir() and d.name != "games" and any(d.glob("*.parquet")))
    return {t: table_digest(run, t, (cols or {}).get(t)) for t in ("games", *others)}


def suite(workdir: Path, families: list[str] | None = None,
          widths: dict[str, dict[str, int]] | None = None) -> dict[str, dict[str, str]]:
    """Play the suite's experiments into ``workdir`` and digest each. ``widths`` (family -> table ->
    column count): digest those tables on their first columns only. Record columns are only ever
    appended (sim.schema), so a check against digests saved before a column was added compares
    every column that existed then: the games played, not the columns recorded since."""
    from trinidad.experiment import experiment_from_dict
    from trinidad.runner.run import run_experiment

    out = {}
    for name, e in SUITE.items():
        if families and name not in families:
            continue
        d = Path(workdir) / name
        exp = experiment_from_dict({"name": name, "players": e["players"], "games": e["games"], "seed": 11, "out": str(d),
                                    "shard_games": 100, "seats": {"strategies": e["strategies"], "assign": e["assign"]},
                                    "characters": {"assign": "balanced"}} | ({"ai": e["ai"]} if "ai" in e else {}))
        run_experiment(exp, progress=False)
        out[name] = run_digest(d, (widths or {}).get(name))
        print(f"{name:10} games {out[name]['games']}  decades {out[name]['decades']}", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trinidad.digest", description=__doc__.split("\n\n")[0])
    ap.add_argument("--save", type=Path, help="write the suite's digests to this JSON file")
    ap.add_argument("--check", type=Path, help="compare the suite's digests with this JSON file (exit 1 if any differs)")
    ap.add_argument("--families", help="comma-separated subset of: " + ", ".join(SUITE))
    a = ap.parse_args(argv)
    fams = a.families.split(",") if a.families else None
    want = json.loads(a.check.read_text()) if a.check else {}
    widths = {k: {t: digest_width(v) for t, v in tables.items()} for k, tables in want.items()}
    with tempfile.TemporaryDirectory(prefix="trinidad-digest-") as tmp:
        got = suite(Path(tmp), fams, widths) if a.check else suite(Path(tmp), fams)
        # the whole tables of the same runs (no second play): what --save writes, and the columns a check left out
        full = {k: run_digest(Path(tmp) / k) for k in got} if a.check else got
    if a.save:  # a subset (--families) updates its entries of an existing file, keeping the others
        old = json.loads(a.save.read_text()) if fams and a.save.exists() else {}
        a.save.write_text(json.dumps(old | full, indent=1, sort_keys=True) + "\n")
    if a.check:
        diff = [f"{k}: {t} {want[k][t]} -> {got[k][t]}" for k in got if k in want for t in got[k] if got[k][t] != want[k][t]]
        print("same games" if not diff else "DIFFERENT GAMES:\n" + "\n".join(diff))
        newer = sorted({f"{t} {digest_width(full[k][t]) - digest_width(want[k][t])}" for k in got if k in want for t in got[k]
                        if digest_width(full[k][t]) > digest_width(want[k][t])})
        if newer:
            print(f"(compared on the columns the saved digests cover; columns recorded since, not compared: {', '.join(newer)})")
        return 1 if diff else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
