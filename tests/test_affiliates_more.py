"""Affiliate card powers 45, 46, 51, 54, 59, 68, 71 and 82 (CARD REFERENCE > AFFILIATE CARDS): one
test per card on a hand-built state, quoting the card text and the rules file's ``reading``; each
asserts the effect and at least one limit of the text. Helpers come from tests/test_affiliates.py.
"""

from __future__ import annotations

import numpy as np
from helpers import assert_spent, cid, clear_hands, clear_map, give, rows, script, set_items, upright, use
from invariants import check_state

from sim.actions import apply_option, end_main_action, end_turn, play_turn, turn_options
from sim.codes import Act, Law
from sim.core import CCW
from sim.council import call_vote
from sim.game import end_of_decade, ship_sails
from sim.rules import AP, RK
from sim.scoring import score_era
from sim.state import PF, VS, B, G, Mini, Sup
from sim.war import NATIVES, fight
from strategies.policy import FAMILY_RANDOM, F

N1, N2, S1, S2, S4 = 0, 1, 4, 5, 7  # district indices (R-04: N1..N4, S1..S4)


def clone(st):
    """An independent copy of a state record."""
    return np.array([st], dtype=st.dtype).view(np.recarray)[0]


def start_cell(st, r):
    """An empty Starting Area space (construction needs no adjacency there)."""
    for c in range(r.cell_start.shape[0]):
        if r.cell_start[c] == 1 and st.cell_b[c] == B.NONE:
            return c
    raise AssertionError("no free Starting Area space")


def cells_of(r, d, n):
    return [int(c) for c in r.district_cells[d, :n]]


# ============================================================================= card 45


def test_card_45_one_metal_waives_four_elements_of_one_action(blank, rules):
    """Card 45 (lightning). 'You can spend 1 metal resource to gain in a single action a discount of
    up to 4 elements (workers and/or stone/wood/precious resources) ... If you use this card to gain a
    worker discount, place the City Council workers instead of your workers. If the City Council
    workers are not available, this card effect cannot be applied.' Reading: the rows choose how many
    of the 4 are workers (Council workers lent for the next main action); the rest waives resources,
    first what the seat lacks."""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    p = r.aff_p[cid(45)]
    most = int(p[AP.DISCOUNT_MAX])
    give(st, 0, 45)
    set_items(st, 0, wood=2, stone=1, metal=p[AP.PAY_METAL])
    sup_cc = int(st.supply[Sup.COUNCIL_WORKERS])
    assert rows(st, r, 0, 45) == [(wk, most - wk) for wk in range(min(most, sup_cc) + 1)]
    # a Church costs 2 workers, 2 wood, 3 stone, 1 precious: out of reach with 2 wood and 1 stone
    cost = r.b_cost[B.CHURCH]
    st.pl[0, PF.WORKERS] = 1
    k = turn_options(st, r, 0)
    assert not any(st.opts[i, 0] == Act.BUILD and st.opts[i, 1] == B.CHURCH for i in range(k))
    # 1 worker and 3 resources waived: the Church is built with 1 own worker, 2 wood and 1 stone
    use(st, r, 0, 45, 1, most - 1)
    assert st.pl[0, PF.METAL] == 0 and st.g[G.POOL_CC] == 1 and st.supply[Sup.COUNCIL_WORKERS] == sup_cc - 1
    k = turn_options(st, r, 0)
    builds = [i for i in range(k) if st.opts[i, 0] == Act.BUILD and st.opts[i, 1] == B.CHURCH]
    assert builds
    c = start_cell(st, r)
    i = next(i for i in builds if st.opts[i, 2] == c)
    cc0 = int(st.pl[0, PF.CC_WORKERS])
    apply_option(st, r, 0, Act.BUILD, int(B.CHURCH), c, int(st.opts[i, 3]))
    end_main_action(st, r, 0, cc0 - int(st.pl[0, PF.CC_WORKERS]))
    assert st.cell_b[c] == B.CHURCH
    assert st.pl[0, PF.WOOD] == 0 and st.pl[0, PF.STONE] == 0 and st.pl[0, PF.PRECIOUS] == 0
    assert cost[1] + cost[2] + cost[3] - (most - 1) == 2 + 1  # what was paid
    assert st.pl[0, PF.WORKERS] == 0 and st.pl[0, PF.WORKERS_PLACED] == cost[0] - 1
    assert st.pl[0, PF.CC_PLACED] == 1  # the City Council worker stands in on the action space
    # "in a single action": nothing is left for the next one
    assert st.g[G.CARD45_RES] == 0 and st.g[G.POOL_CC] == 0 and st.card_active[cid(45)] == 0
    assert_spent(st, r, 0, 45)
    # limits: no metal, no use; no City Council worker in the supply, only the resource part
    upright(st, 45)
    assert rows(st, r, 0, 45) == []
    st.pl[0, PF.METAL] = 1
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert rows(st, r, 0, 45) == [(0, most)]


