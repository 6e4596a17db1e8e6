"""TWO PLAYERS GAME & SOLO MODE: the A.I. player, its setup and its turn, jitted.

The A.I. sits at a seat of its own (its strategy id is :data:`sim.state.AI_STRATEGY`; ``G.AI`` holds
its seat + 1), so the map, the Major grids, the council track and the scoring treat it as any
player. Its turn is this module's :func:`ai_turn` (sim.actions.turn.play_turn hands it over): "At
the A.I. turn, draw an A.I. card and apply it. If that is not possible, draw another card". Its
answers to the engine's decisions are :mod:`sim.ai_choice`.

Setup (ADDITIONAL SETUP): a random Character of ``solo.characters``; the FAQ's starting resources;
all its workers (``solo.workers`` by ``solo.strength``) at every decade's start; the deck of Solo
cards shuffled with 2 face up under it; a Lot placed by the randomizer procedure. Where it builds:
:mod:`sim.solo_placement`.

The Solo cards (ruling R-11, ``solo.deck``) and what each does are the readings written in the
rules file's [solo] section (``reading_*``): it pays no resources, no salary, takes no banner.
"""

import numpy as np
from numba import njit

from sim.ai_choice import tie_among
from sim.city import count_owned
from sim.codes import Act, AiCard, AiTie, Ch, Ev
from sim.core import log, place_workers, set_option, workers_available
from sim.council_vote import building_put_up, gain_council
from sim.deck import draw_and_keep
from sim.economy import coin_value, grid_range, pay_coins, take_coins, take_from_grids
from sim.major_buildings import grid_free, major_open, n_full_districts, n_spaces, place_on_grid
from sim.rng import permutation, rand_below
from sim.rules import RK
from sim.solo_placement import ai_new_space, new_space_possible, randomizer
from sim.state import N_AI_CARDS, N_CARDS, N_CHARACTERS, PF, B, G, Loc, Mini, Sup

# ----------------------------------------------------------------------------- setup


@njit(cache=True)
def ai_character(st, r, seat):
    """A random Character from ``solo.characters`` that no player holds."""
    k = 0
    for i in range(r.ai_chars.shape[0]):
        c = r.ai_chars[i]
        if st.card_loc[c] < Loc.HAND:
            k += 1
    j = rand_below(st, k)
    for i in range(r.ai_chars.shape[0]):
        c = r.ai_chars[i]
        if st.card_loc[c] < Loc.HAND:
            if j == 0:
                st.card_loc[c] = Loc.HAND + seat
                st.card_rot[c] = 0
                st.pl[seat, PF.CHARACTER] = c
                log(st, Ev.CHARACTER, seat, c, 0)
                return c
            j -= 1
    return -1


@njit(cache=True)
def _start_item(st, seat, slot_pf, slot_sup, n):
    st.supply[slot_sup] += st.pl[seat, slot_pf]
    got = min(n, st.supply[slot_sup])
    st.supply[slot_sup] -= got
    st.pl[seat, slot_pf] = got


@njit(cache=True)
def ai_start(st, r, seat):
    """The A.I.'s start (FAQ SOLO GAME: one of each coin plus 1 wood and 1 stone, in place of SETUP 5's)
    and its workers (``solo.workers`` of ``solo.strength``)."""
    _start_item(st, seat, PF.WOOD, Sup.WOOD, r.k[RK.AI_START_WOOD])
    _start_item(st, seat, PF.STONE, Sup.STONE, r.k[RK.AI_START_STONE])
    _start_item(st, seat, PF.SILVER, Sup.SILVER, r.k[RK.AI_START_SILVER])
    _start_item(st, seat, PF.BRONZE, Sup.BRONZE, r.k[RK.AI_START_BRONZE])
    st.pl[seat, PF.WORKERS] = ai_workers(r)


@njit(cache=True)
def ai_workers(r):
    return r.ai_workers[r.k[RK.AI_STRENGTH]]


