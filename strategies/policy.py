"""The one jitted policy entry point: ``choose(st, r, seat, kind, n)`` picks one of the legal
options ``st.opts[:n]`` of a decision of kind ``kind`` (sim.codes.Dec) for ``seat``.

``W`` is a float64 matrix, one row per strategy id: ``W[sid, 0]`` is the strategy family, then
come the weights over the named features in :data:`FEATURES` (:class:`F`), the named valuation
coefficients (:class:`K`, each with its default in :data:`K_DEFAULT`) and the strategy parameters
(:class:`P`), all loaded from the TOML files in ``strategies/`` (strategies.registry). The
valuation writes no number of its own but structural ones (indices, counts, flags, sentinels).
Families: 0 ``random`` (uniform over the legal options), 1 ``greedy`` (best
immediate VP/resource value: the weighted feature delta of each option), 2 ``heuristic`` (greedy
plus the ``character`` feature: progress toward the seat's own Character card scoring, CARD
REFERENCE > CHARACTER CARDS; a strategy file may give one weight set per Character).

The valuation is in modules of its own, by concern: strategies.policy_terms (terms every kind of
decision shares), strategies.policy_character (the Character term), strategies.policy_build (the BUILD
rows and the seat's memo), strategies.policy_vote (the City Council vote), strategies.policy_turn (the
TURN rows) and strategies.policy_decisions (every other decision). This module holds what the engine
calls through sim.seam (:func:`choose`, :func:`choose_grouped` and the TURN listing's forbid filters)
and what the players call (:func:`option_values`); the rest of the project imports the policy from here.

The engine reaches this module through sim.seam (its one import of strategies), so the policy's modules
import only the engine modules below the seam (city, codes, compiled_parts, rng, rules, series, state): they
read the state only. A test over the import graph keeps it so.
"""

from numba import njit, objmode

from sim.codes import FIRST_FREE_ACT, Act, Dec
from sim.rng import rand_below
from sim.state import TL, B
from strategies import python_bridge
from strategies.policy_build import _build_value, memo_refresh
from strategies.policy_character import _per_space
from strategies.policy_decisions import _option_value
from strategies.policy_turn import _turn_values, turn_value_basis  # noqa: F401 (turn_value_basis: imported from here)
from strategies.weights import (  # noqa: F401 (the slots and families, re-exported: imported from here across the project)
    COEFFICIENTS,
    FAMILY_GREEDY,
    FAMILY_HEURISTIC,
    FAMILY_PYTHON,
    FAMILY_RANDOM,
    FAMILY_ROLLOUT,
    FAMILY_SEARCH,
    FEATURES,
    FORBID_CITY,
    FORBID_PRODUCTION,
    K_DEFAULT,
    N_FEATURES,
    N_WEIGHTS,
    P_DEFAULT,
    P_RANGE,
    PARAMETERS,
    WEIGHTS,
    F,
    K,
    P,
    default_weights,
)

TIE = 1e-9  # values this close to the best count as tied for it


@njit(cache=True)
def _best(vals, n):
    """The best of ``vals[:n]`` (-1e18 when n is 0)."""
    best = -1e18
    for i in range(n):
        if vals[i] > best:
            best = vals[i]
    return best


@njit(cache=True)
def _count_tied(vals, n, best):
    """How many of ``vals[:n]`` are tied for ``best`` (:data:`TIE`)."""
    ties = 0
    for i in range(n):
        if vals[i] > best - TIE:
            ties += 1
    return ties


@njit(cache=True)
def _nth_tied(vals, n, best, pick):
    """The index of the ``pick``-th of ``vals[:n]`` tied for ``best`` (0 if none)."""
    for i in range(n):
        if vals[i] > best - TIE:
            if pick == 0:
                return i
            pick -= 1
    return 0


@njit(cache=True)
def turn_groups_ok(st, seat):
    """The seat's TURN decision may see the BUILD rows grouped by (type, district, Status marker)
    (sim.actions.decide_turn): its policy values rows (greedy, heuristic, rollout) and those rows
    share a value (not :func:`strategies.policy_character._per_space`), and it carries no forbid probe (:func:`drop_forbidden`
    works on the full listing). A search's simulation forbid (P.SIM_FORBID) of an Act other than BUILD
    keeps the groups: it takes only rows that are not BUILD rows, and the BUILD rows stay a legal main
    action, so the grouped listing less that Act's rows (:func:`drop_sim_forbidden`) is the full
    listing's :func:`drop_forbidden`, in the same order (the simulations of `best`, whose every seat is
    kept from the Major buildings, listed every BUILD row one by one without it)."""
    fam = int(st.w[seat, F.FAMILY])
    return (fam != FAMILY_RANDOM and fam != FAMILY_PYTHON and not _per_space(st, seat)
            and not _probe_forbids(st, seat) and not sim_forbids(st, seat, Act.BUILD))


