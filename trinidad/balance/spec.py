"""The spec of ``trinidad balance`` (trinidad.balance): which rules numbers may move and how far, the
target, the player and the budget, read from a TOML file and checked against the game's rules before any
game is played (every bad input one :class:`BalanceError` line naming its key)::

    name = "captain-bishop"
    game = "trinidad"            # the game (trinidad.games); default trinidad
    players = [4]                # the player counts of the target
    seed = 1                     # the search's and the verification's seeds derive from it
    player = "best"              # every seat (default best; heuristic for cheap runs)
    budget = 60000               # games the search may play, every round, variant and player count
    rounds = 3                   # confirming rounds after the first linearisation
    # recheck_games = 2400       # the best point rechecked on fresh deals (default verify_games; 0: none); recheck_steps = 1: steps from it
    verify_games = 2400          # games per variant and player count of the verification run
    # verify_ai_games = 240      # the player against the Solo A.I. at every strength, rules and proposal (a multiple of 24)
    # check_player = "heuristic" # the proposal verified again by another player
    # out = "runs/balance-captain-bishop"

    [target]
    tolerance = 0.04             # every group within +-4 points of its fair share 1/N
    # groups = ["Captain", "Bishop"]   # the groups held to it (default: every group the game reports)
    # seats = 0.03               # every seat (turn position) within +-3 points of 1/N

    # [[target.ai]]              # the player's beat rate against the Solo A.I. at a strength (Solo games, in the budget)
    # strength = "strong"
    # rate = 0.5                 # within +-tolerance (default target.tolerance) of a rate, or a band:
    # # min = 0.4
    # # max = 0.6

    # [[target.records]]         # how often a games-table column holds a record (docs/reference/dataset.md)
    # column = "built_palace"
    # at_least = 1               # the record: the column at least this (default 1)
    # per = "game"               # a game holds it when a seat does (default), or "seat": the share of seats
    # min = 0.10                 # a band (min and/or max), or rate and tolerance

    [rules]                      # the rules the search starts from (as an experiment's [rules])
    # file = "my_rules.toml"
    # overrides.setup.start_wood = 3
    # overrides = "runs/balance-captain-bishop/proposal.toml"   # or an override file: an earlier run's proposal

    [[knobs]]                    # default: the game's (Trinidad: the numbers of the Characters' cards)
    key = "character.captain_vp" # a rules number (dotted, as in [rules] overrides)
    min = 2                      # bounds, on the grid (default 0 and twice the value)
    max = 12
    step = 1                     # the grid: values are the rules' value + a whole number of steps (default 1)
    probe = 2                    # the finite difference (default about a quarter of the value, on the grid)
"""

from __future__ import annotations

import copy
import difflib
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from rulesfile import read_toml, shorthands
from trinidad.games import DEFAULT, Game, game_named
from trinidad.games.keys import ExperimentError, override_file_or_table
from trinidad.games.sweeps import has_rule, leaf, merge, nest

TOP_KEYS = ("name", "game", "out", "players", "seed", "player", "check_player", "budget", "rounds", "recheck_games", "recheck_steps",
            "verify_games", "verify_ai_games", "target", "rules", "knobs")
TARGET_KEYS = ("tolerance", "groups", "seats", "ai", "records")
AI_KEYS = ("strength", "rate", "tolerance", "min", "max")
RECORD_KEYS = ("column", "at_least", "per", "rate", "tolerance", "min", "max")
PER = ("game", "seat")
KNOB_KEYS = ("key", "min", "max", "step", "probe")

