"""Pack the rules data file into arrays for the engine.

The engine never reads a rules number from a module global: everything below is packed into
:class:`Rules`, a NamedTuple of int32 arrays passed to every jitted function as an argument,
so a rules sweep (overrides) reuses the compiled, cached kernels.

The rules file's keys and the record live in :mod:`sim.rule_keys`, reading and overriding the
document in :mod:`sim.rule_overrides`, the map in :mod:`sim.rule_map`; this module packs a document
into the record, and its public names are those a caller needs (re-exported from those modules).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim import compiled_parts
from sim.rule_keys import (  # noqa: F401  (re-exported: the rules' public names)
    AP,
    COST_RES,
    IN_KEYS,
    MAJOR_KEYS,
    N_AP,
    N_RK,
    N_XK,
    N_XWP,
    OUT_KEYS,
    OUT_METAL,
    OUT_RES,
    PAY_METAL,
    RK,
    RK_DERIVED,
    RK_KEYS,
    WP_PARAMS,
    XK,
    XK_DERIVED,
    XK_RANGES,
    XWP,
    Rules,
    RulesError,
)
from sim.rule_map import build_map, combat_area
from sim.rule_overrides import (  # noqa: F401  (re-exported)
    DEFAULT_RULES,
    ai_strength_names,
    apply_overrides,
    character_names,
    load_rules_doc,
    major_names,
    rule_int,
    rule_ints,
    rule_value,
    rules_hash,
)
from sim.state import (
    GROUP_SIZE,
    MAX_MAJOR_SPACES,
    MINOR_NAMES,
    N_AI_CARDS,
    N_BANNERS,
    N_BUILDING_TYPES,
    N_CHARACTERS,
    N_GROUPS,
    N_SUP,
    SUPPLY_KEYS,
    B,
    Sup,
    pack,
)


def _banner_steps(doc: dict) -> np.ndarray:
    """``scoring.banner_steps``: 1 (face-up at once) or 2 (face-down, then face-up) per banner (sim.banners)."""
    v = rule_ints(doc, "scoring.banner_steps", N_BANNERS)
    if not np.isin(v, (1, 2)).all():
        raise RulesError(f"rules: scoring.banner_steps: each must be 1 or 2, got {v.tolist()}")
    return v



_AFF_RES = {"wood": 0, "stone": 1, "precious": 2, "coins": 3}
_AFF_DISTRICT = {"walls": 1, "roads": 2}
_AFF_NAMES = {"buildings", "grid", "resource", "district", "load", "majors", "ignore_adjacency", "take_from",
              "discount_kinds", "counts_as", "rounding"}


# Parameters the engine supports only in a range (others: any integer).
_AFF_RANGES = {
    "held_extra_decades": (0, 1),  # card 59: the engine holds the worker for this decade or the next (two counters)
}


def _card_rows(rows, table: str, number_key: str) -> list[tuple[int, str, dict]]:
    """The rows of a table with one row per Affiliate card ([[affiliate]], [[extended_war.power]]),
    checked to be one a card in card-number order: (card number, the row's key in messages, row)."""
    n_cards = N_CHARACTERS + N_GROUPS * GROUP_SIZE
    n_aff = n_cards - N_CHARACTERS
    if not isinstance(rows, list) or len(rows) != n_aff:
        raise RulesError(f"rules: {table}: expected {n_aff} [[{table}]] rows (cards {N_CHARACTERS + 1}..{n_cards})")
    out = []
    for i, row in enumerate(rows):
        num = N_CHARACTERS + 1 + i
        key = f"{table}[{num}]"
        if not isinstance(row, dict) or row.get(number_key) != num:
            got = row.get(number_key) if isinstance(row, dict) else row
            raise RulesError(f"rules: {key}.{number_key}: rows must be in card order {N_CHARACTERS + 1}..{n_cards}, got {got!r}")
        out.append((num, key, row))
    return out


def _affiliates(doc: dict, loads: list) -> dict:
    """The [[affiliate]] rows (CARD REFERENCE > AFFILIATE CARDS) as arrays indexed by card id."""
    rows = _card_rows(doc.get("affiliate"), "affiliate", "number")
    n_cards = N_CHARACTERS + N_GROUPS * GROUP_SIZE
    names = list(rule_value(doc, "cards.characters"))
    groups = [g.lower() for g in names]
    group = np.arange(n_cards, dtype=np.int32)
    light = np.zeros(n_cards, np.int32)
    p = np.zeros((n_cards, N_AP), np.int32)
    bld = np.zeros(n_cards, np.int32)
    grid = np.full(n_cards, -2, np.int32)
    res = np.full(n_cards, -1, np.int32)
    dist = np.zeros(n_cards, np.int32)
    load = np.full(n_cards, -1, np.int32)
    majors = np.zeros(n_cards, np.int32)
    load_names = [str(ld.get("name", "")) for ld in loads]
    for i, (num, key, row) in enumerate(rows):
        c = num - 1
        g = str(row.get("group", "")).lower()
        if g not in groups:
            raise RulesError(f"rules: {key}.group: allowed: {', '.join(names)}, got {row.get('group')!r}")
        if groups.index(g) != i // GROUP_SIZE:  # six cards per group in card-number order
            raise RulesError(f"rules: {key}.group: card {num} belongs to the {names[i // GROUP_SIZE]} group (R-09), got {row.get('group')!r}")
        group[c] = groups.index(g)
        if not isinstance(row.get("lightning"), bool):
            raise RulesError(f"rules: {key}.lightning: expected true or false")
        light[c] = int(row["lightning"])
        if row.get("source") not in ("rulebook", "ruling", "reading"):
            raise RulesError(f"rules: {key}.source: must be rulebook, ruling or reading")
        for pk, v in row.get("params", {}).items():
            if pk in _AFF_NAMES:
                continue
            if pk.upper() not in AP.__members__:
                raise RulesError(f"rules: {key}.params.{pk}: unknown parameter; allowed: {', '.join(a.name.lower() for a in AP)}")
            if isinstance(v, bool) or not isinstance(v, int):
                raise RulesError(f"rules: {key}.params.{pk}: expected an integer, got {v!r}")
            lo, hi = _AFF_RANGES.get(pk, (-(1 << 20), 1 << 20))
            if not lo <= v <= hi:
                raise RulesError(f"rules: {key}.params.{pk}: allowed {lo}..{hi}, got {v}")
            p[c, AP[pk.upper()]] = v
        prm = row.get("params", {})
        for b in prm.get("buildings", []):
            if b not in MINOR_NAMES:
                raise RulesError(f"rules: {key}.params.buildings: unknown building {b!r}")
            bld[c] |= 1 << MINOR_NAMES.index(b)
        if "grid" in prm:
            gname = prm["grid"]
            if gname != "any" and gname not in MAJOR_KEYS:
                raise RulesError(f"rules: {key}.params.grid: allowed: any, {', '.join(MAJOR_KEYS)}, got {gname!r}")
            grid[c] = -1 if gname == "any" else MAJOR_KEYS.index(gname)
        if "resource" in prm:
            if prm["resource"] not in _AFF_RES:
                raise RulesError(f"rules: {key}.params.resource: allowed: {', '.join(_AFF_RES)}, got {prm['resource']!r}")
            res[c] = _AFF_RES[prm["resource"]]
        if "district" in prm:
            if prm["district"] not in _AFF_DISTRICT:
                raise RulesError(f"rules: {key}.params.district: allowed: {', '.join(_AFF_DISTRICT)}, got {prm['district']!r}")
            dist[c] = _AFF_DISTRICT[prm["district"]]
        if "load" in prm:
            ln = prm["load"]
            if ln == "3 identical":
                load[c] = -2
            elif ln in load_names:
                load[c] = load_names.index(ln)
            else:
                raise RulesError(f"rules: {key}.params.load: allowed: 3 identical, {', '.join(load_names)}, got {ln!r}")
        for m in prm.get("majors", []):
            if m not in MAJOR_KEYS:
                raise RulesError(f"rules: {key}.params.majors: unknown Major building {m!r}")
            majors[c] |= 1 << MAJOR_KEYS.index(m)
    return {"aff_group": group, "aff_lightning": light, "aff_p": p, "aff_buildings": bld, "aff_grid": grid,
            "aff_res": res, "aff_district": dist, "aff_load": load, "aff_majors": majors}


def _solo(doc: dict, k: np.ndarray) -> dict:
    """The [solo] section (TWO PLAYERS GAME & SOLO MODE): the A.I.'s strength, workers, Characters
    and its deck of Solo cards; fills the derived scalars of ``k``."""
    from sim.codes import AiCard

    names = list(rule_value(doc, "solo.strengths"))
    if not names or not all(isinstance(x, str) for x in names) or len(set(names)) != len(names):
        raise RulesError(f"rules: solo.strengths: expected distinct names, got {names!r}")
    strength = rule_value(doc, "solo.strength")
    if strength not in names:
        raise RulesError(f"rules: solo.strength: allowed: {', '.join(names)}, got {strength!r}")
    k[RK.AI_STRENGTH] = names.index(strength)
    workers = rule_ints(doc, "solo.workers", len(names))
    if (workers < 1).any():
        raise RulesError(f"rules: solo.workers: each strength needs 1 or more workers, got {workers.tolist()}")
    for rk, key in ((RK.AI_ODD_ROW, "solo.randomizer_odd_row"), (RK.AI_EVEN_ROW, "solo.randomizer_even_row")):
        v = rule_value(doc, key)
        if v not in ("top", "bottom"):
            raise RulesError(f"rules: {key}: allowed: top, bottom, got {v!r}")
        k[rk] = 0 if v == "top" else 1
    chars = rule_value(doc, "solo.characters")
    lower = [c.lower() for c in rule_value(doc, "cards.characters")]
    if not isinstance(chars, list) or not chars or len(chars) > N_CHARACTERS - 1 or \
            not all(isinstance(c, str) and c.lower() in lower for c in chars) or len({c.lower() for c in chars}) != len(chars):
        raise RulesError(f"rules: solo.characters: expected distinct Character names of cards.characters, got {chars!r}")
    deck = rule_value(doc, "solo.deck")
    kinds = [a.name.lower() for a in AiCard]
    if not isinstance(deck, list) or len(deck) != N_AI_CARDS or not all(x in kinds for x in deck):
        raise RulesError(f"rules: solo.deck: expected {N_AI_CARDS} Solo cards, each one of {', '.join(kinds)}, got {deck!r}")
    deck_workers = rule_ints(doc, "solo.deck_workers", N_AI_CARDS)
    if (deck_workers < 1).any():
        raise RulesError(f"rules: solo.deck_workers: every Solo card costs 1 or more workers, got {deck_workers.tolist()}")
    return {"ai_workers": workers, "ai_chars": np.array([lower.index(c.lower()) for c in chars], np.int32),
            "ai_deck": np.array([kinds.index(x) for x in deck], np.int32), "ai_deck_workers": deck_workers}


def _extended_war(doc: dict, mp: dict, w: int, h: int) -> dict:
    """The [extended_war] section (EXTENDED WAR) and its Combat Area, derived from the city map (R-04)."""
    from sim.codes import WP_NAMES
    from sim.state import MAX_TILES, N_AK, N_CARDS

    xk = np.zeros(N_XK, np.int32)
    for m in XK:
        if m in XK_DERIVED:
            continue
        key = f"extended_war.{m.name.lower()}"
        xk[m] = rule_int(doc, key)
        lo, hi = XK_RANGES.get(m, (0, 1 << 20))
        if not lo <= xk[m] <= hi:
            raise RulesError(f"rules: {key}: must be in {lo}..{hi}, got {xk[m]}")
    if xk[XK.OPPONENT_TILES] > MAX_TILES:
        raise RulesError(f"rules: extended_war.opponent_tiles: at most {MAX_TILES}")
    for key, xkey, names in (("extended_war.round_order", XK.ORDER_BY_TILE, ("card", "tile")),
                             ("extended_war.friends", XK.FRIENDS_SIDE, ("own", "side"))):
        v = rule_value(doc, key)
        if v not in names:
            raise RulesError(f"rules: {key}: allowed: {', '.join(names)}, got {v!r}")
        xk[xkey] = names.index(v)
    table = rule_value(doc, "extended_war.war_table")
    n_rows = int(xk[XK.TABLE_SKULL_ROWS]) + 4
    arr = np.array(table, dtype=object) if isinstance(table, list) else None
    if arr is None or arr.shape != (n_rows, 3, 2) or not all(isinstance(x, int) and x >= 0 for x in arr.ravel()):
        raise RulesError(f"rules: extended_war.war_table: expected {n_rows} rows (extended_war.table_skull_rows skull rows, "
                         f"then 5, 4, 3, 2 players) of 3 Eras of [elite, standard] counts >= 0, got {table!r}")
    xw_table = arr.astype(np.int32)
    if (xw_table.sum(axis=2) > xk[XK.OPPONENT_TILES]).any():
        raise RulesError(f"rules: extended_war.war_table: a cell needs more attackers than extended_war.opponent_tiles ({xk[XK.OPPONENT_TILES]})")
    pav = rule_ints(doc, "extended_war.player_av", 4)
    php = rule_ints(doc, "extended_war.player_hp", 4)
    aav = rule_ints(doc, "extended_war.attacker_av", N_AK)
    ahp = rule_ints(doc, "extended_war.attacker_hp", N_AK)
    if (php < 1).any() or (ahp < 1).any():
        raise RulesError("rules: extended_war.player_hp / attacker_hp: every miniature needs 1 or more HP")
    era = rule_ints(doc, "extended_war.control_era", GROUP_SIZE)
    if not np.isin(era, (1, 2, 3)).all():
        raise RulesError(f"rules: extended_war.control_era: each Era must be 1, 2 or 3, got {era.tolist()}")
    pillage = rule_ints(doc, "extended_war.pillage_score", 2)

    kind = np.zeros(N_CARDS, np.int32)
    prm = np.zeros((N_CARDS, N_XWP), np.int32)
    for num, key, row in _card_rows(rule_value(doc, "extended_war.power"), "extended_war.power", "card"):
        if row.get("source") not in ("rulebook", "ruling", "reading"):
            raise RulesError(f"rules: {key}.source: must be rulebook, ruling or reading")
        kd = row.get("kind")
        if kd not in WP_PARAMS:
            raise RulesError(f"rules: {key}.kind: allowed: {', '.join(WP_PARAMS)}, got {kd!r}")
        kind[num - 1] = WP_NAMES.index(kd)
        given = set(row) - {"card", "kind", "source", "ref", "why"}
        if given != set(WP_PARAMS[kd]):
            want = ", ".join(WP_PARAMS[kd]) or "none"
            raise RulesError(f"rules: {key}: a {kd} power has the parameters {want}, got {', '.join(sorted(given)) or 'none'}")
        for pk in WP_PARAMS[kd]:
            v = row[pk]
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 100:
                raise RulesError(f"rules: {key}.{pk}: expected an integer 0..100, got {v!r}")
            prm[num - 1, XWP[pk.upper()]] = v

    dist, edges = combat_area(mp, w, h)
    xk[XK.N_EDGES] = len(edges)
    return {"xw_k": xk, "xw_table": xw_table,
            "xw_player_av": np.concatenate([[0], pav]).astype(np.int32), "xw_player_hp": np.concatenate([[0], php]).astype(np.int32),
            "xw_att_av": aav, "xw_att_hp": ahp, "xw_att_box": rule_ints(doc, "extended_war.attacker_miniatures", N_AK),
            "xw_control_era": era, "xw_pillage_score": np.concatenate([[0], pillage]).astype(np.int32),
            "xw_power_kind": kind, "xw_power_p": prm, "xw_dist": dist, "xw_edges": np.array(edges, np.int32)}



def rules_from_doc(doc: dict) -> Rules:
    """Validate a rules document and pack it into :class:`Rules` arrays."""
    k = np.zeros(N_RK, np.int32)
    for rk, key in RK_KEYS.items():
        k[rk] = rule_int(doc, key)
    mp = build_map(doc)
    k[RK.MAP_W], k[RK.MAP_H] = mp.pop("w"), mp.pop("h")
    xw = _extended_war(doc, mp, int(k[RK.MAP_W]), int(k[RK.MAP_H]))
    solo = _solo(doc, k)

    nb = N_BUILDING_TYPES
    b_cost = np.zeros((nb, 5), np.int32)
    b_requires = np.zeros(nb, np.int32)
    b_cp, b_vp, b_dv, b_prod = (np.zeros(nb, np.int32) for _ in range(4))
    b_sup = np.full(nb, -1, np.int32)
    sup_of = {"quarry": Sup.QUARRY, "carpentry": Sup.CARPENTRY, "market": Sup.MARKET,
              "corporation": Sup.CORP_HACIENDA, "hacienda_wood": Sup.CORP_HACIENDA,
              "hacienda_stone": Sup.CORP_HACIENDA, "square": Sup.SQUARE, "monument": Sup.MONUMENT,
              "fountain": Sup.FOUNTAIN, "barracks": Sup.BARRACKS, "church": Sup.CHURCH, "palace": Sup.PALACE}
    for t in range(1, len(MINOR_NAMES)):
        name = MINOR_NAMES[t]
        base = f"building.{name}"
        for j, f in enumerate(("workers", "wood", "stone", "precious", "metal")):
            b_cost[t, j] = rule_int(doc, f"{base}.{f}")
        req = rule_value(doc, f"{base}.requires")
        if req != "none" and req not in MINOR_NAMES:
            raise RulesError(f"rules: {base}.requires: expected none or a building name, got {req!r}")
        b_requires[t] = 0 if req == "none" else MINOR_NAMES.index(req)
        b_cp[t] = rule_int(doc, f"{base}.cp")
        b_vp[t] = rule_int(doc, f"{base}.vp")
        b_dv[t] = rule_int(doc, f"{base}.district_value")
        b_prod[t] = int(bool(rule_value(doc, f"{base}.production")))
        if name in sup_of:
            b_sup[t] = sup_of[name]
    b_dv[B.CABILDO] = k[RK.DISTRICT_BONUS]
    b_dv[B.CATHEDRAL] = k[RK.DISTRICT_BONUS]

    rows = doc.get("activation")
    if not isinstance(rows, list) or not rows:
        raise RulesError("rules: activation: expected a list of [[activation]] rows")
    na = len(rows)
    act_b, act_w, act_kind, act_needs, act_needs_not, act_real = (np.zeros(na, np.int32) for _ in range(6))
    act_in = np.zeros((na, 6), np.int32)
    act_out = np.zeros((na, 9), np.int32)
    kinds = {"trade": 0, "soldier": 1, "veteran_soldier": 2}
    for i, r in enumerate(rows):
        key = f"activation[{i}]"
        if r.get("building") not in MINOR_NAMES[1:]:
            raise RulesError(f"rules: {key}.building: expected a minor building name, got {r.get('building')!r}")
        if r.get("source") not in ("rulebook", "ruling", "reading"):
            raise RulesError(f"rules: {key}.source: must be rulebook, ruling or reading")
        act_b[i] = MINOR_NAMES.index(r["building"])
        act_w[i] = int(r.get("workers", 1))
        for kk, v in r.get("inp", {}).items():
            if kk not in IN_KEYS:
                raise RulesError(f"rules: {key}.inp.{kk}: allowed: {', '.join(IN_KEYS)}")
            act_in[i, IN_KEYS.index(kk)] = int(v)
        for kk, v in r.get("out", {}).items():
            if kk not in OUT_KEYS:
                raise RulesError(f"rules: {key}.out.{kk}: allowed: {', '.join(OUT_KEYS)}")
            act_out[i, OUT_KEYS.index(kk)] = int(v)
        kind = r.get("kind", "trade")
        if kind not in kinds:
            raise RulesError(f"rules: {key}.kind: allowed: {', '.join(kinds)}, got {kind!r}")
        act_kind[i] = kinds[kind]
        needs = r.get("needs", "")
        act_needs[i] = act_needs_not[i] = -1
        if needs:
            neg = needs.startswith("!")
            nm = needs.lstrip("!")
            if nm not in MAJOR_KEYS:
                raise RulesError(f"rules: {key}.needs: allowed: a Major building name, optionally with '!', got {needs!r}")
            if neg:
                act_needs_not[i] = MAJOR_KEYS.index(nm)
            else:
                act_needs[i] = MAJOR_KEYS.index(nm)
        act_real[i] = int(bool(r.get("real", False)))

    loads = doc.get("ship", {}).get("load")
    if not isinstance(loads, list) or not 1 <= len(loads) <= 8:
        raise RulesError("rules: ship.load: expected 1..8 [[ship.load]] rows (3 wood, 3 stone, triplet, coins...)")
    nl = len(loads)
    ship_put = np.array([ld["put"] for ld in loads], np.int32)
    ship_pay = np.array([ld["pay"] for ld in loads], np.int32)
    ship_spain = np.array([ld["spain"] for ld in loads], np.int32)
    if ship_put.shape != (nl, 5) or ship_pay.shape != (nl, 4) or ship_spain.shape != (nl, 4):
        raise RulesError("rules: ship.load: put has 5 entries, pay and spain 4")
    ship_needs = np.full(nl, -1, np.int32)
    ship_needs_not = np.full(nl, -1, np.int32)
    for i, ld in enumerate(loads):
        needs = ld.get("needs", "")
        if needs:
            nm = needs.lstrip("!")
            if nm not in MAJOR_KEYS:
                raise RulesError(f"rules: ship.load[{i}].needs: allowed: a Major building name, optionally with '!', got {needs!r}")
            (ship_needs_not if needs.startswith("!") else ship_needs)[i] = MAJOR_KEYS.index(nm)

    supply_n = np.zeros((4, N_SUP), np.int32)
    for j, name in enumerate(SUPPLY_KEYS):
        supply_n[:, j] = rule_ints(doc, f"supply.{name}", 4)
    # the whole box of cubes and coins starts in the game supply (setup fills the grids and stacks
    # from it), and so do the Peace markers (SETUP 4e: "at the end of the tension tracks")
    for slot, key in ((Sup.WOOD, "components.wood"), (Sup.STONE, "components.stone"),
                      (Sup.PRECIOUS, "components.precious"), (Sup.METAL, "components.metal"),
                      (Sup.SILVER, "components.silver"), (Sup.BRONZE, "components.bronze"),
                      (Sup.PEACE, "setup.peace_markers")):
        supply_n[:, slot] = rule_int(doc, key)

    major_spaces = np.zeros((6, 4), np.int32)
    major_space_vp = np.zeros((6, MAX_MAJOR_SPACES), np.int32)
    for m, name in enumerate(MAJOR_KEYS):
        sp = rule_ints(doc, f"major.{name}.spaces", 4)
        vp = rule_ints(doc, f"major.{name}.space_vp")
        if len(vp) > MAX_MAJOR_SPACES or sp.max() > len(vp):
            raise RulesError(f"rules: major.{name}.spaces: at most {min(len(vp), MAX_MAJOR_SPACES)} (the printed spaces), got {sp.tolist()}")
        if sp.min() < 1:
            raise RulesError(f"rules: major.{name}.spaces: every grid needs at least 1 space")
        major_spaces[m] = sp
        major_space_vp[m, : len(vp)] = vp

    council_vp = rule_ints(doc, "council.vp", 16)
    n_pen = k[RK.PENALTY_MAX] - k[RK.PENALTY_MIN] + 1
    penalty_vp = rule_ints(doc, "war.penalty_vp")
    if len(penalty_vp) != n_pen:
        raise RulesError(f"rules: war.penalty_vp: needs one entry per position war.penalty_min..war.penalty_max ({n_pen}), got {len(penalty_vp)}")
    if k[RK.COUNCIL_MIN] > k[RK.COUNCIL_MAX] or not k[RK.COUNCIL_MIN] <= k[RK.COUNCIL_START] <= k[RK.COUNCIL_MAX]:
        raise RulesError("rules: setup.council_start: need council.track_min <= setup.council_start <= council.track_max")
    # a building's activation rows, so that listing them does not scan every row (sim.actions)
    act_rows = np.full((N_BUILDING_TYPES, na), -1, np.int32)
    act_nrows = np.zeros(N_BUILDING_TYPES, np.int32)
    for i in range(na):
        act_rows[act_b[i], act_nrows[act_b[i]]] = i
        act_nrows[act_b[i]] += 1
    if k[RK.RED_ZONE] >= k[RK.TENSION_SPACES]:
        raise RulesError(f"rules: tension.red_zone_start: must be < tension.spaces ({k[RK.TENSION_SPACES]})")

    r = Rules(
        k=k, b_cost=b_cost, b_requires=b_requires, b_cp=b_cp, b_vp=b_vp, b_dv=b_dv, b_prod=b_prod, b_sup=b_sup,
        act_b=act_b, act_w=act_w, act_in=act_in, act_out=act_out, act_kind=act_kind, act_needs=act_needs,
        act_needs_not=act_needs_not, act_real=act_real, act_rows=act_rows, act_nrows=act_nrows, ship_put=ship_put, ship_pay=ship_pay,
        ship_spain=ship_spain, ship_needs=ship_needs, ship_needs_not=ship_needs_not, supply_n=supply_n,
        grid_cubes=rule_ints(doc, "setup.grid_cubes", 4),
        council_gain=rule_ints(doc, "actions.council_gain", 2), council_vp=council_vp,
        vote_tiles=rule_ints(doc, "council.vote_tiles", 4),
        st_workers=rule_ints(doc, "status.level_workers", 3), st_silver=rule_ints(doc, "status.level_silver", 3),
        vp_bonus_pct=rule_ints(doc, "status.vp_bonus_pct", 3), card_free=rule_ints(doc, "status.card_salary_free", 3),
        card_l3_half=rule_ints(doc, "status.card_l3_half_vp_per_colour", 4),
        worker_cc=rule_ints(doc, "status.worker_council_workers", 3),
        worker_bronze=rule_ints(doc, "status.worker_bronze", 3),
        war_av=np.concatenate([[0], rule_ints(doc, "war.av", 4)]).astype(np.int32),
        war_wo=np.concatenate([[0], rule_ints(doc, "war.wounds_max", 4)]).astype(np.int32),
        penalty_vp=penalty_vp,
        ten_single=rule_ints(doc, "tension.single_modifier", 8), ten_double=rule_ints(doc, "tension.double_modifier", 8),
        major_first_vp=rule_ints(doc, "major.first_vp", 6),
        major_rep=np.array([int(bool(x)) for x in rule_value(doc, "major.repeatable")], np.int32),
        major_spaces=major_spaces, major_space_vp=major_space_vp,
        major_vp_order=np.argsort(-major_space_vp, axis=1, kind="stable").astype(np.int32),
        back_symbols=np.array(rule_value(doc, "cards.back_symbols"), np.int32).reshape(6, 2),
        banner_vp=rule_ints(doc, "scoring.banner_vp_per_era", 7), banner_steps=_banner_steps(doc),
        series_vp=rule_ints(doc, "scoring.series_vp", 8),
        series_vp_cab=rule_ints(doc, "scoring.series_vp_cabildo", 8),
        char_bonus=rule_ints(doc, "character.small_game_bonus", 12),
        architect_n=rule_ints(doc, "character.architect_buildings", 2),
        architect_vp=rule_ints(doc, "character.architect_vp", 2),
        **mp,
        **_affiliates(doc, loads),
        **solo,
        **xw,
        xw_compiled=compiled_parts.marker(compiled_parts.EXTENDED_WAR, bool(xw["xw_k"][XK.ENABLED])),
        ai_compiled=compiled_parts.marker(compiled_parts.SOLO_AI, False),
    )
    return pack(r)  # one record: the jitted engine takes it as a single pointer (see sim.state)


def load_rules(path: str | Path | None = None, overrides: dict | str | Path | None = None) -> Rules:
    """Load the rules file (default: the bundled one), apply overrides, validate, pack."""
    return rules_from_doc(load_rules_doc(path, overrides))

