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

from sim.cards import salary_free
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
