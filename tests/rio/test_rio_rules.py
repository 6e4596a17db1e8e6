"""Río de la Plata's rules data (rio/rulesdata/rio-de-la-plata.toml) and its loader (rio.rules): every leaf
tagged with a real rulebook heading or ruling, the packing into arrays named by enums, the rulebook's
worked examples whose numbers are pure data (quoted), the RP-07 city map's constraints, and overrides
whose every error is one line."""

from __future__ import annotations

import copy
import subprocess
import sys
import tomllib
from collections import Counter, deque
from pathlib import Path

import numpy as np
import pytest

from rio import formulas as f
from rio.rules import (
    BK,
    CK,
    DEFAULT_RULES,
    LK,
    MK,
    OK,
    PLAYER_COUNTS,
    PLAZA,
    Activation,
    Building,
    Count,
    District,
    Edge,
    Exchange,
    K,
    Level,
    Major,
    Office,
    Pool,
    RulesError,
    Side,
    check_tags,
    leaf_paths,
    level_index,
    load_rules,
    load_rules_doc,
    load_sources,
    pack,
    rulebook_headings,
    ruling_ids,
)

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT.parent / "shared" / "rules" / "rio-de-la-plata"  # CI clones shared/ beside the repository
needs_shared = pytest.mark.skipif(not (RULES_DIR / "rulebook-en.md").is_file(), reason=f"no rules at {RULES_DIR}")

R = load_rules()
DOC = load_rules_doc()
RAW = tomllib.loads(DEFAULT_RULES.read_text())


def err(overrides=None, doc=None) -> str:
    """The RulesError message of loading with ``overrides`` (or packing ``doc``); must be one line."""
    with pytest.raises(RulesError) as e:
        if doc is not None:
            pack(doc)
        else:
            load_rules(overrides=overrides)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith("rules: "), msg
    return msg


# ---------------------------------------------------------------------------------------------- loader
def test_packs_into_arrays_sized_by_the_enums():
    assert R.k.shape == (len(K),)
    assert R.level.shape == (len(Level), len(LK))
    assert R.by_count.shape == (len(Count), len(CK))
    assert R.building.shape == (len(Building), len(BK))
    assert R.building_pool.shape == (len(Building), len(Pool))
    assert R.exchange_pay.shape == R.exchange_gain.shape == (len(Exchange), 5)
    assert R.major.shape[0] == len(Major) and R.major_space_on.shape[:2] == (len(Count), len(Major))
    assert R.office.shape == (len(Office), len(OK))
    assert R.map_edge.shape == (10, 16, len(Side)) and R.district_centre.shape == (len(District), 2)
    for name in ("k", "level", "building", "major", "major_space_vp", "office", "enemy_bonus", "by_count", "exchange_gain"):
        assert getattr(R, name).dtype == np.int32, name  # money and VP
    assert PLAYER_COUNTS == (2, 3, 4, 5)


def test_every_leaf_is_tagged_and_read():
    leaves = leaf_paths(RAW)
    assert len(leaves) > 300
    assert check_tags(RAW) == len(leaves)
    for key, leaf in leaves.items():
        assert leaf["source"] in ("rulebook", "ruling", "reading"), key
        if leaf["source"] == "reading":
            assert len(leaf["why"]) > 40, key


def test_readings_are_the_listed_ones():
    readings = sorted(k for k, v in leaf_paths(RAW).items() if v["source"] == "reading")
    assert readings == ["office.governor.noble_distinct", "office.master_merchant.free_any",
                        "short_game.forced_last_turn_war", "trade.players_trade"]
    assert R.k[K.TRADE_PLAYERS_TRADE] == 0  # the rulebook allows trades; the engine's reading: none


@pytest.mark.parametrize("leaf, says", [
    ({"value": 1, "source": "rulebook", "ref": "NO SUCH SECTION"}, "names no section heading"),
    ({"value": 1, "source": "rulebook", "ref": "War check"}, "names no section heading"),  # headings as printed
    ({"value": 1, "source": "rulebook", "ref": "WAR CHEK"}, "names no section heading"),
    ({"value": 1, "source": "ruling", "ref": "RP-99"}, "no ruling"),
    ({"value": 1, "source": "ruling", "ref": "CANNONS"}, "must start with a ruling"),
    ({"value": 1, "source": "rulebook", "ref": "RP-19"}, "must start with a rulebook heading"),
    ({"value": 1, "source": "reading", "ref": "CANNONS"}, "needs its reason"),
    ({"value": 1, "source": "guess", "ref": "CANNONS"}, "source must be"),
    ({"value": 1, "source": "rulebook"}, "ref missing"),
    ({"value": 1, "source": "rulebook", "ref": "CANNONS", "note": "x"}, "unexpected field"),
])
def test_a_bad_tag_is_one_line(leaf, says):
    doc = copy.deepcopy(RAW)
    doc["war"]["cannon_fixed"] = leaf
    with pytest.raises(RulesError) as e:
        check_tags(doc)
    assert says in str(e.value) and "war.cannon_fixed" in str(e.value) and "\n" not in str(e.value)


