"""B | EFFECTS OF WORKERS: a player's effects, in the order he chooses (one option at a time), and what
happens on its own: production of the Mine, Forest and Field work, the offices' powers, the failed or
paid grid spaces at the end of his turn (RP-10), the Public Office purchase (RP-16).

An option row (``Scratch.opts``): KIND an :class:`EF`, then
- BUILD: A space, B the Building (MINOR BUILDING CHARACTERISTICS; RP-02, RP-05, RP-06);
- ACTIVATE: A space, B the Exchange (MINOR BUILDING ACTIVATION; RP-03);
- GRID_PAY: A Major, B space (pay a space placed unpaid, before the end of the player's Effect turn);
- ARTISAN: A the Good traded for a precious resource; LOAD: A the Good loaded on the Ship;
- OFFICE: buy the Public Office the player's worker stands on; DONE: end the Effect turn.
"""

from __future__ import annotations

from numba import njit

from rio.engine import seam
from rio.engine.board import allowed_activations, enforce_limits, has_house_near
from rio.engine.build_rules import can_build, take_tile, tile_source
from rio.engine.city import road_connected
from rio.engine.core import add_vp, pay
from rio.engine.majors import check_grid, complete_ready_grids, lay_road, lay_wall
from rio.engine.options import EF
from rio.engine.options import add_option as _add
from rio.engine.placement import can_pay_grid, pay_grid
from rio.engine.state import NO, OPT, PK, VPS, G
from rio.keys import BK, CK, OK, Good, K, Major, Needs, Office


@njit(cache=True)
def build(r, geo, st, sc, seat, s, b):
    src, arg = tile_source(r, st, seat, s, b)
    pay(r, st, seat, r.building[b, BK.WOOD], r.building[b, BK.STONE], r.building[b, BK.PRECIOUS], 0)
    w = r.building[b, BK.WORKERS]
    st.sp_workers[s, seat] -= w
    st.pl[seat, PK.SUPPLY] += w
    take_tile(st, seat, s, src, arg)
    st.sp_building[s] = b
    st.sp_owner[s] = seat if r.building[b, BK.OWNED] else NO
    st.sp_built[s] = st.g[G.TURN] + 1
    st.sp_used[s] = 0
    add_vp(st, seat, VPS.MINOR_BUILDING, r.building[b, BK.VP])
    enforce_limits(r, geo, st, sc, s)


@njit(cache=True)
def exchange_ok(r, geo, st, sc, seat, s, x):
    b = st.sp_building[s]
    if b != r.exchange_building[x] or st.sp_workers[s, seat] == 0 or st.sp_used[s] >= allowed_activations(r, geo, sc, s):
        return False
    need = r.exchange_needs[x]
    standing = st.major_at[Major.CATHEDRAL] != NO  # the Cathedral stands in the City
    if (need == Needs.CATHEDRAL and not standing) or (need == Needs.NO_CATHEDRAL and standing):
        return False
    if r.k[K.PLACEMENT_HOUSE_ADJACENT_TO_ACTIVATE] and not has_house_near(geo, st, seat, s, True):
        return False
    p = r.exchange_pay[x]
    return (st.pl[seat, PK.WOOD] >= p[Good.WOOD] and st.pl[seat, PK.STONE] >= p[Good.STONE]
            and st.pl[seat, PK.PRECIOUS] >= p[Good.PRECIOUS] and st.pl[seat, PK.SILVER] >= p[Good.SILVER])


@njit(cache=True)
def activate(st, r, seat, s, x):
    """One worker, one exchange (RP-03): pay in kind, gain, the worker returns."""
    p, g = r.exchange_pay[x], r.exchange_gain[x]
    st.pl[seat, PK.WOOD] += g[Good.WOOD] - p[Good.WOOD]
    st.pl[seat, PK.STONE] += g[Good.STONE] - p[Good.STONE]
    st.pl[seat, PK.PRECIOUS] += g[Good.PRECIOUS] - p[Good.PRECIOUS]
    st.pl[seat, PK.SILVER] += g[Good.SILVER] - p[Good.SILVER]
    add_vp(st, seat, VPS.CHURCH, g[Good.VP] - p[Good.VP])
    st.sp_workers[s, seat] -= 1
    st.pl[seat, PK.SUPPLY] += 1
    st.sp_used[s] += 1


