"""Game state: small integer arrays packed into one numpy record, and the IntEnums that name their slots.

:class:`State` lists the fields (its layout comments are the documentation); :func:`new_state`
allocates them as *one* numpy record (:func:`pack`), so the jitted engine receives a single
pointer instead of ~30 arrays. A NamedTuple of arrays is flattened by Numba into every kernel's
signature (about 9 machine values per array): with the ~85 arrays of State and Rules together,
each kernel took seconds to compile and every call copied hundreds of words. On the Python side
a record reads like the NamedTuple did (``st.pl[seat, PF.VP]``), and every field is a writable
view into the record's buffer. Scalars live in ``State.g`` (slots named by :class:`G`) and per-player scalars in
``State.pl`` (slots named by :class:`PF`). Money and VP are int32 (Numba does not check
overflow; int32 leaves ample headroom for a game's scores).
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np

from sim.codes import N_ACT

MAX_PLAYERS = 5
N_CARDS = 84  # card ids 0..83 = card numbers 1..84 (1-12 Characters, 13-84 Affiliates)
N_CHARACTERS = 12
N_GROUPS = 12
# Affiliate cards per Character group (R-09: cards 13-84 in card-number order, six per group). Not
# a rules key: the card list ([[affiliate]] rows, 72) and the card ids are built on it.
GROUP_SIZE = (N_CARDS - N_CHARACTERS) // N_GROUPS
MAX_MAJOR_SPACES = 12
N_WAR_MARKERS = 3  # upper bound on rules' setup.war_markers (validated by the loader)
N_DISTRICTS = 8
N_DECADE_SLOTS = 14  # decade track slots 0..13 (1..12 used, 13 = beyond the last decade)
MAX_OPTIONS = 2048
OPT_WIDTH = 5
LOG_WIDTH = 8
MAX_DRAWN = 8  # cards one draw can show (Take a Card: 3, +1 Card status, + cards; checked in cards.draw_and_keep)
LOG_ROWS = 4096  # log buffer rows; a 5-player game logs about 1,000 events (G.LOG_DROPPED counts overflow)
N_AI_CARDS = 16  # the Solo cards (GAME CONTENTS: 16 Solo cards; TWO PLAYERS GAME & SOLO MODE)
AI_STRATEGY = -1  # the strategy id of the A.I. seat (the Solo A.I. is played by the rules, sim.solo)
AI_TIE_ROWS = 128  # rows of a decision the A.I. keeps while the human seat decides its tie (sim.ai_choice)


class Res(IntEnum):
    """Resource cubes (GAME CONTENTS)."""

    WOOD = 0
    STONE = 1
    PRECIOUS = 2
    METAL = 3


# Resource grids in ``State.grids`` (COIN STACKS AND RESOURCE GRIDS): up to 4 stone grids, up to 4
# wood grids (setup.stone_grids / setup.wood_grids say how many are in use), then the precious grid.
GRID_STONE = 0
GRID_WOOD = 4
GRID_PRECIOUS = 8
N_GRIDS = 9


class B(IntEnum):
    """Buildings on the city map (1-2. MINOR BUILDING CONSTRUCTION; 11. MAJOR BUILDING)."""

    NONE = 0
    LOT = 1
    HOUSE = 2
    PALACE = 3
    QUARRY = 4
    CARPENTRY = 5
    MARKET = 6
    CORPORATION = 7
    HACIENDA_WOOD = 8
    HACIENDA_STONE = 9
    SQUARE = 10
    MONUMENT = 11
    FOUNTAIN = 12
    BARRACKS = 13
    CHURCH = 14
    CABILDO = 15
    CATHEDRAL = 16


N_BUILDING_TYPES = len(B)
# BUILD groups of one TURN listing (sim.actions.decide_turn): one per (Status marker, type, district + 1)
MAX_GROUPS = 2 * N_BUILDING_TYPES * (N_DISTRICTS + 1)
MINOR_NAMES = [
    "none", "lot", "house", "palace", "quarry", "carpentry", "market", "corporation",
    "hacienda_wood", "hacienda_stone", "square", "monument", "fountain", "barracks", "church",
]
BUILDING_LABELS = [
    "-", "Lot", "House", "Palace", "Quarry", "Carpentry", "Market", "Corporation",
    "Hacienda (wood)", "Hacienda (stone)", "Square", "Monument", "Fountain", "Barracks",
    "Church", "Cabildo", "Cathedral",
]


class M(IntEnum):
    """Major buildings, in the rules file's order (11. MAJOR BUILDING)."""

    CATHEDRAL = 0
    FORT = 1
    CABILDO = 2
    HARBOR = 3
    ROADS = 4
    WALLS = 5


