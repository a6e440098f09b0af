"""questc lsp, driven through a real LSP client over stdio (tests/lsp_client.py): a copy
of content/d2e-quests, a pack with errors, and bad input (documents outside any pack,
unknown documents, out-of-range positions, broken requests, a broken pack.yaml).
Every wait on the server has a timeout."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import REPO
from lsp_client import Client, LspError

QUEST = "first_blood.quest"


def pos(line: int, character: int) -> dict:
    return {"line": line, "character": character}


def at(uri: str, line: int, character: int) -> dict:
    return {"textDocument": {"uri": uri}, "position": pos(line, character)}


def change(client: Client, uri: str, version: int, text: str) -> int:
    """Replace the whole document; the index of the notifications that follow."""
    mark = len(client.notifications)
    client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                             "contentChanges": [{"text": text}]})
    return mark


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    dest = tmp_path / "d2e-quests"
    shutil.copytree(REPO / "content" / "d2e-quests", dest)
    return dest


@pytest.fixture
def client(tmp_path: Path):
    c = Client("--debounce", "0.02")
    c.initialize(tmp_path)
    yield c
    if c.proc.poll() is None:
        c.proc.kill()
        c.proc.wait(timeout=5)


def test_a_session_on_the_shipped_quests(pack: Path, client: Client):
    quest = pack / QUEST
    text = quest.read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = client.open(quest)
    assert client.diagnostics(uri) == []

    # hover: a tile code draws the tile with numbered openings; a monster gives size and limits
    hover = client.request("textDocument/hover", at(uri, 6, lines[6].index("12A") + 1))
    value = hover["contents"]["value"]
    assert "**tile 12A**" in value and "`12A.south`" in value and "`12A.west`" in value
    assert "+--11-+" in value  # the south opening, numbered 1, on the frame
    line = lines.index("  spawn zombie at 8A(1,1)")
    hover = client.request("textDocument/hover", at(uri, line, 9))
    value = hover["contents"]["value"]
    assert "monster zombie" in value and "size 1x1" in value and "2 heroes:" in value
    # a placed tile's square: the terrain of that square
    line = next(i for i, s in enumerate(lines) if "grain_west at 12A(4,0)" in s)
    hover = client.request("textDocument/hover", at(uri, line, lines[line].index("12A(4,0)")))
    assert hover["contents"]["value"].startswith("**12A(4, 0) = (0, 7)**")  # and its world coordinate

    # definition: tile code -> catalog entry; monster -> catalog; id -> declaration
    found = client.request("textDocument/definition", at(uri, 6, lines[6].index("12A")))
    assert len(found) == 1 and found[0]["uri"].endswith("/content/d2e-base/tiles.yaml")
    tiles_lines = (REPO / "content" / "d2e-base" / "tiles.yaml").read_text(encoding="utf-8").split("\n")
    start = found[0]["range"]["start"]
    assert tiles_lines[start["line"]][start["character"]:].startswith("12A:")
    line = lines.index("  spawn zombie at 8A(1,1)")
    found = client.request("textDocument/definition", at(uri, line, 10))
    assert found[0]["uri"].endswith("/content/d2e-base/monsters.yaml")
    use = next(i for i, s in enumerate(lines) if s.startswith("  on picked_up grain_west"))
    found = client.request("textDocument/definition", at(uri, use, lines[use].index("grain_west") + 2))
    decl = next(i for i, s in enumerate(lines) if "as grain_west" in s)
    assert found == [{"uri": uri, "range": {"start": pos(decl, lines[decl].index("grain_west")),
                                            "end": pos(decl, lines[decl].index("grain_west") + len("grain_west"))}}]

    # completion: after `spawn ` monster ids only; elsewhere keywords, tiles, monsters, ids
    line = lines.index("  spawn zombie at 8A(1,1)")
    items = client.request("textDocument/completion", at(uri, line, len("  spawn ")))["items"]
    labels = {i["label"] for i in items}
    assert {"zombie", "goblin_archer"} <= labels and "quest" not in labels and "12A" not in labels
    # after the quest: the declarations a file may hold, not a quest's statements (issue 35)
    items = client.request("textDocument/completion", at(uri, len(lines) - 1, 0))["items"]
    labels = {i["label"] for i in items}
    assert {"quest", "encounter"} <= labels and not labels & {"spawn", "token", "12A", "zombie"}
    # where a name may stand: the pack's names and the library's
    line = next(i for i, row in enumerate(lines) if row.startswith("  on picked_up grain_west"))
    items = client.request("textDocument/completion", at(uri, line, len("  on picked_up ")))["items"]
    labels = {i["label"] for i in items}
    assert {"grain_west", "sacks_saved", "zombie"} <= labels and "quest" not in labels

    # formatting: a badly laid-out text comes back as the canonical one (the shipped file)
    messy = text.replace("    tile 12A at (0, 3)", "        tile   12A   at (0,3)")
    mark = change(client, uri, 2, messy)
    assert client.diagnostics(uri, after=mark) == []
    edits = client.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}})
    assert len(edits) == 1 and edits[0]["newText"] == text
    assert edits[0]["range"]["start"] == pos(0, 0)

    # diagnostics as you type, and the quick fix of a one-token `fix`
    broken = text.replace("tile 12A at (0, 3)", "tile 12X at (0, 3)")
    mark = change(client, uri, 3, broken)
    diags = client.diagnostics(uri, after=mark)
    m0201 = [d for d in diags if d["code"] == "M0201"]
    assert m0201 and m0201[0]["range"]["start"]["line"] == 6 and m0201[0]["severity"] == 1
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": m0201[0]["range"], "context": {"diagnostics": m0201}})
    assert len(actions) == 1 and actions[0]["kind"] == "quickfix"
    (edit,) = actions[0]["edit"]["changes"][uri]
    column = lines[6].index("12A")
    assert edit == {"range": {"start": pos(6, column), "end": pos(6, column + 3)}, "newText": "12A"}
    assert actions[0]["diagnostics"] == m0201

    # the fix applied: the errors go away
    mark = change(client, uri, 4, text)
    assert client.diagnostics(uri, after=mark) == []
    assert client.close() == 0


def test_a_pack_with_errors_and_bad_input(pack: Path, client: Client, tmp_path: Path):
    # a quest file that does not parse, a catalog with a misspelt kind
    half = pack / "half.quest"
    half.write_text('quest half "Half" {\n  heroes 2..4\n  map {\n    tile 9A at (0, 0\n  }\n}\n', encoding="utf-8")
    (pack / "extra.yaml").write_text("monstres:\n  imp:\n    name: Imp\n", encoding="utf-8")
    uri = client.open(half)
    diags = client.diagnostics(uri)
    assert diags and all(d["source"] == "questc" for d in diags) and diags[0]["code"].startswith("S")
    yaml_uri = (pack / "extra.yaml").as_uri()
    y = client.diagnostics(yaml_uri)
    assert [d["code"] for d in y] == ["Y0005"]
    actions = client.request("textDocument/codeAction", {
        "textDocument": {"uri": yaml_uri}, "range": y[0]["range"], "context": {"diagnostics": y}})
    assert actions[0]["edit"]["changes"][yaml_uri][0]["newText"] == "monsters"

    # half-typed statements: hover, completion and formatting still answer
    assert client.request("textDocument/hover", at(uri, 3, 10)) is not None  # 9A
    assert client.request("textDocument/completion", at(uri, 3, 9))["items"]
    assert client.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}) == []

    # unknown documents and out-of-range positions
    nowhere = (tmp_path / "nowhere" / "x.quest").as_uri()
    assert client.request("textDocument/hover", at(nowhere, 3, 3)) is None
    assert client.request("textDocument/definition", at(nowhere, 3, 3)) == []
    assert client.request("textDocument/hover", at(uri, 9999, 9999)) is None
    # a request the server cannot even read (LSP positions are unsigned; a field missing)
    # is answered with InvalidParams, and the server keeps serving
    for params in (at(uri, -1, -5), {"textDocument": {"uri": uri}}):
        with pytest.raises(LspError, match="-32602"):
            client.request("textDocument/hover", params, timeout=10)
    assert client.request("textDocument/hover", at(uri, 3, 10)) is not None

    # a document outside any pack: no diagnostics, no error, keywords still complete
    loose = tmp_path / "loose.quest"
    loose.write_text("quest q {\n", encoding="utf-8")
    loose_uri = client.open(loose)
    labels = {i["label"] for i in client.request("textDocument/completion", at(loose_uri, 1, 0))["items"]}
    assert "quest" in labels
    assert client.request("textDocument/hover", at(loose_uri, 0, 2)) is None

    # a pack whose pack.yaml is broken: reported on pack.yaml, the server keeps serving
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "pack.yaml").write_text("id: [\n", encoding="utf-8")
    (bad / "q.quest").write_text('quest q "Q" {\n}\n', encoding="utf-8")
    bad_uri = client.open(bad / "q.quest")
    manifest = client.diagnostics((bad / "pack.yaml").resolve().as_uri())
    assert manifest and manifest[0]["severity"] == 1
    assert client.request("textDocument/hover", at(bad_uri, 0, 2)) is None

    # nothing published for the loose document, and no traceback escaped the guards
    assert not [n for n in client.notifications if n.get("method") == "textDocument/publishDiagnostics"
                and n["params"]["uri"] == loose_uri]
    assert client.close() == 0


def test_the_editors_text_is_checked_not_the_saved_file(pack: Path, client: Client):
    """An unsaved edit is what the diagnostics describe; closing the document goes back to the disk."""
    quest = pack / QUEST
    text = quest.read_text(encoding="utf-8")
    uri = client.open(quest, text.replace("spawn zombie", "spawn zombei", 1))
    assert [d["code"] for d in client.diagnostics(uri)] == ["Q0201"]
    assert quest.read_text(encoding="utf-8") == text  # nothing written
    mark = len(client.notifications)
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert client.diagnostics(uri, after=mark) == []
    assert client.close() == 0


def test_the_overlay_is_read_instead_of_the_file(tmp_path: Path):
    from compiler.diagnostics import Sink
    from compiler.sources import drop_overlay, pack_files, read_source, set_overlay

    (tmp_path / "a.quest").write_text("on disk\n", encoding="utf-8")
    set_overlay(tmp_path / "a.quest", "in the editor\r\n")
    set_overlay(tmp_path / "new.quest", "not saved yet\n")
    try:
        src = read_source(tmp_path, tmp_path / "a.quest", Sink(), max_bytes=100)
        assert src.text == "in the editor\n" and src.newline == "\r\n"
        assert [s.path.name for s in pack_files(tmp_path, Sink(), max_bytes=100)] == ["a.quest", "new.quest"]
    finally:
        drop_overlay(tmp_path / "a.quest")
        drop_overlay(tmp_path / "new.quest")
    assert read_source(tmp_path, tmp_path / "a.quest", Sink(), max_bytes=100).text == "on disk\n"
    assert [s.path.name for s in pack_files(tmp_path, Sink(), max_bytes=100)] == ["a.quest"]


def test_a_tile_is_drawn_with_numbered_openings():
    from compiler.emit.library import tile_picture
    from compiler.geometry.tiles import Opening, Tile

    squares = {(c, r): "." for c in range(3) for r in range(2)}
    tile = Tile("T", "dungeon", "1", 1, 3, 2, squares,
                {"north": (Opening("north", 0, 1, 2),), "west": (Opening("west", 0, 0, 1),)})
    assert tile_picture(tile) == ["+-11+", "2...|", "|...|", "+---+"]


# ---------------------------------------------------------------- references, rename, preview
def apply(text: str, edits: list[dict]) -> str:
    """Apply LSP text edits (UTF-16 columns; the texts here are ASCII) to `text`."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def off(p):
        return offsets[p["line"]] + p["character"]

    for e in sorted(edits, key=lambda e: off(e["range"]["start"]), reverse=True):
        text = text[: off(e["range"]["start"])] + e["newText"] + text[off(e["range"]["end"]):]
    return text


