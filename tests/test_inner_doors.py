"""Doors inside a tile (issue 32): `door NAME on TILE(c,r).SIDE` stands across the tile's own
edge on SIDE of square (c, r) and of the next square along, as published quests place a
door across a narrow neck or mid-corridor; closed, it stops movement and sight like any door."""

from __future__ import annotations

from compiler.geometry import graph
from compiler.geometry.sight import SightEngine
from compiler.syntax import ast
from compiler.syntax.format import format_source, same_meaning
from compiler.syntax.parse import parse_module
from compiler.diagnostics import Sink
from quest_helpers import codes, quest, resolved, run

# 27B: a corridor two squares wide and four long, openings east (rows 2-3) and west (rows 0-1)
NECK = """
  map {
    tile 27B at (0, 0)
    edge 27B.east, 27B.west
    door gate on 27B(0,1).south red
  }
  start heroes at (0, 0)
  on open gate { say "Through." }
"""


def board_of(text: str):
    model, sink = run(quest(text))
    return resolved(model).encounters[0].map.board, sink


def test_parses_keeps_the_square_and_formats_canonically():
    sink = Sink()
    module = parse_module(quest(NECK), "q.quest", sink)
    assert sink.items == []
    (d,) = module.declarations[0].encounters[0].body.map.doors
    assert (d.name, d.colour, d.on.tile, d.on.side, d.on.index) == ("gate", "red", "27B", "south", -1)
    assert d.inside == ast.TileSpace("27B", 0, 1, d.inside.span)
    messy = quest(NECK).replace("27B(0,1).south", "27B( 0 , 1 ) . south")
    assert format_source(messy) == quest(NECK) and same_meaning(messy, quest(NECK))


def test_a_door_across_the_corridor_stops_movement_and_sight_until_opened():
    board, sink = board_of(NECK)
    assert codes(sink) == []
    (door,) = board.doors
    assert door.edges == frozenset({((0, 2), (1, 2)), ((1, 2), (2, 2))})  # below row 1, both columns
    assert graph.cheapest_move(board, (0, 0), (0, 3)) is None
    route = graph.cheapest_move(board, (0, 0), (0, 3), open_doors=["gate"])
    assert route is not None and route.cost == 3
    sight = SightEngine(board)
    assert not sight.can_see((0, 0), (1, 3)) and not sight.can_see((0, 1), (0, 2))
    assert sight.can_see((0, 0), (1, 3), open_doors=frozenset({"gate"}))
    assert sight.can_see((0, 0), (1, 1))  # the same side of the door


def test_a_turned_tile_turns_its_inner_door():
    board, sink = board_of(NECK.replace("tile 27B at (0, 0)", "tile 27B at (0, 0) rotate 90"))
    assert codes(sink) == []
    (door,) = board.doors
    # turned a quarter clockwise the corridor runs east-west: the door is the vertical line x = 2
    assert door.edges == frozenset({((2, 0), (2, 1)), ((2, 1), (2, 2))})
    assert graph.cheapest_move(board, (0, 0), (3, 0)) is None


def test_a_neck_one_square_wide_gets_the_one_edge():
    # 26B: "-..-" above two full rows; below (2,0) is a square, beside it (3,0) is not
    text = NECK.replace("tile 27B at (0, 0)", "tile 26B at (0, 0)").replace("edge 27B.east, 27B.west", "edge 26B.north, 26B.south") \
        .replace("27B(0,1).south", "26B(2,0).south").replace("start heroes at (0, 0)", "start heroes at (1, 0)")
    board, sink = board_of(text)
    assert codes(sink) == []
    assert board.doors[0].edges == frozenset({((2, 1), (3, 1))})


def test_on_the_outline_or_off_the_tile_is_located():
    _, sink = board_of(NECK.replace("27B(0,1).south", "27B(1,1).east"))
    assert codes(sink) == ["M0244"]
    assert "door gate on 27B.east" in (sink.items[0].fix or "") and sink.items[0].span.line == 7
    _, sink = board_of(NECK.replace("27B(0,1).south", "27B(5,1).south"))
    assert codes(sink) == ["M0216"]


def test_two_doors_on_the_same_inner_edges():
    together = NECK.replace("door gate on 27B(0,1).south red", "door gate on 27B(0,1).south red\n    door bars on 27B(0,1).south")
    assert "M0215" in codes(board_of(together)[1])
    swapped = NECK.replace("door gate on 27B(0,1).south red", "door gate on 27B(0,1).south red locked\n    door bars on 27B(0,1).south hidden") \
        .replace('on open gate { say "Through." }', 'on round_end 1 { remove door gate; place door bars }\n  on open bars { say "Through." }')
    assert codes(board_of(swapped)[1]) == []
