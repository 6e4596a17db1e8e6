"""Generated blocks of hand-written pages: a command measures a table and writes it between the
markers ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` of a page (README.md, docs/*.md), keeping
the prose around it. The table inside is never typed by hand."""

from __future__ import annotations

import re
from pathlib import Path


class PageError(ValueError):
    """A page lacks the markers of a block (or holds them out of order or twice)."""


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with the block ``name`` holding ``body`` (markers kept, on lines of their own):
    replacing a block with what it holds changes nothing."""
    begin, end = markers(name)
    if text.count(begin) != 1 or text.count(end) != 1 or text.index(begin) > text.index(end):
        raise PageError(f"no {begin} ... {end} block to replace (each marker once, begin first)")
    block = f"{begin}\n{body.strip()}\n{end}"
    return re.sub(re.escape(begin) + ".*?" + re.escape(end), lambda _: block, text, count=1, flags=re.S)


def write_blocks(page: Path, blocks: dict[str, str]) -> None:
    """Replace every named block of ``page``; the file is left as it was when one is missing."""
    text = page.read_text()
    for name, body in blocks.items():
        try:
            text = replace_block(text, name, body)
        except PageError as e:
            raise PageError(f"{page}: {e}") from None
    page.write_text(text)
