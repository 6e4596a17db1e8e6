"""SCORING PHASE (VPS ASSIGNATION, END OF THE GAME VPS VARIATIONS) and the Character cards'
scoring (CARD REFERENCE > CHARACTER CARDS)."""

import numpy as np
from numba import njit

from sim.actions.turn_rows import add_row
from sim.banners import face_up_banners
from sim.cardpower import holder, offer
from sim.city import (
    city_vp,
    count_type,
    district_closed,
    district_occupied,
    district_value,
    house_value,
    n_closed_districts,
    n_road_districts,
    next_to_faith,
    own_buildings_in_district,
    palace_value,
)
from sim.codes import Card, Ch, Dec, Ev
from sim.core import add_vp, assign_vp, decide, log, set_option
from sim.economy import coin_value, give_coins_from_supply, pay_coins
from sim.rules import AP, RK
from sim.series import n_colours, series_base, series_counts, series_parts  # noqa: F401 (series_base: also read from here)
from sim.state import N_GROUPS, PF, VS, B, G, Mini, Sup

CARPENTER, STONEMASON, MERCHANT, DEFENDER, ROADMAKER, SAILMAKER = (int(c) for c in tuple(Ch)[:6])
GENERAL, CAPTAIN, BISHOP, ARCHITECT, GOVERNOR, NOBLEWOMAN = (int(c) for c in tuple(Ch)[6:])


@njit(cache=True)
def majority_split(values, n, needs_one, out):
    """Players with the most of something: out[s] = 1 for each. Returns how many share it."""
    best = -1
    for s in range(n):
        if values[s] > best:
            best = values[s]
    k = 0
    for s in range(n):
        out[s] = 0
        if values[s] == best and (best > 0 or not needs_one):
            out[s] = 1
            k += 1
    return k


@njit(cache=True)
def military_winners(st, r, n, out):
    """Strongest miniature (highest AV); ties broken by the second strongest, then the third...;
    players still tied share. Returns the number of winners."""
    nm = r.k[RK.WAR_MARKERS]
    av = np.zeros((n, nm), np.int32)
    for s in range(n):
        for j in range(nm):
            kind = st.minis[s, j, 0]
            av[s, j] = r.war_av[kind] if kind != Mini.NONE else 0
        av[s] = -np.sort(-av[s])
    alive = np.ones(n, np.int32)
    if r.k[RK.MAJORITY_NEEDS_ONE] == 1:
        for s in range(n):
            if nm == 0 or av[s, 0] == 0:
                alive[s] = 0
    for j in range(nm):
        best = -1
        for s in range(n):
            if alive[s] == 1 and av[s, j] > best:
                best = av[s, j]
        for s in range(n):
            if alive[s] == 1 and av[s, j] < best:
                alive[s] = 0
    k = 0
    for s in range(n):
        out[s] = alive[s]
        k += alive[s]
    return k


@njit(cache=True)
def _others(st, seat, n, slot):
    """The other seats' ``PF`` ``slot``: their total and the highest of them."""
    tot = 0
    mx = 0
    for s in range(n):
        if s != seat:
            tot += st.pl[s, slot]
            mx = max(mx, st.pl[s, slot])
    return tot, mx


@njit(cache=True)
def _resource_character(st, seat, n, slot, most, more_than_all):
    """Carpenter/Stonemason: ``most`` (5) if the most, ``more_than_all`` (8) if more than all others
    together; the card's own numbers, passed in by :func:`character_base`."""
    mine = st.pl[seat, slot]
    tot, mx = _others(st, seat, n, slot)
    if mine > 0 and mine > tot:
        return more_than_all
    if mine > mx:
        return most
    return 0


@njit(cache=True)
def _surplus_character(st, seat, n, slot, most, cap):
    """Merchant/Sailmaker: ``most`` (5) if the most, +1 per unit above all others together, at most
    ``cap`` (9); the card's own numbers, passed in by :func:`character_base`."""
    mine = st.pl[seat, slot]
    tot, mx = _others(st, seat, n, slot)
    if mine > mx:
        return min(cap, most + max(0, mine - tot))
    return 0


