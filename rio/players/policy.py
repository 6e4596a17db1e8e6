"""The heuristic family and the random player: a value for every legal option of a placement or an effect
(in VP-equivalents, weighted by :class:`rio.players.weights.W`), the best taken (with a little noise);
the random player takes any legal option, each equally likely. The search player (rio.players.search)
uses these values to pick its candidates and to play its rollouts.

Values look one turn ahead: a placement in the city is worth the best building its workers could raise
there this turn with what the player holds, or the exchanges they could make; a grid space its printed VP
and the completion it brings nearer; an office its end VP and powers over the turns left, when the player
can meet its price and VP."""

from __future__ import annotations

from numba import njit

from gamekit.rng import next_u64, rand_below
from rio.engine.board import allowed_activations, has_house_near
from rio.engine.build_rules import can_build_counted
from rio.engine.city import district_values
from rio.engine.core import virtual_price
from rio.engine.options import EF, PL
from rio.engine.placement import can_pay_grid
from rio.engine.state import NO, OPT, PK, SPACE_CATHEDRAL, G
from rio.keys import BK, CK, MK, OK, PLAZA, Building, Good, K, Major, Office, Placement
from rio.players.kinds import Kind
from rio.players.weights import W


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def _noise(st, w):
    return w[W.NOISE] * ((next_u64(st) >> 11) * (1.0 / 9007199254740992.0))


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def turns_left(st):
    return st.g[G.TURNS] - st.g[G.TURN]


CTX_HUTS = 0  # sc.ctx: the seat's Huts
CTX_PLANNED = 1  # sc.ctx: the space whose plan sc.plan holds, -1 none
CTX_GRID = 2  # sc.ctx: the Major whose grid's counts CTX_GRID_LEFT, CTX_GRID_PAYABLE, CTXF_GRID_COST hold, -1 none
CTX_GRID_LEFT = 3  # sc.ctx: that grid's spaces in play left empty after one more worker
CTX_GRID_PAYABLE = 4  # sc.ctx: 1 when the seat can pay a space of that grid (or it is free)
CTX_BOARD = 5  # sc.ctx: 1 while the board's part of the context (board_context) is current in a seat's Effect turn
CTX_RING_HOUSES = 6  # sc.ctx: the seat's Houses in the ring district where he has the most (where his Palace or Cathedral would go)
CTXF_SILVER = 0  # sc.fctx: a silver coin's worth to the deciding seat (silver_value)
CTXF_GRID_COST = 1  # sc.fctx: what a space of grid CTX_GRID costs him (cost_value)
CTXF_GRID_STAKE = 2  # sc.fctx: the printed VP of his workers already on grid CTX_GRID (paid only if it completes)
CTXF_GRID_DONE = 3  # sc.fctx: what completing grid CTX_GRID brings its completer beyond the spaces' VP


@njit(cache=True)
def decision_context(r, geo, st, sc, w, seat):
    """What the values read many times during one decision, counted once: each district's value now, the
    seat's Houses by district, his Huts, a coin's worth to him; no space planned, no grid counted yet."""
    _goods_context(r, st, sc, w, seat)
    board_context(r, geo, st, sc, seat)


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def _goods_context(r, st, sc, w, seat):
    """The part of :func:`decision_context` that a placement changes: a coin's worth; no space planned, no
    grid counted yet."""
    sc.ctx[CTX_PLANNED] = NO
    sc.ctx[CTX_GRID] = NO
    sc.fctx[CTXF_SILVER] = silver_value(r, st, w, seat)