def spots(found: list[dict]) -> list[tuple[str, int, int, int]]:
    return sorted((Path(f["uri"]).name, f["range"]["start"]["line"], f["range"]["start"]["character"],
                   f["range"]["end"]["character"]) for f in found)


def test_references_follow_each_kind_of_name(pack: Path, client: Client):
    lines = (pack / QUEST).read_text(encoding="utf-8").split("\n")
    uri = client.open(pack / QUEST)
    assert client.diagnostics(uri) == []

    def find(needle: str, word: str) -> tuple[int, int]:
        i = next(i for i, s in enumerate(lines) if needle in s)
        return i, lines[i].index(word, lines[i].index(needle)) + 1

    def refs(needle, word, decl=True):
        line, char = find(needle, word)
        return spots(client.request("textDocument/references", {**at(uri, line, char), "context": {"includeDeclaration": decl}}))

    # a token: `as grain_west`, `on picked_up grain_west`, `remove token grain_west` (hand-read lines 29 and 34)
    assert refs("on picked_up grain_west", "grain_west") == [
        (QUEST, 28, 38, 48), (QUEST, 33, 15, 25), (QUEST, 33, 41, 51)]
    assert refs("as grain_west", "grain_west", decl=False) == [(QUEST, 33, 15, 25), (QUEST, 33, 41, 51)]
    # a variable: declared once, advanced twice, tested once
    assert [s[1] for s in refs("var sacks_saved", "sacks_saved")] == [27, 33, 34, 35]
    # a placed tile named by its code: `tile 12A`, `12A(4,0)` and the two expectations (lines 40, 42);
    # the catalog entry is the tile's
    found = refs("grain_west at 12A", "12A")
    assert found == [(QUEST, 6, 9, 12), (QUEST, 28, 52, 55), (QUEST, 39, 33, 36), (QUEST, 41, 18, 21)]
    found = refs("tile 12A", "12A")
    assert ("tiles.yaml", 242, 2, 5) in found and (QUEST, 28, 52, 55) in found
    # a monster: its catalog entry in the required pack and every spawn in the pack
    found = refs("spawn zombie", "zombie")
    assert [f[0] for f in found] == ["a_fat_goblin.quest", QUEST, QUEST, "monsters.yaml"]  # first_blood spawns zombies twice: the guard and the every-round `risen`
    assert client.close() == 0


