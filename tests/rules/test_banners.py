"""BANNERS: their salary discount (A. SALARY) and their VPs at the Scoring phase (VPS ASSIGNATION,
Banners; R-13).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

from helpers import scored, scoring_state

from sim.deck import salary_free
from sim.state import PF, VS


def test_salary_banners_example(blank, rules):
    """'owns 5 Affiliate cards and gained 2 banners: ignore 2 cards, pay 1 bronze for the 3 left.'"""
    st = blank
    st.pl[0, PF.BANNER_RED] = 2
    st.pl[0, PF.BANNER_BLUE] = 2
    st.pl[0, PF.BANNER_OCHER] = 1  # face-down: no discount
    assert salary_free(st, rules, 0) == 2
    st.pl[0, PF.ST_CARDS] = 3
    assert salary_free(st, rules, 0) == 5


def test_banners_score_by_face_up_count(blank, rules):
    """'Banners: The players gains 11 VPs x Era owning 6 face-up banners, 7 VPs x Era with 5 face-up
    banners, or 4 VPs with 4 face-up banner.' (R-13: all three x Era; 3 or fewer score 0)."""
    st, r = blank, rules
    scoring_state(st)
    first = PF.BANNER_BLACK
    st.pl[0, first:first + 4] = 2
    st.pl[1, first:first + 3] = 2
    st.pl[1, first + 3:first + 6] = 1  # face-down banners do not count
    st.pl[2, first:first + 6] = 2
    st.pl[3, first:first + 5] = 2
    got = scored(st, r, 2)[:4, VS.BANNERS]
    assert got.tolist() == [2 * r.banner_vp[4], 2 * r.banner_vp[3], 2 * r.banner_vp[6], 2 * r.banner_vp[5]]
    assert r.banner_vp[3] == 0 and r.banner_vp[4] > 0


def _rules_with(**scoring):
    from sim.rules import load_rules_doc, rules_from_doc

    doc = load_rules_doc()
    for k, v in scoring.items():
        doc["scoring"][k]["value"] = v
    return rules_from_doc(doc)


def test_two_step_banners_go_face_down_then_face_up_one_step_banners_at_once(blank, rules):
    """'Black (require 2 actions) ... place it face-down ... When the player repeats the same
    action, flip the banner.' 'Green ... place it face-up.'"""
    from sim.banners import FACE_DOWN, FACE_UP, banner_step, face_up_banners
    from sim.state import Banner

    st, r = blank, rules
    for b in Banner:
        assert r.banner_steps[b] == (1 if b in (Banner.GREEN, Banner.PURPLE) else 2)
    banner_step(st, r, 0, Banner.BLACK)
    assert st.pl[0, PF.BANNER_BLACK] == FACE_DOWN and face_up_banners(st, 0) == 0
    banner_step(st, r, 0, Banner.BLACK)
    banner_step(st, r, 0, Banner.BLACK)  # a third time: stays face-up
    assert st.pl[0, PF.BANNER_BLACK] == FACE_UP
    banner_step(st, r, 0, Banner.GREEN)
    assert st.pl[0, PF.BANNER_GREEN] == FACE_UP and face_up_banners(st, 0) == 2
    # the rules file decides: black as a one-step banner
    one = _rules_with(banner_steps=[1, 1, 1, 2, 2, 2])
    banner_step(st, one, 1, Banner.BLACK)
    assert st.pl[1, PF.BANNER_BLACK] == FACE_UP


def test_purple_banner_at_the_rules_number_of_affiliate_cards(blank, rules):
    """'Purple. When a player owns 9 Affiliate cards, they gain the purple banner' (face-up)."""
    from sim.deck import gain_card
    from sim.rules import RK
    from sim.state import N_CARDS, N_CHARACTERS, Loc

    st, r = blank, rules
    assert r.k[RK.PURPLE_BANNER_CARDS] == 9
    st.card_loc[N_CHARACTERS:] = Loc.DECK
    deck = list(range(N_CHARACTERS, N_CARDS))
    for i in range(8):
        gain_card(st, r, 0, deck[i])
    assert st.pl[0, PF.BANNER_PURPLE] == 0
    gain_card(st, r, 0, deck[8])
    assert st.pl[0, PF.BANNER_PURPLE] == 2
    seven = _rules_with(purple_banner_cards=7)
    for i in range(7):
        gain_card(st, seven, 1, deck[20 + i])
    assert st.pl[1, PF.BANNER_PURPLE] == 2


def test_banner_steps_must_be_one_or_two():
    import pytest

    from sim.rules import RulesError

    with pytest.raises(RulesError, match=r"scoring.banner_steps: each must be 1 or 2"):
        _rules_with(banner_steps=[2, 1, 1, 3, 2, 2])


def test_ocher_banner_flips_when_the_player_joins_another_construction(blank):
    """'Ocher (require 2 actions). When a player joins a Major Building construction and then the
    building is built, they gain the ocher banner: place it face-down ... When the player joins
    another Major Building construction, flip the banner face-up.' scoring.ocher_flip_on_join (a
    reading): the flip comes with the joining, the building need not be built; workers already on
    another grid when the face-down banner comes do not flip it. With the reading off, the flip waits
    for the completion of a second building joined."""
    from helpers import clear_map

    from sim.banners import FACE_DOWN, FACE_UP
    from sim.major_buildings import n_spaces, place_on_grid, recover_completed
    from sim.rules import load_rules
    from sim.state import M

    st = blank
    for on in (True, False):
        r = load_rules(overrides={"scoring": {"ocher_flip_on_join": on}})
        clear_map(st)
        st.major[:] = -1
        st.pl[:4, PF.BANNER_OCHER] = 0
        st.pl[:4, PF.WORKERS] = 20
        st.pl[:4, PF.CC_WORKERS] = 0
        place_on_grid(st, r, 1, M.WALLS, 1)  # seat 1 joins the Walls, not completed
        place_on_grid(st, r, 0, M.ROADS, 1)
        place_on_grid(st, r, 1, M.ROADS, n_spaces(st, r, M.ROADS) - 1)  # the Roads are built
        assert st.pl[0, PF.BANNER_OCHER] == st.pl[1, PF.BANNER_OCHER] == FACE_DOWN
        recover_completed(st, r)
        place_on_grid(st, r, 0, M.CATHEDRAL, 1)  # seat 0 joins another construction
        assert st.pl[0, PF.BANNER_OCHER] == (FACE_UP if on else FACE_DOWN)
        place_on_grid(st, r, 2, M.WALLS, n_spaces(st, r, M.WALLS) - 1)  # the Walls seat 1 had joined are built
        assert st.pl[1, PF.BANNER_OCHER] == (FACE_DOWN if on else FACE_UP)
        assert st.pl[2, PF.BANNER_OCHER] == FACE_DOWN
