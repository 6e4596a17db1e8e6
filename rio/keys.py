"""Río de la Plata's rule names: the IntEnums that index :class:`rio.packing.Rules` (the rulebook's components,
in its tables' order, and the arrays' columns), the scalar key table ``K`` (``Rules.k``; each member is a dotted
key of ``rulesdata/rio-de-la-plata.toml``) and what values each key allows.

Every bad input is one :class:`RulesError` line naming the key. Plain Python, no compiler; imports nothing of
the project (every other module of the rules reads its names from here).
"""

from __future__ import annotations

import re
from enum import IntEnum

__all__ = [  # re-exported by rio.rules, the front door
    "ANY_SIGN", "BK", "CHOICES", "CK", "FREE_LENGTH", "K", "K_KEYS", "K_OF", "LK", "MK", "NON_POSITIVE", "OK", "PLAYER_COUNTS", "PLAZA",
    "POSITIVE", "Activation", "Building", "Count", "District", "Edge", "Enemy", "Exchange", "Good", "Level", "Major", "Needs", "Office",
    "Placement", "Pool", "RulesError", "Side", "TieBreak", "count_index", "level_index", "member_names",
]


class RulesError(ValueError):
    """A rules file or override is invalid; the message is one line naming the key."""


def _enum(name: str, members: str, doc: str | None = None) -> type[IntEnum]:
    """The IntEnum ``name`` of ``members`` (names apart by white space) numbered 0, 1, ... in their order: a
    component's members in the rulebook's order, an array's columns in the packing's; ``doc`` its docstring."""
    e = IntEnum(name, members.split(), module=__name__, start=0)
    if doc:
        e.__doc__ = doc
    return e


# ---------------------------------------------------------------------------------------------- the game's components
# Each an IntEnum numbered 0, 1, ... in the order named (the rules file names the members in lower case).
Level = _enum("Level", "BEGINNER INTERMEDIATE EXPERT", "Experience levels (HOW TO LEARN THE GAME); ``level.names`` in this order.")
Count = _enum("Count", "TWO THREE FOUR FIVE", "Lists by player count: index = players - 2.")
PLAYER_COUNTS = tuple(c + 2 for c in Count)
Good = _enum("Good", "WOOD STONE PRECIOUS SILVER VP", "What an exchange pays or gains: the three resources, silver coins, VP.")

Building = _enum("Building", "HUT HOUSE STONECUTTER CARPENTER MARKET CORPORATION SQUARE MONUMENT GARDEN BARRACKS CHURCH",
                 "The minor buildings (MINOR BUILDING CHARACTERISTICS), in the table's order.")
BK = _enum("BK", "WORKERS WOOD STONE PRECIOUS VP REQUIRES ACTIVATION OWNED PER_DISTRICT DISTRICT_VALUE PRODUCTION ATTACKER_VP NOBLE",
           "Columns of ``Rules.building``. REQUIRES: the Building replaced, -1 none; ACTIVATION: an Activation.")
Activation = _enum("Activation", "NONE WORKER PASSIVE")
Pool = _enum("Pool", "HUT_HOUSE SQUARE_MONUMENT SQUARE_GARDEN CHURCH_BARRACKS MARKET_CORPORATION STONECUTTER_CARPENTER",
             "Tile pools (CONTENTS OF THE GAME BOX): each double-sided pool is shared by its two buildings.")
Exchange = _enum("Exchange", """STONECUTTER CARPENTER MARKET_WOOD MARKET_STONE MARKET_PRECIOUS
                                CORPORATION_WOOD CORPORATION_STONE CORPORATION_PRECIOUS CHURCH CHURCH_CATHEDRAL""",
                 "One activation of a minor building (BUILDING ACTIVATION; one worker = one exchange, RP-03).")
Needs = _enum("Needs", "NONE CATHEDRAL NO_CATHEDRAL")

Major = _enum("Major", "PALACE CATHEDRAL FORT HARBOR WALLS ROADS", "The Major buildings (2. ON THE BUILDING GRIDS OUTSIDE THE CITY).")
MK = _enum("MK", "WOOD STONE WOOD_OR_STONE COMPLETION_VP REPEATABLE PIECES DISTRICT_VALUE ATTACKER_VP PLACEMENT SHORT_REMOVED",
           "Columns of ``Rules.major``. PLACEMENT: a Placement.")
Placement = _enum("Placement", "RING FIXED WALL_EDGES ROAD_SEGMENTS")

Office = _enum("Office", """GUNNER GENERAL ROADMAKER DEFENDER MASTER_STONECUTTER MASTER_CARPENTER MASTER_ARTISAN MASTER_MERCHANT
                            SHIPOWNER BISHOP ARCHITECT GOVERNOR""", "The twelve Public Offices, in the PUBLIC OFFICE TABLE's order.")
