"""EXTENDED WAR (sim/extended_war/): every worked example of the chapter and of the red war texts
of the CARD REFERENCE, on small hand-built states (only the war kernels and the decision entry
point compile, not the whole engine), plus random-play properties.

Choices are made by a scripted Python player (tests/rules/xwar_script.py) where an example needs
one; elsewhere the decisions have a single legal row.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import bare_war
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from sim import combat_area, war_track
from sim import extended_war as xw
from sim.codes import XwAct, XwUse
from sim.extended_war.fight_cards import _cancel, _card_bonus
from sim.game import allocate
from sim.rules import RK, XK, XWP, load_rules
from sim.state import AK, AS, MAX_PLAYERS, N_CARDS, N_CHARACTERS, PF, VS, XA, XF, XG, XM, XP, B, G, Loc, Mini, Sup
from sim.war_track import NATIVES, PIRATES
from strategies import python_bridge
from strategies.policy import FAMILY_PYTHON, FAMILY_RANDOM, P

SCRIPT = python_bridge.register(f"{Path(__file__).parent / 'xwar_script.py'}:Scripted")
N1, N2, N3, N4, S1, S2, S3, S4 = range(8)
P0, A1 = combat_area.SIDE_PLAYER, combat_area.SIDE_ATTACKER


def cid(num):
    return num - 1


@pytest.fixture(scope="module")
def r():
    return load_rules()


def script(pick=None):
    """The scripted player's pick function (kind, rows) -> index; returns the player object."""
    obj = python_bridge._REGISTRY[SCRIPT]
    obj.pick = pick
    obj.asked.clear()
    return obj


def war_state(r, n=3, faction=NATIVES, seed=5, family=FAMILY_PYTHON):
    """A bare n-player state (helpers.bare_war): cards in the deck in number order (card 13 on top),
    no card held, an empty map, the Combat Area empty; every seat decided by the scripted player
    (or ``family``)."""
    st = bare_war(r, n, faction, seed)
    for s in range(n):
        st.w[s, 0] = family
        st.w[s, P.PY_SLOT] = SCRIPT
    script(None)
    return st


def put_deck_top(st, *nums):
    """These cards on top of the deck, the first named drawn first."""
    top = int(st.card_seq.max())
    for i, num in enumerate(nums):
        st.card_loc[cid(num)] = Loc.DECK
        st.card_seq[cid(num)] = top + len(nums) - i


def mini(st, seat, slot, kind, d, wounds=0):
    st.minis[seat, slot, 0] = kind
    st.minis[seat, slot, 1] = wounds
    st.xw_mini[seat, slot, XM.POS] = d


def attacker(st, kind, d, card_num=13, wounds=0, state=AS.IN):
    t = int(st.xw[XG.N_TILES])
    st.xw_att[t, XA.CARD] = cid(card_num) if card_num else -1
    st.xw_att[t, XA.KIND] = kind
    st.xw_att[t, XA.STATE] = state
    st.xw_att[t, XA.POS] = d
    st.xw_att[t, XA.WOUNDS] = wounds
    st.xw_att[t, XA.OWNER] = -1
    st.xw[XG.N_TILES] = t + 1
    if card_num:
        st.card_loc[cid(card_num)] = Loc.COMBAT
    return t


def give(st, seat, num):
    st.card_loc[cid(num)] = Loc.HAND + seat
    st.card_rot[cid(num)] = 0
    st.card_turn[cid(num)] = 0


def house(st, r, seat, d, b=B.HOUSE):
    c = int(r.district_cells[d, 0])
    st.cell_b[c] = b
    st.cell_owner[c] = seat


def fight_side(st, side, av, *cards, hp=None):
    """The fight scratch of one side by hand: base AV (and HP) and the cards it shows."""
    st.xw_fight[side, :] = 0
    st.xw_fight[side, XF.AV] = av
    st.xw_fight[side, XF.HP] = av if hp is None else hp
    for i, num in enumerate(cards):
        st.xw_cards[side, i] = cid(num)
    st.xw_fight[side, XF.N_CARDS] = len(cards)


def plays(*wanted):
    """A pick that plays the named cards for their war power (then burns as given), then stops;
    moves nowhere else."""
    todo = list(wanted)

    def pick(kind, rows):
        if kind == "XW_CARD" and todo:
            num, use = todo[0] if isinstance(todo[0], tuple) else (todo[0], XwUse.WAR_POWER)
            for i, row in enumerate(rows):
                if row[0] == cid(num) and row[1] == use:
                    todo.pop(0)
                    return i
        return 0
    return pick


# ----------------------------------------------------------------------------- rules data


def test_rules_data_loaded(r):
    assert r.xw_k[XK.ENABLED] == 0  # the normal game: nothing of the expansion runs
    assert r.xw_player_av[1:].tolist() == [2, 4, 5, 10] == r.xw_player_hp[1:].tolist()
    assert r.xw_att_av.tolist() == [3, 6, 4, 8] == r.xw_att_hp.tolist()  # Indio, Warrior, Freebooter, Captain
    assert r.xw_k[XK.WALL_BONUS] == 3 and r.xw_k[XK.WALL_BONUS_FORT] == 6
    assert r.xw_k[XK.FRIEND_BONUS] == 2 and r.xw_k[XK.FRIEND_BONUS_MAX] == 6
    assert (r.xw_k[XK.BURN_AV], r.xw_k[XK.BURN_FACTOR], r.xw_k[XK.BURN_MOVES]) == (5, 2, 1)
    assert r.xw_k[XK.WOUNDS_REMOVE] == 2 and r.xw_k[XK.CONTROL_HP_PER_PENALTY] == 2
    assert r.xw_k[XK.LAST_DECADE_ROUNDS] == 6
    assert r.xw_att_box.tolist() == [6, 4, 6, 4]


def test_combat_area_geometry(r):
    # orthogonal district adjacency of the R-04 map: distances are symmetric, 1 exactly for neighbours
    assert (r.xw_dist == r.xw_dist.T).all()
    assert ((r.xw_dist == 1) == (r.district_adj == 1)).all()
    # placement edges clockwise from point A (west side, at the sea), never the sea side
    assert r.xw_edges.tolist() == [[S1, 0], [N1, 0], [N1, 1], [N2, 1], [N3, 1], [N4, 1], [N4, 2], [S4, 2]]
    assert S2 not in r.xw_edges[:, 0] and S3 not in r.xw_edges[:, 0]  # the Central districts have no outer side


