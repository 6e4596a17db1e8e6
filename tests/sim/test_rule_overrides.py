"""A rules override makes a variant: overriding a key of sim/rulesdata/trinidad.toml changes the games.

A sample of keys from every part of the rules file (setup, the City Council, Improve Status,
scoring, Affiliate card parameters, component limits) is overridden through the loader's override
mechanism (sim.rules.load_rules(overrides=...), what ``trinidad play --rules`` and an experiment's
``variants`` use); fixed-seed games of heuristic players must then differ from the default games.
tests/sim/test_rules.py checks statically that every number is read; this checks that reading it
matters. (The values are picked to bind in these games: a box of 6 metal, e.g., never runs out.)
"""

from __future__ import annotations

import copy

import pytest

from sim.rules import load_rules
from sim.state import PF, G
from strategies.match import run_game

N = 4
STRATEGIES = [0] * N  # heuristic in every seat (it plays the cards' powers more often than random play)
SEEDS = range(1, 31)

# (what it varies, override); each must change at least one of the fixed-seed games
SAMPLE = [
    ("setup: start silver", {"setup": {"start_silver": 4}}),
    ("setup / component limit: Peace markers", {"setup": {"peace_markers": 0}}),
    ("component limit: metal in the box (and the Spain support cube)", {"components": {"metal": 1}}),
    ("council: track minimum (the below-one penalty)", {"council": {"track_min": 3}}),
    ("council: City Council action points", {"actions": {"council_gain": [1, 2]}}),
    ("status: Improve Status silver", {"status": {"level_silver": [0, 1, 2]}}),
    ("scoring: purple banner cards", {"scoring": {"purple_banner_cards": 4}}),
    ("card 21: workers", {"affiliate": {"21": {"params": {"workers": 2}}}}),
    ("card 75: extra activations", {"affiliate": {"75": {"params": {"extra_activations": 0}}}}),
    ("card 51: extra turns", {"affiliate": {"51": {"params": {"extra_turns": 2}}}}),
    ("card 16: actions", {"affiliate": {"16": {"params": {"actions": 0}}}}),
]


def _game(r, W, seed):
    """What a game's play shows: each seat's VP, the decisions taken, the city and the cards' places."""
    st = run_game(r, W, N, seed, STRATEGIES)
    return st.pl[:N, PF.VP].tolist(), int(st.g[G.OPT_N]), st.cell_b.tobytes(), st.card_loc.tobytes()


@pytest.fixture(scope="module")
def heuristic(engine):
    from strategies.registry import load_strategies

    W, _ = load_strategies(["heuristic"])
    return W


@pytest.fixture(scope="module")
def default_games(engine, heuristic):
    r, _ = engine
    return {s: _game(r, heuristic, s) for s in SEEDS}


@pytest.mark.parametrize("over", [o for _, o in SAMPLE], ids=[name for name, _ in SAMPLE])
def test_override_changes_the_games(heuristic, default_games, over):
    r = load_rules(overrides=over)
    assert any(_game(r, heuristic, s) != default_games[s] for s in SEEDS), f"{over}: the {len(SEEDS)} games are the default games"


def test_same_rules_same_games(heuristic, default_games):
    """The comparison is sound: the default rules loaded again play the default games."""
    r = load_rules(overrides={})
    assert all(_game(r, heuristic, s) == default_games[s] for s in SEEDS)


def test_a_run_recorded_before_a_number_was_split_replays_with_its_rules():
    """A manifest written when ``character.most_vp`` (and its kin) was one number for several cards: read by
    today's rules (``recorded_doc``), each card's key gets the recorded rule, so the packed rules are those of
    the run; an override recorded then (most_vp 7) reaches every card it served."""
    from rulesfile import shorthands
    from sim.rule_overrides import DEFAULT_RULES, load_rules_doc, read_toml, recorded_doc
    from sim.rules import RulesError, rules_from_doc

    today = load_rules_doc()
    old = copy.deepcopy(today)
    for path, keys in shorthands(read_toml(DEFAULT_RULES, RulesError), RulesError).items():
        table, name = path.split(".")
        leaf = old[table].pop(keys[0].split(".")[1])
        for k in keys[1:]:
            del old[table][k.split(".")[1]]
        old[table][name] = leaf | ({"value": 7} if name == "most_vp" else {})
    with pytest.raises(RulesError):
        rules_from_doc(old)  # what replaying such a run did before
    up = recorded_doc(old)
    want = load_rules_doc(overrides={"character.most_vp": 7})
    assert (rules_from_doc(up).k == rules_from_doc(want).k).all()
    assert recorded_doc(today) is today  # a document of today's shape is left as it is
