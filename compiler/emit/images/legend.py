"""The legend under a map or a tile sheet: one swatch and label per thing the picture shows.

    legend_entries(picture) -> [LegendEntry]    only what the map contains
    render_legend(entries, width, scale) -> Image   entries flowed in rows, `width` wide
"""

from __future__ import annotations


from PIL import Image, ImageDraw

from compiler.emit.images import style as S
from compiler.emit.images.pictures import MapPicture
from compiler.emit.images.primitives import Box, diamond, inset, label_box, text_centred
from compiler.emit.images.words import door_label, word
from compiler.emit.images.terrain import draw_glyph, look_for
from compiler import frozen


@frozen
class LegendEntry:
    label: str
    kind: str  # terrain | wall | door | open_door | opening | hidden | seen | reachable | token | badge | ...
    look: S.TerrainLook | None = None
    colour: S.RGB = S.TEXT
    mark: str = ""  # what the swatch writes: a token's letter, a hero-count badge


def legend_entries(picture: MapPicture) -> list[LegendEntry]:
    """Terrains by id, walls, door colours and states, markers, tokens (each kind and
    label with the letter the map draws), the hero-count badge and the overlays the
    picture holds, in the picture's language (words.py; the pack's own token labels come
    translated in the picture)."""
    board = picture.board
    lang = picture.lang

    def said(text: str) -> str:
        return S.drawable(word(text, lang))

    entries = [LegendEntry(said(S.printable(t)), "terrain", look_for(board.rules, t)) for t in sorted(set(board.terrain))]
    if board.walls:
        entries.append(LegendEntry(said("wall"), "wall", colour=S.WALL))
    for line in board.lines:  # an elevation line: a bar of its colour
        entries.append(LegendEntry(said(line.kind.replace("_", " ")), "wall", colour=(int(line.colour[1:3], 16), int(line.colour[3:5], 16), int(line.colour[5:7], 16))))
    kinds = sorted({(d.colour or "", d.open) for d in board.doors})
    for name, is_open in kinds:  # one entry per colour and state, not per door
        colour = S.named_colour(name or None, S.DOOR_DEFAULT)
        entries.append(LegendEntry(S.drawable(door_label(S.printable(name), is_open, lang)), "open_door" if is_open else "door", colour=colour))
    flags = (
        (picture.openings, "opening", "opening", S.OPENING),
        (any(t.hidden for t in picture.tiles), "hidden tile", "hidden", S.HATCH),
        (picture.hero_starts, "hero start", "hero", S.HERO_START),
        (picture.entrances, "entrance", "entrance", S.ENTRANCE),
        (picture.exits, "exit", "exit", S.EXIT),
        (any(s.rank == "master" for s in picture.spawns), "master", "master", S.MASTER),
        (any(s.rank == "lieutenant" for s in picture.spawns), "lieutenant", "lieutenant", S.LIEUTENANT),
        (any(s.rank not in ("master", "lieutenant") for s in picture.spawns), "minion", "minion", S.MINION),
        (picture.no_minions, "no minions", "no_minions", S.NO_MINIONS),
        (picture.seen, "seen", "seen", S.SEEN),
        (picture.reachable, "reachable", "reachable", S.REACHABLE),
        (picture.blockers, "blocking figure", "blocker", S.BLOCKER),
        (picture.origin is not None, "viewpoint", "origin", S.ORIGIN),
        (any(a for _, a in picture.glyphs), "glyph (active)", "glyph_active", S.GLYPH),
        (any(not a for _, a in picture.glyphs), "glyph", "glyph", S.GLYPH),
        (picture.portal, "portal", "portal", S.PORTAL),
    )
    for present, label, kind, colour in flags:
        if present:
            entries.append(LegendEntry(said(label), kind, colour=colour))
    badges = sorted({sp.heroes for sp in picture.spawns if sp.heroes and sp.cells})
    if badges:  # `3+` on a figure: it is set up only with that many heroes
        entries.append(LegendEntry(said("only with that many heroes"), "badge", mark=badges[0]))
    for kind, named, label in sorted({(t.kind, t.colour or "", t.label) for t in picture.tokens}):
        text = f"{label} ({word(kind, lang)})" if label else f"{word('token', lang)}: {word(kind, lang)}"
        entries.append(LegendEntry(S.drawable(text), "token", colour=S.token_colour(kind, named or None),
                                   mark=token_letter(kind, label)))
    for tier in sorted({t for _, t in picture.chests}):
        label = f"{tier} chest" if word("chest", lang) == "chest" else f"{word('chest', lang)} ({word(tier, lang)})"
        entries.append(LegendEntry(S.drawable(label), "chest", colour=S.CHEST.get(tier, S.DOOR_DEFAULT)))
    return entries


