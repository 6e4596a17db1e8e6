"""The city map: placement (Starting Area, adjacency, Roads), districts, Walls and the district
VP value (1-2. Construction requirements; 11. MAJOR BUILDING; SCORING PHASE City).
"""

import numpy as np
from numba import njit

from sim.rules import RK
from sim.state import PF, B, G


@njit(cache=True)
def owns_marker_building(st, seat, c):
    """A building 'of the player's colour' for adjacency: Lot, House, Palace, or a Monument/
    Fountain marked with the player's Status marker."""
    b = st.cell_b[c]
    if st.cell_owner[c] != seat:
        return False
    return b == B.LOT or b == B.HOUSE or b == B.PALACE or b == B.MONUMENT or b == B.FOUNTAIN


@njit(cache=True)
def activatable(b):
    """Building type b is a production or service building a worker can activate (2. Minor
    building activation): Quarry to Church, not the Square, Monument or Fountain."""
    return b >= B.QUARRY and b <= B.CHURCH and b != B.SQUARE and b != B.MONUMENT and b != B.FOUNTAIN


@njit(cache=True)
def adjacent_to_own(st, r, seat, c):
    for k in range(8):
        a = r.adj[c, k]
        if a < 0:
            break
        if owns_marker_building(st, seat, a):
            return True
    return False


@njit(cache=True)
def mark_near_own(st, r, seat, near):
    """near[c] = 1 for every space adjacent to a building of the seat's colour, else 0: the same
    answer as :func:`adjacent_to_own` on each space (the map's adjacency is symmetric), in one pass
    over the seat's buildings instead of one neighbour scan per space."""
    for c in range(st.cell_b.shape[0]):
        near[c] = 0
    for c in range(st.cell_b.shape[0]):
        if owns_marker_building(st, seat, c):
            for q in range(r.adj.shape[1]):
                a = r.adj[c, q]
                if a < 0:
                    break
                near[a] = 1


@njit(cache=True)
def own_spaces(st, r, seat):
    """The seat's spaces (``st.own_list[seat]``, in map order; returns their count), the spaces
    next to a building of its colour (``st.own_near[seat]``, :func:`mark_near_own`), and the spaces
    it may put a Minor building on (:func:`minor_space_ok`), counted by the building already there
    and the district (``st.own_cnt[seat]``, the first of each in ``st.own_first[seat]``), and the
    spaces whose building it may activate there (:func:`activatable` and :func:`activation_place_ok`,
    in map order: ``st.own_act[seat]``, their count in ``st.own_n[seat, 1]``). All read
    only cell_b, cell_owner and the Roads, which change a few dozen times in a game of about 220
    TURN decisions: they are kept per seat with the map they were made from (``st.own_key[seat]``,
    compared in full) and made again only when it differs."""
    key = st.own_key[seat]
    nc = st.cell_b.shape[0]
    nd = st.roads.shape[0]
    o = 2 * nc + nd
    diff = key[o] ^ 1  # 0 in a blank state: empty
    for c in range(nc):  # ORs of XORs, no early exit: the loop vectorises
        diff |= (key[c] ^ st.cell_b[c]) | (key[nc + c] ^ st.cell_owner[c])
    for d in range(nd):
        diff |= key[2 * nc + d] ^ st.roads[d]
    if diff == 0:
        return st.own_n[seat, 0]
    if _memo_patch(st, r, seat):
        return st.own_n[seat, 0]
    near = st.own_near[seat]
    mark_near_own(st, r, seat, near)
    own = st.own_list[seat]
    cnt = st.own_cnt[seat]
    first = st.own_first[seat]
    cnt[:] = 0
    first[:] = -1
    acts = st.own_act[seat]
    n = 0
    na = 0
    for c in range(nc):
        if st.cell_owner[c] == seat:
            own[n] = c
            n += 1
        b = st.cell_b[c]
        if b < cnt.shape[0] and minor_space_ok(st, r, seat, c, near[c] == 1):
            dd = r.cell_district[c] + 1
            if cnt[b, dd] == 0:
                first[b, dd] = c
            cnt[b, dd] += 1
        if activatable(b) and activation_place_ok(st, r, c, near[c] == 1):
            acts[na] = c
            na += 1
    key[:nc] = st.cell_b
    key[nc:2 * nc] = st.cell_owner
    key[2 * nc:o] = st.roads
    key[o] = 1
    st.own_n[seat, 0] = n
    st.own_n[seat, 1] = na
    return n


