"""The policy's weight slots: the strategy families, the named features (:class:`F`), the named
valuation coefficients (:class:`K`, each with its default in :data:`K_DEFAULT`) and the strategy
parameters (:class:`P`): a W row block of ``N_WEIGHTS`` float64 that strategies.registry fills
from the TOML files in ``strategies/``. Apart from strategies.policy so that the valuation's
modules (strategies.policy, strategies.war_policy) share them; strategies.policy re-exports them.
"""

from enum import IntEnum

import numpy as np

# a strategy's W row block: the policy's feature weights, named coefficients and parameters (F, K, P); the
# seats' weights in the state record (strategies.seats) are one such block
N_WEIGHTS = 93

FAMILY_RANDOM = 0
FAMILY_GREEDY = 1
FAMILY_HEURISTIC = 2
FAMILY_ROLLOUT = 3  # heuristic, plus flat Monte Carlo over its TURN decisions (strategies.rollout.plan_choice)
FAMILY_PYTHON = 4  # a Python object's choose(view, options) (strategies.python_bridge)
FAMILY_SEARCH = 5  # heuristic, plus PIMC search over every TURN row with a learned evaluation (strategies.search)


class F(IntEnum):
    """Weight vector slots (column 0 is the family id)."""

    FAMILY = 0
    VP = 1
    WOOD = 2
    STONE = 3
    PRECIOUS = 4
    METAL = 5
    COIN = 6  # per bronze unit
    FAITH = 7
    COUNCIL = 8
    CARD = 9
    MILITARY = 10  # per AV point
    WORKER = 11  # per worker spent (a cost: usually negative)
    CITY = 12  # per VP of estimated city score at the next scoring
    STATUS = 13  # per Status level
    ORDER = 14  # per worker on Player Order
    PRODUCTION = 15  # per production/activatable building put in reach
    BANNER = 16  # per banner step
    CHARACTER = 17  # per unit of progress toward the seat's Character scoring (about 1 VP x Era each)


N_FEATURES = len(F)
FEATURES = [f.name.lower() for f in F]


class K(IntEnum):
    """Named valuation coefficients: weight slots after the features, each a number the valuation
    once wrote as a literal. A strategy file sets them like features (``[weights]``,
    ``[characters.<Name>]``, by the lower-case name) and ``trinidad tune`` tunes them with the
    features; a file that leaves one out gets its default (:data:`K_DEFAULT`, with what each values
    and why), so every shipped strategy plays as before they were named. Most are read as a
    multiple of a feature weight (``w[F.CITY] * w[K.REMOVE_CITY]``: 5 city VP); the rest are values
    of their own, in the units of the features (about 1 = 1 VP)."""

    LOT_BASE = 18
    LOT_HOUSE = 19
    MARKER_CITY = 20
    MARKER_STATUS = 21
    REMOVE_CITY = 22
    CARD_BUY = 23
    REACTIVATE = 24
    RECOVER_WORKERS = 25
    CARD_SPENT = 26
    GRID_CARD_VP = 27
    GRID_CARD_CLOSE = 28
    C31_CITY = 29
    C62_HEAL = 30
    C76_TENSION = 31
    C83_GRIDS = 32
    C53_BANNER = 33
    PENALTY_STEP = 34
    C28_USE = 35
    CARD_WORKER = 36
    C45_WAIVE = 37
    CARD_MODIFIER = 38
    GRID_CUBE = 39
    BID_PASS = 40
    BID_LOW = 41
    BID_HIGH = 42
    DRAW_DECK = 43
    DRAW_PILE = 44
    KEEP_OWN = 45
    SALARY_VP = 46
    SALARY_DISCARD = 47
    WAR_MARKER = 48
    BURN_SPARE = 49
    CABILDO_OWN = 50
    CABILDO_OTHER = 51
    WALL_STOP = 52
    USE_GAIN = 53
    USE_IDLE = 54
    TARGET_STOP = 55
    REACT_CHARACTER = 56
    REACT_AFFILIATE = 57
    VOTE_TILE_ALONE = 58
    VOTE_WIN = 59
    CH_WALL_ROAD = 60
    CH_MAJOR = 61
    CH_CAPTAIN = 62
    CH_ARCHITECT = 63
    CH_GOVERNOR = 64
    CH_NOBLEWOMAN = 65
    VP_WAIT_SCORING = 66
    VP_WAIT_LATER = 67
    XW_WOUND = 68
    XW_PILLAGE_AHEAD = 69
    XW_NEAR = 70
    XW_BLOCK = 71
    XW_MOVE = 72
    XW_DEFEND_HP = 73
    SERIES = 74


