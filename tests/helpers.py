"""Helpers shared by the rule tests (tests/rules) and the Affiliate card tests (tests/cards): edit a
hand-built state, hand out Affiliate cards, list and apply the options of a turn, score a Scoring
phase, and the checks shared by the cards of one power family whose cards belong to several
Character groups."""

from __future__ import annotations

import numpy as np

from sim.actions import apply_option, end_turn, turn_options
from sim.affiliates import card_options
from sim.city import can_activate_at, district_value
from sim.codes import Act
from sim.core import CCW
from sim.deck import back_symbols, n_affiliates
from sim.economy import coin_value, grid_range, take_from_grids
from sim.extended_war import clear_war
from sim.game import allocate, play_own_decade, set_decade, setup, start_of_decade
from sim.major_buildings import grid_free, major_open
from sim.rules import AP, RK
from sim.scoring import city_total, score_era
from sim.state import AI_STRATEGY, MAX_PLAYERS, N_CARDS, N_CHARACTERS, PF, VS, XG, B, G, Loc, M, Mini, Sup
from strategies.policy import FAMILY_GREEDY, F, default_weights


def set_items(st, seat, wood=0, stone=0, precious=0, metal=0, silver=0, bronze=0):
    for f, v in ((PF.WOOD, wood), (PF.STONE, stone), (PF.PRECIOUS, precious), (PF.METAL, metal),
                 (PF.SILVER, silver), (PF.BRONZE, bronze)):
        st.pl[seat, f] = v


def clear_map(st):
    st.cell_b[:] = B.NONE
    st.cell_owner[:] = -1
    st.walls[:] = 0
    st.roads[:] = 0
    for f in (G.FORT_BUILT, G.HARBOR_BUILT, G.CABILDO_BUILT, G.CATHEDRAL_BUILT):
        st.g[f] = 0
    st.major_state[:] = 0


def cell(r, x, y):
    """Map space at column x, row y."""
    return y * int(r.k[RK.MAP_W]) + x


def put(st, r, x, y, b, owner=-1):
    """Put building ``b`` (of ``owner``'s colour, -1 none) on the map space (x, y)."""
    st.cell_b[cell(r, x, y)] = b
    st.cell_owner[cell(r, x, y)] = owner


def act_row(r, building, inp=None, out=None):
    """Index of the activation row of ``building`` with exactly these inputs / these outputs."""
    for a in range(r.act_b.shape[0]):
        if r.act_b[a] != building:
            continue
        if inp is not None and r.act_in[a].tolist() != inp:
            continue
        if out is not None and r.act_out[a].tolist() != out:
            continue
        return a
    raise AssertionError("no such activation row")


def turn_rows(st, r, seat, act):
    """The seat's legal TURN rows (Act, a, b, c, d) of one action type."""
    k = turn_options(st, r, seat)
    got = st.opts[:k].copy()
    return got[got[:, 0] == act]


def deck_card(st, r, natives, pirates, exclude=()):
    """An Affiliate card in the deck whose back shows these tension symbols (R-09)."""
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.DECK and c not in exclude and tuple(back_symbols(r, c)) == (natives, pirates):
            return c
    raise AssertionError(f"no deck card with back {natives, pirates}")


def stack_deck(st, *cards):
    """Put these cards on top of the Affiliate deck, the first named on top."""
    top = int(max(st.card_seq.max(), st.g[G.SEQ])) + len(cards) + 1
    for i, c in enumerate(cards):
        st.card_loc[c] = Loc.DECK
        st.card_seq[c] = top - i
    st.g[G.SEQ] = top


def quiet_deck(st, r):
    """Deck top: a card discarded by the tension step, then one with a blank back (no tension)."""
    c0 = deck_card(st, r, 0, 0)
    c1 = deck_card(st, r, 0, 0, exclude=(c0,))
    stack_deck(st, c0, c1)


# ----------------------------------------------------------------------------- Affiliate cards


def cid(num):
    """Card id of card number ``num``."""
    return num - 1


def clear_hands(st):
    """Every Affiliate back to the deck, upright: only the cards a test gives are held."""
    for c in range(N_CHARACTERS, N_CARDS):
        if Loc.HAND <= st.card_loc[c] < Loc.HAND + MAX_PLAYERS:
            st.card_loc[c] = Loc.DECK
        st.card_rot[c] = 0
        st.card_turn[c] = 0


