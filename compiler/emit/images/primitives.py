"""The drawing primitives every picture is made of, and deterministic PNG output.

Each renderer (the map, its legend, the tile sheet, the chain, the world) draws with
these, so a dashed line, a centred label or a shaded region looks the same everywhere:

    inset(box, m)                         a square's pixel box shrunk by m, as Pillow's inclusive box
    dashed(draw, a, b, …)                 a dashed line
    cross(draw, box, …) / disc(…) / diamond(…)
    text_centred(draw, xy, text, …)       text whose ink is centred on xy
    label_box(draw, xy, text, …)          text on a filled box, top-left at xy
    box_mask / hatch_mask                 boolean pixel masks (numpy)
    paint_mask / shade_mask               a colour painted or alpha-blended through a mask
    png_bytes(image) / save_png(image, path)

Boxes of squares are (left, top, right, bottom) with right/bottom exclusive; `inset`
turns one into the inclusive box Pillow's rectangle and ellipse take.
"""

from __future__ import annotations

import io
import math
import os
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
from PIL import Image, ImageDraw

from compiler.emit.images import style as S

Box = tuple[int, int, int, int]
Point = tuple[float, float]  # a pixel position (drawing rounds it)


# ---------------------------------------------------------------- shapes


def inset(box: Box, m: int = 0) -> list[int]:
    """The inclusive box of `box` (right/bottom exclusive) shrunk by `m` pixels on each side."""
    l, t, r, b = box
    return [l + m, t + m, r - m - 1, b - m - 1]


def dashed(draw: ImageDraw.ImageDraw, a: Point, b: Point, fill: S.RGB, width: int, dash: int) -> None:
    """A line from a to b cut into dashes about `dash` pixels long (nothing when a == b)."""
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


def cross(draw: ImageDraw.ImageDraw, box: Sequence[int], fill: S.RGB, width: int) -> None:
    """An X from corner to corner of the inclusive box (left, top, right, bottom)."""
    l, t, r, b = box
    draw.line([(l, t), (r, b)], fill=fill, width=width)
    draw.line([(l, b), (r, t)], fill=fill, width=width)


def disc(draw: ImageDraw.ImageDraw, centre: Point, radius: int, fill: S.RGB | None, outline: S.RGB | None = None, width: int = 1) -> None:
    """A circle of `radius` round `centre`: filled, outlined, or both."""
    x, y = centre
    draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=fill, outline=outline, width=width)


def diamond(draw: ImageDraw.ImageDraw, centre: Point, half: int, fill: S.RGB, outline: S.RGB) -> None:
    """A square on its corner, `half` pixels from the centre to each corner."""
    x, y = centre
    draw.polygon([(x, y - half), (x + half, y), (x, y + half), (x - half, y)], fill=fill, outline=outline)


# ---------------------------------------------------------------- text


def text_centred(draw: ImageDraw.ImageDraw, xy: Point, text: str, fnt: S.Font, fill: S.RGB, *, whole_pixels: bool = True) -> None:
    """`text` with its ink centred on xy.

    The ink is placed on whole pixels; `whole_pixels=False` keeps the fractional position
    (the world's traffic numbers have always been drawn that way)."""
    left, top, w, h = S.text_size(fnt, text)
    x, y = xy[0] - w / 2 - left, xy[1] - h / 2 - top
    if whole_pixels:
        x, y = round(x), round(y)
    draw.text((x, y), text, fill=fill, font=fnt)


def label_box(
    draw: ImageDraw.ImageDraw, xy: Point, text: str, fnt: S.Font, fill: S.RGB, background: S.RGB, pad: int | tuple[int, int] = 2
) -> None:
    """Text on a filled box whose top-left is xy; `pad` is pixels round the ink (one number, or (x, y))."""
    px, py = pad if isinstance(pad, tuple) else (pad, pad)
    left, top, w, h = S.text_size(fnt, text)
    x, y = xy
    draw.rectangle([x, y, x + w + 2 * px, y + h + 2 * py], fill=background)
    draw.text((x + px - left, y + py - top), text, fill=fill, font=fnt)


# ---------------------------------------------------------------- masks and overlays


def box_mask(size: tuple[int, int], boxes: Iterable[Box]) -> np.ndarray:
    """A (height, width) boolean mask, True inside every box (clipped at the image's top-left)."""
    mask = np.zeros((size[1], size[0]), dtype=bool)
    for l, t, r, b in boxes:
        mask[max(t, 0) : max(b, 0), max(l, 0) : max(r, 0)] = True
    return mask


def hatch_mask(size: tuple[int, int], period: int) -> np.ndarray:
    """Diagonal hatching: pixels with (x + y) mod period < 2. Public so tests can probe it."""
    ys, xs = np.indices((size[1], size[0]))
    return ((xs + ys) % period) < 2


def paint_mask(image: Image.Image, mask: np.ndarray, colour: S.RGB) -> None:
    """Set every masked pixel of `image` to `colour`, in place."""
    image.paste(colour, mask=Image.fromarray(mask.astype(np.uint8) * 255, "L"))


def shade_mask(image: Image.Image, mask: np.ndarray, colour: S.RGB, alpha: float) -> Image.Image:
    """A copy of `image` with `colour` blended over the masked pixels, with the same integer
    arithmetic as `style.blend`, so a shaded pixel's value is exactly predictable."""
    arr = np.asarray(image, dtype=np.uint16).copy()
    a = round(alpha * 256)
    over = np.array(colour, dtype=np.uint16) * a
    arr[mask] = (arr[mask] * (256 - a) + over) >> 8
    return Image.fromarray(arr.astype(np.uint8), "RGB")


# ---------------------------------------------------------------- PNG output


def png_bytes(image: Image.Image) -> bytes:
    """PNG bytes with fixed settings and no metadata chunks (no time, no text, no gamma)."""
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def save_png(image: Image.Image, path: str | os.PathLike[str]) -> Path:
    """Write `image` to `path` deterministically and atomically (temp file + rename)."""
    from compiler.emit.files import write_atomic

    return write_atomic(path, png_bytes(image))
