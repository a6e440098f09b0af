"""The terrain pass: the merged terrain catalog read into rules (compiler/catalogs/terrain.py).

It runs after the dice pass so that a terrain's `on_enter.roll` die is checked against
the loaded dice.
"""

from __future__ import annotations

from compiler.catalogs.terrain import read_terrain
from compiler.diagnostics import Sink
from compiler.model import Model


def terrain_pass(model: Model, sink: Sink) -> Model:
    dice = model.dice if model.dice is not None else model.catalogs.get("dice") or {}
    return model.with_(terrain=read_terrain(model.catalogs.get("terrain") or {}, sink, dice=dice))
