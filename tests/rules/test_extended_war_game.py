"""EXTENDED WAR in the game: with the rule ``extended_war.enabled`` a War declared at the End of the
decade Phase is fought in the following decade, its rounds interleaved with the players' turns
(WAR FLOW), and ends within that decade; a War of the last decade is fought at once (WAR IN THE
LAST TURN). Random play with the expansion on, through both action-phase loops (the engine's
plain one, sim.actions.action_rounds, and strategies.match.action_phase), keeps every component
in the box, and is deterministic. The normal game (expansion off) is checked unchanged by
``trinidad.digest --check docs/data/digests.json``.
"""

from __future__ import annotations

import numpy as np
import pytest
from invariants import check_state, decades_checked

from sim.codes import Card, Ev
from sim.extended_war import wounds_in_use
from sim.game import allocate, setup
from sim.rules import RK, XK, apply_overrides, load_rules_doc, rules_from_doc
from sim.state import MAX_PLAYERS, PF, XG, XM, G, Mini
from strategies.match import run_game
from strategies.registry import load_strategies
from trinidad.batch import play_batch

GAMES = 16  # per player count and family mix: 128 games, about 60 wars


@pytest.fixture(scope="module")
def xrules():
    return rules_from_doc(apply_overrides(load_rules_doc(None, None), {"extended_war": {"enabled": True}}))


@pytest.fixture(scope="module")
def xweights():
    W, names = load_strategies(["random", "heuristic"])
    assert names == ["random", "heuristic"]
    return W


def events(st):
    return st.log[: st.g[G.LOG_N]]


def decade_of_events(ev):
    """The decade each event belongs to (the last Ev.DECADE before it; 0 at setup)."""
    d = np.zeros(len(ev), np.int64)
    cur = 0
    for i, row in enumerate(ev):
        if row[0] == Ev.DECADE:
            cur = int(row[1])
        d[i] = cur
    return d


