"""The bundle's `encounters`, `cards` and `decks` sections (schemas/bundle/cards.schema.json).

    encounters_section(model, table)  top-level encounters, emitted as quest encounters
                                      are, plus each encounter's entrance and exit
    cards_section(model, table)       every card; its texts go to the string table
    decks_section(model)              deck recipes and their seeded analysis

String ids (compiler/emit/strings.py: ids name a place, never the wording):
    card.<id>.rules | .after_setup | .overlord.<k> | .flavor | .effect | .with_monsters
        | .without_monsters | .group.<group>.effect | .group.<group>.<rank>.<k>   (special)
    encounter.<id>.name, encounter.<id>.e1.flavor | .setup | …   (as quests.py writes them)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from compiler.emit.shared import JSONObject
from compiler.model.cards import CONDITION_ALIASES, TIE_BREAK, CardSet, DeckPlan
from compiler.emit.strings import StringTable, string_id
from compiler.emit.quests import encounter_json
from compiler.model.quest import HERO_COUNTS
from compiler.model import Model
from compiler.syntax import ast

if TYPE_CHECKING:
    from compiler.geometry.assemble import AssembledMap
    from compiler.model.layout import Analysis, EncounterLinks


# ---------------------------------------------------------------- actions
def target_json(t: ast.Target) -> JSONObject:
    filters = []
    for f in t.filters:
        d: JSONObject = {"kind": f[0]}
        if f[0] == "within":
            d["spaces"] = int(f[1])
        filters.append(d)
    out: JSONObject = {"subject": t.subject, "filters": filters, "tie_break": list(TIE_BREAK)}
    if t.order is not None:
        out["order"] = t.order
    if t.attribute is not None:
        out["attribute"] = t.attribute
    return out


def action_json(a: ast.Action, sid: str, table: StringTable) -> JSONObject:
    out: JSONObject = {"verb": a.verb, "typed": a.verb != "special"}
    if a.target is not None:
        out["target"] = target_json(a.target)
    if a.verb == "discard" and a.condition is not None:
        cond = a.condition.lower()
        out["condition"] = CONDITION_ALIASES.get(cond, cond)
    if a.verb == "special":
        out["text"] = table.add(sid, a.text)
    return out


# ---------------------------------------------------------------- cards
def exploration_json(c: ast.ExplorationCard, cards: CardSet, table: StringTable) -> JSONObject:
    base = ("card", c.id)
    out: JSONObject = {"kind": "exploration", "role": c.role, "overlord": []}
    enc = cards.encounter_of.get(c.id)
    if enc is not None:
        out["encounter"] = enc
    if c.main_number is not None:
        out["main"] = c.main_number
    for key in ("rules", "after_setup"):
        sid = table.add(string_id(*base, key), getattr(c, key))
        if sid is not None:
            out[key] = sid
    for k, item in enumerate(c.overlord, 1):
        if isinstance(item, ast.Hourglass):
            out["overlord"].append({"text": table.add(string_id(*base, "overlord", k), item.text), "hourglass": item.count})
        else:
            out["overlord"].append({"text": table.add(string_id(*base, "overlord", k), item)})
    return out


def peril_json(c: ast.PerilCard, table: StringTable) -> JSONObject:
    base = ("card", c.id)
    out: JSONObject = {"kind": "peril", "split": c.effect is None}
    for key in ("flavor", "effect", "with_monsters", "without_monsters"):
        sid = table.add(string_id(*base, key), getattr(c, key))
        if sid is not None:
            out[key] = sid
    return out


def activation_json(c: ast.ActivationCard, cards: CardSet, table: StringTable) -> JSONObject:
    base = ("card", c.id)
    groups = []
    for g in c.groups:
        gbase = (*base, "group", g.group)
        d: JSONObject = {
            "group": g.group,
            "choose": "players" if any(b.rank == "all" for b in g.boxes) else "boxes_in_order",
            "boxes": [
                {
                    "rank": b.rank,
                    "actions": [action_json(a, string_id(*gbase, b.rank, k), table) for k, a in enumerate(b.actions, 1)],
                }
                for b in g.boxes
            ],
        }
        sid = table.add(string_id(*gbase, "effect"), g.effect)
        if sid is not None:
            d["effect"] = sid
        groups.append(d)
    return {"kind": "activation", "groups": groups, "untyped_actions": cards.untyped.get(c.id, 0)}


def cards_json(cards: CardSet, table: StringTable) -> JSONObject:
    out: JSONObject = {}
    for cid, e in cards.exploration.items():
        out[cid] = exploration_json(e, cards, table)
    for cid, p in cards.peril.items():
        out[cid] = peril_json(p, table)
    for cid, a in cards.activation.items():
        out[cid] = activation_json(a, cards, table)
    return dict(sorted(out.items()))


# ---------------------------------------------------------------- decks
def deck_json(plan: DeckPlan, analysis: Analysis | None = None) -> JSONObject:
    out: JSONObject = {"kind": plan.kind, "cards": list(plan.cards), "legal": plan.legal}
    out["pool"] = list(plan.pool)  # the order `deal` takes them in: a front end deals the same orders
    if plan.kind != "exploration":
        out["shuffle"] = True
        return out
    number = {card: n for n, card in plan.mains.items()}
    if plan.start is not None:
        out["start"] = plan.start
    out["ordinary"] = sorted(plan.pool)
    out["mains"] = {str(n): card for n, card in sorted(plan.mains.items())}
    stacks = []
    for s in plan.stacks:
        d: JSONObject = {"size": s.size}
        if s.main is not None:
            d["main"] = s.main
            d["main_number"] = number[s.main]
        stacks.append(d)
    out["stacks"] = stacks
    if analysis is not None:
        out["analysis"] = analysis.to_json()
    return out


def cards_section(model: Model, table: StringTable) -> JSONObject | None:
    return cards_json(model.cards, table) if model.cards is not None else None


def decks_section(model: Model) -> JSONObject | None:
    if model.cards is None:
        return None
    return decks_json(model) or None


def decks_json(model: Model) -> JSONObject:
    """Deck id -> JSON, every deck of the pack (empty when it has none)."""
    analyses = model.deck_analysis or {}
    return {did: deck_json(p, analyses.get(did)) for did, p in sorted((model.decks or {}).items())}


# ---------------------------------------------------------------- top-level encounters


def _port_json(links: EncounterLinks | None, which: str, amap: AssembledMap) -> JSONObject | None:
    port = getattr(links, which, None) if links is not None else None
    if port is None:
        return None
    t = amap.by_name[port.tile]
    edges = sorted(t.opening_edges(port.opening))
    return {
        "tile": port.tile,
        "opening": port.opening.label,
        "facing": t.facing(port.opening),
        "edges": [[list(p), list(q)] for p, q in edges],
    }


def encounters_section(model: Model, table: StringTable) -> JSONObject | None:
    """encounter id -> JSON: the top-level encounters with their entrance and exit."""
    resolved_all = model.encounters or {}
    declared = {e.id: e for e in model.declarations(ast.Encounter)}
    links = model.encounter_links or {}
    sight = getattr(model.options, "sight", True)
    out: JSONObject = {}
    for eid, resolved in resolved_all.items():
        enc, amap = declared[eid], resolved.map
        j = encounter_json(resolved, ("encounter", enc.id), HERO_COUNTS, table, sight=sight)
        j.pop("number", None)
        j["hero_figures"] = list(enc.body.heroes_as)
        name = table.add(string_id("encounter", enc.id, "name"), enc.name)
        if name is not None:
            j["name"] = name
        for which in ("entrance", "exit"):
            port = _port_json(links.get(enc.id), which, amap)
            if port is not None:
                j[which] = port
        out[enc.id] = j
    return dict(sorted(out.items())) if out else None
