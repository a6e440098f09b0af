"""Slow inputs `make fuzz` found (issue 38, second pass; docs/robustness.md, "Still open"):
each bounded by counting the work done, never by the clock.

- a Valkyrie quest.ini listing one file 50,000 times, or 100,000 files;
- a Tiled map of 20,000 objects (JSON Schema validation, the positions of its values);
- a `.po` of 65,000 `#.` lines in one entry, or of 122,771 broken lines;
- a dotted key of 262 KB in questc.toml;
- a state file or activation test of 18,000 entries;
- a quest file of 80,000 `tile 1A` lines (1 MB: 10 s of CPU in the parser);
- thousands of fixes in a catalog of thousands of lines (each found its line from the top).
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from types import SimpleNamespace

import jsonschema
import pytest

from compiler.diagnostics import Sink, Span
from conftest import REPO, questc

TILED_SCHEMA = json.loads((REPO / "plugins" / "tiled" / "questc_tiled" / "tiled-map.schema.json").read_text(encoding="utf-8"))


@pytest.fixture
def plugins():
    """The first-party plugins' codes in the catalogue, as `--plugin NAME` puts them there."""
    from compiler.plugins import loader

    assert loader.enable([("valkyrie", Span("<test>", 1, 1)), ("tiled", Span("<test>", 1, 1))], Sink())
    yield
    loader.reset()


def codes(sink: Sink) -> list[str]:
    return [d.code for d in sink.items]


# ---------------------------------------------------------------- Valkyrie quest.ini lists
def _quest(root: Path, listed: str) -> Path:
    root.mkdir()
    (root / "quest.ini").write_text("[Quest]\nformat=6\ntype=D2E\ndefaultlanguage=English\n[QuestData]\n" + listed, encoding="utf-8")
    (root / "other.ini").write_text("[TileA]\nside=TileSide9A\n", encoding="utf-8")
    return root


@pytest.mark.plugins
def test_a_file_listed_fifty_thousand_times_is_read_once_with_one_warning(tmp_path, plugins, monkeypatch):
    from questc_valkyrie import source

    reads: list[Path] = []
    real = source.read_bytes
    monkeypatch.setattr(source, "read_bytes", lambda p, **kw: reads.append(Path(p)) or real(p, **kw))
    q = _quest(tmp_path / "q", "other.ini\n" * 50_000)
    sink = Sink()
    files = source.load_quest(q, sink)
    assert files is not None and [f.path for f in files.data] == [f"{q}/quest.ini", f"{q}/other.ini"]  # quest.ini: a data file too
    assert [p.name for p in reads] == ["quest.ini", "other.ini"]  # the app reads a listed name once: so does questc
    assert codes(sink) == ["VK0205"]  # not 49,999 VK0104 (each copy's sections given again)
    d = sink.items[0]
    assert d.severity.value == "warning" and d.span.line == 7 and "`other.ini` 50000 times" in d.message
    assert d.related[0].span.line == 6


@pytest.mark.plugins
def test_a_quest_ini_listing_a_hundred_thousand_files_stops_at_the_cap(tmp_path, plugins, monkeypatch):
    from questc_valkyrie import source

    looked: list[str] = []
    real = source._FolderFiles._lookup
    monkeypatch.setattr(source._FolderFiles, "_lookup", lambda self, rel: looked.append(rel) or real(self, rel))
    q = _quest(tmp_path / "q", "".join(f"x{i}.ini\n" for i in range(100_000)))
    sink = Sink()
    assert source.load_quest(q, sink) is not None
    assert len(looked) == source.MAX_LISTED + 1  # quest.ini and the first MAX_LISTED names: each once
    refused = [d for d in sink.items if d.code == "VK0202"]
    assert len(refused) == 1 and refused[0].span.line == 6 + source.MAX_LISTED and f"more than {source.MAX_LISTED} files" in refused[0].message
    assert codes(sink).count("VK0204") == source.MAX_LISTED


# ---------------------------------------------------------------- Tiled maps
def _exported(tmp_path) -> tuple[Path, dict]:
    copy = tmp_path / "d2e-quests"
    shutil.copytree(REPO / "content" / "d2e-quests", copy)
    r = questc("--plugin", "tiled", "export", "tiled", copy, "--quest", "first_blood", "-o", tmp_path / "tiled", "--isolated")
    assert r.code == 0, r.err
    tmj = tmp_path / "tiled" / "first_blood.tmj"
    return tmj, json.loads(tmj.read_text(encoding="utf-8"))


