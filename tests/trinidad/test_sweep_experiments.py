"""Sweeps in experiment files (issue 96, item 1; trinidad.games.sweeps): a rules key and its values, a
list or a range, two keys a grid, expanded into variants on the baseline's seeds for both games, the
baseline identified as a point, the description the report reads recorded in the experiment; every bad
sweep is one line naming it. No game is played here."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from trinidad.experiment import ExperimentError, experiment_from_dict, load_experiment
from trinidad.games import game_of
from trinidad.games.sweeps import MAX_VALUES, leaf, merge, nest, short

ROOT = Path(__file__).resolve().parents[2]
CAPTAIN = "character.captain_vp"  # 8 VP x Era in the rulebook (sim/rulesdata/trinidad.toml)
BISHOP = "character.bishop_cathedral"  # 5


def _names(e) -> list[str]:
    return [v.name for v in e.variants]


def test_a_list_sweep_expands_into_variants_with_the_baseline_as_a_point():
    e = experiment_from_dict({"sweeps": [{"key": CAPTAIN, "values": [10, 4, 6]}]})
    # the values sorted; the baseline's own value (8) is the baseline itself, not a variant played twice
    assert _names(e) == ["base", f"{CAPTAIN}=4", f"{CAPTAIN}=6", f"{CAPTAIN}=10"]
    assert e.variants[1].overrides == {"character": {"captain_vp": 4}}
    [sw] = e.sweeps
    assert sw["name"] == CAPTAIN and sw["baseline"] == "base"
    assert sw["axes"] == [{"key": CAPTAIN, "values": [4, 6, 10], "base": 8}]
    assert [(p["values"], p["variant"]) for p in sw["points"]] == [([4], f"{CAPTAIN}=4"), ([6], f"{CAPTAIN}=6"), ([8], "base"),
                                                                    ([10], f"{CAPTAIN}=10")]
    docs = e.resolved_rules_docs()
    assert [d["character"]["captain_vp"]["value"] for d in docs] == [8, 4, 6, 10]
    # the manifest records the sweep (the report finds each variant's values there)
    assert e.to_dict()["sweeps"] == e.sweeps
    assert "sweeps" not in experiment_from_dict({}).to_dict()  # a run without sweeps records as before (resume)


def test_a_range_and_a_grid():
    e = experiment_from_dict({"sweeps": [{"key": CAPTAIN, "from": 4, "to": 12, "step": 4}]})
    assert e.sweeps[0]["axes"][0]["values"] == [4, 8, 12] and _names(e) == ["base", f"{CAPTAIN}=4", f"{CAPTAIN}=12"]
    down = experiment_from_dict({"sweeps": [{"key": CAPTAIN, "from": 12, "to": 4, "step": -4}]})
    assert down.sweeps[0]["axes"][0]["values"] == [4, 8, 12]
    g = experiment_from_dict({"sweeps": [{"name": "grid", "axes": [{"key": CAPTAIN, "values": [4, 8]}, {"key": BISHOP, "values": [3, 5]}]}]})
    assert [p["values"] for p in g.sweeps[0]["points"]] == [[4, 3], [4, 5], [8, 3], [8, 5]]
    assert g.sweeps[0]["points"][-1]["variant"] == "base"  # (8, 5): the rulebook's values
    assert f"{CAPTAIN}=4,{BISHOP}=3" in _names(g) and len(g.variants) == 4
    # a grid whose second values leave out the baseline's has no baseline point (it stays the pairs' reference)
    off = experiment_from_dict({"sweeps": [{"axes": [{"key": CAPTAIN, "values": [4, 8]}, {"key": BISHOP, "values": [3, 7]}]}]})
    assert off.sweeps[0]["name"] == "character.captain_vp x character.bishop_cathedral"
    assert [p["values"] for p in off.sweeps[0]["points"]] == [[4, 3], [4, 7], [8, 3], [8, 7]] and _names(off)[0] == "base"


def test_points_changing_the_same_rules_are_one_variant():
    e = experiment_from_dict({"sweeps": [{"name": "a", "key": CAPTAIN, "values": [4, 6]},
                                         {"name": "b", "axes": [{"key": CAPTAIN, "values": [4]}, {"key": BISHOP, "values": [3, 5]}]}]})
    # (4, 5) changes the Captain alone: sweep a's point
    assert _names(e) == ["base", f"{CAPTAIN}=4", f"{CAPTAIN}=6", f"{CAPTAIN}=4,{BISHOP}=3"]
    assert e.sweeps[1]["points"][1] == {"values": [4, 5], "variant": f"{CAPTAIN}=4"}


def test_sweeps_build_on_the_baseline_and_beside_declared_variants():
    e = experiment_from_dict({"rules": {"overrides": {"setup": {"start_wood": 3}}},
                              "variants": [{"name": "cheap", "overrides": {"building": {"palace": {"workers": 3}}}}, {"name": "other"}],
                              "sweeps": [{"key": CAPTAIN, "values": [6]}]})
    assert _names(e) == ["cheap", "other", f"{CAPTAIN}=6"]
    assert e.variants[2].overrides == {"building": {"palace": {"workers": 3}}, "character": {"captain_vp": 6}}
    doc = e.resolved_rules_docs()[2]
    assert doc["setup"]["start_wood"]["value"] == 3 and doc["character"]["captain_vp"]["value"] == 6
    assert e.sweeps[0]["baseline"] == "cheap" and e.sweeps[0]["points"][1] == {"values": [8], "variant": "cheap"}


def test_a_sweep_of_an_old_shared_key_moves_its_characters_together():
    """``character.most_vp``, the Carpenter's, Stonemason's, Merchant's and Sailmaker's number before each had
    its own key, is a shorthand of the rules file: swept, it moves the four cards together from their common
    value; where the baseline's cards differ it is not one number."""
    four = ("carpenter_most_vp", "stonemason_most_vp", "merchant_most_vp", "sailmaker_most_vp")
    e = experiment_from_dict({"sweeps": [{"key": "character.most_vp", "values": [4, 6]}]})
    assert _names(e) == ["base", "character.most_vp=4", "character.most_vp=6"]
    assert e.sweeps[0]["axes"] == [{"key": "character.most_vp", "values": [4, 6], "base": 5}]
    assert [[d["character"][k]["value"] for k in four] for d in e.resolved_rules_docs()] == [[5] * 4, [4] * 4, [6] * 4]
    with pytest.raises(ExperimentError) as ex:
        experiment_from_dict({"rules": {"overrides": {"character": {"merchant_most_vp": 7}}},
                              "sweeps": [{"key": "character.most_vp", "values": [4]}]})
    assert "sweeps[0].key: character.most_vp is {'carpenter_most_vp': 5, 'stonemason_most_vp': 5, 'merchant_most_vp': 7," in str(ex.value)


