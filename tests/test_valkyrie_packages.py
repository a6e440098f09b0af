"""Valkyrie packages of several quests (issue 39, idiom 5): each quest in a folder of its own
with its quest.ini, an event naming `<folder>/quest.ini` starting it (the app's
StartQuestEvent). Imported as one questc pack of quests linked by `next quest`, checked in
place, exported back as such a package, loaded by the app's loader, imported again.

The test package tests/data/valkyrie/linked_quests/ is our own (a hub and a sub-quest in
`mine/`); the Valkyrie campaign example of the reference data (../shared) is read when it is
there."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest

from compiler.diagnostics import Sink
from conftest import REPO, SHARED, questc
from questc_valkyrie import run as vrun
from questc_valkyrie.run import import_quest, linked_quests
from questc_valkyrie.source import load_quest

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

LINKED = REPO / "tests" / "data" / "valkyrie" / "linked_quests"
CAMPAIGN = SHARED / "data" / "valkyrie-quests" / "campaign"
LOADER = SHARED / "data" / "valkyrie-app" / "loader"


def package_of(folder: Path, dest: Path) -> Path:
    """`folder` zipped as the app's packages are (its files at the top, sub-folders kept)."""
    with zipfile.ZipFile(dest, "w") as z:
        for f in sorted(folder.rglob("*")):
            if f.is_file():
                z.write(f, f.relative_to(folder).as_posix())
    return dest


def without_places(text: str) -> str:
    """A quest file without what names its Valkyrie source (the header, `# [Section]` notes)."""
    return "\n".join(re.sub(r"  # \[[^\]]*\]$", "", ln) for ln in text.splitlines() if not ln.startswith("# Imported by"))


def test_a_folder_of_linked_quests_imports_as_one_pack_of_linked_quests(tmp_path):
    sink = Sink()
    done = import_quest(LINKED, sink)
    assert done is not None and sink.errors == 0, [d.message for d in sink.items]
    _, gen = done
    assert sorted(gen.files) == ["linked_quests.quest", "mine.quest", "pack.yaml"]
    hub, mine = gen.files["linked_quests.quest"], gen.files["mine.quest"]
    assert 'choice "Climb down into the mine" { next quest mine }' in hub
    assert "next quest linked_quests" in mine and mine.startswith("# Imported") and 'quest mine "The Old Mine" {' in mine
    # each quest file's lines lead back to its own Valkyrie files
    line = next(i for i, ln in enumerate(mine.splitlines(), start=1) if "next quest" in ln)
    assert gen.parts["mine.quest"][0][line].file == f"{LINKED}/mine/tokens.ini"
    line = next(i for i, ln in enumerate(hub.splitlines(), start=1) if "next quest" in ln)
    assert gen.parts["linked_quests.quest"][0][line].file == f"{LINKED}/events.ini"
    # the pack checks with no error (warnings: 12A's south doorway is left open on purpose)
    r = questc("--plugin", "valkyrie", "import", "valkyrie", LINKED, "-o", tmp_path / "pack")
    assert r.code == 0, r.err
    r = questc("check", tmp_path / "pack")
    assert r.code == 0 and "0 errors" in r.err, r.err


def test_check_in_place_locates_each_quests_findings_in_its_own_folder():
    r = questc("--plugin", "valkyrie", "check", LINKED)
    assert r.code == 0, r.err
    assert "0 errors, 2 warnings" in r.err
    assert f"{LINKED}/mine/tiles.ini:1:1" in r.err and f"{LINKED}/tiles.ini:1:1" in r.err


def test_the_package_imports_as_its_folder_does(tmp_path):
    pkg = package_of(LINKED, tmp_path / "linked_quests.valkyrie")
    a, b = Sink(), Sink()
    ga, gb = import_quest(LINKED, a), import_quest(pkg, b)
    assert ga is not None and gb is not None and a.errors == b.errors == 0
    assert ga[1].files == gb[1].files


