"""The learned state evaluation of the search family (strategies.search): each seat's final VP
predicted from a position at the end of a decade (C. END OF THE DECADE done), by a linear model
over named features (:class:`VF`), one weight vector per Era still to come (:data:`N_STAGES`).

The features are what a player counts at the table: the VP already scored, and the VP "in hand"
that the Scorings still to come will pay if nothing changes (SCORING PHASE: the City's Houses and
Palaces once per Scoring, the Character card, card series, money, military, banners and faith
majorities times the Era), the End of the game variations (City Council track, War penalty), and
what the seat holds that will be turned into VP later (resources, metal for a Palace, coins,
workers, cards, Lots that can become Houses). Their weights are fitted by self-play
(``trinidad train``, trinidad.train) and shipped in a value file (strategies/values/*.toml) with
their provenance; :data:`PRIOR` is generation 0: the table-top count with every "in hand" VP at
face value.

The model lives in the search block of a W row (:func:`value_offset`), so a value sweep does not
recompile: ``W[sid, value_offset(stage) + f]``.
"""

from enum import IntEnum

import numpy as np
from numba import njit

from sim.banners import face_up_banners
from sim.city import count_owned
from sim.economy import coin_value
from sim.rules import RK
from sim.scoring import (
    character_base,
    city_total,
    end_game_vp,
    majority_split,
    military_winners,
    n_colours,
    series_base,
    series_counts,
)
from sim.state import N_CARDS, N_CHARACTERS, N_GROUPS, N_WEIGHTS, PF, B, G, Loc
from strategies.policy import F

N_STAGES = 3  # one model per Era whose decades are still to come (the rulebook's game has 3 Eras; later ones share the last)


class VF(IntEnum):
    """Value features of one seat (:func:`value_features`); the model's input, in this order."""

    BIAS = 0
    VP = 1  # VP scored so far
    CITY_AHEAD = 2  # City VP if scored now, times the Scorings to come
    CHARACTER_AHEAD = 3  # the Character card's base VP now, times the Eras of the Scorings to come
    SERIES_AHEAD = 4  # card series (and Card status III) VP now, times the Eras to come
    MONEY_AHEAD = 5  # the richest-player VP the seat would take now (its share of a tie), times the Eras to come
    MILITARY_AHEAD = 6
    FAITH_AHEAD = 7
    BANNERS_AHEAD = 8
    COUNCIL_END = 9  # City Council VP the track pays at the end of the game as it stands
    WAR_END = 10  # War penalty VP at the end of the game as it stands
    WOOD = 11
    STONE = 12
    PRECIOUS = 13
    METAL = 14
    COINS = 15  # in bronze units
    FAITH = 16  # Faith tokens
    WORKERS = 17  # own workers
    CARDS = 18  # Affiliate cards held and not yet used
    MILITARY_AV = 19  # AV of the seat's war miniatures
    STATUS = 20  # Status levels, all four categories
    LOTS = 21  # Lots on the map
    HOUSES = 22  # Houses on the map
    PALACES = 23  # Palaces on the map
    LOTS_AHEAD = 24  # Lots on the map times the Scorings to come: Houses to be
    METAL_AHEAD = 25  # metal times the Scorings to come: a Palace to be
    SCORINGS_LEFT = 26
    MAJOR_PENDING = 27  # VP of the spaces the seat's workers hold on Major Building grids not yet scored (11. MAJOR BUILDING)


N_VF = len(VF)
VF_NAMES = [f.name.lower() for f in VF]
N_VALUE = N_STAGES * N_VF
SEARCH_PARAMS = 8  # search parameter slots before the value model in the search block (strategies.search.SB)
SEARCH_BLOCK = SEARCH_PARAMS + N_VALUE  # a W row's last block: the search parameters, then the model
SEARCH_OFFSET = N_WEIGHTS * (1 + N_CHARACTERS)  # where the search block starts in a W row

# Generation 0 (no learning): the VP scored plus every VP "in hand" at face value, ...
PRIOR = {VF.VP: 1.0, VF.CITY_AHEAD: 1.0, VF.CHARACTER_AHEAD: 1.0, VF.SERIES_AHEAD: 1.0, VF.MONEY_AHEAD: 1.0,
         VF.MILITARY_AHEAD: 1.0, VF.FAITH_AHEAD: 1.0, VF.BANNERS_AHEAD: 1.0, VF.COUNCIL_END: 1.0, VF.WAR_END: 1.0,
         VF.MAJOR_PENDING: 1.0}
# ... and what the seat holds at the base strategy's own VP value per unit (strategies.policy F)
PRIOR_FROM_WEIGHTS = {VF.WOOD: F.WOOD, VF.STONE: F.STONE, VF.PRECIOUS: F.PRECIOUS, VF.METAL: F.METAL, VF.COINS: F.COIN,
                      VF.CARDS: F.CARD, VF.MILITARY_AV: F.MILITARY, VF.STATUS: F.STATUS}


