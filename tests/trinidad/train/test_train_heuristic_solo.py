"""`trinidad tune --ai` and trinidad/train/heuristic_solo.py: the shifted weight blocks, the Solo games every
candidate shares, determinism on 1 and 2 threads, the written strategy file, the games it never
shares with the A.I. tables, the CLI; and an alias file's ``solo`` name (strategies.registry.resolve)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from sim.state import N_CHARACTERS
from strategies.registry import CHARACTER_KEYS, StrategyError, load_strategies, resolve
from strategies.weights import N_WEIGHTS
from trinidad.cli import app
from trinidad.train.heuristic import TUNABLE, TuneError
from trinidad.train.heuristic_solo import SHIFTED, TUNE_FIRST, play_solo, shifted_rows, solo_lineups, tune_solo, write_strategy

cli = CliRunner()


def test_a_shift_moves_every_block_but_the_extended_war_coefficients():
    W, _ = load_strategies(["heuristic"])
    x = np.linspace(-1, 1, len(TUNABLE))
    row = shifted_rows(W[0], x[None, :])[0]
    assert not SHIFTED.all() and SHIFTED.sum() == sum(not k.startswith("xw_") for k in TUNABLE)
    for b in range(1 + N_CHARACTERS):
        sl = slice(N_WEIGHTS * b + 1, N_WEIGHTS * b + 1 + len(TUNABLE))
        assert np.allclose(row[sl] - W[0, sl], np.where(SHIFTED, x, 0.0))
        assert row[N_WEIGHTS * b] == W[0, N_WEIGHTS * b]  # the family slot stays
    rest = np.ones(row.shape, bool)
    for b in range(1 + N_CHARACTERS):
        rest[N_WEIGHTS * b + 1:N_WEIGHTS * b + 1 + len(TUNABLE)] = False
    assert np.array_equal(row[rest], W[0, rest])  # parameters and the search block untouched


def test_lineups_are_fixed_by_their_arguments_and_far_from_the_ai_tables():
    from sim.rng import player_seeds

    a = solo_lineups(3, 0, 0, 50)
    b = solo_lineups(3, 0, 0, 50)
    assert all(np.array_equal(x, y) for x, y in zip(a, b))
    assert not np.array_equal(a[0], solo_lineups(3, 1, 0, 50)[0])  # each strength its own games
    assert 10 < a[1].sum() < 40 and len(set(a[2].tolist())) > 6  # both seats, many Characters
    # trinidad.ai_scale plays game indices 0.. of player_seeds(seed, 2, ...): none of them here
    assert not set(a[0].tolist()) & set(player_seeds(3, 2, 0, 5000).tolist())
    assert TUNE_FIRST > 100_000


@pytest.fixture(scope="module")
def tuned(engine):
    return tune_solo("heuristic", ["weak", "medium"], games=6, budget=3, seed=4, threads=1)


def test_same_seed_same_shift_on_any_threads(engine, tuned):
    again = tune_solo("heuristic", ["weak", "medium"], games=6, budget=3, seed=4, threads=2)
    assert again.shift == tuned.shift and again.before == tuned.before and again.after == tuned.after
    assert list(tuned.shift) == TUNABLE and all(abs(v) <= 2.0 for v in tuned.shift.values())
    assert all(tuned.shift[k] == 0.0 for k in TUNABLE if k.startswith("xw_"))
    assert set(tuned.before) == {"weak", "medium"} and tuned.before["weak"]["n"] == 24  # 4 x games, fresh


def test_candidates_share_their_games(engine):
    """Common random numbers: two copies of one strategy play the very same games."""
    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc

    rules = [rules_from_doc(apply_overrides(load_rules_doc(None), {"solo": {"strength": "weak"}}))]
    W, _ = load_strategies(["heuristic"])
    w, m = play_solo(rules, np.vstack([W[0], W[0], shifted_rows(W[0], np.full((1, len(TUNABLE)), 1.5))[0]]), 4, 0, 12)
    assert np.array_equal(w[0], w[1]) and np.array_equal(m[0], m[1])
    assert not np.array_equal(m[0], m[2])  # a shifted strategy plays differently


def test_written_file_loads_to_the_shifted_rows(engine, tuned, tmp_path):
    p = write_strategy(tuned, tmp_path / "heuristic-solo.toml")
    text = p.read_text()
    assert "trinidad tune --ai weak,medium --base heuristic --games 6 --budget 3 --seed 4" in text
    assert f"{tuned.before['weak']['win_rate']:.1%}" in text and f"{tuned.after['medium']['win_rate']:.1%}" in text
    W, _ = load_strategies([str(p), "heuristic"])
    want = shifted_rows(W[1], np.array([[tuned.shift[k] for k in TUNABLE]]))[0]
    assert np.allclose(W[0, :N_WEIGHTS * (1 + N_CHARACTERS)], want[:N_WEIGHTS * (1 + N_CHARACTERS)], atol=1e-3)


def _tune_json(out, *args) -> dict:
    """`trinidad tune --ai weak ARGS --budget 3 --out OUT --threads 1 --json`, its JSON."""
    r = cli.invoke(app, ["tune", "--ai", "weak", *args, "--budget", "3", "--out", str(out), "--threads", "1", "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_cli(engine, tmp_path):
    out = tmp_path / "s.toml"
    d = _tune_json(out, "--games", "5", "--seed", "2")
    assert d["strengths"] == ["weak"] and d["out"] == str(out) and out.exists()
    assert set(d["after"]["weak"]) == {"win_rate", "ci_low", "ci_high", "n"}
    r = cli.invoke(app, ["tune", "--ai", "feeble", "--out", str(out)])
    assert r.exit_code == 2 and r.stderr.startswith("--ai: give A.I. strengths among weak, medium, strong, divinity")
    with pytest.raises(TuneError, match="base: random must be"):
        tune_solo("random", ["weak"], games=2, budget=3)


def test_an_alias_may_name_another_player_against_the_ai(tmp_path):
    p = tmp_path / "champ.toml"
    p.write_text('alias = "search"\nsolo = "heuristic"\n')
    assert resolve(str(p)) == "search" and resolve(str(p), solo=True) == "heuristic"
    W4, _ = load_strategies([str(p)])
    W1, _ = load_strategies([str(p)], solo=True)
    H, _ = load_strategies(["search", "heuristic"])
    assert np.array_equal(W4[0], H[0]) and np.array_equal(W1[0], H[1])
    q = tmp_path / "plain.toml"
    q.write_text('alias = "heuristic"\n')
    assert resolve(str(q), solo=True) == "heuristic"  # no solo name: the alias everywhere
    bad = tmp_path / "bad.toml"
    bad.write_text('alias = "search"\nsolo = 3\n')
    with pytest.raises(StrategyError, match="solo: expected the name of another strategy"):
        resolve(str(bad))


# Per Character (``--character``): each Character's own shift of its own table, on its own games.

def test_a_block_shift_moves_that_table_alone():
    W, _ = load_strategies(["heuristic"])
    x = np.linspace(-1, 1, len(TUNABLE))[None, :]
    c = CHARACTER_KEYS.index("Architect")
    row = shifted_rows(W[0], x, block=1 + c)[0]
    sl = slice(N_WEIGHTS * (1 + c) + 1, N_WEIGHTS * (1 + c) + 1 + len(TUNABLE))
    assert np.allclose(row[sl] - W[0, sl], np.where(SHIFTED, x[0], 0.0))
    rest = np.ones(row.shape, bool)
    rest[sl] = False
    assert np.array_equal(row[rest], W[0, rest])


def test_a_characters_games_are_its_own():
    c = CHARACTER_KEYS.index("Governor")
    seeds, seat, chars = solo_lineups(3, 0, 0, 40, character=c)
    assert (chars == c).all() and 5 < seat.sum() < 35
    assert np.array_equal(seeds, solo_lineups(3, 0, 0, 40, character=c)[0])
    others = [solo_lineups(3, 0, 0, 40)[0], solo_lineups(3, 0, 0, 40, character=c + 1)[0],
              solo_lineups(3, 1, 0, 40, character=c)[0]]
    assert not any(set(seeds.tolist()) & set(o.tolist()) for o in others)


def test_a_solo_game_reads_only_its_players_table(engine):
    """Why the 12 searches are independent: shifting another Character's table changes no game of
    this Character, shifting its own does."""
    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc

    rules = [rules_from_doc(apply_overrides(load_rules_doc(None), {"solo": {"strength": "weak"}}))]
    W, _ = load_strategies(["heuristic"])
    c = CHARACTER_KEYS.index("Bishop")
    x = np.full((1, len(TUNABLE)), 1.5)
    rows = np.vstack([W[0], shifted_rows(W[0], x, block=1 + (c + 3) % N_CHARACTERS)[0],
                      shifted_rows(W[0], x, block=0)[0], shifted_rows(W[0], x, block=1 + c)[0]])
    w, m = play_solo(rules, rows, 5, 0, 16, character=c)
    assert np.array_equal(m[0], m[1]) and np.array_equal(m[0], m[2])  # another table, the [weights] block
    assert not np.array_equal(m[0], m[3])


@pytest.fixture(scope="module")
def tuned_by_character(engine):
    return tune_solo("heuristic", ["weak"], games=4, budget=3, seed=4, threads=1, characters=["Governor", "Architect"])


def test_per_character_tuning_shifts_each_table_by_its_own_search(engine, tuned_by_character, tmp_path):
    res = tuned_by_character
    assert list(res.characters) == ["Architect", "Governor"]  # the rulebook's order
    assert all(v == 0.0 for v in res.shift.values())
    for t in res.characters.values():
        assert t.before["weak"]["n"] == 16 and any(v != 0.0 for v in t.shift.values())
    assert res.before["weak"]["n"] == 32  # the Characters' checks pooled
    again = tune_solo("heuristic", ["weak"], games=4, budget=3, seed=4, threads=2, characters=["Architect", "Governor"])
    assert {c: t.shift for c, t in again.characters.items()} == {c: t.shift for c, t in res.characters.items()}
    p = write_strategy(res, tmp_path / "per-char.toml")
    text = p.read_text()
    assert "--character Architect,Governor --games 4 --budget 3 --seed 4" in text and "#   Governor: weak" in text
    W, _ = load_strategies([str(p), "heuristic"])
    n = N_WEIGHTS * (1 + N_CHARACTERS)
    assert np.allclose(W[0, :n], res.row(W[1])[:n], atol=1e-3)
    moved = [b for b in range(1 + N_CHARACTERS) if not np.allclose(W[0, N_WEIGHTS * b:N_WEIGHTS * (b + 1)],
                                                                    W[1, N_WEIGHTS * b:N_WEIGHTS * (b + 1)], atol=1e-3)]
    assert moved == [1 + CHARACTER_KEYS.index("Architect"), 1 + CHARACTER_KEYS.index("Governor")]


def test_cli_per_character(engine, tmp_path):
    out = tmp_path / "s.toml"
    d = _tune_json(out, "--character", "Bishop", "--games", "3")
    assert list(d["characters"]) == ["Bishop"] and d["characters"]["Bishop"]["after"]["weak"]["n"] == 12
    r = cli.invoke(app, ["tune", "--ai", "weak", "--character", "Pirate", "--out", str(out)])
    assert r.exit_code == 2 and r.stderr.startswith("--character: give Characters among")
    with pytest.raises(TuneError, match="each once"):
        tune_solo("heuristic", ["weak"], games=2, budget=3, characters=["Bishop", "Bishop"])


def test_the_shipped_per_character_file_moved_the_character_tables_alone():
    """strategies/lab/heuristic-solo-chars.toml (`trinidad tune --ai weak,medium --base heuristic-solo
    --character all ...`, its header): heuristic-solo's [weights] block, every Character table its own."""
    W, _ = load_strategies(["lab/heuristic-solo-chars", "heuristic-solo"])
    head = slice(0, N_WEIGHTS)
    assert np.allclose(W[0, head], W[1, head], atol=1e-3)
    for c in range(N_CHARACTERS):
        sl = slice(N_WEIGHTS * (1 + c) + 1, N_WEIGHTS * (1 + c) + 1 + len(TUNABLE))
        d = W[0, sl] - W[1, sl]
        assert np.abs(d).max() > 0.01 and np.allclose(d[~SHIFTED], 0.0), CHARACTER_KEYS[c]


