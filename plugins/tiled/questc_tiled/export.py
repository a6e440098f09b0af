"""`questc --plugin tiled export tiled PACK --quest ID [--encounter N] -o DIR`.

Writes DIR/<map>.tmj (a Tiled JSON map), DIR/<pack>.tsx (a Tiled tileset: one image per
tile face of the pack's catalogs, as questc draws them) and DIR/tiles/<code>.png.
Conventions (docs/tiled.md): one square is SQUARE pixels; the map grid's (0, 0) is world
(origin_x, origin_y), kept in the map's properties; a tile object is anchored, as Tiled
anchors tile objects, at the bottom-left corner of its unrotated image and turned about
that corner clockwise by the placement's rotation.
"""

from __future__ import annotations

import argparse
import io
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Mapping
from xml.sax.saxutils import quoteattr

from compiler.plugins.api import Sink, ast

if TYPE_CHECKING:
    from compiler.plugins.api import AssembledMap, Cell, Model, Tile

JsonObject = dict[str, object]  # an object of the .tmj file

SQUARE = 32  # pixels per square
FORMAT = 1  # questc.format: the layout of questc's properties in the map
TILED_VERSION = "1.10"  # the JSON format version written
LAYERS = ("tiles", "doors", "starts", "tokens", "spawns")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quest", required=True, metavar="ID", help="quest (or top-level encounter) id")
    parser.add_argument("--encounter", type=int, default=None, metavar="N", help="encounter number of a multi-encounter quest (default: the first)")


def map_source(model: Model, quest: str, number: int | None) -> tuple[ast.Quest | ast.Encounter, ast.EncounterBody, int] | None:
    """(declaration, encounter body, encounter number or 0) of a map, from the AST."""
    symbols = model.symbols or {}
    decl = (symbols.get("quest") or {}).get(quest)
    if isinstance(decl, ast.Quest):
        for enc in decl.encounters:
            if enc.number == number and enc.body.map is not None:
                return decl, enc.body, enc.number
        return None
    decl = (symbols.get("encounter") or {}).get(quest)
    if isinstance(decl, ast.Encounter) and decl.body.map is not None:
        return decl, decl.body, 0
    return None


def export(model: Model, args: argparse.Namespace, sink: Sink) -> dict[str, bytes] | None:
    from compiler.plugins.api import choose_map

    choice = choose_map(args, model, sink)
    if choice is None:
        return None
    found = map_source(model, choice.quest, choice.number)
    if found is None:  # a map assembled from no map block: nothing to export
        return None
    decl, body, number = found
    amap = choice.amap
    tiles = model.tiles or {}
    codes = sorted(tiles, key=_natural)
    pack = model.pack
    tileset_name = f"{pack.id}.tsx"
    files: dict[str, bytes] = {}
    for code in codes:
        files[f"tiles/{code}.png"] = tile_png(tiles[code], model)
    files[tileset_name] = tileset_xml(pack.id, codes, tiles).encode("utf-8")
    out_dir = Path(args.output).resolve()
    quest_file = Path(decl.span.file).resolve()
    tmj = map_json(model, amap, body, decl, number, codes, tileset_name,
                   pack_dir=Path(os.path.relpath(pack.root, out_dir)).as_posix(),
                   quest_file=Path(os.path.relpath(quest_file, pack.root)).as_posix())
    files[f"{choice.picture_key}.tmj"] = (json.dumps(tmj, indent=1, sort_keys=True) + "\n").encode("utf-8")
    return files


def _natural(code: str) -> list[int | str]:
    import re

    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", code)]


def _prop(name: str, value: str | int | bool) -> JsonObject:
    kind = "bool" if isinstance(value, bool) else "int" if isinstance(value, int) else "string"
    return {"name": name, "type": kind, "value": value}


