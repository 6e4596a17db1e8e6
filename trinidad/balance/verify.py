"""What ``trinidad balance`` (trinidad.balance) writes into its out folder once the search has found its proposal:

- ``proposal.toml``: the proposal as a rules override file (the spec's own ``[rules] overrides`` with the knobs
  moved), for ``trinidad play --rules``, ``load_rules(overrides=...)`` or an experiment's ``[rules] overrides``;
- ``verify/``: the verification run, the rules and the proposal as two variants of one experiment
  (``verify.toml``, which ``trinidad run`` plays again) on the verification's seed, a stream the search's seed
  never draws from (:meth:`Spec.derived_seed`), played by the spec's player, and its ``trinidad report``
  (``verify/report/index.html``: each group before and after in Rule variants);
- ``verify-<player>/``: the same played by the spec's ``check_player``, with its report, where it names one;
- ``verify-ai/``: where the spec asks (``verify_ai_games``, or a Solo A.I. target), the spec's player against the
  Solo A.I. at every strength of the rules, the rules and the proposal on the verification's seed
  (:func:`trinidad.ai_scale.solo_credits`: the same deals under both, paired game by game), as ``solo.parquet``;
- ``balance.json`` and ``balance.md``: the balance summary: the search's rounds and its recheck (each row at the
  points rechecked, beside what the rounds read), the knobs moved and by how much, each row before
  and after with its interval and its band, the chi-square over the groups (and the seats) before and after, the
  beat rates against the A.I., whether the target holds on the fresh seeds, and where it does not, which rows
  stay out, by how much, and which knob they would need."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from analysis import balance_search as bs
from trinidad.balance.search import Search, play_solo, read_rows, row_labels
from trinidad.balance.spec import SEARCH, VERIFY, Row, Spec
from trinidad.runner.run import run_experiment

BASE, PROPOSAL = "rules", "proposal"  # the verification's variants


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML for {v!r}")


def _dotted(d: dict, prefix: str = "") -> list[str]:
    out = []
    for k, v in d.items():
        if isinstance(v, dict) and v:
            out += _dotted(v, f"{prefix}{k}.")
        elif not (isinstance(v, dict) and not v):
            out.append(f"{prefix}{k} = {_toml_value(v)}")
    return out


def toml_text(doc: dict, header: list[str] = ()) -> str:
    """A TOML document of ``doc`` (scalars and lists at the top; a table a ``[key]`` with its nested tables as
    dotted keys; a list of tables a ``[[key]]`` each), after ``header`` as comments."""
    lines = [f"# {h}" for h in header]
    lines += [f"{k} = {_toml_value(v)}" for k, v in doc.items() if not isinstance(v, dict) and not _tables(v)]
    for k, v in doc.items():
        if isinstance(v, dict) and _dotted(v):
            lines += ["", f"[{k}]", *_dotted(v)]
        elif _tables(v):
            for t in v:
                lines += ["", f"[[{k}]]", *_dotted(t)]
    return "\n".join(lines).lstrip("\n") + "\n"


def _tables(v) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(t, dict) for t in v)


def verification_doc(spec: Spec, search: Search, player: str, out: Path) -> dict:
    """The verification experiment: the rules and (where a knob moved) the proposal, on the verification's seed."""
    variants = [{"name": BASE}] + ([{"name": PROPOSAL, "overrides": spec.overrides_at(search.proposal)}] if search.proposal else [])
    return spec.experiment_doc(f"{spec.name}-verify" + ("" if player == spec.player else f"-{player}"), out, spec.verify_games,
                               spec.derived_seed(VERIFY), player, variants)


def verify_player(spec: Spec, search: Search, player: str, backend: str, workers: int | None, resume: bool, progress: bool,
                  say) -> dict:
    """One player's verification run and its report; the before-and-after figures of every row. The spec's player
    also plays the Solo A.I. at every strength where the spec asks (``verify_ai_games``); the A.I.'s targets are that
    player's, so a check player's verification holds the other rows alone."""
    mine = player == spec.player
    ai_games = spec.verify_ai_games if mine else 0
    with spec.game.engine_parts(ai_games):  # Trinidad: the engine compiled once, with the Solo A.I. where it plays
        return _verify_player(spec, search, player, [r for r in spec.rows if mine or r.kind != "ai"], ai_games, backend, workers,
                              resume, progress, say)


