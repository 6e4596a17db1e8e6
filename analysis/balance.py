"""Character, seat and strategy balance from the games table (one row per game x seat).

Every function takes a games frame already restricted to one variant and prepared by
:func:`analysis.data.prepare_games` (columns ``credit`` and ``margin``), and returns a
:class:`analysis.tables.Table` whose frame has a ``players`` column: the fair share differs by
player count, so every comparison is made within one player count.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import polars as pl

from analysis import stats
from analysis.data import Games, sum_chunks
from analysis.tables import Table, holm_within, power_line_rates, rates_from_counts, win_rates


def _df(games, columns: list[str] | None = None) -> pl.DataFrame:
    """The games as one frame (a :class:`analysis.data.Games` is read whole: only for runs already cut
    to a subset, see :meth:`analysis.data.Run.subset`)."""
    if isinstance(games, Games):
        return pl.concat(list(games.chunks(columns)))
    lf = games.lazy()
    return (lf.select(columns) if columns else lf).collect()


def character_balance(games) -> Table:
    """Per player count and Character: seats n, win rate (mean credit) with Wilson 95% CI, the
    difference from 1/N with a score-test p and Holm p over the Characters of that player count,
    mean rank and mean VP margin (t intervals). Sums only: a :class:`analysis.data.Games` is read a
    shard at a time."""
    by = ["players", "character"]
    agg = sum_chunks(games, by, [pl.len().alias("n"), pl.col("credit").sum().alias("wins"),
                                 pl.col("rank").cast(pl.Float64).sum().alias("r1"), (pl.col("rank").cast(pl.Float64) ** 2).sum().alias("r2"),
                                 pl.col("margin").cast(pl.Float64).sum().alias("m1"),
                                 (pl.col("margin").cast(pl.Float64) ** 2).sum().alias("m2")], ["credit", "rank", "margin"])
    agg = agg.with_columns((1.0 / pl.col("players").cast(pl.Float64)).alias("expected")).sort(by)
    r, rlo, rhi = stats.mean_ci_moments(agg["n"].to_numpy(), agg["r1"].to_numpy(), agg["r2"].to_numpy())
    m, mlo, mhi = stats.mean_ci_moments(agg["n"].to_numpy(), agg["m1"].to_numpy(), agg["m2"].to_numpy())
    t = rates_from_counts(agg.select(*by, "n", "wins", "expected"), ["players"]).with_columns(
        pl.Series("mean_rank", r), pl.Series("mean_rank_lo", rlo), pl.Series("mean_rank_hi", rhi),
        pl.Series("margin", m), pl.Series("margin_lo", mlo), pl.Series("margin_hi", mhi))
    t = t.select("players", "character", "n", "wins", "expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff", "p", "p_holm",
                 "mean_rank", "mean_rank_lo", "mean_rank_hi", "margin", "margin_lo", "margin_hi")
    t = t.sort(["players", "win_rate"], descending=[False, True])
    return Table("character_balance", "Character win rates", t,
                 note=("Win rate = mean win credit per seat (ties: 1/k each). Difference = win rate − 1/N; p: two-sided score test "
                       "against 1/N; Holm p: Holm-adjusted over the Characters of one player count. Margin = own final VP "
                       "minus the best other seat's."),
                 power=power_line_rates(t, "Character", ["players"]),
                 pct={"expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff"})


def character_model(games, group: str = "character", label: str = "Character", name: str = "character_model") -> Table:
    """Model-adjusted Character effects per player count: a binomial GLM (logit link) of the win
    credit on Character (sum-to-zero coding, so each effect is against the average Character),
    seat and strategy (when more than one was played), with standard errors clustered by game
    (the seats of one game share one win). Reports the odds ratio against the average Character
    with its 95% CI, Wald p and Holm p over the Characters, and the standardised win rate
    (the model's mean prediction with every seat given that Character). ``group`` (``label`` in
    words): the column modelled in place of the Character (``strategy``: then no strategy term);
    ``name``: the table's."""
    import statsmodels.api as sm
    import statsmodels.formula.api as smf

    g = _df(games)
    rows = []
    notes = []
    lab = label + "s"
    for (n,), part in sorted(g.partition_by("players", as_dict=True).items()):
        pdf = part.select("game", "seat", *dict.fromkeys((group, "strategy")), "credit").to_pandas()
        for c in dict.fromkeys((group, "strategy")):
            pdf[c] = pdf[c].astype(str)
        pdf["seat"] = pdf["seat"].astype(int).astype(str)
        levels = sorted(pdf[group].unique())
        if len(levels) < 2 or pdf["game"].nunique() < 10:
            notes.append(f"{n} players: too few games or {lab} for the model")
            continue
        terms = [f"C({group}, Sum)"]
        # a term that is a function of the seat (forced Characters, or strategies fixed by seat) would make the
        # design singular: keep only one of them and say so
        char_by_seat = pdf.groupby("seat")[group].nunique().max() == 1
        other = group != "strategy" and pdf["strategy"].nunique() > 1  # a strategy term beside the group's
        strat_by_seat = other and pdf.groupby("seat")["strategy"].nunique().max() == 1
        if char_by_seat:
            notes.append(f"{n} players: each seat always had the same {label}, so seat is left out (its effect is inside "
                         f"the {label} effects)")
        else:
            terms.append("C(seat)")
        if other and not (strat_by_seat and not char_by_seat):
            terms.append("C(strategy)")
        elif strat_by_seat:
            notes.append(f"{n} players: each seat always had the same strategy, so its effect is inside the seat terms")
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                res = smf.glm("credit ~ " + " + ".join(terms), pdf, family=sm.families.Binomial()).fit(
                    cov_type="cluster", cov_kwds={"groups": pdf["game"].to_numpy()})
                names = list(res.params.index)
                cols = [names.index(f"C({group}, Sum)[S.{lv}]") for lv in levels[:-1]]
                L = np.zeros((len(levels), len(names)))
                for i, j in enumerate(cols):
                    L[i, j] = 1.0
                L[-1, cols] = -1.0  # sum-to-zero: the last level's effect is minus the others'
                tt = res.t_test(L).summary_frame(alpha=stats.ALPHA)
                # standardisation: every seat given Character lv, i.e. the Character block of the design (group)
                # replaced by lv's code row (the rows of L are exactly those codes)
                X = np.array(res.model.exog, dtype=float)
                std = []
                for i in range(len(levels)):
                    X[:, cols] = L[i, cols]
                    std.append(float(np.mean(res.model.predict(res.params.to_numpy(), X))))
        except Exception as ex:  # separation or a singular design in tiny runs
            notes.append(f"{n} players: the model could not be fitted ({type(ex).__name__})")
            continue
        with np.errstate(over="ignore"):  # a Character that always wins (or never: the A.I.'s in a Solo run) has no finite bound
            for i, lv in enumerate(levels):
                rows.append({"players": n, group: lv, "log_odds": float(tt["coef"].iloc[i]),
                             "odds_ratio": float(np.exp(tt["coef"].iloc[i])),
                             "odds_ratio_lo": float(np.exp(tt["Conf. Int. Low"].iloc[i])),
                             "odds_ratio_hi": float(np.exp(tt["Conf. Int. Upp."].iloc[i])),
                             "p": float(tt["P>|z|"].iloc[i]), "adjusted_win_rate": std[i]})
    t = pl.DataFrame(rows) if rows else pl.DataFrame(schema={"players": pl.Int64, group: pl.String, "log_odds": pl.Float64,
                                                              "odds_ratio": pl.Float64, "odds_ratio_lo": pl.Float64,
                                                              "odds_ratio_hi": pl.Float64, "p": pl.Float64,
                                                              "adjusted_win_rate": pl.Float64})
    t = holm_within(t, ["players"]) if t.height else t.with_columns(pl.lit(None, pl.Float64).alias("p_holm"))
    note = (f"Binomial GLM (logit) of win credit on {label} + seat"
            + (" + strategy" if group != "strategy" and g["strategy"].n_unique() > 1 else "")
            + f" (a term fixed by the seat is left out, as said below); {label} in sum-to-zero coding (odds ratio against the "
            f"average {label}); standard errors clustered by game; adjusted win rate = mean predicted win probability with "
            f"every seat given that {label} (other terms as played).")
    if notes:
        note += " " + "; ".join(notes) + "."
    return Table(name, f"Model-adjusted {label} effects", t, note=note,
                 power=_power_model(g, group, label), pct={"adjusted_win_rate"})


