"""Integer codes shared by the engine, the policies and the log: decisions, actions, laws, events."""

from enum import IntEnum


class Dec(IntEnum):
    """Decision points: every choice the rules give a player goes through the policy with one of these."""

    TURN = 0  # main action or free action (option rows: Act, a, b, c, d)
    GRID = 1  # which resource grid to take a cube from (a = grid index)
    STACK = 2  # which coin stack to take a coin from (a = stack, b = 1 when making change)
    CHAR_PICK = 3  # Character offer: card to put a disk on (a = card id)
    BID = 4  # auction: a = 0 pass, else the bid in VP
    FIRST_GAME_KEEP = 5  # First Game Option: which of the dealt Characters to keep
    DRAW_SOURCE = 6  # Phase A: a = -1 draw from the deck, else take the top of pile a
    KEEP = 7  # keep a drawn card (a = card id) or none (a = -1)
    SALARY = 8  # a = 0: discard card b; a = 1: pay b bronze and end
    VOTE = 9  # a = side (0 abstain, 1 yes, 2 no), b = votes from value tiles
    WAR_FIGHT = 10  # a = bitmask of war-marker slots whose miniatures fight
    WAR_BURN = 11  # a = card id to burn for +1 AV, or -1 to stop
    PLACE_CABILDO = 12  # a = cell
    PLACE_CATHEDRAL = 13  # a = first cell, b = second cell
    PLACE_WALL = 14  # a = perimeter segment, or -1 to stop
    PLACE_ROAD = 15  # a = district
    VP_BONUS = 16  # a = 1: apply the VP status bonus to this VP assignation, 0: wait (b = its bonus, c = the bonus ahead, -1 unknown)
    REACTIVATE = 17  # a = card id to turn upright, or -1 to stop
    MAJOR_ACT_SPACES = 18  # reserved (the legislator's City Council workers take the best spaces)
    USE_CARD = 19  # a lightning card's trigger: a = 0 keep it, 1 use it now (b = card id)
    # a step of a card power: a = the choice, b = card id; except a scoring card's district rows
    # (cards 36, 42, 54, 68, 71: [VP gained, district, card id, ...]; card 67: [district, extra, card id])
    CARD_TARGET = 20
    # the Solo A.I.'s tie ("If there is a tie in A.I.'s decision, the human-player first in turn order
    # chooses what to do"), asked of that human seat: a = AiTie, then b, c, d (by AiTie)
    AI_TIE = 21
    # EXTENDED WAR (sim.extended_war). XW_TARGET: which player miniature an attacker fights among those
    # tied for the least HP, asked of the first player in turn order: a = seat, b = war marker slot, c = HP,
    # d = the attacker's tile
    XW_TARGET = 22
    # the attacker's movement tie, asked of the first player in turn order: a = district it steps into,
    # b = the district aimed at, c = steps to it, d = player HP there, e = the attacker's tile
    XW_MOVE_TIE = 23
    # a fighting player's card (FIGHT! 2): a = card id (-1: no more cards), b = XwUse, c = AV so far, d = opponent AV so far
    XW_CARD = 24
    # a player's war action in its turn (PLAYER WAR ACTIONS): a = XwAct, b = war marker slot, c = district or
    # attacker tile, d = card id burnt for the extra movement (-1 none), e = the seat whose miniature it is
    XW_ACTION = 25
    # where a card moves a miniature (cards 41, 70): a = district, b = card id, c = its seat, d = its war marker slot
    XW_CARD_MOVE = 26
    # card 83: a = 1 add the Miliciano on war marker slot b, 0 not
    XW_RECRUIT = 27
    # DEFENDERS PLACEMENT: where a miniature goes in the Combat Area: a = district, b = war marker slot, c = its seat,
    # d = 1 when card 54 is used to place a Soldier there
    XW_DEPLOY = 28


N_DEC = len(Dec)


class XwUse(IntEnum):
    """How a fighting player uses a card (``Dec.XW_CARD`` column b): FIGHT! 2."""

    WAR_POWER = 0  # its red text (the card is rotated)
    BURN_AV = 1  # burnt for +5 AV
    BURN_FACTOR = 2  # burnt for x2 AV
    BURN_MOVE = 3  # burnt for 1 additional movement (a war action's MOVE row, column d)


