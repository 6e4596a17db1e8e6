"""The manual (trinidad/lab/manual.py): its generated blocks, the code map and the rulebook index
of docs/reference/, are what the code says now; every module has a docstring; every rule heading of
the rulebook is cited by some function's docstring; and the prose of README.md, the guide and the
reference pages names only modules, functions and paths that exist. Source files are read with ast: nothing here
imports or compiles the engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from trinidad.lab import manual
from trinidad.pages import PageError, markers

ROOT = Path(__file__).resolve().parents[3]
RULEBOOK = ROOT.parent / "shared" / "rules" / "trinidad-rulebook.md"  # CI clones shared/ beside the repository
needs_rulebook = pytest.mark.skipif(not RULEBOOK.is_file(), reason=f"no rulebook at {RULEBOOK} (shared/ is not beside the repository)")


def _tree(tmp_path: Path, modules: dict[str, str]) -> Path:
    """A small project under ``tmp_path``: path -> source, and the two reference pages holding a block each."""
    for rel, src in modules.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(src)
    for name, page in manual.block_pages(tmp_path / "docs" / "reference").items():
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text("# x\n\n" + "\n".join(markers(name)) + "\n")
    return tmp_path


# ----------------------------------------------------------------------------- the code map


def test_every_module_has_a_docstring():
    assert manual.undocumented(manual.code_map(ROOT)) == []


def test_the_reference_blocks_are_up_to_date():
    stale = manual.stale(manual.REFERENCE, ROOT)
    assert stale == [], f"docs/reference: the blocks {stale} are stale; run python -m trinidad.lab.manual --write"


def test_the_code_map_lists_every_module_of_every_package():
    cmap = manual.code_map(ROOT)
    on_disk = {p.relative_to(ROOT).as_posix() for pkg in manual.CODE_MAP_PACKAGES for p in (ROOT / pkg).rglob("*.py")
               if "__pycache__" not in p.parts}
    assert set(cmap) == on_disk
    assert {"sim/state.py", "sim/seam.py", "strategies/match.py", "trinidad/lab/manual.py", "analysis/data.py", "reports/build.py",
            "rio/rules.py", "rulesfile/__init__.py"} <= set(cmap)


def test_a_module_added_renamed_or_undocumented_fails_the_check(tmp_path):
    root = _tree(tmp_path, {"sim/__init__.py": '"""The engine."""\n', "sim/war.py": '"""The War."""\n'})
    reference = root / "docs" / "reference"
    manual.write(reference, root)
    assert manual.stale(reference, root) == []
    assert "| `sim/war.py` | The War. |" in (reference / "code-map.md").read_text()
    (root / "sim/war.py").rename(root / "sim/battle.py")  # renamed: the map is stale
    assert manual.stale(reference, root) == [manual.CODE_MAP]
    (root / "sim/quiet.py").write_text("x = 1\n")  # no docstring: refused, by name
    with pytest.raises(manual.ManualError, match="sim/quiet.py"):
        manual.blocks(root)
    assert manual.undocumented(manual.code_map(root)) == ["sim/quiet.py"]


def test_a_page_without_the_markers_fails(tmp_path):
    root = _tree(tmp_path, {"sim/__init__.py": '"""The engine."""\n'})
    (root / "docs" / "reference" / "code-map.md").write_text("# no blocks\n")
    with pytest.raises(PageError, match="code-map:begin"):
        manual.stale(root / "docs" / "reference", root)


@pytest.mark.parametrize("doc, expected", [
    ("The engine's random numbers.\n\nMore.", "The engine's random numbers."),
    ("B. ACTION PHASE: a turn and the rounds of the phase.\n\nMore.", "B. ACTION PHASE: a turn and the rounds of the phase."),
    ("C.3 TENSION LEVEL & WAR and the base War. Then more.", "C.3 TENSION LEVEL & WAR and the base War."),
    ("Playing against the A.I. (a Solo player's questions). More.", "Playing against the A.I. (a Solo player's questions)."),
    ("Runs paired by deal, e.g. before and after a change. More.", "Runs paired by deal, e.g. before and after a change."),
    ("A listing:\n\n=== table ===", "A listing"),
    ("The seam: :func:`sim.core.decide` calls ``choose``.", "The seam: `sim.core.decide` calls `choose`."),
])
def test_the_summary_is_the_first_sentence(doc, expected):
    assert manual.summary(doc) == expected


def test_a_long_summary_is_cut_at_a_clause_outside_brackets():
    doc = "Cards as objects: the deck, the piles (A. START OF THE DECADE, " + "x " * 80 + "), hands, burning, and more words here."
    s = manual.summary(doc)
    assert len(s) <= manual.SUMMARY_MAX and s.endswith(" …")
    assert s.count("(") == s.count(")")


# ----------------------------------------------------------------------------- the rulebook index


def test_every_rule_heading_maps_to_a_function():
    docs = manual.function_docstrings(ROOT)
    assert manual.unmapped(docs) == [], "rule headings that no function's docstring cites (add the citation where the rule is implemented)"
    index = manual.rulebook_index(docs)
    assert all(refs for _, refs in index)
    assert all(":" in ref and ref.split(".")[0] in manual.PACKAGES for _, refs in index for ref in refs)


def test_a_heading_that_maps_to_nothing_is_reported():
    docs = manual.function_docstrings(ROOT)
    headings = (*manual.RULE_HEADINGS, "12. SUMMON THE KRAKEN")
    assert manual.unmapped(docs, headings) == ["12. SUMMON THE KRAKEN"]
    assert "| 12. SUMMON THE KRAKEN | **nothing** |" in manual.render_rulebook_index(manual.rulebook_index(docs, headings))


def test_the_index_finds_the_function_that_cites_a_heading(tmp_path):
    root = _tree(tmp_path, {
        "sim/__init__.py": '"""The engine; SCORING PHASE here is a module docstring and does not count."""\n',
        "sim/war.py": '"""War."""\n\n\ndef normal_war():\n    """C.3 D: the base War (WAR; WAR\n    PROCEDURE)."""\n\n\n'
                      'class X:\n    def extended(self):\n        """EXTENDED WAR only."""\n',
    })
    docs = manual.function_docstrings(root)
    assert [ref for ref, _ in docs] == ["sim.war:normal_war", "sim.war:X.extended"]
    index = dict(manual.rulebook_index(docs, ("WAR", "WAR PROCEDURE", "EXTENDED WAR", "SCORING PHASE")))
    assert index == {"WAR": ["sim.war:normal_war"], "WAR PROCEDURE": ["sim.war:normal_war"],
                     "EXTENDED WAR": ["sim.war:X.extended"], "SCORING PHASE": []}


@pytest.mark.parametrize("doc, name, cited", [
    ("C.3 WAR PROCEDURE: the battle", "WAR PROCEDURE", True),
    ("C.3 WAR PROCEDURE: the battle", "WAR", False),
    ("EXTENDED WAR: the Combat Area", "WAR", False),
    ("C.3 TENSION LEVEL & WAR and more", "WAR", False),
    ("the base War (WAR; WAR PROCEDURE)", "WAR", True),
    ("COMBAT AREA SETUP 3. DEFENDERS PLACEMENT", "SETUP", False),
    ("COMBAT AREA SETUP 3. DEFENDERS PLACEMENT", "DEFENDERS PLACEMENT", True),
    ("SETUP 1-5 and the starting cards", "SETUP", True),
    ("the game's setup", "SETUP", False),
    ("A. DRAW CARDS: draw 2 keep 0 or 1", "DRAW CARDS", True),
    ("CITY COUNCIL VOTE: the laws", "CITY COUNCIL", False),
    ("9. CITY COUNCIL: the COUNCIL rows", "CITY COUNCIL", True),
    ("Cards status II: one free reactivation", "Cards status", True),
    ("the Cards statuses", "Cards status", False),
])
def test_the_matching_rule(doc, name, cited):
    assert manual.cites(doc, name) is cited


@pytest.mark.parametrize("heading, name", [
    ("1-2. MINOR BUILDING CONSTRUCTION, GROUP A-B", "MINOR BUILDING CONSTRUCTION, GROUP A-B"),
    ("A. START OF THE DECADE PHASE", "START OF THE DECADE PHASE"),
    ("Worker status.", "Worker status"),
    ("SPECIAL RULES:", "SPECIAL RULES"),
    ("2-PLAYER GAME WITHOUT A.I.", "2-PLAYER GAME WITHOUT A.I."),
    ("FIGHT! ACTION DESCRIPTION", "FIGHT! ACTION DESCRIPTION"),
])
def test_heading_names(heading, name):
    assert manual.heading_name(heading) == name


def test_check_headings_reports_a_rulebook_out_of_step():
    book = manual.rulebook_headings("# GAME CONTENTS\n## SETUP\n```\n# not a heading\n```\n## B. ACTION PHASE\n## NEW RULE\n")
    assert [h.text for h in book] == ["GAME CONTENTS", "SETUP", "B. ACTION PHASE", "NEW RULE"]
    problems = manual.check_headings(book, ("SETUP", "B. ACTION PHASE"), {"GAME CONTENTS": "components"})
    assert problems == ["heading 'NEW RULE' of the rulebook is neither in RULE_HEADINGS nor in NOT_RULES"]
    problems = manual.check_headings(book, ("B. ACTION PHASE", "SETUP", "GONE"), {"GAME CONTENTS": "c", "NEW RULE": "n"})
    assert "rule heading 'GONE' is not a heading of the rulebook" in problems
    assert "RULE_HEADINGS is not in the rulebook's order" in problems


@needs_rulebook
def test_the_heading_lists_match_the_rulebook():
    assert manual.check_headings(manual.rulebook_headings(RULEBOOK.read_text())) == []


# ----------------------------------------------------------------------------- the prose


@pytest.mark.parametrize("page", [p.relative_to(ROOT).as_posix() for p in manual.prose_pages(ROOT)])
def test_the_prose_names_only_what_exists(page):
    assert manual.dangling_references((ROOT / page).read_text(), ROOT) == []


def test_the_prose_pages_are_the_readme_the_guide_and_the_reference():
    pages = {p.relative_to(ROOT).as_posix() for p in manual.prose_pages(ROOT)}
    assert {"README.md", "docs/guide/README.md", "docs/reference/commands.md", "docs/reference/engine.md"} <= pages
    assert not any(p.startswith("docs/notebook/") for p in pages)  # the dated notebook is left as it was written


def test_a_dangling_name_or_path_is_reported():
    text = "`sim.core.decide` `sim.nosuch.f` `sim/core.py` `sim/gone.py` `strategies/*.toml` `sim.state.G.DECADE` `sim.core.nope`"
    assert manual.dangling_references(text, ROOT) == ["sim.core.nope", "sim.nosuch.f", "sim/gone.py"]


def test_the_command_checks_and_writes(tmp_path, capsys):
    assert manual.main(["--check"]) == 0
    for name, page in manual.block_pages().items():
        (tmp_path / page.name).write_text(page.read_text())
    stale = tmp_path / "code-map.md"
    stale.write_text(stale.read_text().replace("| `sim/seam.py` |", "| `sim/old_seam.py` |"))
    assert manual.main(["--check", "--reference", str(tmp_path)]) == 1
    assert "stale blocks code-map" in capsys.readouterr().err
    assert manual.main(["--write", "--reference", str(tmp_path)]) == 0
    assert stale.read_text() == (manual.REFERENCE / "code-map.md").read_text()