def test_every_card_has_a_war_power(r):
    from sim.codes import WP

    kinds = r.xw_power_kind[N_CHARACTERS:]
    assert (kinds > 0).all() and (r.xw_power_kind[:N_CHARACTERS] == 0).all()
    assert len(set(kinds.tolist())) == len(WP) - 1  # every kind is printed on some card
    assert r.xw_power_p[cid(17), XWP.STANDARD_AV] == 2 and r.xw_power_p[cid(17), XWP.ELITE_AV] == 4
    flat = {n: int(r.xw_power_p[cid(n), XWP.AV]) for n in range(13, 85) if r.xw_power_kind[cid(n)] == WP.AV}
    assert flat[13] == 1 and flat[14] == 2 and flat[15] == 3 and flat[18] == 4 and len(flat) == 48


def test_loader_errors_name_the_key():
    from sim.rules import RulesError

    with pytest.raises(RulesError, match=r"extended_war.war_table"):
        load_rules(overrides={"extended_war": {"war_table": [[[1, 1]] * 3] * 4}})
    with pytest.raises(RulesError, match=r"extended_war.round_order"):
        load_rules(overrides={"extended_war": {"round_order": "dice"}})
    with pytest.raises(RulesError, match=r"extended_war.opponent_tiles"):
        load_rules(overrides={"extended_war": {"opponent_tiles": 99}})


def test_every_war_scalar_and_parameter_is_read_by_the_engine():
    import re

    from sim.rules import XK as XKE

    # the kernels (every module of the package), what they read of the area, and the rules query
    # that tells the base War's declaration which War it is (sim.war_track.extended_war_on)
    src = "".join(p.read_text() for p in sorted(Path(xw.__file__).parent.glob("*.py")))
    src += Path(combat_area.__file__).read_text() + Path(war_track.__file__).read_text()
    assert [m.name for m in XKE if not re.search(rf"XK\.{m.name}\b", src)] == []
    assert [m.name for m in XWP if not re.search(rf"XWP\.{m.name}\b", src)] == []


# ----------------------------------------------------------------------------- 1. the attackers' number


def test_war_table_tension_moves_up_rows(r):
    # "in a 4-player game in the second era, the Pirates' Tension level marker reaches the red zone
    # on +2 space. ... the first 'skull' row instead of the third row"
    elite, standard, row, col = xw.attackers_number(r, 4, 2, 2)
    assert (row, col) == (0, 1)
    assert (elite, standard) == (4, 5)
    assert xw.attackers_number(r, 4, 2, 0)[:2] == (2, 4)  # the third row itself


def test_war_table_five_players_era_two(r):
    # "if War happens in a 5 player game in the Second Era, 3 Elite and 5 Standard miniatures"
    assert xw.attackers_number(r, 5, 2, 0)[:2] == (3, 5)


def test_war_table_top_row_moves_right(r):
    # 5 players, Era I, +3: one row up to the top, two columns right; beyond Era III it stays
    assert xw.attackers_number(r, 5, 1, 3) == (4, 6, 0, 2)
    assert xw.attackers_number(r, 2, 3, 9) == (4, 6, 0, 2)
    assert xw.attackers_number(r, 2, 1, 0)[:2] == (0, 2)


# ----------------------------------------------------------------------------- 2. attackers' placement


def test_control_cards_of_the_era_and_discards(r):
    st = war_state(r)
    got = xw.draw_control_cards(st, r, 2, 4)
    drawn = sorted(int(c) + 1 for c in st.xw_tmp[:got])
    assert got == 4
    # cards 13, 14 (Era I) are discarded, 15, 16 (Era II) kept, 17, 18 discarded, 21, 22 kept
    assert drawn == [15, 16, 21, 22]
    assert all(st.card_loc[cid(n)] == Loc.GAME_DISCARD for n in (13, 14, 17, 18, 19, 20))
    assert all(st.card_loc[cid(n)] == Loc.COMBAT for n in drawn)


def test_control_cards_fall_back_to_the_adjacent_era(r):
    st = war_state(r)
    for c in range(N_CHARACTERS, N_CARDS):  # only Era II cards are left to draw, but 2 of Era III
        if xw.card_era(r, c) == 3 and c not in (cid(17), cid(18)):
            st.card_loc[c] = Loc.BOX
        if xw.card_era(r, c) == 2 and c > cid(16):
            st.card_loc[c] = Loc.BOX
    got = xw.draw_control_cards(st, r, 3, 4)
    eras = sorted(xw.card_era(r, int(c)) for c in st.xw_tmp[:got])
    assert got == 4 and eras == [2, 2, 3, 3]  # "if you are selecting the third Era cards, select cards of the second Era too"


def test_control_cards_reshuffle_the_game_discard_pile(r):
    st = war_state(r)
    for c in range(N_CHARACTERS, N_CARDS):
        st.card_loc[c] = Loc.GAME_DISCARD if xw.card_era(r, c) == 1 else Loc.BOX
    put_deck_top(st, 15)  # one Era II card left in the deck: the Era I ones come back by a reshuffle
    st.card_loc[cid(15)] = Loc.DECK
    got = xw.draw_control_cards(st, r, 2, 3)
    assert got == 3  # one of Era II, then (none of Era II left anywhere) any cards
    assert xw.card_era(r, int(st.xw_tmp[0])) == 2


def test_placement_around_the_perimeter(r):
    st = war_state(r, n=4, faction=NATIVES)
    placed = xw.setup_combat_area(st, r, NATIVES, 2, 2)  # 4 players, Era II, +2: 4 Elite, 5 Standard
    assert placed == 9
    kinds = st.xw_att[:placed, XA.KIND]
    assert (kinds == AK.WARRIOR).sum() == 4 and (kinds == AK.INDIO).sum() == 5
    assert (st.xw_att[:placed, XA.STATE] == AS.OUTSIDE).all()
    # clockwise from A, doubling up once every edge has one
    assert st.xw_att[:placed, XA.EDGE].tolist() == [0, 1, 2, 3, 4, 5, 6, 7, 0]
    st = war_state(r, n=4, faction=PIRATES)
    placed = xw.setup_combat_area(st, r, PIRATES, 2, 0)
    assert st.xw_att[:placed, XA.EDGE].tolist() == [7, 6, 5, 4, 3, 2][:placed]  # anticlockwise from B
    assert set(st.xw_att[:placed, XA.KIND].tolist()) <= {AK.FREEBOOTER, AK.CAPTAIN}
    assert all(r.xw_edges[e, 0] == p for e, p in zip(st.xw_att[:placed, XA.EDGE], st.xw_att[:placed, XA.POS]))


# ----------------------------------------------------------------------------- 3. defenders' placement


