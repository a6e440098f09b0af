"""Map assembly: a `map { … }` block + the tile catalog -> placed tiles and a Board.

The rules (RULES.md, "Walls, openings, doors"):
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

import difflib
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Mapping

import networkx as nx
from shapely.geometry import box
from shapely.ops import unary_union

from compiler.diagnostics import Related, Sink
from compiler.geometry.board import PLAIN, Board, Door, TerrainRule
from compiler.geometry.lattice import Cell, Edge, cell_edges, edge
from compiler.geometry.tiles import OPPOSITE, SIDES, Opening, Orientation, Tile, turns
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
    span: ast.Span = ast.NOWHERE

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
        return {self.to_world(c): c for c in self.tile.squares}

    @property
    def cells(self) -> tuple[Cell, ...]:
        return tuple(sorted(self.local_of, key=lambda c: (c[1], c[0])))

    def world_edge(self, e: Edge) -> Edge:
        (p, q) = self.orientation.edge(e)
        ax, ay = self.at
        return edge((p[0] + ax, p[1] + ay), (q[0] + ax, q[1] + ay))

    def opening_edges(self, op: Opening) -> frozenset[Edge]:
        return frozenset(self.world_edge(e) for e in self.tile.opening_edges(op))

    def facing(self, op: Opening) -> str:
        return self.orientation.side(op.side)

    @cached_property
    def footprint(self):
        return unary_union([box(x, y, x + 1, y + 1) for x, y in self.local_of])


@dataclass(frozen=True)
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


@dataclass
class AssembledMap:
    board: Board
    tiles: tuple[PlacedTile, ...]
    joins: tuple[Join, ...]
    tile_graph: nx.Graph
    marks: dict[str, Cell] = field(default_factory=dict)
    # tiles the block declares that could not be placed (already reported): references to
    # them are not reported again, so one mistake gives one diagnostic, not a cascade
    broken: frozenset[str] = frozenset()

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

    def resolve_space(self, ref: ast.TileSpace | ast.WorldSpace | ast.MarkRef, sink: Sink) -> Cell | None:
        """The world cell a space reference names, or None after a located diagnostic."""
        if isinstance(ref, ast.MarkRef):
            if ref.name in self.marks:
                return self.marks[ref.name]
            sink.report("M0218", ref.span, name=ref.name, hint=_hint(ref.name, self.marks))
            return None
        if isinstance(ref, ast.WorldSpace):
            if (ref.x, ref.y) in self.owner:
                return (ref.x, ref.y)
            sink.report("M0217", ref.span, x=ref.x, y=ref.y)
            return None
        placed = self.by_name.get(ref.tile)
        if placed is None:
            if ref.tile not in self.broken:
                sink.report("M0207", ref.span, name=ref.tile, hint=_hint(ref.tile, self.by_name))
            return None
        if (ref.col, ref.row) not in placed.tile.squares:
            sink.report(
                "M0216", ref.span, ref=f"{ref.tile}({ref.col}, {ref.row})", tile=placed.name, code=placed.code,
                width=placed.tile.width, height=placed.tile.height,
                fix=_nearest_square_hint(placed, (ref.col, ref.row)),
            )
            return None
        return placed.to_world((ref.col, ref.row))

    def describe(self, cell: Cell) -> str:
        """`9A(3,1) = (12,4)`: a space in both frames, for messages."""
        t = self.owner.get(cell)
        if t is None:
            return f"({cell[0]}, {cell[1]})"
        c, r = t.local_of[cell]
        return f"{t.name}({c}, {r}) = ({cell[0]}, {cell[1]})"


def _hint(name: str, known) -> str:
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.5)
    return f"; did you mean `{close[0]}`?" if close else ""


def _nearest_square_hint(placed: PlacedTile, at: Cell) -> str:
    best = min(placed.tile.squares, key=lambda c: (abs(c[0] - at[0]) + abs(c[1] - at[1]), c[1], c[0]))
    return f"The nearest square of {placed.code} is {placed.name}({best[0]}, {best[1]})."


def _opening_label(name: str, op: Opening) -> str:
    return f"{name}.{op.label}"


def _available(tile: Tile) -> str:
    ops = [f"`{tile.id}.{o.label}`" for o in tile.all_openings()]
    return ", ".join(ops) if ops else "no openings"


def _get_opening(placed_name: str, tile: Tile, ref: ast.OpeningRef, sink: Sink) -> Opening | None:
    op = tile.opening(ref.side, ref.index) if ref.side in SIDES else None
    if op is None:
        label = ref.side if ref.index == 0 else f"{ref.side}.{ref.index}"
        sink.report("M0202", ref.span, tile=placed_name, opening=label, available=_available(tile))
    return op


# ---------------------------------------------------------------- assembly
def assemble_map(
    block: ast.MapBlock,
    tiles: Mapping[str, Tile],
    terrain: Mapping[str, TerrainRule],
    sink: Sink,
    invalid: frozenset[str] = frozenset(),
) -> AssembledMap | None:
    """Place every tile of `block`, join openings, derive walls and doors; None if no tile could be placed."""
    placed: dict[str, PlacedTile] = {}
    attached: list[tuple[str, Opening, str, Opening]] = []
    seen_names: dict[str, ast.TilePlacement] = {}
    broken: set[str] = set()  # declared, not placed: its own diagnostic was given
    orphaned: set[tuple] = set()  # openings a broken tile was to attach to
    for p in block.tiles:
        if p.name in seen_names:
            sink.report("M0206", p.span, name=p.name,
                        related=(Related(seen_names[p.name].span, "first placed here"),),
                        fix=f"Write `tile {p.code} as {p.name}2 …` for the second copy.")
            continue
        seen_names[p.name] = p
        broken.add(p.name)
        if p.attach is not None:
            orphaned.add((p.attach.to.tile, p.attach.to.side, p.attach.to.index))
        tile = tiles.get(p.code)
        if tile is None:
            if p.code not in invalid:  # an invalid catalog entry was reported where it is defined
                sink.report("M0201", p.span, tile=p.code, hint=_hint(p.code, tiles))
            continue
        if p.rotate is not None and p.rotate % 90:
            sink.report("M0208", p.span, rotation=p.rotate)
            continue
        if p.attach is None:
            at = (p.at.x, p.at.y) if p.at is not None else (0, 0)
            if max(abs(at[0]), abs(at[1])) > MAX_COORDINATE:
                sink.report("M0222", p.at.span, name=p.name, x=at[0], y=at[1], limit=MAX_COORDINATE)
                continue
            placed[p.name] = PlacedTile(p.name, tile, at, turns(p.rotate or 0) * 90, p.hidden, p.span)
        else:
            result = _attach(p, tile, placed, broken, sink)
            if result is None:
                continue
            pt, own, other, other_op = result
            placed[p.name] = pt
            attached.append((p.name, own, other, other_op))
            orphaned.discard((p.attach.to.tile, p.attach.to.side, p.attach.to.index))
        broken.discard(p.name)
    if not placed:
        return None
    order = list(placed.values())
    _check_overlaps(order, sink)
    joins = _find_joins(order, attached)
    _check_kinds(order, sink)
    _check_pieces(order, sink)
    graph = _tile_graph(order, joins)
    if nx.number_connected_components(graph) > 1 and not broken:  # a missing tile may be the link
        parts = sorted(sorted(c, key=lambda n: list(placed).index(n)) for c in nx.connected_components(graph))
        parts.sort(key=lambda part: list(placed).index(part[0]))
        sink.report("M0211", block.span, count=len(parts), parts="; ".join(", ".join(p) for p in parts))
    doors = _doors(block, placed, joins, graph, broken, orphaned, sink)
    board = _board(order, joins, doors, terrain)
    if len(board.spaces) > MAX_SIGHT_SPACES:
        sink.report("M0223", block.span, count=len(board.spaces), limit=MAX_SIGHT_SPACES)
    amap = AssembledMap(board=board, tiles=tuple(order), joins=tuple(joins), tile_graph=graph, broken=frozenset(broken))
    for mark in block.marks:
        if mark.name in amap.marks:
            sink.report("M0219", mark.span, name=mark.name)
            continue
        cell = amap.resolve_space(mark.at, sink)
        if cell is not None:
            amap.marks[mark.name] = cell
    return amap


def _attach(p: ast.TilePlacement, tile: Tile, placed: dict[str, PlacedTile], broken: set[str], sink: Sink):
    to = p.attach.to
    other = placed.get(to.tile)
    if other is None:
        if to.tile not in broken:
            sink.report("M0207", to.span, name=to.tile, hint=_hint(to.tile or "", placed))
        return None
    own = _get_opening(p.name, tile, p.attach.side, sink)
    other_op = _get_opening(other.name, other.tile, to, sink)
    if own is None or other_op is None:
        return None
    a_label, b_label = _opening_label(p.name, own), _opening_label(other.name, other_op)
    if own.width != other_op.width:
        sink.report("M0203", p.attach.span, a=a_label, wa=own.width, b=b_label, wb=other_op.width)
        return None
    needed = OPPOSITE[other.facing(other_op)]
    rotation = (SIDES.index(needed) - SIDES.index(own.side)) % 4 * 90
    if p.rotate is not None and turns(p.rotate) * 90 != rotation:
        facing = tile.orient(p.rotate).side(own.side)
        sink.report("M0204", p.span, a=a_label, facing=facing, rotation=p.rotate, needed=needed, b=b_label,
                    fix=f"Write `rotate {rotation}`, or leave `rotate` out.")
        return None
    orient = tile.orient(rotation)
    mine = min(orient.opening_edges(own))
    theirs = min(other.opening_edges(other_op))
    at = (theirs[0][0] - mine[0][0], theirs[0][1] - mine[0][1])
    pt = PlacedTile(p.name, tile, at, rotation, p.hidden, p.span)
    cells = set(pt.local_of)
    hit = [q.name for q in placed.values() if cells & q.local_of.keys()]
    if hit:
        sink.report("M0205", p.span, a=a_label, b=b_label, other=", ".join(f"`{h}`" for h in hit))
        return None
    return pt, own, other.name, other_op


def _check_overlaps(order: list[PlacedTile], sink: Sink) -> None:
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if not a.footprint.intersects(b.footprint):
                continue
            area = a.footprint.intersection(b.footprint).area
            if area <= 0:
                continue  # shared edges or corners only
            common = sorted(a.local_of.keys() & b.local_of.keys(), key=lambda c: (c[1], c[0]))
            shown = ", ".join(f"({x}, {y})" for x, y in common[:8]) + (" …" if len(common) > 8 else "")
            sink.report("M0209", b.span, a=a.name, b=b.name, count=len(common), area=f"{area:g}", squares=shown,
                        related=(Related(a.span, f"`{a.name}` placed here"),))


def _find_joins(order: list[PlacedTile], attached) -> list[Join]:
    by_edges: dict[frozenset[Edge], list[tuple[str, Opening]]] = {}
    for t in order:
        for op in t.tile.all_openings():
            by_edges.setdefault(t.opening_edges(op), []).append((t.name, op))
    written = {frozenset([(a, oa), (b, ob)]) for a, oa, b, ob in attached}
    index = {t.name: i for i, t in enumerate(order)}
    joins = []
    for edges_, ends in by_edges.items():
        for i, (a, oa) in enumerate(ends):
            for b, ob in ends[i + 1:]:
                if a == b:
                    continue
                if index[a] > index[b]:
                    (a, oa), (b, ob) = (b, ob), (a, oa)
                joins.append(Join(a, oa, b, ob, edges_, frozenset([(a, oa), (b, ob)]) in written))
    joins.sort(key=lambda j: (index[j.a], SIDES.index(j.a_opening.side), j.a_opening.index, index[j.b]))
    return joins


def _check_kinds(order: list[PlacedTile], sink: Sink) -> None:
    outdoor = [t for t in order if t.tile.kind == "outdoor"]
    dungeon = [t for t in order if t.tile.kind == "dungeon"]
    if outdoor and dungeon:
        sink.report("M0210", outdoor[0].span if outdoor[0].span.line >= dungeon[0].span.line else dungeon[0].span,
                    outdoor=", ".join(t.name for t in outdoor), dungeon=", ".join(t.name for t in dungeon))


def _check_pieces(order: list[PlacedTile], sink: Sink) -> None:
    by_piece: dict[str, list[PlacedTile]] = {}
    for t in order:
        by_piece.setdefault(t.tile.piece, []).append(t)
    for piece, uses in by_piece.items():
        copies = max(t.tile.copies for t in uses)
        if len(uses) <= copies:
            continue
        codes = sorted({t.code for t in uses})
        if copies == 1 and len(codes) > 1:
            a = next(t for t in uses if t.code == codes[0])
            b = next(t for t in uses if t.code == codes[1])
            sink.report("M0213", uses[-1].span, a=a.code, b=b.code, piece=piece,
                        related=tuple(Related(t.span, f"`{t.name}` placed here") for t in uses[:-1]))
        else:
            sink.report("M0212", uses[-1].span, piece=piece, used=len(uses), copies=copies,
                        tiles=", ".join(t.name for t in uses))


def _tile_graph(order: list[PlacedTile], joins: list[Join]) -> nx.Graph:
    g = nx.Graph()
    for t in order:
        g.add_node(t.name, code=t.code, at=t.at, rotation=t.rotation, hidden=t.hidden, kind=t.tile.kind)
    for j in joins:
        g.add_edge(j.a, j.b, a_opening=j.a_opening.label, b_opening=j.b_opening.label, attached=j.attached, door=None)
    return g


def _doors(block: ast.MapBlock, placed: dict[str, PlacedTile], joins: list[Join], graph: nx.Graph,
           broken: set[str], orphaned: set[tuple], sink: Sink) -> list[Door]:
    doors: list[Door] = []
    names: set[str] = set()
    used: dict[frozenset[Edge], str] = {}
    for d in block.doors:
        if d.name in names:
            sink.report("M0215", d.span, door=d.name, problem="another door of this map has that name")
            continue
        names.add(d.name)
        t = placed.get(d.on.tile)
        if t is None:
            if d.on.tile not in broken:
                sink.report("M0207", d.on.span, name=d.on.tile, hint=_hint(d.on.tile or "", placed))
            continue
        op = _get_opening(t.name, t.tile, d.on, sink)
        if op is None:
            continue
        join = next((j for j in joins if j.touches(t.name, op)), None)
        if join is None:
            if (d.on.tile, d.on.side, d.on.index) not in orphaned:  # else the missing tile was reported
                sink.report("M0214", d.span, door=d.name, opening=_opening_label(t.name, op))
            continue
        if join.edges in used:
            sink.report("M0215", d.span, door=d.name, problem=f"door `{used[join.edges]}` already stands on this attachment")
            continue
        used[join.edges] = d.name
        graph.edges[join.a, join.b]["door"] = d.name
        doors.append(Door(d.name, join.edges, d.open, d.colour))
    return doors


def _board(order: list[PlacedTile], joins: list[Join], doors: list[Door], terrain: Mapping[str, TerrainRule]) -> Board:
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


# ---------------------------------------------------------------- the pipeline pass
def maps_pass(model, sink: Sink):
    """PASSES entry: tiles catalog -> section "tiles"; every encounter's map -> section "maps".

    Section "maps" = {"quests": {quest_id: {encounter_number: AssembledMap}},
                      "encounters": {encounter_id: AssembledMap}}.
    Also checks the spaces each encounter names (start, tokens, spawns) and reachability.
    """
    from compiler.geometry.tiles import read_tiles

    terrain = model.section("terrain") or {"plain": PLAIN}
    symbols = {r.symbol: tid for tid, r in terrain.items()}
    symbols.setdefault(".", "plain")
    entries = (model.catalogs or {}).get("tiles") or {}
    tiles = read_tiles(entries, symbols, sink)
    invalid = frozenset(entries) - frozenset(tiles)
    maps: dict = {"quests": {}, "encounters": {}}
    for quest in model.declarations(ast.Quest):
        per = maps["quests"].setdefault(quest.id, {})
        for enc in quest.encounters:
            amap = _encounter_map(enc.body, tiles, terrain, sink, invalid)
            if amap is not None:
                per[enc.number] = amap
    for enc in model.declarations(ast.Encounter):
        amap = _encounter_map(enc.body, tiles, terrain, sink, invalid)
        if amap is not None:
            maps["encounters"][enc.id] = amap
    return model.with_section("tiles", tiles).with_section("maps", maps)


def _encounter_map(body: ast.EncounterBody, tiles, terrain, sink: Sink, invalid: frozenset[str]) -> AssembledMap | None:
    if body.map is None:
        return None
    amap = assemble_map(body.map, tiles, terrain, sink, invalid)
    if amap is None:
        return None
    check_placements(amap, body, sink)
    return amap


def check_placements(amap: AssembledMap, body: ast.EncounterBody, sink: Sink) -> None:
    """Spaces named by start, tokens and spawns exist, can hold a figure, and are reachable."""
    from compiler.geometry import graph

    board = amap.board
    rules = {c: board.rules[t] for c, t in zip(board.spaces, board.terrain)}
    starts: list[Cell] = []
    named: list[tuple[str, Cell, ast.Span]] = []

    def place(ref, what: str, span) -> Cell | None:
        cell = amap.resolve_space(ref, sink)
        if cell is not None and rules[cell].blocks_movement:
            sink.report("M0220", getattr(ref, "span", span), space=amap.describe(cell), terrain=rules[cell].id, what=what)
            return None
        return cell

    if body.start is not None:
        if body.start.tile is not None:
            t = amap.by_name.get(body.start.tile)
            if t is None:
                sink.report("M0207", body.start.span, name=body.start.tile, hint=_hint(body.start.tile, amap.by_name))
            else:
                starts = [c for c in t.cells if not rules[c].blocks_movement]
        for ref in body.start.spaces:
            cell = place(ref, "a hero", body.start.span)
            if cell is not None:
                starts.append(cell)
    for tok in body.tokens:
        cell = place(tok.at, f"a {tok.kind} token", tok.span)
        if cell is not None:
            named.append((f"the {tok.kind} token", cell, tok.span))
    for sp in body.spawns:
        # the whole footprint of a large figure is the quest pass's (Q0203): it knows monster sizes
        refs = ([sp.at] if sp.at is not None else []) + [r for pt in sp.points for r in pt.at]
        for ref in refs:
            cell = place(ref, f"`{sp.group}`", sp.span)
            if cell is None:
                continue
            named.append((f"spawn `{sp.group}`", cell, getattr(ref, "span", sp.span)))
    for ref in (body.entrance, body.exit):
        if ref is not None:
            t = amap.by_name.get(ref.tile)
            if t is None:
                sink.report("M0207", ref.span, name=ref.tile, hint=_hint(ref.tile or "", amap.by_name))
            else:
                _get_opening(t.name, t.tile, ref, sink)
    if starts:
        lost = set(graph.check_reachability(board, starts, sink, body.map.span, amap.describe))
        for what, cell, span in named:
            if cell in lost:
                sink.report("M0302", span, what=what, space=amap.describe(cell))