def _tokens(doc: dict) -> list:
    return next(layer["objects"] for layer in doc["layers"] if layer["name"] == "tokens")


@pytest.mark.plugins
def _import(tmj: Path) -> tuple[object, Sink]:
    from questc_tiled.read import import_tiled

    sink = Sink()
    return import_tiled(SimpleNamespace(file=str(tmj), pack=None, in_place=False, output=None), sink), sink


class _Counted:
    """A validator that counts what it is asked."""

    def __init__(self, real):
        self.real, self.instances = real, []

    def iter_errors(self, instance):
        self.instances.append(instance)
        return self.real.iter_errors(instance)


@pytest.mark.plugins
def test_plain_objects_never_reach_the_schema_machinery(tmp_path, plugins, monkeypatch):
    from questc_tiled import read

    tmj, doc = _exported(tmp_path)
    tokens = _tokens(doc)
    tokens.extend(dict(tokens[0], id=10_000 + i) for i in range(3000))
    tmj.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    whole, one = (_Counted(v) for v in read._validators())
    monkeypatch.setattr(read, "_validators", lambda: (whole, one))
    _, sink = _import(tmj)
    assert "TLD0102" not in codes(sink)  # the map is valid: the tokens are reported as tokens, not as a bad map
    assert one.instances == []  # no object was given to jsonschema one by one
    (checked,) = whole.instances
    assert all(layer["objects"] == [] for layer in checked["layers"])  # nor inside the map


@pytest.mark.plugins
def test_a_map_of_twenty_thousand_objects_is_refused_at_the_first_too_many(tmp_path, plugins, monkeypatch):
    from questc_tiled import jsonpos, read

    tmj, doc = _exported(tmp_path)
    tokens = _tokens(doc)
    tokens.extend(dict(tokens[0], id=10_000 + i) for i in range(20_000))
    text = json.dumps(doc, indent=1)
    tmj.write_text(text, encoding="utf-8")
    walked: list[jsonpos.Positions] = []

    class Positions(jsonpos.Positions):
        def __init__(self, text: str):
            super().__init__(text)
            walked.append(self)

    monkeypatch.setattr(read, "Positions", Positions)
    monkeypatch.setattr(read, "_validators", lambda: pytest.fail("validated a map over the cap"))
    result, sink = _import(tmj)
    assert result is None and codes(sink) == ["TLD0102"]
    d = sink.items[0]
    assert f"more than {read.MAX_OBJECTS} objects" in d.message
    layer = [layer["name"] for layer in doc["layers"]].index("tokens")
    shown = read.MAX_OBJECTS - sum(len(other["objects"]) for other in doc["layers"][:layer])  # the first too many, in tokens
    assert f"at layers/{layer}/objects/{shown}: the map has" in d.message
    assert d.span.line == jsonpos.line_col(text, jsonpos.positions(text)[("layers", layer, "objects", shown)])[0]
    (pos,) = walked
    assert len(pos.found) < len(jsonpos.positions(text)) / 2  # the walk stopped at the object it was asked for


@pytest.mark.plugins
def test_an_object_of_ninety_five_thousand_properties_is_refused_before_the_schema(tmp_path, plugins, monkeypatch):
    """r:28825 (seed 38): one tile object given 95,327 empty properties: every one an error
    to the schema (9 s)."""
    from questc_tiled import read

    tmj, doc = _exported(tmp_path)
    doc["layers"][0]["objects"][2]["properties"] = [{}] * 95_000
    tmj.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    monkeypatch.setattr(read, "_validators", lambda: pytest.fail("validated a list over the cap"))
    result, sink = _import(tmj)
    assert result is None and codes(sink) == ["TLD0102"] and f"at most {read.MAX_PROPERTIES}" in sink.items[0].message


