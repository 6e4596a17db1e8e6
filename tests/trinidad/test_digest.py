"""trinidad.digest: a run's content digest is the same for the same games however the run was
split, and differs when one game differs."""

from __future__ import annotations

import polars as pl
from typer.testing import CliRunner

from trinidad.cli import app
from trinidad.digest import run_digest, table_digest
from trinidad.experiment import experiment_from_dict
from trinidad.runner.run import run_experiment


def _run(out, **kw):
    d = {"name": "t", "players": [3], "games": 10, "seed": 4, "out": str(out), "shard_games": 5,
         "seats": {"strategies": ["greedy", "random"], "assign": "rotate"}, "characters": {"assign": "balanced"}}
    d.update(kw)
    run_experiment(experiment_from_dict(d), workers=1, progress=False)
    return out


def test_digest_ignores_sharding_and_sees_one_changed_value(engine, tmp_path):
    a = _run(tmp_path / "a", shard_games=3)
    b = _run(tmp_path / "b", shard_games=10)
    assert run_digest(a) == run_digest(b)
    assert run_digest(a) != run_digest(_run(tmp_path / "c", seed=5))
    # one VP changed in one shard file changes the games digest, not the decades digest
    f = sorted((b / "games").glob("*.parquet"))[0]
    df = pl.read_parquet(f)
    df.with_columns(pl.when(pl.int_range(pl.len()) == 0).then(pl.col("vp") + 1).otherwise(pl.col("vp")).alias("vp")).write_parquet(f)
    assert table_digest(b, "games") != table_digest(a, "games")
    assert table_digest(b, "decades") == table_digest(a, "decades")


def test_runs_digest_command(engine, tmp_path):
    a = _run(tmp_path / "a")
    res = CliRunner().invoke(app, ["runs", "digest", str(a)])
    assert res.exit_code == 0, res.output
    dg = run_digest(a)
    assert res.output.strip() == f"{a}: games {dg['games']}  decades {dg['decades']}"
    res = CliRunner().invoke(app, ["runs", "digest", str(tmp_path / "none")])
    assert res.exit_code == 2
    assert res.output.strip() == f"runs digest: {tmp_path / 'none'}: no manifest.json (not a run directory)"


def test_save_with_families_updates_only_those_entries(tmp_path, monkeypatch):
    """`--save FILE --families X` rewrites X's entry of an existing file and keeps the others;
    without --families the file is the whole suite's digests."""
    import json

    import trinidad.digest as dg

    f = tmp_path / "d.json"
    f.write_text(json.dumps({"random": {"games": "a", "decades": "b"}, "ai": {"games": "old", "decades": "old"}}))
    monkeypatch.setattr(dg, "suite", lambda tmp, fams: {k: {"games": "new", "decades": "new"} for k in (fams or ["random"])})
    assert dg.main(["--save", str(f), "--families", "ai"]) == 0
    assert json.loads(f.read_text()) == {"random": {"games": "a", "decades": "b"}, "ai": {"games": "new", "decades": "new"}}
    assert dg.main(["--save", str(f)]) == 0
    assert json.loads(f.read_text()) == {"random": {"games": "new", "decades": "new"}}


def test_a_digest_on_the_first_columns_is_the_digest_of_the_narrower_table(engine, tmp_path):
    """Record columns are appended: a table digested on its first k columns digests as the same
    table written with those k columns only (what an older build wrote)."""
    import json
    import shutil

    from trinidad.digest import digest_width

    a = _run(tmp_path / "a")
    old = tmp_path / "old"
    shutil.copytree(a, old)
    for f in sorted((old / "games").glob("*.parquet")):
        df = pl.read_parquet(f)
        df.select(df.columns[:35]).write_parquet(f)
    assert table_digest(a, "games", 35) == table_digest(old, "games")
    assert digest_width(table_digest(a, "games", 35)) == 35 < digest_width(table_digest(a, "games"))
    assert table_digest(a, "games", 10_000) == table_digest(a, "games")
    assert run_digest(a, {"games": 35})["decades"] == run_digest(a)["decades"]
    json.dumps(run_digest(a))


def test_check_compares_the_columns_the_saved_digests_cover(tmp_path, monkeypatch, capsys):
    import json

    import trinidad.digest as dg

    f = tmp_path / "d.json"
    saved = {"random": {"games": "aaa (10 rows, 35 cols)", "decades": "bbb (10 rows, 150 cols)"}}
    f.write_text(json.dumps(saved))
    seen = {}

    def fake_suite(tmp, fams, widths=None):
        seen["widths"] = widths
        return {"random": dict(saved["random"])}

    monkeypatch.setattr(dg, "suite", fake_suite)
    monkeypatch.setattr(dg, "run_digest", lambda d: {"games": "ccc (10 rows, 78 cols)", "decades": "ddd (10 rows, 151 cols)"})
    assert dg.main(["--check", str(f)]) == 0
    assert seen["widths"] == {"random": {"games": 35, "decades": 150}}
    out = capsys.readouterr().out
    assert out.startswith("same games") and "not compared: decades 1, games 43" in out
    monkeypatch.setattr(dg, "suite", lambda tmp, fams, widths=None: {"random": {"games": "eee (10 rows, 35 cols)",
                                                                                "decades": "bbb (10 rows, 150 cols)"}})
    assert dg.main(["--check", str(f)]) == 1
    assert "DIFFERENT GAMES:\nrandom: games aaa (10 rows, 35 cols) -> eee (10 rows, 35 cols)" in capsys.readouterr().out
