"""The bundle's `quests` section (schemas/bundle/quests.schema.json) and its strings.

    quests_section(model, table) -> quest id -> JSON, every text added to `table`

Everything is data a front end runs without parsing English: spaces are indices into the encounter map's `spaces`, figures are
resolved per hero count, events are {on: trigger, do: [effects]} with typed fields.
"""

from __future__ import annotations

from typing import Mapping

from compiler.emit.maps import map_json
from compiler.emit.shared import JSONObject, shared_with_texts
from compiler.emit.strings import StringTable, string_id
from compiler.memo import Same
from compiler.model import Model
from compiler.model import quest as m
from compiler.model.adventure import MOVES, AdventurePlan, TrackPlan
from compiler.syntax import ast

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
    "remove_tile": ("tile", True),
    "remove_door": ("door", True),
    "remove_spawn": ("spawn", True),
    "place_door": ("door", True),
    "unlock": ("door", True),
    "set": ("variable", True),
    "advance": ("variable", True),
    "add": ("variable", True),
    "next_quest": ("quest", True),
    "repeat": ("label", True),
    "again": ("label", True),
    "give": ("item", True),
    "shop": ("items", False),
    "take": ("item", True),
}
TEXT_EFFECTS = ("say", "win", "lose", "end")


def quests_section(model: Model, table: StringTable) -> JSONObject | None:
    """quest id -> JSON: the resolved quests, then the cooperative ones (adventures)."""
    sight = model.options.sight
    out: JSONObject = {
        qid: shared_with_texts(("quest_json", Same(q), sight), lambda own: quest_json(q, own, sight=sight), table)
        for qid, q in sorted((model.quests or {}).items())
    }
    for qid, plan in sorted((model.adventures or {}).items()):
        out[qid] = adventure_json(plan, table)
    return dict(sorted(out.items())) if out else None


def quest_json(q: m.ResolvedQuest, table: StringTable, *, sight: bool = True) -> JSONObject:
    base = ("quest", q.id)
    out: JSONObject = {
        "name": table.add(string_id(*base, "name"), q.name),
        "heroes": [q.heroes[0], q.heroes[1]],
        "encounters": [encounter_json(e, base, q.hero_counts, table, sight=sight) for e in q.encounters],
    }
    if q.monsters:
        out["monsters"] = {c.id: custom_monster_json(c, base, q.hero_counts, table) for c in q.monsters}
    if q.items:
        out["items"] = {s.id: item_slot_json(s, base, table) for s in q.items}
    return out


def item_slot_json(s: ast.ItemSlot, base: tuple[str, ...], table: StringTable) -> JSONObject:
    """An item slot (docs/bundle.md, "Item slots"): what it names or draws by, in the order written."""
    out: JSONObject = {}
    sid = table.add(string_id(*base, "item", s.id, "label"), s.label)
    if sid is not None:
        out["label"] = sid
    for key, names in (("named", s.named), ("traits", s.any_of), ("with", s.all_of), ("except", s.exclude)):
        if names:
            out[key] = list(names)
    out["starting"] = s.starting
    return out


def custom_monster_json(c: m.CustomMonster, base: tuple[str, ...], counts: tuple[int, ...], table: StringTable) -> JSONObject:
    out: JSONObject = {"base": c.base, "unique": c.unique, "lieutenant": c.lieutenant}
    sid = table.add(string_id(*base, "monster", c.id, "name"), c.name)
    if sid is not None:
        out["name"] = sid
    if c.healths:
        out["health"] = {str(h): c.healths[h] for h in counts}
    if c.speed is not None:
        out["speed"] = c.speed
    for key in ("attack", "defense", "traits"):
        if getattr(c, key):
            out[key] = list(getattr(c, key))
    if c.activations:
        out["activations"] = [_activation_json(a, (*base, "monster", c.id, "activation", a.id), table) for a in c.activations]
    return out


