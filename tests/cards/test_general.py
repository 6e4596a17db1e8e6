"""Affiliate cards 49-54, the General group (CARD REFERENCE > AFFILIATE CARDS > GENERAL CARDS): City
Council workers on the Fort grid (49), silver for a won War (50), the next turn at once with a City
Council worker (51), a Veteran Soldier without the Fort (52), a banner for 2 silver (53), the
Barracks of an adjacent district (54).

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
    N2,
    assert_spent,
    cells_of,
    cid,
    clear_hands,
    clear_map,
    clone,
    give,
    grid_card,
    offered_at,
    put,
    rows,
    scored,
    scoring_state,
    set_items,
    soldier,
    upright,
    use,
    war_state,
)

from sim.actions import apply_option, play_turn
from sim.codes import Act
from sim.core import CCW
from sim.economy import coin_value
from sim.rules import AP
from sim.state import PF, VS, B, G, M, Mini, Sup
from sim.war import NATIVES, PIRATES, fight
from strategies.policy import FAMILY_RANDOM, F


def test_card_49_up_to_3_council_workers_on_the_fort_grid(blank, rules):
    """Card 49. 'If City Council workers are still available in the game supply, immediately place
    up to 3 of them on the Fort grid. These City Council workers will count for completing the grid
    but will not provide you with VPs.'"""
    st, r = blank, rules
    offered = grid_card(st, r, 49, (M.FORT,))
    assert {a for a, _ in offered} == {M.FORT} and {b for _, b in offered} == {1, 2, 3}
    # the Fort built: never again
    upright(st, 49)
    st.major_state[M.FORT, 1] = 1
    assert rows(st, r, 0, 49) == []


def test_card_50_silver_when_you_win_a_war_two_against_pirates(blank, rules):
    """Card 50. '⚡ Gain 1 silver coin when you win a War (2 silver coins if they were Pirates). The
    player must use this card just after the War conclusion.'"""
    st, r = blank, rules
    p = r.aff_p[cid(50)]
    assert p[AP.SILVER] == 1 and p[AP.SILVER_VS_PIRATES] == 2
    war_state(st, r, 50, holder=0)
    av = int(r.war_av[Mini.SOLDIER])
    # limit: a lost War pays nothing
    set_items(st, 0)
    fight(st, r, 0, 1, NATIVES)
    assert st.pl[0, PF.WARS_LOST] == 1 and coin_value(st, r, 0) == 0 and st.card_rot[cid(50)] == 0
    # limit: another player's win pays the holder nothing
    soldier(st, 1)
    fight(st, r, 1, av, NATIVES)
    assert st.pl[1, PF.WARS_WON] == 1 and coin_value(st, r, 0) == 0 and st.card_rot[cid(50)] == 0
    # a win against the Natives: 1 silver
    soldier(st, 0)
    fight(st, r, 0, av, NATIVES)
    assert st.pl[0, PF.WARS_WON] == 1 and st.pl[0, PF.SILVER] == 1 and st.card_rot[cid(50)] == 1
    # rotated: the next win pays nothing
    fight(st, r, 0, av, NATIVES)
    assert st.pl[0, PF.WARS_WON] == 2 and st.pl[0, PF.SILVER] == 1
    # against the Pirates: 2 silver
    upright(st, 50)
    soldier(st, 0)
    set_items(st, 0)
    fight(st, r, 0, av, PIRATES)
    assert st.pl[0, PF.SILVER] == 2 and st.pl[0, PF.BRONZE] == 0 and st.card_uses[cid(50)] == 2


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
    assert (vet, 0) not in offered_at(st, r, 0, 0)
    use(st, r, 0, 52)
    # limit: every other requirement stays (the metal)
    set_items(st, 0)
    assert (vet, 0) not in offered_at(st, r, 0, 0)
    set_items(st, 0, metal=r.act_in[vet, 3])
    assert (vet, 0) in offered_at(st, r, 0, 0)
    apply_option(st, r, 0, int(Act.ACTIVATE), vet, 0, 0)
    assert sorted(st.minis[0, :2, 0].tolist()) == sorted([Mini.SOLDIER_VET, Mini.SOLDIER]) and st.pl[0, PF.METAL] == 0
    # limit: one Veteran Soldier per use
    assert st.card_active[cid(52)] == 0
    set_items(st, 0, metal=r.act_in[vet, 3])
    assert (vet, 0) not in offered_at(st, r, 0, 2)


