"""One harness for two games (issue 97): a Río de la Plata experiment is read by the same front door as
Trinidad's (trinidad.experiment, trinidad.games) with one line per bad input; ``trinidad run`` plays it
through the same runner (shards, writer, manifest, resume) into its own tables; ``trinidad runs
summarize`` and ``trinidad report`` read it with its own lines and sections in the same report frame.

The run test is tiny (8 games of 3 and 4 players, heuristic and random): the Río de la Plata engine
compiles in a minute or two the first time."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from trinidad.cli import app
from trinidad.experiment import ExperimentError, experiment_from_dict, load_experiment

ROOT = Path(__file__).resolve().parents[3]
RIO = "rio-de-la-plata"
cli = CliRunner()


def _doc(**kw) -> dict:
    return {"game": RIO, "name": "r", "players": [3, 4], "games": 4, "seed": 3, "shard_games": 2,
            "seats": {"strategies": ["heuristic", "random"], "assign": "rotate"}} | kw


def _one_line(output: str) -> str:
    lines = [x for x in output.strip().splitlines() if x.strip()]
    assert len(lines) == 1, output
    return lines[0]


# ----------------------------------------------------------------------------- reading the experiment


def test_a_rio_experiment_is_read_by_the_front_door():
    e = experiment_from_dict(_doc(level=["beginner", "expert"], short=[False, True],
                                  variants=[{"name": "base"}, {"name": "no-fine", "overrides": {"office": {"fine_vp": 0}}}]))
    assert type(e).GAME == RIO and e.players == [3, 4] and e.strategies == ["heuristic", "random"]
    # the declared variants crossed with the levels and the game's length, named as the A.I.'s strengths are
    assert [v.name for v in e.variants][:4] == ["base-beginner-full", "base-beginner-short", "base-expert-full", "base-expert-short"]
    assert [(v.level, v.short) for v in e.variants][-1] == ("expert", True) and e.variants[-1].overrides == {"office": {"fine_vp": 0}}
    docs = e.resolved_rules_docs()
    assert docs[-1]["office"]["fine_vp"]["value"] == 0 and docs[0]["office"]["fine_vp"]["value"] != 0
    one = experiment_from_dict(_doc(level="beginner"))
    assert [v.name for v in one.variants] == ["base"] and one.variants[0].level == "beginner"
    assert [v.name for v in experiment_from_dict(_doc(level=["beginner", "expert"])).variants] == ["beginner", "expert"]
    # rotate: every player at every seat, as Trinidad's seats mean
    strat = e.seat_strategies(3, np.arange(3))
    assert strat.tolist() == [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    # the shipped example loads through the front door, as every shipped experiment does
    ex = load_experiment(ROOT / "trinidad" / "experiments" / "rio-default.toml")
    assert type(ex).GAME == RIO and ex.games > 0
    assert type(load_experiment(None, game=RIO)).GAME == RIO  # --game with no file: the game's built-in experiment


def test_the_record_reads_back_as_the_same_experiment():
    from trinidad.runner.manifest import experiment_record

    e = experiment_from_dict(_doc(level=["intermediate", "expert"], short=True, rules={"overrides": {"office": {"fine_vp": -3}}}))
    rec = experiment_record(e)
    assert rec["game"] == RIO
    assert experiment_from_dict(json.loads(json.dumps(rec))).to_dict() == e.to_dict()


BAD = [
    ({"level": "pro"}, ["level", "beginner, intermediate, expert"]),
    ({"level": ["expert", "expert"]}, ["level", "distinct"]),
    ({"short": "yes"}, ["short", "true or false"]),
    ({"characters": {"assign": "balanced"}}, ["characters", "Trinidad's"]),
    ({"ai": {"strength": "weak"}}, ["ai", "Trinidad's"]),
    ({"ai_games": 2}, ["ai_games", "Trinidad's"]),
    ({"extended_war": True}, ["extended_war", "Trinidad's"]),
    ({"game": "monopoly"}, ["game", "monopoly", "trinidad, rio-de-la-plata"]),
    ({"rules": {"overrides": {"setup": {"start_wood": 3}}}}, ["rules", "setup.start_wood", "Trinidad rule"]),
    ({"variants": [{"name": "x", "overrides": {"office": {"fine_vp": 2}}}]}, ["variants[x].overrides", "office.fine_vp"]),
    ({"seats": {"strategies": ["greedy"]}}, ["seats.strategies", "greedy", "heuristic"]),
    ({"seats": {"strategies": ["search:budget=2", "search:budget=3"]}}, ["seats.strategies", "search"]),
    ({"players": 6}, ["players", "2..5"]),
    ({"colour": "red"}, ["colour", "unknown key"]),
]


@pytest.mark.parametrize(("edit", "keys"), BAD, ids=[k[0] for _, k in BAD])
def test_a_bad_rio_experiment_is_one_line(tmp_path, edit, keys):
    with pytest.raises(ExperimentError) as ei:
        experiment_from_dict(_doc(**edit))
    msg = str(ei.value)
    assert "\n" not in msg and msg.startswith("experiment: ")
    for k in keys:
        assert k in msg, (k, msg)
    # the command says the same line and writes nothing
    p = tmp_path / "bad.toml"
    p.write_text(_toml(_doc(**edit) | {"out": str(tmp_path / "out")}))
    res = cli.invoke(app, ["run", str(p), "--quiet"])
    assert res.exit_code == 2, res.output
    assert _one_line(res.output) == msg
    assert not (tmp_path / "out").exists()


def _toml(doc: dict) -> str:
    """A TOML file of an experiment document of plain values: its keys, then its tables, then its arrays of tables."""
    def tables(v) -> bool:
        return isinstance(v, list) and bool(v) and isinstance(v[0], dict)

    top = [f"{k} = {_value(v)}\n" for k, v in doc.items() if not isinstance(v, dict) and not tables(v)]
    tabs = [f"[{k}]\n" + "".join(f"{a} = {_value(x)}\n" for a, x in v.items()) for k, v in doc.items() if isinstance(v, dict)]
    arrays = [f"[[{k}]]\n" + "".join(f"{a} = {_value(x)}\n" for a, x in t.items()) for k, v in doc.items() if tables(v) for t in v]
    return "".join(top + tabs + arrays)


def _value(v) -> str:
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return json.dumps(v)


def test_a_trinidad_experiment_names_rios_keys_and_the_flag_names_the_games(tmp_path):
    with pytest.raises(ExperimentError, match=r"^experiment: level: a key of Río de la Plata's experiments"):
        experiment_from_dict({"level": "expert"})
    res = cli.invoke(app, ["run", "--game", "monopoly", "--out", str(tmp_path / "o"), "--quiet"])
    assert res.exit_code == 2 and _one_line(res.output) == "experiment: --game: unknown game 'monopoly'; allowed: trinidad, rio-de-la-plata"


# ----------------------------------------------------------------------------- playing, resuming, reporting


def _tables(out: Path) -> dict[str, pl.DataFrame]:
    order = {"games": ["variant", "players", "game", "seat"], "offices": ["variant", "players", "game", "office"],
             "wars": ["variant", "players", "game", "war"], "turns": ["variant", "players", "game", "turn", "seat"],
             "districts": ["variant", "players", "game", "district"], "majors": ["variant", "players", "game", "major", "seat"]}
    return {t: pl.read_parquet(str(out / t / "*.parquet")).sort(by) for t, by in order.items()}


def test_a_rio_run_writes_its_tables_resumes_and_reports(tmp_path):
    from gamekit.rng import player_seeds
    from rio.engine.state import VPS
    from rio.keys import Office

    p = tmp_path / "rio.toml"
    out = tmp_path / "run"
    p.write_text(textwrap.dedent(f"""
        game = "rio-de-la-plata"
        name = "tiny"
        players = [3, 4]
        games = 4
        seed = 3
        out = "{out}"
        shard_games = 2
        level = "expert"

        [seats]
        strategies = ["heuristic", "random"]
        assign = "rotate"
    """))
    res = cli.invoke(app, ["run", str(p), "--quiet", "--workers", "2"])
    assert res.exit_code == 0, res.output
    assert "run tiny" in res.output and "win rate by strategy" in res.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["game"] == RIO and m["status"] == "complete" and m["counts"]["games_done"] == 8
    assert m["experiment"]["game"] == RIO and m["variants"][0]["level"] == "expert"
    for t in ("games", "offices", "wars", "turns", "districts", "majors"):
        assert len(list((out / t).glob("*.parquet"))) == 4, t  # 2 shards a player count
    tabs = _tables(out)
    g = tabs["games"]
    assert g.height == 4 * 3 + 4 * 4 and g.select("players", "game", "seat").is_duplicated().sum() == 0
    assert {"variant", "players", "level", "short", "game", "seed", "seat", "strategy", "vp", "rank", "start_position", "houses",
            "offices", "win", "tie", "wars", "major_palace"} <= set(g.columns)
    assert {f"vp_{s.name.lower()}" for s in VPS} <= set(g.columns)
    assert g["level"].cast(pl.String).unique().to_list() == ["expert"] and not g["short"].any()
    # a game's VP is the sum of its sources; one win a game at least, and only rank 0 wins
    assert (g["vp"] == g.select(pl.sum_horizontal(pl.col("^vp_.*$"))).to_series()).all()
    assert (g.group_by("players", "game").agg(pl.col("win").sum())["win"] >= 1).all()
    assert ((g["win"] == 1) == (g["rank"] == 0)).all()
    # common seeds: game i of n players has the documented seed in every variant
    for n in (3, 4):
        seeds = g.filter((pl.col("players") == n) & (pl.col("seat") == 0)).sort("game")["seed"].to_list()
        assert seeds == player_seeds(3, n, 0, 4).tolist()
    assert tabs["offices"].height == 8 * len(Office)
    assert tabs["turns"]["turn"].min() == 1 and tabs["turns"].height == tabs["turns"]["turn"].max() * (4 * 3 + 4 * 4)
    assert set(tabs["wars"]["enemy"].cast(pl.String).unique()) <= {"natives", "pirates"}
    # the districts and the Major buildings: led by the key columns, agreeing with the games table
    key = ["variant", "players", "game"]
    dist, maj = tabs["districts"], tabs["majors"]
    assert dist.columns[:6] == maj.columns[:6] == ["game", "seed", "variant", "players", "level", "short"]
    assert dist.height == 8 * 8 and sorted(dist["district"].unique()) == list(range(1, 9))
    assert {"value", "road_connected", "closed", "access_points", "destroyed", "hut", "house", "church", "palace", "cathedral"} <= set(dist.columns)
    per_game = g.group_by(key).agg(pl.col("houses").sum(), pl.col("huts").sum(), pl.col("^major_.*$").first(), pl.col("walls_open").first())
    built = dist.group_by(key).agg(pl.col("house").sum(), pl.col("hut").sum(), pl.col("access_points").sum())
    both = per_game.join(built, on=key)
    assert both.height == 8 and (both["houses"] == both["house"]).all() and (both["huts"] == both["hut"]).all()
    assert (both["walls_open"] == both["access_points"]).all()
    assert maj.height == 4 * 6 * 3 + 4 * 6 * 4 and maj["major"].dtype == pl.Enum(["palace", "cathedral", "fort", "harbor", "walls", "roads"])
    done = maj.filter(pl.col("seat") == 0).pivot(on="major", index=key, values="completions")
    assert (done.join(per_game, on=key).select((pl.col(m) == pl.col(f"major_{m}")).all() for m in ("palace", "walls", "roads")).row(0)
            == (True, True, True))
    assert ((maj["first_completer"] >= 0) == (maj["completions"] > 0)).all() and (maj["first_completer"] < maj["players"]).all()
    assert (maj.group_by(*key, "major").agg(pl.col("completed").sum(), pl.col("completions").first())
            .select((pl.col("completed") == pl.col("completions")).all()).item())
    # the seat's strategy is the games table's
    assert maj.join(g.select(*key, "seat", pl.col("strategy").alias("s")), on=[*key, "seat"]).select(
        (pl.col("strategy").cast(pl.String) == pl.col("s").cast(pl.String)).all()).item()

    # a lost shard and a broken one: --resume plays them again, to the same tables
    (out / "games" / "part-v00-p4-00001.parquet").unlink()
    (out / "wars" / "part-v00-p3-00000.parquet").write_text("not parquet")
    res = cli.invoke(app, ["run", "--resume", "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "complete" and m["games_this_session"] == 4
    again = _tables(out)
    for t, df in tabs.items():
        assert again[t].equals(df), t

    # the summary and the report: Río de la Plata's lines and sections, the report frame's files
    res = cli.invoke(app, ["runs", "summarize", str(out)])
    assert res.exit_code == 0 and "base / 4 players: 4 games" in res.output, res.output
    res = cli.invoke(app, ["report", str(out)])
    assert res.exit_code == 0, res.output
    page = (out / "report" / "index.html").read_text()
    assert "Río de la Plata design report: tiny" in page
    doc = json.loads((out / "report" / "summary.json").read_text())
    assert doc["game"] == RIO
    assert [s["id"] for s in doc["sections"]] == ["strategies", "seats", "offices", "wars", "city", "variants", "manifest"]
    names = {t["name"] for s in doc["sections"] for t in s["tables"]}
    assert {"strategy_balance", "seat_balance", "office_purchases", "office_value", "wars_per_game", "district_buildings",
            "district_values", "major_completions", "major_completers", "major_value", "rio_variant_overview"} <= names
    assert (out / "report" / "charts" / "strategy_win_rates.png").exists()
    assert any(r["table"] == "strategy_balance" for r in doc["summary"])
    # reading the run loads no compiler (the Río de la Plata report is plain polars)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import sys
        from analysis import load_run
        from analysis.rio import analyze
        analyze(load_run({str(out)!r}))
        assert "numba" not in sys.modules
        print("ok")
    """)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr


