"""Component conservation and sanity checks on a game state (used by the random-play tests)."""

from __future__ import annotations

import numpy as np

from sim.core import CCW
from sim.game import play_own_decade
from sim.rules import RK
from sim.state import PF, B, G, Loc, Mini, Sup


def check_state(st, r) -> list[str]:
    """Every component is somewhere, never negative, never above the box contents. Returns problems."""
    errs: list[str] = []
    n = int(st.g[G.NPLAYERS])
    col = n - 2
    if st.g[G.AI] > 0:  # a game with the A.I. has at least the supply of solo.supply_players players
        col = max(col, int(r.k[RK.AI_SUPPLY_PLAYERS]) - 2)
    sup0 = r.supply_n[col]
    pl = st.pl[:n]

    def eq(name, got, want):
        if int(got) != int(want):
            errs.append(f"{name}: {int(got)} != {int(want)}")

    dock = np.zeros(5, np.int64)
    for s in range(n):
        for slot in (PF.SHIP_LOAD, PF.SHIP_LOAD2):  # the second load: card 46
            ld = int(pl[s, slot])
            if ld >= 0:
                dock += r.ship_put[ld]
    on_wood_haciendas = st.cell_cube[st.cell_b == B.HACIENDA_WOOD].sum()
    on_stone_haciendas = st.cell_cube[st.cell_b == B.HACIENDA_STONE].sum()
    eq("wood", st.supply[Sup.WOOD] + st.grids[4:8].sum() + st.warehouse[0] + pl[:, PF.WOOD].sum() + dock[0] + on_wood_haciendas,
       sup0[Sup.WOOD])
    eq("stone", st.supply[Sup.STONE] + st.grids[0:4].sum() + st.warehouse[1] + pl[:, PF.STONE].sum() + dock[1] + on_stone_haciendas,
       sup0[Sup.STONE])
    eq("cubes only on Haciendas", st.cell_cube[(st.cell_b != B.HACIENDA_WOOD) & (st.cell_b != B.HACIENDA_STONE)].sum(), 0)
    eq("precious", st.supply[Sup.PRECIOUS] + st.grids[8] + pl[:, PF.PRECIOUS].sum() + dock[2], sup0[Sup.PRECIOUS])
    eq("metal (the Spain support cubes on the Decade track included)", st.supply[Sup.METAL] + pl[:, PF.METAL].sum() + st.spain.sum(),
       sup0[Sup.METAL])
    eq("peace markers", st.supply[Sup.PEACE] + st.peace.sum(), sup0[Sup.PEACE])
    eq("silver", st.supply[Sup.SILVER] + st.stacks[:, 0].sum() + pl[:, PF.SILVER].sum() + dock[3], sup0[Sup.SILVER])
    eq("bronze", st.supply[Sup.BRONZE] + st.stacks[:, 1].sum() + pl[:, PF.BRONZE].sum() + dock[4], sup0[Sup.BRONZE])
    eq("faith", st.supply[Sup.FAITH] + pl[:, PF.FAITH].sum(), sup0[Sup.FAITH])
    eq("no City Council workers lent by cards 45/51 outside a turn", st.g[G.POOL_CC], 0)
    eq("council workers",
       st.supply[Sup.COUNCIL_WORKERS] + pl[:, PF.CC_WORKERS].sum() + pl[:, PF.CC_PLACED].sum() + (st.major == CCW).sum(),
       sup0[Sup.COUNCIL_WORKERS])
    cells = st.cell_b
    for s in range(n):
        held59 = pl[s, PF.CARD59_THIS] + pl[s, PF.CARD59_NEXT]  # workers that fought as Milicianos (card 59)
        if st.g[G.AI] == s + 1:
            # the Solo A.I. has all its workers each decade; those still on grids from earlier decades are extra disks
            eq(f"workers seat {s} (A.I.)", pl[s, PF.WORKERS] + pl[s, PF.WORKERS_PLACED] + (st.major == s).sum() - st.g[G.AI_DISKS],
               r.ai_workers[r.k[RK.AI_STRENGTH]])
        else:
            eq(f"workers seat {s}", pl[s, PF.WORKERS] + pl[s, PF.WORKERS_PLACED] + (st.major == s).sum() + held59, r.k[RK.WORKERS])
        eq(f"dock seat {s}", st.dock[s], sum(int(r.ship_put[int(pl[s, f])].sum()) for f in (PF.SHIP_LOAD, PF.SHIP_LOAD2)
                                             if pl[s, f] >= 0))
        eq(f"lots seat {s}", pl[s, PF.LOTS] + ((cells == B.LOT) & (st.cell_owner == s)).sum(), r.k[RK.LOTS])
        eq(f"houses seat {s}", pl[s, PF.HOUSES] + ((cells == B.HOUSE) & (st.cell_owner == s)).sum(), r.k[RK.HOUSES])
        eq(f"palace markers seat {s}", pl[s, PF.PALACE_MARKERS] + ((cells == B.PALACE) & (st.cell_owner == s)).sum(),
           r.k[RK.PALACE_MARKERS])
        marked = (((cells == B.MONUMENT) | (cells == B.FOUNTAIN)) & (st.cell_owner == s)).sum()
        cats = sum(1 for c in range(4) if pl[s, PF.ST_CONSTRUCTION + c] > 0)
        eq(f"status markers seat {s}", pl[s, PF.STATUS_MARKERS] + marked + cats, r.k[RK.STATUS_MARKERS])
    eq("palaces", st.supply[Sup.PALACE] + (cells == B.PALACE).sum(), sup0[Sup.PALACE])
    for t, slot in ((B.QUARRY, Sup.QUARRY), (B.CARPENTRY, Sup.CARPENTRY), (B.MARKET, Sup.MARKET),
                    (B.BARRACKS, Sup.BARRACKS), (B.CHURCH, Sup.CHURCH), (B.MONUMENT, Sup.MONUMENT),
                    (B.FOUNTAIN, Sup.FOUNTAIN)):
        eq(f"supply {t.name}", st.supply[slot] + (cells == t).sum(), sup0[slot])
    eq("corporation/hacienda", st.supply[Sup.CORP_HACIENDA] + np.isin(cells, [B.CORPORATION, B.HACIENDA_WOOD,
                                                                             B.HACIENDA_STONE]).sum(),
       sup0[Sup.CORP_HACIENDA])
    eq("squares", st.supply[Sup.SQUARE] + np.isin(cells, [B.SQUARE, B.MONUMENT, B.FOUNTAIN]).sum(), sup0[Sup.SQUARE])
    eq("walls", st.supply[Sup.WALLS] + st.walls.sum(), sup0[Sup.WALLS])
    eq("road markers", st.supply[Sup.ROAD_MARKERS] + st.roads.sum(), sup0[Sup.ROAD_MARKERS])
    kinds = st.minis[:n, :, 0]
    eq("milicianos", st.supply[Sup.MILICIANOS] + np.isin(kinds, [Mini.MILICIANO, Mini.MILICIANO_VET]).sum(),
       sup0[Sup.MILICIANOS])
    eq("soldiers", st.supply[Sup.SOLDIERS] + np.isin(kinds, [Mini.SOLDIER, Mini.SOLDIER_VET]).sum(),
       sup0[Sup.SOLDIERS])
    eq("cabildo", (cells == B.CABILDO).sum(), st.g[G.CABILDO_BUILT])
    eq("cathedral spaces", (cells == B.CATHEDRAL).sum(), 2 * st.g[G.CATHEDRAL_BUILT])
    # never negative
    for f in (PF.WOOD, PF.STONE, PF.PRECIOUS, PF.METAL, PF.SILVER, PF.BRONZE, PF.FAITH, PF.WORKERS, PF.CC_WORKERS,
              PF.LOTS, PF.HOUSES, PF.PALACE_MARKERS, PF.STATUS_MARKERS):
        if (pl[:, f] < 0).any():
            errs.append(f"negative {f.name}: {pl[:, f].tolist()}")
    if (st.supply < 0).any():
        errs.append(f"negative supply: {st.supply.tolist()}")
    if (st.grids < 0).any() or (st.stacks < 0).any() or (st.warehouse < 0).any():
        errs.append("negative grid/stack/warehouse")
    lo, hi = r.k[RK.COUNCIL_MIN], r.k[RK.COUNCIL_MAX]
    if ((pl[:, PF.COUNCIL] < lo) | (pl[:, PF.COUNCIL] > hi)).any():
        errs.append(f"council out of track: {pl[:, PF.COUNCIL].tolist()}")
    if ((pl[:, PF.WAR_PENALTY] < r.k[RK.PENALTY_MIN]) | (pl[:, PF.WAR_PENALTY] > r.k[RK.PENALTY_MAX])).any():
        errs.append(f"war penalty out of track: {pl[:, PF.WAR_PENALTY].tolist()}")
    for f, lim in ((G.NAT_POS, r.k[RK.TENSION_SPACES] - 1), (G.PIR_POS, r.k[RK.TENSION_SPACES] - 1)):
        if not 0 <= st.g[f] <= lim:
            errs.append(f"tension {f.name} = {st.g[f]}")
    # cards: every Affiliate is in the deck, a pile, a hand or the game discard
    for c in range(12, 84):
        loc = int(st.card_loc[c])
        if not (loc in (Loc.DECK, Loc.GAME_DISCARD) or Loc.HAND <= loc < Loc.HAND + n or Loc.PILE <= loc < Loc.PILE + n):
            errs.append(f"card {c + 1} at {loc}")
    for s in range(n):
        ch = int(pl[s, PF.CHARACTER])
        if not (0 <= ch < 12 and st.card_loc[ch] == Loc.HAND + s):
            errs.append(f"seat {s} character {ch}")
    return errs


def decades_checked(st, r, tag=None):
    """Play a set-up game decade by decade (sim.game.play_own_decade, the plain phases), checking the
    invariants above after each; yields each decade once played (``tag`` names the game in a
    failure)."""
    for d in range(1, r.k[RK.DECADES] + 1):
        st.g[G.DECADE] = d
        st.g[G.ERA] = (d - 1) // r.k[RK.DECADES_PER_ERA] + 1
        play_own_decade(st, r)
        errs = check_state(st, r)
        assert not errs, (tag, d, errs)
        yield d
