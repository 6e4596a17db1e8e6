"""A run directory as lazy polars frames, with the derived per-seat columns every table uses.

``load_run(DIR)`` scans ``DIR/games/*.parquet`` and ``DIR/decades/*.parquet`` lazily and reads
``DIR/manifest.json``. Derived columns (added by :func:`prepare_games`):

- ``credit``: the seat's share of the win, ``winner / (winners in the game)``. The dataset marks
  every seat tied for first with ``winner = 1`` (and ``tie = 1``; Río de la Plata's tables: ``win = 1``);
  a k-way tie for first credits each of the k seats with 1/k of a win, so credits sum to exactly one
  per game and a "win rate" is the mean credit. Fair share is therefore exactly 1/N.
- ``margin``: final VP minus the best final VP among the other seats (positive for a sole winner,
  0 for a tied winner, negative otherwise).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from sim.state import VS_NAMES

GAME_KEY = ["variant", "players", "game"]
TRINIDAD = "trinidad"  # the game of a run whose manifest names none (trinidad.games)
TIE_RULE = ("A tie for first counts as a fractional win: each of the k seats tied for first (the dataset's winner = 1, "
            "tie = 1 rows) is credited 1/k of a win, so every game hands out exactly one win and the fair share "
            "of a seat is 1/N.")


AI_SCALE_FILE = "ai_scale.json"  # in a run directory: its strategies' beat rates against the Solo A.I. (trinidad.ai_scale)
TIERS_FILE = "tiers.json"  # in the output folder of an experiment with [[tiers]]: the tiers' run directories, strongest first


class RunError(ValueError):
    """The directory is not a (complete enough) run directory; one line naming what is missing."""


def vp_sources(columns) -> list[str]:
    """The VP-by-source columns present (``vp_<source>``), in the engine's source order."""
    cols = set(columns)
    known = [f"vp_{s}" for s in VS_NAMES if f"vp_{s}" in cols]
    extra = sorted(c for c in cols if c.startswith("vp_") and c not in known)  # sources added later by the engine
    return known + extra


def prepare_games(games: pl.LazyFrame | pl.DataFrame) -> pl.LazyFrame:
    """Add ``credit`` (fractional win, see module doc) and ``margin`` to a games table."""
    lf = games.lazy()
    names = lf.collect_schema().names()
    g = GAME_KEY if "variant" in names else ["players", "game"]
    won = pl.col("winner" if "winner" in names else "win").cast(pl.Float64)
    best = pl.col("vp").max().over(g)
    second = pl.col("vp").sort(descending=True).get(1).over(g)
    return lf.with_columns(
        (won / won.sum().over(g)).fill_nan(0.0).alias("credit"),
        (pl.col("vp").cast(pl.Int64) - pl.when(pl.col("vp") == best).then(second).otherwise(best).cast(pl.Int64)).alias("margin"),
    )


@dataclass
class Games:
    """One variant's games table read one shard file at a time, for the tables that need every
    game (win rates, finishes above, scores): memory is bounded by the largest shard, not the run.
    Every shard holds whole games, so ``credit`` and ``margin`` are computed within the shard."""

    files: list[Path]
    variant: str

    def columns(self) -> list[str]:
        """The games table's columns (the first shard's schema; every shard of a run has the same)."""
        return pl.scan_parquet(self.files[0]).collect_schema().names() if self.files else []

    def chunks(self, columns: list[str]):
        """Each shard's rows of the variant, with ``columns`` (``credit`` and ``margin`` derived)."""
        need = set(columns) - {"credit", "margin"}
        if {"credit", "margin"} & set(columns):
            need |= {"players", "game", "vp", "winner" if "winner" in self.columns() else "win"}
        base = [c for c in ("variant", "players", "game") if c in need] + sorted(need - {"variant", "players", "game"})
        for f in self.files:
            lf = pl.scan_parquet(f).filter(pl.col("variant").cast(pl.String) == self.variant).select(*base, "variant")
            df = prepare_games(lf).select(columns).collect() if {"credit", "margin"} & set(columns) else lf.select(columns).collect()
            if df.height:
                yield df


def sum_chunks(games, by: list[str], aggs: list[pl.Expr], columns: list[str]) -> pl.DataFrame:
    """``group_by(by).agg(aggs)`` over every chunk of ``games`` (a :class:`Games` or a frame),
    combined by summing: every aggregation must be a sum or a count."""
    if isinstance(games, (pl.DataFrame, pl.LazyFrame)):
        return games.lazy().select(*{*by, *columns}).group_by(by).agg(aggs).collect()
    parts = [c.group_by(by).agg(aggs) for c in games.chunks(list(dict.fromkeys([*by, *columns])))]
    if not parts:
        return pl.DataFrame()
    return pl.concat(parts).group_by(by).agg(pl.exclude(by).sum())


