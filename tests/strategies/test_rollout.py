"""The rollout rung (README, "Strategies", Rollout): flat Monte Carlo over the engine's TURN
decisions (strategies.rollout.plan_choice). Its strength is measured by `trinidad tournament` (a benchmark);
these tests pin what must hold whatever the strength: planning leaves the real game untouched,
hidden information is redrawn but nothing else, rollouts stop at their horizon, a one-candidate
rollout player is exactly the heuristic, and results do not depend on threads."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from helpers import mid_game

from sim.actions import turn_options
from sim.codes import Ch
from sim.game import allocate, copy_state, determinize
from sim.rules import RK
from sim.state import N_CARDS, N_CHARACTERS, PF, G, Loc
from strategies.match import run_game
from strategies.policy import FAMILY_ROLLOUT, P
from strategies.registry import StrategyError, load_strategies
from strategies.rollout import game_outcome, label_regret, labels_kept, leaf_margin, new_labels, plan_choice, rollout, vp_margin
from strategies.value_model import SEARCH_OFFSET
from strategies.weights import N_WEIGHTS
from trinidad.batch import play_batch

GAME_FIELDS = ["g", "pl", "vps", "order", "cell_b", "cell_owner", "cell_cube", "act_used", "grids", "stacks", "warehouse",
               "supply", "major", "major_state", "walls", "roads", "minis", "card_loc", "card_rot", "card_seq", "card_turn",
               "peace", "spain", "dock", "built", "card_uses", "card_active", "card_uses_seat", "card_uses_by", "rng", "w"]


def _strategy(tmp_path, name, candidates, rollouts, horizon="era"):
    p = tmp_path / f"{name}.toml"
    p.write_text(f'family = "rollout"\nbase = "heuristic"\n[rollout]\ncandidates = {candidates}\nrollouts = {rollouts}\n'
                 f'horizon = "{horizon}"\n')
    return str(p)


def test_rollout_file_loads_with_its_parameters_in_every_block(tmp_path):
    W, _ = load_strategies(["rollout", _strategy(tmp_path, "r2", 3, 5, "game")])
    for row, (c, m, h) in zip(W, [(4, 4, 0), (3, 5, 1)]):
        blocks = row[:SEARCH_OFFSET].reshape(-1, N_WEIGHTS)
        assert (blocks[:, 0] == FAMILY_ROLLOUT).all()
        assert (blocks[:, P.CANDIDATES] == c).all() and (blocks[:, P.ROLLOUTS] == m).all() and (blocks[:, P.HORIZON] == h).all()
    H, _ = load_strategies(["heuristic"])
    blocks_w, blocks_h = (x[:SEARCH_OFFSET].reshape(-1, N_WEIGHTS)[:, 1:P.CANDIDATES] for x in (W[0], H[0]))
    assert np.array_equal(blocks_w, blocks_h)


def test_one_candidate_rollout_player_is_exactly_the_heuristic(engine, tmp_path):
    """With one candidate there is nothing to simulate: the planned turn loop must then replay the
    heuristic's game decision for decision (the same random draws, the same records)."""
    r, _ = engine
    W, _ = load_strategies(["heuristic", _strategy(tmp_path, "one", 1, 4)])
    for seed in (1, 2):
        a = run_game(r, W, 4, seed, [0, 0, 0, 0])
        b = run_game(r, W, 4, seed, [1, 0, 1, 0])
        keep = [c for c in range(a.pl.shape[1]) if c != PF.STRATEGY]  # the only difference: the strategy ids
        assert np.array_equal(a.pl[:, keep], b.pl[:, keep]) and np.array_equal(a.vps, b.vps)
        assert np.array_equal(a.g, b.g) and np.array_equal(a.card_loc, b.card_loc) and np.array_equal(a.cell_b, b.cell_b)


