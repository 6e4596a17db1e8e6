"""Strategy files: ``strategies/*.toml`` give a name, a family and weights over named features
and named valuation coefficients (strategies.policy ``WEIGHTS``; a coefficient left out keeps its
default, a feature left out is 0), and optionally the vote model's ``[parameters]``.

``load_strategies(names)`` validates the files and returns the weight matrix ``W`` (one row per
strategy id, column 0 = family) used by the jitted policy entry point; :func:`compile_players`
wraps it as :class:`Players`, what the orchestration hands its workers (compiled once per run).

A file holding only ``alias = "NAME"`` is another name for strategy NAME (``best.toml``: the top
rung of the ladder), followed wherever a name is loaded; :func:`resolve` says what it names.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.codes import Act, Ch
from sim.state import N_CHARACTERS
from strategies import python_bridge
from strategies.apprentice import (
    AB_B1,
    AB_B2,
    AB_BLOCK,
    AB_MODE_ON,
    AB_MU,
    AB_ON,
    AB_ROWS,
    AB_SD,
    AB_W1,
    AB_W2,
    APPRENTICE_OFFSET,
    HIDDEN,
    N_IN,
    input_names,
    one_hot_inputs,
)
from strategies.policy import (
    FAMILY_GREEDY,
    FAMILY_HEURISTIC,
    FAMILY_PYTHON,
    FAMILY_RANDOM,
    FAMILY_ROLLOUT,
    FAMILY_SEARCH,
    P_RANGE,
    PARAMETERS,
    WEIGHTS,
    P,
    default_weights,
)
from strategies.rollout import MAX_CANDIDATES
from strategies.search import SB
from strategies.value_model import (
    CHARACTER_FEATURES,
    MODEL_NETWORK,
    MODEL_PRIOR,
    N_STAGES,
    N_VF,
    NET_B1,
    NET_B2,
    NET_HIDDEN,
    NET_IN,
    NET_MU,
    NET_OFFSET,
    NET_SD,
    NET_W1,
    NET_W2,
    SEARCH_BLOCK,
    SEARCH_OFFSET,
    VF_NAMES,
    prior_model,
    value_offset,
)
from strategies.weights import N_WEIGHTS

STRATEGY_DIR = Path(__file__).parent
FAMILIES = {"random": FAMILY_RANDOM, "greedy": FAMILY_GREEDY, "heuristic": FAMILY_HEURISTIC, "rollout": FAMILY_ROLLOUT,
            "python": FAMILY_PYTHON, "search": FAMILY_SEARCH}
PY_PREFIX = "py:"  # a strategy name "py:MODULE:CLASS" or "py:path/file.py:CLASS" (strategies.python_bridge)
# [rollout] keys: (W slot, allowed range)
ROLLOUT_KEYS = {"candidates": (P.CANDIDATES, 1, MAX_CANDIDATES), "rollouts": (P.ROLLOUTS, 0, 1024)}
HORIZONS = {"era": 0, "game": 1}
MAX_CHARACTER_AHEAD = 4.0  # [rollout] character_ahead: a weight on VP still to come; above a few it would outweigh the VP scored
MAX_WIN_BONUS = 1000.0  # [rollout] win_bonus (VP): far above any margin a game reaches, so the win alone decides
MAX_MIN_DECADES = 30  # [rollout] min_decades: above the longest game (12 decades) it is the game's end
# W columns: block 0 = the strategy's weights, block 1 + c = its weights when holding Character c
# (sim.game.setup switches each seat to its Character's block once Characters are dealt), then the
# search block (strategies.value_model: the search family's parameters and evaluation model), then the
# apprentice block (strategies.apprentice: a rollout strategy's network policy)
W_COLUMNS = SEARCH_OFFSET + SEARCH_BLOCK + AB_BLOCK
assert APPRENTICE_OFFSET == SEARCH_OFFSET + SEARCH_BLOCK
# [search] keys: (slot, allowed range)
APPRENTICE_ROWS = 24  # a search file's apprentice ranks the base heuristic's best this many rows (the table planner's candidates)
SEARCH_KEYS = {"budget": (SB.BUDGET, 0, 100_000), "width": (SB.WIDTH, 1, 1024), "horizon": (SB.HORIZON, 0, 30), "war": (SB.WAR, 0, 1)}
# [search] rollout_forbid: the actions (sim.codes.Act, main or free) a seat's simulated self may be kept from: any but PASS,
# the one a turn can always end with (B. ACTION PHASE)
ROLLOUT_FORBID = [a.name.lower() for a in Act if a != Act.PASS]
# [search] rollout_forbid_seats: whose play inside the simulations the forbid holds (its index: the SB slot's value)
ROLLOUT_FORBID_SEATS = ["self", "all"]
# [search] network_at: where a search strategy's network values (strategies.value_model.MODEL_NETWORK / MODEL_PRIOR)
NETWORK_AT = {"leaves": MODEL_NETWORK, "candidates": MODEL_PRIOR}
VALUE_DIR = STRATEGY_DIR / "values"
CHARACTER_KEYS = [c.name.capitalize() for c in Ch]


class StrategyError(ValueError):
    """A strategy file is invalid; the message is one line naming the file and key."""


def available() -> list[str]:
    """The strategy names in strategies/, aliases included."""
    return sorted(p.stem for p in STRATEGY_DIR.glob("*.toml"))


def listing() -> str:
    """The available names for a message, each alias with what it names (``best = rollout``)."""
    al = aliases()
    return ", ".join(f"{n} = {al[n]}" if n in al else n for n in available())


def _path(name: str) -> Path | None:
    """The strategy file a name stands for (None for ``py:`` names)."""
    if name.startswith(PY_PREFIX):
        return None
    p = Path(name)
    return p if p.suffix == ".toml" else STRATEGY_DIR / f"{name}.toml"


def _alias_doc(path: Path) -> dict | None:
    """An alias file's table (``alias``, optional ``solo`` and ``description``), or None when the file
    is a strategy of its own (or unreadable: loading it then says why)."""
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError):
        return None
    if "alias" not in doc:
        return None
    extra = sorted(set(doc) - {"alias", "solo", "description"})
    if extra:
        raise StrategyError(f"strategy {path.name}: {extra[0]}: an alias file holds only alias, solo (and description)")
    for key in ("alias", "solo"):
        if key in doc and (not isinstance(doc[key], str) or not doc[key].strip()):
            raise StrategyError(f"strategy {path.name}: {key}: expected the name of another strategy, got {doc[key]!r}")
    return doc


def _alias_of(path: Path, solo: bool = False) -> str | None:
    """The name an alias file stands for (with ``solo``, in games with the Solo A.I.: its ``solo``
    name when it gives one), or None when the file is a strategy of its own."""
    doc = _alias_doc(path)
    if doc is None:
        return None
    return (doc["solo"] if solo and "solo" in doc else doc["alias"]).strip()


def resolve(name: str, solo: bool = False) -> str:
    """The strategy an alias names, followed to a file that is not an alias; any other name as it is.
    ``solo``: in a game with the Solo A.I. (TWO PLAYERS GAME & SOLO MODE: the Solo game, 2 players +
    A.I.), an alias file's ``solo`` name is followed instead of its ``alias`` (``best.toml``: the
    strongest shipped player against the A.I. need not be the strongest at a table of players, as
    a player count may have its own player)."""
    seen = [name]
    while (p := _path(name)) is not None and p.exists() and (target := _alias_of(p, solo)) is not None:
        if target in seen:
            raise StrategyError(f"strategy {p.name}: alias: a cycle ({' -> '.join(seen + [target])})")
        seen.append(target)
        name = target
    return name


def aliases() -> dict[str, str]:
    """Every alias in strategies/ and the strategy it names (:func:`resolve`)."""
    return {p.stem: resolve(p.stem) for p in sorted(STRATEGY_DIR.glob("*.toml")) if _alias_of(p) is not None}


def _weights(path: Path, key: str, table, base: np.ndarray) -> np.ndarray:
    """``base`` with the weights ``table`` sets (WEIGHTS[i] is slot 1 + i)."""
    if not isinstance(table, dict):
        raise StrategyError(f"strategy {path.name}: {key}: expected a table of weight = number")
    row = base.copy()
    for k, v in table.items():
        if k not in WEIGHTS:
            raise StrategyError(f"strategy {path.name}: {key}.{k}: unknown weight; allowed: {', '.join(WEIGHTS)}")
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise StrategyError(f"strategy {path.name}: {key}.{k}: expected a number, got {v!r}")
        row[1 + WEIGHTS.index(k)] = float(v)
    return row


def _parameters(path: Path, table, base: np.ndarray) -> np.ndarray:
    """``base`` with the vote model's parameters ``table`` sets, each in its range (policy.P_RANGE)."""
    if not isinstance(table, dict):
        raise StrategyError(f"strategy {path.name}: parameters: expected a table of parameter = number")
    row = base.copy()
    for k, v in table.items():
        if k not in PARAMETERS:
            raise StrategyError(f"strategy {path.name}: parameters.{k}: unknown parameter; allowed: {', '.join(PARAMETERS)}")
        slot = P[k.upper()]
        lo, hi, integer = P_RANGE[slot]
        kind = "an integer" if integer else "a number"
        if isinstance(v, bool) or not isinstance(v, int if integer else (int, float)) or not lo <= v <= hi:
            raise StrategyError(f"strategy {path.name}: parameters.{k}: expected {kind} {lo}..{hi}, got {v!r}")
        row[slot] = float(v)
    return row


