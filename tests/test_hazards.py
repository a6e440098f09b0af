"""Hazards as data (docs/maps.md and docs/rules.md, "Hazards"): lanes worked out from the
map, hand-checked square by square from the rules' text (a boulder rolls until a wall, a
closed door or another boulder stops it, and falls into a pit that holds it; a crushing
wall passes over pits), written lanes, traps' triggers, the checks on starts, spawns and
the only route, the bundle, the picture, and the shipped dungeon's hazards."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import REPO, questc, write_pack

# room3D (rtl-base) is 8 x 6 with openings north [3], east [2], south [3], west [2]; placed
# at (0, 0) its squares are (0..7, 0..5). portalD attached to its south opening lies below.
HEAD = """\
quest q "Q" {
  heroes 2..4
  map {
    tile room3D at (0, 0)ROT
    tile deadend1D attach south to room3D.north
    tile deadend2D attach south to room3D.west
    tile deadend3D attach south to room3D.east
    tile portalD attach south to room3D.south
"""
TAIL = """\
    glyph entry at room3D(1, 1) active
    portal portalD
  }
  START
  SPAWN
  on enters portalD { win "Out." }
  on round_end 20 { lose "Too late." }
}
"""


def compile_map(tmp_path, *lines, start="start heroes on entry", spawn="", rot="", requires=("rtl-dungeons",)):
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    text = HEAD.replace("ROT", rot) + "".join(f"    {line}\n" for line in lines) + TAIL.replace("START", start).replace("SPAWN", spawn)
    pack = write_pack(tmp_path, "hz", requires=requires, ruleset="d1e", files={"q.quest": text})
    result = compile_paths([str(pack)], Options(sight=False, images=False))
    codes = sorted(d.code for d in result.sink.items)
    maps = result.model.maps
    amap = maps.quests["q"][1] if maps is not None and "q" in maps.quests else None
    return codes, amap


def lane_of(amap, kind):
    h = next(h for h in amap.features.hazards if h.kind == kind)
    return h


def test_a_boulder_rolls_to_the_wall_square_by_square(tmp_path):
    codes, amap = compile_map(tmp_path, "hazard boulder at room3D(7, 0) facing west")
    h = lane_of(amap, "boulder")
    assert h.lane == ((6, 0), (5, 0), (4, 0), (3, 0), (2, 0), (1, 0), (0, 0)) and h.stop == "wall"
    assert h.reach == tuple((x, 0) for x in range(8))
    assert amap.board.rule((7, 0)).id == "boulder" and amap.board.rule((7, 0)).blocks_movement  # laid like a marker
    assert not [c for c in codes if c.startswith("M026")]


def test_a_closed_door_stops_a_boulder_and_an_open_one_does_not(tmp_path):
    # room3D's south opening is columns 3-4 of row 5; portalD (2 x 2) lies below it, rows 6-7
    _, amap = compile_map(tmp_path / "a", "door d on room3D.south", "hazard boulder at room3D(3, 0) facing south")
    h = lane_of(amap, "boulder")
    assert h.lane == ((3, 1), (3, 2), (3, 3), (3, 4), (3, 5)) and h.stop == "door"
    _, amap = compile_map(tmp_path / "b", "door d on room3D.south open", "hazard boulder at room3D(3, 0) facing south")
    h = lane_of(amap, "boulder")
    assert h.lane == ((3, 1), (3, 2), (3, 3), (3, 4), (3, 5), (3, 6), (3, 7)) and h.stop == "wall"


def test_a_boulder_falls_into_a_pit_and_a_crushing_wall_passes_over_it(tmp_path):
    _, amap = compile_map(tmp_path / "a", "marker pit at room3D(3, 3)", "hazard boulder at room3D(3, 0) facing south")
    h = lane_of(amap, "boulder")
    assert h.lane == ((3, 1), (3, 2), (3, 3)) and h.stop == "pit"  # the pit's square is struck: whoever is below dies
    _, amap = compile_map(tmp_path / "b", "marker pit at room3D(5, 3)", "hazard crushing_wall at room3D(5, 0) facing south")
    h = lane_of(amap, "crushing_wall")
    assert h.lane == ((5, 1), (5, 2), (5, 3), (5, 4), (5, 5)) and h.stop == "wall"


def test_a_boulder_breaks_on_another_boulder(tmp_path):
    _, amap = compile_map(tmp_path, "hazard boulder at room3D(0, 0) facing east", "hazard boulder at room3D(5, 0) facing south")
    first = amap.features.hazards[0]
    assert first.lane == ((1, 0), (2, 0), (3, 0), (4, 0)) and first.stop == "hazard"


def test_a_wide_crushing_wall_sweeps_its_whole_width(tmp_path):
    _, amap = compile_map(tmp_path, "hazard crushing_wall at room3D(5, 0) size 2x1 facing south")
    h = lane_of(amap, "crushing_wall")
    assert h.lane == tuple((x, y) for y in range(1, 6) for x in (5, 6)) and h.stop == "wall"


def test_facing_turns_with_the_tile(tmp_path):
    # turned a quarter clockwise, the tile's own south points west in the world
    _, amap = compile_map(tmp_path, "hazard boulder at room3D(3, 0) facing south", rot=" rotate 90")
    h = lane_of(amap, "boulder")
    assert h.facing == "west"
    assert len({y for _, y in h.lane}) == 1 and [x for x, _ in h.lane] == sorted((x for x, _ in h.lane), reverse=True)


def test_a_written_lane_follows_a_ramp_and_a_broken_one_is_M0263(tmp_path):
    _, amap = compile_map(tmp_path / "a", "marker boulder_ramp at room3D(7, 2)",
                          "hazard boulder at room3D(7, 0) lane room3D(7, 1), room3D(7, 2), room3D(6, 2), room3D(5, 2)")
    h = lane_of(amap, "boulder")
    assert h.lane == ((7, 1), (7, 2), (6, 2), (5, 2)) and h.stop == "given" and h.facing == ""
    codes, _ = compile_map(tmp_path / "b", "hazard boulder at room3D(7, 0) lane room3D(7, 1), room3D(6, 2)")
    assert "M0263" in codes  # a diagonal step


def test_misused_options_and_unknown_kinds(tmp_path):
    assert "M0261" in compile_map(tmp_path / "a", "hazard boulder at room3D(7, 0) trigger room3D(1, 1)")[0]
    assert "M0261" in compile_map(tmp_path / "b", "hazard dart_field at room3D(4, 4) facing west")[0]
    assert "M0261" in compile_map(tmp_path / "c", "hazard boulder at room3D(7, 0) facing west lane room3D(6, 0)")[0]
    assert "M0260" in compile_map(tmp_path / "d", "hazard pit at room3D(4, 4)")[0]  # terrain, not a hazard
    assert "M0262" in compile_map(tmp_path / "e", "hazard boulder at room3D(0, 0) facing west")[0]  # the room's west wall
    assert "M0262" not in compile_map(tmp_path / "f", "hazard boulder at room3D(0, 3) facing west")[0]  # rows 2-3: the west opening


def test_starts_and_spawns_in_a_reach(tmp_path):
    codes, _ = compile_map(tmp_path / "a", "hazard boulder at room3D(7, 4) facing west", start="start heroes at room3D(3, 4)")
    assert codes.count("M0265") == 1
    # a start on a glyph: reported only when every start square is in the reach
    codes, _ = compile_map(tmp_path / "b", "hazard boulder at room3D(7, 1) facing west")
    assert "M0265" not in codes
    codes, _ = compile_map(tmp_path / "c", "hazard crushing_wall at room3D(4, 5) facing north",
                           spawn="spawn skeleton at room3D(4, 2)")
    assert codes.count("M0266") == 1


def test_the_only_route_through_a_lane_or_a_trap(tmp_path):
    # the portal lies past row 5: a boulder sweeping row 5 cuts every walk to it
    codes, _ = compile_map(tmp_path / "a", "hazard boulder at room3D(0, 5) facing east")
    assert codes.count("M0267") == 1
    # one sweeping row 0 can be walked round
    codes, _ = compile_map(tmp_path / "b", "hazard boulder at room3D(7, 0) facing west")
    assert "M0267" not in codes
    # a trap across the way in is a note, and two squares of it can be stepped round diagonally
    codes, _ = compile_map(tmp_path / "c", "hazard dart_field at room3D(2, 5) size 4x1")
    assert codes.count("M0268") == 1
    codes, _ = compile_map(tmp_path / "d", "hazard dart_field at room3D(3, 5) size 2x1")
    assert "M0268" not in codes


def test_the_bundle_gives_each_hazard_with_its_lane_or_trigger(tmp_path):
    text = (HEAD.replace("ROT", "") + "    hazard boulder at room3D(7, 0) facing west\n"
            "    hazard dart_field at room3D(4, 4) size 2x1 trigger room3D(3, 4)\n"
            + TAIL.replace("START", "start heroes on entry").replace("SPAWN", ""))
    pack = write_pack(tmp_path, "hz", requires=("rtl-base",), ruleset="d1e", files={"q.quest": text})
    r = questc("build", pack, "-o", tmp_path / "out", "--no-images")
    assert r.code == 0, r.err
    bundle = json.loads((tmp_path / "out" / "hz" / "bundle.json").read_text(encoding="utf-8"))
    m = _first_map(bundle)
    index = {(s["x"], s["y"]): i for i, s in enumerate(m["spaces"])}
    boulder, darts = m["features"]["hazards"]
    assert boulder == {"kind": "boulder", "reach": "lane", "spaces": [index[(7, 0)]], "facing": "west",
                       "lane": [index[(x, 0)] for x in range(6, -1, -1)], "stop": "wall",
                       "struck": [index[(x, 0)] for x in range(8)]}
    assert darts == {"kind": "dart_field", "reach": "area", "spaces": [index[(4, 4)], index[(5, 4)]],
                     "trigger": [index[(3, 4)]], "struck": [index[(4, 4)], index[(5, 4)]]}
    assert "hazard" not in bundle["terrain"]["boulder"]  # the reach is the map's, not the terrain table's


def _first_map(bundle):
    def walk(x):
        if isinstance(x, dict):
            if "spaces" in x and "features" in x:
                return x
            for v in x.values():
                got = walk(v)
                if got is not None:
                    return got
        elif isinstance(x, list):
            for v in x:
                got = walk(v)
                if got is not None:
                    return got
        return None
    return walk(bundle)


def test_the_picture_draws_the_lane(tmp_path):
    from PIL import Image

    from compiler.emit.images import style as S

    text = HEAD.replace("ROT", "") + "    hazard boulder at room3D(7, 0) facing west\n" + TAIL.replace("START", "start heroes on entry").replace("SPAWN", "")
    pack = write_pack(tmp_path, "hz", requires=("rtl-base",), ruleset="d1e", files={"q.quest": text})
    out = tmp_path / "m.png"
    assert questc("render", pack, "--quest", "q", "-o", out, "--scale", "40").code == 0
    again = tmp_path / "m2.png"
    assert questc("render", pack, "--quest", "q", "-o", again, "--scale", "40").code == 0
    assert out.read_bytes() == again.read_bytes()
    image = Image.open(out).convert("RGB")
    colours = {image.getpixel((x, y)) for x in range(image.width) for y in range(image.height)}
    assert S.HAZARD in colours
    without = tmp_path / "n.png"
    plain = write_pack(tmp_path / "p", "hz", requires=("rtl-base",), ruleset="d1e",
                       files={"q.quest": text.replace("hazard boulder at room3D(7, 0) facing west", "marker boulder at room3D(7, 0)")})
    assert questc("render", plain, "--quest", "q", "-o", without, "--scale", "40").code == 0
    image = Image.open(without).convert("RGB")
    assert S.HAZARD not in {image.getpixel((x, y)) for x in range(image.width) for y in range(image.height)}


def test_the_shipped_dungeon_uses_every_1st_edition_hazard():
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([str(REPO / "content" / "rtl-dungeons")], Options(sight=False, images=False))
    assert not result.sink.errors and not [d for d in result.sink.items if d.code.startswith("M026")]
    hazards = {h.kind: h for h in result.model.maps.quests["sunken_vaults"][3].features.hazards}
    assert set(hazards) == {"boulder", "crushing_wall", "dart_field", "scything_blade"}
    amap = result.model.maps.quests["sunken_vaults"][3]
    b = hazards["boulder"]
    assert [amap.owner[c].to_local(c) for c in b.lane] == [(x, 0) for x in range(6, -1, -1)]  # room3D's north row
    w = hazards["crushing_wall"]
    assert [amap.owner[c].to_local(c) for c in w.lane] == [(0, 1), (0, 2), (0, 3)] and w.stop == "wall"


@pytest.mark.parametrize("kind, reach", [("rolling_boulder", "lane"), ("spike_trap", "area")])
def test_the_2nd_edition_hazards_are_illustrative(kind, reach):
    from ruamel.yaml import YAML

    data = YAML(typ="safe").load((REPO / "content" / "core-2e" / "hazards.yaml").read_text(encoding="utf-8"))
    entry = data["terrain"][kind]
    assert entry["source"] == "illustrative" and entry["hazard"]["reach"] == reach


NODE = shutil.which("node") or shutil.which("nodejs")


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (Debian: apt-get install nodejs)")
def test_the_web_player_draws_the_shipped_lanes_where_the_engine_puts_them(tmp_path):
    """hazards.js by hand (tests/player/hazards.test.mjs), then on the shipped dungeon's bundle:
    each lane's dots are the centres of the squares the Python engine swept, in order."""
    done = subprocess.run([NODE, "--test", str(REPO / "tests" / "player" / "hazards.test.mjs")], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "# fail 0" in done.stdout, done.stdout[-3000:] + done.stderr[-2000:]
    out = tmp_path / "b"
    assert questc("build", REPO / "content" / "rtl-dungeons", "-o", out, "--no-images").code == 0
    bundle = json.loads((out / "rtl-dungeons" / "bundle.json").read_text(encoding="utf-8"))
    maps = []

    def walk(x):
        if isinstance(x, dict):
            if "spaces" in x and "hazards" in (x.get("features") or {}):
                maps.append(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(bundle)
    assert len(maps) == 1
    m = maps[0]
    (tmp_path / "map.json").write_text(json.dumps(m), encoding="utf-8")
    script = tmp_path / "marks.mjs"
    script.write_text(
        f'import {{ hazardMarks }} from {json.dumps((REPO / "compiler" / "player" / "hazards.js").as_uri())};\n'
        'import { readFileSync } from "node:fs";\n'
        f'const map = JSON.parse(readFileSync({json.dumps(str(tmp_path / "map.json"))}, "utf-8"));\n'
        'console.log(JSON.stringify(map.features.hazards.map((h) => hazardMarks(map, h))));\n', encoding="utf-8")
    got = json.loads(subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=60, check=True).stdout)
    for h, marks in zip(m["features"]["hazards"], got):
        centres = [[m["spaces"][i]["x"] + 0.5, m["spaces"][i]["y"] + 0.5] for i in h.get("lane", [])]
        assert marks["dots"] == centres
        if h["reach"] == "lane":
            assert marks["path"][1:] == centres and marks["arrow"][0] == centres[-1]
        else:
            assert marks["outlines"] == [[m["spaces"][i]["x"], m["spaces"][i]["y"]] for i in h["struck"]]


def test_the_shipped_2nd_edition_encounter_uses_an_illustrative_boulder():
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([str(REPO / "content" / "natures-ire")], Options(sight=False, images=False))
    assert not result.sink.errors and not [d for d in result.sink.items if d.code.startswith("M026")]
    amap = result.model.maps.encounters["rocky_channel"]
    (h,) = amap.features.hazards
    assert h.kind == "rolling_boulder" and h.reach_kind == "lane"
    # across the two-square-deep channel: one square, then the south wall
    assert [amap.owner[c].to_local(c) for c in h.lane] == [(2, 1)] and h.stop == "wall"


@pytest.mark.plugins
def test_a_valkyrie_export_says_it_cannot_carry_a_hazard(tmp_path):
    """The app has no boulder lane or trap area: the export reports the statement (VK0308)
    rather than dropping it in silence."""
    import shutil

    from compiler.diagnostics import Sink, Span
    from compiler.plugins import loader

    assert loader.enable([("valkyrie", Span("<test>", 1, 1))], Sink())
    try:
        pack = tmp_path / "pack"
        shutil.copytree(REPO / "content" / "d2e-quests", pack)
        quest = pack / "first_blood.quest"
        source = quest.read_text(encoding="utf-8")
        source = source.replace("    door barn_bar on 8A.north locked\n",
                                "    door barn_bar on 8A.north locked\n    hazard spike_trap at 26A(1,1)\n")
        quest.write_text(source, encoding="utf-8")
        r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "--quest", "first_blood", "-o", tmp_path / "out")
        assert r.code == 0, r.err
        assert "warning[VK0308]: " in r.err and "map hazards" in r.err and "first_blood.quest:" in r.err
    finally:
        loader.reset()


def test_sourced_only_lists_the_illustrative_hazards():
    r = questc("check", REPO / "content" / "natures-ire", "--sourced-only", "--format", "json")
    places = {d["message"].split("`")[1] for d in r.json()["diagnostics"] if d["code"] == "K0301"}
    assert {"terrain.rolling_boulder", "terrain.spike_trap"} <= places
    r = questc("check", REPO / "content" / "rtl-dungeons", "--sourced-only", "--format", "json")
    assert not [d for d in r.json()["diagnostics"] if d["code"] == "K0301" and "terrain." in d["message"]]
