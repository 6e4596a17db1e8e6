"""COMBAT AREA SETUP: 1. DETERMINE THE ATTACKERS NUMBER (the War Table), 2. ATTACKERS PLACEMENT (the
control cards, the attackers around the city) and an attacker's Initiative (MINIATURE AV, HP &
INITIATIVE), on an emptied Combat Area.

A control card's Era and an attacker's Initiative are the readings R-09 and R-10; the table, the
placement edges and the box's miniatures are ``Rules.xw_*`` (rules ``[extended_war]``).
"""

from numba import njit

from sim.codes import Ev
from sim.combat_area import attackers_on_board
from sim.core import log
from sim.deck import put_on, shuffle_deck, top_of
from sim.rng import permutation
from sim.rules import XK
from sim.state import AS, GROUP_SIZE, N_CARDS, N_CHARACTERS, TG, XA, XG, XM, G, Loc
from sim.war_track import PIRATES


@njit(cache=True)
def attackers_number(r, n_players, era, bonus):
    """DETERMINE THE ATTACKERS NUMBER: the War Table's cell for the players, the Era and the
    tension level bonus. The bonus moves the row up one per point; at the top row the points left
    move the column right (the count stays at the last column past Era III).
    Returns (elite, standard, row, column)."""
    n = min(max(n_players, 2), 5)
    row = r.xw_k[XK.TABLE_SKULL_ROWS] + (5 - n) - bonus
    col = era - 1
    if row < 0:
        col -= row
        row = 0
    col = min(max(col, 0), r.xw_table.shape[1] - 1)
    return r.xw_table[row, col, 0], r.xw_table[row, col, 1], row, col


@njit(cache=True)
def card_era(r, c):
    """The Era on control card ``c``'s back (R-09)."""
    return r.xw_control_era[(c - N_CHARACTERS) % GROUP_SIZE]


@njit(cache=True)
def _era_ok(r, c, era, widen):
    """``c`` may serve as a control card of ``era``: widen 0 that Era only; 1 with the "adjacent"
    Era too (Era III: II as well; Era II: any card; Era I: II as well); 2 any card."""
    e = card_era(r, c)
    if widen == 0:
        return e == era
    if widen == 1:
        if era == 2:
            return True
        return e == era or e == 2
    return True


@njit(cache=True)
def _available(st, r, era, widen):
    """Cards that the drawing can still reach (the deck and the game discard pile it reshuffles
    from) and that may serve as control cards."""
    n = 0
    for c in range(N_CHARACTERS, N_CARDS):
        loc = st.card_loc[c]
        if (loc == Loc.DECK or loc == Loc.GAME_DISCARD) and _era_ok(r, c, era, widen):
            n += 1
    return n


@njit(cache=True)
def discards_to_deck(st):
    """The game discard pile's cards back into the deck, unrotated (not shuffled yet); returns how
    many (an empty deck during a war, and the war's end, make a new deck of them)."""
    n = 0
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.GAME_DISCARD:
            st.card_loc[c] = Loc.DECK
            st.card_rot[c] = 0
            n += 1
    return n


@njit(cache=True)
def draw_war_card(st):
    """The deck's top card for the war; an empty deck takes the game discard pile, shuffled
    ("take the discarded cards in the game discard pile, shuffle them and make a new deck"). -1
    when both are empty."""
    c = top_of(st, Loc.DECK)
    if c < 0:
        n = discards_to_deck(st)
        if n == 0:
            return -1
        shuffle_deck(st)
        log(st, Ev.RESHUFFLE, n)
        c = top_of(st, Loc.DECK)
    return c


@njit(cache=True)
def draw_control_cards(st, r, era, k):
    """ATTACKERS PLACEMENT: draw ``k`` cards of the current Era into ``st.xw_tmp[:got]`` (placed
    at Loc.COMBAT); a card of another Era is discarded; with no card of the Era left to reach,
    the adjacent Era's serve too, then any card (the NOTE). Returns how many were drawn."""
    widen = 0
    got = 0
    while got < k:
        while widen < 2 and _available(st, r, era, widen) == 0:
            widen += 1
        if _available(st, r, era, widen) == 0:
            break
        c = draw_war_card(st)
        if c < 0:
            break
        if _era_ok(r, c, era, widen):
            put_on(st, c, Loc.COMBAT)
            st.xw_tmp[got] = c
            got += 1
        else:
            put_on(st, c, Loc.GAME_DISCARD)
    return got


@njit(cache=True)
def initiative(r, c):
    """An attacker's Initiative from its control card ``c`` (R-10: 1 + card number mod 3)."""
    return r.xw_k[XK.INITIATIVE_BASE] + (c + 1) % r.xw_k[XK.INITIATIVE_MODULUS]