def test_planning_leaves_the_real_game_untouched(engine, tmp_path):
    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "r", 3, 2)])
    st, seat = mid_game(r, W)
    k = turn_options(st, r, seat)
    assert k > 3
    before = {f: getattr(st, f).copy() for f in GAME_FIELDS + ["opts"]}
    sc = allocate(r)
    i = plan_choice(st, sc, r, seat, 0, k, new_labels(sc, 0), W)
    assert 0 <= i < k
    for f in GAME_FIELDS + ["opts"]:
        now = getattr(st, f)
        if f == "g":
            assert now[G.OPT_N] == before["g"][G.OPT_N] + 1
            now = np.delete(now, G.OPT_N)
            was = np.delete(before["g"], G.OPT_N)
        else:
            was = before[f]
        assert np.array_equal(now, was), f
    st.g[G.OPT_N] -= 1
    assert plan_choice(st, sc, r, seat, 0, k, new_labels(sc, 0), W) == i  # the same futures again


def test_determinize_redraws_only_what_the_seat_cannot_see(engine, tmp_path):
    r, _ = engine
    W, _ = load_strategies(["heuristic"])
    st, seat = mid_game(r, W, decades=6, seed=5)
    n = st.g[G.NPLAYERS]
    sc = allocate(r)
    copy_state(sc, st)
    sc.rng[0] = 99
    determinize(sc, r, seat)
    aff = np.arange(N_CHARACTERS, N_CARDS)

    def hidden(x):
        loc = x.card_loc
        return [c for c in aff if (loc[c] == Loc.DECK) or (Loc.HAND <= loc[c] < Loc.HAND + n and loc[c] != Loc.HAND + seat and x.card_rot[c] == 0)]

    assert sorted(hidden(st)) == sorted(hidden(sc))  # the same unknown cards, redistributed
    for s in range(n):
        assert (st.card_loc[aff] == Loc.HAND + s).sum() == (sc.card_loc[aff] == Loc.HAND + s).sum()
    seen = [c for c in aff if c not in hidden(st)]
    assert np.array_equal(st.card_loc[seen], sc.card_loc[seen]) and np.array_equal(st.card_rot, sc.card_rot)
    moved = sum(st.card_loc[c] != sc.card_loc[c] for c in hidden(st))
    deck = [c for c in aff if st.card_loc[c] == Loc.DECK]
    order_before = sorted(deck, key=lambda c: st.card_seq[c])
    order_after = sorted([c for c in aff if sc.card_loc[c] == Loc.DECK], key=lambda c: sc.card_seq[c])
    assert moved > 0 or order_before != order_after


@pytest.mark.parametrize("horizon", [0, 1])
def test_a_rollout_stops_at_its_horizon(engine, tmp_path, horizon):
    r, _ = engine
    W, _ = load_strategies(["heuristic"])
    st, seat = mid_game(r, W, decades=5)  # decade 6: Era 2 ends with decade 8
    k = turn_options(st, r, seat)
    sc = allocate(r)
    copy_state(sc, st)
    rollout(sc, r, seat, 0, st.opts[k - 1, 0], st.opts[k - 1, 1], st.opts[k - 1, 2], st.opts[k - 1, 3], horizon, W)
    end = 2 * r.k[RK.DECADES_PER_ERA] if horizon == 0 else st.g[G.LAST_DECADE]
    assert sc.g[G.DECADE] == end and sc.g[G.TURN_SEAT] == -1
    assert sc.vps[:4].sum() > st.vps[:4].sum()  # the Era's scoring happened in the copy
    assert sc.g[G.LOG_ON] == 0 and sc.g[G.EMPTY_OPTS] == 0


