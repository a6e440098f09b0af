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

from dataclasses import replace
from types import MappingProxyType
from typing import AbstractSet, Callable, Iterable, Mapping

import networkx as nx

from compiler.catalogs.dice import Die
from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.diagnostics import Related, Sink, Span
from compiler.colours import colour_names, is_colour_name
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
from compiler.catalogs.lines import LineRule
from compiler.geometry.board import Board, Door, Line, Link
from compiler.geometry.features import (
    CHEST_DICE,
    CHEST_TIERS,
    RUNE_COLOURS,
    Area,
    Chest,
    ChestRoll,
    Gateway,
    Glyph,
    MapFeatures,
    Marker,
    Portal,
    Staircase,
    around,
    reachable,
)
from compiler.geometry.lattice import Cell, Edge, shared_edge
from compiler.geometry.tiles import OPPOSITE, SIDES, Opening, Tile, turns
from compiler.memo import Same, remembered_as
from compiler.model import Maps, Model
from compiler.passes.hazards import check_hazards, hazard_markers, read_hazards
from compiler.passes.spaces import resolve_space
from compiler.syntax import ast


NO_LINES: Mapping[str, LineRule] = MappingProxyType({})


def maps_pass(model: Model, sink: Sink) -> Model:
    """Every quest encounter's and top-level encounter's map; spaces checked."""
    terrain = model.terrain or {"plain": PLAIN}
    tiles = model.tiles or {}
    invalid = frozenset(model.catalogs.get("tiles") or {}) - frozenset(tiles)
    ruleset = model.pack.ruleset
    line_rules = model.line_rules or NO_LINES  # one object, so a pack without lines keeps its maps' memo keys

    def assembled(body: ast.EncounterBody, alternatives: bool = False) -> AssembledMap | None:
        # one map is a pure function of its block (spans included), the catalogs, the ruleset and
        # whether events may make hidden tiles alternatives (a quest's: the quests pass's board-state search decides)
        key = ("map", body, Same(tiles), Same(terrain), invalid, Same(dice), ruleset, Same(line_rules), alternatives)
        return remembered_as(key, lambda local: _encounter_map(body, tiles, terrain, local, invalid, dice, ruleset, line_rules,
                                                               alternatives), sink)

    dice = model.dice or {}
    quests: dict[str, dict[int, AssembledMap]] = {}
    for quest in model.declarations(ast.Quest):
        per = quests.setdefault(quest.id, {})
        for enc in quest.encounters:
            amap = assembled(enc.body, alternatives=True)
            if amap is not None:
                per[enc.number] = amap
    encounters: dict[str, AssembledMap] = {}
    for top in model.declarations(ast.Encounter):
        amap = assembled(top.body)
        if amap is not None:
            encounters[top.id] = amap
    campaign: dict[str, AssembledMap] = {}  # 1st-edition dungeon levels and location cards
    for decl in model.declarations(ast.Level) + model.declarations(ast.LocationCard):
        amap = assembled(decl.body)
        if amap is not None:
            campaign.setdefault(decl.id, amap)
    return model.with_(maps=Maps(quests=quests, encounters=encounters, campaign=campaign))


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
    dice: Mapping[str, Die] | None = None,
    ruleset: str = "d2e",
    line_rules: Mapping[str, LineRule] | None = None,
    alternatives: bool = False,
) -> AssembledMap | None:
    """Place every tile of `block`, join openings, derive walls and doors; None if no tile could be placed.

    `alternatives`: a quest encounter's map, whose events the board-state search reads: an
    overlap or a piece over its count with a hidden tile among them is left to it
    (`AssembledMap.overlaps`, `.pieces`); elsewhere (a campaign's level, a top-level
    encounter) nothing decides that later, so they are reported here, as for shown tiles.

    `referenced`: the tile names the encounter uses (references, reveals); a misspelt code
    is matched against them first, as the designer meant a tile the rest of the file names.
    `ruleset`: the compiled pack's; it decides whether outdoor and indoor faces may meet (M0210)."""
    placed, attached, broken = _place_tiles(block, tiles, sink, invalid, referenced, alternatives)
    if not placed and not _empty(block):
        return None
    order = list(placed.values())
    overlapping, deferred = _check_overlaps(order, sink, alternatives)
    joins = find_joins(order, attached)
    misplaced, pieces = _check_pieces(order, sink, alternatives)
    _check_settings(order, ruleset, misplaced, sink)
    graph = tile_graph(order, joins)
    broken |= overlapping  # placed, but not where it was meant: how the map joins says nothing more
    if not broken:  # a missing tile may be the link
        broken |= _check_parts(block, order, graph, sink)
    doors = _doors(block, placed, joins, graph, broken, sink)
    board = board_of(order, joins, doors, terrain)
    if len(board.spaces) > MAX_SIGHT_SPACES:
        sink.report("M0223", block.span, count=len(board.spaces), limit=MAX_SIGHT_SPACES)
    amap = AssembledMap(board=board, tiles=tuple(order), joins=tuple(joins), tile_graph=graph, broken=frozenset(broken),
                        overlaps=deferred, pieces=pieces)
    amap = replace(amap, marks=_read_marks(block, amap, sink))
    board, features = resolve_features(block, amap, terrain, dice or {}, sink, line_rules)
    return replace(amap, board=board, features=features)


