"""The ``trinidad`` command (typer + rich)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from typer.core import TyperCommand, TyperGroup


class _NoMetavarHelp:
    """``--help`` is a flag: show it without the ``<bool>`` placeholder Typer gives every flag that
    does not set ``metavar`` (our own flags set ``metavar=""``)."""

    def get_help_option(self, ctx):
        opt = super().get_help_option(ctx)
        if opt is not None:
            opt.metavar = ""
        return opt


class _Command(_NoMetavarHelp, TyperCommand):
    pass


class _Group(_NoMetavarHelp, TyperGroup):
    pass


app = typer.Typer(cls=_Group, add_completion=False, no_args_is_help=True, help="Trinidad balance simulator.")

SEAT_COLOURS = ["Red", "Blue", "Yellow", "Green", "Black"]
AI_GAMES = 96  # trinidad.ai_scale.AI_GAMES (not imported: the command starts without numpy); a test checks they agree


class _LazyBar:
    """A rich progress bar on stderr, started by the first update (callers pass ``update`` as a
    progress callback only when stderr is a terminal)."""

    def __init__(self, label: str, unit: str) -> None:
        self.label, self.unit = label, unit
        self.bar = self.task = None

    def update(self, done: int | None, total: int, note: str = "") -> None:
        """``done`` None: only the note changes."""
        if self.bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn(f"[bold]{self.label}"), BarColumn(), MofNCompleteColumn(), TextColumn(self.unit),
                                TextColumn("{task.fields[note]}"), TimeElapsedColumn(), console=Console(stderr=True),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total, note="")
        if done is None:
            self.bar.update(self.task, note=note)
        else:
            self.bar.update(self.task, completed=done, note=note)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@app.callback()
def _main() -> None:
    """Trinidad balance simulator."""
    from trinidad.compile_progress import install

    install()  # the first run after an install or an engine edit says what it compiles and how far along it is


def _fail(msg: str) -> None:
    typer.echo(msg, err=True)
    raise typer.Exit(2)


@app.command(cls=_Command)
def play(
    players: Annotated[int | None, typer.Option("--players", "-p", help="2-5 (default 4); with --ai, players besides the A.I.: 1 or 2")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="game seed (default 1)")] = None,
    strategies: Annotated[str | None, typer.Option(help="comma-separated strategy per seat (or one for all; default heuristic)")] = None,
    rules: Annotated[Path | None, typer.Option("--rules", help="TOML file of rule overrides")] = None,
    first_game: Annotated[bool, typer.Option("--first-game", help="First Game Option: 2 Characters, ends after Era 2", metavar="")] = False,
    extended_war: Annotated[bool, typer.Option("--extended-war", help="the EXTENDED WAR expansion (rules extended_war.enabled)",
                                               metavar="")] = False,
    solo: Annotated[bool, typer.Option("--solo", help="the Solo game: one player against the A.I. (--players 1 --ai)", metavar="")] = False,
    ai: Annotated[bool, typer.Option("--ai", help="add the A.I. player at a seat of its own, after the players' (2-player game)", metavar="")] = False,
    ai_strength: Annotated[str | None, typer.Option("--ai-strength", help="weak, medium, strong or divinity (default: solo.strength)")] = None,
    log: Annotated[bool, typer.Option("--log", help="print an account of the whole game", metavar="")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as one JSON object", metavar="")] = False,
    run: Annotated[Path | None, typer.Option("--run", help="replay a game of this run directory as the run played it (with --game)")] = None,
    game: Annotated[int | None, typer.Option("--game", help="with --run: the game index (the games table's game column)")] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="with --run: the rule variant (default: the run's first)")] = None,
) -> None:
    """Play one game and print the result (same seed, same output). --run DIR --game N replays game N
    of a run (its seed, strategies, Characters and rules, from the run's manifest)."""
    from sim.rules import RK, RulesError, ai_strength_names, apply_overrides, load_rules_doc, rules_from_doc
    from sim.state import AI_STRATEGY
    from strategies.registry import StrategyError, load_strategies

    if run is not None or game is not None or variant is not None:
        _play_run_game(run, game, players, variant, seed, strategies, rules, first_game, solo, ai, ai_strength, log, as_json,
                       extended_war)
        return
    seed = 1 if seed is None else seed
    strategies = strategies or "heuristic"
    ai = ai or solo
    if solo and players not in (None, 1):
        _fail(f"--solo: the Solo game has one player besides the A.I., got --players {players}")
    if players is None:
        players = 1 if solo else (2 if ai else 4)
    if ai and not 1 <= players <= 2:
        _fail(f"--players: with --ai, 1 (the Solo game) or 2 players besides the A.I., got {players}")
    if not ai and not 2 <= players <= 5:
        _fail(f"--players: must be 2..5, got {players}")
    if ai_strength is not None and not ai:
        _fail("--ai-strength: needs --ai or --solo")
    names = [s.strip() for s in strategies.split(",") if s.strip()]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        _fail(f"--strategies: give one strategy or one per {'player' if ai else 'seat'} ({players}), got {len(names)}")
    try:
        doc = load_rules_doc(None, rules)
        if extended_war:  # over --rules: the flag asks for the expansion whatever the file says
            doc = apply_overrides(doc, {"extended_war": {"enabled": True}})
        if ai_strength is not None:
            if ai_strength not in ai_strength_names(doc):
                _fail(f"--ai-strength: allowed: {', '.join(ai_strength_names(doc))}, got {ai_strength!r}")
            doc = apply_overrides(doc, {"solo": {"strength": ai_strength}})
        r = rules_from_doc(doc)
        W, distinct = load_strategies(names, solo=ai)
    except (RulesError, StrategyError) as e:
        _fail(str(e))
    ids = [distinct.index(n) for n in names]
    n_seats = players + (1 if ai else 0)
    strength = ai_strength_names(doc)[int(r.k[RK.AI_STRENGTH])] if ai else None
    if ai:
        ids.append(AI_STRATEGY)
        names = names + [f"ai-{strength}"]
    _show_game(r, doc, W, players, n_seats, seed, ids, names, first_game, None, n_seats - 1 if ai else None, strength, log, as_json)


def _play_run_game(run, game, players, variant, seed, strategies, rules, first_game, solo, ai, ai_strength, log, as_json,
                   extended_war=False) -> None:
    """``trinidad play --run DIR --game N``: the game as the run played it (trinidad.replay)."""
    from sim.rules import rules_from_doc
    from trinidad.replay import ReplayError, run_game_setup

    if run is None or game is None:
        _fail(f"--{'game' if run is not None else 'run'}: --run DIR and --game N go together (--variant with them)")
    given = [o for o, v in (("--seed", seed), ("--strategies", strategies), ("--rules", rules), ("--first-game", first_game),
                            ("--solo", solo), ("--ai", ai), ("--ai-strength", ai_strength), ("--extended-war", extended_war))
             if v is not None and v is not False]
    if given:
        _fail(f"{given[0]}: with --run the game is set up as the run played it; leave {given[0]} out")
    try:
        g = run_game_setup(run, game, players, variant)
    except ReplayError as e:
        _fail(f"--{e}")
    _show_game(rules_from_doc(g.doc), g.doc, g.W, g.players, g.seats, g.seed, g.strategy_ids, g.names, g.first_game, g.characters,
               g.ai_seat, g.names[g.ai_seat].removeprefix("ai-") if g.ai_seat is not None else None, log, as_json,
               replay={"run": str(run), "game": game, "variant": variant}, paid=g.paid)


def _show_game(r, doc, W, players, n_seats, seed, ids, names, first_game, characters, ai_seat, strength, log, as_json,
               replay: dict | None = None, paid: list[int] | None = None) -> None:
    """Play one game and print it (the result table, the whole game with ``log``, or one JSON object);
    ``paid``: the VP each seat paid for its forced Character (a replayed run's prices)."""
    from sim.rules import character_names
    from sim.state import VS_NAMES
    from strategies.match import run_game

    ai = ai_seat is not None
    st = run_game(r, W, n_seats, seed, ids, first_game=first_game, log=log, characters=characters, paid=paid)
    chars = character_names(doc)
    seats = SEAT_COLOURS[:n_seats]
    if log:
        from sim.log import format_log

        for line in format_log(st, r, doc, ["A.I." if s == ai_seat else seats[s] for s in range(n_seats)]):
            print(line)
    from sim.schema import RG

    rows = []
    for s in range(n_seats):
        g = st.rec_game[s]
        rows.append({
            "seat": s, "colour": seats[s], "character": chars[int(g[RG.CHARACTER])], "strategy": names[s],
            "vp": int(g[RG.VP]), "rank": int(g[RG.RANK]),
            "vp_by_source": {VS_NAMES[i]: int(g[RG.VP_SRC + i]) for i in range(len(VS_NAMES)) if g[RG.VP_SRC + i]},
        })
    if ai:  # beating the A.I.: ahead of it by the rulebook's order (VP, then resources); a full tie shares the win
        for row in rows:
            if row["seat"] != ai_seat:
                row["beat_ai"] = row["rank"] < rows[ai_seat]["rank"]
        rows[ai_seat]["ai"] = True
    winners = [row["seat"] for row in rows if row["rank"] == 1]
    if as_json:
        out = {"players": players, "seed": seed, "first_game": first_game, "seats": rows,
               "winner": winners[0] if len(winners) == 1 else winners}
        if ai:
            out |= {"solo": players == 1, "ai": {"seat": ai_seat, "strength": strength}}
        if replay:
            out["replay"] = replay
        print(json.dumps(out, sort_keys=True))
        return
    from rich.console import Console
    from rich.table import Table

    what = (f"Solo game against the A.I. ({strength})" if players == 1 else f"{players} players and the A.I. ({strength})") if ai \
        else f"{players} players"
    t = Table(title=f"Trinidad, {what}, seed {seed}" + (f" (game {replay['game']} of {replay['run']})" if replay else ""))
    for col in ("seat", "character", "strategy", "VP", "rank") + (("beats the A.I.",) if ai else ()):
        t.add_column(col)
    for row in sorted(rows, key=lambda x: x["rank"]):
        extra = (("yes" if row["beat_ai"] else "no") if "beat_ai" in row else "-",) if ai else ()
        t.add_row(row["colour"] + (" (A.I.)" if row.get("ai") else ""), row["character"], row["strategy"], str(row["vp"]),
                  str(row["rank"]), *extra)
    Console(file=sys.stdout, width=100).print(t)


@app.command(cls=_Command)
def cards(
    games: Annotated[int, typer.Option("--games", "-n", help="games in the sample run that counts how often each power fired")] = 300,
    players: Annotated[int, typer.Option("--players", "-p")] = 4,
    seed: Annotated[int, typer.Option("--seed", "-s")] = 1,
) -> None:
    """List the 72 Affiliate cards: number, group, lightning, a one-line power, and how many times it
    fired in a sample run with random players."""
    import numpy as np

    from sim.affiliates import IMPLEMENTED
    from sim.rules import load_rules_doc, rules_from_doc
    from strategies.match import run_game
    from strategies.registry import load_strategies

    if not 2 <= players <= 5:
        _fail(f"--players: must be 2..5, got {players}")
    if games < 0:
        _fail(f"--games: must be >= 0, got {games}")
    doc = load_rules_doc()
    r = rules_from_doc(doc)
    W, _ = load_strategies(["random"])
    fired = np.zeros(r.aff_group.shape[0], np.int64)
    from sim.rng import player_seeds

    for sd in player_seeds(seed, players, 0, games):
        fired += run_game(r, W, players, int(sd), [0] * players).card_uses
    for row in doc["affiliate"]:
        num = row["number"]
        flag = "⚡" if row["lightning"] else " "
        status = f"{int(fired[num - 1]):6d}" if num in IMPLEMENTED else "     -"
        typer.echo(f"{num:3d} {row['group']:<11} {flag} {status}  {row['summary']}")
    note = "" if len(IMPLEMENTED) == len(doc["affiliate"]) else \
        f"; '-' = power not implemented ({len(IMPLEMENTED)} of {len(doc['affiliate'])} implemented)"
    typer.echo(f"fired: times each power was used in {games} random-player {players}-player games (seed {seed}){note}")


@app.command(cls=_Command)
def warm(
    profile: Annotated[int, typer.Option("--profile", help="after a compile, list the N functions that took longest to compile "
                                                          "(run it with NUMBA_CACHE_DIR=$(mktemp -d) for a cold compile)")] = 0,
    extended_war: Annotated[bool, typer.Option("--extended-war", help="the engine with the EXTENDED WAR (compiled on its first use)",
                                               metavar="")] = False,
    solo: Annotated[bool, typer.Option("--solo", help="the engine with the Solo A.I. (compiled on its first use)", metavar="")] = False,
) -> None:
    """Compile (or load from cache) the engine once and report how long it took: the normal game, or
    with --extended-war / --solo the engine that includes them (each compiled on first use)."""
    from trinidad.compile_progress import profile as compile_profile

    prof = compile_profile() if profile > 0 else None
    t0 = time.perf_counter()
    from sim.rules import load_rules
    from sim.state import AI_STRATEGY
    from strategies.match import run_game
    from strategies.registry import load_strategies

    W, _ = load_strategies(["random"])
    rules = load_rules(overrides={"extended_war": {"enabled": True}} if extended_war else None)
    if solo:
        run_game(rules, W, 2, 0, [0, AI_STRATEGY])
    else:
        run_game(rules, W, 3, 0, [0, 0, 0])
    parts = [p for p, on in (("the Extended War", extended_war), ("the Solo A.I.", solo)) if on]
    typer.echo(f"engine ready in {time.perf_counter() - t0:.1f} s" + (f" (with {' and '.join(parts)})" if parts else ""))
    if prof is not None:
        n, specs, own, llvm = prof.totals()
        typer.echo(f"compiled {n} functions ({specs} specializations): {own:.1f} s, of which {llvm:.1f} s in LLVM")
        typer.echo(f"{'own s':>8} {'LLVM s':>8} {'n':>3}  function")
        for name, k, t, ll in prof.table(profile):
            typer.echo(f"{t:8.2f} {ll:8.2f} {k:3d}  {name}")


@app.command(cls=_Command)
def run(
    experiment: Annotated[Path | None, typer.Argument(help="experiment TOML (default: the built-in one)")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="player count (overrides the file)")] = None,
    games: Annotated[int | None, typer.Option("--games", "-n", help="games per player count and variant")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="master seed")] = None,
    out: Annotated[str | None, typer.Option("--out", "-o", help="output directory")] = None,
    strategies: Annotated[str | None, typer.Option(help="comma-separated strategies, cycled over the seats")] = None,
    backend: Annotated[str, typer.Option(help="local (threads) or ray")] = "local",
    address: Annotated[str | None, typer.Option(help="Ray cluster address (default: start a local Ray)")] = None,
    workers: Annotated[int | None, typer.Option("--workers", "-w", help="threads (local) or CPUs (ray)")] = None,
    shard_games: Annotated[int | None, typer.Option("--shard-games", help="games per Parquet shard (overrides the file; the unit of resume)")] = None,
    prices: Annotated[str | None, typer.Option("--prices", help="a report's summary.json: each seat pays its dealt Character's auction "
                                                                "price in VP at setup (overrides characters.prices)")] = None,
    extended_war: Annotated[bool, typer.Option("--extended-war", help="the EXTENDED WAR expansion (the file's extended_war = true)",
                                               metavar="")] = False,
    resume: Annotated[bool, typer.Option("--resume", help="finish an interrupted run in --out", metavar="")] = False,
    ai_games: Annotated[int, typer.Option("--ai-games", help="then each strategy against the Solo A.I.: Solo games per A.I. strength "
                                                             "(weak, medium, strong, divinity), into DIR/ai_scale.json for the report; "
                                                             "0: none")] = AI_GAMES,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bar", metavar="")] = False,
) -> None:
    """Play an experiment's games in parallel and write them to Parquet (DIR/decades, DIR/games, DIR/manifest.json),
    then each strategy against the Solo A.I. (DIR/ai_scale.json)."""
    from trinidad.experiment import ExperimentError, experiment_document, experiment_from_dict, load_experiment, tier_experiments
    from trinidad.runner import experiment_of_run, run_experiment, run_tiers, summarize, tiers_of_run

    if backend not in ("local", "ray"):
        _fail(f"--backend: allowed: local, ray, got {backend!r}")
    if workers is not None and workers < 1:
        _fail(f"--workers: must be >= 1, got {workers}")
    if ai_games < 0:
        _fail(f"--ai-games: must be >= 0, got {ai_games}")
    strat = [s.strip() for s in strategies.split(",") if s.strip()] if strategies else None
    try:
        flags = dict(players=players, games=games, seed=seed, out=out, strategies=strat, shard_games=shard_games, prices=prices,
                     extended_war=True if extended_war else None)
        tiers = None
        if resume and experiment is None and out is not None and tiers_of_run(out) is not None:  # tiers: their own experiments
            if any(v is not None for k, v in flags.items() if k != "out"):
                _fail("run: --resume of tier runs takes only --out (each tier's experiment is in tiers.json)")
            tiers = [(n, experiment_from_dict(d | {"out": str(Path(out) / n)})) for n, d in tiers_of_run(out)]
        elif experiment is not None:
            doc, where = experiment_document(experiment, **flags)
            if "tiers" in doc:
                if strat:
                    _fail("--strategies: an experiment with [[tiers]] names the strategies of each tier")
                tiers = tier_experiments(doc, str(where))
        if tiers is not None:
            top = out or str(Path(tiers[0][1].out).parent)
            for m in run_tiers(tiers, top, backend=backend, workers=workers, address=address, resume=resume, progress=not quiet,
                               ai_games=ai_games):
                typer.echo(f"tier {Path(m['experiment']['out']).name}:")
                for line in summarize(m["experiment"]["out"]):
                    typer.echo("  " + line)
            typer.echo(f"report all tiers: trinidad report {top}")
            return
        if resume and experiment is None and out is not None:  # the run's own experiment, from its manifest
            doc = experiment_of_run(out)
            for k, v in flags.items():  # a flag given as well must match the run (check_out checks)
                if v is not None and k == "strategies":
                    doc["seats"]["strategies"] = v
                elif v is not None and k == "prices":
                    doc["characters"]["prices"] = v
                elif v is not None:
                    doc[k] = v
            exp = experiment_from_dict(doc)
        else:
            exp = load_experiment(experiment, **flags)
        m = run_experiment(exp, backend=backend, workers=workers, address=address, resume=resume, progress=not quiet, ai_games=ai_games)
    except ExperimentError as e:
        _fail(str(e))
    except KeyboardInterrupt:
        typer.echo(f"interrupted: complete shards are kept; finish with: trinidad run --resume --out {exp.out}", err=True)
        raise typer.Exit(130) from None
    for line in summarize(m["experiment"]["out"]):
        typer.echo(line)


