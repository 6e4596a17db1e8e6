"""SETUP, the decade loop (A. START OF THE DECADE, B. ACTION PHASE, C. END OF THE DECADE), the
game's start and end, and what a searching player needs from the engine (a copy of the game's
state, the hidden information redrawn), jitted; plus :func:`allocate`.

A whole game between players, each seat's turn played by its family, is
:func:`strategies.match.play_game`: the engine's phases here decide through :mod:`sim.seam`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.actions import action_phase, own_turn
from sim.actions.ship import ship_sails
from sim.codes import Dec, Ev
from sim.compiled_parts import extended_war_entry, solo_ai_entry
from sim.core import add_vp, decide, log, set_option
from sim.deck import (
    card_group,
    pay_salary,
    phase_a_draw,
    put_on,
    reactivate_cards,
    reshuffle_discards,
    shuffle_deck,
    top_of,
)
from sim.extended_war import begin_extended_war, end_war, last_decade_war
from sim.major_buildings import recover_completed
from sim.records import N_RD, N_RG, RG, record_decade, record_play
from sim.rng import permutation, rand_below
from sim.rules import RK, Rules
from sim.scoring import end_game, ranks, resources_total, score_era, scoring_due
from sim.seam import character_weights, copy_seat_data, seat_data, seat_weights
from sim.solo import ai_character, ai_deal, ai_redraw, ai_start, ai_start_of_decade
from sim.state import (
    AI_STRATEGY,
    GRID_PRECIOUS,
    GRID_STONE,
    GRID_WOOD,
    MAX_PLAYERS,
    N_CARDS,
    N_CHARACTERS,
    N_SUP,
    PF,
    VS,
    XG,
    G,
    Loc,
    State,
    Sup,
    new_state,
)
from sim.war import declare_war, end_of_war_tension

# the optional parts, reached only through their hooks (sim.compiled_parts: compiled only into the runs that play them)
solo_ai_character = solo_ai_entry(ai_character)
solo_ai_deal = solo_ai_entry(ai_deal)
solo_ai_redraw = solo_ai_entry(ai_redraw)
solo_ai_start = solo_ai_entry(ai_start)
solo_ai_start_of_decade = solo_ai_entry(ai_start_of_decade)
xw_begin_extended_war = extended_war_entry(begin_extended_war)
xw_end_war = extended_war_entry(end_war)
xw_last_decade_war = extended_war_entry(last_decade_war)

# ----------------------------------------------------------------------------- setup


@njit(cache=True)
def _take_supply(st, slot, n):
    got = min(n, st.supply[slot])
    st.supply[slot] -= got
    return got


@njit(cache=True)
def _give_start(st, seat, slot_pf, slot_sup, n):
    st.pl[seat, slot_pf] += _take_supply(st, slot_sup, n)


@njit(cache=True)
def assign_character(st, seat, c, price):
    st.card_loc[c] = Loc.HAND + seat
    st.card_rot[c] = 0
    st.pl[seat, PF.CHARACTER] = c
    log(st, Ev.CHARACTER, seat, c, price)
    if price > 0:
        add_vp(st, seat, -price, VS.AUCTION)


@njit(cache=True)
def auction(st, r, card, bidders, nb):
    """Bid VP for a contested Character card: in turn order each bids more than the last bid or
    passes (withdraws); the last one left takes the card and pays the bid."""
    active = bidders[:nb].copy()
    high = 0
    high_seat = -1
    n_active = nb
    raises = r.k[RK.AUCTION_RAISES]
    for _ in range(10000):
        if n_active <= 1:
            break
        for i in range(nb):
            s = active[i]
            if s < 0 or s == high_seat or n_active <= 1:
                continue
            set_option(st, 0, 0, card)
            for j in range(raises):
                set_option(st, 1 + j, high + 1 + j, card)
            bid = st.opts[decide(st, r, s, Dec.BID, raises + 1), 0]
            log(st, Ev.BID, s, card, bid)
            if bid == 0:
                active[i] = -1
                n_active -= 1
            else:
                high = bid
                high_seat = s
    winner = -1
    for i in range(nb):
        if active[i] >= 0:
            winner = active[i]
    assign_character(st, winner, card, high)
    return winner


@njit(cache=True)
def choose_characters(st, r, n):
    """SETUP Starting Character card: X+3 cards on offer; in turn order each puts a disk on one;
    single disks take the card; contested cards are auctioned, lowest number first; players left
    without a card repeat with the remaining cards."""
    perm = permutation(st, N_CHARACTERS)
    ai = st.g[G.AI] - 1  # the Solo A.I. has its Character already (sim.solo.ai_character): X = the players
    nh = n - (1 if ai >= 0 else 0)
    n_offer = min(N_CHARACTERS - (n - nh), nh + r.k[RK.CHAR_OFFER_EXTRA])
    k = 0
    for i in range(N_CHARACTERS):
        c = perm[i]
        if st.card_loc[c] >= Loc.HAND:
            continue
        st.card_loc[c] = Loc.DISPLAY if k < n_offer else Loc.BOX
        if k < n_offer:
            log(st, Ev.OFFER, c)
        k += 1
    disks = np.empty(MAX_PLAYERS, np.int32)
    bidders = np.empty(MAX_PLAYERS, np.int32)
    for s in range(n):
        if s != ai:
            st.pl[s, PF.CHARACTER] = -1
    for _ in range(100):
        missing = 0
        for s in range(n):
            disks[s] = -1
            if st.pl[s, PF.CHARACTER] < 0:
                missing += 1
        if missing == 0:
            break
        for i in range(n):
            s = st.order[i]
            if st.pl[s, PF.CHARACTER] >= 0:
                continue
            k = 0
            for c in range(N_CHARACTERS):
                if st.card_loc[c] == Loc.DISPLAY:
                    set_option(st, k, c)
                    k += 1
            disks[s] = st.opts[decide(st, r, s, Dec.CHAR_PICK, k), 0]
            log(st, Ev.DISK, s, disks[s])
        for c in range(N_CHARACTERS):
            nb = 0
            for i in range(n):
                s = st.order[i]
                if disks[s] == c:
                    bidders[nb] = s
                    nb += 1
            if nb == 1:
                assign_character(st, bidders[0], c, 0)
            elif nb > 1:
                auction(st, r, c, bidders, nb)
    for c in range(N_CHARACTERS):
        if st.card_loc[c] == Loc.DISPLAY:
            st.card_loc[c] = Loc.BOX


@njit(cache=True)
def first_game_characters(st, r, n):
    """FIRST GAME OPTION: each player gets 2 random Character cards and keeps 1."""
    perm = permutation(st, N_CHARACTERS)
    for c in range(N_CHARACTERS):
        if st.card_loc[c] < Loc.HAND:  # not the Solo A.I.'s (sim.solo.ai_character)
            st.card_loc[c] = Loc.BOX
    per = r.k[RK.FIRST_GAME_CHARS]
    p = 0
    for i in range(n):
        s = st.order[i]
        if st.g[G.AI] == s + 1:
            continue
        for j in range(per):
            while st.card_loc[perm[p]] >= Loc.HAND:
                p += 1
            set_option(st, j, perm[p])
            p += 1
        keep = st.opts[decide(st, r, s, Dec.FIRST_GAME_KEEP, per), 0]
        assign_character(st, s, keep, 0)
        log(st, Ev.FIRST_GAME, s, keep)


@njit(cache=True)
def starting_affiliates(st, n):
    """SETUP Starting Affiliate card: draw one at a time; the first card of each player's
    Character group goes to that player, other cards are set aside; then set-aside cards and the
    deck are shuffled together and the top card starts the game discard pile."""
    for c in range(N_CHARACTERS, N_CARDS):
        st.card_loc[c] = Loc.DECK
    shuffle_deck(st)
    need = 0
    for s in range(n):
        need += 1
    for _ in range(N_CARDS):
        if need == 0:
            break
        c = top_of(st, Loc.DECK)
        g = card_group(c)
        taker = -1
        for s in range(n):
            if st.pl[s, PF.CHARACTER] == g:
                has = False
                for d in range(N_CHARACTERS, N_CARDS):
                    if st.card_loc[d] == Loc.HAND + s:
                        has = True
                if not has:
                    taker = s
        if taker >= 0:
            put_on(st, c, Loc.HAND + taker)
            log(st, Ev.AFFILIATE_START, taker, c)
            need -= 1
        else:
            st.card_loc[c] = Loc.SET_ASIDE
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.SET_ASIDE:
            st.card_loc[c] = Loc.DECK
    shuffle_deck(st)
    c = top_of(st, Loc.DECK)
    put_on(st, c, Loc.GAME_DISCARD)


@njit(cache=True)
def refill(st, r, n, initial):
    """C.4 REFILL (and SETUP fill): only empty grids and stacks; the City Warehouse back to 2+2."""
    cubes = r.grid_cubes[n - 2]
    for gi in range(GRID_STONE, GRID_STONE + r.k[RK.STONE_GRIDS]):
        if st.grids[gi] == 0 or initial:
            st.grids[gi] += _take_supply(st, Sup.STONE, cubes)
    for gi in range(GRID_WOOD, GRID_WOOD + r.k[RK.WOOD_GRIDS]):
        if st.grids[gi] == 0 or initial:
            st.grids[gi] += _take_supply(st, Sup.WOOD, cubes)
    if st.grids[GRID_PRECIOUS] == 0 or initial:
        st.grids[GRID_PRECIOUS] += _take_supply(st, Sup.PRECIOUS, n * r.k[RK.PRECIOUS_PER_PLAYER])
    for s in range(r.k[RK.COIN_STACKS]):
        if st.stacks[s, 0] + st.stacks[s, 1] == 0 or initial:
            st.stacks[s, 0] += _take_supply(st, Sup.SILVER, n * r.k[RK.SILVER_PER_STACK])
    want_w = r.k[RK.WAREHOUSE_WOOD]
    want_s = r.k[RK.WAREHOUSE_STONE]
    if st.warehouse[0] < want_w:
        st.warehouse[0] += _take_supply(st, Sup.WOOD, want_w - st.warehouse[0])
    if st.warehouse[1] < want_s:
        st.warehouse[1] += _take_supply(st, Sup.STONE, want_s - st.warehouse[1])


@njit(cache=True)
def forced_characters(st, n, chars, paid):
    """An experiment's fixed Characters (seat s gets card ``chars[s]``): the Character offer and
    auction are skipped; the other Character cards go back to the box. Seat s pays ``paid[s]`` VP
    for its card, as the SETUP auction's winning bid would have made it pay ("players bid 1 or more
    VPs"; issue 23: replaying a run at the Characters' auction prices); 0: nobody pays VP."""
    for c in range(N_CHARACTERS):
        st.card_loc[c] = Loc.BOX
    for s in range(n):
        if st.g[G.AI] != s + 1:  # the Solo A.I. draws its own (sim.solo.ai_character)
            assign_character(st, s, chars[s], paid[s])