# Monotone features: one more of a holding, or one more VP in hand, is never worth fewer VP, so a fitted
# weight is bounded below by 0 (trinidad.train.fit). Free disposal makes it exact for Lots (REMOVE A
# LOT is a free action) and Affiliate cards (burned as a free action); resources, coins, metal, faith,
# workers and Status levels only add options; each "ahead" feature is VP the rules will pay. Without
# the bound a ridge fit on self-play where a holding is rare can give it a negative weight (it did:
# Lots at -5 VP in Era 3), and the search then throws the holding away for nothing.
UNBOUNDED = (VF.BIAS, VF.SCORINGS_LEFT)  # the intercept and the clock: either sign
# Exploration (trinidad.train --explore): the standard deviation, in VP per unit, of the noise added to
# each holding's weight in an explorer seat's model, about one unit's VP at the table (a House's few VP
# a Scoring, a Palace's 10 + district value, a metal cube's share of a Palace). Self-play in which every
# seat values a holding alike never varies it (no seat held metal or built a Palace), so the fit cannot
# learn what it is worth; explorers play it more or less often and the outcomes say.
EXPLORE_SCALE = {VF.WOOD: 1.0, VF.STONE: 1.0, VF.PRECIOUS: 3.0, VF.METAL: 6.0, VF.COINS: 0.5, VF.FAITH: 2.0,
                 VF.CARDS: 1.0, VF.MILITARY_AV: 1.0, VF.STATUS: 2.0, VF.LOTS: 2.0, VF.HOUSES: 4.0,
                 VF.PALACES: 10.0, VF.METAL_AHEAD: 2.0, VF.LOTS_AHEAD: 1.0}


def lower_bounds() -> np.ndarray:
    """``float64[N_VF]``: each feature's least weight (0 for the monotone ones, -inf for
    :data:`UNBOUNDED`)."""
    lo = np.zeros(N_VF, np.float64)
    for f in UNBOUNDED:
        lo[f] = -np.inf
    return lo


