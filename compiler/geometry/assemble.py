"""Map assembly: a `map { … }` block + the tile catalog -> placed tiles and a Board.

The rules (docs/rules.md, "Walls, openings and doors"):
- `tile T at (x, y) rotate R` puts the rotated tile's top-left square at world (x, y);
  `tile T [rotate R] attach SIDE to OTHER.SIDE[.N]` turns T so its opening faces the
  other one (the one rotation that does; a given rotation must be that one) and slides
  it so the two openings' edges coincide.
- Any two openings whose edges coincide after placement are joined, attached or not.
- Every edge between a space and a non-space, between two tiles not joined through
  openings, or printed inside a tile, is a wall. Doors sit on joins; their edges are
  not walls but block while the door is closed (Board.blocking_edges).
- Overlap (shapely footprints), mixing outdoor and dungeon pieces, a map in several
  parts and using a piece more often than the box holds are errors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Iterable, Mapping

import networkx as nx
import shapely

from compiler import frozen
from compiler.diagnostics import Span
from compiler.geometry.board import Board, Door
from compiler.geometry.features import NO_FEATURES, MapFeatures
from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.lattice import Cell, Edge, cell_edges, edge
from compiler.geometry.tiles import SIDES, Opening, Orientation, Tile
from compiler.syntax import ast

# `tile T at (x, y)`: farther than this from the origin is M0222 (a map is a table top;
# sight tables and images are dense over the map's bounding box).
MAX_COORDINATE = 1000
# A map with more spaces than this gets no static sight table (M0223): the table is
# quadratic in the spaces (the largest real map has about 100).
MAX_SIGHT_SPACES = 2000


@dataclass(frozen=True, eq=False)
class PlacedTile:
    """One tile on the map: catalog tile `code` under the map-local `name`."""

    name: str
    tile: Tile
    at: Cell  # world position of the rotated tile's top-left square
    rotation: int  # degrees clockwise
    hidden: bool = False
    span: Span = ast.NOWHERE

    @property
    def code(self) -> str:
        return self.tile.id

    @cached_property
    def orientation(self) -> Orientation:
        return self.tile.orient(self.rotation)

    def to_world(self, local: Cell) -> Cell:
        c, r = self.orientation.cell(local)
        return (c + self.at[0], r + self.at[1])

    def to_local(self, world: Cell) -> Cell | None:
        """The printed (col, row) of a world space, or None when the tile has no square there."""
        local = self.orientation.local((world[0] - self.at[0], world[1] - self.at[1]))
        return local if local in self.tile.squares else None

    @cached_property
    def local_of(self) -> dict[Cell, Cell]:
        """world cell -> printed (col, row), for every square of the tile."""
        ax, ay = self.at
        return {(c + ax, r + ay): local for (c, r), local in self.tile.turned_cells(self.rotation)}

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(sorted(self.local_of, key=lambda c: (c[1], c[0])))

    def world_edge(self, e: Edge) -> Edge:
        (p, q) = self.orientation.edge(e)
        ax, ay = self.at
        return edge((p[0] + ax, p[1] + ay), (q[0] + ax, q[1] + ay))

    def opening_edges(self, op: Opening) -> frozenset[Edge]:
        # the turned tile's edges moved to `at` (a move keeps each edge's endpoints sorted)
        ax, ay = self.at
        return frozenset(((p[0] + ax, p[1] + ay), (q[0] + ax, q[1] + ay)) for p, q in self.tile.turned_opening_edges(self.rotation, op))

    def facing(self, op: Opening) -> str:
        return self.orientation.side(op.side)

    @cached_property
    def footprint(self) -> shapely.Geometry:
        """The union of the tile's squares (every box made in one call)."""
        xs = [x for x, _ in self.local_of]
        ys = [y for _, y in self.local_of]
        return shapely.union_all(shapely.box(xs, ys, [x + 1 for x in xs], [y + 1 for y in ys]))


@frozen
class Join:
    """Two openings whose edges coincide: the squares on either side are adjacent."""

    a: str
    a_opening: Opening
    b: str
    b_opening: Opening
    edges: frozenset[Edge]
    attached: bool = False  # written as `attach`, rather than found after free placement

    def touches(self, name: str, op: Opening) -> bool:
        return (self.a, self.a_opening) == (name, op) or (self.b, self.b_opening) == (name, op)


