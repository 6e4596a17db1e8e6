"""``trinidad probe``: restricted-play probes. Does a strategy leave an option alone because the option
is bad, or because the strategy never sees its value?

1. ``games`` games of one strategy in every seat (balanced Characters, as a ``trinidad run`` of
   the same seed and player count deals them) measure, per Minor building type and main action,
   the share of seat-games that use it (the games table's ``built_*`` and ``act_*`` counts).
2. Every option used in fewer than ``threshold`` of the seat-games (and every option named with
   ``options``) is probed: the SAME deals are played again with one seat (game g: seat g mod
   players) forced to take that option at its first legal chance, the other seats unchanged
   (strategies.forced_play: the seat's weight row carries the option, ``P.PROBE_ACT`` / ``P.PROBE_ARG``);
   with ``seats`` k > 1, seats g .. g + k - 1 mod players are forced, and each game's outcome is the
   mean over them (what happens when k seats of the table take the option).
   The forced seat's win (a tie for first among k seats: 1/k) and VP margin (its VP minus the best
   other seat's) are compared with the same seat's on the same deal unforced: paired differences
   with a t 95% interval (scipy, :func:`analysis.stats.paired_test`), win rates with Wilson 95%
   intervals (statsmodels). ``forced`` is the share of games in which the option was legal at the
   start of one of the seat's turns, and so taken. ``vp_by_source``: where the forced seat's VP
   moved, mean per source unforced and forced.
3. A plan (``city_plan``, strategies.forced_play) is probed only when named: a chain of options, each
   taken at its first legal chance; ``forced`` is then the share of games whose chain was completed
   (the Palace built).
4. A value bonus (``bonuses``, search family only) is the issue's other kind of probe, an option
   "offered a bonus": the probed seat's evaluation (strategies.value_model) gets the named VP per unit
   added to features' weights in every Era's model (``palaces=20``: a Palace held is worth 20 VP
   more to it), and the search then pursues that holding in its own way, woven into its game,
   instead of at a scripted first chance. A dose of bonuses (0, 10, 20, 40 VP a Palace ...) shows
   whether the seat that builds more of it wins more or less. ``forced`` is then the share of games
   in which the probed seat built at least one of the rewarded buildings (a Palace for ``palaces``).

5. A forbid probe (``forbids``) is the third kind the issue names: the probed seat plays by its own strategy
   but never takes the option while another main action is legal (strategies.policy.drop_forbidden: the rows
   leave the seat's listing, so its search never considers them, in its simulations either). What the seat
   loses shows how much its play leans on the option. Besides every option above, a forbid may name a group:
   ``city`` (every Lot, House and Palace) or ``production`` (every Production building of SCORING PHASE City:
   Market, Carpentry, Quarry). ``forced`` is then the share of probed seat-games that still took it (only
   where no other main action was legal).
6. Each Major building is an option of its own (``major_cathedral`` ... ``major_walls``: a MAJOR row on that
   building's grid), forced or forbidden when named; the games record counts MAJOR rows, not per building,
   so its ``used`` and a forbid's ``forced`` are not known (NaN).

Every probed option also reports ``holdings``: what the probed seat built and gained, unforced and
probed (Palaces and Houses built per game and the share of games with one, metal gained).

7. **The Solo game** (``ai``: an A.I. strength of TWO PLAYERS GAME & SOLO MODE): one player against
   the rulebook's A.I. on the deals of :mod:`trinidad.ai_scale` (the Solo experiment's seeds, the
   player's Character dealt balanced, the A.I. first in every other block of 12 games). The player's
   seat is the probed one; ``used`` is then the share of the player's games, the margin is its VP
   minus the A.I.'s, and an alias is followed to its player against the A.I. (``best.toml``'s
   ``solo``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace

import numpy as np

from sim.codes import Act
from sim.schema import RG, act_column
from sim.state import MINOR_NAMES, N_VS, VS_NAMES, B, M, Res
from strategies.weights import FORBID_CITY, FORBID_PRODUCTION, N_WEIGHTS, PLAN_CITY
from trinidad.tournament import win_credit

CHUNK_GAMES = 2048  # games per batch call (the decade records are ~17 KB a game)
DEFAULT_THRESHOLD = 0.05
MAIN_ACTS = [a for a in Act if Act.PASS < a < Act.F_VOTE]  # the main actions 1-11 (Take a Card's three ways apart)
MINOR_TYPES = [B(t) for t in range(B.LOT, len(MINOR_NAMES))]


class ProbeError(ValueError):
    """A bad probe argument; the message is one line starting with the argument's name."""


