"""CITY COUNCIL VOTE: laws, secret votes with the vote tiles, majority, ties on council values,
VP for the winning faction, council cost and the below-one penalty; the laws' effects.
"""

from numba import njit

from sim.banners import banner_step
from sim.cardpower import holder, offer
from sim.codes import Act, Card, Dec, Ev, Law, Side
from sim.core import add_vp, decide, gain_vp, log, set_option
from sim.deck import rotate_card
from sim.economy import coin_value, pay_coins
from sim.major_buildings import complete_by_law, council_workers_on_grid, district_completed, major_open, n_full_districts
from sim.rules import AP, RK
from sim.state import PF, VS, Banner, G, Loc, Sup
from sim.war import NATIVES, PIRATES, advance_tension, retreat_tension

SIDE_ABSTAIN = int(Side.ABSTAIN)
SIDE_YES = int(Side.YES)
SIDE_NO = int(Side.NO)


@njit(cache=True)
def max_vote(r):
    return r.vote_tiles.sum()


@njit(cache=True)
def can_call_vote(st, r, seat):
    """Use a Character card: only one vote per decade, and the card must be upright; none in the
    Solo game (RESTRICTION IN SOLO GAME: one player and the A.I., ``solo.council_vote_solo``)."""
    c = st.pl[seat, PF.CHARACTER]
    if st.g[G.AI] > 0 and st.g[G.NPLAYERS] == 2 and r.k[RK.SOLO_VOTE] == 0:
        return False
    return st.g[G.VOTE_DONE] == 0 and st.card_loc[c] == Loc.HAND + seat and st.card_rot[c] == 0


@njit(cache=True)
def law_options(st, r, seat, k):
    """Append the legal (law, parameter) rows for a vote called by ``seat`` to st.opts from row k.

    The Peace Act and the Spain support Act each put a component on the Decade track: a Peace
    marker (3 in the box, ``setup.peace_markers``) and "a black cube marker (a metal resource)",
    taken from the game supply (``components.metal``). With none left in the supply the law cannot
    be proposed (a reading: the rulebook is silent; as "If a building is not available from the
    supply, it cannot be built", a law whose one effect is placing a missing piece is no choice, and
    the Peace Act's silver would buy nothing)."""
    for m in range(6):
        if major_open(st, r, m):
            set_option(st, k, Act.F_VOTE, Law.MAJOR_BUILDING, m)
            k += 1
    if st.supply[Sup.PEACE] > 0 and coin_value(st, r, seat) >= r.k[RK.BRONZE_PER_SILVER] * r.k[RK.PEACE_ACT_SILVER]:
        for nxt in range(2):
            set_option(st, k, Act.F_VOTE, Law.PEACE, nxt)
            k += 1
    set_option(st, k, Act.F_VOTE, Law.WAR, 0)
    k += 1
    if st.supply[Sup.METAL] > 0:
        for nxt in range(2):
            set_option(st, k, Act.F_VOTE, Law.SPAIN, nxt)
            k += 1
    return k


@njit(cache=True)
def tally(st, r, n, sides, votes):
    """Count a revealed vote. Returns (approved, yes, no, decided_by_council_values).
    0 votes: rejected. Majority wins. A tie goes to the side whose voters hold the higher
    current council value; still tied: rejected."""
    yes = 0
    no = 0
    for s in range(n):
        if sides[s] == SIDE_YES:
            yes += votes[s]
        elif sides[s] == SIDE_NO:
            no += votes[s]
    if yes + no == 0:
        return False, yes, no, False
    if yes > no:
        return True, yes, no, False
    if no > yes:
        return False, yes, no, False
    cy = 0
    cn = 0
    for s in range(n):
        if sides[s] == SIDE_YES:
            cy += st.pl[s, PF.COUNCIL]
        elif sides[s] == SIDE_NO:
            cn += st.pl[s, PF.COUNCIL]
    return cy > cn, yes, no, True


