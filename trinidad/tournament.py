"""Strategy tournaments (``trinidad tournament``): strategies play each other with the seats rotated
on common seeds, and each gets a win rate with a Wilson 95% interval, a mean rank and a mean VP.

Design:

- **Seats rotated on common seeds.** With strategies ``L = [l_0, ..., l_{k-1}]`` (k entries, in the
  order given) and ``n`` seats, rotation ``r`` (``0 <= r < k``) puts ``L[(s + r) % k]`` in seat ``s``.
  Rotation 0 is the list cycled to fill the seats, as an experiment's ``[seats] strategies`` are.
  Every base seed is played once per rotation, so each entry of the list sits in each seat exactly
  once per base seed, on the same seeds as every other entry (common random numbers: the strategies
  meet the same deals). With more strategies than seats, a strategy sits out some rotations.
- **Games.** ``games`` is the total number of games: ``base seeds x k rotations``, rounded up to a
  multiple of ``k`` (:func:`plan` gives the actual count). Base seed ``i`` is the seed of game ``i``
  of an ``n``-player block of a ``trinidad run`` with the same master seed
  (``game_seed(game_seed(master, n), i)``, :func:`sim.rng.player_seeds`), so
  ``trinidad play --players n --seed <seed>`` replays any game.
- **Counting.** Every statistic is per seat-game: a strategy holding several seats of one game
  (fewer strategies than seats, or a name given twice) counts each seat as its own seat-game, so
  ``n`` = seat-games and the fair win rate is ``1 / players`` for every strategy.
- **Ties.** The engine ranks by VP, then resources; seats still equal share rank 1. A tie for
  first between ``k`` winners gives each ``1/k`` of a win, so the win rates of a game sum to 1. The
  Wilson interval (statsmodels ``proportion_confint(method="wilson")``) takes this fractional win
  count as its count. Mean rank uses the engine's shared ranks (1, 1, 3, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field

import numpy as np

MAX_SEED = 2**63 - 1
CHUNK_GAMES = 2048  # games per batch call (the decade records are ~17 KB a game)


class TournamentError(ValueError):
    """A bad tournament argument; the message is one line starting with the argument's name."""


@dataclass(frozen=True)
class StrategyStats:
    name: str
    win_rate: float  # fractional wins / seat-games
    ci_low: float  # Wilson 95% interval of win_rate
    ci_high: float
    mean_rank: float
    mean_vp: float
    n: int  # seat-games
    wins: float  # fractional win count (a tie for first among k seats gives each 1/k)

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if k != "wins"}


@dataclass
class TournamentResult:
    strategies: list[StrategyStats]  # one per distinct name, in first-seen order
    games: int  # games played = base_seeds * rotations
    players: int
    seed: int
    lineup: list[str]  # the strategies as given (rotation r puts lineup[(s + r) % k] in seat s)
    rotations: int
    base_seeds: int
    tie_games: int = 0  # games with a tie for first
    seat_games: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.int64))  # [strategy, seat] counts
    aliases: dict[str, str] = field(default_factory=dict)  # each alias played (``best``) and the strategy it named

    def to_dict(self) -> dict:
        """The ``--json`` object."""
        return {"strategies": [s.to_dict() for s in self.strategies], "games": self.games, "players": self.players,
                "seed": self.seed, "aliases": self.aliases}

    def frame(self):
        """One row per strategy as a polars DataFrame (name, win_rate, ci_low, ci_high, mean_rank, mean_vp, n, wins)."""
        import polars as pl

        return pl.DataFrame([asdict(s) for s in self.strategies])

    def stats(self, name: str) -> StrategyStats:
        for s in self.strategies:
            if s.name == name:
                return s
        raise KeyError(name)


def default_players(n_strategies: int) -> int:
    """The number of strategies when it is 2..5, else 4."""
    return n_strategies if 2 <= n_strategies <= 5 else 4


def rotations(lineup_ids: list[int], players: int) -> np.ndarray:
    """``[k, players]`` strategy ids: row ``r`` puts ``lineup_ids[(s + r) % k]`` in seat ``s``."""
    k = len(lineup_ids)
    ids = np.asarray(lineup_ids, np.int32)
    return ids[(np.arange(k)[:, None] + np.arange(players)[None, :]) % k]


