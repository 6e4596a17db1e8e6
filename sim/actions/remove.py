"""3. REMOVE HOUSES/PALACES: a House or Palace of the seat's goes back to its supply."""

from numba import njit

from sim.actions.turn_rows import add_row
from sim.codes import Act, Ev
from sim.core import log, place_workers
from sim.rules import RK
from sim.state import PF, B, Sup


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def remove_rows(st, r, seat, k, avail, n_own, own):
    """The REMOVE rows from row ``k``: one per House or Palace among the seat's ``n_own`` spaces
    ``own`` (city.own_spaces)."""
    if avail >= r.k[RK.REMOVE_HOUSE_WORKERS]:
        for j in range(n_own):
            c = own[j]
            if st.cell_b[c] == B.HOUSE or st.cell_b[c] == B.PALACE:
                k = add_row(st, k, Act.REMOVE, c, 0, 0, 0)
    return k


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def remove_house(st, r, seat, c):
    """3. REMOVE HOUSES/PALACES: take the House or Palace on space ``c`` back: a House to the
    player's supply, a Palace to the game supply with its Palace ownership marker back to the
    player."""
    place_workers(st, seat, r.k[RK.REMOVE_HOUSE_WORKERS])
    t = st.cell_b[c]
    if t == B.HOUSE:
        st.pl[seat, PF.HOUSES] += 1
    else:
        st.supply[Sup.PALACE] += 1
        st.pl[seat, PF.PALACE_MARKERS] += 1
    st.cell_b[c] = B.NONE
    st.cell_owner[c] = -1
    log(st, Ev.REMOVE, seat, t, c)
