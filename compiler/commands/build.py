"""questc build [PATH…] -o DIR: check, then write DIR/<pack>/bundle.json, images and manifest.json.

Nothing is written for a pack with errors (or warnings under --strict); a pack's
previous output is replaced atomically only when its new output is complete.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from compiler.commands.common import add_pack_arguments, compile_args, finish


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser)
    parser.add_argument("-o", "--output", default="build", metavar="DIR", help="output folder (default: build)")
    parser.add_argument("--no-images", action="store_true", help="skip rendering map images")


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics.render import exit_code
    from compiler.emit.build import outputs_of, write_atomically

    result = compile_args(args, images=not args.no_images)
    sink = result.sink
    if exit_code(sink, args.strict) == 0:
        prepared = []
        for model in result.models:
            files = outputs_of(model, sink)
            if files is None:
                break
            prepared.append((model.pack.id, files))
        else:  # every pack prepared in memory: only now touch the output folder
            for pack_id, files in prepared:
                write_atomically(Path(args.output), pack_id, files, sink)
    code = finish(sink, args)
    if any(d.code.startswith("I") and d.code != "I0003" for d in sink.items):  # I0003: unwritable output, exit 1
        return 3
    return code
