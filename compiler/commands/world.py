"""questc world PACK [--from LOCATION] [--rumor-distance D | --rumor ID]: distances,
reachability, rumor places (for a distance, or for a declared rumor card).

The answer goes to stdout (human text or the JSON object documented in docs/world.md);
diagnostics go to stderr. Exit 0 answered, 1 the pack's world has errors (or none
exists), 2 usage (an unknown --from location or --world, a negative distance).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from compiler.commands.common import add_pack_arguments, compile_args

if TYPE_CHECKING:
    from compiler.diagnostics.model import Sink, Span
    from compiler.emit.shared import JSONObject
    from compiler.model import Model
    from compiler.model.world import World

CLI_FILE = "<command line>"


def configure(parser: argparse.ArgumentParser) -> None:
    add_pack_arguments(parser, many=False)
    parser.add_argument("--from", dest="location", default=None, metavar="LOCATION", help="location id where the party is (default: the world's start)")
    rumor = parser.add_mutually_exclusive_group()
    rumor.add_argument(
        "--rumor-distance", type=int, default=None, metavar="D",
        help="list the unexplored dungeon locations legal for a rumor of distance D (at least D trails away)",
    )
    rumor.add_argument(
        "--rumor", default=None, metavar="ID",
        help="place the pack's rumor card ID: list the locations legal for its distance",
    )
    parser.add_argument(
        "--explored", action="append", default=[], metavar="ID",
        help="a dungeon location already explored (repeatable); never a rumor location",
    )
    parser.add_argument("--world", default=None, metavar="ID", help="which world, if the packs define several")


def _arg_span(argv: list[str], flag: str, value: str) -> Span:
    """Locate `value` on the command line (column in the joined argv), for diagnostics;
    the line is kept as the source the diagnostic shows."""
    from compiler.diagnostics import Span
    from compiler.diagnostics.render import accept_source

    line = " ".join(argv)
    accept_source(CLI_FILE, line)
    at = -1
    for written in (f"{flag} {value}", f"{flag}={value}"):
        at = line.find(written)
        if at >= 0:
            at += len(flag) + 1
            break
    if at < 0:
        at = max(line.find(value), 0)
    return Span(CLI_FILE, 1, at + 1, 1, at + 1 + max(len(value), 1))


def _fail(sink: Sink, args: argparse.Namespace, code: int) -> int:
    from compiler.diagnostics.render import print_diagnostics

    print_diagnostics(sink, args.format)
    return code


def run(args: argparse.Namespace) -> int:
    from compiler.model.world import hint_location

    # the command line as typed (cli.main keeps it), to locate a bad argument on it
    argv = ["questc", *getattr(args, "_argv", ["world", *args.paths, *(["--from", args.location] if args.location else [])])]
    result = compile_args(args, images=False, sight=False)
    sink = result.sink
    model = result.model
    if args.rumor_distance is not None and args.rumor_distance < 0:
        sink.report("W0203", _arg_span(argv, "--rumor-distance", str(args.rumor_distance)), value=args.rumor_distance)
        return _fail(sink, args, 2)
    if model is None:
        return _fail(sink, args, 1)
    world = _world(args, argv, model, sink)
    if isinstance(world, int):
        return _fail(sink, args, world)
    if args.location is None:
        args.location = world.start
    code = _rumor_distance(args, argv, model, sink)
    if code:
        return _fail(sink, args, code)
    if args.location not in world.locations:
        hint, fix = hint_location(world, args.location)
        sink.report("W0201", _arg_span(argv, "--from", args.location), name=args.location, world=world.id, hint=hint, fix=fix)
        return _fail(sink, args, 2)
    return _answer(args, world, sink)


def _world(args: argparse.Namespace, argv: list[str], model: Model, sink: Sink) -> World | int:
    """The world asked for (--world, else the first by id), or the exit code after its
    diagnostics: none (W0202), an unknown --world (W0205), a world with errors (listed already)."""
    from compiler.model.world import hint_world

    worlds = model.worlds or {}
    if not worlds:
        sink.report("W0202", _arg_span(argv, "world", args.paths[0]), pack=model.pack.id)
        return 1
    if args.world is not None and args.world not in worlds:  # was silently the first world
        hint, fix = hint_world(worlds, args.world)
        known = "" if hint else f" (worlds: {', '.join(sorted(worlds))})"
        span = _arg_span(argv, "--world", args.world)
        sink.report("W0205", span, name=args.world, pack=model.pack.id, hint=hint or known, fix=fix)
        return 2
    world = worlds[args.world or sorted(worlds)[0]]
    if not world.ok:  # its errors are listed already: no answer from a broken map, and no second error
        return 1
    return world


def _rumor_distance(args: argparse.Namespace, argv: list[str], model: Model, sink: Sink) -> int:
    """With --rumor, set args.rumor_distance to the rumor card's distance; 0, or the exit code
    after the diagnostics: an unknown card (W0206), a card without a good distance (reported already)."""
    if args.rumor is None:
        return 0
    rumors = model.campaign.rumors if model.campaign is not None else {}
    card = rumors.get(args.rumor)
    span = _arg_span(argv, "--rumor", args.rumor)
    if card is None:
        from compiler.diagnostics.hints import did_you_mean

        guess = did_you_mean(args.rumor, rumors)
        known = f"; did you mean `{guess}`?" if guess else (f" (rumor cards: {', '.join(sorted(rumors))})" if rumors else " (the pack has no rumor cards)")
        sink.report("W0206", span, name=args.rumor, pack=model.pack.id, hint=known, fix=guess)
        return 2
    if card.decl.distance is None or card.decl.distance < 1:  # reported already (K0143, K0141)
        return 1
    args.rumor_distance = card.decl.distance
    return 0


def _answer(args: argparse.Namespace, world: World, sink: Sink) -> int:
    """Print the answer from --from (any diagnostics first, on stderr); the exit code they give."""
    from compiler.diagnostics.render import exit_code
    from compiler.emit import worlds as WE

    answer = WE.query(world, args.location, args.rumor_distance, explored=args.explored)
    if args.rumor is not None:
        answer["rumor"] = {"id": args.rumor, "distance": args.rumor_distance}
    if sink.items:  # warnings (or errors elsewhere in the packs): shown, but the world answers
        from compiler.diagnostics.render import print_diagnostics

        print_diagnostics(sink, "human", stream=sys.stderr)
    if args.format == "json":
        sys.stdout.write(json.dumps(answer, indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render_answer(world, answer, args.rumor_distance, args.rumor))
    return exit_code(sink, args.strict)


def render_answer(world: World, answer: JSONObject, rumor_distance: int | None, rumor: str | None = None) -> str:
    """The human form: locations grouped by distance, then what upgrades change, then rumors."""
    from compiler.diagnostics.render import visible  # names are source text: no raw control characters

    names = {i: visible(loc.name) for i, loc in world.locations.items()}
    src = answer["from"]
    out = [f"From {names[src]} ({src}) in {visible(world.name)}: fewest trails, every trail type"]
    by_dist: dict[int, list[str]] = {}
    for loc, d in answer["distances"].items():
        by_dist.setdefault(d, []).append(loc)
    for d in sorted(by_dist):
        if d == 0:
            continue
        out.append(f"  {d}: " + ", ".join(f"{names[i]} ({world.locations[i].kind})" for i in sorted(by_dist[d])))
    everywhere = set(answer["distances"])
    for upgrade, label in (("magic_boat", "the Magic Boat"), ("keraks_map", "Kerak's Map")):
        lost = sorted(everywhere - set(answer["reachable_without"][upgrade]))
        out.append(f"Without {label}: " + ("everything above is still reachable" if not lost else "cannot reach " + ", ".join(names[i] for i in lost)))
    if rumor_distance is not None:
        legal = answer["rumor_locations"]
        what = f"The rumor `{visible(rumor)}` (distance {rumor_distance})" if rumor else f"A rumor of distance {rumor_distance}"
        out.append(
            f"{what} may go to {len(legal)} unexplored dungeon location(s): "
            + (", ".join(names[i] for i in legal) if legal else "none")
        )
    return "\n".join(out) + "\n"