@frozen
class AssembledMap:
    """One assembled map: a value like every other, built once by the maps pass
    (compiler/passes/maps.py builds the placed tiles, then the marks, then the features,
    each step a new value by `dataclasses.replace`)."""

    board: Board
    tiles: tuple[PlacedTile, ...]
    joins: tuple[Join, ...]
    tile_graph: nx.Graph
    marks: Mapping[str, Cell] = field(default_factory=lambda: MappingProxyType({}))
    # tiles the block declares that could not be placed (already reported): references to
    # them are not reported again, so one mistake gives one diagnostic, not a cascade
    broken: frozenset[str] = frozenset()
    features: MapFeatures = NO_FEATURES  # stairs, glyphs, portal, markers… (compiler/geometry/features.py)
    # alternatives (docs/quests.md, "Alternatives"): overlapping tile pairs (one at least hidden)
    # and pieces used more often than the box holds only with hidden tiles counted, left to the
    # board-state search (compiler/model/states.py) to decide whether they are ever on the board together
    overlaps: tuple[tuple[str, str], ...] = ()
    pieces: tuple[tuple[str, int], ...] = ()  # (piece, copies the box holds)

    @cached_property
    def by_name(self) -> dict[str, PlacedTile]:
        return {t.name: t for t in self.tiles}

    @cached_property
    def owner(self) -> dict[Cell, PlacedTile]:
        out: dict[Cell, PlacedTile] = {}
        for t in self.tiles:
            for c in t.local_of:
                out.setdefault(c, t)
        return out

    def space(self, ref: ast.TileSpace | ast.WorldSpace | ast.MarkRef) -> Cell | None:
        """The world cell a space reference names, or None when it names none
        (compiler/passes/maps.py `resolve_space` says why)."""
        if isinstance(ref, ast.MarkRef):
            return self.marks.get(ref.name)
        if isinstance(ref, ast.WorldSpace):
            return (ref.x, ref.y) if (ref.x, ref.y) in self.owner else None
        placed = self.by_name.get(ref.tile)
        if placed is None or (ref.col, ref.row) not in placed.tile.squares:
            return None
        return placed.to_world((ref.col, ref.row))

    def describe(self, cell: Cell) -> str:
        """`9A(3,1) = (12,4)`: a space in both frames, for messages."""
        t = self.owner.get(cell)
        if t is None:
            return f"({cell[0]}, {cell[1]})"
        c, r = t.local_of[cell]
        return f"{t.name}({c}, {r}) = ({cell[0]}, {cell[1]})"


def find_joins(order: list[PlacedTile], attached: Iterable[tuple[str, Opening, str, Opening]]) -> list[Join]:
    by_edges: dict[frozenset[Edge], list[tuple[str, Opening]]] = {}
    for t in order:
        for op in t.tile.all_openings():
            by_edges.setdefault(t.opening_edges(op), []).append((t.name, op))
    written = {frozenset([(a, oa), (b, ob)]) for a, oa, b, ob in attached}
    index = {t.name: i for i, t in enumerate(order)}
    by_name = {t.name: t for t in order}
    joins = []
    for edges_, ends in by_edges.items():
        for i, (a, oa) in enumerate(ends):
            for b, ob in ends[i + 1:]:
                if a == b or by_name[a].local_of.keys() & by_name[b].local_of.keys():
                    continue  # tiles on the same squares (alternatives, or an overlap reported) never join each other
                if index[a] > index[b]:
                    (a, oa), (b, ob) = (b, ob), (a, oa)
                joins.append(Join(a, oa, b, ob, edges_, frozenset([(a, oa), (b, ob)]) in written))
    joins.sort(key=lambda j: (index[j.a], SIDES.index(j.a_opening.side), j.a_opening.index, index[j.b]))
    return joins


def tile_graph(order: list[PlacedTile], joins: list[Join]) -> nx.Graph:
    g = nx.Graph()
    for t in order:
        g.add_node(t.name, code=t.code, at=t.at, rotation=t.rotation, hidden=t.hidden, kind=t.tile.kind)
    for j in joins:
        g.add_edge(j.a, j.b, a_opening=j.a_opening.label, b_opening=j.b_opening.label, attached=j.attached, door=None)
    return g


def board_of(order: list[PlacedTile], joins: list[Join], doors: list[Door], terrain: Mapping[str, TerrainRule]) -> Board:
    by_symbol = {r.symbol: tid for tid, r in terrain.items()}
    by_symbol.setdefault(".", "plain")
    rules = dict(terrain)
    rules.setdefault("plain", PLAIN)
    owner: dict[Cell, PlacedTile] = {}
    for t in order:
        for c in t.local_of:
            owner.setdefault(c, t)
    open_edges = set().union(*(j.edges for j in joins)) if joins else set()
    inner = {t.name: {t.world_edge(e) for e in t.tile.walls} for t in order}
    walls: set[Edge] = set()
    for (x, y), t in owner.items():
        for e, nb in zip(cell_edges((x, y)), ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))):
            other = owner.get(nb)
            if other is None:
                walls.add(e)
            elif other is not t:
                if e not in open_edges:
                    walls.add(e)
            elif e in inner[t.name]:
                walls.add(e)
    door_edges = set().union(*(d.edges for d in doors)) if doors else set()
    spaces = tuple(sorted(owner, key=lambda c: (c[1], c[0])))
    terrain_ids = []
    for c in spaces:
        t = owner[c]
        symbol = t.tile.squares[t.local_of[c]]
        terrain_ids.append(by_symbol.get(symbol, "plain"))
        rules.setdefault(terrain_ids[-1], PLAIN)
    return Board(
        spaces=spaces,
        terrain=tuple(terrain_ids),
        rules=MappingProxyType(dict(sorted(rules.items()))),
        walls=frozenset(walls - door_edges),
        doors=tuple(doors),
    )


def assemble_placed(order: list[PlacedTile], terrain: Mapping[str, TerrainRule]) -> AssembledMap:
    """The map of tiles already placed (a dealt table): openings that meet are joined, no doors."""
    joins = find_joins(order, [])
    return AssembledMap(board=board_of(order, joins, [], terrain), tiles=tuple(order), joins=tuple(joins),
                        tile_graph=tile_graph(order, joins))
