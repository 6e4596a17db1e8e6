"""trinidad.ladder: the ladder page is written by the command, from tournaments it plays."""

from __future__ import annotations

from trinidad.ladder import main, matches


def test_matches_pair_each_rung_with_the_next_and_the_top_but_one_with_randoms():
    assert matches(["random", "greedy", "heuristic", "rollout"]) == [
        (["random", "greedy"], 3), (["greedy", "heuristic"], 3), (["heuristic", "rollout"], 3),
        (["heuristic", "random", "random", "random"], 5)]


def test_the_page_holds_one_row_per_tournament_with_its_command(engine, tmp_path):
    out = tmp_path / "ladder.md"
    assert main(["--games", "8", "--rungs", "random,greedy,heuristic", "--threads", "1", "--write", str(out)]) == 0
    page = out.read_text()
    rows = [line for line in page.splitlines() if line.startswith("| `trinidad tournament")]
    assert [r.split("`")[1] for r in rows] == [
        "trinidad tournament --strategies random,greedy --players 4 --games 8 --seed 3 --json",
        "trinidad tournament --strategies greedy,heuristic --players 4 --games 8 --seed 3 --json",
        "trinidad tournament --strategies greedy,random,random,random --players 4 --games 8 --seed 5 --json"]
    assert all(r.count(" | ") == 4 for r in rows)  # command, A, B, ties, time
    assert "Measured at commit `" in page and "not typed by hand" in page
