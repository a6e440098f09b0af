"""questc path PACK --quest ID [--encounter N] --from X,Y --to X,Y: cheapest move and counted range.

Prints `{"cost": N, "steps": N, "route": [[x, y], …]}` with `--format json` (cost = movement
points along the cheapest route, doors as at the start of the encounter; steps = the
counted range of RULES.md), a short text otherwise. Exit 0 answered; 1 the pack has
errors, the quest or encounter does not exist, a space is not on the map, or no route.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from compiler.commands.common import add_pack_arguments, compile_args
from compiler.diagnostics import Span

CLI = "<command line>"


def _point(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"expected X,Y (e.g. 3,4), got {text!r}")
    return int(m.group(1)), int(m.group(2))


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser, many=False)
    parser.add_argument("--quest", required=True, metavar="ID", help="quest id")
    parser.add_argument("--encounter", type=int, default=None, metavar="N", help="encounter number (default: the first)")
    parser.add_argument("--from", dest="src", type=_point, required=True, metavar="X,Y", help="world coordinates of the start")
    parser.add_argument("--to", dest="dst", type=_point, required=True, metavar="X,Y", help="world coordinates of the goal")
    parser.add_argument("--open", dest="open_doors", action="append", default=None, metavar="DOOR",
                        help="treat this door as open (repeatable; default: doors as at the start)")


def answer(amap, src, dst, open_doors=None) -> dict | None:
    """The JSON answer for one map, or None when there is no route."""
    from compiler.geometry.graph import cheapest_move

    route = cheapest_move(amap.board, src, dst, open_doors)
    if route is None:
        return None
    return {"cost": route.cost, "steps": route.steps, "route": [list(c) for c in route.route]}


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics.render import print_diagnostics

    result = compile_args(args, images=False, sight=False)
    sink = result.sink
    model = result.model
    here = Span(CLI, 1, 1)

    def fail() -> int:
        print_diagnostics(sink, args.format)
        return 1

    if sink.errors or model is None:
        return fail()
    quests = (model.section("maps") or {}).get("quests", {})
    if args.quest not in quests:
        import difflib

        close = difflib.get_close_matches(args.quest, sorted(quests), n=1)
        sink.report("M0304", here, what=f"no quest `{args.quest}` with a map in this pack" + (f"; did you mean `{close[0]}`?" if close else ""))
        return fail()
    encounters = quests[args.quest]
    number = args.encounter if args.encounter is not None else min(encounters, default=1)
    if number not in encounters:
        sink.report("M0304", here, what=f"quest `{args.quest}` has no encounter {number} with a map (it has {sorted(encounters)})")
        return fail()
    amap = encounters[number]
    cells = set(amap.board.spaces)
    for label, c in (("--from", args.src), ("--to", args.dst)):
        if c not in cells:
            sink.report("M0304", here, what=f"{label} ({c[0]}, {c[1]}) is not a space of {args.quest} encounter {number}")
    if sink.errors:
        return fail()
    out = answer(amap, args.src, args.dst, args.open_doors)
    if out is None:
        sink.report("M0303", here, src=amap.describe(args.src), dst=amap.describe(args.dst))
        return fail()
    if args.format == "json":
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
    else:
        route = " ".join(f"({x},{y})" for x, y in out["route"])
        sys.stdout.write(f"cost {out['cost']}, {out['steps']} space(s) apart\nroute: {route}\n")
    return 0
