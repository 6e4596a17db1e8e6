"""The rollout family: flat Monte Carlo over the engine at each TURN decision (strategies/rollout.toml).

The heuristic's best candidate rows are each played on from copies of the state, with what the
seat cannot know redrawn (:func:`sim.game.determinize`), every seat deciding by its own policy
through :mod:`sim.seam` (no nested planning), to the end of the Era or of the game; the row with
the best mean VP margin over the best rival is taken. :mod:`strategies.match` hands a
rollout-family seat's turns to :func:`play_turn_planned`.
"""

from enum import IntEnum

import numpy as np
from numba import njit

from sim.actions import action_rounds, end_turn, finish_turn, play_turn, turn_options, turn_step
from sim.actions.turn import xw_war_attackers, xw_war_turn_end  # the Action Phase's own hooks (one per part's function)
from sim.city import city_memo_start, copy_city_memo
from sim.codes import Dec
from sim.extended_war import end_war, player_war_actions, war_action, war_over
from sim.game import copy_state, determinize, end_of_decade, no_decade_end, play_decades
from sim.rng import mix64
from sim.rules import RK
from sim.scoring import character_base, rank_of
from sim.series import scorings_ahead
from sim.state import PF, XG, G
from strategies.apprentice import apprentice_acts, apprentice_on, apprentice_turn, apprentice_turn_rows, apprentice_values
from strategies.policy import P, choose, option_values
from strategies.value_model import NET_IN
from strategies.weights import N_FEATURES, N_WEIGHTS

MAX_CANDIDATES = 64  # a rollout file's largest [rollout] candidates (strategies.registry), so a kept decision's row count


def new_labels(blank, n: int, m: int = 0, rows: int = 0):
    """Room for ``n`` planned decisions' counterfactual labels (:func:`record_labels`): the positions,
    shaped like ``blank`` (a state record of the game's rules), and a :data:`LABEL` record each;
    ``n`` 0 keeps none. A slot is taken once its ``n`` (candidates) is set: :func:`labels_kept`.
    ``m``: room for ``m`` candidate rows of the search family's decisions (strategies.search.record_search_labels):
    each candidate's network inputs after its row (float32[m, NET_IN]), its :class:`SL` columns
    (float64[m, N_SL]). ``rows``: room for ``rows`` legal rows of the search family's TURN decisions, every
    row of a decision with the heuristic's value split by feature weight (float32[rows, N_PH], :class:`PH`;
    strategies.search.record_choice_rows). Last, the counts kept so far (int64[4]): candidate rows,
    their decisions, legal rows, their decisions."""
    return (np.zeros(n, blank.dtype).view(np.recarray), np.zeros(n, LABEL).view(np.recarray),
            np.zeros((m, NET_IN), np.float32), np.zeros((m, N_SL), np.float64), np.zeros(4, np.int64),
            np.zeros((rows, N_PH), np.float32))


class SL(IntEnum):
    """The columns of a search candidate's label (strategies.search.record_search_labels)."""

    DECISION = 0  # the decision's number among those kept (its candidates share it)
    SEAT = 1
    DECADE = 2
    LINEAR = 3  # the candidate's 1-ply value: the seat's margin by the linear model after its row (VP)
    FIRST = 4  # its first simulation's margin: every candidate's first uses the same redraw (common random numbers)
    MEAN = 5  # the mean margin over all its simulations
    COUNT = 6  # how many simulations it got (sequential halving: the better rows get more)
    CHOSEN = 7  # 1 for the row the search took
    RANK = 8  # its place in the order the search simulated the candidates in (0: first)


N_SL = len(SL)


class PH(IntEnum):
    """The columns of a legal row of a search seat's TURN decision (strategies.search.record_choice_rows): the
    row's place in its decision, whether the search took it, its action, the heuristic's value of it, and from
    BASIS on that value split by feature weight (strategies.policy.turn_value_basis: BASIS + 0 what the weights but the features give,
    BASIS + f what feature weight f = 1 adds)."""

    DECISION = 0  # the decision's number among those kept (its rows share it)
    SEAT = 1
    DECADE = 2
    CHARACTER = 3  # the seat's Character (sim.codes.Ch)
    ROW = 4  # the row's index among the decision's legal rows
    CHOSEN = 5  # 1 for the row the search took
    ACT = 6  # the row's action (sim.codes.Act)
    VALUE = 7  # the heuristic's value of it with the seat's own weights (strategies.policy.option_values)
    BASIS = 8


