"""Colours, terrain looks and fonts shared by every picture questc draws.

Everything here is a table or a pure function of its input, so the same content always
gives the same pixels. Terrain looks are keyed by terrain id; an id the table does not
know gets a colour derived from a hash of the id (stable across runs and machines).
"""

from __future__ import annotations

import colorsys
import functools
import hashlib
from pathlib import Path
from typing import TypeAlias, cast

from PIL import Image, ImageColor, ImageDraw, ImageFont

from compiler import frozen

RGB = tuple[int, int, int]
# what text is drawn with: Pillow's bundled font (`font`), or DejaVu Sans (`font_for`)
Font: TypeAlias = ImageFont.ImageFont | ImageFont.FreeTypeFont

BACKGROUND: RGB = (250, 250, 247)
OUTSIDE: RGB = (214, 214, 210)  # squares of the frame that are not map spaces
GRID: RGB = (150, 140, 125)
WALL: RGB = (22, 22, 22)
TILE_OUTLINE: RGB = (120, 60, 150)
TILE_LABEL: RGB = (70, 30, 100)
OPENING: RGB = (0, 170, 170)
HATCH: RGB = (60, 60, 60)
SEEN: RGB = (255, 225, 40)
SEEN_ALPHA = 0.45
NO_MINIONS: RGB = (220, 40, 40)  # red-shaded areas of a dungeon level: no minions set up there
NO_MINIONS_ALPHA = 0.35
REACHABLE: RGB = (40, 60, 200)
ORIGIN: RGB = (255, 120, 0)
BLOCKER: RGB = (55, 58, 70)
ENTRANCE: RGB = (0, 150, 80)
EXIT: RGB = (200, 30, 30)
HERO_START: RGB = (0, 150, 80)
MASTER: RGB = (190, 30, 30)
MINION: RGB = (245, 245, 245)
LIEUTENANT: RGB = (80, 45, 130)  # a lieutenant's one figure: neither a group's master nor a minion
HERO_COUNT: RGB = (255, 236, 140)
LINK: RGB = (130, 60, 170)
GLYPH: RGB = (40, 110, 200)  # a glyph of transport (filled when active)
PORTAL: RGB = (120, 20, 160)  # the portal piece's outline
HAZARD: RGB = (225, 90, 0)  # a hazard's lane or struck squares (`hazard …`, compiler/geometry/hazards.py)
CHEST: dict[str, RGB] = {"copper": (184, 115, 51), "silver": (170, 170, 180), "gold": (222, 180, 30)}
DOOR_DEFAULT: RGB = (150, 90, 40)
TEXT: RGB = (20, 20, 20)
CAPTION: RGB = (30, 30, 90)

TOKEN_COLOURS: dict[str, RGB] = {
    "search": (230, 190, 40),
    "objective": (200, 60, 160),
    "villager": (80, 160, 220),
}


@frozen
class TerrainLook:
    fill: RGB
    glyph: str = ""  # "", waves, cross, pit, lava, hazard, elevation, fog, dots
    ink: RGB = (40, 40, 40)  # the glyph's colour


TERRAIN_LOOKS: dict[str, TerrainLook] = {
    "plain": TerrainLook((238, 229, 208)),
    "water": TerrainLook((120, 175, 225), "waves", (40, 90, 160)),
    "pit": TerrainLook((95, 85, 80), "pit", (30, 25, 22)),
    "lava": TerrainLook((225, 95, 40), "lava", (120, 30, 10)),
    "obstacle": TerrainLook((125, 118, 108), "cross", (45, 40, 35)),
    "block": TerrainLook((125, 118, 108), "cross", (45, 40, 35)),
    "rubble": TerrainLook((150, 138, 120), "dots", (70, 60, 50)),
    "hazard": TerrainLook((235, 200, 80), "hazard", (140, 60, 0)),
    "elevation": TerrainLook((175, 205, 125), "elevation", (60, 100, 30)),
    "elevated": TerrainLook((175, 205, 125), "elevation", (60, 100, 30)),
    "table": TerrainLook((190, 150, 105), "elevation", (90, 55, 20)),
    "mud": TerrainLook((160, 125, 85), "dots", (90, 65, 35)),
    "fog": TerrainLook((205, 205, 220), "fog", (120, 120, 150)),
    "sludge": TerrainLook((120, 150, 90), "dots", (60, 80, 40)),
}


def fallback_colour(key: str) -> RGB:
    """A stable, mid-light colour for an id no table knows (hash of the id, not Python's hash)."""
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    hue = int.from_bytes(digest[:2], "big") / 65536.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.68, 0.45)
    return (round(r * 255), round(g * 255), round(b * 255))


def terrain_look(
    terrain_id: str,
    *,
    blocks_movement: bool = False,
    adjacent_only: bool = False,
    elevated: bool = False,
    harmful: bool = False,
) -> TerrainLook:
    """How a terrain is drawn: the table entry, else a hashed colour with a glyph from its behaviour."""
    look = TERRAIN_LOOKS.get(terrain_id)
    if look is not None:
        return look
    glyph = (
        "cross" if blocks_movement
        else "elevation" if elevated
        else "hazard" if harmful
        else "fog" if adjacent_only
        else ""
    )
    return TerrainLook(fallback_colour(terrain_id), glyph)


