"""Tile catalogs: reading grids and openings, bad input, rotations."""

from __future__ import annotations

from hypothesis import given, strategies as st

from compiler.catalogs.document import Document, Entry
from compiler.diagnostics import Sink
from compiler.geometry.tiles import (
    SIDES,
    Opening,
    rotate_cell,
    rotate_point,
    rotate_side,
    rotated_size,
    turns,
)
from compiler.passes.tiles import read_tiles

SYMBOLS = {".": "plain", "~": "water", "#": "obstacle", "o": "pit", "^": "lava"}


def entries(tiles: dict) -> dict[str, Entry]:
    doc = Document("tiles.yaml", {"tiles": tiles})
    return {k: Entry("tiles", k, v, doc, ("tiles", k), "test") for k, v in tiles.items()}


def read(tiles: dict):
    sink = Sink()
    return read_tiles(entries(tiles), SYMBOLS, sink), sink


def codes(sink: Sink) -> list[str]:
    return [d.code for d in sink.items]


def test_reads_squares_openings_and_defaults():
    tiles, sink = read({"9A": {"kind": "dungeon", "piece": "9", "grid": ".~~.\n....\n.#..\n",
                              "openings": {"north": [1], "south": [2, 0]}}})
    assert codes(sink) == []
    t = tiles["9A"]
    assert t.size == (4, 3) and len(t.squares) == 12 and t.squares[(1, 0)] == "~"
    assert t.copies == 1 and t.piece == "9"
    # openings are indexed in ascending offset order, whatever the listing order
    assert [o.offset for o in t.openings["south"]] == [0, 2]
    assert t.opening("south", 1).offset == 2 and t.opening("south", 2) is None
    assert t.opening_cells(t.opening("north")) == ((1, 0), (2, 0))
    assert t.opening_edges(t.opening("south", 1)) == (((2, 3), (3, 3)), ((3, 3), (4, 3)))


def test_no_square_cells_and_wider_openings():
    tiles, sink = read({"L": {"kind": "dungeon", "grid": "..---\n.....\n", "openings": {"east": [{"offset": 1, "width": 1}]}}})
    assert codes(sink) == []
    assert len(tiles["L"].squares) == 7 and (2, 0) not in tiles["L"].squares
    assert tiles["L"].opening("east").width == 1


def test_ragged_rows():
    _, sink = read({"X": {"kind": "dungeon", "grid": "....\n..\n"}})
    assert codes(sink) == ["M0101"]
    assert "row 1 is 2 characters long" in sink.items[0].message
    assert "Pad row 1" in sink.items[0].fix


def test_unknown_symbol_lists_known_ones():
    tiles, sink = read({"X": {"kind": "dungeon", "grid": "..*.\n"}})
    assert codes(sink) == ["M0102"] and "X" not in tiles
    assert "`*` at column 2, row 0" in sink.items[0].message
    assert "`~`" in sink.items[0].fix


def test_unknown_symbols_at_one_place_are_one_error():
    # a grid in flow style has one span: the second unknown symbol is a note of the first error
    tiles, sink = read({"X": {"kind": "dungeon", "grid": "ut..\n..*.\n"}})
    (d,) = sink.items
    assert d.code == "M0102" and "`u` at column 0, row 0" in d.message
    assert [r.message for r in d.related] == ["also `t` at column 1, row 0", "also `*` at column 2, row 1"]


def test_opening_offset_outside_side():
    _, sink = read({"X": {"kind": "dungeon", "grid": "....\n....\n", "openings": {"north": [3], "west": [1]}}})
    assert sorted(codes(sink)) == ["M0103", "M0103"]
    msgs = " ".join(d.message for d in sink.items)
    assert "north side, which is 4 squares long" in msgs and "west side, which is 2 squares long" in msgs


def test_opening_on_missing_squares_and_overlapping_openings():
    _, sink = read({"X": {"kind": "dungeon", "grid": "-...\n....\n", "openings": {"north": [0]}}})
    assert codes(sink) == ["M0104"]
    _, sink = read({"Y": {"kind": "dungeon", "grid": "....\n", "openings": {"north": [0, 1]}}})
    assert codes(sink) == ["M0105"]