def anchor(top_left: tuple[int, int], size: tuple[int, int], rotation: int) -> tuple[int, int]:
    """Pixel (x, y) of a tile object whose rotated image's top-left corner is at pixel
    `top_left`; `size` = the unrotated image (w, h). Tiled turns a tile object about its
    bottom-left corner (x, y)."""
    (px, py), (w, h) = top_left, size
    return {0: (px, py + h), 90: (px, py), 180: (px + w, py), 270: (px + h, py + w)}[rotation % 360]


def top_left_of(x: float, y: float, size: tuple[float, float], rotation: int) -> tuple[float, float]:
    """The inverse of `anchor`."""
    w, h = size
    return {0: (x, y - h), 90: (x, y), 180: (x - w, y), 270: (x - h, y - w)}[rotation % 360]


def map_json(model: Model, amap: AssembledMap, body: ast.EncounterBody, decl: ast.Quest | ast.Encounter, number: int, codes: list[str], tileset: str, *,
             pack_dir: str, quest_file: str) -> JsonObject:
    cells = [c for t in amap.tiles for c in t.local_of]
    ox, oy = min(c[0] for c in cells) - 1, min(c[1] for c in cells) - 1
    width = max(c[0] for c in cells) - ox + 2
    height = max(c[1] for c in cells) - oy + 2
    S = SQUARE
    gid = {code: i + 1 for i, code in enumerate(codes)}
    next_id = [1]

    def obj(name: str, kind: str, x: int, y: int, w: int, h: int, props: list[JsonObject], *, gid_: int | None = None, rotation: int = 0) -> JsonObject:
        o: JsonObject = {"id": next_id[0], "name": name, "type": kind, "x": x, "y": y, "width": w, "height": h,
             "rotation": rotation, "visible": True, "properties": props}
        if gid_ is not None:
            o["gid"] = gid_
        next_id[0] += 1
        return o

    def square(cell: Cell, w: int = 1, h: int = 1) -> tuple[int, int, int, int]:
        return ((cell[0] - ox) * S, (cell[1] - oy) * S, w * S, h * S)

    layers: dict[str, list[JsonObject]] = {name: [] for name in LAYERS}
    for placed in amap.tiles:
        tile = placed.tile
        top_left = ((placed.at[0] - ox) * S, (placed.at[1] - oy) * S)
        x, y = anchor(top_left, (tile.width * S, tile.height * S), placed.rotation)
        layers["tiles"].append(obj(placed.name, "tile", x, y, tile.width * S, tile.height * S,
                                   [_prop("code", placed.code), _prop("hidden", bool(placed.hidden))],
                                   gid_=gid[placed.code], rotation=placed.rotation))
    for door in body.map.doors if body.map is not None else ():
        board_door = next((d for d in amap.board.doors if d.id == door.name), None)
        if board_door is None:
            continue
        xs = [p[0] for e in board_door.edges for p in e]
        ys = [p[1] for e in board_door.edges for p in e]
        x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        pad = S // 4
        on = f"{door.on.tile}.{door.on.side}" + (f".{door.on.index}" if door.on.index else "")
        props = [_prop("on", on), _prop("open", bool(door.open))] + ([_prop("colour", door.colour)] if door.colour else [])
        layers["doors"].append(obj(door.name, "door", (x0 - ox) * S - pad, (y0 - oy) * S - pad,
                                   (x1 - x0) * S + 2 * pad, (y1 - y0) * S + 2 * pad, props))
    if body.start is not None:
        if body.start.tile is not None and body.start.tile in amap.by_name:
            placed = amap.by_name[body.start.tile]
            w, h = placed.orientation.size
            x, y, pw, ph = square(placed.at, w, h)
            layers["starts"].append(obj(body.start.tile, "start", x, y, pw, ph, [_prop("tile", body.start.tile)]))
        for i, ref in enumerate(body.start.spaces):
            cell = amap.space(ref)
            if cell is not None:
                layers["starts"].append(obj("", "start", *square(cell), [_prop("stmt", i)]))
    for i, tok in enumerate(body.tokens):
        cell = amap.space(tok.at)
        if cell is None:
            continue
        props = [_prop("stmt", i)]
        props += [_prop("colour", tok.colour)] if tok.colour else []
        props += [_prop("label", tok.label.value)] if tok.label is not None else []
        layers["tokens"].append(obj(tok.name or "", tok.kind, *square(cell), props))
    for i, spawn in enumerate(body.spawns):
        refs = [spawn.at] if spawn.at is not None else [r for p in spawn.points for r in p.at[:1]]
        cell = amap.space(refs[0]) if refs else None
        if cell is None:
            continue
        w, h = spawn.size or (1, 1)
        props = [_prop("stmt", i)] + ([_prop("fixed", True)] if spawn.at is None else [])
        layers["spawns"].append(obj(spawn.name or "", spawn.group, *square(cell, w, h), props))
    properties = [
        _prop("questc.format", FORMAT),
        _prop("questc.pack", model.pack.id),
        _prop("questc.pack_dir", pack_dir),
        _prop("questc.file", quest_file),
        _prop("questc.quest", decl.id),
        _prop("questc.encounter", number),
        _prop("questc.origin_x", ox),
        _prop("questc.origin_y", oy),
        _prop("questc.square", S),
    ]
    return {
        "type": "map",
        "version": TILED_VERSION,
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": False,
        "width": width,
        "height": height,
        "tilewidth": S,
        "tileheight": S,
        "backgroundcolor": "#20201c",
        "nextlayerid": len(LAYERS) + 1,
        "nextobjectid": next_id[0],
        "properties": properties,
        "tilesets": [{"firstgid": 1, "source": tileset}],
        "layers": [
            {"id": i + 1, "name": name, "type": "objectgroup", "draworder": "index" if name == "tiles" else "topdown",
             "opacity": 1, "visible": True, "x": 0, "y": 0, "objects": layers[name]}
            for i, name in enumerate(LAYERS)
        ],
    }


