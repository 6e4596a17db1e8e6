"""The auction price of each Character (issue 23 part 2).

In the real game the Characters are auctioned for VP (SETUP, Starting Character card: "players
bid 1 or more VPs"; the last one left takes the card and pays the VPs), so an imbalance between
Characters is priced by the players. From a run whose Characters were dealt (``balanced`` or
``forced``: nobody bid), the price of Character c at N players is the VP handicap p that brings
its win rate to the fair share 1/N:

- **handicap** p: subtract p from c's final VP in every game where it plays, leave the other
  seats as they are, and rank each game again as the engine ranks (by VP, then resources; seats
  still equal share first place, each credited 1/k of a win: the project's TIE_RULE);
- its win rate f(p) is a non-increasing step function of p: with whole-VP scores it is flat
  between whole numbers and steps at each one, where c's handicapped VP equals the best other
  seat's and resources decide. f is evaluated on the half-VP grid (each whole number, with the
  resources tie-break, and each flat between) and joined by straight lines; the price is where
  that line crosses 1/N (the middle of the stretch where it equals 1/N exactly, if it does);
- a Character exactly fair has price 0; a positive price is a stronger Character (it should pay
  p VP more than the average Character: 1/N is the average Character's win rate, each game
  handing out one win); a negative one is weaker.

The 95% interval is a percentile bootstrap (scipy.stats.bootstrap, :data:`RESAMPLES` resamples,
a fixed seed per player count and Character) over the Character's seat-games, each resampled
with its tie-breaking data. A Character sits at most once in a game, so these are resamples of
the games it played; with a balanced deal the number of games it plays is fixed by design, and
the bootstrap keeps it fixed.

The check (issue 23: "a drafted run where the players bid those prices should show flatter win
rates"): ``[characters] prices`` in an experiment makes every seat pay its Character's price at
setup (trinidad.experiment), recorded as the seat's ``vp_auction``. For every run this module
measures the spread of the Character win rates (a chi-square of the Character wins against
equal shares, scipy.stats.chisquare; the SD and the range of the win rates) as played, and on
the same games re-ranked as if every seat had paid its whole-VP price (the prediction); for a
run played with prices, as played and with the VP paid given back (re-ranked on ``vp -
vp_auction``).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from scipy import stats as sps

from analysis.tables import Table

RESAMPLES = 1000  # bootstrap resamples per (player count, Character): percentile endpoints to about 0.1 VP of their limit
SEED = 23  # the bootstrap's seed (issue 23); with the player count and the Character index, one stream each
CI_LEVEL = 0.95


def _games_arrays(g: pl.DataFrame, n: int, cols: list[str]) -> dict[str, np.ndarray]:
    """Columns of one player count's games as (games, seats) arrays (every game has all n seats)."""
    part = g.filter(pl.col("players") == n).sort("game", "seat")
    return {c: part[c].to_numpy().reshape(-1, n) for c in cols}


def rerank_credit(vp: np.ndarray, res: np.ndarray) -> np.ndarray:
    """Each seat's share of the win, (games, seats): rank as the engine ranks (sim.scoring.ranks: by VP,
    then resources; seats still equal share first place) and credit each of the k first 1/k."""
    vp = np.asarray(vp, float)
    beats = (vp[:, None, :] > vp[:, :, None]) | ((vp[:, None, :] == vp[:, :, None]) & (res[:, None, :] > res[:, :, None]))
    first = ~beats.any(axis=2)
    return first / first.sum(axis=1, keepdims=True)


