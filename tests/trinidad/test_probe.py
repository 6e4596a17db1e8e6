"""Restricted-play probes: strategies.forced_play forces one seat's option at its first legal chance,
trinidad.probe measures what that does, ``trinidad probe`` prints it."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.codes import Act
from sim.records import RD, RG, act_column
from sim.state import B, Res
from strategies import python_bridge
from strategies.registry import StrategyError, load_strategies
from trinidad import probe as tp
from trinidad.batch import play_batch
from trinidad.cli import app
from trinidad.probe import Option, ProbeError, parse_option, probe_weights, run_probe


def _matches(row, act, arg) -> bool:
    action, args = row
    return action == Act(act).name and (arg < 0 or args[0] == arg)


@pytest.mark.parametrize("option", [Option(Act.SHIP), Option(Act.BUILD, B.HOUSE), Option(Act.MILICIANO)], ids=lambda o: o.key)
def test_the_probe_takes_the_option_at_the_first_turn_it_is_legal(engine, option):
    """A Python seat that never takes a free action decides only at the start of its turns: while its
    probe is pending, no listing it sees holds the option (it would have been forced); the forced
    listing holds only the option's rows; the seat then has taken it."""
    r, _ = engine
    W0, _ = load_strategies(["py:helpers:MainFirst"])
    W = np.vstack([probe_weights(W0, option), load_strategies(["heuristic"])[0]])  # rows: plain, probed, heuristic
    seen = python_bridge._REGISTRY[python_bridge.register("helpers:MainFirst")]
    forced_games = 0
    for seed in range(12):
        seen.listings.clear()
        _, gam = play_batch(r, W, 3, np.array([50 + seed], np.uint64), np.array([[1, 2, 0]]), threads=1)
        dec = gam[0, 0, RG.PROBE_DECADE]
        mine = [(d, rows) for s, d, rows in seen.listings if s == 0]
        arg = option.building
        pending = [rows for d, rows in mine if d == 0]
        assert not any(_matches(row, option.act, arg) for rows in pending for row in rows)
        forced = [rows for d, rows in mine if d > 0 and any(_matches(row, option.act, arg) for row in rows)]
        if forced and all(_matches(row, option.act, arg) for row in forced[0]):
            assert len(forced[0]) >= 2  # a lone row is taken without asking the seat
        if dec > 0:
            forced_games += 1
            col = RG.BUILT + arg - 1 if arg >= 0 else act_column(option.act)
            assert gam[0, 0, col] >= 1
        else:
            assert not forced
        assert gam[0, 2, RG.PROBE_DECADE] == 0 and gam[0, 1, RG.PROBE_DECADE] == 0  # the unprobed seats
    assert forced_games >= 3


def test_a_heuristic_seat_forced_takes_the_option(engine):
    """The heuristic hardly ever builds a wood Hacienda of its own accord; forced, a seat builds one in
    every game where it could, and exactly those games change."""
    r, _ = engine
    W0, _ = load_strategies(["heuristic"])
    W = probe_weights(W0, Option(Act.BUILD, B.HACIENDA_WOOD))
    seeds = np.arange(300, 316, dtype=np.uint64)
    g, f = np.arange(16), np.arange(16) % 4
    strat = np.zeros((16, 4), np.int32)
    strat[g, f] = 1
    _, base = play_batch(r, W0, 4, seeds, np.zeros((16, 4), np.int32), threads=1)
    _, gam = play_batch(r, W, 4, seeds, strat, threads=1)
    dec = gam[g, f, RG.PROBE_DECADE]
    built = gam[g, f, RG.BUILT + B.HACIENDA_WOOD - 1]
    assert (dec > 0).sum() >= 4 and (built[dec > 0] >= 1).all()
    assert (gam[:, :, RG.PROBE_DECADE] > 0).sum() == (dec > 0).sum()  # only the forced seat
    assert built.sum() > base[g, f, RG.BUILT + B.HACIENDA_WOOD - 1].sum()
    changed = (gam[:, :4, RG.VP] != base[:, :4, RG.VP]).any(axis=1)
    assert (changed == (dec > 0)).all()  # a game changes exactly when the probe fired


