"""A command an enabled plugin adds (compiler/plugins): run it under the plugin guard, so
an exception in it is diagnostic E0103 naming the plugin (exit 1), never a crash."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:  # configured by the plugin (cli.build_parser)
    return None


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics import Sink, Span
    from compiler.diagnostics.render import print_diagnostics
    from compiler.plugins import loader

    loaded, command = loader.commands()[args._plugin_command]
    sink = Sink()
    finished, code = loader.guard(loaded, f"command `{command.name}`", sink, Span("<command line>"), lambda a, _sink: command.run(a), args)
    if sink.items:
        print_diagnostics(sink, "human")
    if not finished:
        return 1
    return int(code or 0) if isinstance(code, int) else 0
