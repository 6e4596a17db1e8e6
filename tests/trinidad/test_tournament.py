"""`trinidad tournament` and trinidad/tournament.py: Wilson intervals, the fractional tie rule,
seat rotation on common seeds, determinism, and a real random-vs-greedy tournament via the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint
from typer.testing import CliRunner

from sim.records import N_RG, RG
from trinidad.cli import app
from trinidad.tournament import (
    default_players,
    plan,
    rotations,
    run_tournament,
    score_games,
    tally,
    wilson,
    win_credit,
)

cli = CliRunner()


def test_wilson_equals_statsmodels():
    for wins, n in [(37, 100), (0, 50), (50, 50), (212.5, 800), (1 / 3, 7)]:
        assert wilson(wins, n) == tuple(proportion_confint(wins, n, alpha=0.05, method="wilson"))
    lo, hi = wilson(37, 100)
    assert lo == pytest.approx(0.2818, abs=1e-4) and hi == pytest.approx(0.4678, abs=1e-4)  # (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)


def _game(rows):
    """One game's records from (strategy, vp, rank) per seat; rank 1 = winner."""
    g = np.zeros((5, N_RG), np.int32)
    for s, (sid, vp, rank) in enumerate(rows):
        g[s, RG.SEAT], g[s, RG.STRATEGY], g[s, RG.VP], g[s, RG.RANK] = s, sid, vp, rank
        g[s, RG.WINNER] = 1 if rank == 1 else 0
        g[s, RG.TIE] = 0
    return g


def test_fractional_ties_on_a_synthetic_table():
    names = ["a", "b", "c"]
    rec = np.stack([
        _game([(0, 30, 1), (1, 20, 2), (2, 10, 3)]),  # a wins alone
        _game([(1, 25, 1), (2, 25, 1), (0, 5, 3)]),  # b and c tie: 1/2 each
        _game([(2, 9, 1), (0, 9, 1), (1, 9, 1)]),  # three-way tie: 1/3 each
        _game([(0, 12, 2), (0, 40, 1), (1, 3, 3)]),  # a holds two seats: one seat wins
    ])
    st = {s.name: s for s in score_games(rec, 3, names)}
    assert st["a"].n == 5 and st["b"].n == 4 and st["c"].n == 3  # per seat-game
    assert st["a"].wins == pytest.approx(1 + 1 / 3 + 1)
    assert st["b"].wins == pytest.approx(1 / 2 + 1 / 3)
    assert st["c"].wins == pytest.approx(1 / 2 + 1 / 3)
    assert sum(s.wins for s in st.values()) == pytest.approx(len(rec))  # one win per game
    assert st["a"].win_rate == pytest.approx((7 / 3) / 5)
    assert (st["b"].ci_low, st["b"].ci_high) == pytest.approx(proportion_confint(5 / 6, 4, method="wilson"))
    assert (st["a"].ci_low, st["a"].ci_high) == pytest.approx(proportion_confint(7 / 3, 5, method="wilson"))
    assert st["a"].mean_rank == pytest.approx((1 + 3 + 1 + 2 + 1) / 5)
    assert st["c"].mean_vp == pytest.approx((10 + 25 + 9) / 3)


def test_win_credit_shares_a_tie_for_first_and_refuses_a_game_without_a_winner():
    rec = np.stack([
        _game([(0, 30, 1), (1, 20, 2), (2, 10, 3)]),
        _game([(1, 25, 1), (2, 25, 1), (0, 5, 3)]),
        _game([(2, 9, 1), (0, 9, 1), (1, 9, 1)]),
    ])
    np.testing.assert_allclose(win_credit(rec, 3), [[1, 0, 0], [0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3]])
    assert int(tally(rec, 3, 3)["tie_games"]) == 2
    rec[0, 0, RG.WINNER] = 0
    with pytest.raises(ValueError, match="without a winner"):
        win_credit(rec, 3)


@pytest.mark.parametrize("k,n", [(2, 2), (2, 4), (3, 3), (3, 4), (4, 4), (2, 5), (5, 5), (6, 4)])
def test_rotations_put_every_entry_in_every_seat_once(k, n):
    rot = rotations(list(range(k)), n)
    assert rot.shape == (k, n)
    assert rot[0].tolist() == [s % k for s in range(n)]  # rotation 0 = the list cycled over the seats
    for seat in range(n):
        assert sorted(rot[:, seat].tolist()) == list(range(k))  # each entry once per seat per base seed


def test_plan_rounds_up_to_whole_rotations():
    assert plan(2, 400) == (200, 400)
    assert plan(3, 400) == (134, 402)
    assert plan(4, 1) == (1, 4)
    assert default_players(1) == 4 and default_players(3) == 3 and default_players(7) == 4


def test_seats_balanced_in_the_played_games(engine):
    r, _ = engine
    res = run_tournament(["random", "greedy", "random"], players=4, games=30, seed=3, rules=r)
    assert res.games == 30 and res.base_seeds == 10 and res.rotations == 3
    names = [s.name for s in res.strategies]
    assert names == ["random", "greedy"]
    # random is two entries of the list: twice greedy's seat-games, evenly over the 4 seats
    assert res.seat_games[names.index("greedy")].tolist() == [10] * 4
    assert res.seat_games[names.index("random")].tolist() == [20] * 4
    assert sum(s.n for s in res.strategies) == 30 * 4
    assert sum(s.wins for s in res.strategies) == pytest.approx(30)