def test_good_refs_pass():
    doc = copy.deepcopy(RAW)
    doc["war"]["cannon_fixed"] = {"value": 6, "source": "rulebook", "ref": "CANNONS (bet + 6); RP-19; WAR: step 3"}
    check_tags(doc)


@needs_shared
def test_bundled_sources_match_the_shared_texts():
    headings, rulings = load_sources()
    assert headings == rulebook_headings((RULES_DIR / "rulebook-en.md").read_text())
    assert rulings == ruling_ids((RULES_DIR / "RULINGS.md").read_text())
    assert rulings == [f"RP-{i:02d}" for i in range(1, 26)]
    text = (RULES_DIR / "rulebook-en.md").read_text()
    for h in ("GAME PREPARATION", "C | END OF TURN CHECKS AND WAR", "PUBLIC OFFICE TABLE", "CANNONS", "VARIANTS", "FAQ",
              "MINOR BUILDING ACTIVATION", "MAJOR BUILDING CHARACTERISTICS"):
        assert h in headings and h in text


def test_heading_extraction():
    text = "GAME PREPARATION\n\n- 1) NOT A HEADING,\nSome text.\nMINOR BUILDING ACTIVATION. Some of the minor\n**WAR**\nA\tB\tC\nWAR\n"
    assert rulebook_headings(text) == ["GAME PREPARATION", "MINOR BUILDING ACTIVATION", "WAR"]
    assert ruling_ids("## RP-01 Precedence\ntext RP-02\n## RP-03 X\n") == ["RP-01", "RP-03"]


def test_import_compiles_nothing():
    code = "import sys, rio, rio.rules, rio.formulas; rio.rules.load_rules(); assert 'numba' not in sys.modules, 'numba'"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# ---------------------------------------------------------------------------------------------- overrides
def test_the_front_door_names_every_public_name():
    # rio.rules re-exports rio.keys and rio.tags through their __all__: a public name defined there and
    # left out of it would not be importable from the front door
    import ast

    import rio.rules

    for name in ("keys", "tags"):
        mod = __import__(f"rio.{name}", fromlist=["_"])
        tree = ast.parse(Path(mod.__file__).read_text())
        defined = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
        defined |= {t.id for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))
                    for t in getattr(n, "targets", [getattr(n, "target", None)]) if isinstance(t, ast.Name)}
        public = {n for n in defined if not n.startswith("_")}
        assert sorted(public - set(mod.__all__)) == [], f"rio.{name}.__all__"
        assert all(getattr(rio.rules, n) is getattr(mod, n) for n in mod.__all__)


def test_override_changes_the_packed_value():
    r = load_rules(overrides={"war.free_tokens": 3, "office": {"gunner": {"cost": 4}}, "level.start_wood": [5, 4, 3]})
    assert r.k[K.WAR_FREE_TOKENS] == 3 and r.office[Office.GUNNER, OK.COST] == 4
    assert r.level[:, LK.START_WOOD].tolist() == [5, 4, 3]
    assert R.k[K.WAR_FREE_TOKENS] == 2  # the default untouched
    short = load_rules(overrides={"major.harbor.space_vp": [4, 3, 2, 2, 1, 0], "major.harbor.space_players": [3, 3, 4, 5, 3, 3]})
    assert f.grid_vps(short, Major.HARBOR, 5) == [4, 3, 2, 2, 1, 0]


@pytest.mark.parametrize("overrides, says", [
    ({"war.no_such_rule": 1}, "rules: war.no_such_rule: no such rule; keys under [war]:"),
    ({"nowhere.x": 1}, "rules: nowhere.x: no such rule; sections:"),
    ({"setup.start_wood": 3}, "rules: setup.start_wood: a Trinidad rule, not a Río de la Plata one"),
    ({"council.track_max": 9}, "rules: council.track_max: a Trinidad rule"),
    ({"character.most_vp": 5}, "rules: character.most_vp: a Trinidad rule"),  # a shorthand of Trinidad's file is one of its keys
    ({"war.free_tokens": "two"}, "rules: war.free_tokens: expected an integer"),
    ({"war.free_tokens": True}, "rules: war.free_tokens: expected an integer"),
    ({"level.start_wood": [1, 2]}, "rules: level.start_wood: expected a list of 3"),
    ({"war.free_tokens": -1}, "rules: war.free_tokens: must be >= 0"),
    ({"major.ineffective_worker_vp": 3}, "rules: major.ineffective_worker_vp: must be <= 0"),
    ({"order.tie": "sideways"}, "rules: order.tie: allowed: later first, earlier first"),
    ({"level.names": ["novice", "intermediate", "expert"]}, "rules: level.names: the engine's levels are"),
    ({"building.house.requires": "castle"}, "rules: building.house.requires: allowed:"),
    ({"building.square.tiles": ["palace"]}, "rules: building.square.tiles: allowed"),
    ({"major.harbor.space_players": [3, 3]}, "rules: major.harbor.space_players: one entry per space"),
    ({"major.walls.short_removed": 4}, "rules: major.walls.short_removed: must leave spaces"),
    ({"enemies.bonus": [0, 1, 2]}, "rules: enemies.bonus: expected a list of 8"),
    ({"enemies.natives_advance": [2] * 19}, "rules: enemies.natives_advance: values must be in 0..1"),
    ({"exchange.church.building": "hut"}, "rules: exchange.church.building: hut is not activated by a worker"),
    ({"map.districts": ["1111222233334444"] * 10}, "rules: map.districts: district(s) [5, 6, 7, 8] have no space"),
    ({"map.special": ["...."] * 10}, "rules: map.special: expected 10 rows of 16 characters"),
    ({"game.players": [2, 3, 4, 6]}, "rules: game.players: the engine plays [2, 3, 4, 5] players"),
    ({"short_game.turns": 21}, "rules: short_game.turns: must be <= game.turns"),
])
def test_a_bad_override_is_one_line(overrides, says):
    assert says in err(overrides)


