"""The rulebook's small formulas over the packed rules (:class:`rio.rules.Rules`): plain Python, pure
functions of their arguments, so the worked examples of the rulebook can be checked against the data.
The engine will compute the same numbers in its compiled code; these are the specification's reference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rio.rules import BK, CK, LK, MK, Building, K, Level, Major, Rules, count_index


def enemy_bonus(r: Rules, value: int, level: Level | int, players: int) -> int:
    """BONUS AND NUMBER OF ATTACKERS: the track's bonus at ``value`` (0 off the track), modified by the
    experience level and (when on) by the player count; never below ``enemies.bonus_min``."""
    lo = int(r.k[K.ENEMIES_BONUS_MIN])
    b = int(r.enemy_bonus[value]) if 0 <= value < len(r.enemy_bonus) else 0
    b = max(lo, b + int(r.level[level, LK.ATTACKER_BONUS]))
    if r.k[K.ENEMIES_PLAYER_COUNT_MODIFIER_ON]:
        b = max(lo, b + int(r.by_count[count_index(players), CK.BONUS_MODIFIER]))
    return b


def attackers(r: Rules, city_workers: int, defending_players: int, bonus: int) -> int:
    """Number of attackers = Workers in the City + Defending players x 2 + Bonus."""
    return city_workers * int(r.k[K.WAR_ATTACKERS_PER_CITY_WORKER]) + defending_players * int(r.k[K.WAR_ATTACKERS_PER_DEFENDING_PLAYER]) + bonus


def cannon_target(r: Rules, bet: int) -> int:
    """CANNONS: the minimum two-dice score for a bet (6 + bet)."""
    return int(r.k[K.WAR_CANNON_FIXED]) + bet


def cannon_kills(r: Rules, bet: int, roll: int, gunner: bool) -> int:
    """Attackers the cannons kill: the bet if the roll (+1 with the Gunner) reaches 6 + bet, else none."""
    if bet < r.k[K.WAR_CANNON_BET_MIN]:
        raise ValueError(f"bet must be >= {int(r.k[K.WAR_CANNON_BET_MIN])}, got {bet}")
    score = roll + (int(r.k[K.OFFICE_GUNNER_CANNON_ROLL_BONUS]) if gunner else 0)
    return bet if score >= cannon_target(r, bet) else 0


def cannon_vp(r: Rules, kills: int, gunner: bool) -> int:
    """VP for the cannons' kills: only the Gunner scores them (2 VP each)."""
    return kills * int(r.k[K.OFFICE_GUNNER_CANNON_KILL_VP]) if gunner else 0


def grid_vps(r: Rules, major: Major | int, players: int, short: bool = False) -> list[int]:
    """The printed VP of a Major building grid's spaces in play, in printed order."""
    on = (r.major_space_on_short if short else r.major_space_on)[count_index(players), major]
    return [int(v) for v, o in zip(r.major_space_vp[major], on) if o]


def grid_removed_short(r: Rules, major: Major | int, players: int) -> list[int]:
    """The printed VP of the spaces the Short game removes."""
    c = count_index(players)
    return [int(v) for v, a, b in zip(r.major_space_vp[major], r.major_space_on[c, major], r.major_space_on_short[c, major]) if a and not b]


def completion_vp(r: Rules, major: Major | int, own_spaces_vp: Sequence[int], completer: bool) -> int:
    """VP a player takes when a grid completes: his spaces' printed VP, plus the completer's bonus."""
    return sum(own_spaces_vp) + (int(r.major[major, MK.COMPLETION_VP]) if completer else 0)


def substitution(r: Rules, occupants: int) -> tuple[int, int]:
    """1) INSIDE THE CITY MAP: removing ``occupants`` workers takes twice as many; one of them is
    sacrificed. Returns (workers placed, workers that remain)."""
    if not 1 <= occupants <= r.k[K.PLACEMENT_SUBSTITUTION_MAX_REMOVED]:
        raise ValueError(f"occupants must be in 1..{int(r.k[K.PLACEMENT_SUBSTITUTION_MAX_REMOVED])}, got {occupants}")
    placed = occupants * int(r.k[K.PLACEMENT_SUBSTITUTION_FACTOR])
    return placed, placed - int(r.k[K.PLACEMENT_SUBSTITUTION_SACRIFICED])


def district_value(r: Rules, buildings: Mapping[Building, int], majors: Sequence[Major] = (), road_connected: bool = False) -> int:
    """VICTORY POINTS AT THE END OF THE GAME: a district's bonus/penalty from the buildings in it."""
    prod = sum(n for b, n in buildings.items() if r.building[b, BK.PRODUCTION])
    v = int(r.k[K.SCORING_PRODUCTION_PENALTY]) * max(0, prod - int(r.k[K.SCORING_PRODUCTION_FREE]))
    v += sum(n * int(r.building[b, BK.DISTRICT_VALUE]) for b, n in buildings.items())
    v += sum(int(r.major[m, MK.DISTRICT_VALUE]) for m in majors if m != Major.ROADS)
    if road_connected:
        v += int(r.major[Major.ROADS, MK.DISTRICT_VALUE])
    return v


def house_vp(r: Rules, value: int) -> int:
    """Each House: 2 VP plus its district's value, at least 0."""
    return max(int(r.k[K.SCORING_HOUSE_MIN_VP]), int(r.k[K.SCORING_HOUSE_VP]) + value)


def money_vp(r: Rules, silver: int) -> tuple[int, int]:
    """1 VP per 3 silver coins handed in; returns (VP, coins left: the first tie-break)."""
    per = int(r.k[K.SCORING_SILVER_PER_VP])
    return silver // per, silver % per


