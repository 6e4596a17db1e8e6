"""The shipped experiment files (trinidad/experiments/*.toml) load, and the Extended War
comparison plays the normal War and the expansion as two variants on the same seeds."""

from __future__ import annotations

from pathlib import Path

import pytest

from trinidad.experiment import load_experiment

FILES = sorted((Path(__file__).parents[2] / "trinidad" / "experiments").glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_shipped_experiment_loads(path):
    e = load_experiment(path)
    assert e.games > 0 and e.variants and len(e.resolved_rules_docs()) == len(e.variants)


def test_the_extended_war_comparison():
    e = load_experiment(Path(__file__).parents[2] / "trinidad" / "experiments" / "extended-war.toml")
    assert [v.name for v in e.variants] == ["normal-war", "extended-war"]
    docs = e.resolved_rules_docs()
    assert [d["extended_war"]["enabled"]["value"] for d in docs] == [False, True]
    # nothing else differs between the two variants' rules: the comparison is of the War rules alone
    a, b = docs
    b = {**b, "extended_war": {**b["extended_war"], "enabled": a["extended_war"]["enabled"]}}
    assert a == b
    assert e.players == [4] and e.char_assign == "balanced" and e.strategies == ["heuristic"] and not e.overrides
    assert "extended-war" in {p.stem for p in FILES}
