"""sim.records: the war tallies (``State.tally``/``tally_g``, the records' TALLY columns) of both
War rules, checked against the event log of the same games: each count equals the events the
engine logged, decade by decade, and the games record holds the last decade's values. The normal
game is unchanged by them (``trinidad.digest --check docs/data/digests.json``: same games)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.codes import Card, Ev
from sim.records import GAME_COLUMNS, N_RD, RD, RG, TALLY_COLUMNS, TALLY_G_COLUMNS
from sim.rules import RK, apply_overrides, load_rules_doc, rules_from_doc
from sim.state import N_AK, TG, TS, VS, G, Mini
from strategies.match import run_game
from strategies.registry import load_strategies

SEEDS = range(40, 52)  # 12 games of 4 players: 24 Extended Wars, 67 Fight!s, 98 pillage markers on buildings


@pytest.fixture(scope="module")
def xrules():
    return rules_from_doc(apply_overrides(load_rules_doc(None, None), {"extended_war": {"enabled": True}}))


@pytest.fixture(scope="module")
def weights():
    W, names = load_strategies(["random", "heuristic"])
    assert names == ["random", "heuristic"]
    return W


def _events(st):
    ev = st.log[: st.g[G.LOG_N]]
    assert st.g[G.LOG_DROPPED] == 0
    dec = np.zeros(len(ev), np.int64)
    cur = 0
    for i, row in enumerate(ev):
        if row[0] == Ev.DECADE:
            cur = int(row[1])
        dec[i] = cur
    return ev, dec


def _war_vp(ev, seat) -> int:
    """VP a seat gained right after using card 34, 55 or 57 (their VP assignation and its VP status bonus)."""
    total = 0
    for i, row in enumerate(ev):
        if row[0] == Ev.CARD_USE and row[1] == seat and row[2] in (Card.C34, Card.C55, Card.C57):
            j = i + 1
            while j < len(ev) and ev[j, 0] in (Ev.VP, Ev.VP_WAIT) and ev[j, 1] == seat:
                if ev[j, 0] == Ev.VP:
                    assert ev[j, 3] in (VS.AFFILIATE, VS.VP_STATUS)
                    total += int(ev[j, 2])
                j += 1
    return total


def _check_records_are_the_tallies(st, n):
    """The decade rows hold the tallies at each decade end (cumulative), the game rows the last one's."""
    last = int(st.g[G.LAST_DECADE])
    assert N_RD == RD.TALLY_G + len(TALLY_G_COLUMNS) and GAME_COLUMNS[RG.TALLY:] == TALLY_COLUMNS + TALLY_G_COLUMNS
    for s in range(n):
        assert np.array_equal(st.rec_game[s, RG.TALLY:RG.TALLY_G], st.tally[s])
        assert np.array_equal(st.rec_game[s, RG.TALLY_G:], st.tally_g)
        assert np.array_equal(st.rec_decade[last - 1, s, RD.TALLY:RD.TALLY_G], st.tally[s])
        assert np.array_equal(st.rec_decade[last - 1, s, RD.TALLY_G:N_RD], st.tally_g)
        cum = st.rec_decade[:last, s, RD.TALLY:N_RD]
        assert (np.diff(cum, axis=0) >= 0).all(), "the tallies only grow"


