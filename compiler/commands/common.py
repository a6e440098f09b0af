"""Options shared by the commands that read packs: PATH…, --format, --strict, --pack-path,
--config, --isolated; and `settle`, which fills what no flag gave from the configuration
file (compiler/config.py), then from the defaults: flags > file > defaults."""

from __future__ import annotations

import argparse
from collections.abc import Hashable
from typing import TYPE_CHECKING, TypedDict, Unpack

from compiler.config import FORMATS, Config
from compiler.options import Options

if TYPE_CHECKING:
    from compiler.diagnostics.model import Sink, Span
    from compiler.pipeline import Result


class Overrides(TypedDict, total=False):
    """The Options fields a command sets itself (the flags and the configuration give the rest)."""

    images: bool
    max_file_bytes: int
    sight: bool
    quests: bool
    sourced_only: bool
    plugin_options: tuple[tuple[str, Hashable], ...]


def add_pack_arguments(parser: argparse.ArgumentParser, *, many: bool = True) -> None:
    if many:
        parser.add_argument("paths", nargs="*", default=["content"], metavar="PATH", help="packs or folders of packs (default: content)")
    else:
        parser.add_argument("paths", nargs=1, metavar="PACK", help="a pack folder")
    parser.add_argument("--format", choices=FORMATS, default=None, help="diagnostics format (default: human, or `format` in the configuration)")
    parser.add_argument("--strict", action=argparse.BooleanOptionalAction, default=None, help="treat warnings as errors (default: no, or `strict` in the configuration)")
    parser.add_argument("--pack-path", action="append", default=[], metavar="DIR", help="another folder to find required packs in (repeatable; also QUESTC_PATH and `pack-path` in the configuration)")
    parser.add_argument("--config", metavar="FILE", help="read this configuration file (questc.toml or pyproject.toml) instead of looking upward from here")
    parser.add_argument("--isolated", action="store_true", help="read no configuration file")
    parser.set_defaults(_configurable=True)


def add_output_arguments(parser: argparse.ArgumentParser) -> None:
    """-o DIR and --images/--no-images of the commands that write outputs (build, watch)."""
    parser.add_argument("-o", "--output", default=None, metavar="DIR", help="output folder (default: build, or `output` in the configuration)")
    parser.add_argument("--images", action=argparse.BooleanOptionalAction, default=None, help="render map images (default: yes, or `images.enabled` in the configuration)")
    parser.set_defaults(_writes_output=True)


def settle(args: argparse.Namespace) -> None:
    """Fill every setting no flag gave from the configuration, then the defaults. Problems
    with the configuration are kept in `args._config_sink` (the command line stops, exit 2)."""
    from compiler import config as cfg
    from compiler.diagnostics.model import Sink

    if getattr(args, "_settled", False):
        return
    sink = Sink()
    conf = cfg.load(args.config, args.isolated, sink)
    args._config_sink = sink if sink.items else None
    args._config = conf
    args.format = args.format or conf.format or "human"
    if hasattr(args, "strict"):  # `questc fmt` reads the file for `format` and `[fmt]` only
        args.strict = args.strict if args.strict is not None else bool(conf.strict)
        args.pack_path = [*args.pack_path, *conf.pack_path]
    if getattr(args, "_writes_output", False):
        args.output = args.output or conf.output or "build"
        args.images = args.images if args.images is not None else conf.images is not False
        args.no_images = not args.images
    args._settled = True


def _config_of(args: argparse.Namespace) -> Config:
    return getattr(args, "_config", None) or Config()


def options_from(args: argparse.Namespace, **overrides: Unpack[Overrides]) -> Options:
    return Options(strict=args.strict, pack_path=tuple(args.pack_path), plugins=enabled_plugins(), **overrides)


def enabled_plugins() -> tuple[str, ...]:
    """The plugins cli.main enabled for this run (their passes run after the built-in ones)."""
    import sys

    loader = sys.modules.get("compiler.plugins.loader")  # not imported: none is enabled
    return loader.enabled_names() if loader is not None else ()


def compile_args(args: argparse.Namespace, **overrides: Unpack[Overrides]) -> Result:
    """Compile the PATHs given; the configured codes are then dropped or raised to errors."""
    from compiler.pipeline import compile_paths

    settle(args)
    result = compile_paths(list(args.paths), options_from(args, **overrides))
    configure(args, result.sink, result.roots)
    return result


def configure(args: argparse.Namespace, sink: Sink, roots: dict[str, str]) -> None:
    """Drop or raise to errors the codes the configuration names."""
    from compiler.config import apply

    conf = _config_of(args)
    if conf.file is not None:
        sink.items[:] = apply(conf, sink.items, roots)


# Exit codes, the same for every command (docs/cli.md, "Exit codes"; README.md).
OK, PROBLEMS, USAGE, INTERNAL = 0, 1, 2, 3


def command_line_span(args: argparse.Namespace, value: str) -> Span:
    """Where `value`, an argument of this run, is on its command line (`questc check
    nope`), registered as the source `<command line>` so human output shows it: a
    diagnostic about an argument points there, not at a place in a file that is not."""
    from compiler.diagnostics import Span
    from compiler.diagnostics.render import accept_source

    argv = [str(a) for a in getattr(args, "_argv", None) or []]
    line = " ".join(["questc", *argv])
    accept_source("<command line>", line)
    at = len("questc ")
    for arg in argv:
        if arg == value:
            return Span("<command line>", 1, at + 1, 1, at + 1 + max(1, len(value)))
        at += len(arg) + 1
    return Span("<command line>", 1, 1, 1, len("questc") + 1)


def missing_paths(sink: Sink, args: argparse.Namespace) -> bool:
    """Move each P0111 (a PATH given that does not exist) to that argument on the command
    line; whether there was one (a usage error: exit 2, as for every command)."""
    from dataclasses import replace

    given = set(getattr(args, "paths", None) or [])
    found = False
    for i, d in enumerate(sink.items):
        if d.code == "P0111" and d.span.file in given:
            sink.items[i] = replace(d, span=command_line_span(args, d.span.file))
            found = True
    return found


def finish(sink: Sink, args: argparse.Namespace) -> int:
    """Print the diagnostics in the chosen format and return the exit code: USAGE when a
    path given does not exist, else PROBLEMS or OK."""
    from compiler.diagnostics.render import exit_code, print_diagnostics

    usage = missing_paths(sink, args)
    print_diagnostics(sink, args.format)
    return USAGE if usage else exit_code(sink, args.strict)


def add_conventions(parser: argparse.ArgumentParser) -> None:
    """-q, -v and --no-cache after SOURCE or TARGET too (`questc export valkyrie PACK -o DIR
    -q`, `questc strings update PACK -q`), as every command takes them: argparse gives a
    subcommand's options only before its own subcommand. Absent, they leave what the
    command itself read (SUPPRESS)."""
    loud = parser.add_mutually_exclusive_group()
    loud.add_argument("-q", "--quiet", action="store_true", default=argparse.SUPPRESS,
                      help="print errors only (human output; machine formats are unchanged)")
    loud.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS,
                      help="also print how long each stage took, on stderr")
    parser.add_argument("--no-cache", action="store_true", default=argparse.SUPPRESS,
                        help="read and keep nothing in the cache folder: compute everything")
