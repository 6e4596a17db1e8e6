"""Affiliate card powers, second part (CARD REFERENCE > AFFILIATE CARDS): one test per card for the
cards tests/test_affiliates.py does not cover - the turn modifiers (worker discounts 13, 19, 25,
58, 65, 84; second activations 15, 21, 27, 75; cheaper construction 16, 22; supply instead of the
board 18, 24, 30, 66; one more precious 29; card 32's district; Load the Ship 38, 43, 47; card 39's
Roads bonus; card 52's Veteran Soldier), the City Council vote cards (40, 63, 72, 79, 80, 81), the
scoring cards (36, 42, 67, 74) and the payment discount (78).

Each test builds a state by hand, quotes the card text (and the rules file's ``reading`` where the
text is ambiguous), asserts the effect with the numbers of the rules record (``r.aff_p[c, AP.X]``,
``r.k[RK.X]``) and at least one limit the text states. Turn modifiers are used with the F_CARD free
action (``use``) and then change the seat's next action of the turn (listed by ``turn_options``,
done by ``apply_option``); lightning cards are triggered by calling the rule area of their moment
(``call_vote``, ``council_cost``, ``score_era``, ``pay_coins``, ``tension_and_war``).

The ``blank`` fixture seats greedy players: a lightning trigger is always used, the legislator of a
vote votes "yes" with 1 vote and the other seats abstain. Where a test needs another vote,
:func:`vote_as` makes one seat a random-policy voter and seeds the state's random stream so that its
draw is the wanted vote; the test then checks that the vote was cast (its City Council cost).
"""

from __future__ import annotations

import numpy as np
from helpers import (
    act_row,
    cell,
    cid,
    clear_hands,
    clear_map,
    deck_card,
    give,
    load,
    put,
    rows,
    set_items,
    stack_deck,
    three,
    turn_rows,
    upright,
    use,
)

from sim.actions import apply_option, build_wood_stone, end_turn
from sim.city import can_activate_at, district_closed, district_value
from sim.codes import Act, Ev, Law
from sim.core import coin_value, grid_range, pay_coins, take_coins, take_from_grids
from sim.council import SIDE_NO, call_vote, council_cost
from sim.rules import AP, RK
from sim.scoring import city_total, score_era, series_base, series_counts
from sim.state import N_GROUPS, PF, VS, B, G, Loc, Mini, Sup
from sim.war import NATIVES, tension_and_war

# ----------------------------------------------------------------------------- helpers

_M64 = (1 << 64) - 1


def _splitmix_below(seed, n):
    """The first ``sim.rng.rand_below(st, n)`` of a stream whose state is ``seed`` (SplitMix64)."""
    z = seed
    while True:
        z = (z + 0x9E3779B97F4A7C15) & _M64
        x = z
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
        x ^= x >> 31
        if x < _M64 - (_M64 % n):
            return x % n


def vote_as(st, r, seat, side, votes):
    """Make ``seat`` a random-policy voter whose draw picks (side, votes) among call_vote's VOTE rows
    (abstain, then yes with 0..max votes, then no with 0..max): the state's random stream is seeded
    so that this draw, the first of the vote when every other seat is greedy, is that row."""
    st.w[seat, :] = 0.0  # family 0: random
    mv = int(r.vote_tiles.sum())
    k = 1 + 2 * (mv + 1)
    want = 1 + (side - 1) * (mv + 1) + votes
    seed = next(s for s in range(1, 100_000) if _splitmix_below(s, k) == want)
    st.rng[0] = seed


def _vote_state(st):
    """No VP status (no VP-bonus decision), spain track empty, every character card upright."""
    clear_hands(st)
    st.pl[:, PF.ST_VP] = 0
    st.spain[:] = 0
    st.g[G.VOTE_DONE] = 0


def _new_vote(st):
    """A new vote (call_vote is called directly; VOTE_DONE only gates the F_VOTE option)."""
    st.g[G.VOTE_DONE] = 0
    for s in range(4):
        st.card_rot[st.pl[s, PF.CHARACTER]] = 0


def _offered_at(st, r, seat, c):
    """(activation row, worker discount) of the ACTIVATE rows the seat is offered on map space c."""
    got = turn_rows(st, r, seat, Act.ACTIVATE)
    return {(int(a), int(dt)) for _, a, b, dt, _ in got.tolist() if b == c}


def _scoring_state(st):
    clear_map(st)
    clear_hands(st)
    for s in range(int(st.g[G.NPLAYERS])):
        set_items(st, s)
        st.pl[s, PF.FAITH] = 0
        st.pl[s, PF.ST_VP] = 0
        st.pl[s, PF.ST_CARDS] = 0
        st.pl[s, PF.BANNER_BLACK:PF.BANNER_OCHER + 1] = 0
    st.minis[:] = 0


def _score(st, r, era=1):
    before = st.vps.copy()
    score_era(st, r, era)
    return st.vps - before


# ============================================================================= worker discounts


def _discount_activation(st, r, num, building, a, other):
    """Shared checks of the worker-discount cards 13, 19, 25, 58, 65 on an activation. The card
    text: 'You can do the <building> construction/activation action with the discount of 1 Worker.
    You can activate them, also if they are not adjacent to a your building. To gain the discount,
    place 1 City Council worker in the ... activation space of your board. If the City Council
    worker is not available, this card effect cannot be done.' The building stands far from any of
    the seat's buildings; returns its map space."""
    clear_map(st)
    clear_hands(st)
    give(st, 0, num)
    p = r.aff_p[cid(num)]
    assert p[AP.WORKER_DISCOUNT] == 1 and p[AP.COUNCIL_WORKERS] == 1
    assert (r.aff_buildings[cid(num)] >> building) & 1 and not (r.aff_buildings[cid(num)] >> other) & 1
    assert r.act_w[a] == p[AP.WORKER_DISCOUNT]  # a 1-worker activation: none of the seat's workers
    put(st, r, 0, 0, building)
    put(st, r, 2, 0, other)  # another building type, also far from the seat's buildings
    c, c_other = cell(r, 0, 0), cell(r, 2, 0)
    st.pl[0, PF.WORKERS] = 1
    st.pl[0, PF.CC_WORKERS] = 0
    st.act_used[0, :] = 0
    assert not can_activate_at(st, r, 0, c) and _offered_at(st, r, 0, c) == set()  # not adjacent
    use(st, r, 0, num)
    assert st.card_rot[cid(num)] == 1 and st.card_active[cid(num)] == 1
    # limit: no City Council worker in the game supply, no discount (and no activation far away)
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    assert sup > 0
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert _offered_at(st, r, 0, c) == set()
    st.supply[Sup.COUNCIL_WORKERS] = sup
    offered = _offered_at(st, r, 0, c)
    assert (a, p[AP.WORKER_DISCOUNT]) in offered and {dt for _, dt in offered} == {p[AP.WORKER_DISCOUNT]}
    # limit: only the card's buildings
    assert _offered_at(st, r, 0, c_other) == set()
    placed, cc = int(st.pl[0, PF.WORKERS_PLACED]), int(st.pl[0, PF.CC_PLACED])
    apply_option(st, r, 0, Act.ACTIVATE, a, c, int(p[AP.WORKER_DISCOUNT]))
    assert st.pl[0, PF.WORKERS] == 1 and st.pl[0, PF.WORKERS_PLACED] == placed  # none of the seat's workers
    assert st.pl[0, PF.CC_PLACED] == cc + 1 and st.supply[Sup.COUNCIL_WORKERS] == sup - 1
    assert st.act_used[0, c] == 1  # still the building's one activation this decade
    assert st.card_active[cid(num)] == 0  # one action only
    assert _offered_at(st, r, 0, c) == set()
    return c


def test_card_13_carpentry_activation_with_a_council_worker_far_from_own_buildings(blank, rules):
    """Card 13. 'You can do the Carpentry/Wood Hacienda construction/activation action with the
    discount of 1 Worker. You can activate them, also if they are not adjacent to a your building.
    ... If the City Council worker is not available, this card effect cannot be done.' Reading: 'One
    construction OR one activation of a Carpentry or Wood Hacienda costs 1 player worker less: 1 City
    Council worker from the supply stands in for it'."""
    st, r = blank, rules
    a = act_row(r, B.CARPENTRY, inp=[0] * 6)  # gain 2 wood
    set_items(st, 0)
    _discount_activation(st, r, 13, B.CARPENTRY, a, B.QUARRY)
    assert st.pl[0, PF.WOOD] == r.act_out[a, 0]


