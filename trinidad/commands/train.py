"""``trinidad train``: the options of the five trainers of trinidad.train and the checks of their
combinations; each trainer's run and the file it writes are in its module."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from trinidad.commands.common import fail


def _command_line(mode: str = "") -> str:
    """The command as typed, for the provenance of the file a trainer writes (``mode``: the trainer's
    flags, when the process was not started with its arguments, as in a test)."""
    return " ".join(["trinidad", "train"] + sys.argv[2:]) if len(sys.argv) > 2 else f"trinidad train{mode}"


def train(
    strategy: Annotated[str | None, typer.Option("--strategy", help=(
        "the search strategy whose evaluation is learned (its budget plays; default search); with --apprentice the "
        "rollout planner whose labels are learned (default lab/rollout-solo)"))] = None,
    generations: Annotated[int, typer.Option("--generations", "-g", help="expert-iteration generations")] = 3,
    games: Annotated[int, typer.Option("--games", "-n", help="self-play games per generation")] = 400,
    duel_games: Annotated[int, typer.Option("--duel-games", help="at most this many games of candidate vs incumbent per generation (SPRT)")] = 2000,
    delta: Annotated[float, typer.Option("--delta", help="SPRT effect: the difference of win shares a promotion must show")] = 0.1,
    alpha: Annotated[float | None, typer.Option("--alpha", help=(
        "ridge penalty of the fit (default 1); with --apprentice the network's L2 penalty (default 0.001); with "
        "--network --residual the correction's (default 10)"))] = None,
    init: Annotated[Path | None, typer.Option("--init", help="a value file to start from (default: the prior, generation 0)")] = None,
    explore: Annotated[float | None, typer.Option("--explore", help=(
        "share of self-play seats played by explorers (holdings' weights moved at random; default 0.5, with --network 0)"))] = None,
    explore_sigma: Annotated[float, typer.Option("--explore-sigma", help="size of the explorers' moves (x EXPLORE_SCALE)")] = 1.0,
    explore_city: Annotated[bool, typer.Option("--explore-city", help=(
        "the explorers move the City's district weights too (district_own, best_district, lots_house_vp, "
        "activatable: trinidad.train.linear.CITY_EXPLORE_SCALE), which EXPLORE_SCALE leaves alone"), metavar="")] = False,
    keep_candidates: Annotated[bool, typer.Option("--keep-candidates", help=(
        "also write each generation's fitted candidate, promoted or not, beside --out (OUT-candidate-gN.toml), "
        "to read what a candidate that lost its duel had learned"), metavar="")] = False,
    plant: Annotated[float, typer.Option("--plant", help=(
        "share of self-play seats planted: playing --plant-as (default the City plan, Lot > House > metal > Palace; "
        "trinidad probe --option city_plan)"))] = 0.0,
    plant_as: Annotated[str | None, typer.Option("--plant-as", help=(
        "what a planted seat plays: a probe option (city_plan; build_house: one House at the first legal chance, then "
        "its own play; any of trinidad probe --option's), or value:FEATURE=VP,... (the search with those weights "
        "raised, e.g. value:houses=6,district_own=2)"))] = None,
    fix: Annotated[list[str] | None, typer.Option("--fix", help=(
        "FEATURE=WEIGHT kept at that weight in every Era, not fitted (e.g. city_ahead=1); FEATURE may be a pattern "
        "('ch_*=0': every Character weight 0, a Character-blind evaluation); repeatable"))] = None,
    seed: Annotated[int, typer.Option("--seed", "-s", help="master seed")] = 1,
    players: Annotated[int | None, typer.Option("--players", "-p", help=(
        "2-5 (default 4); with --apprentice: games of that many players, every seat the planner (default: the Solo "
        "game against the A.I.)"))] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help=(
        "the value file to write (default strategies/values/search.toml; with --apprentice strategies/values/apprentice-solo.npz)"))] = None,
    threads: Annotated[int | None, typer.Option("--threads", "-t", help="threads (default: all); results do not depend on it")] = None,
    network: Annotated[bool, typer.Option("--network", help=(
        "learn the network evaluation instead (trinidad.train.network: TD(lambda), an opponent pool, Solo games); "
        "--out is then a .npz file and --init a network file"), metavar="")] = False,
    mix: Annotated[float, typer.Option("--mix", help="--network: share of seats played by the opponent pool")] = 0.3,
    solo: Annotated[int, typer.Option("--solo", help=(
        "--network: batches of Solo games against the A.I. per generation (a quarter of --games each, strengths in turn)"))] = 0,
    lam: Annotated[float | None, typer.Option("--lambda", help=(
        "TD(lambda)'s lambda of the fit's targets, bootstrapped from the incumbent (1: the outcome alone; default 1, "
        "with --network 0.7)"))] = None,
    scale: Annotated[float, typer.Option("--scale", help="--network: VP scale of the soft final margin, tanh(margin / scale)")] = 20.0,
    residual: Annotated[bool, typer.Option("--residual", help=(
        "--network: start at the linear evaluation and learn a correction to its margin (two hidden units pass it "
        "through), generation 1's TD targets bootstrapped from it; with --scale 10000 the leaf is the linear margin "
        "in VP plus the correction; --alpha is the correction's L2 penalty (default 10)"), metavar="")] = False,
    data_budget: Annotated[int | None, typer.Option("--data-budget", help=(
        "--network: simulations per decision in the data games (default: the strategy's budget)"))] = None,
    candidates: Annotated[bool, typer.Option("--candidates", help=(
        "--network: a network on the search's candidates instead (trinidad.train.candidates: a correction to the 1-ply "
        "value fitted to what the --teacher's simulations found among each decision's candidates); name the file in "
        "[search] network with network_at = \"candidates\"; --alpha is its L2 penalty (default 1), --games the "
        "teacher's data games"), metavar="")] = False,
    teacher: Annotated[str | None, typer.Option("--teacher", help=(
        "--network --candidates: the search strategy that plays the data games, with --strategy's linear model "
        "(default --strategy itself; e.g. the same search at twice its budget)"))] = None,
    apprentice: Annotated[bool, typer.Option("--apprentice", help=(
        "learn the apprentice instead (trinidad.train.apprentice: a network fitted by DAgger to the rollout planner's "
        "labels in Solo games against the A.I.); --games is then Solo games a strength and generation"), metavar="")] = False,
    strengths: Annotated[str, typer.Option("--strengths", help="--apprentice: the A.I. strengths played, comma-separated")] = "weak,medium",
    epochs: Annotated[int, typer.Option("--epochs", help="--apprentice: epochs of each fit")] = 40,
    gauntlet_games: Annotated[int, typer.Option("--gauntlet-games", help="--apprentice: gauntlet deals a strength")] = 480,
    gauntlet_seed: Annotated[int, typer.Option("--gauntlet-seed", help="--apprentice: the gauntlet's master seed (never trained on)")] = 7,
    write: Annotated[Path | None, typer.Option("--write", help="--apprentice: write the training curve to this Markdown file")] = None,
    opponent: Annotated[str | None, typer.Option("--opponent", help=(
        "--apprentice --players N: the strategy at the gauntlet's other seats (default: the planner's base heuristic)"))] = None,
    expert: Annotated[bool, typer.Option("--expert", help=(
        "--apprentice: expert iteration: the planner's simulations are played by the last network, not the base "
        "heuristic, so the labels come from the planner over the network (as rollout-apprentice-solo plays)"), metavar="")] = False,
    warm_start: Annotated[bool, typer.Option("--warm-start", help=(
        "--apprentice: each generation's fit starts from the last network's weights (--init's for the first), "
        "not afresh"), metavar="")] = False,
    labels: Annotated[Path | None, typer.Option("--labels", help=(
        "--apprentice: a folder of label files: those already there (an earlier run's, of another --seed) join every "
        "fit, so a warm-started run does not forget them, and this run's are written there"))] = None,
    play: Annotated[bool, typer.Option("--play", help=(
        "tune the first Eras' weights of --init on play instead (trinidad.train.on_play: an evolution strategy on the share "
        "of the wins against --init); --generations and --games (games a candidate and generation) size the search, "
        "--duel-games the final check on fresh deals"), metavar="")] = False,
) -> None:
    """Learn the search player's evaluation by self-play (expert iteration): each generation plays,
    refits the per-Era linear model on every position so far, and promotes the candidate only if it
    beats the incumbent under an SPRT. Writes a value file with its provenance. With ``--network``,
    the network evaluation (trinidad.train.network); with ``--apprentice``, the apprentice
    (trinidad.train.apprentice)."""
    for flag, on in (("--explore-city", explore_city), ("--keep-candidates", keep_candidates)):
        if on and (apprentice or play or network):
            fail(f"{flag}: only with the linear evaluation's training (not --apprentice, --play or --network)")
    if apprentice:
        if network:
            fail("--apprentice and --network: choose one")
        if play:
            fail("--apprentice and --play: choose one")
        if players is not None and not 2 <= players <= 5:
            fail(f"--players: must be 2..5, got {players}")
        _train_apprentice(strategy or ("lab/rollout-solo" if players is None else "lab/rollout-planner"), generations, games,
                          alpha if alpha is not None else 1e-3, init, seed,
                          out or Path("strategies/values/apprentice-solo.npz" if players is None else f"strategies/values/apprentice-{players}p.npz"),
                          threads, strengths, epochs, gauntlet_games, gauntlet_seed, write, expert, players or 1, opponent,
                          warm_start, labels)
        return
    players = 4 if players is None else players
    if play:
        if network:
            fail("--play and --network: choose one")
        if init is None:
            fail("--init: --play tunes a trained value file; name it")
        _train_play(strategy or "search", generations, games, duel_games, init, seed,
                    out or Path("strategies/values/search.toml"), threads, players)
        return
    if expert:
        fail("--expert: only with --apprentice")
    if warm_start:
        fail("--warm-start: only with --apprentice")
    if labels is not None:
        fail("--labels: only with --apprentice")
    if opponent is not None:
        fail("--opponent: only with --apprentice --players N")
    strategy = strategy or "search"
    if residual and not network:
        fail("--residual: only with --network")
    if (candidates or teacher is not None) and not network:
        fail("--candidates, --teacher: only with --network")
    if teacher is not None and not candidates:
        fail("--teacher: only with --network --candidates")
    if plant_as is not None and not plant > 0:
        fail("--plant-as: only with --plant > 0 (the share of seats it plants)")
    out = out or Path("strategies/values/search.toml")
    if network and candidates:
        if residual or init is not None:
            fail("--candidates: not with --residual or --init (it starts from --strategy's linear model)")
        _train_candidates(strategy, teacher or strategy, games, duel_games, delta, seed, out, threads,
                          1.0 if alpha is None else alpha)
        return
    if network:
        _train_network(strategy, generations, games, duel_games, delta, init, seed, out, threads, mix, solo,
                       0.7 if lam is None else lam, scale,
                       data_budget, residual, 0.0 if explore is None else explore, explore_sigma,
                       10.0 if alpha is None else alpha)
        return
    alpha = 1.0 if alpha is None else alpha
    explore = 0.5 if explore is None else explore
    lam = 1.0 if lam is None else lam  # the search evaluation's default: the final VP alone
    from sim.rules import load_rules
    from trinidad.runner.manifest import git_commit
    from trinidad.train.linear import PLANT_DEFAULT, fixed_weights, init_record, write_value_file
    from trinidad.train.linear import train as run_train
    from trinidad.train.selfplay import TrainError

    W, model0, prov0 = _search_train_inputs(strategy, init, out, threads, players)
    plant_as = plant_as or PLANT_DEFAULT
    cmd = _command_line()
    from strategies.value_model import VF_NAMES

    try:
        fixed = fixed_weights(fix or [])
        res = run_train(load_rules(), W[0], generations, games, seed, players=players, duel_games=duel_games,
                        delta=delta, alpha=alpha, init=model0, threads=threads, explore=explore,
                        sigma=explore_sigma, plant=plant, fixed=fixed, lam=lam, explore_city=explore_city, plant_as=plant_as,
                        say=lambda m: typer.echo(m, err=True))
    except TrainError as e:
        fail(f"--{e}")
    promoted = [g for g in res.generations if g.promoted]
    last = promoted[-1] if promoted else res.generations[-1]  # the generation whose model is written
    prov = {"command": cmd, "commit": git_commit() or "unknown", "strategy": strategy, "seed": seed, "players": players,
            "generations": generations, "games_per_generation": games, "explore": explore,
            "explore_sigma": explore_sigma, "explore_city": explore_city, "plant": plant,
            **({"plant_as": plant_as} if plant > 0 else {}), "lambda": lam,
            "fixed": {VF_NAMES[f]: v for f, v in fixed.items()}, "init": str(init) if init is not None else "prior",
            **init_record(init, prov0), "promoted": len(promoted),
            "model_of_generation": last.gen if promoted else 0, "held_out_r2": [round(x, 4) for x in last.r2],
            "held_out_winner_accuracy": [round(x, 4) for x in last.winner_accuracy],
            "seconds": round(res.seconds, 1)}
    path = write_value_file(out, res, prov)
    typer.echo(f"wrote {path} ({prov['promoted']} of {generations} generations promoted, {res.seconds:.0f} s)")
    if keep_candidates:
        from trinidad.train.linear import TrainResult

        for g in res.generations:
            # the candidate's file says it is one, and whether it won its duel; its generations are those up to it
            cprov = {**prov, "candidate_of_generation": g.gen, "candidate_promoted": g.promoted,
                     "candidate_win_share": round(g.candidate_share, 4), "candidate_sprt": g.sprt}
            cres = TrainResult(model=g.candidate, generations=res.generations[:g.gen], seconds=res.seconds)
            cpath = write_value_file(out.with_name(f"{out.stem}-candidate-g{g.gen}.toml"), cres, cprov)
            typer.echo(f"wrote {cpath} (generation {g.gen}'s candidate, {'promoted' if g.promoted else 'not promoted'})")


def _search_and_init(strategy: str, init: Path | None, load_init, options: str):
    """A search strategy's W matrix and the ``--init`` file read by ``load_init`` with its provenance
    ((None, {}) without one); a bad name or file fails the command, naming ``options``."""
    from strategies.policy import FAMILY_SEARCH
    from strategies.registry import StrategyError, load_strategies

    try:
        W, _ = load_strategies([strategy])
        start, prov0 = load_init(init) if init is not None else (None, {})
    except StrategyError as e:
        fail(f"{options}: {e}")
    if int(W[0, 0]) != FAMILY_SEARCH:
        fail(f"--strategy: {strategy} is not a search strategy (family = \"search\")")
    return W, start, prov0


def _search_train_inputs(strategy: str, init: Path | None, out: Path, threads: int | None, players: int):
    """The checked inputs of a search evaluation's training (``trinidad train``, ``--play``): the
    strategy's W matrix, the ``--init`` model and its provenance ((None, {}) without one)."""
    if out.suffix != ".toml":
        fail(f"--out: must be a .toml file, got {str(out)!r}")
    if threads is not None and threads < 1:
        fail(f"--threads: must be >= 1, got {threads}")
    if not 2 <= players <= 5:
        fail(f"--players: must be 2..5, got {players}")
    from strategies.registry import load_value_file

    return _search_and_init(strategy, init, load_value_file, "--strategy or --init")


