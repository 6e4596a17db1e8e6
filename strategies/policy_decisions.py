"""The policy's decisions other than TURN (sim.codes.Dec; strategies.policy): the greedy or heuristic
value of each option, waiting with the VP status bonus among them; the Solo A.I.'s ties and the
Extended War's decisions through their hooks (strategies.ai_tie, strategies.war_policy).
"""

from numba import njit

from sim.city import district_value, house_value, own_buildings_in_district, palace_value
from sim.codes import Card, Dec, Side
from sim.compiled_parts import extended_war_entry, solo_ai_entry
from sim.rules import AP, RK
from sim.series import pile_loc, top_of
from sim.state import GROUP_SIZE, N_CHARACTERS, PF, B, G
from strategies.ai_tie import ai_tie_value
from strategies.policy_terms import _series_change
from strategies.policy_vote import _vote_value
from strategies.war_policy import war_value
from strategies.weights import FAMILY_GREEDY, F, K, P

# the optional parts, reached only through their hooks (sim.compiled_parts: compiled only into the runs that play them)
solo_ai_tie_value = solo_ai_entry(ai_tie_value)
xw_war_value = extended_war_entry(war_value)


@njit(cache=True)
def _scoring_floor(st, r, seat):
    """The seat's largest single assignation at this decade's Scoring as far as the state now shows
    it (VPS ASSIGNATION): its best House or Palace, its face-up banners, a Money or Faith majority it
    holds alone, and in the last decade its City Council VPs when the VP status bonus may take them
    (status.vp_bonus_end_game). A floor: the Character, the card series and the strongest miniature
    are not counted."""
    era = st.g[G.ERA]
    faith = st.pl[seat, PF.FAITH]
    best = 0
    for d in range(r.district_ncells.shape[0]):
        dv = 0
        seen = False  # the district's value is looked up at its first House or Palace of the seat
        for j in range(r.district_ncells[d]):
            c = r.district_cells[d, j]
            if st.cell_owner[c] != seat or (st.cell_b[c] != B.HOUSE and st.cell_b[c] != B.PALACE):
                continue
            if not seen:
                dv = district_value(st, r, d)
                seen = True
            if st.cell_b[c] == B.PALACE:
                best = max(best, palace_value(r, faith, dv))
            else:
                best = max(best, house_value(st, r, seat, d, faith, dv))
    up = 0
    for b in range(PF.BANNER_OCHER - PF.BANNER_BLACK + 1):
        if st.pl[seat, PF.BANNER_BLACK + b] >= 2:  # face-up (sim.banners.FACE_UP)
            up += 1
    best = max(best, r.banner_vp[up] * era)
    rate = r.k[RK.BRONZE_PER_SILVER]
    coins = rate * st.pl[seat, PF.SILVER] + st.pl[seat, PF.BRONZE]
    rich = coins > 0
    pious = faith > 0
    for s in range(st.g[G.NPLAYERS]):
        if s != seat:
            rich = rich and coins > rate * st.pl[s, PF.SILVER] + st.pl[s, PF.BRONZE]
            pious = pious and faith > st.pl[s, PF.FAITH]
    if rich:
        best = max(best, r.k[RK.MONEY_VP] * era)
    if pious:
        best = max(best, r.k[RK.FAITH_VP] * era)
    if st.g[G.DECADE] == st.g[G.LAST_DECADE] and r.k[RK.VP_BONUS_END_GAME] == 1:
        best = max(best, r.council_vp[st.pl[seat, PF.COUNCIL]])
    return best


