"""What every game's experiment shares (trinidad.games): the one-line error, the keys each experiment
has (name, players, games, seed, out, shard_games, ``[seats]``, ``[rules]``, ``[[variants]]``; ``[[sweeps]]`` in
:mod:`trinidad.games.sweeps`), the
variants crossed with a list-valued key (the A.I.'s strengths, Río de la Plata's levels), the seat
arrangements (fixed, rotate, permute), the shards a run is cut into, and ``[[tiers]]`` (one run per
player tier, :func:`tier_runs`).

Each game's experiment module (:mod:`trinidad.games.trinidad_experiment`,
:mod:`trinidad.games.rio_experiment`) reads its own keys with these helpers, so that the keys both
games have are read, checked and worded alike. Plain Python and numpy: no engine.
"""

from __future__ import annotations

import copy
import itertools
import math
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rulesfile import overrides_table, read_toml

SEAT_ASSIGN = ("fixed", "rotate", "permute")


class ExperimentError(ValueError):
    """An experiment file or flag is invalid; the message is one line naming the key."""


@dataclass
class Variant:
    name: str
    overrides: dict = field(default_factory=dict)


def err(key: str, msg: str) -> ExperimentError:
    if msg.startswith(f"{key}: "):  # a message that already names the key (a RulesError: "rules: ...")
        msg = msg[len(key) + 2:]
    return ExperimentError(f"experiment: {key}: {msg}")


def int_key(d: dict, key: str, default: int, lo: int, hi: int | None = None) -> int:
    v = d.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise err(key, f"expected an integer, got {v!r}")
    if v < lo or (hi is not None and v > hi):
        raise err(key, f"must be in {lo}..{hi}, got {v}" if hi is not None else f"must be >= {lo}, got {v}")
    return v


def unknown_keys(d: dict, allowed: set[str], table_of: dict[str, str]) -> None:
    """One line for the first key of ``d`` not in ``allowed``; a key that belongs in a table
    (``table_of``: key -> the table) says so."""
    unknown = sorted(set(d) - allowed)
    if unknown:
        table = table_of.get(unknown[0])
        under = f" ({unknown[0]!r} belongs under [{table}])" if table else ""
        raise err(unknown[0], f"unknown key{under}; allowed: {', '.join(sorted(allowed))}")


def player_counts(d: dict, default: list[int], lo: int, hi: int, extra: str = "") -> list[int]:
    """``players``: one count or a list of counts in ``lo..hi``, sorted and distinct."""
    pl = d.get("players", default)
    pl = [pl] if isinstance(pl, int) and not isinstance(pl, bool) else pl
    if not isinstance(pl, list) or not pl or not all(isinstance(x, int) and not isinstance(x, bool) and lo <= x <= hi for x in pl):
        raise err("players", f"expected a player count {lo}..{hi}{extra} or a list of them, got {d.get('players')!r}")
    return sorted(set(pl))


def out_dir(d: dict, name: str) -> str:
    out = d.get("out", f"runs/{name}")
    if not isinstance(out, str) or not out:
        raise err("out", f"expected a directory path, got {out!r}")
    return out


def table(d: dict, key: str, allowed: tuple[str, ...], what: str) -> dict:
    """The table ``key`` of ``d`` (empty when left out), holding only the keys ``allowed`` (``what``: in words)."""
    t = d.get(key, {})
    if not isinstance(t, dict):
        raise err(key, f"expected a table with {what}")
    for k in t:
        if k not in allowed:
            raise err(f"{key}.{k}", f"unknown key; allowed: {', '.join(allowed)}")
    return t


