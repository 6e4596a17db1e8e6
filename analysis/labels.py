"""The one mapping from engine and table names to the words a reader of the rulebook knows (issue 23
part 6, "Readability"): every table header, chart legend and At-a-glance sentence of the report
and the compare page goes through it. The CSV and JSON files keep the engine's names (they are
data for programs); the page shows these.

VP sources: the engine records each VP change under one source (``sim.state.VS``, stored as the
``vp_<source>`` columns); each label names the rule that awards it, as the rulebook words it,
and was checked against the engine code that awards it (the comment after each entry).

Seats: the page numbers players by turn position at the start, 1..N, as the rulebook counts
players ("First Player", "in turn order"): the engine's seat s is turn position s + 1.
"""

from __future__ import annotations

VP_SOURCES: dict[str, str] = {
    "auction": "Character auction (VP bids)",  # SETUP, Character auction: the winner pays the VPs bid (sim.game.assign_character)
    "grid_last": "Last resource or coin taken (penalty)",  # COIN STACKS AND RESOURCE GRIDS: -1 VP (sim.economy)
    "build": "Minor building construction",  # 1-2. MINOR BUILDING CONSTRUCTION, VP on construction (sim.council_vote.building_put_up)
    "major_first": "First worker on a Major building",  # 11. MAJOR BUILDING, 2-6 VPs (sim.major_buildings)
    "major_spaces": "Major building spaces",  # 11. MAJOR BUILDING: the VPs on the spaces of a completed grid (sim.major_buildings)
    "recover": "Recover Workers (penalty)",  # FREE ACTIONS, Recover Workers: twice the first-worker VPs (sim.major_buildings.recover_workers_free)
    "warehouse": "City Warehouse (penalty)",  # FREE ACTIONS, Use City Warehouse: -2 VP per resource; card 28 (sim.actions.free)
    "salary": "Unpaid salaries (penalty)",  # A. SALARY: -2 VP per Affiliate card not paid (sim.deck)
    "council_vote": "City Council vote won",  # CITY COUNCIL VOTE: 4 VPs x Era to the winning side (sim.council_vote)
    "council_below": "City Council at 0 or below (penalty)",  # CITY COUNCIL VOTE: 2 VPs + 2 VPs x negative value (sim.council_vote.council_cost)
    "money": "Money (richest player)",  # VPS ASSIGNATION, Money: 7 VPs x Era (sim.scoring)
    "military": "Military (strongest miniature)",  # VPS ASSIGNATION, Military: 7 VPs x Era
    "banners": "Banners",  # VPS ASSIGNATION, Banners
    "faith": "Faith tokens (most)",  # VPS ASSIGNATION, Faith tokens: 7 VPs x Era
    "character": "Character cards",  # VPS ASSIGNATION, Characters
    "series": "Cards series",  # VPS ASSIGNATION, Cards series
    "card_status": "Cards status Level III",  # 10. IMPROVE STATUS, Cards status Level III: VPs per card colour x Era at Scoring
    "city": "City (Houses and Palaces)",  # VPS ASSIGNATION, City
    "end_council": "City Council VPs (end of game)",  # END OF THE GAME VPS VARIATIONS, City Council VPs (sim.scoring.end_game)
    "end_war": "War penalties (end of game)",  # END OF THE GAME VPS VARIATIONS, War VPs penalties (sim.scoring.end_game)
    "vp_status": "VP status bonus",  # 10. IMPROVE STATUS, VP status: +25/50/150% on one VP assignation (sim.core.assign_vp)
    "affiliate": "Affiliate card powers",  # AFFILIATE CARDS: VPs a card's power gives (sim.affiliates, sim.war)
}

# Table columns: the analysis tables' names (analysis/*) -> the page's header. Columns not listed
# are shown with underscores as spaces (names already in words, e.g. "tier A", "kendall tau").
COLUMNS: dict[str, str] = {
    "character": "Character", "character_a": "Character (row)", "character_b": "Character (column)",
    "seat": "turn position", "turn_position": "turn position",
    "expected": "fair share", "win_rate": "win rate", "diff": "difference", "p_holm": "Holm p",
    "mean_rank": "mean rank", "margin": "VP margin", "log_odds": "log odds", "odds_ratio": "odds ratio",
    "adjusted_win_rate": "adjusted win rate", "above": "finished above", "rate": "share above",
    "mu": "rating μ", "sigma": "σ", "ordinal": "ordinal (μ − 3σ)",
    "mean_vp": "mean VP", "sd_vp": "sd VP", "sd_rank": "sd rank", "source": "VP source", "period": "Era",
    "deficit_bin": "VP behind the leader", "lead_changes": "lead changes", "no_change": "no lead change",
    "final_flip": "final scoring changed the leader", "max_changes": "most lead changes", "changes": "lead changes",
    "wars_per_game": "Wars per game", "win_share": "fights won", "fielded": "fielded miniatures",
    "steps_per_loss": "War Penalty steps per lost fight", "mean_wa": "mean War Attack (WA)",
    "war_penalty": "War Penalty position", "n_yes": "n yes", "win_rate_yes": "win rate yes", "n_no": "n no",
    "win_rate_no": "win rate no", "av_bin": "peak Attack Value", "median": "median VP",
    "chi2": "chi-square", "df": "degrees of freedom",
    "win_rate_base": "baseline win rate", "sprt": "SPRT decision", "sprt_games": "SPRT games", "llr_plus": "LLR +",
    "llr_minus": "LLR −", "mde": "detectable change", "tie_rate": "tie rate", "character_spread": "Character spread",
    "winner_vp": "winner's VP", "win_margin": "winning margin", "beat_rate": "beats the A.I.", "ai": "A.I.",
    "ai_mean_vp": "A.I. mean VP",
    # the Extended War's tables and the War rules compared (analysis.wars)
    "seat_wars": "seat-Wars", "won": "won", "war_win_share": "Wars won", "fights_per_war": "Fight!s per seat-War",
    "fight_win_share": "Fight!s won", "penalties": "War penalties per seat-War", "cancelled": "cancelled by control cards",
    "pillage": "pillage markers on its districts", "steps_per_lost_war": "War Penalty steps per lost War", "by": "by",
    "kind": "kind", "wars": "Wars", "attackers": "attackers placed", "defeated": "attackers defeated",
    "left": "attackers left", "pillage_score": "pillage score", "rounds": "war rounds", "clean_share": "Wars with no penalty",
    "minis_lost": "miniatures lost", "war_vp": "VP the War assigned", "war_vp_base": "baseline VP the War assigned",
    "vp_from_wars": "VP from wars", "vp_from_wars_base": "baseline VP from wars",
}

