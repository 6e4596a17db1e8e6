"""Río de la Plata's war (C | END OF TURN CHECKS AND WAR; WAR steps 1-5; COMBAT RULES; BATTLE; End of the
War; RP-17..RP-22, RP-24): the end-of-turn war check, the enemies track's retreat and advance, and the whole
war, its decisions asked of the players' war policy through :mod:`rio.engine.seam`.

- :func:`end_of_turn_war` (phase C's War check): while some player has not been the attacker as often as
  allowed, the city is not closed by walls and the wars are not over: roll, compare with the markers, play
  the war, move both markers back. On the last turn a missing attacker forces one war without a roll.
- :func:`advance_enemies` (phase C's Turn change): the turn track's symbols move the markers.
- :func:`play_war`: attacker, number and placement of attackers, cannons, defending tokens, the rounds, the
  end. Its numbers go into ``war_rec`` (int32[WR], :class:`rio.engine.war_state.WR`).

2 players (VARIANTS; RP-24): the defender plays the shadow colour too; both colours are the defending
players of a 3-player war (2 defending players in the number of attackers, 2 free tokens each); paired
tokens are bought together; shadow tokens use the defender's Huts and Houses and never stay on the city
map after the war (the shadow's discs go only on the grids).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from rio.engine import seam
from rio.engine.core import copy1
from rio.engine.state import NO, PK, SPACE_CATHEDRAL, SPACE_PALACE, VPS, G
from rio.engine.war_battle import MERGED, MOVED, enter, release, war_vp
from rio.engine.war_state import (
    ENEMY,
    GF,
    WR,
    WV,
    add_group,
    attackers_left,
    commanded,
    controller,
    general_active,
    lead_on_top,
    mixed,
    place,
    reach,
    reset_war_scratch,
    roll,
)
from rio.keys import BK, CK, LK, MK, PLAZA, Building, Edge, Enemy, K, Major, Office

NATIVES, PIRATES = int(Enemy.NATIVES), int(Enemy.PIRATES)


# ---------------------------------------------------------------------------------------------- the enemies track
@njit(cache=True)
def advance_enemies(r, st):
    """TURN CHANGE: the symbols between turn G.TURN and G.TURN + 1 move their enemy one space forward (off
    the track -> enemies.min_value; never past enemies.max_value; RP-17, RP-18)."""
    t = st.g[G.TURN]
    if t < 0 or t >= r.track_advance.shape[0]:
        return
    for e in range(r.track_advance.shape[1]):
        if r.track_advance[t, e] == 1:
            m = st.g[G.NATIVES + e]
            st.g[G.NATIVES + e] = r.k[K.ENEMIES_MIN_VALUE] if m == 0 else min(m + 1, r.k[K.ENEMIES_MAX_VALUE])


@njit(cache=True)
def next_attacker(r, st):
    """WAR step 1: the player on the highest position of the order track (war.attacker_from) among those
    who attacked least, while that is fewer than CK.WARS_PER_PLAYER times (2 players: two cycles, FAQ);
    NO when every player has attacked as often as allowed."""
    n = st.g[G.PLAYERS]
    least = st.pl[0, PK.ATTACKS]
    for seat in range(n):
        least = min(least, st.pl[seat, PK.ATTACKS])
    if least >= r.by_count[st.g[G.COUNT], CK.WARS_PER_PLAYER]:
        return NO
    for i in range(n):
        pos = n - 1 - i if r.k[K.WAR_ATTACKER_FROM] == 0 else i
        if st.pl[st.order[pos], PK.ATTACKS] == least:
            return st.order[pos]
    return NO


@njit(cache=True)
def end_of_turn_war(r, geo, st, sc, pol, war_rec):
    """C | END OF TURN CHECKS AND WAR, the War check. Returns the wars played (0 or more; ``war_rec`` holds
    the last one's record, untouched when no war is played). Both markers go back after a war (4/4/3/2
    spaces at 2/3/4/5 players; below enemies.min_value off the track)."""
    if st.g[G.WAR_OVER]:
        return 0
    closed = True  # every outer W/N/E edge walled (MAJOR BUILDING CHARACTERISTICS; RP-09)
    for s in range(st.edge.shape[0]):
        for side in range(st.edge.shape[1]):
            if st.edge[s, side] == Edge.OPEN:
                closed = False
    if next_attacker(r, st) == NO or (r.k[K.WAR_CLOSED_CITY_NO_WAR] and closed):
        st.g[G.WAR_OVER] = 1
        return 0
    nat, pir = st.g[G.NATIVES], st.g[G.PIRATES]
    forced = st.g[G.TURN] == st.g[G.TURNS] - 1 and r.k[K.WAR_FORCED_LAST_TURN] != 0 and (
        st.g[G.SHORT] == 0 or r.k[K.SHORT_GAME_FORCED_LAST_TURN_WAR] != 0)
    total, wars = 0, 0
    if forced:  # RP-19: a player still missing on the last turn: war without a roll, the higher marker
        fe = r.k[K.WAR_FORCED_ENEMY]
        enemy = np.int64(PIRATES) if fe == 1 or (fe == 0 and pir >= nat) else np.int64(NATIVES)
        wars = r.k[K.WAR_FORCED_WARS]
    else:
        total = roll(st, r.k[K.ENEMIES_DICE], r.k[K.ENEMIES_DIE_FACES])
        hit_n = nat > 0 and total <= nat
        hit_p = pir > 0 and total <= pir
        if hit_n and hit_p:
            enemy = np.int64(PIRATES) if r.k[K.ENEMIES_BOTH_MEANS] == 0 else np.int64(NATIVES)
        else:
            enemy = np.int64(NATIVES) if hit_n else np.int64(PIRATES)
        wars = 1 if hit_n or hit_p else 0
    played = 0
    for _ in range(wars):
        if next_attacker(r, st) == NO:
            break
        play_war(r, geo, st, sc, pol, enemy, war_rec)
        war_rec[WR.FORCED] = 1 if forced else 0
        war_rec[WR.ROLL] = total
        played += 1
        back = r.by_count[st.g[G.COUNT], CK.ENEMY_RETREAT]
        for e in range(r.track_advance.shape[1]):
            m = st.g[G.NATIVES + e] - back
            st.g[G.NATIVES + e] = m if m >= r.k[K.ENEMIES_MIN_VALUE] else 0
    return played


# ---------------------------------------------------------------------------------------------- the war
@njit(cache=True)
def play_war(r, geo, st, sc, pol, enemy, war_rec):
    """WAR steps 1-5 and the End of the War against ``enemy`` (rio.keys.Enemy); nothing when nobody may
    attack any more. The attacker's workers on the map stay inactive: their spaces are off limits."""
    attacker = next_attacker(r, st)
    war_rec[:] = 0
    war_rec[WR.CANNON_USER] = NO
    war_rec[WR.ENEMY] = enemy if attacker != NO else NO
    war_rec[WR.ATTACKER] = attacker
    if attacker == NO:
        return
    st.pl[attacker, PK.ATTACKS] += 1
    st.g[G.ATTACKER] = attacker
    st.g[G.WARS] += 1
    n_sp = st.sp_building.shape[0]
    players, colours = st.g[G.PLAYERS], st.g[G.COLOURS]
    # step 2: Workers in the City + Defending players x 2 + Bonus (2 players: the shadow colour defends too)
    city, tokens, n_acc = np.int64(0), np.int64(0), np.int64(0)
    for c in range(colours):
        st.pl[c, PK.TOKENS] = 0
        if c != attacker:
            tokens += st.pl[c, PK.SUPPLY]
            for s in range(n_sp):
                city += st.sp_workers[s, c]
    for s in range(n_sp):
        for side in range(st.edge.shape[1]):
            n_acc += st.edge[s, side] == Edge.OPEN
    lo = r.k[K.ENEMIES_BONUS_MIN]
    marker = st.g[G.NATIVES + enemy]
    bonus = max(lo, (r.enemy_bonus[marker] if 0 <= marker < r.enemy_bonus.shape[0] else 0) + r.level[st.g[G.LEVEL], LK.ATTACKER_BONUS])
    if r.k[K.ENEMIES_PLAYER_COUNT_MODIFIER_ON]:
        bonus = max(lo, bonus + r.by_count[st.g[G.COUNT], CK.BONUS_MODIFIER])
    n_att = max(0, city * r.k[K.WAR_ATTACKERS_PER_CITY_WORKER] + (colours - 1) * r.k[K.WAR_ATTACKERS_PER_DEFENDING_PLAYER] + bonus)
    ws = sc.war
    if n_att + city + tokens + 1 > ws.gi.shape[0] or n_acc > ws.acc.shape[0]:
        raise ValueError("rio war: more groups or access points than the scratch was sized for (rio.engine.scratch.new_scratch)")
    reset_war_scratch(ws)
    copy1(ws.rec, war_rec)
    v = ws.v
    v[WV.ENEMY], v[WV.ATTACKER], v[WV.PLAYERS] = enemy, attacker, players
    nd = 0
    for pos in range(players):  # the defending colours in player order (2 players: then the shadow colour)
        if st.order[pos] != attacker:
            ws.dcol[nd] = st.order[pos]
            nd += 1
    if colours > players:
        v[WV.CONTROLLER] = ws.dcol[0]
        ws.dcol[nd] = players
        nd += 1
    v[WV.DEFENDERS] = nd
    ws.rec[WR.ATTACKERS] = n_att
    ws.rec[WR.BONUS] = bonus
    inactive = r.k[K.WAR_ATTACKER_WORKERS_INACTIVE] != 0
    n = 0
    for s in range(n_sp):  # access points, off-limits spaces, what each building is worth to the attacker
        for side in range(st.edge.shape[1]):
            if st.edge[s, side] == Edge.OPEN:
                ws.acc[n] = s
                n += 1
        ws.blk[s] = 1 if inactive and st.sp_workers[s, attacker] > 0 else 0
        b = st.sp_building[s]
        ws.vp[s] = 0 if b == NO else r.major[Major.PALACE, MK.ATTACKER_VP] if b == SPACE_PALACE else \
            r.major[Major.CATHEDRAL, MK.ATTACKER_VP] if b == SPACE_CATHEDRAL else r.building[b, BK.ATTACKER_VP]
    v[WV.ACCESS] = n
    if n > 0 and n_att > 0:  # PLACEMENT OF ATTACKERS: groups of 1..war.max_group at open access points
        k = seam.war_split(r, geo, st, ws, pol, attacker, n_att)
        left, mg = n_att, r.k[K.WAR_MAX_GROUP]
        for i in range(k):
            m = min(max(ws.buf[i, 0], 1), mg, left)
            if m > 0:
                add_group(v, ws.gi, ws.tok, ws.at, np.int64(NO), ws.acc[min(max(ws.buf[i, 1], 0), n - 1)], np.int64(1), np.int64(ENEMY), m)
                left -= m
        while left > 0:  # a policy's shortfall: singles at the first access point
            add_group(v, ws.gi, ws.tok, ws.at, np.int64(NO), ws.acc[0], np.int64(1), np.int64(ENEMY), np.int64(1))
            left -= 1
    _cannons(r, geo, st, ws, pol)
    _defenders(r, geo, st, ws, pol)
    _rounds(r, geo, st, ws, pol)
    _end(r, geo, st, ws, pol)
    st.g[G.ATTACKER] = NO
    copy1(war_rec, ws.rec)


