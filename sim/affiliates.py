"""USE AN AFFILIATE CARD in the owner's turn (CARD REFERENCE > AFFILIATE CARDS), jitted.

"Affiliate cards can be used during the player's turn as free action: the player must rotate the
card by 90 degrees and then immediately apply the card's power." :func:`card_options` lists an
``Act.F_CARD`` row (card, target, amount) for every upright Affiliate in the seat's hand whose
power can do something now; :func:`use_card` rotates it and applies the power. Every number comes
from the card's ``params`` in the rules file (``r.aff_p[card, AP.X]``). Lightning cards whose power
fires at a moment of the game are offered there (sim.cardpower.offer, called by the rule areas).

Every power is implemented (:data:`IMPLEMENTED`, card numbers); cards 45 and 51 lend City Council
workers for the seat's next main action (sim.core.grant_pool), card 46 opens a second Dock load.
"""

from __future__ import annotations

from numba import njit

from sim.banners import banner_step, face_up
from sim.cardpower import use
from sim.city import district_closed
from sim.codes import Act, Card, Dec, Ev
from sim.core import add_vp, decide, gain_vp, grant_pool, log, set_option, workers_available
from sim.deck import put_on
from sim.economy import coin_value, pay_coins, pay_plan, pay_resources, take_coins
from sim.major_buildings import council_workers_on_grid, free_segments, grid_free, major_open, place_walls
from sim.rules import AP, RK
from sim.state import GRID_PRECIOUS, GRID_STONE, GRID_WOOD, N_BANNERS, N_CARDS, N_CHARACTERS, N_GRIDS, PF, VS, G, Loc, Mini, Res, Sup
from sim.war import NATIVES, PIRATES, T_AFFILIATE, advance_tension

# Card numbers whose power the engine plays (turn-time here, triggers in the rule areas).
IMPLEMENTED = tuple(range(13, 85))

# Cards whose power modifies the owner's actions for the rest of the turn once used
# (sim.cardpower.card_active): take from the supply (18, 24, 30, 66), one more precious (29), a
# Veteran Soldier without the Fort (52), worker discounts (13, 19, 25, 58, 65, 84), a second
# activation (15, 21, 27, 75), one more output unit in a district with Roads (39), Load the Ship
# with City Council workers (43) or with one more worker for coins (38, 47) or for a 6-element Dock
# (46), cheaper construction (16, 22).
_TURN_MODIFIERS = (Card.C13, Card.C15, Card.C18, Card.C19, Card.C21, Card.C24, Card.C25, Card.C27, Card.C29,
                   Card.C16, Card.C22, Card.C30, Card.C38, Card.C39, Card.C43, Card.C46, Card.C47, Card.C52, Card.C58,
                   Card.C65, Card.C66, Card.C75, Card.C84)

# Cards placing City Council workers on Major Building grids.
_GRID_CARDS = (Card.C14, Card.C20, Card.C26, Card.C33, Card.C37, Card.C49, Card.C61, Card.C69, Card.C73)


@njit(cache=True)
def _add(st, k, c, a, b):
    """TURN row ``k``: use card ``c`` with targets ``a``, ``b`` (core.set_option); returns ``k + 1``."""
    set_option(st, k, Act.F_CARD, c, a, b, 0)
    return k + 1


@njit(cache=True)
def _applications(r, c):
    """How many times a turn modifier applies once used (``st.card_active``): the actions cards 16
    and 22 reduce ("This works for 1 action only"), the Veteran Soldiers card 52 allows without the
    Fort; 1 for the others (one use, one action)."""
    if c == Card.C16 or c == Card.C22:
        return r.aff_p[c, AP.ACTIONS]
    if c == Card.C52:
        return r.aff_p[c, AP.VETERAN_SOLDIERS]
    return 1


@njit(cache=True)
def _one_of(c, cards):
    for g in cards:
        if c == g:
            return True
    return False


