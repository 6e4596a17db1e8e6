"""2. MINOR BUILDING ACTIVATION, GROUP B: which buildings are activated (ACTIVATION EFFECTS).

On hand-built states with the kernels called directly. Every test quotes the rulebook sentence it
checks or lays out the rulebook's worked example; every number comes from the rules record
(``r.k[RK...]``, ``r.b_cost`` ...) unless the rulebook sentence or example itself is the number.
Decisions go through the seats' policy (the ``blank`` fixture seats greedy players): the states are
built so that every choice the policy could make leads to the asserted outcome, or a test-local
weight row in ``st.w`` scripts the choices.
"""

from __future__ import annotations

from sim.state import B


def test_activatable_buildings_are_those_with_activation_rows(rules):
    """2. Minor building activation: the production and service buildings (Quarry to Church) are
    activated; Lots, Houses, Palaces, the Square, Monuments, Fountains and the Major buildings are
    not. city.activatable decides which spaces the TURN listing's activation pass visits, so it
    must name exactly the building types the rules give activation rows."""
    from sim.city import activatable

    for b in B:
        assert activatable(int(b)) == (rules.act_nrows[int(b)] > 0), b.name
    assert sum(activatable(int(b)) for b in B) == 8