@pytest.mark.plugins
def test_the_first_bad_object_in_the_file_is_the_one_shown(tmp_path, plugins):
    """Errors are ordered by where they are in the file: object 2 before object 10 (the
    paths compared as text put `10` first)."""
    tmj, doc = _exported(tmp_path)
    tokens = _tokens(doc)
    tokens.extend(dict(tokens[0], id=10_000 + i) for i in range(12))
    tokens[10]["width"] = "wide"
    tokens[2]["visible"] = "yes"
    tmj.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    result, sink = _import(tmj)
    assert result is None and codes(sink) == ["TLD0102"]
    assert "/objects/2/visible" in sink.items[0].message


def _mutations(obj: dict, rng: random.Random) -> dict:
    o = json.loads(json.dumps(obj))
    for _ in range(rng.randint(1, 3)):
        key = rng.choice(sorted(o) + ["gid", "class", "extra", "ellipse", "polygon", "text", "template"])
        value = rng.choice([None, True, False, 0, -1, 1, 1.0, 2.5, -3.0, "", "x", [], {}, [1], {"a": 1}])
        if rng.random() < 0.3:
            o.pop(key, None)
        elif key == "properties" and rng.random() < 0.7:
            props = o.get("properties") if isinstance(o.get("properties"), list) else []
            prop = dict(rng.choice(props)) if props and isinstance(props[0], dict) else {}
            pk = rng.choice(["name", "type", "value", "propertytype", "other"])
            prop[pk] = rng.choice([value, "int", "float", "bool", "string", "color", "file", "object", "class", "nope"])
            o["properties"] = [*props, prop] if isinstance(props, list) else [prop]
        else:
            o[key] = value
    return o


@pytest.mark.plugins
def test_the_plain_object_check_never_passes_what_the_schema_refuses(tmp_path):
    from questc_tiled.read import _plain_object

    one = jsonschema.Draft202012Validator({"$defs": TILED_SCHEMA["$defs"], "$ref": "#/$defs/object"})
    maps = sorted((REPO / "tests").rglob("*.tmj"))
    objects = [o for m in maps for layer in json.loads(m.read_text(encoding="utf-8")).get("layers", []) for o in layer.get("objects", [])]
    if not objects:
        _, doc = _exported(tmp_path)
        objects = [o for layer in doc["layers"] for o in layer["objects"]]
    assert objects and all(_plain_object(o) for o in objects)  # what questc exports is plain
    rng = random.Random(38)
    passed = refused = 0
    for i in range(4000):
        o = _mutations(objects[i % len(objects)], rng)
        if _plain_object(o):
            passed += 1
            assert one.is_valid(o), o
        elif not one.is_valid(o):
            refused += 1
    assert passed > 200 and refused > 1000  # both sides were explored


@pytest.mark.plugins
def test_positions_found_lazily_are_the_positions():
    from questc_tiled.jsonpos import Positions, positions

    texts = [p.read_text(encoding="utf-8") for p in sorted((REPO / "tests").rglob("*.tmj"))][:3]
    texts += ['[]', '{}', '{"a": []}', ' [1, [2, {"x": "y\\"]"}], {}] ', '{"a" : {"b":[ ]} , "c":NaN, "d": -Infinity}']
    for text in texts:
        full = positions(text)
        assert all(Positions(text).get(path) == at for path, at in full.items())
        lazy = Positions(text)
        assert all(lazy.get(path) == at for path, at in full.items())  # asked in order, one walk
        assert Positions(text).get(("no such key",)) is None and Positions(text).get((99,)) is None


# ---------------------------------------------------------------- .po files
FR_PO = REPO / "tests" / "data" / "translated-pack" / "translations" / "fr.po"


def _no_polib(monkeypatch):
    from compiler.catalogs import translations

    monkeypatch.setattr(translations, "pofile", lambda *a, **kw: pytest.fail("polib was given a file the line check refuses"))


def test_an_entry_of_sixty_five_thousand_comment_lines_is_refused_before_polib(monkeypatch):
    """seed 38 r:47101: polib joins comment lines one `+=` at a time (10 s)."""
    from compiler.catalogs.translations import MAX_ENTRY_LINES, parse_po

    text = FR_PO.read_text(encoding="utf-8")
    head, rest = text.split("\n#. ", 1)
    first = head.count("\n") + 2
    po = head + "\n" + "#. a designer's note\n" * 65_000 + "#. " + rest
    _no_polib(monkeypatch)
    sink = Sink()
    assert parse_po(po, "translations/fr.po", sink) is None
    assert codes(sink) == ["T0101"] and sink.items[0].span.line == first + MAX_ENTRY_LINES
    assert f"more than {MAX_ENTRY_LINES} comment lines in one entry" in sink.items[0].message


