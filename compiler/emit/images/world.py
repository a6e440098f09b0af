"""The campaign world picture: locations by kind, trails by type with danger and traffic.

Positions come from the world catalog's drawing positions; when some are missing, a
spring layout with a fixed seed places them (the given positions stay put), so the
picture is stable from run to run.
"""

from __future__ import annotations

import math
from typing import Callable

from PIL import Image, ImageDraw

from compiler.emit.images import style as S
from compiler.emit.images.pictures import WorldPicture
from compiler.emit.images.primitives import dashed, diamond, disc, label_box, text_centred


LOCATION_COLOURS: dict[str, S.RGB] = {
    "city": (170, 120, 60),
    "dungeon": (70, 70, 75),
    "legendary": (225, 170, 30),
    "secret_master": (125, 40, 145),
    "keep": (80, 105, 145),
}
TRAIL_COLOURS: dict[str, S.RGB] = {
    "normal": (125, 95, 55),
    "river": (40, 110, 205),
    "secret": (130, 60, 170),
}
DANGER_COLOURS: dict[str, S.RGB] = {
    "green": (60, 160, 70),
    "yellow": (235, 200, 40),
    "red": (200, 40, 40),
}
LAYOUT_SEED = 7


def world_positions(world: WorldPicture) -> dict[str, tuple[float, float]]:
    """Drawing position of every location: the given ones, the rest by a seeded spring layout."""
    ids = sorted({loc.id for loc in world.locations} | {t.a for t in world.trails} | {t.b for t in world.trails})
    given = {loc.id: (float(loc.position[0]), float(loc.position[1])) for loc in world.locations if loc.position is not None}
    if all(i in given for i in ids):
        return {i: given[i] for i in ids}
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(ids)
    graph.add_edges_from(sorted((min(t.a, t.b), max(t.a, t.b)) for t in world.trails if t.a != t.b))
    if given:
        xs = [p[0] for p in given.values()]
        ys = [p[1] for p in given.values()]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
        pos = nx.spring_layout(graph, pos=dict(given), fixed=sorted(given), seed=LAYOUT_SEED, k=span / max(2, math.sqrt(len(ids))))
    else:
        pos = nx.spring_layout(graph, seed=LAYOUT_SEED)
    # round so tiny float noise cannot move a pixel between machines
    return {i: (round(float(pos[i][0]), 6), round(float(pos[i][1]), 6)) for i in ids}