CITY_TYPES = (B.LOT, B.HOUSE, B.PALACE)  # the forbid group ``city``'s Minor types (the production group's come from the rules)


@dataclass(frozen=True)
class Option:
    """A probed option: a main action (``building`` -1), BUILD of one Minor building type, or MAJOR on one Major
    building's grid (``major``, an M); with ``plan`` PLAN_CITY, the City plan (strategies.forced_play: Lot > House >
    metal > Palace, each step at its first legal chance), whose record column is BUILD PALACE; with ``plan``
    FORBID_CITY or FORBID_PRODUCTION (``forbid`` only), a group of BUILD rows. ``forbid``: the seat never takes
    it while another main action is legal, instead of taking it at its first legal chance."""

    act: int
    building: int = -1
    plan: int = 0
    major: int = -1
    forbid: bool = False

    @property
    def base_key(self) -> str:
        if self.plan == PLAN_CITY:
            return "city_plan"
        if self.plan == FORBID_CITY:
            return "city"
        if self.plan == FORBID_PRODUCTION:
            return "production"
        if self.major >= 0:
            return f"major_{M(self.major).name.lower()}"
        return f"build_{MINOR_NAMES[self.building]}" if self.building >= 0 else Act(self.act).name.lower()

    @property
    def key(self) -> str:
        return ("forbid:" if self.forbid else "") + self.base_key

    @property
    def label(self) -> str:
        if self.plan == PLAN_CITY:
            text = "CITY PLAN (Lot > House > metal > Palace)"
        elif self.plan == FORBID_CITY:
            text = "THE CITY (Lot, House, Palace)"
        elif self.plan == FORBID_PRODUCTION:
            text = "PRODUCTION BUILDINGS (Market, Carpentry, Quarry)"
        elif self.major >= 0:
            text = f"MAJOR {M(self.major).name}"
        else:
            text = f"BUILD {MINOR_NAMES[self.building].upper()}" if self.building >= 0 else Act(self.act).name
        return ("FORBID " if self.forbid else "") + text

    def column(self) -> int:
        """The games-record column that counts its uses (sim.schema.RG); -1 where the record has none (one Major
        building, a group)."""
        if self.major >= 0 or self.plan < 0:
            return -1
        return RG.BUILT + self.building - 1 if self.building >= 0 else act_column(self.act)

    def columns(self, rules) -> list[int]:
        """The games-record columns that count its uses: a group's Minor types (the Production ones from the rules'
        ``b_prod``), else :meth:`column`; [] where the record has none."""
        if self.plan == FORBID_PRODUCTION:
            return [RG.BUILT + t - 1 for t in MINOR_TYPES if rules.b_prod[t] > 0]
        if self.plan == FORBID_CITY:
            return [RG.BUILT + int(t) - 1 for t in CITY_TYPES]
        c = self.column()
        return [] if c < 0 else [c]


OPTIONS = [Option(Act.BUILD, int(t)) for t in MINOR_TYPES] + [Option(int(a)) for a in MAIN_ACTS]
PLANS = [Option(Act.BUILD, int(B.PALACE), plan=PLAN_CITY)]  # probed only when named: a plan is no option of the turn
MAJORS = [Option(Act.MAJOR, major=int(m)) for m in M]  # probed only when named: the record does not count them apart
GROUPS = [Option(Act.BUILD, plan=FORBID_CITY, forbid=True), Option(Act.BUILD, plan=FORBID_PRODUCTION, forbid=True)]


