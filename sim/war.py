"""C.3 TENSION LEVEL & WAR and the base WAR procedure.

Factions: 1 = Natives, 2 = Pirates.
"""

from numba import njit

from sim.cardpower import offer, use
from sim.city import district_closed, n_closed_districts
from sim.codes import Card, Dec, Ev
from sim.core import decide, log, set_option
from sim.deck import back_symbols, burn_card, draw_top, put_on
from sim.rules import AP, RK
from sim.state import GRID_PRECIOUS, GRID_STONE, GRID_WOOD, N_CARDS, N_CHARACTERS, PF, TG, TS, XG, G, Loc, Mini, Sup
from sim.war_track import NATIVES, PIRATES, card57_pays, card59_takes_worker, card59_worker, extended_war_on, gain_war_vp, war_lost, war_won

# reasons in Ev.TENSION
T_GRIDS = 0
T_PRECIOUS_COINS = 1
T_CARD = 2
T_LAW = 3
T_AFFILIATE = 4


@njit(cache=True)
def _slots(faction):
    if faction == NATIVES:
        return G.NAT_POS, G.NAT_DOUBLE
    return G.PIR_POS, G.PIR_DOUBLE


@njit(cache=True)
def advance_tension(st, r, faction, steps, reason):
    """Move a tension marker; past the last space it becomes a double disk on the first space
    and goes on from there; a double disk cannot pass the last space (R-08)."""
    if steps <= 0:
        return
    ps, ds = _slots(faction)
    last = r.k[RK.TENSION_SPACES] - 1
    pos = st.g[ps] + steps
    if pos > last:
        if st.g[ds] == 0:
            st.g[ds] = 1
            pos = min(pos - last - 1, last)
        else:
            pos = last
    st.g[ps] = pos
    log(st, Ev.TENSION, faction, steps, reason, pos, st.g[ds])


@njit(cache=True)
def retreat_tension(st, r, faction, steps):
    """Move a tension marker back (card 79): it stops at the first space; a double disk stepping
    back from the first space becomes a single disk on the last space."""
    ps, ds = _slots(faction)
    last = r.k[RK.TENSION_SPACES] - 1
    pos = st.g[ps] - steps
    if pos < 0:
        if st.g[ds] == 1:
            st.g[ds] = 0
            pos = max(0, last + 1 + pos)
        else:
            pos = 0
    st.g[ps] = pos
    log(st, Ev.TENSION, faction, -steps, T_AFFILIATE, pos, st.g[ds])


@njit(cache=True)
def tension_modifier(st, r, faction):
    ps, ds = _slots(faction)
    if st.g[ds] == 1:
        return r.ten_double[st.g[ps]]
    return r.ten_single[st.g[ps]]


@njit(cache=True)
def war_faction(st, r):
    """The belligerent: a double disk first (both: the farther; tie: Pirates), else a single
    disk in the red zone (both: the farther; tie: Pirates); 0 when no war."""
    nd = st.g[G.NAT_DOUBLE]
    pd = st.g[G.PIR_DOUBLE]
    np_ = st.g[G.NAT_POS]
    pp = st.g[G.PIR_POS]
    if nd == 1 or pd == 1:
        if nd == 1 and pd == 1:
            return NATIVES if np_ > pp else PIRATES
        return NATIVES if nd == 1 else PIRATES
    red = r.k[RK.RED_ZONE]
    nr = np_ >= red
    pr = pp >= red
    if nr and pr:
        return NATIVES if np_ > pp else PIRATES
    if nr:
        return NATIVES
    if pr:
        return PIRATES
    return 0


