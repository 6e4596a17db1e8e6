"""``trinidad probe``: what a strategy leaves alone and what forcing it does (trinidad.probe)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from trinidad.commands.common import fail, with_bar


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
        fail("--ai-strength: needs --solo")
    if solo and players not in (None, 1):
        fail(f"--solo: the Solo game has one player besides the A.I., got --players {players}")
    if players is None:
        players = 1 if solo else 4
    ai = None
    if solo:
        from sim.rules import RK, RulesError, ai_strength_names, load_rules_doc, rules_from_doc

        try:
            doc = load_rules_doc()
            default = ai_strength_names(doc)[int(rules_from_doc(doc).k[RK.AI_STRENGTH])]
        except RulesError as e:
            fail(str(e))
        ai = ai_strength or default
    res = with_bar("probe", "games", as_json, ProbeError, lambda bar: run_probe(
        strategy, games=games, seed=seed, players=players, threshold=threshold, options=option, threads=threads,
        progress=bar and bar.update, bonuses=bonus, seats=seats, ai=ai, forbids=forbid))
    if res is None:
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