# ----------------------------------------------------------------------------- player tiers (issue 97 item 4)

SEARCH = "search:budget=2,width=2,depth=0"  # the cheapest search player: a tier of its own in a few seconds


def _tiers_doc(out: Path, **kw) -> dict:
    return {"game": RIO, "name": "rt", "players": [3, 4], "games": 24, "seed": 5, "shard_games": 12, "out": str(out),
            "tiers": [{"name": "search", "strategies": [SEARCH, "heuristic", SEARCH, "heuristic"]},
                      {"name": "heuristic", "strategies": ["heuristic"]}]} | kw


def test_rio_tiers_are_read_as_trinidads(tmp_path):
    from trinidad.experiment import tier_experiments

    runs = tier_experiments(_tiers_doc(tmp_path / "o", level="beginner"))
    assert [n for n, _ in runs] == ["search", "heuristic"]
    (_, s), (_, h) = runs
    assert type(s).GAME == type(h).GAME == RIO and s.strategies == [SEARCH, "heuristic", SEARCH, "heuristic"] and h.strategies == ["heuristic"]
    assert (s.out, h.out) == (str(tmp_path / "o" / "search"), str(tmp_path / "o" / "heuristic")) and (s.name, h.name) == ("rt-search", "rt-heuristic")
    # the same games, seed, rules and variants in every tier
    assert s.to_dict() | {"strategies": None, "out": None, "name": None} == h.to_dict() | {"strategies": None, "out": None, "name": None}
    assert s.variants[0].level == "beginner"
    # read as one experiment, [[tiers]] are several runs: one line
    with pytest.raises(ExperimentError, match=r"^experiment: tiers: an experiment with \[\[tiers\]\] is several runs"):
        experiment_from_dict(_tiers_doc(tmp_path / "o"))