def test_card_19_quarry_construction_with_a_council_worker(blank, rules):
    """Card 19. 'You can do the Quarry or stone Hacienda construction/activation action with the
    discount of 1 Worker.' Reading: 'One construction OR one activation ... costs 1 player worker
    less ... The no-adjacency waiver applies to the activation only; a construction keeps the
    Starting Area/adjacency placement rule.'"""
    st, r = blank, rules
    a = act_row(r, B.HACIENDA_STONE, inp=[0] * 6)  # gain stone
    set_items(st, 0)
    _discount_activation(st, r, 19, B.HACIENDA_STONE, a, B.CARPENTRY)
    assert st.pl[0, PF.STONE] == r.act_out[a, 1] + r.act_out[a, 4]
    # construction: a Quarry (1 worker) for no worker of the seat's, in the Starting Area only
    clear_map(st)
    upright(st, 19)
    use(st, r, 0, 19)
    cost = r.b_cost[B.QUARRY]
    assert cost[0] == 1
    set_items(st, 0, wood=cost[1], stone=cost[2])
    quarry = turn_rows(st, r, 0, Act.BUILD)
    quarry = quarry[quarry[:, 1] == B.QUARRY]
    start = set(np.flatnonzero(r.cell_start & r.cell_buildable).tolist())
    assert {int(x) for x in quarry[:, 2]} == start  # limit: no adjacency waiver for a construction
    assert set(quarry[:, 3].tolist()) == {1 << 1}  # the discount rides above the Status-marker bit
    c = min(start)
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    apply_option(st, r, 0, Act.BUILD, int(B.QUARRY), c, 1 << 1)
    assert st.cell_b[c] == B.QUARRY and st.pl[0, PF.WORKERS] == 1
    assert st.supply[Sup.COUNCIL_WORKERS] == sup - 1 and st.pl[0, PF.WOOD] == 0
    assert st.card_active[cid(19)] == 0


def test_card_25_market_sale_with_a_council_worker(blank, rules):
    """Card 25. 'You can do the Market or Corporation activation/construction action with the
    discount of 1 Worker. You can activate them, also if they are not adjacent to a your building.
    To gain the discount, place 1 City Council worker in your board's Market/Corporation activation
    space. If the City Council worker is not available, this card effect cannot be done.'"""
    st, r = blank, rules
    a = act_row(r, B.MARKET, inp=[0, 2, 0, 0, 0, 0])  # sell 2 stone
    set_items(st, 0, stone=2)
    _discount_activation(st, r, 25, B.MARKET, a, B.CHURCH)
    assert st.pl[0, PF.STONE] == 0 and coin_value(st, r, 0) == 2 * r.act_out[a, 6] + r.act_out[a, 7]


def test_card_58_barracks_activation_and_construction_with_a_council_worker(blank, rules):
    """Card 58. 'You can do the Barracks activation/construction action with the discount of 1
    Worker. You can activate it, also if they are not adjacent to a your building.' (A Barracks
    costs 2 workers to build: with the card, 1 of the seat's and 1 City Council worker.)"""
    st, r = blank, rules
    a = next(i for i in range(r.act_b.shape[0]) if r.act_b[i] == B.BARRACKS and r.act_kind[i] == 1)
    st.minis[0] = 0
    st.minis[0, 0, 0] = Mini.MILICIANO_VET
    set_items(st, 0, metal=r.act_in[a, 3])
    _discount_activation(st, r, 58, B.BARRACKS, a, B.CHURCH)
    assert st.minis[0, 0, 0] == Mini.SOLDIER and st.pl[0, PF.METAL] == 0
    # construction: 2 workers, 1 of them a City Council worker
    cost = r.b_cost[B.BARRACKS]
    assert cost[0] == 2
    set_items(st, 0, wood=cost[1], stone=cost[2], precious=cost[3], metal=cost[4])
    clear_map(st)
    st.pl[0, PF.WORKERS] = 1

    def barracks_rows():
        got = turn_rows(st, r, 0, Act.BUILD)
        return got[got[:, 1] == B.BARRACKS]

    assert len(barracks_rows()) == 0  # limit: 1 worker is not enough without the card
    upright(st, 58)
    use(st, r, 0, 58)
    got = barracks_rows()
    assert len(got) > 0 and set(got[:, 3].tolist()) == {1 << 1}
    c = int(got[0, 2])
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    apply_option(st, r, 0, Act.BUILD, int(B.BARRACKS), c, 1 << 1)
    assert st.cell_b[c] == B.BARRACKS and st.pl[0, PF.WORKERS] == 0 and st.supply[Sup.COUNCIL_WORKERS] == sup - 1


def test_card_65_church_activation_with_a_council_worker(blank, rules):
    """Card 65. 'You can do the Church activation/construction action with the discount of 1 Worker.
    You can activate them, also if they are not adjacent to a your building. ... If the City Council
    worker is not available, this card effect cannot be done.'"""
    st, r = blank, rules
    a = act_row(r, B.CHURCH, inp=[0, 0, 0, 0, 1, 0])  # 1 silver: 1 Faith token
    set_items(st, 0, silver=1)
    st.pl[0, PF.FAITH] = 0
    _discount_activation(st, r, 65, B.CHURCH, a, B.MARKET)
    assert st.pl[0, PF.FAITH] == r.act_out[a, 8] and coin_value(st, r, 0) == 0


def test_card_84_improve_status_with_a_council_worker_and_1_bronze_less(blank, rules):
    """Card 84. 'You can do the Improve Status action with the discount of 1 Worker and 1 bronze
    coin: pay 1 bronze coin less, and instead of using your worker, you must place a City Council
    worker in the Improve Status action space. If the City Council worker is not available, this
    card effect cannot be done.'"""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 84)
    p = r.aff_p[cid(84)]
    assert p[AP.WORKER_DISCOUNT] == 1 and p[AP.BRONZE_DISCOUNT] == 1
    st.pl[0, PF.ST_CONSTRUCTION:PF.ST_CONSTRUCTION + 4] = 0
    st.pl[0, PF.STATUS_MARKERS] = 2
    st.pl[0, PF.WORKERS] = 1
    st.pl[0, PF.CC_WORKERS] = 0
    price = int(r.k[RK.BRONZE_PER_SILVER] * r.st_silver[0])  # Level I: 1 worker, 1 silver
    assert r.st_workers[0] == 1
    set_items(st, 0, bronze=price - p[AP.BRONZE_DISCOUNT])
    assert len(turn_rows(st, r, 0, Act.STATUS)) == 0  # 1 bronze short
    use(st, r, 0, 84)
    # limit: no City Council worker, no discount
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert len(turn_rows(st, r, 0, Act.STATUS)) == 0
    st.supply[Sup.COUNCIL_WORKERS] = sup
    got = turn_rows(st, r, 0, Act.STATUS)
    assert sorted(got[:, 1].tolist()) == [0, 1, 2, 3] and set(got[:, 3].tolist()) == {1}
    apply_option(st, r, 0, Act.STATUS, 0, 1, 1)
    assert st.pl[0, PF.ST_CONSTRUCTION] == 1 and coin_value(st, r, 0) == 0
    assert st.pl[0, PF.WORKERS] == 1 and st.supply[Sup.COUNCIL_WORKERS] == sup - 1
    assert st.card_active[cid(84)] == 0


# ============================================================================= second activations


def _twice_card(st, r, num, building, res, other):
    """Cards 15 and 21: 'You can use a <building> twice in a single turn using 1 worker only.'
    Reading: 'One activation action with 1 worker resolves two activation effects (same or
    different, e.g. gain then convert) ...; the pair is the single activation recorded by that
    worker'. The first effect converts 2 resources into 1 precious, so that the only second effect
    the seat can pay is the gain."""
    clear_map(st)
    clear_hands(st)
    give(st, 0, num)
    p = r.aff_p[cid(num)]
    assert p[AP.USES] == 2 and p[AP.WORKERS] == 1
    conv = act_row(r, building, inp=[2 if i == res else 0 for i in range(6)])
    gain = act_row(r, building, inp=[0] * 6)
    o_gain = act_row(r, other, inp=[0] * 6)
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, other)
    put(st, r, 2, 0, building)
    put(st, r, 0, 1, building)
    c_other, c1, c2 = cell(r, 0, 0), cell(r, 2, 0), cell(r, 0, 1)
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 3
    set_items(st, 0)
    st.grids[8] = 2
    use(st, r, 0, num)
    # limit: another building type, one effect; the card still waits for its building
    apply_option(st, r, 0, Act.ACTIVATE, o_gain, c_other, 0)
    other_res = 1 - res
    assert st.pl[0, PF.WOOD + other_res] == r.act_out[o_gain, other_res] and st.card_active[cid(num)] == 1
    # the card's building: convert, then gain, for 1 worker
    set_items(st, 0, **{("wood", "stone")[res]: 2})
    placed = int(st.pl[0, PF.WORKERS_PLACED])
    apply_option(st, r, 0, Act.ACTIVATE, conv, c1, 0)
    assert st.pl[0, PF.PRECIOUS] == r.act_out[conv, 2]
    assert st.pl[0, PF.WOOD + res] == r.act_out[gain, res]
    assert st.pl[0, PF.WORKERS] == 1 and st.pl[0, PF.WORKERS_PLACED] == placed + 1  # 1 worker for both
    assert st.card_active[cid(num)] == 0 and st.act_used[0, c1] == 1
    # the one recorded activation: not offered again this decade; the card is spent
    assert all(b != c1 for b in turn_rows(st, r, 0, Act.ACTIVATE)[:, 2])
    before = int(st.pl[0, PF.WOOD + res])
    apply_option(st, r, 0, Act.ACTIVATE, gain, c2, 0)
    assert st.pl[0, PF.WOOD + res] == before + r.act_out[gain, res] and st.pl[0, PF.WORKERS] == 0


