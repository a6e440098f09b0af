"""Doors inside a tile, exported and imported (issue 32): `door NAME on TILE(c,r).SIDE` goes
out at the position and rotation the app draws across the tile's own edges (doors.inner_place,
the same DoorPlace conversion as every other door) and comes back as the same statement.
Our own quest tests/data/valkyrie/inner_doors: a door across the middle of the corridor 27B and
one across the neck of 26B, a tile turned by its attach."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.diagnostics import Sink
from conftest import REPO, questc
from questc_valkyrie.doors import DoorPlace, from_valkyrie, inner_place
from test_valkyrie_doors import doors_and_openings, drawn_bar, lies_across
from valkyrie_helpers import exported, imported

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

PACK = REPO / "tests" / "data" / "valkyrie" / "inner_doors"
DOORS = ("door gate on 27B(0,1).south red", "door neck on 26B(1,0).south")


def squares_by_tile(folder: Path) -> dict[tuple[int, int], str]:
    """World square (questc's frame) -> the tile section it belongs to, from the files alone."""
    from questc_valkyrie.ini import read_ini
    from questc_valkyrie.offsets import load_offsets
    from questc_valkyrie.tiles import load_library, placements_of

    tiles = load_library(None, Sink())
    secs = [s for s in read_ini((folder / "tiles.ini").read_text(encoding="utf-8"), "tiles.ini", Sink()).sections]
    out = {}
    for pl in placements_of(secs, tiles, Sink(), load_offsets()):
        o = tiles[pl.code].orient(pl.rotate)
        for c in tiles[pl.code].squares:
            x, y = o.cell(c)
            out[(x + pl.at[0], y + pl.at[1])] = pl.section
    return out


def sides_of(edge) -> tuple[tuple[int, int], tuple[int, int]]:
    (p, q) = edge
    return (((p[0] - 1, p[1]), p) if p[0] == q[0] else ((p[0], p[1] - 1), p))


def test_the_export_draws_each_inner_door_across_its_tiles_own_edges(tmp_path):
    folder = exported(PACK, tmp_path / "out")
    doors, openings = doors_and_openings(folder)
    assert sorted(name for name, *_ in doors) == ["DoorGate", "DoorNeck"]
    owner = squares_by_tile(folder)
    for name, x, y, r in doors:
        place = from_valkyrie(x, y, r)
        assert place is not None
        # the bar the app draws (Quest.cs, Door.Draw) runs along exactly the door's two edges…
        assert lies_across(drawn_bar(x, y, r), place.edges), name
        # …and each edge has a square of one and the same tile on both sides: inside the tile
        tiles = {owner.get(s) for e in place.edges for s in sides_of(e)}
        assert tiles == {"Tile27B" if name == "DoorGate" else "Tile26B"}, (name, tiles)
        # across no opening (a door on a joint lies across two)
        assert not [o for o, edges, _f in openings if lies_across(drawn_bar(x, y, r), edges)], name
    by_name = {n: (x, y, r) for n, x, y, r in doors}
    assert by_name["DoorGate"][2] == 270  # 27B unturned: its south faces south
    assert by_name["DoorNeck"][2] == 0  # 26B turned three quarters clockwise (rotate 270): its south faces east


@pytest.mark.parametrize("neck", ["26B(1,0).south", "26B(2,0).south"])
def test_an_inner_door_comes_back_as_the_same_statement(tmp_path, neck):
    """Exported and imported, the quest has the same door statements; exported again, the same
    door sections. 26B(2,0).south is a neck one square wide (the edge beside it is the tile's
    outline): the app's bar still covers two edges, and the import gives the statement back."""
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    quest = pack / "inner_doors.quest"
    quest.write_text(quest.read_text(encoding="utf-8").replace("26B(1,0).south", neck), encoding="utf-8")
    once = exported(pack, tmp_path / "out")
    back = imported(once, tmp_path / "back")
    text = (back / "inner_doors.quest").read_text(encoding="utf-8")
    for line in (DOORS[0], f"door neck on {neck}"):
        assert f"    {line}  # [Door" in text, text
    assert questc("check", back).code == 0
    twice = exported(back, tmp_path / "out2")
    assert (twice / "other.ini").read_text(encoding="utf-8") == (once / "other.ini").read_text(encoding="utf-8")


def test_inner_place_is_the_door_between_the_statements_squares():
    # unturned: the south edges of (0,1) and (1,1) meet at the lattice point (1, 2)
    assert inner_place(lambda c: c, 0, 1, "south", "south") == DoorPlace((1, 2), "south")
    assert inner_place(lambda c: c, 0, 1, "east", "east") == DoorPlace((1, 2), "east")
    assert inner_place(lambda c: (c[0] + 5, c[1] + 3), 1, 0, "north", "north") == DoorPlace((7, 3), "north")
    assert DoorPlace((1, 2), "south").edges == frozenset({((0, 2), (1, 2)), ((1, 2), (2, 2))})


def test_the_apps_loader_reads_the_export_with_no_problem(tmp_path):
    from test_valkyrie_app_loader import load, missing

    why = missing()
    if why:
        pytest.skip(why)
    folder = exported(PACK, tmp_path / "out")
    again = exported(imported(folder, tmp_path / "back"), tmp_path / "out2")
    problems = load(folder, again)
    assert problems == {str(folder.resolve()): [], str(again.resolve()): []}


def test_every_inner_door_of_every_tile_and_turn_comes_back_exactly():
    """Every statement `door … on T(c,r).SIDE` the compiler accepts (the square beyond (c, r) is
    the tile's), on every 2nd-edition tile of d2e-base turned every quarter: the door the export
    draws (inner_place) is read back by the importer (Importer.inner_door) as the same statement."""
    from types import SimpleNamespace

    from compiler.geometry.assemble import PlacedTile
    from compiler.passes.maps import _inner_door_edges
    from compiler.syntax import ast
    from questc_valkyrie.doors import STEP
    from questc_valkyrie.importer import Importer
    from questc_valkyrie.tiles import Placement, load_library

    tiles = load_library(None, Sink())
    at = (7, 3)
    checked = 0
    for code, tile in sorted(tiles.items()):
        for rotate in (0, 90, 180, 270):
            o = tile.orient(rotate)
            to_world = lambda c, o=o: (o.cell(c)[0] + at[0], o.cell(c)[1] + at[1])  # noqa: E731
            pl = Placement(f"Tile{code}", code, code, at, rotate, frozenset(to_world(c) for c in tile.squares))
            reader = SimpleNamespace(owner={s: (1, pl) for s in pl.squares}, tiles=tiles)
            for (c, r) in sorted(tile.squares):
                for side, (dx, dy) in STEP.items():
                    if (c + dx, r + dy) not in tile.squares:
                        continue  # M0244: no edge inside the tile there
                    place = inner_place(to_world, c, r, side, o.side(side))
                    assert place is not None
                    # the edges questc closes for the statement are the app's bar's, or one of them (a narrow neck)
                    decl = ast.DoorDecl("d", ast.OpeningRef(code, side, -1), inside=ast.TileSpace(code, c, r))
                    closed = _inner_door_edges(decl, PlacedTile(code, tile, at, rotate), Sink())
                    assert closed and closed <= place.edges, (code, rotate, c, r, side)
                    assert Importer.inner_door(reader, place) == (1, f"{code}({c},{r}).{side}"), (code, rotate, c, r, side)
                    checked += 1
    assert checked > 2000, checked
