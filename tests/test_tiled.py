"""The Tiled plugin (plugins/tiled, docs/tiled.md): every shipped map out to Tiled and back,
a scripted edit of the .tmj that shows in the quest, the .tmj against Tiled's documented
JSON map format, and bad maps as located TLD diagnostics."""

import json
import re
import shutil

import jsonschema
import pytest

from conftest import REPO, questc
from questc_tiled.export import SQUARE, anchor

pytestmark = pytest.mark.plugins  # the first-party plugins (plugins/): `pytest -m 'not plugins'` runs without them

SCHEMA = json.loads((REPO / "plugins" / "tiled" / "questc_tiled" / "tiled-map.schema.json").read_text(encoding="utf-8"))
ENCOUNTERS = re.findall(r"^encounter (\w+)", (REPO / "content" / "natures-ire" / "encounters.quest").read_text(encoding="utf-8"), re.M)
MAPS = [("d2e-quests", "first_blood", None), ("d2e-quests", "a_fat_goblin", 1), ("d2e-quests", "a_fat_goblin", 2)] + [
    ("natures-ire", e, None) for e in ENCOUNTERS]


def export(tmp_path, pack, quest, number=None):
    """Copy the pack (the import may write into it) and export one map of it."""
    copy = tmp_path / pack
    if not copy.exists():
        shutil.copytree(REPO / "content" / pack, copy)
    out = tmp_path / "tiled"
    args = ["--plugin", "tiled", "export", "tiled", copy, "--quest", quest, "-o", out, "--isolated"]
    r = questc(*args, *(["--encounter", str(number)] if number else []))
    assert r.code == 0, r.err
    tmj = out / (f"{quest}-{number}.tmj" if number else f"{quest}.tmj")
    return copy, tmj


def back(tmj, *extra):
    return questc("--plugin", "tiled", "import", "tiled", tmj, *extra)


def quest_file(copy, quest):
    return next(p for p in copy.glob("*.quest") if re.search(rf"^(quest|encounter) {quest}\b", p.read_text(encoding="utf-8"), re.M))


@pytest.mark.parametrize("pack, quest, number", MAPS, ids=lambda v: str(v))
def test_every_shipped_map_comes_back_the_same(tmp_path, pack, quest, number):
    copy, tmj = export(tmp_path, pack, quest, number)
    data = json.loads(tmj.read_text(encoding="utf-8"))
    jsonschema.validate(data, SCHEMA)
    r = back(tmj)
    assert r.code == 0, r.err
    assert r.out == quest_file(copy, quest).read_text(encoding="utf-8")


def test_the_map_holds_one_object_per_placed_tile_and_the_layers(tmp_path):
    copy, tmj = export(tmp_path, "d2e-quests", "first_blood")
    data = json.loads(tmj.read_text(encoding="utf-8"))
    layers = {layer["name"]: layer["objects"] for layer in data["layers"]}
    assert list(layers) == ["tiles", "doors", "starts", "tokens", "spawns"]
    tiles = {o["name"]: o for o in layers["tiles"]}
    assert len(tiles) == 10
    # `tile 16A at (5, 4) rotate 0`: origin is one square left of and above the map (x 0, y 0)
    props = {p["name"]: p["value"] for p in data["properties"]}
    assert (props["questc.origin_x"], props["questc.origin_y"], props["questc.square"]) == (-1, -1, SQUARE)
    t = tiles["16A"]
    assert {p["name"]: p["value"] for p in t["properties"]} == {"code": "16A", "hidden": False}
    assert t["rotation"] == 0 and (t["x"], t["y"]) == (6 * 32, 5 * 32 + t["height"])  # bottom-left anchor
    t = tiles["8A"]  # `at (5, 0) rotate 180`: turned about its bottom-left corner
    assert t["rotation"] == 180 and (t["x"], t["y"]) == (6 * 32 + t["width"], 1 * 32)
    assert [o["type"] for o in layers["tokens"]] == ["search", "search", "search", "objective", "objective"]
    assert [o["type"] for o in layers["spawns"]] == ["goblin_archer", "zombie", "zombie"]  # the every-round reinforcement `risen` too
    assert [o["name"] for o in layers["starts"]] == ["entrance1A"]
    # the tileset: one image per tile face of the pack's catalogs, with its code
    tsx = (tmj.parent / "d2e-quests.tsx").read_text(encoding="utf-8")
    assert tsx.count("<tile id=") == len(list((tmj.parent / "tiles").glob("*.png"))) > 30
    assert '<property name="code" value="16A"/>' in tsx