@njit(cache=True)
def ai_deal(st, r, seat):
    """ADDITIONAL SETUP: the A.I. deck (2 cards face up under it) and its Lot in the Starting Area by
    the randomizer procedure."""
    ai_new_deck(st, r)
    c = randomizer(st, r)
    if c >= 0:
        ai_build(st, r, seat, B.LOT, c, 0)


@njit(cache=True)
def ai_start_of_decade(st, r):
    """"A.I. player has all of their workers available to them at the start of the Decade,
    independently from the workers used in Major buildings in previous decades" (those stay on their
    grids as disks of another colour: ``G.AI_DISKS``)."""
    seat = st.g[G.AI] - 1
    if seat < 0:
        return
    st.pl[seat, PF.WORKERS] = ai_workers(r)
    st.pl[seat, PF.WORKERS_PLACED] = 0
    n = 0
    for m in range(st.major.shape[0]):
        for i in range(st.major.shape[1]):
            if st.major[m, i] == seat:
                n += 1
    st.g[G.AI_DISKS] = n


# ----------------------------------------------------------------------------- the deck


@njit(cache=True)
def ai_new_deck(st, r):
    """Shuffle all A.I. cards; the last ``solo.face_up_cards`` lie face up under the deck."""
    perm = permutation(st, N_AI_CARDS)
    for i in range(N_AI_CARDS):
        st.ai_deck[i] = perm[i]
    st.g[G.AI_TOP] = 0
    log(st, Ev.AI_DECK)


@njit(cache=True)
def ai_draw(st, r):
    """The top A.I. card. "When the deck depletes (a face-up card is visible), create a new deck":
    drawing the last face-down card makes it again at once."""
    face_down = N_AI_CARDS - r.k[RK.AI_FACE_UP]
    if st.g[G.AI_TOP] >= face_down:
        ai_new_deck(st, r)
    c = st.ai_deck[st.g[G.AI_TOP]]
    st.g[G.AI_TOP] += 1
    if st.g[G.AI_TOP] >= face_down:
        ai_new_deck(st, r)
    return c


@njit(cache=True)
def ai_redraw(st, r):
    """A searching player's redraw of what it cannot know (sim.game.determinize): the order of the
    A.I.'s face-down cards. They are sorted before they are dealt again, as the deck's redraw takes
    its cards in card order (sim.deck.shuffle_deck): the redrawn order depends on which cards are
    face down, never on the order they really lie in."""
    lo = st.g[G.AI_TOP]
    m = N_AI_CARDS - r.k[RK.AI_FACE_UP] - lo
    if m <= 1:
        return
    perm = permutation(st, m)
    tmp = np.sort(st.ai_deck[lo:lo + m])
    for i in range(m):
        st.ai_deck[lo + i] = tmp[perm[i]]


# ----------------------------------------------------------------------------- workers


@njit(cache=True)
def _status_cc(st, r, seat):
    """City Council workers its Worker status would give now (0: none), and their bronze: "it uses a
    City Council worker paying the bronze coin, if required (remember that A.I. never pays
    resources)" - Level II's wood/stone payment is a resource, so Level II costs it nothing."""
    lvl = st.pl[seat, PF.ST_WORKER]
    if lvl == 0 or st.pl[seat, PF.USED_CC_STATUS] != 0:
        return 0, 0
    n = min(r.worker_cc[lvl - 1], st.supply[Sup.COUNCIL_WORKERS])
    bronze = r.worker_bronze[lvl - 1] if lvl == 1 else 0
    if n == 0 or coin_value(st, r, seat) < bronze:
        return 0, 0
    return n, bronze


@njit(cache=True)
def can_staff(st, r, seat, need):
    have = workers_available(st, seat)
    if have >= need:
        return True
    n, _ = _status_cc(st, r, seat)
    return have + n >= need


@njit(cache=True)
def staff_bronze(st, r, seat, need):
    """The bronze :func:`staff` would pay for ``need`` workers (its Worker status at Level I)."""
    if workers_available(st, seat) >= need:
        return 0
    return _status_cc(st, r, seat)[1]


