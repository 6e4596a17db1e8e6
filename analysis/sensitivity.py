"""Agent sensitivity: the same balance questions asked of several player tiers.

A tier is one run directory whose seats are all played by one player family (``heuristic``,
``rollout``, ``best``...), ideally on the same deals as the others (same experiment, seed, games
and Character assignment). The tiers are given strongest first. Nothing is pooled across tiers:
each tier's estimates are its own, side by side.

A *finding* is a group whose win rate differs from the fair share 1/N at Holm p < 0.05 in at least
one tier: a Character (per player count) or a turn position. It is **robust** when the two
strongest tiers both find it significant with the same sign; otherwise it **depends on the
players**. With one tier nothing can be checked, and the report says so.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats

from analysis.data import Run
from analysis.tables import Table, win_rates

SOURCES_SHOWN = 3  # VP sources named for each Character that differs between two tiers, largest move first
ROBUST = "robust"
DEPENDS = "depends on the players"
SIG = 0.05  # Holm-adjusted p below which a tier "finds" a difference


@dataclass
class Tier:
    label: str  # the player family as the reader knows it, e.g. "best" or "heuristic+rollout"
    run: Run


def strategies_of(run: Run) -> list[str]:
    """The strategies that played the run's seats, as the experiment named them (in its order),
    else as the games table has them."""
    names = list(dict.fromkeys((run.manifest.get("experiment") or {}).get("strategies") or []))
    return names or run.strategies()


def tier_labels(runs: list[Run]) -> list[str]:
    """One label per run: its strategies joined by '+'; runs whose labels collide get their
    directory name appended (and their tier number if that still collides), so every tier has a
    distinct name."""
    base = ["+".join(strategies_of(r)) for r in runs]
    named = [f"{b} ({r.path.name})" if base.count(b) > 1 else b for b, r in zip(base, runs, strict=True)]
    return [f"{x} #{k + 1}" if named.count(x) > 1 else x for k, x in enumerate(named)]


def _rates(run: Run, by: str) -> pl.DataFrame:
    """Win rate per (players, ``by``) of the run's baseline variant, with Wilson CI and Holm p
    over the groups of one player count; only the columns it needs are read."""
    t = win_rates(run.all_games(), ["players", by], ["players"])  # every game, a shard at a time
    return t.with_columns(pl.col(by).cast(pl.String).alias("group"), pl.col("players").cast(pl.Int64)).select(
        "players", "group", "n", "win_rate", "win_rate_lo", "win_rate_hi", "expected", "diff", "p_holm")


def _deals(run: Run) -> pl.DataFrame:
    return run.games_of().select(pl.col("players").cast(pl.Int64), "game", "seed").unique().collect()


def shared_deals(a: Run, b: Run) -> float:
    """The share of ``b``'s games whose (players, game index, seed) ``a`` also played: 1.0 when the
    two runs are the same experiment with different players."""
    da, db = _deals(a), _deals(b)
    if db.height == 0:
        return float("nan")
    return db.join(da, on=["players", "game", "seed"], how="semi").height / db.height


def _col(label: str, what: str) -> str:
    return f"{what} · {label}"


def character_table(tiers: list[Tier], rates: list[pl.DataFrame]) -> Table:
    """Each Character's win rate per tier side by side (per player count), strongest tier first."""
    base = rates[0].select("players", pl.col("group").alias("character"), "expected")
    wide = base
    for t, r in zip(tiers, rates, strict=True):
        w = r.select("players", pl.col("group").alias("character"),
                     pl.col("win_rate").alias(_col(t.label, "win rate")),
                     pl.col("win_rate_lo").alias(_col(t.label, "win rate") + "_lo"),
                     pl.col("win_rate_hi").alias(_col(t.label, "win rate") + "_hi"))
        wide = wide.join(w, on=["players", "character"], how="full", coalesce=True)
    first = _col(tiers[0].label, "win rate")
    wide = wide.sort(["players", first], descending=[False, True], nulls_last=True)
    pct = {"expected"} | {c for c in wide.columns if c.startswith("win rate")}
    return Table("tier_characters", "Character win rates by player tier", wide.rename({"expected": "fair share"}),
                 note=("Each column is one tier's own estimate (mean win credit, Wilson 95% CI); tiers are never pooled. "
                       f"Rows are ordered by the strongest tier ({tiers[0].label})."),
                 pct=pct | {"fair share"})


