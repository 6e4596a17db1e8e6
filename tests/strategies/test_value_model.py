"""The network evaluation of the search family (strategies.value_model: the City features, net_inputs,
net_forward, margins with MODEL_NETWORK), its file (strategies.registry) and its training
(trinidad.train.network): the jitted side and the training side compute the same thing, the file
round-trips and is checked, the TD targets are the ones the docstring states, training is a pure
function of the seed, and a network player does not peek."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import cells_of, clear_map, mid_game, redealt

from sim.actions import turn_options
from sim.city import adjacent_to_own, district_value
from sim.game import allocate
from sim.rng import player_seeds
from sim.state import N_GROUPS, PF, B, G
from strategies.registry import (
    StrategyError,
    linear_model_digest,
    load_network_file,
    load_strategies,
    network,
    set_network,
    value_model,
)
from strategies.rollout import new_labels
from strategies.search import SB, search_choice
from strategies.value_model import (
    MODEL_LINEAR,
    MODEL_NETWORK,
    N_VF,
    NET_HIDDEN,
    NET_IN,
    SEARCH_OFFSET,
    VF,
    VF_NAMES,
    margins,
    net_forward,
    net_inputs,
    stage_of,
    value_features,
)
from trinidad.batch import play_batch
from trinidad.train.network import (
    LIN,
    Batch,
    fit_residual,
    forward_np,
    linear_margins_np,
    linear_passthrough,
    net_inputs_np,
    soft_margins,
    td_targets,
    train_network,
    write_network_file,
)


def _random_net(seed=0):
    rng = np.random.default_rng(seed)
    return {"mu": rng.normal(size=NET_IN), "sd": rng.uniform(0.5, 2.0, NET_IN), "w1": rng.normal(size=(NET_IN, NET_HIDDEN)) * 0.1,
            "b1": rng.normal(size=NET_HIDDEN) * 0.1, "w2": rng.normal(size=NET_HIDDEN) * 0.1, "b2": np.float64(0.05)}


def _net_strategy(tmp_path, net, scale=20.0, budget=4, width=2):
    f = write_network_file(tmp_path / "net.npz", net, scale, {"command": "test"})
    p = tmp_path / "netplayer.toml"
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nbudget = {budget}\nwidth = {width}\nnetwork = "{f}"\n')
    return str(p)


def test_city_features_count_what_the_scoring_phase_scores(blank, rules):
    """Two Lots and a House of seat 0 in a district with a Church and a Barracks (+2 each: SCORING
    PHASE, City) worth 4: a House there scores min(3 own buildings, 4) = 3, so the Lots would pay
    2 x 3 as Houses; the activatable buildings next to the seat's are counted."""
    st, r = blank, rules
    clear_map(st)
    d = 0
    cells = cells_of(r, d, 5)
    for c, b in zip(cells, (B.LOT, B.LOT, B.HOUSE, B.CHURCH, B.BARRACKS)):
        st.cell_b[c] = b
        st.cell_owner[c] = 0 if b in (B.LOT, B.HOUSE) else -1
    st.pl[:, PF.FAITH] = 0
    assert district_value(st, r, d) == 4
    n = int(st.g[G.NPLAYERS])
    out = np.zeros((n, N_VF))
    value_features(st, r, 1, out, np.zeros(N_GROUPS + 8, np.int32))
    assert out[0, VF.LOTS_HOUSE_VP] == 6
    assert out[0, VF.BEST_DISTRICT] == 4 and out[0, VF.DISTRICT_OWN] == 3
    act = sum(1 for c in range(st.cell_b.shape[0]) if st.cell_b[c] in (B.CHURCH, B.BARRACKS) and adjacent_to_own(st, r, 0, c))
    assert out[0, VF.ACTIVATABLE] == act
    for s in range(1, n):  # the other seats hold nothing on the map
        assert out[s, VF.LOTS_HOUSE_VP] == 0 and out[s, VF.DISTRICT_OWN] == 0 and out[s, VF.ACTIVATABLE] == 0
    ch = int(st.pl[0, PF.CHARACTER])
    assert out[0, VF.CH_CARPENTER + ch] == 1 and out[0, VF.CH_CARPENTER:VF.CH_CARPENTER + 12].sum() == 1
    assert (out[:, VF.DECADE] == 1).all() and (out[:, VF.IS_AI] == 0).all()