@njit(cache=True)
def setup(st, r, W, n, strategies, chars, paid, first_game):
    """SETUP 1-5 and the starting cards. Seat s starts at turn position s (the random turn order
    is the random assignment of players to seats, done by the caller). ``chars[0] >= 0`` forces
    each seat's Character (see :func:`forced_characters`), seat s paying ``paid[s]`` VP for it;
    otherwise they are drafted by the rules (``paid`` unused: the auction sets the prices).
    A seat whose strategy is ``AI_STRATEGY`` is the Solo A.I. (TWO PLAYERS GAME & SOLO MODE, sim.solo).
    The game supply is the rules' for the player count: at 2 players without the A.I. the supply of
    the 2-PLAYER GAME WITHOUT A.I.; a game with the A.I. gets at least that of ``solo.supply_players``."""
    st.g[G.NPLAYERS] = n
    st.g[G.AI] = 0
    for s in range(n):
        if strategies[s] == AI_STRATEGY:
            st.g[G.AI] = s + 1
    st.g[G.DECADE] = 0
    st.g[G.ERA] = 1
    st.g[G.FIRST_GAME] = first_game
    st.g[G.LAST_DECADE] = r.k[RK.FIRST_GAME_DECADES] if first_game else r.k[RK.DECADES]
    st.g[G.TURN_SEAT] = -1
    col = n - 2
    if st.g[G.AI] > 0:  # a game with the A.I. has at least the supply of solo.supply_players players
        col = max(col, r.k[RK.AI_SUPPLY_PLAYERS] - 2)
    for j in range(N_SUP):
        st.supply[j] = r.supply_n[col, j]
    for s in range(n):
        st.order[s] = s
        st.pl[s, PF.TURN_POS] = s
        st.pl[s, PF.STRATEGY] = strategies[s]
        seat_weights(st, W, s, strategies[s])  # the players' own fields (sim.seam): the engine does not read them
        st.pl[s, PF.WORKERS] = r.k[RK.WORKERS]
        st.pl[s, PF.LOTS] = r.k[RK.LOTS]
        st.pl[s, PF.HOUSES] = r.k[RK.HOUSES]
        st.pl[s, PF.PALACE_MARKERS] = r.k[RK.PALACE_MARKERS]
        st.pl[s, PF.STATUS_MARKERS] = r.k[RK.STATUS_MARKERS]
        st.pl[s, PF.WAR_MARKERS] = r.k[RK.WAR_MARKERS]
        st.pl[s, PF.COUNCIL] = r.k[RK.COUNCIL_START]
        st.pl[s, PF.WAR_PENALTY] = r.k[RK.WAR_PENALTY_START]
        st.pl[s, PF.SHIP_LOAD] = -1
        st.pl[s, PF.SHIP_LOAD2] = -1
        log(st, Ev.SETUP_ORDER, s, s)
    for s in range(n):
        _give_start(st, s, PF.WOOD, Sup.WOOD, r.k[RK.START_WOOD])
        _give_start(st, s, PF.STONE, Sup.STONE, r.k[RK.START_STONE])
        _give_start(st, s, PF.SILVER, Sup.SILVER, r.k[RK.START_SILVER])
        _give_start(st, s, PF.BRONZE, Sup.BRONZE, r.k[RK.START_BRONZE])
    last = st.order[n - 1]
    _give_start(st, last, PF.WOOD, Sup.WOOD, r.k[RK.LAST_WOOD])
    _give_start(st, last, PF.STONE, Sup.STONE, r.k[RK.LAST_STONE])
    if n == 5:
        s2 = st.order[n - 2]
        if rand_below(st, 2) == 0:
            _give_start(st, s2, PF.STONE, Sup.STONE, r.k[RK.SECOND_LAST_5P])
        else:
            _give_start(st, s2, PF.WOOD, Sup.WOOD, r.k[RK.SECOND_LAST_5P])
    ai = st.g[G.AI] - 1
    if ai >= 0:
        solo_ai_start(r, None, st, r, ai)
    for s in range(n):
        log(st, Ev.START_RES, s, st.pl[s, PF.WOOD], st.pl[s, PF.STONE], st.pl[s, PF.SILVER], st.pl[s, PF.BRONZE])
    forced = False
    for s in range(n):
        if chars[s] >= 0 and s != ai:
            forced = True
    if forced:
        forced_characters(st, n, chars, paid)
        if ai >= 0:
            solo_ai_character(r, None, st, r, ai)
    else:
        if ai >= 0:
            solo_ai_character(r, None, st, r, ai)
        if first_game:
            first_game_characters(st, r, n)
        else:
            choose_characters(st, r, n)
    character_weights(st, W, n, strategies)  # a strategy may play one weight set per Character (sim.seam)
    starting_affiliates(st, n)
    refill(st, r, n, True)
    if ai >= 0:
        solo_ai_deal(r, None, st, r, ai)


