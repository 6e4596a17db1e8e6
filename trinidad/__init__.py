"""trinidad-sim's orchestration layer: the ``trinidad`` command, batch runs, experiments,
benchmarks, tournaments and tuning.

It imports the engine (:mod:`sim`) and the players (:mod:`strategies`) and is imported by
neither: the engine reaches its players through one seam (:mod:`sim.seam`), and the players
reach the engine directly.
"""
