"""Río de la Plata in the harness (:class:`trinidad.games.spec.Game`): its experiment
(:mod:`trinidad.games.rio_experiment`), a chunk of its games played by :func:`rio.play.play` (one call
a seat arrangement: a chunk's games are grouped by the players at their seats, every game a function
of its seed alone) into six tables, its lines in ``trinidad runs summarize`` and its report
(:func:`analysis.rio.analyze`).

The tables of a shard, every column named in lower case after the engine's enums (rio.engine.records,
rio.engine.state's ``VPS``, rio.engine.war_state's ``WR``, rio.keys), each row led by the game's key
columns (``game``, ``seed``, ``variant``, ``players``, ``level``, ``short``):

- ``games``: a game x seat: ``seat``, ``strategy``, every ``GR`` column (``vp``, ``rank``, ``start_position``,
  ``silver``, ``wood``, ``stone``, ``precious``, ``houses``, ``huts``, ``offices``, ``attacks``), the VP by
  source (``vp_<source>``), ``win`` (rank 0; ties share it) and ``tie`` (a win shared), then the game's own
  record repeated on each seat's row (``turns``, ``wars``, ``voyages``, ``walls_open``, ``sticks``, and
  ``major_<building>``: its completions);
- ``offices``: a game x Public Office: ``office``, ``owner`` (seat, -1 none), ``strategy`` (the owner's),
  ``turn`` (bought, -1 none);
- ``wars``: a game x war fought: ``war`` (its number in the game), the ``WR`` columns (``enemy`` by name,
  ``attacker`` a seat, ``forced``, ``roll``, ``attackers``, ``bonus``, ``cannon_kills``, ``tokens``, ``paid``,
  ``killed``, ``lost``, ``buildings``, ``attacker_vp``, ``defender_vp``, ``rounds``, ``survivors``) and
  ``attacker_strategy``;
- ``turns``: a game x turn x seat at the turn's end: ``turn`` (1, 2, ...), ``seat``, ``strategy`` and the ``TR``
  columns (``vp``, ``silver``, ``cubes``, ``houses``, ``position``);
- ``districts``: a game x district at the end (rio.engine.records' ``DR``): ``district`` (1..8, THE CITY
  DISTRICTS' numbers), ``value`` (what a House there adds to its 2 VP, as the end scoring counted it),
  ``road_connected``, ``closed`` (a perimeter district walled all round), ``access_points`` (open outer
  edges left), ``destroyed`` (buildings destroyed there in wars), then the buildings standing by kind:
  one column a minor building (``hut``, ``house``, ``stonecutter``, ... ``church``), ``palace`` and ``cathedral``;
- ``majors``: a game x Major building x seat (rio.engine.state's ``MR``): ``major``, the game's
  ``completions``, ``first_completer`` (the seat that completed it first, -1 never) and ``first_turn``
  (from 1, -1 never), then ``seat``, ``strategy``, ``completed`` (the seat's completions) and ``spaces``
  (grid spaces the seat's workers held at the completions: who built it).

``trinidad play --game rio-de-la-plata`` plays one game through :func:`play_one`, ``trinidad bench --game
rio-de-la-plata`` a seat table through :func:`bench_table`; both name their seats with :func:`seat_names`.

The engine is imported inside the functions that play: looking the game up loads no compiler."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

from trinidad.games import rio_experiment
from trinidad.games.frames import columns_first, enum_column, int_column
from trinidad.games.spec import BenchTable, Game

NAME = rio_experiment.GAME
TABLES = ("turns", "offices", "wars", "districts", "majors", "games")  # a shard's files, the games file last

_INT8 = {"players", "seat", "rank", "start_position", "win", "tie", "owner", "war", "attacker", "forced", "position", "district",
         "road_connected", "closed", "first_completer"}
_INT32 = {"vp", "attacker_vp", "defender_vp"}


def column_type(col: str) -> type:
    """The numpy integer type of a Río table's column: VP int32, seats and flags int8, the rest int16."""
    if col in _INT32 or col.startswith("vp_"):
        return np.int32
    return np.int8 if col in _INT8 else np.int16


