"""trinidad.ladder (`trinidad ladder`): every pair of rungs seat-rotated on common seeds, each rung's
Character win rates on the built-in experiment's balanced deals, the agreement between rungs, and
the pages written by the command. Tiny game counts, fast rungs only (the rollout rung is slow)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from trinidad.cli import app
from trinidad.ladder import CharacterRate, agreement, character_rates, measure, play_characters, rates_of
from trinidad.ladder_page import agreement_table
from trinidad.pages import markers
from trinidad.tournament import run_tournament

cli = CliRunner()
RUNGS = ["random", "greedy", "heuristic"]


@pytest.fixture(scope="module")
def small(engine):
    return measure(RUNGS, games=8, character_games=24, seed=3, threads=1)


def test_every_pair_is_played_both_ways_as_the_tournament_plays_it(small):
    assert {(c.row, c.col) for c in small.cells} == {(a, b) for a in RUNGS for b in RUNGS if a != b}
    res = run_tournament(["greedy", "heuristic"], players=4, games=8, seed=3, threads=2)
    for row in ("greedy", "heuristic"):
        col = "heuristic" if row == "greedy" else "greedy"
        assert small.cell(row, col).win_rate == res.stats(row).win_rate
        assert small.cell(row, col).n == res.stats(row).n == 16  # two seats x 8 games
    for a in RUNGS:  # two seats each: a game's win rates sum to one, so a pair's two cells to one half
        for b in RUNGS:
            if a != b:
                assert small.cell(a, b).win_rate + small.cell(b, a).win_rate == pytest.approx(0.5)


def test_character_rates_are_the_runs_on_the_same_deals(small, tmp_path):
    """A rung's Character win rates are those of `trinidad run --players 4 --games N --seed S
    --strategies RUNG` (the built-in experiment, Characters balanced), as the report computes them."""
    from analysis.balance import character_balance
    from analysis.data import load_run
    from trinidad.experiment import load_experiment
    from trinidad.runner.run import run_experiment

    out = tmp_path / "run"
    run_experiment(load_experiment(None, players=4, games=24, seed=3, strategies=["greedy"], out=str(out)), workers=1,
                   progress=False)
    t = character_balance(load_run(out).games.collect())
    report = {r["character"]: r for r in t.df.iter_rows(named=True)}
    rates = small.characters["greedy"]
    assert len(rates) == 12 and all(r.n == 8 for r in rates)  # 24 balanced games: every Character twice at each seat
    for r in rates:
        assert r.win_rate == pytest.approx(report[r.character]["win_rate"])
        assert r.p_holm == pytest.approx(report[r.character]["p_holm"], nan_ok=True)
    assert character_rates("greedy", 24, 3, threads=2) == rates  # the threads change nothing


def test_agreement_carries_the_bootstrap_interval_of_tau_over_the_deals(small):
    for g in small.agreements:
        assert -1.0 <= g.tau_low <= g.tau_high <= 1.0
    games = play_characters("greedy", 24, 3, threads=1)
    assert rates_of(games.chars, games.credit) == small.characters["greedy"]
    same = agreement("greedy", small.characters["greedy"], "again", small.characters["greedy"], games=(games, games))
    assert (same.tau_low, same.tau_high) == pytest.approx((1.0, 1.0))  # paired by deal: every resample agrees
    assert math.isnan(agreement("x", small.characters["greedy"], "y", small.characters["heuristic"]).tau_low)  # no games


def _rates(verdicts: list[str], rates: list[float]) -> list[CharacterRate]:
    return [CharacterRate(f"C{i}", 100, w, w - 0.05, w + 0.05, 0.5, 0.5, v) for i, (v, w) in enumerate(zip(verdicts, rates))]


def test_agreement_names_reversals_and_one_sided_characters():
    a = _rates(["above", "below", "above", "level", "level", "below"], [0.40, 0.10, 0.35, 0.25, 0.24, 0.12])
    b = _rates(["below", "above", "level", "above", "level", "below"], [0.10, 0.40, 0.26, 0.35, 0.24, 0.11])
    g = agreement("x", a, "y", b)
    assert (g.a, g.b) == ("x", "y")
    assert g.reversed == ["C0", "C1"]  # above under one, below under the other
    assert g.only_a == ["C2"] and g.only_b == ["C3"]  # significant under one rung, level under the other
    assert agreement("x", a, "x", a).tau == pytest.approx(1.0) and agreement("x", a, "x", a).reversed == []
    mirrored = _rates(["level"] * 6, [0.5 - r.win_rate for r in a])
    assert agreement("x", a, "z", mirrored).tau == pytest.approx(-1.0)  # paired by Character, not by position in a sort


def test_the_command_prints_and_writes_the_page_the_readme_blocks_and_json(engine, tmp_path):
    readme = tmp_path / "README.md"
    lb, le = markers("ladder")
    cb, ce = markers("characters")
    readme.write_text(f"# Manual\n\n{lb}\nold ladder\n{le}\n\nprose\n\n{cb}\nold characters\n{ce}\n")
    page, js = tmp_path / "ladder.md", tmp_path / "ladder.json"
    # --ai-also greedy: a rung already plays it against the A.I., so none is added (not the default best, which is)
    args = ["ladder", "--rungs", "random,greedy", "--games", "8", "--character-games", "12", "--ai-games", "4", "--threads", "1",
            "--ai-also", "greedy", "--write", str(page), "--readme", str(readme), "--json", str(js)]
    res = cli.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "| **greedy** | " in res.stdout and "| Carpenter | " in res.stdout and "| random / greedy | " in res.stdout
    assert "| strategy | weak | medium | strong | divinity |" in res.stdout and "n = 4 Solo games a cell" in res.stdout
    assert "ladder: random against greedy, 8 games..." in res.stderr  # progress lines, no terminal needed
    text = page.read_text()
    # two matrix cells, two rungs against four A.I. strengths, two rungs' Characters
    assert text.count("| **") == 2 + 2 and text.count("% [") == 2 + 2 * 4 + 2 * 12
    assert "## Each rung against the Solo A.I." in text
    assert "Measured at commit `" in text and "--ai-also '' --games 8 --character-games 12 --ai-games 4 --seed 3" in text
    body = readme.read_text()
    assert "old ladder" not in body and "old characters" not in body and "\n\nprose\n\n" in body
    assert body.count("Measured at commit `") == 2 and body.count("| Noblewoman | ") == 1
    ladder_block = body.split(lb)[1].split(le)[0]
    assert "| strategy | weak | medium | strong | divinity |" in ladder_block  # beside the matrix
    doc = json.loads(js.read_text())
    assert doc["rungs"] == ["random", "greedy"] and len(doc["cells"]) == 2 and len(doc["agreements"]) == 1
    assert len(doc["characters"]["greedy"]) == 12 and doc["aliases"] == {}
    assert doc["ai"]["games"] == 4 and len(doc["ai"]["beats"]) == 2 * 4
    assert sum(b["wins"] + b["ai_wins"] for b in doc["ai"]["beats"]) == 2 * 4 * 4  # every game played has its win