@njit(cache=True)
def _vp_wait(st, r, w, seat, ahead):
    """Waiting with the VP status bonus (10. IMPROVE STATUS, VP status: once per decade, on a single
    assignation): the bonus a larger assignation still ahead in this decade would get. In a Scoring
    the engine tells it (``ahead``, the bonus on the largest one still to come); before it, in a
    decade that ends with a Scoring, the floor the state shows (:func:`_scoring_floor`); in a decade
    without one, nothing: what the rest of the decade brings is small and not foreseen."""
    if ahead >= 0:
        return w[K.VP_WAIT_SCORING] * ahead
    d = st.g[G.DECADE]
    if d % r.k[RK.DECADES_PER_ERA] != 0 and d != st.g[G.LAST_DECADE]:
        return 0.0
    lvl = st.pl[seat, PF.ST_VP]
    return w[K.VP_WAIT_LATER] * (_scoring_floor(st, r, seat) * r.vp_bonus_pct[lvl - 1] // 100)


@njit(cache=True)
def _option_value(st, r, seat, kind, i):
    """Greedy family: immediate value of option i of a decision other than TURN (:func:`strategies.policy_turn._turn_values`)."""
    w = st.w[seat]
    o = st.opts[i]
    if kind == Dec.GRID:
        # o = [grid, cubes on it, resource]: prefer full grids, avoid taking a grid's last cube (VP penalty)
        return w[K.GRID_CUBE] * o[1] - (w[F.VP] if o[1] <= 1 else 0.0)
    if kind == Dec.STACK:
        # o = [stack, 1 when making bronze change, coins on it]: avoid taking a stack's last coin
        if o[1] == 1:
            return 0.0
        return -w[F.VP] if o[2] == 1 else 0.0
    if kind == Dec.BID:
        return w[K.BID_PASS] if o[0] == 0 else (w[K.BID_LOW] if o[0] <= w[P.BID_LOW_MAX] else w[K.BID_HIGH])
    if kind == Dec.DRAW_SOURCE:
        if o[0] < 0:
            return w[K.DRAW_DECK]
        if w[K.SERIES] == 0.0:  # the top card looked up only when series count
            return w[K.DRAW_PILE]
        return w[K.DRAW_PILE] + _series_change(st, r, w, seat, top_of(st, pile_loc(o[0])), 1)
    if kind == Dec.KEEP:
        if o[0] < 0:
            return 0.0
        own = w[K.KEEP_OWN] if (o[0] - N_CHARACTERS) // GROUP_SIZE == st.pl[seat, PF.CHARACTER] else 1.0
        return w[F.CARD] * own + _series_change(st, r, w, seat, o[0], 1)
    if kind == Dec.SALARY:
        if o[0] == 1:
            return -w[F.COIN] * o[1] - w[K.SALARY_VP] * w[F.VP] * o[2]
        return -w[F.CARD] - w[K.SALARY_DISCARD] + _series_change(st, r, w, seat, o[1], -1)
    if kind == Dec.VOTE:
        if int(w[F.FAMILY]) == FAMILY_GREEDY:
            # greedy sees only the vote's immediate cost: as legislator the cheapest "yes", otherwise
            # no council points spent (it abstains); the heuristic models the vote (_vote_value)
            if o[3] == seat:
                return 1.0 if o[0] == Side.YES and o[1] == 1 else 0.0
            return 1.0 if o[0] == Side.ABSTAIN else 0.0
        return _vote_value(st, r, w, seat, o[0], o[1], o[2], o[3])
    if kind == Dec.WAR_FIGHT:
        wa = o[2]
        av = o[1]
        loss = max(0, wa - av)
        v = -w[K.PENALTY_STEP] * w[F.VP] * loss + (w[K.PENALTY_STEP] * w[F.VP] if loss == 0 else 0.0)
        bits = 0
        for j in range(r.k[RK.WAR_MARKERS]):
            if o[0] & (1 << j):
                bits += 1
        if o[0] >> r.k[RK.WAR_MARKERS]:  # card 59: a worker fights and is held until the next decade ends
            v += w[F.WORKER] - w[F.CARD] * w[K.CARD_SPENT]
        return v - w[K.WAR_MARKER] * w[F.MILITARY] * bits
    if kind == Dec.WAR_BURN:
        if o[0] < 0:
            return 0.0
        return (w[K.PENALTY_STEP] * w[F.VP] if o[1] > 0 else w[K.BURN_SPARE]) - w[F.CARD] + _series_change(st, r, w, seat, o[0], -1)
    if kind == Dec.PLACE_CABILDO or kind == Dec.PLACE_ROAD:
        d = r.cell_district[o[0]] if kind == Dec.PLACE_CABILDO else o[0]
        v = float(own_buildings_in_district(st, r, seat, d))
        if kind == Dec.PLACE_CABILDO and st.cell_b[o[0]] != B.NONE:
            v -= w[K.CABILDO_OWN] if st.cell_owner[o[0]] == seat else w[K.CABILDO_OTHER]
        return v
    if kind == Dec.PLACE_CATHEDRAL:
        return float(own_buildings_in_district(st, r, seat, r.cell_district[o[0]])
                     + own_buildings_in_district(st, r, seat, r.cell_district[o[1]]))
    if kind == Dec.PLACE_WALL:
        if o[0] < 0:
            return -w[K.WALL_STOP]
        return float(own_buildings_in_district(st, r, seat, o[1]))
    if kind == Dec.VP_BONUS:
        # o = [1 take / 0 wait, this assignation's bonus, the bonus on the largest one still to come in
        # this Scoring (-1: not in a Scoring)]; greedy takes the immediate value
        if o[0] == 1:
            return float(o[1])
        if int(w[F.FAMILY]) == FAMILY_GREEDY:
            return 0.0
        later = _vp_wait(st, r, w, seat, o[2])
        return later if later > o[1] else 0.0
    if kind == Dec.USE_CARD:
        if o[0] == 0:
            return 0.0
        return w[K.USE_GAIN] if o[2] > 0 else -w[K.USE_IDLE]  # o = [use?, card, gain]: use a trigger that brings something
    if kind == Dec.CARD_TARGET:
        if o[2] == Card.C36 or o[2] == Card.C42 or o[2] == Card.C54 or o[2] == Card.C68:  # o = [VP gained, district, card, ...]
            return w[F.VP] * o[0]
        if o[2] == Card.C71:  # o = [VP gained, district, card, other player, Houses paid for]
            return w[F.VP] * o[0] - w[F.COIN] * o[4] * r.aff_p[Card.C71, AP.PAY_BRONZE_PER_HOUSE]
        if o[2] == Card.C67:  # o = [district, production buildings beyond the first, card]
            return float(o[1])
        return -w[K.TARGET_STOP] if o[0] < 0 else 0.0  # a step of a card power: doing it beats stopping
    if kind == Dec.REACTIVATE:
        if o[0] < 0:
            return 0.0
        return w[K.REACT_CHARACTER] if o[0] < N_CHARACTERS else w[K.REACT_AFFILIATE]
    if kind == Dec.AI_TIE:
        return solo_ai_tie_value(r, 0.0, st, r, seat, i)  # the Solo A.I.'s tie, the human's choice (strategies.ai_tie)
    if kind >= Dec.XW_TARGET:
        return xw_war_value(r, 0.0, st, r, seat, kind, i)  # EXTENDED WAR (strategies.war_policy)
    return 0.0
