"""`trinidad tune` and trinidad/train/heuristic.py: the ES on a synthetic noisy objective (no engine), the
common-random-number lineups, determinism of a real tuning run, the written strategy TOML, and the CLI."""

from __future__ import annotations

import json
import tomllib

import numpy as np
import pytest
from typer.testing import CliRunner

from strategies.registry import CHARACTER_KEYS, load_strategies
from trinidad.cli import app
from trinidad.train.heuristic import HIGH, LOW, TUNABLE, TuneError, block_slice, character_index, es_optimize, es_plan, lineups, tune, write_strategy

cli = CliRunner()
TARGET = np.linspace(-1.0, 2.0, len(TUNABLE))


def _noisy_quadratic(noise: float):
    """-|x - TARGET|^2 plus noise common to a generation (as common random numbers share deals) and a
    smaller per-candidate part."""

    def fitness(X: np.ndarray, g: int) -> np.ndarray:
        rng = np.random.default_rng(1000 + g)
        return -np.sum((X - TARGET) ** 2, axis=1) + rng.normal(0, noise) + rng.normal(0, 0.2 * noise, len(X))

    return fitness


def test_es_improves_a_noisy_quadratic():
    """In the tuned dimension (65: the 17 features and the named coefficients) the ES needs about
    2.5x the evaluations it needed for the 17 features alone (180 -> 450 to cut the distance to a
    fifth)."""
    x0 = np.zeros(len(TUNABLE))
    d0 = np.sum((x0 - TARGET) ** 2)
    res = es_optimize(_noisy_quadratic(1.0), x0, budget=450, seed=3)
    assert res.evaluations <= 450 and len(res.history) == es_plan(450)[1]
    assert np.sum((res.x - TARGET) ** 2) < 0.2 * d0
    longer = es_optimize(_noisy_quadratic(1.0), x0, budget=900, seed=3)
    assert np.sum((longer.x - TARGET) ** 2) < np.sum((res.x - TARGET) ** 2)


def test_tunable_is_every_weight_a_strategy_file_sets(tmp_path):
    """TUNABLE: the features but ``family`` and every named valuation coefficient (strategies.policy
    K), in W slot order, so block_slice reads them by name; the vote model's parameters are not
    tuned."""
    from strategies.policy import COEFFICIENTS, FEATURES, PARAMETERS, K

    assert TUNABLE == FEATURES[1:] + COEFFICIENTS and len(TUNABLE) == 17 + len(K)
    assert not set(PARAMETERS) & set(TUNABLE)
    p = tmp_path / "h.toml"
    p.write_text('family = "heuristic"\n[weights]\nvp = 1.5\n[characters.Merchant]\nremove_city = 4.0\ncharacter = 0.7\n')
    W, _ = load_strategies([str(p)])
    c = character_index("Merchant")
    x = dict(zip(TUNABLE, W[0, block_slice(c)]))
    assert x["remove_city"] == 4.0 and x["character"] == 0.7 and x["vp"] == 1.5 and x["lot_base"] == 1.0


def test_es_is_deterministic_and_bounded():
    far = np.full(len(TUNABLE), 40.0)

    def fitness(X, g):  # pulls towards +inf: every candidate must stay clipped
        assert np.all(X >= LOW) and np.all(X <= HIGH)
        return X.sum(axis=1)

    a = es_optimize(fitness, far, budget=30, seed=7)
    b = es_optimize(fitness, far, budget=30, seed=7)
    assert np.array_equal(a.x, b.x) and np.all(a.x <= HIGH) and np.all(a.x >= LOW)
    assert not np.array_equal(a.x, es_optimize(_noisy_quadratic(0.1), np.zeros(len(TUNABLE)), 30, seed=8).x)


def test_plan_and_arguments():
    assert es_plan(4) == (2, 1) and es_plan(40) == (8, 4) and es_plan(9) == (8, 1)
    with pytest.raises(TuneError, match="^budget"):
        es_plan(2)
    with pytest.raises(TuneError, match="^character: .*" + ", ".join(CHARACTER_KEYS)):
        character_index("Pirate")
    assert character_index("merchant") == CHARACTER_KEYS.index("Merchant")


