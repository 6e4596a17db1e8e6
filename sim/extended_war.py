"""EXTENDED WAR: the Combat Area, its attackers and defenders, the Fight! and the end of the war.

The rulebook's expansion chapter ("If these rules are applied, use them instead of normal War
rules"), with the red war powers of the Affiliate cards (CARD REFERENCE) and the A.I. troops rule
of TWO PLAYERS GAME & SOLO MODE. Every number is in ``Rules.xw_*`` (rules ``[extended_war]``); the
war's state is ``State.xw*`` (slots named by :class:`sim.state.XG`, ``XA``, ``XM``, ``XP``) and
the fight in progress is the work area ``State.xw_fight`` / ``xw_cards``.

Sides: 0 the players (SIDE_PLAYER), 1 the attackers (SIDE_ATTACKER). A player miniature is the
one on war marker ``slot`` of ``seat`` (``State.minis``), an attacker the one on War Opponent
tile ``t`` (``State.xw_att[t]``). Every choice the rules give a player goes through
:func:`sim.core.decide` (``Dec.XW_*``); a choice the rules give "the player first in turn order"
is asked of ``st.order[0]``; the Solo A.I.'s troops are commanded by the first human player in
turn order ("the first player in the turn order uses A.I. troops"), and the A.I. draws a card
for each of its fights instead of playing its own.

What is here: the War Table, the control cards, the attackers' placement, the defenders'
placement, a round's order, the attackers' war actions, the players' war actions (Move, Fight!),
the Fight! itself, six war rounds at the end of the last decade and the end of the war. The
decade's flow calls them (see docs/extended-war.md for what the wiring needs).
"""

from numba import njit

from sim.ai_choice import first_human
from sim.cardpower import holder, offer, use
from sim.cards import put_on, rotate_card, shuffle_deck, top_of
from sim.city import district_closed
from sim.codes import WP, Card, Dec, Ev, XwAct, XwUse
from sim.combat_area import (
    CANCELLED,
    SIDE_ATTACKER,
    SIDE_PLAYER,
    attacker_stats,
    attackers_on_board,
    card_av,
    fight_total,
    friends_in,
    has_buildings,
    is_soldier,
    owns_building_in,
    pillage_score,
    player_hp_in,
    player_stats,
    players_in,
    side_position,
)
from sim.core import decide, log, set_option
from sim.rng import permutation
from sim.rules import AP, RK, XK, XWP
from sim.state import (
    AS,
    GROUP_SIZE,
    MAX_FIGHT_CARDS,
    N_CARDS,
    N_CHARACTERS,
    PF,
    TG,
    TS,
    XA,
    XF,
    XG,
    XM,
    XP,
    B,
    G,
    Loc,
    Mini,
    Sup,
)
from sim.war_track import PIRATES, card57_pays, card59_takes_worker, card59_worker, gain_war_vp, war_lost, war_won

CARD83_RECRUIT = 1  # XM.RECRUIT: a Miliciano card 83 added (no supply miniature; it leaves at the war's end)
CARD59_WORKER = 2  # XM.RECRUIT: card 59's worker fighting as a Miliciano (likewise)

NO_WINNER = -1


@njit(cache=True)
def extended_war_on(r):
    """The expansion is in play (rules ``extended_war.enabled``): the decade's flow asks this
    before using anything of this module, so that the normal game runs none of it."""
    return r.xw_k[XK.ENABLED] == 1


# ----------------------------------------------------------------------------- 1. the attackers' number


@njit(cache=True)
def attackers_number(r, n_players, era, bonus):
    """DETERMINE THE ATTACKERS NUMBER: the War Table's cell for the players, the Era and the
    tension level bonus. The bonus moves the row up one per point; at the top row the points left
    move the column right (the count stays at the last column past Era III).
    Returns (elite, standard, row, column)."""
    n = min(max(n_players, 2), 5)
    row = r.xw_k[XK.TABLE_SKULL_ROWS] + (5 - n) - bonus
    col = era - 1
    if row < 0:
        col -= row
        row = 0
    col = min(max(col, 0), r.xw_table.shape[1] - 1)
    return r.xw_table[row, col, 0], r.xw_table[row, col, 1], row, col


# ----------------------------------------------------------------------------- 2. control cards


@njit(cache=True)
def card_era(r, c):
    """The Era on control card ``c``'s back (R-09)."""
    return r.xw_control_era[(c - N_CHARACTERS) % GROUP_SIZE]


@njit(cache=True)
def _era_ok(r, c, era, widen):
    """``c`` may serve as a control card of ``era``: widen 0 that Era only; 1 with the "adjacent"
    Era too (Era III: II as well; Era II: any card; Era I: II as well); 2 any card."""
    e = card_era(r, c)
    if widen == 0:
        return e == era
    if widen == 1:
        if era == 2:
            return True
        return e == era or e == 2
    return True


@njit(cache=True)
def _available(st, r, era, widen):
    """Cards that the drawing can still reach (the deck and the game discard pile it reshuffles
    from) and that may serve as control cards."""
    n = 0
    for c in range(N_CHARACTERS, N_CARDS):
        loc = st.card_loc[c]
        if (loc == Loc.DECK or loc == Loc.GAME_DISCARD) and _era_ok(r, c, era, widen):
            n += 1
    return n


@njit(cache=True)
def draw_war_card(st):
    """The deck's top card for the war; an empty deck takes the game discard pile, shuffled
    ("take the discarded cards in the game discard pile, shuffle them and make a new deck"). -1
    when both are empty."""
    c = top_of(st, Loc.DECK)
    if c < 0:
        n = 0
        for x in range(N_CHARACTERS, N_CARDS):
            if st.card_loc[x] == Loc.GAME_DISCARD:
                st.card_loc[x] = Loc.DECK
                st.card_rot[x] = 0
                n += 1
        if n == 0:
            return -1
        shuffle_deck(st)
        log(st, Ev.RESHUFFLE, n)
        c = top_of(st, Loc.DECK)
    return c


@njit(cache=True)
def draw_control_cards(st, r, era, k):
    """ATTACKERS PLACEMENT: draw ``k`` cards of the current Era into ``st.xw_tmp[:got]`` (placed
    at Loc.COMBAT); a card of another Era is discarded; with no card of the Era left to reach,
    the adjacent Era's serve too, then any card (the NOTE). Returns how many were drawn."""
    widen = 0
    got = 0
    while got < k:
        while widen < 2 and _available(st, r, era, widen) == 0:
            widen += 1
        if _available(st, r, era, widen) == 0:
            break
        c = draw_war_card(st)
        if c < 0:
            break
        if _era_ok(r, c, era, widen):
            put_on(st, c, Loc.COMBAT)
            st.xw_tmp[got] = c
            got += 1
        else:
            put_on(st, c, Loc.GAME_DISCARD)
    return got


@njit(cache=True)
def initiative(r, c):
    """An attacker's Initiative from its control card ``c`` (R-10: 1 + card number mod 3)."""
    return r.xw_k[XK.INITIATIVE_BASE] + (c + 1) % r.xw_k[XK.INITIATIVE_MODULUS]


@njit(cache=True)
def attacker_initiative(st, r, t):
    """The Initiative of the attacker on tile ``t``: its control card's; a card 83 recruit, which
    has none, acts at the round's last Initiative."""
    c = st.xw_att[t, XA.CARD]
    return initiative(r, c) if c >= 0 else max_initiative(st, r)


@njit(cache=True)
def attacker_kind(faction, elite):
    """AK of a faction's Standard or Elite miniature (Natives: Indio, Warrior; Pirates: Freebooter, Captain)."""
    return 2 * (faction - 1) + (1 if elite else 0)




@njit(cache=True)
def attackers_in_supply(st, r, kind):
    """Attacker miniatures of ``kind`` left in the game supply (the box minus those in the area)."""
    return r.xw_att_box[kind] - attackers_on_board(st, kind)


@njit(cache=True)
def edge_of_tile(st, r, i):
    """Placement edge of the i-th attacker placed (0-based): natives clockwise from point A,
    pirates anticlockwise from point B, doubling up once every edge has one."""
    ne = r.xw_k[XK.N_EDGES]
    j = i % ne
    if st.xw[XG.FACTION] == PIRATES:
        return ne - 1 - j
    return j


