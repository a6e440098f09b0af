"""The monsters pass: the merged monster catalog read into typed monsters, after the dice pass."""

from __future__ import annotations

from compiler.catalogs.monsters import read_monsters
from compiler.diagnostics import Sink
from compiler.model import Model


def monsters_pass(model: Model, sink: Sink) -> Model:
    dice = model.dice if model.dice is not None else model.catalogs.get("dice") or {}
    return model.with_(monsters=read_monsters(model.catalogs.get("monsters") or {}, dice, sink))
