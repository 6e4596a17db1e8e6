"""The end of the game: the VP of money, Public Offices and the City (END OF THE GAME; VICTORY POINTS AT
THE END OF THE GAME; VICTORY POINTS CALCULATIONS; RP-23), the offices' end-of-game powers (PUBLIC OFFICE
TABLE: Roadmaker, Defender, Bishop, Architect, Governor), the Short game's +3 per office (VARIANTS;
RP-25), and the final ranking with its tie-breaks.

Money (a reading): "for every 3 silver coins owned, the player receives 1 VP in exchange"; the coins
handed in are not taken from ``PK.SILVER`` (it keeps the coins the player ended with, for the records),
so "the most coins left after the exchange" (the first tie-break) is ``silver % scoring.silver_per_vp``.
Only the seats score; the 2-player game's shadow colour scores nothing (RP-24; :func:`rio.engine.core.add_vp`).
"""

from __future__ import annotations

from numba import njit

from rio.engine.city import MINORS, district_closed, district_values, house_vp, major_standing, road_connected
from rio.engine.core import add_vp
from rio.engine.state import NO, PK, VPS, G
from rio.keys import BK, MK, OK, Building, K, Major, Office, Placement, TieBreak


@njit(cache=True)
def city_majors(r, st):
    """Major buildings in the City for the Architect (Harbor, Fort, Cathedral, Palace): a ring building
    (Palace, Cathedral) while it stands, a fixed one (Fort, Harbor) once completed. Walls and Roads are
    pieces, not buildings in the City."""
    n = 0
    for m in range(r.major.shape[0]):
        p = r.major[m, MK.PLACEMENT]
        if p == Placement.RING:
            if major_standing(st, m):
                n += 1
        elif p == Placement.FIXED:
            if st.major_done[m] > 0:
                n += 1
    return n


@njit(cache=True)
def city_churches(st):
    """Churches and the Cathedral in the City, for the Bishop ("4 VPs for every church or Cathedral in
    the City")."""
    n = 0
    for s in range(st.sp_building.shape[0]):
        if st.sp_building[s] == Building.CHURCH:
            n += 1
    if major_standing(st, Major.CATHEDRAL):
        n += 1
    return n


@njit(cache=True)
def noble_districts(r, geo, st):
    """Districts holding at least office.governor.noble_min of the five noble buildings (Square, Monument,
    Garden, Barracks, Church). With office.governor.noble_distinct (the reading) a district counts the
    kinds it holds, so a second Square adds nothing; else every noble tile counts."""
    n = 0
    for d in range(geo.district_spaces.shape[0]):
        c = 0
        for b in range(MINORS):
            if not r.building[b, BK.NOBLE]:
                continue
            tiles = 0  # tiles of kind b in district d
            for i in range(geo.district_spaces.shape[1]):
                s = geo.district_spaces[d, i]
                if s >= 0 and st.sp_building[s] == b:
                    tiles += 1
            if tiles > 0:
                c += 1 if r.k[K.OFFICE_GOVERNOR_NOBLE_DISTINCT] else tiles
        if c >= r.k[K.OFFICE_GOVERNOR_NOBLE_MIN]:
            n += 1
    return n