N_MAJOR = len(M)


class Sup(IntEnum):
    """Game supply counters (SETUP 3) and the cube/coin/token supply."""

    QUARRY = 0
    CARPENTRY = 1
    MARKET = 2
    BARRACKS = 3
    CHURCH = 4
    CORP_HACIENDA = 5
    SQUARE = 6
    PALACE = 7
    WALLS = 8
    MONUMENT = 9
    FOUNTAIN = 10
    ROAD_MARKERS = 11
    FAITH = 12
    COUNCIL_WORKERS = 13
    SOLDIERS = 14
    MILICIANOS = 15
    WOOD = 16
    STONE = 17
    PRECIOUS = 18
    METAL = 19
    SILVER = 20
    BRONZE = 21
    PEACE = 22  # Peace markers off the Decade track (GAME CONTENTS: 3; SETUP 4e)


N_SUP = len(Sup)
SUPPLY_KEYS = [
    "quarry", "carpentry", "market", "barracks", "church", "corp_hacienda", "square",
    "palace", "walls", "monument", "fountain", "road_markers", "faith", "council_workers",
    "soldiers", "milicianos",
]


class G(IntEnum):
    """Game scalars in ``State.g``."""

    NPLAYERS = 0  # seats in play
    DECADE = 1  # 1..12 (0 during setup)
    LAST_DECADE = 2  # 12, or 8 with the First Game Option
    VOTE_DONE = 3  # a City Council vote happened this decade (decade marker shows "X")
    NAT_POS = 4  # Natives tension marker space 0..7
    NAT_DOUBLE = 5  # 1 when the Natives marker is a double disk
    PIR_POS = 6  # Pirates tension marker space 0..7
    PIR_DOUBLE = 7  # 1 when the Pirates marker is a double disk
    CATHEDRAL_BUILT = 8
    FORT_BUILT = 9
    CABILDO_BUILT = 10
    HARBOR_BUILT = 11
    WARS_ERA = 12  # wars that took place in the current era (Noblewoman; character.noblewoman_war_without_battle)
    WARS_TOTAL = 13
    SEQ = 14  # monotonic counter ordering cards in deck and piles
    LOG_N = 15  # events written to the log buffer
    LOG_ON = 16  # 1 when the log buffer is filled
    TURN_SEAT = 17  # seat whose turn it is (-1 outside the Action Phase)
    FIRST_GAME = 18  # First Game Option in force
    OPT_N = 19  # decisions taken (a counter for records)
    WAR_FACTION = 20  # faction of this decade's war: 0 none, 1 Natives, 2 Pirates
    WAR_WA = 21  # this decade's final War Attack value
    LOG_DROPPED = 22  # events that did not fit the log buffer
    GAME_OVER = 23
    ERA = 24  # 1..3
    EMPTY_OPTS = 25  # decisions that found no legal option (must stay 0)
    WAR_MILICIANOS = 26  # Milicianos that fought in this decade's war (card 57)
    WAR_SOLDIERS = 27  # Soldiers that fought in this decade's war (card 57)
    LAST_PENALTY_DECADE = 28  # decade in which card 81 raised the last-item penalty (0 none)
    CARD32_DECADE = 29  # decade whose War counts card 32's district as closed by Walls (0 none)
    CARD32_DISTRICT = 30  # that district
    POOL_CC = 31  # City Council workers cards 45/51 put among the turn seat's workers for its next main action
    CARD45_RES = 32  # card 45: wood/stone/precious still to waive in the turn seat's next main action
    AI = 33  # the Solo A.I.'s seat + 1 (0: no A.I. in the game; TWO PLAYERS GAME & SOLO MODE)
    AI_TOP = 34  # the A.I. deck's next card (ai_deck index); the last solo.face_up_cards lie face up
    AI_DISKS = 35  # A.I. workers left on Major grids by earlier decades (it has all its workers every decade)


N_G = len(G)


class TL(IntEnum):
    """Counters of the last TURN listing in ``State.turn_n`` (work area, not game state)."""

    GROUPS = 0  # BUILD groups (st.grp rows) of the last grouped TURN listing (sim.actions.turn.decide_turn)
    TYPES = 1  # building types that listing found payable (st.cell_tmp[:n])


N_TL = len(TL)


