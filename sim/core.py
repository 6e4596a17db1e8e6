"""Shared kernels: the event log, the decision entry point, VP assignation (VP status) and workers
(B. ACTION PHASE). Grids, coin stacks and payments are :mod:`sim.economy`; lightning cards
:mod:`sim.cardpower`.
"""

from numba import njit

from sim.ai_choice import ai_decide
from sim.codes import Dec, Ev
from sim.compiled_parts import solo_ai_entry
from sim.options import set_option
from sim.seam import choose
from sim.state import PF, VS, G, Sup

# the optional parts, reached only through their hooks (sim.compiled_parts: compiled only into the runs that play them)
solo_ai_decide = solo_ai_entry(ai_decide)

CCW = 5  # marks a City Council worker on a Major Building grid space


@njit(cache=True)
def log(st, code, a=0, b=0, c=0, d=0, e=0, f=0, h=0):
    """Append one event to the log buffer (only when logging is on)."""
    if st.g[G.LOG_ON] == 0:
        return
    n = st.g[G.LOG_N]
    if n >= st.log.shape[0]:
        st.g[G.LOG_DROPPED] += 1
        return
    row = st.log[n]
    row[0] = code
    row[1] = a
    row[2] = b
    row[3] = c
    row[4] = d
    row[5] = e
    row[6] = f
    row[7] = h
    st.g[G.LOG_N] = n + 1




@njit(cache=True)
def decide(st, r, seat, kind, n):
    """The one decision entry point: the seat's policy picks one of ``st.opts[:n]`` (the Solo A.I.'s
    seat answers by its rules, sim.ai_choice)."""
    st.g[G.OPT_N] += 1
    if n <= 0:
        st.g[G.EMPTY_OPTS] += 1
        return 0
    if n == 1:
        return 0
    if st.g[G.AI] == seat + 1:
        return solo_ai_decide(r, 0, st, r, seat, kind, n)
    i = choose(st, r, seat, kind, n)
    if i < 0 or i >= n:
        i = 0
    return i


@njit(cache=True)
def add_vp(st, seat, amount, source):
    """Move the VP marker (no VP status bonus); VP may go negative (FREE ACTIONS, NOTE)."""
    if amount == 0:
        return
    st.pl[seat, PF.VP] += amount
    st.vps[seat, source] += amount
    log(st, Ev.VP, seat, amount, source, st.pl[seat, PF.VP])


@njit(cache=True)
def gain_vp(st, r, seat, amount, source):
    """One VP assignation outside a Scoring phase (:func:`assign_vp`, nothing said of what is to come)."""
    assign_vp(st, r, seat, amount, source, -1)


@njit(cache=True)
def assign_vp(st, r, seat, amount, source, ahead):
    """One VP assignation. With VP status, once per decade the player may add 25/50/150 %
    (rounded down) to a single assignation (10. IMPROVE STATUS, VP status): offered on each positive
    one until taken, so declining is waiting for a larger one. ``ahead``: the largest single
    assignation still to come to the seat in this Scoring phase (and the End of the game VPs after
    it), as the Scoring counts it (sim.scoring.score_era); -1 outside a Scoring. The option rows are
    [1 take / 0 wait, this assignation's bonus, the bonus ``ahead`` would get (-1: not told)]."""
    add_vp(st, seat, amount, source)
    lvl = st.pl[seat, PF.ST_VP]
    if amount > 0 and lvl > 0 and st.pl[seat, PF.USED_VP_STATUS] == 0:
        pct = r.vp_bonus_pct[lvl - 1]
        bonus = amount * pct // 100
        if bonus > 0:
            later = ahead * pct // 100 if ahead >= 0 else -1
            set_option(st, 0, 0, bonus, later)
            set_option(st, 1, 1, bonus, later)
            if decide(st, r, seat, Dec.VP_BONUS, 2) == 1:
                st.pl[seat, PF.USED_VP_STATUS] = 1
                add_vp(st, seat, bonus, VS.VP_STATUS)
            else:
                log(st, Ev.VP_WAIT, seat, bonus, later)


# ----------------------------------------------------------------------------- workers

@njit(cache=True)
def workers_available(st, seat):
    return st.pl[seat, PF.WORKERS] + st.pl[seat, PF.CC_WORKERS]


@njit(cache=True)
def place_workers(st, seat, n):
    """Put n workers on a player-board or main-board action space. City Council workers go
    first: they return to the supply at Recover Workers either way."""
    cc = min(st.pl[seat, PF.CC_WORKERS], n)
    st.pl[seat, PF.CC_WORKERS] -= cc
    st.pl[seat, PF.CC_PLACED] += cc
    own = n - cc
    st.pl[seat, PF.WORKERS] -= own
    st.pl[seat, PF.WORKERS_PLACED] += own


@njit(cache=True)
def council_worker_stands_in(st, seat):
    """A card's worker discount: 1 City Council worker from the game supply takes the place of one
    of the player's workers on the action space ("If the City Council worker is not available, this
    card effect cannot be done"); it returns to the supply at Recover Workers."""
    st.supply[Sup.COUNCIL_WORKERS] -= 1
    st.pl[seat, PF.CC_PLACED] += 1


@njit(cache=True)
def grant_pool(st, seat, n):
    """Cards 45 and 51: ``n`` City Council workers from the game supply stand in for the seat's
    workers in its next main action (``G.POOL_CC``); :func:`end_main_action` returns the ones that
    action did not use."""
    n = min(n, st.supply[Sup.COUNCIL_WORKERS])
    st.supply[Sup.COUNCIL_WORKERS] -= n
    st.pl[seat, PF.CC_WORKERS] += n
    st.g[G.POOL_CC] += n
    return n


@njit(cache=True)
def return_pool(st, seat, used):
    """City Council workers placed first (place_workers), so the pool's are the first ``used``;
    the rest go back to the supply: a card's discount covers one action only."""
    left = min(max(0, st.g[G.POOL_CC] - used), st.pl[seat, PF.CC_WORKERS])
    st.pl[seat, PF.CC_WORKERS] -= left
    st.supply[Sup.COUNCIL_WORKERS] += left
    st.g[G.POOL_CC] = 0