@pytest.mark.parametrize("family", ["random", "greedy", "rollout", "py:strategies.pyexample:Builder"])
def test_every_family_can_be_probed(engine, family):
    """Taking the top of a pile is legal from the first turn on: a probed seat of any family takes it."""
    r, _ = engine
    W0, _ = load_strategies([family])
    W = np.vstack([probe_weights(W0, Option(Act.CARD_PILE)), load_strategies(["heuristic"])[0]])
    _, gam = play_batch(r, W, 2, np.array([61, 62], np.uint64), np.array([[1, 2], [2, 1]]), threads=1)
    for g, s in ((0, 0), (1, 1)):
        assert gam[g, s, RG.PROBE_DECADE] >= 1 and gam[g, s, act_column(Act.CARD_PILE)] >= 1
        assert gam[g, 1 - s, RG.PROBE_DECADE] == 0


def test_a_probe_whose_option_is_never_legal_plays_the_same_games(engine):
    """The Cathedral is never a BUILD row (Major buildings are placed when their grid completes)."""
    r, _ = engine
    W0, _ = load_strategies(["heuristic"])
    W = probe_weights(W0, Option(Act.BUILD, B.CATHEDRAL))
    seeds = np.arange(400, 408, dtype=np.uint64)
    strat = np.zeros((8, 4), np.int32)
    strat[np.arange(8), np.arange(8) % 4] = 1
    dec0, gam0 = play_batch(r, W0, 4, seeds, np.zeros((8, 4), np.int32), threads=1)
    dec1, gam1 = play_batch(r, W, 4, seeds, strat, threads=1)
    keep = [c for c in range(gam0.shape[2]) if c != RG.STRATEGY]
    assert np.array_equal(gam0[:, :, keep], gam1[:, :, keep])
    assert np.array_equal(np.delete(dec0, RD.STRATEGY, axis=3), np.delete(dec1, RD.STRATEGY, axis=3))
    assert (gam1[:, :4, RG.STRATEGY] == strat).all()


def test_the_city_plan_walks_the_upgrade_sequence_to_a_palace(engine):
    """The City plan (strategies.forced_play): the heuristic never builds a Palace of its own accord; the
    planned seat builds Lots and Houses, gets metal and, where it completes the plan, a Palace, in the
    decade its probe_decade names; only that seat is probed."""
    r, _ = engine
    W0, _ = load_strategies(["heuristic"])
    plan = parse_option("city plan")
    assert plan.plan == 1 and plan.key == "city_plan" and plan not in tp.OPTIONS
    W = probe_weights(W0, plan)
    n = 24
    seeds = np.arange(500, 500 + n, dtype=np.uint64)
    g, f = np.arange(n), np.arange(n) % 4
    strat = np.zeros((n, 4), np.int32)
    strat[g, f] = 1
    _, base = play_batch(r, W0, 4, seeds, np.zeros((n, 4), np.int32), threads=1)
    dec, gam = play_batch(r, W, 4, seeds, strat, threads=1)
    done = gam[g, f, RG.PROBE_DECADE]
    col = {b: RG.BUILT + b - 1 for b in (B.LOT, B.HOUSE, B.PALACE)}
    assert base[:, :4, col[B.PALACE]].sum() == 0
    assert (done > 0).sum() >= 3
    assert (gam[g, f, col[B.PALACE]] >= 1).sum() == (done > 0).sum()  # completed = a Palace built
    assert gam[g, f, col[B.HOUSE]].sum() > base[g, f, col[B.HOUSE]].sum()
    assert (gam[g, f, RG.GAINED + Res.METAL] > 0).sum() > (base[g, f, RG.GAINED + Res.METAL] > 0).sum()
    assert (gam[:, :, RG.PROBE_DECADE] > 0).sum() == (done > 0).sum()  # only the planned seat
    for gi in np.flatnonzero(done):  # the Palace stands from the decade the plan completed
        d = int(done[gi])
        assert dec[gi, d - 1, f[gi], RD.BUILT + B.PALACE - 1] >= 1
        assert d == 1 or dec[gi, d - 2, f[gi], RD.BUILT + B.PALACE - 1] == 0


