"""USE AN AFFILIATE CARD at a trigger: the low-level part every rule area can call.

Cards with the lightning symbol fire at a moment of the game, also out of their owner's turn
(a war is won, walls close a district, the Ship sails...). The rule area where that moment
happens asks :func:`offer`: the card's holder, if the card is upright in their hand, decides
(``Dec.USE_CARD``) whether to use it now; a used card is rotated and stays used until
reactivated ("A rotated card is considered used and cannot be used again until reactivated";
"Card powers cannot be postponed"). :func:`card_active` tells whether a card used this turn still
modifies its owner's actions. The turn-time powers are in sim.affiliates.
"""

from numba import njit

from sim.codes import Dec, Ev
from sim.core import decide, log, set_option
from sim.state import G, Loc


@njit(cache=True)
def holder(st, c):
    """Seat holding card ``c`` upright in hand, or -1."""
    loc = st.card_loc[c]
    if loc < Loc.HAND or loc >= Loc.HAND + st.g[G.NPLAYERS] or st.card_rot[c] == 1:
        return -1
    return loc - Loc.HAND


@njit(cache=True)
def use(st, seat, c):
    """Rotate the card (used) and count the use."""
    st.card_rot[c] = 1
    st.card_turn[c] = 1
    st.card_uses[c] += 1
    st.card_uses_seat[seat] += 1
    st.card_uses_by[seat, c] += 1
    log(st, Ev.CARD_USE, seat, c)


@njit(cache=True)
def offer(st, r, c, only_seat, gain=1):
    """A lightning card's trigger happened: its holder (or only ``only_seat`` when >= 0) may use it.
    Rows [use?, card, gain]: ``gain`` is what the best use brings the holder (VP), when known and
    possibly 0; the policy reads it. Returns the seat that used it, or -1."""
    s = holder(st, c)
    if s < 0 or (only_seat >= 0 and s != only_seat):
        return -1
    set_option(st, 0, 0, c, 0)
    set_option(st, 1, 1, c, gain)
    if st.opts[decide(st, r, s, Dec.USE_CARD, 2), 0] == 0:
        return -1
    use(st, s, c)
    return s


@njit(cache=True)
def card_active(st, seat, c):
    """The seat used card ``c`` this turn and its power still modifies the seat's actions.
    ``st.card_active[c]`` counts the applications left (1 for most cards; a card whose params give
    a count, e.g. card 16's ``actions``, starts at it and :func:`spend` takes one)."""
    return st.card_active[c] > 0 and st.card_loc[c] == Loc.HAND + seat


@njit(cache=True)
def spend(st, c):
    """One application of card ``c``'s turn modifier is used up."""
    if st.card_active[c] > 0:
        st.card_active[c] -= 1