def _empty(block: ast.MapBlock) -> bool:
    """`map { }`: a quest with no map, played on no board (a hub or menu of dialogs that
    starts other quests, docs/quests.md "A quest with no map"): an empty board, not a failure."""
    return not (block.tiles or block.doors or block.marks or block.edges or block.markers or block.stairs or block.gateways
                or block.glyphs or block.portals or block.areas or block.chests or block.hazards)


def _place_tiles(block: ast.MapBlock, tiles: Mapping[str, Tile], sink: Sink, invalid: frozenset[str],
                 referenced: frozenset[str], alternatives: bool = False
                 ) -> tuple[dict[str, PlacedTile], list[tuple[str, Opening, str, Opening]], set[str]]:
    """Every `tile` statement placed, in order (`at`, or `attach` to a tile placed before):
    the placed tiles by name, the attachments written, and the names declared but not
    placed (each reported once, where it is declared)."""
    declared = {p.name for p in block.tiles}
    placed: dict[str, PlacedTile] = {}
    attached: list[tuple[str, Opening, str, Opening]] = []
    seen_names: dict[str, ast.TilePlacement] = {}
    broken: set[str] = set()  # declared, not placed: its own diagnostic was given
    in_area = {t for a in block.areas for t in a.tiles}  # hidden until a door dividing their area opens
    for p in block.tiles:
        if p.name in seen_names:
            sink.report("M0206", p.span, name=p.name,
                        related=(Related(seen_names[p.name].span, "first placed here"),),
                        fix=f"Write `tile {p.code} as {p.name}2 …` for the second copy.")
            continue
        seen_names[p.name] = p
        broken.add(p.name)
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
            if p.at is not None and max(abs(at[0]), abs(at[1])) > MAX_COORDINATE:  # (0, 0) is near
                sink.report("M0222", p.at.span, name=p.name, x=at[0], y=at[1], limit=MAX_COORDINATE)
                continue
            placed[p.name] = PlacedTile(p.name, tile, at, turns(p.rotate or 0) * 90, p.hidden or p.name in in_area, p.span)
        else:
            result = _attach(p, tile, placed, broken, sink, p.name in in_area, alternatives)
            if result is None:
                continue
            pt, own, other, other_op = result
            placed[p.name] = pt
            attached.append((p.name, own, other, other_op))
        broken.discard(p.name)
    return placed, attached, broken


def _check_parts(block: ast.MapBlock, order: list[PlacedTile], graph: nx.Graph, sink: Sink) -> set[str]:
    """A map in several parts (M0211): the names of the tiles cut off from the first part
    (their unreachable squares and loose openings follow from this one mistake)."""
    if nx.number_connected_components(graph) <= 1:
        return set()
    names = [t.name for t in order]
    parts = sorted(sorted(c, key=names.index) for c in nx.connected_components(graph))
    parts.sort(key=lambda part: names.index(part[0]))
    sink.report("M0211", block.span, count=len(parts), parts="; ".join(", ".join(p) for p in parts))
    return {name for part in parts[1:] for name in part}


def _read_marks(block: ast.MapBlock, amap: AssembledMap, sink: Sink) -> Mapping[str, Cell]:
    """`mark NAME at SPACE`, in order: a mark may name its space by an earlier mark."""
    marks: dict[str, Cell] = {}
    for mark in block.marks:
        if mark.name in marks:
            sink.report("M0219", mark.span, name=mark.name)
            continue
        cell = resolve_space(amap, mark.at, sink, marks)
        if cell is not None:
            marks[mark.name] = cell
    return MappingProxyType(marks)


def _attach(p: ast.TilePlacement, tile: Tile, placed: dict[str, PlacedTile], broken: set[str], sink: Sink,
            in_area: bool = False, alternatives: bool = False) -> tuple[PlacedTile, Opening, str, Opening] | None:
    attach = p.attach
    assert attach is not None  # assemble_map attaches only a placement written with `attach`
    to = attach.to
    other = placed.get(to.tile) if to.tile is not None else None
    if other is None:
        if to.tile not in broken:
            sink.report("M0207", to.span, name=to.tile, hint=hint(to.tile or "", placed, sink=sink))
        return None
    own = _get_opening(p.name, tile, attach.side, sink)
    other_op = _get_opening(other.name, other.tile, to, sink)
    if own is None or other_op is None:
        return None
    a_label, b_label = _opening_label(p.name, own), _opening_label(other.name, other_op)
    if own.width != other_op.width:
        sink.report("M0203", attach.span, a=a_label, wa=own.width, b=b_label, wb=other_op.width)
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
    pt = PlacedTile(p.name, tile, at, rotation, p.hidden or in_area, p.span)
    cells = set(pt.local_of)
    # in a quest, a hidden tile may be an alternative of the one it covers: _check_overlaps leaves it to the quests pass
    hit = [q.name for q in placed.values() if cells & q.local_of.keys() and not (alternatives and (pt.hidden or q.hidden))]
    if hit:
        sink.report("M0205", p.span, a=a_label, b=b_label, other=", ".join(f"`{h}`" for h in hit))
        return None
    return pt, own, other.name, other_op