@njit(cache=True)
def architect_types(st, r, d):
    """Different buildings in a district: building types present, plus Walls when any wall stands
    on the district's perimeter (the rulebook's example counts 'walls')."""
    seen = np.zeros(B.CATHEDRAL + 2, np.int32)
    n = 0
    for i in range(r.district_ncells[d]):
        b = st.cell_b[r.district_cells[d, i]]
        if b != B.NONE and seen[b] == 0:
            seen[b] = 1
            n += 1
    for s in range(r.seg_district.shape[0]):
        if r.seg_district[s] == d and st.walls[s] == 1:
            n += 1
            break
    return n


@njit(cache=True)
def character_base(st, r, seat, n):
    """A Character card's VP before x Era (CARD REFERENCE > CHARACTER CARDS), with the
    2-3 player bonus when the card scores at least 1 VP."""
    ch = st.pl[seat, PF.CHARACTER]
    v = 0
    if ch == CARPENTER:
        v = _resource_character(st, seat, n, PF.WOOD, r.k[RK.CH_CARPENTER_MOST], r.k[RK.CH_CARPENTER_MORE_THAN_ALL])
    elif ch == STONEMASON:
        v = _resource_character(st, seat, n, PF.STONE, r.k[RK.CH_STONEMASON_MOST], r.k[RK.CH_STONEMASON_MORE_THAN_ALL])
    elif ch == MERCHANT:
        v = _surplus_character(st, seat, n, PF.PRECIOUS, r.k[RK.CH_MERCHANT_MOST], r.k[RK.CH_MERCHANT_MAX])
    elif ch == SAILMAKER:
        v = _surplus_character(st, seat, n, PF.METAL, r.k[RK.CH_SAILMAKER_MOST], r.k[RK.CH_SAILMAKER_MAX])
    elif ch == DEFENDER:
        v = r.k[RK.CH_DEFENDER] * n_closed_districts(st, r)
    elif ch == ROADMAKER:
        v = r.k[RK.CH_ROADMAKER] * n_road_districts(st)
    elif ch == GENERAL:
        v = (r.k[RK.CH_GEN_BARRACKS] * count_type(st, B.BARRACKS)
             + r.k[RK.CH_GEN_MONUMENT] * count_type(st, B.MONUMENT)
             + r.k[RK.CH_GEN_FORT] * st.g[G.FORT_BUILT])
    elif ch == CAPTAIN:
        v = r.k[RK.CH_CAPTAIN] if st.pl[seat, PF.WARS_WON_ERA] > 0 else 0
    elif ch == BISHOP:
        v = r.k[RK.CH_BISHOP_CHURCH] * count_type(st, B.CHURCH) + r.k[RK.CH_BISHOP_CATHEDRAL] * st.g[G.CATHEDRAL_BUILT]
        for c in range(st.cell_b.shape[0]):
            b = st.cell_b[c]
            if (b == B.MONUMENT or b == B.FOUNTAIN) and next_to_faith(st, r, c):
                v += r.k[RK.CH_BISHOP_SQUARE]
    elif ch == ARCHITECT:
        for d in range(r.district_ncells.shape[0]):
            t = architect_types(st, r, d)
            if t >= r.architect_n[1]:
                v += r.architect_vp[1]
            elif t >= r.architect_n[0]:
                v += r.architect_vp[0]
    elif ch == GOVERNOR:
        for d in range(r.district_ncells.shape[0]):
            occ = district_occupied(st, r, d)
            cap = r.district_ncells[d]
            if cap > 0 and occ == cap:
                v += r.k[RK.CH_GOV_FULL]
            elif cap > 0 and 100 * occ >= cap * r.k[RK.CH_GOV_HALF_PCT]:
                v += r.k[RK.CH_GOV_HALF]
    elif ch == NOBLEWOMAN:
        v = r.k[RK.CH_NOBLEWOMAN] if st.g[G.WARS_ERA] == 0 else 0
    if v > 0 and n <= r.k[RK.SMALL_GAME_MAX]:
        v += r.char_bonus[ch]
    return v


