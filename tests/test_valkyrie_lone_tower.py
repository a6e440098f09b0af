"""A Valkyrie quest written by hand as an early editor saved it (tests/data/valkyrie/lone_tower,
this project's own words, CC0): `format=4`, one file holding every component (quest.ini with
no `[QuestData]`: QuestData reads quest.ini's own sections as components before the listed
files'), no `type=`, `True`/`False` in capitals, random events, `EventEnd…` endings and a
round counter in the older `conditions=` form. It imports, checks with no error or warning,
exports (format 7, the components in their own files), both load in the app's own loader with
no problem, and the export imports back to the same quest (issue 39, old quest formats)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, questc
from valkyrie_helpers import trial
from test_valkyrie_idioms import loads_clean

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

SOURCE = REPO / "tests" / "data" / "valkyrie" / "lone_tower"


def body(text: str) -> str:
    return re.sub(r"  # \[[^\]]*\]", "", "\n".join(ln for ln in text.splitlines() if not ln.startswith("#")))


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[str, str, Path, str]:
    tmp = tmp_path_factory.mktemp("lone_tower")
    pack, said, out = trial(SOURCE, tmp)[:3]
    assert "warning[" not in said, said
    folder = next(out.glob("*/quest.ini")).parent
    back = tmp / "back"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", back)
    assert r.code == 0, r.err
    return (next(pack.glob("*.quest")).read_text(encoding="utf-8"), said, folder,
            next(back.glob("*.quest")).read_text(encoding="utf-8"))


def test_the_components_of_quest_ini_itself_are_read(imported):
    """Every component of this quest lies in quest.ini; they were never read (the quest was
    imported with no map, no event, and only a VK0207 warning saying it placed no tile)."""
    text, said, folder, back = imported
    assert "VK0207" not in said
    assert len(re.findall(r"(?m)^    tile ", text)) == 8 and "start heroes on entrance1B" in text
    assert "spawn elemental as keeper at 5B(1,1)" in text and "token search as shelf at 6B(1,2)" in text
    ev = dict(re.findall(r"(?m)^  on ([^{]+?) \{\n((?:    .*\n)+)  \}", text))
    assert ev["defeated elemental"].strip() == 'win "The keeper breaks apart into wind and ash. You win."'
    assert ev["round_start if rounds >= 8"].strip().startswith('lose "The moon has set')
    assert ev["round_end"].strip() == "advance rounds by 1"
    assert ev["searched shelf"].count("option {") == 2 and "set scroll = 1" in ev["searched shelf"]
    assert "spawn keeper" in ev["picked_up orb"]
    loads_clean(SOURCE, folder)
    assert body(back) == body(text)


def test_an_event_end_section_ends_the_quest_in_format_8_and_earlier_only(tmp_path):
    """QuestData.QuestComponent adds `$end,=,1` to a section named `EventEnd…` only when the
    quest's format is 8 or less: in a later format the name is an ordinary event's. The same
    quest saved as format 9 was still read with a win and a loss (an ending the app never
    plays)."""
    import shutil

    src = tmp_path / "lone_tower"
    shutil.copytree(SOURCE, src)
    ini = src / "quest.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace("format=4", "format=9"), encoding="utf-8")
    r = questc("--plugin", "valkyrie", "import", "valkyrie", src, "-o", tmp_path / "pack")
    assert r.code == 0, r.err
    text = next((tmp_path / "pack").glob("*.quest")).read_text(encoding="utf-8")
    assert 'on defeated elemental {\n    say "The keeper breaks apart into wind and ash. You win."\n  }' in text
    assert "win " not in text and "lose " not in text
