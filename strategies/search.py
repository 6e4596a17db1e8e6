"""The search family: perfect-information Monte Carlo (PIMC) over every legal TURN row, with a
learned evaluation at the leaves (strategies.value_model) - strategies/search.toml.

At each of its TURN decisions (B. ACTION PHASE: a free action, a main action or PASS) the seat:

1. redraws what it cannot know (:func:`sim.game.determinize`: the deck order and the other players'
   face-down cards, from the seat's view only; one redraw per simulation, the same redraws for every
   row: common random numbers);
2. values **every** legal row by carrying it out on a redrawn copy and applying the evaluation to
   the position it leaves (the 1-ply value). No row is left out by the heuristic: the heuristic only
   breaks ties and decides the sub-decisions inside a row (where to pay from, which card target);
3. plays the ``WIDTH`` best rows of that ranking on, each many times, to the end of the current
   decade (and ``HORIZON`` more decades), every seat by its own policy, and scores each simulation
   by the evaluation: the seat's predicted final VP minus the best rival's (its own entry of the
   vector of per-seat values, not a paranoid minimum). The simulations are shared out by
   sequential halving (Karnin et al. 2013): each round the worse half of the rows is dropped.

With ``[search] network_at = "candidates"`` a network (strategies.value_model.MODEL_PRIOR) orders the ``WIDTH`` rows
of step 3 before they are simulated; its first is then the row the simulations must overturn (the gate of
:func:`_gate`). Each decision can keep its candidates as counterfactual labels for the network's training
(:func:`record_search_labels`, trinidad.train.candidates).

The budget is a number of simulations per decision (``BUDGET``), never a time: a game stays a pure
function of its seed. Simulations use the engine's plain phases (every seat decides through
sim.seam), so search never nests. With the EXTENDED WAR its war actions (``Dec.XW_ACTION``: Move
and Fight!, opening its turns during a war) are searched the same way (:func:`war_turn_searched`).
Every other decision of the seat is its base strategy's (the heuristic's weights, strategies.policy,
which values the war's decisions too: strategies.war_policy).
"""

from enum import IntEnum

import numpy as np
from numba import njit

from sim.actions import end_turn, turn_options, turn_step
from sim.city import city_memo_start, copy_city_memo
from sim.codes import Act, Dec
from sim.compiled_parts import extended_war_entry
from sim.extended_war import begin_player_turn, end_war, player_war_actions, war_action, war_action_rows, war_over, war_turn_begin
from sim.game import copy_state, determinize
from sim.rng import mix64
from sim.state import N_GROUPS, PF, XG, G
from strategies.policy import P, option_values, turn_value_basis
from strategies.rollout import PH, SL, play_out, play_out_war
from strategies.value_model import (
    MODEL_PRIOR,
    MODEL_SLOT,
    N_VF,
    NET_HIDDEN,
    NET_IN,
    SCALE_SLOT,
    SEARCH_OFFSET,
    SEARCH_PARAMS,
    margins,
    net_forward,
    net_inputs,
)
from strategies.weights import N_FEATURES

# the optional parts, reached only through their hooks (sim.compiled_parts: compiled only into the runs that play them)
xw_play_out_war = extended_war_entry(play_out_war)


class SB(IntEnum):
    """Search parameters: the first slots of a W row's search block (strategies.value_model.SEARCH_OFFSET)."""

    BUDGET = 0  # simulations per TURN decision
    WIDTH = 1  # rows simulated: the best of the 1-ply ranking (all of them when fewer)
    HORIZON = 2  # whole decades simulated after the current one before the evaluation
    WAR = 3  # EXTENDED WAR: 1 its war actions searched as its TURN decisions, 0 by its base strategy's values
    MODEL = MODEL_SLOT  # the evaluation: strategies.value_model.MODEL_LINEAR or MODEL_NETWORK (set by the value file)
    SCALE = SCALE_SLOT  # the network's VP scale (strategies.value_model.soft_margin; set by the value file)
    # the Acts (a bit mask, bit Act set; 0 none) the seat's own play inside its simulations never takes while another
    # main action is legal (strategies.policy.drop_forbidden, through P.SIM_FORBID on the simulation's copy only, beside
    # any probe the seat carries): its real decisions may
    ROLLOUT_FORBID = 6
    # 1: every seat's play inside the simulations kept from ROLLOUT_FORBID, the rivals' too (all play the base
    # heuristic there, which overvalues the Major grids: docs/notebook/probes.md); 0: the seat's own only
    ROLLOUT_FORBID_ALL = 7


