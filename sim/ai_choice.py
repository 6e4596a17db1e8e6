"""The Solo A.I.'s answers to the decisions the engine asks a seat (TWO PLAYERS GAME & SOLO MODE,
SPECIAL RULES): :func:`sim.core.decide` hands every decision of the A.I.'s seat to
:func:`ai_decide` instead of a player's policy. Its turn (the Solo cards) is :mod:`sim.solo`.

What the rulebook says the A.I. does:

* it never pays a salary, never takes banners, never uses or burns an Affiliate card, and abstains
  in a City Council vote (the 3-seat game; the Solo game has no vote);
* it draws from the deck and keeps "the card, which allows having the bigger color series. In case
  of a tie, it takes the lowest card number", placing "the discarded cards in number order (lowest
  visible)";
* "When A.I. must place a Major building, use the district that produces the largest district VPs
  possible for its existing Houses and/or Palaces";
* it "will always try to avoid VP penalties when possible (for example it will avoid emptying a
  resource grid)": it takes cubes and coins from the fullest grid or stack, and in a War fights
  with the miniatures that lose the fewest War Penalty steps.

"If there is a tie in A.I.'s decision, the human-player first in turn order chooses what to do":
:func:`human_tie` asks that seat's policy (``Dec.AI_TIE``). This module imports only what lies
below :mod:`sim.core` (it is imported by it).
"""

import numpy as np
from numba import njit

from sim.city import city_vp, city_vp_walled
from sim.codes import AiTie, Dec
from sim.options import set_option
from sim.rules import RK
from sim.seam import choose
from sim.state import AI_TIE_ROWS, N_CHARACTERS, PF, B, G, Loc


@njit(cache=True)
def is_ai(st, seat):
    """``seat`` is the Solo A.I.'s."""
    return st.g[G.AI] == seat + 1


@njit(cache=True)
def ai_seat(st):
    """The A.I.'s seat, or -1 when the game has none."""
    return st.g[G.AI] - 1


@njit(cache=True)
def first_human(st):
    """The human player first in turn order (who decides the A.I.'s ties)."""
    for i in range(st.g[G.NPLAYERS]):
        s = st.order[i]
        if not is_ai(st, s):
            return s
    return -1


@njit(cache=True)
def human_tie(st, r, k):
    """The A.I.'s tie among the rows ``st.opts[:k]`` (``Dec.AI_TIE``): the human player first in turn
    order picks one through its policy; returns its index."""
    if k <= 1:
        return 0
    st.g[G.OPT_N] += 1  # as sim.core.decide
    i = choose(st, r, first_human(st), Dec.AI_TIE, k)
    if i < 0 or i >= k:
        i = 0
    return i


@njit(cache=True)
def tie_among(st, r, n, vals, best, topic, kind):
    """The rows of ``st.opts[:n]`` whose value ``vals`` equals ``best``: the first when it is the
    only one, else the human's pick among them (rows ``[AiTie.PLACE or topic, ...]``). The
    decision's rows are kept and put back, since the engine reads the picked row from ``st.opts``."""
    k = 0
    first = -1
    for i in range(n):
        if vals[i] == best:
            k += 1
            if first < 0:
                first = i
    if k <= 1 or n > AI_TIE_ROWS:
        return first
    keep = st.ai_opts
    idx = np.empty(k, np.int64)
    for i in range(n):
        for j in range(st.opts.shape[1]):
            keep[i, j] = st.opts[i, j]
    j = 0
    for i in range(n):
        if vals[i] == best:
            idx[j] = i
            j += 1
    for j in range(k):
        o = idx[j]
        if topic == AiTie.PLACE:
            set_option(st, j, topic, kind, keep[o, 0], keep[o, 1], 0)
        else:
            set_option(st, j, topic, keep[o, 0], keep[o, 1], 0, 0)
    pick = idx[human_tie(st, r, k)]
    for i in range(n):
        for j in range(st.opts.shape[1]):
            st.opts[i, j] = keep[i, j]
    return pick


@njit(cache=True)
def _series_size(st, seat, cid):
    """Cards of ``cid``'s colour the seat would own with it (its Character included)."""
    g = cid if cid < N_CHARACTERS else (cid - N_CHARACTERS) // 6
    n = 1
    if st.pl[seat, PF.CHARACTER] == g:
        n += 1
    for c in range(N_CHARACTERS + 6 * g, N_CHARACTERS + 6 * g + 6):
        if st.card_loc[c] == Loc.HAND + seat:
            n += 1
    return n


@njit(cache=True)
def _keep(st, seat, n):
    """KEEP rows ``[card]`` then ``[-1]``: the card that makes the bigger colour series, the lowest
    number on a tie. The drawn rows are put in decreasing number order first: the engine discards
    them in row order, so the lowest discarded card ends on top ("lowest visible")."""
    k = 0
    for i in range(n):
        if st.opts[i, 0] >= 0:
            k += 1
    for i in range(1, k):  # insertion sort, highest card first (at most MAX_DRAWN rows)
        c = st.opts[i, 0]
        j = i - 1
        while j >= 0 and st.opts[j, 0] < c:
            set_option(st, j + 1, st.opts[j, 0], 0, 0, 0, 0)  # a KEEP row is its card alone
            j -= 1
        set_option(st, j + 1, c, 0, 0, 0, 0)
    best = -1
    bi = n - 1
    for i in range(k):
        v = _series_size(st, seat, st.opts[i, 0])
        if v >= best:  # rows run from the highest number down: on a tie the later (lower) wins
            best = v
            bi = i
    return bi


