"""Affiliate cards 55-60, the Captain group (CARD REFERENCE > AFFILIATE CARDS > CAPTAIN CARDS): VPs for
a won War (55), a salary discount (56), VPs per miniature used in the War (57), a Barracks worker
discount (58), a worker fighting as a Miliciano (59), a discard reactivating all other cards (60).

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
    assert_spent,
    cid,
    clear_hands,
    clear_map,
    clone,
    discount_activation,
    fresh,
    give,
    quiet_deck,
    rows,
    script,
    set_items,
    soldier,
    turn_rows,
    upright,
    use,
    war_state,
)
from invariants import check_state

from sim.actions import apply_option
from sim.codes import Act
from sim.deck import pay_salary
from sim.game import end_of_decade
from sim.rules import AP, RK
from sim.state import PF, VS, B, G, Loc, Mini, Sup
from sim.war import NATIVES, PIRATES, fight, tension_and_war


def test_card_55_vp_when_you_win_a_war_more_against_pirates(blank, rules):
    """Card 55. '⚡ Gain 5 VPs when you win a War (8 VPs, if they were Pirates).'"""
    st, r = blank, rules
    p = r.aff_p[cid(55)]
    assert p[AP.VP] == 5 and p[AP.VP_VS_PIRATES] == 8
    war_state(st, r, 55, holder=1)
    av = int(r.war_av[Mini.SOLDIER])
    fight(st, r, 1, 1, PIRATES)  # no miniature: lost
    assert st.vps[1, VS.AFFILIATE] == 0 and st.card_rot[cid(55)] == 0
    soldier(st, 1)
    fight(st, r, 1, av, NATIVES)
    assert st.vps[1, VS.AFFILIATE] == 5 and st.card_rot[cid(55)] == 1
    upright(st, 55)
    soldier(st, 1)
    fight(st, r, 1, av, PIRATES)
    assert st.vps[1, VS.AFFILIATE] == 5 + 8 and st.card_uses[cid(55)] == 2


def test_card_56_salary_discount_of_1_bronze(blank, rules):
    """Card 56. '⚡ Discount 1 bronze coin from the salaries which you have to pay.' (A. SALARY: 1
    bronze per 3 Affiliate cards, rounded up; each card left unpaid costs 2 VP.)"""
    st, r = blank, rules
    assert r.aff_p[cid(56), AP.BRONZE_DISCOUNT] == 1 and r.k[RK.SALARY_PER_BRONZE] == 3
    clear_hands(st)
    for s in (0, 1):
        script(st, s, vp=1.0, coin=1.0, card=100.0)  # pay rather than discard; fewest VP lost, then fewest coins
        st.pl[s, PF.BANNER_BLACK:PF.BANNER_OCHER + 1] = 0
        st.pl[s, PF.ST_CARDS] = 0
        set_items(st, s, bronze=5)
    for num in (56, 14, 20, 26):
        give(st, 0, num)
    for num in (31, 33, 37, 49):
        give(st, 1, num)
    vp = st.pl[:2, PF.VP].copy()
    pay_salary(st, r, 0)
    pay_salary(st, r, 1)
    assert st.pl[0, PF.BRONZE] == 5 - 1 and st.pl[1, PF.BRONZE] == 5 - 2  # 4 cards: 2 bronze, 1 with the card
    assert (st.pl[:2, PF.VP] == vp).all()  # nothing unpaid
    assert st.card_rot[cid(56)] == 1 and st.card_uses[cid(56)] == 1
    # rotated: the next salary is paid in full
    pay_salary(st, r, 0)
    assert st.pl[0, PF.BRONZE] == 5 - 1 - 2
    # limit: no salary to pay (free cards), the card is not used
    upright(st, 56)
    st.pl[0, PF.ST_CARDS] = 3
    st.pl[0, PF.BANNER_BLACK] = 2
    pay_salary(st, r, 0)
    assert st.pl[0, PF.BRONZE] == 2 and st.card_rot[cid(56)] == 0 and st.card_uses[cid(56)] == 1


def _fighters(st, n, kinds):
    """Seats fight with the given miniature whenever it lowers their loss (VP weight only) and never
    burn the held card."""
    for s in range(n):
        script(st, s, vp=1.0, card=10.0)
        st.minis[s] = 0
        if kinds[s] != Mini.NONE:
            st.minis[s, 0, 0] = kinds[s]


def test_card_57_vp_per_miniature_used_in_the_war(blank, rules, engine):
    """Card 57. '⚡ Gain 1 VP for each Miliciano (and 2 VPs for each Soldier) used in the current War
    (add 1 VP in 2-3 player game). For example, in a 3-player game, two players used 1 Soldier
    each, and the player used 1 Miliciano in the War. With this card, the player gains 6 VPs
    (2+2+1=5 and +1=6).'"""
    r, W = engine
    p = r.aff_p[cid(57)]
    assert p[AP.VP_PER_MILICIANO] == 1 and p[AP.VP_PER_SOLDIER] == 2 and p[AP.SMALL_GAME_EXTRA_VP] == 1
    red = int(r.k[RK.RED_ZONE])
    assert r.k[RK.ATTACK_NATIVES] + r.ten_single[red] > 0

    def war(st):
        quiet_deck(st, r)
        st.g[G.NAT_POS] = red
        tension_and_war(st, r)
        assert st.g[G.WAR_FACTION] == NATIVES

    # the rulebook example: 3 players, two Soldiers and the holder's Miliciano
    st = fresh(r, W, 3)
    war_state(st, r, 57, holder=2)
    _fighters(st, 3, [Mini.SOLDIER, Mini.SOLDIER, Mini.MILICIANO])
    war(st)
    assert st.g[G.WAR_SOLDIERS] == 2 and st.g[G.WAR_MILICIANOS] == 1
    assert st.vps[2, VS.AFFILIATE] == 6 and st.card_rot[cid(57)] == 1
    # 4 players: no extra VP; the holder need not fight
    st = blank
    war_state(st, r, 57, holder=3)
    _fighters(st, 4, [Mini.SOLDIER, Mini.MILICIANO, Mini.MILICIANO, Mini.NONE])
    war(st)
    assert st.vps[3, VS.AFFILIATE] == 2 + 1 + 1 and st.card_rot[cid(57)] == 1
    # limit: no miniature used in the War, no VPs (the card is kept)
    upright(st, 57)
    st.minis[:] = 0
    war(st)
    assert st.vps[3, VS.AFFILIATE] == 4 and st.card_rot[cid(57)] == 0 and st.card_uses[cid(57)] == 1


