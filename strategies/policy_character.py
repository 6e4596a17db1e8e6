"""The heuristic family's Character term (strategies.policy): how far a TURN row moves the seat toward
its Character card's scoring (CARD REFERENCE > CHARACTER CARDS), which rows can move it at all, and
whether it depends on the space itself (then the BUILD rows that share a type and a district differ).
"""

from numba import njit

from sim.city import next_to_faith
from sim.codes import Act, Card, Ch, Law
from sim.rules import RK
from sim.state import PF, B, G, M
from strategies.weights import F, K


@njit(cache=True)
def _present_in(st, r, d, t):
    for j in range(r.district_ncells[d]):
        if st.cell_b[r.district_cells[d, j]] == t:
            return True
    return False


@njit(cache=True)
def _progress_acts(ch):
    """Bit ``act`` is set for the TURN rows :func:`_character_progress` can value non-zero for
    Character ``ch`` (it returns 0.0 for every other row): :func:`strategies.policy_turn._turn_values` skips the call for
    the rest. tests/strategies/test_strategies.py checks the two agree on played positions."""
    if ch <= Ch.MERCHANT or ch == Ch.SAILMAKER:
        return (1 << Act.ACTIVATE) | (1 << Act.BUILD) | (1 << Act.F_WAREHOUSE) | (1 << Act.SHIP)
    if ch == Ch.DEFENDER or ch == Ch.ROADMAKER:
        return (1 << Act.MAJOR) | (1 << Act.F_CARD)
    if ch == Ch.GENERAL or ch == Ch.BISHOP:
        return (1 << Act.BUILD) | (1 << Act.MAJOR)
    if ch == Ch.CAPTAIN:
        return (1 << Act.MILICIANO) | (1 << Act.ACTIVATE)
    if ch == Ch.ARCHITECT or ch == Ch.GOVERNOR:
        return 1 << Act.BUILD
    if ch == Ch.NOBLEWOMAN:
        return 1 << Act.F_VOTE
    return 0


@njit(cache=True)
def _character_progress(st, r, seat, i):
    """Heuristic family: how far TURN option i moves the seat toward its Character card's scoring
    (CARD REFERENCE > CHARACTER CARDS), in about VP x Era units: the resource the Carpenter,
    Stonemason, Merchant and Sailmaker must hold most of; Walls (Defender), Roads (Roadmaker);
    Barracks, Monuments and the Fort (General); miniatures (Captain); Churches, the Cathedral and
    Monuments/Fountains next to them (Bishop); a building type new to its district (Architect);
    occupied district spaces (Governor); Peace rather than War (Noblewoman)."""
    w = st.w[seat]
    ch = st.pl[seat, PF.CHARACTER]
    act = st.opts[i, 0]
    a = st.opts[i, 1]
    b = st.opts[i, 2]
    if ch <= Ch.MERCHANT or ch == Ch.SAILMAKER:
        res = ch if ch <= Ch.MERCHANT else 3  # wood, stone, precious, metal
        if act == Act.ACTIVATE:
            out = r.act_out[a]
            gain = out[2] if res == 2 else (out[res] + out[3 + res] if res < 2 else out[5])
            return float(gain - r.act_in[a, res])
        if act == Act.BUILD:
            return -float(r.b_cost[a, 1 + res])
        if act == Act.F_WAREHOUSE:
            return 1.0 if a == res else 0.0
        if act == Act.SHIP:
            p = r.ship_put[a]
            return float(r.ship_pay[a, 2]) if res == 3 else -float(p[res]) if res < 3 else 0.0
        return 0.0
    if ch == Ch.DEFENDER or ch == Ch.ROADMAKER:
        m = M.WALLS if ch == Ch.DEFENDER else M.ROADS
        per = r.k[RK.CH_DEFENDER] if ch == Ch.DEFENDER else r.k[RK.CH_ROADMAKER]
        if act == Act.MAJOR and a == m:
            return w[K.CH_WALL_ROAD] * per * b
        if act == Act.F_CARD and a == Card.C31 and ch == Ch.DEFENDER:
            return w[K.CH_WALL_ROAD] * per
        return 0.0
    if ch == Ch.GENERAL:
        if act == Act.BUILD and a == B.BARRACKS:
            return float(r.k[RK.CH_GEN_BARRACKS])
        if act == Act.BUILD and a == B.MONUMENT:
            return float(r.k[RK.CH_GEN_MONUMENT])
        if act == Act.MAJOR and a == M.FORT and st.g[G.FORT_BUILT] == 0:
            return w[K.CH_MAJOR] * r.k[RK.CH_GEN_FORT] * b
        return 0.0
    if ch == Ch.CAPTAIN:
        if act == Act.MILICIANO or (act == Act.ACTIVATE and r.act_kind[a] != 0):
            return w[K.CH_CAPTAIN] * r.k[RK.CH_CAPTAIN]
        return 0.0
    if ch == Ch.BISHOP:
        if act == Act.BUILD and a == B.CHURCH:
            return float(r.k[RK.CH_BISHOP_CHURCH])
        if act == Act.BUILD and (a == B.MONUMENT or a == B.FOUNTAIN) and next_to_faith(st, r, b):
            return float(r.k[RK.CH_BISHOP_SQUARE])
        if act == Act.MAJOR and a == M.CATHEDRAL and st.g[G.CATHEDRAL_BUILT] == 0:
            return w[K.CH_MAJOR] * r.k[RK.CH_BISHOP_CATHEDRAL] * b
        return 0.0
    if ch == Ch.ARCHITECT:
        if act == Act.BUILD:
            d = r.cell_district[b]
            if d >= 0 and not _present_in(st, r, d, a):
                return w[K.CH_ARCHITECT]
        return 0.0
    if ch == Ch.GOVERNOR:
        if act == Act.BUILD and st.cell_b[b] == B.NONE:
            d = r.cell_district[b]
            if d < 0:
                return 0.0
            occ = 0
            for j in range(r.district_ncells[d]):
                if st.cell_b[r.district_cells[d, j]] != B.NONE:
                    occ += 1
            cap = r.district_ncells[d]
            if occ + 1 == cap:
                return float(r.k[RK.CH_GOV_FULL] - r.k[RK.CH_GOV_HALF])
            if 100 * (occ + 1) >= cap * r.k[RK.CH_GOV_HALF_PCT] and 100 * occ < cap * r.k[RK.CH_GOV_HALF_PCT]:
                return float(r.k[RK.CH_GOV_HALF])
            return w[K.CH_GOVERNOR]
        return 0.0
    if ch == Ch.NOBLEWOMAN:
        if act == Act.F_VOTE and a == Law.PEACE:
            return w[K.CH_NOBLEWOMAN] * r.k[RK.CH_NOBLEWOMAN]
        if act == Act.F_VOTE and a == Law.WAR:
            return -w[K.CH_NOBLEWOMAN] * r.k[RK.CH_NOBLEWOMAN]
        return 0.0
    return 0.0


@njit(cache=True)
def _per_space(st, seat):
    """The Bishop's and the Governor's BUILD progress depends on the space itself (a Monument or
    Fountain next to a Church; an empty space): with a Character weight, their BUILD rows that share
    a type, a district and the Status marker differ in value (added per row, :func:`strategies.policy_build._build_value`)."""
    ch = st.pl[seat, PF.CHARACTER]
    return st.w[seat, F.CHARACTER] != 0.0 and (ch == Ch.BISHOP or ch == Ch.GOVERNOR)
