"""The skill ladder, measured by ``trinidad ladder`` (trinidad.commands.ladder); its tables, page and
README blocks are :mod:`trinidad.ladder_page`.

Two measurements over a list of rungs (strategy names, weakest first; an alias such as ``best`` is
recorded with what it named):

- **Rung against rung.** Every pair of rungs plays a tournament at 4 players, two seats each,
  seats rotated on common seeds (:func:`trinidad.tournament.run_tournament`, the same games as
  ``trinidad tournament --strategies A,B --players 4``). Cell (A, B) of the matrix is A's win rate
  per seat-game against B with its Wilson 95% interval; the fair share is 25%, a clean sweep 50%,
  and cells (A, B) and (B, A) add up to 50% (a game's win rates sum to one).
- **Characters per rung.** Each rung plays alone in all 4 seats on the same balanced-Character
  deals (the built-in experiment's: ``trinidad run --players 4 --games N --seed S --strategies R``
  plays exactly these games). A Character's win rate (ties 1/k) gets its Wilson interval and a
  two-sided score test against the fair share 1/4, Holm-adjusted over the Characters of the rung
  (analysis.tables.win_rates, as the report computes it). At family-wise 5% the Character is
  *above* or *below* the fair share, else *level*.

  For each pair of rungs: Kendall's tau (tau-b, scipy.stats.kendalltau) between their Character
  win-rate vectors, its p-value and its bootstrap 95% interval over the deals
  (analysis.stats.tau_ci: whole deals resampled, both rungs' games of a deal together); the Characters **reversed** (above under one rung, below under
  the other) and those **significant under one rung only** (above or below under one, level
  under the other). A reversal is a sign change against the fair share that both rungs detect; a
  one-sided Character may be a sign change the other rung's games were too few to see. Paired by
  deal (analysis.stats.paired_groups): the Characters whose win rates **differ** between the rungs
  (paired t test, Holm), a permutation test that none does, and the tau two rungs alike would read
  on the same deals (each deal's two games swapped at random), so that a tau short of a goal can be
  told from the deals' noise. For each Character that differs, **where its VP moved**: its seats' VP
  by source (sim.state.VS_NAMES) under one rung minus under the other, paired seat-game by seat-game
  with a t interval (scipy.stats.ttest_rel), the sources that moved most first: whether a finding
  moved with how the players score (the City, the Council, the war) or with the deals.

- **Rung against the Solo A.I.** Each rung plays ``--ai-games`` Solo games against the rulebook's
  A.I. at each of its strengths (TWO PLAYERS GAME & SOLO MODE: weak, medium, strong, divinity),
  balanced Characters, the A.I. first in half of them, on common seeds
  (:func:`trinidad.ai_scale.measure`, which ``trinidad run`` also records for the report): the
  rung's beat rate with its Wilson 95% interval, a strength on the rulebook's own scale.

Pages: ``--write`` writes the whole page (docs/reference/ladder.md), ``--readme`` the blocks between
``<!-- ladder:begin/end -->`` and ``<!-- characters:begin/end -->`` of a page (README.md), each with
the commit it was measured at and the command.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from sim import compiled_parts
from trinidad import ai_scale
from trinidad.runner.manifest import cpu_model, git_commit, git_dirty

# the top rung is what `best` names (strategies/best.toml); the rung it replaced, -td61, is measured against it in
# docs/notebook/network.md ("It becomes `best`")
RUNGS = ["random", "greedy", "heuristic", "rollout", "search", "lab/search-long", "lab/search-long-nogrid-all",
         "lab/search-long-nogrid-all-td61-noship-nolot"]
# Played against the Solo A.I. beside the rungs (trinidad ladder --ai-also): `best` plays its Solo player there
# (best.toml's solo), the project's strongest against the A.I., which no 4-player rung plays
AI_ALSO = ["best"]
PLAYERS = 4
ALPHA = 0.05  # family-wise, over the Characters of one rung (Holm)
BLOCKS = ("ladder", "characters")  # the README's generated blocks
CHUNK_GAMES = 2048  # Character games per batch (the decade records are ~17 KB a game)


@dataclass
class Cell:
    """The row rung's win rate per seat-game against the column rung (two seats each)."""

    row: str
    col: str
    win_rate: float
    ci_low: float
    ci_high: float
    n: int  # the row rung's seat-games


