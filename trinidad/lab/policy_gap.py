"""How far a search's simulated play is from the search's own play (issue 36: the simulations' policy).

A search seat (strategies.search) values its candidate rows by simulations in which every seat, itself included,
plays by its base heuristic's values (strategies.policy), kept from the Acts of ``[search] rollout_forbid``. The
simulations are then only as good a guide as that policy is a model of how the seats really play. Here a table of
the search plays its games (every seat, Characters drafted) and each of its real TURN decisions (B. ACTION PHASE)
is kept with all its legal rows (strategies.search.record_choice_rows): the row the search took and the one its
simulated self would have taken there, the heuristic's best row among those the simulations allow (ties shared).

The report: how often the two agree, and for each Act how often the search takes it, how often its simulated
self would, and how often it is on offer. An Act the simulated self plays far more than the search is one the
simulations misjudge for every seat (the Major buildings were the case: docs/notebook/probes.md, "Where the misjudgement
sits"; `[search] rollout_forbid` keeps the simulations off them).

    python -m trinidad.lab.policy_gap --strategy best --games 100 --seed 4712 --threads 2 [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np

CHUNK = 10  # games a thread plays at once, whatever the threads: the rows do not depend on them
ROWS_PER_GAME = 16_000  # legal rows a 4-player game's TURN decisions take (measured for `best`: about 12,600)


class GapError(ValueError):
    """A policy-gap run that cannot be made (not a search strategy, no games)."""


def choice_rows(rules, W: np.ndarray, sid: int, players: int, games: int, seed: int,
                threads: int | None = None) -> np.ndarray:
    """Strategy ``sid`` of ``W`` at every seat of ``games`` games (master seed ``seed``, game seeds
    sim.rng.game_seeds): every legal row of its TURN decisions, strategies.rollout.PH columns, the decisions
    numbered in game order. The games are played in chunks of :data:`CHUNK`, on up to ``threads`` threads at once
    (a chunk on one), so the rows are the same for any number of threads; a chunk whose room fills is played
    again with twice the room (its games are a pure function of their seeds)."""
    from sim.compiled_parts import for_players
    from sim.game import allocate
    from sim.rng import game_seeds
    from sim.state import MAX_OPTIONS
    from strategies.rollout import PH, new_labels
    from trinidad.batch import play_batch

    with np.errstate(over="ignore"):
        seeds = game_seeds(seed, 0, games)
    strat = np.full((games, players), sid, np.int32)
    blank = allocate(for_players(rules, strat))

    def chunk(a):
        b = min(games, a + CHUNK)
        room = (b - a) * ROWS_PER_GAME * players // 4
        while True:
            lab = new_labels(blank, 0, 0, room)
            play_batch(rules, W, players, seeds[a:b], strat[a:b], labels=lab)
            n = int(lab[4][2])
            if room - n >= MAX_OPTIONS:  # room for any decision's rows was left: none was left out
                return lab[5][:n].astype(np.float64), int(lab[4][3])
            room *= 2

    with ThreadPoolExecutor(max(1, threads or 1)) as ex:
        parts = list(ex.map(chunk, range(0, games, CHUNK)))
    out, off = [], 0
    for rows, decisions in parts:
        rows[:, PH.DECISION] += off
        off += decisions
        out.append(rows)
    return np.concatenate(out) if out else np.zeros((0, len(PH)))


def simulated_pick(rows: np.ndarray, forbid_mask: int) -> np.ndarray:
    """For each row of ``rows`` (PH columns, a decision's rows contiguous): its share of the simulated self's
    pick in its decision, the heuristic's best row (ties share the pick: the policy draws one at random) among
    those the simulations list: the Acts of ``forbid_mask`` (bit Act) dropped while another main action is left
    (strategies.policy.drop_forbidden)."""
    from sim.codes import FIRST_FREE_ACT
    from strategies.rollout import PH

    dec = rows[:, PH.DECISION].astype(np.int64)
    act = rows[:, PH.ACT].astype(np.int64)
    starts = np.flatnonzero(np.r_[True, dec[1:] != dec[:-1]])
    lens = np.diff(np.r_[starts, len(dec)])
    forbidden = ((forbid_mask >> act) & 1) == 1
    main_left = np.add.reduceat((~forbidden & (act < FIRST_FREE_ACT)).astype(np.int64), starts) > 0
    drop = forbidden & np.repeat(main_left, lens)
    v = np.where(drop, -np.inf, rows[:, PH.VALUE])
    top = np.repeat(np.maximum.reduceat(v, starts), lens)
    best = (v >= top - 1e-9) & ~drop  # strategies.policy.TIE
    return best / np.repeat(np.add.reduceat(best.astype(np.float64), starts), lens)


def gap(rows: np.ndarray, forbid_mask: int) -> dict:
    """The report of the module docstring from :func:`choice_rows`' rows: decisions, the agreement (the share of
    decisions whose search row is the simulated self's pick, ties shared) and per Act the shares of decisions in
    which the search takes it, the simulated self would, and it is offered."""
    from sim.codes import Act
    from strategies.rollout import PH

    if len(rows) == 0:
        raise GapError("no TURN decision kept")
    dec = rows[:, PH.DECISION].astype(np.int64)
    n = int(dec.max()) + 1
    chosen = rows[:, PH.CHOSEN] > 0
    sim = simulated_pick(rows, forbid_mask)
    act = rows[:, PH.ACT].astype(np.int64)
    acts = {}
    for a in Act:
        on = act == int(a)
        if not on.any():
            continue
        acts[a.name.lower()] = {"search": float((chosen & on).sum() / n), "simulated": float(sim[on].sum() / n),
                                "offered": float(len(np.unique(dec[on])) / n)}
    return {"decisions": n, "rows": int(len(rows)), "agreement": float(sim[chosen].sum() / n),
            "forbid": [a.name.lower() for a in Act if (forbid_mask >> int(a)) & 1], "acts": acts}


def policy_gap(strategy: str, games: int, seed: int, players: int = 4, threads: int | None = None) -> dict:
    """:func:`gap` of ``strategy`` (a search-family file) over ``games`` games of it at every seat."""
    from sim.rules import load_rules
    from strategies.policy import FAMILY_SEARCH, F
    from strategies.registry import load_strategies
    from strategies.search import SB
    from strategies.value_model import SEARCH_OFFSET

    if games < 1:
        raise GapError(f"games: must be >= 1, got {games}")
    W, names = load_strategies([strategy])
    if int(W[0, F.FAMILY]) != FAMILY_SEARCH:
        raise GapError(f"{strategy}: not a search-family strategy (its simulated self is its own policy)")
    rows = choice_rows(load_rules(), W, 0, players, games, seed, threads)
    out = gap(rows, int(W[0, SEARCH_OFFSET + SB.ROLLOUT_FORBID]))
    return {"strategy": strategy, "resolved": names[0], "games": games, "seed": seed, "players": players, **out}


def format_gap(res: dict) -> str:
    lines = [f"{res['strategy']} ({res['resolved']}): {res['games']} games of {res['players']} players, seed {res['seed']}; "
             f"{res['decisions']:,} TURN decisions, {res['rows']:,} legal rows; the simulations forbid: "
             f"{', '.join(res['forbid']) or 'nothing'}",
             f"the simulated self's pick is the search's in {res['agreement']:.1%} of the decisions",
             f"{'act':14s} {'search':>8s} {'simulated':>10s} {'offered':>8s}   (shares of the decisions)"]
    for a, v in sorted(res["acts"].items(), key=lambda kv: -abs(kv[1]["simulated"] - kv[1]["search"])):
        lines.append(f"{a:14s} {v['search']:8.1%} {v['simulated']:10.1%} {v['offered']:8.1%}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m trinidad.lab.policy_gap", description=__doc__.split("\n\n")[0])
    ap.add_argument("--strategy", default="best", help="a search-family strategy (name in strategies/ or a TOML path)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    a = ap.parse_args(argv)
    try:
        res = policy_gap(a.strategy, a.games, a.seed, a.players, a.threads)
    except GapError as e:
        print(f"policy_gap: {e}", file=sys.stderr)
        return 2
    print(json.dumps(res, indent=1) if a.json else format_gap(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
