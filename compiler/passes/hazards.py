"""Hazards on a map (docs/maps.md, "Hazards"; docs/rules.md, "Hazards"): the maps pass's
reading of `hazard KIND at SPACE …` statements and its checks of what they reach.

`hazard_markers` gives each hazard's terrain to the marker reader (a boulder blocks its own
squares like `marker boulder`); `read_hazards` works out every lane and trigger on the board
with the markers laid (compiler/geometry/hazards.py) and reports what cannot be worked out
(M0260-M0264); `check_hazards` compares the reaches with the heroes' start, the spawns and
the routes to the objectives (M0265-M0268).
"""

from __future__ import annotations

from typing import Mapping

import networkx as nx

from compiler.catalogs.terrain import TerrainRule
from compiler.diagnostics import Related, Sink, Span
from compiler.diagnostics.hints import did_you_mean
from compiler.geometry import graph
from compiler.geometry.assemble import AssembledMap
from compiler.geometry.board import Board
from compiler.geometry.hazards import Hazard, step_problem, sweep
from compiler.geometry.lattice import Cell
from compiler.passes.spaces import resolve_space
from compiler.syntax import ast

_WHY = {"wall": "a wall", "door": "a closed door", "edge": "the map's edge", "hazard": "another hazard", "pit": "a pit"}


def _kinds(catalog: Mapping[str, TerrainRule]) -> list[str]:
    return sorted(k for k, r in catalog.items() if r.hazard)


def hazard_markers(block: ast.MapBlock, catalog: Mapping[str, TerrainRule]) -> tuple[ast.MarkerDecl, ...]:
    """The marker each hazard of a kind the catalog knows lays on its own squares."""
    return tuple(ast.MarkerDecl(h.kind, h.at, h.size, h.span) for h in block.hazards
                 if h.kind in catalog and catalog[h.kind].hazard)


def read_hazards(block: ast.MapBlock, amap: AssembledMap, board: Board, catalog: Mapping[str, TerrainRule],
                 sink: Sink) -> tuple[Hazard, ...]:
    """Every hazard of `block` on `board` (the map with its markers laid), in file order;
    one whose kind, squares or lane cannot be worked out is reported and left out."""
    placed: list[tuple[ast.HazardDecl, TerrainRule, tuple[Cell, ...]]] = []
    for decl in block.hazards:
        rule = catalog.get(decl.kind)
        if rule is None or not rule.hazard:
            kinds = _kinds(catalog)
            guess = did_you_mean(decl.kind, kinds, sink=sink)
            hint = (f"; did you mean `{guess}`?" if guess else
                    f"; the hazards are {', '.join(f'`{k}`' for k in kinds)}" if kinds else "; this pack's catalogs hold no hazard")
            if rule is not None:
                hint = f" (it is terrain with no `hazard:` entry: lay it with `marker`){hint}"
            sink.report("M0260", decl.kind_span if decl.kind_span != ast.NOWHERE else decl.span, kind=decl.kind, hint=hint,
                        fix=guess)
            continue
        problem = _misused(decl, rule)
        if problem:
            sink.report("M0261", decl.span, kind=decl.kind, problem=problem)
            continue
        origin = amap.space(decl.at)
        if origin is None:  # the marker reader reported the space
            continue
        w, h = decl.size
        cells = tuple(sorted(((origin[0] + dx, origin[1] + dy) for dy in range(h) for dx in range(w)), key=lambda c: (c[1], c[0])))
        if any(c not in board.index for c in cells):  # M0231, from the marker reader
            continue
        placed.append((decl, rule, cells))
    out: list[Hazard] = []
    openings = frozenset(e for t in amap.tiles for op in t.tile.all_openings() for e in t.opening_edges(op))
    for decl, rule, cells in placed:
        where = amap.describe(cells[0])
        if rule.hazard == "area":
            trigger = [resolve_space(amap, ref, sink) for ref in decl.trigger]
            if any(c is None for c in trigger):
                continue
            got = tuple(sorted({c for c in trigger if c is not None} or set(cells), key=lambda c: (c[1], c[0])))
            out.append(Hazard(decl.kind, "area", cells, trigger=got))
            continue
        if decl.lane:
            lane = _written_lane(decl, amap, board, cells, sink)
            if lane is not None:
                out.append(Hazard(decl.kind, "lane", cells, facing="", lane=lane, stop="given"))
            continue
        facing = _world_side(decl, amap)
        others = {c for d, r, cs in placed if d is not decl and r.hazard == "lane" for c in cs}
        swept, stop = sweep(board, cells, facing, others, rule.hazard_stops_in_pit, openings)
        if not swept:
            sink.report("M0262", decl.span, kind=decl.kind, space=where, facing=decl.facing, why=_WHY[stop])
            continue
        if stop == "edge":
            sink.report("M0264", decl.span, kind=decl.kind, space=where, last=amap.describe(swept[-1]), count=len(swept))
        out.append(Hazard(decl.kind, "lane", cells, facing=facing, lane=swept, stop=stop))
    return tuple(out)


def _misused(decl: ast.HazardDecl, rule: TerrainRule) -> str:
    if rule.hazard == "lane":
        if decl.trigger:
            return "`trigger` is for traps (area hazards); a lane hazard strikes what it moves over"
        if not decl.facing and not decl.lane:
            return "a lane hazard needs `facing SIDE` (its lane worked out from the map) or `lane SPACE, …` (written out)"
        if decl.facing and decl.lane:
            return "write `facing SIDE` or `lane SPACE, …`, not both: a written lane already says where it goes"
        return ""
    if decl.facing or decl.lane:
        return "`facing` and `lane` are for lane hazards (boulders, crushing walls); a trap strikes its own squares"
    return ""