@dataclass(frozen=True)
class Bonus:
    """A value bonus (module doc, 4): ``deltas`` = ((feature name, VP per unit added), ...), feature
    names of strategies.value_model.VF in lower case."""

    deltas: tuple[tuple[str, float], ...]

    @property
    def key(self) -> str:
        return "value:" + ",".join(f"{f}{v:+g}" for f, v in self.deltas)

    @property
    def label(self) -> str:
        return "VALUE BONUS " + ", ".join(f"{f} {v:+g} VP" for f, v in self.deltas)

    def column(self) -> int:
        """The games-record column that says the bonus was taken up: BUILD PALACE for a bonus on
        Palaces (or on the metal a Palace needs), BUILD HOUSE for Houses, BUILD LOT for Lots, else
        BUILD PALACE."""
        names = {f for f, _ in self.deltas}
        for feats, b in ((("palaces", "metal", "metal_ahead"), B.PALACE), (("houses",), B.HOUSE), (("lots", "lots_ahead"), B.LOT)):
            if names & set(feats):
                return RG.BUILT + int(b) - 1
        return RG.BUILT + int(B.PALACE) - 1


def parse_bonus(text: str) -> Bonus:
    """``palaces=20,metal=10`` (features of strategies.value_model.VF, VP per unit added in every Era)."""
    from strategies.value_model import VF_NAMES

    out = []
    for part in text.split(","):
        name, eq, val = part.partition("=")
        name = name.strip().lower()
        if not eq or name not in VF_NAMES:
            raise ProbeError(f"bonus: expected FEATURE=VP[,FEATURE=VP...] with FEATURE one of {', '.join(VF_NAMES)}; got {part.strip()!r}")
        try:
            v = float(val)
        except ValueError:
            raise ProbeError(f"bonus: {name}: expected a number of VP, got {val.strip()!r}") from None
        if not np.isfinite(v):
            raise ProbeError(f"bonus: {name}: expected a finite number of VP, got {val.strip()!r}")
        out.append((name, v))
    return Bonus(tuple(out))


def bonus_weights(W: np.ndarray, bonus: Bonus, strategy: str = "") -> np.ndarray:
    """``W`` (one search strategy's row) and a copy whose evaluation has ``bonus`` added to every
    Era's model (strategies.registry.set_value_model)."""
    from strategies.policy import FAMILY_SEARCH
    from strategies.registry import set_value_model, value_model
    from strategies.value_model import VF_NAMES

    if int(W[0, 0]) != FAMILY_SEARCH:
        raise ProbeError(f"bonus: strategy {strategy or '?'} is not a search strategy: only the search family has an "
                         "evaluation to move (try --strategy best)")
    model = value_model(W[0])
    for name, v in bonus.deltas:
        model[:, VF_NAMES.index(name)] += v
    return np.vstack([W[:1], set_value_model(W[0], model)[None, :]])


def _norm(text: str) -> str:
    return "_".join(text.strip().lower().replace("-", "_").split()).replace(" ", "_")


def parse_option(text: str) -> Option:
    """``ship``, ``MILICIANO``, ``build palace``, ``BUILD_QUARRY``, ``major fort`` (case and ``_``/space free)."""
    k = _norm(text)
    for o in OPTIONS + PLANS + MAJORS:
        if o.key == k:
            return o
    raise ProbeError(f"option: unknown option {text!r}; allowed: {', '.join(o.key for o in OPTIONS + PLANS + MAJORS)}")


