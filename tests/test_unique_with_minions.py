"""A unique monster with minions of its group beside it (`spawn U { master at …; minion at …
heroes 4 }`, U unique): the unique figure on its master place, whatever the group limit (as
`spawn U at SPACE` places it), the minions counted against the group's minion limit (Q0202);
the bundle's figures per hero count; First Blood's ettin read from and written back to the
Valkyrie app's `placement<N>` lists (docs/language.md, "Encounter statements (in encounters and single-encounter quests)"; docs/valkyrie.md, "Custom
monsters"). d2e-base's ettin limits: 2 heroes 0 masters 1 minion, 3 heroes 1 master 0
minions, 4 heroes 1 master 1 minion."""

from __future__ import annotations

import pytest

from compiler.diagnostics import Sink
from compiler.emit.bundle import bundle_of
from conftest import REPO, questc
from quest_helpers import MAP, codes, quest, run

FIRST = REPO / "tests" / "data" / "valkyrie" / "01_FirstBlood"

ROOM = """
  monster mauler based on ettin { unique }
""" + MAP


def ettin(points: str) -> str:
    return quest(ROOM + "  spawn mauler {\n" + points + "  }\n")


def test_the_unique_figure_and_its_minions_per_hero_count():
    model, sink = run(ettin("    master at 9A(1,1)\n    minion at 9A(3,3) heroes 4\n"))
    assert codes(sink) == []  # 2 heroes: one master where the limit allows none: the unique figure
    (sp,) = bundle_of(model)["quests"]["q"]["encounters"][0]["spawns"]
    assert sp["unique"] is True
    assert {h: [f["rank"] for f in figs] for h, figs in sp["figures"].items()} == {
        "2": ["master"], "3": ["master"], "4": ["master", "minion"]}


def test_minions_past_the_group_limit_are_q0202():
    _, sink = run(ettin("    master at 9A(1,1)\n    minion at 9A(3,3) heroes 3..4\n"))
    assert codes(sink) == ["Q0202"]  # 3 heroes: 1 minion, the limit 0
    assert "1 minion(s) with 3 heroes" in sink.items[0].message
    # without `unique` the master counts: 2 heroes, 1 master where the limit allows none
    plain = quest(ROOM.replace(" { unique }", " { name \"Mauler\" }") + "  spawn mauler {\n    master at 9A(1,1)\n  }\n")
    _, sink = run(plain)
    assert codes(sink) == ["Q0202"] and "1 master(s) with 2 heroes" in sink.items[0].message


@pytest.mark.plugins
@pytest.mark.usefixtures("valkyrie_codes")  # the plugin's tests: its VK codes in the catalogue
def test_first_bloods_ettin_is_read_with_its_minion_and_exported_back(tmp_path):
    from questc_valkyrie.ini import read_ini
    from questc_valkyrie.run import import_quest
    sink = Sink()
    done = import_quest(FIRST, sink)
    assert done is not None
    assert [d.code for d in sink.items if d.code == "VK0303"] == []  # the last one was this minion (and 2 activations)
    text = done[1].files["first_blood.quest"]
    assert "  spawn blood_ettin as ettins {\n    master at 8A(1,3)\n    minion at 8A(2,1) heroes 4\n  }\n" in text
    pack = tmp_path / "first"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", str(FIRST), "-o", str(pack))
    assert r.code == 0, r.err
    r = questc("check", str(pack))
    assert r.code == 0 and "Q0202" not in r.err, r.err
    r = questc("--plugin", "valkyrie", "export", "valkyrie", str(pack), "-o", str(tmp_path / "out"))
    assert r.code == 0, r.err
    folder = tmp_path / "out" / "FirstBlood"
    secs = {s.name: s for f in folder.glob("*.ini") for s in read_ini(f.read_text(), f.name, Sink()).sections}
    spawn = secs["SpawnEttins"]
    assert spawn.get("unique") == "true"
    assert [spawn.get(f"placement{c}") for c in (2, 3, 4)] == ["MPlaceEttins", "MPlaceEttins", "MPlaceEttins MPlaceEttins2"]
    assert secs["MPlaceEttins"].get("master") == "true" and secs["MPlaceEttins2"].get("master") in (None, "false")
    again = tmp_path / "again"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", str(folder), "-o", str(again))
    assert r.code == 0, r.err
    assert "  spawn blood_ettin as ettins {\n    master at 8A(1,3)\n    minion at 8A(2,1) heroes 4\n  }\n" in \
        (again / "first_blood.quest").read_text()
