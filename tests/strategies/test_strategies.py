"""Strategy files (README, "Strategies"): every shipped file loads and plays whole games at 2-5 players; bad
files fail with one line naming the key; per-Character weight sets reach the seats that hold the
Character."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.state import PF, G
from strategies.match import run_game
from strategies.policy import FAMILY_HEURISTIC, F, default_weights
from strategies.registry import CHARACTER_KEYS, StrategyError, available, load_strategies, load_strategy_file
from strategies.value_model import SEARCH_OFFSET
from strategies.weights import N_WEIGHTS

SHIPPED = ["random", "greedy", "heuristic", "builder", "producer", "politician", "militarist", "cleric", "civic", "rollout",
           "lab/apprentice-4p", "pyexample"]


def test_the_shipped_strategies_are_all_there():
    """strategies/ holds the players a user picks (at most 16 files); the research rungs play by name under lab/."""
    shipped = {"random", "greedy", "builder", "civic", "cleric", "militarist", "politician", "producer", "heuristic", "rollout",
               "search", "best", "pyexample", "heuristic-solo", "rollout-warm-solo"}
    assert set(available()) == shipped and len(shipped) <= 16
    lab = set(available(lab=True)) - shipped
    assert set(SHIPPED) <= shipped | lab and lab and all(n.startswith("lab/") for n in lab)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_strategy_plays_whole_games_at_2_to_5_players(engine, name):
    r, _ = engine
    W, names = load_strategies([name, "random"])
    for n in range(2, 6):
        st = run_game(r, W, n, 11 * n, [0] * n)  # every seat plays the strategy
        assert st.g[G.GAME_OVER] == 1 and st.g[G.EMPTY_OPTS] == 0
        assert names[0] == name


def test_per_character_weights_reach_the_seat(engine):
    """heuristic.toml's [characters.<Name>] tables reach the seat holding that Character: the
    Merchant's precious weight differs from the base one and each seat plays its own table."""
    r, _ = engine
    W, _ = load_strategies(["heuristic"])
    assert W[0, F.FAMILY] == FAMILY_HEURISTIC
    merchant = CHARACTER_KEYS.index("Merchant")
    carpenter = CHARACTER_KEYS.index("Carpenter")

    def precious(c):
        return W[0, N_WEIGHTS * (1 + c) + F.PRECIOUS]

    assert precious(merchant) != W[0, F.PRECIOUS] and precious(merchant) != precious(carpenter)
    chars = [merchant, carpenter, 1, 3]
    st = run_game(r, W, 4, 5, [0, 0, 0, 0], characters=chars)
    assert st.pl[0, PF.CHARACTER] == merchant
    for seat, c in enumerate(chars):
        assert st.w[seat, F.PRECIOUS] == precious(c)


@pytest.mark.parametrize("text, key", [
    ('family = "greedy"\n[weights]\nvpp = 1\n', "weights.vpp"),
    ('family = "clever"\n', "family"),
    ('family = "heuristic"\n[characters.Pirate]\nvp = 1\n', "characters.Pirate"),
    ('family = "heuristic"\n[characters.Merchant]\nprecious = "a lot"\n', "characters.Merchant.precious"),
    ('family = "greedy"\ncolour = "red"\n', "colour"),
    ('family = "rollout"\n[rollout]\ncandidates = 0\n', "rollout.candidates"),
    ('family = "rollout"\n[rollout]\nbudget = 3\n', "rollout.budget"),
    ('family = "rollout"\n[rollout]\nhorizon = "decade"\n', "rollout.horizon"),
    ('family = "rollout"\n[rollout]\nmin_decades = 0\n', "rollout.min_decades"),
    ('family = "rollout"\n[rollout]\nhorizon = "game"\nmin_decades = 2\n', "rollout.min_decades"),
    ('family = "rollout"\nbase = "random"\n', "base"),
    ('family = "rollout"\n[weights]\nvp = 1\n', "weights"),
    ('family = "greedy"\nbase = "heuristic"\n', "base"),
    ('family = "python"\n', "python"),
])
def test_bad_strategy_files_fail_with_the_key(tmp_path, text, key):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(StrategyError) as e:
        load_strategy_file(p)
    msg = str(e.value)
    assert "\n" not in msg and f"{key}:" in msg, msg