@app.command(cls=_Command)
def tournament(
    strategies: Annotated[str | None, typer.Option(help="comma-separated strategies (names in strategies/ or TOML paths), at least 2")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="2-5 (default: the number of strategies if 2-5, else 4)")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="games in total, rounded up to a multiple of the number of strategies")] = 1000,
    seed: Annotated[int, typer.Option("--seed", "-s", help="master seed")] = 1,
    threads: Annotated[int | None, typer.Option("--threads", "-t", help="threads (default: all); results do not depend on it")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object", metavar="")] = False,
) -> None:
    """Play strategies against each other, every base seed once per rotation of the strategies over
    the seats, and print each strategy's win rate (Wilson 95% CI), mean rank and mean VP."""
    from trinidad.tournament import TournamentError, run_tournament

    if not strategies:
        from strategies.registry import listing

        _fail(f"--strategies: required, at least 2 comma-separated names (available: {listing()}) or TOML paths")
    names = [s.strip() for s in strategies.split(",")]
    bar = _LazyBar("tournament", "games")
    try:
        res = run_tournament(names, players=players, games=games, seed=seed, threads=threads,
                             progress=bar.update if not as_json and sys.stderr.isatty() else None)
    except TournamentError as e:
        _fail(f"--{e}")
    finally:
        bar.stop()
    if as_json:
        print(json.dumps(res.to_dict()))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"Tournament, {res.players} players, seed {res.seed}")
    for col in ("strategy", "win rate", "95% CI (Wilson)", "mean rank", "mean VP", "n"):
        t.add_column(col, justify="left" if col == "strategy" else "right")
    for s in sorted(res.strategies, key=lambda x: -x.win_rate):
        t.add_row(s.name, f"{s.win_rate:.1%}", f"{s.ci_low:.1%} - {s.ci_high:.1%}", f"{s.mean_rank:.2f}", f"{s.mean_vp:.1f}",
                  f"{s.n:,}")
    con = Console(file=sys.stdout, width=110)
    con.print(t)
    typer.echo(f"{res.games:,} games: {res.base_seeds:,} seeds x {res.rotations} rotations of the strategies over the seats.")
    if res.aliases:
        typer.echo("Aliases: " + ", ".join(f"{a} = {t}" for a, t in res.aliases.items()) + " (as resolved for these games).")
    typer.echo(f"n = seat-games (each seat a strategy holds counts); fair win rate 1/{res.players} = {1 / res.players:.1%}.")
    typer.echo(f"Ties: a tie for first among k seats gives each 1/k of a win ({res.tie_games:,} games had one); "
               "the CI uses this fractional count.")