# ----------------------------------------------------------------------------- end of the decade


@njit(cache=True)
def new_player_order(st):
    """C.5 PLAYER ORDER: most workers on Player Order first (ties: the rightmost first), the others
    keep their order behind them."""
    n = st.g[G.NPLAYERS]
    old = st.order[:n].copy()
    k = 0
    used = np.zeros(n, np.bool_)
    for _ in range(n):
        best = -1
        for i in range(n - 1, -1, -1):
            s = old[i]
            if used[i] or st.pl[s, PF.ORDER_WORKERS] == 0:
                continue
            if best < 0 or st.pl[s, PF.ORDER_WORKERS] > st.pl[old[best], PF.ORDER_WORKERS]:
                best = i
        if best < 0:
            break
        used[best] = True
        st.order[k] = old[best]
        k += 1
    for i in range(n):
        if not used[i]:
            st.order[k] = old[i]
            k += 1
    for i in range(n):
        st.pl[st.order[i], PF.TURN_POS] = i
        log(st, Ev.ORDER_NEW, st.order[i], i)


@njit(cache=True)
def end_of_decade(st, r):
    """C. END OF THE DECADE, steps 1-7 in order: 1. CARDS REACTIVATION, 2. SHIP SAILS FOR SPAIN, 3.
    TENSION LEVEL & WAR, 4. REFILL, 5. PLAYER ORDER, 6. RECOVER WORKERS, 7. SCORING."""
    n = st.g[G.NPLAYERS]
    d = st.g[G.DECADE]
    # EXTENDED WAR, END OF THE WAR: a war still on ends "at Decade end", before this phase's steps
    # (the new deck it makes is the one step 3's tension reads)
    if st.xw[XG.ACTIVE] == 1:
        xw_end_war(r, None, st, r)
    # 1. cards reactivation
    for i in range(n):
        s = st.order[i]
        k = st.pl[s, PF.REACT_WORKERS] * r.k[RK.REACT_PER_WORKER] + st.pl[s, PF.REACT_FREE] * r.k[RK.CARD_REACT_FREE]
        if k > 0:
            reactivate_cards(st, r, s, k)
    # 2. the Ship sails
    ship_sails(st, r)
    # 3. tension and war (sim.war.tension_and_war's two steps); an Extended War declared in the last
    # decade has no next decade to be fought in: "the War occurs immediately" (WAR IN THE LAST TURN),
    # before the markers go back; its setup clears the declaration (clear_war). Burnt-card AV expires
    faction = declare_war(st, r)
    if faction > 0:
        if st.xw[XG.PENDING] > 0 and d == st.g[G.LAST_DECADE]:
            xw_last_decade_war(r, 0, st, r, st.xw[XG.PENDING], st.g[G.ERA], st.xw[XG.BONUS])
        end_of_war_tension(st, r, d, faction)
    for s in range(n):
        st.pl[s, PF.BURN_AV] = 0
    # 4. refill; markers of this decade leave the track; the council vote is active again
    refill(st, r, n, False)
    # "Remove any marker (peace, coin, cube, etc.) from the current decade of the Decade track and
    # place them on game supply": the Spain support cube is a metal resource
    st.supply[Sup.PEACE] += st.peace[d]
    st.supply[Sup.METAL] += st.spain[d]
    st.peace[d] = 0
    st.spain[d] = 0
    st.g[G.VOTE_DONE] = 0
    # 5. player order
    new_player_order(st)
    # 6. recover workers
    for s in range(n):
        st.pl[s, PF.WORKERS] += st.pl[s, PF.WORKERS_PLACED]
        st.pl[s, PF.WORKERS_PLACED] = 0
        # card 59: a worker that fought as a Miliciano stays on the card "until the end of the next decade"
        st.pl[s, PF.WORKERS] += st.pl[s, PF.CARD59_THIS]
        st.pl[s, PF.CARD59_THIS] = st.pl[s, PF.CARD59_NEXT]
        st.pl[s, PF.CARD59_NEXT] = 0
        st.supply[Sup.COUNCIL_WORKERS] += st.pl[s, PF.CC_PLACED] + st.pl[s, PF.CC_WORKERS]
        st.pl[s, PF.CC_PLACED] = 0
        st.pl[s, PF.CC_WORKERS] = 0
    recover_completed(st, r)
    # 7. scoring at the end of an era
    last = d == st.g[G.LAST_DECADE]
    if scoring_due(st, r):
        score_era(st, r, st.g[G.ERA])
        if last:
            end_game(st, r)
        else:
            reshuffle_discards(st)
    # per-decade limits reset
    for s in range(n):
        st.pl[s, PF.ORDER_WORKERS] = 0
        st.pl[s, PF.REACT_WORKERS] = 0
        st.pl[s, PF.REACT_FREE] = 0
        st.pl[s, PF.USED_SWAP1] = 0
        st.pl[s, PF.USED_SWAP2] = 0
        st.pl[s, PF.USED_SWAP3] = 0
        st.pl[s, PF.USED_CC_STATUS] = 0
        st.pl[s, PF.USED_VP_STATUS] = 0
        st.pl[s, PF.USED_EXTRA_DRAW] = 0
        for c in range(st.act_used.shape[1]):
            st.act_used[s, c] = 0