def test_a_strategy_without_character_tables_plays_the_same_weights_everywhere():
    W, _ = load_strategies(["greedy"])
    blocks = W[0, :SEARCH_OFFSET].reshape(-1, N_WEIGHTS)
    assert (blocks == blocks[0]).all() and np.count_nonzero(blocks[0]) > 5


def test_the_policy_memo_gives_the_values_of_a_fresh_computation_after_any_change(engine):
    """strategies.policy keeps each seat's BUILD values and district table between decisions
    (memo_refresh). After each kind of change the values depend on (a building, an owner, a Road,
    Walls, the Fort, the Harbor, the seat's Faith, Character and weights), the TURN values with the
    memo must equal those of the same state with its memo empty. Each seat gets a House and the
    means to build a Palace on it (a Palace's value follows its district's value), and every kind
    of change must move the values at least once: a memo key that missed one would be caught."""
    from helpers import mid_game, set_items

    from sim.actions import turn_options
    from sim.codes import Act, Dec
    from sim.game import allocate, copy_state
    from sim.rules import RK
    from sim.state import B, Sup
    from strategies.policy import option_values

    r, _ = engine
    W, _ = load_strategies(["heuristic"])

    def empty_cell(st, d):
        return next(c for c in range(st.cell_b.shape[0]) if r.cell_district[c] == d and st.cell_b[c] == B.NONE
                    and r.cell_buildable[c])

    def toggle_walls(st, d):
        """Close district d by Walls, or open it when it is closed."""
        segs = r.seg_district == d
        st.walls[segs] = 0 if st.walls[segs].all() else 1

    def changes(d, house):
        return {
            "building": lambda st, seat: st.cell_b.__setitem__(empty_cell(st, d), B.CHURCH),
            "owner": lambda st, seat: st.cell_owner.__setitem__(house, (seat + 1) % 4),  # the House changes hands
            "road": lambda st, seat: st.roads.__setitem__(d, 1 - st.roads[d]),
            "walls": lambda st, seat: toggle_walls(st, d),
            "fort": lambda st, seat: st.g.__setitem__(G.FORT_BUILT, 1 - st.g[G.FORT_BUILT]),
            "harbor": lambda st, seat: st.g.__setitem__(G.HARBOR_BUILT, 1 - st.g[G.HARBOR_BUILT]),
            "faith": lambda st, seat: st.pl.__setitem__((seat, PF.FAITH), st.pl[seat, PF.FAITH] + 2),
            "character": lambda st, seat: st.pl.__setitem__((seat, PF.CHARACTER), (st.pl[seat, PF.CHARACTER] + 5) % 12),
            "weights": lambda st, seat: st.w.__setitem__((seat, F.CITY), 2.0 * st.w[seat, F.CITY] + 1.0),
        }

    changed: dict = {}
    palaces = 0
    fresh = allocate(r)
    for seed, decades in ((3, 4), (5, 6), (8, 8), (13, 10)):
        st, _ = mid_game(r, W, decades=decades, seed=seed)
        for seat in range(4):
            st.g[G.TURN_SEAT] = seat
            d = next(d for d in range(8) if r.district_nseg[d] > 0 and sum(
                st.cell_b[c] == B.NONE and r.cell_buildable[c] for c in range(st.cell_b.shape[0]) if r.cell_district[c] == d) >= 3)
            house = empty_cell(st, d)
            st.cell_b[house] = B.HOUSE
            st.cell_owner[house] = seat
            set_items(st, seat, wood=9, stone=9, precious=9, metal=9, silver=9, bronze=9)
            st.pl[seat, PF.WORKERS] = r.k[RK.WORKERS]
            st.pl[seat, PF.PALACE_MARKERS] = max(1, st.pl[seat, PF.PALACE_MARKERS])
            st.supply[Sup.PALACE] = max(1, st.supply[Sup.PALACE])
            k = turn_options(st, r, seat)
            palaces += any(st.opts[i, 0] == Act.BUILD and st.opts[i, 1] == B.PALACE for i in range(k))
            for name, change in changes(d, house).items():
                option_values(st, r, seat, int(Dec.TURN), k)  # the memo filled from the state before the change
                before = st.vals[:k].copy()
                change(st, seat)
                option_values(st, r, seat, int(Dec.TURN), k)
                copy_state(fresh, st)  # the same state, its memo empty (copy_state leaves the memo out)
                fresh.memo_key[:] = 0
                fresh.opts[:] = st.opts
                option_values(fresh, r, seat, int(Dec.TURN), k)
                np.testing.assert_array_equal(st.vals[:k], fresh.vals[:k], err_msg=f"{name}, seed {seed}, seat {seat}")
                changed[name] = changed.get(name, 0) + (not np.array_equal(before, st.vals[:k]))
    assert palaces >= 8, palaces
    assert all(changed.values()), changed


