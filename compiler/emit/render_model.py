"""From the checked model to pictures: the images a build writes under `maps/`.

    render_outputs(model) -> {"maps/<name>.png": bytes}

registered in `compiler/emit/build.py` OUTPUTS. It writes
- `maps/tiles.png`        a contact sheet of the tiles the pack itself defines;
- `maps/world-<id>.png`   each campaign world the pack defines;
- `maps/<id>.png`         each quest/encounter map: the `maps` section when a pass
                          provides one (id -> value, see `map_picture`), else assembled
                          from the pack's quests by compiler/emit/render_quest.py.

Catalog pictures are drawn from pass sections when present (`terrain`, `tiles`, `world`)
and otherwise re-read from the validated catalog entries with a throwaway Sink (the
passes already reported any problem; images never add diagnostics).
"""

from __future__ import annotations

from typing import Any, Mapping

from compiler.diagnostics import Sink
from compiler.emit.render import (
    MapPicture,
    SpawnPoint,
    TileCard,
    TileOutline,
    TileSheet,
    Token,
    png_bytes,
    render_map,
    render_tile_sheet,
)
from compiler.emit.render_world import Location, Trail, WorldPicture, render_world
from compiler.geometry.board import PLAIN, Board, TerrainRule

SHEET_SCALE = 20
MAP_SCALE = 32


def terrain_rules(model) -> dict[str, TerrainRule]:
    typed = model.section("terrain")
    if isinstance(typed, Mapping) and all(isinstance(v, TerrainRule) for v in typed.values()):
        return dict(typed)
    from compiler.catalogs.terrain import read_terrain

    return read_terrain(model.catalogs.get("terrain") or {}, Sink())


def tile_catalog(model, rules: Mapping[str, TerrainRule]) -> dict[str, Any]:
    from compiler.geometry.tiles import Tile, read_tiles

    typed = model.section("tiles")
    if isinstance(typed, Mapping) and typed and all(isinstance(v, Tile) for v in typed.values()):
        return dict(typed)
    symbols = {r.symbol: tid for tid, r in sorted(rules.items())}
    return read_tiles(model.catalogs.get("tiles") or {}, symbols, Sink())


def tile_card(tile, symbols: Mapping[str, str]) -> TileCard:
    """A `compiler.geometry.tiles.Tile` as a sheet card (squares in its printed frame)."""
    cells = tuple(((c, symbols.get(sym, sym if sym != "." else "plain"))) for c, sym in sorted(tile.squares.items(), key=lambda kv: (kv[0][1], kv[0][0])))
    openings = frozenset(e for op in tile.all_openings() for e in tile.opening_edges(op))
    return TileCard(tile.id, cells, openings, tile.kind, frozenset(tile.walls))


def world_picture(world) -> WorldPicture:
    """A `compiler.world.World` as a picture (drawing positions from the catalog's `pos`)."""
    locations = tuple(
        Location(loc.id, loc.name, loc.kind, tuple(loc.pos) if loc.pos is not None else None)
        for _, loc in sorted(world.locations.items())
    )
    trails = tuple(Trail(t.a, t.b, t.type, t.danger, t.traffic) for t in world.trails)
    return WorldPicture(locations, trails, world.name)


def map_picture(value: Any) -> MapPicture | None:
    """Accepts a MapPicture, a bare Board, or any object with a `.board` and optionally:
    `tiles` (items with `code`, `cells`, `name`, `hidden`), `openings` (edges not joined),
    `tokens`, `spawns`, `hero_starts`, `entrances`, `exits` (edges), `title`.
    Items of tokens/spawns already in the render types are used as they are."""
    if isinstance(value, MapPicture):
        return value
    if isinstance(value, Board):
        return MapPicture(value)
    board = getattr(value, "board", None)
    if not isinstance(board, Board):
        return None
    tiles = tuple(
        t if isinstance(t, TileOutline) else TileOutline(str(getattr(t, "code", "?")), tuple(getattr(t, "cells", ())), str(getattr(t, "name", "") or ""), bool(getattr(t, "hidden", False)))
        for t in getattr(value, "tiles", ()) or ()
    )
    tokens = tuple(t for t in getattr(value, "tokens", ()) or () if isinstance(t, Token))
    spawns = tuple(s for s in getattr(value, "spawns", ()) or () if isinstance(s, SpawnPoint))
    return MapPicture(
        board=board,
        tiles=tiles,
        openings=frozenset(getattr(value, "openings", ()) or ()),
        tokens=tokens,
        spawns=spawns,
        hero_starts=tuple(getattr(value, "hero_starts", ()) or ()),
        entrances=frozenset(getattr(value, "entrances", ()) or ()),
        exits=frozenset(getattr(value, "exits", ()) or ()),
        title=str(getattr(value, "title", "") or ""),
    )


def _own(entries: Mapping[str, Any], pack_id: str) -> list[str]:
    return sorted(i for i, e in entries.items() if getattr(e, "pack", pack_id) == pack_id)


def render_outputs(model) -> dict[str, bytes]:
    """Every image of one pack, as relative path -> PNG bytes (deterministic)."""
    if not getattr(model.options, "images", True):
        return {}
    files: dict[str, bytes] = {}
    pack_id = model.pack.id
    rules = {"plain": PLAIN, **terrain_rules(model)}

    own_tiles = _own(model.catalogs.get("tiles") or {}, pack_id)
    if own_tiles:
        tiles = tile_catalog(model, rules)
        symbols = {r.symbol: tid for tid, r in sorted(rules.items())}
        cards = tuple(tile_card(tiles[t], symbols) for t in own_tiles if t in tiles)
        if cards:
            sheet = TileSheet(cards, rules, f"{model.pack.name}: tiles")
            files["maps/tiles.png"] = png_bytes(render_tile_sheet(sheet, scale=SHEET_SCALE))

    worlds = model.catalogs.get("world") or {}
    typed_worlds = model.section("worlds") or {}
    for wid in _own(worlds, pack_id):
        world = typed_worlds.get(wid)
        if world is None:
            from compiler.world import read_world

            world = read_world(worlds[wid], model.catalogs.get("dice"), Sink())
        if world.locations:
            files[f"maps/world-{wid}.png"] = png_bytes(render_world(world_picture(world)))

    for map_id, picture in sorted(map_pictures(model, rules).items()):
        files[f"maps/{map_id}.png"] = png_bytes(render_map(picture, scale=MAP_SCALE))
    return files


def map_pictures(model, rules: Mapping[str, TerrainRule] | None = None) -> dict[str, MapPicture]:
    """Every quest/encounter map of the pack: the `maps` section when a pass provides one,
    else assembled here from the pack's own quests (compiler/emit/render_quest.py)."""
    maps = model.section("maps")
    if isinstance(maps, Mapping) and ("quests" in maps or "encounters" in maps):
        from compiler.emit.render_quest import quest_maps

        rules = rules if rules is not None else {"plain": PLAIN, **terrain_rules(model)}
        return quest_maps(model, {}, rules, section=maps)
    if maps:
        out = {}
        for map_id in sorted(maps):
            picture = map_picture(maps[map_id])
            if picture is not None:
                out[str(map_id)] = picture
        return out
    if not model.modules:
        return {}
    from compiler.emit.render_quest import quest_maps

    rules = rules if rules is not None else {"plain": PLAIN, **terrain_rules(model)}
    return quest_maps(model, tile_catalog(model, rules), rules)
