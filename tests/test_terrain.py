"""The terrain catalog: schema, reader checks, and the shipped core-1e / core-2e terrain."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.catalogs.document import Entry
from compiler.catalogs.schema import validate_node
from compiler.catalogs.terrain import FIXED_SYMBOLS, read_terrain, symbol_table
from compiler.catalogs.yamlload import load_yaml
from compiler.diagnostics import Sink
from compiler.diagnostics.catalogue import CATALOGUE

ROOT = Path(__file__).resolve().parents[1]


def entries_from(text: str, file: str = "terrain.yaml", pack: str = "test") -> tuple[dict[str, Entry], Sink]:
    """Load `text` like the pipeline does: YAML with spans, schema check, one Entry per id."""
    sink = Sink()
    doc = load_yaml(text, file, sink)
    assert doc is not None, [d.message for d in sink.items]
    if not validate_node("catalogs/terrain.schema.json", doc, ("terrain",), sink):
        return {}, sink
    return {i: Entry("terrain", i, doc.get(("terrain", i)), doc, ("terrain", i), pack) for i in doc.data["terrain"]}, sink


def merged(*texts: str) -> tuple[dict[str, Entry], Sink]:
    out: dict[str, Entry] = {}
    sink = Sink()
    for n, text in enumerate(texts):
        entries, s = entries_from(text, file=f"file{n}.yaml", pack=f"p{n}")
        sink.extend(s.items)
        out.update(entries)
    return out, sink


def codes(sink: Sink) -> list[str]:
    return [d.code for d in sink.sorted()]


def shipped(pack: str) -> dict:
    text = (ROOT / "content" / pack / "terrain.yaml").read_text(encoding="utf-8")
    entries, sink = entries_from(text, file=f"content/{pack}/terrain.yaml", pack=pack)
    assert sink.items == [], [(d.code, d.message) for d in sink.items]
    rules = read_terrain(entries, sink)
    assert sink.items == [], [(d.code, d.message) for d in sink.items]
    return rules


# --- the shipped 2nd-edition terrain (hand-checked against the rulebook's Terrain section)


def test_core2e_water_costs_two():
    water = shipped("core-2e")["water"]
    assert (water.symbol, water.enter_cost, water.leave_cost) == ("~", 2, 0)
    assert not water.blocks_movement and not water.blocks_sight


def test_core2e_obstacle_blocks_movement_and_sight():
    obstacle = shipped("core-2e")["obstacle"]
    assert obstacle.symbol == "#" and obstacle.blocks_movement and obstacle.blocks_sight


def test_core2e_pit_is_adjacent_only_and_left_by_action():
    pit = shipped("core-2e")["pit"]
    assert pit.symbol == "o"
    assert pit.sight == "adjacent_only" and not pit.blocks_sight and not pit.blocks_movement
    assert pit.on_enter_damage == 2 and pit.leave_action


def test_core2e_hazard_and_lava_defeat_at_end_of_turn():
    rules = shipped("core-2e")
    for tid in ("hazard", "lava"):
        assert rules[tid].on_enter_damage == 1 and rules[tid].defeat_end_of_turn
    assert rules["lava"].symbol == "^"


def test_core2e_defines_every_tag_tile_terrain_with_fixed_symbols():
    # TAG tiles use plain, water, block (= obstacle), pit, lava.
    table = symbol_table(shipped("core-2e"))
    for symbol, tid in FIXED_SYMBOLS.items():
        assert table[symbol] == tid


# --- the shipped 1st-edition terrain (hand-checked against "Collected Obstacles and Props")


def test_core1e_props_table():
    rules = shipped("core-1e")
    blocks = {tid: (r.blocks_movement, r.blocks_sight) for tid, r in rules.items()}
    # Yes/Yes in the table
    for tid in ("rubble", "boulder", "crushing_wall", "villager"):
        assert blocks[tid] == (True, True), tid
    assert blocks["water"] == (True, False)
    assert blocks["fog"] == (False, True) and rules["fog"].sight == "adjacent_only"
    assert blocks["tree"] == (False, True) and rules["tree"].enter_cost == 2
    for tid in ("altar_good", "table", "bed", "bone_heap", "dart_field", "fountain", "mud", "pit", "lava", "staircase"):
        assert blocks[tid] == (False, False), tid


def test_core1e_costs_and_effects():
    rules = shipped("core-1e")
    for tid in ("table", "bed", "throne", "sarcophagus", "bone_heap", "fountain", "mud", "tree"):
        assert rules[tid].enter_cost == 2, tid
    for tid in ("table", "bed", "throne", "sarcophagus"):
        assert rules[tid].elevated, tid
    pit = rules["pit"]
    assert pit.on_enter_damage == 1 and pit.enter_cost + pit.leave_cost == 2  # climbing out onto plain: 2 MP
    lava = rules["lava"]
    assert (lava.on_enter_damage, lava.on_enter_condition, lava.on_enter_tokens) == (2, "burn", 2)
    darts = rules["dart_field"]
    assert (darts.on_enter_die, darts.on_enter_avoid, darts.on_enter_damage, darts.on_enter_condition) == (
        "black_power",
        "surge",
        1,
        "daze",
    )
    assert rules["scything_blade"].on_enter_damage == 2 and rules["scything_blade"].on_enter_condition == "bleed"
    assert {t for t, r in rules.items() if r.jumpable} == {"pit", "lava", "mud"}


# --- reader checks: located diagnostics


def test_duplicate_symbol_across_files_names_both():
    entries, sink = merged(
        "terrain:\n  mud: {symbol: m, enter_cost: 2}\n",
        "terrain:\n  moss: {symbol: m}\n",
    )
    rules = read_terrain(entries, sink)
    [diag] = sink.sorted()
    assert diag.code == "Y0201"
    assert "moss" in diag.message and "mud" in diag.message
    assert diag.span.file == "file1.yaml" and diag.span.line == 2
    assert diag.related[0].span.file == "file0.yaml"
    assert set(rules) == {"mud"}


def test_reserved_no_square_symbol():
    entries, sink = entries_from("terrain:\n  chasm: {symbol: '-'}\n")
    assert read_terrain(entries, sink) == {}
    [diag] = sink.sorted()
    assert diag.code == "Y0202" and diag.span.line == 2


@pytest.mark.parametrize("symbol", ["mu", "''", "' '"])
def test_symbol_must_be_one_visible_char(symbol):
    entries, sink = entries_from(f"terrain:\n  mud: {{symbol: {symbol}}}\n")
    assert read_terrain(entries, sink) == {}
    assert codes(sink) == ["Y0203"]
    assert sink.sorted()[0].span.line == 2


def test_fixed_symbol_for_other_terrain_warns():
    entries, sink = entries_from("terrain:\n  rubble: {symbol: '#', blocks: [movement, sight]}\n")
    rules = read_terrain(entries, sink)
    assert codes(sink) == ["Y0204"] and "rubble" in rules


def test_leave_cost_with_leave_action_is_an_error():
    entries, sink = entries_from("terrain:\n  pit: {symbol: o, leave: action, leave_cost: 1}\n")
    read_terrain(entries, sink)
    assert codes(sink) == ["Y0205"]


def test_movement_blocker_with_costs_warns():
    entries, sink = entries_from("terrain:\n  rubble: {symbol: x, blocks: [movement], enter_cost: 2}\n")
    read_terrain(entries, sink)
    assert codes(sink) == ["Y0206"]


def test_on_enter_dependencies_and_unknown_die():
    text = (
        "terrain:\n"
        "  darts: {symbol: d, on_enter: {damage: 1, avoid: surge}}\n"
        "  blades: {symbol: s, on_enter: {damage: 2, roll: blak_power, avoid: surge}}\n"
    )
    entries, sink = entries_from(text)
    read_terrain(entries, sink, dice={"black_power": object()})
    diags = sink.sorted()
    assert [d.code for d in diags] == ["Y0207", "Y0208"]
    assert "did you mean `black_power`" in diags[1].message and diags[1].fix == "black_power"


def test_schema_rejects_unknown_keys_and_bad_values():
    _, sink = entries_from("terrain:\n  water: {symbol: '~', enter_cots: 2}\n")
    assert codes(sink) == ["Y0102"] and "enter_cost" in sink.sorted()[0].message
    _, sink = entries_from("terrain:\n  pit: {symbol: o, sight: adjacent}\n")
    assert codes(sink) == ["Y0101"]


def test_every_code_used_is_catalogued():
    import re

    source = (ROOT / "compiler" / "catalogs" / "terrain.py").read_text(encoding="utf-8")
    for code in set(re.findall(r'"(Y\d{4})"', source)):
        assert code in CATALOGUE, code


def test_reader_output_sorted_and_deterministic():
    entries, sink = entries_from("terrain:\n  water: {symbol: '~', enter_cost: 2}\n  fog: {symbol: f}\n  plain: {symbol: .}\n")
    first = read_terrain(entries, sink)
    assert list(first) == sorted(first)
    assert read_terrain(entries, Sink()) == first