def give(st, seat, num, rotated=False):
    """Put card ``num`` into the seat's hand (upright unless ``rotated``); returns its id."""
    c = cid(num)
    st.card_loc[c] = Loc.HAND + seat
    st.card_rot[c] = 1 if rotated else 0
    st.card_turn[c] = 0
    return c


def upright(st, num):
    """Reactivate the card (as the Reactivate Cards action would) to check a second use."""
    st.card_rot[cid(num)] = 0


def rows(st, r, seat, num):
    """The F_CARD targets (a, b) the seat is offered for card ``num`` in its turn."""
    k = card_options(st, r, seat, 0)
    got = st.opts[:k].copy()
    assert (got[:, 0] == Act.F_CARD).all()
    return [(int(a), int(b)) for c, a, b in got[:, 1:4].tolist() if c == cid(num)]


def turn_card_rows(st, r, seat):
    """The F_CARD rows among all the seat's TURN options (card, a, b)."""
    k = turn_options(st, r, seat)
    got = st.opts[:k].copy()
    return [tuple(x) for x in got[got[:, 0] == Act.F_CARD, 1:4].tolist()]


def use(st, r, seat, num, a=0, b=0):
    """Use card ``num`` in the seat's turn (the Act.F_CARD free action) with targets (a, b); plain
    ints, as the engine passes them (an IntEnum argument would compile another specialization)."""
    apply_option(st, r, seat, int(Act.F_CARD), cid(num), int(a), int(b))


def assert_spent(st, r, seat, num, uses=1):
    """'A rotated card is considered used and cannot be used again until reactivated'."""
    c = cid(num)
    assert st.card_rot[c] == 1 and st.card_loc[c] == Loc.HAND + seat
    assert st.card_uses[c] == uses
    assert rows(st, r, seat, num) == []


def script(st, seat, **weights):
    """A greedy weight row for the seat (the policy reads ``st.w``), other features 0, the named
    coefficients and parameters at their defaults."""
    row = default_weights()
    row[F.FAMILY] = FAMILY_GREEDY
    for k, v in weights.items():
        row[F[k.upper()]] = v
    st.w[seat, :] = row


def offered_at(st, r, seat, c):
    """(activation row, worker discount) of the ACTIVATE rows the seat is offered on map space c."""
    got = turn_rows(st, r, seat, Act.ACTIVATE)
    return {(int(a), int(dt)) for _, a, b, dt, _ in got.tolist() if b == c}


def war_state(st, r, holder_num=None, holder=0):
    """An empty map, no Affiliate card held (but card ``holder_num``, given to ``holder``), no
    miniature, no peace marker."""
    clear_map(st)
    clear_hands(st)
    st.minis[:] = 0
    st.peace[:] = 0
    if holder_num:
        give(st, holder, holder_num)


def soldier(st, seat):
    """The seat's only miniature: one Soldier."""
    st.minis[seat] = 0
    st.minis[seat, 0, 0] = Mini.SOLDIER


def perimeter_district(r):
    """A district with at least 2 perimeter segments."""
    for d in range(r.district_nseg.shape[0]):
        if (r.seg_district == d).sum() >= 2:
            return d
    raise AssertionError


def fresh(r, W, n, seed=7):
    """A greedy n-player state after setup (the ``blank`` fixture for any player count)."""
    st = allocate(r)
    st.rng[0] = seed
    strat = np.zeros(MAX_PLAYERS, np.int32)
    strat[:n] = 1
    setup(st, r, W, n, strat, np.full(5, -1, np.int32), np.zeros(5, np.int32), 0)
    st.g[G.DECADE] = 1
    st.g[G.ERA] = 1
    return st


def solo_game(r, W, human=1, seed=5):
    """A Solo game after setup, decade 1: the human (strategy row ``human`` of W) at seat 0, first in
    turn order, the A.I. at 1, an empty map; returns (state, the A.I.'s seat)."""
    st = allocate(r)
    st.rng[0] = seed
    strat = np.zeros(MAX_PLAYERS, np.int32)
    strat[0] = human
    strat[1] = AI_STRATEGY
    setup(st, r, W, 2, strat, np.full(MAX_PLAYERS, -1, np.int32), np.zeros(MAX_PLAYERS, np.int32), 0)
    set_decade(st, r, 1)
    clear_map(st)
    return st, 1