def load_strategy_file(path: Path) -> np.ndarray:
    """One W row: ``family``, ``[weights]``, optional ``[parameters]`` and optional
    ``[characters.<Name>]`` tables, each the weights that change when the seat holds that Character
    (the rest as in ``[weights]``)."""
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise StrategyError(f"strategy {path.name}: {e}") from None
    if "alias" in doc:
        return _file_row(resolve(str(path)))
    allowed = ["name", "description", "family", "weights", "parameters", "characters", "base", "rollout", "python", "search"]
    unknown = set(doc) - set(allowed)
    if unknown:
        raise StrategyError(f"strategy {path.name}: {sorted(unknown)[0]}: unknown key; allowed: {', '.join(allowed)}")
    fam = doc.get("family")
    if fam not in FAMILIES:
        raise StrategyError(f"strategy {path.name}: family: allowed: {', '.join(FAMILIES)}, got {fam!r}")
    if fam == "rollout":
        return _rollout_row(path, doc)
    if fam == "search":
        return _search_row(path, doc)
    if fam == "python":
        if not isinstance(doc.get("python"), str):
            raise StrategyError(f"strategy {path.name}: python: expected \"MODULE:CLASS\" or \"path/file.py:CLASS\"")
        return python_row(doc["python"], path.name)
    for k in ("base", "rollout", "python", "search"):
        if k in doc:
            only = {"python": "python", "search": "search"}.get(k, "rollout")
            raise StrategyError(f"strategy {path.name}: {k}: only for family = \"{only}\"")
    base = default_weights()
    base[0] = FAMILIES[fam]
    base = _weights(path, "weights", doc.get("weights", {}), base)
    base = _parameters(path, doc.get("parameters", {}), base)
    row = np.zeros(W_COLUMNS, np.float64)
    row[:N_WEIGHTS] = base
    chars = doc.get("characters", {})
    if not isinstance(chars, dict):
        raise StrategyError(f"strategy {path.name}: characters: expected [characters.<Name>] tables")
    for name in chars:
        if name not in CHARACTER_KEYS:
            raise StrategyError(f"strategy {path.name}: characters.{name}: unknown Character; allowed: {', '.join(CHARACTER_KEYS)}")
    for c, name in enumerate(CHARACTER_KEYS):
        row[N_WEIGHTS * (1 + c):N_WEIGHTS * (2 + c)] = _weights(path, f"characters.{name}", chars.get(name, {}), base)
    return row