@njit(cache=True)
def start_of_decade(st, r):
    """A. START OF THE DECADE PHASE: card draw, then salaries, in turn order; then a War declared at
    the last End of the decade Phase begins (EXTENDED WAR,
    :func:`sim.extended_war.begin_extended_war`)."""
    n = st.g[G.NPLAYERS]
    log(st, Ev.DECADE, st.g[G.DECADE], st.g[G.ERA])
    if st.g[G.AI] > 0:
        solo_ai_start_of_decade(r, None, st, r)
    for i in range(n):
        phase_a_draw(st, r, st.order[i])
    for i in range(n):
        if st.g[G.AI] != st.order[i] + 1:  # "A.I. doesn't pay salaries"
            pay_salary(st, r, st.order[i])
    if st.xw[XG.PENDING] > 0:
        xw_begin_extended_war(r, None, st, r)


@njit(cache=True, inline="always")  # the game's loop: inlined where it runs (see own_turn)
def play_decade(st, r, turn, players):
    """PLAYING THE GAME: one decade (A. START OF THE DECADE PHASE, B. ACTION PHASE, C. END OF THE
    DECADE PHASE) and its records; ``turn`` plays each turn (sim.actions.action_rounds): :func:`sim.actions.own_turn`
    (every seat deciding through the seam, ``players`` an empty tuple) or the players' own
    (strategies.match.family_turn)."""
    start_of_decade(st, r)
    action_phase(st, r, turn, players)
    end_of_decade(st, r)
    record_decade(st, r)