def token_letter(kind: str, label: str) -> str:
    """The letter a token is drawn with: its label's first, else its kind's (map.py)."""
    return (label or kind)[:1].upper()


def render_legend(entries: list[LegendEntry], width: int, scale: int) -> Image.Image:
    """The entries flowed left to right in rows no wider than `width`."""
    sw = max(12, round(scale * 0.5))  # swatch size
    size = max(9, round(scale * 0.34))
    pad = 6
    placed: list[tuple[int, int, LegendEntry]] = []
    x, y = pad, pad
    row_h = sw + 4
    for entry in entries:
        _l, _t, tw, _h = S.text_size(S.font_for(size, entry.label), entry.label)
        w = sw + 4 + tw + 12
        if x + w > width - pad and x > pad:
            x, y = pad, y + row_h
        placed.append((x, y, entry))
        x += w
    height = y + row_h + pad
    img = Image.new("RGB", (width, height), S.BACKGROUND)
    draw = ImageDraw.Draw(img)
    for x, y, entry in placed:
        _swatch(draw, (x, y, x + sw, y + sw), entry, sw)
        fnt = S.font_for(size, entry.label)
        _l, t, _w, h = S.text_size(fnt, entry.label)
        draw.text((x + sw + 4, y + (sw - h) // 2 - t), entry.label, fill=S.TEXT, font=fnt)
    return img


def _swatch(draw: ImageDraw.ImageDraw, box: Box, entry: LegendEntry, sw: int) -> None:
    l, t, r, b = box
    k = entry.kind
    if k == "terrain" and entry.look is not None:
        draw.rectangle(inset(box), fill=entry.look.fill, outline=S.GRID)
        draw_glyph(draw, box, entry.look, sw)
    elif k in ("wall", "opening", "entrance", "exit"):
        draw.rectangle([l, t + sw // 2 - 2, r, t + sw // 2 + 2], fill=entry.colour)
    elif k == "door":
        draw.rectangle([l + 1, t + sw // 2 - 3, r - 1, t + sw // 2 + 3], fill=entry.colour, outline=S.WALL)
    elif k == "open_door":
        draw.rectangle([l + 1, t + sw // 2 - 3, r - 1, t + sw // 2 + 3], outline=entry.colour, width=2)
    elif k == "hidden":
        draw.rectangle(inset(box), outline=S.GRID)
        for i in range(-sw, sw, 5):
            # each stroke cut to the swatch's columns (painting the overhang over with the
            # background erased the end of the label before it)
            x0, y0, dx, dy = l + i, b - 1, sw, t - (b - 1)
            lo, hi = max(0.0, (l - x0) / dx), min(1.0, (r - x0) / dx)
            if lo < hi:
                draw.line([(x0 + lo * dx, y0 + lo * dy), (x0 + hi * dx, y0 + hi * dy)], fill=S.HATCH)
    elif k == "no_minions":
        draw.rectangle(inset(box), fill=S.blend(S.TERRAIN_LOOKS["plain"].fill, S.NO_MINIONS, S.NO_MINIONS_ALPHA), outline=S.GRID)
    elif k == "seen":
        draw.rectangle(inset(box), fill=S.blend(S.TERRAIN_LOOKS["plain"].fill, S.SEEN, S.SEEN_ALPHA), outline=S.GRID)
    elif k == "reachable":
        draw.rectangle(inset(box, 1), outline=S.REACHABLE, width=2)
    elif k in ("master", "minion", "lieutenant", "blocker"):
        draw.ellipse([l + 1, t + 1, r - 1, b - 1], fill=entry.colour, outline=S.TEXT)
    elif k in ("glyph", "glyph_active"):
        draw.ellipse([l + 2, t + 2, r - 2, b - 2], outline=entry.colour, width=2,
                     fill=entry.colour if k == "glyph_active" else None)
    elif k == "portal":
        draw.rectangle([l + 1, t + 1, r - 1, b - 1], outline=entry.colour, width=3)
    elif k == "chest":
        draw.rectangle([l + 3, t + 5, r - 3, b - 3], fill=entry.colour, outline=S.WALL)
    elif k == "token":
        diamond(draw, ((l + r) / 2, (t + b) / 2), sw // 2, entry.colour, S.TEXT)
        letter = S.drawable(entry.mark)
        text_centred(draw, ((l + r) / 2, (t + b) / 2), letter, S.font_for(max(8, round(sw * 0.7)), letter), S.contrast_text(entry.colour))
    elif k == "badge":
        tiny = S.font(max(7, round(sw * 0.6)))
        label_box(draw, (l, t + 1), entry.mark, tiny, S.TEXT, S.HERO_COUNT, pad=1)
    elif k in ("hero", "origin"):
        draw.ellipse([l + 1, t + 1, r - 1, b - 1], outline=entry.colour, width=2)
