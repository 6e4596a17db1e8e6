"""The cards of a Fight! (FIGHT! ACTION DESCRIPTION 2-4): the player's cards, played for their war
power or burnt (BURN AN AFFILIATE CARD: +5 AV, x2 AV, or one more movement on a Move), the cards
the attackers (and the Solo A.I.'s troops) draw, and the red war powers of the Affiliate cards
(CARD REFERENCE): the cancels (35, 64), the effects before the AV sum, the AV bonus, card 77's
fight again and card 83's recruit.

A power's kind and numbers are its ``[[extended_war.power]]`` row (``Rules.xw_power_kind``,
``xw_power_p``); the cards shown in the fight in progress are ``State.xw_cards``.
"""

from numba import njit

from sim.codes import WP, Card, Dec, Ev, XwAct, XwUse
from sim.combat_area import CANCELLED, SIDE_ATTACKER, SIDE_PLAYER, card_av, player_hp_in, side_position
from sim.core import decide, log, set_option
from sim.deck import put_on, rotate_card
from sim.extended_war.deployment import free_war_marker
from sim.extended_war.movement import _move_attacker, _move_player, attacker_step
from sim.extended_war.setup import attacker_initiative, attackers_in_supply, draw_war_card
from sim.extended_war.wounds import CARD83_RECRUIT, NO_WINNER, commander, remove_attacker, remove_player_mini, wound_attacker, wound_player
from sim.rules import RK, XK, XWP
from sim.state import AS, MAX_FIGHT_CARDS, N_CARDS, N_CHARACTERS, XA, XF, XG, XM, G, Loc, Mini


@njit(cache=True)
def _burnable(st, seat, c):
    """A card the seat may burn now (in hand, not rotated this turn: BURN AN AFFILIATE CARD)."""
    return st.card_loc[c] == Loc.HAND + seat and st.card_turn[c] == 0


@njit(cache=True)
def _burn(st, seat, c, use):
    put_on(st, c, Loc.PILE + seat)
    log(st, Ev.BURN, seat, c)
    log(st, Ev.XW_CARD, SIDE_PLAYER, seat, c, use, 0)


@njit(cache=True)
def _has_active(st, r, side, kind):
    for i in range(st.xw_fight[side, XF.N_CARDS]):
        c = st.xw_cards[side, i]
        if c < CANCELLED and r.xw_power_kind[c] == kind:
            return True
    return False


@njit(cache=True)
def _show(st, side, c):
    n = st.xw_fight[side, XF.N_CARDS]
    if n < MAX_FIGHT_CARDS:
        st.xw_cards[side, n] = c
        st.xw_fight[side, XF.N_CARDS] = n + 1


@njit(cache=True)
def _player_cards(st, r, seat):
    """FIGHT! 2: the player plays cards for their war power (rotated) and burns cards for +5 AV or
    x2 AV, one ``Dec.XW_CARD`` at a time (rows [card, use, AV so far, opponent AV so far]; card -1 stops)."""
    while st.xw_fight[SIDE_PLAYER, XF.N_CARDS] < MAX_FIGHT_CARDS:
        mine = st.xw_fight[SIDE_PLAYER, XF.AV] + st.xw_fight[SIDE_PLAYER, XF.BURN_AV] + _flat_av(st, r, SIDE_PLAYER)
        theirs = st.xw_fight[SIDE_ATTACKER, XF.AV]
        k = 0
        set_option(st, k, -1, 0, mine, theirs)
        k += 1
        loc = Loc.HAND + seat
        for c in range(N_CHARACTERS, N_CARDS):
            if st.card_loc[c] != loc:
                continue
            if st.card_rot[c] == 0:
                set_option(st, k, c, XwUse.WAR_POWER, mine, theirs)
                k += 1
            if st.card_turn[c] == 0:
                set_option(st, k, c, XwUse.BURN_AV, mine, theirs)
                k += 1
                if st.xw_fight[SIDE_PLAYER, XF.FACTOR] < r.xw_k[XK.BURN_FACTORS_PER_FIGHT]:
                    set_option(st, k, c, XwUse.BURN_FACTOR, mine, theirs)
                    k += 1
        i = decide(st, r, seat, Dec.XW_CARD, k)
        c = st.opts[i, 0]
        use = st.opts[i, 1]
        if c < 0:
            break
        if use == XwUse.WAR_POWER:
            rotate_card(st, seat, c)
            _show(st, SIDE_PLAYER, c)
            log(st, Ev.XW_CARD, SIDE_PLAYER, seat, c, use, 0)
        elif use == XwUse.BURN_AV:
            _burn(st, seat, c, use)
            st.xw_fight[SIDE_PLAYER, XF.BURN_AV] += r.xw_k[XK.BURN_AV]
        else:
            _burn(st, seat, c, use)
            st.xw_fight[SIDE_PLAYER, XF.FACTOR] += 1


