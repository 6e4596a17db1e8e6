"""trinidad.lab.policy_gap: the search's real TURN choices beside what its simulated self would play, and the rows
strategies.search.record_choice_rows keeps for it."""

from __future__ import annotations

import numpy as np
import pytest

from sim.codes import Act
from sim.compiled_parts import for_players
from sim.game import allocate
from sim.rng import player_seeds
from strategies.registry import load_strategies
from strategies.rollout import PH, new_labels
from strategies.weights import N_FEATURES, N_WEIGHTS
from trinidad.batch import play_batch
from trinidad.lab.policy_gap import GapError, choice_rows, gap, main, simulated_pick


def _tiny(tmp_path, forbid='"major"'):
    p = tmp_path / "tiny.toml"
    p.write_text('family = "search"\nbase = "heuristic"\n[search]\nbudget = 4\nwidth = 3\nhorizon = 0\nvalue = "prior"\n'
                 f'rollout_forbid = {forbid}\nrollout_forbid_seats = "all"\n')
    return str(p)


def test_every_legal_row_is_kept_with_the_row_taken_and_no_game_changes(engine, tmp_path):
    """Keeping the rows plays the same games; each kept decision has its rows 0..k-1 and one taken; the seats'
    values split by feature weight add up to the heuristic's value (strategies.policy.turn_value_basis) on every
    row but a Council vote's call (a maximum over the votes); the rows are the same on 1 or 2 threads."""
    r, _ = engine
    W, _ = load_strategies([_tiny(tmp_path), "heuristic"])
    seeds = player_seeds(31, 4, 0, 2)
    strat = np.array([[0, 1, 0, 1]] * 2)
    plain = play_batch(r, W, 4, seeds, strat, threads=1)
    labels = new_labels(allocate(for_players(r, strat)), 0, 0, 60_000)
    kept = play_batch(r, W, 4, seeds, strat, labels=labels)
    assert all(np.array_equal(a, b) for a, b in zip(plain, kept))
    n, decisions = int(labels[4][2]), int(labels[4][3])
    assert decisions > 50 and 0 < n < labels[5].shape[0] and not labels[5][n:].any()
    rows = labels[5][:n].astype(np.float64)
    dec = rows[:, PH.DECISION].astype(int)
    assert np.array_equal(np.unique(dec), np.arange(decisions)) and np.all(np.diff(dec) >= 0)
    assert np.array_equal(np.bincount(dec, rows[:, PH.CHOSEN]), np.ones(decisions))
    per = np.bincount(dec)
    assert per.min() >= 2 and np.array_equal(rows[:, PH.ROW], np.concatenate([np.arange(p) for p in per]))
    assert set(rows[:, PH.SEAT].astype(int)) == {0, 2}  # the search seats only
    ch = rows[:, PH.CHARACTER].astype(int)
    w = np.stack([W[0, N_WEIGHTS * (1 + c) + 1:N_WEIGHTS * (1 + c) + N_FEATURES] for c in range(12)])[ch]
    rebuilt = rows[:, PH.BASIS] + np.einsum("ij,ij->i", rows[:, PH.BASIS + 1:], w)
    linear = rows[:, PH.ACT] != Act.F_VOTE
    assert linear.sum() > 1000
    np.testing.assert_allclose(rebuilt[linear], rows[linear, PH.VALUE], rtol=1e-4, atol=1e-3)  # float32 columns
    one = choice_rows(r, W, 0, 4, 2, 5, threads=1)
    two = choice_rows(r, W, 0, 4, 2, 5, threads=2)
    assert np.array_equal(one, two) and len(one) > 1000


def _rows(decisions):
    """PH rows from [(act, value, chosen), ...] per decision."""
    out = []
    for d, rows in enumerate(decisions):
        for i, (act, value, chosen) in enumerate(rows):
            y = np.zeros(len(PH))
            y[PH.DECISION], y[PH.ROW], y[PH.ACT], y[PH.VALUE], y[PH.CHOSEN] = d, i, int(act), value, chosen
            out.append(y)
    return np.array(out)


def test_the_simulated_pick_drops_the_forbidden_acts_only_while_a_main_action_is_left_and_shares_ties():
    major = 1 << Act.MAJOR
    rows = _rows([
        [(Act.MAJOR, 9.0, 0), (Act.COUNCIL, 2.0, 1), (Act.BUILD, 1.0, 0)],  # MAJOR dropped: COUNCIL
        [(Act.MAJOR, 9.0, 1), (Act.F_BURN, 3.0, 0)],  # no other main action: MAJOR stays
        [(Act.PASS, 1.0, 0), (Act.ORDER, 1.0, 1), (Act.BUILD, 0.5, 0)],  # a tie: half each
    ])
    np.testing.assert_array_equal(simulated_pick(rows, major), [0, 1, 0, 1, 0, 0.5, 0.5, 0])
    np.testing.assert_array_equal(simulated_pick(rows, 0)[:3], [1, 0, 0])  # nothing forbidden
    res = gap(rows, major)
    assert res["decisions"] == 3 and res["forbid"] == ["major"]
    assert res["agreement"] == pytest.approx((1 + 1 + 0.5) / 3)
    assert res["acts"]["major"] == {"search": pytest.approx(1 / 3), "simulated": pytest.approx(1 / 3), "offered": pytest.approx(2 / 3)}
    assert res["acts"]["pass"]["simulated"] == pytest.approx(0.5 / 3) and res["acts"]["pass"]["search"] == 0
    assert sum(v["search"] for v in res["acts"].values()) == pytest.approx(1)
    assert sum(v["simulated"] for v in res["acts"].values()) == pytest.approx(1)


def test_the_command_refuses_a_strategy_that_does_not_search(engine, capsys):
    assert main(["--strategy", "heuristic", "--games", "1"]) == 2
    assert "not a search-family strategy" in capsys.readouterr().err
    with pytest.raises(GapError, match="no TURN decision"):
        gap(np.zeros((0, len(PH))), 0)
