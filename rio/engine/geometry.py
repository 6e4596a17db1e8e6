"""The city map's geometry, built once from the packed rules (RP-07): each space's district, its 8
neighbours (placement adjacency, RP-04) and 4 neighbours by side (war movement, COMBAT RULES: no
diagonals), the starting line, the ring round the Plaza Mayor, the district centres as road vertices
(RP-08) and the Plaza Mayor's vertices. Plain numpy; the kernels take :class:`Geo` as an argument.

Vertices (road network): vertex ``v = Y * (width + 1) + X`` for 0 <= X <= width, 0 <= Y <= height, the
corner at distance X from the west edge and Y from the north edge; rules' centre (X, Y) = the south-east
corner of space (X, Y) counted from 1, which is this vertex (X, Y).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rio.keys import PLAZA, Side
from rio.packing import Rules


class Geo(NamedTuple):
    dims: np.ndarray          # int32[2]: height, width
    district: np.ndarray      # int32[N]: District, PLAZA
    start: np.ndarray         # int32[N]: 1 on the starting line
    ring: np.ndarray          # int32[N]: 1 on a space surrounding the Plaza Mayor
    nb8: np.ndarray           # int32[N, 8]: neighbours (NO past the edge)
    nb4: np.ndarray           # int32[N, Side]: the neighbour on each side (NO past the edge)
    centre_vertex: np.ndarray  # int32[District]
    plaza_vertex: np.ndarray  # int32[V]: 1 on a corner of a Plaza Mayor space
    district_spaces: np.ndarray  # int32[District, max]: the district's spaces, NO padded
    perimeter: np.ndarray     # int32[District]: 1 for the perimeter districts


def build_geo(r: Rules) -> Geo:
    """The :class:`Geo` of the rules' city map."""
    h, w = r.map_district.shape
    n = h * w
    district = r.map_district.reshape(-1).astype(np.int32)
    nb8 = np.full((n, 8), -1, np.int32)
    nb4 = np.full((n, len(Side)), -1, np.int32)
    step = {Side.NORTH: (0, -1), Side.EAST: (1, 0), Side.SOUTH: (0, 1), Side.WEST: (-1, 0)}
    for y in range(h):
        for x in range(w):
            s = y * w + x
            k = 0
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    if (dx or dy) and 0 <= x + dx < w and 0 <= y + dy < h:
                        nb8[s, k] = (y + dy) * w + x + dx
                        k += 1
            for side, (dx, dy) in step.items():
                if 0 <= x + dx < w and 0 <= y + dy < h:
                    nb4[s, side] = (y + dy) * w + x + dx
    centre = np.array([Y * (w + 1) + X for X, Y in r.district_centre], np.int32)
    plaza_v = np.zeros((h + 1) * (w + 1), np.int32)
    for s in np.nonzero(district == PLAZA)[0]:
        y, x = divmod(int(s), w)
        for Y in (y, y + 1):
            for X in (x, x + 1):
                plaza_v[Y * (w + 1) + X] = 1
    nd = len(r.district_centre)
    size = max(int((district == d).sum()) for d in range(nd))
    dsp = np.full((nd, size), -1, np.int32)
    for d in range(nd):
        at = np.nonzero(district == d)[0]
        dsp[d, :len(at)] = at
    return Geo(dims=np.array([h, w], np.int32), district=district, start=r.map_start.reshape(-1).astype(np.int32),
               ring=r.map_ring.reshape(-1).astype(np.int32), nb8=nb8, nb4=nb4, centre_vertex=centre, plaza_vertex=plaza_v,
               district_spaces=dsp, perimeter=r.district_perimeter.astype(np.int32))