BLOCK = 12  # a round's games per variant: a multiple of Trinidad's deal block (every Character once at every seat; harmless elsewhere)
# with Solo A.I. targets: the Solo games' block (trinidad.ai_scale: the A.I. first in every other block of 12, so every 24
# games each Character plays once before and once after it), and the multi-player games' too, as they are as many
SOLO_BLOCK = 24
MIN_GAMES = 2 * BLOCK  # the fewest games a variant of a round is worth playing
PLANNED_MOVES = 2  # knobs a confirming round is planned to probe beside its point (the budget's plan, :meth:`Spec.round_games`)
DIAGNOSE_SHARE = 0.15  # of the budget, kept for measuring the game's other knobs where the target is not reached
DEFAULT_ROUNDS, MAX_ROUNDS, DEFAULT_RECHECK_STEPS = 3, 20, 1
DEFAULT_TOLERANCE = 0.04
DEFAULT_VERIFY_GAMES = 2400
SEED_TAG = 0xBA1A  # the derived seeds' stream (numpy SeedSequence entropy beside the spec's seed)
SEARCH, VERIFY, RECHECK = 0, 1, 2  # the purposes a seed is derived for


class BalanceError(ValueError):
    """A balance spec is invalid; the message is one line naming the key."""


def bad(key: str, msg: str) -> BalanceError:
    return BalanceError(f"balance: {key}: {msg}")


@dataclass(frozen=True)
class Knob:
    """A rules number the search may move: its value in the spec's rules (the grid's anchor), bounds, grid
    step and finite difference; ``allowed`` False for the game's knobs the spec left out (measured only to
    say which knob a target out of reach would need)."""

    key: str
    value: int | float
    lo: int | float
    hi: int | float
    step: int | float
    probe: int | float
    allowed: bool = True


class Row(NamedTuple):
    """A rate the target holds (the search's row): at ``players`` (1: the Solo game, the player and the A.I.), the mean
    over games of an observation of the games table: for ``kind`` "groups" and "seats" the win credit of the seats whose
    ``column`` holds ``value`` (a Character, a seat; a tie for first shares the win); "records": whether a seat's
    ``column`` is at least ``value`` (``per`` "game": any seat's; "seat": the share of seats); "ai": the player's win
    credit against the Solo A.I. at the strength ``value``. It must lie in [lo, hi]; ``centre`` (NaN: none) is what its
    squared deviation, the objective's tie-break, is measured from (analysis.balance_search.Band)."""

    players: int
    column: str
    value: Any
    label: str
    kind: str = "groups"
    lo: float = 0.0
    hi: float = 1.0
    centre: float = math.nan
    per: str = "seat"


@dataclass
class Spec:
    path: Path
    game: Game
    name: str
    out: Path
    players: list[int]  # (as the file gives them until the experiment has read them)
    seed: int
    player: str
    check_player: str | None
    budget: int
    rounds: int
    verify_games: int
    tolerance: float
    groups: list[str] | None
    rules_file: str | None
    overrides: dict
    knobs: list[Knob]
    others: list[Knob] = field(default_factory=list)  # the game's default knobs the spec does not allow
    rows: list[Row] = field(default_factory=list)  # the target's rates: the groups, then the seats, the records, the A.I.'s beat rates
    seat_tolerance: float | None = None
    verify_ai_games: int = 0  # the verification's Solo games a variant and A.I. strength (0: none)
    solo_strengths: list[str] = field(default_factory=list)  # every strength of the rules' Solo A.I. (the verification's)
    targets: list[str] = field(default_factory=list)  # each target in words (the summary)
    recheck_games: int = 0  # the recheck's games a variant, player count and A.I. strength (0: none; :attr:`recheck`)
    recheck_steps: int = DEFAULT_RECHECK_STEPS  # the recheck's steps, each from the best point it has read

    @property
    def strengths(self) -> list[str]:
        """The A.I. strengths the target holds (its Solo games in every round), in the rules' order."""
        held = {r.value for r in self.rows if r.kind == "ai"}
        return [s for s in self.solo_strengths if s in held]

    @property
    def block(self) -> int:
        """A round's games a variant are a whole number of these."""
        return SOLO_BLOCK if self.strengths else BLOCK

    @property
    def units(self) -> int:
        """The blocks of games a variant of a round plays per game a variant: one a player count (where a row reads the
        multi-player games), one a Solo A.I. strength."""
        return (len(self.players) if any(r.kind != "ai" for r in self.rows) else 0) + len(self.strengths)

    @property
    def recheck(self) -> int:
        """The recheck's games a variant (trinidad.balance.search): ``recheck_games`` to a whole number of blocks."""
        return self.block * round(self.recheck_games / self.block) if self.recheck_games else 0

    def derived_seed(self, purpose: int) -> int:
        """The master seed of the search's rounds (``SEARCH``), of its recheck (``RECHECK``) or of the verification's
        (``VERIFY``): streams drawn from the spec's seed (numpy SeedSequence), so the verification's deals are none of
        the search's, and the recheck's none of the rounds' (the point it rechecks was chosen on those)."""
        state = np.random.SeedSequence([self.seed, SEED_TAG, purpose]).generate_state(1, np.uint64)[0]
        return int(state >> np.uint64(1))  # an experiment's seed is below 2^63

    def overrides_at(self, values: dict[str, Any]) -> dict:
        """The rules overrides of a point: the spec's own, with each knob at its value where it differs from the
        rules' (the proposal's override file, a round's variant)."""
        out = copy.deepcopy(self.overrides)
        anchors = {k.key: k.value for k in [*self.knobs, *self.others]}
        for key, v in values.items():
            if v != anchors[key]:
                out = merge(out, nest(key, v))
        return out

    def experiment_doc(self, name: str, out: Path, games: int, seed: int, player: str, variants: list[dict]) -> dict:
        """The experiment a round or the verification plays: the spec's game, players and rules, ``player`` in
        every seat, the game's balance setup (Trinidad: Characters dealt balanced), ``variants`` on common seeds."""
        doc = {"game": self.game.name, "name": name, "games": games, "seed": seed, "out": str(out),
               "shard_games": min(games, 50 * BLOCK), "seats": {"strategies": [player]},
               "rules": ({"file": self.rules_file} if self.rules_file else {}) | {"overrides": copy.deepcopy(self.overrides)},
               "variants": variants} | ({"players": copy.deepcopy(self.players)} if self.players else {})
        return merge(doc, self.game.balance_setup)


