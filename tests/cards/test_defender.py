"""Affiliate cards 31-36, the Defender group (CARD REFERENCE > AFFILIATE CARDS > DEFENDER CARDS): a
free wall (31), a district counted as closed by Walls for the War (32), City Council workers on the
Walls grid (33), 7 VPs when Walls reduce the War Attack (34), coins when a district is closed by
Walls (35), Houses and Palaces in a district closed by Walls (36).

One test per card power (more where the text has several parts) on a hand-built state, quoting
the card text and the rules file's ``reading`` where the text is ambiguous; each asserts the effect
and at least one limit of the text, with the numbers of the rules record (``r.aff_p[c, AP.X]``).
Cards are named by their printed number (card id = number - 1). Turn-time powers are used with the
F_CARD free action (``use``) and then change the seat's next action of the turn (listed by
``turn_options``, done by ``apply_option``); lightning powers are triggered by calling the rule area
of their moment. The ``blank`` fixture seats greedy players, who use a lightning card whenever it
triggers. Checks shared with cards of other groups are in tests/helpers.py (Affiliate card
families).
"""

from __future__ import annotations

import numpy as np
from helpers import (
    assert_spent,
    cid,
    clear_hands,
    clear_map,
    deck_card,
    give,
    grid_card,
    house_palace_card,
    perimeter_district,
    rows,
    set_items,
    stack_deck,
    turn_card_rows,
    upright,
    use,
    war_state,
)

from sim.city import district_closed, district_value
from sim.core import CCW
from sim.economy import coin_value
from sim.major_buildings import major_open, place_walls
from sim.rules import AP, RK
from sim.state import PF, VS, G, M, Sup
from sim.war import NATIVES, tension_and_war


def test_card_31_one_free_wall_if_available(blank, rules):
    """Card 31. 'Place 1 free wall piece (1 miniature), if available in the game supply.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 31)
    assert r.aff_p[cid(31), AP.WALLS] == 1
    assert (cid(31), 0, 0) in turn_card_rows(st, r, 0)
    set_items(st, 0, wood=3, stone=3, silver=2)
    items0, sup = st.pl[0].copy(), int(st.supply[Sup.WALLS])
    use(st, r, 0, 31)
    assert st.walls.sum() == 1 and st.supply[Sup.WALLS] == sup - 1
    assert (st.pl[0] == items0).all()  # free: nothing paid, workers untouched
    assert_spent(st, r, 0, 31)
    # limit: no wall miniature in the supply (or no free perimeter segment), no option
    upright(st, 31)
    st.supply[Sup.WALLS] = 0
    assert rows(st, r, 0, 31) == []
    st.supply[Sup.WALLS] = 5
    st.walls[:] = 1
    assert rows(st, r, 0, 31) == []
    st.walls[0] = 0
    assert rows(st, r, 0, 31) == [(0, 0)]


def _war(st, r, reducing):
    """A Natives War in the red zone; the deck top: a card the tension step discards, a blank one
    (read by the tension step, discarded by the Walls step), then the card drawn for one closed
    district, with 1 Native symbol when ``reducing``."""
    red = int(r.k[RK.RED_ZONE])
    st.g[G.NAT_POS] = red
    st.g[G.NAT_DOUBLE] = 0
    st.g[G.PIR_POS] = 0
    st.peace[:] = 0
    st.minis[:] = 0
    c0 = deck_card(st, r, 0, 0)
    c1 = deck_card(st, r, 0, 0, exclude=(c0,))
    c2 = deck_card(st, r, 1 if reducing else 0, 0, exclude=(c0, c1))
    stack_deck(st, c0, c1, c2)
    tension_and_war(st, r)
    assert st.g[G.WAR_FACTION] == NATIVES
    return int(r.k[RK.ATTACK_NATIVES] + r.ten_single[red])


def test_card_32_a_district_counts_as_closed_by_walls_for_this_decades_war(blank, rules):
    """Card 32. 'For War effects, consider a district of your choice as closed by Walls.' Reading:
    'For the War resolved at the end of this decade ..., one district of your choice not already
    closed counts as closed by Walls: one more card is drawn in the Walls step of the WAR PROCEDURE
    ... No effect on district values, the Defender character or cards 34-36.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 32)
    # no Walls: nothing reduces the WA
    wa = _war(st, r, True)
    assert st.g[G.WAR_WA] == wa
    # the choice: districts with a perimeter not closed yet
    d0 = 0
    st.walls[r.seg_district == d0] = 1
    offered = rows(st, r, 0, 32)
    assert offered == [(d, 0) for d in range(r.district_nseg.shape[0]) if r.district_nseg[d] > 0 and d != d0]
    st.walls[:] = 0
    d = 3
    dv = district_value(st, r, d)
    use(st, r, 0, 32, d)
    assert not district_closed(st, r, d) and district_value(st, r, d) == dv  # not for the district value
    # limit: once per decade (even reactivated)
    upright(st, 32)
    assert rows(st, r, 0, 32) == []
    wa = _war(st, r, True)
    assert st.g[G.WAR_WA] == wa - 1  # one card drawn for the chosen district
    # limit: this decade only
    st.g[G.DECADE] += 1
    wa = _war(st, r, True)
    assert st.g[G.WAR_WA] == wa
    assert rows(st, r, 0, 32) != []


