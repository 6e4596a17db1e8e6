"""5. LOAD THE SHIP and C.2 SHIP SAILS FOR SPAIN: what a seat may load on its Dock space (its SHIP
rows), loading it, and the loads paid when the ship sails at the end of the decade, with the cards
that change them (38, 43, 44, 46, 47 and the Spain support cube)."""

from numba import njit

from sim.actions.turn_rows import add_row
from sim.banners import banner_step
from sim.cardpower import card_active, offer
from sim.codes import Act, Card, Ev
from sim.core import council_worker_stands_in, log, place_workers, return_pool, workers_available
from sim.economy import coin_value, take_coins, take_from_supply
from sim.rules import AP, RK
from sim.state import PF, Banner, G, Res, Sup


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


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def ship_rows(st, r, seat, k, avail):
    """The SHIP rows from row ``k``: one load of at most 3 elements per player per decade, real items
    only; card 46: one more worker, up to 6 elements (two loads: row (ld, ld2 + 1)) this decade.
    No card discount applies (LOAD THE SHIP NOTE) but card 43's: the workers cards 45/51 lend do
    not count."""
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
                k = add_row(st, k, Act.SHIP, ld, 0, 0, 0)
                if two:
                    p = r.ship_put[ld]
                    rest = room - (p[0] + p[1] + p[2] + p[3] + p[4])
                    for ld2 in range(ld, nl):
                        if _load_fits(st, r, seat, ld2, rest, ld):
                            k = add_row(st, k, Act.SHIP, ld, ld2 + 1, 0, 0)  # b: second load + 1
    return k


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def load_ship(st, r, seat, ld, ld2):
    """5. LOAD THE SHIP: load row ``ld`` (and ``ld2 - 1`` when ``ld2`` > 0, card 46) on the seat's
    Dock space."""
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
    _load_dock(st, r, seat, ld)
    if ld2 > 0:
        _load_dock(st, r, seat, ld2 - 1)


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
def ship_sails(st, r):
    """C.2 SHIP SAILS FOR SPAIN: loads are paid (coins from the board's stacks, metal and faith from
    the supply; the Spain support cube adds its extra); what was on the Dock goes to the game
    supply."""
    d = st.g[G.DECADE]
    n = st.g[G.NPLAYERS]
    # card 44 (lightning): 1 silver if the Dock holds at least 3+X elements, whoever loaded them
    on_dock = 0
    for s in range(n):
        on_dock += st.dock[s]
    p44 = r.aff_p[Card.C44]
    if on_dock > 0 and on_dock >= p44[AP.DOCK_MIN_BASE] + p44[AP.DOCK_MIN_PER_PLAYER] * n:
        s44 = offer(st, r, Card.C44, -1)
        if s44 >= 0:
            take_coins(st, r, s44, p44[AP.SILVER], 0)
    for i in range(n):
        s = st.order[i]
        # the decade's load, and a second one with card 46 ("At the decade end you will gain both rewards")
        for slot in (PF.SHIP_LOAD, PF.SHIP_LOAD2):
            _pay_load(st, r, s, slot, d)
        st.dock[s] = 0


@njit(cache=True)
def _pay_load(st, r, s, slot, d):
    """Pay one load on seat s's Dock space (``slot``: PF.SHIP_LOAD or PF.SHIP_LOAD2) and clear it."""
    ld = st.pl[s, slot]
    if ld >= 0:
        p = r.ship_put[ld]
        st.supply[Sup.WOOD] += p[0]
        st.supply[Sup.STONE] += p[1]
        st.supply[Sup.PRECIOUS] += p[2]
        st.supply[Sup.SILVER] += p[3]
        st.supply[Sup.BRONZE] += p[4]
        silver = r.ship_pay[ld, 0]
        bronze = r.ship_pay[ld, 1]
        metal = r.ship_pay[ld, 2]
        faith = r.ship_pay[ld, 3]
        if st.spain[d] > 0:
            silver += r.ship_spain[ld, 0]
            bronze += r.ship_spain[ld, 1]
            metal += r.ship_spain[ld, 2]
            faith += r.ship_spain[ld, 3]
        b0 = coin_value(st, r, s)
        take_coins(st, r, s, silver, bronze)
        got_m = take_from_supply(st, s, Res.METAL, metal)
        got_f = min(faith, st.supply[Sup.FAITH])
        st.supply[Sup.FAITH] -= got_f
        st.pl[s, PF.FAITH] += got_f
        log(st, Ev.SHIP_PAY, s, ld, coin_value(st, r, s) - b0, 0, got_m, got_f)
        if r.ship_put[ld, 2] > 0 and got_m > 0:
            # black banner: loading a triplet and gaining metal
            banner_step(st, r, s, Banner.BLACK)
        # cards 17 and 23 (lightning): 1 extra bronze when selling 3 wood / 3 stone
        for c in (Card.C17, Card.C23):
            if ld == r.aff_load[c] and offer(st, r, c, s) >= 0:
                take_coins(st, r, s, 0, r.aff_p[c, AP.BRONZE])
        st.pl[s, slot] = -1