def test_character_progress_is_zero_outside_the_rows_the_turn_valuation_asks_for(engine):
    """_turn_values calls _character_progress only for the act kinds _progress_acts names for the
    seat's Character; on every row of other kinds, for every Character, it must be 0.0 (else the
    heuristic would silently drop a Character term). Played mid-game positions, every seat."""
    from helpers import mid_game

    from sim.actions import turn_options
    from sim.codes import Act
    from sim.state import N_CHARACTERS
    from strategies.policy_character import _character_progress, _progress_acts

    r, _ = engine
    W, _ = load_strategies(["heuristic"])
    seen = set()
    for seed, decades in ((3, 2), (5, 5), (8, 8), (13, 10)):
        st, _ = mid_game(r, W, decades=decades, seed=seed)
        for seat in range(4):
            st.g[G.TURN_SEAT] = seat
            own = int(st.pl[seat, PF.CHARACTER])
            k = turn_options(st, r, seat)
            for ch in range(N_CHARACTERS):
                st.pl[seat, PF.CHARACTER] = ch
                acts = _progress_acts(ch)
                for i in range(k):
                    act = int(st.opts[i, 0])
                    seen.add(act)
                    if not (acts >> act) & 1:
                        assert _character_progress(st, r, seat, i) == 0.0, (ch, Act(act).name)
            st.pl[seat, PF.CHARACTER] = own
    # the positions offer the row kinds the Characters score: the check above is not vacuous
    assert {Act.BUILD, Act.ACTIVATE, Act.MAJOR, Act.F_VOTE, Act.SHIP, Act.F_WAREHOUSE} <= seen


def test_grouped_build_rows_pick_the_row_the_full_listing_picks(engine):
    """sim.actions.decide_turn gives a seat whose policy values rows (strategies.policy.
    turn_groups_ok) its BUILD rows as groups of one type, district and Status marker, valued once,
    and maps the pick back to a space. On played positions, for every Character, with the seat's
    heuristic weights, the greedy weights and all-zero feature weights (every row tied: the one random draw
    ranges over every row, BUILD rows of many groups included), and several random streams, it must
    pick the row that the full listing and strategies.policy.choose pick, leave the random stream
    where they leave it and count one decision. The Bishop and the Governor with a Character weight
    value BUILD rows by space: they get the full listing."""
    from collections import Counter

    from helpers import mid_game, set_items

    from sim.actions import decide_turn, turn_options
    from sim.codes import Act, Dec
    from sim.core import decide
    from sim.game import allocate, copy_state
    from sim.state import N_CHARACTERS
    from strategies.policy import turn_groups_ok

    r, _ = engine
    W, _ = load_strategies(["heuristic", "greedy"])
    zero = default_weights()  # every feature weight 0, the named coefficients and parameters at their defaults
    zero[F.FAMILY] = FAMILY_HEURISTIC
    a, b = allocate(r), allocate(r)
    picks: Counter = Counter()
    full = 0
    for seed, decades in ((3, 2), (5, 5), (8, 8)):
        st, _ = mid_game(r, W, decades=decades, seed=seed)
        for seat in range(4):
            st.g[G.TURN_SEAT] = seat
            set_items(st, seat, wood=6, stone=6, precious=4, metal=2, silver=5, bronze=5)
            st.pl[seat, PF.WORKERS] = max(st.pl[seat, PF.WORKERS], 4)
            own_w = st.w[seat].copy()
            for wname, w in (("heuristic", own_w), ("greedy", W[1, :N_WEIGHTS]), ("zero", zero)):
                for ch in range(N_CHARACTERS):
                    for stream in range(3):
                        copy_state(a, st)
                        a.w[seat] = w
                        a.pl[seat, PF.CHARACTER] = ch
                        a.rng[0] = 1000 * seed + 17 * stream + ch
                        copy_state(b, a)
                        k = turn_options(a, r, seat)
                        row_a = a.opts[decide(a, r, seat, int(Dec.TURN), k)].copy()
                        row_b = b.opts[decide_turn(b, r, seat)].copy()
                        where = f"seed {seed}, seat {seat}, {wname}, Character {ch}, stream {stream}"
                        assert row_b.tolist() == row_a.tolist(), where
                        assert b.rng[0] == a.rng[0] and b.g[G.OPT_N] == a.g[G.OPT_N], where
                        if turn_groups_ok(b, seat):
                            picks[(wname, Act(int(row_a[0])) == Act.BUILD)] += 1
                        else:
                            full += 1
    # both kinds of pick under the grouped listing, BUILD rows in number; the full listing kept for some
    assert picks[("zero", True)] >= 50 and picks[("zero", False)] >= 50, picks
    assert picks[("heuristic", True)] + picks[("greedy", True)] >= 10, picks
    assert full > 0


