"""10. IMPROVE STATUS: the powers of the Construction, Worker, VP and Cards status levels (with the
rulebook's worked examples).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

from helpers import act_row, give, pile_size, row_by_put, scored, scoring_state, set_affiliates, set_items, turn_rows

from sim.actions import activation_ok, apply_option
from sim.codes import Act, Ch
from sim.core import gain_vp, workers_available
from sim.deck import draw_and_keep, n_affiliates, pay_salary, salary_free
from sim.economy import coin_value, pay_plan, pay_resources
from sim.rules import RK, load_rules
from sim.scoring import end_game
from sim.state import N_CHARACTERS, PF, VS, B, G, Loc, Sup


def test_construction_status_swaps(blank, rules):
    """Construction status. 'Level I The player can consider a wood resource like a stone resource (and
    viceversa) 1 time per Decade. Level II In addition to the Level I action power, the player can
    consider a wood or stone resource like a precious resource (and viceversa) 1 time per Decade.
    Level III In addition ..., the player can consider a wood or stone resource like a metal resource
    (and viceversa) 1 time per Decade.'"""
    st, r = blank, rules
    house = r.b_cost[B.HOUSE, 1:]  # wood, stone, precious, metal
    assert house[0] > 0 and house[1] > 0 and house[2:].sum() == 0
    set_items(st, 0, wood=house[0] + house[1])
    assert pay_plan(st, 0, *house, 1) < 0  # no status: no swap
    st.pl[0, PF.ST_CONSTRUCTION] = 1
    plan = pay_plan(st, 0, *house, 1)
    assert plan >= 0
    sup = int(st.supply[Sup.WOOD])
    pay_resources(st, 0, *house, plan)
    assert st.pl[0, PF.WOOD] == 0 and st.pl[0, PF.STONE] == 0 and st.supply[Sup.WOOD] == sup + house[0] + house[1]
    assert st.pl[0, PF.USED_SWAP1] == 1
    set_items(st, 0, wood=house[0] + house[1])
    assert pay_plan(st, 0, *house, 1) < 0  # once per decade
    # Level II: stone as precious (and Level I still there)
    monument = r.b_cost[B.MONUMENT, 1:]
    assert monument[2] > 0
    set_items(st, 1, stone=monument[1] + monument[2])
    st.pl[1, PF.ST_CONSTRUCTION] = 1
    assert pay_plan(st, 1, *monument, 1) < 0
    st.pl[1, PF.ST_CONSTRUCTION] = 2
    plan = pay_plan(st, 1, *monument, 1)
    assert plan >= 0
    pay_resources(st, 1, *monument, plan)
    assert st.pl[1, PF.STONE] == 0 and st.pl[1, PF.PRECIOUS] == 0 and st.pl[1, PF.USED_SWAP2] == 1
    set_items(st, 1, wood=house[0] + house[1])
    assert pay_plan(st, 1, *house, 1) >= 0
    # Level III: wood as metal, and metal as wood (viceversa)
    set_items(st, 2, wood=1)
    st.pl[2, PF.ST_CONSTRUCTION] = 2
    assert pay_plan(st, 2, 0, 0, 0, 1, 1) < 0
    st.pl[2, PF.ST_CONSTRUCTION] = 3
    plan = pay_plan(st, 2, 0, 0, 0, 1, 1)
    assert plan >= 0
    pay_resources(st, 2, 0, 0, 0, 1, plan)
    assert st.pl[2, PF.WOOD] == 0 and st.pl[2, PF.METAL] == 0 and st.pl[2, PF.USED_SWAP3] == 1
    set_items(st, 3, metal=1)
    st.pl[3, PF.ST_CONSTRUCTION] = 3
    assert pay_plan(st, 3, 1, 0, 0, 0, 1) >= 0
    # 'Sales require real resources. Any effect that produces a discount ... does not apply'
    sell_stone = act_row(r, B.MARKET, inp=[0, 2, 0, 0, 0, 0])
    set_items(st, 3, wood=2)
    assert not activation_ok(st, r, 3, sell_stone)
    set_items(st, 3, stone=2)
    assert activation_ok(st, r, 3, sell_stone)
    # Ship: 'To Load the Ship, real resources or coins are required. Any effect that produces a discount
    # (or considers a resource or coin type equivalent to another one) does not apply to this action.'
    three_wood = row_by_put(r, lambda p: p[0] == p.sum())
    need = int(r.ship_put[three_wood, 0])
    set_items(st, 3, wood=need - 1, stone=3, precious=3, metal=3)
    assert three_wood not in turn_rows(st, r, 3, Act.SHIP)[:, 1]
    st.pl[3, PF.WOOD] = need
    assert three_wood in turn_rows(st, r, 3, Act.SHIP)[:, 1]


