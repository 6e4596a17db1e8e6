"""TWO PLAYERS GAME & SOLO MODE: the greedy and heuristic values of an A.I. tie (``Dec.AI_TIE``) for
the human seat that decides it, in VP (the units of the rest of the valuation, strategies.policy).

"If there is a tie in A.I.'s decision, the human-player first in turn order chooses what to do"
(sim.ai_choice.human_tie): the rules give that choice to a player, and a player makes it in its own
interest. So each row is worth what it gives the deciding seat less what it gives the A.I., one
function per topic of the row (sim.codes.AiTie):

- ``UPGRADE`` (which of its Lots or Houses the A.I. upgrades) and ``PLACE`` (where the A.I. puts
  a Major building): both seats' City (:func:`sim.city.city_vp`, as the SCORING PHASE scores it)
  with the option put on the map, and then taken off again;
- ``DISTRICT`` (where its new Lot goes): the same with the Lot put on a free space of the district,
  plus the share of the House it leads to (``K.LOT_HOUSE``, as the policy values its own Lots);
- ``GRID`` (which Major building grid its workers go on): the VP printed on the spaces they take
  (``r.major_space_vp``, the best free ones, as sim.major_buildings.place_on_grid puts a player's own
  workers), the first-worker VP of an empty grid, and the Fort's or the Harbor's City bonus for
  both seats when its workers complete one of them;
- ``STATUS`` (which category the A.I. improves): what that level does for the A.I. (10. IMPROVE
  STATUS) by the A.I.'s SPECIAL RULES, :func:`status_gain`.

VP, the City's included, are valued with the seat's ``vp`` weight: they are VP the A.I. or the
seat will score (the ``city`` weight is the seat's estimate for its own building, tuned for it and
negative for some Characters), and the seat weighs its VP and the A.I.'s alike, as the game is won
by finishing ahead. Workers are valued with ``worker`` (a cost: a worker gained is worth
``-worker``). A row applied to the map is taken off again before the
function returns, as sim.ai_choice._placement does: the state the policy is given is the state it
leaves. This module reads the engine below the seam only (sim.city, sim.codes, sim.rules,
sim.state).
"""

from numba import njit

from sim.city import city_vp, city_vp_walled, district_value, house_value, largest_home
from sim.codes import AiTie, Dec
from sim.rules import RK
from sim.state import GROUP_SIZE, N_CARDS, N_CHARACTERS, N_GROUPS, PF, B, G, Loc, M
from strategies.policy_terms import _grid_take
from strategies.weights import F, K


@njit(cache=True)
def upgrade_value(st, r, w, seat, ai, c):
    """``UPGRADE`` row: the A.I.'s Lot on space ``c`` made a House, or its House a Palace (the Build
    card's upgrade): the change in the deciding seat's City less the change in the A.I.'s."""
    own0 = city_vp(st, r, seat)
    ai0 = city_vp(st, r, ai)
    old = st.cell_b[c]
    st.cell_b[c] = B.HOUSE if old == B.LOT else B.PALACE
    own1 = city_vp(st, r, seat)
    ai1 = city_vp(st, r, ai)
    st.cell_b[c] = old
    return w[F.VP] * ((own1 - own0) - (ai1 - ai0))


@njit(cache=True)
def _free_space(st, r, d):
    """A free space of district ``d`` (the first), or -1: a building's City value depends on its
    district only, so any free space stands for the one the placement procedure would find."""
    for j in range(r.district_ncells[d]):
        c = r.district_cells[d, j]
        if r.cell_buildable[c] == 1 and st.cell_b[c] == B.NONE:
            return c
    return -1


