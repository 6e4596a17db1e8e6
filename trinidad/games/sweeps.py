"""Sweeps (issue 96, item 1): an experiment names a rules number and its values, and the run plays one
variant per value on the experiment's common seeds; two numbers make a grid. Read here for every game
(:mod:`trinidad.games.trinidad_experiment`, :mod:`trinidad.games.rio_experiment`), each game handing
over how its rules are resolved and checked::

    [[sweeps]]                                # one number: a curve
    key = "character.captain_vp"              # any rules key (dotted), a number
    values = [4, 6, 8, 10]                    # or: from = 4, to = 10, step = 2

    [[sweeps]]                                # two numbers: a grid (every pair of values)
    name = "captain-x-bishop"                 # optional: the report's section (default: the keys)
    axes = [{ key = "character.captain_vp", from = 4, to = 10, step = 2 },
            { key = "character.bishop_cathedral", values = [3, 5] }]

A point of a sweep is a variant whose overrides are the baseline's (the experiment's first variant)
with the swept keys set, named after them (``character.captain_vp=6``; a grid's point
``character.captain_vp=6,character.bishop_cathedral=3``). The point at the baseline's own values is the
baseline itself, not played twice; a 1-D sweep always has the baseline as a point at its value (a
grid, where its second value is on the grid). Points that change the same keys to the same values (of
several sweeps, or a grid's point with a key at the baseline's value) are one variant. The experiment
records each sweep (:func:`description`): its axes with their values and the baseline's value, and each
point's values and variant, which the report reads to draw the curves (:mod:`analysis.sweeps`). A bad
sweep is one :class:`~trinidad.games.keys.ExperimentError` line naming it.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from rulesfile import SHORTHAND, shorthand_value
from trinidad.games.keys import Variant, err

MAX_VALUES = 100  # values of one axis: a curve of more points is a typo (from/to/step) more often than a wish
MAX_POINTS = 400  # points of one sweep (a grid): each is a variant played as many games as the baseline
MAX_AXES = 2  # the report draws a curve (one number) or a curve per value of the second number (a grid)
_AXIS_KEYS = ("key", "values", "from", "to", "step")
_SWEEP_KEYS = ("name", "axes", *_AXIS_KEYS)


def _number(x) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def _range(t: dict, where: str) -> list:
    """``from``/``to``/``step``: from, from + step, ... up to ``to`` exactly (decimal steps in decimal:
    0.1 steps give 0.1, 0.2, 0.3, not their binary neighbours)."""
    missing = [k for k in ("from", "to", "step") if k not in t]
    if missing:
        raise err(f"{where}.{missing[0]}", "a range needs from, to and step (or give values = [...])")
    a, b, s = t["from"], t["to"], t["step"]
    for k, v in (("from", a), ("to", b), ("step", s)):
        if not _number(v):
            raise err(f"{where}.{k}", f"expected a number, got {v!r}")
    if s == 0:
        raise err(f"{where}.step", "must not be 0")
    if (b - a) * s < 0:
        raise err(f"{where}.step", f"a step of {s} goes away from {b} (from {a}): give a step of the other sign")
    da, db, ds = (Decimal(repr(x)) for x in (a, b, s))
    k, rest = divmod(db - da, ds)
    if rest != 0:
        last = da + k * ds
        raise err(f"{where}.to", f"from {a} by {s} does not reach {b} (the last value would be {_fmt(_as(last, a, s))}); "
                                 "choose a step that divides to - from")
    if k + 1 > MAX_VALUES:
        raise err(where, f"{int(k) + 1} values; at most {MAX_VALUES} a key")
    return [_as(da + i * ds, a, s) for i in range(int(k) + 1)]


def _as(x: Decimal, *given) -> int | float:
    """A range's value as the type it was given in: integers stay integers."""
    return int(x) if all(isinstance(g, int) for g in given) else float(x)


def _fmt(v) -> str:
    return str(v) if isinstance(v, int) else repr(float(v))


def _axis(t, where: str) -> dict:
    """One axis: its key and its values (a list of distinct numbers, sorted, or a range)."""
    if not isinstance(t, dict):
        raise err(where, "expected a table with key and values (or from, to, step)")
    for k in t:
        if k not in _AXIS_KEYS:
            raise err(f"{where}.{k}", f"unknown key; allowed: {', '.join(_AXIS_KEYS)}")
    key = t.get("key")
    if not isinstance(key, str) or not key or any(not p for p in key.split(".")):
        raise err(f"{where}.key", f"expected a dotted rules key (e.g. \"character.captain_vp\"), got {key!r}")
    ranged = [k for k in ("from", "to", "step") if k in t]
    if "values" in t and ranged:
        raise err(f"{where}.{ranged[0]}", "give values = [...] or from, to and step, not both")
    if "values" in t:
        vs = t["values"]
        if not isinstance(vs, list) or not vs:
            raise err(f"{where}.values", f"expected a non-empty list of numbers, got {vs!r}")
        bad = [v for v in vs if not _number(v)]
        if bad:
            raise err(f"{where}.values", f"expected numbers (a sweep moves a rules number), got {bad[0]!r}")
        if len(set(vs)) != len(vs):
            raise err(f"{where}.values", f"values must be distinct, got {vs}")
        if len(vs) > MAX_VALUES:
            raise err(f"{where}.values", f"{len(vs)} values; at most {MAX_VALUES} a key")
        vs = sorted(vs)
    elif ranged:
        vs = sorted(_range(t, where))  # a range down gives the same points as the range up
    else:
        raise err(where, "expected values = [...] or from, to and step")
    return {"key": key, "values": vs}