class PF(IntEnum):
    """Per-player scalars in ``State.pl[seat]``."""

    VP = 0
    WOOD = 1
    STONE = 2
    PRECIOUS = 3
    METAL = 4
    SILVER = 5
    BRONZE = 6
    FAITH = 7
    COUNCIL = 8  # City Council track value
    WAR_PENALTY = 9  # War Penalty track position (-3..10)
    WORKERS = 10  # own workers on the Available Workers spaces
    WORKERS_PLACED = 11  # own workers on action spaces (back at Recover Workers)
    CC_WORKERS = 12  # City Council workers held as available workers
    CC_PLACED = 13  # City Council workers on action spaces (back to supply at decade end)
    LOTS = 14  # Lot tiles in the player's supply
    HOUSES = 15  # Houses in the player's supply
    PALACE_MARKERS = 16  # Palace ownership markers in the player's supply
    STATUS_MARKERS = 17  # Status markers not on the Status table nor on a Monument/Fountain
    ST_CONSTRUCTION = 18  # Status levels 0..3 (10. IMPROVE STATUS)
    ST_WORKER = 19
    ST_VP = 20
    ST_CARDS = 21
    TURN_POS = 22  # position on the Turn Order track (0 = first)
    ORDER_WORKERS = 23  # workers on the Player Order action this decade
    REACT_WORKERS = 24  # workers on Reactivate Cards this decade
    REACT_FREE = 25  # Reactivate Cards taken free with Card status II this decade
    SHIP_LOAD = 26  # load on the Dock this decade: -1 none, else ship.load row
    PASSED = 27
    USED_SWAP1 = 28  # Construction status powers used this decade (Levels I, II, III)
    USED_SWAP2 = 29
    USED_SWAP3 = 30
    USED_CC_STATUS = 31  # Worker status power used this decade
    USED_VP_STATUS = 32  # VP status bonus used this decade
    USED_EXTRA_DRAW = 33  # Card status extra draw used this decade
    BURN_AV = 34  # +AV from cards burnt this decade (expires after the war step)
    WARS_WON_ERA = 35  # Captain
    WARS_WON = 36
    BANNER_BLACK = 37  # banners: 0 none, 1 face-down, 2 face-up
    BANNER_GREEN = 38
    BANNER_PURPLE = 39
    BANNER_BLUE = 40
    BANNER_RED = 41
    BANNER_OCHER = 42
    WH_WOOD = 43  # City Warehouse wood taken this turn (removed at end of turn if unused)
    WH_STONE = 44
    CHARACTER = 45  # character group 0..11 (card id of the Character card)
    STRATEGY = 46  # policy id
    WAR_MARKERS = 47  # war markers owned (3)
    WARS_FOUGHT = 48
    WARS_LOST = 49
    WAR_PENALTY_LAST = 50  # penalty steps taken in this decade's war
    SHIP_LOAD2 = 51  # card 46: a second load on the Dock this decade (-1 none)
    DOCK6_DECADE = 52  # card 46: decade in which the seat's Dock space holds up to 6 elements (0 none)
    CARD59_THIS = 53  # card 59: workers on the card that come back at this decade's Recover Workers
    CARD59_NEXT = 54  # card 59: workers on the card that come back at the next decade's Recover Workers
    PROBE_DECADE = 55  # restricted-play probe: the decade in which the seat took its forced option, 0 not yet (strategies.forced_play)


N_PF = len(PF)
BANNER_FIRST = PF.BANNER_BLACK
N_STATUS = PF.ST_CARDS - PF.ST_CONSTRUCTION + 1  # Status categories (PF.ST_*): Construction, Worker, VP, Cards


class Banner(IntEnum):
    """The six banners (BANNERS), in the order of their ``PF.BANNER_*`` slots."""

    BLACK = 0
    GREEN = 1
    PURPLE = 2
    BLUE = 3
    RED = 4
    OCHER = 5


BANNER_NAMES = [b.name.lower() for b in Banner]
N_BANNERS = len(Banner)


class VS(IntEnum):
    """Sources of VP, for records and the VP status bonus (one VP assignation)."""

    AUCTION = 0
    GRID_LAST = 1
    BUILD = 2
    MAJOR_FIRST = 3
    MAJOR_SPACES = 4
    RECOVER = 5
    WAREHOUSE = 6
    SALARY = 7
    COUNCIL_VOTE = 8
    COUNCIL_BELOW = 9
    MONEY = 10
    MILITARY = 11
    BANNERS = 12
    FAITH = 13
    CHARACTER = 14
    SERIES = 15
    CARD_STATUS = 16
    CITY = 17
    END_COUNCIL = 18
    END_WAR = 19
    VP_STATUS = 20
    AFFILIATE = 21  # Affiliate card powers


N_VS = len(VS)
VS_NAMES = [
    "auction", "grid_last", "build", "major_first", "major_spaces", "recover", "warehouse",
    "salary", "council_vote", "council_below", "money", "military", "banners", "faith",
    "character", "series", "card_status", "city", "end_council", "end_war", "vp_status", "affiliate",
]