@njit(cache=True)
def sim_forbids(st, seat, act):
    """Inside a search's simulations the seat is kept from Act ``act`` (P.SIM_FORBID: the set of Acts as a
    bit mask, bit ``act`` set; 0 none; strategies.search.SB.ROLLOUT_FORBID)."""
    return (int(st.w[seat, P.SIM_FORBID]) >> act) & 1 == 1


@njit(cache=True)
def _probe_forbids(st, seat):
    """The seat carries a forbid probe (strategies.forced_play: P.PROBE_ACT or P.PROBE_PLAN below 0)."""
    return st.w[seat, P.PROBE_ACT] < 0 or st.w[seat, P.PROBE_PLAN] < 0


@njit(cache=True)
def drop_sim_forbidden(st, seat, k):
    """A grouped TURN listing's rows ``st.opts[:k]`` (sim.actions.decide_turn: no BUILD row among them,
    :func:`turn_groups_ok` held) less those of the Act a search's simulations keep the seat from
    (P.SIM_FORBID, :func:`sim_forbids`), the rest kept in order; returns how many are left. With BUILD groups
    listed another main action stays legal, so this is :func:`drop_forbidden` over the full listing."""
    if st.w[seat, P.SIM_FORBID] <= 0:
        return k
    m = 0
    for i in range(k):
        if not sim_forbids(st, seat, st.opts[i, 0]):
            if m != i:
                st.opts[m] = st.opts[i]
            m += 1
    return m


@njit(cache=True)
def _forbids(st, seat):
    """The seat carries a forbid probe (strategies.forced_play: P.PROBE_ACT or P.PROBE_PLAN below 0) or, inside a
    search's simulations, that search's forbid (P.SIM_FORBID)."""
    return _probe_forbids(st, seat) or st.w[seat, P.SIM_FORBID] > 0


@njit(cache=True)
def _forbidden(st, r, seat, act, a):
    """TURN row (``act``, ``a``) is one the seat's forbid probe takes away: an Act (P.PROBE_ACT = -Act), of one
    column a (P.PROBE_ARG = a + 1, 0 any), or a group of BUILD rows (P.PROBE_PLAN: FORBID_CITY, the Lots, Houses
    and Palaces; FORBID_PRODUCTION, the Production buildings of SCORING PHASE City, ``r.b_prod``), or the
    Acts a search's simulations keep the seat from (P.SIM_FORBID, any column: :func:`sim_forbids`)."""
    if st.w[seat, P.SIM_FORBID] > 0 and sim_forbids(st, seat, act):
        return True
    pa = st.w[seat, P.PROBE_ACT]
    if pa < 0:
        arg = st.w[seat, P.PROBE_ARG]
        return act == -pa and (arg == 0 or a == arg - 1)
    plan = st.w[seat, P.PROBE_PLAN]
    if act != Act.BUILD:
        return False
    if plan == FORBID_CITY:
        return a == B.LOT or a == B.HOUSE or a == B.PALACE
    if plan == FORBID_PRODUCTION:
        return r.b_prod[a] > 0
    return False


@njit(cache=True)
def drop_forbidden(st, r, seat, k):
    """A forbid probe (``trinidad probe --forbid``): the seat's TURN rows ``st.opts[:k]`` less those its probe
    forbids (:func:`_forbidden`), the rest kept in order; returns how many are left. Only while another main
    action stays legal: a seat whose every main action is forbidden takes one (a turn must end in a main action
    or PASS, B. ACTION PHASE), and the record shows it. Every family lists its TURN rows through
    sim.actions.turn_options, so a searching seat never considers the option, nor plays it in its simulations
    (its copies carry the probe); the other seats are unchanged."""
    if not _forbids(st, seat):
        return k
    drop = -1  # the first forbidden row: none, nothing to do
    left = False  # a main action not forbidden
    for i in range(k):
        if _forbidden(st, r, seat, st.opts[i, 0], st.opts[i, 1]):
            if drop < 0:
                drop = i
        elif st.opts[i, 0] < FIRST_FREE_ACT:
            left = True
        if left and drop >= 0:
            break
    if drop < 0 or not left:
        return k
    m = drop
    for i in range(drop, k):
        if not _forbidden(st, r, seat, st.opts[i, 0], st.opts[i, 1]):
            if m != i:
                st.opts[m] = st.opts[i]
            m += 1
    return m