def ai_card_of(r, face):
    """The id of the Solo card with action ``face`` (sim.codes.AiCard)."""
    return int(np.flatnonzero(r.ai_deck == face)[0])


def mid_game(r, W, n=4, decades=5, seed=3):
    """A played position at the first TURN decision of decade ``decades + 1`` (every seat plays
    strategy row 0 of W); returns (state, seat of the first turn)."""
    st = allocate(r)
    st.rng[0] = seed
    strat = np.zeros(MAX_PLAYERS, np.int32)
    setup(st, r, W, n, strat, np.full(MAX_PLAYERS, -1, np.int32), np.zeros(MAX_PLAYERS, np.int32), 0)
    for d in range(1, decades + 1):
        set_decade(st, r, d)
        play_own_decade(st, r)
    set_decade(st, r, decades + 1)
    start_of_decade(st, r)
    for s in range(n):
        st.pl[s, PF.PASSED] = 0
    seat = int(st.order[0])  # int64, the type the engine's own calls use (gamekit.specialize): another would compile again
    st.g[G.TURN_SEAT] = seat
    return st, seat


def redealt(r, st, seat, salt):
    """A copy of ``st`` with what ``seat`` cannot see (the deck order, the other seats' face-down cards) dealt
    again from its view (sim.game.determinize, drawn from ``salt``); the game's own stream and option rows
    kept, since they are not hidden information."""
    from sim.game import copy_state, determinize
    from sim.rng import mix64

    alt = allocate(r)
    copy_state(alt, st)
    alt.rng[0] = mix64(np.uint64(salt))
    determinize(alt, r, seat)
    alt.rng[:] = st.rng
    alt.opts[:] = st.opts
    return alt


# ----------------------------------------------------------------------------- coins, cards, districts


def stack_value(st):
    """The coin value (in bronze) of the board's coin stacks."""
    return int(2 * st.stacks[:, 0].sum() + st.stacks[:, 1].sum())


def supply_coin_value(st):
    """The coin value (in bronze) of the game supply's coins."""
    return int(2 * st.supply[Sup.SILVER] + st.supply[Sup.BRONZE])


def set_affiliates(st, seat, n):
    """Make the seat hold exactly n Affiliate cards (extra ones go back to the deck)."""
    hand = [c for c in range(N_CHARACTERS, N_CARDS) if st.card_loc[c] == Loc.HAND + seat]
    for c in hand[n:]:
        st.card_loc[c] = Loc.DECK
    need = n - min(n, len(hand))
    for c in range(N_CHARACTERS, N_CARDS):
        if need == 0:
            break
        if st.card_loc[c] == Loc.DECK:
            st.card_loc[c] = Loc.HAND + seat
            st.card_rot[c] = 0
            need -= 1
    assert n_affiliates(st, seat) == n


def pile_size(st, seat):
    """Cards in the seat's discard pile."""
    return int((st.card_loc == Loc.PILE + seat).sum())


def clone(st):
    """An independent copy of a state record."""
    return np.array([st], dtype=st.dtype).view(np.recarray)[0]


N1, N2, S1, S2, S4 = 0, 1, 4, 5, 7  # district indices (R-04: N1..N4, S1..S4)


def cells_of(r, d, n):
    """The first n map spaces of district d."""
    return [int(c) for c in r.district_cells[d, :n]]


def scoring_state(st):
    """Ready for a Scoring phase called directly: an empty map, no Affiliate card in any hand, and
    every seat without items, Faith tokens, VP or Cards status, banners or miniatures."""
    clear_map(st)
    clear_hands(st)
    for s in range(int(st.g[G.NPLAYERS])):
        set_items(st, s)
        st.pl[s, PF.FAITH] = 0
        st.pl[s, PF.ST_VP] = 0
        st.pl[s, PF.ST_CARDS] = 0
        st.pl[s, PF.BANNER_BLACK:PF.BANNER_OCHER + 1] = 0
    st.minis[:] = 0


def scored(st, r, era=1):
    """The VPs by source (``st.vps`` rows) one Scoring phase of ``era`` gives."""
    before = st.vps.copy()
    score_era(st, r, era)
    return st.vps - before


# ----------------------------------------------------------------------------- the Ship