def _in_band(r: dict, row: Row) -> None:
    """A verification row's band, its distance beyond it before and after, and whether the target holds: the rate after
    within the band, and its interval covering the centre (the fair share, a target rate) or, where there is none,
    reaching into the band (the rate not clearly outside)."""
    centre = None if math.isnan(row.centre) else row.centre
    band = bs.Band([row.lo], [row.hi], [row.centre])
    r |= {"kind": row.kind, "lo": row.lo, "hi": row.hi, "fair": centre,
          "excess_before": float(band.excess([r["before"]])[0]), "excess_after": float(band.excess([r["after"]])[0])}
    if centre is None:
        r["off_before"] = r["off_after"] = None
    r["within"] = bool(band.inside([r["after"]]))
    r["covers_target"] = bool(r["after_lo"] <= centre <= r["after_hi"] if centre is not None else
                              r["after_lo"] <= row.hi and r["after_hi"] >= row.lo)


def _verify_player(spec: Spec, search: Search, player: str, rows: list[Row], ai_games: int, backend: str, workers: int | None,
                   resume: bool, progress: bool, say) -> dict:
    from reports.build import build_report

    out = spec.out / ("verify" if player == spec.player else f"verify-{player}")
    doc = verification_doc(spec, search, player, out)
    exp = spec.game.experiment(doc, str(spec.path))
    if progress:
        say(f"verification by {player}: {len(exp.variants)} variant{'s' if len(exp.variants) > 1 else ''} x {spec.verify_games:,} games "
            f"x {len(spec.players)} player count{'s' if len(spec.players) > 1 else ''}, fresh seeds ({out})")
    run_experiment(exp, backend=backend, workers=workers, resume=resume and (out / "manifest.json").exists(), progress=False, say=say,
                   ai_games=0)
    page = build_report(out, force=True, sections=spec.game.analyze)
    names = [v.name for v in exp.variants]
    solo = None
    if ai_games:
        if progress:
            say(f"verification by {player} against the Solo A.I.: {len(names)} variant{'s' if len(names) > 1 else ''} x "
                f"{len(spec.solo_strengths)} strengths x {ai_games:,} Solo games, fresh seeds ({spec.out / 'verify-ai'})")
        solo = play_solo(spec, spec.out / "verify-ai", player, [(BASE, {}), *([(PROPOSAL, search.proposal)] if search.proposal else [])],
                         ai_games, spec.derived_seed(VERIFY), spec.solo_strengths, workers if backend == "local" else None)
    m = read_rows(out, spec, names, solo, rows)
    before = m[BASE]
    after = m[PROPOSAL] if search.proposal else before
    labels = row_labels(spec, rows)
    out_rows = []
    for j, row in enumerate(rows):
        [r] = bs.before_after(before[:, [j]], after[:, [j]], [labels[j]], row.centre)
        _in_band(r, row)
        out_rows.append({"players": row.players} | r)
    chi = []
    for kind in ("groups", "seats"):
        for n in spec.players:
            cols = [j for j, r in enumerate(rows) if r.players == n and r.kind == kind]
            if len(cols) < 2:
                continue
            b, a = before[:, cols], after[:, cols]
            chi.append({"players": n, "of": kind, "before": bs.chi_square(np.nansum(b, axis=0), np.sum(~np.isnan(b), axis=0)),
                        "after": bs.chi_square(np.nansum(a, axis=0), np.sum(~np.isnan(a), axis=0))})
    ai = None
    if solo is not None:
        held = {r.value: r for r in rows if r.kind == "ai"}
        ai_rows = []
        for st in spec.solo_strengths:
            b = solo[BASE][st][:, None]
            a = solo[PROPOSAL][st][:, None] if search.proposal else b
            [r] = bs.before_after(b, a, [st], held[st].centre if st in held else math.nan)
            if st in held:
                _in_band(r, held[st])
            else:
                r["fair"] = r["off_before"] = r["off_after"] = None
            ai_rows.append({"strength": st, "target": st in held} | r)
        ai = {"games": ai_games, "seed": spec.derived_seed(VERIFY), "out": str(spec.out / "verify-ai"), "rows": ai_rows}
    bad = [r for r in out_rows if not (r["within"] and r["covers_target"])]
    return {"player": player, "out": str(out), "report": str(page), "games": spec.verify_games, "seed": spec.derived_seed(VERIFY),
            "rows": out_rows, "chi_square": chi, "ai": ai, "met": not bad if out_rows else None,  # None: no row is this player's
            "out_of_target": [{"row": r["group"], "rate": r["after"], "off": r["off_after"], "excess": r["excess_after"],
                               "fair": r["fair"]} for r in bad]}


