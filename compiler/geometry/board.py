"""The Board: the plain value every map question is answered from.

Assembly (`compiler/geometry/assemble.py`) builds it from placed tiles; sight, the space
graph, rendering and the bundle read it. It knows nothing of tiles' names beyond the
per-space tile label, and nothing of figures (runtime state is passed to queries).
"""

from __future__ import annotations

from dataclasses import field
from functools import cached_property
from itertools import combinations
from types import MappingProxyType
from typing import Mapping

from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler import frozen
from compiler.geometry.lattice import NEIGHBOURS8, Cell, Edge, ray_edges, shared_edge, step_open

# The door states that let a step be taken: sets of door ids, the step possible while every
# door of at least one set is open.
Ways = tuple[frozenset[str], ...]
ALWAYS: Ways = (frozenset(),)  # a step no door can close


@frozen
class Door:
    id: str
    edges: frozenset[Edge]
    open: bool = False
    colour: str | None = None
    locked: bool = False  # heroes cannot open it until an event unlocks it (docs/language.md, "Doors")
    hidden: bool = False  # off the board at the start: its place is open until an event places it

    @property
    def open_at_start(self) -> bool:
        """Does its place let figures and sight through at the start (open, or not on the board)?"""
        return self.open or self.hidden


@frozen
class Link:
    """A special connection between two groups of spaces.

    kind: stairs (movement and sight), end_cap / gateway (movement only).
    Each space of `a` is linked to each space of `b`.
    """

    kind: str
    a: tuple[Cell, ...]
    b: tuple[Cell, ...]


@frozen
class Line:
    """A line along square edges (2nd-edition elevation; docs/maps.md, "Lines"): a step
    that crosses it costs `cross_cost` more. It crosses when the line would stop the step
    were it a wall (`lattice.step_open`): the shared edge of an orthogonal step, the corner
    rule of a diagonal one."""

    kind: str
    edges: frozenset[Edge]
    cross_cost: int = 0
    colour: str = "#e07b00"  # how pictures draw it (the lines catalog's `colour`)

    def crosses(self, a: Cell, b: Cell) -> bool:
        return not step_open(self.edges, a, b)


@frozen
class Board:
    spaces: tuple[Cell, ...]  # sorted by (y, x): the index order of the bundle
    terrain: tuple[str, ...]  # terrain id per space, aligned with `spaces`
    rules: Mapping[str, TerrainRule] = field(default_factory=lambda: MappingProxyType({"plain": PLAIN}))
    walls: frozenset[Edge] = frozenset()  # every wall edge, boundary to non-spaces included; doors excluded
    doors: tuple[Door, ...] = ()
    links: tuple[Link, ...] = ()
    lines: tuple[Line, ...] = ()  # elevation lines and the like: they change what a step costs

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
    def steps(self) -> tuple[tuple[Cell, Cell, Ways], ...]:
        """`steps_of(self)`, worked out once per board: every movement, counting and
        reachability question starts from it."""
        return steps_of(self)

    def rule(self, cell_or_index: int | Cell) -> TerrainRule:
        i = cell_or_index if isinstance(cell_or_index, int) else self.index[cell_or_index]
        return self.rules[self.terrain[i]]

    def blocking_edges(self, open_doors: frozenset[str] | None = None) -> frozenset[Edge]:
        """Walls plus the edges of every closed door (`open_doors` overrides the start state)."""
        closed = [
            d.edges
            for d in self.doors
            if not (d.id in open_doors if open_doors is not None else d.open_at_start)
        ]
        return self.walls.union(*closed) if closed else self.walls

    def with_doors(self, open_doors: frozenset[str]) -> "Board":
        """The same board with exactly `open_doors` open."""
        doors = tuple(Door(d.id, d.edges, d.id in open_doors, d.colour, d.locked) for d in self.doors)
        return Board(self.spaces, self.terrain, self.rules, self.walls, doors, self.links, self.lines)

    def crossing_cost(self, a: Cell, b: Cell) -> int:
        """Movement points a step from a to b pays for the lines it crosses (0 for none)."""
        return sum(line.cross_cost for line in self.lines if line.crosses(a, b)) if self.lines else 0


def steps_of(board: Board) -> tuple[tuple[Cell, Cell, Ways], ...]:
    """Every step between 8-neighbour spaces the walls allow (lattice.step_open), with the
    door states that let it be taken: `Ways`, one or more sets of doors, the step possible
    while every door of at least one set is open (`ALWAYS` when no door matters). A
    diagonal step with a door on each way round its corner has two (docs/rules.md, "Doors
    and the corner rule"). Terrain is left to the graphs that read it
    (compiler/geometry/graph.py)."""
    cells = set(board.spaces)
    closed_all = board.blocking_edges(frozenset())
    out = []
    for a in board.spaces:
        for dx, dy in NEIGHBOURS8:
            b = (a[0] + dx, a[1] + dy)
            if b not in cells or not step_open(board.walls, a, b):
                continue
            ways = ALWAYS
            if board.doors and not step_open(closed_all, a, b):
                ways = _ways(board, a, b)
            out.append((a, b, ways))
    return tuple(out)


def _ways(board: Board, a: Cell, b: Cell) -> Ways:
    """The smallest sets of doors whose opening (the others closed) lets a step the walls
    allow be taken: doors on the edges the step is judged on (the shared edge, or the four
    rays round a diagonal's corner), smaller sets first, then by their sorted ids."""
    if a[0] == b[0] or a[1] == b[1]:
        judged = {shared_edge(a, b)}
    else:
        judged = set(ray_edges((max(a[0], b[0]), max(a[1], b[1]))).values())
    near = sorted((d for d in board.doors if d.edges & judged), key=lambda d: d.id)
    found: list[frozenset[str]] = []
    for size in range(len(near) + 1):
        for opened in combinations(near, size):
            ids = frozenset(d.id for d in opened)
            if any(f <= ids for f in found):
                continue
            closed = board.walls.union(*(d.edges for d in near if d.id not in ids))
            if step_open(closed, a, b):
                found.append(ids)
    return tuple(found)