@njit(cache=True)
def tension_step(st, r):
    """C.3 A-C: empty stone/wood grids raise Natives tension; an empty precious grid and empty
    coin stacks raise Pirates tension; then discard the top card and read the new top card's back."""
    n = 0
    for gi in range(GRID_STONE, GRID_STONE + r.k[RK.STONE_GRIDS]):
        if st.grids[gi] == 0:
            n += 1
    for gi in range(GRID_WOOD, GRID_WOOD + r.k[RK.WOOD_GRIDS]):
        if st.grids[gi] == 0:
            n += 1
    advance_tension(st, r, NATIVES, n * r.k[RK.PER_EMPTY_GRID], T_GRIDS)
    n = 1 if st.grids[GRID_PRECIOUS] == 0 else 0
    for s in range(r.k[RK.COIN_STACKS]):
        if st.stacks[s, 0] + st.stacks[s, 1] == 0:
            n += 1
    advance_tension(st, r, PIRATES, n * r.k[RK.PER_EMPTY_GRID], T_PRECIOUS_COINS)
    c = draw_top(st)
    if c >= 0:
        put_on(st, c, Loc.GAME_DISCARD)
    top = draw_top(st)
    if top >= 0:
        na, pi = back_symbols(r, top)
        log(st, Ev.DISCARD_TOP, top, na, pi)
        advance_tension(st, r, NATIVES, na, T_CARD)
        advance_tension(st, r, PIRATES, pi, T_CARD)


@njit(cache=True)
def walls_reduction(st, r, faction):
    """With districts closed by Walls: discard the top card, then draw one card per closed
    district; each symbol of the attacking faction on their backs reduces WA by 1."""
    nd = n_closed_districts(st, r)
    # card 32: "For War effects, consider a district of your choice as closed by Walls" (this decade)
    if st.g[G.CARD32_DECADE] == st.g[G.DECADE] and not district_closed(st, r, st.g[G.CARD32_DISTRICT]):
        nd += 1
    if nd == 0:
        return 0
    c = draw_top(st)
    if c >= 0:
        put_on(st, c, Loc.GAME_DISCARD)
    red = 0
    for _ in range(nd):
        c = draw_top(st)
        if c < 0:
            break
        na, pi = back_symbols(r, c)
        red += na if faction == NATIVES else pi
        put_on(st, c, Loc.GAME_DISCARD)
    return red


@njit(cache=True)
def _mask_av(st, r, seat, mask, nm):
    """AV of the miniatures in a fight mask (bit nm: card 59's worker, a standard Miliciano)."""
    av = 0
    for j in range(nm):
        if mask & (1 << j) and st.minis[seat, j, 0] != Mini.NONE:
            av += r.war_av[st.minis[seat, j, 0]]
    if mask & (1 << nm):
        av += r.war_av[Mini.MILICIANO]
    return av


