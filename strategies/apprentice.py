"""The apprentice (issue 36, expert iteration): a network that ranks a seat's TURN rows the way the
rollout planner's simulations rank them, cheap enough to play inside those simulations.

The rollout planner (:mod:`strategies.rollout`) plays every candidate row of a TURN decision on
from copies of the position and keeps the decision (:func:`strategies.rollout.record_labels`):
rows of one position that differ only by the action, each with its mean VP margin. The apprentice
is fitted to those labels (``trinidad train --apprentice``, :mod:`trinidad.train.apprentice`): its
output for a row is that row's margin less the mean over the position's candidates. A rollout
strategy that names an apprentice (``[rollout] apprentice = "file.npz"``) plays its own seat's turns
inside its simulations by the apprentice instead of its base heuristic (:func:`apprentice_turn`);
with ``rollouts = 0`` it plays its real turns by it too (no simulations).

Inputs, from the deciding seat's view only (what is face up and its own holdings,
:func:`strategies.value_model.value_features`, a hand counted as a number of cards):

- the position (:func:`position_inputs`): the seat's value features and, for each, the best
  rival's; the workers of the seat and of its rivals (:class:`SX`); each Major building's grid
  (:class:`MJ`: free spaces, the seat's workers there, its rivals', completed);
- the row (:func:`row_inputs`): its action (one-hot), its action with its first parameter when that
  is a small number (a Major building, a Status category, workers: one-hot), the row's numbers
  (:class:`RX`): the base heuristic's value of the row less the best row's, its rank, and for a
  MAJOR row the grid it goes on.

The network has one hidden layer of :data:`HIDDEN` ReLU units. Its position part is the same for
every row of a decision, so it is computed once a decision and each row adds only its own inputs
(:func:`apprentice_values`); the one-hot inputs are left unscaled (mean 0, scale 1) so that a row
adds two weight rows and its numbers.
"""

from enum import IntEnum

import numpy as np
from numba import njit

from sim.actions import end_turn, own_turn, turn_options, turn_step
from sim.actions.turn import xw_war_turn_begin
from sim.codes import N_ACT, Act, Dec
from sim.game import copy_state
from sim.rules import RK
from sim.state import MAX_PLAYERS, N_GROUPS, N_MAJOR, PF, G
from strategies.policy import option_values
from strategies.value_model import N_VF, SEARCH_BLOCK, SEARCH_OFFSET, VF, VF_NAMES, best_rival, net_input, net_output, value_features

HIDDEN = 64  # hidden units
A_SLOTS = 8  # a row's first parameter gets its own one-hot input below this (Major building, Status category, workers)


class SX(IntEnum):
    """Position inputs after the value features (the seat's, then the best rival's)."""

    WORKERS = 0  # the seat's available workers (PF.WORKERS)
    WORKERS_PLACED = 1
    CC_WORKERS = 2
    PASSED = 3
    TURN_POS = 4
    RIVAL_WORKERS = 5  # the same, the most among its rivals
    RIVAL_WORKERS_PLACED = 6
    RIVAL_CC_WORKERS = 7
    RIVAL_PASSED = 8
    RIVAL_TURN_POS = 9
    DECADE = 10
    DECADE_IN_ERA = 11  # 0 .. decades per Era - 1: how far the Era's Scoring is
    PLAYERS = 12


class MJ(IntEnum):
    """Position inputs for each Major building's grid (11. MAJOR BUILDING)."""

    FREE = 0  # free spaces
    OWN = 1  # the seat's workers on it
    RIVALS = 2  # the other seats' (and City Council) workers on it
    DONE = 3  # completed this decade, awaiting recovery (major_state column 0)
    TIMES = 4  # times completed
    FIRST = 5  # the first-worker VP taken


class RX(IntEnum):
    """A row's numeric inputs, after its one-hot inputs."""

    A = 0  # the row's parameters as listed (sim.codes.Act)
    B = 1
    C = 2
    VALUE = 3  # the base heuristic's value of the row less the best row's
    RANK = 4  # rows the heuristic values above it, over the rows listed
    ROWS = 5  # rows listed
    MAJOR_WORKERS = 6  # a MAJOR row: its workers, then its grid's MJ inputs, and whether it completes the grid
    MAJOR_FREE = 7
    MAJOR_OWN = 8
    MAJOR_RIVALS = 9
    MAJOR_COMPLETES = 10


N_SX = len(SX)
N_MJ = len(MJ)
N_RX = len(RX)
N_STATE = 2 * N_VF + N_SX + N_MJ * N_MAJOR
ROW_ACT = N_STATE  # the row's action, one-hot
ROW_ACT_A = ROW_ACT + N_ACT  # the row's action with its first parameter, one-hot (N_ACT x A_SLOTS)
ROW_NUM = ROW_ACT_A + N_ACT * A_SLOTS  # the row's RX inputs
N_IN = ROW_NUM + N_RX

