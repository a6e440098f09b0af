"""The 1st-edition map features (docs/language.md, "Map features"): the shipped dungeon
(content/rtl-dungeons) hand-checked feature by feature with `questc path` / `questc los`,
its bundle form, and the checks on small broken maps."""

from __future__ import annotations

import json
import textwrap
from fractions import Fraction

import pytest

from conftest import REPO, questc, write_pack

PACK = REPO / "content" / "rtl-dungeons"


def path(a, b, *extra, encounter=1):
    r = questc("path", PACK, "--quest", "sunken_vaults", "--encounter", str(encounter),
               "--from", f"{a[0]},{a[1]}", "--to", f"{b[0]},{b[1]}", "--format", "json", *extra)
    return json.loads(r.out)


def los(a, b, *extra, encounter=1):
    r = questc("los", PACK, "--quest", "sunken_vaults", "--encounter", str(encounter),
               "--from", f"{a[0]},{a[1]}", "--to", f"{b[0]},{b[1]}", "--format", "json", *extra)
    assert r.code == 0, r.err
    return json.loads(r.out)


@pytest.fixture(scope="module")
def model():
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([str(PACK)], Options(sight=False))
    assert not result.sink.errors
    return result.model


@pytest.fixture(scope="module")
def bundle(tmp_path_factory):
    out = tmp_path_factory.mktemp("b")
    r = questc("build", PACK, "-o", out, "--no-images")
    assert r.code == 0, r.err
    return json.loads((out / "rtl-dungeons" / "bundle.json").read_text(encoding="utf-8"))


# ------------------------------------------------------------------ level 1, hand-checked
# room3D at (0, 0) is 8x6; stairs (grey) at (0, 0) and (17, 3) in deadend1D, far to the east.

def test_staircase_is_one_step_for_one_movement_point_but_does_not_shorten_range():
    got = path((0, 0), (17, 3))
    assert got["cost"] == 1 and got["route"] == [[0, 0], [17, 3]]
    assert got["steps"] == 17  # range is counted on the map: links never shorten it


def test_staircase_gives_sight_from_an_end_to_the_other_end_and_its_neighbours():
    # (0, 1) is next to the west end; (17, 3) is the east end, out of sight along the corridor
    assert los((0, 1), (17, 3))["sight"] is True
    assert los((0, 1), (17, 3))["reason"] in ("stairs", "segment")
    # (16, 2) is next to the east end; (0, 0) is the west end: the end sees its partner's neighbours
    assert los((0, 0), (16, 2))["sight"] is True


def test_the_pit_sees_only_itself_and_its_rim():
    # the pit is (3, 2) and (4, 2) (a 2x1 marker)
    assert los((3, 2), (5, 3))["sight"] is True   # next to (4, 2)
    assert los((3, 2), (6, 4))["sight"] is False  # two spaces from the pit, open floor between
    assert los((6, 4), (3, 2))["sight"] is False  # and not the other way either
    assert los((7, 5), (0, 3))["sight"] is True   # lines across the pit are not blocked by it


def test_climbing_out_of_a_pit_costs_two():
    got = path((4, 2), (4, 4))
    assert got["cost"] == 3 and got["steps"] == 2  # 2 out of the pit, 1 more


def test_mud_costs_two_to_enter_and_water_cannot_be_entered():
    assert path((5, 4), (6, 4))["cost"] == 2
    assert path((7, 5), (7, 4))["cost"] == 2
    assert path((4, 0), (5, 0))["cost"] is None  # water (5..6, 0..1) blocks movement


def test_a_tree_costs_two_and_blocks_sight():
    assert path((0, 1), (0, 2))["cost"] == 2
    assert los((0, 1), (0, 3))["sight"] is False
    assert los((1, 1), (1, 3))["sight"] is True  # the column beside it is open


def test_fog_sees_only_adjacent_spaces_and_blocks_lines():
    # corridor3D runs x 3..4, y -4..-1; fog at (3, -3)
    assert los((3, -3), (4, -2))["sight"] is True
    assert los((3, -3), (3, -1))["sight"] is False
    assert los((3, -4), (3, -2))["sight"] is False  # the line passes the fog


def test_the_red_rune_door_keeps_the_portal_shut_until_opened():
    shut = path((10, 3), (10, 6))
    assert shut["cost"] is None and shut["closed_doors"] == ["vault"]
    assert path((10, 3), (10, 6), "--open", "vault")["cost"] == 3


def test_lava_costs_nothing_extra_and_carries_its_damage_as_data(bundle):
    assert path((7, 2), (8, 2))["cost"] == 1
    lava = bundle["terrain"]["lava"]
    assert (lava["on_enter_damage"], lava["on_enter_condition"], lava["on_enter_tokens"]) == (2, "burn", 2)