def test_the_other_games_file_and_bad_names_are_one_line(tmp_path):
    trinidad = ROOT / "sim" / "rulesdata" / "trinidad.toml"
    if trinidad.is_file():
        with pytest.raises(RulesError, match=r"^rules: .*trinidad.toml: meta.game is None, expected 'rio-de-la-plata'"):
            load_rules(trinidad)
    bad = tmp_path / "bad.toml"
    bad.write_text("[meta]\ngame = 'rio-de-la-plata'\n[war\n")
    with pytest.raises(RulesError, match=r"^rules: .*bad.toml: "):
        load_rules(bad)
    with pytest.raises(RulesError, match="^rules: level: allowed: beginner, intermediate, expert, got 'novice'$"):
        level_index("novice")
    assert level_index("Intermediate") == Level.INTERMEDIATE
    with pytest.raises(RulesError, match="^rules: players: allowed 2..5, got 6$"):
        f.enemy_bonus(R, 5, Level.EXPERT, 6)


def test_a_leaf_the_loader_does_not_read_is_an_error():
    doc = copy.deepcopy(DOC)
    doc["war"]["surrender_vp"] = {"value": 1, "source": "rulebook", "ref": "WAR"}
    assert "rules: war.surrender_vp: no such rule (the loader reads no such key)" == err(doc=doc)
    doc = copy.deepcopy(DOC)
    del doc["office"]["bishop"]
    assert err(doc=doc).startswith("rules: office: missing [office.bishop]")


# ---------------------------------------------------------------------------------------------- preparation
def test_preparation_by_experience_level():
    # GAME PREPARATION: "BEGINNERS: 4 wood, 4 stones, 4 silver coins. INTERMEDIATES: 3 ... EXPERTS: 2 ..."
    assert [f.start_resources(R, lv, False) for lv in Level] == [(4, 4, 4), (3, 3, 3), (2, 2, 2)]
    # "The last player of the first turn will receive +1 wood and +1 stone resource cubes as bonus"
    assert f.start_resources(R, Level.EXPERT, True) == (3, 3, 2)
    # VARIANTS (Short game): "all players gain +1 silver coin and +1 wood and +1 stone resource"
    assert f.start_resources(R, Level.EXPERT, False, short=True) == (3, 3, 3)
    assert (R.k[K.GAME_WORKERS], R.k[K.GAME_USABLE_WORKERS], R.k[K.GAME_WORKERS_PER_TURN]) == (10, 9, 5)
    assert (R.k[K.GAME_TURNS], R.k[K.SHORT_GAME_TURNS], R.k[K.GAME_FIRST_YEAR]) == (20, 15, 1580)


# ---------------------------------------------------------------------------------------------- minor buildings
def test_minor_building_table():
    # MINOR BUILDING CHARACTERISTICS, VP column: Hut - House - Stonecutter - Carpenter - Market - Corporation -
    # Square 6, Monument 3, Garden 3, Barracks 6, Church 3.
    assert R.building[:, BK.VP].tolist() == [0, 0, 0, 0, 0, 0, 6, 3, 3, 6, 3]
    # COST column "2", "1 1 1", "1 2", "1 2", "2 2 2", "2 2 2 1", "1 1 1", "2 1 1", "2 1 1", "2 3 2 1", "2 1 2 1": the
    # first number is workers (RP-02), the others the resources in some order.
    printed = ["2", "1 1 1", "1 2", "1 2", "2 2 2", "2 2 2 1", "1 1 1", "2 1 1", "2 1 1", "2 3 2 1", "2 1 2 1"]
    for b, cost in zip(Building, printed):
        nums = [int(x) for x in cost.split()]
        res = [int(x) for x in R.building[b, [BK.WOOD, BK.STONE, BK.PRECIOUS]] if x]
        assert R.building[b, BK.WORKERS] == nums[0] and sorted(res) == sorted(nums[1:]), b.name
    req = {b: R.building[b, BK.REQUIRES] for b in Building}
    assert req[Building.HOUSE] == Building.HUT and req[Building.CORPORATION] == Building.MARKET
    assert req[Building.MONUMENT] == req[Building.GARDEN] == Building.SQUARE
    assert R.k[K.SQUARE_MIN_NEIGHBOURS] == 5 and not R.k[K.SQUARE_SQUARES_COUNT]
    # THE CITY DISTRICTS: "There can be only 1 Church, Garden, Monument and Barracks building in each district"
    assert [b.name for b in Building if R.building[b, BK.PER_DISTRICT] == 1] == ["MONUMENT", "GARDEN", "BARRACKS", "CHURCH"]
    assert [b.name for b in Building if R.building[b, BK.OWNED]] == ["HUT", "HOUSE"]
    assert R.building[Building.BARRACKS, BK.ACTIVATION] == Activation.PASSIVE
    # CONTENTS OF THE GAME BOX: 13 hut-house per colour, 3 + 3 square tiles, 5 church-barracks, 4 market-corporation,
    # 6 stonecutter-carpenter; each tile double-sided, so the two faces share the count.
    assert R.pool_tiles.tolist() == [13, 3, 3, 5, 4, 6] and R.pool_per_colour.tolist() == [1, 0, 0, 0, 0, 0]
    assert (R.building_pool.sum(0) == [2, 2, 2, 2, 2, 2]).all()
    assert R.building_pool[Building.SQUARE].tolist() == [0, 1, 1, 0, 0, 0]


