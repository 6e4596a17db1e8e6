"""Río de la Plata's rules data: read ``rulesdata/rio-de-la-plata.toml``, check every tag, apply overrides,
validate shapes and ranges, and pack the numbers into :class:`Rules`, a NamedTuple of small numpy integer
arrays indexed by the IntEnums (int32 for money and VP, int8 for the city map's pictures).

The front door: :func:`load_rules` and :func:`load_rules_doc` live here, and every public name of the
rules modules is importable from here (``from rio.rules import K, Building, RulesError, load_rules``):

- :mod:`rio.keys`: :class:`RulesError`, the enums (the rulebook's components, the arrays' columns), the
  scalar key table ``K`` and the values each key allows;
- :mod:`rio.tags`: the tagged leaves (``{value, source, ref}``) and their refs checked against the
  rulebook's headings and the rulings (the bundled sources file and its writer);
- :mod:`rio.overrides`: overrides put into a document's leaves, shape-checked;
- :mod:`rio.packing`: :class:`Rules` and the packing of a checked document into it.

They import one way (keys <- tags <- overrides, packing <- rules). Reading the file and checking an
override's shape is the format both games' rules files share (:mod:`rulesfile`). Plain Python (tomllib,
numpy), no compiler. Every bad input is one :class:`RulesError` line naming the key.
"""

from __future__ import annotations

from pathlib import Path

from rio import keys, tags
from rio.keys import *  # noqa: F403  (the front door re-exports every public name of rio.keys and rio.tags: their __all__)
from rio.keys import RulesError
from rio.overrides import apply_overrides
from rio.packing import Rules, pack
from rio.tags import *  # noqa: F403
from rio.tags import DATA, check_tags, write_sources
from rulesfile import overrides_table, read_toml

__all__ = [*keys.__all__, *tags.__all__, "DEFAULT_RULES", "GAME", "Rules", "apply_overrides", "load_rules", "load_rules_doc", "pack"]

GAME = "rio-de-la-plata"
DEFAULT_RULES = DATA / "rio-de-la-plata.toml"


def load_rules_doc(path: str | Path | None = None, overrides: dict | str | Path | None = None) -> dict:
    """Read the rules file (the bundled one by default), check it is this game's, merge overrides (a dict or a
    TOML file path) and check every leaf's tag."""
    p = Path(path) if path else DEFAULT_RULES
    doc = read_toml(p, RulesError)
    game = doc.get("meta", {}).get("game")
    if game != GAME:
        raise RulesError(f"rules: {p}: meta.game is {game!r}, expected {GAME!r} (the other game's rules file?)")
    if overrides is not None:
        doc = apply_overrides(doc, overrides_table(overrides, RulesError))
    check_tags(doc)
    return doc


def load_rules(path: str | Path | None = None, overrides: dict | str | Path | None = None) -> Rules:
    """Read, check, override and pack the rules (the bundled file by default)."""
    return pack(load_rules_doc(path, overrides))


if __name__ == "__main__":  # python -m rio.rules DIR: rewrite the bundled sources from ../shared/rules/rio-de-la-plata
    import sys

    print(write_sources(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "shared" / "rules" / "rio-de-la-plata"))