def test_jitted_inputs_and_forward_are_the_training_sides(engine, tmp_path):
    r, _ = engine
    net = _random_net(1)
    W, _ = load_strategies(["search"])
    row = set_network(W[0], {**net, "scale": 20.0})
    seeds = player_seeds(5, 4, 0, 2)
    _, _, feats = play_batch(r, W, 4, seeds, np.zeros((2, 4), np.int32), threads=1, features=True)
    last = 6
    f = feats[:, :last, :4]
    stages = np.array([stage_of(r, d) for d in range(1, last + 1)])
    lin = linear_margins_np(f, value_model(row), stages)
    x = net_inputs_np(f, 4, lin)
    assert x.shape == (2, last, 4, NET_IN)
    xs = np.empty(NET_IN)
    h = np.empty(NET_HIDDEN)
    Wn = row[None, :].copy()
    for g in range(2):
        for d in range(last):
            for s in range(4):
                net_inputs(np.ascontiguousarray(f[g, d]), 4, s, lin[g, d, s], xs)
                assert np.allclose(xs, x[g, d, s])
                assert np.isclose(net_forward(Wn, 0, xs, h), forward_np(net, x[g, d, s]))


def test_margins_by_the_network_inside_a_decade_by_the_linear_model_and_at_the_end_the_real_soft_margin(engine):
    r, _ = engine
    net = _random_net(2)
    W, _ = load_strategies(["search"])
    Wn = set_network(W[0], {**net, "scale": 15.0})[None, :].copy()
    assert Wn[0, SEARCH_OFFSET + SB.MODEL] == MODEL_NETWORK and W[0, SEARCH_OFFSET + SB.MODEL] == MODEL_LINEAR
    st, _ = mid_game(r, W, seed=4)
    n = int(st.g[G.NPLAYERS])
    d = int(st.g[G.DECADE]) - 1
    feats = np.zeros((n, N_VF))
    scr = np.zeros(N_GROUPS + 8, np.int32)
    got = np.zeros(n)
    margins(st, r, Wn, 0, d, feats, scr, got)
    stages = np.array([stage_of(r, d)])
    lin = linear_margins_np(feats[None, None], value_model(Wn[0]), stages)[0, 0]
    assert np.allclose(got, forward_np(net, net_inputs_np(feats, n, lin)))
    ply = np.zeros(n)
    margins(st, r, Wn, 0, d, feats, scr, ply, True)  # the 1-ply ranking: the linear model's margins
    assert np.allclose(ply, lin)
    end = np.zeros(n)
    margins(st, r, Wn, 0, int(st.g[G.LAST_DECADE]), feats, scr, end)
    assert np.allclose(end, soft_margins(st.pl[None, :n, PF.VP], 15.0)[0])


def test_network_file_round_trips_and_is_checked(tmp_path):
    net = _random_net(3)
    s = _net_strategy(tmp_path, net, scale=12.5)
    W, _ = load_strategies([s])
    got = network(W[0])
    assert all(np.allclose(got[k], net[k]) for k in net) and got["scale"] == 12.5
    assert W[0, SEARCH_OFFSET + SB.MODEL] == MODEL_NETWORK
    arrs, prov = load_network_file(tmp_path / "net.npz")
    assert prov == {"command": "test"} and list(arrs["features"]) == VF_NAMES
    bad = dict(np.load(tmp_path / "net.npz"))
    bad["features"] = np.array(VF_NAMES[:-1] + ["something_else"])
    np.savez(tmp_path / "bad.npz", **bad)
    with pytest.raises(StrategyError, match="features"):
        load_network_file(tmp_path / "bad.npz")
    bad = dict(np.load(tmp_path / "net.npz"))
    bad["w1"] = bad["w1"][:, :3]
    np.savez(tmp_path / "bad2.npz", **bad)
    with pytest.raises(StrategyError, match="w1"):
        load_network_file(tmp_path / "bad2.npz")


