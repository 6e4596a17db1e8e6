"""Strategy files: ``strategies/*.toml`` give a name, a family and weights over named features.

``load_strategies(names)`` validates the files and returns the weight matrix ``W`` (one row per
strategy id, column 0 = family) used by the jitted policy entry point.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from sim.codes import Ch
from sim.state import N_CHARACTERS, N_WEIGHTS
from strategies.policy import FAMILY_GREEDY, FAMILY_HEURISTIC, FAMILY_RANDOM, FEATURES

STRATEGY_DIR = Path(__file__).parent
FAMILIES = {"random": FAMILY_RANDOM, "greedy": FAMILY_GREEDY, "heuristic": FAMILY_HEURISTIC}
# W columns: block 0 = the strategy's weights, block 1 + c = its weights when holding Character c
# (sim.game.setup switches each seat to its Character's block once Characters are dealt)
W_COLUMNS = N_WEIGHTS * (1 + N_CHARACTERS)
CHARACTER_KEYS = [c.name.capitalize() for c in Ch]


class StrategyError(ValueError):
    """A strategy file is invalid; the message is one line naming the file and key."""


def available() -> list[str]:
    return sorted(p.stem for p in STRATEGY_DIR.glob("*.toml"))


def _weights(path: Path, key: str, table, base: np.ndarray) -> np.ndarray:
    if not isinstance(table, dict):
        raise StrategyError(f"strategy {path.name}: {key}: expected a table of feature = number")
    row = base.copy()
    for k, v in table.items():
        if k not in FEATURES[1:]:
            raise StrategyError(f"strategy {path.name}: {key}.{k}: unknown feature; allowed: {', '.join(FEATURES[1:])}")
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise StrategyError(f"strategy {path.name}: {key}.{k}: expected a number, got {v!r}")
        row[FEATURES.index(k)] = float(v)
    return row


def load_strategy_file(path: Path) -> np.ndarray:
    """One W row: ``family``, ``[weights]`` and optional ``[characters.<Name>]`` tables, each the
    weights that change when the seat holds that Character (the rest as in ``[weights]``)."""
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise StrategyError(f"strategy {path.name}: {e}") from None
    unknown = set(doc) - {"name", "family", "weights", "characters", "description"}
    if unknown:
        raise StrategyError(f"strategy {path.name}: {sorted(unknown)[0]}: unknown key; allowed: name, description, family, weights, characters")
    fam = doc.get("family")
    if fam not in FAMILIES:
        raise StrategyError(f"strategy {path.name}: family: allowed: {', '.join(FAMILIES)}, got {fam!r}")
    base = np.zeros(N_WEIGHTS, np.float64)
    base[0] = FAMILIES[fam]
    base = _weights(path, "weights", doc.get("weights", {}), base)
    row = np.zeros(W_COLUMNS, np.float64)
    row[:N_WEIGHTS] = base
    chars = doc.get("characters", {})
    if not isinstance(chars, dict):
        raise StrategyError(f"strategy {path.name}: characters: expected [characters.<Name>] tables")
    for name in chars:
        if name not in CHARACTER_KEYS:
            raise StrategyError(f"strategy {path.name}: characters.{name}: unknown Character; allowed: {', '.join(CHARACTER_KEYS)}")
    for c, name in enumerate(CHARACTER_KEYS):
        row[N_WEIGHTS * (1 + c):N_WEIGHTS * (2 + c)] = _weights(path, f"characters.{name}", chars.get(name, {}), base)
    return row


def load_strategies(names: list[str]) -> tuple[np.ndarray, list[str]]:
    """Weight matrix for the distinct names (in first-seen order) and the names by row.
    A name is a file stem in strategies/ or a path to a TOML file."""
    distinct: list[str] = []
    for n in names:
        if n not in distinct:
            distinct.append(n)
    W = np.zeros((len(distinct), W_COLUMNS), np.float64)
    for i, n in enumerate(distinct):
        p = Path(n)
        if p.suffix != ".toml":
            p = STRATEGY_DIR / f"{n}.toml"
        if not p.exists():
            raise StrategyError(f"strategy {n}: not found; available: {', '.join(available())}")
        W[i] = load_strategy_file(p)
    return W, distinct
