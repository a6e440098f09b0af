"""questc render PACK --quest ID [--encounter N] -o FILE [--from X,Y] [--range N] [--block X,Y …]

Draws one quest or encounter map. With --from, the spaces the sight engine says the
space sees are shaded; with --range N as well, the spaces reachable with N movement
points are outlined; --block puts figures that block sight and movement on spaces.
"""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path

from compiler.commands.common import add_pack_arguments, compile_args, finish
from compiler.diagnostics import Span


def _space(text: str) -> tuple[int, int]:
    try:
        x, y = (int(part) for part in text.replace(" ", "").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected X,Y (two whole numbers), got {text!r}") from None
    return (x, y)


def _points(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of movement points, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("movement points cannot be negative")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser, many=False)
    parser.add_argument("--quest", required=True, metavar="ID", help="quest (or top-level encounter) whose map to draw")
    parser.add_argument("--encounter", type=int, default=None, metavar="N", help="encounter number of a multi-encounter quest (default: the first)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE", help="PNG file to write")
    parser.add_argument("--from", dest="origin", type=_space, metavar="X,Y", help="shade the spaces this space sees")
    parser.add_argument("--range", dest="points", type=_points, metavar="N", help="outline the spaces reachable with N movement points (needs --from)")
    parser.add_argument("--block", action="append", type=_space, default=[], metavar="X,Y", help="a figure blocking sight and movement on this space (repeatable)")
    parser.add_argument("--scale", type=int, default=32, help="pixels per square (default: 32)")


def pick_map(pictures: dict, quest: str, encounter: int | None):
    """(map id, picture) for --quest/--encounter, or (None, reason) with reason in {quest, encounter}."""
    if encounter is None:
        if quest in pictures:
            return quest, pictures[quest]
        numbered = sorted((k for k in pictures if k.startswith(quest + "-") and k[len(quest) + 1 :].isdigit()), key=lambda k: int(k[len(quest) + 1 :]))
        return (numbered[0], pictures[numbered[0]]) if numbered else (None, "quest")
    key = f"{quest}-{encounter}"
    if key in pictures:
        return key, pictures[key]
    if encounter == 1 and quest in pictures:
        return quest, pictures[quest]
    known = quest in pictures or any(k.startswith(quest + "-") for k in pictures)
    return None, "encounter" if known else "quest"


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from compiler.emit.render import render_map, save_png
    from compiler.emit.render_model import map_pictures
    from compiler.emit.render_quest import reachable_within, seen_from

    result = compile_args(args, images=False)
    sink = result.sink
    model = result.model
    where = Span.whole_file(str(Path(args.paths[0]) / "pack.yaml"))
    if model is None or sink.errors:
        return finish(sink, args)
    pictures = map_pictures(model)
    map_id, picture = pick_map(pictures, args.quest, args.encounter)
    if map_id is None:
        if picture == "encounter":
            numbers = sorted(k[len(args.quest) + 1 :] for k in pictures if k.startswith(args.quest + "-")) or ["1"]
            sink.report("G0102", where, id=args.quest, number=args.encounter, numbers=", ".join(numbers))
        else:
            guess = difflib.get_close_matches(args.quest, sorted(pictures), n=1)
            hint = f"; did you mean `{guess[0]}`?" if guess else (f" (maps: {', '.join(sorted(pictures))})" if pictures else "")
            sink.report("G0101", where, id=args.quest, pack=model.pack.id, hint=hint, fix=guess[0] if guess else None)
        return finish(sink, args)
    board = picture.board
    spaces = set(board.spaces)
    blockers = set()
    for cell in args.block:
        if cell in spaces:
            blockers.add(cell)
        else:
            sink.report("G0104", where, x=cell[0], y=cell[1], map=map_id)
    blockers = frozenset(blockers)
    if args.points is not None and args.origin is None:
        sink.report("G0106", where)
        return finish(sink, args)
    seen = reachable = None
    if args.origin is not None:
        if args.origin not in spaces:
            sink.report("G0103", where, what="--from", x=args.origin[0], y=args.origin[1], map=map_id)
            return finish(sink, args)
        seen = seen_from(board, args.origin, blockers)
        if args.points is not None:
            reachable = reachable_within(board, args.origin, args.points, blockers)
    picture = replace(picture, seen=seen, origin=args.origin, reachable=reachable, blockers=blockers)
    image = render_map(picture, scale=max(8, args.scale))
    try:
        save_png(image, args.output)
    except OSError as exc:
        sink.report("G0105", where, path=args.output, problem=exc.strerror or str(exc))
    return finish(sink, args)
