"""Helpers shared by the rule tests: edit a hand-built state, hand out Affiliate cards, list and
apply the options of a turn."""

from __future__ import annotations

import numpy as np

from sim.actions import apply_option, turn_options
from sim.affiliates import card_options
from sim.cards import back_symbols
from sim.codes import Act
from sim.game import allocate, play_decade, set_decade, setup, start_of_decade
from sim.rules import RK
from sim.state import MAX_PLAYERS, N_CARDS, N_CHARACTERS, PF, B, G, Loc
from strategies.policy import FAMILY_GREEDY, F, default_weights


def set_items(st, seat, wood=0, stone=0, precious=0, metal=0, silver=0, bronze=0):
    for f, v in ((PF.WOOD, wood), (PF.STONE, stone), (PF.PRECIOUS, precious), (PF.METAL, metal),
                 (PF.SILVER, silver), (PF.BRONZE, bronze)):
        st.pl[seat, f] = v


def clear_map(st):
    st.cell_b[:] = B.NONE
    st.cell_owner[:] = -1
    st.walls[:] = 0
    st.roads[:] = 0
    for f in (G.FORT_BUILT, G.HARBOR_BUILT, G.CABILDO_BUILT, G.CATHEDRAL_BUILT):
        st.g[f] = 0
    st.major_state[:] = 0


def cell(r, x, y):
    """Map space at column x, row y."""
    return y * int(r.k[RK.MAP_W]) + x


def put(st, r, x, y, b, owner=-1):
    """Put building ``b`` (of ``owner``'s colour, -1 none) on the map space (x, y)."""
    st.cell_b[cell(r, x, y)] = b
    st.cell_owner[cell(r, x, y)] = owner


def act_row(r, building, inp=None, out=None):
    """Index of the activation row of ``building`` with exactly these inputs / these outputs."""
    for a in range(r.act_b.shape[0]):
        if r.act_b[a] != building:
            continue
        if inp is not None and r.act_in[a].tolist() != inp:
            continue
        if out is not None and r.act_out[a].tolist() != out:
            continue
        return a
    raise AssertionError("no such activation row")


def turn_rows(st, r, seat, act):
    """The seat's legal TURN rows (Act, a, b, c, d) of one action type."""
    k = turn_options(st, r, seat)
    got = st.opts[:k].copy()
    return got[got[:, 0] == act]


def deck_card(st, r, natives, pirates, exclude=()):
    """An Affiliate card in the deck whose back shows these tension symbols (R-09)."""
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.DECK and c not in exclude and tuple(back_symbols(r, c)) == (natives, pirates):
            return c
    raise AssertionError(f"no deck card with back {natives, pirates}")


def stack_deck(st, *cards):
    """Put these cards on top of the Affiliate deck, the first named on top."""
    top = int(max(st.card_seq.max(), st.g[G.SEQ])) + len(cards) + 1
    for i, c in enumerate(cards):
        st.card_loc[c] = Loc.DECK
        st.card_seq[c] = top - i
    st.g[G.SEQ] = top


def quiet_deck(st, r):
    """Deck top: a card discarded by the tension step, then one with a blank back (no tension)."""
    c0 = deck_card(st, r, 0, 0)
    c1 = deck_card(st, r, 0, 0, exclude=(c0,))
    stack_deck(st, c0, c1)


# ----------------------------------------------------------------------------- Affiliate cards


def cid(num):
    """Card id of card number ``num``."""
    return num - 1


def clear_hands(st):
    """Every Affiliate back to the deck, upright: only the cards a test gives are held."""
    for c in range(N_CHARACTERS, N_CARDS):
        if Loc.HAND <= st.card_loc[c] < Loc.HAND + MAX_PLAYERS:
            st.card_loc[c] = Loc.DECK
        st.card_rot[c] = 0
        st.card_turn[c] = 0


def give(st, seat, num, rotated=False):
    """Put card ``num`` into the seat's hand (upright unless ``rotated``); returns its id."""
    c = cid(num)
    st.card_loc[c] = Loc.HAND + seat
    st.card_rot[c] = 1 if rotated else 0
    st.card_turn[c] = 0
    return c


def upright(st, num):
    """Reactivate the card (as the Reactivate Cards action would) to check a second use."""
    st.card_rot[cid(num)] = 0


def rows(st, r, seat, num):
    """The F_CARD targets (a, b) the seat is offered for card ``num`` in its turn."""
    k = card_options(st, r, seat, 0)
    got = st.opts[:k].copy()
    assert (got[:, 0] == Act.F_CARD).all()
    return [(int(a), int(b)) for c, a, b in got[:, 1:4].tolist() if c == cid(num)]


