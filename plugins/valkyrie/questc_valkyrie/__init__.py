"""questc plugin `valkyrie`: quests of the Valkyrie game-master app (docs/valkyrie.md).

    questc --plugin valkyrie import valkyrie QUEST_DIR|QUEST.valkyrie [-o PACK_DIR] [--quest ID] [--packs base,lor]
    questc --plugin valkyrie check QUEST_DIR|QUEST.valkyrie [--packs base,lor]
    questc --plugin valkyrie export valkyrie PACK [--quest ID] -o DIR

The import writes a questc pack; `check` imports the quest in memory, runs every questc
check on it and reports each finding at the line of the Valkyrie file it comes from.
Modules: ini.py (the .ini and localisation reader), source.py (folder or package),
tiles.py and offsets.py (tile placements), importer.py (the quest), packs.py (`--packs`), run.py (both uses),
exporter.py (a questc quest as a Valkyrie scenario).
Codes: VK (codes.yaml).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.plugins.api import Exporter, Importer, Plugin, Sink, Span

if TYPE_CHECKING:
    from compiler.plugins.api import Diagnostic, Model, Options


def _configure(parser: argparse.ArgumentParser) -> None:
    from questc_valkyrie.packs import add_packs_argument

    parser.add_argument("--quest", default=None, help="the quest id to write (default: from the folder name, e.g. first_blood)")
    add_packs_argument(parser)


def _configure_check(parser: argparse.ArgumentParser) -> None:
    from questc_valkyrie.packs import add_packs_argument

    add_packs_argument(parser)


def _run(args: argparse.Namespace, sink: Sink) -> dict[str, str] | None:
    """The pack's files (path -> text) under -o PACK_DIR (default: a folder named after the
    quest id); None, writing nothing, when the quest has errors."""
    from questc_valkyrie.run import import_quest

    done = import_quest(args.file, sink, args.quest, args.packs)
    if done is None or sink.errors:
        if sink.errors:
            sink.report("VK0307", Span.whole_file(str(args.file)), count=sink.errors)
        return None
    _, gen = done
    from questc_valkyrie.translations import translation_files

    root = Path(args.output) if args.output else Path(gen.quest_id)
    # the quest's other languages as translations/<code>.po (docs/valkyrie.md, "Other languages")
    return {str(root / rel): text for rel, text in sorted({**gen.files, **translation_files(gen, sink)}.items())}


def _claims(path: str) -> bool:
    from questc_valkyrie.run import is_valkyrie

    return is_valkyrie(path)


def _check(path: str, options: Options, sink: Sink) -> list[Diagnostic]:
    from questc_valkyrie.run import check_quest

    return check_quest(path, options, sink)


def _export(model: Model, args: argparse.Namespace, sink: Sink) -> dict[str, bytes] | None:
    from questc_valkyrie.exporter import export

    return export(model, args, sink)


def _configure_export(parser: argparse.ArgumentParser) -> None:
    from questc_valkyrie.exporter import configure

    configure(parser)


plugin = Plugin(
    prefix="VK",
    api="1.2",  # the plugin API version it needs (compiler/plugins/api.py)
    codes=Path(__file__).with_name("codes.yaml"),
    description="Valkyrie quests: import as a questc pack, check in place, export a quest",
    importers=(
        Importer("valkyrie", ("ini", "valkyrie"), "a Valkyrie quest (folder or .valkyrie package) -> a questc pack",
                 _run, _configure, claims=_claims, check=_check, configure_check=_configure_check),
    ),
    exporters=(
        Exporter("valkyrie", ("ini", "txt", "valkyrie"), "a questc quest -> a Valkyrie scenario folder and .valkyrie package",
                 _export, _configure_export),
    ),
)
