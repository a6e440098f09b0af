"""questc los PACK --quest ID [--encounter N] [--from X,Y --to X,Y] [--block X,Y …]: line of sight.

With a pair: whether a figure in --from sees --to, and one clear segment (its two corners)
when there is one; `--format json` prints
`{"quest", "encounter", "from", "to", "sight": bool, "segment": [[x1, y1], [x2, y2]] | null,
"reason": "segment" | "adjacent" | "stairs" | null}`.
Without a pair: the whole table as JSON,
`{"quest": ID, "spaces": [[x, y], …], "pairs": [[i, j], …]}` — every unordered pair i < j of
spaces (indices into `spaces`, sorted by y then x) that see each other.
--block puts a figure (a sight blocker) on a space; --open opens a door. Coordinates are world
coordinates of the assembled map. Exit 0 answered; 1 the pack has errors; 2 a bad argument
(unknown quest or encounter, a space off the map, one of --from/--to alone). Malformed
coordinates are rejected by the argument parser (exit 2).
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
    parser.add_argument("--from", dest="src", type=_point, default=None, metavar="X,Y", help="the looking figure's space")
    parser.add_argument("--to", dest="dst", type=_point, default=None, metavar="X,Y", help="the space looked at")
    parser.add_argument("--block", action="append", type=_point, default=[], metavar="X,Y",
                        help="a figure blocking sight on this space (repeatable)")
    parser.add_argument("--open", dest="open_doors", action="append", default=None, metavar="DOOR",
                        help="treat this door as open (repeatable; default: doors as at the start)")


def _span(argv_text: str, needle: str) -> Span:
    at = argv_text.find(needle)
    at = max(at, 0)
    return Span(CLI, 1, at + 1, 1, at + 1 + max(len(needle), 1))


def table_json(quest: str, board, *, blockers=frozenset(), open_doors=None) -> dict:
    """The whole-table answer for one board."""
    from compiler.geometry.sight import SightEngine

    table = SightEngine(board).table(blockers=blockers, open_doors=open_doors)
    return {
        "quest": quest,
        "spaces": [[x, y] for x, y in board.spaces],
        "pairs": [[i, j] for i, j in table.pairs()],
    }


def pair_json(quest: str, number: int, board, src, dst, *, blockers=frozenset(), open_doors=None) -> dict:
    """The one-pair answer."""
    from compiler.geometry.sight import SightEngine

    w = SightEngine(board).witness(src, dst, blockers=blockers, open_doors=open_doors)
    segment = [list(w[0]), list(w[1])] if isinstance(w, tuple) else None
    return {
        "quest": quest,
        "encounter": number,
        "from": list(src),
        "to": list(dst),
        "sight": w is not None,
        "segment": segment,
        "reason": None if w is None else ("segment" if segment else w),
    }


def boards_of_pack(path: str) -> list[tuple[str, object]]:
    """(name, Board) of every assembled quest map of one pack (used by bench.sight)."""
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([path], Options(images=False, sight=False))
    out = []
    for model in result.models:
        quests = (model.section("maps") or {}).get("quests", {})
        for qid in sorted(quests):
            for number in sorted(quests[qid]):
                out.append((f"{qid} encounter {number}", quests[qid][number].board))
    return out


def run(args: argparse.Namespace) -> int:
    from compiler.diagnostics.render import exit_code, print_diagnostics

    result = compile_args(args, images=False, sight=False)
    sink = result.sink
    model = result.model
    argv_text = " ".join(
        ["questc", "los", *args.paths, "--quest", args.quest]
        + (["--encounter", str(args.encounter)] if args.encounter is not None else [])
        + (["--from", "{},{}".format(*args.src)] if args.src else [])
        + (["--to", "{},{}".format(*args.dst)] if args.dst else [])
        + [f"--block {x},{y}" for x, y in args.block]
        + [f"--open {d}" for d in args.open_doors or []]
    )

    def fail(code: int) -> int:
        print_diagnostics(sink, args.format)
        return code

    if model is None or sink.errors:
        return fail(1)
    if (args.src is None) != (args.dst is None):
        sink.report("L0104", _span(argv_text, "--from" if args.src else "--to"))
        return fail(2)
    quests = (model.section("maps") or {}).get("quests", {})
    if args.quest not in quests:
        import difflib

        close = difflib.get_close_matches(args.quest, sorted(quests), n=1)
        hint = f"; did you mean `{close[0]}`?" if close else ""
        sink.report("L0101", _span(argv_text, args.quest), quest=args.quest, pack=model.pack.id, hint=hint)
        return fail(2)
    encounters = quests[args.quest]
    number = args.encounter if args.encounter is not None else min(encounters, default=1)
    if number not in encounters:
        sink.report(
            "L0102", _span(argv_text, f"--encounter {number}"), quest=args.quest, number=number,
            have=", ".join(str(k) for k in sorted(encounters)) or "none",
        )
        return fail(2)
    board = encounters[number].board
    cells = set(board.spaces)
    xs = [c[0] for c in board.spaces] or [0]
    ys = [c[1] for c in board.spaces] or [0]
    extent = f" (the map spans x {min(xs)}..{max(xs)}, y {min(ys)}..{max(ys)})"
    checks = [("--from", args.src), ("--to", args.dst)] + [("--block", c) for c in args.block]
    for flag, c in checks:
        if c is not None and c not in cells:
            inside = min(xs) <= c[0] <= max(xs) and min(ys) <= c[1] <= max(ys)
            hint = ": no square there" if inside else extent
            sink.report("L0103", _span(argv_text, f"{flag} {c[0]},{c[1]}"), flag=flag, x=c[0], y=c[1],
                        quest=args.quest, number=number, hint=hint)
    door_ids = sorted(d.id for d in board.doors)
    opened = None
    if args.open_doors is not None:
        for d in args.open_doors:
            if d not in door_ids:
                hint = f" (doors: {', '.join(door_ids)})" if door_ids else " (it has no doors)"
                sink.report("L0105", _span(argv_text, f"--open {d}"), door=d, quest=args.quest, number=number, hint=hint)
        opened = frozenset(args.open_doors) | frozenset(d.id for d in board.doors if d.open)
    if sink.errors:
        return fail(2)
    blockers = frozenset(args.block)
    if sink.items:
        print_diagnostics(sink, "human", stream=sys.stderr)
    if args.src is None:
        out = table_json(args.quest, board, blockers=blockers, open_doors=opened)
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        return exit_code(sink, args.strict)
    out = pair_json(args.quest, number, board, args.src, args.dst, blockers=blockers, open_doors=opened)
    if args.format == "json":
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n")
    else:
        sys.stdout.write(render_pair(out))
    return exit_code(sink, args.strict)


def render_pair(out: dict) -> str:
    (fx, fy), (tx, ty) = out["from"], out["to"]
    head = f"({fx},{fy}) -> ({tx},{ty}): "
    if not out["sight"]:
        return head + "no line of sight\n"
    if out["segment"]:
        (x1, y1), (x2, y2) = out["segment"]
        return head + f"line of sight; clear segment from corner ({x1},{y1}) to corner ({x2},{y2})\n"
    return head + {"adjacent": "line of sight (adjacent)", "stairs": "line of sight (through the stairs)"}[out["reason"]] + "\n"
