"""EXTENDED WAR: the greedy and heuristic values of the war decisions (``Dec.XW_*``), in VP, the
units of the rest of the valuation (strategies.policy).

What a war is worth to a seat (END OF THE WAR): every player takes the pillage score plus the
attackers left as War penalties, cancels 1 per 2 HP of the control cards it gained defeating
attackers, and moves 1 step right per penalty left, or 1 step left with none (a War won). A
penalty is a War Penalty step (``K.PENALTY_STEP`` x ``vp``), as in the normal War's valuation
(``Dec.WAR_FIGHT``). So an attacker removed is worth the steps it takes off the seat's track
(:func:`defeat_gain`: one attacker fewer for everyone, and its control card for the seat that
removed it), and a miniature lost its War AV (``military``, what Deploy Milicianos adds). A Fight!
(FIGHT! ACTION DESCRIPTION 5) is valued by its outcome at the final AVs (:func:`fight_result`):
the difference removes the loser at its HP, otherwise wounds it (a second wound removes).

- **greedy** sees what is on the table: the AVs and HP of the two fighters, walls and friends;
  the attackers' cards still to be drawn count 0; a position counts the attackers in its
  district (and those waiting at its edge); the cards are played one at a time, each for what it
  does to this fight alone.
- **heuristic** (and the families built on it: rollout, search) looks further: the attackers'
  draws by their chance among the cards it does not hold (:func:`draw_chances`), the cards it
  could still play or burn in a fight (:func:`best_plan`), attackers further away at a share per
  district (``K.XW_NEAR``), and what an attacker left in the city will still pillage.

The decisions: ``XW_ACTION`` (DONE 0; FIGHT! its fight's value; MOVE the change of position,
:func:`position_value`), ``XW_DEPLOY`` (the position), ``XW_CARD`` (:func:`card_row_value`),
``XW_TARGET`` / ``XW_MOVE_TIE`` (the deciding seat's own interest in where an attacker fights or
steps), ``XW_CARD_MOVE`` (the position), ``XW_RECRUIT`` (a free Miliciano: taken).

This module reads the engine below the seam only (sim.combat_area, not sim.extended_war).
"""

import numpy as np
from numba import njit

from sim.city import district_closed
from sim.codes import WP, Dec, XwAct, XwUse
from sim.combat_area import (
    CANCELLED,
    SIDE_ATTACKER,
    SIDE_PLAYER,
    attacker_stats,
    attackers_on_board,
    card_av,
    friends_in,
    has_buildings,
    owns_building_in,
    pillage_score,
    player_stats,
    players_in,
)
from sim.rules import RK, XK, XWP
from sim.state import AS, N_CARDS, N_CHARACTERS, XA, XF, XG, XM, XP, G, Loc, Mini
from strategies.weights import FAMILY_GREEDY, F, K


@njit(cache=True)
def penalty_value(r, w):
    """One War penalty, in VP: the War Penalty steps it moves (END OF THE WAR)."""
    return w[K.PENALTY_STEP] * w[F.VP] * r.xw_k[XK.STEPS_PER_PENALTY]


@njit(cache=True)
def track_value(r, w, left):
    """The War Penalty track's move at the war's end for ``left`` penalties, in VP: 1 step left
    for a War won (none left), 1 step right per penalty otherwise."""
    if left == 0:
        return w[K.PENALTY_STEP] * w[F.VP] * r.xw_k[XK.WIN_STEPS]
    return -penalty_value(r, w) * left


@njit(cache=True)
def penalties_now(st, r, seat, fewer, gained_hp):
    """The seat's War penalties if the war ended now with ``fewer`` attackers and ``gained_hp``
    more HP of control cards: the pillage score plus the attackers left, less 1 per 2 HP of its
    control cards (END OF THE WAR 1-2)."""
    pen = pillage_score(st, r) + attackers_on_board(st, -1) - fewer
    cancel = (st.xw_seat[seat, XP.CONTROL_HP] + gained_hp) // r.xw_k[XK.CONTROL_HP_PER_PENALTY]
    return max(0, pen - cancel)