PATCH_CELLS = 8  # a memo patched (:func:`_memo_patch`) for at most this many changed spaces, else made again


@njit(cache=True)
def _memo_patch(st, r, seat):
    """:func:`own_spaces`' memo brought up to the map in place, when that is what making it again gives: the
    memo is valid, the Roads are as it was made, and at most :data:`PATCH_CELLS` spaces changed, none of them
    the seat's before or after (another seat's building, or one removed). Then the seat's spaces and the
    spaces next to its buildings stay (both read only its own spaces), each changed space's requirement
    reads the same Roads and neighbours, and only that space's entry in the counts by (building there,
    district), their first spaces and the activation list (in map order) moves. Most rebuilds in a
    search's simulations were another seat's Lot or House; returns False (nothing changed) otherwise."""
    key = st.own_key[seat]
    nc = st.cell_b.shape[0]
    nd = st.roads.shape[0]
    o = 2 * nc + nd
    if key[o] != 1:
        return False
    for d in range(nd):
        if key[2 * nc + d] != st.roads[d]:
            return False
    cells = np.empty(PATCH_CELLS, np.int64)  # the changed spaces, in map order
    changed = 0
    for c in range(nc):
        if key[c] != st.cell_b[c] or key[nc + c] != st.cell_owner[c]:
            if key[nc + c] == seat or st.cell_owner[c] == seat or changed == PATCH_CELLS:
                return False
            cells[changed] = c
            changed += 1
    near = st.own_near[seat]
    cnt = st.own_cnt[seat]
    first = st.own_first[seat]
    acts = st.own_act[seat]
    na = st.own_n[seat, 1]
    nb = cnt.shape[0]
    for x in range(changed):
        c = cells[x]
        ob = key[c]
        b = st.cell_b[c]
        dd = r.cell_district[c] + 1
        nr = near[c] == 1
        # the space's old entry out (not the seat's: a Lot or House there never counted for it)
        if ob < nb and ob != B.LOT and ob != B.HOUSE and construction_ok(st, r, c, nr):
            cnt[ob, dd] -= 1
            if first[ob, dd] == c:
                first[ob, dd] = -1
                for c2 in range(c + 1, nc):
                    if (st.cell_b[c2] == ob and r.cell_district[c2] + 1 == dd
                            and minor_space_ok(st, r, seat, c2, near[c2] == 1)):
                        first[ob, dd] = c2
                        break
        if activatable(ob) and activation_place_ok(st, r, c, nr):
            j = 0
            while j < na and acts[j] != c:
                j += 1
            if j == na:
                raise AssertionError("own_spaces: an activation space missing from the memo")
            for q in range(j, na - 1):
                acts[q] = acts[q + 1]
            na -= 1
        # and its new one in
        if b < nb and minor_space_ok(st, r, seat, c, nr):
            cnt[b, dd] += 1
            if first[b, dd] < 0 or c < first[b, dd]:
                first[b, dd] = c
        if activatable(b) and activation_place_ok(st, r, c, nr):
            j = na
            while j > 0 and acts[j - 1] > c:
                acts[j] = acts[j - 1]
                j -= 1
            acts[j] = c
            na += 1
    for x in range(changed):
        key[cells[x]] = st.cell_b[cells[x]]
        key[nc + cells[x]] = st.cell_owner[cells[x]]
    st.own_n[seat, 1] = na
    return True


@njit(cache=True)
def city_memo_start(st, r, n):
    """Every one of the ``n`` seats' city memo (:func:`own_spaces`) made for ``st``'s map: the start of a
    search's simulations, each of which copies it (:func:`copy_city_memo`) with the map it was made from.
    Without it, a simulation starts from the memos the previous one ended with, made for the map as that
    one left it: every seat's first listing rebuilt its memo (most of :func:`own_spaces`' time in `best`'s
    games, measured by perf)."""
    for s in range(n):
        own_spaces(st, r, s)


@njit(cache=True)
def copy_city_memo(dst, src, n):
    """The ``n`` seats' city memo of ``src`` into ``dst`` (:func:`city_memo_start`). A memo carries the map
    it was made from (``own_key``, compared in full), so copying one never changes a listing: only whether
    the next :func:`own_spaces` call makes it again."""
    dst.own_key[:n] = src.own_key[:n]
    dst.own_n[:n] = src.own_n[:n]
    dst.own_near[:n] = src.own_near[:n]
    dst.own_list[:n] = src.own_list[:n]
    dst.own_cnt[:n] = src.own_cnt[:n]
    dst.own_first[:n] = src.own_first[:n]
    dst.own_act[:n] = src.own_act[:n]


