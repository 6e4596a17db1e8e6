"""Overrides of Río de la Plata's rules: plain values (dotted keys, or nested tables) put into the leaves of a
rules document, each checked against the shape of the value it replaces (a list keeps its length unless
its length is data, ``rio.keys.FREE_LENGTH``). A key of Trinidad's rules file is named as the other game's,
found without importing Trinidad's engine. The shape check is the one both games' rules files share
(:func:`rulesfile.check_same_shape`). Every bad override is one :class:`rio.keys.RulesError` line.
"""

from __future__ import annotations

import copy
import importlib.util
import tomllib
from pathlib import Path
from typing import Any

from rio.keys import FREE_LENGTH, RulesError
from rio.tags import leaf_paths
from rulesfile import SHORTHAND, check_same_shape

_OTHER_GAME_KEYS: set[str] | None = None  # the cache of _other_game_keys


def _other_game_keys() -> set[str]:
    """Dotted keys of Trinidad's rules file, found without importing its package (empty if not found)."""
    global _OTHER_GAME_KEYS
    if _OTHER_GAME_KEYS is None:
        keys: set[str] = set()
        cands = [p for p in Path(__file__).resolve().parents[1].glob("*/rulesdata/trinidad.toml")]
        try:
            spec = importlib.util.find_spec("sim")
            for loc in (spec.submodule_search_locations or []) if spec else []:
                cands.insert(0, Path(loc) / "rulesdata" / "trinidad.toml")
        except (ImportError, ValueError):
            pass
        for p in cands:
            if p.is_file():
                try:
                    d = tomllib.loads(p.read_text())
                except (OSError, tomllib.TOMLDecodeError):
                    continue
                stack = [("", d)]
                while stack:
                    pre, node = stack.pop()
                    for k2, v in node.items():
                        path = f"{pre}{k2}"
                        if isinstance(v, dict) and "value" not in v and SHORTHAND not in v:  # a shorthand is a key too
                            stack.append((path + ".", v))
                        else:
                            keys.add(path)
                break
        _OTHER_GAME_KEYS = keys
    return _OTHER_GAME_KEYS


def _flatten(over: dict, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, v in over.items():
        path = f"{prefix}{key}"
        if isinstance(v, dict) and "value" not in v and v:
            out.update(_flatten(v, path + "."))
        else:
            out[path] = v["value"] if isinstance(v, dict) and "value" in v else v
    return out


def apply_overrides(doc: dict, overrides: dict) -> dict:
    """A copy of ``doc`` with ``overrides`` (dotted keys, or nested tables, -> plain values) put into its
    leaves, each checked against the shape of the value it replaces."""
    if not isinstance(overrides, dict):
        raise RulesError(f"rules: overrides: expected a table of dotted keys, got {overrides!r}")
    doc = copy.deepcopy(doc)
    leaves = leaf_paths(doc)
    for key, v in _flatten(overrides).items():
        if key not in leaves:
            if key in _other_game_keys():
                raise RulesError(f"rules: {key}: a Trinidad rule, not a Río de la Plata one")
            sect = key.split(".")[0]
            near = sorted(p for p in leaves if p.split(".")[0] == sect)
            hint = f"; keys under [{sect}]: {', '.join(near)}" if near else f"; sections: {', '.join(sorted({p.split('.')[0] for p in leaves}))}"
            raise RulesError(f"rules: {key}: no such rule{hint}")
        check_same_shape(key, leaves[key]["value"], v, RulesError, bool(FREE_LENGTH.match(key)), boolean="true or false")
        leaves[key]["value"] = v
    return doc
