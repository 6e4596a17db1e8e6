"""Restricted-play probes (``trinidad probe``): a seat plays by its own strategy, except that at the
start of its first turn (per game) in which a given option is legal it takes that option as its
main action. The option rides in the seat's weight row (strategies.policy ``P.PROBE_ACT``, ``P.PROBE_ARG``:
a TURN row's Act and, optionally, its column a, e.g. BUILD of one building type), so any family's
seat can be probed: :mod:`strategies.match` hands a probed seat's turns here first, whatever plays
them otherwise. Among the forced rows the seat's own policy picks (``sim.core.decide`` over them
alone: which space, which load). Until the option is legal nothing differs: listing a turn's rows
changes no game state and draws no random number, so a probe whose option never becomes legal
plays the very same game.
"""

from numba import njit

from sim.actions import end_turn, finish_turn, turn_options, turn_step
from sim.codes import Dec
from sim.core import decide
from sim.state import PF, G
from strategies.policy import P


@njit(cache=True)
def probe_pending(st, seat):
    """The seat carries a probe whose option it has not taken yet."""
    return st.w[seat, P.PROBE_ACT] > 0 and st.pl[seat, PF.PROBE_DECADE] == 0


@njit(cache=True)
def play_turn_probed(st, r, seat):
    """The seat's turn when its probe's option is legal now: that option (the seat's policy picks
    among its rows), then the rest of the turn as usual (card 51's extra main action), and True.
    False, with nothing changed but work areas, when the option is not legal."""
    act = int(st.w[seat, P.PROBE_ACT])
    arg = int(st.w[seat, P.PROBE_ARG]) - 1
    st.g[G.TURN_SEAT] = seat  # as sim.actions.play_turn lists the turn
    k = turn_options(st, r, seat)
    m = 0
    for i in range(k):
        if st.opts[i, 0] == act and (arg < 0 or st.opts[i, 1] == arg):
            st.opts[m] = st.opts[i]
            m += 1
    if m == 0:
        st.g[G.TURN_SEAT] = -1
        return False
    st.pl[seat, PF.PROBE_DECADE] = st.g[G.DECADE]
    i = decide(st, r, seat, Dec.TURN, m)
    if turn_step(st, r, seat, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3]):
        finish_turn(st, r, seat)
    else:
        end_turn(st, seat)
        st.g[G.TURN_SEAT] = -1
    return True
