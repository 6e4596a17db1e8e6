"""The policy's card series term (``K.SERIES``, :func:`strategies.policy_terms._series_change`):
a card kept, taken from a pile, discarded for a salary or burnt is worth the card series VP it adds
or takes away at the Scorings to come (SCORING PHASE, Cards series: 3 cards of a colour 1 VP, 4
cards 2 VP, x Era), on hand-built positions; with the coefficient at 0 (the shipped heuristic's)
every card is worth the same whatever its colour."""

from __future__ import annotations

import pytest
from helpers import clear_hands, give, script

from sim.codes import Act, Dec
from sim.deck import card_group, put_on
from sim.options import set_option
from sim.series import PILE_GAME, scorings_ahead
from sim.state import GROUP_SIZE, N_CHARACTERS, PF, G, Loc
from strategies.policy import K, option_values


def colour_cards(g):
    """The card numbers of the Affiliates of colour (Character group) ``g``."""
    return [N_CHARACTERS + g * GROUP_SIZE + j + 1 for j in range(GROUP_SIZE)]


def hand_of_three(st, seat):
    """The seat holds its Character card and two Affiliates of its colour: a series of 3 (1 VP x
    Era); returns (its colour, a third Affiliate of that colour, an Affiliate of another colour)."""
    clear_hands(st)
    g = int(st.pl[seat, PF.CHARACTER])
    assert st.card_loc[g] == Loc.HAND + seat  # the Character card counts in its colour's series
    same = colour_cards(g)
    give(st, seat, same[0])
    give(st, seat, same[1])
    other = colour_cards((g + 1) % 12)[0]
    return g, same[2] - 1, other - 1


@pytest.fixture()
def decade1(blank):
    st = blank
    st.g[G.DECADE] = 1
    script(st, 0, vp=1.0, card=1.0)
    return st


def eras_to_come(r, st):
    return scorings_ahead(r, int(st.g[G.DECADE]) - 1, int(st.g[G.LAST_DECADE]))[1]


def test_keep_values_the_series_a_card_completes(engine, decade1):
    r, _ = engine
    st = decade1
    g, third, other = hand_of_three(st, 0)
    assert card_group(third) == g and card_group(other) != g
    eras = eras_to_come(r, st)
    assert eras == 6  # Scorings at the end of Eras 1, 2 and 3 (x1, x2, x3)
    set_option(st, 0, third)
    set_option(st, 1, other)
    set_option(st, 2, -1)
    st.w[0, K.KEEP_OWN] = 1.0  # the own-colour preference apart: only the series differs
    option_values(st, r, 0, int(Dec.KEEP), 3)
    flat = st.vals[:3].copy()
    assert flat[0] == flat[1]  # K.SERIES 0: a card is a card
    st.w[0, K.SERIES] = 1.0
    option_values(st, r, 0, int(Dec.KEEP), 3)
    # 4 cards of the colour: 2 VP instead of 1, at each of the three Scorings (x Era): 6 VP more; the
    # other colour's single card scores nothing
    assert st.vals[0] - flat[0] == pytest.approx(6.0)
    assert st.vals[1] == pytest.approx(flat[1])
    assert st.vals[2] == flat[2] == 0.0


def test_giving_up_a_card_of_a_series_costs_its_vp(engine, decade1):
    r, _ = engine
    st = decade1
    g, _, other = hand_of_three(st, 0)
    give(st, 0, other + 1)
    mine = colour_cards(g)[0] - 1
    st.w[0, K.SERIES] = 1.0
    # SALARY: discard a card of the series (3 -> 2 cards: the 1 VP x Era lost) or the odd one
    set_option(st, 0, 0, mine)
    set_option(st, 1, 0, other)
    option_values(st, r, 0, int(Dec.SALARY), 2)
    assert st.vals[1] - st.vals[0] == pytest.approx(6.0)
    # BURN AN AFFILIATE CARD (a free action): the same
    set_option(st, 0, int(Act.F_BURN), mine)
    set_option(st, 1, int(Act.F_BURN), other)
    option_values(st, r, 0, int(Dec.TURN), 2)
    assert st.vals[1] - st.vals[0] == pytest.approx(6.0)


def test_a_face_up_pile_top_is_valued_by_its_colour(engine, decade1):
    r, _ = engine
    st = decade1
    g, third, other = hand_of_three(st, 0)
    st.w[0, K.SERIES] = 1.0
    put_on(st, other, Loc.GAME_DISCARD)
    put_on(st, third, Loc.PILE + 1)
    set_option(st, 0, -1)
    set_option(st, 1, PILE_GAME)
    set_option(st, 2, 1)
    option_values(st, r, 0, int(Dec.DRAW_SOURCE), 3)
    assert st.vals[2] - st.vals[1] == pytest.approx(6.0)
    set_option(st, 0, int(Act.CARD_PILE), PILE_GAME)
    set_option(st, 1, int(Act.CARD_PILE), 1)
    option_values(st, r, 0, int(Dec.TURN), 2)
    assert st.vals[1] - st.vals[0] == pytest.approx(6.0)


def test_no_scoring_left_no_series_value(engine, decade1):
    r, _ = engine
    st = decade1
    _, third, other = hand_of_three(st, 0)
    st.g[G.DECADE] = st.g[G.LAST_DECADE] + 1  # after the last Scoring
    st.w[0, K.SERIES] = 1.0
    st.w[0, K.KEEP_OWN] = 1.0
    set_option(st, 0, third)
    set_option(st, 1, other)
    option_values(st, r, 0, int(Dec.KEEP), 2)
    assert st.vals[0] == st.vals[1]
