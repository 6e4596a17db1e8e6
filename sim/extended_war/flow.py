"""WAR FLOW: the war in the decade, through the hooks the decade's flow calls (sim.game.start_of_decade,
sim.actions.action_rounds): the war begun at the decade's start, each round's players and attackers
by Initiative, the war ended as soon as it is over; and WAR IN THE LAST TURN: six war rounds at
once, in the End of the decade Phase (sim.game.end_of_decade)."""

from numba import njit

from sim.extended_war.actions import begin_player_turn, end_player_turn, player_war_actions, withdraw
from sim.extended_war.attackers import attackers_act
from sim.extended_war.deployment import defenders_placement, deploy_defenders
from sim.extended_war.end import end_war, war_over
from sim.extended_war.setup import max_initiative, setup_combat_area
from sim.rules import XK
from sim.state import PF, TG, XG, G


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