@njit(cache=True)
def minor_space_ok(st, r, seat, c, near_own):
    """Space c can take a Minor building of the seat's (1-2. Minor building construction) whose
    requirement is the building now there: a House or Palace goes on the seat's own Lot or House;
    anything else on a space that meets :func:`construction_ok`."""
    b = st.cell_b[c]
    if b == B.LOT or b == B.HOUSE:
        return st.cell_owner[c] == seat
    return construction_ok(st, r, c, near_own)


@njit(cache=True)
def has_roads(st, r, c):
    d = r.cell_district[c]
    return d >= 0 and st.roads[d] == 1


@njit(cache=True)
def construction_ok(st, r, c, near_own):
    """Construction requirements (1. Minor building construction): a buildable space in the Starting
    Area, OR adjacent to an own building (``near_own``), OR in a district with Roads ("players can
    freely build ... in this district")."""
    if r.cell_buildable[c] == 0:
        return False
    return r.cell_start[c] == 1 or near_own or has_roads(st, r, c)


@njit(cache=True)
def activation_place_ok(st, r, c, near_own):
    """Activation limitations (2. Minor building activation): adjacent to an own Lot/House/Palace/
    marked Monument/Fountain (``near_own``), or in a district with Roads."""
    return near_own or has_roads(st, r, c)


@njit(cache=True)
def can_build_at(st, r, seat, c):
    """:func:`construction_ok` for one space, adjacency scanned on the spot."""
    return construction_ok(st, r, c, adjacent_to_own(st, r, seat, c))


@njit(cache=True)
def can_activate_at(st, r, seat, c):
    """:func:`activation_place_ok` for one space, adjacency scanned on the spot."""
    return activation_place_ok(st, r, c, adjacent_to_own(st, r, seat, c))


@njit(cache=True)
def district_closed(st, r, d):
    """A district is closed by Walls when all its perimeter segments hold a wall."""
    if r.district_nseg[d] == 0:
        return False
    for s in range(r.seg_district.shape[0]):
        if r.seg_district[s] == d and st.walls[s] == 0:
            return False
    return True


@njit(cache=True)
def n_closed_districts(st, r):
    n = 0
    for d in range(r.district_nseg.shape[0]):
        if district_closed(st, r, d):
            n += 1
    return n


@njit(cache=True)
def n_road_districts(st):
    return st.roads.sum()


@njit(cache=True)
def cathedral_districts(st, r, out):
    """The districts the Cathedral stands in: out[0], out[1] (-1 when none). Returns the count."""
    out[0] = -1
    out[1] = -1
    n = 0
    for c in range(st.cell_b.shape[0]):
        if st.cell_b[c] == B.CATHEDRAL:
            d = r.cell_district[c]
            if n == 0:
                out[0] = d
                n = 1
            elif d != out[0]:
                out[1] = d
                n = 2
    return n


@njit(cache=True)
def district_tally(st, r, seat, d):
    """One pass over district d's spaces: (district VP value, the seat's buildings of its colour
    there (:func:`owns_marker_building`), the seat's Houses and Palaces there). The value is the
    SCORING PHASE's (City): -1 per production building beyond the first, +2 per Fountain/Monument/
    Church/Corporation/Hacienda/Barracks, +5 Roads, +5 closed by Walls, +5 Fort and +5 Harbor (all
    districts), +5 Cabildo, +5 Cathedral (+2 each when split). ``seat`` -1 counts nothing for a seat."""
    v = 0
    prod = 0
    cath_cells = 0
    own = 0
    homes = 0
    for i in range(r.district_ncells[d]):
        c = r.district_cells[d, i]
        b = st.cell_b[c]
        if b == B.NONE:
            continue
        if seat >= 0 and owns_marker_building(st, seat, c):
            own += 1
            if b == B.HOUSE or b == B.PALACE:
                homes += 1
        if b == B.CATHEDRAL:
            cath_cells += 1
            continue
        if r.b_prod[b] == 1:
            prod += 1
        else:
            v += r.b_dv[b]
    if prod > 1:
        v += (prod - 1) * r.k[RK.PRODUCTION_PENALTY]
    bonus = r.k[RK.DISTRICT_BONUS]
    if st.roads[d] == 1:
        v += bonus
    if district_closed(st, r, d):
        v += bonus
    if st.g[G.FORT_BUILT] == 1:
        v += bonus
    if st.g[G.HARBOR_BUILT] == 1:
        v += bonus
    if cath_cells == 2:
        v += r.b_dv[B.CATHEDRAL]
    elif cath_cells == 1:
        v += r.k[RK.CATHEDRAL_SPLIT]
    return v, own, homes