def test_common_seeds_match_single_games(engine):
    """Base seed i is the runner's seed of game i; each rotation plays it once."""
    from sim.records import RG
    from sim.rng import player_seeds
    from strategies.match import run_game

    r, W = engine  # W rows: random, greedy
    res = run_tournament(["random", "greedy"], players=2, games=4, seed=11, rules=r)
    vps = {0: [], 1: []}
    for sd in player_seeds(11, 2, 0, 2):
        for lineup in ([0, 1], [1, 0]):
            st = run_game(r, W, 2, int(sd), lineup)
            for seat, sid in enumerate(lineup):
                vps[sid].append(int(st.rec_game[seat, RG.VP]))
    assert res.stats("random").mean_vp == pytest.approx(np.mean(vps[0]))
    assert res.stats("greedy").mean_vp == pytest.approx(np.mean(vps[1]))


def test_same_results_for_any_threads_and_the_same_seed(engine):
    r, _ = engine
    kw = dict(strategies=["random", "greedy"], players=3, games=60, seed=5, rules=r)
    a = run_tournament(threads=1, **kw)
    b = run_tournament(threads=2, **kw)
    c = run_tournament(threads=2, **kw)
    assert a.to_dict() == b.to_dict() == c.to_dict()
    assert np.array_equal(a.seat_games, b.seat_games)
    assert run_tournament(threads=2, **(kw | {"seed": 6})).to_dict() != a.to_dict()


@pytest.mark.parametrize("players", [2, 4])
def test_cli_json_greedy_beats_random(engine, players):
    res = cli.invoke(app, ["tournament", "--strategies", "random,greedy", "--players", str(players), "--games", "400",
                           "--seed", "1", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)  # exactly one JSON object on stdout
    assert set(obj) == {"strategies", "games", "players", "seed", "aliases"} and obj["aliases"] == {}
    assert obj["games"] == 400 and obj["players"] == players and obj["seed"] == 1
    st = {s["name"]: s for s in obj["strategies"]}
    assert list(st) == ["random", "greedy"]
    for s in st.values():
        assert set(s) == {"name", "win_rate", "ci_low", "ci_high", "mean_rank", "mean_vp", "n"}
        assert s["n"] == 400 * players // 2
        assert 0 <= s["ci_low"] <= s["win_rate"] <= s["ci_high"] <= 1
    assert sum(s["win_rate"] * s["n"] for s in st.values()) == pytest.approx(400)
    g, rnd = st["greedy"], st["random"]
    assert g["win_rate"] > rnd["win_rate"] and g["ci_low"] > rnd["ci_high"]
    assert g["mean_rank"] < rnd["mean_rank"] and g["mean_vp"] > rnd["mean_vp"]


def test_cli_table_and_rounded_game_count(engine):
    res = cli.invoke(app, ["tournament", "--strategies", "random,greedy,random", "--games", "10", "--threads", "1"])
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "Tournament, 3 players, seed 1" in out
    assert "12 games: 4 seeds x 3 rotations" in out  # 10 asked, rounded up to whole rotations
    for word in ("strategy", "win rate", "95% CI", "mean rank", "mean VP", "greedy", "random", "1/k of a win"):
        assert word in out


@pytest.mark.parametrize("args,option", [
    (["--strategies", "random,nosuch"], "--strategies"),
    (["--strategies", "greedy"], "--strategies"),
    ([], "--strategies"),
    (["--strategies", "random,greedy", "--players", "6"], "--players"),
    (["--strategies", "random,greedy", "--players", "1"], "--players"),
    (["--strategies", "random,greedy", "--games", "0"], "--games"),
    (["--strategies", "random,greedy", "--seed", "-1"], "--seed"),
    (["--strategies", "random,greedy", "--threads", "0"], "--threads"),
])
def test_cli_bad_arguments_one_line(engine, args, option):
    res = cli.invoke(app, ["tournament", "--json", *args])
    assert res.exit_code == 2
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith(option), res.output
    assert res.stdout == ""


def test_an_alias_plays_as_the_strategy_it_names_and_is_recorded(engine, tmp_path):
    top = tmp_path / "top.toml"
    top.write_text('alias = "greedy"\n')
    a = run_tournament([str(top), "random"], players=4, games=8, seed=2, threads=1)
    b = run_tournament(["greedy", "random"], players=4, games=8, seed=2, threads=1)
    assert a.aliases == {str(top): "greedy"} and a.to_dict()["aliases"] == {str(top): "greedy"}
    assert a.stats(str(top)).win_rate == b.stats("greedy").win_rate and a.stats(str(top)).mean_vp == b.stats("greedy").mean_vp
    res = cli.invoke(app, ["tournament", "--strategies", f"{top},random", "--games", "8", "--threads", "1"])
    assert res.exit_code == 0 and f"Aliases: {top} = greedy" in res.stdout