# The coefficients' defaults: the values the valuation held as literals (the same float64 values,
# so the same games). "x city" etc.: the coefficient multiplies that feature weight.
K_DEFAULT = {
    # TURN rows: the city (_city_gain, _build_value, _turn_base)
    K.LOT_BASE: 1.0,  # a Lot's city VP by itself (x city): it holds a space in the district before the House comes
    K.LOT_HOUSE: 0.5,  # the share of the House a Lot leads to that the Lot is worth (x the House's city VP): half, as the House still has to be built
    K.MARKER_CITY: 1.0,  # a Status marker put on a Monument or Fountain: the city VP it adds (x city)
    K.MARKER_STATUS: 0.5,  # ... and the Status it costs (x status): half a level, the marker leaving the player board
    K.REMOVE_CITY: 5.0,  # removing one's own House or Palace: the city VP lost (x city), taken as 5 (what it scores is not looked up)
    # TURN rows: cards and workers (_turn_base)
    K.CARD_BUY: 1.5,  # a card bought from the market, in drawn cards (x card): one chosen, not drawn blind
    K.REACTIVATE: 0.5,  # a spent card turned upright, in cards (x card; REACTIVATE, the free reactivation, cards 60, 64): half a new card, used once
    K.RECOVER_WORKERS: 2.0,  # the workers Recover Workers takes back from an incomplete grid (x worker): taken as 2, not counted
    # Affiliate cards used in a turn (_card_value)
    K.CARD_SPENT: 0.25,  # a card rotated by its use, in cards (x card; also card 59 fighting in a War): a quarter, until it is reactivated
    K.GRID_CARD_VP: 0.6,  # per City Council worker a card puts on a Major building grid, in VP (x vp): the grid's progress toward completion
    K.GRID_CARD_CLOSE: 3.0,  # ... the VP (x vp) when those workers fill the grid and the seat has a worker on it (the completion scores)
    K.C31_CITY: 1.0,  # card 31's free Wall piece, in city VP (x city): a step toward a closed district
    K.C62_HEAL: 0.5,  # card 62's healed wound, in AV (x military): half, the unit still there either way
    K.C76_TENSION: 0.5,  # card 76's tension step (Natives or Pirates), a value lost: a War comes nearer for everyone
    K.C83_GRIDS: 0.3,  # card 83's resources added to the grids, a small value: any player may take them
    K.C53_BANNER: 2.0,  # card 53's banner, in banner steps (x banner): a two-step banner
    K.PENALTY_STEP: 2.0,  # one War Penalty step, in VP (x vp): a War won, card 77 (a step left), an AV point short (a step right; a card burnt then)
    K.C28_USE: 0.5,  # card 28 (Warehouse resources at 1 VP each), a value lost beyond the VP: used only when the resources are worth more
    K.CARD_WORKER: 0.5,  # a worker a card saves or lends (45, 51, discounts 13, 19, 25, 58, 65, 84), x worker: half, the action may not be taken
    K.C45_WAIVE: 0.2,  # card 45's waived wood/stone/precious, per resource, in stone (x stone): a fifth, as the next main action may not cost them
    K.CARD_MODIFIER: 0.3,  # a card that modifies this turn's action without a gain modelled here (18, 24, 29, 30, 52, 66): a small value, so it is used
    # the other decisions (_option_value)
    K.GRID_CUBE: 0.01,  # per cube on the grid a cube is taken from: prefer full grids (a tie-breaker)
    K.BID_PASS: 1.0,  # auction for a contested Character card: passing (keeps the VP; with these values bots never bid)
    K.BID_LOW: 0.5,  # ... a bid of up to P.BID_LOW_MAX VP
    K.BID_HIGH: -1.0,  # ... a higher bid
    K.DRAW_DECK: 1.0,  # Phase A: drawing from the deck (unseen, maybe the seat's own Character group)
    K.DRAW_PILE: 0.5,  # ... taking the top of a pile (a card someone let go)
    K.KEEP_OWN: 2.0,  # keeping a drawn card of the seat's own Character group, in cards (x card): it counts toward that Character
    K.SALARY_VP: 2.0,  # Salary: the VP each unpaid card costs (x vp; the rules' 2, cards.salary_vp_per_unpaid)
    K.SALARY_DISCARD: 0.1,  # ... a value lost per card discarded on top of the card itself: paying wins a tie
    K.WAR_MARKER: 0.25,  # a War: per war-marker miniature sent to fight, in AV (x military): each takes a wound
    K.BURN_SPARE: -1.0,  # burning a card for AV when the War is won without it: a waste
    K.CABILDO_OWN: 3.0,  # placing the Cabildo: a value lost when it covers the seat's own building
    K.CABILDO_OTHER: 0.5,  # ... when it covers another player's building (not nothing: it could have stood elsewhere)
    K.WALL_STOP: 0.5,  # placing Walls: a value lost by stopping early (a Wall helps close the seat's districts)
    K.USE_GAIN: 1.0,  # a lightning card's trigger: using it when it brings something
    K.USE_IDLE: 0.5,  # ... a value lost by using it when it brings nothing (the card is spent)
    K.TARGET_STOP: 0.1,  # a step of a card power: a value lost by stopping (doing it beats stopping)
    K.REACT_CHARACTER: 2.0,  # reactivating one card: the seat's Character card, turned upright first
    K.REACT_AFFILIATE: 1.0,  # ... an Affiliate card
    # votes (_vote_value, _legislator_yes)
    K.VOTE_TILE_ALONE: 0.01,  # a side tile alone (no value tiles), a value lost: it changes no count, so abstaining wins the tie
    K.VOTE_WIN: 0.5,  # the legislator's law passing, beyond its VP (x the chance it passes): what the law itself does
    # Character progress (_character_progress, in about VP x Era; x character)
    K.CH_WALL_ROAD: 0.5,  # Defender and Roadmaker: per Wall or Road piece (card 31's Wall too), half the Character's VP per district: one takes several
    K.CH_MAJOR: 0.3,  # General (the Fort) and Bishop (the Cathedral): per worker on the Major building's grid, a share of its Character VP
    K.CH_CAPTAIN: 0.5,  # Captain: a Miliciano or a military activation, half the VP of a War won
    K.CH_ARCHITECT: 1.0,  # Architect: a building type new to its district
    K.CH_GOVERNOR: 0.3,  # Governor: an occupied space that neither half-fills nor fills its district
    K.CH_NOBLEWOMAN: 0.5,  # Noblewoman: a vote for Peace (for War: minus), half her VP: one vote may not decide the law
    # the VP status bonus (_vp_wait): waiting is worth this share of the bonus a larger assignation ahead would get
    K.VP_WAIT_SCORING: 1.0,  # ... one still to come in this Scoring, as the engine counts it: in full (a tie takes the bonus now)
    K.VP_WAIT_LATER: 0.75,  # ... one of this decade's coming Scoring, foreseen from the state now: three quarters (a majority may be lost)
    # EXTENDED WAR (strategies.war_policy): a War penalty is a War Penalty step (K.PENALTY_STEP x vp); a miniature is its War AV (x military)
    K.XW_WOUND: 0.5,  # a first wound, as a share of the removal the second brings (an attacker's or the seat's own miniature): half
    K.XW_PILLAGE_AHEAD: 1.0,  # heuristic: the War penalties an attacker left in the city still brings by pillage (while something is left to pillage)
    K.XW_NEAR: 0.5,  # heuristic: an attacker one district further away counts this share (per district) toward a position: it may come, or go elsewhere
    K.XW_BLOCK: 1.0,  # a district's only defender: per pillage flame it prevents (a threatening attacker fights it instead), in War penalties
    K.XW_MOVE: 0.01,  # a value lost per war movement: a move that brings nothing is not made (a tie-breaker)
    K.XW_DEFEND_HP: 0.5,  # heuristic: War penalties a defender saves per HP it brings to a war on or declared (a Miliciano, HP 2: 1 penalty)
    # Affiliate cards held, by colour (_series_change): the card series VP (SCORING PHASE, Cards series) a card taken,
    # kept, discarded or burnt adds or takes away at the Scorings to come (x vp). 0: a card is a card whatever its
    # colour (the heuristic as tuned); a strategy that counts series sets it (about 1: the rules' own VP)
    K.SERIES: 0.0,
}
COEFFICIENTS = [k.name.lower() for k in K]
WEIGHTS = FEATURES[1:] + COEFFICIENTS  # what a strategy file's weight tables set and `trinidad tune` tunes: slots 1.. in order


