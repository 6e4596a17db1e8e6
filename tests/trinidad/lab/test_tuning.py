"""trinidad.lab.tuning: the tuned-vs-untuned table is measured and written into its page by the command."""

from __future__ import annotations

import pytest

from trinidad.lab.tuning import BEGIN, END, main


def test_the_table_block_is_replaced_and_the_prose_kept(engine, tmp_path):
    page = tmp_path / "tuning.md"
    page.write_text(f"# Tuning\n\nprose before\n\n{BEGIN}\nold\n{END}\n\nprose after\n")
    assert main(["--games", "8", "--threads", "1", "--write", str(page)]) == 0
    text = page.read_text()
    assert text.startswith("# Tuning\n\nprose before\n\n" + BEGIN) and text.endswith(END + "\n\nprose after\n")
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("| Character")]
    assert len(rows) == 12 and "old" not in text
    assert all(r.count("%") == 6 for r in rows)  # a rate and its CI for each weight set
    page.write_text("no markers\n")
    with pytest.raises(SystemExit, match="no <!-- tuning-table:begin -->"):
        main(["--games", "8", "--threads", "1", "--write", str(page)])