def test_card_15_carpentry_twice_with_1_worker(blank, rules):
    """Card 15. 'You can use a Carpentry or Wood Hacienda building twice in a single turn using 1
    worker only. For example, at Carpentry, with this card, you can gain 2 wood resources and convert
    them immediately into 1 precious resource using 1 Worker only.'"""
    _twice_card(blank, rules, 15, B.CARPENTRY, 0, B.QUARRY)


def test_card_21_quarry_twice_with_1_worker(blank, rules):
    """Card 21. 'You can use a Quarry or stone Hacienda building twice in a single turn using 1
    worker only. For example, with this card you can gain from a Quarry 4 stone resource using 1
    worker.'"""
    _twice_card(blank, rules, 21, B.QUARRY, 1, B.CARPENTRY)


def test_card_27_market_two_trades_with_1_worker(blank, rules):
    """Card 27. 'You can use a Market, a Corporation twice in 1 turn using 1 worker only. For
    example, with this card and 2 workers, you can sell 2 wood resources at the Market for 1 silver
    coin and sell 1 precious resource for another coin in a single action.' Reading: 'One Market OR
    one Corporation ... gives two trades (sale and/or purchase) for 1 worker'. The second trade is
    the seat's choice among those it can pay: the log names it."""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 27)
    assert r.aff_p[cid(27), AP.USES] == 2 and r.aff_p[cid(27), AP.WORKERS] == 1
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, B.MARKET)
    put(st, r, 2, 0, B.QUARRY)
    sell = act_row(r, B.MARKET, inp=[2, 0, 0, 0, 0, 0])
    st.pl[0, PF.WORKERS] = 2
    st.act_used[0, :] = 0
    use(st, r, 0, 27)
    # limit: a Quarry is not a Market or Corporation: one effect, the card still active
    set_items(st, 0)
    apply_option(st, r, 0, Act.ACTIVATE, act_row(r, B.QUARRY, inp=[0] * 6), 2, 0)
    assert st.pl[0, PF.STONE] == 2 and st.card_active[cid(27)] == 1
    set_items(st, 0, wood=2, precious=1)
    st.g[G.LOG_ON] = 1
    st.g[G.LOG_N] = 0
    apply_option(st, r, 0, Act.ACTIVATE, sell, 0, 0)
    log = st.log[:st.g[G.LOG_N]]
    trades = [int(e[2]) for e in log if e[0] == Ev.ACTIVATE and e[1] == 0]
    assert len(trades) == 2 and trades[0] == sell and r.act_b[trades[1]] == B.MARKET
    a2 = trades[1]
    assert st.pl[0, PF.WORKERS] == 0 and st.card_active[cid(27)] == 0 and st.act_used[0, 0] == 1  # 1 worker each
    # both trades applied: items = start - inputs + outputs
    rate = int(r.k[RK.BRONZE_PER_SILVER])

    def coins(v, i):
        return rate * v[i] + v[i + 1]

    start = {"wood": 2, "stone": 0, "precious": 1, "metal": 0, "coins": 0}
    for a in (sell, a2):
        i, o = r.act_in[a], r.act_out[a]
        start["wood"] += o[0] + o[3] - i[0]
        start["stone"] += o[1] + o[4] - i[1]
        start["precious"] += o[2] - i[2]
        start["metal"] += o[5] - i[3]
        start["coins"] += coins(o, 6) - coins(i, 4)
    assert (st.pl[0, PF.WOOD], st.pl[0, PF.STONE], st.pl[0, PF.PRECIOUS], st.pl[0, PF.METAL], coin_value(st, r, 0)) == (
        start["wood"], start["stone"], start["precious"], start["metal"], start["coins"])


def test_card_75_one_more_activation_with_another_worker(blank, rules):
    """Card 75. 'You can activate a building 1 additional time in a single turn. For example, with
    this card, a player can activate the same Carpentry two times using two workers.' (Unlike cards
    15, 21, 27 the extra activation takes another worker.)"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 75)
    assert r.aff_p[cid(75), AP.EXTRA_ACTIVATIONS] == 1
    conv = act_row(r, B.CARPENTRY, inp=[2, 0, 0, 0, 0, 0])
    gain = act_row(r, B.CARPENTRY, inp=[0] * 6)
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, B.CARPENTRY)
    put(st, r, 2, 0, B.CARPENTRY)
    st.act_used[0, :] = 0
    st.grids[8] = 3
    use(st, r, 0, 75)
    # limit: no worker left for the extra activation: one effect, the card waits
    st.pl[0, PF.WORKERS] = 1
    set_items(st, 0, wood=2)
    apply_option(st, r, 0, Act.ACTIVATE, conv, 0, 0)
    assert st.pl[0, PF.PRECIOUS] == 1 and st.pl[0, PF.WOOD] == 0 and st.card_active[cid(75)] == 1
    # two workers: the same Carpentry twice (convert, then gain)
    st.pl[0, PF.WORKERS] = 2
    set_items(st, 0, wood=2)
    apply_option(st, r, 0, Act.ACTIVATE, conv, 2, 0)
    assert st.pl[0, PF.PRECIOUS] == r.act_out[conv, 2] and st.pl[0, PF.WOOD] == r.act_out[gain, 0]
    assert st.pl[0, PF.WORKERS] == 0 and st.card_active[cid(75)] == 0


# ============================================================================= cheaper construction


PALACE = int(B.PALACE)  # a plain int: an IntEnum argument would compile the kernels again for its type


def _palace_state(st, r, num):
    clear_map(st)
    clear_hands(st)
    give(st, 0, num)
    put(st, r, 4, 2, B.HOUSE, 0)
    st.pl[0, PF.ST_CONSTRUCTION] = 0  # no resource swaps
    st.pl[0, PF.WORKERS] = r.b_cost[B.PALACE, 0]
    assert st.pl[0, PF.PALACE_MARKERS] > 0 and st.supply[Sup.PALACE] > 0
    return 4 + 2 * int(r.k[RK.MAP_W])


def _palace_rows(st, r, c):
    got = turn_rows(st, r, 0, Act.BUILD)
    return got[(got[:, 1] == B.PALACE) & (got[:, 2] == c)]


def test_card_16_wood_cost_of_one_construction_is_0(blank, rules):
    """Card 16. 'One of your single costs in wood is reduced to 0. This works for 1 action only. ...
    For example, you can build a palace with this card alone by paying 4 workers 3 stone 1 precious
    and 1 metal resource.'"""
    st, r = blank, rules
    p = r.aff_p[cid(16)]
    assert p[AP.COST_TO] == 0 and p[AP.ACTIONS] == 1
    c = _palace_state(st, r, 16)
    cost = r.b_cost[B.PALACE]
    assert cost[1] > 0
    set_items(st, 0, stone=cost[2], precious=cost[3], metal=cost[4])
    assert len(_palace_rows(st, r, c)) == 0  # no wood
    use(st, r, 0, 16)
    assert build_wood_stone(st, r, 0, PALACE) == (0, cost[2])
    assert len(_palace_rows(st, r, c)) == 1
    apply_option(st, r, 0, Act.BUILD, int(B.PALACE), c, 0)
    assert st.cell_b[c] == B.PALACE and st.pl[0, PF.WORKERS] == 0
    assert (st.pl[0, PF.WOOD], st.pl[0, PF.STONE], st.pl[0, PF.PRECIOUS], st.pl[0, PF.METAL]) == (0, 0, 0, 0)
    # limit: 1 action only: the next construction pays its wood
    assert st.card_active[cid(16)] == 0
    assert build_wood_stone(st, r, 0, PALACE) == (cost[1], cost[2])


