"""`trinidad report` on synthetic runs (README, "Design reports"): every section, every chart as PNG and SVG,
summary.csv / summary.json, a self-contained page (no network), plain sentences for absent data,
and the page rendered in headless Chromium with every image loaded and no console error.

The browser test needs the Debian packages chromium and chromium-driver (``make test``
installs them); it is skipped, saying so, only when those binaries are absent."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis.characters import slug
from analysis.synthetic import DEFAULT_CHARACTERS, write_synthetic_run
from reports.build import REPORT_MARK, build_report, resolve_out
from trinidad.cli import app

SECTIONS = ["glance", "agent-sensitivity", "characters", "seats", "eras", "wars", "scores", "strategies", "option-use", "variants",
            "manifest"]
CHARTS = ["character_win_rates", "character_model", "character_vs_character", "character_ratings", "seat_win_rates",
          "era_trajectories", "era_vp_by_source", "lead_changes", "comebacks", "wars", "war_penalty", "war_participation",
          "military_investment", "score_distribution", "vp_split", "strategy_win_rates", "character_strategy", "variant_characters",
          "option_use", "option_association", "card_use"] + [f"character_vp_{slug(c)}" for c in DEFAULT_CHARACTERS]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
cli = CliRunner()


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """A synthetic run with everything: 3 and 4 players, two strategies, a rule variant, decades, wars."""
    d = tmp_path_factory.mktemp("full")
    run = write_synthetic_run(d / "run", games=360, players=(3, 4), advantage={"Captain": 0.05}, strategies=("greedy", "random"),
                              variants={"bishop-buff": {"Bishop": 0.08}}, seed=5, never=("built_church",))
    return run, build_report(run)


@pytest.fixture(scope="module")
def bare(tmp_path_factory):
    """A synthetic run with little: one variant, one strategy, no decade records."""
    d = tmp_path_factory.mktemp("bare")
    run = write_synthetic_run(d / "run", games=120, players=(4,), decades=False, seed=6)
    return run, build_report(run, d / "elsewhere" / "page.html")


def test_report_files(full):
    run, page = full
    assert page == run / "report" / "index.html"
    root = page.parent
    for c in CHARTS:
        for ext in ("png", "svg"):
            f = root / "charts" / f"{c}.{ext}"
            assert f.exists() and f.stat().st_size > 1000, f
        assert (root / "charts" / f"{c}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert b"<svg" in (root / "charts" / f"{c}.svg").read_bytes()[:2000]
    s = pl.read_csv(root / "summary.csv")
    assert {"section", "table", "players", "group", "estimate", "ci_low", "ci_high", "n", "p", "p_holm"} <= set(s.columns)
    cap = s.filter((pl.col("table") == "character_balance") & (pl.col("group") == "Captain"))
    assert cap.height == 2 and (cap["ci_low"] < cap["estimate"]).all() and (cap["estimate"] < cap["ci_high"]).all()
    doc = json.loads((root / "summary.json").read_text())
    assert [x["id"] for x in doc["sections"]] == SECTIONS[1:]
    assert doc["tie_rule"].startswith("A tie for first counts as a fractional win")
    assert "rules" not in doc["manifest"]["variants"][0]  # hashes identify the rules; the documents stay in manifest.json
    assert len(list((root / "tables").glob("*.csv"))) >= 20


def test_report_has_every_section_with_power_lines(full):
    _, page = full
    html = page.read_text()
    for sid in SECTIONS:
        assert f'id="{sid}"' in html
    assert "could not be drawn" not in html
    # this run has every kind of data: only the one-tier run's Agent sensitivity says what it lacks
    assert html.count('class="absent"') == 1 and "robustness" not in html.split('id="agent-sensitivity"')[0]
    assert "was not checked" in html.split('id="agent-sensitivity"')[1].split("</section>")[0]
    # every table ends with a power line, every rate has an interval, ties are explained
    assert html.count('class="power"') >= 20
    assert "(95% CI)" in html and "fractional win" in html and "Holm" in html
    assert "SPRT" in html and "H1: change (+)" in html


def test_option_use_and_character_pages(full):
    """Issue 23 parts 3 and 4: the option-use section lists the planted never-built Church for every
    strategy and player count (page and summary.json); the Character section has one sub-section per
    Character with its tables, and summary.json carries them."""
    run, page = full
    html = page.read_text()
    ou = html.split('id="option-use"')[1].split("</section>")[0]
    for grp in ("greedy", "random"):
        for n in (3, 4):
            assert re.search(rf"<li>{grp}, {n} players \(up to [\d,]+ seat-games\): never played \(1\): built church\.</li>", ou), (grp, n)
    assert "Association is not cause" in ou
    chars = html.split('id="characters"')[1].split("</section>")[0]
    for c in DEFAULT_CHARACTERS:
        sub = chars.split(f'id="character-{slug(c)}"')[1].split('<div class="subsection"')[0]
        assert f"<h3>{c}</h3>" in sub and "typical win" in sub and "trinidad play --run" in sub and "best opponent" in sub
        assert f"charts/character_vp_{slug(c)}.svg" in sub
    doc = json.loads((page.parent / "summary.json").read_text())
    assert {(r["group"], r["players"], r["item"]) for r in doc["option_use"]["never_played"]} == {
        (g, n, "built_church") for g in ("greedy", "random") for n in (3, 4)}
    assert doc["option_use"]["warning"].startswith("Association is not cause")
    subs = next(s for s in doc["sections"] if s["id"] == "characters")["subsections"]
    assert len(subs) == 12 and all(len(s["tables"]) == 4 and s["tables"][-1]["rows"] for s in subs)
    assert (page.parent / "tables" / "character_examples_captain.csv").exists() and (page.parent / "tables" / "never_played.csv").exists()


def test_report_is_self_contained(full):
    _, page = full
    html = page.read_text()
    refs = re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', html) + re.findall(r"url\(([^)]*)\)", html)
    assert refs
    for r in refs:
        assert not re.match(r"^(https?:)?//", r), r  # nothing from the network
        assert r.startswith(("data:image/png;base64,", "#", "charts/", "tables/", "summary.")), r
    assert "<script" not in html and "@import" not in html
    imgs = re.findall(r'<img [^>]*src="([^"]+)"', html)
    assert len(imgs) == len(CHARTS) and all(s.startswith("data:image/png;base64,") for s in imgs)


def test_absent_data_is_said_plainly(bare):
    run, page = bare
    assert page == run.parent / "elsewhere" / "page.html" and page.exists()
    html = page.read_text()
    for sid in SECTIONS:
        assert f'id="{sid}"' in html  # no section vanishes
    assert "Only one strategy (greedy) played" in html
    assert "single variant (&#x27;base&#x27;): there is no rule variant to compare" in html
    assert "no decade records" in html
    assert (page.parent / "summary.csv").exists() and (page.parent / "charts" / "character_win_rates.svg").exists()


def test_no_wars_is_said_plainly(tmp_path):
    from analysis import analyze, load_run

    run = write_synthetic_run(tmp_path / "r", games=48, players=(4,), war_rate=0.0, seed=2)
    s = analyze(load_run(run)).section("wars")
    assert s.absent and "No War was declared" in s.absent
    assert s.table("wars_per_game").df["wars_per_game"].sum() == 0


def test_resolve_out(tmp_path):
    assert resolve_out(tmp_path, None) == tmp_path / "report" / "index.html"
    assert resolve_out(tmp_path, tmp_path / "x.html") == tmp_path / "x.html"
    assert resolve_out(tmp_path, tmp_path / "folder") == tmp_path / "folder" / "index.html"


def test_cli_report(tmp_path, bare):
    run, _ = bare
    out = tmp_path / "cli"
    r = cli.invoke(app, ["report", str(run), "--out", str(out), "--delta", "3"])
    assert r.exit_code == 0, r.output
    assert r.output.strip() == f"report: {out / 'index.html'}"
    assert json.loads((out / "summary.json").read_text())["sprt_delta"] == pytest.approx(0.03)
    bad = cli.invoke(app, ["report", str(tmp_path / "nope")])
    assert bad.exit_code == 2 and "no manifest.json" in bad.output and len(bad.output.strip().splitlines()) == 1
    bad = cli.invoke(app, ["report", str(run), "--delta", "0"])
    assert bad.exit_code == 2 and "--delta" in bad.output
    probe = tmp_path / "probe.json"  # as `trinidad probe --json` writes it
    probe.write_text(json.dumps({"strategy": "heuristic", "players": 4, "games": 40, "seed": 1, "threshold": 0.05, "options": [
        {"option": "SHIP", "key": "ship", "used": 0.0, "probed": True, "n": 40, "forced": 1.0, "win_base": 0.25, "win_base_ci": [0.1, 0.4],
         "win_forced": 0.2, "win_forced_ci": [0.1, 0.35], "win_diff": -0.05, "win_diff_ci": [-0.2, 0.1], "margin_diff": -1.5,
         "margin_diff_ci": [-3.0, 0.0], "margin_p": 0.06}]}))
    r = cli.invoke(app, ["report", str(run), "--out", str(tmp_path / "probed"), "--probes", str(probe)])
    assert r.exit_code == 0, r.output
    html = (tmp_path / "probed" / "index.html").read_text()
    assert 'id="option-use-probe_effects"' in html and "trinidad probe --strategy heuristic --players 4 --games 40 --seed 1" in html
    bad = cli.invoke(app, ["report", str(run), "--out", str(tmp_path / "p2"), "--probes", str(run / "manifest.json")])
    assert bad.exit_code == 2 and "not a probe result" in bad.output and len(bad.output.strip().splitlines()) == 1


@pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="headless Chromium not installed (Debian packages chromium and "
                    "chromium-driver; `make test` installs them)")
def test_report_renders_in_headless_chromium(full):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    _, page = full
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="chromium-report-")
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
              "--window-size=1366,800"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        driver.get(Path(page).resolve().as_uri())
        driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
        state = driver.execute_script(
            "return {ready: document.readyState, n: document.images.length,"
            " broken: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.alt),"
            " widths: Array.from(document.images).map(i => i.naturalWidth),"
            " sections: Array.from(document.querySelectorAll('section')).map(s => s.id),"
            " overflow: document.documentElement.scrollWidth > window.innerWidth + 1}")
        logs = driver.get_log("browser")
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
    assert state["ready"] == "complete"
    assert state["n"] == len(CHARTS) and not state["broken"] and min(state["widths"]) > 0
    assert state["sections"] == SECTIONS
    assert not state["overflow"]  # readable on a laptop: no sideways scrolling of the page
    errors = [e for e in logs if e.get("level") == "SEVERE"]
    assert not errors, errors


def test_report_refuses_to_scatter_or_overwrite_what_it_did_not_write(tmp_path, bare):
    """One line naming the path, exit 2, nothing written: a folder holding someone's files (an HTML
    page of one's own, a run directory), a file where the report's folder would be; --force writes
    beside one's files; a report folder is rewritten."""
    run, _ = bare
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "page.html").write_text("my page")
    manifest = (run / "manifest.json").read_text()
    for out in (mine / "page.html", run / "x.html", run / "manifest.json"):
        r = cli.invoke(app, ["report", str(run), "--out", str(out)])
        assert r.exit_code == 2, (out, r.output)
        assert len(r.output.strip().splitlines()) == 1 and r.output.startswith("out: ")
    assert sorted(p.name for p in mine.iterdir()) == ["page.html"] and (mine / "page.html").read_text() == "my page"
    assert (run / "manifest.json").read_text() == manifest and not (run / "charts").exists() and not (run / "x.html").exists()
    r = cli.invoke(app, ["report", str(run), "--out", str(mine / "page.html"), "--force"])
    assert r.exit_code == 0, r.output
    assert (mine / "charts").is_dir() and "<!DOCTYPE html>" in (mine / "page.html").read_text()
    fresh = tmp_path / "fresh"
    for _ in range(2):  # the second run finds its own folder and rewrites it
        r = cli.invoke(app, ["report", str(run), "--out", str(fresh)])
        assert r.exit_code == 0, r.output
    assert (fresh / REPORT_MARK).exists()