def _planner_base(path: Path, doc: dict, family: str, refused: tuple[str, ...]) -> tuple[np.ndarray, dict]:
    """A planning family's file (rollout, search): no weights of its own (``refused`` keys), the W
    row of its ``base`` file (default heuristic, a greedy or heuristic one) and its ``[family]`` table."""
    for k in refused:
        if k in doc:
            raise StrategyError(f"strategy {path.name}: {k}: a {family} strategy takes its weights from its base file")
    base = doc.get("base", "heuristic")
    if not isinstance(base, str) or base == path.stem:
        raise StrategyError(f"strategy {path.name}: base: expected the name of another strategy file, got {base!r}")
    row = _file_row(base)
    if row[0] not in (FAMILY_GREEDY, FAMILY_HEURISTIC):
        raise StrategyError(f"strategy {path.name}: base: {base} must be a greedy or heuristic strategy")
    table = doc.get(family, {})
    if not isinstance(table, dict):
        raise StrategyError(f"strategy {path.name}: {family}: expected a table")
    return row, table


def _rollout_row(path: Path, doc: dict) -> np.ndarray:
    """family = "rollout": the weights (and [characters.*] tables) of the strategy file named by
    ``base`` (default heuristic) decide every non-TURN decision and play the rollouts; the
    ``[rollout]`` table sets ``candidates``, ``rollouts`` (per candidate), ``horizon`` and, with
    ``horizon = "era"``, ``min_decades`` (the simulations stop at the end of the first Era that ends
    at least that many decades on, the current one counted; 1, the default, is the current Era), and
    ``apprentice``: a network file under strategies/values/ (:func:`load_apprentice_file`) by which the
    seat plays its own TURN decisions inside its simulations, and its real ones too with ``rollouts = 0``
    (strategies.apprentice), choosing among the base heuristic's best ``apprentice_rows`` rows (default:
    ``candidates``, the rows the planner's labels cover); ``character_ahead``: the weight of each seat's
    Character card VP at the Scorings still to come in a simulation's outcome (strategies.rollout.leaf_margin;
    default 0); ``win_bonus``: VP added to a simulation's outcome that reaches the game's end when the seat
    wins there, taken away when it loses (strategies.rollout.game_outcome; default 0)."""
    row, ro = _planner_base(path, doc, "rollout", ("weights", "parameters", "characters", "python"))
    vals = {"candidates": 4, "rollouts": 4, "horizon": "era", "min_decades": 1, "apprentice": "", "apprentice_rows": 0,
            "character_ahead": 0.0, "win_bonus": 0.0}
    for k, v in ro.items():
        if k not in vals:
            raise StrategyError(f"strategy {path.name}: rollout.{k}: unknown key; allowed: {', '.join(vals)}")
        if k == "apprentice":
            if not isinstance(v, str) or not v:
                raise StrategyError(f"strategy {path.name}: rollout.apprentice: expected a network file name")
        elif k == "horizon":
            if v not in HORIZONS:
                raise StrategyError(f"strategy {path.name}: rollout.horizon: allowed: {', '.join(HORIZONS)}, got {v!r}")
        elif k == "apprentice_rows":
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_CANDIDATES:
                raise StrategyError(f"strategy {path.name}: rollout.apprentice_rows: expected an integer 1..{MAX_CANDIDATES}, got {v!r}")
        elif k == "character_ahead":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= MAX_CHARACTER_AHEAD:
                raise StrategyError(f"strategy {path.name}: rollout.character_ahead: expected a number 0..{MAX_CHARACTER_AHEAD}, got {v!r}")
        elif k == "win_bonus":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= MAX_WIN_BONUS:
                raise StrategyError(f"strategy {path.name}: rollout.win_bonus: expected a number 0..{MAX_WIN_BONUS:g}, got {v!r}")
        elif k == "min_decades":
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_MIN_DECADES:
                raise StrategyError(f"strategy {path.name}: rollout.min_decades: expected an integer 1..{MAX_MIN_DECADES}, got {v!r}")
        else:
            _, lo, hi = ROLLOUT_KEYS[k]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise StrategyError(f"strategy {path.name}: rollout.{k}: expected an integer {lo}..{hi}, got {v!r}")
        vals[k] = v
    if vals["min_decades"] > 1 and vals["horizon"] != "era":
        raise StrategyError(f"strategy {path.name}: rollout.min_decades: only with horizon = \"era\"")
    if vals["rollouts"] == 0 and not vals["apprentice"]:
        raise StrategyError(f"strategy {path.name}: rollout.rollouts: 0 only with an apprentice (the seat then plays by it alone)")
    # strategies.rollout.rollout: horizon 0 the Era's end, 1 the game's, k >= 2 the Era's end at least k decades on
    horizon = vals["min_decades"] if vals["min_decades"] > 1 else HORIZONS[vals["horizon"]]
    for b in range(1 + N_CHARACTERS):  # every block: setup switches a seat to its Character's block
        o = N_WEIGHTS * b
        row[o] = FAMILY_ROLLOUT
        for k, (slot, _, _) in ROLLOUT_KEYS.items():
            row[o + slot] = vals[k]
        row[o + P.HORIZON] = horizon
        row[o + P.CHARACTER_AHEAD] = vals["character_ahead"]
        row[o + P.WIN_BONUS] = vals["win_bonus"]
    if vals["apprentice"]:
        row = set_apprentice(row, _apprentice_net(path, "rollout", vals["apprentice"]), vals["apprentice_rows"] or vals["candidates"])
    elif vals["apprentice_rows"]:
        raise StrategyError(f"strategy {path.name}: rollout.apprentice_rows: only with an apprentice")
    return row