@njit(cache=True)
def city_total(st, r, seat):
    """The seat's city VP (SCORING PHASE, City) without VP status bonus: every House and Palace."""
    return city_vp(st, r, seat)


@njit(cache=True)
def _series_and_status(r, counts, cab, st_cards, n, era):
    v = series_base(r, counts, cab) * era
    if st_cards >= 3:
        v += n_colours(counts) * r.card_l3_half[n - 2] * era // 2
    return v


@njit(cache=True)
def _card74(st, r, s, counts, cab, n, era):
    """Card 74 (lightning): "Consider one of your cards of a different color" at this scoring: the
    best recolouring for card series and Card status III (one card moves from colour g to h)."""
    base = _series_and_status(r, counts, cab, st.pl[s, PF.ST_CARDS], n, era)
    best = base
    bg = -1
    bh = -1
    for g in range(N_GROUPS):
        if counts[g] == 0:
            continue
        for h in range(N_GROUPS):
            if h == g:
                continue
            counts[g] -= 1
            counts[h] += 1
            v = _series_and_status(r, counts, cab, st.pl[s, PF.ST_CARDS], n, era)
            counts[g] += 1
            counts[h] -= 1
            if v > best:
                best = v
                bg = g
                bh = h
    if bg >= 0 and offer(st, r, Card.C74, s) >= 0:
        counts[bg] -= 1
        counts[bh] += 1
        log(st, Ev.CARD_EFFECT, s, Card.C74, bg, bh)


@njit(cache=True)
def _card67_rows(st, r):
    """Districts with production buildings beyond the first, as option rows [district, extra, card]."""
    k = 0
    for d in range(r.district_ncells.shape[0]):
        prod = 0
        for j in range(r.district_ncells[d]):
            b = st.cell_b[r.district_cells[d, j]]
            if b != B.NONE and b != B.CATHEDRAL and r.b_prod[b] == 1:
                prod += 1
        if prod > 1:
            set_option(st, k, d, prod - 1, Card.C67)
            k += 1
    return k


@njit(cache=True)
def _card67(st, r, dv):
    """Card 67 (lightning): "In the target District, VP penalties for productive buildings are
    doubled and converted into VPs bonus" (this scoring; the district's value for every House)."""
    h = holder(st, Card.C67)
    if h < 0 or _card67_rows(st, r) == 0 or offer(st, r, Card.C67, h) < 0:
        return
    k = _card67_rows(st, r)  # offer() used the option rows: list the districts again
    i = decide(st, r, h, Dec.CARD_TARGET, k)
    d = st.opts[i, 0]
    extra = st.opts[i, 1]
    # the term goes from extra * production_penalty to extra * (-penalty_factor)
    dv[d] += extra * (-r.aff_p[Card.C67, AP.PENALTY_FACTOR] - r.k[RK.PRODUCTION_PENALTY])
    log(st, Ev.CARD_EFFECT, h, Card.C67, d, dv[d])


@njit(cache=True)
def _city_gain(st, r, s, d, dv_old, dv_new, extra_own, extra_houses):
    """City VP seat s gains in district d when its value goes from dv_old to dv_new, with
    ``extra_own`` more buildings counted as its own there and ``extra_houses`` more Houses scoring
    for it (card 71)."""
    faith = st.pl[s, PF.FAITH]
    own = own_buildings_in_district(st, r, s, d)
    per = faith * r.k[RK.HOUSE_PER_FAITH]
    nh, npal = houses_palaces(st, r, s, d)
    before = nh * min(own + per, dv_old) + npal * palace_value(r, faith, dv_old)
    after = (nh + extra_houses) * min(own + extra_own + per, dv_new) + npal * palace_value(r, faith, dv_new)
    return after - before


