"""trinidad.pages: a command's table goes between the markers of a hand-written page, and only there."""

from __future__ import annotations

import pytest

from trinidad.pages import PageError, markers, replace_block, write_blocks

B, E = markers("ladder")
PAGE = f"# Title\n\nprose before\n\n{B}\nold table\n{E}\n\nprose after\n"


def test_the_block_is_replaced_and_the_prose_kept():
    out = replace_block(PAGE, "ladder", "| new | table |\n")
    assert out == f"# Title\n\nprose before\n\n{B}\n| new | table |\n{E}\n\nprose after\n"


def test_replacing_is_idempotent():
    once = replace_block(PAGE, "ladder", "| new |")
    assert replace_block(once, "ladder", "| new |") == once
    assert replace_block(PAGE, "ladder", "old table") == PAGE  # the block's own content changes nothing


@pytest.mark.parametrize("text", [
    "# no markers at all\n",
    f"only the start {B}\n",
    f"{E} end before begin {B}\n",
    f"{B}\none\n{E}\n{B}\ntwice\n{E}\n",
])
def test_missing_or_broken_markers_fail(text):
    with pytest.raises(PageError, match="<!-- ladder:begin -->"):
        replace_block(text, "ladder", "x")


def test_write_blocks_leaves_the_page_alone_when_a_block_is_missing(tmp_path):
    page = tmp_path / "README.md"
    page.write_text(PAGE)
    with pytest.raises(PageError, match="characters:begin"):
        write_blocks(page, {"ladder": "new", "characters": "table"})
    assert page.read_text() == PAGE
    cb, ce = markers("characters")
    page.write_text(PAGE + f"{cb}\n{ce}\n")
    write_blocks(page, {"ladder": "new", "characters": "table"})
    assert page.read_text() == f"# Title\n\nprose before\n\n{B}\nnew\n{E}\n\nprose after\n{cb}\ntable\n{ce}\n"