def _number(x) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _int(d: dict, key: str, default, lo: int, hi: int | None = None, where: str | None = None) -> int:
    v = d.get(key, default)
    name = where or key
    if v is None:
        raise bad(name, "required")
    if isinstance(v, bool) or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
        raise bad(name, f"expected an integer {lo}..{hi}, got {v!r}" if hi is not None else f"expected an integer >= {lo}, got {v!r}")
    return v


def _unknown(d: dict, allowed: tuple[str, ...], where: str = "") -> None:
    for k in d:
        if k not in allowed:
            raise bad(f"{where}{k}", f"unknown key; allowed: {', '.join(allowed)}")


def _experiment_line(e: ExperimentError, player_key: str = "player") -> BalanceError:
    """An experiment's line (the spec's players, player or rules refused) as the spec's key, on one line."""
    msg = " ".join(str(e).removeprefix("experiment: ").replace("seats.strategies", player_key, 1).split())
    return BalanceError(f"balance: {msg}")


def read_spec(path: str | Path, out: str | Path | None = None) -> Spec:
    """The spec at ``path`` (``out``: the command's --out over the file's), checked (module docstring)."""
    p = Path(path)
    return spec_from_dict(read_toml(p, BalanceError, "balance"), p, out)


def spec_from_dict(d: dict, path: Path, out: str | Path | None = None) -> Spec:
    """A spec document checked: every key, the game's rules at every knob's bounds, the target's groups, the budget."""
    _unknown(d, TOP_KEYS)
    try:
        game = game_named(d.get("game", DEFAULT))
    except ExperimentError as e:
        raise BalanceError(str(e).replace("experiment: ", "balance: ", 1)) from None
    name = d.get("name", path.stem)
    if not isinstance(name, str) or not name:
        raise bad("name", f"expected a name, got {name!r}")
    out = out if out is not None else d.get("out", f"runs/balance-{name}")
    if not isinstance(out, str | Path) or not str(out):
        raise bad("out", f"expected a folder, got {out!r}")
    for k in ("player", "check_player"):
        if k in d and (not isinstance(d[k], str) or not d[k]):
            raise bad(k, f"expected a player's name (best, heuristic, ...), got {d[k]!r}")
    target = d.get("target", {})
    if not isinstance(target, dict):
        raise bad("target", "expected a table with tolerance (and groups)")
    _unknown(target, TARGET_KEYS, "target.")
    tol = target.get("tolerance", DEFAULT_TOLERANCE)
    if not _number(tol) or not 0 < tol < 0.5:
        raise bad("target.tolerance", f"expected a win-rate distance as a fraction above 0 and below 0.5 (0.04: +-4 points), got {tol!r}")
    groups = target.get("groups")
    if groups is not None and (not isinstance(groups, list) or not all(isinstance(g, str) for g in groups)):
        raise bad("target.groups", f"expected a list of group names, got {groups!r}")
    others = [k for k in ("seats", "ai", "records") if k in target]
    if groups == [] and not others:
        raise bad("target.groups", "empty: name at least one group, or leave groups out for every group (or hold another target: seats, "
                                   "ai, records)")
    seats = target.get("seats")
    if seats is not None and (not _number(seats) or not 0 < seats < 0.5):
        raise bad("target.seats", f"expected a win-rate distance as a fraction above 0 and below 0.5 (0.03: every seat within +-3 points "
                                  f"of its fair share), got {seats!r}")
    rules = d.get("rules", {})
    if not isinstance(rules, dict):
        raise bad("rules", "expected a table with file and/or overrides")
    _unknown(rules, ("file", "overrides"), "rules.")
    spec = Spec(path=path, game=game, name=name, out=Path(out), players=d.get("players"), seed=_int(d, "seed", 1, 0, 2**63 - 1),
                player=d.get("player", "best"), check_player=d.get("check_player"), budget=_int(d, "budget", None, 1),
                rounds=_int(d, "rounds", DEFAULT_ROUNDS, 0, MAX_ROUNDS), verify_games=_int(d, "verify_games", DEFAULT_VERIFY_GAMES, BLOCK),
                tolerance=float(tol), groups=groups, rules_file=rules.get("file"),
                overrides=override_file_or_table(rules.get("overrides", {}), "rules.overrides", bad), knobs=[],
                seat_tolerance=None if seats is None else float(seats))
    # the spec's players, player and rules, read as the experiment its runs play (one line naming the key)
    try:
        exp = game.experiment(spec.experiment_doc(name, spec.out, BLOCK, 1, spec.player, [{"name": "base"}]), str(path))
    except ExperimentError as e:
        raise _experiment_line(e, "player") from None
    if spec.check_player:
        try:
            game.experiment(spec.experiment_doc(name, spec.out, BLOCK, 1, spec.check_player, [{"name": "base"}]), str(path))
        except ExperimentError as e:
            raise _experiment_line(e, "check_player") from None
    spec.players = list(exp.players)
    resolve = exp.rules_resolver()
    doc = resolve({})
    spec.solo_strengths = list(game.solo_strengths(doc))
    spec.rows = _rows(spec, exp, target)
    spec.verify_ai_games = _verify_ai_games(d, spec)
    spec.knobs = _knobs(d, game, doc, resolve)
    allowed = {k.key for k in spec.knobs}
    spec.others = [default_knob(key, leaf(doc, key), resolve, allowed=False) for key in game.balance_knobs(doc) if key not in allowed]
    spec.recheck_games = _int(d, "recheck_games", spec.verify_games, 0)
    if 0 < spec.recheck_games < spec.block:
        raise bad("recheck_games", f"expected 0 (no recheck) or at least {spec.block} games, got {spec.recheck_games}")
    spec.recheck_steps = _int(d, "recheck_steps", DEFAULT_RECHECK_STEPS, 0, MAX_ROUNDS)
    if "recheck_steps" in d and not spec.recheck_games:
        raise bad("recheck_steps", "the recheck plays no games (recheck_games = 0): leave recheck_steps out or give recheck_games")
    _check_budget(spec)
    return spec


