"""The templates pass: the merged attack templates catalog read into `Template`s (compiler/catalogs/templates.py)."""

from __future__ import annotations

from compiler.catalogs.templates import read_templates
from compiler.diagnostics import Sink
from compiler.model import Model


def templates_pass(model: Model, sink: Sink) -> Model:
    return model.with_(templates=read_templates(model.catalogs.get("templates") or {}))
