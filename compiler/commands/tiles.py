"""questc tiles: see compiler/commands/library.py."""

from __future__ import annotations

import argparse

from compiler.commands.library import configure_for, run_for

configure = configure_for("tiles")


def run(args: argparse.Namespace) -> int:
    return run_for("tiles", args)