def _power_model(g: pl.DataFrame, group: str = "character", label: str = "Character") -> str:
    bits = []
    for (n,), part in sorted(g.partition_by("players", as_dict=True).items()):
        m = part[group].n_unique()
        nmin = int(part.group_by(group).len()["len"].min())
        mde = stats.mde_proportion(nmin, 1 / n, alpha=stats.ALPHA / max(m, 1))
        bits.append(f"{n} players: ±{stats.fmt_pts(mde)} in win rate (n ≥ {nmin:,} seats per {label})")
    return ("Power (normal approximation, the model's adjustment ignored): 80% power at α = 0.05/m for " + "; ".join(bits) + ".") if bits else ""


def finishes_above(games) -> Table:
    """Character x Character: among games where both played, the share in which the row
    Character finished above the column Character (rank lower; an equal rank counts 1/2), with
    the pair's game count and Wilson 95% CI. Symmetric pairs sum to one."""
    def pairs(g: pl.DataFrame) -> pl.DataFrame:
        a = g.rename({"character": "character_a", "rank": "rank_a"})
        b = g.rename({"character": "character_b", "rank": "rank_b"})
        return (a.join(b, on=["players", "game"]).filter(pl.col("character_a") != pl.col("character_b"))
                .with_columns(pl.when(pl.col("rank_a") < pl.col("rank_b")).then(1.0)
                              .when(pl.col("rank_a") == pl.col("rank_b")).then(0.5).otherwise(0.0).alias("above")))

    cols = ["players", "game", "character", "rank"]
    by = ["players", "character_a", "character_b"]
    aggs = [pl.len().alias("n"), pl.col("above").sum().alias("above")]
    chunks = games.chunks(cols) if isinstance(games, Games) else [_df(games, cols)]
    parts = [pairs(c).group_by(by).agg(aggs) for c in chunks]  # a shard at a time: the pairs of a run do not fit at once
    t = pl.concat(parts).group_by(by).agg(pl.col("n").sum(), pl.col("above").sum()).sort(by)
    lo, hi = stats.wilson(t["above"].to_numpy(), t["n"].to_numpy())
    t = t.with_columns((pl.col("above") / pl.col("n")).alias("rate"), pl.Series("rate_lo", lo), pl.Series("rate_hi", hi))
    t = t.with_columns(pl.col("character_a").cast(pl.String), pl.col("character_b").cast(pl.String))
    nmin = int(t["n"].min()) if t.height else 0
    mde = stats.mde_proportion(nmin, 0.5) if nmin else math.nan
    return Table("finishes_above", "Character × Character: finishes above", t,
                 note="Share of shared games in which the row Character finished above the column Character (equal ranks count ½).",
                 power=(f"Power: with n ≥ {nmin:,} shared games per pair, a departure of ±{stats.fmt_pts(mde)} from 50% is detectable "
                        "with 80% power at α = 0.05 (one pair; a Holm-corrected scan of all pairs needs more)." if nmin else ""),
                 pct={"rate", "rate_lo", "rate_hi"}, show=False)


