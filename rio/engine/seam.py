"""The seam between Río de la Plata's engine and its players: the one engine module that imports
:mod:`rio.players`. Numba needs a callee at compile time, so the engine names its players' decision
functions here, once; a test over the import graph keeps every other engine module free of rio.players."""

# Each block below: one player module's decision functions (appended by the module's author).

# rio.players.city_choices: road pieces, wall pieces, the Palace/Cathedral's ring space (RP-08, RP-09, RP-11)
from rio.players.city_choices import choose_ring_space, choose_road, choose_wall  # noqa: F401

# rio.players.policy: the placements (a seat's run of them begins, each placement), the effects (a seat's
# Effect turn begins, each effect), the order track, the Master Merchant's cube
from rio.players.policy import (  # noqa: F401
    choose_effect,
    choose_merchant_cube,
    choose_placement,
    choose_position,
    effects_begin,
    placements_begin,
)

# rio.players.war_policy: the war's decisions (rio.engine.war)
from rio.players.war_policy import (  # noqa: E402, F401
    war_bet,
    war_bonus,
    war_buy,
    war_consent,
    war_dest,
    war_keep,
    war_pick,
    war_split,
    war_token,
    war_victim,
)