N_PH = PH.BASIS + N_FEATURES


# one kept decision: the seat, its k rows, its n candidates (the heuristic's best first) and each one's mean margin
LABEL = np.dtype([("seat", np.int64), ("k", np.int64), ("n", np.int64), ("rows", np.int64, (MAX_CANDIDATES,)),
                  ("means", np.float64, (MAX_CANDIDATES,))])


@njit(cache=True)
def labels_kept(labels):
    """How many decisions ``labels`` holds (the slots in use come first)."""
    lab = labels[1]
    j = 0
    while j < lab.shape[0] and lab[j].n > 0:
        j += 1
    return j


@njit(cache=True)
def play_out(st, r, seat, pos, act, a, b, c, stop, W):
    """Play on from ``seat``'s TURN decision (turn-order position ``pos``) after taking the row
    (act, a, b, c): the rest of the turn and of the Action Phase, the end of the decade, then whole
    decades up to decade ``stop`` (not past the game's last), every seat by its own policy, a seat
    whose strategy row (in ``W``) carries an apprentice by it (strategies.apprentice.apprentice_turn),
    the rest of this turn included. No records are written. Returns the last decade over (the
    rollout and search families' simulation)."""
    sid = st.pl[seat, PF.STRATEGY]
    if turn_step(st, r, seat, act, a, b, c):
        if apprentice_on(W, sid):
            apprentice_turn_rows(st, r, W, sid, seat)
        else:
            finish_turn(st, r, seat)
    else:
        end_turn(st, seat)
    return play_on(st, r, seat, pos, stop, W)


@njit(cache=True)
def play_out_war(st, r, seat, pos, act, slot, tgt, burn, stop, W):
    """:func:`play_out` from ``seat``'s war action decision (EXTENDED WAR, ``Dec.XW_ACTION``, its turn
    begun) after taking the row (act, slot, tgt, burn): its further war actions and its turn by its
    own policy, then the rest as :func:`play_out`. Returns the last decade over."""
    if war_action(st, r, seat, act, slot, tgt, burn):
        player_war_actions(st, r, seat)
    if st.xw[XG.ACTIVE] == 1 and war_over(st, r):
        end_war(st, r)
    play_turn(st, r, seat)
    return play_on(st, r, seat, pos, stop, W)


@njit(cache=True)
def play_on(st, r, seat, pos, stop, W):
    """After ``seat``'s turn at turn-order position ``pos``: the rest of the Action Phase, the end of
    the decade, then whole decades up to decade ``stop`` (not past the game's last), each turn by
    strategies.apprentice.apprentice_turn (every seat by its own policy; ``W``: the strategies' rows,
    where a seat's apprentice is found). Returns the last decade over."""
    # the rest of the round as sim.actions.action_rounds plays it (EXTENDED WAR: the end of the
    # seat's turn in the war, then the attackers of its Initiative)
    xw_war_turn_end(r, None, st, r, seat)
    xw_war_attackers(r, None, st, r, pos + 1)
    action_rounds(st, r, pos + 1, apprentice_turn, (W,))
    end_of_decade(st, r)
    # the game's one decade loop (its records land in the scratch state)
    return play_decades(st, r, stop, apprentice_turn, (W,), no_decade_end, ())