@njit(cache=True)
def choose_grouped(st, r, seat, k):
    """:func:`choose` for a grouped TURN listing (sim.actions.decide_turn): rows ``st.opts[:k]``
    (no BUILD row among them) and BUILD groups ``st.grp[:st.turn_n[TL.GROUPS]]`` of [type, district + 1,
    c column, spaces, first space]. The full listing puts its BUILD rows first, each group's rows
    sharing the group's value (:func:`turn_groups_ok`); so the values, the best, the number of rows
    tied for it and the one random draw among them are :func:`choose`'s over the full listing.
    Returns the row index, or ``-(p + 1)`` for the p-th tied BUILD row in listing order, the tied
    groups marked in ``st.grp_tied`` (entries of groups not listed this time are stale: no BUILD row
    of this listing reads them)."""
    w = st.w[seat]
    ng = st.turn_n[TL.GROUPS]
    grp = st.grp
    gv = st.grp_vals
    _turn_values(st, r, seat, k)
    best = _best(st.vals, k)
    if ng > 0:
        memo_refresh(st, r, seat)
        cache = st.bval[seat]
        opts = st.opts
        for g in range(ng):
            t = grp[g, 0]
            v = cache[grp[g, 2] & 1, t, grp[g, 1]]
            if v != v:
                # the value reads the space's district only: the group's first space stands in (row k, scratch)
                opts[k, 0] = Act.BUILD
                opts[k, 1] = t
                opts[k, 2] = grp[g, 4]
                opts[k, 3] = grp[g, 2]
                opts[k, 4] = 0
                v = _build_value(st, r, w, seat, k, cache, False)
            gv[g] = v
            if v > best:
                best = v
    tied = st.grp_tied
    tb = 0  # tied BUILD rows
    for g in range(ng):
        on = gv[g] > best - TIE
        tied[grp[g, 2] & 1, grp[g, 0], grp[g, 1]] = 1 if on else 0
        if on:
            tb += grp[g, 3]
    ties = tb + _count_tied(st.vals, k, best)
    pick = rand_below(st, ties) if ties > 1 else 0
    if pick < tb:
        return -(pick + 1)
    return _nth_tied(st.vals, k, best, pick - tb)


@njit(cache=True)
def option_values(st, r, seat, kind, n):
    """The greedy/heuristic value of each option into ``st.vals[:n]``; returns the best value."""
    vals = st.vals
    if kind == Dec.TURN:
        _turn_values(st, r, seat, n)
    else:
        for i in range(n):
            vals[i] = _option_value(st, r, seat, kind, i)
    return _best(vals, n)


@njit(cache=True)
def choose(st, r, seat, kind, n):
    """Pick an option index for ``seat`` (strategy ``st.pl[seat, PF.STRATEGY]``). The rollout family
    decides here as the heuristic does: its simulations happen one level up (strategies.rollout.plan_choice)."""
    w = st.w[seat]
    fam = int(w[F.FAMILY])
    if fam == FAMILY_RANDOM:
        return rand_below(st, n)
    if fam == FAMILY_PYTHON:
        return python_choose(st, seat, kind, n)
    best = option_values(st, r, seat, kind, n)
    # one random draw among the best (one draw per decision, not per tie)
    ties = _count_tied(st.vals, n, best)
    return _nth_tied(st.vals, n, best, rand_below(st, ties) if ties > 1 else 0)


@njit(cache=True)
def python_choose(st, seat, kind, n):
    """Call back into Python (strategies.python_bridge): the seat's object picks from ``st.opts[:n]``. The
    arrays are handed over as they are; the Python side copies what it keeps and hides what the
    seat cannot see."""
    slot = int(st.w[seat, P.PY_SLOT])
    opts = st.opts[:n]
    g = st.g
    pl = st.pl
    vps = st.vps
    order = st.order
    cell_b = st.cell_b
    cell_owner = st.cell_owner
    card_loc = st.card_loc
    card_rot = st.card_rot
    major = st.major
    with objmode(i="int64"):
        i = python_bridge.call(slot, seat, kind, opts, g, pl, vps, order, cell_b, cell_owner, card_loc, card_rot, major)
    return i