def test_defenders_placement(r):
    st = war_state(r)
    house(st, r, 0, N2)
    st.cell_b[int(r.district_cells[S3, 0])] = B.BARRACKS
    mini(st, 0, 0, Mini.MILICIANO, -1)
    mini(st, 0, 1, Mini.SOLDIER, -1)
    assert [d for d in range(8) if xw.can_deploy(st, r, 0, 0, d)] == [N2]
    assert [d for d in range(8) if xw.can_deploy(st, r, 0, 1, d)] == [S3]
    st.g[G.FORT_BUILT] = 1
    assert [d for d in range(8) if xw.can_deploy(st, r, 0, 1, d)] == list(range(8))
    xw.deploy_defenders(st, r, 0)
    assert st.xw_mini[0, 0, XM.POS] == N2 and st.xw_mini[0, 1, XM.POS] >= 0


# ----------------------------------------------------------------------------- WAR FLOW: the round


def test_round_order_example(r):
    # 3 players; attackers A, B with Initiative 1 and C, D with Initiative 2 (R-10: 1 + card number mod 3)
    st = war_state(r, n=3)
    for num in (15, 18, 13, 16):
        attacker(st, AK.INDIO, N1, card_num=num)
    assert [xw.initiative(r, cid(n)) for n in (15, 18, 13, 16)] == [1, 1, 2, 2]
    seq = []
    for ini in range(1, xw.max_initiative(st, r) + 1):
        if ini <= 3:
            seq.append(f"player {ini}")
        k = xw.attackers_of_initiative(st, r, ini)
        seq += ["ABCD"[t] for t in st.xw_tmp[:k]]
    assert seq == ["player 1", "A", "B", "player 2", "C", "D", "player 3"]


# ----------------------------------------------------------------------------- ATTACKERS WAR ACTIONS


def test_attacker_enters_pillages_then_pillages_again(r):
    st = war_state(r)
    house(st, r, 1, S1)
    t = attacker(st, AK.INDIO, S1, state=AS.OUTSIDE)
    xw.attacker_turn(st, r, t)  # enters S1 (its edge), which has a building: pillages
    assert st.xw_att[t, XA.STATE] == AS.IN and st.xw_pillage[S1] == 1
    xw.attacker_turn(st, r, t)
    assert st.xw_pillage[S1] == 2
    house(st, r, 1, S2)
    xw.attacker_turn(st, r, t)  # nothing left in S1: moves 1 district toward S2, then pillages there
    assert st.xw_att[t, XA.POS] == S2 and st.xw_pillage[S2] == 1


def test_attacker_moves_toward_fewer_player_hp(r):
    st = war_state(r)
    house(st, r, 0, N2)
    house(st, r, 1, S2)
    mini(st, 0, 0, Mini.SOLDIER, N2)  # N2 and S2 are both 1 step from N1; S2 has no defender
    t = attacker(st, AK.WARRIOR, N1)
    st.cell_b[int(r.district_cells[N1, 0])] = B.NONE
    xw.attacker_turn(st, r, t)
    assert st.xw_att[t, XA.POS] == S2 and st.xw_pillage[S2] == 1


def test_attacker_movement_tie_is_the_first_players(r):
    st = war_state(r)
    house(st, r, 0, N2)
    house(st, r, 1, S2)
    t = attacker(st, AK.WARRIOR, N1)
    player = script(lambda kind, rows: next(i for i, row in enumerate(rows) if row[0] == N2) if kind == "XW_MOVE_TIE" else 0)
    xw.attacker_turn(st, r, t)
    assert [k for k, _ in player.asked] == ["XW_MOVE_TIE"]
    assert st.xw_att[t, XA.POS] == N2


def test_attacker_fights_the_least_hp(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.SOLDIER, N1)
    mini(st, 1, 0, Mini.MILICIANO_VET, N1)
    t = attacker(st, AK.CAPTAIN, N1)
    st.xw[XG.FACTION] = NATIVES
    put_deck_top(st, 19)  # the attacker's card: +1 AV
    xw.attacker_turn(st, r, t)
    # the veteran Miliciano (HP 4) is attacked: 4 + 2 (the Soldier, a friend) against 8 + 1 = 9: a wound
    assert st.minis[1, 0].tolist() == [Mini.MILICIANO_VET, 1] and st.minis[0, 0].tolist() == [Mini.SOLDIER, 0]


def test_the_example_two_freebooters_one_after_the_other(r):
    # "two Freebooters move into the district with the Blue Miliciano. The first attacks and if the
    # Miliciano survives the second does the same"
    st = war_state(r, faction=PIRATES)
    house(st, r, 1, N2)
    mini(st, 1, 0, Mini.MILICIANO_VET, N2)
    a = attacker(st, AK.FREEBOOTER, N2, card_num=16, state=AS.OUTSIDE)
    b = attacker(st, AK.FREEBOOTER, N2, card_num=13, state=AS.OUTSIDE)
    st.xw_att[a, XA.EDGE] = st.xw_att[b, XA.EDGE] = 3
    put_deck_top(st, 19, 20)  # the first Freebooter draws 2 cards: +1, +2 -> 7 against 4: damage 3 < 4, a wound
    xw.attacker_turn(st, r, a)
    assert st.minis[1, 0, 1] == 1
    xw.attacker_turn(st, r, b)  # the second one (cards 13, 14 and the first as a friend: 9 against 4) removes it
    assert st.minis[1, 0, 0] == Mini.NONE


# ----------------------------------------------------------------------------- FIGHT! examples


def test_fight_example_two_cards_and_a_burnt_x2(r):
    # "the Blue player plays 2 cards (+1 and +3 AV) on their Miliciano and burns another card to gain
    # an x2; the final effect is 2 miniature base value +1+3 = 6 x 2 = 12 AV"
    st = war_state(r)
    fight_side(st, P0, 2, 13, 15)
    st.xw_fight[P0, XF.CARD_AV] = _card_bonus(st, r, P0, 0, 0, 0)
    st.xw_fight[P0, XF.FACTOR] = 1
    assert combat_area.fight_total(st, r, P0) == 12