@njit(cache=True)
def _cannons(r, geo, st, ws, pol):
    """WAR step 3, CANNONS (only with the Fort built): the Gunner if a defender owns it (+1 to the roll, 2 VP
    a kill), else the defender with the fewest VP (tie: the earlier in order; no VP). Bet 1..attackers; a
    hit when the dice (+ bonus) reach war.cannon_fixed + bet: that many attackers go, the user's choice."""
    n_att = attackers_left(ws.gi, ws.v[WV.GROUPS])
    if (r.k[K.WAR_CANNONS_NEED_FORT] and st.major_done[Major.FORT] <= 0) or n_att < r.k[K.WAR_CANNON_BET_MIN]:
        return
    gunner, attacker = st.office_owner[Office.GUNNER], ws.v[WV.ATTACKER]
    user, plus, per = np.int64(NO), np.int64(0), np.int64(0)
    if gunner != NO and gunner != attacker and st.g[G.TURN] >= st.office_turn[Office.GUNNER] + r.k[K.OFFICE_POWERS_DELAY_TURNS]:
        user, plus, per = gunner, r.k[K.OFFICE_GUNNER_CANNON_ROLL_BONUS], r.k[K.OFFICE_GUNNER_CANNON_KILL_VP]
    elif r.k[K.WAR_CANNONS_BY_FEWEST_VP_DEFENDER]:
        for j in range(ws.v[WV.DEFENDERS]):
            c = ws.dcol[j]
            if c < st.g[G.PLAYERS] and (user == NO or st.pl[c, PK.VP] < st.pl[user, PK.VP]):
                user = c
    if user == NO:
        return
    bet = min(max(seam.war_bet(r, geo, st, ws, pol, user, n_att, plus), r.k[K.WAR_CANNON_BET_MIN]), n_att)
    dice = roll(st, r.k[K.WAR_CANNON_DICE], r.k[K.WAR_CANNON_DIE_FACES])
    ws.rec[WR.CANNON_USER], ws.rec[WR.CANNON_BET], ws.rec[WR.CANNON_ROLL] = user, bet, dice
    if dice + plus < r.k[K.WAR_CANNON_FIXED] + bet:
        return
    for _ in range(bet):
        n = np.int64(0)
        for g in range(ws.v[WV.GROUPS]):
            if ws.gi[g, GF.SIDE] == 1 and ws.gi[g, GF.SIZE] > 0:
                ws.opt[n] = g
                n += 1
        g = ws.opt[seam.war_victim(r, geo, st, ws, pol, user, n)]
        ws.gi[g, GF.SIZE] -= 1
        if ws.gi[g, GF.SIZE] == 0:
            release(r, st, ws, g, np.int64(0))
    ws.rec[WR.CANNON_KILLS] = bet
    war_vp(st, ws, user, VPS.CANNONS, bet * per)