def test_options_and_defaults(monkeypatch):
    assert parse_option("BUILD PALACE") == parse_option("build_palace") == Option(Act.BUILD, B.PALACE)
    assert parse_option("ship").label == "SHIP" and parse_option("Card-Draw") == Option(Act.CARD_DRAW)
    with pytest.raises(ProbeError, match="^option: unknown option 'pass'"):
        parse_option("pass")
    assert len(tp.OPTIONS) == 14 + 13 and len({o.key for o in tp.OPTIONS}) == 27
    import strategies.registry as reg

    def missing(names):
        raise StrategyError("strategy best: not found")

    monkeypatch.setattr(reg, "load_strategies", missing)
    assert tp.default_strategy() == "heuristic"
    monkeypatch.setattr(reg, "load_strategies", lambda names: (np.zeros((1, 1)), names))
    assert tp.default_strategy() == "best"


def test_run_probe_statistics(engine):
    r, _ = engine
    res = run_probe("heuristic", games=12, seed=3, players=3, threshold=0.0, options=["card_pile", "build_palace"], rules=r)
    by = {o.key: o for o in res.options}
    assert [o.key for o in res.options] == [o.key for o in tp.OPTIONS]
    p = by["card_pile"]
    assert p.probed and p.n == 12 and not by["ship"].probed
    assert 0 < p.forced <= 1 and 1 <= p.forced_decade <= 12
    never = by["build_palace"]  # never legal for these seats: the same games
    assert never.probed and never.forced == 0 and never.win_diff == 0 and never.margin_diff == 0
    assert p.win_forced_ci[0] <= p.win_forced <= p.win_forced_ci[1]
    assert p.margin_diff == pytest.approx(p.margin_forced - p.margin_base)
    assert p.win_diff == pytest.approx(p.win_forced - p.win_base)
    seeds, chars = tp._deals("heuristic", 3, 12, 3)  # the unforced games, played here
    _, gam = play_batch(r, load_strategies(["heuristic"])[0], 3, seeds, np.zeros((12, 3), np.int32), chars)
    for o in tp.OPTIONS:
        assert by[o.key].used == pytest.approx((gam[:, :3, o.column()] > 0).mean())
    assert by["build_lot"].used > 0 and by["major"].used > 0
    with pytest.raises(ProbeError, match="^players: must be 2..5"):
        run_probe("heuristic", games=2, players=6)
    with pytest.raises(ProbeError, match="^strategy: strategy nope: not found"):
        run_probe("nope", games=2)


def test_probe_command(engine):
    args = ["probe", "--strategy", "heuristic", "--games", "9", "--players", "3", "--seed", "5", "--option", "ship"]
    a = CliRunner().invoke(app, args + ["--json"])
    assert a.exit_code == 0, a.output
    d = json.loads(a.output)
    assert (d["strategy"], d["players"], d["games"], d["seed"], d["threshold"]) == ("heuristic", 3, 9, 5, 0.05)
    ship = next(o for o in d["options"] if o["key"] == "ship")
    assert ship["probed"] and ship["n"] == 9
    assert all(o["probed"] == (o["used"] < 0.05 or o["key"] == "ship") for o in d["options"])
    b = CliRunner().invoke(app, args + ["--json"])
    assert b.output == a.output  # the same seed, the same output
    t = CliRunner().invoke(app, args)
    assert t.exit_code == 0, t.output
    assert "SHIP" in t.output and "BUILD LOT" in t.output and "paired" in t.output
    bad = CliRunner().invoke(app, ["probe", "--games", "0"])
    assert bad.exit_code == 2 and "--games: must be >= 1" in bad.output
    bad = CliRunner().invoke(app, ["probe", "--games", "2", "--bonus", "palaces=x"])
    assert bad.exit_code == 2 and "--bonus: palaces: expected a number" in bad.output
    bad = CliRunner().invoke(app, args + ["--bonus", "palaces=20"])
    assert bad.exit_code == 2 and "--bonus: strategy heuristic is not a search strategy" in bad.output


