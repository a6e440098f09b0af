"""The TAG tile importer: the committed d2e-base catalog is exactly what the importer makes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from compiler.catalogs.document import Document, Entry
from compiler.diagnostics import Sink
from compiler.passes.tiles import read_tiles
from questc_tag import tag_tiles

pytestmark = pytest.mark.plugins  # the first-party plugins (plugins/): `pytest -m 'not plugins'` runs without them

ROOT = Path(__file__).resolve().parents[1]
from conftest import SHARED  # noqa: E402 - one place decides where the reference data is
TAG = SHARED / "data" / "tag-descent2e" / "tiles.json"
VALKYRIE_SIDES = SHARED / "data" / "valkyrie-app" / "d2e-base-tiles.ini"
CATALOG = ROOT / "content" / "d2e-base" / "tiles.yaml"


def load_catalog() -> dict:
    from ruamel.yaml import YAML

    return YAML(typ="safe").load(CATALOG.read_text(encoding="utf-8"))["tiles"]


def committed_tiles():
    data = load_catalog()
    doc = Document(str(CATALOG), {"tiles": data})
    sink = Sink()
    tiles = read_tiles({k: Entry("tiles", k, v, doc, ("tiles", k), "d2e-base") for k, v in data.items()}, set(".~#o^"), sink)
    return tiles, sink


@pytest.mark.skipif(not TAG.exists(), reason="the shared reference data is not present")
def test_regenerates_committed_catalog():
    sink = Sink()
    text = tag_tiles.import_file(TAG, sink, valkyrie=VALKYRIE_SIDES)
    assert sink.items == []
    assert text == CATALOG.read_text(encoding="utf-8")


@pytest.mark.skipif(not TAG.exists(), reason="the shared reference data is not present")
def test_every_source_square_and_doorway_is_kept():
    records = {r["id"]: r for r in json.loads(TAG.read_text(encoding="utf-8"))}
    tiles, _ = committed_tiles()
    for code, rec in records.items():
        inner = sum(v not in ("null", "open") for row in rec["grid"][1:-1] for v in row[1:-1])
        doors = sum(v == "open" for row in rec["grid"] for v in row) // 2
        if code in ("13A1", "13A2"):
            continue
        t = tiles[code]
        assert len(t.squares) == inner, code
        assert len(t.all_openings()) == doors, code
    # 13A = both parts, minus the doorway that joins them (one on each part)
    assert len(tiles["13A"].squares) == 4 + 22 == len(tiles["13B"].squares)
    assert len(tiles["13A"].all_openings()) == 2


def test_committed_catalog_reads_cleanly():
    tiles, sink = committed_tiles()
    assert sink.items == []
    assert len(tiles) == 70  # 66 source tiles, 13A1+13A2 joined, 5 mirrored B faces added
    assert tiles["9A"].piece == tiles["9B"].piece == "9"
    assert tiles["endcap1A"].copies == tiles["endcap1B"].copies == 8
    assert tiles["endcap1A"].kind == "end_cap" and tiles["entrance1A"].kind == "entrance"
    assert tiles["13A"].walls == {((1, 1), (2, 1)), ((4, 1), (5, 1))}
    # 13A is 13B flipped over: mirror images of each other
    mirrored = {(5 - c, r) for c, r in tiles["13A"].squares}
    assert mirrored == set(tiles["13B"].squares)
    # spot checks against the printed tiles
    assert tiles["21A"].grid[0] == ".~.~~." and tiles["7A"].squares[(2, 0)] == "#"
    assert [o.offset for o in tiles["1A"].openings["east"]] == [2]


def test_conversion_is_deterministic_and_handles_parts():
    rec = lambda i, g: {"id": i, "grid": g}
    strip = [["null", "null", "open", "open", "null", "null"],
             ["null", "plain", "plain", "plain", "plain", "null"],
             ["null", "null", "open", "open", "null", "null"]]
    body = [["null", "null", "null", "open", "open", "null", "null", "null"]] + \
           [["null"] + ["plain"] * 6 + ["null"] for _ in range(2)] + \
           [["null"] * 8]
    records = [rec("13A1", strip), rec("13A2", body), rec("9A", strip)]
    a = tag_tiles.render(tag_tiles.convert(records))
    b = tag_tiles.render(tag_tiles.convert(list(reversed(records))))
    assert a == b
    cat = tag_tiles.convert(records)
    assert cat["13A"]["grid"] == "-....-\n......\n......\n"
    assert cat["13A"]["openings"] == {"north": [2]}


@pytest.mark.parametrize("payload, problem", [
    ("{not json", "invalid JSON"),
    ('{"id": "x"}', "expected a JSON list"),
    ('[{"id": "9A", "grid": [["null"]]}]', "no grid"),
    ('[{"id": "9A", "grid": [["null","null","null"],["null","gold","null"],["null","null","null"]]}]', "unknown terrain"),
    ('[{"id": "77Q", "grid": [["null","null","null"],["null","plain","null"],["null","null","null"]]}]', "neither a numbered"),
])
def test_bad_input_is_a_diagnostic(tmp_path, payload, problem):
    f = tmp_path / "tiles.json"
    f.write_text(payload, encoding="utf-8")
    sink = Sink()
    assert tag_tiles.import_file(f, sink) is None
    assert [d.code for d in sink.items] == ["M0402"] and problem in sink.items[0].message


def test_missing_file(tmp_path):
    sink = Sink()
    assert tag_tiles.import_file(tmp_path / "nope.json", sink) is None
    assert [d.code for d in sink.items] == ["M0402"]


@pytest.mark.skipif(not TAG.exists(), reason="the shared reference data is not present")
@pytest.mark.parametrize("source, data, committed", [
    ("tag-dice", "dice.json", "content/core-2e/dice.yaml"),
    ("tag-monsters", "monsters.json", "content/d2e-base/monsters.yaml"),
])
def test_import_command_regenerates_dice_and_monsters(tmp_path, source, data, committed):
    from compiler.cli import main

    out = tmp_path / "out.yaml"
    assert main(["--plugin", "tag", "import", source, str(TAG.parent / data), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == (ROOT / committed).read_text(encoding="utf-8")


def test_import_command_reports_unreadable_json(tmp_path, capsys):
    from compiler.cli import main

    bad = tmp_path / "dice.json"
    bad.write_text("[{", encoding="utf-8")
    assert main(["--plugin", "tag", "import", "tag-dice", str(bad)]) == 1
    assert "error[M0402]: cannot import" in capsys.readouterr().err