APPRENTICE_SHAPES = {"mu": (N_IN,), "sd": (N_IN,), "w1": (N_IN, HIDDEN), "b1": (HIDDEN,), "w2": (HIDDEN,), "b2": (),
                     "inputs": (N_IN,), "provenance": ()}


def _value_path(path: Path, key: str, name: str, suffix: str | None = None) -> Path:
    """The file a strategy file's ``key = name`` names: under strategies/values/ unless absolute, with
    ``suffix`` if given; it must exist."""
    vp = Path(name)
    if not vp.is_absolute():
        vp = VALUE_DIR / vp
    if suffix is not None:
        vp = vp.with_suffix(suffix)
    if not vp.exists():
        raise StrategyError(f"strategy {path.name}: {key}: {vp} not found")
    return vp


def _apprentice_net(path: Path, table: str, name: str) -> dict:
    """The network a strategy file's ``[table] apprentice = name`` names (under strategies/values/ unless absolute)."""
    return load_apprentice_file(_value_path(path, f"{table}.apprentice", name))[0]


def load_apprentice_file(path: Path) -> tuple[dict, dict]:
    """An apprentice network file (strategies/values/*.npz, written by ``trinidad train --apprentice``,
    trinidad.train_apprentice): the arrays of strategies.apprentice's network (``mu``, ``sd``, ``w1``,
    ``b1``, ``w2``, ``b2``), ``inputs`` (the input names it was trained on, which must be today's:
    strategies.apprentice.input_names) and the provenance (JSON). Returns (arrays, provenance)."""
    import json

    try:
        with np.load(path, allow_pickle=False) as z:
            arrs = {k: z[k] for k in z.files}
    except (OSError, ValueError) as e:
        raise StrategyError(f"apprentice file {path}: {e}") from None
    for k, shape in APPRENTICE_SHAPES.items():
        if k not in arrs:
            raise StrategyError(f"apprentice file {path.name}: {k}: missing")
        if arrs[k].shape != shape:
            raise StrategyError(f"apprentice file {path.name}: {k}: shape {arrs[k].shape}, expected {shape} (trained on other inputs?)")
    if list(arrs["inputs"]) != input_names():
        raise StrategyError(f"apprentice file {path.name}: inputs: trained on other inputs than strategies.apprentice's")
    hot = one_hot_inputs()
    if not np.all(arrs["sd"] > 0) or np.any(arrs["mu"][hot] != 0) or np.any(arrs["sd"][hot] != 1):
        raise StrategyError(f"apprentice file {path.name}: sd must be > 0, and the one-hot inputs unscaled (mu 0, sd 1)")
    return arrs, json.loads(str(arrs["provenance"]))