def turn_card_rows(st, r, seat):
    """The F_CARD rows among all the seat's TURN options (card, a, b)."""
    k = turn_options(st, r, seat)
    got = st.opts[:k].copy()
    return [tuple(x) for x in got[got[:, 0] == Act.F_CARD, 1:4].tolist()]


def use(st, r, seat, num, a=0, b=0):
    """Use card ``num`` in the seat's turn (the Act.F_CARD free action) with targets (a, b); plain
    ints, as the engine passes them (an IntEnum argument would compile another specialization)."""
    apply_option(st, r, seat, int(Act.F_CARD), cid(num), int(a), int(b))


def assert_spent(st, r, seat, num, uses=1):
    """'A rotated card is considered used and cannot be used again until reactivated'."""
    c = cid(num)
    assert st.card_rot[c] == 1 and st.card_loc[c] == Loc.HAND + seat
    assert st.card_uses[c] == uses
    assert rows(st, r, seat, num) == []


def script(st, seat, **weights):
    """A greedy weight row for the seat (the policy reads ``st.w``), other features 0, the named
    coefficients and parameters at their defaults."""
    row = default_weights()
    row[F.FAMILY] = FAMILY_GREEDY
    for k, v in weights.items():
        row[F[k.upper()]] = v
    st.w[seat, :] = row


def fresh(r, W, n, seed=7):
    """A greedy n-player state after setup (the ``blank`` fixture for any player count)."""
    st = allocate(r)
    st.rng[0] = seed
    strat = np.zeros(MAX_PLAYERS, np.int32)
    strat[:n] = 1
    setup(st, r, W, n, strat, np.full(5, -1, np.int32), 0)
    st.g[G.DECADE] = 1
    st.g[G.ERA] = 1
    return st


def mid_game(r, W, n=4, decades=5, seed=3):
    """A played position at the first TURN decision of decade ``decades + 1`` (every seat plays
    strategy row 0 of W); returns (state, seat of the first turn)."""
    st = allocate(r)
    st.rng[0] = seed
    strat = np.zeros(MAX_PLAYERS, np.int32)
    setup(st, r, W, n, strat, np.full(MAX_PLAYERS, -1, np.int32), 0)
    for d in range(1, decades + 1):
        set_decade(st, r, d)
        play_decade(st, r)
    set_decade(st, r, decades + 1)
    start_of_decade(st, r)
    for s in range(n):
        st.pl[s, PF.PASSED] = 0
    seat = int(st.order[0])  # int64, the type the engine's own calls use (sim.specialize): another would compile again
    st.g[G.TURN_SEAT] = seat
    return st, seat


# ----------------------------------------------------------------------------- the Ship


def load(st, r, seat, pred):
    """Load the Ship with the first open load row matching ``pred`` (the items are given first)."""
    for ld in range(r.ship_put.shape[0]):
        p = r.ship_put[ld]
        if r.ship_needs[ld] < 0 and pred(p):
            set_items(st, seat, wood=p[0], stone=p[1], precious=p[2], silver=p[3], bronze=p[4])
            st.pl[seat, PF.WORKERS] = r.k[RK.WORKERS]
            apply_option(st, r, seat, Act.SHIP, ld, 0, 0)
            assert st.pl[seat, PF.SHIP_LOAD] == ld
            return ld
    raise AssertionError("no such ship load")


def three(res):
    """A load of 3 identical resources of type ``res`` (0 wood, 1 stone)."""
    return lambda p: p[res] == 3 and p.sum() == 3


def coins_load(p):
    return p[0] + p[1] + p[2] == 0 and p.sum() == 2


# ----------------------------------------------------------------------------- Python strategies (strategies.python_bridge)


class Recorder:
    """A Python strategy for the tests: the last main action of a turn, the last option of any other
    decision; it checks each view on the way."""

    def __init__(self):
        self.calls = 0
        self.kinds = set()
        self.leaks = 0  # other players' unused hand cards visible to the seat (must stay 0)
        self.writable = 0

    def choose(self, view, options):
        from strategies.python_bridge import UNKNOWN

        self.calls += 1
        self.kinds.add(view.kind)
        for c in range(N_CHARACTERS, N_CARDS):
            loc = view.card_loc[c]
            if Loc.HAND <= loc < Loc.PILE and loc != Loc.HAND + view.seat and view.card_rot[c] == 0:
                self.leaks += 1
        self.writable += int(view.pl.flags.writeable or view.card_loc.flags.writeable)
        assert UNKNOWN == -1 and [o.index for o in options] == list(range(len(options)))
        if view.kind == "TURN":  # the last main action listed (free actions, listed last, keep the turn open)
            return max(o.index for o in options if not o.action.startswith("F_"))
        return len(options) - 1


class BadIndex:
    def choose(self, view, options):
        return len(options)