OK = _enum("OK", "COST VP_REQUIRED END_VP", "Columns of ``Rules.office``.")

Enemy = _enum("Enemy", "NATIVES PIRATES")
District = _enum("District", "D1 D2 D3 D4 D5 D6 D7 D8", 'The eight districts, "1 2 3 4 / 5 6 7 8" (THE CITY DISTRICTS; RP-07).')
PLAZA = -1  # Rules.map_district value of a Plaza Mayor space
Side = _enum("Side", "NORTH EAST SOUTH WEST")
Edge = _enum("Edge", "INNER OPEN WALL", "``Rules.map_edge``: an edge between two city spaces, an open outer edge (an access point), a printed wall.")
TieBreak = _enum("TieBreak", "SILVER_LEFT PRECIOUS WOOD_AND_STONE")

LK = _enum("LK", "START_WOOD START_STONE START_SILVER ATTACKER_BONUS", "Columns of ``Rules.level`` (by experience level).")
CK = _enum("CK", "RULES_PLAYERS WARS_PER_PLAYER ENEMY_RETREAT BONUS_MODIFIER SHIP_CAPACITY",
           "Columns of ``Rules.by_count`` (by player count). RULES_PLAYERS: the count whose layouts apply (2 -> 3, RP-24).")


# ---------------------------------------------------------------------------------------------- the key table
# Scalar rules in ``Rules.k``: each member is the dotted key of the rules file (K.WAR_FREE_TOKENS = "war.free_tokens").
K_KEYS = (
    "game.turns", "game.first_year", "game.workers", "game.usable_workers", "game.order_markers", "game.workers_per_turn",
    "game.start_vp", "game.negative_vp",
    "level.mixed_tables",
    "setup.last_player_wood", "setup.last_player_stone",
    "placement.max_workers_per_space", "placement.colours_per_space", "placement.buildings_per_space_per_turn",
    "placement.adjacency", "placement.plaza_workers", "placement.substitution_factor", "placement.substitution_sacrificed",
    "placement.substitution_max_removed", "placement.first_turn_start_line_only", "placement.house_adjacent_to_activate",
    "placement.upgrade_workers_exception",
    "map.width", "map.height", "map.district_count", "map.south_walled", "map.war_adjacency",
    "square.min_neighbours", "square.squares_count", "square.walls_count", "square.majors_count",
    "tiles.wall_road_pieces",
    "activation.per_turn", "activation.per_turn_road_connected",
    "major.ineffective_worker_vp", "major.pay_in_placement", "major.refuse_to_pay",
    "mine_forest.resources_per_space",
    "field.workers_per_silver",
    "artisan.workers_per_trade", "artisan.inputs",
    "ship.needs_harbor", "ship.resources_per_dock_worker", "ship.capacity_per_player", "ship.paid_departure_silver",
    "ship.pay_in_placement", "ship.full_departs_free", "ship.voyage_turns", "ship.wood_silver", "ship.stone_silver",
    "ship.precious_silver", "ship.precious_vp", "ship.triplet_silver", "ship.triplet_vp", "ship.no_load_while_away",
    "ship.empty_departs", "ship.triplets_first",
    "office.fine_vp", "office.per_player_per_turn", "office.workers_per_office", "office.powers_delay_turns",
    "office.fine_pays_nothing",
    "office.gunner.cannon_kill_vp", "office.gunner.cannon_roll_bonus",
    "office.general.extra_tokens", "office.general.battle_kill_vp", "office.general.any_minor_building",
    "office.roadmaker.free_roads", "office.roadmaker.connected_district_vp",
    "office.defender.free_walls", "office.defender.closed_district_vp",
    "office.master_stonecutter.free_stone", "office.master_carpenter.free_wood", "office.master_artisan.free_precious",
    "office.master_merchant.free_any",
    "office.shipowner.departure_silver", "office.shipowner.shipment_vp",
    "office.bishop.church_vp", "office.architect.major_vp",
    "office.governor.district_vp", "office.governor.noble_min", "office.governor.noble_distinct",
    "order.fewest_added_first", "order.tie", "order.added_count_toward_turn", "order.keep_added_if_staying",
    "enemies.min_value", "enemies.max_value", "enemies.dice", "enemies.die_faces", "enemies.both_means",
    "enemies.player_count_modifier_on", "enemies.bonus_min",
    "war.forced_last_turn", "war.forced_wars", "war.forced_enemy", "war.attacker_from", "war.attackers_per_city_worker",
    "war.attackers_per_defending_player", "war.attacker_workers_inactive", "war.attackers_general_unused", "war.closed_city_no_war",
    "war.max_group", "war.cannon_fixed", "war.cannon_dice", "war.cannon_die_faces", "war.cannons_need_fort",
    "war.cannons_by_fewest_vp_defender", "war.cannon_bet_min",
    "war.free_tokens", "war.token_price_step", "war.max_tokens_per_space", "war.bonus_move", "war.bonus_moves_per_group",
    "war.pirates_dominance", "war.natives_dominance", "war.barracks_dominance", "war.dominance_survivors",
    "war.building_battle_losses", "war.defender_kill_vp", "war.defender_loss_vp",
    "war.sacrificed_vp", "war.rounds_without_battle", "war.max_rounds", "war.mixed_vp_rounding",
    "money.resource_price_step", "money.resources_bought", "money.silver_per_gold",
    "trade.players_trade",
    "scoring.silver_per_vp", "scoring.house_vp", "scoring.production_free", "scoring.production_penalty",
    "scoring.house_min_vp",
    "two_player.plays_as", "two_player.shadow", "two_player.shadow_grids_only", "two_player.shadow_counts_toward_turn",
    "two_player.shadow_scores", "two_player.paired_tokens", "two_player.general_ignored_for_attacker",
    "short_game.turns", "short_game.start_silver", "short_game.start_wood", "short_game.start_stone",
    "short_game.office_end_vp", "short_game.forced_last_turn_war",
)
K = IntEnum("K", {key.upper().replace(".", "_"): i for i, key in enumerate(K_KEYS)})
K.__doc__ = "Scalar rules in ``Rules.k``; K.<SECTION>_<NAME> is the dotted key section.name (``K_KEYS``)."
K_OF = {key: K(i) for i, key in enumerate(K_KEYS)}