def test_event_names_are_links_as_the_app_reads_them(tmp_path):
    """A name is a link when it is a quest.ini inside the package, relative to the folder of
    the quest naming it; anything else stays an unknown event (VK0301)."""
    root = tmp_path / "pkg"
    shutil.copytree(LINKED, root)
    (root / "cave").mkdir()
    for f in ("quest.ini", "tiles.ini", "tokens.ini", "events.ini", "Localization.English.txt"):
        shutil.copyfile(LINKED / "mine" / f, root / "cave" / f)
    q = load_quest(root, Sink())
    mine = load_quest(root / "mine", Sink())  # as a quest of its own: the folder is its package
    assert q is not None and mine is not None
    assert q.link("mine/quest.ini") == "mine" and q.link("mine\\quest.ini") == "mine"
    assert q.link("./cave/../mine/quest.ini") == "mine"
    assert q.link("quest.ini") == ""  # the quest itself: started again
    assert q.link("../quest.ini") is None  # outside the package
    assert q.link("missing/quest.ini") is None and q.link("mine/events.ini") is None and q.link("EventStart") is None
    sub = next(s for s, _, _ in linked_quests(q, "hub", Sink()) if s.folder == "mine")
    assert sub.link("../quest.ini") == "" and sub.link("../cave/quest.ini") == "cave" and sub.link("quest.ini") == "mine"
    # the hub names a missing folder: an unknown event, located, and nothing else changes
    events = (root / "events.ini").read_text(encoding="utf-8").replace("event2=EventGiveUp", "event2=NextEncounter/quest.ini")
    (root / "events.ini").write_text(events, encoding="utf-8")
    sink = Sink()
    assert import_quest(root, sink) is None
    line = events.splitlines().index("event2=NextEncounter/quest.ini") + 1
    assert [(d.code, d.span.file, d.span.line) for d in sink.items if d.code == "VK0301"] == [("VK0301", f"{root}/events.ini", line)]
    assert "NextEncounter/quest.ini" in next(d.message for d in sink.items if d.code == "VK0301")


def test_the_sub_quests_and_their_ids(tmp_path):
    """Quests are found breadth first from the one imported; a folder's name is its quest's id,
    made unique against the others."""
    root = tmp_path / "pkg"
    shutil.copytree(LINKED, root)
    shutil.copytree(LINKED / "mine", root / "linked_quests")  # a folder named as the hub's id
    tokens = (root / "mine" / "tokens.ini").read_text(encoding="utf-8").replace("event1=../quest.ini", "event1=../linked_quests/quest.ini")
    (root / "mine" / "tokens.ini").write_text(tokens, encoding="utf-8")
    q = load_quest(root, Sink())
    assert q is not None
    found = [(s.folder, qid, sorted((k, v[0]) for k, v in links.items())) for s, qid, links in linked_quests(q, "linked_quests", Sink())]
    assert found == [
        ("", "linked_quests", [("mine/quest.ini", "mine")]),
        ("mine", "mine", [("../linked_quests/quest.ini", "linked_quests_linked_quests")]),
        ("linked_quests", "linked_quests_linked_quests", [("../quest.ini", "linked_quests")]),
    ]


def test_a_package_of_more_quests_than_the_limit_is_refused(monkeypatch):
    monkeypatch.setattr(vrun, "MAX_QUESTS", 1)
    sink = Sink()
    assert import_quest(LINKED, sink) is None
    hit = [d for d in sink.items if d.code == "VK0206"]
    assert len(hit) == 1 and hit[0].span.file == f"{LINKED}/events.ini" and "`mine/quest.ini`" in hit[0].message


def exported_package(tmp_path: Path) -> Path:
    r = questc("--plugin", "valkyrie", "import", "valkyrie", LINKED, "-o", tmp_path / "pack")
    assert r.code == 0, r.err
    r = questc("--plugin", "valkyrie", "export", "valkyrie", tmp_path / "pack", "--quest", "linked_quests", "-o", tmp_path / "out")
    assert r.code == 0, r.err
    return tmp_path / "out"