@njit(cache=True)
def office_ready(r, st, o):
    """An office's power works from the turn after its purchase (PUBLIC OFFICE TABLE)."""
    return st.office_owner[o] != NO and st.office_turn[o] + r.k[K.OFFICE_POWERS_DELAY_TURNS] <= st.g[G.TURN]


@njit(cache=True)
def effect_options(r, geo, st, sc, seat):
    n = 0
    for s in range(geo.district.shape[0]):
        if st.sp_workers[s, seat] == 0:
            continue
        for b in range(r.building.shape[0]):
            if can_build(r, geo, st, seat, s, b):
                n = _add(sc, n, EF.BUILD, s, b, 0, 0)
        if st.sp_building[s] != NO and st.sp_building[s] < r.building.shape[0]:
            for x in range(r.exchange_building.shape[0]):
                if exchange_ok(r, geo, st, sc, seat, s, x):
                    n = _add(sc, n, EF.ACTIVATE, s, x, 0, 0)
    for m in range(st.grid.shape[0]):
        for i in range(st.grid.shape[1]):
            if st.grid[m, i] != NO and st.grid_placer[m, i] == seat and st.grid_paid[m, i] == 0 and can_pay_grid(r, st, seat, m):
                n = _add(sc, n, EF.GRID_PAY, m, i, 0, 0)
    if st.pl[seat, PK.ARTISAN] > 0:
        for g in (Good.WOOD, Good.STONE):
            if st.pl[seat, PK.WOOD + g] > 0:
                n = _add(sc, n, EF.ARTISAN, g, 0, 0, 0)
    if st.pl[seat, PK.DOCK] > 0 and st.g[G.SHIP_AWAY] == 0:
        room = st.pl[seat, PK.DOCK] * r.k[K.SHIP_RESOURCES_PER_DOCK_WORKER] - st.pl[seat, PK.LOADED]
        if room > 0 and st.g[G.SHIP_LOAD] < r.by_count[st.g[G.COUNT], CK.SHIP_CAPACITY]:
            for g in (Good.WOOD, Good.STONE, Good.PRECIOUS):
                if st.pl[seat, PK.WOOD + g] > 0:
                    n = _add(sc, n, EF.LOAD, g, 0, 0, 0)
    o = st.pl[seat, PK.OFFICE] - 1
    if o >= 0 and st.office_worker[o] == seat:
        n = _add(sc, n, EF.OFFICE, o, 0, 0, 0)
    n = _add(sc, n, EF.DONE, 0, 0, 0, 0)
    return n


@njit(cache=True)
def buy_office(r, st, seat, o):
    """RP-16: pay the cost and show the VP (not spent); either missing: no office, nothing paid, the fine."""
    st.office_worker[o] = NO
    st.pl[seat, PK.SUPPLY] += 1
    cost = r.office[o, OK.COST]
    if st.pl[seat, PK.SILVER] >= cost and st.pl[seat, PK.VP] >= r.office[o, OK.VP_REQUIRED] and st.office_owner[o] == NO:
        st.pl[seat, PK.SILVER] -= cost
        st.office_owner[o] = seat
        st.office_turn[o] = st.g[G.TURN]
    else:
        add_vp(st, seat, VPS.OFFICE_FINE, r.k[K.OFFICE_FINE_VP])


