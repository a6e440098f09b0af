"""Quests with no map (issue 39, the Valkyrie campaign example): a Valkyrie quest that places no
tile (a hub or menu of dialogs and UI) is imported as a quest whose map is empty (`map { }`),
checked, exported and loaded in the app's loader (docs/valkyrie.md, "Quests with no map").
The hand-made hub (tests/data/valkyrie/hub, CC0) needs nothing outside the repository; the
app's own campaign example is read from ../shared when it is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import REPO, SHARED, questc
from test_valkyrie_idioms import app_problems, loader_missing

pytestmark = pytest.mark.plugins

HUB = REPO / "tests" / "data" / "valkyrie" / "hub"
CAMPAIGN = SHARED / "data" / "valkyrie-quests" / "campaign"


def _texts(pack: Path) -> dict[str, str]:
    """Each quest file of a pack without its header line and `# [Section]` notes."""
    return {p.name: "\n".join(re.sub(r"  # \[.*\]$", "", ln) for ln in p.read_text(encoding="utf-8").splitlines()[1:])
            for p in sorted(pack.glob("*.quest"))}


def test_a_hub_with_no_tile_imports_checks_exports_loads_and_comes_back(tmp_path):
    r = questc("--plugin", "valkyrie", "check", HUB, "--format", "json")
    found = r.json()["diagnostics"]
    assert r.code == 0 and [d for d in found if d["severity"] == "error"] == [], found
    assert [(d["code"], d["file"]) for d in found if d["code"] in ("VK0207", "VK0203")] == [("VK0207", f"{HUB}/quest.ini")]
    pack = tmp_path / "pack"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", HUB, "-o", pack).code == 0
    texts = _texts(pack)
    hub = texts["hub.quest"]
    assert "  map {\n  }\n" in hub and "start heroes" not in hub, hub
    assert re.search(r'ask "The Crossroads Inn" \{\n\s+choice "Enter the crypt" \{ next quest part \}', hub), hub
    assert "next quest hub" in texts["part.quest"]
    # the campaign variables: `%cleared` set in the crypt and read at the inn, the app's `$%gold`
    assert "  campaign var cleared = 0\n" in hub and re.search(r"if cleared == 1 \{\n\s+win ", hub), hub
    part = texts["part.quest"]
    assert "  campaign var cleared = 0\n  " in part and "  campaign var app_gold = 0\n" in part, part
    assert "set cleared = 1\n    advance app_gold by 25\n" in part, part
    # the inn's win is reachable only through the value the crypt hands back: no "never taken" (Q0325),
    # no "can never be won" (Q0305 / Q0802)
    r = questc("check", pack, "--format", "json")
    assert r.code == 0 and not {d["code"] for d in r.json()["diagnostics"]} & {"Q0325", "Q0305", "Q0802", "Q0314"}, r.out
    out = tmp_path / "out"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "--quest", "hub", "-o", out)
    assert r.code == 0, r.err
    top = out / "Hub"
    assert (top / "quest.ini").is_file() and (top / "Part" / "quest.ini").is_file()
    # written back as the app's campaign variables (VarManager.TrimQuest keeps `%` and `$%` ones)
    assert "conditions=%cleared,==,1" in (top / "events.ini").read_text(encoding="utf-8")
    part_events = (top / "Part" / "events.ini").read_text(encoding="utf-8")
    assert "operations=%cleared,=,1\n" in part_events and "operations=$%gold,+,25\n" in part_events, part_events
    assert not (top / "tiles.ini").exists() or "[Tile" not in (top / "tiles.ini").read_text(encoding="utf-8")
    again = tmp_path / "again"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", top, "-o", again).code == 0
    assert _texts(again) == texts
    why = loader_missing()
    if why:
        pytest.skip(why)
    folders = [HUB, HUB / "part", top, top / "Part"]
    assert app_problems(*folders) == {str(f.resolve()): [] for f in folders}


def test_a_folder_that_is_no_valkyrie_quest_is_still_refused(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "quest.ini").write_text("[Notes]\nfood=bread\n", encoding="utf-8")
    r = questc("--plugin", "valkyrie", "check", tmp_path / "notes")
    assert r.code == 1 and "error[VK0203]" in r.err and "quest.ini has no [Quest] section" in r.err, r.err
    # a quest whose tiles are all of sides questc has no shape for is not a quest with no map
    bad = tmp_path / "secret"
    bad.mkdir()
    (bad / "quest.ini").write_text("[Quest]\nformat=7\ntype=D2E\n[QuestData]\ntiles.ini\n", encoding="utf-8")
    (bad / "tiles.ini").write_text("[TileSecret]\nxposition=0\nyposition=0\nside=TileSideS2B\n", encoding="utf-8")
    r = questc("--plugin", "valkyrie", "check", bad)
    assert r.code == 1 and "it places no tile questc knows" in r.err and "VK0207" not in r.err, r.err


@pytest.mark.skipif(not (CAMPAIGN / "quest.ini").is_file(), reason="the Valkyrie campaign example (../shared/data/valkyrie-quests/campaign) is not present")
def test_the_valkyrie_campaign_example_imports_checks_exports_and_loads(tmp_path):
    r = questc("--plugin", "valkyrie", "check", CAMPAIGN, "--format", "json")
    found = r.json()["diagnostics"]
    assert r.code == 0 and [d for d in found if d["severity"] == "error"] == [], found  # before: 4 VK0203 errors
    # the campaign variables are read (before: VK0303 at `%fin` in three places, the hub's title and
    # its map of UI buttons left out); 10 warnings where there were 19, none a "never" of the analysis;
    # the quest items are read (before: VK0303 at `add=UICityBg QItem0 QItem1`, `add=QItemrelic`, `$restock,=,1`)
    assert not [d for d in found if "%fin" in d["message"] or "QItem" in d["message"] or "restock" in d["message"]], found
    assert r.json()["summary"] == {"errors": 0, "warnings": 10} == {"errors": 0, "warnings": len(found)} and not {d["code"] for d in found} & {"Q0325", "Q0315", "Q0314", "Q0305", "Q0802"}, found
    pack = tmp_path / "pack"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", CAMPAIGN, "-o", pack).code == 0
    texts = _texts(pack)
    assert sorted(texts) == ["campaign.quest", "q1e1.quest", "q1e2.quest", "q2.quest"]
    hub = texts["campaign.quest"]
    assert "  campaign var fin = 0\n" in hub and "  campaign var app_famelegendary = 0\n" in hub, hub
    assert re.search(r"if fin == 0 \{\n(.*\n)*?\s+next quest q1e1\n\s+\} else if fin > 0 \{", hub), hub  # the title
    assert re.search(r'choice "UIQuest" \{.*next quest q2 \}', hub) and 'choice "UICity" {' in hub, hub  # the map's icons
    # the city's shop of two items (EventCity adds QItem0 and QItem1), the relic given (EventRelic adds QItemrelic)
    assert "  item item0 { traits act1, act2; except item1; starting }\n" in hub and "  item relic { with relic; starting }\n" in hub, hub
    assert re.search(r"\n\s+shop item0, item1\n", hub) and re.search(r"\n\s+give relic\n", hub), hub
    assert 'choice "Restock" { restock; say ' in hub, hub  # EventRestock: `$restock,=,1` draws every item again
    assert "set fin = 1" in texts["q1e1.quest"] and "next quest q1e2" in texts["q1e1.quest"]  # the token, a button
    assert "next quest campaign" in texts["q1e2.quest"]  # the door back to the hub
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "--quest", "campaign", "-o", tmp_path / "trip")
    assert r.code == 0, r.err
    again = tmp_path / "again"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", tmp_path / "trip" / "Campaign", "-o", again).code == 0
    assert _texts(again) == texts  # the round trip gives the same quests
    folders = []
    for quest in ("campaign", "q1e1", "q1e2", "q2"):  # each as the top of its own export
        out = tmp_path / quest
        r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "--quest", quest, "-o", out)
        assert r.code == 0, r.err
        folders += sorted(p.parent for p in out.glob("**/quest.ini"))
    why = loader_missing()
    if why:
        pytest.skip(why)
    originals = [CAMPAIGN, CAMPAIGN / "q1e1", CAMPAIGN / "q1e2", CAMPAIGN / "q2"]
    problems = app_problems(*originals, *folders)
    assert problems == {str(f.resolve()): [] for f in [*originals, *folders]}, problems