N_SB = len(SB)
assert N_SB <= SEARCH_PARAMS, "the search parameters overrun the value model in a W row's search block"


@njit(cache=True)
def _scratch(n):
    return np.zeros((n, N_VF), np.float64), np.zeros(N_GROUPS + 8, np.int32), np.zeros(n, np.float64)


@njit(cache=True)
def _redrawn(sc, st, r, seat, base, m):
    copy_state(sc, st)
    sc.rng[0] = mix64(base + np.uint64(m))
    determinize(sc, r, seat)


@njit(cache=True)
def _carry_out(sc, r, seat, row, war):
    """The 1-ply step: a TURN row (``war`` False), or a war action row and the seat's further war
    actions by its base strategy, the war ended when it is over (EXTENDED WAR)."""
    if not war:
        turn_step(sc, r, seat, row[0], row[1], row[2], row[3])
        return
    xw_war_step(r, None, sc, r, seat, row)


@njit(cache=True)
def _war_step(sc, r, seat, row):
    """EXTENDED WAR: a war action row carried out, the seat's further war actions by its base
    strategy, the war ended when it is over (:func:`_carry_out`)."""
    if war_action(sc, r, seat, row[0], row[1], row[2], row[3]):
        player_war_actions(sc, r, seat)
    if sc.xw[XG.ACTIVE] == 1 and war_over(sc, r):
        end_war(sc, r)


xw_war_step = extended_war_entry(_war_step)


@njit(cache=True)
def search_choice(st, sc, r, W, seat, pos, k, war, labels):
    """The search family's TURN decision over ``st.opts[:k]`` (see the module's docstring), or with
    ``war`` its war action decision (EXTENDED WAR, ``Dec.XW_ACTION`` rows, its turn begun: each row
    simulated with the seat's further war actions and its turn by its base strategy); ``sc`` is a
    scratch state record. The game's own random stream is not advanced: the redraws come from a
    stream mixed from it and the decision count. With a network on the candidates (``[search]
    network_at = "candidates"``, strategies.value_model.MODEL_PRIOR) the 1-ply ranking still chooses the
    candidates, and the network then orders them (:func:`_prior_order`). ``labels`` (strategies.rollout.new_labels)
    keeps the TURN decisions' candidates while it has room (:func:`record_search_labels`), and every legal row
    of them with the row taken (:func:`record_choice_rows`)."""
    st.g[G.OPT_N] += 1
    if k <= 1:
        if k <= 0:
            st.g[G.EMPTY_OPTS] += 1
        return 0
    keep_rows = not war and labels[4][2] + k <= labels[5].shape[0]
    value = np.empty(k if keep_rows else 0, np.float64)
    if keep_rows:
        option_values(st, r, seat, Dec.TURN, k)
        value[:] = st.vals[:k]
    pick = _search_pick(st, sc, r, W, seat, pos, k, war, labels)
    if keep_rows:
        record_choice_rows(labels, st, r, seat, k, pick, value)
    return pick