class XwAct(IntEnum):
    """A player's war action (``Dec.XW_ACTION`` column a): PLAYER WAR ACTIONS."""

    DONE = 0  # no more war actions this turn
    MOVE = 1  # c = the adjacent district
    FIGHT = 2  # c = the attacker's tile (in the miniature's district)


class WP(IntEnum):
    """Kinds of the red war powers of the Affiliate cards (rules ``extended_war.power``; CARD REFERENCE)."""

    NONE = 0
    AV = 1  # +av
    REMOVE_WOUND_AREA = 2  # card 16: remove own miniature, 1 wound to all in the district and 1 adjacent
    AV_PER_OPPONENT_NEAR = 3  # card 17: +standard_av / +elite_av per opponent in the district and 1 adjacent
    IMMOBILISE = 4  # card 22: remove own miniature; all in the district and adjacent ones cannot move next turn
    AV_PER_MOVE = 5  # card 23: +av per movement made before the fight
    SWAP_BONUS = 6  # card 28: the holder takes the best card bonus, the opponent the worst
    WOUND_WINNERS = 7  # card 29: every opponent in the district takes a wound if they win
    WALLS_FACTOR = 8  # card 34: double the walls bonus or ignore it
    CANCEL_LOWER = 9  # card 35: cancel the opponent's lowest-numbered card
    CANCEL_HIGHER = 10  # card 64: cancel the opponent's highest-numbered card
    AV_PER_WOUNDED_NEAR = 11  # card 40: +av per wounded opponent in the district and adjacent ones
    FREE_MOVE_NEAREST = 12  # card 41: the nearest friendly miniature moves 1 district, no fight
    STANDARD_AS_ELITE = 13  # card 46
    ELITE_AS_STANDARD = 14  # card 47
    WOUND_BEFORE = 15  # cards 52, 59, 71: a wound to the opponent before the fight
    SHIELD = 16  # cards 53, 58, 82
    HEAL_AREA = 17  # card 65: heal 1 wound of every own-side miniature in the district and adjacent ones
    MOVE_AWAY = 18  # card 70: move 1 district, the fight has no result
    AV_PER_FIGHT = 19  # card 76: +av per fight of the holder's side this turn, this one included
    FIGHT_AGAIN = 20  # card 77: survive, then move 1 and/or fight again at +av
    RECRUIT = 21  # card 83: a Standard miniature joins the holder's side when the opponent is removed


WP_NAMES = [w.name.lower() for w in WP]


class AiTie(IntEnum):
    """What an A.I. tie (``Dec.AI_TIE``) is about; the row's other columns."""

    UPGRADE = 0  # b = the A.I.'s Lot or House to upgrade (cell), c = that building (B.LOT or B.HOUSE)
    DISTRICT = 1  # b = the district its new building goes to, c = its buildings there
    STATUS = 2  # b = Status category, c = the new level
    GRID = 3  # b = the Major building grid its workers go on, c = how many (3, fewer when fewer spaces are left)
    PLACE = 4  # b = the decision (Dec.PLACE_*), c, d = that decision's row (a Major building's place)


class AiCard(IntEnum):
    """The actions of the Solo cards (ruling R-11; rules ``solo.deck``)."""

    BUILD = 0  # build a Lot / House / Palace (2-3 workers)
    QUARRY = 1  # 2 stone from the grids (1 worker)
    CARPENTRY = 2  # 2 wood from the grids (1 worker)
    MARKET = 3  # a sale (1 worker)
    MAJOR = 4  # 3 workers on the Major grid with the most workers
    COUNCIL = 5  # City Council +3 (1 worker)
    SHIP = 6  # Load the Ship (2 workers)
    TAKE_CARD = 7  # Take a card (2 workers)
    MILICIANO = 8  # Deploy Milicianos (1 worker)
    STATUS = 9  # Improve Status, the lowest legal (2 workers)
    ORDER = 10  # Player Order (1 worker)