def test_extended_war_tallies_equal_the_log(xrules, weights):
    r = xrules
    wars = fights = pillage = 0
    for seed in SEEDS:
        n = 4
        st = run_game(r, weights, n, seed, [seed % 2, 1, 0, 1], log=True)
        ev, dec = _events(st)
        last = int(st.g[G.LAST_DECADE])
        code = ev[:, 0]
        assert not (code == Ev.FIGHT).any()
        # the attacker on each War Opponent tile, as the placements (setup and card 83 recruits) say
        tile_kind: dict[int, int] = {}
        per_kind = np.zeros((n, 2, N_AK), np.int64)  # [seat, fought/won, attacker kind]
        for row in ev:
            if row[0] == Ev.XW_PLACE:
                tile_kind[int(row[1])] = int(row[3])
            elif row[0] == Ev.XW_FIGHT:
                k = tile_kind[int(row[3])]
                per_kind[row[1], 0, k] += 1
                per_kind[row[1], 1, k] += row[6] == 0
        for s in range(n):
            t = st.tally[s]
            mine = ev[:, 1] == s
            fight = (code == Ev.XW_FIGHT) & mine
            assert t[TS.FIGHTS] == fight.sum()
            assert t[TS.FIGHTS_WON] == (fight & (ev[:, 6] == 0)).sum()
            assert t[TS.FIGHTS_LOST] == (fight & (ev[:, 6] == 1)).sum()
            assert t[TS.WOUNDS] == ((code == Ev.XW_WOUND) & (ev[:, 1] == 0) & (ev[:, 2] == s)).sum()
            assert t[TS.MINIS_LOST] == ((code == Ev.MINI_LOST) & mine).sum()
            assert t[TS.XW_DEFEATED] == ((code == Ev.XW_REMOVED) & (ev[:, 1] == 1) & (ev[:, 4] == s)).sum()
            pen = (code == Ev.XW_PENALTY) & mine
            assert t[TS.XW_PENALTIES] == ev[pen, 2].sum() and t[TS.XW_CANCELLED] == ev[pen, 3].sum()
            assert t[TS.XW_PILLAGE] == ((code == Ev.XW_PILLAGE) & (((ev[:, 4] >> s) & 1) == 1)).sum()
            assert t[TS.WAR_VP] == _war_vp(ev, s)
            assert np.array_equal(t[TS.XW_FIGHTS_AK:TS.XW_FIGHTS_AK + N_AK], per_kind[s, 0])
            assert np.array_equal(t[TS.XW_WON_AK:TS.XW_WON_AK + N_AK], per_kind[s, 1])
            assert t[TS.XW_FIGHTS_MINI:TS.XW_FIGHTS_MINI + 4].sum() == t[TS.FIGHTS]
            assert t[TS.XW_WON_MINI:TS.XW_WON_MINI + 4].sum() == t[TS.FIGHTS_WON]
            assert t[TS.FIGHTS] == t[TS.XW_FIGHTS_AK:TS.XW_FIGHTS_AK + N_AK].sum()
            # decade by decade: a decade row's growth is that decade's events
            d_f = np.diff(st.rec_decade[:last, s, RD.TALLY + TS.FIGHTS], prepend=0)
            assert np.array_equal(d_f, [(fight & (dec == d)).sum() for d in range(1, last + 1)])
        end = code == Ev.XW_END
        g = st.tally_g
        assert g[TG.WARS_NATIVES] == (end & (ev[:, 1] == 1)).sum() and g[TG.WARS_PIRATES] == (end & (ev[:, 1] == 2)).sum()
        assert g[TG.XW_LEFT] == ev[end, 3].sum() and g[TG.XW_PILLAGE_SCORE] == ev[end, 2].sum()
        assert g[TG.XW_ATTACKERS] == ((code == Ev.XW_PLACE) & (ev[:, 2] >= 0)).sum()  # card 83's recruits have no control card
        d_w = np.diff(st.rec_decade[:last, 0, RD.TALLY_G + TG.WARS_NATIVES] + st.rec_decade[:last, 0, RD.TALLY_G + TG.WARS_PIRATES],
                      prepend=0)
        assert np.array_equal(d_w, [(end & (dec == d)).sum() for d in range(1, last + 1)])
        assert (st.rec_decade[last - 1, :n, RD.WARS_FOUGHT] == end.sum()).all()  # every seat takes part in every War
        _check_records_are_the_tallies(st, n)
        wars += int(end.sum())
        fights += int(st.tally[:n, TS.FIGHTS].sum())
        pillage += int(st.tally[:n, TS.XW_PILLAGE].sum())
    assert wars >= 10 and fights >= 30 and pillage > 0, (wars, fights, pillage)  # the games exercised the counts


def test_normal_war_tallies_equal_the_log(rules, weights):
    """The base War: a battle with miniatures fielded is a fight (Ev.FIGHT's mask), won when WA − AV <= 0;
    each fielded miniature takes the faction's wounds."""
    r = rules
    nm = int(r.k[RK.WAR_MARKERS])
    fielded = 0
    for seed in SEEDS:
        n = 4
        st = run_game(r, weights, n, seed, [1, seed % 2, 1, 0], log=True)
        ev, dec = _events(st)
        code = ev[:, 0]
        assert not (code == Ev.XW_FIGHT).any()
        faction = np.zeros(len(ev), np.int64)
        cur = 0
        for i, row in enumerate(ev):
            if row[0] == Ev.WAR:
                cur = int(row[1])
            faction[i] = cur
        wounds_of = np.where(faction == 2, r.k[RK.WOUNDS_PIRATES], r.k[RK.WOUNDS_NATIVES])
        for s in range(n):
            t = st.tally[s]
            f = (code == Ev.FIGHT) & (ev[:, 1] == s)
            mask = ev[:, 6]
            armed = f & (mask != 0)
            assert t[TS.FIGHTS] == armed.sum()
            assert t[TS.FIGHTS_WON] == (armed & (ev[:, 3] <= 0)).sum() and t[TS.FIGHTS_LOST] == (armed & (ev[:, 3] > 0)).sum()
            minis = np.array([bin(int(m) & ((1 << nm) - 1)).count("1") for m in mask])
            assert t[TS.WOUNDS] == (minis * wounds_of)[f].sum()
            assert t[TS.MINIS_LOST] == ((code == Ev.MINI_LOST) & (ev[:, 1] == s)).sum()
            assert t[TS.WAR_VP] == _war_vp(ev, s)
            assert not t[TS.XW_PENALTIES:].any(), "no Extended War tally in the normal game"
            fielded += int(armed.sum())
        war = (code == Ev.WAR)
        assert st.tally_g[TG.WARS_NATIVES] == (war & (ev[:, 1] == 1)).sum()
        assert st.tally_g[TG.WARS_PIRATES] == (war & (ev[:, 1] == 2)).sum()
        assert not st.tally_g[TG.XW_ROUNDS] and not st.tally_g[TG.XW_ATTACKERS]
        _check_records_are_the_tallies(st, n)
    assert fielded > 0


