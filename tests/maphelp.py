"""Shared helpers for the map tests: tiny catalogs and AST map blocks built by hand."""

from __future__ import annotations

from compiler.catalogs.document import Document, Entry
from compiler.diagnostics import Sink, Span
from compiler.passes.maps import assemble_map
from compiler.catalogs.terrain import TerrainRule
from compiler.passes.tiles import read_tiles
from compiler.syntax import ast

TERRAIN = {
    "plain": TerrainRule("plain", "."),
    "water": TerrainRule("water", "~", enter_cost=2),
    "mud": TerrainRule("mud", "m", enter_cost=2),
    "obstacle": TerrainRule("obstacle", "#", blocks_movement=True, blocks_sight=True),
    "pit": TerrainRule("pit", "o", sight="adjacent_only", leave_action=True),
    "pit1e": TerrainRule("pit1e", "p", leave_cost=2),
    "lava": TerrainRule("lava", "^"),
}
SYMBOLS = {r.symbol: k for k, r in TERRAIN.items()}


def catalog(spec: dict):
    doc = Document("tiles.yaml", {"tiles": spec})
    sink = Sink()
    tiles = read_tiles({k: Entry("tiles", k, v, doc, ("tiles", k), "t") for k, v in spec.items()}, SYMBOLS, sink)
    assert sink.items == [], sink.items
    return tiles


def span(line: int) -> Span:
    return Span("map.quest", line, 1)


def opening(ref: str, line: int = 1) -> ast.OpeningRef:
    """`9A.north.1` or `north` (local side)."""
    parts = ref.split(".")
    if parts[0] in ("north", "east", "south", "west"):
        return ast.OpeningRef(None, parts[0], int(parts[1]) if len(parts) > 1 else 0, span(line))
    return ast.OpeningRef(parts[0], parts[1], int(parts[2]) if len(parts) > 2 else 0, span(line))


def tile(code, at=None, rotate=None, attach=None, name=None, hidden=False, line=1) -> ast.TilePlacement:
    att = None
    if attach:
        side, to = attach
        att = ast.Attach(opening(side, line), opening(to, line), span(line))
    return ast.TilePlacement(
        code=code, name=name or code, at=ast.WorldSpace(*at, span(line)) if at else None,
        rotate=rotate, attach=att, hidden=hidden, span=span(line),
    )


def door(name, on, colour=None, open_=False, line=1) -> ast.DoorDecl:
    return ast.DoorDecl(name, opening(on, line), colour, open_, span(line))


def block(*tiles, doors=(), marks=()) -> ast.MapBlock:
    # give each placement its own line so diagnostics are located distinctly
    numbered = tuple(
        ast.TilePlacement(t.code, t.name, t.at, t.rotate, t.attach, t.hidden, span(i + 1)) if t.span.line == 1 else t
        for i, t in enumerate(tiles)
    )
    return ast.MapBlock(numbered, tuple(doors), tuple(marks), span(0))


def assemble(tiles, *placements, doors=(), marks=(), ruleset="d2e"):
    sink = Sink()
    amap = assemble_map(block(*placements, doors=doors, marks=marks), tiles, TERRAIN, sink, ruleset=ruleset)
    return amap, sink


def codes(sink: Sink) -> list[str]:
    return [d.code for d in sink.items]