def check_wars(st, r, n):
    """Every declared War is fought in the following decade and ends in it (or, in the last decade,
    at once after its declaration); pillage within the box; no normal battle; the War Penalty
    track moves only by the war's end (and card 77's lightning power). Returns the wars seen."""
    ev = events(st)
    dec = decade_of_events(ev)
    codes = ev[:, 0]
    last = int(st.g[G.LAST_DECADE])
    assert st.g[G.LOG_DROPPED] == 0
    assert not (codes == Ev.FIGHT).any(), "a normal War battle with the expansion on"
    wars = np.nonzero(codes == Ev.WAR)[0]
    setups = np.nonzero(codes == Ev.XW_SETUP)[0]
    ends = np.nonzero(codes == Ev.XW_END)[0]
    assert len(setups) == len(ends) == len(wars)
    for w, s, e in zip(wars, setups, ends, strict=True):
        assert w < s < e
        if dec[w] == last:
            # WAR IN THE LAST TURN: at once, in the End of the decade Phase (no turn after it)
            assert dec[s] == dec[e] == last
            assert not (codes[w:e] == Ev.PASS).any()
        else:
            assert dec[s] == dec[w] + 1 and dec[e] == dec[s], (dec[w], dec[s], dec[e])
            # the war is part of that decade's action phase: set up before its first turn
            turns = np.nonzero((codes == Ev.PASS) & (dec == dec[s]))[0]
            assert len(turns) and s < turns[0]
    # a player who passed while others play on has withdrawn its miniatures: none of them moves,
    # fights or is wounded in the rest of that war
    for w, s, e in zip(wars, setups, ends, strict=True):
        if dec[w] == last:
            continue
        passes = np.nonzero((codes == Ev.PASS) & (dec == dec[s]))[0]
        for p in passes[:-1]:  # the decade's last pass ends the action phase: that player's stay
            if p > e:
                break
            seat = ev[p, 1]
            rest = ev[p:e]
            mine = ((rest[:, 0] == Ev.XW_FIGHT) & (rest[:, 1] == seat)) \
                | (np.isin(rest[:, 0], [Ev.XW_MOVE, Ev.XW_WOUND]) & (rest[:, 1] == 0) & (rest[:, 2] == seat))
            assert not mine.any(), ("withdrawn", seat)
    # pillage: flames 1-2 per district, at most the box's markers in one war
    for s, e in zip(setups, ends, strict=True):
        seg = ev[s:e]
        pil = seg[seg[:, 0] == Ev.XW_PILLAGE]
        assert ((pil[:, 3] >= 1) & (pil[:, 3] <= 2)).all()
        assert len(set(pil[:, 2].tolist())) <= r.xw_k[XK.PILLAGE_MARKERS]
        # one fight per Fight! (each XW_FIGHT names a live attacker tile and a seat of the game)
        fi = seg[seg[:, 0] == Ev.XW_FIGHT]
        assert ((fi[:, 1] >= 0) & (fi[:, 1] < n)).all()
    # the War Penalty track: the start value, moved by each war's end (Ev.XW_PENALTY steps), and
    # by card 77 (lightning: steps left only)
    for s in range(n):
        steps = ev[(codes == Ev.XW_PENALTY) & (ev[:, 1] == s), 4].sum()
        moved = int(st.pl[s, PF.WAR_PENALTY]) - int(r.k[RK.WAR_PENALTY_START])
        c77 = ((codes == Ev.CARD_EFFECT) & (ev[:, 1] == s) & (ev[:, 2] == Card.C77)).any()
        if c77:
            assert moved <= steps
        else:
            assert moved == steps, (s, moved, steps)
        assert r.k[RK.PENALTY_MIN] <= st.pl[s, PF.WAR_PENALTY] <= r.k[RK.PENALTY_MAX]
        assert st.pl[s, PF.WARS_FOUGHT] == ((codes == Ev.XW_PENALTY) & (ev[:, 1] == s)).sum()
    # the VP marker moves only by VP assignations (sim.core.add_vp, each logged with its source)
    for s in range(n):
        assert ev[(codes == Ev.VP) & (ev[:, 1] == s), 2].sum() == st.pl[s, PF.VP]
        assert st.vps[s].sum() == st.pl[s, PF.VP]
    return len(wars)


def check_idle(st, r, n):
    """Between decades: no war on, every player miniature off the Combat Area,
    Wounds markers within the box."""
    assert st.xw[XG.ACTIVE] == 0
    if (events(st)[:, 0] == Ev.XW_SETUP).any():  # (a fresh state's Combat Area is cleared by the first war's setup)
        assert (st.xw_mini[:n, :, XM.POS] == -1).all()
    for s in range(n):
        for k in range(r.k[RK.WAR_MARKERS]):
            if st.minis[s, k, 0] == Mini.NONE:
                assert st.minis[s, k, 1] == 0
    assert wounds_in_use(st, r) <= r.xw_k[XK.WOUND_MARKERS]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_games_with_extended_war(xrules, xweights, n):
    """strategies.match.action_phase: random and heuristic seats; every war ends in its decade,
    components conserved, the War Penalty track and VP moved only by their paths."""
    r, W = xrules, xweights
    wars = 0
    for seed in range(GAMES):
        strat = [(seed + s) % 2 for s in range(n)] if seed % 3 else [seed % 2] * n
        st = run_game(r, W, n, 5000 * n + seed, strat, log=True)
        errs = check_state(st, r)
        assert not errs, (n, seed, errs)
        assert st.g[G.GAME_OVER] == 1 and st.g[G.DECADE] == st.g[G.LAST_DECADE]
        assert st.g[G.EMPTY_OPTS] == 0
        assert st.xw[XG.ACTIVE] == 0 and st.xw[XG.PENDING] == 0
        wars += check_wars(st, r, n)
        check_idle(st, r, n)
        assert st.g[G.WARS_TOTAL] == (events(st)[:, 0] == Ev.WAR).sum()
    assert wars >= GAMES // 2, wars  # the expansion was played, not only switched on


