"""questc template NAME PACK --at X,Y [--facing D] [--rank N] [--quest ID [--encounter N] [--open DOOR]]: the squares an attack template covers.

NAME is an entry of the pack's templates catalog (docs/rules.md, "Attack templates"). A
template laid against a side of the attacker (`breath`, `bolt`) takes --at as the
attacker's space and --facing as the side (north, east, south, west, or N E S W); one
centred on the target (`blast`) takes --at as the target's space and --rank as the
ability's rank (`Blast 2`; default 1) when its radius is the rank. With --quest the
template lies on that map: squares off the map, past walls or closed doors (and, for
Blast, out of sight of the target or past blocking terrain) are not covered, and a space
given as `10B(1,1)` or `@mark` is read as `questc path` reads it. Without --quest the
template's whole shape is listed around --at, as on an open floor.

Prints `{"template", "name", "anchor", "at", "facing", "rank", "radius", "quest",
"encounter", "squares": [[x, y], …], "count", "source", "illustrative"}` with `--format
json` (`squares` sorted by y then x; `illustrative` true when the shape is not from a
rulebook), a short text with a picture otherwise. Exit 0 answered; 1 the pack has
errors; 2 a bad argument (X0110 unknown template, with a did-you-mean; X0111 no --facing
for a template that needs one; mapquery's X01xx codes for the map and spaces).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TypedDict

from compiler.commands import mapquery
from compiler.commands.common import add_pack_arguments, compile_args, finish
from compiler.diagnostics.hints import did_you_mean, hint

if TYPE_CHECKING:
    from compiler.catalogs.templates import Template
    from compiler.geometry.board import Board
    from compiler.geometry.lattice import Cell


class Answer(TypedDict):
    template: str
    name: str
    anchor: str
    at: list[int]
    facing: str | None
    rank: int | None
    radius: int | None
    quest: str | None
    encounter: int | None
    squares: list[list[int]]
    count: int
    source: str
    illustrative: bool


def _facing(text: str) -> str:
    from compiler.geometry.templates import facing_of

    got = facing_of(text)
    if got is None:
        raise argparse.ArgumentTypeError(f"expected north, east, south or west (or N, E, S, W), got {text!r}")
    return got


def _rank(text: str) -> int:
    if not text.strip().isdigit() or not 0 <= int(text) <= 9:
        raise argparse.ArgumentTypeError(f"expected a rank from 0 to 9, got {text!r}")
    return int(text)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", metavar="NAME", help="the template: an id of the templates catalog (breath, bolt, blast)")
    add_pack_arguments(parser, many=False)
    parser.add_argument("--at", dest="at", type=mapquery.point, required=True, metavar="SPACE",
                        help="the attacker's space (a template laid against its side) or the target's (a Blast)")
    parser.add_argument("--facing", type=_facing, default=None, metavar="D", help="the attacker's side the template lies against: north, east, south or west")
    parser.add_argument("--rank", type=_rank, default=None, metavar="N", help="the ability's rank when the radius is the rank (Blast N; default 1)")
    parser.add_argument("--quest", default=None, metavar="ID", help="lay it on this quest's (or top-level encounter's) map")
    parser.add_argument("--encounter", type=int, default=None, metavar="N", help="encounter number of a multi-encounter quest (default: the first)")
    parser.add_argument("--open", dest="open_doors", action="append", default=None, metavar="DOOR",
                        help="treat this door as open (repeatable; default: doors as at the start)")


def answer(template: Template, at: Cell, facing: str | None, rank: int | None, board: Board | None = None,
           open_doors: frozenset[str] | None = None, quest: str | None = None, encounter: int | None = None) -> Answer:
    """The JSON answer: on `board` when given, else the whole shape around `at`."""
    from compiler.geometry.templates import covered, shape

    if board is not None:
        squares = list(covered(board, template, at, facing, rank, open_doors))
    elif template.anchor == "attacker_side":
        squares = sorted(shape(template, at, facing or "north"), key=lambda c: (c[1], c[0]))
    else:
        r = template.radius_for(rank)
        squares = [(at[0] + dx, at[1] + dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)]
    illustrative = template.source == "illustrative" or any(v == "illustrative" for _, v in template.facts)
    return {"template": template.id, "name": template.name, "anchor": template.anchor, "at": list(at),
            "facing": facing if template.anchor == "attacker_side" else None,
            "rank": rank, "radius": template.radius_for(rank) if template.anchor == "target" else None,
            "quest": quest, "encounter": encounter, "squares": [list(c) for c in squares], "count": len(squares),
            "source": template.source, "illustrative": illustrative}


def picture(out: Answer) -> list[str]:
    """The covered squares as rows of `#` (covered), `@` (--at) and `.`."""
    cells = {tuple(c) for c in out["squares"]}
    at = tuple(out["at"])
    xs = [c[0] for c in cells | {at}]
    ys = [c[1] for c in cells | {at}]
    rows = []
    for y in range(min(ys), max(ys) + 1):
        rows.append("  " + "".join("@" if (x, y) == at and at not in cells else "#" if (x, y) in cells else "."
                                   for x in range(min(xs), max(xs) + 1)))
    return rows


def render(out: Answer) -> str:
    x, y = out["at"]
    where = (f"against the {out['facing']} side of ({x},{y})" if out["anchor"] == "attacker_side"
             else f"centred on ({x},{y}), radius {out['radius']}")
    on = (f" on `{out['quest']}`" + (f" encounter {out['encounter']}" if out["encounter"] is not None else "")
          if out["quest"] is not None else " (its whole shape, no map)")
    lines = [f"{out['template']} ({out['name']}) {where}{on}: {out['count']} square(s)"
             + (" [illustrative shape]" if out["illustrative"] else "")]
    if out["squares"]:
        lines.append(" ".join(f"({a},{b})" for a, b in out["squares"]))
        lines += picture(out)
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    result = compile_args(args, images=False, sight=False)
    sink, model = result.sink, result.model
    if model is None or sink.errors:
        return finish(sink, args)
    templates = model.templates or {}
    template = templates.get(args.name)
    if template is None:
        sink.report("X0110", mapquery.arg_span(args, args.name), name=args.name, pack=model.pack.id,
                    hint=hint(args.name, templates) or (f" (templates: {', '.join(sorted(templates))})" if templates
                                                         else " (it has no templates catalog: require core-1e or core-2e)"),
                    fix=did_you_mean(args.name, templates))
        return mapquery.usage_error(sink, args)
    if template.anchor == "attacker_side" and args.facing is None:
        sink.report("X0111", mapquery.arg_span(args, args.name), name=args.name)
        return mapquery.usage_error(sink, args)
    board = None
    number = None
    opened = None
    if args.quest is not None:
        choice = mapquery.choose_map(args, model, sink)
        if choice is None or not mapquery.resolve_spaces(args, choice, ("at",), sink) \
                or not mapquery.check_spaces(args, choice, [("--at", args.at)], sink):
            return mapquery.usage_error(sink, args)
        opened = mapquery.open_doors(args, choice, sink)
        if sink.errors:
            return mapquery.usage_error(sink, args)
        board, number = choice.amap.board, choice.number
    else:
        for flag, given in (("--encounter", args.encounter), ("--open", args.open_doors)):
            mapquery.requires(args, sink, flag, given, "--quest", None)
        if isinstance(args.at, mapquery.NamedSpace):
            mapquery.requires(args, sink, f"--at {args.at.text}", args.at, "--quest", None)
        if sink.errors:
            return mapquery.usage_error(sink, args)
    out = answer(template, args.at, args.facing, args.rank, board, opened, args.quest, number)
    sys.stdout.write(json.dumps(out, sort_keys=True) + "\n" if args.format == "json" else render(out))
    return mapquery.answered(sink)