def test_card_53_buy_a_banner_for_2_silver(blank, rules):
    """Card 53. 'Acquire a banner paying 2 silver coins to the game supply. If the banner type
    requires two steps, add it face-down (or flip it, if it is already on your player board).'"""
    st, r = blank, rules
    clear_hands(st)
    give(st, 0, 53)
    assert r.aff_p[cid(53), AP.PAY_SILVER] == 2
    one = [b for b in range(6) if r.banner_steps[b] == 1]
    two = [b for b in range(6) if r.banner_steps[b] == 2]
    assert one and two
    st.pl[0, PF.BANNER_BLACK:PF.BANNER_OCHER + 1] = 0
    # limit: 2 silver coins are needed
    set_items(st, 0, silver=1, bronze=1)
    assert rows(st, r, 0, 53) == []
    set_items(st, 0, silver=2)
    assert rows(st, r, 0, 53) == [(b, 0) for b in range(6)]
    sup = int(st.supply[Sup.SILVER])
    use(st, r, 0, 53, one[0])  # a one-step banner: face-up at once
    assert st.pl[0, PF.BANNER_BLACK + one[0]] == 2
    assert coin_value(st, r, 0) == 0 and st.supply[Sup.SILVER] == sup + 2
    assert_spent(st, r, 0, 53)
    b = two[0]
    for level in (1, 2):  # a two-step banner: face-down, then flipped
        upright(st, 53)
        set_items(st, 0, silver=2)
        use(st, r, 0, 53, b)
        assert st.pl[0, PF.BANNER_BLACK + b] == level
    # a banner already face-up is not offered again
    upright(st, 53)
    set_items(st, 0, silver=2)
    offered = {a for a, _ in rows(st, r, 0, 53)}
    assert one[0] not in offered and b not in offered and len(offered) == 4


def test_card_54_barracks_of_an_adjacent_district_counts(blank, rules):
    """Card 54 (lightning). 'Consider a Barracks present in the selected district adjacent. This
    allows you to hire Soldiers there and to increase the VP value of the district.' Reading: at a
    Scoring phase a district next to one with a Barracks gains the Barracks' +2 (this scoring)."""
    st, r = blank, rules
    scoring_state(st)
    n3, s3 = 2, 6  # district indices (R-04: N1..N4, S1..S4)
    a, b = cells_of(r, N2, 1)[0], cells_of(r, n3, 1)[0]
    st.cell_b[a], st.cell_owner[a] = B.PALACE, 0
    st.cell_b[b] = B.BARRACKS
    base = clone(st)
    plain = scored(base, r)[:, VS.CITY]
    give(st, 0, 54)
    got = scored(st, r)[:, VS.CITY]
    assert got[0] == plain[0] + r.b_dv[B.BARRACKS]  # a Palace scores the district value + 10
    assert st.card_rot[cid(54)] == 1 and st.card_uses[cid(54)] == 1
    # limit: N2 and S3 meet only at a corner: a Barracks there does not count for N2
    assert r.district_adj[N2, n3] == 1 and r.district_adj[N2, s3] == 0
    st2 = clone(base)
    st2.cell_b[b] = B.NONE
    st2.cell_b[cells_of(r, s3, 1)[0]] = B.BARRACKS
    give(st2, 0, 54)
    scored(st2, r)[:, VS.CITY]
    assert st2.card_rot[cid(54)] == 0 and st2.card_uses[cid(54)] == 0
