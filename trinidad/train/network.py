"""``trinidad train --network``: the search family's network evaluation (strategies.value_model,
MODEL_NETWORK), learned from self-play with bootstrapped targets, in generations promoted by a duel.

Each generation:

1. **games**: the incumbent plays ``games`` 4-player games (Characters drafted as the rules say) in
   which each seat is, with probability ``mix``, another player of the opponent pool instead: the
   heuristic or one of its archetypes (strategies/*.toml: builder, civic, cleric, militarist,
   politician, producer), the heuristic forced into the City plan at its first chance
   (strategies.forced_play: Lot > House > metal > Palace), so that positions no seat of the incumbent's
   own games reaches (Houses, Palaces) are seen, or an earlier generation. The heuristic players
   cost a few hundredths of a search seat, so a high ``mix`` buys many more positions (the values
   learned are then those of the pool's play, which the search improves on: approximate policy
   iteration); and ``solo`` games more against the Solo A.I.
   (TWO PLAYERS GAME & SOLO MODE, each strength in turn). Every seat's value features are recorded
   at the end of each decade inside the jitted loop (``play_batch(features=True)``);
2. **targets**: TD(lambda) on the decade-end positions of each seat, bootstrapped from the
   incumbent's network: ``G_d = (1 - lambda) V(x_{d+1}) + lambda G_{d+1}``, the last decade's value
   the real soft margin (strategies.value_model.soft_margin: tanh of the seat's final VP minus the
   best rival's, over ``scale``). Without a network yet (generation 1 from the linear evaluation)
   lambda is 1: the outcome itself. The targets of every generation's positions are recomputed by
   the newest incumbent;
3. **fit**: a candidate network (one hidden layer, strategies.value_model.NET_HIDDEN units, ReLU) by
   scikit-learn's ``MLPRegressor`` (Adam, early stopping on a tenth of the positions) on every
   generation's positions, the inputs standardised; held out: the last fifth of the newest
   generation's games (R^2 of the targets, and how often the seat with the highest prediction
   wins);
4. **promotion**: the candidate plays the incumbent, two seats each, seats rotated on common seeds,
   until Wald's SPRT decides (trinidad.train.selfplay.duel); promoted only on H1 (+).

With ``residual`` the network starts where the linear evaluation is and learns only what it misses
(:func:`fit_residual`): two of its hidden units pass the linear margin through (relu(z) - relu(-z) =
z), the others fit the targets' residual over it, and generation 1's TD targets bootstrap from the
linear evaluation (the incumbent then) instead of being the outcome alone: the same targets that
made the TD refits of the linear evaluation stronger (docs/notebook/search-long-nogrid-all.md, "TD(lambda)
targets"). With a large ``scale`` (10,000 VP: tanh(m / scale) is m / scale within 1e-5 over any
margin a game reaches) the leaf is then the linear margin in VP plus a correction, and a candidate
whose correction is 0 plays as the linear evaluation does. ``explore`` adds the linear trainer's
explorers (trinidad.train.linear.positions): seats of the incumbent whose linear model's holding weights
are moved at random, so that the positions are not only those the incumbent's own tables reach.

Everything is a pure function of the seed. The result is a network file
(strategies/values/*.npz) carrying its provenance, which a search strategy names in
``[search] value``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from strategies.value_model import MAX_PLAYERS, N_VF, NET_HIDDEN, NET_IN, VF_NAMES
from trinidad.train.selfplay import TrainError, challenge, td_returns, verdict

# the heuristic and its archetypes (strategies/*.toml): the opponent pool's cheap players
OPPONENTS = ("heuristic", "builder", "civic", "cleric", "militarist", "politician", "producer")
AI_STRENGTHS = ("weak", "medium", "strong", "divinity")  # TWO PLAYERS GAME & SOLO MODE: 4..7 workers


def rival_best(v: np.ndarray, axis: int = -1) -> np.ndarray:
    """For each seat along ``axis``, the highest value among the other seats."""
    top = v.max(axis=axis, keepdims=True)
    ntop = (v == top).sum(axis=axis, keepdims=True)
    second = np.where(v == top, -np.inf, v).max(axis=axis, keepdims=True)
    return np.where((v == top) & (ntop == 1), second, top)


def linear_margins_np(feats: np.ndarray, model: np.ndarray, stages: np.ndarray) -> np.ndarray:
    """strategies.value_model.linear_margins before the last decade: ``feats[games, decades, n, N_VF]``
    and the model of each decade's stage (``stages[decades]``) -> ``[games, decades, n]``."""
    pred = np.einsum("gdsf,df->gds", np.asarray(feats, np.float64), model[stages])
    return pred - rival_best(pred, axis=-1)


