"""`questc export TARGET PACK -o DIR …`: a checked pack -> another tool's files, through the
exporters of the enabled plugins (compiler/plugins; docs/plugins.md), e.g. `tiled`.

The pack is compiled first (with the enabled plugins' passes); with errors nothing is
written (exit 1). The exporter returns relative path -> bytes, written under DIR.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from compiler.commands.common import add_pack_arguments
from compiler.commands.common import add_conventions
from compiler.commands.convert import converters


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="target", required=True, metavar="TARGET")
    for name, (loaded, exporter) in sorted(converters("export").items()):
        p = sub.add_parser(name, help=f"{exporter.help} (plugin {loaded.name})", description=exporter.help)
        add_conventions(p)
        add_pack_arguments(p, many=False)
        p.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder to write into (created)")
        if exporter.configure is not None:
            exporter.configure(p)


def run(args: argparse.Namespace) -> int:
    from compiler.commands.common import compile_args, finish
    from compiler.commands.convert import write_files
    from compiler.plugins.loader import guard

    loaded, exporter = converters("export")[args.target]
    result = compile_args(args)
    sink = result.sink
    if sink.errors or result.model is None:
        finish(sink, args)
        return 1
    span = result.model.pack.span
    finished, files = guard(loaded, f"exporter `{exporter.name}`", sink, span, exporter.run, result.model, args)
    if finished and files is not None and not sink.errors:
        write_files(Path(args.output), files, sink)
    code = finish(sink, args)
    return code if finished and files is not None else max(code, 1)
