"""Trinidad's experiments: what a batch run of Trinidad plays (``trinidad run [EXPERIMENT.toml]``;
the front door for every game's experiment is :mod:`trinidad.experiment`).

An experiment TOML names the player counts, games, master seed, the strategy of each seat
(fixed, rotated through the seats, or every permutation), how Characters are dealt (drafted by
the rules, forced per seat, or balanced so each appears equally often and at each seat), a rules
file with overrides, and named variants (sets of rule overrides) played on common seeds::

    name = "palace-cost"
    players = [3, 4]          # or one number
    games = 20000             # per player count and variant
    seed = 7
    out = "runs/palace-cost"
    shard_games = 5000        # games per Parquet shard (the unit of resume)
    # precision = 0.02        # play in blocks of shard_games until every Character's win rate is within +-2 points
                              # (or a variant clearly differs from the base); games is then the cap (trinidad.runner.sequential)
    extended_war = false      # the EXTENDED WAR expansion (rules extended_war.enabled)
    ai_games = 0              # then each strategy against the Solo A.I.: Solo games per A.I. strength
                              # (DIR/ai_scale.json, for the report); 0: none (trinidad run --ai-games)

    [seats]
    strategies = ["greedy", "random"]   # cycled to fill the seats
    assign = "rotate"                   # fixed | rotate | permute

    [characters]
    assign = "balanced"                 # draft | forced | balanced
    # forced = ["Captain", "Bishop", "Merchant", "Noblewoman"]
    # prices = { Captain = 4, Architect = -2 }   # VP each seat pays for its dealt Character (issue 23)
    # prices = "runs/x/report/summary.json"      # or the auction prices a report estimated

    [rules]
    # file = "my_rules.toml"            # a whole rules file instead of the bundled one
    overrides.setup.start_wood = 3      # dotted keys nest, as in a rules override file

    [[variants]]
    name = "base"

    [[variants]]
    name = "palace-3-workers"
    overrides.building.palace.workers = 3

    [[sweeps]]                          # a rules number and its values: one variant a value, on the same seeds
    key = "character.captain_vp"        # (trinidad.games.sweeps: ranges, grids, the points' names)
    values = [4, 6, 8, 10]

The Solo game and the 2-player game with the A.I. (TWO PLAYERS GAME & SOLO MODE): an ``[ai]``
table adds the A.I. player at a seat of its own, and ``players`` then counts the players besides it
(1: the Solo game, 2: the 2-player game with the A.I.)::

    players = 1
    [ai]
    strength = "medium"                 # or a list: each strength is played as a variant of its own
                                        # (named after it; "<variant>-<strength>" with variants)

The A.I.'s seat is the lineup's last, then assigned with the others (``rotate`` moves it round the
turn order). A strategy list longer than the players is gone through block by block, a block being
as many seat arrangements as the assignment takes to go round (``rotate``: one per seat), so a Solo run of
``["random", "greedy", "heuristic"]`` plays each in a third of its games and each at every seat. With
``balanced`` Characters an arrangement lasts a deal block of 12 games (``Experiment._arrangement``), so
every strategy and every seat is dealt each Character once a block; a rotated Solo run then plays the
A.I. table's games (trinidad.ai_scale).

Every error is one line naming the key and what is allowed (:class:`ExperimentError`). The keys
every game's experiment has are read by :mod:`trinidad.games.keys`.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from sim.rules import RulesError, character_names, load_rules_doc, rules_from_doc
from sim.state import MAX_PLAYERS, N_CHARACTERS
from strategies.registry import StrategyError, load_strategies
from trinidad.games import keys, sweeps
from trinidad.games.keys import SEAT_ASSIGN, BaseExperiment, ExperimentError, Variant, err, int_key

__all__ = ["AI_MAX_PLAYERS", "CHAR_ASSIGN", "DEFAULT_EXPERIMENT", "GAME", "SEAT_ASSIGN", "Experiment", "ExperimentError", "Variant",
           "experiment_from_dict", "tier_experiments"]

GAME = "trinidad"
DEFAULT_EXPERIMENT = Path(__file__).resolve().parents[1] / "experiments" / "default.toml"
CHAR_ASSIGN = ("draft", "forced", "balanced")
_TOP_KEYS = {"game", "name", "players", "games", "seed", "out", "shard_games", "first_game", "extended_war", "seats", "characters", "rules",
             "variants", "sweeps", "ai", "ai_games", "precision"}
# A key of a table written at the top level: the error names the table it belongs under.
_TABLE_OF = {"strategies": "seats", "assign": "seats or characters", "forced": "characters", "prices": "characters",
             "file": "rules", "overrides": "rules", "strength": "ai"}
_RIO_KEYS = {"level", "short"}  # Río de la Plata's experiments' own keys (trinidad.games.rio_experiment)
AI_MAX_PLAYERS = 2  # TWO PLAYERS GAME & SOLO MODE: the A.I. joins the Solo game and the 2-player game


@dataclass
class Experiment(BaseExperiment):
    GAME: ClassVar[str] = GAME  # the game it plays (trinidad.games); not recorded: a run without "game" is Trinidad's

    first_game: bool = False
    strategies: list[str] = field(default_factory=lambda: ["heuristic"])
    seat_assign: str = "fixed"
    char_assign: str = "draft"
    forced: list[str] = field(default_factory=list)
    prices: dict = field(default_factory=dict)  # {players (str): {Character: whole VP}}: what a dealt Character costs (seat_paid)
    rules_file: str | None = None
    overrides: dict = field(default_factory=dict)
    variants: list[Variant] = field(default_factory=lambda: [Variant("base")])
    ai: list[str] = field(default_factory=list)  # A.I. strengths: the A.I. plays at a seat of its own
    declared_variants: list[Variant] = field(default_factory=list)  # the file's variants, before the strengths
    ai_games: int = 0  # then each strategy against the Solo A.I., Solo games per strength (trinidad.runner.run.record_ai_scale)

    # ------------------------------------------------------------------ derived, validated

    def resolved_rules_docs(self) -> list[dict]:
        """The full rules document of each variant (base file + experiment overrides + variant's)."""
        from sim.rules import apply_overrides

        return keys.variant_docs(self.variants, self.overrides, lambda: load_rules_doc(self.rules_file, None), apply_overrides,
                                 rules_from_doc, RulesError)

    def rules_resolver(self):
        """``resolve(overrides)``: the rules document of the rules file (read once) with the experiment's
        overrides and then ``overrides``, checked (a sweep's points, :mod:`trinidad.games.sweeps`); a bad
        rule raises RulesError."""
        from sim.rules import apply_overrides

        base = load_rules_doc(self.rules_file, None)

        def resolve(overrides: dict) -> dict:
            doc = apply_overrides(base, self.overrides) if self.overrides else base
            doc = apply_overrides(doc, overrides) if overrides else doc
            rules_from_doc(doc)
            return doc

        return resolve

    def seats(self, n: int) -> int:
        """Seats of a game of ``n`` players: one more with the A.I."""
        return n + 1 if self.ai else n

    def _arrangement(self, game_index: np.ndarray) -> np.ndarray:
        """Which seat arrangement (``rotate``: the rotation; ``permute``: the permutation) each game plays.
        With ``balanced`` Characters it changes once a deal block of 12 games, not every game: the deal
        gives each lineup entry every Character once a block (:meth:`seat_characters`), and an entry that
        kept its seat through the block then meets every Character at that seat too. Changed every game,
        an entry would meet a few Characters several times a block (in a rotated Solo run the player had
        6 of the 12, each twice) and a strategy's Character counts would drift apart over a run."""
        gi = np.asarray(game_index, np.int64)
        return gi // N_CHARACTERS if self.char_assign == "balanced" else gi

    def seat_strategies(self, n: int, game_index: np.ndarray) -> np.ndarray:
        """Strategy-name indices (into :meth:`strategy_names`) per game and seat: a pure function
        of the game index, so any shard can be played alone. The A.I.'s seat (the last of the
        lineup, then assigned as the others) holds ``sim.state.AI_STRATEGY``."""
        from sim.state import AI_STRATEGY

        names = self.strategy_names()
        gi = np.asarray(game_index, np.int64)
        if self.ai:
            # the players' seats, then the A.I.'s; a list longer than the players is gone through block by
            # block (block j: strategies j*n .. j*n + n-1, cycled), so a Solo run plays every strategy. A
            # block is as many seat arrangements as the assignment takes to go round (rotate: one per seat;
            # permute: one per order), so each lineup meets the A.I. at every seat: going through the list
            # game by game, two strategies in a rotated Solo run would each have kept one seat for good
            # (the one before the A.I. and the one after it)
            s = self.seats(n)
            period = 1 if self.seat_assign == "fixed" else (s if self.seat_assign == "rotate" else math.factorial(s))
            blk = self._arrangement(gi) // period
            k = len(self.strategies)
            ids = np.array([names.index(x) for x in self.strategies], np.int32)
            h = (blk[:, None] * n + np.arange(n)[None, :]) % k if k > n else np.tile(np.arange(n) % k, (len(gi), 1))
            base = np.concatenate([ids[h], np.full((len(gi), 1), AI_STRATEGY, np.int32)], axis=1)
        else:
            base = np.tile(np.array([names.index(x) for x in self.lineup(n)], np.int32), (len(gi), 1))
        return np.take_along_axis(base, self._entries(self.seats(n), gi), axis=1)

    def seat_characters(self, n: int, game_index: np.ndarray) -> np.ndarray | None:
        """Character ids per game and seat, or None to draft them by the rules.

        ``balanced``: games come in blocks of 12; in game j of block b, the seat holding lineup entry e
        (:meth:`_entries`; with ``fixed`` seats, entry s sits at seat s) gets Character
        ``perm_b[(j + e) % 12]`` where ``perm_b`` is a permutation drawn from (seed, block). The seats
        are arranged once a block (:meth:`_arrangement`), so over a block each Character appears exactly
        once at every seat and once with every lineup entry; the permutation varies which Characters
        sit together."""
        gi = np.asarray(game_index, np.int64)
        n = self.seats(n)  # the A.I.'s seat draws its own Character (trinidad.batch)
        if self.char_assign == "draft":
            return None
        if self.char_assign == "forced":
            names = [c.lower() for c in character_names()]
            ids = np.array([names.index(c.lower()) for c in self.forced[:n]], np.int32)
            return np.tile(ids, (len(gi), 1))
        out = np.empty((len(gi), n), np.int32)
        entry = self._entries(n, gi)
        blocks = gi // N_CHARACTERS
        for b in np.unique(blocks):
            perm = np.random.default_rng([self.seed, int(b), 0x5EA7]).permutation(N_CHARACTERS)
            rows = np.nonzero(blocks == b)[0]
            j = gi[rows] % N_CHARACTERS
            out[rows] = perm[(j[:, None] + entry[rows]) % N_CHARACTERS]
        return out

    def seat_paid(self, n: int, characters: np.ndarray | None) -> np.ndarray | None:
        """VP each seat pays at setup for its dealt Character (``characters``, from
        :meth:`seat_characters`), or None when the run charges nothing. The prices are relative
        (the auction price of analysis.auction: VP more than the average Character), so each seat
        pays its price less the lowest of the 12 (a Character left out costs 0): no seat is paid VP
        (the rulebook's bids are 1 or more VPs; VP may go negative in the engine, but an auction never
        hands VP out), and within a game every seat pays its price less the same constant, so who
        finishes ahead of whom is as if each paid its relative price."""
        table = self.prices.get(str(n))
        if characters is None or not table:
            return None
        from analysis.auction import charges

        names = character_names()
        cost = charges({c: table.get(c, 0) for c in names})
        by_id = np.array([cost[c] for c in names], np.int32)
        return by_id[np.asarray(characters, np.int64)]


_err, _int = err, int_key  # the names this module has used


def tier_experiments(d: dict, where: str = "experiment") -> list[tuple[str, Experiment]]:
    """The runs of a Trinidad experiment with ``[[tiers]]`` (:func:`trinidad.games.keys.tier_runs`): the same
    experiment (players, games, seed, Character deal, rules, variants) played once per tier, every seat by the
    tier's strategies, each into OUT/<tier name>; tiers in the file's order, strongest first (the order
    ``trinidad report`` checks findings in)::

        [[tiers]]
        name = "best"
        strategies = ["best"]
        [[tiers]]
        name = "heuristic"
        strategies = ["heuristic"]
    """
    return keys.tier_runs(d, where, experiment_from_dict)


def experiment_from_dict(d: dict, where: str = "experiment") -> Experiment:
    """Validate a parsed experiment document of Trinidad (the front door, :func:`trinidad.experiment.experiment_from_dict`,
    reads the document of any game)."""
    keys.refuse_tiers(d)
    theirs = sorted(k for k in d if k in _RIO_KEYS)
    if theirs:
        raise _err(theirs[0], "a key of Río de la Plata's experiments (game = \"rio-de-la-plata\"), not of Trinidad's")
    keys.unknown_keys(d, _TOP_KEYS, _TABLE_OF)
    if d.get("game", GAME) != GAME:
        raise _err("game", f"{d['game']!r} is not Trinidad: read the experiment with trinidad.experiment.experiment_from_dict")
    e = Experiment()
    e.name = str(d.get("name", Path(where).stem))
    e.ai = _ai_strengths(d, (d.get("rules") or {}).get("file") if isinstance(d.get("rules"), dict) else None)
    lo, hi = (1, AI_MAX_PLAYERS) if e.ai else (2, MAX_PLAYERS)
    e.players = keys.player_counts(d, e.players, lo, hi, " besides the A.I. ([ai]: 1 the Solo game, 2 the 2-player game)" if e.ai else "")
    e.games = _int(d, "games", e.games, 1)
    e.seed = _int(d, "seed", e.seed, 0, 2**63 - 1)
    e.shard_games = _int(d, "shard_games", e.shard_games, 1, 1_000_000)
    e.precision = keys.precision_key(d)
    e.ai_games = _int(d, "ai_games", e.ai_games, 0, 1_000_000)
    e.out = keys.out_dir(d, e.name)
    fg = d.get("first_game", False)
    if not isinstance(fg, bool):
        raise _err("first_game", f"expected true or false, got {fg!r}")
    e.first_game = fg

    e.strategies, e.seat_assign = keys.seats_table(d, e.strategies, e.seat_assign, load_strategies, StrategyError)  # it names the available strategies

    chars = d.get("characters", {})
    if not isinstance(chars, dict):
        raise _err("characters", "expected a table with assign (and forced)")
    for k in chars:
        if k not in ("assign", "forced", "prices"):
            raise _err(f"characters.{k}", "unknown key; allowed: assign, forced, prices")
    e.char_assign = chars.get("assign", e.char_assign)
    if e.char_assign not in CHAR_ASSIGN:
        raise _err("characters.assign", f"allowed: {', '.join(CHAR_ASSIGN)}, got {e.char_assign!r}")
    if e.char_assign == "forced":
        forced = chars.get("forced")
        names = character_names()
        lower = [c.lower() for c in names]
        top = e.seats(max(e.players))
        if not isinstance(forced, list) or len(forced) < top or not all(isinstance(c, str) for c in forced):
            raise _err("characters.forced", f"expected a list of at least {top} Character names (one per seat)")
        bad = [c for c in forced if c.lower() not in lower]
        if bad:
            raise _err("characters.forced", f"unknown Character {bad[0]!r}; allowed: {', '.join(names)}")
        if len({c.lower() for c in forced[:top]}) != top:
            raise _err("characters.forced", "the seats need distinct Characters")
        e.forced = forced
    elif e.char_assign == "balanced" and e.first_game:
        raise _err("characters.assign", "balanced Characters replace the First Game Option's deal; set first_game = false")

    if "prices" in chars:
        e.prices = _prices(chars["prices"], e)

    e.rules_file, ov = keys.rules_table(d)
    xw = d.get("extended_war", False)
    if not isinstance(xw, bool):
        raise _err("extended_war", f"expected true or false, got {xw!r}")
    if xw:
        # the EXTENDED WAR expansion: the rule extended_war.enabled, set as an experiment override
        # under the file's own (an explicit rules.overrides.extended_war.enabled wins) and recorded
        # with them; a variant may still switch it off to compare with the normal War
        ov = copy.deepcopy(ov)
        xt = ov.setdefault("extended_war", {})
        if not isinstance(xt, dict):
            raise _err("rules.overrides.extended_war", "expected a table of extended_war rules")
        xt.setdefault("enabled", True)
    e.overrides = ov

    declared = keys.variants_list(d)
    swept = sweeps.read(d)
    sweeps.refuse_crossed(swept, "ai.strength", e.ai, "A.I. strengths")
    e.variants, e.sweeps = sweeps.variants(swept, declared, e.rules_resolver(), RulesError, other_game=_rio_rule)
    if e.ai or e.sweeps:
        e.declared_variants = declared
    if e.ai:
        e.variants = _strength_variants(e.variants, e.ai)
    e.resolved_rules_docs()  # fail now, with the key, rather than in a worker
    return e


PRICE_MAX = 200  # |VP| of a price: far beyond any Character's worth (a game's winner scores about 100-200 VP)


def _prices(v, e: Experiment) -> dict:
    """``[characters] prices``: the VP each dealt Character costs at setup (issue 23), as
    {players (str): {Character: whole VP}} for the experiment's player counts (zeros dropped, so
    all-zero prices are no prices and play the very same games). Given as a table of Character names
    (every player count), a table per player count (``prices."4" = {...}``), or the path of a
    report's summary.json (its ``auction_price`` prices, rounded to whole VP)."""
    key = "characters.prices"
    if e.char_assign == "draft":
        raise _err(key, 'prices are charged for dealt Characters (assign = "balanced" or "forced"); a draft\'s auction sets its own')
    if e.ai:
        raise _err(key, "not with [ai]: the A.I. draws its own Character")
    names = character_names()
    lower = {c.lower(): c for c in names}

    def table(t, where: str) -> dict[str, int]:
        out = {}
        for c, x in t.items():
            if not isinstance(c, str) or c.lower() not in lower:
                raise _err(where, f"unknown Character {c!r}; allowed: {', '.join(names)}")
            if isinstance(x, bool) or not isinstance(x, int) or abs(x) > PRICE_MAX:
                raise _err(f"{where}.{c}", f"expected whole VP (an integer, -{PRICE_MAX}..{PRICE_MAX}; bids are whole VP), got {x!r}")
            if x:
                out[lower[c.lower()]] = x
        return out

    if isinstance(v, str):
        per = _summary_prices(v, key)
    elif isinstance(v, dict) and v and all(isinstance(k, str) and k.isdigit() for k in v):
        if not all(isinstance(t, dict) for t in v.values()):
            raise _err(key, "expected a table of Character prices per player count, e.g. prices.\"4\" = { Captain = 4 }")
        per = {k: table(t, f"{key}.{k}") for k, t in v.items()}
    elif isinstance(v, dict):
        per = {str(n): table(v, key) for n in e.players}
    else:
        raise _err(key, f"expected a table of Character = whole VP, or the path of a report's summary.json, got {v!r}")
    missing = [n for n in e.players if str(n) not in per]
    if missing:
        raise _err(key, f"no prices for {missing[0]} players (given for {', '.join(sorted(per)) or 'none'})")
    return {str(n): per[str(n)] for n in e.players if per[str(n)]}


def _summary_prices(path: str, key: str) -> dict[str, dict[str, int]]:
    """Whole-VP prices per player count from a report's summary.json (``auction_price``)."""
    import json

    try:
        doc = json.loads(Path(path).read_text())
        rows = doc["auction_price"]["prices"]
        per: dict[str, dict[str, int]] = {}
        for r in rows:
            per.setdefault(str(int(r["players"])), {})[str(r["character"])] = int(np.rint(float(r["price"])))
    except OSError as ex:
        raise _err(key, f"{path}: {ex.strerror or ex}") from None
    except (ValueError, KeyError, TypeError) as ex:
        raise _err(key, f"{path}: not a report's summary.json with auction prices ({type(ex).__name__}: {ex})") from None
    if not per:
        raise _err(key, f"{path}: the report has no auction prices (a drafted run?)")
    names = set(character_names())
    for t in per.values():
        bad = [c for c in t if c not in names]
        if bad:
            raise _err(key, f"{path}: unknown Character {bad[0]!r}")
    return {n: {c: v for c, v in t.items() if v} for n, t in per.items()}


def _rio_rule(key: str) -> str | None:
    """The line for a sweep's key that is a rule of Río de la Plata's rules file (given to the wrong game), else None."""
    from rio.rules import load_rules_doc as rio_rules_doc

    return ("a Río de la Plata rule (game = \"rio-de-la-plata\"), not a Trinidad one" if sweeps.has_rule(rio_rules_doc(), key)
            else None)


def _ai_strengths(d: dict, rules_file: str | None) -> list[str]:
    """The ``[ai]`` table's strengths (one name or a list of distinct names of ``solo.strengths``)."""
    if "ai" not in d:
        return []
    ai = d["ai"]
    if not isinstance(ai, dict):
        raise _err("ai", "expected a table with strength")
    for k in ai:
        if k != "strength":
            raise _err(f"ai.{k}", "unknown key; allowed: strength")
    from sim.rules import ai_strength_names

    try:
        allowed = ai_strength_names(load_rules_doc(rules_file if rules_file and Path(rules_file).exists() else None))
    except RulesError as ex:
        raise _err("rules", str(ex)) from None
    v = ai.get("strength", "medium")
    v = [v] if isinstance(v, str) else v
    if not isinstance(v, list) or not v or not all(isinstance(x, str) and x in allowed for x in v) or len(set(v)) != len(v):
        raise _err("ai.strength", f"expected one of {', '.join(allowed)} or a list of distinct ones, got {ai.get('strength')!r}")
    return v


def _strength_variants(variants: list[Variant], strengths: list[str]) -> list[Variant]:
    """Each variant once per A.I. strength (``solo.strength`` overridden): named as the variant with
    one strength; else after the strength alone (only the default variant) or "<variant>-<strength>"."""

    def make(v: Variant, values: list, name: str) -> Variant:
        ov = copy.deepcopy(v.overrides)
        solo = ov.get("solo") if isinstance(ov.get("solo"), dict) else {}
        ov["solo"] = solo | {"strength": values[0]}
        return Variant(name, ov)

    return keys.crossed_variants(variants, [[(s, s) for s in strengths]], make)