@njit(cache=True)
def setup_combat_area(st, r, faction, era, bonus):
    """COMBAT AREA SETUP 1-2: the attackers' number, their control cards (face up Standard, face
    down Elite, in a random line under the War Opponent tiles 1..n) and their miniatures around
    the perimeter. Returns the attackers placed."""
    clear_war(st)
    st.xw[XG.ACTIVE] = 1
    st.xw[XG.FACTION] = faction
    st.g[G.WAR_MILICIANOS] = 0  # the miniatures used in this war (card 57)
    st.g[G.WAR_SOLDIERS] = 0
    elite, standard, row, col = attackers_number(r, st.g[G.NPLAYERS], era, bonus)
    log(st, Ev.XW_SETUP, faction, elite, standard, row, col)
    k = min(elite + standard, r.xw_k[XK.OPPONENT_TILES])
    got = draw_control_cards(st, r, era, k)
    elite = min(elite, got)
    # "Randomize them and form a line": the line's order and which cards lie face down
    line = permutation(st, got)
    faces = permutation(st, got)
    placed = 0
    for i in range(got):
        c = st.xw_tmp[line[i]]
        kind = attacker_kind(faction, faces[i] < elite)
        if attackers_in_supply(st, r, kind) <= 0:
            put_on(st, c, Loc.GAME_DISCARD)  # no miniature of its kind left in the box
            continue
        t = placed
        e = edge_of_tile(st, r, t)
        st.xw_att[t, XA.CARD] = c
        st.xw_att[t, XA.KIND] = kind
        st.xw_att[t, XA.STATE] = AS.OUTSIDE
        st.xw_att[t, XA.EDGE] = e
        st.xw_att[t, XA.POS] = r.xw_edges[e, 0]
        st.xw_att[t, XA.OWNER] = -1
        st.xw[XG.N_TILES] = t + 1
        placed += 1
        log(st, Ev.XW_PLACE, t, c, kind, r.xw_edges[e, 0], r.xw_edges[e, 1], attacker_initiative(st, r, t))
    st.tally_g[TG.XW_ATTACKERS] += placed
    return placed


@njit(cache=True)
def clear_war(st):
    """An empty Combat Area: no tile in use, no pillage marker, every player miniature off it."""
    for i in range(st.xw.shape[0]):
        st.xw[i] = 0
    for t in range(st.xw_att.shape[0]):
        for f in range(st.xw_att.shape[1]):
            st.xw_att[t, f] = 0
        st.xw_att[t, XA.OWNER] = -1
        st.xw_att[t, XA.CARD] = -1
    for d in range(st.xw_pillage.shape[0]):
        st.xw_pillage[d] = 0
    for s in range(st.xw_mini.shape[0]):
        for k in range(st.xw_mini.shape[1]):
            for f in range(st.xw_mini.shape[2]):
                st.xw_mini[s, k, f] = 0
            st.xw_mini[s, k, XM.POS] = -1
        for f in range(st.xw_seat.shape[1]):
            st.xw_seat[s, f] = 0


# ----------------------------------------------------------------------------- the Combat Area






@njit(cache=True)
def barracks_in(st, r, d):
    for i in range(r.district_ncells[d]):
        if st.cell_b[r.district_cells[d, i]] == B.BARRACKS:
            return True
    return False




@njit(cache=True)
def can_deploy(st, r, seat, slot, d):
    """DEFENDERS PLACEMENT: a Miliciano in a district where its player owns a building, a Soldier
    in a district with a Barracks (or the district its player selected with card 54 in this war:
    :func:`card54_district`), or anywhere once the Fort is built."""
    kind = st.minis[seat, slot, 0]
    if kind == Mini.NONE:
        return False
    if is_soldier(kind):
        return st.g[G.FORT_BUILT] == 1 or barracks_in(st, r, d) or card54_district(st, seat) == d
    return owns_building_in(st, r, seat, d)


@njit(cache=True)
def card54_district(st, seat):
    """Card 54 (lightning: "Consider a Barracks present in the selected district adjacent. This
    allows you to hire Soldiers there"): the district the seat selected with it in this war, where
    its Soldiers are placed as if a Barracks stood there; -1 none (rules extended_war.reading_card54)."""
    if st.xw[XG.C54_SEAT] != seat + 1:
        return -1
    return st.xw[XG.C54_DISTRICT] - 1


@njit(cache=True)
def card54_can_select(st, r, seat, d):
    """The seat may place a Soldier in district ``d`` by using card 54 now: it holds the card upright,
    has selected no district with it in this war, and ``d`` has no Barracks of its own but one in an
    adjacent district (the reading of the Scoring's card 54, sim.scoring)."""
    if holder(st, Card.C54) != seat or st.xw[XG.C54_SEAT] != 0 or barracks_in(st, r, d):
        return False
    for e in range(r.district_ncells.shape[0]):
        if r.district_adj[d, e] == 1 and barracks_in(st, r, e):
            return True
    return False


@njit(cache=True)
def deploy(st, r, seat, slot, d):
    """Put the seat's miniature on war marker ``slot`` into district ``d`` (legal by :func:`can_deploy`)."""
    st.xw_mini[seat, slot, XM.POS] = d
    st.xw_mini[seat, slot, XM.READY] = 0
    log(st, Ev.XW_DEPLOY, seat, slot, d)


@njit(cache=True)
def commander(st, seat):
    """Who decides for the seat's troops: the seat itself, or for the Solo A.I. the first human
    player in turn order (TWO PLAYERS GAME & SOLO MODE: "the first player in the turn order uses A.I. troops")."""
    if st.g[G.AI] == seat + 1:
        h = first_human(st)
        return h if h >= 0 else seat
    return seat


@njit(cache=True)
def deploy_defenders(st, r, seat):
    """DEFENDERS PLACEMENT: "Each player must place his Milicianos and Soldiers in the Combat Area":
    each miniature off the area with a legal district goes to one the player chooses
    (``Dec.XW_DEPLOY`` rows [district, slot, seat, 1 when card 54 is used to place it there]: a
    Soldier may also go to a district next to a Barracks by using card 54, which then serves the
    seat's Soldiers for the rest of the war, :func:`card54_district`)."""
    nm = r.k[RK.WAR_MARKERS]
    nd = r.district_ncells.shape[0]
    for slot in range(nm):
        if st.minis[seat, slot, 0] == Mini.NONE or st.xw_mini[seat, slot, XM.POS] >= 0:
            continue
        k = 0
        for d in range(nd):
            if can_deploy(st, r, seat, slot, d):
                set_option(st, k, d, slot, seat, 0)
                k += 1
            elif is_soldier(st.minis[seat, slot, 0]) and card54_can_select(st, r, seat, d):
                set_option(st, k, d, slot, seat, 1)
                k += 1
        if k > 0:
            i = decide(st, r, commander(st, seat), Dec.XW_DEPLOY, k)
            d = st.opts[i, 0]
            if st.opts[i, 3] == 1:
                use(st, seat, Card.C54)
                st.xw[XG.C54_DISTRICT] = d + 1
                st.xw[XG.C54_SEAT] = seat + 1
                log(st, Ev.CARD_EFFECT, seat, Card.C54, d)
            deploy(st, r, seat, slot, d)


@njit(cache=True)
def card59_miliciano(st, r, seat):
    """Card 59 (lightning: "You can consider your worker disk like a Miliciano miniature. Place the
    used worker on this card until the end of the next decade") at the DEFENDERS PLACEMENT of an
    Extended War: offered when the seat has a free war marker and a district to place a Miliciano
    in; used, one of its workers joins its defenders as a standard Miliciano on that war marker
    (no supply miniature: it leaves at the war's end, as a card 83 recruit) and stays on the card
    until the end of the war's decade, "the next decade" after the War's declaration (rules
    extended_war.reading_card59)."""
    w59 = card59_worker(st, seat)
    if w59 < 0:
        return
    free = -1
    for k in range(r.k[RK.WAR_MARKERS]):
        if st.minis[seat, k, 0] == Mini.NONE and k < st.pl[seat, PF.WAR_MARKERS]:
            free = k
            break
    if free < 0:
        return
    placed = False
    for d in range(r.district_ncells.shape[0]):
        if owns_building_in(st, r, seat, d):
            placed = True
            break
    if not placed or offer(st, r, Card.C59, seat) < 0:
        return
    card59_takes_worker(st, seat, w59, False)
    st.minis[seat, free, 0] = Mini.MILICIANO
    st.minis[seat, free, 1] = 0
    st.xw_mini[seat, free, XM.POS] = -1
    st.xw_mini[seat, free, XM.RECRUIT] = CARD59_WORKER


@njit(cache=True)
def defenders_placement(st, r):
    """COMBAT AREA SETUP 3. DEFENDERS PLACEMENT, in turn order: card 59's worker first
    (:func:`card59_miliciano`), then every miniature (:func:`deploy_defenders`)."""
    for i in range(st.g[G.NPLAYERS]):
        s = st.order[i]
        card59_miliciano(st, r, s)
        deploy_defenders(st, r, s)


@njit(cache=True)
def withdraw(st, r, seat):
    """PLAYER WAR ACTIONS: a player who passes while others play on removes their miniatures from
    the Combat Area (a card 83 recruit or card 59's worker leaves the game)."""
    for slot in range(r.k[RK.WAR_MARKERS]):
        if st.xw_mini[seat, slot, XM.RECRUIT] > 0:
            _clear_mini(st, seat, slot)
        st.xw_mini[seat, slot, XM.POS] = -1








@njit(cache=True)
def wounds_in_use(st, r):
    """Wounds markers on miniatures (player miniatures keep theirs after a war)."""
    n = 0
    for s in range(st.minis.shape[0]):
        for k in range(st.minis.shape[1]):
            if st.minis[s, k, 0] != Mini.NONE:
                n += st.minis[s, k, 1]
    for t in range(st.xw[XG.N_TILES]):
        s = st.xw_att[t, XA.STATE]
        if s == AS.OUTSIDE or s == AS.IN:
            n += st.xw_att[t, XA.WOUNDS]
    return n