@njit(cache=True)
def apply_effect(r, geo, st, sc, pol, seat, j):
    """Apply option ``j``; False for DONE."""
    kind, a, b = sc.opts[j, OPT.KIND], sc.opts[j, OPT.A], sc.opts[j, OPT.B]
    if kind == EF.DONE:
        return False
    if kind == EF.BUILD:
        build(r, geo, st, sc, seat, a, b)
    elif kind == EF.ACTIVATE:
        activate(st, r, seat, a, b)
    elif kind == EF.GRID_PAY:
        pay_grid(r, st, seat, a)
        st.g[G.PAY_SEQ] += 1
        st.grid_paid[a, b] = st.g[G.PAY_SEQ]
        check_grid(r, geo, st, sc, pol, a)
    elif kind == EF.ARTISAN:
        st.pl[seat, PK.WOOD + a] -= 1
        st.pl[seat, PK.PRECIOUS] += 1
        st.pl[seat, PK.ARTISAN] -= 1
        st.pl[seat, PK.SUPPLY] += 1
    elif kind == EF.LOAD:
        st.pl[seat, PK.WOOD + a] -= 1
        st.ship[seat, a] += 1
        st.pl[seat, PK.LOADED] += 1
        st.g[G.SHIP_LOAD] += 1
    elif kind == EF.OFFICE:
        buy_office(r, st, seat, a)
    return True


@njit(cache=True)
def start_of_turn_effects(r, geo, st, sc, pol, seat):
    """What the player's Effect turn does first, on its own: the offices' powers (free resources, the
    Roadmaker's road, the Defender's wall; PUBLIC OFFICE TABLE) and the Mine, Forest and Field work (RP-12, RP-13)."""
    if office_ready(r, st, Office.MASTER_STONECUTTER) and st.office_owner[Office.MASTER_STONECUTTER] == seat:
        st.pl[seat, PK.STONE] += r.k[K.OFFICE_MASTER_STONECUTTER_FREE_STONE]
    if office_ready(r, st, Office.MASTER_CARPENTER) and st.office_owner[Office.MASTER_CARPENTER] == seat:
        st.pl[seat, PK.WOOD] += r.k[K.OFFICE_MASTER_CARPENTER_FREE_WOOD]
    if office_ready(r, st, Office.MASTER_ARTISAN) and st.office_owner[Office.MASTER_ARTISAN] == seat:
        st.pl[seat, PK.PRECIOUS] += r.k[K.OFFICE_MASTER_ARTISAN_FREE_PRECIOUS]
    if office_ready(r, st, Office.MASTER_MERCHANT) and st.office_owner[Office.MASTER_MERCHANT] == seat:
        g = seam.choose_merchant_cube(r, st, pol, seat)
        st.pl[seat, PK.WOOD + g] += r.k[K.OFFICE_MASTER_MERCHANT_FREE_ANY]
    if office_ready(r, st, Office.ROADMAKER) and st.office_owner[Office.ROADMAKER] == seat:
        for _ in range(r.k[K.OFFICE_ROADMAKER_FREE_ROADS]):
            if not lay_road(r, geo, st, sc, pol, seat):
                break
        road_connected(geo, st, sc)
    if office_ready(r, st, Office.DEFENDER) and st.office_owner[Office.DEFENDER] == seat:
        for _ in range(r.k[K.OFFICE_DEFENDER_FREE_WALLS]):
            if not lay_wall(r, geo, st, sc, pol, seat):
                break
    for t in range(st.mine.shape[0]):
        for i in range(st.mine.shape[1]):
            if st.mine[t, i] == seat:
                st.pl[seat, PK.WOOD + r.mine_track[t]] += r.k[K.MINE_FOREST_RESOURCES_PER_SPACE]
                st.pl[seat, PK.SUPPLY] += r.mine_space_workers[i]
                st.mine[t, i] = NO
    if st.pl[seat, PK.FIELD] > 0:
        st.pl[seat, PK.SILVER] += st.pl[seat, PK.FIELD] // r.k[K.FIELD_WORKERS_PER_SILVER]
        st.pl[seat, PK.SUPPLY] += st.pl[seat, PK.FIELD]
        st.pl[seat, PK.FIELD] = 0