@njit(cache=True)
def district_row_value(st, r, w, seat, ai, d):
    """``DISTRICT`` row: the A.I.'s new Lot in district ``d``. It is one more building of its colour
    there (its Houses of the district score up to the district value), and it leads to a House
    (``K.LOT_HOUSE`` of that House's VP, as the policy values its own Lots). No free space: the
    randomizer places it elsewhere, the same whichever district the human names (0)."""
    c = _free_space(st, r, d)
    if c < 0:
        return 0.0
    own0 = city_vp(st, r, seat)
    ai0 = city_vp(st, r, ai)
    st.cell_b[c] = B.LOT
    st.cell_owner[c] = ai
    own1 = city_vp(st, r, seat)
    ai1 = city_vp(st, r, ai)
    house = house_value(st, r, ai, d, st.pl[ai, PF.FAITH], district_value(st, r, d))
    st.cell_b[c] = B.NONE
    st.cell_owner[c] = -1
    return w[F.VP] * ((own1 - own0) - (ai1 - ai0) - w[K.LOT_HOUSE] * house)


@njit(cache=True)
def _scorings_left(st, r):
    """(Scorings still to come, this decade's included: C.7 SCORING at the end of an Era's last
    decade and of the game's last; the sum of their Era numbers)."""
    dpe = r.k[RK.DECADES_PER_ERA]
    last = st.g[G.LAST_DECADE]
    n = 0
    eras = 0
    for d in range(st.g[G.DECADE], last + 1):
        if d % dpe == 0 or d == last:
            n += 1
            eras += (d - 1) // dpe + 1
    return n, eras


