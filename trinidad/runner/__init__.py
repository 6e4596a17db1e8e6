"""Batch runs (``trinidad run``): an experiment's games in shards, played by its game's jitted
engine on local threads or as Ray tasks, streamed to Parquet. The runner knows no game: it calls the
experiment's game (:mod:`trinidad.games`: Trinidad, Río de la Plata) to play a chunk and to turn it
into the shard's tables.

The run directory's layout is :mod:`sim.dataset` (Trinidad's; Río de la Plata's: trinidad.games.rio).
A shard is (variant, player count, a range of game indices). Its files (one a table) are written to a
temporary name and renamed, the games file last: a shard is complete exactly when its games file
exists. Ctrl-C (or a killed process) leaves only complete shards, and ``--resume`` plays the
missing ones. Game ``i`` of player count ``n`` has seed ``game_seed(game_seed(master, n), i)``
(sim.rng) in every variant, so variants are compared on common seeds, and the tables do not
depend on threads, workers, backend or how the run was split.

A run with ``precision`` plays its shards as blocks, round after round, until each variant's rates
of interest are precise enough (:mod:`.sequential`: which blocks are played is a function of the
blocks written, so resume and the backends play the same ones).

Modules: :mod:`.run` (the command's jobs), :mod:`.shards` (shards and resume), :mod:`.local` and
:mod:`.ray_backend` (the two backends), :mod:`.sequential` (runs that stop when precise), :mod:`.manifest`,
:mod:`.summary`."""