@njit(cache=True)
def staff(st, r, seat, need):
    """Workers for an action: its own, and City Council workers of its Worker status when short."""
    if workers_available(st, seat) >= need:
        return
    n, bronze = _status_cc(st, r, seat)
    if bronze > 0:
        pay_coins(st, r, seat, bronze)
    st.supply[Sup.COUNCIL_WORKERS] -= n
    st.pl[seat, PF.CC_WORKERS] += n
    st.pl[seat, PF.USED_CC_STATUS] = 1
    log(st, Ev.CC_WORKER, seat, n, 0 if bronze > 0 else 3)


# ----------------------------------------------------------------------------- the cards


@njit(cache=True)
def ai_build(st, r, seat, t, c, w):
    """A Lot, House or Palace of the A.I. on space c for ``w`` workers, no resources paid; an upgrade
    replaces (and gives back) the Lot or House there."""
    place_workers(st, seat, w)
    old = st.cell_b[c]
    if old == B.LOT:
        st.pl[seat, PF.LOTS] += 1
    elif old == B.HOUSE:
        st.pl[seat, PF.HOUSES] += 1
    if t == B.LOT:
        st.pl[seat, PF.LOTS] -= 1
    elif t == B.HOUSE:
        st.pl[seat, PF.HOUSES] -= 1
    else:
        st.pl[seat, PF.PALACE_MARKERS] -= 1
        st.supply[Sup.PALACE] -= 1
    full_before = n_full_districts(st, r)
    st.cell_b[c] = t
    st.cell_owner[c] = seat
    st.built[seat, t] += 1
    log(st, Ev.BUILD, seat, t, c, w, 0, 0, 0)
    building_put_up(st, r, seat, t, full_before)


@njit(cache=True)
def _pick_own(st, r, seat, b):
    """The A.I.'s Lot or House to upgrade: the only one, or the human's choice among them."""
    k = 0
    for c in range(st.cell_b.shape[0]):
        if st.cell_b[c] == b and st.cell_owner[c] == seat:
            set_option(st, k, c, b)
            k += 1
    vals = np.zeros(k, np.int64)
    return st.opts[tie_among(st, r, k, vals, 0, AiTie.UPGRADE, 0), 0]


@njit(cache=True)
def wanted_building(st, r, seat):
    """The building a Build card makes the A.I. want (``solo.reading_build``): one step of the Lot >
    House > Palace sequence, the highest its pieces and the map allow: a Palace on one of its Houses
    (a Palace marker and a Palace left), else a House on one of its Lots (a House left), else a new
    Lot (a Lot left); ``B.NONE`` when none. Its workers play no part: they are the cost of the
    building it wants (FAQ SOLO GAME), not a reason to want another."""
    if st.pl[seat, PF.PALACE_MARKERS] > 0 and st.supply[Sup.PALACE] > 0 and count_owned(st, seat, B.HOUSE) > 0:
        return B.PALACE
    if st.pl[seat, PF.HOUSES] > 0 and count_owned(st, seat, B.LOT) > 0:
        return B.HOUSE
    if st.pl[seat, PF.LOTS] > 0:
        return B.LOT
    return B.NONE


@njit(cache=True)
def card_build(st, r, seat, w, play):
    """Build a Lot / House / Palace (2-3): the building it wants (:func:`wanted_building`) for its
    actual cost, ``w`` workers for a Lot or a House and ``solo.palace_workers`` for a Palace. FAQ
    SOLO GAME: "A.I. uses Actual cost. If A.I. doesn't have enough workers, you must draw another
    card": short of workers for the building it wants, the card is not playable (it does not build
    a cheaper one instead). The FAQ's "If 1+ effect is possible, the card is playable" is about a
    card with two effects; this card has one, building, and the board, not its workers, says which
    building (reading: ``solo.reading_build``)."""
    t = wanted_building(st, r, seat)
    if t == B.NONE:
        return False
    need = r.k[RK.AI_PALACE_WORKERS] if t == B.PALACE else w
    if not can_staff(st, r, seat, need):
        return False
    c = -1
    if t == B.LOT:
        if not play:
            return new_space_possible(st, r, seat)
        c = ai_new_space(st, r, seat)
        if c < 0:
            return False
    elif play:
        c = _pick_own(st, r, seat, B.HOUSE if t == B.PALACE else B.LOT)  # an upgrade replaces it
    if play:
        staff(st, r, seat, need)
        ai_build(st, r, seat, t, c, need)
    return True