def test_fight_example_through_the_players_choices(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    t = attacker(st, AK.WARRIOR, N1)
    for n in (13, 15, 20):
        give(st, 0, n)
    script(plays(13, 15, (20, XwUse.BURN_FACTOR)))
    put_deck_top(st, 24)  # the Warrior's card: +4 -> 10
    xw.fight(st, r, 0, 0, t, False)
    assert st.xw_fight[P0, XF.TOTAL] == 12 and st.xw_fight[A1, XF.TOTAL] == 10
    assert st.xw_att[t, XA.WOUNDS] == 1  # damage 2 < HP 6: a wound
    assert st.card_rot[cid(13)] == 1 and st.card_rot[cid(15)] == 1 and st.card_loc[cid(20)] == Loc.PILE + 0
    assert st.card_loc[cid(24)] == Loc.GAME_DISCARD


def test_wall_bonus_when_the_attacker_just_crossed_a_wall(r):
    for fort, bonus in ((0, 3), (1, 6)):
        st = war_state(r)
        st.g[G.FORT_BUILT] = fort
        st.walls[r.seg_district == S1] = 1  # S1 closed by Walls
        mini(st, 0, 0, Mini.MILICIANO, S1)
        t = attacker(st, AK.INDIO, S1, state=AS.OUTSIDE)
        put_deck_top(st, 13)
        xw.attacker_turn(st, r, t)
        assert st.xw_fight[P0, XF.WALLS] == bonus
        assert st.xw_fight[P0, XF.TOTAL] == 2 + bonus


def test_no_wall_bonus_in_the_players_turn_or_without_walls(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, S1)
    t = attacker(st, AK.INDIO, S1, state=AS.OUTSIDE)
    put_deck_top(st, 13)
    xw.attacker_turn(st, r, t)
    assert st.xw_fight[P0, XF.WALLS] == 0


def test_friend_bonus_two_each_at_most_six(r):
    st = war_state(r, n=4)
    for s in range(4):
        mini(st, s, 0, Mini.MILICIANO_VET, N3)
    assert combat_area.friends_in(st, r, P0, 0, 0, 0, N3) == 3
    t = attacker(st, AK.WARRIOR, N3)
    attacker(st, AK.INDIO, N3, card_num=14)
    put_deck_top(st, 19)
    xw.fight(st, r, 0, 0, t, False)
    assert st.xw_fight[P0, XF.FRIENDS] == 6  # 3 friends: +6 (the max)
    assert st.xw_fight[A1, XF.FRIENDS] == 2
    mini(st, 3, 0, Mini.NONE, -1)
    mini(st, 2, 0, Mini.NONE, -1)
    assert combat_area.friends_in(st, r, P0, 0, 0, 0, N3) == 1


def test_tie_does_nothing(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO_VET, N1)
    t = attacker(st, AK.INDIO, N1)
    put_deck_top(st, 13)  # 3 + 1 = 4 against 4
    assert xw.fight(st, r, 0, 0, t, False) == xw.NO_WINNER
    assert st.minis[0, 0, 1] == 0 and st.xw_att[t, XA.WOUNDS] == 0


def test_defeat_gives_the_control_card(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.SOLDIER_VET, N1)
    t = attacker(st, AK.INDIO, N1, card_num=40)
    put_deck_top(st, 13)  # 10 against 3 + 1: damage 6 >= 3
    assert xw.fight(st, r, 0, 0, t, False) == P0
    assert st.xw_att[t, XA.STATE] == AS.DEFEATED and st.xw_att[t, XA.OWNER] == 0
    assert st.xw_seat[0, XP.CONTROL_HP] == 3


# ----------------------------------------------------------------------------- END OF THE WAR


def test_end_of_war_example_penalties(r):
    # "two pillage tokens, one of 1 value and one of 2 value, and 1 Elite attacker miniature is still
    # on the board, each player takes 4 War penalties"
    st = war_state(r)
    st.xw_pillage[N1] = 1
    st.xw_pillage[N2] = 2
    attacker(st, AK.WARRIOR, N3)
    xw.end_war(st, r)
    assert st.xw_seat[:3, XP.PENALTIES].tolist() == [4, 4, 4]
    assert st.pl[:3, PF.WAR_PENALTY].tolist() == [4, 4, 4]
    # cleanup: the control card to the discard, then the discard pile reshuffled into the deck
    assert st.card_loc[cid(13)] == Loc.DECK and st.xw[XG.ACTIVE] == 0
    assert (st.xw_att[:1, XA.STATE] == AS.NONE).all()


def test_end_of_war_example_control_cards(r):
    # "the Yellow player has gained 3 Control cards (HP 3, 6, and 7) ... There are 8 War penalties.
    # With the control cards gained (16 HP value), the player reduces the War Penalties to 0 and wins"
    assert xw.penalties_after_control(r, 8, 3 + 6 + 7) == (0, 8)
    assert xw.penalties_after_control(r, 8, 15) == (1, 7)
    st = war_state(r)
    st.xw_pillage[N1] = st.xw_pillage[N2] = st.xw_pillage[N3] = 2
    st.xw_pillage[N4] = 1
    attacker(st, AK.WARRIOR, N3)
    st.xw_seat[0, XP.CONTROL_HP] = 16
    st.pl[0, PF.WAR_PENALTY] = 2
    xw.end_war(st, r)
    assert st.xw_seat[0, XP.PENALTIES] == 8 and st.xw_seat[0, XP.CANCELLED] == 8
    assert st.pl[0, PF.WAR_PENALTY] == 1 and st.pl[0, PF.WARS_WON] == 1  # won: 1 step left
    assert st.pl[1, PF.WAR_PENALTY] == 8 and st.pl[1, PF.WARS_LOST] == 1


def test_end_of_the_track_moves_the_council_marker(r):
    st = war_state(r)
    st.xw_pillage[N1] = 2
    st.pl[0, PF.WAR_PENALTY] = 9
    st.pl[0, PF.COUNCIL] = 6
    xw.end_war(st, r)
    assert st.pl[0, PF.WAR_PENALTY] == 10 and st.pl[0, PF.COUNCIL] == 5


def test_survivors_return_with_their_wounds_and_recruits_leave(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.SOLDIER, N1, wounds=1)
    mini(st, 0, 1, Mini.MILICIANO, N1)
    st.xw_mini[0, 1, XM.RECRUIT] = 1
    xw.end_war(st, r)
    assert st.minis[0, 0].tolist() == [Mini.SOLDIER, 1] and st.xw_mini[0, 0, XM.POS] == -1
    assert st.minis[0, 1, 0] == Mini.NONE


def test_war_over(r):
    st = war_state(r)
    house(st, r, 0, N1)
    t = attacker(st, AK.INDIO, S4)
    assert not xw.war_over(st, r)
    st.xw_pillage[N1] = 2
    assert xw.war_over(st, r)  # every district with buildings pillaged twice
    st.xw_pillage[N1] = 0
    xw.remove_attacker(st, r, t, 0)
    assert xw.war_over(st, r)  # every attacker defeated


# ----------------------------------------------------------------------------- the red war texts (CARD REFERENCE)


@pytest.mark.parametrize("num,kind,expected", [
    (13, Mini.MILICIANO_VET, 5),  # "you get AV 5 (4 AV +1 from the card = 5 AV) playing this card on a Veteran Miliciano"
    (14, Mini.MILICIANO, 4),  # "playing this card on a normal Miliciano, you get AV 4"
    (15, Mini.SOLDIER_VET, 13),  # "you get AV 13 (10 AV +3 from the card = 13 AV) playing this card on a Veteran Soldier"
    (18, Mini.MILICIANO_VET, 8),  # "playing this card on a veteran Miliciano, you get AV 8"
])
def test_flat_av_cards(r, num, kind, expected):
    st = war_state(r)
    fight_side(st, P0, int(r.xw_player_av[kind]), num)
    st.xw_fight[P0, XF.CARD_AV] = _card_bonus(st, r, P0, 0, 0, 0)
    assert combat_area.fight_total(st, r, P0) == expected


def test_card_16_remove_and_wound(r):
    # "a Miliciano is in a district with a Pirate Captain; adjacent to them, another Pirate Captain.
    # By playing this card, the player removes his Miliciano and assign 1 wound to both Pirate Captain miniatures"
    st = war_state(r, faction=PIRATES)
    mini(st, 0, 0, Mini.MILICIANO, N2)
    a = attacker(st, AK.CAPTAIN, N2)
    b = attacker(st, AK.CAPTAIN, N3, card_num=14)
    give(st, 0, 16)
    script(plays(16))
    put_deck_top(st, 19, 20)
    assert xw.fight(st, r, 0, 0, a, False) == xw.NO_WINNER
    assert st.minis[0, 0, 0] == Mini.NONE and st.supply[Sup.MILICIANOS] == 7
    assert st.xw_att[a, XA.WOUNDS] == 1 and st.xw_att[b, XA.WOUNDS] == 1


def test_card_17_plus_ten(r):
    # "1 opponent Indio (Standard) and 1 Warrior (Elite); another Warrior is in an adjacent district ... +10 AV"
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N2)
    t = attacker(st, AK.INDIO, N2)
    attacker(st, AK.WARRIOR, N2, card_num=14)
    attacker(st, AK.WARRIOR, N3, card_num=15)
    fight_side(st, P0, 2, 17)
    assert _card_bonus(st, r, P0, 0, 0, t) == 10


