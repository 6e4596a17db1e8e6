"""Trinidad in the harness (:class:`trinidad.games.spec.Game`): its experiment
(:mod:`trinidad.games.trinidad_experiment`), a chunk of its games played by the jitted batch kernel
(:mod:`trinidad.batch`) into the decades and games tables (the columns of :mod:`sim.schema`, the types
of :mod:`sim.dataset`), the Solo A.I. table a run may play after its games (:mod:`trinidad.ai_scale`),
its lines in ``trinidad runs summarize`` and its report (:func:`analysis.analyze`).

The engine is imported inside the functions that play: looking the game up loads no compiler."""

from __future__ import annotations

import contextlib
import json
import math
from pathlib import Path

import numpy as np
import polars as pl

from sim.dataset import NUMPY_TYPE, column_type
from sim.schema import DECADE_COLUMNS, GAME_COLUMNS
from sim.state import AI_STRATEGY, MAX_PLAYERS
from trinidad.games.frames import columns_first, enum_column, int_column
from trinidad.games.spec import Game

NAME = "trinidad"
TABLES = ("decades", "games")  # a shard's files, the games file last (sim.dataset)

_RULES_CACHE: dict = {}


def _variant_rules(exp, vi: int):
    """(resolved rules document, rules record) of a variant, built once per process."""
    from sim import compiled_parts
    from sim.rules import rules_from_doc

    key = (json.dumps(exp.to_dict(), sort_keys=True), tuple(sorted(compiled_parts.always_compiled())))
    if key not in _RULES_CACHE:  # every variant's document at once: a sweep's variants are many
        _RULES_CACHE[key] = exp.resolved_rules_docs()
    if (key, vi) not in _RULES_CACHE:
        doc = _RULES_CACHE[key][vi]
        _RULES_CACHE[(key, vi)] = (doc, rules_from_doc(doc))
    return _RULES_CACHE[(key, vi)]


def record_inputs(exp, players, vi: int, n: int, start: int, count: int) -> tuple[np.ndarray, dict]:
    """One shard's game indices and the arguments of :func:`trinidad.batch.play_batch` that play it
    (every input the games are a function of, the engine's code aside)."""
    from sim.rng import player_seeds

    _, rules = _variant_rules(exp, vi)
    gi = np.arange(start, start + count, dtype=np.int64)
    ns = exp.seats(n)  # with the A.I.: one more seat than players
    chars = exp.seat_characters(n, gi)
    return gi, dict(rules=rules, W=players.matrix(), n_players=ns, seeds=player_seeds(exp.seed, ns, start, count),
                    strategies=exp.seat_strategies(n, gi), characters=chars, first_game=exp.first_game,
                    paid=exp.seat_paid(n, chars))


def play_records(exp, players, vi: int, n: int, start: int, count: int, threads: int | None = None):
    """Play one shard's games: (game indices, seeds, decade records, game records) as arrays."""
    from trinidad.batch import play_batch

    gi, args = record_inputs(exp, players, vi, n, start, count)
    dec, gam = play_batch(threads=threads, **args)
    return gi, args["seeds"], dec, gam


BENCH_SEED = 7  # trinidad bench's games: sim.rng.game_seeds(BENCH_SEED, start, count)


def bench_play(rules, W, players: int, threads: int):
    """What ``trinidad bench`` plays of Trinidad (trinidad.bench.run_bench): ``play(start, count)`` plays games
    ``start .. start + count - 1`` of its fixed seeds, strategy 0 of ``W`` at every seat, on ``threads`` threads;
    the records are discarded, so memory stays flat however many chunks are played."""
    from sim.rng import game_seeds
    from trinidad.batch import play_batch

    def play(start: int, count: int) -> None:
        with np.errstate(over="ignore"):
            seeds = game_seeds(BENCH_SEED, start, count)
        play_batch(rules, W, players, seeds, np.zeros((count, players), np.int32), threads=threads)

    return play


def strategy_categories(exp) -> list[str]:
    """The games/decades tables' strategy names: the experiment's, then ``ai-<strength>`` for every
    A.I. strength of the rules (the A.I.'s seat, strategy id ``AI_STRATEGY``) when it plays."""
    from sim.rules import ai_strength_names

    names = exp.strategy_names()
    if exp.ai:
        names = names + [f"ai-{s}" for s in ai_strength_names(_variant_rules(exp, 0)[0])]
    return names


