"""The Board: the plain value every map question is answered from.

Assembly (`compiler/geometry/assemble.py`) builds it from placed tiles; sight, the space
graph, rendering and the bundle read it. It knows nothing of tiles' names beyond the
per-space tile label, and nothing of figures (runtime state is passed to queries).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Mapping

from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.lattice import NEIGHBOURS8, Cell, Edge, step_open


@dataclass(frozen=True)
class Door:
    id: str
    edges: frozenset[Edge]
    open: bool = False
    colour: str | None = None


@dataclass(frozen=True)
class Link:
    """A special connection between two groups of spaces.

    kind: stairs (movement and sight), end_cap / gateway (movement only).
    Each space of `a` is linked to each space of `b`.
    """

    kind: str
    a: tuple[Cell, ...]
    b: tuple[Cell, ...]


@dataclass(frozen=True)
class Board:
    spaces: tuple[Cell, ...]  # sorted by (y, x): the index order of the bundle
    terrain: tuple[str, ...]  # terrain id per space, aligned with `spaces`
    rules: Mapping[str, TerrainRule] = field(default_factory=lambda: MappingProxyType({"plain": PLAIN}))
    walls: frozenset[Edge] = frozenset()  # every wall edge, boundary to non-spaces included; doors excluded
    doors: tuple[Door, ...] = ()
    links: tuple[Link, ...] = ()

    def __post_init__(self) -> None:
        if list(self.spaces) != sorted(self.spaces, key=lambda c: (c[1], c[0])):
            raise ValueError("Board.spaces must be sorted by (y, x)")
        if len(self.terrain) != len(self.spaces):
            raise ValueError("Board.terrain must align with Board.spaces")

    # Derived views are computed on demand; the Board itself stays a plain value. The index
    # is computed once per board (`rule(cell)` in a loop over the spaces was quadratic).
    @cached_property
    def index(self) -> dict[Cell, int]:
        return {c: i for i, c in enumerate(self.spaces)}

    @cached_property
    def steps(self) -> tuple[tuple[Cell, Cell, frozenset[str]], ...]:
        """`steps_of(self)`, worked out once per board: every movement, counting and
        reachability question starts from it."""
        return steps_of(self)

    def rule(self, cell_or_index) -> TerrainRule:
        i = cell_or_index if isinstance(cell_or_index, int) else self.index[cell_or_index]
        return self.rules[self.terrain[i]]

    def blocking_edges(self, open_doors: frozenset[str] | None = None) -> frozenset[Edge]:
        """Walls plus the edges of every closed door (`open_doors` overrides the start state)."""
        closed = [
            d.edges
            for d in self.doors
            if not (d.id in open_doors if open_doors is not None else d.open)
        ]
        return self.walls.union(*closed) if closed else self.walls

    def with_doors(self, open_doors: frozenset[str]) -> "Board":
        """The same board with exactly `open_doors` open."""
        doors = tuple(Door(d.id, d.edges, d.id in open_doors, d.colour) for d in self.doors)
        return Board(self.spaces, self.terrain, self.rules, self.walls, doors, self.links)


def steps_of(board: Board) -> tuple[tuple[Cell, Cell, frozenset[str]], ...]:
    """Every step between 8-neighbour spaces the walls allow (lattice.step_open), with the
    doors that must be open for it; terrain is left to the graphs that read it
    (compiler/geometry/graph.py)."""
    cells = set(board.spaces)
    closed_all = board.blocking_edges(frozenset())
    door_walls = {d.id: board.walls | d.edges for d in board.doors}
    out = []
    for a in board.spaces:
        for dx, dy in NEIGHBOURS8:
            b = (a[0] + dx, a[1] + dy)
            if b not in cells or not step_open(board.walls, a, b):
                continue
            needed: frozenset[str] = frozenset()
            if board.doors and not step_open(closed_all, a, b):
                needed = frozenset(d for d, w in door_walls.items() if not step_open(w, a, b))
            out.append((a, b, needed))
    return tuple(out)