def test_card_22_removes_and_immobilises(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.SOLDIER, N2)
    mini(st, 1, 0, Mini.MILICIANO, N3)
    t = attacker(st, AK.WARRIOR, N2)
    u = attacker(st, AK.INDIO, S4, card_num=14)
    give(st, 0, 22)
    script(plays(22))
    put_deck_top(st, 19)
    assert xw.fight(st, r, 0, 0, t, False) == xw.NO_WINNER
    assert st.minis[0, 0, 0] == Mini.NONE
    assert st.xw_att[t, XA.IMMOBILE] == 1 and st.xw_mini[1, 0, XM.IMMOBILE] == 1 and st.xw_att[u, XA.IMMOBILE] == 0
    house(st, r, 2, N1)
    xw.attacker_turn(st, r, t)  # it cannot move at its next turn
    assert st.xw_att[t, XA.POS] == N2 and st.xw_att[t, XA.IMMOBILE] == 0


def test_card_23_per_movement(r):
    # "the player moves his miniature by 1 district. Then they burn a card to gain another movement.
    # With this card, this miniature would gain +8 AV"
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    attacker(st, AK.WARRIOR, N3)
    give(st, 0, 30)
    moves = iter([(XwAct.MOVE, N2, -1), (XwAct.MOVE, N3, cid(30))])

    def pick(kind, rows):
        if kind == "XW_ACTION":
            want = next(moves, None)
            if want is None:
                return 0
            return next(i for i, row in enumerate(rows) if (row[0], row[2], row[3]) == want)
        return 0
    script(pick)
    xw.begin_player_turn(st, r, 0)
    xw.player_war_actions(st, r, 0)
    assert st.xw_mini[0, 0, XM.POS] == N3 and st.xw_mini[0, 0, XM.MOVES] == 2
    assert st.card_loc[cid(30)] == Loc.PILE + 0
    fight_side(st, P0, 2, 23)
    assert _card_bonus(st, r, P0, 0, 0, 0) == 8


def test_card_28_swaps_the_bonuses(r):
    # "the player miniature, a Miliciano, has 2 AV +0 AV bonus, while the opponent, a Warrior, has 4 AV
    # and gained +3 AV from the card ... the player Miliciano becomes 2 AV + 3 AV = 5, and the opponent
    # Warrior 4 AV + 0 AV = 4" (the example's Warrior has 4 AV: rules override)
    rr = load_rules(overrides={"extended_war": {"attacker_av": [3, 4, 4, 8]}})
    st = war_state(rr)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    t = attacker(st, AK.WARRIOR, N1, card_num=40)
    give(st, 0, 28)
    script(plays(28))
    put_deck_top(st, 21)  # +3 AV
    assert xw.fight(st, rr, 0, 0, t, False) == P0
    assert st.xw_fight[P0, XF.TOTAL] == 5 and st.xw_fight[A1, XF.TOTAL] == 4


def test_card_29_wounds_the_winners(r):
    # "the player Miliciano miniature has been defeated by two opponent Warriors. With this card, both
    # opponent Warriors take a wound"
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    a = attacker(st, AK.WARRIOR, N1)
    b = attacker(st, AK.WARRIOR, N1, card_num=14)
    give(st, 0, 29)
    script(plays(29))
    put_deck_top(st, 19)
    assert xw.fight(st, r, 0, 0, a, False) == A1
    assert st.xw_att[a, XA.WOUNDS] == 1 and st.xw_att[b, XA.WOUNDS] == 1


def test_card_34_doubles_the_walls(r):
    # "The fort has been built. The normal AV Wall bonus of 6 is doubled by this card and become 12.
    # The Miliciano AV is now 14"
    st = war_state(r)
    st.g[G.FORT_BUILT] = 1
    st.walls[r.seg_district == S1] = 1
    mini(st, 0, 0, Mini.MILICIANO, S1)
    t = attacker(st, AK.INDIO, S1, state=AS.OUTSIDE)
    give(st, 0, 34)
    script(plays(34))
    put_deck_top(st, 13)
    xw.attacker_turn(st, r, t)
    assert st.xw_fight[P0, XF.WALLS] == 12 and st.xw_fight[P0, XF.TOTAL] == 14


def test_cards_35_and_64_cancel(r):
    st = war_state(r)
    fight_side(st, P0, 2, 35, 18)
    fight_side(st, A1, 3, 14, 24)
    _cancel(st, r)
    assert st.xw_cards[A1, 0] >= combat_area.CANCELLED and st.xw_cards[A1, 1] == cid(24)  # the lower number
    fight_side(st, P0, 2, 64)
    fight_side(st, A1, 3, 14, 24)
    _cancel(st, r)
    assert st.xw_cards[A1, 0] == cid(14) and st.xw_cards[A1, 1] >= combat_area.CANCELLED  # the higher number
    fight_side(st, P0, 2, 35)
    fight_side(st, A1, 3, 64)
    _cancel(st, r)  # the lower card number acts first: 35 cancels 64
    assert st.xw_cards[A1, 0] >= combat_area.CANCELLED and st.xw_cards[P0, 0] == cid(35)


