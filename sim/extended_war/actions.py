"""PLAYER WAR ACTIONS: a player's free war actions in its turn (Move, Fight!: the rows of
``Dec.XW_ACTION`` and one row carried out), the limits of its turn, and the withdrawal of a
player who passes while others play on."""

from numba import njit

from sim.codes import Dec, XwAct, XwUse
from sim.core import decide, set_option
from sim.extended_war.end import war_over
from sim.extended_war.fight import fight
from sim.extended_war.fight_cards import _burn, _burnable
from sim.extended_war.movement import _move_player
from sim.extended_war.wounds import _clear_mini, commander
from sim.rules import RK, XK
from sim.state import AS, N_CARDS, N_CHARACTERS, XA, XG, XM, XP, Mini


@njit(cache=True)
def withdraw(st, r, seat):
    """PLAYER WAR ACTIONS: a player who passes while others play on removes their miniatures from
    the Combat Area (a card 83 recruit or card 59's worker leaves the game)."""
    for slot in range(r.k[RK.WAR_MARKERS]):
        if st.xw_mini[seat, slot, XM.RECRUIT] > 0:
            _clear_mini(st, seat, slot)
        st.xw_mini[seat, slot, XM.POS] = -1


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
