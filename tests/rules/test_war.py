"""C. END OF THE DECADE, 3. TENSION LEVEL & WAR and WAR, WAR PROCEDURE: tension steps, the
belligerent faction, the War Attack and the Walls' reduction, fights, wounds and the War Penalty
track (with the rulebook's worked examples).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

import numpy as np
import pytest
from helpers import cell, clear_map, deck_card, put, quiet_deck, set_items, stack_deck

from sim.actions import activate, activation_ok
from sim.city import n_closed_districts
from sim.deck import back_symbols
from sim.economy import grid_range
from sim.game import refill
from sim.rules import RK
from sim.state import N_CARDS, N_CHARACTERS, PF, B, G, Loc, Mini, Sup
from sim.war import NATIVES, PIRATES, advance_tension, fight, tension_and_war, tension_modifier, tension_step, war_faction


def test_empty_grids_and_stacks_raise_tension(blank, rules):
    """'A. Check the stone and wood resource grids ... For each empty grid, increase the tension level
    with the Natives by 1 step.' 'B. Check the precious resource grid and coin stacks. For each of the
    empty grid/stacks, increase the tension level with the Pirates by 1 step. NOTE: a coin stack is
    empty when it is without coins.' 'C. Discard the first card from the card deck and check the
    symbol on the back of the new card, which is now on top of the deck.'"""
    st, r = blank, rules
    per = int(r.k[RK.PER_EMPTY_GRID])
    slo, shi = grid_range(r, 1)
    wlo, whi = grid_range(r, 0)
    st.grids[slo:slo + 2] = 0
    st.grids[wlo] = 0
    st.grids[8] = 0
    st.stacks[0] = [0, 0]
    st.stacks[1] = [0, 1]  # a bronze coin: not empty
    first = deck_card(st, r, 0, 0)
    top = deck_card(st, r, 1, 1)
    stack_deck(st, first, top)
    tension_step(st, r)
    na, pi = back_symbols(r, top)
    assert st.g[G.NAT_POS] == 3 * per + na and st.g[G.PIR_POS] == 2 * per + pi
    assert st.card_loc[first] == Loc.GAME_DISCARD and st.card_loc[top] == Loc.DECK
    # nothing empty and a blank back: no change
    refill(st, r, int(st.g[G.NPLAYERS]), False)
    st.g[G.NAT_POS] = st.g[G.PIR_POS] = 0
    quiet_deck(st, r)
    tension_step(st, r)
    assert st.g[G.NAT_POS] == 0 and st.g[G.PIR_POS] == 0


def test_tension_marker_past_the_end_becomes_a_double_disk(blank, rules):
    """'If a tension marker reaches the final space of a track and must advance further, put another
    black disk over the current marker, place it on the track's first space and advance from there.
    If the marker is already made by 2 disks, it cannot advance more.' TENSION MODIFIER: 'If there is
    only a single disk marker, the tension level is shown as a big number ... If there are a couple of
    disks, the tension level is shown as a little number'."""
    st, r = blank, rules
    last = int(r.k[RK.TENSION_SPACES]) - 1
    st.g[G.NAT_POS] = last - 1
    assert tension_modifier(st, r, NATIVES) == r.ten_single[last - 1]
    advance_tension(st, r, NATIVES, 3, 0)  # last-1 -> last -> (double) 0 -> 1
    assert st.g[G.NAT_DOUBLE] == 1 and st.g[G.NAT_POS] == 1
    assert tension_modifier(st, r, NATIVES) == r.ten_double[1]
    advance_tension(st, r, NATIVES, 4 * last, 0)
    assert st.g[G.NAT_DOUBLE] == 1 and st.g[G.NAT_POS] == last
    assert st.g[G.PIR_POS] == 0 and st.g[G.PIR_DOUBLE] == 0


