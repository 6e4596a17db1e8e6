"""The policy's TURN decision (strategies.policy): the value of each listed row, the main actions, the
free actions and the Affiliate cards used in a turn, with the Character term added where it can
count; and those values split by feature weight (:func:`turn_value_basis`), what a search's fit reads.
"""

import numpy as np
from numba import njit

from sim.codes import Act, Law
from sim.compiled_parts import extended_war
from sim.rules import AP, RK
from sim.series import pile_loc, top_of
from sim.state import PF, G, Mini
from strategies.policy_build import _build_value, memo_refresh
from strategies.policy_character import _character_progress, _per_space, _progress_acts
from strategies.policy_terms import _grid_take, _res_value, _series_change
from strategies.policy_vote import _call_value
from strategies.war_policy import defender_value
from strategies.weights import FAMILY_GREEDY, N_FEATURES, F, K, P

# the optional parts, reached only through their hooks (sim.compiled_parts: compiled only into the runs that play them)
xw_defender_value = extended_war(defender_value)


@njit(cache=True)
def _turn_base(st, r, seat, i):
    w = st.w[seat]
    act = st.opts[i, 0]
    a = st.opts[i, 1]
    b = st.opts[i, 2]
    if act == Act.PASS:
        return 0.0
    if act == Act.ACTIVATE:
        inp = r.act_in[a]
        out = r.act_out[a]
        v = w[F.WORKER] * r.act_w[a] - _res_value(w, inp[0], inp[1], inp[2], inp[3])
        v -= w[F.COIN] * (r.k[RK.BRONZE_PER_SILVER] * inp[4] + inp[5])
        v += _res_value(w, out[0] + out[3], out[1] + out[4], out[2], out[5])
        v += w[F.COIN] * (r.k[RK.BRONZE_PER_SILVER] * out[6] + out[7]) + w[F.FAITH] * out[8]
        if r.act_kind[a] != 0:
            v += w[F.MILITARY]
            # EXTENDED WAR: the miniature it upgrades (a veteran Miliciano to a Soldier, a Soldier to a veteran)
            if r.act_kind[a] == 1:
                v += xw_defender_value(r, 0.0, st, r, w, seat, Mini.MILICIANO_VET, Mini.SOLDIER)
            else:
                v += xw_defender_value(r, 0.0, st, r, w, seat, Mini.SOLDIER, Mini.SOLDIER_VET)
        return v
    if act == Act.REMOVE:
        return w[F.WORKER] - w[F.CITY] * w[K.REMOVE_CITY]
    if act == Act.MILICIANO:
        v = w[F.WORKER] + w[F.MILITARY] - (w[F.PRECIOUS] if a == 1 else 0.0)
        if a == 1:
            return v + xw_defender_value(r, 0.0, st, r, w, seat, Mini.MILICIANO, Mini.MILICIANO_VET)
        return v + xw_defender_value(r, 0.0, st, r, w, seat, Mini.NONE, Mini.MILICIANO)
    if act == Act.SHIP:
        p = r.ship_put[a]
        q = r.ship_pay[a]
        v = -_res_value(w, p[0], p[1], p[2], 0) - w[F.COIN] * (r.k[RK.BRONZE_PER_SILVER] * p[3] + p[4])
        v += w[F.COIN] * (r.k[RK.BRONZE_PER_SILVER] * q[0] + q[1]) + w[F.METAL] * q[2] + w[F.FAITH] * q[3]
        return v + w[F.WORKER] * (r.k[RK.SHIP_WORKERS_HARBOR] if st.g[G.HARBOR_BUILT] else r.k[RK.SHIP_WORKERS])
    if act == Act.CARD_DRAW:
        return w[F.CARD] + w[F.WORKER] * r.k[RK.TAKE_CARD_WORKERS]
    if act == Act.CARD_PILE:  # the pile's top card is face up: its colour counts (looked up only when series count)
        v = w[F.CARD] + w[F.WORKER] * r.k[RK.TAKE_CARD_WORKERS]
        return v + _series_change(st, r, w, seat, top_of(st, pile_loc(a)), 1) if w[K.SERIES] != 0.0 else v
    if act == Act.CARD_BUY:
        return (w[K.CARD_BUY] * w[F.CARD] + w[F.WORKER] * r.k[RK.TAKE_CARD_WORKERS] - w[F.COIN] * r.k[RK.BUY_CARD_BRONZE]
                + _series_change(st, r, w, seat, a, 1))
    if act == Act.REACTIVATE:
        return w[F.WORKER] * a + w[K.REACTIVATE] * w[F.CARD] * a
    if act == Act.ORDER:
        return (w[F.WORKER] + w[F.ORDER]) * a
    if act == Act.COUNCIL:
        gain = min(r.council_gain[a - 1], r.k[RK.COUNCIL_MAX] - st.pl[seat, PF.COUNCIL])
        return w[F.WORKER] * a + w[F.COUNCIL] * gain
    if act == Act.STATUS:
        return w[F.WORKER] * r.st_workers[b - 1] - w[F.COIN] * r.k[RK.BRONZE_PER_SILVER] * r.st_silver[b - 1] + w[F.STATUS] * b
    if act == Act.MAJOR:
        # the first-worker VP of an empty grid and the VP of the b best free spaces, best first
        v, nf = _grid_take(st, r, a, b, w[F.WORKER] * b, w[F.VP])
        if b >= nf:
            v += w[F.BANNER]
        return v
    if act == Act.F_BURN:
        return -w[F.CARD] + _series_change(st, r, w, seat, a, -1)
    if act == Act.F_WAREHOUSE:
        return w[F.VP] * r.k[RK.WAREHOUSE_VP] + (w[F.WOOD] if a == 0 else w[F.STONE])
    if act == Act.F_RECOVER:
        return -w[F.VP] * r.k[RK.RECOVER_VP_FACTOR] * r.major_first_vp[a] - w[F.WORKER] * w[K.RECOVER_WORKERS]
    if act == Act.F_REMOVE_LOT:
        return -w[F.CITY]
    if act == Act.F_CC_WORKER:
        lvl = st.pl[seat, PF.ST_WORKER]
        v = -w[F.WORKER] * r.worker_cc[lvl - 1]
        if a == 0:
            v -= w[F.COIN] * r.worker_bronze[lvl - 1]
        elif a == 1:
            v -= w[F.WOOD]
        elif a == 2:
            v -= w[F.STONE]
        return v
    if act == Act.F_FREE_REACT:
        return w[K.REACTIVATE] * w[F.CARD]
    if act == Act.F_CARD:
        return _card_value(st, r, w, seat, a, b, st.opts[i, 3])
    return 0.0


