"""The search family (strategies.search) and its evaluation (strategies.value_model), and
``trinidad train`` (trinidad.train.linear). Strength is measured by ``trinidad ladder`` / ``tournament``
(benchmarks); these tests pin what must hold whatever the strength: the strategy file's layout,
searching leaves the real game untouched, no peeking at hidden information, the recorded features
are the state's, the fit, and determinism."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import mid_game, random_apprentice, redealt

from sim.actions import turn_options
from sim.game import allocate
from sim.records import RD, RG
from sim.rng import player_seeds
from sim.state import N_CARDS, N_CHARACTERS, PF, B, G, Loc
from strategies.policy import FAMILY_SEARCH, P, _forbidden
from strategies.registry import StrategyError, load_strategies, load_value_file, set_value_model
from strategies.rollout import new_labels
from strategies.search import SB, search_choice
from strategies.value_model import (
    EXPLORE_SCALE,
    N_STAGES,
    N_VF,
    SEARCH_OFFSET,
    VF,
    explorer_model,
    lower_bounds,
    prior_model,
    value_offset,
)
from strategies.weights import FORBID_CITY, N_WEIGHTS
from trinidad.batch import play_batch
from trinidad.train.linear import TrainResult, fit, td_targets, write_value_file

GAME_FIELDS = ["g", "pl", "vps", "order", "cell_b", "cell_owner", "cell_cube", "act_used", "grids", "stacks", "warehouse",
               "supply", "major", "major_state", "walls", "roads", "minis", "card_loc", "card_rot", "card_seq", "card_turn",
               "peace", "spain", "dock", "built", "card_uses", "card_active", "card_uses_seat", "card_uses_by", "rng", "w"]


def _strategy(tmp_path, name, budget=6, width=3, horizon=0, value="prior", apprentice=None, rollout_forbid=None,
              rollout_forbid_seats=None):
    p = tmp_path / f"{name}.toml"
    extra = f'apprentice = "{apprentice}"\n' if apprentice else ""
    extra += f'rollout_forbid = "{rollout_forbid}"\n' if rollout_forbid else ""
    extra += f'rollout_forbid_seats = "{rollout_forbid_seats}"\n' if rollout_forbid_seats else ""
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nbudget = {budget}\nwidth = {width}\n'
                 f'horizon = {horizon}\nvalue = "{value}"\n' + extra)
    return str(p)


def _apprentice_file(tmp_path, seed=0):
    """A random apprentice network written as trinidad train --apprentice writes one."""
    from trinidad.train.apprentice import write_apprentice_file

    return str(write_apprentice_file(tmp_path / f"net{seed}.npz", random_apprentice(seed, with_file_keys=False), {"test": True}))


def test_search_file_loads_its_parameters_and_the_prior_model(tmp_path):
    W, _ = load_strategies([_strategy(tmp_path, "s1", 32, 8, 0), _strategy(tmp_path, "s2", 5, 2, 1)])
    H, _ = load_strategies(["heuristic"])
    for row, (b, w, h) in zip(W, [(32, 8, 0), (5, 2, 1)]):
        blocks = row[:SEARCH_OFFSET].reshape(-1, N_WEIGHTS)
        assert (blocks[:, 0] == FAMILY_SEARCH).all()
        assert np.array_equal(blocks[:, 1:], H[0, :SEARCH_OFFSET].reshape(-1, N_WEIGHTS)[:, 1:])  # the base's weights
        assert (row[SEARCH_OFFSET + SB.BUDGET], row[SEARCH_OFFSET + SB.WIDTH], row[SEARCH_OFFSET + SB.HORIZON]) == (b, w, h)
        prior = prior_model(H[0, :N_WEIGHTS])
        for s in range(N_STAGES):
            assert np.array_equal(row[value_offset(s):value_offset(s) + N_VF], prior[s])
    assert prior[0, VF.VP] == 1.0 and prior[0, VF.CITY_AHEAD] == 1.0 and prior[0, VF.WOOD] == H[0, 2]


def test_search_file_errors_name_the_key(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('family = "search"\n[search]\nbudget = -1\n')
    with pytest.raises(StrategyError, match="search.budget"):
        load_strategies([str(bad)])
    bad.write_text('family = "search"\n[search]\nvalue = "nowhere"\n')
    with pytest.raises(StrategyError, match="search.value"):
        load_strategies([str(bad)])
    for text, key in (("apprentice_rows = 4", "search.apprentice_rows: only with an apprentice"),
                      ('apprentice = "nowhere.npz"', "search.apprentice: .* not found")):
        bad.write_text(f'family = "search"\n[search]\n{text}\n')
        with pytest.raises(StrategyError, match=key):
            load_strategies([str(bad)])


def test_a_character_blind_search_reads_no_character_weight_and_nothing_else_changes(tmp_path):
    from strategies.registry import VALUE_DIR

    model, _ = load_value_file(VALUE_DIR / "lab" / "search-seed11.toml")
    ch = [int(f) for f in VF if f.name.startswith("CH_")]
    assert np.abs(model[:, ch]).max() > 1  # the trained chain does weigh the Characters
    value = str(VALUE_DIR / "lab" / "search-seed11")
    seen = _strategy(tmp_path, "seen", value=value)
    blind = Path(_strategy(tmp_path, "blind", value=value))
    blind.write_text(blind.read_text() + "character_weights = false\n")
    W, _ = load_strategies([seen, str(blind)])
    rest = [f for f in range(N_VF) if f not in ch]
    for s in range(N_STAGES):
        o = value_offset(s)
        assert np.all(W[1, o:o + N_VF][ch] == 0)
        assert np.array_equal(W[1, o:o + N_VF][rest], model[s, rest])
    out = np.ones(W.shape[1], bool)
    for s in range(N_STAGES):
        out[value_offset(s) + np.array(ch)] = False
    assert np.array_equal(W[0][out], W[1][out])  # the rest of the row: the same player
    blind.write_text(blind.read_text().replace("character_weights = false", 'character_weights = "no"'))
    with pytest.raises(StrategyError, match="search.character_weights"):
        load_strategies([str(blind)])


def test_shipped_search_plays_the_shipped_value_file():
    from strategies.registry import VALUE_DIR

    model, prov = load_value_file(VALUE_DIR / "search.toml")
    W, _ = load_strategies(["search"])
    for s in range(N_STAGES):
        assert np.array_equal(W[0, value_offset(s):value_offset(s) + N_VF], model[s])
    assert prov["command"].startswith("trinidad train") and prov["promoted"] >= 1


def test_value_file_round_trip_and_strict_keys(tmp_path):
    m = np.arange(N_STAGES * N_VF, dtype=np.float64).reshape(N_STAGES, N_VF) / 7
    # provenance as `trinidad train --fix` writes it: a table of fixed weights among the scalars
    p = write_value_file(tmp_path / "v.toml", TrainResult(model=m), {"command": "test", "seed": 3,
                                                                   "fixed": {"vp": 1.0, "city_ahead": 0.5}, "r2": [0.1, 0.2]})
    got, prov = load_value_file(p)
    assert np.array_equal(got, m) and prov["seed"] == 3
    assert prov["fixed"] == {"vp": 1.0, "city_ahead": 0.5} and prov["r2"] == [0.1, 0.2]
    W, _ = load_strategies([_strategy(tmp_path, "sv", value=str(p))])
    assert np.array_equal(W[0, value_offset(1):value_offset(1) + N_VF], m[1])
    p.write_text(p.read_text().replace("[stage2]\nbias", "[stage2]\nnot_a_feature"))
    with pytest.raises(StrategyError, match="not_a_feature"):
        load_value_file(p)


def test_value_file_takes_a_stage_without_a_held_out_r2(tmp_path):
    """A stage with too few positions to fit has no held-out R^2 (nan): the file stays TOML."""
    p = write_value_file(tmp_path / "v.toml", TrainResult(model=np.zeros((N_STAGES, N_VF))),
                         {"held_out_r2": [0.5, float("nan"), float("inf")]})
    _, prov = load_value_file(p)
    assert prov["held_out_r2"][0] == 0.5 and np.isnan(prov["held_out_r2"][1]) and prov["held_out_r2"][2] == float("inf")


@pytest.mark.parametrize(("rollout_forbid", "seats"), [(None, None), ("major", None), ("major", "all")])
def test_searching_leaves_the_real_game_untouched(engine, tmp_path, rollout_forbid, seats):
    """The real game is as it was (its seats' weights too: a rollout_forbid lives on the simulations' copies)."""
    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "s", rollout_forbid=rollout_forbid, rollout_forbid_seats=seats)])
    st, seat = mid_game(r, W)
    k = turn_options(st, r, seat)
    assert k > 3
    before = {f: getattr(st, f).copy() for f in GAME_FIELDS + ["opts"]}
    sc = allocate(r)
    i = search_choice(st, sc, r, W, seat, 0, k, False, new_labels(sc, 0))
    assert 0 <= i < k
    for f in GAME_FIELDS + ["opts"]:
        now, was = getattr(st, f), before[f]
        if f == "g":
            assert now[G.OPT_N] == was[G.OPT_N] + 1
            now, was = np.delete(now, G.OPT_N), np.delete(was, G.OPT_N)
        assert np.array_equal(now, was), f
    st.g[G.OPT_N] -= 1
    assert search_choice(st, sc, r, W, seat, 0, k, False, new_labels(sc, 0)) == i  # the same redraws again


def test_rollout_forbid_keeps_only_the_seat_s_simulated_self_off_the_option(engine, tmp_path):
    """[search] rollout_forbid: the row is the plain search's but for SB.ROLLOUT_FORBID (the Act); any other name
    is refused; the seat's simulations change and so do its decisions, while its real listing keeps the option
    (the lab's search-long-nogrid still places on the Major grids)."""
    from sim.codes import Act
    from sim.records import act_column

    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "plain", budget=4, width=3, horizon=1),
                            _strategy(tmp_path, "rf", budget=4, width=3, horizon=1, rollout_forbid="major")])
    assert W[0, SEARCH_OFFSET + SB.ROLLOUT_FORBID] == 0 and W[1, SEARCH_OFFSET + SB.ROLLOUT_FORBID] == 1 << Act.MAJOR
    assert np.array_equal(np.delete(W[0], SEARCH_OFFSET + SB.ROLLOUT_FORBID), np.delete(W[1], SEARCH_OFFSET + SB.ROLLOUT_FORBID))
    for bad in ("pass", "nowhere"):
        with pytest.raises(StrategyError, match="search.rollout_forbid: an Act or a list of distinct Acts; allowed: build, "):
            load_strategies([_strategy(tmp_path, "bad", rollout_forbid=bad)])
    seeds = player_seeds(9, 4, 0, 2)
    plain = play_batch(r, W, 4, seeds, np.zeros((2, 4), np.int32), threads=1)
    rf = play_batch(r, W, 4, seeds, np.ones((2, 4), np.int32), threads=1)
    assert not np.array_equal(plain[1], rf[1])
    Wn, _ = load_strategies(["lab/search-long-nogrid"])
    assert Wn[0, SEARCH_OFFSET + SB.ROLLOUT_FORBID] == 1 << Act.MAJOR
    _, gam = play_batch(r, Wn, 4, player_seeds(5, 4, 0, 4), np.zeros((4, 4), np.int32), threads=1)
    assert gam[:, :4, act_column(Act.MAJOR)].sum() > 0


