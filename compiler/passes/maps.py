"""The maps pass: every encounter's `map { … }` block assembled from the tile catalog.

The geometry (placing, joining, walls, doors, the board) is compiler/geometry/assemble.py;
this pass reports what is wrong with a block (docs/rules.md, "Walls, openings and doors"):
an unknown tile or opening, a rotation that is not a quarter turn, attachments that do
not fit, overlapping tiles (shapely footprints, M0209), outdoor pieces mixed with dungeon
pieces, a map in several parts, a piece used more often than the box holds, bad doors
and marks; then the spaces each encounter names (start, tokens, spawns) and what cannot
be reached from the start.
"""

from __future__ import annotations

from typing import Iterable, Mapping

import networkx as nx

from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.diagnostics import Related, Sink
from compiler.diagnostics.hints import did_you_mean, hint
from compiler.geometry import graph
from compiler.geometry.assemble import (
    MAX_COORDINATE,
    MAX_SIGHT_SPACES,
    AssembledMap,
    Join,
    PlacedTile,
    board_of,
    find_joins,
    tile_graph,
)
from compiler.geometry.board import Board, Door
from compiler.geometry.lattice import Cell, Edge
from compiler.geometry.tiles import OPPOSITE, SIDES, Opening, Tile, turns
from compiler.memo import Same, remembered_as
from compiler.model import Maps, Model
from compiler.syntax import ast


def maps_pass(model: Model, sink: Sink) -> Model:
    """Every quest encounter's and top-level encounter's map; spaces checked."""
    terrain = model.terrain or {"plain": PLAIN}
    tiles = model.tiles or {}
    invalid = frozenset(model.catalogs.get("tiles") or {}) - frozenset(tiles)

    def assembled(body: ast.EncounterBody) -> AssembledMap | None:
        # one map is a pure function of its block (spans included) and the catalogs
        key = ("map", body, Same(tiles), Same(terrain), invalid)
        return remembered_as(key, lambda local: _encounter_map(body, tiles, terrain, local, invalid), sink)

    quests: dict[str, dict[int, AssembledMap]] = {}
    for quest in model.declarations(ast.Quest):
        per = quests.setdefault(quest.id, {})
        for enc in quest.encounters:
            amap = assembled(enc.body)
            if amap is not None:
                per[enc.number] = amap
    encounters: dict[str, AssembledMap] = {}
    for enc in model.declarations(ast.Encounter):
        amap = assembled(enc.body)
        if amap is not None:
            encounters[enc.id] = amap
    campaign: dict[str, AssembledMap] = {}  # 1st-edition dungeon levels and location cards
    for decl in model.declarations(ast.Level) + model.declarations(ast.LocationCard):
        amap = assembled(decl.body)
        if amap is not None:
            campaign.setdefault(decl.id, amap)
    return model.with_(maps=Maps(quests=quests, encounters=encounters, campaign=campaign))


def _nearest_squarehint(placed: PlacedTile, at: Cell) -> str:
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
    referenced: frozenset[str] = frozenset(),
) -> AssembledMap | None:
    """Place every tile of `block`, join openings, derive walls and doors; None if no tile could be placed.

    `referenced`: the tile names the encounter uses (references, reveals); a misspelt code
    is matched against them first, as the designer meant a tile the rest of the file names."""
    declared = {p.name for p in block.tiles}
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
                meant = _meant(p, tiles, referenced - declared)
                if meant is not None:
                    broken.add(meant)  # what names it below is this mistake, reported once, here
                sink.report("M0201", p.span, tile=p.code, hint=hint(p.code, [meant] if meant else tiles, sink=sink), fix=meant)
            continue
        if p.rotate is not None and p.rotate % 90:
            continue  # the parser reported it (S0201)
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
    joins = find_joins(order, attached)
    _check_kinds(order, sink)
    _check_pieces(order, sink)
    graph = tile_graph(order, joins)
    if nx.number_connected_components(graph) > 1 and not broken:  # a missing tile may be the link
        parts = sorted(sorted(c, key=lambda n: list(placed).index(n)) for c in nx.connected_components(graph))
        parts.sort(key=lambda part: list(placed).index(part[0]))
        sink.report("M0211", block.span, count=len(parts), parts="; ".join(", ".join(p) for p in parts))
    doors = _doors(block, placed, joins, graph, broken, orphaned, sink)
    board = board_of(order, joins, doors, terrain)
    if len(board.spaces) > MAX_SIGHT_SPACES:
        sink.report("M0223", block.span, count=len(board.spaces), limit=MAX_SIGHT_SPACES)
    amap = AssembledMap(board=board, tiles=tuple(order), joins=tuple(joins), tile_graph=graph, broken=frozenset(broken))
    for mark in block.marks:
        if mark.name in amap.marks:
            sink.report("M0219", mark.span, name=mark.name)
            continue
        cell = resolve_space(amap, mark.at, sink)
        if cell is not None:
            amap.marks[mark.name] = cell
    return amap


def _attach(p: ast.TilePlacement, tile: Tile, placed: dict[str, PlacedTile], broken: set[str], sink: Sink):
    to = p.attach.to
    other = placed.get(to.tile)
    if other is None:
        if to.tile not in broken:
            sink.report("M0207", to.span, name=to.tile, hint=hint(to.tile or "", placed, sink=sink))
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


