"""questc tiles / monsters / terrain: the library at hand, checked against hand-read
catalog entries of content/d2e-base and content/core-2e."""

from __future__ import annotations

import re

from PIL import Image

from conftest import REPO, questc, write_pack

BASE = str(REPO / "content" / "d2e-base")


def test_a_tile_as_text_with_numbered_openings_and_its_faces():
    r = questc("tiles", "9A", "--pack", BASE)
    assert r.code == 0, r.err
    # 9A: 4x4 plain squares, openings north/east/west at offset 1, two wide (tiles.yaml)
    assert r.out.splitlines() == [
        "9A: outdoor, piece 9, 4x4 squares, 1 copy, faces 9A/9B, pack d2e-base",  # 9B is its dungeon face
        "  +-11-+",
        "  |....|",
        "  3....2",
        "  3....2",
        "  |....|",
        "  +----+",
        "  1: 9A.north (offset 1, 2 wide)",
        "  2: 9A.east (offset 1, 2 wide)",
        "  3: 9A.west (offset 1, 2 wide)",
    ]


def test_tiles_as_json_every_tile_by_default():
    r = questc("tiles", "--pack", BASE, "--format", "json")
    assert r.code == 0, r.err
    tiles = {t["id"]: t for t in r.json()}
    assert list(tiles)[:3] == ["1A", "1B", "2A"] or list(tiles).index("2A") < list(tiles).index("10A")  # natural order
    t = tiles["12A"]
    assert (t["width"], t["height"], t["faces"], t["pack"]) == (5, 5, ["12A", "12B"], "d2e-base")
    assert [(o["number"], o["name"], o["offset"], o["width"]) for o in t["openings"]] == [
        ("1", "12A.south", 2, 2), ("2", "12A.west", 1, 2)]
    assert t["picture"][-1] == "+--11-+"


def test_a_contact_sheet_has_the_numbers_drawn(tmp_path):
    plain, numbered = tmp_path / "a.png", tmp_path / "b.png"
    assert questc("tiles", "9A", "--pack", BASE, "--png", str(numbered)).code == 0
    from compiler.emit.images.outputs import tile_card
    from compiler.emit.images.pictures import TileSheet
    from compiler.emit.images.sheet import render_tile_sheet
    from compiler.options import Options
    from compiler.pipeline import compile_paths
    from compiler.catalogs.terrain import PLAIN

    model = compile_paths([BASE], Options(images=False, sight=False, quests=False)).model
    rules = {"plain": PLAIN, **model.terrain}
    symbols = {r.symbol: tid for tid, r in sorted(rules.items())}
    render_tile_sheet(TileSheet((tile_card(model.tiles["9A"], symbols),), rules, "tiles"), scale=32).save(plain)
    a, b = Image.open(plain), Image.open(numbered)
    # the numbers sit outside the tile: the numbered sheet keeps a square of room round it
    assert b.size[0] > a.size[0] and b.size[1] > a.size[1]
    card = tile_card(model.tiles["9A"], symbols, numbered=True)
    # each number sits on the square just outside the opening's first square
    assert card.numbers == (((1, -1), "1"), ((4, 1), "2"), ((-1, 1), "3"))


def test_monsters_text_and_json():
    r = questc("monsters", "ettin", "--pack", BASE)
    assert r.code == 0, r.err
    lines = r.out.splitlines()
    assert lines[0] == "ettin (Ettin): size 2x2, melee, traits mountain, cave, pack d2e-base"
    assert lines[1] == "  group limits: 2 heroes 0+1; 3 heroes 1+0; 4 heroes 1+1 (masters+minions)"
    assert "  act1 master: speed 3, health 8, attack blue/red, defense grey/grey, Reach" in lines
    j = questc("monsters", "ettin", "--pack", BASE, "--format", "json").json()[0]
    assert j["limits"]["2"] == {"masters": 0, "minions": 1} and j["size"] == [2, 2]
    assert j["acts"]["act1"]["minion"]["surges"] == ["+2 Heart"]


def test_terrain():
    r = questc("terrain", "water", "pit", "--pack", str(REPO / "content" / "core-2e"), "--format", "json")
    assert r.code == 0, r.err
    water, pit = r.json()
    assert (water["id"], water["enter_cost"], water["blocks_movement"]) == ("water", 2, False)
    assert pit["leave_action"] is True


def test_unknown_ids_are_located_usage_errors():
    r = questc("tiles", "12X", "--pack", BASE)
    assert r.code == 2 and "error[X0106]" in r.err and "did you mean `12A`" in r.err
    r = questc("tiles", "12X", "--pack", BASE, "--format", "json")
    assert r.code == 2 and r.codes == ["X0106"]
    r = questc("monsters", "etin", "--pack", BASE)
    assert r.code == 2 and "`ettin`" in r.err


def test_a_pack_whose_quests_are_broken_still_lists(tmp_path):
    root = write_pack(tmp_path, "t", requires=["d2e-base"], files={"broken.quest": "quest {{{\n"})
    r = questc("tiles", "9A", "--pack", str(root))
    assert r.code == 0 and r.out.startswith("9A:")


def test_an_id_several_shipped_packs_define_is_listed_for_each():
    # new-user trial: `questc terrain water` (every shipped pack) gave core-1e's water only
    # ("blocks movement"), hiding core-2e's (2 movement points) from a 2nd-edition designer
    r = questc("terrain", "water", "--format", "json")
    assert r.code == 0, r.err
    got = {(w["id"], w["pack"], w["blocks_movement"], w["enter_cost"]) for w in r.json()}
    assert got == {("water", "core-1e", True, 1), ("water", "core-2e", False, 2)}
    text = questc("terrain").out
    assert text.count("water (Water)") == 2 and not re.search(r"^\w+@", text, re.M)  # the key is no name
    one = questc("terrain", "water", "--pack", str(REPO / "content" / "core-2e"))
    assert one.out.count("water (Water)") == 1 and "pack core-2e" in one.out
