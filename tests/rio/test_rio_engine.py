"""Río de la Plata's Placement and Effect phases (rio.engine.placement, rio.engine.effects, rio.engine.majors,
rio.engine.order) on states set up by hand: the rulebook's worked examples, quoted, and the rules they show."""

from __future__ import annotations

import numpy as np

from rio.engine.effects import apply_effect, effect_options, end_of_turn_effects, ship_returns, start_of_turn_effects
from rio.engine.game import setup
from rio.engine.geometry import build_geo
from rio.engine.majors import check_grid
from rio.engine.options import EF, PL
from rio.engine.order import move_marker, next_mover
from rio.engine.placement import apply_placement, placement_options
from rio.engine.scratch import new_scratch
from rio.engine.state import NO, OPT, PK, VPS, G, new_state
from rio.players.kinds import Kind
from rio.players.lineup import make_policy
from rio.rules import Building, Good, K, Level, Major, Office, load_rules

R = load_rules()
GEO = build_geo(R)
H, W = (int(n) for n in R.map_district.shape)


def sp(x: int, y: int) -> int:
    return y * W + x


def game(players: int = 4, level: Level = Level.EXPERT, first_turn: bool = False):
    """A prepared game (GAME PREPARATION) in seat order 0, 1, 2, ..., past its first turn unless asked."""
    st = new_state(H, W, R.major_space_vp.shape[1], len(R.mine_space_workers))
    sc = new_scratch(R, GEO)
    setup(R, GEO, st, sc, players, int(level), 0, 7)
    st.order[:players] = np.arange(players)
    st.g[G.FIRST_TURN] = int(first_turn)
    st.g[G.TURN] = 0 if first_turn else 3
    return st, sc


def options(st, sc, seat, phase="placement") -> list[tuple]:
    n = placement_options(R, GEO, st, sc, seat) if phase == "placement" else effect_options(R, GEO, st, sc, seat)
    return [tuple(int(v) for v in sc.opts[j]) for j in range(n)]


def take(st, sc, seat, option: tuple, phase="placement", pol=None):
    """Apply ``option`` (it must be legal now)."""
    opts = options(st, sc, seat, phase)
    assert option in opts, f"{option} not among {len(opts)} legal options"
    j = opts.index(option)
    if phase == "placement":
        return apply_placement(R, GEO, st, sc, seat, j)
    return apply_effect(R, GEO, st, sc, pol if pol is not None else make_policy([Kind.HEURISTIC] * 5), seat, j)


def place_house(st, seat, s, b=Building.HOUSE):
    st.sp_building[s] = b
    st.sp_owner[s] = seat
    st.sp_pool[s] = 0
    st.sp_built[s] = 1


def test_substitution_two_green_four_black_three_black_remain():
    """1) INSIDE THE CITY MAP: "there are 2 green workers on a space and the black player wants to occupy it.
    To do so, he has to place 4 workers. ... the 2 green workers and one black worker are removed: 3 black
    workers will remain in the space." """
    st, sc = game()
    green, black = 0, 1
    s = sp(3, 4)  # on the starting line
    take(st, sc, green, (PL.CITY, s, 2, 0, 0))
    assert (PL.CITY, s, 1, 0, 0) not in options(st, sc, black)  # colours do not mix
    supply_g, supply_b = st.pl[green, PK.SUPPLY], st.pl[black, PK.SUPPLY]
    take(st, sc, black, (PL.SUBSTITUTE, s, 4, 0, 0))
    assert st.sp_workers[s, green] == 0 and st.sp_workers[s, black] == 3
    assert st.pl[green, PK.SUPPLY] == supply_g + 2  # removed workers go home
    assert st.pl[black, PK.SUPPLY] == supply_b - 3  # the sacrificed one too
    assert st.pl[black, PK.PLACED] == 4  # all four count toward the five


def test_first_turn_only_the_starting_line_and_three_a_space():
    st, sc = game(first_turn=True)
    spaces = {o[1] for o in options(st, sc, 0) if o[0] == PL.CITY}
    assert spaces == set(np.nonzero(GEO.start)[0].tolist())
    assert max(o[2] for o in options(st, sc, 0) if o[0] == PL.CITY) == R.k[K.PLACEMENT_MAX_WORKERS_PER_SPACE]


