"""How a terrain square looks: its look from the terrain rule, and its glyph.

Used by the map (every space) and the legend (terrain swatches). The colours and which
glyph a terrain gets are tables in `style.py`; here the glyphs are drawn.
"""

from __future__ import annotations

import math
from typing import Mapping

from PIL import ImageDraw

from compiler.catalogs.terrain import PLAIN, TerrainRule
from compiler.emit.images import style as S
from compiler.emit.images.primitives import Box, cross, disc, inset


def look_for(rules: Mapping[str, TerrainRule], terrain_id: str) -> S.TerrainLook:
    """The look of `terrain_id`: the style table's, else one from the rule's behaviour."""
    rule = rules.get(terrain_id, PLAIN)
    return S.terrain_look(
        terrain_id,
        blocks_movement=rule.blocks_movement,
        adjacent_only=rule.sight != "normal",
        elevated=bool(getattr(rule, "elevated", False)),
        harmful=bool(getattr(rule, "defeat_end_of_turn", False) or getattr(rule, "on_enter_damage", 0)),
    )


def draw_glyph(draw: ImageDraw.ImageDraw, box: Box, look: S.TerrainLook, scale: int) -> None:
    """The look's glyph inside a square's box (right/bottom exclusive), in its middle half."""
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
        cross(draw, inset(box, m), ink, max(2, s // 10))
    elif g == "pit":
        draw.ellipse(inset(box, m), fill=ink)
    elif g == "lava":
        draw.polygon([(l + s // 2, t + m), (r - m - 1, b - m - 1), (l + m, b - m - 1)], outline=ink)
        disc(draw, (l + s // 2, t + s // 2 + w + 1), w + 1, ink)  # a drop just below the centre
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
            disc(draw, (l + round(s * fx), t + round(s * fy)), w + 1, ink)