def _check_overlaps(order: list[PlacedTile], sink: Sink, alternatives: bool = True) -> tuple[set[str], tuple[tuple[str, str], ...]]:
    """M0209 for each pair of tiles that overlap; the names of the later ones (whose
    placement is the mistake: what depends on how the map joins is not reported). A pair
    with a hidden tile may be alternatives (two layouts of one place, only one ever on the
    board): returned as the second value, for the board-state search to decide (the quests
    pass reports M0209 there when both can be on the board at once)."""
    later: set[str] = set()
    deferred: list[tuple[str, str]] = []
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if b.name in later or not a.footprint.intersects(b.footprint):
                continue  # one error per misplaced tile, for the first tile it overlaps
            area = a.footprint.intersection(b.footprint).area
            if area <= 0:
                continue  # shared edges or corners only
            if alternatives and (a.hidden or b.hidden):
                deferred.append((a.name, b.name))
                continue
            report_overlap(a, b, sink)
            later.add(b.name)
    return later, tuple(deferred)


def report_overlap(a: PlacedTile, b: PlacedTile, sink: Sink, note: tuple[Related, ...] = ()) -> None:
    """M0209 for two overlapping tiles, at the later; `note` (the quests pass's, for
    alternatives: how both come to be on the board) added."""
    area = a.footprint.intersection(b.footprint).area
    common = sorted(a.local_of.keys() & b.local_of.keys(), key=lambda c: (c[1], c[0]))
    shown = ", ".join(f"({x}, {y})" for x, y in common[:8]) + (" …" if len(common) > 8 else "")
    sink.report("M0209", b.span, a=a.name, b=b.name, count=len(common), area=f"{area:g}", squares=shown,
                related=(Related(a.span, f"`{a.name}` placed here"),) + note)


def _check_settings(order: list[PlacedTile], ruleset: str, misplaced: set[str], sink: Sink) -> None:
    """Outdoor and indoor faces (Tile.face). 1st edition: never in one map (M0210). The 2nd
    edition has no such rule: a published 2nd-edition campaign map joins an outdoor piece
    straight to an indoor one (docs/rules.md). A tile already reported as a piece that is
    not in the box (`misplaced`) is left out."""
    if ruleset != "d1e":
        return
    order = [t for t in order if t.name not in misplaced]
    outdoor = [t for t in order if t.tile.face == "outdoor"]
    dungeon = [t for t in order if t.tile.face == "indoor"]
    if outdoor and dungeon:
        sink.report("M0210", outdoor[0].span if outdoor[0].span.line >= dungeon[0].span.line else dungeon[0].span,
                    outdoor=", ".join(t.name for t in outdoor), dungeon=", ".join(t.name for t in dungeon))


def _check_pieces(order: list[PlacedTile], sink: Sink, alternatives: bool = True) -> tuple[set[str], tuple[tuple[str, int], ...]]:
    """More tiles of a piece than the box has (M0212, M0213): the names of the tiles reported.
    A piece over its count only with hidden tiles counted may be alternatives (26A in one
    layout, 26B in the other): returned as the second value, (piece, copies), for the
    board-state search (the quests pass reports there when too many can be on the board at once)."""
    reported: set[str] = set()
    deferred: list[tuple[str, int]] = []
    by_piece: dict[str, list[PlacedTile]] = {}
    for t in order:
        by_piece.setdefault(t.tile.piece, []).append(t)
    for piece, uses in by_piece.items():
        copies = max(t.tile.copies for t in uses)
        if len(uses) <= copies:
            continue
        if alternatives and sum(1 for t in uses if not t.hidden) <= copies:
            deferred.append((piece, copies))
            continue
        report_pieces(piece, copies, uses, sink)
        reported.add(uses[-1].name)
    return reported, tuple(deferred)


def report_pieces(piece: str, copies: int, uses: list[PlacedTile], sink: Sink,
                  note: tuple[Related, ...] = ()) -> None:
    """M0213 (the two faces of a one-copy piece) or M0212 (more copies than the box holds)
    for the tiles `uses` of `piece`, at the last of them; `note` (the quests pass's: how they
    come to be on the board together) added."""
    codes = sorted({t.code for t in uses})
    if copies == 1 and len(codes) > 1:
        a = next(t for t in uses if t.code == codes[0])
        b = next(t for t in uses if t.code == codes[1])
        sink.report("M0213", uses[-1].span, a=a.code, b=b.code, piece=piece,
                    related=tuple(Related(t.span, f"`{t.name}` placed here") for t in uses[:-1]) + note)
    else:
        sink.report("M0212", uses[-1].span, piece=piece, used=len(uses), copies=copies,
                    tiles=", ".join(t.name for t in uses), related=note)


def _doors(block: ast.MapBlock, placed: dict[str, PlacedTile], joins: list[Join], graph: nx.Graph,
           broken: set[str], sink: Sink) -> list[Door]:
    doors: list[Door] = []
    names: set[str] = set()
    used: dict[frozenset[Edge], str] = {}
    hidden: dict[str, bool] = {}
    for d in block.doors:
        if d.name in names:
            sink.report("M0215", d.span, door=d.name, problem="another door of this map has that name")
            continue
        names.add(d.name)
        t = placed.get(d.on.tile) if d.on.tile is not None else None
        if t is None:
            if d.on.tile not in broken:
                sink.report("M0207", d.on.span, name=d.on.tile, hint=hint(d.on.tile or "", placed, sink=sink))
            continue
        if d.inside is not None:  # a door across the tile's own edge (a narrow neck, mid-corridor)
            inner = _inner_door_edges(d, t, sink)
            if inner is None:
                continue
            other = used.get(inner)
            if other is not None and not (d.hidden or hidden[other]):
                sink.report("M0215", d.span, door=d.name, problem=f"door `{other}` already stands on these edges")
                continue
            if other is None or hidden[other]:
                used[inner] = d.name
            hidden[d.name] = d.hidden
            doors.append(Door(d.name, inner, d.open, d.colour, d.locked, d.hidden))
            continue
        op = _get_opening(t.name, t.tile, d.on, sink)
        if op is None:
            continue
        join = next((j for j in joins if j.touches(t.name, op)), None)
        if join is None:
            if not broken:  # a tile that failed may be what this door was to join: reported already
                sink.report("M0214", d.span, door=d.name, opening=_opening_label(t.name, op))
            continue
        other = used.get(join.edges)
        if other is not None and not (d.hidden or hidden[other]):
            sink.report("M0215", d.span, door=d.name, problem=f"door `{other}` already stands on this attachment")
            continue
        # alternative doors (one of them `hidden`) share the place: the quests pass decides
        # from the events whether both can be on the board at once (docs/quests.md, "Alternatives")
        if other is None or hidden[other]:
            used[join.edges] = d.name
            graph.edges[join.a, join.b]["door"] = d.name
        hidden[d.name] = d.hidden
        doors.append(Door(d.name, join.edges, d.open, d.colour, d.locked, d.hidden))
    return doors


