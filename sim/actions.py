"""B. ACTION PHASE: legality and effect of the 11 main actions and the free actions, and a turn.

A TURN decision lists every legal row (Act, a, b, c, d) in ``st.opts``; free actions leave the
turn open, a main action (or PASS) ends it.
"""

from numba import njit

from sim.affiliates import hand_card_options, use_card
from sim.cards import (
    burn_card,
    draw_and_keep,
    gain_card,
    nonempty_piles,
    take_pile_top,
)
from sim.city import activatable, activation_place_ok, minor_space_ok, own_spaces
from sim.codes import FIRST_FREE_ACT, Act, Card, Dec, Ev
from sim.core import (
    add_vp,
    card45_cut,
    card_active,
    coin_value,
    council_worker_stands_in,
    decide,
    gain_vp,
    give_coins_from_supply,
    grant_pool,
    holds,
    log,
    pay_coins,
    pay_plan,
    pay_resources,
    place_workers,
    return_pool,
    set_option,
    take_coins,
    take_from_grids,
    take_from_supply,
    workers_available,
)
from sim.council import call_vote, can_call_vote, gain_council, law_options
from sim.major import district_completed, grid_free, major_open, n_full_districts, own_on_grid, place_on_grid, recover_workers_free
from sim.rules import AP, RK
from sim.seam import choose_grouped, turn_groups_ok
from sim.state import N_CARDS, N_CHARACTERS, PF, VS, B, G, Loc, M, Mini, Sup

N_MINOR = 15  # building types 1..14 are built with the Minor building actions
# cards 13, 19, 25, 58, 65: build or activate their buildings with one Worker less (worker_discount)
WORKER_DISCOUNT_CARDS = (Card.C13, Card.C19, Card.C25, Card.C58, Card.C65)


@njit(cache=True)
def _add(st, k, act, a, b, c, d):
    st.opts[k, 0] = act
    st.opts[k, 1] = a
    st.opts[k, 2] = b
    st.opts[k, 3] = c
    st.opts[k, 4] = d
    return k + 1


@njit(cache=True)
def building_in_supply(st, r, seat, t):
    """Lots and Houses come from the player's supply, the rest from the game supply; a Palace
    also needs a Palace ownership marker."""
    if t == B.LOT:
        return st.pl[seat, PF.LOTS] > 0
    if t == B.HOUSE:
        return st.pl[seat, PF.HOUSES] > 0
    if t == B.PALACE:
        return st.pl[seat, PF.PALACE_MARKERS] > 0 and st.supply[Sup.PALACE] > 0
    return st.supply[r.b_sup[t]] > 0


@njit(cache=True)
def card43_workers(st, r, seat):
    """Card 43 used this turn: "Load the Ship ... discounting the Workers cost: place 2 City Council
    workers, or 1 if the Harbor has been built, in the Dock space"; 0 when they are not available."""
    if not card_active(st, seat, Card.C43):
        return 0
    p = r.aff_p[Card.C43]
    n = p[AP.COUNCIL_WORKERS_WITH_HARBOR] if st.g[G.HARBOR_BUILT] == 1 else p[AP.COUNCIL_WORKERS]
    return n if st.supply[Sup.COUNCIL_WORKERS] >= n else 0


@njit(cache=True)
def _ship_card_extras(st, r, seat, ld):
    """Cards 38 and 47 used this turn, with one more worker on the Load the Ship action: 1 bronze per
    district with Roads for 3 identical resources (38); 1 silver for a triplet (47)."""
    put = r.ship_put[ld]
    total = put[0] + put[1] + put[2] + put[3] + put[4]
    p38 = r.aff_p[Card.C38]
    if card_active(st, seat, Card.C38) and (put[0] == total or put[1] == total) and total == r.k[RK.SHIP_MAX_ELEMENTS]:
        if workers_available(st, seat) >= p38[AP.EXTRA_WORKERS]:
            st.card_active[Card.C38] = 0
            place_workers(st, seat, p38[AP.EXTRA_WORKERS])
            nr = 0
            for d in range(st.roads.shape[0]):
                nr += st.roads[d]
            take_coins(st, r, seat, 0, nr * p38[AP.BRONZE_PER_ROAD_DISTRICT])
    p47 = r.aff_p[Card.C47]
    if card_active(st, seat, Card.C47) and ld == r.aff_load[Card.C47] and workers_available(st, seat) >= p47[AP.EXTRA_WORKERS]:
        st.card_active[Card.C47] = 0
        place_workers(st, seat, p47[AP.EXTRA_WORKERS])
        take_coins(st, r, seat, p47[AP.SILVER], 0)


@njit(cache=True)
def ship_workers(st, r):
    return r.k[RK.SHIP_WORKERS_HARBOR] if st.g[G.HARBOR_BUILT] == 1 else r.k[RK.SHIP_WORKERS]


@njit(cache=True)
def _card52_applies(st, r, seat, a):
    """Card 52 used this turn: "You can acquire a Veteran Soldier without the Fort"."""
    return r.act_kind[a] == 2 and r.act_needs[a] == M.FORT and card_active(st, seat, Card.C52)


@njit(cache=True)
def activation_ok(st, r, seat, a):
    """Can the player pay for and use activation row ``a`` (ignoring place and workers)?"""
    if r.act_needs[a] >= 0 and st.major_state[r.act_needs[a], 1] == 0 and not _card52_applies(st, r, seat, a):
        return False
    if r.act_needs_not[a] >= 0 and st.major_state[r.act_needs_not[a], 1] > 0:
        return False
    inp = r.act_in[a]
    if coin_value(st, r, seat) < r.k[RK.BRONZE_PER_SILVER] * inp[4] + inp[5]:
        return False
    w, s, p = _act_resources(st, r, seat, a)
    if pay_plan(st, seat, w, s, p, inp[3], 1 - r.act_real[a]) < 0:
        return False
    kind = r.act_kind[a]
    if kind == 1:
        if st.supply[Sup.SOLDIERS] <= 0:
            return False
        for j in range(r.k[RK.WAR_MARKERS]):
            if st.minis[seat, j, 0] == Mini.MILICIANO_VET:
                return True
        return False
    if kind == 2:
        for j in range(r.k[RK.WAR_MARKERS]):
            if st.minis[seat, j, 0] == Mini.SOLDIER:
                return True
        return False
    return True