@njit(cache=True)
def record_choice_rows(labels, st, r, seat, k, pick, value):
    """Keep one TURN decision's legal rows ``st.opts[:k]``, ``pick`` the one the search took, each with its
    action, the heuristic's value of it (``value``, the seat's own weights: what its simulated self would play
    by) and that value split by feature weight (strategies.policy.turn_value_basis): how far the policy of the
    simulations is from the search's own play (issue 36: trinidad.lab.policy_gap), and the data a fit of that
    policy to the search's choices needs. ``labels``: strategies.rollout.new_labels (its ``rows`` room, the
    :class:`PH` columns); once full, no more are kept."""
    ph, fill = labels[5], labels[4]
    q = fill[2]
    basis = np.empty((N_FEATURES, k), np.float64)
    turn_value_basis(st, r, seat, k, basis)
    for i in range(k):
        y = ph[q + i]
        y[PH.DECISION] = fill[3]
        y[PH.SEAT] = seat
        y[PH.DECADE] = st.g[G.DECADE]
        y[PH.CHARACTER] = st.pl[seat, PF.CHARACTER]
        y[PH.ROW] = i
        y[PH.CHOSEN] = 1.0 if i == pick else 0.0
        y[PH.ACT] = st.opts[i, 0]
        y[PH.VALUE] = value[i]
        for f in range(N_FEATURES):
            y[PH.BASIS + f] = basis[f, i]
    fill[2] = q + k
    fill[3] += 1


@njit(cache=True)
def _search_pick(st, sc, r, W, seat, pos, k, war, labels):
    """:func:`search_choice`'s choice among ``k`` > 1 rows."""
    sid = st.pl[seat, PF.STRATEGY]
    o = SEARCH_OFFSET
    budget = int(W[sid, o + SB.BUDGET])
    width = min(k, int(W[sid, o + SB.WIDTH]))
    horizon = int(W[sid, o + SB.HORIZON])
    forbid = W[sid, o + SB.ROLLOUT_FORBID]
    forbid_all = W[sid, o + SB.ROLLOUT_FORBID_ALL] > 0
    n = st.g[G.NPLAYERS]
    feats, scr, mv = _scratch(n)
    d0 = st.g[G.DECADE]
    # the heuristic's values: only to break ties of the 1-ply values
    option_values(st, r, seat, Dec.XW_ACTION if war else Dec.TURN, k)
    prior = st.vals[:k].copy()
    rows = st.opts[:k].copy()
    base = mix64(st.rng[0] ^ np.uint64(st.g[G.OPT_N]))
    # 1-ply: every row carried out on one redrawn copy, the position valued (inside the decade)
    one = np.empty(k, np.float64)
    for i in range(k):
        _redrawn(sc, st, r, seat, base, 0)
        _carry_out(sc, r, seat, rows[i], war)
        margins(sc, r, W, sid, d0 - 1, feats, scr, mv, True)
        one[i] = mv[seat] + 1e-6 * prior[i]
    order = np.argsort(-one, kind="mergesort")
    if budget <= 0 or width <= 1:
        return order[0]
    # the rows simulated: the 1-ply best first, then the next best but Recover Workers (free action):
    # it undoes an earlier placement at a VP cost, and simulations value the workers it frees by
    # what the rollout policy would do with them, not by what this seat then does (put them back on
    # a grid): promoted on that, the seat recovered and replaced every turn (thousands of times a
    # game, measured). It stays reachable when the evaluation itself ranks it first.
    cand = np.empty(width, np.int64)
    nc0 = 0
    for j in range(k):
        i = order[j]
        if j > 0 and not war and rows[i, 0] == Act.F_RECOVER:
            continue
        cand[nc0] = i
        nc0 += 1
        if nc0 == width:
            break
    width = nc0
    if width <= 1:
        return order[0]
    on_cands = W[sid, o + SB.MODEL] == MODEL_PRIOR
    keep_labels = not war and labels[4][0] + width <= labels[2].shape[0]
    xs = np.zeros((width if on_cands or keep_labels else 0, NET_IN), np.float64)
    if on_cands or keep_labels:
        _candidate_inputs(st, sc, r, W, sid, seat, base, rows, cand[:width], war, d0, feats, scr, mv, xs)
    if on_cands:
        _prior_order(W, sid, xs, cand, width)
    top = cand[0]  # the row the simulations must overturn: the 1-ply best, or the network's best candidate
    # each candidate's simulations by its place in the starting order (its slot; the first candidate's is 0, so what
    # the gate reads of it stays when halving drops it): the first one's margin, their total, sum of squares, count
    first = np.zeros(width, np.float64)
    rtot = np.zeros(width, np.float64)
    rsq = np.zeros(width, np.float64)
    rcnt = np.zeros(width, np.int64)
    slot = np.arange(width)  # the starting place of the candidate now at place j (halving reorders them)
    alive = width
    rounds = 0
    x = alive
    while x > 1:
        rounds += 1
        x = (x + 1) // 2
    used = 0
    m0 = 1  # redraw 0 served the 1-ply ranking
    city_memo_start(st, r, n)  # each simulation starts with the memos of the map it starts from
    while alive > 1 and used < budget:
        per = max(1, (budget - used) // (rounds * alive))
        rounds = max(1, rounds - 1)
        for j in range(alive):
            i = cand[j]
            q = slot[j]
            for m in range(per):
                _redrawn(sc, st, r, seat, base, m0 + rcnt[q])
                copy_city_memo(sc, st, n)
                if forbid > 0:
                    # the seat's simulated self (and with forbid_all every simulated seat) kept from the options,
                    # in a slot of its own: a probe a seat carries (trinidad probe) holds beside it, so a probed
                    # seat's simulations are kept off the options as every other seat's are
                    for s in range(n):
                        if s == seat or forbid_all:
                            sc.w[s, P.SIM_FORBID] = forbid
                if war:
                    d = xw_play_out_war(r, 0, sc, r, seat, pos, rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3], d0 + horizon, W)
                else:
                    d = play_out(sc, r, seat, pos, rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3], d0 + horizon, W)
                margins(sc, r, W, sid, d, feats, scr, mv)
                if rcnt[q] == 0:
                    first[q] = mv[seat]
                rtot[q] += mv[seat]
                rsq[q] += mv[seat] * mv[seat]
                rcnt[q] += 1
                used += 1
        # the better half stays (by mean; ties: the starting order)
        mean = np.empty(alive, np.float64)
        for j in range(alive):
            mean[j] = rtot[slot[j]] / max(1, rcnt[slot[j]])
        keep = np.argsort(-mean[:alive], kind="mergesort")
        half = (alive + 1) // 2
        nc = np.empty(half, np.int64)
        nl = np.empty(half, np.int64)
        for j in range(half):
            nc[j] = cand[keep[j]]
            nl[j] = slot[keep[j]]
        alive = half
        cand[:half] = nc
        slot[:half] = nl
    q = slot[0]
    pick = _gate(cand[0], top, rtot[q], rsq[q], rcnt[q], rtot[0], rsq[0], rcnt[0])
    if keep_labels:
        record_search_labels(labels, xs, slot[0], pick == cand[0], first, rtot, rcnt, seat, d0)
    return pick