def plan(n_strategies: int, games: int) -> tuple[int, int]:
    """(base seeds, games played) for ``games`` asked: every base seed is played once per rotation
    (one per strategy), so the count is rounded up to a multiple of the number of strategies."""
    base = -(-games // n_strategies)
    return base, base * n_strategies


def win_credit(records: np.ndarray, players: int) -> np.ndarray:
    """Each seat's credit for the win (``[games, players]``) from games' per-seat records
    (``[games, >=players, N_RG]``, sim.schema.RG): 1 to the winner, 1/k to each of k seats tied for
    first (END OF THE GAME VPS VARIATIONS: the most VPs, then the most resources, then "both players
    win"; RG.WINNER marks every seat left level), 0 to the others."""
    from sim.schema import RG

    win = records[:, :players, RG.WINNER].astype(np.float64)
    k = win.sum(axis=1, keepdims=True)
    if np.any(k < 1):
        raise ValueError("records: a game without a winner")
    return win / k


def tally(records: np.ndarray, players: int, n_strategies: int) -> dict[str, np.ndarray]:
    """Sums per strategy id over games' per-seat records (``[games, >=players, N_RG]``, sim.schema.RG):
    seat-games, fractional wins, rank and VP sums, seat-games per seat, and games with a tie for first."""
    from sim.schema import RG

    g = records[:, :players, :]
    sid = g[:, :, RG.STRATEGY].astype(np.int64)
    share = win_credit(g, players)
    seat = np.broadcast_to(np.arange(players), sid.shape)
    ns = n_strategies
    return {
        "n": np.bincount(sid.ravel(), minlength=ns).astype(np.int64),
        "wins": np.bincount(sid.ravel(), weights=share.ravel(), minlength=ns),
        "rank": np.bincount(sid.ravel(), weights=g[:, :, RG.RANK].ravel().astype(np.float64), minlength=ns),
        "vp": np.bincount(sid.ravel(), weights=g[:, :, RG.VP].ravel().astype(np.float64), minlength=ns),
        "seat": np.bincount((sid * players + seat).ravel(), minlength=ns * players).reshape(ns, players).astype(np.int64),
        "tie_games": np.array(int((share.max(axis=1) < 1).sum()), np.int64),
    }


def _add(a: dict | None, b: dict) -> dict:
    return dict(b) if a is None else {key: a[key] + b[key] for key in a}


def wilson(wins: float, n: int, alpha: float = 0.05) -> tuple[float, float]:
    """Wilson score interval of ``wins / n`` (statsmodels); ``wins`` may be fractional (ties)."""
    if n == 0:
        return float("nan"), float("nan")
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = proportion_confint(wins, n, alpha=alpha, method="wilson")
    return float(lo), float(hi)


def stats_from_tally(t: dict, names: list[str]) -> list[StrategyStats]:
    out = []
    for i, name in enumerate(names):
        n = int(t["n"][i])
        w = float(t["wins"][i])
        lo, hi = wilson(w, n)
        out.append(StrategyStats(name=name, win_rate=w / n if n else float("nan"), ci_low=lo, ci_high=hi,
                                 mean_rank=float(t["rank"][i]) / n if n else float("nan"),
                                 mean_vp=float(t["vp"][i]) / n if n else float("nan"), n=n, wins=w))
    return out


def score_games(records: np.ndarray, players: int, names: list[str]) -> list[StrategyStats]:
    """Per-strategy statistics of a record array ``[games, >=players, N_RG]`` whose strategy column
    holds indices into ``names``."""
    return stats_from_tally(tally(records, players, len(names)), names)


def played_records(threads: int | None = None, **args) -> np.ndarray:
    """:func:`trinidad.batch.play_batch`'s game records for its keyword ``args``: how a tournament plays its games
    unless given another ``play`` of the same signature (``trinidad ladder --store`` keeps them)."""
    from trinidad.batch import play_batch

    return play_batch(threads=threads, **args)[1]


def run_tournament(strategies: list[str], players: int | None = None, games: int = 1000, seed: int = 1,
                   threads: int | None = None, rules=None, first_game: bool = False,
                   progress: Callable[[int, int], None] | None = None,
                   play: Callable[..., np.ndarray] | None = None) -> TournamentResult:
    """Play a tournament and return its statistics.

    ``strategies``: names (file stems in strategies/) or TOML paths, at least 2 entries; ``players``
    defaults to :func:`default_players`; ``games``: total games asked (rounded up to a multiple of the
    number of entries); ``rules``: a rules record (default: the bundled rules); ``progress(done, total)``
    is called after each batch; ``play``: what plays a batch (default :func:`played_records`; the same games
    whatever it is, e.g. kept in a store). Results depend only on the arguments, never on ``threads``."""
    from sim.rng import player_seeds
    from sim.state import MAX_PLAYERS
    from strategies.registry import StrategyError, load_strategies, resolve

    play = play or played_records
    lineup = [str(s).strip() for s in strategies]
    if len(lineup) < 2 or any(not s for s in lineup):
        raise TournamentError(f"strategies: give at least 2 comma-separated strategy names, got {','.join(lineup)!r}")
    n = default_players(len(lineup)) if players is None else players
    if not 2 <= n <= MAX_PLAYERS:
        raise TournamentError(f"players: must be 2..{MAX_PLAYERS}, got {n}")
    if games < 1:
        raise TournamentError(f"games: must be >= 1, got {games}")
    if not 0 <= seed <= MAX_SEED:
        raise TournamentError(f"seed: must be 0..{MAX_SEED}, got {seed}")
    if threads is not None and threads < 1:
        raise TournamentError(f"threads: must be >= 1, got {threads}")
    try:
        W, names = load_strategies(lineup)
        aliases = {a: resolve(a) for a in names if resolve(a) != a}  # an alias's target changes over time: record it
    except StrategyError as e:
        raise TournamentError(f"strategies: {e}") from None
    if rules is None:
        from sim.rules import load_rules

        rules = load_rules()
    k = len(lineup)
    rot = rotations([names.index(s) for s in lineup], n)
    base, total = plan(k, games)
    t = None
    for a in range(0, total, CHUNK_GAMES):
        idx = np.arange(a, min(a + CHUNK_GAMES, total))
        b0, b1 = int(idx[0] // k), int(idx[-1] // k)
        seeds = player_seeds(seed, n, b0, b1 - b0 + 1)[idx // k - b0]  # game g: base seed g // k, rotation g % k
        gam = play(rules=rules, W=W, n_players=n, seeds=seeds, strategies=rot[idx % k], first_game=first_game,
                   threads=threads)
        t = _add(t, tally(gam, n, len(names)))
        if progress is not None:
            progress(int(idx[-1]) + 1, total)
    return TournamentResult(strategies=stats_from_tally(t, names), games=total, players=n, seed=seed, lineup=lineup,
                            rotations=k, base_seeds=base, tie_games=int(t["tie_games"]), seat_games=t["seat"],
                            aliases=aliases)