@njit(cache=True)
def _card54_rows(st, r, h, dv):
    """Card 54 targets [VP for the holder, district, card, adjacent district with a Barracks, +value]."""
    k = 0
    nd = r.district_ncells.shape[0]
    bv = r.b_dv[B.BARRACKS]
    for d in range(nd):
        for e in range(nd):
            if r.district_adj[d, e] == 0 or _count_in(st, r, e, B.BARRACKS) == 0:
                continue
            k = add_row(st, k, _city_gain(st, r, h, d, dv[d], dv[d] + bv, 0, 0), d, Card.C54, e, bv)
            break  # one Barracks is enough: the term is the same from any adjacent district
    return k


@njit(cache=True)
def _count_in(st, r, d, t):
    n = 0
    for j in range(r.district_ncells[d]):
        if st.cell_b[r.district_cells[d, j]] == t:
            n += 1
    return n


@njit(cache=True)
def _cathedral_term(r, cells):
    if cells >= 2:
        return r.b_dv[B.CATHEDRAL]
    if cells == 1:
        return r.k[RK.CATHEDRAL_SPLIT]
    return 0


@njit(cache=True)
def card68_bonus(st, r, d, e):
    """Card 68: what one Major-building term and one Minor-building term of district e add to district
    d's value when they also count there. Major terms: Roads, closed by Walls (the example counts 'the
    Walls'), Cabildo, Cathedral (a term d already has adds nothing; Fort and Harbor count everywhere
    already). Minor terms: the best positive one (Fountain, Monument, Church, Barracks, ...)."""
    bonus = r.k[RK.DISTRICT_BONUS]
    best_major = 0
    if st.roads[e] == 1 and st.roads[d] == 0:
        best_major = bonus
    if district_closed(st, r, e) and not district_closed(st, r, d):
        best_major = max(best_major, bonus)
    cd = _count_in(st, r, d, B.CATHEDRAL)
    ce = _count_in(st, r, e, B.CATHEDRAL)
    best_major = max(best_major, _cathedral_term(r, cd + ce) - _cathedral_term(r, cd))
    if _count_in(st, r, e, B.CABILDO) > 0 and _count_in(st, r, d, B.CABILDO) == 0:
        best_major = max(best_major, r.b_dv[B.CABILDO])
    best_minor = 0
    for j in range(r.district_ncells[e]):
        b = st.cell_b[r.district_cells[e, j]]
        if b != B.NONE and b != B.CATHEDRAL and b != B.CABILDO and r.b_prod[b] == 0:
            best_minor = max(best_minor, r.b_dv[b])
    return best_major + best_minor


@njit(cache=True)
def _card68_rows(st, r, h, dv):
    """Card 68 targets [VP for the holder, district, card, adjacent district, +value], best pair per district."""
    k = 0
    nd = r.district_ncells.shape[0]
    for d in range(nd):
        best = -1
        be = -1
        bb = 0
        for e in range(nd):
            if r.district_adj[d, e] == 0:
                continue
            add = card68_bonus(st, r, d, e)
            if add <= 0:
                continue
            gain = _city_gain(st, r, h, d, dv[d], dv[d] + add, 0, 0)
            if gain > best or (gain == best and add > bb):
                best = gain
                be = e
                bb = add
        if be >= 0:
            k = add_row(st, k, best, d, Card.C68, be, bb)
    return k