def load(st, r, seat, pred):
    """Load the Ship with the first open load row matching ``pred`` (the items are given first)."""
    for ld in range(r.ship_put.shape[0]):
        p = r.ship_put[ld]
        if r.ship_needs[ld] < 0 and pred(p):
            set_items(st, seat, wood=p[0], stone=p[1], precious=p[2], silver=p[3], bronze=p[4])
            st.pl[seat, PF.WORKERS] = r.k[RK.WORKERS]
            apply_option(st, r, seat, int(Act.SHIP), ld, 0, 0)
            assert st.pl[seat, PF.SHIP_LOAD] == ld
            return ld
    raise AssertionError("no such ship load")


def three(res):
    """A load of 3 identical resources of type ``res`` (0 wood, 1 stone)."""
    return lambda p: p[res] == 3 and p.sum() == 3


def coins_load(p):
    return p[0] + p[1] + p[2] == 0 and p.sum() == 2


def row_by_put(r, pred):
    """The first Ship load row whose load matches ``pred``."""
    for ld in range(r.ship_put.shape[0]):
        if pred(r.ship_put[ld]):
            return ld
    raise AssertionError("no such ship load")


# ----------------------------------------------------------------------------- City Council votes
#
# The ``blank`` fixture seats greedy players: the legislator of a vote votes "yes" with 1 vote and
# the other seats abstain. Where a test needs another vote, vote_as makes one seat a random-policy
# voter and seeds the state's random stream so that its draw is the wanted vote; the test then
# checks that the vote was cast (its City Council cost).

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


def vote_state(st):
    """No VP status (no VP-bonus decision), spain track empty, every character card upright."""
    clear_hands(st)
    st.pl[:, PF.ST_VP] = 0
    st.spain[:] = 0
    st.g[G.VOTE_DONE] = 0


def new_vote(st):
    """A new vote (call_vote is called directly; VOTE_DONE only gates the F_VOTE option)."""
    st.g[G.VOTE_DONE] = 0
    for s in range(4):
        st.card_rot[st.pl[s, PF.CHARACTER]] = 0


# ----------------------------------------------------------------------------- Affiliate card families
#
# The checks shared by the cards of one power whose cards belong to several Character groups (each
# card's test, in the file of its group under tests/cards, calls them).

ALL_GRIDS = tuple(M)


def grid_card(st, r, num, allowed, pay=None):
    """Shared checks of the cards placing City Council workers on a Major Building grid. Returns
    the offered (grid, workers) rows. 'If City Council workers are still available in the game
    supply ... immediately place ... This City Council worker will count for completing the grid
    but will not provide you any VPs.'"""
    clear_hands(st)
    give(st, 0, num)
    p = r.aff_p[cid(num)]
    pay = pay or {}
    set_items(st, 0, **pay)
    exact, most = int(p[AP.COUNCIL_WORKERS]), int(p[AP.COUNCIL_WORKERS_MAX])
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    expect = set()
    for m in allowed:
        room = min(exact or most, sup, grid_free(st, r, m))
        if not major_open(st, r, m) or room <= 0:
            continue
        expect |= {(m, room)} if exact else {(m, n) for n in range(1, room + 1)}
    offered = rows(st, r, 0, num)
    assert set(offered) == expect and len(offered) == len(expect)
    assert all((cid(num), a, b) in turn_card_rows(st, r, 0) for a, b in offered)  # a free action of the turn
    m, n = max(offered, key=lambda x: (x[1], -x[0]))
    vp0, vps0 = int(st.pl[0, PF.VP]), st.vps.copy()
    sup_res = st.supply.copy()
    assert grid_free(st, r, m) > n  # the grid is not completed by the card here
    use(st, r, 0, num, m, n)
    assert (st.major[m] == CCW).sum() == n and st.supply[Sup.COUNCIL_WORKERS] == sup - n
    assert st.pl[0, PF.VP] == vp0 and (st.vps == vps0).all()  # no first-worker VP, no VP at all
    for key, slot in (("wood", Sup.WOOD), ("stone", Sup.STONE), ("precious", Sup.PRECIOUS)):
        assert st.supply[slot] == sup_res[slot] + pay.get(key, 0)  # paid to the game supply
    assert st.pl[0, PF.WOOD] == st.pl[0, PF.STONE] == st.pl[0, PF.PRECIOUS] == 0
    assert_spent(st, r, 0, num)
    # limit: no City Council worker in the game supply, no option
    upright(st, num)
    set_items(st, 0, **pay)
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert rows(st, r, 0, num) == []
    st.supply[Sup.COUNCIL_WORKERS] = sup - n
    assert rows(st, r, 0, num)
    return offered