@njit(cache=True)
def fight(st, r, seat, wa, faction):
    """One player's battle: choose the miniatures that fight and the cards to burn (+1 AV each,
    only with a miniature fighting); WA minus total AV <= 0 wins (War Penalty 1 step left),
    else the marker moves right by the rest (past the end: the City Council marker moves down).
    Every miniature that fought takes 1 wound (2 against Pirates) and leaves at its limit."""
    nm = r.k[RK.WAR_MARKERS]
    # card 59 (lightning): "You can consider your worker disk like a Miliciano miniature" - bit nm
    # of a fight mask is a worker fighting as a standard Miliciano
    w59 = card59_worker(st, seat)
    nb = nm + (1 if w59 >= 0 else 0)
    k = 0
    for mask in range(1 << nb):
        ok = True
        av = _mask_av(st, r, seat, mask, nm)
        for j in range(nm):
            if mask & (1 << j) and st.minis[seat, j, 0] == Mini.NONE:
                ok = False
                break
        if ok:
            set_option(st, k, mask, av, wa, faction)
            k += 1
    mask = st.opts[decide(st, r, seat, Dec.WAR_FIGHT, k), 0]
    av = _mask_av(st, r, seat, mask, nm)
    if mask & (1 << nm):
        # "Place the used worker on this card until the end of the next decade"
        use(st, seat, Card.C59)
        card59_takes_worker(st, seat, w59, r.aff_p[Card.C59, AP.HELD_EXTRA_DECADES] > 0)
        st.g[G.WAR_MILICIANOS] += 1
    if mask != 0:
        av += st.pl[seat, PF.BURN_AV]
        while True:
            k = 0
            loc = Loc.HAND + seat
            for c in range(N_CHARACTERS, N_CARDS):
                if st.card_loc[c] == loc and st.card_turn[c] == 0:
                    set_option(st, k, c, wa - av)
                    k += 1
            if k == 0:
                break
            set_option(st, k, -1, wa - av)
            c = st.opts[decide(st, r, seat, Dec.WAR_BURN, k + 1), 0]
            if c < 0:
                break
            burn_card(st, r, seat, c)
            av += r.k[RK.BURN_AV]
    result = wa - av
    dcouncil = 0
    st.pl[seat, PF.WARS_FOUGHT] += 1
    if result <= 0:
        dpen = war_won(st, r, seat, faction, 1)  # C.3 WAR: the winner "moves 1 step to the left"
    else:
        dpen, dcouncil = war_lost(st, r, seat, result)
    st.pl[seat, PF.WAR_PENALTY_LAST] = dpen
    log(st, Ev.FIGHT, seat, av, result, dpen, dcouncil, mask)
    if mask != 0:  # the records' fights: battles with miniatures fielded (sim.state.TS)
        st.tally[seat, TS.FIGHTS] += 1
        st.tally[seat, TS.FIGHTS_WON if result <= 0 else TS.FIGHTS_LOST] += 1
    wounds = r.k[RK.WOUNDS_PIRATES] if faction == PIRATES else r.k[RK.WOUNDS_NATIVES]
    for j in range(nm):
        if mask & (1 << j):
            kind = st.minis[seat, j, 0]
            if kind == Mini.MILICIANO or kind == Mini.MILICIANO_VET:
                st.g[G.WAR_MILICIANOS] += 1
            else:
                st.g[G.WAR_SOLDIERS] += 1
            st.minis[seat, j, 1] += wounds
            st.tally[seat, TS.WOUNDS] += wounds
            if st.minis[seat, j, 1] >= r.war_wo[kind]:
                if kind == Mini.MILICIANO or kind == Mini.MILICIANO_VET:
                    st.supply[Sup.MILICIANOS] += 1
                else:
                    st.supply[Sup.SOLDIERS] += 1
                st.minis[seat, j, 0] = Mini.NONE
                st.minis[seat, j, 1] = 0
                st.tally[seat, TS.MINIS_LOST] += 1
                log(st, Ev.MINI_LOST, seat, kind)


@njit(cache=True)
def tension_and_war(st, r):
    """C.3 TENSION LEVEL & WAR: raise tension, then (unless a peace marker holds and this is not the
    last decade) a war if a marker is a double disk or in the red zone: :func:`declare_war`, then
    after a war :func:`end_of_war_tension`. The decade's flow (sim.game.end_of_decade) takes the same
    two steps with an Extended War declared in the last decade fought between them."""
    faction = declare_war(st, r)
    if faction > 0:
        end_of_war_tension(st, r, st.g[G.DECADE], faction)


@njit(cache=True)
def declare_war(st, r):
    """C.3 TENSION LEVEL & WAR up to the War: raise tension, then (unless a peace marker holds and
    this is not the last decade) a war if a marker is a double disk or in the red zone: the base War
    fought (:func:`normal_war`) or an Extended War declared (:func:`declare_extended_war`). Returns
    the belligerent, 0 when no war (then :func:`end_of_war_tension` has nothing to do)."""
    st.g[G.WAR_FACTION] = 0
    st.g[G.WAR_WA] = 0
    for s in range(st.g[G.NPLAYERS]):
        st.pl[s, PF.WAR_PENALTY_LAST] = 0
    tension_step(st, r)
    d = st.g[G.DECADE]
    last = d == st.g[G.LAST_DECADE]
    if st.peace[d] > 0 and not last:
        log(st, Ev.NO_WAR, 1)
        return 0
    faction = war_faction(st, r)
    if faction == 0:
        log(st, Ev.NO_WAR, 0)
        return 0
    mod = tension_modifier(st, r, faction)
    if extended_war_on(r):
        declare_extended_war(st, r, faction, mod, last)
    else:
        normal_war(st, r, faction, mod)
    return faction


