"""A whole game of Río de la Plata: GAME PREPARATION, then each turn A | WORKER PLACEMENT, B | EFFECTS OF
WORKERS and C | END OF TURN CHECKS AND WAR (the war check, the player order, the turn change), and the
END OF THE GAME's scoring. A game is a pure function of its seed (:mod:`gamekit.rng`), its rules and its
players (:class:`rio.players.kinds.Policy`).

A chunk of games is played by :func:`rio.players.search.play_games_search` (the one game loop, which lets
search seats simulate) from :func:`rio.play.play`, the Python shell that checks the arguments and allocates;
with ``audit``, the same loop checks the invariants between phases (:mod:`rio.engine.audit`)."""

from __future__ import annotations

from numba import njit

from gamekit.rng import permute_into
from rio.engine import seam
from rio.engine.city import open_edges, record_city, road_connected
from rio.engine.effects import effect_phase
from rio.engine.options import PL
from rio.engine.order import position_of, update_order
from rio.engine.placement import apply_placement, listed_placements, reachable_spaces
from rio.engine.records import GG, GR, TR
from rio.engine.scoring import end_scoring, ranks
from rio.engine.state import NO, OPT, PK, G
from rio.engine.war import advance_enemies, end_of_turn_war
from rio.keys import CK, LK, Building, K, Pool


@njit(cache=True)
def setup(r, geo, st, sc, players, level, short, seed):
    """GAME PREPARATION: resources by experience level (the Short game's extra), workers, the order drawn at
    random and the last player's bonus; the board empty, the enemies off the track."""
    st.rng[0] = seed
    c = players - 2
    colours = players + (1 if r.by_count[c, CK.RULES_PLAYERS] > players and r.k[K.TWO_PLAYER_SHADOW] else 0)
    st.g[:] = 0
    st.g[G.TURNS] = r.k[K.SHORT_GAME_TURNS] if short else r.k[K.GAME_TURNS]
    st.g[G.PLAYERS] = players
    st.g[G.COLOURS] = colours
    st.g[G.RULES_PLAYERS] = r.by_count[c, CK.RULES_PLAYERS]
    st.g[G.COUNT] = c
    st.g[G.LEVEL] = level
    st.g[G.SHORT] = short
    st.g[G.STICKS] = r.k[K.TILES_WALL_ROAD_PIECES]
    st.g[G.ATTACKER] = NO
    st.g[G.FIRST_TURN] = 1
    st.pl[:, :] = 0
    st.vp_src[:, :] = 0
    for col in range(colours):
        st.pl[col, PK.SUPPLY] = r.k[K.GAME_USABLE_WORKERS]
        st.pl[col, PK.HUTS] = r.pool_tiles[Pool.HUT_HOUSE]
        if col < players:
            st.pl[col, PK.WOOD] = r.level[level, LK.START_WOOD] + (r.k[K.SHORT_GAME_START_WOOD] if short else 0)
            st.pl[col, PK.STONE] = r.level[level, LK.START_STONE] + (r.k[K.SHORT_GAME_START_STONE] if short else 0)
            st.pl[col, PK.SILVER] = r.level[level, LK.START_SILVER] + (r.k[K.SHORT_GAME_START_SILVER] if short else 0)
            st.pl[col, PK.VP] = r.k[K.GAME_START_VP]
    st.order[:] = NO
    permute_into(st, st.order, players)
    last = st.order[players - 1]
    st.pl[last, PK.WOOD] += r.k[K.SETUP_LAST_PLAYER_WOOD]
    st.pl[last, PK.STONE] += r.k[K.SETUP_LAST_PLAYER_STONE]
    st.sp_building[:] = NO
    st.sp_owner[:] = NO
    st.sp_pool[:] = NO
    st.sp_built[:] = 0
    st.sp_workers[:, :] = 0
    st.sp_used[:] = 0
    st.sp_destroyed[:] = 0
    h, w = geo.dims[0], geo.dims[1]
    for y in range(h):
        for x in range(w):
            for sd in range(st.edge.shape[1]):
                st.edge[y * w + x, sd] = r.map_edge[y, x, sd]
    st.road_v[:, :] = 0
    st.road_h[:, :] = 0
    st.grid[:, :] = NO
    st.grid_placer[:, :] = NO
    st.grid_paid[:, :] = 0
    st.major_done[:] = 0
    st.major_at[:] = NO
    st.major_log[:, :] = 0  # nothing completed (rio.engine.state.MR: the first completer and turn kept + 1)
    st.mine[:, :] = NO
    st.office_owner[:] = NO
    st.office_turn[:] = 0
    st.office_worker[:] = NO
    st.ship[:, :] = 0
    for q in range(st.pool_left.shape[0]):
        st.pool_left[q] = 0 if q == Pool.HUT_HOUSE else r.pool_tiles[q]
    sc.conn[:] = 0


@njit(cache=True)
def place_until_pass(r, geo, st, sc, pol, seat):
    """``seat`` places, one placement at a time, until he passes. The buildings stay as they are while he
    places: the spaces he may reach are listed once (again after a substitution), and his player is told
    the run begins
    (``seam.placements_begin``: what it counts from the buildings it may keep until he passes)."""
    nreach = reachable_spaces(r, geo, st, sc, seat)
    seam.placements_begin(r, geo, st, sc, pol, seat)
    while True:
        n = listed_placements(r, geo, st, sc, seat, nreach)
        j = seam.choose_placement(r, geo, st, sc, pol, seat, n)
        if not apply_placement(r, geo, st, sc, seat, j):
            return
        if sc.opts[j, OPT.KIND] == PL.SUBSTITUTE:  # the others' workers there went home
            nreach = reachable_spaces(r, geo, st, sc, seat)


