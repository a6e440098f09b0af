"""Rendering: structural pixel checks, determinism, golden images with a tolerance.

Regenerate the goldens after an intended change with
    QUESTC_UPDATE_GOLDEN=1 .venv/bin/pytest tests/test_render.py
and look at them before committing.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from compiler.emit.images import style as S
from compiler.emit.images.chain import chain_offsets, merge_chain, render_chain
from compiler.emit.images.map import map_layout, render_map
from compiler.emit.images.pictures import (
    Caption,
    ChainPart,
    ChainPicture,
    Location,
    MapPicture,
    SpawnPoint,
    TileCard,
    TileOutline,
    TileSheet,
    Token,
    Trail,
    WorldPicture,
    monster_initials,
)
from compiler.emit.images.primitives import hatch_mask, png_bytes, save_png
from compiler.emit.images.sheet import render_tile_sheet, tile_board
from compiler.emit.images.world import render_world, world_positions
from compiler.geometry.board import Board, Door, Link
from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.lattice import cell_edges

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "render"
SCALE = 24

RULES = {
    "plain": PLAIN,
    "water": TerrainRule("water", "~", enter_cost=2),
    "obstacle": TerrainRule("obstacle", "#", blocks_movement=True, blocks_sight=True),
    "pit": TerrainRule("pit", "o", sight="adjacent_only"),
    "lava": TerrainRule("lava", "^"),
    "mystery": TerrainRule("mystery", "m"),
}


def boundary(cells) -> set:
    count: dict = {}
    for c in cells:
        for e in cell_edges(c):
            count[e] = count.get(e, 0) + 1
    return {e for e, n in count.items() if n == 1}


def make_board(cells, terrain=None, extra_walls=(), doors=(), links=()) -> Board:
    terrain = terrain or {}
    spaces = tuple(sorted(cells, key=lambda c: (c[1], c[0])))
    door_edges = {e for d in doors for e in d.edges}
    walls = (boundary(spaces) | set(extra_walls)) - door_edges
    return Board(spaces, tuple(terrain.get(c, "plain") for c in spaces), RULES, frozenset(walls), tuple(doors), tuple(links))


# A small two-tile map: tile "9A" is columns 0-3, tile "16A" (hidden) columns 4-7.
CELLS = [(x, y) for y in range(6) for x in range(8) if not (x > 5 and y > 3)]
TERRAIN = {(2, 2): "water", (3, 2): "water", (5, 1): "obstacle", (1, 4): "pit", (4, 4): "lava", (6, 0): "mystery"}
HALL = Door("hall", frozenset({((4, 2), (4, 3))}), False, "yellow")
SIDE = Door("side", frozenset({((4, 3), (4, 4))}), True, "red")
WALL_RUN = {((4, 0), (4, 1)), ((4, 1), (4, 2))}
BOARD = make_board(CELLS, TERRAIN, WALL_RUN, (HALL, SIDE), (Link("stairs", ((0, 0),), ((7, 0),)),))
TILES = (
    TileOutline("9A", tuple(c for c in BOARD.spaces if c[0] < 4)),
    TileOutline("16A", tuple(c for c in BOARD.spaces if c[0] >= 4), hidden=True),
)


def full_picture(**overrides) -> MapPicture:
    base = dict(
        board=BOARD,
        tiles=TILES,
        openings=frozenset({((8, 1), (8, 2)), ((8, 2), (8, 3))}),
        tokens=(Token((1, 1), "search"), Token((2, 3), "objective", label="cart")),
        spawns=(
            SpawnPoint(((6, 2), (7, 2), (6, 3), (7, 3)), "E", "master"),
            SpawnPoint(((5, 4),), "GA", "minion", "3+"),
        ),
        hero_starts=((0, 5), (1, 5)),
        entrances=frozenset({((0, 6), (1, 6))}),
        exits=frozenset({((3, 0), (4, 0))}),
        title="Test map",
    )
    base.update(overrides)
    return MapPicture(**base)


def px(image: Image.Image, xy) -> tuple[int, int, int]:
    return image.getpixel((int(xy[0]), int(xy[1])))[:3]


# ---------------------------------------------------------------- structure


def test_wall_pixels_are_wall_coloured():
    pic = MapPicture(replace(BOARD, links=()), tiles=TILES)  # the stairs link is drawn across row 0
    image = render_map(pic, scale=SCALE)
    layout = map_layout(pic, SCALE)
    for e in [((0, 0), (1, 0)), ((4, 0), (4, 1)), ((4, 1), (4, 2)), ((8, 3), (8, 4))]:
        assert e in BOARD.walls
        assert px(image, layout.edge_mid(e)) == S.WALL, e
    # an interior edge that is not a wall is not wall-coloured
    assert px(image, layout.edge_mid(((1, 1), (2, 1)))) != S.WALL


def test_closed_door_has_its_colour_and_open_door_is_hollow():
    pic = MapPicture(BOARD)
    image = render_map(pic, scale=SCALE)
    layout = map_layout(pic, SCALE)
    assert px(image, layout.edge_mid(((4, 2), (4, 3)))) == (255, 255, 0)  # yellow, closed
    mid = layout.edge_mid(((4, 3), (4, 4)))
    assert px(image, mid) != (255, 0, 0)  # open: the middle of the leaf is empty …
    frame = [px(image, (mid[0] + dx, mid[1] + dy)) for dx in range(-4, 5) for dy in range(-12, 13)]
    assert (255, 0, 0) in frame  # … but its frame is drawn in the door's colour


def test_door_without_colour_uses_default_and_unknown_colour_is_stable():
    assert S.named_colour(None, S.DOOR_DEFAULT) == S.DOOR_DEFAULT
    assert S.named_colour("yellow", S.DOOR_DEFAULT) == (255, 255, 0)
    assert S.named_colour("#102030", S.DOOR_DEFAULT) == (16, 32, 48)
    assert S.named_colour("rune-ish", S.DOOR_DEFAULT) == S.fallback_colour("rune-ish")


def test_terrain_fills_and_fallback_colour():
    pic = MapPicture(BOARD, legend=False)
    image = render_map(pic, scale=SCALE)
    layout = map_layout(pic, SCALE)
    for cell, terrain in [((2, 2), "water"), ((0, 3), "plain"), ((4, 4), "lava"), ((5, 1), "obstacle")]:
        l, t, _, _ = layout.cell_box(cell)
        assert px(image, (l + 3, t + 3)) == S.TERRAIN_LOOKS[terrain].fill, cell
    l, t, _, _ = layout.cell_box((6, 0))
    assert px(image, (l + 3, t + 3)) == S.fallback_colour("mystery")
    # the fallback is a pure function of the id: stable, and different ids differ
    assert S.fallback_colour("mystery") == S.fallback_colour("mystery")
    assert S.fallback_colour("mystery") != S.fallback_colour("swamp")
    assert all(0 <= v <= 255 for v in S.fallback_colour("mystery"))


def test_seen_cells_are_shaded_and_others_are_not():
    seen = frozenset({(0, 2), (1, 2), (0, 3)})
    pic = MapPicture(BOARD, seen=seen, origin=(0, 2))
    image = render_map(pic, scale=SCALE)
    layout = map_layout(pic, SCALE)
    shaded = S.blend(S.TERRAIN_LOOKS["plain"].fill, S.SEEN, S.SEEN_ALPHA)
    for cell in [(1, 2), (0, 3)]:
        l, t, _, _ = layout.cell_box(cell)
        assert px(image, (l + 4, t + 4)) == shaded, cell
    for cell in [(1, 3), (3, 5)]:
        l, t, _, _ = layout.cell_box(cell)
        assert px(image, (l + 4, t + 4)) == S.TERRAIN_LOOKS["plain"].fill, cell
    cx, cy = layout.centre((0, 2))
    assert px(image, (cx, cy)) == S.ORIGIN


def test_reachable_cells_are_outlined():
    pic = MapPicture(BOARD, reachable=frozenset({(1, 3)}))
    image = render_map(pic, scale=SCALE)
    layout = map_layout(pic, SCALE)
    inset = max(2, SCALE // 10)
    l, t, r, b = layout.cell_box((1, 3))
    assert px(image, (l + inset, t + SCALE // 2)) == S.REACHABLE
    l, t, r, b = layout.cell_box((2, 3))
    assert px(image, (l + inset, t + SCALE // 2)) != S.REACHABLE


def test_blockers_are_drawn():
    pic = MapPicture(BOARD, blockers=frozenset({(1, 3)}))
    image = render_map(pic, scale=SCALE)
    l, t, _, _ = map_layout(pic, SCALE).cell_box((1, 3))
    # the disc sits in the middle; its X is white; a point between them is the blocker colour
    assert px(image, (l + SCALE // 2, t + SCALE // 2 - SCALE // 4)) == S.BLOCKER


def test_hidden_tile_is_hatched():
    pic = MapPicture(BOARD, tiles=TILES, legend=False)
    image = render_map(pic, scale=SCALE)
    layout = map_layout(pic, SCALE)
    period = max(5, SCALE // 4)
    hatch = hatch_mask(image.size, period)
    l, t, r, b = layout.cell_box((7, 3))  # plain square of the hidden tile, nothing else drawn there
    box = [(x, y) for y in range(t + 2, b - 2) for x in range(l + 2, r - 2)]
    on = [p for p in box if hatch[p[1], p[0]]]
    off = [p for p in box if not hatch[p[1], p[0]]]
    assert on and off
    assert all(px(image, p) == S.HATCH for p in on)
    assert all(px(image, p) == S.TERRAIN_LOOKS["plain"].fill for p in off)
    # a square of the visible tile is not hatched
    l, t, r, b = layout.cell_box((1, 3))
    assert all(px(image, (x, y)) == S.TERRAIN_LOOKS["plain"].fill for y in range(t + 2, b - 2) for x in range(l + 2, r - 2))


def test_spawns_tokens_starts_and_exits():
    pic = full_picture(legend=False)
    image = render_map(pic, scale=SCALE)
    layout = map_layout(pic, SCALE)
    # the big master's footprint is filled red between its squares
    l, t, _, _ = layout.cell_box((7, 3))
    assert px(image, (l + 2, t - 1)) == S.MASTER
    # the search token is a yellow diamond in its square
    cx, cy = layout.centre((1, 1))
    assert px(image, (cx - SCALE // 4, cy)) == S.TOKEN_COLOURS["search"]
    # the exit edge is drawn in the exit colour, the entrance in the entrance colour
    assert px(image, layout.edge_mid(((3, 0), (4, 0)))) == S.EXIT
    assert px(image, layout.edge_mid(((0, 6), (1, 6)))) == S.ENTRANCE
    # an unjoined opening is dashed in the opening colour over the wall
    a, b = layout.point((8, 1)), layout.point((8, 3))
    column = {px(image, (a[0], y)) for y in range(a[1], b[1])}
    assert S.OPENING in column and S.WALL in column


def test_monster_initials():
    assert monster_initials("goblin_archers") == "GA"
    assert monster_initials("ettin") == "E"
    assert monster_initials("Cave spiders") == "CS"
    assert monster_initials("") == "?"


def test_layout_pads_one_square_and_maps_cells():
    pic = MapPicture(BOARD)
    layout = map_layout(pic, 10)
    assert (layout.x0, layout.y0, layout.columns, layout.rows) == (-1, -1, 10, 8)
    assert layout.cell_box((0, 0)) == (layout.left + 10, layout.top + 10, layout.left + 20, layout.top + 20)
    image = render_map(pic, scale=10)
    assert image.width >= layout.left + layout.columns * 10


def test_tile_board_walls_are_boundary_minus_openings():
    card = TileCard("9A", tuple(((x, y), "plain") for y in range(2) for x in range(3)), frozenset({((1, 0), (2, 0))}))
    board = tile_board(card, RULES)
    assert len(board.spaces) == 6
    assert ((1, 0), (2, 0)) not in board.walls
    assert ((0, 0), (1, 0)) in board.walls
    assert len(board.walls) == 9  # perimeter 10 minus the opening


def test_chain_parts_do_not_overlap_and_keep_captions():
    small = MapPicture(make_board([(x, y) for x in range(3) for y in range(2)]))
    chain = ChainPicture((ChainPart("Encounter 1", small), ChainPart("Encounter 2", small)), gap=2)
    offsets = chain_offsets(chain)
    assert offsets == [(0, 1), (5, 1)]
    merged = merge_chain(chain)
    assert len(merged.board.spaces) == 12
    assert [c.text for c in merged.captions] == ["Encounter 1", "Encounter 2"]
    assert merged.captions[1].cell == (5, 0)
    image = render_chain(chain, scale=12)
    assert image.width > 0


def test_world_positions_given_and_automatic_layout_is_stable():
    given = WorldPicture((Location("a", position=(0, 0)), Location("b", position=(3, 4))), (Trail("a", "b"),))
    assert world_positions(given) == {"a": (0.0, 0.0), "b": (3.0, 4.0)}
    auto = WorldPicture(
        (Location("a", position=(0, 0)), Location("b"), Location("c", kind="dungeon")),
        (Trail("a", "b"), Trail("b", "c", "river", "red", 3)),
    )
    first, second = world_positions(auto), world_positions(auto)
    assert first == second
    assert first["a"] == (0.0, 0.0)  # given positions stay put
    assert first["b"] != first["c"]


def test_world_location_is_drawn_in_its_kind_colour():
    from compiler.emit.images.world import LOCATION_COLOURS

    world = WorldPicture((Location("t", "Town", "city", (0, 0)), Location("d", "Den", "dungeon", (10, 5))), (Trail("t", "d", danger="yellow", traffic=2),))
    image = render_world(world, width=400)
    arr = np.asarray(image)
    for colour in (LOCATION_COLOURS["city"], LOCATION_COLOURS["dungeon"], (235, 200, 40)):
        assert (arr == np.array(colour, dtype=np.uint8)).all(axis=2).any(), colour


def test_empty_inputs_render_without_error():
    assert render_map(MapPicture(Board((), ())), scale=16).size[0] > 0
    assert render_tile_sheet(TileSheet(())).size[0] > 0
    assert render_world(WorldPicture(())).size[0] > 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sets(st.tuples(st.integers(-3, 4), st.integers(-2, 4)), min_size=1, max_size=30),
    st.sampled_from(sorted(RULES)),
    st.sets(st.tuples(st.integers(-3, 4), st.integers(-2, 4)), max_size=5),
)
def test_any_board_renders_with_every_wall_visible(cells, terrain_id, painted):
    board = make_board(cells, {c: terrain_id for c in painted})
    pic = MapPicture(board, legend=False)
    image = render_map(pic, scale=12)
    layout = map_layout(pic, 12)
    assert image.width >= layout.left + layout.columns * 12
    for e in board.walls:
        assert px(image, layout.edge_mid(e)) == S.WALL


# ---------------------------------------------------------------- determinism


def test_render_twice_gives_identical_bytes(tmp_path):
    pic = full_picture(seen=frozenset({(0, 0), (1, 0)}), origin=(0, 0), reachable=frozenset({(0, 1)}), blockers=frozenset({(2, 1)}))
    a = png_bytes(render_map(pic, scale=SCALE))
    b = png_bytes(render_map(pic, scale=SCALE))
    assert a == b
    path = save_png(render_map(pic, scale=SCALE), tmp_path / "sub" / "m.png")
    assert path.read_bytes() == a
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".render-")]


def png_chunks(data: bytes) -> list[str]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, names = 8, []
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        names.append(data[pos + 4 : pos + 8].decode("ascii"))
        pos += 12 + length
    return names


def test_png_has_no_metadata_chunks():
    names = png_chunks(png_bytes(render_map(full_picture(), scale=12)))
    assert set(names) <= {"IHDR", "IDAT", "IEND"}


def test_bytes_do_not_depend_on_hash_seed():
    script = (
        "import sys, hashlib; sys.path.insert(0, %r); sys.path.insert(0, %r)\n"
        "import test_render as t\n"
        "from compiler.emit.images.map import render_map\n"
        "from compiler.emit.images.primitives import png_bytes\n"
        "from compiler.emit.images.world import render_world\n"
        "d = png_bytes(render_map(t.full_picture(), scale=12)) + png_bytes(render_world(t.WORLD, width=320))\n"
        "print(hashlib.sha256(d).hexdigest())\n"
    ) % (str(ROOT), str(ROOT / "tests"))
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


# ---------------------------------------------------------------- goldens

WORLD = WorldPicture(
    (
        Location("tamalir", "Tamalir", "city", (0, 0)),
        Location("ruins", "Ruins", "dungeon", (6, 2)),
        Location("crown", "Crown", "legendary"),
        Location("lair", "Lair", "secret_master"),
        Location("keep", "Keep", "keep", (2, 5)),
    ),
    (
        Trail("tamalir", "ruins", "normal", "green", 2),
        Trail("ruins", "crown", "river", "yellow", 3),
        Trail("crown", "lair", "secret", "red", 1),
        Trail("tamalir", "keep", "normal", "red", 4),
    ),
    "World",
)

SHEET = TileSheet(
    (
        TileCard("9A", tuple(((x, y), "water" if (x, y) == (1, 1) else "plain") for y in range(3) for x in range(4)), frozenset({((1, 0), (2, 0)), ((2, 0), (3, 0))}), "dungeon"),
        TileCard("16A", tuple(((x, y), "plain") for y in range(2) for x in range(2)), frozenset({((2, 0), (2, 1)), ((2, 1), (2, 2))})),
        TileCard("2A", tuple(((x, y), "pit" if x == 1 else "plain") for y in range(2) for x in range(3))),
    ),
    RULES,
    "Tiles",
)


def golden_cases():
    question = full_picture(seen=frozenset({(0, 0), (1, 0), (2, 0), (0, 1)}), origin=(0, 0), reachable=frozenset({(0, 1), (1, 1), (1, 2)}), blockers=frozenset({(2, 1)}))
    small = MapPicture(make_board([(x, y) for x in range(3) for y in range(2)]), tiles=(TileOutline("1A", tuple((x, y) for x in range(3) for y in range(2))),), captions=(Caption((0, 0), "c"),))
    return {
        "map": lambda: render_map(full_picture(), scale=SCALE),
        "question": lambda: render_map(question, scale=SCALE),
        "tiles": lambda: render_tile_sheet(SHEET, scale=16),
        "chain": lambda: render_chain(ChainPicture((ChainPart("Encounter 1", small), ChainPart("Encounter 2", full_picture(title=""))), "Chain"), scale=14),
        "world": lambda: render_world(WORLD, width=480),
    }


PIXEL_TOLERANCE = 40  # max per-channel difference for a pixel to count as equal (anti-aliased text)
MAX_DIFFERING = 0.02  # fraction of pixels allowed to differ (font rasteriser versions)


def compare_images(actual: Image.Image, expected: Image.Image) -> float:
    """Fraction of pixels whose largest channel difference exceeds the tolerance (1.0 on size mismatch)."""
    if actual.size != expected.size:
        return 1.0
    a = np.asarray(actual.convert("RGB"), dtype=np.int16)
    b = np.asarray(expected.convert("RGB"), dtype=np.int16)
    return float((np.abs(a - b).max(axis=2) > PIXEL_TOLERANCE).mean())


def test_compare_images_tolerates_small_noise_only():
    base = Image.new("RGB", (20, 20), (100, 100, 100))
    noisy = base.copy()
    noisy.putpixel((3, 3), (130, 100, 100))  # within tolerance
    assert compare_images(noisy, base) == 0.0
    noisy.putpixel((4, 4), (255, 0, 0))
    assert compare_images(noisy, base) == pytest.approx(1 / 400)
    assert compare_images(Image.new("RGB", (5, 5)), base) == 1.0


@pytest.mark.parametrize("name", sorted(golden_cases()))
def test_golden(name):
    image = golden_cases()[name]()
    path = GOLDEN / f"{name}.png"
    if os.environ.get("QUESTC_UPDATE_GOLDEN") == "1":
        save_png(image, path)
    assert path.exists(), f"no golden {path}; run with QUESTC_UPDATE_GOLDEN=1 and look at it"
    with Image.open(path) as expected:
        expected.load()
        diff = compare_images(image, expected)
    assert diff <= MAX_DIFFERING, f"{name}: {diff:.2%} of pixels differ from {path}"


def test_the_hidden_tile_swatch_leaves_the_label_before_it_whole():
    # new-user trial: "red door (closed)" was drawn as "red door (closec": the hatch swatch
    # after it painted its overhang over with the background, a swatch's width to its left
    from compiler.emit.images.legend import LegendEntry, render_legend

    door = LegendEntry("red door (closed)", "door", colour=(200, 0, 0))
    hidden = LegendEntry("hidden tile", "hidden", colour=S.HATCH)
    alone = np.asarray(render_legend([door], 2000, 40))
    both = np.asarray(render_legend([door, hidden], 2000, 40))
    sw = 20  # the swatch at scale 40; the second entry starts after the first's swatch, label and gap
    second = 6 + sw + 4 + S.text_size(S.font_for(14, door.label), door.label)[2] + 12
    assert (alone[:, :second] == both[:, :second]).all()
    assert (alone[:, second:] != both[:, second:]).any()  # the swatch is drawn