@njit(cache=True)
def council_cost(st, r, seat, votes):
    """Each voter's council value drops by the tiles used; below the track (``council.track_min``,
    1: "at 0 or below") the player loses 2 VP + 2 VP per point below zero (the points below the
    track's first space past the first) and the marker goes back to 1."""
    v = st.pl[seat, PF.COUNCIL] - votes
    lo = r.k[RK.COUNCIL_MIN]
    if v < lo:
        pen = r.k[RK.BELOW_ONE_BASE] + r.k[RK.BELOW_ONE_PER_POINT] * (lo - 1 - v)
        # card 72 (lightning): "Reduce any City Council VPs penalty by half (round down)"
        if pen < 0 and offer(st, r, Card.C72, seat) >= 0:
            pen = -((-pen) // r.aff_p[Card.C72, AP.PENALTY_DIVISOR])
        add_vp(st, seat, pen, VS.COUNCIL_BELOW)
        v = r.k[RK.COUNCIL_RESET]
    st.pl[seat, PF.COUNCIL] = v


@njit(cache=True)
def place_decade_marker(st, arr, slot, nxt):
    """Put a peace marker / Spain cube from the game supply (``slot``: Sup.PEACE, Sup.METAL) on the
    current or next decade (first free slot onward; the slot past the last decade holds any number).
    Returns the decade slot, or -1 when the supply has none."""
    if st.supply[slot] <= 0:
        return -1
    st.supply[slot] -= 1
    d = st.g[G.DECADE] + nxt
    while d < arr.shape[0] - 1 and arr[d] != 0:
        d += 1
    arr[d] += 1
    return d


@njit(cache=True)
def apply_law(st, r, seat, law, param):
    if law == Law.MAJOR_BUILDING:
        if st.g[G.DECADE] == st.g[G.LAST_DECADE]:
            complete_by_law(st, r, seat, param)
        else:
            council_workers_on_grid(st, r, seat, param, r.k[RK.MAJOR_ACT_WORKERS], seat)
        log(st, Ev.LAW, law, param, 0)
    elif law == Law.PEACE:
        d = place_decade_marker(st, st.peace, Sup.PEACE, param)
        log(st, Ev.LAW, law, param, d)
    elif law == Law.WAR:
        # "the legislator removes it": back to the supply
        d = st.g[G.DECADE]
        if st.peace[d] > 0:
            st.peace[d] -= 1
            st.supply[Sup.PEACE] += 1
            log(st, Ev.LAW, law, 0, d)
        elif st.peace[d + 1] > 0:
            st.peace[d + 1] -= 1
            st.supply[Sup.PEACE] += 1
            log(st, Ev.LAW, law, 0, d + 1)
        else:
            advance_tension(st, r, 1, r.k[RK.WAR_PROCLAMATION], 3)
            log(st, Ev.LAW, law, 1, 0)
    else:
        d = place_decade_marker(st, st.spain, Sup.METAL, param)
        log(st, Ev.LAW, law, param, d)


@njit(cache=True)
def call_vote(st, r, seat, law0, param0):
    """CITY COUNCIL VOTE: rotate the Character card; the legislator's law is put to a secret vote of
    all players."""
    law = law0 + 0  # plain integers: card 82 may replace them (callers may pass IntEnum members)
    param = param0 + 0
    rotate_card(st, seat, st.pl[seat, PF.CHARACTER])
    st.g[G.VOTE_DONE] = 1
    log(st, Ev.VOTE_CALL, seat, law, param)
    # card 82 (lightning): "Put a veto on Legislator law choice. The legislator now must choose a
    # different law. This card must be used before player votes are shown" - the vote is then held
    # on the new law (votes for the vetoed one could not stand for another)
    h82 = holder(st, Card.C82)
    if h82 >= 0 and h82 != seat and offer(st, r, Card.C82, h82) >= 0:
        k = 0
        for j in range(law_options(st, r, seat, 0)):
            if st.opts[j, 1] != law:
                st.opts[k, 0] = st.opts[j, 0]
                st.opts[k, 1] = st.opts[j, 1]
                st.opts[k, 2] = st.opts[j, 2]
                st.opts[k, 3] = 0
                st.opts[k, 4] = 0
                k += 1
        if k > 0:
            i = decide(st, r, seat, Dec.TURN, k)
            log(st, Ev.CARD_EFFECT, h82, Card.C82, law, st.opts[i, 1])
            law = st.opts[i, 1]
            param = st.opts[i, 2]
            log(st, Ev.VOTE_CALL, seat, law, param)
    if law == Law.PEACE:
        pay_coins(st, r, seat, r.k[RK.BRONZE_PER_SILVER] * r.k[RK.PEACE_ACT_SILVER])
    n = st.g[G.NPLAYERS]
    sides = st.vote_sides
    votes = st.vote_votes
    free = st.vote_free  # votes from card 40: counted, not paid
    for s in range(n):
        free[s] = 0
    # card 40 (lightning): "Use this card before a City Council voting procedure begins. You will
    # gain +1 vote for each district with Roads."
    h40 = offer(st, r, Card.C40, -1)
    if h40 >= 0:
        nr = 0
        for d in range(st.roads.shape[0]):
            nr += st.roads[d]
        free[h40] = nr * r.aff_p[Card.C40, AP.VOTES_PER_ROAD_DISTRICT]
    mv = max_vote(r)
    for i in range(n):
        s = st.order[i]
        k = 0
        set_option(st, k, SIDE_ABSTAIN, 0, law, seat)  # every row names the legislator (the policy votes differently as one)
        k += 1
        for side in (SIDE_YES, SIDE_NO):
            for v in range(mv + 1):
                set_option(st, k, side, v, law, seat)
                k += 1
        j = decide(st, r, s, Dec.VOTE, k)
        sides[s] = st.opts[j, 0]
        votes[s] = st.opts[j, 1]
        if sides[s] == SIDE_ABSTAIN:
            free[s] = 0  # card 40's votes go to the side its holder votes for
    # card 63 (lightning): once the votes are chosen, "Spend 1 bronze coin to decrease the City
    # Council votes made by a player by half (rounded down)"; the target pays only those
    h63 = holder(st, Card.C63)
    if h63 >= 0 and coin_value(st, r, h63) >= r.aff_p[Card.C63, AP.PAY_BRONZE]:
        targets = 0
        for s in range(n):
            if s != h63 and sides[s] != SIDE_ABSTAIN and votes[s] > 1:
                targets += 1
        if targets > 0 and offer(st, r, Card.C63, h63) >= 0:
            k = 0
            for s in range(n):
                if s != h63 and sides[s] != SIDE_ABSTAIN and votes[s] > 1:
                    set_option(st, k, s, Card.C63)
                    k += 1
            t = st.opts[decide(st, r, h63, Dec.CARD_TARGET, k), 0]
            pay_coins(st, r, h63, r.aff_p[Card.C63, AP.PAY_BRONZE])
            votes[t] = votes[t] // r.aff_p[Card.C63, AP.VOTES_DIVISOR]
            log(st, Ev.CARD_EFFECT, h63, Card.C63, t, votes[t])
    for s in range(n):
        votes[s] += free[s]
        log(st, Ev.VOTE, s, sides[s], votes[s])
    approved, yes, no, by_council = tally(st, r, n, sides, votes)
    # card 80 (lightning): "Increase your vote up to 2 votes. You can use this card also after
    # seeing the vote result. You have to pay these additional votes"
    h80 = holder(st, Card.C80)
    if h80 >= 0 and sides[h80] != SIDE_ABSTAIN and offer(st, r, Card.C80, h80) >= 0:
        for j in range(r.aff_p[Card.C80, AP.EXTRA_VOTES_MAX]):
            set_option(st, j, j + 1, Card.C80)
        extra = st.opts[decide(st, r, h80, Dec.CARD_TARGET, r.aff_p[Card.C80, AP.EXTRA_VOTES_MAX]), 0]
        votes[h80] += extra
        log(st, Ev.CARD_EFFECT, h80, Card.C80, extra, votes[h80])
        approved, yes, no, by_council = tally(st, r, n, sides, votes)
    log(st, Ev.VOTE_RESULT, 1 if approved else 0, yes, no, 1 if by_council else 0)
    win_side = SIDE_YES if approved else SIDE_NO
    winners = 0
    all_yes = True
    for s in range(n):
        if sides[s] == win_side:
            winners += 1
        if sides[s] != SIDE_YES:
            all_yes = False
    era = st.g[G.ERA]
    total = r.k[RK.VOTE_VP_PER_ERA] * era
    if approved and all_yes:
        gain_vp(st, r, seat, total, VS.COUNCIL_VOTE)
    elif winners > 0:
        share = total // winners
        for i in range(n):
            s = st.order[i]
            if sides[s] == win_side:
                gain_vp(st, r, s, share, VS.COUNCIL_VOTE)
    if winners > 0:
        for s in range(n):
            if sides[s] == win_side:
                banner_step(st, r, s, Banner.BLUE)
    for i in range(n):
        s = st.order[i]
        paid = votes[s] - free[s]
        if sides[s] != SIDE_ABSTAIN and paid > 0:
            council_cost(st, r, s, paid)
    # cards 79 and 81 (lightning): "After winning a Council vote ..."
    if winners > 0:
        h79 = holder(st, Card.C79)
        if h79 >= 0 and sides[h79] == win_side and offer(st, r, Card.C79, h79) >= 0:
            set_option(st, 0, NATIVES, Card.C79)
            set_option(st, 1, PIRATES, Card.C79)
            f = st.opts[decide(st, r, h79, Dec.CARD_TARGET, 2), 0]
            retreat_tension(st, r, f, r.aff_p[Card.C79, AP.TENSION_STEPS_DOWN])
        h81 = holder(st, Card.C81)
        if h81 >= 0 and sides[h81] == win_side and offer(st, r, Card.C81, h81) >= 0:
            st.g[G.LAST_PENALTY_DECADE] = st.g[G.DECADE]
    if approved:
        apply_law(st, r, seat, law, param)


@njit(cache=True)
def gain_council(st, r, seat, pts):
    """Move the City Council marker up, never past the maximum; the maximum gives the green banner."""
    mx = r.k[RK.COUNCIL_MAX]
    v = min(mx, st.pl[seat, PF.COUNCIL] + pts)
    st.pl[seat, PF.COUNCIL] = v
    if v >= mx:
        banner_step(st, r, seat, Banner.GREEN)


@njit(cache=True)
def building_put_up(st, r, seat, t, full_before):
    """What a Minor building of type ``t`` just put on the map gives its builder (1-2. MINOR
    BUILDING CONSTRUCTION: the City Council points and VP of the construction table) and, when it
    fills a district's last space (``full_before``: full districts before), card 70's payout
    (sim.major_buildings.district_completed). Shared by the Construction action and the Solo A.I.'s build."""
    if r.b_cp[t] > 0:
        gain_council(st, r, seat, r.b_cp[t])
    if r.b_vp[t] > 0:
        gain_vp(st, r, seat, r.b_vp[t], VS.BUILD)
    if n_full_districts(st, r) > full_before:
        district_completed(st, r)