class Loc(IntEnum):
    """Where a card is (``State.card_loc``)."""

    DECK = 0
    GAME_DISCARD = 1
    BOX = 2  # removed from the game
    SET_ASIDE = 3  # setup only
    DISPLAY = 4  # setup only: the Character offer
    HAND = 10  # + seat: owned by a player (Character or Affiliate)
    PILE = 20  # + seat: the player's discard pile
    COMBAT = 5  # EXTENDED WAR: a control card under a War Opponent tile (or gained by a player: State.xw_att)


class Mini(IntEnum):
    """Miniature on a war marker (``State.minis[seat, k, 0]``)."""

    NONE = 0
    MILICIANO = 1
    MILICIANO_VET = 2
    SOLDIER = 3
    SOLDIER_VET = 4


class AK(IntEnum):
    """Attacker miniatures (GAME CONTENTS; R-10): 2 x (faction - 1) + 1 for an Elite."""

    INDIO = 0
    WARRIOR = 1
    FREEBOOTER = 2
    CAPTAIN = 3


N_AK = len(AK)
MAX_TILES = 16  # upper bound on rules' extended_war.opponent_tiles (validated by the loader)
MAX_FIGHT_CARDS = 16  # cards one side of one fight may show (the loop stops offering cards past it)


class XG(IntEnum):
    """EXTENDED WAR scalars in ``State.xw``."""

    ACTIVE = 0  # 1 while attackers are in the Combat Area
    FACTION = 1  # 1 Natives, 2 Pirates
    ROUND = 2  # war rounds begun
    N_TILES = 3  # War Opponent tiles in use (tiles 0..N_TILES-1)
    FIGHTS = 4  # fights of this war
    LEFT = 5  # attackers left at the war end
    PILLAGE_SCORE = 6  # pillage score at the war end
    # a War declared at the End of the decade Phase is fought in the following decade (EXTENDED WAR):
    # its faction (0 none) and Tension level bonus wait here until that decade starts
    PENDING = 7
    BONUS = 8
    # card 54 in this war: the district its holder selected, where the holder's Soldiers may be placed
    # as if a Barracks stood there (district + 1, and the holder's seat + 1; 0 none)
    C54_DISTRICT = 9
    C54_SEAT = 10


N_XG = len(XG)


class AS(IntEnum):
    """Where an attacker is (``State.xw_att[tile, XA.STATE]``)."""

    NONE = 0  # tile not in use
    OUTSIDE = 1  # waiting at a district edge of the perimeter (XA.POS: the edge's district)
    IN = 2  # in a district of the Combat Area (XA.POS)
    DEFEATED = 3  # removed by a player (XA.OWNER keeps its control card)
    GONE = 4  # removed otherwise (its own card)


class XA(IntEnum):
    """Per War Opponent tile (``State.xw_att[tile]``): the attacker on it and its control card."""

    CARD = 0  # control card id (-1: a card 83 recruit, no control card)
    KIND = 1  # AK
    STATE = 2  # AS
    POS = 3  # district
    EDGE = 4  # placement edge index (rules xw_edges)
    WOUNDS = 5
    MOVES = 6  # movements made this turn
    CROSSED = 7  # 1 when it entered a district closed by Walls this turn
    IMMOBILE = 8  # turns it still cannot move (card 22)
    OWNER = 9  # seat holding its control card (-1 none)
    READY = 10  # first war round in which it acts
    FIGHTS = 11  # fights in its current turn (card 76)


N_XA = len(XA)


class XM(IntEnum):
    """Per player war marker (``State.xw_mini[seat, slot]``), beside ``State.minis``."""

    POS = 0  # district in the Combat Area, -1 off it
    MOVES = 1  # movements made this turn
    FOUGHT = 2  # 1 after a fight this turn ("The Fight action ends miniature turn")
    IMMOBILE = 3  # turns it still cannot move (card 22)
    RECRUIT = 4  # 1: added by card 83, 2: card 59's worker (no supply miniature; removed at the war end)
    READY = 5  # first war round in which it acts
    USED = 6  # 1 once it fought in this war (card 57: "used in the current War")


N_XM = len(XM)


class XP(IntEnum):
    """Per seat (``State.xw_seat[seat]``)."""

    FIGHTS_TURN = 0  # fights this turn (card 76)
    PENALTIES = 1  # War penalties of the last war, before control cards
    CANCELLED = 2  # penalties cancelled by control cards
    CONTROL_HP = 3  # HP on the control cards gained in this war


N_XP = len(XP)


