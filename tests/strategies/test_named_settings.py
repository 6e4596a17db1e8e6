"""Settings given where a player is named (``search:budget=64``, strategies.registry.parse_name) and the
research rungs under strategies/lab/ played by name (``lab/NAME``): a budget or a forbid list is never a
new file, and the rungs that were files play as those files did."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rng import player_seeds
from strategies.registry import StrategyError, available, load_strategies, parse_name, resolve, split_names
from trinidad.batch import play_batch


def test_a_name_carries_its_settings_as_the_file_holds_them():
    assert parse_name("search") == ("search", {})
    assert parse_name("py:strategies.pyexample:Builder") == ("py:strategies.pyexample:Builder", {})
    assert parse_name("lab/search-long:budget=48,width=4,character_weights=false,rollout_forbid=major+ship") == (
        "lab/search-long", {"budget": 48, "width": 4, "character_weights": False, "rollout_forbid": ["major", "ship"]})
    assert parse_name("heuristic:vp=1.5,horizon=era") == ("heuristic", {"vp": 1.5, "horizon": "era"})
    # on a command line the settings' commas stay with their name
    assert split_names("search:budget=64,width=4, greedy,best:budget=48") == ["search:budget=64,width=4", "greedy", "best:budget=48"]
    assert resolve("best:budget=48") == resolve("best") + ":budget=48"


@pytest.mark.parametrize(("named", "file"), [
    ("search:budget=64", "lab/search-2x"),  # search at twice its budget
    ("best:budget=48", "lab/search-long-nogrid-all-td61-noship-nolot-2x"),  # best's convergence rung
    ("lab/search-long-nogrid-all-td61:rollout_forbid=major+ship+f_remove_lot", "lab/search-long-nogrid-all-td61-noship-nolot"),
    ("rollout:candidates=24,rollouts=16", "lab/rollout-planner"),
])
def test_settings_given_with_a_name_compile_to_the_file_that_set_them(named, file):
    W, names = load_strategies([named, file])
    assert names == [named, file] and (W[0] == W[1]).all()


def test_search_at_budget_64_plays_the_games_of_the_search_2x_file(engine):
    """`search:budget=64` plays exactly as the `search-2x` file (now lab/search-2x): the same records, seed for seed."""
    r, _ = engine
    seeds = player_seeds(41, 3, 0, 2)
    seats = np.array([[0, 1, 1], [1, 0, 1]], np.int32)  # the search seat among greedy ones, first and second
    out = [play_batch(r, load_strategies([name, "greedy"])[0], 3, seeds, seats, threads=1) for name in ("search:budget=64", "lab/search-2x")]
    for a, b in zip(out[0], out[1]):
        if isinstance(a, np.ndarray):
            assert np.array_equal(a, b)
        else:
            for x, y in zip(a, b):
                assert np.array_equal(x, y)


@pytest.mark.parametrize(("name", "key"), [
    ("search:budget=abc", "search.budget: expected an integer"),
    ("search:budgt=3", "search.budgt: unknown key; allowed: budget"),
    ("search:rollout_forbid=major+sail", "search.rollout_forbid: an Act or a list"),
    ("rollout:candidates=0", "rollout.candidates: expected an integer 1.."),
    ("heuristic:vpp=1", "vpp: unknown weight or parameter"),
    ("heuristic:vp=much", "weights.vp: expected a number"),
    ("random:budget=3", "budget: a random strategy has no settings"),
    ("search:budget", "expected key=value"),
    ("search:budget=3,budget=4", "budget: set twice"),
    ("lab/no-such-rung:budget=3", "lab/no-such-rung: not found"),
])
def test_a_bad_setting_is_one_line_naming_the_key(name, key):
    with pytest.raises(StrategyError) as e:
        load_strategies([name])
    assert "\n" not in str(e.value) and key in str(e.value), str(e.value)


def test_the_lab_rungs_play_by_name_and_name_their_files_in_the_lab():
    lab = [n for n in available(lab=True) if n.startswith("lab/")]
    assert "lab/search-long-nogrid-all-td61" in lab and not set(lab) & set(available())
    assert resolve("best").startswith("lab/")  # best is the top rung, a lab file; the shipped players name it