@njit(cache=True)
def _act_row(r, b, want_input, res):
    """The building's activation row that gains from the grids (``want_input`` False) or converts
    ``res`` into precious (True); -1 when none."""
    for i in range(r.act_nrows[b]):
        row = r.act_rows[b, i]
        no_input = True
        for j in range(r.act_in.shape[1]):
            if r.act_in[row, j] != 0:
                no_input = False
        if not want_input and no_input and r.act_out[row, res] > 0:
            return row
        if want_input and r.act_in[row, res] > 0 and r.act_out[row, 2] > 0:
            return row
    return -1


@njit(cache=True)
def _grid_cubes(st, r, res):
    lo, hi = grid_range(r, res)
    n = 0
    for g in range(lo, hi):
        n += st.grids[g]
    return n


@njit(cache=True)
def card_resource(st, r, seat, face, w, play):
    """The Quarry card (2 stone) and the Carpentry card (2 wood), as the buildings' activations; a
    Carpenter takes wood on both, a Stonemason stone; a Merchant converts 2 of the card's resource
    into 1 precious when it holds them (and keeps them: it never pays resources)."""
    res = 1 if face == AiCard.QUARRY else 0
    ch = st.pl[seat, PF.CHARACTER]
    if ch == Ch.CARPENTER:
        res = 0
    elif ch == Ch.STONEMASON:
        res = 1
    b = B.QUARRY if res == 1 else B.CARPENTRY
    if not can_staff(st, r, seat, w):
        return False
    conv = _act_row(r, b, True, res)
    if ch == Ch.MERCHANT and conv >= 0 and st.pl[seat, PF.WOOD + res] >= r.act_in[conv, res] and st.grids[8] > 0:
        if play:
            staff(st, r, seat, w)
            place_workers(st, seat, w)
            got = take_from_grids(st, r, seat, 2, r.act_out[conv, 2])
            log(st, Ev.AI_GAIN, seat, 2, got)
        return True
    gain = _act_row(r, b, False, res)
    if gain < 0 or _grid_cubes(st, r, res) == 0:
        return False
    if play:
        staff(st, r, seat, w)
        place_workers(st, seat, w)
        got = take_from_grids(st, r, seat, res, r.act_out[gain, res])
        log(st, Ev.AI_GAIN, seat, res, got)
    return True


@njit(cache=True)
def _coins_on_stacks(st):
    n = 0
    for s in range(st.stacks.shape[0]):
        n += st.stacks[s, 0] + st.stacks[s, 1]
    return n


@njit(cache=True)
def card_market(st, r, seat, w, play):
    """The Market card: the Market sale that pays most among those whose resources it holds (it keeps
    them), coins from the stacks."""
    if not can_staff(st, r, seat, w) or _coins_on_stacks(st) == 0:
        return False
    best = -1
    bv = 0
    for i in range(r.act_nrows[B.MARKET]):
        row = r.act_rows[B.MARKET, i]
        if r.act_in[row, 4] != 0 or r.act_in[row, 5] != 0:
            continue  # a purchase
        v = r.k[RK.BRONZE_PER_SILVER] * r.act_out[row, 6] + r.act_out[row, 7]
        held = True
        for j in range(4):
            if st.pl[seat, PF.WOOD + j] < r.act_in[row, j]:
                held = False
        if held and v > bv:
            bv = v
            best = row
    if best < 0:
        return False
    if play:
        staff(st, r, seat, w)
        place_workers(st, seat, w)
        b0 = coin_value(st, r, seat)
        take_coins(st, r, seat, r.act_out[best, 6], r.act_out[best, 7])
        log(st, Ev.AI_GAIN, seat, 3, coin_value(st, r, seat) - b0)
    return True


