"""The catalog sections of the bundle in their resolved form: every field explicit.

A front end reads terrain and tiles as the compiler understood them — defaults filled
in, grids split into rows, openings numbered — never the YAML shorthand.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Mapping

from compiler.emit.shared import JSONObject

if TYPE_CHECKING:
    from compiler.catalogs.terrain import TerrainRule
    from compiler.geometry.tiles import Tile


def terrain_json(rules: Mapping[str, TerrainRule]) -> JSONObject:
    return {tid: {k: v for k, v in dataclasses.asdict(rule).items() if k != "id"} for tid, rule in sorted(rules.items())}


def tile_json(tile: Tile) -> JSONObject:
    out: JSONObject = {
        "kind": tile.kind,
        "piece": tile.piece,
        "copies": tile.copies,
        "width": tile.width,
        "height": tile.height,
        "grid": list(tile.grid),
        "openings": [
            {"ref": op.label, "side": side, "index": op.index, "offset": op.offset, "width": op.width}
            for side in ("north", "east", "south", "west")
            for op in tile.openings.get(side, ())
        ],
        "walls": [[list(p), list(q)] for p, q in sorted(tile.walls)],
    }
    if tile.name:
        out["name"] = tile.name
    if tile.source:
        out["source"] = tile.source
    return out
