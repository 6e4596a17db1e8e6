"""trinidad.train.on_play: the search evaluation's first Eras tuned on play (trinidad train --play)."""

from __future__ import annotations

import numpy as np
import pytest
from typer.testing import CliRunner

from strategies.registry import VALUE_DIR, load_strategies, load_value_file
from strategies.value_model import N_STAGES, VF, lower_bounds
from trinidad.cli import app
from trinidad.train import on_play as tp

cli = CliRunner()
INIT = VALUE_DIR / "lab" / "search-seed11.toml"


@pytest.fixture(scope="module")
def search(engine):
    W, _ = load_strategies(["search"])
    return engine[0], W[0], load_value_file(INIT)[0]


def test_a_step_moves_only_the_tuned_weights_of_the_first_eras_within_their_bounds():
    init = load_value_file(INIT)[0]
    k = len(tp.TUNED_STAGES) * len(tp.TUNED)
    spread = np.ones((len(tp.TUNED_STAGES), len(tp.TUNED)))
    assert np.array_equal(tp.model_of(init, np.zeros(k), spread), np.maximum(init, lower_bounds()))
    m = tp.model_of(init, np.full(k, 2.0), spread * 4)  # +2 VP per standard deviation, spread 4: +0.5 a weight
    moved = np.flatnonzero(np.abs(m - init).sum(axis=0) > 0)
    assert set(moved) == set(tp.TUNED) and tp.TUNED_STAGES == tuple(range(N_STAGES - 1))
    assert np.array_equal(m[N_STAGES - 1], init[N_STAGES - 1])  # the last Era keeps the init's fit
    assert np.allclose(m[0, list(tp.TUNED)], init[0, list(tp.TUNED)] + 0.5)
    # what is the same for every move of a seat is not tuned
    assert not {VF.BIAS, VF.DECADE, VF.SCORINGS_LEFT, VF.IS_AI, VF.CH_GOVERNOR} & set(tp.TUNED)
    low = tp.model_of(init, np.full(k, -1e3), spread)  # a step below a monotone weight's least stops on it
    assert (low[:, list(tp.TUNED)] >= lower_bounds()[list(tp.TUNED)]).all()
    assert (low[:, list(tp.TUNED)] == lower_bounds()[list(tp.TUNED)])[:-1].any()
    still = tp.model_of(init, np.full(k, 5.0), np.zeros_like(spread))  # a feature that never varied stays put
    assert np.array_equal(still, np.maximum(init, lower_bounds()))


def test_the_init_against_itself_takes_exactly_half_of_the_wins(search):
    """Both rotations of a base seed are the same game between identical players: whichever seat
    wins is the candidate's in one rotation and the init's in the other."""
    rules, row, init = search
    s = tp.shares(rules, row, [init, init], init, 4, 5, 0, 4, threads=1)
    assert s.tolist() == [0.5, 0.5]


def test_the_tuning_is_a_pure_function_of_the_seed_and_keeps_the_init_unless_the_final_check_promotes(search, monkeypatch):
    rules, row, init = search
    monkeypatch.setattr(tp, "SCALE_GAMES", 4)
    a = tp.train_play(rules, row, init, 1, 2, seed=3, final_games=4, threads=1, popsize=2)
    b = tp.train_play(rules, row, init, 1, 2, seed=3, final_games=4, threads=2, popsize=2)
    assert np.array_equal(a.tuned, b.tuned) and a.final == b.final and a.history == b.history
    assert len(a.history) == 1 and not np.array_equal(a.tuned, init)
    assert np.array_equal(a.model, a.tuned if a.promoted else init)
    assert np.array_equal(a.tuned[N_STAGES - 1], init[N_STAGES - 1])
    with pytest.raises(tp.PlayTrainError, match="games"):
        tp.train_play(rules, row, init, 1, 1, seed=3)


def test_the_command_writes_a_value_file_with_its_provenance(search, monkeypatch, tmp_path):
    monkeypatch.setattr(tp, "SCALE_GAMES", 4)
    out = tmp_path / "tuned.toml"
    res = cli.invoke(app, ["train", "--play", "--init", str(INIT), "--generations", "1", "--games", "2", "--duel-games", "4",
                           "--seed", "3", "--threads", "1", "--out", str(out)])
    assert res.exit_code == 0, res.output
    model, prov = load_value_file(out)
    assert prov["objective"] == "play" and prov["init"] == str(INIT) and prov["tuned_stages"] == [1, 2]
    assert prov["final_check"]["games"] == 4 and len(prov["es_history"]) == 1
    assert np.array_equal(model, load_value_file(INIT)[0]) == (prov["promoted"] == 0)
    bad = cli.invoke(app, ["train", "--play", "--generations", "1"])
    assert bad.exit_code == 2 and "--init" in bad.output
    bad = cli.invoke(app, ["train", "--play", "--network", "--init", str(INIT)])
    assert bad.exit_code == 2 and "--play and --network" in bad.output
    bad = cli.invoke(app, ["train", "--play", "--apprentice", "--init", str(INIT)])
    assert bad.exit_code == 2 and "--apprentice and --play" in bad.output
