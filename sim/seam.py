"""The seam between the engine and its players: the one engine module that imports
:mod:`strategies`.

Every decision the rules give a player reaches the players here: :func:`sim.core.decide` calls
``choose`` (one of the legal options ``st.opts[:n]``), and the TURN listing of
:mod:`sim.actions` calls ``choose_grouped`` / ``turn_groups_ok`` (the same pick over BUILD rows
listed as groups) and ``drop_forbidden`` (the rows a restricted-play probe takes from a seat).
Numba needs the callee at compile time, so the engine cannot be handed its
players as arguments; it names them here, once. Players that search (the rollout family) play
whole turns one level up, in :mod:`strategies.match`, and decide through this seam inside their
simulations. A test over the import graph keeps every other engine module free of
``strategies``.

The players' own fields of the state record (their weights, the policy's scratch and memos) are the
players' too (:mod:`strategies.seats`): the engine allocates them with the state (``seat_data``),
hands each seat its weights at SETUP (``seat_weights``, ``character_weights``) and copies them into
a simulation's state (``copy_seat_data``), all through here, and never reads them.
"""

from strategies.policy import choose, choose_grouped, drop_forbidden, drop_sim_forbidden, turn_groups_ok
from strategies.seats import character_weights, copy_seat_data, seat_data, seat_weights

__all__ = ["choose", "choose_grouped", "drop_forbidden", "drop_sim_forbidden", "turn_groups_ok",
           "seat_data", "seat_weights", "character_weights", "copy_seat_data"]
