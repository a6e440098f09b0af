"""The public plugin API: everything a plugin may use of questc, in one module (docs/plugins.md).

A plugin imports questc only from here:

    from compiler.plugins.api import API_VERSION, Plugin, Importer, Sink, Span, ast, compile_paths

Every other module of `compiler` is internal: it may change in any release. The names
below are kept under the rule of `API_VERSION` (MAJOR.MINOR.PATCH):

- PATCH: a fix in what a name does; no name, parameter or field changes.
- MINOR: something added (a name, an optional parameter, a field with a default, a node
  field of `ast`); a plugin written for 1.k runs on every 1.m with m >= k.
- MAJOR: something removed, renamed or changed in meaning or type; a plugin written for
  1.x may not run on 2.0.

A plugin says which version it needs with `Plugin(api="1.0", …)` (MAJOR.MINOR: the lowest
version whose names it uses); the loader refuses, with one located E0102, a plugin that
needs another major version or a later minor one than this questc gives.

Importing this module is cheap: the registration types and the diagnostics are imported
with it; everything else (the syntax tree, the model, the compiler, the renderer…) is
imported the first time a plugin asks for it (`from compiler.plugins.api import render_map`
inside a function imports Pillow then, not when the plugin is enabled). questc itself
never imports this module unless a plugin does, so `questc --version` and a check
without plugins never load it (tests/test_plugins.py).
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from compiler.diagnostics import Diagnostic, Related, Severity, Sink, Span
from compiler.plugins import GROUP, SHARED_CODES, Command, Exporter, Importer, Plugin, PluginPass

API_VERSION = "1.2.0"

# name -> (module, attribute; None for the module itself): imported on first use (PEP 562).
# tests/test_plugins.py checks that this table, the TYPE_CHECKING imports below and
# __all__ name the same things.
_LAZY: dict[str, tuple[str, str | None]] = {
    # options and the compiler's entry point
    "Options": ("compiler.options", "Options"),
    "compile_paths": ("compiler.pipeline", "compile_paths"),
    "PlayerText": ("compiler.model.texts", "PlayerText"),
    "player_texts": ("compiler.model.texts", "player_texts"),
    "CompileResult": ("compiler.pipeline", "Result"),
    # the checked model and the syntax tree it keeps (`ast.Quest`, `ast.EncounterBody`, …)
    "Model": ("compiler.model", "Model"),
    "Maps": ("compiler.model", "Maps"),
    "ast": ("compiler.syntax.ast", None),
    "parse_module": ("compiler.syntax.parse", "parse_module"),
    # the tiles library and assembled maps
    "Cell": ("compiler.geometry.lattice", "Cell"),
    "Tile": ("compiler.geometry.tiles", "Tile"),
    "Opening": ("compiler.geometry.tiles", "Opening"),
    "TerrainRule": ("compiler.catalogs.terrain", "TerrainRule"),
    "AssembledMap": ("compiler.geometry.assemble", "AssembledMap"),
    "PlacedTile": ("compiler.geometry.assemble", "PlacedTile"),
    # map queries: the map `--quest ID [--encounter N]` names (X0101, X0102)
    "MapChoice": ("compiler.commands.mapquery", "MapChoice"),
    "choose_map": ("compiler.commands.mapquery", "choose_map"),
    # image rendering
    "MapPicture": ("compiler.emit.images.pictures", "MapPicture"),
    "render_map": ("compiler.emit.images.map", "render_map"),
    "map_layout": ("compiler.emit.images.map", "map_layout"),
    # diagnostics helpers
    "did_you_mean": ("compiler.diagnostics.hints", "did_you_mean"),
    "accept_source": ("compiler.diagnostics.render", "accept_source"),
    # the guarded reader (every file a plugin reads: regular files only, bounded, UTF-8)
    "Refused": ("compiler.reader", "Refused"),
    "read_bytes": ("compiler.reader", "read_bytes"),
    "read_text": ("compiler.reader", "read_text"),
    "read_reported": ("compiler.reader", "read_reported"),
    "text_of": ("compiler.reader", "text_of"),
    "refuse": ("compiler.reader", "refuse"),
    "load_json": ("compiler.reader", "load_json"),
    "LINE_BREAK": ("compiler.reader", "LINE_BREAK"),
    # YAML (plain data, nesting bounded) and the files questc ships
    "load_plain": ("compiler.catalogs.yamlload", "load_plain"),
    "TooDeep": ("compiler.catalogs.yamlload", "TooDeep"),
    "packaged_text": ("compiler.resources", "packaged_text"),
    "content_dir": ("compiler.resources", "content_dir"),
    # writing files
    "write_atomic": ("compiler.emit.files", "write_atomic"),
    "linked_folder": ("compiler.emit.files", "linked_folder"),
}

if TYPE_CHECKING:
    from PIL.Image import Image

    from compiler.catalogs.terrain import TerrainRule as TerrainRule
    from compiler.catalogs.yamlload import TooDeep as TooDeep
    from compiler.catalogs.yamlload import load_plain as load_plain
    from compiler.commands.mapquery import MapChoice as MapChoice
    from compiler.commands.mapquery import choose_map as choose_map
    from compiler.diagnostics.hints import did_you_mean as did_you_mean
    from compiler.diagnostics.render import accept_source as accept_source
    from compiler.emit.files import linked_folder as linked_folder
    from compiler.emit.files import write_atomic as write_atomic
    from compiler.emit.images.map import map_layout as map_layout
    from compiler.emit.images.map import render_map as render_map
    from compiler.emit.images.pictures import MapPicture as MapPicture
    from compiler.geometry.assemble import AssembledMap as AssembledMap
    from compiler.geometry.assemble import PlacedTile as PlacedTile
    from compiler.geometry.lattice import Cell as Cell
    from compiler.geometry.tiles import Opening as Opening
    from compiler.geometry.tiles import Tile as Tile
    from compiler.model import Maps as Maps
    from compiler.model import Model as Model
    from compiler.model.texts import PlayerText as PlayerText
    from compiler.model.texts import player_texts as player_texts
    from compiler.options import Options as Options
    from compiler.pipeline import Result as CompileResult
    from compiler.pipeline import compile_paths as compile_paths
    from compiler.reader import LINE_BREAK as LINE_BREAK
    from compiler.reader import Refused as Refused
    from compiler.reader import load_json as load_json
    from compiler.reader import read_bytes as read_bytes
    from compiler.reader import read_reported as read_reported
    from compiler.reader import read_text as read_text
    from compiler.reader import refuse as refuse
    from compiler.reader import text_of as text_of
    from compiler.resources import content_dir as content_dir
    from compiler.resources import packaged_text as packaged_text
    from compiler.syntax import ast as ast
    from compiler.syntax.parse import parse_module as parse_module
else:  # hidden from the type checker, so that a name not above is an error there, not `Any`

    def __getattr__(name: str) -> object:
        where = _LAZY.get(name)
        if where is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r} (the plugin API is its __all__: docs/plugins.md)")
        module, attribute = where
        value = importlib.import_module(module) if attribute is None else getattr(importlib.import_module(module), attribute)
        globals()[name] = value  # imported once
        return value

    def __dir__() -> list[str]:
        return sorted(__all__)


# ---------------------------------------------------------------- the version


_VERSION = re.compile(r"([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?")


def version_problem(needed: str, given: str = API_VERSION) -> str | None:
    """Why a plugin that needs API version `needed` cannot run on `given` (None: it can).
    The same major version and at least the minor (and patch) version asked for."""
    want, have = _VERSION.fullmatch(needed.strip()), _VERSION.fullmatch(given)
    if want is None or have is None:
        return f"its plugin API version `{needed}` is not MAJOR.MINOR (e.g. \"1.0\")"
    w = tuple(int(p or 0) for p in want.groups())
    h = tuple(int(p or 0) for p in have.groups())
    if w[0] != h[0] or w > h:
        return f"it needs the plugin API {needed.strip()}, and this questc gives {given}"
    return None


# ---------------------------------------------------------------- library functions


def read_tile_catalog(tiles: Mapping[str, Any], file: str, sink: Sink, *, pack: str,
                      terrain_symbols: Iterable[str] | Mapping[str, str]) -> dict[str, Tile]:
    """The `tiles:` mapping of a tiles catalog (tile id -> its YAML mapping, as `load_plain`
    gives it) read into Tiles, as the tiles pass reads a pack's: a bad grid or opening is
    reported (at `file`) and the tile left out. `terrain_symbols`: the grid symbols the
    terrain catalogs define (`.` is plain floor); `pack`: the id the tiles belong to."""
    from compiler.catalogs.document import Document, Entry
    from compiler.passes.tiles import read_tiles

    doc = Document(file, {"tiles": dict(tiles)})
    entries = {k: Entry("tiles", k, v, doc, ("tiles", k), pack) for k, v in tiles.items()}
    return read_tiles(entries, terrain_symbols, sink)


def tile_picture(tile: Tile, terrain: Mapping[str, TerrainRule] | None = None) -> MapPicture:
    """One tile face alone as a picture (its squares with their terrain, its walls and
    openings; no legend, no coordinates), for `render_map` and `map_layout`. `terrain`: the
    pack's terrain rules by id (`model.terrain`); plain floor is always known."""
    from compiler.catalogs.terrain import PLAIN
    from compiler.emit.images.outputs import tile_card
    from compiler.emit.images.pictures import MapPicture
    from compiler.emit.images.sheet import tile_board

    rules = {"plain": PLAIN, **(terrain or {})}
    symbols = {r.symbol: tid for tid, r in sorted(rules.items())}
    card = tile_card(tile, symbols)
    return MapPicture(board=tile_board(card, rules), openings=card.openings, legend=False, coordinates=False)