class Act(IntEnum):
    """Option rows of a TURN decision: main actions (1-11) and free actions."""

    PASS = 0
    BUILD = 1  # a = building type, b = cell
    ACTIVATE = 2  # a = activation row, b = cell
    REMOVE = 3  # a = cell of own House/Palace
    MILICIANO = 4  # a = 0 deploy new (b = slot), 1 upgrade to veteran (b = slot)
    SHIP = 5  # a = load row
    CARD_DRAW = 6
    CARD_PILE = 7  # a = pile (-1 game discard, else seat)
    CARD_BUY = 8  # a = card id
    REACTIVATE = 9  # a = workers
    ORDER = 10  # a = workers
    COUNCIL = 11  # a = workers (1 or 2)
    STATUS = 12  # a = category (0 construction, 1 worker, 2 VP, 3 cards)
    MAJOR = 13  # a = Major building, b = workers
    F_VOTE = 20  # a = Law, b = parameter (Major building, or 0 current / 1 next decade)
    F_BURN = 21  # a = card id
    F_WAREHOUSE = 22  # a = 0 wood, 1 stone
    F_RECOVER = 23  # a = Major building
    F_REMOVE_LOT = 24  # a = cell
    F_CC_WORKER = 25  # a = payment: 0 bronze, 1 wood, 2 stone, 3 free
    F_FREE_REACT = 26  # Card status II: Reactivate Cards as a free action
    F_CARD = 27  # USE AN AFFILIATE CARD: a = card id, b and c = its targets (sim.affiliates)


N_ACT = max(Act) + 1  # codes, not slots: the free actions start at FIRST_FREE_ACT
FIRST_FREE_ACT = 20


class Ch(IntEnum):
    """Character cards (card id = character group, R-09 order)."""

    CARPENTER = 0
    STONEMASON = 1
    MERCHANT = 2
    DEFENDER = 3
    ROADMAKER = 4
    SAILMAKER = 5
    GENERAL = 6
    CAPTAIN = 7
    BISHOP = 8
    ARCHITECT = 9
    GOVERNOR = 10
    NOBLEWOMAN = 11


class Law(IntEnum):
    """CITY COUNCIL VOTE laws."""

    MAJOR_BUILDING = 0
    PEACE = 1
    WAR = 2
    SPAIN = 3


class Side(IntEnum):
    """CITY COUNCIL VOTE: the side a player's fist takes (an empty fist abstains)."""

    ABSTAIN = 0
    YES = 1
    NO = 2


