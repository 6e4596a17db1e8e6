"""Packing Río de la Plata's rules: a checked rules document (:func:`rio.rules.load_rules_doc`) read leaf by
leaf, each value's type and range validated (``rio.keys``: CHOICES, POSITIVE, NON_POSITIVE, ANY_SIGN), the
tables cross-checked (a worker-activated building has its exchange, a grid its spaces, the city map RP-07
its districts, Plaza Mayor and walls), and the numbers packed into :class:`Rules`, a NamedTuple of small
numpy integer arrays indexed by the IntEnums of :mod:`rio.keys` (int32 for money and VP, int8 for the city
map's pictures). A leaf the packing does not read is an error (no rule goes unread).

Plain Python (numpy), no compiler. Every bad input is one :class:`rio.keys.RulesError` line naming the key.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple

import numpy as np

from rio.keys import (
    ANY_SIGN,
    BK,
    CHOICES,
    CK,
    K_OF,
    LK,
    MK,
    NON_POSITIVE,
    OK,
    PLAYER_COUNTS,
    PLAZA,
    POSITIVE,
    Activation,
    Building,
    Count,
    District,
    Edge,
    Enemy,
    Exchange,
    Good,
    K,
    Level,
    Major,
    Needs,
    Office,
    Placement,
    Pool,
    RulesError,
    Side,
    TieBreak,
    member_names,
)
from rio.tags import is_leaf, leaf_paths


class Rules(NamedTuple):
    """Río de la Plata's rules as arrays (the engine's only source of rules numbers)."""
    k: np.ndarray                   # int32[K]
    level: np.ndarray               # int32[Level, LK]
    by_count: np.ndarray            # int32[Count, CK]
    building: np.ndarray            # int32[Building, BK]
    building_pool: np.ndarray       # int8[Building, Pool]: 1 where the building's tile comes from the pool
    pool_tiles: np.ndarray          # int32[Pool]
    pool_per_colour: np.ndarray     # int8[Pool]: the pool's count is per player colour
    exchange_building: np.ndarray   # int32[Exchange]: a Building
    exchange_needs: np.ndarray      # int32[Exchange]: a Needs
    exchange_pay: np.ndarray        # int32[Exchange, Good]
    exchange_gain: np.ndarray       # int32[Exchange, Good]
    major: np.ndarray               # int32[Major, MK]
    major_space_vp: np.ndarray      # int32[Major, S]: printed VP by space, -1 past the grid's end
    major_space_players: np.ndarray  # int32[Major, S]: smallest player count using the space, 99 past the end
    major_space_on: np.ndarray      # int8[Count, Major, S]: the space is in play (normal game)
    major_space_on_short: np.ndarray  # int8[Count, Major, S]: the space is in play in the Short game
    mine_track: np.ndarray          # int32[2]: the Good of the upper and the lower track
    mine_space_workers: np.ndarray  # int32[M]
    mine_space_on: np.ndarray       # int8[Count, M]
    office: np.ndarray              # int32[Office, OK]
    enemy_bonus: np.ndarray         # int32[max_value + 1]: bonus attackers by track value (0 below min_value)
    track_advance: np.ndarray       # int32[turns - 1, Enemy]: 1 where the transition from turn t to t+1 advances the enemy
    war_move: np.ndarray            # int32[max_group + 1]: spaces a group of n tokens moves (index 0 unused)
    tie_breaks: np.ndarray          # int32[n]: TieBreak in order
    map_district: np.ndarray        # int8[H, W]: District, PLAZA for the Plaza Mayor
    map_start: np.ndarray           # int8[H, W]: 1 on the starting line
    map_ring: np.ndarray            # int8[H, W]: 1 on a space surrounding the Plaza Mayor (Palace, Cathedral)
    map_edge: np.ndarray            # int8[H, W, Side]: an Edge
    district_centre: np.ndarray     # int32[District, 2]: the centre vertex (X, Y), the south-east corner of space (X, Y)
    district_perimeter: np.ndarray  # int8[District]: 1 for the six perimeter districts


# ---------------------------------------------------------------------------------------------- packing
class _Reader:
    """Reads leaves by dotted key, checks their type and range, and records what was read."""

    def __init__(self, doc: dict) -> None:
        self.leaves = leaf_paths(doc)
        self.read: set[str] = set()

    def raw(self, key: str) -> Any:
        if key not in self.leaves:
            raise RulesError(f"rules: {key}: missing")
        self.read.add(key)
        return self.leaves[key]["value"]

    def _int_ok(self, key: str, v: int) -> None:
        if key in NON_POSITIVE and v > 0:
            raise RulesError(f"rules: {key}: must be <= 0, got {v}")
        if key in POSITIVE and v < 1:
            raise RulesError(f"rules: {key}: must be >= 1, got {v}")
        if key not in ANY_SIGN and key not in NON_POSITIVE and v < 0:
            raise RulesError(f"rules: {key}: must be >= 0, got {v}")

    def scalar(self, key: str) -> int:
        v = self.raw(key)
        if key in CHOICES:
            if v not in CHOICES[key]:
                raise RulesError(f"rules: {key}: allowed: {', '.join(CHOICES[key])}, got {v!r}")
            return CHOICES[key].index(v)
        if isinstance(v, bool):
            return int(v)
        if not isinstance(v, int):
            raise RulesError(f"rules: {key}: expected an integer or true/false, got {v!r}")
        self._int_ok(key, v)
        return v

    def flag(self, key: str) -> bool:
        v = self.raw(key)
        if not isinstance(v, bool):
            raise RulesError(f"rules: {key}: expected true or false, got {v!r}")
        return v

    def name(self, key: str, allowed: list[str] | tuple[str, ...]) -> int:
        v = self.raw(key)
        if v not in allowed:
            raise RulesError(f"rules: {key}: allowed: {', '.join(allowed)}, got {v!r}")
        return list(allowed).index(v)

    def ints(self, key: str, n: int | None = None, lo: int | None = None, hi: int | None = None) -> np.ndarray:
        v = self.raw(key)
        if not isinstance(v, list) or not all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            raise RulesError(f"rules: {key}: expected a list of integers, got {v!r}")
        if n is not None and len(v) != n:
            raise RulesError(f"rules: {key}: expected a list of {n} integers, got {len(v)}")
        for x in v:
            self._int_ok(key, x)
            if (lo is not None and x < lo) or (hi is not None and x > hi):
                raise RulesError(f"rules: {key}: values must be in {lo}..{hi}, got {v}")
        return np.array(v, np.int32)

    def names(self, key: str, allowed: list[str] | tuple[str, ...], min_len: int = 1) -> list[int]:
        v = self.raw(key)
        if not isinstance(v, list) or len(v) < min_len or not all(isinstance(x, str) for x in v):
            raise RulesError(f"rules: {key}: expected a list of names ({', '.join(allowed)}), got {v!r}")
        bad = [x for x in v if x not in allowed]
        if bad or len(set(v)) != len(v):
            raise RulesError(f"rules: {key}: allowed (each once): {', '.join(allowed)}, got {v!r}")
        return [list(allowed).index(x) for x in v]

    def rows(self, key: str, n: int, width: int, chars: str) -> list[str]:
        v = self.raw(key)
        if not isinstance(v, list) or len(v) != n or not all(isinstance(r, str) and len(r) == width for r in v):
            raise RulesError(f"rules: {key}: expected {n} rows of {width} characters (map.height x map.width)")
        bad = sorted({c for r in v for c in r} - set(chars))
        if bad:
            raise RulesError(f"rules: {key}: unexpected character(s) {''.join(bad)!r}; allowed: {chars!r}")
        return v


def _sections(doc: dict, section: str, enum: type[IntEnum]) -> None:
    """The sub-tables of ``[section]`` must be exactly the enum's members."""
    have = {k2 for k2, v in doc.get(section, {}).items() if isinstance(v, dict) and not is_leaf(v)}
    want = set(member_names(enum))
    if have != want:
        miss, extra = sorted(want - have), sorted(have - want)
        what = "; ".join(x for x in (f"missing [{section}.{miss[0]}]" if miss else "", f"unknown [{section}.{extra[0]}]" if extra else "") if x)
        raise RulesError(f"rules: {section}: {what}; expected {', '.join(f'[{section}.{n}]' for n in member_names(enum))}")