def seats_table(d: dict, default: list[str], default_assign: str, check: Callable[[list[str]], None], error: type[Exception]
                ) -> tuple[list[str], str]:
    """``[seats]``: (strategies, assign). ``check`` raises ``error`` for names the game does not
    know; its message (which names the players allowed) becomes the line of ``seats.strategies``."""
    seats = table(d, "seats", ("strategies", "assign"), "strategies and assign")
    strat = seats.get("strategies", default)
    if isinstance(strat, str):
        strat = [strat]
    if not isinstance(strat, list) or not strat or not all(isinstance(s, str) for s in strat):
        raise err("seats.strategies", f"expected a list of strategy names, got {strat!r}")
    try:
        check(list(dict.fromkeys(strat)))
    except error as ex:
        raise err("seats.strategies", str(ex)) from None
    assign = seats.get("assign", default_assign)
    if assign not in SEAT_ASSIGN:
        raise err("seats.assign", f"allowed: {', '.join(SEAT_ASSIGN)}, got {assign!r}")
    return strat, assign


def rules_table(d: dict) -> tuple[str | None, dict]:
    """``[rules]``: (the rules file or None for the bundled one, the overrides). The overrides are a table or
    the path of an override file (a proposal of ``trinidad balance``, as written), read here."""
    rules = table(d, "rules", ("file", "overrides"), "file and/or overrides")
    rf = rules.get("file")
    if rf is not None and (not isinstance(rf, str) or not Path(rf).exists()):
        raise err("rules.file", f"expected an existing rules file, got {rf!r}")
    return rf, override_file_or_table(rules.get("overrides", {}), "rules.overrides", err)


def override_file_or_table(ov: Any, key: str, line: Callable[[str, str], Exception]) -> dict:
    """Rule overrides given as a table, or as the path (from the working directory, as ``[rules] file``) of a TOML
    file of them, read; anything else, a missing file or bad TOML is one ``line(key, message)``."""
    if isinstance(ov, str):
        if not Path(ov).is_file():
            raise line(key, f"expected a table of rule overrides or an existing override file, got {ov!r}")
        try:
            ov = overrides_table(ov, ExperimentError, "override file")
        except ExperimentError as e:
            raise line(key, str(e)) from None
    if not isinstance(ov, dict):
        raise line(key, f"expected a table of rule overrides or the path of an override file, got {ov!r}")
    return ov


def variants_list(d: dict) -> list[Variant]:
    """``[[variants]]``: each a name (distinct) and its rule overrides."""
    vs = d.get("variants", [{"name": "base"}])
    if not isinstance(vs, list) or not vs:
        raise err("variants", "expected a list of [[variants]] tables with a name (and overrides)")
    out = []
    for i, v in enumerate(vs):
        if not isinstance(v, dict) or not isinstance(v.get("name"), str) or not v["name"]:
            raise err(f"variants[{i}].name", "every variant needs a name")
        for k in v:
            if k not in ("name", "overrides"):
                raise err(f"variants[{i}].{k}", "unknown key; allowed: name, overrides")
        if not isinstance(v.get("overrides", {}), dict):
            raise err(f"variants[{i}].overrides", "expected a table of rule overrides")
        out.append(Variant(v["name"], copy.deepcopy(v.get("overrides", {}))))
    names = [v.name for v in out]
    if len(set(names)) != len(names):
        raise err("variants", f"variant names must be distinct, got {names}")
    return out


def choices(d: dict, key: str, allowed: list, default, what: str) -> list:
    """A key that takes one of ``allowed`` or a list of distinct ones (each then a variant of its own)."""
    v = d.get(key, default)
    v = v if isinstance(v, list) else [v]
    ok = all(any(type(x) is type(a) and x == a for a in allowed) for x in v)
    if not v or not ok or len(set(v)) != len(v):
        raise err(key, f"expected {what} or a list of distinct ones, got {d.get(key)!r}")
    return v


def crossed_variants(declared: list[Variant], axes: list[list[tuple[str, Any]]], make: Callable[[Variant, list, str], Variant]
                     ) -> list[Variant]:
    """Each declared variant once per combination of the axes' values (an axis: (label, value) pairs,
    e.g. the A.I.'s strengths), made by ``make(variant, values, name)``. Named as the variant when no
    axis has more than one value; else after the labels of the axes that do, alone (when the only
    variant is the default ``base``) or after the variant's name: ``<variant>-<label>...``."""
    alone = len(declared) == 1 and declared[0].name == "base" and not declared[0].overrides
    out = []
    for v in declared:
        for combo in itertools.product(*axes):
            labels = [label for (label, _), axis in zip(combo, axes, strict=True) if len(axis) > 1]
            name = "-".join(labels if alone else [v.name, *labels]) if labels else v.name
            out.append(make(v, [value for _, value in combo], name))
    return out


