"""B. ACTION PHASE: a turn (any number of free actions, then one main action or PASS) and the
rounds of the phase.

A TURN decision lists every legal row (Act, a, b, c, d) in ``st.opts``: each main action's
module lists its rows and carries them out (:func:`_turn_options`, :func:`apply_option`); free
actions leave the turn open, a main action (or PASS) ends it.
"""

from numba import njit

from sim.actions.activation import activate, activation_rows
from sim.actions.construction import build, construction_listing, construction_rows
from sim.actions.council import city_council, council_rows
from sim.actions.free import free_reactivation, free_rows, remove_lot, status_council_worker, warehouse_cube
from sim.actions.major import major_rows
from sim.actions.milicianos import deploy_milicianos, miliciano_rows
from sim.actions.order import order_rows, player_order
from sim.actions.remove import remove_house, remove_rows
from sim.actions.ship import load_ship, ship_rows
from sim.actions.status import improve_status, status_rows
from sim.actions.take_card import reactivate, reactivate_rows, take_card, take_card_rows
from sim.actions.turn_rows import add_row, worker_discount_any
from sim.affiliates import use_card
from sim.cardpower import card_active, spend
from sim.city import own_spaces
from sim.codes import FIRST_FREE_ACT, Act, Card, Dec, Ev
from sim.compiled_parts import extended_war, solo_ai_entry
from sim.core import decide, grant_pool, log, return_pool, workers_available
from sim.council_vote import call_vote
from sim.deck import burn_card
from sim.extended_war import war_attackers, war_round_begin, war_round_end, war_turn_begin, war_turn_end
from sim.major_buildings import place_on_grid, recover_workers_free
from sim.rules import AP
from sim.seam import choose_grouped, drop_forbidden, drop_sim_forbidden, turn_groups_ok
from sim.solo import ai_turn
from sim.state import N_CARDS, PF, TG, TL, TS, G, Loc, Sup

# the optional parts, reached only through their hooks (sim.compiled_parts: compiled only into the runs that play them)
solo_ai_turn = solo_ai_entry(ai_turn)
xw_war_attackers = extended_war(war_attackers)
xw_war_round_begin = extended_war(war_round_begin)
xw_war_round_end = extended_war(war_round_end)
xw_war_turn_begin = extended_war(war_turn_begin)
xw_war_turn_end = extended_war(war_turn_end)


@njit(cache=True)
def turn_options(st, r, seat):
    """Every legal row for the seat's TURN decision. Never empty: with workers, Player Order
    (1 worker) is always legal; without, PASS is. A seat under a forbid probe loses the rows it
    forbids while another main action stays legal (sim.seam.drop_forbidden)."""
    return drop_forbidden(st, r, seat, _turn_options(st, r, seat, False))


@njit(cache=True)
def _turn_options(st, r, seat, grouped):
    """:func:`turn_options`; ``grouped`` True lists the BUILD rows as groups instead, one per
    (type, district, Status marker) with its number of spaces (``st.grp[:st.turn_n[TL.GROUPS]]``, see
    :func:`decide_turn`), and the other rows from row 0 in the same order. The main actions are
    listed in the rulebook's order (1-11), then the free actions."""
    k = 0
    avail = workers_available(st, seat)
    # the spaces next to a building of the seat's colour, the seat's spaces, and the spaces it may
    # build on by district (kept while the map stays)
    n_own = own_spaces(st, r, seat)
    near = st.own_near[seat]
    own = st.own_list[seat]
    hand = st.turn_tmp[1]
    # the seat's hand and its rotated cards, without a branch per card (where a seat's few cards
    # lie is not predictable): every card is written at the next free place, which only moves on
    # past a card in the hand (n_hand <= c, so the writes stay inside the scratch row)
    n_hand = 0
    rot = 0
    loc_hand = Loc.HAND + seat
    for c in range(N_CARDS):
        held = st.card_loc[c] == loc_hand
        hand[n_hand] = c
        n_hand += held
        rot += held & (st.card_rot[c] == 1)
    # the worker-discount cards (13, 19, 25, 58, 65): most turns have none in use
    disc = worker_discount_any(st, r, seat)
    st.turn_n[TL.GROUPS] = 0
    if avail > 0:
        k = construction_listing(st, r, seat, k, avail, disc, grouped)  # 1-2
        k = activation_rows(st, r, seat, k, avail, disc, near)  # 2
        k = remove_rows(st, r, seat, k, avail, n_own, own)  # 3
        k = miliciano_rows(st, r, seat, k, avail)  # 4
        k = ship_rows(st, r, seat, k, avail)  # 5
        k = take_card_rows(st, r, seat, k, avail)  # 6
        k = reactivate_rows(st, r, seat, k, avail, rot)  # 7
        k = order_rows(st, k, avail)  # 8
        k = council_rows(st, r, k, avail)  # 9
        k = status_rows(st, r, seat, k, avail)  # 10
        k = major_rows(st, r, k, avail)  # 11
    else:
        k = add_row(st, k, Act.PASS, 0, 0, 0, 0)
    return free_rows(st, r, seat, k, hand, n_hand, n_own, own)