def _init_record(init: Path | None, prov: dict) -> dict:
    """What a trained value file records of the file it started from: its content hash and its own
    provenance, so a chain of trainings can be followed back to the prior."""
    if init is None:
        return {}
    import hashlib

    return {"init_sha256": hashlib.sha256(init.read_bytes()).hexdigest(), "init_provenance": json.dumps(prov, sort_keys=True)}


@app.command(cls=_Command)
def train(
    strategy: Annotated[str | None, typer.Option("--strategy", help=(
        "the search strategy whose evaluation is learned (its budget plays; default search); with --apprentice the "
        "rollout planner whose labels are learned (default rollout-solo)"))] = None,
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
        "activatable: trinidad.train.CITY_EXPLORE_SCALE), which EXPLORE_SCALE leaves alone"), metavar="")] = False,
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
        "learn the network evaluation instead (trinidad.train_network: TD(lambda), an opponent pool, Solo games); "
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
        "--network: a network on the search's candidates instead (trinidad.train_candidates: a correction to the 1-ply "
        "value fitted to what the --teacher's simulations found among each decision's candidates); name the file in "
        "[search] network with network_at = \"candidates\"; --alpha is its L2 penalty (default 1), --games the "
        "teacher's data games"), metavar="")] = False,
    teacher: Annotated[str | None, typer.Option("--teacher", help=(
        "--network --candidates: the search strategy that plays the data games, with --strategy's linear model "
        "(default --strategy itself; e.g. the same search at twice its budget)"))] = None,
    apprentice: Annotated[bool, typer.Option("--apprentice", help=(
        "learn the apprentice instead (trinidad.train_apprentice: a network fitted by DAgger to the rollout planner's "
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
        "tune the first Eras' weights of --init on play instead (trinidad.train_play: an evolution strategy on the share "
        "of the wins against --init); --generations and --games (games a candidate and generation) size the search, "
        "--duel-games the final check on fresh deals"), metavar="")] = False,
) -> None:
    """Learn the search player's evaluation by self-play (expert iteration): each generation plays,
    refits the per-Era linear model on every position so far, and promotes the candidate only if it
    beats the incumbent under an SPRT. Writes a value file with its provenance. With ``--network``,
    the network evaluation (trinidad.train_network); with ``--apprentice``, the apprentice
    (trinidad.train_apprentice)."""
    for flag, on in (("--explore-city", explore_city), ("--keep-candidates", keep_candidates)):
        if on and (apprentice or play or network):
            _fail(f"{flag}: only with the linear evaluation's training (not --apprentice, --play or --network)")
    if apprentice:
        if network:
            _fail("--apprentice and --network: choose one")
        if play:
            _fail("--apprentice and --play: choose one")
        if players is not None and not 2 <= players <= 5:
            _fail(f"--players: must be 2..5, got {players}")
        _train_apprentice(strategy or ("rollout-solo" if players is None else "rollout-planner"), generations, games,
                          alpha if alpha is not None else 1e-3, init, seed,
                          out or Path("strategies/values/apprentice-solo.npz" if players is None else f"strategies/values/apprentice-{players}p.npz"),
                          threads, strengths, epochs, gauntlet_games, gauntlet_seed, write, expert, players or 1, opponent,
                          warm_start, labels)
        return
    players = 4 if players is None else players
    if play:
        if network:
            _fail("--play and --network: choose one")
        if init is None:
            _fail("--init: --play tunes a trained value file; name it")
        _train_play(strategy or "search", generations, games, duel_games, init, seed,
                    out or Path("strategies/values/search.toml"), threads, players)
        return
    if expert:
        _fail("--expert: only with --apprentice")
    if warm_start:
        _fail("--warm-start: only with --apprentice")
    if labels is not None:
        _fail("--labels: only with --apprentice")
    if opponent is not None:
        _fail("--opponent: only with --apprentice --players N")
    strategy = strategy or "search"
    if residual and not network:
        _fail("--residual: only with --network")
    if (candidates or teacher is not None) and not network:
        _fail("--candidates, --teacher: only with --network")
    if teacher is not None and not candidates:
        _fail("--teacher: only with --network --candidates")
    if plant_as is not None and not plant > 0:
        _fail("--plant-as: only with --plant > 0 (the share of seats it plants)")
    out = out or Path("strategies/values/search.toml")
    if network and candidates:
        if residual or init is not None:
            _fail("--candidates: not with --residual or --init (it starts from --strategy's linear model)")
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
    from trinidad.runner import git_commit
    from trinidad.train import PLANT_DEFAULT, TrainError, fixed_weights, write_value_file
    from trinidad.train import train as run_train

    W, model0, prov0 = _search_train_inputs(strategy, init, out, threads, players)
    plant_as = plant_as or PLANT_DEFAULT
    cmd = " ".join(["trinidad", "train"] + sys.argv[2:]) if len(sys.argv) > 2 else "trinidad train"
    from strategies.value_model import VF_NAMES

    try:
        fixed = fixed_weights(fix or [])
        res = run_train(load_rules(), W[0], generations, games, seed, players=players, duel_games=duel_games,
                        delta=delta, alpha=alpha, init=model0, threads=threads, explore=explore,
                        sigma=explore_sigma, plant=plant, fixed=fixed, lam=lam, explore_city=explore_city, plant_as=plant_as,
                        say=lambda m: typer.echo(m, err=True))
    except TrainError as e:
        _fail(f"--{e}")
    promoted = [g for g in res.generations if g.promoted]
    last = promoted[-1] if promoted else res.generations[-1]  # the generation whose model is written
    prov = {"command": cmd, "commit": git_commit() or "unknown", "strategy": strategy, "seed": seed, "players": players,
            "generations": generations, "games_per_generation": games, "explore": explore,
            "explore_sigma": explore_sigma, "explore_city": explore_city, "plant": plant,
            **({"plant_as": plant_as} if plant > 0 else {}), "lambda": lam,
            "fixed": {VF_NAMES[f]: v for f, v in fixed.items()}, "init": str(init) if init is not None else "prior",
            **_init_record(init, prov0), "promoted": len(promoted),
            "model_of_generation": last.gen if promoted else 0, "held_out_r2": [round(x, 4) for x in last.r2],
            "held_out_winner_accuracy": [round(x, 4) for x in last.winner_accuracy],
            "seconds": round(res.seconds, 1)}
    path = write_value_file(out, res, prov)
    typer.echo(f"wrote {path} ({prov['promoted']} of {generations} generations promoted, {res.seconds:.0f} s)")
    if keep_candidates:
        from trinidad.train import TrainResult

        for g in res.generations:
            # the candidate's file says it is one, and whether it won its duel; its generations are those up to it
            cprov = {**prov, "candidate_of_generation": g.gen, "candidate_promoted": g.promoted,
                     "candidate_win_share": round(g.candidate_share, 4), "candidate_sprt": g.sprt}
            cres = TrainResult(model=g.candidate, generations=res.generations[:g.gen], seconds=res.seconds)
            cpath = write_value_file(out.with_name(f"{out.stem}-candidate-g{g.gen}.toml"), cres, cprov)
            typer.echo(f"wrote {cpath} (generation {g.gen}'s candidate, {'promoted' if g.promoted else 'not promoted'})")


