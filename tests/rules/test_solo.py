"""TWO PLAYERS GAME & SOLO MODE: the A.I. player (sim.solo, sim.ai_choice) on hand-built positions,
and the Solo game and the 2-player game with the A.I. played whole (random-play invariants)."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import cell, cid, clear_hands, clear_map, give, put, set_items, stack_deck
from invariants import check_state

from sim.actions import turn_options
from sim.ai_choice import ai_decide, city_vp, first_human
from sim.banners import banner_step
from sim.codes import Act, AiCard, Dec, Ev, Law, Side
from sim.council_vote import call_vote, can_call_vote
from sim.deck import draw_and_keep
from sim.game import allocate, play_own_decade, set_decade, setup, start_of_decade
from sim.major_buildings import complete
from sim.rules import RK, load_rules, load_rules_doc, rules_from_doc
from sim.solo import ai_draw, ai_play
from sim.solo_placement import district_space, randomizer_space
from sim.state import AI_STRATEGY, MAX_PLAYERS, N_AI_CARDS, PF, B, Banner, G, Loc, M, Sup
from strategies.match import run_game

N1, N2, N3, N4, S1, S2, S3, S4 = range(8)


def solo_state(r, W, humans=1, seed=11, strategy=1, ai_first=False):
    """A fresh game with the A.I. at the last seat (or the first): setup done, decade 1."""
    n = humans + 1
    st = allocate(r)
    st.rng[0] = seed
    strat = np.zeros(MAX_PLAYERS, np.int32)
    strat[:n] = strategy
    strat[0 if ai_first else n - 1] = AI_STRATEGY
    setup(st, r, W, n, strat, np.full(MAX_PLAYERS, -1, np.int32), np.zeros(MAX_PLAYERS, np.int32), 0)
    set_decade(st, r, 1)
    return st, (0 if ai_first else n - 1)


def card_of(r, face):
    """A Solo card id with this action."""
    return int(np.flatnonzero(r.ai_deck == face)[0])


def strength(name):
    doc = load_rules_doc(None, {"solo": {"strength": name}})
    return rules_from_doc(doc)


# ----------------------------------------------------------------------------- rules data


def test_solo_rules_data(rules):
    r = rules
    assert r.ai_workers.tolist() == [4, 5, 6, 7]
    assert r.ai_workers[r.k[RK.AI_STRENGTH]] == 5  # medium by default
    assert sorted(r.ai_chars.tolist()) == [0, 1, 2, 9, 10]  # Carpenter, Stonemason (the "Quarry"), Merchant, Architect, Governor
    assert r.ai_deck.shape == (N_AI_CARDS,) and r.ai_deck_workers.shape == (N_AI_CARDS,)
    faces = dict(zip(*np.unique(r.ai_deck, return_counts=True)))
    assert faces == {AiCard.BUILD: 3, AiCard.QUARRY: 2, AiCard.CARPENTRY: 2, AiCard.MARKET: 1, AiCard.MAJOR: 2, AiCard.COUNCIL: 1,
                     AiCard.SHIP: 1, AiCard.TAKE_CARD: 1, AiCard.MILICIANO: 1, AiCard.STATUS: 1, AiCard.ORDER: 1}
    cost = {int(f): int(w) for f, w in zip(r.ai_deck, r.ai_deck_workers)}
    assert cost == {AiCard.BUILD: 2, AiCard.QUARRY: 1, AiCard.CARPENTRY: 1, AiCard.MARKET: 1, AiCard.MAJOR: 3, AiCard.COUNCIL: 1,
                    AiCard.SHIP: 2, AiCard.TAKE_CARD: 2, AiCard.MILICIANO: 1, AiCard.STATUS: 2, AiCard.ORDER: 1}
    assert r.k[RK.AI_PALACE_WORKERS] == 3 and r.k[RK.AI_COUNCIL_POINTS] == 3 and r.k[RK.AI_FACE_UP] == 2
    assert [strength(s).k[RK.AI_STRENGTH] for s in ("weak", "medium", "strong", "divinity")] == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="solo.strength: allowed: weak, medium, strong, divinity"):
        strength("godlike")


def test_two_player_game_without_ai_uses_the_variants_supply(rules):
    """VARIANTS, 2-PLAYER GAME WITHOUT A.I.: 1 miniature of most buildings, 2 Squares, 3 Palaces,
    13 Walls, 3 road markers, 9 Faith."""
    sup = rules.supply_n[0]
    for slot in (Sup.QUARRY, Sup.CARPENTRY, Sup.MARKET, Sup.BARRACKS, Sup.CHURCH, Sup.CORP_HACIENDA, Sup.MONUMENT, Sup.FOUNTAIN):
        assert sup[slot] == 1, slot.name
    assert (sup[Sup.SQUARE], sup[Sup.PALACE], sup[Sup.WALLS], sup[Sup.ROAD_MARKERS], sup[Sup.FAITH]) == (2, 3, 13, 3, 9)


def test_a_game_with_the_ai_uses_the_3_player_supply(engine):
    """SETUP 3 NOTE: '2-player games use 3-player configurations as they usually include an A.I.
    player': the Solo game (1 player + A.I.) and the 2-player game + A.I. get the 3-player game
    supply (solo.supply_players), the 2-player game without A.I. the VARIANTS one."""
    r, W = engine
    three = r.supply_n[r.k[RK.AI_SUPPLY_PLAYERS] - 2]
    assert r.k[RK.AI_SUPPLY_PLAYERS] == 3 and three[Sup.WALLS] == 18
    for humans in (1, 2):
        st, _ = solo_state(r, W, humans)
        assert st.supply[Sup.WALLS] == three[Sup.WALLS] and st.supply[Sup.PALACE] == three[Sup.PALACE]
    st = allocate(r)
    strat = np.zeros(MAX_PLAYERS, np.int32)
    setup(st, r, W, 2, strat, np.full(MAX_PLAYERS, -1, np.int32), np.zeros(MAX_PLAYERS, np.int32), 0)
    assert st.supply[Sup.WALLS] == r.supply_n[0, Sup.WALLS] == 13


# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize("humans", [1, 2])
def test_setup(engine, humans):
    r, W = engine
    for seed in range(6):
        st, ai = solo_state(r, W, humans, seed)
        assert st.g[G.AI] == ai + 1 and st.pl[ai, PF.STRATEGY] == AI_STRATEGY and (st.w[ai] == 0).all()
        assert st.pl[ai, PF.CHARACTER] in r.ai_chars.tolist()
        assert st.card_loc[st.pl[ai, PF.CHARACTER]] == Loc.HAND + ai
        assert [int(st.pl[ai, f]) for f in (PF.WOOD, PF.STONE, PF.SILVER, PF.BRONZE)] == [1, 1, 1, 1]  # FAQ
        assert st.pl[ai, PF.WORKERS] == 5
        lots = np.flatnonzero((st.cell_b == B.LOT) & (st.cell_owner == ai))
        assert len(lots) == 1 and r.cell_start[lots[0]] == 1 and st.pl[ai, PF.LOTS] == 1
        assert sorted(st.ai_deck.tolist()) == list(range(N_AI_CARDS)) and st.g[G.AI_TOP] == 0
        humans_chars = [int(st.pl[s, PF.CHARACTER]) for s in range(humans + 1) if s != ai]
        assert len(set(humans_chars + [int(st.pl[ai, PF.CHARACTER])])) == humans + 1
        assert not check_state(st, r)


def test_setup_with_forced_characters_leaves_the_ai_its_own(engine):
    r, W = engine
    st = run_game(r, W, 2, 5, [1, AI_STRATEGY], characters=[9, 0])  # the Architect to the player
    assert st.pl[0, PF.CHARACTER] == 9 and st.pl[1, PF.CHARACTER] in (0, 1, 2, 10)


# ----------------------------------------------------------------------------- randomizer and placement


def test_randomizer_card_41_counts_five_along_the_top_row(engine):
    r, W = engine
    st, _ = solo_state(r, W)
    clear_map(st)
    top = [cell(r, x, 4) for x in range(6, 10)]
    bottom = [cell(r, x, 5) for x in range(6, 10)]
    assert all(r.cell_start[c] for c in top + bottom)
    assert randomizer_space(st, r, 41) == top[0]  # odd: top row; 4 + 1 = 5 spaces: past the row's end, the first
    assert randomizer_space(st, r, 23) == top[0]  # 2 + 3 = 5
    assert randomizer_space(st, r, 13) == top[3]  # 1 + 3 = 4
    assert randomizer_space(st, r, 18) == bottom[0]  # even: bottom row; 9 -> 9 - 2 x 4 = 1
    assert randomizer_space(st, r, 20) == bottom[1]  # 2
    # occupied spaces are ignored in the count
    put(st, r, 6, 4, B.LOT, 0)
    put(st, r, 7, 4, B.QUARRY)
    assert randomizer_space(st, r, 41) == top[2]  # 5 over the 2 free spaces (8,4), (9,4): the first
    assert randomizer_space(st, r, 13) == top[3]
    # a full row: the other row
    put(st, r, 8, 4, B.LOT, 0)
    put(st, r, 9, 4, B.LOT, 0)
    assert randomizer_space(st, r, 41) == bottom[0]
    for c in bottom:
        st.cell_b[c] = B.SQUARE
    assert randomizer_space(st, r, 41) == -1


def test_placement_south_district(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    clear_map(st)
    assert r.district_north[S2] == 0
    put(st, r, 5, 6, B.LOT, ai)
    put(st, r, 6, 6, B.HOUSE, ai)
    put(st, r, 5, 5, B.PALACE, ai)  # not the southernmost
    set_decade(st, r, 1)  # odd decade: the leftmost of the southernmost row
    assert district_space(st, r, ai, S2) == cell(r, 5, 7)  # "starting in the space below"
    put(st, r, 5, 7, B.QUARRY)
    assert district_space(st, r, ai, S2) == cell(r, 4, 7)  # clockwise: south-west next
    put(st, r, 4, 7, B.QUARRY)
    assert district_space(st, r, ai, S2) == cell(r, 4, 6)  # west
    set_decade(st, r, 2)  # even decade: the rightmost
    assert district_space(st, r, ai, S2) == cell(r, 6, 7)
    # every space around the southernmost row's buildings taken: the next row north
    for x, y in ((4, 6), (4, 5), (6, 5), (7, 5), (7, 6), (7, 7), (6, 7)):
        put(st, r, x, y, B.QUARRY)
    assert district_space(st, r, ai, S2) == cell(r, 4, 4)  # around (5,5) from below: (5,6) ours, SW and W taken, then NW
    # no space left around any A.I. building of the district
    for x, y in ((4, 4), (5, 4), (6, 4)):
        put(st, r, x, y, B.QUARRY)
    assert district_space(st, r, ai, S2) == -1


def test_placement_north_district_stays_in_its_district(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    clear_map(st)
    assert r.district_north[N2] == 1
    put(st, r, 5, 1, B.LOT, ai)
    put(st, r, 6, 1, B.LOT, ai)
    put(st, r, 5, 3, B.LOT, ai)
    set_decade(st, r, 3)  # odd: leftmost of the northernmost row
    assert district_space(st, r, ai, N2) == cell(r, 5, 0)  # "starting in the space above"
    put(st, r, 5, 0, B.QUARRY)
    assert district_space(st, r, ai, N2) == cell(r, 6, 0)  # clockwise: north-east
    set_decade(st, r, 4)
    put(st, r, 6, 0, B.QUARRY)
    put(st, r, 7, 0, B.QUARRY)
    assert district_space(st, r, ai, N2) == cell(r, 7, 1)  # rightmost (6,1): N, NE taken, then east
    clear_map(st)
    put(st, r, 4, 0, B.LOT, ai)  # on the district's west edge: N1's spaces are not the district's
    put(st, r, 5, 0, B.QUARRY)
    put(st, r, 5, 1, B.QUARRY)
    put(st, r, 4, 1, B.QUARRY)
    assert district_space(st, r, ai, N2) == -1
    put(st, r, 4, 3, B.LOT, ai)  # the next row south
    assert district_space(st, r, ai, N2) == cell(r, 4, 2)


def test_new_lot_goes_to_the_district_of_the_ai_buildings(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    clear_map(st)
    put(st, r, 1, 1, B.HOUSE, ai)  # N1
    set_decade(st, r, 1)
    lots = int(st.pl[ai, PF.LOTS])
    build = card_of(r, AiCard.BUILD)
    st.pl[ai, PF.HOUSES] = 0  # no House to build: a Palace needs a House, so a new Lot
    st.pl[ai, PF.PALACE_MARKERS] = 0
    assert ai_play(st, r, ai, build, True)
    assert st.cell_b[cell(r, 1, 0)] == B.LOT and st.cell_owner[cell(r, 1, 0)] == ai
    assert st.pl[ai, PF.LOTS] == lots - 1 and st.pl[ai, PF.WORKERS_PLACED] == 2


# ----------------------------------------------------------------------------- the cards


def test_build_card_upgrades_first_and_pays_no_resources(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    clear_map(st)
    set_items(st, ai)
    st.supply[Sup.PALACE] = 2
    put(st, r, 6, 4, B.LOT, ai)
    build = card_of(r, AiCard.BUILD)
    workers = int(st.pl[ai, PF.WORKERS])
    assert ai_play(st, r, ai, build, True)  # a House on its Lot (2 workers)
    assert st.cell_b[cell(r, 6, 4)] == B.HOUSE and st.pl[ai, PF.WORKERS] == workers - 2
    assert ai_play(st, r, ai, build, True)  # a Palace on its House (3 workers), no wood, stone, precious nor metal
    assert st.cell_b[cell(r, 6, 4)] == B.PALACE and st.pl[ai, PF.WORKERS] == workers - 5
    assert st.supply[Sup.PALACE] == 1 and st.pl[ai, PF.PALACE_MARKERS] == r.k[RK.PALACE_MARKERS] - 1
    assert [int(st.pl[ai, f]) for f in (PF.WOOD, PF.STONE, PF.PRECIOUS, PF.METAL)] == [0, 0, 0, 0]
    assert not ai_play(st, r, ai, build, False)  # no worker left


def test_build_card_with_two_workers_does_not_build_a_house_instead_of_its_palace(engine):
    """FAQ SOLO GAME: "A.I. uses Actual cost. If A.I. doesn't have enough workers, you must draw another
    card": it wants a Palace on its House (3 workers) and has 2, so the card is not playable, though a
    House on its Lot would cost 2 (sim.solo.card_build; tests/sim/test_solo_build.py plays the turn)."""
    r, W = engine
    st, ai = solo_state(r, W)
    clear_map(st)
    put(st, r, 6, 4, B.HOUSE, ai)
    put(st, r, 9, 4, B.LOT, ai)
    st.supply[Sup.PALACE] = 2
    assert st.pl[ai, PF.PALACE_MARKERS] > 0 and st.pl[ai, PF.HOUSES] > 0  # a Palace or a House: pieces for either
    st.pl[ai, PF.WORKERS] = 2
    st.pl[ai, PF.ST_WORKER] = 0  # no City Council worker to make up the third
    assert not ai_play(st, r, ai, card_of(r, AiCard.BUILD), False)
    assert not ai_play(st, r, ai, card_of(r, AiCard.BUILD), True)
    assert st.cell_b[cell(r, 9, 4)] == B.LOT and st.cell_b[cell(r, 6, 4)] == B.HOUSE and st.pl[ai, PF.WORKERS] == 2


def test_upgrade_tie_is_the_human_players_choice(engine):
    r, W = engine
    picks = set()
    for seed in range(12):
        st, ai = solo_state(r, W, seed=seed, strategy=0)  # the human plays random: its pick varies
        clear_map(st)
        put(st, r, 6, 4, B.LOT, ai)
        put(st, r, 9, 5, B.LOT, ai)
        n0 = int(st.g[G.OPT_N])
        assert ai_play(st, r, ai, card_of(r, AiCard.BUILD), True)
        assert st.g[G.OPT_N] == n0 + 1  # one decision: the human's
        houses = [c for c in (cell(r, 6, 4), cell(r, 9, 5)) if st.cell_b[c] == B.HOUSE]
        assert len(houses) == 1
        picks.add(houses[0])
    assert picks == {cell(r, 6, 4), cell(r, 9, 5)}
    assert first_human(st) == 0


def test_resource_cards_follow_the_character(engine):
    r, W = engine
    quarry, carpentry = card_of(r, AiCard.QUARRY), card_of(r, AiCard.CARPENTRY)
    for ch, want in ((10, (2, 0, 0, 2)), (0, (0, 2, 0, 2)), (1, (2, 0, 2, 0))):  # Governor, Carpenter, Stonemason
        st, ai = solo_state(r, W)
        st.pl[ai, PF.CHARACTER] = ch
        set_items(st, ai)
        ai_play(st, r, ai, quarry, True)
        got_q = (int(st.pl[ai, PF.STONE]), int(st.pl[ai, PF.WOOD]))
        set_items(st, ai)
        ai_play(st, r, ai, carpentry, True)
        got_c = (int(st.pl[ai, PF.STONE]), int(st.pl[ai, PF.WOOD]))
        assert got_q + got_c == want, ch
    # a Merchant converts 2 of the card's resource into 1 precious when it holds them, and keeps them
    st, ai = solo_state(r, W)
    st.pl[ai, PF.CHARACTER] = 2
    set_items(st, ai, stone=2)
    precious = int(st.grids[8])
    assert ai_play(st, r, ai, quarry, True)
    assert st.pl[ai, PF.PRECIOUS] == 1 and st.pl[ai, PF.STONE] == 2 and st.grids[8] == precious - 1
    set_items(st, ai, stone=1)
    assert ai_play(st, r, ai, quarry, True)
    assert st.pl[ai, PF.PRECIOUS] == 0 and st.pl[ai, PF.STONE] == 3


def test_grid_choice_avoids_emptying_a_grid(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    st.grids[0:4] = [1, 3, 1, 2]
    vp = int(st.pl[ai, PF.VP])
    st.pl[ai, PF.CHARACTER] = 10
    assert ai_play(st, r, ai, card_of(r, AiCard.QUARRY), True)
    assert st.grids[0:4].tolist() == [1, 1, 1, 2] and st.pl[ai, PF.VP] == vp


def test_major_card_takes_the_grid_with_most_workers(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    st.major[M.CABILDO, 0:2] = 0
    st.major[M.FORT, 0] = 0
    vp = int(st.pl[ai, PF.VP])
    assert ai_play(st, r, ai, card_of(r, AiCard.MAJOR), True)
    assert (st.major[M.CABILDO] == ai).sum() == 3 and st.pl[ai, PF.VP] == vp  # not the first worker: no first-worker VP
    # a grid with 2 free spaces: 2 workers ("actual cost")
    st2, ai = solo_state(r, W)
    n = int(r.major_spaces[M.HARBOR, 0])
    st2.major[M.HARBOR, :n - 2] = 0
    assert ai_play(st2, r, ai, card_of(r, AiCard.MAJOR), True)
    assert (st2.major[M.HARBOR] == ai).sum() == 2 and st2.major_state[M.HARBOR, 0] == 1 and st2.g[G.HARBOR_BUILT] == 1


def test_major_placement_makes_its_houses_score_most(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    clear_map(st)
    put(st, r, 4, 8, B.PALACE, ai)  # S1, beside the Cabildo spaces
    complete(st, r, ai, M.CABILDO)
    cab = int(np.flatnonzero(st.cell_b == B.CABILDO)[0])
    assert r.cell_district[cab] == S1
    before = city_vp(st, r, ai)
    complete(st, r, ai, M.ROADS)
    assert st.roads[S1] == 1 and city_vp(st, r, ai) > before


def test_market_council_ship_miliciano_status_order(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    set_items(st, ai, wood=1, stone=1, metal=1, silver=3)
    assert ai_play(st, r, ai, card_of(r, AiCard.MARKET), True)  # the best sale it holds: 1 metal -> 2 silver, metal kept
    assert st.pl[ai, PF.METAL] == 1 and st.pl[ai, PF.SILVER] == 5
    council = int(st.pl[ai, PF.COUNCIL])
    assert ai_play(st, r, ai, card_of(r, AiCard.COUNCIL), True)
    assert st.pl[ai, PF.COUNCIL] == council + 3
    set_items(st, ai, wood=3, stone=1, silver=3)
    sup = int(st.supply[Sup.WOOD])
    assert ai_play(st, r, ai, card_of(r, AiCard.SHIP), True)  # 3 wood: stand-ins from the supply, its own kept
    assert st.pl[ai, PF.WOOD] == 3 and st.supply[Sup.WOOD] == sup - 3 and st.dock[ai] == 3 and st.pl[ai, PF.SHIP_LOAD] == 0
    assert not ai_play(st, r, ai, card_of(r, AiCard.SHIP), False)  # one load per decade
    st.pl[ai, PF.WORKERS] = 5
    set_items(st, ai)
    assert ai_play(st, r, ai, card_of(r, AiCard.MILICIANO), True)
    assert ai_play(st, r, ai, card_of(r, AiCard.MILICIANO), True)
    assert st.minis[ai, :2, 0].tolist() == [1, 1]
    st.supply[Sup.MILICIANOS] = 0
    assert ai_play(st, r, ai, card_of(r, AiCard.MILICIANO), True)  # no Miliciano left: a veteran, no precious paid
    assert st.minis[ai, 0, 0] == 2 and st.pl[ai, PF.PRECIOUS] == 0
    st.pl[ai, PF.WORKERS] = 5
    set_items(st, ai, silver=1)
    assert ai_play(st, r, ai, card_of(r, AiCard.STATUS), True)  # level I of a category (the human's pick), 1 silver
    assert sum(int(st.pl[ai, PF.ST_CONSTRUCTION + c]) for c in range(4)) == 1 and st.pl[ai, PF.SILVER] == 0
    assert st.pl[ai, PF.WORKERS] == 3
    assert not ai_play(st, r, ai, card_of(r, AiCard.STATUS), False)  # no silver
    assert ai_play(st, r, ai, card_of(r, AiCard.ORDER), True)
    assert st.pl[ai, PF.ORDER_WORKERS] == 1


# ----------------------------------------------------------------------------- cards, salary, banners


def test_card_choice_maximises_the_colour_series(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    clear_hands(st)
    st.pl[ai, PF.CHARACTER] = 0  # the Carpenter (group 0: cards 13-18)
    give(st, ai, 14)
    stack_deck(st, cid(80), cid(15))  # a Noblewoman and a Carpenter card
    st.g[G.TURN_SEAT] = ai
    kept = draw_and_keep(st, r, ai, 2)
    assert kept == cid(15)
    # a tie: the lowest number; the discarded cards lowest on top
    stack_deck(st, cid(70), cid(45), cid(60))
    st.pl[ai, PF.ST_CARDS] = 0
    kept = draw_and_keep(st, r, ai, 3)
    assert kept == cid(45)
    pile = sorted((int(st.card_seq[c]), c + 1) for c in range(12, 84) if st.card_loc[c] == Loc.PILE + ai)
    assert [num for _, num in pile][-2:] == [70, 60]  # 60 on top


def test_ai_pays_no_salary_and_takes_no_banner(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    clear_hands(st)
    for num in (13, 14, 15, 16, 17):
        give(st, ai, num)
    set_items(st, ai, silver=1, bronze=1)
    st.g[G.LOG_ON] = 1
    n0 = int(st.g[G.LOG_N])
    set_decade(st, r, 2)
    start_of_decade(st, r)
    salaries = [row for row in st.log[n0:st.g[G.LOG_N]] if row[0] == Ev.SALARY]
    assert [int(row[1]) for row in salaries] == [0]  # the human only
    assert st.pl[ai, PF.BRONZE] == 1 and st.pl[ai, PF.SILVER] == 1 and st.pl[ai, PF.VP] >= 0
    assert st.pl[ai, PF.WORKERS] == 5
    for b in Banner:
        banner_step(st, r, ai, b)
        banner_step(st, r, ai, b)
    assert (st.pl[ai, PF.BANNER_BLACK:PF.BANNER_OCHER + 1] == 0).all()


def test_deck_is_made_again_when_a_face_up_card_shows(engine):
    r, W = engine
    st, _ = solo_state(r, W)
    face_down = N_AI_CARDS - int(r.k[RK.AI_FACE_UP])
    drawn = [ai_draw(st, r) for _ in range(face_down - 1)]
    assert st.g[G.AI_TOP] == face_down - 1 and len(set(drawn)) == face_down - 1
    old = st.ai_deck.copy()
    last = ai_draw(st, r)
    assert last == old[face_down - 1] and last not in drawn
    assert st.g[G.AI_TOP] == 0 and sorted(st.ai_deck.tolist()) == list(range(N_AI_CARDS))  # shuffled again, all 16


# ----------------------------------------------------------------------------- council


def test_ai_abstains_in_the_three_seat_game(engine):
    r, W = engine
    st, ai = solo_state(r, W, humans=2, strategy=1)
    assert can_call_vote(st, r, 0)
    call_vote(st, r, 0, Law.SPAIN, 0)
    assert st.vote_sides[ai] == Side.ABSTAIN and st.vote_votes[ai] == 0


def test_no_vote_in_the_solo_game(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    human = 1 - ai
    assert not can_call_vote(st, r, human)
    k = turn_options(st, r, human)
    assert not (st.opts[:k, 0] == Act.F_VOTE).any()
    r2 = rules_from_doc(load_rules_doc(None, {"solo": {"council_vote_solo": True}}))
    assert can_call_vote(st, r2, human)


def test_ai_decisions(engine):
    r, W = engine
    st, ai = solo_state(r, W)
    st.opts[:3] = [[1, 1, 0, 0, 0], [2, 4, 0, 0, 0], [3, 4, 0, 0, 0]]
    assert ai_decide(st, r, ai, int(Dec.GRID), 3) == 1  # the fullest grid, the first of two
    st.opts[:3] = [[0, 5, 4, 1, 0], [3, 1, 4, 1, 0], [7, 2, 4, 1, 0]]  # WAR_FIGHT [mask, AV, WA, faction]
    assert ai_decide(st, r, ai, int(Dec.WAR_FIGHT), 3) == 0
    st.opts[:3] = [[3, 4, 4, 1, 0], [7, 5, 4, 1, 0], [1, 1, 4, 1, 0]]
    assert ai_decide(st, r, ai, int(Dec.WAR_FIGHT), 3) == 0  # no penalty with 2 miniatures: not 3
    st.opts[:2] = [[0, 5, 0, 0, 0], [1, 5, 0, 0, 0]]
    assert ai_decide(st, r, ai, int(Dec.VP_BONUS), 2) == 1
    st.opts[:2] = [[0, 40, 0, 0, 0], [1, 40, 0, 0, 0]]
    assert ai_decide(st, r, ai, int(Dec.USE_CARD), 2) == 0
    st.opts[:3] = [[20, 1, 0, 0, 0], [21, 1, 0, 0, 0], [-1, 1, 0, 0, 0]]
    assert ai_decide(st, r, ai, int(Dec.WAR_BURN), 3) == 2


# ----------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("humans", [1, 2])
def test_random_play_with_the_ai(engine, humans):
    r, W = engine
    rules_by = [strength(s) for s in ("weak", "medium", "strong", "divinity")]
    n = humans + 1
    for seed in range(60):
        rr = rules_by[seed % 4]
        st = allocate(rr)
        st.rng[0] = 7000 + seed
        strat = np.zeros(MAX_PLAYERS, np.int32)
        strat[:n] = seed % 2  # random and greedy players
        ai = seed % n
        strat[ai] = AI_STRATEGY
        setup(st, rr, W, n, strat, np.full(MAX_PLAYERS, -1, np.int32), np.zeros(MAX_PLAYERS, np.int32), seed % 3 == 0)
        assert not check_state(st, rr)
        for d in range(1, st.g[G.LAST_DECADE] + 1):
            set_decade(st, rr, d)
            play_own_decade(st, rr)
            errs = check_state(st, rr)
            assert not errs, (humans, seed, d, errs)
        assert st.g[G.EMPTY_OPTS] == 0
        assert (st.pl[ai, PF.BANNER_BLACK:PF.BANNER_OCHER + 1] == 0).all()


@pytest.mark.parametrize("humans", [1, 2])
def test_whole_games_end_and_are_a_function_of_the_seed(engine, humans):
    r, W = engine
    n = humans + 1
    strat = [1] * humans + [AI_STRATEGY]
    for seed in range(40):
        st = run_game(r, W, n, 500 + seed, strat)
        assert st.g[G.GAME_OVER] == 1 and not check_state(st, r)
        assert (st.pl[:n, PF.COUNCIL] >= 1).all()
    a = run_game(r, W, n, 9, strat, log=True)
    b = run_game(r, W, n, 9, strat, log=True)
    assert np.array_equal(a.log, b.log) and np.array_equal(a.rec_game, b.rec_game)
    assert a.rec_game[n - 1, 2] == AI_STRATEGY
    codes = set(a.log[:a.g[G.LOG_N], 0].tolist())
    assert {Ev.AI_CARD, Ev.AI_DECK, Ev.AI_RANDOM} <= codes


def test_strength_sets_the_workers(engine):
    _, W = engine
    for name, w in (("weak", 4), ("divinity", 7)):
        rr = strength(name)
        st2 = allocate(rr)
        strat = np.zeros(MAX_PLAYERS, np.int32)
        strat[1] = AI_STRATEGY
        setup(st2, rr, W, 2, strat, np.full(MAX_PLAYERS, -1, np.int32), np.zeros(MAX_PLAYERS, np.int32), 0)
        assert st2.pl[1, PF.WORKERS] == w


def test_rules_file_default_loads(rules):
    assert load_rules().ai_deck.tolist() == rules.ai_deck.tolist()


def test_a_redraw_reads_which_ai_cards_are_face_down_not_their_order(engine):
    """A searching player's redraw of the A.I.'s face-down Solo cards (sim.solo.ai_redraw, through
    sim.game.determinize) deals the same cards again whatever order they really lie in: two decks
    that differ only in that order, redrawn from the same random stream, come out the same, so the
    player's simulations cannot tell the real order."""
    from sim.game import copy_state
    from sim.solo import ai_redraw

    r, W = engine
    st, _ = solo_state(r, W)
    lo = int(st.g[G.AI_TOP])
    hidden = N_AI_CARDS - int(r.k[RK.AI_FACE_UP]) - lo
    assert hidden > 2
    other = allocate(r)
    copy_state(other, st)
    other.ai_deck[lo:lo + hidden] = st.ai_deck[lo:lo + hidden][::-1]  # the same cards, another order
    assert not np.array_equal(other.ai_deck, st.ai_deck)
    st.rng[0] = other.rng[0] = 77
    ai_redraw(st, r)
    ai_redraw(other, r)
    assert np.array_equal(other.ai_deck, st.ai_deck)
    assert sorted(st.ai_deck[lo:lo + hidden]) == sorted(other.ai_deck[lo:lo + hidden])
    assert np.array_equal(st.ai_deck[lo + hidden:], other.ai_deck[lo + hidden:])  # the face-up cards stay