def test_rollout_forbid_seats_all_keeps_every_simulated_seat_off_the_option(engine, tmp_path):
    """[search] rollout_forbid_seats = "all": the row is the "self" one's but for SB.ROLLOUT_FORBID_ALL; the
    simulations' copy carries the forbid for every seat (with "self" for the deciding seat only), the real game's
    seats for none; decisions change; any other value, or one without a rollout_forbid, is refused."""
    from sim.codes import Act

    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "own", budget=4, width=3, horizon=1, rollout_forbid="major"),
                            _strategy(tmp_path, "all", budget=4, width=3, horizon=1, rollout_forbid="major",
                                      rollout_forbid_seats="all")])
    assert W[0, SEARCH_OFFSET + SB.ROLLOUT_FORBID_ALL] == 0 and W[1, SEARCH_OFFSET + SB.ROLLOUT_FORBID_ALL] == 1
    assert np.array_equal(np.delete(W[0], SEARCH_OFFSET + SB.ROLLOUT_FORBID_ALL),
                          np.delete(W[1], SEARCH_OFFSET + SB.ROLLOUT_FORBID_ALL))
    with pytest.raises(StrategyError, match="search.rollout_forbid_seats: allowed: self, all"):
        load_strategies([_strategy(tmp_path, "bad", rollout_forbid="major", rollout_forbid_seats="rivals")])
    with pytest.raises(StrategyError, match="search.rollout_forbid_seats: only with a rollout_forbid"):
        load_strategies([_strategy(tmp_path, "bad2", rollout_forbid_seats="all")])
    for sid, forbidden in ((0, {0}), (1, {0, 1, 2, 3})):
        st, seat = mid_game(r, W)
        st.pl[:, PF.STRATEGY] = sid
        k = turn_options(st, r, seat)
        sc = allocate(r)
        search_choice(st, sc, r, W, seat, 0, k, False, new_labels(sc, 0))
        want = [1 << int(Act.MAJOR) if (s - seat) % 4 in forbidden else 0 for s in range(4)]
        assert [int(x) for x in sc.w[:4, P.SIM_FORBID]] == want  # the last simulation's copy
        assert not st.w[:4, P.SIM_FORBID].any() and not sc.w[:4, P.PROBE_ACT].any()
    # a seat that carries a probe of its own (trinidad probe --forbid city) keeps it, and its simulations keep
    # the search's forbid beside it: both are dropped from its simulated listings
    st, seat = mid_game(r, W)
    st.pl[:, PF.STRATEGY] = 1
    st.w[seat, P.PROBE_PLAN] = FORBID_CITY
    k = turn_options(st, r, seat)
    sc = allocate(r)
    search_choice(st, sc, r, W, seat, 0, k, False, new_labels(sc, 0))
    assert sc.w[seat, P.PROBE_PLAN] == FORBID_CITY and sc.w[seat, P.SIM_FORBID] == 1 << int(Act.MAJOR)
    assert _forbidden(sc, r, seat, int(Act.MAJOR), 0) and _forbidden(sc, r, seat, int(Act.BUILD), int(B.LOT))
    assert not _forbidden(sc, r, seat, int(Act.BUILD), int(B.MARKET))
    seeds = player_seeds(9, 4, 0, 2)
    own = play_batch(r, W, 4, seeds, np.zeros((2, 4), np.int32), threads=1)
    every = play_batch(r, W, 4, seeds, np.ones((2, 4), np.int32), threads=1)
    assert not np.array_equal(own[1], every[1])


