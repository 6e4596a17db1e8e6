"""The learned state evaluation of the search family (strategies.search): each seat's final VP
predicted from a position at the end of a decade (C. END OF THE DECADE done), by a linear model
over named features (:class:`VF`), one weight vector per Era still to come (:data:`N_STAGES`).

The features are what a player counts at the table: the VP already scored, and the VP "in hand"
that the Scorings still to come will pay if nothing changes (SCORING PHASE: the City's Houses and
Palaces once per Scoring, the Character card, card series, money, military, banners and faith
majorities times the Era), the End of the game variations (City Council track, War penalty), and
what the seat holds that will be turned into VP later (resources, metal for a Palace, coins,
workers, cards, Lots that can become Houses). Their weights are fitted by self-play
(``trinidad train``, trinidad.train.linear) and shipped in a value file (strategies/values/*.toml) with
their provenance; :data:`PRIOR` is generation 0: the table-top count with every "in hand" VP at
face value.

The model lives in the search block of a W row (:func:`value_offset`), so a value sweep does not
recompile: ``W[sid, value_offset(stage) + f]``.
"""

from enum import IntEnum

import numpy as np
from numba import njit

from sim.ai_choice import is_ai
from sim.banners import face_up_banners
from sim.city import activatable, count_owned, district_value, house_value, own_buildings_in_district, owns_marker_building
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
from sim.series import scorings_ahead
from sim.state import MAX_PLAYERS, N_CHARACTERS, N_GROUPS, PF, B, G
from strategies.policy import F
from strategies.weights import N_WEIGHTS

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
    # What the City will be worth (SCORING PHASE, City: a House scores its district's value at most)
    LOTS_HOUSE_VP = 28  # VP a Scoring would pay for the seat's Lots if each were a House now
    BEST_DISTRICT = 29  # the highest VP value of a district where the seat has a Lot, House or Palace
    DISTRICT_OWN = 30  # the seat's buildings in that district (a House there scores up to this + Faith)
    ACTIVATABLE = 31  # buildings the seat can activate: next to a building of its colour (Activation limitations)
    DECADE = 32  # the decade over (the clock inside an Era)
    IS_AI = 33  # the seat is the Solo A.I. (TWO PLAYERS GAME & SOLO MODE): it pays no resources
    # The seat's Character (CHARACTER CARDS), one feature each: what its holdings are worth depends on it
    CH_CARPENTER = 34
    CH_STONEMASON = 35
    CH_MERCHANT = 36
    CH_DEFENDER = 37
    CH_ROADMAKER = 38
    CH_SAILMAKER = 39
    CH_GENERAL = 40
    CH_CAPTAIN = 41
    CH_BISHOP = 42
    CH_ARCHITECT = 43
    CH_GOVERNOR = 44
    CH_NOBLEWOMAN = 45


N_VF = len(VF)
# The Character features (VF.CH_CARPENTER ...: 1 for the seat's own Character), one per Character: a constant of
# the seat's game, which strategies.registry.character_blind zeroes and trinidad.train.on_play never tunes.
CHARACTER_FEATURES = tuple(VF(int(VF.CH_CARPENTER) + c) for c in range(N_CHARACTERS))
assert all(f.name.startswith("CH_") for f in CHARACTER_FEATURES) and VF.CH_NOBLEWOMAN == CHARACTER_FEATURES[-1]
VF_NAMES = [f.name.lower() for f in VF]
N_VALUE = N_STAGES * N_VF
SEARCH_PARAMS = 8  # search parameter slots before the value model in the search block (strategies.search.SB)
MODEL_SLOT = 4  # search parameter: the evaluation used, MODEL_LINEAR or MODEL_NETWORK (strategies.search.SB.MODEL)
SCALE_SLOT = 5  # search parameter: the network's VP scale (strategies.search.SB.SCALE; :func:`soft_margin`)
MODEL_LINEAR = 0
MODEL_NETWORK = 1
# the network on the candidates (``[search] network_at = "candidates"``): the leaves and the 1-ply ranking by the
# linear model, the network ordering the candidates the 1-ply ranking chose (strategies.search._prior_order)
MODEL_PRIOR = 2