def test_worker_status_council_workers(blank, rules):
    """Worker status. 'Level I 1 time per decade, the player gains 1 City Council Worker, if available
    in the game, paying 1 bronze coin to the game supply. This worker can be used like other player
    workers' 'Level II The Level I action is available spending 1 bronze coin OR 1 resource
    (wood/stone).' 'Level III The Level I action is doubled and free: the player can use up to 2 City
    Council Workers for free 1 time per decade.'"""
    st, r = blank, rules

    def pays(seat):
        return set(turn_rows(st, r, seat, Act.F_CC_WORKER)[:, 1].tolist())

    assert pays(0) == set()
    # Level I: bronze only
    st.pl[0, PF.ST_WORKER] = 1
    assert pays(0) == {0}
    cv, sb, cc, avail = coin_value(st, r, 0), int(st.supply[Sup.BRONZE]), int(st.supply[Sup.COUNCIL_WORKERS]), workers_available(st, 0)
    apply_option(st, r, 0, int(Act.F_CC_WORKER), 0, 0, 0)
    assert coin_value(st, r, 0) == cv - r.worker_bronze[0] and st.supply[Sup.BRONZE] == sb + r.worker_bronze[0]
    assert st.pl[0, PF.CC_WORKERS] == r.worker_cc[0] and st.supply[Sup.COUNCIL_WORKERS] == cc - r.worker_cc[0]
    assert workers_available(st, 0) == avail + r.worker_cc[0]
    assert pays(0) == set()  # once per decade
    # Level II: bronze, or a wood or a stone
    st.pl[1, PF.ST_WORKER] = 2
    assert pays(1) == {0, 1, 2}
    w, cv = int(st.pl[1, PF.WOOD]), coin_value(st, r, 1)
    apply_option(st, r, 1, int(Act.F_CC_WORKER), 1, 0, 0)
    assert st.pl[1, PF.WOOD] == w - 1 and coin_value(st, r, 1) == cv and st.pl[1, PF.CC_WORKERS] == r.worker_cc[1]
    # Level III: two, free
    st.pl[2, PF.ST_WORKER] = 3
    assert pays(2) == {3}
    cv, w, s = coin_value(st, r, 2), int(st.pl[2, PF.WOOD]), int(st.pl[2, PF.STONE])
    apply_option(st, r, 2, int(Act.F_CC_WORKER), 3, 0, 0)
    assert st.pl[2, PF.CC_WORKERS] == r.worker_cc[2] == 2
    assert (coin_value(st, r, 2), st.pl[2, PF.WOOD], st.pl[2, PF.STONE]) == (cv, w, s)
    # 'if available in the game'
    st.pl[3, PF.ST_WORKER] = 1
    st.supply[Sup.COUNCIL_WORKERS] = 0
    assert pays(3) == set()


