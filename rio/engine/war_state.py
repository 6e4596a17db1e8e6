"""The war's scratch and record (WAR; COMBAT RULES): the groups of tokens on the city map, each a stack of
1..war.max_group tokens (bottom -> top; a mixed group's commander is the colour on top, COMBAT RULES "Token
use"), the war's scalars, the option buffers the war policy answers from, and the helpers both the engine
(:mod:`rio.engine.war`, :mod:`rio.engine.war_battle`) and the war policy (:mod:`rio.players.war_policy`)
read: where a group may go (RP-20), whose decision a colour's is.

Game state, records and scratch are kept apart: :class:`WarScratch` lives for one war; its ``rec`` is the
caller's ``war_rec`` (int32[WR]), the war's numbers. Attacking tokens (the purple discs) have the colour
``ENEMY``; they belong to nobody's supply.

Compile time: a kernel taking the big NamedTuples (rules, state, scratch) costs most of a second to
compile whatever its body, so the small helpers here take arrays; and a kernel is compiled once per
argument type, so callers pass int64 (``np.int64(...)`` for constants and counters: Numba otherwise
compiles a literal ``0``, ``-1``, ``True`` version besides).
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np
from numba import njit

from gamekit.rng import rand_below
from rio.engine.state import MAX_COLOURS, NO, G
from rio.keys import PLAZA, Building, K, Office

ENEMY = MAX_COLOURS  # the colour of an attacking token


class WR(IntEnum):
    """One war's record (``war_rec``, int32[WR])."""
    ENEMY = 0         # rio.keys.Enemy, -1 no war
    ATTACKER = 1      # the attacker's seat, -1 no war
    FORCED = 2        # 1: the last turn's war without a roll (RP-19)
    ROLL = 3          # the war check's dice sum (0 forced)
    ATTACKERS = 4     # attacking tokens at the start (BONUS AND NUMBER OF ATTACKERS)
    BONUS = 5         # the bonus among them
    CANNON_USER = 6   # the seat that used the cannons, -1 none (no Fort)
    CANNON_BET = 7    # his bet
    CANNON_ROLL = 8   # his dice (without the Gunner's +1)
    CANNON_KILLS = 9  # attackers the cannons removed
    TOKENS = 10       # defending tokens placed (free, paid, the General's)
    PAID = 11         # purchases among them (2 players: pairs bought)
    KILLED = 12       # attackers destroyed in token battles
    LOST = 13         # defending tokens destroyed
    BUILDINGS = 14    # buildings destroyed
    ATTACKER_VP = 15  # the attacker's VP
    DEFENDER_VP = 16  # the defenders' VP (token battles, losses, cannons)
    ROUNDS = 17       # rounds played (COMBAT RULES "turns of war")
    SURVIVORS = 18    # attacking tokens left at the end


class GF(IntEnum):
    """Per group (``WarScratch.gi``)."""
    SPACE = 0   # its space; NO while an attacker waits outside at its access point, or once gone
    ENTRY = 1   # an attacker outside: the city space its access point leads into (entering = its first step)
    SIZE = 2    # tokens; 0 = gone
    SIDE = 3    # 1 attackers, 0 defenders
    PTS = 4     # movement of its current move
    BONUS = 5   # bonus movements used this round
    FOUGHT = 6  # 1 once it fought this round (it may not move, merge or be discarded: COMBAT RULES, FAQ)
    DONE = 7    # 1 once its commander moved it this turn


class WV(IntEnum):
    """The war's scalars (``WarScratch.v``)."""
    GROUPS = 0      # groups allocated (indices 0..GROUPS-1; gone groups keep their index)
    ENEMY = 1       # rio.keys.Enemy
    ATTACKER = 2    # the attacking seat
    CONTROLLER = 3  # the seat that plays the shadow colour (2 players: the defender), NO
    ACCESS = 4      # access points in ``acc``
    DEFENDERS = 5   # defending colours in ``dcol``
    BATTLES = 6     # battles involving attackers so far
    ROUND = 7       # the round under way, from 1
    QUIET = 8       # consecutive rounds without a battle
    MOVER = 9       # whose war turn it is: a colour, ENEMY for the attacker
    PLAYERS = 10    # seats (colours from here on are the shadow's)
    DESTROYED = 11  # buildings destroyed so far (the policy's cached field is stale when it changes)
    FIELD_AT = 12   # DESTROYED + 1 when the policy computed ``field``, 0 never
    DEST_GROUP = 13   # the policy's destination kept for the group's move (rio.players.war_policy.war_bonus):
    DEST_PTS = 14     # the group, its movement points (0: none kept) and the index among reach's options
    DEST_OPTION = 15
    TOUCHED = 16      # spaces in ``touched``: those the last reach gave a distance (all others are -1)


