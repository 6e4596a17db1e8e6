"""The economy (COIN STACKS AND RESOURCE GRIDS; GAME CONTENTS): the board's resource grids and
coin stacks (taking the last item of one costs VP), the game supply of cubes, a seat's coin value,
and paying costs in resources (with the Construction status swaps) and coins (exact change from
the stacks), with the cards that change a cost (45) or a payment (78)."""

from numba import njit

from sim.cardpower import card_active, holder, offer
from sim.codes import Card, Dec
from sim.core import decide, gain_vp, set_option
from sim.rules import AP, RK
from sim.state import GRID_PRECIOUS, GRID_STONE, GRID_WOOD, PF, VS, G, Res, Sup


@njit(cache=True)
def card45_cut(st, r, seat, w, s, p):
    """Card 45 used this turn: "a discount of up to 4 elements (... stone/wood/precious
    resources)" in the seat's next main action. The waived units go first to what the seat lacks,
    then to the dearest resource (precious, stone, wood). Returns the reduced (w, s, p)."""
    left = st.g[G.CARD45_RES]
    if left <= 0 or not card_active(st, seat, Card.C45):
        return w, s, p
    # shortfalls first
    d = min(left, max(0, p - st.pl[seat, PF.PRECIOUS]))
    p -= d
    left -= d
    d = min(left, max(0, s - st.pl[seat, PF.STONE]))
    s -= d
    left -= d
    d = min(left, max(0, w - st.pl[seat, PF.WOOD]))
    w -= d
    left -= d
    d = min(left, p)
    p -= d
    left -= d
    d = min(left, s)
    s -= d
    left -= d
    d = min(left, w)
    w -= d
    return w, s, p


@njit(cache=True)
def last_item_vp(st, r):
    """VP for taking a grid's last resource or a stack's last coin; card 81 raises the penalty for
    all players for the rest of the decade in which it was played."""
    if st.g[G.LAST_PENALTY_DECADE] == st.g[G.DECADE] and st.g[G.DECADE] > 0:
        return -r.aff_p[Card.C81, AP.LAST_TAKE_PENALTY_VP]
    return r.k[RK.GRID_LAST_VP]


@njit(cache=True)
def grid_range(r, res):
    """Index range of the resource grids of one type in ``State.grids`` (0 wood, 1 stone, 2 precious)."""
    if res == Res.STONE:
        return GRID_STONE, GRID_STONE + r.k[RK.STONE_GRIDS]
    if res == Res.WOOD:
        return GRID_WOOD, GRID_WOOD + r.k[RK.WOOD_GRIDS]
    return GRID_PRECIOUS, GRID_PRECIOUS + 1


@njit(cache=True)
def take_from_grids(st, r, seat, res, n):
    """COIN STACKS AND RESOURCE GRIDS: acquire n cubes of wood, stone or precious (``res``: Res)
    from the board's grids, one at a time from a grid of the player's choice; all available up to n.
    The player who takes the last cube of a grid loses 1 VP. Returns the number taken.

    Cards 18, 24, 30 (used this turn): "If you have to take wood (stone, precious) resources, you
    can receive them from the game supply instead of from the board." Card 29: "If you gain at
    least 1 (``min_precious_gained``) precious resource, obtain 1 (``extra_precious``) more, if
    available" (once per use)."""
    sup_card = Card.C18 if res == Res.WOOD else (Card.C24 if res == Res.STONE else Card.C30)
    got = 0
    if card_active(st, seat, sup_card):
        # "any or all of them from the game supply": what it lacks still comes from the board
        got = take_from_supply(st, seat, res, n)
    if got < n:
        got += _take_from_board(st, r, seat, res, n - got)
    if res == Res.PRECIOUS and got >= r.aff_p[Card.C29, AP.MIN_PRECIOUS_GAINED] and card_active(st, seat, Card.C29):
        st.card_active[Card.C29] = 0
        more = r.aff_p[Card.C29, AP.EXTRA_PRECIOUS]
        extra = take_from_supply(st, seat, res, more) if card_active(st, seat, Card.C30) else 0
        if extra < more:
            extra += _take_from_board(st, r, seat, res, more - extra)
        got += extra
    return got


