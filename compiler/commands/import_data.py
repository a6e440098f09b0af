"""`questc import SOURCE FILE [-o OUT] …`: other tools' data -> questc content, through the
importers of the enabled plugins (compiler/plugins; docs/plugins.md). The first-party
ones live in the top-level plugins/ folder: `tag` (tag-tiles, tag-dice, tag-monsters),
`tiled` (tiled) and the Valkyrie converter.

An importer returns text (written to `-o OUT` or standard output) or a mapping path ->
text (files to write); its diagnostics are printed in human form.
"""

from __future__ import annotations

import argparse
import sys
from typing import Mapping

from compiler.commands.common import add_conventions
from compiler.commands.convert import converters
from compiler.diagnostics import Sink, Span


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="source", required=True, metavar="SOURCE")
    for name, (loaded, importer) in sorted(converters("import").items()):
        p = sub.add_parser(name, help=f"{importer.help} (plugin {loaded.name})", description=importer.help)
        add_conventions(p)
        p.add_argument("file", metavar="FILE", help=f"the file to read ({', '.join(importer.formats)})")
        p.add_argument("-o", "--output", metavar="OUT", help="write here instead of standard output")
        if importer.configure is not None:
            importer.configure(p)


def run(args: argparse.Namespace) -> int:
    from compiler.plugins.loader import guard

    loaded, importer = converters("import")[args.source]
    sink = Sink()
    finished, out = guard(loaded, f"importer `{importer.name}`", sink, Span.whole_file(str(args.file)), importer.run, args)
    if not finished or out is None:
        _print(sink)
        return 1
    if isinstance(out, str):
        if args.output:
            _write({args.output: out}, sink)
        else:
            sys.stdout.write(out)
    else:
        _write(out, sink)
    _print(sink)
    return 1 if sink.errors else 0


def _write(files: Mapping[str, bytes | str], sink: Sink) -> None:
    from compiler.commands.convert import write_files

    write_files(None, files, sink)  # `-o` onto a folder, into a read-only one: one I0003, was I0001


def _print(sink: Sink) -> None:
    if not sink.items:
        return
    from compiler.diagnostics.render import print_diagnostics

    print_diagnostics(sink, "human")