_STEP = {"north": (0, -1), "east": (1, 0), "south": (0, 1), "west": (-1, 0)}


def _inner_door_edges(d: ast.DoorDecl, t: PlacedTile, sink: Sink) -> frozenset[Edge] | None:
    """The world edges of `door NAME on TILE(c,r).SIDE`: the tile's own edge on SIDE of square
    (c, r), and the same edge of the next square along that side ((c+1, r) for north and
    south, (c, r+1) for east and west) when both of its squares are the tile's too, as the
    2nd-edition doors span two squares. None, reported, when (c, r) or the square beyond it
    is not a square of the tile (M0216, M0244)."""
    at = d.inside
    assert at is not None
    squares = t.tile.squares
    if (at.col, at.row) not in squares:
        best = min(squares, key=lambda c: (abs(c[0] - at.col) + abs(c[1] - at.row), c[1], c[0]))
        sink.report("M0216", at.span, ref=f"{at.tile}({at.col}, {at.row})", tile=t.name, code=t.code,
                    width=t.tile.width, height=t.tile.height, fix=f"The nearest square of {t.code} is {t.name}({best[0]}, {best[1]}).")
        return None
    dx, dy = _STEP[d.on.side]
    if (at.col + dx, at.row + dy) not in squares:
        sink.report("M0244", d.on.span, door=d.name, ref=f"{at.tile}({at.col},{at.row}).{d.on.side}", tile=t.name,
                    fix=f"A door on the tile's outline stands on a join: write `door {d.name} on {t.name}.{d.on.side}`.")
        return None
    along = (1, 0) if d.on.side in ("north", "south") else (0, 1)
    out = set()
    for k in (0, 1):
        a = (at.col + k * along[0], at.row + k * along[1])
        b = (a[0] + dx, a[1] + dy)
        if a in squares and b in squares:
            out.add(shared_edge(t.to_world(a), t.to_world(b)))
    return frozenset(out)


# ---------------------------------------------------------------- the pipeline pass
def _encounter_map(body: ast.EncounterBody, tiles: Mapping[str, Tile], terrain: Mapping[str, TerrainRule], sink: Sink,
                   invalid: frozenset[str], dice: Mapping[str, Die] | None = None, ruleset: str = "d2e",
                   line_rules: Mapping[str, LineRule] | None = None, alternatives: bool = False) -> AssembledMap | None:
    if body.map is None:
        return None
    amap = assemble_map(body.map, tiles, terrain, sink, invalid, _named_tiles(body), dice, ruleset, line_rules, alternatives)
    if amap is None:
        return None
    check_placements(amap, body, sink)
    check_openings(amap, body, sink)
    return amap


def check_openings(amap: AssembledMap, body: ast.EncounterBody, sink: Sink) -> None:
    """Dangling openings (M0304): an opening of a placed tile that joins no other tile
    leads off the map. Openings meant to stay open are marked: `edge TILE.SIDE` in the
    map block, or the encounter's `entrance` / `exit`. A mark on a joined opening is
    M0305. Nothing is said while a tile of the map failed (it may be the missing join)."""
    if body.map is None or amap.broken or body.map.incomplete:  # a dropped statement may be the join
        return
    joined = {(name, op) for j in amap.joins for name, op in ((j.a, j.a_opening), (j.b, j.b_opening))}
    intended: set[tuple[str, Opening]] = set()
    for port in (body.entrance, body.exit):  # check_placements reported a bad one
        if port is None or port.tile is None:
            continue
        t = amap.by_name.get(port.tile)
        op = t.tile.opening(port.side, port.index) if t is not None and port.side in SIDES else None
        if t is not None and op is not None:
            intended.add((t.name, op))
    for decl in body.map.edges:
        for ref in decl.openings:
            t = amap.by_name.get(ref.tile) if ref.tile is not None else None
            if t is None:
                if ref.tile not in amap.broken:
                    sink.report("M0207", ref.span, name=ref.tile, hint=hint(ref.tile or "", amap.by_name, sink=sink))
                continue
            op = _get_opening(t.name, t.tile, ref, sink)
            if op is None:
                continue
            if (t.name, op) in joined:
                other = next(j.b if j.a == t.name and j.a_opening == op else j.a for j in amap.joins if j.touches(t.name, op))
                sink.report("M0305", ref.span, opening=f"{t.name}.{op.label}", other=other)
                continue
            intended.add((t.name, op))
    for d in body.map.doors:  # a door on a loose opening is its own error (M0214)
        if d.inside is not None:
            continue  # inside a tile: on no opening
        t = amap.by_name.get(d.on.tile) if d.on.tile is not None else None
        op = t.tile.opening(d.on.side, d.on.index) if t is not None and d.on.side in SIDES else None
        if t is not None and op is not None:
            intended.add((t.name, op))
    for t in amap.tiles:
        loose = [op for op in t.tile.all_openings() if (t.name, op) not in joined and (t.name, op) not in intended]
        if loose:
            labels = ", ".join(f"`{t.name}.{op.label}`" for op in loose)
            marks = ", ".join(f"{t.name}.{op.label}" for op in loose)
            sink.report("M0304", t.span, tile=t.name, count=len(loose), openings=labels,
                        fix=f"Attach a tile or an end cap there, or write `edge {marks}` in the map block if the map ends there on purpose.")


