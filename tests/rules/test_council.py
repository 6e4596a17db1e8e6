"""9. CITY COUNCIL, CITY COUNCIL VOTE and the laws: the vote and its tally, the City Council value
and its penalty below 1, the Peace Act, War Proclamation, Major Building Act and Spain support Act
(with the rulebook's worked examples).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

import numpy as np
from helpers import clear_map, set_items

from sim.city import count_type
from sim.codes import Law
from sim.core import CCW
from sim.council_vote import SIDE_ABSTAIN, SIDE_NO, SIDE_YES, apply_law, call_vote, can_call_vote, council_cost, law_options, tally
from sim.major_buildings import major_open, n_spaces, place_on_grid, recover_completed
from sim.rules import RK
from sim.state import PF, VS, B, G, M, Sup


def test_peace_act_is_paid_before_the_vote_and_places_a_marker(blank, rules):
    """'Peace Act. As a requirement, the legislator must pay 1 silver coin before the vote. If approved,
    a new peace marker is put on the current or next decade on the Decade track'. 'Only one vote is
    permitted per decade' 'Assign 4 VPs x Era to the faction which wins the vote' '1 or more
    abstentions breaks unanimity.' 'each player decreases their own City Council value of the value of
    tokens used.' Blue banner: 'When a player wins a City Council vote, they gain the blue banner:
    place it face-down'."""
    st, r = blank, rules

    def laws(seat):
        k = law_options(st, r, seat, 0)
        return [tuple(x) for x in st.opts[:k, 1:3].tolist()]

    set_items(st, 0)
    assert not [x for x in laws(0) if x[0] == Law.PEACE]
    set_items(st, 0, silver=r.k[RK.PEACE_ACT_SILVER])
    assert {x for x in laws(0) if x[0] == Law.PEACE} == {(Law.PEACE, 0), (Law.PEACE, 1)}
    d, era = int(st.g[G.DECADE]), int(st.g[G.ERA])
    sup, vp0, cp0 = int(st.supply[Sup.SILVER]), int(st.pl[0, PF.VP]), int(st.pl[0, PF.COUNCIL])
    assert can_call_vote(st, r, 0)
    call_vote(st, r, 0, Law.PEACE, 1)  # greedy: the legislator votes yes with 1, the others abstain
    assert st.pl[0, PF.SILVER] == 0 and st.supply[Sup.SILVER] == sup + r.k[RK.PEACE_ACT_SILVER]
    assert st.peace[d + 1] == 1 and st.peace[d] == 0
    assert st.g[G.VOTE_DONE] == 1 and not can_call_vote(st, r, 0) and not can_call_vote(st, r, 1)
    assert st.card_rot[st.pl[0, PF.CHARACTER]] == 1
    assert st.pl[0, PF.VP] - vp0 == r.k[RK.VOTE_VP_PER_ERA] * era
    assert st.pl[0, PF.COUNCIL] == cp0 - 1 and st.pl[0, PF.BANNER_BLUE] == 1
    assert (st.pl[1:4, PF.BANNER_BLUE] == 0).all()


def test_peace_and_spain_markers_go_to_the_first_free_decade(blank, rules):
    """Peace Act: 'a new peace marker is put on the current or next decade on the Decade track (or on
    the first available space if there is already a peace marker).' Spain support Act: 'If approved,
    a black cube marker (a metal resource) is put on the current or next decade on the Decade track.'"""
    st, r = blank, rules
    d = int(st.g[G.DECADE])
    for law, track in ((Law.PEACE, st.peace), (Law.SPAIN, st.spain)):
        track[:] = 0
        apply_law(st, r, 0, law, 1)
        assert np.flatnonzero(track).tolist() == [d + 1]
        apply_law(st, r, 0, law, 0)
        assert np.flatnonzero(track).tolist() == [d, d + 1]
        apply_law(st, r, 0, law, 0)
        assert np.flatnonzero(track).tolist() == [d, d + 1, d + 2]