@njit(cache=True)
def _district_card(st, r, dv, card):
    """Cards 54 and 68 (lightning), at the City scoring: the holder picks a district whose value
    gains a term of an adjacent district, for this Scoring phase (the district's value for every
    House and Palace in it, as card 67). Offered when a district can gain such a term; the offer
    carries the holder's best VP gain (it may be 0: the district is not the holder's)."""
    h = holder(st, card)
    if h < 0:
        return
    k = _card54_rows(st, r, h, dv) if card == Card.C54 else _card68_rows(st, r, h, dv)
    if k == 0 or offer(st, r, card, h, _best_gain(st, k)) < 0:
        return
    k = _card54_rows(st, r, h, dv) if card == Card.C54 else _card68_rows(st, r, h, dv)  # offer() used the rows
    i = decide(st, r, h, Dec.CARD_TARGET, k)
    d = st.opts[i, 1]
    dv[d] += st.opts[i, 4]
    log(st, Ev.CARD_EFFECT, h, card, d, st.opts[i, 3], dv[d])


@njit(cache=True)
def _best_gain(st, k):
    best = 0
    for i in range(k):
        best = max(best, st.opts[i, 0])
    return best


@njit(cache=True)
def houses_palaces(st, r, s, d):
    """Seat s's Houses and Palaces in district d."""
    nh = 0
    npal = 0
    for j in range(r.district_ncells[d]):
        c = r.district_cells[d, j]
        if st.cell_owner[c] == s and st.cell_b[c] == B.HOUSE:
            nh += 1
        elif st.cell_owner[c] == s and st.cell_b[c] == B.PALACE:
            npal += 1
    return nh, npal


@njit(cache=True)
def _houses_in(st, r, s, d):
    return houses_palaces(st, r, s, d)[0]


@njit(cache=True)
def _card71_rows(st, r, h):
    """Card 71 targets [VP for the holder, district, card, other player, Houses]: up to 3 of the other
    player's Houses in a district where the holder has a House, 1 bronze each."""
    p = r.aff_p[Card.C71]
    n = st.g[G.NPLAYERS]
    k = 0
    money = coin_value(st, r, h)
    for d in range(r.district_ncells.shape[0]):
        if _houses_in(st, r, h, d) == 0:
            continue
        dv = district_value(st, r, d)
        for o in range(n):
            if o == h:
                continue
            most = min(p[AP.HOUSES_MAX], _houses_in(st, r, o, d))
            for m in range(1, most + 1):
                if m * p[AP.PAY_BRONZE_PER_HOUSE] > money:
                    break
                k = add_row(st, k, _city_gain(st, r, h, d, dv, dv, m, m), d, Card.C71, o, m)
    return k