_RULES: dict = {}


def _variant_rules(exp, vi: int):
    """A variant's packed rules, once per process (rio.play keeps its map geometry by rules object)."""
    key = json.dumps(exp.to_dict(), sort_keys=True)
    if key not in _RULES:  # every variant's document at once: a sweep's variants are many
        _RULES[key] = exp.resolved_rules_docs()
    if (key, vi) not in _RULES:
        from rio.rules import pack

        _RULES[(key, vi)] = pack(_RULES[key][vi])
    return _RULES[(key, vi)]


def play_records(exp, players, vi: int, n: int, start: int, count: int, threads: int | None = None):
    """Play ``count`` games from game ``start``: (game indices, seeds, strategy ids by game and seat,
    rio.engine.records.Records). The seeds are :func:`gamekit.rng.player_seeds` (common to every variant)."""
    from gamekit.rng import player_seeds
    from rio.engine.records import Records
    from rio.play import play

    r, v = _variant_rules(exp, vi), exp.variants[vi]
    gi = np.arange(start, start + count, dtype=np.int64)
    seeds = player_seeds(exp.seed, n, start, count)
    strat = exp.seat_strategies(n, gi)
    names = exp.strategy_names()
    lineups, which = np.unique(strat, axis=0, return_inverse=True)
    out = None
    for j, lineup in enumerate(lineups):
        rows = np.nonzero(which.ravel() == j)[0]
        rec = play(r, n, v.level, v.short, seeds[rows], [names[i] for i in lineup])
        if out is None:
            out = Records(*(np.empty((count, *a.shape[1:]), a.dtype) for a in rec))
        for whole, part in zip(out, rec, strict=True):
            whole[rows] = part
    return gi, seeds, strat, out


def built_kinds() -> list[str]:
    """The ``districts`` table's building columns, in rio.engine.records' ``DR.BUILDINGS`` order: the minor
    buildings (rio.keys.Building), then the Palace and the Cathedral (rio.engine.state.SPACE_PALACE, SPACE_CATHEDRAL)."""
    from rio.keys import Building, Major, member_names

    return [*member_names(Building), Major.PALACE.name.lower(), Major.CATHEDRAL.name.lower()]


def games_columns() -> list[str]:
    """The ``games`` table's columns after its keys, ``seat`` and ``strategy``, in order: every ``GR`` column, the VP
    by source, ``win``, ``tie``, then the game's own record (``turns`` ... ``major_<building>``)."""
    from rio.engine.records import GG, GR
    from rio.engine.state import VPS
    from rio.keys import Major, member_names

    return ([m.name.lower() for m in GR if m < GR.VPS] + [f"vp_{m.name.lower()}" for m in VPS] + ["win", "tie"]
            + [m.name.lower() for m in GG if GG.SHORT < m < GG.MAJORS] + [f"major_{x}" for x in member_names(Major)])


# the games table's columns a record target of ``trinidad balance`` counts (docs/reference/dataset.md): its numbers,
# not the seat's identity (its start position is among the groups)
RECORD_COLUMNS = tuple(c for c in games_columns() if c != "start_position")


