"""The apprentice (strategies.apprentice): a network ranking a seat's TURN rows, fitted to the rollout
planner's labels. These tests pin its forward pass (the jitted sparse pass equals the dense inputs
through numpy), its file's checks, and that it reads only what its seat can know."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import mid_game, random_apprentice

from sim.actions import turn_options
from sim.codes import Act, Dec
from sim.state import MAX_PLAYERS, N_GROUPS
from strategies.apprentice import (
    N_IN,
    N_RX,
    ROW_ACT,
    apprentice_values,
    input_names,
    one_hot_inputs,
    position_inputs,
    row_inputs,
)
from strategies.policy import option_values
from strategies.registry import StrategyError, load_strategies
from strategies.value_model import N_VF


def _net(seed=0):
    return random_apprentice(seed)


def _files(tmp_path, net, rollouts=0):
    np.savez(tmp_path / "app.npz", **net)
    p = tmp_path / "app.toml"
    p.write_text(f'family = "rollout"\nbase = "heuristic"\n[rollout]\ncandidates = 4\nrollouts = {rollouts}\n'
                 f'apprentice = "{tmp_path / "app.npz"}"\n')
    return str(p)


def test_the_jitted_pass_equals_the_dense_inputs_through_numpy(engine, tmp_path):
    r, _ = engine
    net = _net()
    W, _ = load_strategies([_files(tmp_path, net)])
    st, seat = mid_game(r, W)
    k = turn_options(st, r, seat)
    assert k > 3
    out = np.zeros(k)
    pick = apprentice_values(st, r, W, 0, seat, k, out)
    option_values(st, r, seat, Dec.TURN, k)
    best = st.vals[:k].max()
    x = np.zeros(N_IN)
    position_inputs(st, r, seat, x, np.zeros((MAX_PLAYERS, N_VF)), np.zeros(N_GROUPS + 8, np.int32))
    X = np.zeros((k, N_IN))
    num = np.zeros(N_RX)
    for i in range(k):
        row_inputs(st, x, i, k, best, num)
        X[i] = x
        assert X[i, ROW_ACT + st.opts[i, 0]] == 1.0
    h = np.maximum(((X - net["mu"]) / net["sd"]) @ net["w1"] + net["b1"], 0.0)
    want = h @ net["w2"] + net["b2"]
    # only the heuristic's best `candidates` (4) rows are valued, ties by listing order; the rest -inf
    # (Recover Workers only as the heuristic's first choice)
    top = [i for q, i in enumerate(np.argsort(-st.vals[:k], kind="stable")[:4]) if q == 0 or st.opts[i, 0] != Act.F_RECOVER]
    valued = np.isfinite(out)
    assert set(np.flatnonzero(valued)) == set(top)
    assert np.allclose(out[top], want[top], rtol=1e-9, atol=1e-9)
    assert pick == int(top[np.argmax(want[top])])


def test_a_file_for_other_inputs_is_refused(tmp_path):
    net = _net()
    net["inputs"] = np.array(input_names()[:-1] + ["something_else"])
    with pytest.raises(StrategyError, match="inputs"):
        load_strategies([_files(tmp_path, net)])
    net = _net()
    net["sd"][one_hot_inputs()] = 2.0
    with pytest.raises(StrategyError, match="one-hot"):
        load_strategies([_files(tmp_path, net)])


def test_no_rollouts_only_with_an_apprentice(tmp_path):
    p = tmp_path / "none.toml"
    p.write_text('family = "rollout"\nbase = "heuristic"\n[rollout]\nrollouts = 0\n')
    with pytest.raises(StrategyError, match="only with an apprentice"):
        load_strategies([str(p)])