def test_value_bonus_parse_and_rows():
    """A value bonus (trinidad.probe, module doc 4) moves the probed seat's evaluation by the named VP
    per unit in every Era's model and nothing else; only a search strategy has one to move."""
    from strategies.registry import value_model
    from strategies.value_model import N_STAGES, VF

    b = tp.parse_bonus("Palaces=20, metal=7.5")
    assert b.deltas == (("palaces", 20.0), ("metal", 7.5))
    assert b.key == "value:palaces+20,metal+7.5" and b.column() == RG.BUILT + B.PALACE - 1
    assert tp.parse_bonus("houses=-3").column() == RG.BUILT + B.HOUSE - 1
    for bad, msg in (("palace=3", "^bonus: expected FEATURE=VP"), ("palaces", "^bonus: expected FEATURE=VP"),
                     ("palaces=x", "^bonus: palaces: expected a number"), ("metal=nan", "^bonus: metal: expected a finite")):
        with pytest.raises(ProbeError, match=msg):
            tp.parse_bonus(bad)
    W, _ = load_strategies(["best"])
    Wb = tp.bonus_weights(W, b, "best")
    assert Wb.shape == (2, W.shape[1]) and np.array_equal(Wb[0], W[0])
    d = value_model(Wb[1]) - value_model(W[0])
    want = np.zeros_like(d)
    want[:, VF.PALACES] = 20.0
    want[:, VF.METAL] = 7.5
    assert d.shape[0] == N_STAGES and np.allclose(d, want, rtol=0, atol=1e-9)
    changed = np.flatnonzero(Wb[1] != W[0])
    assert len(changed) == 2 * N_STAGES  # the two weights of each Era's model, nothing else
    with pytest.raises(ProbeError, match="^bonus: strategy heuristic is not a search strategy"):
        tp.bonus_weights(load_strategies(["heuristic"])[0], b, "heuristic")


def test_a_city_bonus_makes_the_search_seat_build_houses_and_seek_metal(engine):
    """Offered a value for Houses, Palaces and the metal a Palace needs, the search seat goes for
    them on its own: more Houses and metal than the same seat unforced on the same deals (which
    builds none); the result reports it (forced = share of games with a Palace built by the probed
    seat)."""
    r, _ = engine
    res = run_probe("best", games=12, seed=5, players=4, threshold=0.0, options=[], rules=r,
                    bonuses=["palaces=60,metal=30,houses=10"])
    o = next(x for x in res.options if x.key.startswith("value:"))
    assert o.probed and o.n == 12 and o.key == "value:palaces+60,metal+30,houses+10"
    h = o.holdings
    assert h["metal_gained"][1] > h["metal_gained"][0]
    assert h["houses"][1] + h["palaces"][1] > h["houses"][0] + h["palaces"][0]
    assert o.forced == pytest.approx(h["palace_games"][1])
    assert o.forced_decade != o.forced_decade  # no decade for a bonus


def test_several_probed_seats_a_game(engine):
    """``seats`` k: seats g .. g + k - 1 mod players are forced in game g, and the result is over
    those seat-games (paired by game on their mean)."""
    r, _ = engine
    res = run_probe("heuristic", games=8, seed=3, players=4, threshold=0.0, options=["card_pile"], rules=r, seats=2)
    o = next(x for x in res.options if x.key == "card_pile")
    assert res.seats == 2 and o.probed and o.n == 8
    seeds, chars = tp._deals("heuristic", 4, 8, 3)
    W, _ = load_strategies(["heuristic"])
    _, base = play_batch(r, W, 4, seeds, np.zeros((8, 4), np.int32), chars)
    g = np.arange(8)
    strat = np.zeros((8, 4), np.int32)
    strat[g, g % 4] = strat[g, (g + 1) % 4] = 1
    _, gam = play_batch(r, probe_weights(W, parse_option("card_pile")), 4, seeds, strat, chars)
    taken = np.stack([gam[g, g % 4, RG.PROBE_DECADE], gam[g, (g + 1) % 4, RG.PROBE_DECADE]], axis=1)
    assert o.forced == pytest.approx((taken > 0).mean()) and (gam[:, :4, RG.PROBE_DECADE][strat == 0] == 0).all()
    credit = base[:, :4, RG.WINNER] / base[:, :4, RG.WINNER].sum(axis=1, keepdims=True)
    assert o.win_base == pytest.approx(np.concatenate([credit[g, g % 4], credit[g, (g + 1) % 4]]).mean())
    with pytest.raises(ProbeError, match="^seats: must be 1..3"):
        run_probe("heuristic", games=2, players=4, seats=4)