def test_card_22_stone_cost_0_and_with_card_16_both_costs_1(blank, rules):
    """Card 22. 'One of your single costs in stone is reduced to 0. This works for 1 action only. If
    used in combination with card 16, however, both cards' effect is to reduce the cost of both
    resources to 1. For example, you can build a Palace with both cards by paying 4 workers 1 wood 1
    stone 1 precious and 1 metal resource.'"""
    st, r = blank, rules
    p = r.aff_p[cid(22)]
    assert p[AP.COST_TO] == 0 and p[AP.COMBO_WOOD_TO] == 1 and p[AP.COMBO_STONE_TO] == 1
    c = _palace_state(st, r, 22)
    give(st, 0, 16)
    cost = r.b_cost[B.PALACE]
    use(st, r, 0, 22)
    assert build_wood_stone(st, r, 0, PALACE) == (cost[1], 0)  # alone: stone 0
    use(st, r, 0, 16)
    assert build_wood_stone(st, r, 0, PALACE) == (1, 1)  # together: 1 and 1
    # limit: together the costs are 1, not 0
    set_items(st, 0, precious=cost[3], metal=cost[4])
    assert len(_palace_rows(st, r, c)) == 0
    set_items(st, 0, wood=1, stone=1, precious=cost[3], metal=cost[4])
    assert len(_palace_rows(st, r, c)) == 1
    apply_option(st, r, 0, Act.BUILD, int(B.PALACE), c, 0)
    assert st.cell_b[c] == B.PALACE
    assert (st.pl[0, PF.WOOD], st.pl[0, PF.STONE], st.pl[0, PF.PRECIOUS], st.pl[0, PF.METAL]) == (0, 0, 0, 0)
    assert st.card_active[cid(16)] == 0 and st.card_active[cid(22)] == 0  # one action, both spent


# ============================================================================= supply instead of the board


def _supply_card(st, r, num, building, a, res):
    """Cards 18, 24, 30: 'If you have to take <res> resources, you can receive them from the game
    supply instead of from the board.' Reading: 'For the <res> the action you take this turn makes
    you acquire ... from the game supply instead of the board grids, so no grid/stack is emptied and
    no last-resource VP is lost.' One grid of the type holds 1 cube, the others none."""
    clear_map(st)
    clear_hands(st)
    give(st, 0, num)
    assert r.aff_res[cid(num)] == res
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, building)
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 2
    lo, hi = grid_range(r, res)
    st.grids[lo:hi] = 0
    st.grids[lo] = 1
    use(st, r, 0, num)
    want = int(r.act_out[a, res])
    assert want >= 1
    held, sup, vp = int(st.pl[0, PF.WOOD + res]), int(st.supply[Sup.WOOD + res]), int(st.pl[0, PF.VP])
    apply_option(st, r, 0, Act.ACTIVATE, a, 0, 0)
    assert st.pl[0, PF.WOOD + res] == held + want and st.supply[Sup.WOOD + res] == sup - want
    assert st.grids[lo] == 1 and st.pl[0, PF.VP] == vp  # the board untouched, no last-resource VP
    # limit: the turn the card is used in; afterwards the board again (and its last-cube VP)
    end_turn(st, 0)
    assert take_from_grids(st, r, 0, res, 1) == 1
    assert st.grids[lo] == 0 and st.pl[0, PF.VP] == vp + r.k[RK.GRID_LAST_VP]


def test_card_18_wood_from_the_game_supply(blank, rules):
    """Card 18. 'If you have to take wood resources, you can receive them from the game supply
    instead of from the board.'"""
    st, r = blank, rules
    _supply_card(st, r, 18, B.CARPENTRY, act_row(r, B.CARPENTRY, inp=[0] * 6), 0)
    # limit: wood only: stone still comes from the board
    upright(st, 18)
    use(st, r, 0, 18)
    lo, hi = grid_range(r, 1)
    stones = int(st.grids[lo:hi].sum())
    assert take_from_grids(st, r, 0, 1, 1) == 1 and st.grids[lo:hi].sum() == stones - 1


def test_card_24_stone_from_the_game_supply(blank, rules):
    """Card 24. 'If you have to take stone resources, you can receive them from the game supply
    instead of from the board.'"""
    st, r = blank, rules
    _supply_card(st, r, 24, B.QUARRY, act_row(r, B.QUARRY, inp=[0] * 6), 1)
    upright(st, 24)
    use(st, r, 0, 24)
    lo, hi = grid_range(r, 0)
    wood = int(st.grids[lo:hi].sum())
    assert take_from_grids(st, r, 0, 0, 1) == 1 and st.grids[lo:hi].sum() == wood - 1


def test_card_30_precious_from_the_game_supply(blank, rules):
    """Card 30. 'If you have to take precious resources, you can receive them from the game supply
    instead of from the board.'"""
    st, r = blank, rules
    set_items(st, 0, stone=2)
    _supply_card(st, r, 30, B.QUARRY, act_row(r, B.QUARRY, inp=[0, 2, 0, 0, 0, 0]), 2)
    assert st.pl[0, PF.STONE] == 0


def test_card_18_short_supply_the_rest_comes_from_the_board(blank, rules):
    """Card 18 reading: 'you may take any or all of them from the game supply instead of the board
    grids'. With 1 wood left in the game supply and 2 wood to take, the player takes 1 from the
    supply and 1 from the board (COIN STACKS AND RESOURCE GRIDS: take all available up to the
    amount), not 1 wood in all."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 18)
    use(st, r, 0, 18)
    lo, hi = grid_range(r, 0)
    st.grids[lo:hi] = 3
    st.supply[Sup.WOOD] = 1
    set_items(st, 0)
    assert take_from_grids(st, r, 0, 0, 2) == 2
    assert st.pl[0, PF.WOOD] == 2 and st.supply[Sup.WOOD] == 0 and st.grids[lo:hi].sum() == 3 * (hi - lo) - 1


def test_card_66_coins_from_the_game_supply(blank, rules):
    """Card 66. 'If you have to take coins, you can receive them from the game supply.' Reading:
    'For the coins the action you take this turn makes you acquire, you may take any or all of them
    from the game supply instead of the board coin stacks, so no grid/stack is emptied and no
    last-coin VP is lost.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 66)
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, B.MARKET)
    sell = act_row(r, B.MARKET, inp=[2, 0, 0, 0, 0, 0])
    assert r.act_out[sell, 6] == 1
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 1
    st.stacks[:] = 0
    st.stacks[0] = [1, 0]  # the board's last coin
    set_items(st, 0, wood=2)
    use(st, r, 0, 66)
    sup, vp = int(st.supply[Sup.SILVER]), int(st.pl[0, PF.VP])
    apply_option(st, r, 0, Act.ACTIVATE, sell, 0, 0)
    assert st.pl[0, PF.SILVER] == 1 and st.supply[Sup.SILVER] == sup - 1
    assert st.stacks[0].tolist() == [1, 0] and st.pl[0, PF.VP] == vp
    # limit: only coins: a resource gain still comes from the board
    lo, hi = grid_range(r, 0)
    wood = int(st.grids[lo:hi].sum())
    assert take_from_grids(st, r, 0, 0, 1) == 1 and st.grids[lo:hi].sum() == wood - 1
    # limit: this turn only: afterwards the stacks again, emptying one costs the VP
    end_turn(st, 0)
    take_coins(st, r, 0, 1, 0)
    assert st.pl[0, PF.SILVER] == 2 and st.stacks.sum() == 0 and st.pl[0, PF.VP] == vp + r.k[RK.GRID_LAST_VP]