def read(d: dict) -> list[dict]:
    """The ``[[sweeps]]`` tables of an experiment document as TOML-shaped sweeps, each ``{"name", "axes":
    [{"key", "values"}]}`` (a range written out, values sorted); [] when it has none."""
    sw = d.get("sweeps", [])
    if not isinstance(sw, list) or not all(isinstance(s, dict) for s in sw):
        raise err("sweeps", "expected [[sweeps]] tables, each with key and values (or axes = [...] for a grid)")
    out, names = [], set()
    for i, s in enumerate(sw):
        where = f"sweeps[{i}]"
        for k in s:
            if k not in _SWEEP_KEYS:
                raise err(f"{where}.{k}", f"unknown key; allowed: {', '.join(_SWEEP_KEYS)}")
        if "axes" in s:
            one = [k for k in _AXIS_KEYS if k in s]
            if one:
                raise err(f"{where}.{one[0]}", "a sweep gives its key and values, or its axes = [...], not both")
            axes = s["axes"]
            if not isinstance(axes, list) or not 1 <= len(axes) <= MAX_AXES:
                raise err(f"{where}.axes", f"expected 1 or {MAX_AXES} tables, each with key and values, got {axes!r}")
            axes = [_axis(a, f"{where}.axes[{j}]") for j, a in enumerate(axes)]
        else:
            axes = [_axis({k: s[k] for k in _AXIS_KEYS if k in s}, where)]
        ks = [a["key"] for a in axes]
        if len(set(ks)) != len(ks):
            raise err(f"{where}.axes", f"a grid moves two different keys, got {ks[0]!r} twice")
        points = 1
        for a in axes:
            points *= len(a["values"])
        if points > MAX_POINTS:
            raise err(where, f"{points} points; at most {MAX_POINTS} a sweep (each point is a variant played as many games as the baseline)")
        name = s.get("name", " x ".join(short(k) for k in ks))
        if not isinstance(name, str) or not name.strip():
            raise err(f"{where}.name", f"expected a name, got {name!r}")
        if name in names:
            raise err(f"{where}.name", f"sweep names must be distinct, {name!r} is given twice")
        names.add(name)
        out.append({"name": name, "axes": axes})
    return out


def short(key: str) -> str:
    """A key's last two parts: what a point's name and a default sweep name show (``character.captain_vp``)."""
    return ".".join(key.split(".")[-2:])


def nest(key: str, value) -> dict:
    """The override table of a dotted key: ``a.b.c = v`` -> ``{"a": {"b": {"c": v}}}``."""
    out: Any = value
    for part in reversed(key.split(".")):
        out = {part: out}
    return out