def _meant(p: ast.TilePlacement, tiles: Mapping[str, Tile], named: AbstractSet[str]) -> str | None:
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
    named: list[tuple[str, Cell, Span]] = []

    def place(ref: ast.SpaceRef, what: str, span: Span) -> Cell | None:
        cell = resolve_space(amap, ref, sink)
        if cell is not None and rules[cell].blocks_movement:
            sink.report("M0220", getattr(ref, "span", span), space=amap.describe(cell), terrain=rules[cell].id, what=what)
            return None
        return cell

    if body.start is not None:
        glyph = amap.features.glyph(body.start.tile) if body.start.tile is not None else None
        if glyph is not None:
            if not glyph.active:
                sink.report("M0242", body.start.span, problem=f"heroes start on glyph `{glyph.name}`, which is not active at the start",
                            fix=f"Write `glyph {glyph.name} at … active`: heroes begin on or next to an activated glyph.")
            starts = [c for c in around(board, glyph.cells) if not rules[c].blocks_movement]
        elif body.start.tile is not None:
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
    for port in (body.entrance, body.exit):
        if port is not None:
            t = amap.by_name.get(port.tile) if port.tile is not None else None
            if t is None:
                if port.tile not in amap.broken:  # a tile that failed was reported where it is declared
                    sink.report("M0207", port.span, name=port.tile, hint=hint(port.tile or "", amap.by_name, sink=sink))
            else:
                _get_opening(t.name, t.tile, port, sink)
    if starts and not amap.broken:  # a tile that failed may be the way through: nothing more to say
        assert body.map is not None  # the map assembled from it
        lost = set(check_reachability(board, starts, sink, body.map.span, amap.describe))
        for what, cell, span in named:
            if cell in lost:
                sink.report("M0302", span, what=what, space=amap.describe(cell))
        check_portal(amap, body, starts, sink)
    check_hazards(amap, body, starts, sink)


def check_portal(amap: AssembledMap, body: ast.EncounterBody, starts: list[Cell], sink: Sink) -> None:
    """M0239: the portal must be reachable from where the heroes start (every door open,
    glyphs of transport used)."""
    f = amap.features
    if f.portal is None:
        return
    got = reachable(amap.board, starts, f.glyphs)
    if not got.intersection(f.portal.cells):
        # the heroes start somewhere (`starts`) on the map assembled from `body`
        assert body.start is not None and body.map is not None
        start = f"glyph `{body.start.tile}`" if f.glyph(body.start.tile or "") else "the heroes' start"
        decl = next(p for p in body.map.portals if p.tile == f.portal.tile)
        sink.report("M0239", decl.span, portal=f.portal.tile, start=start)


def check_reachability(board: Board, starts: Iterable[Cell], sink: Sink, span: Span,
                       describe: Callable[[Cell], str] | None = None) -> list[Cell]:
    """Warn (M0301) about squares unreachable from the start with every door open."""
    lost = graph.unreachable(board, list(starts))
    if lost:
        show = describe or (lambda c: f"({c[0]}, {c[1]})")
        text = ", ".join(show(c) for c in lost[:6]) + (" …" if len(lost) > 6 else "")
        sink.report("M0301", span, count=len(lost), squares=text)
    return lost


# ---------------------------------------------------------------- map features
def _span_of(ref: object, default: Span) -> Span:
    span: Span | None = getattr(ref, "span", None)
    return span or default


def read_lines(block: ast.MapBlock, amap: AssembledMap, rules: Mapping[str, LineRule], sink: Sink) -> tuple[Line, ...]:
    """The lines of `block` (`line KIND at SPACE.SIDE, …`; docs/maps.md, "Lines"), one per
    kind in the order first written, each the union of its edges. A side names the
    square's edge in the frame of its tile for `TILE(c,r).SIDE` (as a door inside a tile
    does), in the map's frame for `(x, y).SIDE` and `@mark.SIDE`. An unknown kind is M0245
    (did-you-mean), an edge without a space on both sides M0246."""
    edges: dict[str, set[Edge]] = {}
    for decl in block.lines:
        rule = rules.get(decl.kind)
        if rule is None:
            guess = did_you_mean(decl.kind, rules.keys(), sink=sink)
            sink.report("M0245", decl.kind_span if decl.kind_span != ast.NOWHERE else decl.span, kind=decl.kind,
                        hint=f"; did you mean `{guess}`?" if guess else (
                            f"; the kinds are {', '.join(f'`{k}`' for k in rules)}" if rules else "; this pack's catalogs hold no lines"),
                        fix=guess)
            continue
        for e in decl.edges:
            cell = resolve_space(amap, e.at, sink)
            if cell is None:
                continue
            dx, dy = _STEP[e.side]
            if isinstance(e.at, ast.TileSpace) and e.at.tile in amap.by_name:
                t = amap.by_name[e.at.tile]
                other: Cell | None = t.to_world((e.at.col + dx, e.at.row + dy))
            else:
                other = (cell[0] + dx, cell[1] + dy)
            if other is None or other not in amap.board.index:
                sink.report("M0246", e.span, kind=decl.kind, space=amap.describe(cell), side=e.side)
                continue
            edges.setdefault(decl.kind, set()).add(shared_edge(cell, other))
    return tuple(Line(kind, frozenset(es), rules[kind].cross_cost, rules[kind].colour) for kind, es in edges.items())