BAD_TIERS = [
    (lambda d: d | {"tiers": d["tiers"][:1]}, "experiment: tiers: expected two or more [[tiers]] tables"),
    (lambda d: d | {"tiers": [d["tiers"][0], d["tiers"][0]]}, "tiers[1].name: tier names must be distinct, 'search' is given twice"),
    (lambda d: d | {"tiers": [d["tiers"][0], {"name": "../x", "strategies": ["random"]}]}, "tiers[1].name: expected a folder name"),
    (lambda d: d | {"seats": {"strategies": ["heuristic"]}}, "seats.strategies: an experiment with [[tiers]] names the strategies"),
    (lambda d: d | {"tiers": [d["tiers"][0], {"name": "weak", "strategies": ["greedy"]}]}, "tiers[1] (weak): seats.strategies"),
    (lambda d: d | {"tiers": [d["tiers"][0], {"name": "two", "strategies": [SEARCH, "search:budget=3"]}]},
     "tiers[1] (two): seats.strategies: the search seats of one table share their settings"),
    (lambda d: d | {"tiers": [d["tiers"][0], {"name": "h", "strategies": ["heuristic"], "level": "expert"}]},
     "tiers[1].level: unknown key; allowed: name, strategies"),
    (lambda d: d | {"characters": {"assign": "balanced"}}, "characters: a key of Trinidad's experiments"),
]