def test_export_writes_a_package_of_several_quests_and_imports_back(tmp_path):
    out = exported_package(tmp_path)
    top = out / "LinkedQuests"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("quest.ini")) == ["LinkedQuests/Mine/quest.ini", "LinkedQuests/quest.ini"]
    assert "hidden=False" in (top / "quest.ini").read_text(encoding="utf-8")
    assert "hidden=True" in (top / "Mine" / "quest.ini").read_text(encoding="utf-8")  # reached only from the hub
    assert "event1=Mine/quest.ini" in (top / "events.ini").read_text(encoding="utf-8")
    assert "event1=../quest.ini" in (top / "Mine" / "events.ini").read_text(encoding="utf-8")
    with zipfile.ZipFile(out / "LinkedQuests.valkyrie") as z:
        names = z.namelist()
    assert "quest.ini" in names and "Mine/quest.ini" in names and "Mine/events.ini" in names
    # import -> export -> import: the same quests (but for the names of their Valkyrie sections)
    first, again = Sink(), Sink()
    ga, gb = import_quest(LINKED, first), import_quest(out / "LinkedQuests.valkyrie", again, "linked_quests")
    assert ga is not None and gb is not None and again.errors == 0
    assert sorted(ga[1].files) == sorted(gb[1].files)
    for rel in ("linked_quests.quest", "mine.quest"):
        assert without_places(ga[1].files[rel]) == without_places(gb[1].files[rel]), rel


def test_export_of_one_quest_of_the_chain_takes_the_quests_it_leads_to(tmp_path):
    """Exporting the sub-quest puts it at the top, and the hub it leads back to in a folder."""
    exported_package(tmp_path)
    r = questc("--plugin", "valkyrie", "export", "valkyrie", tmp_path / "pack", "--quest", "mine", "-o", tmp_path / "sub")
    assert r.code == 0, r.err
    top = tmp_path / "sub" / "Mine"
    assert "event1=LinkedQuests/quest.ini" in (top / "tokens.ini").read_text(encoding="utf-8") + (top / "events.ini").read_text(encoding="utf-8")
    assert "event1=../quest.ini" in (top / "LinkedQuests" / "events.ini").read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.skipif(not (LOADER / "run.sh").is_file() or shutil.which("mcs") is None or shutil.which("mono") is None,
                    reason="the Valkyrie app's quest loader (../shared/data/valkyrie-app/loader) or mono is not present")
def test_the_export_and_the_original_load_in_the_apps_loader_with_no_problem(tmp_path):
    import subprocess

    out = exported_package(tmp_path)
    folders = [out / "LinkedQuests", out / "LinkedQuests" / "Mine", LINKED, LINKED / "mine"]
    r = subprocess.run(["bash", str(LOADER / "run.sh"), *map(str, folders)], capture_output=True, text=True, timeout=600)
    assert r.stdout.count("=== ") == 4, (r.stdout, r.stderr)
    assert r.stdout.count("  0 problem(s)") == 4 and "PROBLEM" not in r.stdout, r.stdout


