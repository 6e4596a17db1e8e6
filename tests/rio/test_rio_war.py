"""Río de la Plata's war (rio.engine.war, rio.engine.war_battle, rio.players.war_policy): the rulebook's
worked examples quoted (the number of attackers, the bonus, the cannons, the three battles of the BATTLE
example), merging, movement, dominance, the attacker's conduct, the war check and the enemies track, and
hundreds of random and heuristic wars on random cities that must conserve every colour's discs and tiles.

Kernels called from Python: play_war, end_of_turn_war, advance_enemies, enter, reach (the last two are
compiled inside play_war anyway). The wars' scratch is the table's (rio.engine.scratch.new_scratch), reset at
each war's start."""

from __future__ import annotations

import numpy as np
import pytest

from rio.engine.geometry import build_geo
from rio.engine.scratch import new_scratch
from rio.engine.state import MAX_COLOURS, NO, PK, SPACE_PALACE, VPS, G, new_state
from rio.engine.war import advance_enemies, end_of_turn_war, play_war
from rio.engine.war_battle import BATTLE, MERGED, enter
from rio.engine.war_state import ENEMY, GF, WR, WV, new_war_scratch, reach
from rio.players.kinds import Kind, Policy
from rio.players.war_policy import WW, default_war_weights
from rio.rules import BK, MK, Building, Edge, Enemy, K, Level, Major, Office, Pool, load_rules

R = load_rules()
GEO = build_geo(R)
H, W = R.map_district.shape
N = H * W
SC = new_scratch(R, GEO)  # the table's working arrays: every war resets its part


def sp(x: int, y: int) -> int:
    """Space (x, y) counted from 1, as RP-07's map."""
    return (y - 1) * W + (x - 1)


def blank(players: int, level: int = Level.EXPERT, turn: int = 5) -> object:
    """An empty city and the players' discs in their supply (GAME PREPARATION, by hand)."""
    st = new_state(H, W, R.major_space_vp.shape[1], len(R.mine_space_workers))
    colours = players + (1 if players == 2 else 0)
    st.g[G.PLAYERS], st.g[G.COLOURS], st.g[G.COUNT], st.g[G.LEVEL] = players, colours, players - 2, level
    st.g[G.RULES_PLAYERS] = R.by_count[players - 2, 0]
    st.g[G.TURNS], st.g[G.TURN], st.g[G.ATTACKER] = R.k[K.GAME_TURNS], turn, NO
    st.order[:] = NO
    st.order[:players] = np.arange(players)
    for c in range(colours):
        st.pl[c, PK.SUPPLY] = R.k[K.GAME_USABLE_WORKERS]
        st.pl[c, PK.HUTS] = R.pool_tiles[Pool.HUT_HOUSE]
    st.edge[:] = R.map_edge.reshape(N, -1)
    st.pool_left[:] = R.pool_tiles
    st.pool_left[Pool.HUT_HOUSE] = 0
    st.rng[0] = 12345
    return st


def build(st, s: int, b: int, owner: int = NO) -> None:
    st.sp_building[s] = b
    st.sp_owner[s] = owner
    if b < len(Building):
        pool = Pool.HUT_HOUSE if R.building[b, BK.OWNED] else int(np.nonzero(R.building_pool[b])[0][0])
        st.sp_pool[s] = pool
        if R.building[b, BK.OWNED]:
            st.pl[owner, PK.HUTS] -= 1
        else:
            st.pool_left[pool] -= 1


def workers(st, s: int, colour: int, n: int) -> None:
    st.sp_workers[s, colour] += n
    st.pl[colour, PK.SUPPLY] -= n


def policy(kind: int) -> Policy:
    return Policy(kind=np.full(MAX_COLOURS, kind, np.int32), w=np.zeros((MAX_COLOURS, 1)),
                  war=np.tile(default_war_weights(), (MAX_COLOURS, 1)), budget=np.zeros(MAX_COLOURS, np.int32))