def _map(r: _Reader, k: np.ndarray) -> dict:
    w, h = int(k[K.MAP_WIDTH]), int(k[K.MAP_HEIGHT])
    nd = len(District)
    if k[K.MAP_DISTRICT_COUNT] != nd:
        raise RulesError(f"rules: map.district_count: the engine has {nd} districts (District), got {int(k[K.MAP_DISTRICT_COUNT])}")
    rows = r.rows("map.districts", h, w, "".join(str(i + 1) for i in range(nd)) + "P")
    dist = np.array([[PLAZA if c == "P" else int(c) - 1 for c in row] for row in rows], np.int8)
    missing = [i + 1 for i in range(nd) if not (dist == i).any()]
    if missing:
        raise RulesError(f"rules: map.districts: district(s) {missing} have no space")
    ps = r.ints("map.plaza_size", 2, 1, max(w, h))
    ys, xs = np.nonzero(dist == PLAZA)
    if len(ys) != ps[0] * ps[1] or ys.max() - ys.min() + 1 != ps[1] or xs.max() - xs.min() + 1 != ps[0]:
        raise RulesError(f"rules: map.districts: the Plaza Mayor 'P' must be one {ps[0]} x {ps[1]} rectangle (map.plaza_size)")
    special = r.rows("map.special", h, w, ".*c")
    start = np.array([[c == "*" for c in row] for row in special], np.int8)
    ring = np.array([[c == "c" for c in row] for row in special], np.int8)
    if ((start | ring) & (dist == PLAZA)).any():
        raise RulesError("rules: map.special: no starting-line or ring space on the Plaza Mayor")
    centres = r.raw("map.centres")
    if not (isinstance(centres, list) and len(centres) == nd and all(
            isinstance(c, list) and len(c) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in c)
            and 0 <= c[0] <= w and 0 <= c[1] <= h for c in centres)):
        raise RulesError(f"rules: map.centres: expected {nd} vertices [X, Y] with 0 <= X <= {w}, 0 <= Y <= {h}")
    per = r.ints("map.perimeter_districts", None, 1, nd)
    cen = r.ints("map.central_districts", None, 1, nd)
    if len(set(per.tolist()) | set(cen.tolist())) != nd or set(per.tolist()) & set(cen.tolist()):
        raise RulesError("rules: map.perimeter_districts: with map.central_districts, each district exactly once")
    edge = np.zeros((h, w, len(Side)), np.int8)
    edge[0, :, Side.NORTH] = Edge.OPEN
    edge[:, 0, Side.WEST] = Edge.OPEN
    edge[:, w - 1, Side.EAST] = Edge.OPEN
    edge[h - 1, :, Side.SOUTH] = Edge.WALL if k[K.MAP_SOUTH_WALLED] else Edge.OPEN
    for key, side, n in (("map.printed_walls_north", Side.NORTH, w), ("map.printed_walls_west", Side.WEST, h),
                         ("map.printed_walls_east", Side.EAST, h)):
        at = r.ints(key, None, 1, n)
        if len(set(at.tolist())) != len(at):
            raise RulesError(f"rules: {key}: each edge once, got {at.tolist()}")
        for a in at:
            if side == Side.NORTH:
                edge[0, a - 1, side] = Edge.WALL
            elif side == Side.WEST:
                edge[a - 1, 0, side] = Edge.WALL
            else:
                edge[a - 1, w - 1, side] = Edge.WALL
    perim = np.zeros(nd, np.int8)
    perim[per - 1] = 1
    return {"map_district": dist, "map_start": start, "map_ring": ring, "map_edge": edge,
            "district_centre": np.array(centres, np.int32), "district_perimeter": perim}