def _rows(spec: Spec, exp, target: dict) -> list[Row]:
    """The target's rates (:class:`Row`), each with its band: each group the game reports at each player count (its
    ``rates``; those named in ``target.groups`` where given) within +-tolerance of 1/N; each seat within +-``seats`` of
    1/N; each ``[[target.records]]`` at each player count; each ``[[target.ai]]`` strength (the Solo games)."""
    rows, seen = [], set()
    tol = spec.tolerance
    for n in spec.players:
        for col, value, label in spec.game.rates(exp, n):
            seen.add(label)
            if spec.groups is None or label in spec.groups:
                rows.append(Row(n, col, value, label, "groups", 1 / n - tol, 1 / n + tol, 1 / n))
    unknown = [g for g in spec.groups or [] if g not in seen]
    if unknown:
        raise bad("target.groups", f"unknown group {unknown[0]!r}; {spec.game.title}'s: {', '.join(sorted(seen, key=str))}")
    if spec.seat_tolerance is not None:
        st = spec.seat_tolerance
        for n in spec.players:
            seats = spec.game.balance_seats(exp, n)
            if not seats:
                raise bad("target.seats", f"{spec.game.title} names no seats to hold (its start positions are among its groups: target.groups)")
            rows += [Row(n, col, value, label, "seats", 1 / n - st, 1 / n + st, 1 / n) for col, value, label in seats]
    rows += _record_rows(spec, target.get("records"))
    rows += _ai_rows(spec, target.get("ai"))
    if not rows:
        raise bad("target", f"empty: {spec.game.title} reports no group at {spec.players} players to hold to its fair share")
    spec.targets = _target_words(spec, rows)
    return rows