def test_card_40_wounded_opponents(r):
    # "the player Miliciano is in the same district as a wounded Warriors. With this card, they gain +4 AV"
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    t = attacker(st, AK.WARRIOR, N1, wounds=1)
    fight_side(st, P0, 2, 40)
    assert _card_bonus(st, r, P0, 0, 0, t) == 4


def test_card_41_moves_the_nearest_friend(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    mini(st, 1, 0, Mini.SOLDIER, N2)
    t = attacker(st, AK.INDIO, N1)
    give(st, 0, 41)
    pick = plays(41)
    script(lambda kind, rows: next(i for i, row in enumerate(rows) if row[0] == N3) if kind == "XW_CARD_MOVE" else pick(kind, rows))
    put_deck_top(st, 13)
    xw.fight(st, r, 0, 0, t, False)
    assert st.xw_mini[1, 0, XM.POS] == N3


def test_cards_46_and_47_change_the_ranks(r):
    assert combat_area.player_stats(r, Mini.MILICIANO, True, False) == (5, 5)
    assert combat_area.player_stats(r, Mini.MILICIANO_VET, True, False) == (10, 10)  # "Keep Veteran status"
    # "you are fighting a Warrior. Playing this card must be considered an Indio"
    assert combat_area.attacker_stats(r, AK.WARRIOR, False, True) == (3, 3)
    assert combat_area.attacker_stats(r, AK.CAPTAIN, False, True) == (4, 4)
    assert combat_area.player_stats(r, Mini.SOLDIER_VET, False, True) == (4, 4)
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    t = attacker(st, AK.WARRIOR, N1, card_num=40)
    give(st, 0, 46)
    give(st, 0, 47)
    script(plays(46, 47))
    put_deck_top(st, 13)
    xw.fight(st, r, 0, 0, t, False)  # a Soldier (5) against an Indio (3 + 1)
    assert st.xw_fight[P0, XF.TOTAL] == 5 and st.xw_fight[A1, XF.TOTAL] == 4
    assert st.xw_fight[A1, XF.HP] == 3 and st.xw_att[t, XA.WOUNDS] == 1


@pytest.mark.parametrize("num", [52, 59, 71])
def test_wound_before_the_fight(r, num):
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    t = attacker(st, AK.WARRIOR, N1, card_num=40, wounds=1)
    give(st, 0, num)
    script(plays(num))
    put_deck_top(st, 24)
    assert xw.fight(st, r, 0, 0, t, False) == P0  # the second wound removes it before the fight
    assert st.xw_att[t, XA.STATE] == AS.DEFEATED and st.xw_att[t, XA.OWNER] == 0
    assert st.minis[0, 0, 0] == Mini.MILICIANO


@pytest.mark.parametrize("num", [53, 58, 82])
def test_shield(r, num):
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    t = attacker(st, AK.CAPTAIN, N1)
    give(st, 0, num)
    script(plays(num))
    put_deck_top(st, 13)
    xw.fight(st, r, 0, 0, t, False)  # 2 against 9: would be removed, takes a wound instead
    assert st.minis[0, 0].tolist() == [Mini.MILICIANO, 1]
    give(st, 0, num)
    st.xw_mini[0, 0, XM.FOUGHT] = 0
    put_deck_top(st, 13)
    xw.fight(st, r, 0, 0, t, False)  # "if the figure already has a wound token it is removed"
    assert st.minis[0, 0, 0] == Mini.NONE


def test_shield_blocks_a_wound(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.SOLDIER_VET, N1)
    t = attacker(st, AK.CAPTAIN, N1)
    give(st, 0, 58)
    script(plays(58))
    put_deck_top(st, 15)  # 10 against 8 + 3 = 11: damage 1, a wound: blocked
    assert xw.fight(st, r, 0, 0, t, False) == A1
    assert st.minis[0, 0].tolist() == [Mini.SOLDIER_VET, 0]


def test_card_65_heals_the_side(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.SOLDIER, N1, wounds=1)
    mini(st, 1, 0, Mini.SOLDIER, N2, wounds=1)
    mini(st, 2, 0, Mini.SOLDIER, S4, wounds=1)
    t = attacker(st, AK.INDIO, N1, wounds=1)
    give(st, 0, 65)
    script(plays(65))
    put_deck_top(st, 13)
    xw.fight(st, r, 0, 0, t, False)
    assert st.minis[1, 0, 1] == 0 and st.minis[2, 0, 1] == 1  # N2 is adjacent, S4 is not
    assert st.xw_att[t, XA.STATE] == AS.DEFEATED  # the attacker was not healed: 5 against 4, its second wound


def test_card_70_moves_away(r):
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    t = attacker(st, AK.CAPTAIN, N1)
    give(st, 0, 70)
    pick = plays(70)
    script(lambda kind, rows: next(i for i, row in enumerate(rows) if row[0] == N2) if kind == "XW_CARD_MOVE" else pick(kind, rows))
    put_deck_top(st, 13)
    assert xw.fight(st, r, 0, 0, t, False) == xw.NO_WINNER
    assert st.xw_mini[0, 0, XM.POS] == N2 and st.minis[0, 0].tolist() == [Mini.MILICIANO, 0]


def test_card_76_fights_this_turn(r):
    # "They fight with the first one, but they lose it ... They do another fight with the second one.
    # With this card, his second Miliciano gains a +6 AV bonus"
    st = war_state(r)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    mini(st, 0, 1, Mini.MILICIANO, N1)
    t = attacker(st, AK.CAPTAIN, N1)
    xw.begin_player_turn(st, r, 0)
    put_deck_top(st, 13)
    xw.fight(st, r, 0, 0, t, False)
    assert st.minis[0, 0, 0] == Mini.NONE
    give(st, 0, 76)
    script(plays(76))
    put_deck_top(st, 13)
    xw.fight(st, r, 0, 1, t, False)
    assert st.xw_fight[P0, XF.CARD_AV] == 6


def test_card_77_fights_again(r):
    # "your Soldier defeats his opponent. You can immediately move your miniature up to 1 space and do
    # another fight at +4 AV"
    st = war_state(r)
    mini(st, 0, 0, Mini.SOLDIER, N1)
    a = attacker(st, AK.INDIO, N1, card_num=40, wounds=1)
    b = attacker(st, AK.INDIO, N2, card_num=14)
    give(st, 0, 77)
    pick = plays(77)
    steps = iter([(XwAct.MOVE, N2), (XwAct.FIGHT, b)])

    def choose(kind, rows):
        if kind == "XW_ACTION":
            want = next(steps)
            return next(i for i, row in enumerate(rows) if (row[0], row[2]) == want)
        return pick(kind, rows)
    script(choose)
    put_deck_top(st, 13)  # 4 against 5: the wounded Indio's second wound; then card 15 for the next: 6 against 5 + 4
    assert xw.fight(st, r, 0, 0, a, False) == P0
    assert st.xw_att[a, XA.STATE] == AS.DEFEATED
    assert st.xw_mini[0, 0, XM.POS] == N2 and st.xw_fight[P0, XF.BONUS] == 4 and st.xw_fight[P0, XF.TOTAL] == 9
    assert st.xw_att[b, XA.STATE] == AS.DEFEATED


def test_card_83_recruits_a_miliciano(r):
    # "the Blue player plays this card, and their Soldier win the fight. They can add a Miliciano under
    # their control to the same district"
    st = war_state(r)
    mini(st, 1, 0, Mini.SOLDIER, N1)
    t = attacker(st, AK.INDIO, N1, card_num=40, wounds=1)
    give(st, 1, 83)
    pick = plays(83)
    script(lambda kind, rows: 1 if kind == "XW_RECRUIT" else pick(kind, rows))
    put_deck_top(st, 13)
    supply = int(st.supply[Sup.MILICIANOS])
    xw.fight(st, r, 1, 0, t, False)
    assert st.minis[1, 1, 0] == Mini.MILICIANO and st.xw_mini[1, 1, XM.POS] == N1 and st.xw_mini[1, 1, XM.RECRUIT] == 1
    assert st.supply[Sup.MILICIANOS] == supply  # "the Miliciano availability in the game supply is not required"
    assert st.xw_mini[1, 1, XM.READY] == st.xw[XG.ROUND] + 1  # "from the next round only"


def test_attackers_apply_the_red_text(r):
    # "any reference to 'the opponent' in the red text will refer to the player miniature": an Indio
    # drawing card 47 sees the player's Soldier as a Miliciano
    st = war_state(r)
    mini(st, 0, 0, Mini.SOLDIER, N1)
    t = attacker(st, AK.INDIO, N1)
    put_deck_top(st, 47)
    xw.fight(st, r, 0, 0, t, False)
    assert st.xw_fight[P0, XF.AV] == 2 and st.xw_fight[A1, XF.TOTAL] == 3
    assert st.minis[0, 0, 1] == 1  # 2 against 3: a wound


def test_pirates_draw_two_cards(r):
    st = war_state(r, faction=PIRATES)
    mini(st, 0, 0, Mini.SOLDIER_VET, N1)
    t = attacker(st, AK.FREEBOOTER, N1)
    put_deck_top(st, 13, 14)
    xw.fight(st, r, 0, 0, t, False)
    assert st.xw_fight[A1, XF.N_CARDS] == 2 and st.xw_fight[A1, XF.TOTAL] == 4 + 1 + 2


def test_ai_troops_draw_one_card(r):
    st = war_state(r)
    st.g[G.AI] = 2  # seat 1 is the Solo A.I.
    mini(st, 1, 0, Mini.MILICIANO, N1)
    t = attacker(st, AK.INDIO, N1)
    give(st, 1, 18)  # its own cards are never used
    put_deck_top(st, 15, 13)
    xw.fight(st, r, 1, 0, t, False)
    assert st.xw_fight[P0, XF.TOTAL] == 2 + 3 and st.xw_fight[A1, XF.TOTAL] == 3 + 1
    assert st.card_rot[cid(18)] == 0
    assert xw.commander(st, 1) == 0


# ----------------------------------------------------------------------------- cards 54, 57, 59: the Extended War readings


def test_card_57_pays_for_the_miniatures_that_fought(r):
    # rules extended_war.reading_card57: every player's miniatures that fought a Fight!, once each:
    # Red's Miliciano (twice: 1 VP), Blue's Soldier (2 VP); Yellow's Soldier stands by. 3 players,
    # a small game: +1. Yellow holds the card: 4 VP at the war's end
    st = war_state(r)
    give(st, 2, 57)
    mini(st, 0, 0, Mini.MILICIANO, N1)
    mini(st, 1, 0, Mini.SOLDIER, N2)
    mini(st, 2, 0, Mini.SOLDIER, N3)
    t1 = attacker(st, AK.WARRIOR, N1, card_num=40)
    t2 = attacker(st, AK.WARRIOR, N2, card_num=41)
    script(lambda kind, rows: 1 if kind == "USE_CARD" else 0)
    xw.fight(st, r, 0, 0, t1, True)
    xw.fight(st, r, 1, 0, t2, True)
    if st.minis[0, 0, 0] != Mini.NONE:
        xw.begin_player_turn(st, r, 0)
        xw.fight(st, r, 0, 0, t1, False)
    assert (st.g[G.WAR_MILICIANOS], st.g[G.WAR_SOLDIERS]) == (1, 1)
    xw.end_war(st, r)
    assert st.vps[2, VS.AFFILIATE] == 1 + 2 + 1 and st.card_rot[cid(57)] == 1


def test_card_59_worker_joins_the_defenders_as_a_miliciano(r):
    # rules extended_war.reading_card59: at the defenders' placement Red uses card 59: a worker fights
    # as a standard Miliciano on a free war marker, placed where Red owns a building; it leaves at
    # the war's end (no supply miniature) and the worker comes back at this decade's Recover Workers
    st = war_state(r)
    give(st, 0, 59)
    house(st, r, 0, N2)
    st.pl[0, PF.WORKERS] = 3
    mini(st, 0, 0, Mini.SOLDIER, -1)  # war marker 1 holds a Soldier (no Barracks, no Fort: it waits)
    supply = int(st.supply[Sup.MILICIANOS])
    script(lambda kind, rows: 1 if kind == "USE_CARD" else 0)
    xw.defenders_placement(st, r)
    assert st.minis[0, 1, 0] == Mini.MILICIANO and st.xw_mini[0, 1, XM.POS] == N2
    assert st.xw_mini[0, 1, XM.RECRUIT] == xw.CARD59_WORKER and st.xw_mini[0, 0, XM.POS] == -1
    assert st.pl[0, PF.WORKERS] == 2 and st.pl[0, PF.CARD59_THIS] == 1 and st.card_rot[cid(59)] == 1
    xw.end_war(st, r)
    assert st.minis[0, 1, 0] == Mini.NONE and st.supply[Sup.MILICIANOS] == supply
    # not offered without a district to place a Miliciano in
    st = war_state(r)
    give(st, 0, 59)
    st.pl[0, PF.WORKERS] = 3
    asked = script(lambda kind, rows: 1)
    xw.defenders_placement(st, r)
    assert asked.asked == [] and st.minis[0, 0, 0] == Mini.NONE and st.pl[0, PF.WORKERS] == 3


def test_card_54_places_soldiers_next_to_a_barracks(r):
    # rules extended_war.reading_card54: Red holds card 54, a Barracks stands in N2: its Soldier may go
    # to N2 or, using the card, to a district next to it; the one selected then serves Red's Soldiers
    # for the rest of the war, not another player's
    st = war_state(r)
    give(st, 0, 54)
    house(st, r, 1, N2, B.BARRACKS)
    mini(st, 0, 0, Mini.SOLDIER, -1)
    mini(st, 0, 1, Mini.SOLDIER_VET, -1)
    seen = []

    def pick(kind, rows):
        if kind == "XW_DEPLOY":
            seen.append(rows)
            return next(i for i, row in enumerate(rows) if row[0] == N1)
        return 0

    script(pick)
    xw.deploy_defenders(st, r, 0)
    assert sorted((row[0], row[3]) for row in seen[0]) == [(N1, 1), (N2, 0), (N3, 1), (S2, 1)]
    assert sorted((row[0], row[3]) for row in seen[1]) == [(N1, 0), (N2, 0)]  # the card is used once
    assert st.card_rot[cid(54)] == 1 and xw.card54_district(st, 0) == N1
    assert st.xw_mini[0, 0, XM.POS] == N1 == st.xw_mini[0, 1, XM.POS]
    mini(st, 1, 0, Mini.SOLDIER, -1)
    assert not xw.can_deploy(st, r, 1, 0, N1) and xw.can_deploy(st, r, 1, 0, N2)


def test_a_new_state_has_no_miniature_in_the_combat_area(r):
    # the Combat Area of a new state is the one clear_war leaves: war markers off it (-1, not N1),
    # no tile with a control card or an owner
    st = allocate(r)
    assert (st.xw_mini[:, :, XM.POS] == -1).all()
    assert (st.xw_att[:, XA.CARD] == -1).all() and (st.xw_att[:, XA.OWNER] == -1).all()
    st.minis[0, 0, 0] = Mini.SOLDIER  # a miniature bought before any war stands nowhere in the area
    assert all(combat_area.players_in(st, r, d) == 0 for d in range(8))


# ----------------------------------------------------------------------------- random play: properties


def totals(st, r):
    """Miniatures (supply + Combat Area + war markers), pillage and wounds markers in use."""
    n = int(st.g[G.NPLAYERS])
    nat = [int(combat_area.attackers_on_board(st, k)) for k in range(4)]
    player = int(st.supply[Sup.MILICIANOS] + st.supply[Sup.SOLDIERS])
    player += sum(1 for s in range(n) for k in range(3) if st.minis[s, k, 0] != Mini.NONE and st.xw_mini[s, k, XM.RECRUIT] == 0)
    return nat, player, int(xw.pillage_markers_in_use(st)), int(xw.wounds_in_use(st, r))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(1, 2**31), n=hs.integers(2, 5), faction=hs.sampled_from([NATIVES, PIRATES]),
       era=hs.integers(1, 3), bonus=hs.integers(0, 6), fort=hs.booleans())