# the W row block (after strategies.value_model's search block): on/off, the standardisation, the layers
AB_ON = 0  # one of the AB_MODE values below (0: no apprentice)
AB_ROWS = 1  # the rows it values: the base heuristic's best this many (the planner's candidates, which its labels cover)
AB_MU = 2
AB_SD = AB_MU + N_IN
AB_W1 = AB_SD + N_IN  # [N_IN, HIDDEN] row by row
AB_B1 = AB_W1 + N_IN * HIDDEN
AB_W2 = AB_B1 + HIDDEN
AB_B2 = AB_W2 + HIDDEN
# AB_ON's values. ON: the apprentice plays the seat's turns inside the planner's simulations (and alone,
# with no rollouts, its real turns). The two training modes (trinidad.train.apprentice) let the apprentice
# take the seat's real turns while the planner labels every position it reaches: DAGGER with the planner's
# simulations played by the base heuristic (the labels of rollout-solo's planner), EXPERT with them played
# by the apprentice itself (expert iteration: the labels of the planner over the apprentice, a stronger
# teacher each generation).
AB_MODE_ON = 1
AB_MODE_DAGGER = 2
AB_MODE_EXPERT = 3
AB_BLOCK = AB_B2 + 1
APPRENTICE_OFFSET = SEARCH_OFFSET + SEARCH_BLOCK  # where the block starts in a W row: after the search block


def input_names() -> list[str]:
    """The inputs' names, in order: a network file records them (strategies.registry refuses a
    file made for other inputs)."""
    names = [f"own_{n}" for n in VF_NAMES] + [f"rival_{n}" for n in VF_NAMES] + [s.name.lower() for s in SX]
    names += [f"major{a}_{m.name.lower()}" for a in range(N_MAJOR) for m in MJ]
    names += [f"act{a}" for a in range(N_ACT)] + [f"act{a}_a{b}" for a in range(N_ACT) for b in range(A_SLOTS)]
    return names + [f"row_{x.name.lower()}" for x in RX]


def one_hot_inputs() -> np.ndarray:
    """The one-hot inputs (bool[N_IN]): never standardised (mean 0, scale 1 in a network file)."""
    m = np.zeros(N_IN, np.bool_)
    m[ROW_ACT:ROW_NUM] = True
    return m


@njit(cache=True)
def _seat_and_rivals(st, n, seat, col, x, own, rivals):
    """``x[own]``: the seat's ``st.pl`` column ``col``; ``x[rivals]``: the most among its rivals."""
    x[own] = st.pl[seat, col]
    m = 0
    for s in range(n):
        if s != seat and st.pl[s, col] > m:
            m = st.pl[s, col]
    x[rivals] = m


@njit(cache=True)
def position_inputs(st, r, seat, x, vf, scratch):
    """The position part of the inputs, ``x[:N_STATE]``. ``vf``: float64[MAX_PLAYERS, N_VF] and
    ``scratch``: int32[N_GROUPS + 8] work space."""
    n = st.g[G.NPLAYERS]
    value_features(st, r, st.g[G.DECADE] - 1, vf, scratch)  # inside a decade: the one before is the last over
    for f in range(N_VF):
        x[f] = vf[seat, f]
        # a rival's card series are the colours of its hand, which the seat cannot see (value_features
        # counts them; the search reads them only in its redrawn copies): that input stays 0
        x[N_VF + f] = best_rival(vf, n, seat, f) if n > 1 and f != VF.SERIES_AHEAD else 0.0
    o = 2 * N_VF
    _seat_and_rivals(st, n, seat, PF.WORKERS, x, o + SX.WORKERS, o + SX.RIVAL_WORKERS)
    _seat_and_rivals(st, n, seat, PF.WORKERS_PLACED, x, o + SX.WORKERS_PLACED, o + SX.RIVAL_WORKERS_PLACED)
    _seat_and_rivals(st, n, seat, PF.CC_WORKERS, x, o + SX.CC_WORKERS, o + SX.RIVAL_CC_WORKERS)
    _seat_and_rivals(st, n, seat, PF.PASSED, x, o + SX.PASSED, o + SX.RIVAL_PASSED)
    _seat_and_rivals(st, n, seat, PF.TURN_POS, x, o + SX.TURN_POS, o + SX.RIVAL_TURN_POS)
    x[o + SX.DECADE] = st.g[G.DECADE]
    x[o + SX.DECADE_IN_ERA] = (st.g[G.DECADE] - 1) % r.k[RK.DECADES_PER_ERA]
    x[o + SX.PLAYERS] = n
    o += N_SX
    for a in range(N_MAJOR):
        sp = r.major_spaces[a, n - 2]
        free = 0
        own = 0
        for q in range(sp):
            if st.major[a, q] == -1:
                free += 1
            elif st.major[a, q] == seat:
                own += 1
        x[o + MJ.FREE] = free
        x[o + MJ.OWN] = own
        x[o + MJ.RIVALS] = sp - free - own
        x[o + MJ.DONE] = st.major_state[a, 0]
        x[o + MJ.TIMES] = st.major_state[a, 1]
        x[o + MJ.FIRST] = st.major_state[a, 2]
        o += N_MJ