class XF(IntEnum):
    """One side of the fight being resolved (``State.xw_fight[side]``, work area; side 0 the player,
    1 the attacker)."""

    AV = 0  # base AV (after cards 46 / 47)
    HP = 1  # HP (after cards 46 / 47)
    CARD_AV = 2  # AV bonus of the cards
    BURN_AV = 3  # +5 burns
    FACTOR = 4  # x2 burns applied (count)
    WALLS = 5  # walls bonus
    FRIENDS = 6  # friend bonus
    SHIELD = 7  # wounds the shield still blocks
    N_CARDS = 8  # cards shown (State.xw_cards[side, :N_CARDS]; -1 once cancelled)
    BONUS = 9  # extra AV (card 77's second fight)
    TOTAL = 10  # final AV
    FIGHTER = 11  # the fighter: the war marker slot (player side) or the War Opponent tile (attacker side)
    SEAT = 12  # player side: the fighter's seat
    ACTING = 13  # 1 on the side whose turn it is (the attacker's: a Wall it just crossed counts)


N_XF = len(XF)


class TS(IntEnum):
    """Per seat war tallies for the records (``State.tally[seat]``), counted as the events happen,
    whole game; both War rules unless marked EXTENDED WAR. The decades table holds them at each
    decade end (a decade's count is the difference), the games table at the game's end."""

    TURNS = 0  # turns the seat played in the Action phases (its passing turn included)
    FIGHTS = 1  # base War: battles with miniatures fielded; EXTENDED WAR: Fight!s of its miniatures
    FIGHTS_WON = 2  # base War: battles won with miniatures; EXTENDED WAR: Fight!s its side won
    FIGHTS_LOST = 3  # base War: battles lost with miniatures; EXTENDED WAR: Fight!s the attacker won (ties: neither)
    WOUNDS = 4  # Wounds put on its miniatures
    MINIS_LOST = 5  # its miniatures removed by a War (Ev.MINI_LOST)
    WAR_VP = 6  # VP assigned by the War (cards 34, 55, 57, and the VP status bonus they take)
    XW_PENALTIES = 7  # EXTENDED WAR: War penalties taken at the wars' ends, before control cards
    XW_CANCELLED = 8  # EXTENDED WAR: War penalties cancelled by its control cards
    XW_PILLAGE = 9  # EXTENDED WAR: pillage markers put in a district holding a building of its colour
    XW_DEFEATED = 10  # EXTENDED WAR: attackers its miniatures or cards defeated
    XW_FIGHTS_AK = 11  # EXTENDED WAR: N_AK columns, Fight!s against each attacker kind (AK)
    XW_WON_AK = 15  # EXTENDED WAR: N_AK columns, Fight!s won against each attacker kind
    XW_FIGHTS_MINI = 19  # EXTENDED WAR: 4 columns, Fight!s of each of its miniature kinds (Mini 1..4)
    XW_WON_MINI = 23  # EXTENDED WAR: 4 columns, Fight!s won by each of its miniature kinds


N_TS = TS.XW_WON_MINI + 4


class TG(IntEnum):
    """Game tallies for the records (``State.tally_g``), whole game (see :class:`TS`)."""

    ROUNDS = 0  # rounds of the Action phases (each an Extended War's war round while one is on)
    XW_ROUNDS = 1  # EXTENDED WAR: war rounds played (Action phase rounds with a war on, last decade's rounds)
    WARS_NATIVES = 2  # Wars fought against the Natives (base: declared; EXTENDED WAR: ended)
    WARS_PIRATES = 3  # Wars fought against the Pirates
    XW_ATTACKERS = 4  # EXTENDED WAR: attackers placed at the Combat Area setups
    XW_LEFT = 5  # EXTENDED WAR: attackers left at the wars' ends
    XW_PILLAGE_SCORE = 6  # EXTENDED WAR: the pillage markers' scores at the wars' ends


N_TG = len(TG)