def seat_games(run: Run, players: int, groups: list[str]) -> tuple[pl.DataFrame, np.ndarray, np.ndarray]:
    """The run's games at ``players``: the deals (game, seed), sorted, and (deals, seats) arrays of each
    seat's Character (its index in ``groups``; ``len(groups)`` pads a game with fewer rows) and win credit."""
    df = run.games_of().filter(pl.col("players") == players).select("game", "seed", "seat", "character", "credit").collect()
    k = len(groups)
    df = (df.with_columns(pl.col("character").cast(pl.String).replace_strict(groups, list(range(k)), default=k).alias("g"))
          .sort(["game", "seed", "seat"]).group_by(["game", "seed"], maintain_order=True)
          .agg(pl.col("g"), pl.col("credit")))
    width = int(df["g"].list.len().max() or 0)
    g = np.full((df.height, width), k, np.int64)
    c = np.zeros((df.height, width))
    for i, (gg, cc) in enumerate(zip(df["g"].to_list(), df["credit"].to_list(), strict=True)):
        g[i, :len(gg)], c[i, :len(cc)] = gg, cc
    return df.select("game", "seed"), g, c


def moved_sources(chars: np.ndarray, vp_a: np.ndarray, vp_b: np.ndarray, character: int, sources: list[str],
                  shown: int = SOURCES_SHOWN) -> list[dict]:
    """Where ``character``'s seats score differently under two players on the very same deals (``chars``:
    (deals, seats), the same Character at the same seat under both; ``vp_a``, ``vp_b``: (deals, seats,
    1 + len(sources)), each seat's final VP then its VP by source): the final VP, then the ``shown``
    sources whose mean moved most, each the mean per seat-game under ``a`` minus under ``b`` with its 95%
    interval paired seat-game by seat-game (scipy.stats.ttest_rel), and ``rivals``: the same move for the
    other seats of those games (their mean), since a win rate is the seat's VP against theirs. Sources
    whose mean did not move are left out."""
    m = chars == character
    va, vb = vp_a[m], vp_b[m]  # (seat-games, 1 + sources)
    diff = vp_a - vp_b
    rivals = ((diff.sum(axis=1, keepdims=True) - diff) / (chars.shape[1] - 1))[m]  # the other seats' mean move
    d = (va - vb).mean(axis=0)
    order = [0] + [1 + i for i in np.argsort(-np.abs(d[1:]), kind="stable")[:shown] if d[1 + i] != 0]
    out = []
    for j in order:
        if np.array_equal(va[:, j], vb[:, j]):  # no move at all: the interval is a point
            lo = hi = 0.0
        else:
            lo, hi = stats.ttest_rel(va[:, j], vb[:, j]).confidence_interval(0.95)
        out.append({"source": "VP" if j == 0 else sources[j - 1], "vp": float(d[j]), "low": float(lo), "high": float(hi),
                    "rivals": float(rivals[:, j].mean())})
    return out


def sources_text(moved: list[dict]) -> str:
    """:func:`moved_sources`' sources (not the total) as one line: ``city +6.3 [+5.4, +7.2] (rivals +8.1), ...``."""
    return ", ".join(f"{x['source']} {x['vp']:+.1f} [{x['low']:+.1f}, {x['high']:+.1f}] (rivals {x['rivals']:+.1f})"
                     for x in moved[1:]) or "-"


def seat_vp(run: Run, players: int, sources: list[str]) -> np.ndarray:
    """(deals, seats, 1 + len(sources)): each seat's final VP and VP by source (the games table's ``vp`` and
    ``vp_<source>``), deals and seats in :func:`seat_games`' order."""
    cols = ["vp"] + [f"vp_{x}" for x in sources]
    df = (run.games_of().filter(pl.col("players") == players).select("game", "seed", "seat", *cols).collect()
          .sort(["game", "seed", "seat"]))
    return df.select(cols).to_numpy().astype(np.float64).reshape(-1, players, len(cols))


def tau_interval(a: Run, b: Run, players: int, groups: list[str], read: dict | None = None) -> tuple[float, float]:
    """Bootstrap 95% interval of Kendall's tau between two runs' Character win rates at ``players``
    (analysis.stats.tau_ci): paired by deal when the two runs played the very same deals, else each
    run's games resampled on their own. Every game of each run is held in memory: give a large run
    as its :meth:`Run.subset`. ``read``: a dict kept across calls, so a run in several pairs is read once."""
    from analysis.stats import tau_ci

    (da, ga, ca), (db, gb, cb) = (_seats(r, players, groups, read) for r in (a, b))
    if not (da.height and db.height):
        return float("nan"), float("nan")
    paired = da.height == db.height and da.equals(db)
    return tau_ci(ga, ca, gb, cb, k=len(groups), paired=paired)