@njit(cache=True)
def pillage_markers_in_use(st):
    n = 0
    for d in range(st.xw_pillage.shape[0]):
        if st.xw_pillage[d] > 0:
            n += 1
    return n


@njit(cache=True)
def war_over(st, r):
    """END OF THE WAR: every attacker defeated, or every district with buildings pillaged twice
    (the decade's end is the caller's). A city without a building has nothing to pillage: only
    its attackers' defeat or the decade's end ends that war."""
    if attackers_on_board(st, -1) == 0:
        return True
    top = r.xw_pillage_score.shape[0] - 1
    built = False
    for d in range(r.district_ncells.shape[0]):
        if has_buildings(st, r, d):
            built = True
            if st.xw_pillage[d] < top:
                return False
    return built


# ----------------------------------------------------------------------------- wounds and removal


@njit(cache=True)
def _clear_mini(st, seat, slot):
    st.minis[seat, slot, 0] = Mini.NONE
    st.minis[seat, slot, 1] = 0
    st.xw_mini[seat, slot, XM.POS] = -1
    st.xw_mini[seat, slot, XM.RECRUIT] = 0
    st.xw_mini[seat, slot, XM.MOVES] = 0
    st.xw_mini[seat, slot, XM.FOUGHT] = 0
    st.xw_mini[seat, slot, XM.IMMOBILE] = 0


@njit(cache=True)
def remove_player_mini(st, seat, slot):
    """The removed player miniature "comes back to the game supply" (a card 83 recruit, which took
    none from it, just leaves)."""
    kind = st.minis[seat, slot, 0]
    if st.xw_mini[seat, slot, XM.RECRUIT] == 0:
        if is_soldier(kind):
            st.supply[Sup.SOLDIERS] += 1
        else:
            st.supply[Sup.MILICIANOS] += 1
    _clear_mini(st, seat, slot)
    st.tally[seat, TS.MINIS_LOST] += 1
    log(st, Ev.XW_REMOVED, SIDE_PLAYER, seat, slot, -1)
    log(st, Ev.MINI_LOST, seat, kind)


@njit(cache=True)
def remove_attacker(st, r, t, by_seat):
    """An attacker leaves the area: defeated by ``by_seat`` (who keeps its control card until the
    war ends; a recruit has none) or, with ``by_seat`` -1, gone by its own card."""
    st.xw_att[t, XA.STATE] = AS.DEFEATED if by_seat >= 0 else AS.GONE
    st.xw_att[t, XA.OWNER] = by_seat if st.xw_att[t, XA.CARD] >= 0 else -1
    if by_seat >= 0 and st.xw_att[t, XA.CARD] >= 0:
        st.xw_seat[by_seat, XP.CONTROL_HP] += r.xw_att_hp[st.xw_att[t, XA.KIND]]
    if by_seat >= 0:
        st.tally[by_seat, TS.XW_DEFEATED] += 1
    st.xw_att[t, XA.WOUNDS] = 0
    log(st, Ev.XW_REMOVED, SIDE_ATTACKER, -1, t, by_seat)


@njit(cache=True)
def wound_player(st, r, seat, slot):
    """One wound on a player miniature: the second removes it. Returns 1 when it was removed.
    A first wound with no Wounds marker left in the box is not placed."""
    if st.minis[seat, slot, 0] == Mini.NONE:
        return 0
    if st.minis[seat, slot, 1] + 1 >= r.xw_k[XK.WOUNDS_REMOVE]:
        remove_player_mini(st, seat, slot)
        return 1
    if wounds_in_use(st, r) >= r.xw_k[XK.WOUND_MARKERS]:
        return 0
    st.minis[seat, slot, 1] += 1
    st.tally[seat, TS.WOUNDS] += 1
    log(st, Ev.XW_WOUND, SIDE_PLAYER, seat, slot, st.minis[seat, slot, 1])
    return 0


@njit(cache=True)
def wound_attacker(st, r, t, by_seat):
    """One wound on an attacker (dealt by ``by_seat``, -1 its own side): the second removes it."""
    s = st.xw_att[t, XA.STATE]
    if s != AS.IN and s != AS.OUTSIDE:
        return 0
    if st.xw_att[t, XA.WOUNDS] + 1 >= r.xw_k[XK.WOUNDS_REMOVE]:
        remove_attacker(st, r, t, by_seat)
        return 1
    if wounds_in_use(st, r) >= r.xw_k[XK.WOUND_MARKERS]:
        return 0
    st.xw_att[t, XA.WOUNDS] += 1
    log(st, Ev.XW_WOUND, SIDE_ATTACKER, -1, t, st.xw_att[t, XA.WOUNDS])
    return 0


# ----------------------------------------------------------------------------- movement


@njit(cache=True)
def _move_player(st, seat, slot, d):
    log(st, Ev.XW_MOVE, SIDE_PLAYER, seat, slot, st.xw_mini[seat, slot, XM.POS], d)
    st.xw_mini[seat, slot, XM.POS] = d
    st.xw_mini[seat, slot, XM.MOVES] += 1


@njit(cache=True)
def _move_attacker(st, r, t, d):
    """Move an attacker one district; entering the city from outside into a district closed by
    Walls crosses a Wall (the walls bonus of a fight in this turn)."""
    frm = st.xw_att[t, XA.POS] if st.xw_att[t, XA.STATE] == AS.IN else -1
    if st.xw_att[t, XA.STATE] == AS.OUTSIDE:
        st.xw_att[t, XA.STATE] = AS.IN
        if district_closed(st, r, d):
            st.xw_att[t, XA.CROSSED] = 1
    st.xw_att[t, XA.POS] = d
    st.xw_att[t, XA.MOVES] += 1
    log(st, Ev.XW_MOVE, SIDE_ATTACKER, -1, t, frm, d)


@njit(cache=True)
def attacker_step(st, r, t):
    """ATTACKERS WAR ACTIONS, Movement: the district an attacker steps into, orthogonally toward
    the nearest district with buildings not yet pillaged twice; ties: fewer player HP there, then
    the first player in turn order decides (``Dec.XW_MOVE_TIE`` rows [step, aim, steps, HP, t]).
    An attacker outside steps into its edge's district. -1: nowhere to go."""
    if st.xw_att[t, XA.STATE] == AS.OUTSIDE:
        return st.xw_att[t, XA.POS]
    d = st.xw_att[t, XA.POS]
    nd = r.district_ncells.shape[0]
    top = r.xw_pillage_score.shape[0] - 1
    best_dist = 1 << 20
    best_hp = 1 << 20
    for e in range(nd):
        if e == d or not has_buildings(st, r, e) or st.xw_pillage[e] >= top or r.xw_dist[d, e] < 0:
            continue
        de = r.xw_dist[d, e]
        hp = player_hp_in(st, r, e)
        if de < best_dist or (de == best_dist and hp < best_hp):
            best_dist = de
            best_hp = hp
    if best_dist == 1 << 20:
        return -1
    k = 0
    for e in range(nd):
        if e == d or not has_buildings(st, r, e) or st.xw_pillage[e] >= top:
            continue
        if r.xw_dist[d, e] != best_dist or player_hp_in(st, r, e) != best_hp:
            continue
        for s in range(nd):
            if r.district_adj[d, s] == 1 and r.xw_dist[s, e] == best_dist - 1:
                set_option(st, k, s, e, best_dist, best_hp, t)
                k += 1
    i = decide(st, r, st.order[0], Dec.XW_MOVE_TIE, k)
    return st.opts[i, 0]


# ----------------------------------------------------------------------------- the round


@njit(cache=True)
def max_initiative(st, r):
    """The last Initiative of a round: the last player's position or the attackers' highest."""
    return max(st.g[G.NPLAYERS], r.xw_k[XK.INITIATIVE_BASE] + r.xw_k[XK.INITIATIVE_MODULUS] - 1)


@njit(cache=True)
def attackers_of_initiative(st, r, ini):
    """WAR FLOW: the attackers with Initiative ``ini`` in acting order (the lower tile number, or
    card number with rules round_order = "card", first) into ``st.xw_tmp``; returns how many."""
    n = 0
    for t in range(st.xw[XG.N_TILES]):
        s = st.xw_att[t, XA.STATE]
        if (s == AS.OUTSIDE or s == AS.IN) and st.xw_att[t, XA.READY] <= st.xw[XG.ROUND] \
                and attacker_initiative(st, r, t) == ini:
            st.xw_tmp[n] = t
            n += 1
    if r.xw_k[XK.ORDER_BY_TILE] == 0:
        for i in range(1, n):  # insertion sort by card number (recruits, without a card, last)
            j = i
            while j > 0 and _card_key(st, st.xw_tmp[j]) < _card_key(st, st.xw_tmp[j - 1]):
                x = st.xw_tmp[j]
                st.xw_tmp[j] = st.xw_tmp[j - 1]
                st.xw_tmp[j - 1] = x
                j -= 1
    return n


@njit(cache=True)
def _card_key(st, t):
    c = st.xw_att[t, XA.CARD]
    return c if c >= 0 else N_CARDS + t