def scratch(st, attacker: int, enemy: int):
    """A war's scratch set up as play_war does (defenders in order, off-limits spaces, buildings' VP)."""
    ws = new_war_scratch(N, 64, int(R.k[K.WAR_MAX_GROUP]), 64)
    ws.v[WV.ENEMY], ws.v[WV.ATTACKER], ws.v[WV.PLAYERS] = enemy, attacker, st.g[G.PLAYERS]
    d = [int(c) for c in st.order[:st.g[G.PLAYERS]] if c != attacker]
    ws.dcol[:len(d)] = d
    ws.v[WV.DEFENDERS] = len(d)
    for s in range(N):
        b = st.sp_building[s]
        ws.vp[s] = 0 if b == NO else R.major[Major.PALACE, MK.ATTACKER_VP] if b == SPACE_PALACE else R.building[b, BK.ATTACKER_VP]
        ws.blk[s] = st.sp_workers[s, attacker] > 0
    return ws


def group(ws, s: int, colours: list[int]) -> int:
    """A group on ``s``: defending tokens of ``colours`` (bottom -> top), or attackers (ENEMY)."""
    g = int(ws.v[WV.GROUPS])
    ws.v[WV.GROUPS] += 1
    ws.gi[g] = 0
    ws.gi[g, GF.SPACE], ws.gi[g, GF.ENTRY], ws.gi[g, GF.SIZE] = s, NO, len(colours)
    ws.gi[g, GF.SIDE] = 1 if colours[0] == ENEMY else 0
    ws.tok[g, :len(colours)] = colours
    ws.at[s] = g
    return g


# ---------------------------------------------------------------------------------------------- number of attackers
def test_number_of_attackers_example():
    # WAR (step 2): "if there are 3 workers on the City Map and 4 defending players, the attacker will use
    # 3+(4x2) = 11 attackers" (no bonus: the Natives off the track; 5 players expert: 0 - 2 -> 0)
    st = blank(5)
    st.order[:5] = [0, 1, 2, 3, 4]  # seat 4 last: the attacker (WAR step 1)
    workers(st, sp(2, 2), 0, 2)
    workers(st, sp(9, 3), 1, 1)
    workers(st, sp(5, 5), 4, 2)  # the attacker's own workers count for nothing (FAQ) ...
    rec = np.zeros(len(WR), np.int32)
    play_war(R, GEO, st, SC, policy(Kind.RANDOM), Enemy.NATIVES, rec)
    assert rec[WR.ATTACKER] == 4 and st.pl[4, PK.ATTACKS] == 1 and rec[WR.ATTACKERS] == 11 and rec[WR.BONUS] == 0
    assert st.sp_workers[sp(5, 5), 4] == 2 and st.g[G.ATTACKER] == NO  # ... and stay inactive where they are


@pytest.mark.parametrize(("marker", "bonus"), [(8, 2), (7, 2), (3, 0), (2, 0), (0, 0)])
def test_bonus_in_a_4_player_intermediate_game(marker, bonus):
    # BONUS AND NUMBER OF ATTACKERS: "in 4 intermediate player game a bonus of +4 is modified to +2 (+4-1-1=+2)
    # and a bonus of +1 is modified to 0 (+1-1-1=-1=0)"; "the bonus value for 8 die result is +4"
    st = blank(4, Level.INTERMEDIATE)
    st.g[G.PIRATES] = marker
    rec = np.zeros(len(WR), np.int32)
    play_war(R, GEO, st, SC, policy(Kind.RANDOM), Enemy.PIRATES, rec)
    assert rec[WR.BONUS] == bonus and rec[WR.ATTACKERS] == 3 * 2 + bonus


def test_two_players_defend_with_both_colours_and_paired_tokens():
    # VARIANTS (2 players): "the defending player uses both discs of the two players like in 3-player war"
    # (RP-24: 2 defending players in the number of attackers, 2 free tokens each) and "with 1 silver coin he
    # can buy 1 troop for both colors (total 2 troops), with 3 coins 2 troops (total 4 troops)"
    st = blank(2)
    for x in range(1, 6):
        build(st, sp(x + 5, 2), Building.HUT, 0)
    workers(st, sp(6, 2), 0, 3)
    st.g[G.PIRATES] = 9  # +5
    st.pl[0, PK.SILVER] = 10
    rec = np.zeros(len(WR), np.int32)
    pol = policy(Kind.HEURISTIC)
    pol.war[:, WW.SILVER] = 0.5  # a coin worth 0.5 VP to him (the default, 4, keeps coins for the offices)
    play_war(R, GEO, st, SC, pol, Enemy.PIRATES, rec)
    assert rec[WR.ATTACKER] == 1 and rec[WR.ATTACKERS] == 3 + 2 * 2 + 5
    # the heuristic buys while a token's 2 VP beat 0.5 VP a silver coin and the attackers outnumber the
    # defenders: 3 purchases (1 + 2 + 3 silver), each a token of each colour
    assert rec[WR.PAID] == 3 and rec[WR.TOKENS] == 2 + 2 + 2 * 3 and st.pl[0, PK.SILVER] == 10 - 6
    assert st.pl[2, PK.SUPPLY] == R.k[K.GAME_USABLE_WORKERS] and st.sp_workers[:, 2].sum() == 0  # the shadow's back