@njit(cache=True)
def card_major(st, r, seat, w, play):
    """"Major building: 3 workers on the grid with the most workers" (R-11): the open grid with most
    workers on it (a tie: the human chooses), its best free spaces; fewer workers when fewer spaces
    are left (FAQ: actual cost)."""
    nm = st.major.shape[0]
    vals = np.full(nm, -1, np.int64)
    best = -1
    for m in range(nm):
        if major_open(st, r, m):
            vals[m] = n_spaces(st, r, m) - grid_free(st, r, m)
            best = max(best, vals[m])
    if best < 0:
        return False
    k = 0
    for m in range(nm):
        if vals[m] == best and can_staff(st, r, seat, min(w, grid_free(st, r, m))):
            k += 1
        elif vals[m] == best:
            vals[m] = -1  # the grid it cannot staff is not among its choices
    if k == 0:
        return False
    if play:
        for m in range(nm):  # rows [grid, the workers it would put there]: what the human weighs in a tie
            set_option(st, m, m, min(w, grid_free(st, r, m)))
        m = tie_among(st, r, nm, vals, best, AiTie.GRID, 0)
        need = min(w, grid_free(st, r, m))
        staff(st, r, seat, need)
        place_on_grid(st, r, seat, m, need)
    return True


@njit(cache=True)
def card_council(st, r, seat, w, play):
    """City Council +3 (R-11)."""
    if not can_staff(st, r, seat, w) or st.pl[seat, PF.COUNCIL] >= r.k[RK.COUNCIL_MAX]:
        return False
    if play:
        staff(st, r, seat, w)
        place_workers(st, seat, w)
        gain_council(st, r, seat, r.k[RK.AI_COUNCIL_POINTS])
        log(st, Ev.COUNCIL, seat, w, r.k[RK.AI_COUNCIL_POINTS], st.pl[seat, PF.COUNCIL])
    return True


@njit(cache=True)
def _ship_load(st, r, seat, extra):
    """The first load of [[ship.load]] it can show on its Dock space this decade: the resources it
    holds (their stand-ins go from the game supply: it keeps its own), the coins it pays (beside
    ``extra`` bronze for City Council workers); -1 none."""
    if st.pl[seat, PF.SHIP_LOAD] >= 0:
        return -1
    room = r.k[RK.SHIP_MAX_ELEMENTS] - st.dock[seat]
    for ld in range(r.ship_put.shape[0]):
        if r.ship_needs[ld] >= 0 and st.major_state[r.ship_needs[ld], 1] == 0:
            continue
        if r.ship_needs_not[ld] >= 0 and st.major_state[r.ship_needs_not[ld], 1] > 0:
            continue
        p = r.ship_put[ld]
        if p[0] + p[1] + p[2] + p[3] + p[4] > room:
            continue
        ok = p[3] + p[4] == 0 or (st.pl[seat, PF.SILVER] >= p[3] and st.pl[seat, PF.BRONZE] >= p[4] + extra)
        for i in range(3):
            if st.pl[seat, PF.WOOD + i] < p[i] or st.supply[Sup.WOOD + i] < p[i]:
                ok = False
        if ok:
            return ld
    return -1


@njit(cache=True)
def card_ship(st, r, seat, w, play):
    """Load the Ship (2 workers; 1 less with the Harbor, as for every player)."""
    if st.g[G.HARBOR_BUILT] == 1:
        w = max(1, w - (r.k[RK.SHIP_WORKERS] - r.k[RK.SHIP_WORKERS_HARBOR]))
    if not can_staff(st, r, seat, w):
        return False
    ld = _ship_load(st, r, seat, staff_bronze(st, r, seat, w))
    if ld < 0:
        return False
    if play:
        staff(st, r, seat, w)
        place_workers(st, seat, w)
        p = r.ship_put[ld]
        for i in range(3):
            st.supply[Sup.WOOD + i] -= p[i]
        st.pl[seat, PF.SILVER] -= p[3]
        st.pl[seat, PF.BRONZE] -= p[4]
        st.dock[seat] += p[0] + p[1] + p[2] + p[3] + p[4]
        st.pl[seat, PF.SHIP_LOAD] = ld
        log(st, Ev.SHIP, seat, ld)
    return True