@njit(cache=True)
def attackers_act(st, r, ini):
    """The attackers of Initiative ``ini`` act one at a time, in order."""
    n = attackers_of_initiative(st, r, ini)
    order = st.xw_tmp[:n].copy()  # fixed before anyone acts: a fight may remove or recruit attackers
    for i in range(n):
        t = order[i]
        s = st.xw_att[t, XA.STATE]
        if s == AS.OUTSIDE or s == AS.IN:
            attacker_turn(st, r, t)


@njit(cache=True)
def attacker_turn(st, r, t):
    """ATTACKERS WAR ACTIONS: repeat until the miniature's turn ends: with a player miniature in its
    district it fights (the one with the least HP); else in a district with buildings it pillages
    (one flame), pillages again (two flames); else it moves (1 district a turn), and an attacker
    that cannot move ends its turn. Returns the number of steps taken (always ends: each step
    but a move ends the turn, and moves are limited)."""
    st.xw_att[t, XA.MOVES] = 0
    st.xw_att[t, XA.CROSSED] = 0
    st.xw_att[t, XA.FIGHTS] = 0
    top = r.xw_pillage_score.shape[0] - 1
    steps = 0
    while True:
        steps += 1
        s = st.xw_att[t, XA.STATE]
        if s != AS.IN and s != AS.OUTSIDE:
            break
        if s == AS.IN:
            d = st.xw_att[t, XA.POS]
            if players_in(st, r, d) > 0:
                seat, slot = attacker_target(st, r, d, t)
                fight(st, r, seat, slot, t, True)
                break
            if has_buildings(st, r, d) and st.xw_pillage[d] < top:
                if st.xw_pillage[d] > 0 or pillage_markers_in_use(st) < r.xw_k[XK.PILLAGE_MARKERS]:
                    st.xw_pillage[d] += 1
                    owners = tally_pillage(st, r, d)
                    log(st, Ev.XW_PILLAGE, t, d, st.xw_pillage[d], owners)
                break
        if st.xw_att[t, XA.MOVES] >= r.xw_k[XK.MOVES_PER_TURN] or st.xw_att[t, XA.IMMOBILE] > 0:
            break
        e = attacker_step(st, r, t)
        if e < 0:
            break
        _move_attacker(st, r, t, e)
    if st.xw_att[t, XA.IMMOBILE] > 0:
        st.xw_att[t, XA.IMMOBILE] -= 1
    return steps


@njit(cache=True)
def tally_pillage(st, r, d):
    """A pillage marker in district ``d`` falls on the buildings there: tallied for each player with
    a building of its colour in it (``TS.XW_PILLAGE``). Returns those players as a bit mask (the log's)."""
    mask = 0
    for s in range(st.g[G.NPLAYERS]):
        if owns_building_in(st, r, s, d):
            st.tally[s, TS.XW_PILLAGE] += 1
            mask |= 1 << s
    return mask


@njit(cache=True)
def attacker_target(st, r, d, t):
    """FIGHT! 1: the attacker on tile ``t`` fights the player miniature in its district ``d`` with the
    least HP; a tie is decided by the first player in turn order (``Dec.XW_TARGET`` rows [seat,
    slot, HP, t])."""
    best = 1 << 20
    for s in range(st.g[G.NPLAYERS]):
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                best = min(best, r.xw_player_hp[st.minis[s, k, 0]])
    n = 0
    for i in range(st.g[G.NPLAYERS]):
        s = st.order[i]
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE and r.xw_player_hp[st.minis[s, k, 0]] == best:
                set_option(st, n, s, k, best, t)
                n += 1
    i = decide(st, r, st.order[0], Dec.XW_TARGET, n)
    return st.opts[i, 0], st.opts[i, 1]


# ----------------------------------------------------------------------------- the players' war actions


@njit(cache=True)
def begin_player_turn(st, r, seat):
    """A player's turn begins: each of its miniatures may move 1 district and fight once."""
    st.xw_seat[seat, XP.FIGHTS_TURN] = 0
    for k in range(r.k[RK.WAR_MARKERS]):
        st.xw_mini[seat, k, XM.MOVES] = 0
        st.xw_mini[seat, k, XM.FOUGHT] = 0


@njit(cache=True)
def end_player_turn(st, r, seat):
    """A player's turn ends: a miniature immobilised for this turn (card 22) may move again."""
    for k in range(r.k[RK.WAR_MARKERS]):
        if st.xw_mini[seat, k, XM.IMMOBILE] > 0:
            st.xw_mini[seat, k, XM.IMMOBILE] -= 1


@njit(cache=True)
def _burnable(st, seat, c):
    """A card the seat may burn now (in hand, not rotated this turn: BURN AN AFFILIATE CARD)."""
    return st.card_loc[c] == Loc.HAND + seat and st.card_turn[c] == 0


@njit(cache=True)
def _burn(st, seat, c, use):
    put_on(st, c, Loc.PILE + seat)
    log(st, Ev.BURN, seat, c)
    log(st, Ev.XW_CARD, SIDE_PLAYER, seat, c, use, 0)


@njit(cache=True)
def war_action_rows(st, r, seat):
    """PLAYER WAR ACTIONS: the rows of ``Dec.XW_ACTION``: DONE; MOVE of a miniature that has not
    fought to an adjacent district (1 district a turn; one more for each card burnt, row column d);
    FIGHT! of a miniature against an attacker in its district. Returns the rows' count."""
    k = 0
    set_option(st, k, XwAct.DONE, -1, -1, -1, seat)
    k += 1
    nd = r.district_ncells.shape[0]
    burn = -1
    for c in range(N_CHARACTERS, N_CARDS):
        if _burnable(st, seat, c):
            burn = c
            break
    for slot in range(r.k[RK.WAR_MARKERS]):
        d = st.xw_mini[seat, slot, XM.POS]
        if d < 0 or st.minis[seat, slot, 0] == Mini.NONE or st.xw_mini[seat, slot, XM.FOUGHT] == 1 \
                or st.xw_mini[seat, slot, XM.READY] > st.xw[XG.ROUND]:
            continue
        if st.xw_mini[seat, slot, XM.IMMOBILE] == 0:
            extra = st.xw_mini[seat, slot, XM.MOVES] - r.xw_k[XK.MOVES_PER_TURN]
            bm = r.xw_k[XK.BURN_MOVES]
            for e in range(nd):
                if r.district_adj[d, e] != 1:
                    continue
                if extra < 0 or (bm > 0 and extra % bm != 0):  # the turn's movement, or one a burnt card still covers
                    set_option(st, k, XwAct.MOVE, slot, e, -1, seat)
                    k += 1
                elif burn >= 0 and bm > 0:
                    set_option(st, k, XwAct.MOVE, slot, e, burn, seat)  # "1 additional free movement" for a burnt card
                    k += 1
        for t in range(st.xw[XG.N_TILES]):
            if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
                set_option(st, k, XwAct.FIGHT, slot, t, -1, seat)
                k += 1
    return k


@njit(cache=True)
def player_war_actions(st, r, seat):
    """A player's free war actions in its turn (Move, Fight!), chosen one at a time until DONE.
    Returns the actions taken (always ends: every move and fight is limited per miniature)."""
    n = 0
    while True:
        k = war_action_rows(st, r, seat)
        i = decide(st, r, commander(st, seat), Dec.XW_ACTION, k)
        if st.opts[i, 0] == XwAct.DONE:
            break
        n += 1
        if not war_action(st, r, seat, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3]):
            break
    return n


@njit(cache=True)
def war_action(st, r, seat, a, slot, tgt, burn):
    """Carry out one ``Dec.XW_ACTION`` row of the seat (:func:`war_action_rows`): MOVE (burning the
    card of column d for a movement beyond the turn's), FIGHT!, or DONE. Returns whether the seat
    may act on: not DONE, and the war still on (a search seat's turn, strategies.search, carries
    out its chosen rows here too)."""
    if a == XwAct.DONE:
        return False
    if a == XwAct.MOVE:
        if burn >= 0:
            _burn(st, seat, burn, XwUse.BURN_MOVE)
        _move_player(st, seat, slot, tgt)
    else:
        fight(st, r, seat, slot, tgt, False)
    return st.xw[XG.ACTIVE] == 1 and not war_over(st, r)


# ----------------------------------------------------------------------------- the Fight!


@njit(cache=True)
def _has_active(st, r, side, kind):
    for i in range(st.xw_fight[side, XF.N_CARDS]):
        c = st.xw_cards[side, i]
        if c < CANCELLED and r.xw_power_kind[c] == kind:
            return True
    return False


@njit(cache=True)
def _show(st, side, c):
    n = st.xw_fight[side, XF.N_CARDS]
    if n < MAX_FIGHT_CARDS:
        st.xw_cards[side, n] = c
        st.xw_fight[side, XF.N_CARDS] = n + 1