# ------------------------------------------------------------------ levels 2 and 3

def test_gateway_moves_but_gives_no_sight():
    # room1D(0, 4..5) = (0, 4), (0, 5); the other end is deadend2D at (-1, 14), (-1, 15)
    got = path((0, 4), (-1, 15), encounter=2)
    assert got["cost"] == 1
    assert los((0, 5), (-1, 14), encounter=2)["sight"] is False


def test_the_crypt_is_an_area_revealed_by_its_door(model):
    enc = model.quests["sunken_vaults"].encounters[1]
    hidden = sorted(t.name for t in enc.map.tiles if t.hidden)
    assert hidden == ["corridor1D", "deadend6D", "room2D"]
    (reveal,) = [e for e in enc.events if e.trigger.kind == "open"]
    assert reveal.trigger.subject == "crypt_gate" and reveal.can_fire
    assert reveal.effects[0].kind == "reveal" and set(reveal.effects[0].args) == set(hidden)


def test_second_staircase_on_level_three():
    assert path((1, 8), (-1, -4), encounter=3)["cost"] == 1


def test_trap_spaces_cost_one_and_boulders_block(bundle):
    assert path((0, 2), (1, 2), encounter=3)["cost"] == 1  # (1, 1..2): dart field at (1, 1)
    assert path((6, 0), (7, 0), encounter=3)["cost"] is None  # a boulder
    assert los((5, 3), (7, 5), encounter=3)["sight"] is True
    assert bundle["terrain"]["dart_field"]["on_enter_die"] == "black_power"


# ------------------------------------------------------------------ the bundle form

def test_bundle_carries_the_features_of_every_level(bundle):
    encs = bundle["quests"]["sunken_vaults"]["encounters"]
    f1 = encs[0]["map"]["features"]
    spaces = encs[0]["map"]["spaces"]
    at = {(s["x"], s["y"]): i for i, s in enumerate(spaces)}
    assert f1["stairs"] == [{"colour": "grey", "a": at[(0, 0)], "b": at[(17, 3)]}]
    entry = next(g for g in f1["glyphs"] if g["name"] == "entry")
    assert entry["active"] and entry["spaces"] == [at[(1, 4)]]
    assert sorted(entry["departure"]) == sorted(at[(x, y)] for x in range(3) for y in range(3, 6))
    assert encs[0]["start"] == sorted(entry["departure"])
    assert f1["portal"]["tile"] == "portalD" and len(f1["portal"]["spaces"]) == 4
    assert f1["rune_doors"] == {"vault": "red"}
    assert encs[0]["runekeys"] == [{"colour": "red", "carrier": "warden", "spaces": [at[(6, 2)]]}]
    assert {"terrain": "pit", "spaces": [at[(3, 2)], at[(4, 2)]]} in f1["markers"]
    assert spaces[at[(3, 2)]]["terrain"] == "pit" and spaces[at[(0, 0)]]["terrain"] == "staircase"
    f2 = encs[1]["map"]["features"]
    assert f2["areas"] == [{"name": "crypt", "tiles": ["room2D", "corridor1D", "deadend6D"], "doors": ["crypt_gate"]}]
    assert f2["gateways"][0]["colour"] == "blue" and f2["rune_doors"] == {"seal": "yellow"}
    s2 = encs[1]["map"]["spaces"]
    assert sorted(s2[i]["terrain"] for i in f2["elevated"]) == ["bed", "sarcophagus", "table", "table", "throne", "throne"]
    assert [c["tier"] for c in f1["chests"] + f2["chests"] + encs[2]["map"]["features"]["chests"]] == ["copper", "silver", "gold"]


def test_the_chest_roll_is_four_black_power_dice_with_exact_odds(bundle):
    roll = bundle["quests"]["sunken_vaults"]["encounters"][0]["map"]["features"]["chest_roll"]
    assert roll["dice"] == ["black_power"] * 4
    odds = {tuple(sorted(o["faces"].items())): Fraction(o["p"]) for o in roll["outcomes"]}
    assert len(odds) == 15 and sum(odds.values()) == 1  # (4+2 choose 2) counts of three kinds
    # the black power die: 3 blanks, 2 enhancements, 1 surge (content/core-1e/dice.yaml)
    assert odds[(("blank", 4),)] == Fraction(1, 16)
    assert odds[(("surge", 4),)] == Fraction(1, 1296)
    assert odds[(("blank", 2), ("enhancement", 1), ("surge", 1))] == 12 * Fraction(1, 4) * Fraction(1, 3) * Fraction(1, 6)
    no_surge = sum(p for k, p in odds.items() if "surge" not in dict(k))
    assert no_surge == Fraction(5, 6) ** 4


