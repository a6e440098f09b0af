"""Idioms of published Valkyrie quests (issue 39), each in a hand-made test quest of our own
(tests/data/valkyrie/<idiom>/, CC0): what the app tolerates, a shared end event, a title
screen. Each quest imports with its logic, checks with no error, exports, and its export
loads in the app's own loader (../shared/data/valkyrie-app/loader) with no problem; the
loader part skips, saying why, where the loader or mono is missing (as
test_valkyrie_app_loader.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from compiler.diagnostics import Sink
from conftest import REPO, SHARED, questc

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

DATA = REPO / "tests" / "data" / "valkyrie"
LOADER = SHARED / "data" / "valkyrie-app" / "loader"


def loader_missing() -> str | None:
    if not (LOADER / "run.sh").is_file():
        return f"the Valkyrie app's quest loader is not present ({LOADER})"
    for tool in ("mcs", "mono"):
        if shutil.which(tool) is None:
            return f"`{tool}` is missing: the app's loader is compiled and run with mono (`make mono`)"
    return None


def app_problems(*folders: Path) -> dict[str, list[str]]:
    from test_valkyrie_app_loader import load

    return load(*folders)


def through(idiom: str, tmp_path: Path) -> tuple[str, str, Path]:
    """Import (the command), check (the command, on the Valkyrie folder), export the imported
    pack (the command): (the imported quest's text, check's output, the exported folder)."""
    src = DATA / idiom
    pack = tmp_path / "pack"
    r = questc("--plugin", "valkyrie", "import", "valkyrie", src, "-o", pack)
    assert r.code == 0, r.err
    checked = questc("--plugin", "valkyrie", "check", src)
    assert checked.code == 0 and "error[" not in checked.err + checked.out, checked.err + checked.out
    out = tmp_path / "out"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out)
    assert r.code == 0, r.err
    text = next(pack.glob("*.quest")).read_text(encoding="utf-8")
    return text, checked.err + checked.out, next(out.glob("*/quest.ini")).parent


def loads_clean(original: Path, exported: Path) -> None:
    why = loader_missing()
    if why:
        pytest.skip(why)
    problems = app_problems(original, exported)
    assert problems == {str(original.resolve()): [], str(exported.resolve()): []}, problems


# ---------------------------------------------------------------- idiom 6: the app's tolerances
def test_what_the_app_tolerates_imports_checks_exports_and_loads(tmp_path):
    text, said, folder = through("tolerances", tmp_path)
    # a localisation key given twice: the first is read (the app's DictionaryI18n keeps the first)
    assert 'say "Under the straw lies a lantern that still holds oil."' in text
    assert "never shown by the app" not in text
    assert re.search(r"warning\[VK0102\]: \[Localization.English.txt\] gives `EventLantern.text` more than once; the first is read", said), said
    # `F.,German`: a header the app reads by its second column, no VK0106
    assert "VK0106" not in said
    # adding a quest item and a UI element: not a crash; the item is given to the party (one QItem
    # added: EventManager gives it), the UI element is a picture (before: VK0303 at the QItem)
    assert "QItemLantern" not in said and "E0103" not in said, said
    assert "  item lantern { with trinket }\n" in text and re.search(r"\n\s+give lantern\n", text), text
    loads_clean(DATA / "tolerances", folder)


def test_a_localisation_header_is_read_by_its_second_column_and_a_comma_belongs_to_the_text():
    from questc_valkyrie.ini import read_localization

    for head in (".,German", "F.,German", "x,German"):
        sink = Sink()
        loc = read_localization(f"{head}\nquest.name,Laternen, Stroh und Keller\n", "L.txt", sink)
        assert sink.items == [] and loc is not None and loc.languages == ("German",)
        # the app splits a row at its first comma only: the rest is the text
        assert loc.texts["German"]["quest.name"].text == "Laternen, Stroh und Keller"
    broken = Sink()  # no second column: the app's reader throws; still VK0106
    assert read_localization("German\nquest.name,x\n", "L.txt", broken) is None
    assert [d.code for d in broken.items] == ["VK0106"]


def test_a_key_given_twice_is_a_warning_and_the_first_is_kept():
    from questc_valkyrie.ini import read_ini, read_localization

    sink = Sink()
    loc = read_localization(".,English\nEventA.text,first\nEventA.text,second\n", "L.txt", sink)
    assert loc is not None and loc.texts["English"]["EventA.text"].text == "first"
    assert [(d.code, d.severity.value, d.span.line) for d in sink.items] == [("VK0102", "warning", 3)]
    sink = Sink()
    ini = read_ini("[Tile9A]\nside=TileSide9A\nside=TileSide9B\n", "tiles.ini", sink)
    assert ini.sections[0].get("side") == "TileSide9A"  # IniRead.cs: a repeated key "will be ignored"
    assert [(d.code, d.severity.value) for d in sink.items] == [("VK0102", "warning")]


def test_keys_given_again_are_reported_once_each_and_at_most_100_of_a_file():
    # make fuzz seed 3902 r:4176: 16,384 lines repeating one key of ui.ini were 16,383
    # warnings (8.7 s to render them); the app ignores each repeat, so: once per key
    from questc_valkyrie.ini import read_ini, read_localization

    sink = Sink()
    read_ini("[UIBegin]\nyposition=0.3\n" + "yposition=0.3=0\n" * 16384, "ui.ini", sink)
    assert [(d.code, d.span.line) for d in sink.items] == [("VK0102", 3)]
    sink = Sink()
    read_ini("[A]\n" + "".join(f"k{i}=1\nk{i}=2\n" for i in range(300)), "a.ini", sink)
    assert len(sink.items) == 100 and sink.items[-1].message.endswith(
        "gives `k99` more than once; keys given again after this one in the file are not reported; the first is read")
    sink = Sink()
    read_localization(".,English\n" + "EventA.text,x\n" * 5000, "L.txt", sink)
    assert [d.code for d in sink.items] == ["VK0102"]


# ---------------------------------------------------------------- idiom 1: a shared end event
def test_a_shared_end_event_is_a_loss_or_a_win_by_the_chain_that_reaches_it(tmp_path):
    text, said, folder = through("shared_end", tmp_path)
    events = dict(re.findall(r"(?m)^  on ([^{]+?) \{\n((?:    .*\n)+)  \}", text))
    over = '"The raid on the cellar is over."'
    assert events["morale_zero"].endswith(f"lose {over}\n")  # the trigger says it: morale gone
    assert events["defeated goblin_archer"].endswith(f"win {over}\n")  # the dialog's victory sound
    assert events["round_end 8"].endswith(f"lose {over}\n")  # the dialog's text: the heroes have failed
    assert "Q0306" not in said and "Q0305" not in said and "VK0303" not in said, said
    loads_clean(DATA / "shared_end", folder)


def ending_of(tmp_path: Path, events: str, texts: str = "") -> tuple[str, list[str]]:
    """The imported quest of a tiny quest with `events` (its Localization gets `texts`) and the
    importer's VK0303 messages."""
    from questc_valkyrie.run import import_quest

    root = tmp_path / "q"
    root.mkdir()
    (root / "quest.ini").write_text("[Quest]\nformat=7\ntype=D2E\ndefaultlanguage=English\n[QuestText]\n"
                                    "Localization.English.txt\n[QuestData]\ntiles.ini\nevents.ini\n", encoding="utf-8")
    (root / "Localization.English.txt").write_text(".,English\nquest.name,Tiny\n" + texts, encoding="utf-8")
    (root / "tiles.ini").write_text("[TileEntrance]\nxposition=0\nyposition=0\nside=TileSideEntranceA\n"
                                    "[Tile11A]\nxposition=10\nyposition=2\nside=TileSide11A\n", encoding="utf-8")
    (root / "events.ini").write_text(events, encoding="utf-8")
    sink = Sink()
    got = import_quest(root, sink)
    assert got is not None, [d.message for d in sink.items]
    quest = next(t for n, t in got[1].files.items() if n.endswith(".quest"))
    return quest, [d.message for d in sink.items if d.code == "VK0303"]