def _put_layers(row: np.ndarray, net: dict, mu: int, sd: int, w1: int, b1: int, w2: int, b2: int) -> None:
    """A one-hidden-layer network's arrays into ``row`` at these columns (the search's network
    evaluation and the apprentice share the layout: standardisation, then the layers)."""
    row[mu:mu + len(net["mu"])] = net["mu"]
    row[sd:sd + len(net["sd"])] = net["sd"]
    row[w1:b1] = np.asarray(net["w1"], np.float64).reshape(-1)
    row[b1:w2] = net["b1"]
    row[w2:b2] = net["w2"]
    row[b2] = float(net["b2"])


def set_apprentice(row: np.ndarray, net: dict, rows: int) -> np.ndarray:
    """``row`` (a W row of the rollout family) with the apprentice ``net`` (the arrays of
    :func:`load_apprentice_file`), valuing the base heuristic's best ``rows`` rows of a decision."""
    row = row.copy()
    o = APPRENTICE_OFFSET
    row[o + AB_ON] = AB_MODE_ON
    row[o + AB_ROWS] = rows
    _put_layers(row, net, o + AB_MU, o + AB_SD, o + AB_W1, o + AB_B1, o + AB_W2, o + AB_B2)
    return row


def load_value_file(path: Path) -> tuple[np.ndarray, dict]:
    """A value file (strategies/values/*.toml, written by ``trinidad train``): ``[stage1]`` ..
    ``[stageN]`` tables of feature = weight (strategies.value_model.VF, lower case; a feature left
    out weighs 0) and a ``[provenance]`` table. Returns the model ``float64[N_STAGES, N_VF]`` and
    the provenance."""
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise StrategyError(f"value file {path}: {e}") from None
    m = np.zeros((N_STAGES, len(VF_NAMES)), np.float64)
    for st in range(N_STAGES):
        key = f"stage{st + 1}"
        table = doc.get(key)
        if not isinstance(table, dict):
            raise StrategyError(f"value file {path.name}: {key}: expected a table of feature = weight")
        for k, v in table.items():
            if k not in VF_NAMES:
                raise StrategyError(f"value file {path.name}: {key}.{k}: unknown feature; allowed: {', '.join(VF_NAMES)}")
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise StrategyError(f"value file {path.name}: {key}.{k}: expected a number, got {v!r}")
            m[st, VF_NAMES.index(k)] = float(v)
    unknown = set(doc) - {f"stage{i + 1}" for i in range(N_STAGES)} - {"provenance"}
    if unknown:
        raise StrategyError(f"value file {path.name}: {sorted(unknown)[0]}: unknown key")
    return m, dict(doc.get("provenance", {}))


def value_model(row: np.ndarray) -> np.ndarray:
    """The evaluation model held in a W row of the search family, ``float64[N_STAGES, N_VF]``
    (the inverse of :func:`set_value_model`)."""
    return np.stack([np.asarray(row[value_offset(st):value_offset(st) + len(VF_NAMES)], np.float64) for st in range(N_STAGES)])