def discount_activation(st, r, num, building, a, other):
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
    assert p[AP.WORKER_DISCOUNT] == 1  # one City Council worker stands in for the worker saved
    assert (r.aff_buildings[cid(num)] >> building) & 1 and not (r.aff_buildings[cid(num)] >> other) & 1
    assert r.act_w[a] == p[AP.WORKER_DISCOUNT]  # a 1-worker activation: none of the seat's workers
    put(st, r, 0, 0, building)
    put(st, r, 2, 0, other)  # another building type, also far from the seat's buildings
    c, c_other = cell(r, 0, 0), cell(r, 2, 0)
    st.pl[0, PF.WORKERS] = 1
    st.pl[0, PF.CC_WORKERS] = 0
    st.act_used[0, :] = 0
    assert not can_activate_at(st, r, 0, c) and offered_at(st, r, 0, c) == set()  # not adjacent
    use(st, r, 0, num)
    assert st.card_rot[cid(num)] == 1 and st.card_active[cid(num)] == 1
    # limit: no City Council worker in the game supply, no discount (and no activation far away)
    sup = int(st.supply[Sup.COUNCIL_WORKERS])
    assert sup > 0
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert offered_at(st, r, 0, c) == set()
    st.supply[Sup.COUNCIL_WORKERS] = sup
    offered = offered_at(st, r, 0, c)
    assert (a, p[AP.WORKER_DISCOUNT]) in offered and {dt for _, dt in offered} == {p[AP.WORKER_DISCOUNT]}
    # limit: only the card's buildings
    assert offered_at(st, r, 0, c_other) == set()
    placed, cc = int(st.pl[0, PF.WORKERS_PLACED]), int(st.pl[0, PF.CC_PLACED])
    apply_option(st, r, 0, int(Act.ACTIVATE), a, c, int(p[AP.WORKER_DISCOUNT]))
    assert st.pl[0, PF.WORKERS] == 1 and st.pl[0, PF.WORKERS_PLACED] == placed  # none of the seat's workers
    assert st.pl[0, PF.CC_PLACED] == cc + 1 and st.supply[Sup.COUNCIL_WORKERS] == sup - 1
    assert st.act_used[0, c] == 1  # still the building's one activation this decade
    assert st.card_active[cid(num)] == 0  # one action only
    assert offered_at(st, r, 0, c) == set()
    return c


def twice_card(st, r, num, building, res, other):
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
    apply_option(st, r, 0, int(Act.ACTIVATE), o_gain, c_other, 0)
    other_res = 1 - res
    assert st.pl[0, PF.WOOD + other_res] == r.act_out[o_gain, other_res] and st.card_active[cid(num)] == 1
    # the card's building: convert, then gain, for 1 worker
    set_items(st, 0, **{("wood", "stone")[res]: 2})
    placed = int(st.pl[0, PF.WORKERS_PLACED])
    apply_option(st, r, 0, int(Act.ACTIVATE), conv, c1, 0)
    assert st.pl[0, PF.PRECIOUS] == r.act_out[conv, 2]
    assert st.pl[0, PF.WOOD + res] == r.act_out[gain, res]
    assert st.pl[0, PF.WORKERS] == 1 and st.pl[0, PF.WORKERS_PLACED] == placed + 1  # 1 worker for both
    assert st.card_active[cid(num)] == 0 and st.act_used[0, c1] == 1
    # the one recorded activation: not offered again this decade; the card is spent
    assert all(b != c1 for b in turn_rows(st, r, 0, Act.ACTIVATE)[:, 2])
    before = int(st.pl[0, PF.WOOD + res])
    apply_option(st, r, 0, int(Act.ACTIVATE), gain, c2, 0)
    assert st.pl[0, PF.WOOD + res] == before + r.act_out[gain, res] and st.pl[0, PF.WORKERS] == 0


PALACE = int(B.PALACE)  # a plain int: an IntEnum argument would compile the kernels again for its type


def palace_state(st, r, num):
    """Cards 16 and 22 (cheaper construction): the seat holds card ``num``, one own House to build
    a Palace on, the Palace's workers and no resource swap; returns the House's map space."""
    clear_map(st)
    clear_hands(st)
    give(st, 0, num)
    put(st, r, 4, 2, B.HOUSE, 0)
    st.pl[0, PF.ST_CONSTRUCTION] = 0  # no resource swaps
    st.pl[0, PF.WORKERS] = r.b_cost[B.PALACE, 0]
    assert st.pl[0, PF.PALACE_MARKERS] > 0 and st.supply[Sup.PALACE] > 0
    return 4 + 2 * int(r.k[RK.MAP_W])