def test_the_ladder_command_writes_its_page(engine, tmp_path):
    page = tmp_path / "ladder.md"
    res = CliRunner().invoke(app, ["ladder", "--rungs", "random,greedy", "--games", "4", "--character-games", "12", "--ai-games", "0",
                                   "--threads", "1", "-q", "--write", str(page)])
    assert res.exit_code == 0, res.output
    assert "| **random** | - | " in page.read_text() and "Solo A.I." not in page.read_text()  # --ai-games 0: none played
    assert CliRunner().invoke(app, ["ladder", "--rungs", "random"]).exit_code == 2


def test_an_alias_rung_is_recorded_with_what_it_named(engine, tmp_path):
    alias = tmp_path / "top.toml"
    alias.write_text('alias = "greedy"\n')
    lad = measure(["random", str(alias)], games=4, character_games=12, seed=3, threads=1)
    assert lad.aliases == {str(alias): "greedy"}
    plain = measure(["random", "greedy"], games=4, character_games=12, seed=3, threads=1)
    assert lad.cell(str(alias), "random").win_rate == plain.cell("greedy", "random").win_rate


def test_the_rungs_against_the_ai_are_the_ai_scale(engine):
    """measure(ai_games=N) is trinidad.ai_scale.measure of the rungs on the ladder's seed: the same
    games as the run records for the report."""
    from trinidad.ai_scale import measure as ai_measure

    lad = measure(["random", "greedy"], games=4, character_games=12, seed=3, threads=1, ai_games=6)
    assert lad.against_ai().beats == ai_measure(["random", "greedy"], 6, 3, threads=2).beats
    assert measure(["random", "greedy"], games=4, character_games=12, seed=3, threads=1).ai is None
    with pytest.raises(ValueError, match="games"):
        measure(["random", "greedy"], games=4, character_games=12, ai_games=-1)


