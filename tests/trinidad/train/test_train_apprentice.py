"""trinidad.train.apprentice (``trinidad train --apprentice``): the planner's rows as the trainer plays
them, DAgger and expert-iteration games, the data's independence of threads, a run from a starting
network, and the network file it writes."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import random_apprentice
from typer.testing import CliRunner

import trinidad.train.apprentice as ta
from sim.compiled_parts import for_players
from sim.game import allocate
from sim.rng import player_seeds
from sim.rules import apply_overrides, load_rules_doc, rules_from_doc
from sim.state import N_CHARACTERS
from strategies.apprentice import AB_MODE_DAGGER, AB_MODE_EXPERT, AB_MODE_ON, AB_ON, AB_ROWS, APPRENTICE_OFFSET, N_IN, input_names
from strategies.policy import P
from strategies.registry import compile_players, load_apprentice_file, load_strategies
from strategies.rollout import labels_kept, new_labels
from strategies.weights import N_WEIGHTS
from trinidad.ai_scale import deal, solo_experiment
from trinidad.batch import play_batch
from trinidad.cli import app

DOC = load_rules_doc(None)


def rules_for(strength):
    return rules_from_doc(apply_overrides(DOC, {"solo": {"strength": strength}}))


def _net(seed=0):
    return random_apprentice(seed, with_file_keys=False)


@pytest.fixture()
def planner(tmp_path):
    """A small rollout planner over the Solo-tuned heuristic (4 candidates, 2 simulations each)."""
    p = tmp_path / "planner.toml"
    p.write_text('family = "rollout"\nbase = "heuristic-solo"\n[rollout]\ncandidates = 4\nrollouts = 2\nhorizon = "era"\n')
    return str(p)


def _solo(name, games=2):
    exp = solo_experiment(name, games, 1, ["weak"])
    return exp, compile_players(exp.strategy_names(), solo=True).matrix().copy()


def test_planner_rows_change_only_what_each_mode_needs(planner):
    _, W = _solo(planner)
    row = W[0]
    base = ta.planner_rows(row, None, "base")
    changed = np.flatnonzero(base != row)
    assert len(changed) == 1 + N_CHARACTERS and np.all(changed % N_WEIGHTS == P.ROLLOUTS) and np.all(base[changed] == 0)
    net = _net()
    lab = ta.planner_rows(row, net, "label")
    assert lab[APPRENTICE_OFFSET + AB_ON] == AB_MODE_DAGGER and lab[P.ROLLOUTS] == 2  # the planner keeps planning
    ex = ta.planner_rows(row, net, "label", expert=True)
    assert ex[APPRENTICE_OFFSET + AB_ON] == AB_MODE_EXPERT and np.flatnonzero(ex != lab).tolist() == [APPRENTICE_OFFSET + AB_ON]
    alone = ta.planner_rows(row, net, "alone")
    assert alone[APPRENTICE_OFFSET + AB_ON] == AB_MODE_ON and alone[P.ROLLOUTS] == 0
    assert alone[APPRENTICE_OFFSET + AB_ROWS] == 4  # the planner's candidates: the rows its labels cover
    assert np.array_equal(ta.planner_rows(row, None, "label"), row)
    with pytest.raises(ta.ApprenticeError):
        ta.planner_rows(row, None, "alone")


def test_a_dagger_game_is_the_apprentice_s_own_game_with_the_planner_s_labels(planner):
    """DAgger's data: the planner labels every position while the network acts, and its simulations
    never touch the game's own random stream, so the game is move for move the network's alone."""
    exp, W = _solo(planner)
    net = _net(1)
    R = rules_for("weak")
    strat, chars, _ = deal(0, exp.seat_characters(1, np.arange(2))[:, 0])
    seeds = player_seeds(5, 2, 0, 2)
    Wa, Wd, Wp = W.copy(), W.copy(), W.copy()
    Wa[0] = ta.planner_rows(W[0], net, "alone")
    Wd[0] = ta.planner_rows(W[0], net, "label")
    _, alone = play_batch(R, Wa, 2, seeds, strat, chars, threads=1)
    labels = new_labels(allocate(for_players(R, strat)), 600)
    _, dagger = play_batch(R, Wd, 2, seeds, strat, chars, threads=1, labels=labels)
    _, planned = play_batch(R, Wp, 2, seeds, strat, chars, threads=1)
    assert np.array_equal(alone, dagger)
    assert not np.array_equal(alone, planned)  # the network, not the planner, chose the moves
    assert labels_kept(labels) > 10


def test_expert_iteration_labels_the_same_game_with_the_network_in_the_simulations(planner):
    """--expert: the network still takes every real move (the game is the network's alone), but the
    planner's simulations are played by the network, so the labels differ from DAgger's; the planner
    with the network in its simulations (rollout-apprentice-solo's play) labels them the same way."""
    exp, W = _solo(planner)
    net = _net(1)
    R = rules_for("weak")
    strat, chars, _ = deal(0, exp.seat_characters(1, np.arange(2))[:, 0])
    seeds = player_seeds(5, 2, 0, 2)
    RP = for_players(R, strat)
    Wa, Wd, We = W.copy(), W.copy(), W.copy()
    Wa[0] = ta.planner_rows(W[0], net, "alone")
    Wd[0] = ta.planner_rows(W[0], net, "label")
    We[0] = ta.planner_rows(W[0], net, "label", expert=True)
    _, alone = play_batch(R, Wa, 2, seeds, strat, chars, threads=1)
    ld, le = new_labels(allocate(RP), 600), new_labels(allocate(RP), 600)
    _, dagger = play_batch(R, Wd, 2, seeds, strat, chars, threads=1, labels=ld)
    _, expert = play_batch(R, We, 2, seeds, strat, chars, threads=1, labels=le)
    assert np.array_equal(alone, expert) and np.array_equal(alone, dagger)
    n = int(labels_kept(ld))
    assert n == int(labels_kept(le)) > 10  # the same positions ...
    assert np.array_equal(ld[1].rows[:n], le[1].rows[:n])
    assert not np.array_equal(ld[1].means[:n], le[1].means[:n])  # ... valued by other simulations


def test_the_gauntlet_s_base_is_the_planner_s_base_heuristic(planner):
    exp, W = _solo(planner)
    Wb = W.copy()
    Wb[0] = ta.planner_rows(W[0], None, "base")
    _, Wh = _solo("heuristic-solo")
    assert np.array_equal(ta.beat_rates(rules_for, Wb, exp, ["weak"], 12, 9, 2)["weak"],
                          ta.beat_rates(rules_for, Wh, exp, ["weak"], 12, 9, 2)["weak"])


def test_the_data_do_not_depend_on_threads(planner, monkeypatch):
    exp, W = _solo(planner)
    W[0] = ta.planner_rows(W[0], _net(2), "label")
    monkeypatch.setattr(ta, "CHUNK", 1)  # one game a label room: two jobs
    X1, y1, k1 = ta.collect(rules_for, W, exp, ["weak"], 2, 3, 0, 300, threads=1)
    X2, y2, k2 = ta.collect(rules_for, W, exp, ["weak"], 2, 3, 0, 300, threads=2)
    assert k1 == k2 > 0 and np.array_equal(X1, X2) and np.array_equal(y1, y2)
    assert X1.shape == (len(y1), N_IN) and X1.dtype == np.float32
    assert abs(y1.sum()) < 1e-6 * len(y1)  # each row's target: its margin less its decision's mean


def test_training_writes_a_network_a_strategy_file_plays(planner, tmp_path):
    res = ta.train_apprentice(rules_for, planner, ["weak"], 1, 2, 3, 6, 4, epochs=2, threads=2)
    assert [g.gen for g in res.generations] == [0, 1] and res.chosen in (0, 1)
    assert res.generations[1].rows_total == res.generations[0].rows + res.generations[1].rows
    path = ta.write_apprentice_file(tmp_path / "a.npz", res.nets[res.chosen], {"command": "test"})
    arrs, prov = load_apprentice_file(path)
    assert prov == {"command": "test"} and list(arrs["inputs"]) == input_names()
    p = tmp_path / "alone.toml"
    p.write_text(f'family = "rollout"\nbase = "heuristic-solo"\n[rollout]\ncandidates = 4\nrollouts = 0\napprentice = "{path}"\n')
    W, _ = load_strategies([str(p)], True)
    assert W[0, APPRENTICE_OFFSET + AB_ON] == AB_MODE_ON and W[0, P.ROLLOUTS] == 0
    with pytest.raises(ta.ApprenticeError, match="never trained on"):
        ta.train_apprentice(rules_for, planner, ["weak"], 0, 1, 3, 2, 3)
    with pytest.raises(ta.ApprenticeError, match="not a rollout planner"):
        ta.train_apprentice(rules_for, "heuristic-solo", ["weak"], 0, 1, 3, 2, 4)


def test_a_run_from_a_starting_network_measures_it_and_can_write_it_back(planner, tmp_path):
    """--init: generation 0 is the starting network (a network file's arrays, with its inputs and
    provenance), measured by the same gauntlet; the file written holds the network's arrays alone."""
    init = random_apprentice(3)
    res = ta.train_apprentice(rules_for, planner, ["weak"], 1, 2, 3, 6, 4, epochs=2, init=init, expert=True, threads=2)
    assert [g.gen for g in res.generations] == [0, 1] and res.generations[0].data_games == 0
    assert res.nets[0] is init and res.generations[1].rows_total == res.generations[1].rows > 0
    exp = solo_experiment(planner, 6, 4, ["weak"])  # the gauntlet's deals
    W = compile_players(exp.strategy_names(), solo=True).matrix().copy()
    Wi = W.copy()
    Wi[0] = ta.planner_rows(W[0], init, "alone")
    assert res.generations[0].gauntlet["weak"] == ta.beat_rates(rules_for, Wi, exp, ["weak"], 6, 4, 1)["weak"].mean()
    arrs, _ = load_apprentice_file(ta.write_apprentice_file(tmp_path / "b.npz", res.nets[0], {"command": "test"}))
    assert all(np.array_equal(arrs[k], init[k]) for k in ("mu", "sd", "w1", "b1", "w2", "b2"))


def _forward(net, X):
    """The network's output for input rows ``X`` (strategies.apprentice's layers, in numpy)."""
    return np.maximum((X - net["mu"]) / net["sd"] @ net["w1"] + net["b1"], 0.0) @ net["w2"] + net["b2"]


def test_a_warm_fit_starts_from_the_network_it_is_given():
    """fit(start=net): the standardisation is the network's and Adam begins from its weights, so one
    epoch on the network's own outputs leaves it where it was; a fresh fit's epoch does not."""
    net = _net(5)
    rng = np.random.default_rng(1)
    X = net["mu"] + rng.normal(size=(600, N_IN)) * net["sd"]
    y = _forward(net, X)
    warm, ep = ta.fit(X, y, 1e-6, 1, 0, start=net)
    cold, _ = ta.fit(X, y, 1e-6, 1, 0)
    assert ep == 1 and np.array_equal(warm["mu"], net["mu"]) and np.array_equal(warm["sd"], net["sd"])
    err_warm = np.abs(_forward(warm, X) - y).mean()
    err_cold = np.abs(_forward(cold, X) - y).mean()
    assert err_warm < 0.05 * np.abs(y - y.mean()).mean() and err_warm < 0.2 * err_cold
    assert not np.array_equal(warm["w1"], net["w1"])  # it was fitted, not copied
    again, _ = ta.fit(X, y, 1e-6, 1, 0, start=net)
    assert all(np.array_equal(again[k], warm[k]) for k in ("w1", "b1", "w2", "b2"))  # reproducible from its seed


def test_a_warm_run_fits_each_generation_from_the_last_network(planner, monkeypatch):
    """--warm-start: generation 1's fit begins from --init's network, generation 2's from generation 1's."""
    init = random_apprentice(3)
    starts = []
    real = ta.fit

    def spy(X, y, alpha, epochs, seed, start=None):
        starts.append(start)
        return real(X, y, alpha, epochs, seed, start=start)

    monkeypatch.setattr(ta, "fit", spy)
    res = ta.train_apprentice(rules_for, planner, ["weak"], 2, 1, 3, 2, 4, epochs=1, init=init, expert=True, threads=2, warm=True)
    assert starts[0] is init and starts[1] is res.nets[1] and len(starts) == 2
    prov = {"command": "test", "commit": "x", "machine": "m", "seconds": 1.0, "games_per_generation": 1, "gauntlet_games": 2,
            "gauntlet_seed": 4, "network_of_generation": res.chosen, "init_net": True, "init": "i.npz", "expert": True,
            "epochs": 1, "warm_start": True}
    assert "starting from the last network's weights (`--warm-start`: 1 epochs a generation)" in ta.curve_markdown(res, prov, ["weak"])
    assert "--warm-start" not in ta.curve_markdown(res, {**prov, "warm_start": False}, ["weak"])
    starts.clear()
    ta.train_apprentice(rules_for, planner, ["weak"], 1, 1, 3, 2, 4, epochs=1, init=init, expert=True, threads=2)
    assert starts == [None]


def test_labels_carry_a_run_s_data_into_the_next(planner, tmp_path, monkeypatch):
    """--labels DIR: a run writes each generation's labels there; a later run of another seed fits on
    them as well as on its own (its first fit sees the carried rows first, then its own), and refuses
    files of its own seed, of its gauntlet's seed, or of other strengths."""
    d = tmp_path / "labels"
    first = ta.train_apprentice(rules_for, planner, ["weak"], 0, 1, 3, 2, 4, epochs=1, threads=2, labels=d)
    written = sorted(x.name for x in d.iterdir())
    assert written == ["labels-seed3-gen0.npz"] and first.labels["carried"] == []
    assert first.labels["written"] == [{"file": written[0], "rows": first.generations[0].rows, "seed": 3, "generation": 0}]
    X0, y0, rec = ta.read_labels(d, 1, ["weak"], 5, 4)
    assert rec == first.labels["written"] and len(y0[0]) == first.generations[0].rows > 0 and X0[0].shape == (len(y0[0]), N_IN)
    seen = []
    real = ta.fit

    def spy(X, y, alpha, epochs, seed, start=None):
        seen.append((X.copy(), y.copy()))
        return real(X, y, alpha, epochs, seed, start=start)

    monkeypatch.setattr(ta, "fit", spy)
    second = ta.train_apprentice(rules_for, planner, ["weak"], 0, 1, 5, 2, 4, epochs=1, threads=2, labels=d)
    n0, n1 = first.generations[0].rows, second.generations[0].rows
    assert second.generations[0].rows_total == n0 + n1 and second.labels["carried"] == first.labels["written"]
    X, y = seen[0]
    assert np.array_equal(X[:n0], X0[0]) and np.array_equal(y[:n0], y0[0]) and len(y) == n0 + n1
    assert sorted(x.name for x in d.iterdir()) == ["labels-seed3-gen0.npz", "labels-seed5-gen0.npz"]
    prov = {"command": "test", "commit": "x", "machine": "m", "seconds": 1.0, "games_per_generation": 1, "gauntlet_games": 2,
            "gauntlet_seed": 4, "network_of_generation": 0, "init_net": False, "init": "none", "expert": False, "epochs": 1,
            "labels": second.labels}
    assert f"{n0} rows carried from earlier runs (`--labels`: seed 3 generation 0)" in ta.curve_markdown(second, prov, ["weak"])
    with pytest.raises(ta.ApprenticeError, match="this run's --seed"):
        ta.train_apprentice(rules_for, planner, ["weak"], 0, 1, 3, 2, 7, epochs=1, labels=d)
    with pytest.raises(ta.ApprenticeError, match="this run's --gauntlet-seed"):
        ta.train_apprentice(rules_for, planner, ["weak"], 0, 1, 9, 2, 5, epochs=1, labels=d)
    with pytest.raises(ta.ApprenticeError, match="strengths"):
        ta.train_apprentice(rules_for, planner, ["weak", "medium"], 0, 1, 9, 2, 4, epochs=1, labels=d)


def test_cli_refuses_what_it_cannot_write(tmp_path):
    r = CliRunner().invoke(app, ["train", "--apprentice", "--out", str(tmp_path / "x.toml")])
    assert r.exit_code != 0 and ".npz" in r.output
    r = CliRunner().invoke(app, ["train", "--apprentice", "--strengths", "weak,heroic", "--out", str(tmp_path / "x.npz")])
    assert r.exit_code != 0 and "--strengths" in r.output
    r = CliRunner().invoke(app, ["train", "--expert", "--out", str(tmp_path / "x.toml")])
    assert r.exit_code != 0 and "--expert" in r.output
    r = CliRunner().invoke(app, ["train", "--warm-start", "--out", str(tmp_path / "x.toml")])
    assert r.exit_code != 0 and "--warm-start" in r.output
    r = CliRunner().invoke(app, ["train", "--labels", str(tmp_path), "--out", str(tmp_path / "x.toml")])
    assert r.exit_code != 0 and "--labels" in r.output


@pytest.mark.parametrize("name", ["lab/apprentice-solo.npz", "lab/apprentice-expert-solo.npz", "apprentice-warm-solo.npz", "lab/apprentice-4p.npz"])
def test_a_shipped_network_names_its_training(name):
    from strategies.registry import VALUE_DIR

    _, prov = load_apprentice_file(VALUE_DIR / name)
    assert prov["command"].startswith("trinidad train --apprentice") and prov["seed"] != prov["gauntlet_seed"]
    assert [g["gen"] for g in prov["generation_log"]][prov["network_of_generation"] - prov["generation_log"][0]["gen"]] == prov["network_of_generation"]
    if prov.get("init_net"):  # trained on from another network: that network's provenance comes with it
        assert prov["init_provenance"]["command"].startswith("trinidad train --apprentice")


def test_the_shipped_apprentice_plays():
    from strategies.registry import VALUE_DIR

    exp, W = _solo("lab/apprentice-solo", 4)
    assert W[0, APPRENTICE_OFFSET + AB_ON] == AB_MODE_ON and W[0, P.ROLLOUTS] == 0 and W[0, APPRENTICE_OFFSET + AB_ROWS] == 24
    assert ta.beat_rates(rules_for, W, exp, ["weak"], 4, 5, 1)["weak"].shape == (4,)
    _, Wx = _solo("lab/rollout-expert-solo")  # best against the A.I.: the planner with the expert network in its simulations
    assert Wx[0, APPRENTICE_OFFSET + AB_ON] == AB_MODE_ON and Wx[0, P.ROLLOUTS] == 16
    _, Ww = _solo("lab/apprentice-warm-solo")  # the warm-started network alone: no simulations
    assert Ww[0, APPRENTICE_OFFSET + AB_ON] == AB_MODE_ON and Ww[0, P.ROLLOUTS] == 0
    _, Wr = _solo("rollout-warm-solo")  # the planner of rollout-expert-solo with the warm network in its simulations
    assert Wr[0, P.ROLLOUTS] == 16 and (np.flatnonzero(Wr[0] != Wx[0]) > APPRENTICE_OFFSET).all()
    assert (Wr[0, APPRENTICE_OFFSET:] == Ww[0, APPRENTICE_OFFSET:]).all()
    _, prov = load_apprentice_file(VALUE_DIR / "apprentice-warm-solo.npz")
    assert prov["warm_start"] and prov["init_provenance"]["warm_start"] and prov["expert"]


def test_the_shipped_table_apprentice_plays_a_table():
    """apprentice-4p: the table network alone, trained on 4-player games (its provenance says so)."""
    from strategies.registry import VALUE_DIR

    _, prov = load_apprentice_file(VALUE_DIR / "lab" / "apprentice-4p.npz")
    assert prov["players"] == 4 and prov["strengths"] == [ta.TABLE]
    exp = ta.table_experiment("lab/apprentice-4p", 4, 5, 4)
    W = compile_players(exp.strategy_names()).matrix().copy()
    assert W[0, APPRENTICE_OFFSET + AB_ON] == AB_MODE_ON and W[0, P.ROLLOUTS] == 0 and W[0, APPRENTICE_OFFSET + AB_ROWS] == 24
    base = ta.planner_rows(W[0], None, "base")
    got = ta.beat_rates(lambda s: rules_from_doc(DOC), W, exp, [ta.TABLE], 4, 5, 1, players=4, others=base)[ta.TABLE]
    assert got.shape == (4,)


@pytest.fixture()
def table_planner(tmp_path):
    """A small rollout planner over the 4-player heuristic (3 candidates, 2 simulations each)."""
    p = tmp_path / "table.toml"
    p.write_text('family = "rollout"\nbase = "heuristic"\n[rollout]\ncandidates = 3\nrollouts = 2\nhorizon = "era"\n')
    return str(p)


def test_a_table_s_data_games_label_every_seat(table_planner):
    """--players 3: every seat is the planner's (the network acting), so every seat's positions are
    labelled; the deals are balanced Characters over the seats, the measured seat turning round."""
    exp = ta.table_experiment(table_planner, 3, 3, 3)
    W = compile_players(exp.strategy_names()).matrix().copy()
    strat, chars, seat = ta._dealt(exp, 0, 3, 3)
    assert strat.shape == (3, 3) and not strat.any() and seat.tolist() == [0, 1, 2]
    assert np.array_equal(chars, exp.seat_characters(3, np.arange(3))) and all(len(set(c)) == 3 for c in chars)
    W[0] = ta.planner_rows(W[0], _net(2), "label")
    R = rules_from_doc(DOC)
    labels = new_labels(allocate(for_players(R, strat[:1])), 400)
    play_batch(R, W, 3, player_seeds(3, 3, 0, 1), strat[:1], chars[:1], threads=1, labels=labels)
    k = int(labels_kept(labels))
    assert sorted(set(labels[1].seat[:k].tolist())) == [0, 1, 2]
    X, y, n = ta.collect(lambda s: R, W, exp, [ta.TABLE], 1, 3, 0, 400, threads=1, players=3)
    assert n == k and X.shape == (len(y), N_IN) and abs(y.sum()) < 1e-6 * len(y)


def test_the_table_gauntlet_credits_the_measured_seat(table_planner):
    """The gauntlet at a table: row 0 at the measured seat, the base heuristic at every other; with the
    base heuristic at row 0 too, each game's credit is that seat's share of the win in the plain game."""
    from sim.schema import RG as GR

    exp = ta.table_experiment(table_planner, 6, 9, 3)
    W = compile_players(exp.strategy_names()).matrix().copy()
    base = ta.planner_rows(W[0], None, "base")
    Wb = W.copy()
    Wb[0] = base
    R = rules_from_doc(DOC)
    got = ta.beat_rates(lambda s: R, Wb, exp, [ta.TABLE], 6, 9, 2, players=3, others=base)[ta.TABLE]
    strat, chars, seat = ta._dealt(exp, 0, 6, 3)
    win = play_batch(R, Wb, 3, player_seeds(9, 3, 0, 6), strat, chars, threads=1)[1][:, :3, GR.WINNER].astype(float)
    assert np.allclose(got, (win / win.sum(1, keepdims=True))[np.arange(6), seat])
    Wn = W.copy()
    Wn[0] = ta.planner_rows(W[0], _net(4), "alone")
    alone = ta.beat_rates(lambda s: R, Wn, exp, [ta.TABLE], 6, 9, 1, players=3, others=base)[ta.TABLE]
    assert alone.shape == (6,) and ((alone >= 0) & (alone <= 1)).all()


def test_a_table_run_writes_its_curve_and_a_network_the_search_plays(table_planner, tmp_path):
    R = rules_from_doc(DOC)
    res = ta.train_apprentice(lambda s: R, table_planner, [ta.TABLE], 1, 1, 3, 3, 4, epochs=2, threads=2, players=3)
    assert [g.gen for g in res.generations] == [0, 1] and res.generations[1].data_games == 1
    prov = {"command": "test", "commit": "x", "machine": "m", "seconds": 1.0, "players": 3, "games_per_generation": 1,
            "gauntlet_games": 3, "gauntlet_seed": 4, "network_of_generation": res.chosen}
    page = ta.curve_markdown(res, prov, [ta.TABLE])
    assert "games of 3 players" in page and "parity 33%" in page and "win credit at its seat" in page
    path = ta.write_apprentice_file(tmp_path / "t.npz", res.nets[res.chosen], {"command": "test"})
    p = tmp_path / "s.toml"
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nbudget = 2\nwidth = 2\napprentice = "{path}"\n')
    W, _ = load_strategies([str(p)])
    assert W[0, APPRENTICE_OFFSET + AB_ON] == AB_MODE_ON
    # --opponent: the gauntlet's other seats are that strategy's (the measured seat's base stays the heuristic)
    greedy = ta.train_apprentice(lambda s: R, table_planner, [ta.TABLE], 0, 1, 3, 3, 4, epochs=2, threads=1, players=3,
                                 opponent="greedy")
    exp = ta.table_experiment(table_planner, 3, 4, 3)
    Wg = compile_players([table_planner, "greedy"]).matrix().copy()
    base = ta.planner_rows(Wg[0], None, "base")
    Wg[0] = base
    want = ta.beat_rates(lambda s: R, Wg, exp, [ta.TABLE], 3, 4, 1, players=3, others=Wg[1])[ta.TABLE]
    assert greedy.base[ta.TABLE] == pytest.approx(want.mean())
    with pytest.raises(ta.ApprenticeError, match="only at a table"):
        ta.train_apprentice(rules_for, table_planner, ["weak"], 0, 1, 3, 2, 4, opponent="greedy")
    with pytest.raises(ta.ApprenticeError, match="no A.I."):
        ta.train_apprentice(lambda s: R, table_planner, ["weak"], 0, 1, 3, 2, 4, players=3)
    with pytest.raises(ta.ApprenticeError, match="players"):
        ta.train_apprentice(lambda s: R, table_planner, [ta.TABLE], 0, 1, 3, 2, 4, players=6)
    r = CliRunner().invoke(app, ["train", "--apprentice", "--players", "6", "--out", str(tmp_path / "x.npz")])
    assert r.exit_code != 0 and "--players" in r.output