def _activation_json(a: ast.CustomActivation, base: tuple[str, ...], table: StringTable) -> JSONObject:
    """A custom monster's turn in words (docs/bundle.md, "Custom monsters"): its id, string ids
    of its texts, who goes first when the quest says."""
    out: JSONObject = {"id": a.id}
    for key in ("ability", "master", "minion"):
        sid = table.add(string_id(*base, key), getattr(a, key))
        if sid is not None:
            out[key] = sid
    if a.first is not None:
        out["first"] = a.first
    return out


def encounter_json(
    e: m.QuestEncounter, base: tuple[str, ...], counts: tuple[int, ...], table: StringTable, *, sight: bool = True
) -> JSONObject:
    here = (*base, f"e{e.number}")
    out: JSONObject = {
        "number": e.number,
        "reachable": e.reachable,
        "map": map_json(e.map, sight=sight),
        "start": list(e.start),
        "tokens": [token_json(t, here, table) for t in e.tokens],
        "spawns": [spawn_json(s, counts) for s in e.spawns],
        "variables": dict(e.variables),
        "events": [event_json(ev, here, table) for ev in e.events],
    }
    if e.campaign:  # docs/bundle.md: kept across `next` and `next_quest`
        out["campaign"] = sorted(e.campaign)
    if e.runekeys:
        out["runekeys"] = [
            {"colour": k.colour, "carrier": k.carrier, "spaces": list(k.spaces)} for k in e.runekeys
        ]
    for key in ("flavor", "setup"):
        sid = table.add(string_id(*here, key), getattr(e, key))
        if sid is not None:
            out[key] = sid
    return out


def token_json(t: m.Token, here: tuple[str, ...], table: StringTable) -> JSONObject:
    out: JSONObject = {"id": t.id, "kind": t.kind, "space": t.space, "tile": t.tile, "when": t.when}
    if t.colour is not None:
        out["colour"] = t.colour
    sid = table.add(string_id(*here, "token", t.id, "label"), t.label)
    if sid is not None:
        out["label"] = sid
    return out


