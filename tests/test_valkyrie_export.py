"""`questc --plugin valkyrie export valkyrie PACK [--quest ID] -o DIR` (plugins/valkyrie,
docs/valkyrie.md "Export"): round trips import → export → import for the published quests,
the maps of content/d2e-quests through Valkyrie and back, the files against what the
published quests hold, the package's layout, determinism, and refusal of a broken pack."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from compiler.diagnostics import Sink, Span
from questc_valkyrie.importer import PREFIXES
from questc_valkyrie.ini import read_ini, read_localization
from conftest import REPO, questc

DATA = REPO / "tests" / "data" / "valkyrie"
FIRST, GOBLIN = DATA / "01_FirstBlood", DATA / "02_AFatGoblin"
PACKAGES = DATA / "packages"
QUESTS = REPO / "content" / "d2e-quests"


@pytest.fixture(autouse=True)
def valkyrie_codes():
    from compiler.plugins import loader

    assert loader.enable([("valkyrie", Span("<test>", 1, 1))], Sink())
    yield
    loader.reset()


def vk(*argv):
    return questc("--plugin", "valkyrie", *argv)


def body(text: str) -> list[str]:
    """The quest text without comments (the first line names the source folder; the
    trailing `# [Section]` comments name Valkyrie sections, which the export renames)."""
    return [re.sub(r"\s+#.*$", "", ln) for ln in text.splitlines() if not ln.startswith("#")]


def imported(src: Path, out: Path) -> Path:
    r = vk("import", "valkyrie", src, "-o", out)
    assert r.code == 0, r.err
    return out


def export(pack: Path, out: Path, *extra: str):
    return vk("export", "valkyrie", pack, *extra, "-o", out)


def compiled(pack: Path):
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    res = compile_paths([str(pack)], Options(), Sink())
    return res.models[0]


# ---------------------------------------------------------------- round trips
def test_first_blood_round_trip_gives_the_same_quest(tmp_path):
    pack = imported(FIRST, tmp_path / "first")
    r = export(pack, tmp_path / "out")
    assert r.code == 0, r.err
    assert "VK0308" not in r.err  # everything the importer wrote is exportable
    again = imported(tmp_path / "out" / "FirstBlood", tmp_path / "again")
    a, b = ((p / "first_blood.quest").read_text() for p in (pack, again))
    assert body(b) == body(a)
    assert "tile entrance1A at (9, 9) rotate 270" in b and "spawn ettin as ettins at 8A(1,3) unique" in b
    assert (again / "pack.yaml").read_text() == (pack / "pack.yaml").read_text().replace("01_FirstBlood", "FirstBlood")


def test_a_fat_goblin_round_trip_keeps_both_encounters(tmp_path):
    """The imported A Fat Goblin does not compile (events on two tokens it never places, a
    lieutenant without a catalog entry…), so the command refuses it; the exporter run on
    its model gives back the same quest but for the two events on tokens the pack lacks,
    each reported."""
    from compiler.syntax import ast
    from questc_valkyrie.exporter import Exporter

    pack = imported(GOBLIN, tmp_path / "goblin")
    model = compiled(pack)
    (quest,) = model.declarations(ast.Quest)
    sink = Sink()
    files = Exporter(model, quest, sink).run()
    assert [d.code for d in sink.items] == ["VK0308", "VK0308"]
    assert all("search11_a_grassland" in d.message or "search15_b_spider" in d.message for d in sink.items)
    out = tmp_path / "out"
    for rel, data in files.items():
        (out / rel).parent.mkdir(parents=True, exist_ok=True)
        (out / rel).write_bytes(data)
    again = imported(out / "AFatGoblin", tmp_path / "again")
    a = body((pack / "a_fat_goblin.quest").read_text())
    b = body((again / "a_fat_goblin.quest").read_text())

    def without_lacking_tokens(lines):
        out, skip = [], False
        for ln in lines:
            if re.match(r"\s*on searched (search11_a_grassland|search15_b_spider) \{", ln):
                skip = True
            elif skip and ln.strip() == "}":
                skip = False
                continue
            if not skip:
                out.append(ln)
        return out

    assert b == without_lacking_tokens(a)
    assert len(b) > 190 and [ln.strip() for ln in b].count("next") == 3 and "encounter 2 {" in "\n".join(b)


@pytest.mark.parametrize("quest", ["first_blood", "a_fat_goblin"])
def test_content_quests_maps_survive_valkyrie(tmp_path, quest):
    """content/d2e-quests → Valkyrie → questc: every encounter's map has the same tiles,
    turned the same way, at the same places (up to a shift) and the same squares."""
    r = export(QUESTS, tmp_path / "out", "--quest", quest)
    assert r.code == 0, r.err
    folder = next(p for p in (tmp_path / "out").iterdir() if p.is_dir())
    again = imported(folder, tmp_path / "again")
    orig = compiled(QUESTS).maps.quests[quest]
    back = compiled(again).maps.quests[quest]

    def shape(amap):
        cells = [c for t in amap.tiles for c in t.local_of]
        ox, oy = min(c[0] for c in cells), min(c[1] for c in cells)
        return (sorted((t.code, t.rotation, t.at[0] - ox, t.at[1] - oy) for t in amap.tiles),
                sorted((x - ox, y - oy) for x, y in cells))

    assert sorted(orig) == sorted(back)
    for n in orig:
        assert shape(back[n]) == shape(orig[n])


# ---------------------------------------------------------------- the files
def published_keys() -> dict[str, set[str]]:
    """Section kind -> the keys the published quests give it."""
    out: dict[str, set[str]] = {}
    for quest in (FIRST, GOBLIN):
        for f in quest.glob("*.ini"):
            for sec in read_ini(f.read_text(encoding="utf-8"), str(f), Sink()).sections:
                kind = next((p for p in PREFIXES if sec.name.startswith(p)), sec.name)
                out.setdefault(kind, set()).update(sec.values)
    return out


def test_exported_files_read_back_with_no_unknown_section_or_key(tmp_path):
    pack = imported(FIRST, tmp_path / "first")
    assert export(pack, tmp_path / "out").code == 0
    folder = tmp_path / "out" / "FirstBlood"
    known = published_keys()
    known["Quest"] |= {"minhero", "maxhero"}  # [Quest] keys of Valkyrie's QuestData.cs the importer reads
    quest_ini = read_ini((folder / "quest.ini").read_text(), "quest.ini", Sink())
    listed = [v.key for v in quest_ini.section("QuestData").names]
    assert sorted(listed) == sorted(p.name for p in folder.glob("*.ini") if p.name != "quest.ini")
    assert quest_ini.section("Quest").get("format") == "7"  # as the published packages' quest.ini
    for f in sorted(folder.glob("*.ini")):
        sink = Sink()
        ini = read_ini(f.read_text(encoding="utf-8"), f.name, sink)
        assert sink.items == [], f.name
        for sec in ini.sections:
            kind = next((p for p in PREFIXES if sec.name.startswith(p)), sec.name)
            assert kind in known, (f.name, sec.name)
            assert set(sec.values) <= known[kind], (sec.name, set(sec.values) - known[kind])
    sink = Sink()
    loc = read_localization((folder / "Localization.English.txt").read_text(), "Localization.English.txt", sink)
    assert sink.items == [] and loc.texts["English"]["quest.name"].text == "The Shadow Rune - Introduction - First Blood"


def test_package_has_the_published_layout_and_the_folder_inside(tmp_path):
    pack = imported(FIRST, tmp_path / "first")
    assert export(pack, tmp_path / "out").code == 0
    out = tmp_path / "out"
    published = zipfile.ZipFile(PACKAGES / "01_FirstBlood.valkyrie")
    z = zipfile.ZipFile(out / "FirstBlood.valkyrie")
    assert z.testzip() is None
    names = z.namelist()
    assert names == sorted(names, key=str.lower) and all("/" not in n for n in names)  # flat, as published
    assert {n for n in names} == {p.name for p in (out / "FirstBlood").iterdir()}
    assert "quest.ini" in names and set(names) <= set(published.namelist())
    for n in names:
        assert z.read(n) == (out / "FirstBlood" / n).read_bytes()
        assert z.getinfo(n).compress_type == zipfile.ZIP_DEFLATED
    # the package imports as the folder does
    a = imported(out / "FirstBlood", tmp_path / "a")
    b = imported(out / "FirstBlood.valkyrie", tmp_path / "b")
    assert body((a / "first_blood.quest").read_text()) == body((b / "first_blood.quest").read_text())
    # the store manifest: the published one's keys, the version the package's SHA-256
    import hashlib

    manifest = read_ini((out / "FirstBlood.ini").read_text(), "FirstBlood.ini", Sink()).section("Quest")
    pub = read_ini((PACKAGES / "01_FirstBlood.ini").read_text(), "x.ini", Sink()).section("Quest")
    assert set(manifest.values) == set(pub.values)
    digest = hashlib.sha256((out / "FirstBlood.valkyrie").read_bytes()).hexdigest().upper()
    assert manifest.get("version").replace("-", "") == digest


def test_export_is_deterministic(tmp_path):
    pack = imported(FIRST, tmp_path / "first")
    assert export(pack, tmp_path / "one").code == 0
    assert export(pack, tmp_path / "two").code == 0
    one = {p.relative_to(tmp_path / "one"): p.read_bytes() for p in (tmp_path / "one").rglob("*") if p.is_file()}
    two = {p.relative_to(tmp_path / "two"): p.read_bytes() for p in (tmp_path / "two").rglob("*") if p.is_file()}
    assert one == two and len(one) >= 8


def test_a_pack_with_errors_exports_nothing(tmp_path):
    pack = imported(GOBLIN, tmp_path / "goblin")  # imports, but does not compile (Q0301, Q0304…)
    r = export(pack, tmp_path / "out")
    assert r.code != 0 and "error[" in r.err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_what_valkyrie_cannot_say_is_reported_where_it_is_written(tmp_path):
    r = export(QUESTS, tmp_path / "out", "--quest", "first_blood")
    assert r.code == 0
    text = (QUESTS / "first_blood.quest").read_text().splitlines()
    found = re.findall(r"warning\[VK0308\]: (.*)\n\s*--> [^\n]*first_blood.quest:(\d+)", r.err)
    lines = {int(n): msg for msg, n in found}
    assert sorted(lines) == [n for n, ln in enumerate(text, 1) if '"seed grain"' in ln]  # only the two token labels
    r = export(QUESTS, tmp_path / "goblin", "--quest", "a_fat_goblin")
    assert r.code == 0
    text = (QUESTS / "a_fat_goblin.quest").read_text().splitlines()
    found = re.findall(r"warning\[VK0308\]: (.*)\n\s*--> [^\n]*a_fat_goblin.quest:(\d+)", r.err)
    starts = sorted(text[int(n) - 1].split()[0] + " " + text[int(n) - 1].split()[1] for _, n in found)
    # encounter 2's flavor, `on enters`, the ettin only `on enters` spawns, a token label
    assert starts == ['flavor "The', 'on enters', 'spawn ettin', 'token objective']


def round_trip_content(tmp_path, quest: str) -> tuple[str, str]:
    r = export(QUESTS, tmp_path / "out", "--quest", quest)
    assert r.code == 0, r.err
    folder = next(p for p in (tmp_path / "out").iterdir() if p.is_dir())
    again = imported(folder, tmp_path / "again")
    return (QUESTS / f"{quest}.quest").read_text(), (again / f"{quest}.quest").read_text()


def content_of(text: str) -> tuple[list[str], list[str]]:
    """A quest text as (its declarations sorted, its event blocks sorted), each statement on
    one line, blanks squeezed. Left out, and why: comments (the export renames sections,
    the import's comments name them); `expect` lines (compile-time checks of the pack, not
    quest content: never exported); token labels (`"seed grain"`: Valkyrie tokens have no
    label, VK0308). Order is not compared: the importer writes variables before tokens and
    events in Valkyrie's order (triggered events, then token events, then the exported
    `on encounter start` / `on variable` patterns)."""
    decls, events, cur = [], [], None
    for raw in text.splitlines():
        ln = re.sub(r"\s+#.*$", "", raw).strip()
        if not ln or ln.startswith("#") or ln.startswith("expect "):
            continue
        ln = re.sub(r'^(token \w+(?: \w+)?) "[^"]*"', r"\1", ln)
        if ln.startswith("on ") and ln.endswith("{"):
            cur = [ln[:-1].strip()]
            continue
        if ln.startswith("on ") and ln.endswith("}"):  # one-line events
            head, inner = ln[:-1].split("{", 1)
            events.append(" | ".join([head.strip()] + [s.strip() for s in re.split(r';(?=(?:[^"]*"[^"]*")*[^"]*$)', inner) if s.strip()]))
            continue
        if cur is not None:
            if ln == "}":
                events.append(" | ".join(cur))
                cur = None
            else:
                cur.append(ln)
            continue
        decls.append(ln)
    return sorted(decls), sorted(events)


def test_content_first_blood_comes_back_from_valkyrie_whole(tmp_path):
    """content/d2e-quests first_blood → Valkyrie → questc: the same declarations and the
    same events, `on variable` and flavor included (content_of says what is left out)."""
    orig, back = round_trip_content(tmp_path, "first_blood")
    assert content_of(back) == content_of(orig)
    assert "on variable sacks_saved >= 2 | win" in " ".join(content_of(back)[1])


def test_exported_first_blood_is_winnable_in_valkyrie_terms(tmp_path):
    """After each event that advances sacks_saved, a check event with
    `conditions=SacksSaved,>=,2` (and the once-only guard) runs an event chain that ends the
    quest as won; nothing else tests or sets the guard."""
    assert export(QUESTS, tmp_path / "out", "--quest", "first_blood").code == 0
    ini = read_ini((tmp_path / "out" / "FirstBlood" / "events.ini").read_text(), "events.ini", Sink())
    secs = {s.name: s for s in ini.sections}
    advancing = [s for s in secs.values() if "SacksSaved,+,1" in (s.get("operations") or "")]
    assert len(advancing) == 2

    def chain_from(name):
        out = []
        while name:
            out.append(secs[name])
            name = (secs[name].get("event1") or "").split()[0] if secs[name].get("event1") else ""
        return out

    for sec in advancing:
        after = chain_from(sec.name)[1:]
        checks = [s for s in after if s.get("conditions")]
        assert len(checks) == 1
        guard = checks[0].get("conditions").split()[1].split(",")[0]
        assert checks[0].get("conditions") == f"SacksSaved,>=,2 {guard},==,0"
        rest = after[after.index(checks[0]) + 1:]
        assert rest[0].get("operations") == f"{guard},=,1"
        assert rest[-1].get("operations") == "$end,=,1" and rest[-1].get("audio") == "AudioBLVictory"
    loc = read_localization((tmp_path / "out" / "FirstBlood" / "Localization.English.txt").read_text(), "l", Sink())
    assert loc.texts["English"]["quest.description"].text.startswith("Smoke rises over the farm")


def test_a_fat_goblin_encounter_starts_survive_valkyrie(tmp_path):
    """Both `on encounter start` events and the first encounter's flavor come back, in their
    encounters, and encounter 2's setup spawns stay setup spawns; encounter 2's flavor,
    `on enters` (and the ettin only it spawns) and the token label do not (VK0308)."""
    orig, back = round_trip_content(tmp_path, "a_fat_goblin")
    enc2 = back.index("encounter 2 {")
    for text in ("Crumbs, a trampled fence", "The thief is somewhere below"):
        line = next(ln for ln in orig.splitlines() if text in ln).strip()
        event = content_of(line)[1][0]
        assert event.startswith("on encounter start | say")
        assert event in content_of(back)[1]
    assert back.index("Crumbs, a trampled fence") < enc2 < back.index("The thief is somewhere below")
    assert 'flavor "Crushed crates and crumbs' in back[:enc2]
    assert re.search(r"on defeated goblin_archer \{\s*say [^\n]*\n\s*next\n\s*\}", back)  # no spawns after `next`
    assert "spawn zombie at 15B(2,2)" in back[enc2:]


def test_a_pack_with_several_quests_needs_quest(tmp_path):
    r = export(QUESTS, tmp_path / "out")
    assert r.code != 0 and "VK0309" in r.err and "a_fat_goblin, first_blood" in r.err
    assert not (tmp_path / "out").exists()


def test_translations_become_localization_files(tmp_path):
    """translations/fr.po → Localization.French.txt with the rows it translates, keyed as
    the English ones, listed in quest.ini; the quest imports unchanged (default English)."""
    import shutil

    pack = imported(FIRST, tmp_path / "first")
    (pack / "translations").mkdir()
    (pack / "translations" / "fr.po").write_text(
        'msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "quest.first_blood.name"\nmsgid "The Shadow Rune - Introduction - First Blood"\nmsgstr "Premier sang"\n\n'
        'msgctxt "quest.first_blood.e1.event.5.say"\nmsgid "<i>In the dirt you notice an old abandoned satchel.</i>"\n'
        'msgstr "<i>Une vieille sacoche.</i>"\n', encoding="utf-8")
    r = export(pack, tmp_path / "out")
    assert r.code == 0, r.err
    folder = tmp_path / "out" / "FirstBlood"
    sink = Sink()
    fr = read_localization((folder / "Localization.French.txt").read_text(), "fr", sink).texts["French"]
    en = read_localization((folder / "Localization.English.txt").read_text(), "en", sink).texts["English"]
    assert sink.items == []
    assert {k: t.text for k, t in fr.items()} == {"quest.name": "Premier sang",
                                                  "EventSearchedSearch12AWater_1.text": "<i>Une vieille sacoche.</i>"}
    assert en["EventSearchedSearch12AWater_1.text"].text == "<i>In the dirt you notice an old abandoned satchel.</i>"
    text_files = [v.key for v in read_ini((folder / "quest.ini").read_text(), "q", Sink()).section("QuestText").names]
    assert text_files == ["Localization.English.txt", "Localization.French.txt"]
    shutil.rmtree(pack / "translations")
    again = imported(folder, tmp_path / "again")
    assert body((again / "first_blood.quest").read_text()) == body((pack / "first_blood.quest").read_text())


def test_a_cooperative_quest_and_an_output_in_the_way_are_one_error_each(tmp_path):
    r = export(REPO / "content" / "natures-ire", tmp_path / "coop")
    assert r.code == 1 and r.err.count("error[") == 1 and "error[VK0310]" in r.err
    assert not (tmp_path / "coop").exists()
    (tmp_path / "file").write_text("", encoding="utf-8")
    r = export(QUESTS, tmp_path / "file", "--quest", "first_blood")
    assert r.code == 1 and r.err.count("error[") == 1
    assert "error[I0003]: cannot write " in r.err and "it is a file, and the output needs a folder there" in r.err
