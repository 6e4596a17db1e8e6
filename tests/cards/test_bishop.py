"""Affiliate cards 61-66, the Bishop group (CARD REFERENCE > AFFILIATE CARDS > BISHOP CARDS): City
Council workers on the Cathedral grid (61), a healed wound and 5 VPs (62), a player's votes halved
(63), one card reactivated (64), a Church worker discount (65), coins from the game supply (66).

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

from helpers import (
    act_row,
    assert_spent,
    cid,
    clear_hands,
    clear_map,
    discount_activation,
    give,
    grid_card,
    new_vote,
    put,
    rows,
    set_items,
    upright,
    use,
    vote_as,
    vote_state,
)

from sim.actions import apply_option, end_turn
from sim.codes import Act, Law
from sim.council_vote import SIDE_NO, call_vote
from sim.economy import coin_value, grid_range, take_coins, take_from_grids
from sim.rules import AP, RK
from sim.state import PF, VS, B, G, M, Mini, Sup


def test_card_61_up_to_3_council_workers_on_the_cathedral_grid(blank, rules):
    """Card 61. 'If City Council workers are still available in the game supply, immediately place
    up to 3 of them on the Catedral (Cathedral) grid.'"""
    st, r = blank, rules
    offered = grid_card(st, r, 61, (M.CATHEDRAL,))
    assert {a for a, _ in offered} == {M.CATHEDRAL} and {b for _, b in offered} == {1, 2, 3}
    # only 2 free spaces: at most 2
    upright(st, 61)
    st.major[M.CATHEDRAL, :] = -1
    st.major[M.CATHEDRAL, :int(r.major_spaces[M.CATHEDRAL, 2]) - 2] = 1
    assert {b for _, b in rows(st, r, 0, 61)} == {1, 2}


def test_card_62_heal_a_wound_and_gain_5_vp(blank, rules):
    """Card 62. 'Remove a wound from a Soldier or a Miliciano and gain 5 VPs. First, check if the
    unit is alive, then you can heal its wound.' Reading: one of your own miniatures in play; with
    no wounded miniature there is nothing to heal and no VPs."""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 62)
    p = r.aff_p[cid(62)]
    assert p[AP.WOUNDS_REMOVED] == 1 and p[AP.VP] == 5
    st.minis[:] = 0
    st.minis[0, 1] = [Mini.MILICIANO, 0]
    st.minis[1, 0] = [Mini.SOLDIER, 2]  # another player's wounded Soldier
    assert rows(st, r, 0, 62) == []  # nothing of yours to heal
    st.minis[0, 2] = [Mini.SOLDIER, 2]
    assert rows(st, r, 0, 62) == [(2, 0)]
    vp0, aff0 = int(st.pl[0, PF.VP]), int(st.vps[0, VS.AFFILIATE])
    use(st, r, 0, 62, 2)
    assert st.minis[0, 2].tolist() == [Mini.SOLDIER, 1] and st.minis[1, 0].tolist() == [Mini.SOLDIER, 2]
    assert st.pl[0, PF.VP] - vp0 == 5 and st.vps[0, VS.AFFILIATE] - aff0 == 5
    assert_spent(st, r, 0, 62)


def test_card_63_halves_a_players_votes_for_1_bronze(blank, rules):
    """Card 63. '⚡ Spend 1 bronze coin to decrease the City Council votes made by a player by half
    (rounded down). ... After the vote, the target player will decrease their City Council value by
    half (rounded down). For example, ... the Blue player has 5 "yes" votes, which are reduced to
    2.' Reading: 'that player's votes count floor(v/2) (5 -> 2), and after the vote they lose only
    floor(v/2) City Council points for them.'"""
    st, r = blank, rules
    vote_state(st)
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
    new_vote(st)
    st.spain[:] = 0
    st.pl[:4, PF.COUNCIL] = [10, 5, 5, 5]
    vote_as(st, r, 1, SIDE_NO, 3)
    call_vote(st, r, 0, Law.SPAIN, 1)
    assert st.pl[1, PF.COUNCIL] == 5 - 3 and st.spain.sum() == 0 and st.card_rot[cid(63)] == 0


def test_card_64_reactivate_one_target_card(blank, rules):
    """Card 64. 'Reactivate a target card. Rotate the chosen card to an upright position. It may be
    re-used immediately.' Reading: one of your own rotated cards (Character or Affiliate), not card
    64 itself."""
    st, r = blank, rules
    clear_hands(st)
    ch = int(st.pl[0, PF.CHARACTER])
    c64 = give(st, 0, 64)
    assert rows(st, r, 0, 64) == []  # nothing rotated
    ca = give(st, 0, 31, rotated=True)
    give(st, 1, 14, rotated=True)
    st.card_rot[ch] = 1
    assert set(rows(st, r, 0, 64)) == {(ca, 0), (ch, 0)}
    use(st, r, 0, 64, ca)
    assert st.card_rot[ca] == 0 and st.card_rot[ch] == 1 and st.card_rot[c64] == 1  # one target only
    assert_spent(st, r, 0, 64)
    assert rows(st, r, 0, 31)  # re-usable immediately


def test_card_65_church_activation_with_a_council_worker(blank, rules):
    """Card 65. 'You can do the Church activation/construction action with the discount of 1 Worker.
    You can activate them, also if they are not adjacent to a your building. ... If the City Council
    worker is not available, this card effect cannot be done.'"""
    st, r = blank, rules
    a = act_row(r, B.CHURCH, inp=[0, 0, 0, 0, 1, 0])  # 1 silver: 1 Faith token
    set_items(st, 0, silver=1)
    st.pl[0, PF.FAITH] = 0
    discount_activation(st, r, 65, B.CHURCH, a, B.MARKET)
    assert st.pl[0, PF.FAITH] == r.act_out[a, 8] and coin_value(st, r, 0) == 0


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
    apply_option(st, r, 0, int(Act.ACTIVATE), sell, 0, 0)
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