def test_local_names_are_scoped_to_their_encounter(pack: Path, client: Client):
    two = pack / "two.quest"
    body = ('quest {q} "{q}" {{\n  map {{ tile entrance1A at (0, 0); tile 11A attach west to entrance1A.north; edge 11A.east }}\n'
            '  start heroes on entrance1A\n  var count = 0\n  on round_end 1 {{ advance count by 3 }}\n'
            '  on variable count >= 3 {{ win "W" }}\n  on round_end 9 {{ lose "L" }}\n}}\n')
    two.write_text(body.format(q="one") + body.format(q="two"), encoding="utf-8")
    uri = client.open(two)
    assert client.diagnostics(uri) == []
    found = spots(client.request("textDocument/references", {**at(uri, 3, 7), "context": {"includeDeclaration": True}}))
    assert found == [("two.quest", 3, 6, 11), ("two.quest", 4, 27, 32), ("two.quest", 5, 14, 19)]  # not quest two's
    # rename in quest one leaves quest two alone
    edit = client.request("textDocument/rename", {**at(uri, 4, 28), "newName": "tally"})
    new = apply(two.read_text(encoding="utf-8"), edit["changes"][uri])
    assert new.count("tally") == 3 and new.count("count") == 3
    assert client.close() == 0


def test_rename_across_the_pack_and_its_refusals(pack: Path, client: Client):
    text = (pack / QUEST).read_text(encoding="utf-8")
    lines = text.split("\n")
    uri = client.open(pack / QUEST)
    assert client.diagnostics(uri) == []
    line = lines.index("  var sacks_saved = 0") if "  var sacks_saved = 0" in lines else next(
        i for i, s in enumerate(lines) if "var sacks_saved" in s)
    char = lines[line].index("sacks_saved") + 2
    assert client.request("textDocument/prepareRename", at(uri, line, char)) == {
        "start": pos(line, lines[line].index("sacks_saved")), "end": pos(line, lines[line].index("sacks_saved") + 11)}
    edit = client.request("textDocument/rename", {**at(uri, line, char), "newName": "sacks"})
    assert list(edit["changes"]) == [uri] and len(edit["changes"][uri]) == 4
    renamed = apply(text, edit["changes"][uri])
    assert "sacks_saved" not in renamed and renamed.count("sacks ") + renamed.count("sacks\n") >= 3
    mark = change(client, uri, 2, renamed)
    assert client.diagnostics(uri, after=mark) == []  # the pack still compiles clean

    # a placed tile named by its (foreign) code gets a name: `tile 12A as twelve`, `twelve(4,0)`
    use = next(i for i, s in enumerate(lines) if "grain_west at 12A" in s)
    edit = client.request("textDocument/rename", {**at(uri, use, lines[use].index("12A(") + 1), "newName": "twelve"})
    after = apply(renamed, edit["changes"][uri])
    assert "tile 12A as twelve at (0, 3)" in after and "at twelve(4,0)" in after
    mark = change(client, uri, 3, after)
    assert client.diagnostics(uri, after=mark) == []

    # refusals: a monster of the required pack, a clash, not a name, nothing there
    zombie = next(i for i, s in enumerate(lines) if "spawn zombie" in s)
    for params, words in (
        ({**at(uri, zombie, lines[zombie].index("zombie") + 1), "newName": "ghoul"}, "pack `d2e-base`"),
        ({**at(uri, use, lines[use].index("grain_west") + 1), "newName": "grain_north"}, "already exists"),
        ({**at(uri, use, lines[use].index("grain_west") + 1), "newName": "two words"}, "not a name"),
        ({**at(uri, 0, 0), "newName": "x"}, "nothing to rename"),
    ):
        with pytest.raises(LspError, match="-32803") as err:
            client.request("textDocument/rename", params)
        assert words in str(err.value)
    assert client.close() == 0