def test_search_war_key_defaults_on_and_is_checked(tmp_path):
    # EXTENDED WAR: [search] war = 1 (the default) searches the seat's war actions too, 0 leaves them
    # to the base strategy's values
    W, _ = load_strategies(["search", _strategy(tmp_path, "s")])
    assert W[0, SEARCH_OFFSET + SB.WAR] == 1 == W[1, SEARCH_OFFSET + SB.WAR]
    off = tmp_path / "off.toml"
    off.write_text('family = "search"\n[search]\nwar = 0\n')
    W, _ = load_strategies([str(off)])
    assert W[0, SEARCH_OFFSET + SB.WAR] == 0
    off.write_text('family = "search"\n[search]\nwar = 2\n')
    with pytest.raises(StrategyError, match="search.war"):
        load_strategies([str(off)])


def test_searching_a_war_action_leaves_the_real_game_untouched(tmp_path):
    # a played expansion game at the first turn of a decade with a war on, where the first seat has a
    # miniature in the Combat Area: its war action decision (Dec.XW_ACTION) searched, the real game
    # untouched but the decision count, the same choice again from the same position
    from sim.extended_war import begin_player_turn, war_action_rows
    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc
    from sim.state import XG

    xr = rules_from_doc(apply_overrides(load_rules_doc(None, None), {"extended_war": {"enabled": True}}))
    W, _ = load_strategies([_strategy(tmp_path, "s")])
    found = None
    for seed in range(1, 40):
        for decades in range(2, 11):
            st, seat = mid_game(xr, W, decades=decades, seed=seed)
            if st.xw[XG.ACTIVE] == 1:
                begin_player_turn(st, xr, seat)
                if war_action_rows(st, xr, seat) > 2:
                    found = st, seat
                    break
        if found:
            break
    assert found, "no position with a war on and a miniature to act"
    st, seat = found
    k = war_action_rows(st, xr, seat)
    before = {f: getattr(st, f).copy() for f in GAME_FIELDS + ["opts", "xw", "xw_att", "xw_mini", "xw_pillage"]}
    sc = allocate(xr)
    i = search_choice(st, sc, xr, W, seat, 0, k, True, new_labels(sc, 0))
    assert 0 <= i < k
    for f, was in before.items():
        now = getattr(st, f)
        if f == "g":
            assert now[G.OPT_N] == was[G.OPT_N] + 1
            now, was = np.delete(now, G.OPT_N), np.delete(was, G.OPT_N)
        assert np.array_equal(now, was), f
    st.g[G.OPT_N] -= 1
    assert search_choice(st, sc, xr, W, seat, 0, k, True, new_labels(sc, 0)) == i


def _hidden(st, seat, n):
    """What ``seat`` cannot see: the deck order and the other seats' face-down hands."""
    deck = sorted((int(st.card_seq[c]), c) for c in range(N_CHARACTERS, N_CARDS) if st.card_loc[c] == Loc.DECK)
    hands = [sorted(c for c in range(N_CHARACTERS, N_CARDS) if st.card_loc[c] == Loc.HAND + s and st.card_rot[c] == 0)
             for s in range(n) if s != seat]
    return [c for _, c in deck], hands


@pytest.mark.parametrize(("apprentice", "forbid_all", "value"),
                         [(False, False, "prior"), (True, False, "prior"), (False, True, "prior"), (False, True, "search-td61")])
def test_no_peeking_the_decision_ignores_what_the_seat_cannot_see(engine, tmp_path, apprentice, forbid_all, value):
    """Another arrangement of the hidden cards, consistent with the seat's view (the same cards in
    the deck and in the other hands, in the same numbers, dealt again), gives the same decision:
    the search reads only its redraws; with an apprentice playing its simulations too, or with every simulated
    seat kept off the Major grids (best's rollout_forbid), also over best's own evaluation (search-td61) at a
    smaller budget."""
    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "s", budget=8, width=4, apprentice=_apprentice_file(tmp_path) if apprentice else None,
                                      value=value, rollout_forbid="major" if forbid_all else None,
                                      rollout_forbid_seats="all" if forbid_all else None)])
    sc = allocate(r)
    checked = 0
    for pos_seed in (3, 4, 5):
        st, seat = mid_game(r, W, seed=pos_seed)
        n = int(st.g[G.NPLAYERS])
        k = turn_options(st, r, seat)
        alt = redealt(r, st, seat, 12345 + pos_seed)  # the hidden cards dealt again, from the seat's view
        deck_a, hands_a = _hidden(st, seat, n)
        deck_b, hands_b = _hidden(alt, seat, n)
        assert sorted(deck_a + sum(hands_a, [])) == sorted(deck_b + sum(hands_b, []))  # the same unseen cards
        assert [len(h) for h in hands_a] == [len(h) for h in hands_b]
        if deck_a == deck_b and hands_a == hands_b:
            continue  # nothing hidden to rearrange at this position
        checked += 1
        g0 = st.g[G.OPT_N]
        a = search_choice(st, sc, r, W, seat, 0, k, False, new_labels(sc, 0))
        b = search_choice(alt, sc, r, W, seat, 0, k, False, new_labels(sc, 0))
        assert st.g[G.OPT_N] == g0 + 1
        assert a == b
    assert checked >= 2