@njit(cache=True)
def _flat_av(st, r, side):
    n = 0
    for i in range(st.xw_fight[side, XF.N_CARDS]):
        c = st.xw_cards[side, i]
        if c < CANCELLED and r.xw_power_kind[c] == WP.AV:
            n += r.xw_power_p[c, XWP.AV]
    return n


@njit(cache=True)
def _draw_shown(st, r, side, n):
    """Attackers (and the A.I.'s troops) draw ``n`` cards and show them (FIGHT! 3)."""
    for _ in range(n):
        c = draw_war_card(st)
        if c < 0:
            break
        put_on(st, c, Loc.COMBAT)
        _show(st, side, c)
        log(st, Ev.XW_CARD, side, -1, c, XwUse.WAR_POWER, 0)


@njit(cache=True)
def _next_in_card_order(st, c, side, i):
    """The fight card after card ``c`` at ``st.xw_cards[side, i]``, in card-number order across both
    sides ("check the lower card number to see which acts first"; the player's side first on the
    same number): its (card, side, index), or card ``N_CARDS`` when none is left. A cancelled card
    (+CANCELLED) no longer acts. The first: ``_next_in_card_order(st, N_CHARACTERS, 0, -1)``."""
    i += 1
    while c < N_CARDS:
        while side < 2:
            while i < st.xw_fight[side, XF.N_CARDS]:
                if st.xw_cards[side, i] == c:
                    return c, side, i
                i += 1
            side += 1
            i = 0
        c += 1
        side = 0
    return N_CARDS, 0, 0


@njit(cache=True)
def _cancel(st, r):
    """Cards 35 and 64, in card-number order ("check the lower card number to see which acts
    first"): each one not yet cancelled cancels the opponent's lowest (35) or highest (64) card."""
    c, side, i = _next_in_card_order(st, N_CHARACTERS, 0, -1)
    while c < N_CARDS:
        kd = r.xw_power_kind[c]
        if kd == WP.CANCEL_LOWER or kd == WP.CANCEL_HIGHER:
            for _ in range(r.xw_power_p[c, XWP.CARDS]):
                o = 1 - side
                pick = -1
                for j in range(st.xw_fight[o, XF.N_CARDS]):
                    x = st.xw_cards[o, j]
                    if x >= CANCELLED:
                        continue
                    if pick < 0 or (kd == WP.CANCEL_LOWER and x < st.xw_cards[o, pick]) \
                            or (kd == WP.CANCEL_HIGHER and x > st.xw_cards[o, pick]):
                        pick = j
                if pick >= 0:
                    log(st, Ev.XW_CARD, o, -1, st.xw_cards[o, pick], XwUse.WAR_POWER, 1)
                    st.xw_cards[o, pick] += CANCELLED
        c, side, i = _next_in_card_order(st, c, side, i)


@njit(cache=True)
def _opponent_hp(st, r, side, d):
    """HP of the opponents of ``side`` in district ``d`` (card 16's adjacent district)."""
    if side == SIDE_ATTACKER:
        return player_hp_in(st, r, d)
    hp = 0
    for t in range(st.xw[XG.N_TILES]):
        if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
            hp += r.xw_att_hp[st.xw_att[t, XA.KIND]]
    return hp


