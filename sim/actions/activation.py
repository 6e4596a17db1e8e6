"""2. MINOR BUILDING ACTIVATION, GROUP B, and its ACTIVATION EFFECTS: which of the seat's
buildings it may activate (its ACTIVATE rows), paying for an activation row and applying its one
effect, with the cards that add to it (15, 21, 27, 39, 52, 75)."""

from numba import njit

from sim.actions.turn_rows import add_row, spend_discount, worker_discount
from sim.cardpower import card_active, spend
from sim.city import activatable, activation_place_ok
from sim.codes import Act, Card, Dec, Ev
from sim.core import council_worker_stands_in, decide, log, place_workers, set_option, workers_available
from sim.economy import card45_cut, coin_value, pay_coins, pay_plan, pay_resources, take_coins, take_from_grids, take_from_supply
from sim.rules import AP, RK
from sim.state import PF, G, M, Mini, Res, Sup


@njit(cache=True)
def _card52_applies(st, r, seat, a):
    """Card 52 used this turn: "You can acquire a Veteran Soldier without the Fort"."""
    return r.act_kind[a] == 2 and r.act_needs[a] == M.FORT and card_active(st, seat, Card.C52)


@njit(cache=True)
def activation_ok(st, r, seat, a):
    """Can the player pay for and use activation row ``a`` (ignoring place and workers)?"""
    if r.act_needs[a] >= 0 and st.major_state[r.act_needs[a], 1] == 0 and not _card52_applies(st, r, seat, a):
        return False
    if r.act_needs_not[a] >= 0 and st.major_state[r.act_needs_not[a], 1] > 0:
        return False
    inp = r.act_in[a]
    if coin_value(st, r, seat) < r.k[RK.BRONZE_PER_SILVER] * inp[4] + inp[5]:
        return False
    w, s, p = _act_resources(st, r, seat, a)
    if pay_plan(st, seat, w, s, p, inp[3], 1 - r.act_real[a]) < 0:
        return False
    kind = r.act_kind[a]
    if kind == 1:
        if st.supply[Sup.SOLDIERS] <= 0:
            return False
        for j in range(r.k[RK.WAR_MARKERS]):
            if st.minis[seat, j, 0] == Mini.MILICIANO_VET:
                return True
        return False
    if kind == 2:
        for j in range(r.k[RK.WAR_MARKERS]):
            if st.minis[seat, j, 0] == Mini.SOLDIER:
                return True
        return False
    return True


@njit(cache=True)
def _act_resources(st, r, seat, a):
    """Wood, stone and precious an activation row costs; card 45's waiver applies except to sales
    ("It is not possible to sell ... discounted resources": the rows paid with real resources)."""
    inp = r.act_in[a]
    if r.act_real[a] == 1:
        return inp[0], inp[1], inp[2]
    return card45_cut(st, r, seat, inp[0], inp[1], inp[2])


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def activation_rows(st, r, seat, k, avail, disc, near):
    """The ACTIVATE rows from row ``k``: the spaces own_spaces found the seat may activate, in map
    order; with a discount card in use (``disc``), every space (the cards also waive adjacency:
    "You can activate them, also if they are not adjacent"). ``near``: the seat's near-own mask."""
    n_act = st.own_n[seat, 1]
    acts = st.own_act[seat]
    for q in range(st.cell_b.shape[0] if disc else n_act):
        c = q if disc else acts[q]
        b = st.cell_b[c]
        if not activatable(b):
            continue
        if st.act_used[seat, c] == 1:
            continue
        dt = worker_discount(st, r, seat, b) if disc else 0
        if dt == 0 and not activation_place_ok(st, r, c, near[c] == 1):
            continue
        for j in range(r.act_nrows[b]):
            a = r.act_rows[b, j]
            if r.act_w[a] - dt <= avail and activation_ok(st, r, seat, a):
                k = add_row(st, k, Act.ACTIVATE, a, c, dt, 0)
    return k