def test_market_activation_needs_an_own_house_adjacent():
    """BUILDING ACTIVATION: "The building is not available to all the players, but only to the yellow and
    black players, as they have a house adjacent to the market. The red player does not have houses adjacent
    to the market while the green one has only huts." """
    st, sc = game()
    yellow, black, red, green = 0, 1, 2, 3
    market = sp(6, 2)
    st.sp_building[market] = Building.MARKET
    st.sp_pool[market] = 4
    place_house(st, yellow, sp(5, 2))
    place_house(st, black, sp(7, 3))
    place_house(st, green, sp(6, 1), Building.HUT)
    place_house(st, red, sp(9, 2))
    able = [seat for seat in (yellow, black, red, green) if (PL.CITY, market, 1, 0, 0) in options(st, sc, seat)]
    assert able == [yellow, black]


def test_effects_example_hut_and_stonecutter_paid_with_two_wood():
    """EFFECTS OF THE WORKERS: "the Green player places 3 workers creating a pair and a single ... he converts
    the pair into a Hut (this does not require additional costs in resources) and the single worker into a
    Stonecutter. For the Stonecutter, he will have to pay 2 wood resources." """
    st, sc = game()
    green = 0
    pair, single = sp(4, 4), sp(5, 4)
    take(st, sc, green, (PL.CITY, pair, 2, 0, 0))
    take(st, sc, green, (PL.CITY, single, 1, 0, 0))
    st.pl[green, PK.WOOD] = 2
    take(st, sc, green, (EF.BUILD, pair, Building.HUT, 0, 0), "effects")
    take(st, sc, green, (EF.BUILD, single, Building.STONECUTTER, 0, 0), "effects")
    assert st.sp_building[pair] == Building.HUT and st.sp_owner[pair] == green
    assert st.sp_building[single] == Building.STONECUTTER and st.sp_owner[single] == NO
    assert st.pl[green, PK.WOOD] == 0 and st.pl[green, PK.SILVER] == R.level[Level.EXPERT, 2]
    assert st.sp_workers[pair, green] == 0 and st.sp_workers[single, green] == 0


def test_missing_resources_bought_at_rising_prices():
    """TRADES AND MONEY USE: the first "virtual" resource of the turn costs 1 silver, the second 2 ..."""
    st, sc = game()
    s = sp(5, 4)
    take(st, sc, 0, (PL.CITY, s, 1, 0, 0))
    st.pl[0, PK.WOOD] = 0
    st.pl[0, PK.SILVER] = 3
    take(st, sc, 0, (EF.BUILD, s, Building.STONECUTTER, 0, 0), "effects")
    assert st.pl[0, PK.SILVER] == 0 and st.pl[0, PK.BOUGHT] == 2


def test_fort_grid_example_14_4_11():
    """HOW TO BUILD A MAJOR BUILDING: "14 VPs to the green player; 4 VPs to the yellow; the red player receives 7
    VPs plus the bonus for the completion of 4 VPs (total 11 VPs)" (3 players; RP-10's printed VP)."""
    st, sc = game(players=3)
    green, yellow, red = 0, 1, 2
    plain = [i for i in range(R.major_space_vp.shape[1]) if R.major_space_on[1, Major.FORT, i]]
    vp = [int(R.major_space_vp[Major.FORT, i]) for i in plain]
    assert vp == [5, 4, 4, 3, 3, 2, 2, 1, 1, 0]
    owners = {green: [0, 1, 3, 5], yellow: [6, 7, 8, 9], red: [2, 4]}  # indices into the grid's 3-player spaces
    seq = 0
    for seat, spaces in owners.items():
        for k in spaces:
            seq += 1
            i = plain[k]
            st.grid[Major.FORT, i] = seat
            st.grid_placer[Major.FORT, i] = seat
            st.grid_paid[Major.FORT, i] = seq  # red pays last: he completes it
    st.pl[:3, PK.VP] = 0
    st.vp_src[:] = 0
    check_grid(R, GEO, st, sc, make_policy([Kind.HEURISTIC] * 3), Major.FORT)
    assert st.pl[:3, PK.VP].tolist() == [14, 4, 11]
    assert st.vp_src[red, VPS.COMPLETION] == 4
    assert st.major_done[Major.FORT] == 1 and (st.grid[Major.FORT] == NO).all()