@njit(cache=True)
def _card71(st, r):
    """Card 71 (lightning), at a Scoring phase before Money ("this payment must be considered for the
    Richest Player determination"): pay another player 1 bronze per House borrowed. Returns
    (holder, district, Houses) for the City scoring, or (-1, -1, 0)."""
    h = holder(st, Card.C71)
    if h < 0:
        return -1, -1, 0
    k = _card71_rows(st, r, h)
    if k == 0 or offer(st, r, Card.C71, h, _best_gain(st, k)) < 0:
        return -1, -1, 0
    k = _card71_rows(st, r, h)
    i = decide(st, r, h, Dec.CARD_TARGET, k)
    d = st.opts[i, 1]
    o = st.opts[i, 3]
    m = st.opts[i, 4]
    before = coin_value(st, r, h)
    pay_coins(st, r, h, m * r.aff_p[Card.C71, AP.PAY_BRONZE_PER_HOUSE])
    paid = before - coin_value(st, r, h)
    # the coins go to the other player (through the supply, which just received them)
    rate = r.k[RK.BRONZE_PER_SILVER]
    b = min(paid, st.supply[Sup.BRONZE])
    give_coins_from_supply(st, o, (paid - b) // rate, b)
    log(st, Ev.CARD_EFFECT, h, Card.C71, d, o, m)
    return h, d, m


@njit(cache=True)
def _card36_42(st, r, s, card, ahead):
    """Cards 36 and 42 (lightning): in a district closed by Walls (36) / with Roads (42), paying 1
    silver: each of your Houses there +1 (above the cap) or each of your Palaces +7, this scoring.
    One VP assignation (the card's one use); ``ahead`` as :func:`sim.core.assign_vp`'s."""
    p = r.aff_p[card]
    rate = r.k[RK.BRONZE_PER_SILVER]
    if coin_value(st, r, s) < p[AP.PAY_SILVER] * rate:
        return
    k = 0
    for phase in range(2):
        if phase == 1:
            if k == 0 or offer(st, r, card, s) < 0:
                return
            k = 0
        for d in range(r.district_ncells.shape[0]):
            ok = district_closed(st, r, d) if r.aff_district[card] == 1 else st.roads[d] == 1
            if not ok:
                continue
            nh, npal = houses_palaces(st, r, s, d)
            if nh > 0:
                set_option(st, k, nh * p[AP.HOUSE_VALUE], d, card)
                k += 1
            if npal > 0:
                set_option(st, k, npal * p[AP.PALACE_VALUE], d, card)
                k += 1
    i = decide(st, r, s, Dec.CARD_TARGET, k)
    pay_coins(st, r, s, p[AP.PAY_SILVER] * rate)
    assign_vp(st, r, s, st.opts[i, 0], VS.CITY, ahead)
    log(st, Ev.CARD_EFFECT, s, card, st.opts[i, 1], st.opts[i, 0])


# The steps of a Scoring phase in the order they assign VP (score_era), and the End of the game VPs
# after the last one (end_game): a row of ``ahead`` holds a seat's largest single assignation of each.
S_MONEY, S_MILITARY, S_BANNERS, S_FAITH, S_CHARACTER, S_SERIES, S_CARD_STATUS, S_CITY, S_END_COUNCIL, S_END_WAR = range(10)
N_STEPS = 10


@njit(cache=True)
def _after(ahead, s, step):
    """The seat's largest single assignation in the steps after ``step``."""
    m = 0
    for j in range(step + 1, N_STEPS):
        m = max(m, ahead[s, j])
    return m


@njit(cache=True)
def _assign_step(st, r, ahead, n, step, source):
    """A step of one assignation per seat (money, military, banners, faith, Character), in turn order."""
    for i in range(n):
        s = st.order[i]
        assign_vp(st, r, s, ahead[s, step], source, _after(ahead, s, step))


@njit(cache=True)
def _bonus_open(st, s):
    """The seat may still take its VP status bonus this decade (10. IMPROVE STATUS, VP status)."""
    return st.pl[s, PF.ST_VP] > 0 and st.pl[s, PF.USED_VP_STATUS] == 0


@njit(cache=True)
def _series_ahead(r, counts, cab, parts, era):
    """The largest single colour series (x Era)."""
    series_parts(r, counts, cab, parts)
    m = 0
    for gi in range(N_GROUPS):
        m = max(m, parts[gi])
    return m * era


@njit(cache=True)
def _city_values(st, r, s, dv, d71, m71, out):
    """The seat's City assignations in the order score_era makes them: each House and Palace,
    district by district, then card 71's borrowed Houses (``m71`` in district ``d71``). Returns
    how many are in ``out``."""
    faith = st.pl[s, PF.FAITH]
    k = 0
    for d in range(r.district_ncells.shape[0]):
        extra = m71 if d == d71 else 0
        for j in range(r.district_ncells[d]):
            c = r.district_cells[d, j]
            if st.cell_owner[c] != s:
                continue
            if st.cell_b[c] == B.HOUSE:
                out[k] = min(house_value(st, r, s, d, faith, dv[d]) + extra, dv[d])
                k += 1
            elif st.cell_b[c] == B.PALACE:
                out[k] = palace_value(r, faith, dv[d])
                k += 1
        for _ in range(extra):
            out[k] = min(house_value(st, r, s, d, faith, dv[d]) + extra, dv[d])
            k += 1
    return k


@njit(cache=True)
def end_game_vp(st, r, s):
    """(City Council VPs, War VPs) of END OF THE GAME VPS VARIATIONS."""
    return r.council_vp[st.pl[s, PF.COUNCIL]], r.penalty_vp[st.pl[s, PF.WAR_PENALTY] - r.k[RK.PENALTY_MIN]]


@njit(cache=True)
def scoring_due(st, r):
    """C.7 SCORING: the current decade ends an Era (or is the game's last: the First Game Option
    ends after Era 2), so its end of the decade scores the Era."""
    d = st.g[G.DECADE]
    return d % r.k[RK.DECADES_PER_ERA] == 0 or d == st.g[G.LAST_DECADE]


@njit(cache=True)
def score_era(st, r, era):
    """VPS ASSIGNATION: money, military, banners, faith, Character, card series (each colour) and
    Card status III, city (each House and Palace). Each is one VP assignation (the VP status bonus
    may apply to one); each tells the VP status decision the seat's largest assignation still to
    come (this Scoring's, and in the last decade the End of the game VPs when the rules let the
    bonus take them, status.vp_bonus_end_game), as it stands before the cards played in between."""
    n = st.g[G.NPLAYERS]
    log(st, Ev.SCORING, era)
    vals = np.zeros(n, np.int32)
    win = np.zeros(n, np.int32)
    needs = r.k[RK.MAJORITY_NEEDS_ONE] == 1
    h71, d71, m71 = _card71(st, r)
    # what each step gives each seat (for the series, the city and the end: the largest single one)
    ahead = np.zeros((n, N_STEPS), np.int32)
    for s in range(n):
        vals[s] = coin_value(st, r, s)
    k = majority_split(vals, n, needs, win)
    for s in range(n):
        if win[s] == 1:
            ahead[s, S_MONEY] = r.k[RK.MONEY_VP] * era // k
    k = military_winners(st, r, n, win)
    for s in range(n):
        if win[s] == 1:
            ahead[s, S_MILITARY] = r.k[RK.MILITARY_VP] * era // k
    for s in range(n):
        vals[s] = st.pl[s, PF.FAITH]
    k = majority_split(vals, n, needs, win)
    for s in range(n):
        ahead[s, S_BANNERS] = r.banner_vp[face_up_banners(st, s)] * era
        if win[s] == 1:
            ahead[s, S_FAITH] = r.k[RK.FAITH_VP] * era // k
        ahead[s, S_CHARACTER] = character_base(st, r, s, n) * era
    counts = np.zeros(N_GROUPS, np.int32)
    parts = np.zeros(N_GROUPS, np.int32)
    cab = st.g[G.CABILDO_BUILT] == 1
    nd = r.district_ncells.shape[0]
    dv = np.zeros(nd, np.int32)
    for d in range(nd):
        dv[d] = district_value(st, r, d)
    city = np.zeros(st.cell_b.shape[0] + max(0, m71), np.int32)
    end = st.g[G.DECADE] == st.g[G.LAST_DECADE] and r.k[RK.VP_BONUS_END_GAME] == 1
    for s in range(n):
        if not _bonus_open(st, s):
            continue  # only the VP status decision reads the steps ahead
        series_counts(st, s, counts)
        ahead[s, S_SERIES] = _series_ahead(r, counts, cab, parts, era)
        if st.pl[s, PF.ST_CARDS] >= 3:
            ahead[s, S_CARD_STATUS] = n_colours(counts) * r.card_l3_half[n - 2] * era // 2
        m = _city_values(st, r, s, dv, d71 if s == h71 else -1, m71, city)
        for j in range(m):
            ahead[s, S_CITY] = max(ahead[s, S_CITY], city[j])
        if end:
            cv, wv = end_game_vp(st, r, s)
            ahead[s, S_END_COUNCIL] = cv
            ahead[s, S_END_WAR] = wv
    _assign_step(st, r, ahead, n, S_MONEY, VS.MONEY)
    _assign_step(st, r, ahead, n, S_MILITARY, VS.MILITARY)
    _assign_step(st, r, ahead, n, S_BANNERS, VS.BANNERS)
    _assign_step(st, r, ahead, n, S_FAITH, VS.FAITH)
    _assign_step(st, r, ahead, n, S_CHARACTER, VS.CHARACTER)
    # card series, the largest colour first (the others are no larger: nothing of them is ahead), and Card status III
    for i in range(n):
        s = st.order[i]
        series_counts(st, s, counts)
        if holder(st, Card.C74) == s:
            _card74(st, r, s, counts, cab, n, era)
        if st.pl[s, PF.ST_CARDS] >= 3:
            ahead[s, S_CARD_STATUS] = n_colours(counts) * r.card_l3_half[n - 2] * era // 2
        series_parts(r, counts, cab, parts)
        while True:
            g = 0
            for gi in range(N_GROUPS):
                if parts[gi] > parts[g]:
                    g = gi
            if parts[g] <= 0:
                break
            assign_vp(st, r, s, parts[g] * era, VS.SERIES, _after(ahead, s, S_SERIES))
            parts[g] = 0
        assign_vp(st, r, s, ahead[s, S_CARD_STATUS], VS.CARD_STATUS, _after(ahead, s, S_CARD_STATUS))
    # city: every House and Palace is its own assignation
    _card67(st, r, dv)
    _district_card(st, r, dv, Card.C54)
    _district_card(st, r, dv, Card.C68)
    for i in range(n):
        s = st.order[i]
        m = _city_values(st, r, s, dv, d71 if s == h71 else -1, m71, city)
        # card 71: the borrowed Houses count as the holder's buildings and score for it too
        tail = _after(ahead, s, S_CITY)
        later = np.empty(m, np.int32)  # the largest City assignation after each, or the end's
        for j in range(m - 1, -1, -1):
            later[j] = tail
            tail = max(tail, city[j])
        for j in range(m):
            assign_vp(st, r, s, city[j], VS.CITY, later[j])
        for card in (Card.C36, Card.C42):
            if holder(st, card) == s:
                _card36_42(st, r, s, card, _after(ahead, s, S_CITY))
    for s in range(n):
        st.pl[s, PF.WARS_WON_ERA] = 0
    st.g[G.WARS_ERA] = 0


@njit(cache=True)
def end_game(st, r):
    """END OF THE GAME VPS VARIATIONS: City Council VP and War Penalty VP; then ranks.
    Ties on VP are broken by most resources; a further tie shares the place (both win).
    Each is a VP assignation the VP status bonus may take when the rules say so
    (status.vp_bonus_end_game)."""
    n = st.g[G.NPLAYERS]
    for s in range(n):
        cv, wv = end_game_vp(st, r, s)
        if r.k[RK.VP_BONUS_END_GAME] == 1:
            assign_vp(st, r, s, cv, VS.END_COUNCIL, max(0, wv))
            assign_vp(st, r, s, wv, VS.END_WAR, 0)
        else:
            add_vp(st, s, cv, VS.END_COUNCIL)
            add_vp(st, s, wv, VS.END_WAR)


@njit(cache=True)
def resources_total(st, seat):
    return st.pl[seat, PF.WOOD] + st.pl[seat, PF.STONE] + st.pl[seat, PF.PRECIOUS] + st.pl[seat, PF.METAL]


@njit(cache=True)
def rank_of(st, s):
    """Seat ``s``'s rank (END OF THE GAME): 1 + the seats ahead of it by (VP, resources); equal pairs share the rank."""
    rk = 1
    for t in range(st.g[G.NPLAYERS]):
        if t == s:
            continue
        if st.pl[t, PF.VP] > st.pl[s, PF.VP] or (
            st.pl[t, PF.VP] == st.pl[s, PF.VP] and resources_total(st, t) > resources_total(st, s)
        ):
            rk += 1
    return rk


@njit(cache=True)
def ranks(st, out):
    """Rank 1 = best by (VP, resources); equal pairs share the rank."""
    for s in range(st.g[G.NPLAYERS]):
        out[s] = rank_of(st, s)