@njit(cache=True)
def _card_value(st, r, w, seat, c, a, b):
    """Greedy value of using Affiliate card c now with targets (a, b) (sim.affiliates); the card
    itself is spent (rotated) until reactivated."""
    p = r.aff_p[c]
    rate = r.k[RK.BRONZE_PER_SILVER]
    spent = -w[K.CARD_SPENT] * w[F.CARD]
    num = c + 1
    if r.aff_grid[c] >= -1:  # City Council workers onto a Major Building grid (cards naming a grid)
        free = 0
        mine = 0
        for j in range(r.major_spaces[a, st.g[G.NPLAYERS] - 2]):
            free += 1 if st.major[a, j] == -1 else 0
            mine += 1 if st.major[a, j] == seat else 0
        v = w[K.GRID_CARD_VP] * b * w[F.VP] + (w[F.VP] * w[K.GRID_CARD_CLOSE] if b >= free and mine > 0 else 0.0)
        return spent + v - _res_value(w, p[AP.PAY_WOOD], p[AP.PAY_STONE], p[AP.PAY_PRECIOUS], 0)
    if num == 31:
        return spent + w[F.CITY] * w[K.C31_CITY]
    if num == 62:
        return spent + w[F.VP] * p[AP.VP] + w[K.C62_HEAL] * w[F.MILITARY]
    if num == 76:
        return spent + w[F.COIN] * p[AP.BRONZE] - w[K.C76_TENSION]
    if num == 83:
        return spent + w[K.C83_GRIDS]
    if num == 53:
        return spent + w[F.BANNER] * w[K.C53_BANNER] - w[F.COIN] * p[AP.PAY_SILVER] * rate
    if num == 60 or num == 64:
        return spent + w[K.REACTIVATE] * w[F.CARD]
    if num == 77:
        return spent + w[F.VP] * w[K.PENALTY_STEP] - w[F.COIN] * p[AP.PAY_SILVER] * rate
    if num == 28:
        return spent + w[F.WOOD] * a + w[F.STONE] * b - w[F.VP] * p[AP.VP_PENALTY_PER_RESOURCE] * (a + b) - w[K.C28_USE]
    if num == 45:  # a: City Council workers lent, b: wood/stone/precious waived in the next main action
        return spent - w[F.WORKER] * a * w[K.CARD_WORKER] + w[K.C45_WAIVE] * b * w[F.STONE] - w[F.METAL] * p[AP.PAY_METAL]
    if num == 51:  # one more main action now, a City Council worker in it
        return spent - w[F.WORKER] * w[K.CARD_WORKER]
    if num == 48:  # the 4 Warehouse resources turned into metal, taken as half wood, half stone (0.5: their mean, not a worth)
        return spent + w[F.METAL] * p[AP.METAL] - (w[F.WOOD] + w[F.STONE]) * p[AP.WAREHOUSE_RESOURCES] * 0.5
    if p[AP.WORKER_DISCOUNT] > 0:  # a worker saved on this turn's action (13, 19, 25, 58, 65, 84)
        return spent - w[F.WORKER] * p[AP.WORKER_DISCOUNT] * w[K.CARD_WORKER]
    return spent + w[K.CARD_MODIFIER]  # other modifiers of this turn (18, 24, 29, 30, 52, 66)