@njit(cache=True)
def _wound_all_in(st, r, d, by_seat, skip_seat, skip_slot, skip_t):
    """One wound to every miniature in district ``d`` (both sides), but the one named."""
    for s in range(st.g[G.NPLAYERS]):
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE and not (s == skip_seat and k == skip_slot):
                wound_player(st, r, s, k)
    for t in range(st.xw[XG.N_TILES]):
        if t != skip_t and st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
            wound_attacker(st, r, t, by_seat)


@njit(cache=True)
def _immobilise_in(st, r, d, turns):
    for s in range(st.g[G.NPLAYERS]):
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                st.xw_mini[s, k, XM.IMMOBILE] = max(st.xw_mini[s, k, XM.IMMOBILE], turns)
    for t in range(st.xw[XG.N_TILES]):
        if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
            st.xw_att[t, XA.IMMOBILE] = max(st.xw_att[t, XA.IMMOBILE], turns)


@njit(cache=True)
def _heal_side_in(st, r, side, d, heals):
    if side == SIDE_PLAYER:
        for s in range(st.g[G.NPLAYERS]):
            for k in range(r.k[RK.WAR_MARKERS]):
                if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                    st.minis[s, k, 1] = max(0, st.minis[s, k, 1] - heals)
    else:
        for t in range(st.xw[XG.N_TILES]):
            if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
                st.xw_att[t, XA.WOUNDS] = max(0, st.xw_att[t, XA.WOUNDS] - heals)


@njit(cache=True)
def _player_moves_by_card(st, r, seat, slot, card):
    """A card moves a player miniature 1 district: its player picks where (``Dec.XW_CARD_MOVE``
    rows [district, card, seat, slot]). The move is mandatory where a district is adjacent."""
    d = st.xw_mini[seat, slot, XM.POS]
    k = 0
    for e in range(r.district_ncells.shape[0]):
        if d >= 0 and r.district_adj[d, e] == 1:
            set_option(st, k, e, card, seat, slot)
            k += 1
    if k > 0:
        e = st.opts[decide(st, r, commander(st, seat), Dec.XW_CARD_MOVE, k), 0]
        log(st, Ev.XW_MOVE, SIDE_PLAYER, seat, slot, d, e)
        st.xw_mini[seat, slot, XM.POS] = e


@njit(cache=True)
def _free_move_nearest(st, r, side, seat, slot, t, card):
    """Card 41: the nearest other miniature of the holder's side moves 1 district, without a fight."""
    d = side_position(st, side, seat, slot, t)
    best = 1 << 20
    bs = -1
    bk = -1
    if side == SIDE_PLAYER:
        for s in range(st.g[G.NPLAYERS]):
            for k in range(r.k[RK.WAR_MARKERS]):
                e = st.xw_mini[s, k, XM.POS]
                if e >= 0 and st.minis[s, k, 0] != Mini.NONE and not (s == seat and k == slot) and r.xw_dist[d, e] >= 0 \
                        and r.xw_dist[d, e] < best:
                    best = r.xw_dist[d, e]
                    bs = s
                    bk = k
        if bs >= 0:
            _player_moves_by_card(st, r, bs, bk, card)
    else:
        for u in range(st.xw[XG.N_TILES]):
            if u != t and st.xw_att[u, XA.STATE] == AS.IN:
                e = st.xw_att[u, XA.POS]
                if r.xw_dist[d, e] >= 0 and r.xw_dist[d, e] < best:
                    best = r.xw_dist[d, e]
                    bk = u
        if bk >= 0:
            e = attacker_step(st, r, bk)
            if e >= 0:
                _move_attacker(st, r, bk, e)


