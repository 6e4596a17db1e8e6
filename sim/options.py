"""Option rows of a decision (``st.opts``), written whole: a leaf module, so that every engine
module (the Solo A.I.'s answers in :mod:`sim.ai_choice` too, which :mod:`sim.core` imports) writes
them one way. :mod:`sim.core` re-exports :func:`set_option`."""

from numba import njit


@njit(cache=True)
def set_option(st, k, a, b=0, c=0, d=0, e=0):
    """Write option row ``k`` of a decision in full: the columns a listing does not use read 0,
    never a value left there by an earlier decision. The policy and Python strategies read rows
    whole: card 83's grid rows once left a stale column 2, which the CARD_TARGET valuation reads
    as a scoring card's id."""
    st.opts[k, 0] = a
    st.opts[k, 1] = b
    st.opts[k, 2] = c
    st.opts[k, 3] = d
    st.opts[k, 4] = e