def tables(exp, vi: int, n: int, gi: np.ndarray, seeds: np.ndarray, strat: np.ndarray, rec) -> tuple[pl.DataFrame, ...]:
    """A played chunk's tables from its records (:func:`play_records`), in :data:`TABLES`' order."""
    from rio.engine.records import DR, GG, GR, TR
    from rio.engine.state import MR
    from rio.engine.war_state import WR
    from rio.keys import Enemy, Major, Office, member_names

    v = exp.variants[vi]
    names = exp.strategy_names()
    strat_enum, var_enum = pl.Enum(names), pl.Enum([x.name for x in exp.variants])
    level_enum = pl.Enum(rio_experiment.LEVELS)

    def keys(g: np.ndarray) -> list[pl.Series]:
        """The key columns of rows of the games at chunk positions ``g``."""
        rows = len(g)
        return [pl.Series("game", gi[g]), pl.Series("seed", seeds[g]),
                enum_column("variant", var_enum.categories.to_list(), var_enum, np.full(rows, vi, np.int32)),
                pl.Series("players", np.full(rows, n, np.int8)),
                enum_column("level", rio_experiment.LEVELS, level_enum, np.full(rows, rio_experiment.LEVELS.index(v.level), np.int32)),
                pl.Series("short", np.full(rows, v.short, bool))]

    def ints(cols: list[str], arr: np.ndarray) -> list[pl.Series]:
        """Integer columns from a (rows x columns) record array."""
        first = columns_first(arr)
        lo, hi = (first.min(axis=1), first.max(axis=1)) if first.shape[1] else (np.zeros(len(cols)), np.zeros(len(cols)))
        return [int_column(c, first[j], lo[j], hi[j], column_type(c)) for j, c in enumerate(cols)]

    def strategy(name: str, codes: np.ndarray) -> pl.Series:
        return enum_column(name, names, strat_enum, codes)

    count = len(gi)
    # games: a game x seat
    g, s = np.repeat(np.arange(count), n), np.tile(np.arange(n), count)
    seat = rec.seat[:, :n, :].reshape(-1, rec.seat.shape[2])
    win = (seat[:, GR.RANK] == 0).astype(np.int32)
    winners = win.reshape(count, n).sum(axis=1)
    games = pl.DataFrame([*keys(g), pl.Series("seat", s.astype(np.int8)), strategy("strategy", strat[g, s]),
                          *ints(games_columns(), np.concatenate([seat, win[:, None], (win * (winners[g] > 1))[:, None],
                                                                 rec.game[g][:, GG.TURNS:]], axis=1))])
    # offices: a game x office
    k = len(Office)
    g = np.repeat(np.arange(count), k)
    office = rec.office.reshape(-1, 2)
    owner = office[:, 0]
    offices = pl.DataFrame([*keys(g), enum_column("office", member_names(Office), pl.Enum(member_names(Office)), np.tile(np.arange(k), count)),
                            *ints(["owner", "turn"], office), strategy("strategy", strat[g, np.maximum(owner, 0)])])
    offices = offices.with_columns(pl.when(pl.col("owner") >= 0).then(pl.col("strategy")).alias("strategy"))
    # wars: a game x war fought
    g, w = np.nonzero(rec.war[:, :, WR.ENEMY] >= 0)
    war = rec.war[g, w]
    enemy = pl.Enum(member_names(Enemy))
    war_cols = [m.name.lower() for m in WR if m != WR.ENEMY]
    wars = pl.DataFrame([*keys(g), pl.Series("war", w.astype(np.int8)), enum_column("enemy", member_names(Enemy), enemy, war[:, WR.ENEMY]),
                         *ints(war_cols, np.delete(war, WR.ENEMY, axis=1)),
                         strategy("attacker_strategy", strat[g, np.clip(war[:, WR.ATTACKER], 0, n - 1)])])
    # turns: a game x turn x seat
    t = rec.turn.shape[1]
    g, turn, s = (a.ravel() for a in np.meshgrid(np.arange(count), np.arange(t), np.arange(n), indexing="ij"))
    turns = pl.DataFrame([*keys(g), pl.Series("turn", (turn + 1).astype(np.int16)), pl.Series("seat", s.astype(np.int8)),
                          strategy("strategy", strat[g, s]), *ints([m.name.lower() for m in TR], rec.turn[:, :, :n, :])])
    # districts: a game x district at the end
    nd = rec.district.shape[1]
    g, d = np.repeat(np.arange(count), nd), np.tile(np.arange(nd), count)
    districts = pl.DataFrame([*keys(g), pl.Series("district", (d + 1).astype(np.int8)),  # numbered from 1, as THE CITY DISTRICTS
                              *ints([*(m.name.lower() for m in DR if m < DR.BUILDINGS), *built_kinds()], rec.district)])
    # majors: a game x Major building x seat
    k = len(Major)
    g, mj, s = (a.ravel() for a in np.meshgrid(np.arange(count), np.arange(k), np.arange(n), indexing="ij"))
    log, row = rec.major[g, mj], np.arange(len(g))
    game_part = np.stack([rec.game[g, GG.MAJORS + mj], log[:, MR.FIRST_COMPLETER], log[:, MR.FIRST_TURN]], axis=1)
    seat_part = np.stack([log[row, MR.COMPLETED + s], log[row, MR.SPACES + s]], axis=1)
    majors = pl.DataFrame([*keys(g), enum_column("major", member_names(Major), pl.Enum(member_names(Major)), mj),
                           *ints(["completions", "first_completer", "first_turn"], game_part),
                           pl.Series("seat", s.astype(np.int8)), strategy("strategy", strat[g, s]),
                           *ints(["completed", "spaces"], seat_part)])
    return turns, offices, wars, districts, majors, games