def test_rio_sweeps_through_the_same_door():
    e = experiment_from_dict({"game": "rio-de-la-plata", "level": "beginner", "sweeps": [{"key": "office.fine_vp", "from": -5, "to": 0,
                                                                                          "step": 5}]})
    assert _names(e) == ["base", "office.fine_vp=0"] and e.variants[1].level == "beginner"
    assert e.sweeps[0]["axes"][0]["base"] == -5 and e.resolved_rules_docs()[1]["office"]["fine_vp"]["value"] == 0


@pytest.mark.parametrize("d", [
    {"sweeps": [{"key": CAPTAIN, "values": [4, 6]}], "variants": [{"name": "base"}, {"name": "x"}]},
    {"sweeps": [{"key": CAPTAIN, "values": [4, 6]}], "ai": {"strength": "weak"}, "players": 1},
    {"game": "rio-de-la-plata", "sweeps": [{"name": "fine", "axes": [{"key": "office.fine_vp", "values": [-5, 0]},
                                                                     {"key": "office.fine_vp2", "values": [1]}][:1]}]},
], ids=["declared", "ai", "rio"])
def test_the_record_reads_back_to_the_same_points(d):
    """Workers and --resume read the experiment back from its record (the game's record, or the manifest's
    experiment): the sweeps make the same points again, not points of points."""
    e = experiment_from_dict(d)
    again = experiment_from_dict(json.loads(json.dumps(game_of(e).record(e))))
    assert again.to_dict() == e.to_dict()
    m = json.loads(json.dumps(e.to_dict()))  # as trinidad.runner.manifest.experiment_of_run reads a manifest
    ns = SimpleNamespace(**(m | {k: [SimpleNamespace(**v) for v in m[k]] for k in ("variants", "declared_variants")}))
    assert experiment_from_dict(game_of(e).record(ns)).to_dict() == e.to_dict()


