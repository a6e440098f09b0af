"""questc plugin `valkyrie`: Valkyrie quest maps (a quest's tiles.ini) -> quest map blocks.

    questc --plugin valkyrie import valkyrie QUEST/tiles.ini --quest first_blood --name "First Blood"

The converter itself still lives in compiler/importers/valkyrie.py while it is being
rewritten on another branch (issue #12); this plugin is its only way in, through the same
API as every plugin, and the converter moves here once that work has landed.
"""

from __future__ import annotations

import argparse

from compiler.diagnostics import Sink
from compiler.plugins import Importer, Plugin


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quest", required=True, help="the quest id to write, e.g. first_blood")
    parser.add_argument("--name", required=True, help="the quest's display name")
    parser.add_argument("--tiles", default=None, help="tiles.yaml giving the shapes (default: the d2e-base pack)")


def _run(args: argparse.Namespace, sink: Sink) -> str | None:
    from compiler.importers.valkyrie import import_quest

    return import_quest(args.file, args.quest, args.name, sink, tiles_path=args.tiles)


plugin = Plugin(
    description="Valkyrie quest maps (tiles.ini) -> quest map blocks",
    importers=(Importer("valkyrie", ("ini",), "Valkyrie quest tiles.ini -> quest map blocks", _run, _configure),),
)
