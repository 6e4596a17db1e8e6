"""Tests for the rules data file (sim/rulesdata/trinidad.toml) and its loader (sim/rules.py, sim/rule_keys.py, sim/rule_overrides.py, sim/rule_map.py).

Fast: plain numpy, no numba compilation.
"""

from __future__ import annotations

import ast
import copy
import re
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest

# the repository has no pytest `pythonpath` setting: make `import sim` work under plain `pytest`
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sim.rules import AP, DEFAULT_RULES, RK, RK_KEYS, RulesError, apply_overrides, load_rules, load_rules_doc, rules_from_doc, rules_hash
from sim.state import B

DATA = Path(__file__).resolve().parents[1] / "data"
RULINGS = DATA / "RULINGS.md"  # the project's rulings (a copy of ../shared/rules/RULINGS.md)
AFFILIATE_CARDS = DATA / "affiliate-cards.md"  # the rulebook's CARD REFERENCE > AFFILIATE CARDS (a copy)
SHARED = Path(__file__).resolve().parents[3] / "shared" / "rules"  # the sources of both, beside a checkout
SOURCES = {"rulebook", "ruling", "reading", "engine"}
W = 16  # map width (R-04)


def cell(col: int, row: int) -> int:
    return row * W + col


@pytest.fixture(scope="module")
def rules():
    return load_rules()


@pytest.fixture(scope="module")
def raw_doc():
    return tomllib.loads(DEFAULT_RULES.read_text())


# ----------------------------------------------------------------------------- 1. default values


def test_default_loads_int32_arrays(rules):
    assert rules.k.dtype == np.int32
    assert rules.b_cost.shape == (17, 5)
    assert rules.b_cost.dtype == np.int32
    assert rules.k[RK.MAP_W] == 16
    assert rules.k[RK.MAP_H] == 12
    assert rules.k[RK.DECADES] == 12
    assert rules.k[RK.START_WOOD] == 2
    assert rules.k[RK.COUNCIL_START] == 3  # R-06
    assert rules.k[RK.PENALTY_MIN] == -3  # R-07
    assert rules.k[RK.PENALTY_MAX] == 10


# R-01: [workers, wood, stone, precious, metal]
R01_COSTS = {
    B.LOT: [2, 0, 0, 0, 0],
    B.HOUSE: [2, 1, 1, 0, 0],
    B.PALACE: [4, 3, 3, 1, 1],
    B.QUARRY: [1, 2, 0, 0, 0],
    B.CARPENTRY: [1, 0, 2, 0, 0],
    B.MARKET: [1, 1, 1, 0, 0],
    B.CORPORATION: [3, 2, 2, 0, 0],
    B.HACIENDA_WOOD: [3, 2, 2, 0, 0],
    B.HACIENDA_STONE: [3, 2, 2, 0, 0],
    B.SQUARE: [1, 0, 1, 0, 0],
    B.MONUMENT: [1, 0, 1, 1, 0],
    B.FOUNTAIN: [1, 1, 0, 1, 0],
    B.BARRACKS: [2, 2, 3, 1, 0],
    B.CHURCH: [2, 2, 3, 1, 0],
}


@pytest.mark.parametrize("b", list(R01_COSTS), ids=lambda b: b.name)
def test_building_costs_r01(rules, b):
    assert rules.b_cost[b].tolist() == R01_COSTS[b]


def test_building_requires(rules):
    assert rules.b_requires[B.HOUSE] == B.LOT
    assert rules.b_requires[B.PALACE] == B.HOUSE
    assert rules.b_requires[B.CORPORATION] == B.MARKET
    assert rules.b_requires[B.HACIENDA_WOOD] == B.CARPENTRY
    assert rules.b_requires[B.HACIENDA_STONE] == B.QUARRY
    assert rules.b_requires[B.MONUMENT] == B.SQUARE
    assert rules.b_requires[B.QUARRY] == 0


def test_construction_points_r02(rules):
    cp = {B.QUARRY: 1, B.CARPENTRY: 1, B.MARKET: 1, B.CORPORATION: 2, B.HACIENDA_WOOD: 2,
          B.HACIENDA_STONE: 2, B.BARRACKS: 2, B.CHURCH: 2}
    vp = {B.BARRACKS: 3, B.CHURCH: 3, B.MONUMENT: 2, B.FOUNTAIN: 2}
    for b in list(R01_COSTS):
        assert rules.b_cp[b] == cp.get(b, 0), b.name
        assert rules.b_vp[b] == vp.get(b, 0), b.name
    assert rules.b_cp[B.BARRACKS] == 2 and rules.b_vp[B.BARRACKS] == 3
    assert rules.b_vp[B.MONUMENT] == 2


def test_production_buildings(rules):
    prod = {int(b) for b in np.flatnonzero(rules.b_prod)}
    assert prod == {B.QUARRY, B.CARPENTRY, B.MARKET}


def test_council_vp_r06(rules):
    assert len(rules.council_vp) == 16
    assert rules.council_vp[6] == 4  # rulebook
    assert rules.council_vp[14] == 30  # rulebook
    assert rules.council_vp[1:].tolist() == [0, 1, 2, 2, 3, 4, 5, 7, 9, 12, 15, 19, 24, 30, 30]


@pytest.mark.parametrize("pos,vp", [(-3, 12), (-2, 8), (-1, 4), (0, 0), (1, -2), (5, -10), (6, -18), (10, -30)])
def test_penalty_vp_r07(rules, pos, vp):
    assert rules.penalty_vp[pos - rules.k[RK.PENALTY_MIN]] == vp


def test_penalty_vp_formula_r07(rules):
    lo, hi = int(rules.k[RK.PENALTY_MIN]), int(rules.k[RK.PENALTY_MAX])
    expected = [4 * -p if p < 0 else (-2 * p if p <= 5 else -3 * p) for p in range(lo, hi + 1)]
    assert rules.penalty_vp.tolist() == expected