class State(NamedTuple):
    """One game's state record, in three groups: the GAME state (what the rules track: a searching
    player copies exactly these, :func:`sim.game.copy_state`), the RECORDS written for the run's
    tables and the log, and the WORK areas (decision listings, scratch and memos that any
    computation may rebuild). :data:`GAME_FIELDS`, :data:`RECORD_FIELDS` and :data:`WORK_FIELDS`
    name them; ``tests/sim/test_state.py`` checks every field is in exactly one."""

    # ---- game state
    g: np.ndarray  # int32[N_G]                game scalars (G)
    pl: np.ndarray  # int32[5, N_PF]           per-player scalars (PF)
    vps: np.ndarray  # int32[5, N_VS]          VP gained by source, whole game
    order: np.ndarray  # int32[5]              seat at each Turn Order position
    cell_b: np.ndarray  # int32[NC]            building type on each map space (B)
    cell_owner: np.ndarray  # int32[NC]        owner seat of Lot/House/Palace, status marker on Monument/Fountain; -1
    cell_cube: np.ndarray  # int32[NC]         marker cubes (wood/stone from the supply) on a Hacienda
    act_used: np.ndarray  # int32[5, NC]       1 if the seat activated the building there this decade
    grids: np.ndarray  # int32[N_GRIDS]        resource grids: GRID_STONE.. stone, GRID_WOOD.. wood, GRID_PRECIOUS
    stacks: np.ndarray  # int32[4, 2]          coin stacks: [silver, bronze]
    warehouse: np.ndarray  # int32[2]          City Warehouse [wood, stone]
    supply: np.ndarray  # int32[N_SUP]         game supply (Sup)
    major: np.ndarray  # int32[6, 12]          worker on each grid space: -1 empty, seat, 5 = City Council worker
    major_state: np.ndarray  # int32[6, 3]     [completed this grid (awaiting recovery), times completed, first-worker VP taken]
    walls: np.ndarray  # int32[NSEG]           1 when a wall stands on the perimeter segment
    roads: np.ndarray  # int32[8]              1 when the district has its Road marker
    minis: np.ndarray  # int32[5, 3, 2]        per war marker: [Mini kind, wounds]
    card_loc: np.ndarray  # int32[84]          Loc code
    card_rot: np.ndarray  # int32[84]          1 when rotated (used)
    card_seq: np.ndarray  # int32[84]          order within deck/pile (higher = nearer the top)
    card_turn: np.ndarray  # int32[84]         1 when rotated during the current turn (no burn then)
    peace: np.ndarray  # int32[14]             peace marker on decade slot
    spain: np.ndarray  # int32[14]             Spain support cube on decade slot
    dock: np.ndarray  # int32[5]               elements on the Dock per seat (3-element limit)
    built: np.ndarray  # int32[5, 17]          Minor buildings constructed by each seat (B), cumulative
    card_uses: np.ndarray  # int32[84]        times each card's power was used this game
    card_active: np.ndarray  # int32[84]      1 while a used card's power modifies its owner's actions this turn
    card_uses_seat: np.ndarray  # int32[5]     card powers used by each seat this game
    card_uses_by: np.ndarray  # int32[5, 84]   times each seat used each card's power this game
    rng: np.ndarray  # uint64[1]               SplitMix64 state of this game's random stream (sim.rng)
    ai_deck: np.ndarray  # int32[16]           the Solo A.I.'s deck: Solo card ids (rules ai_deck) from the top
    xw: np.ndarray  # int32[N_XG]              EXTENDED WAR scalars (XG)
    xw_att: np.ndarray  # int32[MAX_TILES, N_XA]  per War Opponent tile: the attacker and its control card (XA)
    xw_mini: np.ndarray  # int32[5, 3, N_XM]   per player war marker: its miniature in the Combat Area (XM)
    xw_seat: np.ndarray  # int32[5, N_XP]      per seat (XP)
    xw_pillage: np.ndarray  # int32[8]         pillage marker flames per district (0 none, 1, 2)
    # ---- records
    log: np.ndarray  # int32[L, 8]             event log buffer (code, seat, args...)
    rec_decade: np.ndarray  # int32[12, 5, R]  per decade x seat record (records.py)
    rec_game: np.ndarray  # int32[5, RG]       per seat final record
    acts: np.ndarray  # int32[5, N_ACT]        TURN rows each seat carried out this game, by Act code (sim.actions.apply_option)
    gained: np.ndarray  # int32[5, 4]          resources (Res) each seat acquired this game; the starting ones not counted
    cards_taken: np.ndarray  # int32[5]        Affiliate cards each seat took into its hand this game (sim.deck.gain_card)
    tally: np.ndarray  # int32[5, N_TS]        per seat war tallies and turns, whole game (TS; sim.tally)
    tally_g: np.ndarray  # int32[N_TG]         game tallies: rounds, Wars by faction, Extended War totals (TG; sim.tally)
    # ---- work areas: one decision's listing and values
    opts: np.ndarray  # int32[MAX_OPTIONS, 5]  legal options of the current decision
    turn_n: np.ndarray  # int32[N_TL]         counters of the last TURN listing (TL)
    cell_tmp: np.ndarray  # int32[NC]         turn listing: the building types a seat can build
    turn_tmp: np.ndarray  # int32[2, max(NC, 84)]  turn listing: building types by requirement, the hand (also card_options)
    grp: np.ndarray  # int32[MAX_GROUPS, 5]   BUILD groups of a grouped TURN listing [type, district + 1, c column, spaces, first space]
    # the seam's answer to a grouped TURN listing (sim.seam.choose_grouped writes it, sim.actions.construction
    # lists the rows it marks): 1 for the BUILD groups (Status marker, type, district + 1) tied for best
    grp_tied: np.ndarray  # int32[2, 17, 9]
    # ---- work areas: scratch of single kernels
    drawn: np.ndarray  # int32[8]             cards.draw_and_keep: the cards drawn
    vote_sides: np.ndarray  # int32[5]        council.call_vote: each seat's side
    vote_votes: np.ndarray  # int32[5]        council.call_vote: each seat's votes
    vote_free: np.ndarray  # int32[5]         council.call_vote: votes from card 40 (counted, not paid)
    rank_tmp: np.ndarray  # int32[5]          game.finish_game: each seat's final rank
    hidden_n: np.ndarray  # int32[5]          game.determinize: face-down cards redrawn per seat
    plan_need: np.ndarray  # int32[4]         core.pay_plan: resources still needed by a candidate plan
    pay_need: np.ndarray  # int32[4]          core.pay_resources: resources still to pay
    ai_opts: np.ndarray  # int32[128, 5]     ai_choice.tie_among: the A.I.'s decision rows, kept while the human decides its tie
    xw_fight: np.ndarray  # int32[2, N_XF]    extended_war.fight: the two sides of the fight being resolved (XF)
    xw_cards: np.ndarray  # int32[2, MAX_FIGHT_CARDS]  extended_war.fight: the cards each side shows (-1 cancelled)
    xw_tmp: np.ndarray  # int32[MAX_TILES]    extended_war: the attackers of one initiative in acting order
    # ---- work areas: memos (rebuilt whenever what they were made from differs)
    # city memo (city.own_spaces): per seat, the map [cell_b, cell_owner, roads, valid flag] its own_* fields were made from
    own_key: np.ndarray  # int32[5, 2 NC + 8 + 1]
    own_n: np.ndarray  # int32[5, 2]          city memo: per seat, [its spaces in own_list, spaces in own_act]
    own_near: np.ndarray  # int32[5, NC]      city memo: per seat, 1 on the spaces next to a building of its colour (city.mark_near_own)
    own_list: np.ndarray  # int32[5, NC]      city memo: per seat, its spaces (cell_owner == seat), in map order
    # city memo: per seat, the spaces it may put a Minor building on (city.minor_space_ok), by (building there, district + 1)
    own_cnt: np.ndarray  # int32[5, 17, 9]
    own_first: np.ndarray  # int32[5, 17, 9]  city memo: per seat, the first such space in map order (-1 none)
    own_act: np.ndarray  # int32[5, NC]       city memo: per seat, spaces whose building it may activate there (city.activatable, activation_place_ok)