def _train_play(strategy: str, generations: int, games: int, final_games: int, init: Path, seed: int, out: Path,
                threads: int | None, players: int) -> None:
    """``trinidad train --play`` (trinidad.train.on_play)."""
    from sim.rules import load_rules
    from trinidad.runner.manifest import git_commit
    from trinidad.train.linear import TrainResult, init_record, write_value_file
    from trinidad.train.on_play import TUNED, TUNED_STAGES, PlayTrainError, train_play

    W, model0, prov0 = _search_train_inputs(strategy, init, out, threads, players)
    from strategies.value_model import VF_NAMES

    cmd = _command_line(" --play")
    try:
        res = train_play(load_rules(), W[0], model0, generations, games, seed, players=players, final_games=final_games,
                         threads=threads, say=lambda m: typer.echo(m, err=True))
    except PlayTrainError as e:
        fail(f"--{e}")
    prov = {"command": cmd, "commit": git_commit() or "unknown", "objective": "play", "strategy": strategy, "seed": seed,
            "players": players, "generations": generations, "games_per_candidate": games, "init": str(init),
            **init_record(init, prov0), "tuned_stages": [s + 1 for s in TUNED_STAGES],
            "tuned_features": [VF_NAMES[f] for f in TUNED], "promoted": int(res.promoted), "final_check": res.final,
            "es_history": res.history, "seconds": round(res.seconds, 1)}
    path = write_value_file(out, TrainResult(model=res.model), prov)
    typer.echo(f"wrote {path} ({'the tuned model' if res.promoted else 'the init kept'}: {res.final['share']:.1%} of the wins "
               f"against the init on {res.final['games']} fresh games, {res.final['decision']}; {res.seconds:.0f} s)")