def test_a_rename_reaches_every_file_of_the_pack(tmp_path: Path, client: Client):
    """A card renamed on a deck line is renamed where it is declared and used, in other files."""
    dest = tmp_path / "ni"
    shutil.copytree(REPO / "content" / "natures-ire", dest)
    decks = (dest / "decks.quest").read_text(encoding="utf-8").split("\n")
    uri = client.open(dest / "decks.quest")
    assert [d for d in client.diagnostics(uri) if d["severity"] == 1] == []  # (a note about the deck's tables)
    line = next(i for i, s in enumerate(decks) if "start beyond_the_fringes" in s)
    edit = client.request("textDocument/rename", {**at(uri, line, decks[line].index("beyond") + 1), "newName": "fringes"})
    files = {Path(u).name: e for u, e in edit["changes"].items()}
    # the card's declaration, the deck's start and the track's hourglass; not the encounter of the same name
    assert {n: len(e) for n, e in files.items()} == {"adventure.quest": 1, "decks.quest": 1, "exploration.quest": 1}
    for name, edits in files.items():
        path = dest / name
        path.write_text(apply(path.read_text(encoding="utf-8"), edits), encoding="utf-8")
    assert "exploration_card fringes {\n  encounter beyond_the_fringes\n" in (dest / "exploration.quest").read_text(encoding="utf-8")
    change(client, uri, 2, (dest / "decks.quest").read_text(encoding="utf-8"))  # the editor applied its edit too
    mark = len(client.notifications)
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert [d["code"] for d in client.diagnostics(uri, after=mark)] == ["C0401"]  # no error: the card's uses all follow
    assert client.close() == 0