@njit(cache=True)
def end_scoring(r, geo, st, sc):
    """VICTORY POINTS AT THE END OF THE GAME, for each seat: 1) money, 1 VP per 3 silver (END_MONEY);
    2) the characters' printed end VP, +3 each in the Short game (END_OFFICES) and their end-of-game
    powers (END_ROADMAKER, END_DEFENDER, END_BISHOP, END_ARCHITECT, END_GOVERNOR); 3) the City: each House
    2 VP plus its district's value, at least 0 (END_HOUSES); Huts score nothing.

    Every office the seat owns scores, one bought on the last turn too: its end VP are not a power "used
    during the Effect phase" (PUBLIC OFFICE TABLE), they are counted at the end."""
    nd = geo.centre_vertex.shape[0]
    n_conn = road_connected(geo, st, sc)
    value = sc.dval
    district_values(r, geo, st, sc, value, True)
    n_closed = 0
    for d in range(nd):
        if district_closed(geo, st, d):
            n_closed += 1
    players = st.g[G.PLAYERS]
    houses = sc.seat_work
    for c in range(players):
        houses[c] = 0
    for s in range(st.sp_building.shape[0]):
        c = st.sp_owner[s]
        if st.sp_building[s] == Building.HOUSE and 0 <= c < players and geo.district[s] >= 0:
            houses[c] += house_vp(r, value[geo.district[s]])
    for c in range(players):
        add_vp(st, c, VPS.END_MONEY, st.pl[c, PK.SILVER] // r.k[K.SCORING_SILVER_PER_VP])
        add_vp(st, c, VPS.END_HOUSES, houses[c])
    for o in range(r.office.shape[0]):
        c = st.office_owner[o]
        if c == NO or c >= players:
            continue
        end = r.office[o, OK.END_VP]
        if st.g[G.SHORT]:
            end += r.k[K.SHORT_GAME_OFFICE_END_VP]
        add_vp(st, c, VPS.END_OFFICES, end)
        if o == Office.ROADMAKER:
            add_vp(st, c, VPS.END_ROADMAKER, n_conn * r.k[K.OFFICE_ROADMAKER_CONNECTED_DISTRICT_VP])
        elif o == Office.DEFENDER:
            add_vp(st, c, VPS.END_DEFENDER, n_closed * r.k[K.OFFICE_DEFENDER_CLOSED_DISTRICT_VP])
        elif o == Office.BISHOP:
            add_vp(st, c, VPS.END_BISHOP, city_churches(st) * r.k[K.OFFICE_BISHOP_CHURCH_VP])
        elif o == Office.ARCHITECT:
            add_vp(st, c, VPS.END_ARCHITECT, city_majors(r, st) * r.k[K.OFFICE_ARCHITECT_MAJOR_VP])
        elif o == Office.GOVERNOR:
            add_vp(st, c, VPS.END_GOVERNOR, noble_districts(r, geo, st) * r.k[K.OFFICE_GOVERNOR_DISTRICT_VP])


# ---------------------------------------------------------------------------------------------- the ranking (RP-23)
@njit(cache=True)
def tie_value(r, st, c, t):
    """Colour ``c``'s number for tie-break ``t`` (a TieBreak): the coins left after the money exchange,
    the precious resources, the wood and stone resources."""
    if t == TieBreak.SILVER_LEFT:
        return st.pl[c, PK.SILVER] % r.k[K.SCORING_SILVER_PER_VP]
    if t == TieBreak.PRECIOUS:
        return st.pl[c, PK.PRECIOUS]
    return st.pl[c, PK.WOOD] + st.pl[c, PK.STONE]


@njit(cache=True)
def ahead(r, st, a, b):
    """Seat ``a`` finishes ahead of seat ``b``: more VP, else the first tie-break (r.tie_breaks, in
    order) that tells them apart."""
    if st.pl[a, PK.VP] != st.pl[b, PK.VP]:
        return st.pl[a, PK.VP] > st.pl[b, PK.VP]
    for i in range(r.tie_breaks.shape[0]):
        va = tie_value(r, st, a, r.tie_breaks[i])
        vb = tie_value(r, st, b, r.tie_breaks[i])
        if va != vb:
            return va > vb
    return False


@njit(cache=True)
def ranks(r, st, out):
    """``out[seat]``: the seats that finish ahead of it (0 = a winner). Seats still tied after every
    tie-break share a rank (standard competition ranking: 0, 0, 2, ...). Returns the number of winners."""
    players = st.g[G.PLAYERS]
    winners = 0
    for a in range(players):
        k = 0
        for b in range(players):
            if b != a and ahead(r, st, b, a):
                k += 1
        out[a] = k
        if k == 0:
            winners += 1
    return winners
