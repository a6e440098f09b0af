"""Map assembly: placement, attachment, joins, walls, doors and every bad input."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings, strategies as st

from compiler.geometry.lattice import edge
from compiler.diagnostics import Span
from compiler.syntax import ast
from conftest import REPO
from maphelp import assemble, catalog, codes, door, span, tile

TILES = catalog({
    "room": {"kind": "dungeon", "piece": "room", "grid": "...\n...\n...\n", "openings": {"north": [0], "east": [1]}},
    "hall": {"kind": "dungeon", "piece": "hall", "grid": "....\n....\n", "openings": {"west": [0], "east": [0], "south": [1]}},
    "wide": {"kind": "dungeon", "grid": "...\n...\n...\n", "openings": {"west": [{"offset": 0, "width": 3}]}},
    "9A": {"kind": "dungeon", "piece": "9", "grid": "..\n..\n", "openings": {"north": [0], "south": [0]}},
    "9B": {"kind": "dungeon", "piece": "9", "grid": "..\n..\n", "openings": {"north": [0], "south": [0]}},
    "cap": {"kind": "end_cap", "piece": "cap", "copies": 2, "grid": "..\n", "openings": {"north": [0]}},
    "glade": {"kind": "outdoor", "grid": "..\n..\n", "openings": {"south": [0]}},
    "Lroom": {"kind": "dungeon", "grid": "..-\n...\n", "openings": {"west": [0]}},
})


def test_free_placement_and_rotation_frames():
    amap, sink = assemble(TILES, tile("Lroom", at=(5, 5), rotate=90))
    assert codes(sink) == []
    t = amap.by_name["Lroom"]
    # 3x2 turned clockwise is 2x3 at (5, 5); printed (0, 0) goes to the top-right
    assert t.to_world((0, 0)) == (6, 5) and t.to_world((2, 1)) == (5, 7)
    assert (5, 7) in amap.board.spaces and t.to_local((5, 7)) == (2, 1)
    assert t.to_local((6, 7)) is None  # printed (2, 0) has no square
    assert len(amap.board.spaces) == 5
    assert amap.board.spaces == tuple(sorted(amap.board.spaces, key=lambda c: (c[1], c[0])))


def test_attach_infers_rotation_and_joins_openings():
    amap, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north")))
    assert codes(sink) == []
    cap = amap.by_name["cap"]
    assert cap.rotation == 180 and set(cap.cells) == {(0, -1), (1, -1)}
    (join,) = amap.joins
    assert join.attached and join.edges == {edge((0, 0), (1, 0)), edge((1, 0), (2, 0))}
    walls = amap.board.walls
    assert edge((0, 0), (1, 0)) not in walls and edge((2, 0), (3, 0)) in walls  # beside the opening: wall
    assert edge((0, -1), (1, -1)) in walls  # the cap's far side
    assert list(amap.tile_graph.edges) == [("room", "cap")]


def test_given_rotation_must_fit():
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", rotate=90, attach=("north", "room.north")))
    assert codes(sink) == ["M0204"]
    d = sink.items[0]
    assert "faces east with rotate 90, but must face south" in d.message and "rotate 180" in d.fix
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", rotate=180, attach=("north", "room.north")))
    assert codes(sink) == []


def test_attach_to_second_opening_and_east_side():
    amap, sink = assemble(TILES, tile("room", at=(0, 0)), tile("hall", attach=("west", "room.east")))
    assert codes(sink) == []
    # room.east covers rows 1-2 at x = 3; hall's west opening (rows 0-1) meets it: hall at (3, 1)
    assert amap.by_name["hall"].at == (3, 1) and amap.by_name["hall"].rotation == 0


def test_openings_of_different_widths():
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("wide", attach=("west", "room.east")))
    assert codes(sink) == ["M0203"]
    assert "room.east (width 2)" in sink.items[0].message and "wide.west (width 3)" in sink.items[0].message


def test_unknown_tile_with_did_you_mean():
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("rooom", at=(9, 9)))
    assert codes(sink) == ["M0201"] and "did you mean `room`" in sink.items[0].message
    assert sink.items[0].span.line == 2


def test_unknown_opening_lists_available():
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", attach=("north", "room.south")))
    assert codes(sink) == ["M0202"]
    assert "`room.north`, `room.east`" in sink.items[0].message
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north.1")))
    assert codes(sink) == ["M0202"] and "north.1" in sink.items[0].message


def test_attach_to_unknown_or_later_tile():
    _, sink = assemble(TILES, tile("cap", attach=("north", "rom.north")), tile("room", at=(0, 0)))
    assert "M0207" in codes(sink)


def test_attach_that_cannot_fit_any_rotation():
    # hall sits where the cap would have to go
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("hall", at=(0, -2)),
                       tile("cap", attach=("north", "room.north")))
    assert codes(sink)[0] == "M0205" and "`hall`" in sink.items[0].message


def test_tile_placed_twice_and_as_name():
    _, sink = assemble(TILES, tile("cap", at=(0, 0)), tile("cap", at=(0, 4)))
    assert codes(sink) == ["M0206"] and "as cap2" in sink.items[0].fix
    amap, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north")),
                          tile("cap", name="cap2", at=(5, 5)))
    assert "M0206" not in codes(sink) and amap.by_name["cap2"].code == "cap"


def test_bad_rotation_is_the_parsers_to_report_the_tile_is_left_out():
    amap, sink = assemble(TILES, tile("room", at=(0, 0), rotate=45), tile("cap", at=(0, -1), rotate=180))
    assert codes(sink) == [] and [t.name for t in amap.tiles] == ["cap"] and "room" in amap.broken


def test_free_placement_openings_that_meet_are_joined():
    amap, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", at=(0, -1), rotate=180))
    assert codes(sink) == []
    (join,) = amap.joins
    assert not join.attached
    # one square off: the opening edges do not coincide, so every shared edge is a wall
    amap, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", at=(1, -1), rotate=180))
    assert amap.joins == () and codes(sink) == ["M0211"]
    assert edge((1, 0), (2, 0)) in amap.board.walls and edge((2, 0), (3, 0)) in amap.board.walls


def test_overlap_names_both_tiles_squares_and_area():
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("hall", at=(2, 1)))
    assert "M0209" in codes(sink)
    d = next(d for d in sink.items if d.code == "M0209")
    assert "`room` and `hall`" in d.message and "(2, 1), (2, 2)" in d.message and "area 2" in d.message
    assert d.span.line == 2 and d.related[0].span.line == 1


def test_touching_corners_is_not_overlap():
    _, sink = assemble(TILES, tile("9A", at=(0, 0)), tile("room", at=(2, 2)))
    assert "M0209" not in codes(sink) and "M0211" in codes(sink)


def test_outdoor_and_dungeon_pieces_never_join_in_the_first_edition():
    _, sink = assemble(TILES, tile("glade", at=(0, 0)), tile("9A", attach=("north", "glade.south")), ruleset="d1e")
    assert codes(sink) == ["M0210"] and "glade" in sink.items[0].message


def test_outdoor_and_dungeon_pieces_joined_straight_in_the_second_edition():
    _, sink = assemble(TILES, tile("glade", at=(0, 0)), tile("9A", attach=("north", "glade.south")))
    assert codes(sink) == []  # no 2nd-edition rule forbids it (docs/rules.md)


def test_disconnected_map_lists_parts():
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("9A", at=(10, 0)))
    assert codes(sink) == ["M0211"]
    assert "2 separate parts: room; 9A" in sink.items[0].message


def test_both_faces_of_one_piece_and_too_many_copies():
    _, sink = assemble(TILES, tile("9A", at=(0, 0)), tile("9B", attach=("north", "9A.south")))
    assert codes(sink) == ["M0213"] and "9A and 9B" in sink.items[0].message
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north")),
                       tile("cap", name="c2", attach=("north", "room.east")), tile("cap", name="c3", at=(10, 10)))
    assert "M0212" in codes(sink)
    assert "used 3 times (cap, c2, c3), the box holds 2" in next(d for d in sink.items if d.code == "M0212").message


def test_doors_on_attachments():
    amap, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north")),
                          doors=[door("hall", "room.north", "yellow")])
    assert codes(sink) == []
    (d,) = amap.board.doors
    assert d.id == "hall" and d.colour == "yellow" and not d.open
    assert d.edges == {edge((0, 0), (1, 0)), edge((1, 0), (2, 0))}
    assert not d.edges & amap.board.walls
    assert d.edges <= amap.board.blocking_edges()
    assert not d.edges & amap.board.blocking_edges(frozenset({"hall"}))
    assert amap.tile_graph.edges["room", "cap"]["door"] == "hall"


def test_door_problems():
    _, sink = assemble(TILES, tile("room", at=(0, 0)), doors=[door("d", "room.north")])
    assert codes(sink) == ["M0214"]
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north")),
                       doors=[door("d", "room.north"), door("e", "cap.north"), door("d", "room.east")])
    assert codes(sink) == ["M0215", "M0215"]


def test_hidden_tiles_are_on_the_map_with_a_flag():
    amap, _ = assemble(TILES, tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north"), hidden=True))
    assert amap.by_name["cap"].hidden and (0, -1) in amap.board.spaces
    assert amap.tile_graph.nodes["cap"]["hidden"]


def test_resolve_space():
    from compiler.diagnostics import Sink
    from compiler.passes.maps import resolve_space

    marks = [ast.MarkDecl("altar", ast.TileSpace("Lroom", 2, 1, span(9)), span(9))]
    amap, sink = assemble(TILES, tile("Lroom", at=(5, 5), rotate=90), marks=marks)
    assert codes(sink) == [] and amap.marks == {"altar": (5, 7)}
    s = Sink()
    assert resolve_space(amap, ast.TileSpace("Lroom", 1, 0), s) == (6, 6)
    assert resolve_space(amap, ast.WorldSpace(6, 6), s) == (6, 6)
    assert resolve_space(amap, ast.MarkRef("altar"), s) == (5, 7)
    assert s.items == []
    assert resolve_space(amap, ast.TileSpace("Lroom", 2, 0, span(3)), s) is None  # printed '-'
    assert resolve_space(amap, ast.TileSpace("Lroom", 7, 1, span(4)), s) is None
    assert resolve_space(amap, ast.WorldSpace(0, 0, span(5)), s) is None
    assert resolve_space(amap, ast.MarkRef("alter", span(6)), s) is None
    assert resolve_space(amap, ast.TileSpace("Lrom", 0, 0, span(7)), s) is None
    assert [d.code for d in s.items] == ["M0216", "M0216", "M0217", "M0218", "M0207"]
    assert "Lroom(7, 1) is not a square of tile `Lroom` (Lroom, 3x2" in s.items[1].message
    assert "Lroom(1, 0)" in s.items[0].fix  # nearest square to (2, 0)
    assert "did you mean `altar`" in s.items[3].message


def test_inner_walls_of_a_tile_are_walls_on_the_board():
    tiles = catalog({"split": {"kind": "dungeon", "grid": "..\n..\n", "walls": [[[0, 1], [1, 1]]]}})
    amap, _ = assemble(tiles, tile("split", at=(3, 3), rotate=90))
    # the wall under printed (0, 0) runs, after a quarter turn, along x = 4 between rows 3 and 4... at world
    # the printed edge (0,1)-(1,1) maps to lattice (2-1, 0)-(2-1, 1) + (3, 3) = (4, 3)-(4, 4)
    assert edge((4, 3), (4, 4)) in amap.board.walls
    assert edge((4, 4), (4, 5)) not in amap.board.walls


placements = st.lists(st.tuples(st.sampled_from(["room", "hall", "9A", "cap", "Lroom"]),
                                st.integers(-6, 6), st.integers(-6, 6), st.sampled_from([0, 90, 180, 270])),
                      min_size=1, max_size=4)


@settings(max_examples=40, deadline=None)
@given(placements)
def test_assembly_is_deterministic(spec):
    tiles = [tile(code, at=(x, y), rotate=r, name=f"t{i}") for i, (code, x, y, r) in enumerate(spec)]
    a, sa = assemble(TILES, *tiles)
    b, sb = assemble(TILES, *tiles)
    assert a.board == b.board and sa.items == sb.items
    assert [j for j in a.joins] == [j for j in b.joins]
    # every wall edge touches at least one space; every space's terrain is known
    cells = set(a.board.spaces)
    for (p, q) in a.board.walls:
        if p[0] == q[0]:
            sides = {(p[0] - 1, p[1]), (p[0], p[1])}
        else:
            sides = {(p[0], p[1] - 1), (p[0], p[1])}
        assert sides & cells


def test_placement_checks_blocking_terrain_fit_and_reachability():
    from compiler.diagnostics import Sink
    from compiler.passes.maps import check_placements

    tiles = catalog({"yard": {"kind": "dungeon", "grid": "..#\n...\n", "walls": [[[0, 1], [1, 1]], [[1, 0], [1, 1]]]}})
    amap, _ = assemble(tiles, tile("yard", at=(0, 0)))
    body = ast.EncounterBody(
        map=ast.MapBlock(span=span(0)),
        start=ast.StartHeroes(spaces=(ast.TileSpace("yard", 1, 1, span(1)),), span=span(1)),
        tokens=(ast.TokenDecl("search", ast.TileSpace("yard", 2, 0, span(2)), span=span(2)),
                ast.TokenDecl("search", ast.TileSpace("yard", 0, 0, span(3)), span=span(3))),
        spawns=(ast.SpawnDecl("ogre", at=ast.TileSpace("yard", 1, 0, span(4)), size=(2, 2), span=span(4)),
                ast.SpawnDecl("bat", at=ast.TileSpace("yard", 1, 0, span(5)), size=(2, 1), span=span(5))),
    )
    sink = Sink()
    check_placements(amap, body, sink)
    # (2,0) is an obstacle; (0,0) is walled off; footprints of large figures are the quest pass's (Q0203)
    assert [(d.code, d.span.line) for d in sink.items] == [("M0220", 2), ("M0301", 0), ("M0302", 3)]
    assert "obstacle" in sink.items[0].message and "yard(0, 0) = (0, 0)" in sink.items[1].message


# --- the map pass's checks, case by case (docs/mutation.md: each case kills a mutant) ---

def _only(sink, code):
    return [d for d in sink.items if d.code == code]


def _at_column(t: ast.TilePlacement, line: int, column: int) -> ast.TilePlacement:
    return replace(t, span=Span("map.quest", line, column))


def test_one_square_overlap_is_an_overlap():
    # room covers x, y in 0..2, 9A covers 2..3: they share the one square (2, 2), area 1
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("9A", at=(2, 2)))
    (d,) = _only(sink, "M0209")
    assert d.message == "tiles `room` and `9A` overlap on 1 square(s) (area 1): (2, 2)"
    assert d.span.line == 2
    assert [(r.span.line, r.message) for r in d.related] == [(1, "`room` placed here")]


def test_overlap_after_a_pair_far_apart_or_touching_is_still_found():
    # the first pair (room, cap) is far apart, then touching along an edge: neither stops the
    # search for the overlap of room with wide, on (1..2, 1..2) listed row by row
    for cap in (tile("cap", at=(10, 10)), tile("cap", at=(0, -1), rotate=180)):
        _, sink = assemble(TILES, tile("room", at=(0, 0)), cap, tile("wide", at=(1, 1)))
        (d,) = _only(sink, "M0209")
        assert d.message == "tiles `room` and `wide` overlap on 4 square(s) (area 4): (1, 1), (2, 1), (1, 2), (2, 2)"
        assert d.span.line == 3 and d.related[0].span.line == 1


def test_overlap_lists_at_most_eight_squares_row_by_row():
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("wide", at=(0, 0)))
    (d,) = _only(sink, "M0209")
    assert d.message == ("tiles `room` and `wide` overlap on 9 square(s) (area 9): "
                         "(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2) …")
    _, sink = assemble(TILES, tile("hall", at=(0, 0)), tile("hall", name="h2", at=(0, 0)))
    (d,) = _only(sink, "M0209")  # eight squares: all shown, no ellipsis
    assert d.message == ("tiles `hall` and `h2` overlap on 8 square(s) (area 8): "
                         "(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1), (2, 1), (3, 1)")


def test_outdoor_and_dungeon_message_and_place():
    # the 1st-edition rule (M0210): the two families never share a map
    # reported where the later of the two families starts: here the dungeon tile, line 2
    _, sink = assemble(TILES, tile("glade", at=(0, 0)), tile("9A", at=(5, 5)), ruleset="d1e")
    (d,) = _only(sink, "M0210")
    assert d.message == "outdoor and dungeon pieces in one map: glade and 9A" and d.span.line == 2
    # the other way round: the outdoor tile, line 2
    _, sink = assemble(TILES, tile("9A", at=(5, 5)), tile("glade", at=(0, 0)), tile("glade", name="g2", at=(9, 9)), ruleset="d1e")
    (d,) = _only(sink, "M0210")
    assert d.message == "outdoor and dungeon pieces in one map: glade and 9A" and d.span.line == 2
    # g2, a second copy of a one-copy piece, is that error alone (M0212), not also a face out of place
    assert [x.span.line for x in _only(sink, "M0212")] == [3]
    # both first on one line: the outdoor one
    _, sink = assemble(TILES, _at_column(tile("9A", at=(5, 5)), 3, 1), _at_column(tile("glade", at=(0, 0)), 3, 20), ruleset="d1e")
    (d,) = _only(sink, "M0210")
    assert (d.span.line, d.span.column) == (3, 20)
    # an end cap is neither: no M0210 beside an outdoor piece
    _, sink = assemble(TILES, tile("glade", at=(0, 0)), tile("cap", at=(5, 5)), ruleset="d1e")
    assert _only(sink, "M0210") == []


def test_two_faces_of_one_piece_place_and_related():
    _, sink = assemble(TILES, tile("9A", at=(0, 0)), tile("9B", attach=("north", "9A.south")))
    (d,) = _only(sink, "M0213")
    assert d.message == "9A and 9B are the two faces of one piece `9` and cannot both be in one map"
    assert d.span.line == 2
    assert [(r.span.line, r.message) for r in d.related] == [(1, "`9A` placed here")]


def test_too_many_copies_place_and_message():
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("cap", attach=("north", "room.north")),
                       tile("cap", name="c2", attach=("north", "room.east")), tile("cap", name="c3", at=(10, 10)))
    (d,) = _only(sink, "M0212")
    assert d.message == "piece `cap` is used 3 times (cap, c2, c3), the box holds 2"
    assert d.span.line == 4  # the use over the count


def test_assemble_placed_joins_openings_that_meet_and_has_no_doors():
    from compiler.geometry.assemble import PlacedTile, assemble_placed
    from maphelp import TERRAIN

    # the dealt table of the layout image: room at (0, 0), cap turned over its north opening
    room = PlacedTile("room", TILES["room"], (0, 0), 0)
    cap = PlacedTile("cap", TILES["cap"], (0, -1), 180)
    amap = assemble_placed([room, cap], TERRAIN)
    assert amap.tiles == (room, cap)
    (join,) = amap.joins
    assert (join.a, join.b, join.attached) == ("room", "cap", False)
    assert join.edges == {edge((0, 0), (1, 0)), edge((1, 0), (2, 0))}
    assert list(amap.tile_graph.edges) == [("room", "cap")]
    assert amap.board.spaces == ((0, -1), (1, -1), (0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2))
    assert amap.board.doors == ()
    walls = amap.board.walls
    assert edge((0, 0), (1, 0)) not in walls and edge((2, 0), (3, 0)) in walls
    assert len(walls) == 14  # the outline: 3 + 3 + 3 + 1 (room's top right) + 2 + 2 (cap's top and ends)


def test_tile_graph_carries_each_tile_and_join():
    amap, sink = assemble(TILES, tile("room", at=(0, 0)), tile("hall", attach=("west", "room.east")),
                          tile("glade", at=(20, 20), hidden=True))
    assert dict(amap.tile_graph.nodes(data=True)) == {
        "room": {"code": "room", "at": (0, 0), "rotation": 0, "hidden": False, "kind": "dungeon"},
        "hall": {"code": "hall", "at": (3, 1), "rotation": 0, "hidden": False, "kind": "dungeon"},
        "glade": {"code": "glade", "at": (20, 20), "rotation": 0, "hidden": True, "kind": "outdoor"},
    }
    assert list(amap.tile_graph.edges(data=True)) == [
        ("room", "hall", {"a_opening": "east", "b_opening": "west", "attached": True, "door": None}),
    ]


def test_board_without_a_terrain_table_is_plain():
    from compiler.catalogs.terrain import PLAIN
    from compiler.geometry.assemble import PlacedTile, assemble_placed

    amap = assemble_placed([PlacedTile("9A", TILES["9A"], (0, 0), 0)], {})
    assert amap.board.terrain == ("plain",) * 4
    assert dict(amap.board.rules) == {"plain": PLAIN}


def test_describe_names_a_space_in_both_frames():
    amap, _ = assemble(TILES, tile("room", at=(0, 0)), tile("hall", attach=("west", "room.east")))
    assert amap.describe((4, 2)) == "hall(1, 1) = (4, 2)"
    assert amap.describe((2, 0)) == "room(2, 0) = (2, 0)"
    assert amap.describe((7, 3)) == "(7, 3)"  # no tile there


def test_placed_tile_frames_with_unequal_offsets():
    from compiler.geometry.assemble import PlacedTile

    t = PlacedTile("room", TILES["room"], (5, 2), 0)
    assert t.to_world((0, 0)) == (5, 2) and t.to_world((2, 1)) == (7, 3)
    assert t.to_local((6, 3)) == (1, 1) and t.to_local((7, 4)) == (2, 2)
    assert t.to_local((8, 2)) is None


def test_board_of_unknown_symbols_are_plain_and_door_edges_are_never_walls():
    from compiler.geometry.assemble import PlacedTile, board_of
    from compiler.geometry.board import Door

    pool = catalog({"pool": {"kind": "dungeon", "grid": "~.\n..\n", "openings": {"north": [0]}}})["pool"]
    placed = [PlacedTile("pool", pool, (0, 0), 0)]
    # no terrain table: the water symbol is unknown, so plain
    assert board_of(placed, [], [], {}).terrain == ("plain",) * 4
    # a door handed to board_of on the tile's top border: that edge is no wall (it blocks as a door)
    top = edge((0, 0), (1, 0))
    b = board_of(placed, [], [Door("d", frozenset({top}))], {})
    assert top not in b.walls and edge((1, 0), (2, 0)) in b.walls
    assert len(b.walls) == 7 and top in b.blocking_edges()


def test_assembled_map_space_of_each_reference():
    marks = [ast.MarkDecl("altar", ast.TileSpace("Lroom", 2, 1, span(9)), span(9))]
    amap, _ = assemble(TILES, tile("Lroom", at=(5, 5), rotate=90), marks=marks)
    assert amap.space(ast.MarkRef("altar")) == (5, 7)
    assert amap.space(ast.MarkRef("nowhere")) is None
    assert amap.space(ast.WorldSpace(6, 6)) == (6, 6)
    assert amap.space(ast.WorldSpace(6, 7)) is None  # printed (2, 0) of Lroom has no square
    assert amap.space(ast.TileSpace("Lroom", 1, 0)) == (6, 6)
    assert amap.space(ast.TileSpace("Lroom", 2, 1)) == (5, 7)
    assert amap.space(ast.TileSpace("Lroom", 2, 0)) is None  # not a square of the tile
    assert amap.space(ast.TileSpace("Lrom", 0, 0)) is None  # no such tile


def test_outdoor_and_dungeon_lists_every_dungeon_tile():
    _, sink = assemble(TILES, tile("glade", at=(0, 0)), tile("9A", at=(5, 5)), tile("room", at=(9, 9)), ruleset="d1e")
    (d,) = _only(sink, "M0210")
    assert d.message == "outdoor and dungeon pieces in one map: glade and 9A, room"


def test_two_faces_and_a_third_use_of_one_piece():
    # 9A, 9B, then 9A again: reported on the last use, the first two shown as related
    _, sink = assemble(TILES, tile("9A", at=(0, 0)), tile("9B", at=(5, 0)), tile("9A", name="again", at=(10, 0)))
    (d,) = _only(sink, "M0213")
    assert d.message == "9A and 9B are the two faces of one piece `9` and cannot both be in one map"
    assert d.span.line == 3
    assert [(r.span.line, r.message) for r in d.related] == [(1, "`9A` placed here"), (2, "`9B` placed here")]


def test_a_tile_overlapping_two_earlier_tiles_is_reported_once():
    # room (0..2, 0..2) and r2 (4..6, 0..2) lie apart; hall (2..5, 0..1) overlaps both. The
    # later tile's placement is the one mistake: one M0209, for the first tile it overlaps
    _, sink = assemble(TILES, tile("room", at=(0, 0)), tile("room", name="r2", at=(4, 0)), tile("hall", at=(2, 0)))
    (d,) = _only(sink, "M0209")
    assert d.message.startswith("tiles `room` and `hall` overlap on 2 square(s)") and d.span.line == 3


def test_only_the_last_use_over_the_count_is_left_out_of_the_face_check():
    # three copies of a one-copy outdoor piece beside a dungeon one (1st edition): M0212 is
    # reported at the third, which is then left out of M0210; the second is still listed
    _, sink = assemble(TILES, tile("glade", at=(0, 0)), tile("glade", name="g2", at=(9, 9)),
                       tile("glade", name="g3", at=(20, 20)), tile("9A", at=(5, 5)), ruleset="d1e")
    assert [x.span.line for x in _only(sink, "M0212")] == [3]
    (d,) = _only(sink, "M0210")
    assert d.message == "outdoor and dungeon pieces in one map: glade, g2 and 9A"


def test_a_placed_tiles_opening_edges_are_its_turned_edges_moved_to_where_it_lies():
    """PlacedTile.opening_edges takes the turned tile's edges (worked out once per rotation)
    and moves them; it must equal turning and moving each edge, on every shipped tile."""
    from compiler.geometry.assemble import PlacedTile
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    tiles = compile_paths([str(REPO / "content" / "d2e-base")], Options()).model.tiles
    checked = 0
    for t in tiles.values():
        for rotation in (0, 90, 180, 270, -90, 450):
            for at in ((0, 0), (3, -7), (-5, 11)):
                placed = PlacedTile("x", t, at, rotation)
                for op in t.all_openings():
                    assert placed.opening_edges(op) == frozenset(placed.world_edge(e) for e in t.opening_edges(op))
                    checked += 1
    assert checked > 1000