def test_the_map_preview_is_drawn_and_redrawn_on_save(pack: Path, client: Client, tmp_path: Path):
    from PIL import Image

    quest = pack / QUEST
    text = quest.read_text(encoding="utf-8")
    uri = client.open(quest)
    assert client.diagnostics(uri) == []
    folder = tmp_path / "previews"
    got = client.request("workspace/executeCommand", {"command": "questc.previewMap",
                                                      "arguments": [uri, pos(10, 4), str(folder)]})
    png = folder / "d2e-quests" / "first_blood.png"
    assert got == {"uri": png.as_uri(), "map": "first_blood", "quest": "first_blood", "encounter": 1}
    before = png.read_bytes()
    assert Image.open(png).format == "PNG"
    # the second encounter of a two-encounter quest
    fat = (pack / "a_fat_goblin.quest")
    fat_uri = client.open(fat)
    line = fat.read_text(encoding="utf-8").split("\n").index("    spawn ettin at 9B(2,1)")
    got = client.request("workspace/executeCommand", {"command": "questc.previewMap",
                                                      "arguments": [fat_uri, pos(line, 4), str(folder)]})
    assert got["map"] == "a_fat_goblin-2" and got["encounter"] == 2
    # a save that changes the map: both previews of the pack are drawn again, the changed one differs
    edited = text.replace("  spawn zombie at 8A(1,1)\n", "")
    assert edited != text
    quest.write_text(edited, encoding="utf-8")
    mark = change(client, uri, 2, edited)
    client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
    deadline = 0
    updates = []
    while len(updates) < 2 and deadline < 200:
        client.request("textDocument/hover", at(uri, 0, 0))  # lets notifications arrive
        updates = [n["params"] for n in client.notifications[mark:] if n.get("method") == "questc/previewUpdated"]
        deadline += 1
    assert sorted(u["map"] for u in updates) == ["a_fat_goblin-2", "first_blood"]
    assert png.read_bytes() != before
    # no map there, and bad arguments
    with pytest.raises(LspError, match="-32803"):
        client.request("workspace/executeCommand", {"command": "questc.previewMap", "arguments": [uri, pos(0, 0)]})
    with pytest.raises(LspError, match="-32602"):
        client.request("workspace/executeCommand", {"command": "questc.previewMap", "arguments": [42]})
    assert client.close() == 0


def test_renaming_a_tile_and_a_monster_of_the_packs_own_catalog(tmp_path: Path):
    """In-process (compiler/commands/editor/engine.py): the YAML key, every `tile CODE` and every
    placement named by the code follow; a monster's key and its spawns follow."""
    from compiler.commands.editor.engine import Engine
    from conftest import write_pack

    root = write_pack(tmp_path, "own", requires=["d2e-base"], files={
        "lib.yaml": ("tiles:\n  room1:\n    kind: dungeon\n    piece: \"r1\"\n    grid: |\n      ....\n      ....\n"
                     "    openings: {south: [1]}\n"
                     "monsters:\n  imp:\n    name: Imp\n    size: \"1x1\"\n    attack: melee\n"
                     "    act1: {minion: {speed: 4, health: 2, attack: [blue], defense: [grey]}}\n"),
        "q.quest": ('quest q "Q" {\n  map { tile room1 at (0, 0) }\n  start heroes at room1(0,0)\n'
                    '  spawn imp at room1(3,1)\n  on defeated imp { win "W" }\n}\n'),
    })
    engine = Engine()
    quest = (root / "q.quest").resolve()
    edits = engine.rename(quest, 1, 14, "hall1")  # on `room1` of `tile room1`
    got = {p.name: sorted((pl.line, pl.char, pl.end_char, t) for pl, t in e) for p, e in edits.items()}
    assert got == {"lib.yaml": [(1, 2, 7, "hall1")],
                   "q.quest": [(1, 13, 18, "hall1"), (2, 18, 23, "hall1"), (3, 15, 20, "hall1")]}
    edits = engine.rename(quest, 4, 15, "fiend")  # on `imp` of `on defeated imp`
    got = {p.name: sorted((pl.line, pl.char, t) for pl, t in e) for p, e in edits.items()}
    assert got == {"lib.yaml": [(9, 2, "fiend")], "q.quest": [(3, 8, "fiend"), (4, 14, "fiend")]}
    refs = engine.references(quest, 3, 9)
    assert [(p.path.name, p.line) for p in refs] == [("lib.yaml", 9), ("q.quest", 3), ("q.quest", 4)]