@njit(cache=True)
def _placement(st, r, seat, kind, n):
    """A Major building's place: the row that makes the A.I.'s Houses and Palaces score most
    (:func:`city_vp`); Walls go to the district whose closing would, one segment at a time (the
    first free one of the chosen district), and are all placed (no stop)."""
    vals = np.empty(n, np.int64)
    best = -(1 << 40)
    for i in range(n):
        a = st.opts[i, 0]
        b = st.opts[i, 1]
        if kind == Dec.PLACE_CABILDO:
            old_b, old_o = st.cell_b[a], st.cell_owner[a]
            st.cell_b[a] = B.CABILDO
            st.cell_owner[a] = -1
            v = city_vp(st, r, seat)
            st.cell_b[a] = old_b
            st.cell_owner[a] = old_o
        elif kind == Dec.PLACE_CATHEDRAL:
            ob_a, oo_a, ob_b, oo_b = st.cell_b[a], st.cell_owner[a], st.cell_b[b], st.cell_owner[b]
            st.cell_b[a] = B.CATHEDRAL
            st.cell_b[b] = B.CATHEDRAL
            st.cell_owner[a] = -1
            st.cell_owner[b] = -1
            v = city_vp(st, r, seat)
            st.cell_b[a], st.cell_owner[a], st.cell_b[b], st.cell_owner[b] = ob_a, oo_a, ob_b, oo_b
        elif kind == Dec.PLACE_ROAD:
            old = st.roads[a]
            st.roads[a] = 1
            v = city_vp(st, r, seat)
            st.roads[a] = old
        else:  # PLACE_WALL rows [segment, district], [-1, -1] to stop
            if a < 0:
                vals[i] = -(1 << 41)
                continue
            first = True  # only the district's first free segment stands for it
            for j in range(i):
                if st.opts[j, 1] == b:
                    first = False
            if not first:
                vals[i] = -(1 << 41)
                continue
            v = city_vp_walled(st, r, seat, b)
        vals[i] = v
        if v > best:
            best = v
    return tie_among(st, r, n, vals, best, AiTie.PLACE, kind)


@njit(cache=True)
def _fullest(st, n, col):
    """The row with the most items in column ``col`` (first on a tie): a grid's last cube only when
    every grid is down to one."""
    bi = 0
    for i in range(1, n):
        if st.opts[i, col] > st.opts[bi, col]:
            bi = i
    return bi


@njit(cache=True)
def _stack(st, n):
    """STACK rows ``[stack, 1 when making change, coins on it]``: never the last coin of a stack when
    another row avoids it; else the stack with most coins (first on a tie)."""
    bi = -1
    bv = -1
    for i in range(n):
        v = st.opts[i, 2] if not (st.opts[i, 1] == 0 and st.opts[i, 2] == 1) else 0
        if v > bv:
            bv = v
            bi = i
    return bi


@njit(cache=True)
def _fight(st, r, n):
    """WAR_FIGHT rows ``[mask, AV, WA, faction]``: the fewest War Penalty steps lost, then the
    fewest miniatures fighting; never card 59's worker (bit ``setup.war_markers``: a card power)."""
    bi = 0
    bl = 1 << 30
    bm = 1 << 30
    for i in range(n):
        if st.opts[i, 0] >> r.k[RK.WAR_MARKERS]:
            continue
        loss = max(0, st.opts[i, 2] - st.opts[i, 1])
        m = st.opts[i, 0]
        bits = 0
        while m:
            bits += m & 1
            m >>= 1
        if loss < bl or (loss == bl and bits < bm):
            bl = loss
            bm = bits
            bi = i
    return bi


@njit(cache=True)
def ai_decide(st, r, seat, kind, n):
    """The A.I.'s answer to a decision of the engine (``st.opts[:n]``, n >= 2) by the SPECIAL RULES
    of TWO PLAYERS GAME & SOLO MODE; see the module."""
    if kind == Dec.KEEP:
        return _keep(st, seat, n)
    if kind == Dec.GRID:
        return _fullest(st, n, 1)  # rows [grid, cubes on it, resource]
    if kind == Dec.STACK:
        return _stack(st, n)
    if kind == Dec.WAR_FIGHT:
        return _fight(st, r, n)
    if kind == Dec.PLACE_CABILDO or kind == Dec.PLACE_CATHEDRAL or kind == Dec.PLACE_ROAD or kind == Dec.PLACE_WALL:
        return _placement(st, r, seat, kind, n)
    if kind == Dec.VP_BONUS:
        return 1  # rows [0, bonus], [1, bonus]: it takes its VP status bonus at once
    if kind == Dec.WAR_BURN or kind == Dec.REACTIVATE:
        return n - 1  # the last row stops: it burns no card (nor has a used card to reactivate)
    # DRAW_SOURCE row 0 draws from the deck; VOTE row 0 abstains; USE_CARD row 0 keeps the card
    # unused; the rest (a Character's draft, salary, ...) never reach the A.I.
    return 0