N_GF = len(GF)
N_WV = len(WV)


class WarScratch(NamedTuple):
    """The wars' scratch (int64 throughout, so that every index reaching a kernel has one type: a kernel
    called with int32 here and int64 there compiles twice), allocated once per table for the largest war
    the rules allow (:func:`new_war_scratch`) and reset at each war's start (:func:`reset_war_scratch`):
    the engine allocates nothing while it plays (rio.players.search.play_games_search)."""
    v: np.ndarray      # int64[WV]
    gi: np.ndarray     # int64[G, GF]
    tok: np.ndarray    # int64[G, max_group]: token colours, bottom -> top
    at: np.ndarray     # int64[N]: the group on each space, NO (one group a space: opponents fight, friends merge)
    acc: np.ndarray    # int64[A]: the city space each open access point (an OPEN outer edge) leads into
    dcol: np.ndarray   # int64[MAX_COLOURS]: the defending colours in player order (2 players: then the shadow)
    dist: np.ndarray   # int64[N]: reach: steps to each space, -1 unreachable
    par: np.ndarray    # int64[N]: reach: the space before (NO: the group's own space, or outside)
    q: np.ndarray      # int64[N]: reach's queue
    opt: np.ndarray    # int64[O]: the options of the decision under way
    alt: np.ndarray    # int64[O]: a second option list (the groups a bonus movement may discard)
    buf: np.ndarray    # int64[O, 2]: answers (the attacker's groups: size, access point)
    field: np.ndarray  # float64[N]: the policy's scratch (the attacker's target field)
    d2: np.ndarray     # int64[N]: the policy's distances (rio.players.war_policy's target field)
    q2: np.ndarray     # int64[N]: its queue
    blk: np.ndarray    # int64[N]: 1 on the attacker's inactive workers' spaces (off limits for every token)
    vp: np.ndarray     # int64[N]: what the attacker scores destroying the building there (0 none), kept current
    rec: np.ndarray    # int32[WR]: the war under way's record (copied to the caller's row at its end)
    fo: np.ndarray     # float64[O]: the policy's values per option (access points, cannon sums)
    near: np.ndarray   # int64[G, 4]: the policy's list of the other side's groups (column, row, size, move)
    src: np.ndarray    # int64[N]: the policy's targets (spaces), most valuable first
    srcv: np.ndarray   # float64[N]: their values
    touched: np.ndarray  # int64[N]: the spaces the last reach gave a distance and a path (reset by the next)


def war_scratch_sizes(n_spaces: int, n_access: int, max_group: int, most_groups: int) -> tuple[int, int, int, int, int]:
    """(spaces, groups, tokens a group, access points, options) of a war scratch."""
    return n_spaces, max(most_groups, 1), max(max_group, 1), max(n_access, 1), max(n_spaces + 1, most_groups + 1, n_access + 1)


def new_war_scratch(n_spaces: int, n_access: int, max_group: int, most_groups: int) -> WarScratch:
    """A war scratch for a city of ``n_spaces`` spaces with at most ``n_access`` access points and
    ``most_groups`` groups of at most ``max_group`` tokens (rio.engine.scratch.new_scratch sizes it from
    the rules)."""
    n, g, m, a, o = war_scratch_sizes(n_spaces, n_access, max_group, most_groups)
    i8 = np.int64
    ws = WarScratch(np.zeros(N_WV, i8), np.zeros((g, N_GF), i8), np.zeros((g, m), i8), np.zeros(n, i8), np.zeros(a, i8),
                    np.zeros(MAX_COLOURS, i8), np.zeros(n, i8), np.zeros(n, i8), np.zeros(n, i8), np.zeros(o, i8),
                    np.zeros(o, i8), np.zeros((o, 2), i8), np.zeros(n), np.zeros(n, i8), np.zeros(n, i8), np.zeros(n, i8),
                    np.zeros(n, i8), np.zeros(len(WR), np.int32), np.zeros(o), np.zeros((g, 4), i8),
                    np.zeros(n, i8), np.zeros(n), np.zeros(n, i8))
    reset_war_scratch(ws)
    return ws