@njit(cache=True)
def _act_resources(st, r, seat, a):
    """Wood, stone and precious an activation row costs; card 45's waiver applies except to sales
    ("It is not possible to sell ... discounted resources": the rows paid with real resources)."""
    inp = r.act_in[a]
    if r.act_real[a] == 1:
        return inp[0], inp[1], inp[2]
    return card45_cut(st, r, seat, inp[0], inp[1], inp[2])


@njit(cache=True)
def cost_cards_in_use(st, seat):
    """Card 16, 22 or 45 is in use this turn (:func:`build_wood_stone`, ``card45_cut``): without
    one, :func:`build_cost` is the printed cost."""
    return card_active(st, seat, Card.C16) or card_active(st, seat, Card.C22) or (st.g[G.CARD45_RES] > 0 and card_active(st, seat, Card.C45))


@njit(cache=True)
def build_cost(st, r, seat, t):
    """Wood, stone, precious a construction costs after cards 16/22 (:func:`build_wood_stone`) and 45."""
    bw, bs = build_wood_stone(st, r, seat, t)
    return card45_cut(st, r, seat, bw, bs, r.b_cost[t, 3])


@njit(cache=True)
def _load_fits(st, r, seat, ld, room, prev):
    """Load row ``ld`` is allowed now (Cathedral conditions), fits ``room`` Dock elements and the seat
    holds its real items (together with load ``prev`` loaded in the same action, -1 none)."""
    if r.ship_needs[ld] >= 0 and st.major_state[r.ship_needs[ld], 1] == 0:
        return False
    if r.ship_needs_not[ld] >= 0 and st.major_state[r.ship_needs_not[ld], 1] > 0:
        return False
    p = r.ship_put[ld]
    if p[0] + p[1] + p[2] + p[3] + p[4] > room:
        return False
    for i in range(5):
        have = st.pl[seat, PF.WOOD + i] if i < 3 else st.pl[seat, PF.SILVER + i - 3]
        if p[i] + (r.ship_put[prev, i] if prev >= 0 else 0) > have:
            return False
    return True


@njit(cache=True)
def ship_room(st, r, seat):
    """Dock elements the seat may still load this decade: 3, or 6 with card 46 (used this turn, or
    earlier this decade); 0 when no Load the Ship action is open to it (one load per decade, two
    with card 46)."""
    six = card_active(st, seat, Card.C46) or st.pl[seat, PF.DOCK6_DECADE] == st.g[G.DECADE]
    if st.pl[seat, PF.SHIP_LOAD] >= 0 and not (six and st.pl[seat, PF.SHIP_LOAD2] < 0):
        return 0
    cap = r.aff_p[Card.C46, AP.DOCK_MAX_ELEMENTS] if six else r.k[RK.SHIP_MAX_ELEMENTS]
    return cap - st.dock[seat]


@njit(cache=True)
def build_wood_stone(st, r, seat, t):
    """Wood and stone a construction costs, after cards 16 and 22 used this turn: "One of your single
    costs in wood (stone) is reduced to 0 ... if used in combination with card 22 (16), both cards'
    effect is to reduce the cost of both resources to 1" (a cost already below stays)."""
    w = r.b_cost[t, 1]
    s = r.b_cost[t, 2]
    a16 = card_active(st, seat, Card.C16)
    a22 = card_active(st, seat, Card.C22)
    if a16 and a22:
        w = min(w, r.aff_p[Card.C16, AP.COMBO_WOOD_TO])
        s = min(s, r.aff_p[Card.C16, AP.COMBO_STONE_TO])
    elif a16:
        w = min(w, r.aff_p[Card.C16, AP.COST_TO])
    elif a22:
        s = min(s, r.aff_p[Card.C22, AP.COST_TO])
    return w, s


@njit(cache=True)
def worker_discount(st, r, seat, t):
    """Cards 13, 19, 25, 58, 65 used this turn: build or activate their buildings (bit t of the
    card's buildings) "with the discount of 1 Worker" if a City Council worker is available."""
    if st.supply[Sup.COUNCIL_WORKERS] <= 0:
        return 0
    for c in WORKER_DISCOUNT_CARDS:
        if card_active(st, seat, c) and (r.aff_buildings[c] >> t) & 1:
            return r.aff_p[c, AP.WORKER_DISCOUNT]
    return 0


@njit(cache=True)
def worker_discount_any(st, r, seat):
    """One of the worker-discount cards (:func:`worker_discount`) applies to something this turn."""
    if st.supply[Sup.COUNCIL_WORKERS] <= 0:
        return False
    for c in WORKER_DISCOUNT_CARDS:
        if card_active(st, seat, c):
            return True
    return False


@njit(cache=True)
def _marker_choices(t, markers):
    """BUILD rows per space for type t: a Monument or Fountain may take one of the seat's Status
    markers (``markers``: it has one left), so it is listed without (mk 0) and with (mk 1)."""
    return 2 if (t == B.MONUMENT or t == B.FOUNTAIN) and markers else 1


