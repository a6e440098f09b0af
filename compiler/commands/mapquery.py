"""What the map-question commands (path, los, render) share: which map of which quest or
encounter, which spaces, which doors are open — each mistake an X01xx diagnostic located
on the command line itself, exit code 2 (a usage error), never a traceback."""

from __future__ import annotations

import argparse
import re
from typing import TYPE_CHECKING

from compiler.commands.common import add_pack_arguments
from compiler.diagnostics import Sink, Span
from compiler.diagnostics.hints import did_you_mean
from compiler import frozen

if TYPE_CHECKING:
    from compiler.geometry.assemble import AssembledMap
    from compiler.model import Model

USAGE = 2
COMMAND_LINE = "<command line>"


@frozen
class NamedSpace:
    """A space given on the command line as a quest names it: `10B(1,1)` (a placed tile's
    own column and row) or `@mark`; resolve_spaces turns it into world coordinates once
    the map is known."""

    text: str  # as typed
    tile: str | None = None
    col: int = 0
    row: int = 0
    mark: str | None = None


def point(text: str) -> tuple[int, int] | NamedSpace:
    """argparse type for a space: world coordinates `X,Y` (also `(X, Y)`; negative numbers
    as `--block=-1,2`), a tile's own square `10B(1,1)` as in a quest, or a mark `@name`."""
    m = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*", text)
    if m:
        return int(m.group(1)), int(m.group(2))
    m = re.fullmatch(r"\s*([A-Za-z0-9_]+)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)\s*", text)
    if m:
        return NamedSpace(text, tile=m.group(1), col=int(m.group(2)), row=int(m.group(3)))
    m = re.fullmatch(r"\s*@([A-Za-z_][A-Za-z0-9_]*)\s*", text)
    if m:
        return NamedSpace(text, mark=m.group(1))
    raise argparse.ArgumentTypeError(f"expected X,Y (two whole numbers, e.g. 3,4), a tile's square such as 10B(1,1), or @MARK, got {text!r}")


def resolve_spaces(args: argparse.Namespace, choice: MapChoice, names: tuple[str, ...], sink: Sink) -> bool:
    """Each of the arguments `names` (an attribute of `args`, one space or a list) given as
    a tile's square or a mark, replaced by its world coordinates on the chosen map (as the
    quest's own `10B(1,1)` resolves: compiler/passes/spaces.py); False after a located
    diagnostic when one names no space of the map."""
    from compiler.passes.spaces import resolve_space
    from compiler.syntax import ast

    ok = True

    def one(value: object) -> object:
        nonlocal ok
        if not isinstance(value, NamedSpace):
            return value
        span = arg_span(args, value.text)
        ref = ast.MarkRef(value.mark, span) if value.mark is not None else ast.TileSpace(value.tile or "", value.col, value.row, span)
        cell = resolve_space(choice.amap, ref, sink)
        if cell is None:
            ok = False
        return cell

    for name in names:
        value = getattr(args, name, None)
        setattr(args, name, [one(v) for v in value] if isinstance(value, list) else one(value))
    return ok


def add_map_arguments(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser, many=False)
    parser.add_argument("--quest", required=True, metavar="ID", help="quest (or top-level encounter) id")
    parser.add_argument("--encounter", type=int, default=None, metavar="N", help="encounter number of a multi-encounter quest (default: the first)")
    parser.add_argument("--open", dest="open_doors", action="append", default=None, metavar="DOOR",
                        help="treat this door as open (repeatable; default: doors as at the start)")


def arg_span(args: argparse.Namespace, *needles: str) -> Span:
    """The span of the first of `needles` found in the command line as typed (cli.main keeps
    it in args._argv); the start of the line when none is."""
    from compiler.diagnostics.render import accept_source

    line = " ".join(["questc", *getattr(args, "_argv", [])])
    accept_source(COMMAND_LINE, line)
    for needle in needles:
        at = line.find(needle)
        if at >= 0:
            return Span(COMMAND_LINE, 1, at + 1, 1, at + 1 + max(len(needle), 1))
    return Span(COMMAND_LINE, 1, 1, 1, 7)