def test_2nd_edition_bundles_have_no_features_key(tmp_path):
    out = tmp_path / "b"
    assert questc("build", REPO / "content" / "d2e-quests", "-o", out, "--no-images").code == 0
    data = json.loads((out / "d2e-quests" / "bundle.json").read_text(encoding="utf-8"))
    for q in data["quests"].values():
        for e in q["encounters"]:
            assert "features" not in e["map"] and "runekeys" not in e


def test_every_core_1e_terrain_is_on_a_compiled_map(model):
    ids = set(model.terrain)
    core = {tid for tid, e in model.catalogs["terrain"].items() if e.pack == "core-1e"}
    on_maps = {t for e in model.quests["sunken_vaults"].encounters for t in e.map.board.terrain}
    assert core <= ids
    assert core - on_maps == set()


# ------------------------------------------------------------------ the checks

def check(tmp_path, body: str, *, extra: str = "") -> list[dict]:
    text = textwrap.dedent(f'''\
    quest q "Q" {{
      map {{
    {textwrap.indent(textwrap.dedent(body), "    ")}
      }}
    {extra}
      on round_end 3 {{ win "w" }}
      on round_end 4 {{ lose "l" }}
    }}
    ''')
    pack = write_pack(tmp_path, requires=["rtl-dungeons"], files={"q.quest": text}, ruleset="d1e")
    r = questc("check", pack, "--format", "json")
    return r.json()["diagnostics"]


BASE = """
tile room1D at (0, 0)
tile corridor3D attach south to room1D.north
tile portalD attach south to corridor3D.north
tile deadend1D attach south to room1D.south
glyph entry at room1D(2,4) active
"""  # no opening left loose (M0304)


def codes(diags):
    return [d["code"] for d in diags]


def test_a_clean_small_map(tmp_path):
    assert check(tmp_path, BASE + "portal portalD", extra="  start heroes on entry") == []


def test_stairs_with_a_missing_partner(tmp_path):
    d = check(tmp_path, BASE + "stairs red at room1D(0,0)", extra="  start heroes on entry")
    assert codes(d) == ["M0235"] and "`red` has 1 end(s)" in d[0]["message"]


def test_chest_and_glyph_on_a_blocking_square(tmp_path):
    d = check(tmp_path, BASE + "marker rubble at room1D(1,1) size 2x1\nchest copper at room1D(1,1)\nglyph far at room1D(2,1)",
              extra="  start heroes on entry")
    assert codes(d) == ["M0237", "M0237"]
    assert "the copper chest at room1D(1, 1)" in d[0]["message"] and "glyph `far`" in d[1]["message"]


def test_a_marker_off_the_squares_says_where_it_fits(tmp_path):
    d = check(tmp_path, BASE + "marker table at room1D(5,5) size 2x1", extra="  start heroes on entry")
    assert codes(d) == ["M0231"] and "(6, 5)" in d[0]["message"]
    assert "It fits at room1D(4, 5)" in json.dumps(d[0])


def test_unknown_marker_terrain_and_the_staircase_marker(tmp_path):
    d = check(tmp_path, BASE + "marker lavva at room1D(1,1)\nmarker staircase at room1D(2,2)", extra="  start heroes on entry")
    assert codes(d) == ["M0230", "M0232"] and "did you mean `lava`" in d[0]["message"]


def test_portal_unreachable_from_the_start_glyph(tmp_path):
    body = """
    tile room1D at (0, 0)
    tile portalD at (20, 0)
    glyph entry at room1D(2,4) active
    portal portalD
    """
    d = check(tmp_path, body, extra="  start heroes on entry")
    # a piece apart from the rest with nothing leading to it: the map's parts are the one error
    assert codes(d) == ["M0211"] and "room1D; portalD" in d[0]["message"]
    # joined but walled off by rubble: the portal is out of reach
    body = BASE + "marker rubble at portalD(0,0) size 2x2\nportal portalD"
    d = check(tmp_path / "b", body, extra="  start heroes on entry")
    assert codes(d) == ["M0239"]
    assert "the portal `portalD` cannot be reached from glyph `entry`" in d[0]["message"]


def test_a_glyph_beside_the_portal_makes_it_reachable_once_activated(tmp_path):
    # the portal piece stands apart from the room, but an active glyph lies on it
    body = """
    tile room1D at (0, 0)
    tile portalD at (20, 0)
    glyph entry at room1D(2,4) active
    glyph beyond at portalD(0,0) active
    portal portalD
    """
    d = check(tmp_path, body, extra="  start heroes on entry")
    assert "M0239" not in codes(d)  # an active glyph there: through town and back


