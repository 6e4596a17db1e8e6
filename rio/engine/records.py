"""What a game of Río de la Plata records: preallocated int32 arrays the game kernel fills (the runner turns
them into tables). Per seat (:class:`GR`, the VP sources after ``GR.VPS``), per game (:class:`GG`), per
office (owner and turn bought), per turn x seat (:class:`TR`), per war (rio.engine.war's ``WR``)."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from rio.engine.state import MAX_SEATS, VPS
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


class Records(NamedTuple):
    seat: np.ndarray     # int32[games, MAX_SEATS, GR_COLUMNS]
    game: np.ndarray     # int32[games, GG_COLUMNS]
    office: np.ndarray   # int32[games, Office, 2]: owner seat (-1), turn bought
    turn: np.ndarray     # int32[games, turns, MAX_SEATS, TR]
    war: np.ndarray      # int32[games, wars, WR]


def new_records(games: int, turns: int, wars: int, war_columns: int) -> Records:
    return Records(seat=np.zeros((games, MAX_SEATS, GR_COLUMNS), np.int32), game=np.zeros((games, GG_COLUMNS), np.int32),
                   office=np.zeros((games, len(Office), 2), np.int32), turn=np.zeros((games, turns, MAX_SEATS, len(TR)), np.int32),
                   war=np.full((games, wars, war_columns), -1, np.int32))