def _search_train_inputs(strategy: str, init: Path | None, out: Path, threads: int | None, players: int):
    """The checked inputs of a search evaluation's training (``trinidad train``, ``--play``): the
    strategy's W matrix, the ``--init`` model and its provenance ((None, {}) without one)."""
    from strategies.policy import FAMILY_SEARCH
    from strategies.registry import StrategyError, load_strategies, load_value_file

    if out.suffix != ".toml":
        _fail(f"--out: must be a .toml file, got {str(out)!r}")
    if threads is not None and threads < 1:
        _fail(f"--threads: must be >= 1, got {threads}")
    if not 2 <= players <= 5:
        _fail(f"--players: must be 2..5, got {players}")
    try:
        W, _ = load_strategies([strategy])
        model0, prov0 = load_value_file(init) if init is not None else (None, {})
    except StrategyError as e:
        _fail(f"--strategy or --init: {e}")
    if int(W[0, 0]) != FAMILY_SEARCH:
        _fail(f"--strategy: {strategy} is not a search strategy (family = \"search\")")
    return W, model0, prov0


def _train_play(strategy: str, generations: int, games: int, final_games: int, init: Path, seed: int, out: Path,
                threads: int | None, players: int) -> None:
    """``trinidad train --play`` (trinidad.train_play)."""
    from sim.rules import load_rules
    from trinidad.runner import git_commit
    from trinidad.train import TrainResult, write_value_file
    from trinidad.train_play import TUNED, TUNED_STAGES, PlayTrainError, train_play

    W, model0, prov0 = _search_train_inputs(strategy, init, out, threads, players)
    from strategies.value_model import VF_NAMES

    cmd = " ".join(["trinidad", "train"] + sys.argv[2:]) if len(sys.argv) > 2 else "trinidad train --play"
    try:
        res = train_play(load_rules(), W[0], model0, generations, games, seed, players=players, final_games=final_games,
                         threads=threads, say=lambda m: typer.echo(m, err=True))
    except PlayTrainError as e:
        _fail(f"--{e}")
    prov = {"command": cmd, "commit": git_commit() or "unknown", "objective": "play", "strategy": strategy, "seed": seed,
            "players": players, "generations": generations, "games_per_candidate": games, "init": str(init),
            **_init_record(init, prov0), "tuned_stages": [s + 1 for s in TUNED_STAGES],
            "tuned_features": [VF_NAMES[f] for f in TUNED], "promoted": int(res.promoted), "final_check": res.final,
            "es_history": res.history, "seconds": round(res.seconds, 1)}
    path = write_value_file(out, TrainResult(model=res.model), prov)
    typer.echo(f"wrote {path} ({'the tuned model' if res.promoted else 'the init kept'}: {res.final['share']:.1%} of the wins "
               f"against the init on {res.final['games']} fresh games, {res.final['decision']}; {res.seconds:.0f} s)")