@pytest.mark.parametrize("nat,pir,expect", [
    # (position relative to the red zone start, double disk), ...
    ((0, 0), (-1, 0), NATIVES),  # only the Natives in the red zone
    ((-1, 0), (-1, 0), 0),  # nobody in the red zone, no double disk: no war
    ((0, 0), (0, 0), PIRATES),  # both in the red zone, tie: Pirates
    ((2, 0), (1, 0), NATIVES),  # both in the red zone: the farthest right
    ((0, 0), (2, 0), PIRATES),
    ((-5, 1), (2, 0), NATIVES),  # a double disk beats a single one in the red zone
    ((-2, 1), (-3, 1), NATIVES),  # both double: the farthest right
    ((-4, 1), (-4, 1), PIRATES),  # both double, tie: Pirates
])
def test_war_faction_choice(blank, rules, nat, pir, expect):
    """'To identify the belligerent faction determine which tension marker has advanced the farthest:
    This will be the faction with a double disk marker. If both factions have them, the farthest right,
    if there is a tie the Pirates battle. If no double disk stack, the faction with single disk marker
    in the red zone, if both the farthest right. If there is a tie the Pirates battle.'"""
    st, r = blank, rules
    red = int(r.k[RK.RED_ZONE])
    st.g[G.NAT_POS], st.g[G.NAT_DOUBLE] = red + nat[0], nat[1]
    st.g[G.PIR_POS], st.g[G.PIR_DOUBLE] = red + pir[0], pir[1]
    assert 0 <= st.g[G.NAT_POS] < r.k[RK.TENSION_SPACES] and 0 <= st.g[G.PIR_POS] < r.k[RK.TENSION_SPACES]
    assert war_faction(st, r) == expect


@pytest.mark.parametrize("faction", [NATIVES, PIRATES])
def test_war_resets_tension_and_places_a_peace_marker(blank, rules, faction):
    """'The base War Attack (WA) value is equal to 2 for Natives and 4 for Pirates. Then add to this
    value the War Tension modifier' 'If the result is positive, the player loses the War and moves
    their marker on the War Penalty track ... of many spaces equal to the result' 'If there is a Pirate
    war reset both tension markers to their start positions. If a Native war only reset the Native
    marker. Place a peace marker on the Decade track on the following decade.'"""
    st, r = blank, rules
    clear_map(st)
    quiet_deck(st, r)
    red = int(r.k[RK.RED_ZONE])
    d = int(st.g[G.DECADE])
    st.peace[:] = 0
    st.minis[:] = 0  # nobody defends
    at, below = (G.NAT_POS, G.PIR_POS) if faction == NATIVES else (G.PIR_POS, G.NAT_POS)
    st.g[at] = red
    st.g[below] = red - 1
    tension_and_war(st, r)
    base = r.k[RK.ATTACK_NATIVES] if faction == NATIVES else r.k[RK.ATTACK_PIRATES]
    wa = int(base + r.ten_single[red])
    assert st.g[G.WAR_FACTION] == faction and st.g[G.WAR_WA] == wa > 0
    n = int(st.g[G.NPLAYERS])
    assert (st.pl[:n, PF.WAR_PENALTY] == r.k[RK.WAR_PENALTY_START] + wa).all()
    assert st.g[G.NAT_POS] == 0
    assert st.g[G.PIR_POS] == (0 if faction == PIRATES else red - 1)
    assert st.peace[d + 1] == 1


def test_a_war_takes_its_peace_marker_from_the_supply(blank, rules):
    """'Place a peace marker on the Decade track on the following decade' - one of the 3 Peace
    markers of the box (GAME CONTENTS). The reading (sim.war.tension_and_war): with none left in the
    supply none is placed (as the Major Building Act's 'place only the disks available'), and a
    marker already on the following decade (a Peace Act's) leaves the supply as it is."""
    st, r = blank, rules
    red = int(r.k[RK.RED_ZONE])
    d = int(st.g[G.DECADE])
    for supply, before, after in ((0, 0, 0), (1, 1, 1), (2, 0, 1)):
        clear_map(st)
        quiet_deck(st, r)
        st.minis[:] = 0
        st.peace[:] = 0
        st.peace[d + 1] = before
        st.supply[Sup.PEACE] = supply
        st.g[G.NAT_POS] = red
        st.g[G.NAT_DOUBLE] = st.g[G.PIR_POS] = st.g[G.PIR_DOUBLE] = 0
        tension_and_war(st, r)
        assert st.g[G.WAR_FACTION] == NATIVES
        assert st.peace[d + 1] == after
        assert st.supply[Sup.PEACE] == supply - (after - before)