@njit(cache=True)
def pillage_left(st, r):
    """Something is left to pillage: a district with buildings not yet pillaged twice."""
    top = r.xw_pillage_score.shape[0] - 1
    for d in range(r.district_ncells.shape[0]):
        if st.xw_pillage[d] < top and has_buildings(st, r, d):
            return True
    return False


@njit(cache=True)
def defeat_gain(st, r, w, seat, t, own, heur):
    """What the attacker on tile ``t`` removed is worth to ``seat``: one attacker fewer at the war's
    end (for every player), its control card's HP when the seat's own miniature removes it
    (``own``), and for the heuristic the pillage it would still bring (``K.XW_PILLAGE_AHEAD``)."""
    hp = r.xw_att_hp[st.xw_att[t, XA.KIND]] if own and st.xw_att[t, XA.CARD] >= 0 else 0
    v = track_value(r, w, penalties_now(st, r, seat, 1, hp)) - track_value(r, w, penalties_now(st, r, seat, 0, 0))
    if heur and pillage_left(st, r):
        v += penalty_value(r, w) * w[K.XW_PILLAGE_AHEAD]
    return v


@njit(cache=True)
def miniature_loss(st, r, w, seat, slot, own):
    """A player miniature removed, to the deciding seat: its War AV (``military``) when it is the
    seat's own and came from the supply (a card 83 recruit or card 59's worker leaves at the war's
    end anyway)."""
    if not own or st.xw_mini[seat, slot, XM.RECRUIT] > 0:
        return 0.0
    return w[F.MILITARY] * r.war_av[st.minis[seat, slot, 0]]


@njit(cache=True)
def fight_result(pav, aav, php, ahp, gain_removed, gain_wound, loss_removed, loss_wound, shield):
    """FIGHT! 5 at final AVs ``pav`` (the player's) and ``aav``: the higher wins and the difference
    is the damage: at the loser's HP it is removed, below it wounded; a tie does nothing. The
    shield (cards 53, 58, 82) blocks the player's wound and turns a removal into a wound. The
    gains and losses already say whether a wound removes (the fighter had one)."""
    if pav > aav:
        return gain_removed if pav - aav >= ahp else gain_wound
    if aav > pav:
        if aav - pav >= php:
            return -(loss_wound if shield else loss_removed)
        return 0.0 if shield else -loss_wound
    return 0.0


@njit(cache=True)
def draw_chances(st, r, seat, draws):
    """The chance of each AV total the attackers' ``draws`` cards add (FIGHT! 3: they draw and show
    them), each card drawn at random from the Affiliate cards the seat does not hold, its red
    power's flat AV counted (the other powers as 0). Index = the AV total."""
    mx = 0
    for c in range(N_CHARACTERS, N_CARDS):
        if r.xw_power_kind[c] == WP.AV:
            mx = max(mx, r.xw_power_p[c, XWP.AV])
    one = np.zeros(mx + 1, np.float64)
    n = 0
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.HAND + seat:
            continue
        one[r.xw_power_p[c, XWP.AV] if r.xw_power_kind[c] == WP.AV else 0] += 1.0
        n += 1
    h = np.zeros(mx * max(draws, 0) + 1, np.float64)
    h[0] = 1.0
    if n == 0:
        return h
    one /= n
    for k in range(draws):
        nxt = np.zeros(h.shape[0], np.float64)
        for a in range(mx * k + 1):
            if h[a] > 0.0:
                for b in range(mx + 1):
                    nxt[a + b] += h[a] * one[b]
        h = nxt
    return h


@njit(cache=True)
def expected_result(h, pav, abase, php, ahp, gr, gw, lr, lw, shield):
    """:func:`fight_result` over the attackers' draws ``h`` (:func:`draw_chances`) added to ``abase``."""
    v = 0.0
    for s in range(h.shape[0]):
        if h[s] > 0.0:
            v += h[s] * fight_result(pav, abase + s, php, ahp, gr, gw, lr, lw, shield)
    return v