class P(IntEnum):
    """Strategy parameters after the weights in a W row (strategies.registry fills them): not values
    but settings of the policy's models, each with a range (:data:`P_RANGE`); the vote model's are
    set in a strategy file's ``[parameters]`` table, the rollout's in ``[rollout]``. ``trinidad
    tune`` leaves them alone: its box would take a chance below 0 or a divisor to 0."""

    VOTE_TIE = 75
    VOTE_YES_KEEP = 76
    VOTE_YES_WINNERS = 77
    VOTE_NO_WINNERS = 78
    VOTE_RIVALS = 79
    GREEDY_VOTE_CHANCE = 80
    VOTE_NO_WINS = 81
    BID_LOW_MAX = 82
    CANDIDATES = 83  # rollout: TURN options tried, the heuristic's best first
    ROLLOUTS = 84  # rollout: simulated continuations per candidate (common random numbers across candidates)
    HORIZON = 85  # rollout: 0 = simulate to the end of the current Era's scoring, 1 = to the end of the game
    PY_SLOT = 86  # python: index of the strategy object in strategies.python_bridge's registry
    # restricted-play probe (strategies.forced_play): the Act the seat takes at its first legal chance, 0 none; below 0,
    # the Act (-PROBE_ACT) the seat never takes while another main action is legal (strategies.policy.drop_forbidden)
    PROBE_ACT = 87
    PROBE_ARG = 88  # ... and the row's column a + 1 it must have (BUILD: the building type + 1; MAJOR: the Major building + 1), 0 any
    PROBE_PLAN = 89  # restricted-play plan probe (strategies.forced_play): PLAN_CITY, FORBID_CITY, FORBID_PRODUCTION, 0 none
    # rollout: a simulation's leaf counts each seat's Character card VP at the Scorings still to come, as the
    # leaf stands, times this weight (0: the VP margin alone)
    CHARACTER_AHEAD = 90
    # rollout: a simulation that reaches the game's end adds this many VP to its outcome when the seat wins
    # (END OF THE GAME: the most VP, then the most resources) and takes them away when it loses (0: the VP margin alone)
    WIN_BONUS = 91
    # search: the Acts a seat's play inside a search's simulations never takes while another main action is legal, a
    # bit mask (bit Act; strategies.policy.sim_forbids) ([search] rollout_forbid, set on the simulation's copy only;
    # strategies.policy.drop_forbidden), apart from PROBE_ACT so that a probed seat's simulations keep it as every
    # other seat's do; 0 none
    SIM_FORBID = 92