@njit(cache=True)
def activate(st, r, seat, a, c, disc=0):
    """Activate a building (2. MINOR BUILDING ACTIVATION, GROUP B): one effect, once per building
    per decade. ``disc``: workers a discount card replaces by City Council workers
    (:func:`worker_discount`). Cards used this turn may add a second effect (15, 21, 27: with the
    same worker; 75: with another worker) and card 39 one more unit of the output in a district with
    Roads."""
    place_workers(st, seat, r.act_w[a] - disc)
    for _ in range(disc):
        council_worker_stands_in(st, seat)
    if disc > 0:
        spend_discount(st, r, seat, r.act_b[a])
    st.act_used[seat, c] = 1
    if r.act_needs[a] >= 0 and st.major_state[r.act_needs[a], 1] == 0:
        spend(st, Card.C52)  # the card stood in for the Fort: one of its ``veteran_soldiers`` spent
    _activation_effect(st, r, seat, a, c)
    b = r.act_b[a]
    for card in (Card.C15, Card.C21, Card.C27, Card.C75):
        if not card_active(st, seat, card):
            continue
        if card != Card.C75 and not (r.aff_buildings[card] >> b) & 1:
            continue
        p = r.aff_p[card]
        if card == Card.C75:
            # "activate a building 1 (extra_activations) additional time": each takes its own workers
            n_more = p[AP.EXTRA_ACTIVATIONS]
            w_more = -1
        else:
            # "use ... twice (uses) in a single turn using 1 worker (workers) only": the workers beyond
            # the first effect's are placed with the second
            n_more = p[AP.USES] - 1
            w_more = max(0, p[AP.WORKERS] - r.act_w[a])
        for _ in range(n_more):
            k = 0
            for j in range(r.act_nrows[b]):
                a2 = r.act_rows[b, j]
                w2 = r.act_w[a2] if w_more < 0 else w_more
                if activation_ok(st, r, seat, a2) and (w2 == 0 or w2 <= workers_available(st, seat)):
                    set_option(st, k, a2, card)
                    k += 1
            set_option(st, k, -1, card)
            a2 = st.opts[decide(st, r, seat, Dec.CARD_TARGET, k + 1), 0]
            if a2 < 0:
                break
            st.card_active[card] = 0
            w2 = r.act_w[a2] if w_more < 0 else w_more
            if w2 > 0:
                place_workers(st, seat, w2)
            w_more = 0 if w_more > 0 else w_more
            _activation_effect(st, r, seat, a2, c)
        break
    d = r.cell_district[c]
    if card_active(st, seat, Card.C39) and d >= 0 and st.roads[d] == 1:
        st.card_active[Card.C39] = 0
        _card39_bonus(st, r, seat, a)


@njit(cache=True)
def _card39_bonus(st, r, seat, a):
    """Card 39: "+1 resource of a type created ... or +1 bronze coin (Market or Corporation if used to
    gain coin) or +1 Faith token (Church)": wood, stone and precious from the board's grids, metal and
    Faith from the supply, bronze from the stacks."""
    out = r.act_out[a]
    p = r.aff_p[Card.C39]
    if out[8] > 0:
        f = min(p[AP.EXTRA_FAITH], st.supply[Sup.FAITH])
        st.supply[Sup.FAITH] -= f
        st.pl[seat, PF.FAITH] += f
    elif out[6] > 0 or out[7] > 0:
        take_coins(st, r, seat, 0, p[AP.EXTRA_BRONZE])
    elif out[0] > 0 or out[3] > 0:
        take_from_grids(st, r, seat, Res.WOOD, p[AP.EXTRA_RESOURCE])  # wood, stone, precious from the board
    elif out[1] > 0 or out[4] > 0:
        take_from_grids(st, r, seat, Res.STONE, p[AP.EXTRA_RESOURCE])
    elif out[2] > 0:
        take_from_grids(st, r, seat, Res.PRECIOUS, p[AP.EXTRA_RESOURCE])
    elif out[5] > 0:
        take_from_supply(st, seat, Res.METAL, p[AP.EXTRA_RESOURCE])


@njit(cache=True)
def _activation_effect(st, r, seat, a, c):
    """Pay an activation row's input and apply its one effect (ACTIVATION EFFECTS)."""
    inp = r.act_in[a]
    w, s, p = _act_resources(st, r, seat, a)
    st.g[G.CARD45_RES] = 0  # card 45 waives costs of one action's payment only
    plan = pay_plan(st, seat, w, s, p, inp[3], 1 - r.act_real[a])
    pay_resources(st, seat, w, s, p, inp[3], plan)
    if inp[4] > 0 or inp[5] > 0:
        pay_coins(st, r, seat, r.k[RK.BRONZE_PER_SILVER] * inp[4] + inp[5])
    log(st, Ev.ACTIVATE, seat, a, c)
    kind = r.act_kind[a]
    if kind == 1 or kind == 2:
        frm = Mini.MILICIANO_VET if kind == 1 else Mini.SOLDIER
        for j in range(r.k[RK.WAR_MARKERS]):
            if st.minis[seat, j, 0] == frm:
                if kind == 1:
                    st.supply[Sup.MILICIANOS] += 1
                    st.supply[Sup.SOLDIERS] -= 1
                    st.minis[seat, j, 0] = Mini.SOLDIER
                else:
                    st.minis[seat, j, 0] = Mini.SOLDIER_VET
                log(st, Ev.MINI_UPGRADE, seat, j, st.minis[seat, j, 0])
                break
        return
    out = r.act_out[a]
    if out[0] > 0:
        take_from_grids(st, r, seat, Res.WOOD, out[0])
    if out[1] > 0:
        take_from_grids(st, r, seat, Res.STONE, out[1])
    if out[2] > 0:
        take_from_grids(st, r, seat, Res.PRECIOUS, out[2])
    for i in range(3):
        if out[3 + i] > 0:
            take_from_supply(st, seat, Res.WOOD if i == 0 else (Res.STONE if i == 1 else Res.METAL), out[3 + i])
    if out[6] > 0 or out[7] > 0:
        take_coins(st, r, seat, out[6], out[7])
    if out[8] > 0:
        f = min(out[8], st.supply[Sup.FAITH])
        st.supply[Sup.FAITH] -= f
        st.pl[seat, PF.FAITH] += f