@njit(cache=True)
def rollout(st, r, seat, pos, act, a, b, c, horizon, W):
    """:func:`play_out` (``W``: the strategies' rows) to the end of the current Era (``horizon`` 0, after its scoring), of the
    game (1), or of the first Era whose end lies at least ``horizon`` decades on, the current one
    counted (``horizon`` >= 2; 1 would be the current Era, which 0 already says)."""
    d = st.g[G.DECADE]
    last = st.g[G.LAST_DECADE]
    dpe = r.k[RK.DECADES_PER_ERA]
    # an Era's scoring (END OF THE DECADE 7. SCORING) is where much of a choice's VP lands, so a
    # simulation always stops just after one; horizon >= 2 keeps a choice made late in an Era from
    # being judged by that Era's scoring alone (workers left on a grid, say, count only later)
    reach = d if horizon == 0 else d + horizon - 1
    return play_out(st, r, seat, pos, act, a, b, c, last if horizon == 1 else ((reach - 1) // dpe + 1) * dpe, W)


@njit(cache=True)
def vp_margin(st, seat):
    """A rollout's outcome for ``seat``: its VP minus the best rival's."""
    best = -1 << 30
    for s in range(st.g[G.NPLAYERS]):
        if s != seat and st.pl[s, PF.VP] > best:
            best = st.pl[s, PF.VP]
    return st.pl[seat, PF.VP] - best


@njit(cache=True)
def game_outcome(st, seat):
    """+1 when ``seat`` ranks alone first at the game's end (END OF THE GAME: the most VP, ties broken by
    the most resources, sim.scoring.ranks), -1 when a rival ranks above it, 0 when it shares the first rank."""
    if rank_of(st, seat) > 1:
        return -1
    for s in range(st.g[G.NPLAYERS]):
        if s != seat and rank_of(st, s) == 1:
            return 0
    return 1


@njit(cache=True)
def leaf_margin(st, r, seat, d, ahead, win):
    """A simulation's outcome for ``seat`` at its leaf (decade ``d`` over): :func:`vp_margin`, each
    seat's VP counted with ``ahead`` times its Character card's VP at the Scorings still to come as the
    leaf stands (CHARACTER CARDS: VP x Era at every Scoring). A simulation that stops at an Era's end
    sees that Scoring's Character VP only; a resource majority, a district closed by Walls or a Road
    held at the leaf scores again at every later Scoring (a Captain's War won and a Noblewoman's
    peace are the Era's own: a Scoring resets them, so at an Era's end they count 0 and 10 for every
    candidate alike). A leaf at the game's end (``d`` its last decade) adds ``win`` times
    :func:`game_outcome`: the game is won or lost there, and a margin averaged over the simulations can
    prefer a wide lead in most of them to a narrow one in all (the player is judged by its wins).
    ``ahead`` and ``win`` 0: the VP margin."""
    bonus = win * game_outcome(st, seat) if win != 0.0 and d >= st.g[G.LAST_DECADE] else 0.0
    if ahead == 0.0:
        return float(vp_margin(st, seat)) + bonus
    n = st.g[G.NPLAYERS]
    _, eras = scorings_ahead(r, d, st.g[G.LAST_DECADE])
    own = st.pl[seat, PF.VP] + ahead * eras * character_base(st, r, seat, n)
    best = -1e18
    for s in range(n):
        if s != seat:
            best = max(best, st.pl[s, PF.VP] + ahead * eras * character_base(st, r, s, n))
    return own - best + bonus


@njit(cache=True)
def record_labels(labels, st, seat, k, cand, means):
    """Keep one planned decision as counterfactual labels (issue 36): the position (the game's own
    fields, :func:`sim.game.copy_state`), the seat, its ``k`` rows, the candidate rows (the
    heuristic's best first) and each one's mean VP margin over its simulations: rows of one
    position that differ only by the action taken. ``labels``: :func:`new_labels`; full, it keeps
    no more."""
    kept, lab = labels[0], labels[1]
    j = labels_kept(labels)
    if j >= lab.shape[0]:
        return
    copy_state(kept[j], st)
    lab[j].seat = seat
    lab[j].k = k
    for q in range(cand.shape[0]):
        lab[j].rows[q] = cand[q]
        lab[j].means[q] = means[q]
    lab[j].n = cand.shape[0]


@njit(cache=True)
def plan_choice(st, sc, r, seat, pos, k, labels, W):
    """The rollout family's TURN decision, by flat Monte Carlo over the engine: the heuristic's
    ``CANDIDATES`` best rows of ``st.opts[:k]`` are each played on ``ROLLOUTS`` times (see
    :func:`rollout`) from copies of the state (``sc`` is the scratch record) with the hidden
    information redrawn (:func:`determinize`); the row with the best mean VP margin over the best
    rival is taken (ties: the heuristic's order). Rollout m of every candidate starts from the same
    random stream (common random numbers). The game's own stream is not advanced. The decision is
    kept in ``labels`` (:func:`record_labels`) while it has room. With no rollouts the seat's
    apprentice decides (strategies.apprentice; ``W``: the strategies' rows)."""
    st.g[G.OPT_N] += 1
    if k <= 1:
        if k <= 0:
            st.g[G.EMPTY_OPTS] += 1
        return 0
    w = st.w[seat]
    ncand = min(k, int(w[P.CANDIDATES]))
    nroll = int(w[P.ROLLOUTS])
    if nroll <= 0 and apprentice_on(W, st.pl[seat, PF.STRATEGY]):
        return apprentice_values(st, r, W, st.pl[seat, PF.STRATEGY], seat, k, np.empty(k, np.float64))
    if ncand <= 1 or nroll <= 0:
        return choose(st, r, seat, Dec.TURN, k)
    option_values(st, r, seat, Dec.TURN, k)
    cand = np.empty(ncand, np.int64)
    for j in range(ncand):  # the ncand best, best first (ties: the earlier row)
        bi = -1
        for i in range(k):
            taken = False
            for q in range(j):
                if cand[q] == i:
                    taken = True
            if not taken and (bi < 0 or st.vals[i] > st.vals[bi]):
                bi = i
        cand[j] = bi
    base = mix64(st.rng[0] ^ np.uint64(st.g[G.OPT_N]))
    horizon = int(w[P.HORIZON])
    ahead = w[P.CHARACTER_AHEAD]
    win = w[P.WIN_BONUS]
    best = -1e18
    pick = cand[0]
    means = np.empty(ncand, np.float64)
    n = st.g[G.NPLAYERS]
    city_memo_start(st, r, n)  # each simulation starts with the memos of the map it starts from
    for j in range(ncand):
        i = cand[j]
        tot = 0.0
        for m in range(nroll):
            copy_state(sc, st)
            copy_city_memo(sc, st, n)
            sc.rng[0] = mix64(base + np.uint64(m))
            determinize(sc, r, seat)
            d = rollout(sc, r, seat, pos, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3], horizon, W)
            tot += leaf_margin(sc, r, seat, d, ahead, win)
        means[j] = tot / nroll
        if tot > best + 1e-9:
            best = tot
            pick = i
    record_labels(labels, st, seat, k, cand, means)
    sid = st.pl[seat, PF.STRATEGY]
    if apprentice_acts(W, sid):
        # training (trinidad.train.apprentice): the planner labels the position, the apprentice acts
        return apprentice_values(st, r, W, sid, seat, k, np.empty(k, np.float64))
    return pick


@njit(cache=True)
def play_turn_planned(st, sc, r, seat, pos, labels, W):
    """A turn of a rollout-family seat: as sim.actions.play_turn, each TURN decision by
    :func:`plan_choice`. (The loop repeats sim.actions.finish_turn's rather than sharing it: rollouts
    call finish_turn, so a shared loop that could plan would make the engine recursive.)"""
    st.g[G.TURN_SEAT] = seat
    for _ in range(1000):
        k = turn_options(st, r, seat)
        i = plan_choice(st, sc, r, seat, pos, k, labels, W)
        if not turn_step(st, r, seat, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3]):
            break
    end_turn(st, seat)


