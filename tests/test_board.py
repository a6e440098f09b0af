"""The Board value (compiler/geometry/board.py): its invariants, terrain look-up and doors.

Hand-checked cases; each also kills mutants of docs/mutation.md.
"""

from __future__ import annotations

from types import MappingProxyType

import pytest

from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.board import Board, Door, Link

WATER = TerrainRule("water", "~", enter_cost=2)
WALL = ((1, 0), (1, 1))  # between (0, 0) and (1, 0)
DOOR_EDGE = ((0, 1), (1, 1))  # between (0, 0) and (0, 1)
EAST_DOOR = ((2, 0), (2, 1))  # between (1, 0) and (2, 0)


def board(doors=(), links=()) -> Board:
    return Board(
        spaces=((0, 0), (1, 0), (2, 0), (0, 1)),
        terrain=("plain", "water", "plain", "plain"),
        rules=MappingProxyType({"plain": PLAIN, "water": WATER}),
        walls=frozenset({WALL}),
        doors=tuple(doors),
        links=tuple(links),
    )


def test_spaces_must_be_in_row_order():
    with pytest.raises(ValueError, match=r"^Board\.spaces must be sorted by \(y, x\)$"):
        Board(spaces=((1, 0), (0, 0)), terrain=("plain", "plain"))
    # (1, 0) is on row 0, so it comes before (0, 1) although its x is larger
    with pytest.raises(ValueError, match=r"sorted by \(y, x\)"):
        Board(spaces=((0, 1), (1, 0)), terrain=("plain", "plain"))
    assert Board(spaces=((1, 0), (0, 1)), terrain=("plain", "plain")).spaces == ((1, 0), (0, 1))
    assert Board(spaces=(), terrain=()).spaces == ()


def test_terrain_must_align_with_spaces():
    with pytest.raises(ValueError, match=r"^Board\.terrain must align with Board\.spaces$"):
        Board(spaces=((0, 0), (1, 0)), terrain=("plain",))
    with pytest.raises(ValueError, match=r"must align"):
        Board(spaces=((0, 0),), terrain=("plain", "plain"))


def test_defaults():
    b = Board(spaces=((0, 0),), terrain=("plain",))
    assert dict(b.rules) == {"plain": PLAIN} and b.walls == frozenset() and b.doors == () and b.links == ()


def test_rule_by_space_or_index():
    b = board()
    assert b.rule((1, 0)) is WATER and b.rule(1) is WATER
    assert b.rule((0, 0)) is PLAIN and b.rule(0) is PLAIN
    assert b.rule((0, 1)) is PLAIN and b.rule(3) is PLAIN
    assert b.index == {(0, 0): 0, (1, 0): 1, (2, 0): 2, (0, 1): 3}


def test_blocking_edges_add_closed_doors():
    shut = Door("d1", frozenset({DOOR_EDGE}))
    ajar = Door("d2", frozenset({EAST_DOOR}), open=True)
    b = board(doors=(shut, ajar))
    assert b.blocking_edges() == {WALL, DOOR_EDGE}  # d1 starts closed, d2 open
    assert b.blocking_edges(frozenset({"d1", "d2"})) == {WALL}
    assert b.blocking_edges(frozenset()) == {WALL, DOOR_EDGE, EAST_DOOR}
    assert b.blocking_edges(frozenset({"d1"})) == {WALL, EAST_DOOR}  # the override, not the start state
    assert board().blocking_edges() == {WALL}
    assert board(doors=(ajar,)).blocking_edges() == {WALL}


def test_with_doors_opens_exactly_those_named():
    shut = Door("d1", frozenset({DOOR_EDGE}), colour="red")
    ajar = Door("d2", frozenset({EAST_DOOR}), open=True, colour="blue")
    link = Link("stairs", ((0, 0),), ((2, 0),))
    b = board(doors=(shut, ajar), links=(link,))
    turned = b.with_doors(frozenset({"d1"}))
    assert turned.doors == (Door("d1", frozenset({DOOR_EDGE}), True, "red"),
                            Door("d2", frozenset({EAST_DOOR}), False, "blue"))
    assert (turned.spaces, turned.terrain, turned.rules, turned.walls, turned.links) == (
        b.spaces, b.terrain, b.rules, b.walls, b.links)
    assert turned.blocking_edges() == {WALL, EAST_DOOR}
    assert b.with_doors(frozenset()).blocking_edges() == {WALL, DOOR_EDGE, EAST_DOOR}
