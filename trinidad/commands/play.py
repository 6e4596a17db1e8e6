"""``trinidad play``: one game of either game (``--game``), or a game of a run as the run played it (``--run DIR --index N``).

``--game`` names the game everywhere (as ``trinidad run --game`` does); a replay's game index was ``--game N``
before there were two games, and still is with ``--run``: a game's name is never an integer."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Annotated

import typer

from trinidad.commands.common import fail, game_option, refuse

SEAT_COLOURS = ["Red", "Blue", "Yellow", "Green", "Black"]


def play(
    game: Annotated[str | None, typer.Option("--game", help="the game: trinidad (default) or rio-de-la-plata; with --run, an integer "
                                                            "is the game's index (the old spelling of --index)")] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", help="2-5 (default 4; Río de la Plata: the length of a --strategies "
                                                                       "list, else 4); with --ai, players besides the A.I.: 1 or 2")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="game seed (default 1)")] = None,
    strategies: Annotated[str | None, typer.Option(help="comma-separated strategy per seat (or one for all; default heuristic; Río de la "
                                                        "Plata: heuristic,builder,officer,merchant, the first --players of them and "
                                                        "contractor)")] = None,
    rules: Annotated[Path | None, typer.Option("--rules", help="TOML file of rule overrides (of the game's rules)")] = None,
    level: Annotated[str | None, typer.Option("--level", help="Río de la Plata: beginner, intermediate or expert (default expert)")] = None,
    short: Annotated[bool, typer.Option("--short", help="Río de la Plata: the Short game", metavar="")] = False,
    first_game: Annotated[bool, typer.Option("--first-game", help="First Game Option: 2 Characters, ends after Era 2", metavar="")] = False,
    extended_war: Annotated[bool, typer.Option("--extended-war", help="the EXTENDED WAR expansion (rules extended_war.enabled)",
                                               metavar="")] = False,
    solo: Annotated[bool, typer.Option("--solo", help="the Solo game: one player against the A.I. (--players 1 --ai)", metavar="")] = False,
    ai: Annotated[bool, typer.Option("--ai", help="add the A.I. player at a seat of its own, after the players' (2-player game)", metavar="")] = False,
    ai_strength: Annotated[str | None, typer.Option("--ai-strength", help="weak, medium, strong or divinity (default: solo.strength)")] = None,
    log: Annotated[bool, typer.Option("--log", help="print an account of the whole game", metavar="")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print the result as one JSON object", metavar="")] = False,
    run: Annotated[Path | None, typer.Option("--run", help="replay a game of this run directory as the run played it (with --index)")] = None,
    index: Annotated[int | None, typer.Option("--index", "-i", help="with --run: the game's index (the games table's game column)")] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="with --run: the rule variant (default: the run's first)")] = None,
) -> None:
    """Play one game and print the result (same seed, same output). --game rio-de-la-plata plays Río
    de la Plata. --run DIR --index N replays game N of a run (its seed, strategies, Characters and
    rules, from the run's manifest)."""
    from sim.rules import RK, RulesError, ai_strength_names, apply_overrides, load_rules_doc, rules_from_doc
    from sim.state import AI_STRATEGY
    from strategies.registry import StrategyError, load_strategies
    from trinidad.games import rio as rio_game

    index_flag = "--index"
    if game is not None and re.fullmatch(r"-?\d+", game):  # the old spelling of --index (a game's name is never an integer)
        if index is not None:
            fail(f"--game: {game} is a game's index (the old spelling of --index); give --index alone")
        index, index_flag, game = int(game), "--game", None
    g = game_option(game)
    trinidad_only = [("--first-game", first_game), ("--extended-war", extended_war), ("--solo", solo), ("--ai", ai),
                     ("--ai-strength", ai_strength), ("--log", log), ("--run", run), (index_flag, index), ("--variant", variant)]
    if g.name == rio_game.NAME:
        refuse(trinidad_only, "Trinidad", g)
        _play_rio(players, seed, strategies, rules, level, short, as_json)
        return
    refuse([("--level", level), ("--short", short)], "Río de la Plata", g)
    if run is not None or index is not None or variant is not None:
        _play_run_game(run, index, players, variant, seed, strategies, rules, first_game, solo, ai, ai_strength, log, as_json,
                       extended_war, index_flag)
        return
    seed = 1 if seed is None else seed
    strategies = strategies or "heuristic"
    ai = ai or solo
    if solo and players not in (None, 1):
        fail(f"--solo: the Solo game has one player besides the A.I., got --players {players}")
    if players is None:
        players = 1 if solo else (2 if ai else 4)
    if ai and not 1 <= players <= 2:
        fail(f"--players: with --ai, 1 (the Solo game) or 2 players besides the A.I., got {players}")
    if not ai and not 2 <= players <= 5:
        fail(f"--players: must be 2..5, got {players}")
    if ai_strength is not None and not ai:
        fail("--ai-strength: needs --ai or --solo")
    from strategies.registry import split_names  # names with settings keep their commas (search:budget=64,width=4)

    names = split_names(strategies)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        fail(f"--strategies: give one strategy or one per {'player' if ai else 'seat'} ({players}), got {len(names)}")
    try:
        doc = load_rules_doc(None, rules)
        if extended_war:  # over --rules: the flag asks for the expansion whatever the file says
            doc = apply_overrides(doc, {"extended_war": {"enabled": True}})
        if ai_strength is not None:
            if ai_strength not in ai_strength_names(doc):
                fail(f"--ai-strength: allowed: {', '.join(ai_strength_names(doc))}, got {ai_strength!r}")
            doc = apply_overrides(doc, {"solo": {"strength": ai_strength}})
        r = rules_from_doc(doc)
        W, distinct = load_strategies(names, solo=ai)
    except (RulesError, StrategyError) as e:
        fail(str(e))
    ids = [distinct.index(n) for n in names]
    n_seats = players + (1 if ai else 0)
    strength = ai_strength_names(doc)[int(r.k[RK.AI_STRENGTH])] if ai else None
    if ai:
        ids.append(AI_STRATEGY)
        names = names + [f"ai-{strength}"]
    _show_game(r, doc, W, players, n_seats, seed, ids, names, first_game, None, n_seats - 1 if ai else None, strength, log, as_json)


def _play_run_game(run, game, players, variant, seed, strategies, rules, first_game, solo, ai, ai_strength, log, as_json,
                   extended_war=False, index_flag="--index") -> None:
    """``trinidad play --run DIR --index N``: the game as the run played it (trinidad.replay); ``index_flag``: how the
    index was spelled (``--game N``, the old spelling), so that a line about it names what was typed."""
    from sim.rules import rules_from_doc
    from trinidad.replay import ReplayError, run_game_setup

    if run is None or game is None:
        fail(f"{index_flag if run is not None else '--run'}: --run DIR and {index_flag} N go together (--variant with them)")
    given = [o for o, v in (("--seed", seed), ("--strategies", strategies), ("--rules", rules), ("--first-game", first_game),
                            ("--solo", solo), ("--ai", ai), ("--ai-strength", ai_strength), ("--extended-war", extended_war))
             if v is not None and v is not False]
    if given:
        fail(f"{given[0]}: with --run the game is set up as the run played it; leave {given[0]} out")
    try:
        g = run_game_setup(run, game, players, variant)
    except ReplayError as e:
        msg = str(e)
        fail(f"{index_flag}{msg.removeprefix('index')}" if msg.startswith("index:") else f"--{msg}")
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


def _play_rio(players, seed, strategies, rules, level, short, as_json) -> None:
    """``trinidad play --game rio-de-la-plata``: one game of Río de la Plata (trinidad.games.rio.play_one), its result
    as a table or one JSON object; the game is a function of its seed (a run's game of that seed, with the same
    seats, level and length, is the same game)."""
    from trinidad.games import rio

    seed = 1 if seed is None else seed
    if not 0 <= seed < 2**64:
        fail(f"--seed: must be 0..2^64-1 (a game's seed), got {seed}")
    try:
        seats, level = rio.seat_names(strategies, players), rio.level_name(level)
        r = rio.rules(rules)
    except ValueError as e:
        fail(f"--{e}")
    out = rio.play_one(r, seats, level, short, seed)
    if as_json:
        print(json.dumps(out, sort_keys=True))
        return
    _show_rio(out)


def _table(title: str, cols: list[str], rows: list[list[str]], right: tuple[str, ...] = (), caption: str | None = None):
    """A rich table whose values never wrap (the last column's may: the Public Offices bought)."""
    from rich.table import Table

    t = Table(title=title, caption=caption)
    for j, col in enumerate(cols):
        t.add_column(col, no_wrap=j < len(cols) - 1, justify="right" if col in right else "left")
    for r in rows:
        t.add_row(*r)
    return t


def _show_rio(out: dict) -> None:
    """Río de la Plata's result in three tables: the seats (by rank), their VP by source, the wars."""
    from rich.console import Console

    from rio.engine.state import VPS

    con = Console(file=sys.stdout, width=120)  # a fixed width: the same seed prints the same text on any terminal
    what = f"{out['players']} players, {out['level']}" + (", the Short game" if out["short"] else "")
    seats = sorted(out["seats"], key=lambda x: (x["rank"], x["seat"]))
    con.print(_table(f"Río de la Plata, {what}, seed {out['seed']} ({out['turns']} turns)",
                     ["seat", "strategy", "VP", "rank", "start", "resources", "Houses", "Huts", "wars", "Public Offices (turn bought)"],
                     [[str(r["seat"]), r["strategy"], str(r["vp"]), str(r["rank"]), str(r["start_position"]),
                       "/".join(str(r["resources"][k]) for k in ("silver", "wood", "stone", "precious")), str(r["houses"]), str(r["huts"]),
                       str(r["attacks"]), ", ".join(f"{o['office']} ({o['turn']})" for o in r["offices"]) or "-"] for r in seats],
                     caption="start: place on the order track in the first turn; resources: silver/wood/stone/precious at the end; "
                             "wars: those the seat led as the attacker"))
    sources = [m.name.lower() for m in VPS if any(m.name.lower() in r["vp_by_source"] for r in out["seats"])]
    con.print(_table("VP by source", ["source", *(f"seat {r['seat']}" for r in out["seats"])],
                     [[src, *(str(r["vp_by_source"].get(src, 0)) for r in out["seats"])] for src in sources],
                     right=tuple(f"seat {r['seat']}" for r in out["seats"])))
    if not out["wars"]:
        con.print("No war was fought.")
        return
    con.print(_table("Wars", ["war", "enemy", "led by", "tokens", "killed", "buildings", "lost", "att. VP", "def. VP", "rounds", "outcome"],
                     [[str(x["war"]), x["enemy"] + (" (forced)" if x["forced"] else ""), f"seat {x['attacker']}", str(x["attackers"]),
                       str(x["destroyed"]), str(x["buildings"]), str(x["lost"]), str(x["attacker_vp"]), str(x["defender_vp"]),
                       str(x["rounds"]), x["outcome"]] for x in out["wars"]],
                     caption="tokens: attacking tokens; killed: by the defenders and the cannons; buildings: destroyed; "
                             "lost: defending tokens; att./def. VP: the attacker's and the defenders'"))