def tables(exp, vi: int, n: int, gi: np.ndarray, seeds: np.ndarray, dec: np.ndarray,
           gam: np.ndarray) -> tuple[pl.DataFrame, pl.DataFrame]:
    """A played shard's (decades, games) tables from its records (:func:`play_records`)."""
    from sim.rules import RK, character_names

    doc, rules = _variant_rules(exp, vi)
    names = strategy_categories(exp)
    ai_code = len(exp.strategy_names()) + int(rules.k[RK.AI_STRENGTH])  # the A.I.'s seat: ai-<the variant's strength>
    n = exp.seats(n)
    count = gi.shape[0]
    last = int(dec[0, :, 0, 0].astype(bool).sum()) if count else 12  # decades played (12, or 8 with the First Game Option)
    characters = character_names(doc)
    variants = [v.name for v in exp.variants]
    char_enum = pl.Enum(characters)
    strat_enum = pl.Enum(names)
    var_enum = pl.Enum(variants)

    def frame(arr: np.ndarray, cols: list[str], reps: int) -> pl.DataFrame:
        cols_first = columns_first(arr)
        rows = cols_first.shape[1]
        lo, hi = (cols_first.min(axis=1), cols_first.max(axis=1)) if rows else (np.zeros(len(cols)), np.zeros(len(cols)))
        body = [
            pl.Series("game", np.repeat(gi, reps)),
            pl.Series("seed", np.repeat(seeds, reps)),
            enum_column("variant", variants, var_enum, np.full(rows, vi, np.int32)),
            pl.Series("players", np.full(rows, n, np.int8)),
        ]
        for j, c in enumerate(cols):
            col = cols_first[j]
            if c == "character":
                body.append(enum_column(c, characters, char_enum, col))
            elif c == "strategy":
                body.append(enum_column(c, names, strat_enum, np.where(col == AI_STRATEGY, ai_code, col)))
            else:
                body.append(int_column(c, col, lo[j], hi[j], NUMPY_TYPE[column_type(c)]))
        return pl.DataFrame(body)

    # the played decades and seats, as views: columns_first reads them a block of games at a time
    return frame(dec[:, :last, :n, :], DECADE_COLUMNS, last * n), frame(gam[:, :n, :], GAME_COLUMNS, n)


def experiment(d: dict, where: str = "experiment"):
    from trinidad.games.trinidad_experiment import experiment_from_dict

    return experiment_from_dict(d, where)


def record(exp) -> dict:
    """The experiment as the TOML-shaped document :func:`experiment` reads (for workers)."""
    d = {
        "name": exp.name, "players": exp.players, "games": exp.games, "seed": exp.seed, "out": exp.out,
        "shard_games": exp.shard_games, "first_game": exp.first_game,
        "seats": {"strategies": exp.strategies, "assign": exp.seat_assign},
        "characters": {"assign": exp.char_assign} | ({"forced": exp.forced} if exp.char_assign == "forced" else {})
        | ({"prices": exp.prices} if getattr(exp, "prices", None) else {}),
        "rules": ({"file": exp.rules_file} if exp.rules_file else {}) | {"overrides": exp.overrides},
        # the file's variants: before the A.I.'s strengths and the sweeps' points, which the record's sweeps make again
        "variants": [{"name": v.name, "overrides": v.overrides} for v in (exp.declared_variants or exp.variants)],
    }
    if getattr(exp, "sweeps", None):  # a run recorded before sweeps has none
        from trinidad.games.sweeps import record as sweeps_record

        d["sweeps"] = sweeps_record(exp.sweeps)
    if exp.ai:
        d["ai"] = {"strength": exp.ai}
    if getattr(exp, "precision", None):  # likewise (a run recorded before precision has none)
        d["precision"] = exp.precision
    if getattr(exp, "ai_games", 0):  # a run played before the key was recorded asked for none
        d["ai_games"] = exp.ai_games
    return d


def players(exp):
    """The run's strategies, compiled once (workers are handed the weights)."""
    from strategies.registry import compile_players

    return compile_players(exp.strategy_names(), solo=bool(exp.ai))


def plays_alone(p) -> bool:
    """A Python strategy plays one chunk at a time (its objects need not be thread-safe)."""
    from strategies.registry import has_python

    return has_python(p.matrix())


def strategy_aliases(exp) -> dict[str, str]:
    """Each alias among the run's strategies (``best``) and the strategy it names now: the games
    table keeps the alias, the manifest what it stood for."""
    from strategies.registry import resolve

    solo = bool(exp.ai)  # games with the Solo A.I.: an alias's solo name (strategies.registry.resolve)
    return {n: resolve(n, solo) for n in exp.strategy_names() if resolve(n, solo) != n}


def record_ai_scale(exp, out: Path, ai_games: int, workers: int | None, progress: bool, say) -> None:
    """The run's strategies against the Solo A.I. at each strength (:func:`trinidad.ai_scale.measure`,
    ``ai_games`` games each, the run's seed and rules) into ``out``/ai_scale.json, where the report
    reads it; one already there of the same strategies, games and seed is kept (a resumed run)."""
    if ai_games < 1:
        return
    from trinidad import ai_scale

    names = exp.strategy_names()
    old = ai_scale.read(out)
    if old is not None and (old.strategies, old.games, old.seed) == (names, ai_games, exp.seed):
        return
    if progress:
        say(f"{', '.join(names)} against the Solo A.I. (weak to divinity), {ai_games:,} Solo games a strength...")
    scale = ai_scale.measure(names, ai_games, exp.seed, workers, exp.rules_file, exp.overrides, say=say if progress else None)
    ai_scale.write(scale, out)