# ---------------------------------------------------------------------------------------------- cannons
def test_cannons_example():
    # CANNONS: "the Gunner bets 3 kills ... 3 + 6 = 9 ... The player has the Gunner character and therefore adds
    # +1 to his dice throw. He throws the dice and the result is 8 that with the +1 bonus becomes a 9. The player
    # receives 6 VPs (only because he has the Gunner tile) and he removes 3 enemy tokens." The heuristic's bet
    # maximises bet x P(2d6 + 1 >= 6 + bet): 3 (1.25 expected kills).
    seen = set()
    for seed in range(200):
        st = blank(4)
        st.major_done[Major.FORT] = 1
        st.office_owner[Office.GUNNER], st.office_turn[Office.GUNNER] = 1, 0
        st.rng[0] = seed
        rec = np.zeros(len(WR), np.int32)
        play_war(R, GEO, st, SC, policy(Kind.HEURISTIC), Enemy.NATIVES, rec)
        assert rec[WR.CANNON_USER] == 1 and rec[WR.CANNON_BET] == 3
        roll = int(rec[WR.CANNON_ROLL])
        kills = 3 if roll + 1 >= 9 else 0  # "If the result of the roll is lower, nothing happens."
        assert rec[WR.CANNON_KILLS] == kills and st.vp_src[1, VPS.CANNONS] == 2 * kills
        seen.add(roll)
        if {7, 8} <= seen:
            break
    assert {7, 8} <= seen


def test_cannons_without_gunner_score_nothing():
    # CANNONS: "If the Gunner character has not been purchased or the owner is the attacker, the defending player
    # with the lowest number of VPs will use the cannons, but he will NOT receive any VPs" (RP-19: tie, earlier)
    for seed in range(40):
        st = blank(4)
        st.major_done[Major.FORT] = 1
        st.office_owner[Office.GUNNER] = 3  # the attacker's
        st.pl[0, PK.VP] = st.vp_src[0, VPS.GRID_SPACES] = 5
        st.rng[0] = seed
        rec = np.zeros(len(WR), np.int32)
        play_war(R, GEO, st, SC, policy(Kind.RANDOM), Enemy.NATIVES, rec)
        assert rec[WR.ATTACKER] == 3 and rec[WR.CANNON_USER] == 1 and st.vp_src[:, VPS.CANNONS].sum() == 0
    st = blank(4)
    rec = np.zeros(len(WR), np.int32)
    play_war(R, GEO, st, SC, policy(Kind.RANDOM), Enemy.NATIVES, rec)
    assert rec[WR.CANNON_USER] == NO  # "only if the Fort has been built"


# ---------------------------------------------------------------------------------------------- battles
def test_battle_1_two_pairs():
    # BATTLE 1: "The two pairs are destroyed. If attackers were Pirates, 1 attacker would have survived
    # (dominance). The Yellow player scores 8 VPs (4 points for the two attackers and 4 VPs for the yellow
    # defenders). The attacker scores 0 points."
    for enemy, left in ((Enemy.NATIVES, 0), (Enemy.PIRATES, 1)):
        st = blank(3)
        yellow, attacker = 0, 2
        ws = scratch(st, attacker, enemy)
        d = group(ws, sp(6, 3), [yellow, yellow])
        a = group(ws, sp(6, 2), [ENEMY, ENEMY])
        assert enter(R, GEO, st, ws, a, sp(6, 3)) == BATTLE
        kills = 4 - 2 * left  # Natives: 8 VP; Pirates: one attacker fewer destroyed
        assert st.pl[yellow, PK.VP] == kills + 4 and st.vp_src[yellow, VPS.WAR_KILLS] == kills and st.vp_src[yellow, VPS.WAR_LOSSES] == 4
        assert st.pl[attacker, PK.VP] == 0 and ws.gi[d, GF.SIZE] == 0 and ws.gi[a, GF.SIZE] == left
        assert st.pl[yellow, PK.SUPPLY] == R.k[K.GAME_USABLE_WORKERS] + 2  # the discs go back to the supply
        assert ws.at[sp(6, 3)] == (a if left else NO) and ws.v[WV.BATTLES] == 1
    # the General: +1 VP per enemy destroyed in battle (PUBLIC OFFICE TABLE)
    st = blank(3)
    st.office_owner[Office.GENERAL] = 0
    ws = scratch(st, 2, Enemy.NATIVES)
    group(ws, sp(6, 3), [0, 0])
    a = group(ws, sp(6, 2), [ENEMY, ENEMY])
    enter(R, GEO, st, ws, a, sp(6, 3))
    assert st.pl[0, PK.VP] == 2 * 3 + 2 * 2