def test_an_event_end_section_shared_by_two_chains_takes_each_chain_s_side(tmp_path):
    # quest format 8 and earlier: a section named EventEnd… with no event after it ends the quest
    quest, cannot = ending_of(tmp_path, (
        "[EventLimit]\ntrigger=EndRound6\ndisplay=false\nbuttons=1\nevent1=EventOutOfTime\n"
        "[EventOutOfTime]\nbuttons=1\nevent1=EventEndShared\noperations=HeroesLost,=,1\n"
        "[EventBoss]\ntrigger=DefeatedMonsterZombie\ndisplay=false\nbuttons=1\nevent1=EventRescue\n"
        "[EventRescue]\nbuttons=1\nevent1=EventEndShared\n"
        "[EventEndShared]\nbuttons=1\n"), "EventOutOfTime.text,Dawn comes.\nEventRescue.text,Victory is yours.\n"
        "EventEndShared.text,The end.\n")
    # the variable the chain sets before it (HeroesLost) says the loss
    assert re.search(r'on round_end 6 \{\n\s+set heroes_lost = 1\n\s+say "Dawn comes."\n\s+lose "The end."', quest), quest
    assert re.search(r'on defeated zombie \{\n\s+say "Victory is yours."\n\s+win "The end."', quest), quest
    assert cannot == []