def test_peace_marker_stops_war_except_in_the_last_decade(blank, rules):
    """'D. If the current decade is not the last game decade and has a peace marker, stop reading here
    and go to point 4, "Refill". IMPORTANT: Ignore any peace marker in the last game decade because a
    war can always happen in this decade.'"""
    st, r = blank, rules
    clear_map(st)
    st.minis[:] = 0
    red = int(r.k[RK.RED_ZONE])
    d = int(st.g[G.DECADE])
    quiet_deck(st, r)
    st.g[G.NAT_POS] = red
    st.peace[d] = 1
    tension_and_war(st, r)
    assert st.g[G.WAR_FACTION] == 0 and st.g[G.NAT_POS] == red
    assert (st.pl[:4, PF.WAR_PENALTY] == r.k[RK.WAR_PENALTY_START]).all()
    last = int(st.g[G.LAST_DECADE])
    st.g[G.DECADE] = last
    st.peace[last] = 1
    quiet_deck(st, r)
    tension_and_war(st, r)
    assert st.g[G.WAR_FACTION] == NATIVES and st.g[G.NAT_POS] == 0


def test_walls_reduce_the_war_attack(blank, rules):
    """'If there is any district closed by Walls, complete this procedure: First, discard the top card
    from the Affiliate deck. Afterward, draw one card for each district closed by Walls. Check the back
    of all drawn cards: for each symbol that matches the current attacker (Natives or Pirates), reduce
    the WA by 1.' 'Finally, if WA value is positive, a battle happens.'"""
    st, r = blank, rules
    clear_map(st)
    st.minis[:] = 0
    for d in (0, 1):
        st.walls[r.seg_district == d] = 1
    assert n_closed_districts(st, r) == 2
    red = int(r.k[RK.RED_ZONE])
    st.g[G.NAT_POS] = red
    c0 = deck_card(st, r, 0, 0)
    c1 = deck_card(st, r, 0, 0, exclude=(c0,))  # the tension step's top card, then discarded by the walls
    c2 = deck_card(st, r, 1, 0)
    c3 = deck_card(st, r, 2, 0)
    stack_deck(st, c0, c1, c2, c3)
    tension_and_war(st, r)
    reduction = int(back_symbols(r, c2)[0] + back_symbols(r, c3)[0])
    wa = int(r.k[RK.ATTACK_NATIVES] + r.ten_single[red]) - reduction
    assert reduction == 3 and wa <= 0
    assert st.g[G.WAR_FACTION] == NATIVES and st.g[G.WAR_WA] == wa
    assert (st.pl[:4, PF.WAR_PENALTY] == r.k[RK.WAR_PENALTY_START]).all()  # no battle
    assert all(st.card_loc[c] == Loc.GAME_DISCARD for c in (c0, c1, c2, c3))


def test_war_attack_example(rules):
    """'if the War Tension modifier marker is on +2 space, the WA value in a War with Natives will be 4.'"""
    assert rules.k[RK.ATTACK_NATIVES] + rules.ten_single[7] == 4


def _no_affiliates(st, seat):
    """Cards to burn would add AV: keep the fights to the miniatures."""
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.HAND + seat:
            st.card_loc[c] = Loc.DECK