def character_blind(model: np.ndarray) -> np.ndarray:
    """``model`` with the weight of every Character feature (``VF.CH_*``) 0 in every Era: the evaluation then
    judges a seat by its holdings, tracks and scores alone, not by how its Character fared in the self-play
    games the weights were fitted on. Why a balance tool wants that: a Character weight is the training
    player's own finding about the Character fed back into its play (whom it counts as the leader to stop),
    so two training chains that found different Character weights measure the Characters through them
    (docs/search-long.md, "Do the Character weights make the chains disagree?")."""
    m = np.array(model, np.float64, copy=True)
    m[:, list(CHARACTER_FEATURES)] = 0.0
    return m


def set_value_model(row: np.ndarray, model: np.ndarray) -> np.ndarray:
    """``row`` with its evaluation model replaced (a W row of the search family)."""
    row = row.copy()
    for st in range(N_STAGES):
        o = value_offset(st)
        row[o:o + model.shape[1]] = model[st]
    return row


def _search_row(path: Path, doc: dict) -> np.ndarray:
    """family = "search": the weights of the strategy file named by ``base`` (default heuristic)
    decide every non-TURN decision, break ties and play the simulations; ``[search]`` sets
    ``budget`` (simulations per TURN decision), ``width`` (rows simulated), ``horizon`` (whole
    decades simulated after the current one), ``war`` (EXTENDED WAR: 1 its war actions searched
    too, strategies.search.war_turn_searched; 0 by the base strategy's values) and ``value`` (a
    value file under strategies/values/, or "prior": generation 0, strategies.value_model.prior_model
    of the base weights); ``apprentice``: a network file of ``trinidad train --apprentice`` by which every
    seat of this strategy plays its TURN decisions inside the simulations (strategies.apprentice, as a
    rollout file's), choosing among the base heuristic's best ``apprentice_rows`` rows (default
    :data:`APPRENTICE_ROWS`); the real decisions stay the search's. ``rollout_forbid``: an action (an Act
    name but "pass", such as "major" or the free action "f_remove_lot") the seat's own play inside its simulations
    never takes while another main action is legal (strategies.search.SB.ROLLOUT_FORBID), or a list of such Acts
    (["major", "ship"]); its real decisions may still take them (default "": none).
    ``rollout_forbid_seats``: "self" (default) keeps only the seat's own simulated play from it, "all" every seat's
    inside the simulations, the rivals' too (strategies.search.SB.ROLLOUT_FORBID_ALL). ``network_at``: where the
    ``network`` values: "leaves" (default) the simulations' ends (strategies.value_model.MODEL_NETWORK), "candidates"
    the positions after the rows the 1-ply ranking chose to simulate, which it orders (MODEL_PRIOR: the first of
    them is the row the simulations must overturn); the leaves and the 1-ply ranking stay the linear model's."""
    row, se = _planner_base(path, doc, "search", ("weights", "parameters", "characters", "python", "rollout"))
    vals: dict = {"budget": 32, "width": 8, "horizon": 0, "war": 1, "value": "prior", "network": "", "apprentice": "",
                  "apprentice_rows": 0, "character_weights": True, "rollout_forbid": "", "rollout_forbid_seats": "self",
                  "network_at": "leaves"}
    for k, v in se.items():
        if k not in vals:
            raise StrategyError(f"strategy {path.name}: search.{k}: unknown key; allowed: {', '.join(vals)}")
        if k == "rollout_forbid":
            acts = [v] if isinstance(v, str) else v
            if not isinstance(acts, list) or not acts or len(set(acts)) != len(acts) or any(a not in ROLLOUT_FORBID for a in acts):
                raise StrategyError(f"strategy {path.name}: search.rollout_forbid: an Act or a list of distinct Acts; allowed: "
                                    f"{', '.join(ROLLOUT_FORBID)}, got {v!r}")
        elif k == "rollout_forbid_seats":
            if v not in ROLLOUT_FORBID_SEATS:
                raise StrategyError(f"strategy {path.name}: search.rollout_forbid_seats: allowed: {', '.join(ROLLOUT_FORBID_SEATS)}, got {v!r}")
        elif k == "network_at":
            if v not in NETWORK_AT:
                raise StrategyError(f"strategy {path.name}: search.network_at: allowed: {', '.join(NETWORK_AT)}, got {v!r}")
        elif k == "character_weights":
            if not isinstance(v, bool):
                raise StrategyError(f"strategy {path.name}: search.character_weights: expected true or false, got {v!r}")
        elif k == "value":
            if not isinstance(v, str):
                raise StrategyError(f"strategy {path.name}: search.value: expected a value file name or \"prior\"")
        elif k in ("apprentice", "network"):
            if not isinstance(v, str) or not v:
                raise StrategyError(f"strategy {path.name}: search.{k}: expected a network file name")
        elif k == "apprentice_rows":
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_CANDIDATES:
                raise StrategyError(f"strategy {path.name}: search.apprentice_rows: expected an integer 1..{MAX_CANDIDATES}, got {v!r}")
        else:
            _, lo, hi = SEARCH_KEYS[k]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise StrategyError(f"strategy {path.name}: search.{k}: expected an integer {lo}..{hi}, got {v!r}")
        vals[k] = v
    for b in range(1 + N_CHARACTERS):  # every block: setup switches a seat to its Character's block
        row[N_WEIGHTS * b] = FAMILY_SEARCH
    for k, (slot, _, _) in SEARCH_KEYS.items():
        row[SEARCH_OFFSET + slot] = vals[k]
    if vals["rollout_forbid"]:
        acts = [vals["rollout_forbid"]] if isinstance(vals["rollout_forbid"], str) else vals["rollout_forbid"]
        row[SEARCH_OFFSET + SB.ROLLOUT_FORBID] = sum(1 << int(Act[a.upper()]) for a in acts)  # a bit mask (policy.sim_forbids)
        row[SEARCH_OFFSET + SB.ROLLOUT_FORBID_ALL] = ROLLOUT_FORBID_SEATS.index(vals["rollout_forbid_seats"])
    elif vals["rollout_forbid_seats"] != "self":
        raise StrategyError(f"strategy {path.name}: search.rollout_forbid_seats: only with a rollout_forbid")
    if vals["apprentice_rows"] and not vals["apprentice"]:
        raise StrategyError(f"strategy {path.name}: search.apprentice_rows: only with an apprentice")
    if vals["apprentice"]:
        row = set_apprentice(row, _apprentice_net(path, "search", vals["apprentice"]), vals["apprentice_rows"] or APPRENTICE_ROWS)
    if vals["value"] == "prior":
        model = prior_model(row[:N_WEIGHTS])
    else:
        if Path(vals["value"]).suffix == ".npz":
            # the network reads the linear model's margin and the 1-ply ranking is the linear model's
            # (strategies.value_model.margins), so a network never stands in for it
            raise StrategyError(f"strategy {path.name}: search.value: {Path(vals['value']).name} is a network file: name "
                                "it in search.network, and in search.value the linear model it was trained with")
        model, _ = load_value_file(_value_path(path, "search.value", vals["value"], ".toml"))
    if not vals["character_weights"]:
        if vals["network"]:
            raise StrategyError(f"strategy {path.name}: search.character_weights = false: not with a network, which "
                                "reads the seat's Character among its inputs")
        model = character_blind(model)
    row = set_value_model(row, model)
    if not vals["network"]:
        if vals["network_at"] != "leaves":
            raise StrategyError(f"strategy {path.name}: search.network_at: only with a search.network")
        return row
    npath = _value_path(path, "search.network", vals["network"], ".npz")
    net, prov = load_network_file(npath)
    want = prov.get("linear_model")
    if want is not None and want != linear_model_digest(model):
        raise StrategyError(f"strategy {path.name}: search.network: {npath.name} was trained with another linear model "
                            f"than search.value {vals['value']!r} (its provenance's linear_model {want})")
    row = set_network(row, net)
    row[SEARCH_OFFSET + SB.MODEL] = NETWORK_AT[vals["network_at"]]
    return row


