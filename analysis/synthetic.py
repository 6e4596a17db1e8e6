"""Synthetic run directories in the engine's Parquet schema, with known effects planted, for
testing the statistics and the report without the engine.

Games are drawn from a Plackett-Luce model: each seat's score is ``log w + Gumbel noise`` and
the order of scores is the finishing order, so a seat wins with probability ``w / sum(w)`` of
its game. A planted advantage ``a`` for a Character at N players sets its weight so that against
N - 1 unit-weight opponents it wins ``1/N + a`` of its games. Variants reuse the baseline's noise
(common seeds), as the engine's variants replay the same seeds. Decade records spread each
seat's final VP over the decades and sources; Wars are drawn per decade (the normal War: a seat
with Attack Value fields miniatures, recorded in the war tallies ``fights``, ``wars_natives``...,
and the Action phases' ``rounds`` and ``turns`` are drawn too). What each seat played (buildings built,
actions taken, resources gained, Affiliate cards taken and each card's uses) is drawn at random,
unrelated to winning; ``never`` plants options no seat ever used.

Columns come from :mod:`sim.schema` (the engine's own lists), so the schema follows the engine.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

from analysis.played import played_columns
from sim.dataset import column_type, shard_name
from sim.schema import DECADE_COLUMNS, GAME_COLUMNS

DEFAULT_CHARACTERS = ["Carpenter", "Stonemason", "Merchant", "Defender", "Roadmaker", "Sailmaker", "General", "Captain", "Bishop",
                      "Architect", "Governor", "Noblewoman"]
IN_GAME = ["auction", "build", "major_spaces", "salary", "council_vote", "money", "military", "banners", "faith", "affiliate"]
END_GAME = ["city", "end_council", "end_war"]


def planted_weight(n: int, advantage: float) -> float:
    """Plackett-Luce weight that wins 1/n + advantage against n - 1 unit-weight opponents."""
    p = 1.0 / n + advantage
    return p * (n - 1) / (1.0 - p)


def _characters(n_games: int, n: int, n_chars: int, seed: int) -> np.ndarray:
    """Balanced deal (as the engine's 'balanced'): blocks of n_chars games, seat s of game j gets
    perm[(j + s) % n_chars]."""
    out = np.empty((n_games, n), np.int64)
    for b in range((n_games + n_chars - 1) // n_chars):
        perm = np.random.default_rng([seed, b, 0x5EA7]).permutation(n_chars)
        for j in range(b * n_chars, min(n_games, (b + 1) * n_chars)):
            out[j] = perm[(j % n_chars + np.arange(n)) % n_chars]
    return out


def _ranks(vp: np.ndarray) -> np.ndarray:
    """Rank 1 = most VP; equal VP share the better rank (as the engine without its tie-break)."""
    return 1 + (vp[:, None, :] > vp[:, :, None]).sum(axis=2)


def write_synthetic_run(out: str | Path, games: int = 2000, players=(4,), characters: list[str] | None = None,
                        advantage: dict[str, float] | None = None, strategies=("greedy",), strategy_advantage: dict[str, float] | None = None,
                        variants: dict[str, dict[str, float]] | None = None, seed: int = 0, decades: bool = True,
                        war_rate: float = 0.3, vp_scale: float = 8.0, vp_shift: dict[str, int] | None = None,
                        never: tuple[str, ...] = ()) -> Path:
    """Write DIR/manifest.json, DIR/games and DIR/decades for a synthetic run and return DIR.

    ``advantage``: planted win-rate advantage (fraction, e.g. 0.05) per Character in the
    baseline; ``variants``: extra variants as {name: advantage dict} replacing the baseline's;
    ``strategy_advantage``: the same for strategies (multiplies the weights); ``vp_shift``: whole
    VP added to a Character's final VP in every game of every variant before the seats are ranked
    (a planted VP advantage: its auction price, analysis.auction, is that many VP); ``never``: games-table
    columns (``built_church``, ``act_ship``) or decades-table card columns (``uses_card_40``) that
    are 0 in every seat-game (a planted never-played option); every other option is used at random."""
    out = Path(out)
    (out / "games").mkdir(parents=True, exist_ok=True)
    (out / "decades").mkdir(parents=True, exist_ok=True)
    chars = list(characters or DEFAULT_CHARACTERS)
    strategies = list(strategies)
    vdefs = {"base": dict(advantage or {})} | {k: dict(v) for k, v in (variants or {}).items()}
    var_enum = pl.Enum(list(vdefs))
    char_enum = pl.Enum(chars)
    strat_enum = pl.Enum(strategies)
    n_dec = 12
    shift = np.array([int((vp_shift or {}).get(c, 0)) for c in chars], np.int64)
    for n in players:
        rng = np.random.default_rng([seed, n])
        gi = np.arange(games, dtype=np.int64)
        seeds = rng.integers(0, 2**63, games, dtype=np.int64).astype(np.uint64)
        ch = _characters(games, n, len(chars), seed)
        st = (np.arange(n)[None, :] + gi[:, None]) % len(strategies)  # strategies rotate through the seats
        noise = rng.gumbel(size=(games, n))
        share = rng.dirichlet(np.ones(len(IN_GAME) + len(END_GAME)) * 2.0, size=(games, n))
        timing = np.linspace(1.0, 2.0, n_dec)
        timing /= timing.sum()
        war = (rng.random((games, n_dec)) < war_rate) & (np.arange(n_dec) > 0)
        faction = np.where(war, rng.integers(1, 3, (games, n_dec)), 0)
        wa = np.where(war, rng.integers(2, 9, (games, n_dec)), 0)
        base_av = rng.integers(0, 8, (games, n))
        length_rng = np.random.default_rng([seed, n, 3])  # its own stream: the draws above stay as they were
        rounds = length_rng.integers(5, 11, (games, n_dec))  # Action phase rounds per decade
        turns = np.minimum(length_rng.integers(4, 11, (games, n_dec, n)), rounds[:, :, None])  # a seat's turns in a decade
        turns[np.arange(games), :, length_rng.integers(0, n, games)] = rounds  # someone plays the last round
        # Wars: every seat fights; it wins when its Attack Value reaches the War Attack, and fields miniatures when it has AV
        war_won = (wa > 0)[:, :, None] & (base_av[:, None, :] >= wa[:, :, None])
        war_fielded = (wa > 0)[:, :, None] & (base_av[:, None, :] > 0)
        tallies = {"turns": turns.sum(axis=1), "rounds": np.broadcast_to(rounds.sum(axis=1)[:, None], (games, n)),
                   "fights": war_fielded.sum(axis=1), "fights_won": war_won.sum(axis=1), "fights_lost": (war_fielded & ~war_won).sum(axis=1),
                   "wars_natives": np.broadcast_to((faction == 1).sum(axis=1)[:, None], (games, n)),
                   "wars_pirates": np.broadcast_to((faction == 2).sum(axis=1)[:, None], (games, n))}
        play_rng = np.random.default_rng([seed, n, 2])  # its own stream: the draws above stay as they were
        played = {c: play_rng.poisson(2.0, (games, n)) * (c not in never) for c in played_columns(GAME_COLUMNS)}
        card_cols = [c for c in DECADE_COLUMNS if c.startswith("uses_card_")]
        card_uses = {c: play_rng.poisson(0.1, (games, n)) * (c not in never) for c in card_cols}
        played["cards_used"] = sum(card_uses.values())
        split_rng = np.random.default_rng([seed, n, 1])
        for vi, (vname, adv) in enumerate(vdefs.items()):
            w = np.array([planted_weight(n, adv.get(c, 0.0)) for c in chars])
            sw = np.array([planted_weight(n, (strategy_advantage or {}).get(s, 0.0)) for s in strategies])
            score = np.log(w[ch]) + np.log(sw[st]) + noise
            vp = np.maximum(np.rint(60 + vp_scale * score), 5).astype(np.int64) + shift[ch]
            rank = _ranks(vp)
            winner = (rank == 1).astype(np.int64)
            tie = winner * (winner.sum(axis=1, keepdims=True) > 1)
            amounts = split_rng.multinomial(vp, share)  # (games, n, sources): sums to vp
            srcs = IN_GAME + END_GAME
            gcols = {c: np.zeros((games, n), np.int64) for c in GAME_COLUMNS}
            gcols.update(seat=np.broadcast_to(np.arange(n), (games, n)), character=ch, strategy=st, vp=vp, rank=rank,
                         winner=winner, tie=tie, resources=rng.integers(0, 10, (games, n)), decisions=np.full((games, n), 300))
            for k, s in enumerate(srcs):
                gcols[f"vp_{s}"] = amounts[:, :, k]
            gcols.update(played)
            gcols.update(tallies)
            gdf = _frame(gcols, GAME_COLUMNS, gi, seeds, n, vname, var_enum, char_enum, strat_enum, chars, strategies, reps=n)
            name = shard_name(vi, n, 0)
            gdf.write_parquet(out / "games" / name)
            if not decades:
                continue
            ing = amounts[:, :, : len(IN_GAME)]
            per_dec = split_rng.multinomial(ing, timing)  # (games, n, in-game sources, decades)
            cum = per_dec.cumsum(axis=3)
            dcols = {c: np.zeros((games, n_dec, n), np.int64) for c in DECADE_COLUMNS}
            dec_idx = np.arange(1, n_dec + 1)
            dcols.update(decade=np.broadcast_to(dec_idx[None, :, None], (games, n_dec, n)),
                         era=np.broadcast_to(((dec_idx - 1) // 4 + 1)[None, :, None], (games, n_dec, n)),
                         seat=np.broadcast_to(np.arange(n)[None, None, :], (games, n_dec, n)),
                         turn_pos=np.broadcast_to(np.arange(n)[None, None, :], (games, n_dec, n)),
                         character=np.broadcast_to(ch[:, None, :], (games, n_dec, n)),
                         strategy=np.broadcast_to(st[:, None, :], (games, n_dec, n)))
            for k, s in enumerate(IN_GAME):
                dcols[f"vp_{s}"] = cum[:, :, k, :].transpose(0, 2, 1)
            dcols["vp"] = cum.sum(axis=2).transpose(0, 2, 1)
            frac = dec_idx[None, :, None] / n_dec  # a seat's card uses and buildings, spread evenly over the decades (cumulative)
            for c in card_cols + [c for c in DECADE_COLUMNS if c.startswith("built_")]:
                dcols[c] = np.floor((card_uses[c] if c in card_uses else played[c])[:, None, :] * frac).astype(np.int64)
            dcols["cards_used"] = np.floor(played["cards_used"][:, None, :] * frac).astype(np.int64)
            # Wars: every seat fights; it wins when its Attack Value reaches the War Attack
            av = np.broadcast_to(base_av[:, None, :], (games, n_dec, n))
            at_war = (wa > 0)[:, :, None]
            won = at_war & (av >= wa[:, :, None])
            pen = np.zeros((games, n), np.int64)
            pens, steps = np.zeros((games, n_dec, n), np.int64), np.zeros((games, n_dec, n), np.int64)
            for d in range(n_dec):
                before = pen.copy()
                loss = np.minimum(np.maximum(wa[:, d, None] - base_av, 0), 10 - before)
                pen = np.where(at_war[:, d], np.where(won[:, d], np.maximum(before - 1, -3), before + loss), before)
                pens[:, d], steps[:, d] = pen, pen - before
            wars_f = [np.broadcast_to(np.cumsum(faction == f, axis=1)[:, :, None], (games, n_dec, n)) for f in (1, 2)]
            dcols.update(fights=war_fielded.cumsum(axis=1), fights_won=won.cumsum(axis=1), fights_lost=(war_fielded & ~won).cumsum(axis=1),
                         wars_natives=wars_f[0], wars_pirates=wars_f[1], turns=turns.cumsum(axis=1),
                         rounds=np.broadcast_to(rounds.cumsum(axis=1)[:, :, None], (games, n_dec, n)))
            dcols.update(war_faction=np.broadcast_to(faction[:, :, None], (games, n_dec, n)),
                         war_wa=np.broadcast_to(wa[:, :, None], (games, n_dec, n)),
                         wars_fought=np.broadcast_to(at_war, (games, n_dec, n)).cumsum(axis=1), wars_won=won.cumsum(axis=1),
                         war_penalty=pens, war_penalty_steps=steps, military_av=av)
            flat = {c: np.asarray(v).reshape(games * n_dec * n) for c, v in dcols.items()}
            ddf = _frame(flat, DECADE_COLUMNS, gi, seeds, n, vname, var_enum, char_enum, strat_enum, chars, strategies, reps=n_dec * n)
            ddf.write_parquet(out / "decades" / name)
    manifest = {
        "status": "complete", "package_version": "synthetic", "git_commit": None, "python": "synthetic",
        "experiment": {"name": "synthetic", "players": list(players), "games": games, "seed": seed, "out": str(out), "shard_games": games,
                       "first_game": False, "strategies": strategies, "seat_assign": "rotate", "char_assign": "balanced", "forced": [],
                       "rules_file": None, "overrides": {}, "variants": [{"name": k, "overrides": {}} for k in vdefs]},
        "variants": [{"name": k, "overrides": {"synthetic_advantage": v} if v else {}, "rules_hash": f"synthetic-{i}",
                      "rules": {"meta": {"version": "synthetic"}, "war": {"penalty_max": {"value": 10}}}} for i, (k, v) in enumerate(vdefs.items())],
        "seeds": {"master": seed, "rule": "synthetic (numpy default_rng([seed, players]))"},
        "counts": {"games_total": games * len(players) * len(vdefs), "games_done": games * len(players) * len(vdefs),
                   "shards": len(players) * len(vdefs)},
        "backend": "synthetic", "workers": 1, "wall_s": 0.0, "games_per_s": None,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True))
    return out


def _frame(cols: dict, names: list[str], gi, seeds, n, vname, var_enum, char_enum, strat_enum, chars, strategies, reps: int) -> pl.DataFrame:
    rows = len(gi) * reps
    body = {"game": np.repeat(gi, reps), "seed": np.repeat(seeds, reps)}
    df = pl.DataFrame(body).with_columns(pl.lit(vname, dtype=var_enum).alias("variant"), pl.lit(n, dtype=pl.Int8).alias("players"))
    out = {}
    for c in names:
        v = np.asarray(cols[c]).reshape(rows)
        if c == "character":
            out[c] = pl.Series(c, np.asarray(chars)[v], dtype=char_enum)
        elif c == "strategy":
            out[c] = pl.Series(c, np.asarray(strategies)[v], dtype=strat_enum)
        else:
            out[c] = pl.Series(c, v).cast(column_type(c))
    return pl.concat([df, pl.DataFrame(out)], how="horizontal")


def games_frame(games: int, n: int = 4, advantage: dict[str, float] | None = None, characters: list[str] | None = None,
                seed: int = 0) -> pl.DataFrame:
    """In-memory games table (the columns the balance tables use) for fast repeated simulations."""
    chars = list(characters or DEFAULT_CHARACTERS)
    rng = np.random.default_rng(seed)
    ch = _characters(games, n, len(chars), seed)
    w = np.array([planted_weight(n, (advantage or {}).get(c, 0.0)) for c in chars])
    vp = np.rint(60 + 8 * (np.log(w[ch]) + rng.gumbel(size=(games, n)))).astype(np.int64)
    rank = _ranks(vp)
    winner = (rank == 1).astype(np.int64)
    df = pl.DataFrame({"variant": np.repeat("base", games * n), "players": np.full(games * n, n), "game": np.repeat(np.arange(games), n),
                       "seat": np.tile(np.arange(n), games), "character": np.asarray(chars)[ch.ravel()], "strategy": "greedy",
                       "vp": vp.ravel(), "rank": rank.ravel(), "winner": winner.ravel(),
                       "tie": (winner * (winner.sum(axis=1, keepdims=True) > 1)).ravel()})
    from analysis.data import prepare_games

    return prepare_games(df).collect()


def write_synthetic_sweep(out: str | Path, axes: list[tuple[str, list, float]], advantage, name: str = "sweep", **kw) -> Path:
    """A synthetic run of a sweep (issue 96): a variant per point of the grid of ``axes`` (each: a rules
    key, its values and the baseline's value; a single key's curve has the baseline as a point, a grid's
    where its second value is swept), each planting ``advantage(*values)`` (Character -> win-rate advantage,
    as ``write_synthetic_run``'s), on the baseline's noise (common seeds); the manifest records the sweep
    as trinidad.games.sweeps does (its axes, its points and their variants). ``kw``: write_synthetic_run's."""
    import itertools

    keys, bases = [a[0] for a in axes], [a[2] for a in axes]
    grid = set(itertools.product(*(a[1] for a in axes)))
    if all(b in a[1] for b, a in zip(bases[1:], axes[1:], strict=True)):
        grid.add(tuple(bases))
    points, variants = [], {}
    for vals in sorted(grid):
        vname = "base" if list(vals) == bases else ",".join(f"{'.'.join(k.split('.')[-2:])}={v}" for k, v in zip(keys, vals, strict=True))
        points.append({"values": list(vals), "variant": vname})
        if vname != "base":
            variants[vname] = advantage(*vals)
    run = write_synthetic_run(out, advantage=advantage(*bases), variants=variants, **kw)
    m = json.loads((run / "manifest.json").read_text())
    m["experiment"]["sweeps"] = [{"name": name, "baseline": "base", "points": points,
                                  "axes": [{"key": k, "values": list(v), "base": b} for k, v, b in axes]}]
    (run / "manifest.json").write_text(json.dumps(m, indent=2, sort_keys=True))
    return run
