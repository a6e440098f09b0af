"""From the checked model to pictures: the images a build writes under `maps/`.

    render_outputs(model) -> {"maps/<name>.png": bytes}

registered in `compiler/emit/build.py` OUTPUTS. It writes
- `maps/tiles.png`        a contact sheet of the tiles the pack itself defines;
- `maps/world-<id>.png`   each campaign world the pack defines;
- `maps/<id>.png`         each quest/encounter map the maps pass assembled
                          (compiler/emit/images/quest.py), in the source language;
- `maps/<lang>/<id>.png`  the same maps again for each language of the pack's
                          translations, titles and token labels in that language.

Everything is drawn from the passes' typed results; images never add diagnostics and
never rerun a pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Hashable, Mapping

from compiler.emit.images.map import render_map
from compiler.emit.images.pictures import Location, TileCard, TileSheet, Trail, WorldPicture
from compiler.emit.images.primitives import png_bytes
from compiler.emit.images.style import missing_glyphs
from compiler.emit.images.quest import assembled_maps, encounter_picture, hero_counts, quest_maps
from compiler.emit.images.sheet import render_tile_sheet
from compiler.emit.images.world import render_world
from compiler.memo import Same, remembered_pure
from compiler.model import Model
from compiler.catalogs.terrain import PLAIN

if TYPE_CHECKING:
    from compiler.catalogs.document import Entry
    from compiler.geometry.tiles import Tile
    from compiler.model.world import World

SHEET_SCALE = 20
MAP_SCALE = 40  # as map.DEFAULT_SCALE


def tile_card(tile: Tile, symbols: Mapping[str, str], *, numbered: bool = False) -> TileCard:
    """A `compiler.geometry.tiles.Tile` as a sheet card (squares in its printed frame).
    `numbered`: each opening's number (as `questc tiles` and the hovers number them) on
    the square just outside its first square."""
    from compiler.emit.library import opening_rows

    cells = tuple(((c, symbols.get(sym, sym if sym != "." else "plain"))) for c, sym in sorted(tile.squares.items(), key=lambda kv: (kv[0][1], kv[0][0])))
    openings = frozenset(e for op in tile.all_openings() for e in tile.opening_edges(op))
    numbers: list[tuple[tuple[int, int], str]] = []
    if numbered:
        step = {"north": (0, -1), "south": (0, 1), "west": (-1, 0), "east": (1, 0)}
        for op, row in zip(tile.all_openings(), opening_rows(tile)):
            (c, r), (dx, dy) = tile.opening_cells(op)[0], step[op.side]
            numbers.append(((c + dx, r + dy), row["number"]))
    return TileCard(tile.id, cells, openings, tile.kind, frozenset(tile.walls), tuple(numbers))


def world_picture(world: World) -> WorldPicture:
    """A `compiler.passes.world.World` as a picture (drawing positions from the catalog's `pos`)."""
    locations = tuple(
        Location(loc.id, loc.name, loc.kind, loc.pos)  # a tuple already
        for _, loc in sorted(world.locations.items())
    )
    trails = tuple(Trail(t.a, t.b, t.type, t.danger, t.traffic) for t in world.trails)
    return WorldPicture(locations, trails, world.name)


def _own(entries: Mapping[str, Entry], pack_id: str) -> list[str]:
    return sorted(i for i, e in entries.items() if getattr(e, "pack", pack_id) == pack_id)


def render_outputs(model: Model) -> dict[str, bytes]:
    """Every image of one pack, as relative path -> PNG bytes (deterministic)."""
    if not model.options.images:
        return {}
    files: dict[str, bytes] = {}
    pack_id = model.pack.id
    rules = {"plain": PLAIN, **(model.terrain or {})}

    tiles = model.tiles or {}
    own_tiles = [t for t in _own(model.catalogs.get("tiles") or {}, pack_id) if t in tiles]
    if own_tiles:
        symbols = {r.symbol: tid for tid, r in sorted(rules.items())}
        cards = tuple(tile_card(tiles[t], symbols) for t in own_tiles)
        sheet = TileSheet(cards, rules, f"{model.pack.name}: tiles")
        files["maps/tiles.png"] = png_bytes(render_tile_sheet(sheet, scale=SHEET_SCALE))

    worlds = model.worlds or {}
    for wid in _own(model.catalogs.get("world") or {}, pack_id):
        if wid in worlds and worlds[wid].locations:
            files[f"maps/world-{wid}.png"] = png_bytes(render_world(world_picture(worlds[wid])))

    key: Hashable
    for map_id, title, body, amap, resolved, owner in assembled_maps(model):
        # a picture is a pure function of its map, its encounter, its title and the quest's
        # hero counts: drawn again only when one of them changed (compiler/memo.py)
        counts = hero_counts(model, owner)
        key = ("map_png", Same(amap), body, title, Same(resolved), counts)
        files[f"maps/{map_id}.png"] = remembered_pure(
            key, lambda: png_bytes(render_map(encounter_picture(body, amap, title, resolved, counts=counts), scale=MAP_SCALE))
        )
    for lang in sorted(model.languages or {}):
        for map_id, picture in sorted(quest_maps(model, lang).items()):
            key = ("map_png", Same(picture.board), picture.title, picture.tokens, picture.spawns, lang)
            files[f"maps/{lang}/{map_id}.png"] = remembered_pure(key, lambda: png_bytes(render_map(picture, scale=MAP_SCALE)))
    files.update(campaign_images(model))
    return files


def campaign_images(model: Model) -> dict[str, bytes]:
    """`maps/level-<id>.png`: each 1st-edition dungeon level, one per image, with its
    red-shaded areas, portal, leader and hero start; `maps/location-<id>.png`: each
    location card's map with the camp's spaces (compiler/emit/images/quest.py)."""
    from compiler.emit.images.quest import level_picture, location_picture

    camp = model.campaign
    if camp is None:
        return {}
    files: dict[str, bytes] = {}
    for lid, lv in camp.levels.items():
        if lv.map is not None:
            key = ("level_png", Same(lv))
            files[f"maps/level-{lid}.png"] = remembered_pure(key, lambda: png_bytes(render_map(level_picture(lv), scale=MAP_SCALE)))
    for cid, lc in camp.locations.items():
        if lc.map is not None:
            key = ("location_png", Same(lc))
            files[f"maps/location-{cid}.png"] = remembered_pure(key, lambda: png_bytes(render_map(location_picture(lc), scale=MAP_SCALE)))
    return files


def undrawable(model: Model) -> list[tuple[str, str, list[str]]]:
    """(language, text, characters no bundled font draws) for each translated text the
    per-language map images draw (titles, token labels): each is drawn as `?`."""
    out: list[tuple[str, str, list[str]]] = []
    for lang in sorted(model.languages or {}):
        seen: dict[str, None] = {}
        for _, picture in sorted(quest_maps(model, lang).items()):
            seen.update(dict.fromkeys([picture.title, *(t.label[:1] for t in picture.tokens if t.label)]))
        for text in seen:
            missing = missing_glyphs(text)
            if missing:
                out.append((lang, text, missing))
    return out