def _shield(draw: ImageDraw.ImageDraw, centre: tuple[int, int], k: int, fill: S.RGB) -> None:
    x, y = centre
    pts = [(x - k, y - k), (x + k, y - k), (x + k, y + k // 4), (x, y + round(k * 1.3)), (x - k, y + k // 4)]
    draw.polygon(pts, fill=fill, outline=S.TEXT)


def _location_mark(draw: ImageDraw.ImageDraw, centre: tuple[int, int], k: int, kind: str, fill: S.RGB) -> None:
    x, y = centre
    if kind == "city":
        draw.rectangle([x - k, y - k, x + k, y + k], fill=fill, outline=S.TEXT, width=2)
    elif kind == "dungeon":
        draw.polygon([(x, y - k - 2), (x + k + 2, y + k), (x - k - 2, y + k)], fill=fill, outline=S.TEXT)
    elif kind == "legendary":
        pts = []
        for i in range(10):
            r = (k + 3) if i % 2 == 0 else (k + 3) * 0.45
            a = -math.pi / 2 + i * math.pi / 5
            pts.append((round(x + r * math.cos(a)), round(y + r * math.sin(a))))
        draw.polygon(pts, fill=fill, outline=S.TEXT)
    elif kind == "secret_master":
        diamond(draw, centre, k + 2, fill, S.TEXT)
    elif kind == "keep":
        draw.rectangle([x - k, y - k // 2, x + k, y + k], fill=fill, outline=S.TEXT)
        step = max(2, (2 * k) // 5)
        for i in range(3):
            bx = x - k + i * 2 * step
            draw.rectangle([bx, y - k, bx + step, y - k // 2], fill=fill, outline=S.TEXT)
    else:
        disc(draw, centre, k, fill, S.TEXT)


def render_world(world: WorldPicture, *, width: int = 960) -> Image.Image:
    """Draw the campaign world. Deterministic for the same picture."""
    return world_canvas(world, width=width)[0]


def world_canvas(world: WorldPicture, *, width: int = 960,
                 below: int = 0) -> tuple[Image.Image, Callable[[str], tuple[int, int]], int]:
    """The world drawn with `below` more pixels of background under its legend: the image,
    where each location is drawn, and the top of the free band (the campaign state's
    picture draws on it, compiler/emit/images/rtl_state.py)."""
    positions = world_positions(world)
    names = {loc.id: (loc.name or loc.id) for loc in world.locations}
    kinds = {loc.id: loc.kind for loc in world.locations}
    width = max(320, int(width))
    margin = 60
    title_h = 34 if world.title else 0
    px, inner_h = _projection(positions, width, margin, title_h)
    legend_h = 70
    height = title_h + inner_h + 2 * margin + legend_h
    image = Image.new("RGB", (width, height + max(0, below)), S.BACKGROUND)
    draw = ImageDraw.Draw(image)
    small = S.font(11)
    if world.title:
        draw.text((margin, 8), S.drawable(world.title), fill=S.TEXT, font=S.font_for(18, world.title))
    _draw_trails(draw, world, positions, px, small)
    for i in sorted(positions):
        kind = kinds.get(i, "")
        fill = LOCATION_COLOURS.get(kind, S.fallback_colour(kind or i))
        c = px(i)
        _location_mark(draw, c, 8, kind, fill)
        name = names.get(i, i)
        label, fnt = S.drawable(name), S.font_for(13, name)
        w = S.text_size(fnt, label)[2]
        label_box(draw, (round(c[0] - w / 2) - 2, c[1] + 12), label, fnt, S.TEXT, S.BACKGROUND, pad=(2, 1))
    _draw_legend(draw, world, sorted({kinds.get(i, "") for i in positions}), (margin, height - legend_h + 8), small)
    return image, px, height


def _projection(positions: dict[str, tuple[float, float]], width: int, margin: int,
                title_h: int) -> tuple[Callable[[str], tuple[int, int]], int]:
    """Where each location is drawn (the positions scaled into the picture, centred) and
    the height of the drawing area."""
    if positions:
        xs = [p[0] for p in positions.values()]
        ys = [p[1] for p in positions.values()]
        minx, maxx, miny, maxy = min(xs), max(xs), min(ys), max(ys)
    else:
        minx = maxx = miny = maxy = 0.0
    spanx, spany = max(maxx - minx, 1e-9), max(maxy - miny, 1e-9)
    inner_w = width - 2 * margin
    if maxx - minx < 1e-9 and maxy - miny < 1e-9:
        inner_h = 200
    else:
        inner_h = int(min(max(inner_w * spany / spanx if maxx - minx > 1e-9 else inner_w, 240), 1400))
    fac = min(inner_w / spanx if maxx - minx > 1e-9 else math.inf, inner_h / spany if maxy - miny > 1e-9 else math.inf)
    if fac == math.inf:
        fac = 1.0

    def px(i: str) -> tuple[int, int]:
        x, y = positions[i]
        ox = margin + (inner_w - (maxx - minx) * fac) / 2
        oy = title_h + margin + (inner_h - (maxy - miny) * fac) / 2
        return round(ox + (x - minx) * fac), round(oy + (y - miny) * fac)

    return px, inner_h


def _draw_trails(draw: ImageDraw.ImageDraw, world: WorldPicture, positions: dict[str, tuple[float, float]],
                 px: Callable[[str], tuple[int, int]], small: S.Font) -> None:
    """Every trail between two drawn locations, by type; then its danger shield with the traffic."""
    trails = sorted(world.trails, key=lambda t: (min(t.a, t.b), max(t.a, t.b), t.kind))
    for t in trails:
        if t.a not in positions or t.b not in positions:
            continue
        colour = TRAIL_COLOURS.get(t.kind, S.fallback_colour(t.kind))
        a, b = px(t.a), px(t.b)
        if t.kind == "secret":
            dashed(draw, a, b, colour, 3, 9)
        else:
            draw.line([a, b], fill=colour, width=5 if t.kind == "river" else 4)
    for t in trails:
        if t.a not in positions or t.b not in positions:
            continue
        a, b = px(t.a), px(t.b)
        mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
        fill = DANGER_COLOURS.get(t.danger, S.fallback_colour(t.danger))
        _shield(draw, mid, 9, fill)
        if t.traffic is not None:
            text_centred(draw, mid, str(t.traffic), small, S.contrast_text(fill), whole_pixels=False)


def _draw_legend(draw: ImageDraw.ImageDraw, world: WorldPicture, present_kinds: list[str], at: tuple[int, int],
                 small: S.Font) -> None:
    """The legend from `at`: the location kinds present; the trail types, the dangers."""
    x, y = at
    margin = x
    for kind in present_kinds:
        fill = LOCATION_COLOURS.get(kind, S.fallback_colour(kind or "?"))
        _location_mark(draw, (x + 8, y + 8), 6, kind, fill)
        draw.text((x + 20, y + 1), kind or "other", fill=S.TEXT, font=small)
        x += 30 + S.text_size(small, kind or "other")[2]
    y += 28
    x = margin
    for kind in sorted({t.kind for t in world.trails}):
        colour = TRAIL_COLOURS.get(kind, S.fallback_colour(kind))
        if kind == "secret":
            dashed(draw, (x, y + 8), (x + 24, y + 8), colour, 3, 5)
        else:
            draw.line([(x, y + 8), (x + 24, y + 8)], fill=colour, width=4)
        draw.text((x + 30, y + 1), f"{kind} trail", fill=S.TEXT, font=small)
        x += 44 + S.text_size(small, f"{kind} trail")[2]
    for danger in sorted({t.danger for t in world.trails}):
        _shield(draw, (x + 8, y + 7), 6, DANGER_COLOURS.get(danger, S.fallback_colour(danger)))
        draw.text((x + 20, y + 1), danger, fill=S.TEXT, font=small)
        x += 30 + S.text_size(small, danger)[2]