def test_lineups_share_deals_and_rotate_the_tuned_seat():
    c = character_index("Merchant")
    seeds, seat, pool, chars = lineups(5, 4, 10, 40, c, 2)
    assert np.array_equal(seat, np.arange(10, 50) % 4)
    rows = np.arange(40)
    assert np.all(chars[rows, seat] == c) and np.all(pool[rows, seat] == -1)
    assert all(len(set(r)) == 4 for r in chars.tolist())
    others = np.ones_like(pool, bool)
    others[rows, seat] = False
    assert np.all((pool[others] >= 0) & (pool[others] < 2)) and np.all(chars[others] != c)
    again = lineups(5, 4, 10, 40, c, 2)
    assert all(np.array_equal(x, y) for x, y in zip((seeds, seat, pool, chars), again))
    from sim.rng import player_seeds

    assert np.array_equal(seeds, player_seeds(5, 4, 10, 40))


@pytest.fixture(scope="module")
def tuned(engine):
    rules, _ = engine
    return tune("Merchant", games=8, budget=3, seed=5, rules=rules)


def test_same_seed_same_tuned_weights(engine, tuned):
    rules, _ = engine
    again = tune("merchant", games=8, budget=3, seed=5, rules=rules)
    assert again.weights == tuned.weights and again.before == tuned.before and again.after == tuned.after
    assert tuned.search_games == (0, 8) and tuned.final_games == (8, 40) and tuned.before["n"] == 32
    assert all(LOW <= v <= HIGH for v in tuned.weights.values()) and list(tuned.weights) == TUNABLE


def test_written_toml_loads_and_plays(engine, tuned, tmp_path):
    rules, _ = engine
    p = write_strategy(tuned, tmp_path / "sub" / "heuristic-merchant.toml")
    assert p.exists() and tuned.out == str(p)
    text = p.read_text()
    header = [ln for ln in text.splitlines() if ln.startswith("#")]
    assert any("Merchant" in ln for ln in header) and any("seed = 5" in ln for ln in header)
    assert any(ln.startswith("# before") and f"{tuned.before['win_rate']:.1%}" in ln for ln in header)
    assert any(ln.startswith("# after") and f"{tuned.after['win_rate']:.1%}" in ln for ln in header)
    assert tomllib.loads(text)["characters"]["Merchant"] == pytest.approx(tuned.weights)
    W, names = load_strategies([str(p), "heuristic"])
    c = character_index("Merchant")
    assert np.allclose(W[0, block_slice(c)], list(tuned.weights.values()))
    others = [i for i in range(len(CHARACTER_KEYS)) if i != c]
    assert all(np.array_equal(W[0, block_slice(i)], W[1, block_slice(i)]) for i in others)  # the rest is heuristic.toml
    from sim.records import RG
    from strategies.match import run_game

    st = run_game(rules, W, 4, 3, [0, 1, 0, 1])
    assert st.rec_game[:4, RG.WINNER].sum() >= 1


def test_cli_json(engine, tmp_path):
    out = tmp_path / "t.toml"
    r = cli.invoke(app, ["tune", "--character", "Merchant", "--budget", "4", "--games", "40", "--seed", "2",
                         "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert set(d) == {"character", "before", "after", "out", "games", "budget", "seed"}
    assert d["character"] == "Merchant" and d["games"] == 40 and d["budget"] == 4 and d["seed"] == 2
    assert d["out"] == str(out) and out.exists()
    for k in ("before", "after"):
        assert set(d[k]) == {"win_rate", "ci_low", "ci_high", "n"} and d[k]["n"] == 160
        assert d[k]["ci_low"] <= d[k]["win_rate"] <= d[k]["ci_high"]
    load_strategies([str(out)])


@pytest.mark.parametrize("args,start", [
    (["--character", "Pirate"], "--character: unknown Character 'Pirate'; allowed: " + ", ".join(CHARACTER_KEYS)),
    ([], "--character: required"),
    (["--character", "Merchant", "--budget", "2"], "--budget:"),
    (["--character", "Merchant", "--games", "0"], "--games:"),
    (["--character", "Merchant", "--players", "7"], "--players:"),
    (["--character", "Merchant", "--pool", "nosuch"], "--pool: strategy nosuch: not found"),
    (["--character", "Merchant", "--out", "x.txt"], "--out:"),
])
def test_cli_errors_are_one_line_naming_the_option(args, start, tmp_path):
    if "--out" not in args:
        args = args + ["--out", str(tmp_path / "x.toml")]
    r = cli.invoke(app, ["tune", *args])
    assert r.exit_code == 2
    assert r.stderr.startswith(start) and r.stderr.count("\n") == 1, r.stderr