@dataclass
class Run:
    """A run directory: manifest, lazy games (with credit and margin) and decades tables."""

    path: Path
    manifest: dict
    games: pl.LazyFrame
    decades: pl.LazyFrame | None
    variants: list[str] = field(default_factory=list)
    detail: int | None = None  # games per player count kept by :meth:`subset` (None: every game)

    def game_counts(self) -> pl.DataFrame:
        """Games per (variant, players): the rows of seat 0, one per game (counting rows streams;
        counting distinct game indices would hash every game of a large run)."""
        return (self.games.filter(pl.col("seat") == 0).group_by(pl.col("variant").cast(pl.String), "players")
                .agg(pl.len().cast(pl.Int64).alias("games")).sort("variant", "players").collect(engine="streaming"))

    def shards(self) -> list[Path]:
        return sorted((self.path / "games").glob("*.parquet"))

    def all_games(self, variant: str | None = None) -> Games:
        """Every game of a variant, a shard at a time (see :class:`Games`)."""
        return Games(self.shards(), variant or self.baseline)

    def game_count(self) -> int:
        """The largest number of games of any (variant, player count): game indices run 0..count-1."""
        return int(self.games.select(pl.col("game").max()).collect().item()) + 1

    def subset(self, max_games: int, seed: int = 0) -> Run:
        """The run restricted to a random set of at most ``max_games`` game indices (the same
        indices for every variant and player count, so variants stay paired by seed), for the
        per-game tables whose memory grows with the games (Eras, Wars, the model, variants).
        Returns the run itself when it has no more games than that."""
        count = self.game_count()
        if count <= max_games:
            return self
        import numpy as np

        keep = pl.Series("game", np.sort(np.random.default_rng(seed).choice(count, max_games, replace=False)), dtype=pl.Int64)
        flt = pl.col("game").cast(pl.Int64).is_in(keep.implode())
        games = prepare_games(pl.scan_parquet(str(self.path / "games" / "*.parquet")).filter(flt))
        dec = self.decades.filter(flt) if self.decades is not None else None
        return Run(self.path, self.manifest, games, dec, self.variants, max_games)

    @property
    def game(self) -> str:
        """The game the run played (its manifest's ``game``; none: Trinidad)."""
        return self.manifest.get("game") or TRINIDAD

    def table(self, name: str) -> pl.LazyFrame | None:
        """Another table of the run (``DIR/<name>/*.parquet``, e.g. Río de la Plata's offices), every game, or None when it has none."""
        return pl.scan_parquet(str(self.path / name / "*.parquet")) if any((self.path / name).glob("*.parquet")) else None

    @property
    def baseline(self) -> str:
        """The variant the balance sections describe: the first one of the experiment."""
        return self.variants[0]

    def games_of(self, variant: str | None = None) -> pl.LazyFrame:
        return self.games.filter(pl.col("variant").cast(pl.String) == (variant or self.baseline))

    def decades_of(self, variant: str | None = None) -> pl.LazyFrame | None:
        if self.decades is None:
            return None
        return self.decades.filter(pl.col("variant").cast(pl.String) == (variant or self.baseline))

    def player_counts(self) -> list[int]:
        return sorted(self.games.select(pl.col("players").unique()).collect().to_series().to_list())

    def strategies(self) -> list[str]:
        return sorted(self.games.select(pl.col("strategy").cast(pl.String).unique()).collect().to_series().to_list())


def shard_rows(path: Path) -> int | None:
    """A Parquet file's row count from its footer, or None when the file cannot be read as Parquet
    (cut short, overwritten, not Parquet at all)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        return pq.read_metadata(path).num_rows
    except (OSError, ValueError, pa.ArrowException):
        return None


def bad_shards(run: Path) -> list[Path]:
    """The shard files of a run directory (games/, then its other tables: Trinidad's decades/) that cannot be read as Parquet."""
    others = sorted(d.name for d in run.iterdir() if d.is_dir() and d.name != "games") if run.is_dir() else []
    return [f for t in ("games", *others) for f in sorted((run / t).glob("*.parquet")) if shard_rows(f) is None]


def bad_shards_line(run: Path, command: str) -> str | None:
    """The one line naming a run's first unreadable shard file and the command that plays it again
    (``runs summarize``, ``report``), or None when every shard reads."""
    bad = bad_shards(run)
    if not bad:
        return None
    more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
    return f"{command}: {bad[0]} is not a readable Parquet file{more}; play it again with: trinidad run --resume --out {run}"


def load_run(path: str | Path) -> Run:
    """Open a run directory written by ``trinidad run`` (or :mod:`analysis.synthetic`)."""
    p = Path(path)
    if not (p / "manifest.json").exists():
        raise RunError(f"report: {p}: no manifest.json (not a run directory)")
    manifest = json.loads((p / "manifest.json").read_text())
    if not any((p / "games").glob("*.parquet")):
        raise RunError(f"report: {p}: no games/*.parquet yet (the run has no complete shard)")
    bad = bad_shards_line(p, "report")
    if bad:
        raise RunError(bad)
    games = prepare_games(pl.scan_parquet(str(p / "games" / "*.parquet")))
    decades = pl.scan_parquet(str(p / "decades" / "*.parquet")) if any((p / "decades").glob("*.parquet")) else None
    seen = games.select(pl.col("variant").cast(pl.String).unique()).collect().to_series().to_list()
    order = [v["name"] for v in manifest.get("variants", []) if v.get("name") in seen]
    variants = order + sorted(v for v in seen if v not in order)
    return Run(p, manifest, games, decades, variants)


def tier_dirs(folder: Path) -> list[Path] | None:
    """The run directories of a folder written by an experiment with ``[[tiers]]`` (its tiers.json),
    strongest first, or None when ``folder`` is not one."""
    f = folder / TIERS_FILE
    if (folder / "manifest.json").exists() or not f.exists():
        return None
    try:
        names = [t["out"] for t in json.loads(f.read_text())["tiers"]]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise RunError(f"report: {f}: not a tiers file ({e})") from None
    return [folder / n for n in names]
