"""Affiliate cards as a player counts them: each card's colour, the cards a seat holds by colour
and the card series VP they score (SCORING PHASE, VPS ASSIGNATION: Cards series), the top card of a
discard pile, and the Scorings still to come. Nothing here decides or changes the game, so the
players' valuation (strategies.policy) reads it as the rules' own count; it sits below the seam
(it imports no module that calls a player)."""

import numpy as np
from numba import njit

from sim.rules import RK
from sim.state import GROUP_SIZE, N_CARDS, N_CHARACTERS, N_GROUPS, Loc

PILE_GAME = 5  # pile code of the game discard pile in DRAW_SOURCE/CARD_PILE options


@njit(cache=True)
def card_group(cid):
    """AFFILIATE CARDS: the Character group (colour) of a card: Character card c is group c;
    Affiliate n is (n-13) div 6 (GROUP_SIZE)."""
    if cid < N_CHARACTERS:
        return cid
    return (cid - N_CHARACTERS) // GROUP_SIZE


@njit(cache=True)
def pile_loc(pile):
    if pile == PILE_GAME:
        return Loc.GAME_DISCARD
    return Loc.PILE + pile


@njit(cache=True)
def top_of(st, loc):
    """Top card of the deck or a discard pile, -1 when empty: the card at ``loc`` with the highest
    ``card_seq`` (the lowest id among equal ones).

    One branch-free max over keys ``seq << 8 | (255 - id)`` (the 84 card ids fit in the low 8 bits):
    which cards lie at ``loc`` follows no pattern after a shuffle, so a compare-and-branch per card
    mispredicted often (on random layouts, measured in isolation, that scan took about 9x as long)."""
    key = -1
    for c in range(N_CHARACTERS, N_CARDS):
        k = (np.int64(st.card_seq[c]) << 8) | (255 - c)
        key = max(key, k if st.card_loc[c] == loc else -1)
    return -1 if key < 0 else 255 - (key & 255)


@njit(cache=True)
def series_counts(st, seat, counts):
    """Cards of each colour owned (Character card included, rotated or not)."""
    for gi in range(N_GROUPS):
        counts[gi] = 0
    loc = Loc.HAND + seat
    for c in range(N_CARDS):
        if st.card_loc[c] == loc:
            counts[card_group(c)] += 1


@njit(cache=True)
def _series_table(r, cnt, cabildo):
    c = min(cnt, 7)
    return r.series_vp_cab[c] if cabildo else r.series_vp[c]


@njit(cache=True)
def _table_total(r, counts, cabildo):
    t = 0
    for gi in range(N_GROUPS):
        t += _series_table(r, counts[gi], cabildo)
    return t


@njit(cache=True)
def _largest_part(r, counts, cabildo):
    m = 0
    for gi in range(N_GROUPS):
        m = max(m, _series_table(r, counts[gi], cabildo))
    return m


@njit(cache=True)
def _best_jokers(r, counts, jokers, cabildo, out):
    """Best (total, largest single series) when ``jokers`` wild cards are spread over the colours
    held (exhaustive over multisets: the table is convex, so greedy spreading is not optimal); the
    arrangement's counts go to ``out``. Of equal totals the one with the largest single series: the
    player arranges the odd cards, and that one gives the VP status bonus the most to take.
    Iterative on purpose: recursive kernels do not load reliably from Numba's cache."""
    held = np.empty(N_GROUPS, np.int64)
    nh = 0
    for gi in range(N_GROUPS):
        if counts[gi] > 0:
            held[nh] = gi
            nh += 1
    if jokers == 0 or nh == 0:
        out[:] = counts
        return _table_total(r, counts, cabildo), _largest_part(r, counts, cabildo)
    idx = np.zeros(jokers, np.int64)  # non-decreasing indices into held: one multiset per step
    best = -1
    best_mx = -1
    while True:
        for j in range(jokers):
            counts[held[idx[j]]] += 1
        v = _table_total(r, counts, cabildo)
        mx = _largest_part(r, counts, cabildo)
        if v > best or (v == best and mx > best_mx):
            best = v
            best_mx = mx
            out[:] = counts
        for j in range(jokers):
            counts[held[idx[j]]] -= 1
        j = jokers - 1
        while j >= 0 and idx[j] == nh - 1:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, jokers):
            idx[t] = idx[j]
    return best, best_mx


@njit(cache=True)
def series_parts(r, counts, cabildo, parts):
    """Card series VP (before x Era) colour by colour into ``parts`` (VPS ASSIGNATION Cards series):
    any 3 single odd cards of different colours count as 1 card of any colour; only cards not part
    of a series (not even a pair) can be used so. Each colour's series is its own VP assignation
    (10. VP status: "the VPs coming from a card color series"). Returns the total."""
    singles = 0
    for gi in range(N_GROUPS):
        if counts[gi] == 1:
            singles += 1
    per = r.k[RK.ODD_PER_JOKER]
    best = -1
    best_mx = -1
    work = counts.copy()
    arr = counts.copy()
    for j in range(singles // per + 1):
        # use 3j singles as j jokers: drop 3j single colours (which ones is immaterial, they are alike,
        # except that a kept single can still receive jokers - the search below covers that)
        for gi in range(N_GROUPS):
            work[gi] = counts[gi]
        dropped = 0
        for gi in range(N_GROUPS):
            if dropped == per * j:
                break
            if work[gi] == 1:
                work[gi] = 0
                dropped += 1
        v, mx = _best_jokers(r, work, j, cabildo, arr)
        if v > best or (v == best and mx > best_mx):
            best = v
            best_mx = mx
            for gi in range(N_GROUPS):
                parts[gi] = _series_table(r, arr[gi], cabildo)
    return best


@njit(cache=True)
def series_base(r, counts, cabildo):
    """Card series VP (before x Era), all colours together (:func:`series_parts`)."""
    parts = np.zeros(N_GROUPS, np.int32)
    return series_parts(r, counts, cabildo, parts)


@njit(cache=True)
def n_colours(counts):
    n = 0
    for gi in range(N_GROUPS):
        if counts[gi] > 0:
            n += 1
    return n


@njit(cache=True)
def scorings_ahead(r, d, last):
    """(Scorings still to come, sum of their Eras) after decade ``d`` is over (C.7: a Scoring at the
    end of each Era and of the last decade)."""
    dpe = r.k[RK.DECADES_PER_ERA]
    n = 0
    m = 0
    for x in range(d + 1, last + 1):
        if x % dpe == 0 or x == last:
            n += 1
            m += (x - 1) // dpe + 1
    return n, m