def _seats(run: Run, players: int, groups: list[str], read: dict | None) -> tuple[pl.DataFrame, np.ndarray, np.ndarray]:
    """:func:`seat_games`, kept in ``read`` (when given) so a run in several pairs is read once."""
    if read is None:
        return seat_games(run, players, groups)
    key = (id(run), players, tuple(groups))
    if key not in read:
        read[key] = seat_games(run, players, groups)
    return read[key]


def paired_reading(a: Run, b: Run, players: int, groups: list[str], read: dict | None = None):
    """Where two runs that played the very same deals with the same Characters at the same seats (two
    tiers of one experiment) differ, Character by Character (:func:`analysis.stats.paired_groups`: each
    deal's difference, paired t, Holm; the permutation p that none differs; the tau two tiers with equal
    rates would read on these deals). None when the runs' deals or seatings are not the same."""
    from analysis.stats import paired_groups

    (da, ga, ca), (db, gb, cb) = (_seats(r, players, groups, read) for r in (a, b))
    if not da.height or not (da.equals(db) and np.array_equal(ga, gb)):
        return None
    return paired_groups(ga, ca, cb, len(groups))


def agreement_table(tiers: list[Tier], rates: list[pl.DataFrame], common: dict[tuple[int, int], float],
                    detail_games: int | None = None) -> tuple[Table, Table]:
    """Per player count and pair of tiers: Kendall's tau (and its p, and its bootstrap 95% interval
    over the deals) and Spearman's rho between the Characters' win rates, and the share of deals the
    two tiers have in common. The interval uses at most ``detail_games`` game indices of each run
    (:meth:`Run.subset`, the same indices in every run, so shared deals stay paired; None: every game).
    The second table: for each Character that differs between two tiers of the same deals, where its
    VP moved (:func:`moved_sources`)."""
    from sim.state import VS_NAMES

    subsets = [t.run.subset(detail_games) if detail_games else t.run for t in tiers]
    read: dict = {}  # each tier's seat_games, read once for every pair it is in
    rows, moved = [], []
    for i, j in itertools.combinations(range(len(tiers)), 2):
        a = rates[i].select("players", "group", pl.col("win_rate").alias("a"))
        b = rates[j].select("players", "group", pl.col("win_rate").alias("b"))
        ab = a.join(b, on=["players", "group"], how="inner")
        for (n,), part in sorted(ab.partition_by("players", as_dict=True).items()):
            k = part.height
            if k >= 3:
                tau = stats.kendalltau(part["a"].to_numpy(), part["b"].to_numpy())
                rho = stats.spearmanr(part["a"].to_numpy(), part["b"].to_numpy()).statistic
                tv, tp = float(tau.statistic), float(tau.pvalue)
                names = part["group"].to_list()
                lo, hi = tau_interval(subsets[i], subsets[j], int(n), names, read)
                pg = paired_reading(subsets[i], subsets[j], int(n), names, read)
            else:
                tv = tp = rho = lo = hi = float("nan")
                pg = None
            hits = [] if pg is None else [c for c in np.argsort(-np.abs(pg.diff), kind="stable") if pg.p_holm[c] < SIG]
            differ = None if pg is None else ", ".join(f"{names[c]} {100 * pg.diff[c]:+.1f}" for c in hits) or "none"
            if hits:
                ga = _seats(subsets[i], int(n), names, read)[1]
                va, vb = (seat_vp(subsets[x], int(n), VS_NAMES) for x in (i, j))
                for c in hits:
                    src = moved_sources(ga, va, vb, int(c), VS_NAMES)
                    moved.append({"players": int(n), "tier A": tiers[i].label, "tier B": tiers[j].label,
                                  "character": names[c], "win rate (A - B)": float(pg.diff[c]),
                                  "VP (A - B)": src[0]["vp"], "VP (A - B)_lo": src[0]["low"], "VP (A - B)_hi": src[0]["high"],
                                  "rivals' VP (A - B)": src[0]["rivals"], "sources that moved most": sources_text(src)})
            rows.append({"players": int(n), "tier A": tiers[i].label, "tier B": tiers[j].label, "characters": k,
                         "kendall tau": tv, "tau low": lo, "tau high": hi, "p": tp, "spearman rho": float(rho),
                         "two alike would read": None if pg is None else pg.tau_same,
                         "differ (points, A - B)": differ, "p (none differs)": None if pg is None else pg.p_same,
                         "shared deals": common[(i, j)]})
    df = pl.DataFrame(rows, schema={"players": pl.Int64, "tier A": pl.String, "tier B": pl.String, "characters": pl.Int64,
                                    "kendall tau": pl.Float64, "tau low": pl.Float64, "tau high": pl.Float64,
                                    "p": pl.Float64, "spearman rho": pl.Float64, "two alike would read": pl.Float64,
                                    "differ (points, A - B)": pl.String, "p (none differs)": pl.Float64,
                                    "shared deals": pl.Float64})
    return Table("tier_agreement", "Do the tiers rank the Characters alike?", df,
                 note=("Kendall's tau (scipy.stats.kendalltau, tau-b) and Spearman's rho between two tiers' Character win rates, "
                       "per player count: 1 = the same order, 0 = unrelated, -1 = reversed. p tests tau = 0. "
                       "Tau low/high: its bootstrap 95% interval (whole deals resampled, the two tiers' games of a deal "
                       "together when they played the same deals; analysis.stats.tau_ci), the range a rerun on as many "
                       "other deals would read; noise only scrambles the order, so two tiers with the same true rates "
                       "also read below 1. Where the two tiers played the very same deals with the same Characters at the same "
                       "seats, the deals pair seat by seat (analysis.stats.paired_groups): two alike would read is the median "
                       "tau of the deals' two games swapped at random (two tiers with equal rates, on these deals); differ "
                       "names the Characters whose win rates differ (each deal's difference, paired t, Holm p < 0.05; points, "
                       "tier A minus tier B, largest first); p (none differs) is the permutation test that no Character does. "
                       "On a run of more than the report's --detail-games game indices these are computed "
                       "on that many (the per-game subset), so they are wider than the run's own. "
                       "Shared deals: the share of tier B's games (players, game index, seed) that tier A also played; "
                       "1.0 means the two tiers played the very same deals."),
                 pct={"shared deals"}), moved_table(moved)


