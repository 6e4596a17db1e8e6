"""Affiliate cards 79-84, the Noblewoman group (CARD REFERENCE > AFFILIATE CARDS > NOBLEWOMAN CARDS): a
won vote moving a tension marker back (79), up to 2 more votes (80), a won vote raising the last-
item penalty (81), a veto on the law (82), X+1 resources added to the grids (83), an Improve Status
discount (84).

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

from helpers import assert_spent, cid, clear_hands, clone, give, new_vote, rows, set_items, turn_rows, upright, use, vote_as, vote_state

from sim.actions import apply_option
from sim.codes import Act, Law
from sim.council_vote import SIDE_NO, call_vote
from sim.economy import coin_value, grid_range, take_coins, take_from_grids
from sim.rules import AP, RK
from sim.state import PF, G, Sup


def test_card_79_winning_a_vote_moves_a_tension_marker_2_steps_back(blank, rules):
    """Card 79. '⚡ After winning a Council vote, you can reduce a Pirates or Native Tension level by
    2 steps.' Reading: 'move one tension marker (Pirates or Natives) 2 steps back: a single disk
    stops at space 0; a double disk stepping back from space 0 becomes a single disk on space 7.'"""
    st, r = blank, rules
    vote_state(st)
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
    new_vote(st)
    st.g[G.NAT_POS] = st.g[G.PIR_POS] = 1
    st.g[G.NAT_DOUBLE] = st.g[G.PIR_DOUBLE] = 1
    call_vote(st, r, 0, Law.SPAIN, 1)
    got = sorted([(int(st.g[G.NAT_POS]), int(st.g[G.NAT_DOUBLE])), (int(st.g[G.PIR_POS]), int(st.g[G.PIR_DOUBLE]))])
    assert got == [(1, 1), (last, 0)]
    # limit: not on the winning side (the holder abstains): no use
    clear_hands(st)
    give(st, 1, 79)
    new_vote(st)
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
    vote_state(st)
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
    new_vote(st)
    st.spain[:] = 0
    vote_as(st, r, 1, SIDE_NO, 2)
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.spain.sum() == 0 and st.card_rot[cid(80)] == 0 and st.pl[2, PF.COUNCIL] == 5


def test_card_81_winning_a_vote_raises_the_last_item_penalty_for_all_this_decade(blank, rules):
    """Card 81. '⚡ After winning a Council vote, you can increase the penalty to take the last
    resource from a board grid (or the last coin from a board stack) to 3 VPs for the current
    decade. The increased penalty works for all players.'"""
    st, r = blank, rules
    vote_state(st)
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
    new_vote(st)
    clear_hands(st)
    give(st, 0, 81)
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.card_rot[cid(81)] == 1
    assert last_cube(2) == -pen and last_coin(3) == -pen and last_cube(0) == -pen
    # limit: the current decade only
    st.g[G.DECADE] += 1
    assert last_cube(2) == r.k[RK.GRID_LAST_VP] and last_coin(3) == r.k[RK.GRID_LAST_VP]


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


def test_card_83_adds_x_plus_1_resources_to_the_grids(blank, rules):
    """Card 83. 'Add a total of X+1 resources to grids, where X is the player number. ... Take the
    resources from the game supply. You can add wood or stone resource, or precious resources,
    considering them x2 resources. It's not possible to go over the normal grid capacity.' Reading:
    X = number of players; no grid may exceed its refill amount."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 83)
    n = int(st.g[G.NPLAYERS])
    p = r.aff_p[cid(83)]
    assert p[AP.RESOURCES_PLUS_PLAYERS] == 1 and p[AP.PRECIOUS_COUNTS] == 2
    cubes = int(r.grid_cubes[n - 2])
    prec = n * int(r.k[RK.PRECIOUS_PER_PLAYER])

    def fill():
        st.grids[0:8] = cubes
        st.grids[8] = prec

    # every grid at its refill amount: nothing can be added
    fill()
    assert rows(st, r, 0, 83) == []
    # one wood grid with room for everything: X+1 wood from the supply
    st.grids[5] = 0
    assert cubes >= n + 1
    sup = st.supply.copy()
    use(st, r, 0, 83)
    assert st.grids[5] == n + 1 and st.supply[Sup.WOOD] == sup[Sup.WOOD] - (n + 1)
    assert_spent(st, r, 0, 83)
    # precious count 2: X+1 = 5 units add 2 precious (the last unit buys nothing)
    fill()
    st.grids[8] = 0
    upright(st, 83)
    sup = st.supply.copy()
    use(st, r, 0, 83)
    assert st.grids[8] == (n + 1) // 2 and st.supply[Sup.PRECIOUS] == sup[Sup.PRECIOUS] - (n + 1) // 2
    # never over a grid's refill amount: a stone grid with room for 3 takes 3
    fill()
    st.grids[2] = cubes - 3
    upright(st, 83)
    use(st, r, 0, 83)
    assert st.grids[2] == cubes and st.grids[0:8].sum() == 8 * cubes and st.grids[8] == prec
    # several grids: the total is X+1 units and no grid goes over
    fill()
    st.grids[0] = cubes - 2
    st.grids[4] = cubes - 2
    st.grids[8] = prec - 2
    upright(st, 83)
    before = st.grids.copy()
    use(st, r, 0, 83)
    added = st.grids - before
    assert added[0] <= 2 and added[4] <= 2 and added[8] <= 2
    assert added[0] + added[4] + 2 * added[8] in (n + 1, n)  # n: a single unit left cannot buy a precious
    assert (st.grids[0:8] <= cubes).all() and st.grids[8] <= prec


def test_card_83_grid_rows_leave_no_column_of_an_earlier_decision(blank, rules):
    """Card 83's grid rows (CARD_TARGET, [grid, card]) must read 0 in the columns they do not use,
    whatever an earlier decision left in the buffer."""
    from sim.affiliates import _card83_targets
    from sim.codes import Card

    st, r = blank, rules
    st.grids[:] = 0  # room on every grid
    st.opts[:] = Card.C36  # a scoring card's id, which the CARD_TARGET valuation keys on in column 2
    k = _card83_targets(st, r, 5, Card.C83, True)
    assert k > 0 and st.opts[:k, 1].tolist() == [Card.C83] * k
    assert (st.opts[:k, 2:] == 0).all()


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
    apply_option(st, r, 0, int(Act.STATUS), 0, 1, 1)
    assert st.pl[0, PF.ST_CONSTRUCTION] == 1 and coin_value(st, r, 0) == 0
    assert st.pl[0, PF.WORKERS] == 1 and st.supply[Sup.COUNCIL_WORKERS] == sup - 1
    assert st.card_active[cid(84)] == 0