def test_war_proclamation_removes_a_peace_marker_or_raises_native_tension(blank, rules):
    """'War Proclamation. If approved, and there is a peace marker in the current or next decade, the
    legislator removes it. If approved and there is no peace marker in current or next decade, the
    legislator increases the Tension level with Natives by 3 steps.'"""
    st, r = blank, rules
    d = int(st.g[G.DECADE])
    st.peace[:] = 0
    st.peace[d + 1] = 1
    apply_law(st, r, 0, Law.WAR, 0)
    assert st.peace.sum() == 0 and st.g[G.NAT_POS] == 0 and st.g[G.PIR_POS] == 0
    st.peace[d + 2] = 1  # not the current or next decade
    apply_law(st, r, 0, Law.WAR, 0)
    assert st.g[G.NAT_POS] == r.k[RK.WAR_PROCLAMATION] and st.g[G.PIR_POS] == 0
    assert st.peace[d + 2] == 1


def test_peace_markers_come_from_the_supply_of_three(blank, rules):
    """GAME CONTENTS: '3 Peace markers'. Peace Act: 'a new peace marker is put on the current or next
    decade'; War Proclamation: 'the legislator removes it'; 4. REFILL: 'Remove any marker (peace,
    coin, cube, etc.) from the current decade of the Decade track and place them on game supply.'
    The reading (sim.council_vote.law_options): with no Peace marker left in the supply the Peace Act
    cannot be proposed, and approved with none left it places none."""
    st, r = blank, rules
    d = int(st.g[G.DECADE])
    st.peace[:] = 0
    box = int(r.supply_n[2, Sup.PEACE])
    assert box == 3 and st.supply[Sup.PEACE] == box  # 4 players: r.supply_n[n - 2]
    set_items(st, 0, silver=r.k[RK.PEACE_ACT_SILVER])

    def peace_rows():
        k = law_options(st, r, 0, 0)
        return [x for x in st.opts[:k, 1:3].tolist() if x[0] == Law.PEACE]

    for i in range(box):
        assert len(peace_rows()) == 2
        apply_law(st, r, 0, Law.PEACE, 0)
        assert st.supply[Sup.PEACE] == box - 1 - i and st.peace.sum() == i + 1
    assert peace_rows() == []  # none left: the Act is not offered
    apply_law(st, r, 0, Law.PEACE, 0)  # and approved anyway, it places nothing
    assert st.peace.sum() == box and st.supply[Sup.PEACE] == 0
    apply_law(st, r, 0, Law.WAR, 0)  # removes the marker of the current decade: back to the supply
    assert st.peace[d] == 0 and st.supply[Sup.PEACE] == 1 and len(peace_rows()) == 2


def test_peace_marker_count_is_a_setup_rule(engine):
    """``setup.peace_markers`` is the supply the engine starts with (an override makes a variant)."""
    from sim.game import allocate, setup
    from sim.rules import load_rules
    from sim.state import MAX_PLAYERS

    _, W = engine
    for n_markers in (0, 5):
        r = load_rules(overrides={"setup": {"peace_markers": n_markers}})
        st = allocate(r)
        strat = np.zeros(MAX_PLAYERS, np.int32)
        setup(st, r, W, 4, strat, np.full(5, -1, np.int32), np.zeros(5, np.int32), 0)
        assert st.supply[Sup.PEACE] == n_markers
        st.g[G.DECADE] = 1
        set_items(st, 0, silver=r.k[RK.PEACE_ACT_SILVER])
        k = law_options(st, r, 0, 0)
        assert any(st.opts[i, 1] == Law.PEACE for i in range(k)) == (n_markers > 0)


def test_spain_support_cube_is_a_metal_resource_from_the_supply(blank, rules):
    """Spain support Act: 'If approved, a black cube marker (a metal resource) is put on the current or
    next decade on the Decade track.' 4. REFILL: the markers of the current decade (the cube too)
    go back to the game supply. The metal comes from the game supply (12 in the box: components.metal);
    with none there the Act cannot be proposed (the reading of sim.council_vote.law_options)."""
    from helpers import quiet_deck

    from sim.game import end_of_decade

    st, r = blank, rules
    d = int(st.g[G.DECADE])
    st.spain[:] = 0
    metal = int(st.supply[Sup.METAL])
    assert metal > 0
    apply_law(st, r, 0, Law.SPAIN, 0)
    assert st.spain[d] == 1 and st.supply[Sup.METAL] == metal - 1
    # the cube leaves the track at the end of its decade, back to the metal supply
    quiet_deck(st, r)
    st.g[G.NAT_POS] = st.g[G.PIR_POS] = 0
    end_of_decade(st, r)
    assert st.spain.sum() == 0 and st.supply[Sup.METAL] == metal
    # no metal in the supply: no Spain support Act
    held = int(st.supply[Sup.METAL])
    st.pl[0, PF.METAL] += held
    st.supply[Sup.METAL] = 0
    k = law_options(st, r, 0, 0)
    assert not any(st.opts[i, 1] == Law.SPAIN for i in range(k))
    apply_law(st, r, 0, Law.SPAIN, 0)
    assert st.spain.sum() == 0 and st.supply[Sup.METAL] == 0


