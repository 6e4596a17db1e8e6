"""sim.state: the state record's groups (game state, records, work areas), the slot enums and the
sizes derived from them. Numba does not check bounds, so a slot enum with a gap or a duplicate, or
a size typed by hand that disagrees with its enum, would write past an array silently."""

from __future__ import annotations

from enum import IntEnum

import numpy as np
import pytest

from sim import codes, records, rules, state
from sim.game import allocate, copy_state
from sim.rules import load_rules
from sim.state import GAME_FIELDS, RECORD_FIELDS, WORK_FIELDS, G, State
from strategies import policy
from strategies.seats import SEAT_GAME_FIELDS, SEAT_WORK_FIELDS, SeatData
from strategies.weights import N_WEIGHTS

# every enum that names the slots of an array (its values index that array)
SLOT_ENUMS = [state.Res, state.B, state.M, state.Sup, state.G, state.TL, state.PF, state.VS, state.Mini, state.TG,
              rules.RK, rules.AP, codes.Dec, codes.Ch, codes.Law, codes.Side, codes.AiCard, codes.AiTie, policy.F]


@pytest.mark.parametrize("enum", SLOT_ENUMS, ids=lambda e: e.__name__)
def test_slot_enums_are_contiguous_from_zero(enum: type[IntEnum]):
    values = sorted(int(m) for m in enum)
    assert values == list(range(len(values))), f"{enum.__name__}: values {values}"


def test_sizes_follow_their_enums():
    assert (state.N_G, state.N_PF, state.N_VS, state.N_SUP, state.N_TL) == (len(G), len(state.PF), len(state.VS), len(state.Sup),
                                                                            len(state.TL))
    assert (state.N_BUILDING_TYPES, state.N_MAJOR) == (len(state.B), len(state.M))
    assert (rules.N_RK, rules.N_AP, codes.N_DEC, codes.N_ACT) == (len(rules.RK), len(rules.AP), len(codes.Dec), max(codes.Act) + 1)
    assert state.N_CHARACTERS == len(codes.Ch) == state.N_GROUPS
    assert policy.N_FEATURES == len(policy.F) <= policy.N_WEIGHTS
    assert state.N_BANNERS == len(state.BANNER_NAMES) == state.PF.BANNER_OCHER - state.PF.BANNER_BLACK + 1
    assert len(state.VS_NAMES) == len(state.VS)
    assert records.RG.BUILT == records.RG.VP_SRC + len(state.VS) and records.RG.TALLY == records.RG.PROBE_DECADE + 1
    assert records.N_RG == records.RG.TALLY_G + state.N_TG and records.N_RD == records.RD.TALLY_G + state.N_TG
    assert state.N_TS == state.TS.XW_WON_MINI + len(state.Mini) - 1 and state.N_TG == len(state.TG)
    assert records.N_ACTS == len(codes.Act) and max(records.ACT_CODES) < codes.N_ACT  # State.acts is indexed by code


def test_every_field_is_in_exactly_one_group():
    groups = list(GAME_FIELDS) + list(RECORD_FIELDS) + list(WORK_FIELDS)
    assert sorted(groups) == sorted(State._fields)
    assert len(groups) == len(set(groups))
    assert {"g", "pl", "cell_b", "card_loc", "rng"} <= set(GAME_FIELDS)
    assert {"opts", "own_key", "drawn", "plan_need"} <= set(WORK_FIELDS)
    assert {"acts", "gained", "cards_taken", "tally", "tally_g"} <= set(RECORD_FIELDS)  # what a seat played: not copied into a search's state
    seat = list(SEAT_GAME_FIELDS) + list(SEAT_WORK_FIELDS)
    assert sorted(seat) == sorted(SeatData._fields) and not set(seat) & set(State._fields)
    assert "w" in SEAT_GAME_FIELDS and {"vals", "bval", "memo_w"} <= set(SEAT_WORK_FIELDS)


def test_the_state_record_is_the_engines_fields_then_the_players():
    """The players' fields (weights, the policy's scratch and memos) are declared by strategies.seats
    and reach the record through sim.seam; the engine's State does not name them (issue 37)."""
    st = allocate(load_rules())
    assert st.dtype.names == State._fields + SeatData._fields
    assert st.w.shape == (state.MAX_PLAYERS, N_WEIGHTS) and st.memo_w.shape == st.w.shape
    assert "N_WEIGHTS" not in vars(state)


def test_copy_state_copies_the_game_state_and_nothing_else(engine):
    r, _ = engine
    src, dst = allocate(r), allocate(r)
    rng = np.random.default_rng(3)
    for name in src.dtype.names:
        a = src[name]
        a[...] = rng.integers(1, 100, a.shape).astype(a.dtype)
        dst[name][...] = 0
    copy_state(dst, src)
    for name in GAME_FIELDS + SEAT_GAME_FIELDS:
        want = src[name].copy()
        if name == "g":
            want[G.LOG_ON] = 0  # a copy never logs
        assert np.array_equal(dst[name], want), f"game field {name} not copied"
    for name in RECORD_FIELDS + WORK_FIELDS + SEAT_WORK_FIELDS:
        assert not dst[name].any(), f"{name} is not game state but was copied"
