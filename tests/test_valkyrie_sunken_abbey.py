"""Base-game tile sides no earlier test quest placed, joined the way an author joins them in
the app's editor (tests/data/valkyrie/sunken_abbey, this project's own words, CC0): the
outdoor sides 2A, 5A, 6A, 13A, 14A, 17A, 19A, 23A, 24A, 25A, 27A, 28A, 29A, 30A and the
extension, the transition's back face (TileSideTransitionB, drawn from the same image as the
front, so turned by the same offset), the indoor 1B, 4B, 7A, 12B, 18B, 20B, 22B, the indoor
extension and the entrance stair, in every rotation; a door across an east-west joint written
with rotation 180 and one across a north-south joint written with rotation 270 (each naming
the tile whose opening it closes), rooms each door adds, positions written `6.0`. It imports
as one connected map with nothing reported, checks with no error, exports, imports back the
same, and the original and the export load in the app's own loader with no problem."""

from __future__ import annotations

import re

import pytest

from conftest import REPO, questc
from test_valkyrie_idioms import loads_clean

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

SOURCE = REPO / "tests" / "data" / "valkyrie" / "sunken_abbey"


def test_the_abbey_imports_as_one_connected_map_checks_exports_round_trips_and_loads(tmp_path):
    pack = tmp_path / "pack"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", SOURCE, "-o", pack)
    assert r.code == 0, r.err
    checked = questc("--plugin", "valkyrie", "check", SOURCE)
    assert "no problems found" in checked.err + checked.out, checked.err + checked.out
    again = questc("check", pack)
    assert "no problems found" in again.err + again.out, again.err + again.out
    text = next(pack.glob("*.quest")).read_text(encoding="utf-8")
    assert "encounter" not in text  # one map: every part joined through openings
    assert sorted(set(re.findall(r"rotate (\d+)", text))) == ["0", "180", "270", "90"]
    codes = re.findall(r"(?m)^    tile (\S+)", text)
    for code in ("2A", "5A", "6A", "13A", "14A", "17A", "19A", "23A", "24A", "25A", "27A", "28A", "29A", "30A", "extender1A",
                 "transition1B", "1B", "4B", "7A", "12B", "18B", "20B", "22B", "extender1B", "exit1B"):
        assert code in codes, code
    # the back face of the transition takes the front's offset: a crossing east to west
    assert "tile transition1B at (30, 8) rotate 90  # [TileCellarStair]" in text
    # the doors on the openings the app draws them across, each on the tile its rotation names
    assert "door cellar on 1B.west  # [DoorCellar]" in text and "door crypt on 1B.south hidden  # [DoorCrypt]" in text
    assert "tile extender1A at (6, 20) rotate 0  # [TileCauseway]" in text  # written `xposition=6.0`, `yposition=15.0`
    assert re.search(r"on open cellar \{\n(    .*\n)*?    reveal 1B, 4B, 22B, extender1B, exit1B\n", text), text
    assert re.search(r"on open crypt \{\n(    .*\n)*?    reveal 7A, 20B, 12B, 18B, endcap1B\n", text), text
    out = tmp_path / "out"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out)
    assert r.code == 0, r.err
    folder = next(out.glob("*/quest.ini")).parent
    back = tmp_path / "back"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", back).code == 0
    strip = lambda t: [re.sub(r"  # \[.*\]$", "", line) for line in t.splitlines() if not line.startswith("#")]  # noqa: E731
    assert strip(next(back.glob("*.quest")).read_text(encoding="utf-8")) == strip(text)
    loads_clean(SOURCE, folder)



def test_a_door_rotation_written_as_a_decimal_is_vk0304_at_the_line(tmp_path):
    """The app reads a door's rotation with int.TryParse (QuestData.Door): `270.0` fails and the
    door is drawn at rotation 0, a bar across the middle of the undercroft rather than across the
    crypt's joint. Before, questc read it as 270 (a decimal, rounded) and put the door on the
    joint with no word; now it is VK0304 at the rotation line, as for a tile's."""
    import shutil

    folder = tmp_path / "sunken_abbey"
    shutil.copytree(SOURCE, folder)
    other = folder / "other.ini"
    text = other.read_text(encoding="utf-8")
    assert text.count("rotation=270\n") == 1
    other.write_text(text.replace("rotation=270\n", "rotation=270.0\n"), encoding="utf-8")
    r = questc("--plugin", "valkyrie", "check", folder)
    said = r.err + r.out
    assert re.search(r"error\[VK0304\]: \[DoorCrypt\] rotation: `270\.0` is not a whole number\n\s+--> \S+/other\.ini:12:1", said), said
