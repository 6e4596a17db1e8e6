"""The city map of the rules file (CITY MAP, R-04): the three pictures (``map.districts``,
``map.special``, ``map.start``) turned into the spaces, their neighbours, the districts, their wall
segments and the Cathedral's placements; and the EXTENDED WAR's Combat Area, which is that map
(:func:`combat_area`). Part of packing the rules (:mod:`sim.rules`)."""

from __future__ import annotations

import numpy as np

from sim.rule_keys import RulesError
from sim.state import N_DISTRICTS


def _picture(doc: dict, key: str) -> list[str]:
    v = doc.get("map", {}).get(key)
    if not isinstance(v, str):
        raise RulesError(f"rules: map.{key}: expected a map picture (string)")
    rows = [r for r in v.strip("\n").split("\n")]
    if not rows or len({len(r) for r in rows}) != 1:
        raise RulesError(f"rules: map.{key}: every row must have the same width")
    return rows



def build_map(doc: dict) -> dict[str, np.ndarray]:
    """The map's arrays of :class:`sim.rule_keys.Rules` (``cell_*``, ``adj``, ``district_*``,
    ``cath_pairs``...), with its width ``w`` and height ``h``."""
    dist = _picture(doc, "districts")
    spec = _picture(doc, "special")
    start = _picture(doc, "start")
    h, w = len(dist), len(dist[0])
    if (len(spec), len(spec[0])) != (h, w) or (len(start), len(start[0])) != (h, w):
        raise RulesError("rules: map: districts, special and start pictures must have the same size")
    nc = w * h
    cell_district = np.full(nc, -1, np.int32)
    cell_plaza = np.zeros(nc, np.int32)
    cell_cab = np.zeros(nc, np.int32)
    cell_start = np.zeros(nc, np.int32)
    for y in range(h):
        for x in range(w):
            c = y * w + x
            ch = dist[y][x]
            if ch != ".":
                if ch not in "12345678"[:N_DISTRICTS]:
                    raise RulesError(f"rules: map.districts: row {y} col {x}: expected 1-{N_DISTRICTS} or '.', got {ch!r}")
                cell_district[c] = int(ch) - 1
            s = spec[y][x]
            if s not in ".PCFH":
                raise RulesError(f"rules: map.special: row {y} col {x}: expected one of . P C F H, got {s!r}")
            cell_plaza[c] = s == "P"
            cell_cab[c] = s == "C"
            if start[y][x] not in ".S":
                raise RulesError(f"rules: map.start: row {y} col {x}: expected . or S, got {start[y][x]!r}")
            cell_start[c] = start[y][x] == "S"
            if (cell_cab[c] or cell_start[c]) and cell_district[c] < 0:
                raise RulesError(f"rules: map.start/map.special: row {y} col {x}: Starting Area and Cabildo spaces must lie in a district")
    buildable = ((cell_district >= 0) & (cell_plaza == 0)).astype(np.int32)
    if not cell_start.any():
        raise RulesError("rules: map.start: the Starting Area is empty")
    adj = np.full((nc, 8), -1, np.int32)
    for y in range(h):
        for x in range(w):
            k = 0
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h:
                        adj[y * w + x, k] = (y + dy) * w + x + dx
                        k += 1
    # wall segments: outer west/north/east edges of district spaces
    segs = []
    for y in range(h):
        for x in range(w):
            d = cell_district[y * w + x]
            if d < 0:
                continue
            if x == 0:
                segs.append(d)
            if y == 0:
                segs.append(d)
            if x == w - 1:
                segs.append(d)
    seg_district = np.array(segs, np.int32)
    district_nseg = np.bincount(seg_district, minlength=N_DISTRICTS).astype(np.int32)
    district_ncells = np.bincount(cell_district[buildable == 1], minlength=N_DISTRICTS).astype(np.int32)
    if (district_ncells == 0).any():
        raise RulesError(f"rules: map.districts: district {int(np.argmin(district_ncells)) + 1} has no buildable space")
    district_cells = np.full((N_DISTRICTS, int(district_ncells.max())), -1, np.int32)
    for d in range(N_DISTRICTS):  # in map order (row by row, west to east)
        cs = np.flatnonzero((cell_district == d) & (buildable == 1))
        district_cells[d, :cs.size] = cs
    # Districts are adjacent when two of their spaces share a side: R-04's 8-adjacency is for
    # spaces, and districts meeting only at a corner (N1 and S2) do not border each other.
    district_adj = np.zeros((N_DISTRICTS, N_DISTRICTS), np.int32)
    for y in range(h):
        for x in range(w):
            d = cell_district[y * w + x]
            for dx, dy in ((1, 0), (0, 1)):
                if d >= 0 and x + dx < w and y + dy < h:
                    e = cell_district[(y + dy) * w + x + dx]
                    if e >= 0 and e != d:
                        district_adj[d, e] = district_adj[e, d] = 1
    pairs = []
    for c in range(nc):
        if not cell_cab[c]:
            continue
        x, y = c % w, c // w
        for dx, dy in ((1, 0), (0, 1)):
            if x + dx < w and y + dy < h and cell_cab[(y + dy) * w + x + dx]:
                pairs.append((c, (y + dy) * w + x + dx))
    if not pairs:
        raise RulesError("rules: map.special: no two adjacent Cabildo/Cathedral spaces for the Cathedral")
    names, sides = doc["map"].get("district_names"), doc["map"].get("district_sides")
    if not (isinstance(names, list) and len(names) == N_DISTRICTS and len(set(names)) == N_DISTRICTS):
        raise RulesError(f"rules: map.district_names: expected {N_DISTRICTS} different names, got {names!r}")
    if not (isinstance(sides, list) and len(sides) == N_DISTRICTS and set(sides) <= {"north", "south"}):
        raise RulesError(f"rules: map.district_sides: expected {N_DISTRICTS} of 'north' / 'south', got {sides!r}")
    district_north = np.array([sd == "north" for sd in sides], np.int32)
    return dict(cell_district=cell_district, cell_plaza=cell_plaza, cell_cab=cell_cab, cell_start=cell_start,
                cell_buildable=buildable, adj=adj, seg_district=seg_district, district_nseg=district_nseg,
                district_cells=district_cells, district_ncells=district_ncells, district_adj=district_adj,
                district_north=district_north, cath_pairs=np.array(pairs, np.int32), w=w, h=h)