def test_the_ai_table_adds_each_player_no_rung_plays(engine):
    """--ai-also: a player added to the A.I. table plays the rungs' Solo games; one whose Solo player a
    rung (or an earlier addition) already plays is not played twice; the page's command names a
    non-default list, and the default (best) is added to the default rungs, whose Solo players it is not."""
    from trinidad.ai_scale import measure as ai_measure
    from trinidad.ladder import AI_ALSO, RUNGS, ai_players
    from trinidad.ladder_page import command

    assert ai_players(["random", "greedy"], ["greedy", "heuristic", "heuristic"]) == ["random", "greedy", "heuristic"]
    assert ai_players(RUNGS, AI_ALSO) == RUNGS + ["best"] and ai_players(["random", "best"], AI_ALSO) == ["random", "best"]
    lad = measure(["random", "greedy"], games=4, character_games=12, seed=3, threads=1, ai_games=6, ai_also=["heuristic"])
    ai = lad.against_ai()
    assert ai.strategies == ["random", "greedy", "heuristic"]
    alone = ai_measure(["heuristic"], 6, 3, threads=2)
    assert [ai.beat("heuristic", s) for s in ai.strengths] == [alone.beat("heuristic", s) for s in alone.strengths]
    assert "--rungs random,greedy --ai-also heuristic --games 4" in command(lad)
    assert "--ai-also" not in command(measure(["random", "greedy"], games=4, character_games=12, seed=3, threads=1))