def margins_and_ties(vp: np.ndarray, res: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per seat (games, seats): ``d`` = its VP minus the best other seat's (the handicap at which it
    would tie that seat on VP), and ``tie`` = its share of the win at exactly that handicap
    (resources decide; seats equal on both share it)."""
    n = vp.shape[1]
    other = ~np.eye(n, dtype=bool)[None, :, :]  # [game, seat, other seat]
    ovp = np.where(other, vp[:, None, :], np.iinfo(np.int64).min)
    best = ovp.max(axis=2)
    rivals = other & (vp[:, None, :] == best[:, :, None])  # the other seats on the best other VP
    rmax = np.where(rivals, res[:, None, :], np.iinfo(np.int64).min).max(axis=2)
    k = (rivals & (res[:, None, :] == rmax[:, :, None])).sum(axis=2)
    tie = np.where(res > rmax, 1.0, np.where(res < rmax, 0.0, 1.0 / (k + 1)))
    return vp - best, tie


def handicap_curve(d: np.ndarray, tie: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The win rate f(p) under a handicap of p VP on the half-VP grid from min(d) - 1 (f = 1) to
    max(d) + 1/2 (f = 0): at a whole p, seats with d > p win and those with d == p get their
    ``tie`` share; between whole numbers only d > p wins."""
    d = np.asarray(d, np.int64)
    lo = int(d.min()) - 1
    k = np.arange(lo, int(d.max()) + 1)
    cnt = np.bincount(d - lo, minlength=len(k))
    tied = np.bincount(d - lo, weights=tie, minlength=len(k))
    above = cnt[::-1].cumsum()[::-1] - cnt  # seats with d > k
    n = len(d)
    p = np.empty(2 * len(k))
    f = np.empty(2 * len(k))
    p[0::2], p[1::2] = k, k + 0.5
    f[0::2], f[1::2] = (above + tied) / n, above / n
    return p, f


def crossing(p: np.ndarray, f: np.ndarray, share: float) -> float:
    """Where the non-increasing piecewise-linear f (through the points ``(p, f)``) crosses ``share``."""
    i = int(np.nonzero(f > share)[0][-1])
    j = int(np.nonzero(f < share)[0][0])
    if j == i + 1:
        return float(p[i] + (f[i] - share) / (f[i] - f[j]) * (p[j] - p[i]))
    return float((p[i + 1] + p[j - 1]) / 2)  # f equals the share exactly from p[i+1] to p[j-1]: the middle


def price(d: np.ndarray, tie: np.ndarray, share: float) -> float:
    """The VP handicap that brings the win rate to ``share`` (module doc)."""
    return crossing(*handicap_curve(d, tie), share)