def net_inputs_np(feats: np.ndarray, n: int, lin: np.ndarray) -> np.ndarray:
    """strategies.value_model.net_inputs for every seat at once: ``feats[..., n, N_VF]`` and the linear
    margins ``lin[..., n]`` -> ``[..., n, NET_IN]`` (own features, the best rival's value of each,
    the number of players, the linear margin)."""
    f = np.asarray(feats, np.float64)[..., :n, :]
    rival = rival_best(f, axis=-2)
    if n == 1:
        rival = np.zeros_like(f)
    onehot = np.zeros(f.shape[:-1] + (MAX_PLAYERS - 1,), np.float64)
    onehot[..., n - 2] = 1.0
    return np.concatenate([f, rival, onehot, np.asarray(lin, np.float64)[..., :n, None]], axis=-1)


def forward_np(net: dict, X: np.ndarray) -> np.ndarray:
    """strategies.value_model.net_forward on rows of inputs ``X[..., NET_IN]``."""
    z = (X - net["mu"]) / net["sd"]
    h = np.maximum(z @ net["w1"] + net["b1"], 0.0)
    return h @ net["w2"] + net["b2"]


def soft_margins(vp: np.ndarray, scale: float) -> np.ndarray:
    """strategies.value_model.soft_margin of every seat's final VP ``vp[games, n]``."""
    vp = np.asarray(vp, np.float64)
    n = vp.shape[1]
    out = np.empty_like(vp)
    for s in range(n):
        others = np.delete(vp, s, axis=1)
        out[:, s] = np.tanh((vp[:, s] - others.max(axis=1)) / scale)
    return out


@dataclass
class Batch:
    """One generation's games, by player count: inputs ``x[games, decades - 1, n, NET_IN]`` at the
    end of each decade but the last, the final soft margins ``z[games, n]``, the winners and which
    seats were the learner's own (the incumbent's, not the pool's or the A.I.'s)."""

    x: np.ndarray
    z: np.ndarray
    winners: np.ndarray
    own: np.ndarray


def td_targets(b: Batch, net: dict | None, lam: float, linear_scale: float | None = None) -> np.ndarray:
    """TD(lambda) targets ``[games, decades - 1, n]`` (module docstring, 2); without a net the outcome
    alone (lambda 1), or with ``linear_scale`` bootstrapped from the linear evaluation: each
    position's linear margin (the inputs' last column) as a soft margin at that scale."""
    if lam >= 1.0 or (net is None and linear_scale is None):
        return np.broadcast_to(b.z[:, None, :], b.x.shape[:3]).astype(np.float64)
    V = forward_np(net, b.x) if net is not None else np.tanh(b.x[..., LIN] / linear_scale)
    return td_returns(V, b.z, lam)  # V: [games, T, n]


