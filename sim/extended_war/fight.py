"""FIGHT! ACTION DESCRIPTION: one player miniature against one attacker: 1. the attacker's target,
2-4. the cards (:mod:`sim.extended_war.fight_cards`), 5. Resolve the Fight (the Walls, friends and cards'
bonuses, the damage, a wound or the removal), and card 77's fight again.

The fight in progress is the work area ``State.xw_fight`` (``XF``).
"""

from numba import njit

from sim.cardpower import offer
from sim.codes import WP, Card, Dec, Ev
from sim.combat_area import CANCELLED, SIDE_ATTACKER, SIDE_PLAYER, attacker_stats, fight_total, friends_in, is_soldier, player_stats, players_in
from sim.core import decide, log, set_option
from sim.deck import put_on
from sim.extended_war.fight_cards import (
    _cancel,
    _card_bonus,
    _draw_shown,
    _fight_again_player,
    _has_active,
    _player_cards,
    _pre_fight,
    _recruit,
    _wound_fighter,
)
from sim.extended_war.movement import _move_attacker, attacker_step
from sim.extended_war.wounds import NO_WINNER, remove_attacker, remove_player_mini, wound_attacker, wound_player
from sim.rules import AP, RK, XK, XWP
from sim.state import AS, N_CARDS, N_CHARACTERS, TS, XA, XF, XG, XM, XP, G, Loc, Mini
from sim.war_track import PIRATES, gain_war_vp


@njit(cache=True)
def attacker_target(st, r, d, t):
    """FIGHT! 1: the attacker on tile ``t`` fights the player miniature in its district ``d`` with the
    least HP; a tie is decided by the first player in turn order (``Dec.XW_TARGET`` rows [seat,
    slot, HP, t])."""
    best = 1 << 20
    for s in range(st.g[G.NPLAYERS]):
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                best = min(best, r.xw_player_hp[st.minis[s, k, 0]])
    n = 0
    for i in range(st.g[G.NPLAYERS]):
        s = st.order[i]
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE and r.xw_player_hp[st.minis[s, k, 0]] == best:
                set_option(st, n, s, k, best, t)
                n += 1
    i = decide(st, r, st.order[0], Dec.XW_TARGET, n)
    return st.opts[i, 0], st.opts[i, 1]


@njit(cache=True)
def fight(st, r, seat, slot, t, by_attacker):
    """FIGHT! ACTION DESCRIPTION: the player miniature on (``seat``, ``slot``) against the attacker
    on tile ``t``, in the attacker's turn when ``by_attacker``, with what card 77 lets its holder do
    after it (a player: move 1 and/or fight again at +4, chosen by ``Dec.XW_ACTION`` rows of that
    miniature; an attacker: fight again at +4 when a player miniature is in its district, else move
    by its movement rule). Returns the first fight's winning side, or NO_WINNER."""
    p77 = r.xw_power_p[Card.C77]
    first, again_p, again_a = fight_once(st, r, seat, slot, t, by_attacker, 0)
    while again_p or again_a:
        if again_p:
            u = _fight_again_player(st, r, seat, slot, p77[XWP.MOVES])
            if u < 0:
                break
            t = u
            by_attacker = False
            w, again_p, again_a = fight_once(st, r, seat, slot, t, False, p77[XWP.AV])
        else:
            e = st.xw_att[t, XA.POS]
            if players_in(st, r, e) == 0:
                for _ in range(p77[XWP.MOVES]):
                    e = attacker_step(st, r, t)
                    if e >= 0:
                        _move_attacker(st, r, t, e)
                break
            seat, slot = attacker_target(st, r, e, t)
            w, again_p, again_a = fight_once(st, r, seat, slot, t, by_attacker, -p77[XWP.AV])
    return first


