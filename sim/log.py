"""Turn the engine's event log (int rows) into an account a Trinidad player can follow."""

from __future__ import annotations

import numpy as np

from sim.codes import Ev, Law, XwUse
from sim.rules import RK
from sim.state import BANNER_NAMES, BUILDING_LABELS, GROUP_SIZE, N_CHARACTERS, VS_NAMES, G, Mini

RES = ["wood", "stone", "precious"]
STATUS = ["Construction", "Worker", "VP", "Cards"]
LAWS = {Law.MAJOR_BUILDING: "Major Building Act", Law.PEACE: "Peace Act", Law.WAR: "War Proclamation",
        Law.SPAIN: "Spain support Act"}
SIDES = ["abstains", "votes YES", "votes NO"]
FACTIONS = {1: "Natives", 2: "Pirates"}
MINI_NAMES = {Mini.MILICIANO: "Miliciano", Mini.MILICIANO_VET: "veteran Miliciano", Mini.SOLDIER: "Soldier",
              Mini.SOLDIER_VET: "veteran Soldier"}
ATTACKERS = ["Indio", "Warrior", "Freebooter", "Captain"]  # sim.state.AK
XW_USES = {XwUse.WAR_POWER: "plays the war power of {}", XwUse.BURN_AV: "burns {} for +AV", XwUse.BURN_FACTOR: "burns {} for x2 AV",
           XwUse.BURN_MOVE: "burns {} for one more move"}
TENSION_REASONS = ["empty grids", "empty precious grid/coin stacks", "card back", "War Proclamation", "Affiliate card"]


def affiliate_summary(doc: dict, c: int) -> str:
    """The one-line summary of Affiliate card id ``c`` from the rules file."""
    rows = doc.get("affiliate", [])
    i = c - 12
    return str(rows[i].get("summary", "")) if 0 <= i < len(rows) else ""


def _card(c: int, characters: list[str]) -> str:
    if c < 12:
        return f"Character #{c + 1} {characters[c]}"
    return f"Affiliate #{c + 1} ({characters[(c - N_CHARACTERS) // GROUP_SIZE]})"


def _cell(rules, c: int, district_names: list[str]) -> str:
    w = int(rules.k[RK.MAP_W])
    d = int(rules.cell_district[c])
    where = district_names[d] if d >= 0 else "-"
    return f"({c % w},{c // w}) {where}"


def _war_line(ev: Ev, x: tuple, S: list[str], districts: list[str], characters: list[str], attackers: dict[int, str]) -> str:
    """One EXTENDED WAR event (sim.extended_war) as a sentence; ``attackers`` names each War Opponent
    tile's miniature from its placement on."""
    a, b, c, d, e, f = x

    def where(k: int) -> str:
        return districts[k] if 0 <= k < len(districts) else "outside the city"

    def who(side: int, seat: int, k: int) -> str:
        return f"{S[seat]}'s war marker {k + 1}" if side == 0 else attackers.get(k, f"attacker {k + 1}")

    if ev == Ev.XW_SETUP:
        return f"  Combat Area: {b} Elite and {c} Standard {FACTIONS[a]} (War table row {d + 1}, column {e + 1})"
    if ev == Ev.XW_PLACE:
        attackers[a] = f"the {ATTACKERS[c]} of tile {a + 1}"
        return f"    {ATTACKERS[c]} on War Opponent tile {a + 1} ({_card(b, characters)}, Initiative {f}) waits by {where(d)}"
    if ev == Ev.XW_DEPLOY:
        return f"    {S[a]} places war marker {b + 1} in {where(c)}"
    if ev == Ev.XW_MOVE:
        return f"    {who(a, b, c)} moves {'into the city' if d < 0 else 'from ' + where(d)} to {where(e)}"
    if ev == Ev.XW_PILLAGE:
        return f"    {attackers.get(a, f'attacker {a + 1}')} pillages {where(b)} ({'two flames' if c >= 2 else 'one flame'})"
    if ev == Ev.XW_FIGHT:
        won = {0: f"{S[a]} wins", 1: "the attacker wins"}.get(f, "no winner")
        return f"    Fight! {who(0, a, b)} (AV {d}) against {who(1, -1, c)} (AV {e}): {won}"
    if ev == Ev.XW_CARD:
        if a == 0:
            return f"      {S[b]} " + XW_USES.get(d, "uses {}").format(_card(c, characters)) + (" (cancelled)" if e else "")
        return f"      the attackers play the war power of {_card(c, characters)}" + (" (cancelled)" if e else "")
    if ev == Ev.XW_WOUND:
        return f"      {who(a, b, c)} is wounded ({d} wound(s))"
    if ev == Ev.XW_REMOVED:
        return f"      {who(a, b, c)} is removed" + (f", defeated by {S[d]}" if a == 1 and d >= 0 else "")
    if ev == Ev.XW_END:
        return f"  END OF THE WAR with the {FACTIONS[a]}: pillage score {b}, {c} attacker(s) left"
    if ev == Ev.XW_PENALTY:
        res = "wins the War" if b - c <= 0 else f"War Penalty {d:+d}"
        return f"    {S[a]}: {b} War penalties, {c} cancelled by control cards: {res}" + (f", City Council {e}" if e else "")
    return f"  ({ev.name} {a} {b} {c} {d} {e} {f})"


