"""A space reference resolved on an assembled map, with its diagnostics: the one helper
the passes share. The maps pass resolves the spaces a map block and an encounter's start,
tokens and spawns name; the quests, expectations and campaign passes the spaces their
statements name, with the same diagnostics (M0207, M0216, M0217, M0218).

It reports, so it is no geometry (compiler/geometry reports nothing; the pure question,
which cell a reference names, is `AssembledMap.space`), and it is no pass of its own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from compiler.diagnostics import Sink
from compiler.diagnostics.hints import hint
from compiler.geometry.lattice import Cell
from compiler.syntax import ast

if TYPE_CHECKING:  # the geometry's libraries are loaded by the passes that build maps
    from compiler.geometry.assemble import AssembledMap, PlacedTile


def resolve_space(amap: AssembledMap, ref: ast.TileSpace | ast.WorldSpace | ast.MarkRef, sink: Sink,
                  marks: Mapping[str, Cell] | None = None) -> Cell | None:
    """The world cell a space reference names, or None after a located diagnostic.
    `marks`: the marks a `@NAME` may name (the map's own by default)."""
    if isinstance(ref, ast.MarkRef):
        known = amap.marks if marks is None else marks
        if ref.name in known:
            return known[ref.name]
        sink.report("M0218", ref.span, name=ref.name, hint=hint(ref.name, known, sink=sink))
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


def _nearest_squarehint(placed: PlacedTile, at: Cell) -> str:
    best = min(placed.tile.squares, key=lambda c: (abs(c[0] - at[0]) + abs(c[1] - at[1]), c[1], c[0]))
    return f"The nearest square of {placed.code} is {placed.name}({best[0]}, {best[1]})."