def test_every_decade_plain_phases(xrules, xweights):
    """sim.game.play_decade (the plain action phase, what a searching seat simulates): the state
    after every decade is whole, no war left on, none in the Combat Area."""
    r, W = xrules, xweights
    fought = 0
    for seed in range(24):
        n = 2 + seed % 4
        st = allocate(r)
        st.rng[0] = 700 + seed
        st.g[G.LOG_ON] = 1
        strat = np.zeros(MAX_PLAYERS, np.int32)
        strat[:n] = seed % 2
        setup(st, r, W, n, strat, np.full(MAX_PLAYERS, -1, np.int32), np.zeros(MAX_PLAYERS, np.int32), 0)
        for d in decades_checked(st, r, seed):
            check_idle(st, r, n)
            if d < 12:
                assert st.xw[XG.PENDING] == st.g[G.WAR_FACTION]  # declared now, fought next decade
        fought += (events(st)[:, 0] == Ev.XW_END).sum()
    assert fought > 0


def test_declared_war_fought_next_decade(xrules, xweights):
    """A War declared at the End of decade d: no normal battle then; the Combat Area is set up at the
    start of decade d + 1, attackers and players act in it during that decade's rounds, and the war
    ends within it (Ev.XW_END before the next Ev.DECADE)."""
    r, W = xrules, xweights
    seen = 0
    for seed in range(12):
        st = run_game(r, W, 4, 90 + seed, [1, 1, 1, 1], log=True)
        ev = events(st)
        codes = ev[:, 0]
        dec = decade_of_events(ev)
        for w in np.nonzero(codes == Ev.WAR)[0]:
            d = dec[w]
            if d == st.g[G.LAST_DECADE]:
                continue
            seen += 1
            nxt = dec == d + 1
            w2 = np.nonzero(nxt & (codes == Ev.WAR))[0]
            if len(w2):  # decade d + 1 declares a war of its own (the last decade's, fought at once): up to it
                nxt &= np.arange(len(ev)) < w2[0]
            assert (codes[nxt] == Ev.XW_SETUP).sum() == 1 and (codes[nxt] == Ev.XW_END).sum() == 1
            assert (codes[nxt] == Ev.XW_PLACE).sum() >= 1
            # the attackers act in that decade: they enter the city (a move from outside), pillage or fight
            acted = (codes[nxt] == Ev.XW_MOVE) | (codes[nxt] == Ev.XW_PILLAGE) | (codes[nxt] == Ev.XW_FIGHT)
            assert acted.any()
            # nothing of the war in decade d after its declaration
            after = (dec == d) & (np.arange(len(ev)) > w)
            assert not np.isin(codes[after], [Ev.XW_SETUP, Ev.XW_FIGHT, Ev.XW_END, Ev.FIGHT]).any()
    assert seen > 0


def test_same_seed_same_game(xrules, xweights):
    """Deterministic: the same seed plays the same game, and a batch gives the same records on 1 or
    2 threads."""
    r, W = xrules, xweights
    a = run_game(r, W, 3, 41, [0, 1, 1], log=True)
    b = run_game(r, W, 3, 41, [0, 1, 1], log=True)
    assert np.array_equal(events(a), events(b)) and np.array_equal(a.pl, b.pl) and np.array_equal(a.xw, b.xw)
    seeds = np.arange(300, 308, dtype=np.uint64)
    strat = np.array([[s % 2, 1, 0, 1] for s in range(8)])
    d1, g1 = play_batch(r, W, 4, seeds, strat, threads=1)
    d2, g2 = play_batch(r, W, 4, seeds, strat, threads=2)
    assert np.array_equal(d1, d2) and np.array_equal(g1, g2)


