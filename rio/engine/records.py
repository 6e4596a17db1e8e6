"""What a game of Río de la Plata records: preallocated int32 arrays the game kernel fills (the runner turns
them into tables). Per seat (:class:`GR`, the VP sources after ``GR.VPS``), per game (:class:`GG`), per
office (owner and turn bought), per turn x seat (:class:`TR`), per war (rio.engine.war's ``WR``), per
district at the end (:class:`DR`) and per Major building (rio.engine.state's ``MR``: who completed it,
who built it)."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from rio.engine.state import MAX_SEATS, MR_COLUMNS, SPACE_KINDS, VPS
from rio.keys import Major, Office


class GR(IntEnum):
    VP = 0
    RANK = 1            # 0 = the winner (ties share a rank, RP-23)
    START_POSITION = 2  # position on the order track in the first turn (the last one has the bonus)
    SILVER = 3          # at the end, before the money's VP
    WOOD = 4
    STONE = 5
    PRECIOUS = 6
    HOUSES = 7
    HUTS = 8
    OFFICES = 9
    ATTACKS = 10
    VPS = 11            # VPS columns follow


GR_COLUMNS = GR.VPS + len(VPS)


class GG(IntEnum):
    PLAYERS = 0
    LEVEL = 1
    SHORT = 2
    TURNS = 3
    WARS = 4
    VOYAGES = 5
    WALLS_OPEN = 6      # open access points left
    STICKS = 7          # wall/road pieces left
    MAJORS = 8          # completions by Major follow


GG_COLUMNS = GG.MAJORS + len(Major)


class TR(IntEnum):
    VP = 0
    SILVER = 1
    CUBES = 2
    HOUSES = 3
    POSITION = 4


class DR(IntEnum):
    """Per district at the end of the game (``Records.district``; THE CITY DISTRICTS, VICTORY POINTS AT THE
    END OF THE GAME), filled by rio.engine.city.record_city (from end_game)."""
    VALUE = 0           # the district's value: what each House there adds to its 2 VP (END_HOUSES)
    ROAD_CONNECTED = 1  # 1: a road links its centre to the Plaza Mayor (ROADS; RP-08; the Roadmaker's count)
    CLOSED = 2          # 1: a perimeter district whose access points are all walled (THE WALLS; RP-09; the Defender's count)
    ACCESS_POINTS = 3   # open outer edges left (where attackers enter)
    DESTROYED = 4       # buildings destroyed there in wars (BATTLE), the Palace and the Cathedral included
    BUILDINGS = 5       # SPACE_KINDS columns: buildings standing by kind, the minor buildings in rio.keys.Building's
    #                     order (Hut, House, ...), then the Palace and the Cathedral (rio.engine.state.SPACE_PALACE)


DR_COLUMNS = DR.BUILDINGS + SPACE_KINDS


class Records(NamedTuple):
    seat: np.ndarray     # int32[games, MAX_SEATS, GR_COLUMNS]
    game: np.ndarray     # int32[games, GG_COLUMNS]
    office: np.ndarray   # int32[games, Office, 2]: owner seat (-1), turn bought
    turn: np.ndarray     # int32[games, turns, MAX_SEATS, TR]
    war: np.ndarray      # int32[games, wars, WR]
    district: np.ndarray  # int32[games, districts, DR]
    major: np.ndarray    # int32[games, Major, MR]: State.major_log at the end, FIRST_COMPLETER a seat and FIRST_TURN from 1 (NO never)


def new_records(games: int, turns: int, wars: int, war_columns: int, districts: int) -> Records:
    """The records of ``games`` games of at most ``turns`` turns and ``wars`` wars, on a map of ``districts``
    districts (the rules' map, rio.engine.geometry.Geo)."""
    return Records(seat=np.zeros((games, MAX_SEATS, GR_COLUMNS), np.int32), game=np.zeros((games, GG_COLUMNS), np.int32),
                   office=np.zeros((games, len(Office), 2), np.int32), turn=np.zeros((games, turns, MAX_SEATS, len(TR)), np.int32),
                   war=np.full((games, wars, war_columns), -1, np.int32), district=np.zeros((games, districts, DR_COLUMNS), np.int32),
                   major=np.zeros((games, len(Major), MR_COLUMNS), np.int32))