def players(exp) -> tuple[str, ...]:
    """The run's players: their names (rio.play reads each at every call; checked when the experiment was read)."""
    return tuple(exp.strategy_names())


def summary(o: Path, m: dict) -> list[str]:
    """``trinidad runs summarize``'s lines of a Río de la Plata run: per variant and player count, its
    games, mean VP, ties, wars and offices a game; then the win rate by strategy (a win shared among k
    seats counts 1/k)."""
    games = pl.scan_parquet(str(o / "games" / "*.parquet"))
    by = ["variant", "players"]
    credit = pl.col("win") / pl.col("win").sum().over(*by, "game")
    tied = (games.filter(pl.col("tie") == 1).select(*by, "game").unique().group_by(*by).agg(pl.len().alias("tied"))
            .collect(engine="streaming"))
    per = (games.group_by(*by).agg(pl.len().alias("rows"), pl.col("vp").mean().alias("vp"), pl.col("wars").mean().alias("wars"),
                                   pl.col("offices").mean().alias("offices"))
           .sort(*by).collect(engine="streaming").join(tied, on=by, how="left"))
    lines = []
    for r in per.iter_rows(named=True):
        n_games = r["rows"] // r["players"]
        lines.append(f"  {r['variant']} / {r['players']} players: {n_games:,} games, mean VP {r['vp']:.1f}, {r['wars']:.2f} wars and "
                     f"{r['offices'] * r['players']:.1f} Public Offices a game, games with a tie for first {(r['tied'] or 0) / n_games:.1%}")
    st = (games.with_columns(credit.alias("credit")).group_by(*by, "strategy")
          .agg(pl.len().alias("n"), pl.col("credit").mean().alias("win"), pl.col("vp").mean().alias("vp"))
          .sort(*by, "win", descending=[False, False, True]).collect())
    for (var, n), grp in st.group_by(by, maintain_order=True):
        lines.append(f"  win rate by strategy ({var}, {n} players; fair share {1 / n:.1%}; a tie for first shares the win):")
        for r in grp.iter_rows(named=True):
            lines.append(f"    {str(r['strategy']):<14} {r['win']:6.1%}  mean VP {r['vp']:6.1f}  ({r['n']:,} seats)")
    return lines


def rates(exp, n: int) -> list[tuple[str, object, str]]:
    """The rates a run with ``precision`` stops on (trinidad.runner.sequential), as the report's
    strategy and start-position tables give them: each strategy's win rate (when the ``n`` seats hold
    more than one: a strategy at every seat wins exactly 1/n) and each start position's (1 = first on
    the order track)."""
    seated = list(dict.fromkeys(exp.lineup(n)))
    return ([("strategy", s, f"strategy {s}") for s in seated] if len(seated) > 1 else []) + [
        ("start_position", p, f"start position {p + 1}") for p in range(n)]


def analyze(run, **options):
    """The report's sections of a Río de la Plata run (:func:`analysis.rio.analyze`)."""
    from analysis.rio import analyze as rio_sections

    return rio_sections(run, **options)


