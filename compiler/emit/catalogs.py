"""The catalog sections of the bundle, from the typed catalog entries.

A front end reads terrain and tiles as the compiler understood them — defaults filled
in, grids split into rows, openings numbered — never the YAML shorthand. Dice and
monsters keep their catalog's form (the bundle schema's sections are the catalog
schemas): each entry is written back from its typed value, with the optional keys its
entry wrote (`written`) and no others.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Mapping

from compiler.emit.shared import JSONObject

if TYPE_CHECKING:
    from compiler.catalogs.dice import Die
    from compiler.catalogs.monsters import Monster, Stats
    from compiler.catalogs.templates import Template
    from compiler.catalogs.terrain import TerrainRule
    from compiler.catalogs.tokens import TokenKind
    from compiler.geometry.tiles import Tile


# A hazard's reach is the map's (features.hazards, with its lane or trigger worked out), not the
# terrain table's: the terrain of every bundle stays as it was before hazards were data.
_NOT_IN_BUNDLE = frozenset({"id", "hazard", "hazard_stops_in_pit"})


def terrain_json(rules: Mapping[str, TerrainRule]) -> JSONObject:
    return {tid: {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(rule).items() if k not in _NOT_IN_BUNDLE}
            for tid, rule in sorted(rules.items())}


def token_kinds_json(kinds: Mapping[str, TokenKind]) -> JSONObject:
    """Each token kind with its meaning, every field explicit (lists may be empty)."""
    return {
        kid: {"name": k.name, "meaning": k.meaning, "action": k.action, "reach": k.reach,
              "colours": list(k.colours), "source": k.source}
        for kid, k in sorted(kinds.items())
    }


def templates_json(templates: Mapping[str, Template]) -> JSONObject:
    """Each attack template as the player lays it (compiler/player/templates.js), every
    field explicit: `squares` for the north side (attacker_side), `radius` or `by_rank`
    (target); `illustrative` when the shape is not from a rulebook."""
    return {
        tid: {"name": t.name, "ability": t.ability, "anchor": t.anchor, "squares": [list(o) for o in t.squares],
              "radius": t.radius, "by_rank": t.by_rank, "needs_sight": t.needs_sight,
              "stops_terrain": t.stops_terrain, "source": t.source,
              "illustrative": t.source == "illustrative" or any(v == "illustrative" for _, v in t.facts)}
        for tid, t in sorted(templates.items())
    }


def tile_json(tile: Tile) -> JSONObject:
    out: JSONObject = {
        "kind": tile.kind,
        "piece": tile.piece,
        "copies": tile.copies,
        "width": tile.width,
        "height": tile.height,
        "grid": list(tile.grid),
        "openings": [
            {"ref": op.label, "side": side, "index": op.index, "offset": op.offset, "width": op.width}
            for side in ("north", "east", "south", "west")
            for op in tile.openings.get(side, ())
        ],
        "walls": [[list(p), list(q)] for p, q in sorted(tile.walls)],
    }
    if tile.name:
        out["name"] = tile.name
    if tile.source:
        out["source"] = tile.source
    return out


def die_json(die: Die) -> JSONObject:
    """A die as the dice catalog writes it."""
    out: JSONObject = {"kind": die.kind, "faces": [face.to_data() for face in die.faces]}
    optional: JSONObject = {"name": die.name, "colour": die.colour, "source": die.source}
    out.update((k, v) for k, v in optional.items() if k in die.written)
    return out


def monster_json(monster: Monster) -> JSONObject:
    """A monster as the monster catalog writes it."""
    w, h = monster.size
    out: JSONObject = {"name": monster.name, "size": f"{w}x{h}", "attack": monster.attack_type}
    optional: JSONObject = {
        "traits": list(monster.traits),
        "group_limits": {str(heroes): {"masters": limit.masters, "minions": limit.minions} for heroes, limit in monster.limits},
        "limits_source": monster.limits_source,
        "category": monster.category,
        "expansion": monster.expansion,
        "source": monster.source,
        "lieutenant": monster.lieutenant,
        "attributes": dict(monster.attributes),
    }
    out.update((k, v) for k, v in optional.items() if k in monster.written)
    for act, ranks in monster.acts:
        out[act] = {rank: _stats_json(stats) for rank, stats in ranks}
    return out


def _stats_json(stats: Stats) -> JSONObject:
    if stats.per_heroes:  # a lieutenant's card: speed, health and defense by hero count
        out: JSONObject = {"attack": list(stats.attack), "heroes": {
            str(h): {"speed": st.speed, "health": st.health, "defense": list(st.defense)} for h, st in stats.per_heroes}}
    else:
        out = {"speed": stats.speed, "health": stats.health, "attack": list(stats.attack), "defense": list(stats.defense)}
    optional: JSONObject = {"abilities": list(stats.abilities), "actions": list(stats.actions), "surges": list(stats.surges)}
    out.update((k, v) for k, v in optional.items() if k in stats.written)
    return out