# ``--perturb``: a share of the tuning games with the player forced to one option, then free.

def test_forced_options_are_their_own_stream():
    from trinidad.probe import OPTIONS
    from trinidad.train.heuristic_solo import forced_options

    assert not forced_options(3, 0, 0, 50, 0.0).any()
    f = forced_options(3, 0, 0, 400, 0.5)
    assert np.array_equal(f, forced_options(3, 0, 0, 400, 0.5))
    assert 150 < (f > 0).sum() < 250 and f.max() <= len(OPTIONS) and len(set(f[f > 0].tolist())) > len(OPTIONS) // 2


def test_perturbed_games_differ_only_where_the_player_was_forced(engine):
    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc
    from trinidad.train.heuristic_solo import forced_options

    rules = [rules_from_doc(apply_overrides(load_rules_doc(None), {"solo": {"strength": "weak"}}))]
    W, _ = load_strategies(["heuristic-solo"])
    rows = np.vstack([W[0], W[0]])
    w0, m0 = play_solo(rules, rows, 6, 0, 40)
    w1, m1 = play_solo(rules, rows, 6, 0, 40, perturb=0.5)
    f = forced_options(6, 0, 0, 40, 0.5)
    assert np.array_equal(m1[0], m1[1])  # the rows share their games and their forced options
    assert np.array_equal(m1[0, f == 0], m0[0, f == 0])  # a game nobody was forced in is the same game
    assert not np.array_equal(m1[0, f > 0], m0[0, f > 0])
    with pytest.raises(TuneError, match="perturb: a share"):
        tune_solo("heuristic", ["weak"], games=2, budget=3, perturb=1.5)
