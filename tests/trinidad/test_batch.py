"""trinidad.batch: the jitted batch entry point's thin shell."""

import numpy as np

from strategies.match import play_games, run_game
from strategies.registry import load_strategies
from trinidad.batch import play_batch


def test_read_only_weights_play_the_same_games_without_a_second_compile(rules):
    # Ray hands its workers read-only arrays; Numba types them apart, and a second type of W
    # compiled the whole engine again (the Ray test's 3 minutes in `make test`)
    r = rules
    W, _ = load_strategies(["heuristic", "greedy"])
    seeds = np.arange(3, dtype=np.uint64) + 11
    strat = np.array([[0, 1, 0], [1, 0, 1], [0, 0, 1]], np.int32)
    a = play_batch(r, W, 3, seeds, strat, threads=1)
    compiled = len(play_games.signatures)
    ro = W.copy()
    ro.flags.writeable = False
    b = play_batch(r, ro, 3, seeds, strat, threads=1)
    assert len(play_games.signatures) == compiled
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    c = run_game(r, ro, 3, int(seeds[0]), list(strat[0]))
    assert np.array_equal(c.rec_game[:3], a[1][0, :3])