def test_evidence_nearest_the_end_decides_and_a_section_pointing_both_ways_decides_nothing(tmp_path):
    quest, _ = ending_of(tmp_path, (
        "[EventMorale]\ntrigger=NoMorale\ndisplay=false\nbuttons=1\nevent1=EventMixed\n"
        # its name says win, its sound says defeat: no side from it; the trigger decides (a loss)
        "[EventMixed]\ndisplay=false\nbuttons=1\nevent1=EventDone\naudio=AudioBLDefeat\noperations=QuestWon,=,1\n"
        "[EventDone]\ndisplay=false\nbuttons=1\noperations=$end,=,1\n"))
    assert re.search(r"on morale_zero \{\n\s+set quest_won = 1\n\s+lose\n", quest), quest


# ---------------------------------------------------------------- idiom 2: a title screen
def test_a_title_screen_is_an_opening_dialog_and_its_map_the_setup(tmp_path):
    text, said, folder = through("title_screen", tmp_path)
    # the map the button puts down is on the table from the start: nothing hidden, no reveal
    assert " hidden" not in text and "reveal" not in text
    assert "token search as bucket at 12A(1,2)" in text and "spawn goblin_archer as lurkers at 26B(1,1)" in text
    # the title's text, then the button's chain, open the quest
    assert re.search(r'on start \{\n\s+say "The Flooded Cellar\\nA farmhouse cellar[^"]*"\n'
                     r'\s+say "The heroes reach the farmhouse at dusk. The cellar door hangs open."\n\s+\}', text), text
    # before: Q0105 (the start on a hidden tile), Q0304 five times (tiles never revealed), VK0303 on the UI
    assert not re.search(r"Q0105|Q0304|VK0303", said), said
    loads_clean(DATA / "title_screen", folder)


def test_a_title_screen_with_two_buttons_is_an_ask(tmp_path):
    quest, cannot = ending_of(tmp_path, (
        "[EventStart]\ntrigger=EventStart\ndisplay=false\nbuttons=1\nadd=UIWords UIPlay UIRules\n"
        "[UIWords]\ndisplay=false\nbuttons=0\n"
        "[UIPlay]\ndisplay=false\nbuttons=1\nevent1=EventPlay\n"
        "[UIRules]\ndisplay=false\nbuttons=1\nevent1=EventRules\n"
        "[EventPlay]\nbuttons=1\nremove=UIWords UIPlay UIRules\nadd=TileEntrance\n"
        "[EventRules]\nbuttons=1\nevent1=EventPlay\n"), (
        "UIWords.uitext,A tiny quest\nUIPlay.uitext,Play\nUIRules.uitext,Rules first\n"
        "EventPlay.text,Off we go.\nEventPlay.button1,Go\nEventRules.text,Win by round 3.\nEventRules.button1,Understood\n"))
    assert re.search(r'on start \{\n\s+ask "A tiny quest" \{\n\s+choice "Play" \{ say "Off we go." \}\n'
                     r'\s+choice "Rules first" \{ say "Win by round 3."; say "Off we go." \}\n\s+\}', quest), quest
    assert cannot == []