def test_card_45_no_discount_on_load_the_ship(blank, rules):
    """Card 45: 'It is not possible to sell (or load on in the ship) discounted resources'; LOAD THE
    SHIP NOTE: 'Any effect that produces a discount ... does not apply to this action.' The lent City
    Council workers do not count for Load the Ship and go back to the supply if it is taken."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 45)
    set_items(st, 0, wood=3, metal=1)
    ship = r.k[RK.SHIP_WORKERS]
    st.pl[0, PF.WORKERS] = ship - 1
    k = turn_options(st, r, 0)
    assert not any(st.opts[i, 0] == Act.SHIP for i in range(k))
    sup_cc = int(st.supply[Sup.COUNCIL_WORKERS])
    use(st, r, 0, 45, 1, r.aff_p[cid(45), AP.DISCOUNT_MAX] - 1)
    k = turn_options(st, r, 0)
    assert not any(st.opts[i, 0] == Act.SHIP for i in range(k))  # the lent worker does not help
    st.pl[0, PF.WORKERS] = ship
    k = turn_options(st, r, 0)
    i = next(i for i in range(k) if st.opts[i, 0] == Act.SHIP)
    apply_option(st, r, 0, Act.SHIP, int(st.opts[i, 1]), int(st.opts[i, 2]), 0)
    assert st.supply[Sup.COUNCIL_WORKERS] == sup_cc and st.pl[0, PF.CC_PLACED] == 0
    assert st.pl[0, PF.WORKERS_PLACED] == ship and st.pl[0, PF.WOOD] == 0


# ============================================================================= card 46


def test_card_46_one_more_worker_two_loads_both_paid(blank, rules):
    """Card 46. 'In this decade using an additional worker you can load up to 6 elements in your Dock
    space. For example, with this card, you can load a triplet (stone, wood, precious) of resources
    and 1.5 silver coins using 3 workers. At the decade end you will gain both rewards.'"""
    st, r = blank, rules
    clear_hands(st)
    p = r.aff_p[cid(46)]
    triplet, coins = 2, 3  # ship.load rows: 1 wood + 1 stone + 1 precious; 1 silver + 1 bronze
    assert list(r.ship_put[triplet]) == [1, 1, 1, 0, 0] and list(r.ship_put[coins]) == [0, 0, 0, 1, 1]
    set_items(st, 0, wood=1, stone=1, precious=1, silver=1, bronze=1)
    st.pl[0, PF.WORKERS] = 5
    # limit: without the card a single load of at most 3 elements
    k = turn_options(st, r, 0)
    ships = [tuple(st.opts[i, 1:3]) for i in range(k) if st.opts[i, 0] == Act.SHIP]
    assert ships and all(b == 0 for _, b in ships)
    give(st, 0, 46)
    use(st, r, 0, 46)
    k = turn_options(st, r, 0)
    pairs = {(int(a), int(b)) for a, b in (tuple(st.opts[i, 1:3]) for i in range(k) if st.opts[i, 0] == Act.SHIP)}
    assert (triplet, coins + 1) in pairs
    for a, b in pairs:  # never more than 6 elements, nor items the seat does not hold
        assert r.ship_put[a].sum() + (r.ship_put[b - 1].sum() if b else 0) <= p[AP.DOCK_MAX_ELEMENTS]
    apply_option(st, r, 0, Act.SHIP, triplet, coins + 1, 0)
    assert st.pl[0, PF.WORKERS_PLACED] == r.k[RK.SHIP_WORKERS] + p[AP.EXTRA_WORKERS]  # 3 workers
    assert st.pl[0, PF.SHIP_LOAD] == triplet and st.pl[0, PF.SHIP_LOAD2] == coins and st.dock[0] == 5
    assert st.pl[0, PF.WOOD] == st.pl[0, PF.STONE] == st.pl[0, PF.PRECIOUS] == st.pl[0, PF.SILVER] == st.pl[0, PF.BRONZE] == 0
    metal0, faith0 = int(st.pl[0, PF.METAL]), int(st.pl[0, PF.FAITH])
    ship_sails(st, r)
    assert st.pl[0, PF.METAL] == metal0 + r.ship_pay[triplet, 2]  # both rewards
    assert st.pl[0, PF.FAITH] == faith0 + r.ship_pay[coins, 3]
    assert st.pl[0, PF.SHIP_LOAD] == st.pl[0, PF.SHIP_LOAD2] == -1 and st.dock[0] == 0


