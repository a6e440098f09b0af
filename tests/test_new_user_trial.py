"""Two quests written from the docs alone in the new-user trial (tests/data/new-user, this
project's own words): the tool on maps nobody here had drawn. Each checks with no diagnostic
and builds; the ring quest (a loop of corridors through four corner pieces turned three
ways, a door on the loop, `repeat` inside an `on variable` event, a spawn guarded by the
hero count) also goes through the Valkyrie export, the app's loader, the import and a
second round trip that changes nothing."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from conftest import REPO, questc

DATA = REPO / "tests" / "data" / "new-user"


@pytest.mark.parametrize("pack", ["ring-trial", "marsh-trial"])
def test_the_trial_quests_check_clean_and_build(pack, tmp_path):
    r = questc("check", DATA / pack, "--strict", "--no-cache")
    assert r.code == 0 and "no problems found" in r.err + r.out, r.err + r.out
    r = questc("build", DATA / pack, "-o", tmp_path, "-q", "--no-cache")
    assert r.code == 0, r.err
    bundle = json.loads((tmp_path / pack / "bundle.json").read_text(encoding="utf-8"))
    assert bundle["quests"] and list((tmp_path / pack / "maps").glob("*.png"))


def test_the_ring_map_closes_its_loop(tmp_path):
    # every opening of the loop is joined (no M0304 above), so the far brazier is reached both ways
    # round; with the door on the west side shut, only the east way is open
    r = questc("path", DATA / "ring-trial", "--quest", "the_ring", "--from", "entrance1A(0,0)", "--to", "29B(1,0)")
    assert r.code == 0 and r.out.startswith("cost 19,"), r.out + r.err
    r = questc("path", DATA / "ring-trial", "--quest", "the_ring", "--from", "entrance1A(0,0)", "--to", "29B(1,0)", "--open", "vault")
    assert r.code == 0 and r.out.startswith("cost 13,"), r.out + r.err


@pytest.mark.plugins
@pytest.mark.usefixtures("valkyrie_codes")
def test_the_ring_quest_through_valkyrie_and_back(tmp_path):
    from test_valkyrie_idioms import loads_clean

    pack = tmp_path / "ring-trial"
    shutil.copytree(DATA / "ring-trial", pack)
    out = tmp_path / "vk"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "--quest", "the_ring", "-o", out)
    assert r.code == 0, r.err
    # the one thing the app cannot do: an `activate` effect (VK0308), said at its line
    assert re.findall(r"warning\[(VK\d+)\]", r.err) == ["VK0308"] and "activate ettin" in r.err
    folder = out / "TheRing"
    back = tmp_path / "back"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", back)
    assert r.code == 0, r.err
    r = questc("check", back, "--strict")
    assert r.code == 0, r.err + r.out
    text = (back / "the_ring.quest").read_text(encoding="utf-8")
    assert "spawn zombie as crawler at 18B(2,2) heroes 3..4" in text
    assert re.search(r"on variable shards >= 2 \{\n\s+repeat count \{", text)
    again = tmp_path / "vk2"
    assert questc("--plugin", "valkyrie", "export", "valkyrie", back, "-o", again, "-q").code == 0
    back2 = tmp_path / "back2"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", again / "TheRing", "-o", back2, "-q").code == 0

    def body(p: Path) -> str:  # the quest without the comments naming sections
        return re.sub(r"  # \[.*", "", p.read_text(encoding="utf-8"))

    assert body(back2 / "the_ring.quest") == body(back / "the_ring.quest")
    loads_clean(folder, again / "TheRing")


@pytest.mark.plugins
@pytest.mark.usefixtures("valkyrie_codes")
def test_a_custom_monster_on_a_lieutenant_exports_as_one_figure_with_its_health(tmp_path):
    """`monster bog_king based on splig { health +2 per hero }` (no `unique`) is one figure in
    questc (a lieutenant); the export once called it 'not unique', dropped the added health
    (VK0308) and wrote a spawn without unique=true, which the app places as a group
    (exporter.one_figure)."""
    out = tmp_path / "vk"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", DATA / "marsh-trial", "--quest", "bog_road", "-o", out)
    assert r.code == 0, r.err
    assert "not unique" not in r.err, r.err
    spawns = (out / "BogRoad" / "spawns.ini").read_text(encoding="utf-8")
    king = spawns.split("[SpawnBogKing]", 1)[1].split("\n[", 1)[0]
    assert "unique=true" in king and "uniquehealthhero=2" in king, king
    # imported back as declared: no `unique` added (the export's comment on the custom monster says why its spawns are)
    back = tmp_path / "back"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", out / "BogRoad", "-o", back)
    assert r.code == 0, r.err
    text = next(back.glob("*.quest")).read_text(encoding="utf-8")
    assert re.search(r'  monster bog_king based on splig \{\n    name "The Bog King"\n    health \+2 per hero\n  \}', text), text