def test_card_29_one_more_precious(blank, rules):
    """Card 29. 'If you gain at least 1 precious resource, obtain 1 more, if available. For example,
    you can use a Quarry with 2 stone resources with this card and gain 2 precious resources instead
    of 1.' Reading: 'take 1 more (one, not one per precious) from the board's precious grid; if the
    grid is empty you get nothing, and taking its last resource costs 1 VP as usual.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 29)
    p = r.aff_p[cid(29)]
    assert p[AP.MIN_PRECIOUS_GAINED] == 1 and p[AP.EXTRA_PRECIOUS] == 1
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, B.QUARRY)
    put(st, r, 2, 0, B.CARPENTRY)
    conv = act_row(r, B.QUARRY, inp=[0, 2, 0, 0, 0, 0])
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 3
    st.grids[8] = 3
    set_items(st, 0, stone=2)
    use(st, r, 0, 29)
    # limit: a wood gain is no precious gain: the card waits
    apply_option(st, r, 0, Act.ACTIVATE, act_row(r, B.CARPENTRY, inp=[0] * 6), 2, 0)
    assert st.pl[0, PF.PRECIOUS] == 0 and st.card_active[cid(29)] == 1
    apply_option(st, r, 0, Act.ACTIVATE, conv, 0, 0)
    assert st.pl[0, PF.PRECIOUS] == r.act_out[conv, 2] + p[AP.EXTRA_PRECIOUS] == 2
    assert st.grids[8] == 1 and st.card_active[cid(29)] == 0
    # limit: once per use: the next precious gain of the turn gets no extra
    assert take_from_grids(st, r, 0, 2, 1) == 1 and st.pl[0, PF.PRECIOUS] == 3
    # limit: 'if available': the grid's last precious taken, none left for the extra one
    end_turn(st, 0)
    upright(st, 29)
    use(st, r, 0, 29)
    st.grids[8] = 1
    vp = int(st.pl[0, PF.VP])
    assert take_from_grids(st, r, 0, 2, 1) == 1
    assert st.pl[0, PF.PRECIOUS] == 4 and st.pl[0, PF.VP] == vp + r.k[RK.GRID_LAST_VP]


# ============================================================================= card 32, Roads bonus, Veteran Soldier


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
    assert r.aff_p[cid(32), AP.DISTRICTS] == 1
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


def test_card_39_one_more_faith_or_bronze_in_a_district_with_roads(blank, rules):
    """Card 39. 'Gain +1 resource or +1 bronze coin or +1 Faith token (depending on your activation
    type) when you activate a building in a District with Roads. ... For Example, with this card,
    when you activate a Church in a district with Roads, you will gain 2 Faith tokens, or when you
    activate a Market to sell 2 stone resources, you will gain 1 bronze and 1 silver coin.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 39)
    p = r.aff_p[cid(39)]
    assert p[AP.EXTRA_FAITH] == 1 and p[AP.EXTRA_BRONZE] == 1 and p[AP.EXTRA_RESOURCE] == 1
    church = act_row(r, B.CHURCH, inp=[0, 0, 0, 0, 1, 0])
    sell = act_row(r, B.MARKET, inp=[0, 2, 0, 0, 0, 0])
    put(st, r, 0, 0, B.CHURCH)  # district 0, with Roads
    put(st, r, 1, 0, B.MARKET)  # district 0
    put(st, r, 10, 1, B.MARKET)  # district 3, no Roads, next to the seat's Lot
    put(st, r, 10, 2, B.LOT, 0)
    st.roads[0] = 1
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 3
    st.pl[0, PF.FAITH] = 0
    use(st, r, 0, 39)
    # limit: a district without Roads: the usual sale, the card waits
    set_items(st, 0, stone=2)
    apply_option(st, r, 0, Act.ACTIVATE, sell, cell(r, 10, 1), 0)
    assert st.pl[0, PF.SILVER] == 1 and st.pl[0, PF.BRONZE] == 0 and st.card_active[cid(39)] == 1
    # the Church in the district with Roads: 2 Faith tokens
    set_items(st, 0, silver=1)
    apply_option(st, r, 0, Act.ACTIVATE, church, 0, 0)
    assert st.pl[0, PF.FAITH] == r.act_out[church, 8] + p[AP.EXTRA_FAITH] == 2
    assert st.card_active[cid(39)] == 0  # one activation per use
    # the Market sale of 2 stone: 1 silver and 1 bronze
    upright(st, 39)
    use(st, r, 0, 39)
    set_items(st, 0, stone=2)
    apply_option(st, r, 0, Act.ACTIVATE, sell, 1, 0)
    assert st.pl[0, PF.SILVER] == 1 and st.pl[0, PF.BRONZE] == p[AP.EXTRA_BRONZE]


def test_card_39_extra_resource_comes_from_the_board_grids(blank, rules):
    """Card 39 reading: '+1 of the resource type that activation yields ... Wood/stone/precious come
    from the board grids, metal and Faith from the game supply, bronze from the coin stacks.' A
    Carpentry's 2 wood and the card's 1 more all come from the wood grids."""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 39)
    put(st, r, 0, 0, B.CARPENTRY)
    st.roads[0] = 1
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 1
    set_items(st, 0)
    lo, hi = grid_range(r, 0)
    st.grids[lo:hi] = 3
    sup = int(st.supply[Sup.WOOD])
    use(st, r, 0, 39)
    apply_option(st, r, 0, Act.ACTIVATE, act_row(r, B.CARPENTRY, inp=[0] * 6), 0, 0)
    assert st.pl[0, PF.WOOD] == 3
    assert st.grids[lo:hi].sum() == 3 * (hi - lo) - 3 and st.supply[Sup.WOOD] == sup


def test_card_52_veteran_soldier_without_the_fort(blank, rules):
    """Card 52. 'You can acquire a Veteran Soldier without the Fort.' Reading: 'For one Barracks
    activation, the Soldier -> Veteran Soldier upgrade (1 worker + 1 metal, with a Soldier and a War
    marker) is allowed without the Fort; every other requirement stays.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 52)
    assert r.aff_p[cid(52), AP.VETERAN_SOLDIERS] == 1
    vet = next(i for i in range(r.act_b.shape[0]) if r.act_b[i] == B.BARRACKS and r.act_kind[i] == 2)
    put(st, r, 1, 1, B.LOT, 0)
    put(st, r, 0, 0, B.BARRACKS)
    put(st, r, 2, 0, B.BARRACKS)
    st.act_used[0, :] = 0
    st.pl[0, PF.WORKERS] = 2
    st.minis[0] = 0
    st.minis[0, 0, 0] = Mini.SOLDIER
    st.minis[0, 1, 0] = Mini.SOLDIER
    assert st.major_state[r.act_needs[vet], 1] == 0  # no Fort
    set_items(st, 0, metal=r.act_in[vet, 3])
    assert (vet, 0) not in _offered_at(st, r, 0, 0)
    use(st, r, 0, 52)
    # limit: every other requirement stays (the metal)
    set_items(st, 0)
    assert (vet, 0) not in _offered_at(st, r, 0, 0)
    set_items(st, 0, metal=r.act_in[vet, 3])
    assert (vet, 0) in _offered_at(st, r, 0, 0)
    apply_option(st, r, 0, Act.ACTIVATE, vet, 0, 0)
    assert sorted(st.minis[0, :2, 0].tolist()) == sorted([Mini.SOLDIER_VET, Mini.SOLDIER]) and st.pl[0, PF.METAL] == 0
    # limit: one Veteran Soldier per use
    assert st.card_active[cid(52)] == 0
    set_items(st, 0, metal=r.act_in[vet, 3])
    assert (vet, 0) not in _offered_at(st, r, 0, 2)


# ============================================================================= Load the Ship


def test_card_38_bronze_per_road_district_for_3_identical_resources(blank, rules):
    """Card 38. 'When you do a Load the Ship action with 3 identical resources, use an additional
    worker to gain 1 bronze coin for every District with Roads.' Reading: 'place 1 more of your
    workers on the Dock and immediately take 1 bronze per district with Roads from the board coin
    stacks'."""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 38)
    p = r.aff_p[cid(38)]
    assert p[AP.EXTRA_WORKERS] == 1 and p[AP.BRONZE_PER_ROAD_DISTRICT] == 1
    st.roads[[0, 3, 7]] = 1
    use(st, r, 0, 38)
    ship = int(r.k[RK.SHIP_WORKERS])
    # limit: a triplet is not 3 identical resources: nothing more, the card waits
    load(st, r, 0, lambda q: q[0] == q[1] == q[2] == 1)
    assert coin_value(st, r, 0) == 0 and st.pl[0, PF.WORKERS] == r.k[RK.WORKERS] - ship
    assert st.card_active[cid(38)] == 1
    st.pl[0, PF.SHIP_LOAD] = -1
    stacks = int(2 * st.stacks[:, 0].sum() + st.stacks[:, 1].sum())
    load(st, r, 0, three(1))
    assert st.pl[0, PF.BRONZE] == 3 * p[AP.BRONZE_PER_ROAD_DISTRICT] and st.pl[0, PF.SILVER] == 0
    assert int(2 * st.stacks[:, 0].sum() + st.stacks[:, 1].sum()) == stacks - 3  # from the board's stacks
    assert st.pl[0, PF.WORKERS] == r.k[RK.WORKERS] - ship - p[AP.EXTRA_WORKERS]
    assert st.card_active[cid(38)] == 0