@njit(cache=True)
def _construction_rows(st, r, seat, k, find, pick):
    """The BUILD rows (1-2. Minor buildings: construction) in listing order: by space in map order,
    then by payable type (``st.cell_tmp[:G.TURN_TYPES]``, requirement bits in ``st.turn_tmp[0]``, both
    made by :func:`_turn_options`), then without and with a Status marker. ``find`` False: add them
    all from row ``k`` and return the new count. ``find`` True: only count the rows of the groups
    ``st.grp_tied`` marks, write the ``pick``-th of them as row ``k`` and return ``k + 1``."""
    types = st.cell_tmp
    by_req = st.turn_tmp[0]
    nt = st.g[G.TURN_TYPES]
    near = st.own_near[seat]
    tied = st.grp_tied
    markers = st.pl[seat, PF.STATUS_MARKERS] > 0
    for c in range(st.cell_b.shape[0]):
        b = st.cell_b[c]
        m = by_req[b] if b < N_MINOR else 0
        if m == 0:
            continue
        if not minor_space_ok(st, r, seat, c, near[c] == 1):
            continue
        dd = r.cell_district[c] + 1
        for j in range(nt):
            if not (m >> j) & 1:
                continue
            t = types[j] & 255
            dt = types[j] >> 8
            for mk in range(_marker_choices(t, markers)):
                if not find:
                    k = _add(st, k, Act.BUILD, t, c, mk | (dt << 1), 0)  # c column: marker bit, discount above
                elif tied[mk, t, dd] == 1:
                    if pick == 0:
                        return _add(st, k, Act.BUILD, t, c, mk | (dt << 1), 0)
                    pick -= 1
    return -1 if find else k


@njit(cache=True)
def turn_options(st, r, seat):
    """Every legal row for the seat's TURN decision. Never empty: with workers, Player Order
    (1 worker) is always legal; without, PASS is."""
    return _turn_options(st, r, seat, False)