@pytest.mark.skipif(not (CAMPAIGN / "quest.ini").is_file(), reason="the Valkyrie campaign example (../shared/data/valkyrie-quests/campaign) is not present")
@pytest.mark.parametrize("form", ["folder", "package"])
def test_the_valkyrie_campaign_example_is_read_as_four_linked_quests(form):
    """The app's campaign example: a hub whose UI starts q1e1 and whose travel event starts q2;
    q1e1's token starts q1e2, whose door leads back to the hub. All four are read and linked;
    none places a tile (the example is made of UI, items and dialogs), so each is a quest with
    no map, said by its own located VK0207 (docs/valkyrie.md, "Quests with no map"); before,
    each was refused with VK0203."""
    path = CAMPAIGN if form == "folder" else CAMPAIGN.parent / "packages" / "campaign.valkyrie"
    q = load_quest(path, Sink())
    assert q is not None
    found = [(s.folder, qid, sorted((k, v[0]) for k, v in links.items())) for s, qid, links in linked_quests(q, "campaign", Sink())]
    assert found == [
        ("", "campaign", [("q1e1/quest.ini", "q1e1"), ("q2/quest.ini", "q2")]),
        ("q2", "q2", []),  # events.ini is listed before ui.ini
        ("q1e1", "q1e1", [("../q1e2/quest.ini", "q1e2")]),
        ("q1e2", "q1e2", [("../quest.ini", "campaign")]),
    ]
    sink = Sink()
    done = import_quest(path, sink)
    assert done is not None and sink.errors == 0, [d.message for d in sink.items]
    assert sorted(done[1].files) == ["campaign.quest", "pack.yaml", "q1e1.quest", "q1e2.quest", "q2.quest"]
    mapless = sorted(d.span.file for d in sink.items if d.code == "VK0207")
    assert mapless == sorted(f"{path}/{f}quest.ini" for f in ("", "q1e1/", "q1e2/", "q2/"))
    assert "VK0203" not in [d.code for d in sink.items]
    assert "VK0301" not in [d.code for d in sink.items]  # every `…/quest.ini` it names is a link


def menu_package(tmp_path: Path) -> Path:
    """linked_quests with its own quest made a menu: no tile, a start dialog whose buttons start
    the mine or end the quest (as store packages open on a menu of their parts)."""
    root = tmp_path / "menu"
    shutil.copytree(LINKED, root)
    for f in ("tiles.ini", "tokens.ini"):
        (root / f).unlink()
    quest = (root / "quest.ini").read_text(encoding="utf-8").replace("tiles.ini\ntokens.ini\n", "")
    (root / "quest.ini").write_text(quest, encoding="utf-8")
    (root / "events.ini").write_text(
        "[EventStart]\nbuttons=2\nevent1=mine/quest.ini\nevent2=EventGiveUp\ntrigger=EventStart\n\n"
        "[EventGiveUp]\nbuttons=1\nevent1=\noperations=$end,=,1\naudio=AudioBLDefeat\n", encoding="utf-8")
    (root / "Localization.English.txt").write_text(
        ".,English\nquest.name,The Crossroads\nEventStart.text,Where to?\nEventStart.button1,The mine\n"
        "EventStart.button2,Home\nEventGiveUp.text,Home it is.\nEventGiveUp.button1,Continue\n", encoding="utf-8")
    return root


def test_a_menu_quest_of_a_package_is_a_quest_with_no_map_starting_the_others(tmp_path):
    """A menu that places no tile is imported as what it is, a quest with no map (`map { }`, no
    `start heroes`) whose choice starts the mine; the mine's ladder back to it is kept (before:
    the menu was left out, VK0207, and the ladder with it, VK0303)."""
    root = menu_package(tmp_path)
    sink = Sink()
    done = import_quest(root, sink)
    assert done is not None and sink.errors == 0, [d.message for d in sink.items]
    menu = [d for d in sink.items if d.code == "VK0207"]
    assert len(menu) == 1 and menu[0].span.file == f"{root}/quest.ini", menu
    assert sorted(done[1].files) == ["menu.quest", "mine.quest", "pack.yaml"]
    assert "id: menu\n" in done[1].files["pack.yaml"] and 'name: "The Crossroads"' in done[1].files["pack.yaml"]  # the package's
    text = done[1].files["menu.quest"]
    assert "  map {\n  }\n" in text and "start heroes" not in text and "choice \"The mine\" { next quest mine }" in text, text
    assert "next quest menu" in done[1].files["mine.quest"]  # its ladder back to the menu
    assert [d for d in sink.items if d.code == "VK0303" and "VK0207" in d.message] == []
    r = questc("--plugin", "valkyrie", "check", root)
    assert r.code == 0 and "0 errors" in r.err, r.err