def _train_apprentice(strategy, generations, games, alpha, init, seed, out, threads, strengths, epochs, gauntlet_games,
                      gauntlet_seed, write, expert=False, players=1, opponent=None, warm=False, labels=None) -> None:
    """``trinidad train --apprentice`` (trinidad.train_apprentice)."""
    import os

    from sim.rules import _get as _rules_get
    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc
    from strategies.registry import StrategyError, load_apprentice_file
    from trinidad.runner import cpu_model, git_commit
    from trinidad.train_apprentice import TABLE, ApprenticeError, curve_markdown, train_apprentice, write_apprentice_file

    if out.suffix != ".npz":
        _fail(f"--out: with --apprentice must be a .npz file, got {str(out)!r}")
    if threads is not None and threads < 1:
        _fail(f"--threads: must be >= 1, got {threads}")
    names = [s.strip() for s in strengths.split(",") if s.strip()]
    doc = load_rules_doc()
    known = list(_rules_get(doc, "solo.strengths"))
    if players > 1:
        names = [TABLE]  # a table of players plays no A.I.
    elif not names or any(s not in known for s in names):
        _fail(f"--strengths: expected A.I. strengths among {', '.join(known)}, got {strengths!r}")
    if epochs < 1:
        _fail(f"--epochs: must be >= 1, got {epochs}")
    try:
        net0, prov0 = load_apprentice_file(init) if init is not None else (None, {})
    except StrategyError as e:
        _fail(f"--init: {e}")

    def rules_for(strength):
        return rules_from_doc(doc if strength == TABLE else apply_overrides(doc, {"solo": {"strength": strength}}))

    cmd = " ".join(["trinidad", "train"] + sys.argv[2:]) if len(sys.argv) > 2 else "trinidad train --apprentice"
    try:
        res = train_apprentice(rules_for, strategy, names, generations, games, seed, gauntlet_games, gauntlet_seed,
                               alpha=alpha, epochs=epochs, init=net0, expert=expert, threads=threads or os.cpu_count() or 1,
                               players=players, opponent=opponent, warm=warm, labels=labels,
                               say=lambda m: typer.echo(m, err=True))
    except (ApprenticeError, StrategyError) as e:
        _fail(f"--{e}")
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
    """``trinidad train --network`` (trinidad.train_network)."""
    from sim.rules import apply_overrides, load_rules_doc, rules_from_doc
    from strategies.policy import FAMILY_SEARCH
    from strategies.registry import StrategyError, linear_model_digest, load_network_file, load_strategies, value_model
    from trinidad.runner import git_commit
    from trinidad.train import TrainError
    from trinidad.train_network import generation_log, train_network, write_network_file

    if out.suffix != ".npz":
        _fail(f"--out: with --network must be a .npz file, got {str(out)!r}")
    if threads is not None and threads < 1:
        _fail(f"--threads: must be >= 1, got {threads}")
    if solo < 0:
        _fail(f"--solo: must be >= 0, got {solo}")
    if data_budget is not None and data_budget < 0:
        _fail(f"--data-budget: must be >= 0, got {data_budget}")
    try:
        W, _ = load_strategies([strategy])
        net0, prov0 = load_network_file(init) if init is not None else (None, {})
    except StrategyError as e:
        _fail(f"--strategy/--init: {e}")
    if int(W[0, 0]) != FAMILY_SEARCH:
        _fail(f"--strategy: {strategy} is not a search strategy (family = \"search\")")
    doc = load_rules_doc()

    def rules_for(strength):
        return rules_from_doc(doc if strength is None else apply_overrides(doc, {"solo": {"strength": strength}}))

    cmd = " ".join(["trinidad", "train"] + sys.argv[2:]) if len(sys.argv) > 2 else "trinidad train --network"
    try:
        res = train_network(rules_for, W[0], generations, games, seed, mix=mix, solo=solo, lam=lam, scale=scale,
                            duel_games=duel_games, delta=delta, data_budget=data_budget, init=net0, threads=threads,
                            say=lambda m: typer.echo(m, err=True), residual=residual, explore=explore, sigma=sigma,
                            alpha=alpha)
    except TrainError as e:
        _fail(f"--{e}")
    if res.net is None:
        _fail(f"no candidate was promoted in {generations} generations: nothing written "
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
    """``trinidad train --network --candidates`` (trinidad.train_candidates)."""
    from sim.rules import load_rules
    from strategies.policy import FAMILY_SEARCH
    from strategies.registry import StrategyError, linear_model_digest, load_strategies, value_model
    from trinidad.runner import git_commit
    from trinidad.train import TrainError
    from trinidad.train_candidates import SCALE, train_candidates
    from trinidad.train_network import write_network_file

    if out.suffix != ".npz":
        _fail(f"--out: with --network must be a .npz file, got {str(out)!r}")
    if threads is not None and threads < 1:
        _fail(f"--threads: must be >= 1, got {threads}")
    try:
        W, _ = load_strategies([strategy, teacher])
    except StrategyError as e:
        _fail(f"--strategy/--teacher: {e}")
    for name, row in ((strategy, W[0]), (teacher, W[1])):
        if int(row[0]) != FAMILY_SEARCH:
            _fail(f"--strategy/--teacher: {name} is not a search strategy (family = \"search\")")
    lin = linear_model_digest(value_model(W[0]))
    if linear_model_digest(value_model(W[1])) != lin:
        _fail(f"--teacher: {teacher} evaluates by another linear model than {strategy}: the labels would not be "
              "what the learner's 1-ply value misses")
    cmd = " ".join(["trinidad", "train"] + sys.argv[2:]) if len(sys.argv) > 2 else "trinidad train --network --candidates"
    try:
        res = train_candidates(load_rules(), W[0], W[1], games, seed, duel_games, delta, threads, alpha=alpha,
                               say=lambda m: typer.echo(m, err=True))
    except TrainError as e:
        _fail(f"--{e}")
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


def _pct(x: float) -> str:
    return "-" if x != x else f"{x:.1%}"


def _ci(lo_hi: list[float], f: str) -> str:
    return "" if not lo_hi or lo_hi[0] != lo_hi[0] else f"[{lo_hi[0]:{f}}, {lo_hi[1]:{f}}]"


def probe_row(o) -> tuple[str, ...]:
    """One row of `trinidad probe`'s table for an option's result (trinidad.probe.OptionResult). An option
    never legal at a turn start played the very same games: "never legal". A plan (city_plan) counts as
    forced only where completed, yet it is followed in every game: one never completed (no Palace) still
    changed the games, and its win and margin are shown. A forbidden option that changed no seat's VP source was
    never wanted: "no change"."""
    if not o.probed:
        return (o.option, _pct(o.used), "", "", "", "", "", "")
    forbid = o.key.startswith("forbid:")
    if forbid and not o.vp_by_source:
        return (o.option, _pct(o.used), _pct(o.forced), "-", _pct(o.win_base), "no change", "", "")
    if not forbid and o.forced == 0 and not o.key.startswith("value:") and not o.vp_by_source:  # the very same games
        return (o.option, _pct(o.used), _pct(o.forced), "-", _pct(o.win_base), "never legal", "", "")
    return (o.option, _pct(o.used), _pct(o.forced), "-" if o.forced_decade != o.forced_decade else f"{o.forced_decade:.1f}",
            _pct(o.win_base), f"{_pct(o.win_forced)} {_ci(o.win_forced_ci, '.1%')}",
            f"{o.win_diff:+.1%} {_ci(o.win_diff_ci, '+.1%')}",
            f"{o.margin_diff:+.1f} {_ci(o.margin_diff_ci, '+.1f')}")


@app.command(cls=_Command)
def probe(
    strategy: Annotated[str | None, typer.Option("--strategy", help="the strategy in every seat (default: best if it exists, else heuristic)")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="games (the same deals for the unforced run and every probe)")] = 400,
    seed: Annotated[int, typer.Option("--seed", "-s", help="master seed")] = 1,
    players: Annotated[int | None, typer.Option("--players", "-p", help="2-5 (default 4); 1 with --solo")] = None,
    threshold: Annotated[float, typer.Option(help="probe every option used in fewer than this share of seat-games")] = 0.05,
    option: Annotated[list[str] | None, typer.Option("--option", help=(
        "also probe this option (e.g. ship, build_palace) or the plan city_plan (Lot > House > metal > Palace); repeatable"))] = None,
    bonus: Annotated[list[str] | None, typer.Option("--bonus", help=(
        "also probe a value bonus (search strategies): FEATURE=VP[,...] added to the probed seat's evaluation in every "
        "Era, e.g. palaces=20,metal=10; repeatable"))] = None,
    forbid: Annotated[list[str] | None, typer.Option("--forbid", help=(
        "also probe forbidding this option (any --option but city_plan, e.g. build_market, major, major_fort) or group "
        "(city: Lots, Houses, Palaces; production: Market, Carpentry, Quarry) while another main action is legal; "
        "repeatable"))] = None,
    seats: Annotated[int, typer.Option("--seats", help="probed seats per game (game g: seats g, g+1, ... mod players); 1..players-1")] = 1,
    threads: Annotated[int | None, typer.Option("--threads", "-t", help="threads (default: all); results do not depend on it")] = None,
    solo: Annotated[bool, typer.Option("--solo", help=(
        "the Solo game: the strategy's player (best: its player against the A.I.) against the rulebook's A.I., "
        "on the deals of the A.I. table; the player's seat is probed"), metavar="")] = False,
    ai_strength: Annotated[str | None, typer.Option("--ai-strength", help="with --solo: weak, medium, strong or divinity (default: "
                                                    "the rules' solo.strength)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object", metavar="")] = False,
) -> None:
    """Which building types and main actions a strategy leaves alone, and what forcing one seat to
    take each at its first legal chance (offering it a value bonus, or forbidding it) does to that seat's wins
    and VP margin on the same deals. With --solo, in the Solo game against the rulebook's A.I."""
    from trinidad.probe import ProbeError, run_probe

    if ai_strength is not None and not solo:
        _fail("--ai-strength: needs --solo")
    if solo and players not in (None, 1):
        _fail(f"--solo: the Solo game has one player besides the A.I., got --players {players}")
    if players is None:
        players = 1 if solo else 4
    ai = None
    if solo:
        from sim.rules import RK, RulesError, ai_strength_names, load_rules_doc, rules_from_doc

        try:
            doc = load_rules_doc()
            default = ai_strength_names(doc)[int(rules_from_doc(doc).k[RK.AI_STRENGTH])]
        except RulesError as e:
            _fail(str(e))
        ai = ai_strength or default
    bar = _LazyBar("probe", "games")
    try:
        res = run_probe(strategy, games=games, seed=seed, players=players, threshold=threshold, options=option,
                        threads=threads, progress=bar.update if not as_json and sys.stderr.isatty() else None, bonuses=bonus,
                        seats=seats, ai=ai, forbids=forbid)
    except ProbeError as e:
        _fail(f"--{e}")
    finally:
        bar.stop()
    if as_json:
        print(json.dumps(res.to_dict()))
        return
    from rich.console import Console
    from rich.table import Table

    probed = "" if res.seats == 1 else f", {res.seats} probed seats a game"
    table = f"the Solo game against the A.I. ({res.ai})" if res.ai else f"{res.players} players"
    t = Table(title=f"What {res.strategy} plays and what forcing it does: {table}, {res.games:,} games, seed {res.seed}{probed}")
    for col in ("option", "used", "forced", "decade", "win unforced", "win forced (95% CI)", "win forced - unforced",
                "margin forced - unforced"):
        t.add_column(col, justify="left" if col == "option" else "right")
    for o in sorted(res.options, key=lambda o: (not o.probed, o.used)):
        t.add_row(*probe_row(o))
    Console(file=sys.stdout, width=150).print(t)
    for o in res.options:
        if o.probed and o.vp_by_source:
            moved = sorted(o.vp_by_source.items(), key=lambda kv: -abs(kv[1][1] - kv[1][0]))
            typer.echo(f"{o.option}: the forced seat's VP by source, unforced -> forced: "
                       + ", ".join(f"{k} {a:.1f} -> {b:.1f}" for k, (a, b) in moved[:6]))
        if o.probed and o.holdings:
            typer.echo(f"{o.option}: the forced seat's City, unforced -> forced: "
                       + ", ".join(f"{k} {a:.2f} -> {b:.2f}" for k, (a, b) in o.holdings.items()))
    n_probed = sum(o.probed for o in res.options)
    typer.echo(f"used = share of the unforced seat-games that took the option; {n_probed} options used in fewer than "
               f"{res.threshold:.0%} (or named) were probed.")
    who = "the player (not the A.I.)" if res.ai else "one seat (game g: seat g mod players)"
    typer.echo(f"Probe: the same deals again, {who} forced to take the option at the start of "
               "its first turn in which it is legal; forced = share of games in which it was, decade = mean decade it was taken "
               "(a plan: completed, and the decade it was); forbidden: the seat never takes it while another main action is "
               "legal, and forced = share of games it took it all the same (-: not in the record).")
    typer.echo("Win: a tie for first among k seats counts 1/k (Wilson 95% CI); forced - unforced: the same seat on the same "
               "deal, paired (t 95% CI); margin = the seat's VP minus the best other seat's"
               + (" (the A.I.'s)." if res.ai else "."))


