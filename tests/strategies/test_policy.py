"""The policy's named valuation coefficients and vote-model parameters (strategies.policy K, P):
every number the valuation once wrote as a literal is a W slot a strategy file sets by name, with
today's value as its default; the coefficients are weights `trinidad tune` tunes, the parameters are
range-checked settings it leaves alone."""

from __future__ import annotations

import ast
import inspect

import numpy as np
import pytest

from sim.state import N_CHARACTERS, PF, B, G
from strategies import ai_tie, policy, policy_build, policy_character, policy_decisions, policy_terms, policy_turn, policy_vote, war_policy
from strategies.match import run_game
from strategies.policy import COEFFICIENTS, K_DEFAULT, P_DEFAULT, P_RANGE, PARAMETERS, WEIGHTS, K, P, default_weights
from strategies.registry import CHARACTER_KEYS, STRATEGY_DIR, StrategyError, load_strategies, load_strategy_file
from strategies.weights import N_WEIGHTS

# the functions that value options (every coefficient is read in one of them), by module
VALUATION = {policy_build: ["_city_gain", "_build_base", "_build_value"], policy_character: ["_character_progress"],
             policy_turn: ["_turn_base", "_card_value", "_turn_values"], policy_terms: ["_series_change"],
             policy_vote: ["_vote_cost", "_likely_no", "_call_value", "_legislator_yes", "_vote_value"],
             policy_decisions: ["_option_value", "_vp_wait", "_scoring_floor"]}
WAR_VALUATION = ["penalty_value", "track_value", "defeat_gain", "miniature_loss", "best_plan", "stakes", "position_value",
                 "card_row_value", "war_value", "defender_value"]
AI_TIE_VALUATION = ["upgrade_value", "district_row_value", "status_gain", "grid_value", "place_value", "ai_tie_value"]


def _greedy_with(tmp_path, name, extra, base="greedy"):
    """strategies/greedy.toml (or ``base``) with ``extra`` TOML text appended (in greedy.toml, after
    [weights]: a key line sets a weight)."""
    p = tmp_path / f"{name}.toml"
    p.write_text((STRATEGY_DIR / f"{base}.toml").read_text() + extra)
    return str(p)


def test_no_valuation_coefficient_is_left_a_literal():
    """In the valuation functions every float literal is structural: 0 and 1 (an empty value, one
    unit, a sign), the sentinels 1e9 / 1e18, and card 48's 0.5 (the mean of wood and stone). A
    coefficient written back as a literal fails here; each K and P member is read as ``w[K.X]`` /
    ``w[P.X]`` somewhere (a name no code reads would set nothing)."""
    read = set()
    for module, names in (*VALUATION.items(), (war_policy, WAR_VALUATION), (ai_tie, AI_TIE_VALUATION)):
        tree = ast.parse(inspect.getsource(module))
        src = inspect.getsource(module).splitlines()
        funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
        assert set(names) <= set(funcs)
        for name in names:
            for node in ast.walk(funcs[name]):
                if isinstance(node, ast.Constant) and isinstance(node.value, float):
                    line = src[node.lineno - 1]
                    ok = node.value in (0.0, 1.0, 1e9, 1e18) or (node.value == 0.5 and "WAREHOUSE_RESOURCES" in line)
                    assert ok, f"{name}: literal {node.value} in: {line.strip()}"
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("K", "P"):
                    read.add(f"{node.value.id}.{node.attr}")
    assert {f"K.{k.name}" for k in K} <= read, {f"K.{k.name}" for k in K} - read
    assert {f"P.{p.name}" for p in P_DEFAULT} <= read, {f"P.{p.name}" for p in P_DEFAULT} - read


