"""The spec of ``trinidad balance`` (trinidad.balance.spec): its defaults (Trinidad's knobs: the numbers of
the Characters' cards; every Character of each player count as a target row; three seeds drawn from
the spec's: the rounds', the recheck's, the verification's), and every bad spec one line naming its key
before any game (an unknown key, a rule that is not a number, a bound the rules refuse, an empty target,
a budget too small for the knobs). No game is played."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.rules import character_names, load_rules
from trinidad.balance.spec import BalanceError, planned_games, planned_variants, read_spec, spec_from_dict
from trinidad.cli import app

ROOT = Path(__file__).resolve().parents[3]
HERE = Path("spec.toml")
KNOB = {"key": "character.captain_vp"}


def _spec(**kw):
    return spec_from_dict({"player": "heuristic", "budget": 100_000} | kw, HERE)


def test_the_defaults_are_the_characters_numbers_and_every_character():
    s = _spec()
    keys = [k.key for k in s.knobs]
    # each Character's own numbers: the four cards that print 5 for the most of their resource have a key each
    assert len(keys) == 21 and "character.captain_vp" in keys and "character.most_vp" not in keys
    assert {k for k in keys if k.endswith("_most_vp")} == {f"character.{c}_most_vp" for c in ("carpenter", "stonemason", "merchant", "sailmaker")}
    assert "character.small_game_max_players" not in keys and not s.others  # a player count, not a card's number
    cap = next(k for k in s.knobs if k.key == "character.captain_vp")
    assert (cap.value, cap.lo, cap.hi, cap.step, cap.probe) == (8, 0, 16, 1, 2)
    assert s.players == [4] and [r[3] for r in s.rows] == character_names() and s.tolerance == 0.04
    assert s.player == "heuristic" and spec_from_dict({"budget": 100_000}, HERE).player == "best"
    assert s.out == Path("runs/balance-spec") and s.rounds == 3 and s.verify_games == 2400
    # the search's and the verification's seeds: two streams of the spec's seed, the same every time
    assert s.derived_seed(0) != s.derived_seed(1) and s.derived_seed(0) == _spec().derived_seed(0) != _spec(seed=2).derived_seed(0)
    assert 0 <= s.derived_seed(1) < 2**63
    # the recheck: as many games a variant as the verification unless the spec says (0: none), its seed a third stream
    assert (s.recheck_games, s.recheck) == (2400, 2400) and s.derived_seed(2) not in (s.derived_seed(0), s.derived_seed(1))
    assert _spec(verify_games=480).recheck == 480 and _spec(recheck_games=0).recheck == 0 and _spec(recheck_games=100).recheck == 96
    assert s.recheck_steps == 1 and _spec(recheck_steps=3).recheck_steps == 3


def test_named_knobs_and_the_others_of_the_game():
    s = _spec(knobs=[KNOB | {"min": 2, "max": 12, "probe": 2}, {"key": "character.bishop_cathedral", "step": 1}],
              players=[3, 4], target={"tolerance": 0.05, "groups": ["Captain", "Bishop"]})
    assert [(k.key, k.lo, k.hi) for k in s.knobs] == [("character.captain_vp", 2, 12), ("character.bishop_cathedral", 0, 10)]
    assert len(s.others) == 19 and not any(k.allowed for k in s.others)  # measured only where the target is out of reach
    assert [(r[0], r[3]) for r in s.rows] == [(3, "Captain"), (3, "Bishop"), (4, "Captain"), (4, "Bishop")]
    assert s.overrides_at({"character.captain_vp": 6, "character.bishop_cathedral": 5}) == {"character": {"captain_vp": 6}}
    doc = s.experiment_doc("x", Path("o"), 24, 9, "heuristic", [{"name": "base"}])
    assert doc["characters"] == {"assign": "balanced"} and doc["seats"] == {"strategies": ["heuristic"]} and doc["players"] == [3, 4]


def test_a_knob_of_an_old_shared_key_moves_its_characters_together():
    """``character.most_vp`` (the four cards' number before each had its own key) is a shorthand: a knob of it
    moves the four at once, from their common value; their own keys stay the game's other knobs."""
    s = _spec(knobs=[{"key": "character.most_vp"}])
    [k] = s.knobs
    assert (k.key, k.value, k.lo, k.hi, k.step, k.probe) == ("character.most_vp", 5, 0, 10, 1, 1)
    assert len(s.others) == 21 and "character.merchant_most_vp" in {o.key for o in s.others}
    assert s.overrides_at({"character.most_vp": 6}) == {"character": {"most_vp": 6}}


@pytest.mark.parametrize("doc, line", [
    ({"budgt": 5}, "balance: budgt: unknown key; allowed: name, game"),
    ({"knobs": [KNOB | {"stp": 1}]}, "balance: knobs[0].stp: unknown key; allowed: key, min, max, step, probe"),
    ({"target": {"tolerence": 0.04}}, "balance: target.tolerence: unknown key"),
    ({"knobs": [{"key": "character.captain_pv"}]}, "balance: knobs[0].key: character.captain_pv: no such rule; keys under [character]:"),
    ({"knobs": [{"key": "character.architect_vp"}]}, "balance: knobs[0].key: character.architect_vp is [3, 5], not a number"),
    ({"knobs": [{"key": "character.noblewoman_war_without_battle"}]}, "not a number: a knob moves one rules number"),
    ({"knobs": [KNOB, KNOB]}, "balance: knobs[1].key: character.captain_vp is given twice"),
    ({"knobs": [KNOB | {"min": -2}]}, "balance: knobs[0].min: character.captain_vp = -2: must be >= 0, got -2"),
    ({"knobs": [{"key": "setup.war_markers", "max": 5}]}, "balance: knobs[0].max: setup.war_markers = 5: must be in 0..3, got 5"),
    ({"knobs": [KNOB | {"min": 9, "max": 12}]}, "balance: knobs[0].min: character.captain_vp is 8 in the rules, outside 9..12"),
    ({"knobs": [KNOB | {"min": 6, "max": 6}]}, "balance: knobs[0].max: must be above min (6), got 6"),
    ({"knobs": [KNOB | {"step": 0}]}, "balance: knobs[0].step: must be above 0, got 0"),
    ({"knobs": [KNOB | {"step": 2, "min": 1}]}, "balance: knobs[0].min: 1 is not on the grid of character.captain_vp"),
    ({"knobs": [KNOB | {"step": 2, "probe": 3}]}, "balance: knobs[0].probe: expected a whole number of steps of 2"),
    ({"knobs": [KNOB | {"max": 10.5}]}, "balance: knobs[0].max: expected an integer (character.captain_vp is 8), got 10.5"),
    ({"knobs": []}, "balance: knobs: expected [[knobs]] tables"),
    ({"target": {"groups": []}}, "balance: target.groups: empty: name at least one group"),
    ({"target": {"groups": ["Pirate"]}}, "balance: target.groups: unknown group 'Pirate'; Trinidad's: Architect, Bishop"),
    ({"target": {"tolerance": 0}}, "balance: target.tolerance: expected a win-rate distance"),
    ({"player": "champion"}, "balance: player: strategy champion: not found; available: best = "),
    ({"check_player": "champion"}, "balance: check_player: strategy champion: not found"),
    ({"players": 7}, "balance: players: expected a player count 2..5"),
    ({"budget": None}, "balance: budget: required"),
    ({"budget": 500}, "balance: budget: 500 games are too few for 21 knobs and 3 confirming rounds at 1 player count(s): 31 variants "
                      "of at least 24 games each need a budget of at least 744"),
    ({"knobs": [{"key": "character.most_vp"}, {"key": "character.merchant_most_vp"}]},
     "balance: knobs[1].key: character.most_vp is a shorthand of character.carpenter_most_vp, character.stonemason_most_vp, "
     "character.merchant_most_vp, character.sailmaker_most_vp; beside a knob of character.merchant_most_vp it would not move "
     "character.merchant_most_vp: give the shorthand or its keys, not both"),
    ({"knobs": [{"key": "character.sailmaker_max_vp"}, {"key": "character.surplus_cap_vp"}]},
     "balance: knobs[1].key: character.surplus_cap_vp is a shorthand of character.merchant_max_vp, character.sailmaker_max_vp; beside"),
    ({"knobs": [{"key": "character.most_vp"}], "rules": {"overrides": {"character": {"carpenter_most_vp": 6}}}},
     "balance: knobs[0].key: character.most_vp is {'carpenter_most_vp': 6, 'stonemason_most_vp': 5, 'merchant_most_vp': 5, "
     "'sailmaker_most_vp': 5}, not a number"),
    ({"rounds": 50}, "balance: rounds: expected an integer 0..20, got 50"),
    ({"game": "chess"}, "balance: game: unknown game 'chess'; allowed: trinidad, rio-de-la-plata"),
    ({"game": "rio-de-la-plata"}, "balance: knobs: Río de la Plata has no default knobs: name the rules numbers"),
    ({"rules": {"overrides": {"character": {"captain": 3}}}}, "balance: rules: character.captain: no such rule"),
    ({"rules": {"overrides": "no-such-proposal.toml"}},
     "balance: rules.overrides: expected a table of rule overrides or an existing override file, got 'no-such-proposal.toml'"),
    # the other targets (issue 96, item 3)
    ({"target": {"seats": 0.7}}, "balance: target.seats: expected a win-rate distance as a fraction above 0 and below 0.5"),
    ({"target": {"ai": {"strength": "weak"}}}, "balance: target.ai: expected [[target.ai]] tables, each with a strength and a band"),
    ({"target": {"ai": [{"strength": "hard", "rate": 0.5}]}}, "balance: target.ai[0].strength: unknown strength 'hard'; the rules': weak, "
                                                             "medium, strong, divinity"),
    ({"target": {"ai": [{"strength": "weak", "rate": 0.5}, {"strength": "weak", "min": 0.2}]}},
     "balance: target.ai[1].strength: weak is given twice"),
    ({"target": {"ai": [{"strength": "weak", "rate": 0.5, "games": 96}]}},
     "balance: target.ai[0].games: unknown key; allowed: strength, rate, tolerance, min, max"),
    ({"target": {"ai": [{"strength": "weak"}]}}, "balance: target.ai[0]: no band: give rate (and tolerance), or min and/or max"),
    ({"target": {"ai": [{"strength": "weak", "rate": 0.5, "max": 0.6}]}}, "balance: target.ai[0]: give rate (and tolerance) or min "
                                                                         "and/or max, not both"),
    ({"target": {"ai": [{"strength": "weak", "min": 0.2, "tolerance": 0.05}]}}, "balance: target.ai[0].tolerance: goes with rate"),
    ({"target": {"ai": [{"strength": "weak", "rate": 1.5}]}}, "balance: target.ai[0].rate: expected a rate as a fraction 0..1"),
    ({"target": {"ai": [{"strength": "weak", "rate": 0.5, "tolerance": 0.5}]}}, "balance: target.ai[0].tolerance: expected a distance"),
    ({"target": {"records": [{"column": "built_palce", "min": 0.1}]}},
     "balance: target.records[0].column: unknown column 'built_palce' of Trinidad's games table (did you mean built_palace"),
    ({"target": {"records": [{"column": "character", "min": 0.1}]}}, "balance: target.records[0].column: unknown column 'character'"),
    ({"target": {"records": [{"min": 0.1}]}}, "balance: target.records[0].column: expected a column of the games table"),
    ({"target": {"records": [{"column": "built_palace", "min": 0.5, "max": 0.2}]}}, "balance: target.records[0].max: must be above min "
                                                                                   "(0.5), got 0.2"),
    ({"target": {"records": [{"column": "built_palace", "min": 0}]}}, "balance: target.records[0]: min 0 and max 1 hold every rate"),
    ({"target": {"records": [{"column": "built_palace", "min": 0.1, "per": "decade"}]}},
     "balance: target.records[0].per: expected one of game, seat"),
    ({"target": {"records": [{"column": "built_palace", "min": 0.1, "at_least": 0}]}},
     "balance: target.records[0].at_least: expected an integer >= 1, got 0"),
    ({"target": {"records": [{"column": "built_palace", "min": 0.1}, {"column": "built_palace", "max": 0.5}]}},
     "balance: target.records[1].column: built_palace >= 1 by game is given twice"),
    ({"recheck_games": 5}, "balance: recheck_games: expected 0 (no recheck) or at least 12 games, got 5"),
    ({"recheck_games": -1}, "balance: recheck_games: expected an integer >= 0, got -1"),
    ({"recheck_steps": 21}, "balance: recheck_steps: expected an integer 0..20, got 21"),
    ({"recheck_games": 0, "recheck_steps": 2}, "balance: recheck_steps: the recheck plays no games (recheck_games = 0)"),
    ({"verify_ai_games": 100}, "balance: verify_ai_games: expected a multiple of 24 (each Character once before and once after the A.I.)"),
    ({"verify_ai_games": 0, "target": {"ai": [{"strength": "weak", "rate": 0.5}]}},
     "balance: verify_ai_games: target.ai needs the verification's Solo games: at least 24"),
    ({"game": "rio-de-la-plata", "target": {"seats": 0.03}}, "balance: target.seats: Río de la Plata names no seats to hold"),
    ({"game": "rio-de-la-plata", "target": {"ai": [{"strength": "weak", "rate": 0.5}]}},
     "balance: target.ai: Río de la Plata has no Solo A.I. to beat"),
    ({"game": "rio-de-la-plata", "target": {"records": [{"column": "major_palce", "min": 0.5}]}},
     "balance: target.records[0].column: unknown column 'major_palce' of Río de la Plata's games table (did you mean major_palace, "
     "major_walls, major_roads?); docs/reference/dataset.md lists them"),
    ({"game": "rio-de-la-plata", "target": {"records": [{"column": "start_position", "min": 0.5}]}},
     "balance: target.records[0].column: unknown column 'start_position' of Río de la Plata's games table; docs/reference/dataset.md lists them"),
    ({"budget": 1500, "target": {"ai": [{"strength": "weak", "rate": 0.5}, {"strength": "strong", "min": 0.1}]}},
     "balance: budget: 1,500 games are too few for 21 knobs and 3 confirming rounds at 1 player count(s) and 2 Solo A.I. strength(s): 31 "
     "variants of at least 24 games each at each player count and, as many Solo games, at each strength (3 x 24 games a variant) need a "
     "budget of at least 2,232"),
])
def test_every_bad_spec_is_one_line_naming_its_key(doc, line):
    with pytest.raises(BalanceError) as e:
        spec_from_dict({"player": "heuristic", "budget": 100_000} | {k: v for k, v in doc.items() if v is not None}
                       if doc.get("budget", 1) is not None else {"player": "heuristic"}, HERE)
    msg = str(e.value)
    assert "\n" not in msg and line in msg, msg


def test_the_other_targets_their_rows_bands_and_budget():
    s = _spec(knobs=[KNOB], players=[3, 4], target={"tolerance": 0.05, "groups": ["Captain"], "seats": 0.03,
                                                     "records": [{"column": "built_palace", "min": 0.1, "per": "seat"}],
                                                     "ai": [{"strength": "strong", "rate": 0.3}, {"strength": "weak", "min": 0.6, "max": 0.9}]})
    kinds = [(r.kind, r.players, r.label) for r in s.rows]
    assert kinds == [("groups", 3, "Captain"), ("groups", 4, "Captain"),
                     *(("seats", 3, f"seat {i}") for i in (1, 2, 3)), *(("seats", 4, f"seat {i}") for i in (1, 2, 3, 4)),
                     ("records", 3, "built_palace >= 1 (share of seats)"), ("records", 4, "built_palace >= 1 (share of seats)"),
                     ("ai", 1, "beats the A.I. (strong)"), ("ai", 1, "beats the A.I. (weak)")]
    seat = next(r for r in s.rows if r.kind == "seats" and r.players == 3)
    assert (seat.column, seat.value) == ("seat", 0) and (seat.lo, seat.hi, seat.centre) == pytest.approx((1 / 3 - 0.03, 1 / 3 + 0.03, 1 / 3))
    rec = next(r for r in s.rows if r.kind == "records")
    assert (rec.column, rec.value, rec.per, rec.lo, rec.hi) == ("built_palace", 1, "seat", 0.1, 1.0) and rec.centre != rec.centre
    strong, weak = (r for r in s.rows if r.kind == "ai")
    assert (strong.lo, strong.hi, strong.centre) == pytest.approx((0.25, 0.35, 0.3))  # the target's tolerance around the rate
    assert (weak.lo, weak.hi) == (0.6, 0.9) and weak.centre != weak.centre  # a band: no centre
    assert s.strengths == ["weak", "strong"] and s.solo_strengths == ["weak", "medium", "strong", "divinity"]
    # the Solo games: as many a variant and strength as the runs' a variant and player count, in blocks of 24, in the budget
    assert s.block == 24 and s.units == 2 + 2 and s.verify_ai_games == 2400
    assert planned_games(s) == int(100_000 * 0.85 // (planned_variants(s) * 4 * 24)) * 24
    assert s.targets == ["Captain within +-5 points of its fair share", "every seat within +-3 points of its fair share",
                         "built_palace >= 1 (share of seats): at least 10%", "`heuristic` beats the A.I. (strong): 30% +-5 points",
                         "`heuristic` beats the A.I. (weak): 60%..90%"]
    # no group held, the A.I. alone: no multi-player games in the search's rounds; verify_ai_games as the spec says
    ai = _spec(knobs=[KNOB], target={"groups": [], "ai": [{"strength": "medium", "max": 0.4}]}, verify_ai_games=48)
    assert [r.kind for r in ai.rows] == ["ai"] and ai.units == 1 and ai.verify_ai_games == 48
    assert _spec(verify_ai_games=96).verify_ai_games == 96 and _spec().verify_ai_games == 0 and _spec().block == 12


def test_the_command_refuses_a_bad_spec_before_any_game(tmp_path):
    spec = tmp_path / "bad.toml"
    spec.write_text('player = "heuristic"\nbudget = 100000\n[[knobs]]\nkey = "character.captain_vp"\nmax = 40\nstep = 3\n')
    ok = tmp_path / "ok.toml"
    ok.write_text(spec.read_text().replace("max = 40\n", ""))
    assert [(k.lo, k.hi, k.probe) for k in read_spec(ok).knobs] == [(2, 20, 3)]  # the default bounds on the grid of 3: 2, 5, 8, ...
    out = tmp_path / "out"
    r = CliRunner().invoke(app, ["balance", str(spec), "--out", str(out)])
    assert r.exit_code == 2 and r.output.strip().splitlines() == [
        "balance: knobs[0].max: 40 is not on the grid of character.captain_vp (8 + a whole number of steps of 3)"]
    assert not out.exists()
    spec.write_text("player = [\n")
    r = CliRunner().invoke(app, ["balance", str(spec)])
    assert r.exit_code == 2 and r.output.startswith(f"balance: {spec}:") and len(r.output.strip().splitlines()) == 1
    with pytest.raises(BalanceError, match="No such file"):
        read_spec(tmp_path / "none.toml")


def test_the_docs_example_spec_reads():
    # docs/data/balance (docs/reference/balance.md): the heuristic, three numbers of the Characters' cards, +-4 points
    s = read_spec(ROOT / "docs" / "data" / "balance" / "heuristic-three-knobs.toml")
    assert [k.key for k in s.knobs] == ["character.captain_vp", "character.roadmaker_per_district", "character.governor_full_vp"]
    assert (s.player, s.budget, s.tolerance, s.verify_games) == ("heuristic", 24_000, 0.04, 2400) and len(s.others) == 18


def test_the_docs_example_with_the_other_targets_reads():
    # docs/data/balance/heuristic-targets.toml (docs/reference/balance.md, "An example with the other targets")
    s = read_spec(ROOT / "docs" / "data" / "balance" / "heuristic-targets.toml")
    assert [k.key for k in s.knobs] == ["building.house.wood", "building.house.stone", "scoring.house_per_faith", "character.captain_vp"]
    assert [r.kind for r in s.rows] == ["groups", "seats", "seats", "seats", "seats", "records", "ai"]
    assert (s.budget, s.verify_ai_games, s.strengths, s.units, planned_games(s)) == (12_000, 240, ["weak"], 2, 456)


def test_the_worked_study_specs_read():
    # docs/data/balance/best-characters*.toml (docs/reference/balance.md, "The worked study"): the first run allows
    # the 21 default knobs and keeps no games back; the second starts from the first's proposal (its committed
    # override file, key for key) with the knobs of the Characters its verification left out, on another seed
    first = read_spec(ROOT / "docs" / "data" / "balance" / "best-characters.toml")
    assert (len(first.knobs), len(first.others), first.player, first.check_player) == (21, 0, "best", "search")
    assert (first.budget, planned_games(first), first.verify_ai_games) == (87_500, 2820, 240)
    second = read_spec(ROOT / "docs" / "data" / "balance" / "best-characters-2.toml")
    assert (len(second.knobs), len(second.others), second.seed != first.seed) == (10, 11, True)
    assert (second.budget, planned_games(second), second.verify_ai_games) == (25_500, 1272, 0)
    assert (first.recheck, first.recheck_steps, second.recheck, second.recheck_steps) == (2400, 1, 2400, 2)
    proposal = tomllib.loads((ROOT / "docs" / "data" / "balance" / "best-characters-proposal.toml").read_text())
    assert second.overrides == proposal
    # the proposal named as the overrides (its path) reads as the same spec: a third run could start from this one's
    doc = tomllib.loads((ROOT / "docs" / "data" / "balance" / "best-characters-2.toml").read_text())
    doc["rules"]["overrides"] = str(ROOT / "docs" / "data" / "balance" / "best-characters-proposal.toml")
    by_path = spec_from_dict(doc, HERE)
    assert by_path.overrides == second.overrides and by_path.overrides_at({}) == second.overrides_at({})
    # the second run's proposal (its proposal.toml, committed): the first's numbers but those of the second run's knobs,
    # 6 of them moved, every one within its knob's bounds; the rules accept it
    after = tomllib.loads((ROOT / "docs" / "data" / "balance" / "best-characters-2-proposal.toml").read_text())["character"]
    knobs = {k.key.removeprefix("character."): k for k in second.knobs}
    moved = {key: v for key, v in after.items() if v != proposal["character"].get(key, knobs[key].value if key in knobs else None)}
    assert set(moved) <= set(knobs) and len(moved) == 6 and all(knobs[key].lo <= v <= knobs[key].hi for key, v in moved.items())
    assert {key: v for key, v in after.items() if key not in knobs} == {key: v for key, v in proposal["character"].items() if key not in knobs}
    assert load_rules(overrides=ROOT / "docs" / "data" / "balance" / "best-characters-2-proposal.toml") is not None
    # the third run's proposal (the second run's spec with the recheck, its proposal.toml): the second's but 3 knobs, each
    # one step, within its bounds; the rules accept it
    third = tomllib.loads((ROOT / "docs" / "data" / "balance" / "best-characters-3-proposal.toml").read_text())["character"]
    stepped = {key: v for key, v in third.items() if v != after[key]}
    assert stepped == {"captain_vp": 3, "bishop_square_adjacent": 3, "defender_per_district": 5} and set(third) == set(after)
    assert all(knobs[key].lo <= v <= knobs[key].hi and abs(v - after[key]) == knobs[key].step for key, v in stepped.items())
    assert load_rules(overrides=ROOT / "docs" / "data" / "balance" / "best-characters-3-proposal.toml") is not None