def test_road_grid_filled_alone_scores_4():
    """"if a player fills all the spaces of the road grid by himself, he will receive 4 VPs in Effect Phase"."""
    st, sc = game()
    for _ in range(4):
        n = options(st, sc, 0)
        i = next(o for o in n if o[0] == PL.GRID and o[1] == Major.ROADS)
        take(st, sc, 0, i)
    vp0 = st.pl[0, PK.VP]
    check_grid(R, GEO, st, sc, make_policy([Kind.HEURISTIC] * 4), Major.ROADS)
    assert st.pl[0, PK.VP] - vp0 == 4
    assert R.k[K.TILES_WALL_ROAD_PIECES] - st.g[G.STICKS] == 3  # the completer placed 3 road pieces


def test_unpaid_grid_worker_is_ineffective_minus_3():
    st, sc = game()
    st.pl[0, PK.WOOD] = st.pl[0, PK.STONE] = st.pl[0, PK.SILVER] = 0
    take(st, sc, 0, (PL.GRID, Major.FORT, 0, 0, 0))
    vp, supply = st.pl[0, PK.VP], st.pl[0, PK.SUPPLY]
    end_of_turn_effects(R, st, 0)
    assert st.pl[0, PK.VP] == vp - 3 and st.pl[0, PK.SUPPLY] == supply + 1 and st.grid[Major.FORT, 0] == NO


def test_mine_and_forest_cheapest_space_first_4_players():
    """MINE AND FOREST: "In the example of a 4-player game, the White and Green players use one worker to receive
    1 stone resource each. The Yellow and Red players have to use 2 workers for each resource." """
    st, sc = game()
    cost = []
    for seat in range(4):
        o = next(o for o in options(st, sc, seat) if o[0] == PL.MINE and o[1] == 0)
        cost.append(int(R.mine_space_workers[o[2]]))
        take(st, sc, seat, o)
    assert cost == [1, 1, 2, 2]
    stone = st.pl[:4, PK.STONE].copy()
    pol = make_policy([Kind.HEURISTIC] * 4)
    for seat in range(4):
        start_of_turn_effects(R, GEO, st, sc, pol, seat)
    assert R.mine_track[0] == Good.STONE  # the upper track (3. ON THE OTHER AREAS)
    assert (st.pl[:4, PK.STONE] - stone).tolist() == [1, 1, 1, 1]
    assert st.pl[:4, PK.SUPPLY].tolist() == [R.k[K.GAME_USABLE_WORKERS]] * 4


def test_field_and_artisan_work():
    """FIELD WORK AND ARTISAN WORK: "The Green player places 2 workers on the field work area and the Yellow
    player places 1 worker on the artisan work area. ... the former will receive 1 coin while the latter can
    trade 1 wood or stone resource for a precious resource." """
    st, sc = game()
    green, yellow = 0, 1
    take(st, sc, green, (PL.FIELD, 0, 0, 0, 0))
    take(st, sc, green, (PL.FIELD, 0, 0, 0, 0))
    take(st, sc, yellow, (PL.ARTISAN, 0, 0, 0, 0))
    silver = st.pl[green, PK.SILVER]
    pol = make_policy([Kind.HEURISTIC] * 4)
    start_of_turn_effects(R, GEO, st, sc, pol, green)
    assert st.pl[green, PK.SILVER] == silver + 1
    wood = st.pl[yellow, PK.WOOD]
    take(st, sc, yellow, (EF.ARTISAN, Good.WOOD, 0, 0, 0), "effects")
    assert st.pl[yellow, PK.WOOD] == wood - 1 and st.pl[yellow, PK.PRECIOUS] == 1


