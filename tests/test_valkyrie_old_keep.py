"""A Valkyrie quest written by hand as an old editor saved it (tests/data/valkyrie/old_keep,
this project's own words, CC0): `format=5` and `; Saved by version: 1.4.3` headers, a
`[StartingItem…]` section (format 3's spelling of a QItem), a QItem with `starting=False`,
tests in the older `conditions=` form, `EventEnd…` sections as the endings (format 8 and
earlier: QuestData.QuestComponent adds `$end=1` to them), events with no `display`. It
imports, checks with no error, exports (the export writes format 7), both the original and
the export load in the app's own loader with no problem, and the export imports back to the
same quest (issue 39, old quest formats)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, questc
from valkyrie_helpers import trial
from test_valkyrie_idioms import loads_clean

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

SOURCE = REPO / "tests" / "data" / "valkyrie" / "old_keep"


def body(text: str) -> str:
    """The quest without comments (the section names they quote change on export)."""
    return re.sub(r"  # \[[^\]]*\]", "", "\n".join(ln for ln in text.splitlines() if not ln.startswith("#")))


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[str, str, Path, str]:
    """(the imported quest's text, `check`'s output on the folder, the exported folder, the
    export imported again)."""
    tmp = tmp_path_factory.mktemp("old_keep")
    pack, said, out = trial(SOURCE, tmp)[:3]
    folder = next(out.glob("*/quest.ini")).parent
    assert "format=7" in (folder / "quest.ini").read_text(encoding="utf-8")
    back = tmp / "back"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", back)
    assert r.code == 0, r.err
    return (next(pack.glob("*.quest")).read_text(encoding="utf-8"), said, folder,
            next(back.glob("*.quest")).read_text(encoding="utf-8"))


def test_the_old_format_quest_imports_checks_exports_loads_and_round_trips(imported):
    text, said, folder, back = imported
    assert "VK0399" not in said and "E0103" not in said and "warning[" not in said, said
    # EventEnd… sections with no event after them: endings, their side from the text and trigger
    assert "on defeated ettin if banner == 1 and freed == 1 {\n    win " in text
    assert "on defeated ettin if freed == 0 {\n    lose " in text
    assert "on morale_zero {\n    lose " in text
    # `conditions=` (the older form of the tests) on a StartRound event
    assert "on round_start 3 {" in text
    # the QItem with starting=False: given by the chest, not at the start
    assert "item key { named ItemLeatherArmor }" in text and "give key" in text
    loads_clean(SOURCE, folder)
    assert body(back) == body(text)


def test_a_starting_item_section_is_a_starting_qitem(imported):
    """`[StartingItemLantern]` (format 3's name, which QuestData.LoadComponents still reads
    as `[QItemLantern]`, and with no `starting` key a starting item) was dropped with no word:
    the party started without the lantern's shield."""
    text, _said, folder, back = imported
    assert "item lantern { named ItemIronShield; starting }" in text
    assert "item lantern { named ItemIronShield; starting }" in back
    other = "".join(p.read_text(encoding="utf-8") for p in folder.glob("*.ini"))
    assert "[QItemLantern]" in other and "StartingItem" not in other