@njit(cache=True)
def _wound_fighter(st, r, side, seat, slot, t, by_seat):
    """A wound on a fighter; its shield blocks it (FIGHT!: 'The shield symbol blocks a wound in the
    current fight'). Returns 1 when removed."""
    if st.xw_fight[side, XF.SHIELD] > 0:
        st.xw_fight[side, XF.SHIELD] -= 1
        return 0
    if side == SIDE_PLAYER:
        return wound_player(st, r, seat, slot)
    return wound_attacker(st, r, t, by_seat)


@njit(cache=True)
def _pre_fight(st, r, seat, slot, t):
    """The cards acting before the AV sum, in card-number order across both sides (the lower card
    number acts first): 16, 22 (the holder's miniature leaves), 52/59/71 (a wound first), 65
    (heal), 70 (move away), 41 (a friend moves), shields. Returns -2 to go on with the fight,
    the winning side when the fight is decided, or NO_WINNER when it has no result."""
    c, side, i = _next_in_card_order(st, N_CHARACTERS, 0, -1)
    while c < N_CARDS:
        kd = r.xw_power_kind[c]
        o = 1 - side
        d = side_position(st, side, seat, slot, t)
        holder_seat = seat if side == SIDE_PLAYER else -1
        if kd == WP.SHIELD:
            st.xw_fight[side, XF.SHIELD] += r.xw_power_p[c, XWP.BLOCKS]
        elif kd == WP.REMOVE_WOUND_AREA:
            # the adjacent district with most opponent HP (first in map order on a tie)
            adj = -1
            best = -1
            if r.xw_power_p[c, XWP.ADJACENT] > 0:
                for e in range(r.district_ncells.shape[0]):
                    if r.district_adj[d, e] == 1:
                        hp = _opponent_hp(st, r, side, e)
                        if hp > best:
                            best = hp
                            adj = e
            if side == SIDE_PLAYER:
                remove_player_mini(st, seat, slot)
            else:
                remove_attacker(st, r, t, -1)
            for _ in range(r.xw_power_p[c, XWP.WOUNDS]):
                _wound_all_in(st, r, d, holder_seat, -1, -1, -1)
                if adj >= 0:
                    _wound_all_in(st, r, adj, holder_seat, -1, -1, -1)
            return NO_WINNER
        elif kd == WP.IMMOBILISE:
            if side == SIDE_PLAYER:
                remove_player_mini(st, seat, slot)
            else:
                remove_attacker(st, r, t, -1)
            turns = r.xw_power_p[c, XWP.TURNS]
            _immobilise_in(st, r, d, turns)
            for e in range(r.district_ncells.shape[0]):
                if r.district_adj[d, e] == 1:
                    _immobilise_in(st, r, e, turns)
            return NO_WINNER
        elif kd == WP.WOUND_BEFORE:
            for _ in range(r.xw_power_p[c, XWP.WOUNDS]):
                if _wound_fighter(st, r, o, seat, slot, t, holder_seat) == 1:
                    return side
        elif kd == WP.HEAL_AREA:
            h = r.xw_power_p[c, XWP.HEALS]
            _heal_side_in(st, r, side, d, h)
            for e in range(r.district_ncells.shape[0]):
                if r.district_adj[d, e] == 1:
                    _heal_side_in(st, r, side, e, h)
        elif kd == WP.MOVE_AWAY:
            for _ in range(r.xw_power_p[c, XWP.MOVES]):
                if side == SIDE_PLAYER:
                    _player_moves_by_card(st, r, seat, slot, c)
                else:
                    e = attacker_step(st, r, t)
                    if e >= 0:
                        _move_attacker(st, r, t, e)
            return NO_WINNER
        elif kd == WP.FREE_MOVE_NEAREST:
            for _ in range(r.xw_power_p[c, XWP.MOVES]):
                _free_move_nearest(st, r, side, seat, slot, t, c)
        c, side, i = _next_in_card_order(st, c, side, i)
    return -2


@njit(cache=True)
def _card_bonus(st, r, side, seat, slot, t):
    """The AV bonus of ``side``'s cards not cancelled (:func:`sim.combat_area.card_av`: flat, 17, 23,
    40, 76); the fight's counters already count this fight (fight_once counts it before the cards act)."""
    v = 0
    for i in range(st.xw_fight[side, XF.N_CARDS]):
        c = st.xw_cards[side, i]
        if c < CANCELLED:
            v += card_av(st, r, side, c, seat, slot, t, 0)
    return v


