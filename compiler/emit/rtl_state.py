"""The bundle's `campaign.state`: the 1st-edition campaign's moving state by id (the
`rtl_state:` catalog's rules and cards as written, the most XP either side can hold
before the Final Battle, and the recorded weeks with the state after each, replayed by
compiler/model/rtl_state.py). Meaning: docs/bundle.md; schema:
schemas/bundle/rtl_state.schema.json."""

from __future__ import annotations

from typing import Any

from compiler.emit.shared import JSON, JSONObject
from compiler.model import Model
from compiler.model import rtl_state as r


def _plain(value: Any) -> JSON:
    """Catalog data as plain JSON values, keys sorted."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def week_json(w: r.WeekState) -> JSONObject:
    return {
        "week": w.week,
        "level": w.level,
        "conquest": {"heroes": w.hero_conquest, "overlord": w.overlord_conquest, "combined": w.hero_conquest + w.overlord_conquest},
        "xp": {"each_hero": w.hero_xp, "hero_spent": dict(w.hero_xp_spent), "overlord": w.overlord_xp, "overlord_spent": w.overlord_xp_spent},
        "treasury": w.treasury,
        "party_at": w.party_at,
        "lieutenants": dict(w.lieutenants),
        "sieges": dict(w.sieges),
        "razed": list(w.razed),
        "items": dict(w.items),
        "upgrades": list(w.upgrades),
        "ended": w.ended,
        **({"dungeon": {"at": w.dungeon.at, "fortified": list(w.dungeon.fortified), "power_cards": list(w.dungeon.power_cards),
                        "threat": w.dungeon.threat, "reinforcement": w.dungeon.reinforcement, "levels": w.dungeon.levels,
                        "spawns": w.dungeon.spawns, "flips": w.dungeon.flips}} if w.dungeon is not None else {}),
        **({"heroes": {h: {"dice": {t: dict(zip(("black", "silver", "gold"), d)) for t, d in hs.dice.items()}, "skills": list(hs.skills)}
                       for h, hs in w.heroes.items()}} if w.heroes else {}),
    }


def state_json(checked: r.CheckedState, final_battle: int | None) -> JSONObject:
    data = {k: v for k, v in checked.data.items() if k != "weeks"}
    most = r.most_xp(checked.state, final_battle)
    return {
        **{k: _plain(v) for k, v in sorted(data.items())},
        "most_xp": {"each_hero": most[0], "overlord": most[1]} if most is not None else None,
        "record": [_plain(w) for w in checked.data.get("weeks") or ()],
        "weeks": [week_json(w) for w in checked.replay.weeks],
    }


def rtl_state_json(model: Model) -> JSONObject | None:
    """Every replayed state by id; None when the pack has none."""
    if not model.rtl_state:
        return None
    campaigns = model.catalogs.get("campaign") or {}
    out: JSONObject = {}
    for sid, checked in sorted(model.rtl_state.items()):
        entry = campaigns.get(checked.state.campaign)
        final = entry.data.get("final_battle") if entry is not None and isinstance(entry.data, dict) else None
        out[sid] = state_json(checked, final)
    return out