@njit(cache=True)
def _token_spaces(r, st, ws, colour):
    """Where ``colour`` may place a defending token (WAR step 4; RP-19): its own (the shadow: its
    controller's) Huts and Houses, a Barracks, any minor building with the General; no other colour there,
    not off limits, at most war.max_tokens_per_space. Writes ``ws.opt``; returns the number."""
    own = controller(ws.v, colour)
    anyb = r.k[K.OFFICE_GENERAL_ANY_MINOR_BUILDING] != 0 and general_active(r, st, ws.v[WV.ATTACKER], own)
    cap = min(r.k[K.WAR_MAX_TOKENS_PER_SPACE], r.k[K.WAR_MAX_GROUP])
    n = 0
    for s in range(st.sp_building.shape[0]):
        b = st.sp_building[s]
        if b == NO or b >= r.building.shape[0] or ws.blk[s]:
            continue
        if not ((r.building[b, BK.OWNED] and st.sp_owner[s] == own) or b == Building.BARRACKS or anyb):
            continue
        h = ws.at[s]
        if h != NO and (ws.gi[h, GF.SIDE] == 1 or ws.gi[h, GF.SIZE] >= cap or mixed(ws.gi, ws.tok, h) or ws.tok[h, 0] != colour):
            continue
        ws.opt[n] = s
        n += 1
    return n