def _tables(v, key: str, what: str) -> list[dict]:
    if not isinstance(v, list) or not v or not all(isinstance(t, dict) for t in v):
        raise bad(key, f"expected [[{key}]] tables, each with {what}")
    return v


def _band(t: dict, where: str, tolerance: float) -> tuple[float, float, float]:
    """A target table's band (lo, hi, centre): ``rate`` within +-``tolerance`` (default the target's), the rate its
    centre; or ``min`` and/or ``max`` (the other bound 0 or 1), no centre."""
    has_rate, has_bounds = "rate" in t, "min" in t or "max" in t
    if has_rate and has_bounds:
        raise bad(where, "give rate (and tolerance) or min and/or max, not both")
    if not has_rate and not has_bounds:
        raise bad(where, "no band: give rate (and tolerance), or min and/or max")
    for k in ("rate", "min", "max"):
        if k in t and (not _number(t[k]) or not 0 <= t[k] <= 1):
            raise bad(f"{where}.{k}", f"expected a rate as a fraction 0..1 (0.25: a quarter), got {t[k]!r}")
    if "tolerance" in t and not has_rate:
        raise bad(f"{where}.tolerance", "goes with rate (min and max are the band's bounds)")
    if has_rate:
        tol = t.get("tolerance", tolerance)
        if not _number(tol) or not 0 < tol < 0.5:
            raise bad(f"{where}.tolerance", f"expected a distance as a fraction above 0 and below 0.5 (0.05: +-5 points), got {tol!r}")
        r = float(t["rate"])
        return max(0.0, r - tol), min(1.0, r + tol), r
    lo, hi = float(t.get("min", 0.0)), float(t.get("max", 1.0))
    if lo >= hi:
        raise bad(f"{where}.max", f"must be above min ({lo:g}), got {hi:g}")
    if lo <= 0 and hi >= 1:
        raise bad(where, "min 0 and max 1 hold every rate: name a narrower band")
    return lo, hi, math.nan


