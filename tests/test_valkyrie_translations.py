"""A Valkyrie quest's other languages imported as the pack's translations (issue 39; docs/
valkyrie.md, "Other languages"): tests/data/valkyrie/three_tongues/ (our own, CC0) is in
English, German and French; its import writes translations/de.po and fr.po, each exactly what
`questc strings update PACK --lang CODE` writes with the msgstr filled from the key each text
came from; the check of the pack has no translation problem but the untranslated texts; the
export writes the same rows back, and the app's loader reads it with no problem."""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

import polib
import pytest

from conftest import REPO, questc
from test_valkyrie_idioms import app_problems, loader_missing

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

DATA = REPO / "tests" / "data" / "valkyrie"
QUEST = DATA / "three_tongues"
ID = "quest.three_tongues"


def imported(src: Path, pack: Path) -> tuple[dict[str, dict[str, str]], str]:
    """Import `src` into `pack` (the command): language code -> string id -> msgstr, and
    what the command printed."""
    r = questc("--plugin", "valkyrie", "import", "valkyrie", src, "-o", pack)
    assert r.code == 0, r.err
    out = {}
    for po in sorted((pack / "translations").glob("*.po")) if (pack / "translations").is_dir() else ():
        out[po.stem] = {e.msgctxt: e.msgstr for e in polib.pofile(str(po))}
    return out, r.err + r.out


def rows(path: Path) -> dict[str, str]:
    """A Localization.<Language>.txt: key -> text (as written, `\\n` kept)."""
    lines = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))
    return {r[0]: ",".join(r[1:]) for r in lines[1:] if r}


def test_each_other_language_is_a_po_file_with_the_texts_of_the_keys_they_came_from(tmp_path):
    got, said = imported(QUEST, tmp_path / "pack")
    assert "VK0303" not in said and "warning[" not in said, said
    assert sorted(got) == ["de", "fr"]
    de, fr = got["de"], got["fr"]
    assert de[f"{ID}.name"] == "Drei Zungen" and fr[f"{ID}.name"] == "Trois langues"
    assert de[f"{ID}.e1.flavor"] == "Im Keller brennt eine Laterne, und jemand will sie löschen."  # quest.description
    # a new line and the app's codes come through as they are
    assert de[f"{ID}.e1.event.1.say"] == "Die Kellertür knarrt für {rnd:hero} auf.\nHaltet die Laterne bis zum Morgengrauen am Brennen."
    assert fr[f"{ID}.e1.event.2.win"] == "Le dernier archer s'enfuit, et {c:TokenLantern} brûle encore."
    assert de[f"{ID}.e1.event.3.lose"].startswith("Der Morgen kommt")
    # one English text under two keys with two German texts: the section of each line decides
    assert de[f"{ID}.e1.event.4.say"] == "Etwas kratzt leise an der Tür."
    assert de[f"{ID}.e1.event.5.say"] == "Etwas kratzt laut an der Tür."
    assert fr[f"{ID}.e1.event.4.say"] == fr[f"{ID}.e1.event.5.say"] == "Quelque chose gratte à la porte."  # the same French
    # the token's text, the ask and its choices
    assert de[f"{ID}.e1.event.7.say"] == "An einem Haken an der Wand hängt eine Laterne."
    assert de[f"{ID}.e1.event.7.ask"] == "Die Klappe der Laterne ist lose."
    assert (de[f"{ID}.e1.event.7.choice"], de[f"{ID}.e1.event.7.choice.2"]) == ("Die Klappe öffnen", "Die Klappe schließen")
    # a key French lacks: untranslated (the app shows the English, as questc's bundle does)
    assert fr[f"{ID}.e1.event.7.choice"] == "Ouvrir le volet" and fr[f"{ID}.e1.event.7.choice.2"] == ""
    # two keys, two German texts, each `say` on its choice's line: the line is the asking
    # section's `event<i>=`, which names the choice's own section, and that decides
    assert de[f"{ID}.e1.event.7.say.2"] == "Im Keller wird es hell und still."
    assert de[f"{ID}.e1.event.7.say.3"] == "Im Keller wird es dunkel und still."
    assert fr[f"{ID}.e1.event.7.say.3"] == "La cave devient calme et sombre."
    # a random draw between two such dialogs: each option's line is `event1=` naming both
    # sections, so the German stays untranslated rather than take a guess; the French agrees
    assert de[f"{ID}.e1.event.6.say"] == de[f"{ID}.e1.event.6.say.2"] == ""
    assert fr[f"{ID}.e1.event.6.say"] == fr[f"{ID}.e1.event.6.say.2"] == "Le vent hurle à la porte."
    assert {k for k, v in de.items() if not v} == {f"{ID}.e1.event.6.say", f"{ID}.e1.event.6.say.2"}
    assert {k for k, v in fr.items() if not v} == {f"{ID}.e1.event.7.choice.2"}


