"""The spec of ``trinidad balance`` (trinidad.balance.spec): its defaults (Trinidad's knobs: the numbers of
the Characters' cards; every Character of each player count as a target row; two seeds drawn from the
spec's), and every bad spec one line naming its key before any game (an unknown key, a rule that is not a
number, a bound the rules refuse, an empty target, a budget too small for the knobs). No game is played."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.rules import character_names
from trinidad.balance.spec import BalanceError, read_spec, spec_from_dict
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
])
def test_every_bad_spec_is_one_line_naming_its_key(doc, line):
    with pytest.raises(BalanceError) as e:
        spec_from_dict({"player": "heuristic", "budget": 100_000} | {k: v for k, v in doc.items() if v is not None}
                       if doc.get("budget", 1) is not None else {"player": "heuristic"}, HERE)
    msg = str(e.value)
    assert "\n" not in msg and line in msg, msg


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