def parse_forbid(text: str) -> Option:
    """An option to forbid: any of :func:`parse_option`'s but the City plan, or a group (``city``,
    ``production``)."""
    k = _norm(text)
    for o in OPTIONS + MAJORS + GROUPS:
        if o.base_key == k:
            return replace(o, forbid=True)
    allowed = ", ".join(o.base_key for o in GROUPS + OPTIONS + MAJORS)
    raise ProbeError(f"forbid: unknown option {text!r}; allowed: {allowed}")


def probe_weights(W: np.ndarray, option: Option) -> np.ndarray:
    """``W`` (one strategy's row) and a copy of it whose seat is forced to take ``option`` at its
    first legal chance (``option.forbid``: never to take it while another main action is legal): the probe
    slots set in every weight block (sim.game.setup switches a seat to its Character's block)."""
    from strategies.policy import P
    from strategies.value_model import SEARCH_OFFSET

    row = W[0].copy()
    # the weight blocks only (the base block and one a Character): the row goes on with the search
    # block and the apprentice's network, which hold other numbers at these offsets (an evaluation's
    # coefficients, a network's input scales), and must reach the forced seat unchanged
    arg = option.major + 1 if option.major >= 0 else option.building + 1 if option.building >= 0 else 0
    for b in range(SEARCH_OFFSET // N_WEIGHTS):
        row[b * N_WEIGHTS + P.PROBE_ACT] = 0 if option.plan else -option.act if option.forbid else option.act
        row[b * N_WEIGHTS + P.PROBE_ARG] = 0 if option.plan else arg
        row[b * N_WEIGHTS + P.PROBE_PLAN] = option.plan
    return np.vstack([W[:1], row[None, :]])


def default_strategy() -> str:
    """``best`` where that name resolves (strategies.registry), else ``heuristic``."""
    from strategies.registry import StrategyError, load_strategies

    try:
        load_strategies(["best"])
    except (StrategyError, OSError):
        return "heuristic"
    return "best"


@dataclass
class OptionResult:
    option: str  # Option.label
    key: str  # Option.key (what --option takes)
    used: float  # share of the unforced seat-games that use it
    probed: bool = False
    n: int = 0  # paired games (one forced seat each)
    forced: float = float("nan")  # share of those games in which the forced seat took it at its first legal chance
    forced_decade: float = float("nan")  # mean decade in which it did
    win_base: float = float("nan")  # the seat's win rate unforced (ties 1/k) ...
    win_base_ci: list[float] = field(default_factory=list)  # ... Wilson 95%
    win_forced: float = float("nan")  # ... and forced
    win_forced_ci: list[float] = field(default_factory=list)
    win_diff: float = float("nan")  # paired: forced - unforced, t 95% interval
    win_diff_ci: list[float] = field(default_factory=list)
    margin_base: float = float("nan")  # the seat's VP minus the best other seat's, unforced ...
    margin_forced: float = float("nan")  # ... and forced
    margin_diff: float = float("nan")  # paired difference, t 95% interval and p
    margin_diff_ci: list[float] = field(default_factory=list)
    margin_p: float = float("nan")
    vp_by_source: dict = field(default_factory=dict)  # sources that moved: the forced seat's mean VP [unforced, forced]
    holdings: dict = field(default_factory=dict)  # HOLDINGS of the forced seat: [unforced, forced]


@dataclass
class ProbeResult:
    strategy: str
    players: int
    games: int
    seed: int
    threshold: float
    options: list[OptionResult]
    seats: int = 1  # probed seats per game
    ai: str | None = None  # the Solo game against the A.I. of this strength (players 1), else None

    def to_dict(self) -> dict:
        def clean(v):
            if isinstance(v, float) and not np.isfinite(v):
                return None
            if isinstance(v, list):
                return [clean(x) for x in v]
            return v

        d = asdict(self)
        d["options"] = [{k: clean(v) for k, v in o.items()} for o in d["options"]]
        return d


# what the probed seat built and gained (OptionResult.holdings): name -> (games-record column, statistic)
HOLDINGS = {"palaces": (RG.BUILT + int(B.PALACE) - 1, "mean"), "palace_games": (RG.BUILT + int(B.PALACE) - 1, "share"),
            "houses": (RG.BUILT + int(B.HOUSE) - 1, "mean"), "house_games": (RG.BUILT + int(B.HOUSE) - 1, "share"),
            "lots": (RG.BUILT + int(B.LOT) - 1, "mean"), "metal_gained": (RG.GAINED + int(Res.METAL), "mean")}


def _holdings(gam: np.ndarray, seats: np.ndarray) -> dict[str, float]:
    """HOLDINGS over the probed seat-games (``seats``: [games, k] seat indices)."""
    g = np.arange(gam.shape[0])[:, None]
    out = {}
    for name, (col, stat) in HOLDINGS.items():
        x = gam[g, seats, col].astype(np.float64)
        out[name] = float((x > 0).mean() if stat == "share" else x.mean()) if len(x) else float("nan")
    return out


def _deals(strategy: str, players: int, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Seeds and balanced Characters of games 0..games-1, as a ``trinidad run`` with this seed deals them."""
    from sim.rng import player_seeds
    from trinidad.experiment import experiment_from_dict

    exp = experiment_from_dict({"name": "probe", "players": [players], "games": games, "seed": seed,
                                "seats": {"strategies": [strategy]}, "characters": {"assign": "balanced"}})
    gi = np.arange(games, dtype=np.int64)
    return player_seeds(seed, players, 0, games), exp.seat_characters(players, gi)


def _solo_deals(strategy: str, games: int, seed: int, ai: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Seeds, Characters and seats of Solo games 0..games-1 as :func:`trinidad.ai_scale.measure` deals
    them: the strategy matrix with the player unforced (row 0) and probed (row 1), and the player's seat."""
    from sim.rng import player_seeds
    from trinidad.ai_scale import deal, solo_experiment

    exp = solo_experiment(strategy, games, seed, [ai])
    dealt = exp.seat_characters(1, np.arange(games, dtype=np.int64))[:, 0]
    strat0, chars, seat = deal(0, dealt)
    strat1, _, _ = deal(1, dealt)
    return player_seeds(seed, 2, 0, games), chars, strat0, strat1, seat


def _play(rules, W, players: int, seeds, chars, strat, threads, tick) -> np.ndarray:
    from trinidad.batch import play_batch

    out = []
    for a in range(0, len(seeds), CHUNK_GAMES):
        b = min(a + CHUNK_GAMES, len(seeds))
        _, gam = play_batch(rules, W, players, seeds[a:b], strat[a:b], chars[a:b], threads=threads)
        out.append(gam[:, :players].copy())
        tick(b - a)
    return np.concatenate(out) if out else np.zeros((0, players, RG.PROBE_DECADE + 1), np.int32)


def _outcomes(gam: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per game and probed seat (``seats``: [games, k] seat indices): the seat's win credit (1/k for a
    tie for first among k) and VP margin (its VP minus the best other seat's), [games, k] each."""
    g = np.arange(gam.shape[0])
    credit = win_credit(gam, gam.shape[1])[g[:, None], seats]
    vp = gam[:, :, RG.VP].astype(np.int64)
    margin = np.empty(seats.shape, np.float64)
    for j in range(seats.shape[1]):
        others = vp.copy()
        others[g, seats[:, j]] = np.iinfo(np.int64).min
        margin[:, j] = vp[g, seats[:, j]] - others.max(axis=1)
    return credit, margin


def run_probe(strategy: str | None = None, games: int = 400, seed: int = 1, players: int = 4,
              threshold: float = DEFAULT_THRESHOLD, options: list[str] | None = None, threads: int | None = None,
              rules=None, progress: Callable[[int, int], None] | None = None,
              bonuses: list[str] | None = None, seats: int = 1, ai: str | None = None,
              forbids: list[str] | None = None) -> ProbeResult:
    """Measure and probe (module doc). ``options``: option keys probed whatever their use.
    ``forbids``: options (or groups) the probed seat is forbidden, each probed (:func:`parse_forbid`).
    ``ai``: an A.I. strength: the Solo game (``players`` 1, module doc 5; ``rules`` then left out:
    they are the rules file's with that strength).
    ``bonuses``: value bonuses probed (:func:`parse_bonus`; search strategies only). ``seats``: probed
    seats per game (game g: seats g, g + 1, ... mod players), 1 .. players - 1: what happens when that
    many seats take the option (a game's outcome is the mean over its probed seats, paired with the
    same seats unforced).
    ``progress(done, total)`` after each batch (total: games of the unforced run and of every probe,
    the probes known once the first run is done). Results depend only on the arguments, never on ``threads``."""
    from analysis.stats import paired_test, wilson
    from sim.state import MAX_PLAYERS
    from strategies.registry import StrategyError, load_strategies

    strategy = strategy or default_strategy()
    solo = ai is not None
    if solo and players != 1:
        raise ProbeError(f"players: the Solo game is 1 player against the A.I., got {players}")
    if not solo and not 2 <= players <= MAX_PLAYERS:
        raise ProbeError(f"players: must be 2..{MAX_PLAYERS}, got {players}")
    if games < 1:
        raise ProbeError(f"games: must be >= 1, got {games}")
    if not 0 <= seed <= 2**63 - 1:
        raise ProbeError(f"seed: must be 0..{2**63 - 1}, got {seed}")
    if not 0 <= threshold <= 1:
        raise ProbeError(f"threshold: must be 0..1, got {threshold}")
    if threads is not None and threads < 1:
        raise ProbeError(f"threads: must be >= 1, got {threads}")
    if solo and seats != 1:
        raise ProbeError(f"seats: the Solo game has one probed seat, the player's, got {seats}")
    if not solo and not 1 <= seats < players:
        raise ProbeError(f"seats: must be 1..{players - 1} (probed seats per game, fewer than the players), got {seats}")
    named = [parse_option(o) for o in options or []]
    forbidden = list(dict.fromkeys(parse_forbid(o) for o in forbids or []))
    bonus = [parse_bonus(b) for b in bonuses or []]
    try:
        W, _ = load_strategies([strategy], solo=solo)
    except StrategyError as e:
        raise ProbeError(f"strategy: {e}") from None
    bonus_rows = [bonus_weights(W, b, strategy) for b in bonus]
    if solo:
        from sim.rules import ai_strength_names, apply_overrides, load_rules_doc, rules_from_doc

        if rules is not None:
            raise ProbeError("rules: the Solo game's rules are the rules file's with the A.I. strength (leave rules out)")
        doc = load_rules_doc()
        if ai not in ai_strength_names(doc):
            raise ProbeError(f"ai: allowed: {', '.join(ai_strength_names(doc))}, got {ai!r}")
        rules = rules_from_doc(apply_overrides(doc, {"solo": {"strength": ai}}))
        seeds, chars, strat0, strat1, seat = _solo_deals(strategy, games, seed, ai)
        table = 2  # the player and the A.I.
    else:
        if rules is None:
            from sim.rules import load_rules

            rules = load_rules()
        seeds, chars = _deals(strategy, players, games, seed)
        table = players
    done = [0]
    total = [games]

    def tick(k: int) -> None:
        done[0] += k
        if progress is not None:
            progress(done[0], total[0])

    gi = np.arange(games)
    gs = gi[:, None]
    if solo:
        base = _play(rules, W, table, seeds, chars, strat0, threads, tick)
        fs = seat[:, None]  # the player's seat
        strat = strat1  # row 1 of the probe's W: the forced copy; the A.I. stays the A.I.
        mine = fs  # whose games "used" counts: the player's
    else:
        base = _play(rules, W, table, seeds, chars, np.zeros((games, players), np.int32), threads, tick)
        fs = (gi[:, None] + np.arange(seats)[None, :]) % players  # the probed seats of each game
        strat = np.zeros((games, players), np.int32)
        strat[gs, fs] = 1  # row 1 of the probe's W: the forced copy
        mine = np.broadcast_to(np.arange(players), (games, players))  # every seat plays the strategy

    def used_by(cols: list[int]) -> float:
        return float((base[gs[:, :, None], mine[:, :, None], cols] > 0).any(axis=2).mean()) if cols else float("nan")

    win0, margin0 = _outcomes(base, fs)
    results = []
    todo = []
    for o in OPTIONS + [p for p in PLANS + MAJORS if p in named] + forbidden:
        used = used_by(o.columns(rules))
        results.append(OptionResult(option=o.label, key=o.key, used=used))
        if o.plan or o.forbid or used < threshold or o in named:
            todo.append((o, results[-1], probe_weights(W, o)))
    for b, Wb in zip(bonus, bonus_rows):
        results.append(OptionResult(option=b.label, key=b.key, used=used_by([b.column()])))
        todo.append((b, results[-1], Wb))
    total[0] += games * len(todo)
    hold0 = _holdings(base, fs)
    for o, res, Wo in todo:
        gam = _play(rules, Wo, table, seeds, chars, strat, threads, tick)
        win1, margin1 = _outcomes(gam, fs)
        if isinstance(o, Bonus):  # no forcing: "taken" is the rewarded building built by the probed seat
            dec = np.where(gam[gs, fs, o.column()] > 0, 1, 0)
        elif o.forbid:  # taken all the same: no other main action was legal (nan where the record does not count it)
            cols = o.columns(rules)
            dec = (gam[gs[:, :, None], fs[:, :, None], cols] > 0).any(axis=2).astype(np.int32) if cols else None
        else:
            dec = gam[gs, fs, RG.PROBE_DECADE]
        lo0, hi0 = wilson(win0.sum(), win0.size)  # over the probed seat-games
        lo1, hi1 = wilson(win1.sum(), win1.size)
        # paired by game: the mean over a game's probed seats, forced minus unforced
        pw, pm = paired_test(win1.mean(axis=1) - win0.mean(axis=1)), paired_test(margin1.mean(axis=1) - margin0.mean(axis=1))
        res.probed = True
        res.n = games
        if dec is not None:
            res.forced = float((dec > 0).mean())
            res.forced_decade = float(dec[dec > 0].mean()) if (dec > 0).any() and isinstance(o, Option) and not o.forbid else float("nan")
        res.win_base, res.win_base_ci = float(win0.mean()), [float(lo0[0]), float(hi0[0])]
        res.win_forced, res.win_forced_ci = float(win1.mean()), [float(lo1[0]), float(hi1[0])]
        res.win_diff, res.win_diff_ci = pw["diff"], [pw["diff_lo"], pw["diff_hi"]]
        res.margin_base, res.margin_forced = float(margin0.mean()), float(margin1.mean())
        res.margin_diff, res.margin_diff_ci, res.margin_p = pm["diff"], [pm["diff_lo"], pm["diff_hi"]], pm["p"]
        src0 = base[gs, fs, RG.VP_SRC:RG.VP_SRC + N_VS].reshape(-1, N_VS).mean(axis=0)
        src1 = gam[gs, fs, RG.VP_SRC:RG.VP_SRC + N_VS].reshape(-1, N_VS).mean(axis=0)
        res.vp_by_source = {VS_NAMES[v]: [round(float(src0[v]), 2), round(float(src1[v]), 2)]
                            for v in range(N_VS) if src0[v] != src1[v]}
        hold1 = _holdings(gam, fs)
        res.holdings = {k: [round(hold0[k], 3), round(hold1[k], 3)] for k in HOLDINGS}
    return ProbeResult(strategy=strategy, players=players, games=games, seed=seed, threshold=threshold, options=results, seats=seats,
                       ai=ai)
