"""Small kernels every phase uses: VP by source, resources paid (with money for the missing wood and
stone, TRADES AND MONEY USE; RP-14), the shadow colour's rule (RP-24)."""

from __future__ import annotations

from numba import njit

from rio.engine.state import PK, G
from rio.keys import K


@njit(cache=True)
def scores(st, colour):
    """The shadow player's discs score nothing (VARIANTS (2 players); RP-24)."""
    return colour < st.g[G.PLAYERS]


@njit(cache=True)
def add_vp(st, colour, src, n):
    """``n`` VP (negative: a loss) to ``colour`` from source ``src`` (a VPS); none to the shadow colour."""
    if n != 0 and scores(st, colour):
        st.pl[colour, PK.VP] += n
        st.vp_src[colour, src] += n


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def virtual_price(r, st, seat, n):
    """Silver for ``n`` more "virtual" wood/stone this turn: the first of the turn costs 1, the second 2, ...
    (TRADES AND MONEY USE)."""
    step = r.k[K.MONEY_RESOURCE_PRICE_STEP]
    b = st.pl[seat, PK.BOUGHT]
    total = 0
    for i in range(n):
        total += step * (b + i + 1)
    return total


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def payment_silver(r, st, seat, wood, stone):
    """Silver needed to pay ``wood`` + ``stone`` with the cubes the player has and money for the rest;
    -1 if he cannot."""
    miss = max(0, wood - st.pl[seat, PK.WOOD]) + max(0, stone - st.pl[seat, PK.STONE])
    price = virtual_price(r, st, seat, miss)
    return price if price <= st.pl[seat, PK.SILVER] else -1


@njit(cache=True, forceinline=True)  # a hot callee, inlined (rio.engine's docstring)
def can_pay(r, st, seat, wood, stone, precious, silver):
    """Whether the player can pay the cost (precious and silver only in kind, RP-14)."""
    if st.pl[seat, PK.PRECIOUS] < precious:
        return False
    s = payment_silver(r, st, seat, wood, stone)
    return s >= 0 and s + silver <= st.pl[seat, PK.SILVER]


@njit(cache=True)
def pay(r, st, seat, wood, stone, precious, silver):
    """Pay the cost (checked by :func:`can_pay`): cubes first, money for the missing wood and stone."""
    mw = max(0, wood - st.pl[seat, PK.WOOD])
    ms = max(0, stone - st.pl[seat, PK.STONE])
    st.pl[seat, PK.SILVER] -= virtual_price(r, st, seat, mw + ms) + silver
    st.pl[seat, PK.BOUGHT] += mw + ms
    st.pl[seat, PK.WOOD] -= wood - mw
    st.pl[seat, PK.STONE] -= stone - ms
    st.pl[seat, PK.PRECIOUS] -= precious


@njit(cache=True)
def copy1(dst, src):
    """``dst[:] = src`` element by element: a slice assignment may allocate (when the two could overlap),
    and the game loop runs without Numba's allocator (rio.players.search.play_games_search)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True)
def copy2(dst, src):
    """``dst[:, :] = src`` without allocating (:func:`copy1`)."""
    for i in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]


@njit(cache=True)
def copy_state(dst, src):
    """Copy every array of ``src`` into ``dst`` (same shapes): a simulation's private game."""
    copy1(dst.g, src.g)
    copy2(dst.pl, src.pl)
    copy2(dst.vp_src, src.vp_src)
    copy1(dst.order, src.order)
    copy1(dst.sp_building, src.sp_building)
    copy1(dst.sp_owner, src.sp_owner)
    copy1(dst.sp_pool, src.sp_pool)
    copy1(dst.sp_built, src.sp_built)
    copy2(dst.sp_workers, src.sp_workers)
    copy1(dst.sp_used, src.sp_used)
    copy1(dst.sp_destroyed, src.sp_destroyed)
    copy2(dst.edge, src.edge)
    copy2(dst.road_v, src.road_v)
    copy2(dst.road_h, src.road_h)
    copy2(dst.grid, src.grid)
    copy2(dst.grid_placer, src.grid_placer)
    copy2(dst.grid_paid, src.grid_paid)
    copy1(dst.major_done, src.major_done)
    copy1(dst.major_at, src.major_at)
    copy2(dst.major_log, src.major_log)
    copy2(dst.mine, src.mine)
    copy1(dst.office_owner, src.office_owner)
    copy1(dst.office_turn, src.office_turn)
    copy1(dst.office_worker, src.office_worker)
    copy2(dst.ship, src.ship)
    copy1(dst.pool_left, src.pool_left)
    copy1(dst.rng, src.rng)