@app.command(cls=_Command)
def ladder(
    rungs: Annotated[str | None, typer.Option(
        help="comma-separated strategies, weakest first (names or TOML paths; default: random,greedy,heuristic,rollout,search)")] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="games per pair of rungs (the rollout rung costs about 0.2-0.5 core-s a game)")] = 600,
    character_games: Annotated[int | None, typer.Option(
        "--character-games", help="games per rung on balanced-Character deals (default: --games rounded up to a multiple of 12)")] = None,
    ai_games: Annotated[int, typer.Option("--ai-games", help="Solo games per rung and A.I. strength (weak, medium, strong, divinity); "
                                                             "0: none")] = AI_GAMES,
    ai_also: Annotated[str, typer.Option("--ai-also", help="comma-separated players added to the A.I. table only, after the rungs "
                                                           "(one whose Solo player a rung already plays is left out; '' for none)")] = "best",
    seed: Annotated[int, typer.Option("--seed", "-s", help="master seed")] = 3,
    threads: Annotated[int | None, typer.Option("--threads", "-t", help="threads (default: all); results do not depend on it")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="also write everything measured to this JSON file")] = None,
    store: Annotated[Path | None, typer.Option("--store", help="keep every game of the ladder (the pairs, the balanced deals, the Solo "
                                                              "A.I.) in this folder and read them back when the same rungs (their "
                                                              "compiled weights), rules, deals and engine come again; the results do "
                                                              "not depend on it")] = None,
    write: Annotated[Path | None, typer.Option("--write", help="write the ladder page here (docs/ladder.md)")] = None,
    readme: Annotated[Path | None, typer.Option("--readme", help="replace the ladder and characters blocks of this page (README.md)")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress lines", metavar="")] = False,
) -> None:
    """Play every pair of rungs (4 players, two seats each, seats rotated on common seeds) and each
    rung alone on balanced-Character deals and against the Solo A.I. at each strength; print the rung
    x rung win-rate matrix (Wilson 95% CIs), each rung's beat rate against the A.I., the Character
    win rates per rung and how the rungs agree on them (Kendall tau, reversals)."""
    from trinidad import ladder as lad_mod
    from trinidad.pages import PageError, replace_block, write_blocks
    from trinidad.tournament import MAX_SEED

    names = lad_mod.RUNGS if rungs is None else [r.strip() for r in rungs.split(",") if r.strip()]
    if len(names) < 2 or len(set(names)) != len(names):
        _fail(f"--rungs: give at least 2 distinct comma-separated strategy names, got {rungs!r}")
    if games < 1:
        _fail(f"--games: must be >= 1, got {games}")
    cg = -(-games // 12) * 12 if character_games is None else character_games
    if cg < 1:
        _fail(f"--character-games: must be >= 1, got {cg}")
    if ai_games < 0:
        _fail(f"--ai-games: must be >= 0, got {ai_games}")
    if not 0 <= seed <= MAX_SEED:
        _fail(f"--seed: must be 0..{MAX_SEED}, got {seed}")
    if threads is not None and threads < 1:
        _fail(f"--threads: must be >= 1, got {threads}")
    if readme is not None:  # a page without its blocks fails now, not after minutes of play
        try:
            text = readme.read_text()
            for name in lad_mod.BLOCKS:
                replace_block(text, name, "")
        except OSError as e:
            _fail(f"--readme: {readme}: {e.strerror or e}")
        except PageError as e:
            _fail(f"--readme: {readme}: {e}")
    from strategies.registry import StrategyError, load_strategies

    try:
        load_strategies(names)
    except StrategyError as e:
        _fail(f"--rungs: {e}")
    also = [r.strip() for r in ai_also.split(",") if r.strip()]
    try:
        lad_mod.ai_players(names, also)  # a bad name fails now, not after the 4-player games
    except StrategyError as e:
        _fail(f"--ai-also: {e}")
    say = (lambda _line: None) if quiet else (lambda line: typer.echo(f"ladder: {line}", err=True))
    res = lad_mod.measure(names, games, cg, seed=seed, threads=threads, say=say, ai_games=ai_games, ai_also=also, store=store)
    outputs = [f"{opt} {p}" for opt, p in (("--json", json_out), ("--write", write), ("--readme", readme)) if p is not None]
    for line in lad_mod.lines(res):
        typer.echo(line)
    if json_out is not None:
        json_out.write_text(json.dumps(res.to_dict(), indent=1) + "\n")
        typer.echo(f"wrote {json_out}")
    if write is not None:
        write.write_text(lad_mod.page(res, *outputs))
        typer.echo(f"wrote {write}")
    if readme is not None:
        try:
            write_blocks(readme, lad_mod.readme_blocks(res, *outputs))
        except PageError as e:
            _fail(f"--readme: {e}")
        typer.echo(f"wrote the ladder and characters blocks of {readme}")


def _tune_solo(ai: str, base: str, games: int, budget: int, seed: int, out: Path | None, threads: int | None,
               as_json: bool, character: str | None = None, perturb: float = 0.0) -> None:
    """``trinidad tune --ai``: trinidad.tune_solo, its progress bar, its table and its file."""
    from trinidad.tune import TuneError
    from trinidad.tune_solo import default_out, tune_solo, write_strategy

    if threads is not None and threads < 1:
        _fail(f"--threads: must be >= 1, got {threads}")
    target = out if out is not None else default_out(base)
    if target.suffix != ".toml":
        _fail(f"--out: must be a .toml file, got {str(target)!r}")
    bar = _LazyBar("tune", "generations")

    def tick(phase: str, done: int, total: int, info: dict) -> None:
        who = f"{info['label']}: " if info.get("label") else ""
        if phase == "search":
            bar.update(done, total, f"{who}fitness {info['mean_fitness']:+.3f} sigma {info['sigma']:.2f}")
        else:
            bar.update(None, total, f"{who}checked")

    try:
        res = tune_solo(base, [s for s in ai.split(",")], games=games, budget=budget, seed=seed, threads=threads,
                        progress=tick if not as_json and sys.stderr.isatty() else None,
                        characters=None if character is None else character.split(","), perturb=perturb)
        path = write_strategy(res, target)
    except TuneError as e:
        _fail(f"--{e}")
    finally:
        bar.stop()
    if as_json:
        print(json.dumps(res.to_dict()))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"{base} tuned against the Solo A.I., seed {seed}: win rate on fresh games (Wilson 95% CI)")
    for col in ("A.I. strength", f"before ({base})", "after (tuned)", "n"):
        t.add_column(col, justify="left" if col == "A.I. strength" else "right")
    def cell(r: dict) -> str:
        return f"{r['win_rate']:.1%} [{r['ci_low']:.1%}, {r['ci_high']:.1%}]"

    rows = [(f"{ck}, {s_}", ct.before[s_], ct.after[s_]) for ck, ct in res.characters.items() for s_ in res.strengths]
    rows += [(f"{s_}, these Characters" if res.characters else s_, res.before[s_], res.after[s_]) for s_ in res.strengths]
    for label, b, a in rows:
        t.add_row(label, cell(b), cell(a), f"{a['n']:,}")
    Console(file=sys.stdout, width=110).print(t)
    typer.echo(f"search: {res.generations} generations x ({res.popsize} + 1) candidates x {res.games} games per strength; "
               f"{res.seconds:.0f} s")
    typer.echo(f"wrote {path}")


