"""Strategy files: ``strategies/*.toml`` give a name, a family and weights over named features.

``load_strategies(names)`` validates the files and returns the weight matrix ``W`` (one row per
strategy id, column 0 = family) used by the jitted policy entry point.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from strategies.policy import FAMILY_GREEDY, FAMILY_RANDOM, FEATURES, N_FEATURES

STRATEGY_DIR = Path(__file__).parent
FAMILIES = {"random": FAMILY_RANDOM, "greedy": FAMILY_GREEDY}


class StrategyError(ValueError):
    """A strategy file is invalid; the message is one line naming the file and key."""


def available() -> list[str]:
    return sorted(p.stem for p in STRATEGY_DIR.glob("*.toml"))


def load_strategy_file(path: Path) -> np.ndarray:
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise StrategyError(f"strategy {path.name}: {e}") from None
    fam = doc.get("family")
    if fam not in FAMILIES:
        raise StrategyError(f"strategy {path.name}: family: allowed: {', '.join(FAMILIES)}, got {fam!r}")
    row = np.zeros(N_FEATURES, np.float64)
    row[0] = FAMILIES[fam]
    weights = doc.get("weights", {})
    if not isinstance(weights, dict):
        raise StrategyError(f"strategy {path.name}: weights: expected a table of feature = number")
    for key, v in weights.items():
        if key not in FEATURES[1:]:
            raise StrategyError(f"strategy {path.name}: weights.{key}: unknown feature; allowed: {', '.join(FEATURES[1:])}")
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise StrategyError(f"strategy {path.name}: weights.{key}: expected a number, got {v!r}")
        row[FEATURES.index(key)] = float(v)
    return row


def load_strategies(names: list[str]) -> tuple[np.ndarray, list[str]]:
    """Weight matrix for the distinct names (in first-seen order) and the names by row.
    A name is a file stem in strategies/ or a path to a TOML file."""
    distinct: list[str] = []
    for n in names:
        if n not in distinct:
            distinct.append(n)
    W = np.zeros((len(distinct), N_FEATURES), np.float64)
    for i, n in enumerate(distinct):
        p = Path(n)
        if p.suffix != ".toml":
            p = STRATEGY_DIR / f"{n}.toml"
        if not p.exists():
            raise StrategyError(f"strategy {n}: not found; available: {', '.join(available())}")
        W[i] = load_strategy_file(p)
    return W, distinct