@njit(cache=True)
def placement_phase(r, geo, st, sc, pol, first_pos):
    """A | WORKER PLACEMENT from position ``first_pos`` on: each player in order places his workers."""
    for pos in range(first_pos, st.g[G.PLAYERS]):
        place_until_pass(r, geo, st, sc, pol, st.order[pos])


@njit(cache=True)
def end_of_turn(st):
    """The turn's counters start again; the Ship's departure payment is spent; city workers stay."""
    for c in range(st.g[G.COLOURS]):
        st.pl[c, PK.PLACED] = 0
        st.pl[c, PK.BOUGHT] = 0
        st.pl[c, PK.OFFICE] = 0
        st.pl[c, PK.LOADED] = 0
    st.sp_used[:] = 0
    st.g[G.SHIP_PAID] = 0


@njit(cache=True)
def finish_turn(r, geo, st, sc, pol, war_rec):
    """The turn after its Placement phase: B, then C (the war check, the player order, the turn change).
    Returns the wars played."""
    effect_phase(r, geo, st, sc, pol)
    end_of_turn(st)
    wars = end_of_turn_war(r, geo, st, sc, pol, war_rec)
    road_connected(geo, st, sc)
    update_order(r, st, pol)
    if st.g[G.TURN] + 1 < st.g[G.TURNS]:
        advance_enemies(r, st)
    st.g[G.TURN] += 1
    st.g[G.FIRST_TURN] = 0
    return wars


@njit(cache=True)
def play_turn(r, geo, st, sc, pol, war_rec):
    """One year: A, B, C. Returns the wars played."""
    placement_phase(r, geo, st, sc, pol, 0)
    return finish_turn(r, geo, st, sc, pol, war_rec)


@njit(cache=True)
def record_game(r, geo, st, rec, gi):
    """The game's row per seat (its start position is written by :func:`start_game`)."""
    players = st.g[G.PLAYERS]
    for seat in range(players):
        row = rec.seat[gi, seat]
        row[GR.VP] = st.pl[seat, PK.VP]
        row[GR.SILVER] = st.pl[seat, PK.SILVER]
        row[GR.WOOD] = st.pl[seat, PK.WOOD]
        row[GR.STONE] = st.pl[seat, PK.STONE]
        row[GR.PRECIOUS] = st.pl[seat, PK.PRECIOUS]
        row[GR.ATTACKS] = st.pl[seat, PK.ATTACKS]
        for v in range(st.vp_src.shape[1]):
            row[GR.VPS + v] = st.vp_src[seat, v]
    for s in range(st.sp_building.shape[0]):
        o = st.sp_owner[s]
        if o != NO:
            rec.seat[gi, o, GR.HOUSES] += st.sp_building[s] == Building.HOUSE
            rec.seat[gi, o, GR.HUTS] += st.sp_building[s] == Building.HUT
    for o in range(st.office_owner.shape[0]):
        rec.office[gi, o, 0] = st.office_owner[o]
        rec.office[gi, o, 1] = st.office_turn[o] if st.office_owner[o] != NO else NO
        if st.office_owner[o] != NO:
            rec.seat[gi, st.office_owner[o], GR.OFFICES] += 1
    g = rec.game[gi]
    g[GG.PLAYERS] = players
    g[GG.LEVEL] = st.g[G.LEVEL]
    g[GG.SHORT] = st.g[G.SHORT]
    g[GG.TURNS] = st.g[G.TURN]
    g[GG.WARS] = st.g[G.WARS]
    g[GG.VOYAGES] = st.g[G.VOYAGES]
    n_open = 0
    for d in range(geo.perimeter.shape[0]):
        n_open += open_edges(geo, st, d)
    g[GG.WALLS_OPEN] = n_open
    g[GG.STICKS] = st.g[G.STICKS]
    for m in range(st.major_done.shape[0]):
        g[GG.MAJORS + m] = st.major_done[m]


@njit(cache=True)
def record_turn(st, rec, gi):
    """The end of a turn (after its turn change) as row TURN - 1."""
    t = st.g[G.TURN] - 1
    for seat in range(st.g[G.PLAYERS]):
        row = rec.turn[gi, t, seat]
        row[TR.VP] = st.pl[seat, PK.VP]
        row[TR.SILVER] = st.pl[seat, PK.SILVER]
        row[TR.CUBES] = st.pl[seat, PK.WOOD] + st.pl[seat, PK.STONE] + st.pl[seat, PK.PRECIOUS]
        row[TR.POSITION] = position_of(st, seat)
    for s in range(st.sp_building.shape[0]):
        if st.sp_building[s] == Building.HOUSE:
            rec.turn[gi, t, st.sp_owner[s], TR.HOUSES] += 1


@njit(cache=True)
def start_game(r, geo, st, sc, players, level, short, seed, rec, gi):
    """GAME PREPARATION; each seat's starting position into game ``gi``'s records."""
    setup(r, geo, st, sc, players, level, short, seed)
    for p in range(players):
        rec.seat[gi, st.order[p], GR.START_POSITION] = p


@njit(cache=True)
def end_game(r, geo, st, sc, rec, gi):
    """END OF THE GAME: the scoring, the ranks, the records."""
    end_scoring(r, geo, st, sc)
    ranks(r, st, rec.seat[gi, :, GR.RANK])
    record_game(r, geo, st, rec, gi)
    record_city(r, geo, st, sc, rec, gi)
