"""Python strategies (README, "Strategies"): a plain class with ``choose(view, options)``
plays through the jitted engine (strategies.python_bridge)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.state import B, G
from strategies import python_bridge
from strategies.match import run_game
from strategies.registry import StrategyError, has_python, load_strategies
from trinidad.batch import play_batch

EXAMPLE = Path(__file__).resolve().parents[2] / "strategies" / "pyexample.py"


def test_a_python_strategy_plays_whole_games_against_jitted_ones(engine):
    r, _ = engine
    W, names = load_strategies(["py:helpers:Recorder", "greedy"])
    rec = python_bridge._REGISTRY[python_bridge.register("helpers:Recorder")]
    calls0 = rec.calls
    for n in range(2, 6):
        st = run_game(r, W, n, 40 + n, [0] + [1] * (n - 1))
        assert st.g[G.GAME_OVER] == 1 and st.g[G.EMPTY_OPTS] == 0
    assert rec.calls - calls0 > 200
    assert {"TURN", "KEEP", "VOTE"} <= rec.kinds
    assert rec.leaks == 0 and rec.writable == 0
    assert has_python(W) and names[0] == "py:helpers:Recorder"


def test_python_games_are_a_pure_function_of_the_seed(engine):
    r, _ = engine
    W, _ = load_strategies(["py:strategies.pyexample:Builder", "heuristic"])
    a = run_game(r, W, 4, 9, [0, 1, 0, 1])
    b = run_game(r, W, 4, 9, [0, 1, 0, 1])
    assert np.array_equal(a.pl, b.pl) and np.array_equal(a.rec_decade, b.rec_decade)
    seeds = np.array([9, 10], np.uint64)
    dec, gam = play_batch(r, W, 4, seeds, np.array([[0, 1, 0, 1]] * 2), threads=2)
    assert np.array_equal(gam[0, :4], a.rec_game[:4])


def test_the_example_builds_houses(engine):
    """The example's Builder (Houses and Palaces first) builds Houses where a Python player that
    never takes a BUILD option builds none; a check that the bridge's choices reach the engine."""
    r, _ = engine
    W, _ = load_strategies([f"py:{EXAMPLE}:Builder", "py:helpers:NeverBuild"])
    houses = [0, 0]
    for seed in range(3):
        st = run_game(r, W, 2, seed, [0, 1])
        for s in range(2):
            houses[s] += int(st.built[s, B.HOUSE])
    assert houses[0] > 0 and houses[1] == 0


@pytest.mark.parametrize("spec, part", [
    ("py:nosuchmodule:X", "cannot import"),
    ("py:strategies.pyexample:Nope", "not a class with a choose"),
    ("py:justonepart", "MODULE:CLASS"),
    ("py:/no/such/file.py:X", "no file"),
])
def test_bad_python_specs_fail_in_one_line(spec, part):
    with pytest.raises(StrategyError) as e:
        load_strategies([spec])
    assert "\n" not in str(e.value) and part in str(e.value), str(e.value)


def test_a_bad_return_value_names_the_class(engine):
    r, _ = engine
    W, _ = load_strategies(["py:helpers:BadIndex", "greedy"])
    with pytest.raises(ValueError, match="BadIndex.choose returned"):
        run_game(r, W, 2, 1, [0, 1])


def test_compiled_players_bind_python_rows_in_another_process(monkeypatch):
    """The runner hands workers compiled weights: a Python strategy's row names a slot of the
    process that compiled it, and Players.matrix binds it in the worker's own registry."""
    import pickle

    from strategies import python_bridge
    from strategies.policy import FAMILY_PYTHON, P
    from strategies.registry import compile_players

    players = pickle.loads(pickle.dumps(compile_players(["greedy", "pyexample"])))
    # a fresh worker process: an empty registry
    monkeypatch.setattr(python_bridge, "_REGISTRY", [])
    monkeypatch.setattr(python_bridge, "_NAMES", {})
    W = players.matrix()
    assert W[1, 0] == FAMILY_PYTHON and int(W[1, P.PY_SLOT]) == 0 and len(python_bridge._REGISTRY) == 1
    assert (W[0] == players.W[0]).all()  # other rows as compiled
    g = compile_players(["greedy"])
    assert g.matrix() is g.W  # nothing to bind