@njit(cache=True)
def hand_cards(st, r, seat, skip, avs):
    """The seat's cards for a fight (FIGHT! 2), but card ``skip``: the flat AVs of those it can play
    for their war power (upright), largest first, into ``avs``. Returns (those, the cards it can
    burn (not rotated this turn), the cards usable either way)."""
    npow = 0
    nburn = 0
    nany = 0
    for c in range(N_CHARACTERS, N_CARDS):
        if c == skip or st.card_loc[c] != Loc.HAND + seat:
            continue
        up = st.card_rot[c] == 0
        burn = st.card_turn[c] == 0
        if up and r.xw_power_kind[c] == WP.AV:
            a = r.xw_power_p[c, XWP.AV]
            j = npow
            while j > 0 and avs[j - 1] < a:  # insertion, largest first
                avs[j] = avs[j - 1]
                j -= 1
            avs[j] = a
            npow += 1
        if burn:
            nburn += 1
        if up or burn:
            nany += 1
    return npow, nburn, nany


@njit(cache=True)
def best_plan(r, w, h, pbase, factors, avs, npow, nburn, nany, abase, php, ahp, gr, gw, lr, lw, shield):
    """The heuristic's look at the rest of a fight: the best of playing its ``j`` largest flat-AV
    cards (rotated, ``K.CARD_SPENT`` of a card each), burning ``k`` cards for +5 AV and one for x2
    AV while the fight allows one (FIGHT! 2; a card each), valued as :func:`expected_result` less
    the cards. ``factors``: x2 burns already made."""
    burn_av = r.xw_k[XK.BURN_AV]
    fmax = r.xw_k[XK.BURN_FACTORS_PER_FIGHT]
    spent = w[F.CARD] * w[K.CARD_SPENT]
    best = -1e18
    top = max(gr, gw)
    add = 0
    for j in range(npow + 1):
        if j > 0:
            add += avs[j - 1]
        for x in range(2 if factors < fmax else 1):
            for k in range(nburn + 1):
                if j + k + x > nany or k + x > nburn:
                    break
                tot = pbase + add + burn_av * k
                for _ in range(factors + x):
                    tot *= r.xw_k[XK.BURN_FACTOR]
                e = expected_result(h, tot, abase, php, ahp, gr, gw, lr, lw, shield)
                v = e - spent * j - w[F.CARD] * (k + x)
                if v > best:
                    best = v
                if e >= top:
                    break  # the fight is won as well as it can be: more cards only cost
    return best


@njit(cache=True)
def attacker_draws(st, r):
    """Cards the attackers draw in a Fight! (FIGHT! 3: 1, Pirates 2)."""
    if st.xw[XG.FACTION] == 2:
        return r.xw_k[XK.ATTACKER_CARDS_PIRATES]
    return r.xw_k[XK.ATTACKER_CARDS_NATIVES]


@njit(cache=True)
def walls_bonus(st, r):
    """FIGHT! 5: the players' Wall bonus against an attacker that just crossed a Wall (+6 with the Fort)."""
    return r.xw_k[XK.WALL_BONUS_FORT] if st.g[G.FORT_BUILT] == 1 else r.xw_k[XK.WALL_BONUS]


@njit(cache=True)
def stakes(st, r, w, seat, ms, slot, t, own, heur, a_wounds, p_wounds):
    """What a fight between (``ms``, ``slot``) and tile ``t`` can bring ``seat``: (the attacker
    removed, wounded, the miniature removed, wounded). A wound is ``K.XW_WOUND`` of the removal, or
    the removal itself on a fighter that already has one (FIGHT! 5: the second wound removes)."""
    remove = r.xw_k[XK.WOUNDS_REMOVE]
    gr = defeat_gain(st, r, w, seat, t, own, heur)
    gw = gr if a_wounds + 1 >= remove else w[K.XW_WOUND] * gr
    lr = miniature_loss(st, r, w, ms, slot, own)
    lw = lr if p_wounds + 1 >= remove else w[K.XW_WOUND] * lr
    return gr, gw, lr, lw


