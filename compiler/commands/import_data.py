"""`questc import tag-tiles|tag-dice|tag-monsters FILE -o OUT` and `questc import valkyrie QUEST -o PACK_DIR`.

Converters from other projects' data into questc content; the output is deterministic,
so regenerating a committed file and comparing it is a test.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from compiler.diagnostics import Sink, Span


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="source", required=True, metavar="SOURCE")
    tag = sub.add_parser("tag-tiles", help="TabletopGames (TAG) descent2e tiles.json -> a tiles catalog")
    tag.add_argument("file", metavar="FILE", help="path to tiles.json")
    tag.add_argument("--valkyrie", metavar="TILES_INI", default=None,
                     help="the Valkyrie app's d2e-base-tiles.ini: side names and outdoor/indoor settings")
    tag.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
    for name, what in (("tag-dice", "dice.json -> a dice catalog"), ("tag-monsters", "monsters.json -> a monster catalog")):
        p = sub.add_parser(name, help=f"TabletopGames (TAG) descent2e {what}")
        p.add_argument("file", metavar="FILE", help=f"path to {what.split()[0]}")
        p.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
    val = sub.add_parser("valkyrie", help="a Valkyrie quest (folder or .valkyrie package) -> a questc pack")
    val.add_argument("file", metavar="QUEST", help="the quest's folder (holding quest.ini) or its .valkyrie package")
    val.add_argument("-o", "--output", metavar="PACK_DIR", required=True, help="the pack folder to write (created if missing)")
    val.add_argument("--quest", default=None, help="the quest id to write (default: from the folder name, e.g. first_blood)")
    val.add_argument("--format", choices=("human", "json", "sarif", "github"), default="human", help="diagnostics format")


def run(args: argparse.Namespace) -> int:
    sink = Sink()
    if args.source == "valkyrie":
        return _valkyrie(args, sink)
    if args.source == "tag-tiles":
        from compiler.importers.tag_tiles import import_file

        text = import_file(args.file, sink, valkyrie=args.valkyrie)
    elif args.source in ("tag-dice", "tag-monsters"):
        text = _convert_json(args.source, args.file)
        if text is None:
            return 1
    _print(sink)
    if text is None:
        return 1
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:  # `-o` onto a folder, into a read-only one: was I0001
            unwritten = Sink()
            unwritten.report("I0003", Span.whole_file(args.output), path=args.output, problem=exc.strerror or str(exc))
            _print(unwritten)
            return 1
    else:
        sys.stdout.write(text)
    return 1 if sink.errors else 0


def _valkyrie(args: argparse.Namespace, sink: Sink) -> int:
    """Import a whole Valkyrie quest; write the pack only when the quest read without errors."""
    from compiler.diagnostics.render import print_diagnostics
    from compiler.importers.valkyrie.run import import_quest, write_pack

    done = import_quest(args.file, sink, args.quest)
    if done is None or sink.errors:
        if sink.errors:
            sink.report("V0307", Span.whole_file(str(args.file)), count=sink.errors)
        print_diagnostics(sink, args.format)
        return 1
    _, gen = done
    ok = write_pack(gen, args.output, sink)
    print_diagnostics(sink, args.format)
    return 0 if ok else 1


def _convert_json(source: str, file: str) -> str | None:
    import json

    from compiler.importers import tag_dice, tag_monsters

    convert = {"tag-dice": tag_dice.convert, "tag-monsters": tag_monsters.convert}[source]
    try:
        return convert(json.loads(Path(file).read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, IndexError) as exc:
        print(f"questc import {source}: cannot convert {file}: {exc}", file=sys.stderr)
        return None


def _print(sink: Sink) -> None:
    if not sink.items:
        return
    from compiler.diagnostics.render import print_diagnostics

    print_diagnostics(sink, "human")