def test_character_ahead_loads_into_every_block_and_is_checked(tmp_path):
    p = tmp_path / "ca.toml"
    p.write_text('family = "rollout"\nbase = "heuristic"\n[rollout]\ncharacter_ahead = 0.5\n')
    W, _ = load_strategies([str(p), "rollout"])
    assert (W[0, :SEARCH_OFFSET].reshape(-1, N_WEIGHTS)[:, P.CHARACTER_AHEAD] == 0.5).all()
    assert (W[1, :SEARCH_OFFSET].reshape(-1, N_WEIGHTS)[:, P.CHARACTER_AHEAD] == 0).all()  # the default: the VP margin alone
    for bad in ("-1", "9", "true", '"x"'):
        p.write_text(f'family = "rollout"\nbase = "heuristic"\n[rollout]\ncharacter_ahead = {bad}\n')
        with pytest.raises(StrategyError, match="character_ahead"):
            load_strategies([str(p)])


def test_a_leaf_counts_the_character_vp_still_to_come(engine):
    """CHARACTER CARDS, Stonemason: 8 VPs x Era with more stone than all other players together. At the end
    of Era 2 one Scoring is left (Era 3), so a Stonemason holding that stone at the leaf counts 8 x 3 = 24 VP
    more at weight 1, 12 at weight 0.5; a Captain's War won is the Era's own (the Scoring reset it), so its
    rivals add nothing; at the game's end nothing is left to come."""
    r, _ = engine
    W, _ = load_strategies(["heuristic"])
    st, seat = mid_game(r, W, decades=5)
    k = turn_options(st, r, seat)
    sc = allocate(r)
    copy_state(sc, st)
    d = rollout(sc, r, seat, 0, st.opts[k - 1, 0], st.opts[k - 1, 1], st.opts[k - 1, 2], st.opts[k - 1, 3], 0, W)
    assert d == 2 * r.k[RK.DECADES_PER_ERA]
    for s in range(4):
        sc.pl[s, PF.CHARACTER] = Ch.STONEMASON if s == seat else Ch.CAPTAIN
        sc.pl[s, PF.STONE] = 5 if s == seat else 1
    m = vp_margin(sc, seat)
    assert leaf_margin(sc, r, seat, d, 0.0, 0.0) == m
    assert leaf_margin(sc, r, seat, d, 1.0, 0.0) == pytest.approx(m + 24)
    assert leaf_margin(sc, r, seat, d, 0.5, 0.0) == pytest.approx(m + 12)
    rival = (seat + 1) % 4
    others = max(sc.pl[s, PF.VP] + (24 if s == seat else 0) for s in range(4) if s != rival)
    assert leaf_margin(sc, r, rival, d, 1.0, 0.0) == pytest.approx(sc.pl[rival, PF.VP] - others)  # a rival's Stonemason counts against it
    assert leaf_margin(sc, r, seat, sc.g[G.LAST_DECADE], 1.0, 0.0) == pytest.approx(m)


def test_win_bonus_loads_into_every_block_and_is_checked(tmp_path):
    p = tmp_path / "wb.toml"
    p.write_text('family = "rollout"\nbase = "heuristic"\n[rollout]\nwin_bonus = 200\n')
    W, _ = load_strategies([str(p), "rollout"])
    assert (W[0, :SEARCH_OFFSET].reshape(-1, N_WEIGHTS)[:, P.WIN_BONUS] == 200).all()
    assert (W[1, :SEARCH_OFFSET].reshape(-1, N_WEIGHTS)[:, P.WIN_BONUS] == 0).all()  # the default: the VP margin alone
    for bad in ("-1", "1001", "true", '"x"'):
        p.write_text(f'family = "rollout"\nbase = "heuristic"\n[rollout]\nwin_bonus = {bad}\n')
        with pytest.raises(StrategyError, match="win_bonus"):
            load_strategies([str(p)])


