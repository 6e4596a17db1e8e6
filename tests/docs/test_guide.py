"""The designer's guide (docs/guide/): each worked example runs as written, at a small game count,
and what the guide tells the reader to look at is there.

The commands are read from the guide's own ``sh`` blocks and run through the ``trinidad`` command
(typer's CliRunner), in a scratch folder holding a copy of docs/guide/: a ``trinidad run`` plays
24 games (``--games 24``, no Solo A.I. table), the guide's ``best`` is played by the heuristic, and
the Character tiers are cheap players, so the examples cost seconds once the engine is compiled."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import tomllib
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from trinidad.cli import app

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guide"
GAMES = 24  # two blocks of 12 balanced deals
CHEAP_TIERS = {"best": "heuristic", "rollout": "greedy", "heuristic": "random"}  # the tiers' order kept, strongest first


def guide_commands(page: str) -> list[list[str]]:
    """The ``trinidad`` commands of a guide page's ``sh`` blocks, each as its arguments (comments dropped)."""
    text = (GUIDE / page).read_text()
    cmds = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.replace("\\\n", " ").splitlines():
            args = shlex.split(line, comments=True)
            if args and args[0] == "trinidad":
                cmds.append(args[1:])
    return cmds


def small(args: list[str]) -> list[str]:
    """A guide command at test size: ``run`` plays GAMES games without the Solo A.I. table; ``best`` becomes the heuristic."""
    args = ["heuristic" if a == "best" else a for a in args]
    if args[0] != "run":
        return args
    if "--games" in args:
        i = args.index("--games")
        del args[i:i + 2]
    return [*args, "--games", str(GAMES), "--ai-games", "0", "--quiet"]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A scratch folder with the guide's experiment files under docs/guide/, the Character tiers made cheap."""
    root = tmp_path_factory.mktemp("guide")
    shutil.copytree(GUIDE, root / "docs" / "guide")
    exp = root / "docs" / "guide" / "characters.toml"
    text = re.sub(r'strategies = \["([\w-]+)"\]', lambda m: f'strategies = ["{CHEAP_TIERS[m.group(1)]}"]', exp.read_text())
    exp.write_text(text)
    assert [t["strategies"] for t in tomllib.loads(text)["tiers"]] == [[s] for s in CHEAP_TIERS.values()]
    return root


def play(workdir: Path, monkeypatch, page: str) -> dict[str, str]:
    """Run every command of a guide page in ``workdir``; each command's output by its first two words."""
    monkeypatch.chdir(workdir)
    out = {}
    for args in guide_commands(page):
        res = CliRunner().invoke(app, small(args))
        assert res.exit_code == 0, f"trinidad {' '.join(args)}:\n{res.output}\n{res.exception!r}"
        out[" ".join(args[:2])] = res.output
    return out


def test_the_guide_ships_its_experiment_files():
    for page in ("rule-change.md", "characters.md"):
        for args in guide_commands(page):
            files = [a for a in args if a.endswith(".toml")]
            assert all((ROOT / f).is_file() for f in files), files
    for toml in GUIDE.glob("*.toml"):
        tomllib.loads(toml.read_text())
    assert {p.name for p in GUIDE.glob("*.md")} == {"README.md", "rule-change.md", "characters.md", "reading-a-report.md"}


def test_the_guide_holds_no_dated_research():
    for page in GUIDE.glob("*.md"):
        text = page.read_text()
        assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text), f"{page.name}: a date (dated research belongs in docs/notebook/)"
        assert "commit `" not in text, page.name


def test_a_rule_change(workdir, monkeypatch):
    outputs = play(workdir, monkeypatch, "rule-change.md")
    assert {"run docs/guide/palace-workers.toml", "report runs/palace-workers", "runs compare", "compare runs/palace-workers"} <= set(outputs)
    # the Rule variants section's three tables, with the columns the guide names
    tables = workdir / "runs" / "palace-workers" / "report" / "tables"
    paired = pl.read_csv(tables / "variant_paired.csv")
    assert {"diff", "diff_lo", "diff_hi", "p_holm", "mde"} <= set(paired.columns)
    assert set(paired["variant"]) == {"palace-3-workers"}
    chars = pl.read_csv(tables / "variant_characters.csv")
    assert {"diff", "diff_lo", "diff_hi", "sprt", "sprt_games"} <= set(chars.columns)
    assert all(re.fullmatch(r"H1: change \([+-]\)|H0: no change|continue", s) for s in chars["sprt"])
    assert "character_spread" in pl.read_csv(tables / "variant_overview.csv").columns
    # the second route: the two runs share their deals, so the comparison is paired
    assert "paired by deal" in outputs["runs compare"]
    assert (workdir / "runs" / "palace-3-workers" / "compare" / "index.html").is_file()
    # the confirmation with `best` (the heuristic here) wrote its own run and report
    assert (workdir / "runs" / "palace-workers-best" / "report" / "index.html").is_file()


def test_comparing_the_characters(workdir, monkeypatch):
    play(workdir, monkeypatch, "characters.md")
    top = workdir / "runs" / "characters"
    assert sorted(p.name for p in top.iterdir() if (p / "manifest.json").is_file()) == sorted(CHEAP_TIERS)
    tables = top / "report" / "tables"
    balance = pl.read_csv(tables / "character_balance.csv")
    assert {"win_rate", "win_rate_lo", "win_rate_hi", "expected", "p", "p_holm"} <= set(balance.columns)
    assert balance["expected"].to_list() == [0.25] * balance.height  # 4 players: the fair share
    assert (tables / "character_model.csv").is_file()
    for name in ("tier_characters", "tier_agreement", "tier_findings"):
        assert (tables / f"{name}.csv").is_file(), name
    verdicts = pl.read_csv(tables / "tier_findings.csv", schema_overrides={"verdict": pl.String})
    assert set(verdicts["verdict"]) <= {"robust", "depends on the players"}
    summary = json.loads((top / "report" / "summary.json").read_text())
    assert "auction_price" in summary  # step 4: the prices the guide points to


def test_reading_a_report(workdir, monkeypatch):
    """The files the page names beside the report, and its Python example, on the first job's run."""
    run = workdir / "runs" / "palace-workers"
    if not (run / "report" / "index.html").is_file():
        play(workdir, monkeypatch, "rule-change.md")
    report = run / "report"
    for name in ("index.html", "summary.csv", "summary.json", "tables", "charts"):
        assert (report / name).exists(), name
    assert {"n", "p_holm"} <= set(pl.read_csv(report / "summary.csv").columns)
    block = re.search(r"```python\n(.*?)```", (GUIDE / "reading-a-report.md").read_text(), flags=re.S).group(1)
    monkeypatch.chdir(workdir)
    scope: dict = {}
    exec(block, scope)  # the page's own example, on the run it names
    df = scope["a"].section("characters").table("character_balance").df
    assert df.height == 12
