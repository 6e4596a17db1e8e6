"""The search player: at each of its placements it takes the heuristic's best options as candidates and
plays each forward in simulations (the rest of this turn and ``depth`` turns more, every seat by the
heuristic, the dice drawn afresh), then takes the candidate whose simulations leave it furthest ahead.
The game's only hidden information is dice, so a simulation may start from the true state. Its budget is
simulations per decision, never time, so a game stays a pure function of its seed.

The engine never calls this module: :func:`play_games_search` is the game loop for tables with search
seats, one level above the engine's (as Trinidad's strategies.match is above its engine), and every
simulation decides through the engine's seam with heuristic or random players only."""

from __future__ import annotations

from numba import njit

from gamekit.rng import mix64
from rio.engine.audit import audit
from rio.engine.city import district_values
from rio.engine.core import copy1, copy_state
from rio.engine.game import (
    end_game,
    finish_turn,
    place_until_pass,
    placement_phase,
    play_turn,
    record_turn,
    start_game,
)
from rio.engine.placement import apply_placement, placement_options
from rio.engine.scoring import end_scoring
from rio.engine.state import PK, G
from rio.keys import OK, Building, K
from rio.players.kinds import Kind
from rio.players.policy import decision_context, placement_value
from rio.players.weights import W


@njit(cache=True)
def standing(r, geo, st, sc, w, seat):
    """A seat's position in VP-equivalents if the game ended soon: VP, the money's VP, the Houses' end value,
    the offices' end VP, cubes at the heuristic's values."""
    v = float(st.pl[seat, PK.VP]) + st.pl[seat, PK.SILVER] // r.k[K.SCORING_SILVER_PER_VP]
    v += st.pl[seat, PK.WOOD] * w[W.WOOD] + st.pl[seat, PK.STONE] * w[W.STONE] + st.pl[seat, PK.PRECIOUS] * w[W.PRECIOUS]
    for s in range(st.sp_building.shape[0]):
        if st.sp_building[s] == Building.HOUSE and st.sp_owner[s] == seat:
            v += max(r.k[K.SCORING_HOUSE_MIN_VP], r.k[K.SCORING_HOUSE_VP] + sc.dval[geo.district[s]])
    for o in range(st.office_owner.shape[0]):
        if st.office_owner[o] == seat:
            v += r.office[o, OK.END_VP]
    return v


@njit(cache=True)
def margin(r, geo, st, sc, w, seat, final):
    """``seat``'s lead over the best other seat: in VP after the end scoring, else in :func:`standing` (the
    districts' values as the players see them, roads left out, counted once into ``sc.dval``)."""
    best_other = -1e18
    mine = 0.0
    if not final:
        district_values(r, geo, st, sc, sc.dval, False)
    for c in range(st.g[G.PLAYERS]):
        v = float(st.pl[c, PK.VP]) if final else standing(r, geo, st, sc, w, c)
        if c == seat:
            mine = v
        elif v > best_other:
            best_other = v
    return mine - best_other


@njit(cache=True)
def simulate(r, geo, st, sc, rpol, seat, pos, cand, sim, simsc, war_rec, depth, salt):
    """One simulation of candidate ``cand`` (a row of ``sc.opts``) for ``seat`` at order position ``pos``."""
    copy_state(sim, st)
    copy1(simsc.conn, sc.conn)
    sim.rng[0] = mix64(st.rng[0] + salt)
    copy1(simsc.opts[0], sc.opts[cand])
    if apply_placement(r, geo, sim, simsc, seat, 0):
        place_until_pass(r, geo, sim, simsc, rpol, seat)
    placement_phase(r, geo, sim, simsc, rpol, pos + 1)
    finish_turn(r, geo, sim, simsc, rpol, war_rec)
    for _ in range(depth):
        if sim.g[G.TURN] >= sim.g[G.TURNS]:
            break
        play_turn(r, geo, sim, simsc, rpol, war_rec)
    final = sim.g[G.TURN] >= sim.g[G.TURNS]
    if final:
        end_scoring(r, geo, sim, simsc)
    return margin(r, geo, sim, simsc, rpol.w[seat], seat, final)


