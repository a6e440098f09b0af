"""questc layout PACK --deck ID --seed N [--format json] [-o picture.png]

Deals one legal draw order of an exploration deck with `random.Random(N)`, chains the
drawn encounters (entrance to previous exit, linked end caps on overlap; compiler/chain.py)
and prints the layout: human text with an ASCII table, or JSON (`--format json`).
`-o` also writes a PNG of the table. The same seed always gives the same layout.
Exit 0 laid out, 1 the pack or deck has errors, 2 usage (an unknown deck).
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys

from compiler.commands.common import add_pack_arguments, compile_args

CLI_FILE = "<command line>"


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser, many=False)
    parser.add_argument("--deck", required=True, metavar="ID", help="the exploration deck to deal")
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="seed of the shuffle (default 0)")
    parser.add_argument("-o", "--output", default=None, metavar="PNG", help="also draw the table to this PNG file")


def _print(sink, args) -> None:
    from compiler.diagnostics.render import print_diagnostics

    if sink.items:
        print_diagnostics(sink, "human" if args.format == "json" else args.format, stream=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from compiler.chain import _tiles, layout, layout_picture, layout_text
    from compiler.diagnostics import Span
    from compiler.diagnostics.render import exit_code
    from compiler.syntax import ast

    result = compile_args(args, images=False, sight=False)
    sink, model = result.sink, result.model
    if model is None:
        _print(sink, args)
        return 1
    plans = model.section("decks") or {}
    exploration = sorted(d for d, p in plans.items() if p.kind == "exploration")
    if args.deck not in exploration:
        close = difflib.get_close_matches(args.deck, exploration, n=1, cutoff=0.5)
        hint = f"; did you mean `{close[0]}`?" if close else (f" (decks: {', '.join(exploration)})" if exploration else " (it has none)")
        sink.report("C0501", Span(CLI_FILE, 1, 1, 1, 2), pack=model.pack.id, deck=args.deck, hint=hint)
        _print(sink, args)
        return 2
    plan = plans[args.deck]
    links = model.section("encounter_links") or {}
    cards = model.section("cards")
    analysis = (model.section("deck_analysis") or {}).get(args.deck)
    if analysis is None or cards is None:
        sink.report("C0502", plan.span, deck=args.deck, problem="its recipe or its encounters have errors")
        _print(sink, args)
        return 1
    tiles = _tiles(model)
    lay = layout(plan, links, cards.encounter_of, tiles, args.seed)
    names = {e.id: (e.name.value if e.name else e.id) for e in model.declarations(ast.Encounter)}
    _print(sink, args)
    if args.format == "json":
        sys.stdout.write(json.dumps(lay.to_json(), indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        from compiler.diagnostics.render import visible  # names are source text: no raw control characters

        sys.stdout.write(layout_text(lay, {k: visible(v) for k, v in names.items()}))
    if args.output:
        from compiler.emit.render import render_map, save_png

        picture = layout_picture(lay, tiles, model.section("terrain") or {}, names)
        if picture is not None:
            save_png(render_map(picture, scale=20), args.output)
    return exit_code(sink, args.strict)