def resolve_features(block: ast.MapBlock, amap: AssembledMap, terrain: Mapping[str, TerrainRule],
                     dice: Mapping[str, Die], sink: Sink, line_rules: Mapping[str, LineRule] | None = None) -> tuple[Board, MapFeatures]:
    """The 1st-edition map features of `block` (docs/language.md, "Map features"), read
    kind by kind in this order: the board with marker terrain and stairs/gateway links
    folded in, and the features."""
    read = _FeatureReader(block, amap, terrain, sink)
    markers = read.markers()
    stairs = read.stairs()
    gateways = read.gateways()
    glyphs = read.glyphs()
    portal = read.portal()
    areas = read.areas()
    read.door_colours()
    rune_doors = read.rune_doors()
    chests = read.chests()
    read.lines = read_lines(block, amap, line_rules or {}, sink)
    hazards = read_hazards(block, amap, read.board(), terrain, sink) if block.hazards else ()
    features = MapFeatures(
        markers=markers, stairs=stairs, gateways=gateways, glyphs=glyphs, portal=portal,
        areas=areas, chests=chests, rune_doors=rune_doors, chest_roll=read.chest_roll(chests, dice), hazards=hazards,
    )
    return read.board(), features


class _FeatureReader:
    """Reads the features of one map block, one method per kind. Markers and staircases
    lay terrain over squares (`self.terrain`, `self.rules`), which later kinds see (a
    glyph, a chest or a staircase cannot stand on blocking terrain); stairs and gateways
    add links. `board()` is the map's board with all of it folded in."""

    def __init__(self, block: ast.MapBlock, amap: AssembledMap, catalog: Mapping[str, TerrainRule], sink: Sink) -> None:
        self.block, self.amap, self.catalog, self.sink = block, amap, catalog, sink
        self.rules = dict(amap.board.rules)
        self.terrain = list(amap.board.terrain)  # terrain id per space, as the board's
        self.index = amap.board.index
        self.links: list[Link] = []
        self.lines: tuple[Line, ...] = ()  # set by lines()

    def board(self) -> Board:
        board = self.amap.board
        return Board(board.spaces, tuple(self.terrain), self.rules, board.walls, board.doors, tuple(board.links) + tuple(self.links),
                     self.lines)

    def blocked(self, c: Cell) -> bool:
        return self.rules[self.terrain[self.index[c]]].blocks_movement

    def markers(self) -> tuple[Marker, ...]:
        """Terrain laid over squares."""
        amap, sink, index = self.amap, self.sink, self.index
        markers: list[Marker] = []
        covered: dict[Cell, str] = {}
        for mk in self.block.markers + hazard_markers(self.block, self.catalog):  # a hazard lays its terrain too
            rule = self.catalog.get(mk.terrain)
            if rule is None:
                sink.report("M0230", mk.span, terrain=mk.terrain, hint=hint(mk.terrain, self.catalog, sink=sink))
                continue
            if mk.terrain == "staircase" or getattr(rule, "id", "") == "staircase":
                sink.report("M0232", mk.span, terrain=mk.terrain, reason="the two ends of a staircase are linked",
                            fix="Write `stairs COLOUR at SPACE` for each end (grey, red, blue or green).")
                continue
            cells = _footprint(amap, index, mk.at, mk.size, mk.terrain, mk.span, sink)
            if cells is None:
                continue
            clash = next((c for c in cells if c in covered), None)
            if clash is not None:
                sink.report("M0233", mk.span, space=amap.describe(clash), other=covered[clash], terrain=mk.terrain)
                continue
            for c in cells:
                printed = amap.board.terrain[index[c]]
                if printed != "plain":
                    sink.report("M0234", mk.span, space=amap.describe(c), printed=printed, terrain=mk.terrain)
                covered[c] = mk.terrain
                self.terrain[index[c]] = mk.terrain
            self.rules.setdefault(mk.terrain, rule)
            markers.append(Marker(mk.terrain, tuple(sorted(cells, key=lambda c: (c[1], c[0])))))
        return tuple(markers)

    def stairs(self) -> tuple[Staircase, ...]:
        """Staircases: the two ends of a colour pair up, and the plain squares they stand on
        become staircase terrain when the catalog has it."""
        amap, sink, index, terrain = self.amap, self.sink, self.index, self.terrain
        stairs: list[Staircase] = []
        by_colour: dict[str, list[tuple[Cell, ast.StairsDecl]]] = {}
        failed: set[str] = set()  # colours with an end reported on its own: the pairing says nothing more
        for st in self.block.stairs:
            end = resolve_space(amap, st.at, sink)
            if end is None:
                failed.add(st.colour)
                continue
            if self.blocked(end):
                sink.report("M0237", _span_of(st.at, st.span), what=f"the {st.colour} staircase", space=amap.describe(end),
                            terrain=terrain[index[end]])
                failed.add(st.colour)
                continue
            by_colour.setdefault(st.colour, []).append((end, st))
        for colour, ends in by_colour.items():
            if colour in failed:
                continue
            if len(ends) != 2:
                sink.report("M0235", ends[-1][1].span, what="the staircase", colour=colour, count=len(ends),
                            related=tuple(Related(d.span, "an end") for _, d in ends[:-1]))
                continue
            (a, _), (b, _) = ends
            stairs.append(Staircase(colour, a, b))
            self.links.append(Link("stairs", (a,), (b,)))
            if "staircase" in self.catalog and terrain[index[a]] == "plain" and terrain[index[b]] == "plain":
                self.rules.setdefault("staircase", self.catalog["staircase"])
                terrain[index[a]] = terrain[index[b]] = "staircase"
        return tuple(stairs)

    def gateways(self) -> tuple[Gateway, ...]:
        """Magic gateways: two adjacent squares each, the two gateways of a colour linked."""
        amap, sink = self.amap, self.sink
        gateways: list[Gateway] = []
        gate_ends: dict[str, list[tuple[tuple[Cell, ...], ast.GatewayDecl]]] = {}
        failed: set[str] = set()
        for gw in self.block.gateways:
            found = [resolve_space(amap, r, sink) for r in gw.at]
            at = [c for c in found if c is not None]
            if len(at) < len(found):
                failed.add(gw.colour)
                continue
            a, b = at
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                sink.report("M0236", gw.span, a=amap.describe(a), b=amap.describe(b))
                failed.add(gw.colour)
                continue
            gate_ends.setdefault(gw.colour, []).append((tuple(sorted(at, key=lambda c: (c[1], c[0]))), gw))
        for colour, gates in gate_ends.items():
            if colour in failed:
                continue
            if len(gates) != 2:
                sink.report("M0235", gates[-1][1].span, what="the magic gateway", colour=colour, count=len(gates),
                            related=tuple(Related(g.span, "an end") for _, g in gates[:-1]))
                continue
            gateways.append(Gateway(colour, gates[0][0], gates[1][0]))
            self.links.append(Link("gateway", gates[0][0], gates[1][0]))
        return tuple(gateways)

    def glyphs(self) -> tuple[Glyph, ...]:
        """Glyphs of transport: named, on squares a figure can stand on."""
        amap, sink = self.amap, self.sink
        names = set(amap.by_name) | set(amap.marks)
        glyphs: list[Glyph] = []
        for gl in self.block.glyphs:
            if gl.name in names or any(g.name == gl.name for g in glyphs):
                sink.report("M0242", gl.span, problem=f"`{gl.name}` already names a tile, mark or glyph of this map",
                            fix=f"Give the glyph a name of its own, e.g. `glyph {gl.name}_glyph`.")
                continue
            cells = _footprint(amap, self.index, gl.at, gl.size, f"glyph `{gl.name}`", gl.span, sink)
            if cells is None:
                continue
            bad = next((c for c in cells if self.blocked(c)), None)
            if bad is not None:
                sink.report("M0237", gl.span, what=f"glyph `{gl.name}`", space=amap.describe(bad),
                            terrain=self.terrain[self.index[bad]])
                continue
            glyphs.append(Glyph(gl.name, tuple(sorted(cells, key=lambda c: (c[1], c[0]))), gl.active))
        return tuple(glyphs)

    def portal(self) -> Portal | None:
        """The one portal of a dungeon level: a placed tile."""
        amap, sink = self.amap, self.sink
        portal = None
        for pt in self.block.portals:
            if portal is not None:
                sink.report("M0238", pt.span, problem=f"this map already has a portal, `{portal.tile}`",
                            fix="A dungeon level has one portal; remove this statement.")
                continue
            t = amap.by_name.get(pt.tile)
            if t is None:
                if pt.tile not in amap.broken:
                    sink.report("M0207", pt.span, name=pt.tile, hint=hint(pt.tile, amap.by_name, sink=sink))
                continue
            portal = Portal(t.name, t.cells)
        return portal

    def areas(self) -> tuple[Area, ...]:
        """Areas of tiles and the doors that divide them from the map (`door … divides AREA`)."""
        amap, sink, block = self.amap, self.sink, self.block
        areas: list[Area] = []
        area_of: dict[str, str] = {}
        declared = {a.name for a in block.areas}
        dividing: dict[str, list[str]] = {}
        door_ids = {d.id for d in amap.board.doors}
        misnamed: set[str] = set()  # areas a door's misspelt `divides` stood for: that error is the one to give
        for d in block.doors:
            if d.divides is None or d.name not in door_ids:
                continue
            if d.divides not in declared:
                meant = did_you_mean(d.divides, sorted(declared), sink=sink)
                if meant is not None:
                    misnamed.add(meant)
                sink.report("M0240", d.span, problem=f"door `{d.name}` divides `{d.divides}`, which is not an area of this map"
                            f"{f'; did you mean `{meant}`?' if meant else ''}",
                            fix="Declare it with `area NAME tiles T, …`, or fix the name.")
                continue
            dividing.setdefault(d.divides, []).append(d.name)
        for area in block.areas:
            tiles_ok = []
            for tname in area.tiles:
                if tname not in amap.by_name:
                    if tname not in amap.broken:
                        sink.report("M0207", area.span, name=tname, hint=hint(tname, amap.by_name, sink=sink))
                    continue
                if tname in area_of:
                    sink.report("M0240", area.span, problem=f"tile `{tname}` is already in area `{area_of[tname]}`",
                                fix="A tile belongs to one area; remove it from one of them.")
                    continue
                area_of[tname] = area.name
                tiles_ok.append(tname)
            if not dividing.get(area.name) and area.name not in misnamed:
                sink.report("M0240", area.span, problem=f"area `{area.name}` is divided from the map by no door, so it is never revealed",
                            fix=f"Add `divides {area.name}` to the door that leads into it.")
            areas.append(Area(area.name, tuple(tiles_ok), tuple(dividing.get(area.name, ()))))
        return tuple(areas)

    def door_colours(self) -> None:
        """M0247: a door's colour that is no colour name (a rune door's is M0241's)."""
        for d in self.block.doors:
            if d.colour is None or d.rune or is_colour_name(d.colour):
                continue
            guess = did_you_mean(d.colour.lower(), colour_names(), sink=self.sink)
            self.sink.report("M0247", d.span, door=d.name, colour=d.colour,
                             hint=f"; did you mean `{guess}`?" if guess else "", fix=guess)

    def rune_doors(self) -> Mapping[str, str]:
        """Rune-locked doors: door name -> the runekey colour that opens it."""
        door_ids = {d.id for d in self.amap.board.doors}
        rune_doors: dict[str, str] = {}
        for d in self.block.doors:
            if not d.rune or d.name not in door_ids:
                continue
            if d.colour not in RUNE_COLOURS:
                problem = "has no colour" if d.colour is None else f"is `{d.colour}`, not a runekey colour"
                self.sink.report("M0241", d.span, door=d.name, problem=problem,
                                 fix=f"Write the colour before `rune`: `door {d.name} on … red rune` (red, yellow or blue).")
                continue
            rune_doors[d.name] = d.colour
        return MappingProxyType(rune_doors)

    def chests(self) -> tuple[Chest, ...]:
        """Treasure chests: a tier and a square a figure can stand on; unnamed ones numbered."""
        amap, sink = self.amap, self.sink
        chests: list[Chest] = []
        counter = 0
        for ch in self.block.chests:
            if ch.tier not in CHEST_TIERS:
                sink.report("M0243", ch.span, problem=f"`{ch.tier}` is not a chest: chests are copper, silver or gold"
                            f"{hint(ch.tier, CHEST_TIERS, sink=sink)}", fix="Write `chest copper|silver|gold at SPACE`.")
                continue
            spot = resolve_space(amap, ch.at, sink)
            if spot is None:
                continue
            if self.blocked(spot):
                sink.report("M0237", _span_of(ch.at, ch.span), what=f"the {ch.tier} chest", space=amap.describe(spot),
                            terrain=self.terrain[self.index[spot]])
                continue
            counter += 1
            chests.append(Chest(ch.name or f"chest_{counter}", ch.tier, spot))
        return tuple(chests)

    def chest_roll(self, chests: tuple[Chest, ...], dice: Mapping[str, Die]) -> ChestRoll | None:
        """The exact odds of the roll that opens a chest (four black power dice), when the map has one."""
        if not chests:
            return None
        die = dice.get(CHEST_DICE[0])
        if die is None:
            self.sink.report("M0243", self.block.chests[0].span,
                             problem="a chest is opened with four black power dice, and this pack has no `black_power` die",
                             fix="Require core-1e (it defines the black power die).")
            return None
        from compiler.catalogs.dice import face_kind_distribution

        dist = face_kind_distribution([die] * len(CHEST_DICE))
        return ChestRoll(CHEST_DICE, tuple(dist.items()))


