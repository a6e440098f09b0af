"""Doors in Valkyrie terms (plugins/valkyrie/questc_valkyrie/doors.py): the one conversion
of a door's position and rotation, its exact inverse, and every door the export writes or the
published quests place drawn the way the app draws it (Quest.cs, `Door.Draw`) lies across an
opening of the tiles it joins."""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from compiler.diagnostics import Sink
from conftest import REPO, SHARED
from questc_valkyrie.doors import ROTATION, DoorPlace, from_valkyrie, opening_at, opening_place, to_valkyrie
from questc_valkyrie.ini import read_ini
from questc_valkyrie.offsets import load_offsets
from questc_valkyrie.tiles import load_library, placements_of
from valkyrie_helpers import exported, exported_anyway, imported

pytestmark = [pytest.mark.plugins, pytest.mark.usefixtures("valkyrie_codes")]

DATA = REPO / "tests" / "data" / "valkyrie"  # copies of the two published quests (NOTICE.md there)
# the published quests: the reference data's when present, else the copies kept with the tests (the same files)
PUBLISHED = [SHARED / "data" / "valkyrie-quests" / q if (SHARED / "data" / "valkyrie-quests" / q / "quest.ini").is_file()
             else DATA / q for q in ("01_FirstBlood", "02_AFatGoblin")]
QUESTS = REPO / "content" / "d2e-quests"

coord = st.integers(min_value=-10_000, max_value=10_000)


# ---------------------------------------------------------------- the conversion and its inverse
@settings(max_examples=300, deadline=None)
@given(coord, coord, st.sampled_from([0, 90, 180, 270]))
def test_export_of_import_is_the_identity(x, y, rotation):
    place = from_valkyrie(x, y, rotation)
    assert place is not None and to_valkyrie(place) == (x, y, rotation)


@settings(max_examples=300, deadline=None)
@given(coord, coord, st.sampled_from(sorted(ROTATION)))
def test_import_of_export_is_the_identity(x, y, facing):
    place = DoorPlace((x, y), facing)
    assert from_valkyrie(*to_valkyrie(place)) == place
    assert opening_place(place.edges, facing) == place  # an opening's edges give the door back


@given(coord, coord, st.integers(min_value=-720, max_value=720).filter(lambda r: r % 90 != 0))
def test_a_rotation_off_the_quarter_turns_is_no_door(x, y, rotation):
    assert from_valkyrie(x, y, rotation) is None


def test_rotation_names_the_tile_the_opening_faces_out_of():
    # the published quests write 0 and 90: the tile west of / south of the door
    assert from_valkyrie(25, 1, 0) == DoorPlace((25, -1), "east")
    assert from_valkyrie(27, 3, 90) == DoorPlace((27, -3), "north")
    assert from_valkyrie(27, 3, 450) == from_valkyrie(27, 3, 90)
    two = DoorPlace((4, 4), "east").edges
    assert opening_at(DoorPlace((4, 4), "west"), [("a", two, "east"), ("b", two, "west")]) == "b"
    assert opening_at(DoorPlace((4, 4), "north"), [("a", two, "east")]) is None  # across, not along
    assert opening_at(DoorPlace((4, 4), "west"), [("a", two, "east")]) == "a"  # the other tile's opening
    assert opening_place([((0, 0), (1, 0))], "north") is None  # a one-square opening