def price_ci(d: np.ndarray, tie: np.ndarray, share: float, seed) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of :func:`price` over the seat-games (scipy.stats.bootstrap)."""
    if len(d) < 2 or np.all(d == d[0]):
        return math.nan, math.nan
    r = sps.bootstrap((d, tie), lambda dd, tt: price(dd, tt, share), paired=True, vectorized=False, n_resamples=RESAMPLES,
                      confidence_level=CI_LEVEL, method="percentile", rng=np.random.default_rng(seed))
    return float(r.confidence_interval.low), float(r.confidence_interval.high)


def _cols(g: pl.DataFrame, priced: bool) -> list[str]:
    return ["vp", "resources", "character", "credit"] + (["vp_auction"] if priced else [])


def _paid(a: dict[str, np.ndarray]) -> np.ndarray:
    """VP each seat paid for its Character at setup (a run played with prices; else none)."""
    return -a["vp_auction"].astype(np.int64) if "vp_auction" in a else np.zeros(a["vp"].shape, np.int64)


def auction_prices(g: pl.DataFrame, priced: bool = False) -> pl.DataFrame:
    """Per (players, Character): seat-games, win rate as played, the price (VP) with its bootstrap
    95% interval, rounded to whole VP (what an auction would charge), and the mean VP the seats paid
    for it at setup (``priced``: the run was played with prices, read from ``vp_auction``; else 0).
    In a run played with prices the price is the residual one: what the Character is worth beyond
    what it paid."""
    rows = []
    chars = g["character"].cast(pl.String)
    names = sorted(chars.unique().to_list())
    g = g.with_columns(chars.alias("character"))
    for n in sorted(g["players"].unique().to_list()):
        a = _games_arrays(g, n, _cols(g, priced))
        d, tie = margins_and_ties(a["vp"].astype(np.int64), a["resources"].astype(np.int64))
        credit = a["credit"]
        paid = _paid(a)
        for c in names:
            m = a["character"] == c
            if not m.any():
                continue
            share = 1.0 / n
            p = price(d[m], tie[m], share)
            lo, hi = price_ci(d[m], tie[m], share, [SEED, n, names.index(c)])
            rows.append({"players": n, "character": c, "n": int(m.sum()), "win_rate": float(credit[m].mean()), "price": p,
                         "price_lo": lo, "price_hi": hi, "price_whole": int(np.rint(p)), "paid": float(paid[m].mean())})
    schema = {"players": pl.Int64, "character": pl.String, "n": pl.Int64, "win_rate": pl.Float64, "price": pl.Float64, "price_lo": pl.Float64,
              "price_hi": pl.Float64, "price_whole": pl.Int64, "paid": pl.Float64}
    return pl.DataFrame(rows, schema=schema).sort(["players", "price"], descending=[False, True])


def spread(credit: np.ndarray, chars: np.ndarray) -> dict:
    """How far the Character win rates lie from each other: chi-square of each Character's wins
    against its seat-games' share of all wins (scipy.stats.chisquare; df = Characters - 1), the SD
    (population) and the range (max - min) of the win rates."""
    names = np.unique(chars)
    wins = np.array([credit[chars == c].sum() for c in names])
    seats = np.array([(chars == c).sum() for c in names], float)
    rate = wins / seats
    x2, p = sps.chisquare(wins, seats * wins.sum() / seats.sum())
    return {"chi2": float(x2), "df": len(names) - 1, "p": float(p), "sd": float(rate.std()), "range": float(rate.max() - rate.min())}


def charges(prices: dict[str, float]) -> dict[str, int]:
    """Whole-VP charges from prices: each price rounded, minus the lowest (0 for a Character left
    out), so that no seat is paid VP (the rulebook's bids are whole VP, 1 or more; a Character
    nobody bids for goes for nothing). Within a game every seat pays its price less the same
    constant, so who finishes ahead of whom is as if each paid its relative price."""
    whole = {c: int(np.rint(v)) for c, v in prices.items()}
    low = min([0, *whole.values()])
    return {c: v - low for c, v in whole.items()}


def win_spread(g: pl.DataFrame, prices: pl.DataFrame, priced: bool = False) -> pl.DataFrame:
    """Per player count, the spread of the Character win rates (:func:`spread`) as played and on the
    same games re-ranked with every seat paying its whole-VP price from ``prices`` (its
    ``price_whole``, charged as :func:`charges`); for a run played with prices also with the VP paid
    at setup given back."""
    rows = []
    g = g.with_columns(pl.col("character").cast(pl.String))
    for n in sorted(g["players"].unique().to_list()):
        a = _games_arrays(g, n, _cols(g, priced))
        ch, vp, res = a["character"], a["vp"].astype(np.int64), a["resources"].astype(np.int64)
        paid = _paid(a)
        pr = prices.filter(pl.col("players") == n)
        cost = charges(dict(zip(pr["character"].to_list(), pr["price_whole"].to_list(), strict=True)))
        charge = np.array([cost.get(c, 0) for c in ch.ravel()], np.int64).reshape(ch.shape)
        games = vp.shape[0]
        cases = [("as played", a["credit"])]
        if paid.any():
            cases.append(("as played, the VP paid at setup given back (re-ranked)", rerank_credit(vp + paid, res)))
            cases.append(("the same games re-ranked, every seat also paying its residual whole-VP price below",
                          rerank_credit(vp - charge, res)))
        else:
            cases.append(("the same games re-ranked, every seat paying its whole-VP price below", rerank_credit(vp - charge, res)))
        for what, credit in cases:
            rows.append({"players": n, "games": games, "what": what} | spread(credit, ch))
    schema = {"players": pl.Int64, "games": pl.Int64, "what": pl.String, "chi2": pl.Float64, "df": pl.Int64, "p": pl.Float64,
              "sd": pl.Float64, "range": pl.Float64}
    return pl.DataFrame(rows, schema=schema)


def run_prices(manifest: dict) -> dict:
    """The prices a run was played with (its experiment's ``prices``: {players: {Character: VP}}), or {}."""
    return dict((manifest.get("experiment") or {}).get("prices") or {})


def auction_section_tables(g: pl.DataFrame, manifest: dict) -> tuple[list[Table], str | None]:
    """The Auction price section's tables, or why there are none (a drafted run: its Characters were
    chosen and paid for by the players' own auction)."""
    assign = (manifest.get("experiment") or {}).get("char_assign", "balanced")
    if assign == "draft":
        return [], ("This run drafted its Characters (characters.assign = \"draft\"): the players chose them and already paid for "
                    "them in the SETUP auction (the vp_auction column holds their bids), so a Character's win rate here is not its "
                    "strength at no price and no auction price is estimated. Estimate prices from a run with balanced (or forced) "
                    "Characters.")
    played = bool(run_prices(manifest))
    prices = auction_prices(g, played)
    sp = win_spread(g, prices, played)
    resid = " In this run every seat paid its Character's price at setup (experiment prices, the paid column), so each price " \
            "here is the residual one: what the Character is still worth beyond what it paid (0: the price charged was right)." \
        if played else ""
    note = (f"Price: the VP handicap that brings the Character's win rate to the fair share 1/N, the average Character's: subtract "
            f"it from the Character's final VP in every game it played and rank the game again as the engine ranks (VP, then "
            f"resources; a tie for first is a fractional win); the win rate as a function of the handicap is evaluated every half "
            f"VP and joined by straight lines. Positive: stronger than the average Character, it should pay that many VP more; "
            f"negative: weaker. 95% CI: percentile bootstrap over the Character's games ({RESAMPLES} resamples, seed {SEED}; "
            f"scipy.stats.bootstrap). price whole: rounded to whole VP, as bids are. win rate: as played. paid: the mean VP its "
            f"seats paid at setup.{resid}")
    pt = Table("auction_price", "Auction price of each Character (VP handicap to the fair share)", prices, note=note,
               power=_power_line(prices), pct={"win_rate"})
    spt = Table("auction_spread", "Character win-rate spread: as played and at the prices", sp,
                note=("Spread of the Character win rates: chi-square of each Character's wins against its share of all wins "
                      "(scipy.stats.chisquare, df = Characters - 1), the SD and the range (max - min) of the win rates. The last row "
                      "re-ranks the same games with every seat paying its Character's whole-VP price (prices charged relative to the "
                      "cheapest Character, so no seat is paid VP): a prediction that assumes the players would play the same moves "
                      "with fewer VP. The real check replays the run's seeds with [characters] prices (README, The auction price); "
                      "a run played with prices shows its spread as played and with the VP paid given back."),
                power="Power: descriptive (the chi-square p tests equal win rates; a smaller chi-square and range is a flatter game).",
                pct={"sd", "range"})
    return [pt, spt], None


def _power_line(t: pl.DataFrame) -> str:
    if t.height == 0:
        return ""
    bits = []
    for (n,), part in sorted(t.partition_by("players", as_dict=True).items()):
        w = (part["price_hi"] - part["price_lo"]).drop_nans().drop_nulls()
        if w.len():
            bits.append(f"{n} players: the 95% intervals are {w.min():.1f} to {w.max():.1f} VP wide (median {w.median():.1f}), "
                        f"n ≥ {int(part['n'].min()):,} games per Character")
    return ("Power: a price is resolved to about half its interval's width; " + "; ".join(bits) + ".") if bits else ""


def price_sentences(t: pl.DataFrame) -> list[str]:
    """At a glance: the dearest and the cheapest Character per player count, in VP (in a run played
    with prices, what each is still worth beyond the price it paid)."""
    out = []
    for (n,), part in sorted(t.partition_by("players", as_dict=True).items()):
        part = part.sort("price", descending=True)
        top, low = part.row(0, named=True), part.row(-1, named=True)
        paid = bool((part["paid"] != 0).any())

        def worth(r, paid=paid):
            more = "more" if r["price"] >= 0 else "less"
            return (f"{r['character']} is {'still ' if paid else ''}worth about {abs(r['price']):.1f} VP {more} than the average "
                    f"Character{' beyond what it paid' if paid else ''} (95% CI {r['price_lo']:+.1f} to {r['price_hi']:+.1f})")

        what = "residual auction prices (every seat paid its Character's price at setup)" if paid else "auction prices"
        out.append(f"{n} players, {what}: {worth(top)}; {worth(low)}.")
    return out