# The network evaluation (MODEL_NETWORK): one hidden layer of NET_HIDDEN rectified units over the deciding
# seat's view (:func:`net_inputs`: its own features, each feature's best value among its rivals, the
# number of players, and its margin by the linear model of the same W row), one output: the seat's
# soft final margin (:func:`soft_margin`). Trained by
# ``trinidad train --network`` (trinidad.train.network), shipped in strategies/values/*.npz.
NET_HIDDEN = 64
NET_IN = 2 * N_VF + MAX_PLAYERS - 1 + 1
NET_LINEAR = NET_IN - 1  # the last input: the seat's margin by the row's linear model (the network learns what it misses)
NET_MU = 0  # the block's parts, in this order: input means, input scales (the standardisation) ...
NET_SD = NET_MU + NET_IN
NET_W1 = NET_SD + NET_IN  # ... the hidden layer's weights [NET_IN, NET_HIDDEN] row by row, its biases ...
NET_B1 = NET_W1 + NET_IN * NET_HIDDEN
NET_W2 = NET_B1 + NET_HIDDEN  # ... the output's weights and its bias
NET_B2 = NET_W2 + NET_HIDDEN
NET_BLOCK = NET_B2 + 1
SEARCH_BLOCK = SEARCH_PARAMS + N_VALUE + NET_BLOCK  # a W row's last block: the search parameters, the linear model, the network
SEARCH_OFFSET = N_WEIGHTS * (1 + N_CHARACTERS)  # where the search block starts in a W row

# Generation 0 (no learning): the VP scored plus every VP "in hand" at face value, ...
PRIOR = {VF.VP: 1.0, VF.CITY_AHEAD: 1.0, VF.CHARACTER_AHEAD: 1.0, VF.SERIES_AHEAD: 1.0, VF.MONEY_AHEAD: 1.0,
         VF.MILITARY_AHEAD: 1.0, VF.FAITH_AHEAD: 1.0, VF.BANNERS_AHEAD: 1.0, VF.COUNCIL_END: 1.0, VF.WAR_END: 1.0,
         VF.MAJOR_PENDING: 1.0}
# ... and what the seat holds at the base strategy's own VP value per unit (strategies.policy F)
PRIOR_FROM_WEIGHTS = {VF.WOOD: F.WOOD, VF.STONE: F.STONE, VF.PRECIOUS: F.PRECIOUS, VF.METAL: F.METAL, VF.COINS: F.COIN,
                      VF.CARDS: F.CARD, VF.MILITARY_AV: F.MILITARY, VF.STATUS: F.STATUS}


# Monotone features: one more of a holding, or one more VP in hand, is never worth fewer VP, so a fitted
# weight is bounded below by 0 (trinidad.train.linear.fit). Free disposal makes it exact for Lots (REMOVE A
# LOT is a free action) and Affiliate cards (burned as a free action); resources, coins, metal, faith,
# workers and Status levels only add options; each "ahead" feature is VP the rules will pay. Without
# the bound a ridge fit on self-play where a holding is rare can give it a negative weight (it did:
# Lots at -5 VP in Era 3), and the search then throws the holding away for nothing.
# the intercept, the clock, who the seat is (A.I., Character): either sign
UNBOUNDED = (VF.BIAS, VF.SCORINGS_LEFT, VF.DECADE, VF.IS_AI) + CHARACTER_FEATURES
# Exploration (trinidad train --explore): the standard deviation, in VP per unit, of the noise added to
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


def explorer_model(model: np.ndarray, sigma: float, rng: np.random.Generator,
                   scales: dict[int, float] | None = None) -> np.ndarray:
    """``model`` with every ``scales`` weight (default :data:`EXPLORE_SCALE`) moved by ``sigma`` x its scale
    x N(0, 1) (one draw per feature, in the dict's order, the same for every Era: an explorer has one
    taste), kept within :func:`lower_bounds`."""
    out = np.asarray(model, np.float64).copy()
    lo = lower_bounds()
    for f, scale in (EXPLORE_SCALE if scales is None else scales).items():
        out[:, f] = np.maximum(out[:, f] + sigma * scale * rng.standard_normal(), lo[f])
    return out


