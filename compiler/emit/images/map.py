"""One map drawn: a `MapPicture` (quest, encounter, question overlays) to an image.

    render_map(picture, scale=DEFAULT_SCALE) -> Image
    map_layout(picture, scale) -> MapLayout     the exact pixel geometry render_map uses

Layers are drawn in a fixed order (terrain, hatching, sight shading, grid, reach outline,
tile outlines, walls, openings, doors, links, entrances/exits, markers, labels,
coordinates, title, legend) so later layers stay readable on top of earlier ones.
"""

from __future__ import annotations

import math
from typing import Iterable

from PIL import Image, ImageDraw

from compiler.emit.images import style as S
from compiler.emit.images.legend import legend_entries, render_legend, token_letter
from compiler.emit.images.pictures import MapPicture, content_cells
from compiler.emit.images.primitives import (
    box_mask,
    cross,
    dashed,
    diamond,
    disc,
    hatch_mask,
    inset,
    label_box,
    paint_mask,
    shade_mask,
    text_centred,
)
from compiler.emit.images.terrain import draw_glyph, look_for
from compiler import frozen
from compiler.geometry.board import Board
from compiler.geometry.hazards import STEP, Hazard
from compiler.geometry.lattice import Cell, Edge, cell_edges

DEFAULT_SCALE = 40  # pixels per square (32 read small on a screen: issue 35)


# ---------------------------------------------------------------- layout


@frozen
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

    def edge_box(self, e: Edge, width: int) -> tuple[int, int, int, int]:
        """The inclusive box of edge e drawn `width` pixels thick (exact, no anti-aliasing)."""
        (ax, ay), (bx, by) = self.point(e[0]), self.point(e[1])
        h = width // 2
        return min(ax, bx) - h, min(ay, by) - h, max(ax, bx) + width - h - 1, max(ay, by) + width - h - 1

    @property
    def map_size(self) -> tuple[int, int]:
        return self.columns * self.scale, self.rows * self.scale


def _margins(scale: int, picture: MapPicture) -> tuple[int, int]:
    coord = max(14, round(scale * 0.6)) if picture.coordinates else 4
    title = max(16, round(scale * 0.7)) if picture.title else 0
    return coord, title


def map_layout(picture: MapPicture, scale: int = DEFAULT_SCALE) -> MapLayout:
    """The pixel layout `render_map` uses for `picture` at `scale`."""
    cells = content_cells(picture) or {(0, 0)}
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, y0 = min(xs) - 1, min(ys) - 1  # one padding square round the content for outside markers
    columns, rows = max(xs) - x0 + 2, max(ys) - y0 + 2
    coord, title = _margins(scale, picture)
    return MapLayout(x0, y0, columns, rows, scale, coord, coord + title)


def boundary_edges(cells: Iterable[Cell]) -> list[Edge]:
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


# ---------------------------------------------------------------- the map


