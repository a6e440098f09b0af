"""Map pictures with Pillow: quests and encounters, question overlays, tile sheets, chains.

The renderer reads plain input values (`MapPicture`, `TileSheet`, `ChainPicture`,
`WorldPicture`) that the pipeline fills from the checked model; it knows nothing about
how maps were assembled or how sight was computed. Entry points:

    render_map(picture, scale=32) -> Image        one map, optionally with sight/move overlays
    render_tile_sheet(sheet, scale=24) -> Image   a contact sheet of a tile catalog
    render_chain(chain, scale=24) -> Image        several maps in one frame, labelled
    render_world(world) -> Image                  campaign world (see render_world.py)
    save_png(image, path) / png_bytes(image)      deterministic PNG bytes

Layers are drawn in a fixed order (terrain, hatching, sight shading, grid, reach outline,
tile outlines, walls, openings, doors, links, markers, labels, coordinates, legend) so
later layers stay readable on top of earlier ones.
"""

from __future__ import annotations

import io
import math
import os
import re
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np
from PIL import Image, ImageDraw

from compiler.emit.images import style as S
from compiler.emit.images.world import Location, Trail, WorldPicture, render_world  # noqa: F401 (re-export)
from compiler.geometry.board import Board
from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.geometry.lattice import Cell, Edge, cell_edges

__all__ = [
    "Caption",
    "ChainPart",
    "ChainPicture",
    "Location",
    "MapLayout",
    "MapPicture",
    "SpawnPoint",
    "TileCard",
    "TileOutline",
    "TileSheet",
    "Token",
    "Trail",
    "WorldPicture",
    "map_layout",
    "monster_initials",
    "png_bytes",
    "render_chain",
    "render_map",
    "render_tile_sheet",
    "render_world",
    "save_png",
]

DEFAULT_SCALE = 32


# ---------------------------------------------------------------- input values


@dataclass(frozen=True)
class TileOutline:
    """One placed tile: its code (label), the world spaces it covers, whether it starts hidden."""

    code: str
    cells: tuple[Cell, ...]
    name: str = ""  # the placement's name when it differs from the code (a second copy)
    hidden: bool = False


@dataclass(frozen=True)
class Token:
    cell: Cell
    kind: str  # search | objective | villager | …
    colour: str | None = None
    label: str = ""


@dataclass(frozen=True)
class SpawnPoint:
    """A monster figure's footprint; `heroes` is a hero-count label like "3+" ("" = always)."""

    cells: tuple[Cell, ...]
    initials: str
    rank: str = "minion"  # master | minion
    heroes: str = ""


@dataclass(frozen=True)
class Caption:
    cell: Cell
    text: str


@dataclass(frozen=True)
class MapPicture:
    board: Board
    tiles: tuple[TileOutline, ...] = ()
    openings: frozenset[Edge] = frozenset()  # openings not joined to another tile
    tokens: tuple[Token, ...] = ()
    spawns: tuple[SpawnPoint, ...] = ()
    hero_starts: tuple[Cell, ...] = ()
    entrances: frozenset[Edge] = frozenset()
    exits: frozenset[Edge] = frozenset()
    # question overlays
    seen: frozenset[Cell] | None = None
    origin: Cell | None = None
    reachable: frozenset[Cell] | None = None
    blockers: frozenset[Cell] = frozenset()
    # decoration
    captions: tuple[Caption, ...] = ()
    title: str = ""
    legend: bool = True
    coordinates: bool = True


def monster_initials(name: str) -> str:
    """`goblin_archers` -> "GA", `ettin` -> "E", "Cave spiders" -> "CS" (at most 3 letters)."""
    words = [w for w in re.split(r"[\s_\-]+", name) if w]
    return "".join(w[0].upper() for w in words)[:3] or "?"


# ---------------------------------------------------------------- layout


