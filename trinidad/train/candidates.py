"""The network on the candidates (issue 36, ``trinidad train --network --candidates``): a correction to the
search's 1-ply value, fitted to what simulations found among the candidates of each decision.

A search seat (strategies.search) ranks every legal row by its 1-ply value (the linear model on the position
after the row), simulates the best ``width`` of them and takes the one its simulations prefer only when they
beat the first candidate by more than their noise. So the first candidate is the seat's default, and the 1-ply
ranking its prior. The labels here are counterfactual: at every decision of the data games each candidate's
simulations (strategies.search.record_search_labels) differ from its siblings' only by the row, and every
candidate's first simulation shares one redraw with the others' (common random numbers). A *teacher* plays the
data games: the learner itself, or the same search at a larger budget, whose labels carry more simulations a
candidate than the learner's own search can spend.

The fit (:func:`fit_candidates`) is of what the 1-ply value misses *within* a decision: for candidate j of a
decision, the target is (its simulations' mean - the decision's mean over its candidates) - (its 1-ply value -
the decision's mean 1-ply value), in VP, so a per-decision constant (the bias every sibling shares) is never fitted.
Two of the network's hidden units pass the linear margin through (trinidad.train.network.linear_passthrough), the
other ones fit the correction with scikit-learn's ``MLPRegressor``, stopped early on the last eighth of the
decisions (whole games, held out). The labels are noisy (one to a few simulations a candidate), and the fitted
correction comes out shrunk toward 0: its least-squares factor on the held-out decisions is about 2.6 (measured),
so the correction is multiplied by that factor, fitted on the held-out decisions (one number). The candidate plays
the learner's search with the network ordering its candidates (``[search] network_at = "candidates"``,
strategies.value_model.MODEL_PRIOR) and is promoted only if it beats the learner under the SPRT duel of
trinidad.train.selfplay.duel.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from strategies.value_model import NET_HIDDEN
from trinidad.train.selfplay import TrainError, duel

SCALE = 10000.0  # the network's VP scale: tanh(m / SCALE) x SCALE is m within 0.001 VP here, so its output is VP
PARTS = 2  # the data games are played in this many rooms, whatever the threads: the labels do not depend on them
ROOM_PER_GAME = 2600  # candidate rows a 4-player game's labels may take (measured: about 2,290 at width 8)
TARGETS = ("mean", "first")  # a candidate's label: the mean over its simulations, or its first (common redraw) only


@dataclass
class CandidatesResult:
    net: dict
    rows: int  # candidate rows kept
    decisions: int
    r2_fit: float  # held-out, within decisions: the correction as fitted
    factor: float  # the held-out least-squares factor the correction was multiplied by
    r2: float  # held-out, within decisions: the correction as shipped
    reordered: float  # share of held-out decisions whose first candidate the network changes
    decision: str = ""  # the duel's SPRT decision
    played: int = 0
    share: float = float("nan")
    promoted: bool = False
    seconds: float = 0.0


def play_labels(rules, W: np.ndarray, players: int, seeds: np.ndarray, strat: np.ndarray,
                threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The search seats' candidates of every TURN decision of these games (strategies.rollout.SL columns, the
    decisions numbered in game order): the games split in :data:`PARTS` rooms, played on up to ``threads`` threads
    at once (a room is filled by one thread), so the labels are the same for any number of threads."""
    from sim.compiled_parts import for_players
    from sim.game import allocate
    from strategies.rollout import SL, new_labels
    from trinidad.batch import play_batch

    bounds = np.linspace(0, len(seeds), PARTS + 1).astype(int)
    rooms = [new_labels(allocate(for_players(rules, strat)), 0, int(bounds[p + 1] - bounds[p]) * ROOM_PER_GAME)
             for p in range(PARTS)]

    def part(p):
        a, b = bounds[p], bounds[p + 1]
        if b > a:
            play_batch(rules, W, players, seeds[a:b], strat[a:b], labels=rooms[p])

    with ThreadPoolExecutor(max(1, min(threads or PARTS, PARTS))) as ex:
        list(ex.map(part, range(PARTS)))
    xs, ys, off = [], [], 0
    for room in rooms:
        n = int(room[4][0])
        y = room[3][:n].copy()
        y[:, SL.DECISION] += off
        off += int(room[4][1])
        xs.append(room[2][:n])
        ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)


def within(v: np.ndarray, dec: np.ndarray) -> np.ndarray:
    """``v`` less its decision's mean (``dec``: each row's decision, 0..n-1)."""
    n = int(dec.max()) + 1 if len(dec) else 0
    return v - (np.bincount(dec, v, n) / np.maximum(1, np.bincount(dec, minlength=n)))[dec]


def residuals(Y: np.ndarray, target: str = "mean") -> np.ndarray:
    """What the 1-ply value misses within each decision, in VP (the module docstring)."""
    from strategies.rollout import SL

    if target not in TARGETS:
        raise TrainError(f"target: one of {', '.join(TARGETS)}, got {target!r}")
    dec = Y[:, SL.DECISION].astype(np.int64)
    v = Y[:, SL.MEAN] if target == "mean" else Y[:, SL.FIRST]
    return within(v, dec) - within(Y[:, SL.LINEAR], dec)