@njit(cache=True)
def _place_token(r, geo, st, ws, pol, seat, colour, optional):
    """One defending token of ``colour`` from its supply onto the space its controller picks (``optional``:
    he may decline). Returns whether one was placed."""
    if st.pl[colour, PK.SUPPLY] <= 0:
        return False
    n = _token_spaces(r, st, ws, colour)
    if n == 0:
        return False
    i = seam.war_token(r, geo, st, ws, pol, seat, colour, n, optional)
    if i < 0:
        return False
    s = ws.opt[i]
    h = ws.at[s]
    if h == NO:
        add_group(ws.v, ws.gi, ws.tok, ws.at, s, np.int64(NO), np.int64(0), colour, np.int64(1))
    else:
        ws.tok[h, ws.gi[h, GF.SIZE]] = colour
        ws.gi[h, GF.SIZE] += 1
    st.pl[colour, PK.SUPPLY] -= 1
    ws.rec[WR.TOKENS] += 1
    return True


@njit(cache=True)
def _defenders(r, geo, st, ws, pol):
    """WAR step 4: workers on the map begin where they are (one group a space; two colours: a mixed group
    led by the larger share, RP-19); then each defender in order places war.free_tokens free tokens (+ the
    General's), buys more at 1, 2, 3... silver (war.token_price_step; 2 players: one of each colour a
    purchase, two_player.paired_tokens), all from his supply."""
    mg, nd, v = r.k[K.WAR_MAX_GROUP], ws.v[WV.DEFENDERS], ws.v
    for s in range(st.sp_building.shape[0]):
        if ws.blk[s]:  # beside the attacker's inactive workers (a road-connected activation): left out too
            continue
        g = np.int64(NO)
        for j in range(nd):
            c = ws.dcol[j]
            k = st.sp_workers[s, c]
            st.sp_workers[s, c] = 0
            for _ in range(k):
                if g == NO:
                    g = add_group(v, ws.gi, ws.tok, ws.at, s, np.int64(NO), np.int64(0), c, np.int64(1))
                elif ws.gi[g, GF.SIZE] < mg:
                    ws.tok[g, ws.gi[g, GF.SIZE]] = c
                    ws.gi[g, GF.SIZE] += 1
                else:  # more than a group holds (not in a legal city): back to the supply
                    st.pl[c, PK.SUPPLY] += 1
        if g != NO:
            lead_on_top(ws.gi, ws.tok, ws.dcol, nd, g)
    players = np.int64(st.g[G.PLAYERS])
    paired = r.k[K.TWO_PLAYER_PAIRED_TOKENS] != 0 and st.g[G.COLOURS] > players
    for j in range(nd + (1 if paired else 0)):
        c = ws.dcol[j] if j < nd else NO  # NO: the 2-player defender's paired purchases
        if c != NO:
            free = r.k[K.WAR_FREE_TOKENS]
            if general_active(r, st, ws.v[WV.ATTACKER], c):
                free += r.k[K.OFFICE_GENERAL_EXTRA_TOKENS]
            for _ in range(free):
                if not _place_token(r, geo, st, ws, pol, controller(v, c), c, np.int64(1)):
                    break
            if paired:
                continue
        payer = controller(v, c) if c != NO else v[WV.CONTROLLER]
        c1 = c if c != NO else payer
        while True:  # paid tokens, the price rising with each purchase this war
            price = r.k[K.WAR_TOKEN_PRICE_STEP] * (st.pl[c1, PK.TOKENS] + 1)
            if st.pl[payer, PK.SILVER] < price or st.pl[c1, PK.SUPPLY] <= 0 or _token_spaces(r, st, ws, c1) == 0:
                break
            if c == NO and (st.pl[players, PK.SUPPLY] <= 0 or _token_spaces(r, st, ws, players) == 0):
                break
            if not seam.war_buy(r, geo, st, ws, pol, payer, c1, price, _token_spaces(r, st, ws, c1)):
                break
            st.pl[payer, PK.SILVER] -= price
            st.pl[c1, PK.TOKENS] += 1
            ws.rec[WR.PAID] += 1
            _place_token(r, geo, st, ws, pol, payer, c1, np.int64(0))
            if c == NO:  # the shadow's token of the pair (its last space may have gone to the first)
                _place_token(r, geo, st, ws, pol, payer, players, np.int64(0))


