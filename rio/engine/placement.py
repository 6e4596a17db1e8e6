"""A | WORKER PLACEMENT: the options of a player's placement (one placement at a time, up to
game.workers_per_turn workers a turn) and their application.

An option row (``Scratch.opts``, columns ``OPT``): KIND a :class:`PL`, then
- CITY: A space, B workers (1) INSIDE THE CITY MAP; RP-04);
- SUBSTITUTE: A space, B workers placed (twice the occupants; one of them is sacrificed);
- GRID: A Major, B space, C 1 = paid now (LOG 2.0.3: payable in the Placement phase), D the disc's colour
  (the seat, or the shadow player's in the 2-player game, RP-24);
- MINE: A track (0 the upper, 1 the lower), B the space (the cheapest free one, RP-12);
- FIELD, ARTISAN, DOCK, ORDER: one worker; OFFICE: A the Public Office;
- DEPART: pay the Ship's departure (SHIP); PASS: place no more this turn.
"""

from __future__ import annotations

from numba import njit

from rio.engine.board import may_reach, others_on, space_cap
from rio.engine.core import can_pay, pay
from rio.engine.options import PL
from rio.engine.options import add_option as _add
from rio.engine.state import NO, OPT, PK, G
from rio.keys import MK, K, Major, Office


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def workers_left(r, st, seat):
    """Workers the seat may still place this turn: the turn's five less those placed, within his supply."""
    return min(r.k[K.GAME_WORKERS_PER_TURN] - st.pl[seat, PK.PLACED], st.pl[seat, PK.SUPPLY])


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def grid_open(r, st, m):
    """A Major grid takes workers: the Palace, Cathedral, Fort and Harbor until completed once; Walls and
    Roads always (RP-10)."""
    return r.major[m, MK.REPEATABLE] or st.major_done[m] == 0


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def space_in_play(r, st, m, i):
    on = r.major_space_on_short if st.g[G.SHORT] else r.major_space_on
    return on[st.g[G.COUNT], m, i] == 1


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def grid_cost(r, m):
    """(wood, stone, wood-or-stone) of a grid space (RP-10)."""
    return r.major[m, MK.WOOD], r.major[m, MK.STONE], r.major[m, MK.WOOD_OR_STONE]


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def can_pay_grid(r, st, seat, m):
    w, s, e = grid_cost(r, m)
    if e > 0:
        return can_pay(r, st, seat, w + e, s, 0, 0) or can_pay(r, st, seat, w, s + e, 0, 0)
    return can_pay(r, st, seat, w, s, 0, 0)


@njit(cache=True)
def pay_grid(r, st, seat, m):
    """Pay a grid space (checked by :func:`can_pay_grid`); a wood-or-stone part in the cube the player holds
    more of, so that money is spent only when both run short."""
    w, s, e = grid_cost(r, m)
    in_stone = st.pl[seat, PK.STONE] > st.pl[seat, PK.WOOD]
    if in_stone and not can_pay(r, st, seat, w, s + e, 0, 0):
        in_stone = False
    elif not in_stone and not can_pay(r, st, seat, w + e, s, 0, 0):
        in_stone = True
    if in_stone:
        pay(r, st, seat, w, s + e, 0, 0)
    else:
        pay(r, st, seat, w + e, s, 0, 0)


@njit(cache=True)
def ship_docked(st):
    return st.major_done[Major.HARBOR] > 0 and st.g[G.SHIP_AWAY] == 0


@njit(cache=True)
def reachable_spaces(r, geo, st, sc, seat):
    """``sc.reach``: the city spaces ``seat`` may reach (RP-04, :func:`may_reach`) in order, each with the
    other colours' workers there and :func:`space_cap`; returns how many. While a seat places they change
    only where he substitutes: the buildings stay as they are and the others wait their turn."""
    m = 0
    for s in range(geo.district.shape[0]):
        if may_reach(geo, st, seat, s):
            sc.reach[m, 0] = s
            sc.reach[m, 1] = others_on(st, seat, s)
            sc.reach[m, 2] = space_cap(r, geo, st, sc, seat, s, False)
            m += 1
    return m


@njit(cache=True)
def placement_options(r, geo, st, sc, seat):
    """Every legal placement of ``seat`` now; the last is PASS. Returns the count."""
    return listed_placements(r, geo, st, sc, seat, reachable_spaces(r, geo, st, sc, seat))