def test_comment_lines_are_counted_until_the_entrys_msgstr_not_per_kind(monkeypatch):
    """Comment kinds interleaved, or `msgid` lines between them, still join into one entry."""
    from compiler.catalogs.translations import MAX_ENTRY_LINES, parse_po

    _no_polib(monkeypatch)
    for filler in ("#. a\n#: x.quest:1\n", '#. a\nmsgid "x"\n'):
        sink = Sink()
        po = 'msgid ""\nmsgstr ""\n\n' + filler * (MAX_ENTRY_LINES + 1) + 'msgctxt "a"\nmsgid "b"\nmsgstr "c"\n'
        assert parse_po(po, "translations/fr.po", sink) is None and codes(sink) == ["T0101"], filler


def test_a_string_of_sixty_five_thousand_continuation_lines_is_refused_before_polib(monkeypatch):
    from compiler.catalogs.translations import MAX_ENTRY_LINES, parse_po

    po = 'msgid ""\nmsgstr ""\n\nmsgctxt "a"\nmsgid "b"\nmsgstr ""\n' + '"x"\n' * 65_000
    _no_polib(monkeypatch)
    sink = Sink()
    assert parse_po(po, "translations/fr.po", sink) is None
    assert codes(sink) == ["T0101"] and sink.items[0].span.line == 6 + MAX_ENTRY_LINES + 1


def test_a_file_of_122771_broken_lines_gives_a_hundred_and_one_errors():
    """seed 2026 r:36755: one T0101 per line (48 MB of JSON); now the first hundred, then one
    counting the rest, located at the next."""
    from compiler.catalogs.translations import MAX_LINE_ERRORS, parse_po

    po = 'msgid ""\nmsgstr ""\n' + "msgstr oops\n" * 122_771
    sink = Sink()
    assert parse_po(po, "translations/fr.po", sink) is None
    assert codes(sink) == ["T0101"] * (MAX_LINE_ERRORS + 1)
    assert [d.span.line for d in sink.items] == list(range(3, 3 + MAX_LINE_ERRORS + 1))
    assert f"and {122_771 - MAX_LINE_ERRORS - 1} more lines after this one cannot be read" in sink.items[-1].message


def test_a_long_but_ordinary_po_is_still_read():
    from compiler.catalogs.translations import parse_po

    text = FR_PO.read_text(encoding="utf-8")
    sink = Sink()
    parsed = parse_po(text, "translations/fr.po", sink)
    assert parsed is not None and parsed.entries and "T0101" not in codes(sink)


# ---------------------------------------------------------------- state files and activation tests
STATE_ARGS = ("activate", str(REPO / "content" / "natures-ire"), "--quest", "beyond_the_fringes", "--card", "ac_rampage")


def _errors(run) -> list[dict]:
    return [d for d in run.json()["diagnostics"] if d["severity"] == "error"]


def test_a_state_file_of_eighteen_thousand_heroes_is_refused_by_its_size(tmp_path):
    """Linear, not quadratic (about 0.1 ms an entry: YAML with spans, the schema, one A0104
    each), but 18,000 entries took 4 to 9 s: a state file is at most 64 KiB."""
    from compiler.commands.activate import MAX_STATE_BYTES

    state = tmp_path / "state.json"
    state.write_text(json.dumps({"heroes": [{"id": f"h{i}", "at": [0, 1]} for i in range(18_000)], "monsters": []}), encoding="utf-8")
    assert state.stat().st_size > MAX_STATE_BYTES == 64 << 10
    (d,) = _errors(questc(*STATE_ARGS, "--state", state, "--format", "json"))
    assert d["code"] == "A0100" and "over the limit of 65,536" in d["message"]


def test_a_state_file_of_two_thousand_heroes_is_one_schema_error_not_two_thousand_overlaps(tmp_path):
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"heroes": [{"id": f"h{i}", "at": [0, 1]} for i in range(2000)], "monsters": []}), encoding="utf-8")
    (d,) = _errors(questc(*STATE_ARGS, "--state", state, "--format", "json"))
    assert d["code"].startswith("Y01") and "at most 64" in d["message"]