_FIELDS = State._fields
GAME_FIELDS = _FIELDS[:_FIELDS.index("log")]
RECORD_FIELDS = ("log", "rec_decade", "rec_game", "acts", "gained", "cards_taken", "tally", "tally_g")
WORK_FIELDS = _FIELDS[_FIELDS.index("opts"):]


def pack(*parts: NamedTuple) -> np.record:
    """Copy NamedTuples of arrays into one numpy record with a field per array (same names, dtypes
    and shapes, the parts' fields in order); the fields of the result are views into a single buffer."""
    items = [(name, a) for fields in parts for name, a in zip(fields._fields, fields)]
    dt = np.dtype([(name, a.dtype, a.shape) for name, a in items], align=True)
    buf = np.zeros(1, dt).view(np.recarray)
    for name, a in items:
        buf[name][0] = a
    return buf[0]


def _empty_tiles() -> np.ndarray:
    """The War Opponent tiles of a new state, as sim.extended_war.clear_war leaves them: none in use,
    no control card (-1), no owner (-1)."""
    att = np.zeros((MAX_TILES, N_XA), np.int32)
    att[:, XA.CARD] = -1
    att[:, XA.OWNER] = -1
    return att


def _off_the_area() -> np.ndarray:
    """The war markers of a new state: every miniature off the Combat Area (district -1, as
    sim.extended_war.clear_war and end_war leave them; 0 would be district N1)."""
    mini = np.zeros((MAX_PLAYERS, N_WAR_MARKERS, N_XM), np.int32)
    mini[:, :, XM.POS] = -1
    return mini


