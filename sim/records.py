"""Records filled inside the jitted loop: one row per decade x seat, one per game x seat.

The kernels that fill the rows (:func:`record_decade`, :func:`record_play`); the columns they fill
are named and numbered in :mod:`sim.schema`, a module without jitted code, so that a reader of the
column names loads no kernel. Every public name of the schema is re-exported here.
"""

from numba import njit

from sim.city import count_owned
from sim.deck import n_affiliates
from sim.major_buildings import own_on_grid
from sim.rules import XK
from sim.schema import (  # noqa: F401 (the schema, re-exported: imported from here by the engine and its tests)
    ACT_CODES,
    DECADE_COLUMNS,
    GAME_COLUMNS,
    N_ACTS,
    N_AFFILIATES,
    N_BUILT,
    N_RD,
    N_RES,
    N_RG,
    RD,
    RG,
    TALLY_COLUMNS,
    TALLY_G_COLUMNS,
    act_column,
)
from sim.scoring import scoring_due
from sim.state import N_CARDS, N_CHARACTERS, N_TG, N_TS, N_VS, PF, B, G


@njit(cache=True)
def military_av(st, r, seat):
    """Attack Value of the seat's miniatures under the War rules in play: the base War's AV
    (C.3 WAR), or with the EXTENDED WAR the miniatures' AV of its Fight! (MINIATURES)."""
    xw = r.xw_k[XK.ENABLED] == 1
    t = 0
    for j in range(st.minis.shape[1]):
        k = st.minis[seat, j, 0]
        t += r.xw_player_av[k] if xw else r.war_av[k]
    return t


@njit(cache=True)
def record_decade(st, r):
    d = st.g[G.DECADE]
    for s in range(st.g[G.NPLAYERS]):
        row = st.rec_decade[d - 1, s]
        row[RD.DECADE] = d
        row[RD.ERA] = st.g[G.ERA]
        row[RD.SEAT] = s
        row[RD.TURN_POS] = st.pl[s, PF.TURN_POS]
        row[RD.CHARACTER] = st.pl[s, PF.CHARACTER]
        row[RD.STRATEGY] = st.pl[s, PF.STRATEGY]
        row[RD.VP] = st.pl[s, PF.VP]
        for i in range(4):
            row[RD.WOOD + i] = st.pl[s, PF.WOOD + i]
        row[RD.SILVER] = st.pl[s, PF.SILVER]
        row[RD.BRONZE] = st.pl[s, PF.BRONZE]
        row[RD.FAITH] = st.pl[s, PF.FAITH]
        row[RD.COUNCIL] = st.pl[s, PF.COUNCIL]
        row[RD.WAR_PENALTY] = st.pl[s, PF.WAR_PENALTY]
        row[RD.LOTS_ON_MAP] = count_owned(st, s, B.LOT)
        row[RD.HOUSES_ON_MAP] = count_owned(st, s, B.HOUSE)
        row[RD.PALACES_ON_MAP] = count_owned(st, s, B.PALACE)
        w = 0
        for m in range(st.major.shape[0]):
            w += own_on_grid(st, m, s)
        row[RD.WORKERS_ON_GRIDS] = w
        row[RD.WAR_FACTION] = st.g[G.WAR_FACTION]
        row[RD.WAR_WA] = st.g[G.WAR_WA]
        row[RD.WARS_FOUGHT] = st.pl[s, PF.WARS_FOUGHT]
        row[RD.WARS_WON] = st.pl[s, PF.WARS_WON]
        row[RD.WAR_PENALTY_STEPS] = st.pl[s, PF.WAR_PENALTY_LAST]
        row[RD.NAT_POS] = st.g[G.NAT_POS]
        row[RD.NAT_DOUBLE] = st.g[G.NAT_DOUBLE]
        row[RD.PIR_POS] = st.g[G.PIR_POS]
        row[RD.PIR_DOUBLE] = st.g[G.PIR_DOUBLE]
        row[RD.CARDS_HELD] = n_affiliates(st, s)
        row[RD.MILITARY_AV] = military_av(st, r, s)
        row[RD.CARDS_USED] = st.card_uses_seat[s]
        for b in range(6):
            row[RD.BANNERS + b] = st.pl[s, PF.BANNER_BLACK + b]
        for v in range(N_VS):
            row[RD.VP_SRC + v] = st.vps[s, v]
        for t in range(1, N_BUILT):
            row[RD.BUILT + t - 1] = st.built[s, t]
        for c in range(N_CHARACTERS, N_CARDS):
            row[RD.CARD_USES + c - N_CHARACTERS] = st.card_uses_by[s, c]
        row[RD.SCORING] = st.g[G.ERA] if scoring_due(st, r) else 0
        for i in range(N_TS):
            row[RD.TALLY + i] = st.tally[s, i]
        for i in range(N_TG):
            row[RD.TALLY_G + i] = st.tally_g[i]


@njit(cache=True)
def record_play(st, s, row):
    """What seat ``s`` played this game, into its games record ``row`` (RG.BUILT to the tallies)."""
    for t in range(1, N_BUILT):
        row[RG.BUILT + t - 1] = st.built[s, t]
    for j in range(N_ACTS):
        row[RG.ACTS + j] = st.acts[s, ACT_CODES[j]]
    for i in range(N_RES):
        row[RG.GAINED + i] = st.gained[s, i]
    row[RG.CARDS_TAKEN] = st.cards_taken[s]
    row[RG.CARDS_USED] = st.card_uses_seat[s]
    row[RG.PROBE_DECADE] = st.pl[s, PF.PROBE_DECADE]
    for i in range(N_TS):
        row[RG.TALLY + i] = st.tally[s, i]
    for i in range(N_TG):
        row[RG.TALLY_G + i] = st.tally_g[i]
