"""The Río de la Plata engine package: the second game on the trinidad-sim harness.

Río de la Plata (Michele Quondam, Giochix 2010), rulebook 2.03. Its rules are data
(``rio/rulesdata/rio-de-la-plata.toml``, every number tagged with its rulebook section or ruling),
read and packed by :mod:`rio.rules` (the front door over :mod:`rio.keys`, :mod:`rio.tags`,
:mod:`rio.overrides` and :mod:`rio.packing`; plain Python and numpy); :mod:`rio.formulas` holds the
rulebook's small formulas over the packed rules. Importing this package compiles nothing.
"""