def test_major_grids_r05(rules):
    assert rules.major_first_vp.tolist() == [6, 5, 4, 3, 2, 2]
    assert rules.major_spaces[:, 2].tolist() == [10, 9, 8, 6, 4, 4]  # 4 players
    assert rules.major_spaces[:, 1].tolist() == [8, 7, 6, 5, 3, 3]  # 3 players
    assert rules.major_spaces[:, 0].tolist() == rules.major_spaces[:, 1].tolist()  # 2p use the 3p grid
    assert rules.major_spaces[:, 3].tolist() == [12, 11, 10, 8, 5, 5]
    assert rules.major_space_vp[0].tolist() == [5, 5, 4, 4, 3, 3, 2, 2, 2, 1, 1, 0]
    assert rules.major_space_vp[4].tolist()[:5] == [2, 1, 1, 1, 0]
    assert rules.major_rep.tolist() == [0, 0, 0, 0, 1, 1]


def test_supply_by_player_count(rules):
    from sim.state import Sup

    assert rules.supply_n.shape == (4, len(Sup))
    assert rules.supply_n[:, Sup.WALLS].tolist() == [13, 18, 18, 27]
    assert rules.supply_n[:, Sup.FAITH].tolist() == [9, 13, 17, 22]
    for i, n in enumerate(range(2, 6)):
        assert rules.supply_n[i, Sup.SOLDIERS] == n - 1
        assert rules.supply_n[i, Sup.MILICIANOS] == n + 3
    assert rules.supply_n[:, Sup.WOOD].tolist() == [45] * 4  # box contents
    assert rules.supply_n[:, Sup.METAL].tolist() == [12] * 4
    assert rules.supply_n[:, Sup.PEACE].tolist() == [3] * 4  # GAME CONTENTS: 3 Peace markers
    assert rules.grid_cubes.tolist() == [3, 5, 6, 7]


def test_tension_and_banners(rules):
    assert rules.ten_single.tolist() == [0, 0, 0, 0, 0, 0, 1, 2]  # R-08
    assert rules.ten_double.tolist() == [3, 3, 4, 4, 5, 5, 6, 6]
    assert rules.k[RK.RED_ZONE] == 5
    assert rules.banner_vp.tolist() == [0, 0, 0, 0, 4, 7, 11]  # R-13
    assert rules.back_symbols.tolist() == [[0, 0], [0, 0], [1, 0], [0, 1], [1, 1], [2, 0]]  # R-09


# ----------------------------------------------------------------------------- 2. the map (R-04)


def test_wall_segments(rules):
    assert len(rules.seg_district) == 36
    assert rules.district_nseg.tolist() == [10, 4, 4, 10, 4, 0, 0, 4]


def test_district_spaces(rules):
    assert rules.district_ncells.tolist() == [24, 16, 16, 24, 22, 16, 16, 22]
    for d in range(8):
        cells = rules.district_cells[d]
        n = rules.district_ncells[d]
        assert (cells[n:] == -1).all()
        assert (rules.cell_district[cells[:n]] == d).all()
        assert rules.cell_buildable[cells[:n]].all()
    # N1 = columns 0-3, rows 0-5; S1 = columns 0-3 of rows 6-7 and 0-6 of rows 8-9
    assert sorted(rules.district_cells[0].tolist()) == sorted(cell(c, r) for c in range(4) for r in range(6))
    assert sorted(rules.district_cells[4, :22].tolist()) == sorted(
        [cell(c, r) for c in range(4) for r in (6, 7)] + [cell(c, r) for c in range(7) for r in (8, 9)])
    assert (rules.cell_district[10 * W:] == -1).all()  # rows 10-11 (Fort, Harbor) are outside every district


def test_starting_area(rules):
    start = set(np.flatnonzero(rules.cell_start).tolist())
    assert start == {cell(c, r) for r in (4, 5) for c in range(6, 10)}
    assert len(start) == 8


def test_plaza_mayor(rules):
    plaza = set(np.flatnonzero(rules.cell_plaza).tolist())
    assert plaza == {cell(c, r) for c in (7, 8) for r in (8, 9)}
    for c in plaza:
        assert rules.cell_buildable[c] == 0
    assert rules.cell_buildable.sum() == 16 * 10 - 4


def test_cabildo_spaces(rules):
    cab = set(np.flatnonzero(rules.cell_cab).tolist())
    expected = {(6, 7), (7, 7), (8, 7), (9, 7), (6, 8), (6, 9), (9, 8), (9, 9)}
    assert cab == {cell(c, r) for c, r in expected}


def test_cathedral_pairs(rules):
    pairs = [tuple(p) for p in rules.cath_pairs.tolist()]
    assert len(pairs) == 7
    for a, b in pairs:
        assert rules.cell_cab[a] and rules.cell_cab[b]
        assert b - a in (1, W)  # orthogonally adjacent
    straddle = [(a, b) for a, b in pairs if rules.cell_district[a] != rules.cell_district[b]]
    assert straddle == [(cell(6, 7), cell(6, 8)), (cell(7, 7), cell(8, 7)), (cell(9, 7), cell(9, 8))]
    assert [{int(rules.cell_district[x]) for x in p} for p in straddle] == [{5, 4}, {5, 6}, {6, 7}]  # S2|S1, S2|S3, S3|S4