def test_card_46_second_load_later_in_the_decade(blank, rules):
    """Card 46: the Dock holds 6 elements for the rest of the decade ('In this decade'): a load made
    with the card can be followed by a second one; a third is never offered."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 46)
    set_items(st, 0, wood=6)
    st.pl[0, PF.WORKERS] = 5
    use(st, r, 0, 46)
    apply_option(st, r, 0, Act.SHIP, 0, 0, 0)  # 3 wood, with the card's extra worker
    end_turn(st, 0)
    assert st.pl[0, PF.DOCK6_DECADE] == st.g[G.DECADE]
    st.pl[0, PF.WORKERS] = r.k[RK.SHIP_WORKERS]
    k = turn_options(st, r, 0)
    assert any(st.opts[i, 0] == Act.SHIP and st.opts[i, 1] == 0 for i in range(k))
    apply_option(st, r, 0, Act.SHIP, 0, 0, 0)
    assert st.dock[0] == 6 and st.pl[0, PF.SHIP_LOAD2] == 0
    st.pl[0, PF.WORKERS] = 5
    set_items(st, 0, wood=3)
    k = turn_options(st, r, 0)
    assert not any(st.opts[i, 0] == Act.SHIP for i in range(k))
    # the next decade the Dock is back to 3 elements
    st.g[G.DECADE] += 1
    ship_sails(st, r)
    k = turn_options(st, r, 0)
    assert all(st.opts[i, 2] == 0 for i in range(k) if st.opts[i, 0] == Act.SHIP)


# ============================================================================= card 51


def test_card_51_next_turn_at_once_with_a_council_worker(blank, rules):
    """Card 51. 'Complete your following turn immediately with 1 worker discount. To gain this
    discount, place 1 City Council worker in the selected action space. If the City Council worker is
    not available, this card effect cannot be applied.' With 1 worker left, the seat takes two 1-worker
    main actions in the same turn: its worker, then a City Council worker."""
    st, r = blank, rules
    clear_hands(st)
    st.g[G.VOTE_DONE] = 1  # no council vote (a Major Building Act would put Council workers on a grid)
    for seed in range(20):  # random choices of the two actions
        st2 = clone(st)
        give(st2, 0, 51)
        st2.w[0, F.FAMILY] = FAMILY_RANDOM
        st2.rng[0] = 100 + seed
        st2.pl[0, PF.WORKERS] = 1
        sup_cc = int(st2.supply[Sup.COUNCIL_WORKERS])
        assert rows(st2, r, 0, 51) == [(0, 0)]
        use(st2, r, 0, 51)
        play_turn(st2, r, 0)
        lent = int(st2.pl[0, PF.CC_PLACED] + (st2.major == CCW).sum())
        assert st2.pl[0, PF.WORKERS] == 0 and st2.pl[0, PF.CC_WORKERS] == 0
        assert lent == r.aff_p[cid(51), AP.WORKER_DISCOUNT] and st2.supply[Sup.COUNCIL_WORKERS] == sup_cc - lent
        assert st2.g[G.POOL_CC] == 0 and st2.card_active[cid(51)] == 0
        assert st2.pl[0, PF.WORKERS_PLACED] + (st2.major == 0).sum() == 1  # its own worker in the first action
    # the card is needed: the same turn without it takes one action
    st2 = clone(st)
    st2.w[0, F.FAMILY] = FAMILY_RANDOM
    st2.pl[0, PF.WORKERS] = 1
    sup_cc = int(st2.supply[Sup.COUNCIL_WORKERS])
    play_turn(st2, r, 0)
    assert st2.supply[Sup.COUNCIL_WORKERS] == sup_cc and st2.pl[0, PF.CC_PLACED] == 0
    # limits: no City Council worker in the supply, or no worker for this turn's action: not offered
    upright(st, 51)
    st.pl[0, PF.WORKERS] = 1
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert rows(st, r, 0, 51) == []
    st.supply[Sup.COUNCIL_WORKERS] = 3
    st.pl[0, PF.WORKERS] = 0
    st.pl[0, PF.CC_WORKERS] = 0
    assert rows(st, r, 0, 51) == []


# ============================================================================= cards 54, 68, 71 (Scoring)


def _score_city(st, r, era=1):
    vps = st.vps[:, VS.CITY].copy()
    score_era(st, r, era)
    return st.vps[:, VS.CITY] - vps


def _scoring_state(st, r):
    clear_map(st)
    clear_hands(st)
    for s in range(4):
        st.pl[s, PF.FAITH] = 0
        set_items(st, s)


def test_card_54_barracks_of_an_adjacent_district_counts(blank, rules):
    """Card 54 (lightning). 'Consider a Barracks present in the selected district adjacent. This
    allows you to hire Soldiers there and to increase the VP value of the district.' Reading: at a
    Scoring phase a district next to one with a Barracks gains the Barracks' +2 (this scoring)."""
    st, r = blank, rules
    _scoring_state(st, r)
    a, b = cells_of(r, N1, 1)[0], cells_of(r, N2, 1)[0]
    st.cell_b[a], st.cell_owner[a] = B.PALACE, 0
    st.cell_b[b] = B.BARRACKS
    base = clone(st)
    plain = _score_city(base, r)
    give(st, 0, 54)
    got = _score_city(st, r)
    assert got[0] == plain[0] + r.b_dv[B.BARRACKS]  # a Palace scores the district value + 10
    assert st.card_rot[cid(54)] == 1 and st.card_uses[cid(54)] == 1
    # limit: N1 and S2 meet only at a corner: a Barracks there does not count for N1
    st2 = clone(base)
    st2.cell_b[b] = B.NONE
    st2.cell_b[cells_of(r, S2, 1)[0]] = B.BARRACKS
    give(st2, 0, 54)
    _score_city(st2, r)
    assert st2.card_rot[cid(54)] == 0 and st2.card_uses[cid(54)] == 0