def named_colour(name: str | None, default: RGB) -> RGB:
    """A colour name or #hex as RGB; unknown names fall back to a hash of the name, None to default."""
    if not name:
        return default
    try:
        rgb = ImageColor.getrgb(name)
    except ValueError:
        return fallback_colour(name)
    return (rgb[0], rgb[1], rgb[2])


def token_colour(kind: str, colour: str | None) -> RGB:
    if colour:
        return named_colour(colour, TOKEN_COLOURS.get(kind, fallback_colour(kind)))
    return TOKEN_COLOURS.get(kind, fallback_colour(kind))


def blend(base: RGB, over: RGB, alpha: float) -> RGB:
    """Integer alpha blend, the same arithmetic the numpy overlays use."""
    a = round(alpha * 256)
    r, g, b = ((x * (256 - a) + o * a) >> 8 for x, o in zip(base, over))
    return (r, g, b)


def contrast_text(fill: RGB) -> RGB:
    r, g, b = fill
    return TEXT if (r * 299 + g * 587 + b * 114) > 128_000 else (255, 255, 255)


@functools.lru_cache(maxsize=32)
def font(size: int) -> Font:
    """Pillow's bundled default font at `size` pixels.

    With FreeType (Pillow >= 10.1) this is the bundled Aileron face, so no system font
    is ever needed; without FreeType we fall back to the fixed bitmap font.
    """
    size = max(6, int(size))
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, OSError, ImportError, AttributeError):  # old Pillow or no FreeType
        return ImageFont.load_default()


_ASCII = str.maketrans({"\u2014": "-", "\u2013": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2026": "...", "\u00d7": "x"})


# The most characters an image draws of one text: a name's cap (compiler/syntax/lengths.py).
# The checks refuse longer names and texts first (S0230, T0205, the schemas' maxLength);
# this second guard cuts whatever else comes (`...` ends what is cut), so that no image
# is ever sized from unbounded text: a 60,000-character title was 600,000 pixels wide.
DRAWN_MAX = 200


def _cut(text: str) -> str:
    return text if len(text) <= DRAWN_MAX else text[: DRAWN_MAX - 1] + "\u2026"


def printable(text: str) -> str:
    """Text the bundled font can draw: typographic punctuation to ASCII, other non-Latin-1
    to '?'; at most DRAWN_MAX characters."""
    text = _cut(text).translate(_ASCII)
    return "".join(ch if ord(ch) < 256 and ch.isprintable() else "?" for ch in text)


# DejaVu Sans (fonts/LICENSE-DejaVu.txt): Latin Extended, Greek, Cyrillic and more, for
# text the bundled Aileron face cannot draw. Text within Latin-1 keeps Aileron, so the
# images of packs written in Latin-1 are byte for byte what they were.
WIDE_FONT = Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"
_NO_GLYPH = "\U0010fffd"  # a private-use code point no font maps: its mask is the font's "missing" box


def _latin1(text: str) -> bool:
    return all(ord(ch) < 256 and ch.isprintable() for ch in text.translate(_ASCII))


@functools.lru_cache(maxsize=32)
def _wide_font(size: int) -> ImageFont.FreeTypeFont | None:
    try:
        from compiler.resources import packaged_font

        return packaged_font(WIDE_FONT, max(6, int(size)))
    except (OSError, ImportError):  # no FreeType: the bitmap font, and '?' for what it lacks
        return None


def font_for(size: int, text: str) -> Font:
    """The font to draw `text` with: `font(size)` for ASCII text, else DejaVu Sans. (Pillow's
    Aileron face draws ASCII only: `é`, `î`, `ß` came out as its missing-glyph box, so a
    French legend read `d?part`; issue 35.)"""
    if text.translate(_ASCII).isascii():
        return font(size)
    return _wide_font(max(6, int(size))) or font(size)


@functools.lru_cache(maxsize=4096)
def has_glyph(ch: str) -> bool:
    """Whether DejaVu Sans draws `ch` (its mask differs from the missing-glyph box)."""
    if ord(ch) < 256:
        return ch.isprintable()
    if not ch.isprintable():
        return False
    wide = _wide_font(24)
    if wide is None:
        return False

    def mask(c: str) -> bytes:
        img = Image.new("L", (48, 48))
        ImageDraw.Draw(img).text((8, 8), c, font=wide, fill=255)
        return img.tobytes()

    return mask(ch) != mask(_NO_GLYPH)


def drawable(text: str) -> str:
    """`text` as `font_for` draws it: typographic punctuation to ASCII; a character no
    font has becomes '?' (report it first: `missing_glyphs`). Latin-1 text is `printable(text)`.
    At most DRAWN_MAX characters."""
    text = _cut(text)
    if _latin1(text):
        return printable(text)
    return "".join(ch if has_glyph(ch) else "?" for ch in text.translate(_ASCII))


def missing_glyphs(text: str) -> list[str]:
    """The characters of `text` that no bundled font can draw, each once."""
    return list(dict.fromkeys(ch for ch in text.translate(_ASCII) if not has_glyph(ch)))


def text_size(fnt: Font, text: str) -> tuple[int, int, int, int]:
    """(left, top, width, height) of the ink of `text`."""
    # Pillow types FreeTypeFont.getbbox as floats for the sake of a fractional
    # stroke_width; without one (as here) it gives whole pixels, as ImageFont does
    left, top, right, bottom = cast("tuple[int, int, int, int]", fnt.getbbox(text))
    return left, top, right - left, bottom - top