def test_a_leaf_at_the_games_end_counts_the_win(engine):
    """END OF THE GAME: the most VP wins, ties broken by the most resources; a shared first place is
    neither won nor lost. The bonus counts only at the game's end: before it the game is not decided."""
    r, _ = engine
    W, _ = load_strategies(["heuristic"])
    st, seat = mid_game(r, W, decades=5)
    last = st.g[G.LAST_DECADE]
    rival = (seat + 1) % 4
    for s in range(4):
        st.pl[s, PF.VP] = 50
    st.pl[seat, PF.VP] = 100
    st.pl[rival, PF.VP] = 90
    m = vp_margin(st, seat)
    assert m == 10 and game_outcome(st, seat) == 1 and game_outcome(st, rival) == -1
    assert leaf_margin(st, r, seat, last, 0.0, 200.0) == pytest.approx(10 + 200)
    assert leaf_margin(st, r, rival, last, 0.0, 200.0) == pytest.approx(-10 - 200)
    assert leaf_margin(st, r, seat, last - 1, 0.0, 200.0) == pytest.approx(10)  # the game goes on: no bonus
    assert leaf_margin(st, r, seat, last, 0.0, 0.0) == pytest.approx(10)
    st.pl[rival, PF.VP] = 100  # tied on VP: the resources decide (sim.scoring.ranks)
    for res in (PF.WOOD, PF.STONE, PF.METAL, PF.PRECIOUS):
        st.pl[seat, res] = 0
        st.pl[rival, res] = 0
    assert game_outcome(st, seat) == 0 and leaf_margin(st, r, seat, last, 0.0, 200.0) == pytest.approx(0)
    st.pl[rival, PF.WOOD] = 1
    assert game_outcome(st, seat) == -1 and game_outcome(st, rival) == 1
    assert leaf_margin(st, r, rival, last, 0.0, 200.0) == pytest.approx(200)


@pytest.mark.parametrize("horizon, era_end", [(2, 2), (3, 2), (4, 3)])
def test_a_rollout_with_min_decades_stops_at_the_first_era_that_far_on(engine, horizon, era_end):
    r, _ = engine
    W, _ = load_strategies(["heuristic"])
    st, seat = mid_game(r, W, decades=5)  # decade 6: Era 2 ends with decade 8, Era 3 with 12
    assert st.g[G.DECADE] == 6
    assert turn_options(st, r, seat) > 0
    sc = allocate(r)
    copy_state(sc, st)
    rollout(sc, r, seat, 0, st.opts[0, 0], st.opts[0, 1], st.opts[0, 2], st.opts[0, 3], horizon, W)
    assert sc.g[G.DECADE] == era_end * r.k[RK.DECADES_PER_ERA] and sc.g[G.TURN_SEAT] == -1


def test_rollout_games_do_not_depend_on_threads(engine, tmp_path):
    r, _ = engine
    W, _ = load_strategies(["heuristic", _strategy(tmp_path, "r", 2, 1)])
    seeds = np.arange(4, dtype=np.uint64) + 7
    strat = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]], np.int32)
    a = play_batch(r, W, 3, seeds, strat, threads=1)
    b = play_batch(r, W, 3, seeds, strat, threads=2)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    c = run_game(r, W, 3, int(seeds[0]), list(strat[0]))
    assert np.array_equal(c.rec_game[:3], a[1][0, :3])


def _solo_position(r, W, seed, decades):
    """A Solo game (seat 0 plays strategy 0, seat 1 is the A.I.) at the first TURN decision of
    decade ``decades + 1``, or None when the A.I. moves first there."""
    from sim.game import play_own_decade, set_decade, setup, start_of_decade
    from sim.state import AI_STRATEGY, MAX_PLAYERS

    st = allocate(r)
    st.rng[0] = seed
    strat = np.zeros(MAX_PLAYERS, np.int32)
    strat[1] = AI_STRATEGY
    setup(st, r, W, 2, strat, np.full(MAX_PLAYERS, -1, np.int32), np.zeros(MAX_PLAYERS, np.int32), 0)
    for d in range(1, decades + 1):
        set_decade(st, r, d)
        play_own_decade(st, r)
    set_decade(st, r, decades + 1)
    start_of_decade(st, r)
    for s in range(2):
        st.pl[s, PF.PASSED] = 0
    if int(st.order[0]) != 0:
        return None
    st.g[G.TURN_SEAT] = 0
    return st


