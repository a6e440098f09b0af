"""The campaign world (1st-ed. Road to Legend): locations and trails, and the questions
a front end asks of them, answered by pure functions over a networkx graph:

    distances(world, types)       -> {a: {b: trails}}
    reachable(world, src, types)  -> [ids]        # includes src itself
    rumor_locations(world, src, d, explored) -> [ids]
    encounter_chance(world, trail) -> Fraction | None
    lieutenant_moves(world)       -> {id: [ids]}
    hint_location(world, value)   -> (suffix, fix)   # did-you-mean for a location id

The world pass (compiler/passes/world.py) reads the catalog into a World; the bundle's
JSON is compiler/emit/worlds.py. The rules behind each function are documented in
docs/world.md. Rule variation is data (the tables below), not branches.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction
from types import MappingProxyType
from typing import Iterable, Mapping

import networkx as nx

from compiler.diagnostics import Span
from compiler.diagnostics.hints import hint_and_fix
from compiler import frozen

KINDS = ("city", "dungeon", "legendary", "secret_master", "keep")
TRAIL_TYPES = ("normal", "river", "secret")
DANGERS = ("green", "yellow", "red")
LEVELS = ("copper", "silver", "gold")
SOURCES = ("rulebook", "illustrative")
RATED_BUILDINGS = ("alchemist", "market", "temple")
FLAG_BUILDINGS = ("tavern", "training_ground")
BUILDINGS = RATED_BUILDINGS + FLAG_BUILDINGS
TRAITS = ("melee", "ranged", "magic")
RATING_RANGE = (1, 6)  # ratings on the printed map are small; see docs/world.md
MAX_TRAFFIC = 10  # black power dice rolled for one encounter check (shields print 1 to 3)

# The party upgrade a trail type needs (normal trails need none).
UPGRADE_FOR = MappingProxyType({"river": "magic_boat", "secret": "keraks_map"})
UPGRADES = ("magic_boat", "keraks_map")
# Which face of a black power die triggers an encounter on a trail of each colour.
ENCOUNTER_FACE = MappingProxyType({"green": "blank", "yellow": "surge", "red": "enhancement"})
ENCOUNTER_DIE = "black_power"
# Lieutenants move along any trail but never into these kinds of location.
LIEUTENANT_FORBIDDEN = frozenset({"legendary", "secret_master"})
# Rumors may only be placed on unexplored locations of these kinds.
RUMOR_KINDS = frozenset({"dungeon"})
# Fields that only mean something for some kinds (others get warning W0112).
FIELD_KINDS = MappingProxyType(
    {
        "defense": frozenset({"city"}),
        "buildings": frozenset({"city"}),
        "ability": frozenset({"city"}),
        "trains": frozenset({"city", "secret_master"}),
        "level": frozenset({"legendary"}),
    }
)
REQUIRED_FIELDS = MappingProxyType({"city": ("defense",), "legendary": ("level",)})


@frozen
class Location:
    id: str
    name: str
    kind: str
    span: Span
    defense: int | None = None
    buildings: Mapping[str, int | bool] = field(default_factory=dict)  # rated -> int, flags -> True
    traits: tuple[str, ...] = ()  # traits its Training Ground (or secret master) improves
    skills: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # skill deck -> skill names
    level: str | None = None  # legendary areas: the campaign level at which it opens
    ability: tuple[str, str] | None = None  # (building it changes, summary)
    pos: tuple[float, float] | None = None
    source: str = "illustrative"
    facts: Mapping[str, str] = field(default_factory=dict)  # field -> source, overriding `source`

    def has(self, building: str) -> bool:
        return bool(self.buildings.get(building))


@frozen
class Trail:
    index: int  # position in the catalog's list
    a: str  # `from`, as written
    b: str  # `to`, as written
    type: str
    danger: str
    traffic: int
    span: Span
    source: str = "illustrative"
    facts: Mapping[str, str] = field(default_factory=dict)

    @property
    def ends(self) -> tuple[str, str]:
        return (self.a, self.b) if self.a <= self.b else (self.b, self.a)

    @property
    def id(self) -> str:
        a, b = self.ends
        return f"{a}~{b}~{self.type}"

    @property
    def needs(self) -> str | None:
        return UPGRADE_FOR.get(self.type)


@frozen
class EncounterDie:
    id: str
    faces: int
    matching: Mapping[str, int]  # danger colour -> number of faces that trigger an encounter

    def face_chance(self, danger: str) -> Fraction:
        return Fraction(self.matching[danger], self.faces)


@frozen
class World:
    id: str
    name: str
    start: str
    locations: Mapping[str, Location]  # sorted by id
    trails: tuple[Trail, ...]  # only the well-formed trails, in catalog order
    die: EncounterDie | None
    span: Span
    errors: int = 0  # errors found while reading; computed answers need 0

    @property
    def ok(self) -> bool:
        return self.errors == 0


def graph(world: World, types: Iterable[str] = TRAIL_TYPES) -> nx.Graph:
    """Locations as nodes, one edge per pair joined by a trail of one of `types`."""
    allowed = set(types)
    g = nx.Graph()
    g.add_nodes_from(sorted(world.locations))
    for t in world.trails:
        if t.type in allowed:
            g.add_edge(*t.ends)
    return g


def types_without(*upgrades: str) -> tuple[str, ...]:
    """The trail types a party can use lacking the given upgrades."""
    missing = set(upgrades)
    return tuple(t for t in TRAIL_TYPES if UPGRADE_FOR.get(t) not in missing)


def distances(world: World, types: Iterable[str] = TRAIL_TYPES) -> dict[str, dict[str, int]]:
    """Fewest trails between every pair of locations joined using only `types` (unreachable pairs absent)."""
    g = graph(world, types)
    return {
        a: dict(sorted(lengths.items()))
        for a, lengths in sorted(nx.all_pairs_shortest_path_length(g), key=lambda kv: kv[0])
    }


def distances_from(world: World, src: str, types: Iterable[str] = TRAIL_TYPES) -> dict[str, int]:
    return dict(sorted(nx.single_source_shortest_path_length(graph(world, types), src).items()))


def reachable(world: World, src: str, types: Iterable[str] = TRAIL_TYPES) -> list[str]:
    """Every location the party can get to from `src` (itself included) on trails of `types`."""
    return sorted(nx.node_connected_component(graph(world, types), src))


def rumor_locations(
    world: World, src: str, distance: int, explored: Iterable[str] = (), types: Iterable[str] = TRAIL_TYPES
) -> list[str]:
    """Locations where a rumor of `distance` may be placed with the party at `src`.

    The rulebook: the chosen location may not be closer to the party (along the shortest
    route) than the card's distance, and must be an unexplored dungeon location. So a
    location is legal iff its kind is in RUMOR_KINDS, it is not explored, and its
    fewest-trail distance is at least `distance`. Distance is measured over every trail
    (the map's geography), whatever upgrades the party owns.
    """
    done = set(explored)
    dist = distances_from(world, src, types)
    return sorted(
        loc.id
        for loc in world.locations.values()
        if loc.kind in RUMOR_KINDS and loc.id not in done and loc.id in dist and dist[loc.id] >= distance
    )


def encounter_chance(world: World, trail: Trail) -> Fraction | None:
    """P(at least one of `traffic` black power dice shows the trail colour's face)."""
    if world.die is None:
        return None
    miss = 1 - world.die.face_chance(trail.danger)
    return 1 - miss**trail.traffic


def lieutenant_locations(world: World) -> list[str]:
    return sorted(i for i, loc in world.locations.items() if loc.kind not in LIEUTENANT_FORBIDDEN)


def lieutenant_moves(world: World) -> dict[str, list[str]]:
    """For each location a lieutenant may stand on, where one week's move (one trail, any type) takes it."""
    allowed = set(lieutenant_locations(world))
    g = graph(world)
    return {a: sorted(b for b in g.neighbors(a) if b in allowed) for a in sorted(allowed)}


def fortify_sources(world: World) -> dict[str, list[str]]:
    """For each dungeon, the locations from which a lieutenant may fortify it (there or one trail away)."""
    allowed = set(lieutenant_locations(world))
    g = graph(world)
    return {
        d: sorted(({d} | set(g.neighbors(d))) & allowed)
        for d, loc in sorted(world.locations.items())
        if loc.kind == "dungeon"
    }


def connected_parts(world: World, types: Iterable[str] = TRAIL_TYPES) -> list[list[str]]:
    """The parts of the map joined by trails of these types, each sorted, by first id."""
    return sorted((sorted(c) for c in nx.connected_components(graph(world, types))), key=lambda c: c[0])


def hint_location(world: World, value: str) -> tuple[str, str | None]:
    """Did-you-mean for a location id (matching ids and printed names): the message
    suffix and the fix."""
    return hint_and_fix(value, world.locations, {i: loc.name for i, loc in world.locations.items()})


def hint_world(worlds: Mapping[str, World], value: str) -> tuple[str, str | None]:
    """Did-you-mean for a world id (matching ids and printed names): the message suffix
    and the fix."""
    return hint_and_fix(value, worlds, {i: w.name for i, w in worlds.items()})
