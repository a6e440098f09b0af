"""questc path PACK --quest ID [--encounter N] --from X,Y --to X,Y: cheapest move and counted range.

Prints `{"cost": N, "steps": N, "route": [[x, y], …]}` with `--format json` (cost = movement
points along the cheapest route, doors as at the start of the encounter or as --open says;
steps = the counted range of RULES.md), a short text otherwise. Without a route (M0303, exit
1) the JSON still comes, with `cost` and `route` null, `steps` when the spaces are that far
apart, and `closed_doors` on the way (the message suggests `--open` for them). Exit 0
answered; 2 a bad argument (mapquery's X01xx codes).
"""

from __future__ import annotations

import argparse
import json
import sys

from compiler.commands import mapquery
from compiler.commands.common import compile_args, finish


def configure(parser: argparse.ArgumentParser) -> None:
    mapquery.add_map_arguments(parser)
    parser.add_argument("--from", dest="src", type=mapquery.point, required=True, metavar="X,Y", help="world coordinates of the start")
    parser.add_argument("--to", dest="dst", type=mapquery.point, required=True, metavar="X,Y", help="world coordinates of the goal")


def answer(amap, src, dst, open_doors=None) -> dict:
    """The JSON answer for one map. Without a route, `cost` and `route` are null; `steps`
    (the counted range) is still given when the spaces are that far apart (a figure in a
    2nd-edition pit cannot move but is counted from), and `closed_doors` names the doors
    the cheapest route with every door open goes through."""
    from compiler.geometry.graph import closed_doors_on_the_way, cheapest_move, counting_distance

    route = cheapest_move(amap.board, src, dst, open_doors)
    if route is not None:
        return {"cost": route.cost, "steps": route.steps, "route": [list(c) for c in route.route]}
    closed = closed_doors_on_the_way(amap.board, src, dst, open_doors)
    steps = counting_distance(amap.board, src, dst, open_doors)
    return {"cost": None, "steps": steps, "route": None, "closed_doors": list(closed or ())}


def run(args: argparse.Namespace) -> int:
    result = compile_args(args, images=False, sight=False)
    sink, model = result.sink, result.model
    if model is None or sink.errors:
        return finish(sink, args)
    choice = mapquery.choose_map(args, model, sink)
    if choice is None or not mapquery.check_spaces(args, choice, [("--from", args.src), ("--to", args.dst)], sink):
        return mapquery.usage_error(sink, args)
    opened = mapquery.open_doors(args, choice, sink)
    if sink.errors:
        return mapquery.usage_error(sink, args)
    out = answer(choice.amap, args.src, args.dst, opened)
    if out["route"] is None:
        doors = out["closed_doors"]
        fix = (f"Closed door(s) {', '.join(f'`{d}`' for d in doors)} stand on the way: add "
               f"{' '.join(f'--open {d}' for d in doors)}.") if doors else None
        sink.report("M0303", mapquery.arg_span(args, "--to"), src=choice.amap.describe(args.src),
                    dst=choice.amap.describe(args.dst), fix=fix,
                    steps="" if out["steps"] is None else f" ({out['steps']} space(s) apart as range is counted)")
        if args.format != "json":
            return finish(sink, args)
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")  # the answer; why there is no route: stderr
        mapquery.answered(sink)
        return 1
    if args.format == "json":
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
    else:
        route = " ".join(f"({x},{y})" for x, y in out["route"])
        sys.stdout.write(f"cost {out['cost']}, {out['steps']} space(s) apart\nroute: {route}\n")
    return mapquery.answered(sink)
