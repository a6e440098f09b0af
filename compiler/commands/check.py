"""questc check [PATH…]: parse, resolve, validate; print diagnostics; exit 0 / 1."""

from __future__ import annotations

import argparse

from compiler.commands.common import add_pack_arguments, compile_args, finish


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser)
    parser.add_argument(
        "--sourced-only", action="store_true",
        help="report every illustrative fact (not from a published source) that reaches a bundle, as an error (K0301)",
    )


def run(args: argparse.Namespace) -> int:
    result = compile_args(args, images=False, sourced_only=args.sourced_only)
    return finish(result.sink, args)