def test_card_68_walls_roads_and_a_minor_building_of_an_adjacent_district(blank, rules):
    """Card 68 (lightning). 'For district VP value, consider a Major or/and a Minor building of an
    adjacent District also in the selected District. For example, ... the Walls and a Barracks of an
    adjacent District ... gains +7 to its value.' One Major term (here Roads, +5) and one Minor term
    (a Barracks, +2) of N2 count in N1."""
    st, r = blank, rules
    _scoring_state(st, r)
    a, b = cells_of(r, N1, 1)[0], cells_of(r, N2, 1)[0]
    st.cell_b[a], st.cell_owner[a] = B.PALACE, 0
    st.cell_b[b] = B.BARRACKS
    st.roads[N2] = 1
    base = clone(st)
    plain = _score_city(clone(base), r)
    give(st, 0, 68)
    got = _score_city(st, r)
    assert got[0] - plain[0] == r.k[RK.DISTRICT_BONUS] + r.b_dv[B.BARRACKS] == 7
    assert st.card_uses[cid(68)] == 1
    # limit: a term the district already has adds nothing (N1 has its own Roads): only the Barracks
    st2 = clone(base)
    st2.roads[N1] = 1
    plain2 = _score_city(clone(st2), r)
    give(st2, 0, 68)
    got2 = _score_city(st2, r)
    assert got2[0] - plain2[0] == r.b_dv[B.BARRACKS]


def test_card_71_borrow_up_to_three_houses_paying_one_bronze_each(blank, rules):
    """Card 71 (lightning). 'In the Scoring phase, you can consider up to 3 Houses of another player
    like yours (they work for you AND the other player). Pay 1 bronze coin to this player per House
    used in this way. The selected buildings must be in the same district of the player Houses, and
    this payment must be considered for the Richest Player determination.'"""
    st, r = blank, rules
    _scoring_state(st, r)
    st.g[G.FORT_BUILT] = 1  # every district's value is +5
    cs = cells_of(r, N1, 5)
    st.cell_b[cs[0]], st.cell_owner[cs[0]] = B.HOUSE, 0
    for c in cs[1:5]:  # 4 Houses of seat 1: at most 3 can be borrowed
        st.cell_b[c], st.cell_owner[c] = B.HOUSE, 1
    set_items(st, 0, bronze=5)
    base = clone(st)
    plain = _score_city(clone(base), r)
    give(st, 0, 71)
    got = _score_city(st, r)
    most = int(r.aff_p[cid(71), AP.HOUSES_MAX])
    dv = 5
    assert plain[0] == min(1, dv) and plain[1] == 4 * min(4, dv)
    assert got[0] == (1 + most) * min(1 + most, dv)  # own House + 3 borrowed, each worth own buildings 4
    assert got[1] == plain[1]  # they still score for their owner
    assert st.pl[0, PF.BRONZE] == 5 - most * r.aff_p[cid(71), AP.PAY_BRONZE_PER_HOUSE]
    assert st.pl[1, PF.BRONZE] == most * r.aff_p[cid(71), AP.PAY_BRONZE_PER_HOUSE]
    assert st.card_uses[cid(71)] == 1
    # limit: no House of the holder in the district: the card is not used
    st2 = clone(base)
    st2.cell_b[cs[0]] = B.PALACE
    give(st2, 0, 71)
    _score_city(st2, r)
    assert st2.card_uses[cid(71)] == 0 and st2.pl[0, PF.BRONZE] == 5