def test_effects_example():
    # EFFECTS OF THE WORKERS: "he converts the pair into a Hut (this does not require additional costs in resources)
    # and the single worker into a Stonecutter. For the Stonecutter, he will have to pay 2 wood resources."
    hut, sc = R.building[Building.HUT], R.building[Building.STONECUTTER]
    assert hut[BK.WORKERS] == 2 and hut[[BK.WOOD, BK.STONE, BK.PRECIOUS]].sum() == 0
    assert sc[BK.WORKERS] == 1 and sc[BK.WOOD] == 2 and sc[[BK.STONE, BK.PRECIOUS]].sum() == 0


def test_activations():
    # BUILDING ACTIVATION: Stonecutter 1 stone -> 3 stone; Market 1 wood/stone -> 1 silver, 1 precious -> 2;
    # Corporation 3 / 4 ("as the market +2", log 2.0.0); Church 1 silver -> 2 VP, 3 VP with the Cathedral.
    pay, gain = R.exchange_pay, R.exchange_gain
    assert pay[Exchange.STONECUTTER].tolist() == [0, 1, 0, 0, 0] and gain[Exchange.STONECUTTER].tolist() == [0, 3, 0, 0, 0]
    assert gain[Exchange.CARPENTER].tolist() == [3, 0, 0, 0, 0]
    for m, c in ((Exchange.MARKET_WOOD, Exchange.CORPORATION_WOOD), (Exchange.MARKET_STONE, Exchange.CORPORATION_STONE),
                 (Exchange.MARKET_PRECIOUS, Exchange.CORPORATION_PRECIOUS)):
        assert (pay[m] == pay[c]).all() and gain[c, 3] == gain[m, 3] + 2
    assert gain[Exchange.MARKET_PRECIOUS, 3] == 2 and gain[Exchange.CORPORATION_PRECIOUS, 3] == 4
    assert gain[Exchange.CHURCH, 4] == 2 and gain[Exchange.CHURCH_CATHEDRAL, 4] == 3 and pay[Exchange.CHURCH, 3] == 1
    assert (R.k[K.ACTIVATION_PER_TURN], R.k[K.ACTIVATION_PER_TURN_ROAD_CONNECTED]) == (1, 2)


def test_substitution_example():
    # 1) INSIDE THE CITY MAP: "there are 2 green workers on a space and the black player wants to occupy it. To do
    # so, he has to place 4 workers. If he does that, the 2 green workers and one black worker are removed: 3 black
    # workers will remain in the space."
    assert f.substitution(R, 2) == (4, 3)
    assert f.substitution(R, 1) == (2, 1)
    with pytest.raises(ValueError):
        f.substitution(R, 3)  # RP-04: three are safe (6 > 5 workers a turn)


# ---------------------------------------------------------------------------------------------- Major buildings
def test_fort_example():
    # HOW TO BUILD A MAJOR BUILDING: "14 VPs to the green player; 4 VPs to the yellow; the red player receives 7 VPs
    # plus the bonus for the completion of 4 VPs (total 11 VPs)." Green took the top-left space, red a 4 point
    # space, the last space left is worth 3 points; the example is a 3-player grid (RP-10).
    grid = f.grid_vps(R, Major.FORT, 3)
    assert grid[0] == 5 and sum(grid) == 14 + 4 + 7
    green, yellow, red = [5, 4, 3, 2], [2, 1, 1, 0], [4, 3]
    assert sorted(green + yellow + red) == sorted(grid)
    assert (f.completion_vp(R, Major.FORT, green, False), f.completion_vp(R, Major.FORT, yellow, False),
            f.completion_vp(R, Major.FORT, red, True)) == (14, 4, 11)
    assert R.major[Major.FORT, MK.WOOD] == R.major[Major.FORT, MK.STONE] == 1  # "1 wood and 1 stone resource for each space"
    assert R.major[Major.HARBOR, MK.COMPLETION_VP] == 2
    assert R.major[:, MK.COMPLETION_VP].tolist() == [0, 0, 4, 2, 0, 0]