def palace_rows(st, r, c):
    """The seat's BUILD rows of a Palace on map space c."""
    got = turn_rows(st, r, 0, Act.BUILD)
    return got[(got[:, 1] == B.PALACE) & (got[:, 2] == c)]


def supply_card(st, r, num, building, a, res):
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
    apply_option(st, r, 0, int(Act.ACTIVATE), a, 0, 0)
    assert st.pl[0, PF.WOOD + res] == held + want and st.supply[Sup.WOOD + res] == sup - want
    assert st.grids[lo] == 1 and st.pl[0, PF.VP] == vp  # the board untouched, no last-resource VP
    # limit: the turn the card is used in; afterwards the board again (and its last-cube VP)
    end_turn(st, 0)
    assert take_from_grids(st, r, 0, res, 1) == 1
    assert st.grids[lo] == 0 and st.pl[0, PF.VP] == vp + r.k[RK.GRID_LAST_VP]


def district0_houses(st, r):
    """District 0 (spaces x 0-2, y 0-2): 4 Houses of seat 0 and 3 production buildings."""
    for x, y in ((0, 0), (1, 0), (2, 0), (0, 1)):
        put(st, r, x, y, B.HOUSE, 0)
    for x, y, b in ((1, 1, B.QUARRY), (2, 1, B.CARPENTRY), (0, 2, B.MARKET)):
        put(st, r, x, y, b)


def house_palace_card(st, r, num, mark, unmark):
    """Cards 36 and 42: '⚡ You can increase your Houses value by +1 or your Palaces by +7 in a
    district <closed by Walls / with Roads>. It requires the payment of 1 silver coin. With this
    card, it is possible to exceed the Houses value limit.' Reading: 'At a Scoring phase (City),
    pick one district ... and pay 1 silver to the game supply: either each of your Houses there
    scores +1 VP (even above the district-value cap) or each of your Palaces there scores +7 VP,
    for that Scoring phase only.'"""
    p = r.aff_p[cid(num)]
    assert (p[AP.HOUSE_VALUE], p[AP.PALACE_VALUE], p[AP.PAY_SILVER]) == (1, 7, 1)
    scoring_state(st)
    give(st, 0, num)
    district0_houses(st, r)
    mark(st, 0)
    dv = district_value(st, r, 0)
    assert 0 < dv < 4  # 4 Houses of the seat: each capped at the district value
    base = city_total(st, r, 0)
    assert base == 4 * dv
    set_items(st, 0, silver=p[AP.PAY_SILVER])
    sup = int(st.supply[Sup.SILVER])
    got = scored(st, r)
    assert got[0, VS.CITY] == base + 4 * p[AP.HOUSE_VALUE]  # each House dv + 1: above the cap
    assert coin_value(st, r, 0) == 0 and st.supply[Sup.SILVER] == sup + 1 and st.card_rot[cid(num)] == 1
    # limit: rotated, the next scoring is the usual one
    set_items(st, 0, silver=1)
    assert scored(st, r)[0, VS.CITY] == base and st.pl[0, PF.SILVER] == 1
    # with a Palace there too: +7 for the Palaces, or +1 per House, not both
    upright(st, num)
    put(st, r, 1, 2, B.PALACE, 0)
    base = city_total(st, r, 0)
    assert scored(st, r)[0, VS.CITY] == base + p[AP.PALACE_VALUE]
    # limit: the district must be <closed by Walls / have Roads>
    upright(st, num)
    unmark(st, 0)
    base = city_total(st, r, 0)
    set_items(st, 0, silver=1)
    assert scored(st, r)[0, VS.CITY] == base and st.card_rot[cid(num)] == 0 and st.pl[0, PF.SILVER] == 1
    # limit: no silver coin, no use
    mark(st, 0)
    base = city_total(st, r, 0)
    set_items(st, 0, bronze=1)
    assert scored(st, r)[0, VS.CITY] == base and st.card_rot[cid(num)] == 0


# ----------------------------------------------------------------------------- Python strategies (strategies.python_bridge)