def test_major_building_act_places_up_to_3_council_workers(blank, rules):
    """'Major Building Act ... If approved, the legislator places up to 3 City Council workers in the
    selected building grid. If there are not enough City Council Workers in the game supply, place
    only the disks available. These workers do not provide VPs'."""
    st, r = blank, rules
    n = int(r.k[RK.MAJOR_ACT_WORKERS])
    sup, vp0 = int(st.supply[Sup.COUNCIL_WORKERS]), int(st.pl[0, PF.VP])
    assert sup >= n and n < n_spaces(st, r, M.FORT)
    apply_law(st, r, 0, Law.MAJOR_BUILDING, M.FORT)
    assert (st.major[M.FORT] == CCW).sum() == n and st.supply[Sup.COUNCIL_WORKERS] == sup - n
    assert st.pl[0, PF.VP] == vp0 and st.g[G.FORT_BUILT] == 0  # no first-worker VP; not complete
    st.supply[Sup.COUNCIL_WORKERS] = n - 1
    apply_law(st, r, 0, Law.MAJOR_BUILDING, M.HARBOR)
    assert (st.major[M.HARBOR] == CCW).sum() == n - 1 and st.supply[Sup.COUNCIL_WORKERS] == 0
    # the law can only name a grid still open
    st.major_state[M.CABILDO, 1] = 1
    k = law_options(st, r, 0, 0)
    named = {int(m) for law, m in st.opts[:k, 1:3].tolist() if law == Law.MAJOR_BUILDING}
    assert M.CABILDO not in named and M.FORT in named


def test_major_building_act_in_the_last_decade_completes_the_building(blank, rules):
    """'If the current decade is the final one, without placing city council workers and even if
    incomplete, the building is immediately completed and placed by the legislator. In either case VPs
    are awarded to any players with workers on the grid as usual.'"""
    st, r = blank, rules
    clear_map(st)
    st.g[G.DECADE] = st.g[G.LAST_DECADE]
    place_on_grid(st, r, 1, M.CABILDO, 1)
    space_vp = int(r.major_space_vp[M.CABILDO][st.major[M.CABILDO] == 1].sum())
    sup, vp1 = int(st.supply[Sup.COUNCIL_WORKERS]), int(st.pl[1, PF.VP])
    apply_law(st, r, 0, Law.MAJOR_BUILDING, M.CABILDO)
    assert st.g[G.CABILDO_BUILT] == 1 and st.major_state[M.CABILDO, 1] == 1
    assert (st.major[M.CABILDO] == CCW).sum() == 0 and st.supply[Sup.COUNCIL_WORKERS] == sup
    assert count_type(st, B.CABILDO) == 1
    recover_completed(st, r)
    assert st.pl[1, PF.VP] - vp1 == space_vp > 0
    assert not major_open(st, r, M.CABILDO)


def test_council_value_reaching_zero_costs_2_vp(blank, rules):
    """'If a player goes to 0 or lower value, they immediately lose 2 VPs + 2 VPs x their negative
    value. Then, after VP penalization, the player City Council marker goes back to value 1.'"""
    st, r = blank, rules
    st.pl[0, PF.COUNCIL] = 3
    vp0 = int(st.pl[0, PF.VP])
    council_cost(st, r, 0, 3)  # exactly 0
    assert st.pl[0, PF.VP] - vp0 == r.k[RK.BELOW_ONE_BASE] and st.pl[0, PF.COUNCIL] == r.k[RK.COUNCIL_RESET]
    st.pl[1, PF.COUNCIL] = 3
    vp0 = int(st.pl[1, PF.VP])
    council_cost(st, r, 1, 2)  # 1: no penalty
    assert st.pl[1, PF.VP] == vp0 and st.pl[1, PF.COUNCIL] == 1
    st.pl[2, PF.COUNCIL] = 2
    vp0 = int(st.pl[2, PF.VP])
    council_cost(st, r, 2, 5)  # -3
    assert st.pl[2, PF.VP] - vp0 == r.k[RK.BELOW_ONE_BASE] + 3 * r.k[RK.BELOW_ONE_PER_POINT]
    assert st.vps[2, VS.COUNCIL_BELOW] == r.k[RK.BELOW_ONE_BASE] + 3 * r.k[RK.BELOW_ONE_PER_POINT]