@dataclass
class CharacterRate:
    character: str
    n: int  # seat-games
    win_rate: float
    ci_low: float
    ci_high: float
    p: float  # score test against 1/4
    p_holm: float  # over the Characters of the rung
    verdict: str  # above, below or level (p_holm < ALPHA)


@dataclass
class Agreement:
    a: str
    b: str
    tau: float  # Kendall tau-b of the two rungs' Character win rates
    p: float  # its two-sided p-value
    reversed: list[str]  # above under one rung, below under the other
    only_a: list[str]  # significant (above or below) under a, level under b
    only_b: list[str]
    # bootstrap 95% interval of tau, whole deals resampled (analysis.stats.tau_ci); NaN when not computed
    tau_low: float = float("nan")
    tau_high: float = float("nan")
    # paired by deal (analysis.stats.paired_groups); empty / NaN when not computed
    differ: list[str] = field(default_factory=list)  # Characters whose win rates differ (paired t, Holm over them)
    differ_points: list[float] = field(default_factory=list)  # each one's rate under a minus under b, points
    p_same: float = float("nan")  # permutation p of "the rungs win with every Character at the same rate"
    tau_same: float = float("nan")  # median tau of those permutations: two rungs alike on these deals
    # for each Character of `differ`, where its VP moved (:func:`moved_sources`): [{"source", "vp", "low", "high", "rivals"}],
    # the total VP first, then the sources that moved most; first rung minus second, per seat-game
    differ_sources: list[list[dict]] = field(default_factory=list)


@dataclass
class Ladder:
    rungs: list[str]
    games: int  # games per pair of rungs
    character_games: int  # games per rung, balanced Characters
    seed: int
    players: int
    commit: str
    dirty: bool
    cpu: str
    seconds: float
    cells: list[Cell]
    characters: dict[str, list[CharacterRate]]
    agreements: list[Agreement]
    aliases: dict[str, str] = field(default_factory=dict)  # each alias rung and the strategy it named
    ai: dict | None = None  # trinidad.ai_scale.AIScale.to_dict(): each rung's beat rate against the Solo A.I. (None: not played)
    seconds_by_part: dict[str, float] = field(default_factory=dict)
    # with --store: the games read back from it (played by an earlier run on the same engine code) and those played
    # by this run; without one, 0 and -1
    games_read: int = 0
    games_played: int = -1

    def cell(self, row: str, col: str) -> Cell:
        for c in self.cells:
            if c.row == row and c.col == col:
                return c
        raise KeyError((row, col))

    def to_dict(self) -> dict:
        return asdict(self)

    def against_ai(self) -> ai_scale.AIScale | None:
        """The rungs against the Solo A.I. (:class:`trinidad.ai_scale.AIScale`), or None."""
        return ai_scale.AIScale.from_dict(self.ai) if self.ai else None