@njit(cache=True, inline="always")  # the game's loop: inlined where it runs, so that ``turn`` and ``after`` stay constants (see own_turn)
def play_decades(st, r, stop, turn, players, after, extra):
    """The one loop over a game's decades, in a game (strategies.match.play_game) and in a
    player's simulation of the rest of one (strategies.rollout.play_on): the decades after the
    current one (``st.g[G.DECADE]``, 0 after setup) up to decade ``stop``, not past the game's
    last, each :func:`play_decade` with ``turn`` and ``players``, then ``after(st, r, d, extra)``
    (a game's value features; :func:`no_decade_end`). Returns the last decade played (the current
    one when none is)."""
    d = st.g[G.DECADE]
    stop = min(stop, st.g[G.LAST_DECADE])
    while d < stop:
        d += 1
        set_decade(st, r, d)
        play_decade(st, r, turn, players)
        after(st, r, d, extra)
    return d


@njit(cache=True)
def no_decade_end(st, r, d, extra):
    """:func:`play_decades`' ``after`` when nothing follows a decade."""
    return


@njit(cache=True)
def play_own_decade(st, r):
    """:func:`play_decade` with every seat deciding through the seam (:func:`sim.actions.own_turn`),
    for callers in Python (tests, tools). Numba's cache index cannot hold a signature with a jitted
    function in it across processes (the function's type refers to the live dispatcher), so Python
    never calls :func:`play_decade` with a turn itself."""
    play_decade(st, r, own_turn, ())