def test_the_layout_of_a_w_row():
    """Family, the 17 features, the coefficients (slots 1.. in WEIGHTS order, what tune tunes), then
    the parameters, all inside one N_WEIGHTS block."""
    assert WEIGHTS[:17] == policy.FEATURES[1:] and WEIGHTS[17:] == COEFFICIENTS and len(COEFFICIENTS) == len(K)
    assert [int(K[c.upper()]) for c in COEFFICIENTS] == list(range(18, 18 + len(K)))
    assert not set(PARAMETERS) & set(WEIGHTS) and max(P) < N_WEIGHTS
    row = default_weights()
    assert all(row[k] == v for k, v in K_DEFAULT.items()) and all(row[p] == v for p, v in P_DEFAULT.items())
    assert (row[:18] == 0).all()


def test_a_file_that_leaves_them_out_gets_the_defaults_in_every_block(tmp_path):
    """A file without coefficient or parameter keys (every shipped one) holds the defaults in its
    base block and every Character block; one that writes every default out by name loads the same
    row (each name reaches its own slot)."""
    W, _ = load_strategies(["greedy", "heuristic"])
    for row in W:
        blocks = row[:N_WEIGHTS * (1 + N_CHARACTERS)].reshape(1 + N_CHARACTERS, N_WEIGHTS)
        for k, v in K_DEFAULT.items():
            assert (blocks[:, k] == v).all(), k.name
        for p, v in P_DEFAULT.items():
            assert (blocks[:, p] == v).all(), p.name
    text = "\n" + "\n".join(f"{k.name.lower()} = {v!r}" for k, v in K_DEFAULT.items())
    text += "\n[parameters]\n" + "\n".join(f"{p.name.lower()} = {int(v) if P_RANGE[p][2] else v!r}" for p, v in P_DEFAULT.items())
    explicit = _greedy_with(tmp_path, "explicit", text + "\n")
    W2, _ = load_strategies(["greedy", explicit])
    assert np.array_equal(W2[0], W2[1])


def test_named_constants_reach_their_slots_and_blocks(tmp_path):
    """[weights] sets a coefficient in every block, [characters.<Name>] in that Character's block
    only, [parameters] in every block."""
    f = _greedy_with(tmp_path, "named", "remove_city = 7.5\nlot_base = 2.0\n[parameters]\nvote_tie = 0.25\nbid_low_max = 4\n"
                     "[characters.Merchant]\nlot_base = 3.0\nkeep_own = 1.25\n")
    W, _ = load_strategies([f])
    blocks = W[0, :N_WEIGHTS * (1 + N_CHARACTERS)].reshape(1 + N_CHARACTERS, N_WEIGHTS)
    m = 1 + CHARACTER_KEYS.index("Merchant")
    others = [b for b in range(1 + N_CHARACTERS) if b != m]
    assert (blocks[:, K.REMOVE_CITY] == 7.5).all() and (blocks[:, P.VOTE_TIE] == 0.25).all() and (blocks[:, P.BID_LOW_MAX] == 4).all()
    assert blocks[m, K.LOT_BASE] == 3.0 and (blocks[others, K.LOT_BASE] == 2.0).all()
    assert blocks[m, K.KEEP_OWN] == 1.25 and (blocks[others, K.KEEP_OWN] == K_DEFAULT[K.KEEP_OWN]).all()


@pytest.mark.parametrize("text, key", [
    ('family = "greedy"\n[weights]\nremove_cty = 5\n', "weights.remove_cty"),
    ('family = "heuristic"\n[characters.Merchant]\nlot_bse = 1\n', "characters.Merchant.lot_bse"),
    ('family = "greedy"\n[weights]\nvote_tie = 0.5\n', "weights.vote_tie"),  # a parameter is not a weight
    ('family = "greedy"\n[weights]\ncandidates = 4\n', "weights.candidates"),
    ('family = "greedy"\n[parameters]\nremove_city = 5\n', "parameters.remove_city"),  # nor a weight a parameter
    ('family = "greedy"\n[parameters]\nvote_ties = 0.5\n', "parameters.vote_ties"),
    ('family = "greedy"\n[parameters]\nvote_tie = 1.5\n', "parameters.vote_tie"),  # a chance above 1
    ('family = "greedy"\n[parameters]\nvote_rivals = 0\n', "parameters.vote_rivals"),  # a divisor of 0
    ('family = "greedy"\n[parameters]\nvote_no_wins = 2.5\n', "parameters.vote_no_wins"),  # a count of votes
    ('family = "greedy"\n[parameters]\nvote_tie = "half"\n', "parameters.vote_tie"),
    ('family = "greedy"\nparameters = 3\n', "parameters"),
    ('family = "rollout"\n[parameters]\nvote_tie = 0.5\n', "parameters"),  # a rollout file takes them from its base
])
def test_unknown_or_bad_names_fail_with_the_key(tmp_path, text, key):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(StrategyError) as e:
        load_strategy_file(p)
    msg = str(e.value)
    assert "\n" not in msg and f"{key}:" in msg, msg