class _Beat:
    """Says what is being played at once and every 30 s (lines that need no terminal): a pair with
    the rollout rung plays for minutes."""

    def __init__(self, say: Callable[[str], None], what: str) -> None:
        self.say, self.what = say, what

    def __enter__(self):
        self.t0 = time.perf_counter()
        self.stop = threading.Event()
        self.say(f"{self.what}...")

        def beat() -> None:
            while not self.stop.wait(30.0):
                self.say(f"  still playing {self.what} ({time.perf_counter() - self.t0:.0f} s)")

        self.thread = threading.Thread(target=beat, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join()
        self.seconds = time.perf_counter() - self.t0
        if exc[0] is None:
            self.say(f"  {self.what}: {self.seconds:.1f} s")


class Keeper:
    """Plays games as :func:`trinidad.tournament.played_records` does and keeps their records in a store
    (:func:`keeper`); counts the games it read back and those it played."""

    def __init__(self, store: Path) -> None:
        import joblib

        import sim
        from trinidad.store import stored_games

        self._kept = joblib.Memory(store, verbose=0).cache(stored_games, ignore=["threads"])
        self._engine = sim.engine_hash(Path(sim.__file__).resolve().parent.parent)
        self.games_read = 0
        self.games_played = 0

    def __call__(self, threads: int | None = None, **args) -> np.ndarray:
        from strategies.registry import has_python
        from trinidad.tournament import played_records

        n = len(args["seeds"])
        if has_python(args["W"]):
            self.games_played += n
            return played_records(threads, **args)
        if self._kept.check_call_in_cache(self._engine, threads, **args):
            self.games_read += n
        else:
            self.games_played += n
        return self._kept(self._engine, threads, **args)


def keeper(store: Path | None) -> Keeper | None:
    """What plays the ladder's games when a store keeps them (None without one): a ``play(threads, **args)`` of
    :func:`trinidad.tournament.played_records`' signature whose game records are kept in ``store`` and read back
    when the same arguments come again (:func:`trinidad.store.stored_games`: every input of the games and the
    engine's code, not the threads nor any strategy's name). Games of a strategy with Python parts (code the
    engine's hash does not cover) are always played."""
    return None if store is None else Keeper(store)


def play_pairs(rungs: list[str], games: int, seed: int, threads: int | None, say,
               play: Keeper | None = None) -> tuple[list[Cell], float]:
    """Every pair of rungs, seats rotated on common seeds: both cells of each pair; ``play``: the keeper of a store
    their games are kept in and read back from (:func:`keeper`; None: played)."""
    from trinidad.tournament import run_tournament

    cells = []
    t0 = time.perf_counter()
    for i, a in enumerate(rungs):
        for b in rungs[i + 1:]:
            with _Beat(say, f"{a} against {b}, {games:,} games"):
                res = run_tournament([a, b], players=PLAYERS, games=games, seed=seed, threads=threads, play=play)
            for row, col in ((a, b), (b, a)):
                s = res.stats(row)
                cells.append(Cell(row, col, s.win_rate, s.ci_low, s.ci_high, s.n))
    return cells, time.perf_counter() - t0


def character_experiment(rung: str, games: int, seed: int):
    """The built-in experiment with ``rung`` in every seat: 4 players, Characters balanced."""
    from trinidad.experiment import load_experiment

    exp = load_experiment(None, players=PLAYERS, games=games, seed=seed, strategies=[rung], out="runs/ladder")
    if exp.char_assign != "balanced":  # the page cites `trinidad run` for these games
        raise ValueError(f"the built-in experiment deals Characters {exp.char_assign!r}, the ladder needs balanced")
    return exp


class Played(NamedTuple):
    """A rung's games on the balanced deals (:func:`play_characters`), seat by seat."""

    chars: np.ndarray  # (games, seats): each seat's Character index (the rules' order)
    credit: np.ndarray  # (games, seats): its win credit (a tie for first among k seats: 1/k each)
    vp: np.ndarray  # (games, seats, 1 + N_VS): its final VP, then its VP by source (sim.state.VS_NAMES)


def play_characters(rung: str, games: int, seed: int, threads: int | None = None,
                    store: Path | None = None, play: Keeper | None = None) -> Played:
    """``rung`` in all 4 seats on the balanced deals: each seat's Character, win credit and VP by source.

    ``store``: a folder where the games are kept (:func:`keeper`) and from which they are read
    back when the same games come again: the same compiled strategy row (its weights, evaluation and
    networks), rules, deals, game count and engine code, under whatever name. A strategy with Python
    parts (whose code the engine's hash does not cover) is always played. ``play``: a keeper already made, instead
    of ``store``."""
    from sim.schema import RG
    from sim.state import N_VS
    from strategies.registry import compile_players
    from trinidad.games.trinidad import record_inputs
    from trinidad.tournament import played_records, win_credit

    exp = character_experiment(rung, games, seed)
    players = compile_players(exp.strategy_names())
    play = play or keeper(store) or played_records
    chars, credit, vp = [], [], []
    for a in range(0, games, CHUNK_GAMES):
        _, args = record_inputs(exp, players, 0, PLAYERS, a, min(CHUNK_GAMES, games - a))
        g = play(threads=threads, **args)[:, :PLAYERS, :]
        chars.append(g[:, :, RG.CHARACTER].astype(np.int64))
        credit.append(win_credit(g, PLAYERS))
        vp.append(np.concatenate([g[:, :, [RG.VP]], g[:, :, RG.VP_SRC:RG.VP_SRC + N_VS]], axis=2).astype(np.float64))
    return Played(np.concatenate(chars), np.concatenate(credit), np.concatenate(vp))


def moved_sources(a: Played, b: Played, character: int, shown: int | None = None) -> list[dict]:
    """Where ``character``'s VP moved between two rungs on the same deals (analysis.sensitivity.moved_sources:
    its final VP and the ``shown`` VP sources that moved most, first rung minus second, paired intervals, and
    its rivals' move)."""
    from analysis.sensitivity import SOURCES_SHOWN
    from analysis.sensitivity import moved_sources as moved
    from sim.state import VS_NAMES

    if not np.array_equal(a.chars, b.chars):
        raise ValueError("moved_sources: the two rungs' games are not the same deals")
    return moved(a.chars, a.vp, b.vp, character, VS_NAMES, SOURCES_SHOWN if shown is None else shown)


def rates_of(chars: np.ndarray, credit: np.ndarray) -> list[CharacterRate]:
    """Each Character's win rate over :func:`play_characters`' arrays, its Wilson CI, the score test
    against 1/4 with Holm over the Characters, and its verdict."""
    import polars as pl

    from analysis.tables import win_rates
    from sim.rules import character_names

    names = character_names()
    frame = pl.DataFrame({"players": np.full(chars.size, PLAYERS), "character": np.asarray(names)[chars.ravel()],
                          "credit": credit.ravel()})
    t = win_rates(frame, ["players", "character"], ["players"])
    out = {}
    for row in t.iter_rows(named=True):
        sig = row["p_holm"] < ALPHA
        verdict = "level" if not sig else "above" if row["win_rate"] > row["expected"] else "below"
        out[row["character"]] = CharacterRate(row["character"], int(row["n"]), row["win_rate"], row["win_rate_lo"],
                                              row["win_rate_hi"], row["p"], row["p_holm"], verdict)
    return [out[c] for c in names if c in out]  # the rules' Character order, on every rung


def character_rates(rung: str, games: int, seed: int, threads: int | None = None) -> list[CharacterRate]:
    """``rung`` in all 4 seats on the balanced deals: each Character's win rate (:func:`rates_of`)."""
    p = play_characters(rung, games, seed, threads)
    return rates_of(p.chars, p.credit)


def agreement(a: str, ra: list[CharacterRate], b: str, rb: list[CharacterRate],
              games: tuple[Played, Played] | None = None, seed: int = 0) -> Agreement:
    """How two rungs agree on the Characters (module docstring): Kendall tau, reversals, one-sided.
    With ``games`` (each rung's :func:`play_characters` on the same deals) also the bootstrap 95%
    interval of tau over those deals (analysis.stats.tau_ci, paired by deal) and, with the same
    Characters at the same seats, the Characters that differ and where their VP moved."""
    from scipy.stats import kendalltau

    from analysis.stats import paired_groups, tau_ci
    from sim.rules import character_names

    va = {r.character: r for r in ra}
    vb = {r.character: r for r in rb}
    common = [c for c in va if c in vb]
    res = kendalltau([va[c].win_rate for c in common], [vb[c].win_rate for c in common])
    lo = hi = p_same = tau_same = float("nan")
    differ: list[tuple[str, float]] = []
    sources: list[list[dict]] = []
    if games is not None:
        pa, pb = games
        ca, wa, cb, wb = pa.chars, pa.credit, pb.chars, pb.credit
        k = int(max(ca.max(), cb.max())) + 1
        lo, hi = tau_ci(ca, wa, cb, wb, k=k, paired=True, seed=seed)
        if np.array_equal(ca, cb):  # the same Characters at the same seats: the deals pair seat by seat
            pg = paired_groups(ca, wa, wb, k, seed=seed)
            names = character_names()
            hits = [c for c in range(k) if pg.p_holm[c] < ALPHA]
            differ = [(names[c], 100 * float(pg.diff[c])) for c in hits]
            sources = [moved_sources(pa, pb, c) for c in hits]
            p_same, tau_same = pg.p_same, pg.tau_same
    sig = ("above", "below")
    return Agreement(
        a, b, float(res.statistic), float(res.pvalue),
        reversed=[c for c in common if {va[c].verdict, vb[c].verdict} == set(sig)],
        only_a=[c for c in common if va[c].verdict in sig and vb[c].verdict == "level"],
        only_b=[c for c in common if vb[c].verdict in sig and va[c].verdict == "level"],
        tau_low=lo, tau_high=hi, differ=[c for c, _ in differ], differ_points=[d for _, d in differ],
        p_same=p_same, tau_same=tau_same, differ_sources=sources,
    )


def ai_players(rungs: list[str], also: list[str]) -> list[str]:
    """Who plays the Solo A.I.: the rungs, then each of ``also`` whose Solo player (an alias's, as
    best.toml's solo names it) none of those before it plays: the A.I. table shows each player once."""
    from strategies.registry import load_strategies, resolve

    if also:
        load_strategies(also, solo=True)
    out, seen = list(rungs), {resolve(r, solo=True) for r in rungs}
    for name in also:
        if resolve(name, solo=True) not in seen:
            out.append(name)
            seen.add(resolve(name, solo=True))
    return out


def measure(rungs: list[str], games: int, character_games: int, seed: int = 3, threads: int | None = None,
            say: Callable[[str], None] | None = None, ai_games: int = 0, ai_also: list[str] | None = None,
            store: Path | None = None) -> Ladder:
    """Play the ladder: every pair of rungs, then every rung on the balanced-Character deals, then
    (``ai_games`` > 0) every rung against the Solo A.I. at each strength, ``ai_games`` games each,
    and after the rungs each of ``ai_also`` whose Solo player no rung plays (:func:`ai_players`).
    ``store``: where all these games are kept and read back (:func:`keeper`): a ladder run again with a rung added
    plays only the new rung's games, and one stopped part way plays again only what it had not finished."""
    from strategies.registry import load_strategies, resolve

    say = say or (lambda _line: None)
    if len(rungs) < 2 or len(set(rungs)) != len(rungs):
        raise ValueError(f"rungs: give at least 2 distinct strategy names, got {','.join(rungs)!r}")
    if games < 1 or character_games < 1 or ai_games < 0:
        raise ValueError(f"games: must be >= 1 (the A.I. games >= 0), got {games}, {character_games} and {ai_games}")
    load_strategies(rungs)  # a bad name fails now, not after minutes of play
    against_ai = ai_players(rungs, ai_also or [])
    # the code a run plays is the code at its start: a commit made, or a file edited, during a run of hours must
    # not be recorded as what it measured
    commit, dirty = git_commit() or "unknown", git_dirty()
    t0 = time.perf_counter()
    kept = keeper(store)
    # with Solo games to come, the engine is compiled once with the Solo A.I. in (sim.compiled_parts)
    with compiled_parts.including(compiled_parts.SOLO_AI) if ai_games else contextlib.nullcontext():
        cells, pair_s = play_pairs(rungs, games, seed, threads, say, play=kept)
        chars, played = {}, {}
        t1 = time.perf_counter()
        for r in rungs:
            with _Beat(say, f"{r} in all {PLAYERS} seats, balanced Characters, {character_games:,} games"):
                played[r] = play_characters(r, character_games, seed, threads, play=kept)
                chars[r] = rates_of(played[r].chars, played[r].credit)
        char_s = time.perf_counter() - t1
        ai = None
        if ai_games:
            with _Beat(say, f"every rung against the Solo A.I., {ai_games:,} games a strength"):
                ai = ai_scale.measure(against_ai, ai_games, seed, threads, say=say, play=kept)
    agreements = [agreement(a, chars[a], b, chars[b], games=(played[a], played[b]), seed=seed)
                  for i, a in enumerate(rungs) for b in rungs[i + 1:]]
    return Ladder(rungs=rungs, games=games, character_games=character_games, seed=seed, players=PLAYERS,
                  commit=commit, dirty=dirty, cpu=cpu_model(), seconds=time.perf_counter() - t0,
                  cells=cells, characters=chars, agreements=agreements,
                  aliases={r: resolve(r) for r in rungs if resolve(r) != r}, ai=ai.to_dict() if ai else None,
                  seconds_by_part={"pairs": round(pair_s, 1), "characters": round(char_s, 1)}
                  | ({"ai": ai.seconds} if ai else {}),
                  games_read=kept.games_read if kept else 0, games_played=kept.games_played if kept else -1)