def test_road_grid_filled_alone():
    # "if a player fills all the spaces of the road grid by himself, he will receive 4 VPs in Effect Phase."
    for n in PLAYER_COUNTS:
        assert sum(f.grid_vps(R, Major.ROADS, n)) == 4
    assert R.major[Major.ROADS, [MK.WOOD, MK.STONE, MK.WOOD_OR_STONE]].sum() == 0  # "no resources needed"
    assert R.major[Major.WALLS, MK.WOOD_OR_STONE] == 1 and R.major[Major.WALLS, MK.PIECES] == R.major[Major.ROADS, MK.PIECES] == 3


def test_grids_by_player_count():
    # RP-10: Palace, Cathedral, Fort 10/12/14 spaces and 25/30/35 VP at 3/4/5 players; Harbor 6/7/8; the 2-player
    # game uses the 3-player grids (VARIANTS (2 players)).
    for m in (Major.PALACE, Major.CATHEDRAL, Major.FORT):
        assert [len(f.grid_vps(R, m, n)) for n in PLAYER_COUNTS] == [10, 10, 12, 14]
        assert [sum(f.grid_vps(R, m, n)) for n in PLAYER_COUNTS] == [25, 25, 30, 35]
    assert [len(f.grid_vps(R, Major.HARBOR, n)) for n in PLAYER_COUNTS] == [6, 6, 7, 8]
    assert R.k[K.MAJOR_INEFFECTIVE_WORKER_VP] == -3
    assert R.major[:, MK.REPEATABLE].tolist() == [0, 0, 0, 0, 1, 1]


def test_short_game_grids():
    # VARIANTS (Short game): "The last space (0 VP value) on Harbor, Roads, and Walls grids are not available. The
    # last two spaces (VP value of 0 and 1) on the other mayor building grids are not available."
    for n in PLAYER_COUNTS:
        for m in Major:
            want = [0] if m in (Major.HARBOR, Major.ROADS, Major.WALLS) else [1, 0]
            assert f.grid_removed_short(R, m, n) == want, (m.name, n)
    assert R.k[K.SHORT_GAME_OFFICE_END_VP] == 3


# ---------------------------------------------------------------------------------------------- other areas
def test_mine_and_forest():
    # 3. ON THE OTHER AREAS: "in a 5-player game the first 3 spaces need 1 worker to produce 1 resource; the next 2
    # require 2 workers for each resource; the last one requires 3 workers".
    assert [f.mine_workers(R, 5, i) - f.mine_workers(R, 5, i - 1) for i in range(1, 7)] == [1, 1, 1, 2, 2, 3]
    # MINE AND FOREST (4 players): "the White and Green players use one worker to receive 1 stone resource each. The
    # Yellow and Red players have to use 2 workers for each resource."
    assert [f.mine_workers(R, 4, i) - f.mine_workers(R, 4, i - 1) for i in range(1, 5)] == [1, 1, 2, 2]
    assert R.mine_space_on.sum(1).tolist() == [4, 4, 5, 6]
    # FIELD WORK AND ARTISAN WORK: "The Green player places 2 workers on the field work area ... will receive 1 coin"
    assert f.field_silver(R, 2) == 1 and f.field_silver(R, 3) == 1


def test_ship_example():
    # SHIP: "the Yellow player places 2 workers and Green places 1 ... the Yellow player loads 5 resources and Green
    # loads 2 resources" (up to 3 for each worker); capacity "21 resources when there are 3 players, 28 with 4 and
    # 35 with 5"; 2 players as 3 (RP-13).
    assert f.ship_load_limit(R, 2) >= 5 and f.ship_load_limit(R, 1) >= 2 and f.ship_load_limit(R, 1) == 3
    assert [f.ship_capacity(R, n) for n in PLAYER_COUNTS] == [21, 21, 28, 35]
    # "if the current turn is 1590, the purple token is placed on the 1592 turn"
    assert 1590 + R.k[K.SHIP_VOYAGE_TURNS] == 1592
    # Return: wood/stone 1 silver, precious 2 silver + 1 VP, triplet 4 silver + 3 VP.
    assert f.ship_payout(R, 1, 1, 1) == (4, 3)
    assert f.ship_payout(R, 2, 1, 2) == (4 + 1 + 2, 3 + 1)
    assert (R.k[K.SHIP_PAID_DEPARTURE_SILVER], R.k[K.OFFICE_SHIPOWNER_DEPARTURE_SILVER], R.k[K.OFFICE_SHIPOWNER_SHIPMENT_VP]) == (2, 1, 3)


def test_money_for_resources():
    # TRADES AND MONEY USE: "The first virtual [resource] of the current game turn costs 1 silver coin, his second
    # resource costs 2 silver coins, his third resource 3 silver"; defenders "the first additional defender costs 1
    # silver coin, the second 2"; VARIANTS (2 players): "with 1 silver coin he can buy 1 troop for both colors ...,
    # with 3 coins 2 troops".
    assert [f.virtual_resources_price(R, n) for n in range(4)] == [0, 1, 3, 6]
    assert [f.defender_tokens_price(R, n) for n in range(4)] == [0, 1, 3, 6]
    assert R.k[K.MONEY_SILVER_PER_GOLD] == 5