# ---------------------------------------------------------------- the importer never crashes
def test_an_exception_inside_the_importer_is_vk0399_at_the_section_being_read(monkeypatch):
    """Any exception inside the reader or the importer is a located diagnostic of the plugin's
    own (VK0399 at the section a frame was reading), not E0103 at the quest, and the quest is
    not imported; `make fuzz` counts VK0399 as a finding (fuzz/harness.py)."""
    from questc_valkyrie.importer import Importer
    from questc_valkyrie.run import import_quest

    def broken(self, sec, *args):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(Importer, "spawn", broken)
    sink = Sink()
    assert import_quest(DATA / "shared_end", sink) is None
    (d,) = [d for d in sink.items if d.code == "VK0399"]
    assert d.severity.value == "error" and d.span.file.endswith("shared_end/spawns.ini") and d.span.line == 1
    assert d.message.startswith("questc's Valkyrie importer failed [SpawnRaiders]: ZeroDivisionError: a bug (at test_valkyrie_idioms.py:")
    r = questc("--plugin", "valkyrie", "check", DATA / "shared_end")
    assert r.code == 1 and "error[VK0399]" in r.err and "E0103" not in r.err


def test_the_fuzzer_counts_vk0399_as_a_finding():
    import sys

    sys.path.insert(0, str(REPO))
    from compiler.diagnostics import Span as S
    from fuzz.harness import check_items

    sink = Sink()
    sink.report("VK0399", S("q/events.ini", 3, 1), section=" [EventA]", problem="KeyError: 'x'")
    outcome = check_items(sink.items)
    assert outcome is not None and outcome.status == "internal" and outcome.signature.startswith("VK0399")


def test_an_ending_nothing_tells_the_side_of_is_end_and_comes_back_as_end(tmp_path):
    """A shared end reached from a round limit whose dialog names no side: `end` (no side),
    not a guessed win (before: `win` and VK0303 "read as won", then Q0306 "can never be
    lost"). The export writes `$end` without an end sound, and that reads back as `end`."""
    quest, cannot = ending_of(tmp_path, (
        "[EventLimit]\ntrigger=EndRound6\ndisplay=false\nbuttons=1\nevent1=EventDawn\n"
        "[EventDawn]\nbuttons=1\nevent1=EventOver\n"
        "[EventOver]\ndisplay=false\nbuttons=1\noperations=$end,=,1\n"), "EventDawn.text,Dawn comes.\nEventDawn.button1,Go\n")
    assert re.search(r'on round_end 6 \{\n\s+say "Dawn comes."\n\s+end\n', quest), quest
    assert cannot == []
    from questc_valkyrie.ini import read_ini

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("id: p\nname: P\nversion: 1.0.0\nlicence: CC0-1.0\nrequires: [d2e-base]\nruleset: d2e\n", encoding="utf-8")
    (pack / "q.quest").write_text(quest, encoding="utf-8")
    out = tmp_path / "out"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out)
    assert r.code == 0, r.err  # Q0330 is a warning
    folder = next(out.glob("*/quest.ini")).parent
    ends = [s for s in read_ini((folder / "events.ini").read_text(encoding="utf-8"), "events.ini", Sink()).sections
            if "$end,=,1" in (s.get("operations") or "")]
    assert len(ends) == 1 and ends[0].get("audio") is None
    from questc_valkyrie.run import import_quest

    sink = Sink()
    got = import_quest(folder, sink)
    assert got is not None, [d.message for d in sink.items]
    again = next(t for n, t in got[1].files.items() if n.endswith(".quest"))
    assert re.search(r'\n\s+say "Dawn comes."\n\s+end\n', again), again


def test_a_chain_of_endings_reads_each_section_s_evidence_once(tmp_path, monkeypatch):
    """A chain of events each ending the quest with no side said: each ending read every
    section before it for evidence (3,000 of them: a minute, found by the directed fuzz input
    valkyrie-3000-chained-endings); now each section's evidence is read once, at most
    MAX_EVIDENCE sections back. A regression fails at the 5,000th reading instead of hanging."""
    import questc_valkyrie.importer as imp

    reads = []
    sides = imp._sides

    def counted(sec, text):
        reads.append(sec.name)
        assert len(reads) < 5000, "every section before each ending read again"
        return sides(sec, text)

    monkeypatch.setattr(imp, "_sides", counted)
    n = 600
    chain = "".join(f"[EventOver{i}]\ndisplay=false\nbuttons=1\noperations=$end,=,1\n" + (f"event1=EventOver{i + 1}\n" if i + 1 < n else "")
                    for i in range(n))
    quest, _ = ending_of(tmp_path, "[EventLimit]\ntrigger=EndRound6\ndisplay=false\nbuttons=1\nevent1=EventOver0\n" + chain)
    assert quest.count("    end\n") == n and len(reads) <= n + 1


