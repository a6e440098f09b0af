"""questc plugin `tiled`: quest maps to and from the Tiled map editor (docs/tiled.md).

    questc --plugin tiled export tiled PACK --quest ID [--encounter N] -o DIR
    questc --plugin tiled import tiled DIR/ID.tmj [--in-place]
"""

from __future__ import annotations

from pathlib import Path

from compiler.plugins import Exporter, Importer, Plugin


def _export(model, args, sink):
    from questc_tiled.export import export

    return export(model, args, sink)


def _import(args, sink):
    from questc_tiled.read import import_tiled

    return import_tiled(args, sink)


def _configure_export(parser):
    from questc_tiled.export import configure

    configure(parser)


def _configure_import(parser):
    from questc_tiled.read import configure

    configure(parser)


plugin = Plugin(
    prefix="TLD",
    codes=Path(__file__).with_name("codes.yaml"),
    description="quest maps to and from the Tiled map editor",
    exporters=(Exporter("tiled", ("tmj", "tsx", "png"), "a quest map as a Tiled map with the pack's tileset", _export, _configure_export),),
    importers=(Importer("tiled", ("tmj",), "a Tiled map questc exported, edited -> the quest file with its map brought in line", _import, _configure_import),),
)