def test_a_billion_laughs_state_file_stops_at_the_state_files_node_budget(monkeypatch):
    """The aliases expanded to the catalogs' 400,000 nodes before Y0003 (4 to 10 s)."""
    from compiler.catalogs import yamlload
    from compiler.commands.state import MAX_STATE_NODES, read_state

    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    text = "heroes: []\n" + "\n".join(lines) + "\n"
    made = 0
    real = yamlload._Reader.plain

    def counted(self, node, path):
        nonlocal made
        made += 1
        return real(self, node, path)

    monkeypatch.setattr(yamlload._Reader, "plain", counted)
    sink = Sink()
    assert read_state(text, "state.yaml", None, {}, sink) is None  # type: ignore[arg-type]  # never reaches the board
    assert codes(sink) == ["Y0003"] and f"{MAX_STATE_NODES:,}" in sink.items[0].message or str(MAX_STATE_NODES) in sink.items[0].message
    assert MAX_STATE_NODES < made <= MAX_STATE_NODES + 2


def _test_file(n: int) -> str:
    test = {"name": "t", "quest": "beyond_the_fringes", "card": "ac_rampage",
            "state": {"heroes": [{"id": "leoric", "at": [0, 1]}], "monsters": [{"group": "cave_spider", "rank": "minion", "at": [4, 1]}]},
            "expect": {"outcomes": 1}}
    return json.dumps({"tests": [dict(test, name=f"t{i}") for i in range(n)]})


def test_an_activation_test_of_eighteen_thousand_tests_is_refused_by_its_size(tmp_path):
    """Each test is read, checked against the schema twice and run: 18,000 took 30 s."""
    pack = tmp_path / "natures-ire"
    shutil.copytree(REPO / "content" / "natures-ire", pack)
    (pack / "many.activation-test").write_text(_test_file(18_000), encoding="utf-8")
    errors = _errors(questc("test", pack, "--format", "json"))
    assert [d["code"] for d in errors] == ["P0107"] and errors[0]["file"].endswith("many.activation-test")


def test_an_activation_test_of_more_than_two_hundred_tests_runs_none(tmp_path, monkeypatch, capsys):
    from compiler.commands import test as command

    pack = tmp_path / "natures-ire"
    shutil.copytree(REPO / "content" / "natures-ire", pack)
    (pack / "beyond_the_fringes.activation-test").unlink()
    (pack / "many.activation-test").write_text(_test_file(201), encoding="utf-8")
    ran: list[int] = []
    real = command.run_test
    monkeypatch.setattr(command, "run_test", lambda model, doc, i, sink: ran.append(i) or real(model, doc, i, sink))
    from compiler.cli import main

    assert main(["test", str(pack), "--format", "json", "--isolated"]) == 1 and ran == []
    assert "at most 200" in capsys.readouterr().out
    (pack / "many.activation-test").write_text(_test_file(200), encoding="utf-8")
    main(["test", str(pack), "--format", "json", "--isolated"])
    assert len(ran) == 200


# ---------------------------------------------------------------- questc.toml
def test_sixteen_thousand_unknown_keys_spend_the_suggestion_budget_once(tmp_path, monkeypatch):
    """`config-16000-unknown-keys`: each F0102 asked did-you-mean outside the Sink's budget
    (2.5 s in the smoke run of make fuzz)."""
    from compiler import config as cfg
    from compiler.diagnostics import hints

    (tmp_path / "questc.toml").write_text("".join(f"k{i} = 1\n" for i in range(16_000)), encoding="utf-8")
    asked = []
    real = hints._closest
    monkeypatch.setattr(hints, "_closest", lambda word, choices: asked.append(word) or real(word, choices))
    sink = Sink()
    cfg.load(None, False, sink, cwd=tmp_path)
    assert len(sink.items) == 16_000 and {d.code for d in sink.items} == {"F0102"}
    assert sink.items[0].fix is not None or "did you mean" not in sink.items[0].message  # the first still get suggestions
    assert len(asked) <= 2 * Sink().comparisons_left // len(cfg.KEYS)  # before: two per key, 32,000


