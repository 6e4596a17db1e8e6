"""B. ACTION PHASE, one module per action as the rulebook numbers them, each holding its listing
(the TURN rows it adds) beside its effect:

=================  ====================================================
construction       1-2. MINOR BUILDING CONSTRUCTION, GROUP A-B
activation         2. MINOR BUILDING ACTIVATION, GROUP B; ACTIVATION EFFECTS
remove             3. REMOVE HOUSES/PALACES
milicianos         4. DEPLOY MILICIANOS
ship               5. LOAD THE SHIP (and C.2 SHIP SAILS FOR SPAIN)
cards              6. TAKE A CARD, 7. REACTIVATE CARDS
order              8. PLAYER ORDER
council            9. CITY COUNCIL (the action; the vote is sim.council_vote)
status             10. IMPROVE STATUS
major              11. MAJOR BUILDING (the action; the grids are sim.major_buildings)
free               FREE ACTIONS
turn               a turn and the phase's rounds: the listing in order, one row carried out
common             the row writer and the worker-discount cards shared by 1-2 and 2
=================  ====================================================

This package's namespace holds the turn's entry points and the names the rest of the engine uses.
"""

from sim.actions.activation import activate, activation_ok
from sim.actions.construction import build, build_cost, build_wood_stone, cost_cards_in_use
from sim.actions.ship import ship_sails, ship_workers
from sim.actions.turn import (
    action_phase,
    action_rounds,
    any_active,
    apply_option,
    decide_turn,
    end_main_action,
    end_turn,
    finish_turn,
    own_turn,
    play_turn,
    turn_options,
    turn_step,
)
from sim.actions.turn_rows import N_MINOR

__all__ = [
    "N_MINOR", "action_phase", "action_rounds", "activate", "activation_ok", "any_active", "apply_option", "build", "build_cost",
    "build_wood_stone", "cost_cards_in_use", "decide_turn", "end_main_action", "end_turn", "finish_turn", "own_turn", "play_turn", "ship_sails",
    "ship_workers", "turn_options", "turn_step",
]
