"""The bundle's `quests` section (schemas/bundle/quests.schema.json) and its strings.

    quests_bundle_pass(model, sink) -> model      (PASSES, after quests_pass)

sets section "quests_json" (quest id -> JSON) and adds every quest text to section
"strings" (compiler/emit/strings.py). Everything is data a front end runs without
parsing English: spaces are indices into the encounter map's `spaces`, figures are
resolved per hero count, events are {on: trigger, do: [effects]} with typed fields.
"""

from __future__ import annotations

from typing import Any

from compiler.diagnostics import Sink
from compiler.emit.maps import map_json
from compiler.emit.strings import StringTable, add_strings, string_id
from compiler.model import Model
from compiler.model import quest as m

# trigger kind -> the JSON field its subject goes in
TRIGGER_FIELD = {"open": "door", "defeated": "group", "searched": "token", "picked_up": "token", "variable": "variable"}
# effect kind -> (field, single?) for its names
EFFECT_FIELD = {
    "reveal": ("tiles", False),
    "spawn": ("spawn", True),
    "place_token": ("token", True),
    "remove_token": ("token", True),
    "activate": ("group", True),
    "open": ("door", True),
    "close": ("door", True),
    "set": ("variable", True),
    "advance": ("variable", True),
}
TEXT_EFFECTS = ("say", "win", "lose")


def quests_bundle_pass(model: Model, sink: Sink) -> Model:
    quests = model.section("quests")
    if not quests:
        return model
    table = StringTable()
    sight = getattr(model.options, "sight", True)
    out = {qid: quest_json(q, table, sight=sight) for qid, q in sorted(quests.items())}
    return add_strings(model.with_section("quests_json", out), table)


def quest_json(q: m.ResolvedQuest, table: StringTable, *, sight: bool = True) -> dict[str, Any]:
    base = ("quest", q.id)
    return {
        "name": table.add(string_id(*base, "name"), q.name),
        "heroes": [q.heroes[0], q.heroes[1]],
        "encounters": [encounter_json(e, base, q.hero_counts, table, sight=sight) for e in q.encounters],
    }


def encounter_json(e: m.QuestEncounter, base: tuple, counts, table: StringTable, *, sight: bool = True) -> dict[str, Any]:
    here = (*base, f"e{e.number}")
    out: dict[str, Any] = {
        "number": e.number,
        "reachable": e.reachable,
        "map": map_json(e.map, sight=sight),
        "start": list(e.start),
        "tokens": [token_json(t, here, table) for t in e.tokens],
        "spawns": [spawn_json(s, counts) for s in e.spawns],
        "variables": dict(e.variables),
        "events": [event_json(ev, here, table) for ev in e.events],
    }
    for key in ("flavor", "setup"):
        sid = table.add(string_id(*here, key), getattr(e, key))
        if sid is not None:
            out[key] = sid
    return out


def token_json(t: m.Token, here: tuple, table: StringTable) -> dict[str, Any]:
    out: dict[str, Any] = {"id": t.id, "kind": t.kind, "space": t.space, "tile": t.tile, "when": t.when}
    if t.colour is not None:
        out["colour"] = t.colour
    sid = table.add(string_id(*here, "token", t.id, "label"), t.label)
    if sid is not None:
        out["label"] = sid
    return out


def spawn_json(s: m.Spawn, counts) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": s.id,
        "group": s.group,
        "when": s.when,
        "unique": s.unique,
        "size": [s.size[0], s.size[1]],
        "tile": s.tile,
        "figures": {
            str(h): [
                {"rank": f.rank, "space": f.anchor, "spaces": list(f.spaces), "size": [f.size[0], f.size[1]]}
                for f in s.figures.get(h, ())
            ]
            for h in counts
        },
    }
    if s.unique:
        out["extra_health"] = s.extra_health
        if s.health is not None:
            out["health"] = s.health
    return out


def trigger_json(t: m.Trigger) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": t.kind}
    if t.kind == "round_end":
        out["round"] = t.number
    elif t.kind == "enters":
        if t.space is not None:
            out["spaces"] = [t.space]
        else:
            out["area"] = t.subject
            out["spaces"] = list(t.area)
    elif t.kind in TRIGGER_FIELD:
        out[TRIGGER_FIELD[t.kind]] = t.subject
    if t.kind == "variable":
        out["at_least"] = t.number
    return out


def event_json(ev: m.Event, here: tuple, table: StringTable) -> dict[str, Any]:
    seen: dict[str, int] = {}
    effects = []
    for f in ev.effects:
        d: dict[str, Any] = {"kind": f.kind}
        if f.kind in EFFECT_FIELD:
            key, single = EFFECT_FIELD[f.kind]
            d[key] = f.args[0] if single else list(f.args)
        if f.kind == "set":
            d["value"] = f.number
        elif f.kind == "advance":
            d["by"] = f.number
        if f.kind in TEXT_EFFECTS and f.text is not None:
            n = seen[f.kind] = seen.get(f.kind, 0) + 1
            parts = (*here, "event", ev.index, f.kind) + ((n,) if n > 1 else ())
            d["text"] = table.add(string_id(*parts), f.text)
        effects.append(d)
    return {"index": ev.index, "on": trigger_json(ev.trigger), "do": effects, "can_fire": ev.can_fire}
