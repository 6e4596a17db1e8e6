"""The rules document: read the rules file (``DEFAULT_RULES``, the bundled one, or another), put a
designer's overrides into it (:func:`apply_overrides`, checked against the shape of the value each
replaces), and read its values with their tags checked (:func:`rule_value`: the value's source;
:func:`rule_int`, :func:`rule_ints`: the ranges of :mod:`sim.rule_keys`). An override of a shorthand
of the file (``character.most_vp``, :mod:`rulesfile`) sets the keys it stands for.

Plain Python on dictionaries, no compiler: a run's manifest and the analysis read their rules
through this module; the reading of the file and the overrides' shape check are the format both
games' rules files share (:mod:`rulesfile`). :mod:`sim.rules` packs a document into the engine's record.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from rulesfile import check_same_shape, given_keys, overrides_table, read_toml, shorthands
from sim.rule_keys import NEGATIVE_OK, RANGES, RulesError
from sim.state import N_DISTRICTS

DEFAULT_RULES = Path(__file__).parent / "rulesdata" / "trinidad.toml"


def _leaf_paths(d: dict, prefix: str = "") -> dict[str, Any]:
    """Dotted paths of every `{value = ...}` leaf."""
    out = {}
    for key, v in d.items():
        path = f"{prefix}{key}"
        if isinstance(v, dict):
            if "value" in v and "source" in v:
                out[path] = v
            else:
                out.update(_leaf_paths(v, path + "."))
    return out


def _check_same_shape(key: str, base: Any, new: Any) -> None:
    """An override has the shape of the value it replaces (:func:`rulesfile.check_same_shape`)."""
    check_same_shape(key, base, new, RulesError)


def _override_affiliates(doc: dict, over: Any) -> None:
    """``[affiliate.<number>.params]`` overrides: a card's power parameters, each with the shape of
    the value it replaces (only the parameters the card's row has)."""
    rows = {row.get("number"): row for row in doc.get("affiliate", []) if isinstance(row, dict)}
    nums = f"{min(rows)}..{max(rows)}" if rows else "none"
    if not isinstance(over, dict):
        raise RulesError(f"rules: affiliate: expected tables [affiliate.<number>.params] (cards {nums}), got {over!r}")
    for num, sub in over.items():
        key = f"affiliate.{num}"
        n = int(num) if str(num).isdigit() else None
        if n not in rows:
            raise RulesError(f"rules: {key}: no such Affiliate card; allowed: {nums}")
        if not isinstance(sub, dict) or set(sub) != {"params"} or not isinstance(sub["params"], dict):
            raise RulesError(f"rules: {key}: only a card's params can be overridden, as [affiliate.{n}.params]")
        params = rows[n].get("params", {})
        for pk, pv in sub["params"].items():
            if pk not in params:
                have = ", ".join(params) or "none"
                raise RulesError(f"rules: {key}.params.{pk}: card {n} has no such parameter; its parameters: {have}")
            _check_same_shape(f"{key}.params.{pk}", params[pk], pv)
            params[pk] = pv


def apply_overrides(doc: dict, overrides: dict) -> dict:
    """Return a copy of ``doc`` with plain values from ``overrides`` put into its leaves (and, under
    ``affiliate.<number>.params``, into an Affiliate card's power parameters). A shorthand of the rules
    file (``character.most_vp``, :mod:`rulesfile`) sets each key it stands for but those ``overrides`` sets
    itself: a Character's own key, given beside it, is that Character's."""
    doc = copy.deepcopy(doc)
    leaves = _leaf_paths(doc)
    short = shorthands(doc, RulesError)
    given = given_keys(overrides)

    def walk(o: dict, prefix: str) -> None:
        for key, v in o.items():
            path = f"{prefix}{key}"
            if path == "affiliate":
                _override_affiliates(doc, v)
            elif path in leaves:
                base = leaves[path]["value"]
                if isinstance(v, dict) and "value" in v:
                    v = v["value"]
                _check_same_shape(path, base, v)
                leaves[path]["value"] = v
            elif path in short:
                if isinstance(v, dict) and "value" in v:
                    v = v["value"]
                for key in short[path]:
                    _check_same_shape(path, leaves[key]["value"], v)
                    if key not in given:
                        leaves[key]["value"] = v
                        if isinstance(v, int) and not isinstance(v, bool):
                            try:  # its range now, named as given (the others' are checked when the document is packed)
                                rule_int(doc, key)
                            except RulesError as e:
                                raise RulesError(str(e).replace(f"rules: {key}:", f"rules: {path} ({key}):", 1)) from None
            elif path in ("map.districts", "map.special", "map.start"):
                if not isinstance(v, str):
                    raise RulesError(f"rules: {path}: expected a map picture (string), got {v!r}")
                doc["map"][key] = v
            elif path in ("map.district_names", "map.district_sides"):
                if not (isinstance(v, list) and len(v) == N_DISTRICTS and all(isinstance(x, str) for x in v)):
                    raise RulesError(f"rules: {path}: expected a list of {N_DISTRICTS} strings, got {v!r}")
                doc["map"][key] = v
            elif isinstance(v, dict) and (path == "map" or any(p.startswith(path + ".") for p in leaves)):
                walk(v, path + ".")
            else:
                while isinstance(v, dict) and v:  # name the whole dotted key that was given
                    first = next(iter(v))
                    path, v = f"{path}.{first}", v[first]
                near = sorted(p for p in leaves if p.split(".")[0] == path.split(".")[0])
                hint = f"; keys under [{path.split('.')[0]}]: {', '.join(near)}" if near else ""
                raise RulesError(f"rules: {path}: no such rule{hint}")

    walk(overrides, "")
    return doc


def recorded_doc(doc: dict) -> dict:
    """A rules document as a run recorded it (its manifest), read by today's rules: where the bundled file has
    since split a number into one key per card (a shorthand, :func:`rulesfile.shorthands`) and the recorded
    document holds the old number as a rule, each new key gets that rule (the same value, the same source), so
    that a run recorded before the split replays as it was played. Anything else is returned unchanged."""
    out = None
    for path, keys in shorthands(read_toml(DEFAULT_RULES, RulesError), RulesError).items():
        *table, name = path.split(".")
        t = doc
        for part in table:
            t = t.get(part) if isinstance(t, dict) else None
        old = t.get(name) if isinstance(t, dict) else None
        if not (isinstance(old, dict) and "value" in old):
            continue
        if out is None:
            out = copy.deepcopy(doc)
        tt = out
        for part in table:
            tt = tt[part]
        for key in keys:
            tt.setdefault(key.rsplit(".", 1)[1], dict(old))
        del tt[name]
    return doc if out is None else out


def load_rules_doc(path: str | Path | None = None, overrides: dict | str | Path | None = None) -> dict:
    """Read the rules file (its shorthands checked) and merge overrides (a dict or a TOML file path)."""
    doc = read_toml(path or DEFAULT_RULES, RulesError)
    shorthands(doc, RulesError)  # a bad shorthand fails with the file, not at its first override
    if overrides is not None:
        doc = apply_overrides(doc, overrides_table(overrides, RulesError))
    return doc


def rule_value(doc: dict, key: str) -> Any:
    """The value at dotted ``key`` (a tagged leaf's value, its source checked); missing: an error."""
    node: Any = doc
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise RulesError(f"rules: {key}: missing")
        node = node[part]
    if isinstance(node, dict) and "value" in node:
        src = node.get("source")
        if src not in ("rulebook", "ruling", "reading", "engine"):
            raise RulesError(f"rules: {key}: source must be rulebook, ruling, reading or engine, got {src!r}")
        node = node["value"]
    return node


def rule_int(doc: dict, key: str) -> int:
    """An integer rule, checked against its range (``RANGES``) or, untagged, to be >= 0 (unless ``NEGATIVE_OK``)."""
    v = rule_value(doc, key)
    if isinstance(v, bool):
        v = int(v)
    if not isinstance(v, int):
        raise RulesError(f"rules: {key}: expected an integer, got {v!r}")
    lo, hi = RANGES.get(key, (None, None))
    if lo is not None and not lo <= v <= hi:
        raise RulesError(f"rules: {key}: must be in {lo}..{hi}, got {v}")
    if lo is None and v < 0 and key not in NEGATIVE_OK:
        raise RulesError(f"rules: {key}: must be >= 0, got {v}")
    return v


def rule_ints(doc: dict, key: str, n: int | None = None) -> np.ndarray:
    """A list of ``n`` integers (any length when None), each >= 0 unless ``NEGATIVE_OK``."""
    v = rule_value(doc, key)
    if not isinstance(v, list) or not all(isinstance(x, (int, bool)) for x in v):
        raise RulesError(f"rules: {key}: expected a list of integers, got {v!r}")
    if n is not None and len(v) != n:
        raise RulesError(f"rules: {key}: expected a list of {n} integers, got {len(v)}")
    if key not in NEGATIVE_OK and any(int(x) < 0 for x in v):
        raise RulesError(f"rules: {key}: values must be >= 0, got {v}")
    return np.array([int(x) for x in v], np.int32)



def ai_strength_names(doc: dict | None = None) -> list[str]:
    """The A.I. strengths by index (``solo.strengths``)."""
    doc = doc or load_rules_doc()
    return list(rule_value(doc, "solo.strengths"))



def rules_hash(doc: dict) -> str:
    """A stable hash of the resolved rules document (for run manifests)."""
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


def character_names(doc: dict | None = None) -> list[str]:
    doc = doc or load_rules_doc()
    return list(rule_value(doc, "cards.characters"))


def major_names(doc: dict | None = None) -> list[str]:
    doc = doc or load_rules_doc()
    return list(rule_value(doc, "major.names"))
