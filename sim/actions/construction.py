"""1-2. MINOR BUILDING CONSTRUCTION, GROUP A-B: which buildings a seat can build where (its
BUILD rows, listed by space or grouped by type and district) and building one.

Construction requirements (the space, adjacency, the Starting Area) are the map's
(:mod:`sim.city`); costs follow cards 16, 22 and 45 used this turn.
"""

from numba import njit

from sim.actions.turn_rows import N_MINOR, add_row, spend_discount, worker_discount
from sim.cardpower import card_active, spend
from sim.city import minor_space_ok
from sim.codes import Act, Card, Ev
from sim.core import council_worker_stands_in, log, place_workers
from sim.council_vote import building_put_up
from sim.economy import card45_cut, holds, pay_plan, pay_resources
from sim.major_buildings import n_full_districts
from sim.rules import AP, RK
from sim.state import PF, TL, B, G, Sup


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
def build_wood_stone(st, r, seat, t):
    """Wood and stone a construction costs, after cards 16 and 22 used this turn: "One of your single
    costs in wood (stone) is reduced to 0 ... if used in combination with card 22 (16), both cards'
    effect is to reduce the cost of both resources to 1" (a cost already below stays). Each card
    carries its own resource's figures (``cost_to`` alone, ``combo_wood_to`` / ``combo_stone_to``
    together); the combination holds while each names the other (``combo_card``)."""
    w = r.b_cost[t, 1]
    s = r.b_cost[t, 2]
    a16 = card_active(st, seat, Card.C16)
    a22 = card_active(st, seat, Card.C22)
    combo = r.aff_p[Card.C16, AP.COMBO_CARD] == Card.C22 + 1 and r.aff_p[Card.C22, AP.COMBO_CARD] == Card.C16 + 1
    if a16 and a22 and combo:
        w = min(w, r.aff_p[Card.C16, AP.COMBO_WOOD_TO])
        s = min(s, r.aff_p[Card.C22, AP.COMBO_STONE_TO])
    else:
        if a16:
            w = min(w, r.aff_p[Card.C16, AP.COST_TO])
        if a22:
            s = min(s, r.aff_p[Card.C22, AP.COST_TO])
    return w, s


@njit(cache=True)
def marker_choices(t, markers):
    """BUILD rows per space for type t: a Monument or Fountain may take one of the seat's Status
    markers (``markers``: it has one left), so it is listed without (mk 0) and with (mk 1)."""
    return 2 if (t == B.MONUMENT or t == B.FOUNTAIN) and markers else 1


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def construction_listing(st, r, seat, k, avail, disc, grouped):
    """The BUILD rows from row ``k``: the building types the seat can pay for and has in supply
    (``st.cell_tmp[:st.turn_n[TL.TYPES]]``; bit j of ``st.turn_tmp[0][b]`` marks type j when it is built on
    a space holding b, its requirement), then one pass over the map (:func:`construction_rows`);
    ``grouped`` lists them as groups instead, one per (type, district, Status marker) with its
    number of spaces (``st.grp[:st.turn_n[TL.GROUPS]]``, see sim.actions.turn.decide_turn)."""
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
    st.turn_n[TL.TYPES] = nt
    if not grouped:
        return construction_rows(st, r, seat, k, False, 0)
    # the same rows by (type, district, Status marker): the seat's buildable spaces are counted by
    # district and by the building on them (city.own_spaces)
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
            for mk in range(marker_choices(t, markers)):
                grp[ng, 0] = t
                grp[ng, 1] = dd
                grp[ng, 2] = mk | (dt << 1)
                grp[ng, 3] = cnt[req, dd]
                grp[ng, 4] = first[req, dd]
                ng += 1
    st.turn_n[TL.GROUPS] = ng
    return k


@njit(cache=True)
def construction_rows(st, r, seat, k, find, pick):
    """The BUILD rows (1-2. Minor buildings: construction) in listing order: by space in map order,
    then by payable type (``st.cell_tmp[:st.turn_n[TL.TYPES]]``, requirement bits in ``st.turn_tmp[0]``, both
    made by :func:`_turn_options`), then without and with a Status marker. ``find`` False: add them
    all from row ``k`` and return the new count. ``find`` True: only count the rows of the groups
    ``st.grp_tied`` marks, write the ``pick``-th of them as row ``k`` and return ``k + 1``."""
    types = st.cell_tmp
    by_req = st.turn_tmp[0]
    nt = st.turn_n[TL.TYPES]
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
            for mk in range(marker_choices(t, markers)):
                if not find:
                    k = add_row(st, k, Act.BUILD, t, c, mk | (dt << 1), 0)  # c column: marker bit, discount above
                elif tied[mk, t, dd] == 1:
                    if pick == 0:
                        return add_row(st, k, Act.BUILD, t, c, mk | (dt << 1), 0)
                    pick -= 1
    return -1 if find else k


@njit(cache=True)
def build(st, r, seat, t, c, mark, disc=0):
    """Construct a Minor building (1-2. MINOR BUILDING CONSTRUCTION, GROUP A-B): workers on the
    action space, cost to the game supply, the replaced building back to its supply, City Council
    points and VP on construction. ``disc``: workers a discount card replaces by City Council
    workers (:func:`worker_discount`)."""
    w = r.b_cost[t, 0]
    place_workers(st, seat, w - disc)
    for _ in range(disc):
        council_worker_stands_in(st, seat)
    if disc > 0:
        spend_discount(st, r, seat, t)
    bw, bs = build_wood_stone(st, r, seat, t)
    if bw < r.b_cost[t, 1] or bs < r.b_cost[t, 2]:  # cards 16/22 worked for this action: one of their ``actions`` spent
        spend(st, Card.C16)
        spend(st, Card.C22)
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
    building_put_up(st, r, seat, t, full_before)
