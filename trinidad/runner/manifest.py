"""A run directory's manifest (sim.dataset.MANIFEST): what a run records of its experiment, its
progress and the machine that played it, the checks of ``--out`` and ``--resume`` against it, and the
experiment read back from it (``trinidad run --resume``, ``trinidad play --run``)."""

from __future__ import annotations

import json
import os
import platform
import subprocess
from dataclasses import asdict
from pathlib import Path

from sim.dataset import MANIFEST
from sim.rules import rules_hash
from trinidad.experiment import ExperimentError
from trinidad.games import DEFAULT, game_named, game_of


def package_version() -> str:
    try:
        from importlib.metadata import version

        return version("trinidad-sim")
    except Exception:  # not installed (running from a checkout)
        return "unknown"


def git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).parent, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None


def cpu_model() -> str:
    """The processor's model name: games/s read on different machines differ by 3x on the same build
    (the development machines changed from session to session), so a rate names its machine."""
    info: dict[str, str] = {}
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key, _, val = line.partition(":")
            info.setdefault(key.strip(), val.strip())
    except OSError:
        pass
    name = info.get("model name") or platform.processor() or platform.machine() or "unknown"
    # a virtual machine may show only the vendor's line name ("AMD EPYC"): family and model tell its generation
    if "cpu family" in info and "model" in info:
        name += f" (family {info['cpu family']}, model {info['model']})"
    return name


def manifest_fixed(exp) -> dict:
    """The manifest's entries that do not change during a run (resolving and hashing every
    variant's rules takes about 0.1 s: once per run, not once per shard). A run of a game other than
    Trinidad names it (``game``); one that names none is Trinidad's, as every run before a second game."""
    docs = exp.resolved_rules_docs()
    game = game_of(exp)
    return ({"game": game.name} if game.name != DEFAULT else {}) | {
        "package_version": package_version(),
        "git_commit": git_commit(),
        "python": platform.python_version(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "experiment": exp.to_dict(),
        "strategy_aliases": strategy_aliases(exp),
        "variants": [asdict(v) | {"rules_hash": rules_hash(d), "rules": d} for v, d in zip(exp.variants, docs)],
        "seeds": {"master": exp.seed, "rule": "seed(game i, n players) = game_seed(game_seed(master, n), i), sim.rng (SplitMix64)"},
    }


def strategy_aliases(exp) -> dict[str, str]:
    """Each alias among the run's strategies (``best``) and the player it names now: the games
    table keeps the alias, the manifest what it stood for (the game's ``aliases``)."""
    return game_of(exp).aliases(exp)


def manifest_doc(exp, fixed: dict, status: str, games_done: int, wall_s: float, backend: str, workers: int,
                 stopping: dict | None = None) -> dict:
    """The manifest at a moment of the run; ``stopping``: a run with precision's record of its
    stopping rule (:meth:`trinidad.runner.sequential.Schedule.record`), its ``games_total`` the cap."""
    return ({"stopping": stopping} if stopping is not None else {}) | {
        "status": status,
        **fixed,
        "counts": {"games_total": exp.total_games(), "games_done": games_done, "shards": exp.shard_count()},
        "backend": backend,
        "workers": workers,
        "wall_s": round(wall_s, 3),
        "games_per_s": round(games_done / wall_s, 1) if wall_s > 0 else None,
    }


def write_manifest(out: Path, m: dict) -> None:
    tmp = out / f".{MANIFEST}.tmp"
    tmp.write_text(json.dumps(m, indent=2, sort_keys=True))
    os.replace(tmp, out / MANIFEST)


def check_out(exp, out: Path, resume: bool) -> None:
    """Check the output directory: a new run needs it empty; ``resume`` needs the same experiment."""
    if out.exists() and not out.is_dir():
        raise ExperimentError(f"out: {out} is a file, not a run directory; choose an empty or new --out")
    if (out / MANIFEST).exists():
        if not resume:
            raise ExperimentError(f"out: {out} already holds a run; use --resume to finish it or choose another --out")
        old = json.loads((out / MANIFEST).read_text())
        def same(e: dict) -> dict:  # where the run lies is not part of it: a moved run directory resumes; nor is the
            return {k: v for k, v in e.items() if k not in ("out", "ai_games")}  # A.I. table played after its games

        if same(old.get("experiment") or {}) != same(json.loads(json.dumps(exp.to_dict()))):
            raise ExperimentError(f"out: {out} holds a different experiment; --resume needs the same experiment and flags")
        then, now = old.get("strategy_aliases", {}), strategy_aliases(exp)
        changed = sorted(a for a in now if a in then and then[a] != now[a])
        if changed:  # the rest of the run would be played by another player under the same name
            a = changed[0]
            raise ExperimentError(f"out: {out} was played with {a} = {then[a]}; {a} now names {now[a]}")
    elif out.exists() and any(out.iterdir()):
        raise ExperimentError(f"out: {out} exists and is not a run directory; choose an empty or new --out")


def make_run_dirs(out: Path, tables: tuple[str, ...]) -> None:
    """The run directory's folders, one a table of its game (after :func:`check_out`), without an
    interrupted shard's leftovers."""
    try:
        for t in tables:
            (out / t).mkdir(parents=True, exist_ok=True)
    except OSError as e:  # a parent that is a file, no permission
        raise ExperimentError(f"out: cannot make the run directory {out}: {e.strerror or e}; choose another --out") from None
    for tmp in list(out.glob("*/.*.tmp")):  # leftovers of an interrupted shard
        tmp.unlink()


def experiment_record(exp) -> dict:
    """The experiment as the TOML-shaped document :func:`trinidad.experiment.experiment_from_dict` reads
    (for workers): the game's ``record`` (which names the game when it is not Trinidad)."""
    return game_of(exp).record(exp)


def experiment_of_run(out: str | Path) -> dict:
    """The TOML-shaped experiment document a run directory was played from (its manifest), so that
    ``trinidad run --resume --out DIR`` needs no experiment file or flags."""
    from types import SimpleNamespace

    o = Path(out)
    if not (o / MANIFEST).exists():
        raise ExperimentError(f"out: {o}: no {MANIFEST} to resume (not a run directory)")
    e = json.loads((o / MANIFEST).read_text())["experiment"]
    game = game_named(e.get("game", DEFAULT), f"{o / MANIFEST}: experiment.game")
    ns = SimpleNamespace(**(e | {k: [SimpleNamespace(**v) for v in e[k]] for k in ("variants", "declared_variants")}))
    return game.record(ns)


def tiers_of_run(out: str | Path) -> list[tuple[str, dict]] | None:
    """(tier name, TOML-shaped experiment document) of a folder written by :func:`run_tiers`, or
    None when ``out`` is not one."""
    from analysis.data import TIERS_FILE

    f = Path(out) / TIERS_FILE
    if not f.exists():
        return None
    return [(t["name"], t["experiment"]) for t in json.loads(f.read_text())["tiers"]]


def git_dirty() -> bool:
    """Whether the checkout has uncommitted changes to tracked files (a measurement's page says so beside its commit)."""
    try:
        out = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=Path(__file__).parent,
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return False
    return bool(out.stdout.strip())