def test_empty_border_and_bad_walls():
    _, sink = read({"X": {"kind": "dungeon", "grid": "----\n....\n"}})
    assert codes(sink) == ["M0106"]
    _, sink = read({"X": {"kind": "dungeon", "grid": "--\n--\n"}})
    assert codes(sink) == ["M0106"]
    _, sink = read({"X": {"kind": "dungeon", "grid": "..\n..\n", "walls": [[[0, 0], [1, 1]], [[0, 1], [5, 1]]]}})
    assert codes(sink) == ["M0107", "M0107"]
    tiles, sink = read({"X": {"kind": "dungeon", "grid": "..\n..\n", "walls": [[[0, 1], [2, 1]]]}})
    assert codes(sink) == [] and tiles["X"].walls == {((0, 1), (1, 1)), ((1, 1), (2, 1))}


def test_rotation_by_hand():
    # a 3x2 tile turned a quarter clockwise is 2x3; its top-left square goes to the top-right
    assert rotated_size((3, 2), 90) == (2, 3)
    assert rotate_cell((0, 0), (3, 2), 90) == (1, 0)
    assert rotate_cell((2, 1), (3, 2), 90) == (0, 2)
    assert rotate_cell((0, 0), (3, 2), 180) == (2, 1)
    assert rotate_cell((0, 0), (3, 2), 270) == (0, 2)
    assert rotate_point((0, 0), (3, 2), 90) == (2, 0)
    assert rotate_side("north", 90) == "east" and rotate_side("west", 270) == "south"


def test_orientation_maps_openings_to_world_sides():
    tiles, _ = read({"T": {"kind": "dungeon", "grid": "...\n...\n", "openings": {"north": [0]}}})
    o = tiles["T"].orient(90)
    assert o.size == (2, 3) and o.side("north") == "east"
    # the north opening's squares (0,0),(1,0) end up on the east column x=1 of the rotated tile
    assert o.opening_edges(tiles["T"].opening("north")) == {((2, 0), (2, 1)), ((2, 1), (2, 2))}
    for cell in tiles["T"].squares:
        assert o.local(o.cell(cell)) == cell


sizes = st.tuples(st.integers(1, 9), st.integers(1, 9))


@given(sizes, st.data(), st.sampled_from([0, 90, 180, 270]))
def test_rotations_round_trip(size, data, rotation):
    w, h = size
    cell = (data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1)))
    point = (data.draw(st.integers(0, w)), data.draw(st.integers(0, h)))
    c, p, s = cell, point, size
    for _ in range(4):
        c, p, s = rotate_cell(c, s, 90), rotate_point(p, s, 90), rotated_size(s, 90)
    assert (c, p, s) == (cell, point, size)
    # one turn of `rotation` then the rest of the circle is the identity too
    rest = (360 - rotation) % 360
    assert rotate_cell(rotate_cell(cell, size, rotation), rotated_size(size, rotation), rest) == cell
    rc = rotate_cell(cell, size, rotation)
    rw, rh = rotated_size(size, rotation)
    assert 0 <= rc[0] < rw and 0 <= rc[1] < rh


@given(st.sampled_from(SIDES), st.integers(0, 7))
def test_side_rotation_cycles(side, k):
    assert rotate_side(rotate_side(side, 90 * k), 90 * (4 - k % 4)) == side


# --- hand-checked cases of each helper (docs/mutation.md: each kills a mutant) ---

def test_turns_of_rotations():
    assert [turns(r) for r in (0, 90, 180, 270, 360, 450, -90)] == [0, 1, 2, 3, 0, 1, 3]