def test_a_solo_probe_forces_the_player_against_the_ai(engine):
    """The Solo game (``ai``): the deals of the A.I. table (trinidad.ai_scale), the player's seat
    forced, the A.I. playing its own cards; the unforced win rate is the A.I. table's beat rate."""
    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc
    from sim.state import AI_STRATEGY
    from trinidad import ai_scale

    res = run_probe("heuristic-solo", games=24, seed=4, players=1, threshold=0.0, options=["build_lot"], ai="weak")
    assert res.ai == "weak" and res.players == 1 and res.to_dict()["ai"] == "weak"
    by = {o.key: o for o in res.options}
    lot = by["build_lot"]
    assert lot.probed and lot.n == 24
    scale = ai_scale.measure(["heuristic-solo"], games=24, seed=4)
    weak = next(b for b in scale.beats if b.strength == "weak")
    assert lot.win_base == pytest.approx(weak.win_rate)
    seeds, chars, strat0, strat1, seat = tp._solo_deals("heuristic-solo", 24, 4, "weak")
    assert (strat0[np.arange(24), 1 - seat] == AI_STRATEGY).all() and (strat1[np.arange(24), seat] == 1).all()
    r = rules_from_doc(apply_overrides(load_rules_doc(), {"solo": {"strength": "weak"}}))
    W, _ = load_strategies(["heuristic-solo"])
    _, gam = play_batch(r, probe_weights(W, parse_option("build_lot")), 2, seeds, strat1, chars)
    g = np.arange(24)
    assert lot.forced == pytest.approx((gam[g, seat, RG.PROBE_DECADE] > 0).mean()) and lot.forced > 0
    assert (gam[g, 1 - seat, RG.PROBE_DECADE] == 0).all()  # the A.I. is never forced
    _, base = play_batch(r, W, 2, seeds, strat0, chars)
    assert lot.used == pytest.approx((base[g, seat, RG.BUILT + int(B.LOT) - 1] > 0).mean())
    vp = gam[:, :2, RG.VP].astype(float)
    assert lot.margin_forced == pytest.approx((vp[g, seat] - vp[g, 1 - seat]).mean())
    with pytest.raises(ProbeError, match="^players: the Solo game is 1 player"):
        run_probe("heuristic-solo", games=2, players=2, ai="weak")
    with pytest.raises(ProbeError, match="^seats: the Solo game has one probed seat"):
        run_probe("heuristic-solo", games=2, players=1, seats=2, ai="weak")
    with pytest.raises(ProbeError, match="^ai: allowed: weak, medium"):
        run_probe("heuristic-solo", games=2, players=1, ai="feeble")


def test_the_solo_probe_command(engine):
    args = ["probe", "--solo", "--ai-strength", "medium", "--strategy", "heuristic-solo", "--games", "12", "--seed", "2",
            "--option", "city_plan"]
    a = CliRunner().invoke(app, args + ["--json"])
    assert a.exit_code == 0, a.output
    d = json.loads(a.output)
    assert (d["ai"], d["players"], d["games"]) == ("medium", 1, 12)
    assert next(o for o in d["options"] if o["key"] == "city_plan")["probed"]
    t = CliRunner().invoke(app, args)
    assert t.exit_code == 0, t.output
    assert "the Solo game against the A.I. (medium)" in t.output and "the player (not the A.I.)" in t.output
    bad = CliRunner().invoke(app, ["probe", "--ai-strength", "weak", "--games", "2"])
    assert bad.exit_code == 2 and "--ai-strength: needs --solo" in bad.output
    bad = CliRunner().invoke(app, ["probe", "--solo", "--players", "3", "--games", "2"])
    assert bad.exit_code == 2 and "--solo: the Solo game has one player" in bad.output