@njit(cache=True)
def _row_numbers(st, x, i, k, best, num):
    """Row ``i``'s RX inputs into ``num`` (``st.vals[:k]`` the heuristic's values, ``best`` the
    largest; ``x`` the position part, for a MAJOR row's grid)."""
    act = st.opts[i, 0]
    a = st.opts[i, 1]
    num[RX.A] = a
    num[RX.B] = st.opts[i, 2]
    num[RX.C] = st.opts[i, 3]
    num[RX.VALUE] = st.vals[i] - best
    above = 0
    for j in range(k):
        if st.vals[j] > st.vals[i]:
            above += 1
    num[RX.RANK] = above / k
    num[RX.ROWS] = k
    for q in range(RX.MAJOR_WORKERS, N_RX):
        num[q] = 0.0
    if act == Act.MAJOR:
        g = 2 * N_VF + N_SX + N_MJ * a
        b = st.opts[i, 2]
        num[RX.MAJOR_WORKERS] = b
        num[RX.MAJOR_FREE] = x[g + MJ.FREE]
        num[RX.MAJOR_OWN] = x[g + MJ.OWN]
        num[RX.MAJOR_RIVALS] = x[g + MJ.RIVALS]
        num[RX.MAJOR_COMPLETES] = 1.0 if b >= x[g + MJ.FREE] else 0.0


@njit(cache=True)
def row_inputs(st, x, i, k, best, num):
    """Row ``i``'s part of the inputs, ``x[N_STATE:]`` (dense: the training side's; the network's
    own pass adds only the non-zero one-hot inputs, :func:`apprentice_values`)."""
    x[N_STATE:] = 0.0
    act = st.opts[i, 0]
    a = st.opts[i, 1]
    x[ROW_ACT + act] = 1.0
    if 0 <= a < A_SLOTS:
        x[ROW_ACT_A + act * A_SLOTS + a] = 1.0
    _row_numbers(st, x, i, k, best, num)
    for q in range(N_RX):
        x[ROW_NUM + q] = num[q]


@njit(cache=True)
def apprentice_on(W, sid):
    """Whether strategy row ``sid`` of ``W`` carries an apprentice (0 when ``W`` has no room for one)."""
    if sid < 0 or W.shape[1] < APPRENTICE_OFFSET + AB_BLOCK:
        return False
    mode = W[sid, APPRENTICE_OFFSET + AB_ON]
    return mode == AB_MODE_ON or mode == AB_MODE_EXPERT


@njit(cache=True)
def apprentice_acts(W, sid):
    """Whether strategy row ``sid`` of ``W`` is in a training mode (AB_MODE_DAGGER or AB_MODE_EXPERT):
    its planner labels the seat's positions and the apprentice takes its real turns."""
    if sid < 0 or W.shape[1] < APPRENTICE_OFFSET + AB_BLOCK:
        return False
    mode = W[sid, APPRENTICE_OFFSET + AB_ON]
    return mode == AB_MODE_DAGGER or mode == AB_MODE_EXPERT