def ship_capacity(r: Rules, players: int) -> int:
    return int(r.by_count[count_index(players), CK.SHIP_CAPACITY])


def ship_load_limit(r: Rules, dock_workers: int) -> int:
    """Resources a player may load in a turn: 3 for each of his dock workers."""
    return dock_workers * int(r.k[K.SHIP_RESOURCES_PER_DOCK_WORKER])


def ship_payout(r: Rules, wood: int, stone: int, precious: int) -> tuple[int, int]:
    """A player's (silver, VP) when the Ship returns: triplets first (RP-13), then single cubes."""
    t = min(wood, stone, precious) if r.k[K.SHIP_TRIPLETS_FIRST] else 0
    w, s, p = wood - t, stone - t, precious - t
    silver = t * int(r.k[K.SHIP_TRIPLET_SILVER]) + w * int(r.k[K.SHIP_WOOD_SILVER]) + s * int(r.k[K.SHIP_STONE_SILVER]) \
        + p * int(r.k[K.SHIP_PRECIOUS_SILVER])
    vp = t * int(r.k[K.SHIP_TRIPLET_VP]) + p * int(r.k[K.SHIP_PRECIOUS_VP])
    return silver, vp


def escalating_price(step: int, n: int) -> int:
    """The 1st costs step, the 2nd 2 x step, ...: the price of n together."""
    return step * n * (n + 1) // 2


def virtual_resources_price(r: Rules, n: int) -> int:
    """TRADES AND MONEY USE: silver for the first n wood/stone a player pays with money in a turn."""
    return escalating_price(int(r.k[K.MONEY_RESOURCE_PRICE_STEP]), n)


def defender_tokens_price(r: Rules, n: int) -> int:
    """WAR (step 4): silver for n bought defending tokens (2 players: n tokens of each colour)."""
    return escalating_price(int(r.k[K.WAR_TOKEN_PRICE_STEP]), n)


def mine_workers(r: Rules, players: int, resources: int) -> int:
    """Workers one player needs for ``resources`` cubes on one Mine/Forest track, taking the cheapest spaces."""
    on = r.mine_space_on[count_index(players)]
    costs = [int(w) for w, o in zip(r.mine_space_workers, on) if o]
    if resources > len(costs):
        raise ValueError(f"only {len(costs)} spaces at {players} players")
    return sum(costs[:resources])


def field_silver(r: Rules, workers: int) -> int:
    return workers // int(r.k[K.FIELD_WORKERS_PER_SILVER])


def battle(r: Rules, attackers_n: int, defenders_n: int, attacker_dominant: bool, defender_dominant: bool) -> tuple[int, int]:
    """BATTLE between two groups: the bigger wins unharmed; equal groups both go, but 1 token of the side
    with dominance survives (none if both have it). Returns (attackers left, defenders left)."""
    if attackers_n > defenders_n:
        return attackers_n, 0
    if defenders_n > attackers_n:
        return 0, defenders_n
    keep = int(r.k[K.WAR_DOMINANCE_SURVIVORS])
    if attacker_dominant and not defender_dominant:
        return keep, 0
    if defender_dominant and not attacker_dominant:
        return 0, keep
    return 0, 0


def building_battle(r: Rules, attackers_n: int) -> int:
    """Surviving attackers on a building: the building and ONE token go. Returns attackers left."""
    return max(0, attackers_n - int(r.k[K.WAR_BUILDING_BATTLE_LOSSES]))


def defender_battle_vp(r: Rules, killed: int, lost: int, general: bool = False) -> int:
    """A defender's VP: 2 per attacker destroyed (+1 with the General) and 2 per own token lost."""
    per_kill = int(r.k[K.WAR_DEFENDER_KILL_VP]) + (int(r.k[K.OFFICE_GENERAL_BATTLE_KILL_VP]) if general else 0)
    return killed * per_kill + lost * int(r.k[K.WAR_DEFENDER_LOSS_VP])


def order_movers(r: Rules, order: Sequence[str], added: Mapping[str, int]) -> list[str]:
    """PLAYER ORDER: who moves on the order track in phase C, in turn: the fewest added workers first; ties
    by ``order.tie`` (RP-15: the later in the current order first)."""
    later_first = r.k[K.ORDER_TIE] == 0
    movers = [p for p in order if added.get(p, 0) > 0]
    sign = -1 if later_first else 1
    return sorted(movers, key=lambda p: (added[p] if r.k[K.ORDER_FEWEST_ADDED_FIRST] else -added[p], sign * order.index(p)))


def slide(order: Sequence[str], player: str, position: int) -> list[str]:
    """Move ``player`` to ``position`` (0 = first); the others slide in their order."""
    rest = [p for p in order if p != player]
    return rest[:position] + [player] + rest[position:]


def start_resources(r: Rules, level: Level | int, last_player: bool, short: bool = False) -> tuple[int, int, int]:
    """GAME PREPARATION: (wood, stone, silver) a player starts with."""
    w, s, c = (int(r.level[level, col]) for col in (LK.START_WOOD, LK.START_STONE, LK.START_SILVER))
    if last_player:
        w += int(r.k[K.SETUP_LAST_PLAYER_WOOD])
        s += int(r.k[K.SETUP_LAST_PLAYER_STONE])
    if short:
        w += int(r.k[K.SHORT_GAME_START_WOOD])
        s += int(r.k[K.SHORT_GAME_START_STONE])
        c += int(r.k[K.SHORT_GAME_START_SILVER])
    return w, s, c