def test_the_files_are_what_strings_update_writes_and_check_finds_only_untranslated_texts(tmp_path):
    pack = tmp_path / "pack"
    imported(QUEST, pack)
    before = {p.name: p.read_bytes() for p in (pack / "translations").iterdir()}
    r = questc("strings", "update", pack)
    assert r.code == 0 and "0 new, 0 marked fuzzy, 0 obsolete (unchanged)" in r.err, r.err
    assert {p.name: p.read_bytes() for p in (pack / "translations").iterdir()} == before
    checked = questc("check", pack)
    said = checked.err + checked.out
    assert checked.code == 0, said
    for code in ("T0201", "T0203", "T0107", "T0101", "T0202"):
        assert code not in said, said
    assert said.count("T0204") == 2 and "de: 2 of 15 texts" in said and "fr: 1 of 15 texts" in said, said
    clean = questc("--plugin", "valkyrie", "check", QUEST)  # the Valkyrie quest itself: nothing to say
    assert clean.code == 0 and "warning[" not in clean.err + clean.out and "error[" not in clean.err + clean.out, clean.err


def test_the_round_trip_writes_the_same_rows_and_loads_in_the_app(tmp_path):
    pack = tmp_path / "pack"
    got, _ = imported(QUEST, pack)
    out = tmp_path / "out"
    r = questc("--plugin", "valkyrie", "export", "valkyrie", pack, "-o", out)
    assert r.code == 0, r.err
    folder = next(out.glob("*/quest.ini")).parent
    english = rows(folder / "Localization.English.txt")
    original = rows(QUEST / "Localization.English.txt")
    for lang, code in (("German", "de"), ("French", "fr")):
        theirs = rows(QUEST / f"Localization.{lang}.txt")
        pairs = {(original[k], theirs[k]) for k in theirs if k in original}  # (English, translation) of the quest
        mine = rows(folder / f"Localization.{lang}.txt")
        assert set(mine) <= set(english)  # under the English file's keys
        assert {(english[k], v) for k, v in mine.items()} <= pairs, lang  # every row one the quest has
        assert len(mine) == sum(1 for k, v in got[code].items() if k and v), lang  # one row per translated text
    assert "Localization.German.txt" in (folder / "quest.ini").read_text(encoding="utf-8")
    # imported again, the export gives the same translations
    again, _ = imported(folder, tmp_path / "again")
    for code in ("de", "fr"):
        assert {v for v in again[code].values() if v} == {v for v in got[code].values() if v}, code
    why = loader_missing()
    if why:
        pytest.skip(why)
    problems = app_problems(QUEST, folder)
    assert problems == {str(QUEST.resolve()): [], str(folder.resolve()): []}, problems


def test_a_language_questc_has_no_code_for_is_a_located_warning_and_no_file(tmp_path):
    src = tmp_path / "quest"
    shutil.copytree(QUEST, src)
    (src / "Localization.Klingon.txt").write_text(".,Klingon\nquest.name,wej jIH\n", encoding="utf-8")
    ini = src / "quest.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace("Localization.French.txt\n", "Localization.French.txt\nLocalization.Klingon.txt\n"),
                   encoding="utf-8")
    got, said = imported(src, tmp_path / "pack")
    assert sorted(got) == ["de", "fr"]
    assert "warning[VK0303]: [QuestText] Localization.Klingon.txt: questc cannot express the texts in `Klingon`" in said, said
    assert "Localization.Klingon.txt:1:1" in said, said
    checked = questc("--plugin", "valkyrie", "check", src)  # check says it too
    assert "VK0303" in checked.err + checked.out and "Klingon" in checked.err + checked.out


@pytest.mark.parametrize("quest", ["01_FirstBlood", "02_AFatGoblin"])
def test_the_published_quests_are_english_only_and_get_no_translations(tmp_path, quest):
    _, said = imported(DATA / quest, tmp_path / "pack")
    assert not (tmp_path / "pack" / "translations").exists()
    assert "Localization" not in said


