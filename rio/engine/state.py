"""Río de la Plata's game state: a NamedTuple of small integer arrays whose slots are named by IntEnums,
sized from the enums and from the packed rules (the city map's width and height, the grids' lengths).

Game state only: the records a game writes live in :mod:`rio.engine.records`, the players' scratch in
their own arrays. Two tallies the records read at the end are state (``major_log``: who completed each
Major building; ``sp_destroyed``: buildings destroyed in wars by space): the kernels that count them (a
grid's completion, a building battle) never see the records, and a search's simulations play them on a
copy of the state. Colours: seats 0..players-1; in the 2-player game the shadow player's discs are
colour ``players`` (VARIANTS (2 players); RP-24), which holds no resources and scores nothing.
Money and VP are int32 (Numba does not check overflow; a game stays far below 2**31).

Spaces of the city map are numbered ``s = y * width + x`` (x west -> east, y north -> south, from 0).
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from rio.keys import Building, Major, Office, Pool, Side

MAX_SEATS = 5
MAX_COLOURS = MAX_SEATS + 1  # the 2-player game's shadow colour (RP-24)
NO = -1  # an empty slot: no building, no owner, no colour
SPACE_PALACE = len(Building)  # sp_building of the space the Palace stands on (RP-11)
SPACE_CATHEDRAL = len(Building) + 1
SPACE_KINDS = len(Building) + 2


class G(IntEnum):
    """Scalars of the game (``State.g``)."""
    TURN = 0          # 0-based turn (year = first_year + TURN)
    TURNS = 1         # turns of this game (normal or Short game)
    PLAYERS = 2       # seats
    COLOURS = 3       # seats + the shadow colour in the 2-player game
    RULES_PLAYERS = 4  # the count whose layouts apply (2 -> 3, RP-24)
    COUNT = 5         # rio.keys.Count index of PLAYERS
    LEVEL = 6         # rio.keys.Level
    SHORT = 7         # 1 in the Short game
    SHIP_AWAY = 8     # 1 while the Ship travels
    SHIP_RETURN = 9   # the turn it comes back
    SHIP_LOAD = 10    # cubes on board
    SHIP_PAID = 11    # seat + 1 of the player who paid the departure this turn, 0 none
    SHIP_DEPARTS = 12  # 1: the Ship leaves at the end of this Effect phase
    STICKS = 13       # wall/road pieces left (RP-06)
    NATIVES = 14      # enemies track (0 = off the track, RP-17)
    PIRATES = 15
    WARS = 16         # wars played
    WAR_OVER = 17     # 1 once no more war checks are made (every player attacked, or the city closed)
    VOYAGES = 18      # completed shipments
    ATTACKER = 19     # the attacker of the war under way, -1 none
    PAY_SEQ = 20      # payments of grid spaces so far: a paid space holds its sequence number (the completer is the last)
    FIRST_TURN = 21   # 1 during the first turn (placement on the starting line only)


class PK(IntEnum):
    """Per colour (``State.pl``)."""
    WOOD = 0
    STONE = 1
    PRECIOUS = 2
    SILVER = 3
    VP = 4
    SUPPLY = 5       # workers in the player's reserve (of the nine usable; the tenth marks the order)
    PLACED = 6       # workers placed this turn (at most workers_per_turn)
    BOUGHT = 7       # "virtual" resources bought with money this turn (TRADES AND MONEY USE)
    ATTACKS = 8      # times this player was the attacker
    ORDER_ADDED = 9  # workers added to the player-order track (PLAYER ORDER)
    OFFICE = 10      # office + 1 this player placed on this turn, 0 none (one purchase a turn)
    HUTS = 11        # Hut/House tiles left in the player's colour (RP-06)
    FIELD = 12       # workers on Field work this turn
    ARTISAN = 13     # workers on Artisan work
    DOCK = 14        # workers on the dock
    TOKENS = 15      # defending tokens bought in the current war (their price rises)
    LOADED = 16      # cubes this player loaded on the Ship this turn (3 a dock worker)


# Ship cargo columns (``State.ship``): what each colour loaded
CARGO = 3  # wood, stone, precious (rio.keys.Good order)


class VPS(IntEnum):
    """Where a player's VP came from (``State.vp_src``); the sources sum to ``PK.VP``."""
    MINOR_BUILDING = 0    # Square, Monument, Garden, Barracks, Church built (MINOR BUILDING CHARACTERISTICS)
    GRID_SPACES = 1       # printed VP of a completed Major grid's spaces
    COMPLETION = 2        # the Fort's +4, the Harbor's +2
    INEFFECTIVE = 3       # -3 per grid worker left unpaid
    CHURCH = 4            # Church activations
    SHIP = 5              # cargo VP
    SHIPOWNER = 6         # the Shipowner's 3 VP a shipment
    OFFICE_FINE = 7       # -5 per failed office purchase
    WAR_ATTACKER = 8      # buildings destroyed as the attacker
    WAR_KILLS = 9         # attackers destroyed in battles (+ the General's +1)
    WAR_LOSSES = 10       # own tokens lost in war
    CANNONS = 11          # the Gunner's kills
    END_MONEY = 12        # 1 VP per 3 silver
    END_OFFICES = 13      # offices' printed end VP (and the Short game's +3)
    END_HOUSES = 14       # Houses: 2 + the district's value
    END_ROADMAKER = 15
    END_DEFENDER = 16
    END_BISHOP = 17
    END_ARCHITECT = 18
    END_GOVERNOR = 19