def test_battle_2_pair_against_a_defended_hut():
    # BATTLE 2: "the pair (purple) destroys the single defender (green). Then, there is a battle with the
    # Building: the group destroys the building and 1 attacker is destroyed. The Green player scores 2 VPs for
    # the lost defender; the attacker scores 2 points for the destroyed Hut."
    st = blank(3)
    green, attacker = 1, 2
    hut = sp(10, 4)
    build(st, hut, Building.HUT, green)
    huts = st.pl[green, PK.HUTS]
    ws = scratch(st, attacker, Enemy.NATIVES)
    group(ws, hut, [green])
    a = group(ws, sp(11, 4), [ENEMY, ENEMY])
    assert enter(R, GEO, st, ws, a, hut) == BATTLE
    assert st.pl[green, PK.VP] == 2 and st.vp_src[green, VPS.WAR_LOSSES] == 2
    assert st.pl[attacker, PK.VP] == 2 and st.vp_src[attacker, VPS.WAR_ATTACKER] == 2
    assert ws.gi[a, GF.SIZE] == 1 and ws.at[hut] == a and st.sp_building[hut] == NO and st.sp_owner[hut] == NO
    assert st.pl[green, PK.HUTS] == huts + 1  # the tile back to its owner (RP-06)
    assert ws.rec[WR.BUILDINGS] == 1 and ws.rec[WR.ATTACKER_VP] == 2 and ws.rec[WR.DEFENDER_VP] == 2


def test_battle_3_single_against_an_undefended_building():
    # BATTLE 3: "Both the attacker and building are destroyed. The attacker scores 6 VPs for the building
    # destruction."
    st = blank(3)
    s = sp(14, 6)
    build(st, s, Building.STONECUTTER)
    left = st.pool_left[Pool.STONECUTTER_CARPENTER]
    ws = scratch(st, 2, Enemy.NATIVES)
    a = group(ws, sp(15, 6), [ENEMY])
    assert enter(R, GEO, st, ws, a, s) == BATTLE
    assert st.vp_src[2, VPS.WAR_ATTACKER] == 6 and ws.gi[a, GF.SIZE] == 0 and ws.at[s] == NO
    assert st.sp_building[s] == NO and st.pool_left[Pool.STONECUTTER_CARPENTER] == left + 1
    assert st.pl[:3, PK.VP].tolist() == [0, 0, 6]
    # the Palace: 12 VP, and it leaves the map (its grid stays completed)
    st = blank(3)
    ring = sp(7, 8)
    st.sp_building[ring], st.major_at[Major.PALACE], st.major_done[Major.PALACE] = SPACE_PALACE, ring, 1
    ws = scratch(st, 2, Enemy.NATIVES)
    a = group(ws, sp(7, 7), [ENEMY, ENEMY])
    enter(R, GEO, st, ws, a, ring)
    assert st.vp_src[2, VPS.WAR_ATTACKER] == 12 and st.major_at[Major.PALACE] == NO and st.major_done[Major.PALACE] == 1