# ---------------------------------------------------------------------------------------------- the rounds
@njit(cache=True)
def _rounds(r, geo, st, ws, pol):
    """WAR step 5 and COMBAT RULES: rounds (the attacker moves all his groups, then each defender in
    order; each group that has not fought moves once, in the order its commander picks) until no attacker
    remains, war.rounds_without_battle rounds pass without a battle involving attackers (the attacker's
    conduct), or war.max_rounds (RP-22)."""
    gi, v = ws.gi, ws.v
    rnd, quiet = 0, 0
    while rnd < r.k[K.WAR_MAX_ROUNDS] and attackers_left(gi, v[WV.GROUPS]) > 0:
        rnd += 1
        v[WV.ROUND] = rnd
        b0 = v[WV.BATTLES]
        for g in range(v[WV.GROUPS]):
            gi[g, GF.FOUGHT] = 0
            gi[g, GF.BONUS] = 0
        for j in range(-1, v[WV.DEFENDERS]):
            mover = ENEMY if j < 0 else ws.dcol[j]
            seat = v[WV.ATTACKER] if j < 0 else controller(v, mover)
            v[WV.MOVER] = mover
            for g in range(v[WV.GROUPS]):
                gi[g, GF.DONE] = 0
            while attackers_left(gi, v[WV.GROUPS]) > 0:
                n = np.int64(0)
                for g in range(v[WV.GROUPS]):
                    if commanded(gi, ws.tok, g, mover) and gi[g, GF.DONE] == 0 and gi[g, GF.FOUGHT] == 0:
                        ws.opt[n] = g
                        n += 1
                if n == 0:
                    break
                g = ws.opt[seam.war_pick(r, geo, st, ws, pol, seat, n)]
                gi[g, GF.DONE] = 1
                _move_group(r, geo, st, ws, pol, seat, mover, g)
        if v[WV.BATTLES] == b0:
            quiet += 1
            if quiet >= r.k[K.WAR_ROUNDS_WITHOUT_BATTLE]:
                break
        else:
            quiet = 0
        v[WV.QUIET] = quiet
    ws.rec[WR.ROUNDS] = rnd