def test_random_wars(r, seed, n, faction, era, bonus, fort):
    st = war_state(r, n=n, faction=faction, seed=seed, family=FAMILY_RANDOM)
    st.g[G.FORT_BUILT] = int(fort)
    rng = np.random.default_rng(seed)
    for s in range(n):  # buildings, miniatures and cards at random
        for _ in range(3):
            house(st, r, s, int(rng.integers(8)), B.HOUSE)
            st.cell_b[int(r.district_cells[int(rng.integers(8)), 1 + s])] = B.MARKET
        for k in range(int(rng.integers(0, 4))):
            kind = int(rng.integers(1, 5))
            sup = Sup.SOLDIERS if kind >= Mini.SOLDIER else Sup.MILICIANOS
            if st.supply[sup] > 0:
                st.supply[sup] -= 1
                st.minis[s, k, 0] = kind
        for c in rng.choice(np.arange(N_CHARACTERS, N_CARDS), size=4, replace=False):
            if st.card_loc[c] == Loc.DECK:
                give(st, s, int(c) + 1)
    if rng.random() < 0.5:
        st.walls[r.seg_district == int(rng.choice([0, 3, 4, 7]))] = 1
    box_players = totals(st, r)[1]
    xw.setup_combat_area(st, r, faction, era, bonus)
    for i in range(n):
        xw.deploy_defenders(st, r, st.order[i])
    rounds = 0
    for _ in range(r.xw_k[XK.LAST_DECADE_ROUNDS]):
        rounds += 1
        over = xw.war_round(st, r, True)
        nat, player, pil, wounds = totals(st, r)
        assert all(0 <= nat[k] <= r.xw_att_box[k] for k in range(4))  # attackers: supply + area = the box
        assert player == box_players  # player miniatures: supply + owned (card 83's recruits aside)
        assert pil <= r.xw_k[XK.PILLAGE_MARKERS] and wounds <= r.xw_k[XK.WOUND_MARKERS]
        assert (st.minis[:MAX_PLAYERS, :, 1] < r.xw_k[XK.WOUNDS_REMOVE]).all()  # 2 wounds remove
        assert (st.xw_att[:, XA.WOUNDS] < r.xw_k[XK.WOUNDS_REMOVE]).all()
        assert ((st.xw_pillage >= 0) & (st.xw_pillage <= 2)).all()
        if over:
            break
    xw.end_war(st, r)  # every war ends
    assert st.xw[XG.ACTIVE] == 0 and combat_area.attackers_on_board(st, -1) == 0
    assert totals(st, r)[1] == box_players
    assert all(st.card_loc[c] != Loc.COMBAT for c in range(N_CARDS))
    assert (st.pl[:n, PF.WAR_PENALTY] >= r.k[RK.PENALTY_MIN]).all() and (st.pl[:n, PF.WAR_PENALTY] <= r.k[RK.PENALTY_MAX]).all()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(1, 2**31))
def test_an_attacker_turn_always_ends(r, seed):
    st = war_state(r, n=3, seed=seed, family=FAMILY_RANDOM)
    rng = np.random.default_rng(seed)
    for d in rng.choice(8, size=int(rng.integers(0, 5)), replace=False):
        house(st, r, 0, int(d))
        st.xw_pillage[int(d)] = int(rng.integers(0, 3))
    t = attacker(st, int(rng.integers(4)), int(rng.integers(8)), state=AS.IN if rng.random() < 0.7 else AS.OUTSIDE)
    steps = xw.attacker_turn(st, r, t)
    assert 1 <= steps <= r.xw_k[XK.MOVES_PER_TURN] + 2
    assert st.xw_att[t, XA.MOVES] <= r.xw_k[XK.MOVES_PER_TURN]
