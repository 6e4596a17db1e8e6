"""Affiliate cards as components: A. START OF THE DECADE PHASE (DRAW CARDS, SALARY), the deck and the
discard piles. The cards' own powers are tested in tests/cards, one file per Character group.

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

import numpy as np
from helpers import pile_size, set_affiliates, set_items

from sim.deck import PILE_GAME, n_affiliates, nonempty_piles, pay_salary, salary_free, top_of
from sim.rules import RK
from sim.state import N_CARDS, N_CHARACTERS, PF, VS, Loc, Sup
from strategies.policy import FAMILY_GREEDY, F, default_weights


def test_top_of_a_pile_and_the_nonempty_piles_on_any_layout(blank):
    """The top of the deck or a discard pile is its card with the highest ``card_seq`` (C.7 SCORING,
    A. DRAW CARDS: cards are drawn from the top and discarded onto it). ``top_of`` and
    ``nonempty_piles`` are branch-free scans: checked here against the plain definition on random
    layouts, with equal ``card_seq`` values (a blank state's, before any shuffle: the lowest id
    wins), and with empty piles."""
    st = blank
    rng = np.random.default_rng(5)
    locs = np.array([Loc.DECK, Loc.GAME_DISCARD, Loc.BOX] + [Loc.HAND + s for s in range(4)] + [Loc.PILE + s for s in range(5)])
    ids = np.arange(N_CHARACTERS, N_CARDS)
    for trial in range(300):
        st.card_loc[N_CHARACTERS:] = rng.choice(locs[: 2 + trial % len(locs)], N_CARDS - N_CHARACTERS)
        st.card_seq[N_CHARACTERS:] = rng.integers(0, 3 if trial % 3 == 0 else 10_000, N_CARDS - N_CHARACTERS)
        for loc in locs:
            at = ids[st.card_loc[N_CHARACTERS:] == loc]
            want = -1 if len(at) == 0 else int(at[np.argmax(st.card_seq[at])])  # argmax: the first of equals
            assert top_of(st, int(loc)) == want, (trial, int(loc))
        want_piles = sum(1 << p for p in range(5) if (st.card_loc[N_CHARACTERS:] == Loc.PILE + p).any())
        want_piles |= (1 << PILE_GAME) if (st.card_loc[N_CHARACTERS:] == Loc.GAME_DISCARD).any() else 0
        assert nonempty_piles(st) == want_piles, trial


def test_salary_worked_example_7_cards_discard_2_pay_1_bronze_lose_4(blank, rules):
    """A. SALARY: 'the Yellow player owns 7 Affiliate cards and must pay 3 bronze coins. They choose to
    discard 2 cards. In this way, they now have 5 Affiliate cards and should pay 2 bronze coins; they
    choose to pay 1 bronze coin, which covers 3 cards. Two cards remain unpaid, so they lose 4 VPs.'

    The choices are scripted by a greedy weight row written into the seat's ``st.w``: a SALARY option 'pay b bronze,
    leave u cards unpaid' is worth -coin*b - 2*vp*u and 'discard a card' -card - 0.1, so with vp=1,
    coin=5, card=9.5 the best option is discard (7 cards), discard (6 cards), pay 1 (5 cards)."""
    st, r = blank, rules
    y = 2
    row = default_weights()  # the named coefficients (salary_vp, salary_discard) at their defaults
    row[F.FAMILY] = FAMILY_GREEDY
    row[F.VP], row[F.COIN], row[F.CARD] = 1.0, 5.0, 9.5
    st.w[y, :] = row  # the seat's policy weights (copied from the strategy table at setup)
    set_affiliates(st, y, 7)
    set_items(st, y, silver=1, bronze=1)  # worth 3 bronze: paying in full is possible, the choices decide
    assert salary_free(st, r, y) == 0
    per = int(r.k[RK.SALARY_PER_BRONZE])
    assert -(-7 // per) == 3 and -(-5 // per) == 2
    vp0, pile0, sb = int(st.pl[y, PF.VP]), pile_size(st, y), int(st.supply[Sup.BRONZE])
    pay_salary(st, r, y)
    assert n_affiliates(st, y) == 5 and pile_size(st, y) == pile0 + 2  # discarded to their pile
    assert st.pl[y, PF.BRONZE] == 0 and st.pl[y, PF.SILVER] == 1 and st.supply[Sup.BRONZE] == sb + 1
    assert st.pl[y, PF.VP] - vp0 == 2 * r.k[RK.SALARY_VP] == -4
    assert st.vps[y, VS.SALARY] == -4


def test_salary_example_arithmetic(blank, rules):
    """7 cards -> 3 bronze; discard 2 -> 5 cards -> 2 bronze; pay 1 (covers 3): 2 unpaid = -4 VP."""
    per = rules.k[RK.SALARY_PER_BRONZE]
    assert -(-7 // per) == 3 and -(-5 // per) == 2
    assert (5 - per * 1) * rules.k[RK.SALARY_VP] == -4