def format_log(st, rules, rules_doc: dict, seat_names: list[str]) -> list[str]:
    """One line per event."""
    from sim.rules import character_names, major_names

    characters = character_names(rules_doc)
    majors = major_names(rules_doc)
    districts = rules_doc["map"]["district_names"]
    acts = [r.get("name", "?") + f" ({r['building']})" for r in rules_doc["activation"]]
    loads = [ld["name"] for ld in rules_doc["ship"]["load"]]
    out: list[str] = []
    attackers: dict[int, str] = {}  # War Opponent tile -> its attacker, as placed (EXTENDED WAR)
    n = int(st.g[G.LOG_N])
    S = seat_names
    burnt = (-1, -1)  # (seat, card) of the line just written for Ev.BURN
    for row in np.asarray(st.log[:n]):
        code, a, b, c, d, e, f, h = (int(x) for x in row)
        ev = Ev(code)
        if burnt != (-1, -1) and ev != Ev.XW_CARD:
            burnt = (-1, -1)
        if ev == Ev.SETUP_ORDER:
            out.append(f"{S[a]} sits at turn position {b + 1}")
        elif ev == Ev.START_RES:
            out.append(f"  {S[a]} starts with {b} wood, {c} stone, {d} silver, {e} bronze")
        elif ev == Ev.OFFER:
            out.append(f"  Character offer: {_card(a, characters)}")
        elif ev == Ev.DISK:
            out.append(f"  {S[a]} puts a disk on {_card(b, characters)}")
        elif ev == Ev.BID:
            out.append(f"    {S[a]} {'passes' if c == 0 else f'bids {c} VP'} for {characters[b]}")
        elif ev == Ev.CHARACTER:
            out.append(f"  {S[a]} takes the {characters[b]}" + (f" for {c} VP" if c else ""))
        elif ev == Ev.FIRST_GAME:
            out.append(f"  {S[a]} keeps the {characters[b]} (First Game Option)")
        elif ev == Ev.AFFILIATE_START:
            out.append(f"  {S[a]} receives the starting {_card(b, characters)}")
        elif ev == Ev.DECADE:
            out.append("")
            out.append(f"=== Decade {a} ({1570 + 10 * a}), Era {b} ===")
        elif ev == Ev.DRAW:
            out.append(f"{S[a]} draws {b} card(s) and " + (f"keeps {_card(c, characters)}" if c >= 0 else "keeps none"))
        elif ev == Ev.TAKE_PILE:
            pile = "the game discard pile" if b == 5 else f"{S[b]}'s discard pile"
            out.append(f"{S[a]} takes {_card(c, characters)} from {pile}")
        elif ev == Ev.SALARY:
            out.append(f"{S[a]} salary: {b} Affiliate card(s), {c} free, discards {h}, pays {d} bronze, {e} unpaid")
        elif ev == Ev.BUILD:
            cost = [f"{d} worker(s)"] + [f"{v} {nm}" for v, nm in ((e, "wood"), (f, "stone"), (h // 16, "precious"),
                                                                   (h % 16, "metal")) if v]
            out.append(f"{S[a]} builds a {BUILDING_LABELS[b]} at {_cell(rules, c, districts)}, paying {', '.join(cost)}")
        elif ev == Ev.ACTIVATE:
            out.append(f"{S[a]} activates the building at {_cell(rules, c, districts)}: {acts[b]}")
        elif ev == Ev.REMOVE:
            out.append(f"{S[a]} removes their {BUILDING_LABELS[b]} at {_cell(rules, c, districts)} (1 worker)")
        elif ev == Ev.MILICIANO:
            out.append(f"{S[a]} " + ("deploys a Miliciano (1 worker)" if b == 0
                                    else "makes a Miliciano veteran (1 worker, 1 precious)"))
        elif ev == Ev.MINI_UPGRADE:
            out.append(f"  {S[a]}'s miniature becomes a {MINI_NAMES.get(c, '?')}")
        elif ev == Ev.SHIP:
            out.append(f"{S[a]} loads the Ship: {loads[b]}")
        elif ev == Ev.CARD_BUY:
            out.append(f"{S[a]} buys {_card(b, characters)} from {S[c]} for 1 bronze")
        elif ev == Ev.REACTIVATE:
            out.append(f"{S[a]} will reactivate cards" + (f" ({b} worker(s))" if b else " (Card status, free)"))
        elif ev == Ev.ORDER:
            out.append(f"{S[a]} puts {b} worker(s) on Player Order")
        elif ev == Ev.COUNCIL:
            out.append(f"{S[a]} takes City Council ({b} worker(s)): +{c}, now {d}")
        elif ev == Ev.STATUS:
            out.append(f"{S[a]} improves {STATUS[b]} status to level {c}")
        elif ev == Ev.MAJOR:
            who = S[a]
            extra = f" and {d} City Council worker(s)" if d else ""
            out.append(f"{who} puts {c} worker(s){extra} on the {majors[b]} grid")
        elif ev == Ev.COMPLETE:
            where = f" at {_cell(rules, c, districts)}" if c >= 0 else ""
            out.append(f"  The {majors[a]} is completed; {S[b]} places it{where}")
        elif ev == Ev.DISPLACED:
            out.append(f"    the {BUILDING_LABELS[a]} at {_cell(rules, b, districts)} is removed")
        elif ev == Ev.WALL:
            out.append(f"    {S[a]} places a wall (segment {b})" + (" - the district is closed" if c else ""))
        elif ev == Ev.ROAD:
            out.append(f"    {S[a]} places the Road marker in {districts[b]}")
        elif ev == Ev.VOTE_CALL:
            what = LAWS[Law(b)] + (f" ({majors[c]})" if b == Law.MAJOR_BUILDING else "")
            out.append(f"{S[a]} rotates their Character card and calls a City Council vote: {what}")
        elif ev == Ev.VOTE:
            out.append(f"    {S[a]} {SIDES[b]}" + (f" with {c}" if b else ""))
        elif ev == Ev.VOTE_RESULT:
            out.append(f"  Yes {b}, No {c}: {'approved' if a else 'rejected'}" + (" (tie, council values)" if d else ""))
        elif ev == Ev.LAW:
            out.append(f"  Law applied: {LAWS[Law(a)]}")
        elif ev == Ev.BURN:
            out.append(f"{S[a]} burns {_card(b, characters)} (+1 AV)")
            burnt = (a, b)
        elif ev == Ev.CARD_ROTATE:
            pass
        elif ev == Ev.CARD_USE:
            out.append(f"{S[a]} uses {_card(b, characters)}: {affiliate_summary(rules_doc, b)}")
        elif ev == Ev.CARD_EFFECT:
            pass
        elif ev == Ev.WAREHOUSE:
            out.append(f"{S[a]} takes 1 {RES[b]} from the City Warehouse")
        elif ev == Ev.RECOVER:
            out.append(f"{S[a]} recovers {c} worker(s) from the {majors[b]} grid")
        elif ev == Ev.REMOVE_LOT:
            out.append(f"{S[a]} removes their Lot at {_cell(rules, b, districts)}")
        elif ev == Ev.CC_WORKER:
            out.append(f"{S[a]} takes {b} City Council worker(s) (Worker status)")
        elif ev == Ev.SHIP_PAY:
            got = [f"{c} bronze-value in coins" if c else "", f"{e} metal" if e else "", f"{f} faith" if f else ""]
            out.append(f"  The Ship pays {S[a]} for {loads[b]}: {', '.join(x for x in got if x) or 'nothing'}")
        elif ev == Ev.TENSION:
            out.append(f"  {FACTIONS[a]} tension +{b} ({TENSION_REASONS[c]}): space {d}" + (" (double disk)" if e else ""))
        elif ev == Ev.DISCARD_TOP:
            out.append(f"  Top card back: {b} Native, {c} Pirate symbol(s)")
        elif ev == Ev.NO_WAR:
            out.append("  No war" + (" (peace marker)" if a else ""))
        elif ev == Ev.WAR and f:
            when = "fought at once, the last decade's war rounds" if f == 2 else "fought in the Combat Area next decade"
            out.append(f"  WAR with the {FACTIONS[a]} (Tension level bonus +{c}): {when}")
        elif ev == Ev.WAR:
            out.append(f"  WAR with the {FACTIONS[a]}: WA = {b} + {c} (tension) - {d} (walls) = {e}")
        elif ev.name.startswith("XW_"):
            if ev == Ev.XW_CARD and a == 0 and d != XwUse.WAR_POWER and burnt == (b, c):
                out.pop()  # the burn's own line (Ev.BURN, told as a normal War's +AV): the war's use says it
            out.append(_war_line(ev, (a, b, c, d, e, f), S, districts, characters, attackers))
        elif ev == Ev.FIGHT:
            res = "wins" if c <= 0 else f"loses by {c}"
            extra = f", City Council {e}" if e else ""
            out.append(f"    {S[a]} fights with AV {b} and {res} (War Penalty {d:+d}{extra})")
        elif ev == Ev.MINI_LOST:
            out.append(f"    {S[a]}'s {MINI_NAMES.get(b, '?')} falls")
        elif ev == Ev.PEACE:
            out.append(f"  Peace marker on decade {a}")
        elif ev == Ev.ORDER_NEW:
            if b == 0:
                out.append("  Turn order: " + S[a])
            else:
                out[-1] += f", {S[a]}"
        elif ev == Ev.WORKERS_BACK:
            out.append(f"  {S[a]} takes back {c} worker(s) from the {majors[b]}")
        elif ev == Ev.SCORING:
            out.append(f"--- Scoring, Era {a} ---")
        elif ev == Ev.RESHUFFLE:
            out.append(f"  The discard piles are shuffled into the deck ({a} cards)")
        elif ev == Ev.REACTIVATED:
            out.append(f"  {S[a]} turns {_card(b, characters)} upright")
        elif ev == Ev.BANNER:
            out.append(f"  {S[a]} {'gains' if c == 1 else 'turns face-up'} the {BANNER_NAMES[b]} banner")
        elif ev == Ev.VP:
            out.append(f"    {S[a]} {b:+d} VP ({VS_NAMES[c].replace('_', ' ')}) -> {d}")
        elif ev == Ev.VP_WAIT:
            ahead = f"; +{c} VP on a larger assignation still to come in this Scoring" if c >= 0 else ""
            out.append(f"    {S[a]} keeps the VP status bonus for later (+{b} VP now{ahead})")
        elif ev == Ev.PASS:
            out.append(f"{S[a]} passes")
        elif ev == Ev.AI_CARD:
            face = rules_doc["solo"]["deck"]["value"][b] if 0 <= b < len(rules_doc["solo"]["deck"]["value"]) else "?"
            out.append(f"{S[a]} draws Solo card #{b + 1} ({face.replace('_', ' ')}, {e} worker(s))"
                       + ("" if d else ": it cannot be played"))
        elif ev == Ev.AI_DECK:
            out.append("  The A.I. deck is shuffled (2 cards face up under it)")
        elif ev == Ev.AI_RANDOM:
            where = _cell(rules, d, districts) if d >= 0 else "no free space"
            out.append(f"  Randomizer: Affiliate #{a}, {'top' if b == 0 else 'bottom'} row, count {c}: {where}")
        elif ev == Ev.AI_GAIN:
            what = RES[b] if b < 3 else "bronze-value in coins"
            out.append(f"  {S[a]} takes {c} {what}")
        elif ev == Ev.GAME_END:
            out.append(f"{S[a]}: {b} VP, rank {c}" + (" - WINNER" if d else ""))
    if int(st.g[G.LOG_DROPPED]):
        out.append(f"({int(st.g[G.LOG_DROPPED])} events did not fit the log buffer)")
    return out