def play(rules, W: np.ndarray, players: int, seeds: np.ndarray, strat: np.ndarray, scale: float, learner: int,
         threads: int | None) -> Batch:
    """Games of the rows ``W`` (``strat[i, s]``: seat s's row, or the A.I.), as a :class:`Batch`."""
    from sim.rules import RK
    from sim.schema import RG
    from strategies.registry import value_model
    from strategies.value_model import stage_of
    from trinidad.batch import play_batch

    _, gam, feats = play_batch(rules, W, players, seeds, strat, threads=threads, features=True)
    last = int(rules.k[RK.DECADES])
    f = feats[:, :last - 1, :players]
    stages = np.array([stage_of(rules, d) for d in range(1, last)], np.int64)
    x = net_inputs_np(f, players, linear_margins_np(f, value_model(W[learner]), stages))
    vp = gam[:, :players, RG.VP]
    return Batch(x=x, z=soft_margins(vp, scale), winners=gam[:, :players, RG.WINNER].astype(np.float64),
                 own=(strat[:, :players] == learner))


def fit(batches: list[Batch], targets: list[np.ndarray], holdout: Batch | None, held_targets: np.ndarray | None,
        seed: int, max_iter: int = 60):
    """A candidate network fitted on every batch's positions (module docstring, 3); returns
    (net, held-out R^2, held-out winner accuracy)."""
    from sklearn.neural_network import MLPRegressor

    X = np.concatenate([b.x.reshape(-1, NET_IN) for b in batches])
    y = np.concatenate([t.reshape(-1) for t in targets])
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd = np.where(sd > 1e-9, sd, 1.0)  # a feature that never varies (a player count not played) passes as it is
    reg = MLPRegressor(hidden_layer_sizes=(NET_HIDDEN,), activation="relu", solver="adam", alpha=1e-4, batch_size=256,
                       learning_rate_init=1e-3, max_iter=max_iter, early_stopping=True, validation_fraction=0.1,
                       n_iter_no_change=6, random_state=seed)
    reg.fit((X - mu) / sd, y)
    net = {"mu": mu, "sd": sd, "w1": reg.coefs_[0].copy(), "b1": reg.intercepts_[0].copy(), "w2": reg.coefs_[1][:, 0].copy(),
           "b2": np.float64(reg.intercepts_[1][0])}
    return (net, *_held_out(net, holdout, held_targets))


LIN = NET_IN - 1  # the inputs' last column: the seat's margin by the row's linear model (net_inputs)


def linear_passthrough(mu: np.ndarray, sd: np.ndarray, scale: float) -> dict:
    """A network whose output is the linear margin over ``scale`` (the inputs standardised by ``mu``,
    ``sd``): hidden units 0 and 1 carry relu(z) and relu(-z) of the margin's standardised input, the
    rest are 0. :func:`fit_residual`'s start and its correction-free candidate."""
    w1 = np.zeros((NET_IN, NET_HIDDEN))
    w1[LIN, 0], w1[LIN, 1] = 1.0, -1.0
    w2 = np.zeros(NET_HIDDEN)
    w2[0], w2[1] = sd[LIN] / scale, -sd[LIN] / scale
    return {"mu": mu.copy(), "sd": sd.copy(), "w1": w1, "b1": np.zeros(NET_HIDDEN), "w2": w2,
            "b2": np.float64(mu[LIN] / scale)}