def new_state(n_cells: int, n_segments: int, n_rec: int, n_rec_game: int, players: NamedTuple) -> State:
    """Allocate a blank state record; :func:`sim.game.setup` fills it. ``players``: the players' own
    fields (blank arrays; strategies.seats through sim.seam), packed after the engine's: the
    engine neither declares nor reads them. The log buffer has a fixed size (:data:`LOG_ROWS`) so
    that logging on or off does not change the record type (and so does not compile the engine
    twice); ``G.LOG_ON`` decides whether it is filled."""
    z = np.zeros
    return pack(State(
        g=z(N_G, np.int32),
        pl=z((MAX_PLAYERS, N_PF), np.int32),
        vps=z((MAX_PLAYERS, N_VS), np.int32),
        order=z(MAX_PLAYERS, np.int32),
        cell_b=z(n_cells, np.int32),
        cell_owner=np.full(n_cells, -1, np.int32),
        cell_cube=z(n_cells, np.int32),
        act_used=z((MAX_PLAYERS, n_cells), np.int32),
        grids=z(N_GRIDS, np.int32),
        stacks=z((4, 2), np.int32),
        warehouse=z(2, np.int32),
        supply=z(N_SUP, np.int32),
        major=np.full((N_MAJOR, MAX_MAJOR_SPACES), -1, np.int32),
        major_state=z((N_MAJOR, 3), np.int32),
        walls=z(n_segments, np.int32),
        roads=z(N_DISTRICTS, np.int32),
        minis=z((MAX_PLAYERS, N_WAR_MARKERS, 2), np.int32),
        card_loc=z(N_CARDS, np.int32),
        card_rot=z(N_CARDS, np.int32),
        card_seq=z(N_CARDS, np.int32),
        card_turn=z(N_CARDS, np.int32),
        peace=z(N_DECADE_SLOTS, np.int32),
        spain=z(N_DECADE_SLOTS, np.int32),
        dock=z(MAX_PLAYERS, np.int32),
        built=z((MAX_PLAYERS, N_BUILDING_TYPES), np.int32),
        card_uses=z(N_CARDS, np.int32),
        card_active=z(N_CARDS, np.int32),
        card_uses_seat=z(MAX_PLAYERS, np.int32),
        card_uses_by=z((MAX_PLAYERS, N_CARDS), np.int32),
        rng=z(1, np.uint64),
        ai_deck=z(N_AI_CARDS, np.int32),
        xw=z(N_XG, np.int32),
        xw_att=_empty_tiles(),
        xw_mini=_off_the_area(),
        xw_seat=z((MAX_PLAYERS, N_XP), np.int32),
        xw_pillage=z(N_DISTRICTS, np.int32),
        log=z((LOG_ROWS, LOG_WIDTH), np.int32),
        rec_decade=z((12, MAX_PLAYERS, n_rec), np.int32),
        rec_game=z((MAX_PLAYERS, n_rec_game), np.int32),
        acts=z((MAX_PLAYERS, N_ACT), np.int32),
        gained=z((MAX_PLAYERS, len(Res)), np.int32),
        cards_taken=z(MAX_PLAYERS, np.int32),
        tally=z((MAX_PLAYERS, N_TS), np.int32),
        tally_g=z(N_TG, np.int32),
        opts=z((MAX_OPTIONS, OPT_WIDTH), np.int32),
        turn_n=z(N_TL, np.int32),
        cell_tmp=z(n_cells, np.int32),
        turn_tmp=z((2, max(n_cells, N_CARDS)), np.int32),
        grp=z((MAX_GROUPS, 5), np.int32),
        grp_tied=z((2, N_BUILDING_TYPES, N_DISTRICTS + 1), np.int32),
        drawn=z(MAX_DRAWN, np.int32),
        vote_sides=z(MAX_PLAYERS, np.int32),
        vote_votes=z(MAX_PLAYERS, np.int32),
        vote_free=z(MAX_PLAYERS, np.int32),
        rank_tmp=z(MAX_PLAYERS, np.int32),
        hidden_n=z(MAX_PLAYERS, np.int32),
        plan_need=z(4, np.int32),
        pay_need=z(4, np.int32),
        ai_opts=z((AI_TIE_ROWS, OPT_WIDTH), np.int32),
        xw_fight=z((2, N_XF), np.int32),
        xw_cards=z((2, MAX_FIGHT_CARDS), np.int32),
        xw_tmp=z(MAX_TILES, np.int32),
        own_key=z((MAX_PLAYERS, 2 * n_cells + N_DISTRICTS + 1), np.int32),  # valid flag 0: empty
        own_n=z((MAX_PLAYERS, 2), np.int32),
        own_near=z((MAX_PLAYERS, n_cells), np.int32),
        own_list=z((MAX_PLAYERS, n_cells), np.int32),
        own_cnt=z((MAX_PLAYERS, N_BUILDING_TYPES, N_DISTRICTS + 1), np.int32),
        own_first=np.full((MAX_PLAYERS, N_BUILDING_TYPES, N_DISTRICTS + 1), -1, np.int32),
        own_act=z((MAX_PLAYERS, n_cells), np.int32),
    ), players)