@njit(cache=True)
def context(st, r, seat, ms, heur, draws, skip):
    """What a valuation of fights may count: the attackers' draws by chance (the heuristic's; greedy
    counts none) and, for the heuristic's own miniature, its cards but ``skip`` (:func:`hand_cards`).
    Returns (chances, card AVs, playable, burnable, usable)."""
    avs = np.zeros(N_CARDS, np.int64)
    if not heur:
        return np.ones(1, np.float64), avs, 0, 0, 0
    h = draw_chances(st, r, seat, draws)
    if ms != seat:
        return h, avs, 0, 0, 0
    npow, nburn, nany = hand_cards(st, r, seat, skip, avs)
    return h, avs, npow, nburn, nany


@njit(cache=True)
def fight_value(st, r, w, seat, ms, slot, t, d, walls, heur, h, avs, npow, nburn, nany):
    """The value to ``seat`` of a Fight! between the miniature on (``ms``, ``slot``) standing in
    district ``d`` and the attacker on tile ``t``, at their AV and HP with the friends beside each
    in ``d`` and ``walls`` (the Wall bonus, 0 without one), over the attackers' draws ``h`` and
    with the best plan of the cards counted (:func:`context`)."""
    own = ms == seat
    pav, php = player_stats(r, st.minis[ms, slot, 0], False, False)
    aav, ahp = attacker_stats(r, st.xw_att[t, XA.KIND], False, False)
    step = r.xw_k[XK.FRIEND_BONUS]
    cap = r.xw_k[XK.FRIEND_BONUS_MAX]
    pbase = pav + walls + min(cap, step * friends_in(st, r, SIDE_PLAYER, ms, slot, t, d))
    abase = aav + min(cap, step * friends_in(st, r, SIDE_ATTACKER, ms, slot, t, d))
    gr, gw, lr, lw = stakes(st, r, w, seat, ms, slot, t, own, heur, st.xw_att[t, XA.WOUNDS], st.minis[ms, slot, 1])
    return best_plan(r, w, h, pbase, 0, avs, npow, nburn, nany, abase, php, ahp, gr, gw, lr, lw, False)


@njit(cache=True)
def position_value(st, r, w, seat, ms, slot, x, heur, h, avs, npow, nburn, nany):
    """The value to ``seat`` of the miniature on (``ms``, ``slot``) standing in district ``x`` for
    the attackers' coming turns (ATTACKERS WAR ACTIONS: an attacker in a district with a player
    miniature fights it, else pillages a district with buildings, else moves toward the nearest
    one): the fights with the attackers in ``x`` (and those waiting at its edge, who enter it
    crossing its Walls if it is closed), for the heuristic also those further away at
    ``K.XW_NEAR`` per district; and the pillage it stops as the district's only defender
    (``K.XW_BLOCK`` per flame those attackers would bring, while something is left to pillage).
    Every player takes the pillage score, so any district's pillage counts, not only the seat's."""
    v = 0.0
    threat = 0.0
    closed = district_closed(st, r, x)
    for u in range(st.xw[XG.N_TILES]):
        s = st.xw_att[u, XA.STATE]
        if s != AS.IN and s != AS.OUTSIDE:
            continue
        dist = r.xw_dist[st.xw_att[u, XA.POS], x]  # outside: POS is its edge's district, its next move enters it
        if dist < 0:
            continue
        if dist == 0:
            share = 1.0
        elif heur:
            share = w[K.XW_NEAR] ** dist
        else:
            continue
        wb = walls_bonus(st, r) if s == AS.OUTSIDE and dist == 0 and closed else 0
        v += share * fight_value(st, r, w, seat, ms, slot, u, x, wb, heur, h, avs, npow, nburn, nany)
        threat += share
    top = r.xw_pillage_score.shape[0] - 1
    if threat > 0.0 and st.xw_pillage[x] < top and has_buildings(st, r, x):
        others = players_in(st, r, x) - (1 if st.xw_mini[ms, slot, XM.POS] == x else 0)
        if others == 0:
            v += penalty_value(r, w) * w[K.XW_BLOCK] * min(threat, float(top - st.xw_pillage[x]))
    return v