@pytest.mark.parametrize("name", ["lab/search-long", "lab/apprentice-solo"])
def test_the_forced_copy_changes_the_probe_slots_of_the_weight_blocks_only(name):
    """The search block (the evaluation) and the apprentice's network follow the weight blocks in a
    W row: forcing an option must leave them as they are, or the probed seat plays another
    evaluation (and the apprentice divided by a zeroed input scale)."""
    from strategies.policy import N_WEIGHTS, P
    from strategies.registry import compile_players
    from strategies.value_model import SEARCH_OFFSET

    W = compile_players([name]).W
    for option in (parse_option("city_plan"), parse_option("build_lot")):
        Wo = probe_weights(W[:1], option)
        changed = np.nonzero(Wo[1] != W[0])[0]
        assert changed.size and changed.max() < SEARCH_OFFSET
        assert set(changed % N_WEIGHTS) <= {P.PROBE_ACT, P.PROBE_ARG, P.PROBE_PLAN}
        assert (Wo[1, SEARCH_OFFSET:] == W[0, SEARCH_OFFSET:]).all()


def test_a_plan_never_completed_still_shows_what_it_did():
    """`trinidad probe`'s table: an option never legal plays the very same games ("never legal"), but the City
    plan counts as forced only where completed (a Palace built): followed in every game and never completed,
    it still moved the games, and its win and margin must be shown (they once read "never legal")."""
    from trinidad.commands.probe import probe_row
    from trinidad.probe import OptionResult

    plan = OptionResult(option="CITY PLAN", key="city_plan", used=0.0, probed=True, n=480, forced=0.0, win_base=0.873,
                        win_forced=0.6, win_forced_ci=[0.55, 0.65], win_diff=-0.273, win_diff_ci=[-0.32, -0.22],
                        margin_diff=-40.0, margin_diff_ci=[-45.0, -35.0], vp_by_source={"city": [0.0, 3.5]})
    row = probe_row(plan)
    assert row[5] == "60.0% [55.0%, 65.0%]" and row[6] == "-27.3% [-32.0%, -22.0%]" and row[7] == "-40.0 [-45.0, -35.0]"
    same = OptionResult(option="BUILD PALACE", key="build_palace", used=0.0, probed=True, n=480, forced=0.0, win_base=0.873,
                        win_forced=0.873, win_diff=0.0, margin_diff=0.0)
    assert probe_row(same)[5] == "never legal"
    unwanted = OptionResult(option="FORBID BUILD PALACE", key="forbid:build_palace", used=0.0, probed=True, n=480, forced=0.0,
                            win_base=0.873, win_forced=0.873, win_diff=0.0, margin_diff=0.0)
    assert probe_row(unwanted)[5] == "no change"
    lost = OptionResult(option="FORBID MAJOR", key="forbid:major", used=0.9, probed=True, n=480, forced=0.0, win_base=0.873,
                        win_forced=0.5, win_forced_ci=[0.45, 0.55], win_diff=-0.373, win_diff_ci=[-0.42, -0.32],
                        margin_diff=-30.0, margin_diff_ci=[-35.0, -25.0], vp_by_source={"major_spaces": [80.0, 0.0]})
    assert probe_row(lost)[5] == "50.0% [45.0%, 55.0%]"


