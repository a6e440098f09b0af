"""questc check [PATH…]: parse, resolve, validate; print diagnostics; exit 0 / 1."""

from __future__ import annotations

import argparse

from compiler.commands.common import add_pack_arguments, compile_args, finish


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser)


def run(args: argparse.Namespace) -> int:
    result = compile_args(args, images=False)
    return finish(result.sink, args)
