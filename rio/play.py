"""Río de la Plata's front door for playing: a table of named players (``random``, ``heuristic``, the
archetypes ``builder``, ``officer``, ``contractor``, ``merchant``, ``defender``, and ``search``) plays a
batch of games into :class:`rio.engine.records.Records`. It checks what it is asked (one clear line per bad
input), allocates the state, the scratch and the records, and calls the engine's game loop, or the search
player's when a seat searches (rio.players.search).

A player is named with optional settings, as Trinidad's are: ``search:budget=32,width=4,depth=1``
(simulations per decision, candidates, turns simulated beyond the current one) or ``builder``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rio.engine.geometry import Geo, build_geo
from rio.engine.records import Records, new_records
from rio.engine.scratch import new_scratch
from rio.engine.state import MAX_COLOURS, new_state
from rio.engine.war import WR
from rio.keys import CK, PLAYER_COUNTS, K, RulesError, count_index, level_index
from rio.packing import Rules
from rio.players.kinds import Kind, Policy
from rio.players.lineup import make_policy
from rio.players.weights import ARCHETYPES, archetype_weights

PLAYERS = ("random", *ARCHETYPES, "search")
SEARCH_SETTINGS = {"budget": 16, "width": 4, "depth": 1}


class PlayerError(ValueError):
    """A player's name or setting is invalid; the message is one line."""


@dataclass(frozen=True)
class Seat:
    name: str
    kind: Kind
    weights: np.ndarray
    settings: dict


def parse_player(text: str) -> Seat:
    """``name`` or ``name:key=value,...`` (the search player's budget, width, depth; a search's base
    archetype as ``base=builder``)."""
    name, _, rest = text.partition(":")
    name = name.strip()
    if name not in PLAYERS:
        raise PlayerError(f"rio player: unknown player {name!r}; allowed: {', '.join(PLAYERS)}")
    settings: dict = dict(SEARCH_SETTINGS) if name == "search" else {}
    base = "heuristic"
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        if name != "search" or not eq:
            raise PlayerError(f"rio player: {text!r}: only search takes settings (budget, width, depth, base), got {item!r}")
        if key == "base":
            if value not in ARCHETYPES:
                raise PlayerError(f"rio player: {text!r}: base must be one of {', '.join(ARCHETYPES)}, got {value!r}")
            base = value
        elif key in SEARCH_SETTINGS:
            if not value.isdigit() or (int(value) < 1 and key != "depth"):
                raise PlayerError(f"rio player: {text!r}: {key} must be a whole number >= {0 if key == 'depth' else 1}, got {value!r}")
            settings[key] = int(value)
        else:
            raise PlayerError(f"rio player: {text!r}: unknown setting {key!r}; allowed: base, {', '.join(SEARCH_SETTINGS)}")
    if name == "random":
        return Seat(name, Kind.RANDOM, archetype_weights("heuristic"), settings)
    if name == "search":
        return Seat(text, Kind.SEARCH, archetype_weights(base), settings)
    return Seat(name, Kind.HEURISTIC, archetype_weights(name), settings)


_GEO: dict[int, Geo] = {}


def geo_of(r: Rules) -> Geo:
    """The rules' map geometry, built once per rules object."""
    if id(r) not in _GEO:
        _GEO[id(r)] = build_geo(r)
    return _GEO[id(r)]


def max_wars(r: Rules, players: int) -> int:
    """The most wars a game can hold: each player's turns as attacker, and the forced last one."""
    return players * int(r.by_count[count_index(players), CK.WARS_PER_PLAYER]) + 1


def play(r: Rules, players: int, level: str | int, short: bool, seeds: Sequence[int] | np.ndarray,
         seats: Sequence[str], audit: np.ndarray | None = None) -> Records:
    """Play one game per seed (uint64) with ``players`` seats (``seats``: a player name per seat) at experience
    ``level``; the Short game if ``short``. With ``audit`` (int64, one per game) the invariants are checked
    between phases (rio.engine.audit): 0 a game kept them all, else ``Broken * 1000 + turn`` at the first
    break, or the turn it stopped at if it did not end."""
    if players not in PLAYER_COUNTS:
        raise RulesError(f"rio: players: allowed {PLAYER_COUNTS[0]}..{PLAYER_COUNTS[-1]}, got {players!r}")
    if len(seats) != players:
        raise PlayerError(f"rio: {players} players need {players} seats, got {len(seats)}: {list(seats)}")
    lv = level_index(level)
    table = [parse_player(s) for s in seats]
    seeds = np.ascontiguousarray(np.asarray(seeds, dtype=np.uint64))
    pol = make_policy([s.kind for s in table], np.array([s.weights for s in table]))
    geo = geo_of(r)
    st = new_state(int(geo.dims[0]), int(geo.dims[1]), r.major_space_vp.shape[1], len(r.mine_space_workers))
    sc = new_scratch(r, geo)
    turns = int(r.k[K.SHORT_GAME_TURNS] if short else r.k[K.GAME_TURNS])
    rec = new_records(len(seeds), turns, max_wars(r, players), len(WR), int(geo.centre_vertex.shape[0]))
    from rio.players.search import play_games_search

    # one game loop for every table (rio.players.search): a table without search seats never simulates
    searching = [s for s in table if s.kind == Kind.SEARCH]
    cfg = searching[0].settings if searching else dict(SEARCH_SETTINGS)
    if any(s.settings != cfg for s in searching):
        raise PlayerError("rio: the search seats of one table share their settings (budget, width, depth)")
    pol = pol._replace(budget=np.full(MAX_COLOURS, cfg["budget"], np.int32))
    rkind = pol.kind.copy()
    rkind[rkind == Kind.SEARCH] = Kind.HEURISTIC
    rpol = Policy(kind=rkind, w=pol.w, war=pol.war, budget=pol.budget)
    sim = new_state(int(geo.dims[0]), int(geo.dims[1]), r.major_space_vp.shape[1], len(r.mine_space_workers))
    simsc = new_scratch(r, geo)
    war_rec = np.zeros(len(WR), np.int32)
    play_games_search(r, geo, st, sc, pol, rpol, sim, simsc, war_rec, cfg["depth"], cfg["width"],
                      np.zeros(cfg["width"], np.int64), np.zeros(cfg["width"]), players, int(lv), int(bool(short)), seeds, rec,
                      np.zeros(0, np.int64) if audit is None else audit)
    return rec