@njit(cache=True)
def _gate(pick, top, tot, sq, cnt, top_tot, top_sq, top_n):
    """The simulations overturn the first candidate (the evaluation's own best row) only by more than their
    noise (one standard error of the difference): a choice that returns the game to where it was (workers
    recovered and put back) must not be taken again and again on noise alone."""
    if pick == top or top_n < 2 or cnt < 2:
        return pick
    m1 = tot / cnt
    m0 = top_tot / top_n
    v1 = max(0.0, sq / cnt - m1 * m1) / (cnt - 1)
    v0 = max(0.0, top_sq / top_n - m0 * m0) / (top_n - 1)
    if m1 - m0 <= np.sqrt(v1 + v0):
        return top
    return pick


@njit(cache=True)
def _candidate_inputs(st, sc, r, W, sid, seat, base, rows, cand, war, d0, feats, scr, mv, xs):
    """The network's inputs (strategies.value_model.net_inputs) of each candidate's position after its row, on
    the 1-ply ranking's redraw: what the seat sees, its margin by the linear model last."""
    for j in range(cand.shape[0]):
        _redrawn(sc, st, r, seat, base, 0)
        _carry_out(sc, r, seat, rows[cand[j]], war)
        margins(sc, r, W, sid, d0 - 1, feats, scr, mv, True)
        net_inputs(feats, st.g[G.NPLAYERS], seat, mv[seat], xs[j])