@njit(cache=True)
def board_context(r, geo, st, sc, seat):
    """The part of :func:`decision_context` read from the buildings: each district's value now, its minor
    buildings by kind, the seat's Houses by district, his Huts, his Houses in his best ring district."""
    district_values(r, geo, st, sc, sc.dval, False)  # the value if the game ended now, roads left out
    for d in range(sc.dval.shape[0]):
        sc.dhouse[d] = 0
        for b in range(sc.dbuild.shape[1]):
            sc.dbuild[d, b] = 0
    huts = 0
    spb, own, dist = st.sp_building, st.sp_owner, geo.district
    for t in range(spb.shape[0]):
        if spb[t] != NO and spb[t] < sc.dbuild.shape[1] and dist[t] != PLAZA:
            sc.dbuild[dist[t], spb[t]] += 1
        if own[t] == seat:
            if spb[t] == Building.HUT:
                huts += 1
            elif spb[t] == Building.HOUSE:
                sc.dhouse[dist[t]] += 1
    sc.ctx[CTX_HUTS] = huts
    most = 0
    for t in range(spb.shape[0]):
        if geo.ring[t] and dist[t] != PLAZA:
            most = max(most, sc.dhouse[dist[t]])
    sc.ctx[CTX_RING_HOUSES] = most


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def silver_value(r, st, w, seat):
    """A silver coin's worth: W.SILVER, or, while an office within the player's VP reach is still beyond his
    purse, what the best such office returns per coin if that is more (the offices are bought with money and
    shown VP, PUBLIC OFFICE TABLE)."""
    best = w[W.SILVER]
    for o in range(r.office.shape[0]):
        if (st.office_owner[o] == NO and r.office[o, OK.VP_REQUIRED] <= st.pl[seat, PK.VP] + w[W.HORIZON]
                and st.pl[seat, PK.SILVER] < r.office[o, OK.COST]):
            best = max(best, office_worth(r, st, w, o) / r.office[o, OK.COST])
    return best


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def cost_value(r, st, sc, w, seat, wood, stone, precious):
    """What paying the cost is worth to ``seat`` (:func:`decision_context` read: a coin's worth)."""
    miss = max(0, wood - st.pl[seat, PK.WOOD]) + max(0, stone - st.pl[seat, PK.STONE])
    return ((wood - miss if wood > st.pl[seat, PK.WOOD] else wood) * w[W.WOOD] + stone * w[W.STONE] + precious * w[W.PRECIOUS]
            + virtual_price(r, st, seat, miss) * sc.fctx[CTXF_SILVER])


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def building_value(r, geo, st, sc, w, seat, s, b):
    """What building ``b`` on ``s`` is worth to ``seat``, its cost not counted (:func:`decision_context` read)."""
    d = geo.district[s]
    left = turns_left(st)
    house = max(r.k[K.SCORING_HOUSE_MIN_VP], r.k[K.SCORING_HOUSE_VP] + sc.dval[d])
    mine = sc.dhouse[d]
    v = float(r.building[b, BK.VP])
    if b == Building.HUT:  # worth less for each Hut still waiting for its House
        return (v + w[W.HUT] + house * w[W.HOUSE] / (1.0 + w[W.HOUSE])) / (1.0 + sc.ctx[CTX_HUTS])
    if b == Building.HOUSE:
        return v + house + w[W.HOUSE]
    v += mine * r.building[b, BK.DISTRICT_VALUE]
    if r.building[b, BK.PRODUCTION]:
        v -= mine  # another production building may cost each House a VP
        # worth its activations over the horizon only where an own House stands by (MINOR BUILDING ACTIVATION);
        # elsewhere it serves the others first
        turns = min(left, w[W.HORIZON]) if has_house_near(geo, st, seat, s, True) else w[W.HORIZON] * w[W.PUBLIC]
        if b == Building.MARKET or b == Building.CORPORATION:
            return v + w[W.MARKET] * turns * (1 + (b == Building.CORPORATION))
        return v + w[W.PRODUCER] * turns
    if r.building[b, BK.NOBLE]:
        v += w[W.NOBLE]
    if b == Building.BARRACKS:
        v += w[W.DEFENSE]
    return v


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def exchange_value(r, w, x):
    p, g = r.exchange_pay[x], r.exchange_gain[x]
    v = (g[Good.WOOD] - p[Good.WOOD]) * w[W.WOOD] + (g[Good.STONE] - p[Good.STONE]) * w[W.STONE]
    v += (g[Good.PRECIOUS] - p[Good.PRECIOUS]) * w[W.PRECIOUS] + (g[Good.SILVER] - p[Good.SILVER]) * w[W.SILVER]
    return v + g[Good.VP] - p[Good.VP]


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def best_exchange(r, geo, st, sc, w, seat, s):
    """The best exchange one worker could make on the building of ``s`` (0 if none pays)."""
    b = st.sp_building[s]
    if b == NO or b >= r.building.shape[0]:
        return 0.0
    best = 0.0
    for x in range(r.exchange_building.shape[0]):
        if r.exchange_building[x] != b:
            continue
        p = r.exchange_pay[x]
        if (st.pl[seat, PK.WOOD] >= p[Good.WOOD] and st.pl[seat, PK.STONE] >= p[Good.STONE]
                and st.pl[seat, PK.PRECIOUS] >= p[Good.PRECIOUS] and st.pl[seat, PK.SILVER] >= p[Good.SILVER]):
            best = max(best, exchange_value(r, w, x))
    return best


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def space_plan(r, geo, st, sc, w, seat, s, had):
    """``sc.plan[k - 1]``: what ``k`` = 1..3 more workers of ``seat`` on ``s`` (holding ``had`` of his now)
    are worth: the best building they could raise there this turn with what he holds, or their exchanges,
    less what the workers cost."""
    most = r.k[K.PLACEMENT_MAX_WORKERS_PER_SPACE]
    for k in range(sc.plan.shape[0]):
        sc.plan[k] = -1e9
    keep = st.sp_workers[s, seat]
    st.sp_workers[s, seat] = most  # planning only: restored below; can_build_counted then checks all but the workers
    d = geo.district[s]
    for b in range(r.building.shape[0]):
        if can_build_counted(r, geo, st, seat, s, b, sc.dbuild[d, b] if d != PLAZA else 0):
            v = building_value(r, geo, st, sc, w, seat, s, b)
            v -= cost_value(r, st, sc, w, seat, r.building[b, BK.WOOD], r.building[b, BK.STONE], r.building[b, BK.PRECIOUS])
            need = r.building[b, BK.WORKERS]
            for k in range(1, most + 1):
                if had + k >= need:
                    sc.plan[k - 1] = max(sc.plan[k - 1], v - w[W.WORKER] * (had + k - need))
    st.sp_workers[s, seat] = keep
    if st.sp_building[s] != NO and st.sp_building[s] < r.building.shape[0] and has_house_near(geo, st, seat, s, True):
        x = best_exchange(r, geo, st, sc, w, seat, s)
        room = allowed_activations(r, geo, sc, s) - st.sp_used[s]
        for k in range(1, most + 1):
            uses = min(had + k, room)
            if uses > 0:
                sc.plan[k - 1] = max(sc.plan[k - 1], uses * x - w[W.WORKER] * (had + k - uses))
    for k in range(1, most + 1):
        sc.plan[k - 1] -= w[W.WORKER] * k


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def office_value(r, geo, st, sc, w, seat, o):
    """An office's worth (:func:`office_worth`) less its price at a coin's worth to ``seat``."""
    return office_worth(r, st, w, o) - r.office[o, OK.COST] * sc.fctx[CTXF_SILVER]


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def office_worth(r, st, w, o):
    """What an office brings its owner: its end VP (the Short game's +3) and its powers over the turns left,
    times W.OFFICE."""
    left = turns_left(st)
    v = float(r.office[o, OK.END_VP]) + (r.k[K.SHORT_GAME_OFFICE_END_VP] if st.g[G.SHORT] else 0)
    if o == Office.MASTER_STONECUTTER:
        v += left * w[W.STONE]
    elif o == Office.MASTER_CARPENTER:
        v += left * w[W.WOOD]
    elif o == Office.MASTER_ARTISAN or o == Office.MASTER_MERCHANT:
        v += left * w[W.PRECIOUS]
    elif o == Office.ROADMAKER:
        v += left * w[W.HOUSE] * 0.5
    elif o == Office.DEFENDER:
        v += left * w[W.DEFENSE] * 0.5
    elif o == Office.GUNNER or o == Office.GENERAL:
        v += w[W.DEFENSE] * (st.g[G.PLAYERS] - st.g[G.WARS]) if st.g[G.WAR_OVER] == 0 else 0.0
    elif o == Office.SHIPOWNER:
        v += w[W.SHIP] * left * 0.5 if st.major_done[Major.HARBOR] > 0 else 0.0
    elif o == Office.BISHOP:
        n = 0
        for s in range(st.sp_building.shape[0]):
            n += st.sp_building[s] == Building.CHURCH or st.sp_building[s] == SPACE_CATHEDRAL
        v += n * r.k[K.OFFICE_BISHOP_CHURCH_VP]
    elif o == Office.ARCHITECT:
        n = 0
        for m in (Major.PALACE, Major.CATHEDRAL, Major.FORT, Major.HARBOR):
            n += st.major_done[m] > 0
        v += n * r.k[K.OFFICE_ARCHITECT_MAJOR_VP]
    elif o == Office.GOVERNOR:
        v += r.k[K.OFFICE_GOVERNOR_DISTRICT_VP]
    return v * w[W.OFFICE]


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def complete_chance(w, left, turns):
    """The chance that a grid with ``left`` spaces still empty completes within the game, ``turns`` turns
    left counting this one: the table fills about W.GRID_RATE of its spaces a turn, from the next turn on
    (a space left empty after the last placement of the game's last turn is never filled)."""
    if left <= 0:
        return 1.0
    return min(1.0, w[W.GRID_RATE] * (turns - 1) / left)


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def completion_worth(r, st, sc, w, seat, m):
    """What completing ``m`` brings its completer beyond the spaces' VP (HOW TO BUILD A MAJOR BUILDING): the
    Fort's and the Harbor's bonus, the use of the building (the Ship opens, defence, a road), the Palace's or
    the Cathedral's district value on his Houses where he puts its tile (MAJOR BUILDING CHARACTERISTICS: the
    ring district where he has the most Houses, :func:`board_context`'s count), and the Architect's VP if he holds that office."""
    v = float(r.major[m, MK.COMPLETION_VP])
    if m == Major.HARBOR:
        v += w[W.HARBOR]
    if m == Major.FORT or m == Major.WALLS:
        v += w[W.DEFENSE]
    if m == Major.ROADS:
        v += w[W.HOUSE]
    p = r.major[m, MK.PLACEMENT]
    if p == Placement.RING:  # the Palace, the Cathedral
        v += r.major[m, MK.DISTRICT_VALUE] * sc.ctx[CTX_RING_HOUSES]
    if st.office_owner[Office.ARCHITECT] == seat and (p == Placement.RING or p == Placement.FIXED):  # as scoring.city_majors counts
        v += r.k[K.OFFICE_ARCHITECT_MAJOR_VP]
    return v


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def grid_value(r, st, sc, w, seat, m, i, paid_now, colour):
    """A worker on space ``i`` of Major ``m``'s grid (``colour``'s disc, paid now or not). The spaces' VP are
    paid only when the grid completes, and its workers stay on it until then (2. ON THE BUILDING GRIDS
    OUTSIDE THE CITY): the worker is worth what it adds to the expected VP of the seat's stake on the grid
    (his workers' printed VP, this one's, and the completer's gains when it fills the grid) at
    :func:`complete_chance` before and after it, less the cost and a wait per space left. What the grid's
    spaces share is counted at its first option (they come together) and kept in ``sc``."""
    if sc.ctx[CTX_GRID] != m:
        filled, spaces = 0, 0
        stake = 0.0
        on = r.major_space_on_short if st.g[G.SHORT] else r.major_space_on
        for j in range(st.grid.shape[1]):
            if on[st.g[G.COUNT], m, j]:
                spaces += 1
                filled += st.grid[m, j] != NO
                if st.grid[m, j] == seat:
                    stake += r.major_space_vp[m, j]
        free = r.major[m, MK.WOOD] + r.major[m, MK.STONE] + r.major[m, MK.WOOD_OR_STONE] == 0
        sc.ctx[CTX_GRID] = m
        sc.ctx[CTX_GRID_LEFT] = spaces - filled - 1
        sc.ctx[CTX_GRID_PAYABLE] = 1 if free or can_pay_grid(r, st, seat, m) else 0
        sc.fctx[CTXF_GRID_COST] = cost_value(r, st, sc, w, seat, r.major[m, MK.WOOD] + r.major[m, MK.WOOD_OR_STONE], r.major[m, MK.STONE], 0)
        sc.fctx[CTXF_GRID_STAKE] = stake
        sc.fctx[CTXF_GRID_DONE] = completion_worth(r, st, sc, w, seat, m)
    if not sc.ctx[CTX_GRID_PAYABLE]:
        return -1e9  # unpaid at the end of the Effect turn it costs 3 VP (RP-10): never counted on
    left_after = sc.ctx[CTX_GRID_LEFT]
    left = turns_left(st)
    stake = sc.fctx[CTXF_GRID_STAKE] * w[W.GRID]
    own = 0.0 if colour != seat else r.major_space_vp[m, i] * w[W.GRID]  # a shadow disc scores nothing (RP-24)
    p0, p1 = complete_chance(w, left_after + 1, left), complete_chance(w, left_after, left)
    v = p1 * (stake + own) - p0 * stake
    if left_after == 0:
        v += sc.fctx[CTXF_GRID_DONE]
    elif m == Major.WALLS:
        v += w[W.DEFENSE] * 0.5
    v -= w[W.GRID_WAIT] * left_after * (colour == seat)
    v -= sc.fctx[CTXF_GRID_COST]
    return v - w[W.WORKER] + paid_now * w[W.NOISE]  # paid now: the resources are not promised twice


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def sails(r, st):
    """A Ship that leaves at the end of this turn comes back, and pays, before the game ends (SHIP: two
    turns forward)."""
    return turns_left(st) > r.k[K.SHIP_VOYAGE_TURNS]


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def ship_payout(r, coin, wood, stone, precious):
    """SHIP, return of the Ship: what ``wood``, ``stone`` and ``precious`` cubes aboard pay their owner (as many
    triplets as possible first, RP-13), in VP-equivalents at ``coin`` a silver coin."""
    t = min(wood, stone, precious) if r.k[K.SHIP_TRIPLETS_FIRST] else 0
    silver = (t * r.k[K.SHIP_TRIPLET_SILVER] + (wood - t) * r.k[K.SHIP_WOOD_SILVER] + (stone - t) * r.k[K.SHIP_STONE_SILVER]
              + (precious - t) * r.k[K.SHIP_PRECIOUS_SILVER])
    return silver * coin + t * r.k[K.SHIP_TRIPLET_VP] + (precious - t) * r.k[K.SHIP_PRECIOUS_VP]