@njit(cache=True)
def apprentice_values(st, r, W, sid, seat, k, out):
    """The apprentice of strategy row ``sid`` values the base heuristic's best ``AB_ROWS`` rows of
    ``st.opts[:k]`` (a TURN listing) into ``out[:k]``: the margin it expects the row to gain over the
    mean candidate; every other row gets -inf. Only those rows: the planner's labels it was fitted
    to cover the heuristic's best candidates alone, so a row below them is one it never saw. Returns
    the best row (ties: the heuristic's order)."""
    o = APPRENTICE_OFFSET
    option_values(st, r, seat, Dec.TURN, k)  # the base heuristic's values: an input
    m = min(k, int(W[sid, o + AB_ROWS]))
    order = np.argsort(-st.vals[:k], kind="mergesort")  # best first, ties: the earlier row (as the planner's candidates)
    best = st.vals[order[0]]
    x = np.empty(N_STATE, np.float64)
    vf = np.empty((MAX_PLAYERS, N_VF), np.float64)
    scratch = np.empty(N_GROUPS + 8, np.int32)
    position_inputs(st, r, seat, x, vf, scratch)
    u = np.empty(HIDDEN, np.float64)
    for j in range(HIDDEN):
        u[j] = W[sid, o + AB_B1 + j]
    for f in range(N_STATE):
        net_input(W, sid, u, x[f], o + AB_MU + f, o + AB_SD + f, o + AB_W1 + f * HIDDEN)
    num = np.empty(N_RX, np.float64)
    h = np.empty(HIDDEN, np.float64)
    for i in range(k):
        out[i] = -np.inf
    pick = order[0]
    for q0 in range(m):
        i = order[q0]
        act = st.opts[i, 0]
        a = st.opts[i, 1]
        if act == Act.F_RECOVER and q0 > 0:
            # Recover Workers only as the base heuristic takes it (its first choice): valued by the network,
            # recovering from a grid and placing on it again as its first worker gains the first-worker VP
            # and pays double (FREE ACTIONS, 11. MAJOR BUILDING), a cycle that can fill a decade's turns; the
            # labels, which differ by one action, rarely hold it (docs/notebook/solo.md)
            continue
        b1 = o + AB_W1 + (ROW_ACT + act) * HIDDEN
        for j in range(HIDDEN):
            h[j] = u[j] + W[sid, b1 + j]
        if 0 <= a < A_SLOTS:
            b2 = o + AB_W1 + (ROW_ACT_A + act * A_SLOTS + a) * HIDDEN
            for j in range(HIDDEN):
                h[j] += W[sid, b2 + j]
        _row_numbers(st, x, i, k, best, num)
        for q in range(N_RX):
            f = ROW_NUM + q
            net_input(W, sid, h, num[q], o + AB_MU + f, o + AB_SD + f, o + AB_W1 + f * HIDDEN)
        v = net_output(W, sid, h, o + AB_W2, o + AB_B2)
        out[i] = v
        if v > out[pick]:
            pick = i
    return pick


@njit(cache=True)
def apprentice_turn_rows(st, r, W, sid, seat):
    """The rest of ``seat``'s turn with every TURN decision by its apprentice (the other decisions
    by its base heuristic, through the seam); then END of the turn."""
    out = np.empty(st.opts.shape[0], np.float64)
    for _ in range(1000):
        k = turn_options(st, r, seat)
        i = apprentice_values(st, r, W, sid, seat, k, out) if k > 1 else 0
        if not turn_step(st, r, seat, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3]):
            break
    end_turn(st, seat)


@njit(cache=True)
def apprentice_turn(st, r, seat, pos, players):
    """A turn inside a rollout strategy's simulations (``players``: ``(W,)``): a seat whose strategy
    row carries an apprentice plays its TURN decisions by it; every other seat, and the Solo A.I.,
    plays the engine's own turn (sim.actions.own_turn)."""
    W = players[0]
    sid = st.pl[seat, PF.STRATEGY]
    if st.g[G.AI] == seat + 1 or not apprentice_on(W, sid):
        own_turn(st, r, seat, pos, ())
        return
    xw_war_turn_begin(r, None, st, r, seat)
    st.g[G.TURN_SEAT] = seat
    apprentice_turn_rows(st, r, W, sid, seat)


@njit(cache=True)
def decision_inputs(r, labels, st, X, first, count, targets):
    """The training side: each kept decision of ``labels`` (strategies.rollout.new_labels) as its
    candidates' inputs. Row ``first[j] + q`` of ``X`` (float64[.., N_IN]) is candidate q of decision
    j and ``targets`` its mean margin less the decision's mean over its candidates; ``count[j]`` its
    candidates. Returns the rows written, or -1 - j when decision j's rows listed again differ."""
    kept, lab = labels[0], labels[1]
    n = 0
    while n < lab.shape[0] and lab[n].n > 0:
        n += 1
    vf = np.empty((MAX_PLAYERS, N_VF), np.float64)
    scratch = np.empty(N_GROUPS + 8, np.int32)
    num = np.empty(N_RX, np.float64)
    x = np.empty(N_IN, np.float64)
    w = 0
    for j in range(n):
        seat = lab[j].seat
        copy_state(st, kept[j])
        k = turn_options(st, r, seat)
        if k != lab[j].k:
            return -1 - j
        option_values(st, r, seat, Dec.TURN, k)
        best = -1e300
        for i in range(k):
            best = max(best, st.vals[i])
        position_inputs(st, r, seat, x, vf, scratch)
        nc = lab[j].n
        mean = 0.0
        for q in range(nc):
            mean += lab[j].means[q]
        mean /= nc
        first[j] = w
        count[j] = nc
        for q in range(nc):
            row_inputs(st, x, lab[j].rows[q], k, best, num)
            X[w, :] = x
            targets[w] = lab[j].means[q] - mean
            w += 1
    return w