@njit(cache=True)
def set_decade(st, r, d):
    st.g[G.DECADE] = d
    st.g[G.ERA] = (d - 1) // r.k[RK.DECADES_PER_ERA] + 1


# ----------------------------------------------------------------------------- search support


@njit(cache=True)
def copy_state(dst, src):
    """Copy the game's state (sim.state.GAME_FIELDS: not the records nor the work areas) into
    ``dst``: a search's start. tests/sim/test_state.py checks it copies exactly those fields."""
    dst.g[:] = src.g
    dst.pl[:] = src.pl
    dst.vps[:] = src.vps
    dst.order[:] = src.order
    dst.cell_b[:] = src.cell_b
    dst.cell_owner[:] = src.cell_owner
    dst.cell_cube[:] = src.cell_cube
    dst.act_used[:] = src.act_used
    dst.grids[:] = src.grids
    dst.stacks[:] = src.stacks
    dst.warehouse[:] = src.warehouse
    dst.supply[:] = src.supply
    dst.major[:] = src.major
    dst.major_state[:] = src.major_state
    dst.walls[:] = src.walls
    dst.roads[:] = src.roads
    dst.minis[:] = src.minis
    dst.card_loc[:] = src.card_loc
    dst.card_rot[:] = src.card_rot
    dst.card_seq[:] = src.card_seq
    dst.card_turn[:] = src.card_turn
    dst.peace[:] = src.peace
    dst.spain[:] = src.spain
    dst.dock[:] = src.dock
    dst.built[:] = src.built
    dst.card_uses[:] = src.card_uses
    dst.card_active[:] = src.card_active
    dst.card_uses_seat[:] = src.card_uses_seat
    dst.card_uses_by[:] = src.card_uses_by
    dst.rng[:] = src.rng
    copy_seat_data(dst, src)  # the seats' weights (sim.seam)
    dst.ai_deck[:] = src.ai_deck
    dst.xw[:] = src.xw
    dst.xw_att[:] = src.xw_att
    dst.xw_mini[:] = src.xw_mini
    dst.xw_seat[:] = src.xw_seat
    dst.xw_pillage[:] = src.xw_pillage
    dst.g[G.LOG_ON] = 0