@dataclass(frozen=True)
class MapLayout:
    """Where world lattice points land in the image. Public so tests can probe pixels."""

    x0: int  # world x of the leftmost drawn column (one padding column left of the content)
    y0: int
    columns: int
    rows: int
    scale: int
    left: int  # pixel offset of lattice point (x0, y0)
    top: int

    def point(self, p: tuple[float, float]) -> tuple[int, int]:
        return (
            self.left + round((p[0] - self.x0) * self.scale),
            self.top + round((p[1] - self.y0) * self.scale),
        )

    def cell_box(self, cell: Cell) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) pixels of a space, right/bottom exclusive."""
        l, t = self.point(cell)
        return l, t, l + self.scale, t + self.scale

    def centre(self, cell: Cell) -> tuple[int, int]:
        l, t, _, _ = self.cell_box(cell)
        return l + self.scale // 2, t + self.scale // 2

    def edge_mid(self, e: Edge) -> tuple[int, int]:
        (ax, ay), (bx, by) = e
        return self.point(((ax + bx) / 2, (ay + by) / 2))

    @property
    def map_size(self) -> tuple[int, int]:
        return self.columns * self.scale, self.rows * self.scale


def _content_cells(picture: MapPicture) -> set[Cell]:
    cells: set[Cell] = set(picture.board.spaces)
    for t in picture.tiles:
        cells.update(t.cells)
    cells.update(tok.cell for tok in picture.tokens)
    for sp in picture.spawns:
        cells.update(sp.cells)
    cells.update(picture.hero_starts)
    cells.update(picture.seen or ())
    cells.update(picture.reachable or ())
    cells.update(picture.blockers)
    if picture.origin is not None:
        cells.add(picture.origin)
    cells.update(c.cell for c in picture.captions)
    for edges in (picture.openings, picture.entrances, picture.exits):
        for (a, b) in edges:
            cells.add((min(a[0], b[0]), min(a[1], b[1])))
    return cells


def _margins(scale: int, picture: MapPicture) -> tuple[int, int]:
    coord = max(14, round(scale * 0.6)) if picture.coordinates else 4
    title = max(16, round(scale * 0.7)) if picture.title else 0
    return coord, title


def map_layout(picture: MapPicture, scale: int = DEFAULT_SCALE) -> MapLayout:
    """The pixel layout `render_map` uses for `picture` at `scale`."""
    cells = _content_cells(picture) or {(0, 0)}
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, y0 = min(xs) - 1, min(ys) - 1  # one padding square round the content for outside markers
    columns, rows = max(xs) - x0 + 2, max(ys) - y0 + 2
    coord, title = _margins(scale, picture)
    return MapLayout(x0, y0, columns, rows, scale, coord, coord + title)


# ---------------------------------------------------------------- drawing helpers


def _line_rect(layout: MapLayout, e: Edge, width: int) -> tuple[int, int, int, int]:
    """A filled rectangle covering edge e with the given thickness (exact, no anti-aliasing)."""
    (ax, ay), (bx, by) = layout.point(e[0]), layout.point(e[1])
    h = width // 2
    return min(ax, bx) - h, min(ay, by) - h, max(ax, bx) + width - h - 1, max(ay, by) + width - h - 1


def _dashed(draw: ImageDraw.ImageDraw, a, b, fill, width: int, dash: int) -> None:
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return
    n = max(1, int(length // dash))
    for i in range(0, n, 2):
        t0, t1 = i / n, min(1.0, (i + 1) / n)
        draw.line(
            [(round(ax + (bx - ax) * t0), round(ay + (by - ay) * t0)), (round(ax + (bx - ax) * t1), round(ay + (by - ay) * t1))],
            fill=fill,
            width=width,
        )


def _text_centred(draw: ImageDraw.ImageDraw, xy, text: str, fnt, fill) -> None:
    left, top, w, h = S.text_size(fnt, text)
    draw.text((round(xy[0] - w / 2 - left), round(xy[1] - h / 2 - top)), text, fill=fill, font=fnt)


def _label_box(draw: ImageDraw.ImageDraw, xy, text: str, fnt, fill, background, pad: int = 2) -> None:
    """Text with its top-left at xy on a filled box."""
    left, top, w, h = S.text_size(fnt, text)
    x, y = xy
    draw.rectangle([x, y, x + w + 2 * pad, y + h + 2 * pad], fill=background)
    draw.text((x + pad - left, y + pad - top), text, fill=fill, font=fnt)


def _region_mask(layout: MapLayout, size: tuple[int, int], cells: Iterable[Cell]) -> np.ndarray:
    mask = np.zeros((size[1], size[0]), dtype=bool)
    for c in cells:
        l, t, r, b = layout.cell_box(c)
        mask[max(t, 0) : max(b, 0), max(l, 0) : max(r, 0)] = True
    return mask


def _overlay(image: Image.Image, mask: np.ndarray, colour: S.RGB, alpha: float) -> Image.Image:
    """Blend `colour` over the masked pixels with the same integer arithmetic as `S.blend`."""
    arr = np.asarray(image, dtype=np.uint16).copy()
    a = round(alpha * 256)
    over = np.array(colour, dtype=np.uint16) * a
    arr[mask] = (arr[mask] * (256 - a) + over) >> 8
    return Image.fromarray(arr.astype(np.uint8), "RGB")


def hatch_mask(size: tuple[int, int], period: int) -> np.ndarray:
    """Diagonal hatching: pixels with (x + y) mod period < 2. Public so tests can probe it."""
    ys, xs = np.indices((size[1], size[0]))
    return ((xs + ys) % period) < 2


def _hatch_period(scale: int) -> int:
    return max(5, scale // 4)


def _boundary_edges(cells: Iterable[Cell]) -> list[Edge]:
    """Edges with a cell of the set on exactly one side, sorted."""
    count: dict[Edge, int] = {}
    for c in cells:
        for e in cell_edges(c):
            count[e] = count.get(e, 0) + 1
    return sorted(e for e, n in count.items() if n == 1)


def _outside_cell(e: Edge, spaces: set[Cell]) -> tuple[Cell, Cell]:
    """(inside, outside) cells across edge e, judged by which one is a map space."""
    (ax, ay), (bx, by) = e
    if ay == by:  # horizontal edge: cells above and below
        above, below = (ax, ay - 1), (ax, ay)
        return (above, below) if above in spaces else (below, above)
    left, right = (ax - 1, ay), (ax, ay)
    return (left, right) if left in spaces else (right, left)


# ---------------------------------------------------------------- terrain


def _draw_glyph(draw: ImageDraw.ImageDraw, box, look: S.TerrainLook, scale: int) -> None:
    l, t, r, b = box
    s = scale
    m = max(3, s // 4)  # glyphs keep to the middle half of the square
    ink = look.ink
    w = max(1, s // 16)
    g = look.glyph
    if g == "waves":
        for k in (0.38, 0.62):
            y = t + round(s * k)
            pts = [(l + m + i, y + round(math.sin(i / max(2, s / 8)) * max(1, s / 16))) for i in range(0, s - 2 * m + 1)]
            draw.line(pts, fill=ink, width=w)
    elif g == "cross":
        draw.line([(l + m, t + m), (r - m - 1, b - m - 1)], fill=ink, width=max(2, s // 10))
        draw.line([(l + m, b - m - 1), (r - m - 1, t + m)], fill=ink, width=max(2, s // 10))
    elif g == "pit":
        draw.ellipse([l + m, t + m, r - m - 1, b - m - 1], fill=ink)
    elif g == "lava":
        draw.polygon([(l + s // 2, t + m), (r - m - 1, b - m - 1), (l + m, b - m - 1)], outline=ink)
        draw.ellipse([l + s // 2 - w - 1, t + s // 2, l + s // 2 + w + 1, t + s // 2 + 2 * w + 2], fill=ink)
    elif g == "hazard":
        draw.polygon([(l + s // 2, t + m), (r - m - 1, b - m - 1), (l + m, b - m - 1)], outline=ink, width=w)
        draw.line([(l + s // 2, t + m + s // 8), (l + s // 2, b - m - s // 6)], fill=ink, width=w)
    elif g == "elevation":
        draw.polygon([(l + m, b - m - 1), (l + s // 2, t + m), (r - m - 1, b - m - 1)], fill=ink)
    elif g == "fog":
        for k in (0.35, 0.5, 0.65):
            y = t + round(s * k)
            draw.line([(l + m, y), (r - m - 1, y)], fill=ink, width=w)
    elif g == "dots":
        for fx, fy in ((0.35, 0.35), (0.65, 0.45), (0.45, 0.65)):
            cx, cy = l + round(s * fx), t + round(s * fy)
            draw.ellipse([cx - w - 1, cy - w - 1, cx + w + 1, cy + w + 1], fill=ink)


def _look(rules: Mapping[str, TerrainRule], terrain_id: str) -> S.TerrainLook:
    rule = rules.get(terrain_id, PLAIN)
    return S.terrain_look(
        terrain_id,
        blocks_movement=rule.blocks_movement,
        adjacent_only=rule.sight != "normal",
        elevated=bool(getattr(rule, "elevated", False)),
        harmful=bool(getattr(rule, "defeat_end_of_turn", False) or getattr(rule, "on_enter_damage", 0)),
    )


# ---------------------------------------------------------------- the map


def render_map(picture: MapPicture, *, scale: int = DEFAULT_SCALE) -> Image.Image:
    """Draw one map. Deterministic: the same picture and scale give the same pixels."""
    scale = max(8, int(scale))
    layout = map_layout(picture, scale)
    board = picture.board
    spaces = set(board.spaces)
    map_w, map_h = layout.map_size
    coord, _title = _margins(scale, picture)
    legend_entries = _legend_entries(picture) if picture.legend else []
    width = layout.left + map_w + coord
    title = S.printable(picture.title)
    title_font = S.font(max(12, round(scale * 0.5)))
    if title:
        width = max(width, layout.left + S.text_size(title_font, title)[2] + 6)
    legend_img = _render_legend(legend_entries, max(width, 240), scale) if legend_entries else None
    if legend_img is not None:
        width = max(width, legend_img.width)
    height = layout.top + map_h + coord + (legend_img.height if legend_img is not None else 0)

    image = Image.new("RGB", (width, height), S.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle([layout.left, layout.top, layout.left + map_w - 1, layout.top + map_h - 1], fill=S.OUTSIDE)

    # terrain
    for cell, terrain_id in zip(board.spaces, board.terrain):
        box = layout.cell_box(cell)
        look = _look(board.rules, terrain_id)
        draw.rectangle([box[0], box[1], box[2] - 1, box[3] - 1], fill=look.fill)
        _draw_glyph(draw, box, look, scale)

    # hidden tiles hatched, then sight shading (both exact-pixel numpy layers)
    hidden_cells = [c for t in picture.tiles if t.hidden for c in t.cells]
    if hidden_cells:
        mask = _region_mask(layout, image.size, hidden_cells) & hatch_mask(image.size, _hatch_period(scale))
        image.paste(S.HATCH, mask=Image.fromarray(mask.astype(np.uint8) * 255, "L"))
    if picture.seen:
        image = _overlay(image, _region_mask(layout, image.size, picture.seen), S.SEEN, S.SEEN_ALPHA)
    draw = ImageDraw.Draw(image)

    # the square grid
    for cell in board.spaces:
        l, t, r, b = layout.cell_box(cell)
        draw.rectangle([l, t, r, b], outline=S.GRID, width=1)

    # spaces reachable within the movement budget: an inset outline per square
    if picture.reachable:
        inset = max(2, scale // 10)
        for cell in sorted(picture.reachable, key=lambda c: (c[1], c[0])):
            l, t, r, b = layout.cell_box(cell)
            draw.rectangle([l + inset, t + inset, r - 1 - inset, b - 1 - inset], outline=S.REACHABLE, width=2)

    # tile outlines (walls drawn next cover most of them; they show at joins)
    tile_w = max(1, scale // 16)
    for tile in picture.tiles:
        for e in _boundary_edges(tile.cells):
            draw.rectangle(_line_rect(layout, e, tile_w + 1), fill=S.TILE_OUTLINE)

    wall_w = max(3, scale // 8)
    for e in sorted(board.walls):
        draw.rectangle(_line_rect(layout, e, wall_w), fill=S.WALL)

    for e in sorted(picture.openings):
        a, b = layout.point(e[0]), layout.point(e[1])
        draw.rectangle(_line_rect(layout, e, wall_w), fill=S.WALL)
        _dashed(draw, a, b, S.OPENING, max(2, wall_w - 1), max(3, scale // 6))

    _draw_doors(draw, layout, board, scale)
    _draw_links(draw, layout, board, scale)
    _draw_entries(draw, layout, spaces, picture, scale)
    _draw_markers(draw, layout, picture, scale)
    _draw_tile_labels(draw, layout, picture, scale)
    if picture.coordinates:
        _draw_coordinates(draw, layout, picture, scale)
    if title:
        draw.text((layout.left, 2), title, fill=S.TEXT, font=title_font)
    if legend_img is not None:
        image.paste(legend_img, (0, layout.top + map_h + coord))
    return image


def _draw_doors(draw, layout: MapLayout, board: Board, scale: int) -> None:
    thick = max(5, scale // 5)
    for door in sorted(board.doors, key=lambda d: d.id):
        colour = S.named_colour(door.colour, S.DOOR_DEFAULT)
        for e in sorted(door.edges):
            x0, y0, x1, y1 = _line_rect(layout, e, thick)
            # shorten along the edge so the door reads as a leaf between wall stubs
            if e[0][1] == e[1][1]:
                x0, x1 = x0 + 2, x1 - 2
            else:
                y0, y1 = y0 + 2, y1 - 2
            if door.open:  # an open door: the frame only, the way is clear
                draw.rectangle([x0, y0, x1, y1], outline=colour, width=2)
            else:
                draw.rectangle([x0, y0, x1, y1], fill=colour, outline=S.WALL, width=1)


def _draw_links(draw, layout: MapLayout, board: Board, scale: int) -> None:
    fnt = S.font(max(8, scale // 3))
    for link in board.links:
        if not link.a or not link.b:
            continue
        ca = [layout.centre(c) for c in link.a]
        cb = [layout.centre(c) for c in link.b]
        pa = (sum(p[0] for p in ca) / len(ca), sum(p[1] for p in ca) / len(ca))
        pb = (sum(p[0] for p in cb) / len(cb), sum(p[1] for p in cb) / len(cb))
        _dashed(draw, pa, pb, S.LINK, 2, max(4, scale // 4))
        for p in (pa, pb):
            _text_centred(draw, p, link.kind[:1].upper(), fnt, S.LINK)


def _draw_entries(draw, layout: MapLayout, spaces: set[Cell], picture: MapPicture, scale: int) -> None:
    wall_w = max(3, scale // 8)
    for edges, colour, inward in ((picture.entrances, S.ENTRANCE, True), (picture.exits, S.EXIT, False)):
        for e in sorted(edges):
            draw.rectangle(_line_rect(layout, e, wall_w + 2), fill=colour)
            _inside, outside = _outside_cell(e, spaces)
            mid = layout.edge_mid(e)
            oc = layout.centre(outside)
            dx, dy = oc[0] - mid[0], oc[1] - mid[1]  # points outward, scale/2 long
            half = max(3, scale // 4)
            px, py = (-dy, dx)
            norm = math.hypot(px, py) or 1
            px, py = px / norm * half, py / norm * half
            base = (mid[0] + dx * 0.25, mid[1] + dy * 0.25)
            tip = (mid[0] + dx * 0.9, mid[1] + dy * 0.9)
            if inward:
                base, tip = tip, base
            draw.polygon([(round(base[0] + px), round(base[1] + py)), (round(base[0] - px), round(base[1] - py)), (round(tip[0]), round(tip[1]))], fill=colour)


def _disc(draw, box, fill, outline, width=1) -> None:
    draw.ellipse(box, fill=fill, outline=outline, width=width)


def _draw_markers(draw, layout: MapLayout, picture: MapPicture, scale: int) -> None:
    m = max(2, scale // 7)
    small = S.font(max(8, round(scale * 0.38)))
    tiny = S.font(max(7, round(scale * 0.3)))

    for cell in sorted(set(picture.hero_starts), key=lambda c: (c[1], c[0])):
        l, t, r, b = layout.cell_box(cell)
        _disc(draw, [l + m, t + m, r - m - 1, b - m - 1], None, S.HERO_START, max(2, scale // 12))
        _text_centred(draw, layout.centre(cell), "H", small, S.HERO_START)

    for tok in sorted(picture.tokens, key=lambda k: (k.cell[1], k.cell[0], k.kind, k.label)):
        l, t, r, b = layout.cell_box(tok.cell)
        cx, cy = layout.centre(tok.cell)
        h = scale // 2 - m
        fill = S.token_colour(tok.kind, tok.colour)
        draw.polygon([(cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy)], fill=fill, outline=S.TEXT)
        text = S.printable((tok.label or tok.kind)[:1].upper())
        _text_centred(draw, (cx, cy), text, small, S.contrast_text(fill))

    for sp in sorted(picture.spawns, key=lambda p: (min((c[1], c[0]) for c in p.cells) if p.cells else (0, 0), p.initials)):
        if not sp.cells:
            continue
        boxes = [layout.cell_box(c) for c in sp.cells]
        l, t = min(b[0] for b in boxes), min(b[1] for b in boxes)
        r, b = max(b[2] for b in boxes), max(b[3] for b in boxes)
        master = sp.rank == "master"
        fill = S.MASTER if master else S.MINION
        box = [l + m, t + m, r - m - 1, b - m - 1]
        if len(sp.cells) == 1:
            _disc(draw, box, fill, S.TEXT, 1)
        else:
            draw.rounded_rectangle(box, radius=scale // 3, fill=fill, outline=S.TEXT, width=1)
        _text_centred(draw, ((l + r) / 2, (t + b) / 2), S.printable(sp.initials), small, S.contrast_text(fill))
        if sp.heroes:
            left, top, w, h = S.text_size(tiny, sp.heroes)
            _label_box(draw, (r - w - 4, b - h - 4), sp.heroes, tiny, S.TEXT, S.HERO_COUNT, pad=1)

    for cell in sorted(picture.blockers, key=lambda c: (c[1], c[0])):
        l, t, r, b = layout.cell_box(cell)
        _disc(draw, [l + m, t + m, r - m - 1, b - m - 1], S.BLOCKER, S.TEXT, 1)
        k = scale // 2 - m - max(2, scale // 8)
        cx, cy = layout.centre(cell)
        draw.line([(cx - k, cy - k), (cx + k, cy + k)], fill=(255, 255, 255), width=max(1, scale // 14))
        draw.line([(cx - k, cy + k), (cx + k, cy - k)], fill=(255, 255, 255), width=max(1, scale // 14))

    if picture.origin is not None:
        l, t, r, b = layout.cell_box(picture.origin)
        cx, cy = layout.centre(picture.origin)
        k = max(3, scale // 6)
        draw.ellipse([cx - k, cy - k, cx + k, cy + k], outline=S.ORIGIN, width=max(2, scale // 12))
        draw.ellipse([cx - 2, cy - 2, cx + 2, cy + 2], fill=S.ORIGIN)

    cap = S.font(max(10, round(scale * 0.55)))
    for c in picture.captions:
        l, t, _, _ = layout.cell_box(c.cell)
        _label_box(draw, (l, t), S.printable(c.text), cap, S.CAPTION, S.BACKGROUND, pad=2)


def _draw_tile_labels(draw, layout: MapLayout, picture: MapPicture, scale: int) -> None:
    fnt = S.font(max(8, round(scale * 0.34)))
    for tile in picture.tiles:
        if not tile.cells:
            continue
        first = min(tile.cells, key=lambda c: (c[1], c[0]))
        l, t, _, _ = layout.cell_box(first)
        text = S.printable(tile.code)  # the printed code; copies are told apart by position
        _label_box(draw, (l + 3, t + 3), text, fnt, S.TILE_LABEL, (255, 255, 255), pad=1)


def _draw_coordinates(draw, layout: MapLayout, picture: MapPicture, scale: int) -> None:
    cells = _content_cells(picture) or {(0, 0)}
    coord, _ = _margins(scale, picture)
    fnt = S.font(max(7, min(round(scale * 0.36), coord - 2)))
    map_w, map_h = layout.map_size
    xs = range(min(c[0] for c in cells), max(c[0] for c in cells) + 1)
    ys = range(min(c[1] for c in cells), max(c[1] for c in cells) + 1)
    for x in xs:
        cx = layout.point((x + 0.5, 0))[0]
        _text_centred(draw, (cx, layout.top - coord / 2), str(x), fnt, S.TEXT)
        _text_centred(draw, (cx, layout.top + map_h + coord / 2), str(x), fnt, S.TEXT)
    for y in ys:
        cy = layout.point((0, y + 0.5))[1]
        _text_centred(draw, (layout.left - coord / 2, cy), str(y), fnt, S.TEXT)
        _text_centred(draw, (layout.left + map_w + coord / 2, cy), str(y), fnt, S.TEXT)


# ---------------------------------------------------------------- legend


@dataclass(frozen=True)
class _Entry:
    label: str
    kind: str  # terrain | wall | door | open_door | opening | hidden | seen | reachable | ...
    look: S.TerrainLook | None = None
    colour: S.RGB = S.TEXT


def _legend_entries(picture: MapPicture) -> list[_Entry]:
    board = picture.board
    entries = [_Entry(S.printable(t), "terrain", _look(board.rules, t)) for t in sorted(set(board.terrain))]
    if board.walls:
        entries.append(_Entry("wall", "wall", colour=S.WALL))
    kinds = sorted({(d.colour or "", d.open) for d in board.doors})
    for name, is_open in kinds:  # one entry per colour and state, not per door
        colour = S.named_colour(name or None, S.DOOR_DEFAULT)
        label = f"{name + ' ' if name else ''}door ({'open' if is_open else 'closed'})"
        entries.append(_Entry(S.printable(label), "open_door" if is_open else "door", colour=colour))
    flags = (
        (picture.openings, "opening", "opening", S.OPENING),
        (any(t.hidden for t in picture.tiles), "hidden tile", "hidden", S.HATCH),
        (picture.hero_starts, "hero start", "hero", S.HERO_START),
        (picture.entrances, "entrance", "entrance", S.ENTRANCE),
        (picture.exits, "exit", "exit", S.EXIT),
        (any(s.rank == "master" for s in picture.spawns), "master", "master", S.MASTER),
        (any(s.rank != "master" for s in picture.spawns), "minion", "minion", S.MINION),
        (picture.seen, "seen", "seen", S.SEEN),
        (picture.reachable, "reachable", "reachable", S.REACHABLE),
        (picture.blockers, "blocking figure", "blocker", S.BLOCKER),
        (picture.origin is not None, "viewpoint", "origin", S.ORIGIN),
    )
    for present, label, kind, colour in flags:
        if present:
            entries.append(_Entry(label, kind, colour=colour))
    return entries


def _render_legend(entries: list[_Entry], width: int, scale: int) -> Image.Image:
    sw = max(12, round(scale * 0.5))  # swatch size
    fnt = S.font(max(9, round(scale * 0.34)))
    pad = 6
    # flow the entries in rows
    placed: list[tuple[int, int, _Entry]] = []
    x, y = pad, pad
    row_h = sw + 4
    for entry in entries:
        _l, _t, tw, _h = S.text_size(fnt, entry.label)
        w = sw + 4 + tw + 12
        if x + w > width - pad and x > pad:
            x, y = pad, y + row_h
        placed.append((x, y, entry))
        x += w
    height = y + row_h + pad
    img = Image.new("RGB", (width, height), S.BACKGROUND)
    draw = ImageDraw.Draw(img)
    for x, y, entry in placed:
        box = (x, y, x + sw, y + sw)
        _legend_swatch(draw, box, entry, sw)
        _l, t, _w, h = S.text_size(fnt, entry.label)
        draw.text((x + sw + 4, y + (sw - h) // 2 - t), entry.label, fill=S.TEXT, font=fnt)
    return img


def _legend_swatch(draw, box, entry: _Entry, sw: int) -> None:
    l, t, r, b = box
    k = entry.kind
    if k == "terrain" and entry.look is not None:
        draw.rectangle([l, t, r - 1, b - 1], fill=entry.look.fill, outline=S.GRID)
        _draw_glyph(draw, box, entry.look, sw)
    elif k in ("wall", "opening", "entrance", "exit"):
        draw.rectangle([l, t + sw // 2 - 2, r, t + sw // 2 + 2], fill=entry.colour)
    elif k == "door":
        draw.rectangle([l + 1, t + sw // 2 - 3, r - 1, t + sw // 2 + 3], fill=entry.colour, outline=S.WALL)
    elif k == "open_door":
        draw.rectangle([l + 1, t + sw // 2 - 3, r - 1, t + sw // 2 + 3], outline=entry.colour, width=2)
    elif k == "hidden":
        draw.rectangle([l, t, r - 1, b - 1], outline=S.GRID)
        for i in range(-sw, sw, 5):
            draw.line([(l + i, b - 1), (l + i + sw, t)], fill=S.HATCH)
        draw.rectangle([l - sw, t, l - 1, b], fill=S.BACKGROUND)  # crop the hatch to the swatch
        draw.rectangle([r, t, r + sw, b], fill=S.BACKGROUND)
    elif k == "seen":
        draw.rectangle([l, t, r - 1, b - 1], fill=S.blend(S.TERRAIN_LOOKS["plain"].fill, S.SEEN, S.SEEN_ALPHA), outline=S.GRID)
    elif k == "reachable":
        draw.rectangle([l + 1, t + 1, r - 2, b - 2], outline=S.REACHABLE, width=2)
    elif k in ("master", "minion", "blocker"):
        draw.ellipse([l + 1, t + 1, r - 1, b - 1], fill=entry.colour, outline=S.TEXT)
    elif k in ("hero", "origin"):
        draw.ellipse([l + 1, t + 1, r - 1, b - 1], outline=entry.colour, width=2)


# ---------------------------------------------------------------- tile sheets


@dataclass(frozen=True)
class TileCard:
    """One catalog tile as printed: squares in its own frame with terrain ids, its openings."""

    code: str
    cells: tuple[tuple[Cell, str], ...]  # ((col, row), terrain id)
    openings: frozenset[Edge] = frozenset()
    kind: str = ""
    walls: frozenset[Edge] = frozenset()  # printed walls inside the tile


@dataclass(frozen=True)
class TileSheet:
    tiles: tuple[TileCard, ...]
    rules: Mapping[str, TerrainRule] = field(default_factory=dict)
    title: str = ""
    columns: int = 0  # 0 = about square


def tile_board(card: TileCard, rules: Mapping[str, TerrainRule]) -> Board:
    """A tile alone as a Board: boundary edges are walls except its openings."""
    ordered = sorted(card.cells, key=lambda ct: (ct[0][1], ct[0][0]))
    spaces = tuple(c for c, _ in ordered)
    terrain = tuple(t for _, t in ordered)
    walls = (frozenset(_boundary_edges(spaces)) | card.walls) - card.openings
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
        opening_edges = frozenset(e for e in card.openings)
        pic = MapPicture(
            board=board,
            openings=opening_edges,
            captions=(),
            title=card.code + (f"  ({card.kind})" if card.kind else ""),
            legend=False,
            coordinates=False,
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
    legend_board = Board((), (), {"plain": PLAIN, **{t: sheet.rules.get(t, TerrainRule(t)) for t in terrains}})
    legend_pic = MapPicture(board=replace(legend_board, terrain=()), openings=frozenset({((0, 0), (1, 0))}))
    entries = [_Entry(t, "terrain", _look(legend_board.rules, t)) for t in sorted(terrains)]
    entries += [e for e in _legend_entries(legend_pic) if e.kind == "opening"]
    entries.append(_Entry("wall", "wall", colour=S.WALL))
    legend = _render_legend(entries, max(width, 240), scale)
    width = max(width, legend.width)
    height = title_h + sum(row_h) + gap * (len(rows) + 1) + legend.height
    out = Image.new("RGB", (width, height), S.BACKGROUND)
    if sheet.title:
        ImageDraw.Draw(out).text((gap, 2), S.printable(sheet.title), fill=S.TEXT, font=S.font(max(12, round(scale * 0.6))))
    y = title_h + gap
    for r, row in enumerate(rows):
        x = gap
        for c, img in enumerate(row):
            out.paste(img, (x, y))
            x += col_w[c] + gap
        y += row_h[r] + gap
    out.paste(legend, (0, y))
    return out


def _natural_key(code: str) -> tuple:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|\D+", code))


# ---------------------------------------------------------------- chains


@dataclass(frozen=True)
class ChainPart:
    label: str
    picture: MapPicture
    offset: Cell | None = None  # world shift of this part; None = laid out left to right


@dataclass(frozen=True)
class ChainPicture:
    parts: tuple[ChainPart, ...]
    title: str = ""
    gap: int = 2  # squares between automatically placed parts


def _shift_cell(c: Cell, d: Cell) -> Cell:
    return (c[0] + d[0], c[1] + d[1])


def _shift_edge(e: Edge, d: Cell) -> Edge:
    return (_shift_cell(e[0], d), _shift_cell(e[1], d))


def chain_offsets(chain: ChainPicture) -> list[Cell]:
    """The world shift of each part: given offsets, or a left-to-right row aligned at the top."""
    offsets: list[Cell] = []
    cursor = 0
    for part in chain.parts:
        cells = _content_cells(part.picture) or {(0, 0)}
        minx, miny = min(c[0] for c in cells), min(c[1] for c in cells)
        maxx = max(c[0] for c in cells)
        if part.offset is not None:
            offsets.append(part.offset)
        else:
            offsets.append((cursor - minx, -miny + 1))  # +1: room for the caption row
        cursor = max(cursor, offsets[-1][0] + maxx + 1 + chain.gap)
    return offsets


def merge_chain(chain: ChainPicture) -> MapPicture:
    """All parts shifted into one frame, each labelled with a caption above its top-left."""
    spaces: dict[Cell, str] = {}
    rules: dict[str, TerrainRule] = {"plain": PLAIN}
    walls: set[Edge] = set()
    doors, links, tiles, tokens, spawns, captions = [], [], [], [], [], []
    starts: list[Cell] = []
    openings: set[Edge] = set()
    entrances: set[Edge] = set()
    exits: set[Edge] = set()
    for i, (part, d) in enumerate(zip(chain.parts, chain_offsets(chain))):
        p = part.picture
        b = p.board
        for c, t in zip(b.spaces, b.terrain):
            spaces.setdefault(_shift_cell(c, d), t)
        rules.update(b.rules)
        walls.update(_shift_edge(e, d) for e in b.walls)
        for door in b.doors:
            doors.append(replace(door, id=f"{i}.{door.id}", edges=frozenset(_shift_edge(e, d) for e in door.edges)))
        for link in b.links:
            links.append(replace(link, a=tuple(_shift_cell(c, d) for c in link.a), b=tuple(_shift_cell(c, d) for c in link.b)))
        tiles += [replace(t, cells=tuple(_shift_cell(c, d) for c in t.cells)) for t in p.tiles]
        tokens += [replace(t, cell=_shift_cell(t.cell, d)) for t in p.tokens]
        spawns += [replace(s, cells=tuple(_shift_cell(c, d) for c in s.cells)) for s in p.spawns]
        starts += [_shift_cell(c, d) for c in p.hero_starts]
        openings.update(_shift_edge(e, d) for e in p.openings)
        entrances.update(_shift_edge(e, d) for e in p.entrances)
        exits.update(_shift_edge(e, d) for e in p.exits)
        cells = _content_cells(p) or {(0, 0)}
        top_left = (min(c[0] for c in cells), min(c[1] for c in cells) - 1)
        captions.append(Caption(_shift_cell(top_left, d), part.label))
    ordered = sorted(spaces, key=lambda c: (c[1], c[0]))
    board = Board(tuple(ordered), tuple(spaces[c] for c in ordered), rules, frozenset(walls), tuple(doors), tuple(links))
    return MapPicture(
        board=board,
        tiles=tuple(tiles),
        openings=frozenset(openings),
        tokens=tuple(tokens),
        spawns=tuple(spawns),
        hero_starts=tuple(starts),
        entrances=frozenset(entrances),
        exits=frozenset(exits),
        captions=tuple(captions),
        title=chain.title,
    )


def render_chain(chain: ChainPicture, *, scale: int = 24) -> Image.Image:
    """An encounter chain: several maps in one frame, each captioned with its label."""
    return render_map(merge_chain(chain), scale=scale)


# ---------------------------------------------------------------- PNG output


def png_bytes(image: Image.Image) -> bytes:
    """PNG bytes with fixed settings and no metadata chunks (no time, no text, no gamma)."""
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def save_png(image: Image.Image, path: str | os.PathLike) -> Path:
    """Write `image` to `path` deterministically and atomically (temp file + rename)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    data = png_bytes(image)
    fd, tmp = tempfile.mkstemp(prefix=".render-", suffix=".png", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; images are for everyone to look at
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