def test_card_47_silver_for_a_triplet_with_one_more_worker(blank, rules):
    """Card 47. 'When you do a Load the Ship action with a triplet, use 1 additional worker to gain 1
    silver coin. For example, the Blue player loads 1 stone, 1 wood and 1 precious on the Dock using
    3 workers and this card. They immediately receive 1 silver coin.'"""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 47)
    p = r.aff_p[cid(47)]
    assert p[AP.EXTRA_WORKERS] == 1 and p[AP.SILVER] == 1
    use(st, r, 0, 47)
    ship = int(r.k[RK.SHIP_WORKERS])
    # limit: 3 wood is not a triplet
    load(st, r, 0, three(0))
    assert coin_value(st, r, 0) == 0 and st.card_active[cid(47)] == 1
    st.pl[0, PF.SHIP_LOAD] = -1
    ld = load(st, r, 0, lambda q: q[0] == q[1] == q[2] == 1)
    assert ld == r.aff_load[cid(47)]
    assert st.pl[0, PF.SILVER] == p[AP.SILVER] and st.pl[0, PF.BRONZE] == 0
    assert r.k[RK.WORKERS] - st.pl[0, PF.WORKERS] == ship + p[AP.EXTRA_WORKERS] == 3  # 'using 3 workers'
    assert st.card_active[cid(47)] == 0


def test_card_43_load_the_ship_with_council_workers(blank, rules):
    """Card 43. 'You can do the Load the Ship action discounting the Workers cost. To gain this
    discount, place 2 City Council workers, or 1 if the Harbor has been built, in the Dock space of
    the board. If the City Council worker(s) is (are) not available, this card effect cannot be
    applied.'"""
    st, r = blank, rules
    clear_map(st)
    clear_hands(st)
    give(st, 0, 43)
    p = r.aff_p[cid(43)]
    n, nh = int(p[AP.COUNCIL_WORKERS]), int(p[AP.COUNCIL_WORKERS_WITH_HARBOR])
    assert (n, nh) == (r.k[RK.SHIP_WORKERS], r.k[RK.SHIP_WORKERS_HARBOR]) == (2, 1)
    st.pl[0, PF.WORKERS] = 1
    st.pl[0, PF.CC_WORKERS] = 0
    set_items(st, 0, wood=3)
    assert len(turn_rows(st, r, 0, Act.SHIP)) == 0  # 1 worker: not enough
    use(st, r, 0, 43)
    # limit: only 1 City Council worker in the supply: no discount
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    st.supply[Sup.COUNCIL_WORKERS] = n - 1
    assert len(turn_rows(st, r, 0, Act.SHIP)) == 0
    st.supply[Sup.COUNCIL_WORKERS] = sup
    got = turn_rows(st, r, 0, Act.SHIP)
    ld = int(got[0, 1])
    assert r.ship_put[ld, 0] == 3
    apply_option(st, r, 0, Act.SHIP, ld, 0, 0)
    assert st.pl[0, PF.WORKERS] == 1 and st.supply[Sup.COUNCIL_WORKERS] == sup - n
    assert st.dock[0] == 3 and st.card_active[cid(43)] == 0
    # with the Harbor built: 1 City Council worker
    end_turn(st, 0)
    st.pl[0, PF.SHIP_LOAD] = -1
    st.g[G.HARBOR_BUILT] = 1
    set_items(st, 0, wood=3)
    upright(st, 43)
    use(st, r, 0, 43)
    st.supply[Sup.COUNCIL_WORKERS] = nh
    apply_option(st, r, 0, Act.SHIP, ld, 0, 0)
    assert st.pl[0, PF.WORKERS] == 1 and st.supply[Sup.COUNCIL_WORKERS] == 0


# ============================================================================= City Council votes


def test_card_40_one_vote_per_district_with_roads(blank, rules):
    """Card 40. '⚡ Use this card before a City Council voting procedure begins. You will gain +1 vote
    for each district with Roads.' Reading: 'your vote gets +1 per district with Roads on the side
    (yes/no) you vote, none if you abstain; these votes cost no City Council points.'"""
    st, r = blank, rules
    _vote_state(st)
    give(st, 0, 40)
    per = int(r.aff_p[cid(40), AP.VOTES_PER_ROAD_DISTRICT])
    assert per == 1
    st.roads[:] = 0
    st.roads[[0, 3, 7]] = 1
    st.pl[:4, PF.COUNCIL] = 10
    d = int(st.g[G.DECADE])
    vote_as(st, r, 1, SIDE_NO, 3)
    call_vote(st, r, 0, Law.SPAIN, 1)  # the legislator: yes with 1, +3 from the card
    assert st.pl[1, PF.COUNCIL] == 10 - 3  # the scripted vote: no with 3
    assert st.spain[d + 1] == 1  # 1 + 3 > 3: approved
    assert st.pl[0, PF.COUNCIL] == 10 - 1  # the card's votes are free
    assert st.card_rot[cid(40)] == 1
    # limit: a holder who abstains adds nothing (the card is played before the votes)
    clear_hands(st)
    give(st, 2, 40)
    _new_vote(st)
    st.spain[:] = 0
    vote_as(st, r, 1, SIDE_NO, 3)
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.pl[1, PF.COUNCIL] == 10 - 3 - 3
    assert st.spain.sum() == 0 and st.pl[2, PF.COUNCIL] == 10  # rejected, 1 against 3


def test_card_63_halves_a_players_votes_for_1_bronze(blank, rules):
    """Card 63. '⚡ Spend 1 bronze coin to decrease the City Council votes made by a player by half
    (rounded down). ... After the vote, the target player will decrease their City Council value by
    half (rounded down). For example, ... the Blue player has 5 "yes" votes, which are reduced to
    2.' Reading: 'that player's votes count floor(v/2) (5 -> 2), and after the vote they lose only
    floor(v/2) City Council points for them.'"""
    st, r = blank, rules
    _vote_state(st)
    give(st, 2, 63)
    p = r.aff_p[cid(63)]
    assert p[AP.PAY_BRONZE] == 1 and 5 // p[AP.VOTES_DIVISOR] == 2
    d = int(st.g[G.DECADE])
    st.pl[:4, PF.COUNCIL] = [10, 5, 5, 5]
    set_items(st, 2, bronze=p[AP.PAY_BRONZE])
    vote_as(st, r, 1, SIDE_NO, 3)
    call_vote(st, r, 0, Law.SPAIN, 1)
    half = 3 // int(p[AP.VOTES_DIVISOR])
    assert half == 1
    assert st.pl[1, PF.COUNCIL] == 5 - half  # pays only the votes that counted
    assert st.spain[d + 1] == 1  # 1 against 1: the higher City Council value (10 > 5) wins
    assert coin_value(st, r, 2) == 0 and st.card_rot[cid(63)] == 1
    # limit: without a bronze coin the card cannot be played: 1 against 3, rejected
    upright(st, 63)
    _new_vote(st)
    st.spain[:] = 0
    st.pl[:4, PF.COUNCIL] = [10, 5, 5, 5]
    vote_as(st, r, 1, SIDE_NO, 3)
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.pl[1, PF.COUNCIL] == 5 - 3 and st.spain.sum() == 0 and st.card_rot[cid(63)] == 0


def test_card_72_halves_a_city_council_vp_penalty(blank, rules):
    """Card 72. '⚡ Reduce any City Council VPs penalty by half (round down). For example, the Blue
    player City council score is 2. During a vote, they uses 7 votes, so they should take 12 VPs
    penalty. With this card they can reduce the penalty to 6 VPs.'"""
    st, r = blank, rules
    clear_hands(st)
    st.pl[:, PF.ST_VP] = 0
    give(st, 1, 72)
    div = int(r.aff_p[cid(72), AP.PENALTY_DIVISOR])
    full = int(r.k[RK.BELOW_ONE_BASE] + r.k[RK.BELOW_ONE_PER_POINT] * (7 - 2))
    assert full == -12 and div == 2
    # limit: no penalty, the card is kept
    st.pl[1, PF.COUNCIL] = 10
    council_cost(st, r, 1, 3)
    assert st.pl[1, PF.COUNCIL] == 7 and st.card_rot[cid(72)] == 0
    # limit: another player's penalty is paid in full
    st.pl[2, PF.COUNCIL] = 2
    vp2 = int(st.pl[2, PF.VP])
    council_cost(st, r, 2, 7)
    assert st.pl[2, PF.VP] == vp2 + full and st.card_rot[cid(72)] == 0
    # the rulebook example: 12 VPs become 6
    st.pl[1, PF.COUNCIL] = 2
    vp1, below = int(st.pl[1, PF.VP]), int(st.vps[1, VS.COUNCIL_BELOW])
    council_cost(st, r, 1, 7)
    assert st.pl[1, PF.VP] == vp1 - 12 // div and st.vps[1, VS.COUNCIL_BELOW] == below - 6
    assert st.pl[1, PF.COUNCIL] == r.k[RK.COUNCIL_RESET] and st.card_rot[cid(72)] == 1
    # limit: rotated, the next penalty is paid in full
    st.pl[1, PF.COUNCIL] = 2
    council_cost(st, r, 1, 7)
    assert st.pl[1, PF.VP] == vp1 - 6 + full