def prior_model(weights=None) -> np.ndarray:
    """The generation-0 model, ``float64[N_STAGES, N_VF]``: :data:`PRIOR`, and the holdings valued by
    ``weights`` (a base strategy's W block, strategies.policy) when given. ``trinidad train`` fits
    what the games add to it (trinidad.train.linear.fit): a feature the games never vary keeps this value."""
    m = np.zeros((N_STAGES, N_VF), np.float64)
    for f, v in PRIOR.items():
        m[:, f] = v
    if weights is not None:
        for f, w in PRIOR_FROM_WEIGHTS.items():
            m[:, f] = weights[w]
    return m


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
        o[VF.DECADE] = d
        o[VF.IS_AI] = 1.0 if is_ai(st, s) else 0.0
        ch = st.pl[s, PF.CHARACTER]
        if ch >= 0 and ch < N_CHARACTERS:
            o[VF.CH_CARPENTER + ch] = 1.0
    city_outlook(st, r, n, out)


@njit(cache=True)
def city_outlook(st, r, n, out):
    """The City features of every seat (:data:`VF` LOTS_HOUSE_VP .. ACTIVATABLE): what its Lots
    would score as Houses (SCORING PHASE, City: own buildings in the district + 1 per Faith token,
    capped by the district's VP value), its best district and what it holds there, and the
    buildings it can activate (2. MINOR BUILDING ACTIVATION, Activation limitations: next to a
    building of its colour). One pass over the map."""
    nd = r.district_ncells.shape[0]
    own = np.zeros((n, nd), np.int64)  # Lots, Houses, Palaces (the buildings that make a district the seat's)
    lots = np.zeros((n, nd), np.int64)
    act = np.zeros(n, np.int64)
    seen = np.zeros(n, np.int64)
    for c in range(st.cell_b.shape[0]):
        b = st.cell_b[c]
        if b == B.LOT or b == B.HOUSE or b == B.PALACE:
            s = st.cell_owner[c]
            d = r.cell_district[c]
            if s >= 0 and s < n and d >= 0:
                own[s, d] += 1
                if b == B.LOT:
                    lots[s, d] += 1
        elif activatable(b):
            seen[:] = 0
            for k in range(r.adj.shape[1]):
                a = r.adj[c, k]
                if a < 0:
                    break
                s = st.cell_owner[a]
                if s >= 0 and s < n and seen[s] == 0 and owns_marker_building(st, s, a):
                    seen[s] = 1
                    act[s] += 1
    dv = np.zeros(nd, np.int64)
    have = np.zeros(nd, np.bool_)
    for s in range(n):
        faith = st.pl[s, PF.FAITH]
        best = 0
        own_best = 0
        found = False
        lots_vp = 0
        for d in range(nd):
            if own[s, d] == 0:
                continue
            if not have[d]:
                dv[d] = district_value(st, r, d)
                have[d] = True
            if lots[s, d] > 0:
                lots_vp += lots[s, d] * house_value(st, r, s, d, faith, dv[d])
            if not found or dv[d] > best:
                found = True
                best = dv[d]
                own_best = own_buildings_in_district(st, r, s, d)
        o = out[s]
        o[VF.LOTS_HOUSE_VP] = lots_vp
        o[VF.BEST_DISTRICT] = best
        o[VF.DISTRICT_OWN] = own_best
        o[VF.ACTIVATABLE] = act[s]


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


def net_offset() -> int:
    """Where the network block starts in a W row: after the search parameters and the linear model."""
    return SEARCH_OFFSET + SEARCH_PARAMS + N_VALUE


NET_OFFSET = net_offset()


@njit(cache=True)
def best_rival(feats, n, seat, f):
    """The highest value feature ``f`` has among the seat's rivals, ``feats[s, f]`` for every other seat
    ``s`` below ``n`` (-1e300 when there is none)."""
    m = -1e300
    for s in range(n):
        if s != seat and feats[s, f] > m:
            m = feats[s, f]
    return m


@njit(cache=True)
def net_inputs(feats, n, seat, lin, x):
    """The network's input for ``seat`` (``x``: float64[NET_IN]) from every seat's value features
    ``feats[:n]``: the seat's own, then for each feature the highest value among its rivals (the
    rival who leads in it), then the number of players (one of MAX_PLAYERS - 1 slots: 2..5), then
    ``lin``, the seat's margin by the linear model. Only what the seat can see
    (:func:`value_features` counts a hand's cards, not which)."""
    nf = feats.shape[1]
    for f in range(nf):
        x[f] = feats[seat, f]
        x[nf + f] = best_rival(feats, n, seat, f) if n > 1 else 0.0
    for j in range(MAX_PLAYERS - 1):
        x[2 * nf + j] = 0.0
    x[2 * nf + n - 2] = 1.0
    x[NET_LINEAR] = lin


