"""Value, network and apprentice files (``strategies/values/``, the lab's training chains under
``strategies/values/lab/``): reading and checking them, and placing what they hold into a W row of
the search family (strategies.value_model: the linear model and the network evaluation) or of the
rollout family (strategies.apprentice). strategies.registry names the files a strategy file points to.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from strategies.apprentice import (
    AB_B1,
    AB_B2,
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
from strategies.search import SB
from strategies.value_model import (
    CHARACTER_FEATURES,
    MODEL_NETWORK,
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
    SEARCH_OFFSET,
    VF_NAMES,
    value_offset,
)


class StrategyError(ValueError):
    """A strategy file (or a value file it names) is invalid; the message is one line naming the file and key."""


APPRENTICE_SHAPES = {"mu": (N_IN,), "sd": (N_IN,), "w1": (N_IN, HIDDEN), "b1": (HIDDEN,), "w2": (HIDDEN,), "b2": (),
                     "inputs": (N_IN,), "provenance": ()}


def load_apprentice_file(path: Path) -> tuple[dict, dict]:
    """An apprentice network file (strategies/values/*.npz, written by ``trinidad train --apprentice``,
    trinidad.train.apprentice): the arrays of strategies.apprentice's network (``mu``, ``sd``, ``w1``,
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
    (docs/notebook/search-long.md, "Do the Character weights make the chains disagree?")."""
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


def linear_model_digest(model: np.ndarray) -> str:
    """A short content hash of a linear value model (``float64[N_STAGES, N_VF]``): a network file's
    provenance names the linear model whose margin it was trained to read (``linear_model``)."""
    import hashlib

    return hashlib.sha256(np.ascontiguousarray(model, np.float64).tobytes()).hexdigest()[:16]


def load_network_file(path: Path) -> tuple[dict, dict]:
    """A network value file (strategies/values/*.npz, written by ``trinidad train --network``,
    trinidad.train.network): the arrays of strategies.value_model's network (``mu``, ``sd``, ``w1``,
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