@njit(cache=True)
def determinize(st, r, seat):
    """Redraw what ``seat`` cannot know: the deck order, and which Affiliate cards the other
    players hold face down (unused cards in hand), dealt again from those cards and the deck in
    the same numbers. Used and discarded cards are face up and stay."""
    n = st.g[G.NPLAYERS]
    cnt = st.hidden_n
    for s in range(n):
        cnt[s] = 0
    for c in range(N_CHARACTERS, N_CARDS):
        loc = st.card_loc[c]
        if loc >= Loc.HAND and loc < Loc.HAND + n and loc != Loc.HAND + seat and st.card_rot[c] == 0:
            cnt[loc - Loc.HAND] += 1
            st.card_loc[c] = Loc.DECK
    shuffle_deck(st)
    for s in range(n):
        for _ in range(cnt[s]):
            put_on(st, top_of(st, Loc.DECK), Loc.HAND + s)
    if st.g[G.AI] > 0:
        solo_ai_redraw(r, None, st, r)


# ----------------------------------------------------------------------------- a game


@njit(cache=True)
def start_game(st, r, W, n, seed, strategies, chars, paid, first_game):
    """SETUP of a game whose random stream starts at ``seed`` (a 64-bit word, see sim.rng);
    ``chars`` and ``paid`` as :func:`setup`'s."""
    st.rng[0] = np.uint64(seed)
    setup(st, r, W, n, strategies, chars, paid, first_game)


@njit(cache=True)
def finish_game(st, n):
    """The game's end: final ranks (ties as the rulebook breaks them) and the game records."""
    rk = st.rank_tmp
    ranks(st, rk)
    for s in range(n):
        row = st.rec_game[s]
        row[RG.SEAT] = s
        row[RG.CHARACTER] = st.pl[s, PF.CHARACTER]
        row[RG.STRATEGY] = st.pl[s, PF.STRATEGY]
        row[RG.VP] = st.pl[s, PF.VP]
        row[RG.RANK] = rk[s]
        row[RG.WINNER] = 1 if rk[s] == 1 else 0
        row[RG.RESOURCES] = resources_total(st, s)
        row[RG.DECISIONS] = st.g[G.OPT_N]
        for v in range(st.vps.shape[1]):
            row[RG.VP_SRC + v] = st.vps[s, v]
        record_play(st, s, row)
    n_win = 0
    for s in range(n):
        n_win += st.rec_game[s, RG.WINNER]
    for s in range(n):
        st.rec_game[s, RG.TIE] = 1 if (n_win > 1 and st.rec_game[s, RG.WINNER] == 1) else 0
        log(st, Ev.GAME_END, s, st.pl[s, PF.VP], rk[s], st.rec_game[s, RG.WINNER])
    st.g[G.GAME_OVER] = 1


# ----------------------------------------------------------------------------- Python shell


def allocate(rules: Rules) -> State:
    """A blank state record for ``rules``' map (:func:`setup` fills it)."""
    n_cells, n_segments = rules.cell_district.shape[0], rules.seg_district.shape[0]
    return new_state(n_cells, n_segments, N_RD, N_RG, seat_data(n_cells, n_segments))