def _redrawn_solo_positions(r, W):
    """Solo positions of the player (seat 0) with at least 3 TURN rows, each with a copy in which what
    it cannot see is dealt again (the hidden cards and the A.I.'s face-down Solo cards): (the
    position, the copy, its rows)."""
    for seed, decades in itertools.product(range(3, 9), range(1, 11)):
        st = _solo_position(r, W, seed, decades)
        if st is None:
            continue
        k = turn_options(st, r, 0)
        if k < 3:
            continue
        alt = allocate(r)
        copy_state(alt, st)
        alt.rng[0] = 4242 + seed
        determinize(alt, r, 0)  # the hidden cards and the A.I.'s face-down Solo cards dealt again
        alt.rng[:] = st.rng  # the game's own stream is not hidden information
        alt.opts[:] = st.opts
        lo = int(st.g[G.AI_TOP])
        assert sorted(alt.ai_deck[lo:]) == sorted(st.ai_deck[lo:])
        yield st, alt, k


def test_no_peeking_in_a_solo_game(engine, tmp_path):
    """Against the Solo A.I. (TWO PLAYERS GAME & SOLO MODE) the rollouts redraw the deck order, the
    A.I.'s face-down hand and the order of its face-down Solo cards: another arrangement of them,
    consistent with what the player sees, gives the same decision."""
    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "solo", 3, 2, "game")])
    sc = allocate(r)
    checked = 0
    for st, alt, k in _redrawn_solo_positions(r, W):
        if np.array_equal(alt.ai_deck, st.ai_deck):
            continue
        checked += 1
        a = plan_choice(st, sc, r, 0, 0, k, new_labels(sc, 0), W)
        b = plan_choice(alt, sc, r, 0, 0, k, new_labels(sc, 0), W)
        assert a == b
        if checked == 2:
            break
    assert checked == 2


def test_planned_decisions_are_kept_as_counterfactual_labels(engine, tmp_path):
    """A rollout seat keeps each planned TURN decision (strategies.rollout.record_labels): the
    position, its rows, the candidates (the heuristic's best first) and each one's mean margin.
    Keeping them changes no game. Valued again from the kept position with the seat's own weights
    (label_regret), the heuristic takes the first candidate again at every decision: its regret is
    exactly the planner's gain over the heuristic's first choice, so a position restored wrongly
    (another k, another order) fails here. Other weights give another regret, never below 0."""
    r, _ = engine
    W, _ = load_strategies([_strategy(tmp_path, "r", 3, 2), "heuristic"])
    seeds = np.arange(1, 3, dtype=np.uint64)
    strat = np.array([[0, 1, 1, 1], [1, 0, 1, 1]], np.int32)
    plain = play_batch(r, W, 4, seeds, strat, threads=1)
    labels = new_labels(allocate(r), 400)
    kept = play_batch(r, W, 4, seeds, strat, threads=1, labels=labels)
    assert all(np.array_equal(a, b) for a, b in zip(plain, kept))
    lab = labels[1]
    n = labels_kept(labels)
    assert 20 < n < 400  # every planned decision of the two games, room to spare
    assert set(lab.seat[:n].tolist()) == {0, 1}  # the rollout seat of each game
    assert (lab.n[:n] == np.minimum(3, lab.k[:n])).all() and (lab.k[:n] > 1).all()
    for j in range(n):
        nc, k = lab.n[j], lab.k[j]
        assert len(set(lab.rows[j, :nc].tolist())) == nc and (lab.rows[j, :nc] < k).all()
    gain = np.mean([lab.means[j, :lab.n[j]].max() - lab.means[j, 0] for j in range(n)])
    assert gain > 0  # the planner took another row than the heuristic's first somewhere
    sc = allocate(r)
    out = np.zeros(2)
    other = W[[0]].copy()
    other[0, :SEARCH_OFFSET].reshape(-1, N_WEIGHTS)[:, 1:P.CANDIDATES] *= -1  # every weight of every block reversed
    assert label_regret(r, labels, np.vstack([W[[0]], other]), sc, out) == -1
    assert out[0] == pytest.approx(gain, abs=1e-9)
    assert out[1] >= 0 and out[1] != out[0]