@njit(cache=True)
def apply_option(st, r, seat, act, a, b, c):
    """Carry out one TURN row (counted in the seat's records, ``st.acts``: every player family's
    turns and searches come through here)."""
    st.acts[seat, act] += 1
    if act == Act.PASS:
        st.pl[seat, PF.PASSED] = 1
        log(st, Ev.PASS, seat)
    elif act == Act.BUILD:
        build(st, r, seat, a, b, c & 1, c >> 1)
    elif act == Act.ACTIVATE:
        activate(st, r, seat, a, b, c)
    elif act == Act.REMOVE:
        remove_house(st, r, seat, a)
    elif act == Act.MILICIANO:
        deploy_milicianos(st, r, seat, a, b)
    elif act == Act.SHIP:
        load_ship(st, r, seat, a, b)
    elif act == Act.CARD_DRAW or act == Act.CARD_PILE or act == Act.CARD_BUY:
        take_card(st, r, seat, act, a, b)
    elif act == Act.REACTIVATE:
        reactivate(st, seat, a)
    elif act == Act.ORDER:
        player_order(st, seat, a)
    elif act == Act.COUNCIL:
        city_council(st, r, seat, a)
    elif act == Act.STATUS:
        improve_status(st, r, seat, a, c)
    elif act == Act.MAJOR:
        place_on_grid(st, r, seat, a, b)
    elif act == Act.F_VOTE:
        call_vote(st, r, seat, a, b)
    elif act == Act.F_BURN:
        burn_card(st, r, seat, a)
    elif act == Act.F_WAREHOUSE:
        warehouse_cube(st, r, seat, a)
    elif act == Act.F_RECOVER:
        recover_workers_free(st, r, seat, a)
    elif act == Act.F_REMOVE_LOT:
        remove_lot(st, seat, a)
    elif act == Act.F_CC_WORKER:
        status_council_worker(st, r, seat, a)
    elif act == Act.F_FREE_REACT:
        free_reactivation(st, seat)
    elif act == Act.F_CARD:
        use_card(st, r, seat, a, b, c)


@njit(cache=True)
def end_main_action(st, r, seat, cc_used):
    """After a main action: City Council workers lent by cards 45/51 and not used go back to the
    supply, and card 45's waiver ends ("in a single action")."""
    return_pool(st, seat, cc_used)
    st.g[G.CARD45_RES] = 0
    st.card_active[Card.C45] = 0


@njit(cache=True)
def end_turn(st, seat):
    """City Warehouse cubes not used during the turn go to the general supply; cards rotated
    this turn may be burnt from the next turn on; no seat's turn is under way any more."""
    for res in range(2):
        left = min(st.pl[seat, PF.WH_WOOD + res], st.pl[seat, PF.WOOD + res])
        st.pl[seat, PF.WOOD + res] -= left
        st.supply[Sup.WOOD + res] += left
        st.pl[seat, PF.WH_WOOD + res] = 0
    for c in range(N_CARDS):
        st.card_turn[c] = 0
        st.card_active[c] = 0  # "Card powers cannot be postponed": a modifier not used this turn is lost
    st.g[G.TURN_SEAT] = -1


@njit(cache=True)
def turn_step(st, r, seat, act, a, b, c):
    """Carry out one TURN row (Act, a, b, c) for ``seat``; True while the turn goes on (after a
    free action, or card 51's extra main action), False once the main action (or PASS) ends it."""
    cc0 = st.pl[seat, PF.CC_WORKERS]
    apply_option(st, r, seat, act, a, b, c)
    if act >= FIRST_FREE_ACT:
        return True
    end_main_action(st, r, seat, max(0, cc0 - st.pl[seat, PF.CC_WORKERS]))
    # card 51: "Complete your following turn immediately with 1 worker discount" - one more
    # main action now (``extra_turns``), a City Council worker standing in for one of its workers
    if act != Act.PASS and card_active(st, seat, Card.C51):
        spend(st, Card.C51)
        if grant_pool(st, seat, r.aff_p[Card.C51, AP.WORKER_DISCOUNT]) > 0:
            log(st, Ev.CARD_EFFECT, seat, Card.C51, 1)
            return True
    return False