def test_recorded_features_are_the_state_at_each_decade_end(engine):
    r, _ = engine
    W, _ = load_strategies(["heuristic"])
    seeds = player_seeds(5, 4, 0, 2)
    dec, gam, feats = play_batch(r, W, 4, seeds, np.zeros((2, 4), np.int32), threads=1, features=True)
    dec2, gam2 = play_batch(r, W, 4, seeds, np.zeros((2, 4), np.int32), threads=1)
    assert np.array_equal(gam, gam2) and np.array_equal(dec, dec2)  # recording does not change play
    assert feats.shape[-1] == N_VF
    for d in range(12):
        assert np.array_equal(feats[:, d, :4, VF.VP], dec[:, d, :4, RD.VP])
        assert (feats[:, d, :4, VF.BIAS] == 1).all()
    assert np.array_equal(feats[:, 11, :4, VF.VP], gam[:, :4, RG.VP])
    assert (feats[:, 11, :4, VF.SCORINGS_LEFT] == 0).all() and (feats[:, 0, :4, VF.SCORINGS_LEFT] == 3).all()


def test_an_apprentice_plays_the_search_s_simulations_not_its_real_turns(engine, tmp_path):
    """[search] apprentice: the row carries the network (strategies.apprentice, on) and otherwise equals
    the search's; the simulations are played by it, so the decisions move, and a game of it does not
    depend on threads."""
    from strategies.apprentice import AB_MODE_ON, AB_ON, AB_ROWS, APPRENTICE_OFFSET
    from strategies.registry import APPRENTICE_ROWS

    r, _ = engine
    net = _apprentice_file(tmp_path, 1)
    W, _ = load_strategies([_strategy(tmp_path, "plain", budget=4, width=3), _strategy(tmp_path, "a", budget=4, width=3, apprentice=net)])
    assert W[1, APPRENTICE_OFFSET + AB_ON] == AB_MODE_ON and W[1, APPRENTICE_OFFSET + AB_ROWS] == APPRENTICE_ROWS
    assert np.array_equal(W[0, :APPRENTICE_OFFSET], W[1, :APPRENTICE_OFFSET])
    seeds = player_seeds(9, 4, 0, 2)
    plain = play_batch(r, W, 4, seeds, np.zeros((2, 4), np.int32), threads=1)
    a1 = play_batch(r, W, 4, seeds, np.ones((2, 4), np.int32), threads=1)
    a2 = play_batch(r, W, 4, seeds, np.ones((2, 4), np.int32), threads=2)
    assert np.array_equal(a1[1], a2[1]) and not np.array_equal(plain[1], a1[1])


def test_search_games_do_not_depend_on_threads(engine, tmp_path):
    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "s", budget=4, width=2), "heuristic"])
    seeds = player_seeds(9, 4, 0, 3)
    strat = np.array([[0, 1, 0, 1]] * 3)
    a = play_batch(r, W, 4, seeds, strat, threads=1)
    b = play_batch(r, W, 4, seeds, strat, threads=2)
    assert np.array_equal(a[1], b[1]) and np.array_equal(a[0], b[0])


def test_fit_learns_what_the_games_add_and_keeps_the_prior_elsewhere():
    rng = np.random.default_rng(0)
    games, players, per = 200, 4, 3
    n = games * per * players
    X = np.zeros((n, N_VF))
    X[:, VF.BIAS] = 1
    X[:, VF.VP] = rng.integers(0, 100, n)
    X[:, VF.WOOD] = rng.integers(0, 10, n)
    stage = np.repeat(np.arange(per), games * players) % N_STAGES
    game = np.tile(np.repeat(np.arange(games), players), per)
    y = 1.0 * X[:, VF.VP] + 2.0 * X[:, VF.WOOD] + 5.0 + rng.normal(0, 0.5, n)
    winners = np.zeros((games, players), np.int64)
    winners[:, 0] = 1
    prior = np.zeros((N_STAGES, N_VF))
    prior[:, VF.CITY_AHEAD] = 1.0  # never varies in these positions: must keep its prior weight
    model, r2, _ = fit(X, y, stage, game, winners, alpha=1e-6, prior=prior)
    for s in range(N_STAGES):
        assert model[s, VF.WOOD] == pytest.approx(2.0, abs=0.05)
        assert model[s, VF.VP] == pytest.approx(1.0, abs=0.01)
        assert model[s, VF.CITY_AHEAD] == pytest.approx(1.0, abs=1e-9)
        assert r2[s] > 0.99


def test_td_targets_bootstrap_from_the_next_decade_s_prediction_and_end_on_the_final_vp():
    # 2 games x 2 seats x 3 recorded decades, laid out as trinidad.train.linear.positions returns them:
    # decade-major, then game, then seat; the model reads the VP scored so far (weight 1 in Era 1,
    # 2 in Era 2, so each position is read by its own Era's model) plus a bias of 10
    games, players, T = 2, 2, 3
    n = games * players
    vp = np.array([[10, 20, 30, 40], [15, 25, 35, 45], [17, 21, 38, 50]], np.float64)  # [decade, game x seat]
    X = np.zeros((T * n, N_VF))
    X[:, VF.BIAS] = 1
    X[:, VF.VP] = vp.reshape(-1)
    stage = np.repeat([0, 1, 1], n)
    final = np.array([20.0, 30.0, 40.0, 60.0])
    y = np.tile(final, T)
    model = np.zeros((N_STAGES, N_VF))
    model[:, VF.BIAS] = 10
    model[0, VF.VP], model[1, VF.VP] = 1.0, 2.0
    assert np.array_equal(td_targets(X, y, stage, games, players, model, 1.0), y)  # lambda 1: the outcome alone
    g0 = td_targets(X, y, stage, games, players, model, 0.0).reshape(T, n)
    assert np.allclose(g0[2], final)  # the last recorded decade: the final VP
    assert np.allclose(g0[1], 10 + 2.0 * vp[2])  # one step: the next decade's prediction (Era 2's model)
    assert np.allclose(g0[0], 10 + 2.0 * vp[1])
    g5 = td_targets(X, y, stage, games, players, model, 0.5).reshape(T, n)
    assert np.allclose(g5[1], 0.5 * (10 + 2.0 * vp[2]) + 0.5 * final)
    assert np.allclose(g5[0], 0.5 * (10 + 2.0 * vp[1]) + 0.5 * g5[1])