def test_a_line_of_10001_malformed_operations_is_one_vk0304(tmp_path):
    # make fuzz seed 3902 r:4304: a 262 KB `operations=` line of 65,000 malformed operations
    # was 65,000 VK0304, past the 10 s timeout; now one, counting the others
    from questc_valkyrie.run import import_quest

    root = tmp_path / "q"
    root.mkdir()
    (root / "quest.ini").write_text("[Quest]\nformat=7\ntype=D2E\ndefaultlanguage=English\n[QuestText]\n"
                                    "Localization.English.txt\n[QuestData]\ntiles.ini\nevents.ini\n", encoding="utf-8")
    (root / "Localization.English.txt").write_text(".,English\nquest.name,Tiny\n", encoding="utf-8")
    (root / "tiles.ini").write_text("[TileEntrance]\nxposition=0\nyposition=0\nside=TileSideEntranceA\n", encoding="utf-8")
    (root / "events.ini").write_text("[EventStart]\ntrigger=EventStart\ndisplay=false\nbuttons=1\noperations=Gold,=,3 "
                                     + "0 Go" * 10000 + "\n", encoding="utf-8")
    sink = Sink()
    import_quest(root, sink)
    bad = [d.message for d in sink.items if d.code == "VK0304"]
    assert bad == ["[EventStart] operations: `0` is not `variable,operator,value` (nor are 10000 more operations of this line)"], bad


def test_numbers_of_thousands_of_digits_are_not_a_crash(tmp_path):
    """make fuzz seed 3903 d:valkyrie-5000-digit-operation: once conditioned events inside a
    chain were read (if / else), the walk reached `GoldFound,=,<5,000 digits>` and int() raised
    ValueError (Python reads at most 4,300 digits): VK0399. Numbers of the format are read
    with at most 9 digits; a longer one is what questc cannot express (VK0303), wherever it
    stands: an operation, a condition, a round trigger, a section name."""
    big = "9" * 5000
    quest, cannot = ending_of(tmp_path, (
        f"[EventStart]\ntrigger=EventStart\ndisplay=false\nbuttons=1\nevent1=EventA\n"
        f"[EventA]\ndisplay=false\nbuttons=1\noperations=Gold,=,{big} Gold,+,{big}\n"
        f"[EventB]\ntrigger=EndRound{big}\ndisplay=false\nbuttons=1\noperations=Gold,=,1\n"
        f"[EventC]\ntrigger=EndRound3\ndisplay=false\nbuttons=1\nconditions=Gold,>=,{big}\noperations=Gold,=,2\n"
        f"[EventEncounterStart{big}]\ndisplay=false\nbuttons=1\n"
        f"[EventD]\ntrigger=EndRound4\ndisplay=false\nbuttons=1\nconditions=#heroes,>=,{big}\noperations=Gold,=,3\n"))
    assert big not in quest
    assert any("the operations `Gold,=,9999" in c for c in cannot)  # both named: the field is cut (FIELD_MAX) and any("the trigger `EndRound9999" in c for c in cannot), cannot