def test_rune_door_whose_key_lies_behind_it(tmp_path):
    body = BASE + "door vault on corridor3D.south red rune\nportal portalD"
    d = check(tmp_path, body, extra="  start heroes on entry\n  runekey red at corridor3D(0,0)")
    (q,) = [x for x in d if x["code"] == "Q0310"]
    assert "rune-locked door `vault` (red) can never be opened" in q["message"]
    assert "lies where heroes get only through rune-locked doors" in q["message"]
    # the same key in front of the door is fine
    assert codes(check(tmp_path / "b", body, extra="  start heroes on entry\n  runekey red at room1D(0,0)")) == []


def test_rune_door_without_any_key_and_a_carrier_beyond_it(tmp_path):
    body = BASE + "door vault on corridor3D.south red rune\nportal portalD"
    d = check(tmp_path, body, extra="  start heroes on entry")
    assert codes(d) == ["Q0310"] and "no red runekey is on this map" in d[0]["message"]
    d = check(tmp_path / "b", body, extra="  start heroes on entry\n  spawn beastman as boss at corridor3D(0,1)\n  runekey red carried by boss")
    assert codes(d) == ["Q0310"]
    d = check(tmp_path / "c", body, extra="  start heroes on entry\n  spawn beastman as boss at room1D(0,1)\n  runekey red carried by bos")
    assert "Q0311" in codes(d) and "did you mean `boss`" in json.dumps(d)


def test_rune_door_needs_a_rune_colour(tmp_path):
    d = check(tmp_path, BASE + "door vault on corridor3D.south rune\nportal portalD", extra="  start heroes on entry")
    assert codes(d) == ["M0241"]


def test_an_area_without_a_dividing_door_and_an_inactive_start_glyph(tmp_path):
    body = BASE.replace(" active", "") + "area back tiles corridor3D\nportal portalD"
    d = check(tmp_path, body, extra="  start heroes on entry")
    assert set(codes(d)) >= {"M0240", "M0242"}





def test_an_area_without_a_dividing_door_is_one_error(tmp_path):
    # M0240 says the area is never revealed: its hidden tiles are not also Q0304
    body = BASE + "door back_gate on room1D.north\narea back tiles corridor3D\nportal portalD"
    assert codes(check(tmp_path, body, extra="  start heroes on entry")) == ["M0240"]


def test_a_misspelt_divides_is_one_error(tmp_path):
    body = BASE + "door back_gate on room1D.north divides bak\narea back tiles corridor3D\nportal portalD"
    d = check(tmp_path, body, extra="  start heroes on entry")
    assert codes(d) == ["M0240"] and "did you mean `back`?" in d[0]["message"]


def test_a_rejected_end_leaves_its_partner_alone(tmp_path):
    # the end with its own error is not counted missing again (M0235) at its partner
    d = check(tmp_path, BASE + "gateway blue at room1D(0,4), room1D(2,4)\ngateway blue at room1D(0,0), room1D(1,0)\nportal portalD",
              extra="  start heroes on entry")
    assert codes(d) == ["M0236"]
    d = check(tmp_path / "b", BASE + "marker rubble at room1D(0,0)\nstairs red at room1D(0,0)\nstairs red at room1D(5,5)\nportal portalD",
              extra="  start heroes on entry")
    assert codes(d) == ["M0237"]


def test_features_parse_and_format_round_trip():
    from compiler.diagnostics import Sink
    from compiler.syntax.format import format_source
    from compiler.syntax.parse import parse_module

    text = (PACK / "dungeon.quest").read_text(encoding="utf-8")
    sink = Sink()
    module = parse_module(text, "d.quest", sink)
    assert sink.items == []
    assert format_source(text) == text
    block = module.declarations[0].encounters[1].body.map
    assert [a.name for a in block.areas] == ["crypt"] and block.doors[0].divides == "crypt"
    assert block.doors[1].rune and block.doors[1].colour == "yellow"


def test_a_runekey_already_reported_does_not_also_lock_its_door(tmp_path):
    # one slip in a `runekey` statement is Q0311 alone, not also Q0310 for the door it opens
    body = BASE + "door vault on corridor3D.south red rune\nportal portalD"
    spawn = "  start heroes on entry\n  spawn beastman as boss at room1D(0,1)\n"
    assert codes(check(tmp_path / "a", body, extra=spawn + "  runekey red carried by boss")) == []
    assert codes(check(tmp_path / "b", body, extra=spawn + "  runekey red carried by bos")) == ["Q0311"]
    assert codes(check(tmp_path / "c", body, extra=spawn + "  runekey rde carried by boss")) == ["Q0311"]
