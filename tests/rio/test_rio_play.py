"""Playing Río de la Plata through its front door (rio.play) and checking its invariants (rio.engine.audit):
the bad inputs, one line each; every game a pure function of its seed; random play and the heuristic family
at 2-5 players, every experience level, the normal and the Short game, keep every invariant and end; the
search player plays legal games; the audit itself catches a broken state."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gamekit.rng import player_seeds
from rio.audit import TABLES
from rio.engine.audit import Broken, audit
from rio.engine.game import setup
from rio.engine.records import GG, GR
from rio.engine.scratch import new_scratch
from rio.engine.state import PK, VPS, G, new_state
from rio.play import PlayerError, geo_of, play
from rio.rules import K, Level, Major, RulesError, load_rules

R = load_rules()
GEO = geo_of(R)


@pytest.mark.parametrize("seats, players, level, message", [
    (["heuristic", "nobody"], 2, "expert", "unknown player 'nobody'"),
    (["heuristic", "builder:budget=3"], 2, "expert", "only search takes settings"),
    (["heuristic", "search:speed=3"], 2, "expert", "unknown setting 'speed'"),
    (["heuristic", "search:budget=0"], 2, "expert", "budget must be a whole number >= 1"),
    (["heuristic"], 2, "expert", "2 players need 2 seats"),
    (["heuristic"] * 6, 6, "expert", "players: allowed 2..5"),
    (["heuristic"] * 2, 2, "master", "level: allowed: beginner, intermediate, expert"),
])
def test_bad_inputs_are_one_line(seats, players, level, message):
    with pytest.raises((PlayerError, RulesError)) as e:
        play(R, players, level, False, [1], seats)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_game_is_a_function_of_its_seed():
    seeds = player_seeds(3, 3, 0, 4)
    a = play(R, 3, "intermediate", False, seeds, ["heuristic", "random", "builder"])
    b = play(R, 3, "intermediate", False, seeds[::-1].copy(), ["heuristic", "random", "builder"])
    assert (a.seat == b.seat[::-1]).all() and (a.war == b.war[::-1]).all() and (a.turn == b.turn[::-1]).all()
    assert (a.seat[:, :3, GR.RANK] == 0).any(axis=1).all()  # every game has a winner
    vps = a.seat[:, :3, GR.VPS:GR.VPS + len(VPS)].sum(axis=2)
    assert (vps == a.seat[:, :3, GR.VP] - R.k[K.GAME_START_VP]).all()  # every VP traced to its source
    assert (a.game[:, GG.TURNS] == R.k[K.GAME_TURNS]).all()


def test_random_and_heuristic_play_keep_every_invariant():
    """At 2-5 players, every level, normal and Short: workers conserved, at most 3 a space and one colour but
    for road-connected activation, nothing negative, tiles and pieces accounted for, VP sources summing to the
    VP, the game ending after its last turn (rio.engine.audit; `python -m rio.audit` plays 100,000)."""
    for table, players, level, short in itertools.product(("random", "heuristic"), (2, 3, 4, 5), list(Level), (0, 1)):
        seeds = player_seeds(11 + int(level) * 2 + short, players, 0, 2)
        out = np.ones(len(seeds), np.int64)
        rec = play(R, players, int(level), bool(short), seeds, TABLES[table][:players], audit=out)
        assert (out == 0).all(), (table, players, level, short, out)
        assert (rec.game[:, GG.TURNS] == (R.k[K.SHORT_GAME_TURNS] if short else R.k[K.GAME_TURNS])).all()


def test_the_audit_catches_a_broken_state():
    st = new_state(int(GEO.dims[0]), int(GEO.dims[1]), R.major_space_vp.shape[1], len(R.mine_space_workers))
    sc = new_scratch(R, GEO)
    setup(R, GEO, st, sc, 3, int(Level.EXPERT), 0, 5)
    assert audit(R, GEO, st, sc) == Broken.NONE
    for breaks, expected in ((lambda s: s.pl.__setitem__((0, PK.SUPPLY), s.pl[0, PK.SUPPLY] + 1), Broken.WORKERS),
                             (lambda s: s.pl.__setitem__((1, PK.VP), s.pl[1, PK.VP] + 1), Broken.VP_SOURCES),
                             (lambda s: s.pl.__setitem__((2, PK.WOOD), -1), Broken.NEGATIVE),
                             (lambda s: s.g.__setitem__(G.STICKS, s.g[G.STICKS] - 1), Broken.PIECES),
                             (lambda s: s.sp_workers.__setitem__((70, 0), 4), Broken.WORKERS),
                             (lambda s: s.major_done.__setitem__(Major.FORT, 1), Broken.MAJORS)):  # a completion nobody logged
        broken = st._replace(pl=st.pl.copy(), g=st.g.copy(), sp_workers=st.sp_workers.copy(), major_done=st.major_done.copy())
        breaks(broken)
        assert audit(R, GEO, broken, sc) == expected


def test_the_search_player_plays_legal_games():
    seeds = player_seeds(7, 2, 0, 1)
    rec = play(R, 2, "expert", True, seeds, ["search:budget=2,width=2,depth=0", "heuristic"])
    assert rec.game[0, GG.TURNS] == R.k[K.SHORT_GAME_TURNS]
    assert (rec.seat[0, :2, GR.VPS:GR.VPS + len(VPS)].sum(axis=1) == rec.seat[0, :2, GR.VP]).all()
