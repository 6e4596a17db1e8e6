"""Terms the policy's valuation (strategies.policy) shares across its kinds of decision: resources at
the seat's weights, the card series VP a card taken into the hand or given up changes, and the VP that
workers put on a Major building grid take (11. MAJOR BUILDING; the Solo A.I.'s ties value its workers so
too, strategies.ai_tie). Like the rest of the policy it reads the engine below the seam only.
"""

import numpy as np
from numba import njit

from sim.series import card_group, n_colours, scorings_ahead, series_base, series_counts
from sim.state import N_GROUPS, PF, G
from strategies.weights import F, K


@njit(cache=True)
def _res_value(w, a, b, c, d):
    return w[F.WOOD] * a + w[F.STONE] * b + w[F.PRECIOUS] * c + w[F.METAL] * d


@njit(cache=True)
def _series_change(st, r, w, seat, card, sign):
    """The card series VP (SCORING PHASE, VPS ASSIGNATION: Cards series, and Card status III's VP
    per colour) at every Scoring still to come, times their Era, that the seat gains by taking
    ``card`` into its hand (``sign`` 1) or loses by giving it up (-1: discarded for a salary, burnt),
    its hand otherwise as it is now; in VP (x ``K.SERIES``). 0 when the strategy does not count
    series (``K.SERIES`` 0) or there is no card."""
    if w[K.SERIES] == 0.0 or card < 0:
        return 0.0
    n = st.g[G.NPLAYERS]
    _, eras = scorings_ahead(r, st.g[G.DECADE] - 1, st.g[G.LAST_DECADE])  # this decade's Scoring still to come
    if eras == 0:
        return 0.0
    counts = np.zeros(N_GROUPS, np.int32)
    series_counts(st, seat, counts)
    cab = st.g[G.CABILDO_BUILT] == 1
    # counted in half VP: Card status III's VP per colour is kept so in the rules (1.5 VP in 4-5 players)
    half = r.card_l3_half[n - 2] if st.pl[seat, PF.ST_CARDS] >= 3 else 0
    before = 2 * series_base(r, counts, cab) + half * n_colours(counts)
    g = card_group(card)
    counts[g] = max(0, counts[g] + sign)
    after = 2 * series_base(r, counts, cab) + half * n_colours(counts)
    return w[K.SERIES] * w[F.VP] * (after - before) * eras / 2


@njit(cache=True)
def _grid_take(st, r, m, n, v, wv):
    """``n`` workers put on Major building grid ``m`` (11. MAJOR BUILDING): ``v`` plus ``wv`` times the VP
    they take, the first-worker VP of an empty grid and the VP printed on the grid's ``n`` best free spaces
    (a player's own workers take the highest-VP spaces, sim.major_buildings.place_on_grid), added best
    first; and how many of its spaces are free."""
    spaces = r.major_spaces[m, st.g[G.NPLAYERS] - 2]
    free = 0
    for j in range(spaces):
        if st.major[m, j] == -1:
            free += 1
    if free == spaces and n > 0:
        v += wv * r.major_first_vp[m]
    left = min(n, free)
    for q in range(r.major_vp_order.shape[1]):
        if left == 0:
            break
        j = r.major_vp_order[m, q]
        if j < spaces and st.major[m, j] == -1:
            v += wv * r.major_space_vp[m, j]
            left -= 1
    return v, free
