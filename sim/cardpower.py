"""USE AN AFFILIATE CARD at a trigger: the low-level part every rule area can call.

Cards with the lightning symbol fire at a moment of the game, also out of their owner's turn
(a war is won, walls close a district, the Ship sails...). The rule area where that moment
happens asks :func:`offer`: the card's holder, if the card is upright in their hand, decides
(``Dec.USE_CARD``) whether to use it now; a used card is rotated and stays used until
reactivated ("A rotated card is considered used and cannot be used again until reactivated";
"Card powers cannot be postponed"). The turn-time powers are in sim.affiliates.
"""

from __future__ import annotations

# holder, use and offer live in sim.core (pay_coins needs them for card 78); re-exported here.
from sim.core import holder, offer, use

__all__ = ["holder", "offer", "use"]