def write_outputs(spec: Spec, search: Search, verified: list[dict]) -> dict:
    """proposal.toml, verify.toml, balance.json and balance.md (module docstring); returns balance.json's document."""
    every = {k.key: k for k in [*spec.knobs, *spec.others]}
    moved = [{"key": key, "rules": every[key].value, "proposal": v, "change": v - every[key].value} for key, v in search.proposal.items()]
    # a knob's starting value is the spec's rules' (its [rules] file and overrides), which need not be the bundled rules'
    where = "in the spec's [rules]" if spec.overrides or spec.rules_file else "in the rules"
    header = [f"trinidad balance {spec.path}: the proposal of the search (seed {spec.seed}), as a rules override file",
              f"over {'the rules file ' + spec.rules_file if spec.rules_file else 'the bundled rules'}; play it with trinidad play --rules "
              "FILE, or name it in an experiment's or a balance spec's [rules] overrides = \"FILE\"",
              *(f"{m['key']}: {m['rules']} {where}, {m['change']:+g}" for m in moved)]
    if not moved:
        header.append("no knob moved: the rules as they are" + (" are within the target" if search.best.met else " are the best found"))
    spec.out.mkdir(parents=True, exist_ok=True)
    (spec.out / "proposal.toml").write_text(toml_text(spec.overrides_at(search.proposal), header))
    (spec.out / "verify.toml").write_text(toml_text(verification_doc(spec, search, spec.player, spec.out / "verify"),
                                                    [f"the verification run of trinidad balance {spec.path}: trinidad run this file "
                                                     "--out DIR plays it again (its out is the run the command wrote)"]))
    labels = row_labels(spec)
    doc = {
        "spec": str(spec.path), "game": spec.game.name, "name": spec.name, "players": spec.players, "player": spec.player,
        "check_player": spec.check_player, "seed": spec.seed, "search_seed": spec.derived_seed(SEARCH), "verify_seed": spec.derived_seed(VERIFY),
        "tolerance": spec.tolerance, "seat_tolerance": spec.seat_tolerance, "targets": spec.targets, "budget": spec.budget,
        "games_spent": search.spent, "solo_games_spent": search.solo_spent, "verify_ai_games": spec.verify_ai_games,
        "bands": [{"row": label, "kind": r.kind, "lo": r.lo, "hi": r.hi, "centre": None if math.isnan(r.centre) else r.centre}
                  for label, r in zip(labels, spec.rows, strict=True)],
        "knobs": [{"key": k.key, "rules": k.value, "min": k.lo, "max": k.hi, "step": k.step, "probe": k.probe} for k in spec.knobs],
        "moved": moved, "met_on_search_seeds": search.best.met, "best_round": search.best.round,
        "rounds": search.rounds, "points": [p.to_dict(labels, spec.knobs) for p in search.points],
        "recheck": search.recheck and search.recheck | {"spent": search.recheck_spent,
                                                         "points": [p.to_dict(labels, spec.knobs) for p in search.rechecked]},
        "sensitivity": [{"knob": k.key, "allowed": k.allowed, "per_unit": [None if math.isnan(x) else float(x) for x in search.S[:, j]],
                         "se": [None if math.isnan(x) else float(math.sqrt(x)) for x in search.V[:, j]]}
                        for j, k in enumerate([*spec.knobs, *spec.others])],
        "rows": labels, "needed": search.needed, "verification": verified,
    }
    (spec.out / "balance.json").write_text(json.dumps(doc, indent=1, default=float) + "\n")
    (spec.out / "balance.md").write_text("\n".join(summary_lines(doc)) + "\n")
    return doc


def _pct(x) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _pts(x) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:+.1f}"


def _band_text(r: dict) -> str:
    """A row's target in a table cell: its centre +-X, or its band."""
    lo, hi, c = r["lo"], r["hi"], r.get("fair")
    if c is not None and math.isclose(hi - c, c - lo):
        return f"{_pct(c)} +-{100 * (hi - c):g}"
    if hi >= 1:
        return f">= {_pct(lo)}"
    if lo <= 0:
        return f"<= {_pct(hi)}"
    return f"{_pct(lo)}..{_pct(hi)}"


def _off(o: dict) -> str:
    if o["excess"]:
        return f"{o['row']} {_pct(o['rate'])} ({_pts(o['excess'])} points beyond its band)"
    return f"{o['row']} {_pct(o['rate'])} (its interval misses {_pct(o['fair'])})" if o["fair"] is not None else \
        f"{o['row']} {_pct(o['rate'])} (its interval misses the band)"


