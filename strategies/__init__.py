"""The players: strategy files and the jitted policy that plays them (random, greedy, heuristic, rollout, search and Python families).

They import the engine (:mod:`sim`) and are imported by the orchestration (:mod:`trinidad`); the
engine reaches them only through its seam, :mod:`sim.seam`.
"""