def option_span(args: argparse.Namespace, value: str, *flags: str) -> Span:
    """The span of an option's value as typed (`-o FILE`, `--output=FILE`), so a value
    that also appears earlier on the line (`render pack … -o pack`) is found where it is
    given; arg_span(value) when it is not found after any of `flags`."""
    line = " ".join(["questc", *getattr(args, "_argv", [])])
    for flag in flags:
        for written in (f" {flag} {value}", f" {flag}={value}"):
            at = line.find(written)
            if at >= 0:
                arg_span(args)  # keeps the line as the diagnostic's source
                at += len(written) - len(value)
                return Span(COMMAND_LINE, 1, at + 1, 1, at + 1 + max(len(value), 1))
    return arg_span(args, value)


@frozen
class MapChoice:
    quest: str
    number: int | None  # None for a top-level encounter
    amap: AssembledMap
    single: bool  # the quest has one encounter

    @property
    def label(self) -> str:
        return f"`{self.quest}`" if self.number is None else f"`{self.quest}` encounter {self.number}"

    @property
    def picture_key(self) -> str:
        """The name of this map's picture (maps/<key>.png)."""
        return self.quest if self.number is None or self.single else f"{self.quest}-{self.number}"


def choose_map(args: argparse.Namespace, model: Model, sink: Sink) -> MapChoice | None:
    quests = model.maps.quests if model.maps is not None else {}
    encounters = model.maps.encounters if model.maps is not None else {}
    if args.quest in quests:
        numbered = quests[args.quest]
        number = args.encounter if args.encounter is not None else min(numbered, default=1)
        if number not in numbered:
            sink.report("X0102", arg_span(args, f"--encounter {args.encounter}"), quest=args.quest, number=number,
                        have=", ".join(map(str, sorted(numbered))) or "none")
            return None
        return MapChoice(args.quest, number, numbered[number], len(numbered) == 1)
    if args.quest in encounters and args.encounter in (None, 1):
        return MapChoice(args.quest, None, encounters[args.quest], True)
    known = sorted(set(quests) | set(encounters))
    guess = did_you_mean(args.quest, known)
    hint = f"; did you mean `{guess}`?" if guess else (f" (maps: {', '.join(known)})" if known else " (it has no maps)")
    sink.report("X0101", arg_span(args, args.quest), id=args.quest, pack=model.pack.id, hint=hint,
                fix=guess)
    return None


def check_spaces(args: argparse.Namespace, choice: MapChoice, named: list[tuple[str, tuple[int, int] | None]], sink: Sink) -> bool:
    """Every (flag, X,Y) given must be a space of the chosen map."""
    spaces = choice.amap.board.spaces
    cells = set(spaces)
    xs, ys = [c[0] for c in spaces] or [0], [c[1] for c in spaces] or [0]
    ok = True
    for flag, c in named:
        if c is None or c in cells:
            continue
        ok = False
        inside = min(xs) <= c[0] <= max(xs) and min(ys) <= c[1] <= max(ys)
        hint = ": no square there" if inside else f" (the map spans x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)})"
        xy = f"{c[0]},{c[1]}"
        sink.report("X0103", arg_span(args, f"{flag} {xy}", f"{flag}={xy}", xy), flag=flag, x=c[0], y=c[1], map=choice.label, hint=hint)
    return ok


def open_doors(args: argparse.Namespace, choice: MapChoice, sink: Sink) -> frozenset[str] | None:
    """The doors open for the question: the start state plus every --open (None = start state)."""
    if args.open_doors is None:
        return None
    doors = choice.amap.board.doors
    ids = sorted(d.id for d in doors)
    for d in args.open_doors:
        if d not in ids:
            hint = f" (doors: {', '.join(ids)})" if ids else " (it has no doors)"
            sink.report("X0104", arg_span(args, f"--open {d}", f"--open={d}", d), door=d, map=choice.label, hint=hint)
    return frozenset(args.open_doors) | frozenset(d.id for d in doors if d.open)


def requires(args: argparse.Namespace, sink: Sink, given: str, value: object, needed: str, needed_value: object) -> bool:
    """`given` makes sense only with `needed`."""
    if value is not None and needed_value is None:
        sink.report("X0105", arg_span(args, given), given=given, needed=needed)
        return False
    return True


def usage_error(sink: Sink, args: argparse.Namespace) -> int:
    from compiler.diagnostics.render import print_diagnostics

    print_diagnostics(sink, args.format)
    return USAGE


def answered(sink: Sink) -> int:
    """The answer went to stdout; warnings about the pack go to stderr, never into the answer."""
    import sys

    from compiler.diagnostics.render import print_diagnostics

    if sink.items:
        print_diagnostics(sink, "human", stream=sys.stderr)
    return 0