def linear_model_digest(model: np.ndarray) -> str:
    """A short content hash of a linear value model (``float64[N_STAGES, N_VF]``): a network file's
    provenance names the linear model whose margin it was trained to read (``linear_model``)."""
    import hashlib

    return hashlib.sha256(np.ascontiguousarray(model, np.float64).tobytes()).hexdigest()[:16]


def load_network_file(path: Path) -> tuple[dict, dict]:
    """A network value file (strategies/values/*.npz, written by ``trinidad train --network``,
    trinidad.train_network): the arrays of strategies.value_model's network (``mu``, ``sd``, ``w1``,
    ``b1``, ``w2``, ``b2``), its ``scale`` and ``features`` (the input names it was trained on,
    which must be today's), and the provenance (JSON). Returns (arrays, provenance)."""
    import json

    try:
        with np.load(path, allow_pickle=False) as z:
            arrs = {k: z[k] for k in z.files}
    except (OSError, ValueError) as e:
        raise StrategyError(f"value file {path}: {e}") from None
    need = {"mu": (NET_IN,), "sd": (NET_IN,), "w1": (NET_IN, NET_HIDDEN), "b1": (NET_HIDDEN,), "w2": (NET_HIDDEN,),
            "b2": (), "scale": (), "features": (N_VF,), "provenance": ()}
    for k, shape in need.items():
        if k not in arrs:
            raise StrategyError(f"value file {path.name}: {k}: missing")
        if arrs[k].shape != shape:
            raise StrategyError(f"value file {path.name}: {k}: shape {arrs[k].shape}, expected {shape} (trained on another feature set?)")
    if list(arrs["features"]) != VF_NAMES:
        raise StrategyError(f"value file {path.name}: features: trained on other value features than strategies.value_model.VF")
    if not np.all(arrs["sd"] > 0) or not float(arrs["scale"]) > 0:
        raise StrategyError(f"value file {path.name}: sd and scale must be > 0")
    return arrs, json.loads(str(arrs["provenance"]))