# String rules: the values allowed, packed as their index.
CHOICES: dict[str, tuple[str, ...]] = {
    "level.mixed_tables": ("least experienced", "most experienced"),
    "placement.adjacency": ("8 neighbours", "4 neighbours"),
    "map.war_adjacency": ("4 neighbours", "8 neighbours"),
    "artisan.inputs": ("wood or stone", "any resource"),
    "order.tie": ("later first", "earlier first"),
    "enemies.both_means": ("pirates", "natives"),
    "war.forced_enemy": ("higher marker", "pirates", "natives"),
    "war.attacker_from": ("last", "first"),
    "war.mixed_vp_rounding": ("half up", "half down"),
    "money.resources_bought": ("wood and stone costs",),
}

# Integer rules that may be negative (penalties and modifiers); NON_POSITIVE must be <= 0.
ANY_SIGN = {"game.start_vp", "level.attacker_bonus", "enemies.player_count_modifier"}
NON_POSITIVE = {"major.ineffective_worker_vp", "office.fine_vp", "scoring.production_penalty"}
# At least 1 (a count of things that must exist for the rule to work).
POSITIVE = {"game.turns", "game.workers", "game.usable_workers", "game.workers_per_turn", "placement.max_workers_per_space",
            "placement.substitution_factor", "map.width", "map.height", "activation.per_turn", "activation.per_turn_road_connected",
            "field.workers_per_silver", "artisan.workers_per_trade", "ship.resources_per_dock_worker", "ship.voyage_turns",
            "enemies.dice", "enemies.die_faces", "enemies.max_value", "war.max_group", "war.cannon_dice", "war.cannon_die_faces",
            "war.rounds_without_battle",
            "war.max_rounds", "money.silver_per_gold", "scoring.silver_per_vp", "short_game.turns", "two_player.plays_as"}
# Lists whose length is data (an override may change it); every other list keeps its length.
FREE_LENGTH = re.compile(r"^(major\.\w+\.space_(vp|players)|mine_forest\.space_(workers|players)|building\.\w+\.tiles|tiles\.per_colour)$")


def member_names(e: type[IntEnum]) -> list[str]:
    """The members' names in lower case, in order: the names the rules file uses (``level.names``, sections)."""
    return [m.name.lower() for m in e]


def count_index(players: int) -> Count:
    """The index of ``players`` in lists by player count."""
    if players not in PLAYER_COUNTS:
        raise RulesError(f"rules: players: allowed {PLAYER_COUNTS[0]}..{PLAYER_COUNTS[-1]}, got {players!r}")
    return Count(players - PLAYER_COUNTS[0])


def level_index(name: str | int | Level) -> Level:
    """An experience level by name ("beginner", "intermediate", "expert") or index."""
    if isinstance(name, str):
        if name.lower() not in member_names(Level):
            raise RulesError(f"rules: level: allowed: {', '.join(member_names(Level))}, got {name!r}")
        return Level[name.upper()]
    try:
        return Level(name)
    except ValueError:
        raise RulesError(f"rules: level: allowed: {', '.join(member_names(Level))}, got {name!r}") from None
