"""The policy's model of a City Council vote (strategies.policy): what calling a vote is worth to the
legislator and what each side and number of votes is worth to a voter, from the public council track.
"""

from numba import njit

from sim.codes import Ch, Law, Side
from sim.rules import RK
from sim.state import PF, G
from strategies.weights import F, K, P


@njit(cache=True)
def _vote_cost(st, r, w, s, v):
    """Value lost by casting v votes: the City Council points they cost, plus the below-one penalty
    (CITY COUNCIL VOTE: at 0 or below, 2 VP + 2 VP per point below zero)."""
    left = st.pl[s, PF.COUNCIL] - v
    cost = w[F.COUNCIL] * v
    if v > 0 and left <= 0:
        cost -= w[F.VP] * (r.k[RK.BELOW_ONE_BASE] + r.k[RK.BELOW_ONE_PER_POINT] * (-left))
    return cost


@njit(cache=True)
def _likely_no(st, r, s):
    """Votes a player with this policy would cast against a law it does not want: two while that
    leaves it above zero on the council track, else one while that does, else none."""
    c = st.pl[s, PF.COUNCIL]
    return 2 if c >= 3 else (1 if c >= 2 else 0)


@njit(cache=True)
def _call_value(st, r, w, seat):
    """Calling a City Council vote, valued as the legislator's best "yes" in :func:`_vote_value`
    (the same model of the opposition); when the opposition is out of reach, the other players share
    the VP, which counts against calling (a third of them, as one rival in three)."""
    best = -1e9
    mv = 0
    for t in range(r.vote_tiles.shape[0]):
        mv += r.vote_tiles[t]
    opp = _opposition(st, r, seat)  # the same for every number of votes
    for v in range(1, mv + 1):
        x = _legislator_yes(st, r, w, seat, v, 0.0, opp)
        if x > best:
            best = x
    total = float(r.k[RK.VOTE_VP_PER_ERA] * st.g[G.ERA])
    return max(best, -w[F.VP] * total / w[P.VOTE_RIVALS])


@njit(cache=True)
def _opposition(st, r, seat):
    """The "no" votes a legislator expects: every other player voting as :func:`_likely_no`."""
    opp = 0
    for s in range(st.g[G.NPLAYERS]):
        if s != seat:
            opp += _likely_no(st, r, s)
    return opp


@njit(cache=True)
def _legislator_yes(st, r, w, seat, v, pref, opp):
    """The legislator's v "yes" votes against ``opp`` expected "no" votes (:func:`_vote_value`)."""
    total = float(r.k[RK.VOTE_VP_PER_ERA] * st.g[G.ERA])
    cost = _vote_cost(st, r, w, seat, v)
    p = 1.0 if v > opp else (w[P.VOTE_TIE] if v == opp else 0.0)
    return w[F.VP] * total * p + w[K.VOTE_WIN] * p - cost + pref


@njit(cache=True)
def _vote_value(st, r, w, seat, side, v, law, leg):
    """A secret vote (CITY COUNCIL VOTE): the winning faction shares 4 VP x Era, a unanimous "yes"
    gives them all to the legislator, each vote costs a council point.

    The legislator estimates the opposition from the public council track (every other player
    voting "no" as :func:`_likely_no`) and casts the cheapest winning "yes", or none worth it. Any
    other player cannot see the legislator's fist; bots' legislators usually cast 1 or 2, so "no"
    with 2 votes is taken to win and 1 vote to tie; the VP are taken as shared with one more
    winner. A side tile without value tiles is left alone. "Yes" joins the legislator's likely win, shared three ways and at risk of giving the
    legislator a unanimous sweep, so it is worth less. The Noblewoman prefers Peace to War."""
    if side == Side.ABSTAIN:
        return 0.0
    if v == 0:
        return -w[K.VOTE_TILE_ALONE]  # a side tile alone changes no count: as good as abstaining, so abstain
    pref = 0.0
    if st.pl[seat, PF.CHARACTER] == Ch.NOBLEWOMAN and (law == Law.WAR or law == Law.PEACE):
        pref = w[K.CH_NOBLEWOMAN] * r.k[RK.CH_NOBLEWOMAN] * w[F.CHARACTER] * (1.0 if law == Law.PEACE else -1.0)
    if seat == leg:
        if side == Side.NO:
            return -1e9
        return _legislator_yes(st, r, w, seat, v, pref, _opposition(st, r, seat))
    total = float(r.k[RK.VOTE_VP_PER_ERA] * st.g[G.ERA])
    cost = _vote_cost(st, r, w, seat, v)
    if side == Side.YES:
        return w[F.VP] * total * w[P.VOTE_YES_KEEP] / w[P.VOTE_YES_WINNERS] - cost + pref
    p = 1.0 if v >= w[P.VOTE_NO_WINS] else w[P.VOTE_TIE]
    return w[F.VP] * total * p / w[P.VOTE_NO_WINNERS] - cost - pref
