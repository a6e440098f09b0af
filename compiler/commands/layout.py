"""questc layout PACK --deck ID --seed N [--format json] [-o picture.png]

Deals one legal draw order of an exploration deck with `random.Random(N)`, chains the
drawn encounters (entrance to previous exit, linked end caps on overlap; compiler/model/layout.py and compiler/passes/chain.py)
and prints the layout: human text with an ASCII table, or JSON (`--format json`).
`-o` also writes a PNG of the table. The same seed always gives the same layout.
Exit 0 laid out, 1 the pack or deck has errors or the PNG cannot be written (G0105),
2 usage (an unknown deck).
"""

from __future__ import annotations

from compiler.diagnostics.hints import did_you_mean

import argparse
import json
import sys
from typing import TYPE_CHECKING

from compiler.commands.common import add_pack_arguments, compile_args

if TYPE_CHECKING:
    from compiler.diagnostics.model import Sink

CLI_FILE = "<command line>"


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser, many=False)
    parser.add_argument("--deck", required=True, metavar="ID", help="the exploration deck to deal")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the shuffle (default 0)")
    parser.add_argument("-o", "--output", default=None, metavar="PNG", help="also draw the table to this PNG file")


def _print(sink: Sink, args: argparse.Namespace) -> None:
    from compiler.diagnostics.render import print_diagnostics

    if sink.items:
        print_diagnostics(sink, "human" if args.format == "json" else args.format, stream=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from compiler.emit.images.layout import layout_picture, layout_text
    from compiler.model.layout import layout
    from compiler.diagnostics import Sink, Span
    from compiler.diagnostics.render import exit_code
    from compiler.syntax import ast

    result = compile_args(args, images=False, sight=False)
    sink, model = result.sink, result.model
    if model is None:
        _print(sink, args)
        return 1
    plans = model.decks or {}
    exploration = sorted(d for d, p in plans.items() if p.kind == "exploration")
    if args.deck not in exploration:
        close = did_you_mean(args.deck, exploration)
        hint = f"; did you mean `{close}`?" if close else (f" (decks: {', '.join(exploration)})" if exploration else " (it has none)")
        sink.report("C0501", Span(CLI_FILE, 1, 1, 1, 2), pack=model.pack.id, deck=args.deck, hint=hint)
        _print(sink, args)
        return 2
    plan = plans[args.deck]
    links = model.encounter_links or {}
    cards = model.cards
    analysis = (model.deck_analysis or {}).get(args.deck)
    if analysis is None or cards is None:
        if not sink.errors:  # the errors that stop it are listed already; this is never a second one
            sink.report("C0502", plan.span, deck=args.deck, problem="its recipe or its encounters are incomplete")
        _print(sink, args)
        return 1
    tiles = model.tiles or {}
    lay = layout(plan, links, cards.encounter_of, tiles, args.seed)
    names = {e.id: (e.name.value if e.name else e.id) for e in model.declarations(ast.Encounter)}
    _print(sink, args)
    if args.format == "json":
        sys.stdout.write(json.dumps(lay.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        from compiler.diagnostics.render import visible  # names are source text: no raw control characters

        sys.stdout.write(layout_text(lay, {k: visible(v) for k, v in names.items()}))
    if args.output:
        from compiler.commands.mapquery import option_span
        from compiler.emit.images.map import render_map
        from compiler.emit.images.primitives import save_png

        try:
            save_png(render_map(layout_picture(lay, model.terrain or {}, names), scale=20), args.output)
        except OSError as exc:  # `-o` onto a folder, into a read-only one: was I0001
            unwritten = Sink()  # the pack's diagnostics are printed already
            unwritten.report("G0105", option_span(args, args.output, "-o", "--output"), path=args.output, problem=exc.strerror or str(exc))
            _print(unwritten, args)
            return 1
    return exit_code(sink, args.strict)
