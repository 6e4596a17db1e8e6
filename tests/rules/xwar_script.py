"""A scripted player for the Extended War tests (a Python strategy, strategies.python_bridge): each
decision asks ``Scripted.pick(kind, rows)`` (set by the test), default the first row."""

from __future__ import annotations


class Scripted:
    def __init__(self):
        self.pick = None
        self.asked: list[tuple[str, list[tuple[int, ...]]]] = []

    def choose(self, view, options) -> int:
        rows = [o.args for o in options] if hasattr(options[0], "args") else [tuple(o) for o in options]
        self.asked.append((view.kind, rows))
        if self.pick is None:
            return 0
        return int(self.pick(view.kind, rows))