def _point_cells(p: dict) -> str:
    """A measured point's cells in the rounds' and the recheck's tables: the knobs it moves, its largest excess, its
    squared excess and deviation, whether it is within the target."""
    mv = ", ".join(f"{k.split('.')[-1]} {p['values'][k]}" for k in p["moved"]) or "the rules"
    return (f"{mv} | {100 * p['max_excess']:.1f} | {1e4 * p['squared_excess']:.0f} | {1e4 * p['squared_deviation']:.0f} | "
            f"{'yes' if p['met'] else 'no'} |")


def _recheck_lines(doc: dict, rc: dict) -> list[str]:
    """The recheck's section of the summary: its points, and each row at them beside what the rounds read."""
    pts = rc["points"]
    rounds = next(p for p in doc["points"] if p["round"] == rc["from_round"])
    out = ["", "## Recheck", "",
           f"The rounds' best point (round {rc['from_round']}, measured there on {rounds['games']:,} deals, on which it was chosen) "
           f"played again on {rc['games']:,} fresh deals of the recheck's seed"
           + ("" if len(pts) < 2 else ", then the step from what they read, on the same deals" if len(pts) == 2 else
              f", then {len(pts) - 1} steps, each from the best point the recheck had read, on the same deals")
           + f"; the proposal is the best of them there (the {rc['chosen']})." + (f" Stopped: {rc['stopped']}." if rc.get("stopped") else ""),
           "", "| point | games per variant | point moves | largest excess (points) | squared excess (points^2) | squared deviation "
           "(points^2) | within |", "|---|---:|---|---:|---:|---:|---|"]
    out += [f"| {p['round']} | {p['games']:,} | {_point_cells(p)}" for p in pts]
    cols = [(f"round {rounds['round']} ({rounds['games']:,} deals)", rounds), *((p["round"], p) for p in pts)]
    out += ["", "Each row's rate at the points (95% interval +-1.96 standard errors):", "",
            "| row | " + " | ".join(c for c, _ in cols) + " |", "|---|" + "---:|" * len(cols)]
    for j, row in enumerate(doc["rows"]):
        out.append(f"| {row} | " + " | ".join(f"{_pct(p['rates'][j]['rate'])} +-{100 * 1.96 * p['rates'][j]['se']:.1f}" for _, p in cols)
                   + " |")
    return out