def variant_docs(variants: list[Variant], overrides: dict, load: Callable[[], dict], apply: Callable[[dict, dict], dict],
                 check: Callable[[dict], Any], error: type[Exception]) -> list[dict]:
    """The full rules document of each variant: the rules file (``load``), the experiment's
    overrides, then the variant's (``apply``), checked (``check``: the values too). A bad rule is
    one line naming where it was given. The file is read once (``apply`` returns a new document): a
    sweep's variants are many."""
    docs = []
    try:
        base = apply(load(), overrides) if overrides else load()
    except error as e:
        raise err("rules", str(e).removeprefix("rules: ")) from None
    for v in variants:
        try:
            doc = apply(base, v.overrides) if v.overrides else copy.deepcopy(base)
            check(doc)
        except error as e:
            where = f"variants[{v.name}].overrides" if v.overrides else "rules"
            raise err(where, str(e).removeprefix("rules: ")) from None
        docs.append(doc)
    return docs


@dataclass
class BaseExperiment:
    """What every game's experiment has (a game's experiment is a dataclass of this class, with its
    own defaults where they differ), and what it derives from them: the seat arrangements and the
    shards. A subclass adds ``strategies``, ``seat_assign`` and ``variants``."""

    name: str = "default"
    players: list[int] = field(default_factory=lambda: [4])
    games: int = 1000
    seed: int = 1
    out: str = "runs/default"
    shard_games: int = 5000
    sweeps: list[dict] = field(default_factory=list)  # [[sweeps]] as played: axes, points (trinidad.games.sweeps.description)
    precision: float | None = None  # play in blocks until the rates are this precise (trinidad.runner.sequential); None: all games

    def to_dict(self) -> dict:
        """The experiment as the manifest records it; ``sweeps`` only where there are some (the runs
        recorded before sweeps, which have none, still resume as the same experiment)."""
        d = asdict(self)
        if not d["sweeps"]:
            del d["sweeps"]
        if d["precision"] is None:  # likewise: a run of all its games, as every run before precision
            del d["precision"]
        return d

    def lineup(self, n: int) -> list[str]:
        """The strategy names of seats 0..n-1 before rotation (the list cycled to n seats)."""
        return [self.strategies[s % len(self.strategies)] for s in range(n)]

    def strategy_names(self) -> list[str]:
        return list(dict.fromkeys(self.strategies))

    def _arrangement(self, game_index: np.ndarray) -> np.ndarray:
        """Which seat arrangement (``rotate``: the rotation; ``permute``: the permutation) each game plays."""
        return np.asarray(game_index, np.int64)

    def _entries(self, n: int, game_index: np.ndarray) -> np.ndarray:
        """Per game and seat, the lineup entry sitting there (``n`` seats)."""
        a = self._arrangement(game_index)
        if self.seat_assign == "fixed":
            return np.tile(np.arange(n, dtype=np.int64), (len(a), 1))
        if self.seat_assign == "rotate":
            return (np.arange(n)[None, :] + a[:, None]) % n
        perms = np.array(list(itertools.permutations(range(n))), np.int64)
        return perms[a % len(perms)]

    def total_games(self) -> int:
        return self.games * len(self.players) * len(self.variants)

    def shard_count(self) -> int:
        """``len(self.shards())`` without building the list (the manifest is rewritten after every shard)."""
        return len(self.variants) * len(self.players) * math.ceil(self.games / self.shard_games)

    def shards(self) -> list[tuple[int, int, int, int, int]]:
        """(variant index, players, shard index, first game, game count) for the whole run."""
        out = []
        for vi in range(len(self.variants)):
            for n in self.players:
                for k in range(math.ceil(self.games / self.shard_games)):
                    a = k * self.shard_games
                    out.append((vi, n, k, a, min(self.games, a + self.shard_games) - a))
        return out