def test_card_32_district_does_not_trigger_card_34(blank, rules):
    """Card 32 reading: 'No effect on district values, the Defender character or cards 34-36.' With
    no district really closed by Walls, the WA reduction of card 32's district does not make card 34
    ('Gain 7 VPs every time Walls are part of the Fight calculation') pay its 7 VPs."""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 32)
    give(st, 2, 34)
    use(st, r, 0, 32, 3)
    vp = int(st.pl[2, PF.VP])
    wa = _war(st, r, True)
    assert st.g[G.WAR_WA] == wa - 1
    assert st.card_rot[cid(34)] == 0 and st.pl[2, PF.VP] == vp


def test_card_33_up_to_2_council_workers_on_the_walls_grid(blank, rules):
    """Card 33. 'If City Council workers are still available in the game supply, immediately place
    up to 2 City Council workers on the Walls grid. These City Council workers will count for
    completing the grid but will not provide you any VPs. When the grid is complete, place the City
    Council workers back in the game supply.'"""
    st, r = blank, rules
    clear_map(st)
    offered = grid_card(st, r, 33, (M.WALLS,))
    assert {a for a, _ in offered} == {M.WALLS}  # only on the named grid
    # the workers complete the grid: walls are placed (by the first player), the workers go back
    st.major[M.WALLS] = -1
    upright(st, 33)
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    n = int(r.major_spaces[M.WALLS, 2])
    st.major[M.WALLS, :n - 2] = 1
    walls0 = int(st.supply[Sup.WALLS])
    use(st, r, 0, 33, M.WALLS, 2)
    assert st.major_state[M.WALLS, 1] == 1 and (st.major[M.WALLS] == CCW).sum() == 0
    assert st.supply[Sup.COUNCIL_WORKERS] == sup
    assert st.walls.sum() == r.k[RK.WALLS_PER_COMPLETION] and st.supply[Sup.WALLS] == walls0 - st.walls.sum()
    # a completed grid is closed until Recover Workers: no option
    upright(st, 33)
    assert not major_open(st, r, M.WALLS) and rows(st, r, 0, 33) == []


