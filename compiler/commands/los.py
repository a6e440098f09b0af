"""questc los PACK --quest ID [--encounter N] [--from X,Y --to X,Y] [--block X,Y …]: line of sight.

With a pair: whether a figure in --from sees --to, and one clear segment (its two corners)
when there is one; `--format json` prints
`{"quest", "encounter", "from", "to", "sight": bool, "segment": [[x1, y1], [x2, y2]] | null,
"reason": "segment" | "adjacent" | "stairs" | null}`.
Without a pair: the whole table as JSON,
`{"quest": ID, "spaces": [[x, y], …], "pairs": [[i, j], …]}` — every unordered pair i < j of
spaces (indices into `spaces`, sorted by y then x) that see each other.
With `--size WxH` the looking figure is large: its base lies W x H with its top-left space
on --from (a base that cannot lie there is X0107, as for `questc path --size`), and it sees
what any space of its base sees, its own spaces never blocking (docs/rules.md, "Line of
sight", clause 7). With --to the pair answer gains `"size"`, `"base"` and `"seen_from"`
(the first space of the base, in (y, x) order, that sees --to; the segment starts at one
of its corners); without --to it prints
`{"quest", "encounter", "size", "base", "sees": [[x, y], …]}`, every space the figure sees.
With `--soar` (1st edition, an outdoor encounter: one of the two figures soars) and
`--shadowcloak` (the figure on --to has Shadowcloak; it also has it standing on terrain
that grants it, trees and giant mushrooms) the pair answer gains `steps` (the counted
range), and with --soar `range` (what an attack between them needs: steps + 4) and
`melee: false` (a soaring figure is not a melee target unless it swoops); with Shadowcloak
`shadowcloak: true` and `attackable` (only an adjacent attacker affects it) — docs/rules.md,
"Flying, Soar and Shadowcloak".
--block puts a figure (a sight blocker) on a space; --open opens a door. Coordinates are world
coordinates of the assembled map. Exit 0 answered; 1 the pack has errors; 2 a bad argument
(mapquery's X01xx codes: unknown quest or encounter, a space off the map, an unknown door,
one of --from/--to alone). Malformed coordinates are rejected by the argument parser (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TypedDict

from compiler.commands import mapquery
from compiler.commands.common import compile_args, finish

if TYPE_CHECKING:
    from compiler.geometry.board import Board
    from compiler.geometry.lattice import Cell


class TableAnswer(TypedDict):
    quest: str
    spaces: list[list[int]]
    pairs: list[list[int]]


# "from" is a keyword: the functional form
PairAnswer = TypedDict("PairAnswer", {
    "quest": str,
    "encounter": int | None,  # None for a top-level encounter
    "from": list[int],
    "to": list[int],
    "sight": bool,
    "segment": list[list[int]] | None,
    "reason": str | None,  # None exactly when there is no sight
})


def configure(parser: argparse.ArgumentParser) -> None:
    mapquery.add_map_arguments(parser)
    parser.add_argument("--from", dest="src", type=mapquery.point, default=None, metavar="X,Y", help="the looking figure's space")
    parser.add_argument("--to", dest="dst", type=mapquery.point, default=None, metavar="X,Y", help="the space looked at")
    parser.add_argument("--block", action="append", type=mapquery.point, default=[], metavar="X,Y",
                        help="a figure blocking sight on this space (repeatable)")
    parser.add_argument("--size", type=_size, default=None, metavar="WxH",
                        help="a large figure looks: its base is W x H with its top-left on --from (then --to may be left out)")
    parser.add_argument("--soar", action="store_true",
                        help="1st edition, outdoors: one of the two figures soars (range to or from it +4; no melee)")
    parser.add_argument("--shadowcloak", action="store_true",
                        help="the figure on --to has Shadowcloak: only an adjacent attacker affects it")


def _size(text: str) -> tuple[int, int]:
    from compiler.commands.path import _size as path_size

    return path_size(text)


LargePair = TypedDict("LargePair", {
    "quest": str,
    "encounter": int | None,
    "from": list[int],  # the top-left space of the base
    "to": list[int],
    "sight": bool,
    "segment": list[list[int]] | None,
    "reason": str | None,
    "size": list[int],
    "base": list[list[int]],
    "seen_from": list[int] | None,  # the space of the base the segment starts at
})


class LargeSees(TypedDict):
    """What a large figure sees (no --to)."""

    quest: str
    encounter: int | None
    size: list[int]
    base: list[list[int]]
    sees: list[list[int]]


def large_sees_json(quest: str, number: int | None, board: Board, base: tuple[Cell, ...], size: tuple[int, int], *,
                    blockers: frozenset[Cell] = frozenset(), open_doors: frozenset[str] | None = None) -> LargeSees:
    """Every space a large figure on `base` sees (SightEngine.can_see_large), in (y, x) order."""
    import numpy as np

    from compiler.geometry.sight import SightEngine

    engine = SightEngine(board)
    rest = blockers - set(base)
    table = engine.table(blockers=rest, open_doors=open_doors).matrix
    rows = [board.index[c] for c in base]
    seen: list[bool] = np.any(table[rows], axis=0).tolist()
    return {"quest": quest, "encounter": number, "size": list(size), "base": [list(c) for c in base],
            "sees": [list(c) for c, yes in zip(board.spaces, seen) if yes]}


def large_pair_json(quest: str, number: int | None, board: Board, base: tuple[Cell, ...], size: tuple[int, int], dst: Cell, *,
                    blockers: frozenset[Cell] = frozenset(), open_doors: frozenset[str] | None = None) -> LargePair:
    """The one-pair answer for a large figure: `pair_json` from the first space of its base
    that sees `dst`, with its own spaces (and `dst`) never blocking."""
    from compiler.geometry.sight import SightEngine

    rest = blockers - set(base) - {dst}
    engine = SightEngine(board)
    start = next((c for c in sorted(base, key=lambda c: (c[1], c[0]))
                  if engine.can_see(c, dst, blockers=rest, open_doors=open_doors)), None)
    pair = pair_json(quest, number, board, start if start is not None else base[0], dst, blockers=rest, open_doors=open_doors)
    return {
        "quest": quest,
        "encounter": number,
        "from": list(base[0]),
        "to": list(dst),
        "sight": start is not None,
        "segment": pair["segment"] if start is not None else None,
        "reason": pair["reason"] if start is not None else None,
        "size": list(size),
        "base": [list(c) for c in base],
        "seen_from": list(start) if start is not None else None,
    }


def table_json(quest: str, board: Board, *, blockers: frozenset[Cell] = frozenset(), open_doors: frozenset[str] | None = None) -> TableAnswer:
    """The whole-table answer for one board."""
    from compiler.geometry.sight import SightEngine

    table = SightEngine(board).table(blockers=blockers, open_doors=open_doors)
    return {
        "quest": quest,
        "spaces": [[x, y] for x, y in board.spaces],
        "pairs": [[i, j] for i, j in table.pairs()],
    }


def pair_json(quest: str, number: int | None, board: Board, src: Cell, dst: Cell, *,
              blockers: frozenset[Cell] = frozenset(), open_doors: frozenset[str] | None = None) -> PairAnswer:
    """The one-pair answer."""
    from compiler.geometry.sight import SightEngine

    w = SightEngine(board).witness(src, dst, blockers=blockers, open_doors=open_doors)
    segment = [list(w[0]), list(w[1])] if isinstance(w, tuple) else None
    reason = "segment" if isinstance(w, tuple) else w  # None without sight
    return {
        "quest": quest,
        "encounter": number,
        "from": list(src),
        "to": list(dst),
        "sight": w is not None,
        "segment": segment,
        "reason": reason,
    }


def boards_of_pack(path: str) -> list[tuple[str, Board]]:
    """(name, Board) of every assembled quest map of one pack (used by bench.sight)."""
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths([path], Options(images=False, sight=False))
    out: list[tuple[str, Board]] = []
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
    if args.size is not None:
        if not mapquery.requires(args, sink, "--size", args.size, "--from", args.src):
            return mapquery.usage_error(sink, args)
    elif not (mapquery.requires(args, sink, "--from", args.src, "--to", args.dst)
              and mapquery.requires(args, sink, "--to", args.dst, "--from", args.src)):
        return mapquery.usage_error(sink, args)
    for flag, given in (("--soar", args.soar), ("--shadowcloak", args.shadowcloak)):
        if not given:
            continue
        if args.size is not None:  # the answer for a large looker has no range to add to
            sink.report("X0112", mapquery.arg_span(args, flag), given=flag, other="--size",
                        why="Soar and Shadowcloak are answered for a pair of one-space figures")
        elif not mapquery.requires(args, sink, flag, True, "--to", args.dst):
            break
    if sink.errors:
        return mapquery.usage_error(sink, args)
    choice = mapquery.choose_map(args, model, sink)
    if choice is None:
        return mapquery.usage_error(sink, args)
    if not mapquery.resolve_spaces(args, choice, ("src", "dst", "block"), sink):
        return mapquery.usage_error(sink, args)
    named = [("--from", args.src), ("--to", args.dst)] + [("--block", c) for c in args.block]
    mapquery.check_spaces(args, choice, named, sink)
    opened = mapquery.open_doors(args, choice, sink)
    if sink.errors:
        return mapquery.usage_error(sink, args)
    board, blockers = choice.amap.board, frozenset(args.block)
    if args.size is not None:
        from compiler.commands.path import large_base

        base = large_base(args, choice, opened, sink)
        if base is None:
            return mapquery.usage_error(sink, args)
        if args.dst is None:
            sees = large_sees_json(args.quest, choice.number, board, base, args.size, blockers=blockers, open_doors=opened)
            sys.stdout.write(json.dumps(sees, separators=(",", ":")) + "\n")
        else:
            large = large_pair_json(args.quest, choice.number, board, base, args.size, args.dst, blockers=blockers, open_doors=opened)
            sys.stdout.write(json.dumps(large, sort_keys=True) + "\n" if args.format == "json" else render_large(large))
        return mapquery.answered(sink)
    if args.src is None:
        table = table_json(args.quest, board, blockers=blockers, open_doors=opened)
        sys.stdout.write(json.dumps(table, separators=(",", ":")) + "\n")
    else:
        pair = pair_json(args.quest, choice.number, board, args.src, args.dst, blockers=blockers, open_doors=opened)
        extra = ability_keys(board, args.src, args.dst, opened, args.soar, args.shadowcloak)
        if args.format == "json":
            sys.stdout.write(json.dumps({**pair, **extra}, sort_keys=True) + "\n")
        else:
            sys.stdout.write(render_pair(pair) + render_abilities(extra))
    return mapquery.answered(sink)


def ability_keys(board: Board, src: Cell, dst: Cell, open_doors: frozenset[str] | None, soar: bool, cloak: bool) -> dict[str, object]:
    """What Soar and Shadowcloak add to a pair answer (empty when neither applies)."""
    from compiler.geometry.graph import counting_distance
    from compiler.geometry.templates import shadowcloaked, soar_range

    cloaked = cloak or shadowcloaked(board, (dst,))
    if not (soar or cloaked):
        return {}
    steps = counting_distance(board, src, dst, open_doors)
    out: dict[str, object] = {"steps": steps}
    if soar:
        out["range"] = soar_range(steps) if steps is not None else None
        out["melee"] = False
    if cloaked:
        out["shadowcloak"] = True
        out["attackable"] = steps is not None and steps <= 1
    return out


def render_abilities(extra: dict[str, object]) -> str:
    lines = []
    if "range" in extra:
        lines.append(f"soaring: an attack needs range {extra['range']} ({extra['steps']} space(s) + 4); no melee attack unless it swoops")
    if extra.get("shadowcloak"):
        lines.append("shadowcloak: " + ("attackable (adjacent)" if extra["attackable"] else "not affected: only adjacent attackers affect it"))
    return "".join(line + "\n" for line in lines)


def render_pair(out: PairAnswer) -> str:
    (fx, fy), (tx, ty) = out["from"], out["to"]
    head = f"({fx},{fy}) -> ({tx},{ty}): "
    reason = out["reason"]
    if not out["sight"] or reason is None:  # pair_json gives a reason exactly when there is sight
        return head + "no line of sight\n"
    if out["segment"]:
        (x1, y1), (x2, y2) = out["segment"]
        return head + f"line of sight; clear segment from corner ({x1},{y1}) to corner ({x2},{y2})\n"
    return head + {"adjacent": "line of sight (adjacent)", "stairs": "line of sight (through the stairs)"}[reason] + "\n"


def render_large(out: LargePair) -> str:
    w, h = out["size"]
    (fx, fy), (tx, ty) = out["from"], out["to"]
    head = f"{w}x{h} figure on ({fx},{fy}) -> ({tx},{ty}): "
    seen_from = out["seen_from"]
    if not out["sight"] or seen_from is None:
        return head + "no line of sight from any space of its base\n"
    sx, sy = seen_from
    if out["segment"]:
        (x1, y1), (x2, y2) = out["segment"]
        return head + f"line of sight from ({sx},{sy}); clear segment from corner ({x1},{y1}) to corner ({x2},{y2})\n"
    return head + f"line of sight from ({sx},{sy}) ({out['reason']})\n"