@app.command(cls=_Command)
def tune(
    character: Annotated[str | None, typer.Option("--character", "-c", help=(
        "the Character whose heuristic weights are tuned; with --ai, Characters (comma-separated, or all) "
        "each tuned on its own Solo games"))] = None,
    games: Annotated[int, typer.Option("--games", "-n", help="games per candidate evaluation (the check plays 4x as many fresh games)")] = 200,
    budget: Annotated[int, typer.Option("--budget", "-b", help="candidate evaluations (one generation = popsize offspring + the mean)")] = 40,
    seed: Annotated[int, typer.Option("--seed", "-s", help="master seed")] = 1,
    players: Annotated[int, typer.Option("--players", "-p", help="2-5")] = 4,
    pool: Annotated[str, typer.Option(help="comma-separated opponent strategies, drawn per seat")] = "heuristic,greedy",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="tuned strategy TOML (default: strategies/tuned/heuristic-<name>.toml)")] = None,
    threads: Annotated[int | None, typer.Option("--threads", "-t", help="threads (default: all); results do not depend on it")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object", metavar="")] = False,
    ai: Annotated[str | None, typer.Option("--ai", help=(
        "tune against the Solo A.I. at these strengths (weak,medium): one shift of every weight block of --base, "
        "or with --character each Character's own table; --pool is not used"))] = None,
    base: Annotated[str, typer.Option("--base", help="--ai: the greedy or heuristic strategy whose weights are shifted")] = "heuristic",
    perturb: Annotated[float, typer.Option("--perturb", help=(
        "--ai: the share of the tuning games in which the player is forced to one option (trinidad probe's, at random) "
        "at its first legal chance, then plays on"))] = 0.0,
) -> None:
    """Tune the heuristic's weights for one Character with a noise-robust evolution strategy (common
    random numbers per generation), check before/after on fresh seeds and write the tuned strategy TOML.
    With ``--ai``, tune against the rulebook's Solo A.I. instead (trinidad.tune_solo)."""
    from strategies.registry import CHARACTER_KEYS
    from trinidad.tune import TuneError, check_args, default_out, write_strategy
    from trinidad.tune import tune as run_tune

    if ai is not None:
        _tune_solo(ai, base, games, budget, seed, out, threads, as_json, character, perturb)
        return
    if not character:
        _fail(f"--character: required; allowed: {', '.join(CHARACTER_KEYS)}")
    if threads is not None and threads < 1:
        _fail(f"--threads: must be >= 1, got {threads}")
    try:
        check_args(character, games, budget, seed, players)
        target = out if out is not None else default_out(character)
        if target.suffix != ".toml":
            raise TuneError(f"out: must be a .toml file, got {str(target)!r}")
    except TuneError as e:
        _fail(f"--{e}")
    bar = _LazyBar("tune", "generations")

    def tick(phase: str, done: int, total: int, info: dict) -> None:
        if phase == "search":
            bar.update(done, total, f"mean {info['mean_fitness']:.1%} sigma {info['sigma']:.2f}")
        else:
            bar.update(None, total, "checked")

    t0 = time.perf_counter()
    try:
        res = run_tune(character, games=games, budget=budget, seed=seed, players=players,
                       pool=[s.strip() for s in pool.split(",")], threads=threads,
                       progress=tick if not as_json and sys.stderr.isatty() else None)
        path = write_strategy(res, target)
    except TuneError as e:
        _fail(f"--{e}")
    finally:
        bar.stop()
    if as_json:
        print(json.dumps(res.to_dict()))
        return
    from rich.console import Console
    from rich.table import Table

    t = Table(title=f"Tuned heuristic for the {res.character}, {res.players} players, seed {res.seed}")
    for col in ("weights", "win rate", "95% CI (Wilson)", "n"):
        t.add_column(col, justify="left" if col == "weights" else "right")
    for label, r in (("before (heuristic.toml)", res.before), ("after (tuned)", res.after)):
        t.add_row(label, f"{r['win_rate']:.1%}", f"{r['ci_low']:.1%} - {r['ci_high']:.1%}", f"{r['n']:,}")
    Console(file=sys.stdout, width=110).print(t)
    typer.echo(f"search: {res.generations} generations x ({res.popsize} + 1) candidates x {res.games} games; "
               f"check: {res.before['n']:,} fresh games each; {time.perf_counter() - t0:.0f} s")
    typer.echo(f"wrote {path}")