def test_rotations_by_hand_all_quarters():
    assert [rotated_size((3, 2), r) for r in (0, 90, 180, 270)] == [(3, 2), (2, 3), (3, 2), (2, 3)]
    assert [rotate_side("east", r) for r in (0, 90, 180, 270)] == ["east", "south", "west", "north"]
    # lattice points of a 3x2 tile: the top-left corner goes to the top-right, bottom-right, bottom-left
    assert [rotate_point((0, 0), (3, 2), r) for r in (0, 90, 180, 270)] == [(0, 0), (2, 0), (3, 2), (0, 3)]
    assert rotate_point((3, 2), (3, 2), 180) == (0, 0)
    assert rotate_point((1, 0), (3, 2), 90) == (2, 1)
    # squares: (1, 0) of the 3x2 tile
    assert [rotate_cell((1, 0), (3, 2), r) for r in (0, 90, 180, 270)] == [(1, 0), (1, 1), (1, 1), (0, 1)]


GRID4x3 = {"kind": "dungeon", "grid": "....\n....\n....\n",
           "openings": {"west": [0], "north": [1], "south": [2], "east": [{"offset": 1, "width": 2}]}}


def test_openings_lookup_and_order():
    tiles, sink = read({"T": GRID4x3})
    assert codes(sink) == []
    t = tiles["T"]
    assert t.opening("north") == Opening("north", 0, 1, 2)
    assert t.opening("north", 1) is None and t.opening("north", -1) is None
    assert t.opening("nowhere") is None
    assert [o.side for o in t.all_openings()] == ["north", "east", "south", "west"]


def test_opening_cells_and_edges_on_each_side():
    tiles, _ = read({"T": GRID4x3})
    t = tiles["T"]
    cells = {o.side: t.opening_cells(o) for o in t.all_openings()}
    edges = {o.side: t.opening_edges(o) for o in t.all_openings()}
    assert cells == {"north": ((1, 0), (2, 0)), "south": ((2, 2), (3, 2)),
                     "west": ((0, 0), (0, 1)), "east": ((3, 1), (3, 2))}
    assert edges == {
        "north": (((1, 0), (2, 0)), ((2, 0), (3, 0))),  # the top border, y = 0
        "south": (((2, 3), (3, 3)), ((3, 3), (4, 3))),  # the bottom border, y = 3
        "west": (((0, 0), (0, 1)), ((0, 1), (0, 2))),  # x = 0
        "east": (((4, 1), (4, 2)), ((4, 2), (4, 3))),  # x = 4
    }


def test_orientation_frames_by_hand():
    tiles, _ = read({"T": {"kind": "dungeon", "grid": "...\n...\n", "openings": {"north": [0]}}})
    t = tiles["T"]
    o90, o180, o270 = t.orient(90), t.orient(180), t.orient(270)
    assert o90.local((1, 0)) == (0, 0) and o90.local((0, 2)) == (2, 1)
    assert o180.local((2, 1)) == (0, 0) and o180.local((0, 0)) == (2, 1)
    assert o270.local((0, 2)) == (0, 0) and o270.local((1, 0)) == (2, 1)
    assert o90.point((0, 0)) == (2, 0)
    assert o90.edge(((0, 0), (1, 0))) == ((2, 0), (2, 1))
    assert o180.edge(((0, 0), (1, 0))) == ((2, 2), (3, 2))
    assert t.orient(450).rotation == 90 and t.orient(-90).rotation == 270


def test_turned_cells_pair_each_square_with_its_print_once_per_rotation():
    tiles, _ = read({"T": {"kind": "dungeon", "grid": "..-\n...\n", "openings": {"west": [0]}}})
    t = tiles["T"]
    assert dict(t.turned_cells(0)) == {(0, 0): (0, 0), (1, 0): (1, 0), (0, 1): (0, 1), (1, 1): (1, 1), (2, 1): (2, 1)}
    turned = t.turned_cells(90)
    assert dict(turned) == {(1, 0): (0, 0), (1, 1): (1, 0), (0, 0): (0, 1), (0, 1): (1, 1), (0, 2): (2, 1)}
    assert [printed for _, printed in turned] == list(t.squares)  # catalog order
    assert t.turned_cells(90) is turned  # worked out once