def test_the_export_is_deterministic(tmp_path):
    _, a = export(tmp_path / "a", "d2e-quests", "first_blood")
    _, b = export(tmp_path / "b", "d2e-quests", "first_blood")
    for name in ("first_blood.tmj", "d2e-quests.tsx", "tiles/16A.png"):
        assert (a.parent / name).read_bytes() == (b.parent / name).read_bytes()


def test_the_converters_work_only_when_enabled(tmp_path):
    r = questc("export", "tiled", REPO / "content" / "d2e-quests", "--quest", "first_blood", "-o", tmp_path)
    assert r.code == 2 and "E0106" in r.err and not list(tmp_path.iterdir())
    assert questc("import", "tiled", tmp_path / "x.tmj").code == 2


def _objects(data, layer):
    return next(lay["objects"] for lay in data["layers"] if lay["name"] == layer)


def _save(tmj, data):
    tmj.write_text(json.dumps(data, indent=1), encoding="utf-8")


def test_a_scripted_edit_shows_in_the_quest_which_still_checks_clean(tmp_path):
    """Shift the whole map (every object) 2 squares right and 1 down, turn 16A half round
    in place and add a search token: the quest follows, keeps its comments and events,
    and checks clean."""
    copy, tmj = export(tmp_path, "d2e-quests", "first_blood")
    original = quest_file(copy, "first_blood").read_text(encoding="utf-8")
    data = json.loads(tmj.read_text(encoding="utf-8"))
    for layer in data["layers"]:
        for o in layer["objects"]:
            o["x"] += 2 * SQUARE
            o["y"] += 1 * SQUARE
    t16 = next(o for o in _objects(data, "tiles") if o["name"] == "16A")
    top_left = (t16["x"], t16["y"] - t16["height"])  # rotation 0: the anchor is bottom-left
    t16["x"], t16["y"] = anchor(top_left, (t16["width"], t16["height"]), 180)
    t16["rotation"] = 180
    # a new search token on world square (13, 7) after the shift: 26A's square
    data["layers"][3]["objects"].append({"id": data["nextobjectid"], "name": "", "type": "search", "x": (13 + 1) * SQUARE,
                                         "y": (7 + 1) * SQUARE, "width": SQUARE, "height": SQUARE, "rotation": 0, "visible": True})
    data["nextobjectid"] += 1
    _save(tmj, data)
    jsonschema.validate(data, SCHEMA)
    r = back(tmj, "--in-place")
    assert r.code == 0, r.err
    text = quest_file(copy, "first_blood").read_text(encoding="utf-8")
    assert "tile 16A at (7, 5) rotate 180  # [Tile16AIntersection]" in text  # turned, moved, its comment kept
    assert "tile 12A at (2, 4) rotate 180  # [Tile12AWater]" in text
    assert "token search as cart_key at 9A(0,0)" in text  # moved with its tile: the same text
    assert "spawn goblin_archer at 16A(2,2)" in text  # 16A turned half round under it: (1,1) of a 4x4 tile is now (2,2)
    new_token = re.search(r"token search at (26A\(\d,\d\))\n", text)
    assert new_token, text
    # everything else is as it was: events, comments, the doc comment
    for line in original.splitlines():
        if not re.match(r"\s*(tile|token search|spawn goblin_archer)", line):
            assert line in text
    check = questc("check", copy, "--isolated", "--format", "json")
    assert check.code == 0 and [d for d in check.json()["diagnostics"] if d["severity"] == "error"] == []
    # and the new token stands where it was put
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    model = compile_paths([str(copy)], Options(images=False, sight=False)).model
    enc = model.quests["first_blood"].encounters[0]
    spaces = enc.map.board.spaces
    assert spaces[enc.tokens[-1].space] == (13, 7)


def test_removing_a_token_and_moving_one_tile(tmp_path):
    copy, tmj = export(tmp_path, "d2e-quests", "first_blood")
    data = json.loads(tmj.read_text(encoding="utf-8"))
    tokens = _objects(data, "tokens")
    del tokens[2]  # token search at 8A(3,3)
    cap = next(o for o in _objects(data, "tiles") if o["name"] == "endcap1A_3")
    cap["x"] += 3 * SQUARE
    _save(tmj, data)
    r = back(tmj)
    assert r.code == 0, r.err
    assert "token search at 8A(3,3)" not in r.out
    assert "tile endcap1A as endcap1A_3 at (15, 5) rotate 270  # [Tile26AGardenCap]" in r.out


# ---------------------------------------------------------------- bad maps


def _bad(tmp_path, edit):
    copy, tmj = export(tmp_path, "d2e-quests", "first_blood")
    data = json.loads(tmj.read_text(encoding="utf-8"))
    edit(data, tmj)
    if data is not None:
        _save(tmj, data)
    r = back(tmj)
    assert r.code == 1 and "Traceback" not in r.err and "I0001" not in r.err and not r.out
    return r, tmj


