"""The record schema: the columns of the decades and games tables, named and numbered (``RD``, ``RG``,
``DECADE_COLUMNS``, ``GAME_COLUMNS``, the war tallies' ``TALLY_COLUMNS`` and ``TALLY_G_COLUMNS``).

Its own module, apart from the jitted kernels that fill the rows (:mod:`sim.records`, which
imports it and re-exports every name): a reader of the column names (:mod:`analysis`,
:mod:`sim.dataset`, the orchestration) imports the schema without loading an engine kernel. It
imports only the standard library and the engine's plain enum modules (:mod:`sim.state`,
:mod:`sim.codes`), which hold no jitted code; tests/sim/test_schema.py holds :mod:`analysis` to
that. The kernels freeze its enums and sizes into their machine code, so the engine's cache folder
must follow this file as it follows sim/state.py (``sim.engine_hash``).

Column names are data (the runner turns the arrays into Parquet tables with these names).
Columns are only ever appended (``trinidad.digest`` compares runs on the columns its saved
digests cover). The war tallies (:data:`TALLY_COLUMNS`, ``State.tally``) and game tallies
(:data:`TALLY_G_COLUMNS`, ``State.tally_g``) close both rows: cumulative at each decade end in the
decades table, the game's totals in the games table (a game tally repeated on each seat's row).
"""

from enum import IntEnum

from sim.codes import Act
from sim.state import AK, BANNER_NAMES, N_AK, N_CARDS, N_CHARACTERS, N_TG, N_TS, N_VS, TG, TS, VS_NAMES, Mini, Res

N_BUILT = 15  # Minor building types 1..14 counted in State.built (index 0 unused)


class RD(IntEnum):
    """Per decade x seat record columns (fixed part; VP by source and built counts follow)."""

    DECADE = 0
    ERA = 1
    SEAT = 2
    TURN_POS = 3
    CHARACTER = 4
    STRATEGY = 5
    VP = 6
    WOOD = 7
    STONE = 8
    PRECIOUS = 9
    METAL = 10
    SILVER = 11
    BRONZE = 12
    FAITH = 13
    COUNCIL = 14
    WAR_PENALTY = 15
    LOTS_ON_MAP = 16
    HOUSES_ON_MAP = 17
    PALACES_ON_MAP = 18
    WORKERS_ON_GRIDS = 19
    WAR_FACTION = 20
    WAR_WA = 21
    WARS_FOUGHT = 22
    WARS_WON = 23
    WAR_PENALTY_STEPS = 24
    NAT_POS = 25
    NAT_DOUBLE = 26
    PIR_POS = 27
    PIR_DOUBLE = 28
    CARDS_HELD = 29
    MILITARY_AV = 30
    CARDS_USED = 31  # Affiliate card powers the seat used so far this game
    BANNERS = 32  # 6 columns, 0/1/2 each
    VP_SRC = 38  # N_VS columns, cumulative VP by source
    BUILT = 38 + N_VS  # N_BUILT - 1 columns: Minor buildings constructed by the seat, cumulative
    CARD_USES = 38 + N_VS + N_BUILT - 1  # N_AFFILIATES columns: uses of each Affiliate card's power by the seat, cumulative
    SCORING = 38 + N_VS + N_BUILT - 1 + N_CARDS - N_CHARACTERS  # the Era scored at the end of this decade (C.7), 0 none
    TALLY = 38 + N_VS + N_BUILT - 1 + N_CARDS - N_CHARACTERS + 1  # N_TS columns: the seat's war tallies so far (TS)
    TALLY_G = 38 + N_VS + N_BUILT - 1 + N_CARDS - N_CHARACTERS + 1 + N_TS  # N_TG columns: the game tallies so far (TG)