def ratings(games, max_games: int = 50_000, seed: int = 0) -> Table:
    """Plackett-Luce ratings of the Characters per player count (openskill's PlackettLuce model,
    one match per game, each Character a one-player team, ties shared), updated in game order.
    Reports mu, sigma and the conservative ordinal mu - 3 sigma. Above ``max_games`` games per
    player count a random subset (fixed seed) is rated, since the updates are sequential Python."""
    from openskill.models import PlackettLuce

    g = _df(games).select("players", "game", "character", "rank")
    rows = []
    sampled = []
    for (n,), part in sorted(g.partition_by("players", as_dict=True).items()):
        ids = np.sort(part["game"].unique().to_numpy())
        if len(ids) > max_games:
            ids = np.sort(np.random.default_rng(seed).choice(ids, max_games, replace=False))
            part = part.filter(pl.col("game").is_in(ids))
            sampled.append(f"{n} players: {max_games:,} random games")
        model = PlackettLuce()
        chars = sorted(part["character"].cast(pl.String).unique().to_list())
        rating = {c: model.rating(name=c) for c in chars}
        played = dict.fromkeys(chars, 0)
        part = part.sort("game", "rank")
        gm = part["game"].to_numpy()
        ch = part["character"].cast(pl.String).to_list()
        rk = part["rank"].to_numpy()
        starts = np.flatnonzero(np.r_[True, gm[1:] != gm[:-1]])
        ends = np.r_[starts[1:], len(gm)]
        for s, e in zip(starts, ends):
            who = ch[s:e]
            out = model.rate([[rating[c]] for c in who], ranks=[int(x) for x in rk[s:e]])
            for c, team in zip(who, out):
                rating[c] = team[0]
                played[c] += 1
        for c in chars:
            r = rating[c]
            rows.append({"players": n, "character": c, "games": played[c], "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()})
    t = pl.DataFrame(rows).sort(["players", "ordinal"], descending=[False, True]) if rows else pl.DataFrame()
    note = ("openskill Plackett-Luce, default prior (mu 25, sigma 25/3); ordinal = mu − 3σ; ratings depend weakly on game order "
            "(sequential updates).")
    if sampled:
        note += " Rated subset: " + "; ".join(sampled) + "."
    return Table("ratings", "Character ratings (Plackett-Luce)", t, note=note,
                 power="Power: not a test; σ is the rating's own uncertainty (a gap in μ below about 2σ is not a clear difference).")


def seat_balance(games) -> tuple[Table, Table]:
    """Win rate by seat (turn position) per player count with Wilson 95% CI and score tests
    against 1/N (Holm over the seats), and per player count a chi-square goodness-of-fit test of
    the wins by seat against equal shares."""
    t = win_rates(games, ["players", "seat"], ["players"])
    # turn positions 1..N as the rulebook counts players (the engine's seat s is position s + 1), as every page shows them
    t = t.with_columns((pl.col("seat").cast(pl.Int64) + 1).alias("turn_position"))
    t = t.select("players", "turn_position", "n", "wins", "expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff", "p", "p_holm")
    chi = []
    for (n,), part in sorted(t.partition_by("players", as_dict=True).items()):
        x2, p = stats.chisquare_uniform(part["wins"].to_numpy())
        chi.append({"players": n, "games": int(part["n"].min()), "chi2": x2, "df": part.height - 1, "p": p})
    c = pl.DataFrame(chi)
    from statsmodels.stats.power import GofChisquarePower

    pw = []
    for row in chi:
        k = row["df"] + 1
        if row["games"] > 1:
            w = GofChisquarePower().solve_power(effect_size=None, nobs=row["games"], alpha=stats.ALPHA, power=stats.POWER, n_bins=k)
            # Cohen's w of one seat at 1/k + d with the others sharing -d: w^2 = d^2 k^2 / (k - 1)
            pw.append(f"{row['players']} players: Cohen's w = {w:.3f}, i.e. one turn position ±{stats.fmt_pts(w * (k - 1) ** 0.5 / k)}")
    chi_t = Table("seat_chisquare", "Turn positions: chi-square test of wins by turn position", c,
                  note="Chi-square goodness of fit of the (fractional) wins by turn position against equal shares, per player count.",
                  power=("Power: the smallest effect the chi-square test detects with 80% power at α = 0.05 — " + "; ".join(pw) + "."
                         if pw else ""))
    return (Table("seat_balance", "Win rate by turn position", t,
                  note="Turn position at the start of the game (1 = First Player). p: score test against 1/N; Holm p over the "
                       "turn positions of one player count.",
                  power=power_line_rates(t, "turn position", ["players"]),
                  pct={"expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff"}), chi_t)


def strategy_balance(games) -> tuple[Table, Table]:
    """Win rate per strategy (against 1/N, Holm over strategies) and per Character x strategy
    (against 1/N, Holm over all Character x strategy cells of a player count)."""
    g = games
    s = win_rates(g, ["players", "strategy"], ["players"])
    s = s.select("players", "strategy", "n", "wins", "expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff", "p", "p_holm")
    cs = win_rates(g, ["players", "character", "strategy"], ["players"])
    cs = cs.select("players", "character", "strategy", "n", "wins", "expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff", "p", "p_holm")
    pct = {"expected", "win_rate", "win_rate_lo", "win_rate_hi", "diff"}
    per_seat = (sum_chunks(g, ["players", "seat", "strategy"], [pl.len().alias("n")], [])
                .group_by("players", "seat").agg(pl.len().alias("strategies")))
    fixed = [n for (n,), part in per_seat.partition_by("players", as_dict=True).items() if part["strategies"].max() == 1]
    caveat = (f" Each seat always had the same strategy ({', '.join(f'{n} players' for n in sorted(fixed))}): strategy and seat "
              "effects cannot be told apart there (seats.assign = rotate or permute separates them).") if fixed else ""
    return (Table("strategy_balance", "Win rate by strategy", s, note="p: score test against 1/N; Holm p over the strategies." + caveat,
                  power=power_line_rates(s, "strategy", ["players"]), pct=pct),
            Table("character_strategy", "Win rate by Character × strategy", cs,
                  note="p: score test against 1/N; Holm p over every Character × strategy cell of a player count.",
                  power=power_line_rates(cs, "cell", ["players"]), pct=pct))


def to_pandas(t: Table) -> pd.DataFrame:
    return t.df.to_pandas()
