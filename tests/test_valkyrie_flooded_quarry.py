"""Maps as a store author lays them in the app's editor (tests/data/valkyrie/flooded_quarry,
this project's own words, CC0): base-game tile sides no other test quest places (1A, 2B, 3B,
4A, 10B, 13B, 19B, 21A, 22A, 25B, 28B), every rotation, end caps on the open ends, the
transition between the outdoor quarry and the indoor mine, positions written `29.0` and
negative, a door between two tiles, a room a lever adds later, and a crypt apart from the
rest that only the mirror's event adds (a teleport: the app allows it). It imports as two
connected maps, checks with no error, exports, imports back the same, and the original and
the export load in the app's own loader with no problem."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import REPO, questc
from valkyrie_helpers import trial
from test_valkyrie_idioms import loads_clean

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

SOURCE = REPO / "tests" / "data" / "valkyrie" / "flooded_quarry"


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[str, str, Path, Path]:
    """(the imported quest's text, `check`'s output on the folder, the pack, the exported folder)."""
    tmp = tmp_path_factory.mktemp("flooded_quarry")
    pack, said, out = trial(SOURCE, tmp)[:3]
    return next(pack.glob("*.quest")).read_text(encoding="utf-8"), said, pack, next(out.glob("*/quest.ini")).parent


def tiles_of(text: str) -> list[str]:
    return re.findall(r"(?m)^      (tile .*?)  # \[", text)


def test_the_quarry_imports_as_two_connected_maps_checks_exports_and_loads(imported, tmp_path):
    text, said, _pack, folder = imported
    assert "no problems found" in said, said  # nothing the app would not show broken
    assert sorted(set(re.findall(r"rotate (\d+)", text))) == ["0", "180", "270", "90"]
    enc1, enc2 = text.split("  encounter 2 {")
    # the surface, the adit (the transition, turned by its offset), the mine; the sump the lever adds
    assert tiles_of(enc1) == [
        "tile 22A at (1, 9) rotate 0", "tile endcap1A at (0, 9) rotate 90", "tile 1A at (7, 6) rotate 270",
        "tile 4A at (7, 0) rotate 180", "tile 21A at (13, 1) rotate 0", "tile endcap1A as endcap1A_2 at (19, 1) rotate 270",
        "tile transition1A at (13, 9) rotate 90", "tile 2B at (15, 7) rotate 270", "tile 3B at (21, 8) rotate 180",
        "tile 10B at (27, 8) rotate 180", "tile endcap1B at (31, 9) rotate 270",
        "tile 25B at (23, 6) rotate 90 hidden", "tile endcap1B as endcap1B_2 at (29, 6) rotate 270 hidden"]
    # the door across the joint of the hall and the lamp room: the hall's east opening (2B turned 270)
    assert "door lamp_room on 2B.south  # [DoorLampRoom]" in enc1
    assert re.search(r"on picked_up lever \{\n(      .*\n)*?      reveal 25B, endcap1B_2\n", enc1)
    # the crypt lies apart: its own encounter, entered by the mirror's event
    assert re.search(r"on picked_up mirror \{\n(      .*\n)*?      next\n", enc1)
    assert tiles_of(enc2) == [
        "tile 13B at (0, 7) rotate 0", "tile 19B at (1, 1) rotate 180", "tile endcap1B as endcap1B_3 at (1, 0) rotate 180",
        "tile 28B at (4, 13) rotate 0", "tile endcap1B as endcap1B_4 at (6, 15) rotate 0"]
    assert "M0211" not in said and "VK0305" not in said
    # the heroes start on the crypt stair, not on 13B where the zombies stand at setup: a start on
    # the spawn's tile made the compiler move the zombies off it, onto 19B and 28B (before)
    assert "    start heroes on 19B\n" in enc2 and "spawn zombie as crypt_dead at 13B(2,3)" in enc2
    # the round trip: the export imports back to the same maps, doors and events
    back = tmp_path / "back"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", back)
    assert r.code == 0, r.err
    again = next(back.glob("*.quest")).read_text(encoding="utf-8")
    strip = lambda t: [re.sub(r"  # \[.*\]$", "", line) for line in t.splitlines() if not line.startswith("#")]  # noqa: E731
    assert strip(again) == strip(text)
    loads_clean(SOURCE, folder)


def variant(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "flooded_quarry"
    shutil.copytree(SOURCE, folder)
    ini = folder / "tiles.ini"
    text = ini.read_text(encoding="utf-8")
    assert text.count(old) == 1
    ini.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def test_a_position_written_as_a_decimal_is_the_square_the_app_reads():
    """The app reads `xposition`/`yposition` as decimals (float.TryParse): `29.0` is square 29.
    Before, each was VK0304 "not a whole number", an error, and the tile was left out."""
    r = questc("--plugin", "valkyrie", "check", SOURCE)
    assert "VK0304" not in r.err + r.out
    assert "xposition=29.0" in (SOURCE / "tiles.ini").read_text(encoding="utf-8")


@pytest.mark.parametrize(("old", "new", "key"), [
    ("[TileShaft]\nxposition=29.0", "[TileShaft]\nxposition=29.5", "xposition"),  # between squares: questc has no such place
    ("[TileSump]\nxposition=27\nyposition=3.0\nside=TileSide25B\nrotation=270",
     "[TileSump]\nxposition=27\nyposition=3.0\nside=TileSide25B\nrotation=270.0", "rotation"),  # int.TryParse fails: the app draws it unturned
])
def test_a_position_between_squares_or_a_decimal_rotation_stays_vk0304(tmp_path, old, new, key):
    r = questc("--plugin", "valkyrie", "check", variant(tmp_path, old, new))
    assert re.search(rf"error\[VK0304\]: \[Tile\w+\] {key}: `[-\d.]+` is not a whole number", r.err + r.out), r.err + r.out


def test_a_tile_one_square_off_is_named_at_its_position_with_the_position_that_joins_it(tmp_path):
    """The spoil path laid one square too high: its west opening half against the ledge's wall,
    the map in three parts. Before, M0211 at `[Quest]` alone said so, naming no tile's line;
    now VK0313 names the tile, at its `yposition`, and the position that joins it."""
    folder = variant(tmp_path, "[TileSpoilPath]\nxposition=12\nyposition=8", "[TileSpoilPath]\nxposition=12\nyposition=9")
    r = questc("--plugin", "valkyrie", "check", folder)
    said = r.err + r.out
    assert re.search(r"warning\[VK0313\]: \[TileSpoilPath\]: 2 opening square\(s\) of the map meet walls or face a gap; tile side "
                     r"`TileSide21A` moved one square south \(down\) \(xposition=12, yposition=8\) would join \d+ opening square\(s\)\n"
                     r"\s+--> \S+/tiles\.ini:29:1", said), said
    assert said.count("VK0313") == 1 and "VK0305" not in said


def test_an_end_cap_a_square_apart_is_named_with_the_position_that_joins_it(tmp_path):
    """An end cap laid one square beyond the opening it closes (a gap of one square of table)."""
    folder = variant(tmp_path, "[TileCapSpoil]\nxposition=18", "[TileCapSpoil]\nxposition=19")
    r = questc("--plugin", "valkyrie", "check", folder)
    said = r.err + r.out
    assert re.search(r"warning\[VK0313\]: \[TileCapSpoil\]: 4 opening square\(s\) of the map meet walls or face a gap; tile side "
                     r"`TileSideCapA` moved one square west \(left\) \(xposition=18, yposition=7\)", said), said


def test_a_second_area_on_the_table_from_the_start_is_entered_by_the_event_that_places_on_it(tmp_path):
    """The crypt's tiles added by the start with the quarry's, the mirror adding only the relic
    on them (a teleport between two areas both drawn from the start). Before, the start chain
    entered encounter 2 (`next` in `on start`: encounter 1 left at once) and the mirror placed
    the relic on 13B from encounter 1: three errors the app does not have (M0207, Q0201, Q0301).
    Now encounter 2 is entered by the mirror, and VK0303 at the start's `add` says the crypt is
    not on the table before it."""
    folder = tmp_path / "flooded_quarry"
    shutil.copytree(SOURCE, folder)
    ev = folder / "events.ini"
    text = ev.read_text(encoding="utf-8")
    crypt = "TileDeepCrypt TileCryptStair TileCapCryptStair TileBoneNiche TileCapNiche"
    text = text.replace("DoorLampRoom TokenCart\n", f"DoorLampRoom TokenCart {crypt}\n").replace(f"add={crypt} TokenRelic", "add=TokenRelic")
    ev.write_text(text, encoding="utf-8")
    r = questc("--plugin", "valkyrie", "check", folder)
    said = r.err + r.out
    assert "error[" not in said and said.count("warning[") == 1, said
    assert re.search(r"warning\[VK0303\]: \[EventStart\] add: questc cannot express \[TileDeepCrypt\], \[TileCryptStair\], "
                     r"\[TileCapCryptStair\], \[TileBoneNiche\], \[TileCapNiche\] on the table from the start beside the first map, "
                     r"joined to it by no opening \(a teleport: the app allows it\); questc's encounter has one connected map, so "
                     r"they are encounter 2, entered by \[EventMirror\]", said), said
    pack = tmp_path / "pack"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", pack).code == 0
    quest = next(pack.glob("*.quest")).read_text(encoding="utf-8")
    enc1, enc2 = quest.split("  encounter 2 {")
    assert re.search(r"on picked_up mirror \{\n      say [^\n]*\n      next\n", enc1), enc1
    assert "on start {\n      next" not in enc1 and "as relic" not in enc1
    assert "token objective red as relic at 13B(3,2)" in enc2