N_AFFILIATES = N_CARDS - N_CHARACTERS
N_RD = RD.TALLY_G + N_TG
_MINI_NAMES = ["miliciano", "miliciano_vet", "soldier", "soldier_vet"]  # Mini 1..4
assert len(_MINI_NAMES) == len(Mini) - 1
TALLY_COLUMNS = (
    ["turns", "fights", "fights_won", "fights_lost", "wounds_taken", "minis_lost", "war_vp", "xw_penalties", "xw_cancelled",
     "xw_pillage", "xw_defeated"]
    + [f"xw_fights_vs_{a.name.lower()}" for a in AK]
    + [f"xw_won_vs_{a.name.lower()}" for a in AK]
    + [f"xw_fights_{m}" for m in _MINI_NAMES]
    + [f"xw_won_{m}" for m in _MINI_NAMES]
)
TALLY_G_COLUMNS = ["rounds", "xw_rounds", "wars_natives", "wars_pirates", "xw_attackers", "xw_left", "xw_pillage_score"]
assert len(TALLY_COLUMNS) == N_TS and TALLY_COLUMNS[TS.XW_FIGHTS_AK] == "xw_fights_vs_indio" and N_AK == 4
assert TALLY_COLUMNS[TS.XW_WON_MINI] == "xw_won_miliciano" and TALLY_COLUMNS[TS.WAR_VP] == "war_vp"
assert len(TALLY_G_COLUMNS) == N_TG and TALLY_G_COLUMNS[TG.XW_PILLAGE_SCORE] == "xw_pillage_score"

_BUILT_NAMES = ["lot", "house", "palace", "quarry", "carpentry", "market", "corporation",
                "hacienda_wood", "hacienda_stone", "square", "monument", "fountain", "barracks", "church"]
DECADE_COLUMNS = (
    [m.name.lower() for m in RD if m < RD.BANNERS]
    + [f"banner_{b}" for b in BANNER_NAMES]
    + [f"vp_{s}" for s in VS_NAMES]
    + [f"built_{b}" for b in _BUILT_NAMES]
    + [f"uses_card_{c + 1}" for c in range(N_CHARACTERS, N_CARDS)]
    + ["scoring"]
    + TALLY_COLUMNS
    + TALLY_G_COLUMNS
)
assert len(DECADE_COLUMNS) == N_RD
# the Act codes in the games table's act_* columns, in Act order (State.acts is indexed by code)
ACT_CODES = tuple(int(a) for a in Act)
N_ACTS = len(ACT_CODES)
N_RES = len(Res)


class RG(IntEnum):
    """Per game x seat record columns: the fixed part, VP by source, then what the seat played."""

    SEAT = 0
    CHARACTER = 1
    STRATEGY = 2
    VP = 3
    RANK = 4
    WINNER = 5
    TIE = 6
    RESOURCES = 7
    DECISIONS = 8
    VP_SRC = 9  # N_VS columns
    BUILT = 9 + N_VS  # N_BUILT - 1 columns: Minor buildings constructed by the seat
    ACTS = 9 + N_VS + N_BUILT - 1  # N_ACTS columns: TURN rows the seat carried out, by Act (ACT_CODES)
    GAINED = 9 + N_VS + N_BUILT - 1 + N_ACTS  # N_RES columns: resources acquired, by Res (starting ones not counted)
    CARDS_TAKEN = 9 + N_VS + N_BUILT - 1 + N_ACTS + N_RES  # Affiliate cards taken into the seat's hand
    CARDS_USED = 9 + N_VS + N_BUILT - 1 + N_ACTS + N_RES + 1  # Affiliate card powers used
    PROBE_DECADE = 9 + N_VS + N_BUILT - 1 + N_ACTS + N_RES + 2  # restricted-play probe: decade its option was forced, 0 none
    TALLY = 9 + N_VS + N_BUILT - 1 + N_ACTS + N_RES + 3  # N_TS columns: the seat's war tallies (TS), whole game
    TALLY_G = 9 + N_VS + N_BUILT - 1 + N_ACTS + N_RES + 3 + N_TS  # N_TG columns: the game tallies (TG), whole game


N_RG = RG.TALLY_G + N_TG
GAME_COLUMNS = (
    [m.name.lower() for m in RG if m < RG.VP_SRC]
    + [f"vp_{s}" for s in VS_NAMES]
    + [f"built_{b}" for b in _BUILT_NAMES]
    + [f"act_{a.name.lower()}" for a in Act]
    + [f"gained_{r.name.lower()}" for r in Res]
    + ["cards_taken", "cards_used", "probe_decade"]
    + TALLY_COLUMNS
    + TALLY_G_COLUMNS
)
assert len(GAME_COLUMNS) == N_RG


def act_column(act: int) -> int:
    """The games record column (RG) that counts TURN rows of Act ``act``."""
    return RG.ACTS + ACT_CODES.index(int(act))