@njit(cache=True)
def _colours(st, seat):
    """Card colours the seat owns (its Character card included): what Card status III scores."""
    seen = 0
    for c in range(N_CARDS):
        if st.card_loc[c] == Loc.HAND + seat:
            seen |= 1 << (c if c < N_CHARACTERS else (c - N_CHARACTERS) // GROUP_SIZE)
    n = 0
    for g in range(N_GROUPS):
        n += (seen >> g) & 1
    return n


@njit(cache=True)
def status_gain(st, r, w, ai, cat, lvl):
    """What Status level ``lvl`` in category ``cat`` (0 Construction, 1 Worker, 2 VP, 3 Cards) adds
    for the A.I. to the level below, in VP, by 10. IMPROVE STATUS and the A.I.'s SPECIAL RULES:

    - Construction: nothing. It swaps resources in a payment, and the A.I. "doesn't pay resources
      for its action".
    - Worker: the City Council workers it adds, once per decade ("If A.I. has improved its Worker
      status and need workers to complete an action, it uses a City Council worker"), for each
      decade left, this one included; a worker is worth ``-worker``.
    - VP: the bonus percentage it adds, on one assignation per decade; taken as the A.I.'s largest
      House or Palace now, once per Scoring left (it takes no banners; the City is what it builds).
    - Cards: Levels I and II draw one card more and waive salaries and a reactivation's cost: the
      A.I. pays no salary and never reactivates or uses a card, so nothing. Level III scores its
      colours x Era at each Scoring left (``status.card_l3_half_vp_per_colour``, halves)."""
    if lvl <= 0:
        return 0.0
    if cat == PF.ST_WORKER - PF.ST_CONSTRUCTION:
        more = r.worker_cc[lvl - 1] - (r.worker_cc[lvl - 2] if lvl >= 2 else 0)
        return -w[F.WORKER] * more * (st.g[G.LAST_DECADE] - st.g[G.DECADE] + 1)
    n, eras = _scorings_left(st, r)
    if cat == PF.ST_VP - PF.ST_CONSTRUCTION:
        pct = r.vp_bonus_pct[lvl - 1] - (r.vp_bonus_pct[lvl - 2] if lvl >= 2 else 0)
        return w[F.VP] * n * (largest_home(st, r, ai) * pct // 100)
    if cat == PF.ST_CARDS - PF.ST_CONSTRUCTION and lvl == r.st_silver.shape[0]:  # Level III: the last of the table
        return w[F.VP] * (_colours(st, ai) * r.card_l3_half[st.g[G.NPLAYERS] - 2] * eras // 2)
    return 0.0


@njit(cache=True)
def grid_value(st, r, w, seat, ai, m, n):
    """``GRID`` row: the A.I.'s ``n`` workers on Major building grid ``m`` take its best free spaces
    (the VP printed on them come to the A.I. when the grid is complete), the first-worker VP when
    the grid is empty, and when they fill it, the building: the Fort and the Harbor add to every
    district's value (both seats' City; the other buildings' places are the A.I.'s choice, later)."""
    vp, free = _grid_take(st, r, m, n, 0.0, 1.0)  # whole VP, summed exactly
    v = -w[F.VP] * vp
    if n >= free and (m == M.FORT or m == M.HARBOR):
        flag = G.FORT_BUILT if m == M.FORT else G.HARBOR_BUILT
        if st.g[flag] == 0:
            own0 = city_vp(st, r, seat)
            ai0 = city_vp(st, r, ai)
            st.g[flag] = 1
            own1 = city_vp(st, r, seat)
            ai1 = city_vp(st, r, ai)
            st.g[flag] = 0
            v += w[F.VP] * ((own1 - own0) - (ai1 - ai0))
    return v


@njit(cache=True)
def place_value(st, r, w, seat, ai, kind, a, b):
    """``PLACE`` row: a Major building the A.I. puts on the map, as its own decision's row ``[a, b]``
    (sim.ai_choice._placement): the Cabildo on space a, the Cathedral on spaces a and b, a Road in
    district a, Walls closing district b. The A.I.'s rows tied by its City; the human's differ."""
    own0 = city_vp(st, r, seat)
    ai0 = city_vp(st, r, ai)
    if kind == Dec.PLACE_WALL:
        if a < 0:
            return 0.0
        return w[F.VP] * ((city_vp_walled(st, r, seat, b) - own0) - (city_vp_walled(st, r, ai, b) - ai0))
    if kind == Dec.PLACE_ROAD:
        old = st.roads[a]
        st.roads[a] = 1
        own1 = city_vp(st, r, seat)
        ai1 = city_vp(st, r, ai)
        st.roads[a] = old
    else:
        c2 = b if kind == Dec.PLACE_CATHEDRAL else a  # the Cathedral's two spaces; the Cabildo's row is [space]
        ob_a, oo_a, ob_b, oo_b = st.cell_b[a], st.cell_owner[a], st.cell_b[c2], st.cell_owner[c2]
        st.cell_b[a] = B.CABILDO if kind == Dec.PLACE_CABILDO else B.CATHEDRAL
        st.cell_owner[a] = -1
        st.cell_b[c2] = st.cell_b[a]
        st.cell_owner[c2] = -1
        own1 = city_vp(st, r, seat)
        ai1 = city_vp(st, r, ai)
        st.cell_b[c2], st.cell_owner[c2] = ob_b, oo_b  # c2 first: it is a itself for the Cabildo
        st.cell_b[a], st.cell_owner[a] = ob_a, oo_a
    return w[F.VP] * ((own1 - own0) - (ai1 - ai0))


@njit(cache=True)
def ai_tie_value(st, r, seat, i):
    """Row ``i`` of an A.I. tie (``Dec.AI_TIE``, rows ``[topic, ...]`` of sim.codes.AiTie) for the
    deciding ``seat``: what it gives the seat less what it gives the A.I. (TWO PLAYERS GAME & SOLO
    MODE: the human first in turn order chooses)."""
    w = st.w[seat]
    o = st.opts[i]
    ai = st.g[G.AI] - 1
    if ai < 0:
        return 0.0
    topic = o[0]
    if topic == AiTie.UPGRADE:
        return upgrade_value(st, r, w, seat, ai, o[1])
    if topic == AiTie.DISTRICT:
        return district_row_value(st, r, w, seat, ai, o[1])
    if topic == AiTie.STATUS:
        return -status_gain(st, r, w, ai, o[1], o[2])
    if topic == AiTie.GRID:
        return grid_value(st, r, w, seat, ai, o[1], o[2])
    return place_value(st, r, w, seat, ai, o[1], o[2], o[3])