def render_map(picture: MapPicture, *, scale: int = DEFAULT_SCALE) -> Image.Image:
    """Draw one map. Deterministic: the same picture and scale give the same pixels."""
    scale = max(8, int(scale))
    layout = map_layout(picture, scale)
    board = picture.board
    spaces = set(board.spaces)
    map_w, map_h = layout.map_size
    coord, _title = _margins(scale, picture)
    entries = legend_entries(picture) if picture.legend else []
    width = layout.left + map_w + coord
    title = S.drawable(picture.title)
    title_font = S.font_for(max(12, round(scale * 0.5)), picture.title)
    if title:
        width = max(width, layout.left + S.text_size(title_font, title)[2] + 6)
    legend_img = render_legend(entries, max(width, 240), scale) if entries else None
    if legend_img is not None:
        width = max(width, legend_img.width)
    height = layout.top + map_h + coord + (legend_img.height if legend_img is not None else 0)

    image = Image.new("RGB", (width, height), S.BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle([layout.left, layout.top, layout.left + map_w - 1, layout.top + map_h - 1], fill=S.OUTSIDE)
    _draw_terrain(draw, layout, board, scale)
    image = _shade(image, layout, picture, scale)
    draw = ImageDraw.Draw(image)
    _draw_structure(draw, layout, picture, scale)
    _draw_doors(draw, layout, board, scale)
    _draw_links(draw, layout, board, scale)
    _draw_features(draw, layout, picture, scale)
    _draw_entries(draw, layout, spaces, picture, scale)
    _draw_markers(draw, layout, picture, scale)
    _draw_hazards(draw, layout, picture, scale)
    _draw_tile_labels(draw, layout, picture, scale)
    if picture.coordinates:
        _draw_coordinates(draw, layout, picture, scale)
    if title:
        draw.text((layout.left, 2), title, fill=S.TEXT, font=title_font)
    if legend_img is not None:
        image.paste(legend_img, (0, layout.top + map_h + coord))
    return image


def _draw_terrain(draw: ImageDraw.ImageDraw, layout: MapLayout, board: Board, scale: int) -> None:
    """Each space filled with its terrain's look and glyph."""
    for cell, terrain_id in zip(board.spaces, board.terrain):
        box = layout.cell_box(cell)
        look = look_for(board.rules, terrain_id)
        draw.rectangle(inset(box), fill=look.fill)
        draw_glyph(draw, box, look, scale)


def _shade(image: Image.Image, layout: MapLayout, picture: MapPicture, scale: int) -> Image.Image:
    """Hidden tiles hatched, then the sight shading (both exact-pixel numpy layers): the
    picture with them."""
    hidden_cells = [c for t in picture.tiles if t.hidden for c in t.cells]
    if hidden_cells:
        mask = box_mask(image.size, (layout.cell_box(c) for c in hidden_cells)) & hatch_mask(image.size, _hatch_period(scale))
        paint_mask(image, mask, S.HATCH)
    if picture.no_minions:
        mask = box_mask(image.size, (layout.cell_box(c) for c in sorted(picture.no_minions)))
        image = shade_mask(image, mask, S.NO_MINIONS, S.NO_MINIONS_ALPHA)
    if picture.seen:
        image = shade_mask(image, box_mask(image.size, (layout.cell_box(c) for c in picture.seen)), S.SEEN, S.SEEN_ALPHA)
    return image


def _draw_structure(draw: ImageDraw.ImageDraw, layout: MapLayout, picture: MapPicture, scale: int) -> None:
    """The square grid, the spaces within the movement budget, tile outlines, walls and openings."""
    board = picture.board
    for cell in board.spaces:
        l, t, r, b = layout.cell_box(cell)
        draw.rectangle([l, t, r, b], outline=S.GRID, width=1)

    # spaces reachable within the movement budget: an inset outline per square
    if picture.reachable:
        m = max(2, scale // 10)
        for cell in sorted(picture.reachable, key=lambda c: (c[1], c[0])):
            draw.rectangle(inset(layout.cell_box(cell), m), outline=S.REACHABLE, width=2)

    # tile outlines (walls drawn next cover most of them; they show at joins)
    tile_w = max(1, scale // 16)
    for tile in picture.tiles:
        for e in boundary_edges(tile.cells):
            draw.rectangle(layout.edge_box(e, tile_w + 1), fill=S.TILE_OUTLINE)

    wall_w = max(3, scale // 8)
    for e in sorted(board.walls):
        draw.rectangle(layout.edge_box(e, wall_w), fill=S.WALL)

    # lines along edges (elevation): dashes of the line's colour, narrower than a wall
    for line in board.lines:
        colour = (int(line.colour[1:3], 16), int(line.colour[3:5], 16), int(line.colour[5:7], 16))
        for e in sorted(line.edges):
            dashed(draw, layout.point(e[0]), layout.point(e[1]), colour, max(3, wall_w), max(3, scale // 6))

    for e in sorted(picture.openings):
        draw.rectangle(layout.edge_box(e, wall_w), fill=S.WALL)
        dashed(draw, layout.point(e[0]), layout.point(e[1]), S.OPENING, max(2, wall_w - 1), max(3, scale // 6))


def _hatch_period(scale: int) -> int:
    return max(5, scale // 4)


def _draw_doors(draw: ImageDraw.ImageDraw, layout: MapLayout, board: Board, scale: int) -> None:
    thick = max(5, scale // 5)
    for door in sorted(board.doors, key=lambda d: d.id):
        colour = S.named_colour(door.colour, S.DOOR_DEFAULT)
        for e in sorted(door.edges):
            x0, y0, x1, y1 = layout.edge_box(e, thick)
            # shorten along the edge so the door reads as a leaf between wall stubs
            if e[0][1] == e[1][1]:
                x0, x1 = x0 + 2, x1 - 2
            else:
                y0, y1 = y0 + 2, y1 - 2
            if door.open:  # an open door: the frame only, the way is clear
                draw.rectangle([x0, y0, x1, y1], outline=colour, width=2)
            else:
                draw.rectangle([x0, y0, x1, y1], fill=colour, outline=S.WALL, width=1)


def _draw_links(draw: ImageDraw.ImageDraw, layout: MapLayout, board: Board, scale: int) -> None:
    fnt = S.font(max(8, scale // 3))
    for link in board.links:
        if not link.a or not link.b:
            continue
        ca = [layout.centre(c) for c in link.a]
        cb = [layout.centre(c) for c in link.b]
        pa = (sum(p[0] for p in ca) / len(ca), sum(p[1] for p in ca) / len(ca))
        pb = (sum(p[0] for p in cb) / len(cb), sum(p[1] for p in cb) / len(cb))
        dashed(draw, pa, pb, S.LINK, 2, max(4, scale // 4))
        for p in (pa, pb):
            text_centred(draw, p, link.kind[:1].upper(), fnt, S.LINK)


def _draw_features(draw: ImageDraw.ImageDraw, layout: MapLayout, picture: MapPicture, scale: int) -> None:
    """1st-edition features: the portal piece outlined, glyphs as rings (filled when active
    at the start), chests as boxes in their tier's colour."""
    width = max(2, scale // 10)
    for e in boundary_edges(picture.portal):
        draw.rectangle(layout.edge_box(e, width), fill=S.PORTAL)
    for cells, active in picture.glyphs:
        l = min(layout.cell_box(c)[0] for c in cells)
        t = min(layout.cell_box(c)[1] for c in cells)
        r = max(layout.cell_box(c)[2] for c in cells)
        b = max(layout.cell_box(c)[3] for c in cells)
        m = max(3, scale // 6)
        draw.ellipse([l + m, t + m, r - m, b - m], outline=S.GLYPH, width=max(2, scale // 12),
                     fill=S.GLYPH if active else None)
    for cell, tier in picture.chests:
        l, t, r, b = layout.cell_box(cell)
        m = max(3, scale // 5)
        draw.rectangle([l + m, t + m + m // 2, r - m, b - m], fill=S.CHEST.get(tier, S.DOOR_DEFAULT), outline=S.WALL, width=1)


def _draw_hazards(draw: ImageDraw.ImageDraw, layout: MapLayout, picture: MapPicture, scale: int) -> None:
    """Hazards (docs/maps.md, "Hazards"): a lane as a line from the hazard through the
    squares it sweeps, in order, ending in an arrowhead, with a dot on each swept square; a
    trap's struck squares outlined and, when they are other squares, its trigger squares
    marked with a small square."""
    width = max(2, scale // 10)
    for h in picture.hazards:
        if h.reach_kind == "lane" and h.lane:
            xs = [layout.centre(c)[0] for c in h.cells]
            ys = [layout.centre(c)[1] for c in h.cells]
            start = (sum(xs) // len(xs), sum(ys) // len(ys))
            # the footprint's centre moved with each step: a written lane is followed square by square
            path = [start] + [layout.centre(c) for c in h.lane] if len(h.cells) == 1 else [start, _lane_end(layout, h)]
            draw.line(path, fill=S.HAZARD, width=width)
            _arrowhead(draw, path[-2], path[-1], max(4, scale // 4), S.HAZARD)
            for c in h.lane:
                disc(draw, layout.centre(c), max(2, scale // 10), S.HAZARD)
        elif h.reach_kind == "area":
            for c in h.reach:
                draw.rectangle(inset(layout.cell_box(c), max(2, scale // 12)), outline=S.HAZARD, width=width)
            for c in (h.trigger if h.trigger != h.cells else ()):  # a trap set off from other squares
                l, t, r, b = layout.cell_box(c)
                q = max(2, scale // 8)
                cx, cy = (l + r) // 2, (t + b) // 2
                draw.rectangle([cx - q, cy - q, cx + q, cy + q], fill=S.HAZARD)


def _lane_end(layout: MapLayout, h: Hazard) -> tuple[int, int]:
    """Where a wide hazard's centre ends: its footprint's centre moved as far as the lane goes
    (a lane written square by square: its last square)."""
    if h.facing not in STEP:
        return layout.centre(h.lane[-1])
    dx, dy = STEP[h.facing]
    steps = len(h.lane) // _width_across(h, dx, dy)
    cells = [(x + dx * steps, y + dy * steps) for x, y in h.cells]
    xs = [layout.centre(c)[0] for c in cells]
    ys = [layout.centre(c)[1] for c in cells]
    return (sum(xs) // len(xs), sum(ys) // len(ys))


def _width_across(h: Hazard, dx: int, dy: int) -> int:
    """How many squares of its footprint a step of (dx, dy) moves into new squares: its width across the way."""
    return len({y for _, y in h.cells}) if dx else len({x for x, _ in h.cells})


def _arrowhead(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], size: int, colour: tuple[int, int, int]) -> None:
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    left = (round(b[0] - size * math.cos(angle - 0.5)), round(b[1] - size * math.sin(angle - 0.5)))
    right = (round(b[0] - size * math.cos(angle + 0.5)), round(b[1] - size * math.sin(angle + 0.5)))
    draw.polygon([b, left, right], fill=colour)


def _draw_entries(draw: ImageDraw.ImageDraw, layout: MapLayout, spaces: set[Cell], picture: MapPicture, scale: int) -> None:
    wall_w = max(3, scale // 8)
    for edges, colour, inward in ((picture.entrances, S.ENTRANCE, True), (picture.exits, S.EXIT, False)):
        for e in sorted(edges):
            draw.rectangle(layout.edge_box(e, wall_w + 2), fill=colour)
            _inside, outside = _outside_cell(e, spaces)
            mid = layout.edge_mid(e)
            oc = layout.centre(outside)
            dx, dy = oc[0] - mid[0], oc[1] - mid[1]  # points outward, scale/2 long
            half = max(3, scale // 4)
            px, py = float(-dy), float(dx)  # across the arrow
            norm = math.hypot(px, py) or 1
            px, py = px / norm * half, py / norm * half
            base = (mid[0] + dx * 0.25, mid[1] + dy * 0.25)
            tip = (mid[0] + dx * 0.9, mid[1] + dy * 0.9)
            if inward:
                base, tip = tip, base
            draw.polygon([(round(base[0] + px), round(base[1] + py)), (round(base[0] - px), round(base[1] - py)), (round(tip[0]), round(tip[1]))], fill=colour)


def _draw_markers(draw: ImageDraw.ImageDraw, layout: MapLayout, picture: MapPicture, scale: int) -> None:
    m = max(2, scale // 7)
    small_size = max(8, round(scale * 0.38))
    small = S.font(small_size)
    tiny = S.font(max(7, round(scale * 0.3)))

    for cell in sorted(set(picture.hero_starts), key=lambda c: (c[1], c[0])):
        draw.ellipse(inset(layout.cell_box(cell), m), outline=S.HERO_START, width=max(2, scale // 12))
        text_centred(draw, layout.centre(cell), "H", small, S.HERO_START)

    for tok in sorted(picture.tokens, key=lambda k: (k.cell[1], k.cell[0], k.kind, k.label)):
        centre = layout.centre(tok.cell)
        fill = S.token_colour(tok.kind, tok.colour)
        diamond(draw, centre, scale // 2 - m, fill, S.TEXT)
        letter = token_letter(tok.kind, tok.label)
        text_centred(draw, centre, S.drawable(letter), S.font_for(small_size, letter), S.contrast_text(fill))

    drawn: set[frozenset[Cell]] = set()
    for sp in sorted(picture.spawns, key=lambda p: (min((c[1], c[0]) for c in p.cells) if p.cells else (0, 0), p.initials)):
        if not sp.cells:
            continue
        boxes = [layout.cell_box(c) for c in sp.cells]
        l, t = min(b[0] for b in boxes), min(b[1] for b in boxes)
        r, b = max(b[2] for b in boxes), max(b[3] for b in boxes)
        fill = {"master": S.MASTER, "lieutenant": S.LIEUTENANT}.get(sp.rank, S.MINION)
        if frozenset(sp.cells) in drawn:
            # the same footprint for other hero counts (an ettin group: a minion with 2 heroes,
            # the master with 3 or more): a small disc in its top-left corner, with its label,
            # so that neither hides the other
            d = max(6, round(scale * 0.42))
            draw.ellipse((l + 1, t + 1, l + 1 + d, t + 1 + d), fill=fill, outline=S.TEXT, width=1)
            text_centred(draw, (l + 1 + d / 2, t + 1 + d / 2), S.printable(sp.initials)[:2], S.font(max(6, round(d * 0.55))),
                         S.contrast_text(fill))
            if sp.heroes:
                label_box(draw, (l + d + 2, t + 1), sp.heroes, tiny, S.TEXT, S.HERO_COUNT, pad=1)
            continue
        drawn.add(frozenset(sp.cells))
        box = inset((l, t, r, b), m)
        if len(sp.cells) == 1:
            draw.ellipse(box, fill=fill, outline=S.TEXT, width=1)
        else:  # a figure bigger than one square: a rounded box over its footprint
            draw.rounded_rectangle(box, radius=scale // 3, fill=fill, outline=S.TEXT, width=1)
        text_centred(draw, ((l + r) / 2, (t + b) / 2), S.printable(sp.initials), small, S.contrast_text(fill))
        if sp.heroes:
            _left, _top, w, h = S.text_size(tiny, sp.heroes)
            label_box(draw, (r - w - 4, b - h - 4), sp.heroes, tiny, S.TEXT, S.HERO_COUNT, pad=1)

    for cell in sorted(picture.blockers, key=lambda c: (c[1], c[0])):
        draw.ellipse(inset(layout.cell_box(cell), m), fill=S.BLOCKER, outline=S.TEXT, width=1)
        k = scale // 2 - m - max(2, scale // 8)
        cx, cy = layout.centre(cell)
        cross(draw, (cx - k, cy - k, cx + k, cy + k), (255, 255, 255), max(1, scale // 14))

    if picture.origin is not None:
        centre = layout.centre(picture.origin)
        disc(draw, centre, max(3, scale // 6), None, S.ORIGIN, max(2, scale // 12))
        disc(draw, centre, 2, S.ORIGIN)

    cap = max(10, round(scale * 0.55))
    for c in picture.captions:
        l, t, _, _ = layout.cell_box(c.cell)
        label_box(draw, (l, t), S.drawable(c.text), S.font_for(cap, c.text), S.CAPTION, S.BACKGROUND, pad=2)


def _draw_tile_labels(draw: ImageDraw.ImageDraw, layout: MapLayout, picture: MapPicture, scale: int) -> None:
    """Each tile's printed code in the top-left corner of its first square in reading
    order that holds no marker (hero start, token, figure), with the squares the label
    runs over free too: a label never hides what stands on the map. A tile every square
    of which holds a marker is labelled on the nearest square above (or below) it that is
    no space of the map; failing that, on its first square."""
    fnt = S.font(max(8, round(scale * 0.34)))
    for text, spot in tile_label_spots(picture, scale):
        l, t, _, _ = layout.cell_box(spot)
        label_box(draw, (l + 3, t + 3), text, fnt, S.TILE_LABEL, (255, 255, 255), pad=1)


def tile_label_spots(picture: MapPicture, scale: int) -> list[tuple[str, Cell]]:
    """(label, square whose top-left corner it is drawn in) of every tile (_draw_tile_labels)."""
    fnt = S.font(max(8, round(scale * 0.34)))
    taken = _marked_cells(picture)
    out: list[tuple[str, Cell]] = []
    for tile in picture.tiles:
        if not tile.cells:
            continue
        text = S.printable(tile.code)  # the printed code; copies are told apart by position
        across = 1 + (S.text_size(fnt, text)[2] + 5) // scale  # squares the label runs over
        cells = set(tile.cells)
        order = sorted(tile.cells, key=lambda c: (c[1], c[0]))
        spot = next((c for c in order if all((c[0] + i, c[1]) in cells and (c[0] + i, c[1]) not in taken for i in range(across))),
                    next((c for c in order if c not in taken), None))
        if spot is None:  # every square holds a marker (an entrance full of hero starts): just outside the tile
            outside = [(c[0], c[1] + dy) for dy in (-1, 1) for c in (order if dy < 0 else order[::-1])]
            spot = next((c for c in outside if c not in cells and c not in picture.board.index and c not in taken), order[0])
        out.append((text, spot))
    return out


def _marked_cells(picture: MapPicture) -> set[Cell]:
    """The squares a marker is drawn on: hero starts, tokens, figures, blockers, the viewpoint."""
    cells: set[Cell] = set(picture.hero_starts) | {t.cell for t in picture.tokens} | set(picture.blockers)
    for sp in picture.spawns:
        cells.update(sp.cells)
    if picture.origin is not None:
        cells.add(picture.origin)
    return cells


def _draw_coordinates(draw: ImageDraw.ImageDraw, layout: MapLayout, picture: MapPicture, scale: int) -> None:
    cells = content_cells(picture) or {(0, 0)}
    coord, _ = _margins(scale, picture)
    fnt = S.font(max(7, min(round(scale * 0.36), coord - 2)))
    map_w, map_h = layout.map_size
    xs = range(min(c[0] for c in cells), max(c[0] for c in cells) + 1)
    ys = range(min(c[1] for c in cells), max(c[1] for c in cells) + 1)
    for x in xs:
        cx = layout.point((x + 0.5, 0))[0]
        text_centred(draw, (cx, layout.top - coord / 2), str(x), fnt, S.TEXT)
        text_centred(draw, (cx, layout.top + map_h + coord / 2), str(x), fnt, S.TEXT)
    for y in ys:
        cy = layout.point((0, y + 0.5))[1]
        text_centred(draw, (layout.left - coord / 2, cy), str(y), fnt, S.TEXT)
        text_centred(draw, (layout.left + map_w + coord / 2, cy), str(y), fnt, S.TEXT)
