"""The city map: adjacency, the Starting Area, the Plaza Mayor, districts and their VP value, Walls
closing a district and Roads (GAME CONTENTS, the map; 1-2. MINOR BUILDING CONSTRUCTION, Construction
requirements; 11. MAJOR BUILDING, Walls and Roads; SCORING PHASE, VPS ASSIGNATION, the district
value; R-04).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

import numpy as np
from helpers import cell, clear_map, put, turn_rows
from numba import njit

from sim.city import (
    activatable,
    activation_place_ok,
    adjacent_to_own,
    can_activate_at,
    can_build_at,
    district_closed,
    district_value,
    mark_near_own,
    minor_space_ok,
    n_closed_districts,
)
from sim.codes import Act
from sim.major_buildings import major_open, n_spaces, place_on_grid, recover_completed
from sim.rules import RK
from sim.state import B, G, M, Sup


def test_adjacency_is_the_8_neighbours_across_district_borders(blank, rules):
    """'The player must select an empty space inside the Starting Area OR adjacent to a building
    they own (Lot, House, Palace, Monument or Fountain of their color).' 'ADJACENT SPACE: Any of the
    8 spaces around a selected space.' Activation: 'The activated building must be adjacent (on one
    of the surrounding 8 spaces) to a building of the player color'."""
    st, r = blank, rules
    clear_map(st)
    nc = st.cell_b.shape[0]
    x0, y0 = 3, 2  # N1's east column: three of its neighbours lie in N2
    put(st, r, x0, y0, B.LOT, 0)
    nbrs = {cell(r, x0 + dx, y0 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy}
    assert len(nbrs) == 8
    assert len({int(r.cell_district[c]) for c in nbrs}) == 2  # across a district border
    start = set(np.flatnonzero(r.cell_start).tolist())
    expect = {c for c in range(nc) if r.cell_buildable[c] and (c in start or c in nbrs)}
    assert {c for c in range(nc) if can_build_at(st, r, 0, c)} == expect
    # another player's Lot gives no adjacency
    assert {c for c in range(nc) if can_build_at(st, r, 1, c)} == start
    # activation needs adjacency: the Starting Area alone is not enough
    assert {c for c in range(nc) if can_activate_at(st, r, 0, c)} == nbrs
    assert not any(can_activate_at(st, r, 1, c) for c in start)
    # a Monument counts only when marked with the player's Status marker
    far = cell(r, 10, 1)
    assert not can_build_at(st, r, 0, far)
    put(st, r, 9, 0, B.MONUMENT, -1)
    assert not can_build_at(st, r, 0, far)
    put(st, r, 9, 0, B.MONUMENT, 0)
    assert can_build_at(st, r, 0, far) and can_activate_at(st, r, 0, far)


def test_near_own_mask_is_adjacency_on_every_space(blank, rules):
    """The TURN listing finds 'adjacent to a building they own' with one mask per decision
    (city.mark_near_own); on a crowded map with every kind of owner it must equal the per-space
    scan (city.adjacent_to_own) for every seat and every space."""
    st, r = blank, rules
    rng = np.random.default_rng(7)
    nc = st.cell_b.shape[0]
    kinds = [B.LOT, B.HOUSE, B.PALACE, B.MONUMENT, B.FOUNTAIN, B.QUARRY, B.CHURCH]
    near = np.zeros(nc, np.int32)
    seen = set()
    for _ in range(5):
        clear_map(st)
        for c in rng.choice(nc, size=nc // 3, replace=False):
            st.cell_b[c] = kinds[rng.integers(len(kinds))]
            st.cell_owner[c] = rng.integers(-1, 4)
        for seat in range(4):
            mark_near_own(st, r, seat, near)
            scan = [int(adjacent_to_own(st, r, seat, c)) for c in range(nc)]
            assert near.tolist() == scan
            seen.add(sum(scan))
    assert len(seen) > 5 and max(seen) < nc  # neither empty nor full: the check has teeth


@njit(cache=True)
def _fresh_scan(st, r, seat, near, cnt, first, acts):
    """The reference for city.own_spaces' memo: a scan of every space, as the rules define them
    (adjacent_to_own, minor_space_ok, activatable and activation_place_ok, one space at a time).
    Jitted only so that 2,400 scans of the map take seconds, not a minute of calls from Python.
    Fills ``near``, ``cnt``, ``first`` and ``acts``; returns how many spaces ``acts`` holds."""
    cnt[:] = 0
    first[:] = -1
    na = 0
    for x in range(near.shape[0]):
        near[x] = 1 if adjacent_to_own(st, r, seat, x) else 0
        if minor_space_ok(st, r, seat, x, near[x] == 1):
            b, dd = st.cell_b[x], r.cell_district[x] + 1
            if cnt[b, dd] == 0:
                first[b, dd] = x
            cnt[b, dd] += 1
        if activatable(st.cell_b[x]) and activation_place_ok(st, r, x, near[x] == 1):
            acts[na] = x
            na += 1
    return na


def test_own_spaces_kept_across_decisions_follow_every_map_change(blank, rules):
    """city.own_spaces keeps each seat's spaces, its 'adjacent to a building they own' mask and
    its buildable spaces by (building there, district) while the map stays the same. After any
    change of a building, an owner or a Road, one at a time (the way the game changes the map),
    it must give what a fresh scan gives (:func:`_fresh_scan`): the spaces with cell_owner == seat
    in map order, adjacent_to_own on every space, the count and first space of minor_space_ok
    spaces, and the spaces with an activatable building the seat may activate there, in map order."""
    from sim.city import own_spaces

    st, r = blank, rules
    rng = np.random.default_rng(11)
    nc = st.cell_b.shape[0]
    kinds = [B.NONE, B.LOT, B.HOUSE, B.PALACE, B.MONUMENT, B.FOUNTAIN, B.QUARRY, B.CHURCH]
    clear_map(st)
    st.own_key[:] = 0  # a blank state's memo is empty
    near = np.zeros(nc, np.int64)
    cnt = np.zeros_like(st.own_cnt[0])
    first = np.full_like(st.own_first[0], -1)
    scan_acts = np.zeros(nc, np.int64)
    moved = 0
    counted = 0
    act_changes = 0
    activatable_seen = 0
    for step in range(600):
        c = int(rng.integers(nc))
        if step % 3 == 0:
            st.cell_b[c] = kinds[rng.integers(len(kinds))]
        elif step % 3 == 1:
            st.cell_owner[c] = rng.integers(-1, 4)
        else:
            d = int(rng.integers(st.roads.shape[0]))
            st.roads[d] = 1 - st.roads[d]
        for seat in range(4):
            before = (st.own_near[seat].copy(), st.own_cnt[seat].copy(), st.own_act[seat, :st.own_n[seat, 1]].tolist())
            n = own_spaces(st, r, int(seat))
            assert st.own_list[seat, :n].tolist() == [x for x in range(nc) if st.cell_owner[x] == seat]
            na = _fresh_scan(st, r, seat, near, cnt, first, scan_acts)
            assert st.own_near[seat].tolist() == near.tolist()
            np.testing.assert_array_equal(st.own_cnt[seat], cnt, err_msg=f"step {step}, seat {seat}")
            np.testing.assert_array_equal(st.own_first[seat], first, err_msg=f"step {step}, seat {seat}")
            acts = scan_acts[:na].tolist()
            assert st.own_act[seat, :st.own_n[seat, 1]].tolist() == acts, f"step {step}, seat {seat}"
            moved += not np.array_equal(before[0], st.own_near[seat])
            counted += not np.array_equal(before[1], st.own_cnt[seat])
            activatable_seen = max(activatable_seen, len(acts))
            act_changes += acts != before[2]
    # the memo did change along the way, Roads included: one that never refreshed would fail
    assert moved > 40 and counted > 200 and act_changes > 100 and activatable_seen > 3, (moved, counted, act_changes, activatable_seen)


def test_plaza_mayor_is_never_built_on(blank, rules):
    """'The four spaces on the map above the Fort space form the Plaza Mayor ... They remain empty
    and no building can be built upon them.' (even with Roads, which let players 'freely build')."""
    st, r = blank, rules
    clear_map(st)
    st.roads[:] = 1
    put(st, r, 4, 4, B.LOT, 0)  # own Lots next to the Plaza Mayor
    put(st, r, 7, 5, B.LOT, 0)
    plaza = set(np.flatnonzero(r.cell_plaza).tolist())
    assert len(plaza) == 4
    assert not any(can_build_at(st, r, 0, c) for c in plaza)
    rows = turn_rows(st, r, 0, Act.BUILD)
    built_on = {int(c) for c in rows[:, 2]}
    assert built_on and not (built_on & plaza)
    assert cell(r, 4, 5) in built_on  # the spaces around the Plaza are fine
    assert all(r.cell_district[c] >= 0 for c in built_on)  # nor below it (the Fort row)


def test_walls_close_a_district_only_when_all_its_segments_hold_a_wall(blank, rules):
    """'If the district's external side(s) are entirely protected by walls, the district is closed
    by walls and gains +5 VPs to its VP value' ... 'only the 6 districts along the city perimeters
    can be closed by walls; the two Central districts cannot gain the related VPs bonus.'"""
    st, r = blank, rules
    clear_map(st)
    bonus = int(r.k[RK.DISTRICT_BONUS])
    for d in range(r.district_nseg.shape[0]):
        st.walls[:] = 0
        base = district_value(st, r, d)
        segs = np.flatnonzero(r.seg_district == d)
        st.walls[:] = 1
        if len(segs) == 0:  # a central district
            assert not district_closed(st, r, d) and district_value(st, r, d) == base
            continue
        for missing in segs:  # every other wall on the perimeter, one of this district's missing
            st.walls[:] = 1
            st.walls[missing] = 0
            assert not district_closed(st, r, d), (d, missing)
            assert district_value(st, r, d) == base
        st.walls[:] = 0
        st.walls[segs] = 1  # this district's own segments are enough
        assert district_closed(st, r, d) and district_value(st, r, d) == base + bonus
        assert n_closed_districts(st, r) == 1
    st.walls[:] = 1
    assert n_closed_districts(st, r) == 6


def test_roads_let_anyone_build_and_activate_in_the_district(blank, rules):
    """'A district with Roads gains +5 VPs to its VP value during the Scoring phase. In addition to
    this, the players can freely build and activate any building in this district, no matter if
    they have an adjacent building.'"""
    st, r = blank, rules
    clear_map(st)
    quarry = cell(r, 0, 0)  # N1, far from the Starting Area
    put(st, r, 0, 0, B.QUARRY)
    free = cell(r, 1, 1)
    other = cell(r, 4, 0)  # N2
    d = int(r.cell_district[quarry])
    assert r.cell_district[other] != d
    assert not can_build_at(st, r, 0, free) and not can_activate_at(st, r, 0, quarry)
    assert not (turn_rows(st, r, 0, Act.ACTIVATE)[:, 2] == quarry).any()
    base = district_value(st, r, d)
    st.roads[d] = 1
    assert can_build_at(st, r, 0, free) and can_activate_at(st, r, 0, quarry)
    assert not can_build_at(st, r, 0, other)
    assert (turn_rows(st, r, 0, Act.ACTIVATE)[:, 2] == quarry).any()
    assert district_value(st, r, d) == base + r.k[RK.DISTRICT_BONUS]
    # 'The player who completed the Road grid chooses a District without Roads and places a District
    # Road marker on the corresponding space of the mini-map' ... 'as long as District Road markers are available.'
    st.roads[:] = 1
    st.roads[2] = 0  # the only district without Roads
    sup0 = int(st.supply[Sup.ROAD_MARKERS])
    place_on_grid(st, r, 1, M.ROADS, n_spaces(st, r, M.ROADS))
    assert st.roads.all() and st.supply[Sup.ROAD_MARKERS] == sup0 - 1
    recover_completed(st, r)
    assert not major_open(st, r, M.ROADS)  # every district has Roads


def test_district_value_example(blank, rules):
    """'a district with a Cathedral (+5), Barracks (+2), a Church (+2), Monument (+2), Quarry (0,
    first production building), and Market (-1) has a value of 10 VPs.'"""
    st = blank
    clear_map(st)
    put(st, rules, 6, 7, B.CATHEDRAL)  # both spaces in S2, around the Plaza Mayor
    put(st, rules, 7, 7, B.CATHEDRAL)
    st.g[G.CATHEDRAL_BUILT] = 1
    put(st, rules, 4, 7, B.BARRACKS)
    put(st, rules, 5, 7, B.CHURCH)
    put(st, rules, 4, 6, B.MONUMENT)
    put(st, rules, 5, 6, B.QUARRY)
    put(st, rules, 6, 6, B.MARKET)
    assert district_value(st, rules, 5) == 10  # S2
    put(st, rules, 6, 6, B.NONE)
    assert district_value(st, rules, 5) == 11  # a single production building costs nothing


def test_cathedral_split_gives_two_each(blank, rules):
    """Cathedral: 'If the Cathedral is placed on spaces belonging to two districts ..., the two districts
    divide the bonus to the VP value of the district, gaining +2 VPs bonus each.'"""
    st = blank
    clear_map(st)
    put(st, rules, 7, 7, B.CATHEDRAL)  # S2 | S3, north of the Plaza Mayor
    put(st, rules, 8, 7, B.CATHEDRAL)
    assert district_value(st, rules, 5) == 2 and district_value(st, rules, 6) == 2


def test_own_spaces_patched_memo_matches_a_fresh_scan_after_several_changes(blank, rules):
    """city.own_spaces patches a seat's memo in place (city._memo_patch) when up to PATCH_CELLS spaces
    changed and none was the seat's: after each batch of 1-10 changes (other seats' buildings put up or
    taken down, the seat's own now and then, a Road rarely), every seat's memo must be what a fresh scan
    gives (:func:`_fresh_scan`), the patched ones and the rebuilt ones alike."""
    from sim.city import PATCH_CELLS, _memo_patch, own_spaces

    st, r = blank, rules
    rng = np.random.default_rng(23)
    nc = st.cell_b.shape[0]
    kinds = [B.NONE, B.LOT, B.HOUSE, B.PALACE, B.MONUMENT, B.FOUNTAIN, B.QUARRY, B.CARPENTRY, B.CHURCH]
    clear_map(st)
    st.own_key[:] = 0
    near = np.zeros(nc, np.int64)
    cnt = np.zeros_like(st.own_cnt[0])
    first = np.full_like(st.own_first[0], -1)
    scan_acts = np.zeros(nc, np.int64)
    patched = 0
    for step in range(400):
        for _ in range(int(rng.integers(1, 11))):
            c = int(rng.integers(nc))
            st.cell_b[c] = kinds[rng.integers(len(kinds))]
            st.cell_owner[c] = -1 if st.cell_b[c] == B.NONE else rng.integers(-1, 4)
        if step % 25 == 0:
            d = int(rng.integers(st.roads.shape[0]))
            st.roads[d] = 1 - st.roads[d]
        for seat in range(4):
            probe = (st.own_cnt[seat].copy(), st.own_first[seat].copy(), st.own_act[seat].copy(), st.own_key[seat].copy(),
                     st.own_n[seat].copy())
            if _memo_patch(st, r, int(seat)):  # counted, then undone so own_spaces takes the same path
                patched += 1
            st.own_cnt[seat], st.own_first[seat], st.own_act[seat], st.own_key[seat], st.own_n[seat] = probe
            n = own_spaces(st, r, int(seat))
            assert st.own_list[seat, :n].tolist() == [x for x in range(nc) if st.cell_owner[x] == seat]
            na = _fresh_scan(st, r, seat, near, cnt, first, scan_acts)
            assert st.own_near[seat].tolist() == near.tolist()
            np.testing.assert_array_equal(st.own_cnt[seat], cnt, err_msg=f"step {step}, seat {seat}")
            np.testing.assert_array_equal(st.own_first[seat], first, err_msg=f"step {step}, seat {seat}")
            assert st.own_act[seat, :st.own_n[seat, 1]].tolist() == scan_acts[:na].tolist(), f"step {step}, seat {seat}"
    assert PATCH_CELLS >= 1 and patched > 200, patched