@njit(cache=True)
def _take_from_board(st, r, seat, res, n):
    lo, hi = grid_range(r, res)
    got = 0
    for _ in range(n):
        k = 0
        for gi in range(lo, hi):
            if st.grids[gi] > 0:
                set_option(st, k, gi, st.grids[gi], res)
                k += 1
        if k == 0:
            break
        gi = st.opts[decide(st, r, seat, Dec.GRID, k), 0]
        st.grids[gi] -= 1
        st.pl[seat, PF.WOOD + res] += 1
        st.gained[seat, res] += 1
        got += 1
        if st.grids[gi] == 0:
            gain_vp(st, r, seat, last_item_vp(st, r), VS.GRID_LAST)
    return got


@njit(cache=True)
def take_from_supply(st, seat, res, n):
    """Cubes (wood 0, stone 1, precious 2, metal 3) from the game supply, up to what it holds."""
    got = min(n, st.supply[Sup.WOOD + res])
    st.supply[Sup.WOOD + res] -= got
    st.pl[seat, PF.WOOD + res] += got
    st.gained[seat, res] += got
    return got


@njit(cache=True)
def _stack_rows(st, r, coin):
    """The ``Dec.STACK`` rows [stack, exchange, coins on it] to take one ``coin`` (0 silver, 1 bronze)
    from: the stacks holding one; for a bronze, also (exchange 1) a stack holding only silver while
    the supply has a silver's worth in bronze (:func:`take_coins`). Returns how many."""
    k = 0
    for s in range(r.k[RK.COIN_STACKS]):
        if st.stacks[s, coin] > 0:
            set_option(st, k, s, 0, st.stacks[s, 0] + st.stacks[s, 1])
            k += 1
        elif coin == 1 and st.stacks[s, 0] > 0 and st.supply[Sup.BRONZE] >= r.k[RK.BRONZE_PER_SILVER]:
            set_option(st, k, s, 1, st.stacks[s, 0] + st.stacks[s, 1])
            k += 1
    return k


@njit(cache=True)
def take_coins(st, r, seat, silver, bronze):
    """COIN STACKS AND RESOURCE GRIDS: acquire coins from the board's coin stacks (all available up
    to the amount). A bronze from a stack holding only silver: the silver goes to the supply, its
    worth in bronze (2) comes from it, 1 to the player and the rest to the stack (the stack is not
    emptied). Emptying a stack costs 1 VP. Card 66 (used this turn): "If you have to take coins, you
    can receive them from the game supply"."""
    if card_active(st, seat, Card.C66):
        # from the supply as far as it goes; the rest from the stacks
        s = min(silver, st.supply[Sup.SILVER])
        b = min(bronze, st.supply[Sup.BRONZE])
        st.supply[Sup.SILVER] -= s
        st.supply[Sup.BRONZE] -= b
        st.pl[seat, PF.SILVER] += s
        st.pl[seat, PF.BRONZE] += b
        silver -= s
        bronze -= b
    rate = r.k[RK.BRONZE_PER_SILVER]
    for _ in range(silver):
        k = _stack_rows(st, r, 0)
        if k == 0:
            # no silver anywhere: a silver's worth is two bronze coins from the stacks
            bronze += rate
            continue
        s = st.opts[decide(st, r, seat, Dec.STACK, k), 0]
        st.stacks[s, 0] -= 1
        st.pl[seat, PF.SILVER] += 1
        if st.stacks[s, 0] + st.stacks[s, 1] == 0:
            gain_vp(st, r, seat, last_item_vp(st, r), VS.GRID_LAST)
    for _ in range(bronze):
        k = _stack_rows(st, r, 1)
        if k == 0:
            break
        i = decide(st, r, seat, Dec.STACK, k)
        s = st.opts[i, 0]
        if st.opts[i, 1] == 1:
            st.stacks[s, 0] -= 1
            st.supply[Sup.SILVER] += 1
            st.supply[Sup.BRONZE] -= rate
            st.stacks[s, 1] += rate - 1
            st.pl[seat, PF.BRONZE] += 1
        else:
            st.stacks[s, 1] -= 1
            st.pl[seat, PF.BRONZE] += 1
            if st.stacks[s, 0] + st.stacks[s, 1] == 0:
                gain_vp(st, r, seat, last_item_vp(st, r), VS.GRID_LAST)


