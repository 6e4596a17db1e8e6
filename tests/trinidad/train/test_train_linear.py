"""trinidad.train.linear: the explorers of the linear evaluation's self-play (trinidad train --explore, --explore-city)."""

import numpy as np

from strategies.registry import load_strategies, value_model
from strategies.value_model import EXPLORE_SCALE, N_VF, VF, lower_bounds
from trinidad.train.linear import CITY_EXPLORE_SCALE, N_EXPLORERS, explorer_rows


def _moved(row, base):
    m = value_model(row)
    return {f for f in range(N_VF) if not np.array_equal(m[:, f], base[:, f])}, m


def test_city_explorers_move_the_district_weights_from_zero_and_the_others_leave_them():
    W, _ = load_strategies(["search"])
    row = W[0]
    base = value_model(row)
    # the old chain's evaluation holds the City's district weights at 0: what --explore-city is for
    assert all(np.all(base[:, f] == 0.0) for f in (VF.DISTRICT_OWN, VF.BEST_DISTRICT))
    plain = explorer_rows(row, 1.0, np.random.default_rng(5))
    city = explorer_rows(row, 1.0, np.random.default_rng(5), city=True)
    assert len(plain) == len(city) == N_EXPLORERS
    seen = set()
    for r in plain:
        moved, _ = _moved(r, base)
        assert moved <= set(EXPLORE_SCALE)  # without the flag the district weights stay where they were
    for r in city:
        moved, m = _moved(r, base)
        assert moved <= set(EXPLORE_SCALE) | set(CITY_EXPLORE_SCALE)
        assert (m >= lower_bounds()).all()
        assert all(np.all(m[:, f] == m[0, f]) for f in CITY_EXPLORE_SCALE if f in moved)  # one taste every Era
        seen |= moved & set(CITY_EXPLORE_SCALE)
    # from 0 and bounded below by 0, about half the explorers raise each district weight: 8 explorers raise
    # none of the four only with probability 2**-32
    assert seen == set(CITY_EXPLORE_SCALE)
    # the first explorer's other weights are drawn first, as without the flag (its City draws come after)
    assert np.array_equal(np.delete(value_model(city[0]), list(CITY_EXPLORE_SCALE), axis=1),
                          np.delete(value_model(plain[0]), list(CITY_EXPLORE_SCALE), axis=1))


def test_city_explorers_come_from_the_seed():
    W, _ = load_strategies(["search"])
    a = explorer_rows(W[0], 1.0, np.random.default_rng(9), city=True)
    b = explorer_rows(W[0], 1.0, np.random.default_rng(9), city=True)
    c = explorer_rows(W[0], 1.0, np.random.default_rng(10), city=True)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not all(np.array_equal(x, y) for x, y in zip(a, c))
