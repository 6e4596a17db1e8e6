"""The search of ``trinidad balance`` (trinidad.balance.search) on a game whose rates are known: the rounds' games
replaced by readings of a linear model, so what the search proposes is arithmetic. The recheck (module docstring,
5.) reads the rounds' best point on its own seed and steps from there: where the rounds' deals read a Character
stronger than it is (their luck), the rounds stop at a point they think fair, the recheck sees it out of the band,
and its step brings the proposal back to the fair value."""

from __future__ import annotations

import numpy as np
import pytest

from trinidad.balance import search as search_mod
from trinidad.balance.spec import RECHECK, SEARCH, spec_from_dict

SPEC = {"player": "heuristic", "players": 4, "seed": 3, "budget": 480, "rounds": 1, "verify_games": 48, "target": {"tolerance": 0.02},
        "knobs": [{"key": "character.captain_vp", "min": 4, "max": 12, "probe": 2}]}
SLOPE = 0.02  # the Captain's win rate a VP of his card
FAIR_AT = 6  # his card's value where he wins his fair share
LUCK = 0.05  # what the rounds' deals add to his rate (the recheck's and the truth's deals add nothing)


def _fake_play(calls: list):
    def play(self, tag, points, games, purpose=SEARCH):
        calls.append((tag, purpose, games, [v["character.captain_vp"] for _, v in points]))
        self.spent += games * len(points)
        cap = [r.label for r in self.spec.rows].index("Captain")
        out = {}
        for name, values in points:
            rate = 0.25 + SLOPE * (values["character.captain_vp"] - FAIR_AT) + (LUCK if purpose == SEARCH else 0.0)
            y = np.full(len(self.spec.rows), (3 - rate) / 11)  # a 4-player game seats 4 of the 12: the rates sum to 3
            y[cap] = rate
            out[name] = np.tile(y, (games, 1))
        return out

    return play


@pytest.mark.parametrize(("recheck", "steps"), [(48, None), (48, 3), (0, None)])
def test_the_recheck_steps_from_fresh_deals_where_the_rounds_luck_misled_them(tmp_path, monkeypatch, recheck, steps):
    calls: list = []
    monkeypatch.setattr(search_mod.Rounds, "play", _fake_play(calls))
    more = {"recheck_steps": steps} if steps is not None else {}
    spec = spec_from_dict(SPEC | {"out": str(tmp_path), "recheck_games": recheck} | more, tmp_path / "spec.toml")
    found = search_mod._search(spec, "local", 1, False, False, print)
    cap = [r.label for r in spec.rows].index("Captain")
    # the rounds: the rules (8) and his probe, then the step to 4 (and its probe) where the lucky deals read him at 26%, in
    # his band
    assert [(c[0], c[1], c[3]) for c in calls[:2]] == [("0", SEARCH, [8, 10]), ("1", SEARCH, [4, 6])]
    assert [p.values["character.captain_vp"] for p in found.points] == [8, 4] and found.points[1].met
    assert found.spent == 96 * 4 and found.rounds[1]["chosen"] == ["character.captain_vp"]
    if not recheck:  # no recheck: the rounds' luck is the proposal
        assert len(calls) == 2 and found.proposal == {"character.captain_vp": 4} and not found.rechecked and found.recheck == {}
        return
    # the recheck: 4 on its own deals (21%, out of 23..27%), the step from there to 6 on the same deals (25%): the proposal;
    # allowed more steps, the recheck stops there, its best point in every band
    assert [(c[0], c[1], c[2], c[3]) for c in calls[2:]] == [("recheck", RECHECK, 48, [4]), ("recheck-step", RECHECK, 48, [6])]
    assert found.recheck.get("stopped") == ("a point rechecked is within the target" if steps else None)
    first, step = found.rechecked
    assert first.rate[cap] == pytest.approx(0.21) and not first.met and step.rate[cap] == pytest.approx(0.25) and step.met
    assert found.best is step and found.best.round == "recheck step" and found.proposal == {"character.captain_vp": FAIR_AT}
    assert found.recheck["from_round"] == 1 and found.recheck["chosen"] == "recheck step" and found.recheck["steps"][0]["point"] == step.values
    assert found.recheck_spent == 2 * 48 and found.spent == 96 * 4 and found.recheck["seed"] == spec.derived_seed(RECHECK)
    assert not found.needed  # the proposal is in every band: no row out of reach