def test_hover_on_a_square_names_both_coordinates_and_what_stands_there(pack: Path, client: Client):
    quest = pack / QUEST
    text = quest.read_text(encoding="utf-8")
    # the expectation written with the world coordinate of the same square (12A at (0, 3), turned 180:
    # its (4, 0) is (0 + 4 - 4, 3 + 4 - 0) = (0, 7))
    text = text.replace("expect cost entrance1A(1,0) to 12A(4,0) == 9", "expect cost entrance1A(1,0) to (0, 7) == 9")
    quest.write_text(text, encoding="utf-8")
    lines = text.split("\n")
    uri = client.open(quest)
    assert client.diagnostics(uri) == []
    line = next(i for i, s in enumerate(lines) if "grain_west at 12A(4,0)" in s)
    value = client.request("textDocument/hover", at(uri, line, lines[line].index("12A(4,0)") + 1))["contents"]["value"]
    assert value.startswith("**12A(4, 0) = (0, 7)**") and "token objective `grain_west`" in value
    assert "**tile 12A**" in value  # and the tile itself, drawn
    line = next(i for i, s in enumerate(lines) if "to (0, 7) == 9" in s)
    value = client.request("textDocument/hover", at(uri, line, lines[line].index("(0, 7)") + 2))["contents"]["value"]
    assert value.startswith("**12A(4, 0) = (0, 7)**") and "grain_west" in value and "tile 12A" not in value
    line = next(i for i, s in enumerate(lines) if "spawn goblin_archer at 16A(1,1)" in s)
    value = client.request("textDocument/hover", at(uri, line, lines[line].index("16A(1,1)") + 1))["contents"]["value"]
    assert value.startswith("**16A(1, 1) = (6, 5)**") and "spawn goblin_archer" in value  # 16A at (5, 4)
    line = next(i for i, s in enumerate(lines) if "tile 12A at (0, 3)" in s)  # the tile's corner, not a square
    value = client.request("textDocument/hover", at(uri, line, lines[line].index("(0, 3)") + 2))["contents"]["value"]
    assert value == "(0, 3): no square of this map"


def test_completion_offers_a_tiles_openings(pack: Path, client: Client):
    quest = pack / QUEST
    text = quest.read_text(encoding="utf-8")
    uri = client.open(quest)
    client.diagnostics(uri)
    for typed, tile in (("    tile 26A attach east to 12A.", "12A"), ("    tile 26A attach ", "26A")):
        edited = text.replace("    tile 26A at (9, 4) rotate 270", typed)
        change(client, uri, 2, edited)
        line = next(i for i, s in enumerate(edited.split("\n")) if s.startswith(typed))
        items = client.request("textDocument/completion", at(uri, line, len(typed)))["items"]
        assert all(i["detail"].startswith(tile + ".") for i in items), items
        wanted = {"12A": {"south", "west"}, "26A": {"north", "south"}}[tile]  # the catalog's openings
        assert {i["label"] for i in items} == wanted


def test_hover_in_a_catalog_encounter_names_spawn_points(tmp_path: Path, client: Client):
    dest = tmp_path / "natures-ire"
    shutil.copytree(REPO / "content" / "natures-ire", dest)
    quest = dest / "encounters.quest"
    lines = quest.read_text(encoding="utf-8").split("\n")
    uri = client.open(quest)
    client.diagnostics(uri)

    def hover(needle: str) -> str:
        line = next(i for i, s in enumerate(lines) if needle in s)
        return client.request("textDocument/hover", at(uri, line, lines[line].index(needle) + 1))["contents"]["value"]

    assert hover("21A(2,2)").startswith("**21A(2, 2) = (2, 2)**") and "token villager `desmond`" in hover("21A(2,2)")
    assert "a hero start" in hover("21A(0,1)")
    assert "spawn goblin_archer: a master" in hover("19A(1,3)")
    assert "spawn goblin_archer: a minion with 3 to 4 heroes" in hover("19A(2,4)")


# ---------------------------------------------------------------- issue 38: unsaved text, publishing, framing
def test_an_unsaved_text_is_held_to_a_files_limits(pack: Path, client: Client):
    """A didChange over the file size limit is refused as the file would be (P0107), never
    parsed (hover and formatting answer nothing); NUL is P0106; the server keeps serving."""
    quest = pack / QUEST
    text = quest.read_text(encoding="utf-8")
    uri = client.open(quest)
    assert client.diagnostics(uri) == []
    big = text + "# a comment line\n" * (5 * 1024 * 1024 // 17)  # 5 MB: over the 4 MB a file may have
    mark = change(client, uri, 2, big)
    assert [d["code"] for d in client.diagnostics(uri, after=mark)] == ["P0107"]
    assert client.request("textDocument/hover", at(uri, 6, 10)) is None
    assert client.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}) == []
    mark = change(client, uri, 3, text.replace("quest", "qu\x00est", 1))
    assert [d["code"] for d in client.diagnostics(uri, after=mark)] == ["P0106"]
    mark = change(client, uri, 4, text)
    assert client.diagnostics(uri, after=mark) == []
    assert client.request("textDocument/hover", at(uri, 6, 10)) is not None
    assert client.close() == 0


