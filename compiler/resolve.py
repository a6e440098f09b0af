"""Symbol tables and cross-references between the declarations of a pack's quest files."""

from __future__ import annotations

from compiler.diagnostics import Related, Sink
from compiler.model import Model
from compiler.syntax import ast

# declaration kind -> the namespace its id lives in
NAMESPACES = {
    ast.Quest: "quest",
    ast.Encounter: "encounter",
    ast.ExplorationCard: "card",
    ast.PerilCard: "card",
    ast.ActivationCard: "card",
    ast.Deck: "deck",
}


def resolve_declarations(model: Model, sink: Sink) -> Model:
    """Index every declaration by namespace and id; a second declaration of an id is an error."""
    symbols: dict[str, dict[str, object]] = {ns: {} for ns in sorted(set(NAMESPACES.values()))}
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
    return model.with_section("symbols", {ns: dict(sorted(t.items())) for ns, t in symbols.items()})