class Recorder:
    """A Python strategy for the tests: the last main action of a turn, the last option of any other
    decision; it checks each view on the way."""

    def __init__(self):
        self.calls = 0
        self.kinds = set()
        self.leaks = 0  # other players' unused hand cards visible to the seat (must stay 0)
        self.writable = 0

    def choose(self, view, options):
        from strategies.python_bridge import UNKNOWN

        self.calls += 1
        self.kinds.add(view.kind)
        for c in range(N_CHARACTERS, N_CARDS):
            loc = view.card_loc[c]
            if Loc.HAND <= loc < Loc.PILE and loc != Loc.HAND + view.seat and view.card_rot[c] == 0:
                self.leaks += 1
        self.writable += int(view.pl.flags.writeable or view.card_loc.flags.writeable)
        assert UNKNOWN == -1 and [o.index for o in options] == list(range(len(options)))
        if view.kind == "TURN":  # the last main action listed (free actions, listed last, keep the turn open)
            return max(o.index for o in options if not o.action.startswith("F_"))
        return len(options) - 1


class BadIndex:
    def choose(self, view, options):
        return len(options)


class NeverBuild:
    """A Python player that never takes a BUILD option (the first other option instead)."""

    def choose(self, view, options):
        return next((o.index for o in options if o.action != "BUILD"), 0)


class TurnLog:
    """A Python player that picks any option at random (seeded from the view) and notes every TURN
    row it picks, by seat: a count of the actions taken that the engine's records do not make."""

    def __init__(self):
        self.picks = []  # (seat, Act name) of every TURN row picked

    def choose(self, view, options):
        import random

        i = random.Random(view.decision * 8 + view.seat).randrange(len(options))
        if view.kind == "TURN":
            self.picks.append((view.seat, options[i].action))
        return i


class MainFirst:
    """A Python player that never takes a free action (a random main action instead), so every TURN
    decision it sees starts a turn; it notes each TURN listing: (seat, the seat's probe decade as the
    view shows it, the rows)."""

    def __init__(self):
        self.listings = []

    def choose(self, view, options):
        import random

        rng = random.Random(view.decision * 8 + view.seat)
        if view.kind != "TURN":
            return rng.randrange(len(options))
        self.listings.append((view.seat, int(view.pl[view.seat, PF.PROBE_DECADE]), [(o.action, o.args) for o in options]))
        return rng.choice([o.index for o in options if not o.action.startswith("F_")])


def bare_war(r, n, faction, seed):
    """A bare n-player state with an Extended War of ``faction`` under way in Era II (decade 5):
    cards in the deck in number order (card 13 on top), none held, an empty map and Combat Area,
    3 war markers a seat and the supply's Milicianos and Soldiers for n seats. Each test file then
    sets how the seats decide (``st.w``)."""
    st = allocate(r)
    st.g[G.NPLAYERS] = n
    st.g[G.DECADE] = 5
    st.g[G.ERA] = 2
    st.order[:n] = np.arange(n)
    st.rng[0] = seed
    for c in range(N_CHARACTERS, N_CARDS):
        st.card_loc[c] = Loc.DECK
        st.card_seq[c] = N_CARDS - c  # the lowest number on top
    for s in range(n):
        st.pl[s, PF.WAR_MARKERS] = 3
    st.supply[Sup.MILICIANOS] = n + 3
    st.supply[Sup.SOLDIERS] = n - 1
    clear_war(st)
    st.xw[XG.ACTIVE] = 1
    st.xw[XG.FACTION] = faction
    return st


def random_apprentice(seed=0, with_file_keys=True):
    """A random apprentice network (strategies.apprentice's arrays, as strategies.registry.load_apprentice_file
    reads them; ``with_file_keys``: with the ``inputs`` and ``provenance`` a network file holds)."""
    import json

    from strategies.apprentice import HIDDEN, N_IN, input_names, one_hot_inputs

    rng = np.random.default_rng(seed)
    hot = one_hot_inputs()
    net = {"mu": np.where(hot, 0.0, rng.normal(size=N_IN)), "sd": np.where(hot, 1.0, rng.uniform(0.5, 2.0, N_IN)),
           "w1": rng.normal(scale=0.2, size=(N_IN, HIDDEN)), "b1": rng.normal(scale=0.2, size=HIDDEN),
           "w2": rng.normal(size=HIDDEN), "b2": np.float64(0.3)}
    if with_file_keys:
        net.update(inputs=np.array(input_names()), provenance=json.dumps({"test": True}))
    return net