def test_wounds_pirates_give_two_and_a_miniature_leaves_at_its_limit(blank, rules):
    """'Then assign 1 wound token (or 2 wound tokens for Pirates) to each miniature that has fought
    ... If the number of wound tokens is now equal to the WO value, remove the miniature, which goes
    back to the game supply.'"""
    st, r = blank, rules
    _no_affiliates(st, 0)
    st.minis[0] = 0
    st.minis[0, 0, 0] = Mini.SOLDIER
    wo = int(r.war_wo[Mini.SOLDIER])
    wp = int(r.k[RK.WOUNDS_PIRATES])
    assert wp < wo <= 2 * wp
    sup = int(st.supply[Sup.SOLDIERS])
    wa = int(r.war_av[Mini.SOLDIER])  # the Soldier alone wins
    fight(st, r, 0, wa, PIRATES)
    assert st.minis[0, 0].tolist() == [Mini.SOLDIER, wp] and st.pl[0, PF.WARS_WON] == 1
    fight(st, r, 0, wa, PIRATES)
    assert st.minis[0, 0].tolist() == [Mini.NONE, 0] and st.supply[Sup.SOLDIERS] == sup + 1
    # a veteran Miliciano: 1 wound against the Natives, but 2 against the Pirates remove it
    _no_affiliates(st, 1)
    st.minis[1] = 0
    st.minis[1, 0, 0] = Mini.MILICIANO_VET
    st.minis[1, 1, 0] = Mini.MILICIANO_VET
    wn = int(r.k[RK.WOUNDS_NATIVES])
    assert wn < r.war_wo[Mini.MILICIANO_VET] <= wp
    sup = int(st.supply[Sup.MILICIANOS])
    fight(st, r, 1, 2 * int(r.war_av[Mini.MILICIANO_VET]), NATIVES)
    assert st.minis[1, :2].tolist() == [[Mini.MILICIANO_VET, wn]] * 2
    fight(st, r, 1, 2 * int(r.war_av[Mini.MILICIANO_VET]), PIRATES)
    assert (st.minis[1, :2, 0] == Mini.NONE).all() and st.supply[Sup.MILICIANOS] == sup + 2


def test_wounds_stay_when_the_miniature_is_upgraded(blank, rules):
    """'Keep wound tokens on the miniature during the game (they also remain if the miniature is
    upgraded; only the effect of some card can remove wounds).' Barracks: 'Convert a Veteran Miliciano
    into a Soldier by paying 1 metal resource to the game supply.'"""
    st, r = blank, rules
    clear_map(st)
    put(st, r, 4, 2, B.BARRACKS)
    a = next(i for i in range(r.act_b.shape[0]) if r.act_b[i] == B.BARRACKS and r.act_kind[i] == 1)
    st.minis[0] = 0
    st.minis[0, 0] = [Mini.MILICIANO_VET, 1]
    set_items(st, 0, metal=r.act_in[a, 3])
    assert activation_ok(st, r, 0, a)
    sm, ss, smet = int(st.supply[Sup.MILICIANOS]), int(st.supply[Sup.SOLDIERS]), int(st.supply[Sup.METAL])
    activate(st, r, 0, a, cell(r, 4, 2))
    assert st.minis[0, 0].tolist() == [Mini.SOLDIER, 1]
    assert st.pl[0, PF.METAL] == 0 and st.supply[Sup.METAL] == smet + r.act_in[a, 3]
    assert st.supply[Sup.MILICIANOS] == sm + 1 and st.supply[Sup.SOLDIERS] == ss - 1


