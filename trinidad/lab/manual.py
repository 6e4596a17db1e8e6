"""The reference pages' generated blocks: the code map and the rulebook index, read from the code's docstrings.

``python -m trinidad.lab.manual --write`` rewrites the block of docs/reference/code-map.md (between the
marker comments ``<!-- code-map:begin -->`` / ``<!-- code-map:end -->``) and the block of
docs/reference/rulebook-index.md (``<!-- rulebook-index:begin -->`` / ``<!-- rulebook-index:end -->``,
see :mod:`trinidad.pages`); ``--check`` exits 1 when either block differs from what the code says now
(a module added, renamed, moved or re-described, a citation added or dropped), or when the prose of
README.md, the guide (docs/guide/) or the reference (docs/reference/) names a module, function or
project path in a code span that does not exist (:func:`dangling_references`). The standard
library and :mod:`trinidad.pages` are all it imports: every source file is read with :mod:`ast`,
no engine module is imported, so nothing is compiled.

**The code map** lists every Python module under ``sim/``, ``strategies/``, ``trinidad/``,
``analysis/`` and ``reports/`` (packages and sub-packages included, in path order) with its
summary: the first sentence of its module docstring's first paragraph, whitespace joined and
Sphinx roles turned into code spans. A sentence ends at a full stop after a lower-case letter or
a closing bracket or quote, so "B. ACTION PHASE", "C.3" and "A.I." do not end one. A summary
longer than :data:`SUMMARY_MAX` characters is cut at the last clause boundary before it (``": "``,
``"; "``, ``", "``, outside brackets and code spans; else at a space outside them) and ends with
an ellipsis; a trailing colon is dropped. A module without a docstring is an error.

**The rulebook index** maps each game-rule heading of the rulebook
(``../shared/rules/trinidad-rulebook.md``, beside the repository) to the functions whose
docstrings cite it. The matching rule:

- A heading's *name* is its text without the rulebook's numbering ("1-2. ", "3. ", "A. ") and
  without a trailing colon, or a trailing full stop after a lower-case letter ("Worker status.").
  Headings of the same name (the action 8. PLAYER ORDER and the step C.5 PLAYER ORDER) are one
  row, which shows every spelling.
- A docstring of a function or method (``def``, jitted or not; module and class docstrings do not
  count) cites a heading when its text, whitespace joined, holds the name exactly: case-sensitive,
  as the rulebook spells it, so a citation is written in the rulebook's capitals ("SCORING PHASE",
  "C.3 WAR PROCEDURE", "A. DRAW CARDS"; a numbering in front is allowed, and required by nothing).
- The name must stand whole: no letter, digit or "&" touching either end; and a name in capitals
  must not have a word in capitals (two or more capitals, or "&") next to it across one space, so
  "WAR" is not cited by "EXTENDED WAR", "TENSION LEVEL & WAR" or "WAR PROCEDURE", nor "SETUP" by
  "COMBAT AREA SETUP" (a mixed-case name such as "Cards status" may be followed by "II").

The headings indexed are :data:`RULE_HEADINGS`, the rules of the game, in rulebook order; every
other heading of the rulebook is in :data:`NOT_RULES` with the reason it is left out.
:func:`check_headings` holds both lists to the rulebook (each heading named once, each indexed one
in the rulebook, in its order), and :func:`unmapped` names the rule headings no function cites:
the test suite (tests/trinidad/lab/test_manual.py) requires there be none.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from trinidad.pages import PageError, replace_block

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = ROOT / "docs" / "reference"
RULEBOOK = ROOT.parent / "shared" / "rules" / "trinidad-rulebook.md"
PACKAGES = ("sim", "strategies", "trinidad", "analysis", "reports")  # engine first, then players, orchestration, data, pages
# the code map lists the second game, the rules-file format and what both engines share too; the rulebook index stays Trinidad's
CODE_MAP_PACKAGES = PACKAGES + ("rulesfile", "gamekit", "rio")
CODE_MAP = "code-map"
RULEBOOK_INDEX = "rulebook-index"
# Each generated block lives on the reference page of its name (docs/reference/code-map.md, ...).
BLOCKS = (CODE_MAP, RULEBOOK_INDEX)
SUMMARY_MAX = 200

# The rulebook headings of the game's rules, as the rulebook writes them, in its order: the game's
# structure, SETUP, the three phases of a decade with every action, card, vote and War step, the
# SCORING PHASE, the A.I. (Solo and 2-player), the 2-player variant without it and the EXTENDED WAR
# expansion. Each must be cited by at least one function's docstring (tests/trinidad/lab/test_manual.py).
RULE_HEADINGS = (
    "SETUP",
    "PLAYING THE GAME",
    "A. START OF THE DECADE PHASE",
    "DRAW CARDS",
    "SALARY",
    "B. ACTION PHASE",
    "1-2. MINOR BUILDING CONSTRUCTION, GROUP A-B",
    "Construction requirements",
    "2. MINOR BUILDING ACTIVATION, GROUP B",
    "Activation limitations",
    "ACTIVATION EFFECTS",
    "COIN STACKS AND RESOURCE GRIDS",
    "3. REMOVE HOUSES/PALACES",
    "4. DEPLOY MILICIANOS",
    "5. LOAD THE SHIP",
    "6. TAKE A CARD",
    "7. REACTIVATE CARDS",
    "8. PLAYER ORDER",
    "9. CITY COUNCIL",
    "10. IMPROVE STATUS",
    "Construction status.",
    "Worker status.",
    "VP status.",
    "Cards status.",
    "11. MAJOR BUILDING",
    "MAJOR BUILDING DESCRIPTION",
    "FREE ACTIONS",
    "CHARACTER CARDS",
    "AFFILIATE CARDS",
    "USE AN AFFILIATE CARD",
    "BURN AN AFFILIATE CARD",
    "CITY COUNCIL WORKERS",
    "CITY COUNCIL VOTE",
    "BANNERS",
    "C. END OF THE DECADE",
    "1. CARDS REACTIVATION",
    "2. SHIP SAILS FOR SPAIN",
    "3. TENSION LEVEL & WAR",
    "4. REFILL",
    "5. PLAYER ORDER",
    "6. RECOVER WORKERS",
    "7. SCORING",
    "WAR",
    "WAR PROCEDURE",
    "SCORING PHASE",
    "VPS ASSIGNATION",
    "END OF THE GAME VPS VARIATIONS",
    "TWO PLAYERS GAME & SOLO MODE",
    "SPECIAL RULES:",
    "2-PLAYER GAME WITHOUT A.I.",
    "EXTENDED WAR",
    "COMBAT AREA SETUP",
    "1. DETERMINE THE ATTACKERS NUMBER",
    "2. ATTACKERS PLACEMENT",
    "War Table.",
    "3. DEFENDERS PLACEMENT",
    "MINIATURE AV, HP & INITIATIVE",
    "WAR FLOW",
    "ATTACKERS WAR ACTIONS",
    "PLAYER WAR ACTIONS",
    "FIGHT! ACTION DESCRIPTION",
    "END OF THE WAR",
)

# Every other heading of the rulebook, by name, and why it is not a rule to index.
NOT_RULES = {
    "Trinidad": "the rulebook's title",
    "GAME CONTENTS": "the components: counts are data of the rules file, no procedure",
    "HISTORICAL NOTES": "history, no rule",
    "NOTE ABOUT THE EXPANSION": "says that the Extended War rules are printed in red",
    "GAME FLOW": "an overview of the game; its rules are PLAYING THE GAME and the phases",
    "(ONLY AT THE END OF THE ERA)": "a qualifier under 7. SCORING, indexed with it",
    "VARIANTS": "groups 2-PLAYER GAME WITHOUT A.I. (indexed) and EVENTS",
    "EVENTS": "not simulated: the Event cards have no texts (ruling R-12)",
    "ERA": "the corner cell of the War Table, set as a heading by the text conversion",
    "CREDITS": "credits, no rule",
    "CARD REFERENCE": "the card texts: data rows of the rules file ([[affiliate]]); CHARACTER CARDS and AFFILIATE CARDS are indexed",
    "CARPENTER CARDS": "a Character group's card texts (CARD REFERENCE)",
    "STONECUTTER CARDS": "a Character group's card texts (CARD REFERENCE)",
    "MERCHANT CARDS": "a Character group's card texts (CARD REFERENCE)",
    "DEFENDER CARDS": "a Character group's card texts (CARD REFERENCE)",
    "ROADMAKER CARDS": "a Character group's card texts (CARD REFERENCE)",
    "SAILMAKER CARDS": "a Character group's card texts (CARD REFERENCE)",
    "GENERAL CARDS": "a Character group's card texts (CARD REFERENCE)",
    "CAPTAIN CARDS": "a Character group's card texts (CARD REFERENCE)",
    "BISHOP CARDS": "a Character group's card texts (CARD REFERENCE)",
    "ARCHITECT CARDS": "a Character group's card texts (CARD REFERENCE)",
    "GOVERNOR CARDS": "a Character group's card texts (CARD REFERENCE)",
    "NOBLEWOMAN CARDS": "a Character group's card texts (CARD REFERENCE)",
    "FAQ/ERRATA": "clarifications of the rules above, cited where they apply, no section of their own",
    "STANDARD GAME": "FAQ of the standard game (see FAQ/ERRATA)",
    "SOLO GAME": "FAQ of the Solo game (see FAQ/ERRATA)",
    "ERRATA": "corrections of rule and card texts, applied where those are implemented",
}


class ManualError(ValueError):
    """The code or the rulebook cannot give a block: a module without a docstring, a heading list out
    of step with the rulebook; the message names what."""


# ----------------------------------------------------------------------------- the code map


def module_files(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[Path]:
    """Every ``*.py`` file of the packages under ``root``, sub-packages included, package by package
    in path order."""
    return [p for pkg in packages for p in sorted((root / pkg).rglob("*.py")) if "__pycache__" not in p.parts]


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted module name of a source file (a package's ``__init__.py`` is the package)."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


_ROLE = re.compile(r":(?:func|mod|class|data|attr|meth|obj|exc):`~?([^`]+)`")
_STOP = re.compile(r"(?<=[a-z)\]`'\"])\.(?=\s|$)")
_ABBREV = ("e.g.", "i.e.", "cf.", "vs.", "etc.")


def summary(doc: str) -> str:
    """The summary of a docstring: the first sentence of its first paragraph (see the module
    docstring), with Sphinx roles and double backquotes as markdown code spans."""
    para = " ".join(doc.strip().split("\n\n")[0].split())
    para = _ROLE.sub(r"``\1``", para).replace("``", "`")
    for m in _STOP.finditer(para):
        if not para[: m.end()].endswith(_ABBREV):
            para = para[: m.end()]
            break
    para = para.rstrip(":")
    if len(para) > SUMMARY_MAX:
        para = re.sub(r" (?:\d+(?:-\d+)?|[A-Z])\.$", "", para[: _cut(para, SUMMARY_MAX - 2)].rstrip(" ,;:"))  # no dangling "2."
        para = para.rstrip(" ,;:") + " …"
    return para


def _cut(text: str, limit: int) -> int:
    """Where to cut ``text`` before ``limit``: the last ": ", "; " or ", " outside brackets and code
    spans when it keeps most of the text (60% of ``limit``), else the last space outside them, else
    the last space."""
    depth, code, clause, space = 0, False, 0, 0
    for i, ch in enumerate(text[:limit]):
        if ch == "`":
            code = not code
        elif not code and ch in "([{":
            depth += 1
        elif not code and ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == " " and depth == 0 and not code:
            space = i
            if text[i - 1] in ":;,":
                clause = i - 1
    if clause >= 0.6 * limit:
        return clause
    return max(clause, space) or text.rfind(" ", 0, limit)


def module_docstring(path: Path) -> str | None:
    return ast.get_docstring(ast.parse(path.read_text(), str(path)))


def code_map(root: Path = ROOT) -> dict[str, str | None]:
    """Module path (relative to ``root``) -> its summary, or None for a module without a docstring."""
    out = {}
    for p in module_files(root, CODE_MAP_PACKAGES):
        doc = module_docstring(p)
        out[p.relative_to(root).as_posix()] = summary(doc) if doc and doc.strip() else None
    return out


def undocumented(cmap: dict[str, str | None]) -> list[str]:
    """The modules of a code map that have no docstring."""
    return [m for m, s in cmap.items() if s is None]


def render_code_map(cmap: dict[str, str | None]) -> str:
    """The code map as a markdown table; a module without a docstring is refused."""
    missing = undocumented(cmap)
    if missing:
        raise ManualError("modules without a docstring (the code map's description is its first sentence): " + ", ".join(missing))
    lines = ["| module | what it is (its docstring's first sentence) |", "|---|---|"]
    lines += [f"| `{m}` | {s.replace('|', '&#124;')} |" for m, s in cmap.items()]
    return "\n".join(lines)


# ----------------------------------------------------------------------------- the rulebook index


_NUMBERING = re.compile(r"^(?:[A-Z]\.|\d+(?:-\d+)?\.)\s+")
_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_CAPS_BEFORE = re.compile(r"(?:^|[^\w])(?:[A-Z][A-Z0-9'/!-]*[A-Z0-9!]|&) $")
_CAPS_AFTER = re.compile(r" (?:[A-Z][A-Z0-9'/!-]*[A-Z0-9!]|&)(?![\w])")


def heading_name(heading: str) -> str:
    """A heading's name: its text without the rulebook's numbering, a trailing colon, or a trailing
    full stop after a lower-case letter."""
    name = _NUMBERING.sub("", heading.strip()).rstrip().rstrip(":").rstrip()
    if len(name) > 1 and name.endswith(".") and name[-2].islower():
        name = name[:-1]
    return name


@dataclass(frozen=True)
class Heading:
    level: int  # 1 for "#", 2 for "##", ...
    text: str  # as the rulebook writes it
    line: int  # 1-based

    @property
    def name(self) -> str:
        return heading_name(self.text)


def rulebook_headings(text: str) -> list[Heading]:
    """The markdown headings of the rulebook's text, in order (lines in code fences skipped)."""
    out, fence = [], False
    for i, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fence = not fence
            continue
        m = None if fence else _HEADING.match(line)
        if m:
            out.append(Heading(len(m.group(1)), m.group(2), i))
    return out


