"""The format every game's rules file shares: a TOML document whose leaves are tagged with their source
(``{value, source, ref}``), read from a file, with a designer's overrides (a table of dotted keys, or a
TOML file of them) put into its leaves, each override checked against the shape of the value it replaces.

Each game's rules modules (Trinidad's :mod:`sim.rule_overrides`, Río de la Plata's :mod:`rio.rules`) read
their file through these functions and pass their own error class (``error``, each game's ``RulesError``),
so that a bad file is one line of that game's error naming the key, worded alike in both games.

A table may also hold *shorthands*, ``name = { shorthand = ["key", ...] }``: a key the file no longer has
as a number, kept so that overrides written when several numbers were one still mean what they meant. An
override of a shorthand sets each key it names (tagged leaves of the same table), but those the same
overrides table sets itself (:func:`shorthands`, :func:`given_keys`, :func:`shorthand_value`); a game's
``apply_overrides`` expands them (Trinidad's: :mod:`sim.rule_overrides`).

Plain Python (tomllib), no compiler, and nothing of the project: both games' engines import it, and it
imports neither. It reads and checks data only, so it changes no compiled code (the engine hash,
``sim.engine_hash``, need not cover it).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

__all__ = ["SHORTHAND", "check_same_shape", "given_keys", "overrides_table", "read_toml", "shape_name", "shorthand_value",
           "shorthands"]

SHORTHAND = "shorthand"  # the one key of a shorthand entry: the keys of its table it stands for


def read_toml(path: str | Path, error: type[Exception], what: str = "rules") -> dict:
    """The TOML document at ``path``; a missing file or bad TOML is one ``error`` line naming ``what`` the
    file is (rules, an experiment, a balance spec) and the file."""
    p = Path(path)
    try:
        return tomllib.loads(p.read_text())
    except OSError as e:
        raise error(f"{what}: {p}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{what}: {p}: {e}") from None


def overrides_table(overrides: dict | str | Path, error: type[Exception], what: str = "rules") -> dict:
    """Overrides given as a table (returned as is) or as the path of a TOML file of them (read; ``what``: what a
    bad file's one line calls it)."""
    return overrides if isinstance(overrides, dict) else read_toml(overrides, error, what)


def shape_name(v: Any, boolean: str = "a boolean") -> str:
    """How an error names the shape of ``v`` ("an integer", "a list of 3", ...; ``boolean`` for true/false)."""
    if isinstance(v, bool):
        return boolean
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return f"a list of {len(v)}"
    return type(v).__name__


def check_same_shape(key: str, base: Any, new: Any, error: type[Exception], free_length: bool = False, boolean: str = "a boolean") -> None:
    """``new`` (an override of ``key``) has the shape of ``base``, the value it replaces: true/false for
    true/false, an integer for an integer, a string for a string, a list of as many items each of its
    item's shape (of any length where ``free_length``: then item i is checked against the base's item i,
    or its last). A mismatch is one ``error`` line naming the key (``key[i]`` for a list's item)."""
    if isinstance(base, bool) or isinstance(new, bool):
        if not (isinstance(base, bool) and isinstance(new, bool)):
            raise error(f"rules: {key}: expected {shape_name(base, boolean)}, got {new!r}")
    elif isinstance(base, int):
        if not isinstance(new, int):
            raise error(f"rules: {key}: expected an integer, got {new!r}")
    elif isinstance(base, str):
        if not isinstance(new, str):
            raise error(f"rules: {key}: expected a string, got {new!r}")
    elif isinstance(base, list):
        if not isinstance(new, list) or (not free_length and len(new) != len(base)):
            want = "a list" if free_length else shape_name(base, boolean)
            raise error(f"rules: {key}: expected {want}, got {new!r}")
        if base:
            for i, n in enumerate(new):
                check_same_shape(f"{key}[{i}]", base[min(i, len(base) - 1)], n, error, boolean=boolean)


def _tagged(v: Any) -> bool:
    """A tagged leaf: ``{value, source, ...}``."""
    return isinstance(v, dict) and "value" in v and "source" in v


def shorthands(doc: dict, error: type[Exception]) -> dict[str, list[str]]:
    """The shorthands of a rules document, each dotted (``character.most_vp``) -> the dotted keys it stands
    for. Each is checked: ``{ shorthand = [...] }`` and nothing else, naming tagged leaves of its own table
    (a bad one is one ``error`` line naming it)."""
    out: dict[str, list[str]] = {}

    def walk(table: dict, prefix: str) -> None:
        for k, v in table.items():
            if not isinstance(v, dict) or _tagged(v):
                continue
            path = f"{prefix}{k}"
            if SHORTHAND not in v:
                walk(v, path + ".")
                continue
            names = v[SHORTHAND]
            if set(v) != {SHORTHAND} or not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
                raise error(f"rules: {path}: expected {{ {SHORTHAND} = [the keys of its table it stands for] }}, got {v!r}")
            missing = [n for n in names if not _tagged(table.get(n))]
            if missing:
                raise error(f"rules: {path}: a shorthand of {missing[0]!r}, not a rule of its table")
            out[path] = [f"{prefix}{n}" for n in names]

    walk(doc, "")
    return out


def given_keys(overrides: dict, prefix: str = "") -> set[str]:
    """The dotted keys an overrides table gives values to, nested tables entered (a ``{value = ...}`` table
    is a value): what a shorthand of the same table leaves alone."""
    out = set()
    for k, v in overrides.items():
        path = f"{prefix}{k}"
        if isinstance(v, dict) and v and "value" not in v:
            out |= given_keys(v, path + ".")
        else:
            out.add(path)
    return out


def shorthand_value(table: dict, entry: dict) -> Any:
    """What a shorthand ``entry`` of ``table`` (checked, :func:`shorthands`) reads as: the value of the keys it
    stands for while they are equal; where they differ, a table of each key's value (not one number)."""
    values = {n: table[n]["value"] for n in entry[SHORTHAND]}
    first = next(iter(values.values()))
    return first if all(v == first and type(v) is type(first) for v in values.values()) else values
