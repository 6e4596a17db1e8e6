"""sim.records: what each seat played (the games record's built_*, act_*, gained_*, cards_taken,
cards_used columns) and the Scoring decades, checked against counts the engine does not make: a
Python player's own note of its TURN rows, the event log, and the rules' shape of a game."""

from __future__ import annotations

import numpy as np
import pytest

from sim.codes import Act, Ev
from sim.records import ACT_CODES, GAME_COLUMNS, RD, RG, TALLY_COLUMNS, TALLY_G_COLUMNS, act_column
from sim.state import AI_STRATEGY, PF, G, Res
from strategies import python_bridge
from strategies.match import run_game
from strategies.registry import load_strategies


def _acts(st, seat) -> dict[str, int]:
    return {Act(a).name: int(st.rec_game[seat, act_column(a)]) for a in ACT_CODES}


def test_game_columns_name_the_play_records():
    assert GAME_COLUMNS[RG.ACTS:RG.GAINED] == [f"act_{a.name.lower()}" for a in Act]
    assert GAME_COLUMNS[RG.BUILT] == "built_lot" and GAME_COLUMNS[RG.GAINED + Res.METAL] == "gained_metal"
    assert GAME_COLUMNS[RG.CARDS_TAKEN:RG.TALLY] == ["cards_taken", "cards_used", "probe_decade"]
    assert GAME_COLUMNS[RG.TALLY:] == TALLY_COLUMNS + TALLY_G_COLUMNS  # the war tallies close the row (tests/sim/test_war_records.py)
    assert act_column(Act.F_CARD) == RG.GAINED - 1


def test_action_counts_are_the_turn_rows_a_python_player_picked(engine):
    """Every TURN row a Python player picks reaches it as a decision, except a decision with one row
    (the engine takes it without asking: PASS with no worker left); each seat passes once a decade."""
    r, _ = engine
    W, _ = load_strategies(["py:helpers:TurnLog", "heuristic"])
    log = python_bridge._REGISTRY[python_bridge.register("helpers:TurnLog")]
    for n, seed in ((3, 21), (4, 22)):
        log.picks.clear()
        st = run_game(r, W, n, seed, [0, 1] * (n // 2) + [0] * (n % 2))
        for s in range(n):
            got = _acts(st, s)
            mine = {a.name: sum(1 for seat, act in log.picks if seat == s and act == a.name) for a in Act}
            if s % 2 == 0:  # the Python seats
                assert {a: c for a, c in got.items() if a != "PASS"} == {a: c for a, c in mine.items() if a != "PASS"}
                assert mine["PASS"] <= got["PASS"]
                assert sum(mine.values()) > 50
            assert got["PASS"] == 12, f"seat {s}: one PASS per decade"
            assert st.rec_game[s, RG.ACTS:RG.GAINED].sum() == sum(got.values())


def test_counts_agree_with_the_event_log(engine):
    """The log's events of the actions that only a TURN row carries out are one per row of that kind
    (a heuristic and a random game), and an Affiliate card taken into a hand is a kept draw, a pile's top or a purchase."""
    r, _ = engine
    W, _ = load_strategies(["heuristic", "random", "greedy"])
    for seats, seed in (([0, 1, 2, 0], 3), ([1, 2, 1], 8)):
        st = run_game(r, W, len(seats), seed, seats, log=True)
        ev = st.log[:st.g[G.LOG_N]]
        for s in range(len(seats)):
            mine = ev[ev[:, 1] == s]
            for code, act in ((Ev.PASS, Act.PASS), (Ev.SHIP, Act.SHIP), (Ev.COUNCIL, Act.COUNCIL), (Ev.ORDER, Act.ORDER),
                              (Ev.MILICIANO, Act.MILICIANO), (Ev.REMOVE, Act.REMOVE), (Ev.WAREHOUSE, Act.F_WAREHOUSE),
                              (Ev.REMOVE_LOT, Act.F_REMOVE_LOT)):
                assert (mine[:, 0] == code).sum() == st.rec_game[s, act_column(act)], (s, act.name)
            taken = ((mine[:, 0] == Ev.DRAW) & (mine[:, 3] >= 0)).sum() + (mine[:, 0] == Ev.TAKE_PILE).sum() + \
                (mine[:, 0] == Ev.CARD_BUY).sum()
            assert st.rec_game[s, RG.CARDS_TAKEN] == taken > 0
            assert st.rec_game[s, RG.CARDS_USED] == st.card_uses_seat[s]


def test_gains_and_buildings(engine):
    """Precious and metal start at 0, so what a seat holds at the end it gained; buildings built
    are the game's Minor building counts. (Metal comes mostly from the Ship's loads: the random
    player gets some, the heuristic and greedy ones hardly ever.)"""
    r, _ = engine
    W, _ = load_strategies(["heuristic", "greedy", "random"])
    tot = np.zeros(4, np.int64)
    for seed, seats in [(100 + k, [0, 1, 0, 1]) for k in range(3)] + [(200 + k, [2, 2, 2, 2]) for k in range(30)]:
        st = run_game(r, W, 4, seed, seats)
        for s in range(4):
            g = st.rec_game[s]
            assert g[RG.GAINED + Res.PRECIOUS] >= st.pl[s, PF.PRECIOUS] and g[RG.GAINED + Res.METAL] >= st.pl[s, PF.METAL]
            assert list(g[RG.BUILT:RG.ACTS]) == list(st.built[s, 1:15])
            tot += g[RG.GAINED:RG.GAINED + 4]
            assert g[RG.PROBE_DECADE] == 0
    assert (tot > 0).all()


@pytest.mark.parametrize("first_game", [False, True])
def test_scoring_decades_are_marked(engine, first_game):
    r, W = engine
    st = run_game(r, W, 3, 5, [0, 1, 1], first_game=first_game)
    last = 8 if first_game else 12
    scoring = st.rec_decade[:last, 0, RD.SCORING].tolist()
    assert scoring == [0, 0, 0, 1, 0, 0, 0, 2] + ([0, 0, 0, 3] if not first_game else [])
    assert (st.rec_decade[:last, :3, RD.SCORING] == st.rec_decade[:last, :1, RD.SCORING]).all()


def test_the_solo_ai_and_the_rollout_family_are_counted(engine):
    """The A.I. plays Solo cards, not TURN rows: each card played counts as its main action; a
    rollout seat's turns are counted once, not its simulations'."""
    r, _ = engine
    W, _ = load_strategies(["heuristic", "rollout"])
    st = run_game(r, W, 2, 7, [0, AI_STRATEGY])
    ai = _acts(st, 1)
    assert ai["PASS"] == 12 and sum(ai.values()) > 30 and ai["F_CARD"] == 0
    st = run_game(r, W, 2, 9, [1, 0])
    for s in range(2):  # simulated turns counted in the real game would give more than one PASS a decade
        assert _acts(st, s)["PASS"] == 12
    assert sum(_acts(st, 0).values()) > 12