def summary_lines(doc: dict) -> list[str]:
    """The balance summary (balance.md, and what the command prints): a Markdown page of balance.json."""
    solo = doc.get("solo_games_spent", 0)
    rc = doc.get("recheck") or {}
    out = [f"# Balance: {doc['name']}", "",
           f"Spec `{doc['spec']}`: {doc['game']}, {', '.join(map(str, doc['players']))} players, `{doc['player']}` in every seat; target: "
           f"{'; '.join(doc['targets'])}. Search: {doc['games_spent']:,} of a budget of {doc['budget']:,} games"
           + (f" ({solo:,} of them Solo games against the A.I.)" if solo else "")
           + f", seed {doc['search_seed']}" + (f"; recheck: {rc['spent']:,} games, seed {rc['seed']}" if rc else "")
           + f"; verification seed {doc['verify_seed']} (none of the search's deals).", "", "## Proposal", ""]
    if doc["moved"]:
        out += ["| knob | rules | proposal | change |", "|---|---:|---:|---:|"]
        out += [f"| `{m['key']}` | {m['rules']} | {m['proposal']} | {m['change']:+g} |" for m in doc["moved"]]
    else:
        out.append("No knob moved: " + ("the rules are within the target already." if doc["met_on_search_seeds"] else
                                        "no move the search measured did better than the rules."))
    where = (f"On the recheck's {rc['games']:,} fresh deals the proposal (the {doc['best_round']})" if rc else
             f"On the search's seeds the best point (round {doc['best_round']})")
    out += ["", f"As a rules override file: `proposal.toml`. {where} is {'within' if doc['met_on_search_seeds'] else 'out of'} the target."]
    out += ["", "## Search rounds", "",
            "Each point's largest distance beyond a band, its squared excess beyond the bands and its squared deviation from the "
            "centres: the best point is one in every band, else the least squared excess, the squared deviation the tie-break.", "",
            "| round | games per variant | knobs probed | point moves | largest excess (points) | squared excess (points^2) | "
            "squared deviation (points^2) | within |",
            "|---|---:|---:|---|---:|---:|---:|---|"]
    for rec, p in zip([r for r in doc["rounds"] if r.get("games") and r["round"] != "diagnose"], doc["points"], strict=False):
        out.append(f"| {rec['round']} | {rec['games']:,} | {len(rec.get('probed', []))} | {_point_cells(p)}")
    stops = [r["stopped"] for r in doc["rounds"] if r.get("stopped")]
    if stops:
        out += ["", f"Stopped: {stops[-1]}."]
    if rc:
        out += _recheck_lines(doc, rc)
    for v in doc["verification"]:
        if not v["rows"]:
            out += ["", f"## Verification by `{v['player']}`", "",
                    f"{v['games']:,} games per variant and player count on fresh seeds (`{v['out']}`, report `{v['report']}`). No row of the "
                    "target is this player's: the A.I.'s targets are the spec's player's."]
            continue
        out += ["", f"## Verification by `{v['player']}`", "",
                f"{v['games']:,} games per variant and player count on fresh seeds (`{v['out']}`, report `{v['report']}`). Rate "
                "before (the rules) and after (the proposal), Wilson 95% intervals; change: paired by deal, paired t 95% interval; "
                "the target holds where the rate after is in its band and its interval covers the centre (or, for a band without "
                "one, reaches into it).", "",
                "| row | target | before | after | change (points) | beyond band after (points) | in band, interval covers target |",
                "|---|---|---|---|---|---:|---|"]
        for r in v["rows"]:
            out.append(f"| {r['group']} | {_band_text(r)} | {_pct(r['before'])} [{_pct(r['before_lo'])}, {_pct(r['before_hi'])}] | "
                       f"{_pct(r['after'])} [{_pct(r['after_lo'])}, {_pct(r['after_hi'])}] | {_pts(r['change'])} [{_pts(r['change_lo'])}, "
                       f"{_pts(r['change_hi'])}] | {_pts(r['excess_after'])} | {'yes' if r['within'] else 'no'}, "
                       f"{'yes' if r['covers_target'] else 'no'} |")
        for c in v["chi_square"]:
            b, a = c["before"], c["after"]
            out.append("")
            out.append(f"Chi-square over the {c.get('of', 'groups')} at {c['players']} players (df {b['df']}): before {b['chi2']:.1f} "
                       f"(p {b['p']:.2g}), after {a['chi2']:.1f} (p {a['p']:.2g}).")
        if v.get("ai"):
            ai = v["ai"]
            out += ["", f"### `{v['player']}` against the Solo A.I.", "",
                    f"{ai['games']:,} Solo games per variant and strength on fresh seeds (`{ai['out']}`; the player's Character dealt "
                    "balanced, the A.I. first in half of them; a full tie is half a beat), the same deals under the rules and the "
                    "proposal.", "",
                    "| strength | target | before | after | change (points) | in band, interval covers target |", "|---|---|---|---|---|---|"]
            for r in ai["rows"]:
                held = f"{'yes' if r['within'] else 'no'}, {'yes' if r['covers_target'] else 'no'}" if r["target"] else ""
                out.append(f"| {r['strength']} | {_band_text(r) if r['target'] else 'none'} | {_pct(r['before'])} [{_pct(r['before_lo'])}, "
                           f"{_pct(r['before_hi'])}] | {_pct(r['after'])} [{_pct(r['after_lo'])}, {_pct(r['after_hi'])}] | "
                           f"{_pts(r['change'])} [{_pts(r['change_lo'])}, {_pts(r['change_hi'])}] | {held} |")
        out += ["", ("Target met on the fresh seeds: every row in its band, its interval covering its target." if v["met"] else
                     "Target not met on the fresh seeds: " + "; ".join(_off(o) for o in v["out_of_target"]) + ".")]
    if doc["needed"]:
        out += ["", "## Out of reach with the knobs allowed", "",
                "At the best point of the search: each row out of its band, and the knob (left out of the spec, or allowed "
                "and at its bound) with the largest effect on it in the direction it needs, measured at least two standard errors "
                "from 0; the value it would need to bring the row to its centre (to its band, where it has none), by the linear "
                "model.", "",
                "| row | beyond band (points) | knob it would need | effect per probe (points) | value needed (linear) |", "|---|---:|---|---:|---:|"]
        for n in doc["needed"]:
            if n["knob"] is None:
                out.append(f"| {n['row']} | {_pts(n['excess'])} | no knob left out or at its bound moves it clearly the right way | | |")
                continue
            where = "" if n["within_bounds"] else " (beyond its bounds: the knob alone would not do)"
            out.append(f"| {n['row']} | {_pts(n['excess'])} | `{n['knob']}` | {100 * n['effect']:.1f} | {n['value_needed']:.1f}{where} |")
    return out