def test_mixed_group_splits_vp_and_loses_its_top_first():
    # COMBAT RULES: "if Red has two tokens in the stack and Green has one, Red will take two-thirds of any earned
    # points and Green will take one-third" (RP-21: .5 rounded up); "the first to be destroyed is the one on the
    # top of the pile"
    st = blank(4)
    red, green = 0, 1
    ws = scratch(st, 3, Enemy.NATIVES)
    group(ws, sp(6, 3), [green, red, red])
    a = group(ws, sp(6, 2), [ENEMY, ENEMY])
    enter(R, GEO, st, ws, a, sp(6, 3))  # 2 kills = 4 VP: red 8/3 -> 3, green 4/3 -> 1
    assert st.vp_src[red, VPS.WAR_KILLS] == 3 and st.vp_src[green, VPS.WAR_KILLS] == 1
    st = blank(4)
    st.sp_building[sp(12, 2)] = Building.BARRACKS  # defenders' dominance in district 3
    ws = scratch(st, 3, Enemy.NATIVES)
    d = group(ws, sp(11, 2), [green, red])
    a = group(ws, sp(11, 1), [ENEMY, ENEMY])
    enter(R, GEO, st, ws, a, sp(11, 2))  # a tie: one defender survives, the red top lost first
    assert ws.gi[d, GF.SIZE] == 1 and ws.tok[d, 0] == green and st.vp_src[red, VPS.WAR_LOSSES] == 2
    assert st.vp_src[green, VPS.WAR_LOSSES] == 0


@pytest.mark.parametrize(("enemy", "where", "barracks", "att_left", "def_left"), [
    (Enemy.NATIVES, (3, 3), True, 0, 1),    # defenders dominant in the Barracks' district
    (Enemy.NATIVES, (7, 3), True, 0, 0),    # ... only there (another district)
    (Enemy.PIRATES, (3, 3), True, 0, 0),    # both dominant: nullified
    (Enemy.PIRATES, (3, 3), False, 1, 0),   # the Pirates' dominance
    (Enemy.NATIVES, (8, 10), True, 0, 0),   # the Plaza has no district (RP-21)
])
def test_dominance(enemy, where, barracks, att_left, def_left):
    # BATTLE: "When there is an even battle ... 1 token of the side with dominance always survives the battle (if
    # both groups have dominance the effect is nullified) ... the dominance is applicable only to tokens that are
    # in the district with the Barracks."
    st = blank(3)
    if barracks:
        st.sp_building[sp(1, 1)] = Building.BARRACKS  # district 1
    if where == (8, 10):
        st.sp_building[sp(5, 8)] = Building.BARRACKS  # district 6, beside the Plaza
    ws = scratch(st, 2, enemy)
    s = sp(*where)
    d = group(ws, s, [0, 0])
    a = group(ws, s - W, [ENEMY, ENEMY])
    enter(R, GEO, st, ws, a, s)
    assert (ws.gi[a, GF.SIZE], ws.gi[d, GF.SIZE]) == (att_left, def_left)


# ---------------------------------------------------------------------------------------------- movement
@pytest.mark.parametrize(("size", "steps"), [(1, 3), (2, 2), (3, 1)])
def test_movement_single_pair_triplet(size, steps):
    # COMBAT RULES: "Each single token can move 3 spaces. A pair moves 2 spaces while a triplet moves 1 space.
    # Diagonal movement is not allowed."
    st = blank(3)
    ws = scratch(st, 2, Enemy.NATIVES)
    g = group(ws, sp(8, 4), [0] * size)
    n = reach(R, GEO, st, ws, g, R.war_move[size])
    assert R.war_move[size] == steps
    assert n == 1 + sum(4 * k for k in range(1, steps + 1))  # staying, then the diamond
    assert max(ws.dist[ws.opt[i]] for i in range(1, n)) == steps


def test_attackers_enter_from_access_points_and_stop_at_buildings():
    # PLACEMENT OF ATTACKERS / RP-20: entering the city is the first step; the attacker may not move into a
    # building without fighting; workers of the attacker are off limits (WAR step 1)
    st = blank(3)
    build(st, sp(3, 1), Building.HUT, 0)
    workers(st, sp(2, 2), 2, 1)  # the attacker's inactive worker
    ws = scratch(st, 2, Enemy.NATIVES)
    g = group(ws, sp(2, 1), [ENEMY])
    ws.at[sp(2, 1)] = NO
    ws.gi[g, GF.SPACE], ws.gi[g, GF.ENTRY] = NO, sp(2, 1)  # outside, at the north edge of (2, 1)
    assert st.edge[sp(2, 1), 0] == Edge.OPEN
    n = reach(R, GEO, st, ws, g, 3)
    opts = {int(ws.opt[i]): int(ws.dist[ws.opt[i]]) for i in range(1, n)}
    assert opts[sp(2, 1)] == 1 and opts[sp(3, 1)] == 2 and opts[sp(1, 1)] == 2  # the Hut reached, not crossed
    assert sp(4, 1) not in opts and sp(2, 2) not in opts and opts[sp(1, 2)] == 3


