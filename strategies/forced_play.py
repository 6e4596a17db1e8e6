"""Restricted-play probes (``trinidad probe``): a seat plays by its own strategy, except that at the
start of its first turn (per game) in which a given option is legal it takes that option as its
main action. The option rides in the seat's weight row (strategies.policy ``P.PROBE_ACT``, ``P.PROBE_ARG``:
a TURN row's Act and, optionally, its column a, e.g. BUILD of one building type), so any family's
seat can be probed: :mod:`strategies.match` hands a probed seat's turns here first, whatever plays
them otherwise. Among the forced rows the seat's own policy picks (``sim.core.decide`` over them
alone: which space, which load). Until the option is legal nothing differs: listing a turn's rows
changes no game state and draws no random number, so a probe whose option never becomes legal
plays the very same game.

A plan probe (``P.PROBE_PLAN``) forces a chain of options instead of one: the City plan, the
rulebook's upgrade sequence to a Palace (1-2 table; FAQ "Lot/Lote > House/Casa > Palace/Palacio")
with the metal a Palace costs (RESOURCES & COINS: metal comes only from the Ship or the
Market/Corporation). At the start of each of its turns until it owns a Palace, the seat takes the
first of these steps that is legal now, in this order: BUILD PALACE; a metal row (a Ship load that
pays metal, or an activation that gives it) while it owns a Lot or House and holds no metal nor has
any coming on the Dock; BUILD HOUSE while it owns no House; BUILD LOT while it owns neither; once
it owns one, an activation that gives wood, stone or precious its next purchase (House, metal load,
Palace) lacks, paid with nothing it lacks; and when none is, the turn is its own. Its record's ``probe_decade`` is the decade of its first Palace.

A forbid probe (``P.PROBE_ACT`` below 0, or ``P.PROBE_PLAN`` FORBID_CITY / FORBID_PRODUCTION) is the opposite:
the seat plays by its own strategy but never takes the option while another main action is legal. It is not
played here: the rows are taken out of the seat's listing itself (strategies.policy.drop_forbidden, through
sim.actions.turn_options), so whatever the seat's family, its own choices, plans and simulations never hold them.
"""

import numpy as np
from numba import njit

from sim.actions import end_turn, finish_turn, turn_options, turn_step
from sim.codes import Act, Dec
from sim.core import decide
from sim.rules import COST_RES, OUT_METAL, OUT_RES, PAY_METAL, RK
from sim.state import PF, B, G
from strategies.policy import P


@njit(cache=True)
def probe_pending(st, seat):
    """The seat carries a probe whose option it has not taken yet."""
    return (st.w[seat, P.PROBE_ACT] > 0 or st.w[seat, P.PROBE_PLAN] > 0) and st.pl[seat, PF.PROBE_DECADE] == 0


@njit(cache=True)
def _metal_due(st, r, seat):
    """Metal the seat's loads on the Dock pay when the Ship sails (5. LOAD THE SHIP)."""
    due = 0
    for ld in (st.pl[seat, PF.SHIP_LOAD], st.pl[seat, PF.SHIP_LOAD2]):
        if ld >= 0:
            due += r.ship_pay[ld, PAY_METAL]
    return due


@njit(cache=True)
def _metal_load(r):
    """The first Ship load row that pays metal (5. LOAD THE SHIP: the triplet), -1 none."""
    for ld in range(r.ship_pay.shape[0]):
        if r.ship_pay[ld, PAY_METAL] > 0:
            return ld
    return -1


@njit(cache=True)
def _short(st, r, seat, houses, metal):
    """Wood, stone, precious (by Res) the seat lacks for the plan's next purchase: its House, else
    the metal load, else its Palace."""
    need = np.zeros(3, np.int32)
    ld = _metal_load(r)
    for res in range(3):
        if houses == 0:
            need[res] = r.b_cost[B.HOUSE, COST_RES + res]
        elif metal == 0 and ld >= 0:
            need[res] = r.ship_put[ld, res]
        else:
            need[res] = r.b_cost[B.PALACE, COST_RES + res]
    held = (st.pl[seat, PF.WOOD], st.pl[seat, PF.STONE], st.pl[seat, PF.PRECIOUS])
    for res in range(3):
        need[res] = max(0, need[res] - held[res])
    return need


@njit(cache=True)
def _city_step(st, r, seat, k):
    """The City plan's step among ``st.opts[:k]`` (module doc): keeps that step's rows at the front
    of ``st.opts`` and returns how many (0: no step is legal now)."""
    lots = r.k[RK.LOTS] - st.pl[seat, PF.LOTS]  # on the map: the rest are in the player's supply
    houses = r.k[RK.HOUSES] - st.pl[seat, PF.HOUSES]
    metal = st.pl[seat, PF.METAL] + _metal_due(st, r, seat)
    started = lots + houses > 0
    short = _short(st, r, seat, houses, metal)
    for step in range(5):
        m = 0
        for i in range(k):
            act, a = st.opts[i, 0], st.opts[i, 1]
            if step == 0:
                ok = act == Act.BUILD and a == B.PALACE
            elif step == 1:
                ok = started and metal == 0 and ((act == Act.SHIP and r.ship_pay[a, PAY_METAL] > 0)
                                                 or (act == Act.ACTIVATE and r.act_out[a, OUT_METAL] > 0))
            elif step == 2:
                ok = houses == 0 and act == Act.BUILD and a == B.HOUSE
            elif step == 3:
                ok = not started and act == Act.BUILD and a == B.LOT
            else:  # gather what the next purchase lacks: an activation that gives it, paid with nothing short
                ok = False
                if started and act == Act.ACTIVATE:
                    for res in range(3):
                        gives = r.act_out[a, OUT_RES[res][0]] + r.act_out[a, OUT_RES[res][1]]
                        ok = ok or (short[res] > 0 and gives > 0)
                    for res in range(3):
                        ok = ok and not (short[res] > 0 and r.act_in[a, res] > 0)
            if ok:
                st.opts[m] = st.opts[i]
                m += 1
        if m > 0:
            return m
    return 0


@njit(cache=True)
def play_turn_probed(st, r, seat):
    """The seat's turn when its probe's option is legal now: that option (the seat's policy picks
    among its rows), then the rest of the turn as usual (card 51's extra main action), and True.
    False, with nothing changed but work areas, when the option is not legal."""
    act = int(st.w[seat, P.PROBE_ACT])
    arg = int(st.w[seat, P.PROBE_ARG]) - 1
    plan = st.w[seat, P.PROBE_PLAN] > 0
    st.g[G.TURN_SEAT] = seat  # as sim.actions.play_turn lists the turn
    k = turn_options(st, r, seat)
    m = 0
    if plan:
        m = _city_step(st, r, seat, k)
    else:
        for i in range(k):
            if st.opts[i, 0] == act and (arg < 0 or st.opts[i, 1] == arg):
                st.opts[m] = st.opts[i]
                m += 1
    if m == 0:
        st.g[G.TURN_SEAT] = -1
        return False
    if not plan or (st.opts[0, 0] == Act.BUILD and st.opts[0, 1] == B.PALACE):
        st.pl[seat, PF.PROBE_DECADE] = st.g[G.DECADE]  # the probe is done: its option (the plan's Palace) taken
    i = decide(st, r, seat, Dec.TURN, m)
    if turn_step(st, r, seat, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3]):
        finish_turn(st, r, seat)
    else:
        end_turn(st, seat)
    return True
