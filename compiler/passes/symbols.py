"""The symbols pass: every declaration of the pack's quest files indexed by namespace and id."""

from __future__ import annotations

from compiler.diagnostics import Related, Sink
from compiler.model import NAMESPACES, Model
from compiler.syntax import ast


def symbols_pass(model: Model, sink: Sink) -> Model:
    """Index every declaration by namespace and id; a second declaration of an id is an error."""
    symbols: dict[str, dict[str, ast.Declaration]] = {ns: {} for ns in sorted(set(NAMESPACES.values()))}
    for module in model.modules:
        for decl in module.declarations:
            ns = NAMESPACES.get(type(decl))
            if ns is None:
                continue
            table = symbols[ns]
            if decl.id in table:
                first = table[decl.id]
                sink.report(
                    "R0101",
                    decl.span,
                    kind=ns,
                    id=decl.id,
                    related=(Related(first.span, "first declared here"),),
                )
                continue
            table[decl.id] = decl
    return model.with_(symbols={ns: dict(sorted(t.items())) for ns, t in symbols.items()})