@pytest.mark.parametrize("key", [".".join(["a" * 2640] * 99), '"' + "k" * 262_000 + '"'], ids=["99 parts", "one quoted key"])
def test_a_key_of_262_kb_in_fewer_than_a_hundred_parts_is_read(tmp_path, key):
    """seed 38 r:38397 was a header of 43,691 parts (F0101 since the 100-part cap); tomllib
    reads a 262 KB key of fewer parts in linear time, so it is an ordinary unknown key."""
    from compiler import config as cfg

    (tmp_path / "questc.toml").write_text(key + " = 1\n", encoding="utf-8")
    sink = Sink()
    cfg.load(None, False, sink, cwd=tmp_path)
    assert [d.code for d in sink.items] == ["F0102"] and sink.items[0].span.line == 1


def test_a_questc_toml_of_262_000_blank_lines_is_read_in_one_pass(tmp_path):
    """seed 4102 r:39646: `^\\s*` in the dotted-key scan ran from every line start over all
    the blank lines after it (quadratic: past the 10 s timeout on 262,000 new lines). A key
    never spans lines: the scan's blanks are spaces and tabs, so no match starts on one line
    and goes on over the next."""
    from compiler import config as cfg

    assert cfg._DOTTED.match("\n\n\nstrict = 1") is None
    assert cfg._DOTTED.match("  a . b\t.c = 1").group(1) == "a . b\t.c"
    (tmp_path / "questc.toml").write_text(",strict = \"yes\"ict = tru" + "\n" * 262_144, encoding="utf-8")
    sink = Sink()
    cfg.load(None, False, sink, cwd=tmp_path)
    assert [d.code for d in sink.items] == ["F0101"] and sink.items[0].span.line == 1


@pytest.mark.parametrize("questc_table", [True, False], ids=["ours", "not ours"])
def test_a_pyproject_with_a_number_of_5000_digits_is_passed_over_or_reported(tmp_path, questc_table):
    """seed 4105 r:2442: finding the configuration parsed a pyproject.toml with tomllib
    without the limits read() applies; a 5,000-digit number raised ValueError (an internal
    error). Now one beyond the limits is questc's only when it has a [tool.questc] header,
    and then read() reports where (F0101)."""
    from compiler import config as cfg

    header = "[tool.questc]\n" if questc_table else "[tool.other]\n# questc\n"
    (tmp_path / "pyproject.toml").write_text(header + "x = {a = " + "1" * 5001 + "}\n", encoding="utf-8")
    sink = Sink()
    cfg.load(None, False, sink, cwd=tmp_path)
    assert [d.code for d in sink.items] == (["F0101"] if questc_table else [])
    assert cfg._QUESTC_HEADER.search("\n\n[ tool . questc ]") is not None
    assert cfg._QUESTC_HEADER.search("\n\n\n\n") is None


def _tiles_file(n: int) -> str:
    text = (REPO / "content" / "natures-ire" / "encounters.quest").read_text(encoding="utf-8")
    return text.replace("  map {\n", "  map {\n" + "    tile 1A\n" * n, 1)


def test_a_quest_of_eighty_thousand_tile_lines_is_refused_before_the_parser(monkeypatch):
    from compiler.syntax import parse, recovery

    def no_parse(*args, **kwargs):
        raise AssertionError("the parser was reached")

    monkeypatch.setattr(recovery, "parse_recovering", no_parse)
    text = _tiles_file(80_000)
    sink = Sink()
    module = parse.parse_module(text, "encounters.quest", sink)
    assert module.declarations == ()
    [d] = sink.items
    # 50,000 words: the words before the map, then two a `tile 1A` line
    before = len(text[: text.index("    tile 1A\n")].split())
    line = text[: text.index("    tile 1A\n")].count("\n") + 1 + (50_000 - before) // 2
    assert (d.code, d.span.line, d.span.column) == ("S0231", line, 5 if (50_000 - before) % 2 == 0 else 10)