@njit(cache=True)
def reset_war_scratch(ws):
    """Every array of ``ws`` as a war's start finds it: no group, no token, no access point, no record."""
    ws.v[:] = 0
    ws.v[WV.CONTROLLER] = NO
    ws.gi[:, :] = 0
    ws.tok[:, :] = NO
    ws.at[:] = NO
    ws.acc[:] = NO
    ws.dcol[:] = NO
    ws.dist[:] = -1
    ws.par[:] = NO
    ws.q[:] = 0
    ws.opt[:] = 0
    ws.alt[:] = 0
    ws.buf[:, :] = 0
    ws.field[:] = 0.0
    ws.d2[:] = -1
    ws.q2[:] = 0
    ws.blk[:] = 0
    ws.vp[:] = 0
    ws.rec[:] = 0
    ws.fo[:] = 0.0
    ws.near[:, :] = 0
    ws.src[:] = 0
    ws.srcv[:] = 0.0
    ws.touched[:] = 0


# ---------------------------------------------------------------------------------------------- who is who
@njit(cache=True)
def controller(v, colour):
    """The seat that decides for ``colour``: itself, or (the shadow colour) the defender who plays it (RP-24)."""
    return colour if colour < v[WV.PLAYERS] else v[WV.CONTROLLER]


@njit(cache=True)
def general_active(r, st, attacker, colour):
    """The General's powers for a defending colour: its owner once the power works (the turn after the
    purchase, RP-16), never the attacker (WAR step 1; VARIANTS (2 players))."""
    if colour >= st.g[G.PLAYERS] or st.office_owner[Office.GENERAL] != colour:
        return False
    if st.g[G.TURN] < st.office_turn[Office.GENERAL] + r.k[K.OFFICE_POWERS_DELAY_TURNS]:
        return False
    return not (colour == attacker and (r.k[K.WAR_ATTACKERS_GENERAL_UNUSED] or r.k[K.TWO_PLAYER_GENERAL_IGNORED_FOR_ATTACKER]))


@njit(cache=True)
def roll(st, dice, faces):
    """The sum of ``dice`` dice of ``faces`` faces."""
    t = 0
    for _ in range(dice):
        t += rand_below(st, faces) + 1
    return t


@njit(cache=True)
def barracks_in_district(district, district_spaces, building, s):
    """Defenders' dominance: ``s`` is in a district with a Barracks at this moment (BATTLE; RP-21: the
    Plaza has no district)."""
    d = district[s]
    if d == PLAZA:
        return False
    for i in range(district_spaces.shape[1]):
        x = district_spaces[d, i]
        if x != NO and building[x] == Building.BARRACKS:
            return True
    return False


@njit(cache=True)
def battle_outcome(a, d, attacker_dominant, defender_dominant, survivors):
    """(attackers left, defenders left) of a token battle (BATTLE): the larger wins unharmed; equal: both
    go, but ``survivors`` of the side with dominance survive (both sides: none)."""
    if a > d:
        return a, 0
    if d > a:
        return 0, d
    al = min(a, survivors) if attacker_dominant and not defender_dominant else 0
    dl = min(d, survivors) if defender_dominant and not attacker_dominant else 0
    return al, dl


# ---------------------------------------------------------------------------------------------- groups
@njit(cache=True)
def mixed(gi, tok, g):
    """The group holds tokens of more than one colour."""
    for i in range(1, gi[g, GF.SIZE]):
        if tok[g, i] != tok[g, 0]:
            return True
    return False


@njit(cache=True)
def commanded(gi, tok, g, mover):
    """Group ``g`` is alive and moves in ``mover``'s turn (ENEMY: the attacker; a defender: the colour on
    top, the group's commander)."""
    n = gi[g, GF.SIZE]
    if n <= 0:
        return False
    if mover == ENEMY:
        return gi[g, GF.SIDE] == 1
    return gi[g, GF.SIDE] == 0 and tok[g, n - 1] == mover


@njit(cache=True)
def add_group(v, gi, tok, at, space, entry, side, colour, n):
    """A new group of ``n`` tokens of ``colour`` on ``space`` (or outside, entering at ``entry``)."""
    g = v[WV.GROUPS]
    v[WV.GROUPS] = g + 1
    gi[g, :] = 0
    gi[g, GF.SPACE] = space
    gi[g, GF.ENTRY] = entry
    gi[g, GF.SIZE] = n
    gi[g, GF.SIDE] = side
    for i in range(n):
        tok[g, i] = colour
    if space != NO:
        at[space] = g
    return g


@njit(cache=True)
def place(gi, at, g, s):
    """Move group ``g`` onto the free space ``s`` (leaving its space or its access point)."""
    old = gi[g, GF.SPACE]
    if old != NO and at[old] == g:
        at[old] = NO
    gi[g, GF.SPACE] = s
    gi[g, GF.ENTRY] = NO
    at[s] = g


