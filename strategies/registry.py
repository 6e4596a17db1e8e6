"""Strategy files: ``strategies/*.toml`` (the shipped players) and ``strategies/lab/*.toml`` (the research
rungs, named ``lab/NAME``) give a name, a family and weights over named features and named valuation
coefficients (strategies.policy ``WEIGHTS``; a coefficient left out keeps its default, a feature left out
is 0), and optionally the vote model's ``[parameters]``.

``load_strategies(names)`` validates the files and returns the weight matrix ``W`` (one row per
strategy id, column 0 = family) used by the jitted policy entry point; :func:`compile_players`
wraps it as :class:`Players`, what the orchestration hands its workers (compiled once per run).

A file holding only ``alias = "NAME"`` is another name for strategy NAME (``best.toml``: the top
rung of the ladder), followed wherever a name is loaded; :func:`resolve` says what it names.

Where a player is named its settings can be changed: ``NAME:key=value[,key=value...]`` sets keys of the
file's family table (``search:budget=64``, ``rollout:candidates=8,rollouts=2``; a greedy or heuristic
file's ``[weights]`` and ``[parameters]``), checked as the file's own keys are. A value is an integer, a
number, ``true``/``false``, a word, or a list of words joined by ``+`` (``rollout_forbid=major+ship``).
The value, network and apprentice files a strategy names are read by strategies.value_files.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.codes import Act, Ch
from sim.state import N_CHARACTERS
from strategies import python_bridge
from strategies.apprentice import AB_BLOCK, APPRENTICE_OFFSET
from strategies.policy import P_RANGE, PARAMETERS, WEIGHTS, P, default_weights
from strategies.rollout import MAX_CANDIDATES
from strategies.search import SB
from strategies.value_files import (  # noqa: F401 (the file readers, re-exported: imported from here across the project)
    APPRENTICE_SHAPES,
    StrategyError,
    character_blind,
    linear_model_digest,
    load_apprentice_file,
    load_network_file,
    load_value_file,
    network,
    set_apprentice,
    set_network,
    set_value_model,
    value_model,
)
from strategies.value_model import MODEL_NETWORK, MODEL_PRIOR, SEARCH_BLOCK, SEARCH_OFFSET, prior_model
from strategies.weights import FAMILY_GREEDY, FAMILY_HEURISTIC, FAMILY_PYTHON, FAMILY_RANDOM, FAMILY_ROLLOUT, FAMILY_SEARCH, N_WEIGHTS

STRATEGY_DIR = Path(__file__).parent
LAB = "lab/"  # the research rungs' names: strategies/lab/NAME.toml plays as lab/NAME
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
# the table a NAME:key=value sets, by the file's family (greedy and heuristic: by the key, weights or parameters)
PARAM_TABLES = {"rollout": "rollout", "search": "search"}


def available(lab: bool = False) -> list[str]:
    """The strategy names in strategies/, aliases included; with ``lab``, the research rungs too (``lab/NAME``)."""
    names = sorted(p.stem for p in STRATEGY_DIR.glob("*.toml"))
    return names + (sorted(LAB + p.stem for p in (STRATEGY_DIR / "lab").glob("*.toml")) if lab else [])


def listing() -> str:
    """The available names for a message, each alias with what it names (``best = rollout``)."""
    al = aliases()
    return ", ".join(f"{n} = {al[n]}" if n in al else n for n in available()) + ", lab/NAME (trinidad players --lab)"


def split_names(text: str) -> list[str]:
    """A comma-separated list of strategy names (a command line's ``--strategies``): a piece with ``=`` and
    no ``:`` goes on with the parameters of the name before it, so ``search:budget=64,width=4,greedy`` is
    ``["search:budget=64,width=4", "greedy"]`` (a strategy's name never holds ``=``)."""
    out: list[str] = []
    for piece in (s.strip() for s in text.split(",")):
        if piece and "=" in piece and ":" not in piece and out and ":" in out[-1]:
            out[-1] += "," + piece
        elif piece:
            out.append(piece)
    return out


def _param_value(text: str):
    """A parameter's value as the TOML file would hold it: an integer, a number, a boolean, a list
    (words joined by ``+``) or a string."""
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    return [w.strip() for w in text.split("+")] if "+" in text else text


def parse_name(name: str) -> tuple[str, dict]:
    """A strategy name and the settings given with it: ``search:budget=64`` is ``("search", {"budget": 64})``;
    a name without ``:`` (or a ``py:`` name) has none."""
    if name.startswith(PY_PREFIX) or ":" not in name:
        return name, {}
    base, _, spec = name.partition(":")
    params: dict = {}
    for item in spec.split(","):
        k, eq, v = (s.strip() for s in item.partition("="))
        if not eq or not k or not v:
            raise StrategyError(f"strategy {name}: {item.strip()!r}: expected key=value (NAME:key=value,key=value)")
        if k in params:
            raise StrategyError(f"strategy {name}: {k}: set twice")
        params[k] = _param_value(v)
    return base, params


def strategy_path(name: str) -> Path | None:
    """The strategy file a name stands for (None for ``py:`` names): a path to a TOML file, a file stem in
    strategies/, or ``lab/NAME`` in strategies/lab/; any ``:key=value`` settings left out."""
    if name.startswith(PY_PREFIX):
        return None
    p = Path(parse_name(name)[0])
    return p if p.suffix == ".toml" else STRATEGY_DIR / f"{p}.toml"


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
    a player count may have its own player). Settings given with the name stay with it
    (``best:budget=48`` resolves to the strategy ``best`` names, ``:budget=48``)."""
    base, params = parse_name(name)
    if params:
        return resolve(base, solo) + name[len(base):]
    seen = [name]
    while (p := strategy_path(name)) is not None and p.exists() and (target := _alias_of(p, solo)) is not None:
        if target in seen:
            raise StrategyError(f"strategy {p.name}: alias: a cycle ({' -> '.join(seen + [target])})")
        seen.append(target)
        name = target
    return name


def aliases() -> dict[str, str]:
    """Every alias in strategies/ and the strategy it names (:func:`resolve`)."""
    return {p.stem: resolve(p.stem) for p in sorted(STRATEGY_DIR.glob("*.toml")) if _alias_of(p) is not None}


def _with_params(path: Path, doc: dict, params: dict) -> dict:
    """``doc`` (a strategy file's table) with the settings given where it was named put into the table of
    its family that holds them (:data:`PARAM_TABLES`; greedy and heuristic: ``weights`` or ``parameters``
    by the key), so they are checked as the file's own keys are."""
    fam = doc.get("family")
    doc = dict(doc)
    for k, v in params.items():
        if fam in PARAM_TABLES:
            table = PARAM_TABLES[fam]
        elif fam in ("greedy", "heuristic"):
            if k not in WEIGHTS and k not in PARAMETERS:
                raise StrategyError(f"strategy {path.name}: {k}: unknown weight or parameter; allowed: {', '.join(WEIGHTS + PARAMETERS)}")
            table = "weights" if k in WEIGHTS else "parameters"
        else:
            raise StrategyError(f"strategy {path.name}: {k}: a {fam} strategy has no settings to give with its name")
        if not isinstance(doc.get(table, {}), dict):
            raise StrategyError(f"strategy {path.name}: {table}: expected a table")
        doc[table] = dict(doc.get(table, {})) | {k: v}
    return doc


def _settings(path: Path, key: str, table, allowed: list[str], what: str):
    """The settings of table ``key``, a table of ``what`` = number whose every name is one of ``allowed``."""
    if not isinstance(table, dict):
        raise StrategyError(f"strategy {path.name}: {key}: expected a table of {what} = number")
    for k in table:
        if k not in allowed:
            raise StrategyError(f"strategy {path.name}: {key}.{k}: unknown {what}; allowed: {', '.join(allowed)}")
    return table.items()


def _weights(path: Path, key: str, table, base: np.ndarray) -> np.ndarray:
    """``base`` with the weights ``table`` sets (WEIGHTS[i] is slot 1 + i)."""
    row = base.copy()
    for k, v in _settings(path, key, table, WEIGHTS, "weight"):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise StrategyError(f"strategy {path.name}: {key}.{k}: expected a number, got {v!r}")
        row[1 + WEIGHTS.index(k)] = float(v)
    return row


def _in_range(path: Path, table: str, key: str, v, lo, hi, integer: bool = True) -> None:
    """A ``[table]`` setting ``key`` must be an integer (``integer`` False: a number) from ``lo`` to ``hi``."""
    if isinstance(v, bool) or not isinstance(v, int if integer else (int, float)) or not lo <= v <= hi:
        kind, span = ("an integer", f"{lo}..{hi}") if integer else ("a number", f"{lo:g}..{hi:g}")
        raise StrategyError(f"strategy {path.name}: {table}.{key}: expected {kind} {span}, got {v!r}")


def _one_of(path: Path, table: str, key: str, v, allowed) -> None:
    """A ``[table]`` setting ``key`` must be one of ``allowed``."""
    if v not in allowed:
        raise StrategyError(f"strategy {path.name}: {table}.{key}: allowed: {', '.join(allowed)}, got {v!r}")


def _parameters(path: Path, table, base: np.ndarray) -> np.ndarray:
    """``base`` with the vote model's parameters ``table`` sets, each in its range (policy.P_RANGE)."""
    row = base.copy()
    for k, v in _settings(path, "parameters", table, PARAMETERS, "parameter"):
        slot = P[k.upper()]
        lo, hi, integer = P_RANGE[slot]
        _in_range(path, "parameters", k, v, lo, hi, integer)
        row[slot] = float(v)
    return row


def load_strategy_file(path: Path, params: dict | None = None) -> np.ndarray:
    """One W row: ``family``, ``[weights]``, optional ``[parameters]`` and optional
    ``[characters.<Name>]`` tables, each the weights that change when the seat holds that Character
    (the rest as in ``[weights]``); ``params``: settings given where the strategy was named
    (:func:`parse_name`), over the file's own."""
    try:
        doc = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise StrategyError(f"strategy {path.name}: {e}") from None
    if "alias" in doc:
        return _file_row(resolve(str(path)), params=params)
    allowed = ["name", "description", "family", "weights", "parameters", "characters", "base", "rollout", "python", "search"]
    unknown = set(doc) - set(allowed)
    if unknown:
        raise StrategyError(f"strategy {path.name}: {sorted(unknown)[0]}: unknown key; allowed: {', '.join(allowed)}")
    fam = doc.get("family")
    if fam not in FAMILIES:
        raise StrategyError(f"strategy {path.name}: family: allowed: {', '.join(FAMILIES)}, got {fam!r}")
    doc = _with_params(path, doc, params or {})
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


def _planner_key(path: Path, table: str, k: str, v, keys: dict) -> None:
    """The settings the rollout and search families share: ``apprentice`` (and search's ``network``),
    a network file name; ``apprentice_rows``, 1 .. MAX_CANDIDATES; a key of ``keys`` (ROLLOUT_KEYS,
    SEARCH_KEYS: slot, lo, hi), an integer in its range."""
    if k in ("apprentice", "network"):
        if not isinstance(v, str) or not v:
            raise StrategyError(f"strategy {path.name}: {table}.{k}: expected a network file name")
    elif k == "apprentice_rows":
        _in_range(path, table, k, v, 1, MAX_CANDIDATES)
    else:
        _, lo, hi = keys[k]
        _in_range(path, table, k, v, lo, hi)


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
        if k == "horizon":
            _one_of(path, "rollout", k, v, HORIZONS)
        elif k == "character_ahead":
            _in_range(path, "rollout", k, v, 0, MAX_CHARACTER_AHEAD, integer=False)
        elif k == "win_bonus":
            _in_range(path, "rollout", k, v, 0, MAX_WIN_BONUS, integer=False)
        elif k == "min_decades":
            _in_range(path, "rollout", k, v, 1, MAX_MIN_DECADES)
        else:
            _planner_key(path, "rollout", k, v, ROLLOUT_KEYS)
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
            _one_of(path, "search", k, v, ROLLOUT_FORBID_SEATS)
        elif k == "network_at":
            _one_of(path, "search", k, v, NETWORK_AT)
        elif k == "character_weights":
            if not isinstance(v, bool):
                raise StrategyError(f"strategy {path.name}: search.character_weights: expected true or false, got {v!r}")
        elif k == "value":
            if not isinstance(v, str):
                raise StrategyError(f"strategy {path.name}: search.value: expected a value file name or \"prior\"")
        else:
            _planner_key(path, "search", k, v, SEARCH_KEYS)
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


def _file_row(n: str, solo: bool = False, params: dict | None = None) -> np.ndarray:
    """The W row a name stands for (aliases followed; ``params``: settings over those given with the name)."""
    n = resolve(n, solo)
    if n.startswith(PY_PREFIX):
        if params:
            raise StrategyError(f"strategy {n}: {next(iter(params))}: a Python strategy has no settings to give with its name")
        return python_row(n[len(PY_PREFIX):], n)
    base, given = parse_name(n)
    p = strategy_path(base)
    if not p.exists():
        raise StrategyError(f"strategy {base}: not found; available: {listing()}, or py:MODULE:CLASS")
    return load_strategy_file(p, given | (params or {}))


def has_python(W: np.ndarray) -> bool:
    """True when a row is a Python strategy: the shells then play on one thread."""
    return bool(np.any(W[:, 0] == FAMILY_PYTHON))


def load_strategies(names: list[str], solo: bool = False) -> tuple[np.ndarray, list[str]]:
    """Weight matrix for the distinct names (in first-seen order) and the names by row.
    A name is a file stem in strategies/, ``lab/NAME`` in strategies/lab/, a path to a TOML file, each with
    optional settings (``search:budget=64``, :func:`parse_name`), or ``py:MODULE:CLASS`` for a Python strategy
    (strategies.python_bridge); an alias keeps its own name here (its row is the
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