# what the player's shown cards do to its fight (card_row_value)
FX_AV = 0  # AV added (flat, 17, 23, 40, 76)
FX_ELITE = 1  # card 46: the miniature fights as an Elite
FX_STANDARD = 2  # card 47: the attacker fights as a Standard
FX_SHIELD = 3  # 53, 58, 82
FX_WOUND = 4  # 52, 59, 71: wounds on the attacker before the fight
FX_AWAY = 5  # 70: the fight has no result
FX_CANCEL = 6  # 35, 64: attacker cards cancelled
FX_WALLS = 7  # 34: the walls bonus multiplied
FX_HEAL = 8  # 65: wounds healed
N_FX = 9


@njit(cache=True)
def _card_effect(st, r, fx, c, seat, slot, t):
    """Add what card ``c``'s red war power does for the player's side of the fight to ``fx``."""
    kd = r.xw_power_kind[c]
    p = r.xw_power_p[c]
    fx[FX_AV] += card_av(st, r, SIDE_PLAYER, c, seat, slot, t, 1)  # the fight is counted after the cards (fight_once)
    if kd == WP.STANDARD_AS_ELITE:
        fx[FX_ELITE] += 1
    elif kd == WP.ELITE_AS_STANDARD:
        fx[FX_STANDARD] += 1
    elif kd == WP.SHIELD:
        fx[FX_SHIELD] += p[XWP.BLOCKS]
    elif kd == WP.WOUND_BEFORE:
        fx[FX_WOUND] += p[XWP.WOUNDS]
    elif kd == WP.MOVE_AWAY:
        fx[FX_AWAY] += 1
    elif kd == WP.CANCEL_LOWER or kd == WP.CANCEL_HIGHER:
        fx[FX_CANCEL] += p[XWP.CARDS]
    elif kd == WP.WALLS_FACTOR:
        fx[FX_WALLS] = max(fx[FX_WALLS], p[XWP.FACTOR])
    elif kd == WP.HEAL_AREA:
        fx[FX_HEAL] += p[XWP.HEALS]