@njit(cache=True)
def label_regret(r, labels, Wt, sc, out):
    """How far from the planner a policy's TURN choices fall, on kept decisions (:func:`record_labels`):
    for each trial strategy row ``Wt[p]`` (a W row; the seat takes its Character's block, as the game's
    setup switches it), each kept position is copied into ``sc``, its rows listed again and valued by the
    policy with those weights (strategies.policy.option_values), and the row it would take is
    scored by the planner's labels: the best candidate's mean margin less the taken one's, or less
    the worst candidate's when it would take a row the planner did not simulate. ``out[p]``: the
    mean over the kept decisions (VP). Returns -1, or the first kept decision whose rows listed
    again differ in number from those recorded."""
    kept, lab = labels[0], labels[1]
    n = labels_kept(labels)
    for p in range(Wt.shape[0]):
        out[p] = 0.0
    for j in range(n):
        seat = lab[j].seat
        nc = lab[j].n
        mean = lab[j].means
        best = mean[0]
        worst = mean[0]
        for q in range(1, nc):
            best = max(best, mean[q])
            worst = min(worst, mean[q])
        for p in range(Wt.shape[0]):
            copy_state(sc, kept[j])
            o = N_WEIGHTS * (1 + sc.pl[seat, PF.CHARACTER])
            for x in range(N_WEIGHTS):
                sc.w[seat, x] = Wt[p, o + x]
            k = turn_options(sc, r, seat)
            if k != lab[j].k:
                return j
            option_values(sc, r, seat, Dec.TURN, k)
            top = 0
            for i in range(1, k):
                if sc.vals[i] > sc.vals[top]:
                    top = i
            got = worst
            for q in range(nc):
                if lab[j].rows[q] == top:
                    got = mean[q]
            out[p] += best - got
    if n > 0:
        for p in range(Wt.shape[0]):
            out[p] /= n
    return -1
