"""Research tools, run as ``python -m trinidad.lab.<tool>`` and kept apart from the commands a
designer uses: :mod:`.policy_gap` (the search's choices beside its simulated self's),
:mod:`.tuning` (the tuned heuristic against the untuned one, docs/notebook/tuning.md) and
:mod:`.compile_progress` (what the engine compiles and how far along it is; a suite's compile
summed up) and :mod:`.ab_speed` (Trinidad's engine speed against another commit: alternating runs
and valgrind's instruction count).
"""
