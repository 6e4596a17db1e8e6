"""Helpers shared by the rule tests: edit a hand-built state."""

from __future__ import annotations

from sim.cards import back_symbols
from sim.state import N_CARDS, N_CHARACTERS, PF, B, G, Loc


def set_items(st, seat, wood=0, stone=0, precious=0, metal=0, silver=0, bronze=0):
    for f, v in ((PF.WOOD, wood), (PF.STONE, stone), (PF.PRECIOUS, precious), (PF.METAL, metal),
                 (PF.SILVER, silver), (PF.BRONZE, bronze)):
        st.pl[seat, f] = v


def clear_map(st):
    st.cell_b[:] = B.NONE
    st.cell_owner[:] = -1
    st.walls[:] = 0
    st.roads[:] = 0
    for f in (G.FORT_BUILT, G.HARBOR_BUILT, G.CABILDO_BUILT, G.CATHEDRAL_BUILT):
        st.g[f] = 0
    st.major_state[:] = 0


def deck_card(st, r, natives, pirates, exclude=()):
    """An Affiliate card in the deck whose back shows these tension symbols (R-09)."""
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.DECK and c not in exclude and tuple(back_symbols(r, c)) == (natives, pirates):
            return c
    raise AssertionError(f"no deck card with back {natives, pirates}")


def stack_deck(st, *cards):
    """Put these cards on top of the Affiliate deck, the first named on top."""
    top = int(max(st.card_seq.max(), st.g[G.SEQ])) + len(cards) + 1
    for i, c in enumerate(cards):
        st.card_loc[c] = Loc.DECK
        st.card_seq[c] = top - i
    st.g[G.SEQ] = top