def _train_apprentice(strategy, generations, games, alpha, init, seed, out, threads, strengths, epochs, gauntlet_games,
                      gauntlet_seed, write, expert=False, players=1, opponent=None, warm=False, labels=None) -> None:
    """``trinidad train --apprentice`` (trinidad.train.apprentice)."""
    import os

    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc
    from sim.rules import rule_value as _rules_get
    from strategies.registry import StrategyError, load_apprentice_file
    from trinidad.runner.manifest import cpu_model, git_commit
    from trinidad.train.apprentice import TABLE, ApprenticeError, curve_markdown, train_apprentice, write_apprentice_file

    if out.suffix != ".npz":
        fail(f"--out: with --apprentice must be a .npz file, got {str(out)!r}")
    if threads is not None and threads < 1:
        fail(f"--threads: must be >= 1, got {threads}")
    names = [s.strip() for s in strengths.split(",") if s.strip()]
    doc = load_rules_doc()
    known = list(_rules_get(doc, "solo.strengths"))
    if players > 1:
        names = [TABLE]  # a table of players plays no A.I.
    elif not names or any(s not in known for s in names):
        fail(f"--strengths: expected A.I. strengths among {', '.join(known)}, got {strengths!r}")
    if epochs < 1:
        fail(f"--epochs: must be >= 1, got {epochs}")
    try:
        net0, prov0 = load_apprentice_file(init) if init is not None else (None, {})
    except StrategyError as e:
        fail(f"--init: {e}")

    def rules_for(strength):
        return rules_from_doc(doc if strength == TABLE else apply_overrides(doc, {"solo": {"strength": strength}}))

    cmd = _command_line(" --apprentice")
    try:
        res = train_apprentice(rules_for, strategy, names, generations, games, seed, gauntlet_games, gauntlet_seed,
                               alpha=alpha, epochs=epochs, init=net0, expert=expert, threads=threads or os.cpu_count() or 1,
                               players=players, opponent=opponent, warm=warm, labels=labels,
                               say=lambda m: typer.echo(m, err=True))
    except (ApprenticeError, StrategyError) as e:
        fail(f"--{e}")
    g = res.generations[res.chosen]
    prov = {"command": cmd, "commit": git_commit() or "unknown", "machine": cpu_model(),
            "strategy": strategy, "seed": seed, "strengths": names, "players": players, "opponent": opponent, "generations": generations,
            "games_per_generation": games,
            "alpha": alpha, "epochs": epochs, "gauntlet_games": gauntlet_games, "gauntlet_seed": gauntlet_seed,
            "init": str(init) if init is not None else "none (generation 0: the planner's own games)",
            "init_net": init is not None, "expert": expert, "warm_start": warm,
            "labels": res.labels or None,
            "init_provenance": prov0, "network_of_generation": g.gen, "base_gauntlet": res.base,
            "generation_log": [vars(x) for x in res.generations], "seconds": round(res.seconds, 1)}
    path = write_apprentice_file(out, res.nets[res.chosen], prov)
    if write is not None:
        write.parent.mkdir(parents=True, exist_ok=True)
        write.write_text(curve_markdown(res, prov, names))
    typer.echo(f"wrote {path} (generation {g.gen} of {generations}: "
               + ", ".join(f"{s} {g.gauntlet[s]:.1%} against {res.base[s]:.1%} for the base" for s in names)
               + f"; {res.seconds:.0f} s)")