_TIER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def tier_runs(d: dict, where: str, read: Callable[[dict, str], Any]) -> list[tuple[str, Any]]:
    """The runs of an experiment with ``[[tiers]]``, of any game (``read``: the game's experiment reader, which
    checks each tier's strategies as its players): the same experiment (players, games, seed, rules, variants)
    played once per tier, every seat by the tier's strategies, each into OUT/<tier name>, in the file's order,
    strongest first (the order ``trinidad report`` compares them in). A bad tier is one line naming it."""
    tiers = d.get("tiers")
    if not isinstance(tiers, list) or len(tiers) < 2 or not all(isinstance(t, dict) for t in tiers):
        raise err("tiers", "expected two or more [[tiers]] tables, each with a name and strategies, strongest first")
    if "strategies" in (d.get("seats") or {}):
        raise err("seats.strategies", "an experiment with [[tiers]] names the strategies of each tier; remove seats.strategies")
    base = {k: v for k, v in d.items() if k != "tiers"}
    name = str(base.get("name", Path(where).stem))
    out = base.get("out", f"runs/{name}")
    if not isinstance(out, str) or not out:
        raise err("out", f"expected a directory path, got {out!r}")
    runs, seen = [], set()
    for i, t in enumerate(tiers):
        for k in t:
            if k not in ("name", "strategies"):
                raise err(f"tiers[{i}].{k}", "unknown key; allowed: name, strategies")
        tn = t.get("name")
        if not isinstance(tn, str) or not _TIER_NAME.fullmatch(tn):
            raise err(f"tiers[{i}].name", f"expected a folder name (letters, digits, _ . -), got {tn!r}")
        if tn in seen:
            raise err(f"tiers[{i}].name", f"tier names must be distinct, {tn!r} is given twice")
        seen.add(tn)
        if "strategies" not in t:
            raise err(f"tiers[{i}].strategies", "every tier names its strategies")
        dt = copy.deepcopy(base)
        dt["name"] = f"{name}-{tn}"
        dt["out"] = str(Path(out) / tn)
        dt["seats"] = dict(dt.get("seats") or {}) | {"strategies": t["strategies"]}
        try:
            runs.append((tn, read(dt, where)))
        except ExperimentError as e:
            raise ExperimentError(str(e).replace("experiment: ", f"experiment: tiers[{i}] ({tn}): ", 1)) from None
    return runs


def refuse_tiers(d: dict) -> None:
    """``[[tiers]]`` read as one experiment: one line saying they are several runs (:func:`tier_runs`)."""
    if "tiers" in d:
        raise err("tiers", "an experiment with [[tiers]] is several runs: play it with trinidad run FILE (one run per tier)")


def precision_key(d: dict) -> float | None:
    """``precision``: the half-width (a fraction: 0.02 = +-2 points) every rate of interest's 95%
    interval must reach before a variant stops (trinidad.runner.sequential); ``games`` is then the
    cap. None when left out: every game is played."""
    v = d.get("precision")
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int | float) or not 0 < v < 0.5:
        raise err("precision", f"expected a half-width as a fraction above 0 and below 0.5 (0.02: +-2 points), got {v!r}")
    return float(v)


def read_document(path: Path, flags: dict[str, Any]) -> dict:
    """An experiment file's document with the command-line flags applied over it (``strategies``
    into ``[seats]``, ``prices`` into ``[characters]``, the others at the top)."""
    d = read_toml(path, ExperimentError, "experiment")
    for k, v in flags.items():
        if v is None:
            continue
        if k == "strategies":
            d.setdefault("seats", {})["strategies"] = v
        elif k == "prices":
            d.setdefault("characters", {})["prices"] = v
        else:
            d[k] = v
    return d