@njit(cache=True)
def coin_value(st, r, seat):
    """Coins in bronze units (1 silver = game.bronze_per_silver bronze)."""
    return r.k[RK.BRONZE_PER_SILVER] * st.pl[seat, PF.SILVER] + st.pl[seat, PF.BRONZE]


@njit(cache=True)
def pay_coins(st, r, seat, value):
    """Pay ``value`` bronze units to the game supply: silver for pairs, bronze for the rest;
    an odd bronze owed with only silver is paid with a silver and 1 bronze change from the supply.
    The caller has checked coin_value >= value. Card 78 (lightning): "Gain a discount of 1 bronze
    coin in any payment"."""
    if value > 0 and holder(st, Card.C78) == seat and offer(st, r, Card.C78, seat) >= 0:
        value = max(0, value - r.aff_p[Card.C78, AP.BRONZE_DISCOUNT])
    rate = r.k[RK.BRONZE_PER_SILVER]
    sv = min(st.pl[seat, PF.SILVER], value // rate)
    st.pl[seat, PF.SILVER] -= sv
    st.supply[Sup.SILVER] += sv
    rest = value - rate * sv
    bz = min(st.pl[seat, PF.BRONZE], rest)
    st.pl[seat, PF.BRONZE] -= bz
    st.supply[Sup.BRONZE] += bz
    rest -= bz
    while rest > 0:
        st.pl[seat, PF.SILVER] -= 1
        st.supply[Sup.SILVER] += 1
        if rest < rate:
            change = min(rate - rest, st.supply[Sup.BRONZE])
            st.supply[Sup.BRONZE] -= change
            st.pl[seat, PF.BRONZE] += change
            rest = 0
        else:
            rest -= rate


@njit(cache=True)
def give_coins_from_supply(st, seat, silver, bronze):
    """Compensation paid from the game supply (Cabildo/Cathedral displacement)."""
    s = min(silver, st.supply[Sup.SILVER])
    st.supply[Sup.SILVER] -= s
    st.pl[seat, PF.SILVER] += s
    b = min(bronze, st.supply[Sup.BRONZE])
    st.supply[Sup.BRONZE] -= b
    st.pl[seat, PF.BRONZE] += b


@njit(cache=True)
def _swap_need(need, lvl, code):
    """Apply one Construction status swap to a need vector [w, s, p, m] in place.
    code 0 = unused. Level I: 1 wood as stone, 2 stone as wood. Level II: 1 w as p, 2 s as p,
    3 p as w, 4 p as s. Level III: 1 w as m, 2 s as m, 3 m as w, 4 m as s.
    Returns False when the swap replaces a resource the cost does not ask for."""
    if code == 0:
        return True
    if lvl == 1:
        src, dst = (0, 1) if code == 1 else (1, 0)
    else:
        hi = 2 if lvl == 2 else 3
        if code == 1:
            src, dst = 0, hi
        elif code == 2:
            src, dst = 1, hi
        elif code == 3:
            src, dst = hi, 0
        else:
            src, dst = hi, 1
    if need[dst] <= 0:
        return False
    need[dst] -= 1
    need[src] += 1
    return True


@njit(cache=True)
def holds(st, seat, w, s, p, m):
    """The seat holds resources [w, s, p, m] as they are: :func:`pay_plan`'s plan 0 (no swap)."""
    pl = st.pl
    return w <= pl[seat, PF.WOOD] and s <= pl[seat, PF.STONE] and p <= pl[seat, PF.PRECIOUS] and m <= pl[seat, PF.METAL]


@njit(cache=True)
def pay_plan(st, seat, w, s, p, m, swaps_ok):
    """Find how to pay resources [w, s, p, m]: returns a plan code (swap codes for Construction
    status Levels I-III, base 5), or -1 if unaffordable. Fewest swaps first, since each is once per decade.
    ``swaps_ok`` = 0 for payments needing real resources (Market sales, Ship loads)."""
    if holds(st, seat, w, s, p, m):
        return 0
    have0 = st.pl[seat, PF.WOOD]
    have1 = st.pl[seat, PF.STONE]
    have2 = st.pl[seat, PF.PRECIOUS]
    have3 = st.pl[seat, PF.METAL]
    if swaps_ok == 0:
        return -1
    lvl = st.pl[seat, PF.ST_CONSTRUCTION]
    if lvl == 0:
        return -1
    n1 = 3 if (lvl >= 1 and st.pl[seat, PF.USED_SWAP1] == 0) else 1
    n2 = 5 if (lvl >= 2 and st.pl[seat, PF.USED_SWAP2] == 0) else 1
    n3 = 5 if (lvl >= 3 and st.pl[seat, PF.USED_SWAP3] == 0) else 1
    # Each swap turns one unit of one resource into one of another: a cost is payable only if the
    # total is held and the shortfall is at most the swaps left (cheap rejection before the search).
    if w + s + p + m > have0 + have1 + have2 + have3:
        return -1
    short = max(0, w - have0) + max(0, s - have1) + max(0, p - have2) + max(0, m - have3)
    if short > (n1 > 1) + (n2 > 1) + (n3 > 1):
        return -1
    best = -1
    best_used = 99
    need = st.plan_need
    for a in range(n1):
        for b in range(n2):
            for c in range(n3):
                used = (a > 0) + (b > 0) + (c > 0)
                if used >= best_used:
                    continue
                need[0] = w
                need[1] = s
                need[2] = p
                need[3] = m
                if not _swap_need(need, 1, a):
                    continue
                if not _swap_need(need, 2, b):
                    continue
                if not _swap_need(need, 3, c):
                    continue
                if need[0] <= have0 and need[1] <= have1 and need[2] <= have2 and need[3] <= have3:
                    best = a + 5 * b + 25 * c
                    best_used = used
    return best


@njit(cache=True)
def pay_resources(st, seat, w, s, p, m, plan):
    """Pay resources to the game supply following ``pay_plan``'s plan; marks swaps used."""
    need = st.pay_need
    need[0] = w
    need[1] = s
    need[2] = p
    need[3] = m
    a = plan % 5
    b = (plan // 5) % 5
    c = plan // 25
    _swap_need(need, 1, a)
    _swap_need(need, 2, b)
    _swap_need(need, 3, c)
    if a > 0:
        st.pl[seat, PF.USED_SWAP1] = 1
    if b > 0:
        st.pl[seat, PF.USED_SWAP2] = 1
    if c > 0:
        st.pl[seat, PF.USED_SWAP3] = 1
    for i in range(4):
        st.pl[seat, PF.WOOD + i] -= need[i]
        st.supply[Sup.WOOD + i] += need[i]
        # City Warehouse cubes are spent first: they would be removed at the end of the turn
        if i == 0:
            st.pl[seat, PF.WH_WOOD] = max(0, st.pl[seat, PF.WH_WOOD] - need[0])
        elif i == 1:
            st.pl[seat, PF.WH_STONE] = max(0, st.pl[seat, PF.WH_STONE] - need[1])