def _line_of_object(tmj, oid):
    lines = tmj.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if re.fullmatch(rf'\s*"id": {oid},?', line))


def test_an_unrelated_map(tmp_path):
    def edit(data, tmj):
        data["properties"] = [{"name": "author", "type": "string", "value": "someone"}]
    r, _ = _bad(tmp_path, edit)
    assert "error[TLD0102]" in r.err and "it has no questc.pack" in r.err


@pytest.mark.parametrize("name, value, kind", [
    ("questc.origin_x", "3", "a whole number"), ("questc.encounter", True, "a whole number"), ("questc.quest", 7, "text")])
def test_a_questc_property_of_the_wrong_kind_is_located(tmp_path, name, value, kind):
    # found typing the plugin (mypy --strict): a property of the wrong kind (an origin
    # written as text) went into the arithmetic: TypeError, E0103
    def edit(data, tmj):
        prop = next(p for p in data["properties"] if p["name"] == name)
        prop.update(type={str: "string", bool: "bool", int: "int"}[type(value)], value=value)
    r, tmj = _bad(tmp_path, edit)
    assert "E0103" not in r.err and r.err.count("error[") == 1, r.err
    assert "error[TLD0102]" in r.err and f"its `{name}` property is `{json.dumps(value)}`, not {kind}" in r.err, r.err
    lines = tmj.read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(lines, 1) if f'"name": "{name}"' in text)  # its value is a line or two away
    assert any(f"{tmj}:{n}:" in r.err or f"{tmj.name}:{n}:" in r.err for n in range(line - 3, line + 4)), r.err


def test_a_file_that_is_not_a_tiled_map(tmp_path):
    def edit(data, tmj):
        data["orientation"] = "round"
    r, tmj = _bad(tmp_path, edit)
    assert "error[TLD0102]" in r.err and "at orientation" in r.err and f"{tmj}:" in r.err


def test_invalid_json(tmp_path):
    tmj = tmp_path / "x.tmj"
    tmj.write_text('{"type": "map",', encoding="utf-8")
    r = back(tmj)
    assert r.code == 1 and "error[M0402]" in r.err and "invalid JSON" in r.err


def test_an_object_without_a_tile(tmp_path):
    def edit(data, tmj):
        o = _objects(data, "tiles")[3]
        del o["gid"]
    r, tmj = _bad(tmp_path, edit)
    assert "error[TLD0103]: object 4 (8A) in layer `tiles` shows no tile" in r.err
    assert f"{tmj}:" in r.err


def test_a_rotation_that_is_not_a_quarter_turn(tmp_path):
    def edit(data, tmj):
        _objects(data, "tiles")[2]["rotation"] = 45
    r, _ = _bad(tmp_path, edit)
    assert "error[TLD0104]: object 3 is turned 45 degrees" in r.err


def test_overlapping_tiles(tmp_path):
    def edit(data, tmj):
        tiles = _objects(data, "tiles")
        a, b = tiles[2], tiles[3]  # 16A, 8A
        b["x"], b["y"], b["rotation"] = a["x"], a["y"] - a["height"] + b["height"], 0
    r, tmj = _bad(tmp_path, edit)
    assert "error[TLD0105]: object 4 (tile `8A`) overlaps object 3 (tile `16A`)" in r.err
    assert f"{tmj.name}:{_line_of_object(tmj, 4) - 3}:" in r.err or f"{tmj}:" in r.err


def test_an_object_off_the_grid(tmp_path):
    def edit(data, tmj):
        _objects(data, "tiles")[0]["x"] += 5
    r, _ = _bad(tmp_path, edit)
    assert "error[TLD0107]: object 1 is not on the square grid" in r.err


def test_a_tileset_that_does_not_match_the_pack(tmp_path):
    def edit(data, tmj):
        tsx = tmj.parent / "d2e-quests.tsx"
        tsx.write_text(tsx.read_text(encoding="utf-8").replace('value="16A"', 'value="16Q"'), encoding="utf-8")
    r, _ = _bad(tmp_path, edit)
    assert "error[TLD0106]: the tileset d2e-quests.tsx does not match pack `d2e-quests`: the pack has no tile `16Q`" in r.err


def test_a_resized_tile_image_in_the_tileset(tmp_path):
    def edit(data, tmj):
        tsx = tmj.parent / "d2e-quests.tsx"
        text = tsx.read_text(encoding="utf-8")
        text = re.sub(r'(value="16A"/>\n  </properties>\n  <image width=")(\d+)', lambda m: m[1] + str(int(m[2]) + 1), text)
        tsx.write_text(text, encoding="utf-8")
    r, _ = _bad(tmp_path, edit)
    assert "error[TLD0106]" in r.err and "tile `16A` is 129x" in r.err


