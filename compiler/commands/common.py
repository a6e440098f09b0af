"""Options shared by the commands that read packs: PATH…, --format, --strict, --pack-path."""

from __future__ import annotations

import argparse

from compiler.options import Options

FORMATS = ("human", "json", "sarif", "github")


def add_pack_arguments(parser: argparse.ArgumentParser, *, many: bool = True) -> None:
    if many:
        parser.add_argument("paths", nargs="*", default=["content"], metavar="PATH", help="packs or folders of packs (default: content)")
    else:
        parser.add_argument("paths", nargs=1, metavar="PACK", help="a pack folder")
    parser.add_argument("--format", choices=FORMATS, default="human", help="diagnostics format (default: human)")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors")
    parser.add_argument("--pack-path", action="append", default=[], metavar="DIR", help="another folder to find required packs in (repeatable; also QUESTC_PATH)")


def options_from(args: argparse.Namespace, **overrides) -> Options:
    return Options(strict=args.strict, pack_path=tuple(args.pack_path), **overrides)


def compile_args(args: argparse.Namespace, **overrides):
    from compiler.pipeline import compile_paths

    return compile_paths(list(args.paths), options_from(args, **overrides))


def finish(sink, args: argparse.Namespace) -> int:
    """Print the diagnostics in the chosen format and return the exit code."""
    from compiler.diagnostics.render import exit_code, print_diagnostics

    print_diagnostics(sink, args.format)
    return exit_code(sink, args.strict)