def pack(doc: dict) -> Rules:
    """Pack a checked rules document into :class:`Rules`."""
    for section, enum in (("building", Building), ("exchange", Exchange), ("major", Major), ("office", Office)):
        _sections(doc, section, enum)
    r = _Reader(doc)
    k = np.zeros(len(K), np.int32)
    for key, member in K_OF.items():
        k[member] = r.scalar(key)
    if r.ints("game.players", len(Count)).tolist() != list(PLAYER_COUNTS):
        raise RulesError(f"rules: game.players: the engine plays {list(PLAYER_COUNTS)} players (Count)")
    if k[K.GAME_WORKERS] < k[K.GAME_USABLE_WORKERS] + k[K.GAME_ORDER_MARKERS]:
        raise RulesError("rules: game.workers: must hold game.usable_workers + game.order_markers")
    if k[K.GAME_WORKERS_PER_TURN] > k[K.GAME_USABLE_WORKERS]:
        raise RulesError("rules: game.workers_per_turn: must be <= game.usable_workers")
    if not 2 <= k[K.TWO_PLAYER_PLAYS_AS] <= 5:
        raise RulesError(f"rules: two_player.plays_as: must be in 2..5, got {int(k[K.TWO_PLAYER_PLAYS_AS])}")
    if k[K.SHORT_GAME_TURNS] > k[K.GAME_TURNS]:
        raise RulesError("rules: short_game.turns: must be <= game.turns")
    if k[K.WAR_CANNON_BET_MIN] < 1:
        raise RulesError("rules: war.cannon_bet_min: must be >= 1")

    # experience levels
    if r.raw("level.names") != member_names(Level):
        raise RulesError(f"rules: level.names: the engine's levels are {member_names(Level)} (Level), got {r.raw('level.names')!r}")
    level = np.zeros((len(Level), len(LK)), np.int32)
    for col, key in ((LK.START_WOOD, "level.start_wood"), (LK.START_STONE, "level.start_stone"),
                     (LK.START_SILVER, "level.start_silver"), (LK.ATTACKER_BONUS, "level.attacker_bonus")):
        level[:, col] = r.ints(key, len(Level))

    # by player count
    by_count = np.zeros((len(Count), len(CK)), np.int32)
    for c in Count:
        n = c + 2
        by_count[c, CK.RULES_PLAYERS] = k[K.TWO_PLAYER_PLAYS_AS] if n == 2 else n
    by_count[:, CK.WARS_PER_PLAYER] = r.ints("war.wars_per_player", len(Count))
    by_count[:, CK.ENEMY_RETREAT] = r.ints("enemies.retreat", len(Count))
    by_count[:, CK.BONUS_MODIFIER] = r.ints("enemies.player_count_modifier", len(Count))
    by_count[:, CK.SHIP_CAPACITY] = k[K.SHIP_CAPACITY_PER_PLAYER] * by_count[:, CK.RULES_PLAYERS]
    rules_players = by_count[:, CK.RULES_PLAYERS]

    # minor buildings and tiles
    bnames, pnames = member_names(Building), member_names(Pool)
    building = np.zeros((len(Building), len(BK)), np.int32)
    bpool = np.zeros((len(Building), len(Pool)), np.int8)
    for b in Building:
        pre = f"building.{bnames[b]}"
        for col in (BK.WORKERS, BK.WOOD, BK.STONE, BK.PRECIOUS, BK.VP, BK.PER_DISTRICT, BK.DISTRICT_VALUE, BK.ATTACKER_VP):
            building[b, col] = r.scalar(f"{pre}.{col.name.lower()}")
        for col in (BK.OWNED, BK.PRODUCTION, BK.NOBLE):
            building[b, col] = r.flag(f"{pre}.{col.name.lower()}")
        req = r.name(f"{pre}.requires", ["none"] + bnames)
        if req - 1 == b:
            raise RulesError(f"rules: {pre}.requires: a building cannot require itself")
        building[b, BK.REQUIRES] = req - 1
        building[b, BK.ACTIVATION] = r.name(f"{pre}.activation", member_names(Activation))
        for p in r.names(f"{pre}.tiles", pnames):
            bpool[b, p] = 1
        if building[b, BK.WORKERS] < 1:
            raise RulesError(f"rules: {pre}.workers: a building needs 1 or more workers")
    pool_tiles = np.array([r.scalar(f"tiles.{n}") for n in pnames], np.int32)
    per_colour = np.zeros(len(Pool), np.int8)
    for p in r.names("tiles.per_colour", pnames, 0):
        per_colour[p] = 1

    # activations
    ex_b = np.zeros(len(Exchange), np.int32)
    ex_n = np.zeros(len(Exchange), np.int32)
    ex_pay = np.zeros((len(Exchange), len(Good)), np.int32)
    ex_gain = np.zeros((len(Exchange), len(Good)), np.int32)
    for x in Exchange:
        pre = f"exchange.{x.name.lower()}"
        ex_b[x] = r.name(f"{pre}.building", bnames)
        if building[ex_b[x], BK.ACTIVATION] != Activation.WORKER:
            raise RulesError(f"rules: {pre}.building: {bnames[ex_b[x]]} is not activated by a worker (building.{bnames[ex_b[x]]}.activation)")
        ex_n[x] = r.name(f"{pre}.needs", [n.name.lower().replace("_", " ") for n in Needs])
        ex_pay[x] = r.ints(f"{pre}.pay", len(Good))
        ex_gain[x] = r.ints(f"{pre}.gain", len(Good))
    for b in Building:
        if building[b, BK.ACTIVATION] == Activation.WORKER and not (ex_b == b).any():
            raise RulesError(f"rules: building.{bnames[b]}.activation: 'worker' but no [exchange] row for it")

    # Major buildings
    major = np.zeros((len(Major), len(MK)), np.int32)
    vps, pls = [], []
    for m in Major:
        pre = f"major.{m.name.lower()}"
        for col in (MK.WOOD, MK.STONE, MK.WOOD_OR_STONE, MK.COMPLETION_VP, MK.PIECES, MK.DISTRICT_VALUE, MK.ATTACKER_VP, MK.SHORT_REMOVED):
            major[m, col] = r.scalar(f"{pre}.{col.name.lower()}")
        major[m, MK.REPEATABLE] = r.flag(f"{pre}.repeatable")
        major[m, MK.PLACEMENT] = r.name(f"{pre}.placement", [p.name.lower().replace("_", " ") for p in Placement])
        vp = r.ints(f"{pre}.space_vp")
        pl = r.ints(f"{pre}.space_players", None, 2, 5)
        if len(vp) != len(pl) or len(vp) == 0:
            raise RulesError(f"rules: {pre}.space_players: one entry per space of {pre}.space_vp ({len(vp)}), got {len(pl)}")
        plain = np.nonzero(pl <= rules_players.min())[0]
        if major[m, MK.SHORT_REMOVED] >= len(plain):
            raise RulesError(f"rules: {pre}.short_removed: must leave spaces at every count, got {int(major[m, MK.SHORT_REMOVED])}")
        if major[m, MK.SHORT_REMOVED] and (pl[len(vp) - major[m, MK.SHORT_REMOVED]:] > rules_players.min()).any():
            raise RulesError(f"rules: {pre}.short_removed: the Short game removes the grid's last printed spaces, which must be in play at every count")
        vps.append(vp)
        pls.append(pl)
    S = max(len(v) for v in vps)
    mvp = np.full((len(Major), S), -1, np.int32)
    mpl = np.full((len(Major), S), 99, np.int32)
    on = np.zeros((len(Count), len(Major), S), np.int8)
    for m in Major:
        n = len(vps[m])
        mvp[m, :n] = vps[m]
        mpl[m, :n] = pls[m]
        on[:, m, :] = mpl[m][None, :] <= rules_players[:, None]
    on_short = on.copy()
    for m in Major:
        cut = major[m, MK.SHORT_REMOVED]
        if cut:
            n = len(vps[m])
            on_short[:, m, n - cut:n] = 0

    # Mine and Forest
    tracks = r.names("mine_forest.tracks", ["wood", "stone"], 2)
    if len(tracks) != 2:
        raise RulesError("rules: mine_forest.tracks: expected the upper and the lower track")
    mine_track = np.array([Good.WOOD if t == 0 else Good.STONE for t in tracks], np.int32)
    mw = r.ints("mine_forest.space_workers")
    mp = r.ints("mine_forest.space_players", None, 2, 5)
    if len(mw) != len(mp) or len(mw) == 0 or (mw < 1).any():
        raise RulesError("rules: mine_forest.space_players: one per space of mine_forest.space_workers (each >= 1 worker)")
    mine_on = (mp[None, :] <= rules_players[:, None]).astype(np.int8)

    # Public Offices
    office = np.zeros((len(Office), len(OK)), np.int32)
    for o in Office:
        for col in OK:
            office[o, col] = r.scalar(f"office.{o.name.lower()}.{col.name.lower()}")

    # enemies track and turn track
    lo, hi = int(k[K.ENEMIES_MIN_VALUE]), int(k[K.ENEMIES_MAX_VALUE])
    if not 1 <= lo <= hi:
        raise RulesError(f"rules: enemies.min_value: must be in 1..enemies.max_value ({hi}), got {lo}")
    bonus = r.ints("enemies.bonus", hi - lo + 1)
    enemy_bonus = np.zeros(hi + 1, np.int32)
    enemy_bonus[lo:] = bonus
    turns = int(k[K.GAME_TURNS])
    adv = np.zeros((turns - 1, len(Enemy)), np.int32)
    adv[:, Enemy.NATIVES] = r.ints("enemies.natives_advance", turns - 1, 0, 1)
    adv[:, Enemy.PIRATES] = r.ints("enemies.pirates_advance", turns - 1, 0, 1)

    # war
    g = int(k[K.WAR_MAX_GROUP])
    war_move = np.zeros(g + 1, np.int32)
    war_move[1:] = r.ints("war.move", g)
    ties = np.array(r.names("scoring.tie_breaks", [t.name.lower().replace("_", " ") for t in TieBreak]), np.int32)

    maps = _map(r, k)
    unread = sorted(set(r.leaves) - r.read)
    if unread:
        raise RulesError(f"rules: {unread[0]}: no such rule (the loader reads no such key)")
    return Rules(k=k, level=level, by_count=by_count, building=building, building_pool=bpool, pool_tiles=pool_tiles,
                 pool_per_colour=per_colour, exchange_building=ex_b, exchange_needs=ex_n, exchange_pay=ex_pay,
                 exchange_gain=ex_gain, major=major, major_space_vp=mvp, major_space_players=mpl, major_space_on=on,
                 major_space_on_short=on_short, mine_track=mine_track, mine_space_workers=mw, mine_space_on=mine_on,
                 office=office, enemy_bonus=enemy_bonus, track_advance=adv, war_move=war_move, tie_breaks=ties, **maps)
