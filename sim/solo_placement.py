"""TWO PLAYERS GAME & SOLO MODE: where the A.I. builds, jitted. "Place the new building in the same
district" (the district holding most of its buildings, a tie the human's choice), on the space the
district's start and direction give; with none, the randomizer ("draw a random card from the Affiliate
deck and check the card number": a row of the Starting Area and a count along it). The A.I.'s
turn, which places through :func:`ai_new_space`, is :mod:`sim.solo`.
"""

import numpy as np
from numba import njit

from sim.ai_choice import tie_among
from sim.city import owns_marker_building
from sim.codes import AiTie, Ev
from sim.core import log, set_option
from sim.rng import rand_below
from sim.rules import RK
from sim.state import N_CARDS, N_CHARACTERS, B, G

# clockwise around a space, from the space above (north): N, NE, E, SE, S, SW, W, NW (map: north up)
DX = (0, 1, 1, 1, 0, -1, -1, -1)
DY = (-1, -1, 0, 1, 1, 1, 0, -1)
START_NORTH = 0  # "Starting in the space above the building" (a North district)
START_SOUTH = 4  # "Starting in the space below the building" (a South district)

@njit(cache=True)
def start_row_space(st, r, row, count):
    """Randomizer: count ``count`` spaces from west to east along the Starting Area's top (``row`` 0)
    or bottom (1) row, ignoring occupied spaces, starting again at the row's end; -1 when the row is
    full."""
    w = r.k[RK.MAP_W]
    top = 1 << 30
    bottom = -1
    for c in range(r.cell_start.shape[0]):
        if r.cell_start[c] == 1:
            top = min(top, c // w)
            bottom = max(bottom, c // w)
    y = top if row == 0 else bottom
    free = 0
    for c in range(y * w, y * w + w):
        if r.cell_start[c] == 1 and st.cell_b[c] == B.NONE:
            free += 1
    if free == 0:
        return -1
    j = (count - 1) % free
    for c in range(y * w, y * w + w):
        if r.cell_start[c] == 1 and st.cell_b[c] == B.NONE:
            if j == 0:
                return c
            j -= 1
    return -1


@njit(cache=True)
def randomizer_space(st, r, number):
    """Randomizer procedure with Affiliate card ``number``: an odd number uses the top row, an even one
    the bottom row (``solo.randomizer_odd_row`` / ``_even_row``); count the sum of its units and tens
    (card 41: the top row, 5 spaces). A full row: the other row (reading: the procedure's
    own way on); both full: -1."""
    row = r.k[RK.AI_ODD_ROW] if number % 2 == 1 else r.k[RK.AI_EVEN_ROW]
    count = number // 10 + number % 10
    c = start_row_space(st, r, row, count)
    if c < 0:
        c = start_row_space(st, r, 1 - row, count)
    log(st, Ev.AI_RANDOM, number, row, count, c)
    return c


@njit(cache=True)
def randomizer(st, r):
    """"Draw a random card from the Affiliate deck and check the card number": a card number drawn
    from the game's random stream (the deck itself is not touched)."""
    number = N_CHARACTERS + 1 + rand_below(st, N_CARDS - N_CHARACTERS)
    return randomizer_space(st, r, number)


@njit(cache=True)
def has_ai_building(st, seat):
    """The A.I. has a building of its colour on the map (it places its new one by the randomizer until it does)."""
    for c in range(st.cell_b.shape[0]):
        if owns_marker_building(st, seat, c):
            return True
    return False


@njit(cache=True)
def ai_district(st, r, seat):
    """"Place the new building in the same district": the district holding most of the A.I.'s
    buildings (a tie: the human chooses)."""
    nd = r.district_ncells.shape[0]
    vals = np.zeros(nd, np.int64)
    best = 0
    for d in range(nd):
        for i in range(r.district_ncells[d]):
            if owns_marker_building(st, seat, r.district_cells[d, i]):
                vals[d] += 1
        best = max(best, vals[d])
        set_option(st, d, d, vals[d])
    return tie_among(st, r, nd, vals, best, AiTie.DISTRICT, 0)


@njit(cache=True)
def district_space(st, r, seat, d):
    """The placement procedure in district ``d``: from the southernmost A.I. building of a South
    district (northernmost of a North one), the leftmost in odd decades and the rightmost in even ones,
    go clockwise around it from the space below (above) to the first empty space of the district;
    then the next building of that row, then of the next row north (south). -1 when none."""
    w = r.k[RK.MAP_W]
    h = r.k[RK.MAP_H]
    north = r.district_north[d] == 1
    odd = st.g[G.DECADE] % 2 == 1
    nb = 0
    cells = np.empty(r.district_ncells[d], np.int64)
    keys = np.empty(r.district_ncells[d], np.int64)
    for i in range(r.district_ncells[d]):
        c = r.district_cells[d, i]
        if owns_marker_building(st, seat, c):
            x = c % w
            y = c // w
            cells[nb] = c
            keys[nb] = (y if north else h - y) * (w + 1) + (x if odd else w - x)
            nb += 1
    order = np.argsort(keys[:nb])
    start = START_NORTH if north else START_SOUTH
    for j in range(nb):
        c = cells[order[j]]
        x = c % w
        y = c // w
        for k in range(8):
            q = (start + k) % 8
            nx = x + DX[q]
            ny = y + DY[q]
            if nx < 0 or nx >= w or ny < 0 or ny >= h:
                continue
            e = ny * w + nx
            if r.cell_district[e] == d and r.cell_buildable[e] == 1 and st.cell_b[e] == B.NONE:
                return e
    return -1


@njit(cache=True)
def start_area_free(st, r):
    for c in range(r.cell_start.shape[0]):
        if r.cell_start[c] == 1 and st.cell_b[c] == B.NONE:
            return True
    return False


@njit(cache=True)
def new_space_possible(st, r, seat):
    """A new Lot has a space (no decision, no random draw: the check before a card is played)."""
    if start_area_free(st, r):
        return True
    if not has_ai_building(st, seat):
        return False
    nd = r.district_ncells.shape[0]
    best = 0
    cnt = np.zeros(nd, np.int64)
    for d in range(nd):
        for i in range(r.district_ncells[d]):
            if owns_marker_building(st, seat, r.district_cells[d, i]):
                cnt[d] += 1
        best = max(best, cnt[d])
    for d in range(nd):
        if cnt[d] == best and district_space(st, r, seat, d) >= 0:
            return True
    return False


@njit(cache=True)
def ai_new_space(st, r, seat):
    """Where the A.I.'s new building goes: with no A.I. building on the map, the randomizer; else
    its district's procedure, and the randomizer when that district has no space."""
    if not has_ai_building(st, seat):
        return randomizer(st, r)
    c = district_space(st, r, seat, ai_district(st, r, seat))
    if c < 0:
        c = randomizer(st, r)
    return c