def test_council_track_min_is_where_the_penalty_starts(blank, rules):
    """``council.track_min`` (R-06: the track starts at 1) drives the penalty: a marker that would go
    below it costs 2 VP + 2 VP per point below. With the track starting at 2, ending on 1 costs 2 VP
    and ending on 0 costs 4."""
    from sim.rules import load_rules

    st = blank
    r = load_rules(overrides={"council": {"track_min": 2}})
    for seat, votes, pen in ((0, 1, r.k[RK.BELOW_ONE_BASE]), (1, 2, r.k[RK.BELOW_ONE_BASE] + r.k[RK.BELOW_ONE_PER_POINT])):
        st.pl[seat, PF.COUNCIL] = 2
        vp0 = int(st.pl[seat, PF.VP])
        council_cost(st, r, seat, votes)
        assert st.pl[seat, PF.VP] - vp0 == pen and st.pl[seat, PF.COUNCIL] == r.k[RK.COUNCIL_RESET]
    st.pl[2, PF.COUNCIL] = 3
    vp0 = int(st.pl[2, PF.VP])
    council_cost(st, r, 2, 1)  # 2: on the track, no penalty
    assert st.pl[2, PF.VP] == vp0 and st.pl[2, PF.COUNCIL] == 2


def test_council_vote_red_loses_8(blank, rules):
    """Red at council 1 uses 4 votes: -3 -> loses 8 VP, back to 1. Green/Red win 4 VP each in Era 2."""
    st = blank
    sides = np.array([SIDE_NO, SIDE_NO, SIDE_YES, SIDE_YES, 0], np.int32)
    votes = np.array([2, 1, 4, 1, 0], np.int32)
    approved, yes, no, by_council = tally(st, rules, 4, sides, votes)
    assert approved and yes == 5 and no == 3 and not by_council
    st.pl[2, PF.COUNCIL] = 1
    vp0 = st.pl[2, PF.VP]
    council_cost(st, rules, 2, 4)
    assert st.pl[2, PF.VP] - vp0 == -8 and st.pl[2, PF.COUNCIL] == 1
    assert rules.k[RK.VOTE_VP_PER_ERA] * 2 // 2 == 4


def test_council_tie_on_council_values(blank, rules):
    """Green NO 3 vs Yellow YES 2 + Blue YES 1: tie; council 12 (Green) vs 7 + 6: approved."""
    st = blank
    sides = np.array([SIDE_ABSTAIN, SIDE_NO, SIDE_YES, SIDE_YES, 0], np.int32)
    votes = np.array([0, 3, 2, 1, 0], np.int32)
    st.pl[1, PF.COUNCIL] = 12
    st.pl[2, PF.COUNCIL] = 7
    st.pl[3, PF.COUNCIL] = 6
    approved, yes, no, by_council = tally(st, rules, 4, sides, votes)
    assert approved and by_council and yes == no == 3
    st.pl[3, PF.COUNCIL] = 5  # 12 vs 12: still tied -> rejected
    approved, *_ = tally(st, rules, 4, sides, votes)
    assert not approved


def test_council_zero_votes_rejected(blank, rules):
    """CITY COUNCIL VOTE: 'If there are 0 votes, the law is rejected. "no" wins.'"""
    st = blank
    approved, *_ = tally(st, rules, 4, np.zeros(5, np.int32), np.zeros(5, np.int32))
    assert not approved


def test_council_value_5_paying_7(blank, rules):
    """'council value is 5 ... must pay 7 ... it becomes -2, they lose 6 VPs, and then 1.'"""
    st = blank
    st.pl[1, PF.COUNCIL] = 5
    vp0 = st.pl[1, PF.VP]
    council_cost(st, rules, 1, 7)
    assert st.pl[1, PF.VP] - vp0 == -6 and st.pl[1, PF.COUNCIL] == 1
