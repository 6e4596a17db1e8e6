"""The option rows of a decision (sim.options.set_option, re-exported by sim.core): every listing writes its rows whole."""

from __future__ import annotations


def test_every_option_row_is_written_whole():
    """A decision's rows share the ``st.opts`` buffer with every earlier decision, and the policy
    reads rows whole (a CARD_TARGET row's column 2 names the card for some powers). A listing that
    wrote only some columns left the rest from an earlier decision: card 83's grid rows were valued
    by a stale column 2 (a BUILD row's space number, sometimes equal to a scoring card's id). Every
    write of an option row in the engine (every module under sim/, packages included) is
    sim.options.set_option or a block writing columns 0-4."""
    import re
    from pathlib import Path

    write = re.compile(r"(\s*)st\.opts\[([^\]]+?), (\d)\] = ")
    partial = []
    sim = Path(__file__).resolve().parents[2] / "sim"
    paths = sorted(sim.rglob("*.py"))
    assert sim / "options.py" in paths
    for path in paths:
        lines = path.read_text().splitlines()
        i = 0
        while i < len(lines):
            m = write.match(lines[i])
            if not m:
                i += 1
                continue
            cols = []
            while i < len(lines) and (m2 := write.match(lines[i])) and m2.group(2) == m.group(2):
                cols.append(int(m2.group(3)))
                i += 1
            if cols != [0, 1, 2, 3, 4]:
                partial.append(f"{path.relative_to(sim)}:{i}: columns {cols}")
    assert not partial, partial
