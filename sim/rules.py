"""Load, validate and override the rules data file, and turn it into arrays for the engine.

The engine never reads a rules number from a module global: everything below is packed into
:class:`Rules`, a NamedTuple of int32 arrays passed to every jitted function as an argument,
so a rules sweep (overrides) reuses the compiled, cached kernels.
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from enum import IntEnum
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from sim import compiled_parts
from sim.state import (
    GROUP_SIZE,
    MAX_MAJOR_SPACES,
    MINOR_NAMES,
    N_AI_CARDS,
    N_BANNERS,
    N_BUILDING_TYPES,
    N_CHARACTERS,
    N_DISTRICTS,
    N_GROUPS,
    N_SUP,
    SUPPLY_KEYS,
    B,
    Sup,
    pack,
)

DEFAULT_RULES = Path(__file__).parent / "rulesdata" / "trinidad.toml"


class RulesError(ValueError):
    """A rules file or override is invalid; the message is one line naming the key."""


class RK(IntEnum):
    """Scalar rules in ``Rules.k``; each is the dotted key of the rules file."""

    DECADES = 0
    DECADES_PER_ERA = 1
    FIRST_GAME_DECADES = 2
    WORKERS = 3
    LOTS = 4
    HOUSES = 5
    PALACE_MARKERS = 6
    STATUS_MARKERS = 7
    WAR_MARKERS = 8
    START_WOOD = 9
    START_STONE = 10
    START_SILVER = 11
    START_BRONZE = 12
    LAST_WOOD = 13
    LAST_STONE = 14
    SECOND_LAST_5P = 15
    CHAR_OFFER_EXTRA = 16
    FIRST_GAME_CHARS = 17
    STONE_GRIDS = 18
    WOOD_GRIDS = 19
    COIN_STACKS = 20
    PRECIOUS_PER_PLAYER = 21
    SILVER_PER_STACK = 22
    WAREHOUSE_WOOD = 23
    WAREHOUSE_STONE = 24
    COUNCIL_START = 25
    WAR_PENALTY_START = 26
    GRID_LAST_VP = 27
    WAREHOUSE_VP = 28
    REMOVE_HOUSE_WORKERS = 29
    MILICIANO_WORKERS = 30
    MILICIANO_VET_PRECIOUS = 31
    TAKE_CARD_WORKERS = 32
    TAKE_CARD_DRAW = 33
    BUY_CARD_BRONZE = 34
    REACT_PER_WORKER = 35
    HOUSE_REMOVED_BRONZE = 36
    PALACE_REMOVED_SILVER = 37
    DRAW = 38
    SALARY_PER_BRONZE = 39
    SALARY_VP = 40
    BURN_AV = 41
    SHIP_WORKERS = 42
    SHIP_WORKERS_HARBOR = 43
    SHIP_MAX_ELEMENTS = 44
    CARD_EXTRA_DRAW = 45
    CARD_REACT_FREE = 46
    COUNCIL_MIN = 47
    COUNCIL_MAX = 48
    VOTE_VP_PER_ERA = 49
    BELOW_ONE_BASE = 50
    BELOW_ONE_PER_POINT = 51
    COUNCIL_RESET = 52
    PEACE_ACT_SILVER = 53
    WAR_PROCLAMATION = 54
    MAJOR_ACT_WORKERS = 55
    ATTACK_NATIVES = 56
    ATTACK_PIRATES = 57
    WOUNDS_NATIVES = 58
    WOUNDS_PIRATES = 59
    PENALTY_MIN = 60
    PENALTY_MAX = 61
    COUNCIL_FLOOR_WAR = 62
    TENSION_SPACES = 63
    RED_ZONE = 64
    PER_EMPTY_GRID = 65
    WALLS_PER_COMPLETION = 66
    DISTRICT_BONUS = 67
    CATHEDRAL_SPLIT = 68
    MONEY_VP = 69
    MILITARY_VP = 70
    FAITH_VP = 71
    MAJORITY_NEEDS_ONE = 72
    ODD_PER_JOKER = 73
    PRODUCTION_PENALTY = 74
    PALACE_BASE = 75
    PALACE_PER_FAITH = 76
    HOUSE_PER_FAITH = 77
    CH_MOST = 78
    CH_MORE_THAN_ALL = 79
    CH_SURPLUS_CAP = 80
    CH_DEFENDER = 81
    CH_ROADMAKER = 82
    CH_GEN_BARRACKS = 83
    CH_GEN_MONUMENT = 84
    CH_GEN_FORT = 85
    CH_CAPTAIN = 86
    CH_BISHOP_CHURCH = 87
    CH_BISHOP_CATHEDRAL = 88
    CH_BISHOP_SQUARE = 89
    CH_GOV_FULL = 90
    CH_GOV_HALF = 91
    CH_NOBLEWOMAN = 92
    SMALL_GAME_MAX = 93
    AUCTION_RAISES = 94
    BRONZE_PER_SILVER = 95
    RECOVER_VP_FACTOR = 96
    CH_GOV_HALF_PCT = 97
    HACIENDA_MARKER = 98
    PURPLE_BANNER_CARDS = 99
    MAP_W = 100
    MAP_H = 101
    VP_BONUS_END_GAME = 102
    OCHER_FLIP_ON_JOIN = 103
    CH_NOBLEWOMAN_NO_BATTLE = 104
    AI_STRENGTH = 105  # index into solo.strengths (derived from the strength's name)
    AI_START_WOOD = 106
    AI_START_STONE = 107
    AI_START_SILVER = 108
    AI_START_BRONZE = 109
    AI_PALACE_WORKERS = 110
    AI_COUNCIL_POINTS = 111
    AI_FACE_UP = 112
    AI_ODD_ROW = 113  # Starting Area row of an odd randomizer card: 0 top, 1 bottom (derived)
    AI_EVEN_ROW = 114
    SOLO_VOTE = 115
    AI_SUPPLY_PLAYERS = 116


N_RK = len(RK)

class AP(IntEnum):
    """Numeric parameters of the Affiliate card powers (``Rules.aff_p[card, AP.X]``); the names are
    the ``params`` keys of the ``[[affiliate]]`` rows. A card uses only the ones its power needs."""

    ACTIONS = 0
    BRONZE = 1
    BRONZE_DISCOUNT = 2
    BRONZE_PER_ROAD_DISTRICT = 3
    COMBO_CARD = 4
    COMBO_STONE_TO = 5
    COMBO_WOOD_TO = 6
    COST_TO = 7
    COUNCIL_WORKERS = 8
    COUNCIL_WORKERS_MAX = 9
    COUNCIL_WORKERS_WITH_HARBOR = 10
    DISCOUNT_MAX = 11
    DOCK_MAX_ELEMENTS = 12
    DOCK_MIN_BASE = 13
    DOCK_MIN_PER_PLAYER = 14
    EXTRA_ACTIVATIONS = 15
    EXTRA_BRONZE = 16
    EXTRA_FAITH = 17
    EXTRA_PRECIOUS = 18
    EXTRA_RESOURCE = 19
    EXTRA_TURNS = 20
    EXTRA_VOTES_MAX = 21
    EXTRA_WORKERS = 22
    HELD_EXTRA_DECADES = 23
    HOUSE_VALUE = 24
    HOUSES_MAX = 25
    LAST_TAKE_PENALTY_VP = 26
    METAL = 27
    MIN_PRECIOUS_GAINED = 28
    PALACE_VALUE = 29
    PAY_BRONZE = 30
    PAY_BRONZE_PER_HOUSE = 31
    PAY_METAL = 32
    PAY_PRECIOUS = 33
    PAY_SILVER = 34
    PAY_STONE = 35
    PAY_WOOD = 36
    PENALTY_DIVISOR = 37
    PENALTY_FACTOR = 38
    PRECIOUS_COUNTS = 39
    RESOURCES_MAX = 40
    RESOURCES_PLUS_PLAYERS = 41
    SILVER = 42
    SILVER_DISTRICT_FULL = 43
    SILVER_IF_ROADS = 44
    SILVER_IF_WALLS = 45
    SILVER_MAJOR = 46
    SILVER_VS_PIRATES = 47
    SMALL_GAME_EXTRA_VP = 48
    STEPS_LEFT = 49
    TENSION_STEPS = 50
    TENSION_STEPS_DOWN = 51
    USES = 52
    VETERAN_SOLDIERS = 53
    VOTES_DIVISOR = 54
    VOTES_PER_ROAD_DISTRICT = 55
    VP = 56
    VP_PENALTY_PER_RESOURCE = 57
    VP_PER_MILICIANO = 58
    VP_PER_SOLDIER = 59
    VP_VS_PIRATES = 60
    WALLS = 61
    WAREHOUSE_RESOURCES = 62
    WORKER_DISCOUNT = 63
    WORKERS = 64
    WOUNDS_REMOVED = 65


N_AP = len(AP)


class XK(IntEnum):
    """EXTENDED WAR scalars in ``Rules.xw_k``: the ``extended_war.<name>`` keys (the last three derived)."""

    ENABLED = 0
    LAST_DECADE_ROUNDS = 1
    TABLE_SKULL_ROWS = 2
    INITIATIVE_BASE = 3
    INITIATIVE_MODULUS = 4
    OPPONENT_TILES = 5
    WOUND_MARKERS = 6
    PILLAGE_MARKERS = 7
    ATTACKER_CARDS_NATIVES = 8
    ATTACKER_CARDS_PIRATES = 9
    AI_TROOP_CARDS = 10
    MOVES_PER_TURN = 11
    WALL_BONUS = 12
    WALL_BONUS_FORT = 13
    FRIEND_BONUS = 14
    FRIEND_BONUS_MAX = 15
    BURN_AV = 16
    BURN_FACTOR = 17
    BURN_FACTORS_PER_FIGHT = 18
    BURN_MOVES = 19
    WOUNDS_REMOVE = 20
    CONTROL_HP_PER_PENALTY = 21
    WIN_STEPS = 22
    STEPS_PER_PENALTY = 23
    ORDER_BY_TILE = 24  # derived from extended_war.round_order: 1 "tile", 0 "card"
    FRIENDS_SIDE = 25  # derived from extended_war.friends: 1 "side", 0 "own"
    N_EDGES = 26  # derived from the map: placement edges around the perimeter (xw_edges rows)


N_XK = len(XK)
_XK_DERIVED = (XK.ORDER_BY_TILE, XK.FRIENDS_SIDE, XK.N_EDGES)
_XK_RANGES = {XK.ENABLED: (0, 1), XK.TABLE_SKULL_ROWS: (0, 8), XK.INITIATIVE_BASE: (1, 5), XK.INITIATIVE_MODULUS: (1, 5),
              XK.OPPONENT_TILES: (1, 16), XK.WOUNDS_REMOVE: (1, 8), XK.CONTROL_HP_PER_PENALTY: (1, 100),
              XK.BURN_FACTOR: (1, 10), XK.MOVES_PER_TURN: (0, 8), XK.LAST_DECADE_ROUNDS: (1, 50),
              XK.ATTACKER_CARDS_NATIVES: (0, 8), XK.ATTACKER_CARDS_PIRATES: (0, 8), XK.AI_TROOP_CARDS: (0, 8)}


class XWP(IntEnum):
    """Parameters of the red war powers (``Rules.xw_power_p[card, XWP.X]``): the keys of an
    ``[[extended_war.power]]`` row besides card and kind."""

    AV = 0
    STANDARD_AV = 1
    ELITE_AV = 2
    ADJACENT = 3
    WOUNDS = 4
    TURNS = 5
    FACTOR = 6
    CARDS = 7
    MOVES = 8
    HEALS = 9
    BLOCKS = 10
    MINIATURES = 11


N_XWP = len(XWP)
# the parameters each war power kind has (sim.codes.WP), in the rows of [[extended_war.power]]
_WP_PARAMS = {
    "av": ("av",), "remove_wound_area": ("wounds", "adjacent"), "av_per_opponent_near": ("standard_av", "elite_av", "adjacent"),
    "immobilise": ("turns",), "av_per_move": ("av",), "swap_bonus": (), "wound_winners": ("wounds",),
    "walls_factor": ("factor",), "cancel_lower": ("cards",), "cancel_higher": ("cards",), "av_per_wounded_near": ("av",),
    "free_move_nearest": ("moves",), "standard_as_elite": (), "elite_as_standard": (), "wound_before": ("wounds",),
    "shield": ("blocks",), "heal_area": ("heals",), "move_away": ("moves",), "av_per_fight": ("av",),
    "fight_again": ("av", "moves"), "recruit": ("miniatures",),
}

# dotted key in the rules file for each scalar
_RK_KEYS = {
    RK.DECADES: "game.decades", RK.DECADES_PER_ERA: "game.decades_per_era",
    RK.FIRST_GAME_DECADES: "game.first_game_decades", RK.WORKERS: "setup.workers",
    RK.LOTS: "setup.lots", RK.HOUSES: "setup.houses", RK.PALACE_MARKERS: "setup.palace_markers",
    RK.STATUS_MARKERS: "setup.status_markers", RK.WAR_MARKERS: "setup.war_markers",
    RK.START_WOOD: "setup.start_wood", RK.START_STONE: "setup.start_stone",
    RK.START_SILVER: "setup.start_silver", RK.START_BRONZE: "setup.start_bronze",
    RK.LAST_WOOD: "setup.last_player_wood", RK.LAST_STONE: "setup.last_player_stone",
    RK.SECOND_LAST_5P: "setup.second_last_extra_5p", RK.CHAR_OFFER_EXTRA: "setup.character_offer_extra",
    RK.FIRST_GAME_CHARS: "setup.first_game_characters", RK.STONE_GRIDS: "setup.stone_grids",
    RK.WOOD_GRIDS: "setup.wood_grids", RK.COIN_STACKS: "setup.coin_stacks",
    RK.PRECIOUS_PER_PLAYER: "setup.precious_per_player",
    RK.SILVER_PER_STACK: "setup.silver_per_player_per_stack",
    RK.WAREHOUSE_WOOD: "setup.warehouse_wood", RK.WAREHOUSE_STONE: "setup.warehouse_stone",
    RK.COUNCIL_START: "setup.council_start", RK.WAR_PENALTY_START: "setup.war_penalty_start",
    RK.GRID_LAST_VP: "grids.last_item_vp", RK.WAREHOUSE_VP: "warehouse.vp_per_item",
    RK.REMOVE_HOUSE_WORKERS: "actions.remove_house_workers",
    RK.MILICIANO_WORKERS: "actions.miliciano_workers",
    RK.MILICIANO_VET_PRECIOUS: "actions.miliciano_veteran_precious",
    RK.TAKE_CARD_WORKERS: "actions.take_card_workers", RK.TAKE_CARD_DRAW: "actions.take_card_draw",
    RK.BUY_CARD_BRONZE: "actions.buy_card_bronze", RK.REACT_PER_WORKER: "actions.reactivate_cards_per_worker",
    RK.HOUSE_REMOVED_BRONZE: "actions.house_removed_bronze",
    RK.PALACE_REMOVED_SILVER: "actions.palace_removed_silver",
    RK.DRAW: "cards.draw", RK.SALARY_PER_BRONZE: "cards.salary_cards_per_bronze",
    RK.SALARY_VP: "cards.salary_vp_per_unpaid", RK.BURN_AV: "cards.burn_av",
    RK.SHIP_WORKERS: "ship.workers",
    RK.SHIP_WORKERS_HARBOR: "ship.workers_with_harbor", RK.SHIP_MAX_ELEMENTS: "ship.max_elements",
    RK.CARD_EXTRA_DRAW: "status.card_extra_draw", RK.CARD_REACT_FREE: "status.card_reactivate_free_cards",
    RK.COUNCIL_MIN: "council.track_min", RK.COUNCIL_MAX: "council.track_max",
    RK.VOTE_VP_PER_ERA: "council.vote_vp_per_era", RK.BELOW_ONE_BASE: "council.below_one_vp_base",
    RK.BELOW_ONE_PER_POINT: "council.below_one_vp_per_point", RK.COUNCIL_RESET: "council.reset_value",
    RK.PEACE_ACT_SILVER: "council.peace_act_silver", RK.WAR_PROCLAMATION: "council.war_proclamation_natives",
    RK.MAJOR_ACT_WORKERS: "council.major_act_council_workers",
    RK.ATTACK_NATIVES: "war.attack_natives", RK.ATTACK_PIRATES: "war.attack_pirates",
    RK.WOUNDS_NATIVES: "war.wounds_natives", RK.WOUNDS_PIRATES: "war.wounds_pirates",
    RK.PENALTY_MIN: "war.penalty_min", RK.PENALTY_MAX: "war.penalty_max",
    RK.COUNCIL_FLOOR_WAR: "war.council_floor_on_overflow",
    RK.TENSION_SPACES: "tension.spaces", RK.RED_ZONE: "tension.red_zone_start",
    RK.PER_EMPTY_GRID: "tension.per_empty_grid",
    RK.WALLS_PER_COMPLETION: "major.walls_per_completion", RK.DISTRICT_BONUS: "major.district_bonus",
    RK.CATHEDRAL_SPLIT: "major.cathedral_split_bonus",
    RK.MONEY_VP: "scoring.money_vp_per_era", RK.MILITARY_VP: "scoring.military_vp_per_era",
    RK.FAITH_VP: "scoring.faith_vp_per_era", RK.MAJORITY_NEEDS_ONE: "scoring.majority_needs_one",
    RK.ODD_PER_JOKER: "scoring.odd_cards_per_joker", RK.PRODUCTION_PENALTY: "scoring.production_penalty",
    RK.PALACE_BASE: "scoring.palace_base", RK.PALACE_PER_FAITH: "scoring.palace_per_faith",
    RK.HOUSE_PER_FAITH: "scoring.house_per_faith",
    RK.CH_MOST: "character.most_vp", RK.CH_MORE_THAN_ALL: "character.more_than_all_vp",
    RK.CH_SURPLUS_CAP: "character.surplus_cap_vp", RK.CH_DEFENDER: "character.defender_per_district",
    RK.CH_ROADMAKER: "character.roadmaker_per_district", RK.CH_GEN_BARRACKS: "character.general_barracks",
    RK.CH_GEN_MONUMENT: "character.general_monument", RK.CH_GEN_FORT: "character.general_fort",
    RK.CH_CAPTAIN: "character.captain_vp", RK.CH_BISHOP_CHURCH: "character.bishop_church",
    RK.CH_BISHOP_CATHEDRAL: "character.bishop_cathedral",
    RK.CH_BISHOP_SQUARE: "character.bishop_square_adjacent",
    RK.CH_GOV_FULL: "character.governor_full_vp", RK.CH_GOV_HALF: "character.governor_half_vp",
    RK.CH_NOBLEWOMAN: "character.noblewoman_vp", RK.SMALL_GAME_MAX: "character.small_game_max_players",
    RK.AUCTION_RAISES: "options.auction_raises", RK.BRONZE_PER_SILVER: "game.bronze_per_silver",
    RK.RECOVER_VP_FACTOR: "major.recover_vp_factor", RK.CH_GOV_HALF_PCT: "character.governor_half_percent",
    RK.HACIENDA_MARKER: "game.hacienda_marker_cubes", RK.PURPLE_BANNER_CARDS: "scoring.purple_banner_cards",
    RK.VP_BONUS_END_GAME: "status.vp_bonus_end_game", RK.OCHER_FLIP_ON_JOIN: "scoring.ocher_flip_on_join",
    RK.CH_NOBLEWOMAN_NO_BATTLE: "character.noblewoman_war_without_battle",
    RK.AI_START_WOOD: "solo.start_wood", RK.AI_START_STONE: "solo.start_stone", RK.AI_START_SILVER: "solo.start_silver",
    RK.AI_START_BRONZE: "solo.start_bronze", RK.AI_PALACE_WORKERS: "solo.palace_workers",
    RK.AI_COUNCIL_POINTS: "solo.council_points", RK.AI_FACE_UP: "solo.face_up_cards", RK.SOLO_VOTE: "solo.council_vote_solo",
    RK.AI_SUPPLY_PLAYERS: "solo.supply_players",
}
# MAP_W and MAP_H come from the map pictures, the A.I.'s strength and randomizer rows from names (_solo)
_RK_DERIVED = (RK.MAP_W, RK.MAP_H, RK.AI_STRENGTH, RK.AI_ODD_ROW, RK.AI_EVEN_ROW)
assert len(_RK_KEYS) == N_RK - len(_RK_DERIVED)

# Ranges checked on load: (min, max) inclusive. Anything not listed must be >= 0 unless negative below.
_NEGATIVE_OK = {"grids.last_item_vp", "warehouse.vp_per_item", "cards.salary_vp_per_unpaid",
                "council.below_one_vp_base", "council.below_one_vp_per_point", "war.penalty_min",
                "scoring.production_penalty", "war.penalty_vp"}
_RANGES = {
    "game.decades": (1, 12), "game.decades_per_era": (1, 12), "game.first_game_decades": (1, 12),
    "setup.war_markers": (0, 3), "setup.stone_grids": (1, 4), "setup.wood_grids": (1, 4),
    "setup.coin_stacks": (1, 4), "setup.workers": (1, 30), "council.track_max": (1, 15),
    "council.track_min": (0, 15), "tension.spaces": (2, 8), "war.penalty_max": (0, 10),
    "war.penalty_min": (-3, 0), "options.auction_raises": (1, 20),
    "solo.face_up_cards": (1, N_AI_CARDS - 1), "solo.palace_workers": (1, 30), "solo.supply_players": (2, 5),
}


class Rules(NamedTuple):
    k: np.ndarray  # int32[N_RK]          scalars (RK)
    b_cost: np.ndarray  # int32[17, 5]    build cost [workers, wood, stone, precious, metal]
    b_requires: np.ndarray  # int32[17]   building replaced by an upgrade (B), 0 none
    b_cp: np.ndarray  # int32[17]         City Council points on construction
    b_vp: np.ndarray  # int32[17]         VP on construction
    b_dv: np.ndarray  # int32[17]         term in the district VP value
    b_prod: np.ndarray  # int32[17]       1 for production buildings (Market, Carpentry, Quarry)
    b_sup: np.ndarray  # int32[17]        game supply slot (Sup) of the miniature, -1 player supply
    act_b: np.ndarray  # int32[NA]        activation row: building
    act_w: np.ndarray  # int32[NA]        workers
    act_in: np.ndarray  # int32[NA, 6]    paid [wood, stone, precious, metal, silver, bronze]
    act_out: np.ndarray  # int32[NA, 9]   gained [grid wood, grid stone, grid precious, supply wood, supply stone, supply metal, silver, bronze, faith]
    act_kind: np.ndarray  # int32[NA]     0 trade, 1 soldier, 2 veteran soldier
    act_needs: np.ndarray  # int32[NA]    Major building that must stand (M) or -1
    act_needs_not: np.ndarray  # int32[NA]  Major building that must not stand or -1
    act_real: np.ndarray  # int32[NA]     1: real resources only (no Construction status swap)
    act_rows: np.ndarray  # int32[17, NA]  derived: each building's activation rows in row order, -1 padded
    act_nrows: np.ndarray  # int32[17]     derived: how many activation rows each building has
    ship_put: np.ndarray  # int32[NL, 5]   load put on the Dock [wood, stone, precious, silver, bronze]
    ship_pay: np.ndarray  # int32[NL, 4]   pay-out [silver, bronze, metal, faith]
    ship_spain: np.ndarray  # int32[NL, 4] extra pay-out with the Spain support cube
    ship_needs: np.ndarray  # int32[NL]   Major building that must stand (M) or -1
    ship_needs_not: np.ndarray  # int32[NL]  Major building that must not stand or -1
    supply_n: np.ndarray  # int32[4, N_SUP]  game supply by player count 2..5
    grid_cubes: np.ndarray  # int32[4]    cubes per stone/wood grid by player count 2..5
    council_gain: np.ndarray  # int32[2]  City Council action: points for 1, 2 workers
    council_vp: np.ndarray  # int32[16]   end-game VP by council value
    vote_tiles: np.ndarray  # int32[4]    value tiles
    st_workers: np.ndarray  # int32[3]    Improve Status level cost: workers
    st_silver: np.ndarray  # int32[3]     Improve Status level cost: silver
    vp_bonus_pct: np.ndarray  # int32[3]  VP status bonus %
    card_free: np.ndarray  # int32[3]     Card status: Affiliate cards ignored for salary
    card_l3_half: np.ndarray  # int32[4]  Card status III: half-VP per colour by player count
    worker_cc: np.ndarray  # int32[3]     Worker status: City Council workers per use
    worker_bronze: np.ndarray  # int32[3] Worker status: bronze per use
    war_av: np.ndarray  # int32[5]        AV by Mini kind (index 0 unused)
    war_wo: np.ndarray  # int32[5]        wounds a miniature can take by Mini kind
    penalty_vp: np.ndarray  # int32[14]   end-game VP by War Penalty position - penalty_min
    ten_single: np.ndarray  # int32[8]    single-disk tension modifier by space
    ten_double: np.ndarray  # int32[8]    double-disk tension modifier by space
    major_first_vp: np.ndarray  # int32[6]
    major_rep: np.ndarray  # int32[6]     1 for Roads and Walls (repeatable)
    major_spaces: np.ndarray  # int32[6, 4]  spaces in use by player count 2..5
    major_space_vp: np.ndarray  # int32[6, 12]  VP printed on each space
    major_vp_order: np.ndarray  # int32[6, 12]  derived: each grid's spaces by VP, highest first (ties: lower index first)
    back_symbols: np.ndarray  # int32[6, 2]  card back [natives, pirates] by place in group
    banner_vp: np.ndarray  # int32[7]     banner VP x Era by face-up count
    banner_steps: np.ndarray  # int32[6]  steps to a face-up banner (1 or 2)
    series_vp: np.ndarray  # int32[8]
    series_vp_cab: np.ndarray  # int32[8]
    char_bonus: np.ndarray  # int32[12]   2-3 player bonus x Era per Character
    architect_n: np.ndarray  # int32[2]
    architect_vp: np.ndarray  # int32[2]
    cell_district: np.ndarray  # int32[NC]  district 0..7 or -1
    cell_plaza: np.ndarray  # int32[NC]   1 on the Plaza Mayor
    cell_cab: np.ndarray  # int32[NC]     1 on a Cabildo/Cathedral space
    cell_start: np.ndarray  # int32[NC]   1 in the Starting Area
    cell_buildable: np.ndarray  # int32[NC]  1 for district spaces off the Plaza Mayor
    adj: np.ndarray  # int32[NC, 8]       8-neighbours, -1 padded
    seg_district: np.ndarray  # int32[NSEG]  district of each wall segment
    district_nseg: np.ndarray  # int32[8]
    district_cells: np.ndarray  # int32[8, max spaces]  buildable cells in map order, -1 padded
    district_ncells: np.ndarray  # int32[8]
    district_adj: np.ndarray  # int32[8, 8]  1 when two districts share a border (cards 54, 68)
    district_north: np.ndarray  # int32[8]  1 for a North district, 0 for a South one (Solo A.I. placement)
    cath_pairs: np.ndarray  # int32[NP, 2]  Cathedral placements (two adjacent Cabildo spaces)
    aff_group: np.ndarray  # int32[84]    character group of each card (Characters: their own)
    aff_lightning: np.ndarray  # int32[84]  1: the power may be used out of the owner's turn
    aff_p: np.ndarray  # int32[84, N_AP]  numeric power parameters (AP)
    aff_buildings: np.ndarray  # int32[84]  bit t: the power concerns Minor building type t (B)
    aff_grid: np.ndarray  # int32[84]     Major grid the power concerns (M), -1 any, -2 none
    aff_res: np.ndarray  # int32[84]      resource: 0 wood, 1 stone, 2 precious, 3 coins; -1 none
    aff_district: np.ndarray  # int32[84]  district condition: 0 none, 1 closed by Walls, 2 with Roads
    aff_load: np.ndarray  # int32[84]     ship load row the power concerns, -2 any 3 identical, -1 none
    aff_majors: np.ndarray  # int32[84]   bit m: the power concerns Major building m (M)
    ai_workers: np.ndarray  # int32[NS]   Solo A.I.: workers by strength (solo.strengths)
    ai_chars: np.ndarray  # int32[5]      Solo A.I.: the Characters it draws from (card ids)
    ai_deck: np.ndarray  # int32[16]      Solo A.I.: each Solo card's action (sim.codes.AiCard)
    ai_deck_workers: np.ndarray  # int32[16]  Solo A.I.: each Solo card's worker cost
    xw_k: np.ndarray  # int32[N_XK]        EXTENDED WAR scalars (XK)
    xw_table: np.ndarray  # int32[R, 3, 2]  War Table [elite, standard] by row (skull rows, then 5..2 players) and Era
    xw_player_av: np.ndarray  # int32[5]  player miniature AV by Mini kind (index 0 unused)
    xw_player_hp: np.ndarray  # int32[5]  player miniature HP by Mini kind
    xw_att_av: np.ndarray  # int32[4]     attacker AV by AK
    xw_att_hp: np.ndarray  # int32[4]     attacker HP by AK
    xw_att_box: np.ndarray  # int32[4]    attacker miniatures in the box by AK
    xw_control_era: np.ndarray  # int32[6]  a control card's Era by its place in its group
    xw_pillage_score: np.ndarray  # int32[3]  pillage marker score by flames (index 0: no marker)
    xw_power_kind: np.ndarray  # int32[84]  red war power kind of each card (sim.codes.WP; 0 for Characters)
    xw_power_p: np.ndarray  # int32[84, N_XWP]  its parameters (XWP)
    xw_dist: np.ndarray  # int32[8, 8]    derived: orthogonal steps between districts (district_adj), -1 unreachable
    xw_edges: np.ndarray  # int32[NE, 2]  derived: placement edges [district, side 0 west / 1 north / 2 east], clockwise
    # not rules: which optional parts the kernels compiled for this record include (sim.compiled_parts),
    # int8[1] in, int8[0] out; only their lengths matter (a record's type carries its fields' shapes)
    xw_compiled: np.ndarray  # int8[0|1]  the EXTENDED WAR (in when extended_war.enabled)
    ai_compiled: np.ndarray  # int8[0|1]  the Solo A.I. (added for games with an A.I. seat)


# ----------------------------------------------------------------------------- loading

def _leaf_paths(d: dict, prefix: str = "") -> dict[str, Any]:
    """Dotted paths of every `{value = ...}` leaf."""
    out = {}
    for key, v in d.items():
        path = f"{prefix}{key}"
        if isinstance(v, dict):
            if "value" in v and "source" in v:
                out[path] = v
            else:
                out.update(_leaf_paths(v, path + "."))
    return out


def _type_name(v: Any) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return f"a list of {len(v)}"
    return type(v).__name__


def _check_same_shape(key: str, base: Any, new: Any) -> None:
    if isinstance(base, bool) or isinstance(new, bool):
        if not (isinstance(base, bool) and isinstance(new, bool)):
            raise RulesError(f"rules: {key}: expected {_type_name(base)}, got {new!r}")
        return
    if isinstance(base, int):
        if not isinstance(new, int):
            raise RulesError(f"rules: {key}: expected an integer, got {new!r}")
        return
    if isinstance(base, str):
        if not isinstance(new, str):
            raise RulesError(f"rules: {key}: expected a string, got {new!r}")
        return
    if isinstance(base, list):
        if not isinstance(new, list) or len(new) != len(base):
            raise RulesError(f"rules: {key}: expected {_type_name(base)}, got {new!r}")
        for i, (b, n) in enumerate(zip(base, new)):
            _check_same_shape(f"{key}[{i}]", b, n)


def _override_affiliates(doc: dict, over: Any) -> None:
    """``[affiliate.<number>.params]`` overrides: a card's power parameters, each with the shape of
    the value it replaces (only the parameters the card's row has)."""
    rows = {row.get("number"): row for row in doc.get("affiliate", []) if isinstance(row, dict)}
    nums = f"{min(rows)}..{max(rows)}" if rows else "none"
    if not isinstance(over, dict):
        raise RulesError(f"rules: affiliate: expected tables [affiliate.<number>.params] (cards {nums}), got {over!r}")
    for num, sub in over.items():
        key = f"affiliate.{num}"
        n = int(num) if str(num).isdigit() else None
        if n not in rows:
            raise RulesError(f"rules: {key}: no such Affiliate card; allowed: {nums}")
        if not isinstance(sub, dict) or set(sub) != {"params"} or not isinstance(sub["params"], dict):
            raise RulesError(f"rules: {key}: only a card's params can be overridden, as [affiliate.{n}.params]")
        params = rows[n].get("params", {})
        for pk, pv in sub["params"].items():
            if pk not in params:
                have = ", ".join(params) or "none"
                raise RulesError(f"rules: {key}.params.{pk}: card {n} has no such parameter; its parameters: {have}")
            _check_same_shape(f"{key}.params.{pk}", params[pk], pv)
            params[pk] = pv


def apply_overrides(doc: dict, overrides: dict) -> dict:
    """Return a copy of ``doc`` with plain values from ``overrides`` put into its leaves (and, under
    ``affiliate.<number>.params``, into an Affiliate card's power parameters)."""
    doc = copy.deepcopy(doc)
    leaves = _leaf_paths(doc)

    def walk(o: dict, prefix: str) -> None:
        for key, v in o.items():
            path = f"{prefix}{key}"
            if path == "affiliate":
                _override_affiliates(doc, v)
            elif path in leaves:
                base = leaves[path]["value"]
                if isinstance(v, dict) and "value" in v:
                    v = v["value"]
                _check_same_shape(path, base, v)
                leaves[path]["value"] = v
            elif path in ("map.districts", "map.special", "map.start"):
                if not isinstance(v, str):
                    raise RulesError(f"rules: {path}: expected a map picture (string), got {v!r}")
                doc["map"][key] = v
            elif path in ("map.district_names", "map.district_sides"):
                if not (isinstance(v, list) and len(v) == N_DISTRICTS and all(isinstance(x, str) for x in v)):
                    raise RulesError(f"rules: {path}: expected a list of {N_DISTRICTS} strings, got {v!r}")
                doc["map"][key] = v
            elif isinstance(v, dict) and (path == "map" or any(p.startswith(path + ".") for p in leaves)):
                walk(v, path + ".")
            else:
                while isinstance(v, dict) and v:  # name the whole dotted key that was given
                    first = next(iter(v))
                    path, v = f"{path}.{first}", v[first]
                near = sorted(p for p in leaves if p.split(".")[0] == path.split(".")[0])
                hint = f"; keys under [{path.split('.')[0]}]: {', '.join(near)}" if near else ""
                raise RulesError(f"rules: {path}: no such rule{hint}")

    walk(overrides, "")
    return doc


def load_rules_doc(path: str | Path | None = None, overrides: dict | str | Path | None = None) -> dict:
    """Read the rules file and merge overrides (a dict or a TOML file path)."""
    p = Path(path) if path else DEFAULT_RULES
    try:
        doc = tomllib.loads(p.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise RulesError(f"rules: {p}: {e}") from None
    if overrides is not None:
        if not isinstance(overrides, dict):
            op = Path(overrides)
            try:
                overrides = tomllib.loads(op.read_text())
            except (OSError, tomllib.TOMLDecodeError) as e:
                raise RulesError(f"rules: {op}: {e}") from None
        doc = apply_overrides(doc, overrides)
    return doc


def _get(doc: dict, key: str) -> Any:
    node: Any = doc
    for part in key.split("."):
        if not isinstance(node, dict) or part not in node:
            raise RulesError(f"rules: {key}: missing")
        node = node[part]
    if isinstance(node, dict) and "value" in node:
        src = node.get("source")
        if src not in ("rulebook", "ruling", "reading", "engine"):
            raise RulesError(f"rules: {key}: source must be rulebook, ruling, reading or engine, got {src!r}")
        node = node["value"]
    return node


def _int(doc: dict, key: str) -> int:
    v = _get(doc, key)
    if isinstance(v, bool):
        v = int(v)
    if not isinstance(v, int):
        raise RulesError(f"rules: {key}: expected an integer, got {v!r}")
    lo, hi = _RANGES.get(key, (None, None))
    if lo is not None and not lo <= v <= hi:
        raise RulesError(f"rules: {key}: must be in {lo}..{hi}, got {v}")
    if lo is None and v < 0 and key not in _NEGATIVE_OK:
        raise RulesError(f"rules: {key}: must be >= 0, got {v}")
    return v


def _ints(doc: dict, key: str, n: int | None = None) -> np.ndarray:
    v = _get(doc, key)
    if not isinstance(v, list) or not all(isinstance(x, (int, bool)) for x in v):
        raise RulesError(f"rules: {key}: expected a list of integers, got {v!r}")
    if n is not None and len(v) != n:
        raise RulesError(f"rules: {key}: expected a list of {n} integers, got {len(v)}")
    if key not in _NEGATIVE_OK and any(int(x) < 0 for x in v):
        raise RulesError(f"rules: {key}: values must be >= 0, got {v}")
    return np.array([int(x) for x in v], np.int32)


def _banner_steps(doc: dict) -> np.ndarray:
    """``scoring.banner_steps``: 1 (face-up at once) or 2 (face-down, then face-up) per banner (sim.banners)."""
    v = _ints(doc, "scoring.banner_steps", N_BANNERS)
    if not np.isin(v, (1, 2)).all():
        raise RulesError(f"rules: scoring.banner_steps: each must be 1 or 2, got {v.tolist()}")
    return v


def _picture(doc: dict, key: str) -> list[str]:
    v = doc.get("map", {}).get(key)
    if not isinstance(v, str):
        raise RulesError(f"rules: map.{key}: expected a map picture (string)")
    rows = [r for r in v.strip("\n").split("\n")]
    if not rows or len({len(r) for r in rows}) != 1:
        raise RulesError(f"rules: map.{key}: every row must have the same width")
    return rows


_OUT_KEYS = ["grid_wood", "grid_stone", "grid_precious", "supply_wood", "supply_stone", "supply_metal",
             "silver", "bronze", "faith"]
OUT_METAL = _OUT_KEYS.index("supply_metal")  # the metal column of Rules.act_out
# Rules.act_out columns that give wood, stone, precious (from a grid or the supply), by Res
OUT_RES = ((_OUT_KEYS.index("grid_wood"), _OUT_KEYS.index("supply_wood")),
           (_OUT_KEYS.index("grid_stone"), _OUT_KEYS.index("supply_stone")),
           (_OUT_KEYS.index("grid_precious"), _OUT_KEYS.index("grid_precious")))
PAY_METAL = 2  # the metal column of Rules.ship_pay ([silver, bronze, metal, faith])
COST_RES = 1  # Rules.b_cost columns [workers, wood, stone, precious, metal]: wood, stone, precious from this one, by Res
_IN_KEYS = ["wood", "stone", "precious", "metal", "silver", "bronze"]
_MAJOR_KEYS = ["cathedral", "fort", "cabildo", "harbor", "roads", "walls"]


def _build_map(doc: dict) -> dict[str, np.ndarray]:
    dist = _picture(doc, "districts")
    spec = _picture(doc, "special")
    start = _picture(doc, "start")
    h, w = len(dist), len(dist[0])
    if (len(spec), len(spec[0])) != (h, w) or (len(start), len(start[0])) != (h, w):
        raise RulesError("rules: map: districts, special and start pictures must have the same size")
    nc = w * h
    cell_district = np.full(nc, -1, np.int32)
    cell_plaza = np.zeros(nc, np.int32)
    cell_cab = np.zeros(nc, np.int32)
    cell_start = np.zeros(nc, np.int32)
    for y in range(h):
        for x in range(w):
            c = y * w + x
            ch = dist[y][x]
            if ch != ".":
                if ch not in "12345678"[:N_DISTRICTS]:
                    raise RulesError(f"rules: map.districts: row {y} col {x}: expected 1-{N_DISTRICTS} or '.', got {ch!r}")
                cell_district[c] = int(ch) - 1
            s = spec[y][x]
            if s not in ".PCFH":
                raise RulesError(f"rules: map.special: row {y} col {x}: expected one of . P C F H, got {s!r}")
            cell_plaza[c] = s == "P"
            cell_cab[c] = s == "C"
            if start[y][x] not in ".S":
                raise RulesError(f"rules: map.start: row {y} col {x}: expected . or S, got {start[y][x]!r}")
            cell_start[c] = start[y][x] == "S"
            if (cell_cab[c] or cell_start[c]) and cell_district[c] < 0:
                raise RulesError(f"rules: map.start/map.special: row {y} col {x}: Starting Area and Cabildo spaces must lie in a district")
    buildable = ((cell_district >= 0) & (cell_plaza == 0)).astype(np.int32)
    if not cell_start.any():
        raise RulesError("rules: map.start: the Starting Area is empty")
    adj = np.full((nc, 8), -1, np.int32)
    for y in range(h):
        for x in range(w):
            k = 0
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h:
                        adj[y * w + x, k] = (y + dy) * w + x + dx
                        k += 1
    # wall segments: outer west/north/east edges of district spaces
    segs = []
    for y in range(h):
        for x in range(w):
            d = cell_district[y * w + x]
            if d < 0:
                continue
            if x == 0:
                segs.append(d)
            if y == 0:
                segs.append(d)
            if x == w - 1:
                segs.append(d)
    seg_district = np.array(segs, np.int32)
    district_nseg = np.bincount(seg_district, minlength=N_DISTRICTS).astype(np.int32)
    district_ncells = np.bincount(cell_district[buildable == 1], minlength=N_DISTRICTS).astype(np.int32)
    if (district_ncells == 0).any():
        raise RulesError(f"rules: map.districts: district {int(np.argmin(district_ncells)) + 1} has no buildable space")
    district_cells = np.full((N_DISTRICTS, int(district_ncells.max())), -1, np.int32)
    for d in range(N_DISTRICTS):  # in map order (row by row, west to east)
        cs = np.flatnonzero((cell_district == d) & (buildable == 1))
        district_cells[d, :cs.size] = cs
    # Districts are adjacent when two of their spaces share a side: R-04's 8-adjacency is for
    # spaces, and districts meeting only at a corner (N1 and S2) do not border each other.
    district_adj = np.zeros((N_DISTRICTS, N_DISTRICTS), np.int32)
    for y in range(h):
        for x in range(w):
            d = cell_district[y * w + x]
            for dx, dy in ((1, 0), (0, 1)):
                if d >= 0 and x + dx < w and y + dy < h:
                    e = cell_district[(y + dy) * w + x + dx]
                    if e >= 0 and e != d:
                        district_adj[d, e] = district_adj[e, d] = 1
    pairs = []
    for c in range(nc):
        if not cell_cab[c]:
            continue
        x, y = c % w, c // w
        for dx, dy in ((1, 0), (0, 1)):
            if x + dx < w and y + dy < h and cell_cab[(y + dy) * w + x + dx]:
                pairs.append((c, (y + dy) * w + x + dx))
    if not pairs:
        raise RulesError("rules: map.special: no two adjacent Cabildo/Cathedral spaces for the Cathedral")
    names, sides = doc["map"].get("district_names"), doc["map"].get("district_sides")
    if not (isinstance(names, list) and len(names) == N_DISTRICTS and len(set(names)) == N_DISTRICTS):
        raise RulesError(f"rules: map.district_names: expected {N_DISTRICTS} different names, got {names!r}")
    if not (isinstance(sides, list) and len(sides) == N_DISTRICTS and set(sides) <= {"north", "south"}):
        raise RulesError(f"rules: map.district_sides: expected {N_DISTRICTS} of 'north' / 'south', got {sides!r}")
    district_north = np.array([sd == "north" for sd in sides], np.int32)
    return dict(cell_district=cell_district, cell_plaza=cell_plaza, cell_cab=cell_cab, cell_start=cell_start,
                cell_buildable=buildable, adj=adj, seg_district=seg_district, district_nseg=district_nseg,
                district_cells=district_cells, district_ncells=district_ncells, district_adj=district_adj,
                district_north=district_north, cath_pairs=np.array(pairs, np.int32), w=w, h=h)


_AFF_RES = {"wood": 0, "stone": 1, "precious": 2, "coins": 3}
_AFF_DISTRICT = {"walls": 1, "roads": 2}
_AFF_NAMES = {"buildings", "grid", "resource", "district", "load", "majors", "ignore_adjacency", "take_from",
              "discount_kinds", "counts_as", "rounding"}


# Parameters the engine supports only in a range (others: any integer).
_AFF_RANGES = {
    "held_extra_decades": (0, 1),  # card 59: the engine holds the worker for this decade or the next (two counters)
}


def _affiliates(doc: dict, loads: list) -> dict:
    """The [[affiliate]] rows (CARD REFERENCE > AFFILIATE CARDS) as arrays indexed by card id."""
    rows = doc.get("affiliate")
    n_cards = N_CHARACTERS + N_GROUPS * GROUP_SIZE
    n_aff = n_cards - N_CHARACTERS
    if not isinstance(rows, list) or len(rows) != n_aff:
        raise RulesError(f"rules: affiliate: expected {n_aff} [[affiliate]] rows (cards {N_CHARACTERS + 1}..{n_cards})")
    names = list(_get(doc, "cards.characters"))
    groups = [g.lower() for g in names]
    group = np.arange(n_cards, dtype=np.int32)
    light = np.zeros(n_cards, np.int32)
    p = np.zeros((n_cards, N_AP), np.int32)
    bld = np.zeros(n_cards, np.int32)
    grid = np.full(n_cards, -2, np.int32)
    res = np.full(n_cards, -1, np.int32)
    dist = np.zeros(n_cards, np.int32)
    load = np.full(n_cards, -1, np.int32)
    majors = np.zeros(n_cards, np.int32)
    load_names = [str(ld.get("name", "")) for ld in loads]
    for i, row in enumerate(rows):
        num = N_CHARACTERS + 1 + i
        key = f"affiliate[{num}]"
        if not isinstance(row, dict) or row.get("number") != num:
            got = row.get("number") if isinstance(row, dict) else row
            raise RulesError(f"rules: {key}.number: rows must be in card order {N_CHARACTERS + 1}..{n_cards}, got {got!r}")
        c = num - 1
        g = str(row.get("group", "")).lower()
        if g not in groups:
            raise RulesError(f"rules: {key}.group: allowed: {', '.join(names)}, got {row.get('group')!r}")
        if groups.index(g) != i // GROUP_SIZE:  # six cards per group in card-number order
            raise RulesError(f"rules: {key}.group: card {num} belongs to the {names[i // GROUP_SIZE]} group (R-09), got {row.get('group')!r}")
        group[c] = groups.index(g)
        if not isinstance(row.get("lightning"), bool):
            raise RulesError(f"rules: {key}.lightning: expected true or false")
        light[c] = int(row["lightning"])
        if row.get("source") not in ("rulebook", "ruling", "reading"):
            raise RulesError(f"rules: {key}.source: must be rulebook, ruling or reading")
        for pk, v in row.get("params", {}).items():
            if pk in _AFF_NAMES:
                continue
            if pk.upper() not in AP.__members__:
                raise RulesError(f"rules: {key}.params.{pk}: unknown parameter; allowed: {', '.join(a.name.lower() for a in AP)}")
            if isinstance(v, bool) or not isinstance(v, int):
                raise RulesError(f"rules: {key}.params.{pk}: expected an integer, got {v!r}")
            lo, hi = _AFF_RANGES.get(pk, (-(1 << 20), 1 << 20))
            if not lo <= v <= hi:
                raise RulesError(f"rules: {key}.params.{pk}: allowed {lo}..{hi}, got {v}")
            p[c, AP[pk.upper()]] = v
        prm = row.get("params", {})
        for b in prm.get("buildings", []):
            if b not in MINOR_NAMES:
                raise RulesError(f"rules: {key}.params.buildings: unknown building {b!r}")
            bld[c] |= 1 << MINOR_NAMES.index(b)
        if "grid" in prm:
            gname = prm["grid"]
            if gname != "any" and gname not in _MAJOR_KEYS:
                raise RulesError(f"rules: {key}.params.grid: allowed: any, {', '.join(_MAJOR_KEYS)}, got {gname!r}")
            grid[c] = -1 if gname == "any" else _MAJOR_KEYS.index(gname)
        if "resource" in prm:
            if prm["resource"] not in _AFF_RES:
                raise RulesError(f"rules: {key}.params.resource: allowed: {', '.join(_AFF_RES)}, got {prm['resource']!r}")
            res[c] = _AFF_RES[prm["resource"]]
        if "district" in prm:
            if prm["district"] not in _AFF_DISTRICT:
                raise RulesError(f"rules: {key}.params.district: allowed: {', '.join(_AFF_DISTRICT)}, got {prm['district']!r}")
            dist[c] = _AFF_DISTRICT[prm["district"]]
        if "load" in prm:
            ln = prm["load"]
            if ln == "3 identical":
                load[c] = -2
            elif ln in load_names:
                load[c] = load_names.index(ln)
            else:
                raise RulesError(f"rules: {key}.params.load: allowed: 3 identical, {', '.join(load_names)}, got {ln!r}")
        for m in prm.get("majors", []):
            if m not in _MAJOR_KEYS:
                raise RulesError(f"rules: {key}.params.majors: unknown Major building {m!r}")
            majors[c] |= 1 << _MAJOR_KEYS.index(m)
    return {"aff_group": group, "aff_lightning": light, "aff_p": p, "aff_buildings": bld, "aff_grid": grid,
            "aff_res": res, "aff_district": dist, "aff_load": load, "aff_majors": majors}


def _solo(doc: dict, k: np.ndarray) -> dict:
    """The [solo] section (TWO PLAYERS GAME & SOLO MODE): the A.I.'s strength, workers, Characters
    and its deck of Solo cards; fills the derived scalars of ``k``."""
    from sim.codes import AiCard

    names = list(_get(doc, "solo.strengths"))
    if not names or not all(isinstance(x, str) for x in names) or len(set(names)) != len(names):
        raise RulesError(f"rules: solo.strengths: expected distinct names, got {names!r}")
    strength = _get(doc, "solo.strength")
    if strength not in names:
        raise RulesError(f"rules: solo.strength: allowed: {', '.join(names)}, got {strength!r}")
    k[RK.AI_STRENGTH] = names.index(strength)
    workers = _ints(doc, "solo.workers", len(names))
    if (workers < 1).any():
        raise RulesError(f"rules: solo.workers: each strength needs 1 or more workers, got {workers.tolist()}")
    for rk, key in ((RK.AI_ODD_ROW, "solo.randomizer_odd_row"), (RK.AI_EVEN_ROW, "solo.randomizer_even_row")):
        v = _get(doc, key)
        if v not in ("top", "bottom"):
            raise RulesError(f"rules: {key}: allowed: top, bottom, got {v!r}")
        k[rk] = 0 if v == "top" else 1
    chars = _get(doc, "solo.characters")
    lower = [c.lower() for c in _get(doc, "cards.characters")]
    if not isinstance(chars, list) or not chars or len(chars) > N_CHARACTERS - 1 or \
            not all(isinstance(c, str) and c.lower() in lower for c in chars) or len({c.lower() for c in chars}) != len(chars):
        raise RulesError(f"rules: solo.characters: expected distinct Character names of cards.characters, got {chars!r}")
    deck = _get(doc, "solo.deck")
    kinds = [a.name.lower() for a in AiCard]
    if not isinstance(deck, list) or len(deck) != N_AI_CARDS or not all(x in kinds for x in deck):
        raise RulesError(f"rules: solo.deck: expected {N_AI_CARDS} Solo cards, each one of {', '.join(kinds)}, got {deck!r}")
    deck_workers = _ints(doc, "solo.deck_workers", N_AI_CARDS)
    if (deck_workers < 1).any():
        raise RulesError(f"rules: solo.deck_workers: every Solo card costs 1 or more workers, got {deck_workers.tolist()}")
    return {"ai_workers": workers, "ai_chars": np.array([lower.index(c.lower()) for c in chars], np.int32),
            "ai_deck": np.array([kinds.index(x) for x in deck], np.int32), "ai_deck_workers": deck_workers}


def _extended_war(doc: dict, mp: dict, w: int, h: int) -> dict:
    """The [extended_war] section (EXTENDED WAR) and its Combat Area, derived from the city map (R-04)."""
    from sim.codes import WP_NAMES
    from sim.state import MAX_TILES, N_AK, N_CARDS

    xk = np.zeros(N_XK, np.int32)
    for m in XK:
        if m in _XK_DERIVED:
            continue
        key = f"extended_war.{m.name.lower()}"
        xk[m] = _int(doc, key)
        lo, hi = _XK_RANGES.get(m, (0, 1 << 20))
        if not lo <= xk[m] <= hi:
            raise RulesError(f"rules: {key}: must be in {lo}..{hi}, got {xk[m]}")
    if xk[XK.OPPONENT_TILES] > MAX_TILES:
        raise RulesError(f"rules: extended_war.opponent_tiles: at most {MAX_TILES}")
    for key, xkey, names in (("extended_war.round_order", XK.ORDER_BY_TILE, ("card", "tile")),
                             ("extended_war.friends", XK.FRIENDS_SIDE, ("own", "side"))):
        v = _get(doc, key)
        if v not in names:
            raise RulesError(f"rules: {key}: allowed: {', '.join(names)}, got {v!r}")
        xk[xkey] = names.index(v)
    table = _get(doc, "extended_war.war_table")
    n_rows = int(xk[XK.TABLE_SKULL_ROWS]) + 4
    arr = np.array(table, dtype=object) if isinstance(table, list) else None
    if arr is None or arr.shape != (n_rows, 3, 2) or not all(isinstance(x, int) and x >= 0 for x in arr.ravel()):
        raise RulesError(f"rules: extended_war.war_table: expected {n_rows} rows (extended_war.table_skull_rows skull rows, "
                         f"then 5, 4, 3, 2 players) of 3 Eras of [elite, standard] counts >= 0, got {table!r}")
    xw_table = arr.astype(np.int32)
    if (xw_table.sum(axis=2) > xk[XK.OPPONENT_TILES]).any():
        raise RulesError(f"rules: extended_war.war_table: a cell needs more attackers than extended_war.opponent_tiles ({xk[XK.OPPONENT_TILES]})")
    pav = _ints(doc, "extended_war.player_av", 4)
    php = _ints(doc, "extended_war.player_hp", 4)
    aav = _ints(doc, "extended_war.attacker_av", N_AK)
    ahp = _ints(doc, "extended_war.attacker_hp", N_AK)
    if (php < 1).any() or (ahp < 1).any():
        raise RulesError("rules: extended_war.player_hp / attacker_hp: every miniature needs 1 or more HP")
    era = _ints(doc, "extended_war.control_era", GROUP_SIZE)
    if not np.isin(era, (1, 2, 3)).all():
        raise RulesError(f"rules: extended_war.control_era: each Era must be 1, 2 or 3, got {era.tolist()}")
    pillage = _ints(doc, "extended_war.pillage_score", 2)

    rows = _get(doc, "extended_war.power")
    n_aff = N_CARDS - N_CHARACTERS
    if not isinstance(rows, list) or len(rows) != n_aff:
        raise RulesError(f"rules: extended_war.power: expected {n_aff} [[extended_war.power]] rows (cards {N_CHARACTERS + 1}..{N_CARDS})")
    kind = np.zeros(N_CARDS, np.int32)
    prm = np.zeros((N_CARDS, N_XWP), np.int32)
    for i, row in enumerate(rows):
        num = N_CHARACTERS + 1 + i
        key = f"extended_war.power[{num}]"
        if not isinstance(row, dict) or row.get("card") != num:
            got = row.get("card") if isinstance(row, dict) else row
            raise RulesError(f"rules: {key}.card: rows must be in card order {N_CHARACTERS + 1}..{N_CARDS}, got {got!r}")
        if row.get("source") not in ("rulebook", "ruling", "reading"):
            raise RulesError(f"rules: {key}.source: must be rulebook, ruling or reading")
        kd = row.get("kind")
        if kd not in _WP_PARAMS:
            raise RulesError(f"rules: {key}.kind: allowed: {', '.join(_WP_PARAMS)}, got {kd!r}")
        kind[num - 1] = WP_NAMES.index(kd)
        given = set(row) - {"card", "kind", "source", "ref", "why"}
        if given != set(_WP_PARAMS[kd]):
            want = ", ".join(_WP_PARAMS[kd]) or "none"
            raise RulesError(f"rules: {key}: a {kd} power has the parameters {want}, got {', '.join(sorted(given)) or 'none'}")
        for pk in _WP_PARAMS[kd]:
            v = row[pk]
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 100:
                raise RulesError(f"rules: {key}.{pk}: expected an integer 0..100, got {v!r}")
            prm[num - 1, XWP[pk.upper()]] = v

    # the Combat Area is the city map: districts sharing a side are adjacent (orthogonal movement)
    adj = mp["district_adj"]
    nd = adj.shape[0]
    dist = np.full((nd, nd), -1, np.int32)
    for a in range(nd):
        dist[a, a] = 0
        frontier = [a]
        while frontier:
            nxt = []
            for x in frontier:
                for y in range(nd):
                    if adj[x, y] and dist[a, y] < 0:
                        dist[a, y] = dist[a, x] + 1
                        nxt.append(y)
            frontier = nxt
    # placement edges: a clockwise walk along the west (from the sea up), north and east (down to
    # the sea) edges of the map, one edge per district and side it touches; the sea side has none
    cd = mp["cell_district"]
    walk = [(0, y, 0) for y in range(h - 1, -1, -1)] + [(x, 0, 1) for x in range(w)] + [(w - 1, y, 2) for y in range(h)]
    edges: list[tuple[int, int]] = []
    for x, y, side in walk:
        d = int(cd[y * w + x])
        if d >= 0 and (d, side) not in edges:
            edges.append((d, side))
    if not edges:
        raise RulesError("rules: map.districts: no district touches the west, north or east edge (no Combat Area perimeter)")
    xk[XK.N_EDGES] = len(edges)
    return {"xw_k": xk, "xw_table": xw_table,
            "xw_player_av": np.concatenate([[0], pav]).astype(np.int32), "xw_player_hp": np.concatenate([[0], php]).astype(np.int32),
            "xw_att_av": aav, "xw_att_hp": ahp, "xw_att_box": _ints(doc, "extended_war.attacker_miniatures", N_AK),
            "xw_control_era": era, "xw_pillage_score": np.concatenate([[0], pillage]).astype(np.int32),
            "xw_power_kind": kind, "xw_power_p": prm, "xw_dist": dist, "xw_edges": np.array(edges, np.int32)}


def ai_strength_names(doc: dict | None = None) -> list[str]:
    """The A.I. strengths by index (``solo.strengths``)."""
    doc = doc or load_rules_doc()
    return list(_get(doc, "solo.strengths"))


def rules_from_doc(doc: dict) -> Rules:
    """Validate a rules document and pack it into :class:`Rules` arrays."""
    k = np.zeros(N_RK, np.int32)
    for rk, key in _RK_KEYS.items():
        k[rk] = _int(doc, key)
    mp = _build_map(doc)
    k[RK.MAP_W], k[RK.MAP_H] = mp.pop("w"), mp.pop("h")
    xw = _extended_war(doc, mp, int(k[RK.MAP_W]), int(k[RK.MAP_H]))
    solo = _solo(doc, k)

    nb = N_BUILDING_TYPES
    b_cost = np.zeros((nb, 5), np.int32)
    b_requires = np.zeros(nb, np.int32)
    b_cp, b_vp, b_dv, b_prod = (np.zeros(nb, np.int32) for _ in range(4))
    b_sup = np.full(nb, -1, np.int32)
    sup_of = {"quarry": Sup.QUARRY, "carpentry": Sup.CARPENTRY, "market": Sup.MARKET,
              "corporation": Sup.CORP_HACIENDA, "hacienda_wood": Sup.CORP_HACIENDA,
              "hacienda_stone": Sup.CORP_HACIENDA, "square": Sup.SQUARE, "monument": Sup.MONUMENT,
              "fountain": Sup.FOUNTAIN, "barracks": Sup.BARRACKS, "church": Sup.CHURCH, "palace": Sup.PALACE}
    for t in range(1, len(MINOR_NAMES)):
        name = MINOR_NAMES[t]
        base = f"building.{name}"
        for j, f in enumerate(("workers", "wood", "stone", "precious", "metal")):
            b_cost[t, j] = _int(doc, f"{base}.{f}")
        req = _get(doc, f"{base}.requires")
        if req != "none" and req not in MINOR_NAMES:
            raise RulesError(f"rules: {base}.requires: expected none or a building name, got {req!r}")
        b_requires[t] = 0 if req == "none" else MINOR_NAMES.index(req)
        b_cp[t] = _int(doc, f"{base}.cp")
        b_vp[t] = _int(doc, f"{base}.vp")
        b_dv[t] = _int(doc, f"{base}.district_value")
        b_prod[t] = int(bool(_get(doc, f"{base}.production")))
        if name in sup_of:
            b_sup[t] = sup_of[name]
    b_dv[B.CABILDO] = k[RK.DISTRICT_BONUS]
    b_dv[B.CATHEDRAL] = k[RK.DISTRICT_BONUS]

    rows = doc.get("activation")
    if not isinstance(rows, list) or not rows:
        raise RulesError("rules: activation: expected a list of [[activation]] rows")
    na = len(rows)
    act_b, act_w, act_kind, act_needs, act_needs_not, act_real = (np.zeros(na, np.int32) for _ in range(6))
    act_in = np.zeros((na, 6), np.int32)
    act_out = np.zeros((na, 9), np.int32)
    kinds = {"trade": 0, "soldier": 1, "veteran_soldier": 2}
    for i, r in enumerate(rows):
        key = f"activation[{i}]"
        if r.get("building") not in MINOR_NAMES[1:]:
            raise RulesError(f"rules: {key}.building: expected a minor building name, got {r.get('building')!r}")
        if r.get("source") not in ("rulebook", "ruling", "reading"):
            raise RulesError(f"rules: {key}.source: must be rulebook, ruling or reading")
        act_b[i] = MINOR_NAMES.index(r["building"])
        act_w[i] = int(r.get("workers", 1))
        for kk, v in r.get("inp", {}).items():
            if kk not in _IN_KEYS:
                raise RulesError(f"rules: {key}.inp.{kk}: allowed: {', '.join(_IN_KEYS)}")
            act_in[i, _IN_KEYS.index(kk)] = int(v)
        for kk, v in r.get("out", {}).items():
            if kk not in _OUT_KEYS:
                raise RulesError(f"rules: {key}.out.{kk}: allowed: {', '.join(_OUT_KEYS)}")
            act_out[i, _OUT_KEYS.index(kk)] = int(v)
        kind = r.get("kind", "trade")
        if kind not in kinds:
            raise RulesError(f"rules: {key}.kind: allowed: {', '.join(kinds)}, got {kind!r}")
        act_kind[i] = kinds[kind]
        needs = r.get("needs", "")
        act_needs[i] = act_needs_not[i] = -1
        if needs:
            neg = needs.startswith("!")
            nm = needs.lstrip("!")
            if nm not in _MAJOR_KEYS:
                raise RulesError(f"rules: {key}.needs: allowed: a Major building name, optionally with '!', got {needs!r}")
            if neg:
                act_needs_not[i] = _MAJOR_KEYS.index(nm)
            else:
                act_needs[i] = _MAJOR_KEYS.index(nm)
        act_real[i] = int(bool(r.get("real", False)))

    loads = doc.get("ship", {}).get("load")
    if not isinstance(loads, list) or not 1 <= len(loads) <= 8:
        raise RulesError("rules: ship.load: expected 1..8 [[ship.load]] rows (3 wood, 3 stone, triplet, coins...)")
    nl = len(loads)
    ship_put = np.array([ld["put"] for ld in loads], np.int32)
    ship_pay = np.array([ld["pay"] for ld in loads], np.int32)
    ship_spain = np.array([ld["spain"] for ld in loads], np.int32)
    if ship_put.shape != (nl, 5) or ship_pay.shape != (nl, 4) or ship_spain.shape != (nl, 4):
        raise RulesError("rules: ship.load: put has 5 entries, pay and spain 4")
    ship_needs = np.full(nl, -1, np.int32)
    ship_needs_not = np.full(nl, -1, np.int32)
    for i, ld in enumerate(loads):
        needs = ld.get("needs", "")
        if needs:
            nm = needs.lstrip("!")
            if nm not in _MAJOR_KEYS:
                raise RulesError(f"rules: ship.load[{i}].needs: allowed: a Major building name, optionally with '!', got {needs!r}")
            (ship_needs_not if needs.startswith("!") else ship_needs)[i] = _MAJOR_KEYS.index(nm)

    supply_n = np.zeros((4, N_SUP), np.int32)
    for j, name in enumerate(SUPPLY_KEYS):
        supply_n[:, j] = _ints(doc, f"supply.{name}", 4)
    # the whole box of cubes and coins starts in the game supply (setup fills the grids and stacks
    # from it), and so do the Peace markers (SETUP 4e: "at the end of the tension tracks")
    for slot, key in ((Sup.WOOD, "components.wood"), (Sup.STONE, "components.stone"),
                      (Sup.PRECIOUS, "components.precious"), (Sup.METAL, "components.metal"),
                      (Sup.SILVER, "components.silver"), (Sup.BRONZE, "components.bronze"),
                      (Sup.PEACE, "setup.peace_markers")):
        supply_n[:, slot] = _int(doc, key)

    major_spaces = np.zeros((6, 4), np.int32)
    major_space_vp = np.zeros((6, MAX_MAJOR_SPACES), np.int32)
    for m, name in enumerate(_MAJOR_KEYS):
        sp = _ints(doc, f"major.{name}.spaces", 4)
        vp = _ints(doc, f"major.{name}.space_vp")
        if len(vp) > MAX_MAJOR_SPACES or sp.max() > len(vp):
            raise RulesError(f"rules: major.{name}.spaces: at most {min(len(vp), MAX_MAJOR_SPACES)} (the printed spaces), got {sp.tolist()}")
        if sp.min() < 1:
            raise RulesError(f"rules: major.{name}.spaces: every grid needs at least 1 space")
        major_spaces[m] = sp
        major_space_vp[m, : len(vp)] = vp

    council_vp = _ints(doc, "council.vp", 16)
    n_pen = k[RK.PENALTY_MAX] - k[RK.PENALTY_MIN] + 1
    penalty_vp = _ints(doc, "war.penalty_vp")
    if len(penalty_vp) != n_pen:
        raise RulesError(f"rules: war.penalty_vp: needs one entry per position war.penalty_min..war.penalty_max ({n_pen}), got {len(penalty_vp)}")
    if k[RK.COUNCIL_MIN] > k[RK.COUNCIL_MAX] or not k[RK.COUNCIL_MIN] <= k[RK.COUNCIL_START] <= k[RK.COUNCIL_MAX]:
        raise RulesError("rules: setup.council_start: need council.track_min <= setup.council_start <= council.track_max")
    # a building's activation rows, so that listing them does not scan every row (sim.actions)
    act_rows = np.full((N_BUILDING_TYPES, na), -1, np.int32)
    act_nrows = np.zeros(N_BUILDING_TYPES, np.int32)
    for i in range(na):
        act_rows[act_b[i], act_nrows[act_b[i]]] = i
        act_nrows[act_b[i]] += 1
    if k[RK.RED_ZONE] >= k[RK.TENSION_SPACES]:
        raise RulesError(f"rules: tension.red_zone_start: must be < tension.spaces ({k[RK.TENSION_SPACES]})")

    r = Rules(
        k=k, b_cost=b_cost, b_requires=b_requires, b_cp=b_cp, b_vp=b_vp, b_dv=b_dv, b_prod=b_prod, b_sup=b_sup,
        act_b=act_b, act_w=act_w, act_in=act_in, act_out=act_out, act_kind=act_kind, act_needs=act_needs,
        act_needs_not=act_needs_not, act_real=act_real, act_rows=act_rows, act_nrows=act_nrows, ship_put=ship_put, ship_pay=ship_pay,
        ship_spain=ship_spain, ship_needs=ship_needs, ship_needs_not=ship_needs_not, supply_n=supply_n, grid_cubes=_ints(doc, "setup.grid_cubes", 4),
        council_gain=_ints(doc, "actions.council_gain", 2), council_vp=council_vp,
        vote_tiles=_ints(doc, "council.vote_tiles", 4),
        st_workers=_ints(doc, "status.level_workers", 3), st_silver=_ints(doc, "status.level_silver", 3),
        vp_bonus_pct=_ints(doc, "status.vp_bonus_pct", 3), card_free=_ints(doc, "status.card_salary_free", 3),
        card_l3_half=_ints(doc, "status.card_l3_half_vp_per_colour", 4),
        worker_cc=_ints(doc, "status.worker_council_workers", 3),
        worker_bronze=_ints(doc, "status.worker_bronze", 3),
        war_av=np.concatenate([[0], _ints(doc, "war.av", 4)]).astype(np.int32),
        war_wo=np.concatenate([[0], _ints(doc, "war.wounds_max", 4)]).astype(np.int32),
        penalty_vp=penalty_vp,
        ten_single=_ints(doc, "tension.single_modifier", 8), ten_double=_ints(doc, "tension.double_modifier", 8),
        major_first_vp=_ints(doc, "major.first_vp", 6),
        major_rep=np.array([int(bool(x)) for x in _get(doc, "major.repeatable")], np.int32),
        major_spaces=major_spaces, major_space_vp=major_space_vp,
        major_vp_order=np.argsort(-major_space_vp, axis=1, kind="stable").astype(np.int32),
        back_symbols=np.array(_get(doc, "cards.back_symbols"), np.int32).reshape(6, 2),
        banner_vp=_ints(doc, "scoring.banner_vp_per_era", 7), banner_steps=_banner_steps(doc),
        series_vp=_ints(doc, "scoring.series_vp", 8),
        series_vp_cab=_ints(doc, "scoring.series_vp_cabildo", 8),
        char_bonus=_ints(doc, "character.small_game_bonus", 12),
        architect_n=_ints(doc, "character.architect_buildings", 2),
        architect_vp=_ints(doc, "character.architect_vp", 2),
        **mp,
        **_affiliates(doc, loads),
        **solo,
        **xw,
        xw_compiled=compiled_parts.marker(compiled_parts.EXTENDED_WAR, bool(xw["xw_k"][XK.ENABLED])),
        ai_compiled=compiled_parts.marker(compiled_parts.SOLO_AI, False),
    )
    return pack(r)  # one record: the jitted engine takes it as a single pointer (see sim.state)


def load_rules(path: str | Path | None = None, overrides: dict | str | Path | None = None) -> Rules:
    """Load the rules file (default: the bundled one), apply overrides, validate, pack."""
    return rules_from_doc(load_rules_doc(path, overrides))


def rules_hash(doc: dict) -> str:
    """A stable hash of the resolved rules document (for run manifests)."""
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


def character_names(doc: dict | None = None) -> list[str]:
    doc = doc or load_rules_doc()
    return list(_get(doc, "cards.characters"))


def major_names(doc: dict | None = None) -> list[str]:
    doc = doc or load_rules_doc()
    return list(_get(doc, "major.names"))