def _record_rows(spec: Spec, records) -> list[Row]:
    """``[[target.records]]``: a games-table column (the game's ``record_columns``), the record held where it is at least
    ``at_least``, by game or by seat, in a band: one row a player count."""
    if records is None:
        return []
    if not spec.game.record_columns:
        raise bad("target.records", f"{spec.game.title} names no games-table columns a record may count")
    out, seen = [], set()
    for i, t in enumerate(_tables(records, "target.records", "a column and a band (min and/or max, or rate)")):
        where = f"target.records[{i}]"
        _unknown(t, RECORD_KEYS, f"{where}.")
        col = t.get("column")
        if not isinstance(col, str) or not col:
            raise bad(f"{where}.column", f"expected a column of the games table (e.g. \"built_palace\"), got {col!r}")
        if col not in spec.game.record_columns:
            near = difflib.get_close_matches(col, spec.game.record_columns, n=3)
            raise bad(f"{where}.column", f"unknown column {col!r} of {spec.game.title}'s games table"
                                         + (f" (did you mean {', '.join(near)}?)" if near else "") + "; docs/reference/dataset.md lists them")
        at_least = _int(t, "at_least", 1, 1, where=f"{where}.at_least")
        per = t.get("per", "game")
        if per not in PER:
            raise bad(f"{where}.per", f"expected one of {', '.join(PER)} (a game holds the record when a seat does; or the share of seats), "
                                      f"got {per!r}")
        if (col, at_least, per) in seen:
            raise bad(f"{where}.column", f"{col} >= {at_least} by {per} is given twice")
        seen.add((col, at_least, per))
        lo, hi, centre = _band(t, where, spec.tolerance)
        what = f"{col} >= {at_least}" + (" (share of games)" if per == "game" else " (share of seats)")
        out += [Row(n, col, at_least, what, "records", lo, hi, centre, per) for n in spec.players]
    return out


def _ai_rows(spec: Spec, ai) -> list[Row]:
    """``[[target.ai]]``: the spec's player's beat rate against the Solo A.I. at a strength of the rules, in a band."""
    if ai is None:
        return []
    if not spec.solo_strengths:
        raise bad("target.ai", f"{spec.game.title} has no Solo A.I. to beat")
    out = []
    for i, t in enumerate(_tables(ai, "target.ai", "a strength and a band (rate, or min and/or max)")):
        where = f"target.ai[{i}]"
        _unknown(t, AI_KEYS, f"{where}.")
        s = t.get("strength")
        if s not in spec.solo_strengths:
            raise bad(f"{where}.strength", f"unknown strength {s!r}; the rules': {', '.join(spec.solo_strengths)}")
        if any(r.value == s for r in out):
            raise bad(f"{where}.strength", f"{s} is given twice")
        lo, hi, centre = _band(t, where, spec.tolerance)
        out.append(Row(1, "ai", s, f"beats the A.I. ({s})", "ai", lo, hi, centre))
    return out


def _verify_ai_games(d: dict, spec: Spec) -> int:
    """The verification's Solo games a variant and strength: the spec's, a multiple of :data:`SOLO_BLOCK`; where the target
    holds the A.I. and the spec names none, the verification's games a variant (rounded to the block)."""
    if "verify_ai_games" not in d:
        return max(SOLO_BLOCK, SOLO_BLOCK * round(spec.verify_games / SOLO_BLOCK)) if spec.strengths else 0
    v = _int(d, "verify_ai_games", 0, 0)
    if v and not spec.solo_strengths:
        raise bad("verify_ai_games", f"{spec.game.title} has no Solo A.I. to play")
    if v % SOLO_BLOCK:
        raise bad("verify_ai_games", f"expected a multiple of {SOLO_BLOCK} (each Character once before and once after the A.I.), got {v}")
    if spec.strengths and not v:
        raise bad("verify_ai_games", f"target.ai needs the verification's Solo games: at least {SOLO_BLOCK}")
    return v


def _target_words(spec: Spec, rows: list[Row]) -> list[str]:
    """Each target in words, for the summary."""
    def band(r: Row) -> str:
        if not math.isnan(r.centre):
            return f"{100 * r.centre:g}% +-{100 * (r.hi - r.centre):g} points" if r.hi - r.centre == r.centre - r.lo else \
                f"{100 * r.lo:g}%..{100 * r.hi:g}% (around {100 * r.centre:g}%)"
        return f"at least {100 * r.lo:g}%" if r.hi >= 1 else f"at most {100 * r.hi:g}%" if r.lo <= 0 else f"{100 * r.lo:g}%..{100 * r.hi:g}%"

    out = []
    if any(r.kind == "groups" for r in rows):
        which = "every group" if spec.groups is None else ", ".join(spec.groups)
        out.append(f"{which} within +-{100 * spec.tolerance:g} points of its fair share")
    if spec.seat_tolerance is not None:
        out.append(f"every seat within +-{100 * spec.seat_tolerance:g} points of its fair share")
    done = set()
    for r in rows:
        if r.kind in ("records", "ai") and r.label not in done:
            done.add(r.label)
            out.append(f"{r.label}: {band(r)}" if r.kind == "records" else f"`{spec.player}` {r.label}: {band(r)}")
    return out


