"""A dealt table shown: as text (what `questc layout` prints) and as a picture."""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from compiler.emit.images.pictures import Caption, MapPicture, TileOutline
from compiler.geometry.assemble import PlacedTile, assemble_placed
from compiler.catalogs.terrain import TerrainRule
from compiler.geometry.board import Link
from compiler.model.layout import Layout

GLYPHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def layout_text(lay: Layout, names: Mapping[str, str] | None = None) -> str:
    """The human form of `questc layout`: the draw order, each placement, and the table in ASCII
    (one letter per encounter in draw order, `=` for end caps, `.` for an empty table square)."""
    names = names or {}
    w, h = lay.size
    x0, y0, _, _ = lay.bounds
    out = [f"deck {lay.deck}, seed {lay.seed}: {len(lay.steps)} encounters drawn, "
           f"{lay.end_cap_pairs} linked end-cap pair(s), table {w}x{h} squares"]
    grid = [["." for _ in range(w)] for _ in range(h)]
    for k, s in enumerate(lay.steps):
        glyph = GLYPHS[k % len(GLYPHS)]
        label = names.get(s.encounter, s.encounter)
        tiles = ", ".join(f"{t.code}@({t.at[0]},{t.at[1]}) r{t.rotation}" for t in s.piece.tiles)
        how = "start" if k == 0 else ("linked by end caps (would overlap " + ", ".join(s.collided_with) + ")" if s.linked
                                      else "attached to the previous exit")
        out.append(f"  {glyph} {k + 1:>2}. {s.card:<22} {label}: {how}; {tiles}")
        if s.exit_cap_blocked:
            out.append("         (no room for an end cap on the previous exit)")
        for x, y in s.piece.cells:
            grid[y - y0][x - x0] = glyph
        for cap in (s.exit_cap, s.entrance_cap):
            if cap is not None:
                for x, y in cap.cells:
                    grid[y - y0][x - x0] = "="
    out.append(f"  never drawn: {', '.join(lay.order[len(lay.steps):]) or '-'}")
    out.append("")
    out.extend("  " + "".join(row) for row in grid)
    return "\n".join(out) + "\n"


def layout_picture(lay: Layout, terrain: Mapping[str, TerrainRule], names: Mapping[str, str] | None = None) -> MapPicture:
    """The whole table as one picture: every tile, caps linked, each encounter captioned."""
    names = names or {}
    placed: list[PlacedTile] = []
    captions = []
    link_pairs = []
    for k, s in enumerate(lay.steps):
        for p in (s.exit_cap, s.piece, s.entrance_cap):
            if p is not None:
                placed.extend(PlacedTile(f"s{k}_{t.name}", t.tile, t.at, t.rotation) for t in p.tiles)
        top = min(s.piece.cells, key=lambda c: (c[1], c[0]))
        captions.append(Caption((top[0], top[1] - 1), f"{k + 1}. {names.get(s.encounter, s.encounter)}"))
        if s.exit_cap is not None and s.entrance_cap is not None:
            link_pairs.append(Link("end_cap", tuple(sorted(s.exit_cap.cells)), tuple(sorted(s.entrance_cap.cells))))
    amap = assemble_placed(placed, terrain)
    board = replace(amap.board, links=tuple(amap.board.links) + tuple(link_pairs))
    outlines = tuple(TileOutline(t.code, t.cells, "", False) for t in amap.tiles)
    return MapPicture(board=board, tiles=outlines, captions=tuple(captions),
                      title=f"{lay.deck}, seed {lay.seed}", coordinates=False)
