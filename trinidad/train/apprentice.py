"""``trinidad train --apprentice`` (issue 36): the apprentice (strategies.apprentice), a network that
ranks a seat's TURN rows, fitted by DAgger to the rollout planner's counterfactual labels in Solo
games against the rulebook's A.I. (TWO PLAYERS GAME & SOLO MODE), or, with ``players`` 2-5, in games
of that many players (every seat the planner; the table's own network, as Keldon Jones' Race for the
Galaxy A.I. keeps one network per player count).

The rollout planner (strategies.rollout.plan_choice) plays each of its candidate rows on from copies
of the position and keeps the decision with each row's mean VP margin (strategies.rollout.record_labels):
rows that differ only by the action. Generation 0 fits the network to the planner's labels from its own
games. Each later generation is DAgger (Ross, Gordon and Bagnell 2011): the last network acts in the
data games while the planner labels every position it reaches (``AB_MODE_DAGGER``), and the network is
fitted again on every label so far. A network fitted on the planner's positions alone drifts into
positions it never saw (docs/notebook/solo.md: 17 points below its base heuristic); DAgger's labels are where
it plays.

With ``expert`` (``--expert``) the teacher improves too (expert iteration, Anthony, Tian and Barber
2017; AlphaZero's loop without the tree): the planner's simulations, which DAgger plays by the base
heuristic, are played by the last network (``AB_MODE_EXPERT``), as ``rollout-apprentice-solo`` plays
them, so each generation is fitted to the labels of the planner over the network before it.

Each generation's network is measured by a gauntlet: Solo games on deals of another master seed (never
trained on), the network alone (``rollouts = 0``) against the planner's base heuristic on the same deals,
paired by deal. At a table the gauntlet seats the network alone at one seat (turning round the seats
game by game) among the base heuristic's, and pairs its win credit by deal with that seat's in the same
deal played by the base heuristic at every seat (parity: one over the players). The network of the
generation with the best mean beat rate is written; a starting network (``init``) is measured too, as
generation 0, so a run that does not improve on it writes it back.

Data games are dealt as ``trinidad.ai_scale`` deals them (balanced Characters, the A.I. first in every
other block of 12; at a table balanced Characters over every seat), generation g and strength i playing
games ``(g * strengths + i) * games ..`` of the master seed, so every generation's games are new (a
table has one "strength", named :data:`TABLE`). The games of one data batch are split over the
threads in chunks (each with its own label room, strategies.rollout.new_labels); results do not depend
on the number of threads.

A warm-started fit forgets the labels it no longer sees (docs/notebook/solo.md, "What was tried": a second run's
first generation, fitted on its own rows only, fell 8 points). ``labels`` (``--labels DIR``) carries a
run's labels into the next: each generation's rows are written to ``DIR`` (:func:`write_labels`), and the
files already there join every fit of a later run, as earlier generations of one run do.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.compiled_parts import for_players
from sim.game import allocate
from sim.rng import player_seeds
from sim.state import N_CHARACTERS
from strategies.apprentice import AB_MODE_DAGGER, AB_MODE_EXPERT, AB_ON, APPRENTICE_OFFSET, HIDDEN, N_IN, decision_inputs, input_names, one_hot_inputs
from strategies.policy import P
from strategies.rollout import labels_kept, new_labels
from strategies.weights import N_WEIGHTS
from trinidad.ai_scale import credit, deal
from trinidad.batch import play_batch

TABLE = "table"  # the one condition of table games (players 2-5, no A.I.), where Solo games have A.I. strengths
TARGET_SCALE = 5.0  # VP: the fit's targets are divided by it (MLPRegressor's default initialisation suits unit targets)
CHUNK = 16  # data games a label room holds: a kept position is a whole state record (about 0.3 MB)
ROOM = 160  # kept decisions a Solo data game has room for (the planner's seat keeps about 50)
TABLE_ROOM = 100  # kept decisions a table game has room for, a seat (a seat of 4 players keeps about 70)
LABELS_GLOB = "labels-seed*-gen*.npz"  # the files of --labels (labels_path)


class ApprenticeError(ValueError):
    """A setting the trainer cannot use (the CLI reports it)."""


@dataclass
class Generation:
    """One generation: its data, its fit and its gauntlet."""

    gen: int
    data_games: int
    decisions: int
    rows: int
    rows_total: int
    epochs: int
    fit_s: float
    gauntlet: dict[str, float]  # strength -> the network's beat rate on the gauntlet deals
    paired: dict[str, list[float]]  # strength -> [difference, low, high] against the base heuristic (points, t 95%)
    seconds: float


@dataclass
class ApprenticeResult:
    nets: list[dict]
    generations: list[Generation]
    base: dict[str, float]  # the base heuristic's beat rate on the gauntlet deals
    chosen: int  # the generation whose network is written
    seconds: float = 0.0
    per_deal: dict[str, list[float]] = field(default_factory=dict)
    labels: dict = field(default_factory=dict)  # --labels: the folder, the files carried in and those written


def _blocks(row: np.ndarray, slot: int, value: float) -> np.ndarray:
    """``row`` with ``slot`` set in every weight block (setup switches a seat to its Character's block)."""
    row = row.copy()
    for b in range(1 + N_CHARACTERS):
        row[b * N_WEIGHTS + slot] = value
    return row


def planner_rows(row: np.ndarray, net: dict | None, mode: str, expert: bool = False) -> np.ndarray:
    """The rollout planner's W row ``row`` as the trainer plays it. ``mode``: ``"label"`` the planner
    (with ``net``: the network acts while the planner labels, its simulations played by the base
    heuristic, or with ``expert`` by the network), ``"alone"`` the network alone, ``"base"`` the
    planner's base heuristic alone."""
    from strategies.registry import set_apprentice

    cand = int(row[P.CANDIDATES])
    if mode == "base":
        return _blocks(row, P.ROLLOUTS, 0.0)
    if net is None:
        if mode != "label":
            raise ApprenticeError(f"mode {mode!r} needs a network")
        return row.copy()
    out = set_apprentice(row, net, cand)
    if mode == "label":
        out[APPRENTICE_OFFSET + AB_ON] = AB_MODE_EXPERT if expert else AB_MODE_DAGGER  # strategies.rollout.plan_choice
    else:
        out = _blocks(out, P.ROLLOUTS, 0.0)
    return out


def table_experiment(strategy: str, games: int, seed: int, players: int):
    """The table games the trainer plays (``players`` 2-5, no A.I.): ``strategy`` at every seat, balanced Characters."""
    from trinidad.experiment import experiment_from_dict

    return experiment_from_dict({"name": "apprentice-table", "players": players, "games": games, "seed": seed,
                                 "out": "runs/apprentice", "seats": {"strategies": [strategy], "assign": "fixed"},
                                 "characters": {"assign": "balanced"}}, "apprentice")


def _seats(players: int) -> int:
    """Seats of a game: the Solo game's two (the player and the A.I.), else the players."""
    return 2 if players == 1 else players


def _dealt(exp, start: int, games: int, players: int = 1):
    """Strategy ids (every player seat 0), Characters and the measured seat of games ``start ..``: the
    Solo game's as trinidad.ai_scale deals them; at a table the seat turns round game by game."""
    idx = np.arange(start, start + games)
    if players == 1:
        return deal(0, exp.seat_characters(1, idx)[:, 0])
    return np.zeros((games, players), np.int32), exp.seat_characters(players, idx), (idx % players).astype(np.int64)


def collect(rules_for, W: np.ndarray, exp, strengths: list[str], games: int, seed: int, gen: int,
            room: int, threads: int, players: int = 1) -> tuple[np.ndarray, np.ndarray, int]:
    """Data games of generation ``gen`` (strategy row 0 of ``W`` plays, as :func:`planner_rows` set
    it): the kept decisions as candidate rows ``X`` (float32[rows, N_IN], strategies.apprentice's
    inputs) and targets ``y`` (each row's mean margin less its decision's mean). ``room``: kept decisions a
    game has room for. Returns (X, y, decisions)."""
    seats = _seats(players)
    chunk = max(1, CHUNK * 2 // seats)  # a table game keeps every seat's decisions
    jobs = []
    for i, s in enumerate(strengths):
        start = (gen * len(strengths) + i) * games
        for a in range(0, games, chunk):
            jobs.append((s, start + a, min(chunk, games - a)))

    def one(job):
        s, start, n = job
        R = rules_for(s)
        strat, chars, _ = _dealt(exp, start, n, players)
        RP = for_players(R, strat)
        labels = new_labels(allocate(RP), room * n)
        play_batch(R, W, seats, player_seeds(seed, seats, start, n), strat, chars, threads=1, labels=labels)
        k = int(labels_kept(labels))
        tot = int(labels[1].n[:k].sum())
        X = np.zeros((tot, N_IN))
        y = np.zeros(tot)
        w = decision_inputs(RP, labels, allocate(RP), X, np.zeros(k, np.int64), np.zeros(k, np.int64), y)
        if w != tot:
            raise RuntimeError(f"kept decision {-1 - w} listed again differs from its record")
        return X.astype(np.float32), y, k

    with ThreadPoolExecutor(max(1, threads)) as ex:
        parts = list(ex.map(one, jobs))
    return (np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), sum(p[2] for p in parts))


def labels_path(folder: Path, seed: int, gen: int) -> Path:
    """Where ``--labels`` keeps generation ``gen``'s labels of a run of master seed ``seed``."""
    return Path(folder) / f"labels-seed{seed}-gen{gen}.npz"


def write_labels(path: Path, X: np.ndarray, y: np.ndarray, meta: dict) -> Path:
    """One generation's labels (:func:`collect`'s ``X`` and ``y``) with the inputs they were listed by and
    ``meta`` (the run's seed, generation, strategy, players and strengths). Not compressed: a Solo
    generation of 150 games a strength is about 300,000 rows, about 0.4 GB (1.6 KB a row)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.savez(f, X=np.asarray(X, np.float32), y=np.asarray(y, np.float64), inputs=np.array(input_names()),
                 meta=json.dumps(meta, sort_keys=True))
    return path


def read_labels(folder: Path, players: int, strengths: list[str], seed: int, gauntlet_seed: int
                ) -> tuple[list[np.ndarray], list[np.ndarray], list[dict]]:
    """Every label file in ``folder`` (by name), checked against the run that will fit on them: the same
    inputs, players and strengths; none from a run of this ``seed`` (its data games would be these
    games again) or of the gauntlet's seed (the gauntlet plays deals never trained on). Returns the
    rows, the targets and each file's record for the provenance."""
    Xs, ys, rec = [], [], []
    for path in sorted(Path(folder).glob(LABELS_GLOB)):
        with np.load(path, allow_pickle=False) as z:
            if list(z["inputs"]) != input_names():
                raise ApprenticeError(f"labels: {path} was listed by other inputs than this build's")
            meta = json.loads(str(z["meta"]))
            if meta.get("players") != players or list(meta.get("strengths", [])) != list(strengths):
                raise ApprenticeError(f"labels: {path} holds games of players {meta.get('players')}, strengths "
                                      f"{meta.get('strengths')}; this run plays players {players}, strengths {list(strengths)}")
            if meta.get("seed") in (seed, gauntlet_seed):
                which = "--seed" if meta.get("seed") == seed else "--gauntlet-seed"
                raise ApprenticeError(f"labels: {path} holds games of master seed {meta.get('seed')}, this run's {which}")
            Xs.append(z["X"].astype(np.float32))
            ys.append(z["y"].astype(np.float64))
        rec.append({"file": path.name, "rows": len(ys[-1]), "seed": meta.get("seed"), "generation": meta.get("generation")})
    return Xs, ys, rec


def fit(X: np.ndarray, y: np.ndarray, alpha: float, epochs: int, seed: int, start: dict | None = None) -> tuple[dict, int]:
    """scikit-learn's MLPRegressor (one hidden layer of strategies.apprentice.HIDDEN ReLU units, Adam)
    on the standardised inputs (one-hot inputs left as they are). Returns the network's arrays
    (strategies.registry.load_apprentice_file's) and the epochs run.

    ``start`` (a network's arrays) warm-starts the fit: its standardisation is kept and Adam begins
    from its weights (MLPRegressor's ``warm_start``), so what the network knew of earlier labels is
    where the fit to these begins. A fresh fit on one generation's labels alone played weaker than
    the network that labelled them (docs/notebook/solo.md, "What was tried"). A warm fit runs all ``epochs``
    (the loss-plateau stop would compare against the one-row pass that gives the model its shapes)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor

    hot = one_hot_inputs()
    if start is None:
        mu = X.mean(0, dtype=np.float64)
        sd = X.std(0, dtype=np.float64)
        mu[hot] = 0.0
        sd[hot] = 1.0
        sd[sd == 0] = 1.0
    else:
        mu = np.asarray(start["mu"], np.float64).copy()
        sd = np.asarray(start["sd"], np.float64).copy()
    Z = ((X - mu) / sd).astype(np.float32)
    m = MLPRegressor(hidden_layer_sizes=(HIDDEN,), alpha=alpha, max_iter=epochs, batch_size=min(512, len(y)), random_state=seed,
                     warm_start=start is not None, n_iter_no_change=epochs + 1 if start is not None else 10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # a fixed number of epochs is the setting, not a failure
        if start is not None:
            m.set_params(max_iter=1, batch_size=1)
            m.fit(Z[:1], y[:1] / TARGET_SCALE)  # gives the model its shapes; the weights are replaced next
            m.coefs_ = [np.asarray(start["w1"], np.float32).reshape(Z.shape[1], HIDDEN).copy(),
                        (np.asarray(start["w2"], np.float64) / TARGET_SCALE).astype(np.float32).reshape(HIDDEN, 1)]
            m.intercepts_ = [np.asarray(start["b1"], np.float32).copy(),
                             np.array([float(start["b2"]) / TARGET_SCALE], np.float32)]
            m.set_params(max_iter=epochs, batch_size=min(512, len(y)))
        m.fit(Z, y / TARGET_SCALE)
    net = {"mu": mu, "sd": sd, "w1": m.coefs_[0].astype(np.float64), "b1": m.intercepts_[0].astype(np.float64),
           "w2": m.coefs_[1][:, 0].astype(np.float64) * TARGET_SCALE, "b2": np.float64(m.intercepts_[1][0] * TARGET_SCALE)}
    return net, int(m.n_iter_)


def beat_rates(rules_for, W: np.ndarray, exp, strengths: list[str], games: int, seed: int, threads: int,
               players: int = 1, others: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Strategy row 0 of ``W`` against the A.I. on games ``0 .. games - 1`` of master seed ``seed``:
    the player's win credit per game (trinidad.ai_scale.credit), by strength. At a table (``players``
    2-5) row 0 plays the measured seat and the W row ``others`` every other seat: that seat's win credit (1 a
    win, 1/k a win shared by k seats)."""
    from trinidad.tournament import win_credit

    seats = _seats(players)
    strat, chars, seat = _dealt(exp, 0, games, players)
    seeds = player_seeds(seed, seats, 0, games)
    if players == 1:
        return {s: credit(play_batch(rules_for(s), W, 2, seeds, strat, chars, threads=threads)[1], seat)[:, 0] for s in strengths}
    Wt = np.vstack([W[:1], others[None, :]])
    strat = np.ones_like(strat)
    strat[np.arange(games), seat] = 0
    out = {}
    for s in strengths:
        out[s] = win_credit(play_batch(rules_for(s), Wt, seats, seeds, strat, chars, threads=threads)[1],
                            seats)[np.arange(games), seat]
    return out


def paired(a: np.ndarray, b: np.ndarray) -> list[float]:
    """``a - b`` paired by deal, in points: [mean, low, high] (t 95% interval, analysis.stats.paired_test's)."""
    from analysis.stats import paired_test

    t = paired_test(np.asarray(a) - np.asarray(b))
    return [round(100 * t["diff"], 2), round(100 * t["diff_lo"], 2), round(100 * t["diff_hi"], 2)]


def train_apprentice(rules_for, strategy: str, strengths: list[str], generations: int, games: int, seed: int,
                     gauntlet_games: int, gauntlet_seed: int, room: int | None = None, alpha: float = 1e-3, epochs: int = 40,
                     init: dict | None = None, expert: bool = False, threads: int = 2, players: int = 1,
                     opponent: str | None = None, warm: bool = False, labels: Path | None = None,
                     say=lambda m: None) -> ApprenticeResult:
    """Generation 0 (without ``init``): the planner's own games; generations 1 .. ``generations``:
    DAgger over the last network (``init``'s, when given; then generation 0 is ``init`` itself, measured
    by the gauntlet). With ``expert`` the planner's simulations are played by that network (expert
    iteration). ``strategy``: the rollout planner (a strategy file of family rollout); ``players`` 1:
    Solo games against the A.I. at each of ``strengths``, 2-5: games of that many players, every seat the
    planner (``strengths`` is then ``[TABLE]``); ``rules_for(strength)``: the rules. ``room``: kept
    decisions a data game has room for (default :data:`ROOM`, at a table :data:`TABLE_ROOM` a seat).
    ``opponent``: at a table, the strategy at the gauntlet's other seats (default the planner's base
    heuristic; the measured seat's base is that heuristic either way). ``warm``: each generation's fit
    starts from the last network's weights (:func:`fit`'s ``start``), not afresh. ``labels``: a folder whose
    label files join every fit (:func:`read_labels`) and where each generation's labels are written."""
    from strategies.policy import FAMILY_ROLLOUT
    from strategies.registry import compile_players
    from trinidad.ai_scale import solo_experiment

    if players == 1:
        exp = solo_experiment(strategy, games, seed, strengths)
        gexp = solo_experiment(strategy, gauntlet_games, gauntlet_seed, strengths)
    elif 2 <= players <= 5:
        if list(strengths) != [TABLE]:
            raise ApprenticeError(f"strengths: a table of players plays no A.I. (expected [{TABLE!r}])")
        exp = table_experiment(strategy, games, seed, players)
        gexp = table_experiment(strategy, gauntlet_games, gauntlet_seed, players)
    else:
        raise ApprenticeError(f"players: 1 (the Solo game) or 2-5, got {players}")
    room = room or (ROOM if players == 1 else TABLE_ROOM * players)
    if opponent is not None and players == 1:
        raise ApprenticeError("opponent: only at a table (the Solo game's opponent is the A.I.)")
    Wo = compile_players(exp.strategy_names() + ([opponent] if opponent else []), solo=players == 1).matrix().copy()
    W = Wo[:1].copy()
    if int(W[0, 0]) != FAMILY_ROLLOUT or W[0, P.ROLLOUTS] < 1:
        raise ApprenticeError(f"strategy: {strategy} is not a rollout planner (family = \"rollout\", rollouts >= 1)")
    if seed == gauntlet_seed:
        raise ApprenticeError("gauntlet-seed: must differ from --seed (the gauntlet plays deals never trained on)")
    if generations < 0 or games < 1 or gauntlet_games < 1:
        raise ApprenticeError("generations >= 0, games >= 1 and gauntlet games >= 1")
    t0 = time.perf_counter()
    row = W[0].copy()
    base_row = planner_rows(row, None, "base")
    Wb = W.copy()
    Wb[0] = base_row
    others = Wo[1] if opponent else base_row

    def gauntlet(Wg):
        return beat_rates(rules_for, Wg, gexp, strengths, gauntlet_games, gauntlet_seed, threads, players, others)

    base = gauntlet(Wb)
    say("gauntlet, base heuristic: " + ", ".join(f"{s} {base[s].mean():.1%}" for s in strengths))
    res = ApprenticeResult([], [], {s: float(base[s].mean()) for s in strengths}, -1,
                           per_deal={f"base:{s}": base[s].tolist() for s in strengths})
    Xs, ys = [], []
    if labels is not None:
        Xs, ys, carried = read_labels(labels, players, strengths, seed, gauntlet_seed)
        res.labels = {"folder": str(labels), "carried": carried, "written": []}
        say(f"labels carried from {labels}: {len(carried)} files, {sum(len(v) for v in ys)} rows")
    net = init
    if init is not None:
        Wg = W.copy()
        Wg[0] = planner_rows(row, init, "alone")
        br = gauntlet(Wg)
        gen = Generation(0, 0, 0, 0, 0, 0, 0.0, {s: float(br[s].mean()) for s in strengths},
                         {s: paired(br[s], base[s]) for s in strengths}, 0.0)
        res.nets.append(init)
        res.generations.append(gen)
        res.per_deal.update({f"0:{s}": br[s].tolist() for s in strengths})
        say("generation 0 (the starting network): " + ", ".join(f"{s} {gen.gauntlet[s]:.1%}" for s in strengths))
    for g in range(0 if init is None else 1, generations + 1):
        tg = time.perf_counter()
        Wd = W.copy()
        Wd[0] = planner_rows(row, net, "label", expert)
        X, y, k = collect(rules_for, Wd, exp, strengths, games, seed, g, room, threads, players)
        if labels is not None:
            path = write_labels(labels_path(labels, seed, g), X, y, {
                "seed": seed, "generation": g, "strategy": strategy, "players": players, "strengths": list(strengths),
                "games": games, "expert": expert})
            res.labels["written"].append({"file": path.name, "rows": len(y), "seed": seed, "generation": g})
        Xs.append(X)
        ys.append(y)
        Xa, ya = np.concatenate(Xs), np.concatenate(ys)
        tf = time.perf_counter()
        net, ep = fit(Xa, ya, alpha, epochs, seed + g, start=net if warm else None)
        fit_s = time.perf_counter() - tf
        del Xa, ya
        Wg = W.copy()
        Wg[0] = planner_rows(row, net, "alone")
        br = gauntlet(Wg)
        gen = Generation(g, games * len(strengths), k, len(y), sum(len(v) for v in ys), ep, round(fit_s, 1),
                         {s: float(br[s].mean()) for s in strengths}, {s: paired(br[s], base[s]) for s in strengths},
                         round(time.perf_counter() - tg, 1))
        res.nets.append(net)
        res.generations.append(gen)
        res.per_deal.update({f"{g}:{s}": br[s].tolist() for s in strengths})
        say(f"generation {g}: {k} decisions, {len(y)} rows ({gen.rows_total} in all), fit {fit_s:.0f} s ({ep} epochs); "
            + ", ".join(f"{s} {gen.gauntlet[s]:.1%} ({gen.paired[s][0]:+.1f} [{gen.paired[s][1]:+.1f}, {gen.paired[s][2]:+.1f}])"
                        for s in strengths) + f"; {gen.seconds:.0f} s")
    scores = [np.mean(list(gen.gauntlet.values())) for gen in res.generations]
    res.chosen = int(np.argmax(scores))  # the first best (ties: the earlier generation)
    res.seconds = time.perf_counter() - t0
    return res


def write_apprentice_file(path: Path, net: dict, provenance: dict) -> Path:
    """The network file strategies.registry.load_apprentice_file reads (``[rollout] apprentice``)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:  # np.savez would add .npz to another suffix
        # the network's arrays only (a network read back by --init carries its file's inputs and provenance too)
        np.savez(f, **{k: np.asarray(net[k], np.float64) for k in ("mu", "sd", "w1", "b1", "w2", "b2")}, inputs=np.array(input_names()),
                 provenance=json.dumps(provenance, sort_keys=True))
    return path


def curve_markdown(res: ApprenticeResult, prov: dict, strengths: list[str]) -> str:
    """The training curve (each generation's gauntlet) as a page for docs/ (``--write``)."""
    if prov.get("expert"):
        teach = ("the planner labels every position it reaches with its simulations played by that network "
                 "(expert iteration: a stronger teacher each generation)")
    else:
        teach = "the planner labels every position it reaches (DAgger)"
    first = ("Generation 0 is the starting network (`--init`, "
             f"{prov['init']}), measured by the gauntlet; each later generation" if prov.get("init_net")
             else "Generation 0 fits the network to the rollout planner's labels in its own games; each later generation")
    refit = (", starting from the last network's weights (`--warm-start`: "
             f"{prov['epochs']} epochs a generation)") if prov.get("warm_start") else ""
    carried = (prov.get("labels") or {}).get("carried") or []
    if carried:
        refit += (f"; every fit also sees {sum(c['rows'] for c in carried)} rows carried from earlier runs (`--labels`: "
                  + ", ".join(f"seed {c['seed']} generation {c['generation']}" for c in carried) + ")")
    players = prov.get("players", 1)
    if players == 1:
        games = f"{prov['games_per_generation']} Solo games a strength"
        gauntlet = (f"(`rollouts = 0`) on {prov['gauntlet_games']} deals a strength of master seed {prov['gauntlet_seed']} "
                    "(never trained on), paired by deal against the planner's base heuristic on the same deals")
    else:
        games = f"{prov['games_per_generation']} games of {players} players (every seat the network)"
        opp = f"`{prov['opponent']}`" if prov.get("opponent") else "the base heuristic"
        gauntlet = (f"(`rollouts = 0`) at one seat, {opp} at the others, on {prov['gauntlet_games']} deals of "
                    f"{players} players of master seed {prov['gauntlet_seed']} (never trained on; the seat turning round "
                    "game by game), its win credit paired by deal against that seat's with the base heuristic at every seat "
                    f"(parity {1 / players:.0%})")
    lines = ["# The apprentice's training curve", "",
             "Written by `trinidad train --apprentice` (trinidad/train/apprentice.py); not typed by hand. "
             f"Command: `{prov['command']}` at commit `{prov['commit']}` on `{prov['machine']}`, {prov['seconds']:.0f} s.", "",
             f"{first} lets the last network play {games} while {teach}, "
             f"and fits again on every label of this run so far{refit}. The gauntlet: the network alone {gauntlet} (t 95% interval, "
             "points). The generation with the best mean beat rate is written "
             f"(generation {prov['network_of_generation']}).", "",
             "| generation | decisions | candidate rows (all so far) | epochs | fit (s) | "
             + " | ".join((f"{s}: beat rate (paired)" if players == 1 else "win credit at its seat (paired)") for s in strengths) + " |",
             "|---" * (5 + len(strengths)) + "|",
             "| base heuristic | | | | | " + " | ".join(f"{res.base[s]:.1%}" for s in strengths) + " |"]
    for g in res.generations:
        mark = "**" if g.gen == prov["network_of_generation"] else ""
        data = (f"{g.decisions} | {g.rows} ({g.rows_total}) | {g.epochs} | {g.fit_s:.0f}" if g.data_games
                else "the starting network | | |")
        lines.append(f"| {mark}{g.gen}{mark} | {data} | "
                     + " | ".join(f"{g.gauntlet[s]:.1%} ({g.paired[s][0]:+.1f} [{g.paired[s][1]:+.1f}, {g.paired[s][2]:+.1f}])"
                                  for s in strengths) + " |")
    return "\n".join(lines) + "\n"