def _game(r, W, strat, seed):
    st = run_game(r, W, 4, seed, strat)
    assert st.g[G.GAME_OVER] == 1
    pl = st.pl[:4].copy()
    pl[:, PF.STRATEGY] = 0  # the seat's strategy id: the rest is the game
    return np.concatenate([pl.ravel(), st.vps[:4].ravel(), st.cell_b.ravel(), st.cell_owner.ravel()])


@pytest.mark.parametrize("base, extra", [
    ("greedy", "lot_base = 20.0\n"),  # a weight (TURN: every Lot)
    ("greedy", "draw_pile = 3.0\n"),  # a weight (Phase A: take from a pile rather than draw)
    ("heuristic", "[parameters]\nvote_tie = 1.0\n"),  # a parameter of the heuristic's vote model (a tie taken as won)
])
def test_a_named_constant_set_in_a_file_changes_the_games_of_the_seat_that_plays_it(engine, tmp_path, base, extra):
    """Seat 0 plays greedy (heuristic) with one named constant changed, the others the plain file:
    the games differ from the plain file's on the same seeds; the same file with the constant at its
    default plays them exactly."""
    r, _ = engine
    name, value = extra.splitlines()[-1].split(" = ")
    slot = K[name.upper()] if name in COEFFICIENTS else P[name.upper()]
    default = K_DEFAULT[slot] if name in COEFFICIENTS else P_DEFAULT[slot]
    changed = _greedy_with(tmp_path, "changed", extra, base)
    same = _greedy_with(tmp_path, "same", extra.replace(value, repr(default)), base)
    W, _ = load_strategies([base, changed, same])
    assert W[1, slot] == float(value) and W[2, slot] == default
    differ = 0
    for seed in (1, 2, 3):
        base = _game(r, W, [0, 0, 0, 0], seed)
        differ += not np.array_equal(_game(r, W, [1, 0, 0, 0], seed), base)
        assert np.array_equal(_game(r, W, [2, 0, 0, 0], seed), base)
    assert differ >= 2, differ


def test_a_coefficient_moves_exactly_the_rows_it_values(engine):
    """On played positions, ``lot_base`` one higher raises every BUILD Lot row of the seat's TURN
    values by its city weight and leaves every other row as it was (the memo refreshed on the
    weight change, strategies.policy_build.memo_refresh)."""
    from helpers import mid_game, set_items

    from sim.actions import turn_options
    from sim.codes import Act, Dec
    from strategies.policy import F, option_values

    r, _ = engine
    W, _ = load_strategies(["heuristic"])
    lots = 0
    for seed, decades in ((3, 2), (5, 4), (8, 6)):
        st, _ = mid_game(r, W, decades=decades, seed=seed)
        for seat in range(4):
            st.g[G.TURN_SEAT] = seat
            st.pl[seat, PF.WORKERS] = max(st.pl[seat, PF.WORKERS], 3)
            set_items(st, seat, wood=6, stone=6, precious=4, metal=2, silver=5, bronze=5)
            k = turn_options(st, r, seat)
            option_values(st, r, seat, int(Dec.TURN), k)
            before = st.vals[:k].copy()
            st.w[seat, K.LOT_BASE] += 1.0
            option_values(st, r, seat, int(Dec.TURN), k)
            after = st.vals[:k].copy()
            st.w[seat, K.LOT_BASE] -= 1.0
            lot = (st.opts[:k, 0] == Act.BUILD) & (st.opts[:k, 1] == B.LOT)
            lots += int(lot.sum())
            np.testing.assert_allclose(after[lot] - before[lot], st.w[seat, F.CITY], rtol=1e-9)
            assert np.array_equal(after[~lot], before[~lot])
    assert lots >= 10, lots