def translation_file(model: Model, lang: str, translations: Mapping[str, str]) -> str:
    """The PO file of language `lang` that `questc strings update PACK --lang LANG` writes
    for a compiled pack that has none yet (every text of the pack, untranslated), with the
    `msgstr` of each string id in `translations` filled in, as `questc strings import` fills
    it (docs/translations.md). An id the pack has no text under is not added."""
    from compiler.catalogs.translations import pofile
    from compiler.commands.strings import merge, texts_in_order

    text, _ = merge(None, texts_in_order(model), model, lang)
    po = pofile(text, wrapwidth=78)
    for e in po:
        if e.msgctxt in translations:
            e.msgstr = translations[e.msgctxt]
    out = str(po)
    return out if out.endswith("\n") else out + "\n"


def tile_image(tile: Tile, terrain: Mapping[str, TerrainRule] | None = None, *, scale: int) -> Image:
    """One tile face as questc draws it, `scale` pixels a square, cropped to the tile's
    bounding box (RGB; squares outside the tile show the background)."""
    from compiler.emit.images.map import map_layout, render_map

    picture = tile_picture(tile, terrain)
    image = render_map(picture, scale=scale)
    left, top = map_layout(picture, scale).point((0, 0))
    return image.crop((left, top, left + tile.width * scale, top + tile.height * scale))


__all__ = [
    "API_VERSION", "version_problem",
    # registering a plugin (compiler/plugins/__init__.py)
    "GROUP", "SHARED_CODES", "Command", "Exporter", "Importer", "Plugin", "PluginPass",
    # diagnostics
    "Diagnostic", "Related", "Severity", "Sink", "Span",
    # library functions of this module
    "read_tile_catalog", "tile_picture", "tile_image", "translation_file",
    # imported on first use (_LAZY)
    "Options", "compile_paths", "PlayerText", "player_texts", "CompileResult", "Model", "Maps", "ast", "parse_module", "Cell",
    "Tile", "Opening", "TerrainRule", "AssembledMap", "PlacedTile", "MapChoice", "choose_map",
    "MapPicture", "render_map", "map_layout", "did_you_mean", "accept_source", "Refused",
    "read_bytes", "read_text", "read_reported", "text_of", "refuse", "load_json", "LINE_BREAK",
    "load_plain", "TooDeep", "packaged_text", "content_dir", "write_atomic", "linked_folder",
]