@njit(cache=True)
def _player_cards(st, r, seat):
    """FIGHT! 2: the player plays cards for their war power (rotated) and burns cards for +5 AV or
    x2 AV, one ``Dec.XW_CARD`` at a time (rows [card, use, AV so far, opponent AV so far]; card -1 stops)."""
    while st.xw_fight[SIDE_PLAYER, XF.N_CARDS] < MAX_FIGHT_CARDS:
        mine = st.xw_fight[SIDE_PLAYER, XF.AV] + st.xw_fight[SIDE_PLAYER, XF.BURN_AV] + _flat_av(st, r, SIDE_PLAYER)
        theirs = st.xw_fight[SIDE_ATTACKER, XF.AV]
        k = 0
        set_option(st, k, -1, 0, mine, theirs)
        k += 1
        loc = Loc.HAND + seat
        for c in range(N_CHARACTERS, N_CARDS):
            if st.card_loc[c] != loc:
                continue
            if st.card_rot[c] == 0:
                set_option(st, k, c, XwUse.WAR_POWER, mine, theirs)
                k += 1
            if st.card_turn[c] == 0:
                set_option(st, k, c, XwUse.BURN_AV, mine, theirs)
                k += 1
                if st.xw_fight[SIDE_PLAYER, XF.FACTOR] < r.xw_k[XK.BURN_FACTORS_PER_FIGHT]:
                    set_option(st, k, c, XwUse.BURN_FACTOR, mine, theirs)
                    k += 1
        i = decide(st, r, seat, Dec.XW_CARD, k)
        c = st.opts[i, 0]
        use = st.opts[i, 1]
        if c < 0:
            break
        if use == XwUse.WAR_POWER:
            rotate_card(st, seat, c)
            _show(st, SIDE_PLAYER, c)
            log(st, Ev.XW_CARD, SIDE_PLAYER, seat, c, use, 0)
        elif use == XwUse.BURN_AV:
            _burn(st, seat, c, use)
            st.xw_fight[SIDE_PLAYER, XF.BURN_AV] += r.xw_k[XK.BURN_AV]
        else:
            _burn(st, seat, c, use)
            st.xw_fight[SIDE_PLAYER, XF.FACTOR] += 1


@njit(cache=True)
def _flat_av(st, r, side):
    n = 0
    for i in range(st.xw_fight[side, XF.N_CARDS]):
        c = st.xw_cards[side, i]
        if c < CANCELLED and r.xw_power_kind[c] == WP.AV:
            n += r.xw_power_p[c, XWP.AV]
    return n


@njit(cache=True)
def _draw_shown(st, r, side, n):
    """Attackers (and the A.I.'s troops) draw ``n`` cards and show them (FIGHT! 3)."""
    for _ in range(n):
        c = draw_war_card(st)
        if c < 0:
            break
        put_on(st, c, Loc.COMBAT)
        _show(st, side, c)
        log(st, Ev.XW_CARD, side, -1, c, XwUse.WAR_POWER, 0)


@njit(cache=True)
def _cancel(st, r):
    """Cards 35 and 64, in card-number order ("check the lower card number to see which acts
    first"): each one not yet cancelled cancels the opponent's lowest (35) or highest (64) card."""
    for c in range(N_CHARACTERS, N_CARDS):
        for side in range(2):
            for i in range(st.xw_fight[side, XF.N_CARDS]):
                if st.xw_cards[side, i] != c:
                    continue
                kd = r.xw_power_kind[c]
                if kd != WP.CANCEL_LOWER and kd != WP.CANCEL_HIGHER:
                    continue
                for _ in range(r.xw_power_p[c, XWP.CARDS]):
                    o = 1 - side
                    pick = -1
                    for j in range(st.xw_fight[o, XF.N_CARDS]):
                        x = st.xw_cards[o, j]
                        if x >= CANCELLED:
                            continue
                        if pick < 0 or (kd == WP.CANCEL_LOWER and x < st.xw_cards[o, pick]) \
                                or (kd == WP.CANCEL_HIGHER and x > st.xw_cards[o, pick]):
                            pick = j
                    if pick >= 0:
                        log(st, Ev.XW_CARD, o, -1, st.xw_cards[o, pick], XwUse.WAR_POWER, 1)
                        st.xw_cards[o, pick] += CANCELLED








@njit(cache=True)
def _opponent_hp(st, r, side, d):
    """HP of the opponents of ``side`` in district ``d`` (card 16's adjacent district)."""
    if side == SIDE_ATTACKER:
        return player_hp_in(st, r, d)
    hp = 0
    for t in range(st.xw[XG.N_TILES]):
        if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
            hp += r.xw_att_hp[st.xw_att[t, XA.KIND]]
    return hp


@njit(cache=True)
def _wound_all_in(st, r, d, by_seat, skip_seat, skip_slot, skip_t):
    """One wound to every miniature in district ``d`` (both sides), but the one named."""
    for s in range(st.g[G.NPLAYERS]):
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE and not (s == skip_seat and k == skip_slot):
                wound_player(st, r, s, k)
    for t in range(st.xw[XG.N_TILES]):
        if t != skip_t and st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
            wound_attacker(st, r, t, by_seat)


@njit(cache=True)
def _immobilise_in(st, r, d, turns):
    for s in range(st.g[G.NPLAYERS]):
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                st.xw_mini[s, k, XM.IMMOBILE] = max(st.xw_mini[s, k, XM.IMMOBILE], turns)
    for t in range(st.xw[XG.N_TILES]):
        if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
            st.xw_att[t, XA.IMMOBILE] = max(st.xw_att[t, XA.IMMOBILE], turns)


@njit(cache=True)
def _heal_side_in(st, r, side, d, heals):
    if side == SIDE_PLAYER:
        for s in range(st.g[G.NPLAYERS]):
            for k in range(r.k[RK.WAR_MARKERS]):
                if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                    st.minis[s, k, 1] = max(0, st.minis[s, k, 1] - heals)
    else:
        for t in range(st.xw[XG.N_TILES]):
            if st.xw_att[t, XA.STATE] == AS.IN and st.xw_att[t, XA.POS] == d:
                st.xw_att[t, XA.WOUNDS] = max(0, st.xw_att[t, XA.WOUNDS] - heals)


@njit(cache=True)
def _player_moves_by_card(st, r, seat, slot, card):
    """A card moves a player miniature 1 district: its player picks where (``Dec.XW_CARD_MOVE``
    rows [district, card, seat, slot]). The move is mandatory where a district is adjacent."""
    d = st.xw_mini[seat, slot, XM.POS]
    k = 0
    for e in range(r.district_ncells.shape[0]):
        if d >= 0 and r.district_adj[d, e] == 1:
            set_option(st, k, e, card, seat, slot)
            k += 1
    if k > 0:
        e = st.opts[decide(st, r, commander(st, seat), Dec.XW_CARD_MOVE, k), 0]
        log(st, Ev.XW_MOVE, SIDE_PLAYER, seat, slot, d, e)
        st.xw_mini[seat, slot, XM.POS] = e


@njit(cache=True)
def _free_move_nearest(st, r, side, seat, slot, t, card):
    """Card 41: the nearest other miniature of the holder's side moves 1 district, without a fight."""
    d = side_position(st, side, seat, slot, t)
    best = 1 << 20
    bs = -1
    bk = -1
    if side == SIDE_PLAYER:
        for s in range(st.g[G.NPLAYERS]):
            for k in range(r.k[RK.WAR_MARKERS]):
                e = st.xw_mini[s, k, XM.POS]
                if e >= 0 and st.minis[s, k, 0] != Mini.NONE and not (s == seat and k == slot) and r.xw_dist[d, e] >= 0 \
                        and r.xw_dist[d, e] < best:
                    best = r.xw_dist[d, e]
                    bs = s
                    bk = k
        if bs >= 0:
            _player_moves_by_card(st, r, bs, bk, card)
    else:
        for u in range(st.xw[XG.N_TILES]):
            if u != t and st.xw_att[u, XA.STATE] == AS.IN:
                e = st.xw_att[u, XA.POS]
                if r.xw_dist[d, e] >= 0 and r.xw_dist[d, e] < best:
                    best = r.xw_dist[d, e]
                    bk = u
        if bk >= 0:
            e = attacker_step(st, r, bk)
            if e >= 0:
                _move_attacker(st, r, bk, e)


@njit(cache=True)
def _fighter_alive(st, side, seat, slot, t):
    if side == SIDE_PLAYER:
        return st.minis[seat, slot, 0] != Mini.NONE
    s = st.xw_att[t, XA.STATE]
    return s == AS.IN or s == AS.OUTSIDE


@njit(cache=True)
def _wound_fighter(st, r, side, seat, slot, t, by_seat):
    """A wound on a fighter; its shield blocks it (FIGHT!: 'The shield symbol blocks a wound in the
    current fight'). Returns 1 when removed."""
    if st.xw_fight[side, XF.SHIELD] > 0:
        st.xw_fight[side, XF.SHIELD] -= 1
        return 0
    if side == SIDE_PLAYER:
        return wound_player(st, r, seat, slot)
    return wound_attacker(st, r, t, by_seat)