def _synthetic_positions(rng, games, players=4):
    """Rows of ``games`` games of one stage for trinidad.train.linear.fit: the bias, VP scored so far drawn
    from ``rng``, every other feature 0 (a test sets its own), seat 0 the winner."""
    n = games * players
    X = np.zeros((n, N_VF))
    X[:, VF.BIAS] = 1
    X[:, VF.VP] = rng.integers(0, 100, n)
    winners = np.zeros((games, players), np.int64)
    winners[:, 0] = 1
    return X, np.zeros(n, np.int64), np.repeat(np.arange(games), players), winners


def test_fit_keeps_monotone_weights_non_negative_and_lets_the_intercept_go_below_zero():
    # self-play where holding Lots goes with losing (the seats that kept them were behind): an
    # unbounded fit gives Lots a negative weight, and the search would remove its Lots for nothing
    rng = np.random.default_rng(1)
    X, stage, game, winners = _synthetic_positions(rng, 400)
    n = len(X)
    X[:, VF.LOTS] = rng.integers(0, 3, n)
    y = 1.0 * X[:, VF.VP] - 3.0 * X[:, VF.LOTS] - 20.0 + rng.normal(0, 0.5, n)
    model, _, _ = fit(X, y, stage, game, winners, alpha=1e-6, prior=np.zeros((N_STAGES, N_VF)))
    lo = lower_bounds()
    assert (model >= lo).all()
    assert model[0, VF.LOTS] == 0.0
    # with Lots held at 0 the rest absorbs the mean effect (the intercept falls below -20)
    assert model[0, VF.BIAS] < -20.0
    assert model[0, VF.VP] == pytest.approx(1.0, abs=0.02)


def test_explorers_move_only_the_holdings_within_the_bounds_and_from_the_seed():
    base = prior_model()
    a = explorer_model(base, 1.0, np.random.default_rng(3))
    b = explorer_model(base, 1.0, np.random.default_rng(3))
    c = explorer_model(base, 1.0, np.random.default_rng(4))
    assert np.array_equal(a, b) and not np.array_equal(a, c)
    assert (a >= lower_bounds()).all()
    moved = {f for f in range(N_VF) if not np.array_equal(a[:, f], base[:, f])}
    assert moved and moved <= set(EXPLORE_SCALE)
    assert all(np.all(a[:, f] == a[0, f]) for f in EXPLORE_SCALE)  # one taste for every Era


def test_train_command_writes_the_same_value_file_for_the_same_seed(engine, tmp_path):
    from typer.testing import CliRunner

    from trinidad.cli import app

    s = _strategy(tmp_path, "tiny", budget=2, width=2)
    outs = []
    for name, threads in (("a", "1"), ("b", "2")):
        out = tmp_path / f"{name}.toml"
        res = CliRunner().invoke(app, ["train", "--strategy", s, "--generations", "1", "--games", "12", "--duel-games", "8",
                                       "--seed", "4", "--threads", threads, "--out", str(out)])
        assert res.exit_code == 0, res.output
        outs.append(out.read_text())
    strip = [t.replace('"--threads", "1"', "").replace("--threads 1", "").replace("--threads 2", "") for t in outs]
    body = ["\n".join(x for x in t.splitlines() if not x.startswith(("seconds", "command"))) for t in strip]
    assert body[0] == body[1]
    model, prov = load_value_file(tmp_path / "a.toml")
    assert prov["games_per_generation"] == 12 and prov["seed"] == 4 and "held_out_r2" in prov
    assert np.isfinite(model).all()
    W, _ = load_strategies([_strategy(tmp_path, "trained", value=str(tmp_path / "a.toml"))])
    assert np.array_equal(set_value_model(W[0], model), W[0])


def test_train_command_keeps_every_generations_candidate_beside_its_value_file(engine, tmp_path, monkeypatch):
    """trinidad train --keep-candidates: each generation's fitted candidate is written, promoted or not,
    with a provenance that says so; the value file itself is as without the flag."""
    from typer.testing import CliRunner

    import trinidad.train.linear as tt
    from trinidad.cli import app

    fitted, real_fit = [], tt.fit

    def spy(*a, **k):
        out = real_fit(*a, **k)
        fitted.append(out[0])
        return out

    monkeypatch.setattr(tt, "fit", spy)

    s = _strategy(tmp_path, "tiny", budget=2, width=2)
    args = ["train", "--strategy", s, "--generations", "2", "--games", "12", "--duel-games", "8", "--seed", "4",
            "--threads", "1"]
    res = CliRunner().invoke(app, [*args, "--keep-candidates", "--out", str(tmp_path / "k.toml")])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "plain.toml")])
    assert res.exit_code == 0, res.output
    kept, prov = load_value_file(tmp_path / "k.toml")
    assert np.array_equal(kept, load_value_file(tmp_path / "plain.toml")[0])
    assert not (tmp_path / "plain-candidate-g1.toml").exists()
    promoted = 0
    for gen in (1, 2):
        cand, cprov = load_value_file(tmp_path / f"k-candidate-g{gen}.toml")
        assert cprov["candidate_of_generation"] == gen and isinstance(cprov["candidate_promoted"], bool)
        assert np.allclose(cand, fitted[gen - 1])  # the keeping run's fit of that generation, as written
        promoted += cprov["candidate_promoted"]
    assert promoted == prov["promoted"]
    res = CliRunner().invoke(app, [*args, "--keep-candidates", "--network", "--out", str(tmp_path / "n.npz")])
    assert res.exit_code != 0 and "--keep-candidates" in res.output