def test_merging_two_pairs():
    # COMBAT RULES: "When two groups of 2 tokens move onto a space in order to form a triplet plus a single, a
    # token is taken from the group that moved second and placed on the top of the other group"; the mover
    # stops beside (MERGING TWO GROUPS); a merge beyond 3 is not allowed.
    st = blank(3)
    ws = scratch(st, 2, Enemy.NATIVES)
    yellow = group(ws, sp(5, 5), [0, 0])
    green = group(ws, sp(3, 5), [1, 1])
    n = reach(R, GEO, st, ws, green, 2)
    assert sp(5, 5) in ws.opt[:n]
    ws.at[sp(3, 5)] = NO
    ws.gi[green, GF.SPACE], ws.at[sp(4, 5)] = sp(4, 5), green  # walked to the space beside
    assert enter(R, GEO, st, ws, green, sp(5, 5)) == MERGED
    assert (ws.gi[yellow, GF.SIZE], ws.gi[green, GF.SIZE]) == (3, 1)
    assert ws.tok[yellow, :3].tolist() == [0, 0, 1] and ws.gi[green, GF.SPACE] == sp(4, 5)
    assert ws.gi[yellow, GF.PTS] == 0 and ws.gi[yellow, GF.DONE] == 1  # merging ends both groups' movement
    single = group(ws, sp(5, 7), [0])
    n = reach(R, GEO, st, ws, single, 3)
    assert sp(5, 5) not in ws.opt[:n]  # 1 + 3: no


# ---------------------------------------------------------------------------------------------- the war's end
def test_war_ends_after_3_rounds_without_battle():
    # COMBAT RULES: "The attacker must be involved in a battle at least once every 3 turns of war. If he fails
    # to do so, the war ends." No buildings: no defending token can be placed, no battle can happen.
    for seed in range(5):
        st = blank(4)
        st.rng[0] = seed
        rec = np.zeros(len(WR), np.int32)
        play_war(R, GEO, st, SC, policy(Kind.RANDOM), Enemy.NATIVES, rec)
        assert rec[WR.ROUNDS] == R.k[K.WAR_ROUNDS_WITHOUT_BATTLE] and rec[WR.ATTACKERS] == 6
        assert rec[WR.TOKENS] == rec[WR.KILLED] == rec[WR.BUILDINGS] == 0 and 0 < rec[WR.SURVIVORS] <= 6


# ---------------------------------------------------------------------------------------------- the war check
def test_turn_change_moves_the_markers():
    # TURN CHANGE: "in advancing from 1581 to 1582, the feather symbol of the Natives"; RP-17: first advance
    # onto 2, never past 9
    st = blank(4, turn=0)
    advance_enemies(R, st)
    assert (st.g[G.NATIVES], st.g[G.PIRATES]) == (0, 2)  # 1580 -> 81: the skull (RP-18)
    st.g[G.TURN] = 1
    advance_enemies(R, st)
    assert (st.g[G.NATIVES], st.g[G.PIRATES]) == (2, 2)
    st.g[G.TURN], st.g[G.NATIVES] = 5, 9
    advance_enemies(R, st)
    assert (st.g[G.NATIVES], st.g[G.PIRATES]) == (9, 3)


def test_war_check():
    # C | END OF TURN CHECKS AND WAR: a war when the dice are <= a marker, with the Pirates when <= both; then
    # both markers back 3 spaces in 4 players (below 2: off the track)
    wars = {Enemy.NATIVES: 0, Enemy.PIRATES: 0}
    for seed in range(60):
        st = blank(4)
        st.rng[0] = seed
        st.g[G.NATIVES], st.g[G.PIRATES] = 9, 4
        rec = np.full(len(WR), -7, np.int32)
        n = end_of_turn_war(R, GEO, st, SC, policy(Kind.RANDOM), rec)
        if n == 0:
            assert rec[WR.ENEMY] == -7 and (st.g[G.NATIVES], st.g[G.PIRATES]) == (9, 4)  # untouched
            continue
        roll = rec[WR.ROLL]
        assert 2 <= roll <= 9 and rec[WR.ENEMY] == (Enemy.PIRATES if roll <= 4 else Enemy.NATIVES)
        assert (st.g[G.NATIVES], st.g[G.PIRATES]) == (6, 0) and rec[WR.ATTACKER] == 3 and st.g[G.WARS] == 1
        wars[rec[WR.ENEMY]] += 1
    assert wars[Enemy.NATIVES] > 0 and wars[Enemy.PIRATES] > 0
    st = blank(4)  # "on the first turn, as the markers are out of the track, there no chance that a war happens"
    assert end_of_turn_war(R, GEO, st, SC, policy(Kind.RANDOM), np.zeros(len(WR), np.int32)) == 0