@njit(cache=True)
def _move_group(r, geo, st, ws, pol, seat, mover, g):
    """A group's move: perhaps a bonus movement first (war.bonus_move by discarding another of the mover's
    groups that has not fought, once a group a round), then up to its war.move steps along reach's path. A
    merge of different colours needs the other commander's consent (COMBAT RULES "Token use"; refused, the
    group stops beside). After a merge the new group may still take its bonus movement (FAQ)."""
    gi = ws.gi
    pts = np.int64(r.war_move[gi[g, GF.SIZE]])
    first = True
    while g != NO:
        if r.k[K.WAR_BONUS_MOVE] > 0 and gi[g, GF.BONUS] < r.k[K.WAR_BONUS_MOVES_PER_GROUP] and gi[g, GF.FOUGHT] == 0:
            n = np.int64(0)
            for h in range(ws.v[WV.GROUPS]):
                if h != g and commanded(gi, ws.tok, h, mover) and gi[h, GF.FOUGHT] == 0:
                    ws.alt[n] = h
                    n += 1
            if n > 0:
                i = seam.war_bonus(r, geo, st, ws, pol, seat, g, n, pts)
                if 0 <= i < n:
                    release(r, st, ws, ws.alt[i], np.int64(1))
                    gi[g, GF.BONUS] += 1
                    pts += r.k[K.WAR_BONUS_MOVE]
        nxt = np.int64(NO)
        if pts > 0:
            gi[g, GF.PTS] = pts
            dest = ws.opt[seam.war_dest(r, geo, st, ws, pol, seat, g, reach(r, geo, st, ws, g, pts))]
            code = MOVED
            if dest != NO:
                p, h = ws.par[dest], ws.at[dest]
                consent = True
                if h != NO and gi[h, GF.SIDE] == 0 and gi[g, GF.SIDE] == 0 and (
                        mixed(gi, ws.tok, g) or mixed(gi, ws.tok, h) or ws.tok[h, 0] != ws.tok[g, 0]):
                    consent = seam.war_consent(r, geo, st, ws, pol, controller(ws.v, ws.tok[h, gi[h, GF.SIZE] - 1]), g, h)
                if p != NO and p != gi[g, GF.SPACE]:
                    place(gi, ws.at, g, p)
                if consent:
                    code = enter(r, geo, st, ws, g, dest)
            if code == MERGED and first:
                h = ws.at[dest]
                if h != NO and commanded(gi, ws.tok, h, mover) and gi[h, GF.FOUGHT] == 0:
                    nxt = h
        g, pts, first = nxt, np.int64(0), False


# ---------------------------------------------------------------------------------------------- the end
@njit(cache=True)
def _end(r, geo, st, ws, pol):
    """End of the War (RP-22): attackers and mixed groups leave (mixed: tokens to their owners' supply);
    each defender's policy keeps groups on the map as workers or takes them back (the shadow's always go
    back, VARIANTS); a group breaking the placement limits goes back (RP-03, RP-04: not on the Plaza unless
    placement.plaza_workers, placement.max_workers_per_space, placement.colours_per_space; not on another
    player's Hut or House, nor on the Palace or the Cathedral)."""
    players = st.g[G.PLAYERS]
    for g in range(ws.v[WV.GROUPS]):
        n = ws.gi[g, GF.SIZE]
        if n <= 0:
            continue
        if ws.gi[g, GF.SIDE] == 1:
            ws.rec[WR.SURVIVORS] += n
            release(r, st, ws, g, np.int64(0))
            continue
        c, s = ws.tok[g, 0], ws.gi[g, GF.SPACE]
        keep = not mixed(ws.gi, ws.tok, g) and s != NO and (c < players or not r.k[K.TWO_PLAYER_SHADOW_GRIDS_ONLY])
        if keep:
            total, others = n, 0
            for x in range(st.sp_workers.shape[1]):
                total += st.sp_workers[s, x]
                others += x != c and st.sp_workers[s, x] > 0
            b = st.sp_building[s]
            keep = (r.k[K.PLACEMENT_PLAZA_WORKERS] != 0 or geo.district[s] != PLAZA) and total <= r.k[K.PLACEMENT_MAX_WORKERS_PER_SPACE] \
                and others < r.k[K.PLACEMENT_COLOURS_PER_SPACE] and (b == NO or (b < r.building.shape[0] and (
                    r.building[b, BK.OWNED] == 0 or st.sp_owner[s] == c)))
        if keep and seam.war_keep(r, geo, st, ws, pol, controller(ws.v, c), g):
            st.sp_workers[s, c] += n
            ws.gi[g, GF.SIZE] = 0
            ws.gi[g, GF.SPACE] = NO
            ws.at[s] = NO
        else:
            release(r, st, ws, g, np.int64(0))