def moved_table(rows: list[dict]) -> Table:
    """The rows :func:`agreement_table` gathers for each Character that differs between two tiers."""
    schema = {"players": pl.Int64, "tier A": pl.String, "tier B": pl.String, "character": pl.String,
              "win rate (A - B)": pl.Float64, "VP (A - B)": pl.Float64, "VP (A - B)_lo": pl.Float64,
              "VP (A - B)_hi": pl.Float64, "rivals' VP (A - B)": pl.Float64, "sources that moved most": pl.String}
    return Table("tier_moved", "Where the VP of a Character that differs between tiers moved", pl.DataFrame(rows, schema=schema),
                 note=("For each Character whose win rate differs between two tiers of the very same deals (the agreement "
                       "table's differ): its seats' final VP per seat-game under tier A minus under tier B, with a 95% interval "
                       "paired seat-game by seat-game (scipy.stats.ttest_rel), the same move for its rivals (the other seats "
                       f"of those games), and the {SOURCES_SHOWN} VP sources whose mean moved most, each with its interval and "
                       "its rivals' move. A win rate is the seat's VP against its rivals': a finding that moves with a source "
                       "the two tiers use differently (the City, a Major building) moved with the players, not with the game."),
                 pct={"win rate (A - B)"})


def findings_table(tiers: list[Tier], char_rates: list[pl.DataFrame], seat_rates: list[pl.DataFrame]) -> Table:
    """Every group that differs from the fair share (Holm p < 0.05) in at least one tier, with each
    tier's difference and Holm p, and the verdict: robust (significant with the same sign at the
    two strongest tiers) or depends on the players."""
    rows = []
    for kind, rates in (("Character", char_rates), ("turn position", seat_rates)):
        keyed = [{(int(r["players"]), r["group"]): r for r in t.iter_rows(named=True)} for t in rates]
        keys = sorted(set().union(*(k.keys() for k in keyed)))
        for key in keys:
            per = [k.get(key) for k in keyed]
            sig = [r is not None and r["p_holm"] is not None and r["p_holm"] < SIG for r in per]
            if not any(sig):
                continue
            group = key[1] if kind == "Character" else str(int(key[1]) + 1)
            row = {"players": key[0], "kind": kind, "group": group}
            signs = []
            for t, r in zip(tiers, per, strict=True):
                d = None if r is None else r["diff"]
                row[_col(t.label, "vs fair share")] = d
                row[_col(t.label, "vs fair share") + "_lo"] = None if r is None else r["win_rate_lo"] - r["expected"]
                row[_col(t.label, "vs fair share") + "_hi"] = None if r is None else r["win_rate_hi"] - r["expected"]
                row[_col(t.label, "Holm p")] = None if r is None else r["p_holm"]
                signs.append(0 if d is None else int(np.sign(d)))
            robust = len(tiers) >= 2 and sig[0] and sig[1] and signs[0] == signs[1] != 0
            row["verdict"] = ROBUST if robust else DEPENDS
            rows.append(row)
    cols = ["players", "kind", "group"]
    for t in tiers:
        c = _col(t.label, "vs fair share")
        cols += [c, c + "_lo", c + "_hi", _col(t.label, "Holm p")]
    cols.append("verdict")
    schema = {c: (pl.Int64 if c == "players" else pl.String if c in ("kind", "group", "verdict") else pl.Float64) for c in cols}
    df = pl.DataFrame(rows, schema=schema).select(cols)
    if df.height:
        df = df.sort(["verdict", "players", "kind", "group"])
    pct = {c for c in cols if "vs fair share" in c}
    strong = " and ".join(t.label for t in tiers[:2])
    return Table("tier_findings", "Findings: robust, or dependent on the players", df,
                 note=(f"A finding is a win rate that differs from the fair share 1/N (Holm p < {SIG}) in at least one tier. "
                       f"Robust: significant with the same sign at the two strongest tiers ({strong}); otherwise it depends on the "
                       "players. Differences are in win-rate points against 1/N, with the tier's Wilson 95% interval."),
                 pct=pct)