def test_wars_stop_and_the_last_turn_forces_one():
    # every player has attacked once (3-5 players): no more wars; 2 players: two cycles (FAQ)
    st = blank(4)
    st.pl[:4, PK.ATTACKS] = 1
    st.g[G.NATIVES] = 9
    assert end_of_turn_war(R, GEO, st, SC, policy(Kind.RANDOM), np.zeros(len(WR), np.int32)) == 0 and st.g[G.WAR_OVER] == 1
    st = blank(2)
    st.pl[:2, PK.ATTACKS] = [1, 1]
    rec = np.zeros(len(WR), np.int32)
    st.g[G.TURN] = st.g[G.TURNS] - 1
    assert end_of_turn_war(R, GEO, st, SC, policy(Kind.RANDOM), rec) == 1 and rec[WR.ATTACKER] == 1  # the last in order
    # a closed city (all W/N/E edges walled): no more war checks (MAJOR BUILDING CHARACTERISTICS)
    st = blank(4)
    st.edge[st.edge == Edge.OPEN] = Edge.WALL
    st.g[G.NATIVES] = 9
    assert end_of_turn_war(R, GEO, st, SC, policy(Kind.RANDOM), np.zeros(len(WR), np.int32)) == 0 and st.g[G.WAR_OVER] == 1
    # RP-19: "on last turn the war happens automatically without roll": one war, the higher marker (tie: Pirates)
    for nat, pir, enemy in ((5, 3, Enemy.NATIVES), (4, 4, Enemy.PIRATES), (0, 0, Enemy.PIRATES)):
        st = blank(3)
        st.pl[2, PK.ATTACKS] = 1
        st.g[G.TURN] = st.g[G.TURNS] - 1
        st.g[G.NATIVES], st.g[G.PIRATES] = nat, pir
        rec = np.zeros(len(WR), np.int32)
        assert end_of_turn_war(R, GEO, st, SC, policy(Kind.RANDOM), rec) == 1
        assert rec[WR.FORCED] == 1 and rec[WR.ENEMY] == enemy and rec[WR.ATTACKER] == 1 and rec[WR.ROLL] == 0


# ---------------------------------------------------------------------------------------------- many wars
def random_city(seed: int, players: int):
    """A random-ish city: Huts and Houses with their owners' workers, other minor buildings, loose workers,
    sometimes the Palace, the Fort, the Gunner, the General and built walls."""
    rng = np.random.default_rng(seed)
    st = blank(players, level=int(rng.integers(3)))
    st.order[:players] = rng.permutation(players)
    for c in range(players):
        st.pl[c, PK.SILVER] = rng.integers(0, 12)
    others = [Building.STONECUTTER, Building.CARPENTER, Building.MARKET, Building.BARRACKS, Building.CHURCH, Building.SQUARE]
    for s in range(N):
        if GEO.district[s] < 0:
            continue
        u = rng.random()
        if u < 0.22:
            c = int(rng.integers(players))
            build(st, s, Building.HUT if rng.random() < 0.6 else Building.HOUSE, c)
            if rng.random() < 0.3:
                workers(st, s, c, min(int(rng.integers(1, 4)), st.pl[c, PK.SUPPLY]))
        elif u < 0.3:
            b = others[rng.integers(len(others))]
            if st.pool_left[np.nonzero(R.building_pool[b])[0][0]] > 0:
                build(st, s, b)
        elif u < 0.34:
            c = int(rng.integers(players))
            workers(st, s, c, min(int(rng.integers(1, 3)), st.pl[c, PK.SUPPLY]))
    if rng.random() < 0.3:
        ring = sp(7, 8)
        st.sp_building[ring], st.sp_owner[ring], st.sp_pool[ring] = SPACE_PALACE, NO, NO
        st.sp_workers[ring] = 0
        st.major_at[Major.PALACE] = ring
    st.major_done[Major.FORT] = rng.random() < 0.5
    for o in (Office.GUNNER, Office.GENERAL):
        if rng.random() < 0.5:
            st.office_owner[o], st.office_turn[o] = rng.integers(players), rng.integers(0, 7)
    opened = np.argwhere(st.edge == Edge.OPEN)
    for i in rng.choice(len(opened), size=int(rng.integers(0, len(opened))), replace=False):
        st.edge[tuple(opened[i])] = Edge.WALL
    st.rng[0] = seed
    return st


