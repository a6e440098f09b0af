"""The dice pass: the merged dice catalog read into typed dice."""

from __future__ import annotations

from compiler.catalogs.dice import read_dice
from compiler.diagnostics import Sink
from compiler.model import Model


def dice_pass(model: Model, sink: Sink) -> Model:
    return model.with_(dice=read_dice(model.catalogs.get("dice") or {}, sink))
