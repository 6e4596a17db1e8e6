"""``trinidad balance SPEC`` (issue 96, item 3): rule changes that bring every group of a game (Trinidad's
Characters) within a tolerance of its fair share, and every other target of the spec into its band (the
seats, the player's beat rate against the Solo A.I., how often a record is held), found on common seeds with
as few rules numbers moved as the target allows, and verified on seeds the search never used.

Modules: :mod:`.spec` (the spec file, checked before any game), :mod:`.search` (the rounds: paired finite
differences, the linearised step of :mod:`analysis.balance_search`, the confirming rounds), :mod:`.verify`
(the verification run, its report, the proposal's override file and the balance summary). Every game is
played by the runner (:mod:`trinidad.runner`) as an experiment of the spec's game (:mod:`trinidad.games`),
so the local threads and Ray play them alike and the same spec and seed give the same proposal on any
number of workers."""