# ----------------------------------------------------------------------------- aliases (best.toml)

def test_best_names_the_top_rung_and_loads_as_it():
    from strategies.registry import aliases, resolve

    assert "best" in available() and aliases()["best"] == resolve("best") == "lab/search-long-nogrid-all-td61-noship-nolot"
    W, names = load_strategies(["best", "lab/search-long-nogrid-all-td61-noship-nolot"])
    assert names == ["best", "lab/search-long-nogrid-all-td61-noship-nolot"]  # the alias keeps its own name; its row is the strategy it names
    assert (W[0] == W[1]).all()
    # against the Solo A.I. best is the rollout planner with the warm expert network in its simulations (docs/notebook/solo.md)
    assert resolve("best", solo=True) == "rollout-warm-solo"
    S, _ = load_strategies(["best", "rollout-warm-solo"], solo=True)
    assert (S[0] == S[1]).all()


def test_search_long_is_search_with_its_simulations_one_decade_longer():
    from strategies.search import SB

    W, _ = load_strategies(["search", "lab/search-long"])
    differ = np.flatnonzero(W[0] != W[1])
    # the same evaluation, budget and width: only the horizon (whole decades played past the current one)
    assert differ.tolist() == [SEARCH_OFFSET + SB.HORIZON]
    assert W[0, SEARCH_OFFSET + SB.HORIZON] == 0 and W[1, SEARCH_OFFSET + SB.HORIZON] == 1


def _only_the_linear_model_differs(a: str, b: str) -> None:
    """Strategies ``a`` and ``b`` compile to rows that differ, and only in the search evaluation's linear model."""
    from strategies.value_model import N_VALUE, SEARCH_PARAMS

    W, _ = load_strategies([a, b])
    differ = np.flatnonzero(W[0] != W[1])
    model = SEARCH_OFFSET + SEARCH_PARAMS
    assert differ.size and ((differ >= model) & (differ < model + N_VALUE)).all()


@pytest.mark.parametrize("seeds", [(11, 12, 13), (21, 22, 23)])
def test_search_long_seedN_is_search_long_with_the_evaluation_trained_from_other_seeds(seeds):
    from strategies.registry import VALUE_DIR, load_value_file

    tag = f"seed{seeds[0]}"
    # the convergence rungs (docs/notebook/search-long.md): the same budget, width and horizon; only the linear model
    _only_the_linear_model_differs("lab/search-long", f"lab/search-long-{tag}")
    shipped = load_value_file(VALUE_DIR / "search.toml")[1]
    # the shipped evaluation's training chain, run again from other seeds: each link's command is the shipped
    # chain's with the seed and the file names changed (as recorded when trained; the files live in values/lab/ now)
    assert shipped["command"] == ("trinidad train --generations 4 --games 600 --duel-games 600 --explore 0.5 "
                                  "--init strategies/values/search-g1.toml --seed 3 --out strategies/values/search.toml")
    chain = [("-g0", "trinidad train --generations 4 --games 400 --duel-games 1000 --seed {s} --out strategies/values/search-{t}-g0.toml"),
             ("-g1", "trinidad train --generations 3 --games 400 --duel-games 600 --explore 0.5 "
                     "--init strategies/values/search-{t}-g0.toml --seed {s} --out strategies/values/search-{t}-g1.toml"),
             ("", "trinidad train --generations 4 --games 600 --duel-games 600 --explore 0.5 "
                  "--init strategies/values/search-{t}-g1.toml --seed {s} --out strategies/values/search-{t}.toml")]
    for (suffix, command), s in zip(chain, seeds):
        prov = load_value_file(VALUE_DIR / "lab" / f"search-{tag}{suffix}.toml")[1]
        assert prov["command"] == command.format(s=s, t=tag) and prov["seed"] == s


