"""An example Python strategy (the protocol: strategies.python_bridge).

``Builder`` builds: Houses and Palaces first, then any building, then production; it takes City
Council points when it has nothing to build, passes before taking any free action, discards
cards rather than leave salaries unpaid, and leaves every other decision to the first listed
option (which is the engine's "no"/"stop"/"abstain" where there is one). Ties are broken by a
generator seeded from the view, so a game stays a pure function of its seed.

    trinidad tournament --strategies py:strategies.pyexample:Builder,greedy --games 200
"""

from __future__ import annotations

import random

from sim.state import B
from strategies.python_bridge import Option, View

# preference by TURN action name (higher first); BUILD is refined by building type
_ACTION_RANK = {"BUILD": 50, "ACTIVATE": 40, "SHIP": 35, "MAJOR": 30, "COUNCIL": 20, "CARD_DRAW": 10, "PASS": -10}
_BUILD_RANK = {B.PALACE: 9, B.HOUSE: 8, B.LOT: 6}


class Builder:
    """Houses and Palaces first; see the module docstring."""

    def score(self, o: Option) -> float:
        if o.action == "BUILD":
            return _ACTION_RANK["BUILD"] + _BUILD_RANK.get(o.args[0], 0)
        if o.action.startswith("F_"):  # free actions (recovering workers costs VP, burning costs a card): never
            return -20
        return _ACTION_RANK.get(o.action, 0)

    def choose(self, view: View, options: list[Option]) -> int:
        if view.kind == "SALARY":  # rows (1, bronze, cards unpaid): pay and end; (0, card): discard it first
            pay = min((o for o in options if o.args[0] == 1), key=lambda o: o.args[2])
            discard = [o.index for o in options if o.args[0] == 0]
            return discard[0] if pay.args[2] > 0 and discard else pay.index
        if view.kind != "TURN":
            return 0
        rng = random.Random(view.decision * 8 + view.seat)
        best = max(self.score(o) for o in options)
        return rng.choice([o.index for o in options if self.score(o) == best])


class FirstOption:
    """Always the first listed option (a baseline)."""

    def choose(self, view: View, options: list[Option]) -> int:
        return 0
