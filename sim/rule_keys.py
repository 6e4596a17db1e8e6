"""The rules' keys and their tags: the scalars of the rules record and the dotted keys of the rules
file they come from (``RK``, ``XK``), the parameter slots of the Affiliate cards' powers (``AP``) and
of the EXTENDED WAR's war powers (``XWP``), the ranges a value is checked against on load, the columns
of the record's tables (``OUT_RES``, ``COST_RES``...) and the record itself (:class:`Rules`).

No code of the engine reads the rules file: :mod:`sim.rules` packs it into :class:`Rules`. The
jitted kernels freeze the enums, sizes and column numbers of this module into their machine code,
so the engine's cache folder follows this file (``sim.engine_hash``). It imports no compiler
(:mod:`sim.rule_overrides` and the readers of a run's rules import it without loading Numba).
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from sim.state import N_AI_CARDS


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
    CH_CARPENTER_MOST = 78
    CH_CARPENTER_MORE_THAN_ALL = 79
    CH_MERCHANT_MAX = 80
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
    # the numbers the Carpenter, Stonemason, Merchant and Sailmaker print alike, each card's own (78-80: the
    # Carpenter's and the Merchant's, the slots the shared numbers had)
    CH_STONEMASON_MOST = 117
    CH_STONEMASON_MORE_THAN_ALL = 118
    CH_MERCHANT_MOST = 119
    CH_SAILMAKER_MOST = 120
    CH_SAILMAKER_MAX = 121


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
XK_DERIVED = (XK.ORDER_BY_TILE, XK.FRIENDS_SIDE, XK.N_EDGES)
XK_RANGES = {XK.ENABLED: (0, 1), XK.TABLE_SKULL_ROWS: (0, 8), XK.INITIATIVE_BASE: (1, 5), XK.INITIATIVE_MODULUS: (1, 5),
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
WP_PARAMS = {
    "av": ("av",), "remove_wound_area": ("wounds", "adjacent"), "av_per_opponent_near": ("standard_av", "elite_av", "adjacent"),
    "immobilise": ("turns",), "av_per_move": ("av",), "swap_bonus": (), "wound_winners": ("wounds",),
    "walls_factor": ("factor",), "cancel_lower": ("cards",), "cancel_higher": ("cards",), "av_per_wounded_near": ("av",),
    "free_move_nearest": ("moves",), "standard_as_elite": (), "elite_as_standard": (), "wound_before": ("wounds",),
    "shield": ("blocks",), "heal_area": ("heals",), "move_away": ("moves",), "av_per_fight": ("av",),
    "fight_again": ("av", "moves"), "recruit": ("miniatures",),
}

# dotted key in the rules file for each scalar
RK_KEYS = {
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
    RK.CH_CARPENTER_MOST: "character.carpenter_most_vp", RK.CH_CARPENTER_MORE_THAN_ALL: "character.carpenter_more_than_all_vp",
    RK.CH_STONEMASON_MOST: "character.stonemason_most_vp",
    RK.CH_STONEMASON_MORE_THAN_ALL: "character.stonemason_more_than_all_vp",
    RK.CH_MERCHANT_MOST: "character.merchant_most_vp", RK.CH_MERCHANT_MAX: "character.merchant_max_vp",
    RK.CH_SAILMAKER_MOST: "character.sailmaker_most_vp", RK.CH_SAILMAKER_MAX: "character.sailmaker_max_vp",
    RK.CH_DEFENDER: "character.defender_per_district",
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
RK_DERIVED = (RK.MAP_W, RK.MAP_H, RK.AI_STRENGTH, RK.AI_ODD_ROW, RK.AI_EVEN_ROW)
assert len(RK_KEYS) == N_RK - len(RK_DERIVED)

# Ranges checked on load: (min, max) inclusive. Anything not listed must be >= 0 unless negative below.
NEGATIVE_OK = {"grids.last_item_vp", "warehouse.vp_per_item", "cards.salary_vp_per_unpaid",
                "council.below_one_vp_base", "council.below_one_vp_per_point", "war.penalty_min",
                "scoring.production_penalty", "war.penalty_vp"}
RANGES = {
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



OUT_KEYS = ["grid_wood", "grid_stone", "grid_precious", "supply_wood", "supply_stone", "supply_metal",
             "silver", "bronze", "faith"]
OUT_METAL = OUT_KEYS.index("supply_metal")  # the metal column of Rules.act_out
# Rules.act_out columns that give wood, stone, precious (from a grid or the supply), by Res
OUT_RES = ((OUT_KEYS.index("grid_wood"), OUT_KEYS.index("supply_wood")),
           (OUT_KEYS.index("grid_stone"), OUT_KEYS.index("supply_stone")),
           (OUT_KEYS.index("grid_precious"), OUT_KEYS.index("grid_precious")))
PAY_METAL = 2  # the metal column of Rules.ship_pay ([silver, bronze, metal, faith])
COST_RES = 1  # Rules.b_cost columns [workers, wood, stone, precious, metal]: wood, stone, precious from this one, by Res
IN_KEYS = ["wood", "stone", "precious", "metal", "silver", "bronze"]
MAJOR_KEYS = ["cathedral", "fort", "cabildo", "harbor", "roads", "walls"]