def explorer_model(model: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """``model`` with every :data:`EXPLORE_SCALE` weight moved by ``sigma`` x its scale x N(0, 1)
    (one draw per feature, the same for every Era: an explorer has one taste), kept within
    :func:`lower_bounds`."""
    out = np.asarray(model, np.float64).copy()
    lo = lower_bounds()
    for f, scale in EXPLORE_SCALE.items():
        out[:, f] = np.maximum(out[:, f] + sigma * scale * rng.standard_normal(), lo[f])
    return out


def prior_model(weights=None) -> np.ndarray:
    """The generation-0 model, ``float64[N_STAGES, N_VF]``: :data:`PRIOR`, and the holdings valued by
    ``weights`` (a base strategy's W block, strategies.policy) when given. ``trinidad train`` fits
    what the games add to it (trinidad.train.fit): a feature the games never vary keeps this value."""
    m = np.zeros((N_STAGES, N_VF), np.float64)
    for f, v in PRIOR.items():
        m[:, f] = v
    if weights is not None:
        for f, w in PRIOR_FROM_WEIGHTS.items():
            m[:, f] = weights[w]
    return m


@njit(cache=True)
def scorings_ahead(r, d, last):
    """(Scorings still to come, sum of their Eras) after decade ``d`` is over (C.7: a Scoring at the
    end of each Era and of the last decade)."""
    dpe = r.k[RK.DECADES_PER_ERA]
    n = 0
    m = 0
    for x in range(d + 1, last + 1):
        if x % dpe == 0 or x == last:
            n += 1
            m += (x - 1) // dpe + 1
    return n, m


@njit(cache=True)
def stage_of(r, d):
    """The model used after decade ``d``: the Era of the next decade (0-based), the last model for
    any later Era."""
    return min((d // r.k[RK.DECADES_PER_ERA]), N_STAGES - 1)


@njit(cache=True)
def value_features(st, r, d, out, scratch):
    """The features of every seat, ``out[seat, f]``, as the state stands with decade ``d`` the last
    one over (the end of a decade; inside a decade, the one before it: its Scoring is still to
    come). ``scratch``: int32[N_GROUPS + 8] work space. Reads what is face up and each seat's own
    holdings; a hand counts as a number of cards."""
    n = st.g[G.NPLAYERS]
    last = st.g[G.LAST_DECADE]
    left, eras = scorings_ahead(r, d, last)
    counts = scratch[:N_GROUPS]
    win = scratch[N_GROUPS:N_GROUPS + 5]
    vals = np.zeros(n, np.int32)
    needs = r.k[RK.MAJORITY_NEEDS_ONE] == 1
    cab = st.g[G.CABILDO_BUILT] == 1
    for s in range(n):
        out[s, :] = 0.0
    coins = np.zeros(n, np.int32)
    for s in range(n):
        coins[s] = coin_value(st, r, s)
    k = majority_split(coins, n, needs, win)
    for s in range(n):
        if win[s] == 1:
            out[s, VF.MONEY_AHEAD] = r.k[RK.MONEY_VP] * eras / k
    k = military_winners(st, r, n, win)
    for s in range(n):
        if win[s] == 1:
            out[s, VF.MILITARY_AHEAD] = r.k[RK.MILITARY_VP] * eras / k
    for s in range(n):
        vals[s] = st.pl[s, PF.FAITH]
    k = majority_split(vals, n, needs, win)
    for s in range(n):
        if win[s] == 1:
            out[s, VF.FAITH_AHEAD] = r.k[RK.FAITH_VP] * eras / k
    for s in range(n):
        o = out[s]
        o[VF.BIAS] = 1.0
        o[VF.VP] = st.pl[s, PF.VP]
        o[VF.CITY_AHEAD] = city_total(st, r, s) * left
        o[VF.CHARACTER_AHEAD] = character_base(st, r, s, n) * eras
        series_counts(st, s, counts)
        ser = series_base(r, counts, cab)
        if st.pl[s, PF.ST_CARDS] >= 3:
            ser += n_colours(counts) * r.card_l3_half[n - 2] / 2.0
        o[VF.SERIES_AHEAD] = ser * eras
        o[VF.BANNERS_AHEAD] = r.banner_vp[face_up_banners(st, s)] * eras
        cv, wv = end_game_vp(st, r, s)
        o[VF.COUNCIL_END] = cv
        o[VF.WAR_END] = wv
        o[VF.WOOD] = st.pl[s, PF.WOOD]
        o[VF.STONE] = st.pl[s, PF.STONE]
        o[VF.PRECIOUS] = st.pl[s, PF.PRECIOUS]
        o[VF.METAL] = st.pl[s, PF.METAL]
        o[VF.COINS] = coins[s]
        o[VF.FAITH] = st.pl[s, PF.FAITH]
        o[VF.WORKERS] = st.pl[s, PF.WORKERS] + st.pl[s, PF.WORKERS_PLACED]
        o[VF.STATUS] = st.pl[s, PF.ST_CONSTRUCTION] + st.pl[s, PF.ST_WORKER] + st.pl[s, PF.ST_VP] + st.pl[s, PF.ST_CARDS]
        lots = count_owned(st, s, B.LOT)
        o[VF.LOTS] = lots
        o[VF.HOUSES] = count_owned(st, s, B.HOUSE)
        o[VF.PALACES] = count_owned(st, s, B.PALACE)
        o[VF.LOTS_AHEAD] = lots * left
        o[VF.METAL_AHEAD] = st.pl[s, PF.METAL] * left
        o[VF.SCORINGS_LEFT] = left
        av = 0
        for j in range(st.minis.shape[1]):
            kind = st.minis[s, j, 0]
            if kind > 0:
                av += r.war_av[kind]
        o[VF.MILITARY_AV] = av
        pend = 0
        for m in range(st.major.shape[0]):  # a grid is cleared when its spaces score (C.6 Recover Workers)
            for i in range(st.major.shape[1]):
                if st.major[m, i] == s:
                    pend += r.major_space_vp[m, i]
        o[VF.MAJOR_PENDING] = pend
    hand0 = Loc.HAND
    for c in range(N_CHARACTERS, N_CARDS):
        loc = st.card_loc[c]
        if loc >= hand0 and loc < hand0 + n and st.card_rot[c] == 0:
            out[loc - hand0, VF.CARDS] += 1.0


@njit(cache=True)
def value_offset(stage):
    """Where stage ``stage``'s model starts in a W row: after the strategy's Character blocks and
    the search parameters (strategies.search.SB)."""
    return SEARCH_OFFSET + SEARCH_PARAMS + stage * N_VF


@njit(cache=True)
def predict(W, sid, stage, feats):
    """The model of strategy ``sid`` applied to one seat's features."""
    o = value_offset(stage)
    v = 0.0
    for f in range(feats.shape[0]):
        v += W[sid, o + f] * feats[f]
    return v


@njit(cache=True)
def margins(st, r, W, sid, d, feats, scratch, out):
    """Each seat's predicted final VP minus the best rival's predicted final VP (``out[seat]``), by
    strategy ``sid``'s model, decade ``d`` the last one over (:func:`value_features`); after the
    last decade the real VP margins."""
    n = st.g[G.NPLAYERS]
    if d >= st.g[G.LAST_DECADE]:
        for s in range(n):
            out[s] = st.pl[s, PF.VP]
    else:
        value_features(st, r, d, feats, scratch)
        stage = stage_of(r, d)
        for s in range(n):
            out[s] = predict(W, sid, stage, feats[s])
    # each seat's margin over the best other seat
    b1 = -1e18
    b2 = -1e18
    for s in range(n):
        v = out[s]
        if v > b1:
            b2 = b1
            b1 = v
        elif v > b2:
            b2 = v
    for s in range(n):
        out[s] = out[s] - (b2 if out[s] == b1 else b1)