def test_a_network_strategy_keeps_the_linear_model_it_names_and_refuses_another(tmp_path):
    """The network reads the linear model's margin and the 1-ply ranking is the linear model's, so a
    network strategy carries the linear model of ``[search] value``; a network file in ``value`` is
    refused, and so is a network whose provenance names another linear model than ``value``'s."""
    Ws, _ = load_strategies(["search"])
    lin = value_model(Ws[0])
    assert np.any(lin != 0)
    f = write_network_file(tmp_path / "net.npz", _random_net(4), 20.0, {"linear_model": linear_model_digest(lin)})
    p = tmp_path / "withlin.toml"
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nvalue = "search"\nnetwork = "{f}"\n')
    W, _ = load_strategies([str(p)])
    assert np.array_equal(value_model(W[0]), lin) and W[0, SEARCH_OFFSET + SB.MODEL] == MODEL_NETWORK
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nvalue = "{f}"\n')
    with pytest.raises(StrategyError, match="search.network"):
        load_strategies([str(p)])
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nvalue = "lab/search-g0"\nnetwork = "{f}"\n')
    with pytest.raises(StrategyError, match="another linear model"):
        load_strategies([str(p)])
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nvalue = "search"\nnetwork = "{tmp_path / "none.npz"}"\n')
    with pytest.raises(StrategyError, match="search.network: .* not found"):
        load_strategies([str(p)])
    # a network reads the seat's Character among its inputs: zeroing the linear model's Character weights
    # (character_weights = false) would not make the player Character-blind, so it is refused
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nvalue = "search"\nnetwork = "{f}"\n'
                 "character_weights = false\n")
    with pytest.raises(StrategyError, match="character_weights = false: not with a network"):
        load_strategies([str(p)])


def test_td_targets_bootstrap_from_the_next_decade_and_end_on_the_outcome():
    c = 0.3
    const = {"mu": np.zeros(NET_IN), "sd": np.ones(NET_IN), "w1": np.zeros((NET_IN, NET_HIDDEN)), "b1": np.zeros(NET_HIDDEN),
             "w2": np.zeros(NET_HIDDEN), "b2": np.float64(c)}  # V = c everywhere
    z = np.array([[0.5, -0.5]])
    b = Batch(x=np.zeros((1, 4, 2, NET_IN)), z=z, winners=np.array([[1.0, 0.0]]), own=np.ones((1, 2), bool))
    assert np.allclose(td_targets(b, None, 0.7), np.broadcast_to(z[:, None, :], (1, 4, 2)))  # no net: the outcome
    g0 = td_targets(b, const, 0.0)
    assert np.allclose(g0[0, 3], z[0]) and np.allclose(g0[0, :3], c)
    g5 = td_targets(b, const, 0.5)
    assert np.allclose(g5[0, 2], 0.5 * c + 0.5 * z[0])
    assert np.allclose(g5[0, 1], 0.5 * c + 0.5 * g5[0, 2])
    assert np.allclose(soft_margins(np.array([[10, 30, 25]]), 10.0), np.tanh(np.array([[-2.0, 0.5, -0.5]])))


def test_training_is_a_pure_function_of_the_seed(engine, tmp_path):
    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc

    doc = load_rules_doc()

    def rules_for(strength):
        return rules_from_doc(doc if strength is None else apply_overrides(doc, {"solo": {"strength": strength}}))

    W, _ = load_strategies([_net_strategy(tmp_path, _random_net(4), budget=1, width=2)])
    rows = []
    for threads in (1, 2):
        keep = tmp_path / f"t{threads}"
        keep.mkdir()
        res = train_network(rules_for, W[0], 1, 12, 5, mix=0.5, solo=1, duel_games=4, duel_batch=4, data_budget=0,
                            init=network(W[0]), threads=threads, keep=keep)
        rows.append(np.load(keep / "cand1.npy"))
        assert res.generations[0].positions > 0
    assert np.array_equal(rows[0], rows[1])


