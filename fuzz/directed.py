"""Directed inputs: the reproductions of issue 38 ("Hardening, second pass") and a few
more of the same families, run before the random inputs of every `make fuzz`.

Each is an input of one target (fuzz/targets.py), so it is run, judged and, when it
fails, written to the findings folder exactly as a random input would be.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from dataclasses import dataclass
from typing import Callable

from fuzz.harness import Input, Special

STATE_CASE = "A0101_unknown_monster_group"


@dataclass
class Directed:
    name: str
    target: str
    about: str
    make: Callable  # corpus -> Input


def _seed_map_quest(corpus, old: str, new: str) -> bytes:
    text = corpus.data("packs/seed-map/q.quest").decode()
    assert old in text, old
    return text.replace(old, new, 1).encode()


def _quest(name, about, make, mode="full"):
    return Directed(name, "quest", about, lambda c: Input("quest", name, {"packs/seed-map/q.quest": make(c)}, mode, {"pack": "seed-map"}))


def _catalog(name, about, text: str):
    return Directed(name, "catalog", about, lambda c: Input("catalog", name, {"packs/seed-cat/cat.yaml": text.encode()}, "fast", {"pack": "seed-cat"}))


def _state(name, about, make, file="state.json", mode="fast"):
    rel = f"activation/{STATE_CASE}/{file}"
    return Directed(name, "state", about, lambda c: Input("state", name, {rel: make(c)}, mode, {"case": STATE_CASE, "file": rel}))


def _atest(name, about, make):
    rel = "packs/natures-ire/beyond_the_fringes.activation-test"
    return Directed(name, "atest", about, lambda c: Input("atest", rel, {rel: make(c)}, "fast", {"pack": "packs/natures-ire"}))


TMJ = "tiled/first_blood.tmj"


def _tmj(name, about, make, mode="fast"):
    return Directed(name, "tmj", about, lambda c: Input("tmj", TMJ, {TMJ: make(c)}, mode, {"file": TMJ}))


def _tmj_doc(corpus) -> dict:
    return json.loads(corpus.data(TMJ))


def _tiles_layer(doc) -> list:
    return next(layer["objects"] for layer in doc["layers"] if layer["name"] == "tiles")


def _tmj_with(field: str, raw: str):
    def make(corpus) -> bytes:
        doc = _tmj_doc(corpus)
        _tiles_layer(doc)[0][field] = "\x00RAW\x00"
        return json.dumps(doc, indent=1).replace('"\\u0000RAW\\u0000"', raw).encode()
    return make


def _three_thousand_objects(corpus) -> bytes:
    doc = _tmj_doc(corpus)
    tokens = next(layer for layer in doc["layers"] if layer["name"] == "tokens")
    base = dict(tokens["objects"][0])
    tokens["objects"] = [dict(base, id=10000 + i, type="no_such_token_kind") for i in range(3000)]
    return json.dumps(doc, separators=(",", ":")).encode()  # one line


def _ini(name, about, make, quest="02_AFatGoblin", mode="fast"):
    return Directed(name, "ini", about, lambda c: Input("ini", quest, make(c), mode, {"quest": quest}))


def _event_chain(corpus) -> dict:
    rel = "valkyrie/02_AFatGoblin/events.ini"
    chain = "".join(f"\n[EventChain{i}]\nbuttons=1\nevent1=EventChain{i + 1}\n" + ("trigger=EventStart\n" if i == 1 else "")
                    for i in range(1, 501))
    chain += "\n[EventChain501]\nbuttons=1\n"
    return {rel: corpus.data(rel) + chain.encode()}


def _many_sections(corpus) -> dict:
    rel = "valkyrie/02_AFatGoblin/events.ini"
    return {rel: corpus.data(rel) + b"\n[EventCampaignRules]\nbuttons=1\n" * 20000}


def _bom_lines(corpus) -> dict:
    rel = "valkyrie/02_AFatGoblin/tiles.ini"
    return {rel: b"\n".join(b"\xef\xbb\xbf" + line for line in corpus.data(rel).split(b"\n"))}


def _replace_in(rel: str, old: bytes, new: bytes):
    def make(corpus) -> dict:
        data = corpus.data(rel)
        assert old in data, old
        return {rel: data.replace(old, new, 1)}
    return make


def _missing_references(corpus) -> dict:
    # 10,000 events, each naming a next event that does not exist: did-you-mean over 10,000 names each time
    rel = "valkyrie/02_AFatGoblin/events.ini"
    more = "".join(f"\n[EventMany{i}]\nbuttons=1\nevent1=EventMisspelt{i}\n" for i in range(10000))
    return {rel: corpus.data(rel) + more.encode()}


def _chained_endings(corpus) -> dict:
    # 3,000 events in one chain, each ending the quest with nothing saying a side: each ending
    # read every section before it for evidence (ending_side: 3,000 squared, a minute)
    rel = "valkyrie/shared_end/events.ini"
    more = "".join(f"\n[EventOver{i}]\ndisplay=false\nbuttons=1\noperations=$end,=,1\n" + (f"event1=EventOver{i + 1}\n" if i < 2999 else "")
                   for i in range(3000))
    return {rel: corpus.data(rel).replace(b"event1=EventQuestOver\n", b"event1=EventOver0\n") + more.encode()}


def _title_buttons(corpus) -> dict:
    # a title screen of 3,000 buttons, each a chain of its own (an ask of 3,000 choices)
    ui = "".join(f"\n[UIMany{i}]\ndisplay=false\nbuttons=1\nevent1=EventArrive\n" for i in range(3000))
    events = corpus.data("valkyrie/title_screen/events.ini").replace(
        b"add=UITitlePicture UITitleText UIBegin", b"add=UITitlePicture UITitleText UIBegin " + " ".join(f"UIMany{i}" for i in range(3000)).encode())
    return {"valkyrie/title_screen/ui.ini": corpus.data("valkyrie/title_screen/ui.ini") + ui.encode(),
            "valkyrie/title_screen/events.ini": events}


def _data_files(corpus) -> dict:
    # quest.ini listing 100,000 data files (each looked up on disk)
    rel = "valkyrie/02_AFatGoblin/quest.ini"
    return {rel: corpus.data(rel).replace(b"[QuestData]\n", b"[QuestData]\n" + b"".join(b"x%d.ini\n" % i for i in range(100000)), 1)}


def _listed_again(corpus) -> dict:
    # quest.ini naming other.ini 50,000 times (each copy was read again, its sections all VK0104)
    rel = "valkyrie/02_AFatGoblin/quest.ini"
    return {rel: corpus.data(rel).replace(b"[QuestData]\n", b"[QuestData]\n" + b"other.ini\n" * 50000, 1)}


def _many_properties(corpus) -> bytes:
    # one tile object with 95,000 empty properties (seed 38 r:28825: each an error to the schema)
    doc = _tmj_doc(corpus)
    _tiles_layer(doc)[2]["properties"] = [{}] * 95000
    return json.dumps(doc, indent=1).encode()


def _po_lines(make_lines):
    def make(corpus) -> bytes:
        text = corpus.data("packs/translated-pack/translations/fr.po").decode()
        head, rest = text.split("\n#. ", 1)
        return (head + "\n" + make_lines() + "#. " + rest).encode()
    return make


def _state_heroes(corpus) -> bytes:
    return (json.dumps({"heroes": [{"id": f"hero{i}", "at": [0, 1]} for i in range(18000)],
                        "monsters": [{"group": "zombie", "rank": "minion", "at": [5, 3]}]}) + "\n").encode()


def _atest_tests(corpus) -> bytes:
    test = {"name": "t", "quest": "beyond_the_fringes", "card": "ac_rampage",
            "state": {"heroes": [{"id": "leoric", "at": [0, 1]}], "monsters": [{"group": "cave_spider", "rank": "minion", "at": [4, 1]}]},
            "expect": {"outcomes": 1}}
    return (json.dumps({"tests": [dict(test, name=f"t{i}") for i in range(18000)]}) + "\n").encode()


def _objects(n: int):
    def make(corpus) -> bytes:
        doc = _tmj_doc(corpus)
        tokens = next(layer for layer in doc["layers"] if layer["name"] == "tokens")
        tokens["objects"] = [dict(tokens["objects"][0], id=10000 + i) for i in range(n)]
        return json.dumps(doc, indent=1).encode()
    return make


def _misspelt_rows(corpus) -> bytes:
    head, *rows = corpus.data("csv/translated.csv").decode().split("\n")
    cells = rows[0].split(",")
    return ("\n".join([head] + [",".join([cells[0] + f"x{i}"] + cells[1:]) for i in range(50000)]) + "\n").encode()


def _package_entries(corpus) -> dict:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("quest.ini", corpus.data("valkyrie/02_AFatGoblin/quest.ini"))
        for i in range(3000):
            z.writestr(f"x{i}.ini", b"[X]\n")
    return {"valkyrie/02_AFatGoblin.valkyrie": buf.getvalue()}


def _config(name, about, body, file="questc.toml", found=False):
    return Directed(name, "config", about, lambda c: Input("config", name, {f"config/run/{file}": body}, "fast",
                                                          {"name": file, "command": "check", "found": found}))


def _csv(name, about, make):
    rel = "csv/translated.csv"
    return Directed(name, "csv", about, lambda c: Input("csv", rel, {rel: make(c)}, "fast", {"pack": "packs/translated-pack", "lang": "fr", "file": rel}))


def _csv_cell(extra: str):
    def make(corpus) -> bytes:
        lines = corpus.data("csv/translated.csv").decode().split("\n")
        cells = lines[1].split(",")
        cells[2] = cells[2] + extra if not cells[2].startswith('"') else cells[2][:-1] + extra + '"'
        lines[1] = ",".join(cells)
        return "\n".join(lines).encode()
    return make


def _po(name, about, make):
    rel = "packs/translated-pack/translations/fr.po"
    return Directed(name, "po", about, lambda c: Input("po", rel, {rel: make(c)}, "fast", {}))


def _po_duplicates(corpus) -> bytes:
    text = corpus.data("packs/translated-pack/translations/fr.po").decode()
    entry = text.split("\n\n")[1]
    return (text + ("\n\n" + entry) * 3000 + "\n").encode()


def _diagnostics_line(corpus) -> bytes:
    # one line of 3,000 events opening doors that do not exist: 3,000 errors on a 221 KB line
    opens = "; ".join(f"open no_door_{i:05d}_{'x' * 54}" for i in range(3000))
    return _seed_map_quest(corpus, '  on start { say "Go." }', "  on start { " + opens + " }")


def _laughs(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


DIRECTED: list[Directed] = [
    # -------- issue 38's reproductions
    _catalog("yaml-30000-deep-flow-sequence", "a catalog nesting flow sequences 30,000 deep (ruamel segfaulted)",
             "tiles:\n  deep: " + "[" * 30000 + "]" * 30000 + "\n"),
    _catalog("yaml-30000-deep-flow-mapping", "a catalog nesting flow mappings 30,000 deep",
             "tiles:\n  deep: " + "{a: " * 30000 + "1" + "}" * 30000 + "\n"),
    _state("state-json-100000-deep", "a `questc activate --state` JSON file nesting arrays 100,000 deep",
           lambda c: ('{"heroes": ' + "[" * 100000 + "]" * 100000 + "}\n").encode()),
    _atest("activation-test-100000-deep", "an .activation-test nesting arrays 100,000 deep",
           lambda c: ("tests: " + "[" * 100000 + "]" * 100000 + "\n").encode()),
    _tmj("tmj-100000-deep", "a Tiled map nesting arrays 100,000 deep", lambda c: ('{"layers": ' + "[" * 100000 + "]" * 100000 + "}\n").encode()),
    _quest("quest-221KB-line-3000-diagnostics", "one 221 KB line giving 3,000 diagnostics, each showing the line", _diagnostics_line, mode="fast"),
    _state("state-5000-duplicate-heroes-one-line", "5,000 heroes with one id on one line of a state file (10,000 diagnostics on it)",
           lambda c: (json.dumps({"heroes": [{"id": "tomble", "at": [0, 1]}] * 5000, "monsters": [{"group": "zombie", "rank": "minion", "at": [5, 3]}]})
                      + "\n").encode()),
    _tmj("tmj-3000-objects-one-line", "3,000 Tiled token objects of an unknown kind on one line", _three_thousand_objects),
    _quest("quest-name-60000-characters", "a quest whose name is 60,000 characters (bundle and images)",
           lambda c: _seed_map_quest(c, '"Seed"', '"' + "N" * 60000 + '"'), mode="images"),
    _csv("csv-nul-in-a-cell", "a NUL character in a translation cell of `strings import`", _csv_cell("\x00")),
    _tmj("tmj-nan-coordinates", "a Tiled tile object at x NaN", _tmj_with("x", "NaN")),
    _tmj("tmj-infinite-coordinates", "a Tiled tile object at y Infinity", _tmj_with("y", "Infinity")),
    _tmj("tmj-1e400-width", "a Tiled tile object 1e400 wide", _tmj_with("width", "1e400")),
    _tmj("tmj-nan-rotation", "a Tiled tile object turned NaN degrees", _tmj_with("rotation", "NaN")),
    _ini("valkyrie-500-event-chain", "a Valkyrie quest whose events chain 500 deep", _event_chain),
    _config("config-symlink-to-dev-zero", "questc.toml a link to /dev/zero", Special("symlink", "/dev/zero")),
    _config("config-fifo", "questc.toml a named pipe nobody writes", Special("fifo")),
    _config("config-pyproject-fifo-found-upward", "a pyproject.toml named pipe in the folder questc looks upward from",
            Special("fifo"), file="pyproject.toml", found=True),
    _config("config-questc-toml-fifo-found-upward", "a questc.toml named pipe in the folder questc looks upward from",
            Special("fifo"), found=True),
    _config("config-symlink-loop", "questc.toml a link to itself", Special("symlink", "questc.toml")),
    _config("config-is-a-folder", "questc.toml a folder", Special("dir")),
    # -------- more of the same families
    _config("config-100000-deep-array", "a TOML array nesting 100,000 deep", ("x = " + "[" * 100000 + "]" * 100000 + "\n").encode()),
    _quest("quest-100000-nested-blocks", "100,000 nested `spawn … {` blocks",
           lambda c: ("encounter e {\n" + "spawn zombie {\n" * 100000 + "}\n" * 100001).encode(), mode="fast"),
    _quest("quest-100000-nested-parentheses", "a coordinate nested in 100,000 parentheses",
           lambda c: _seed_map_quest(c, "mark altar at (2, 2)", "mark altar at " + "(" * 100000 + "2, 2" + ")" * 100000), mode="fast"),
    _quest("quest-fifo", "the quest file a named pipe", lambda c: Special("fifo"), mode="fast"),
    _catalog("yaml-billion-laughs", "a catalog of aliases that expand to 10^9 nodes", "tiles:\n  x: 1\n" + _laughs()),
    _state("state-billion-laughs", "a state file of aliases that expand to 10^9 nodes", lambda c: ("heroes: []\n" + _laughs()).encode(), file="state.yaml"),
    _state("state-file-fifo", "the --state file a named pipe", lambda c: Special("fifo")),
    _state("state-symlink-to-dev-zero", "the --state file a link to /dev/zero", lambda c: Special("symlink", "/dev/zero")),
    _state("state-coordinates-1e400", "a hero at (1e400, NaN)", lambda c: b'{"heroes": [{"id": "tomble", "at": [1e400, NaN]}]}\n'),
    _tmj("tmj-fifo", "the .tmj a named pipe", lambda c: Special("fifo")),
    _tmj("tmj-symlink-to-dev-zero", "the .tmj a link to /dev/zero", lambda c: Special("symlink", "/dev/zero")),
    _tmj("tmj-all-flip-bits", "every tile gid with Tiled's three flip bits set",
         lambda c: re.sub(rb'"gid": (\d+)', lambda m: b'"gid": ' + str(int(m.group(1)) | 0xE0000000).encode(), c.data(TMJ))),
    _csv("csv-200000-character-cell", "a translation of 200,000 characters", _csv_cell("x" * 200000)),
    _csv("csv-fifo", "the spreadsheet a named pipe", lambda c: Special("fifo")),
    _po("po-3000-duplicate-entries", "3,000 entries for one string id", _po_duplicates),
    _po("po-one-4MB-translation", "a translation of 4 MB on one line",
        lambda c: c.data("packs/translated-pack/translations/fr.po").replace(b'msgstr "La route', b'msgstr "' + b"x" * (4 << 20) + b'La route', 1)),
    _ini("valkyrie-20000-duplicate-sections", "20,000 copies of one section header", _many_sections),
    _ini("valkyrie-bom-on-every-line", "a byte-order mark at the start of every line of tiles.ini", _bom_lines),
    _ini("valkyrie-package-3000-entries", "a .valkyrie package of 3,000 files", _package_entries, mode="zip"),
    _ini("valkyrie-nan-position", "a Valkyrie token at x NaN",
         _replace_in("valkyrie/02_AFatGoblin/tokens.ini", b"xposition=9", b"xposition=NaN")),
    _ini("valkyrie-1e400-position", "a Valkyrie token at x 1e400 (infinite)",
         _replace_in("valkyrie/02_AFatGoblin/tokens.ini", b"xposition=9", b"xposition=1e400")),
    _ini("valkyrie-a-billion-buttons", "a Valkyrie event with 1,000,000,000 buttons",
         _replace_in("valkyrie/02_AFatGoblin/events.ini", b"buttons=1", b"buttons=1000000000")),
    _ini("valkyrie-5000-digit-operation", "a Valkyrie variable set to a 5,000-digit number",
         _replace_in("valkyrie/02_AFatGoblin/events.ini", b"GoldFound,=,0", b"GoldFound,=," + b"9" * 5000)),
    _ini("valkyrie-10000-missing-references", "10,000 events each naming a next event that does not exist", _missing_references),
    _ini("valkyrie-100000-data-files", "quest.ini listing 100,000 data files", _data_files),
    _ini("valkyrie-3000-chained-endings", "3,000 events in a chain, each ending the quest, none saying a side", _chained_endings,
         quest="shared_end"),
    _ini("valkyrie-title-screen-3000-buttons", "a title screen of 3,000 buttons", _title_buttons, quest="title_screen"),
    _quest("quest-250000-tabs-in-a-doc-comment", "a `##` line of 250,000 tabs (the doc comment pattern backtracked: quadratic)",
           lambda c: _seed_map_quest(c, "## A small quest", "##" + "\t" * 250000 + "A small quest"), mode="fast"),
    _quest("quest-60000-unclosed-braces", "a line of 60,000 `{` (one S0106 with 60,000 notes: 27 MB of SARIF)",
           lambda c: _seed_map_quest(c, "  flavor", "{" * 60000 + "\n  flavor"), mode="full"),
    _catalog("catalog-opening-offset-1e308", "a tile opening at offset 1e308 (an integer to JSON Schema, a float to Python)",
             "tiles:\n  room:\n    kind: dungeon\n    grid: |\n      ....\n    openings: {north: [1e308], south: [2.0]}\n"),
    _config("config-16000-unknown-keys", "16,000 unknown keys (each located by scanning the whole file)",
            "".join(f'"unknown_{i}" = true\n' for i in range(16000)).encode()),
    _config("config-5000-digit-integer", "an integer of 5,000 digits (tomllib's int() refuses more than 4,300)",
            b"strict = " + b"9" * 5000 + b"\n"),
    _config("config-tool-questc-an-array", "pyproject.toml whose tool.questc is an array of tables",
            b'[project]\nname = "x"\n[tool]\nquestc = [{strict = false}]\n', file="pyproject.toml"),
    _config("config-tool-a-string", "pyproject.toml whose tool is a string", b'tool = ""\n[project]\nname = "x"\n', file="pyproject.toml"),
    _config("config-pack-path-of-5000-characters", "a pack-path entry longer than the system allows a name",
            ('pack-path = ["' + "é" * 5000 + '"]\n').encode()),
    _config("config-262KB-dotted-key", "a dotted key of 40,000 parts", ("a" + ".a" * 40000 + " = 1\n").encode()),
    _csv("csv-50000-misspelt-rows", "50,000 rows naming no text of the pack (each matched against every id)", _misspelt_rows),
    _tmj("tmj-20000-objects", "20,000 token objects (each validated against Tiled's schema)", _objects(20000)),
    _ini("valkyrie-ini-fifo", "events.ini a named pipe", lambda c: {"valkyrie/02_AFatGoblin/events.ini": Special("fifo")}),
    # -------- the slow inputs of the runs (docs/robustness.md, "Still open")
    _ini("valkyrie-other-ini-listed-50000-times", "quest.ini naming other.ini 50,000 times (each copy read again)", _listed_again),
    _tmj("tmj-95000-properties-on-one-object", "a tile object with 95,000 empty properties (each an error to the schema)", _many_properties),
    _po("po-65000-comment-lines-in-one-entry", "65,000 `#.` lines in one entry (polib joins them one += at a time)",
        _po_lines(lambda: "#. a designer's note\n" * 65000)),
    _po("po-comments-and-msgids-interleaved", "30,000 `#.` lines with a `msgid` between each two (still one entry to polib)",
        _po_lines(lambda: '#. a note\nmsgid "x"\n' * 30000)),
    _po("po-65000-continuation-lines", "a msgstr continued over 65,000 lines",
        lambda c: c.data("packs/translated-pack/translations/fr.po") + b'\nmsgctxt "x"\nmsgid "y"\nmsgstr ""\n' + b'"z"\n' * 65000),
    _po("po-122771-broken-lines", "122,771 lines that are not PO (one T0101 each: 48 MB of JSON)",
        lambda c: c.data("packs/translated-pack/translations/fr.po") + b"msgstr oops\n" * 122771),
    _config("config-262KB-dotted-key-of-99-parts", "a dotted key of 99 parts, 262 KB in all (tomllib)",
            (".".join(["a" * 2640] * 99) + " = 1\n").encode()),
    _config("config-262KB-quoted-key", "one quoted key of 262 KB", ('"' + "k" * 262000 + '" = 1\n').encode()),
    _state("state-18000-heroes", "a state file of 18,000 heroes (linear: YAML with spans, the schema, one A0104 each)", _state_heroes),
    _atest("activation-test-18000-tests", "an .activation-test of 18,000 tests (linear: each read, checked and run)", _atest_tests),
]