def test_card_34_seven_vp_when_walls_reduce_the_war_attack(blank, rules):
    """Card 34. '⚡ Gain 7 VPs every time Walls are part of the Fight calculation: When a Wall
    reduces opponent WA value'. Reading: 7 VPs once per use, when the Walls step of the WAR
    PROCEDURE reduces the WA by at least 1 (any holder, out of turn)."""
    st, r = blank, rules
    assert r.aff_p[cid(34), AP.VP] == 7
    red = int(r.k[RK.RED_ZONE])
    war_state(st, r, 34, holder=2)
    st.walls[r.seg_district == 0] = 1  # one district closed by Walls: one card drawn
    # limit: the drawn card shows no Native symbol, the Walls reduce nothing: no VPs
    vp0 = int(st.pl[2, PF.VP])
    _war(st, r, False)
    assert st.g[G.WAR_WA] == r.k[RK.ATTACK_NATIVES] + r.ten_single[red]
    assert st.card_rot[cid(34)] == 0 and st.pl[2, PF.VP] == vp0
    # the Walls reduce the WA by 1: the holder gains 7 VPs
    _war(st, r, True)
    assert st.g[G.WAR_WA] == r.k[RK.ATTACK_NATIVES] + r.ten_single[red] - 1
    assert st.card_rot[cid(34)] == 1 and st.card_uses[cid(34)] == 1
    assert st.vps[2, VS.AFFILIATE] == 7 and st.pl[2, PF.VP] == vp0 + 7
    # once per use: the next reduction pays nothing while the card is rotated
    _war(st, r, True)
    assert st.vps[2, VS.AFFILIATE] == 7 and st.card_uses[cid(34)] == 1


def test_card_35_coins_when_a_district_is_closed_by_walls(blank, rules):
    """Card 35. '⚡ Gain 1 silver coin and 1 bronze coin when a District is closed by walls (2 silver
    coins if it also has Roads). For example, the Blue player completes the Walls grid and places 4
    new walls, closing a district. You play this card and gain 1 silver and 1 bronze coin'. Reading:
    2 silver instead of (not in addition to) 1 silver + 1 bronze."""
    st, r = blank, rules
    p = r.aff_p[cid(35)]
    assert (p[AP.SILVER], p[AP.BRONZE], p[AP.SILVER_IF_ROADS]) == (1, 1, 2)
    clear_map(st)
    clear_hands(st)
    give(st, 1, 35)
    set_items(st, 1)
    d = perimeter_district(r)
    segs = np.flatnonzero(r.seg_district == d)
    st.walls[:] = 1
    st.walls[segs[:2]] = 0  # two walls missing in district d, every other segment walled
    # limit: a wall that does not close the district pays nothing
    place_walls(st, r, 0, 1)
    assert st.walls.sum() == len(st.walls) - 1
    assert coin_value(st, r, 1) == 0 and st.card_rot[cid(35)] == 0
    # the last wall closes it (placed by another player): 1 silver + 1 bronze to the holder
    place_walls(st, r, 0, 1)
    assert st.walls.all()
    assert st.pl[1, PF.SILVER] == 1 and st.pl[1, PF.BRONZE] == 1 and st.card_rot[cid(35)] == 1
    # with Roads in the district: 2 silver instead
    st.walls[segs[0]] = 0
    st.supply[Sup.WALLS] += 1
    st.roads[d] = 1
    upright(st, 35)
    set_items(st, 1)
    place_walls(st, r, 0, 1)
    assert st.pl[1, PF.SILVER] == 2 and st.pl[1, PF.BRONZE] == 0 and st.card_uses[cid(35)] == 2


def test_card_36_houses_or_palaces_in_a_district_closed_by_walls(blank, rules):
    """Card 36. '⚡ You can increase your Houses value by +1 or your Palaces by +7 in a district closed
    by Walls. It requires the payment of 1 silver coin to the game reserve. With this card, it is
    possible to exceed the Houses value limit.' (Scored by calling the Scoring phase directly.)"""
    st, r = blank, rules
    assert r.aff_district[cid(36)] == 1

    def close(st, d):
        st.walls[r.seg_district == d] = 1

    def open_one(st, d):
        st.walls[np.flatnonzero(r.seg_district == d)[0]] = 0

    house_palace_card(st, r, 36, close, open_one)