def test_train_command_bootstraps_its_targets_with_lambda_and_records_it(engine, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    import trinidad.train.linear as tt
    from trinidad.cli import app

    s = _strategy(tmp_path, "tiny", budget=2, width=2)
    args = ["train", "--strategy", s, "--generations", "1", "--games", "12", "--duel-games", "8", "--seed", "4",
            "--threads", "1"]
    seen, real_fit = {}, tt.fit
    for lam in ("1", "0"):
        def spy(X, y, *a, lam=lam, **k):
            seen[lam] = np.array(y)
            return real_fit(X, y, *a, **k)

        monkeypatch.setattr(tt, "fit", spy)
        out = tmp_path / f"lam{lam}.toml"
        res = CliRunner().invoke(app, [*args, "--lambda", lam, "--out", str(out)])
        assert res.exit_code == 0, res.output
        assert load_value_file(out)[1]["lambda"] == float(lam)
    # the same games, other targets: lambda 1 gives each seat its final VP in every decade's block;
    # lambda 0 keeps that only in the last recorded decade and bootstraps the others from the incumbent
    one, zero = (seen[k].reshape(-1, 12 * 4) for k in ("1", "0"))
    assert (one == one[-1]).all()
    assert np.array_equal(zero[-1], one[-1]) and not np.array_equal(zero[:-1], one[:-1])
    res = CliRunner().invoke(app, [*args, "--lambda", "1.5", "--out", str(tmp_path / "bad.toml")])
    assert res.exit_code != 0 and "lambda" in res.output


def test_planted_seats_play_the_city_plan_and_show_its_holdings_to_the_fit(engine, tmp_path):
    """trinidad train --plant: a share of the self-play seats plays the City plan (strategies.forced_play), so
    the positions hold Houses the population alone never builds; plant 0 leaves the games as they were."""
    from trinidad.train.linear import positions, train
    from trinidad.train.selfplay import TrainError

    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "tiny", budget=2, width=2)])
    plain = positions(r, W[0], 8, 5, 4, 1)
    again = positions(r, W[0], 8, 5, 4, 1, plant=0.0)
    assert all(np.array_equal(a, b) for a, b in zip(plain, again))
    X, y, _, _, _, planted = positions(r, W[0], 8, 5, 4, 1, plant=0.5)
    assert 0 < planted.mean() < 1 and not plain[5].any()
    assert X[:, VF.HOUSES].sum() > plain[0][:, VF.HOUSES].sum()
    assert X[:, VF.LOTS].sum() > plain[0][:, VF.LOTS].sum()
    with pytest.raises(TrainError, match="^plant: must be in"):
        train(r, W[0], 1, 12, 1, plant=1.0)


def test_planted_seats_play_what_plant_as_names(engine, tmp_path):
    """trinidad train --plant-as: the City plan unless told; one House at the first chance (then the seat's own
    play) and a value bonus on Houses both put Houses in the positions the population alone never builds; text
    that is neither a probe option nor a bonus is refused before any game is played."""
    from trinidad.train.linear import PLANT_DEFAULT, plant_row, positions, train
    from trinidad.train.selfplay import TrainError

    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "tiny", budget=2, width=2)])
    plain = positions(r, W[0], 8, 5, 4, 1)
    default = positions(r, W[0], 8, 5, 4, 1, plant=0.5)
    named = positions(r, W[0], 8, 5, 4, 1, plant=0.5, plant_as=PLANT_DEFAULT)
    assert all(np.array_equal(a, b) for a, b in zip(default, named))
    X, _, _, _, _, planted = positions(r, W[0], 8, 5, 4, 1, plant=0.5, plant_as="value:houses=30,district_own=10")
    assert np.array_equal(planted, default[5])  # the same seats planted, whatever they play
    assert X[:, VF.HOUSES].sum() > plain[0][:, VF.HOUSES].sum()
    assert not np.array_equal(plant_row(W[0], "build_house"), W[0])  # the probe rides in the row
    # the bonus moves the evaluation and nothing else of the row; the option leaves the evaluation alone
    bonus = plant_row(W[0], "value:houses=30")
    assert (bonus != W[0]).sum() > 0 and np.array_equal(plant_row(W[0], "value:houses=0"), W[0])
    for bad in ("build_castle", "value:castles=3"):
        with pytest.raises(TrainError, match="^plant-as: "):
            train(r, W[0], 1, 12, 1, plant=0.25, plant_as=bad)
    from typer.testing import CliRunner

    from trinidad.cli import app

    res = CliRunner().invoke(app, ["train", "--plant-as", "build_house", "--games", "12", "--out", str(tmp_path / "x.toml")])
    assert res.exit_code != 0 and "only with --plant" in res.output


def test_fit_keeps_fixed_weights_and_fits_the_rest_on_what_they_leave():
    # Houses go with a final VP they do not earn (a confound): a free fit credits them with it; with
    # the City VP in hand fixed at 1 and Houses at 0, the rest is fitted on the target minus the City
    rng = np.random.default_rng(2)
    X, stage, game, winners = _synthetic_positions(rng, 300)
    n = len(X)
    X[:, VF.HOUSES] = rng.integers(0, 3, n)
    X[:, VF.CITY_AHEAD] = 6 * X[:, VF.HOUSES] + rng.integers(0, 4, n)
    y = X[:, VF.VP] + X[:, VF.CITY_AHEAD] + 10.0 * X[:, VF.HOUSES] + rng.normal(0, 0.5, n)
    prior = np.zeros((N_STAGES, N_VF))
    free, _, _ = fit(X, y, stage, game, winners, alpha=1e-6, prior=prior)
    assert free[0, VF.HOUSES] > 5
    fixed, _, _ = fit(X, y, stage, game, winners, alpha=1e-6, prior=prior, fixed={VF.CITY_AHEAD: 1.0, VF.HOUSES: 0.0})
    assert (fixed[:, VF.CITY_AHEAD] == 1.0).all() and (fixed[:, VF.HOUSES] == 0.0).all()
    assert fixed[0, VF.VP] == pytest.approx(1.0, abs=0.05)
    resid = y - X[:, VF.CITY_AHEAD]
    direct, _, _ = fit(X, resid, stage, game, winners, alpha=1e-6, prior=prior, fixed={VF.CITY_AHEAD: 0.0, VF.HOUSES: 0.0})
    assert np.allclose(direct[0, [VF.BIAS, VF.VP]], fixed[0, [VF.BIAS, VF.VP]])


def test_train_command_rejects_a_bad_fixed_weight(tmp_path):
    from typer.testing import CliRunner

    from trinidad.cli import app

    s = _strategy(tmp_path, "tiny", budget=2, width=2)
    for bad, says in (("nope=1", "--fix: expected FEATURE=WEIGHT"), ("houses", "--fix: expected FEATURE=WEIGHT"),
                      ("houses=-1", "--fix: houses = -1.0 is below its least weight")):
        res = CliRunner().invoke(app, ["train", "--strategy", s, "--generations", "1", "--games", "12", "--fix", bad,
                                       "--out", str(tmp_path / "x.toml")])
        assert res.exit_code == 2 and says in res.output, res.output
        assert not (tmp_path / "x.toml").exists()