def test_an_overlaid_text_is_read_as_a_file_of_its_bytes_would_be(tmp_path: Path):
    from compiler.diagnostics import Sink
    from compiler.sources import drop_overlay, read_source, set_overlay

    path = tmp_path / "a.quest"
    for text, code in (("x" * 101, "P0107"), ("é" * 51, "P0107"), ("a\x00b", "P0106"), ("ok\n\ud800", "P0106"), ("é" * 50, None)):
        set_overlay(path, text)
        sink = Sink()
        try:
            src = read_source(tmp_path, path, sink, max_bytes=100)
        finally:
            drop_overlay(path)
        assert [d.code for d in sink.items] == ([code] if code else []), text[:5]
        assert (src is None) == (code is not None)


def test_opening_many_documents_publishes_each_documents_diagnostics_once(tmp_path: Path, client: Client):
    """Each check published every file of the pack: opening N documents sent N(N+1)/2
    messages (200 documents: 20,100). Now a file is published when its document was
    touched or its diagnostics changed."""
    from collections import Counter

    from conftest import write_pack

    n = 30
    body = ('quest {q} "{q}" {{\n  map {{ tile entrance1A at (0, 0); tile 11A attach west to entrance1A.north; edge 11A.east }}\n'
            '  start heroes on entrance1A\n  on round_end 9 {{ lose "L" }}\n  on round_end 1 {{ win "W" }}\n}}\n')
    root = write_pack(tmp_path, "many", requires=["d2e-base"], files={f"q{i:02}.quest": body.format(q=f"q{i:02}") for i in range(n)})
    uris = [client.open(root / f"q{i:02}.quest") for i in range(n)]
    for uri in uris:
        assert client.diagnostics(uri) == []
    client.request("textDocument/hover", at(uris[0], 0, 0))  # whatever was sent before its answer has arrived
    sent = Counter(m["params"]["uri"] for m in client.notifications if m.get("method") == "textDocument/publishDiagnostics")
    assert sent == Counter(uris)  # once each (before: the first document 30 times, 465 in all)
    # an edit that breaks another file: that file is published, the untouched others are not
    mark = change(client, uris[1], 2, (root / "q01.quest").read_text(encoding="utf-8").replace("quest q01", "quest q02"))
    assert [d["code"] for d in client.diagnostics(uris[2], after=mark)] == ["R0101"]  # the second declaration
    assert client.diagnostics(uris[1], after=mark) == []
    client.request("textDocument/hover", at(uris[0], 0, 0))
    again = [m["params"]["uri"] for m in client.notifications[mark:] if m.get("method") == "textDocument/publishDiagnostics"]
    assert sorted(again) == sorted([uris[1], uris[2]])  # the edited one, and the other half of the clash
    assert client.close() == 0


def raw(client: Client, data: bytes) -> None:
    client.proc.stdin.write(data)
    client.proc.stdin.flush()