def test_ship_loading_three_a_worker_and_the_return():
    """SHIP: "the Yellow player places 2 workers and Green places 1 ... the Yellow player loads 5 resources and
    Green loads 2"; up to 3 resources a worker; the payouts: 1 silver a wood or stone, 2 silver + 1 VP a precious,
    4 silver + 3 VP a triplet."""
    st, sc = game()
    yellow, green = 0, 1
    st.major_done[Major.HARBOR] = 1
    take(st, sc, yellow, (PL.DOCK, 0, 0, 0, 0))
    take(st, sc, yellow, (PL.DOCK, 0, 0, 0, 0))
    take(st, sc, green, (PL.DOCK, 0, 0, 0, 0))
    st.pl[yellow, [PK.WOOD, PK.STONE, PK.PRECIOUS]] = [4, 4, 4]
    loads = 0
    while any(o[0] == EF.LOAD for o in options(st, sc, yellow, "effects")):
        take(st, sc, yellow, (EF.LOAD, [Good.WOOD, Good.STONE, Good.PRECIOUS][loads % 3], 0, 0, 0), "effects")
        loads += 1
    assert loads == 2 * R.k[K.SHIP_RESOURCES_PER_DOCK_WORKER]
    st.g[G.SHIP_AWAY] = 1
    st.g[G.SHIP_RETURN] = st.g[G.TURN]
    silver, vp = st.pl[yellow, PK.SILVER], st.pl[yellow, PK.VP]
    ship_returns(R, st)
    assert st.pl[yellow, PK.SILVER] - silver == 2 * 4 and st.pl[yellow, PK.VP] - vp == 2 * 3  # two triplets
    assert st.g[G.SHIP_AWAY] == 0 and st.g[G.VOYAGES] == 1


def test_office_bought_or_fined_5():
    """The Public Offices: the price paid and the VP shown, or no office and a fine of 5 VPs (RP-16)."""
    st, sc = game()
    take(st, sc, 0, (PL.OFFICE, Office.GUNNER, 0, 0, 0))
    take(st, sc, 1, (PL.OFFICE, Office.GENERAL, 0, 0, 0))
    assert not any(o[0] == PL.OFFICE and o[1] == Office.GUNNER for o in options(st, sc, 2))  # one worker an office
    assert not any(o[0] == PL.OFFICE for o in options(st, sc, 0))  # one purchase a turn
    st.pl[0, PK.SILVER], st.pl[0, PK.VP] = 5, 7
    st.pl[1, PK.SILVER], st.pl[1, PK.VP] = 5, 6
    take(st, sc, 0, (EF.OFFICE, Office.GUNNER, 0, 0, 0), "effects")
    end_of_turn_effects(R, st, 1)
    assert st.office_owner[Office.GUNNER] == 0 and st.pl[0, PK.SILVER] == 0
    assert st.office_owner[Office.GENERAL] == NO and st.pl[1, PK.VP] == 1 and st.pl[1, PK.SILVER] == 5


def test_player_order_example():
    """PLAYER ORDER: "the sequence of play is currently: 1) White, 2) Black, 3) Red, 4) Green. ... Red and Green
    ... add a worker ... the green have to move first and after the red player ... the green choose to move ...
    to be the first one. The red player chooses to stay ... So, in the following turn the player sequence will
    be: 1) Green, 2) White, 3) Black, 4) Red." """
    st, _ = game()
    white, black, red, green = 0, 1, 2, 3
    st.pl[red, PK.ORDER_ADDED] = st.pl[green, PK.ORDER_ADDED] = 1
    assert next_mover(R, st, 0) == green
    move_marker(st, green, 0)
    assert next_mover(R, st, 1 << green) == red
    assert st.order[:4].tolist() == [green, white, black, red]  # red slid to the last place and stays there


def test_option_rows_are_well_formed():
    st, sc = game()
    opts = options(st, sc, 0)
    assert opts[-1][0] == PL.PASS and sum(o[0] == PL.PASS for o in opts) == 1
    assert len(opts) <= sc.opts.shape[0] and all(o[OPT.KIND] in set(PL) for o in opts)