def test_card_79_winning_a_vote_moves_a_tension_marker_2_steps_back(blank, rules):
    """Card 79. '⚡ After winning a Council vote, you can reduce a Pirates or Native Tension level by
    2 steps.' Reading: 'move one tension marker (Pirates or Natives) 2 steps back: a single disk
    stops at space 0; a double disk stepping back from space 0 becomes a single disk on space 7.'"""
    st, r = blank, rules
    _vote_state(st)
    give(st, 0, 79)
    steps = int(r.aff_p[cid(79), AP.TENSION_STEPS_DOWN])
    assert steps == 2
    st.pl[:4, PF.COUNCIL] = 10
    st.g[G.NAT_POS] = st.g[G.PIR_POS] = 4
    st.g[G.NAT_DOUBLE] = st.g[G.PIR_DOUBLE] = 0
    call_vote(st, r, 0, Law.SPAIN, 1)  # the legislator alone votes yes: won
    assert sorted([int(st.g[G.NAT_POS]), int(st.g[G.PIR_POS])]) == [4 - steps, 4]  # one marker only
    assert st.card_rot[cid(79)] == 1
    # a double disk on space 1 goes back to a single disk on the last space
    last = int(r.k[RK.TENSION_SPACES]) - 1
    upright(st, 79)
    _new_vote(st)
    st.g[G.NAT_POS] = st.g[G.PIR_POS] = 1
    st.g[G.NAT_DOUBLE] = st.g[G.PIR_DOUBLE] = 1
    call_vote(st, r, 0, Law.SPAIN, 1)
    got = sorted([(int(st.g[G.NAT_POS]), int(st.g[G.NAT_DOUBLE])), (int(st.g[G.PIR_POS]), int(st.g[G.PIR_DOUBLE]))])
    assert got == [(1, 1), (last, 0)]
    # limit: not on the winning side (the holder abstains): no use
    clear_hands(st)
    give(st, 1, 79)
    _new_vote(st)
    st.g[G.NAT_POS] = st.g[G.PIR_POS] = 4
    st.g[G.NAT_DOUBLE] = st.g[G.PIR_DOUBLE] = 0
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.g[G.NAT_POS] == st.g[G.PIR_POS] == 4 and st.card_rot[cid(79)] == 0


def test_card_80_up_to_2_more_votes_after_the_result_paid_in_council_points(blank, rules):
    """Card 80. '⚡ Increase your vote up to 2 votes. You can use this card also after seeing the vote
    result. You have to pay these additional votes, as usual, decreasing your City Council value.'
    Reading: 'Add 1 or 2 votes to the side (yes/no) you voted, before or after the reveal; they cost
    City Council points like vote tiles; a player who abstained has no vote to increase.'"""
    st, r = blank, rules
    _vote_state(st)
    give(st, 0, 80)
    most = int(r.aff_p[cid(80), AP.EXTRA_VOTES_MAX])
    assert most == 2
    d = int(st.g[G.DECADE])
    st.pl[:4, PF.COUNCIL] = [10, 5, 5, 5]
    vote_as(st, r, 1, SIDE_NO, 2)
    call_vote(st, r, 0, Law.SPAIN, 1)  # revealed: yes 1, no 2; then the card adds 1 or 2 to yes
    assert st.pl[1, PF.COUNCIL] == 5 - 2
    extra = 10 - 1 - int(st.pl[0, PF.COUNCIL])
    assert 1 <= extra <= most  # paid in City Council points
    assert st.spain[d + 1] == 1  # 2 against 2 (City Council 10 > 5) or 3 against 2: approved
    assert st.card_rot[cid(80)] == 1
    # limit: a holder who abstained has no vote to increase
    clear_hands(st)
    give(st, 2, 80)
    _new_vote(st)
    st.spain[:] = 0
    vote_as(st, r, 1, SIDE_NO, 2)
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.spain.sum() == 0 and st.card_rot[cid(80)] == 0 and st.pl[2, PF.COUNCIL] == 5


def test_card_81_winning_a_vote_raises_the_last_item_penalty_for_all_this_decade(blank, rules):
    """Card 81. '⚡ After winning a Council vote, you can increase the penalty to take the last
    resource from a board grid (or the last coin from a board stack) to 3 VPs for the current
    decade. The increased penalty works for all players.'"""
    st, r = blank, rules
    _vote_state(st)
    give(st, 0, 81)
    pen = int(r.aff_p[cid(81), AP.LAST_TAKE_PENALTY_VP])
    assert pen == 3 and r.k[RK.GRID_LAST_VP] == -1
    lo, hi = grid_range(r, 0)

    def last_cube(seat):
        st.grids[lo:hi] = 0
        st.grids[lo] = 1
        vp = int(st.pl[seat, PF.VP])
        assert take_from_grids(st, r, seat, 0, 1) == 1
        return int(st.pl[seat, PF.VP]) - vp

    def last_coin(seat):
        st.stacks[:] = 0
        st.stacks[1] = [0, 1]
        vp = int(st.pl[seat, PF.VP])
        take_coins(st, r, seat, 0, 1)
        return int(st.pl[seat, PF.VP]) - vp

    # limit: the holder abstains, not a winner: no use
    clear_hands(st)
    give(st, 1, 81)
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.card_rot[cid(81)] == 0 and last_cube(2) == r.k[RK.GRID_LAST_VP]
    # the holder wins the vote: 3 VPs for everyone, this decade
    _new_vote(st)
    clear_hands(st)
    give(st, 0, 81)
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.card_rot[cid(81)] == 1
    assert last_cube(2) == -pen and last_coin(3) == -pen and last_cube(0) == -pen
    # limit: the current decade only
    st.g[G.DECADE] += 1
    assert last_cube(2) == r.k[RK.GRID_LAST_VP] and last_coin(3) == r.k[RK.GRID_LAST_VP]


# ============================================================================= payments


def test_card_78_one_bronze_off_a_payment(blank, rules):
    """Card 78. '⚡ Gain a discount of 1 bronze coin in any payment. It includes also payment due to
    other players.' Reading: 'One coin payment you make (to the supply or to a player) is reduced by
    1 bronze's worth; a cost in silver is paid with the rest in bronze (1 silver -> 1 bronze).'"""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 78)
    assert r.aff_p[cid(78), AP.BRONZE_DISCOUNT] == 1
    # limit: nothing to pay, the card is kept
    set_items(st, 0, silver=1)
    pay_coins(st, r, 0, 0)
    assert st.card_rot[cid(78)] == 0 and st.pl[0, PF.SILVER] == 1
    # limit: another player's payment is not discounted
    set_items(st, 1, silver=1)
    pay_coins(st, r, 1, 2)
    assert coin_value(st, r, 1) == 0 and st.card_rot[cid(78)] == 0
    # Improve Status to Level I costs 1 silver: the holder pays 1 bronze's worth
    st.pl[0, PF.ST_CONSTRUCTION:PF.ST_CONSTRUCTION + 4] = 0
    st.pl[0, PF.STATUS_MARKERS] = 2
    st.pl[0, PF.WORKERS] = 1
    price = int(r.k[RK.BRONZE_PER_SILVER] * r.st_silver[0])
    assert price == 2
    sup_s, sup_b = int(st.supply[Sup.SILVER]), int(st.supply[Sup.BRONZE])
    apply_option(st, r, 0, Act.STATUS, 0, 1, 0)
    assert st.pl[0, PF.ST_CONSTRUCTION] == 1
    assert st.pl[0, PF.SILVER] == 0 and st.pl[0, PF.BRONZE] == 1  # 1 silver paid, 1 bronze change
    assert st.supply[Sup.SILVER] == sup_s + 1 and st.supply[Sup.BRONZE] == sup_b - 1
    assert st.card_rot[cid(78)] == 1 and st.card_uses[cid(78)] == 1
    # limit: one payment per use
    pay_coins(st, r, 0, 1)
    assert coin_value(st, r, 0) == 0


