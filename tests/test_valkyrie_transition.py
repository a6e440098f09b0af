"""The transition piece through the valkyrie plugin (issue 32): `TileSideTransitionA` placed
with rotation=90 between an outdoor and an indoor tile (tests/data/valkyrie/transition, a
quest of our own) imports as one connected map, exports with the transition at rotation=90,
and imports again the same; without its orientation offset (offsets.yaml) the map falls
apart and VK0305 names the transition as the tile to turn."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.diagnostics import Sink
from questc_valkyrie.ini import read_ini
from questc_valkyrie.offsets import load_table
from conftest import REPO, questc

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

CROSSING = REPO / "tests" / "data" / "valkyrie" / "transition"
APP = REPO.parent / "shared" / "data" / "valkyrie-app"


def vk(*argv: object):
    return questc("--plugin", "valkyrie", *map(str, argv))


def body(text: str) -> list[str]:
    return [re.sub(r"\s+#.*$", "", ln) for ln in text.splitlines() if not ln.startswith("#")]


def imported(src: Path, out: Path) -> str:
    run = vk("import", "valkyrie", src, "-o", out)
    assert run.code == 0, run.err
    return next(out.glob("*.quest")).read_text(encoding="utf-8")


def test_the_offset_is_a_quarter_turn_for_both_faces():
    table = load_table()
    assert table["TileSideTransitionA"]["offset"] == 90
    assert table["TileSideTransitionB"]["offset"] == 90
    assert table["TileSideTransitionB"]["same_image_as"] == "TileSideTransitionA"


@pytest.mark.skipif(not (APP / "d2e-base-tiles.ini").is_file(), reason="the Valkyrie app's tile list (../shared) is not present")
def test_both_transition_faces_are_one_image_in_the_app():
    ini = read_ini((APP / "d2e-base-tiles.ini").read_text(encoding="utf-8"), "d2e-base-tiles.ini", Sink())
    image = {s.name: s.get("image") for s in ini.sections}
    assert image["TileSideTransitionA"] == image["TileSideTransitionB"]


def test_outdoor_transition_indoor_imports_as_one_connected_map(tmp_path):
    text = imported(CROSSING, tmp_path / "pack")
    # rotation=90 read the app's way is rotate 270; the offset turns it a quarter more, so
    # its doorways face north (12A's south opening) and south (26B's north opening)
    assert "tile transition1A at (4, 5) rotate 0  # [TileTransition1A]" in text
    check = questc("check", tmp_path / "pack", "--format", "json")
    assert check.code == 0, check.out
    assert check.json()["diagnostics"] == []  # one map, every opening joined, nothing loose
    direct = vk("check", CROSSING, "--format", "json")
    assert direct.code == 0 and direct.json()["diagnostics"] == []


def test_export_keeps_the_published_rotation_and_reimports_the_same(tmp_path):
    first = imported(CROSSING, tmp_path / "pack")
    run = vk("export", "valkyrie", tmp_path / "pack", "-o", tmp_path / "out")
    assert run.code == 0, run.err
    (folder,) = [p for p in (tmp_path / "out").iterdir() if p.is_dir()]
    tiles = read_ini((folder / "tiles.ini").read_text(encoding="utf-8"), "tiles.ini", Sink())
    by_side = {s.get("side"): s for s in tiles.sections}
    assert by_side["TileSideTransitionA"].get("rotation") == "90"
    # the other tiles go out as the hand-made quest has them (rotation 0 is written as no key)
    assert {s.get("side"): (s.get("xposition"), s.get("yposition"), s.get("rotation") or "0") for s in tiles.sections} == {
        "TileSide12A": ("2", "0", "0"), "TileSideEntranceA": ("1", "-1", "270"),
        "TileSideTransitionA": ("4", "-6", "90"), "TileSide26B": ("3", "-7", "0"), "TileSideCapB": ("4", "-10", "0")}
    again = imported(folder, tmp_path / "again")
    assert body(again) == body(first)  # line for line, but the comments naming sections
    check = questc("check", tmp_path / "again", "--format", "json")
    assert check.code == 0 and check.json()["diagnostics"] == []


def test_without_the_offset_the_map_falls_apart_and_vk0305_names_the_transition(tmp_path, monkeypatch):
    import questc_valkyrie.offsets as offsets
    from questc_valkyrie.run import import_quest, write_pack

    monkeypatch.setattr(offsets, "load_offsets", lambda: {k: 0 for k in offsets.load_table()})
    sink = Sink()
    done = import_quest(CROSSING, sink)
    assert done is not None
    found = [d for d in sink.items if d.code == "VK0305"]
    # one finding, at the transition's section, and the turn that joins every opening
    assert len(found) == 1, [d.message for d in sink.items]
    d = found[0]
    assert d.span.file.endswith("tiles.ini") and d.span.line == 14
    assert "[TileTransition1A]" in d.message and "TileSideTransitionA" in d.message
    assert d.fix is not None and "90" in d.fix
    assert write_pack(done[1], tmp_path / "pack", Sink())
    check = questc("check", tmp_path / "pack", "--format", "json")
    assert "M0211" in {x["code"] for x in check.json()["diagnostics"]}


@pytest.mark.parametrize(("side", "section", "line"), [("TileSide12A", "Tile12AOutdoor", 2), ("TileSideEntranceA", "TileEntrance", 7)])
def test_vk0305_names_the_tile_turned_wrong_not_its_neighbours(monkeypatch, side, section, line):
    """A side read half a turn wrong (a wrong offset, monkeypatched): its neighbours' openings
    meet its walls too, but the turn proposed is the wrong tile's, the one that joins most."""
    import questc_valkyrie.offsets as offsets
    from questc_valkyrie.run import import_quest

    table = {k: v["offset"] for k, v in offsets.load_table().items()}
    monkeypatch.setattr(offsets, "load_offsets", lambda: {**table, side: 180})
    sink = Sink()
    assert import_quest(CROSSING, sink) is not None
    (d,) = [d for d in sink.items if d.code == "VK0305"]
    assert (d.span.line, f"[{section}]" in d.message, f"`{side}` turned 180 degrees" in d.message) == (line, True, True)
    assert "`offset: 0`" in (d.fix or "")  # 180 more than the wrong 180: the offset it should have


def test_the_published_quests_meet_no_wall():
    from questc_valkyrie.run import import_quest

    for folder in ("01_FirstBlood", "02_AFatGoblin"):
        sink = Sink()
        assert import_quest(REPO / "tests" / "data" / "valkyrie" / folder, sink) is not None
        assert "VK0305" not in {d.code for d in sink.items}
