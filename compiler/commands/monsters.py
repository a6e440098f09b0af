"""questc monsters: see compiler/commands/library.py."""

from __future__ import annotations

import argparse

from compiler.commands.library import configure_for, run_for

configure = configure_for("monsters")


def run(args: argparse.Namespace) -> int:
    return run_for("monsters", args)
