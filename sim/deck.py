"""Cards as objects: the Affiliate deck, the display of discard piles, hands, rotation,
burning, salaries and reactivation (A. START OF THE DECADE; AFFILIATE CARDS; 6-7; C.1).

Card ids 0..83 are card numbers 1..84: 0..11 the Character cards, 12..83 the Affiliates.
"""

import numpy as np
from numba import njit

from sim.banners import face_up_banners, purple_banner
from sim.cardpower import offer
from sim.codes import Card, Dec, Ev
from sim.core import decide, gain_vp, log, set_option
from sim.economy import coin_value, pay_coins
from sim.rng import permutation
from sim.rules import AP, RK
from sim.series import PILE_GAME, card_group, pile_loc, top_of  # noqa: F401 (card_group, PILE_GAME: also read from here)
from sim.state import GROUP_SIZE, N_CARDS, N_CHARACTERS, PF, VS, G, Loc


@njit(cache=True)
def back_symbols(r, cid):
    """Tension symbols on an Affiliate's back (R-09): (natives, pirates)."""
    j = (cid - N_CHARACTERS) % GROUP_SIZE
    return r.back_symbols[j, 0], r.back_symbols[j, 1]


@njit(cache=True)
def nonempty_piles(st):
    """Bit p is set when discard pile p holds a card (a seat's pile 0-4, or :data:`PILE_GAME`):
    one pass over the cards instead of a :func:`top_of` scan per pile."""
    m = 0
    for c in range(N_CHARACTERS, N_CARDS):  # branch-free, as in top_of
        loc = st.card_loc[c]
        p = loc - Loc.PILE
        m |= (1 << p) if (p >= 0) & (p < 5) else 0
        m |= (1 << PILE_GAME) if loc == Loc.GAME_DISCARD else 0
    return m


@njit(cache=True)
def put_on(st, cid, loc):
    """Put a card on top of the deck/pile ``loc`` (or into a hand)."""
    st.g[G.SEQ] += 1
    st.card_loc[cid] = loc
    st.card_seq[cid] = st.g[G.SEQ]
    st.card_rot[cid] = 0


@njit(cache=True)
def shuffle_deck(st):
    """Shuffle the cards in the deck (random order of their sequence numbers)."""
    n = 0
    ids = np.empty(N_CARDS, np.int32)
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.DECK:
            ids[n] = c
            n += 1
    perm = permutation(st, n)
    for i in range(n):
        st.g[G.SEQ] += 1
        st.card_seq[ids[perm[i]]] = st.g[G.SEQ]


@njit(cache=True)
def reshuffle_discards(st):
    """Shuffle all discard piles with the Affiliate deck into a new deck (C.7 SCORING; also
    when the deck runs out, as the EVENTS variant says: 'When the Affiliate deck is exhausted, reshuffle it')."""
    for c in range(N_CHARACTERS, N_CARDS):
        loc = st.card_loc[c]
        if loc == Loc.GAME_DISCARD or (loc >= Loc.PILE and loc < Loc.PILE + 5):
            st.card_loc[c] = Loc.DECK
            st.card_rot[c] = 0
    shuffle_deck(st)
    n = 0
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.DECK:
            n += 1
    log(st, Ev.RESHUFFLE, n)


@njit(cache=True)
def draw_top(st):
    """Take the top card of the deck (reshuffling the discards in when it is empty); -1 if none."""
    c = top_of(st, Loc.DECK)
    if c < 0:
        reshuffle_discards(st)
        c = top_of(st, Loc.DECK)
    return c


@njit(cache=True)
def n_affiliates(st, seat):
    n = 0
    loc = Loc.HAND + seat
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == loc:
            n += 1
    return n


@njit(cache=True)
def gain_card(st, r, seat, cid):
    """An Affiliate card into the seat's hand (taken, bought or given by a card power), counted for
    the records (``st.cards_taken``); the purple banner follows the hand's size."""
    put_on(st, cid, Loc.HAND + seat)
    st.cards_taken[seat] += 1
    purple_banner(st, r, seat, n_affiliates(st, seat))


@njit(cache=True)
def draw_and_keep(st, r, seat, n):
    """Draw n cards (+1 once per decade with Card status), keep 0 or 1, discard the rest face-up
    on the player's own discard pile (A. DRAW CARDS; 6. TAKE A CARD)."""
    if st.pl[seat, PF.ST_CARDS] >= 1 and st.pl[seat, PF.USED_EXTRA_DRAW] == 0:
        st.pl[seat, PF.USED_EXTRA_DRAW] = 1
        n += r.k[RK.CARD_EXTRA_DRAW]
    drawn = st.drawn
    if n > drawn.shape[0]:  # a rules file drawing more than the work area holds (sim.state.MAX_DRAWN)
        raise ValueError("draw_and_keep: more cards drawn than MAX_DRAWN")
    k = 0
    for _ in range(n):
        c = draw_top(st)
        if c < 0:
            break
        st.card_loc[c] = Loc.SET_ASIDE  # in the player's hand of drawn cards
        drawn[k] = c
        k += 1
    for i in range(k):
        set_option(st, i, drawn[i])
    set_option(st, k, -1)
    # copy: decide() may reuse scratch through the policy
    i = decide(st, r, seat, Dec.KEEP, k + 1)
    kept = st.opts[i, 0]
    for j in range(k):
        c = st.opts[j, 0]
        if c != kept:
            put_on(st, c, Loc.PILE + seat)
    if kept >= 0:
        gain_card(st, r, seat, kept)
    log(st, Ev.DRAW, seat, k, kept)
    return kept