def test_card_78_discount_on_a_payment_to_another_player(blank, rules):
    """Card 78: 'It includes also payment due to other players.' Reading: 'One coin payment you make
    (to the supply or to a player) is reduced by 1 bronze's worth'. Buying a card of the buyer's
    group from another player (Take a card: 1 bronze to that player) with card 78: the buyer pays 1
    bronze less, and the seller receives that payment, 1 bronze less."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 78)
    grp = int(st.pl[0, PF.CHARACTER])
    num = 13 + 6 * grp
    give(st, 1, num)
    price = int(r.k[RK.BUY_CARD_BRONZE])
    set_items(st, 0, bronze=price)
    set_items(st, 1)
    st.pl[0, PF.WORKERS] = r.k[RK.TAKE_CARD_WORKERS]
    coins0 = int(2 * st.supply[Sup.SILVER] + st.supply[Sup.BRONZE])
    apply_option(st, r, 0, Act.CARD_BUY, cid(num), 1, 0)
    assert st.card_loc[cid(num)] == Loc.HAND + 0 and st.card_rot[cid(78)] == 1
    assert coin_value(st, r, 0) == 1  # the buyer pays 1 bronze less
    assert coin_value(st, r, 1) == price - 1  # the seller receives the discounted payment
    assert int(2 * st.supply[Sup.SILVER] + st.supply[Sup.BRONZE]) == coins0


# ============================================================================= scoring


def _district0_houses(st, r):
    """District 0 (spaces x 0-2, y 0-2): 4 Houses of seat 0 and 3 production buildings."""
    for x, y in ((0, 0), (1, 0), (2, 0), (0, 1)):
        put(st, r, x, y, B.HOUSE, 0)
    for x, y, b in ((1, 1, B.QUARRY), (2, 1, B.CARPENTRY), (0, 2, B.MARKET)):
        put(st, r, x, y, b)


def _house_palace_card(st, r, num, mark, unmark):
    """Cards 36 and 42: '⚡ You can increase your Houses value by +1 or your Palaces by +7 in a
    district <closed by Walls / with Roads>. It requires the payment of 1 silver coin. With this
    card, it is possible to exceed the Houses value limit.' Reading: 'At a Scoring phase (City),
    pick one district ... and pay 1 silver to the game supply: either each of your Houses there
    scores +1 VP (even above the district-value cap) or each of your Palaces there scores +7 VP,
    for that Scoring phase only.'"""
    p = r.aff_p[cid(num)]
    assert (p[AP.HOUSE_VALUE], p[AP.PALACE_VALUE], p[AP.PAY_SILVER]) == (1, 7, 1)
    _scoring_state(st)
    give(st, 0, num)
    _district0_houses(st, r)
    mark(st, 0)
    dv = district_value(st, r, 0)
    assert 0 < dv < 4  # 4 Houses of the seat: each capped at the district value
    base = city_total(st, r, 0)
    assert base == 4 * dv
    set_items(st, 0, silver=p[AP.PAY_SILVER])
    sup = int(st.supply[Sup.SILVER])
    got = _score(st, r)
    assert got[0, VS.CITY] == base + 4 * p[AP.HOUSE_VALUE]  # each House dv + 1: above the cap
    assert coin_value(st, r, 0) == 0 and st.supply[Sup.SILVER] == sup + 1 and st.card_rot[cid(num)] == 1
    # limit: rotated, the next scoring is the usual one
    set_items(st, 0, silver=1)
    assert _score(st, r)[0, VS.CITY] == base and st.pl[0, PF.SILVER] == 1
    # with a Palace there too: +7 for the Palaces, or +1 per House, not both
    upright(st, num)
    put(st, r, 1, 2, B.PALACE, 0)
    base = city_total(st, r, 0)
    assert _score(st, r)[0, VS.CITY] == base + p[AP.PALACE_VALUE]
    # limit: the district must be <closed by Walls / have Roads>
    upright(st, num)
    unmark(st, 0)
    base = city_total(st, r, 0)
    set_items(st, 0, silver=1)
    assert _score(st, r)[0, VS.CITY] == base and st.card_rot[cid(num)] == 0 and st.pl[0, PF.SILVER] == 1
    # limit: no silver coin, no use
    mark(st, 0)
    base = city_total(st, r, 0)
    set_items(st, 0, bronze=1)
    assert _score(st, r)[0, VS.CITY] == base and st.card_rot[cid(num)] == 0


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

    _house_palace_card(st, r, 36, close, open_one)


def test_card_42_houses_or_palaces_in_a_district_with_roads(blank, rules):
    """Card 42. '⚡ You can increase your Houses value by +1 or your Palaces by +7 in a district with
    Roads. It requires the payment of 1 silver coin. With this card, it is possible to exceed the
    Houses VP value limit.'"""
    st, r = blank, rules
    assert r.aff_district[cid(42)] == 2

    def roads(st, d):
        st.roads[d] = 1

    def no_roads(st, d):
        st.roads[d] = 0

    _house_palace_card(st, r, 42, roads, no_roads)


def test_card_67_production_penalty_becomes_a_double_bonus_in_one_district(blank, rules):
    """Card 67. '⚡ In the target District, VP penalties for productive buildings are doubled and
    converted into VPs bonus. For example, a District has a VP penalty for 3 productive buildings for
    a total of -2 VPs. With this card, the penalty is converted to a bonus of +4 VPs to the District
    value.' Reading: 'At a Scoring phase, in one district, the production term (-1 per
    Market/Carpentry/Quarry beyond the first) becomes +2 per such building beyond the first, for that
    Scoring phase only.'"""
    st, r = blank, rules
    _scoring_state(st)
    give(st, 0, 67)
    factor = int(r.aff_p[cid(67), AP.PENALTY_FACTOR])
    assert factor == -2
    # district 0: 3 production buildings (-2); district 3: 2 (-1); a Palace of seat 1 in each
    for x, y, b in ((0, 0, B.QUARRY), (1, 0, B.CARPENTRY), (2, 0, B.MARKET), (9, 0, B.QUARRY), (10, 0, B.MARKET)):
        put(st, r, x, y, b)
    put(st, r, 0, 1, B.PALACE, 1)
    put(st, r, 9, 1, B.PALACE, 1)
    pen0 = 2 * int(r.k[RK.PRODUCTION_PENALTY])
    dv0, dv3 = district_value(st, r, 0), district_value(st, r, 3)
    assert (dv0, dv3) == (pen0, int(r.k[RK.PRODUCTION_PENALTY])) and pen0 == -2
    base = int(r.k[RK.PALACE_BASE])
    got = _score(st, r)
    new0 = dv0 - pen0 + pen0 * factor
    assert new0 == 4  # the rulebook example: -2 becomes +4
    assert got[1, VS.CITY] == (new0 + base) + (dv3 + base)  # one district only: the best one
    assert got[0, VS.CITY] == 0 and st.card_rot[cid(67)] == 1  # the holder needs no building there
    assert district_value(st, r, 0) == dv0  # for that Scoring phase only
    # limit: no district with a production penalty: the card is kept
    upright(st, 67)
    st.cell_b[[1, 2, 10]] = B.NONE
    got = _score(st, r)
    assert got[1, VS.CITY] == 2 * base and st.card_rot[cid(67)] == 0


def test_card_74_one_card_counts_as_another_colour(blank, rules):
    """Card 74. '⚡ Consider one of your cards of a different color.' Reading: 'At a Scoring phase, one
    of your cards (Character or Affiliate, this one included) counts as a card of another colour of
    your choice for Cards series (and for Card status III's colour count), for that Scoring phase
    only.'"""
    st, r = blank, rules
    _scoring_state(st)
    assert r.aff_p[cid(74), AP.CARDS] == 1
    ch = int(st.pl[0, PF.CHARACTER])
    gov = (74 - 13) // 6
    grp = next(g for g in range(N_GROUPS) if g not in (ch, gov))
    give(st, 0, 74)
    counts = np.zeros(N_GROUPS, np.int32)
    series_counts(st, 0, counts)
    assert counts.sum() == 2 and series_base(r, counts, False) == 0  # the Character and card 74
    # limit: no colour change can score more: the card is kept
    era = 2
    assert _score(st, r, era)[0, VS.SERIES] == 0 and st.card_rot[cid(74)] == 0
    # 2 cards of one colour, 2 single ones: one single joins the pair (3 of a colour), only one card
    give(st, 0, 13 + 6 * grp)
    give(st, 0, 14 + 6 * grp)
    series_counts(st, 0, counts)
    assert series_base(r, counts, False) == 0
    got = _score(st, r, era)
    assert got[0, VS.SERIES] == r.series_vp[3] * era and r.series_vp[4] > r.series_vp[3]
    assert st.card_rot[cid(74)] == 1
    # limit: rotated, for that Scoring phase only
    assert _score(st, r, era)[0, VS.SERIES] == 0
