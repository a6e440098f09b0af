"""A tile catalog as one contact sheet: every tile drawn alone, labelled, one legend.

    render_tile_sheet(sheet, scale=24) -> Image
    tile_board(card, rules) -> Board     a tile alone: its boundary is walls except its openings
"""

from __future__ import annotations

import math
import re
from typing import Mapping

from PIL import Image, ImageDraw

from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.emit.images import style as S
from compiler.emit.images.legend import LegendEntry, render_legend
from compiler.emit.images.map import boundary_edges, render_map
from compiler.emit.images.pictures import Caption, MapPicture, TileCard, TileSheet
from compiler.emit.images.terrain import look_for
from compiler.geometry.board import Board


def tile_board(card: TileCard, rules: Mapping[str, TerrainRule]) -> Board:
    """A tile alone as a Board: boundary edges are walls except its openings."""
    ordered = sorted(card.cells, key=lambda ct: (ct[0][1], ct[0][0]))
    spaces = tuple(c for c, _ in ordered)
    terrain = tuple(t for _, t in ordered)
    walls = (frozenset(boundary_edges(spaces)) | card.walls) - card.openings
    all_rules = {"plain": PLAIN, **{t: rules.get(t, TerrainRule(t)) for t in set(terrain)}}
    return Board(spaces, terrain, all_rules, walls)


def render_tile_sheet(sheet: TileSheet, *, scale: int = 24) -> Image.Image:
    """A contact sheet: every tile in code order, labelled, with one legend for the catalog."""
    scale = max(8, int(scale))
    cards = sorted(sheet.tiles, key=lambda c: _natural_key(c.code))
    images: list[Image.Image] = []
    terrains: set[str] = set()
    for card in cards:
        board = tile_board(card, sheet.rules)
        terrains.update(board.terrain)
        pic = MapPicture(
            board=board,
            openings=card.openings,
            title=card.code + (f"  ({card.kind})" if card.kind else ""),
            legend=False,
            coordinates=False,
            captions=tuple(Caption(cell, text) for cell, text in card.numbers),
        )
        images.append(render_map(pic, scale=scale))
    if not images:
        images.append(Image.new("RGB", (scale * 4, scale * 2), S.BACKGROUND))
    columns = sheet.columns or max(1, math.ceil(math.sqrt(len(images))))
    gap = max(4, scale // 4)
    rows = [images[i : i + columns] for i in range(0, len(images), columns)]
    col_w = [max((row[c].width for row in rows if c < len(row)), default=0) for c in range(columns)]
    row_h = [max(img.height for img in row) for row in rows]
    title_h = max(18, round(scale * 0.8)) if sheet.title else 0
    width = sum(col_w) + gap * (columns + 1)
    # one legend for the catalog: its terrains (by id), openings and walls
    rules = {t: sheet.rules.get(t, TerrainRule(t)) for t in terrains}
    entries = [LegendEntry(t, "terrain", look_for(rules, t)) for t in sorted(terrains)]
    entries += [LegendEntry("opening", "opening", colour=S.OPENING), LegendEntry("wall", "wall", colour=S.WALL)]
    legend = render_legend(entries, max(width, 240), scale)
    width = max(width, legend.width)
    height = title_h + sum(row_h) + gap * (len(rows) + 1) + legend.height
    out = Image.new("RGB", (width, height), S.BACKGROUND)
    if sheet.title:
        ImageDraw.Draw(out).text((gap, 2), S.drawable(sheet.title), fill=S.TEXT, font=S.font_for(max(12, round(scale * 0.6)), sheet.title))
    y = title_h + gap
    for r, row in enumerate(rows):
        x = gap
        for c, img in enumerate(row):
            out.paste(img, (x, y))
            x += col_w[c] + gap
        y += row_h[r] + gap
    out.paste(legend, (0, y))
    return out


def _natural_key(code: str) -> tuple[tuple[int, int, str], ...]:
    """`2A` before `10A`: digit runs compare as numbers."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|\D+", code))