def merge(base: dict, over: dict) -> dict:
    """``over`` put into a copy of ``base``, table by table (a variant's overrides, then a sweep's)."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        out[k] = merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else copy.deepcopy(v)
    return out


_MISSING = object()


def leaf(doc: dict, key: str):
    """The value of a rules document at a dotted key (a tagged leaf's ``value``; a list of rows is
    entered by its rows' ``number``, as Trinidad's Affiliate cards; a shorthand, the value of the keys it
    stands for, :func:`rulesfile.shorthand_value`); a missing key: ``_MISSING``."""
    node: Any = doc
    table: Any = None
    for part in key.split("."):
        table = node
        if isinstance(node, list):
            node = next((r for r in node if isinstance(r, dict) and str(r.get("number")) == part), _MISSING)
        elif isinstance(node, dict) and not ("value" in node and "source" in node) and SHORTHAND not in node:
            node = node.get(part, _MISSING)  # a tagged leaf and a shorthand have no parts below
        else:
            return _MISSING
        if node is _MISSING:
            return _MISSING
    if isinstance(node, dict) and SHORTHAND in node and isinstance(table, dict):
        return shorthand_value(table, node)
    return node["value"] if isinstance(node, dict) and "value" in node else node


def has_rule(doc: dict, key: str) -> bool:
    """Whether a rules document has a value at the dotted ``key`` (:func:`leaf`)."""
    return leaf(doc, key) is not _MISSING


def variants(sweeps: list[dict], declared: list[Variant], resolve: Callable[[dict], dict], error: type[Exception],
             make: Callable[[str, dict], Variant] = Variant, other_game: Callable[[str], str | None] = lambda _key: None
             ) -> tuple[list[Variant], list[dict]]:
    """The declared variants followed by every sweep's points (:func:`read`), and each sweep's
    description (:func:`description`). ``resolve(overrides)``: the rules document of the baseline's
    rules with ``overrides`` (the experiment's overrides and the variant's applied, checked), raising
    ``error`` for a bad rule; ``make(name, overrides)``: a variant of the game; ``other_game(key)``: what
    to say when ``key`` is a rule of the other game (None: not; a key of neither: the game's own message).

    Each value of each axis is checked alone before any point is made (a bad value: one line naming
    the sweep, the key and the value); a grid's pairs are checked with every variant after
    (:func:`trinidad.games.keys.variant_docs`)."""
    if not sweeps:
        return declared, []
    base = declared[0]
    names = {v.name for v in declared}
    made: dict[str, str] = {}  # what a point changes (canonical) -> its variant's name
    out = list(declared)
    described = []
    try:
        base_doc = resolve(base.overrides)
    except error as e:
        raise err(f"variants[{base.name}].overrides" if base.overrides else "rules", str(e).removeprefix("rules: ")) from None
    for i, s in enumerate(sweeps):
        where = f"sweeps[{i}]"
        bases = []
        for j, a in enumerate(s["axes"]):
            at = f"{where}.axes[{j}]" if len(s["axes"]) > 1 else where
            bases.append(_check_axis(a, at, base, base_doc, resolve, error, other_game))
        keys_ = [a["key"] for a in s["axes"]]
        points = []
        grid = set(itertools.product(*(a["values"] for a in s["axes"])))
        if all(b in a["values"] for b, a in zip(bases[1:], s["axes"][1:], strict=True)):
            grid.add(tuple(bases))  # the baseline is a point of the curve (a grid's, where its second value is swept)
        for vals in sorted(grid):
            if list(vals) == bases:
                points.append({"values": list(vals), "variant": base.name})
                continue
            # what the point changes: a key at the baseline's value is no change (a grid's point on another sweep's curve)
            canon = repr(sorted((k, v) for k, v, b in zip(keys_, vals, bases, strict=True) if v != b))
            if canon not in made:
                made[canon] = _point_name(keys_, vals, names, where)
                names.add(made[canon])
                ov = base.overrides
                for k, v in zip(keys_, vals, strict=True):
                    ov = merge(ov, nest(k, v))
                out.append(make(made[canon], ov))
            points.append({"values": list(vals), "variant": made[canon]})
        described.append(description(s, bases, base.name, points))
    return out, described


def _point_name(keys_: list[str], vals: tuple, taken: set[str], where: str) -> str:
    """A point's variant name: its keys' last two parts and values (``character.captain_vp=6``), or the
    whole keys where that name is taken (another sweep's point of another key ending alike)."""
    for part in (short, str) if len({short(k) for k in keys_}) == len(keys_) else (str,):
        name = ",".join(f"{part(k)}={_fmt(v)}" for k, v in zip(keys_, vals, strict=True))
        if name not in taken:
            return name
    raise err(where, f"its point {name!r} has the name of a declared variant; rename that variant")


def _check_axis(a: dict, where: str, base: Variant, base_doc: dict, resolve, error, other_game):
    """The baseline's value of an axis's key, once the key is a rules number of the game and each of
    its values resolves to valid rules (one line naming the sweep otherwise)."""
    key = a["key"]
    b = leaf(base_doc, key)
    if b is _MISSING:
        other = other_game(key)
        if other:
            raise err(f"{where}.key", f"{key}: {other}")
        try:
            resolve(merge(base.overrides, nest(key, a["values"][0])))
        except error as e:
            raise err(f"{where}.key", str(e).removeprefix("rules: ")) from None
        raise err(f"{where}.key", f"{key}: no such rule")
    if not _number(b):
        raise err(f"{where}.key", f"{key} is {b!r}, not a number: a sweep moves one rules number")
    for v in a["values"]:
        try:
            resolve(merge(base.overrides, nest(key, v)))
        except error as e:
            raise err(f"{where}.values", f"{key} = {_fmt(v)}: {str(e).removeprefix('rules: ').removeprefix(key + ': ')}") from None
    return b


def description(s: dict, bases: list, baseline: str, points: list[dict]) -> dict:
    """What the experiment (and so the run's manifest) records of a sweep: its name, its axes (key,
    values, the baseline's value) and its points (values, the variant that plays them)."""
    return {"name": s["name"], "baseline": baseline,
            "axes": [{"key": a["key"], "values": list(a["values"]), "base": b} for a, b in zip(s["axes"], bases, strict=True)],
            "points": points}


def record(described: list[dict]) -> list[dict]:
    """The TOML-shaped ``[[sweeps]]`` of recorded sweeps (:func:`description`), which :func:`read`
    reads back to the same points (workers, ``--resume``)."""
    return [{"name": s["name"], "axes": [{"key": a["key"], "values": list(a["values"])} for a in s["axes"]]} for s in described or []]


def refuse_crossed(sweeps: list[dict], key: str, values: list, what: str) -> None:
    """Sweeps with a key that makes every variant several (the A.I.'s strengths, the levels): one line."""
    if sweeps and len(values) > 1:
        raise err(key, f"several {what} with [[sweeps]]: a sweep's curve is drawn at one of them; give one, or run one experiment each")
