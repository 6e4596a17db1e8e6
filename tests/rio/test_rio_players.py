"""Río de la Plata's heuristic (rio.players.policy) on states set up by hand: a Major grid's spaces are paid
only when the grid completes (2. ON THE BUILDING GRIDS OUTSIDE THE CITY), so a worker on a grid is worth
the VP it adds to the seat's expected stake there, and completing a grid realises that stake."""

from __future__ import annotations

import pytest

from rio.engine.game import setup
from rio.engine.geometry import build_geo
from rio.engine.scratch import new_scratch
from rio.engine.state import NO, PK, G, new_state
from rio.players.policy import complete_chance, decision_context, grid_value
from rio.players.weights import W, default_weights
from rio.rules import Level, Major, load_rules

R = load_rules()
GEO = build_geo(R)
H, WIDTH = (int(n) for n in R.map_district.shape)
SEAT, OTHER = 0, 1


def game(turn: int):
    """A prepared 4-player expert game at ``turn`` (0-based), the seat rich enough to pay any grid space."""
    st = new_state(H, WIDTH, R.major_space_vp.shape[1], len(R.mine_space_workers))
    sc = new_scratch(R, GEO)
    setup(R, GEO, st, sc, 4, int(Level.EXPERT), 0, 7)
    st.g[G.FIRST_TURN] = 0
    st.g[G.TURN] = turn
    st.pl[SEAT, PK.WOOD] = st.pl[SEAT, PK.STONE] = 6
    return st, sc


def spaces_in_play(st, m: int) -> list[int]:
    on = R.major_space_on[st.g[G.COUNT], m]
    return [i for i in range(on.shape[0]) if on[i]]


def value(st, sc, m: int, i: int) -> float:
    w = default_weights()
    w[W.NOISE] = 0.0
    decision_context(R, GEO, st, sc, w, SEAT)  # the board's part too (board_context)
    return grid_value(R, st, sc, w, SEAT, m, i, 0, SEAT)


def test_the_completion_chance_is_sure_only_for_a_full_grid_and_falls_with_spaces_left_and_turns_gone():
    w = default_weights()
    assert complete_chance(w, 0, 1) == 1.0
    assert complete_chance(w, 1, 1) == 0.0  # the game's last turn: nobody places after the end
    assert complete_chance(w, 3, 10) > complete_chance(w, 6, 10) > complete_chance(w, 6, 5) > 0.0
    assert complete_chance(w, 1, 20) == 1.0


def test_the_last_space_of_a_grid_is_worth_the_stake_it_realises():
    """The seat holds every Fort space but the last (worth 0 VP printed): that space completes the Fort, pays
    his stake (paid only on completion) and the completer's 4 VP, so it is worth far more than the same
    0-VP space on a Fort where he holds nothing and others fill the rest."""
    m = Major.FORT
    st, sc = game(turn=18)  # two turns left: the others might not fill it in time
    spaces = spaces_in_play(st, m)
    last = spaces[-1]
    assert R.major_space_vp[m, last] == 0
    for i in spaces[:-1]:
        st.grid[m, i] = SEAT
        st.grid_placer[m, i] = SEAT
        st.grid_paid[m, i] = 1
    mine = value(st, sc, m, last)
    for i in spaces[:-1]:
        st.grid[m, i] = OTHER
        st.grid_placer[m, i] = OTHER
    theirs = value(st, sc, m, last)
    stake = float(sum(R.major_space_vp[m, i] for i in spaces[:-1]))
    w = default_weights()
    chance_without = complete_chance(w, 1, int(st.g[G.TURNS] - st.g[G.TURN]))
    assert mine - theirs == pytest.approx(stake * w[W.GRID] * (1.0 - chance_without))
    assert theirs > 0  # the completer's bonus alone pays the 0-VP space
    assert mine > theirs + 20


def test_a_space_on_a_grid_far_from_complete_is_worth_less_late_in_the_game():
    """The Palace's first space (5 VP printed) on an empty grid: early the table has turns to fill the other
    spaces; two turns from the end it will not, and the VP would never be paid."""
    m = Major.PALACE
    st, sc = game(turn=2)
    first = spaces_in_play(st, m)[0]
    assert st.grid[m, first] == NO
    early = value(st, sc, m, first)
    st.g[G.TURN] = int(st.g[G.TURNS]) - 2
    late = value(st, sc, m, first)
    assert early > 0 > late


def test_a_dock_worker_is_worth_the_cargo_it_loads_less_the_departure_and_nothing_when_the_ship_cannot_return():
    """SHIP: 3 cubes a dock worker; on the return 1 coin a wood or stone, 2 coins and 1 VP a precious cube, 4
    coins and 3 VP a triplet; the departure costs 2 coins; the Ship comes back two turns after it leaves. The
    heuristic's dock worker is worth the best load of what the seat holds, paid on the return, less the cubes'
    worth in hand and the departure it will pay; in the last two turns the cargo would never come back."""
    from itertools import product

    from rio.engine.options import PL
    from rio.engine.state import OPT
    from rio.players.policy import CTXF_SILVER, placement_value

    st, sc = game(turn=5)
    st.major_done[Major.HARBOR] = 1
    st.pl[SEAT, PK.WOOD], st.pl[SEAT, PK.STONE], st.pl[SEAT, PK.PRECIOUS] = 1, 2, 2
    w = default_weights()
    w[W.NOISE] = 0.0

    def dock_value():
        decision_context(R, GEO, st, sc, w, SEAT)
        sc.opts[0, :] = 0
        sc.opts[0, OPT.KIND] = PL.DOCK
        return placement_value(R, GEO, st, sc, w, SEAT, 0), sc.fctx[CTXF_SILVER]

    v, coin = dock_value()
    best = 0.0
    for wood, stone, precious in product(range(2), range(3), range(3)):
        if wood + stone + precious > 3:
            continue
        triplets = min(wood, stone, precious)
        silver = 4 * triplets + (wood - triplets) + (stone - triplets) + 2 * (precious - triplets)
        vp = 3 * triplets + (precious - triplets)
        worth = w[W.SHIP] * (silver * coin + vp) - wood * w[W.WOOD] - stone * w[W.STONE] - precious * w[W.PRECIOUS]
        best = max(best, worth)
    assert best > 2 * coin  # a triplet and a precious cube: worth the departure
    assert v == pytest.approx(best - 2 * coin - w[W.WORKER])
    st.g[G.TURN] = int(st.g[G.TURNS]) - 2
    assert dock_value()[0] == -1.0