@njit(cache=True)
def _pre_fight(st, r, seat, slot, t):
    """The cards acting before the AV sum, in card-number order across both sides (the lower card
    number acts first): 16, 22 (the holder's miniature leaves), 52/59/71 (a wound first), 65
    (heal), 70 (move away), 41 (a friend moves), shields. Returns -2 to go on with the fight,
    the winning side when the fight is decided, or NO_WINNER when it has no result."""
    for c in range(N_CHARACTERS, N_CARDS):
        for side in range(2):
            for i in range(st.xw_fight[side, XF.N_CARDS]):
                if st.xw_cards[side, i] != c:
                    continue
                kd = r.xw_power_kind[c]
                o = 1 - side
                d = side_position(st, side, seat, slot, t)
                holder_seat = seat if side == SIDE_PLAYER else -1
                if kd == WP.SHIELD:
                    st.xw_fight[side, XF.SHIELD] += r.xw_power_p[c, XWP.BLOCKS]
                elif kd == WP.REMOVE_WOUND_AREA:
                    # the adjacent district with most opponent HP (first in map order on a tie)
                    adj = -1
                    best = -1
                    if r.xw_power_p[c, XWP.ADJACENT] > 0:
                        for e in range(r.district_ncells.shape[0]):
                            if r.district_adj[d, e] == 1:
                                hp = _opponent_hp(st, r, side, e)
                                if hp > best:
                                    best = hp
                                    adj = e
                    if side == SIDE_PLAYER:
                        remove_player_mini(st, seat, slot)
                    else:
                        remove_attacker(st, r, t, -1)
                    for _ in range(r.xw_power_p[c, XWP.WOUNDS]):
                        _wound_all_in(st, r, d, holder_seat, -1, -1, -1)
                        if adj >= 0:
                            _wound_all_in(st, r, adj, holder_seat, -1, -1, -1)
                    return NO_WINNER
                elif kd == WP.IMMOBILISE:
                    if side == SIDE_PLAYER:
                        remove_player_mini(st, seat, slot)
                    else:
                        remove_attacker(st, r, t, -1)
                    turns = r.xw_power_p[c, XWP.TURNS]
                    _immobilise_in(st, r, d, turns)
                    for e in range(r.district_ncells.shape[0]):
                        if r.district_adj[d, e] == 1:
                            _immobilise_in(st, r, e, turns)
                    return NO_WINNER
                elif kd == WP.WOUND_BEFORE:
                    for _ in range(r.xw_power_p[c, XWP.WOUNDS]):
                        if _wound_fighter(st, r, o, seat, slot, t, holder_seat) == 1:
                            return side
                elif kd == WP.HEAL_AREA:
                    h = r.xw_power_p[c, XWP.HEALS]
                    _heal_side_in(st, r, side, d, h)
                    for e in range(r.district_ncells.shape[0]):
                        if r.district_adj[d, e] == 1:
                            _heal_side_in(st, r, side, e, h)
                elif kd == WP.MOVE_AWAY:
                    for _ in range(r.xw_power_p[c, XWP.MOVES]):
                        if side == SIDE_PLAYER:
                            _player_moves_by_card(st, r, seat, slot, c)
                        else:
                            e = attacker_step(st, r, t)
                            if e >= 0:
                                _move_attacker(st, r, t, e)
                    return NO_WINNER
                elif kd == WP.FREE_MOVE_NEAREST:
                    for _ in range(r.xw_power_p[c, XWP.MOVES]):
                        _free_move_nearest(st, r, side, seat, slot, t, c)
    return -2








@njit(cache=True)
def _card_bonus(st, r, side, seat, slot, t):
    """The AV bonus of ``side``'s cards not cancelled (:func:`sim.combat_area.card_av`: flat, 17, 23,
    40, 76); the fight's counters already count this fight (fight_once counts it before the cards act)."""
    v = 0
    for i in range(st.xw_fight[side, XF.N_CARDS]):
        c = st.xw_cards[side, i]
        if c < CANCELLED:
            v += card_av(st, r, side, c, seat, slot, t, 0)
    return v


@njit(cache=True)
def fight(st, r, seat, slot, t, by_attacker):
    """FIGHT! ACTION DESCRIPTION: the player miniature on (``seat``, ``slot``) against the attacker
    on tile ``t``, in the attacker's turn when ``by_attacker``, with what card 77 lets its holder do
    after it (a player: move 1 and/or fight again at +4, chosen by ``Dec.XW_ACTION`` rows of that
    miniature; an attacker: fight again at +4 when a player miniature is in its district, else move
    by its movement rule). Returns the first fight's winning side, or NO_WINNER."""
    p77 = r.xw_power_p[Card.C77]
    first, again_p, again_a = fight_once(st, r, seat, slot, t, by_attacker, 0)
    while again_p or again_a:
        if again_p:
            u = _fight_again_player(st, r, seat, slot, p77[XWP.MOVES])
            if u < 0:
                break
            t = u
            by_attacker = False
            w, again_p, again_a = fight_once(st, r, seat, slot, t, False, p77[XWP.AV])
        else:
            e = st.xw_att[t, XA.POS]
            if players_in(st, r, e) == 0:
                for _ in range(p77[XWP.MOVES]):
                    e = attacker_step(st, r, t)
                    if e >= 0:
                        _move_attacker(st, r, t, e)
                break
            seat, slot = attacker_target(st, r, e, t)
            w, again_p, again_a = fight_once(st, r, seat, slot, t, by_attacker, -p77[XWP.AV])
    return first


@njit(cache=True)
def fight_once(st, r, seat, slot, t, by_attacker, bonus):
    """One Fight!: ``bonus`` is card 77's extra AV for the side fighting again (positive: the
    player's, negative: the attacker's). Returns (winning side or NO_WINNER, the player's card 77
    acts, the attacker's card 77 acts)."""
    for side in range(2):
        for f in range(st.xw_fight.shape[1]):
            st.xw_fight[side, f] = 0
    # who fights, for the players' valuation of their cards (Dec.XW_CARD)
    st.xw_fight[SIDE_PLAYER, XF.FIGHTER] = slot
    st.xw_fight[SIDE_PLAYER, XF.SEAT] = seat
    st.xw_fight[SIDE_ATTACKER, XF.FIGHTER] = t
    st.xw_fight[SIDE_ATTACKER if by_attacker else SIDE_PLAYER, XF.ACTING] = 1
    if bonus > 0:
        st.xw_fight[SIDE_PLAYER, XF.BONUS] = bonus
    elif bonus < 0:
        st.xw_fight[SIDE_ATTACKER, XF.BONUS] = -bonus
    d = st.xw_att[t, XA.POS]
    pk = st.minis[seat, slot, 0]
    ak = st.xw_att[t, XA.KIND]
    av, hp = player_stats(r, pk, False, False)
    st.xw_fight[SIDE_PLAYER, XF.AV] = av
    st.xw_fight[SIDE_PLAYER, XF.HP] = hp
    av, hp = attacker_stats(r, ak, False, False)
    st.xw_fight[SIDE_ATTACKER, XF.AV] = av
    st.xw_fight[SIDE_ATTACKER, XF.HP] = hp
    # 2. the player's cards (the Solo A.I. draws instead), 3. the attackers draw theirs
    if st.g[G.AI] == seat + 1:
        _draw_shown(st, r, SIDE_PLAYER, r.xw_k[XK.AI_TROOP_CARDS])
    else:
        _player_cards(st, r, seat)
    nat = r.xw_k[XK.ATTACKER_CARDS_PIRATES] if st.xw[XG.FACTION] == PIRATES else r.xw_k[XK.ATTACKER_CARDS_NATIVES]
    _draw_shown(st, r, SIDE_ATTACKER, nat)
    st.xw[XG.FIGHTS] += 1
    st.xw_seat[seat, XP.FIGHTS_TURN] += 1
    st.tally[seat, TS.FIGHTS] += 1
    st.tally[seat, TS.XW_FIGHTS_AK + ak] += 1
    if pk > 0:
        st.tally[seat, TS.XW_FIGHTS_MINI + pk - 1] += 1
    st.xw_mini[seat, slot, XM.FOUGHT] = 1
    if st.xw_mini[seat, slot, XM.USED] == 0:  # card 57: "used in the current War", counted once
        st.xw_mini[seat, slot, XM.USED] = 1
        if is_soldier(pk):
            st.g[G.WAR_SOLDIERS] += 1
        else:
            st.g[G.WAR_MILICIANOS] += 1
    st.xw_att[t, XA.FIGHTS] += 1
    # 4. the cards' effects: cancels first, then the others in card-number order
    _cancel(st, r)
    av, hp = player_stats(r, pk, _has_active(st, r, SIDE_PLAYER, WP.STANDARD_AS_ELITE),
                          _has_active(st, r, SIDE_ATTACKER, WP.ELITE_AS_STANDARD))
    st.xw_fight[SIDE_PLAYER, XF.AV] = av
    st.xw_fight[SIDE_PLAYER, XF.HP] = hp
    av, hp = attacker_stats(r, ak, _has_active(st, r, SIDE_ATTACKER, WP.STANDARD_AS_ELITE),
                            _has_active(st, r, SIDE_PLAYER, WP.ELITE_AS_STANDARD))
    st.xw_fight[SIDE_ATTACKER, XF.AV] = av
    st.xw_fight[SIDE_ATTACKER, XF.HP] = hp
    winner = _pre_fight(st, r, seat, slot, t)
    if winner == -2:
        winner = _resolve(st, r, seat, slot, t, by_attacker, d)
    else:
        log(st, Ev.XW_FIGHT, seat, slot, t, 0, 0, winner)
    if winner == SIDE_PLAYER:
        st.tally[seat, TS.FIGHTS_WON] += 1
        st.tally[seat, TS.XW_WON_AK + ak] += 1
        if pk > 0:
            st.tally[seat, TS.XW_WON_MINI + pk - 1] += 1
    elif winner == SIDE_ATTACKER:
        st.tally[seat, TS.FIGHTS_LOST] += 1
    if winner == SIDE_PLAYER and not _fighter_alive(st, SIDE_ATTACKER, seat, slot, t):
        _recruit(st, r, SIDE_PLAYER, seat, slot, t, d)
    elif winner == SIDE_ATTACKER and not _fighter_alive(st, SIDE_PLAYER, seat, slot, t):
        _recruit(st, r, SIDE_ATTACKER, seat, slot, t, d)
    again_p = _has_active(st, r, SIDE_PLAYER, WP.FIGHT_AGAIN) and _fighter_alive(st, SIDE_PLAYER, seat, slot, t)
    again_a = _has_active(st, r, SIDE_ATTACKER, WP.FIGHT_AGAIN) and _fighter_alive(st, SIDE_ATTACKER, seat, slot, t)
    # the cards shown by the attackers (and the A.I.) go to the game discard pile
    for side in range(2):
        for i in range(st.xw_fight[side, XF.N_CARDS]):
            c = st.xw_cards[side, i] % CANCELLED
            if st.card_loc[c] == Loc.COMBAT:
                put_on(st, c, Loc.GAME_DISCARD)
    return winner, again_p, again_a