# ---------------------------------------------------------------------------------------------- Public Offices
def test_public_office_table():
    # PUBLIC OFFICE TABLE: cost in silver and the minimum VP, in the table's order.
    assert R.office[:, OK.COST].tolist() == [5, 5, 5, 5, 5, 5, 10, 15, 8, 15, 20, 25]
    assert R.office[:, OK.VP_REQUIRED].tolist() == [7, 7, 10, 10, 10, 10, 20, 25, 15, 30, 40, 50]
    assert R.office[:, OK.END_VP].tolist() == [5, 0, 0, 0, 5, 5, 8, 12, 0, 0, 0, 12]
    # 2) PUBLIC OFFICES: "the Master Carpenter and the Gunner both provide 5 VPs"
    assert R.office[Office.MASTER_CARPENTER, OK.END_VP] == R.office[Office.GUNNER, OK.END_VP] == 5
    assert R.k[K.OFFICE_FINE_VP] == -5 and R.k[K.OFFICE_PER_PLAYER_PER_TURN] == 1
    assert (R.k[K.OFFICE_ARCHITECT_MAJOR_VP], R.k[K.OFFICE_BISHOP_CHURCH_VP], R.k[K.OFFICE_GOVERNOR_DISTRICT_VP]) == (7, 4, 6)
    assert (R.k[K.OFFICE_DEFENDER_CLOSED_DISTRICT_VP], R.k[K.OFFICE_ROADMAKER_CONNECTED_DISTRICT_VP]) == (3, 2)
    assert sum(R.building[:, BK.NOBLE]) == 5 and R.k[K.OFFICE_GOVERNOR_NOBLE_MIN] == 4


def test_player_order_example():
    # PLAYER ORDER: "1) White, 2) Black, 3) Red, 4) Green ... Red and Green players each add a worker ... the green
    # have to move first and after the red player ... the green choose to move ... to be the first one. The red
    # player chooses to stay ... 1) Green, 2) White, 3) Black, 4) Red."
    order = ["white", "black", "red", "green"]
    assert f.order_movers(R, order, {"red": 1, "green": 1}) == ["green", "red"]
    assert f.slide(order, "green", 0) == ["green", "white", "black", "red"]
    assert f.order_movers(R, order, {"white": 2, "red": 1}) == ["red", "white"]  # the fewest added first


# ---------------------------------------------------------------------------------------------- war
def test_number_of_attackers_example():
    # WAR (step 2): "if there are 3 workers on the City Map and 4 defending players, the attacker will use
    # 3+(4x2) = 11 attackers"
    assert f.attackers(R, 3, 4, 0) == 11
    assert f.attackers(R, 3, 4, f.enemy_bonus(R, 5, Level.EXPERT, 5)) == 11 + 1


def test_attacker_bonus_examples():
    # BONUS AND NUMBER OF ATTACKERS: "if a war with the Natives takes place (purple marker) the bonus will be +3
    # attackers. If a war with the Pirates ... +1" (Natives at 5, Pirates at 3: WAR CHECK); "the bonus value for 6
    # die result is +3; the bonus value for 8 die result is +4."
    assert (R.enemy_bonus[5], R.enemy_bonus[3], R.enemy_bonus[6], R.enemy_bonus[8]) == (3, 1, 3, 4)
    # "in 4 intermediate player game a bonus of +4 is modified to +2 (+4-1-1=+2) and a bonus of +1 is modified to 0"
    assert f.enemy_bonus(R, 7, Level.INTERMEDIATE, 4) == 2 and f.enemy_bonus(R, 8, Level.INTERMEDIATE, 4) == 2
    assert f.enemy_bonus(R, 3, Level.INTERMEDIATE, 4) == 0
    # "Beginner players applies a modifier of -2 ... in 5 players apply a modifier of -2"
    assert f.enemy_bonus(R, 9, Level.BEGINNER, 5) == 5 - 2 - 2
    assert f.enemy_bonus(R, 9, Level.EXPERT, 3) == 5 and f.enemy_bonus(R, 9, Level.EXPERT, 2) == 5
    off = load_rules(overrides={"enemies.player_count_modifier_on": False})  # IT: "regola opzionale" (RP-01)
    assert f.enemy_bonus(off, 7, Level.INTERMEDIATE, 4) == 3


def test_cannons_example():
    # CANNONS: "bets that he will manage to kill 3 attackers: 3 + 6 = 9 ... The player has the Gunner character and
    # therefore adds +1 to his dice throw. He throws the dice and the result is 8 that with the +1 bonus becomes a 9.
    # The player receives 6 VPs (only because he has the Gunner tile) and he removes 3 enemy tokens."
    assert f.cannon_target(R, 3) == 9
    kills = f.cannon_kills(R, 3, 8, gunner=True)
    assert kills == 3 and f.cannon_vp(R, kills, gunner=True) == 6
    assert f.cannon_kills(R, 3, 8, gunner=False) == 0  # "If the result of the roll is lower, nothing happens."
    assert f.cannon_vp(R, f.cannon_kills(R, 3, 9, gunner=False), gunner=False) == 0  # no Gunner: no VP


