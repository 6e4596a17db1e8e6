"""CITY COUNCIL VOTE: laws, secret votes with the vote tiles, majority, ties on council values,
VP for the winning faction, council cost and the below-one penalty; the laws' effects.
"""

from numba import njit

from sim.cards import banner_up, rotate_card
from sim.codes import Act, Dec, Ev, Law
from sim.core import add_vp, coin_value, decide, gain_vp, log, pay_coins
from sim.major import complete_by_law, council_workers_on_grid, major_open
from sim.rules import RK
from sim.state import PF, VS, G, Loc
from sim.war import advance_tension

SIDE_ABSTAIN = 0
SIDE_YES = 1
SIDE_NO = 2


@njit(cache=True)
def max_vote(r):
    t = 0
    for i in range(r.vote_tiles.shape[0]):
        t += r.vote_tiles[i]
    return t


@njit(cache=True)
def can_call_vote(st, seat):
    """Use a Character card: only one vote per decade, and the card must be upright."""
    c = st.pl[seat, PF.CHARACTER]
    return st.g[G.VOTE_DONE] == 0 and st.card_loc[c] == Loc.HAND + seat and st.card_rot[c] == 0


@njit(cache=True)
def law_options(st, r, seat, k):
    """Append the legal (law, parameter) rows for a vote called by ``seat`` to st.opts from row k."""
    for m in range(6):
        if major_open(st, r, m):
            st.opts[k, 0] = Act.F_VOTE
            st.opts[k, 1] = Law.MAJOR_BUILDING
            st.opts[k, 2] = m
            k += 1
    if coin_value(st, r, seat) >= r.k[RK.BRONZE_PER_SILVER] * r.k[RK.PEACE_ACT_SILVER]:
        for nxt in range(2):
            st.opts[k, 0] = Act.F_VOTE
            st.opts[k, 1] = Law.PEACE
            st.opts[k, 2] = nxt
            k += 1
    st.opts[k, 0] = Act.F_VOTE
    st.opts[k, 1] = Law.WAR
    st.opts[k, 2] = 0
    k += 1
    for nxt in range(2):
        st.opts[k, 0] = Act.F_VOTE
        st.opts[k, 1] = Law.SPAIN
        st.opts[k, 2] = nxt
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
    """Each voter's council value drops by the tiles used; at 0 or below the player loses
    2 VP + 2 VP per point below zero and the marker goes back to 1."""
    v = st.pl[seat, PF.COUNCIL] - votes
    if v <= 0:
        add_vp(st, seat, r.k[RK.BELOW_ONE_BASE] + r.k[RK.BELOW_ONE_PER_POINT] * (-v), VS.COUNCIL_BELOW)
        v = r.k[RK.COUNCIL_RESET]
    st.pl[seat, PF.COUNCIL] = v


@njit(cache=True)
def place_decade_marker(st, arr, nxt):
    """Put a peace marker / Spain cube on the current or next decade (first free slot onward)."""
    d = st.g[G.DECADE] + nxt
    while d < arr.shape[0] - 1 and arr[d] != 0:
        d += 1
    arr[d] = 1
    return d


@njit(cache=True)
def apply_law(st, r, seat, law, param):
    if law == Law.MAJOR_BUILDING:
        if st.g[G.DECADE] == st.g[G.LAST_DECADE]:
            complete_by_law(st, r, seat, param)
        else:
            council_workers_on_grid(st, r, seat, param, r.k[RK.MAJOR_ACT_WORKERS])
        log(st, Ev.LAW, law, param, 0)
    elif law == Law.PEACE:
        d = place_decade_marker(st, st.peace, param)
        log(st, Ev.LAW, law, param, d)
    elif law == Law.WAR:
        d = st.g[G.DECADE]
        if st.peace[d] == 1:
            st.peace[d] = 0
            log(st, Ev.LAW, law, 0, d)
        elif st.peace[d + 1] == 1:
            st.peace[d + 1] = 0
            log(st, Ev.LAW, law, 0, d + 1)
        else:
            advance_tension(st, r, 1, r.k[RK.WAR_PROCLAMATION], 3)
            log(st, Ev.LAW, law, 1, 0)
    else:
        d = place_decade_marker(st, st.spain, param)
        log(st, Ev.LAW, law, param, d)


@njit(cache=True)
def call_vote(st, r, seat, law, param):
    """Rotate the Character card; the legislator's law is put to a secret vote of all players."""
    rotate_card(st, seat, st.pl[seat, PF.CHARACTER])
    st.g[G.VOTE_DONE] = 1
    log(st, Ev.VOTE_CALL, seat, law, param)
    if law == Law.PEACE:
        pay_coins(st, r, seat, r.k[RK.BRONZE_PER_SILVER] * r.k[RK.PEACE_ACT_SILVER])
    n = st.g[G.NPLAYERS]
    sides = st.scratch[8:13]
    votes = st.scratch[16:21]
    mv = max_vote(r)
    for i in range(n):
        s = st.order[i]
        k = 0
        st.opts[k, 0] = SIDE_ABSTAIN
        st.opts[k, 1] = 0
        st.opts[k, 2] = law
        st.opts[k, 3] = seat  # every row names the legislator (the policy votes differently as one)
        k += 1
        for side in (SIDE_YES, SIDE_NO):
            for v in range(mv + 1):
                st.opts[k, 0] = side
                st.opts[k, 1] = v
                st.opts[k, 2] = law
                st.opts[k, 3] = seat
                k += 1
        j = decide(st, r, s, Dec.VOTE, k)
        sides[s] = st.opts[j, 0]
        votes[s] = st.opts[j, 1]
    for s in range(n):
        log(st, Ev.VOTE, s, sides[s], votes[s])
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
                banner_up(st, s, PF.BANNER_BLUE)
    for i in range(n):
        s = st.order[i]
        if sides[s] != SIDE_ABSTAIN and votes[s] > 0:
            council_cost(st, r, s, votes[s])
    if approved:
        apply_law(st, r, seat, law, param)


@njit(cache=True)
def gain_council(st, r, seat, pts):
    """Move the City Council marker up, never past the maximum; the maximum gives the green banner."""
    mx = r.k[RK.COUNCIL_MAX]
    v = min(mx, st.pl[seat, PF.COUNCIL] + pts)
    st.pl[seat, PF.COUNCIL] = v
    if v >= mx and st.pl[seat, PF.BANNER_GREEN] < 2:
        st.pl[seat, PF.BANNER_GREEN] = 2
        log(st, Ev.BANNER, seat, PF.BANNER_GREEN - PF.BANNER_BLACK, 2)

