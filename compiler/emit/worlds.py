"""The bundle's `worlds` section, and the answer `questc world` prints as JSON
(schemas/bundle/world.schema.json): deterministic, probabilities as exact fractions."""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Mapping

from compiler.emit.shared import JSONObject
from compiler.model.world import (
    connected_parts,
    BUILDINGS,
    DANGERS,
    ENCOUNTER_FACE,
    FIELD_KINDS,
    FLAG_BUILDINGS,
    LIEUTENANT_FORBIDDEN,
    Location,
    RUMOR_KINDS,
    TRAITS,
    Trail,
    UPGRADES,
    World,
    distances,
    distances_from,
    encounter_chance,
    fortify_sources,
    lieutenant_locations,
    lieutenant_moves,
    reachable,
    rumor_locations,
    types_without,
)

def fraction_json(p: Fraction) -> JSONObject:
    return {"p": f"{p.numerator}/{p.denominator}", "p_float": float(p)}


def _facts_json(source: str, facts: Mapping[str, str]) -> JSONObject:
    out: JSONObject = {"source": source}
    if facts:
        out["facts"] = dict(sorted(facts.items()))
    return out


def _location_json(loc: Location) -> JSONObject:
    out: JSONObject = {"name": loc.name, "kind": loc.kind, **_facts_json(loc.source, loc.facts)}
    if loc.pos is not None:
        out["pos"] = [loc.pos[0], loc.pos[1]]
    if loc.kind == "city":
        out["defense"] = loc.defense
        out["buildings"] = {b: loc.buildings.get(b, False if b in FLAG_BUILDINGS else 0) for b in sorted(BUILDINGS)}
        if loc.ability:
            out["ability"] = {"building": loc.ability[0], "summary": loc.ability[1]}
    if loc.kind in FIELD_KINDS["trains"]:
        traits = TRAITS if loc.kind == "secret_master" else loc.traits  # secret masters teach every trait
        out["trains"] = {"traits": list(traits), "skills": {d: list(s) for d, s in sorted(loc.skills.items())}}
    if loc.kind == "legendary":
        out["level"] = loc.level
    out["lieutenants_may_enter"] = loc.kind not in LIEUTENANT_FORBIDDEN
    return out


def _trail_json(world: World, t: Trail) -> JSONObject:
    a, b = t.ends
    p = encounter_chance(world, t)
    return {
        "id": t.id,
        "from": a,
        "to": b,
        "type": t.type,
        "needs": t.needs,
        "danger": t.danger,
        "traffic": t.traffic,
        "encounter": fraction_json(p) if p is not None else None,
        **_facts_json(t.source, t.facts),
    }


def _reach_map(world: World, types: tuple[str, ...]) -> JSONObject:
    """The parts of the map a party lacking some upgrades moves within: a location
    reaches exactly the members of its own part (`parts[part_of[id]]`)."""
    parts = connected_parts(world, types)
    part_of = {m: i for i, part in enumerate(parts) for m in part}
    return {"parts": parts, "part_of": dict(sorted(part_of.items()))}


def world_section(world: World) -> JSONObject:
    """The bundle's JSON for one world (schemas/bundle/world.schema.json). Deterministic."""
    die = None
    if world.die is not None:
        die = {
            "id": world.die.id,
            "faces": world.die.faces,
            "matching": {d: world.die.matching[d] for d in sorted(DANGERS)},
            "face": dict(sorted(ENCOUNTER_FACE.items())),
        }
    return {
        "id": world.id,
        "name": world.name,
        "start": world.start,
        "locations": {i: _location_json(loc) for i, loc in sorted(world.locations.items())},
        "trails": sorted((_trail_json(world, t) for t in world.trails), key=lambda j: j["id"]),
        "encounter_die": die,
        "distances": distances(world),
        "reachable_without": {
            "magic_boat": _reach_map(world, types_without("magic_boat")),
            "keraks_map": _reach_map(world, types_without("keraks_map")),
            "both": _reach_map(world, types_without(*UPGRADES)),
        },
        "lieutenants": {
            "may_enter": lieutenant_locations(world),
            "moves": lieutenant_moves(world),
            "may_fortify": fortify_sources(world),
        },
        "rumors": {"kinds": sorted(RUMOR_KINDS), "min_distance_inclusive": True},
    }


def query(world: World, src: str, rumor_distance: int | None = None, explored: Iterable[str] = ()) -> JSONObject:
    """The `questc world --format json` answer for the party at `src`."""
    return {
        "from": src,
        "distances": distances_from(world, src),
        "reachable_without": {
            "magic_boat": reachable(world, src, types_without("magic_boat")),
            "keraks_map": reachable(world, src, types_without("keraks_map")),
        },
        "rumor_locations": rumor_locations(world, src, rumor_distance, explored) if rumor_distance is not None else [],
    }
