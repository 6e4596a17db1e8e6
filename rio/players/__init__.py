"""Río de la Plata's players: the policies the engine asks through :mod:`rio.engine.seam` (random, the
heuristic family with its archetypes, the war policy, the search player). Each seat plays a
:class:`rio.players.kinds.Policy` row: its kind and its weights."""