@njit(cache=True)
def _turn_options(st, r, seat, grouped):
    """:func:`turn_options`; ``grouped`` True lists the BUILD rows as groups instead, one per
    (type, district, Status marker) with its number of spaces (``st.grp[:G.TURN_GROUPS]``, see
    :func:`decide_turn`), and the other rows from row 0 in the same order."""
    k = 0
    avail = workers_available(st, seat)
    nc = st.cell_b.shape[0]
    # the spaces next to a building of the seat's colour, the seat's spaces, and the spaces it may
    # build on by district (kept while the map stays)
    n_own = own_spaces(st, r, seat)
    near = st.own_near[seat]
    own = st.own_list[seat]
    hand = st.turn_tmp[1]
    # the seat's hand and its rotated cards, without a branch per card (where a seat's few cards
    # lie is not predictable): every card is written at the next free place, which only moves on
    # past a card in the hand (n_hand <= c, so the writes stay inside the scratch row)
    n_hand = 0
    rot = 0
    loc_hand = Loc.HAND + seat
    for c in range(N_CARDS):
        held = st.card_loc[c] == loc_hand
        hand[n_hand] = c
        n_hand += held
        rot += held & (st.card_rot[c] == 1)
    # the worker-discount cards (13, 19, 25, 58, 65): most turns have none in use
    disc = worker_discount_any(st, r, seat)
    st.g[G.TURN_GROUPS] = 0
    if avail > 0:
        # 1-2. Minor buildings: construction
        # the building types the seat can pay for and has in supply, then one pass over the map;
        # bit j of by_req[b] marks types[j] when it is built on a space holding b (its requirement)
        types = st.cell_tmp  # scratch in the state: no allocation per decision
        by_req = st.turn_tmp[0]
        for t in range(N_MINOR):
            by_req[t] = 0
        nt = 0
        # most turns have no cost card in use, and most payable types are paid from what the seat
        # holds (no pay_plan search)
        cut = cost_cards_in_use(st, seat)
        for t in range(1, N_MINOR):
            dt = worker_discount(st, r, seat, t) if disc else 0
            if r.b_cost[t, 0] - dt > avail or not building_in_supply(st, r, seat, t):
                continue
            if cut:
                bw, bs, bp = build_cost(st, r, seat, t)
            else:
                bw, bs, bp = r.b_cost[t, 1], r.b_cost[t, 2], r.b_cost[t, 3]
            if not holds(st, seat, bw, bs, bp, r.b_cost[t, 4]) and pay_plan(st, seat, bw, bs, bp, r.b_cost[t, 4], 1) < 0:
                continue
            types[nt] = t | (dt << 8)  # the discount rides in the high bits
            by_req[r.b_requires[t]] |= 1 << nt
            nt += 1
        st.g[G.TURN_TYPES] = nt
        if not grouped:
            k = _construction_rows(st, r, seat, k, False, 0)
        else:
            # the same rows by (type, district, Status marker): the seat's buildable spaces are
            # counted by district and by the building on them (city.own_spaces)
            cnt = st.own_cnt[seat]
            first = st.own_first[seat]
            grp = st.grp
            markers = st.pl[seat, PF.STATUS_MARKERS] > 0
            ng = 0
            for j in range(nt):
                t = types[j] & 255
                dt = types[j] >> 8
                req = r.b_requires[t]
                for dd in range(cnt.shape[1]):
                    if cnt[req, dd] == 0:
                        continue
                    for mk in range(_marker_choices(t, markers)):
                        grp[ng, 0] = t
                        grp[ng, 1] = dd
                        grp[ng, 2] = mk | (dt << 1)
                        grp[ng, 3] = cnt[req, dd]
                        grp[ng, 4] = first[req, dd]
                        ng += 1
            st.g[G.TURN_GROUPS] = ng
        # 2. activation: the spaces own_spaces found the seat may activate, in map order; with a
        # discount card in use, every space (the cards also waive adjacency: "You can activate
        # them, also if they are not adjacent")
        n_act = st.own_key[seat, -1]
        acts = st.own_act[seat]
        for q in range(nc if disc else n_act):
            c = q if disc else acts[q]
            b = st.cell_b[c]
            if not activatable(b):
                continue
            if st.act_used[seat, c] == 1:
                continue
            dt = worker_discount(st, r, seat, b) if disc else 0
            if dt == 0 and not activation_place_ok(st, r, c, near[c] == 1):
                continue
            for j in range(r.act_nrows[b]):
                a = r.act_rows[b, j]
                if r.act_w[a] - dt <= avail and activation_ok(st, r, seat, a):
                    k = _add(st, k, Act.ACTIVATE, a, c, dt, 0)
        # 3. Remove House/Palace
        if avail >= r.k[RK.REMOVE_HOUSE_WORKERS]:
            for j in range(n_own):
                c = own[j]
                if st.cell_b[c] == B.HOUSE or st.cell_b[c] == B.PALACE:
                    k = _add(st, k, Act.REMOVE, c, 0, 0, 0)
        # 4. Deploy Milicianos
        if avail >= r.k[RK.MILICIANO_WORKERS]:
            if st.supply[Sup.MILICIANOS] > 0:
                for j in range(r.k[RK.WAR_MARKERS]):
                    if st.minis[seat, j, 0] == Mini.NONE:
                        k = _add(st, k, Act.MILICIANO, 0, j, 0, 0)
                        break
            if pay_plan(st, seat, 0, 0, card45_cut(st, r, seat, 0, 0, r.k[RK.MILICIANO_VET_PRECIOUS])[2], 0, 1) >= 0:
                for j in range(r.k[RK.WAR_MARKERS]):
                    if st.minis[seat, j, 0] == Mini.MILICIANO:
                        k = _add(st, k, Act.MILICIANO, 1, j, 0, 0)
        # 5. Load the Ship: one load of at most 3 elements per player per decade, real items only;
        # card 46: one more worker, up to 6 elements (two loads) this decade. No card discount
        # applies (LOAD THE SHIP NOTE) but card 43's: the workers cards 45/51 lend do not count.
        room = ship_room(st, r, seat)
        if room > 0:
            c46 = card_active(st, seat, Card.C46)
            need = ship_workers(st, r) - card43_workers(st, r, seat) + (r.aff_p[Card.C46, AP.EXTRA_WORKERS] if c46 else 0)
            if avail - st.g[G.POOL_CC] >= need:
                two = c46 and st.pl[seat, PF.SHIP_LOAD] < 0
                nl = r.ship_put.shape[0]
                for ld in range(nl):
                    if not _load_fits(st, r, seat, ld, room, -1):
                        continue
                    k = _add(st, k, Act.SHIP, ld, 0, 0, 0)
                    if two:
                        p = r.ship_put[ld]
                        rest = room - (p[0] + p[1] + p[2] + p[3] + p[4])
                        for ld2 in range(ld, nl):
                            if _load_fits(st, r, seat, ld2, rest, ld):
                                k = _add(st, k, Act.SHIP, ld, ld2 + 1, 0, 0)  # b: second load + 1
        # 6. Take a card
        if avail >= r.k[RK.TAKE_CARD_WORKERS]:
            k = _add(st, k, Act.CARD_DRAW, 0, 0, 0, 0)
            nonempty = nonempty_piles(st)
            for pile in range(6):
                if pile < 5 and pile >= st.g[G.NPLAYERS]:
                    continue
                if (nonempty >> pile) & 1:
                    k = _add(st, k, Act.CARD_PILE, pile, 0, 0, 0)
            if coin_value(st, r, seat) >= r.k[RK.BUY_CARD_BRONZE]:
                grp = st.pl[seat, PF.CHARACTER]
                for c in range(N_CHARACTERS + grp * 6, N_CHARACTERS + grp * 6 + 6):
                    loc = st.card_loc[c]
                    if loc >= Loc.HAND and loc < Loc.HAND + 5 and loc != Loc.HAND + seat:
                        k = _add(st, k, Act.CARD_BUY, c, loc - Loc.HAND, 0, 0)
        # 7. Reactivate cards: up to 2 per worker; more workers than rotated cards need is pointless
        per = r.k[RK.REACT_PER_WORKER]
        for w in range(1, min(avail, max(1, (rot + per - 1) // per)) + 1):
            k = _add(st, k, Act.REACTIVATE, w, 0, 0, 0)
        # 8. Player order
        for w in range(1, avail + 1):
            k = _add(st, k, Act.ORDER, w, 0, 0, 0)
        # 9. City Council
        for w in range(1, min(avail, 2) + 1):
            k = _add(st, k, Act.COUNCIL, w, 0, 0, 0)
        # 10. Improve Status: at most 2 categories (2 Status markers)
        for cat in range(4):
            lvl = st.pl[seat, PF.ST_CONSTRUCTION + cat]
            if lvl >= 3:
                continue
            if lvl == 0 and st.pl[seat, PF.STATUS_MARKERS] <= 0:
                continue
            # card 84 used this turn: 1 worker (a City Council worker stands in) and 1 bronze less
            d84 = 1 if (card_active(st, seat, Card.C84) and st.supply[Sup.COUNCIL_WORKERS] > 0) else 0
            wk = r.st_workers[lvl] - d84 * r.aff_p[Card.C84, AP.WORKER_DISCOUNT]
            cost = r.k[RK.BRONZE_PER_SILVER] * r.st_silver[lvl] - d84 * r.aff_p[Card.C84, AP.BRONZE_DISCOUNT]
            if wk <= avail and coin_value(st, r, seat) >= cost:
                k = _add(st, k, Act.STATUS, cat, lvl + 1, d84, 0)
        # 11. Major buildings: several workers at once
        for m in range(6):
            if major_open(st, r, m):
                for w in range(1, min(avail, grid_free(st, r, m)) + 1):
                    k = _add(st, k, Act.MAJOR, m, w, 0, 0)
    else:
        k = _add(st, k, Act.PASS, 0, 0, 0, 0)
    # free actions
    if can_call_vote(st, seat):
        k = law_options(st, r, seat, k)
    for j in range(n_hand):
        c = hand[j]
        if c >= N_CHARACTERS and st.card_turn[c] == 0:
            k = _add(st, k, Act.F_BURN, c, 0, 0, 0)
    for res in range(2):
        if st.warehouse[res] > 0:
            k = _add(st, k, Act.F_WAREHOUSE, res, 0, 0, 0)
    for m in range(6):
        if st.major_state[m, 0] == 0 and own_on_grid(st, m, seat) > 0:
            k = _add(st, k, Act.F_RECOVER, m, 0, 0, 0)
    for j in range(n_own):
        c = own[j]
        if st.cell_b[c] == B.LOT:
            k = _add(st, k, Act.F_REMOVE_LOT, c, 0, 0, 0)
    lvl = st.pl[seat, PF.ST_WORKER]
    if lvl > 0 and st.pl[seat, PF.USED_CC_STATUS] == 0 and st.supply[Sup.COUNCIL_WORKERS] > 0:
        if r.worker_bronze[lvl - 1] == 0:
            k = _add(st, k, Act.F_CC_WORKER, 3, 0, 0, 0)
        else:
            if coin_value(st, r, seat) >= r.worker_bronze[lvl - 1]:
                k = _add(st, k, Act.F_CC_WORKER, 0, 0, 0, 0)
            if lvl >= 2:
                if st.pl[seat, PF.WOOD] > 0:
                    k = _add(st, k, Act.F_CC_WORKER, 1, 0, 0, 0)
                if st.pl[seat, PF.STONE] > 0:
                    k = _add(st, k, Act.F_CC_WORKER, 2, 0, 0, 0)
    if st.pl[seat, PF.ST_CARDS] >= 2 and st.pl[seat, PF.REACT_FREE] == 0:
        k = _add(st, k, Act.F_FREE_REACT, 0, 0, 0, 0)
    return hand_card_options(st, r, seat, k, hand, n_hand)


@njit(cache=True)
def _spend_discount(st, r, seat, t):
    """A discount card works for one action: the one whose buildings include t stops applying."""
    for c in WORKER_DISCOUNT_CARDS:
        if card_active(st, seat, c) and (r.aff_buildings[c] >> t) & 1:
            st.card_active[c] = 0
            return


@njit(cache=True)
def build(st, r, seat, t, c, mark, disc=0):
    """Construct a Minor building (1-2): workers on the action space, cost to the game supply,
    the replaced building back to its supply, City Council points and VP on construction.
    ``disc``: workers a discount card replaces by City Council workers (:func:`worker_discount`)."""
    w = r.b_cost[t, 0]
    place_workers(st, seat, w - disc)
    for _ in range(disc):
        council_worker_stands_in(st, seat)
    if disc > 0:
        _spend_discount(st, r, seat, t)
    bw, bs = build_wood_stone(st, r, seat, t)
    if bw < r.b_cost[t, 1] or bs < r.b_cost[t, 2]:  # cards 16/22 worked for this action: spent
        st.card_active[Card.C16] = 0
        st.card_active[Card.C22] = 0
    bw, bs, bp = card45_cut(st, r, seat, bw, bs, r.b_cost[t, 3])
    st.g[G.CARD45_RES] = 0
    plan = pay_plan(st, seat, bw, bs, bp, r.b_cost[t, 4], 1)
    pay_resources(st, seat, bw, bs, bp, r.b_cost[t, 4], plan)
    old = st.cell_b[c]
    if old == B.LOT:
        st.pl[seat, PF.LOTS] += 1
    elif old == B.HOUSE:
        st.pl[seat, PF.HOUSES] += 1
    elif old != B.NONE and old != B.SQUARE:
        st.supply[r.b_sup[old]] += 1  # Market/Carpentry/Quarry replaced by Corporation/Hacienda
    if t == B.LOT:
        st.pl[seat, PF.LOTS] -= 1
    elif t == B.HOUSE:
        st.pl[seat, PF.HOUSES] -= 1
    elif t == B.PALACE:
        st.pl[seat, PF.PALACE_MARKERS] -= 1
        st.supply[Sup.PALACE] -= 1
    else:
        st.supply[r.b_sup[t]] -= 1
    full_before = n_full_districts(st, r)
    st.cell_b[c] = t
    st.built[seat, t] += 1
    if t == B.HACIENDA_WOOD or t == B.HACIENDA_STONE:
        # the marker cube that tells a Hacienda from a Corporation leaves the supply (if any is left)
        slot = Sup.WOOD if t == B.HACIENDA_WOOD else Sup.STONE
        cube = min(r.k[RK.HACIENDA_MARKER], st.supply[slot])
        st.supply[slot] -= cube
        st.cell_cube[c] = cube
    if t == B.LOT or t == B.HOUSE or t == B.PALACE:
        st.cell_owner[c] = seat
    elif mark == 1:
        st.cell_owner[c] = seat
        st.pl[seat, PF.STATUS_MARKERS] -= 1
    else:
        st.cell_owner[c] = -1
    log(st, Ev.BUILD, seat, t, c, w, bw, bs, r.b_cost[t, 3] * 16 + r.b_cost[t, 4])
    if r.b_cp[t] > 0:
        gain_council(st, r, seat, r.b_cp[t])
    if r.b_vp[t] > 0:
        gain_vp(st, r, seat, r.b_vp[t], VS.BUILD)
    if n_full_districts(st, r) > full_before:
        district_completed(st, r)


@njit(cache=True)
def activate(st, r, seat, a, c, disc=0):
    """Activate a building (2): one effect, once per building per decade. ``disc``: workers a
    discount card replaces by City Council workers (:func:`worker_discount`). Cards used this
    turn may add a second effect (15, 21, 27: with the same worker; 75: with another worker) and
    card 39 one more unit of the output in a district with Roads."""
    place_workers(st, seat, r.act_w[a] - disc)
    for _ in range(disc):
        council_worker_stands_in(st, seat)
    if disc > 0:
        _spend_discount(st, r, seat, r.act_b[a])
    st.act_used[seat, c] = 1
    if r.act_needs[a] >= 0 and st.major_state[r.act_needs[a], 1] == 0:
        st.card_active[Card.C52] = 0  # the card stood in for the Fort: spent
    _activation_effect(st, r, seat, a, c)
    b = r.act_b[a]
    for card in (Card.C15, Card.C21, Card.C27, Card.C75):
        if not card_active(st, seat, card):
            continue
        if card != Card.C75 and not (r.aff_buildings[card] >> b) & 1:
            continue
        extra_w = 0 if card != Card.C75 else 1  # 75: "the extra activation takes another worker"
        k = 0
        for j in range(r.act_nrows[b]):
            a2 = r.act_rows[b, j]
            if activation_ok(st, r, seat, a2) and (extra_w == 0 or r.act_w[a2] <= workers_available(st, seat)):
                set_option(st, k, a2, card)
                k += 1
        set_option(st, k, -1, card)
        a2 = st.opts[decide(st, r, seat, Dec.CARD_TARGET, k + 1), 0]
        if a2 >= 0:
            st.card_active[card] = 0
            if extra_w:
                place_workers(st, seat, r.act_w[a2])
            _activation_effect(st, r, seat, a2, c)
        break
    d = r.cell_district[c]
    if card_active(st, seat, Card.C39) and d >= 0 and st.roads[d] == 1:
        st.card_active[Card.C39] = 0
        _card39_bonus(st, r, seat, a)


@njit(cache=True)
def _card39_bonus(st, r, seat, a):
    """Card 39: "+1 resource of a type created ... or +1 bronze coin (Market or Corporation if used to
    gain coin) or +1 Faith token (Church)": wood, stone and precious from the board's grids, metal and
    Faith from the supply, bronze from the stacks."""
    out = r.act_out[a]
    p = r.aff_p[Card.C39]
    if out[8] > 0:
        f = min(p[AP.EXTRA_FAITH], st.supply[Sup.FAITH])
        st.supply[Sup.FAITH] -= f
        st.pl[seat, PF.FAITH] += f
    elif out[6] > 0 or out[7] > 0:
        take_coins(st, r, seat, 0, p[AP.EXTRA_BRONZE])
    elif out[0] > 0 or out[3] > 0:
        take_from_grids(st, r, seat, 0, p[AP.EXTRA_RESOURCE])  # wood, stone, precious from the board
    elif out[1] > 0 or out[4] > 0:
        take_from_grids(st, r, seat, 1, p[AP.EXTRA_RESOURCE])
    elif out[2] > 0:
        take_from_grids(st, r, seat, 2, p[AP.EXTRA_RESOURCE])
    elif out[5] > 0:
        take_from_supply(st, seat, 3, p[AP.EXTRA_RESOURCE])


@njit(cache=True)
def _activation_effect(st, r, seat, a, c):
    """Pay an activation row's input and apply its one effect."""
    inp = r.act_in[a]
    w, s, p = _act_resources(st, r, seat, a)
    st.g[G.CARD45_RES] = 0  # card 45 waives costs of one action's payment only
    plan = pay_plan(st, seat, w, s, p, inp[3], 1 - r.act_real[a])
    pay_resources(st, seat, w, s, p, inp[3], plan)
    if inp[4] > 0 or inp[5] > 0:
        pay_coins(st, r, seat, r.k[RK.BRONZE_PER_SILVER] * inp[4] + inp[5])
    log(st, Ev.ACTIVATE, seat, a, c)
    kind = r.act_kind[a]
    if kind == 1 or kind == 2:
        frm = Mini.MILICIANO_VET if kind == 1 else Mini.SOLDIER
        for j in range(r.k[RK.WAR_MARKERS]):
            if st.minis[seat, j, 0] == frm:
                if kind == 1:
                    st.supply[Sup.MILICIANOS] += 1
                    st.supply[Sup.SOLDIERS] -= 1
                    st.minis[seat, j, 0] = Mini.SOLDIER
                else:
                    st.minis[seat, j, 0] = Mini.SOLDIER_VET
                log(st, Ev.MINI_UPGRADE, seat, j, st.minis[seat, j, 0])
                break
        return
    out = r.act_out[a]
    if out[0] > 0:
        take_from_grids(st, r, seat, 0, out[0])
    if out[1] > 0:
        take_from_grids(st, r, seat, 1, out[1])
    if out[2] > 0:
        take_from_grids(st, r, seat, 2, out[2])
    for i in range(3):
        if out[3 + i] > 0:
            take_from_supply(st, seat, 0 if i == 0 else (1 if i == 1 else 3), out[3 + i])
    if out[6] > 0 or out[7] > 0:
        take_coins(st, r, seat, out[6], out[7])
    if out[8] > 0:
        f = min(out[8], st.supply[Sup.FAITH])
        st.supply[Sup.FAITH] -= f
        st.pl[seat, PF.FAITH] += f


@njit(cache=True)
def apply_option(st, r, seat, act, a, b, c):
    """Carry out one TURN row."""
    if act == Act.PASS:
        st.pl[seat, PF.PASSED] = 1
        log(st, Ev.PASS, seat)
    elif act == Act.BUILD:
        build(st, r, seat, a, b, c & 1, c >> 1)
    elif act == Act.ACTIVATE:
        activate(st, r, seat, a, b, c)
    elif act == Act.REMOVE:
        place_workers(st, seat, r.k[RK.REMOVE_HOUSE_WORKERS])
        t = st.cell_b[a]
        if t == B.HOUSE:
            st.pl[seat, PF.HOUSES] += 1
        else:
            st.supply[Sup.PALACE] += 1
            st.pl[seat, PF.PALACE_MARKERS] += 1
        st.cell_b[a] = B.NONE
        st.cell_owner[a] = -1
        log(st, Ev.REMOVE, seat, t, a)
    elif act == Act.MILICIANO:
        place_workers(st, seat, r.k[RK.MILICIANO_WORKERS])
        if a == 0:
            st.supply[Sup.MILICIANOS] -= 1
            st.minis[seat, b, 0] = Mini.MILICIANO
            st.minis[seat, b, 1] = 0
        else:
            pv = card45_cut(st, r, seat, 0, 0, r.k[RK.MILICIANO_VET_PRECIOUS])[2]
            st.g[G.CARD45_RES] = 0
            pay_resources(st, seat, 0, 0, pv, 0, pay_plan(st, seat, 0, 0, pv, 0, 1))
            st.minis[seat, b, 0] = Mini.MILICIANO_VET
        log(st, Ev.MILICIANO, seat, a, b)
    elif act == Act.SHIP:
        return_pool(st, seat, 0)  # no discount on Load the Ship: City Council workers lent by cards 45/51 go back
        cc = card43_workers(st, r, seat)
        c46 = card_active(st, seat, Card.C46)
        extra = r.aff_p[Card.C46, AP.EXTRA_WORKERS] if c46 else 0
        place_workers(st, seat, ship_workers(st, r) - cc + extra)
        for _ in range(cc):
            council_worker_stands_in(st, seat)
        if cc > 0:
            st.card_active[Card.C43] = 0
        if c46:
            st.card_active[Card.C46] = 0
            st.pl[seat, PF.DOCK6_DECADE] = st.g[G.DECADE]
        _load_dock(st, r, seat, a)
        if b > 0:
            _load_dock(st, r, seat, b - 1)
    elif act == Act.CARD_DRAW:
        place_workers(st, seat, r.k[RK.TAKE_CARD_WORKERS])
        draw_and_keep(st, r, seat, r.k[RK.TAKE_CARD_DRAW])
    elif act == Act.CARD_PILE:
        place_workers(st, seat, r.k[RK.TAKE_CARD_WORKERS])
        take_pile_top(st, seat, a)
    elif act == Act.CARD_BUY:
        place_workers(st, seat, r.k[RK.TAKE_CARD_WORKERS])
        before = coin_value(st, r, seat)
        pay_coins(st, r, seat, r.k[RK.BUY_CARD_BRONZE])
        give_coins_from_supply(st, b, 0, before - coin_value(st, r, seat))  # what was paid (card 78's discount)
        gain_card(st, seat, a)
        log(st, Ev.CARD_BUY, seat, a, b)
    elif act == Act.REACTIVATE:
        place_workers(st, seat, a)
        st.pl[seat, PF.REACT_WORKERS] += a
        log(st, Ev.REACTIVATE, seat, a)
    elif act == Act.ORDER:
        place_workers(st, seat, a)
        st.pl[seat, PF.ORDER_WORKERS] += a
        log(st, Ev.ORDER, seat, a)
    elif act == Act.COUNCIL:
        place_workers(st, seat, a)
        gain_council(st, r, seat, r.council_gain[a - 1])
        log(st, Ev.COUNCIL, seat, a, r.council_gain[a - 1], st.pl[seat, PF.COUNCIL])
    elif act == Act.STATUS:
        lvl = st.pl[seat, PF.ST_CONSTRUCTION + a]
        if c > 0:  # card 84
            st.card_active[Card.C84] = 0
            wd = r.aff_p[Card.C84, AP.WORKER_DISCOUNT]
            place_workers(st, seat, r.st_workers[lvl] - wd)
            for _ in range(wd):
                council_worker_stands_in(st, seat)
            pay_coins(st, r, seat, r.k[RK.BRONZE_PER_SILVER] * r.st_silver[lvl] - r.aff_p[Card.C84, AP.BRONZE_DISCOUNT])
        else:
            place_workers(st, seat, r.st_workers[lvl])
            pay_coins(st, r, seat, r.k[RK.BRONZE_PER_SILVER] * r.st_silver[lvl])
        if lvl == 0:
            st.pl[seat, PF.STATUS_MARKERS] -= 1
        st.pl[seat, PF.ST_CONSTRUCTION + a] = lvl + 1
        log(st, Ev.STATUS, seat, a, lvl + 1)
    elif act == Act.MAJOR:
        place_on_grid(st, r, seat, a, b)
    elif act == Act.F_VOTE:
        call_vote(st, r, seat, a, b)
    elif act == Act.F_BURN:
        burn_card(st, r, seat, a)
    elif act == Act.F_WAREHOUSE:
        st.warehouse[a] -= 1
        st.pl[seat, PF.WOOD + a] += 1
        st.pl[seat, PF.WH_WOOD + a] += 1
        log(st, Ev.WAREHOUSE, seat, a)
        add_vp(st, seat, r.k[RK.WAREHOUSE_VP], VS.WAREHOUSE)
    elif act == Act.F_RECOVER:
        recover_workers_free(st, r, seat, a)
    elif act == Act.F_REMOVE_LOT:
        st.cell_b[a] = B.NONE
        st.cell_owner[a] = -1
        st.pl[seat, PF.LOTS] += 1
        log(st, Ev.REMOVE_LOT, seat, a)
    elif act == Act.F_CC_WORKER:
        lvl = st.pl[seat, PF.ST_WORKER]
        if a == 0:
            pay_coins(st, r, seat, r.worker_bronze[lvl - 1])
        elif a == 1 or a == 2:
            res = a - 1
            st.pl[seat, PF.WOOD + res] -= 1
            st.supply[Sup.WOOD + res] += 1
            st.pl[seat, PF.WH_WOOD + res] = max(0, st.pl[seat, PF.WH_WOOD + res] - 1)
        n = min(r.worker_cc[lvl - 1], st.supply[Sup.COUNCIL_WORKERS])
        st.supply[Sup.COUNCIL_WORKERS] -= n
        st.pl[seat, PF.CC_WORKERS] += n
        st.pl[seat, PF.USED_CC_STATUS] = 1
        log(st, Ev.CC_WORKER, seat, n, a)
    elif act == Act.F_FREE_REACT:
        st.pl[seat, PF.REACT_FREE] = 1
        log(st, Ev.REACTIVATE, seat, 0)
    elif act == Act.F_CARD:
        use_card(st, r, seat, a, b, c)


@njit(cache=True)
def _load_dock(st, r, seat, ld):
    """Put load row ``ld``'s real items on the seat's Dock space (the first load of the decade, or
    the second with card 46)."""
    p = r.ship_put[ld]
    for i in range(3):
        st.pl[seat, PF.WOOD + i] -= p[i]
    st.pl[seat, PF.SILVER] -= p[3]
    st.pl[seat, PF.BRONZE] -= p[4]
    st.pl[seat, PF.WH_WOOD] = max(0, st.pl[seat, PF.WH_WOOD] - p[0])
    st.pl[seat, PF.WH_STONE] = max(0, st.pl[seat, PF.WH_STONE] - p[1])
    st.dock[seat] += p[0] + p[1] + p[2] + p[3] + p[4]
    if st.pl[seat, PF.SHIP_LOAD] < 0:
        st.pl[seat, PF.SHIP_LOAD] = ld
    else:
        st.pl[seat, PF.SHIP_LOAD2] = ld
    log(st, Ev.SHIP, seat, ld)
    _ship_card_extras(st, r, seat, ld)


@njit(cache=True)
def end_main_action(st, r, seat, cc_used):
    """After a main action: City Council workers lent by cards 45/51 and not used go back to the
    supply, and card 45's waiver ends ("in a single action")."""
    return_pool(st, seat, cc_used)
    st.g[G.CARD45_RES] = 0
    st.card_active[Card.C45] = 0


@njit(cache=True)
def end_turn(st, seat):
    """City Warehouse cubes not used during the turn go to the general supply; cards rotated
    this turn may be burnt from the next turn on."""
    for res in range(2):
        left = min(st.pl[seat, PF.WH_WOOD + res], st.pl[seat, PF.WOOD + res])
        st.pl[seat, PF.WOOD + res] -= left
        st.supply[Sup.WOOD + res] += left
        st.pl[seat, PF.WH_WOOD + res] = 0
    for c in range(N_CARDS):
        st.card_turn[c] = 0
        st.card_active[c] = 0  # "Card powers cannot be postponed": a modifier not used this turn is lost


@njit(cache=True)
def turn_step(st, r, seat, act, a, b, c):
    """Carry out one TURN row (Act, a, b, c) for ``seat``; True while the turn goes on (after a
    free action, or card 51's extra main action), False once the main action (or PASS) ends it."""
    cc0 = st.pl[seat, PF.CC_WORKERS]
    apply_option(st, r, seat, act, a, b, c)
    if act >= FIRST_FREE_ACT:
        return True
    end_main_action(st, r, seat, max(0, cc0 - st.pl[seat, PF.CC_WORKERS]))
    # card 51: "Complete your following turn immediately with 1 worker discount" - one more
    # main action now, a City Council worker standing in for one of its workers
    if act != Act.PASS and card_active(st, seat, Card.C51):
        st.card_active[Card.C51] = 0
        if grant_pool(st, seat, r.aff_p[Card.C51, AP.WORKER_DISCOUNT]) > 0:
            log(st, Ev.CARD_EFFECT, seat, Card.C51, 1)
            return True
    return False


@njit(cache=True)
def decide_turn(st, r, seat):
    """The seat's TURN decision: its rows listed (:func:`turn_options`) and one picked by its policy;
    returns the row's index in ``st.opts``. A seat whose policy gives the BUILD rows of one type,
    district and Status marker one value (strategies.policy.turn_groups_ok) gets them as groups:
    each group valued once, the pick the same as over the full listing (same random draw,
    policy.choose_grouped), and a picked BUILD row found by going over the map in listing order
    (:func:`_construction_rows`). About 6 in 10 rows of a 4-player game are BUILD rows."""
    if not turn_groups_ok(st, seat):
        return decide(st, r, seat, Dec.TURN, turn_options(st, r, seat))
    k = _turn_options(st, r, seat, True)
    if st.g[G.TURN_GROUPS] == 0:
        return decide(st, r, seat, Dec.TURN, k)
    if k == 0:  # never (with workers, Player Order is a row): the full listing
        return decide(st, r, seat, Dec.TURN, turn_options(st, r, seat))
    st.g[G.OPT_N] += 1  # as decide
    i = choose_grouped(st, r, seat, k)
    if i >= 0:
        return i
    i = _construction_rows(st, r, seat, k, True, -i - 1) - 1
    if i != k:
        raise AssertionError("decide_turn: the picked BUILD row is not in the listing")
    return i


@njit(cache=True)
def finish_turn(st, r, seat):
    """The rest of a turn already under way: free actions, then one main action (or pass), each
    chosen by the seat's policy; then END of the turn."""
    for _ in range(1000):
        i = decide_turn(st, r, seat)
        if not turn_step(st, r, seat, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3]):
            break
    end_turn(st, seat)
    st.g[G.TURN_SEAT] = -1


@njit(cache=True)
def play_turn(st, r, seat):
    """One turn: any number of free actions, then one main action (or pass)."""
    st.g[G.TURN_SEAT] = seat
    finish_turn(st, r, seat)


@njit(cache=True)
def any_active(st):
    for i in range(st.g[G.NPLAYERS]):
        if st.pl[st.order[i], PF.PASSED] == 0:
            return True
    return False


@njit(cache=True)
def action_rounds(st, r, start):
    """B. ACTION PHASE from turn-order position ``start`` of the current round: rounds in turn
    order until every player has passed (``start`` > 0 resumes a round, see strategies.rollout)."""
    n = st.g[G.NPLAYERS]
    for _ in range(1000):
        if not any_active(st):
            break
        for i in range(start, n):
            seat = st.order[i]
            if st.pl[seat, PF.PASSED] == 0:
                play_turn(st, r, seat)
        start = 0


@njit(cache=True)
def action_phase(st, r):
    """B. ACTION PHASE: rounds in turn order until every player has passed."""
    for s in range(st.g[G.NPLAYERS]):
        st.pl[s, PF.PASSED] = 0
    action_rounds(st, r, 0)
