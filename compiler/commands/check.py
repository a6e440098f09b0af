"""questc check [PATH…]: parse, resolve, validate; print diagnostics; exit 0 / 1."""

from __future__ import annotations

import argparse

from compiler.commands.common import add_pack_arguments, compile_args, finish


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from compiler.importers.valkyrie.run import is_valkyrie

    quests = [p for p in args.paths if is_valkyrie(p)]
    if not quests:
        result = compile_args(args, images=False)
        return finish(result.sink, args)
    # Valkyrie quests (folder, quest.ini or .valkyrie package): imported in memory, every
    # check run on the result, diagnostics at the Valkyrie files' lines (docs/valkyrie.md)
    from compiler.commands.common import options_from, settle
    from compiler.diagnostics import Sink
    from compiler.importers.valkyrie.run import check_quest

    settle(args)
    packs = [p for p in args.paths if p not in quests]
    args.paths = packs
    sink = compile_args(args, images=False).sink if packs else Sink()
    for q in quests:
        check_quest(q, options_from(args, images=False), sink)
    return finish(sink, args)