runs_app = typer.Typer(cls=_Group, add_completion=False, no_args_is_help=True, help="Inspect run directories.")
app.add_typer(runs_app, name="runs")


@runs_app.command("summarize", cls=_Command)
def runs_summarize(directory: Annotated[Path, typer.Argument(help="a run directory (with manifest.json)")]) -> None:
    """Print a short text summary of a run."""
    from trinidad.experiment import ExperimentError
    from trinidad.runner import summarize

    try:
        for line in summarize(directory):
            typer.echo(line)
    except ExperimentError as e:
        _fail(str(e))


@runs_app.command("digest", cls=_Command)
def runs_digest(directories: Annotated[list[Path], typer.Argument(help="run directories (with manifest.json)")]) -> None:
    """Print a content digest of each run's games and decades tables: equal digests, same games
    (whatever the sharding, resume, workers or machine)."""
    from polars.exceptions import PolarsError

    from trinidad.digest import run_digest

    for d in directories:
        try:
            dg = run_digest(d)
        except (FileNotFoundError, PolarsError) as e:
            _fail(f"runs digest: {d}: {e}" if isinstance(e, PolarsError) else f"runs digest: {e}")
        typer.echo(f"{d}: games {dg['games']}  decades {dg['decades']}")


@runs_app.command("compare", cls=_Command)
def runs_compare(
    a: Annotated[Path, typer.Argument(help="the run to compare against (e.g. before a change)")],
    b: Annotated[Path, typer.Argument(help="the run compared (e.g. after the change)")],
) -> None:
    """Print two runs side by side: win rate by Character, VP by source and buildings per seat,
    paired by deal where the runs share their seeds (one experiment before and after a change)."""
    from analysis import RunError
    from analysis.run_diff import compare_runs, format_comparison

    try:
        c = compare_runs(a, b)
    except RunError as e:
        _fail(f"runs compare: {e}")
    for line in format_comparison(c, "/".join(a.parts[-2:]), "/".join(b.parts[-2:])):
        typer.echo(line)


@app.command(cls=_Command)
def report(
    directories: Annotated[list[Path], typer.Argument(
        help="a run directory (with manifest.json, games/ and decades/); several: the same experiment played by different "
             "players, strongest first (the report describes the first and checks its findings against the others)",
        metavar="DIR...")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="HTML file or folder (default: DIR/report/index.html)")] = None,
    delta: Annotated[float, typer.Option(help="SPRT effect size for rule variants: a change in a Character's win rate, in points")] = 5.0,
    force: Annotated[bool, typer.Option("--force", help="write into a folder that holds files the report did not write", metavar="")] = False,
    detail_games: Annotated[int, typer.Option(
        "--detail-games", help="game indices kept for the per-game tables (the model, Eras, Wars, rule variants); win rates, "
                               "scores and finishes-above use every game")] = 20_000,
    probes: Annotated[list[Path] | None, typer.Option(
        "--probes", help="a probe result (trinidad probe ... --json > FILE) to show in the option-use section; repeatable")] = None,
) -> None:
    """Write the design report of a run: a self-contained HTML page, charts (PNG, SVG), summary.csv and summary.json.
    Several runs (player tiers, strongest first) add the Agent sensitivity section: which findings
    hold at the two strongest tiers."""
    from analysis import RunError
    from reports.build import build_report

    if not 0 < delta < 100:
        _fail(f"--delta: must be between 0 and 100 (win-rate points), got {delta}")
    if detail_games < 100:
        _fail(f"--detail-games: at least 100, got {detail_games}")
    try:
        page = build_report(directories[0], out, delta=delta / 100, force=force, others=directories[1:], detail_games=detail_games,
                            probes=probes)
    except RunError as e:
        _fail(str(e))
    typer.echo(f"report: {page}")


@app.command(cls=_Command)
def compare(
    a: Annotated[Path, typer.Argument(help="run A: the run compared against (before a change, the other rule set, player count or tier)")],
    b: Annotated[Path, typer.Argument(help="run B: the run compared (after the change)")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="HTML file or folder (default: B/compare/index.html)")] = None,
    force: Annotated[bool, typer.Option("--force", help="write into a folder that holds files the page did not write", metavar="")] = False,
) -> None:
    """Write a page comparing two runs side by side: win rate by Character and turn position, VP
    by source, buildings; paired by deal where the runs share their seeds (B − A)."""
    from analysis import RunError
    from reports.compare import build_comparison

    try:
        page = build_comparison(a, b, out, force=force)
    except RunError as e:
        _fail(str(e))
    typer.echo(f"compare: {page}")


@app.command(cls=_Command)
def bench(
    players: Annotated[int, typer.Option("--players", "-p")] = 4,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", help="games for the jitted measurement (default: 20000, scaled down by a planning player's budget: rollout 128)")] = None,
    nojit_games: Annotated[int | None, typer.Option(
        help="games for the NUMBA_DISABLE_JIT=1 measurement; 0 skips it (default: 6; 0 for a planning player)")] = None,
    strategies: Annotated[str, typer.Option(help="strategy for every seat")] = "heuristic",
    cold: Annotated[bool, typer.Option("--cold/--no-cold", help="also measure a cold compile (minutes) in a fresh cache", metavar="")] = True,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress lines", metavar="")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object", metavar="")] = False,
) -> None:
    """Measure games/s (total and per core), core-seconds per game, the speed-up over the same
    engine without JIT, cold compile and cached start times, and peak memory, with the strategy's
    search budget. Progress goes to stderr, a line per measured chunk."""
    from strategies.registry import StrategyError
    from trinidad.bench import format_budget, run_bench, summary_line

    if not 2 <= players <= 5:
        _fail(f"--players: must be 2..5, got {players}")
    if games is not None and games < 1:
        _fail(f"--games: must be >= 1, got {games}")
    if nojit_games is not None and nojit_games < 0:
        _fail(f"--nojit-games: must be >= 0 (0 skips the measurement), got {nojit_games}")
    try:
        res = run_bench(players=players, games=games, nojit_games=nojit_games, strategy=strategies, cold=cold,
                        progress=not quiet)
    except StrategyError as e:
        _fail(f"--strategies: {e}")
    if as_json:
        print(json.dumps(res, sort_keys=True))
        return
    typer.echo(summary_line(res))
    for k, v in res.items():
        typer.echo(f"{k:>24}: {'skipped' if v is None else format_budget(v) if k == 'budget' else v}")


if __name__ == "__main__":
    app()