def _check_kinds(order: list[PlacedTile], sink: Sink) -> None:
    outdoor = [t for t in order if t.tile.face == "outdoor"]
    dungeon = [t for t in order if t.tile.face == "dungeon"]
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
                sink.report("M0207", d.on.span, name=d.on.tile, hint=hint(d.on.tile or "", placed, sink=sink))
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


# ---------------------------------------------------------------- the pipeline pass
def _encounter_map(body: ast.EncounterBody, tiles, terrain, sink: Sink, invalid: frozenset[str]) -> AssembledMap | None:
    if body.map is None:
        return None
    amap = assemble_map(body.map, tiles, terrain, sink, invalid, _named_tiles(body))
    if amap is None:
        return None
    check_placements(amap, body, sink)
    return amap


def _meant(p: ast.TilePlacement, tiles: Mapping[str, Tile], named: set[str]) -> str | None:
    """The tile a misspelt `tile CODE` stood for: a code of the catalog that the rest of the
    encounter names and no placement declares (`tile 61A` where `16A(2,2)` follows)."""
    if p.name != p.code:  # `tile 61A as hall`: the references use `hall`
        return None
    return did_you_mean(p.code, sorted(n for n in named if n in tiles))


def _named_tiles(node: object) -> frozenset[str]:
    """Every tile name an encounter body mentions: in space and opening references, hero
    starts, and `reveal` effects."""
    found: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, (ast.TileSpace, ast.OpeningRef, ast.StartHeroes)) and isinstance(x.tile, str):
            found.add(x.tile)
        if isinstance(x, ast.Effect) and x.kind == "reveal":
            found.update(x.args)
        if isinstance(x, tuple):
            for item in x:
                walk(item)
        elif hasattr(x, "__dataclass_fields__"):
            for name in x.__dataclass_fields__:
                walk(getattr(x, name))

    walk(node)
    return frozenset(found)


def check_placements(amap: AssembledMap, body: ast.EncounterBody, sink: Sink) -> None:
    """Spaces named by start, tokens and spawns exist, can hold a figure, and are reachable."""
    board = amap.board
    rules = {c: board.rules[t] for c, t in zip(board.spaces, board.terrain)}
    starts: list[Cell] = []
    named: list[tuple[str, Cell, ast.Span]] = []

    def place(ref, what: str, span) -> Cell | None:
        cell = resolve_space(amap, ref, sink)
        if cell is not None and rules[cell].blocks_movement:
            sink.report("M0220", getattr(ref, "span", span), space=amap.describe(cell), terrain=rules[cell].id, what=what)
            return None
        return cell

    if body.start is not None:
        if body.start.tile is not None:
            t = amap.by_name.get(body.start.tile)
            if t is None:
                sink.report("M0207", body.start.span, name=body.start.tile, hint=hint(body.start.tile, amap.by_name, sink=sink))
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
                sink.report("M0207", ref.span, name=ref.tile, hint=hint(ref.tile or "", amap.by_name, sink=sink))
            else:
                _get_opening(t.name, t.tile, ref, sink)
    if starts:
        lost = set(check_reachability(board, starts, sink, body.map.span, amap.describe))
        for what, cell, span in named:
            if cell in lost:
                sink.report("M0302", span, what=what, space=amap.describe(cell))


def resolve_space(amap: AssembledMap, ref: ast.TileSpace | ast.WorldSpace | ast.MarkRef, sink: Sink) -> Cell | None:
    """The world cell a space reference names, or None after a located diagnostic."""
    if isinstance(ref, ast.MarkRef):
        if ref.name in amap.marks:
            return amap.marks[ref.name]
        sink.report("M0218", ref.span, name=ref.name, hint=hint(ref.name, amap.marks, sink=sink))
        return None
    if isinstance(ref, ast.WorldSpace):
        if (ref.x, ref.y) in amap.owner:
            return (ref.x, ref.y)
        sink.report("M0217", ref.span, x=ref.x, y=ref.y)
        return None
    placed = amap.by_name.get(ref.tile)
    if placed is None:
        if ref.tile not in amap.broken:
            sink.report("M0207", ref.span, name=ref.tile, hint=hint(ref.tile, amap.by_name, sink=sink))
        return None
    if (ref.col, ref.row) not in placed.tile.squares:
        sink.report(
            "M0216", ref.span, ref=f"{ref.tile}({ref.col}, {ref.row})", tile=placed.name, code=placed.code,
            width=placed.tile.width, height=placed.tile.height,
            fix=_nearest_squarehint(placed, (ref.col, ref.row)),
        )
        return None
    return placed.to_world((ref.col, ref.row))


def check_reachability(board: Board, starts: Iterable[Cell], sink, span, describe=None) -> list[Cell]:
    """Warn (M0301) about squares unreachable from the start with every door open."""
    lost = graph.unreachable(board, list(starts))
    if lost:
        show = describe or (lambda c: f"({c[0]}, {c[1]})")
        text = ", ".join(show(c) for c in lost[:6]) + (" …" if len(lost) > 6 else "")
        sink.report("M0301", span, count=len(lost), squares=text)
    return lost