@njit(cache=True)
def net_forward(W, sid, x, h):
    """The network of strategy ``sid`` (its W row's network block) applied to one input ``x``;
    ``h``: float64[NET_HIDDEN] work space."""
    o = NET_OFFSET
    for j in range(NET_HIDDEN):
        h[j] = W[sid, o + NET_B1 + j]
    for i in range(NET_IN):
        net_input(W, sid, h, x[i], o + NET_MU + i, o + NET_SD + i, o + NET_W1 + i * NET_HIDDEN)
    return net_output(W, sid, h, o + NET_W2, o + NET_B2)


@njit(cache=True)
def net_input(W, sid, h, x, mu, sd, w1):
    """One input ``x`` of a network with one hidden layer of rectified units (a W row's block, strategy
    ``sid``) added to the hidden layer's sums ``h``: scaled by its mean ``W[sid, mu]`` and scale
    ``W[sid, sd]``, times its weight row ``W[sid, w1:w1 + len(h)]``; nothing when it is at its mean."""
    z = (x - W[sid, mu]) / W[sid, sd]
    if z != 0.0:
        for j in range(h.shape[0]):
            h[j] += z * W[sid, w1 + j]


@njit(cache=True)
def net_output(W, sid, h, w2, b2):
    """The output of that network from its hidden layer's sums ``h``: the bias ``W[sid, b2]`` plus each
    unit's sum, rectified, times its weight ``W[sid, w2 + j]``."""
    v = W[sid, b2]
    for j in range(h.shape[0]):
        if h[j] > 0.0:
            v += h[j] * W[sid, w2 + j]
    return v


@njit(cache=True)
def soft_margin(margin, scale):
    """The network's target at the end of the game: tanh(margin / scale), the seat's final VP minus
    the best rival's, squashed: a win by a few VP is worth more than the same few VP in a rout."""
    return np.tanh(margin / scale)


@njit(cache=True)
def margins(st, r, W, sid, d, feats, scratch, out, ply=False):
    """Each seat's predicted final VP minus the best rival's predicted final VP (``out[seat]``), by
    strategy ``sid``'s model, decade ``d`` the last one over (:func:`value_features`); after the
    last decade the real VP margins. With the network (MODEL_NETWORK) each seat's predicted soft
    margin (:func:`soft_margin`), after the last decade the real one. ``ply``: a position inside a
    decade (the search's 1-ply ranking), valued by the linear model even when the strategy has a
    network: the network learns from the ends of decades only, and a 1-ply ranking over every legal
    row seeks out whatever positions it values wrongly (measured: a network that predicted the
    held-out winner 78% of the time won 2.5% of a duel against the linear evaluation it ranked with)."""
    n = st.g[G.NPLAYERS]
    if not ply and W[sid, SEARCH_OFFSET + MODEL_SLOT] == MODEL_NETWORK:
        scale = W[sid, SEARCH_OFFSET + SCALE_SLOT]
        if d >= st.g[G.LAST_DECADE]:
            for s in range(n):
                b = -1 << 30
                for q in range(n):
                    if q != s and st.pl[q, PF.VP] > b:
                        b = st.pl[q, PF.VP]
                out[s] = soft_margin(st.pl[s, PF.VP] - b, scale)
            return
        linear_margins(st, r, W, sid, d, feats, scratch, out)  # the features, and the linear model's margins
        x = np.empty(NET_IN, np.float64)
        h = np.empty(NET_HIDDEN, np.float64)
        lin = out[:n].copy()
        for s in range(n):
            net_inputs(feats, n, s, lin[s], x)
            out[s] = net_forward(W, sid, x, h)
        return
    linear_margins(st, r, W, sid, d, feats, scratch, out)


@njit(cache=True)
def linear_margins(st, r, W, sid, d, feats, scratch, out):
    """:func:`margins` by the linear model: each seat's predicted final VP minus the best rival's
    (the real VP margins after the last decade); ``feats`` takes the value features."""
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