def tileset_xml(pack_id: str, codes: list[str], tiles: Mapping[str, Tile]) -> str:
    """A Tiled tileset of single images (a collection of images), one tile per face, tile
    id = index in code order, each with its `code` and size in squares as properties."""
    S = SQUARE
    big_w = max((tiles[c].width for c in codes), default=1) * S
    big_h = max((tiles[c].height for c in codes), default=1) * S
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<tileset version="{TILED_VERSION}" tiledversion="1.10.2" name={quoteattr(pack_id)} tilewidth="{big_w}" tileheight="{big_h}" tilecount="{len(codes)}" columns="0">',
           ' <grid orientation="orthogonal" width="1" height="1"/>',
           ' <properties>', f'  <property name="questc.pack" value={quoteattr(pack_id)}/>', f'  <property name="questc.square" type="int" value="{S}"/>', ' </properties>']
    for i, code in enumerate(codes):
        t = tiles[code]
        out += [f' <tile id="{i}" type="tile">',
                '  <properties>',
                f'   <property name="code" value={quoteattr(code)}/>',
                '  </properties>',
                f'  <image width="{t.width * S}" height="{t.height * S}" source={quoteattr(f"tiles/{code}.png")}/>',
                ' </tile>']
    out.append("</tileset>")
    return "\n".join(out) + "\n"


def tile_png(tile: Tile, model: Model) -> bytes:
    """One tile face as questc draws it, cropped to its bounding box; squares it lacks are transparent."""
    from PIL import Image

    from compiler.plugins.api import tile_image

    S = SQUARE
    face = tile_image(tile, model.terrain, scale=S).convert("RGBA")
    mask = Image.new("L", face.size, 0)
    for (c, r) in tile.squares:
        mask.paste(255, (c * S, r * S, (c + 1) * S, (r + 1) * S))
    face.putalpha(mask)
    buf = io.BytesIO()
    face.save(buf, format="PNG", optimize=False)
    return buf.getvalue()
