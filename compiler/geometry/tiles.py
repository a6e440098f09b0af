"""Tiles: the printed map pieces, read from `tiles:` catalogs, and their rotations.

A tile is a grid of squares in its own printed frame: local `(col, row)`, `(0, 0)` the
top-left square of its bounding box of squares (docs/rules.md, "Coordinates"). Openings are
runs of edge squares on one side (north/east/south/west of the *unrotated* tile),
indexed per side in ascending offset order (left to right on north/south, top to
bottom on east/west), so `9A.north.1` is the second opening from the left.

Rotation is in quarter turns clockwise on the page, re-anchored so the rotated
bounding box's top-left square is `(0, 0)` again. One clockwise quarter turn of a
`w x h` tile maps square `(c, r)` to `(h-1-r, c)` and lattice point `(px, py)` to
`(h-py, px)`; the side that faced north faces east.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

from compiler import frozen
from compiler.geometry.lattice import Cell, Edge, Point, edge

SIDES = ("north", "east", "south", "west")
NO_SQUARE = "-"
DEFAULT_WIDTH = 2
KINDS = ("dungeon", "outdoor", "end_cap", "extender", "entrance", "exit", "transition")

# the outward unit normal of each side (y grows down)
DIRECTION = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}
OPPOSITE = {"north": "south", "south": "north", "east": "west", "west": "east"}


def turns(rotation: int) -> int:
    """Quarter turns clockwise for a rotation in degrees (a multiple of 90)."""
    return (rotation // 90) % 4


def rotate_side(side: str, rotation: int) -> str:
    """The world direction a side faces after `rotation` degrees clockwise."""
    return SIDES[(SIDES.index(side) + turns(rotation)) % 4]


def rotate_cell(cell: Cell, size: tuple[int, int], rotation: int) -> Cell:
    """A square of a `size = (w, h)` tile after `rotation` degrees clockwise (re-anchored)."""
    c, r = cell
    w, h = size
    for _ in range(turns(rotation)):
        c, r = h - 1 - r, c
        w, h = h, w
    return (c, r)


def rotate_point(p: Point, size: tuple[int, int], rotation: int) -> Point:
    """A lattice point of a `size = (w, h)` tile after `rotation` degrees clockwise."""
    px, py = p
    w, h = size
    for _ in range(turns(rotation)):
        px, py = h - py, px
        w, h = h, w
    return (px, py)


def rotated_size(size: tuple[int, int], rotation: int) -> tuple[int, int]:
    w, h = size
    return (h, w) if turns(rotation) % 2 else (w, h)


@frozen
class Opening:
    side: str  # in the unrotated frame
    index: int  # 0-based, ascending offset along the side
    offset: int
    width: int = DEFAULT_WIDTH

    @property
    def label(self) -> str:
        return self.side if self.index == 0 else f"{self.side}.{self.index}"


@dataclass(frozen=True, eq=False)
class Tile:
    id: str
    kind: str
    piece: str
    copies: int
    width: int
    height: int
    squares: Mapping[Cell, str]  # local cell -> terrain symbol, every square of the tile
    openings: Mapping[str, tuple[Opening, ...]]  # side -> openings in index order
    walls: frozenset[Edge] = frozenset()  # printed walls inside the tile, local lattice edges
    name: str | None = None
    notes: str | None = None
    grid: tuple[str, ...] = field(default=(), compare=False)
    setting: str | None = None  # outdoor | indoor | both, as the catalog gives it
    valkyrie: str | None = None  # the Valkyrie app's tile side name
    source: str | None = None  # a citation, or "illustrative" when the shape is the project's own
    edition: str | None = None  # the ruleset of the pack that defines the tile (d1e, d2e)

    @property
    def face(self) -> str | None:
        """outdoor | indoor | both, or None for a neutral piece (docs/maps.md, "Faces"): the
        catalog's `setting`, else what the kind says (outdoor, dungeon = indoor, transition =
        both). In the 1st edition exit pieces are outdoor pieces."""
        if self.setting is not None:
            return self.setting
        if self.kind == "exit" and self.edition == "d1e":
            return "outdoor"
        return {"outdoor": "outdoor", "dungeon": "indoor", "transition": "both"}.get(self.kind)

    @property
    def size(self) -> tuple[int, int]:
        return (self.width, self.height)

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(sorted(self.squares, key=lambda c: (c[1], c[0])))

    def opening(self, side: str, index: int = 0) -> Opening | None:
        ops = self.openings.get(side, ())
        return ops[index] if 0 <= index < len(ops) else None

    def all_openings(self) -> tuple[Opening, ...]:
        return tuple(o for s in SIDES for o in self.openings.get(s, ()))

    def opening_cells(self, op: Opening) -> tuple[Cell, ...]:
        """The tile's edge squares the opening runs along, in offset order (local frame)."""
        if op.side == "north":
            return tuple((op.offset + i, 0) for i in range(op.width))
        if op.side == "south":
            return tuple((op.offset + i, self.height - 1) for i in range(op.width))
        if op.side == "west":
            return tuple((0, op.offset + i) for i in range(op.width))
        return tuple((self.width - 1, op.offset + i) for i in range(op.width))

    def opening_edges(self, op: Opening) -> tuple[Edge, ...]:
        """The unit edges of the opening on the tile's border (local lattice)."""
        out = []
        for c, r in self.opening_cells(op):
            if op.side == "north":
                out.append(edge((c, r), (c + 1, r)))
            elif op.side == "south":
                out.append(edge((c, r + 1), (c + 1, r + 1)))
            elif op.side == "west":
                out.append(edge((c, r), (c, r + 1)))
            else:
                out.append(edge((c + 1, r), (c + 1, r + 1)))
        return tuple(out)

    @cached_property
    def _turned(self) -> dict[int, tuple[tuple[Cell, Cell], ...]]:
        """What `turned_cells` worked out, by rotation."""
        return {}

    @cached_property
    def _turned_edges(self) -> dict[tuple[int, Opening], tuple[Edge, ...]]:
        """What `turned_opening_edges` worked out, by rotation and opening."""
        return {}

    def turned_cells(self, rotation: int) -> tuple[tuple[Cell, Cell], ...]:
        """(square in the rotated frame, printed square) for every square, in catalog
        order; worked out once per rotation (placing the same tile again is common)."""
        hit = self._turned.get(rotation)
        if hit is None:
            o = self.orient(rotation)
            hit = self._turned[rotation] = tuple((o.cell(c), c) for c in self.squares)
        return hit

    def turned_opening_edges(self, rotation: int, op: Opening) -> tuple[Edge, ...]:
        """`orient(rotation).opening_edges(op)`, worked out once per rotation and opening
        (the deck analysis places the same tiles hundreds of times)."""
        key = (rotation, op)
        hit = self._turned_edges.get(key)
        if hit is None:
            hit = self._turned_edges[key] = tuple(sorted(self.orient(rotation).opening_edges(op)))
        return hit

    def orient(self, rotation: int) -> "Orientation":
        return Orientation(self, turns(rotation) * 90)


@frozen
class Orientation:
    """A tile turned `rotation` degrees clockwise, re-anchored at (0, 0)."""

    tile: Tile
    rotation: int

    @property
    def size(self) -> tuple[int, int]:
        return rotated_size(self.tile.size, self.rotation)

    def cell(self, local: Cell) -> Cell:
        return rotate_cell(local, self.tile.size, self.rotation)

    def local(self, rotated: Cell) -> Cell:
        """Inverse of `cell`: the printed (col, row) of a rotated square."""
        back = (360 - self.rotation) % 360
        return rotate_cell(rotated, self.size, back)

    def point(self, p: Point) -> Point:
        return rotate_point(p, self.tile.size, self.rotation)

    def edge(self, e: Edge) -> Edge:
        return edge(self.point(e[0]), self.point(e[1]))

    def side(self, side: str) -> str:
        return rotate_side(side, self.rotation)

    def opening_edges(self, op: Opening) -> frozenset[Edge]:
        return frozenset(self.edge(e) for e in self.tile.opening_edges(op))