# ---------------------------------------------------------------- the app's drawing rule
def drawn_bar(x: int, y: int, rotation: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of the bar the app draws for a door, in questc's lattice (y down, square
    (c, r) covering [c, c+1] x [r, r+1]), worked out from Quest.cs alone: `Door.Draw` sizes a
    0.4 x 1.6 image centred on the origin (vertical), turns it `rotation` degrees
    counter-clockwise about the origin, moves it by (-0.5, +0.5) and then by (x, y); the app's
    square (x, y) is centred on (x, y), y up (`Tile.Draw` puts a tile's first square's middle
    on its position)."""
    t = math.radians(rotation)
    ax, ay = -math.sin(t) * 0.8, math.cos(t) * 0.8  # half the long axis, turned
    cx, cy = x - 0.5, y + 0.5
    to_lattice = lambda px, py: (round(px + 0.5, 6), round(-py + 0.5, 6))  # noqa: E731
    return to_lattice(cx - ax, cy - ay), to_lattice(cx + ax, cy + ay)


def lies_across(bar, edges) -> bool:
    """The bar runs along the two unit edges of an opening, centred on it."""
    (x0, y0), (x1, y1) = bar
    pts = sorted({p for e in edges for p in e})
    if len(pts) != 3:
        return False
    (a, b, c) = pts
    if not (a[0] == b[0] == c[0] or a[1] == b[1] == c[1]):
        return False
    mid = ((x0 + x1) / 2, (y0 + y1) / 2)
    along = (x0 == x1 == a[0]) if a[0] == c[0] else (y0 == y1 == a[1])
    return along and mid == (float(b[0]), float(b[1])) and math.dist((x0, y0), (x1, y1)) < math.dist(a, c)


def doors_and_openings(folder: Path):
    """Each `[Door…]` of a Valkyrie quest folder with its (x, y, rotation), and every opening
    of its tiles as (tile section, world unit edges, world facing), from the files alone."""
    sink = Sink()
    tiles = load_library(None, sink)
    secs = [s for f in sorted(folder.glob("*.ini")) for s in read_ini(f.read_text(encoding="utf-8"), f.name, sink).sections]
    placements = placements_of([s for s in secs if s.name.startswith("Tile")], tiles, Sink(), load_offsets())
    openings = []
    for pl in placements:
        tile = tiles[pl.code]
        o = tile.orient(pl.rotate)
        for op in tile.all_openings():
            edges = [((a[0] + pl.at[0], a[1] + pl.at[1]), (b[0] + pl.at[0], b[1] + pl.at[1])) for a, b in o.opening_edges(op)]
            openings.append((f"{pl.section}.{op.label}", edges, o.side(op.side)))
    doors = [(s.name, int(s.get("xposition") or 0), int(s.get("yposition") or 0), int(s.get("rotation") or 0))
             for s in secs if s.name.startswith("Door")]
    return doors, openings


def across(folder: Path) -> dict[str, list[str]]:
    """Door section -> the openings its drawn bar lies across (two at a joint, one at a map's edge)."""
    doors, openings = doors_and_openings(folder)
    return {name: [o for o, edges, _f in openings if lies_across(drawn_bar(x, y, r), edges)] for name, x, y, r in doors}


def test_the_published_doors_lie_across_a_joint():
    """A Fat Goblin's two doors (First Blood has none), drawn by Quest.cs's rule, each lie
    across the joint of two tiles: the rule the conversion is built on is the app's."""
    assert across(PUBLISHED[0]) == {}
    got = across(PUBLISHED[1])
    assert sorted(got) == ["DoorCaveEntrance", "DoorCaveExit"]
    assert all(len(v) == 2 for v in got.values()), got
    assert got == {"DoorCaveEntrance": ["Tile9BCave.east", "Tile27BCaveJoin.west"],
                   "DoorCaveExit": ["Tile23BSplit.west", "Tile9BCave.north"]}


def d2e_quests() -> list[str]:
    """The quests of the pack by id (a file may hold other declarations: goblin_road.campaign.quest)."""
    return sorted(p.stem for p in QUESTS.glob("*.quest") if re.search(rf"^quest {re.escape(p.stem)}\b", p.read_text(encoding="utf-8"), re.M))


@pytest.mark.parametrize("quest", d2e_quests())
def test_every_exported_door_of_content_lies_across_its_opening(tmp_path, quest):
    """Every door of every 2nd-edition quest of content/ exported, drawn by Quest.cs's rule:
    across its own opening (the rotation names the declared tile), which meets the next
    tile's opening (a joint: two openings)."""
    from compiler.options import Options
    from compiler.pipeline import compile_paths
    from compiler.plugins.api import ast

    model = compile_paths([str(QUESTS)], Options(), Sink()).models[0]
    declared = {}
    q = next(q for q in model.declarations(ast.Quest) if q.id == quest)
    for e in q.encounters:
        if e.body.map is not None:
            for d in e.body.map.doors:
                declared[d.name] = f"{d.on.tile}.{d.on.side if d.on.index == 0 else f'{d.on.side}.{d.on.index}'}"
    folder = exported(QUESTS, tmp_path / "out", quest)
    doors, openings = doors_and_openings(folder)
    assert len(doors) == len(declared)
    for name, x, y, r in doors:
        hit = [(o, f) for o, edges, f in openings if lies_across(drawn_bar(x, y, r), edges)]
        assert len(hit) == 2, (name, hit)  # across a joint
        place = from_valkyrie(x, y, r)
        assert place is not None
        own = [o for o, f in hit if f == place.facing]
        assert len(own) == 1, (name, hit)
    if quest == "first_blood":  # the barn doors, both on 8A.north (8A turned 180: facing south)
        assert {(n, r) for n, _x, _y, r in doors} == {("DoorBarnBar", 270), ("DoorBarnDoor", 270)}
        assert declared == {"barn_bar": "8A.north", "barn_door": "8A.north"}


def test_published_doors_after_a_round_trip_lie_across_the_same_joints(tmp_path):
    """A Fat Goblin imported and exported: its doors still lie across a joint of the same two
    tile sides, and a second round trip writes the same doors (the conversion is exact)."""
    once = exported_anyway(imported(PUBLISHED[1], tmp_path / "pack"), tmp_path / "out")
    sides = lambda folder: {  # noqa: E731 - door -> the sides of the tiles it joins
        n: sorted(side_of(folder, o) for o in v) for n, v in across(folder).items()}
    assert list(sides(once).values()) and sorted(sides(once).values()) == sorted(sides(PUBLISHED[1]).values())
    twice = exported_anyway(imported(once, tmp_path / "pack2"), tmp_path / "out2")
    assert doors_and_openings(twice)[0] == doors_and_openings(once)[0]


def side_of(folder: Path, opening: str) -> str:
    """`Tile9BCaveEntrance.north` -> `TileSide9B.north`: the tile side, whatever the section is named."""
    section, label = opening.split(".", 1)
    secs = {s.name: s for f in folder.glob("tiles.ini") for s in read_ini(f.read_text(encoding="utf-8"), f.name, Sink()).sections}
    return f"{secs[section].get('side')}.{label}"


# ---------------------------------------------------------------- bad input
def test_a_door_turned_off_the_quarter_turns_is_one_located_diagnostic(tmp_path):
    """A door with `rotation=45` in A Fat Goblin, a quest of two encounters (the app would draw
    a slanted bar across no joint): one VK0304 at its rotation line, not one per encounter."""
    from questc_valkyrie.run import import_quest

    src = tmp_path / "q"
    shutil.copytree(PUBLISHED[1], src)
    other = (src / "other.ini").read_text(encoding="utf-8")
    (src / "other.ini").write_text(other.replace("rotation=90", "rotation=45", 1), encoding="utf-8")
    sink = Sink()
    import_quest(src, sink)
    bad = [d for d in sink.items if d.code == "VK0304"]
    assert len(bad) == 1 and bad[0].span.file.endswith("other.ini"), [str(d.message) for d in bad]
    line = other.splitlines()[bad[0].span.line - 1]
    assert line == "rotation=90" and "multiple of 90" in bad[0].message