# ============================================================================= card 59


def test_card_59_a_worker_fights_as_a_miliciano_and_is_held(blank, rules):
    """Card 59 (lightning). 'You can consider your worker disk like a Miliciano miniature. Place the
    used worker on this card until the end of the next decade.' Reading: a worker placed this decade
    fights as a standard Miliciano (AV 1); it skips this and the next decade's Recover Workers."""
    st, r = blank, rules
    clear_hands(st)
    script(st, 0, vp=1.0, worker=-0.1)
    st.minis[0, :, 0] = Mini.NONE
    total = int(r.k[RK.WORKERS])
    st.pl[0, PF.WORKERS] = 0
    st.pl[0, PF.WORKERS_PLACED] = total
    wa = int(r.war_av[Mini.MILICIANO])
    base = clone(st)
    # limit: without the card nobody fights (no miniature) and the War is lost
    fight(base, r, 0, wa, NATIVES)
    assert base.pl[0, PF.WARS_LOST] == 1 and base.pl[0, PF.WORKERS_PLACED] == total
    give(st, 0, 59)
    pen0 = int(st.pl[0, PF.WAR_PENALTY])
    fight(st, r, 0, wa, NATIVES)
    assert st.pl[0, PF.WARS_WON] == 1 and st.pl[0, PF.WAR_PENALTY] == max(r.k[RK.PENALTY_MIN], pen0 - 1)
    assert st.card_rot[cid(59)] == 1 and st.card_uses[cid(59)] == 1
    assert st.pl[0, PF.WORKERS_PLACED] == total - 1 and st.pl[0, PF.CARD59_NEXT] == 1
    assert st.g[G.WAR_MILICIANOS] == 1
    # Recover Workers: not at the end of this decade, at the end of the next one
    for s in range(4):
        st.pl[s, PF.PASSED] = 1
    st.peace[:] = 1  # no further War in the two decades
    end_of_decade(st, r)
    assert st.pl[0, PF.WORKERS] == total - 1 and st.pl[0, PF.CARD59_THIS] == 1
    st.g[G.DECADE] += 1
    end_of_decade(st, r)
    assert st.pl[0, PF.WORKERS] == total and st.pl[0, PF.CARD59_THIS] == 0
    assert not check_state(st, r)


# ============================================================================= card 82


def _vote(st, r, legislator, law):
    st.peace[:] = 0
    set_items(st, legislator)  # no coins: no Peace Act for the new choice
    nat0 = int(st.g[G.NAT_POS]), int(st.g[G.NAT_DOUBLE])
    call_vote(st, r, legislator, int(law), 0)
    return nat0 != (int(st.g[G.NAT_POS]), int(st.g[G.NAT_DOUBLE]))


def test_card_82_veto_makes_the_legislator_choose_another_law(blank, rules):
    """Card 82 (lightning). 'Put a veto on Legislator law choice. The legislator now must choose a
    different law. This card must be used before player votes are shown.' The War Declaration
    (tension +) is vetoed: the legislator's approved law is another one."""
    st, r = blank, rules
    clear_hands(st)
    base = clone(st)
    # without the card, the legislator's War Declaration passes (greedy legislator votes yes)
    assert _vote(base, r, 0, Law.WAR)
    give(st, 1, 82)
    assert not _vote(st, r, 0, Law.WAR)
    assert st.card_rot[cid(82)] == 1 and st.card_uses[cid(82)] == 1
    # limit: the legislator cannot veto its own law
    st2 = clone(base)
    give(st2, 0, 82)
    assert _vote(st2, r, 0, Law.WAR)
    assert st2.card_uses[cid(82)] == 0
