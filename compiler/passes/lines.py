"""The lines pass: the merged lines catalog read into `LineRule`s (compiler/catalogs/lines.py)."""

from __future__ import annotations

from compiler.catalogs.lines import read_lines
from compiler.diagnostics import Sink
from compiler.model import Model


def lines_pass(model: Model, sink: Sink) -> Model:
    return model.with_(line_rules=read_lines(model.catalogs.get("lines") or {}))