def _r2(pred: np.ndarray, res: np.ndarray) -> float:
    return float(1.0 - np.mean((pred - res) ** 2) / max(1e-12, float(np.mean(res ** 2))))


def fit_candidates(X: np.ndarray, Y: np.ndarray, seed: int, target: str = "mean", alpha: float = 1.0,
                   max_epochs: int = 60, patience: int = 5) -> CandidatesResult:
    """The correction of the module docstring, fitted to the labels ``X``, ``Y`` (:func:`play_labels`) and
    multiplied by its held-out least-squares factor; a pure function of ``seed``."""
    from sklearn.neural_network import MLPRegressor

    from strategies.rollout import SL
    from trinidad.train.network import early_stopped, forward_np, with_correction

    dec = Y[:, SL.DECISION].astype(np.int64)
    nd = int(dec.max()) + 1 if len(dec) else 0
    if nd < 16:
        raise TrainError(f"games: too few decisions to fit ({nd})")
    X = X.astype(np.float64)
    res = residuals(Y, target)
    cut = nd - max(2, nd // 8)  # the decisions held out: the last games'
    tr, va = dec < cut, dec >= cut
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd = np.where(sd > 1e-9, sd, 1.0)
    Z = (X - mu) / sd
    r_sd = float(res[tr].std()) or 1.0
    reg = MLPRegressor(hidden_layer_sizes=(NET_HIDDEN - 2,), activation="relu", solver="adam", alpha=alpha,
                       batch_size=512, learning_rate_init=1e-3, random_state=seed)
    rng = np.random.default_rng(seed)
    idx = np.flatnonzero(tr)
    dv = dec[va] - cut

    def step():
        rng.shuffle(idx)
        reg.partial_fit(Z[idx], res[idx] / r_sd)

    coefs, icpts = early_stopped(reg, step, lambda: float(np.mean((within(reg.predict(Z[va]) * r_sd, dv) - res[va]) ** 2)),
                                 max_epochs, patience)
    corr_va = within(np.maximum(0.0, Z[va] @ coefs[0] + icpts[0]) @ coefs[1][:, 0] * r_sd, dv)
    r2_fit = _r2(corr_va, res[va])
    den = float(np.sum(corr_va ** 2))
    factor = float(np.sum(corr_va * res[va]) / den) if den > 0 else 0.0
    factor = max(0.0, factor)  # a correction that points the wrong way is dropped, not reversed
    net = with_correction(mu, sd, SCALE, coefs, icpts, r_sd * factor, 0.0)
    # how often the network changes the first candidate of a held-out decision (the rows come in the search's order)
    out = forward_np(net, X[va])
    first = np.r_[True, dv[1:] != dv[:-1]]
    starts = np.flatnonzero(first)
    changed = np.maximum.reduceat(out, starts) > out[starts] + 1e-12
    return CandidatesResult(net=net, rows=int(len(X)), decisions=nd, r2_fit=r2_fit, factor=factor,
                            r2=_r2(factor * corr_va, res[va]), reordered=float(changed.mean()))


def train_candidates(rules, learner_row: np.ndarray, teacher_row: np.ndarray, games: int, seed: int,
                     duel_games: int = 600, delta: float = 0.1, threads: int | None = None, target: str = "mean",
                     alpha: float = 1.0, say: Callable[[str], None] | None = None) -> CandidatesResult:
    """The teacher's ``games`` 4-player games (every seat, Characters drafted, seeds from ``seed``), the fit of
    :func:`fit_candidates`, and the candidate (the learner with the network on its candidates) against the learner
    under the SPRT, two seats each, at most ``duel_games`` games."""
    from sim.rng import player_seeds
    from strategies.registry import set_network
    from strategies.search import SB
    from strategies.value_model import MODEL_PRIOR, SEARCH_OFFSET

    if games < 2:
        raise TrainError(f"games: must be >= 2, got {games}")
    t0 = time.perf_counter()
    seeds = player_seeds(seed * 1000 + 1, 4, 0, games)
    X, Y = play_labels(rules, teacher_row[None, :], 4, seeds, np.zeros((games, 4), np.int32), threads)
    if say:
        say(f"{games} data games: {len(X):,} candidate rows of {int(Y[:, 0].max()) + 1 if len(Y) else 0:,} decisions "
            f"({time.perf_counter() - t0:.0f} s)")
    res = fit_candidates(X, Y, seed, target, alpha)
    if say:
        say(f"fit: held-out R2 within decisions {res.r2_fit:.4f}, x{res.factor:.2f} -> {res.r2:.4f}; "
            f"the first candidate changed in {res.reordered:.1%} of held-out decisions")
    cand = set_network(learner_row, {**res.net, "scale": SCALE})
    cand[SEARCH_OFFSET + SB.MODEL] = MODEL_PRIOR
    if duel_games > 0:
        res.decision, res.played, res.share, _ = duel(rules, cand, learner_row, duel_games, 200, seed * 1000 + 500, 4,
                                                      delta, threads)
        res.promoted = res.decision.startswith("H1") and res.decision.endswith("(+)")
        if say:
            say(f"candidate vs learner: {res.share:.1%} of the wins in {res.played} games: {res.decision}")
    res.seconds = time.perf_counter() - t0
    return res
