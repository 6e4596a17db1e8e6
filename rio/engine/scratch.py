"""A game's working arrays (:class:`Scratch`), apart from its state (rio.engine.state) and its records
(rio.engine.records): allocated once per table, so that the engine allocates nothing while it plays
(rio.players.search.play_games_search runs without Numba's allocator)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rio.engine.state import MAX_COLOURS, MAX_OPTIONS, OPT
from rio.engine.war_state import new_war_scratch
from rio.keys import CK, LK, K


class Scratch(NamedTuple):
    """A game's working arrays, apart from its state (rebuilt, never read across decisions), allocated
    once per table (:func:`new_scratch`): the engine allocates nothing while it plays."""
    opts: np.ndarray   # int32[MAX_OPTIONS, OPT]: the legal options of the decision under way
    score: np.ndarray  # float64[MAX_OPTIONS]: the policy's value of each
    conn: np.ndarray   # int32[District]: 1 where the district is connected by road to the Plaza Mayor (kept current)
    seen: np.ndarray   # int32[N]: marks for a pass over the map
    dval: np.ndarray   # int32[District]: the players' view of each district's value now (rio.players.policy)
    dhouse: np.ndarray  # int32[District]: the deciding seat's Houses in each district
    dbuild: np.ndarray  # int32[District, Building]: the minor buildings of each kind in each district (the same)
    ctx: np.ndarray    # int32[8]: the deciding seat's counts (rio.players.policy: CTX_*)
    fctx: np.ndarray   # float64[4]: the deciding seat's values (rio.players.policy: CTXF_*)
    plan: np.ndarray   # float64[4]: a space's value for 1..3 more workers (rio.players.policy)
    plans: np.ndarray  # float64[N, 4]: each space's plan, kept through a seat's run of placements (rio.players.policy)
    plan_had: np.ndarray  # int32[N]: the seat's workers on the space when its plan was made, -1 none
    pkey: np.ndarray   # int32[8]: what the kept plans were made with (rio.players.policy: the seat's goods)
    reach: np.ndarray  # int32[N, 3]: the spaces the placing seat may reach, in order, the others' workers there and
                       # the space's cap for him (rio.engine.placement.reachable_spaces)
    vseen: np.ndarray  # int32[V]: marks on the map's vertices (rio.engine.city.road_connected)
    vqueue: np.ndarray  # int32[V]: the vertices' search queue (the same), distances (rio.players.city_choices)
    vback: np.ndarray  # int32[V]: the way back from each vertex (rio.players.city_choices.road_ways)
    vlevel: np.ndarray  # int64[2, ceil(V / 64)]: bit marks on the vertices, two distances' (the same)
    dcount: np.ndarray  # int32[3, District]: counts per district (rio.players.city_choices)
    dwork: np.ndarray  # int32[District]: a count per district (rio.engine.city.district_values)
    seat_work: np.ndarray  # int32[MAX_COLOURS]: a count per colour (rio.engine.scoring.end_scoring)
    war: tuple         # rio.engine.war_state.WarScratch: the wars' arrays, sized for the largest war of the rules


def most_war_groups(r) -> int:
    """The most groups a war can hold under rules ``r`` (rio.engine.war.play_war numbers a group for each
    attacking group, each worker in the City and each defending token): every colour's workers in the
    City and as tokens, their attackers, the defending players' attackers and the largest bonus."""
    workers = MAX_COLOURS * int(r.k[K.GAME_WORKERS])
    bonus = (max(int(r.enemy_bonus.max()), 0) + max(int(r.level[:, LK.ATTACKER_BONUS].max()), 0)
             + max(int(r.by_count[:, CK.BONUS_MODIFIER].max()), 0) + max(int(r.k[K.ENEMIES_BONUS_MIN]), 0))
    return (workers * (1 + max(int(r.k[K.WAR_ATTACKERS_PER_CITY_WORKER]), 0)) + workers
            + MAX_COLOURS * max(int(r.k[K.WAR_ATTACKERS_PER_DEFENDING_PLAYER]), 0) + bonus + 1)


def new_scratch(r, geo) -> Scratch:
    """The working arrays of one table for rules ``r`` and their map ``geo`` (rio.engine.geometry.Geo)."""
    n, nd, nv = geo.district.shape[0], geo.centre_vertex.shape[0], geo.plaza_vertex.shape[0]
    war = new_war_scratch(n, n * geo.nb4.shape[1], int(r.k[K.WAR_MAX_GROUP]), most_war_groups(r))
    return Scratch(opts=np.zeros((MAX_OPTIONS, len(OPT)), np.int32), score=np.zeros(MAX_OPTIONS),
                   conn=np.zeros(nd, np.int32), seen=np.zeros(n, np.int32),
                   dval=np.zeros(nd, np.int32), dhouse=np.zeros(nd, np.int32),
                   dbuild=np.zeros((nd, r.building.shape[0]), np.int32), ctx=np.zeros(8, np.int32), fctx=np.zeros(4),
                   plan=np.zeros(4), plans=np.zeros((n, 4)), plan_had=np.full(n, -1, np.int32), pkey=np.zeros(8, np.int32),
                   reach=np.zeros((n, 3), np.int32), vseen=np.zeros(nv, np.int32), vqueue=np.zeros(nv, np.int32), vback=np.zeros(nv, np.int32),
                   vlevel=np.zeros((2, (nv + 63) // 64), np.int64),
                   dcount=np.zeros((3, nd), np.int32), dwork=np.zeros(nd, np.int32),
                   seat_work=np.zeros(MAX_COLOURS, np.int32), war=war)
