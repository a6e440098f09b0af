"""questc plugin `tiled`: quest maps to and from the Tiled map editor (docs/tiled.md).

    questc --plugin tiled export tiled PACK --quest ID [--encounter N] -o DIR
    questc --plugin tiled import tiled DIR/ID.tmj [--in-place]
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.plugins.api import Exporter, Importer, Plugin, Sink

if TYPE_CHECKING:
    from compiler.plugins.api import Model


def _export(model: Model, args: argparse.Namespace, sink: Sink) -> dict[str, bytes] | None:
    from questc_tiled.export import export

    return export(model, args, sink)


def _import(args: argparse.Namespace, sink: Sink) -> str | dict[str, str] | None:
    from questc_tiled.read import import_tiled

    return import_tiled(args, sink)


def _configure_export(parser: argparse.ArgumentParser) -> None:
    from questc_tiled.export import configure

    configure(parser)


def _configure_import(parser: argparse.ArgumentParser) -> None:
    from questc_tiled.read import configure

    configure(parser)


plugin = Plugin(
    prefix="TLD",
    api="1.0",  # the plugin API version it needs (compiler/plugins/api.py)
    codes=Path(__file__).with_name("codes.yaml"),
    description="quest maps to and from the Tiled map editor",
    exporters=(Exporter("tiled", ("tmj", "tsx", "png"), "a quest map as a Tiled map with the pack's tileset", _export, _configure_export),),
    importers=(Importer("tiled", ("tmj",), "a Tiled map questc exported, edited -> the quest file with its map brought in line", _import, _configure_import),),
)