@pytest.mark.parametrize("sweep, line", [
    ({"key": "character.nope", "values": [1]}, "sweeps[0].key: character.nope: no such rule"),
    ({"key": "office.fine_vp", "values": [1]}, "sweeps[0].key: office.fine_vp: a Río de la Plata rule"),
    ({"key": "character.architect_vp", "values": [1]}, "sweeps[0].key: character.architect_vp is [3, 5], not a number"),
    ({"key": CAPTAIN, "values": []}, "sweeps[0].values: expected a non-empty list of numbers"),
    ({"key": CAPTAIN, "values": [4, 4]}, "sweeps[0].values: values must be distinct"),
    ({"key": CAPTAIN, "values": [4, "6"]}, "sweeps[0].values: expected numbers"),
    ({"key": CAPTAIN, "values": [-2]}, "sweeps[0].values: character.captain_vp = -2: must be >= 0"),
    ({"key": CAPTAIN, "values": [4.5]}, "sweeps[0].values: character.captain_vp = 4.5: expected an integer"),
    ({"key": CAPTAIN, "from": 4, "to": 12, "step": 0}, "sweeps[0].step: must not be 0"),
    ({"key": CAPTAIN, "from": 4, "to": 12, "step": -2}, "sweeps[0].step: a step of -2 goes away from 12"),
    ({"key": CAPTAIN, "from": 4, "to": 11, "step": 2}, "sweeps[0].to: from 4 by 2 does not reach 11 (the last value would be 10)"),
    ({"key": CAPTAIN, "from": 4, "to": 12}, "sweeps[0].step: a range needs from, to and step"),
    ({"key": CAPTAIN, "from": 0, "to": 10 * MAX_VALUES, "step": 1}, f"at most {MAX_VALUES} a key"),
    ({"key": CAPTAIN, "values": [4], "step": 2}, "sweeps[0].step: give values = [...] or from, to and step, not both"),
    ({"key": CAPTAIN}, "sweeps[0]: expected values = [...] or from, to and step"),
    ({"key": CAPTAIN, "value": [4]}, "sweeps[0].value: unknown key; allowed: name, axes, key, values, from, to, step"),
    ({"key": "", "values": [4]}, "sweeps[0].key: expected a dotted rules key"),
    ({"axes": [{"key": CAPTAIN, "values": [4]}] * 3}, "sweeps[0].axes: expected 1 or 2 tables"),
    ({"axes": [{"key": CAPTAIN, "values": [4]}, {"key": CAPTAIN, "values": [6]}]}, "a grid moves two different keys"),
    ({"axes": [{"key": CAPTAIN, "values": [4]}, {"key": BISHOP, "values": [-1]}]},
     "sweeps[0].axes[1].values: character.bishop_cathedral = -1"),
    ({"axes": [{"key": CAPTAIN, "values": [4]}], "key": CAPTAIN}, "sweeps[0].key: a sweep gives its key and values, or its axes"),
])
def test_a_bad_sweep_is_one_line_naming_it(sweep, line):
    with pytest.raises(ExperimentError) as ex:
        experiment_from_dict({"sweeps": [sweep]})
    msg = str(ex.value)
    assert "\n" not in msg and msg.startswith("experiment: ") and line in msg, msg


def test_bad_sweeps_of_the_experiment_are_one_line():
    for d, line in [
        ({"sweeps": {"key": CAPTAIN}}, "sweeps: expected [[sweeps]] tables"),
        ({"sweeps": [{"name": "a", "key": CAPTAIN, "values": [4]}, {"name": "a", "key": BISHOP, "values": [3]}]},
         "sweeps[1].name: sweep names must be distinct"),
        ({"sweeps": [{"key": CAPTAIN, "values": [4]}], "variants": [{"name": f"{CAPTAIN}=4"}]}, "has the name of a declared variant"),
        ({"sweeps": [{"key": CAPTAIN, "values": [4]}], "ai": {"strength": ["weak", "medium"]}, "players": 1},
         "ai.strength: several A.I. strengths with [[sweeps]]"),
        ({"game": "rio-de-la-plata", "sweeps": [{"key": CAPTAIN, "values": [4]}]}, "sweeps[0].key: character.captain_vp: a Trinidad rule"),
        ({"game": "rio-de-la-plata", "level": ["beginner", "expert"], "sweeps": [{"key": "office.fine_vp", "values": [0]}]},
         "level: several levels with [[sweeps]]"),
    ]:
        with pytest.raises(ExperimentError) as ex:
            experiment_from_dict(d)
        assert "\n" not in str(ex.value) and line in str(ex.value), (line, str(ex.value))


def test_the_helpers():
    assert short("character.captain_vp") == "character.captain_vp" and short("building.palace.workers") == "palace.workers"
    assert nest("a.b.c", 1) == {"a": {"b": {"c": 1}}}
    assert merge({"a": {"b": 1, "c": 2}}, {"a": {"b": 3}, "d": 4}) == {"a": {"b": 3, "c": 2}, "d": 4}
    doc = {"a": {"b": {"value": 3, "source": "rulebook"}}, "affiliate": [{"number": 40, "params": {"x": 2}}]}
    assert leaf(doc, "a.b") == 3 and leaf(doc, "affiliate.40.params.x") == 2 and not isinstance(leaf(doc, "a.c"), int)


def test_the_example_sweeps_load():
    """docs/data/sweeps (docs/reference/experiments.md, "Sweeps"): a 1-D sweep over two player counts and a grid."""
    one = load_experiment(ROOT / "docs" / "data" / "sweeps" / "captain-vp.toml")
    assert one.players == [3, 4] and one.strategies == ["heuristic"] and len(one.sweeps[0]["points"]) == 5
    grid = load_experiment(ROOT / "docs" / "data" / "sweeps" / "captain-bishop-grid.toml")
    assert [len(a["values"]) for a in grid.sweeps[0]["axes"]] == [3, 3] and len(grid.variants) == 9
