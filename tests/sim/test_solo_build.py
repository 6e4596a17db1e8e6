"""sim/solo.py: the A.I.'s Build card for the actual cost of the building it wants (FAQ SOLO GAME:
"A.I. uses Actual cost. If A.I. doesn't have enough workers, you must draw another card"), played
through the A.I.'s turn (:func:`sim.solo.ai_turn`: an unplayable card is followed by another)."""

from __future__ import annotations

from helpers import ai_card_of, cell, put, solo_game

from sim.codes import AiCard, Ev
from sim.rules import RK
from sim.solo import ai_play, ai_turn, wanted_building
from sim.state import N_AI_CARDS, PF, B, G, Sup


def next_cards(st, *cards):
    """The A.I.'s next draws, in this order (its face-down cards from the top)."""
    top = int(st.g[G.AI_TOP])
    rest = [c for c in st.ai_deck[top:] if c not in cards]
    st.ai_deck[top:] = list(cards) + rest
    assert st.g[G.AI_TOP] + len(cards) < N_AI_CARDS - 2


def house_lot_and_palace(st, r, ai, workers):
    put(st, r, 6, 4, B.HOUSE, ai)
    put(st, r, 9, 4, B.LOT, ai)
    st.supply[Sup.PALACE] = 2
    st.pl[ai, PF.WORKERS] = workers
    st.pl[ai, PF.ST_WORKER] = 0


def test_the_building_it_wants_is_the_highest_step(engine):
    r, W = engine
    st, ai = solo_game(r, W)
    house_lot_and_palace(st, r, ai, 5)
    assert wanted_building(st, r, ai) == B.PALACE
    st.supply[Sup.PALACE] = 0  # no Palace left: a House on its Lot
    assert wanted_building(st, r, ai) == B.HOUSE
    st.pl[ai, PF.HOUSES] = 0  # no House either: a new Lot
    assert wanted_building(st, r, ai) == B.LOT
    st.pl[ai, PF.LOTS] = 0
    assert wanted_building(st, r, ai) == B.NONE


def test_short_of_workers_for_its_palace_it_draws_another_card(engine):
    """A House, a Palace available and 2 workers (a Palace needs 3): the Build card builds neither a
    House on its Lot nor a new Lot; the next card (City Council) is played instead."""
    r, W = engine
    st, ai = solo_game(r, W)
    house_lot_and_palace(st, r, ai, r.k[RK.AI_PALACE_WORKERS] - 1)
    build, council = ai_card_of(r, AiCard.BUILD), ai_card_of(r, AiCard.COUNCIL)
    next_cards(st, build, council)
    st.g[G.LOG_ON] = 1
    cells, points, n0 = st.cell_b.copy(), int(st.pl[ai, PF.COUNCIL]), int(st.g[G.LOG_N])
    ai_turn(st, r, ai)
    assert (st.cell_b == cells).all()  # nothing built: no House on the Lot, no new Lot
    assert st.pl[ai, PF.COUNCIL] == points + r.k[RK.AI_COUNCIL_POINTS]
    drawn = [(int(e[2]), int(e[4])) for e in st.log[n0:st.g[G.LOG_N]] if e[0] == Ev.AI_CARD]
    assert drawn == [(build, 0), (council, 1)]  # the Build card drawn and not playable, then another
    # with the third worker the same card builds the Palace on its House
    st.pl[ai, PF.WORKERS] = r.k[RK.AI_PALACE_WORKERS]
    st.pl[ai, PF.WORKERS_PLACED] = 0
    assert ai_play(st, r, ai, build, True)
    assert st.cell_b[cell(r, 6, 4)] == B.PALACE and st.cell_b[cell(r, 9, 4)] == B.LOT


def test_short_of_workers_for_its_house_it_builds_no_lot(engine):
    """No Palace to build; it wants a House on its Lot (2 workers) and has 1: no new Lot either."""
    r, W = engine
    st, ai = solo_game(r, W)
    put(st, r, 9, 4, B.LOT, ai)
    st.pl[ai, PF.WORKERS] = 1
    st.pl[ai, PF.ST_WORKER] = 0
    assert wanted_building(st, r, ai) == B.HOUSE and st.pl[ai, PF.LOTS] > 0
    assert not ai_play(st, r, ai, ai_card_of(r, AiCard.BUILD), False)
