"""`questc --plugin tiled import tiled FILE.tmj [--pack PACK] [-o OUT | --in-place]`.

Reads a map `questc export tiled` wrote (after a designer moved, turned, added or removed
tiles, tokens, spawns, starts or doors in Tiled) and gives the quest file back with its
`map { … }` block and its token, spawn and start lines brought in line with the map.
Everything else in the file stays byte for byte: comments, events, the statements the
edit did not touch (a tile that did not move keeps its `attach`, its comment, its
spelling). Each problem of the map is a located TLD diagnostic (file and object id).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NotRequired, TypedDict, cast

from compiler.plugins.api import Sink, Span, ast

from questc_tiled.export import LAYERS, map_source, top_left_of
from questc_tiled.jsonpos import JsonPath, Positions, line_col

if TYPE_CHECKING:
    from compiler.plugins.api import AssembledMap, Cell, Model, Related, Severity, Tile

FLIPS = 0xE0000000  # Tiled keeps horizontal, vertical and diagonal flips in a gid's top bits
MAX_MAP_BYTES = 16 * 1024 * 1024  # a .tmj, a .tsx or the quest file read back
# objects in all of a map's object layers: a hundred times what a Descent map holds (its tiles,
# doors, tokens, spawns and starts), and the import of the largest still well under a second
# (the quest it gives back is parsed again: 20,000 objects took 5 s). docs/robustness.md
MAX_OBJECTS = 4000
# lists the schema checks item by item, each item a few hundred microseconds: layers in all
# (group layers' too), tilesets, the properties of the map, of a layer or of an object
MAX_LAYERS = MAX_TILESETS = MAX_PROPERTIES = 64
# the map properties questc export writes, each with the kind of value it holds
NEEDED: dict[str, type] = {"questc.pack": str, "questc.quest": str, "questc.encounter": int, "questc.origin_x": int,
                           "questc.origin_y": int, "questc.square": int}


# The parts of a Tiled JSON map questc reads, in the shape tiled-map.schema.json checks
# (`_valid`) before anything else reads them.
class TiledProperty(TypedDict):
    name: str
    value: object
    type: NotRequired[str]


class TiledObject(TypedDict):
    id: int
    name: str
    type: str  # the object's class
    x: float
    y: float
    width: float
    height: float
    rotation: float
    gid: NotRequired[int]
    properties: NotRequired[list[TiledProperty]]


class TiledLayer(TypedDict):
    type: str
    name: str
    objects: NotRequired[list[TiledObject]]


class TiledTilesetRef(TypedDict):
    firstgid: int
    source: NotRequired[str]
    tiles: NotRequired[list[dict[str, Any]]]  # an embedded tileset's tiles: the schema leaves them unchecked


class TiledMap(TypedDict):
    orientation: str
    tilewidth: int
    tileheight: int
    infinite: bool
    layers: list[TiledLayer]
    tilesets: list[TiledTilesetRef]
    properties: NotRequired[list[TiledProperty]]


@dataclass(frozen=True)
class MapProperties:
    """The questc properties of an exported map (NEEDED), checked."""

    pack: str
    quest: str
    encounter: int  # 0: a top-level encounter
    origin: tuple[int, int]  # the world cell of the map grid's (0, 0)
    square: int  # pixels per square
    pack_dir: str | None  # the pack folder, relative to the map's folder


Located = tuple[TiledObject, JsonPath]  # an object of the map and where it is in the file
Placed = tuple[TiledObject, JsonPath, "Cell"]  # … and the square it stands on


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pack", default=None, metavar="PACK",
                        help="the pack folder or id (default: the folder the map names, else its pack id on the search path)")
    parser.add_argument("--in-place", action="store_true", help="rewrite the quest file instead of writing the result to -o or standard output")


@dataclass
class NewTile:
    obj: int
    name: str
    code: str
    at: tuple[int, int]
    rotation: int
    hidden: bool
    tile: Tile

    def cells(self) -> dict[Cell, Cell]:
        """world cell -> printed (col, row)."""
        ax, ay = self.at
        return {(c + ax, r + ay): local for (c, r), local in self.tile.turned_cells(self.rotation)}

    def to_world(self, local: Cell) -> Cell:
        c, r = self.tile.orient(self.rotation).cell(local)
        return (c + self.at[0], r + self.at[1])


class _Reader:
    def __init__(self, file: str, text: str, sink: Sink):
        self.file, self.text, self.sink = file, text, sink
        self.failed = False

    @functools.cached_property
    def pos(self) -> Positions:
        """Where each value starts, found as far as a diagnostic needs it (a walk of the
        whole text took 2.5 s of a 6 MB map, with nothing or one thing to report)."""
        return Positions(self.text)

    def offset(self, path: JsonPath) -> int:
        """Where the value at `path` starts, or the nearest value holding it that exists."""
        while path and path not in self.pos:
            path = path[:-1]
        return self.pos.get(path) or 0

    def span(self, path: JsonPath) -> Span:
        line, col = line_col(self.text, self.offset(path))
        return Span(self.file, line, col, line, col + 1)

    def report(self, code: str, path: JsonPath, /, related: tuple[Related, ...] = (), fix: str | None = None,
               severity: Severity | None = None, **args: object) -> None:
        diag = self.sink.report(code, self.span(path), related=related, fix=fix, severity=severity, **args)
        if diag.severity.value == "error":
            self.failed = True


def import_tiled(args: argparse.Namespace, sink: Sink) -> str | dict[str, str] | None:
    from compiler.plugins.api import Refused, load_json, read_reported, refuse

    file = str(args.file)
    # the guarded reader: a regular file (a FIFO is refused at once), bounded, UTF-8,
    # nested at most reader.MAX_DEPTH deep, checked before json recurses
    text = read_reported(file, sink, "M0402", name=file, max_bytes=MAX_MAP_BYTES, path=file)
    if text is None:
        return None
    data = load_json(text)
    if isinstance(data, Refused):
        refuse(file, data, sink, "M0402", "problem", path=file)
        return None
    r = _Reader(file, text, sink)
    if not _finite(r, data):
        return None
    tmap = _valid(r, data)
    if tmap is None:
        return None
    props = _properties(r, tmap)
    if props is None:
        return None
    square = props.square
    if tmap["orientation"] != "orthogonal" or tmap["tilewidth"] != square or tmap["tileheight"] != square or tmap["infinite"]:
        r.report("TLD0102", ("orientation",), file=file, problem=f"it is not a finite orthogonal map with {square}-pixel squares")
        return None
    model = _model(r, args, props)
    if model is None:
        return None
    found = map_source(model, props.quest, props.encounter or None)
    amap = _amap(model, props)
    if found is None or amap is None:
        r.report("TLD0109", ("properties",), quest=props.quest, number=props.encounter, pack=model.pack.id)
        return None
    decl, body, _ = found
    block = body.map
    if block is None:  # map_source gives only an encounter with a map block
        return None
    gids = _tilesets(r, tmap, model, square)
    if gids is None:
        return None
    layers = _layers(r, tmap)
    origin = props.origin
    tiles = _tiles(r, layers.get("tiles", []), gids, origin, square, model.tiles or {})
    if r.failed or tiles is None:
        return None
    quest_file = Path(decl.span.file)
    source = _quest_text(r, quest_file)
    if source is None:
        return None
    edits = _Edits(source)
    layout = {t.name: t for t in tiles}
    _splice_map(edits, block, amap, layout)
    objects = _Objects(r, layers, origin, square)
    _splice_tokens(edits, body, block, layout, objects)
    _splice_spawns(edits, body, block, layout, objects)
    _splice_start(edits, body, layout, objects)
    _splice_doors(edits, block, layers.get("doors", []), r)
    if r.failed:
        return None
    result = edits.apply()
    check = Sink()
    from compiler.plugins.api import parse_module

    parse_module(result, str(quest_file), check)
    if check.errors:
        r.report("TLD0112", (), file=str(quest_file), problem=check.items[0].message)
        return None
    if getattr(args, "in_place", False):
        return {str(quest_file): result}
    return result


MAX_NUMBER = 2**53  # Tiled writes doubles: every number it writes is within ±2^53 or fractional below it


def _finite(r: _Reader, data: object) -> bool:
    """Every number of the map is one Tiled can have written: Python's json reads `NaN`,
    `Infinity` and `1e400` as floats no coordinate, size or rotation can be, and `10**400`
    as an integer no float division takes (they made `int()` or `/` fail deep in the
    reading: an internal error). The first one, in the file's order, is TLD0102 at the
    value. A loop over a stack: the map is at most reader.MAX_DEPTH deep anyway, but
    nothing here needs that to hold."""
    todo: list[tuple[JsonPath, object]] = [((), data)]
    while todo:
        path, value = todo.pop()
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not (-MAX_NUMBER <= value <= MAX_NUMBER):
            where = "/".join(map(str, path)) or "the map"
            at = r.pos.get(path)
            written = re.match(r"-?(?:NaN|Infinity|[0-9.eE+-]+)", r.text[at:]) if at is not None else None
            shown = written.group() if written else repr(value)
            shown = shown if len(shown) <= 24 else f"{shown[:12]}… ({len(shown)} characters)"
            what = "is not a finite number" if isinstance(value, float) and not math.isfinite(value) else "is beyond ±2^53, where Tiled's numbers are"
            r.report("TLD0102", path, file=r.file, problem=f"at {where}: `{shown}` {what}")
            return False
        if isinstance(value, dict):
            todo.extend(reversed([(path + (k,), v) for k, v in value.items()]))
        elif isinstance(value, list):
            todo.extend(reversed([(path + (i,), v) for i, v in enumerate(value)]))
    return True


def _valid(r: _Reader, data: object) -> TiledMap | None:
    """The map, when it is a Tiled JSON map as tiled-map.schema.json describes one; else
    TLD0102 at the first place it is not, in the file's order.

    The lists the schema checks item by item are bounded first (`_too_long`). The objects
    of the object layers are then checked apart (a map of 20,000 objects spent 7 to 11 s
    in the schema's general machinery, half a millisecond an object): the schema checks
    the map with its object lists emptied, `_plain_object` each object, and the first
    object of a list it does not pass is given to the schema's `object` definition, which
    finds the errors the whole schema would find there (those of later objects of the
    same list come after them in the file, and only the first error is shown)."""
    long = _too_long(data)
    if long is not None:
        r.report("TLD0102", long[0], file=r.file, problem=f"at {'/'.join(map(str, long[0]))}: {long[1]}")
        return None
    whole, one_object = _validators()
    stripped, lists = _without_objects(data)
    found: list[tuple[JsonPath, str]] = [(tuple(e.absolute_path), e.message) for e in whole.iter_errors(stripped)]
    for prefix, objects in lists:
        bad = next((j for j, o in enumerate(objects) if not _plain_object(o)), None)
        if bad is not None:
            found.extend(((*prefix, bad, *e.absolute_path), e.message) for e in one_object.iter_errors(objects[bad]))
    if not found:
        return cast(TiledMap, data)  # the shape the schema has just checked
    path, message = min(found, key=lambda f: r.offset(f[0]))  # one mistake, one diagnostic: the first in the file
    where = "/".join(str(p) for p in path) or "the map"
    r.report("TLD0102", path, file=r.file, problem=f"not a Tiled JSON map as documented: at {where}: {message[:200]}")
    return None


def _too_long(data: object) -> tuple[JsonPath, str] | None:
    """The first list the schema would check item by item that is longer than questc reads,
    before any is checked: (where its first item too many is, why). A loop over the layers."""
    if not isinstance(data, dict):
        return None

    def over(holder: dict[str, Any], key: str, most: int, path: JsonPath) -> tuple[JsonPath, str] | None:
        items = holder.get(key)
        if isinstance(items, list) and len(items) > most:
            return (*path, key, most), f"it has {len(items)} {key} there; questc reads at most {most}"
        return None

    found = over(data, "properties", MAX_PROPERTIES, ()) or over(data, "tilesets", MAX_TILESETS, ())
    layers = 0
    objects = 0
    todo: list[tuple[dict[str, Any], JsonPath]] = [(data, ())]
    while todo and found is None:
        holder, path = todo.pop()
        found = over(holder, "layers", MAX_LAYERS - layers, path)
        items = holder.get("layers")
        if found is not None or not isinstance(items, list):
            continue
        layers += len(items)
        for i, layer in enumerate(items):
            if not isinstance(layer, dict):
                continue
            at = (*path, "layers", i)
            found = found or over(layer, "properties", MAX_PROPERTIES, at) or over(layer, "objects", MAX_OBJECTS - objects, at)
            if found is not None:
                if found[0][-2] == "objects":
                    found = (found[0], f"the map has more than {MAX_OBJECTS} objects; questc reads a map of at most {MAX_OBJECTS}")
                elif found[0][-2] == "layers":
                    found = (found[0], f"the map has more than {MAX_LAYERS} layers; questc reads a map of at most {MAX_LAYERS}")
                break
            listed = layer.get("objects")
            if isinstance(listed, list):
                objects += len(listed)
                found = next((f for j, o in enumerate(listed) if isinstance(o, dict)
                              for f in [over(o, "properties", MAX_PROPERTIES, (*at, "objects", j))] if f is not None), None)
                if found is not None:
                    break
            todo.append((layer, at))
    return found


@functools.cache
def _validators() -> tuple[Any, Any]:
    """tiled-map.schema.json's validator, and one of its `object` definition alone."""
    import jsonschema
    from importlib import resources

    from compiler.plugins.api import packaged_text

    schema = json.loads(packaged_text(resources.files("questc_tiled") / "tiled-map.schema.json"))
    one = {"$schema": schema["$schema"], "$defs": schema["$defs"], "$ref": "#/$defs/object"}
    return jsonschema.Draft202012Validator(schema), jsonschema.Draft202012Validator(one)


def _without_objects(data: object) -> tuple[object, list[tuple[list[str | int], list[object]]]]:
    """The map with every object layer's `objects` list emptied (group layers too, a loop
    over a stack), and those lists with where each was."""
    lists: list[tuple[list[str | int], list[object]]] = []
    if not isinstance(data, dict) or not isinstance(data.get("layers"), list):
        return data, lists
    top = dict(data)
    todo: list[tuple[dict[str, object], list[str | int]]] = [(top, [])]
    while todo:
        holder, path = todo.pop()
        layers = holder.get("layers")
        if not isinstance(layers, list):
            continue
        copied: list[object] = []
        for i, layer in enumerate(layers):
            if isinstance(layer, dict):
                layer = dict(layer)
                objects = layer.get("objects")
                if isinstance(objects, list):
                    lists.append(([*path, "layers", i, "objects"], objects))
                    layer["objects"] = []
                todo.append((layer, [*path, "layers", i]))
            copied.append(layer)
        holder["layers"] = copied
    return top, lists


_OBJECT_NUMBERS = ("x", "y", "width", "height", "rotation")
_OBJECT_KEYS = frozenset({"id", "gid", "name", "type", "class", "x", "y", "width", "height", "rotation", "visible", "ellipse",
                          "point", "polygon", "polyline", "text", "template", "properties"})
_PROPERTY_VALUES: dict[str, Any] = {"int": int, "float": (int, float), "bool": bool, "string": str,
                                    "color": object, "file": object, "object": object, "class": object}


def _plain_object(o: object) -> bool:
    """True only of an object the schema's `object` definition accepts (what Tiled writes,
    checked in plain Python); anything else, even a valid oddity, goes to the schema.
    tests/test_slow_inputs.py holds this to the schema on mutated objects."""
    if not isinstance(o, dict) or not _OBJECT_KEYS.issuperset(o):
        return False
    if not all(k in o for k in ("id", "x", "y", "width", "height", "rotation", "visible", "name", "type")):
        return False
    if type(o["id"]) is not int or o["id"] < 1 or ("gid" in o and (type(o["gid"]) is not int or o["gid"] < 1)):
        return False
    if not all(type(o[k]) in (int, float) for k in _OBJECT_NUMBERS) or o["width"] < 0 or o["height"] < 0:
        return False
    if not all(type(o[k]) is str for k in ("name", "type", "class", "template") if k in o):
        return False
    if not all(type(o[k]) is bool for k in ("visible", "ellipse", "point") if k in o):
        return False
    if not all(type(o[k]) is list for k in ("polygon", "polyline") if k in o) or ("text" in o and type(o["text"]) is not dict):
        return False
    return "properties" not in o or (type(o["properties"]) is list and all(map(_plain_property, o["properties"])))


def _plain_property(p: object) -> bool:
    if type(p) is not dict or not {"name", "value"} <= p.keys() or not {"name", "type", "propertytype", "value"}.issuperset(p):
        return False
    if type(p["name"]) is not str or ("propertytype" in p and type(p["propertytype"]) is not str):
        return False
    if "type" not in p:
        return True
    kind = _PROPERTY_VALUES.get(p["type"]) if type(p["type"]) is str else None
    if kind is None:
        return False
    value = p["value"]
    return kind is object or (type(value) is not bool or kind is bool) and isinstance(value, kind) and (kind is not bool or type(value) is bool)


def _properties(r: _Reader, data: TiledMap) -> MapProperties | None:
    """The questc properties of the map (NEEDED), each of its kind; else TLD0102 at the
    properties (a missing one) or at the first of the wrong kind."""
    given = data.get("properties", [])
    props = {p["name"]: p["value"] for p in given}
    missing = [n for n in NEEDED if n not in props]
    if missing:
        r.report("TLD0102", ("properties",) if "properties" in data else (), file=r.file,
                 problem=f"it has no {', '.join(missing)} propert{'y' if len(missing) == 1 else 'ies'} (export it with `questc export tiled`)")
        return None
    strings = {n: v for n, v in props.items() if isinstance(v, str)}
    numbers = {n: v for n, v in props.items() if isinstance(v, int) and not isinstance(v, bool)}
    for name, kind in NEEDED.items():
        if name not in (strings if kind is str else numbers):
            at = max(i for i, p in enumerate(given) if p["name"] == name)  # the one the map keeps: the last
            shown = json.dumps(props[name])
            shown = shown if len(shown) <= 24 else f"{shown[:12]}… ({len(shown)} characters)"
            r.report("TLD0102", ("properties", at, "value"), file=r.file,
                     problem=f"its `{name}` property is `{shown}`, not {'text' if kind is str else 'a whole number'}")
            return None
    return MapProperties(strings["questc.pack"], strings["questc.quest"], numbers["questc.encounter"],
                         (numbers["questc.origin_x"], numbers["questc.origin_y"]), numbers["questc.square"],
                         strings.get("questc.pack_dir"))


def _model(r: _Reader, args: argparse.Namespace, props: MapProperties) -> Model | None:
    from compiler.plugins.api import Options, compile_paths

    given = args.pack
    if given is None:
        folder = (Path(r.file).parent / props.pack_dir) if props.pack_dir is not None else None
        given = str(folder) if folder is not None and _holds_manifest(folder) else props.pack
    result = compile_paths([given], Options(images=False, sight=False))
    model = result.model
    if model is None or model.pack.id != props.pack:
        found = model.pack.id if model is not None else None
        r.report("TLD0110", ("properties",), pack=props.pack,
                 problem=f"`{given}` is pack `{found}`" if found else f"`{given}` is not a pack that loads")
        return None
    return model


def _holds_manifest(folder: Path) -> bool:
    """Whether `folder` (from the map's `questc.pack_dir`) holds a pack.yaml; a name the
    system refuses (too long: ENAMETOOLONG, which Path.is_file lets through) holds none."""
    try:
        return (folder / "pack.yaml").is_file()
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return False


def _amap(model: Model, props: MapProperties) -> AssembledMap | None:
    maps = model.maps
    if maps is None:
        return None
    if props.encounter:
        return (maps.quests.get(props.quest) or {}).get(props.encounter)
    return maps.encounters.get(props.quest)


def _tilesets(r: _Reader, data: TiledMap, model: Model, square: int) -> dict[int, tuple[str, int, int]] | None:
    """gid -> (tile code, image width, image height) over the map's tilesets."""
    gids: dict[int, tuple[str, int, int]] = {}
    tiles = model.tiles or {}
    for i, ts in enumerate(data["tilesets"]):
        path = ("tilesets", i)
        entries = _tileset_entries(r, ts, path)
        if entries is None:
            continue
        for tile_id, code, w, h in entries:
            where = ts.get("source", "the embedded tileset")
            if code is None:
                r.report("TLD0106", path, tileset=where, pack=model.pack.id, problem=f"its tile {tile_id} has no `code` property")
                continue
            tile = tiles.get(code)
            if tile is None:
                from compiler.plugins.api import did_you_mean

                guess = did_you_mean(code, list(tiles))
                r.report("TLD0106", path, tileset=where, pack=model.pack.id,
                         problem=f"the pack has no tile `{code}`" + (f"; did you mean `{guess}`?" if guess else ""))
                continue
            if (w, h) != (tile.width * square, tile.height * square):
                r.report("TLD0106", path, tileset=where, pack=model.pack.id,
                         problem=f"tile `{code}` is {w}x{h} pixels there, {tile.width * square}x{tile.height * square} in the pack")
                continue
            gids[ts["firstgid"] + tile_id] = (code, w, h)
    return None if r.failed else gids


def _tileset_entries(r: _Reader, ts: TiledTilesetRef, path: JsonPath) -> list[tuple[int, str | None, int, int]] | None:
    """(tile id, code, image width, image height) of each tile of one tileset."""
    if "source" not in ts:
        out: list[tuple[int, str | None, int, int]] = []
        for t in ts.get("tiles", []):
            code = next((p.get("value") for p in t.get("properties", []) if p.get("name") == "code"), None)
            out.append((t.get("id", 0), None if code is None else str(code), t.get("imagewidth", 0), t.get("imageheight", 0)))
        return out
    import xml.etree.ElementTree as ET

    from compiler.plugins.api import Refused, read_text

    where = Path(r.file).parent / ts["source"]
    # the guarded reader: `source: /dev/zero` or a FIFO is refused at once, by kind
    text = read_text(where, max_bytes=MAX_MAP_BYTES)
    if isinstance(text, Refused):
        r.report("TLD0106", path, tileset=ts["source"], pack="?", problem=f"it cannot be read ({text.problem})")
        return None
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        r.report("TLD0106", path, tileset=ts["source"], pack="?", problem=f"it cannot be read ({exc})")
        return None
    out = []
    for el in root.iter("tile"):  # tile id, code, image width and height of an external tileset
        code = next((p.get("value") for p in el.iter("property") if p.get("name") == "code"), None)
        image = el.find("image")
        w, h = (int(image.get("width", 0)), int(image.get("height", 0))) if image is not None else (0, 0)
        out.append((int(el.get("id", 0)), code, w, h))
    return out


def _layers(r: _Reader, data: TiledMap) -> dict[str, list[Located]]:
    """layer name -> [(object, path)] for questc's object layers; others are warned about."""
    out: dict[str, list[Located]] = {}
    for i, layer in enumerate(data["layers"]):
        name = layer["name"]
        if layer["type"] != "objectgroup" or name not in LAYERS:
            r.report("TLD0111", ("layers", i), what=f"layer `{name}`", why=f"questc reads only the object layers {', '.join(LAYERS)}")
            continue
        out.setdefault(name, []).extend((o, ("layers", i, "objects", j)) for j, o in enumerate(layer.get("objects", [])))  # the schema requires them
    return out


def _whole(value: float) -> int | None:
    n = round(value)
    return n if abs(value - n) < 1e-6 else None


def _tiles(r: _Reader, objs: list[Located], gids: Mapping[int, tuple[str, int, int]], origin: tuple[int, int], square: int,
           catalog: Mapping[str, Tile]) -> list[NewTile] | None:
    out: list[NewTile] = []
    names: dict[str, int] = {}
    for o, path in objs:
        oid = o["id"]
        gid = o.get("gid")
        if gid is None:
            r.report("TLD0103", path, id=oid, name=o["name"] or "(no name)")
            continue
        if gid & FLIPS:
            r.report("TLD0108", path, id=oid, problem="it is flipped (mirrored); a printed tile turns but never flips")
            continue
        if gid not in gids:
            r.report("TLD0106", path, tileset="the map's tilesets", pack="?", problem=f"object {oid} shows gid {gid}, which no tileset has")
            continue
        code, w, h = gids[gid]
        rotation = o["rotation"] % 360
        turn = _whole(rotation / 90)
        if turn is None:
            r.report("TLD0104", path + ("rotation",), id=oid, rotation=f"{o['rotation']:g}")
            continue
        rotation = (turn * 90) % 360
        if (o["width"], o["height"]) != (w, h):
            r.report("TLD0108", path, id=oid, problem=f"it is resized to {o['width']:g}x{o['height']:g} pixels; tile `{code}` is {w}x{h}")
            continue
        said = next((p["value"] for p in o.get("properties", []) if p["name"] == "code"), code)
        if said != code:
            r.report("TLD0108", path, id=oid, problem=f"its `code` property says `{said}` but it shows tile `{code}`")
            continue
        px, py = top_left_of(o["x"], o["y"], (w, h), rotation)
        col, row = _whole(px / square), _whole(py / square)
        if col is None or row is None:
            r.report("TLD0107", path, id=oid, x=f"{px:g}", y=f"{py:g}", square=square)
            continue
        name = o["name"].strip() or code
        if name in names:
            r.report("TLD0108", path, id=oid, problem=f"object {names[name]} is already the tile named `{name}`; name the second copy in Tiled")
            continue
        if not re.fullmatch(r"[0-9]*[A-Za-z_][A-Za-z0-9_]*", name):
            r.report("TLD0108", path, id=oid, problem=f"`{name}` is not a tile name (letters, digits and `_`, with a letter or `_`)")
            continue
        names[name] = oid
        hidden = bool(next((p["value"] for p in o.get("properties", []) if p["name"] == "hidden"), False))
        out.append(NewTile(oid, name, code, (col + origin[0], row + origin[1]), rotation, hidden, catalog[code]))
    owner: dict[Cell, NewTile] = {}
    reported: set[tuple[int, int]] = set()
    for t in out:
        for cell in sorted(t.cells()):
            other = owner.get(cell)
            if other is not None and (other.obj, t.obj) not in reported:
                reported.add((other.obj, t.obj))
                shared = sorted(set(other.cells()) & set(t.cells()))
                path = next(p for o, p in objs if o["id"] == t.obj)
                r.report("TLD0105", path, id=t.obj, name=t.name, other=other.obj, other_name=other.name, count=len(shared), x=shared[0][0], y=shared[0][1])
            owner.setdefault(cell, t)
    return out


class _Objects:
    """The tokens, spawns and starts layers' objects with the square each stands on."""

    def __init__(self, r: _Reader, layers: Mapping[str, list[Located]], origin: tuple[int, int], square: int):
        self.r = r
        self.by_layer: dict[str, list[tuple[TiledObject, JsonPath, Cell, int | None]]] = {}
        for name in ("tokens", "spawns", "starts"):
            items: list[tuple[TiledObject, JsonPath, Cell, int | None]] = []
            for o, path in layers.get(name, []):
                cx = o["x"] + (o["width"] or 0) / 2 if name != "spawns" else o["x"] + min(o["width"], square) / 2
                cy = o["y"] + (o["height"] or 0) / 2 if name != "spawns" else o["y"] + min(o["height"], square) / 2
                cell = (math.floor(cx / square) + origin[0], math.floor(cy / square) + origin[1])
                stmt = next((p["value"] for p in o.get("properties", []) if p["name"] == "stmt"), None)
                items.append((o, path, cell, stmt if isinstance(stmt, int) else None))
            self.by_layer[name] = sorted(items, key=lambda it: it[0]["id"])

    def matched(self, layer: str, count: int) -> tuple[dict[int, Placed], list[Placed]]:
        """(statement index -> (object, path, cell)), [new objects]: an object whose `stmt`
        names a statement no earlier object took is that statement; the rest are new."""
        taken: dict[int, Placed] = {}
        new: list[Placed] = []
        for o, path, cell, stmt in self.by_layer[layer]:
            if stmt is not None and 0 <= stmt < count and stmt not in taken:
                taken[stmt] = (o, path, cell)
            else:
                new.append((o, path, cell))
        return taken, new


def _prop(o: TiledObject, name: str, default: object = None) -> object:
    return next((p["value"] for p in o.get("properties", []) if p["name"] == name), default)


def _quest_text(r: _Reader, quest_file: Path) -> str | None:
    from compiler.plugins.api import Refused, read_text

    text = read_text(quest_file, max_bytes=MAX_MAP_BYTES)  # the guarded reader, line ends made LF
    if isinstance(text, Refused):
        r.report("TLD0112", (), file=str(quest_file), problem=f"it cannot be read ({text.problem})")
        return None
    return text


# ---------------------------------------------------------------- text edits


class _Edits:
    def __init__(self, text: str):
        self.text = text
        self.starts = [0]
        for i, ch in enumerate(text):
            if ch == "\n":
                self.starts.append(i + 1)
        self.edits: list[tuple[int, int, str]] = []
        self.inserts: dict[int, list[str]] = {}

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col - 1

    def replace(self, span: Span, new: str) -> None:
        self.edits.append((self.offset(span.line, span.column), self.offset(span.end_line, span.end_column), new))

    def delete_statement(self, span: Span) -> None:
        """The statement's lines when it stands alone on them (its comment goes too), else just its text."""
        a, b = self.offset(span.line, span.column), self.offset(span.end_line, span.end_column)
        line_start = self.starts[span.line - 1]
        eol = self.text.find("\n", b)
        eol = len(self.text) if eol < 0 else eol
        rest = self.text[b:eol].strip()
        if not self.text[line_start:a].strip() and (not rest or rest.startswith("#")):
            self.edits.append((line_start, min(eol + 1, len(self.text)), ""))
        else:
            self.edits.append((a, b, ""))

    def insert_after(self, span: Span, statement: str) -> None:
        """A new line after the line `span` ends on, indented as the line `span` starts on."""
        line = self.text[self.starts[span.line - 1]:]
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        eol = self.text.find("\n", self.offset(span.end_line, span.end_column))
        eol = len(self.text) if eol < 0 else eol
        self.inserts.setdefault(eol, []).append("\n" + indent + statement)

    def apply(self) -> str:
        out = self.text
        changes = [(a, b, new) for a, b, new in self.edits] + [(at, at, "".join(lines)) for at, lines in self.inserts.items()]
        for a, b, new in sorted(changes, key=lambda e: (e[0], e[1]), reverse=True):
            out = out[:a] + new + out[b:]
        return out


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tile_statement(t: NewTile) -> str:
    named = f" as {t.name}" if t.name != t.code else ""
    return f"tile {t.code}{named} at ({t.at[0]}, {t.at[1]}) rotate {t.rotation}" + (" hidden" if t.hidden else "")


def _splice_map(edits: _Edits, block: ast.MapBlock, amap: AssembledMap, layout: dict[str, NewTile]) -> None:
    statements = {s.name: s for s in block.tiles}
    kept: dict[str, bool] = {}

    def keeps(name: str) -> bool:
        """Whether tile `name` stays as the quest writes it: it is where it was, and so is
        every tile down its chain of attachments. A loop, not a recursion: a chain is as
        long as the map is (issue 38); a chain that comes back to itself keeps nothing."""
        chain: list[str] = []
        while name not in kept:
            stmt, new, old = statements.get(name), layout.get(name), amap.by_name.get(name)
            ok = (stmt is not None and new is not None and old is not None and name not in chain
                  and (old.code, old.at, old.rotation % 360, bool(old.hidden)) == (new.code, new.at, new.rotation, new.hidden))
            if not ok or stmt is None or stmt.attach is None or stmt.attach.to.tile is None:
                kept[name] = ok
                break
            chain.append(name)
            name = stmt.attach.to.tile
        for link in chain:
            kept[link] = kept[name]
        return kept[name]

    for stmt in block.tiles:
        if stmt.name not in layout:
            edits.delete_statement(stmt.span)
        elif not keeps(stmt.name):
            edits.replace(stmt.span, _tile_statement(layout[stmt.name]))
    anchor = block.tiles[-1].span if block.tiles else None
    for t in sorted(layout.values(), key=lambda t: t.obj):
        if t.name not in statements:
            if anchor is not None:
                edits.insert_after(anchor, _tile_statement(t))
            else:  # an empty map block: the tiles go inside its braces
                edits.replace(block.span, "map {\n    " + _tile_statement(t) + "\n  }")


def _resolve(ref: ast.SpaceRef, body: ast.EncounterBody, layout: dict[str, NewTile], depth: int = 0) -> Cell | None:
    """The world cell a space reference names on the edited map (None when it names none)."""
    if isinstance(ref, ast.WorldSpace):
        return (ref.x, ref.y)
    if isinstance(ref, ast.TileSpace):
        t = layout.get(ref.tile)
        return t.to_world((ref.col, ref.row)) if t is not None and (ref.col, ref.row) in t.tile.squares else None
    if isinstance(ref, ast.MarkRef) and depth < 8 and body.map is not None:
        mark = next((m for m in body.map.marks if m.name == ref.name), None)
        return _resolve(mark.at, body, layout, depth + 1) if mark is not None else None
    return None


def _space_text(cell: Cell, layout: dict[str, NewTile], prefer: str | None = None) -> str:
    """`T(c,r)` on the tile the square lies on (`prefer` first), else world `(x, y)`."""
    order = sorted(layout.values(), key=lambda t: (t.name != prefer, t.obj))
    for t in order:
        local = t.cells().get(cell)
        if local is not None:
            return f"{t.name}({local[0]},{local[1]})"
    return f"({cell[0]}, {cell[1]})"


def _tile_of(ref: ast.SpaceRef) -> str | None:
    """The tile a space reference is written on (`T(c,r)`), else None."""
    return ref.tile if isinstance(ref, ast.TileSpace) else None


def _moved(edits: _Edits, ref: ast.SpaceRef, cell: Cell, body: ast.EncounterBody, layout: dict[str, NewTile]) -> None:
    if _resolve(ref, body, layout) != cell:
        edits.replace(ref.span, _space_text(cell, layout, _tile_of(ref)))


def _last(spans: Iterable[Span | None], fallback: Span) -> Span:
    found = [s for s in spans if s is not None]
    return max(found, key=lambda s: (s.end_line, s.end_column)) if found else fallback


def _splice_tokens(edits: _Edits, body: ast.EncounterBody, block: ast.MapBlock, layout: dict[str, NewTile], objects: _Objects) -> None:
    taken, new = objects.matched("tokens", len(body.tokens))
    for i, tok in enumerate(body.tokens):
        if i not in taken:
            edits.delete_statement(tok.span)
            continue
        o, path, cell = taken[i]
        same = (o["type"], _prop(o, "colour"), _prop(o, "label"), o["name"] or None) == (
            tok.kind, tok.colour, tok.label.value if tok.label is not None else None, tok.name)
        if same:
            _moved(edits, tok.at, cell, body, layout)
        elif _token_ok(objects.r, o, path):
            edits.replace(tok.span, _token_statement(o, cell, layout, _tile_of(tok.at)))
    anchor = _last([t.span for t in body.tokens] or [block.span], block.span)
    for o, path, cell in new:
        if _token_ok(objects.r, o, path):
            edits.insert_after(anchor, _token_statement(o, cell, layout))


def _token_ok(r: _Reader, o: TiledObject, path: JsonPath) -> bool:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", o["type"] or ""):
        r.report("TLD0108", path, id=o["id"], problem="a token needs its kind (search, objective, …) as the object's class")
        return False
    return True


def _token_statement(o: TiledObject, cell: Cell, layout: dict[str, NewTile], prefer: str | None = None) -> str:
    parts = ["token", o["type"]]
    if _prop(o, "colour"):
        parts.append(str(_prop(o, "colour")))
    if _prop(o, "label"):
        parts.append(_quote(str(_prop(o, "label"))))
    if o["name"]:
        parts += ["as", o["name"]]
    return " ".join(parts + ["at", _space_text(cell, layout, prefer)])


def _guard_text(g: ast.HeroGuard) -> str:
    if g.low == g.high:
        return f"heroes {g.low}"
    return f"heroes {g.low}+" if g.high == 4 else f"heroes {g.low}..{g.high}"


def _splice_spawns(edits: _Edits, body: ast.EncounterBody, block: ast.MapBlock, layout: dict[str, NewTile], objects: _Objects) -> None:
    taken, new = objects.matched("spawns", len(body.spawns))
    for i, spawn in enumerate(body.spawns):
        if i not in taken:
            edits.delete_statement(spawn.span)
            continue
        o, path, cell = taken[i]
        if spawn.at is None:  # figure by figure: kept as written (docs/tiled.md)
            continue
        if o["type"] == spawn.group and (o["name"] or None) == spawn.name:
            _moved(edits, spawn.at, cell, body, layout)
        elif _spawn_ok(objects.r, o, path):
            edits.replace(spawn.span, _spawn_statement(o, cell, layout, spawn))
    anchor = _last([s.span for s in body.spawns] or [t.span for t in body.tokens] or [block.span], block.span)
    for o, path, cell in new:
        if _spawn_ok(objects.r, o, path):
            edits.insert_after(anchor, _spawn_statement(o, cell, layout))


def _spawn_ok(r: _Reader, o: TiledObject, path: JsonPath) -> bool:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", o["type"] or ""):
        r.report("TLD0108", path, id=o["id"], problem="a spawn needs its monster group as the object's class")
        return False
    return True


def _spawn_statement(o: TiledObject, cell: Cell, layout: dict[str, NewTile], old: ast.SpawnDecl | None = None) -> str:
    parts = ["spawn", o["type"]] + (["as", o["name"]] if o["name"] else []) + ["at", _space_text(cell, layout)]
    if old is not None:
        if old.size:
            parts.append(f"size {old.size[0]}x{old.size[1]}")
        if old.heroes:
            parts.append(_guard_text(old.heroes))
        if old.unique:
            parts.append("unique")
        if old.extra_health:
            parts.append(f"health +{old.extra_health}")
    return " ".join(parts)


def _splice_start(edits: _Edits, body: ast.EncounterBody, layout: dict[str, NewTile], objects: _Objects) -> None:
    start = body.start
    if start is None or start.tile is not None:
        return  # `start heroes on TILE` follows its tile (docs/tiled.md)
    taken, new = objects.matched("starts", len(start.spaces))
    cells = [taken[i][2] for i in sorted(taken)] + [c for _, _, c in new]
    if len(cells) == len(start.spaces) and all(i in taken for i in range(len(start.spaces))):
        for i, ref in enumerate(start.spaces):
            _moved(edits, ref, taken[i][2], body, layout)
        return
    if cells:
        edits.replace(start.span, "start heroes at " + ", ".join(_space_text(c, layout) for c in cells))
    else:
        edits.delete_statement(start.span)


def _splice_doors(edits: _Edits, block: ast.MapBlock, objs: list[Located], r: _Reader) -> None:
    doors = {d.name: d for d in block.doors}
    seen: set[str] = set()
    for o, path in objs:
        name, on = o["name"], _prop(o, "on")
        if not name or not isinstance(on, str) or not re.fullmatch(r"[0-9]*[A-Za-z_]\w*\.(north|east|south|west)(\.\d+)?", on):
            r.report("TLD0108", path, id=o["id"], problem="a door needs a name and an `on` property such as `16A.north`")
            continue
        seen.add(name)
        text = f"door {name} on {on}" + (f" {_prop(o, 'colour')}" if _prop(o, "colour") else "") + (" open" if _prop(o, "open") else "")
        old = doors.get(name)
        if old is None:
            edits.insert_after(_last([d.span for d in block.doors] or [t.span for t in block.tiles], block.span), text)
            continue
        old_on = f"{old.on.tile}.{old.on.side}" + (f".{old.on.index}" if old.on.index else "")
        if (old_on, old.colour, bool(old.open)) != (on, _prop(o, "colour"), bool(_prop(o, "open"))):
            edits.replace(old.span, text)
    for name, old in doors.items():
        if name not in seen:
            edits.delete_statement(old.span)