@pytest.mark.parametrize("key", ["major", "major_fort", "city", "production", "build_lot"])
def test_a_forbidden_option_is_never_listed_while_another_main_action_is_legal(engine, key):
    """A forbid probe (strategies.policy.drop_forbidden): the probed Python seat's TURN listings never hold the
    forbidden rows beside another main action, the other seats' listings still do, and the seat never takes
    them where it had a choice."""
    r, _ = engine
    o = tp.parse_forbid(key)
    W0, _ = load_strategies(["py:helpers:MainFirst"])
    W = probe_weights(W0, o)  # rows: plain, forbidden
    seen = python_bridge._REGISTRY[python_bridge.register("helpers:MainFirst")]
    prod = {int(t) for t in tp.MINOR_TYPES if r.b_prod[t] > 0}

    def hit(row) -> bool:
        action, args = row
        if key == "city":
            return action == "BUILD" and args[0] in (B.LOT, B.HOUSE, B.PALACE)
        if key == "production":
            return action == "BUILD" and args[0] in prod
        if key == "build_lot":
            return action == "BUILD" and args[0] == B.LOT
        return action == "MAJOR" and (key == "major" or args[0] == int(tp.M.FORT))

    mine = others = 0
    for seed in range(8):
        seen.listings.clear()
        play_batch(r, W, 3, np.array([70 + seed], np.uint64), np.array([[1, 0, 0]]), threads=1)
        for s, _, rows in seen.listings:
            main = [row for row in rows if not row[0].startswith("F_")]
            if s == 0:
                assert not any(hit(row) for row in rows) or all(hit(row) for row in main)
                mine += sum(hit(row) for row in rows)
            else:
                others += sum(hit(row) for row in rows)
    assert others > 0  # the other seats still see the option: the test could have failed
    assert mine == 0


@pytest.mark.parametrize("family", ["rollout", "lab/search-long"])
def test_a_planning_seat_under_a_forbid_never_takes_it(engine, family):
    """The planning families list their rows through the same listing, in their simulations too: a rollout or
    search seat forbidden the MAJOR action never takes it, though the same seat on the same deals does."""
    r, _ = engine
    W0, _ = load_strategies([family])
    W = np.vstack([W0, probe_weights(W0, tp.parse_forbid("major"))[1:]])
    seeds = np.arange(80, 84, dtype=np.uint64)
    col = act_column(Act.MAJOR)
    _, base = play_batch(r, W, 2, seeds, np.zeros((4, 2), np.int32), threads=1)
    _, gam = play_batch(r, W, 2, seeds, np.array([[1, 0], [0, 1], [1, 0], [0, 1]], np.int32), threads=1)
    g, s = np.arange(4), np.array([0, 1, 0, 1])
    assert base[g, s, col].sum() > 0 and gam[g, s, col].sum() == 0
    assert gam[g, 1 - s, col].sum() > 0


def test_forbid_options_parse_and_probe(engine):
    """``--forbid``: any option but the City plan, each Major building, and the groups city / production; the
    probe reports the seat's use unforced, and forced = the share of games it took the option all the same."""
    from sim.state import M

    assert tp.parse_forbid("city").key == "forbid:city" and tp.parse_forbid("Production").label.startswith("FORBID PRODUCTION")
    assert tp.parse_forbid("major fort") == Option(Act.MAJOR, major=int(M.FORT), forbid=True)
    assert parse_option("major_walls") == Option(Act.MAJOR, major=int(M.WALLS)) and parse_option("major_walls").column() == -1
    with pytest.raises(ProbeError, match="^forbid: unknown option 'city_plan'"):
        tp.parse_forbid("city_plan")
    r, _ = engine
    res = run_probe("heuristic", games=8, seed=3, players=3, threshold=0.0, options=["major_fort"], rules=r,
                    forbids=["major", "city", "major"])
    by = {o.key: o for o in res.options}
    assert [k for k in by if k.startswith("forbid:")] == ["forbid:major", "forbid:city"]
    fm, fc, fort = by["forbid:major"], by["forbid:city"], by["major_fort"]
    assert fm.probed and fm.n == 8 and fm.used == by["major"].used > 0 and fm.forced == 0
    assert fc.used >= by["build_lot"].used > 0 and fc.forced == 0 and fc.holdings["lots"][1] == 0
    assert fort.probed and fort.used != fort.used and fort.forced > 0  # forced onto the Fort's grid; its use not recorded
    t = CliRunner().invoke(app, ["probe", "--strategy", "heuristic", "--games", "4", "--players", "3", "--forbid", "production"])
    assert t.exit_code == 0, t.output
    assert "FORBID PRODUCTION BUILDINGS" in t.output and "forbidden" in t.output
    bad = CliRunner().invoke(app, ["probe", "--games", "2", "--forbid", "palace"])
    assert bad.exit_code == 2 and "--forbid: unknown option 'palace'" in bad.output