@njit(cache=True)
def _fight_again_player(st, r, seat, slot, moves):
    """Card 77 on a surviving player miniature: it may move up to ``moves`` districts and/or fight
    an attacker in its district (``Dec.XW_ACTION`` rows of that miniature). Returns the attacker's
    tile to fight, or -1 to stop."""
    moved = 0
    while True:
        d = st.xw_mini[seat, slot, XM.POS]
        if d < 0:
            return -1
        k = 0
        set_option(st, k, XwAct.DONE, slot, -1, -1, seat)
        k += 1
        if moved < moves:
            for e in range(r.district_ncells.shape[0]):
                if r.district_adj[d, e] == 1:
                    set_option(st, k, XwAct.MOVE, slot, e, -1, seat)
                    k += 1
        for u in range(st.xw[XG.N_TILES]):
            if st.xw_att[u, XA.STATE] == AS.IN and st.xw_att[u, XA.POS] == d:
                set_option(st, k, XwAct.FIGHT, slot, u, -1, seat)
                k += 1
        i = decide(st, r, commander(st, seat), Dec.XW_ACTION, k)
        a = st.opts[i, 0]
        if a == XwAct.DONE:
            return -1
        if a == XwAct.FIGHT:
            return st.opts[i, 2]
        _move_player(st, seat, slot, st.opts[i, 2])
        moved += 1


@njit(cache=True)
def _recruit(st, r, side, seat, slot, t, d):
    """Card 83: the opponent was removed: a Standard miniature joins the holder's side in the
    district, acting from the next round (a player: on a free war marker, chosen by
    ``Dec.XW_RECRUIT`` rows [1 add / 0 not, slot]; attackers: from the supply, on a free tile)."""
    if not _has_active(st, r, side, WP.RECRUIT):
        return
    for _ in range(r.xw_power_p[Card.C83, XWP.MINIATURES]):
        if side == SIDE_PLAYER:
            free = free_war_marker(st, r, seat)
            if free < 0:
                return
            set_option(st, 0, 0, free)
            set_option(st, 1, 1, free)
            if st.opts[decide(st, r, commander(st, seat), Dec.XW_RECRUIT, 2), 0] == 1:
                st.minis[seat, free, 0] = Mini.MILICIANO
                st.minis[seat, free, 1] = 0
                st.xw_mini[seat, free, XM.POS] = st.xw_mini[seat, slot, XM.POS] if st.minis[seat, slot, 0] != Mini.NONE else d
                st.xw_mini[seat, free, XM.RECRUIT] = CARD83_RECRUIT
                st.xw_mini[seat, free, XM.READY] = st.xw[XG.ROUND] + 1
                log(st, Ev.XW_DEPLOY, seat, free, st.xw_mini[seat, free, XM.POS])
        else:
            kind = st.xw_att[t, XA.KIND] & 2
            u = st.xw[XG.N_TILES]
            if u >= r.xw_k[XK.OPPONENT_TILES] or attackers_in_supply(st, r, kind) <= 0:
                return
            st.xw_att[u, XA.CARD] = -1
            st.xw_att[u, XA.KIND] = kind
            st.xw_att[u, XA.STATE] = AS.IN
            st.xw_att[u, XA.POS] = st.xw_att[t, XA.POS]
            st.xw_att[u, XA.EDGE] = st.xw_att[t, XA.EDGE]
            st.xw_att[u, XA.OWNER] = -1
            st.xw_att[u, XA.WOUNDS] = 0
            st.xw_att[u, XA.READY] = st.xw[XG.ROUND] + 1
            st.xw[XG.N_TILES] = u + 1
            log(st, Ev.XW_PLACE, u, -1, kind, st.xw_att[u, XA.POS], -1, attacker_initiative(st, r, u))