def check_headings(headings: list[Heading], rules: tuple[str, ...] = RULE_HEADINGS,
                   not_rules: dict[str, str] = NOT_RULES) -> list[str]:
    """What is out of step between the rulebook's headings and the two lists: a rule heading not in
    the rulebook (as it is spelled there) or out of its order, or listed twice; a heading of the
    rulebook in neither list or in both. Empty when they agree."""
    problems = []
    book = {h.name for h in headings}
    names = [heading_name(h) for h in rules]
    first: dict[str, int] = {}
    for h in headings:
        first.setdefault(h.text, h.line)
    for h in rules:
        if heading_name(h) not in book:
            problems.append(f"rule heading {h!r} is not a heading of the rulebook")
        elif h not in first:
            problems.append(f"rule heading {h!r} is spelled otherwise in the rulebook")
    for h in sorted({h for h in rules if rules.count(h) > 1}):
        problems.append(f"rule heading {h!r} listed twice")
    for n in sorted(book):
        if n in names and n in not_rules:
            problems.append(f"heading {n!r} is both a rule and not a rule")
        elif n not in names and n not in not_rules:
            problems.append(f"heading {n!r} of the rulebook is neither in RULE_HEADINGS nor in NOT_RULES")
    for n in sorted(set(not_rules) - book):
        problems.append(f"NOT_RULES names {n!r}, no heading of the rulebook")
    order = [first[h] for h in rules if h in first]
    if order != sorted(order):
        problems.append("RULE_HEADINGS is not in the rulebook's order")
    return problems