def agent_sensitivity(tiers: list[Tier], detail_games: int | None = None) -> tuple[list[Table], dict]:
    """The section's tables and its summary.json entry for two or more tiers (strongest first)."""
    if len(tiers) < 2:
        raise ValueError("agent sensitivity needs two or more tiers")
    char_rates = [_rates(t.run, "character") for t in tiers]
    seat_rates = [_rates(t.run, "seat") for t in tiers]
    common = {(i, j): shared_deals(tiers[i].run, tiers[j].run) for i, j in itertools.combinations(range(len(tiers)), 2)}
    agree, moved = agreement_table(tiers, char_rates, common, detail_games)
    tables = [character_table(tiers, char_rates), agree, findings_table(tiers, char_rates, seat_rates)]
    if not moved.empty:
        tables.append(moved)
    doc = {"checked": True, "tiers": tier_docs(tiers),
           "characters": [r for t, rr in zip(tiers, char_rates, strict=True) for r in rr.with_columns(pl.lit(t.label).alias("tier"))
                          .rename({"group": "character"}).to_dicts()],
           "agreement": tables[1].df.to_dicts(), "findings": _finding_docs(tables[2].df, tiers),
           "moved": moved.df.to_dicts()}
    return tables, doc


def tier_docs(tiers: list[Tier]) -> list[dict]:
    out = []
    for k, t in enumerate(tiers):
        c = t.run.game_counts()
        g = int(c.filter(pl.col("variant") == t.run.baseline)["games"].sum())
        out.append({"tier": t.label, "strength_order": k + 1, "run": str(t.run.path), "strategies": strategies_of(t.run), "games": g})
    return out


def _finding_docs(df: pl.DataFrame, tiers: list[Tier]) -> list[dict]:
    out = []
    for r in df.iter_rows(named=True):
        out.append({"players": r["players"], "kind": r["kind"], "group": r["group"], "verdict": r["verdict"],
                    "tiers": {t.label: {"diff": r[_col(t.label, "vs fair share")], "p_holm": r[_col(t.label, "Holm p")]}
                              for t in tiers}})
    return out


def single_tier_text(run: Run) -> str:
    """What a one-tier report says about its players."""
    who = ", ".join(strategies_of(run)) or "unknown players"
    return (f"Every number in this report comes from one player family: {who}. Whether its findings hold for stronger or "
            "weaker players was not checked. To check it, play the same experiment with other players (same seed, games and "
            "Character deal) and report the runs together, strongest first: trinidad report RUN_STRONGEST RUN_WEAKER ...")


def robust_sentences(df: pl.DataFrame, tiers: list[Tier]) -> list[str]:
    """At-a-glance sentences for the robust findings only, each naming the tiers that produced it."""
    out = []
    a, b = tiers[0].label, tiers[1].label
    for r in df.filter(pl.col("verdict") == ROBUST).iter_rows(named=True):
        da, db = r[_col(a, "vs fair share")], r[_col(b, "vs fair share")]
        what = r["group"] if r["kind"] == "Character" else f"Turn position {r['group']}"
        more = "more" if da > 0 else "less"
        out.append(f"{r['players']} players: {what} wins {more} often than the fair share with both {a} "
                   f"({100 * da:+.1f} points) and {b} ({100 * db:+.1f} points).")
    return out