@njit(cache=True)
def _cards_left(st):
    for c in range(N_CHARACTERS, N_CARDS):
        loc = st.card_loc[c]
        if loc == Loc.DECK or loc == Loc.GAME_DISCARD or (loc >= Loc.PILE and loc < Loc.PILE + 5):
            return True
    return False


@njit(cache=True)
def card_take(st, r, seat, w, play):
    """Take a card: 2 from the deck, keeping the one that makes its biggest colour series."""
    if not can_staff(st, r, seat, w) or not _cards_left(st):
        return False
    if play:
        staff(st, r, seat, w)
        place_workers(st, seat, w)
        draw_and_keep(st, r, seat, r.k[RK.TAKE_CARD_DRAW])
    return True


@njit(cache=True)
def card_miliciano(st, r, seat, w, play):
    """Deploy Milicianos: a new Miliciano on an empty War marker, else a Miliciano made a Veteran (its
    precious is a resource: not paid)."""
    if not can_staff(st, r, seat, w):
        return False
    nm = r.k[RK.WAR_MARKERS]
    j_new = -1
    j_vet = -1
    for j in range(nm):
        if st.minis[seat, j, 0] == Mini.NONE and j_new < 0:
            j_new = j
        if st.minis[seat, j, 0] == Mini.MILICIANO and j_vet < 0:
            j_vet = j
    if st.supply[Sup.MILICIANOS] <= 0:
        j_new = -1
    if j_new < 0 and j_vet < 0:
        return False
    if play:
        staff(st, r, seat, w)
        place_workers(st, seat, w)
        if j_new >= 0:
            st.supply[Sup.MILICIANOS] -= 1
            st.minis[seat, j_new, 0] = Mini.MILICIANO
            st.minis[seat, j_new, 1] = 0
            log(st, Ev.MILICIANO, seat, 0, j_new)
        else:
            st.minis[seat, j_vet, 0] = Mini.MILICIANO_VET
            log(st, Ev.MILICIANO, seat, 1, j_vet)
    return True


@njit(cache=True)
def card_status(st, r, seat, w, play):
    """Improve Status (lowest legal): the legal improvement to the lowest level (a tie: the human
    chooses the category); the card's workers and the level's silver."""
    if not can_staff(st, r, seat, w):
        return False
    vals = np.full(4, -1, np.int64)
    best = -1
    rate = r.k[RK.BRONZE_PER_SILVER]
    for cat in range(4):
        lvl = st.pl[seat, PF.ST_CONSTRUCTION + cat]
        if lvl >= 3 or (lvl == 0 and st.pl[seat, PF.STATUS_MARKERS] <= 0):
            continue
        if coin_value(st, r, seat) < rate * r.st_silver[lvl] + staff_bronze(st, r, seat, w):
            continue
        vals[cat] = 10 - lvl  # the lowest new level is the best
        best = max(best, vals[cat])
    if best < 0:
        return False
    if play:
        for cat in range(4):
            set_option(st, cat, cat, st.pl[seat, PF.ST_CONSTRUCTION + cat] + 1)
        cat = tie_among(st, r, 4, vals, best, AiTie.STATUS, 0)
        lvl = st.pl[seat, PF.ST_CONSTRUCTION + cat]
        staff(st, r, seat, w)
        place_workers(st, seat, w)
        pay_coins(st, r, seat, rate * r.st_silver[lvl])
        if lvl == 0:
            st.pl[seat, PF.STATUS_MARKERS] -= 1
        st.pl[seat, PF.ST_CONSTRUCTION + cat] = lvl + 1
        log(st, Ev.STATUS, seat, cat, lvl + 1)
    return True