def function_docstrings(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[tuple[str, str]]:
    """Every function's and method's docstring under the packages, as (``module:qualname``, the
    docstring with its whitespace joined), in file and line order."""
    out = []
    for p in module_files(root, packages):
        mod = module_name(p, root)

        def walk(node, prefix, mod=mod):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    doc = ast.get_docstring(child)
                    if doc:
                        out.append((f"{mod}:{prefix}{child.name}", " ".join(doc.split())))
                    walk(child, f"{prefix}{child.name}.")
                elif isinstance(child, ast.ClassDef):
                    walk(child, f"{prefix}{child.name}.")
                elif not isinstance(child, (ast.Lambda, ast.expr)):
                    walk(child, prefix)  # functions under if/try/with blocks

        walk(ast.parse(p.read_text(), str(p)), "")
    return out


def cites(doc: str, name: str) -> bool:
    """Whether a docstring (whitespace joined) cites the heading ``name`` by the matching rule."""
    for m in re.finditer(re.escape(name), doc):
        before, after = doc[: m.start()], doc[m.end():]
        if re.search(r"[\w&]$", before) or re.match(r"[\w&]", after):
            continue
        if name.isupper() and (_CAPS_BEFORE.search(before) or _CAPS_AFTER.match(after)):
            continue
        return True
    return False


def rulebook_index(docs: list[tuple[str, str]], rules: tuple[str, ...] = RULE_HEADINGS) -> list[tuple[str, list[str]]]:
    """Each rule heading with the ``module:function`` whose docstrings cite it; headings of one name
    are one row, their spellings joined by " / "."""
    spellings: dict[str, list[str]] = {}
    for h in rules:
        spellings.setdefault(heading_name(h), []).append(h)
    return [(" / ".join(hs), [ref for ref, doc in docs if cites(doc, n)]) for n, hs in spellings.items()]


def unmapped(docs: list[tuple[str, str]], rules: tuple[str, ...] = RULE_HEADINGS) -> list[str]:
    """The rule headings that no function's docstring cites."""
    return [h for h, refs in rulebook_index(docs, rules) if not refs]


def render_rulebook_index(index: list[tuple[str, list[str]]]) -> str:
    """The index as a markdown table: heading, then the citing functions grouped by module."""
    lines = ["| rulebook heading | cited by (module: functions) |", "|---|---|"]
    for h, refs in index:
        by_mod: dict[str, list[str]] = {}
        for ref in refs:
            mod, fn = ref.split(":", 1)
            by_mod.setdefault(mod, []).append(f"`{fn}`")
        cell = "; ".join(f"`{mod}`: {', '.join(fns)}" for mod, fns in by_mod.items()) or "**nothing**"
        lines.append(f"| {h} | {cell} |")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- names in the prose


_DOTTED = re.compile(r"(?<![\w./-])((?:sim|strategies|trinidad|analysis|reports)(?:\.[A-Za-z_]\w*)+)")
_PATH = re.compile(r"(?<![\w./-])((?:sim|strategies|trinidad|analysis|reports|tests|docs)/[\w./*<>-]*)")


def _defined(path: Path) -> set[str]:
    """The names a module defines or imports at its top level, and ``Class.member`` for its classes."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(), str(path)).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                for sub in node.body:
                    targets = [sub] if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)) else getattr(sub, "targets", [])
                    if isinstance(sub, ast.AnnAssign):
                        targets = [sub.target]
                    names.update(f"{node.name}.{getattr(x, 'name', None) or getattr(x, 'id', '')}" for x in targets)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for tgt in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(e.id for e in ast.walk(tgt) if isinstance(e, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def resolves(ref: str, root: Path = ROOT) -> bool:
    """Whether a dotted name (``sim.core.decide``, ``sim.actions``, ``strategies.python_bridge.View``)
    is a module of the project, or a name its longest module prefix defines or imports."""
    parts = ref.split(".")
    for i in range(len(parts), 0, -1):
        base = root.joinpath(*parts[:i])
        mod = base / "__init__.py" if (base / "__init__.py").is_file() else base.with_suffix(".py")
        if mod.is_file():
            rest = parts[i:]
            return not rest or (len(rest) <= 2 and ".".join(rest) in _defined(mod)) or (len(rest) == 2 and rest[0] in _defined(mod)
                                                                                        and resolves(".".join(parts[: i + 1]), root))
    return False


def dangling_references(text: str, root: Path = ROOT) -> list[str]:
    """The module names and project paths in the code spans of a page that name nothing: a dotted
    name that is no module, function, class or constant of the project, or a path (``sim/seam.py``,
    ``sim/actions/``) that does not exist (a path with ``*`` or ``<...>`` needs its folder only).
    Prose about modules stays true when code moves: the check fails instead."""
    bad = []
    for span in re.findall(r"`([^`\n]+)`", text):
        for ref in _DOTTED.findall(span):
            ref = ref.rstrip(".")
            if not resolves(ref, root):
                bad.append(ref)
        for ref in _PATH.findall(span):
            ref = ref.rstrip(".")
            fixed = re.split(r"[*<]", ref)[0]  # the part before a wildcard or a placeholder
            target = root / fixed if fixed == ref or fixed.endswith("/") else (root / fixed).parent
            if not target.exists():
                bad.append(ref)
    return sorted(set(bad))


# ----------------------------------------------------------------------------- the pages


def block_pages(reference: Path = REFERENCE) -> dict[str, Path]:
    """The page that holds each generated block: ``<reference>/<block name>.md``."""
    return {name: reference / f"{name}.md" for name in BLOCKS}


def prose_pages(root: Path = ROOT) -> list[Path]:
    """The hand-written pages whose code spans must name what exists: the README, the guide and the reference."""
    pages = [root / "README.md"] + sorted((root / "docs" / "guide").glob("*.md")) + sorted((root / "docs" / "reference").glob("*.md"))
    return [p for p in pages if p.is_file()]


def blocks(root: Path = ROOT) -> dict[str, str]:
    """The generated blocks, by marker name."""
    docs = function_docstrings(root)
    return {CODE_MAP: render_code_map(code_map(root)), RULEBOOK_INDEX: render_rulebook_index(rulebook_index(docs))}


def updated(text: str, new_blocks: dict[str, str]) -> str:
    """``text`` with every named block holding its new content."""
    for name, body in new_blocks.items():
        text = replace_block(text, name, body)
    return text


def stale(reference: Path = REFERENCE, root: Path = ROOT) -> list[str]:
    """The names of the generated blocks whose page differs from the code."""
    pages = block_pages(reference)
    return [name for name, body in blocks(root).items() if replace_block(pages[name].read_text(), name, body) != pages[name].read_text()]


def write(reference: Path = REFERENCE, root: Path = ROOT) -> list[Path]:
    """Rewrite each generated block on its page; the pages written."""
    pages = block_pages(reference)
    for name, body in blocks(root).items():
        pages[name].write_text(replace_block(pages[name].read_text(), name, body))
    return list(pages.values())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trinidad.lab.manual", description=__doc__.split("\n\n")[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", action="store_true", help="rewrite the code-map and rulebook-index blocks of the reference pages")
    what.add_argument("--check", action="store_true", help="exit 1 when a block is stale or a page's prose names what does not exist")
    ap.add_argument("--reference", type=Path, default=REFERENCE,
                    help="the folder of the pages holding the blocks, code-map.md and rulebook-index.md (default: docs/reference)")
    ap.add_argument("--rulebook", type=Path, default=RULEBOOK, help="the rulebook whose headings RULE_HEADINGS must match")
    a = ap.parse_args(argv)
    try:
        if a.rulebook.is_file():
            problems = check_headings(rulebook_headings(a.rulebook.read_text()))
            if problems:
                raise ManualError("the heading lists do not match the rulebook:\n  " + "\n  ".join(problems))
        else:
            print(f"{a.rulebook}: no rulebook there; RULE_HEADINGS not checked against it", file=sys.stderr)
        missing = unmapped(function_docstrings())
        if missing:
            raise ManualError("rule headings no function's docstring cites: " + "; ".join(missing))
        if a.write:
            for page in write(a.reference):
                print(f"{page}: written")
            return 0
        bad = stale(a.reference)
    except (ManualError, PageError) as e:
        print(f"python -m trinidad.lab.manual: {e}", file=sys.stderr)
        return 2
    dangling = {page: dangling_references(page.read_text()) for page in prose_pages()}
    for page, refs in dangling.items():
        if refs:
            print(f"{page}: names no module, function or file: {', '.join(refs)}", file=sys.stderr)
    if bad:
        print(f"{a.reference}: stale blocks {', '.join(bad)}; run python -m trinidad.lab.manual --write", file=sys.stderr)
    if bad or any(dangling.values()):
        return 1
    print(f"{a.reference}: {CODE_MAP} and {RULEBOOK_INDEX} are up to date; every module and path named exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