def spawn_json(s: m.Spawn, counts: tuple[int, ...]) -> JSONObject:
    out: JSONObject = {
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
        if s.healths:
            out["healths"] = {str(h): s.healths[h] for h in counts if h in s.healths}
    if s.lieutenant:
        out["lieutenant"] = True
    if s.pool:
        out["pool"] = list(s.pool)
        out["traits"] = list(s.traits)
    if s.drawn:  # `spawn random group`: the front end draws one of `pool` (docs/bundle.md, "Random groups")
        out["pick"] = "random"
        out["with"] = list(s.needs)
    return out


def trigger_json(t: m.Trigger) -> JSONObject:
    out: JSONObject = {"kind": t.kind}
    if t.kind in ("round_end", "round_start"):
        if t.number is not None:  # none: every round
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


def event_json(ev: m.Event, here: tuple[str, ...], table: StringTable) -> JSONObject:
    base: tuple[str | int, ...] = (*here, "event", ev.index)
    out: JSONObject = {"index": ev.index, "on": trigger_json(ev.trigger)}
    if ev.condition is not None:
        out["if"] = condition_json(ev.condition)
    if ev.quota is not None:
        out["quota"] = ev.quota
    out["do"] = effects_json(ev.effects, base, table, m.TextNumbers())
    out["can_fire"] = ev.can_fire
    return out


def effects_json(effects: tuple[m.Effect, ...], base: tuple[str | int, ...], table: StringTable,
                 numbers: m.TextNumbers) -> list[JSONObject]:
    """The effects as the bundle has them; texts numbered depth first as `m.event_texts` does."""
    out = []
    for f in effects:
        d: JSONObject = {"kind": f.kind}
        if f.kind in EFFECT_FIELD:
            key, single = EFFECT_FIELD[f.kind]
            d[key] = f.args[0] if single else list(f.args)
        if f.kind == "set":
            if f.source is not None:
                d["from"] = f.source
            elif f.random is not None:
                d["random"] = [f.random[0], f.random[1]]
            else:
                d["value"] = f.number
        elif f.kind in ("advance", "add"):
            d["by"] = f.number
        if (f.kind in TEXT_EFFECTS or f.kind == "ask") and f.text is not None:
            d["text"] = table.add(string_id(*base, *numbers.next(f.kind)), f.text)
        if f.kind == "random":
            d["options"] = [effects_json(c.effects, base, table, numbers) for c in f.choices]
        if f.kind == "if":
            arms = []
            for c in f.choices:
                arm: JSONObject = {"if": condition_json(c.condition)} if c.condition is not None else {}
                arm["do"] = effects_json(c.effects, base, table, numbers)
                arms.append(arm)
            d["arms"] = arms
        if f.kind == "repeat":
            d["do"] = effects_json(f.choices[0].effects, base, table, numbers)
        if f.kind == "ask":
            choices = []
            for c in f.choices:
                assert c.text is not None  # a choice of `ask` has its label (only `random`'s options have none)
                choice: JSONObject = {"text": table.add(string_id(*base, *numbers.next("choice")), c.text)}
                if c.condition is not None:
                    choice["if"] = condition_json(c.condition)
                choice["do"] = effects_json(c.effects, base, table, numbers)
                choices.append(choice)
            d["choices"] = choices
        out.append(d)
    return out


def condition_json(c: m.Condition) -> JSONObject:
    if c.kind in ("and", "or", "not"):
        return {"kind": c.kind, "parts": [condition_json(p) for p in c.parts]}
    if c.kind == "compare" and c.left is not None and c.right is not None:
        return {"kind": "compare", "op": c.op, "left": operand_json(c.left), "right": operand_json(c.right)}
    if c.kind == "heroes" and c.heroes is not None:
        return {"kind": "heroes", "low": c.heroes[0], "high": c.heroes[1]}
    return {"kind": "on_board", "what": c.what, "name": c.subject}


def operand_json(o: ast.Operand) -> JSONObject:
    if o.kind == "number":
        return {"kind": "number", "value": o.value}
    if o.kind == "variable":
        return {"kind": "variable", "name": o.name}
    if o.kind == "round":
        return {"kind": "round"}
    return {"kind": "heroes"}


# ---------------------------------------------------------------- cooperative quests
def track_json(t: TrackPlan) -> JSONObject:
    def per(d: Mapping[int, int]) -> dict[str, int]:
        return {str(h): d[h] for h in sorted(d)}

    rules = []
    for r in t.rules:
        d: JSONObject = {"source": r.source, "action": r.action}
        if r.action == "advance":
            d["marker"] = r.marker
            d["by"] = r.amount
        if r.source == "hourglass":
            d["cards"] = list(r.subjects)
        elif r.source == "defeated":
            d["figure"] = r.subjects[0]
        rules.append(d)
    return {
        "spaces": t.spaces,
        "doom": {"start": per(t.doom_start), "written": t.doom_written, "moves": MOVES["doom"]},
        "fate": {"start": per(t.fate_start), "written": t.fate_written, "moves": MOVES["fate"]},
        "margin": per(t.margin),
        "lose_when": "doom_meets_fate",
        "rules": rules,
        "closes": t.closes,
    }


def adventure_json(p: AdventurePlan, table: StringTable) -> JSONObject:
    base = ("quest", p.id)
    adv: JSONObject = {
        "decks": dict(p.decks),
        "events": [event_json(ev, base, table) for ev in p.events],
        "winnable": p.winnable,
        "losable": p.losable,
    }
    if p.start is not None:
        adv["start"] = p.start
    if p.finale is not None:
        card, enc, number = p.finale
        adv["finale"] = {"card": card, "encounter": enc, "main": number}
    if p.track is not None:
        adv["track"] = track_json(p.track)
    return {
        "name": table.add(string_id(*base, "name"), p.name),
        "heroes": [p.heroes[0], p.heroes[1]],
        "encounters": [],
        "adventure": adv,
    }