def _train_network(strategy, generations, games, duel_games, delta, init, seed, out, threads, mix, solo, lam, scale,
                   data_budget, residual=False, explore=0.0, sigma=1.0, alpha=10.0) -> None:
    """``trinidad train --network`` (trinidad.train.network)."""
    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc
    from strategies.registry import linear_model_digest, load_network_file, value_model
    from trinidad.runner.manifest import git_commit
    from trinidad.train.network import generation_log, train_network, write_network_file
    from trinidad.train.selfplay import TrainError

    if out.suffix != ".npz":
        fail(f"--out: with --network must be a .npz file, got {str(out)!r}")
    if threads is not None and threads < 1:
        fail(f"--threads: must be >= 1, got {threads}")
    if solo < 0:
        fail(f"--solo: must be >= 0, got {solo}")
    if data_budget is not None and data_budget < 0:
        fail(f"--data-budget: must be >= 0, got {data_budget}")
    W, net0, prov0 = _search_and_init(strategy, init, load_network_file, "--strategy/--init")
    doc = load_rules_doc()

    def rules_for(strength):
        return rules_from_doc(doc if strength is None else apply_overrides(doc, {"solo": {"strength": strength}}))

    cmd = _command_line(" --network")
    try:
        res = train_network(rules_for, W[0], generations, games, seed, mix=mix, solo=solo, lam=lam, scale=scale,
                            duel_games=duel_games, delta=delta, data_budget=data_budget, init=net0, threads=threads,
                            say=lambda m: typer.echo(m, err=True), residual=residual, explore=explore, sigma=sigma,
                            alpha=alpha)
    except TrainError as e:
        fail(f"--{e}")
    if res.net is None:
        fail(f"no candidate was promoted in {generations} generations: nothing written "
              f"({'; '.join(f'{g.gen}: {g.candidate_share:.1%} {g.sprt}' for g in res.generations)})")
    promoted = [g for g in res.generations if g.promoted]
    prov = {"command": cmd, "commit": git_commit() or "unknown", "strategy": strategy,
            "linear_model": linear_model_digest(value_model(W[0])), "seed": seed, "generations": generations,
            "games_per_generation": games, "mix": mix, "solo_batches": solo, "lambda": lam, "scale": scale,
            "data_budget": data_budget, "duel_games": duel_games, "delta": delta, "residual": residual,
            "explore": explore, "explore_sigma": sigma, "alpha": alpha if residual else None,
            "init": str(init) if init is not None else "the strategy's linear evaluation", "init_provenance": prov0,
            "promoted": len(promoted), "network_of_generation": promoted[-1].gen if promoted else 0,
            "generation_log": generation_log(res), "seconds": round(res.seconds, 1)}
    path = write_network_file(out, res.net, scale, prov)
    typer.echo(f"wrote {path} ({len(promoted)} of {generations} generations promoted, {res.seconds:.0f} s)")


