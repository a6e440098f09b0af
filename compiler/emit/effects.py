"""The bundle's `effects`, `tracks` and `experience` sections (schemas/bundle/effects.schema.json).

    effects_section(model, table)     card id -> place -> typed effects; the text of a place
                                      is the card's string `card.<id>.<place>`
    tracks_section(model, table)      loot track id -> its numbers, what moves it, and the
                                      steps a front end walks for each hero count
    experience_section(model, table)  exploration deck -> experience awards in play order
    chests_section(model, table)      chest tier -> what each die face gives, what no treasure
                                      gives (only in a pack whose maps have chests)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compiler.emit.shared import JSONObject
from compiler.emit.strings import StringTable, string_id
from compiler.model import Model
from compiler.model import effects as fx


def effect_json(e: Mapping[str, Any]) -> JSONObject:
    """One effect as written, keys sorted, nested effects converted too."""
    out: JSONObject = {}
    for key, value in sorted(e.items()):
        if key in fx.NESTED:
            out[key] = [effect_json(x) for x in value or ()]
        elif key == "options":
            out[key] = [[effect_json(x) for x in option] for option in value]
        elif isinstance(value, list):
            out[key] = list(value)
        else:
            out[key] = value
    return out


def effects_section(model: Model, table: StringTable) -> JSONObject | None:
    checked = model.effects
    if checked is None or not checked.cards:
        return None
    out: JSONObject = {}
    for cid, card in sorted(checked.cards.items()):
        out[cid] = {place: {"text": string_id("card", cid, *place.split(".")), "effects": [effect_json(e) for e in items]}
                    for place, items in card.places.items()}
    return out


def track_json(track: fx.LootTrack) -> JSONObject:
    return {
        "kind": "loot",
        "spaces": track.spaces,
        "limit": {str(k): v for k, v in sorted(track.limit.items())},
        "payout": list(track.payout),
        "payout_steps": fx.payout_steps(track),
        "decks": dict(track.decks),
        "on": {ev: [effect_json(e) for e in items] for ev, items in track.on.items()},
        "steps": {str(h): fx.loot_steps(track, h) for h in sorted(track.limit)},
    }


def morale_json(track: fx.MoraleTrack) -> JSONObject:
    counts = fx.HERO_COUNTS[1:]  # 2-4 heroes: a one-player game plays two heroes
    return {
        "kind": "morale",
        "start": "heroes" if track.start is None else track.start,
        "on": {ev: [effect_json(e) for e in items] for ev, items in track.on.items()},
        "lose_when": "knocked_out_at_zero",
        "steps": {str(h): fx.morale_steps(track, h) for h in counts},
    }


def tracks_section(model: Model, table: StringTable) -> JSONObject | None:
    checked = model.effects
    if checked is None or not (checked.loot or checked.morale):
        return None
    out: JSONObject = {tid: track_json(t) for tid, t in checked.loot.items()}
    out.update({tid: morale_json(t) for tid, t in checked.morale.items()})
    return dict(sorted(out.items()))


def experience_section(model: Model, table: StringTable) -> JSONObject | None:
    checked = model.effects
    if checked is None or not checked.experience:
        return None
    return {did: [dict(sorted(a.items())) for a in awards] for did, awards in sorted(checked.experience.items())}


def _has_chests(model: Model) -> bool:
    maps = model.maps
    if maps is None:
        return False
    every = [m for q in maps.quests.values() for m in q.values()] + list(maps.encounters.values()) + list(maps.campaign.values())
    return any(m.features.chests for m in every)


def chests_section(model: Model, table: StringTable) -> JSONObject | None:
    checked = model.effects
    if checked is None or not checked.chests or not _has_chests(model):
        return None
    return {tier: {"faces": {k: [effect_json(e) for e in items] for k, items in c.faces.items()},
                   "none_found": [effect_json(e) for e in c.none_found]}
            for tier, c in sorted(checked.chests.items())}
