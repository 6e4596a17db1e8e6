"""The trainers behind ``trinidad train`` and ``trinidad tune`` (trinidad.commands.train, .tune), one
module each: :mod:`.linear` (the search's per-Era linear evaluation by expert iteration),
:mod:`.on_play` (its first Eras' weights tuned on play), :mod:`.network` (the network evaluation,
TD(lambda)), :mod:`.candidates` (a network on the search's candidates), :mod:`.apprentice` (a network
fitted by DAgger to the rollout planner), :mod:`.heuristic` (a Character's heuristic weights against
a pool of heuristics) and :mod:`.heuristic_solo` (the heuristic's weights against the Solo A.I.).
What the self-play trainers share, the duel that promotes a candidate, is :mod:`.selfplay`.
"""
