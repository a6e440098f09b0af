"""questc view PACK|BUNDLE.json [-o DIR]: write the web player with a bundle, as a folder of static files.

PACK is compiled first (nothing is written when it has errors: diagnostics, exit 1); a
BUNDLE.json is copied as it is — the page checks it and shows one clear message when it
is not a bundle this player reads. The folder holds index.html, style.css, the
player's JavaScript modules, bundle.json, bundle.schema.json and version.json
(compiler/emit/site.py, docs/player.md). Nothing in it is fetched from the internet.
Browsers run JavaScript modules only over HTTP, so open it through `questc serve`, or
any static server (`python -m http.server -d DIR`). The folder is replaced atomically.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.commands.common import add_pack_arguments, compile_args, finish, settle

if TYPE_CHECKING:
    from compiler.diagnostics.model import Sink

MAX_BUNDLE_BYTES = 256 * 1024 * 1024
USAGE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser, many=False)
    for action in parser._actions:
        if action.dest == "paths":
            action.metavar = "PACK|BUNDLE.json"
            action.help = "a pack (compiled first) or a bundle.json written by questc build"
    parser.add_argument("-o", "--output", default=None, metavar="DIR", help="the site's folder (default: build/player-NAME)")


def is_bundle_path(target: str) -> bool:
    return target.endswith(".json") and not os.path.isdir(target)


def read_bundle_file(path: str, sink: Sink) -> bytes | None:
    """The bytes of a bundle file, or None after X0108 (missing, not a regular file, too
    large): read by the guarded reader (compiler/reader.py)."""
    from compiler import reader

    data = reader.read_bytes(path, max_bytes=MAX_BUNDLE_BYTES)
    if isinstance(data, reader.Refused):
        reader.refuse(path, data, sink, "X0108", "reason", path=path)
        return None
    return data


def bundle_of_pack(args: argparse.Namespace) -> tuple[bytes | None, str, Sink]:
    """Compile args.paths; (the bundle's bytes or None, pack id, sink)."""
    from compiler.diagnostics.render import exit_code
    from compiler.emit.bundle import bundle_of, validate_bundle
    from compiler.emit.shared import dumps

    result = compile_args(args, images=False)
    sink, model = result.sink, result.model
    if model is None or exit_code(sink, args.strict) != 0:
        return None, "", sink
    bundle = bundle_of(model)
    if not validate_bundle(bundle, sink, f"{model.pack.id}/bundle.json"):
        return None, model.pack.id, sink
    return dumps(bundle), model.pack.id, sink


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics import Sink
    from compiler.emit.build import write_packs
    from compiler.emit.site import site_files

    settle(args)
    target = args.paths[0]
    if is_bundle_path(target):
        sink = Sink()
        data = read_bundle_file(target, sink)
        if data is None:
            return finish(sink, args)
        name = Path(target).resolve().parent.name or "bundle"
    else:
        data, name, sink = bundle_of_pack(args)
        if data is None:
            return finish(sink, args)
    out = Path(os.path.abspath(args.output or os.path.join("build", f"player-{name}")))
    write_packs(out.parent, {out.name: site_files(data)}, sink)
    code = finish(sink, args)
    if code == 0 and not args.quiet:  # -q: errors only
        from compiler.diagnostics.render import visible  # a folder's name may hold control characters

        shown = visible(str(out))
        sys.stderr.write(f"[questc view] wrote the player to {shown}; open it over HTTP "
                         f"(`questc serve`, or `python -m http.server -d {shown}`): browsers do not run modules from file://\n")
    return code
