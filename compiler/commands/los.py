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
(mapquery's X01xx codes: unknown quest or encounter, a space off the map, an unknown door,
one of --from/--to alone). Malformed coordinates are rejected by the argument parser (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys

from compiler.commands import mapquery
from compiler.commands.common import compile_args, finish


def configure(parser: argparse.ArgumentParser) -> None:
    mapquery.add_map_arguments(parser)
    parser.add_argument("--from", dest="src", type=mapquery.point, default=None, metavar="X,Y", help="the looking figure's space")
    parser.add_argument("--to", dest="dst", type=mapquery.point, default=None, metavar="X,Y", help="the space looked at")
    parser.add_argument("--block", action="append", type=mapquery.point, default=[], metavar="X,Y",
                        help="a figure blocking sight on this space (repeatable)")


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
        quests = model.maps.quests if model.maps is not None else {}
        for qid in sorted(quests):
            for number in sorted(quests[qid]):
                out.append((f"{qid} encounter {number}", quests[qid][number].board))
    return out


def run(args: argparse.Namespace) -> int:
    result = compile_args(args, images=False, sight=False)
    sink, model = result.sink, result.model
    if model is None or sink.errors:
        return finish(sink, args)
    if not (mapquery.requires(args, sink, "--from", args.src, "--to", args.dst)
            and mapquery.requires(args, sink, "--to", args.dst, "--from", args.src)):
        return mapquery.usage_error(sink, args)
    choice = mapquery.choose_map(args, model, sink)
    if choice is None:
        return mapquery.usage_error(sink, args)
    named = [("--from", args.src), ("--to", args.dst)] + [("--block", c) for c in args.block]
    mapquery.check_spaces(args, choice, named, sink)
    opened = mapquery.open_doors(args, choice, sink)
    if sink.errors:
        return mapquery.usage_error(sink, args)
    board, blockers = choice.amap.board, frozenset(args.block)
    if args.src is None:
        out = table_json(args.quest, board, blockers=blockers, open_doors=opened)
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
    else:
        out = pair_json(args.quest, choice.number, board, args.src, args.dst, blockers=blockers, open_doors=opened)
        sys.stdout.write(json.dumps(out, sort_keys=True) + "\n" if args.format == "json" else render_pair(out))
    return mapquery.answered(sink)


def render_pair(out: dict) -> str:
    (fx, fy), (tx, ty) = out["from"], out["to"]
    head = f"({fx},{fy}) -> ({tx},{ty}): "
    if not out["sight"]:
        return head + "no line of sight\n"
    if out["segment"]:
        (x1, y1), (x2, y2) = out["segment"]
        return head + f"line of sight; clear segment from corner ({x1},{y1}) to corner ({x2},{y2})\n"
    return head + {"adjacent": "line of sight (adjacent)", "stairs": "line of sight (through the stairs)"}[out["reason"]] + "\n"