def test_a_text_of_white_space_alone_is_no_translation_as_in_the_app(tmp_path):
    """DictionaryI18n.GetValue passes over a value of white space alone to the default
    language's: so does the import (the text stays untranslated)."""
    src = tmp_path / "three_tongues"  # the quest id is the folder's
    shutil.copytree(QUEST, src)
    german = src / "Localization.German.txt"
    german.write_text(german.read_text(encoding="utf-8").replace("quest.name,Drei Zungen", "quest.name,   "), encoding="utf-8")
    got, _ = imported(src, tmp_path / "pack")
    assert got["de"][f"{ID}.name"] == "" and got["fr"][f"{ID}.name"] == "Trois langues"
    assert got["de"][f"{ID}.e1.flavor"].startswith("Im Keller")


def test_every_quest_of_a_package_has_its_texts_in_the_one_po_file_of_a_language(tmp_path):
    """A package of several quests (tests/data/valkyrie/linked_quests: a hub and `mine/`),
    each with a German file of its own: one translations/de.po for the pack, every text of
    both quest files translated from its own quest's German file."""
    src = tmp_path / "linked_quests"
    shutil.copytree(DATA / "linked_quests", src)
    for folder in (src, src / "mine"):
        english = list(csv.reader(io.StringIO((folder / "Localization.English.txt").read_text(encoding="utf-8-sig"), newline="")))
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerow([".", "German"])
        w.writerows([r[0], f"DE {folder.name}: " + ",".join(r[1:])] for r in english[1:] if r)
        (folder / "Localization.German.txt").write_text(out.getvalue(), encoding="utf-8")
        ini = folder / "quest.ini"
        ini.write_text(ini.read_text(encoding="utf-8").replace("Localization.English.txt\n", "Localization.English.txt\nLocalization.German.txt\n", 1),
                       encoding="utf-8")
    got, said = imported(src, tmp_path / "pack")
    assert sorted(got) == ["de"], said
    de = got["de"]
    assert de and all(de.values()), {k for k, v in de.items() if not v}  # every text translated
    hub = {k for k, v in de.items() if v.startswith("DE linked_quests: ")}
    mine = {k for k, v in de.items() if v.startswith("DE mine: ")}
    assert hub and mine and hub | mine == set(de)
    assert all(k.startswith("quest.linked_quests.") for k in hub) and all(k.startswith("quest.mine.") for k in mine)
    checked = questc("check", tmp_path / "pack")
    assert "T02" not in checked.err + checked.out and "T01" not in checked.err + checked.out


def test_a_quest_in_german_by_default_has_its_english_as_en_po_and_the_export_says_what_it_leaves_out(tmp_path):
    src = tmp_path / "three_tongues"
    shutil.copytree(QUEST, src)
    ini = src / "quest.ini"
    ini.write_text(ini.read_text(encoding="utf-8").replace("defaultlanguage=English", "defaultlanguage=German"), encoding="utf-8")
    got, _ = imported(src, tmp_path / "pack")
    assert sorted(got) == ["en", "fr"]
    assert got["en"][f"{ID}.name"] == "Three Tongues" and got["fr"][f"{ID}.name"] == "Trois langues"
    assert '"Drei Zungen"' in (tmp_path / "pack" / "three_tongues.quest").read_text(encoding="utf-8")
    r = questc("--plugin", "valkyrie", "export", "valkyrie", tmp_path / "pack", "-o", tmp_path / "out")
    assert r.code == 0, r.err
    assert "the `en` translation (the export writes the pack's own texts as the English ones)" in r.err, r.err


def test_a_file_of_several_language_columns_gives_each_other_column_its_po_file(tmp_path):
    """The older form: one Localization file with a column per language (`.,English,German`)."""
    src = tmp_path / "three_tongues"
    shutil.copytree(QUEST, src)
    english, german = rows(src / "Localization.English.txt"), rows(src / "Localization.German.txt")
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([".", "English", "German"])
    w.writerows([key, text, german.get(key, "")] for key, text in english.items())
    for lang in ("English", "German", "French"):
        (src / f"Localization.{lang}.txt").unlink()
    (src / "Localization.txt").write_text(out.getvalue(), encoding="utf-8")
    ini = src / "quest.ini"
    text = ini.read_text(encoding="utf-8").replace("Localization.English.txt\nLocalization.German.txt\nLocalization.French.txt\n", "Localization.txt\n")
    ini.write_text(text, encoding="utf-8")
    got, said = imported(src, tmp_path / "pack")
    assert sorted(got) == ["de"], said
    assert got["de"][f"{ID}.name"] == "Drei Zungen"
    assert got["de"][f"{ID}.e1.event.1.say"] == "Die Kellertür knarrt für {rnd:hero} auf.\nHaltet die Laterne bis zum Morgengrauen am Brennen."