def test_a_file_of_exactly_the_cap_is_parsed_and_one_word_more_is_not(monkeypatch):
    from compiler.syntax import lengths, parse

    text = 'quest q "A small quest" {\n  flavor "Dark."\n}\n'
    words = len(text.split())
    monkeypatch.setattr(lengths, "WORDS_MAX", words)
    sink = Sink()
    assert [d.name.value for d in parse.parse_module(text, "q.quest", sink).declarations] == ["A small quest"] and sink.items == []
    monkeypatch.setattr(lengths, "WORDS_MAX", words - 1)
    sink = Sink()
    assert parse.parse_module(text, "q.quest", sink).declarations == ()
    assert [(d.code, d.span.line, d.span.column) for d in sink.items] == [("S0231", 3, 1)]


def test_the_cap_leaves_every_shipped_quest_file_far_below_it():
    from compiler.syntax import lengths

    most = max(len(p.read_text(encoding="utf-8").split()) for p in (REPO / "content").rglob("*.quest"))
    assert most * 20 < lengths.WORDS_MAX


def test_the_cli_reports_one_error_for_the_fuzzed_file(tmp_path):
    pack = tmp_path / "natures-ire"
    shutil.copytree(REPO / "content" / "natures-ire", pack)
    (pack / "encounters.quest").write_text(_tiles_file(80_000), encoding="utf-8")
    r = questc("check", str(pack), "--format", "json", cwd=tmp_path)
    assert r.code == 1
    assert [d["code"] for d in r.json()["diagnostics"]] == ["S0231"]  # the references into the file are not reported (LOST_FILE)


def test_a_questc_toml_line_of_sixty_thousand_tabs_is_scanned_once(tmp_path):
    """seed 4107 r:17653: `^[ \\t]*\\[*[ \\t]*` shared one run of blanks between its two
    halves in every possible way before giving up (quadratic: 10 s of CPU on a line of
    60,000 tabs). The second run of blanks comes only after a `[`, so a run of blanks is
    split one way. The scan still finds keys after brackets and blanks."""
    from compiler import config as cfg

    assert [m.group(1) for m in cfg._DOTTED.finditer("a.b = 1\n  [ tool . questc ]\n[[x.y]]\n\t'q'.r = 2\n")] == \
        ["a.b", "tool . questc", "x.y", "'q'.r"]
    (tmp_path / "questc.toml").write_text("strikt = true\n" + "\t" * 240_000 + "\n", encoding="utf-8")
    sink = Sink()
    cfg.load(None, False, sink, cwd=tmp_path)
    assert [d.code for d in sink.items] == ["F0102"] and sink.items[0].span.line == 1  # `strikt`: did you mean `strict`?


def test_an_ability_name_with_a_run_of_blanks_is_read_in_one_pass():
    """Found auditing the patterns after seed 4107 r:17653: the template rank of an ability
    (`Blast 2`) was read with `\\s*(.*?)\\s*(\\d+)?\\s*$`, cubic over a run of blanks inside the
    name (8 s of CPU for 2,000 spaces). Same answers, read by stripping digits."""
    from compiler.catalogs.templates import ability_rank

    assert [ability_rank(a) for a in ("Blast 2", "Breath", "  Blast2 ", "blast  12", "Bolt 1234567890")] == \
        [("blast", 2), ("breath", None), ("blast", 2), ("blast", 12), ("bolt", None)]
    assert ability_rank("a" + " " * 200_000 + "b") == ("a" + " " * 200_000 + "b", None)


# ---------------------------------------------------------------- fixes in a long file
def test_the_fix_of_each_diagnostic_in_a_long_file_finds_its_line_without_rescanning():
    """`make fuzz` (seed 4108, hang-catalog-23816): a 350 KB catalog written as JSON on
    thousands of lines, with a did-you-mean on thousands of them; the SARIF fixes found
    each line by scanning the file from its start (quadratic: over 10 s of CPU). The line
    starts are now worked out once per text."""
    from compiler.diagnostics import fixes

    text = "".join(f"  key_{i}: value_{i}\r\n" if i % 3 else f"  key_{i}: value_{i}\n" for i in range(30_000))
    fixes._starts.cache_clear()
    rows = text.split("\n")
    for line in (1, 2, 3, 15_000, 29_999, 30_000):
        assert fixes._line(text, line) == rows[line - 1].removesuffix("\r")
    assert fixes._line(text, 30_001) == ""  # the empty line after the last break, as before
    assert fixes._line(text, 30_002) is None
    assert fixes._starts.cache_info().misses == 1