@njit(cache=True)
def declare_extended_war(st, r, faction, mod, last):
    """EXTENDED WAR: "When a War is activated at the End of the decade Phase, a battle happens in
    the Combat Area in the following decade" (sim.game.start_of_decade sets it up from
    ``XG.PENDING``/``XG.BONUS``, the Tension level bonus read now, before the marker goes back);
    WAR IN THE LAST TURN: in the last decade "the War occurs immediately", six war rounds
    (sim.game.end_of_decade fights it from ``XG.PENDING``/``XG.BONUS`` before the marker goes back,
    :func:`end_of_war_tension`). Walls do not reduce an attack value here (the expansion has none:
    Walls act on the attackers' entry, sim.extended_war). Every declared War counts for the
    Noblewoman's "no wars" (no Walls repel it)."""
    st.g[G.WAR_FACTION] = faction
    st.g[G.WARS_ERA] += 1
    st.g[G.WARS_TOTAL] += 1
    # Ev.WAR's last column tells the account (sim.log) which war this is: 1 fought next decade, 2 at once
    log(st, Ev.WAR, faction, 0, mod, 0, 0, 2 if last else 1)
    # the war waits for the expansion to fight it: the base War does not import sim.extended_war
    st.xw[XG.PENDING] = faction
    st.xw[XG.BONUS] = mod


@njit(cache=True)
def normal_war(st, r, faction, mod):
    """C.3 D: the base War (WAR; WAR PROCEDURE): Walls reduction, the War Attack value, each
    player's battle in reverse turn order, card 57."""
    base = r.k[RK.ATTACK_PIRATES] if faction == PIRATES else r.k[RK.ATTACK_NATIVES]
    red = walls_reduction(st, r, faction)
    if red > 0 and n_closed_districts(st, r) > 0:
        # card 34 (lightning): "Gain 7 VPs every time Walls are part of the Fight calculation"
        # (real Walls: card 32's district has no effect on cards 34-36)
        s = offer(st, r, Card.C34, -1)
        if s >= 0:
            gain_war_vp(st, r, s, r.aff_p[Card.C34, AP.VP])
    wa = base + mod - red
    st.g[G.WAR_FACTION] = faction
    st.g[G.WAR_WA] = wa
    # the Noblewoman's "no wars": a war the Walls repel (no battle) counts unless the rules say otherwise
    if wa > 0 or r.k[RK.CH_NOBLEWOMAN_NO_BATTLE] == 1:
        st.g[G.WARS_ERA] += 1
    st.g[G.WARS_TOTAL] += 1
    st.tally_g[TG.WARS_PIRATES if faction == PIRATES else TG.WARS_NATIVES] += 1
    log(st, Ev.WAR, faction, base, mod, red, wa)
    st.g[G.WAR_MILICIANOS] = 0
    st.g[G.WAR_SOLDIERS] = 0
    if wa > 0:
        n = st.g[G.NPLAYERS]
        for i in range(n - 1, -1, -1):
            fight(st, r, st.order[i], wa, faction)
        # card 57 (lightning): VP for every Miliciano and Soldier used in this War, +1 in a 2-3 player game
        card57_pays(st, r)


@njit(cache=True)
def end_of_war_tension(st, r, d, faction):
    """After a War (either rules): the Natives marker and the belligerent's go back to the first
    space, and a peace marker goes on the following decade."""
    st.g[G.NAT_POS] = 0
    st.g[G.NAT_DOUBLE] = 0
    if faction == PIRATES:
        st.g[G.PIR_POS] = 0
        st.g[G.PIR_DOUBLE] = 0
    # "Place a peace marker on the Decade track on the following decade", from the supply (3 in the
    # box): with none left none is placed (a reading, as the Major Building Act's "If there are not
    # enough City Council Workers in the game supply, place only the disks available"); one already
    # there (a Peace Act's) keeps the decade peaceful and no second one is put
    d1 = min(d + 1, st.peace.shape[0] - 1)
    if st.peace[d1] == 0 and st.supply[Sup.PEACE] > 0:
        st.supply[Sup.PEACE] -= 1
        st.peace[d1] = 1
    if st.peace[d1] > 0:
        log(st, Ev.PEACE, d + 1)
