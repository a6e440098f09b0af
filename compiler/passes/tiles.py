"""The tiles pass: `tiles:` catalog entries read into Tiles (compiler/geometry/tiles.py),
with bad grids, openings and walls reported at the YAML node.

A tile with an error is left out of the result: later stages report it as unknown only
if it is used, and then only once (compiler/passes/maps.py).
"""

from __future__ import annotations

from typing import Iterable, Mapping

from compiler.catalogs.document import Entry
from compiler.catalogs.terrain import TerrainRule
from compiler.catalogs.yamlload import LINE
from compiler.diagnostics import Related, Sink, Span
from compiler.geometry.lattice import Cell, Edge, edge
from compiler.geometry.tiles import DEFAULT_WIDTH, NO_SQUARE, SIDES, Opening, Tile
from compiler.model import Model


def tiles_pass(model: Model, sink: Sink) -> Model:
    """The merged tiles catalog, read against the terrain symbols (`.` is plain floor)."""
    editions = {p.id: p.ruleset for p in model.packs}
    return model.with_(tiles=read_tiles(model.catalogs.get("tiles") or {}, terrain_symbols(model.terrain), sink, editions))


def terrain_symbols(terrain: Mapping[str, TerrainRule] | None) -> dict[str, str]:
    """symbol -> terrain id, with `.` for plain floor when no catalog claims it."""
    symbols = {r.symbol: tid for tid, r in (terrain or {}).items()}
    symbols.setdefault(".", "plain")
    return symbols


def _symbol_map(terrain_symbols: Iterable[str] | Mapping[str, str]) -> dict[str, str]:
    if isinstance(terrain_symbols, Mapping):
        return dict(terrain_symbols)
    return {s: s for s in terrain_symbols}


def _grid_span(entry: Entry, row: int, col: int | None = None, raw: str | None = None) -> Span:
    """The grid row (and character) in the YAML file when the grid is a block scalar, else the grid."""
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


def read_tiles(entries: Mapping[str, Entry], terrain_symbols: Iterable[str] | Mapping[str, str], sink: Sink,
               editions: Mapping[str, str] | None = None) -> dict[str, Tile]:
    """Turn schema-valid `tiles:` catalog entries into Tiles; report bad grids and openings.

    `entries` maps tile id -> `compiler.catalogs.document.Entry`; `terrain_symbols` holds
    the symbols the terrain catalogs define (a set, or a mapping symbol -> terrain id).
    A tile with an error is left out of the result (later stages report it as unknown
    only if it is used, and then only once: see assemble.py). `editions` maps a pack id to
    its ruleset; each tile takes the edition of the pack that defines it.
    """
    symbols = _symbol_map(terrain_symbols)
    out: dict[str, Tile] = {}
    for tid in sorted(entries):
        tile = _read_tile(entries[tid], symbols, sink, (editions or {}).get(entries[tid].pack))
        if tile is not None:
            out[tid] = tile
    return out


def _read_tile(entry: Entry, symbols: Mapping[str, str], sink: Sink, edition: str | None = None) -> Tile | None:
    data = entry.data
    tid = entry.id
    errors = sink.errors
    grid = _read_grid(entry, symbols, sink)
    if grid is None:
        return None
    rows, squares = grid
    width, height = len(rows[0]), len(rows)
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
        setting=data.get("setting"),
        valkyrie=data.get("valkyrie"),
    )
    openings = _read_openings(entry, tile, sink)
    walls = _read_walls(entry, width, height, sink)
    if sink.errors > errors:
        return None
    return Tile(
        id=tile.id, kind=tile.kind, piece=tile.piece, copies=tile.copies, width=width, height=height,
        squares=squares, openings=openings, walls=frozenset(walls), name=tile.name, notes=tile.notes,
        grid=tile.grid, setting=tile.setting, valkyrie=tile.valkyrie, source=data.get("source"), edition=edition,
    )


def _read_grid(entry: Entry, symbols: Mapping[str, str], sink: Sink) -> tuple[list[str], dict[Cell, str]] | None:
    """The grid's rows (stripped, all of one width) and its squares' symbols; None after
    reporting a grid with no squares, ragged rows, unknown symbols or an empty border."""
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
    for i, text in enumerate(rows):
        if len(text) != width:
            sink.report("M0101", _grid_span(entry, i), tile=tid, row=i, length=len(text), width=width,
                        fix=f"Pad row {i} with `-` (no square) to {width} characters.")
            return None
    squares: dict[Cell, str] = {}
    unknown: dict[Span, list[tuple[str, int, int]]] = {}  # a grid in flow style has one span for all
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch == NO_SQUARE:
                continue
            if ch not in symbols:
                unknown.setdefault(_grid_span(entry, r, c, raw), []).append((ch, c, r))
                continue
            squares[(c, r)] = ch
    known = ", ".join(f"`{s}`" for s in sorted(symbols))
    for span, ((ch, c, r), *more) in unknown.items():
        sink.report("M0102", span, tile=tid, symbol=ch, col=c, row=r,
                    related=tuple(Related(span, f"also `{m}` at column {mc}, row {mr}") for m, mc, mr in more[:5]),
                    fix=f"Use one of {known}, or `-` for no square; or define the terrain.")
    if sink.errors > errors:
        return None
    height = len(rows)
    cols = {c for c, _ in squares}
    rws = {r for _, r in squares}
    if min(cols) != 0 or max(cols) != width - 1 or min(rws) != 0 or max(rws) != height - 1:
        sink.report("M0106", entry.span("grid"), tile=tid, problem="has a border row or column without squares",
                    fix="Remove rows and columns made only of `-`: (0, 0) is the top-left square of the tile's squares.")
        return None
    return rows, squares


def _read_openings(entry: Entry, tile: Tile, sink: Sink) -> dict[str, tuple[Opening, ...]]:
    """The openings of each side, numbered along it; an opening off its side is left out
    (M0103), overlapping ones (M0105) and ones along no square (M0104) are reported."""
    tid, width, height = entry.id, tile.width, tile.height
    openings: dict[str, tuple[Opening, ...]] = {}
    for side in SIDES:
        specs = (entry.data.get("openings") or {}).get(side) or []
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
            missing = [c for c in tile.opening_cells(op) if c not in tile.squares]
            if missing:
                sink.report("M0104", entry.span("openings", side), tile=tid, side=side, offset=op.offset,
                            cells=", ".join(f"({c}, {r})" for c, r in missing),
                            fix="An opening runs along squares on the tile's border; move it or fix the grid.")
        if ops:
            openings[side] = tuple(ops)
    return openings


def _read_walls(entry: Entry, width: int, height: int, sink: Sink) -> set[Edge]:
    """The walls printed inside the tile, as edges; a segment off the grid lines is M0107."""
    walls: set[Edge] = set()
    for i, seg in enumerate(entry.data.get("walls") or []):
        (x1, y1), (x2, y2) = seg
        if (x1 != x2 and y1 != y2) or (x1, y1) == (x2, y2) or not (
            0 <= min(x1, x2) and max(x1, x2) <= width and 0 <= min(y1, y2) and max(y1, y2) <= height
        ):
            sink.report("M0107", entry.span("walls", i), tile=entry.id, segment=f"({x1}, {y1})-({x2}, {y2})",
                        fix=f"A wall runs along grid lines, between lattice points within (0, 0)-({width}, {height}).")
            continue
        if x1 == x2:
            walls.update(edge((x1, y), (x1, y + 1)) for y in range(min(y1, y2), max(y1, y2)))
        else:
            walls.update(edge((x, y1), (x + 1, y1)) for x in range(min(x1, x2), max(x1, x2)))
    return walls
