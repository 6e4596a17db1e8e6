"""What the self-play trainers of trinidad.train share: their error, TD(lambda) returns, and the
duel in which a candidate must beat the incumbent under Wald's SPRT to be promoted."""

from __future__ import annotations

import numpy as np


class TrainError(ValueError):
    """Bad arguments to ``trinidad train`` (one line, naming the option)."""


def td_returns(V: np.ndarray, z: np.ndarray, lam: float) -> np.ndarray:
    """TD(lambda) returns ``G[games, T, n]`` over each seat's decade-end positions 0..T-1:
    ``G_{T-1} = z`` (the outcome), ``G_d = (1 - lam) V_{d+1} + lam G_{d+1}``. ``V[games, T, n]``: the
    bootstrap values of the same positions (``V[:, 0]`` is not read); ``z[games, n]``: the outcome.
    ``lam`` 1: the outcome everywhere."""
    T = V.shape[1]
    G = np.empty(V.shape, np.float64)
    G[:, T - 1] = z
    for d in range(T - 2, -1, -1):
        G[:, d] = (1.0 - lam) * V[:, d + 1] + lam * G[:, d + 1]
    return G


def duel(rules, row_a: np.ndarray, row_b: np.ndarray, max_games: int, batch: int, seed: int, players: int,
         delta: float, threads: int | None):
    """Candidate ``row_a`` against incumbent ``row_b``, two seats each (seats rotated on common
    seeds), in batches until the SPRT decides or ``max_games`` are played. Returns (decision,
    games, candidate's share of the wins)."""
    from analysis.stats import sprt
    from sim.rng import player_seeds
    from trinidad.batch import play_batch
    from trinidad.tournament import rotations, win_credit

    W = np.stack([row_a, row_b])
    rot = rotations([0, 1], players)
    diffs: list[float] = []
    share_a = 0.0
    played = 0
    res = None
    while played < max_games:
        base0 = played // 2
        nb = min(batch, max_games - played) // 2 or 1
        seeds = player_seeds(seed, players, base0, nb)
        seeds2 = np.repeat(seeds, 2)
        strat = np.tile(rot, (nb, 1))
        _, gam = play_batch(rules, W, players, seeds2, strat, threads=threads)
        a = (win_credit(gam, players) * (strat == 0)).sum(axis=1)  # candidate's share of each game's win
        per_seed = a.reshape(nb, 2).mean(axis=1)
        diffs.extend((2 * per_seed - 1).tolist())  # candidate share minus incumbent share
        share_a += float(a.sum())
        played += 2 * nb
        res = sprt(diffs, delta)
        if res.decision != "continue":
            break
    decision = res.decision + (f" ({res.direction})" if res.direction else "") if res else "continue"
    return decision, played, share_a / max(1, played), res


def challenge(rules, candidate: np.ndarray, incumbent: np.ndarray, max_games: int, batch: int, seed: int, gen: int,
              players: int, delta: float, threads: int | None) -> tuple[str, int, float, bool]:
    """A generation's duel (:func:`duel`, on the generation's own seeds) and its verdict: (decision,
    games, the candidate's share of the wins, promoted). The candidate is promoted only on H1 in its
    favour ("+"); a decision for H0, or none within ``max_games``, keeps the incumbent."""
    decision, played, share, _ = duel(rules, candidate, incumbent, max_games, batch, seed * 1000 + 500 + gen, players, delta,
                                      threads)
    return decision, played, share, decision.startswith("H1") and decision.endswith("(+)")


def verdict(share: float, played: int, decision: str, promoted: bool) -> str:
    """A generation's duel as its progress line says it."""
    return (f"candidate vs incumbent {share:.1%} of wins in {played} games: {decision} -> "
            f"{'promoted' if promoted else 'kept the incumbent'}")