def _train_candidates(strategy, teacher, games, duel_games, delta, seed, out, threads, alpha) -> None:
    """``trinidad train --network --candidates`` (trinidad.train.candidates)."""
    from sim.rules import load_rules
    from strategies.policy import FAMILY_SEARCH
    from strategies.registry import StrategyError, linear_model_digest, load_strategies, value_model
    from trinidad.runner.manifest import git_commit
    from trinidad.train.candidates import SCALE, train_candidates
    from trinidad.train.network import write_network_file
    from trinidad.train.selfplay import TrainError

    if out.suffix != ".npz":
        fail(f"--out: with --network must be a .npz file, got {str(out)!r}")
    if threads is not None and threads < 1:
        fail(f"--threads: must be >= 1, got {threads}")
    try:
        W, _ = load_strategies([strategy, teacher])
    except StrategyError as e:
        fail(f"--strategy/--teacher: {e}")
    for name, row in ((strategy, W[0]), (teacher, W[1])):
        if int(row[0]) != FAMILY_SEARCH:
            fail(f"--strategy/--teacher: {name} is not a search strategy (family = \"search\")")
    lin = linear_model_digest(value_model(W[0]))
    if linear_model_digest(value_model(W[1])) != lin:
        fail(f"--teacher: {teacher} evaluates by another linear model than {strategy}: the labels would not be "
              "what the learner's 1-ply value misses")
    cmd = _command_line(" --network --candidates")
    try:
        res = train_candidates(load_rules(), W[0], W[1], games, seed, duel_games, delta, threads, alpha=alpha,
                               say=lambda m: typer.echo(m, err=True))
    except TrainError as e:
        fail(f"--{e}")
    prov = {"command": cmd, "commit": git_commit() or "unknown", "strategy": strategy, "teacher": teacher,
            "network_at": "candidates", "linear_model": lin, "seed": seed, "games": games, "alpha": alpha,
            "target": "mean", "rows": res.rows, "decisions": res.decisions, "held_out_r2_fit": round(res.r2_fit, 4),
            "factor": round(res.factor, 4), "held_out_r2": round(res.r2, 4), "reordered": round(res.reordered, 4),
            "duel": {"decision": res.decision, "games": res.played, "share": round(res.share, 4)} if duel_games > 0 else None,
            "promoted": res.promoted, "seconds": round(res.seconds, 1)}
    path = write_network_file(out, res.net, SCALE, prov)
    verdict = "" if duel_games <= 0 else (f"; against {strategy}: {res.share:.1%} of the wins in {res.played} games, "
                                          f"{res.decision}{' (promoted)' if res.promoted else ' (not promoted)'}")
    typer.echo(f"wrote {path} ({res.rows:,} candidate rows of {res.decisions:,} decisions, {res.seconds:.0f} s{verdict})")
