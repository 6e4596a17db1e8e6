"""``trinidad balance`` on real games, tiny (the heuristic, 4 players, the Captain's VP alone, a few hundred
games): the command writes the proposal as a rules override file the rules accept, the verification run on
the verification's seed with its report, and the balance summary; the search played again on one worker
measures the same points and proposes the same values (the same spec and seed, any number of workers)."""

from __future__ import annotations

import json
import tomllib

import polars as pl
from typer.testing import CliRunner

from reports import build
from reports.html import Figure
from sim.rules import load_rules
from trinidad.balance.search import search
from trinidad.balance.spec import read_spec
from trinidad.cli import app
from trinidad.experiment import experiment_from_dict

SPEC = """name = "tiny"
player = "heuristic"
players = 4
seed = 3
budget = 480
rounds = 1
verify_games = 48

[target]
tolerance = 0.02

[[knobs]]
key = "character.captain_vp"
min = 4
max = 12
probe = 2
"""


def test_a_tiny_search_its_verification_and_the_same_proposal_on_one_worker(engine, tmp_path, monkeypatch):
    # the report's charts are its own tests' (tests/reports): drawing its 33 here would take most of this test's time
    monkeypatch.setattr(build, "_draw", lambda stem, caption, fn, chart_dir: Figure(stem, caption, None, "not drawn in this test"))
    spec = tmp_path / "tiny.toml"
    spec.write_text(SPEC)
    out = tmp_path / "two"
    r = CliRunner().invoke(app, ["balance", str(spec), "--out", str(out), "--workers", "2", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "# Balance: tiny" in r.output and "## Verification by `heuristic`" in r.output
    doc = json.loads((out / "balance.json").read_text())
    # round 0: the rules and the Captain's probe; round 1: the step's point and its probe; 96 games each (the budget but the
    # 15% kept for the other knobs, over 4 variants, in blocks of 12)
    assert [rd["games"] for rd in doc["rounds"] if rd["games"]] == [96, 96] and doc["games_spent"] == 4 * 96
    assert doc["points"][0]["values"] == {"character.captain_vp": 8} and doc["points"][0]["moved"] == []
    cap = next(s for s in doc["sensitivity"] if s["knob"] == "character.captain_vp")
    assert cap["per_unit"][doc["rows"].index("Captain")] > 0  # more VP a Era, more Captain wins
    # the proposal: a rules override file the rules accept (the Captain's VP, if moved, within its bounds)
    over = tomllib.loads((out / "proposal.toml").read_text())
    rules = load_rules(overrides=out / "proposal.toml")
    assert over == ({"character": {"captain_vp": doc["moved"][0]["proposal"]}} if doc["moved"] else {})
    assert rules is not None and all(4 <= m["proposal"] <= 12 for m in doc["moved"])
    # the verification: the rules and the proposal on the verification's seed, with its report
    [v] = doc["verification"]
    assert (out / "verify" / "report" / "index.html").exists() and v["report"].endswith("index.html")
    assert "variant_characters" in (out / "verify" / "report" / "summary.json").read_text() or not doc["moved"]
    m = json.loads((out / "verify" / "manifest.json").read_text())
    assert m["experiment"]["seed"] == doc["verify_seed"] != doc["search_seed"]
    assert [x["name"] for x in m["experiment"]["variants"]] == (["rules", "proposal"] if doc["moved"] else ["rules"])
    g = pl.read_parquet(out / "verify" / "games" / "*.parquet")
    assert g.filter(pl.col("seat") == 0).height == 48 * len(m["experiment"]["variants"])
    assert [r["group"] for r in v["rows"]] == doc["rows"] and len(doc["rows"]) == 12
    assert v["chi_square"][0]["before"]["df"] == 11
    again = experiment_from_dict(tomllib.loads((out / "verify.toml").read_text()))  # the verification as an experiment file
    assert again.seed == doc["verify_seed"] and [x.name for x in again.variants] == [x["name"] for x in m["experiment"]["variants"]]
    assert "Chi-square over the groups at 4 players" in (out / "balance.md").read_text()
    # the same spec on one worker: the same points measured, the same proposal
    one = search(read_spec(spec, tmp_path / "one"), workers=1, progress=False)
    assert [p.to_dict(doc["rows"], one.spec.knobs)["values"] for p in one.points] == [p["values"] for p in doc["points"]]
    assert [[x["rate"] for x in p["rates"]] for p in doc["points"]] == [p.rate.tolist() for p in one.points]
    assert one.proposal == {x["key"]: x["proposal"] for x in doc["moved"]}