@njit(cache=True)
def decide_turn(st, r, seat):
    """The seat's TURN decision: its rows listed (:func:`turn_options`) and one picked by its policy;
    returns the row's index in ``st.opts``. A seat whose policy gives the BUILD rows of one type,
    district and Status marker one value (strategies.policy.turn_groups_ok) gets them as groups:
    each group valued once, the pick the same as over the full listing (same random draw,
    policy.choose_grouped), and a picked BUILD row found by going over the map in listing order
    (:func:`construction_rows`). About 6 in 10 rows of a 4-player game are BUILD rows."""
    if not turn_groups_ok(st, seat):
        return decide(st, r, seat, Dec.TURN, turn_options(st, r, seat))
    k = _turn_options(st, r, seat, True)
    if st.turn_n[TL.GROUPS] == 0:  # no BUILD row: the full listing
        return decide(st, r, seat, Dec.TURN, drop_forbidden(st, r, seat, k))
    k = drop_sim_forbidden(st, seat, k)  # a search's simulation forbid (turn_groups_ok: never of BUILD)
    if k == 0:  # never (with workers, Player Order is a row): the full listing
        return decide(st, r, seat, Dec.TURN, turn_options(st, r, seat))
    st.g[G.OPT_N] += 1  # as decide
    i = choose_grouped(st, r, seat, k)
    if i >= 0:
        return i
    i = construction_rows(st, r, seat, k, True, -i - 1) - 1
    if i != k:
        raise AssertionError("decide_turn: the picked BUILD row is not in the listing")
    return i


@njit(cache=True)
def finish_turn(st, r, seat):
    """The rest of a turn already under way: free actions, then one main action (or pass), each
    chosen by the seat's policy; then END of the turn."""
    for _ in range(1000):
        i = decide_turn(st, r, seat)
        if not turn_step(st, r, seat, st.opts[i, 0], st.opts[i, 1], st.opts[i, 2], st.opts[i, 3]):
            break
    end_turn(st, seat)


@njit(cache=True)
def play_turn(st, r, seat):
    """One turn: any number of free actions, then one main action (or pass). The Solo A.I.'s turn is
    its own procedure (sim.solo)."""
    st.g[G.TURN_SEAT] = seat
    if st.g[G.AI] == seat + 1:
        solo_ai_turn(r, None, st, r, seat)
        end_turn(st, seat)
        return
    finish_turn(st, r, seat)


@njit(cache=True)
def any_active(st):
    for i in range(st.g[G.NPLAYERS]):
        if st.pl[st.order[i], PF.PASSED] == 0:
            return True
    return False


@njit(cache=True)
def own_turn(st, r, seat, pos, players):
    """A seat's turn with every decision through the seam (sim.seam): its war actions first during
    an Extended War (WAR FLOW, sim.extended_war.war_turn_begin), then :func:`play_turn`. The turn
    :func:`action_rounds` plays when the players do not play their own (``players``: ``()``);
    strategies.match.family_turn is the one of a real game, where planning families plan."""
    xw_war_turn_begin(r, None, st, r, seat)
    play_turn(st, r, seat)


@njit(cache=True, inline="always")  # the game's loop: inlined where it runs (see own_turn)
def action_rounds(st, r, start, turn, players):
    """B. ACTION PHASE from turn-order position ``start`` of the current round: rounds in turn
    order until every player has passed (``start`` > 0 resumes a round, see strategies.rollout).
    ``turn(st, r, seat, pos, players)`` plays the turn of the seat at turn-order position ``pos``
    (:func:`own_turn`, or strategies.match.family_turn with the players' scratch and weights in
    ``players``): the game's one loop of rounds, whoever plays the turns. During an Extended War
    each round is a war round (WAR FLOW): the player of turn position i opens its turn with its
    war actions, and after it the attackers of Initiative i + 1 act, the higher Initiatives at the
    round's end (sim.extended_war.war_*).

    Inlined into its callers (with :func:`action_phase` and sim.game.play_decade): the real game's
    turn reaches this loop again inside the players' simulations, and Numba compiles a function
    called while it is being compiled as a recursive call, through symbols resolved at run time,
    which it cannot cache."""
    n = st.g[G.NPLAYERS]
    for _ in range(1000):
        if start == 0:
            if not any_active(st):
                break
            st.tally_g[TG.ROUNDS] += 1  # the records' game length (sim.state.TG)
            xw_war_round_begin(r, None, st)
        for i in range(start, n):
            seat = st.order[i]
            if st.pl[seat, PF.PASSED] == 0:
                st.tally[seat, TS.TURNS] += 1
                turn(st, r, seat, i, players)
                xw_war_turn_end(r, None, st, r, seat)
            xw_war_attackers(r, None, st, r, i + 1)
        xw_war_round_end(r, None, st, r)
        start = 0


@njit(cache=True, inline="always")  # the game's loop: inlined where it runs (see own_turn)
def action_phase(st, r, turn, players):
    """B. ACTION PHASE: rounds in turn order until every player has passed, each turn played by
    ``turn`` (:func:`action_rounds`)."""
    for s in range(st.g[G.NPLAYERS]):
        st.pl[s, PF.PASSED] = 0
    action_rounds(st, r, 0, turn, players)