def test_every_strategy_file_loads():
    """A strategy file naming a value, network or apprentice file that is missing fails here, not in a user's run."""
    for name in available(lab=True):
        W, names = load_strategies([name])
        assert names == [name] and W.shape[0] == 1


def test_an_alias_file_by_path_follows_a_chain(tmp_path):
    from strategies.registry import resolve

    (tmp_path / "a.toml").write_text(f'alias = "{tmp_path / "b.toml"}"\n')
    (tmp_path / "b.toml").write_text('description = "a second name"\nalias = "greedy"\n')
    assert resolve(str(tmp_path / "a.toml")) == "greedy"
    assert (load_strategy_file(tmp_path / "a.toml") == load_strategies(["greedy"])[0][0]).all()
    assert resolve("heuristic") == "heuristic" and resolve("py:strategies.pyexample:Example") == "py:strategies.pyexample:Example"


@pytest.mark.parametrize("text, key", [
    ('alias = "greedy"\nfamily = "greedy"\n', "family"),
    ('alias = 3\n', "alias"),
    ('alias = "SELF"\n', "alias"),  # a cycle
    ('alias = "no_such_strategy"\n', "no_such_strategy"),
])
def test_bad_alias_files_fail_with_the_key(tmp_path, text, key):
    p = tmp_path / "bad.toml"
    p.write_text(text.replace("SELF", str(p)))
    with pytest.raises(StrategyError) as e:
        load_strategies([str(p)])
    msg = str(e.value)
    assert "\n" not in msg and f"{key}:" in msg, msg


@pytest.mark.parametrize(("name", "seed", "init"), [("lab/search-long-nogrid-all-td31", 31, "search.toml"),
                                                    ("lab/search-long-nogrid-all-td41", 41, "search.toml"),
                                                    ("lab/search-long-nogrid-all-td61", 61, "lab/search-seed21.toml"),
                                                    ("lab/search-long-nogrid-all-td91", 91, "lab/search-seed21.toml")])
def test_the_td_refits_are_best_over_a_td_refit_of_the_shipped_init(name, seed, init):
    """The TD(lambda) refits (docs/notebook/search-long-nogrid-all.md): `best`'s search, budget and simulations off the
    grids, over an evaluation that `trinidad train --lambda 0.5` refitted from the shipped file it names as its
    init (the same bytes), Character-blind, promoted, and not the init written back."""
    import hashlib

    from strategies.registry import VALUE_DIR, load_value_file
    from strategies.value_model import VF_NAMES

    _only_the_linear_model_differs("lab/search-long-nogrid-all", name)
    refit, prov = load_value_file(next(VALUE_DIR.glob(f"**/search-td{seed}.toml")))  # -td61, best's, is shipped
    start, _ = load_value_file(VALUE_DIR / init)
    assert prov["lambda"] == 0.5 and prov["seed"] == seed and prov["strategy"] == "search-long-nogrid-all"
    recorded = f"strategies/values/{Path(init).name}"  # the path when it was trained (before the lab's move)
    assert prov["init"] == recorded and f"--init {recorded}" in prov["command"]
    assert prov["init_sha256"] == hashlib.sha256((VALUE_DIR / init).read_bytes()).hexdigest()
    assert prov["promoted"] >= 1 and not np.allclose(refit, start)
    chars = [i for i, f in enumerate(VF_NAMES) if f.startswith("ch_")]
    assert (refit[:, chars] == 0).all()  # --fix 'ch_*=0', as best's evaluation has none