@njit(cache=True)
def _fight_again_player(st, r, seat, slot, moves):
    """Card 77 on a surviving player miniature: it may move up to ``moves`` districts and/or fight
    an attacker in its district (``Dec.XW_ACTION`` rows of that miniature). Returns the attacker's
    tile to fight, or -1 to stop."""
    moved = 0
    while True:
        d = st.xw_mini[seat, slot, XM.POS]
        if d < 0:
            return -1
        k = 0
        set_option(st, k, XwAct.DONE, slot, -1, -1, seat)
        k += 1
        if moved < moves:
            for e in range(r.district_ncells.shape[0]):
                if r.district_adj[d, e] == 1:
                    set_option(st, k, XwAct.MOVE, slot, e, -1, seat)
                    k += 1
        for u in range(st.xw[XG.N_TILES]):
            if st.xw_att[u, XA.STATE] == AS.IN and st.xw_att[u, XA.POS] == d:
                set_option(st, k, XwAct.FIGHT, slot, u, -1, seat)
                k += 1
        i = decide(st, r, commander(st, seat), Dec.XW_ACTION, k)
        a = st.opts[i, 0]
        if a == XwAct.DONE:
            return -1
        if a == XwAct.FIGHT:
            return st.opts[i, 2]
        _move_player(st, seat, slot, st.opts[i, 2])
        moved += 1


@njit(cache=True)
def _recruit(st, r, side, seat, slot, t, d):
    """Card 83: the opponent was removed: a Standard miniature joins the holder's side in the
    district, acting from the next round (a player: on a free war marker, chosen by
    ``Dec.XW_RECRUIT`` rows [1 add / 0 not, slot]; attackers: from the supply, on a free tile)."""
    if not _has_active(st, r, side, WP.RECRUIT):
        return
    for _ in range(r.xw_power_p[Card.C83, XWP.MINIATURES]):
        if side == SIDE_PLAYER:
            free = -1
            for k in range(r.k[RK.WAR_MARKERS]):
                if st.minis[seat, k, 0] == Mini.NONE and k < st.pl[seat, PF.WAR_MARKERS]:
                    free = k
                    break
            if free < 0:
                return
            set_option(st, 0, 0, free)
            set_option(st, 1, 1, free)
            if st.opts[decide(st, r, commander(st, seat), Dec.XW_RECRUIT, 2), 0] == 1:
                st.minis[seat, free, 0] = Mini.MILICIANO
                st.minis[seat, free, 1] = 0
                st.xw_mini[seat, free, XM.POS] = st.xw_mini[seat, slot, XM.POS] if st.minis[seat, slot, 0] != Mini.NONE else d
                st.xw_mini[seat, free, XM.RECRUIT] = CARD83_RECRUIT
                st.xw_mini[seat, free, XM.READY] = st.xw[XG.ROUND] + 1
                log(st, Ev.XW_DEPLOY, seat, free, st.xw_mini[seat, free, XM.POS])
        else:
            kind = st.xw_att[t, XA.KIND] & 2
            u = st.xw[XG.N_TILES]
            if u >= r.xw_k[XK.OPPONENT_TILES] or attackers_in_supply(st, r, kind) <= 0:
                return
            st.xw_att[u, XA.CARD] = -1
            st.xw_att[u, XA.KIND] = kind
            st.xw_att[u, XA.STATE] = AS.IN
            st.xw_att[u, XA.POS] = st.xw_att[t, XA.POS]
            st.xw_att[u, XA.EDGE] = st.xw_att[t, XA.EDGE]
            st.xw_att[u, XA.OWNER] = -1
            st.xw_att[u, XA.WOUNDS] = 0
            st.xw_att[u, XA.READY] = st.xw[XG.ROUND] + 1
            st.xw[XG.N_TILES] = u + 1
            log(st, Ev.XW_PLACE, u, -1, kind, st.xw_att[u, XA.POS], -1, attacker_initiative(st, r, u))


@njit(cache=True)
def _resolve(st, r, seat, slot, t, by_attacker, d):
    """FIGHT! 5: the final AVs; the higher wins, the difference is the damage: the loser is removed
    when it reaches its HP, otherwise takes a wound (the second removes it); a tie does nothing."""
    # the cards' AV bonus; card 28 gives its holder the larger of the two sides' bonuses
    for side in range(2):
        st.xw_fight[side, XF.CARD_AV] = _card_bonus(st, r, side, seat, slot, t)
    for c in range(N_CHARACTERS, N_CARDS):
        for side in range(2):
            for i in range(st.xw_fight[side, XF.N_CARDS]):
                if st.xw_cards[side, i] == c and r.xw_power_kind[c] == WP.SWAP_BONUS:
                    mine = st.xw_fight[side, XF.CARD_AV]
                    theirs = st.xw_fight[1 - side, XF.CARD_AV]
                    if theirs > mine:
                        st.xw_fight[side, XF.CARD_AV] = theirs
                        st.xw_fight[1 - side, XF.CARD_AV] = mine
    # walls: for players, when the attacker just crossed a Wall in its own turn (card 34: doubled
    # by a player holding it, ignored by attackers holding it)
    if by_attacker and st.xw_att[t, XA.CROSSED] == 1:
        w = r.xw_k[XK.WALL_BONUS_FORT] if st.g[G.FORT_BUILT] == 1 else r.xw_k[XK.WALL_BONUS]
        if _has_active(st, r, SIDE_PLAYER, WP.WALLS_FACTOR):
            w *= r.xw_power_p[Card.C34, XWP.FACTOR]
        if _has_active(st, r, SIDE_ATTACKER, WP.WALLS_FACTOR):
            w = 0
        st.xw_fight[SIDE_PLAYER, XF.WALLS] = w
        if w > 0:
            # card 34 (lightning): "Gain 7 VPs every time Walls are part of the Fight calculation: ...
            # for Extended War Expansion, a Wall provides AV bonus to 1 or more players"
            s = offer(st, r, Card.C34, -1)
            if s >= 0:
                gain_war_vp(st, r, s, r.aff_p[Card.C34, AP.VP])
    step = r.xw_k[XK.FRIEND_BONUS]
    cap = r.xw_k[XK.FRIEND_BONUS_MAX]
    st.xw_fight[SIDE_PLAYER, XF.FRIENDS] = min(cap, step * friends_in(st, r, SIDE_PLAYER, seat, slot, t, d))
    st.xw_fight[SIDE_ATTACKER, XF.FRIENDS] = min(cap, step * friends_in(st, r, SIDE_ATTACKER, seat, slot, t, d))
    pav = fight_total(st, r, SIDE_PLAYER)
    aav = fight_total(st, r, SIDE_ATTACKER)
    st.xw_fight[SIDE_PLAYER, XF.TOTAL] = pav
    st.xw_fight[SIDE_ATTACKER, XF.TOTAL] = aav
    if pav == aav:
        log(st, Ev.XW_FIGHT, seat, slot, t, pav, aav, NO_WINNER)
        return NO_WINNER
    winner = SIDE_PLAYER if pav > aav else SIDE_ATTACKER
    log(st, Ev.XW_FIGHT, seat, slot, t, pav, aav, winner)
    loser = 1 - winner
    dmg = abs(pav - aav)
    by_seat = seat if winner == SIDE_PLAYER else -1
    if dmg >= st.xw_fight[loser, XF.HP]:
        if st.xw_fight[loser, XF.SHIELD] > 0:  # the shield turns a removal into a wound
            st.xw_fight[loser, XF.SHIELD] = 0
            _wound_fighter(st, r, loser, seat, slot, t, by_seat)
        elif loser == SIDE_PLAYER:
            remove_player_mini(st, seat, slot)
        else:
            remove_attacker(st, r, t, seat)
    else:
        _wound_fighter(st, r, loser, seat, slot, t, by_seat)
    # card 29: the holder lost, so every opponent in the district takes a wound
    if _has_active(st, r, loser, WP.WOUND_WINNERS):
        for _ in range(r.xw_power_p[Card.C29, XWP.WOUNDS]):
            if loser == SIDE_PLAYER:
                for u in range(st.xw[XG.N_TILES]):
                    if st.xw_att[u, XA.STATE] == AS.IN and st.xw_att[u, XA.POS] == d:
                        wound_attacker(st, r, u, seat)
            else:
                for s in range(st.g[G.NPLAYERS]):
                    for k in range(r.k[RK.WAR_MARKERS]):
                        if st.xw_mini[s, k, XM.POS] == d and st.minis[s, k, 0] != Mini.NONE:
                            wound_player(st, r, s, k)
    return winner


