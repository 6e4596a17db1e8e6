"""The seam between the engine and its players: the one engine module that imports
:mod:`strategies`.

Every decision the rules give a player reaches the players here: :func:`sim.core.decide` calls
``choose`` (one of the legal options ``st.opts[:n]``), and the TURN listing of
:mod:`sim.actions` calls ``choose_grouped`` / ``turn_groups_ok`` (the same pick over BUILD rows
listed as groups). Numba needs the callee at compile time, so the engine cannot be handed its
players as arguments; it names them here, once. Players that search (the rollout family) play
whole turns one level up, in :mod:`strategies.match`, and decide through this seam inside their
simulations. A test over the import graph keeps every other engine module free of
``strategies``.
"""

from strategies.policy import choose, choose_grouped, turn_groups_ok

__all__ = ["choose", "choose_grouped", "turn_groups_ok"]