@njit(cache=True)
def card_row_value(st, r, w, seat, i, heur):
    """``Dec.XW_CARD`` row i ([card or -1 to stop, XwUse, ...]) in the fight being resolved
    (``State.xw_fight``: its fighters, the cards shown, the burns made): the fight's value after
    the row (:func:`fight_result`; a wound before the fight that removes the attacker wins it, card
    70's move away leaves it without a result) less the card (rotated: ``K.CARD_SPENT`` of a card;
    burnt: a card). Greedy values the fight as the row leaves it; the heuristic adds its best plan
    of the cards still in hand (:func:`best_plan`); stopping plays none."""
    o = st.opts[i]
    c = o[0]
    use = o[1]
    ms = st.xw_fight[SIDE_PLAYER, XF.SEAT]
    slot = st.xw_fight[SIDE_PLAYER, XF.FIGHTER]
    t = st.xw_fight[SIDE_ATTACKER, XF.FIGHTER]
    d = st.xw_att[t, XA.POS]
    fx = np.zeros(N_FX, np.int64)
    for j in range(st.xw_fight[SIDE_PLAYER, XF.N_CARDS]):
        x = st.xw_cards[SIDE_PLAYER, j]
        if x < CANCELLED:
            _card_effect(st, r, fx, x, ms, slot, t)
    burn = st.xw_fight[SIDE_PLAYER, XF.BURN_AV]
    factors = st.xw_fight[SIDE_PLAYER, XF.FACTOR]
    cost = 0.0
    if c >= 0:
        if use == XwUse.WAR_POWER:
            _card_effect(st, r, fx, c, ms, slot, t)
            cost = w[F.CARD] * w[K.CARD_SPENT]
        elif use == XwUse.BURN_AV:
            burn += r.xw_k[XK.BURN_AV]
            cost = w[F.CARD]
        else:
            factors += 1
            cost = w[F.CARD]
    pav, php = player_stats(r, st.minis[ms, slot, 0], fx[FX_ELITE] > 0, False)
    aav, ahp = attacker_stats(r, st.xw_att[t, XA.KIND], False, fx[FX_STANDARD] > 0)
    walls = 0
    if st.xw_fight[SIDE_ATTACKER, XF.ACTING] == 1 and st.xw_att[t, XA.CROSSED] == 1:
        walls = walls_bonus(st, r) * (fx[FX_WALLS] if fx[FX_WALLS] > 0 else 1)
    step = r.xw_k[XK.FRIEND_BONUS]
    cap = r.xw_k[XK.FRIEND_BONUS_MAX]
    pbase = pav + walls + min(cap, step * friends_in(st, r, SIDE_PLAYER, ms, slot, t, d)) + fx[FX_AV] + burn \
        + st.xw_fight[SIDE_PLAYER, XF.BONUS]
    abase = aav + min(cap, step * friends_in(st, r, SIDE_ATTACKER, ms, slot, t, d)) + st.xw_fight[SIDE_ATTACKER, XF.BONUS]
    a_w = st.xw_att[t, XA.WOUNDS] + fx[FX_WOUND]
    p_w = max(0, st.minis[ms, slot, 1] - fx[FX_HEAL])
    gr, gw, lr, lw = stakes(st, r, w, seat, ms, slot, t, True, heur, a_w, p_w)
    if a_w >= r.xw_k[XK.WOUNDS_REMOVE]:
        return gr - cost  # removed before the fight
    if fx[FX_AWAY] > 0:
        return -cost  # no result
    draws = max(0, attacker_draws(st, r) - fx[FX_CANCEL])
    h, avs, npow, nburn, nany = context(st, r, seat, ms, heur and c >= 0, draws, c)
    if heur and c < 0:
        h = draw_chances(st, r, seat, draws)  # stopping: the draws still count, no more cards
    return best_plan(r, w, h, pbase, factors, avs, npow, nburn, nany, abase, php, ahp, gr, gw, lr, lw, fx[FX_SHIELD] > 0) - cost


@njit(cache=True)
def _least_hp_in(st, r, d):
    """The player miniature an attacker in district ``d`` fights (FIGHT! 1: the least HP; the first
    in turn order on a tie): (seat, slot), or (-1, -1) with none."""
    best = 1 << 20
    bs = -1
    bk = -1
    for i in range(st.g[G.NPLAYERS]):
        s = st.order[i]
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                hp = r.xw_player_hp[st.minis[s, k, 0]]
                if hp < best:
                    best = hp
                    bs = s
                    bk = k
    return bs, bk


