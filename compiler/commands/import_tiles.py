"""`questc import tag-tiles FILE -o tiles.yaml` and `questc import valkyrie QUEST_DIR... -o FILE`.

Converters from other projects' data into questc content; the output is deterministic,
so regenerating a committed file and comparing it is a test.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from compiler.diagnostics import Sink


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="source", required=True, metavar="SOURCE")
    tag = sub.add_parser("tag-tiles", help="TabletopGames (TAG) descent2e tiles.json -> a tiles catalog")
    tag.add_argument("file", metavar="FILE", help="path to tiles.json")
    tag.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
    val = sub.add_parser("valkyrie", help="Valkyrie quest tiles.ini -> quest map blocks")
    val.add_argument("file", metavar="TILES_INI", help="path to a quest's tiles.ini")
    val.add_argument("--quest", required=True, help="the quest id to write, e.g. first_blood")
    val.add_argument("--name", required=True, help="the quest's display name")
    val.add_argument("--tiles", default=None, help="tiles.yaml giving the shapes (default: the d2e-base pack)")
    val.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")


def run(args: argparse.Namespace) -> int:
    sink = Sink()
    if args.source == "tag-tiles":
        from compiler.importers.tag_tiles import import_file

        text = import_file(args.file, sink)
    else:
        from compiler.importers.valkyrie import import_quest

        text = import_quest(args.file, args.quest, args.name, sink, tiles_path=args.tiles)
    _print(sink)
    if text is None:
        return 1
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 1 if sink.errors else 0


def _print(sink: Sink) -> None:
    if not sink.items:
        return
    try:
        from compiler.diagnostics.render import print_diagnostics

        print_diagnostics(sink, "human")
    except ImportError:  # the renderer is another engineer's module; fall back to plain lines
        for d in sink.sorted():
            print(f"{d.span.file}:{d.span.line}:{d.span.column}: {d.severity.value}[{d.code}]: {d.message}", file=sys.stderr)