@njit(cache=True)
def _grid_card_options(st, r, seat, c, k):
    """Cards 14, 20, 26, 33, 37, 49, 61, 69, 73: "If City Council workers are still available in the
    game supply, (pay ... and) immediately place (up to) N City Council workers" on a grid."""
    if st.supply[Sup.COUNCIL_WORKERS] <= 0:
        return k
    p = r.aff_p[c]
    if pay_plan(st, seat, p[AP.PAY_WOOD], p[AP.PAY_STONE], p[AP.PAY_PRECIOUS], 0, 1) < 0:
        return k
    exact = p[AP.COUNCIL_WORKERS]
    most = exact if exact > 0 else p[AP.COUNCIL_WORKERS_MAX]
    for m in range(st.major.shape[0]):
        if r.aff_grid[c] >= 0 and m != r.aff_grid[c]:
            continue
        if not major_open(st, r, m):
            continue
        room = min(most, st.supply[Sup.COUNCIL_WORKERS], grid_free(st, r, m))
        if room <= 0:
            continue
        if exact > 0:
            k = _add(st, k, c, m, room)
        else:
            for n in range(1, room + 1):
                k = _add(st, k, c, m, n)
    return k


@njit(cache=True)
def _grid_room(st, r, gi):
    """Free capacity of resource grid gi (State.grids: stone, wood, precious grids): its refill amount."""
    n = st.g[G.NPLAYERS]
    if gi == GRID_PRECIOUS:
        return n * r.k[RK.PRECIOUS_PER_PLAYER] - st.grids[GRID_PRECIOUS]
    if gi < GRID_WOOD and gi - GRID_STONE >= r.k[RK.STONE_GRIDS]:
        return 0
    if gi >= GRID_WOOD and gi - GRID_WOOD >= r.k[RK.WOOD_GRIDS]:
        return 0
    return r.grid_cubes[n - 2] - st.grids[gi]


@njit(cache=True)
def _grid_supply(gi):
    if gi == GRID_PRECIOUS:
        return Sup.PRECIOUS
    return Sup.STONE if gi < GRID_WOOD else Sup.WOOD


@njit(cache=True)
def _card83_targets(st, r, units, c, write):
    """Grids card 83 can add a resource to (written as options when ``write``; never while the
    turn's own options are being listed)."""
    k = 0
    for gi in range(N_GRIDS):
        cost = r.aff_p[c, AP.PRECIOUS_COUNTS] if gi == GRID_PRECIOUS else 1
        if cost <= units and _grid_room(st, r, gi) > 0 and st.supply[_grid_supply(gi)] > 0:
            if write:
                set_option(st, k, gi, c)
            k += 1
    return k


@njit(cache=True)
def _own_rotated(st, seat, skip):
    n = 0
    for d in range(N_CARDS):
        if d != skip and st.card_loc[d] == Loc.HAND + seat and st.card_rot[d] == 1:
            n += 1
    return n


@njit(cache=True)
def card_options(st, r, seat, k):
    """F_CARD rows for every upright Affiliate in the seat's hand whose power can act now."""
    hand = st.turn_tmp[1]
    n_hand = 0
    loc = Loc.HAND + seat
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == loc:
            hand[n_hand] = c
            n_hand += 1
    return hand_card_options(st, r, seat, k, hand, n_hand)