# ----------------------------------------------------------------------------- trinidad play and trinidad bench

TABLE = ("heuristic", "builder", "officer", "merchant", "contractor")  # the default seats: the first ``players``
BENCH_SEED = 7  # trinidad bench's games: gamekit.rng.player_seeds(BENCH_SEED, players, start, count)
BENCH_GAMES = 1000  # its default games without a search seat (the heuristic table: a few seconds on one core)


def seat_names(strategies: str | None, players: int | None) -> list[str]:
    """A player name per seat (rio.play's names) from ``--strategies`` (one name for every seat or one a seat,
    comma-separated; none: the first ``players`` of :data:`TABLE`, the heuristic and the archetypes) and
    ``--players`` (2..5; none: the list's length, else 4). Each name and its settings checked as a run's
    (:func:`trinidad.games.rio_experiment.check_players`); a bad one is a ValueError, one line led by the option."""
    from rio.keys import PLAYER_COUNTS
    from rio.play import PlayerError
    from strategies.registry import split_names  # names with settings keep their commas (search:budget=16,width=4)

    names = split_names(strategies) if strategies else []
    n = players if players is not None else len(names) if len(names) > 1 else 4
    if n not in PLAYER_COUNTS:
        raise ValueError(f"players: must be {PLAYER_COUNTS[0]}..{PLAYER_COUNTS[-1]}, got {n}")
    names = list(TABLE[:n]) if not names else names * n if len(names) == 1 else names
    if len(names) != n:
        raise ValueError(f"strategies: give one player or one a seat ({n}), got {len(names)}")
    try:
        rio_experiment.check_players(names)
    except PlayerError as e:
        raise ValueError(f"strategies: {e}") from None
    return names


def level_name(level: str | None) -> str:
    """``--level``: an experience level (HOW TO LEARN THE GAME; none: expert); another word is a ValueError, one line."""
    if level is None:
        return "expert"
    if level not in rio_experiment.LEVELS:
        raise ValueError(f"level: allowed: {', '.join(rio_experiment.LEVELS)}, got {level!r}")
    return level


def rules(path: str | Path | None = None):
    """The packed rules: the bundled file with the overrides of the TOML file ``path`` (``--rules``); a bad file or
    key is a ValueError, one line (rio.rules' own, which starts with ``rules:``)."""
    from rio.rules import RulesError, load_rules

    try:
        return load_rules(None, path)
    except RulesError as e:
        raise ValueError(str(e)) from None