def test_the_residual_network_starts_at_the_linear_margin_and_fits_what_it_misses():
    """trinidad.train.network, ``residual``: the pass-through units reproduce the linear margin over
    the scale exactly; a fit to targets that are the linear margin plus a function of another input
    learns that function, and generation 1's TD targets bootstrap from the linear margin."""
    rng = np.random.default_rng(3)
    scale = 10_000.0
    x = rng.normal(size=(300, 4, 3, NET_IN))
    x[..., LIN] = rng.normal(0, 25, size=x.shape[:-1])  # the linear margin, in VP
    mu, sd = x.reshape(-1, NET_IN).mean(axis=0), x.reshape(-1, NET_IN).std(axis=0)
    assert np.allclose(forward_np(linear_passthrough(mu, sd, scale), x), x[..., LIN] / scale)
    extra = 8.0 * np.maximum(x[..., 0], 0.0)  # VP the linear margin misses: increasing returns in input 0
    z = (x[:, -1, :, LIN] + extra[:, -1]) / scale
    b = Batch(x=x, z=z, winners=np.zeros((300, 3)), own=np.ones((300, 3), bool))
    t = td_targets(b, None, 0.0, scale)  # lambda 0: each target is the next position's linear value
    assert np.allclose(t[:, :-1], np.tanh(x[:, 1:, :, LIN] / scale)) and np.allclose(t[:, -1], z)
    target = (x[..., LIN] + extra) / scale
    net, r2, _ = fit_residual([b], [target], b, target, seed=1, scale=scale, alpha=1e-4, max_epochs=200)
    pred = forward_np(net, x)
    lin_only = x[..., LIN] / scale
    assert np.mean((pred - target) ** 2) < 0.1 * np.mean((lin_only - target) ** 2)
    assert r2 > 0.9


def test_residual_training_with_explorers_is_a_pure_function_of_the_seed(engine, tmp_path):
    from sim.rules import load_rules

    r = load_rules()
    W, _ = load_strategies(["search"])
    rows = []
    for threads in (1, 2):
        keep = tmp_path / f"r{threads}"
        keep.mkdir()
        res = train_network(lambda strength: r, W[0], 1, 12, 6, mix=0.0, duel_games=4, duel_batch=4, data_budget=0,
                            threads=threads, keep=keep, residual=True, explore=0.5, scale=10_000.0)
        rows.append(np.load(keep / "cand1.npy"))
        assert res.generations[0].positions > 0
    assert np.array_equal(rows[0], rows[1])
    net = network(rows[0])
    assert net["w1"][LIN, 0] == 1.0 and net["w1"][LIN, 1] == -1.0 and net["w2"][0] == -net["w2"][1] > 0


def test_train_network_command_wants_a_npz_file(tmp_path):
    from typer.testing import CliRunner

    from trinidad.cli import app

    res = CliRunner().invoke(app, ["train", "--network", "--out", str(tmp_path / "x.toml")])
    assert res.exit_code != 0 and ".npz" in res.output


def test_train_network_command_records_the_linear_model_and_a_strategy_loads_it(tmp_path, monkeypatch):
    """The written file names the hash of the linear model it was trained with, so a strategy
    naming the same ``value`` loads it (the training itself is replaced: it has its own tests)."""
    from typer.testing import CliRunner

    import trinidad.train.network as tn
    from trinidad.cli import app

    net = _random_net(5)
    monkeypatch.setattr(tn, "train_network", lambda *a, **k: tn.NetResult(net=net, generations=[], seconds=0.0))
    out = tmp_path / "net.npz"
    res = CliRunner().invoke(app, ["train", "--network", "--strategy", "search", "--out", str(out)])
    assert res.exit_code == 0, res.output
    Ws, _ = load_strategies(["search"])
    assert load_network_file(out)[1]["linear_model"] == linear_model_digest(value_model(Ws[0]))
    p = tmp_path / "s.toml"
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nvalue = "search"\nnetwork = "{out}"\n')
    assert load_strategies([str(p)])[0][0, SEARCH_OFFSET + SB.MODEL] == MODEL_NETWORK


def test_no_peeking_with_the_network(engine, tmp_path):
    """As tests/strategies/test_search.py's no-peeking test, for a network player: another arrangement of the
    hidden cards consistent with the seat's view gives the same decision."""
    r, _ = engine
    W, _ = load_strategies([_net_strategy(tmp_path, _random_net(5), budget=8, width=4)])
    sc = allocate(r)
    checked = 0
    for pos_seed in (3, 4, 5):
        st, seat = mid_game(r, W, seed=pos_seed)
        k = turn_options(st, r, seat)
        alt = redealt(r, st, seat, 999 + pos_seed)  # the hidden cards dealt again, from the seat's view
        if np.array_equal(alt.card_loc, st.card_loc):
            continue
        checked += 1
        assert search_choice(st, sc, r, W, seat, 0, k, False, new_labels(sc, 0)) == search_choice(alt, sc, r, W, seat, 0, k, False, new_labels(sc, 0))
    assert checked >= 2