def _rules_line(e: Exception, key: str) -> str:
    return str(e).removeprefix("rules: ").removeprefix(f"{key}: ")


def _knobs(d: dict, game: Game, doc: dict, resolve) -> list[Knob]:
    """The spec's ``[[knobs]]`` (each checked against the rules), or the game's default knobs."""
    if "knobs" not in d:
        keys = game.balance_knobs(doc)
        if not keys:
            raise bad("knobs", f"{game.title} has no default knobs: name the rules numbers to move as [[knobs]] tables with a key")
        return [default_knob(k, leaf(doc, k), resolve) for k in keys]
    ks = d["knobs"]
    short = shorthands(doc, BalanceError)
    if not isinstance(ks, list) or not ks or not all(isinstance(k, dict) for k in ks):
        raise bad("knobs", "expected [[knobs]] tables, each with a key (and min, max, step, probe); leave knobs out for the game's")
    out: list[Knob] = []
    for i, t in enumerate(ks):
        where = f"knobs[{i}]"
        _unknown(t, KNOB_KEYS, f"{where}.")
        key = t.get("key")
        if not isinstance(key, str) or not key or any(not p for p in key.split(".")):
            raise bad(f"{where}.key", f"expected a dotted rules key (e.g. \"character.captain_vp\"), got {key!r}")
        if key in {k.key for k in out}:
            raise bad(f"{where}.key", f"{key} is given twice")
        # a shorthand (rulesfile) leaves the keys its overrides table sets itself: with a knob of one of them
        # too, it would not move that one
        both = [k.key for k in out if k.key in short.get(key, ()) or key in short.get(k.key, ())]
        if both:
            sh, one = (key, both[0]) if key in short else (both[0], key)
            raise bad(f"{where}.key", f"{sh} is a shorthand of {', '.join(short[sh])}; beside a knob of {one} it would not "
                                      f"move {one}: give the shorthand or its keys, not both")
        if not has_rule(doc, key):
            try:
                resolve(nest(key, 0))  # the rules' own line: the keys of the table it names
            except ValueError as e:
                raise bad(f"{where}.key", str(e).removeprefix("rules: ")) from None
            raise bad(f"{where}.key", f"{key}: no such rule")
        value = leaf(doc, key)
        if not _number(value):
            raise bad(f"{where}.key", f"{key} is {value!r}, not a number: a knob moves one rules number")
        out.append(_knob(t, where, key, value, resolve))
    return out


def _on_grid(x, value, step) -> bool:
    k = (x - value) / step
    return abs(k - round(k)) < 1e-9


def _knob(t: dict, where: str, key: str, value, resolve) -> Knob:
    """One ``[[knobs]]`` table: its bounds, step and probe, the defaults where left out (:func:`default_knob`)."""
    integer = isinstance(value, int)
    got = {}
    for k in ("step", "probe", "min", "max"):
        if k not in t:
            continue
        v = t[k]
        if not _number(v) or (integer and not isinstance(v, int)):
            raise bad(f"{where}.{k}", f"expected {'an integer' if integer else 'a number'} ({key} is {value!r}), got {v!r}")
        if k == "step" and v <= 0:
            raise bad(f"{where}.step", f"must be above 0, got {v!r}")
        got[k] = v
    dflt = default_knob(key, value, resolve, step=got.get("step"), probe=got.get("probe"))
    lo, hi, step, probe = got.get("min", dflt.lo), got.get("max", dflt.hi), dflt.step, dflt.probe
    if lo >= hi:
        raise bad(f"{where}.max", f"must be above min ({lo!r}), got {hi!r}")
    if not lo <= value <= hi:
        raise bad(f"{where}.min" if value < lo else f"{where}.max", f"{key} is {value!r} in the rules, outside {lo!r}..{hi!r}")
    for k, b in (("min", lo), ("max", hi)):
        if not _on_grid(b, value, step):
            raise bad(f"{where}.{k}", f"{b!r} is not on the grid of {key} ({value!r} + a whole number of steps of {step!r})")
        try:
            resolve(nest(key, b))
        except ValueError as e:
            raise bad(f"{where}.{k}", f"{key} = {b!r}: {_rules_line(e, key)}") from None
    if probe <= 0 or not _on_grid(probe, 0, step):
        raise bad(f"{where}.probe", f"expected a whole number of steps of {step!r}, above 0, got {probe!r}")
    return Knob(key, value, lo, hi, step, probe)