def _footprint(amap: AssembledMap, index: Mapping[Cell, int], at: ast.SpaceRef, size: tuple[int, int], what: str,
               span: Span, sink: Sink) -> list[Cell] | None:
    """The squares a marker or glyph of `size` covers from the space `at`; None after
    reporting a space that resolves to nothing or a footprint off the map's squares (M0231)."""
    origin = resolve_space(amap, at, sink)
    if origin is None:
        return None
    w, h = size
    cells = [(origin[0] + dx, origin[1] + dy) for dy in range(h) for dx in range(w)]
    off = [c for c in cells if c not in index]
    if off:
        sink.report("M0231", span, terrain=what, space=amap.describe(origin), size=f"{w}x{h}",
                    count=len(off), cells=", ".join(f"({x}, {y})" for x, y in off[:6]) + (" …" if len(off) > 6 else ""),
                    fix=_marker_fix(amap, origin, (w, h)))
        return None
    return cells


def _marker_fix(amap: AssembledMap, origin: Cell, size: tuple[int, int]) -> str:
    """Where a block of `size` squares would fit nearest to `origin`, as a fix hint."""
    w, h = size
    spaces = amap.board.index
    best = None
    for (x, y) in amap.board.spaces:
        if all((x + dx, y + dy) in spaces for dy in range(h) for dx in range(w)):
            d = abs(x - origin[0]) + abs(y - origin[1])
            if best is None or d < best[0]:
                best = (d, (x, y))
    if best is None:
        return "No block of squares that size exists on this map; make the marker smaller."
    return f"It fits at {amap.describe(best[1])}; or make it smaller."
