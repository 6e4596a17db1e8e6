"""Python strategies: a plain class with ``choose(view, options) -> int`` plays through the jitted
engine (issue 5, "Python strategies").

The protocol::

    class MyStrategy:
        def choose(self, view: View, options: list[Option]) -> int:
            ...  # return the index of one of ``options``

Load one with a strategy name ``py:MODULE:CLASS`` or ``py:path/to/file.py:CLASS`` wherever a
strategy name is taken (``trinidad play/run/tournament --strategies ...``), or with a strategy
file that says ``family = "python"`` and ``python = "MODULE:CLASS"`` (strategies/pyexample.toml).
The class is instantiated once per run with no arguments.

How it runs: the jitted policy entry point (strategies.policy.choose) sees family ``python`` and
calls :func:`call` through ``numba.objmode``, which builds the :class:`View` and the option list
and calls the object. Every decision of that seat goes through Python, so such games are much
slower than jitted ones (fine for experiments); the shells play them on one thread. A game stays
a pure function of its seed as long as ``choose`` is a pure function of its arguments (keep any
randomness seeded from ``view``, e.g. ``random.Random(view.decision)``).

What the view shows is what the seat can know (CARD REFERENCE: Affiliate cards in other players'
hands are not shown until used; the deck order is never shown). Resources and coins behind the
screens are shown: every gain and payment is public, so a player with a perfect memory knows them.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Protocol

import numpy as np

from sim.codes import Act, Dec
from sim.state import N_CHARACTERS, PF, G, Loc

UNKNOWN = -1  # card_loc of a card in another player's hand, as the seat sees it


class Option(NamedTuple):
    """One legal option. ``action`` is the Act name for a TURN decision (then ``args`` are the
    row's a, b, c, d) or the decision kind's name for any other decision (``args`` = the row;
    sim.codes.Dec documents each kind's columns)."""

    index: int
    action: str
    args: tuple[int, ...]


@dataclass(frozen=True)
class View:
    """What seat ``seat`` sees when it must decide. Arrays are read-only copies with the engine's
    layout (sim.state.State): ``pl[s, PF.X]`` per-player scalars, ``g[G.X]`` game scalars,
    ``vps[s, VS.X]`` VP by source, ``cell_b``/``cell_owner`` the map, ``major`` the Major Building
    grids, ``card_loc``/``card_rot`` the cards (other players' unused hand cards read
    :data:`UNKNOWN`)."""

    seat: int
    kind: str  # the decision kind's name (sim.codes.Dec)
    decade: int
    era: int
    players: int
    decision: int  # decisions taken so far in this game (a seed for a strategy's own randomness)
    order: np.ndarray
    g: np.ndarray
    pl: np.ndarray
    vps: np.ndarray
    cell_b: np.ndarray
    cell_owner: np.ndarray
    card_loc: np.ndarray
    card_rot: np.ndarray
    major: np.ndarray

    @property
    def vp(self) -> int:
        return int(self.pl[self.seat, PF.VP])

    def resources(self, seat: int | None = None) -> dict[str, int]:
        s = self.seat if seat is None else seat
        return {k.lower(): int(self.pl[s, PF[k]]) for k in ("WOOD", "STONE", "PRECIOUS", "METAL", "SILVER", "BRONZE", "FAITH")}

    def hand(self) -> list[int]:
        """Affiliate card ids in this seat's hand."""
        return [c for c in range(N_CHARACTERS, len(self.card_loc)) if self.card_loc[c] == Loc.HAND + self.seat]


class Strategy(Protocol):
    def choose(self, view: View, options: list[Option]) -> int: ...


_REGISTRY: list[Strategy] = []
_NAMES: dict[str, int] = {}


def load_class(spec: str) -> type:
    """``MODULE:CLASS`` or ``path/to/file.py:CLASS``."""
    mod_name, sep, cls_name = spec.rpartition(":")
    if not sep or not mod_name or not cls_name:
        raise ValueError(f"python strategy {spec!r}: expected MODULE:CLASS or path/to/file.py:CLASS")
    try:
        if mod_name.endswith(".py"):
            path = Path(mod_name)
            if not path.exists():
                raise ValueError(f"python strategy {spec!r}: no file {mod_name}")
            name = f"trinidad_py_strategy_{path.stem}"
            s = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(s)
            sys.modules[name] = module
            s.loader.exec_module(module)
        else:
            module = importlib.import_module(mod_name)
    except ImportError as e:
        raise ValueError(f"python strategy {spec!r}: cannot import {mod_name}: {e}") from None
    cls = getattr(module, cls_name, None)
    if cls is None or not callable(getattr(cls, "choose", None)):
        raise ValueError(f"python strategy {spec!r}: {cls_name} is not a class with a choose(view, options) method")
    return cls


def register(spec: str) -> int:
    """Instantiate the class named by ``spec`` once per process and return its registry slot."""
    if spec not in _NAMES:
        _REGISTRY.append(load_class(spec)())
        _NAMES[spec] = len(_REGISTRY) - 1
    return _NAMES[spec]


def _options(kind: int, opts: np.ndarray) -> list[Option]:
    if kind == Dec.TURN:
        return [Option(i, Act(int(row[0])).name, tuple(int(x) for x in row[1:])) for i, row in enumerate(opts)]
    name = Dec(kind).name
    return [Option(i, name, tuple(int(x) for x in row)) for i, row in enumerate(opts)]


def _ro(a: np.ndarray) -> np.ndarray:
    a = np.array(a)
    a.flags.writeable = False
    return a


def call(slot, seat, kind, opts, g, pl, vps, order, cell_b, cell_owner, card_loc, card_rot, major) -> int:
    """The objmode callback of strategies.policy.python_choose."""
    seat = int(seat)
    kind = int(kind)
    loc = np.array(card_loc)
    hidden = (loc >= Loc.HAND) & (loc < Loc.PILE) & (loc != Loc.HAND + seat) & (np.asarray(card_rot) == 0)
    hidden[:N_CHARACTERS] = False  # Character cards are face up
    loc[hidden] = UNKNOWN
    loc.flags.writeable = False
    n = int(g[G.NPLAYERS])
    view = View(seat=seat, kind=Dec(kind).name, decade=int(g[G.DECADE]), era=int(g[G.ERA]), players=n,
                decision=int(g[G.OPT_N]), order=_ro(order[:n]), g=_ro(g), pl=_ro(pl[:n]), vps=_ro(vps[:n]),
                cell_b=_ro(cell_b), cell_owner=_ro(cell_owner), card_loc=loc, card_rot=_ro(card_rot), major=_ro(major))
    options = _options(kind, opts)
    i = _REGISTRY[int(slot)].choose(view, options)
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= int(i) < len(options):
        raise ValueError(f"python strategy {type(_REGISTRY[int(slot)]).__name__}.choose returned {i!r}; expected an index 0..{len(options) - 1}")
    return int(i)