class MR(IntEnum):
    """Per Major building (``State.major_log``): who completed it and who built it, kept as the game plays
    for the records (rio.engine.records). The completer is "the player who builds the last part of the
    grid" (MAJOR BUILDING CHARACTERISTICS; RP-10)."""
    FIRST_COMPLETER = 0  # the seat that completed it first + 1, 0 never (all zeros: nothing completed yet)
    FIRST_TURN = 1       # the turn of that first completion + 1 (from 1, as sp_built), 0 never
    COMPLETED = 2        # MAX_SEATS columns from here: the completions by each seat (Walls and Roads repeat)
    SPACES = COMPLETED + MAX_SEATS  # MAX_SEATS columns: grid spaces each seat's workers held at the completions
    #                                 (a shadow disc counts for the seat that placed it, RP-24)


MR_COLUMNS = MR.SPACES + MAX_SEATS


class State(NamedTuple):
    """Río de la Plata's state (module docstring). Arrays only; ``rng`` is the game's SplitMix64 word."""
    g: np.ndarray            # int32[G]
    pl: np.ndarray           # int32[MAX_COLOURS, PK]
    vp_src: np.ndarray       # int32[MAX_COLOURS, VPS]
    order: np.ndarray        # int32[MAX_SEATS]: the seat at each position of the player-order track
    sp_building: np.ndarray  # int32[N]: a Building, SPACE_PALACE, SPACE_CATHEDRAL or NO
    sp_owner: np.ndarray     # int32[N]: owner seat of a Hut or House, NO otherwise
    sp_pool: np.ndarray      # int32[N]: the Pool the space's tile came from, NO
    sp_built: np.ndarray     # int32[N]: turn + 1 the space's building was built (or upgraded), 0 never
    sp_workers: np.ndarray   # int32[N, MAX_COLOURS]: workers of each colour on the space
    sp_used: np.ndarray      # int32[N]: activations of the space's building this turn
    sp_destroyed: np.ndarray  # int32[N]: buildings destroyed on the space in wars (for the records)
    edge: np.ndarray         # int32[N, Side]: rio.keys.Edge of each side (built walls turn OPEN into WALL)
    road_v: np.ndarray       # int32[H, W - 1]: 1 = a road on the border between (x, y) and (x + 1, y)
    road_h: np.ndarray       # int32[H - 1, W]: 1 = a road on the border between (x, y) and (x, y + 1)
    grid: np.ndarray         # int32[Major, S]: colour of the worker on the grid space, NO
    grid_placer: np.ndarray  # int32[Major, S]: the seat that placed it (a shadow disc's placer, RP-24)
    grid_paid: np.ndarray    # int32[Major, S]: 0 unpaid, else the payment's sequence number (G.PAY_SEQ)
    major_done: np.ndarray   # int32[Major]: completions (Walls and Roads repeat)
    major_at: np.ndarray     # int32[Major]: the space of the Palace and the Cathedral, NO
    major_log: np.ndarray    # int32[Major, MR]: who completed each Major and whose workers built it (for the records)
    mine: np.ndarray         # int32[2, M]: colour that took each Mine (row 0) / Forest (row 1) space this turn, NO
    office_owner: np.ndarray  # int32[Office]: owner seat, NO
    office_turn: np.ndarray  # int32[Office]: turn it was bought
    office_worker: np.ndarray  # int32[Office]: colour placed on it this turn, NO
    ship: np.ndarray         # int32[MAX_COLOURS, CARGO]: cubes each colour has on board
    pool_left: np.ndarray    # int32[Pool]: tiles in the supply (the Hut/House pool: PK.HUTS per colour)
    rng: np.ndarray          # uint64[1]


def new_state(height: int, width: int, grid_spaces: int, mine_spaces: int) -> State:
    """Allocate an empty state for a city of ``height`` x ``width`` and grids of ``grid_spaces`` spaces
    (the rules' ``major_space_vp`` width) and Mine/Forest tracks of ``mine_spaces``. :func:`rio.engine.setup`
    fills it for a game."""
    n = height * width
    i32 = np.int32
    return State(
        g=np.zeros(len(G), i32), pl=np.zeros((MAX_COLOURS, len(PK)), i32), vp_src=np.zeros((MAX_COLOURS, len(VPS)), i32),
        order=np.zeros(MAX_SEATS, i32),
        sp_building=np.full(n, NO, i32), sp_owner=np.full(n, NO, i32), sp_pool=np.full(n, NO, i32), sp_built=np.zeros(n, i32),
        sp_workers=np.zeros((n, MAX_COLOURS), i32), sp_used=np.zeros(n, i32),
        sp_destroyed=np.zeros(n, i32), edge=np.zeros((n, len(Side)), i32),
        road_v=np.zeros((height, width - 1), i32), road_h=np.zeros((height - 1, width), i32),
        grid=np.full((len(Major), grid_spaces), NO, i32), grid_placer=np.full((len(Major), grid_spaces), NO, i32),
        grid_paid=np.zeros((len(Major), grid_spaces), i32), major_done=np.zeros(len(Major), i32),
        major_at=np.full(len(Major), NO, i32), major_log=np.zeros((len(Major), MR_COLUMNS), i32), mine=np.full((2, mine_spaces), NO, i32),
        office_owner=np.full(len(Office), NO, i32), office_turn=np.zeros(len(Office), i32),
        office_worker=np.full(len(Office), NO, i32), ship=np.zeros((MAX_COLOURS, CARGO), i32),
        pool_left=np.zeros(len(Pool), i32), rng=np.zeros(1, np.uint64))


class OPT(IntEnum):
    """Columns of an option row (``Scratch.opts``): what the option is and its arguments."""
    KIND = 0
    A = 1
    B = 2
    C = 3
    D = 4


MAX_OPTIONS = 1024  # more than any decision lists (city spaces x worker counts + grid spaces x payment x colour + the rest)