# Values of the variant_paired table's ``metric`` column.
METRICS: dict[str, str] = {"mean_vp": "mean VP", "winner_vp": "winner's VP", "win_margin": "winning margin", "tie": "tie for first"}
# ... and of the War rules' comparison (analysis.wars.RULES_METRICS)
METRICS.update({k: v for k, v in (
    ("vp_from_wars", "VP from wars per seat"), ("war_vp", "VP the War assigned per seat (cards 34, 55, 57)"),
    ("vp_end_war", "War Penalty VP (end of game) per seat"), ("wars", "Wars fought per game"), ("wars_won", "Wars won per seat"),
    ("war_penalty", "final War Penalty position per seat"), ("minis_lost", "miniatures lost per seat"),
    ("rounds", "Action phase rounds per game"), ("turns", "turns per game (all seats)"))})


# Buildings (the compare page's ``building`` column: the games table's ``built_<type>`` columns and the
# final map counts), as sim.state.BUILDING_LABELS names them.
BUILDINGS: dict[str, str] = {
    "lot": "Lot", "house": "House", "palace": "Palace", "quarry": "Quarry", "carpentry": "Carpentry", "market": "Market",
    "corporation": "Corporation", "hacienda_wood": "Hacienda (wood)", "hacienda_stone": "Hacienda (stone)", "square": "Square",
    "monument": "Monument", "fountain": "Fountain", "barracks": "Barracks", "church": "Church",
    "houses_on_map": "Houses on the map at the end", "palaces_on_map": "Palaces on the map at the end",
}


# TURN option rows (sim.codes.Act: the games table's ``act_<name>`` columns) as the rulebook names the
# actions: B. ACTION PHASE numbers the main actions 1-11 (1-2 construction and activation of Minor
# Buildings, 11 the Major Building), FREE ACTIONS lists the free ones.
ACTIONS: dict[str, str] = {
    "PASS": "Pass",  # B. ACTION PHASE: "must pass" once the workers are used (or by choice)
    "BUILD": "1-2. Build a Minor building",
    "ACTIVATE": "2. Activate a Minor building",
    "REMOVE": "3. Remove House/Palace",
    "MILICIANO": "4. Deploy Milicianos",
    "SHIP": "5. Load the Ship",
    "CARD_DRAW": "6. Take a card: draw",  # 6. TAKE A CARD: from the deck
    "CARD_PILE": "6. Take a card: a discard pile",
    "CARD_BUY": "6. Take a card: buy",
    "REACTIVATE": "7. Reactivate Cards",
    "ORDER": "8. Player Order",
    "COUNCIL": "9. City Council",
    "STATUS": "10. Improve Status",
    "MAJOR": "11. Major building",
    "F_VOTE": "Call a City Council vote",  # CITY COUNCIL VOTE: the legislator's free action
    "F_BURN": "Burn an Affiliate card",
    "F_WAREHOUSE": "Use City Warehouse",
    "F_RECOVER": "Recover Workers",
    "F_REMOVE_LOT": "Remove a Lot",
    "F_CC_WORKER": "City Council worker (Worker status)",  # 10. IMPROVE STATUS, Worker status
    "F_FREE_REACT": "Reactivate Cards for free (Cards status II)",  # 10. IMPROVE STATUS, Cards status Level II
    "F_CARD": "Use an Affiliate card",
}


def action_label(name: str) -> str:
    """An action's name (``sim.codes.Act``) as the rulebook words it."""
    return ACTIONS.get(name.upper(), name.replace("_", " "))


def building_label(name: str) -> str:
    """A Minor building type (``built_<type>`` without the prefix) as the rulebook names it."""
    return BUILDINGS.get(name, name.replace("_", " "))


def source_label(source: str) -> str:
    """A VP source (``major_spaces`` or its column ``vp_major_spaces``; ``vp_status`` is a source
    itself, its column ``vp_vp_status``) as the rulebook names it."""
    s = source if source in VP_SOURCES else source.removeprefix("vp_")
    if s == "total":
        return "Total"
    return VP_SOURCES.get(s, s.replace("_", " "))


def column_label(col: str) -> str:
    """A table column's header on the page."""
    if col.startswith("vp_") and col.removeprefix("vp_") in VP_SOURCES:
        return source_label(col)
    return COLUMNS.get(col, col.replace("_", " "))


def value_label(col: str, value):
    """A cell's text where the engine's name is the value (VP sources, paired metrics); else ``value``."""
    if not isinstance(value, str):
        return value
    if col == "source":
        return source_label(value)
    if col == "metric":
        return METRICS.get(value, value.replace("_", " "))
    if col == "building":
        return BUILDINGS.get(value, value.replace("_", " "))
    return value


def turn_position(seat: int) -> int:
    """The engine's seat index (0-based, in turn order at the start) as the turn position 1..N."""
    return int(seat) + 1
