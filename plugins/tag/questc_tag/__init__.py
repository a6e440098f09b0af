"""questc plugin `tag`: import TabletopGames (TAG) descent2e data (tiles, dice, monsters).

    questc --plugin tag import tag-tiles tiles.json [--valkyrie d2e-base-tiles.ini] -o content/d2e-base/tiles.yaml
    questc --plugin tag import tag-dice dice.json -o content/core-2e/dice.yaml
    questc --plugin tag import tag-monsters monsters.json -o content/d2e-base/monsters.yaml

The conversions are pure functions of the JSON, so the committed catalogs can be
regenerated and compared byte for byte. Problems with the input are the shared converter
code M0402 (compiler.plugins.SHARED_CODES); the plugin has no codes of its own.
"""

from __future__ import annotations

import argparse
from typing import Any, Callable, cast

from compiler.plugins.api import Importer, Plugin, Sink, Span

MAX_INPUT_BYTES = 16 * 1024 * 1024  # a TAG data file named on the command line


def _tiles(args: argparse.Namespace, sink: Sink) -> str | None:
    from questc_tag.tag_tiles import import_file

    return import_file(args.file, sink, valkyrie=args.valkyrie)


def _configure_tiles(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--valkyrie", metavar="TILES_INI", default=None,
                        help="the Valkyrie app's d2e-base-tiles.ini: side names and outdoor/indoor settings "
                             "(read with the valkyrie plugin's .ini reader, which must be installed)")


def _json_importer(source: str) -> Callable[[argparse.Namespace, Sink], str | None]:
    def run(args: argparse.Namespace, sink: Sink) -> str | None:
        return convert_json(source, args.file, sink)

    return run


def convert_json(source: str, file: str, sink: Sink) -> str | None:
    """dice.json or monsters.json -> catalog text, or None after reporting M0402."""
    from compiler.plugins.api import Refused, load_json, read_reported, refuse
    from questc_tag import tag_dice, tag_monsters

    convert = {"tag-dice": tag_dice.convert, "tag-monsters": tag_monsters.convert}[source]
    # the guarded reader: a regular file, bounded, UTF-8; nested at most reader.MAX_DEPTH
    # deep, checked before json recurses; accepted text is what the renderer shows
    text = read_reported(file, sink, "M0402", name=str(file), max_bytes=MAX_INPUT_BYTES, path=str(file))
    if text is None:
        return None
    data = load_json(text)
    if isinstance(data, Refused):
        refuse(str(file), data, sink, "M0402", "problem", path=str(file))
        return None
    try:
        # any JSON: the converters read the shape they expect as they go, and another
        # raises one of the errors below (M0402)
        return convert(cast("list[dict[str, Any]]", data))
    except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
        sink.report("M0402", Span.whole_file(str(file)), path=str(file), problem=f"not TAG {source[4:]} data ({type(exc).__name__}: {exc})")
        return None


plugin = Plugin(
    api="1.0",  # the plugin API version it needs (compiler/plugins/api.py)
    description="TabletopGames (TAG) descent2e data: tiles, dice, monsters",
    importers=(
        Importer("tag-tiles", ("json",), "TabletopGames (TAG) descent2e tiles.json -> a tiles catalog", _tiles, _configure_tiles),
        Importer("tag-dice", ("json",), "TabletopGames (TAG) descent2e dice.json -> a dice catalog", _json_importer("tag-dice")),
        Importer("tag-monsters", ("json",), "TabletopGames (TAG) descent2e monsters.json -> a monster catalog", _json_importer("tag-monsters")),
    ),
)
