"""The records of the city at the end (rio.engine.records: ``Records.district``, :class:`DR`) and of the Major
buildings (``Records.major``, rio.engine.state's :class:`MR`) on played batches: what they count agrees with
the seat and game records, the wars' records and the end scoring (VICTORY POINTS AT THE END OF THE GAME),
at 2 (the shadow player), 3, 4 and 5 players, random and heuristic, the normal and the Short game."""

from __future__ import annotations

import numpy as np
import pytest

from gamekit.rng import player_seeds
from rio.audit import TABLES
from rio.engine.records import DR, GG, GR
from rio.engine.state import MAX_SEATS, MR, VPS
from rio.engine.war_state import WR
from rio.play import geo_of, play
from rio.rules import BK, MK, Building, K, Major, Office, load_rules

R = load_rules()
GEO = geo_of(R)
MINORS = len(Building)
# (table, players, level, Short game): every player count, both kinds of player, both lengths
CELLS = [("heuristic", 4, "expert", False), ("random", 3, "beginner", False), ("heuristic", 2, "intermediate", True),
         ("archetypes", 5, "expert", False), ("random", 2, "expert", False)]


@pytest.fixture(scope="module")
def batches():
    """(players, Short game, Records) of a few games a cell."""
    out = []
    for i, (table, n, level, short) in enumerate(CELLS):
        out.append((n, short, play(R, n, level, short, player_seeds(21 + i, n, 0, 6), TABLES[table][:n])))
    return out


def test_the_districts_hold_the_seats_houses_and_huts(batches):
    for n, _, rec in batches:
        for b, col in ((Building.HOUSE, GR.HOUSES), (Building.HUT, GR.HUTS)):
            assert (rec.district[:, :, DR.BUILDINGS + b].sum(axis=1) == rec.seat[:, :n, col].sum(axis=1)).all(), (n, b)
    assert any(rec.district[:, :, DR.BUILDINGS + Building.HOUSE].sum() > 0 for _, _, rec in batches)  # not an empty check


def test_a_districts_value_is_the_one_the_end_scoring_counted(batches):
    """The value rebuilt from the buildings standing and the road connection (VICTORY POINTS AT THE END OF
    THE GAME: the buildings' district value, the Palace's and the Cathedral's, the production penalty past
    the free ones, +1 road-connected), and the Houses' end VP it gives."""
    for n, _, rec in batches:
        built = rec.district[:, :, DR.BUILDINGS:].astype(np.int64)
        prod = built[..., :MINORS] @ R.building[:, BK.PRODUCTION].astype(np.int64)
        value = (built[..., :MINORS] @ R.building[:, BK.DISTRICT_VALUE].astype(np.int64)
                 + built[..., MINORS] * R.major[Major.PALACE, MK.DISTRICT_VALUE]
                 + built[..., MINORS + 1] * R.major[Major.CATHEDRAL, MK.DISTRICT_VALUE]
                 + R.k[K.SCORING_PRODUCTION_PENALTY] * np.maximum(0, prod - R.k[K.SCORING_PRODUCTION_FREE])
                 + rec.district[:, :, DR.ROAD_CONNECTED] * R.major[Major.ROADS, MK.DISTRICT_VALUE])
        assert (value == rec.district[:, :, DR.VALUE]).all(), n
        house_vp = np.maximum(R.k[K.SCORING_HOUSE_MIN_VP], R.k[K.SCORING_HOUSE_VP] + rec.district[:, :, DR.VALUE])
        ends = (rec.district[:, :, DR.BUILDINGS + Building.HOUSE] * house_vp).sum(axis=1)
        assert (ends == rec.seat[:, :n, GR.VPS + VPS.END_HOUSES].sum(axis=1)).all(), n


def test_roads_walls_and_wars_by_district(batches):
    """Road-connected and closed districts as the Roadmaker and the Defender score them, the open access
    points as the game's record, the buildings destroyed as the wars' records."""
    perimeter = GEO.perimeter.astype(bool)
    for n, _, rec in batches:
        d = rec.district
        assert set(np.unique(d[:, :, DR.ROAD_CONNECTED])) <= {0, 1} and set(np.unique(d[:, :, DR.CLOSED])) <= {0, 1}
        assert (d[:, :, DR.ACCESS_POINTS].sum(axis=1) == rec.game[:, GG.WALLS_OPEN]).all()
        assert (d[:, :, DR.CLOSED] == (perimeter & (d[:, :, DR.ACCESS_POINTS] == 0))).all()  # the central two never count
        for o, col, vp, k in ((Office.ROADMAKER, DR.ROAD_CONNECTED, VPS.END_ROADMAKER, K.OFFICE_ROADMAKER_CONNECTED_DISTRICT_VP),
                              (Office.DEFENDER, DR.CLOSED, VPS.END_DEFENDER, K.OFFICE_DEFENDER_CLOSED_DISTRICT_VP)):
            for g in np.nonzero(rec.office[:, o, 0] >= 0)[0]:
                assert rec.seat[g, rec.office[g, o, 0], GR.VPS + vp] == d[g, :, col].sum() * R.k[k]
        fought = rec.war[:, :, WR.ENEMY] >= 0
        assert (d[:, :, DR.DESTROYED].sum(axis=1) == np.where(fought, rec.war[:, :, WR.BUILDINGS], 0).sum(axis=1)).all(), n
    assert any(rec.district[:, :, DR.DESTROYED].sum() > 0 for _, _, rec in batches)


def test_who_completed_each_major_building(batches):
    """Completions by seat sum to the game's; a first completer (a seat of the game, on a turn of it) exactly
    when the Major was completed; the completion bonus is the completers'; every completion filled its grid,
    each space by a seat's worker (a 2-player shadow disc counting for its placer)."""
    for n, short, rec in batches:
        log = rec.major
        done = rec.game[:, GG.MAJORS:GG.MAJORS + len(Major)]
        by = log[:, :, MR.COMPLETED:MR.COMPLETED + MAX_SEATS]
        spaces = log[:, :, MR.SPACES:MR.SPACES + MAX_SEATS]
        assert (by.sum(axis=2) == done).all() and (by[:, :, n:] == 0).all() and (spaces[:, :, n:] == 0).all()
        first, turn = log[:, :, MR.FIRST_COMPLETER], log[:, :, MR.FIRST_TURN]
        assert ((first >= 0) == (done > 0)).all() and ((turn >= 1) == (done > 0)).all()
        assert (first[done == 0] == -1).all() and (turn[done == 0] == -1).all()
        assert (first < n).all() and (turn <= rec.game[:, GG.TURNS, None]).all()
        g, m = np.nonzero(done > 0)
        assert (by[g, m, first[g, m]] >= 1).all()
        bonus = (by * R.major[:, MK.COMPLETION_VP][None, :, None]).sum(axis=1)[:, :n]
        assert (bonus == rec.seat[:, :n, GR.VPS + VPS.COMPLETION]).all(), n
        on = (R.major_space_on_short if short else R.major_space_on)[n - 2].sum(axis=1)
        assert (spaces.sum(axis=2) == done * on[None, :]).all(), n
    assert sum(int(rec.game[:, GG.MAJORS:].sum()) for _, _, rec in batches) > 0