@pytest.mark.parametrize("expansion", [False, True])
def test_turns_and_rounds(rules, xrules, weights, expansion):
    """A turn is one main action (or the pass) after any free actions, so a seat's turns are its
    TURN rows of a main action, less the extra main actions card 51 gave it within a turn; a
    decade's rounds are the most turns any seat took in it (each round, every seat still in the
    phase takes one); with the expansion, a war round is one of them."""
    r = xrules if expansion else rules
    for seed in SEEDS:
        n = 4
        st = run_game(r, weights, n, seed, [0, 1, 1, 0], log=True)
        ev, _ = _events(st)
        last = int(st.g[G.LAST_DECADE])
        main = RG.ACTS + np.array([i for i, c in enumerate(GAME_COLUMNS[RG.ACTS:RG.GAINED]) if not c.startswith("act_f_")])
        for s in range(n):
            c51 = int(((ev[:, 0] == Ev.CARD_EFFECT) & (ev[:, 1] == s) & (ev[:, 2] == Card.C51) & (ev[:, 3] == 1)).sum())
            assert st.tally[s, TS.TURNS] == st.rec_game[s, main].sum() - c51
            assert ((ev[:, 0] == Ev.PASS) & (ev[:, 1] == s)).sum() == last  # the passing turn, once a decade
        turns = np.diff(st.rec_decade[:last, :n, RD.TALLY + TS.TURNS], axis=0, prepend=0)
        rounds = np.diff(st.rec_decade[:last, 0, RD.TALLY_G + TG.ROUNDS], prepend=0)
        assert np.array_equal(rounds, turns.max(axis=1))
        if expansion:
            assert st.tally_g[TG.XW_ROUNDS] > 0
        else:
            assert st.tally_g[TG.XW_ROUNDS] == 0


def test_military_av_is_the_war_rules_av(rules, xrules, weights):
    """The decade records' military_av: the base War's AV, or the Extended War's miniatures' AV."""
    for r, av in ((rules, rules.war_av), (xrules, xrules.xw_player_av)):
        st = run_game(r, weights, 4, 7, [1, 1, 1, 1])
        last = int(st.g[G.LAST_DECADE])
        for s in range(4):
            want = sum(int(av[k]) for k in st.minis[s, :, 0] if k != Mini.NONE)
            assert st.rec_decade[last - 1, s, RD.MILITARY_AV] == want
    assert not np.array_equal(rules.war_av[1:], xrules.xw_player_av[1:])


def test_pillage_falls_on_the_buildings_of_the_district(rules):
    """A pillage marker counts for each player with a Lot, House or Palace in its district, for no other."""
    from sim import extended_war as xw
    from sim.game import allocate
    from sim.state import AK, AS, XA, XG, B

    r = rules
    st = allocate(r)
    st.g[G.NPLAYERS] = 3
    st.order[:3] = np.arange(3)
    xw.clear_war(st)
    st.xw[XG.ACTIVE] = 1
    st.xw[XG.FACTION] = 1
    s1, s2 = 4, 5  # districts S1 and S2 (N1..N4, S1..S4)
    for i, (seat, d, b) in enumerate(((1, s1, B.HOUSE), (2, s1, B.PALACE), (0, s2, B.LOT))):
        c = int(r.district_cells[d, i])
        st.cell_b[c] = b
        st.cell_owner[c] = seat
    t = 0
    st.xw_att[t, XA.CARD] = -1
    st.xw_att[t, XA.KIND] = AK.INDIO
    st.xw_att[t, XA.STATE] = AS.OUTSIDE
    st.xw_att[t, XA.POS] = s1
    st.xw[XG.N_TILES] = 1
    xw.attacker_turn(st, r, t)  # enters S1 and pillages
    assert st.xw_pillage[s1] == 1 and list(st.tally[:3, TS.XW_PILLAGE]) == [0, 1, 1]
    xw.attacker_turn(st, r, t)  # pillages S1 again
    xw.attacker_turn(st, r, t)  # moves to S2 and pillages there
    assert st.xw_pillage[s2] == 1 and list(st.tally[:3, TS.XW_PILLAGE]) == [1, 2, 2]
