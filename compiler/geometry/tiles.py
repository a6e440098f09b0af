"""Tiles: the printed map pieces, read from `tiles:` catalogs, and their rotations.

A tile is a grid of squares in its own printed frame: local `(col, row)`, `(0, 0)` the
top-left square of its bounding box of squares (RULES.md, "Coordinates"). Openings are
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
from typing import Iterable, Mapping

from compiler.diagnostics import Sink, Span
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


@dataclass(frozen=True)
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

    def orient(self, rotation: int) -> "Orientation":
        return Orientation(self, turns(rotation) * 90)


@dataclass(frozen=True)
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


# ---------------------------------------------------------------- reading the catalog
def _symbol_map(terrain_symbols) -> dict[str, str]:
    if isinstance(terrain_symbols, Mapping):
        return dict(terrain_symbols)
    return {s: s for s in terrain_symbols}


def _grid_span(entry, row: int, col: int | None = None, raw: str | None = None) -> Span:
    """The grid row (and character) in the YAML file when the grid is a block scalar, else the grid."""
    from compiler.catalogs.yamlload import LINE

    whole = entry.span("grid")
    line = entry.span("grid", (LINE, row))
    if line == whole or col is None:
        return line
    lead = 0
    if raw is not None:
        text = str(raw).split("\n")[row]
        lead = len(text) - len(text.lstrip())
    at = line.column + lead + col
    return Span(line.file, line.line, at, line.line, at + 1)


def read_tiles(entries: Mapping[str, object], terrain_symbols: Iterable[str] | Mapping[str, str], sink: Sink) -> dict[str, Tile]:
    """Turn schema-valid `tiles:` catalog entries into Tiles; report bad grids and openings.

    `entries` maps tile id -> `compiler.catalogs.document.Entry`; `terrain_symbols` holds
    the symbols the terrain catalogs define (a set, or a mapping symbol -> terrain id).
    A tile with an error is left out of the result (later stages report it as unknown
    only if it is used, and then only once: see assemble.py).
    """
    symbols = _symbol_map(terrain_symbols)
    out: dict[str, Tile] = {}
    for tid in sorted(entries):
        tile = _read_tile(entries[tid], symbols, sink)
        if tile is not None:
            out[tid] = tile
    return out


def _read_tile(entry, symbols: Mapping[str, str], sink: Sink) -> Tile | None:
    data = entry.data
    tid = entry.id
    errors = sink.errors
    raw = data.get("grid", "")
    rows = [r.rstrip("\r") for r in str(raw).split("\n")]
    while rows and rows[-1].strip() == "":
        rows.pop()
    rows = [r.strip() for r in rows]
    if not rows or all(set(r) <= {NO_SQUARE} for r in rows):
        sink.report("M0106", entry.span("grid"), tile=tid, problem="has no squares",
                    fix="Write one character per square, `.` for plain floor.")
        return None
    width = len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != width:
            sink.report("M0101", _grid_span(entry, i), tile=tid, row=i, length=len(r), width=width,
                        fix=f"Pad row {i} with `-` (no square) to {width} characters.")
            return None
    squares: dict[Cell, str] = {}
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch == NO_SQUARE:
                continue
            if ch not in symbols:
                known = ", ".join(f"`{s}`" for s in sorted(symbols))
                sink.report("M0102", _grid_span(entry, r, c, raw), tile=tid, symbol=ch, col=c, row=r,
                            fix=f"Use one of {known}, or `-` for no square; or define the terrain.")
                continue
            squares[(c, r)] = ch
    if sink.errors > errors:
        return None
    height = len(rows)
    cols = {c for c, _ in squares}
    rws = {r for _, r in squares}
    if min(cols) != 0 or max(cols) != width - 1 or min(rws) != 0 or max(rws) != height - 1:
        sink.report("M0106", entry.span("grid"), tile=tid, problem="has a border row or column without squares",
                    fix="Remove rows and columns made only of `-`: (0, 0) is the top-left square of the tile's squares.")
        return None
    tile = Tile(
        id=tid,
        kind=data.get("kind", "dungeon"),
        piece=str(data.get("piece", tid)),
        copies=int(data.get("copies", 1)),
        width=width,
        height=height,
        squares=squares,
        openings={},
        name=data.get("name"),
        notes=data.get("notes"),
        grid=tuple(rows),
    )
    openings: dict[str, tuple[Opening, ...]] = {}
    for side in SIDES:
        specs = (data.get("openings") or {}).get(side) or []
        side_len = width if side in ("north", "south") else height
        ops = []
        for i, spec in enumerate(specs):
            offset, w = (spec, DEFAULT_WIDTH) if isinstance(spec, int) else (spec.get("offset"), spec.get("width", DEFAULT_WIDTH))
            if offset < 0 or offset + w > side_len:
                sink.report("M0103", entry.span("openings", side, i), tile=tid, side=side, offset=offset, width=w,
                            length=side_len,
                            fix=f"Offsets on the {side} side run from 0 to {side_len - w} for a {w}-wide opening.")
                continue
            ops.append(Opening(side, 0, offset, w))
        ops.sort(key=lambda o: o.offset)
        ops = [Opening(o.side, k, o.offset, o.width) for k, o in enumerate(ops)]
        for a, b in zip(ops, ops[1:]):
            if b.offset < a.offset + a.width:
                sink.report("M0105", entry.span("openings", side), tile=tid, side=side, a=a.offset, b=b.offset,
                            fix="Openings on one side may touch but not share squares.")
        for op in ops:
            missing = [c for c in tile.opening_cells(op) if c not in squares]
            if missing:
                sink.report("M0104", entry.span("openings", side), tile=tid, side=side, offset=op.offset,
                            cells=", ".join(f"({c}, {r})" for c, r in missing),
                            fix="An opening runs along squares on the tile's border; move it or fix the grid.")
        if ops:
            openings[side] = tuple(ops)
    walls: set[Edge] = set()
    for i, seg in enumerate(data.get("walls") or []):
        (x1, y1), (x2, y2) = seg
        if (x1 != x2 and y1 != y2) or (x1, y1) == (x2, y2) or not (
            0 <= min(x1, x2) and max(x1, x2) <= width and 0 <= min(y1, y2) and max(y1, y2) <= height
        ):
            sink.report("M0107", entry.span("walls", i), tile=tid, segment=f"({x1}, {y1})-({x2}, {y2})",
                        fix=f"A wall runs along grid lines, between lattice points within (0, 0)-({width}, {height}).")
            continue
        if x1 == x2:
            walls.update(edge((x1, y), (x1, y + 1)) for y in range(min(y1, y2), max(y1, y2)))
        else:
            walls.update(edge((x, y1), (x + 1, y1)) for x in range(min(x1, x2), max(x1, x2)))
    if sink.errors > errors:
        return None
    return Tile(
        id=tile.id, kind=tile.kind, piece=tile.piece, copies=tile.copies, width=width, height=height,
        squares=squares, openings=openings, walls=frozenset(walls), name=tile.name, notes=tile.notes,
        grid=tile.grid,
    )