@njit(cache=True)
def _turn_values(st, r, seat, n):
    """:func:`strategies.policy.option_values` of a TURN decision, into ``st.vals[:n]``: each row's
    :func:`_turn_base` value plus the Character weight times its
    :func:`strategies.policy_character._character_progress`; what rows share is computed once (the
    value of calling a vote), or kept in the seat's memo while its inputs stay the same (the district
    table and the BUILD values by type and district, :func:`strategies.policy_build._build_value`,
    :func:`strategies.policy_build.memo_refresh`)."""
    w = st.w[seat]
    builds = False
    for i in range(n):
        if st.opts[i, 0] == Act.BUILD:
            builds = True
            break
    cache = st.bval[seat]
    if builds:
        memo_refresh(st, r, seat)  # the seat's BUILD values and district table, kept while still valid
    call = np.nan
    greedy = int(w[F.FAMILY]) == FAMILY_GREEDY
    wc = w[F.CHARACTER]
    ch = st.pl[seat, PF.CHARACTER]
    acts = _progress_acts(ch)  # the rows whose Character term can be non-zero
    per_space = _per_space(st, seat)
    vals = st.vals
    opts = st.opts
    for i in range(n):
        act = opts[i, 0]
        if act == Act.BUILD:
            # the cached value when the row's (Status marker, type, district) has one
            v = cache[opts[i, 3] & 1, opts[i, 1], r.cell_district[opts[i, 2]] + 1]
            if v != v:
                v = _build_value(st, r, w, seat, i, cache, per_space)  # the Character term included
            elif per_space:
                v = v + wc * _character_progress(st, r, seat, i)
        else:
            if act == Act.F_VOTE:
                if greedy:  # a coin-flip share of the vote's VP for one council point
                    v = w[F.VP] * r.k[RK.VOTE_VP_PER_ERA] * st.g[G.ERA] * w[P.GREEDY_VOTE_CHANCE] - w[F.COUNCIL]
                else:
                    if call != call:
                        call = _call_value(st, r, w, seat)  # once per decision
                    v = call
                if opts[i, 1] == Law.PEACE:
                    v -= w[F.COIN] * r.k[RK.BRONZE_PER_SILVER] * r.k[RK.PEACE_ACT_SILVER]
            else:
                v = _turn_base(st, r, seat, i)
            if wc != 0.0 and (acts >> act) & 1:
                v = v + wc * _character_progress(st, r, seat, i)
        vals[i] = v


@njit(cache=True)
def turn_value_basis(st, r, seat, n, out):
    """The heuristic's TURN values of ``st.opts[:n]`` split by feature weight (B. ACTION PHASE, the rows
    :func:`_turn_values` values): ``out[0, i]`` row i's value with every feature weight (F.VP..F.CHARACTER)
    at 0, which the valuation coefficients (K) still give, and ``out[f, i]`` what weight ``f`` = 1 adds to
    it. For the rows whose value is linear in the feature weights (all but a Council vote's call, a
    maximum over the votes) the seat's own value is ``out[0] + w[1:N_FEATURES] @ out[1:]``: what a
    fit of the simulated players' weights to a searching seat's choices needs (strategies.search, the
    labels). The seat's weights are restored; its policy memo, keyed by them (:func:`strategies.policy_build.memo_refresh`),
    is refilled at its next use, so no game changes."""
    w = st.w[seat]
    saved = w[1:N_FEATURES].copy()
    for f in range(N_FEATURES):
        w[1:N_FEATURES] = 0.0
        if f > 0:
            w[f] = 1.0
        _turn_values(st, r, seat, n)
        for i in range(n):
            out[f, i] = st.vals[i]
    w[1:N_FEATURES] = saved
    for f in range(1, N_FEATURES):
        for i in range(n):
            out[f, i] -= out[0, i]