@njit(cache=True)
def hand_card_options(st, r, seat, k, hand, n_hand):
    """:func:`card_options` over the seat's hand already listed in ``hand[:n_hand]`` (ascending
    card numbers; Character cards are skipped): the TURN listing has it from its own pass over the
    cards."""
    loc = Loc.HAND + seat
    rate = r.k[RK.BRONZE_PER_SILVER]
    for j in range(n_hand):
        c = hand[j]
        if c < N_CHARACTERS or st.card_rot[c] == 1:
            continue
        p = r.aff_p[c]
        if _one_of(c, _TURN_MODIFIERS):
            if st.card_active[c] == 0:
                k = _add(st, k, c, 0, 0)
        elif _one_of(c, _GRID_CARDS):
            k = _grid_card_options(st, r, seat, c, k)
        elif c == Card.C31:
            if st.supply[Sup.WALLS] > 0 and free_segments(st) > 0:
                k = _add(st, k, c, 0, 0)
        elif c == Card.C45:
            # pay 1 metal: a row per number of City Council workers to lend (the rest of the 4
            # elements waives wood/stone/precious); "If the City Council workers are not available,
            # this card effect cannot be applied" to the worker part
            if st.pl[seat, PF.METAL] >= p[AP.PAY_METAL] and st.card_active[c] == 0:
                for wk in range(min(p[AP.DISCOUNT_MAX], st.supply[Sup.COUNCIL_WORKERS]) + 1):
                    k = _add(st, k, c, wk, p[AP.DISCOUNT_MAX] - wk)
        elif c == Card.C51:
            # the next main action needs a City Council worker; taken before this turn's main action
            if st.card_active[c] == 0 and st.supply[Sup.COUNCIL_WORKERS] >= p[AP.COUNCIL_WORKERS] and workers_available(st, seat) > 0:
                k = _add(st, k, c, 0, 0)
        elif c == Card.C32:
            if st.g[G.CARD32_DECADE] != st.g[G.DECADE]:
                for d in range(r.district_nseg.shape[0]):
                    if r.district_nseg[d] > 0 and not district_closed(st, r, d):
                        k = _add(st, k, c, d, 0)
        elif c == Card.C62:
            for j in range(r.k[RK.WAR_MARKERS]):
                if st.minis[seat, j, 0] != Mini.NONE and st.minis[seat, j, 1] > 0:
                    k = _add(st, k, c, j, 0)
        elif c == Card.C76:
            k = _add(st, k, c, NATIVES, 0)
            k = _add(st, k, c, PIRATES, 0)
        elif c == Card.C83:
            units = st.g[G.NPLAYERS] + p[AP.RESOURCES_PLUS_PLAYERS]
            if _card83_targets(st, r, units, c, False) > 0:
                k = _add(st, k, c, 0, 0)
        elif c == Card.C53:
            if coin_value(st, r, seat) >= p[AP.PAY_SILVER] * rate:
                for b in range(N_BANNERS):
                    if not face_up(st, seat, b):
                        k = _add(st, k, c, b, 0)
        elif c == Card.C60:
            if _own_rotated(st, seat, c) > 0:
                for d in range(N_CHARACTERS, N_CARDS):
                    if st.card_loc[d] == loc:
                        k = _add(st, k, c, d, 0)
        elif c == Card.C64:
            for d in range(N_CARDS):
                if d != c and st.card_loc[d] == loc and st.card_rot[d] == 1:
                    k = _add(st, k, c, d, 0)
        elif c == Card.C77:
            pos = st.pl[seat, PF.WAR_PENALTY]
            lo = r.k[RK.PENALTY_MIN]
            if pos > lo and r.penalty_vp[pos - lo] < 0 and coin_value(st, r, seat) >= p[AP.PAY_SILVER] * rate:
                k = _add(st, k, c, 0, 0)
        elif c == Card.C28:
            most = p[AP.RESOURCES_MAX]
            for kw in range(st.warehouse[0] + 1):
                for ks in range(st.warehouse[1] + 1):
                    if 1 <= kw + ks <= most:
                        k = _add(st, k, c, kw, ks)
        elif c == Card.C48:
            # all 4 Warehouse cubes taken this turn (free actions or card 28) and still held
            took = st.pl[seat, PF.WH_WOOD] + st.pl[seat, PF.WH_STONE]
            held = st.pl[seat, PF.WOOD] >= st.pl[seat, PF.WH_WOOD] and st.pl[seat, PF.STONE] >= st.pl[seat, PF.WH_STONE]
            if took >= p[AP.WAREHOUSE_RESOURCES] and held and st.warehouse[0] + st.warehouse[1] == 0 and st.supply[Sup.METAL] >= p[AP.METAL]:
                k = _add(st, k, c, 0, 0)
    return k