@njit(cache=True)
def card_order(st, r, seat, w, play):
    """Player order: its workers on the Player Order space."""
    if not can_staff(st, r, seat, w):
        return False
    if play:
        staff(st, r, seat, w)
        place_workers(st, seat, w)
        st.pl[seat, PF.ORDER_WORKERS] += w
        log(st, Ev.ORDER, seat, w)
    return True


@njit(cache=True)
def ai_play(st, r, seat, card, play):
    """Solo card ``card``: can it be played now (``play`` False: no change, no decision, no random
    draw), or play it (True; returns whether it was played)."""
    face = r.ai_deck[card]
    w = r.ai_deck_workers[card]
    if face == AiCard.BUILD:
        return card_build(st, r, seat, w, play)
    if face == AiCard.QUARRY or face == AiCard.CARPENTRY:
        return card_resource(st, r, seat, face, w, play)
    if face == AiCard.MARKET:
        return card_market(st, r, seat, w, play)
    if face == AiCard.MAJOR:
        return card_major(st, r, seat, w, play)
    if face == AiCard.COUNCIL:
        return card_council(st, r, seat, w, play)
    if face == AiCard.SHIP:
        return card_ship(st, r, seat, w, play)
    if face == AiCard.TAKE_CARD:
        return card_take(st, r, seat, w, play)
    if face == AiCard.MILICIANO:
        return card_miliciano(st, r, seat, w, play)
    if face == AiCard.STATUS:
        return card_status(st, r, seat, w, play)
    return card_order(st, r, seat, w, play)


# the main action each Solo card's action is (AiCard order), for the records (``st.acts``, as a
# player's TURN rows are counted): the A.I.'s turns do not go through sim.actions.apply_option
_AI_ACT = {AiCard.BUILD: Act.BUILD, AiCard.QUARRY: Act.ACTIVATE, AiCard.CARPENTRY: Act.ACTIVATE, AiCard.MARKET: Act.ACTIVATE,
           AiCard.MAJOR: Act.MAJOR, AiCard.COUNCIL: Act.COUNCIL, AiCard.SHIP: Act.SHIP, AiCard.TAKE_CARD: Act.CARD_DRAW,
           AiCard.MILICIANO: Act.MILICIANO, AiCard.STATUS: Act.STATUS, AiCard.ORDER: Act.ORDER}
AI_CARD_ACT = tuple(int(_AI_ACT[c]) for c in AiCard)


@njit(cache=True)
def _pass(st, seat):
    st.pl[seat, PF.PASSED] = 1
    st.acts[seat, Act.PASS] += 1
    log(st, Ev.PASS, seat)


@njit(cache=True)
def ai_turn(st, r, seat):
    """The A.I.'s turn: "draw an A.I. card and apply it. If that is not possible, draw another card";
    "When the A.I. used its number of available workers, it passes". With workers left but no card
    of its deck playable it passes too (drawing would never end)."""
    if workers_available(st, seat) <= 0:
        _pass(st, seat)
        return
    any_card = False
    for c in range(N_AI_CARDS):
        if ai_play(st, r, seat, c, False):
            any_card = True
            break
    if not any_card:
        _pass(st, seat)
        return
    for _ in range(8 * N_AI_CARDS):  # a playable card turns up within two decks
        c = ai_draw(st, r)
        ok = ai_play(st, r, seat, c, False)
        log(st, Ev.AI_CARD, seat, c, r.ai_deck[c], 1 if ok else 0, r.ai_deck_workers[c])
        if ok:
            if ai_play(st, r, seat, c, True):
                st.acts[seat, AI_CARD_ACT[r.ai_deck[c]]] += 1
                return
            log(st, Ev.AI_CARD, seat, c, r.ai_deck[c], 0, r.ai_deck_workers[c])
    _pass(st, seat)