def test_vp_status_bonus_rounds_down_and_waits_for_a_gain(blank, rules):
    """VP status. 'Level I 1 time per decade, the player gains a bonus of 25% on the VPs from a single
    source (rounded down). This bonus applies to a single VPs assignation.'"""
    st, r = blank, rules
    pct = int(r.vp_bonus_pct[0])
    st.pl[0, PF.ST_VP] = 1
    vp0 = int(st.pl[0, PF.VP])
    gain_vp(st, r, 0, -4, VS.SALARY)  # a loss gets no bonus
    small = 100 // pct - 1  # 25 % of it rounds down to 0
    gain_vp(st, r, 0, small, VS.MONEY)
    assert st.pl[0, PF.VP] - vp0 == small - 4 and st.pl[0, PF.USED_VP_STATUS] == 0
    big = 4 * (100 // pct)
    gain_vp(st, r, 0, big, VS.MONEY)
    assert st.pl[0, PF.VP] - vp0 == small - 4 + big + big * pct // 100
    assert st.vps[0, VS.VP_STATUS] == big * pct // 100 and st.pl[0, PF.USED_VP_STATUS] == 1


def test_vp_status_bonus(blank, rules):
    """VP status I/II/III: +25 % / +50 % / +150 % (rounded down) on one VP assignation a decade."""
    st = blank
    for lvl, bonus in ((1, 2), (2, 5), (3, 15)):
        st.pl[0, PF.ST_VP] = lvl
        st.pl[0, PF.USED_VP_STATUS] = 0
        vp0 = st.pl[0, PF.VP]
        gain_vp(st, rules, 0, 10, VS.MONEY)  # greedy uses the bonus
        assert st.pl[0, PF.VP] - vp0 == 10 + bonus
        vp0 = st.pl[0, PF.VP]
        gain_vp(st, rules, 0, 10, VS.MONEY)  # once per decade
        assert st.pl[0, PF.VP] - vp0 == 10


def _series_hand(st, seat, groups):
    """The seat holds ``groups[g]`` Affiliate cards of colour g and no Character card (a Captain who
    won no War: his card scores nothing)."""
    st.card_loc[:N_CHARACTERS] = Loc.BOX
    st.pl[:4, PF.CHARACTER] = Ch.CAPTAIN
    st.pl[:4, PF.WARS_WON_ERA] = 0
    for g, k in groups.items():
        for j in range(k):
            give(st, seat, 13 + 6 * g + j)


def test_vp_status_takes_a_single_colour_series(blank, rules):
    """VP status: 'This bonus applies to a single VPs assignation ... at the Scoring phase, the player
    can increase ... the VPs coming from a card color series'. A 5-card and a 3-card series in Era 2
    at Level III are two assignations: the bonus takes one, 150 % of 4 x 2 = 12 VPs, not 150 % of
    both (15)."""
    st, r = blank, rules
    scoring_state(st)
    _series_hand(st, 0, {0: 5, 1: 3})
    st.pl[0, PF.ST_VP] = 3
    era = 2
    five, three = int(r.series_vp[5]) * era, int(r.series_vp[3]) * era
    got = scored(st, r, era)[0]
    assert got[VS.SERIES] == five + three == 10
    assert got[VS.VP_STATUS] == five * r.vp_bonus_pct[2] // 100 == 12
    assert st.pl[0, PF.USED_VP_STATUS] == 1


def test_vp_status_takes_the_end_of_the_game_vps(blank):
    """status.vp_bonus_end_game (a reading): the City Council VPs, assigned in the last decade after its
    Scoring, are a single source the bonus not used in that decade may take; with the reading off,
    never. A War VP loss gets no bonus either way."""
    st = blank
    for on in (True, False):
        r = load_rules(overrides={"status": {"vp_bonus_end_game": on}})
        st.g[G.DECADE] = st.g[G.LAST_DECADE]
        st.pl[0, PF.ST_VP] = 1
        st.pl[0, PF.USED_VP_STATUS] = 0
        st.pl[0, PF.COUNCIL] = r.k[RK.COUNCIL_MAX]
        st.pl[0, PF.WAR_PENALTY] = 5  # a loss
        before = st.vps.copy()
        end_game(st, r)
        got = st.vps[0] - before[0]
        council = int(r.council_vp[r.k[RK.COUNCIL_MAX]])
        assert got[VS.END_COUNCIL] == council and got[VS.END_WAR] < 0
        assert got[VS.VP_STATUS] == (council * r.vp_bonus_pct[0] // 100 if on else 0) and council * r.vp_bonus_pct[0] // 100 > 0


def test_card_status_ignores_cards_for_the_salary(blank, rules):
    """Cards status. 'Level I ... The player can also ignore 1 Affiliate card in the salaries payment
    procedure.' 'Level II ... (for a total of 2 free cards).' 'Level III ... (for a total of 3 free
    cards).'"""
    st, r = blank, rules
    per = int(r.k[RK.SALARY_PER_BRONZE])
    for lvl in (1, 2, 3):
        seat = lvl - 1
        free = int(r.card_free[lvl - 1])
        assert free == lvl
        set_affiliates(st, seat, free + per)
        set_items(st, seat, bronze=1)  # enough only with the free cards
        assert salary_free(st, r, seat) == 0
        st.pl[seat, PF.ST_CARDS] = lvl
        assert salary_free(st, r, seat) == free
        vp0 = int(st.pl[seat, PF.VP])
        pay_salary(st, r, seat)
        assert coin_value(st, r, seat) == 0 and st.pl[seat, PF.VP] == vp0
        assert n_affiliates(st, seat) == free + per


def test_card_status_extra_draw_and_free_reactivation(blank, rules):
    """Cards status. 'Level I 1 time per Decade, the player can draw 1 additional card when they have to
    draw cards from the deck (this doesn't influence the number of cards they can keep).' 'Level II In
    addition to the Level I action power, 1 time per decade, the player can do the Reactivate cards
    action as a free action with no cost.'"""
    st, r = blank, rules
    n = int(r.k[RK.DRAW])

    def drawn(seat):
        h, p = n_affiliates(st, seat), pile_size(st, seat)
        draw_and_keep(st, r, seat, n)
        kept = n_affiliates(st, seat) - h
        assert kept <= 1
        return kept + pile_size(st, seat) - p

    st.pl[0, PF.ST_CARDS] = 1
    assert drawn(0) == n + r.k[RK.CARD_EXTRA_DRAW]
    assert drawn(0) == n  # once per decade
    assert drawn(1) == n  # no status
    # Level II: Reactivate Cards as a free action, once per decade
    assert len(turn_rows(st, r, 0, Act.F_FREE_REACT)) == 0
    st.pl[0, PF.ST_CARDS] = 2
    assert len(turn_rows(st, r, 0, Act.F_FREE_REACT)) == 1
    w = workers_available(st, 0)
    apply_option(st, r, 0, int(Act.F_FREE_REACT), 0, 0, 0)
    assert st.pl[0, PF.REACT_FREE] == 1 and workers_available(st, 0) == w
    assert len(turn_rows(st, r, 0, Act.F_FREE_REACT)) == 0


def test_card_status_iii_example_45(rules):
    """'a 4-player game ... 10 x 1.5 x 3 = 45' (the example names 11 colours but computes with 10:
    the arithmetic is taken as the rule, see the closing note)."""
    n_colours = 10
    assert n_colours * rules.card_l3_half[4 - 2] * 3 // 2 == 45
    assert n_colours * rules.card_l3_half[3 - 2] * 3 // 2 == 30
