"""Hazards as values: what a boulder, a crushing wall or a trap can reach on a board
(docs/maps.md, "Hazards"; docs/rules.md, "Hazards").

A hazard is a terrain of the catalog with a `hazard:` entry, laid on squares like a marker.
A *lane* hazard (boulder, crushing wall) moves from its squares the way it faces, its whole
footprint one square at a time, until a wall, a closed door, the map's edge or another
hazard stops it (`sweep`); a boulder also ends in a pit that holds its whole footprint. An
*area* hazard (a trap) strikes its own squares when a figure steps on a trigger square.
`Hazard.reach` is every square it can strike; the maps pass's checks (compiler/passes/hazards.py)
compare it with hero starts, spawns and the routes to objectives. This module reports nothing.
"""

from __future__ import annotations

from typing import AbstractSet

from compiler import frozen
from compiler.geometry.board import Board
from compiler.geometry.lattice import Cell, Edge, shared_edge

STEP = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


@frozen
class Hazard:
    kind: str  # its terrain id
    reach_kind: str  # lane | area
    cells: tuple[Cell, ...]  # its own squares, sorted by (y, x)
    facing: str = ""  # world side a lane runs towards; "" for an area, or a lane written square by square
    lane: tuple[Cell, ...] = ()  # the squares a lane sweeps beyond its own, in the order it reaches them
    stop: str = ""  # why a lane ends: wall | door | edge | hazard | pit | given (written out)
    trigger: tuple[Cell, ...] = ()  # an area's trigger squares, sorted (its own squares when none is written)

    @property
    def reach(self) -> tuple[Cell, ...]:
        """Every square it can strike: its own, its lane's, sorted by (y, x)."""
        return tuple(sorted(set(self.cells) | set(self.lane), key=lambda c: (c[1], c[0])))


def sweep(board: Board, cells: tuple[Cell, ...], facing: str, others: AbstractSet[Cell],
          stops_in_pit: bool, openings: AbstractSet[Edge] = frozenset()) -> tuple[tuple[Cell, ...], str]:
    """The squares a lane hazard standing on `cells` sweeps moving towards `facing` (a world
    side), in order, and why it stops: `wall` (a wall or the map's outline), `door` (a closed
    door), `edge` (off the map through an opening nothing joins: an edge of `openings`, the
    placed tiles' opening edges), `hazard` (a square of
    another hazard in `others`), `pit` (a boulder falling into a pit that holds it whole: the
    pit's squares are swept, then it ends)."""
    dx, dy = STEP[facing]
    walls = board.walls
    blocking = board.blocking_edges()
    index = board.index
    swept: list[Cell] = []
    seen = set(cells)
    here = list(cells)
    for _ in range(len(board.spaces) + 1):  # a straight run cannot be longer than the board
        ahead = [(x + dx, y + dy) for x, y in here]
        for a, b in zip(here, ahead):
            if b in seen:  # a square of its own footprint: that edge is inside it
                continue
            e = shared_edge(a, b)
            if e in walls:
                return tuple(swept), "edge" if e in openings and b not in index else "wall"
            if e in blocking:
                return tuple(swept), "door"
            if b not in index:
                return tuple(swept), "edge"
            if b in others:
                return tuple(swept), "hazard"
        fresh = [b for b in ahead if b not in seen]
        swept.extend(sorted(fresh, key=lambda c: (c[1], c[0])))
        seen.update(fresh)
        here = ahead
        if stops_in_pit and all(board.rule(b).sight == "pit_region" or board.rule(b).id == "pit" for b in here):
            return tuple(swept), "pit"
    return tuple(swept), "wall"  # unreachable: every straight run meets the map's end


def step_problem(board: Board, a: Cell, b: Cell) -> str:
    """Why a lane written square by square cannot go from `a` to `b` in one step; "" when it can."""
    if b not in board.index:
        return "it is not a square of the map"
    if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
        return "it is not next to the square before it (a lane moves one square north, east, south or west at a time)"
    e = shared_edge(a, b)
    if e in board.walls:
        return "a wall stands between them"
    if e in board.blocking_edges():
        return "a closed door stands between them"
    return ""