def framed(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def answer(client: Client, wanted_id, timeout: float = 20.0) -> dict:
    import time

    deadline = time.monotonic() + timeout
    while True:
        msg = client._next(deadline)
        if msg.get("id") == wanted_id and "method" not in msg:
            return msg
        client._other(msg)


def test_the_server_survives_any_framing(pack: Path, client: Client):
    """A huge or lying Content-Length, a header line without end, a body that is not UTF-8,
    not JSON or no JSON-RPC message: refused and logged, a request whose id can be read
    answered with an error, and the server keeps serving (it used to exit on the first, and
    never answer the UTF-8 one)."""
    uri = client.open(pack / QUEST)
    assert client.diagnostics(uri) == []
    hover = {"textDocument": {"uri": uri}, "position": pos(6, 10)}

    def still_serving() -> None:
        assert client.request("textDocument/hover", hover, timeout=20) is not None

    raw(client, b"Content-Length: 99999999999999999999\r\n\r\n")  # more bytes than exist: pygls raised and exited
    still_serving()
    raw(client, b"Content-Length: 70000000\r\n\r\n" + b"{\"jsonrpc\": \"2.0\", ")  # a lie, then real messages
    still_serving()
    raw(client, b"X" * 100_000 + b"\r\n")  # a header line of 100 kB
    still_serving()
    bad = json.dumps({"jsonrpc": "2.0", "id": 9001, "method": "textDocument/hover",
                      "params": {"textDocument": {"uri": uri + "@@"}, "position": pos(0, 0)}}).encode()
    raw(client, framed(bad.replace(b"@@", b"\xff\xfe")))  # invalid UTF-8 inside a string
    got = answer(client, 9001)
    assert got["error"]["code"] == -32700 and "UTF-8" in got["error"]["message"]
    raw(client, framed(b'{"jsonrpc": "2.0", "id": 9002, "method": "textDocument/hov'))  # cut short
    raw(client, framed(b"[1, 2, 3]") + framed(b'{"id": 9003, "method": "textDocument/hover"}') + framed(b"") + framed(b"[" * 100_000))
    got = answer(client, 9003)
    assert got["error"]["code"] == -32600  # JSON, but no JSON-RPC 2.0 message (no "jsonrpc")
    still_serving()
    assert client.close() == 0
    log = b"".join(client.stderr).decode(errors="replace")
    assert "Traceback" not in log and "not UTF-8" in log and "over the limit" in log


def test_the_framer_reads_messages_whatever_comes_between():
    import io

    from compiler.commands.editor.framing import MAX_LINE, Framer

    small = b'{"jsonrpc": "2.0", "method": "x"}'
    big = b'{"jsonrpc": "2.0", "method": "y", "params": "' + b"z" * 5000 + b'"}'
    stream = (framed(small) + b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + framed(small)
              + framed(big) + framed(small)  # over the limit, passed over in chunks: the next one still read
              + b"Content-Length: 1000000\r\n\r\n{" + framed(small)  # a lying length: the next header is found inside
              + b"j" * (3 * MAX_LINE + 17) + framed(small)  # a line without end, the header glued to its end
              + b"Content-Length: 0\r\n\r\n" + framed(small))  # an empty body (the server refuses it: not JSON)
    framer = Framer(io.BytesIO(stream), max_message=1000)
    got = []
    while True:
        kind, value = framer.next()
        if kind == "end":
            break
        got.append(value if kind == "message" else kind)
    assert got == [small, small, "rejected", small, "rejected", small, small, b"", small]
    assert framer.skipped >= 3 * MAX_LINE + 17  # the line without end, counted for the log


def test_the_default_preview_folder_is_private_and_unpredictable(pack: Path, tmp_path: Path, monkeypatch):
    """The previews went to `<temp>/questc-preview-<uid>`: another user who made that folder
    first, with a link `<pack>` inside, had the PNG written where the link pointed."""
    import os
    import stat
    import tempfile

    from compiler.commands.editor import engine

    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    monkeypatch.setattr(engine, "_PREVIEWS", None, raising=False)
    planted = shared / f"questc-preview-{os.getuid()}"
    planted.mkdir()
    victim = tmp_path / "victim"
    victim.mkdir()
    (planted / "d2e-quests").symlink_to(victim)
    got = engine.Engine().preview(pack / QUEST, 10, 4)
    assert got.png.is_file() and not any(victim.iterdir())
    folder = got.png.parent.parent
    assert folder != planted and folder.parent == shared and folder.name.startswith("questc-preview-")
    st = os.lstat(folder)
    assert stat.S_ISDIR(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o700 and st.st_uid == os.getuid()
    assert engine.preview_folder() == folder  # one folder for the server's life


@pytest.mark.parametrize("fd, said", [
    (0, "error: cannot read standard input: Bad file descriptor\n"),
    (1, "error[I0003]: cannot write standard output: Bad file descriptor\n"),
])
def test_a_closed_stdin_or_stdout_is_one_line_and_exit_1(fd: int, said: str, tmp_path: Path):
    # `questc lsp 0<&-` / `questc lsp >&-`: Python starts with sys.__stdin__ / sys.__stdout__
    # None; the server has no way in or out (it was an internal error, I0001, exit 3)
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(REPO), "QUESTC_CRASH_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-m", "compiler", "lsp"], cwd=REPO, env=env, stderr=subprocess.PIPE, text=True,
                       timeout=60, preexec_fn=lambda: os.close(fd))
    assert (r.returncode, r.stderr) == (1, said)
    assert not list(tmp_path.iterdir())  # no crash report


def test_completion_sorts_tiles_naturally_offers_what_may_follow_and_triggers_on_a_dot(tmp_path: Path):
    # issue 35, item 8: `10A` came before `1A`; 272 keywords at a statement start; no `.` trigger
    c = Client("--debounce", "0.02")
    try:
        result = c.initialize(tmp_path)
        assert "." in result["capabilities"]["completionProvider"]["triggerCharacters"]
        dest = tmp_path / "d2e-quests"
        shutil.copytree(REPO / "content" / "d2e-quests", dest)
        quest = dest / QUEST
        text = quest.read_text(encoding="utf-8")
        uri = quest.as_uri()
        c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "quest", "version": 1, "text": text}})
        lines = text.split("\n")
        start = lines.index("  start heroes on entrance1A")
        items = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": start, "character": 2}})["items"]
        labels = {i["label"] for i in items}
        assert {"spawn", "token", "on", "var", "start", "map"} <= labels and len(labels) < 40
        assert not labels & {"quest", "incident_card", "dungeon_level", "12A", "zombie"}
        tile_line = next(i for i, line in enumerate(lines) if line.startswith("    tile 12A"))
        items = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": tile_line, "character": len("    tile ")}})["items"]
        ordered = [i["label"] for i in sorted(items, key=lambda i: i.get("sortText") or i["label"])]
        assert ordered.index("1A") < ordered.index("2A") < ordered.index("10A")
    finally:
        c.close()