@njit(cache=True)
def war_value(st, r, seat, kind, i):
    """The greedy/heuristic value of option i of an EXTENDED WAR decision (``Dec.XW_*``) for the
    deciding ``seat`` (see the module's docstring)."""
    w = st.w[seat]
    o = st.opts[i]
    heur = int(w[F.FAMILY]) != FAMILY_GREEDY
    draws = attacker_draws(st, r)
    if kind == Dec.XW_ACTION:
        # o = [XwAct, slot, district or tile, card burnt for the move, the miniature's seat]
        if o[0] == XwAct.DONE:
            return 0.0
        ms = o[4]
        slot = o[1]
        d = st.xw_mini[ms, slot, XM.POS]
        h, avs, npow, nburn, nany = context(st, r, seat, ms, heur, draws, -1)
        if o[0] == XwAct.FIGHT:
            return fight_value(st, r, w, seat, ms, slot, o[2], d, 0, heur, h, avs, npow, nburn, nany)
        v = position_value(st, r, w, seat, ms, slot, o[2], heur, h, avs, npow, nburn, nany) \
            - position_value(st, r, w, seat, ms, slot, d, heur, h, avs, npow, nburn, nany) - w[K.XW_MOVE]
        if o[3] >= 0 and ms == seat:
            v -= w[F.CARD]
        return v
    if kind == Dec.XW_DEPLOY:
        # o = [district, slot, the miniature's seat, 1 when card 54 is used for it (rotated)]
        h, avs, npow, nburn, nany = context(st, r, seat, o[2], heur, draws, -1)
        v = position_value(st, r, w, seat, o[2], o[1], o[0], heur, h, avs, npow, nburn, nany)
        return v - w[F.CARD] * w[K.CARD_SPENT] if o[3] == 1 else v
    if kind == Dec.XW_CARD:
        return card_row_value(st, r, w, seat, i, heur)
    if kind == Dec.XW_CARD_MOVE:
        # o = [district, card, the miniature's seat, slot]
        h, avs, npow, nburn, nany = context(st, r, seat, o[2], heur, draws, -1)
        return position_value(st, r, w, seat, o[2], o[3], o[0], heur, h, avs, npow, nburn, nany)
    if kind == Dec.XW_TARGET:
        # o = [seat, slot, HP, tile]: the attacker fights in its own turn (a Wall it just crossed counts)
        t = o[3]
        h, avs, npow, nburn, nany = context(st, r, seat, o[0], heur, draws, -1)
        wb = walls_bonus(st, r) if st.xw_att[t, XA.CROSSED] == 1 else 0
        return fight_value(st, r, w, seat, o[0], o[1], t, st.xw_att[t, XA.POS], wb, heur, h, avs, npow, nburn, nany)
    if kind == Dec.XW_MOVE_TIE:
        # o = [district stepped into, aim, steps, HP, tile]: there it fights, or pillages, or passes
        s = o[0]
        t = o[4]
        ms, slot = _least_hp_in(st, r, s)
        if ms >= 0:
            h, avs, npow, nburn, nany = context(st, r, seat, ms, heur, draws, -1)
            return fight_value(st, r, w, seat, ms, slot, t, s, 0, heur, h, avs, npow, nburn, nany)
        if st.xw_pillage[s] < r.xw_pillage_score.shape[0] - 1 and has_buildings(st, r, s):
            return -penalty_value(r, w)  # a pillage flame: a War penalty for every player
        return 0.0
    if kind == Dec.XW_RECRUIT:
        return 0.0 if o[0] == 1 else -w[K.TARGET_STOP]  # a free Miliciano for the rest of the war: taken
    return 0.0


@njit(cache=True)
def defender_value(st, r, w, seat, frm, to):
    """The heuristic's value of a Deploy Milicianos or a military activation while an Extended War is
    on or declared (fought next decade): the HP the miniature brings the Combat Area (``frm`` kind to
    ``to``) at ``K.XW_DEFEND_HP`` War penalties each. A new Miliciano counts only where the seat
    owns a building to place it in (DEFENDERS PLACEMENT). 0 otherwise: in the normal game, for
    greedy, and with no war coming."""
    if r.xw_k[XK.ENABLED] == 0 or int(w[F.FAMILY]) == FAMILY_GREEDY:
        return 0.0
    if st.xw[XG.PENDING] == 0 and (st.xw[XG.ACTIVE] == 0 or attackers_on_board(st, -1) == 0):
        return 0.0
    if frm == Mini.NONE:
        placed = False
        for d in range(r.district_ncells.shape[0]):
            if owns_building_in(st, r, seat, d):
                placed = True
                break
        if not placed:
            return 0.0
    return penalty_value(r, w) * w[K.XW_DEFEND_HP] * (r.xw_player_hp[to] - r.xw_player_hp[frm])