def test_battle_examples():
    # BATTLE 1: "The two pairs are destroyed. If attackers were Pirates, 1 attacker would have survived (dominance).
    # The Yellow player scores 8 VPs (4 points for the two attackers and 4 VPs for the yellow defenders)."
    assert f.battle(R, 2, 2, False, False) == (0, 0)
    assert f.battle(R, 2, 2, True, False) == (1, 0)
    assert f.battle(R, 2, 2, True, True) == (0, 0)  # "if both groups have dominance the effect is nullified"
    assert f.defender_battle_vp(R, killed=2, lost=2) == 8
    # BATTLE 2: "the pair (purple) destroys the single defender (green). Then ... the group destroys the building and
    # 1 attacker is destroyed. The Green player scores 2 VPs for the lost defender; the attacker scores 2 points for
    # the destroyed Hut."
    att, dfn = f.battle(R, 2, 1, False, False)
    assert (att, dfn) == (2, 0) and f.building_battle(R, att) == 1
    assert f.defender_battle_vp(R, killed=0, lost=1) == 2 and R.building[Building.HUT, BK.ATTACKER_VP] == 2
    # BATTLE 3: "Both the attacker and building are destroyed. The attacker scores 6 VPs for the building destruction."
    assert f.building_battle(R, 1) == 0 and R.building[Building.STONECUTTER, BK.ATTACKER_VP] == 6
    # WAR: "2 VPs for each destroyed Hut, 4 VPs for each House, 6 VPs for each of the other minor building, 12 VPs
    # for the Cathedral and the Palace"
    assert R.building[:, BK.ATTACKER_VP].tolist() == [2, 4] + [6] * 9
    assert R.major[:, MK.ATTACKER_VP].tolist() == [12, 12, 0, 0, 0, 0]
    assert R.war_move.tolist() == [0, 3, 2, 1]


def test_war_check_and_track():
    # C | END OF TURN CHECKS AND WAR: back 2 spaces in 5 players, 3 in 4, 4 in 3-2; 1 war a player (2 in the
    # 2-player game); TURN CHANGE: "in advancing from 1581 to 1582, the feather symbol of the Natives".
    assert R.by_count[:, CK.ENEMY_RETREAT].tolist() == [4, 4, 3, 2]
    assert R.by_count[:, CK.WARS_PER_PLAYER].tolist() == [2, 1, 1, 1]
    assert R.track_advance[1, 0] == 1  # transition index 1 = 1581 -> 1582, Natives
    assert R.track_advance.shape == (R.k[K.GAME_TURNS] - 1, 2)
    assert (R.k[K.ENEMIES_MIN_VALUE], R.k[K.ENEMIES_MAX_VALUE], R.k[K.ENEMIES_DICE], R.k[K.ENEMIES_DIE_FACES]) == (2, 9, 2, 6)


# ---------------------------------------------------------------------------------------------- scoring
def test_city_vp_example():
    # 3) CITY: "there are 2 production buildings (-1), a Barracks (+1) and a monument (+1). The district provides a
    # bonus of +1 and therefore every house provides 3 VPs (2+1). The Green player receives 3 VPs (1 house ...), the
    # Red player receives 9 VPs (3 houses)".
    value = f.district_value(R, {Building.MARKET: 1, Building.STONECUTTER: 1, Building.BARRACKS: 1, Building.MONUMENT: 1,
                                 Building.HOUSE: 5, Building.HUT: 2})
    assert value == 1 and f.house_vp(R, value) == 3 and 3 * f.house_vp(R, value) == 9
    # "A single building does not generate any penalty but 2 buildings are worth -1, 3 buildings generate a -2"
    assert [f.district_value(R, {Building.CARPENTER: n}) for n in (1, 2, 3)] == [0, -1, -2]
    assert f.house_vp(R, -5) == 0  # "The value of a house is at least 0"
    assert f.district_value(R, {}, [Major.PALACE, Major.CATHEDRAL, Major.FORT, Major.HARBOR], road_connected=True) == 3 + 2 + 1
    assert f.money_vp(R, 11) == (3, 2)  # 1 VP per 3 silver; the 2 left are the first tie-break


# ---------------------------------------------------------------------------------------------- the city map (RP-07)
def spaces(mask):
    return {(int(y), int(x)) for y, x in zip(*np.nonzero(mask))}


def connected(cells, diagonal=False):
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen, q = {start}, deque([start])
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)] + ([(-1, -1), (-1, 1), (1, -1), (1, 1)] if diagonal else [])
    while q:
        y, x = q.popleft()
        for dy, dx in steps:
            n = (y + dy, x + dx)
            if n in cells and n not in seen:
                seen.add(n)
                q.append(n)
    return seen == cells