def _heuristic_seat(st, seat):
    """The seat plays the heuristic's VP status valuation (the family; no feature reads it)."""
    row = default_weights()
    row[0] = policy.FAMILY_HEURISTIC
    st.w[seat, :] = row


def test_the_heuristic_waits_in_a_scoring_for_a_larger_assignation(engine):
    """VP status, once per decade on a single assignation: in a Scoring the engine tells the decision
    the largest assignation still to come (sim.core.assign_vp). The heuristic lets the richest
    player's 7 VPs go by (+1 at Level I) and takes the bonus on its Palace (+2), later in the same
    Scoring; greedy takes it at once. The waiting is in the game log."""
    from helpers import N1, cells_of, fresh, scored, scoring_state, set_items

    from sim.codes import Ch, Ev
    from sim.log import format_log
    from sim.rules import load_rules_doc
    from sim.state import VS, Loc

    r, W = engine
    got = {}
    for family in ("greedy", "heuristic"):
        st = fresh(r, W, 4)
        scoring_state(st)
        st.card_loc[:N_CHARACTERS] = Loc.BOX  # no Character card in a series
        st.pl[:4, PF.CHARACTER] = Ch.CAPTAIN  # no War won: his card scores nothing
        set_items(st, 0, silver=3)  # the richest
        c = cells_of(r, N1, 1)[0]
        st.cell_b[c], st.cell_owner[c] = B.PALACE, 0
        st.pl[0, PF.ST_VP] = 1
        if family == "heuristic":
            _heuristic_seat(st, 0)
        st.g[G.LOG_ON] = 1
        st.g[G.LOG_N] = 0
        vp = scored(st, r, 1)[0]
        money, city = int(vp[VS.MONEY]), int(vp[VS.CITY])
        pct = int(r.vp_bonus_pct[0])
        assert money * pct // 100 < city * pct // 100, (money, city)
        got[family] = int(vp[VS.VP_STATUS])
        rows = st.log[:st.g[G.LOG_N]]
        waits = rows[rows[:, 0] == Ev.VP_WAIT]
        if family == "greedy":
            assert got[family] == money * pct // 100 and len(waits) == 0
        else:
            assert got[family] == city * pct // 100
            assert waits[:, 1:4].tolist() == [[0, money * pct // 100, city * pct // 100]]
            text = format_log(st, r, load_rules_doc(), ["A", "B", "C", "D"])
            assert any("A keeps the VP status bonus for later" in line for line in text)


def test_the_heuristic_waits_for_the_coming_scoring_of_the_decade(engine):
    """Outside a Scoring (nothing told of what is to come), the heuristic waits in a decade that ends
    with a Scoring when the state shows a larger assignation there (its Palace), and takes the bonus
    at once in a decade without one; greedy takes it at once."""
    from helpers import N1, cells_of, fresh

    from sim.core import gain_vp
    from sim.rules import RK
    from sim.state import VS

    r, W = engine
    st = fresh(r, W, 4)
    st.cell_b[:], st.cell_owner[:] = B.NONE, -1
    c = cells_of(r, N1, 1)[0]
    st.cell_b[c], st.cell_owner[c] = B.PALACE, 0
    st.pl[0, PF.ST_VP] = 2
    small = 4  # a building's VP: +2 at Level II; the Palace's 10 or more: +5
    per = int(r.k[RK.DECADES_PER_ERA])
    for family, decade, waits in (("heuristic", per, True), ("heuristic", per - 1, False), ("greedy", per, False)):
        if family == "heuristic":
            _heuristic_seat(st, 0)
        else:
            st.w[0, :] = W[1, :N_WEIGHTS]
        st.g[G.DECADE] = decade
        st.g[G.ERA] = 1
        st.pl[0, PF.USED_VP_STATUS] = 0
        before = int(st.vps[0, VS.VP_STATUS])
        gain_vp(st, r, 0, small, VS.BUILD)
        taken = int(st.vps[0, VS.VP_STATUS]) - before
        assert (taken == 0) == waits and st.pl[0, PF.USED_VP_STATUS] == (0 if waits else 1), (family, decade)


def test_a_simulation_forbid_keeps_the_build_groups_and_picks_as_the_full_listing(engine):
    """strategies.policy.turn_groups_ok / drop_sim_forbidden: a seat kept from an Act by P.SIM_FORBID (what a
    search's simulations carry) lists its BUILD rows as groups and drops that Act's rows; a forbid probe of the
    same Act (P.PROBE_ACT: the full listing less those rows, strategies.policy.drop_forbidden) leaves the same rows
    in the same order, so the two play the same games to the last decision. The forbid is felt: the seat never
    takes the Act, which it takes unforbidden on the same deals."""
    from sim.codes import Act
    from sim.schema import act_column
    from strategies.value_model import SEARCH_OFFSET
    from trinidad.batch import play_batch

    r, _ = engine
    W0, _ = load_strategies(["heuristic"])
    sim, probe = W0.copy(), W0.copy()
    for b in range(SEARCH_OFFSET // N_WEIGHTS):
        sim[0, b * N_WEIGHTS + P.SIM_FORBID] = 1 << Act.MAJOR
        probe[0, b * N_WEIGHTS + P.PROBE_ACT] = -Act.MAJOR
    seeds = np.arange(90, 102, dtype=np.uint64)
    strat = np.zeros((len(seeds), 4), np.int32)
    col = act_column(Act.MAJOR)
    dec_s, gam_s = play_batch(r, sim, 4, seeds, strat, threads=1)
    dec_p, gam_p = play_batch(r, probe, 4, seeds, strat, threads=1)
    _, gam_0 = play_batch(r, W0, 4, seeds, strat, threads=1)
    np.testing.assert_array_equal(gam_s, gam_p)
    np.testing.assert_array_equal(dec_s, dec_p)
    assert gam_s[:, :4, col].sum() == 0 and gam_0[:, :4, col].sum() > 0


def test_turn_groups_are_kept_under_a_simulation_forbid_of_any_act_but_build(blank, weights):
    """turn_groups_ok: a P.SIM_FORBID of MAJOR (or of MAJOR and SHIP) keeps the grouped listing (its rows are not
    BUILD rows), one with BUILD or any forbid probe does not (drop_forbidden then works on the full listing)."""
    from sim.codes import Act

    st = blank
    st.w[0] = weights[1, :N_WEIGHTS]  # greedy: a family that values rows
    assert policy.turn_groups_ok(st, 0)
    st.w[0, P.SIM_FORBID] = 1 << Act.MAJOR
    assert policy.turn_groups_ok(st, 0)
    st.w[0, P.SIM_FORBID] = 1 << Act.BUILD
    assert not policy.turn_groups_ok(st, 0)
    st.w[0, P.SIM_FORBID] = (1 << Act.MAJOR) | (1 << Act.SHIP)  # a set of Acts without BUILD keeps them too
    assert policy.turn_groups_ok(st, 0)
    st.w[0, P.SIM_FORBID] = (1 << Act.SHIP) | (1 << Act.BUILD)
    assert not policy.turn_groups_ok(st, 0)
    st.w[0, P.SIM_FORBID] = 0
    st.w[0, P.PROBE_ACT] = -Act.MAJOR
    assert not policy.turn_groups_ok(st, 0)