@njit(cache=True)
def ship_plan(r, st, sc, w, seat, dock):
    """What the seat's cargo is worth when the Ship returns: his cubes aboard and the best load of the cubes he
    holds that ``dock`` dock workers put aboard this turn (SHIP: 3 a worker, within the Ship's room), each
    loaded cube less its worth in hand; W.SHIP times :func:`ship_payout` at his coin's worth."""
    aw, ast, ap = st.ship[seat, Good.WOOD], st.ship[seat, Good.STONE], st.ship[seat, Good.PRECIOUS]
    room = min(dock * r.k[K.SHIP_RESOURCES_PER_DOCK_WORKER] - st.pl[seat, PK.LOADED],
               r.by_count[st.g[G.COUNT], CK.SHIP_CAPACITY] - st.g[G.SHIP_LOAD])
    coin = sc.fctx[CTXF_SILVER]
    best = w[W.SHIP] * ship_payout(r, coin, aw, ast, ap)
    for lp in range(min(room, st.pl[seat, PK.PRECIOUS]) + 1):
        for ls in range(min(room - lp, st.pl[seat, PK.STONE]) + 1):
            for lw in range(min(room - lp - ls, st.pl[seat, PK.WOOD]) + 1):
                v = (w[W.SHIP] * ship_payout(r, coin, aw + lw, ast + ls, ap + lp)
                     - lw * w[W.WOOD] - ls * w[W.STONE] - lp * w[W.PRECIOUS])
                best = max(best, v)
    return best


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def cargo_after_departure(r, st, sc, w, seat, dock):
    """His cargo's worth with ``dock`` dock workers (:func:`ship_plan`) once the Ship leaves: if nobody has
    paid its departure yet, he pays it (SHIP: 2 silver coins) only where the cargo is worth more."""
    v = ship_plan(r, st, sc, w, seat, dock)
    if st.g[G.SHIP_PAID] == 0:
        v = max(0.0, v - r.k[K.SHIP_PAID_DEPARTURE_SILVER] * sc.fctx[CTXF_SILVER])
    return v


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def placement_value(r, geo, st, sc, w, seat, j):
    kind, a, b = sc.opts[j, OPT.KIND], sc.opts[j, OPT.A], sc.opts[j, OPT.B]
    if kind == PL.PASS:
        return 0.0
    if kind == PL.CITY:  # options of one space come together (k = 1, 2, 3): its plan is made at the first
        if b == 1 or sc.ctx[CTX_PLANNED] != a:
            space_plan(r, geo, st, sc, w, seat, a, st.sp_workers[a, seat])
            sc.ctx[CTX_PLANNED] = a
        return sc.plan[b - 1]
    if kind == PL.SUBSTITUTE:
        stay = b - r.k[K.PLACEMENT_SUBSTITUTION_SACRIFICED]
        space_plan(r, geo, st, sc, w, seat, a, 0)
        sc.ctx[CTX_PLANNED] = NO
        return sc.plan[min(stay, sc.plan.shape[0]) - 1] - w[W.WORKER] * (b - stay)
    if kind == PL.GRID:
        return grid_value(r, st, sc, w, seat, a, b, sc.opts[j, OPT.C], sc.opts[j, OPT.D])
    if kind == PL.MINE:  # a cube is worth a House's share while Huts wait for one of each
        g = r.mine_track[a]
        cube = w[W.WOOD] if g == Good.WOOD else w[W.STONE]
        short = st.pl[seat, PK.WOOD + g] < sc.ctx[CTX_HUTS] * r.building[Building.HOUSE, BK.WOOD + g]
        return cube * (1.0 + w[W.HOUSE] * short) - w[W.WORKER] * r.mine_space_workers[b]
    if kind == PL.FIELD:  # each worker a share of the coin its pair makes
        return sc.fctx[CTXF_SILVER] / r.k[K.FIELD_WORKERS_PER_SILVER] - w[W.WORKER]
    if kind == PL.ARTISAN:
        spare = st.pl[seat, PK.WOOD] + st.pl[seat, PK.STONE] - st.pl[seat, PK.ARTISAN]
        return w[W.PRECIOUS] - w[W.WOOD] - w[W.WORKER] if spare > 2 else -1.0
    if kind == PL.DOCK:  # what one more dock worker lets him load, if his cargo is worth the departure he may pay
        if not sails(r, st):
            return -1.0
        dock = st.pl[seat, PK.DOCK]
        return cargo_after_departure(r, st, sc, w, seat, dock + 1) - cargo_after_departure(r, st, sc, w, seat, dock) - w[W.WORKER]
    if kind == PL.OFFICE:
        if st.pl[seat, PK.SILVER] < r.office[a, OK.COST] or st.pl[seat, PK.VP] < r.office[a, OK.VP_REQUIRED]:
            return -10.0
        return office_value(r, geo, st, sc, w, seat, a) - w[W.WORKER]
    if kind == PL.ORDER:
        return w[W.ORDER]
    if kind == PL.DEPART:  # his cargo, aboard and loaded this turn, paid on the return; the coins now
        if not sails(r, st):
            return -1.0
        return ship_plan(r, st, sc, w, seat, st.pl[seat, PK.DOCK]) - r.k[K.SHIP_PAID_DEPARTURE_SILVER] * sc.fctx[CTXF_SILVER]
    return 0.0


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def effect_value(r, geo, st, sc, w, seat, j):
    kind, a, b = sc.opts[j, OPT.KIND], sc.opts[j, OPT.A], sc.opts[j, OPT.B]
    if kind == EF.DONE:
        return 0.0
    if kind == EF.BUILD:
        v = building_value(r, geo, st, sc, w, seat, a, b)
        return v - cost_value(r, st, sc, w, seat, r.building[b, BK.WOOD], r.building[b, BK.STONE], r.building[b, BK.PRECIOUS]) + 0.5
    if kind == EF.ACTIVATE:
        return exchange_value(r, w, b)
    if kind == EF.GRID_PAY:
        return -r.k[K.MAJOR_INEFFECTIVE_WORKER_VP] + r.major_space_vp[a, b] * w[W.GRID]
    if kind == EF.ARTISAN:
        return w[W.PRECIOUS] - (w[W.WOOD] if a == Good.WOOD else w[W.STONE])
    if kind == EF.LOAD:  # what the cube adds to his cargo's payout (a triplet pays more), less its worth in hand
        if not sails(r, st):
            return -1.0
        cw, cs, cp = st.ship[seat, Good.WOOD], st.ship[seat, Good.STONE], st.ship[seat, Good.PRECIOUS]
        coin = sc.fctx[CTXF_SILVER]
        more = ship_payout(r, coin, cw + (a == Good.WOOD), cs + (a == Good.STONE), cp + (a == Good.PRECIOUS)) - ship_payout(r, coin, cw, cs, cp)
        return w[W.SHIP] * more - (w[W.WOOD] if a == Good.WOOD else w[W.STONE] if a == Good.STONE else w[W.PRECIOUS])
    if kind == EF.OFFICE:
        if st.pl[seat, PK.SILVER] < r.office[a, OK.COST] or st.pl[seat, PK.VP] < r.office[a, OK.VP_REQUIRED]:
            return -r.k[K.OFFICE_FINE_VP] * -1.0 - 0.5  # the fine: leave it to the end of the turn
        return office_value(r, geo, st, sc, w, seat, a) + 1.0
    return 0.0