def test_a_token_without_a_kind(tmp_path):
    def edit(data, tmj):
        _objects(data, "tokens")[0]["type"] = ""
        _objects(data, "tokens")[0]["name"] = "renamed"  # changed: it must be written anew
    r, _ = _bad(tmp_path, edit)
    assert "error[TLD0108]" in r.err and "a token needs its kind" in r.err


def test_the_diagnostic_points_at_the_object(tmp_path):
    def edit(data, tmj):
        _objects(data, "tiles")[4]["rotation"] = 30
    r, tmj = _bad(tmp_path, edit)
    line = int(re.search(rf"{re.escape(str(tmj))}:(\d+):", r.err)[1])
    assert tmj.read_text(encoding="utf-8").splitlines()[line - 1].strip().startswith('"rotation": 30')


@pytest.mark.parametrize("layer, key, written, words", [
    ("tiles", "x", "NaN", "is not a finite number"),
    ("tiles", "y", "Infinity", "is not a finite number"),
    ("tiles", "x", "-Infinity", "is not a finite number"),
    ("tiles", "x", "1e400", "is not a finite number"),
    ("tiles", "rotation", "NaN", "is not a finite number"),
    ("tokens", "x", "NaN", "is not a finite number"),
    ("tiles", "x", "1" + "0" * 400, "is beyond ±2^53"),
    ("tiles", "rotation", "1e300", "is beyond ±2^53"),
])
def test_a_coordinate_that_is_no_number_tiled_writes_is_located(tmp_path, layer, key, written, words):
    """`NaN`, `Infinity` and `1e400` (Python's json reads them as floats) and integers
    beyond any double were internal errors (`int(nan)`, a float division overflowing):
    now TLD0102 at the value (issue 38)."""
    copy, tmj = export(tmp_path, "d2e-quests", "first_blood")
    data = json.loads(tmj.read_text(encoding="utf-8"))
    _objects(data, layer)[1][key] = "SENTINEL"
    tmj.write_text(json.dumps(data, indent=1).replace('"SENTINEL"', written), encoding="utf-8")
    line = next(i for i, text in enumerate(tmj.read_text(encoding="utf-8").splitlines(), 1) if written in text)
    r = back(tmj)
    assert r.code == 1 and "Traceback" not in r.err and "I0001" not in r.err and "E0103" not in r.err, r.err
    assert "error[TLD0102]" in r.err and f"/objects/1/{key}: `" in r.err and words in r.err
    assert f"{tmj.name}:{line}:" in r.err or f"{tmj}:{line}:" in r.err


@pytest.mark.parametrize("pack_dir", ["ab " * 2000, "a\x00b"])
def test_a_pack_folder_the_system_refuses_is_no_pack_folder(tmp_path, pack_dir):
    # make fuzz seed 4106 r:29536: a `questc.pack_dir` of 250,000 characters made the
    # folder test raise OSError (ENAMETOOLONG, which Path.is_file lets through): I0001.
    # The pack is then looked for by its id, as when the folder holds no pack.yaml.
    def edit(data, tmj):
        next(p for p in data["properties"] if p["name"] == "questc.pack_dir")["value"] = pack_dir
    copy, tmj = export(tmp_path, "d2e-quests", "first_blood")
    data = json.loads(tmj.read_text(encoding="utf-8"))
    edit(data, tmj)
    _save(tmj, data)
    r = back(tmj)
    assert "Traceback" not in r.err and "I0001" not in r.err and "E0103" not in r.err, r.err
    assert r.code in (0, 1)


def test_the_conventions_are_taken_after_the_converter_too(tmp_path):
    # new-user trial: `questc --plugin valkyrie export valkyrie PACK … -q` was "unrecognized
    # arguments: -q" (exit 2): every command takes -q, -v and --no-cache, also after its TARGET
    pack = REPO / "content" / "d2e-quests"
    base = ["--plugin", "tiled", "export", "tiled", pack, "--quest", "first_blood", "-o", tmp_path / "t"]
    quiet = questc(*base, "-q", "--no-cache")
    assert quiet.code == 0 and quiet.err == "", quiet.err
    loud = questc(*base, "-v")
    assert loud.code == 0 and "timing:" in loud.err
    before = questc("--plugin", "tiled", "export", "-q", "tiled", pack, "--quest", "first_blood", "-o", tmp_path / "u")
    assert before.code == 0 and before.err == ""  # before the TARGET, as always
    back = questc("--plugin", "tiled", "import", "tiled", tmp_path / "t" / "first_blood.tmj", "-q", "-o", tmp_path / "q.quest")
    assert back.code == 0, back.err