def announce_ai_table(exp, ai_games: int, say) -> None:
    """Say, before any game, what the A.I. table asked for costs: every strategy of the run at every
    A.I. strength of its rules, ``ai_games`` Solo games each (issue 95: a run plays what it says)."""
    if ai_games < 1:
        return
    from sim.rules import ai_strength_names

    k, s = len(exp.strategy_names()), len(ai_strength_names(exp.resolved_rules_docs()[0]))
    say(f"asked for the A.I. table: after the games, {k} strateg{'y' if k == 1 else 'ies'} x {s} A.I. strengths x {ai_games:,} "
        f"= {k * s * ai_games:,} Solo games ({Path(exp.out) / 'ai_scale.json'})")


def solo_too(ai_games: int):
    """A run that then plays Solo games (``ai_games`` > 0) compiles the engine once, with the Solo
    A.I. in, rather than twice (sim.compiled_parts)."""
    if ai_games < 1:
        return contextlib.nullcontext()
    from sim import compiled_parts

    return compiled_parts.including(compiled_parts.SOLO_AI)


def summary(o: Path, m: dict) -> list[str]:
    """``trinidad runs summarize``'s lines of a Trinidad run: per variant and player count, its
    games, mean VP and ties; the win rate by Character; against the A.I.; what was played; the A.I. table."""
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
    lines = []
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


def rates(exp, n: int) -> list[tuple[str, str, str]]:
    """The rates a run with ``precision`` stops on (trinidad.runner.sequential): each Character's win
    rate, as the report's Character tables give it; with forced Characters, those dealt at the ``n``
    players' seats (the others never play)."""
    from sim.rules import character_names

    names = character_names(_variant_rules(exp, 0)[0])  # the games table's Characters (tables), read once a process
    if exp.char_assign == "forced":
        dealt = {c.lower() for c in exp.forced[:exp.seats(n)]}
        names = [c for c in names if c.lower() in dealt]
    return [("character", c, c) for c in names]


# [character] numbers that are not a Character card's: the player counts that get the small-game bonus
NOT_CHARACTER_NUMBERS = ("small_game_max_players",)


def balance_knobs(doc: dict) -> list[str]:
    """The rules keys ``trinidad balance`` moves when its spec names none (trinidad.balance): every integer of
    the rules file's ``[character]`` table (CARD REFERENCE > CHARACTER CARDS: the numbers printed on the 12
    Characters' cards), but for :data:`NOT_CHARACTER_NUMBERS`. Each is one Character's (the numbers the
    Carpenter, the Stonemason, the Merchant and the Sailmaker print alike are a key each), so each knob moves
    one card. The shorthands of the old shared keys (``most_vp``) are not numbers, so no default knobs (a spec
    may name one, to move its cards together)."""
    out = []
    for k, leaf in doc.get("character", {}).items():
        v = leaf.get("value") if isinstance(leaf, dict) else None
        if isinstance(v, int) and not isinstance(v, bool) and k not in NOT_CHARACTER_NUMBERS:
            out.append(f"character.{k}")
    return out


def balance_seats(exp, n: int) -> list[tuple[str, int, str]]:
    """Each seat's win rate at ``n`` players (``trinidad balance``'s ``target.seats``): seat s starts the game at
    turn position s (seat 0 first), labelled from 1 as a player counts them."""
    return [("seat", s, f"seat {s + 1}") for s in range(n)]


def solo_strengths(doc: dict) -> list[str]:
    """The Solo A.I.'s strengths in the rules (TWO PLAYERS GAME & SOLO MODE: ``solo.strengths``), weakest first."""
    from sim.rules import ai_strength_names

    return ai_strength_names(doc)


# the games table's columns a record target counts (docs/reference/dataset.md): its numbers, not the seat's identity
RECORD_COLUMNS = tuple(c for c in GAME_COLUMNS if c not in ("seat", "character", "strategy"))


def analyze(run, **options):
    """The report's sections of a Trinidad run (:func:`analysis.analyze`)."""
    from analysis import analyze as trinidad_sections

    return trinidad_sections(run, **options)


GAME = Game(
    name=NAME, title="Trinidad", tables=TABLES,
    default_experiment=Path(__file__).resolve().parents[1] / "experiments" / "default.toml",
    experiment=experiment, record=record, players=players, plays_alone=plays_alone, play=play_records, frames=tables,
    aliases=strategy_aliases, summary=summary, analyze=analyze,
    announce=announce_ai_table, after=record_ai_scale, engine_parts=solo_too, rates=rates,
    balance_knobs=balance_knobs, balance_setup={"characters": {"assign": "balanced"}},
    balance_seats=balance_seats, solo_strengths=solo_strengths, record_columns=RECORD_COLUMNS,
)