def test_fix_names_features_by_pattern_and_holds_the_init_to_them(engine, tmp_path):
    """trinidad train --fix 'ch_*=0': every Character feature and nothing else is fixed, and an --init that
    weighs the Characters is held to 0 from generation 0 on, promoted or not (a Character-blind chain)."""
    from trinidad.train.linear import fixed_weights, train
    from trinidad.train.selfplay import TrainError

    ch = [int(f) for f in VF if f.name.startswith("CH_")]
    assert len(ch) == 12 and sorted(fixed_weights(["ch_*=0"])) == ch
    assert fixed_weights(["ch_*=0", "ch_captain=2.5"]) == {**dict.fromkeys(ch, 0.0), int(VF.CH_CAPTAIN): 2.5}
    assert fixed_weights(["houses=3"]) == {int(VF.HOUSES): 3.0}
    for bad in ("zz_*=0", "ch_*", "ch_*=x"):
        with pytest.raises(TrainError, match="^fix: expected FEATURE=WEIGHT"):
            fixed_weights([bad])
    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "tiny", budget=2, width=2)])
    init = prior_model(W[0][:N_WEIGHTS])
    init[:, ch] = np.linspace(-9.0, 9.0, 12)
    res = train(r, W[0], 1, 12, 4, duel_games=8, init=init, threads=1, fixed=fixed_weights(["ch_*=0"]))
    assert (res.model[:, ch] == 0).all()
    others = [f for f in range(N_VF) if f not in ch]
    assert not res.generations[0].promoted  # 8 duel games decide nothing: the model written is the init's
    assert np.array_equal(res.model[:, others], init[:, others])


def test_fit_takes_a_plans_own_effect_out_of_the_holdings_that_go_with_it():
    # planted seats hold Houses and lose 20 VP to their plan; a House is worth 2 VP: without the
    # plan's column the fit gives Houses what the plan costs (a negative, held at 0); with it, 2
    rng = np.random.default_rng(3)
    X, stage, game, winners = _synthetic_positions(rng, 300)
    n = len(X)
    planted = rng.random(n) < 0.25
    X[:, VF.HOUSES] = np.where(planted, rng.integers(1, 4, n), rng.integers(0, 2, n))
    y = X[:, VF.VP] + 2.0 * X[:, VF.HOUSES] - 20.0 * planted + rng.normal(0, 0.5, n)
    prior = np.zeros((N_STAGES, N_VF))
    naive, _, _ = fit(X, y, stage, game, winners, alpha=1e-6, prior=prior)
    assert naive[0, VF.HOUSES] < 1.0
    model, r2, _ = fit(X, y, stage, game, winners, alpha=1e-6, prior=prior, nuisance=planted)
    assert model[0, VF.HOUSES] == pytest.approx(2.0, abs=0.1) and model.shape == (N_STAGES, N_VF)
    assert r2[0] > 0.99


def _candidates_strategy(tmp_path, net, name="cands", budget=6, width=4):
    """A search strategy whose network orders the candidates ([search] network_at = "candidates")."""
    from trinidad.train.network import write_network_file

    f = write_network_file(tmp_path / f"{name}.npz", net, 10000.0, {"command": "test"})
    p = tmp_path / f"{name}.toml"
    p.write_text(f'family = "search"\nbase = "heuristic"\n[search]\nbudget = {budget}\nwidth = {width}\nhorizon = 0\n'
                 f'network = "{f}"\nnetwork_at = "candidates"\n')
    return str(p)


def _flat_net(value=0.0, w2_unit=None):
    """A network of constant output ``value`` (every candidate tied), or with ``w2_unit`` = (input, weight) one
    hidden unit passing that standardised input on: its output rises with the input."""
    from strategies.value_model import NET_HIDDEN, NET_IN

    net = {"mu": np.zeros(NET_IN), "sd": np.ones(NET_IN), "w1": np.zeros((NET_IN, NET_HIDDEN)), "b1": np.zeros(NET_HIDDEN),
           "w2": np.zeros(NET_HIDDEN), "b2": np.float64(value)}
    if w2_unit is not None:
        i, w = w2_unit
        net["w1"][i, 0] = 1.0
        net["b1"][0] = 1e6  # the unit never cuts off: its output is the input itself
        net["w2"][0] = w
    return net


def test_search_labels_keep_each_decision_s_candidates_and_change_no_game(engine, tmp_path):
    """strategies.search.record_search_labels: every TURN decision a search seat simulates keeps its candidates
    (2..width of them, in the order simulated), each with its network inputs after its row, its 1-ply value
    (the inputs' last column), its first simulation's and its mean margin and its count, the simulations within
    the budget, one row taken; and keeping them changes no game."""
    from sim.compiled_parts import for_players
    from strategies.rollout import SL
    from strategies.value_model import NET_IN

    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "s", budget=6, width=4), "heuristic"])
    seeds = player_seeds(21, 4, 0, 2)
    strat = np.array([[0, 1, 1, 0]] * 2)
    plain = play_batch(r, W, 4, seeds, strat, threads=1)
    labels = new_labels(allocate(for_players(r, strat)), 0, 20_000)
    kept = play_batch(r, W, 4, seeds, strat, labels=labels)
    assert np.array_equal(plain[0], kept[0]) and np.array_equal(plain[1], kept[1])
    sx, sy, fill = labels[2], labels[3], labels[4]
    rows, decisions = int(fill[0]), int(fill[1])
    assert decisions > 50 and rows < sx.shape[0]
    assert sx.shape[1] == NET_IN and np.all(sx[rows:] == 0) and np.all(sy[rows:] == 0)
    y = sy[:rows]
    dec = y[:, SL.DECISION].astype(int)
    assert np.array_equal(np.unique(dec), np.arange(decisions)) and np.all(np.diff(dec) >= 0)
    assert set(y[:, SL.SEAT].astype(int)) == {0, 3}  # the search seats only
    per = np.bincount(dec)
    assert per.min() >= 2 and per.max() <= 4
    assert np.allclose(y[:, SL.LINEAR], sx[:rows, NET_IN - 1], rtol=1e-6, atol=1e-3)  # float32 inputs
    sims = np.bincount(dec, y[:, SL.COUNT])  # sequential halving spends the budget of 6, or a round's remainder less
    assert np.all(y[:, SL.COUNT] >= 1) and np.all(sims <= 6) and np.all(sims >= per + 1)
    assert np.array_equal(np.bincount(dec, y[:, SL.CHOSEN]), np.ones(decisions))
    one = y[:, SL.COUNT] == 1  # a single simulation: its mean is its first
    assert np.allclose(y[one, SL.MEAN], y[one, SL.FIRST])
    assert np.array_equal(y[:, SL.RANK], np.concatenate([np.arange(p) for p in per]))
    assert np.all((y[:, SL.DECADE] >= 1) & (y[:, SL.DECADE] <= 12))
    # full, it keeps no more: a room for one game's worth keeps a prefix of the same labels
    small = new_labels(allocate(for_players(r, strat)), 0, 400)
    play_batch(r, W, 4, seeds, strat, labels=small)
    m = int(small[4][0])
    assert 400 - 4 < m <= 400 and np.array_equal(small[3][:m], sy[:m]) and np.array_equal(small[2][:m], sx[:m])