def test_card_58_barracks_activation_and_construction_with_a_council_worker(blank, rules):
    """Card 58. 'You can do the Barracks activation/construction action with the discount of 1
    Worker. You can activate it, also if they are not adjacent to a your building.' (A Barracks
    costs 2 workers to build: with the card, 1 of the seat's and 1 City Council worker.)"""
    st, r = blank, rules
    a = next(i for i in range(r.act_b.shape[0]) if r.act_b[i] == B.BARRACKS and r.act_kind[i] == 1)
    st.minis[0] = 0
    st.minis[0, 0, 0] = Mini.MILICIANO_VET
    set_items(st, 0, metal=r.act_in[a, 3])
    discount_activation(st, r, 58, B.BARRACKS, a, B.CHURCH)
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
    apply_option(st, r, 0, int(Act.BUILD), int(B.BARRACKS), c, 1 << 1)
    assert st.cell_b[c] == B.BARRACKS and st.pl[0, PF.WORKERS] == 0 and st.supply[Sup.COUNCIL_WORKERS] == sup - 1


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
    d = int(st.g[G.DECADE])
    st.peace[:] = 0
    st.peace[d:d + 2] = 1  # no further War in the two decades: two of the box's Peace markers
    st.supply[Sup.PEACE] = r.supply_n[int(st.g[G.NPLAYERS]) - 2, Sup.PEACE] - 2
    end_of_decade(st, r)
    assert st.pl[0, PF.WORKERS] == total - 1 and st.pl[0, PF.CARD59_THIS] == 1
    st.g[G.DECADE] += 1
    end_of_decade(st, r)
    assert st.pl[0, PF.WORKERS] == total and st.pl[0, PF.CARD59_THIS] == 0
    assert not check_state(st, r)


def test_card_60_discard_a_card_to_reactivate_all_others(blank, rules):
    """Card 60. 'Discard 1 card, also this one, to immediately reactivate all your cards, excluding
    this one. This is not a burn a card action. Put the reactivated cards straight.' Reading: all
    your rotated cards, Character card included, turn upright; card 60, if kept, stays rotated."""
    st, r = blank, rules
    clear_hands(st)
    ch = int(st.pl[0, PF.CHARACTER])
    c60 = give(st, 0, 60)
    ca = give(st, 0, 14, rotated=True)
    cb = give(st, 0, 20)
    give(st, 1, 26, rotated=True)  # another player's card
    st.card_rot[ch] = 1
    assert set(rows(st, r, 0, 60)) == {(c60, 0), (ca, 0), (cb, 0)}  # any of the seat's Affiliates
    av0 = int(st.pl[0, PF.BURN_AV])
    use(st, r, 0, 60, cb)
    assert st.card_loc[cb] == Loc.PILE + 0  # discarded face up to the player's pile
    assert st.card_rot[ca] == 0 and st.card_rot[ch] == 0  # reactivated, the Character too
    assert st.card_rot[c60] == 1  # excluding this one
    assert st.card_rot[cid(26)] == 1  # only the player's own cards
    assert st.pl[0, PF.BURN_AV] == av0  # not a burn: no AV
    assert_spent(st, r, 0, 60)
    # discarding card 60 itself
    upright(st, 60)
    st.card_rot[ca] = 1
    use(st, r, 0, 60, c60)
    assert st.card_loc[c60] == Loc.PILE + 0 and st.card_rot[ca] == 0
    # limit: nothing to reactivate, no option
    give(st, 0, 60)
    assert rows(st, r, 0, 60) == []