def test_a_readme_without_its_markers_fails_before_playing(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# no blocks here\n")
    res = cli.invoke(app, ["ladder", "--rungs", "random,greedy", "--games", "4", "--readme", str(readme)])
    assert res.exit_code == 2 and "ladder:begin" in res.output and "against" not in res.output
    res = cli.invoke(app, ["ladder", "--rungs", "random,nosuch"])
    assert res.exit_code == 2 and "--rungs" in res.output and "best = lab/search" in res.output
    res = cli.invoke(app, ["ladder", "--rungs", "random,greedy", "--ai-also", "nosuch"])
    assert res.exit_code == 2 and "--ai-also" in res.output and "against" not in res.output


def test_the_readme_holds_the_blocks_the_command_writes():
    from pathlib import Path

    from trinidad.ladder import BLOCKS
    from trinidad.pages import replace_block

    text = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for name in BLOCKS:
        assert replace_block(text, name, "x") != text


def test_agreement_pairs_the_deals_to_name_the_characters_that_differ(small):
    """Paired by deal: a rung against itself differs nowhere (p 1, alike tau 1); the pair of the fixture
    carries the permutation p and the alike tau; a table row shows them."""
    games = play_characters("greedy", 24, 3, threads=1)
    same = agreement("greedy", small.characters["greedy"], "again", small.characters["greedy"], games=(games, games))
    assert same.differ == [] and same.p_same == 1.0 and same.tau_same == pytest.approx(1.0)
    g = small.agreements[0]
    assert 0.0 < g.p_same <= 1.0 and -1.0 <= g.tau_same <= 1.0 and len(g.differ) == len(g.differ_points) == len(g.differ_sources)
    assert same.differ_sources == [] and all(s[0]["source"] == "VP" for s in g.differ_sources)
    row = [x for x in agreement_table(small) if x.startswith(f"| {g.a} / {g.b} |")]
    assert len(row) == 1 and f"| {g.tau_same:.2f} |" in row[0] and f"| {g.p_same:.4f} |" in row[0]


def test_where_a_characters_vp_moved_is_read_seat_game_by_seat_game():
    """moved_sources: a planted move of one Character's City VP under the first rung is named first, with the
    paired interval scipy gives; the total leads; the deals must be the same; a differing Character gets a row."""
    from scipy.stats import ttest_rel

    from sim.state import N_VS, VS_NAMES
    from trinidad.ladder import Agreement, Ladder, Played, moved_sources
    from trinidad.ladder_page import sources_table

    rng = np.random.default_rng(7)
    games = 240
    chars = np.stack([rng.permutation(12)[:4] for _ in range(games)])
    vp = rng.normal(20, 3, (games, 4, 1 + N_VS)).round()
    other = vp.copy()
    city, money = 1 + VS_NAMES.index("city"), 1 + VS_NAMES.index("money")
    captain = 7
    other[..., money] += rng.normal(0, 0.5, (games, 4)).round()  # noise on every seat
    vp[..., city] += np.where(chars == captain, 9.0, 0.0)  # the first rung's Captains build 9 VP more City
    vp[..., 0] = vp[..., 1:].sum(axis=2)
    other[..., 0] = other[..., 1:].sum(axis=2)
    credit = np.full((games, 4), 0.25)
    a, b = Played(chars, credit, vp), Played(chars, credit, other)
    got = moved_sources(a, b, captain)
    assert [x["source"] for x in got] == ["VP", "city", "money"]  # the sources that did not move are left out
    m = chars == captain
    assert got[1]["vp"] == pytest.approx(9.0)
    lo, hi = ttest_rel(vp[m][:, city], other[m][:, city]).confidence_interval(0.95)
    assert (got[1]["low"], got[1]["high"]) == pytest.approx((lo, hi))
    assert abs(got[1]["rivals"]) < 1e-12  # the Captain's rivals' City did not move
    assert all(abs(x["vp"]) < 1 for x in moved_sources(a, b, 0)[1:])  # no planted move: only the noise
    # the Carpenter's rivals: the other three seats of each of its games, their mean total VP move, seat by seat
    want = [np.mean([vp[g, t, 0] - other[g, t, 0] for t in range(4) if t != s]) for g, s in zip(*np.nonzero(chars == 0))]
    assert moved_sources(a, b, 0)[0]["rivals"] == pytest.approx(np.mean(want))
    assert np.mean(want) > 0.5  # a Captain beside it in a third of its games: +9 City over three rivals
    with pytest.raises(ValueError, match="not the same deals"):
        moved_sources(a, Played(chars[::-1], credit, other), captain)
    g = Agreement("A", "B", 0.5, 0.1, [], [], [], differ=["Captain"], differ_points=[6.0], differ_sources=[got])
    lad = Ladder(["A", "B"], 0, games, 1, 4, "x", False, "cpu", 0.0, [], {}, [g])
    rows = sources_table(lad)
    assert len(rows) == 3 and rows[2].startswith("| A / B | Captain | +6.0 |") and "city +9.0 [" in rows[2] and "(rivals +0.0)" in rows[2]
    assert sources_table(Ladder(["A", "B"], 0, games, 1, 4, "x", False, "cpu", 0.0, [], {}, [])) == []


def test_a_store_gives_back_the_games_of_the_same_compiled_rung(tmp_path, monkeypatch):
    """--store: the same rung's games are read back, not played again, under any name of the same row; another
    rung, other deals or another count are played."""
    import shutil

    import trinidad.batch
    from strategies.registry import STRATEGY_DIR

    store = tmp_path / "store"
    fresh = play_characters("greedy", 24, 3, threads=1)
    first = play_characters("greedy", 24, 3, threads=1, store=store)
    calls = []
    real = trinidad.batch.play_batch

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(trinidad.batch, "play_batch", counted)
    copy = tmp_path / "greedy-again.toml"
    shutil.copy(STRATEGY_DIR / "greedy.toml", copy)
    for again in (play_characters("greedy", 24, 3, threads=2, store=store), play_characters(str(copy), 24, 3, store=store)):
        assert all(np.array_equal(x, y) for x, y in zip(again, fresh)) and all(np.array_equal(x, y) for x, y in zip(first, fresh))
    assert calls == []  # read back: the threads and the name do not enter the key
    play_characters("heuristic", 24, 3, threads=1, store=store)
    play_characters("greedy", 24, 4, threads=1, store=store)
    play_characters("greedy", 36, 3, threads=1, store=store)
    assert len(calls) == 3


def test_a_store_keeps_the_whole_ladder_so_a_rung_added_plays_only_its_own_games(tmp_path, monkeypatch):
    """--store keeps the pairs' tournaments and the Solo A.I. games as well as the balanced deals: the same ladder
    again plays nothing and reads the same numbers; with a rung added only the games that involve it are played."""
    import trinidad.batch

    store = tmp_path / "store"
    plain = measure(["random", "greedy"], games=8, character_games=12, seed=3, threads=1, ai_games=4, ai_also=[])
    kept = measure(["random", "greedy"], games=8, character_games=12, seed=3, threads=1, ai_games=4, ai_also=[], store=store)
    played = []
    real = trinidad.batch.play_batch

    def counted(rules, W, n_players, seeds, strategies, *a, **k):
        played.append((n_players, len(W)))
        return real(rules, W, n_players, seeds, strategies, *a, **k)

    monkeypatch.setattr(trinidad.batch, "play_batch", counted)
    again = measure(["random", "greedy"], games=8, character_games=12, seed=3, threads=2, ai_games=4, ai_also=[], store=store)
    assert played == []  # every game read back, on other threads too
    from trinidad.ladder_page import provenance

    assert (plain.games_read, plain.games_played) == (0, -1) and kept.games_read == 0 and kept.games_played > 0
    assert (again.games_read, again.games_played) == (kept.games_played, 0)
    # the page says so: its seconds are not what the games cost
    assert "read back" not in provenance(kept) and f"{kept.games_played:,} of its {kept.games_played:,} games read back" in provenance(again)
    for lad in (kept, again):
        assert lad.cells == plain.cells
        for part in ("characters", "agreements", "ai"):  # through JSON: a NaN (a tau of level rates) equals itself there
            same = [json.dumps(x.to_dict()[part] if part != "ai" else x.to_dict()[part]["beats"]) for x in (lad, plain)]
            assert same[0] == same[1]
    more = measure(["random", "greedy", "heuristic"], games=8, character_games=12, seed=3, threads=1, ai_games=4,
                   ai_also=[], store=store)
    strengths = len(plain.against_ai().strengths)
    # the two new pairs (4 players, two rows each), heuristic's balanced deals (one row) and its Solo games
    assert sorted(played) == sorted([(4, 2)] * 2 + [(4, 1)] + [(2, 1)] * strengths)
    assert more.cell("random", "greedy") == plain.cell("random", "greedy")
    assert more.games_read == kept.games_played and more.games_played == 2 * 8 + 12 + 4 * strengths