def fit_residual(batches: list[Batch], targets: list[np.ndarray], holdout: Batch | None, held_targets: np.ndarray | None,
                 seed: int, scale: float, alpha: float = 10.0, max_epochs: int = 80, patience: int = 6):
    """A candidate that is the linear margin plus a fitted correction (module docstring): the
    :func:`linear_passthrough` units and ``NET_HIDDEN - 2`` ReLU units fitted by ``MLPRegressor`` to
    the targets minus the linear margin over ``scale``, in VP (standardised for the fit). The fit
    stops early on the last eighth of each batch's games, held out whole: a game's positions are
    alike, so a validation share drawn by position (``MLPRegressor``'s own early stopping) keeps
    fitting one game's noise (measured on `best`'s 600 games: held-out R^2 0.70 that way, 0.73-0.74
    held out by game). Returns (net, held-out R^2, held-out winner accuracy) as :func:`fit`."""
    from sklearn.neural_network import MLPRegressor

    def rows(part):  # the positions of each batch's games ``part(c)`` selects, and their residuals
        X = np.concatenate([b.x[part(c)].reshape(-1, NET_IN) for b, c in zip(batches, cuts)])
        y = np.concatenate([t[part(c)].reshape(-1) for t, c in zip(targets, cuts)])
        return X, (y - X[:, LIN] / scale) * scale  # what the linear margin misses, in VP

    cuts = [len(b.x) - max(1, len(b.x) // 8) if len(b.x) > 1 else len(b.x) for b in batches]
    Xf, rf = rows(lambda c: slice(None, c))
    Xv, rv = rows(lambda c: slice(c, None))
    X = np.concatenate([Xf, Xv])
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    sd = np.where(sd > 1e-9, sd, 1.0)
    r_mu, r_sd = float(rf.mean()), float(rf.std()) or 1.0
    Zf, Zv = (Xf - mu) / sd, (Xv - mu) / sd
    reg = MLPRegressor(hidden_layer_sizes=(NET_HIDDEN - 2,), activation="relu", solver="adam", alpha=alpha,
                       batch_size=256, learning_rate_init=1e-3, random_state=seed)
    coefs, icpts = early_stopped(reg, lambda: reg.partial_fit(Zf, (rf - r_mu) / r_sd),
                                 lambda: float(np.mean((reg.predict(Zv) * r_sd + r_mu - rv) ** 2)) if len(Xv) else 0.0,
                                 max_epochs, patience)
    net = with_correction(mu, sd, scale, coefs, icpts, r_sd, r_mu)
    return (net, *_held_out(net, holdout, held_targets))


def early_stopped(reg, step: Callable[[], object], loss: Callable[[], float], max_epochs: int,
                  patience: int) -> tuple[list, list]:
    """``step()`` (an epoch of ``reg``, an ``MLPRegressor``) then ``loss()`` (its held-out loss), until the loss has
    not fallen for ``patience`` epochs or ``max_epochs`` have run: the weights and biases of the epoch with the lowest."""
    best, kept, bad = np.inf, None, 0
    for _ in range(max_epochs):
        step()
        v = loss()
        if v < best - 1e-9:
            best, kept, bad = v, ([c.copy() for c in reg.coefs_], [c.copy() for c in reg.intercepts_]), 0
        else:
            bad += 1
            if bad >= patience:
                break
    return kept


def with_correction(mu: np.ndarray, sd: np.ndarray, scale: float, coefs: list, icpts: list, gain: float,
                    offset: float) -> dict:
    """:func:`linear_passthrough` with a fitted correction in its other hidden units: an ``MLPRegressor``'s
    weights ``coefs`` and biases ``icpts`` (fitted on standardised targets), its output x ``gain`` + ``offset`` VP
    added to the linear margin (over ``scale``, as the network's output is)."""
    net = linear_passthrough(mu, sd, scale)
    net["w1"][:, 2:] = coefs[0]
    net["b1"][2:] = icpts[0]
    net["w2"][2:] = coefs[1][:, 0] * gain / scale
    net["b2"] = np.float64(net["b2"] + (icpts[1][0] * gain + offset) / scale)
    return net


def _held_out(net: dict, holdout: Batch | None, held_targets: np.ndarray | None) -> tuple[float, float]:
    """Held-out R^2 of the targets and how often the seat with the highest prediction wins."""
    from sklearn.metrics import r2_score

    if holdout is None or not len(holdout.x):
        return float("nan"), float("nan")
    pred = forward_np(net, holdout.x)  # [games, T, n]
    r2 = float(r2_score(held_targets.reshape(-1), pred.reshape(-1)))
    lead = pred.argmax(axis=2)  # the predicted leader at each decade's end
    g = np.arange(pred.shape[0])[:, None]
    return r2, float(np.mean(holdout.winners[g, lead] > 0))


@dataclass
class NetGeneration:
    gen: int
    games: int
    positions: int
    r2: float
    winner_accuracy: float
    sprt: str
    sprt_games: int
    candidate_share: float
    promoted: bool
    seconds: float


@dataclass
class NetResult:
    net: dict | None
    generations: list[NetGeneration] = field(default_factory=list)
    seconds: float = 0.0


def _pool_rows(rows_past: list[np.ndarray]) -> list[np.ndarray]:
    """The opponent pool: the heuristic archetypes, the heuristic forced into the City plan, and the
    earlier generations (the incumbent's own rows are not in it)."""
    from strategies.registry import load_strategies
    from trinidad.probe import PLANS, probe_weights

    W, _ = load_strategies(list(OPPONENTS))
    return [W[i] for i in range(len(OPPONENTS))] + [probe_weights(W[:1], PLANS[0])[1]] + rows_past[:-1]


def train_network(rules_for, base_row: np.ndarray, generations: int, games: int, seed: int, mix: float = 0.3,
                  solo: int = 0, lam: float = 0.7, scale: float = 20.0, duel_games: int = 2000, duel_batch: int = 200,
                  delta: float = 0.1, data_budget: int | None = None, init: dict | None = None, threads: int | None = None,
                  say: Callable[[str], None] | None = None, keep: Path | None = None, residual: bool = False,
                  explore: float = 0.0, sigma: float = 1.0, alpha: float = 10.0) -> NetResult:
    """The generations of the module's docstring. ``rules_for(strength)``: the rules (None: the 4-player
    game; a strength name: the Solo game against it); ``base_row``: the search strategy's W row
    (budget, width, base weights; its linear model is generation 0's evaluation unless ``init``
    gives a network); ``data_budget``: the simulations per decision in the data games (default the
    row's own); ``keep``: a folder to save every candidate's W row in (``cand<gen>.npy``); ``residual``,
    ``explore`` (explorers' share of the seats, moved by ``sigma``) and ``alpha`` (the residual fit's
    L2 penalty): the module docstring's last paragraph."""
    from sim.rng import player_seeds
    from sim.state import AI_STRATEGY
    from strategies.registry import set_network
    from strategies.search import SB
    from strategies.value_model import SEARCH_OFFSET
    from trinidad.train.linear import N_EXPLORERS, explorer_rows

    if generations < 1:
        raise TrainError(f"generations: must be >= 1, got {generations}")
    if games < 10:
        raise TrainError(f"games: must be >= 10, got {games}")
    if not 0.0 <= mix <= 1.0:
        raise TrainError(f"mix: must be in [0, 1], got {mix}")
    if not 0.0 <= lam <= 1.0:
        raise TrainError(f"lambda: must be in [0, 1], got {lam}")
    if not scale > 0:
        raise TrainError(f"scale: must be > 0, got {scale}")
    if not 0.0 <= explore < 1.0 or explore + mix > 1.0:
        raise TrainError(f"explore: must be in [0, 1) with explore + mix <= 1, got {explore} (mix {mix})")
    if not sigma > 0:
        raise TrainError(f"explore-sigma: must be > 0, got {sigma}")
    t0 = time.perf_counter()
    res = NetResult(net=init)
    incumbent = set_network(base_row, {**init, "scale": scale}) if init is not None else base_row.copy()
    past: list[np.ndarray] = [incumbent]
    batches: list[Batch] = []
    rules4 = rules_for(None)
    for gen in range(1, generations + 1):
        tg = time.perf_counter()
        data_row = incumbent.copy()
        if data_budget is not None:
            data_row[SEARCH_OFFSET + SB.BUDGET] = data_budget
        pool = _pool_rows(past)
        W = np.stack([data_row] + pool)
        rng = np.random.default_rng([seed, gen])
        strat = np.zeros((games, 4), np.int32)
        u = rng.random((games, 4))
        swap = u < mix
        strat[swap] = rng.integers(1, len(W), int(swap.sum()))
        if explore > 0:  # drawn after the pool, from its own stream, so explore 0 leaves the games as they were
            erng = np.random.default_rng([seed, gen, 7])
            W = np.concatenate([W, np.stack(explorer_rows(data_row, sigma, erng))])
            pick = (u >= mix) & (u < mix + explore)
            strat[pick] = len(W) - N_EXPLORERS + erng.integers(0, N_EXPLORERS, int(pick.sum()))
        seeds = player_seeds(seed * 1000 + gen, 4, 0, games)
        new = [play(rules4, W, 4, seeds, strat, scale, 0, threads)]
        for k in range(solo):
            strength = AI_STRENGTHS[k % len(AI_STRENGTHS)]
            sseeds = player_seeds(seed * 1000 + gen, 2, 1 + k, games // 4 or 1)
            ss = np.zeros((len(sseeds), 2), np.int32)
            sw = rng.random(len(sseeds)) < mix  # the human seat from the pool too
            ss[sw, 0] = rng.integers(1, len(W), int(sw.sum()))
            ss[:, 1] = AI_STRATEGY
            ss[1::2] = ss[1::2, ::-1]  # the A.I. first in turn order in every other game
            new.append(play(rules_for(strength), W, 2, sseeds, ss, scale, 0, threads))
        batches.extend(new)
        # held out: the last fifth of this generation's 4-player games
        hb = new[0]
        cut = int(round(len(hb.x) * 0.8))
        held = Batch(hb.x[cut:], hb.z[cut:], hb.winners[cut:], hb.own[cut:])
        train_b = batches[:-len(new)] + [Batch(hb.x[:cut], hb.z[:cut], hb.winners[:cut], hb.own[:cut])] + new[1:]
        lin_scale = scale if residual else None
        targets = [td_targets(b, res.net, lam, lin_scale) for b in train_b]
        held_t = td_targets(held, res.net, lam, lin_scale)
        if residual:
            cand, r2, acc = fit_residual(train_b, targets, held, held_t, seed * 1000 + gen, scale, alpha)
        else:
            cand, r2, acc = fit(train_b, targets, held, held_t, seed * 1000 + gen)
        cand_row = set_network(base_row, {**cand, "scale": scale})
        if keep is not None:
            np.save(keep / f"cand{gen}.npy", cand_row)
        decision, played, share, promoted = challenge(rules4, cand_row, incumbent, duel_games, duel_batch, seed, gen, 4, delta,
                                                      threads)
        if promoted:
            res.net = cand
            incumbent = cand_row
            past.append(cand_row)
        npos = int(sum(b.x.shape[0] * b.x.shape[1] * b.x.shape[2] for b in new))
        g = NetGeneration(gen, games, npos, r2, acc, decision, played, share, promoted, time.perf_counter() - tg)
        res.generations.append(g)
        if say:
            say(f"generation {gen}: {npos:,} positions, held-out R2 {r2:.3f}, predicted leader wins {acc:.1%}; "
                f"{verdict(share, played, decision, promoted)} ({g.seconds:.0f} s)")
    res.seconds = time.perf_counter() - t0
    return res


def write_network_file(path: Path, net: dict, scale: float, provenance: dict) -> Path:
    """The network file (strategies.registry.load_network_file reads it): its arrays, the value
    features it was trained on, and the provenance as JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        np.savez(fh, mu=net["mu"], sd=net["sd"], w1=net["w1"], b1=net["b1"], w2=net["w2"], b2=np.float64(net["b2"]),
                 scale=np.float64(scale), features=np.array(VF_NAMES), provenance=np.array(json.dumps(provenance, sort_keys=True)))
    return path


def generation_log(res: NetResult) -> list[dict]:
    """The generations as plain data (the provenance's ``generation_log``)."""
    return [{"gen": g.gen, "games": g.games, "positions": g.positions, "held_out_r2": round(g.r2, 4),
             "held_out_winner_accuracy": round(g.winner_accuracy, 4), "sprt": g.sprt, "sprt_games": g.sprt_games,
             "candidate_win_share": round(g.candidate_share, 4), "promoted": g.promoted, "seconds": round(g.seconds, 1)}
            for g in res.generations]


assert N_VF == len(VF_NAMES)