@njit(cache=True)
def _prior_order(W, sid, xs, cand, width):
    """The candidates ``cand[:width]`` and their inputs ``xs`` reordered by the network on the candidates
    (MODEL_PRIOR): its value of each one's position after its row, best first; ties keep the 1-ply order."""
    h = np.empty(NET_HIDDEN, np.float64)
    v = np.empty(width, np.float64)
    for j in range(width):
        v[j] = net_forward(W, sid, xs[j], h)
    perm = np.argsort(-v, kind="mergesort")
    c0 = cand[:width].copy()
    x0 = xs.copy()
    for j in range(width):
        cand[j] = c0[perm[j]]
        xs[j] = x0[perm[j]]


@njit(cache=True)
def record_search_labels(labels, xs, won, chosen, first, rtot, rcnt, seat, decade):
    """Keep one TURN decision's candidates (issue 36: counterfactual labels of the search's own play): each
    candidate's network inputs after its row and its strategies.rollout.SL columns, in the order the search
    simulated them (``first``, ``rtot`` and ``rcnt`` by that order's places; ``won``: the place of the
    candidate the halving ended on, ``chosen`` whether the search took it, else it kept its first
    candidate). ``labels``: strategies.rollout.new_labels; once full, no more are kept."""
    sx, sy, fill = labels[2], labels[3], labels[4]
    w = xs.shape[0]
    q = fill[0]
    if q + w > sx.shape[0]:
        return
    take = won if chosen else 0
    for j in range(w):
        for f in range(xs.shape[1]):
            sx[q + j, f] = xs[j, f]
        y = sy[q + j]
        y[SL.DECISION] = fill[1]
        y[SL.SEAT] = seat
        y[SL.DECADE] = decade
        y[SL.LINEAR] = xs[j, xs.shape[1] - 1]
        y[SL.FIRST] = first[j]
        y[SL.MEAN] = rtot[j] / max(1, rcnt[j])
        y[SL.COUNT] = rcnt[j]
        y[SL.CHOSEN] = 1.0 if j == take else 0.0
        y[SL.RANK] = j
    fill[0] = q + w
    fill[1] += 1


@njit(cache=True)
def play_turn_searched(st, sc, r, W, seat, pos, labels):
    """A turn of a search-family seat: as sim.actions.play_turn, each TURN decision by
    :func:`search_choice` (``labels``: where it keeps them, strategies.rollout.new_labels)."""
    st.g[G.TURN_SEAT] = seat
    for _ in range(1000):
        k = turn_options(st, r, seat)
        i = search_choice(st, sc, r, W, seat, pos, k, False, labels)
        if not turn_step(st, r, seat, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3]):
            break
    end_turn(st, seat)


@njit(cache=True)
def war_turn_searched(st, sc, r, W, seat, pos, labels):
    """sim.extended_war.war_turn_begin for a search-family seat (PLAYER WAR ACTIONS during an
    Extended War): each of its war actions by :func:`search_choice` over the ``Dec.XW_ACTION`` rows,
    the same simulations as its TURN decisions (every row played on to the end of the decade, the
    evaluation applied); what a Fight! asks inside (cards, card moves, a recruit) stays its base
    strategy's (and with ``[search] war = 0`` the war actions too: sim.extended_war.war_turn_begin).
    The war ends as soon as it is over."""
    if st.xw[XG.ACTIVE] == 0:
        return
    if int(W[st.pl[seat, PF.STRATEGY], SEARCH_OFFSET + SB.WAR]) == 0:
        war_turn_begin(st, r, seat)
        return
    begin_player_turn(st, r, seat)
    for _ in range(1000):
        k = war_action_rows(st, r, seat)
        i = search_choice(st, sc, r, W, seat, pos, k, True, labels)
        if not war_action(st, r, seat, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3]):
            break
    if st.xw[XG.ACTIVE] == 1 and war_over(st, r):
        end_war(st, r)
