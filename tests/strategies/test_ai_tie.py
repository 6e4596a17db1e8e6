"""strategies/ai_tie.py: the human's choice in an A.I. tie (TWO PLAYERS GAME & SOLO MODE: "If there is
a tie in A.I.'s decision, the human-player first in turn order chooses what to do"), valued in the
deciding seat's own interest, on hand-built Solo positions: the greedy and heuristic seats pick the
row that gives the A.I. least. Each position's tie is decided on many seeds, so a policy that drew
among the tied rows at random (every row worth the same) fails."""

from __future__ import annotations

import pytest
from helpers import ai_card_of, cell, clear_map, put, solo_game

from sim.codes import AiCard, AiTie, Dec
from sim.options import set_option
from sim.solo import ai_play
from sim.state import PF, B, G, M, Sup
from strategies.ai_tie import status_gain
from strategies.policy import option_values
from strategies.registry import load_strategies

HUMANS = {"greedy": 1, "heuristic": 2}  # strategy ids in W
SEEDS = range(8)


@pytest.fixture(scope="module")
def W():
    W, names = load_strategies(["random", "greedy", "heuristic"])
    assert names == ["random", "greedy", "heuristic"]
    return W


def two_palaces(st, r, ai):
    put(st, r, 6, 4, B.PALACE, ai)
    put(st, r, 9, 5, B.PALACE, ai)


def fort_or_cathedral(st, r, ai):
    """Four human workers on the Fort grid and four on the Cathedral grid: the grids with the most
    workers, a tie for the A.I.'s Major building card. Its 3 workers fill the Fort (the Fort's +5 on
    every district: +10 on its two Palaces, and 7 VP of spaces) or take 8 VP of Cathedral spaces."""
    two_palaces(st, r, ai)
    for m in (M.FORT, M.CATHEDRAL):
        st.major[m, :4] = 0


@pytest.mark.parametrize("human", HUMANS)
def test_grid_tie_keeps_the_ai_from_completing_the_fort(engine, W, human):
    r, _ = engine
    for seed in SEEDS:
        st, ai = solo_game(r, W, HUMANS[human], seed)
        fort_or_cathedral(st, r, ai)
        n0 = int(st.g[G.OPT_N])
        assert ai_play(st, r, ai, ai_card_of(r, AiCard.MAJOR), True)
        assert st.g[G.OPT_N] == n0 + 1  # the tie was the human's decision
        assert (st.major[M.CATHEDRAL] == ai).sum() == 3, seed
        assert (st.major[M.FORT] == ai).sum() == 0 and st.g[G.FORT_BUILT] == 0, seed


@pytest.mark.parametrize("human", HUMANS)
def test_ai_tie_rows_are_valued(engine, W, human):
    """The rows of a tie are not all worth the same, and the map is as it was after the valuation."""
    r, _ = engine
    st, ai = solo_game(r, W, HUMANS[human], 1)
    fort_or_cathedral(st, r, ai)
    set_option(st, 0, AiTie.GRID, M.FORT, 3, 0, 0)
    set_option(st, 1, AiTie.GRID, M.CATHEDRAL, 3, 0, 0)
    cells, owners, major, g = st.cell_b.copy(), st.cell_owner.copy(), st.major.copy(), st.g.copy()
    option_values(st, r, 0, Dec.AI_TIE, 2)
    fort, cathedral = st.vals[0], st.vals[1]
    assert fort < cathedral
    assert (st.cell_b == cells).all() and (st.cell_owner == owners).all() and (st.major == major).all() and (st.g == g).all()
    # an upgrade: its House beside a Road (a Palace there scores 5 more for it) or its other House
    clear_map(st)
    put(st, r, 6, 4, B.HOUSE, ai)
    put(st, r, 9, 5, B.HOUSE, ai)
    a, b = cell(r, 6, 4), cell(r, 9, 5)
    assert r.cell_district[a] != r.cell_district[b]
    st.roads[r.cell_district[a]] = 1
    set_option(st, 0, AiTie.UPGRADE, a, B.HOUSE, 0, 0)
    set_option(st, 1, AiTie.UPGRADE, b, B.HOUSE, 0, 0)
    option_values(st, r, 0, Dec.AI_TIE, 2)
    assert st.vals[0] < st.vals[1]
    assert st.cell_b[a] == B.HOUSE and st.cell_b[b] == B.HOUSE


@pytest.mark.parametrize("human", HUMANS)
def test_upgrade_tie_gives_the_ai_the_smaller_palace(engine, W, human):
    r, _ = engine
    a, b = cell(r, 6, 4), cell(r, 9, 5)
    for seed in SEEDS:
        st, ai = solo_game(r, W, HUMANS[human], seed)
        put(st, r, 6, 4, B.HOUSE, ai)
        put(st, r, 9, 5, B.HOUSE, ai)
        st.roads[r.cell_district[a]] = 1  # a Palace there is worth the Road's 5 more
        st.supply[Sup.PALACE] = 2
        assert ai_play(st, r, ai, ai_card_of(r, AiCard.BUILD), True)
        assert st.cell_b[b] == B.PALACE and st.cell_b[a] == B.HOUSE, seed


@pytest.mark.parametrize("human", HUMANS)
def test_status_tie_gives_the_ai_a_category_it_cannot_use(engine, W, human):
    """Four categories at Level I, tied for the A.I.'s "lowest legal" improvement: Construction swaps
    resources it never pays, Cards I draws and waives what it never uses; Worker and VP help it."""
    r, _ = engine
    for seed in SEEDS:
        st, ai = solo_game(r, W, HUMANS[human], seed)
        two_palaces(st, r, ai)
        st.pl[ai, PF.SILVER] = 5
        st.pl[ai, PF.STATUS_MARKERS] = 2
        assert ai_play(st, r, ai, ai_card_of(r, AiCard.STATUS), True)
        levels = [int(st.pl[ai, PF.ST_CONSTRUCTION + c]) for c in range(4)]
        assert levels in ([1, 0, 0, 0], [0, 0, 0, 1]), seed


def test_status_gain(engine, W):
    r, _ = engine
    st, ai = solo_game(r, W, HUMANS["heuristic"], 1)
    two_palaces(st, r, ai)
    w = st.w[0]
    assert status_gain(st, r, w, ai, 0, 1) == 0.0  # Construction: it pays no resources
    assert status_gain(st, r, w, ai, 3, 1) == 0.0 and status_gain(st, r, w, ai, 3, 2) == 0.0  # Cards I, II
    assert status_gain(st, r, w, ai, 1, 1) > 0.0  # a City Council worker each decade
    assert status_gain(st, r, w, ai, 1, 2) == 0.0  # Level II: the same one worker (its cost aside)
    assert status_gain(st, r, w, ai, 2, 1) > 0.0  # 25% on its Palace at each Scoring
    assert status_gain(st, r, w, ai, 3, 3) > 0.0  # Card status III scores its colours
