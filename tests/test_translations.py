"""Translations: questc strings extract/update, translations/*.po read at compile time,
their diagnostics, and the bundle's `translations` (docs/translations.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polib
import pytest

from conftest import QUEST, REPO, questc, write_pack

PACK = REPO / "tests" / "data" / "translated-pack"
SHIPPED = sorted(p.name for p in (REPO / "content").iterdir() if (p / "pack.yaml").exists())


def _diags(run) -> list[dict]:
    return run.json()["diagnostics"]


def _codes(run) -> list[str]:
    return [d["code"] for d in _diags(run)]


@pytest.mark.parametrize("pack", [*SHIPPED, "tests/data/translated-pack"])
def test_player_texts_are_exactly_the_bundles_string_table(pack):
    """compiler/model/texts.py mirrors the emitters' ids (check knows them without JSON)."""
    from compiler.diagnostics import Sink
    from compiler.emit.bundle import bundle_of
    from compiler.model.texts import player_texts
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    path = REPO / pack if "/" in pack else REPO / "content" / pack
    model = compile_paths([str(path)], Options(images=False, sight=False), Sink()).model
    texts = player_texts(model)
    strings = bundle_of(model).get("strings", {})
    assert [t.id for t in texts] == list(dict.fromkeys(t.id for t in texts))
    assert {t.id: t.text for t in texts} == {sid: s["text"] for sid, s in strings.items()}


def test_the_test_pack_builds_with_both_languages(tmp_path):
    r = questc("build", PACK, "-o", tmp_path, "--no-images", "--strict", "--format", "json")
    assert r.code == 0, r.out
    bundle = json.loads((tmp_path / "translated-quests" / "bundle.json").read_text(encoding="utf-8"))
    assert sorted(bundle["translations"]) == ["fr", "pl"]
    for lang in ("fr", "pl"):
        assert set(bundle["translations"][lang]) == set(bundle["strings"])
    assert bundle["translations"]["fr"]["quest.road_to_lodz.name"] == "La route de Łódź"
    assert bundle["translations"]["pl"]["quest.road_to_lodz.name"] == "Łódź: droga powrotna"
    assert bundle["format_version"] == "1.2.0"  # translations is one of the optional keys 1.1.0 added (1.2.0 the current)