def test_map_districts():
    d = R.map_district
    h, w = d.shape
    assert (w, h) == (16, 10)  # RP-07: 16 x 10
    sizes = Counter(int(v) for v in d.ravel())
    assert [sizes[i] for i in range(8)] == [20, 20, 20, 20, 20, 18, 18, 20] and sizes[PLAZA] == 4
    for i in range(8):
        assert connected(spaces(d == i)), f"district {i + 1} in one piece"
    # "1 2 3 4 / 5 6 7 8" (IT figure): districts 1-4 along the north, 5-8 along the south, west to east.
    assert [int(np.nonzero(d == i)[1].mean() // 4) for i in range(8)] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert all(np.nonzero(d == i)[0].max() < np.nonzero(d == i + 4)[0].min() for i in range(4))
    # centres: vertices inside their district (the four spaces around the vertex are the district's)
    for i, (cx, cy) in enumerate(R.district_centre):
        assert {int(d[cy - 1 + dy, cx - 1 + dx]) for dy in (0, 1) for dx in (0, 1)} == {i}, i + 1


def test_map_plaza_and_ring():
    d = R.map_district
    plaza = spaces(d == PLAZA)
    ys = {y for y, _ in plaza}
    assert max(ys) == d.shape[0] - 1  # reaches the walled South edge (FAQ: no entry from the South through it)
    near = {(y + dy, x + dx) for y, x in plaza for dy in (-1, 0, 1) for dx in (-1, 0, 1)} - plaza
    near = {(y, x) for y, x in near if 0 <= y < d.shape[0] and 0 <= x < d.shape[1]}
    assert {int(d[c]) for c in near} == {5, 6}  # between the two central districts 6 and 7
    assert spaces(R.map_ring) == near and len(near) == 8  # the 8 spaces surrounding the Plaza Mayor
    assert Counter(int(d[c]) for c in near) == {5: 4, 6: 4}


def test_map_walls_and_access_points():
    e, d = R.map_edge, R.map_district
    assert (e[-1, :, Side.SOUTH] == Edge.WALL).all()  # "the South side ... completely closed by pre-made walls"
    assert (e == Edge.OPEN).sum() == 20  # RP-07: 20 open access points
    to_close = {i + 1: int((e[d == i] == Edge.OPEN).sum()) for i in range(8)}
    assert to_close == {1: 5, 2: 2, 3: 2, 4: 5, 5: 3, 6: 0, 7: 0, 8: 3}
    # The two central districts' only outer side is the walled South (FAQ); the six perimeter districts have W/N/E sides.
    for i in range(8):
        outer = e[d == i][:, [Side.NORTH, Side.EAST, Side.WEST]] != Edge.INNER
        assert outer.any() == bool(R.district_perimeter[i]), i + 1
    assert R.district_perimeter.tolist() == [1, 1, 1, 1, 1, 0, 0, 1]


def test_map_starting_line():
    s, d, e = R.map_start, R.map_district, R.map_edge
    line = spaces(s == 1)
    assert len(line) == 20
    central = spaces((d == 5) | (d == 6) | (d == PLAZA))
    assert not (line & central)  # IT FAQ: "Solo la linea senza considerare i quartieri al suo interno"
    # it encloses the two central districts: flooding from them (diagonals too) without crossing the line never
    # reaches a space with a W/N/E outer edge
    free = spaces(s == 0)
    seen, q = set(central), deque(central)
    while q:
        y, x = q.popleft()
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                n = (y + dy, x + dx)
                if n in free and n not in seen:
                    seen.add(n)
                    q.append(n)
    assert not any((e[c][[Side.NORTH, Side.EAST, Side.WEST]] != Edge.INNER).any() for c in seen)
    assert connected(line, diagonal=False)


def test_map_road_distances():
    # RP-07: "road distance to the Plaza 10, 6, 6, 10, 6, 2, 2, 6 segments"; RP-08: a piece is a unit segment
    # between two city spaces (Plaza borders included, never the outer edge).
    d = R.map_district
    h, w = d.shape

    def space(x, y):  # 1-based space (x, y), None off the map
        return int(d[y - 1, x - 1]) if 1 <= x <= w and 1 <= y <= h else None

    def neighbours(X, Y):
        for (X2, Y2), a, b in (((X + 1, Y), space(X + 1, Y), space(X + 1, Y + 1)), ((X - 1, Y), space(X, Y), space(X, Y + 1)),
                               ((X, Y + 1), space(X, Y + 1), space(X + 1, Y + 1)), ((X, Y - 1), space(X, Y), space(X + 1, Y))):
            if a is not None and b is not None and not (a == PLAZA and b == PLAZA):
                yield X2, Y2

    corners = {(x - 1 + i, y - 1 + j) for y, x in ((y + 1, x + 1) for y, x in spaces(d == PLAZA)) for i in (0, 1) for j in (0, 1)}
    plaza_boundary = {(X, Y) for X, Y in corners if {space(X + i, Y + j) for i in (0, 1) for j in (0, 1)} != {PLAZA}}
    dist = []
    for cx, cy in R.district_centre.tolist():
        seen, q = {(cx, cy): 0}, deque([(cx, cy)])
        while q:
            v = q.popleft()
            for n in neighbours(*v):
                if n not in seen:
                    seen[n] = seen[v] + 1
                    q.append(n)
        dist.append(min(seen[v] for v in plaza_boundary if v in seen))
    assert dist == [10, 6, 6, 10, 6, 2, 2, 6]


def test_map_war_graph():
    # RP-07: "the 160 spaces with orthogonal links"; COMBAT RULES: "Diagonal movement is not allowed"
    assert R.map_district.size == 160 and connected(spaces(np.ones_like(R.map_district)))
    assert R.k[K.MAP_WAR_ADJACENCY] == 0 and R.k[K.PLACEMENT_ADJACENCY] == 0  # 4 neighbours in war, 8 for placement