@njit(cache=True)
def end_of_turn_effects(r, st, seat):
    """The end of the player's Effect turn: an office worker still standing tries the purchase; a grid worker
    left unpaid is ineffective (-3 VP, back to its supply, the space freed; RP-10); the dock and artisan
    workers go home (their work is done or lost)."""
    o = st.pl[seat, PK.OFFICE] - 1
    if o >= 0 and st.office_worker[o] == seat:
        buy_office(r, st, seat, o)
    for m in range(st.grid.shape[0]):
        for i in range(st.grid.shape[1]):
            if st.grid[m, i] != NO and st.grid_placer[m, i] == seat and st.grid_paid[m, i] == 0:
                st.pl[st.grid[m, i], PK.SUPPLY] += 1
                st.grid[m, i] = NO
                st.grid_placer[m, i] = NO
                add_vp(st, seat, VPS.INEFFECTIVE, r.k[K.MAJOR_INEFFECTIVE_WORKER_VP])
    st.pl[seat, PK.SUPPLY] += st.pl[seat, PK.DOCK] + st.pl[seat, PK.ARTISAN]
    st.pl[seat, PK.DOCK] = 0
    st.pl[seat, PK.ARTISAN] = 0


@njit(cache=True)
def ship_returns(r, st):
    """SHIP, return: per player as many triplets as possible, then single cubes (RP-13); the Shipowner's
    VP; the cubes go back to the bank."""
    if st.g[G.SHIP_AWAY] == 0 or st.g[G.SHIP_RETURN] != st.g[G.TURN]:
        return
    for c in range(st.g[G.PLAYERS]):
        w, s, p = st.ship[c, Good.WOOD], st.ship[c, Good.STONE], st.ship[c, Good.PRECIOUS]
        t = min(w, s, p) if r.k[K.SHIP_TRIPLETS_FIRST] else 0
        silver = t * r.k[K.SHIP_TRIPLET_SILVER] + (w - t) * r.k[K.SHIP_WOOD_SILVER] + (s - t) * r.k[K.SHIP_STONE_SILVER]
        silver += (p - t) * r.k[K.SHIP_PRECIOUS_SILVER]
        st.pl[c, PK.SILVER] += silver
        add_vp(st, c, VPS.SHIP, t * r.k[K.SHIP_TRIPLET_VP] + (p - t) * r.k[K.SHIP_PRECIOUS_VP])
        st.ship[c, Good.WOOD] = 0
        st.ship[c, Good.STONE] = 0
        st.ship[c, Good.PRECIOUS] = 0
    owner = st.office_owner[Office.SHIPOWNER]
    if owner != NO and office_ready(r, st, Office.SHIPOWNER):
        add_vp(st, owner, VPS.SHIPOWNER, r.k[K.OFFICE_SHIPOWNER_SHIPMENT_VP])
    st.g[G.SHIP_AWAY] = 0
    st.g[G.SHIP_LOAD] = 0
    st.g[G.VOYAGES] += 1


@njit(cache=True)
def ship_departs(r, st):
    """SHIP: it leaves at the end of the Effect phase in which its departure was paid or it was filled, not
    empty; back ship.voyage_turns turns later."""
    if st.g[G.SHIP_AWAY] or st.g[G.SHIP_LOAD] == 0:
        return
    full = st.g[G.SHIP_LOAD] >= r.by_count[st.g[G.COUNT], CK.SHIP_CAPACITY] and r.k[K.SHIP_FULL_DEPARTS_FREE]
    if st.g[G.SHIP_PAID] or full:
        st.g[G.SHIP_AWAY] = 1
        st.g[G.SHIP_RETURN] = st.g[G.TURN] + r.k[K.SHIP_VOYAGE_TURNS]


@njit(cache=True)
def effect_phase(r, geo, st, sc, pol):
    """B | EFFECTS OF WORKERS: the Ship's return and the grids filled in the Placement phase first (FAQ: all
    of the game happens in this phase), then each player in order, then the Ship's departure."""
    ship_returns(r, st)
    complete_ready_grids(r, geo, st, sc, pol)
    for pos in range(st.g[G.PLAYERS]):
        seat = st.order[pos]
        start_of_turn_effects(r, geo, st, sc, pol, seat)
        seam.effects_begin(r, geo, st, sc, pol, seat)
        while True:
            n = effect_options(r, geo, st, sc, seat)
            j = seam.choose_effect(r, geo, st, sc, pol, seat, n)
            if not apply_effect(r, geo, st, sc, pol, seat, j):
                break
        end_of_turn_effects(r, st, seat)
    ship_departs(r, st)
