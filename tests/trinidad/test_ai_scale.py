"""trinidad.ai_scale: each strategy against the Solo A.I. at its four strengths (TWO PLAYERS GAME &
SOLO MODE), Wilson intervals as statsmodels computes them, the balanced deal with the A.I. first in
half the games, and the file a run records for the report. Tiny game counts, fast strategies."""

from __future__ import annotations

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from trinidad import ai_scale
from trinidad.ai_scale import AIScale, Beat, ai_first, credit, deal, measure

STRENGTHS = ["weak", "medium", "strong", "divinity"]
GAMES = 24


@pytest.fixture(scope="module")
def small(engine):
    return measure(["random", "greedy"], games=GAMES, seed=3, threads=1)


def test_every_strategy_meets_the_four_strengths_and_the_counts_add_up(small):
    assert small.strengths == STRENGTHS and small.strategies == ["random", "greedy"] and small.games == GAMES
    assert [(b.strategy, b.strength) for b in small.beats] == [(s, t) for s in ("random", "greedy") for t in STRENGTHS]
    for b in small.beats:
        assert b.games == GAMES and b.ai_first == GAMES // 2
        assert b.wins + b.ai_wins == pytest.approx(GAMES)  # one win a game, a shared one split
        assert (b.wins * 2).is_integer()  # whole wins, or half of one (a full tie between the two seats)
        assert b.win_rate == pytest.approx(b.wins / GAMES)


def test_the_wilson_cells_are_statsmodels(small):
    for b in small.beats:
        lo, hi = proportion_confint(b.wins, b.games, alpha=0.05, method="wilson")
        assert (b.ci_low, b.ci_high) == pytest.approx((lo, hi), abs=1e-12)
    b = Beat("x", "weak", 100, 37.5, 62.5, 50, 0.375, *proportion_confint(37.5, 100, method="wilson"))
    assert ai_scale.cell(b) == f"37.5% [{b.ci_low:.1%}, {b.ci_high:.1%}]" == "37.5% [28.6%, 47.3%]"


def test_the_threads_change_nothing(small):
    assert measure(["random", "greedy"], games=GAMES, seed=3, threads=2).beats == small.beats
    assert measure(["greedy"], games=GAMES, seed=4, threads=1).beats != [b for b in small.beats if b.strategy == "greedy"]


def test_the_deal_is_balanced_and_the_ai_first_in_half():
    from sim.state import AI_STRATEGY

    exp = ai_scale.solo_experiment("greedy", 48, 3, STRENGTHS)
    dealt = exp.seat_characters(1, np.arange(48))[:, 0]
    strat, chars, seat = deal(0, dealt)
    assert (strat == AI_STRATEGY).sum(axis=1).tolist() == [1] * 48  # one A.I. seat a game
    assert strat[np.arange(48), seat].tolist() == [0] * 48 and (chars[np.arange(48), 1 - seat] == -1).all()
    assert (chars[np.arange(48), seat] == dealt).all()
    first = ai_first(48)
    assert first.sum() == 24 and (strat[first, 0] == AI_STRATEGY).all() and (strat[~first, 1] == AI_STRATEGY).all()
    for k in range(2):  # every 24 games: each Character once after the A.I. and once before it
        block = slice(24 * k, 24 * (k + 1))
        assert sorted(dealt[block][first[block]].tolist()) == list(range(12)) == sorted(dealt[block][~first[block]].tolist())


def test_a_full_tie_is_half_a_beat():
    from sim.records import N_RG, RG

    g = np.zeros((3, 5, N_RG), np.int32)
    g[0, 0, RG.WINNER] = 1  # seat 0 wins
    g[1, 1, RG.WINNER] = 1  # seat 1 wins
    g[2, :2, RG.WINNER] = 1  # both ranked first: a full tie
    assert credit(g, np.array([0, 0, 1])).tolist() == [[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]
    assert credit(g, np.array([1, 1, 0])).tolist() == [[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]]


def test_the_table_and_the_run_file(small, tmp_path):
    lines = ai_scale.table(small)
    assert lines[0] == "| strategy | weak | medium | strong | divinity |"
    assert [x.split(" | ")[0] for x in lines[2:]] == ["| **random**", "| **greedy**"]
    assert all(x.count("% [") == 4 for x in lines[2:])
    assert f"n = {GAMES} Solo games a cell" in ai_scale.note(small) and "12 of them" in ai_scale.note(small)
    assert ai_scale.read(tmp_path) is None
    ai_scale.write(small, tmp_path)
    assert ai_scale.read(tmp_path) == small and isinstance(small, AIScale)


def test_the_ladder_command_default_is_the_modules():
    from trinidad.commands import ladder

    assert ladder.AI_GAMES == ai_scale.AI_GAMES and ai_scale.AI_GAMES % 24 == 0
    with pytest.raises(ValueError, match="games"):
        measure(["greedy"], games=0)
