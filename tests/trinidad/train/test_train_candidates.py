"""trinidad.train.candidates: the network on the search's candidates (``trinidad train --network --candidates``)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.rng import player_seeds
from strategies.registry import StrategyError, load_network_file, load_strategies
from strategies.rollout import N_SL, SL
from strategies.search import SB
from strategies.value_model import NET_IN, SEARCH_OFFSET
from trinidad.train.candidates import SCALE, fit_candidates, play_labels, residuals, within
from trinidad.train.network import forward_np
from trinidad.train.selfplay import TrainError


def _tiny(tmp_path, name="tiny", budget=4, value="prior"):
    p = tmp_path / f"{name}.toml"
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nbudget = {budget}\nwidth = 3\nhorizon = 0\n'
                 f'value = "{value}"\n')
    return str(p)


def _synthetic(n_dec=3000, per=4, noise=3.0, seed=0):
    """Labels whose simulations differ from the 1-ply values within a decision by 2 x input 5, plus noise and a
    constant per decision (the bias every sibling shares)."""
    rng = np.random.default_rng(seed)
    n = n_dec * per
    X = rng.normal(size=(n, NET_IN)).astype(np.float32)
    Y = np.zeros((n, N_SL))
    dec = np.repeat(np.arange(n_dec), per)
    Y[:, SL.DECISION] = dec
    Y[:, SL.LINEAR] = X[:, NET_IN - 1]
    shared = rng.normal(scale=20.0, size=n_dec)[dec]
    Y[:, SL.MEAN] = X[:, NET_IN - 1] + 2.0 * X[:, 5] + shared + rng.normal(scale=noise, size=n)
    Y[:, SL.FIRST] = Y[:, SL.MEAN]
    Y[:, SL.COUNT] = 1
    return X, Y


def test_residuals_are_what_the_1_ply_value_misses_within_each_decision():
    Y = np.zeros((5, N_SL))
    Y[:, SL.DECISION] = [0, 0, 1, 1, 1]
    Y[:, SL.LINEAR] = [1.0, 3.0, 0.0, 0.0, 3.0]
    Y[:, SL.MEAN] = [10.0, 10.0, 5.0, 8.0, 11.0]
    Y[:, SL.FIRST] = [0.0, 4.0, 1.0, 1.0, 1.0]
    assert np.allclose(within(Y[:, SL.MEAN], Y[:, 0].astype(int)), [0, 0, -3, 0, 3])
    assert np.allclose(residuals(Y), [1.0, -1.0, -2.0, 1.0, 1.0])
    assert np.allclose(residuals(Y, "first"), [-1.0, 1.0, 1.0, 1.0, -2.0])
    with pytest.raises(TrainError, match="target"):
        residuals(Y, "last")


def test_the_fit_recovers_a_within_decision_correction_and_ignores_what_siblings_share():
    """The correction fitted to synthetic labels is 2 x input 5 within each decision (its held-out R^2 near the
    noise's ceiling, the factor near 1 once fitted well), the network's output is the 1-ply value plus it, in VP
    (x SCALE), and the decisions' shared constants (sd 20 VP) leave no trace; a pure function of the seed."""
    X, Y = _synthetic()
    res = fit_candidates(X, Y, seed=3)
    ceiling = 1.0 - 9.0 / (9.0 + 4.0 * 0.75)  # noise sd 3; input 5 demeaned over 4 siblings keeps 3/4 of its variance
    assert res.r2 > ceiling - 0.08 and res.r2 >= res.r2_fit - 1e-9
    assert 0.7 < res.factor < 1.5
    out = forward_np(res.net, X.astype(np.float64)) * SCALE
    dec = Y[:, SL.DECISION].astype(int)
    corr = within(out - X[:, NET_IN - 1], dec)
    assert np.corrcoef(corr, within(2.0 * X[:, 5].astype(np.float64), dec))[0, 1] > 0.8
    assert res.decisions == 3000 and res.rows == 12000 and 0.0 < res.reordered < 1.0
    again = fit_candidates(X, Y, seed=3)
    assert all(np.array_equal(again.net[k], res.net[k]) for k in res.net)
    with pytest.raises(TrainError, match="too few"):
        fit_candidates(X[:8], Y[:8], seed=3)


def test_a_correction_that_points_the_wrong_way_is_dropped():
    """Labels of pure noise: whatever the fit finds, its factor is >= 0 and the network stays near the 1-ply value."""
    X, Y = _synthetic(n_dec=800, noise=3.0, seed=1)
    Y[:, SL.MEAN] = Y[:, SL.LINEAR] + np.random.default_rng(2).normal(scale=3.0, size=len(Y))
    res = fit_candidates(X, Y, seed=1)
    assert res.factor >= 0.0 and res.r2 < 0.05


def test_labels_do_not_depend_on_the_threads(engine, tmp_path):
    r, _ = engine
    W, _ = load_strategies([_tiny(tmp_path)])
    seeds = player_seeds(31, 4, 0, 3)
    strat = np.zeros((3, 4), np.int32)
    a = play_labels(r, W, 4, seeds, strat, threads=1)
    b = play_labels(r, W, 4, seeds, strat, threads=2)
    assert len(a[0]) > 100 and np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    dec = a[1][:, SL.DECISION].astype(int)
    assert np.all(np.diff(dec) >= 0) and np.array_equal(np.unique(dec), np.arange(dec.max() + 1))


def test_train_candidates_command_writes_a_network_a_strategy_plays_on_its_candidates(engine, tmp_path):
    from typer.testing import CliRunner

    from strategies.value_model import MODEL_PRIOR
    from trinidad.cli import app

    out = tmp_path / "cands.npz"
    tiny = _tiny(tmp_path)
    res = CliRunner().invoke(app, ["train", "--network", "--candidates", "--strategy", tiny, "--teacher",
                                   _tiny(tmp_path, "tiny2x", budget=8), "--games", "6", "--duel-games", "0",
                                   "--seed", "5", "--out", str(out)])
    assert res.exit_code == 0, res.output
    _, prov = load_network_file(out)
    assert prov["network_at"] == "candidates" and prov["teacher"].endswith("tiny2x.toml") and prov["games"] == 6
    assert prov["rows"] > 100 and prov["factor"] >= 0 and prov["duel"] is None
    p = tmp_path / "player.toml"
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nbudget = 4\nwidth = 3\nhorizon = 0\n'
                 f'network = "{out}"\nnetwork_at = "candidates"\n')
    W, _ = load_strategies([str(p)])
    assert W[0, SEARCH_OFFSET + SB.MODEL] == MODEL_PRIOR
    # a teacher with another linear model is refused
    other = _tiny(tmp_path, "other", value="search")
    res = CliRunner().invoke(app, ["train", "--network", "--candidates", "--strategy", tiny, "--teacher", other,
                                   "--games", "4", "--out", str(tmp_path / "x.npz")])
    assert res.exit_code != 0 and "another linear model" in res.output
    res = CliRunner().invoke(app, ["train", "--candidates", "--strategy", tiny, "--out", str(tmp_path / "y.npz")])
    assert res.exit_code != 0 and "only with --network" in res.output
    with pytest.raises(StrategyError):
        bad = tmp_path / "bad.toml"
        bad.write_text(p.read_text().replace('"candidates"', '"everywhere"'))
        load_strategies([str(bad)])