class Ev(IntEnum):
    """Event log codes (sim/log.py turns them into sentences)."""

    SETUP_ORDER = 0  # seat, pos
    START_RES = 1  # seat, wood, stone, silver, bronze
    OFFER = 2  # card
    DISK = 3  # seat, card
    BID = 4  # seat, card, bid (0 = pass)
    CHARACTER = 5  # seat, card, price
    AFFILIATE_START = 6  # seat, card
    DECADE = 7  # decade, era
    DRAW = 8  # seat, drawn, kept (-1 none)
    TAKE_PILE = 9  # seat, pile, card
    SALARY = 10  # seat, cards, free, paid bronze, unpaid, discarded
    BUILD = 11  # seat, type, cell, workers, wood, stone, precious, metal
    ACTIVATE = 12  # seat, row, cell
    REMOVE = 13  # seat, type, cell
    MILICIANO = 14  # seat, kind, slot
    SHIP = 15  # seat, load
    CARD_BUY = 16  # seat, card, from seat
    REACTIVATE = 17  # seat, workers
    ORDER = 18  # seat, workers
    COUNCIL = 19  # seat, workers, gain, new value
    STATUS = 20  # seat, category, level
    MAJOR = 21  # seat, major, own workers, cc workers, placed spaces
    COMPLETE = 22  # major, seat, cell
    WALL = 23  # seat, segment, district closed (1/0)
    ROAD = 24  # seat, district
    VOTE_CALL = 25  # seat, law, param
    VOTE = 26  # seat, side, votes
    VOTE_RESULT = 27  # approved, yes, no, tie decided by council (1/0)
    BURN = 28  # seat, card
    WAREHOUSE = 29  # seat, res
    RECOVER = 30  # seat, major, workers
    REMOVE_LOT = 31  # seat, cell
    CC_WORKER = 32  # seat, n, pay
    SHIP_PAY = 33  # seat, load, silver, bronze, metal, faith
    TENSION = 34  # faction (1 natives, 2 pirates), steps, reason, pos, double
    WAR = 35  # faction, base, modifier, walls reduction, WA, 0 the normal War / EXTENDED WAR: 1 fought next decade, 2 at once
    FIGHT = 36  # seat, av, result, penalty change, council change
    MINI_LOST = 37  # seat, kind
    PEACE = 38  # decade
    ORDER_NEW = 39  # seat, pos
    SCORING = 40  # era
    GAME_END = 41  # seat, vp, rank, winner
    VP = 42  # seat, amount, source, total
    PASS = 43  # seat
    LAW = 44  # law, param, effect
    BANNER = 45  # seat, banner, level
    NO_WAR = 46  # reason (0 no tension, 1 peace)
    CARD_ROTATE = 47  # seat, card
    RESHUFFLE = 48  # cards in deck
    TIE_BREAK = 49  # seat, resources
    REACTIVATED = 50  # seat, card
    WORKERS_BACK = 51  # seat, major, workers, vp
    DISCARD_TOP = 52  # card, natives, pirates
    DISPLACED = 53  # type, cell, owner
    MINI_UPGRADE = 54  # seat, slot, kind
    FIRST_GAME = 55  # seat, kept, removed
    CARD_USE = 56  # seat, card
    CARD_EFFECT = 57  # seat, card, a, b, c
    VP_WAIT = 58  # seat, bonus declined, bonus on the larger assignation still to come (-1: not told)
    AI_CARD = 59  # seat, Solo card, action (AiCard), 1 played / 0 cannot be played, workers
    AI_DECK = 60  # the A.I. deck is made again (shuffled, 2 face up under it)
    AI_RANDOM = 61  # randomizer: Affiliate card number, row (0 top, 1 bottom), count, cell (-1 none)
    AI_GAIN = 62  # seat, what (0 wood, 1 stone, 2 precious, 3 bronze-value of coins), amount
    # EXTENDED WAR (sim.extended_war)
    XW_SETUP = 63  # faction, elite, standard, row, column
    XW_PLACE = 64  # tile, card, attacker kind (AK), edge district, edge side, initiative
    XW_MOVE = 65  # side (0 player, 1 attacker), seat or -1, slot or tile, from district (-1 outside), to district
    XW_PILLAGE = 66  # tile, district, flames, players with a building there (bit mask of seats)
    XW_FIGHT = 67  # seat, slot, tile, player AV, attacker AV, winner side (0 player, 1 attacker, -1 none)
    XW_CARD = 68  # side, seat or -1, card, use (XwUse), cancelled (1/0)
    XW_WOUND = 69  # side, seat or -1, slot or tile, wounds now
    XW_REMOVED = 70  # side, seat or -1, slot or tile, defeating seat (-1 none)
    XW_END = 71  # faction, pillage score, attackers left
    XW_PENALTY = 72  # seat, penalties, cancelled by control cards, steps (negative: left), council change
    XW_DEPLOY = 73  # seat, slot, district


class Card(IntEnum):
    """Affiliate card ids (card number - 1), named by their number."""

    C13 = 12
    C14 = 13
    C15 = 14
    C16 = 15
    C17 = 16
    C18 = 17
    C19 = 18
    C20 = 19
    C21 = 20
    C22 = 21
    C23 = 22
    C24 = 23
    C25 = 24
    C26 = 25
    C27 = 26
    C28 = 27
    C29 = 28
    C30 = 29
    C31 = 30
    C32 = 31
    C33 = 32
    C34 = 33
    C35 = 34
    C36 = 35
    C37 = 36
    C38 = 37
    C39 = 38
    C40 = 39
    C41 = 40
    C42 = 41
    C43 = 42
    C44 = 43
    C45 = 44
    C46 = 45
    C47 = 46
    C48 = 47
    C49 = 48
    C50 = 49
    C51 = 50
    C52 = 51
    C53 = 52
    C54 = 53
    C55 = 54
    C56 = 55
    C57 = 56
    C58 = 57
    C59 = 58
    C60 = 59
    C61 = 60
    C62 = 61
    C63 = 62
    C64 = 63
    C65 = 64
    C66 = 65
    C67 = 66
    C68 = 67
    C69 = 68
    C70 = 69
    C71 = 70
    C72 = 71
    C73 = 72
    C74 = 73
    C75 = 74
    C76 = 75
    C77 = 76
    C78 = 77
    C79 = 78
    C80 = 79
    C81 = 80
    C82 = 81
    C83 = 82
    C84 = 83
