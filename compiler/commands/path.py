"""questc path PACK --quest ID [--encounter N] --from SPACE --to SPACE [--size WxH] [--safest]: cheapest move and counted range.

A SPACE is world coordinates `X,Y`, or a space as a quest names it: a placed tile's own
square `10B(1,1)` or a mark `@name` (mapquery.resolve_spaces; also `los` and `render`).

With `--size WxH` the figure is large: its base lies W x H with its top-left space on
--from, and the answer is the cheapest move that ends with its base covering --to
(geometry.graph.large_move: it counts from one space of its base, moves shrunk, and
expands, lying either way), with `counted_from`, `end` and every `placements` the
players may choose. A base that cannot lie there is X0107.

With `--flying` the figure flies (1st edition; docs/rules.md, "Flying, Soar and
Shadowcloak"): obstacles cost it one movement point like plain ground, never stop it and
do nothing to it, and it may not end on terrain that blocks movement; walls and closed
doors still stop it. The answer gains `"flying": true` and `walking_cost` (the cost
without flying, null when a walker has no route).

With `--safest` the route is the one that risks the least damage from the terrain it
enters, then the cheapest (geometry.entry_effects.safest_move). A route that enters
terrain acting on a figure (lava, pits, traps, hazard) also gets `damage`, `conditions`,
`risks` (each roll with the exact `chance` of its effect) and `expected_damage`
(geometry.entry_effects.route_effects; docs/rules.md, "Terrain entered on the way").

Prints `{"cost": N, "steps": N, "route": [[x, y], …]}` with `--format json` (cost = movement
points along the cheapest route, doors as at the start of the encounter or as --open says;
steps = the counted range of docs/rules.md, "Counting spaces"), a short text otherwise.
Without a route (M0303, exit 1) the JSON still comes, with `cost` and `route` null, `steps`
when the spaces are that far apart, and `closed_doors` on the way (the message suggests
`--open` for them). Exit 0 answered; 2 a bad argument (mapquery's X01xx codes).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TypedDict

from compiler.commands import mapquery
from compiler.commands.common import compile_args, finish

if TYPE_CHECKING:
    from collections.abc import Mapping

    from compiler.catalogs.dice import Die
    from compiler.diagnostics.model import Sink
    from compiler.geometry.assemble import AssembledMap
    from compiler.geometry.graph import Footprint
    from compiler.geometry.lattice import Cell


class Routed(TypedDict, total=False):
    """The JSON answer with a route: `damage`, `conditions`, `risks` and `expected_damage`
    only when the route enters terrain that acts on a figure entering it."""

    cost: int
    steps: int
    route: list[list[int]]
    flying: bool
    walking_cost: int | None
    damage: int
    conditions: list[dict[str, object]]
    risks: list[dict[str, object]]
    expected_damage: str
    jumped: list[list[int]]


class Unrouted(TypedDict):
    """The JSON answer without a route."""

    cost: None
    steps: int | None
    route: None
    closed_doors: list[str]


class LargeRouted(TypedDict):
    """The JSON answer for a large figure, with a route."""

    size: list[int]
    base: list[list[int]]
    cost: int
    steps: int | None
    route: list[list[int]]
    counted_from: list[int]
    placements: list[list[list[int]]]


class LargeUnrouted(TypedDict):
    """The JSON answer for a large figure, without a route."""

    size: list[int]
    base: list[list[int]]
    cost: None
    steps: int | None
    route: None
    counted_from: None
    placements: list[list[list[int]]]


def configure(parser: argparse.ArgumentParser) -> None:
    mapquery.add_map_arguments(parser)
    parser.add_argument("--from", dest="src", type=mapquery.point, required=True, metavar="SPACE", help="the start: world coordinates X,Y, a tile's square such as 10B(1,1), or @MARK")
    parser.add_argument("--to", dest="dst", type=mapquery.point, required=True, metavar="SPACE", help="the goal: world coordinates X,Y, a tile's square such as 10B(1,1), or @MARK")
    parser.add_argument("--jump", action="store_true",
                        help="1st edition: a figure may jump over a pit (lava, mud: when aware of them) to the space beyond (illustrative)")
    parser.add_argument("--safest", action="store_true",
                        help="the route that risks the least damage from the terrain it enters (then the cheapest), not the cheapest")
    parser.add_argument("--size", type=_size, default=None, metavar="WxH",
                        help="a large figure: its base is W x H with its top-left on --from; the route ends with the base covering --to")
    parser.add_argument("--flying", action="store_true",
                        help="1st edition: the figure flies over obstacles (one movement point each, no effect) and may not end on one that blocks movement")


def _size(text: str) -> tuple[int, int]:
    from compiler.catalogs.monsters import parse_size

    got = parse_size(text.strip().lower())
    if got is None:
        raise argparse.ArgumentTypeError(f"expected WxH with W and H from 1 to 9 (e.g. 2x2, 2x3), got {text!r}")
    return got


def answer(amap: AssembledMap, src: Cell, dst: Cell, open_doors: frozenset[str] | None = None,
           dice: Mapping[str, Die] | None = None, safest: bool = False, jump: bool = False) -> Routed | Unrouted:
    """The JSON answer for one map. Without a route, `cost` and `route` are null; `steps`
    (the counted range) is still given when the spaces are that far apart (a figure in a
    2nd-edition pit cannot move but is counted from), and `closed_doors` names the doors
    the cheapest route with every door open goes through."""
    from compiler.geometry.graph import closed_doors_on_the_way, cheapest_move, counting_distance

    from compiler.geometry.entry_effects import best_move, route_effects

    if safest or jump:
        route = best_move(amap.board, src, dst, open_doors, safest=safest, jump=jump)
    else:
        route = cheapest_move(amap.board, src, dst, open_doors)
    if route is not None:
        out: Routed = {"cost": route.cost, "steps": route.steps, "route": [list(c) for c in route.route]}
        jumped = [[(p[0] + q[0]) // 2, (p[1] + q[1]) // 2] for p, q in zip(route.route, route.route[1:])
                  if max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 2]
        if jumped:
            out["jumped"] = jumped
        effects = route_effects(amap.board, route.route, dice)
        if effects.any:  # what entering the route's terrain does (docs/rules.md, "Terrain entered on the way")
            out["damage"] = effects.damage
            out["conditions"] = [{"condition": c, "tokens": n} for c, n in effects.conditions]
            out["risks"] = [
                {"space": list(r.space), "terrain": r.terrain, "die": r.die, "avoid": r.avoid, "damage": r.damage,
                 "condition": r.condition, "tokens": r.tokens, "chance": None if r.chance is None else str(r.chance)}
                for r in effects.risks
            ]
            expected = effects.expected_damage
            if expected is not None:
                out["expected_damage"] = str(expected)
        return out
    closed = closed_doors_on_the_way(amap.board, src, dst, open_doors)
    steps = counting_distance(amap.board, src, dst, open_doors)
    return {"cost": None, "steps": steps, "route": None, "closed_doors": list(closed or ())}


def large_answer(amap: AssembledMap, base: Footprint, size: tuple[int, int], dst: Cell,
                 open_doors: frozenset[str] | None = None) -> LargeRouted | LargeUnrouted:
    """The JSON answer for a large figure (route null when no placement covering `dst` is reachable)."""
    from compiler.geometry.graph import counting_distance, large_move

    got = large_move(amap.board, base, size, dst, open_doors)
    if got is None:
        steps = min((d for d in (counting_distance(amap.board, c, dst, open_doors) for c in base) if d is not None), default=None)
        return {"size": list(size), "base": [list(c) for c in base], "cost": None, "steps": steps, "route": None,
                "counted_from": None, "placements": []}
    return {"size": list(size), "base": [list(c) for c in base], "cost": got.cost, "steps": got.steps,
            "route": [list(c) for c in got.route], "counted_from": list(got.counted_from),
            "placements": [[list(c) for c in fp] for fp in got.placements]}


def large_base(args: argparse.Namespace, choice: mapquery.MapChoice, opened: frozenset[str] | None, sink: Sink) -> Footprint | None:
    """The base of the large figure --size W x H with its top-left on --from, or None
    after reporting X0107 when it cannot lie there (also `questc los --size`)."""
    from compiler.geometry.graph import base_cells, base_fits

    board = choice.amap.board
    base = base_cells(args.src, args.size)
    doors = opened if opened is not None else frozenset(d.id for d in board.doors if d.open)
    if not base_fits(board, base, board.blocking_edges(doors)):
        bad = next((c for c in base if c not in board.index), None)
        why = (f"({bad[0]}, {bad[1]}) is not a space of the map" if bad is not None else
               next((f"({c[0]}, {c[1]}) is {board.rule(c).id}, which blocks movement" for c in base
                     if board.rule(c).blocks_movement), "a wall or closed door runs between its spaces"))
        sink.report("X0107", mapquery.arg_span(args, "--size"), w=args.size[0], h=args.size[1], x=args.src[0],
                    y=args.src[1], map=choice.label, why=why)
        return None
    return base


def _no_route(args: argparse.Namespace, choice: mapquery.MapChoice, sink: Sink, out: Mapping[str, object], steps: str,
              fix: str | None = None) -> int:
    """M0303 (why there is no route: stderr), and in JSON the answer all the same (exit 1)."""
    sink.report("M0303", mapquery.arg_span(args, "--to"), src=choice.amap.describe(args.src), dst=choice.amap.describe(args.dst),
                fix=fix, steps=steps)
    if args.format != "json":
        return finish(sink, args)
    sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
    mapquery.answered(sink)
    return 1


def run_large(args: argparse.Namespace, choice: mapquery.MapChoice, opened: frozenset[str] | None, sink: Sink) -> int:
    base = large_base(args, choice, opened, sink)
    if base is None:
        return mapquery.usage_error(sink, args)
    out = large_answer(choice.amap, base, args.size, args.dst, opened)
    if out["route"] is None:
        return _no_route(args, choice, sink, out, f": no {args.size[0]}x{args.size[1]} base covering it can be reached")
    if args.format == "json":
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
    else:
        route = " ".join(f"({x},{y})" for x, y in out["route"])
        fx, fy = out["counted_from"]
        lines = [f"cost {out['cost']}, {out['steps']} space(s) apart", f"counted from ({fx},{fy}); route: {route}",
                 "stands on (the players choose):"]
        lines += ["  " + " ".join(f"({x},{y})" for x, y in fp) for fp in out["placements"]]
        sys.stdout.write("\n".join(lines) + "\n")
    return mapquery.answered(sink)


def run(args: argparse.Namespace) -> int:
    result = compile_args(args, images=False, sight=False)
    sink, model = result.sink, result.model
    if model is None or sink.errors:
        return finish(sink, args)
    choice = mapquery.choose_map(args, model, sink)
    if (choice is None or not mapquery.resolve_spaces(args, choice, ("src", "dst"), sink)
            or not mapquery.check_spaces(args, choice, [("--from", args.src), ("--to", args.dst)], sink)):
        return mapquery.usage_error(sink, args)
    opened = mapquery.open_doors(args, choice, sink)
    if sink.errors:
        return mapquery.usage_error(sink, args)
    if args.flying:
        other = next((flag for flag, given in (("--size", args.size is not None), ("--safest", args.safest), ("--jump", args.jump))
                      if given), None)
        if other is not None:  # a large flier is not modelled; flying ignores what --safest and --jump weigh
            sink.report("X0112", mapquery.arg_span(args, "--flying"), given="--flying", other=other,
                        why="a flier of one space is answered; it passes over the terrain those options weigh"
                        if other != "--size" else "a large flying figure is not modelled")
            return mapquery.usage_error(sink, args)
    if args.size is not None:
        return run_large(args, choice, opened, sink)
    if args.flying:
        return run_flying(args, choice, opened, sink)
    out = answer(choice.amap, args.src, args.dst, opened, model.dice, args.safest, args.jump)
    if out["route"] is None:
        doors = out["closed_doors"]
        fix = (f"Closed door(s) {', '.join(f'`{d}`' for d in doors)} stand on the way: add "
               f"{' '.join(f'--open {d}' for d in doors)}.") if doors else None
        return _no_route(args, choice, sink, out, "" if out["steps"] is None else f" ({out['steps']} space(s) apart as range is counted)", fix)
    if args.format == "json":
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
    else:
        route = " ".join(f"({x},{y})" for x, y in out["route"])
        sys.stdout.write(f"cost {out['cost']}, {out['steps']} space(s) apart\nroute: {route}\n")
        if "jumped" in out:
            sys.stdout.write("jumps over: " + " ".join(f"({x},{y})" for x, y in out["jumped"]) + "\n")
        if "damage" in out:
            sys.stdout.write(_effects_text(out) + "\n")
    return mapquery.answered(sink)


def flying_answer(amap: AssembledMap, src: Cell, dst: Cell, open_doors: frozenset[str] | None = None) -> Routed | Unrouted:
    """The JSON answer for a flying figure: its cheapest route (geometry.templates.flying_move)
    and what the same move costs walking."""
    from compiler.geometry.graph import cheapest_move, counting_distance
    from compiler.geometry.templates import flying_move

    route = flying_move(amap.board, src, dst, open_doors)
    if route is None:
        return {"cost": None, "steps": counting_distance(amap.board, src, dst, open_doors), "route": None, "closed_doors": []}
    walking = cheapest_move(amap.board, src, dst, open_doors)
    return {"cost": route.cost, "steps": route.steps, "route": [list(c) for c in route.route], "flying": True,
            "walking_cost": walking.cost if walking is not None else None}


def run_flying(args: argparse.Namespace, choice: mapquery.MapChoice, opened: frozenset[str] | None, sink: Sink) -> int:
    out = flying_answer(choice.amap, args.src, args.dst, opened)
    if out["route"] is None:
        why = ("it may not end there: the terrain blocks movement" if choice.amap.board.rule(args.dst).blocks_movement
               else "walls or closed doors stand on every way")
        return _no_route(args, choice, sink, out, f" for a flying figure: {why}")
    if args.format == "json":
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
    else:
        route = " ".join(f"({x},{y})" for x, y in out["route"])
        walking = out.get("walking_cost")
        sys.stdout.write(f"flying: cost {out['cost']} (walking: {'no route' if walking is None else walking}), "
                         f"{out['steps']} space(s) apart\nroute: {route}\n")
    return mapquery.answered(sink)


def _effects_text(out: Routed) -> str:
    """`damage on the way: 2, burn x2; risks: dart_field at (3,4): 1 damage, daze x1 unless black_power shows surge (5/6)`."""
    certain = [str(out.get("damage", 0))] + [f"{c['condition']} x{c['tokens']}" for c in out.get("conditions", [])]
    text = "damage on the way: " + ", ".join(certain)
    risks = out.get("risks", [])
    if risks:
        text += "; risks: " + "; ".join(
            f"{r['terrain']} at ({r['space'][0]},{r['space'][1]}): {r['damage']} damage"  # type: ignore[index]
            + (f", {r['condition']} x{r['tokens']}" if r["condition"] else "")
            + f" unless {r['die']} shows {r['avoid']}" + (f" ({r['chance']})" if r["chance"] is not None else "")
            for r in risks)
        if "expected_damage" in out:
            text += f"; expected damage {out['expected_damage']}"
    return text
