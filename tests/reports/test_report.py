"""`trinidad report` on synthetic runs (README, "Design reports"): every section, every chart as PNG and SVG,
summary.csv / summary.json, a self-contained page (no network), plain sentences for absent data,
and the page rendered in headless Chromium with every image loaded and no console error.

Readability (issue 23 part 6): rulebook names in every header and legend (analysis.labels), turn
positions 1..N, short At-a-glance sentences, valid escaped HTML, the incomplete-run flag, and the
report and compare pages sorted and filtered in Chromium through their own script. A small Río de la
Plata run, played by the runner, renders in Chromium too, its Districts and Major buildings tables sorting
like the others.

The browser test needs the Debian packages chromium and chromium-driver (``make test``
installs them); it is skipped, saying so, only when those binaries are absent."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from analysis.characters import slug
from analysis.labels import COLUMNS, VP_SOURCES, column_label, source_label
from analysis.synthetic import DEFAULT_CHARACTERS, write_synthetic_run
from analysis.tables import Table
from reports.build import REPORT_MARK, build_report, resolve_out
from reports.html import incomplete_note, render_table
from sim.state import VS_NAMES
from trinidad.cli import app

SECTIONS = ["glance", "agent-sensitivity", "characters", "auction-price", "seats", "eras", "wars", "scores", "strategies", "option-use", "variants",
            "sweep-bishop", "manifest"]
CHARTS = ["character_win_rates", "character_model", "auction_prices", "character_vs_character", "character_ratings", "seat_win_rates",
          "era_trajectories", "era_vp_by_source", "era_vp_by_source_character", "lead_changes", "comebacks", "wars", "war_penalty", "war_participation",
          "military_investment", "score_distribution", "vp_split", "strategy_win_rates", "character_strategy", "variant_characters",
          "option_use", "option_association", "card_use"] + [f"character_vp_{slug(c)}" for c in DEFAULT_CHARACTERS] + [
          "sweep_character__bishop", "sweep_metrics__bishop", "sweep_vp__bishop"]  # a sweep's curves (analysis.sweeps)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
cli = CliRunner()


@pytest.fixture(scope="module")
def full(tmp_path_factory):
    """A synthetic run with everything: 3 and 4 players, two strategies, a rule variant, decades, wars; its
    variant is also a sweep's point (the Bishop's VP per Cathedral, the baseline's 5 and the variant's 8)."""
    d = tmp_path_factory.mktemp("full")
    run = write_synthetic_run(d / "run", games=360, players=(3, 4), advantage={"Captain": 0.05}, strategies=("greedy", "random"),
                              variants={"bishop-buff": {"Bishop": 0.08}}, seed=5, never=("built_church",))
    m = json.loads((run / "manifest.json").read_text())
    m["experiment"]["sweeps"] = [{"name": "bishop", "baseline": "base", "axes": [{"key": "character.bishop_cathedral", "values": [5, 8], "base": 5}],
                                  "points": [{"values": [5], "variant": "base"}, {"values": [8], "variant": "bishop-buff"}]}]
    (run / "manifest.json").write_text(json.dumps(m))
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
            assert re.search(rf"<li>{grp}, {n} players \(up to [\d,]+ seat-games\): never played \(1\): built Church\.</li>", ou), (grp, n)
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
    # one inline script (sorting and filtering), nothing loaded
    assert re.findall(r"<script[^>]*>", html) == ["<script>"] and "@import" not in html
    assert "fetch(" not in html and "XMLHttpRequest" not in html
    imgs = re.findall(r'<img [^>]*src="([^"]+)"', html)
    assert len(imgs) == len(CHARTS) and all(s.startswith("data:image/png;base64,") for s in imgs)


def test_absent_data_is_said_plainly(bare):
    run, page = bare
    assert page == run.parent / "elsewhere" / "page.html" and page.exists()
    html = page.read_text()
    for sid in SECTIONS:
        assert f'id="{sid}"' in html or sid.startswith("sweep-")  # no section vanishes (a sweep's: only a run with sweeps has one)
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


NEEDS_CHROMIUM = pytest.mark.skipif(not (CHROMIUM and CHROMEDRIVER), reason="headless Chromium not installed (Debian packages "
                                    "chromium and chromium-driver; `make test` installs them)")


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    """The compare page of two synthetic runs on the same deals (B plants a Captain advantage)."""
    from reports.compare import build_comparison

    d = tmp_path_factory.mktemp("compare")
    a = write_synthetic_run(d / "a", games=240, players=(4,), seed=4)
    b = write_synthetic_run(d / "b", games=240, players=(4,), seed=4, advantage={"Captain": 0.10})
    return build_comparison(a, b)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the module's page tests (its console log read after each page)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

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
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def rio_report(tmp_path_factory):
    """The report of a small Río de la Plata run played by the runner: 24 games of 3 and 24 of 4 players,
    three players rotated over the seats (the engine compiles on a machine's first Río game)."""
    d = tmp_path_factory.mktemp("rio")
    exp = d / "rio.toml"
    exp.write_text(textwrap.dedent(f"""
        game = "rio-de-la-plata"
        name = "rio-browser"
        players = [3, 4]
        games = 24
        seed = 7
        out = "{d / 'run'}"
        level = "expert"

        [seats]
        strategies = ["heuristic", "builder", "random"]
        assign = "rotate"
    """))
    r = cli.invoke(app, ["run", str(exp), "--quiet", "--workers", "1"])
    assert r.exit_code == 0, r.output
    from analysis.rio import analyze as rio_sections

    return build_report(d / "run", sections=rio_sections)


def _load(driver, page: Path) -> dict:
    driver.get(Path(page).resolve().as_uri())
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    return driver.execute_script(
        "return {ready: document.readyState, n: document.images.length,"
        " broken: Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.alt),"
        " widths: Array.from(document.images).map(i => i.naturalWidth),"
        " sections: Array.from(document.querySelectorAll('section')).map(s => s.id),"
        " tables: document.querySelectorAll('div.tablewrap > table').length,"
        " sortable: document.querySelectorAll('th.sortable').length, headers: document.querySelectorAll('thead th').length,"
        " filters: document.querySelectorAll('.tabletools input').length,"
        " overflow: document.documentElement.scrollWidth > window.innerWidth + 1}")


def _severe(driver) -> list:
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def _table_after(driver, heading_id: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f"#{heading_id} ~ div.tablewrap > table")


def _header(table, text: str):
    from selenium.webdriver.common.by import By

    return next(th for th in table.find_elements(By.CSS_SELECTOR, "thead th") if th.text.strip().startswith(text))


def _column(driver, table, col: int, raw: bool = True) -> list:
    """The shown rows' values of column ``col``: the raw number (data-sort) or the text."""
    return driver.execute_script(
        "const t = arguments[0], k = arguments[1], raw = arguments[2];"
        "return Array.from(t.tBodies[0].rows).filter(r => !r.hidden).map(r => raw ? parseFloat(r.cells[k].getAttribute('data-sort'))"
        " : r.cells[k].textContent);", table, col, raw)


def _click(driver, th) -> None:
    """Click a header as a reader does, with the header in the middle of the window (not under the sticky nav)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'});", th)
    th.click()


def _index(driver, th) -> int:
    return driver.execute_script("return Array.prototype.indexOf.call(arguments[0].parentNode.children, arguments[0]);", th)


@NEEDS_CHROMIUM
def test_report_renders_in_headless_chromium(full, browser):
    _, page = full
    state = _load(browser, page)
    errors = _severe(browser)
    assert state["ready"] == "complete"
    assert state["n"] == len(CHARTS) and not state["broken"] and min(state["widths"]) > 0
    assert state["sections"] == SECTIONS
    assert not state["overflow"]  # readable on a laptop: no sideways scrolling of the page
    # the page's script made every header sortable and gave every table a filter box
    assert state["tables"] >= 15 and state["sortable"] == state["headers"] and state["filters"] == state["tables"]
    assert not errors, errors


@NEEDS_CHROMIUM
def test_compare_page_renders_in_headless_chromium(compared, browser):
    state = _load(browser, compared)
    errors = _severe(browser)
    assert state["ready"] == "complete" and state["n"] == 1 and not state["broken"]
    assert state["sections"][:2] == ["glance", "compare-characters"]
    assert state["tables"] >= 3 and state["sortable"] == state["headers"] and state["filters"] == state["tables"]
    assert not state["overflow"]
    assert not errors, errors


@NEEDS_CHROMIUM
def test_a_table_sorts_and_filters_through_the_page_script(full, browser):
    """Clicks on a header sort the rows (numbers as numbers, again: the other way; text
    alphabetically); words in the filter box hide the other rows."""
    _, page = full
    _load(browser, page)
    table = _table_after(browser, "characters-character_balance")
    th = _header(table, "win rate")
    k = _index(browser, th)
    before = _column(browser, table, k)
    assert before != sorted(before)  # the table comes sorted by player count first, so sorting changes it
    _click(browser, th)
    assert th.get_attribute("aria-sort") == "ascending"
    up = _column(browser, table, k)
    assert up == sorted(before)
    _click(browser, th)
    assert th.get_attribute("aria-sort") == "descending" and _column(browser, table, k) == sorted(before, reverse=True)
    ch = _header(table, "Character")
    _click(browser, ch)
    names = _column(browser, table, _index(browser, ch), raw=False)
    assert names == sorted(names) and th.get_attribute("aria-sort") is None
    # filter: the box above the table keeps the rows holding every word typed
    from selenium.webdriver.common.by import By

    box = table.find_element(By.XPATH, "../preceding-sibling::div[@class='tabletools'][1]/input")
    box.send_keys("Captain")
    shown = _column(browser, table, _index(browser, ch), raw=False)
    assert shown == ["Captain", "Captain"]  # one row per player count (3 and 4)
    count = table.find_element(By.XPATH, "../preceding-sibling::div[@class='tabletools'][1]/span").text
    assert count == f"2 of {len(before)} rows"
    box.clear()
    box.send_keys(" ")  # an input event with no words: every row back
    assert len(_column(browser, table, k)) == len(before)
    assert not _severe(browser)


@NEEDS_CHROMIUM
def test_rio_report_renders_and_its_city_tables_sort_in_headless_chromium(rio_report, browser):
    """A Río de la Plata run's page: its sections, every header sortable and every table filterable, no
    sideways scrolling, no console error; the Districts and Major buildings section holds its tables, and
    the districts' values sort by a click (numbers as numbers, then the other way)."""
    state = _load(browser, rio_report)
    errors = _severe(browser)
    assert state["ready"] == "complete" and not state["broken"]
    assert state["sections"] == ["glance", "strategies", "seats", "offices", "wars", "city", "variants", "manifest"]
    assert state["tables"] >= 15 and state["sortable"] == state["headers"] and state["filters"] == state["tables"]
    assert not state["overflow"]
    assert not errors, errors
    for name in ("district_buildings", "district_values", "major_completions", "major_completers", "major_value"):
        assert _table_after(browser, f"city-{name}").is_displayed(), name
    table = _table_after(browser, "city-district_values")
    th = _header(table, "value")
    k = _index(browser, th)
    before = _column(browser, table, k)
    assert len(before) == 2 * 8  # a row per player count and district
    _click(browser, th)
    assert th.get_attribute("aria-sort") == "ascending" and _column(browser, table, k) == sorted(before)
    _click(browser, th)
    assert th.get_attribute("aria-sort") == "descending" and _column(browser, table, k) == sorted(before, reverse=True)
    assert not _severe(browser)


@NEEDS_CHROMIUM
def test_compare_table_sorts_through_the_page_script(compared, browser):
    _load(browser, compared)
    from selenium.webdriver.common.by import By

    table = browser.find_element(By.CSS_SELECTOR, "#compare-characters div.tablewrap > table")
    th = _header(table, "B − A")
    k = _index(browser, th)
    before = _column(browser, table, k)
    _click(browser, th)
    _click(browser, th)
    assert th.get_attribute("aria-sort") == "descending" and _column(browser, table, k) == sorted(before, reverse=True)
    assert not _severe(browser)


class _Page(HTMLParser):
    """Tag balance (every element closed in order; void elements aside), the text of every table
    header, and text holding a bare '<' (an unescaped cell)."""

    VOID = {"meta", "img", "br", "hr", "input", "link", "source", "wbr", "col", "area", "base", "embed", "track"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.headers: list[str] = []
        self.bare_lt: list[str] = []
        self._th: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)
        if tag == "th":
            self._th = []

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
            return
        self.stack.pop()
        if tag == "th" and self._th is not None:
            self.headers.append("".join(self._th).strip())
            self._th = None

    def handle_data(self, data):
        if self._th is not None:
            self._th.append(data)


def _parse(html: str) -> _Page:
    p = _Page()
    # a bare '<' in text (not starting a tag, a comment or a declaration): html.parser would pass it as text
    body = re.sub(r"<(script|style)>.*?</\1>", "", html, flags=re.S)
    p.bare_lt += re.findall(r"<(?![a-zA-Z/!])[^>]{0,20}", body)
    p.feed(html)
    p.close()
    return p


def test_pages_are_well_formed_and_escaped(full, compared):
    for page in (full[1], compared):
        p = _parse(page.read_text())
        assert not p.errors and p.stack == [], (page, p.errors[:5], p.stack)
        assert not p.bare_lt, (page, p.bare_lt[:5])
    # a cell with p below 0.001 and text with markup are escaped
    t = Table("x", "x", pl.DataFrame({"group": ["<b>A & B</b>"], "p": [0.0001], "p_holm": [0.0004]}))
    out = render_table(t)
    assert "&lt;0.001" in out and "<0.001" not in out and "&lt;b&gt;A &amp; B&lt;/b&gt;" in out
    assert 'class="sig"' in out and 'data-sort="0.0001"' in out
    p = _parse(out)
    assert not p.errors and not p.bare_lt and p.headers == ["group", "p", "Holm p"]


def test_every_vp_source_has_a_rulebook_label():
    assert set(VP_SOURCES) == set(VS_NAMES)  # a new engine source fails here until it is named
    assert len(set(VP_SOURCES.values())) == len(VP_SOURCES)  # no two sources read alike
    for engine, label in VP_SOURCES.items():
        assert "_" not in label and label != engine and label[0].isupper(), (engine, label)
    assert source_label("vp_major_spaces") == "Major building spaces" == column_label("vp_major_spaces")
    assert source_label("end_council") == "City Council VPs (end of game)"
    assert source_label("vp_status") == "VP status bonus" == column_label("vp_vp_status")  # a source whose name starts with vp_
    assert source_label("council_below") == "City Council at 0 or below (penalty)"
    assert column_label("mean_wa") == "mean War Attack (WA)" and column_label("p_holm") == "Holm p"
    assert all("_" not in v for v in COLUMNS.values())
    from analysis.labels import ACTIONS, action_label
    from sim.codes import Act

    assert set(ACTIONS) == {a.name for a in Act}  # a new action fails here until it is named
    assert action_label("SHIP") == "5. Load the Ship" and action_label("F_WAREHOUSE") == "Use City Warehouse"


def test_headers_and_legends_use_rulebook_names(full):
    """No engine name in any table header of the page or any VP-source legend; turn positions 1..N."""
    run, page = full
    html = page.read_text()
    heads = _parse(html).headers
    assert len(heads) > 100
    raw = [h for h in heads if "_" in h or h.split(" (95% CI)")[0] in set(VS_NAMES) | {"seat", "diff", "mean wa", "p holm"}]
    assert not raw, raw
    assert "turn position" in heads and "Holm p" in heads and "mean War Attack (WA)" in heads
    root = page.parent
    from analysis.synthetic import END_GAME, IN_GAME

    for stem in ("era_vp_by_source", "vp_split", "era_vp_by_source_character", "character_vp_captain"):
        svg = (root / "charts" / f"{stem}.svg").read_text()
        texts = set(re.findall(r"<text[^>]*>([^<]+)</text>", svg))
        for src in IN_GAME + END_GAME:
            assert source_label(src) in texts, (stem, src)
            assert src not in texts, (stem, src)
    from sim.codes import Act

    for a in Act:  # actions by the rulebook's names in the option-use tables, charts and sentences
        assert a.name not in html, a.name
    use_svg = (root / "charts" / "option_use.svg").read_text()
    assert "main: 5. Load the Ship" in use_svg and "built Palace" in use_svg and "main SHIP" not in use_svg
    seats = pl.read_csv(root / "tables" / "seat_balance.csv")
    for (n,), part in seats.partition_by("players", as_dict=True).items():
        assert sorted(part["turn_position"]) == list(range(1, n + 1))
    seat_svg = (root / "charts" / "seat_win_rates.svg").read_text()
    assert "turn position" in seat_svg and "seat (" not in seat_svg


def test_compare_page_uses_rulebook_names(compared):
    html = compared.read_text()
    heads = _parse(html).headers
    assert "VP source" in heads and "turn position" in heads and not [h for h in heads if "_" in h]
    cells = re.findall(r'<td class="txt">([^<]*)</td>', html)
    assert "VP status bonus" in cells and "Major building spaces" in cells and "Hacienda (wood)" in cells
    assert not [c for c in cells if "_" in c], [c for c in cells if "_" in c]


def test_glance_is_short_sentences_with_numbers(full):
    _, page = full
    html = page.read_text()
    items = re.findall(r"<li>(.*?)</li>", html.split('<ul class="glance">')[1].split("</ul>")[0])
    assert len(items) >= 5
    assert all(len(i) < 260 for i in items), max(items, key=len)
    assert re.search(r"4 players: turn position \d wins \d+\.\d%, turn position \d wins \d+\.\d% \(fair share 25\.0%\)", html)
    assert re.search(r"4 players: no Character&#x27;s win rate differs from the fair 25\.0%.*Highest: \w+ \d+\.\d%", html) or \
        re.search(r"4 players: \w+ wins \d+\.\d% \[", html)
    assert re.search(r"Rule variant bishop-buff, 4 players: Bishop&#x27;s win rate goes from \d+\.\d% to \d+\.\d%", html)


def test_incomplete_run_is_flagged(tmp_path, bare):
    run, bare_page = bare
    assert 'class="incomplete"' not in bare_page.read_text()  # a complete run has no flag
    assert incomplete_note({"status": "complete"}, run) == ""
    for status, why in (("running", "still playing, or it was killed"), ("interrupted", "was interrupted"), (None, "does not say")):
        note = incomplete_note({"status": status, "counts": {"games_done": 60, "games_total": 120}}, run)
        assert note.startswith(f"Incomplete run (status: {status or 'missing'})") and why in note, note
        assert "60 of 120 games" in note and f"trinidad run --resume --out {run}" in note
    cut = tmp_path / "cut"
    shutil.copytree(run, cut, ignore=shutil.ignore_patterns("elsewhere", "report"))
    m = json.loads((cut / "manifest.json").read_text())
    m["status"] = "interrupted"
    (cut / "manifest.json").write_text(json.dumps(m))
    header = build_report(cut).read_text().split("</header>")[0]
    assert 'class="incomplete"' in header and "Incomplete run (status: interrupted)" in header
    from reports.compare import build_comparison

    header = build_comparison(run, cut, tmp_path / "cmp").read_text().split("</header>")[0]
    assert header.count('class="incomplete"') == 1 and "Incomplete run (status: interrupted)" in header  # B only


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


def test_heatmap_order_and_distinct_lines():
    """The finishes-above heatmap lists the strongest Character first; twelve lines get twelve
    colours and twelve markers."""
    import pandas as pd

    from reports.charts import _strength_order
    from reports.course_charts import _colors

    m = pd.DataFrame([[None, 0.3, 0.4], [0.7, None, 0.6], [0.6, 0.4, None]], index=list("ABC"), columns=list("ABC"), dtype=float)
    assert _strength_order(m) == ["B", "C", "A"]
    cs = _colors([f"c{i}" for i in range(12)])
    assert len({c[0] for c in cs.values()}) == 12 and len({c[2] for c in cs.values()}) == 12
