"""The run's manifest as a key/value table: rules version and overrides, strategies, games,
seeds, runtime."""

from __future__ import annotations

import json

import polars as pl

from analysis.tables import Table


def _j(x) -> str:
    return json.dumps(x, sort_keys=True) if isinstance(x, dict | list) else str(x)


def manifest_table(manifest: dict, games_in_data: pl.DataFrame | None = None) -> Table:
    """Key/value rows describing the run (missing manifest keys are shown as 'n/a')."""
    e = manifest.get("experiment", {}) or {}
    c = manifest.get("counts", {}) or {}
    s = manifest.get("seeds", {}) or {}
    rio = manifest.get("game") == "rio-de-la-plata"  # Río de la Plata's run (trinidad.games.rio): its levels, not Characters
    rows = [
        *([("game", "Río de la Plata")] if rio else []),
        ("experiment", e.get("name", "n/a")),
        ("status", manifest.get("status", "n/a")),
        ("package version", manifest.get("package_version", "n/a")),
        ("git commit", manifest.get("git_commit") or "n/a"),
        ("python", manifest.get("python", "n/a")),
        ("rules file", e.get("rules_file") or ("bundled (rio/rulesdata/rio-de-la-plata.toml)" if rio else "bundled (sim/rulesdata/trinidad.toml)")),
        ("experiment rule overrides", _j(e.get("overrides") or {}) if e.get("overrides") else "none"),
    ]
    for v in manifest.get("variants", []) or []:
        ver = (((v.get("rules") or {}).get("meta") or {}).get("version")) or "n/a"
        rows.append((f"variant {v.get('name')}", f"rules version {ver}, hash {v.get('rules_hash', 'n/a')}, overrides "
                     + (_j(v.get("overrides")) if v.get("overrides") else "none")))
    rows += [
        ("player counts", ", ".join(str(p) for p in e.get("players", [])) or "n/a"),
        ("games per player count and variant", f"{e.get('games', 'n/a'):,}" if isinstance(e.get("games"), int) else "n/a"),
        ("games played", f"{c.get('games_done', 'n/a'):,} of {c.get('games_total', 'n/a'):,}" if isinstance(c.get("games_done"), int) else "n/a"),
        ("shards", str(c.get("shards", "n/a"))),
        ("strategies", ", ".join(e.get("strategies", [])) + f" (seats: {e.get('seat_assign', 'n/a')})" if e.get("strategies") else "n/a"),
        *([("experience levels", ", ".join(e.get("levels", []))), ("Short game", ", ".join(str(x) for x in e.get("shorts", [])))] if rio else [
            ("Characters", e.get("char_assign", "n/a") + (f" {e.get('forced')}" if e.get("char_assign") == "forced" else "")
             + ("; each seat paid its Character's price at setup (VP, relative; charged less the cheapest): "
                + "; ".join(f"{n} players {json.dumps(t, sort_keys=True)}" for n, t in sorted(e["prices"].items())) if e.get("prices") else "")),
            ("First Game Option", str(e.get("first_game", "n/a")))]),
        ("master seed", str(s.get("master", e.get("seed", "n/a")))),
        ("seed rule", s.get("rule", "n/a")),
        ("backend", f"{manifest.get('backend', 'n/a')} ({manifest.get('workers', 'n/a')} workers)"),
        ("wall time", f"{manifest['wall_s']:.1f} s" if isinstance(manifest.get("wall_s"), int | float) else "n/a"),
        ("games/s", f"{manifest['games_per_s']:,.1f}" if isinstance(manifest.get("games_per_s"), int | float) else "n/a"),
        ("machine", f"{manifest['cpu']}, {manifest.get('cores', 'n/a')} cores" if manifest.get("cpu") else "n/a"),
    ]
    stop = manifest.get("stopping")
    if stop:  # a run with precision (trinidad run --precision): where each variant stopped, and why
        from analysis.sequential import stop_line

        rows.append(("stopping rule", f"until every rate of interest is within +-{100 * stop['precision']:g} points (95%, "
                     f"anytime-valid) or a variant clearly differs from the base; blocks of {stop['block_games']:,} games, at most "
                     f"{stop['cap_games']:,}: {stop['rule']}"))
        for r in stop["streams"]:
            rows.append((f"stopped: {r['variant']}, {r['players']} players", stop_line(r).split(": ", 1)[1]))
    if games_in_data is not None:
        for r in games_in_data.iter_rows(named=True):
            rows.append((f"games in the data: {r['variant']}, {r['players']} players", f"{r['games']:,}"))
    return Table("manifest", "Run manifest", pl.DataFrame({"key": [r[0] for r in rows], "value": [str(r[1]) for r in rows]}),
                 note="From DIR/manifest.json (written by trinidad run) and the games tables.", power="")