# ---------------------------------------------------------------- quest items and shops
def test_quest_items_a_relic_given_and_a_shop_of_two_import_check_export_and_load(tmp_path):
    """tests/data/valkyrie/items: `[QItem…]` sections as item slots, an event adding one QItem
    as `give`, one adding two as `shop` (EventManager.TriggerEvent opens the shop for two or more);
    the export writes the same sections back, the round trip gives the same quest, the app
    loads it with no problem (docs/valkyrie.md, "Quest items and shops")."""
    text, said, folder = through("items", tmp_path)
    assert "VK0303" not in said and "Q0215" not in said and "Q0214" not in said, said
    for line in ("item relic { with relic }", "item ware_a { traits weapon, armor; except ware_b }",
                 "item ware_b { traits weapon, armor; except ware_a }", "item charm { with trinket; starting }"):
        assert f"\n  {line}\n" in text, text
    assert re.search(r"on searched chest \{\n(\s+.*\n)*?\s+give relic\n", text), text
    assert re.search(r"on picked_up pedlar \{\n(\s+.*\n)*?\s+shop ware_a, ware_b\n", text), text
    assert re.search(r"on searched altar \{\n(\s+.*\n)*?\s+take relic\n", text), text  # `remove=QItemRelic`
    items = (folder / "other.ini").read_text(encoding="utf-8")
    assert "[QItemWareA]\nitemname=QItemWareB\nstarting=False\ntraitpool=weapon armor\n" in items, items
    assert "[QItemCharm]\nstarting=True\ntraits=trinket\n" in items, items
    events = (folder / "events.ini").read_text(encoding="utf-8")
    assert re.search(r"\nadd=QItemWareA QItemWareB\nremove=#shop\n", events) and "\nadd=QItemRelic\n" in events, events
    assert "\nremove=QItemRelic\n" in events, events
    again = tmp_path / "again"
    assert questc("--plugin", "valkyrie", "import", "valkyrie", folder, "-o", again).code == 0
    back = next(again.glob("*.quest")).read_text(encoding="utf-8")
    def bare(t: str) -> str:  # without the first line (it names the folder read) and the section names of the comments
        return re.sub(r"  # \[\w+\]", "", t.split("\n", 1)[1])
    assert bare(back) == bare(text)  # the same quest
    loads_clean(DATA / "items", folder)


def test_an_item_slot_of_every_key_combination_imports_without_error(tmp_path):
    """Any QItem a quest of the store may hold imports: each key alone and together, `starting`
    as the app reads it (absent: true; unreadable: false), an `itemname` of the app's content,
    `inspect` and a key the app does not read (VK0303 at the key, as elsewhere)."""
    from questc_valkyrie.run import import_quest

    from test_valkyrie_import import TILES, write_quest

    items = (
        "[QItemA]\nitemname=ItemLeatherArmor\n"                    # a named item of the app's content, starting (absent)
        "[QItemB]\ntraitpool=weapon\nstarting=yes\n"                # one of the traits; `yes` is no bool: false
        "[QItemC]\ntraits=armor heavy\ntraitpool=act1 act2\nitemname=QItemB ItemShield\nstarting= False \n"
        "[QItemD]\nitemname=QItemA\ninspect=EventLook\nsparkle=3\nstarting=TRUE\n"
        "[QItemE]\n"                                               # nothing at all: a slot that can hold nothing
    )
    q = write_quest(tmp_path / "q", {
        "tiles.ini": TILES,
        "items.ini": items,
        "events.ini": "[EventStart]\ntrigger=EventStart\nbuttons=1\ndisplay=false\nadd=QItemA QItemB QItemC QItemD QItemE\n"
                      "event1=EventLook\n[EventLook]\nbuttons=1\ndisplay=false\nremove=#qitems\n",
    })
    sink = Sink()
    made = import_quest(q, sink)
    assert made is not None and sink.errors == 0, [d.message for d in sink.items]
    text = made[1].files[made[1].quest_file]
    for line in ("item a { named ItemLeatherArmor; starting }", "item b { traits weapon }",
                 "item c { traits act1, act2; with armor, heavy; except b, ItemShield }",
                 "item d { named a; starting }", "item e { starting }"):
        assert f"\n  {line}\n" in text, text
    assert "shop a, b, c, d, e" in text, text
    # `remove=#qitems` (Quest.Remove: every item a QItem gave back): a `take` of each slot
    assert "take a\n" in text and "take e\n" in text and "#qitems" not in " ".join(d.message for d in sink.items), text
    said = sorted(d.message for d in sink.items if d.code == "VK0303")
    assert said == ["[QItemD] inspect: questc cannot express the event run when the item is inspected; it is left out",
                    "[QItemD] sparkle: questc cannot express `sparkle`; it is left out"], said
    # and it checks with no error: the empty QItemE (an editor's leftover) can hold no item, a
    # Q0217 warning, as the app plays the quest and gives nothing for it
    checked = questc("--plugin", "valkyrie", "check", q)
    out = checked.err + checked.out
    assert checked.code == 0 and "error[" not in out, out
    assert re.findall(r"warning\[Q0217\]: item `(\w+)`", out) == ["e"], out
