"""analysis.data: the report in bounded memory: tables made of sums read a run a shard at a time
(analysis.data.Games) and give the same numbers as the whole table; the per-game tables use a
fixed random subset of game indices (Run.subset)."""

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analysis import analyze, balance, load_run, scores
from analysis.synthetic import write_synthetic_run


@pytest.fixture(scope="module")
def split_run(tmp_path_factory):
    """A synthetic run whose games table is cut into three shard files (by game index)."""
    run = write_synthetic_run(tmp_path_factory.mktemp("split") / "run", games=900, players=(3, 4), strategies=("a", "b"),
                              advantage={"Captain": 0.06}, seed=9)
    for f in sorted((run / "games").glob("*.parquet")):
        df = pl.read_parquet(f)
        f.unlink()
        for k in range(3):
            df.filter(pl.col("game") // 300 == k).write_parquet(f.with_name(f"{f.stem}-{k}.parquet"))
    return run


@pytest.mark.parametrize("fn", [balance.character_balance, balance.finishes_above, scores.score_distribution, scores.vp_split,
                                lambda g: balance.seat_balance(g)[0], lambda g: balance.strategy_balance(g)[1]])
def test_a_shard_at_a_time_gives_the_same_tables(split_run, fn):
    run = load_run(split_run)
    assert len(run.shards()) == 6
    whole = fn(run.games_of().collect()).df
    chunked = fn(run.all_games()).df
    key = [c for c in whole.columns if whole[c].dtype in (pl.String, pl.Categorical) or isinstance(whole[c].dtype, pl.Enum)]
    norm = [pl.col(c).cast(pl.String) for c in key]
    assert_frame_equal(whole.with_columns(norm).sort([*key, "players"] if "players" in whole.columns else key),
                       chunked.with_columns(norm).sort([*key, "players"] if "players" in chunked.columns else key),
                       check_dtypes=False, rel_tol=1e-9)


def test_per_game_tables_use_a_fixed_subset(split_run):
    run = load_run(split_run)
    sub = run.subset(200)
    assert sub.detail == 200 and run.subset(5000) is run
    games = sub.games_of().select("players", "game").unique().collect()
    assert games.group_by("players").len()["len"].to_list() == [200, 200]
    # the same game indices for every player count, and again on a second call
    again = run.subset(200).games_of().select("game").unique().collect()["game"].sort()
    assert games.filter(pl.col("players") == 3)["game"].sort().to_list() == again.to_list()
    a = analyze(run, detail_games=200, rating_games=500)
    assert "random 200 of the run's 900 game indices" in a.section("eras").intro
    # win rates use every game, the Era tables the subset
    assert a.section("characters").table("character_balance").df.filter(pl.col("players") == 4)["n"].sum() == 900 * 4
    traj = a.section("eras").table("trajectories").df
    assert traj.filter((pl.col("players") == 4) & (pl.col("decade") == 1))["n"].sum() == 200 * 4