@njit(cache=True)
def take_pile_top(st, r, seat, pile):
    c = top_of(st, pile_loc(pile))
    if c >= 0:
        gain_card(st, r, seat, c)
        log(st, Ev.TAKE_PILE, seat, pile, c)
    return c


@njit(cache=True)
def phase_a_draw(st, r, seat):
    """A. DRAW CARDS: draw 2 keep 0 or 1, or take the top card of any discard pile."""
    k = 0
    set_option(st, k, -1)
    k += 1
    nonempty = nonempty_piles(st)
    for pile in range(6):
        if pile < 5 and pile >= st.g[G.NPLAYERS]:
            continue
        if (nonempty >> pile) & 1:
            set_option(st, k, pile)
            k += 1
    pile = st.opts[decide(st, r, seat, Dec.DRAW_SOURCE, k), 0]
    if pile < 0:
        draw_and_keep(st, r, seat, r.k[RK.DRAW])
    else:
        take_pile_top(st, r, seat, pile)


@njit(cache=True)
def salary_free(st, r, seat):
    """Affiliate cards ignored for salary: 1 per face-up banner, 1/2/3 with Card status I/II/III."""
    free = face_up_banners(st, seat)
    lvl = st.pl[seat, PF.ST_CARDS]
    if lvl > 0:
        free += r.card_free[lvl - 1]
    return free


@njit(cache=True)
def pay_salary(st, r, seat):
    """A. SALARY: 1 bronze per 3 Affiliate cards (rounded up) beyond the free ones; the player
    may discard cards first; each card left unpaid costs 2 VP."""
    discarded = 0
    disc = 0  # card 56 (lightning): "Discount 1 bronze coin from the salaries which you have to pay"
    while True:
        n = n_affiliates(st, seat)
        free = salary_free(st, r, seat)
        payable = max(0, n - free)
        if payable == 0:
            log(st, Ev.SALARY, seat, n, free, 0, 0, discarded)
            return
        per = r.k[RK.SALARY_PER_BRONZE]
        full = (payable + per - 1) // per
        if disc == 0 and full > 0 and offer(st, r, Card.C56, seat) >= 0:
            disc = r.aff_p[Card.C56, AP.BRONZE_DISCOUNT]
        k = 0
        cv = coin_value(st, r, seat)
        for b in range(max(0, full - disc) + 1):
            if b <= cv:
                set_option(st, k, 1, b, max(0, payable - per * (b + disc)))
                k += 1
        loc = Loc.HAND + seat
        for c in range(N_CHARACTERS, N_CARDS):
            if st.card_loc[c] == loc:
                set_option(st, k, 0, c)
                k += 1
        i = decide(st, r, seat, Dec.SALARY, k)
        if st.opts[i, 0] == 0:
            put_on(st, st.opts[i, 1], Loc.PILE + seat)
            discarded += 1
            continue
        b = st.opts[i, 1]
        unpaid = st.opts[i, 2]
        pay_coins(st, r, seat, b)
        log(st, Ev.SALARY, seat, n, free, b, unpaid, discarded)
        if unpaid > 0:
            gain_vp(st, r, seat, unpaid * r.k[RK.SALARY_VP], VS.SALARY)
        return


@njit(cache=True)
def burn_card(st, r, seat, cid):
    """BURN AN AFFILIATE CARD: to the player's discard pile, +1 AV for this decade's war."""
    put_on(st, cid, Loc.PILE + seat)
    st.pl[seat, PF.BURN_AV] += r.k[RK.BURN_AV]
    log(st, Ev.BURN, seat, cid)


@njit(cache=True)
def rotate_card(st, seat, cid):
    st.card_rot[cid] = 1
    st.card_turn[cid] = 1
    log(st, Ev.CARD_ROTATE, seat, cid)


@njit(cache=True)
def reactivate_cards(st, r, seat, n):
    """C.1 CARDS REACTIVATION: turn up to n of the player's rotated cards upright."""
    loc = Loc.HAND + seat
    done = 0
    while done < n:
        k = 0
        for c in range(N_CARDS):
            if st.card_loc[c] == loc and st.card_rot[c] == 1:
                set_option(st, k, c)
                k += 1
        if k == 0:
            break
        set_option(st, k, -1)
        c = st.opts[decide(st, r, seat, Dec.REACTIVATE, k + 1), 0]
        if c < 0:
            break
        st.card_rot[c] = 0
        log(st, Ev.REACTIVATED, seat, c)
        done += 1