def discs(st) -> np.ndarray:
    return st.pl[:, PK.SUPPLY] + st.sp_workers.sum(0)


def tiles(st) -> tuple[list[int], list[int]]:
    """Hut/House tiles per colour (supply + map) and every other pool (supply + map)."""
    mine = [int(st.pl[c, PK.HUTS] + ((st.sp_owner == c) & np.isin(st.sp_building, [Building.HUT, Building.HOUSE])).sum())
            for c in range(MAX_COLOURS)]
    pools = [int(st.pool_left[p] + (st.sp_pool == p).sum()) for p in range(len(Pool)) if p != Pool.HUT_HOUSE]
    return mine, pools


@pytest.mark.parametrize("kind", [Kind.RANDOM, Kind.HEURISTIC])
def test_many_wars_conserve_discs_and_tiles(kind):
    pol = policy(kind)
    rec = np.zeros(len(WR), np.int32)
    played = 0
    for seed in range(150):
        players = 2 + seed % 4
        st = random_city(seed, players)
        before, tile0, silver0 = discs(st), tiles(st), st.pl[:, PK.SILVER].copy()
        attacker = st.order[players - 1]
        inactive = st.sp_workers[:, attacker].copy()
        play_war(R, GEO, st, SC, pol, Enemy.NATIVES + seed % 2, rec)
        assert rec[WR.ATTACKER] == attacker and st.g[G.ATTACKER] == NO
        assert (discs(st) == before).all(), seed  # every colour's discs: supply + city map
        assert (st.pl[:, PK.SUPPLY] >= 0).all() and (st.pl[:, PK.SILVER] >= 0).all()
        assert tiles(st) == tile0, seed
        assert (st.sp_workers.sum(1) <= R.k[K.PLACEMENT_MAX_WORKERS_PER_SPACE]).all()
        assert ((st.sp_workers > 0).sum(1) <= R.k[K.PLACEMENT_COLOURS_PER_SPACE]).all()
        assert (st.sp_workers[:, attacker] == inactive).all()  # inactive: never moved, never attacked
        owned = np.nonzero(np.isin(st.sp_building, [Building.HUT, Building.HOUSE]))[0]
        assert all(st.sp_workers[s].sum() == st.sp_workers[s, st.sp_owner[s]] for s in owned)  # nobody on another's
        assert st.sp_workers[:, players:].sum() == 0  # the shadow's discs go only on the grids
        assert (st.vp_src.sum(1) == st.pl[:, PK.VP]).all() and st.pl[players:, PK.VP].sum() == 0
        # the paid tokens' price: 1, 2, 3... silver (2 players: a purchase buys one of each colour)
        for c in range(players):
            k = st.pl[c, PK.TOKENS]
            assert silver0[c] - st.pl[c, PK.SILVER] == R.k[K.WAR_TOKEN_PRICE_STEP] * k * (k + 1) // 2
        assert rec[WR.ATTACKER_VP] == st.vp_src[attacker, VPS.WAR_ATTACKER]
        assert rec[WR.DEFENDER_VP] == st.vp_src[:, [VPS.WAR_KILLS, VPS.WAR_LOSSES, VPS.CANNONS]].sum()
        assert rec[WR.SURVIVORS] + rec[WR.KILLED] + rec[WR.CANNON_KILLS] <= rec[WR.ATTACKERS]
        assert 0 < rec[WR.ROUNDS] <= R.k[K.WAR_MAX_ROUNDS] or rec[WR.ATTACKERS] == rec[WR.CANNON_KILLS]
        played += rec[WR.BUILDINGS] > 0
    assert played > 50  # the wars do destroy buildings


def test_default_weights_cover_every_slot():
    w = default_war_weights()
    assert w.shape == (len(WW),) and w[WW.GROUP_SIZE] >= 1 and 0 < w[WW.SPREAD] < 1