def play_one(r, seats: list[str], level: str, short: bool, seed: int) -> dict:
    """One game (:func:`rio.play.play`, the game a function of ``seed`` alone, as a run's game of that seed is) as a
    JSON-shaped result: per seat its player, VP and rank (1 the winner; a tie shares it), start position (1 first on
    the order track), VP by source (rio.engine.state's ``VPS``, the games table's ``vp_`` columns; those not zero),
    resources at the end (before the money's VP), Houses, Huts, the Public Offices it bought (and the turn) and the
    wars it led; then each war fought (rio.engine.war_state's ``WR``) and how it ended (Río de la Plata's rulebook,
    "End of the War")."""
    from rio.engine.records import GG, GR
    from rio.engine.state import VPS
    from rio.engine.war_state import WR
    from rio.keys import Enemy, Office, member_names
    from rio.play import play

    n = len(seats)
    rec = play(r, n, level, short, np.array([seed], np.uint64), seats)
    offices, enemies = member_names(Office), member_names(Enemy)
    rows = []
    for s in range(n):
        g = rec.seat[0, s]
        rows.append({
            "seat": s, "strategy": seats[s], "vp": int(g[GR.VP]), "rank": int(g[GR.RANK]) + 1,
            "start_position": int(g[GR.START_POSITION]) + 1,
            "vp_by_source": {m.name.lower(): int(g[GR.VPS + m]) for m in VPS if g[GR.VPS + m]},
            "resources": {k.name.lower(): int(g[k]) for k in (GR.SILVER, GR.WOOD, GR.STONE, GR.PRECIOUS)},
            "houses": int(g[GR.HOUSES]), "huts": int(g[GR.HUTS]), "attacks": int(g[GR.ATTACKS]),
            "offices": [{"office": offices[o], "turn": int(rec.office[0, o, 1])} for o in range(len(offices)) if rec.office[0, o, 0] == s],
        })
    wars = []
    for w in np.nonzero(rec.war[0, :, WR.ENEMY] >= 0)[0]:
        x = rec.war[0, w]
        survivors = int(x[WR.SURVIVORS])
        wars.append({"war": int(w) + 1, "enemy": enemies[int(x[WR.ENEMY])], "attacker": int(x[WR.ATTACKER]),
                     "forced": bool(x[WR.FORCED]), "attackers": int(x[WR.ATTACKERS]), "destroyed": int(x[WR.KILLED] + x[WR.CANNON_KILLS]),
                     "lost": int(x[WR.LOST]), "buildings": int(x[WR.BUILDINGS]), "attacker_vp": int(x[WR.ATTACKER_VP]),
                     "defender_vp": int(x[WR.DEFENDER_VP]), "rounds": int(x[WR.ROUNDS]), "survivors": survivors,
                     # End of the War: no attacking token left, or some standing when the rounds ran out
                     # (war.rounds_without_battle without a battle, or war.max_rounds)
                     "outcome": "all destroyed" if survivors == 0 else f"{survivors} standing"})
    winners = [row["seat"] for row in rows if row["rank"] == 1]
    return {"game": NAME, "players": n, "seed": int(seed), "level": level, "short": bool(short),
            "turns": int(rec.game[0, GG.TURNS]), "seats": rows, "wars": wars, "winner": winners[0] if len(winners) == 1 else winners}


def bench_table(strategies: str | None = None, players: int | None = None, level: str | None = None, short: bool = False) -> BenchTable:
    """What ``trinidad bench --game rio-de-la-plata`` measures (trinidad.bench.measure_table): the seats of
    :func:`seat_names` at experience ``level`` (:func:`level_name`), the Short game if ``short``, playing games of the
    bundled rules on the seeds :data:`BENCH_SEED` gives, on one thread (rio.play plays a batch in one). Its default
    games: :data:`BENCH_GAMES`, and with search seats that many divided by what their decisions simulate (search
    seats x budget x (1 + depth) turns; at least 4), so that a search table's bench lasts about as long as a one-step
    table's (a count that follows from the table, never a time: 15 games of search at two seats take about 9 core-s,
    1,000 of the heuristic table about 3.4). A bad option is a ValueError, one line led by the option."""
    from gamekit.rng import player_seeds
    from rio.play import parse_player, play

    seats, level = seat_names(strategies, players), level_name(level)
    n, r = len(seats), rules()
    table = [parse_player(s) for s in seats]
    searching = [t for t in table if t.settings]
    budget = dict(searching[0].settings) if searching else {}  # one setting a table (rio.play checks it)
    sims = len(searching) * budget.get("budget", 0) * (1 + budget.get("depth", 0))

    def run(start: int, count: int) -> None:
        play(r, n, level, short, player_seeds(BENCH_SEED, n, start, count), seats)

    return BenchTable(strategy=",".join(seats), seats=tuple(seats), family="+".join(dict.fromkeys(t.kind.name.lower() for t in table)),
                      budget=budget, default_games=max(4, BENCH_GAMES // sims) if sims else BENCH_GAMES, play=run,
                      setup={"level": level, "short": short, "seed": BENCH_SEED})


GAME = Game(
    name=NAME, title="Río de la Plata", tables=TABLES, default_experiment=rio_experiment.DEFAULT_EXPERIMENT,
    experiment=rio_experiment.experiment_from_dict, record=rio_experiment.record, players=players,
    plays_alone=lambda _players: False, play=play_records, frames=tables, aliases=lambda _exp: {}, summary=summary,
    analyze=analyze, rates=rates, bench=bench_table, record_columns=RECORD_COLUMNS,
)