def test_experiment_switch(xrules):
    """``extended_war = true`` in an experiment sets the rule extended_war.enabled for every variant
    (a variant may switch it off again); anything but a boolean is refused in one line."""
    from trinidad.experiment import ExperimentError, experiment_from_dict

    e = experiment_from_dict({"extended_war": True, "variants": [{"name": "xw"},
                              {"name": "normal", "overrides": {"extended_war": {"enabled": False}}}]})
    on, off = (rules_from_doc(doc) for doc in e.resolved_rules_docs())
    assert on.xw_k[XK.ENABLED] == 1 and off.xw_k[XK.ENABLED] == 0
    assert e.overrides == {"extended_war": {"enabled": True}}
    plain = experiment_from_dict({})
    assert rules_from_doc(plain.resolved_rules_docs()[0]).xw_k[XK.ENABLED] == 0
    with pytest.raises(ExperimentError, match="extended_war"):
        experiment_from_dict({"extended_war": 1})


def test_play_extended_war_log(xrules):
    """``trinidad play --extended-war --log``: the account tells each war (declaration, the Combat
    Area, the attackers' and players' actions, the end and the penalties) in sentences."""
    from typer.testing import CliRunner

    from trinidad.cli import app

    res = CliRunner().invoke(app, ["play", "--players", "3", "--seed", "4", "--strategies", "heuristic", "--extended-war", "--log"])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "fought in the Combat Area next decade" in out or "fought at once" in out
    for words in ("Combat Area:", "on War Opponent tile", "END OF THE WAR with the", "War penalties"):
        assert words in out, words
    assert "(XW_" not in out  # every war event has its sentence
    assert "WA = " not in out  # no normal War
    plain = CliRunner().invoke(app, ["play", "--players", "3", "--seed", "4", "--strategies", "heuristic", "--log"])
    assert plain.exit_code == 0 and "Combat Area" not in plain.output
    bad = CliRunner().invoke(app, ["play", "--run", "nowhere", "--index", "0", "--extended-war"])
    assert bad.exit_code == 2 and "--extended-war" in bad.output


@pytest.mark.parametrize("lineup", [["rollout", "heuristic", "heuristic"], ["search", "heuristic", "random"],
                                    ["pyexample", "random", "heuristic"], ["heuristic", "random", "ai"]])
def test_every_family_plays_the_war(xrules, lineup):
    """The searching families (their turns planned in strategies.match, their simulations through the
    plain phases), the python family (Dec.XW_* through the bridge) and the Solo A.I. (its troops
    commanded by the first human) play games with the expansion to their end, whole."""
    from sim.state import AI_STRATEGY

    r = xrules
    names = [s for s in lineup if s != "ai"]
    W, distinct = load_strategies(names)
    strat = [AI_STRATEGY if s == "ai" else distinct.index(s) for s in lineup]
    wars = 0
    for seed in range(4):
        st = run_game(r, W, 3, 60 + seed, strat, log=True)
        assert not check_state(st, r), (lineup, seed)
        assert st.g[G.GAME_OVER] == 1
        wars += check_wars(st, r, 3)
        check_idle(st, r, 3)
    assert wars > 0


def test_run_flag_recorded(xrules, tmp_path):
    """``trinidad run --extended-war``: the experiment's extended_war, recorded in the manifest as the
    rule override it is, so that a replay plays the same rules."""
    import json

    from typer.testing import CliRunner

    from trinidad.cli import app

    out = tmp_path / "xw"
    res = CliRunner().invoke(app, ["run", "--ai-games", "0", "--games", "2", "--players", "3", "--strategies", "random", "--extended-war",
                                   "--out", str(out), "-q"])
    assert res.exit_code == 0, res.output
    m = json.loads((out / "manifest.json").read_text())
    assert m["experiment"]["overrides"] == {"extended_war": {"enabled": True}}
    assert [v["rules"]["extended_war"]["enabled"]["value"] for v in m["variants"]] == [True]