def test_adjacency(rules):
    def nbrs(c):
        return sorted(x for x in rules.adj[c].tolist() if x >= 0)

    assert rules.adj.shape == (16 * 12, 8)
    assert nbrs(0) == [1, W, W + 1]
    assert nbrs(cell(15, 11)) == sorted([cell(14, 11), cell(14, 10), cell(15, 10)])
    interior = cell(3, 2)
    assert nbrs(interior) == sorted(cell(3 + dx, 2 + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
    assert len(nbrs(cell(5, 0))) == 5  # north edge
    assert all(len(nbrs(c)) in (3, 5, 8) for c in range(16 * 12))


# ----------------------------------------------------------------------------- 3. sources


def _leaves(d: dict, prefix: str = ""):
    for key, v in d.items():
        path = f"{prefix}{key}"
        if isinstance(v, dict):
            if "value" in v:
                yield path, v
            else:
                yield from _leaves(v, path + ".")


def _sourced(doc: dict):
    """Every value leaf plus the other sourced items: [[activation]] rows, [[ship.load]] rows, [map]."""
    yield from _leaves(doc)
    for i, row in enumerate(doc["activation"]):
        yield f"activation[{i}]", row
    for i, row in enumerate(doc["ship"]["load"]):
        yield f"ship.load[{i}]", row
    yield "map", doc["map"]


def test_leaf_count(raw_doc):
    assert len(list(_leaves(raw_doc))) > 150


def test_every_leaf_has_source_and_ref(raw_doc):
    bad = []
    for path, leaf in _sourced(raw_doc):
        if leaf.get("source") not in SOURCES:
            bad.append(f"{path}: source {leaf.get('source')!r}")
        ref = leaf.get("ref")
        if not isinstance(ref, str) or not ref.strip():
            bad.append(f"{path}: ref {ref!r}")
    assert not bad, bad


def _copied(path: Path) -> str:
    """A tests/data copy's text, below its header comment (which says where it comes from)."""
    text = path.read_text()
    return text[text.index("-->\n\n") + len("-->\n\n"):]


def test_ruling_refs_exist():
    """Every ruling a rules file value cites (``ref = "R-xx"``) is one of the project's rulings
    (tests/data/RULINGS.md); where ../shared/rules is present, that copy is still its RULINGS.md."""
    rulings = _copied(RULINGS)
    if (SHARED / "RULINGS.md").is_file():
        assert rulings == (SHARED / "RULINGS.md").read_text(), f"{RULINGS} is out of date: copy {SHARED / 'RULINGS.md'} below its header"
    known = set(re.findall(r"^## (R-\d+)\b", rulings, re.MULTILINE))
    assert {"R-01", "R-04", "R-13"} <= known
    doc = tomllib.loads(DEFAULT_RULES.read_text())
    bad = []
    n = 0
    for path, leaf in _sourced(doc):
        if leaf.get("source") != "ruling":
            continue
        n += 1
        ids = re.findall(r"R-\d+", leaf.get("ref", ""))
        if not ids or not set(ids) <= known:
            bad.append(f"{path}: ref {leaf.get('ref')!r}")
    assert n > 50
    assert not bad, bad


def test_reading_leaves_have_why(raw_doc):
    readings = [(p, leaf) for p, leaf in _sourced(raw_doc) if leaf.get("source") == "reading"]
    assert readings
    bad = [p for p, leaf in readings if not isinstance(leaf.get("why"), str) or not leaf["why"].strip()]
    assert not bad, bad


def test_loader_rejects_bad_source(tmp_path):
    text = DEFAULT_RULES.read_text().replace(
        'start_wood = { value = 2, source = "rulebook"', 'start_wood = { value = 2, source = "guess"')
    assert "guess" in text
    p = tmp_path / "rules.toml"
    p.write_text(text)
    with pytest.raises(RulesError, match=r"setup\.start_wood"):
        load_rules(p)


# ----------------------------------------------------------------------------- 4. overrides


def test_override_scalar():
    r = load_rules(overrides={"setup": {"start_wood": 3}})
    assert r.k[RK.START_WOOD] == 3
    assert load_rules().k[RK.START_WOOD] == 2  # the default is untouched


def test_override_building_cost():
    r = load_rules(overrides={"building": {"palace": {"workers": 3}}})
    assert r.b_cost[B.PALACE].tolist() == [3, 3, 3, 1, 1]


def test_override_with_value_table():
    r = load_rules(overrides={"setup": {"start_wood": {"value": 4}}})
    assert r.k[RK.START_WOOD] == 4


def test_override_list():
    vp = [9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 0]
    r = load_rules(overrides={"major": {"cathedral": {"space_vp": vp}}})
    assert r.major_space_vp[0].tolist() == vp
    assert r.major_space_vp[1].tolist() == load_rules().major_space_vp[1].tolist()


def test_derived_lookups_follow_the_rows_they_are_made_from():
    """Two derived arrays let the engine skip scans: each building's activation rows (act_rows,
    act_nrows: exactly the rows of that building, in row order) and each grid's spaces by VP
    (major_vp_order: highest VP first, ties by lower index, the order the policy fills spaces
    in). They must follow overrides of the rows they come from."""
    vp = [1, 3, 3, 0, 5, 2, 5, 1, 0, 0, 4, 2]
    for r in (load_rules(), load_rules(overrides={"major": {"cathedral": {"space_vp": vp}}})):
        for b in range(r.act_nrows.shape[0]):
            rows = r.act_rows[b, : r.act_nrows[b]].tolist()
            assert rows == [a for a in range(r.act_b.shape[0]) if r.act_b[a] == b]
            assert (r.act_rows[b, r.act_nrows[b]:] == -1).all()
        for m in range(r.major_space_vp.shape[0]):
            order = r.major_vp_order[m].tolist()
            assert order == sorted(range(len(order)), key=lambda j: (-r.major_space_vp[m, j], j))
    assert r.major_vp_order[0].tolist()[:4] == [4, 6, 10, 1]


def test_override_negative_allowed():
    r = load_rules(overrides={"grids": {"last_item_vp": -3}})
    assert r.k[RK.GRID_LAST_VP] == -3


def test_override_map_start():
    start = "\n".join(["SSSS" + "." * 12] * 2 + ["." * 16] * 10)
    r = load_rules(overrides={"map": {"start": start}})
    assert set(np.flatnonzero(r.cell_start).tolist()) == {cell(c, rr) for rr in (0, 1) for c in range(4)}
    assert r.cell_start[cell(6, 4)] == 0


def test_override_map_special_changes_derived_arrays():
    # Plaza Mayor moved to the far west of S1; Cabildo spaces only at (2,8) and (2,9).
    special = "\n".join(["." * 16] * 8 + ["PPC" + "." * 13] * 2 + ["." * 16] * 2)
    r = load_rules(overrides={"map": {"special": special}})
    assert set(np.flatnonzero(r.cell_plaza).tolist()) == {cell(c, rr) for c in (0, 1) for rr in (8, 9)}
    assert r.cath_pairs.tolist() == [[cell(2, 8), cell(2, 9)]]
    assert r.district_ncells.tolist() == [24, 16, 16, 24, 18, 16, 16, 22]
    assert r.cell_buildable[cell(6, 8)] == 1


def test_override_map_districts_changes_walls():
    # no district on row 0: N2 and N3 lose their only outer sides, N1 and N4 their north ones and a row
    rows = tomllib.loads(DEFAULT_RULES.read_text())["map"]["districts"].strip("\n").split("\n")
    districts = "\n".join(["." * 16] + rows[1:])
    r = load_rules(overrides={"map": {"districts": districts}})
    assert r.district_ncells.tolist()[:4] == [20, 12, 12, 20]
    assert r.district_nseg.tolist() == [5, 0, 0, 5, 4, 0, 0, 4]
    assert len(r.seg_district) == 18


def test_override_map_district_names_and_sides():
    names = ["NW", "N", "NN", "NE", "SW", "CW", "CE", "SE"]
    r = load_rules(overrides={"map": {"district_sides": ["north"] * 3 + ["south"] * 5, "district_names": names}})
    assert r.district_north.tolist() == [1, 1, 1, 0, 0, 0, 0, 0]
    assert "map.district_sides" in _err({"map": {"district_sides": ["up"] * 8}})
    assert "map.district_names" in _err({"map": {"district_names": ["A"] * 8}})


def test_override_file(tmp_path):
    p = tmp_path / "variant.toml"
    p.write_text('[setup]\nstart_wood = 3\n\n[building.palace]\nworkers = 5\n\n'
                 '[major.cathedral]\nspaces = [8, 9, 10, 11]\n')
    for ov in (p, str(p)):
        r = load_rules(overrides=ov)
        assert r.k[RK.START_WOOD] == 3
        assert r.b_cost[B.PALACE, 0] == 5
        assert r.major_spaces[0].tolist() == [8, 9, 10, 11]


def test_override_file_map_picture(tmp_path):
    p = tmp_path / "variant.toml"
    p.write_text('[map]\nstart = """\n' + "S" + "." * 15 + "\n" + ("." * 16 + "\n") * 11 + '"""\n')
    r = load_rules(overrides=p)
    assert np.flatnonzero(r.cell_start).tolist() == [0]


# the numbers the Carpenter, the Stonemason, the Merchant and the Sailmaker print alike: each card's key,
# its scalar, and the shared key it had (now a shorthand of the rules file)
OWN_KEYS = {
    "character.carpenter_most_vp": (RK.CH_CARPENTER_MOST, "Carpenter", "most_vp"),
    "character.stonemason_most_vp": (RK.CH_STONEMASON_MOST, "Stonemason", "most_vp"),
    "character.merchant_most_vp": (RK.CH_MERCHANT_MOST, "Merchant", "most_vp"),
    "character.sailmaker_most_vp": (RK.CH_SAILMAKER_MOST, "Sailmaker", "most_vp"),
    "character.carpenter_more_than_all_vp": (RK.CH_CARPENTER_MORE_THAN_ALL, "Carpenter", "more_than_all_vp"),
    "character.stonemason_more_than_all_vp": (RK.CH_STONEMASON_MORE_THAN_ALL, "Stonemason", "more_than_all_vp"),
    "character.merchant_max_vp": (RK.CH_MERCHANT_MAX, "Merchant", "surplus_cap_vp"),
    "character.sailmaker_max_vp": (RK.CH_SAILMAKER_MAX, "Sailmaker", "surplus_cap_vp"),
}
SHARED_DEFAULT = {"most_vp": 5, "more_than_all_vp": 8, "surplus_cap_vp": 9}  # CARD REFERENCE > CHARACTER CARDS


def _own(r) -> dict[str, int]:
    return {key: int(r.k[rk]) for key, (rk, _, _) in OWN_KEYS.items()}


def test_each_character_has_its_own_key_with_the_cards_number(raw_doc):
    """Issue 96, item 3: a number several Characters print is a key each, tagged with its one card."""
    from rulesfile import shorthands

    table = raw_doc["character"]
    for key, (rk, card, shared) in OWN_KEYS.items():
        leaf = table[key.split(".")[1]]
        assert leaf["value"] == SHARED_DEFAULT[shared] and leaf["source"] == "rulebook", key
        assert leaf["ref"].startswith(card) and not any(c in leaf["ref"] for c in {"Carpenter", "Stonemason", "Merchant", "Sailmaker"} - {card}), key
        assert RK_KEYS[rk] == key
    assert shorthands(raw_doc, RulesError) == {
        f"character.{s}": [k for k, (_, _, sh) in OWN_KEYS.items() if sh == s] for s in SHARED_DEFAULT}
    assert _own(load_rules()) == {k: SHARED_DEFAULT[sh] for k, (_, _, sh) in OWN_KEYS.items()}


@pytest.mark.parametrize("key", OWN_KEYS)
def test_a_characters_own_key_moves_it_alone(key):
    r = load_rules(overrides={"character": {key.split(".")[1]: 3}})
    assert _own(r) == {k: 3 if k == key else SHARED_DEFAULT[sh] for k, (_, _, sh) in OWN_KEYS.items()}


def test_an_old_shared_key_is_a_shorthand_of_its_characters_keys(tmp_path):
    """``character.most_vp`` (an override file or experiment of before) sets the four cards' keys, but
    those the same overrides set themselves; as a table, a dotted key or a file, as any key."""
    four = [k for k, (_, _, sh) in OWN_KEYS.items() if sh == "most_vp"]
    for ov in ({"character": {"most_vp": 6}}, {"character.most_vp": 6}, {"character": {"most_vp": {"value": 6}}}):
        assert _own(load_rules(overrides=ov)) == _own(load_rules()) | dict.fromkeys(four, 6)
    # a Character's own key beside it is that Character's, whichever comes first
    for ov in ({"character": {"most_vp": 6, "merchant_most_vp": 4}}, {"character": {"merchant_most_vp": 4, "most_vp": 6}},
               {"character.merchant_most_vp": 4, "character": {"most_vp": 6}}):
        assert _own(load_rules(overrides=ov)) == _own(load_rules()) | dict.fromkeys(four, 6) | {"character.merchant_most_vp": 4}
    p = tmp_path / "old.toml"
    p.write_text("[character]\nmore_than_all_vp = 10\nsurplus_cap_vp = 7\nsailmaker_max_vp = 12\n")
    assert _own(load_rules(overrides=p)) == _own(load_rules()) | {
        "character.carpenter_more_than_all_vp": 10, "character.stonemason_more_than_all_vp": 10,
        "character.merchant_max_vp": 7, "character.sailmaker_max_vp": 12}
    # the resolved rules hold the Characters' keys; the shorthand stays a shorthand
    doc = apply_overrides(load_rules_doc(), {"character": {"most_vp": 6}})
    assert doc["character"]["most_vp"] == load_rules_doc()["character"]["most_vp"]


def test_a_bad_shorthand_override_or_entry_is_one_line_naming_it(tmp_path):
    assert _err({"character": {"most_vp": [6]}}) == "rules: character.most_vp: expected an integer, got [6]"
    assert _err({"character": {"most_vp": -1}}) == "rules: character.most_vp (character.carpenter_most_vp): must be >= 0, got -1"
    assert _err({"character": {"most_vp": {"x": 1}}}).startswith("rules: character.most_vp")
    p = tmp_path / "rules.toml"
    text = DEFAULT_RULES.read_text()
    p.write_text(text.replace('"carpenter_most_vp", "stonemason_most_vp"', '"carpenter_most", "stonemason_most_vp"'))
    assert _err(None, p) == "rules: character.most_vp: a shorthand of 'carpenter_most', not a rule of its table"
    p.write_text(text.replace('surplus_cap_vp = { shorthand', 'surplus_cap_vp = { ref = "x", shorthand'))
    assert _err(None, p).startswith("rules: character.surplus_cap_vp: expected { shorthand = [")


def test_explicit_rules_path(tmp_path):
    p = tmp_path / "copy.toml"
    p.write_text(DEFAULT_RULES.read_text().replace("decades = { value = 12,", "decades = { value = 10,"))
    assert load_rules(p).k[RK.DECADES] == 10


# ----------------------------------------------------------------------------- 5. bad overrides


def _err(overrides=None, path=None) -> str:
    with pytest.raises(RulesError) as ei:
        load_rules(path, overrides=overrides)
    msg = str(ei.value)
    assert "\n" not in msg, msg
    assert msg.startswith("rules: ")
    return msg


def test_unknown_key():
    msg = _err({"setup": {"start_woood": 3}})
    assert "setup.start_woood" in msg
    assert "setup.start_wood" in msg.split(";", 1)[1]  # the hint lists the real keys


def test_unknown_nested_key():
    assert "building.palase.workers" in _err({"building": {"palase": {"workers": 3}}})
    assert "nosuch" in _err({"nosuch": 1})


def test_unknown_empty_table():
    assert "building.palase" in _err({"building": {"palase": {}}})


@pytest.mark.parametrize("ov,key", [
    ({"setup": {"start_wood": "3"}}, "setup.start_wood"),
    ({"setup": {"start_wood": 3.0}}, "setup.start_wood"),
    ({"setup": {"start_wood": True}}, "setup.start_wood"),
    ({"scoring": {"majority_needs_one": 1}}, "scoring.majority_needs_one"),
    ({"building": {"palace": {"requires": 3}}}, "building.palace.requires"),
    ({"major": {"first_vp": "6,5,4,3,2,2"}}, "major.first_vp"),
    ({"map": {"special": 3}}, "map.special"),
])
def test_wrong_type(ov, key):
    assert key in _err(ov)


@pytest.mark.parametrize("ov,key", [
    ({"major": {"cathedral": {"space_vp": [1, 2]}}}, "major.cathedral.space_vp"),
    ({"setup": {"grid_cubes": [3, 5, 6, 7, 8]}}, "setup.grid_cubes"),
    ({"cards": {"back_symbols": [[0, 0]] * 5 + [[1]]}}, "cards.back_symbols"),
])
def test_wrong_list_length(ov, key):
    assert key in _err(ov)


@pytest.mark.parametrize("ov,key", [
    ({"game": {"decades": 13}}, "game.decades"),
    ({"game": {"decades": 0}}, "game.decades"),
    ({"council": {"track_max": 16}}, "council.track_max"),
    ({"war": {"penalty_min": -4}}, "war.penalty_min"),
    ({"setup": {"war_markers": 4}}, "setup.war_markers"),
    ({"tension": {"red_zone_start": 8}}, "tension.red_zone_start"),
    ({"major": {"cathedral": {"spaces": [8, 8, 10, 13]}}}, "major.cathedral.spaces"),
])
def test_out_of_range(ov, key):
    msg = _err(ov)
    assert key in msg


@pytest.mark.parametrize("ov,key", [
    ({"setup": {"start_wood": -1}}, "setup.start_wood"),
    ({"building": {"palace": {"metal": -1}}}, "building.palace.metal"),
    ({"supply": {"walls": [-1, 18, 18, 27]}}, "supply.walls"),
])
def test_negative_not_allowed(ov, key):
    assert key in _err(ov)


def test_malformed_map_picture():
    msg = _err({"map": {"districts": "1111222233334444\n111122223333444\n" + ("." * 16 + "\n") * 10}})
    assert "map.districts" in msg
    msg = _err({"map": {"start": "X" + "." * 15 + "\n" + ("." * 16 + "\n") * 11}})
    assert "map.start" in msg
    assert "map.special" in _err({"map": {"special": ("." * 16 + "\n") * 12}})  # no Cabildo spaces
    assert "same size" in _err({"map": {"start": "....SS......\n" * 3}})


def test_map_unicode_digit():
    assert "map.districts" in _err({"map": {"districts": ("\u00b2" * 16 + "\n") * 12}})


def test_bad_toml_override_file(tmp_path):
    p = tmp_path / "broken.toml"
    p.write_text("[setup]\nstart_wood = = 3\n")
    assert "broken.toml" in _err(p)


def test_missing_override_file(tmp_path):
    assert "absent.toml" in _err(tmp_path / "absent.toml")


def test_bad_override_file_content(tmp_path):
    p = tmp_path / "typo.toml"
    p.write_text("[setup]\nstart_woood = 3\n")
    assert "setup.start_woood" in _err(p)


def test_bad_toml_rules_file(tmp_path):
    p = tmp_path / "rules.toml"
    p.write_text("[game\n")
    assert "rules.toml" in _err(path=p)


# ----------------------------------------------------------------------------- 6. hash


def test_rules_hash():
    h = rules_hash(load_rules_doc())
    assert re.fullmatch(r"[0-9a-f]{16}", h)
    assert rules_hash(load_rules_doc()) == h
    assert rules_hash(load_rules_doc(overrides={"setup": {"start_wood": 2}})) == h  # same value, same rules
    h3 = rules_hash(load_rules_doc(overrides={"setup": {"start_wood": 3}}))
    assert h3 != h
    assert rules_hash(load_rules_doc(overrides={"setup": {"start_wood": 3}})) == h3
    assert rules_hash(load_rules_doc(overrides={"setup": {"start_wood": 4}})) not in (h, h3)


def test_overrides_do_not_mutate_the_base_doc():
    base = load_rules_doc()
    snapshot = copy.deepcopy(base)
    h = rules_hash(base)
    new = apply_overrides(base, {"setup": {"start_wood": 7}, "map": {"start": "S" + "." * 11 + "\n" + "." * 12}})
    assert base == snapshot
    assert rules_hash(base) == h
    assert new["setup"]["start_wood"]["value"] == 7
    assert rules_hash(new) != h


def test_penalty_vp_must_match_track_length():
    assert "war.penalty_vp" in _err({"war": {"penalty_min": -2}})


# ----------------------------------------------------------------------------- Affiliate cards (CARD REFERENCE)

def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[*_⚡]", "", s)).strip()


def test_affiliate_rows_cover_cards_13_to_84_in_groups_of_six():
    doc = tomllib.loads(DEFAULT_RULES.read_text())
    rows = doc["affiliate"]
    assert [a["number"] for a in rows] == list(range(13, 85))
    groups = doc["cards"]["characters"]["value"]
    assert [a["group"] for a in rows] == [g for g in groups for _ in range(6)]  # R-09
    for a in rows:
        assert a["source"] in ("rulebook", "reading") and a["ref"] == f"CARD REFERENCE Card {a['number']}"
        assert isinstance(a["lightning"], bool) and a["summary"] and a["text"] and a["war"]
        assert len(a["summary"]) <= 110
        if a["source"] == "reading":
            assert a.get("reading") and a.get("why"), a["number"]
    r = load_rules()
    assert r.aff_lightning[12:].sum() == sum(a["lightning"] for a in rows)
    assert (r.aff_group[12:] == np.repeat(np.arange(12), 6)).all()


def _affiliate_section(book: str) -> str:
    """The rulebook's CARD REFERENCE > AFFILIATE CARDS section, from its heading to the end of card
    84's entry (the publisher's imprint follows), as tests/data/affiliate-cards.md holds it."""
    ref = book[book.index("# CARD REFERENCE"):]
    start = ref.index("## AFFILIATE CARDS")
    return ref[start:ref.index("**giochix.it**", start)].rstrip("\n") + "\n"


def test_affiliate_texts_are_the_rulebook_texts():
    """Every card's black power text (and its lightning flag) is the rulebook's, verbatim (CARD
    REFERENCE > AFFILIATE CARDS, as tests/data/affiliate-cards.md holds it; where ../shared/rules is
    present, that copy is still the rulebook's section)."""
    ref = _copied(AFFILIATE_CARDS)
    if (SHARED / "trinidad-rulebook.md").is_file():
        book = (SHARED / "trinidad-rulebook.md").read_text()
        assert ref == _affiliate_section(book), f"{AFFILIATE_CARDS} is out of date: copy the section of {SHARED / 'trinidad-rulebook.md'}"
    doc = tomllib.loads(DEFAULT_RULES.read_text())
    norm_ref = _norm(ref)
    for a in doc["affiliate"]:
        assert _norm(a["text"]) in norm_ref, a["number"]
        entry = ref[ref.index(f"**Card {a['number']}.**"):]
        entry = entry[: entry.index("**Card ", 5)] if a["number"] < 84 else entry[:1500]
        assert ("⚡" in entry.split("\n")[0]) == a["lightning"], a["number"]


def test_bad_affiliate_param_fails_with_one_line():
    doc = load_rules_doc()
    doc["affiliate"][1]["params"]["pay_woood"] = 2
    with pytest.raises(RulesError, match=r"affiliate\[14\]\.params\.pay_woood: unknown parameter") as ei:
        rules_from_doc(doc)
    assert "\n" not in str(ei.value)
    doc = load_rules_doc()
    doc["affiliate"][6]["group"] = "Merchant"
    with pytest.raises(RulesError, match=r"affiliate\[19\]\.group: card 19 belongs to the Stonemason group"):
        rules_from_doc(doc)
    doc = load_rules_doc()
    doc["affiliate"][20]["params"]["grid"] = "palace"
    with pytest.raises(RulesError, match=r"affiliate\[33\]\.params\.grid: allowed: any, cathedral"):
        rules_from_doc(doc)


def test_override_affiliate_params():
    r = load_rules(overrides={"affiliate": {"29": {"params": {"extra_precious": 2}}}})
    assert r.aff_p[28, AP.EXTRA_PRECIOUS] == 2
    assert load_rules().aff_p[28, AP.EXTRA_PRECIOUS] == 1
    text = "[affiliate.15.params]\nuses = 3\nworkers = 2\n"
    r = load_rules(overrides=tomllib.loads(text))  # the form an override file takes
    assert r.aff_p[14, AP.USES] == 3 and r.aff_p[14, AP.WORKERS] == 2


@pytest.mark.parametrize("over,msg", [
    ({"affiliate": {"99": {"params": {"vp": 1}}}}, r"affiliate\.99: no such Affiliate card; allowed: 13\.\.84"),
    ({"affiliate": {"29": {"params": {"vp": 1}}}}, r"affiliate\.29\.params\.vp: card 29 has no such parameter; its parameters: min_precious"),
    ({"affiliate": {"29": {"text": "x"}}}, r"affiliate\.29: only a card's params can be overridden"),
    ({"affiliate": {"29": {"params": {"extra_precious": "2"}}}}, r"affiliate\.29\.params\.extra_precious: expected an integer"),
])
def test_bad_affiliate_override_fails_with_one_line(over, msg):
    with pytest.raises(RulesError, match=msg) as ei:
        load_rules(overrides=over)
    assert "\n" not in str(ei.value)


# ----------------------------------------------------------------------------- 7. every number is read
# A number in the rules file that the engine never reads makes an override silently do nothing. The
# chain is checked link by link: every numeric leaf is read by the loader (sim.rules.rules_from_doc),
# every scalar (RK), array (Rules field) and card parameter (AP, per card) it fills is read by the
# engine (the jitted code under sim/, the loader's sim/rules.py and sim/rule_*.py excepted; the strategies' own reads do not count).

ENGINE = Path(__file__).resolve().parents[2] / "sim"

# Rules fields the engine may leave unread, with the reason: none of them is a rules number.
UNREAD_FIELDS_OK = {
    "cell_plaza": "the Plaza Mayor spaces of the map picture; the engine uses cell_buildable, derived from it",
    "aff_group": "a card's Character group: the card ids give it (sim.deck.card_group); the loader checks the rows agree (R-09)",
    "aff_lightning": "the lightning flag of the card text: the rule areas offer those cards at their triggers",
    "aff_res": "the resource a card names: each card's code is written for its resource (cards 16, 18, 22, 24, 30...)",
    "major_vp_order": "derived from major.*.space_vp (read as major_space_vp) for the strategies' choice of a space",
    "xw_compiled": "not a rule: its length (in the record's type) says the kernels include the Extended War (sim.compiled_parts)",
    "ai_compiled": "not a rule: its length (in the record's type) says the kernels include the Solo A.I. (sim.compiled_parts)",
}
UNREAD_SCALARS_OK = {"MAP_W": "the map pictures' size (tools and tests name spaces with it)", "MAP_H": "as MAP_W"}


LOADER = ("rules.py", "rule_keys.py", "rule_overrides.py", "rule_map.py")  # the loader's modules: not the engine


def _engine_sources(root: Path = ENGINE) -> dict[str, str]:
    return {str(p.relative_to(root.parent)): p.read_text() for p in sorted(root.rglob("*.py")) if p.name not in LOADER}


def _numeric(v) -> bool:
    if isinstance(v, list):
        return bool(v) and all(_numeric(x) for x in v)
    return isinstance(v, (int, bool))


def unread_leaves(doc: dict) -> list[str]:
    """Numeric leaves of the rules document the loader never reads."""
    import sim.rule_overrides as doc_mod
    import sim.rules as rules_mod

    seen = set()
    get = doc_mod.rule_value

    def spy(d, key):
        seen.add(key)
        return get(d, key)

    # the packer reads values itself and through rule_int / rule_ints, which live in sim.rule_overrides
    rules_mod.rule_value = doc_mod.rule_value = spy
    try:
        rules_from_doc(doc)
    finally:
        rules_mod.rule_value = doc_mod.rule_value = get
    return sorted(p for p, leaf in _leaves(doc) if _numeric(leaf["value"]) and p not in seen)


def unread_names(prefix: str, names, sources: dict[str, str]) -> list[str]:
    """Names never read as ``<prefix><name>`` (``RK.``, ``AP.``, ``r.``) in the engine sources."""
    text = "\n".join(sources.values())
    return sorted(n for n in names if not re.search(rf"(?<![\w.]){re.escape(prefix)}{n}\b", text))


def _card_num(node) -> int | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Card" and re.fullmatch(r"C\d+", node.attr):
        return int(node.attr[1:])
    return None


def _ap_name(node) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "AP":
        return node.attr
    return None


def _cards_of(node, tuples) -> set[int] | None:
    if isinstance(node, ast.Tuple):
        cs = {_card_num(e) for e in node.elts}
        return None if None in cs else cs
    if isinstance(node, ast.Name):
        return tuples.get(node.id)
    return None


def _test_cards(t, tuples) -> set[int] | None:
    """The cards a branch test restricts a card variable to: ``c == Card.C51``, ``c in (...)``,
    ``_one_of(c, _GRID_CARDS)``, and their and/or."""
    if isinstance(t, ast.Compare) and len(t.ops) == 1:
        if isinstance(t.ops[0], ast.Eq):
            c = _card_num(t.comparators[0]) or _card_num(t.left)
            return {c} if c else None
        if isinstance(t.ops[0], ast.In):
            return _cards_of(t.comparators[0], tuples)
    if isinstance(t, ast.Call) and isinstance(t.func, ast.Name) and t.func.id == "_one_of" and len(t.args) == 2:
        return _cards_of(t.args[1], tuples)
    if isinstance(t, ast.BoolOp):
        rs = [_test_cards(v, tuples) for v in t.values]
        if isinstance(t.op, ast.And):
            rs = [x for x in rs if x]
            return set.intersection(*rs) if rs else None
        if all(rs):
            return set().union(*rs)
    return None


def _scan_function(name, fn, tuples, ctx0, reads, loose, calls):
    """One function of :func:`card_param_reads`: record its card parameter reads and its calls
    (with the cards of the branch they are made in)."""
    binds = [(n.lineno, n.targets[0].id, _card_num(n.value.slice)) for n in ast.walk(fn)
             if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
             and isinstance(n.value, ast.Subscript) and isinstance(n.value.value, ast.Attribute) and n.value.value.attr == "aff_p"]

    def visit(node, ctx):
        if isinstance(node, (ast.If, ast.IfExp, ast.For)):
            head = node.iter if isinstance(node, ast.For) else node.test
            tc = _cards_of(head, tuples) if isinstance(node, ast.For) else _test_cards(head, tuples)
            visit(head, ctx)
            for b in node.body if isinstance(node.body, list) else [node.body]:
                visit(b, tc or ctx)
            for b in node.orelse if isinstance(node.orelse, list) else [node.orelse]:
                visit(b, ctx)
            return
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            calls.setdefault(node.func.id, []).append(ctx)
        if isinstance(node, ast.Subscript):
            sl, x, c = node.slice, None, None
            if isinstance(node.value, ast.Attribute) and node.value.attr == "aff_p" and isinstance(sl, ast.Tuple) \
                    and len(sl.elts) == 2 and _ap_name(sl.elts[1]):
                x, c = _ap_name(sl.elts[1]), _card_num(sl.elts[0])
            elif isinstance(node.value, ast.Name) and _ap_name(sl):
                bs = [b for b in binds if b[1] == node.value.id and b[0] <= node.lineno]
                if bs:
                    x, c = _ap_name(sl), max(bs)[2]
            if x:
                if c or ctx:
                    reads.setdefault(x, set()).update({c} if c else ctx)
                else:
                    loose.setdefault(x, []).append(f"{name}:{node.lineno} ({fn.name})")
        for ch in ast.iter_child_nodes(node):
            visit(ch, ctx)

    for b in fn.body:
        visit(b, ctx0)


def card_param_reads(sources: dict[str, str]) -> tuple[dict[str, set[int]], dict[str, list[str]]]:
    """Which cards' parameter ``AP.X`` the engine reads: ``r.aff_p[Card.Cnn, AP.X]``, or
    ``p[AP.X]`` after ``p = r.aff_p[Card.Cnn]``, or a read through a card variable inside a branch
    or loop that names the cards (``if c == Card.C51``, ``for card in (Card.C15, ...)``,
    ``_one_of(c, _GRID_CARDS)``), or in a function whose every call site is inside such a branch.
    Returns ({X: cards}, {X: places of reads it could not tie to cards})."""
    funcs = []
    for name, text in sources.items():
        tree = ast.parse(text)
        tuples = {}
        for n in tree.body:
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                cs = _cards_of(n.value, {})
                if cs:
                    tuples[n.targets[0].id] = cs
        funcs += [(name, fn, tuples) for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef)]
    entry: dict[str, set[int]] = {}
    for _ in range(5):
        reads: dict[str, set[int]] = {}
        loose: dict[str, list[str]] = {}
        calls: dict[str, list] = {}
        for name, fn, tuples in funcs:
            _scan_function(name, fn, tuples, entry.get(fn.name), reads, loose, calls)
        new = {f: set().union(*cs) for f, cs in calls.items() if cs and all(cs)}
        if new == entry:
            break
        entry = new
    return reads, loose


def unread_card_params(doc: dict, sources: dict[str, str]) -> list[str]:
    """``card N: param`` for each numeric parameter of an [[affiliate]] row the engine never reads
    for that card."""
    reads, loose = card_param_reads(sources)
    assert not loose, f"card parameter reads not tied to a card (name the card in a branch): {loose}"
    out = []
    for row in doc["affiliate"]:
        for k, v in row.get("params", {}).items():
            if isinstance(v, int) and not isinstance(v, bool) and row["number"] not in reads.get(k.upper(), ()):
                out.append(f"card {row['number']}: {k}")
    return out


def test_every_number_in_the_rules_file_is_read_by_the_loader():
    assert unread_leaves(load_rules_doc()) == []


def test_every_rules_scalar_is_read_by_the_engine():
    names = [m.name for m in RK if m.name not in UNREAD_SCALARS_OK]
    assert unread_names("RK.", names, _engine_sources()) == []


def test_every_rules_array_is_read_by_the_engine():
    from sim.rules import Rules

    names = [f for f in Rules._fields if f not in UNREAD_FIELDS_OK]
    assert unread_names("r.", names, _engine_sources()) == []
    assert unread_names("r.", list(UNREAD_FIELDS_OK), _engine_sources()) == sorted(UNREAD_FIELDS_OK), "now read: drop it from UNREAD_FIELDS_OK"


def test_every_card_parameter_is_read_for_its_card():
    assert unread_names("AP.", [m.name for m in AP], _engine_sources()) == []
    assert unread_card_params(load_rules_doc(), _engine_sources()) == []


def test_unread_numbers_are_reported(tmp_path):
    """The checks above can fail: a planted leaf, scalar, array and card parameter are reported."""
    doc = load_rules_doc()
    doc["setup"]["planted"] = {"value": 1, "source": "rulebook", "ref": "nowhere"}
    assert unread_leaves(doc) == ["setup.planted"]
    src = _engine_sources()
    assert unread_names("RK.", ["DECADES", "PLANTED"], src) == ["PLANTED"]
    assert unread_names("r.", ["supply_n", "planted_field"], src) == ["planted_field"]
    doc = load_rules_doc()
    doc["affiliate"][29 - 13]["params"]["uses"] = 3  # card 29 has no such power
    assert unread_card_params(doc, src) == ["card 29: uses"]
    # a read of card 29's parameter removed from the engine is reported
    src2 = dict(src)
    econ = "sim/economy.py"
    assert "r.aff_p[Card.C29, AP.EXTRA_PRECIOUS]" in src2[econ]
    src2[econ] = src2[econ].replace("r.aff_p[Card.C29, AP.EXTRA_PRECIOUS]", "1")
    assert unread_card_params(load_rules_doc(), src2) == ["card 29: extra_precious"]