def test_war_penalty_track_ends(blank, rules):
    """'If the result is 0 or negative, the player wins the War and moves their marker on the War
    Penalty track by 1 step on the left (to gain points). It's not possible to go further the maximum
    value of the track.' 'If the player reaches the end of the track, they will move their City Council
    marker instead (move it to lose City Council points).'"""
    st, r = blank, rules
    lo, hi = int(r.k[RK.PENALTY_MIN]), int(r.k[RK.PENALTY_MAX])
    # a loss of 3 from one step before the end: 1 step on the track, 2 on the City Council track
    _no_affiliates(st, 0)
    st.minis[0] = 0
    st.pl[0, PF.WAR_PENALTY] = hi - 1
    st.pl[0, PF.COUNCIL] = 8
    fight(st, r, 0, 3, NATIVES)
    assert st.pl[0, PF.WAR_PENALTY] == hi and st.pl[0, PF.COUNCIL] == 6
    assert st.pl[0, PF.WARS_LOST] == 1 and st.pl[0, PF.BANNER_RED] == 0
    # a win at the left end stays there (and progresses the red banner)
    _no_affiliates(st, 1)
    st.minis[1] = 0
    st.minis[1, 0, 0] = Mini.SOLDIER
    st.pl[1, PF.WAR_PENALTY] = lo
    fight(st, r, 1, 1, NATIVES)
    assert st.pl[1, PF.WAR_PENALTY] == lo and st.pl[1, PF.BANNER_RED] == 1
    # a win elsewhere: one step left
    st.pl[1, PF.WAR_PENALTY] = 2
    fight(st, r, 1, 1, NATIVES)
    assert st.pl[1, PF.WAR_PENALTY] == 1 and st.pl[1, PF.BANNER_RED] == 2


def test_war_example_wa_3(blank, rules):
    """WA 3: Yellow's two Milicianos (AV 2) lose by 1 (War Penalty +1) and both fall; Green's
    Soldier (AV 3) wins and takes 1 wound."""
    st = blank
    yellow, green = 2, 3
    for s in (yellow, green):
        st.card_loc[12:] = np.where(st.card_loc[12:] == Loc.HAND + s, Loc.DECK, st.card_loc[12:])
        st.minis[s, :, :] = 0
    st.minis[yellow, 0, 0] = Mini.MILICIANO
    st.minis[yellow, 1, 0] = Mini.MILICIANO
    st.minis[green, 0, 0] = Mini.SOLDIER
    fight(st, rules, yellow, 3, NATIVES)
    fight(st, rules, green, 3, NATIVES)
    assert st.pl[yellow, PF.WAR_PENALTY] == 1
    assert (st.minis[yellow, :, 0] == Mini.NONE).all()
    assert st.pl[green, PF.WAR_PENALTY] == -1 and st.pl[green, PF.BANNER_RED] == 1
    assert st.minis[green, 0, 0] == Mini.SOLDIER and st.minis[green, 0, 1] == 1


def test_a_war_the_walls_repel_still_costs_the_noblewoman(blank):
    """'Noblewoman. 10 VP x Era if there were no wars in the current era.' 'A war will take place if a
    marker ... has reached the red zone' and the Walls are a step of its procedure: 'Finally, if WA
    value is positive, a battle happens.' character.noblewoman_war_without_battle (a reading): a war
    the Walls bring to 0 is a war without a battle, and she scores nothing; with the reading off, only
    a battle counts."""
    from sim.codes import Ch
    from sim.rules import load_rules
    from sim.scoring import character_base

    st = blank
    for on in (True, False):
        r = load_rules(overrides={"character": {"noblewoman_war_without_battle": on}})
        clear_map(st)
        st.minis[:] = 0
        st.peace[:] = 0
        st.g[G.WARS_ERA] = 0
        st.pl[0, PF.CHARACTER] = Ch.NOBLEWOMAN
        for d in (0, 1):
            st.walls[r.seg_district == d] = 1
        red = int(r.k[RK.RED_ZONE])
        st.g[G.NAT_POS], st.g[G.NAT_DOUBLE], st.g[G.PIR_POS], st.g[G.PIR_DOUBLE] = red, 0, 0, 0
        c0 = deck_card(st, r, 0, 0)
        c1 = deck_card(st, r, 0, 0, exclude=(c0,))
        c2 = deck_card(st, r, 1, 0, exclude=(c0, c1))
        c3 = deck_card(st, r, 2, 0, exclude=(c0, c1, c2))
        stack_deck(st, c0, c1, c2, c3)
        tension_and_war(st, r)
        assert st.g[G.WAR_FACTION] == NATIVES and st.g[G.WAR_WA] <= 0  # the war, without a battle
        assert character_base(st, r, 0, 4) == (0 if on else r.k[RK.CH_NOBLEWOMAN])
