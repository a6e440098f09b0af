"""questc tiles / monsters / terrain: the library at hand (docs/library.md).

    questc tiles [CODE…] [--pack P…] [--format text|json] [--png FILE]
    questc monsters [ID…] [--pack P…] [--format text|json]
    questc terrain [ID…] [--pack P…] [--format text|json]

The packs are read only up to their catalogs (their quest files are not parsed), so a
listing is quick and a pack whose quests have errors can still be listed; an error in a
catalog itself is reported and the listing stops (exit 1). An id that is not in the
catalogs is X0106 (exit 2). The text comes from compiler/emit/library.py, the same
functions the language server's hovers use.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Callable, Mapping, TypeAlias, TypeVar

from compiler.diagnostics import Sink

if TYPE_CHECKING:
    from compiler.catalogs.monsters import Monster
    from compiler.catalogs.terrain import TerrainRule
    from compiler.geometry.tiles import Tile
    from compiler.model import Model

V = TypeVar("V")

KINDS = {"tiles": "tile", "monsters": "monster", "terrain": "terrain"}


def configure_for(kind: str) -> Callable[[argparse.ArgumentParser], None]:
    def configure(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("ids", nargs="*", metavar="ID", help=f"only these {kind} (default: all)")
        parser.add_argument("--pack", action="append", default=None, metavar="P",
                            help="a pack folder or shipped pack id, with the packs it requires (repeatable; default: every shipped pack)")
        parser.add_argument("--pack-path", action="append", default=[], metavar="DIR", help="another folder to find required packs in (repeatable; also QUESTC_PATH)")
        parser.add_argument("--format", choices=("text", "json"), default="text", help="text (default) or JSON")
        if kind == "tiles":
            parser.add_argument("--png", metavar="FILE", help="also draw the tiles listed as one contact sheet, openings numbered")
            parser.add_argument("--scale", type=int, default=32, help="pixels per square of --png (8..256, default 32)")

    return configure


def entries(kind: str, pick: Callable[[Model], Mapping[str, V] | None], packs: list[str], pack_path: tuple[str, ...],
            sink: Sink) -> tuple[dict[str, V], dict[str, str], dict[str, TerrainRule]]:
    """(id -> value, id -> pack id, terrain rules) over the packs given and what they require;
    `pick` is the model's field of `kind`. An id that packs of separate trees each define
    (core-1e's and core-2e's `water`: one blocks movement, the other costs 2) is listed once
    per pack: the first under its id, each other under `ID@PACK` (shown as the id and its
    pack). It was the first read only, so `questc terrain water` gave a 2nd-edition designer
    the 1st edition's water."""
    from compiler.options import Options
    from compiler.pipeline import compile_paths

    result = compile_paths(packs, Options(images=False, sight=False, quests=False, pack_path=pack_path), sink)
    values: dict[str, V] = {}
    owner: dict[str, str] = {}
    rules: dict[str, TerrainRule] = {}
    for model in result.models:
        field = pick(model) or {}
        catalog = model.catalogs.get(kind) or {}
        for i, v in field.items():
            pack = getattr(catalog.get(i), "pack", "")
            if i not in values:
                values[i] = v
                owner[i] = pack
            elif owner[i] != pack and f"{i}@{pack}" not in values:
                values[f"{i}@{pack}"] = v
                owner[f"{i}@{pack}"] = pack
        rules.update(model.terrain or {})
    return values, owner, rules


def run_for(kind: str, args: argparse.Namespace) -> int:
    if kind == "tiles":
        return _run(kind, args, lambda model: model.tiles, _show_tiles)
    if kind == "monsters":
        return _run(kind, args, lambda model: model.monsters, _show_monsters)
    return _run(kind, args, lambda model: model.terrain, _show_terrain)


# what a listing writes: (values, the ids wanted, id -> pack id, terrain rules, args, sink) -> exit code
Show: TypeAlias = "Callable[[dict[str, V], list[str], dict[str, str], dict[str, TerrainRule], argparse.Namespace, Sink], int]"