@njit(cache=True)
def fight_once(st, r, seat, slot, t, by_attacker, bonus):
    """One Fight!: ``bonus`` is card 77's extra AV for the side fighting again (positive: the
    player's, negative: the attacker's). Returns (winning side or NO_WINNER, the player's card 77
    acts, the attacker's card 77 acts)."""
    for side in range(2):
        for f in range(st.xw_fight.shape[1]):
            st.xw_fight[side, f] = 0
    # who fights, for the players' valuation of their cards (Dec.XW_CARD)
    st.xw_fight[SIDE_PLAYER, XF.FIGHTER] = slot
    st.xw_fight[SIDE_PLAYER, XF.SEAT] = seat
    st.xw_fight[SIDE_ATTACKER, XF.FIGHTER] = t
    st.xw_fight[SIDE_ATTACKER if by_attacker else SIDE_PLAYER, XF.ACTING] = 1
    if bonus > 0:
        st.xw_fight[SIDE_PLAYER, XF.BONUS] = bonus
    elif bonus < 0:
        st.xw_fight[SIDE_ATTACKER, XF.BONUS] = -bonus
    d = st.xw_att[t, XA.POS]
    pk = st.minis[seat, slot, 0]
    ak = st.xw_att[t, XA.KIND]
    av, hp = player_stats(r, pk, False, False)
    st.xw_fight[SIDE_PLAYER, XF.AV] = av
    st.xw_fight[SIDE_PLAYER, XF.HP] = hp
    av, hp = attacker_stats(r, ak, False, False)
    st.xw_fight[SIDE_ATTACKER, XF.AV] = av
    st.xw_fight[SIDE_ATTACKER, XF.HP] = hp
    # 2. the player's cards (the Solo A.I. draws instead), 3. the attackers draw theirs
    if st.g[G.AI] == seat + 1:
        _draw_shown(st, r, SIDE_PLAYER, r.xw_k[XK.AI_TROOP_CARDS])
    else:
        _player_cards(st, r, seat)
    nat = r.xw_k[XK.ATTACKER_CARDS_PIRATES] if st.xw[XG.FACTION] == PIRATES else r.xw_k[XK.ATTACKER_CARDS_NATIVES]
    _draw_shown(st, r, SIDE_ATTACKER, nat)
    st.xw[XG.FIGHTS] += 1
    st.xw_seat[seat, XP.FIGHTS_TURN] += 1
    st.tally[seat, TS.FIGHTS] += 1
    st.tally[seat, TS.XW_FIGHTS_AK + ak] += 1
    if pk > 0:
        st.tally[seat, TS.XW_FIGHTS_MINI + pk - 1] += 1
    st.xw_mini[seat, slot, XM.FOUGHT] = 1
    if st.xw_mini[seat, slot, XM.USED] == 0:  # card 57: "used in the current War", counted once
        st.xw_mini[seat, slot, XM.USED] = 1
        if is_soldier(pk):
            st.g[G.WAR_SOLDIERS] += 1
        else:
            st.g[G.WAR_MILICIANOS] += 1
    st.xw_att[t, XA.FIGHTS] += 1
    # 4. the cards' effects: cancels first, then the others in card-number order
    _cancel(st, r)
    av, hp = player_stats(r, pk, _has_active(st, r, SIDE_PLAYER, WP.STANDARD_AS_ELITE),
                          _has_active(st, r, SIDE_ATTACKER, WP.ELITE_AS_STANDARD))
    st.xw_fight[SIDE_PLAYER, XF.AV] = av
    st.xw_fight[SIDE_PLAYER, XF.HP] = hp
    av, hp = attacker_stats(r, ak, _has_active(st, r, SIDE_ATTACKER, WP.STANDARD_AS_ELITE),
                            _has_active(st, r, SIDE_PLAYER, WP.ELITE_AS_STANDARD))
    st.xw_fight[SIDE_ATTACKER, XF.AV] = av
    st.xw_fight[SIDE_ATTACKER, XF.HP] = hp
    winner = _pre_fight(st, r, seat, slot, t)
    if winner == -2:
        winner = _resolve(st, r, seat, slot, t, by_attacker, d)
    else:
        log(st, Ev.XW_FIGHT, seat, slot, t, 0, 0, winner)
    if winner == SIDE_PLAYER:
        st.tally[seat, TS.FIGHTS_WON] += 1
        st.tally[seat, TS.XW_WON_AK + ak] += 1
        if pk > 0:
            st.tally[seat, TS.XW_WON_MINI + pk - 1] += 1
    elif winner == SIDE_ATTACKER:
        st.tally[seat, TS.FIGHTS_LOST] += 1
    if winner == SIDE_PLAYER and not _fighter_alive(st, SIDE_ATTACKER, seat, slot, t):
        _recruit(st, r, SIDE_PLAYER, seat, slot, t, d)
    elif winner == SIDE_ATTACKER and not _fighter_alive(st, SIDE_PLAYER, seat, slot, t):
        _recruit(st, r, SIDE_ATTACKER, seat, slot, t, d)
    again_p = _has_active(st, r, SIDE_PLAYER, WP.FIGHT_AGAIN) and _fighter_alive(st, SIDE_PLAYER, seat, slot, t)
    again_a = _has_active(st, r, SIDE_ATTACKER, WP.FIGHT_AGAIN) and _fighter_alive(st, SIDE_ATTACKER, seat, slot, t)
    # the cards shown by the attackers (and the A.I.) go to the game discard pile
    for side in range(2):
        for i in range(st.xw_fight[side, XF.N_CARDS]):
            c = st.xw_cards[side, i] % CANCELLED
            if st.card_loc[c] == Loc.COMBAT:
                put_on(st, c, Loc.GAME_DISCARD)
    return winner, again_p, again_a