@njit(cache=True)
def use_card(st, r, seat, c, a, b):
    """USE AN AFFILIATE CARD: rotate card ``c`` and apply its power with the targets of its F_CARD
    row."""
    use(st, seat, c)
    p = r.aff_p[c]
    rate = r.k[RK.BRONZE_PER_SILVER]
    log(st, Ev.CARD_EFFECT, seat, c, a, b)
    if _one_of(c, _TURN_MODIFIERS):
        st.card_active[c] = _applications(r, c)
    elif _one_of(c, _GRID_CARDS):
        plan = pay_plan(st, seat, p[AP.PAY_WOOD], p[AP.PAY_STONE], p[AP.PAY_PRECIOUS], 0, 1)
        pay_resources(st, seat, p[AP.PAY_WOOD], p[AP.PAY_STONE], p[AP.PAY_PRECIOUS], 0, plan)
        # CITY COUNCIL WORKERS: "If a City Council Worker completes a Major Building, the player
        # first in the turn order will place it on the map."
        council_workers_on_grid(st, r, seat, a, b, st.order[0])
    elif c == Card.C31:
        place_walls(st, r, seat, p[AP.WALLS], False)
    elif c == Card.C45:
        st.pl[seat, PF.METAL] -= p[AP.PAY_METAL]
        st.supply[Sup.METAL] += p[AP.PAY_METAL]
        grant_pool(st, seat, a)
        st.g[G.CARD45_RES] = b
        st.card_active[c] = 1
    elif c == Card.C51:
        # sim.actions.turn_step takes the next main action once this one is done ("Complete your
        # following turn immediately"): ``extra_turns`` of them
        st.card_active[c] = p[AP.EXTRA_TURNS]
    elif c == Card.C32:
        st.g[G.CARD32_DECADE] = st.g[G.DECADE]
        st.g[G.CARD32_DISTRICT] = a
    elif c == Card.C62:
        st.minis[seat, a, 1] = max(0, st.minis[seat, a, 1] - p[AP.WOUNDS_REMOVED])
        gain_vp(st, r, seat, p[AP.VP], VS.AFFILIATE)
    elif c == Card.C76:
        take_coins(st, r, seat, 0, p[AP.BRONZE])
        advance_tension(st, r, a, p[AP.TENSION_STEPS], T_AFFILIATE)
    elif c == Card.C83:
        units = st.g[G.NPLAYERS] + p[AP.RESOURCES_PLUS_PLAYERS]
        while units > 0:
            k = _card83_targets(st, r, units, c, True)
            if k == 0:
                break
            gi = st.opts[decide(st, r, seat, Dec.CARD_TARGET, k), 0]
            st.grids[gi] += 1
            st.supply[_grid_supply(gi)] -= 1
            units -= p[AP.PRECIOUS_COUNTS] if gi == GRID_PRECIOUS else 1
            log(st, Ev.CARD_EFFECT, seat, c, gi, units)
    elif c == Card.C53:
        pay_coins(st, r, seat, p[AP.PAY_SILVER] * rate)
        banner_step(st, r, seat, a)
    elif c == Card.C60:
        put_on(st, a, Loc.PILE + seat)  # discarded face up to the player's pile (not a burn: no AV)
        for d in range(N_CARDS):
            if d != c and st.card_loc[d] == Loc.HAND + seat and st.card_rot[d] == 1:
                st.card_rot[d] = 0
                log(st, Ev.REACTIVATED, seat, d)
    elif c == Card.C64:
        st.card_rot[a] = 0
        log(st, Ev.REACTIVATED, seat, a)
    elif c == Card.C77:
        pay_coins(st, r, seat, p[AP.PAY_SILVER] * rate)
        st.pl[seat, PF.WAR_PENALTY] = max(r.k[RK.PENALTY_MIN], st.pl[seat, PF.WAR_PENALTY] - p[AP.STEPS_LEFT])
    elif c == Card.C28:
        # Use City Warehouse with the card's penalty; cubes not used this turn leave at its end
        for res in range(2):
            n = a if res == 0 else b
            st.warehouse[res] -= n
            st.pl[seat, PF.WOOD + res] += n
            st.pl[seat, PF.WH_WOOD + res] += n
            st.gained[seat, res] += n
        add_vp(st, seat, -p[AP.VP_PENALTY_PER_RESOURCE] * (a + b), VS.WAREHOUSE)
    elif c == Card.C48:
        # "If you take all 4 resources from the City warehouse, you can immediately convert them
        # into 1 metal resource": the cubes taken from it this turn go to the supply
        for res in range(2):
            n = st.pl[seat, PF.WH_WOOD + res]
            st.pl[seat, PF.WOOD + res] -= n
            st.supply[Sup.WOOD + res] += n
            st.pl[seat, PF.WH_WOOD + res] = 0
        st.supply[Sup.METAL] -= p[AP.METAL]
        st.pl[seat, PF.METAL] += p[AP.METAL]
        st.gained[seat, Res.METAL] += p[AP.METAL]
