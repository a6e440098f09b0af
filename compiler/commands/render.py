"""questc render PACK --quest ID [--encounter N] -o FILE [--from X,Y] [--range N] [--block X,Y …]

Draws one quest or encounter map. With --from, the spaces the sight engine says the
space sees are shaded; with --range N as well, the spaces reachable with N movement
points are outlined; --block puts figures that block sight and movement on spaces.
"""

from __future__ import annotations

import argparse

from compiler.commands import mapquery
from compiler.commands.common import compile_args, finish


def _points(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of movement points, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("movement points cannot be negative")
    return value


MAX_SCALE = 256  # pixels per square; a map 40 squares wide is then a 10,240-pixel image


def _scale(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of pixels per square, got {text!r}") from None
    if value > MAX_SCALE:  # an unbounded scale asked Pillow for gigapixels and was killed
        raise argparse.ArgumentTypeError(f"at most {MAX_SCALE} pixels per square, got {value}")
    return value

DEFAULT_SCALE = 40  # compiler/emit/images/map.py DEFAULT_SCALE (not imported here: Pillow costs `--help` its start-up)


def configure(parser: argparse.ArgumentParser) -> None:
    mapquery.add_map_arguments(parser)
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="PNG file to write")
    parser.add_argument("--from", dest="origin", type=mapquery.point, metavar="X,Y", help="shade the spaces this space sees")
    parser.add_argument("--range", dest="points", type=_points, metavar="N", help="outline the spaces reachable with N movement points (needs --from)")
    parser.add_argument("--block", action="append", type=mapquery.point, default=[], metavar="X,Y", help="a figure blocking sight and movement on this space (repeatable)")
    parser.add_argument("--lang", default=None, metavar="LANG", help="draw the texts in this language of the pack's translations/LANG.po (docs/translations.md)")
    parser.add_argument("--scale", type=_scale, default=DEFAULT_SCALE, help=f"pixels per square, at most {MAX_SCALE} (default: {DEFAULT_SCALE}; below 8 counts as 8)")


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from compiler.emit.images import style as S
    from compiler.emit.images.map import render_map
    from compiler.emit.images.primitives import save_png
    from compiler.emit.images.quest import quest_maps
    from compiler.emit.images.quest import reachable_within, seen_from

    result = compile_args(args, images=False)
    sink, model = result.sink, result.model
    if model is None or sink.errors:
        return finish(sink, args)
    if not mapquery.requires(args, sink, "--range", args.points, "--from", args.origin):
        return mapquery.usage_error(sink, args)
    choice = mapquery.choose_map(args, model, sink)
    if choice is None:
        return mapquery.usage_error(sink, args)
    if not mapquery.resolve_spaces(args, choice, ("origin", "block"), sink):
        return mapquery.usage_error(sink, args)
    mapquery.check_spaces(args, choice, [("--from", args.origin)] + [("--block", c) for c in args.block], sink)
    opened = mapquery.open_doors(args, choice, sink)
    if sink.errors:
        return mapquery.usage_error(sink, args)
    if args.lang is not None and args.lang not in (model.languages or {}):
        from compiler.diagnostics.hints import hint

        have = sorted(model.languages or {})
        sink.report("T0301", mapquery.arg_span(args, f"--lang {args.lang}", f"--lang={args.lang}"), lang=args.lang,
                    hint=hint(args.lang, have) or (f" (it has: {', '.join(have)})" if have else " (it has none)"))
        return mapquery.usage_error(sink, args)
    picture = quest_maps(model, args.lang)[choice.picture_key]
    for text in dict.fromkeys([picture.title, *(t.label[:1] for t in picture.tokens if t.label)]):
        missing = S.missing_glyphs(text)
        if missing:
            sink.report("G0106", mapquery.arg_span(args, "--lang", "--quest"), chars=", ".join(f"`{c}` (U+{ord(c):04X})" for c in missing), text=text)
    board = picture.board if opened is None else picture.board.with_doors(opened)
    blockers = frozenset(args.block)
    seen = reachable = None
    if args.origin is not None:
        seen = seen_from(board, args.origin, blockers)
        if args.points is not None:
            reachable = reachable_within(board, args.origin, args.points, blockers)
    picture = replace(picture, board=board, seen=seen, origin=args.origin, reachable=reachable, blockers=blockers)
    try:
        save_png(render_map(picture, scale=max(8, args.scale)), args.output)
    except OSError as exc:
        sink.report("G0105", mapquery.option_span(args, args.output, "-o", "--output"), path=args.output, problem=exc.strerror or str(exc))
        return finish(sink, args)
    return mapquery.answered(sink)
