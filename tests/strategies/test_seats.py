"""strategies.seats: the players' fields of the state record, and how SETUP hands each seat its
weights (issue 37: the players' data out of the engine)."""

import numpy as np

from sim.game import allocate
from sim.rules import load_rules
from sim.state import MAX_PLAYERS, N_CHARACTERS, PF
from strategies.seats import SeatData, character_weights, copy_seat_data, memo_key_len, seat_data, seat_weights
from strategies.weights import N_WEIGHTS


def test_seat_data_is_sized_by_the_players_and_the_map():
    d = seat_data(40, 30)
    assert d.w.shape == d.memo_w.shape == (MAX_PLAYERS, N_WEIGHTS)
    assert d.memo_key.shape == (MAX_PLAYERS, memo_key_len(40, 30)) == (MAX_PLAYERS, 2 * 40 + 8 + 30 + 5)
    assert all(not a.any() for a in d) and type(d) is SeatData


def test_setup_hands_each_seat_its_block_then_its_characters():
    st = allocate(load_rules())
    W = np.arange(2 * N_WEIGHTS * (1 + N_CHARACTERS), dtype=np.float64).reshape(2, -1)
    seat_weights(st, W, 0, 1)
    seat_weights(st, W, 1, -1)  # the A.I.'s seat plays no strategy
    assert np.array_equal(st.w[0], W[1, :N_WEIGHTS]) and not st.w[1].any()
    st.pl[0, PF.CHARACTER] = 3
    character_weights(st, W, 2, np.array([1, -1], np.int32))
    assert np.array_equal(st.w[0], W[1, N_WEIGHTS * 4:N_WEIGHTS * 5]) and not st.w[1].any()
    narrow = W[:, :N_WEIGHTS].copy()  # no Character blocks: the seat keeps its one block
    seat_weights(st, narrow, 0, 0)
    character_weights(st, narrow, 2, np.array([0, -1], np.int32))
    assert np.array_equal(st.w[0], narrow[0])


def test_a_copy_takes_the_weights_and_leaves_the_memos():
    src, dst = allocate(load_rules()), allocate(load_rules())
    src.w[:] = 2.5
    src.memo_w[:] = 1.0
    copy_seat_data(dst, src)
    assert (dst.w == 2.5).all() and not dst.memo_w.any()
