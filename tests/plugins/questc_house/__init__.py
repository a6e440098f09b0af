"""A house rule as a questc plugin: "no map of this campaign uses more than eight tiles".

Brings a pass (HR0101), an exporter (`questc export tile-count PACK -o DIR`: a CSV of
tiles per map) and a command (`questc house-tiles PACK`). Used by tests/test_plugins.py.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from compiler.plugins.api import Command, Exporter, Plugin, PluginPass

LIMIT = 8


def _maps(model):
    """(quest id, encounter number, MapBlock) of every map the pack's quests write."""
    for quest_id, decl in sorted(((model.symbols or {}).get("quest") or {}).items()):
        for enc in decl.encounters:
            if enc.body.map is not None:
                yield quest_id, enc.number, enc.body.map


def tile_limit_pass(model, sink):
    """HR0101 at each map block with more than LIMIT tiles."""
    for quest_id, number, block in _maps(model):
        if len(block.tiles) > LIMIT:
            sink.report("HR0101", block.span, quest=quest_id, number=number, count=len(block.tiles), limit=LIMIT)
    return model


def export_counts(model, args, sink):
    rows = ["quest,encounter,tiles"] + [f"{q},{n},{len(b.tiles)}" for q, n, b in _maps(model)]
    return {"tile-count.csv": "\n".join(rows) + "\n"}


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("pack", metavar="PACK")


def _house_tiles(args) -> int:
    from compiler.plugins.api import Options, compile_paths

    result = compile_paths([args.pack], Options())
    for q, n, b in _maps(result.model):
        print(f"{q} {n}: {len(b.tiles)} tiles")
    return 0


plugin = Plugin(
    prefix="HR",
    api="1.0",  # the plugin API version it is written against (docs/plugins.md)
    codes=Path(__file__).with_name("codes.yaml"),
    passes=(PluginPass("tile_limit", tile_limit_pass, needs=("quest",)),),
    exporters=(Exporter("tile-count", ("csv",), "tiles used by each map, as CSV", export_counts),),
    commands=(Command("house-tiles", "print how many tiles each map uses", _configure, _house_tiles),),
    description="house rules of a test campaign",
)