@njit(cache=True)
def gone(gi, at, g):
    """Group ``g`` leaves the board (its tokens counted back by the caller)."""
    s = gi[g, GF.SPACE]
    if s != NO and at[s] == g:
        at[s] = NO
    gi[g, GF.SPACE] = NO
    gi[g, GF.ENTRY] = NO
    gi[g, GF.SIZE] = 0


@njit(cache=True)
def attackers_left(gi, ng):
    """Attacking tokens on the map or waiting outside (groups 0..ng-1)."""
    n = 0
    for g in range(ng):
        if gi[g, GF.SIDE] == 1:
            n += gi[g, GF.SIZE]
    return n


@njit(cache=True)
def lead_on_top(gi, tok, dcol, nd, g):
    """Order a mixed stack: the colour with the larger share commands, its tokens on top; tie: the earlier
    in the defenders' order ``dcol[:nd]`` (RP-19). The others keep their order below."""
    n = gi[g, GF.SIZE]
    best, best_n = tok[g, n - 1], 0
    for j in range(nd):
        k = 0
        for i in range(n):
            k += tok[g, i] == dcol[j]
        if k > best_n:
            best, best_n = dcol[j], k
    m = 0
    for i in range(n):  # the others, in order, at the bottom
        if tok[g, i] != best:
            tok[g, m] = tok[g, i]
            m += 1
    for i in range(m, n):
        tok[g, i] = best


# ---------------------------------------------------------------------------------------------- movement
@njit(cache=True)
def enter_kind(gi, at, blk, building, max_group, g, s, from_outside):
    """Whether group ``g`` may step onto ``s`` (RP-20): -1 no (off limits; a friend it may not merge with:
    past war.max_group except two pairs, or one that fought), 0 a free space it may cross, 1 it stops there
    (an opposing group: battle; an attacker entering a building: battle; a friend: merge)."""
    if blk[s]:
        return -1
    att = gi[g, GF.SIDE]
    h = at[s]
    if h != NO:
        if gi[h, GF.SIDE] != att:
            return 1
        if gi[h, GF.FOUGHT]:
            return -1
        a, b = gi[g, GF.SIZE], gi[h, GF.SIZE]
        if a + b <= max_group:
            return 1
        # two pairs: the mover stops beside and gives one token (a triplet and a single; COMBAT RULES)
        if 1 < a < max_group and 1 < b < max_group and not from_outside:
            return 1
        return -1
    if att == 1 and building[s] != NO:
        return 1
    return 0


@njit(cache=True)
def reach(r, geo, st, ws, g, pts):
    """Where group ``g`` can go with ``pts`` steps (orthogonal, the Plaza crossed, never out; an attacker
    outside enters at its access point as its first step: RP-20). ``ws.opt``: NO (stay), then each space it
    can end on; ``ws.dist``, ``ws.par`` its path. Returns the number of options."""
    dist, par, q, gi = ws.dist, ws.par, ws.q, ws.gi
    touched = ws.touched
    for i in range(ws.v[WV.TOUCHED]):  # the last reach's spaces only: the others are -1 and NO already
        dist[touched[i]] = -1
        par[touched[i]] = NO
    ws.v[WV.TOUCHED] = 0
    ws.opt[0] = NO
    n = np.int64(1)
    mg = r.k[K.WAR_MAX_GROUP]
    s0 = gi[g, GF.SPACE]
    head, tail = 0, 0
    if s0 != NO:
        dist[s0] = 0
        touched[0] = s0
        ws.v[WV.TOUCHED] = 1
        q[tail] = s0
        tail += 1
    else:
        e = gi[g, GF.ENTRY]
        if e == NO or pts < 1:
            return n
        k = enter_kind(gi, ws.at, ws.blk, st.sp_building, mg, g, e, np.int64(1))
        if k < 0:
            return n
        dist[e] = 1
        touched[0] = e
        ws.v[WV.TOUCHED] = 1
        ws.opt[n] = e
        n += 1
        if k == 0:
            q[tail] = e
            tail += 1
    while head < tail:
        s = q[head]
        head += 1
        if dist[s] >= pts:
            continue
        for side in range(geo.nb4.shape[1]):
            t = np.int64(geo.nb4[s, side])
            if t == NO or dist[t] >= 0:
                continue
            k = enter_kind(gi, ws.at, ws.blk, st.sp_building, mg, g, t, np.int64(0))
            if k < 0:
                continue
            dist[t] = dist[s] + 1
            par[t] = s
            touched[ws.v[WV.TOUCHED]] = t
            ws.v[WV.TOUCHED] += 1
            ws.opt[n] = t
            n += 1
            if k == 0:
                q[tail] = t
                tail += 1
    return n