@njit(cache=True)
def listed_placements(r, geo, st, sc, seat, nreach):
    """:func:`placement_options` with the reachable spaces ``sc.reach[:nreach]`` already listed (by
    :func:`reachable_spaces`, once for a seat's run of placements and again after a substitution:
    rio.engine.game.place_until_pass)."""
    n = 0
    left = workers_left(r, st, seat)
    if left > 0:
        # 1) inside the city map
        factor = r.k[K.PLACEMENT_SUBSTITUTION_FACTOR]
        for q in range(nreach):
            s, other = sc.reach[q, 0], sc.reach[q, 1]
            if st.sp_building[s] == NO and other > 0:
                if st.sp_workers[s, seat] == 0 and other <= r.k[K.PLACEMENT_SUBSTITUTION_MAX_REMOVED] and factor * other <= left:
                    n = _add(sc, n, PL.SUBSTITUTE, s, factor * other, 0, 0)
                continue
            room = sc.reach[q, 2] - st.sp_workers[s, seat]
            for k in range(1, min(room, left) + 1):
                n = _add(sc, n, PL.CITY, s, k, 0, 0)
        # 2) the Major grids (the shadow player's discs too, 2-player game)
        shadow = st.g[G.PLAYERS] if st.g[G.COLOURS] > st.g[G.PLAYERS] else NO
        for m in range(r.major.shape[0]):
            if not grid_open(r, st, m):
                continue
            free = r.major[m, MK.WOOD] + r.major[m, MK.STONE] + r.major[m, MK.WOOD_OR_STONE] == 0
            now = free or can_pay_grid(r, st, seat, m)
            for i in range(st.grid.shape[1]):
                if st.grid[m, i] != NO or not space_in_play(r, st, m, i):
                    continue
                for ci in range(2):
                    c = seat if ci == 0 else shadow
                    if c == NO or st.pl[c, PK.SUPPLY] == 0:
                        continue
                    if free:
                        n = _add(sc, n, PL.GRID, m, i, 1, c)
                    else:
                        n = _add(sc, n, PL.GRID, m, i, 0, c)
                        if now and r.k[K.MAJOR_PAY_IN_PLACEMENT]:
                            n = _add(sc, n, PL.GRID, m, i, 1, c)
        # 3) the other areas
        for t in range(st.mine.shape[0]):
            for i in range(st.mine.shape[1]):
                if r.mine_space_on[st.g[G.COUNT], i] and st.mine[t, i] == NO:
                    if r.mine_space_workers[i] <= left:
                        n = _add(sc, n, PL.MINE, t, i, 0, 0)
                    break  # the cheapest free space first (RP-12)
        n = _add(sc, n, PL.FIELD, 0, 0, 0, 0)
        n = _add(sc, n, PL.ARTISAN, 0, 0, 0, 0)
        if ship_docked(st):
            n = _add(sc, n, PL.DOCK, 0, 0, 0, 0)
        if st.pl[seat, PK.OFFICE] == 0:
            for o in range(r.office.shape[0]):
                if st.office_owner[o] == NO and st.office_worker[o] == NO:
                    n = _add(sc, n, PL.OFFICE, o, 0, 0, 0)
        n = _add(sc, n, PL.ORDER, 0, 0, 0, 0)
    if (ship_docked(st) and st.g[G.SHIP_PAID] == 0 and r.k[K.SHIP_PAY_IN_PLACEMENT]
            and st.pl[seat, PK.SILVER] >= r.k[K.SHIP_PAID_DEPARTURE_SILVER] and (st.g[G.SHIP_LOAD] > 0 or st.pl[seat, PK.DOCK] > 0)):
        n = _add(sc, n, PL.DEPART, 0, 0, 0, 0)
    n = _add(sc, n, PL.PASS, 0, 0, 0, 0)
    return n


@njit(cache=True)
def _use(st, seat, colour, k):
    """``k`` discs of ``colour`` leave its supply, counted among ``seat``'s placements this turn."""
    st.pl[colour, PK.SUPPLY] -= k
    st.pl[seat, PK.PLACED] += k


@njit(cache=True)
def apply_placement(r, geo, st, sc, seat, j):
    """Apply option ``j`` of ``sc.opts``. Returns False for PASS."""
    kind, a, b, c, d = sc.opts[j, OPT.KIND], sc.opts[j, OPT.A], sc.opts[j, OPT.B], sc.opts[j, OPT.C], sc.opts[j, OPT.D]
    if kind == PL.PASS:
        return False
    if kind == PL.CITY:
        st.sp_workers[a, seat] += b
        _use(st, seat, seat, b)
    elif kind == PL.SUBSTITUTE:
        # 1) INSIDE THE CITY MAP: twice as many replace the occupants, one of the replacements is sacrificed
        for o in range(st.g[G.COLOURS]):
            if o != seat and st.sp_workers[a, o] > 0:
                st.pl[o, PK.SUPPLY] += st.sp_workers[a, o]
                st.sp_workers[a, o] = 0
        stay = b - r.k[K.PLACEMENT_SUBSTITUTION_SACRIFICED]
        st.sp_workers[a, seat] += stay
        _use(st, seat, seat, stay)
        st.pl[seat, PK.PLACED] += b - stay
    elif kind == PL.GRID:
        st.grid[a, b] = d
        st.grid_placer[a, b] = seat
        _use(st, seat, d, 1)
        if c:
            pay_grid(r, st, seat, a)
            st.g[G.PAY_SEQ] += 1
            st.grid_paid[a, b] = st.g[G.PAY_SEQ]
    elif kind == PL.MINE:
        st.mine[a, b] = seat
        _use(st, seat, seat, r.mine_space_workers[b])
    elif kind == PL.FIELD:
        st.pl[seat, PK.FIELD] += 1
        _use(st, seat, seat, 1)
    elif kind == PL.ARTISAN:
        st.pl[seat, PK.ARTISAN] += 1
        _use(st, seat, seat, 1)
    elif kind == PL.DOCK:
        st.pl[seat, PK.DOCK] += 1
        _use(st, seat, seat, 1)
    elif kind == PL.OFFICE:
        st.office_worker[a] = seat
        st.pl[seat, PK.OFFICE] = a + 1
        _use(st, seat, seat, 1)
    elif kind == PL.ORDER:
        st.pl[seat, PK.ORDER_ADDED] += 1
        _use(st, seat, seat, 1)
    elif kind == PL.DEPART:
        # SHIP: 2 silver to the bank, or 1 of them to the Shipowner (his power from the turn after purchase)
        st.pl[seat, PK.SILVER] -= r.k[K.SHIP_PAID_DEPARTURE_SILVER]
        owner = st.office_owner[Office.SHIPOWNER]
        if owner != NO and st.office_turn[Office.SHIPOWNER] + r.k[K.OFFICE_POWERS_DELAY_TURNS] <= st.g[G.TURN]:
            st.pl[owner, PK.SILVER] += r.k[K.OFFICE_SHIPOWNER_DEPARTURE_SILVER]
        st.g[G.SHIP_PAID] = seat + 1
    return True