# P.PROBE_PLAN's codes (strategies.forced_play): a plan forced, or a group of BUILD rows forbidden
PLAN_CITY = 1  # the City plan: Lot > House > metal > Palace, each step at its first legal chance
FORBID_CITY = -1  # never BUILD a Lot, House or Palace (the City: 1-2 MINOR BUILDING CONSTRUCTION) while another main action is legal
FORBID_PRODUCTION = -2  # never BUILD a Production building (SCORING PHASE City: Market, Carpentry, Quarry; the rules' b_prod)


# The vote model's parameters ([parameters]): default (today's value), range, integer-valued
P_DEFAULT = {
    P.VOTE_TIE: 0.5,  # the chance a vote is won when "yes" and "no" are expected to tie (the legislator's, or a "no" of 1 vote)
    P.VOTE_YES_KEEP: 0.5,  # the chance a non-legislator's "yes" keeps its share: a unanimous "yes" gives every VP to the legislator
    P.VOTE_YES_WINNERS: 3.0,  # the winners a "yes" voter shares the VP with, itself included: three ways
    P.VOTE_NO_WINNERS: 2.0,  # the winners a "no" voter shares the VP with: itself and one more
    P.VOTE_RIVALS: 3.0,  # calling a vote out of reach: the VP the others share count as one rival in this many
    P.GREEDY_VOTE_CHANCE: 0.5,  # greedy's chance of winning a vote it calls for one council point: a coin flip
    P.VOTE_NO_WINS: 2.0,  # a "no" of this many votes is taken to win (bots' legislators usually cast 1 or 2), fewer to tie
    P.BID_LOW_MAX: 2.0,  # the highest bid that counts as low (K.BID_LOW), in VP
}
P_RANGE = {
    P.VOTE_TIE: (0.0, 1.0, False), P.VOTE_YES_KEEP: (0.0, 1.0, False), P.GREEDY_VOTE_CHANCE: (0.0, 1.0, False),
    P.VOTE_YES_WINNERS: (1.0, 5.0, False), P.VOTE_NO_WINNERS: (1.0, 5.0, False), P.VOTE_RIVALS: (1.0, 5.0, False),
    P.VOTE_NO_WINS: (1, 9, True), P.BID_LOW_MAX: (0, 99, True),
}
PARAMETERS = [p.name.lower() for p in P_DEFAULT]  # the [parameters] table's keys


def default_weights() -> np.ndarray:
    """A W row block (N_WEIGHTS) with every feature weight 0 and every named coefficient and vote
    parameter at its default: what a strategy file starts from."""
    row = np.zeros(N_WEIGHTS, np.float64)
    for k, v in K_DEFAULT.items():
        row[k] = v
    for p, v in P_DEFAULT.items():
        row[p] = v
    return row


assert set(K_DEFAULT) == set(K) and [int(k) for k in K] == list(range(N_FEATURES, N_FEATURES + len(K)))
assert set(P_DEFAULT) == set(P_RANGE) and min(P) == N_FEATURES + len(K) and max(P) < N_WEIGHTS