def test_a_network_on_the_candidates_orders_them_and_ties_keep_the_1_ply_order(engine, tmp_path):
    """[search] network_at = "candidates" (strategies.value_model.MODEL_PRIOR): the 1-ply ranking still picks the
    candidates and the leaves stay linear; the network only reorders the candidates. A constant network ties them
    all, so the games are the linear strategy's; one that reverses the 1-ply values puts the 1-ply's worst
    candidate first, and the seat's decisions change."""
    from strategies.search import _prior_order
    from strategies.value_model import MODEL_PRIOR, NET_IN, SEARCH_OFFSET, VF

    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "lin", budget=6, width=4), _candidates_strategy(tmp_path, _flat_net(0.3)),
                            _candidates_strategy(tmp_path, _flat_net(w2_unit=(NET_IN - 1, -1.0)), name="worst"),
                            "heuristic"])
    assert W[1, SEARCH_OFFSET + SB.MODEL] == MODEL_PRIOR and W[2, SEARCH_OFFSET + SB.MODEL] == MODEL_PRIOR
    seeds = player_seeds(23, 4, 0, 2)
    lin = play_batch(r, W, 4, seeds, np.array([[0, 3, 3, 0]] * 2), threads=1)
    flat = play_batch(r, W, 4, seeds, np.array([[1, 3, 3, 1]] * 2), threads=1)
    worst = play_batch(r, W, 4, seeds, np.array([[2, 3, 3, 2]] * 2), threads=1)
    def played(res):  # the records but the seats' strategy ids
        return np.delete(res[1], RG.STRATEGY, axis=2), np.delete(res[0], RD.STRATEGY, axis=3)

    assert all(np.array_equal(a, b) for a, b in zip(played(lin), played(flat)))
    assert not np.array_equal(played(lin)[0], played(worst)[0])
    # the order itself: the lowest 1-ply value first, ties in their given order
    xs = np.zeros((4, NET_IN))
    xs[:, NET_IN - 1] = [10.0, 12.0, 11.0, 10.0]
    xs[:, int(VF.COINS)] = [1.0, 2.0, 3.0, 4.0]  # a tag on each candidate's inputs
    cand = np.array([7, 5, 9, 2, 99], np.int64)  # one more slot than the candidates: left alone
    _prior_order(W, 2, xs, cand, 4)
    assert cand.tolist() == [7, 2, 9, 5, 99]
    assert xs[:, int(VF.COINS)].tolist() == [1.0, 4.0, 3.0, 2.0]  # the inputs moved with their rows


def test_network_at_is_checked(tmp_path):
    """[search] network_at: "leaves" (MODEL_NETWORK, the default) or "candidates" (MODEL_PRIOR), only with a network."""
    from strategies.value_model import MODEL_NETWORK, SEARCH_OFFSET

    p = _candidates_strategy(tmp_path, _flat_net())
    text = Path(p).read_text()
    Path(p).write_text(text.replace('network_at = "candidates"', 'network_at = "leaves"'))
    assert load_strategies([p])[0][0, SEARCH_OFFSET + SB.MODEL] == MODEL_NETWORK
    Path(p).write_text(text.replace('network_at = "candidates"', 'network_at = "roots"'))
    with pytest.raises(StrategyError, match="network_at"):
        load_strategies([p])
    nonet = tmp_path / "nonet.toml"
    nonet.write_text('family = "search"\nbase = "heuristic"\n[search]\nnetwork_at = "candidates"\n')
    with pytest.raises(StrategyError, match="network_at: only with a search.network"):
        load_strategies([str(nonet)])


def test_no_peeking_with_a_network_on_the_candidates(engine, tmp_path):
    """As the no-peeking test above, for a seat whose network orders its candidates (MODEL_PRIOR): their inputs are
    the seat's view, so another arrangement of the hidden cards consistent with it gives the same decision."""
    from helpers import redealt

    from strategies.value_model import VF

    r, _ = engine
    W, _ = load_strategies([_candidates_strategy(tmp_path, _flat_net(w2_unit=(int(VF.CARDS), 1.0)), budget=8)])
    sc = allocate(r)
    checked = 0
    for pos_seed in (3, 4, 5):
        st, seat = mid_game(r, W, seed=pos_seed)
        k = turn_options(st, r, seat)
        alt = redealt(r, st, seat, 999 + pos_seed)
        if np.array_equal(alt.card_loc, st.card_loc):
            continue
        checked += 1
        assert search_choice(st, sc, r, W, seat, 0, k, False, new_labels(sc, 0)) == \
            search_choice(alt, sc, r, W, seat, 0, k, False, new_labels(sc, 0))
    assert checked >= 2


def test_rollout_forbid_takes_a_list_of_acts_as_one_bit_mask(engine, tmp_path):
    """[search] rollout_forbid = ["major", "ship"]: SB.ROLLOUT_FORBID holds both Acts as a bit mask (bit Act), a single
    name the one bit of that Act; the simulations' copies carry it (P.SIM_FORBID) and take neither; an empty list, a
    name twice or one outside the main actions is refused."""
    from sim.codes import Act

    r, _ = engine
    p = tmp_path / "two.toml"
    p.write_text('family = "search"\nbase = "heuristic"\n[search]\nbudget = 4\nwidth = 3\nhorizon = 0\nvalue = "prior"\n'
                 'rollout_forbid = ["major", "ship"]\nrollout_forbid_seats = "all"\n')
    W, _ = load_strategies([str(p), _strategy(tmp_path, "one", budget=4, width=3, rollout_forbid="major")])
    assert W[0, SEARCH_OFFSET + SB.ROLLOUT_FORBID] == (1 << Act.MAJOR) | (1 << Act.SHIP)
    assert W[1, SEARCH_OFFSET + SB.ROLLOUT_FORBID] == 1 << Act.MAJOR
    st, seat = mid_game(r, W)
    st.pl[:, PF.STRATEGY] = 0
    k = turn_options(st, r, seat)
    sc = allocate(r)
    search_choice(st, sc, r, W, seat, 0, k, False, new_labels(sc, 0))
    assert all(int(x) == (1 << Act.MAJOR) | (1 << Act.SHIP) for x in sc.w[:4, P.SIM_FORBID])
    assert _forbidden(sc, r, seat, int(Act.SHIP), 0) and _forbidden(sc, r, seat, int(Act.MAJOR), 2)
    assert not _forbidden(sc, r, seat, int(Act.COUNCIL), 1) and not st.w[:4, P.SIM_FORBID].any()
    for bad in ('[]', '["major", "major"]', '["major", "pass"]'):
        p.write_text('family = "search"\nbase = "heuristic"\n[search]\nvalue = "prior"\n' f'rollout_forbid = {bad}\n')
        with pytest.raises(StrategyError, match="search.rollout_forbid: an Act or a list of distinct Acts"):
            load_strategies([str(p)])