def _run(kind: str, args: argparse.Namespace, pick: Callable[[Model], Mapping[str, V] | None], show: Show[V]) -> int:
    from compiler.diagnostics.hints import hint
    from compiler.diagnostics.render import exit_code, print_diagnostics
    from compiler.emit import library as lib
    from compiler.resources import content_dir

    sink = Sink()
    packs = args.pack or [str(content_dir())]
    values, owner, rules = entries(kind, pick, packs, tuple(args.pack_path), sink)
    if sink.errors:
        print_diagnostics(sink, "json" if args.format == "json" else "human")
        return exit_code(sink, False)
    asked = list(dict.fromkeys(args.ids))
    others = {i: sorted((k for k in values if k.startswith(f"{i}@")), key=lib.natural_key) for i in asked}
    wanted = [k for i in asked for k in (i, *others[i])] or sorted(values, key=lib.natural_key)
    from compiler.commands.mapquery import arg_span

    missing = [i for i in asked if i not in values]
    for i in missing:
        where = "the packs " + ", ".join(f"`{p}`" for p in args.pack) if args.pack else "the shipped packs"
        sink.report("X0106", arg_span(args, i), kind=KINDS[kind], id=i, where=where, hint=hint(i, [k for k in values if "@" not in k]))
    if missing:
        print_diagnostics(sink, "json" if args.format == "json" else "human")
        return 2
    code = show(values, wanted, owner, rules, args, sink)
    if code:
        return code
    if sink.items:
        print_diagnostics(sink, "human", stream=sys.stderr)
    return 0


def _show_tiles(values: dict[str, Tile], wanted: list[str], owner: dict[str, str], rules: dict[str, TerrainRule],
                args: argparse.Namespace, sink: Sink) -> int:
    from compiler.emit import library as lib

    out = sys.stdout
    faces = lib.faces(values)
    if args.format == "json":
        out.write(json.dumps([lib.tile_json(values[i], faces[i], owner[i]) for i in wanted], indent=1, sort_keys=True) + "\n")
    else:
        out.write("\n\n".join(lib.tile_plain(values[i], faces[i], owner[i]) for i in wanted) + "\n")
    if args.png:
        return tile_sheet(values, wanted, rules, args, sink)
    return 0


def _show_monsters(values: dict[str, Monster], wanted: list[str], owner: dict[str, str], rules: dict[str, TerrainRule],
                   args: argparse.Namespace, sink: Sink) -> int:
    from compiler.emit import library as lib

    out = sys.stdout
    if args.format == "json":
        out.write(json.dumps([lib.monster_json(values[i]) for i in wanted], indent=1, sort_keys=True) + "\n")
    else:
        out.write("\n".join(lib.monster_plain(values[i]) for i in wanted) + "\n")
    return 0


def _show_terrain(values: dict[str, TerrainRule], wanted: list[str], owner: dict[str, str], rules: dict[str, TerrainRule],
                  args: argparse.Namespace, sink: Sink) -> int:
    from compiler.emit import library as lib

    out = sys.stdout
    if args.format == "json":
        out.write(json.dumps([lib.terrain_json(values[i], owner[i]) for i in wanted], indent=1, sort_keys=True) + "\n")
    else:
        out.write("\n".join(lib.terrain_plain(values[i], owner[i]) for i in wanted) + "\n")
    return 0


def tile_sheet(tiles: Mapping[str, Tile], wanted: list[str], rules: Mapping[str, TerrainRule], args: argparse.Namespace, sink: Sink) -> int:
    from compiler.catalogs.terrain import PLAIN
    from compiler.commands.mapquery import option_span
    from compiler.diagnostics.render import print_diagnostics
    from compiler.emit.images.outputs import tile_card
    from compiler.emit.images.pictures import TileSheet
    from compiler.emit.images.primitives import save_png
    from compiler.emit.images.sheet import render_tile_sheet

    rules = {"plain": PLAIN, **rules}
    symbols = {r.symbol: tid for tid, r in sorted(rules.items())}
    sheet = TileSheet(tuple(tile_card(tiles[i], symbols, numbered=True) for i in wanted), rules, "tiles")
    try:
        save_png(render_tile_sheet(sheet, scale=min(256, max(8, args.scale))), args.png)
    except OSError as exc:
        sink.report("G0105", option_span(args, args.png, "--png"), path=args.png, problem=exc.strerror or str(exc))
        print_diagnostics(sink, "human")
        return 1
    return 0
