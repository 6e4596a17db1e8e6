"""EXTENDED WAR: the Combat Area, its attackers and defenders, the Fight! and the end of the war.

The rulebook's expansion chapter ("If these rules are applied, use them instead of normal War
rules"), one module per section, with the red war powers of the Affiliate cards (CARD REFERENCE)
and the A.I. troops rule of TWO PLAYERS GAME & SOLO MODE:

==========  ==============================================================================
setup       COMBAT AREA SETUP: 1. DETERMINE THE ATTACKERS NUMBER (the War Table), 2. ATTACKERS
            PLACEMENT; an attacker's Initiative (MINIATURE AV, HP & INITIATIVE)
deployment  3. DEFENDERS PLACEMENT (at the war's start and the Deploy during it; cards 54, 59)
flow        WAR FLOW: the war in the decade (the hooks the decade's flow calls); WAR IN THE LAST TURN
attackers   ATTACKERS WAR ACTIONS: an attacker's turn, the attackers of one Initiative
actions     PLAYER WAR ACTIONS: the rows of Move and Fight!, one carried out; withdrawing on a pass
movement    a step of one district: the players' Move, the attackers' Movement
fight       FIGHT! ACTION DESCRIPTION: the target, the fight, 5. Resolve the Fight
cards       FIGHT! 2-4: the cards played, burnt and drawn, and the red war powers (CARD REFERENCE)
end         END OF THE WAR: the end condition, the War penalties, the area emptied, a new deck
common      what they share: wounds and removal, the A.I. troops' commander, the recruits' codes
==========  ==============================================================================

The modules import one way, in the order common, setup, movement, end, deployment, cards, fight,
attackers, actions, flow (a module imports only those before it). Every number is in
``Rules.xw_*`` (rules ``[extended_war]``); the war's state is ``State.xw*`` (slots named by
:class:`sim.state.XG`, ``XA``, ``XM``, ``XP``) and the fight in progress is the work area
``State.xw_fight`` / ``xw_cards``.

Sides: 0 the players (SIDE_PLAYER), 1 the attackers (SIDE_ATTACKER). A player miniature is the
one on war marker ``slot`` of ``seat`` (``State.minis``), an attacker the one on War Opponent
tile ``t`` (``State.xw_att[t]``). Every choice the rules give a player goes through
:func:`sim.core.decide` (``Dec.XW_*``); a choice the rules give "the player first in turn order"
is asked of ``st.order[0]``; the Solo A.I.'s troops are commanded by the first human player in
turn order ("the first player in the turn order uses A.I. troops"), and the A.I. draws a card
for each of its fights instead of playing its own.

The base War (sim.war) does not import this package: it declares the war (``XG.PENDING``,
``XG.BONUS``) when the rules say the expansion is in play (:func:`sim.war_track.extended_war_on`);
the decade's flow (sim.game) begins it, fights a last decade's war at once and ends it (see
docs/notebook/extended-war.md for the wiring). This package's namespace holds the entry points the
decade's flow calls and the names the rest of the engine, the players and the tests use.
"""

from sim.extended_war.actions import begin_player_turn, player_war_actions, war_action, war_action_rows
from sim.extended_war.attackers import attacker_turn, attackers_of_initiative, pillage_markers_in_use
from sim.extended_war.deployment import can_deploy, card54_district, defenders_placement, deploy_defenders
from sim.extended_war.end import end_war, penalties_after_control, war_over
from sim.extended_war.fight import fight
from sim.extended_war.flow import (
    begin_extended_war,
    last_decade_war,
    war_attackers,
    war_round,
    war_round_begin,
    war_round_end,
    war_turn_begin,
    war_turn_end,
)
from sim.extended_war.setup import attackers_number, card_era, clear_war, draw_control_cards, initiative, max_initiative, setup_combat_area
from sim.extended_war.wounds import CARD59_WORKER, NO_WINNER, commander, remove_attacker, wounds_in_use

__all__ = [
    "CARD59_WORKER", "NO_WINNER", "attacker_turn", "attackers_number", "attackers_of_initiative", "begin_extended_war", "begin_player_turn",
    "can_deploy", "card54_district", "card_era", "clear_war", "commander", "defenders_placement", "deploy_defenders", "draw_control_cards",
    "end_war", "fight", "initiative", "last_decade_war", "max_initiative", "penalties_after_control", "pillage_markers_in_use", "player_war_actions",
    "remove_attacker", "setup_combat_area", "war_action", "war_action_rows", "war_attackers", "war_over", "war_round", "war_round_begin",
    "war_round_end", "war_turn_begin", "war_turn_end", "wounds_in_use",
]