def combat_area(mp: dict, w: int, h: int) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """EXTENDED WAR's Combat Area from the map's arrays ``mp`` (:func:`build_map`): the orthogonal
    steps between districts and the placement edges ``(district, side)``, clockwise."""
    # the Combat Area is the city map: districts sharing a side are adjacent (orthogonal movement)
    adj = mp["district_adj"]
    nd = adj.shape[0]
    dist = np.full((nd, nd), -1, np.int32)
    for a in range(nd):
        dist[a, a] = 0
        frontier = [a]
        while frontier:
            nxt = []
            for x in frontier:
                for y in range(nd):
                    if adj[x, y] and dist[a, y] < 0:
                        dist[a, y] = dist[a, x] + 1
                        nxt.append(y)
            frontier = nxt
    # placement edges: a clockwise walk along the west (from the sea up), north and east (down to
    # the sea) edges of the map, one edge per district and side it touches; the sea side has none
    cd = mp["cell_district"]
    walk = [(0, y, 0) for y in range(h - 1, -1, -1)] + [(x, 0, 1) for x in range(w)] + [(w - 1, y, 2) for y in range(h)]
    edges: list[tuple[int, int]] = []
    for x, y, side in walk:
        d = int(cd[y * w + x])
        if d >= 0 and (d, side) not in edges:
            edges.append((d, side))
    if not edges:
        raise RulesError("rules: map.districts: no district touches the west, north or east edge (no Combat Area perimeter)")
    return dist, edges
