"""The real quests: converted maps regenerate, assemble with the expected squares, and answer paths."""

from __future__ import annotations

import json
from dataclasses import replace
import re
from pathlib import Path

import pytest

from compiler.diagnostics import Sink
from compiler.geometry.assemble import PlacedTile
from compiler.passes.maps import assemble_map
from compiler.catalogs.terrain import TerrainRule
from compiler.geometry.graph import all_pairs, cheapest_move
from questc_valkyrie import tiles as valkyrie
from compiler.syntax import ast
from compiler.syntax.parse import parse_module

pytestmark = pytest.mark.plugins  # the first-party plugins (plugins/): `pytest -m 'not plugins'` runs without them

ROOT = Path(__file__).resolve().parents[1]
from conftest import SHARED  # noqa: E402 - one place decides where the reference data is
VALKYRIE = SHARED / "data" / "valkyrie-quests"
PACK = ROOT / "content" / "d2e-quests"
TERRAIN = {
    "plain": TerrainRule("plain", "."),
    "water": TerrainRule("water", "~", enter_cost=2),
    "obstacle": TerrainRule("obstacle", "#", blocks_movement=True, blocks_sight=True),
    "pit": TerrainRule("pit", "o", sight="adjacent_only"),
    "lava": TerrainRule("lava", "^"),
}
QUESTS = {"first_blood": ("01_FirstBlood", "first_blood.quest"), "a_fat_goblin": ("02_AFatGoblin", "a_fat_goblin.quest")}


@pytest.fixture(scope="module")
def tiles():
    sink = Sink()
    lib = valkyrie.load_library(None, sink)
    assert sink.items == []
    return lib


def quest(name: str) -> ast.Quest:
    sink = Sink()
    module = parse_module((PACK / QUESTS[name][1]).read_text(encoding="utf-8"), QUESTS[name][1], sink)
    assert sink.errors == 0, sink.items
    (q,) = [d for d in module.declarations if isinstance(d, ast.Quest)]
    return q


def maps(name: str, tiles):
    out = []
    for enc in quest(name).encounters:
        sink = Sink()
        amap = assemble_map(enc.body.map, tiles, TERRAIN, sink)
        assert sink.items == [], sink.items
        out.append(amap)
    return out


@pytest.mark.parametrize("name, sizes", [("first_blood", [87]), ("a_fat_goblin", [98, 86])])
def test_real_maps_assemble_with_expected_squares(name, sizes, tiles):
    amaps = maps(name, tiles)
    assert [len(m.board.spaces) for m in amaps] == sizes
    for m in amaps:
        # every opening of every placed tile is joined (the printed maps leave none open)
        joined = {(j.a, j.a_opening) for j in m.joins} | {(j.b, j.b_opening) for j in m.joins}
        assert all((t.name, op) in joined for t in m.tiles for op in t.tile.all_openings())
        assert len(m.joins) == len(m.tiles) - 1  # a tree of tiles, as printed
        d = all_pairs(replace(m.board, doors=()))  # the tiles' joins alone (a locked door cuts play, not the map)
        assert not (d == float("inf")).any()  # one connected map


@pytest.mark.skipif(not VALKYRIE.exists(), reason="the shared reference data is not present")
@pytest.mark.parametrize("name", sorted(QUESTS))
def test_committed_map_blocks_regenerate(name, tiles):
    folder, file = QUESTS[name]
    sink = Sink()
    blocks = valkyrie.map_blocks(VALKYRIE / folder / "tiles.ini", tiles, sink)
    text = (PACK / file).read_text(encoding="utf-8")
    committed = re.findall(r"^( *map \{\n.*?^ *\})", text, flags=re.S | re.M)
    # the designer's own lines in a map block (doors, their comments) are not converted
    own = re.compile(r"^ *(?:door |#).*\n", re.M)
    assert [own.sub("", block) for block in committed] == blocks
    expected_skips = ["TileS2BSecretRoom"] if name == "a_fat_goblin" else []
    assert [d.message.split(":")[0] for d in sink.items] == expected_skips


@pytest.mark.skipif(not VALKYRIE.exists(), reason="the shared reference data is not present")
@pytest.mark.parametrize("name", sorted(QUESTS))
def test_placement_matches_the_valkyrie_formula(name, tiles):
    placements = valkyrie.read_placements(VALKYRIE / QUESTS[name][0] / "tiles.ini", tiles, Sink())
    for pl in placements:
        assert set(PlacedTile(pl.name, tiles[pl.code], pl.at, pl.rotate).local_of) == pl.squares, pl.section
    assert sum(len(p.squares) for p in placements) == (87 if name == "first_blood" else 184)


def test_first_blood_route_by_hand(tiles):
    (m,) = maps("first_blood", tiles)
    # from the entrance to the exit: the route crosses 12A's water once
    r = cheapest_move(m.board, (10, 10), (1, 2))
    assert (r.cost, r.steps) == (12, 10)
    assert r.route[0] == (10, 10) and r.route[-1] == (1, 2)
    assert sum(m.board.rule(c).enter_cost for c in r.route[1:]) == r.cost


def test_path_command_answers(capsys):
    from compiler import cli

    code = cli.main(["path", str(PACK), "--quest", "a_fat_goblin", "--encounter", "2", "--from", "12,0", "--to", "0,9", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["cost"] == 19 and out["steps"] == 19 and out["route"][0] == [12, 0] and len(out["route"]) == 20
    code = cli.main(["path", str(PACK), "--quest", "first_blood", "--from", "10,10", "--to", "99,99"])
    assert code == 2 and "X0103" in capsys.readouterr().err
    code = cli.main(["path", str(PACK), "--quest", "frist_blood", "--from", "10,10", "--to", "1,2"])
    assert code == 2 and "did you mean `first_blood`" in capsys.readouterr().err


def test_real_pack_compiles_cleanly():
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([str(PACK)], Options(images=False, sight=False))
    assert result.sink.errors == 0 and result.sink.warnings == 0, result.sink.items
    maps_ = result.model.maps.quests
    assert sorted(maps_) == ["a_fat_goblin", "first_blood"]
    assert [len(m.board.spaces) for m in maps_["a_fat_goblin"].values()] == [98, 86]
