"""6. TAKE A CARD and 7. REACTIVATE CARDS as main actions: draw and keep, the top of a discard
pile, or a card of the seat's Character group bought from another player's hand; workers put on
reactivation (the cards turn back at C.1 CARDS REACTIVATION)."""

from numba import njit

from sim.actions.order import worker_rows, workers_on
from sim.actions.turn_rows import add_row
from sim.codes import Act, Ev
from sim.core import log, place_workers
from sim.deck import draw_and_keep, gain_card, nonempty_piles, take_pile_top
from sim.economy import coin_value, give_coins_from_supply, pay_coins
from sim.rules import RK
from sim.state import GROUP_SIZE, N_CHARACTERS, PF, G, Loc


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def take_card_rows(st, r, seat, k, avail):
    """The rows of 6. TAKE A CARD from row ``k``: draw (CARD_DRAW), each non-empty discard pile
    of the game (CARD_PILE), and each card of the seat's Character group in another hand
    (CARD_BUY, with enough coin)."""
    if avail >= r.k[RK.TAKE_CARD_WORKERS]:
        k = add_row(st, k, Act.CARD_DRAW, 0, 0, 0, 0)
        nonempty = nonempty_piles(st)
        for pile in range(6):
            if pile < 5 and pile >= st.g[G.NPLAYERS]:
                continue
            if (nonempty >> pile) & 1:
                k = add_row(st, k, Act.CARD_PILE, pile, 0, 0, 0)
        if coin_value(st, r, seat) >= r.k[RK.BUY_CARD_BRONZE]:
            grp = st.pl[seat, PF.CHARACTER]
            for c in range(N_CHARACTERS + grp * GROUP_SIZE, N_CHARACTERS + (grp + 1) * GROUP_SIZE):
                loc = st.card_loc[c]
                if loc >= Loc.HAND and loc < Loc.HAND + 5 and loc != Loc.HAND + seat:
                    k = add_row(st, k, Act.CARD_BUY, c, loc - Loc.HAND, 0, 0)
    return k


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def take_card(st, r, seat, act, a, b):
    """Row (``act``, ``a``, ``b``) of :func:`take_card_rows`."""
    place_workers(st, seat, r.k[RK.TAKE_CARD_WORKERS])
    if act == Act.CARD_DRAW:
        draw_and_keep(st, r, seat, r.k[RK.TAKE_CARD_DRAW])
    elif act == Act.CARD_PILE:
        take_pile_top(st, r, seat, a)
    else:
        before = coin_value(st, r, seat)
        pay_coins(st, r, seat, r.k[RK.BUY_CARD_BRONZE])
        give_coins_from_supply(st, b, 0, before - coin_value(st, r, seat))  # what was paid (card 78's discount)
        gain_card(st, r, seat, a)
        log(st, Ev.CARD_BUY, seat, a, b)


@njit(cache=True, inline="always")  # one caller (turn._turn_options): inlined there
def reactivate_rows(st, r, seat, k, avail, rot):
    """The REACTIVATE rows from row ``k``: up to 2 cards per worker; more workers than the seat's
    ``rot`` rotated cards need is pointless."""
    per = r.k[RK.REACT_PER_WORKER]
    return worker_rows(st, k, Act.REACTIVATE, min(avail, max(1, (rot + per - 1) // per)))


@njit(cache=True, inline="always")  # one caller (turn.apply_option): inlined there
def reactivate(st, seat, w):
    """7. REACTIVATE CARDS: ``w`` workers on Reactivate cards."""
    workers_on(st, seat, w, PF.REACT_WORKERS, Ev.REACTIVATE)