def set_network(row: np.ndarray, net: dict) -> np.ndarray:
    """``row`` (a W row of the search family) evaluating by the network ``net`` (the arrays of
    :func:`load_network_file`)."""
    row = row.copy()
    o = NET_OFFSET
    _put_layers(row, net, o + NET_MU, o + NET_SD, o + NET_W1, o + NET_B1, o + NET_W2, o + NET_B2)
    row[SEARCH_OFFSET + SB.MODEL] = MODEL_NETWORK
    row[SEARCH_OFFSET + SB.SCALE] = float(net["scale"])
    return row


def network(row: np.ndarray) -> dict:
    """The network held in a W row (the inverse of :func:`set_network`; its arrays only)."""
    o = NET_OFFSET
    return {"mu": row[o + NET_MU:o + NET_MU + NET_IN].copy(), "sd": row[o + NET_SD:o + NET_SD + NET_IN].copy(),
            "w1": row[o + NET_W1:o + NET_B1].reshape(NET_IN, NET_HIDDEN).copy(), "b1": row[o + NET_B1:o + NET_W2].copy(),
            "w2": row[o + NET_W2:o + NET_B2].copy(), "b2": np.float64(row[o + NET_B2]),
            "scale": np.float64(row[SEARCH_OFFSET + SB.SCALE])}


def python_row(spec: str, where: str) -> np.ndarray:
    """A W row for a Python strategy object (strategies.python_bridge): family python, its slot."""
    try:
        slot = python_bridge.register(spec)
    except ValueError as e:
        raise StrategyError(f"strategy {where}: {e}") from None
    row = np.zeros(W_COLUMNS, np.float64)
    for b in range(1 + N_CHARACTERS):
        row[N_WEIGHTS * b] = FAMILY_PYTHON
        row[N_WEIGHTS * b + P.PY_SLOT] = slot
    return row


def _file_row(n: str, solo: bool = False) -> np.ndarray:
    n = resolve(n, solo)
    if n.startswith(PY_PREFIX):
        return python_row(n[len(PY_PREFIX):], n)
    p = _path(n)
    if not p.exists():
        raise StrategyError(f"strategy {n}: not found; available: {listing()}, or py:MODULE:CLASS")
    return load_strategy_file(p)


def has_python(W: np.ndarray) -> bool:
    """True when a row is a Python strategy: the shells then play on one thread."""
    return bool(np.any(W[:, 0] == FAMILY_PYTHON))


def load_strategies(names: list[str], solo: bool = False) -> tuple[np.ndarray, list[str]]:
    """Weight matrix for the distinct names (in first-seen order) and the names by row.
    A name is a file stem in strategies/, a path to a TOML file, or ``py:MODULE:CLASS`` for a
    Python strategy (strategies.python_bridge); an alias keeps its own name here (its row is the
    strategy it names: :func:`resolve`; with ``solo``, for games with the Solo A.I.)."""
    distinct: list[str] = []
    for n in names:
        if n not in distinct:
            distinct.append(n)
    W = np.zeros((len(distinct), W_COLUMNS), np.float64)
    for i, n in enumerate(distinct):
        W[i] = _file_row(n, solo)
    return W, distinct


@dataclass(frozen=True)
class Players:
    """Compiled strategies: the weight matrix ``W`` (row i = strategy id i) and the names of its
    rows. Picklable, so a run compiles its strategies once and hands them to every worker, in
    this process or another. A Python strategy's row holds a slot in its process's object
    registry (strategies.python_bridge): :meth:`matrix` binds those rows in the calling process."""

    W: np.ndarray
    names: tuple[str, ...]

    def matrix(self) -> np.ndarray:
        """``W`` with every Python strategy's row bound to this process's registry."""
        if not has_python(self.W):
            return self.W
        W = self.W.copy()
        for i, n in enumerate(self.names):
            if W[i, 0] == FAMILY_PYTHON:
                W[i] = _file_row(n)  # registers the object here (once per process and name)
        return W


def compile_players(names: list[str], solo: bool = False) -> Players:
    """:func:`load_strategies` as :class:`Players` (``solo``: for games with the Solo A.I.)."""
    W, distinct = load_strategies(names, solo)
    return Players(W, tuple(distinct))