@njit(cache=True)
def district_value(st, r, d):
    """VP value of a district (SCORING PHASE, City): see :func:`district_tally`."""
    return district_tally(st, r, -1, d)[0]


@njit(cache=True)
def own_buildings_in_district(st, r, seat, d):
    """Buildings of the player's colour in a district (Lots, Houses, Palaces, marked Monuments/Fountains)."""
    n = 0
    for i in range(r.district_ncells[d]):
        if owns_marker_building(st, seat, r.district_cells[d, i]):
            n += 1
    return n


@njit(cache=True)
def house_value(st, r, seat, d, faith, dv):
    """VP of one House: own buildings in the district + 1 per Faith token, capped by the district value."""
    v = own_buildings_in_district(st, r, seat, d) + faith * r.k[RK.HOUSE_PER_FAITH]
    return min(v, dv)


@njit(cache=True)
def palace_value(r, faith, dv):
    """VP of one Palace: district value + 10 + 3 per Faith token."""
    return dv + r.k[RK.PALACE_BASE] + faith * r.k[RK.PALACE_PER_FAITH]


@njit(cache=True)
def _homes_vp(st, r, seat, largest):
    """The seat's Houses and Palaces scored as the SCORING PHASE scores them (City), now: their sum,
    or (``largest``) the largest single assignation."""
    t = 0
    faith = st.pl[seat, PF.FAITH]
    for d in range(r.district_ncells.shape[0]):
        dv = -1_000_000
        for j in range(r.district_ncells[d]):
            c = r.district_cells[d, j]
            if st.cell_owner[c] != seat or (st.cell_b[c] != B.HOUSE and st.cell_b[c] != B.PALACE):
                continue
            if dv == -1_000_000:
                dv = district_value(st, r, d)
            v = house_value(st, r, seat, d, faith, dv) if st.cell_b[c] == B.HOUSE else palace_value(r, faith, dv)
            t = max(t, v) if largest else t + v
    return t


@njit(cache=True)
def city_vp(st, r, seat):
    """The seat's Houses and Palaces scored as the SCORING PHASE scores them (City), now: the Solo
    A.I.'s placements (sim.ai_choice), a human's valuation of the A.I.'s ties (strategies.ai_tie) and
    the scoring (sim.scoring.city_total) all read it, so it lives below the seam."""
    return _homes_vp(st, r, seat, False)


@njit(cache=True)
def largest_home(st, r, seat):
    """The seat's largest single City assignation now: its best House or Palace (SCORING PHASE; the
    VP status bonus goes to one assignation, strategies.ai_tie)."""
    return _homes_vp(st, r, seat, True)


@njit(cache=True)
def city_vp_walled(st, r, seat, d):
    """The seat's :func:`city_vp` with district ``d`` closed by Walls (its free segments walled for
    the count, then freed again)."""
    nseg = r.seg_district.shape[0]
    mark = np.zeros(nseg, np.int32)
    for s in range(nseg):
        if r.seg_district[s] == d and st.walls[s] == 0:
            st.walls[s] = 1
            mark[s] = 1
    v = city_vp(st, r, seat)
    for s in range(nseg):
        if mark[s] == 1:
            st.walls[s] = 0
    return v


@njit(cache=True)
def count_type(st, b):
    n = 0
    for c in range(st.cell_b.shape[0]):
        if st.cell_b[c] == b:
            n += 1
    return n


@njit(cache=True)
def count_owned(st, seat, b):
    n = 0
    for c in range(st.cell_b.shape[0]):
        if st.cell_b[c] == b and st.cell_owner[c] == seat:
            n += 1
    return n


@njit(cache=True)
def district_occupied(st, r, d):
    n = 0
    for i in range(r.district_ncells[d]):
        if st.cell_b[r.district_cells[d, i]] != B.NONE:
            n += 1
    return n


@njit(cache=True)
def next_to_faith(st, r, c):
    """A Church or the Cathedral stands on a space adjacent to c (Bishop: Monuments and Fountains
    "adjacent to Churches and/or Cathedral")."""
    for k in range(8):
        a = r.adj[c, k]
        if a < 0:
            break
        if st.cell_b[a] == B.CHURCH or st.cell_b[a] == B.CATHEDRAL:
            return True
    return False