def _world_side(decl: ast.HazardDecl, amap: AssembledMap) -> str:
    """`facing` in the world's frame: a side written after a tile's square is the tile's own
    side, turned with the tile (as doors and lines read it)."""
    if isinstance(decl.at, ast.TileSpace) and decl.at.tile in amap.by_name:
        return amap.by_name[decl.at.tile].orientation.side(decl.facing)
    return decl.facing


def _written_lane(decl: ast.HazardDecl, amap: AssembledMap, board: Board, cells: tuple[Cell, ...],
                  sink: Sink) -> tuple[Cell, ...] | None:
    """The squares `lane …` lists, each one step on from the one before (the first from one
    of the hazard's own squares); None after reporting one that is not (M0263)."""
    lane: list[Cell] = []
    for ref in decl.lane:
        cell = resolve_space(amap, ref, sink)
        if cell is None:
            return None
        if lane:
            prev = lane[-1]
        else:
            prev = next((c for c in cells if abs(c[0] - cell[0]) + abs(c[1] - cell[1]) == 1), cells[0])
        problem = step_problem(board, prev, cell)
        if problem:
            sink.report("M0263", getattr(ref, "span", decl.span), kind=decl.kind, space=amap.describe(cell),
                        prev=amap.describe(prev), problem=problem)
            return None
        lane.append(cell)
    return tuple(lane)


def check_hazards(amap: AssembledMap, body: ast.EncounterBody, starts: list[Cell], sink: Sink) -> None:
    """What each hazard reaches against the encounter: an explicit hero start square in a
    reach (or every square of a tile start), a spawn in a reach (M0265, M0266, warnings), and
    an objective every walking route to which crosses a reach (M0267 for a lane, a warning;
    M0268 for a trap, a note: a trap on the way is what traps are for)."""
    hazards = amap.features.hazards
    if not hazards or body.map is None:
        return
    decls = [d for d in body.map.hazards if d.kind in {h.kind for h in hazards}]
    span_of = {h: _decl_span(h, decls, amap) for h in hazards}
    reach = {h: set(h.reach) for h in hazards}
    if body.start is not None:
        explicit = [(ref, amap.space(ref)) for ref in body.start.spaces]
        for ref, cell in explicit:
            for h in hazards:
                if cell is not None and cell in reach[h]:
                    sink.report("M0265", getattr(ref, "span", body.start.span), space=amap.describe(cell), kind=h.kind,
                                at=amap.describe(h.cells[0]), related=(Related(span_of[h], "the hazard"),))
        if not explicit and starts:
            for h in hazards:
                if all(c in reach[h] for c in starts):
                    sink.report("M0265", body.start.span, space="every start square", kind=h.kind,
                                at=amap.describe(h.cells[0]), related=(Related(span_of[h], "the hazard"),))
    for sp in body.spawns:
        for ref in ([sp.at] if sp.at is not None else []) + [r for pt in sp.points for r in pt.at]:
            cell = amap.space(ref)
            for h in hazards:
                if cell is not None and cell in reach[h]:
                    sink.report("M0266", getattr(ref, "span", sp.span), what=f"spawn `{sp.group}`", space=amap.describe(cell),
                                kind=h.kind, at=amap.describe(h.cells[0]), related=(Related(span_of[h], "the hazard"),))
    if not starts or amap.broken:
        return
    _check_routes(amap, body, starts, hazards, span_of, sink)


def _check_routes(amap: AssembledMap, body: ast.EncounterBody, starts: list[Cell], hazards: tuple[Hazard, ...],
                  span_of: Mapping[Hazard, Span], sink: Sink) -> None:
    board = amap.board
    objectives: list[tuple[str, Cell, Span]] = []
    for tok in body.tokens:
        cell = amap.space(tok.at)
        if cell is not None:
            objectives.append((f"the {tok.kind} token", cell, tok.span))
    portal = amap.features.portal
    if portal is not None:
        decl = next((p for p in body.map.portals if p.tile == portal.tile), None) if body.map is not None else None
        for cell in portal.cells[:1]:
            objectives.append((f"the portal `{portal.tile}`", cell, decl.span if decl is not None else body.span))
    if not objectives:
        return
    g = graph.with_doors(graph.movement_graph(board), graph.all_open(board))

    def walked(blocked: set[Cell]) -> set[Cell]:
        seen: set[Cell] = set()
        view = nx.subgraph_view(g, filter_node=lambda n: n not in blocked)
        for s in starts:
            if s in view and s not in seen:
                seen |= nx.descendants(view, s) | {s}
        return seen

    everywhere = walked(set())
    for h in hazards:
        struck = set(h.reach) | set(h.trigger)
        cut = walked(struck - set(starts))
        for what, cell, span in objectives:
            if cell not in everywhere or cell in cut:
                continue
            at, where, related = amap.describe(h.cells[0]), amap.describe(cell), (Related(span, "the objective"),)
            if h.reach_kind == "lane":
                sink.report("M0267", span_of[h], kind=h.kind, at=at, what=what, space=where, related=related)
            else:
                sink.report("M0268", span_of[h], kind=h.kind, at=at, what=what, space=where, related=related)


def _decl_span(h: Hazard, decls: list[ast.HazardDecl], amap: AssembledMap) -> Span:
    """The statement that placed `h` (the one of its kind whose square is its first)."""
    for d in decls:
        if d.kind == h.kind and amap.space(d.at) == h.cells[0]:
            return d.span
    return decls[0].span if decls else ast.NOWHERE