def test_no_peeking_with_an_apprentice_in_a_solo_game(engine, tmp_path):
    """The apprentice (strategies.apprentice) reads only what its seat can know: with the hidden cards
    and the A.I.'s face-down Solo cards dealt again it values every row the same, alone and as the
    policy the planner's simulations play."""
    from helpers import random_apprentice

    from strategies.apprentice import apprentice_values

    r, _ = engine
    net = random_apprentice(3)
    np.savez(tmp_path / "net.npz", **net)
    for name, rollouts in (("alone", 0), ("planner", 2)):
        (tmp_path / f"{name}.toml").write_text(f'family = "rollout"\nbase = "heuristic"\n[rollout]\ncandidates = 4\n'
                                               f'rollouts = {rollouts}\napprentice = "{tmp_path / "net.npz"}"\n')
    W, _ = load_strategies([str(tmp_path / "alone.toml"), str(tmp_path / "planner.toml")])
    sc = allocate(r)
    checked = 0
    for st, alt, k in _redrawn_solo_positions(r, W):
        if np.array_equal(alt.ai_deck, st.ai_deck) and np.array_equal(alt.card_seq, st.card_seq):
            continue
        checked += 1
        va, vb = np.zeros(k), np.zeros(k)
        assert apprentice_values(st, r, W, 0, 0, k, va) == apprentice_values(alt, r, W, 0, 0, k, vb)
        assert np.array_equal(va, vb) and 1 <= np.isfinite(va).sum() <= min(k, 4)
        for s in (st, alt):  # the same seat as the planner over the apprentice (strategy row 1)
            s.pl[0, PF.STRATEGY] = 1
            s.w[0, P.ROLLOUTS] = 2
        assert plan_choice(st, sc, r, 0, 0, k, new_labels(sc, 0), W) == plan_choice(alt, sc, r, 0, 0, k, new_labels(sc, 0), W)
        if checked == 2:
            break
    assert checked == 2


def test_no_peeking_with_an_apprentice_at_a_table(engine, tmp_path):
    """At a table of 4 (the table apprentice, trinidad train --apprentice --players 4) the apprentice
    values every row the same when the deck order and the other seats' face-down hands are dealt again
    from the seat's view: it reads no rival's hidden cards."""
    from helpers import random_apprentice, redealt

    from strategies.apprentice import apprentice_values

    r, _ = engine
    np.savez(tmp_path / "net.npz", **random_apprentice(5))
    (tmp_path / "alone.toml").write_text('family = "rollout"\nbase = "heuristic"\n[rollout]\ncandidates = 8\n'
                                         f'rollouts = 0\napprentice = "{tmp_path / "net.npz"}"\n')
    W, _ = load_strategies([str(tmp_path / "alone.toml")])
    checked = 0
    for pos_seed in (3, 4, 5):
        st, seat = mid_game(r, W, seed=pos_seed)
        k = turn_options(st, r, seat)
        alt = redealt(r, st, seat, 777 + pos_seed)
        hidden = [c for c in range(N_CHARACTERS, N_CARDS) if Loc.HAND <= st.card_loc[c] < Loc.PILE and st.card_loc[c] != Loc.HAND + seat]
        if np.array_equal(alt.card_seq, st.card_seq) and np.array_equal(alt.card_loc, st.card_loc):
            continue  # nothing hidden to rearrange at this position
        checked += 1
        va, vb = np.zeros(k), np.zeros(k)
        assert apprentice_values(st, r, W, 0, seat, k, va) == apprentice_values(alt, r, W, 0, seat, k, vb)
        assert np.array_equal(va, vb) and 1 <= np.isfinite(va).sum() <= min(k, 8)
        assert hidden  # the rivals hold cards the seat cannot see
    assert checked >= 2