@pytest.mark.parametrize(("edit", "message"), BAD_TIERS, ids=["one-tier", "name-twice", "folder-name", "seats-strategies", "unknown-player",
                                                              "two-searches", "tier-key", "trinidad-key"])
def test_bad_rio_tiers_are_one_line(tmp_path, edit, message):
    p = tmp_path / "bad.toml"
    p.write_text(_toml(edit(_tiers_doc(tmp_path / "out"))))
    res = cli.invoke(app, ["run", str(p), "--quiet"])
    assert res.exit_code == 2, res.output
    line = _one_line(res.output)
    assert line.startswith("experiment: ") and message in line, line
    assert not (tmp_path / "out").exists()


def test_rio_tiers_run_resume_and_report_together(tmp_path):
    """Two tiers (the search player beside the heuristic, the heuristic alone): one run a tier on the same seeds,
    listed in tiers.json, resumed from --out alone, reported together with the tiers' section leading."""
    out = tmp_path / "out"
    p = tmp_path / "tiers.toml"
    p.write_text(_toml(_tiers_doc(out)))
    res = cli.invoke(app, ["run", str(p), "--quiet", "--workers", "2"])
    assert res.exit_code == 0, res.output
    assert "tier search:" in res.output and "tier heuristic:" in res.output and f"trinidad report {out}" in res.output
    listed = json.loads((out / "tiers.json").read_text())["tiers"]
    assert [(t["name"], t["out"], t["experiment"]["game"]) for t in listed] == [("search", "search", RIO), ("heuristic", "heuristic", RIO)]
    g = {t: pl.read_parquet(str(out / t / "games" / "*.parquet")).sort("players", "game", "seat") for t in ("search", "heuristic")}
    for t, strategies in (("search", {SEARCH, "heuristic"}), ("heuristic", {"heuristic"})):
        m = json.loads((out / t / "manifest.json").read_text())
        assert m["game"] == RIO and m["status"] == "complete" and m["counts"]["games_done"] == 48
        assert set(g[t]["strategy"].cast(pl.String)) == strategies
    assert g["search"]["seed"].to_list() == g["heuristic"]["seed"].to_list()  # the same games in every tier
    # a second run into the folder is refused; --resume replays a lost shard from --out alone, to the same games
    res = cli.invoke(app, ["run", str(p), "--quiet"])
    assert res.exit_code == 2 and "already holds tier runs" in _one_line(res.output)
    (out / "heuristic" / "games" / sorted(x.name for x in (out / "heuristic" / "games").iterdir())[-1]).unlink()
    res = cli.invoke(app, ["run", "--resume", "--out", str(out), "--quiet"])
    assert res.exit_code == 0, res.output
    assert pl.read_parquet(str(out / "heuristic" / "games" / "*.parquet")).sort("players", "game", "seat").equals(g["heuristic"])

    res = cli.invoke(app, ["report", str(out)])
    assert res.exit_code == 0, res.output
    doc = json.loads((out / "report" / "summary.json").read_text())
    assert doc["game"] == RIO
    assert [s["id"] for s in doc["sections"]] == ["tiers", "strategies", "seats", "offices", "wars", "city", "variants", "manifest"]
    tiers = doc["sections"][0]
    assert tiers["title"] == "Do the findings hold for every tier?"
    tables = {t["name"]: t["rows"] for t in tiers["tables"]}
    assert {"rio_tier_offices", "rio_tier_ranking", "rio_tier_verdicts", "rio_tier_positions"} <= set(tables)
    labels = [f"{SEARCH}+heuristic", "heuristic"]
    # per tier and player count: twelve offices, each with its purchase rate inside its interval, as the tier's own report has it
    offices = pl.DataFrame(tables["rio_tier_offices"])
    assert offices.group_by("tier", "players").len()["len"].to_list() == [12] * 4
    assert (offices["bought_share_lo"] <= offices["bought_share"]).all() and (offices["bought_share"] <= offices["bought_share_hi"]).all()
    own = {r["office"]: r["bought_share"] for s in json.loads((out / "report" / "summary.json").read_text())["sections"]
           if s["id"] == "offices" for t in s["tables"] if t["name"] == "office_purchases" for r in t["rows"] if r["players"] == 4}
    first = offices.filter((pl.col("tier") == labels[0]) & (pl.col("players") == 4))
    assert dict(zip(first["office"], first["bought_share"], strict=True)) == own
    # Kendall tau per player count and pair of tiers; a verdict per office and tier, and whether they agree
    rank = tables["rio_tier_ranking"]
    assert [(r["players"], r["tier_a"], r["tier_b"], r["offices"]) for r in rank] == [(3, *labels, 12), (4, *labels, 12)]
    assert all(r["kendall_tau"] != r["kendall_tau"] or -1 <= r["kendall_tau"] <= 1 for r in rank)
    verdicts = pl.DataFrame(tables["rio_tier_verdicts"])
    assert verdicts.columns == ["players", "office", *labels, "agree"] and verdicts.height == 24
    assert (verdicts["agree"] == (verdicts[labels[0]] == verdicts[labels[1]])).all()
    assert set(verdicts[labels[1]]) <= {"pays", "never worth its price", "never bought", "above, not significant", "no comparison"}
    positions = pl.DataFrame(tables["rio_tier_positions"])
    assert positions.height == 2 * (3 + 4) and set(positions["tier"]) == set(labels)
    assert doc["agent_sensitivity"]["checked"] and [t["tier"] for t in doc["agent_sensitivity"]["tiers"]] == labels
    # the page: the section with its tables, and its sentences at a glance
    page = (out / "report" / "index.html").read_text()
    section = page.split('id="tiers"')[1].split("</section>")[0]
    for name in ("rio_tier_offices", "rio_tier_ranking", "rio_tier_verdicts", "rio_tier_positions"):
        assert f'id="tiers-{name}"' in section, name
    glance = page.split('id="glance"')[1].split("</ul>")[0]
    assert "Tiers, strongest first" in glance and "rank the offices by purchase rate" in glance
    assert "offices get the same verdict in every tier" in glance