@njit(cache=True)
def _fighter_alive(st, side, seat, slot, t):
    if side == SIDE_PLAYER:
        return st.minis[seat, slot, 0] != Mini.NONE
    s = st.xw_att[t, XA.STATE]
    return s == AS.IN or s == AS.OUTSIDE


@njit(cache=True)
def _resolve(st, r, seat, slot, t, by_attacker, d):
    """FIGHT! 5: the final AVs; the higher wins, the difference is the damage: the loser is removed
    when it reaches its HP, otherwise takes a wound (the second removes it); a tie does nothing."""
    # the cards' AV bonus; card 28 gives its holder the larger of the two sides' bonuses
    for side in range(2):
        st.xw_fight[side, XF.CARD_AV] = _card_bonus(st, r, side, seat, slot, t)
    for c in range(N_CHARACTERS, N_CARDS):
        for side in range(2):
            for i in range(st.xw_fight[side, XF.N_CARDS]):
                if st.xw_cards[side, i] == c and r.xw_power_kind[c] == WP.SWAP_BONUS:
                    mine = st.xw_fight[side, XF.CARD_AV]
                    theirs = st.xw_fight[1 - side, XF.CARD_AV]
                    if theirs > mine:
                        st.xw_fight[side, XF.CARD_AV] = theirs
                        st.xw_fight[1 - side, XF.CARD_AV] = mine
    # walls: for players, when the attacker just crossed a Wall in its own turn (card 34: doubled
    # by a player holding it, ignored by attackers holding it)
    if by_attacker and st.xw_att[t, XA.CROSSED] == 1:
        w = r.xw_k[XK.WALL_BONUS_FORT] if st.g[G.FORT_BUILT] == 1 else r.xw_k[XK.WALL_BONUS]
        if _has_active(st, r, SIDE_PLAYER, WP.WALLS_FACTOR):
            w *= r.xw_power_p[Card.C34, XWP.FACTOR]
        if _has_active(st, r, SIDE_ATTACKER, WP.WALLS_FACTOR):
            w = 0
        st.xw_fight[SIDE_PLAYER, XF.WALLS] = w
        if w > 0:
            # card 34 (lightning): "Gain 7 VPs every time Walls are part of the Fight calculation: ...
            # for Extended War Expansion, a Wall provides AV bonus to 1 or more players"
            s = offer(st, r, Card.C34, -1)
            if s >= 0:
                gain_war_vp(st, r, s, r.aff_p[Card.C34, AP.VP])
    step = r.xw_k[XK.FRIEND_BONUS]
    cap = r.xw_k[XK.FRIEND_BONUS_MAX]
    st.xw_fight[SIDE_PLAYER, XF.FRIENDS] = min(cap, step * friends_in(st, r, SIDE_PLAYER, seat, slot, t, d))
    st.xw_fight[SIDE_ATTACKER, XF.FRIENDS] = min(cap, step * friends_in(st, r, SIDE_ATTACKER, seat, slot, t, d))
    pav = fight_total(st, r, SIDE_PLAYER)
    aav = fight_total(st, r, SIDE_ATTACKER)
    st.xw_fight[SIDE_PLAYER, XF.TOTAL] = pav
    st.xw_fight[SIDE_ATTACKER, XF.TOTAL] = aav
    if pav == aav:
        log(st, Ev.XW_FIGHT, seat, slot, t, pav, aav, NO_WINNER)
        return NO_WINNER
    winner = SIDE_PLAYER if pav > aav else SIDE_ATTACKER
    log(st, Ev.XW_FIGHT, seat, slot, t, pav, aav, winner)
    loser = 1 - winner
    dmg = abs(pav - aav)
    by_seat = seat if winner == SIDE_PLAYER else -1
    if dmg >= st.xw_fight[loser, XF.HP]:
        if st.xw_fight[loser, XF.SHIELD] > 0:  # the shield turns a removal into a wound
            st.xw_fight[loser, XF.SHIELD] = 0
            _wound_fighter(st, r, loser, seat, slot, t, by_seat)
        elif loser == SIDE_PLAYER:
            remove_player_mini(st, seat, slot)
        else:
            remove_attacker(st, r, t, seat)
    else:
        _wound_fighter(st, r, loser, seat, slot, t, by_seat)
    # card 29: the holder lost, so every opponent in the district takes a wound
    if _has_active(st, r, loser, WP.WOUND_WINNERS):
        for _ in range(r.xw_power_p[Card.C29, XWP.WOUNDS]):
            if loser == SIDE_PLAYER:
                for u in range(st.xw[XG.N_TILES]):
                    if st.xw_att[u, XA.STATE] == AS.IN and st.xw_att[u, XA.POS] == d:
                        wound_attacker(st, r, u, seat)
            else:
                for s in range(st.g[G.NPLAYERS]):
                    for k in range(r.k[RK.WAR_MARKERS]):
                        if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                            wound_player(st, r, s, k)
    return winner