@njit(cache=True)
def search_choice(r, geo, st, sc, pol, rpol, seat, pos, n, sim, simsc, war_rec, depth, width, best_idx, total):
    """The option ``seat`` takes among ``sc.opts[:n]``: the heuristic's ``width`` best, each simulated
    ``pol.budget[seat] // width`` times (at least once); the best mean margin (ties: the heuristic's order)."""
    w = pol.w[seat]
    decision_context(r, geo, st, sc, w, seat)
    for j in range(n):
        sc.score[j] = placement_value(r, geo, st, sc, w, seat, j)
    k = min(width, n)
    for c in range(k):  # the k best by the heuristic's value, best first
        bj, bv = -1, -1e18
        for j in range(n):
            taken = False
            for q in range(c):
                taken = taken or best_idx[q] == j
            if not taken and sc.score[j] > bv:
                bj, bv = j, sc.score[j]
        best_idx[c] = bj
    if k == 1:
        return best_idx[0]
    per = max(1, pol.budget[seat] // k)
    pick, pick_v = best_idx[0], -1e18
    for c in range(k):
        total[c] = 0.0
        for i in range(per):
            total[c] += simulate(r, geo, st, sc, rpol, seat, pos, best_idx[c], sim, simsc, war_rec, depth, c * 7919 + i * 104729 + 1)
        if total[c] / per > pick_v:
            pick, pick_v = best_idx[c], total[c] / per
    return pick


@njit(cache=True)
def search_placement_phase(r, geo, st, sc, pol, rpol, sim, simsc, war_rec, depth, width, best_idx, total, audit_out, gi):
    """A | WORKER PLACEMENT with the search seats deciding by simulation; with ``audit_out`` (one row per game;
    empty: no checks) the invariants after every seat's placements (rio.engine.audit). False once broken."""
    for pos in range(st.g[G.PLAYERS]):
        seat = st.order[pos]
        if pol.kind[seat] != Kind.SEARCH:
            place_until_pass(r, geo, st, sc, pol, seat)
        else:
            while True:
                n = placement_options(r, geo, st, sc, seat)
                j = search_choice(r, geo, st, sc, pol, rpol, seat, pos, n, sim, simsc, war_rec, depth, width, best_idx, total)
                if not apply_placement(r, geo, st, sc, seat, j):
                    break
        if not checked(r, geo, st, sc, audit_out, gi):
            return False
    return True


@njit(cache=True)
def checked(r, geo, st, sc, audit_out, gi):
    """Record the first broken invariant of game ``gi`` (``Broken * 1000 + turn``); False once one is."""
    if audit_out.shape[0] == 0:
        return True
    bad = audit(r, geo, st, sc)
    if bad != 0:
        audit_out[gi] = bad * 1000 + st.g[G.TURN]
        return False
    return True


@njit(cache=True, nogil=True, _nrt=False)  # an entry point: local worker threads play in parallel; _nrt: see docstring
def play_games_search(r, geo, st, sc, pol, rpol, sim, simsc, war_rec, depth, width, best_idx, total, players, level, short, seeds,
                      rec, audit_out):
    """Games ``seeds`` (one per row of the records), one after another on one state: the game loop of every
    table (rio.play), its search seats deciding their placements by simulation (``rpol``: the same table
    with every search seat played by the heuristic, the simulations' players). ``audit_out``: empty, or one
    row per game for the invariants checked after every seat's placements and every turn (rio.engine.audit:
    0 kept; ``Broken * 1000 + turn`` at the first break; the turn it stopped at if the game did not end).

    Compiled without Numba's reference counting (``_nrt=False``): the arrays it receives from Python then
    carry no reference count, so the engine's calls below, which pass the state, rules and scratch tuples
    (dozens of arrays) at every call, no longer increment and decrement each array's count atomically:
    that was about 60% of a game's time (perf, docs/notebook/rio.md). Arrays a callee allocates for
    itself (a war's scratch) keep their counts and are freed by it; none reaches this function."""
    for gi in range(seeds.shape[0]):
        if audit_out.shape[0] > 0:
            audit_out[gi] = 0
        start_game(r, geo, st, sc, players, level, short, seeds[gi], rec, gi)
        wars = 0
        ok = True
        while ok and st.g[G.TURN] < st.g[G.TURNS]:
            ok = search_placement_phase(r, geo, st, sc, pol, rpol, sim, simsc, war_rec, depth, width, best_idx, total, audit_out, gi)
            if ok:
                # the war's record row (a view made here: a kernel without Numba's allocator returns no view)
                wars += finish_turn(r, geo, st, sc, pol, rec.war[gi, min(wars, rec.war.shape[1] - 1)])
                record_turn(st, rec, gi)
                ok = checked(r, geo, st, sc, audit_out, gi)
        if ok:
            end_game(r, geo, st, sc, rec, gi)
            ok = checked(r, geo, st, sc, audit_out, gi)
            if ok and audit_out.shape[0] > 0 and st.g[G.TURN] != st.g[G.TURNS]:
                audit_out[gi] = st.g[G.TURN]