# sc.pkey: what the plans kept through a run of placements were made with (:func:`placements_begin`)
_KEY_GOODS = (int(PK.WOOD), int(PK.STONE), int(PK.PRECIOUS), int(PK.SILVER), int(PK.VP), int(PK.HUTS), int(PK.BOUGHT))


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def _forget_plans(st, sc, seat):
    for s in range(sc.plan_had.shape[0]):
        sc.plan_had[s] = NO
    for i in range(len(_KEY_GOODS)):
        sc.pkey[i] = st.pl[seat, _KEY_GOODS[i]]


@njit(cache=True)
def placements_begin(r, geo, st, sc, pol, seat):
    """``seat``'s run of placements begins (rio.engine.game.place_until_pass). Until he passes the buildings
    stay as they are and only his own placements change the board, so :func:`choose_placement` counts the
    board's part of its context once and keeps each space's plan (:func:`space_plan`) while his workers on
    it and his goods are unchanged: the values, and the games, are those of planning every time."""
    if pol.kind[seat] == Kind.RANDOM:
        return
    board_context(r, geo, st, sc, seat)
    _forget_plans(st, sc, seat)


@njit(cache=True)
def choose_placement(r, geo, st, sc, pol, seat, n):
    """The option ``seat`` takes among ``sc.opts[:n]`` in the Placement phase; asked only within his run of
    placements (:func:`placements_begin` first)."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, n)
    w = pol.w[seat]
    _goods_context(r, st, sc, w, seat)
    for i in range(len(_KEY_GOODS)):
        if sc.pkey[i] != st.pl[seat, _KEY_GOODS[i]]:  # a grid paid now: every plan counted his goods
            _forget_plans(st, sc, seat)
            break
    best, bj = -1e18, n - 1
    for j in range(n):
        if sc.opts[j, OPT.KIND] == PL.CITY:  # placement_value's plan, kept for the run
            a = sc.opts[j, OPT.A]
            had = st.sp_workers[a, seat]
            if sc.plan_had[a] != had:
                space_plan(r, geo, st, sc, w, seat, a, had)
                for k in range(sc.plan.shape[0]):
                    sc.plans[a, k] = sc.plan[k]
                sc.plan_had[a] = had
            v = sc.plans[a, sc.opts[j, OPT.B] - 1] + _noise(st, w)
        else:
            v = placement_value(r, geo, st, sc, w, seat, j) + _noise(st, w)
        sc.score[j] = v
        if v > best:
            best, bj = v, j
    return bj


@njit(cache=True)
def effects_begin(r, geo, st, sc, pol, seat):
    """``seat``'s Effect turn begins (rio.engine.effects.effect_phase): his effects change the buildings only
    when he builds or pays a grid space (which may complete a Major building), so :func:`choose_effect`
    counts the board's part of its context again only after one of those: the values, and the games, are
    those of counting it every time."""
    sc.ctx[CTX_BOARD] = 0


@njit(cache=True)
def choose_effect(r, geo, st, sc, pol, seat, n):
    """The effect ``seat`` produces next among ``sc.opts[:n]`` (DONE last); asked only within his Effect turn
    (:func:`effects_begin` first)."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, n)
    w = pol.w[seat]
    _goods_context(r, st, sc, w, seat)
    if sc.ctx[CTX_BOARD] == 0:
        board_context(r, geo, st, sc, seat)
        sc.ctx[CTX_BOARD] = 1
    best, bj = 0.0, n - 1
    for j in range(n - 1):
        v = effect_value(r, geo, st, sc, w, seat, j)
        sc.score[j] = v
        if v > best:
            best, bj = v, j
    if sc.opts[bj, OPT.KIND] == EF.BUILD or sc.opts[bj, OPT.KIND] == EF.GRID_PAY:
        sc.ctx[CTX_BOARD] = 0
    return bj


@njit(cache=True)
def choose_position(r, st, pol, seat):
    """Where ``seat`` moves his marker on the order track (PLAYER ORDER): the heuristic goes first."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, st.g[G.PLAYERS])
    return 0


@njit(cache=True)
def choose_merchant_cube(r, st, pol, seat):
    """The Master Merchant's free resource (a Good: wood, stone or precious)."""
    if pol.kind[seat] == Kind.RANDOM:
        return rand_below(st, 3)
    return Good.PRECIOUS

