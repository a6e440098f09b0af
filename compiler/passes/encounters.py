"""The encounters pass: top-level encounters (the cards of cooperative adventures) resolved
on their maps exactly as one encounter of a quest is (compiler/passes/quests.py)."""

from __future__ import annotations

from types import MappingProxyType

from compiler.diagnostics import Sink
from compiler.model import Model
from compiler.model import quest as m
from compiler.model.quest import HERO_COUNTS
from compiler.passes.quests import EncounterResolver
from compiler.syntax import ast

# A dealt encounter's heroes walk in through its entrance, so it needs no start area.
ARRIVAL_EXEMPT = ("Q0102",)


def encounters_pass(model: Model, sink: Sink) -> Model:
    """Every top-level encounter of the pack (id -> QuestEncounter), resolved exactly like
    the one encounter of a quest."""
    maps = model.maps.encounters if model.maps is not None else {}
    declared = model.declarations(ast.Encounter)
    if not declared or not maps:
        return model
    symbols = (model.symbols or {}).get("encounter", {})
    monsters = model.monsters or {}
    out: dict[str, m.QuestEncounter] = {}
    for enc in declared:
        amap = maps.get(enc.id)
        if amap is None or (symbols and symbols.get(enc.id) is not enc):
            continue  # no map (reported by the maps pass) or a duplicate id (R0101)
        as_quest = ast.Quest(enc.id, enc.name or ast.Text(enc.id), None, (ast.InlineEncounter(1, enc.body, enc.span),), span=enc.span)
        local = Sink(comparisons_left=sink.comparisons_left)  # suggestions share the pass's budget
        out[enc.id] = EncounterResolver(as_quest, as_quest.encounters[0], amap, monsters, HERO_COUNTS, local,
                                         is_last=True, maps_checked=True).resolve()
        exempt = ARRIVAL_EXEMPT if enc.body.entrance is not None else ()
        sink.extend(d for d in local.items if d.code not in exempt)
        sink.comparisons_left = local.comparisons_left
    return model.with_(encounters=MappingProxyType(dict(sorted(out.items()))))