def test_a_pack_without_translations_has_no_translations_key(tmp_path):
    write_pack(tmp_path, "t", requires=["d2e-base"], files={"q.quest": QUEST})
    r = questc("build", tmp_path / "t", "-o", tmp_path / "out", "--no-images")
    assert r.code == 0, r.err
    assert "translations" not in json.loads((tmp_path / "out" / "t" / "bundle.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- the round trip
TRANSLATOR = {lang: {e.msgctxt: e.msgstr for e in polib.pofile(str(PACK / "translations" / f"{lang}.po"))} for lang in ("fr", "pl")}


def _translate(po_path: Path, lang: str) -> None:
    """What the translator does: fill every msgstr (the committed files are the test data)."""
    po = polib.pofile(str(po_path), wrapwidth=78)
    for e in po:
        e.msgstr = TRANSLATOR[lang][e.msgctxt]
    po.save()


def test_round_trip_extract_translate_update_build(tmp_path):
    pack = tmp_path / "translated-pack"
    shutil.copytree(PACK, pack)
    shutil.rmtree(pack / "translations")
    quest = pack / "road_to_lodz.quest"

    # extract: every text, its id, where it is, the designer's note, the source hash
    r = questc("strings", "extract", pack, "-o", tmp_path / "pack.pot")
    assert r.code == 0, r.err
    pot = polib.pofile(str(tmp_path / "pack.pot"))
    assert {e.msgctxt for e in pot} == set(TRANSLATOR["fr"])
    name = next(e for e in pot if e.msgctxt == "quest.road_to_lodz.name")
    assert name.msgid == "The Road from Łódź" and name.occurrences == [("road_to_lodz.quest", "2")]
    assert "keep its" in name.comment and "questc-source: " in name.comment
    r = questc("strings", "extract", pack, "-o", tmp_path / "pack.csv")
    assert r.code == 0
    lines = (tmp_path / "pack.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "id,source,translation,note,location,source_hash" and len(lines) == 1 + len(pot)

    # two new languages, then the translators fill them
    r = questc("strings", "update", pack, "--lang", "fr", "--lang", "pl")
    assert r.code == 0, r.err
    for lang in ("fr", "pl"):
        _translate(pack / "translations" / f"{lang}.po", lang)
    r = questc("check", pack, "--strict", "--format", "json")
    assert r.code == 0 and _codes(r) == [], r.out

    # the designer rewords two texts; update marks exactly those two fuzzy in both languages
    text = quest.read_text(encoding="utf-8")
    text = text.replace("The crate is heavy, but it is yours.", "The crate is heavy, but it is yours now.")
    text = text.replace('win "The road to Łódź is safe again."', 'win "The road to Łódź is safe at last."')
    quest.write_text(text, encoding="utf-8")
    r = questc("check", pack, "--format", "json")  # before update: stale by msgid
    changed = {"quest.road_to_lodz.e1.event.2.say", "quest.road_to_lodz.e1.event.3.win"}
    assert sorted(_codes(r)) == ["T0202"] * 4
    r = questc("strings", "update", pack)
    assert r.code == 0, r.err
    assert "0 new, 2 marked fuzzy, 0 obsolete" in r.err
    for lang in ("fr", "pl"):
        po = polib.pofile(str(pack / "translations" / f"{lang}.po"))
        fuzzy = {e.msgctxt for e in po if "fuzzy" in e.flags}
        assert fuzzy == changed
        assert all(e.msgstr == TRANSLATOR[lang][e.msgctxt] for e in po)  # no translation lost
        assert {e.previous_msgid for e in po if e.msgctxt in changed} == {
            "The crate is heavy, but it is yours.", "The road to Łódź is safe again."}
    r = questc("check", pack, "--format", "json")
    stale = [d for d in _diags(r) if d["code"] == "T0202"]
    assert len(stale) == 4 and all("marked fuzzy" in d["message"] for d in stale)
    assert questc("check", pack, "--strict").code == 1
    assert questc("check", pack).code == 0

    # a second update changes nothing
    before = {p.name: p.read_bytes() for p in (pack / "translations").iterdir()}
    assert questc("strings", "update", pack).code == 0
    assert before == {p.name: p.read_bytes() for p in (pack / "translations").iterdir()}

    # build: both languages, the stale texts fall back to the source
    r = questc("build", pack, "-o", tmp_path / "out", "--no-images")
    assert r.code == 0, r.err
    bundle = json.loads((tmp_path / "out" / "translated-quests" / "bundle.json").read_text(encoding="utf-8"))
    for lang in ("fr", "pl"):
        assert set(bundle["translations"][lang]) == set(bundle["strings"]) - changed

    # the translator confirms the entries (removes fuzzy): complete again
    for lang in ("fr", "pl"):
        po = polib.pofile(str(pack / "translations" / f"{lang}.po"), wrapwidth=78)
        for e in po:
            if "fuzzy" in e.flags:
                e.flags.remove("fuzzy")
                e.previous_msgid = None
        po.save()
    r = questc("check", pack, "--strict", "--format", "json")
    assert r.code == 0 and _codes(r) == [], r.out


def test_update_keeps_removed_texts_as_obsolete_and_revives_them(tmp_path):
    pack = tmp_path / "translated-pack"
    shutil.copytree(PACK, pack)
    quest = pack / "road_to_lodz.quest"
    original = quest.read_text(encoding="utf-8")
    quest.write_text(original.replace('; say "The crate is heavy, but it is yours."', ""), encoding="utf-8")
    r = questc("strings", "update", pack)
    assert r.code == 0 and "0 new, 0 marked fuzzy, 1 obsolete" in r.err, r.err
    po = polib.pofile(str(pack / "translations" / "pl.po"))
    gone = [e for e in po.obsolete_entries()]
    assert [(e.msgctxt, e.msgstr) for e in gone] == [("quest.road_to_lodz.e1.event.2.say", "Skrzynia jest ciężka, ale jest wasza.")]
    assert _codes(questc("check", pack, "--format", "json")) == []
    quest.write_text(original, encoding="utf-8")
    r = questc("strings", "update", pack)
    assert "1 revived" in r.err
    po = polib.pofile(str(pack / "translations" / "pl.po"))
    assert not po.obsolete_entries() and not [e for e in po if "fuzzy" in e.flags]
    assert questc("check", pack, "--strict").code == 0


def test_update_writes_nothing_when_the_pack_has_errors(tmp_path):
    pack = tmp_path / "translated-pack"
    shutil.copytree(PACK, pack)
    (pack / "road_to_lodz.quest").write_text("quest broken {", encoding="utf-8")
    before = (pack / "translations" / "fr.po").read_bytes()
    assert questc("strings", "update", pack).code == 1
    assert (pack / "translations" / "fr.po").read_bytes() == before


# ---------------------------------------------------------------- bad input
def _pack_with(tmp_path, name: str, po: str | bytes) -> Path:
    pack = tmp_path / "translated-pack"
    if not pack.exists():
        shutil.copytree(PACK, pack)
    path = pack / "translations" / name
    if isinstance(po, bytes):
        path.write_bytes(po)
    else:
        path.write_text(po, encoding="utf-8")
    return pack


def _edited(lang: str, old: str, new: str) -> str:
    text = (PACK / "translations" / f"{lang}.po").read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def _line(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def test_a_syntax_error_is_located_and_the_language_is_not_dropped_silently(tmp_path):
    po = _edited("fr", 'msgstr "caisse"', 'msgstr "caisse')
    pack = _pack_with(tmp_path, "fr.po", po)
    r = questc("check", pack, "--format", "json")
    assert r.code == 1
    (d,) = _diags(r)
    assert d["code"] == "T0101" and d["line"] == _line(po, 'msgstr "caisse')
    assert questc("build", pack, "-o", tmp_path / "out", "--no-images").code == 1


def test_stray_words_and_bad_escapes_are_syntax_errors(tmp_path):
    po = _edited("fr", 'msgstr "caisse"', 'msgstr "caisse" oops\nmsgstr "\\q"')
    r = questc("check", _pack_with(tmp_path, "fr.po", po), "--format", "json")
    assert _codes(r) == ["T0101", "T0101"]


def test_another_encoding_is_refused_at_the_first_bad_byte(tmp_path):
    po = _edited("pl", "\"Content-Type: text/plain; charset=UTF-8\\n\"", "\"Content-Type: text/plain; charset=ISO-8859-2\\n\"")
    r = questc("check", _pack_with(tmp_path, "pl.po", po.encode("iso-8859-2")), "--format", "json")
    assert _codes(r) == ["P0106"]
    assert _diags(r)[0]["line"] == _line(po, "Łódź")


def test_a_wrong_charset_header_and_language_header_warn(tmp_path):
    po = _edited("pl", "charset=UTF-8", "charset=ISO-8859-2")
    po = po.replace('"Language: pl\\n"', '"Language: fr\\n"')
    r = questc("check", _pack_with(tmp_path, "pl.po", po), "--format", "json")
    assert sorted(_codes(r)) == ["T0103", "T0104"]
    by = {d["code"]: d for d in _diags(r)}  # each at the header line that says it, on the value
    assert by["T0103"]["line"] == _line(po, "charset=ISO-8859-2")
    assert by["T0104"]["line"] == _line(po, '"Language: fr')
    assert by["T0104"]["column"] == len('"Language: ') + 1


def test_a_file_not_named_by_a_language_is_refused(tmp_path):
    r = questc("check", _pack_with(tmp_path, "French.po", (PACK / "translations" / "fr.po").read_text(encoding="utf-8")), "--format", "json")
    assert _codes(r) == ["T0102"]


def test_unknown_ids_duplicates_plurals_and_entries_without_id(tmp_path):
    extra = (
        '\nmsgctxt "quest.road_to_lodz.e1.flavour"\nmsgid "x"\nmsgstr "y"\n'
        '\nmsgctxt "quest.road_to_lodz.name"\nmsgid "The Road from Łódź"\nmsgstr "Autre"\n'
        '\nmsgctxt "quest.road_to_lodz.e1.token.crate.label"\nmsgid "crate"\nmsgid_plural "crates"\nmsgstr[0] "caisse"\nmsgstr[1] "caisses"\n'
        '\nmsgid "crate"\nmsgstr "caisse"\n'
    )
    po = (PACK / "translations" / "fr.po").read_text(encoding="utf-8") + extra
    r = questc("check", _pack_with(tmp_path, "fr.po", po), "--format", "json")
    by = {d["code"]: d for d in _diags(r)}
    assert sorted(by) == ["T0105", "T0106", "T0107", "T0201"], r.out
    assert "did you mean `quest.road_to_lodz.e1.flavor`" in by["T0201"]["message"]
    assert by["T0201"]["line"] == _line(po, 'msgctxt "quest.road_to_lodz.e1.flavour"')
    assert by["T0107"]["related"][0]["line"] == _line(po, 'msgctxt "quest.road_to_lodz.name"')
    assert r.code == 0 and questc("check", tmp_path / "translated-pack", "--strict").code == 1


def test_placeholder_and_markup_mismatch(tmp_path):
    po = _edited("fr", "la [TileExit]", "la [SortieTuile]")
    pack = _pack_with(tmp_path, "fr.po", po)
    r = questc("check", pack, "--format", "json")
    (d,) = _diags(r)
    assert d["code"] == "T0203" and "`[SortieTuile]`" in d["message"] and "`[TileExit]`" in d["message"]
    questc("build", pack, "-o", tmp_path / "out", "--no-images")
    bundle = json.loads((tmp_path / "out" / "translated-quests" / "bundle.json").read_text(encoding="utf-8"))
    assert "quest.road_to_lodz.e1.event.1.say" not in bundle["translations"]["fr"]


def test_missing_translations_are_one_warning_per_language(tmp_path):
    pack = tmp_path / "translated-pack"
    shutil.copytree(PACK, pack)
    assert questc("strings", "update", pack, "--lang", "pt_BR").code == 0
    r = questc("check", pack, "--format", "json")
    (d,) = _diags(r)
    assert d["code"] == "T0204" and d["message"].startswith("pt_BR: 7 of 7 texts")
    questc("build", pack, "-o", tmp_path / "out", "--no-images")
    bundle = json.loads((tmp_path / "out" / "translated-quests" / "bundle.json").read_text(encoding="utf-8"))
    assert bundle["translations"]["pt_BR"] == {}  # present, not dropped


def test_strings_usage_errors(tmp_path):
    assert questc("strings", "extract", PACK, "-o", tmp_path / "x.txt").code == 2
    assert questc("strings", "update", PACK, "--lang", "French").code == 2
    write_pack(tmp_path, "t", requires=["d2e-base"], files={"q.quest": QUEST})
    assert questc("strings", "update", tmp_path / "t").code == 2


def test_strings_take_the_conventions_after_the_action(tmp_path):
    # new-user trial: `questc strings update PACK --lang fr -q` was "unrecognized arguments: -q"
    pack = tmp_path / "p"
    shutil.copytree(PACK, pack)
    loud = questc("strings", "extract", pack, "-o", tmp_path / "a.pot")
    assert loud.code == 0 and "written" in loud.out + loud.err
    quiet = questc("strings", "extract", pack, "-o", tmp_path / "b.pot", "-q", "--no-cache")
    assert quiet.code == 0 and quiet.out + quiet.err == "", quiet.err
    assert (tmp_path / "a.pot").read_bytes() == (tmp_path / "b.pot").read_bytes()
    assert questc("strings", "update", pack, "--lang", "de", "-q").code == 0
    assert (pack / "translations" / "de.po").is_file()


# ---------------------------------------------------------------- images in a language
GOLDEN = REPO / "tests" / "golden" / "render"


def test_non_latin1_text_is_drawn_with_the_wide_font_and_latin1_text_is_unchanged():
    from compiler.emit.images import style as S

    assert S.drawable("Łódź") == "Łódź" and S.printable("Łódź") == "?ód?"
    assert S.drawable("Αθήνα, Москва") == "Αθήνα, Москва"
    assert S.font_for(14, "First Blood — Cafe") is S.font(14)  # ASCII: the face every shipped image uses
    assert S.font_for(14, "Café") is not S.font(14)  # Pillow's face has no `é` (it drew a box: issue 35)
    assert S.font_for(14, "Łódź") is not S.font(14)
    assert S.missing_glyphs("Łódź 北京") == ["北", "京"] and S.drawable("北") == "?"


def test_render_lang_pl_draws_lodz_golden(tmp_path):
    from PIL import Image, ImageChops

    out = tmp_path / "pl.png"
    r = questc("render", PACK, "--quest", "road_to_lodz", "--lang", "pl", "-o", out)
    assert r.code == 0 and r.err == "", r.err
    golden = GOLDEN / "translated-pl.png"
    import os

    if os.environ.get("QUESTC_UPDATE_GOLDEN") == "1":
        golden.write_bytes(out.read_bytes())
    with Image.open(out) as got, Image.open(golden) as want:
        got, want = got.convert("RGB"), want.convert("RGB")
        assert got.size == want.size
        title = (0, 0, got.width, 22)  # "Łódź: droga powrotna": a `?` would differ here
        diff = ImageChops.difference(got.crop(title), want.crop(title)).convert("L").point(lambda v: 255 if v > 48 else 0)
        assert diff.getbbox() is None, "the title differs from the golden image"
    english = tmp_path / "en.png"
    assert questc("render", PACK, "--quest", "road_to_lodz", "-o", english).code == 0
    with Image.open(out) as pl, Image.open(english) as en:
        assert ImageChops.difference(pl.convert("RGB").crop(title), en.convert("RGB").crop(title)).getbbox() is not None


def test_render_lang_unknown_and_missing_glyphs(tmp_path):
    r = questc("render", PACK, "--quest", "road_to_lodz", "--lang", "de", "-o", tmp_path / "x.png", "--format", "json")
    assert r.code == 2 and _codes(r) == ["T0301"] and "it has: fr, pl" in _diags(r)[0]["message"]
    pack = _pack_with(tmp_path, "zh.po", _edited("fr", 'msgstr "La route de Łódź"', 'msgstr "罗兹之路"').replace("Language: fr", "Language: zh"))
    r = questc("render", pack, "--quest", "road_to_lodz", "--lang", "zh", "-o", tmp_path / "zh.png")
    assert r.code == 0 and "G0106" in r.err and "U+7F57" in r.err


def test_extract_works_while_a_po_file_is_broken(tmp_path):
    pack = _pack_with(tmp_path, "fr.po", "msgid oops\n")
    r = questc("strings", "extract", pack, "-o", tmp_path / "x.pot")
    assert r.code == 0 and len(polib.pofile(str(tmp_path / "x.pot"))) == 7
    assert questc("strings", "update", pack).code == 1  # update never overwrites what it cannot read
    assert (pack / "translations" / "fr.po").read_text(encoding="utf-8") == "msgid oops\n"


def test_a_linked_translations_folder_out_of_the_pack_is_refused_once(tmp_path):
    pack = tmp_path / "p"
    shutil.copytree(PACK, pack)
    shutil.move(pack / "translations", tmp_path / "outside")
    (pack / "translations").symlink_to(tmp_path / "outside")
    r = questc("check", pack, "--format", "json")
    assert r.code == 1 and _codes(r) == ["P0105"]


def test_build_draws_every_map_in_every_language(tmp_path):
    """maps/<lang>/<id>.png beside the source-language maps; the Polish title is the one
    `render --lang pl` draws (so not `?ód?`), the French differs from the Polish."""
    r = questc("build", PACK, "-o", tmp_path, "--strict")
    assert r.code == 0, r.err
    out = tmp_path / "translated-quests" / "maps"
    source = sorted(p.name for p in out.glob("*.png") if p.name != "tiles.png")
    assert source and sorted(p.name for p in (out / "pl").glob("*.png")) == source
    assert sorted(p.name for p in (out / "fr").glob("*.png")) == source
    rendered = tmp_path / "pl.png"
    assert questc("render", PACK, "--quest", "road_to_lodz", "--lang", "pl", "-o", rendered).code == 0
    assert (out / "pl" / "road_to_lodz.png").read_bytes() == rendered.read_bytes()
    assert (out / "pl" / "road_to_lodz.png").read_bytes() != (out / "fr" / "road_to_lodz.png").read_bytes()
    assert (out / "pl" / "road_to_lodz.png").read_bytes() != (out / "road_to_lodz.png").read_bytes()
    manifest = json.loads((tmp_path / "translated-quests" / "manifest.json").read_text(encoding="utf-8"))
    assert "maps/pl/road_to_lodz.png" in json.dumps(manifest)


def test_build_warns_at_the_translation_a_map_would_draw_as_question_marks(tmp_path):
    po = _edited("fr", 'msgstr "La route de Łódź"', 'msgstr "罗兹之路"').replace("Language: fr", "Language: zh")
    pack = _pack_with(tmp_path, "zh.po", po)
    r = questc("build", pack, "-o", tmp_path / "out", "--format", "json")
    assert r.code == 0
    (g,) = [d for d in _diags(r) if d["code"] == "G0106"]
    assert g["file"].endswith("zh.po") and g["line"] == _line(po, "罗兹之路") - 2  # the entry's msgctxt line
    assert "U+7F57" in g["message"]
    assert (tmp_path / "out" / "translated-quests" / "maps" / "zh" / "road_to_lodz.png").is_file()
    strict = questc("build", pack, "-o", tmp_path / "strict", "--strict", "--format", "json")
    assert strict.code == 1 and not (tmp_path / "strict" / "translated-quests").exists()
    assert questc("build", pack, "-o", tmp_path / "noimg", "--no-images", "--format", "json").code == 0


def test_build_warns_at_a_quest_name_its_map_would_draw_as_question_marks(tmp_path):
    """The source language's map titles are drawn too: a name no bundled font draws is
    located at the name (it was a silent `?` in maps/<id>.png)."""
    text = """\
        quest q "The Stone of \u16b1" {
          heroes 2..4
          map {
            tile entrance1A at (0, 6)
            tile 9A attach west to entrance1A.north
            tile 8A attach east to 9A.north hidden
            door hall on 9A.north; edge 9A.east, 8A.north
          }
          start heroes on entrance1A
          on open hall { reveal 8A }
          on round_end 9 { lose "late" }
          on round_end 10 { win "won" }
        }
        """
    pack = write_pack(tmp_path, "runes", requires=("d2e-base",), files={"q.quest": text})
    r = questc("build", pack, "-o", tmp_path / "out", "--format", "json")
    assert r.code == 0, r.out + r.err
    (g,) = [d for d in r.json()["diagnostics"] if d["code"] == "G0106"]
    assert g["file"].endswith("q.quest") and g["line"] == 1 and "U+16B1" in g["message"]


# ---------------------------------------------------------------- a filled spreadsheet brought back
def _extracted_csv(tmp_path, pack) -> list[list[str]]:
    import csv

    out = tmp_path / "sheet.csv"
    assert questc("strings", "extract", pack, "-o", out).code == 0
    return list(csv.reader(out.open(encoding="utf-8", newline="")))


def _write_csv(path, rows) -> None:
    import csv

    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def test_import_round_trips_a_filled_spreadsheet_into_a_new_language(tmp_path):
    """extract -> fill every row (German, test data) -> import -> the bundle holds it."""
    pack = tmp_path / "p"
    shutil.copytree(PACK, pack)
    rows = _extracted_csv(tmp_path, pack)
    head = rows[0]
    i, src, tr = head.index("id"), head.index("source"), head.index("translation")
    for r in rows[1:]:
        r[tr] = f"DE {r[src]}"
    _write_csv(tmp_path / "de.csv", rows)
    r = questc("strings", "import", pack, tmp_path / "de.csv", "--lang", "de")
    assert r.code == 0, r.err
    assert f"{len(rows) - 1} translations imported, 0 of them marked fuzzy" in r.err
    po = polib.pofile(str(pack / "translations" / "de.po"))
    assert {e.msgctxt: e.msgstr for e in po if not e.obsolete} == {row[i]: f"DE {row[src]}" for row in rows[1:]}
    assert not [e for e in po if "fuzzy" in e.flags]
    out = tmp_path / "out"
    b = questc("build", pack, "-o", out, "--no-images", "--strict")
    assert b.code == 0, b.err
    bundle = json.loads((out / "translated-quests" / "bundle.json").read_text(encoding="utf-8"))
    assert sorted(bundle["translations"]) == ["de", "fr", "pl"]
    assert bundle["translations"]["de"]["quest.road_to_lodz.name"] == "DE " + bundle["strings"]["quest.road_to_lodz.name"]["text"]
    again = questc("strings", "import", pack, tmp_path / "de.csv", "--lang", "de")
    assert again.code == 0 and (pack / "translations" / "de.po").read_text(encoding="utf-8") == po.__unicode__() + (
        "" if po.__unicode__().endswith("\n") else "\n")


def test_import_marks_rows_of_an_older_wording_fuzzy_and_keeps_what_the_sheet_leaves_empty(tmp_path):
    pack = tmp_path / "p"
    shutil.copytree(PACK, pack)
    rows = _extracted_csv(tmp_path, pack)
    head = rows[0]
    i, tr, h = head.index("id"), head.index("translation"), head.index("source_hash")
    name = next(r for r in rows[1:] if r[i] == "quest.road_to_lodz.name")
    name[tr] = "Nouvelle route"
    name[h] = "0123456789ab"  # extracted before the designer reworded the name
    others = [r for r in rows[1:] if r is not name]
    _write_csv(tmp_path / "fr.csv", [head, name, *others])  # every other translation cell empty
    before = {e.msgctxt: e.msgstr for e in polib.pofile(str(pack / "translations" / "fr.po")) if not e.obsolete}
    r = questc("strings", "import", pack, tmp_path / "fr.csv", "--lang", "fr", "--format", "json")
    assert r.code == 0 and _codes(r) == ["T0404"] and _diags(r)[0]["line"] == 2
    after = {e.msgctxt: e for e in polib.pofile(str(pack / "translations" / "fr.po")) if not e.obsolete}
    assert after["quest.road_to_lodz.name"].msgstr == "Nouvelle route" and "fuzzy" in after["quest.road_to_lodz.name"].flags
    assert {k: e.msgstr for k, e in after.items() if k != "quest.road_to_lodz.name"} == {
        k: v for k, v in before.items() if k != "quest.road_to_lodz.name"}
    check = questc("check", pack, "--format", "json")
    assert "T0202" in _codes(check)  # the fuzzy entry is stale until a translator clears it


def test_fifty_thousand_misspelt_rows_spend_the_suggestion_budget_once(tmp_path, monkeypatch):
    # make fuzz: a spreadsheet of 50,000 rows naming no text of the pack compared each id
    # with every text id (did-you-mean without the Sink's budget): 19 s for 7 texts, hours
    # for a pack of thousands. Every row is still reported; only the first get a suggestion.
    # A regression fails at the 10,000th search instead of taking minutes.
    from compiler.diagnostics import hints

    searches = []
    closest = hints._closest

    def counted(word, choices):
        searches.append(word)
        assert len(searches) < 10_000, "a did-you-mean search for every misspelt row"
        return closest(word, choices)

    monkeypatch.setattr(hints, "_closest", counted)
    pack = tmp_path / "p"
    shutil.copytree(PACK, pack)
    rows = _extracted_csv(tmp_path, pack)
    head, first = rows[0], rows[1]
    i = head.index("id")
    n = 50_000
    _write_csv(tmp_path / "typos.csv", [head] + [first[:i] + [f"{first[i]}x{k}"] + first[i + 1:] for k in range(n)])
    r = questc("strings", "import", pack, tmp_path / "typos.csv", "--lang", "fr", "--format", "json")
    typos = [d for d in _diags(r) if d["code"] == "T0402"]
    assert len(typos) == n and "did you mean" in typos[0]["message"] and "did you mean" not in typos[-1]["message"]


def test_import_reports_bad_rows_where_they_are(tmp_path):
    pack = tmp_path / "p"
    shutil.copytree(PACK, pack)
    rows = _extracted_csv(tmp_path, pack)
    head = rows[0]
    i, tr = head.index("id"), head.index("translation")
    first = list(rows[1])
    first[tr] = "un"
    dup = list(rows[1])
    dup[tr] = "deux"
    typo = list(rows[2])
    typo[i] = typo[i][:-1]
    typo[tr] = "x"
    _write_csv(tmp_path / "bad.csv", [head, first, dup, typo])
    r = questc("strings", "import", pack, tmp_path / "bad.csv", "--lang", "fr", "--format", "json")
    assert r.code == 0
    assert [(d["code"], d["line"]) for d in _diags(r)] == [("T0403", 3), ("T0402", 4)]
    assert "line 2" in _diags(r)[0]["message"] and "did you mean" in _diags(r)[1]["message"]
    fr = {e.msgctxt: e.msgstr for e in polib.pofile(str(pack / "translations" / "fr.po"))}
    assert fr[rows[1][i]] == "un"
    human = questc("strings", "import", pack, tmp_path / "bad.csv", "--lang", "fr")
    assert f"4 | {typo[i]}," in human.err  # the human output shows the row, as for any source


@pytest.mark.parametrize("content, line", [
    (b"just,some,columns\nx,y,z\n", 1),
    (b"id,translation\nquest.road_to_lodz.name,\xff\xfe\n", 2),
    (b"", 1),
    (b'id,translation\n"quest.road_to_lodz.name,unclosed\n', 2),
])
def test_an_unreadable_spreadsheet_changes_nothing(tmp_path, content, line):
    pack = tmp_path / "p"
    shutil.copytree(PACK, pack)
    before = (pack / "translations" / "fr.po").read_bytes()
    (tmp_path / "bad.csv").write_bytes(content)
    r = questc("strings", "import", pack, tmp_path / "bad.csv", "--lang", "fr", "--format", "json")
    assert r.code == 1 and _codes(r) == ["T0401"] and _diags(r)[0]["line"] == line, r.out
    assert (pack / "translations" / "fr.po").read_bytes() == before
    missing = questc("strings", "import", pack, tmp_path / "nope.csv", "--lang", "fr", "--format", "json")
    assert missing.code == 1 and _codes(missing) == ["T0401"]
    assert questc("strings", "import", pack, tmp_path / "bad.csv", "--lang", "français").code == 2


@pytest.mark.parametrize("char, words", [
    ("\u2028", "U+2028 (a line separator)"),
    ("\u2029", "U+2029 (a paragraph separator)"),
    ("\x85", "U+0085 (a next-line control)"),
    ("\x1c", "U+001C (a file separator)"),
    ("\x1e", "U+001E (a record separator)"),
])
def test_a_cell_holding_a_character_the_po_file_cannot_keep_is_refused_at_its_row_and_column(tmp_path, char, words):
    """polib cuts a line at these when it reads the PO file back, so the translation came
    back cut short, at every later check, without a word: now the import refuses the
    file at the character (row, column) and writes nothing (issue 38). A NUL is refused
    by the reader, before any row."""
    pack = tmp_path / "p"
    shutil.copytree(PACK, pack)
    before = (pack / "translations" / "fr.po").read_bytes()
    rows = _extracted_csv(tmp_path, pack)
    head = rows[0]
    tr = head.index("translation")
    rows[1][tr] = "une\nligne"  # a cell of two lines before it: the place still counts lines as the file has them
    rows[2][tr] = "Bon" + char + "jour"
    _write_csv(tmp_path / "bad.csv", rows)
    text = (tmp_path / "bad.csv").read_text(encoding="utf-8")
    line = text[: text.index(char)].count("\n") + 1
    column = text.index(char) - text.rfind("\n", 0, text.index(char))
    r = questc("strings", "import", pack, tmp_path / "bad.csv", "--lang", "fr", "--format", "json")
    assert r.code == 1 and _codes(r) == ["T0401"], r.out
    d = _diags(r)[0]
    assert (d["line"], d["column"]) == (line, column) and words in d["message"] and f"row {line}" in d["message"]
    assert (pack / "translations" / "fr.po").read_bytes() == before
    (tmp_path / "nul.csv").write_text(text.replace(char, "\x00"), encoding="utf-8")
    nul = questc("strings", "import", pack, tmp_path / "nul.csv", "--lang", "fr", "--format", "json")
    assert nul.code == 1 and _codes(nul) == ["T0401"] and "NUL" in _diags(nul)[0]["message"]
    assert (pack / "translations" / "fr.po").read_bytes() == before


def test_a_cell_with_cr_or_crlf_line_ends_is_imported_with_lf(tmp_path):
    """Written raw into the PO file, a CR became a new line when the file was read back
    (sources make CR and CRLF into LF), cutting the translation; a cell's line ends are
    now LF, as in every file questc reads."""
    import csv

    pack = tmp_path / "p"
    shutil.copytree(PACK, pack)
    rows = _extracted_csv(tmp_path, pack)
    head = rows[0]
    i, tr = head.index("id"), head.index("translation")
    rows[1][tr], rows[2][tr] = "une\rligne", "deux\r\nlignes"
    with (tmp_path / "crlf.csv").open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, lineterminator="\r\n", quoting=csv.QUOTE_ALL).writerows(rows)
    r = questc("strings", "import", pack, tmp_path / "crlf.csv", "--lang", "fr")
    assert r.code == 0, r.err
    check = questc("check", pack, "--format", "json")
    assert "T0101" not in _codes(check)
    fr = {e.msgctxt: e.msgstr for e in polib.pofile((pack / "translations" / "fr.po").read_text(encoding="utf-8").replace("\r", "\n"))}
    assert fr[rows[1][i]] == "une\nligne" and fr[rows[2][i]] == "deux\nlignes"