# ----------------------------------------------------------------------------- rounds and the end


@njit(cache=True)
def war_round(st, r, seats_play):
    """One war round: for each Initiative, the player at that turn position (when ``seats_play``:
    its war actions only), then the attackers of that Initiative. Returns True when the war is over."""
    st.xw[XG.ROUND] += 1
    st.tally_g[TG.XW_ROUNDS] += 1
    n = st.g[G.NPLAYERS]
    for ini in range(1, max_initiative(st, r) + 1):
        if seats_play and ini <= n:
            s = st.order[ini - 1]
            begin_player_turn(st, r, s)
            player_war_actions(st, r, s)
            end_player_turn(st, r, s)
        if war_over(st, r):
            return True
        attackers_act(st, r, ini)
        if war_over(st, r):
            return True
    return False


@njit(cache=True)
def last_decade_war(st, r, faction, era, bonus):
    """WAR IN THE LAST TURN: the war happens at once in the End of the decade Phase: the Combat Area
    is set up, the defenders are placed, six war rounds are played and the war ends. Returns the
    rounds played."""
    setup_combat_area(st, r, faction, era, bonus)
    defenders_placement(st, r)
    rounds = 0
    for _ in range(r.xw_k[XK.LAST_DECADE_ROUNDS]):
        rounds += 1
        if war_round(st, r, True):
            break
    end_war(st, r)
    return rounds




@njit(cache=True)
def penalties_after_control(r, penalties, control_hp):
    """END OF THE WAR 2: every 2 HP on the control cards a player gained cancels 1 War penalty.
    Returns (penalties left, penalties cancelled)."""
    cancel = min(penalties, control_hp // r.xw_k[XK.CONTROL_HP_PER_PENALTY])
    return penalties - cancel, cancel


@njit(cache=True)
def move_war_penalty(st, r, seat, left):
    """The War Penalty track: 0 penalties left win the War (1 step left); otherwise 1 step right
    per penalty, past the end of the track the City Council marker moves down instead (as in the
    normal War). Returns (steps moved, council change)."""
    st.pl[seat, PF.WARS_FOUGHT] += 1
    if left == 0:
        dpen, dcouncil = war_won(st, r, seat, st.xw[XG.FACTION], r.xw_k[XK.WIN_STEPS]), 0
    else:
        dpen, dcouncil = war_lost(st, r, seat, left * r.xw_k[XK.STEPS_PER_PENALTY])
    st.pl[seat, PF.WAR_PENALTY_LAST] = dpen
    return dpen, dcouncil


@njit(cache=True)
def end_war(st, r):
    """END OF THE WAR, in reverse turn order: each player takes the pillage score plus the attackers
    left as War penalties, cancels 1 per 2 HP of the control cards it gained, and moves on the War
    Penalty track; card 57 pays for the miniatures used (sim.war_track.card57_pays). Then the control
    cards go to the discard pile, the attackers to the supply, the surviving miniatures back to their
    owners (wounds stay; card 83 recruits and card 59's worker leave), and the remaining cards with
    the game discard pile make a new deck."""
    score = pillage_score(st, r)
    left = attackers_on_board(st, -1)
    st.xw[XG.LEFT] = left
    st.xw[XG.PILLAGE_SCORE] = score
    log(st, Ev.XW_END, st.xw[XG.FACTION], score, left)
    st.tally_g[TG.WARS_PIRATES if st.xw[XG.FACTION] == PIRATES else TG.WARS_NATIVES] += 1
    st.tally_g[TG.XW_LEFT] += left
    st.tally_g[TG.XW_PILLAGE_SCORE] += score
    n = st.g[G.NPLAYERS]
    for i in range(n - 1, -1, -1):
        s = st.order[i]
        pen = score + left
        rest, cancel = penalties_after_control(r, pen, st.xw_seat[s, XP.CONTROL_HP])
        st.xw_seat[s, XP.PENALTIES] = pen
        st.xw_seat[s, XP.CANCELLED] = cancel
        st.tally[s, TS.XW_PENALTIES] += pen
        st.tally[s, TS.XW_CANCELLED] += cancel
        steps, dc = move_war_penalty(st, r, s, rest)
        log(st, Ev.XW_PENALTY, s, pen, cancel, steps, dc)
    card57_pays(st, r)
    for t in range(st.xw[XG.N_TILES]):
        c = st.xw_att[t, XA.CARD]
        if c >= 0 and st.card_loc[c] == Loc.COMBAT:
            put_on(st, c, Loc.GAME_DISCARD)
        st.xw_att[t, XA.STATE] = AS.NONE
        st.xw_att[t, XA.WOUNDS] = 0
    for s in range(n):
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.xw_mini[s, k, XM.RECRUIT] > 0:
                _clear_mini(st, s, k)
            st.xw_mini[s, k, XM.POS] = -1
    m = 0
    for c in range(N_CHARACTERS, N_CARDS):
        if st.card_loc[c] == Loc.GAME_DISCARD:
            st.card_loc[c] = Loc.DECK
            st.card_rot[c] = 0
            m += 1
    shuffle_deck(st)
    log(st, Ev.RESHUFFLE, m)
    st.xw[XG.ACTIVE] = 0


# ----------------------------------------------------------------------------- the war in the decade


@njit(cache=True)
def begin_extended_war(st, r):
    """WAR FLOW: "War takes place during the decade, which follows the War declaration": at the start
    of that decade (after its A. phase, before the first player's turn) the Combat Area is set up
    for the declared faction, the current Era and the Tension level bonus read at the declaration
    (``XG.PENDING``, ``XG.BONUS``, set by sim.war.declare_extended_war), and every player places
    its defenders in turn order. A war without attackers (no card or miniature to place) is over
    at once."""
    faction = st.xw[XG.PENDING]
    bonus = st.xw[XG.BONUS]
    st.xw[XG.PENDING] = 0
    st.xw[XG.BONUS] = 0
    setup_combat_area(st, r, faction, st.g[G.ERA], bonus)
    defenders_placement(st, r)
    if war_over(st, r):
        end_war(st, r)


@njit(cache=True)
def war_round_begin(st):
    """WAR FLOW: a round of the Action Phase is a war round ("Repeat the above in further rounds")."""
    if st.xw[XG.ACTIVE] == 1:
        st.xw[XG.ROUND] += 1
        st.tally_g[TG.XW_ROUNDS] += 1


@njit(cache=True)
def war_turn_begin(st, r, seat):
    """PLAYER WAR ACTIONS during a war: the turn opens with the player's free war actions (Move,
    Fight!; each miniature moves 1 district and fights once a turn), before its main action, as
    in the WAR FLOW example ("they move as free action their Soldier ..., and then, as a normal
    action, use two Workers to build a Lot"). The Solo A.I.'s troops are commanded by the first
    human (:func:`commander`). The war ends as soon as it is over."""
    if st.xw[XG.ACTIVE] == 0:
        return
    begin_player_turn(st, r, seat)
    player_war_actions(st, r, seat)
    if st.xw[XG.ACTIVE] == 1 and war_over(st, r):
        end_war(st, r)


@njit(cache=True)
def war_turn_end(st, r, seat):
    """After a player's turn during a war: a player who passed while others play on withdraws its
    miniatures ("If a player passes and there are still some active players, the player must
    immediately remove their miniatures"); one who played places the miniatures its main action
    gave it (Deploy Milicianos; "Each player must place his Milicianos and Soldiers in the Combat
    Area") as at the war's start (:func:`deploy_defenders`)."""
    if st.xw[XG.ACTIVE] == 0:
        return
    end_player_turn(st, r, seat)
    if st.pl[seat, PF.PASSED] == 1:
        others = False
        for i in range(st.g[G.NPLAYERS]):
            if st.pl[st.order[i], PF.PASSED] == 0:
                others = True
        if others:
            withdraw(st, r, seat)
    else:
        deploy_defenders(st, r, seat)


@njit(cache=True)
def war_attackers(st, r, ini):
    """WAR FLOW: after the player of Initiative ``ini`` (turn position ``ini - 1``; a player who has
    passed has no turn, its Initiative's attackers still act), the attackers of that Initiative; the
    war ends as soon as it is over."""
    if st.xw[XG.ACTIVE] == 0:
        return
    attackers_act(st, r, ini)
    if war_over(st, r):
        end_war(st, r)


@njit(cache=True)
def war_round_end(st, r):
    """WAR FLOW: attackers of an Initiative above the number of players act at the round's end."""
    for ini in range(st.g[G.NPLAYERS] + 1, max_initiative(st, r) + 1):
        war_attackers(st, r, ini)