def default_knob(key: str, value, resolve, allowed: bool = True, step=None, probe=None) -> Knob:
    """A knob's defaults (``step``, ``probe``: the spec's, where given): a step of 1 (a tenth of the value for a
    rules number that is not an integer); a probe of about a quarter of the value on the grid (at least a
    step); bounds 0 and twice the value (at least 4 probes away; a negative value mirrored), each the grid's
    value nearest it on the value's side, walked back toward the value while the rules refuse them."""
    integer = isinstance(value, int)
    step = step if step is not None else 1 if integer else (abs(value) / 10 or 0.1)
    probe = probe if probe is not None else step * max(1, round(0.25 * abs(value) / step))
    lo, hi = (0, max(2 * value, value + 4 * probe)) if value >= 0 else (min(2 * value, value - 4 * probe), 0)
    lo, hi = value - step * ((value - lo) // step), value + step * ((hi - value) // step)
    if integer:
        lo, hi = int(lo), int(hi)

    def accepted(b) -> bool:
        try:
            resolve(nest(key, b))
            return True
        except ValueError:
            return False

    while lo < value and not accepted(lo):
        lo += step
    while hi > value and not accepted(hi):
        hi -= step
    return Knob(key, value, lo, hi, step, probe, allowed)


def round_games(share: float, variants: int, units: int, block: int = BLOCK) -> int:
    """Games per variant, player count and Solo A.I. strength (``units``: their number, :attr:`Spec.units`) a share
    of the budget pays for, a whole number of deal blocks."""
    return int(share // (variants * units * block)) * block


def planned_variants(spec: Spec) -> int:
    """The variants the search plans to play: the first round's (the point and a probe a knob), then each
    confirming round's (the point and a probe for each of up to PLANNED_MOVES knobs moved)."""
    k = len(spec.knobs)
    return k + 1 + spec.rounds * (1 + min(k, PLANNED_MOVES))


def planned_games(spec: Spec) -> int:
    """Games per variant, player count and Solo A.I. strength of every round: the budget (but the share kept for
    measuring the game's other knobs, where it has some) over the planned variants (:func:`planned_variants`), each
    playing as many Solo games at each strength the target holds as games at each player count (a Solo game
    counts as one game of the budget)."""
    keep = DIAGNOSE_SHARE * spec.budget if spec.others else 0.0
    return round_games(spec.budget - keep, planned_variants(spec), spec.units, spec.block)


def _check_budget(spec: Spec) -> None:
    """Every round must have at least :data:`MIN_GAMES` games a variant (and a whole block of :attr:`Spec.block`)."""
    least = max(MIN_GAMES, spec.block)
    if planned_games(spec) < least:
        need = planned_variants(spec) * spec.units * least / (1 - (DIAGNOSE_SHARE if spec.others else 0.0))
        solo = len(spec.strengths)
        raise bad("budget", f"{spec.budget:,} games are too few for {len(spec.knobs)} knobs and {spec.rounds} confirming rounds at "
                            f"{len(spec.players)} player count(s)" + (f" and {solo} Solo A.I. strength(s)" if solo else "")
                            + f": {planned_variants(spec)} variants of at least {least} games each"
                            + (f" at each player count and, as many Solo games, at each strength ({spec.units} x {least} games a variant)"
                               if solo else "")
                            + f" need a budget of at least {math.ceil(need):,}")