@njit(cache=True)
def attacker_initiative(st, r, t):
    """The Initiative of the attacker on tile ``t``: its control card's; a card 83 recruit, which
    has none, acts at the round's last Initiative."""
    c = st.xw_att[t, XA.CARD]
    return initiative(r, c) if c >= 0 else max_initiative(st, r)


@njit(cache=True)
def max_initiative(st, r):
    """The last Initiative of a round: the last player's position or the attackers' highest."""
    return max(st.g[G.NPLAYERS], r.xw_k[XK.INITIATIVE_BASE] + r.xw_k[XK.INITIATIVE_MODULUS] - 1)


@njit(cache=True)
def attacker_kind(faction, elite):
    """AK of a faction's Standard or Elite miniature (Natives: Indio, Warrior; Pirates: Freebooter, Captain)."""
    return 2 * (faction - 1) + (1 if elite else 0)


@njit(cache=True)
def attackers_in_supply(st, r, kind):
    """Attacker miniatures of ``kind`` left in the game supply (the box minus those in the area)."""
    return r.xw_att_box[kind] - attackers_on_board(st, kind)


@njit(cache=True)
def edge_of_tile(st, r, i):
    """Placement edge of the i-th attacker placed (0-based): natives clockwise from point A,
    pirates anticlockwise from point B, doubling up once every edge has one."""
    ne = r.xw_k[XK.N_EDGES]
    j = i % ne
    if st.xw[XG.FACTION] == PIRATES:
        return ne - 1 - j
    return j


@njit(cache=True)
def setup_combat_area(st, r, faction, era, bonus):
    """COMBAT AREA SETUP 1-2: the attackers' number, their control cards (face up Standard, face
    down Elite, in a random line under the War Opponent tiles 1..n) and their miniatures around
    the perimeter. Returns the attackers placed."""
    clear_war(st)
    st.xw[XG.ACTIVE] = 1
    st.xw[XG.FACTION] = faction
    st.g[G.WAR_MILICIANOS] = 0  # the miniatures used in this war (card 57)
    st.g[G.WAR_SOLDIERS] = 0
    elite, standard, row, col = attackers_number(r, st.g[G.NPLAYERS], era, bonus)
    log(st, Ev.XW_SETUP, faction, elite, standard, row, col)
    k = min(elite + standard, r.xw_k[XK.OPPONENT_TILES])
    got = draw_control_cards(st, r, era, k)
    elite = min(elite, got)
    # "Randomize them and form a line": the line's order and which cards lie face down
    line = permutation(st, got)
    faces = permutation(st, got)
    placed = 0
    for i in range(got):
        c = st.xw_tmp[line[i]]
        kind = attacker_kind(faction, faces[i] < elite)
        if attackers_in_supply(st, r, kind) <= 0:
            put_on(st, c, Loc.GAME_DISCARD)  # no miniature of its kind left in the box
            continue
        t = placed
        e = edge_of_tile(st, r, t)
        st.xw_att[t, XA.CARD] = c
        st.xw_att[t, XA.KIND] = kind
        st.xw_att[t, XA.STATE] = AS.OUTSIDE
        st.xw_att[t, XA.EDGE] = e
        st.xw_att[t, XA.POS] = r.xw_edges[e, 0]
        st.xw_att[t, XA.OWNER] = -1
        st.xw[XG.N_TILES] = t + 1
        placed += 1
        log(st, Ev.XW_PLACE, t, c, kind, r.xw_edges[e, 0], r.xw_edges[e, 1], attacker_initiative(st, r, t))
    st.tally_g[TG.XW_ATTACKERS] += placed
    return placed


@njit(cache=True)
def clear_war(st):
    """An empty Combat Area: no tile in use, no pillage marker, every player miniature off it."""
    for i in range(st.xw.shape[0]):
        st.xw[i] = 0
    for t in range(st.xw_att.shape[0]):
        for f in range(st.xw_att.shape[1]):
            st.xw_att[t, f] = 0
        st.xw_att[t, XA.OWNER] = -1
        st.xw_att[t, XA.CARD] = -1
    for d in range(st.xw_pillage.shape[0]):
        st.xw_pillage[d] = 0
    for s in range(st.xw_mini.shape[0]):
        for k in range(st.xw_mini.shape[1]):
            for f in range(st.xw_mini.shape[2]):
                st.xw_mini[s, k, f] = 0
            st.xw_mini[s, k, XM.POS] = -1
        for f in range(st.xw_seat.shape[1]):
            st.xw_seat[s, f] = 0
