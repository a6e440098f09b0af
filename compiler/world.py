"""The campaign world (1st-ed. Road to Legend): locations and trails as a graph.

One entry function reads the catalog, pure functions answer questions about it:

    read_world(entry, dice, sink) -> World        # checks, located diagnostics
    distances(world, types)       -> {a: {b: trails}}
    reachable(world, src, types)  -> [ids]        # includes src itself
    rumor_locations(world, src, d, explored) -> [ids]
    encounter_chance(world, trail) -> Fraction | None
    lieutenant_moves(world)       -> {id: [ids]}
    world_section(world)          -> dict         # the bundle's JSON, deterministic
    query(world, src, d)          -> dict         # what `questc world` prints as JSON

The rules behind each function are documented in docs/world.md. Rule variation is
data (the tables below), not branches.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Iterable, Mapping

import networkx as nx

from compiler.diagnostics import Related, Severity, Sink, Span

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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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


@dataclass(frozen=True)
class EncounterDie:
    id: str
    faces: int
    matching: Mapping[str, int]  # danger colour -> number of faces that trigger an encounter

    def face_chance(self, danger: str) -> Fraction:
        return Fraction(self.matching[danger], self.faces)


@dataclass(frozen=True)
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


# --------------------------------------------------------------------------- reading


def _hint(value: Any, choices: Iterable[str], names: Mapping[str, str] | None = None,
          sink: Sink | None = None) -> tuple[str, str | None]:
    """A did-you-mean suffix and the fix, matching ids and (case-insensitively) printed names.
    With a `sink`, the work is charged to its suggestion budget (nothing is suggested once
    it is spent: 1,000 trails to misspelt locations among 1,000 were quadratic); see
    compiler/diagnostics/suggest.py."""
    choices = list(choices)
    if sink is not None:
        cost = 2 * len(choices) + len(names or ())  # two difflib passes at most, one over the names
        if cost > sink.comparisons_left:
            return "", None
        sink.comparisons_left -= cost
    choices.sort()
    text = str(value)
    if names:
        for ident, name in sorted(names.items()):
            if name.casefold() == text.casefold() or ident.casefold() == text.casefold():
                return f"; did you mean `{ident}` ({name})?", ident
    guess = difflib.get_close_matches(text, choices, n=1, cutoff=0.6)
    if not guess:
        folded = {c.casefold(): c for c in choices}
        low = difflib.get_close_matches(text.casefold().replace(" ", "_"), list(folded), n=1, cutoff=0.6)
        guess = [folded[low[0]]] if low else []
    if guess:
        return f"; did you mean `{guess[0]}`?", guess[0]
    return "", None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Reads one world entry; every problem is reported at its node."""

    def __init__(self, entry: Any, sink: Sink) -> None:
        self.entry = entry
        self.sink = sink
        self.errors = 0

    def report(self, code: str, span: Span, **kw: Any) -> None:
        diag = self.sink.report(code, span, **kw)
        if diag.severity is Severity.ERROR:
            self.errors += 1

    def span(self, *sub: Any) -> Span:
        return self.entry.span(*sub)

    def key_span(self, *sub: Any) -> Span:
        return self.entry.key_span(*sub)

    def bad(self, sub: tuple, what: str, expected: str, value: Any) -> None:
        self.report("W0119", self.span(*sub), field=sub[-1], what=what, expected=expected, value=repr(value))


def read_world(entry: Any, dice: Mapping[str, Any] | None, sink: Sink) -> World:
    """Read and check one `world:` catalog entry. Pure: reports to `sink`, returns the World.

    `entry` is a `compiler.catalogs.document.Entry` (data already schema-valid in the
    pipeline, but every check is repeated here so the reader is safe on its own).
    `dice` maps die ids to dice entries (or any object with `faces` / `data["faces"]`).
    """
    r = _Reader(entry, sink)
    data = entry.data if isinstance(entry.data, dict) else {}
    world_id = str(data.get("id", getattr(entry, "id", "world")))
    name = str(data.get("name", world_id))
    raw_locations = data.get("locations") if isinstance(data.get("locations"), dict) else {}
    locations: dict[str, Location] = {}
    for loc_id in sorted(raw_locations):
        loc = _read_location(r, str(loc_id), raw_locations[loc_id])
        if loc is not None:
            locations[loc.id] = loc
    if not raw_locations:
        r.report("W0117", r.span("locations"))
    names = {i: loc.name for i, loc in locations.items()}

    start = data.get("start")
    start = str(start) if start is not None else ""
    start_ok = start in locations
    if not start_ok:
        hint, fix = _hint(start, [i for i, loc in locations.items() if loc.kind == "city"] or locations, names, r.sink)
        r.report("W0108", r.span("start"), name=start, hint=hint, fix=fix)
    elif locations[start].kind != "city":
        r.report("W0109", r.span("start"), name=start, kind=locations[start].kind)

    trails = _read_trails(r, data.get("trails"), locations, names)
    die = _read_die(r, dice)
    world = World(
        id=world_id,
        name=name,
        start=start,
        locations=MappingProxyType(locations),
        trails=tuple(trails),
        die=die,
        span=entry.span(),
    )
    if start_ok:
        _check_connected(r, world)
        _check_start(r, world)
    return World(**{**world.__dict__, "errors": r.errors})


def _source(r: _Reader, raw: dict, sub: tuple) -> tuple[str, dict[str, str]]:
    source = raw.get("source", "illustrative")
    if source not in SOURCES:
        r.bad(sub + ("source",), "a fact's source", " or ".join(SOURCES), source)
        source = "illustrative"
    facts: dict[str, str] = {}
    raw_facts = raw.get("facts") or {}
    if isinstance(raw_facts, dict):
        for key in sorted(raw_facts):
            value = raw_facts[key]
            if value in SOURCES:
                facts[str(key)] = value
            else:
                r.bad(sub + ("facts", key), "a fact's source", " or ".join(SOURCES), value)
    return source, facts


def _read_location(r: _Reader, loc_id: str, raw: Any) -> Location | None:
    sub = ("locations", loc_id)
    if not isinstance(raw, dict):
        r.bad(sub, f"location `{loc_id}`", "a mapping", raw)
        return None
    kind = raw.get("kind")
    if kind not in KINDS:
        hint, fix = _hint(kind, KINDS)
        r.report("W0114", r.span(*sub, "kind"), value=kind, hint=hint, fix=fix)
        return None
    name = raw.get("name", loc_id)
    name = str(name) if isinstance(name, (str, int)) else loc_id
    for fld, kinds in FIELD_KINDS.items():
        if fld in raw and kind not in kinds:
            r.report("W0112", r.key_span(*sub, fld), field=fld, kind=kind, name=loc_id)
    for fld in REQUIRED_FIELDS.get(kind, ()):
        if raw.get(fld) is None:
            r.report("W0113", r.key_span(*sub), kind=kind, name=loc_id, field=fld)

    defense = None
    if kind == "city" and raw.get("defense") is not None:
        defense = _rating(r, sub + ("defense",), "defense", raw["defense"], loc_id)

    buildings: dict[str, int | bool] = {}
    raw_b = raw.get("buildings") if kind == "city" else None
    if isinstance(raw_b, dict):
        for b in sorted(raw_b):
            value = raw_b[b]
            if b in RATED_BUILDINGS:
                if value is None or value is False:
                    continue
                rating = _rating(r, sub + ("buildings", b), b.replace("_", " ").capitalize(), value, loc_id)
                if rating is not None:
                    buildings[b] = rating
            elif b in FLAG_BUILDINGS:
                if not isinstance(value, bool):
                    r.bad(sub + ("buildings", b), b, "true or false", value)
                elif value:
                    buildings[b] = True
            else:
                hint, fix = _hint(b, BUILDINGS)
                r.report("W0120", r.key_span(*sub, "buildings", b), value=b, hint=hint, fix=fix)
    elif raw_b is not None:
        r.bad(sub + ("buildings",), f"`{loc_id}`", "a mapping of buildings", raw_b)

    traits: tuple[str, ...] = ()
    skills: dict[str, tuple[str, ...]] = {}
    raw_t = raw.get("trains") if kind in FIELD_KINDS["trains"] else None
    if isinstance(raw_t, dict):
        tr = raw_t.get("traits") or []
        if isinstance(tr, list):
            for i, t in enumerate(tr):
                if t not in TRAITS:
                    r.bad(sub + ("trains", "traits", i), "a trait", " or ".join(TRAITS), t)
            traits = tuple(sorted({t for t in tr if t in TRAITS}, key=TRAITS.index))
        sk = raw_t.get("skills") or {}
        if isinstance(sk, dict):
            for deck in sorted(sk):
                names = sk[deck] or []
                if isinstance(names, list):
                    skills[str(deck)] = tuple(sorted(str(n) for n in names))

    level = None
    if kind == "legendary" and raw.get("level") is not None:
        level = raw["level"]
        if level not in LEVELS:
            hint, fix = _hint(level, LEVELS)
            r.report("W0116", r.span(*sub, "level"), value=level, hint=hint, fix=fix)
            level = None

    ability = None
    raw_a = raw.get("ability") if kind == "city" else None
    if isinstance(raw_a, dict):
        b = raw_a.get("building")
        if b is not None and b not in BUILDINGS:
            hint, fix = _hint(b, BUILDINGS)
            r.report("W0120", r.span(*sub, "ability", "building"), value=b, hint=hint, fix=fix)
        else:
            ability = (b or "", str(raw_a.get("summary", "")))

    pos = None
    raw_p = raw.get("pos")
    if raw_p is not None:
        if (
            isinstance(raw_p, list)
            and len(raw_p) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw_p)
        ):
            pos = (raw_p[0], raw_p[1])
        else:
            r.bad(sub + ("pos",), f"`{loc_id}`", "[x, y]", raw_p)

    source, facts = _source(r, raw, sub)
    loc = Location(
        id=loc_id,
        name=name,
        kind=kind,
        span=r.key_span(*sub),
        defense=defense,
        buildings=MappingProxyType(buildings),
        traits=traits,
        skills=MappingProxyType(skills),
        level=level,
        ability=ability,
        pos=pos,
        source=source,
        facts=MappingProxyType(facts),
    )
    _check_buildings_named(r, loc, sub)
    return loc


def _rating(r: _Reader, sub: tuple, what: str, value: Any, loc_id: str) -> int | None:
    low, high = RATING_RANGE
    if not _is_int(value) or not low <= value <= high:
        r.report("W0110", r.span(*sub), what=what, value=value, name=loc_id, low=low, high=high)
        return None
    return value


def _check_buildings_named(r: _Reader, loc: Location, sub: tuple) -> None:
    """A city's rules may only use buildings it has."""
    if loc.kind != "city":
        return
    if (loc.traits or any(loc.skills.values())) and not loc.has("training_ground"):
        r.report("W0111", r.key_span(*sub, "trains"), name=loc.id, reason="trains heroes", building="Training Ground")
    if loc.ability and loc.ability[0] and not loc.has(loc.ability[0]):
        building = loc.ability[0].replace("_", " ").title()
        r.report(
            "W0111",
            r.span(*sub, "ability", "building"),
            name=loc.id,
            reason="has a special ability that changes its " + building,
            building=building,
        )


def _read_trails(r: _Reader, raw: Any, locations: Mapping[str, Location], names: Mapping[str, str]) -> list[Trail]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        r.bad(("trails",), "the world", "a list of trails", raw)
        return []
    trails: list[Trail] = []
    seen: dict[tuple[str, str, str], int] = {}
    for i, t in enumerate(raw):
        sub = ("trails", i)
        if not isinstance(t, dict):
            r.bad(sub, "a trail", "a mapping {from, to, type, danger, traffic}", t)
            continue
        ok = True
        ends = []
        for key in ("from", "to"):
            value = t.get(key)
            value = "" if value is None else str(value)
            ends.append(value)
            if value not in locations:
                hint, fix = _hint(value, locations, names, r.sink)
                r.report("W0101", r.span(*sub, key), name=value, hint=hint, fix=fix)
                ok = False
        a, b = ends
        if ok and a == b:
            r.report("W0102", r.span(*sub), name=a)
            ok = False
        ttype = t.get("type", "normal")
        if ttype not in TRAIL_TYPES:
            hint, fix = _hint(ttype, TRAIL_TYPES)
            r.report("W0106", r.span(*sub, "type"), value=ttype, hint=hint, fix=fix)
            ok = False
        danger = t.get("danger")
        if danger not in DANGERS:
            hint, fix = _hint(danger, DANGERS)
            r.report("W0104", r.span(*sub, "danger"), value=danger, hint=hint, fix=fix)
            ok = False
        traffic = t.get("traffic", 0)
        if not _is_int(traffic) or not 0 <= traffic <= MAX_TRAFFIC:  # 10**30 dice hung the exact chance
            r.report("W0105", r.span(*sub, "traffic"), value=repr(traffic), max=MAX_TRAFFIC)
            ok = False
        if not ok:
            continue
        source, facts = _source(r, t, sub)
        trail = Trail(i, a, b, ttype, danger, traffic, r.span(*sub), source, MappingProxyType(facts))
        key = trail.ends + (ttype,)
        if key in seen:
            first = trails[seen[key]]
            r.sink.report(
                "W0103",
                trail.span,
                a=key[0],
                b=key[1],
                type=ttype,
                related=(Related(first.span, "first given here"),),
            )
            r.errors += 1
            continue
        seen[key] = len(trails)
        trails.append(trail)
    return trails


def _faces_of(die: Any) -> list[Any] | None:
    data = getattr(die, "data", None)
    if isinstance(data, dict):
        return data.get("faces")
    if isinstance(die, dict):
        return die.get("faces")
    faces = getattr(die, "faces", None)
    return list(faces) if faces is not None else None


def _face_value(face: Any, key: str) -> Any:
    if isinstance(face, dict):
        return face.get(key)
    return getattr(face, key, None)


FACE_SYMBOLS = ("range", "damage", "surge", "shield", "enhancement", "pierce", "miss")


def face_shows(face: Any, symbol: str) -> bool:
    """Does this die face show `symbol`? `blank` = a face with no symbol at all."""
    if symbol == "blank":
        return not any(_face_value(face, s) for s in FACE_SYMBOLS)
    return bool(_face_value(face, symbol))


def _read_die(r: _Reader, dice: Mapping[str, Any] | None) -> EncounterDie | None:
    faces = _faces_of((dice or {}).get(ENCOUNTER_DIE)) if dice else None
    if not faces:
        r.sink.report("W0115", r.span(), die=ENCOUNTER_DIE)
        return None
    matching = {danger: sum(1 for f in faces if face_shows(f, sym)) for danger, sym in ENCOUNTER_FACE.items()}
    return EncounterDie(ENCOUNTER_DIE, len(faces), MappingProxyType(matching))


def _check_connected(r: _Reader, world: World) -> None:
    g = graph(world)
    parts = sorted((sorted(c) for c in nx.connected_components(g)), key=lambda c: c[0])
    if len(parts) == 1:
        return
    for part in parts:
        if world.start in part:
            continue
        shown = ", ".join(part[:5]) + (", …" if len(part) > 5 else "")
        loc = world.locations[part[0]]
        r.report("W0107", loc.span, parts=len(parts), count=len(part), start=world.start, names=shown)


def _check_start(r: _Reader, world: World) -> None:
    start = world.locations[world.start]
    if start.kind == "city" and not start.has("temple"):
        r.report(
            "W0111",
            start.span,
            name=start.id,
            reason="is the start city, where slain heroes return to the Temple,",
            building="Temple",
        )
    types = sorted({t.type for t in world.trails if start.id in (t.a, t.b)})
    if types and "normal" not in types:
        r.sink.report("W0118", start.span, start=start.id, types=" or ".join(types))


# --------------------------------------------------------------------------- the graph


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


# --------------------------------------------------------------------------- output


def fraction_json(p: Fraction) -> dict[str, Any]:
    return {"p": f"{p.numerator}/{p.denominator}", "p_float": float(p)}


def _facts_json(source: str, facts: Mapping[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {"source": source}
    if facts:
        out["facts"] = dict(sorted(facts.items()))
    return out


def _location_json(loc: Location) -> dict[str, Any]:
    out: dict[str, Any] = {"name": loc.name, "kind": loc.kind, **_facts_json(loc.source, loc.facts)}
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


def _trail_json(world: World, t: Trail) -> dict[str, Any]:
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


def _reach_map(world: World, types: tuple[str, ...]) -> dict[str, Any]:
    """The parts of the map a party lacking some upgrades moves within: a location
    reaches exactly the members of its own part (`parts[part_of[id]]`)."""
    parts = sorted((sorted(c) for c in nx.connected_components(graph(world, types))), key=lambda c: c[0])
    part_of = {m: i for i, part in enumerate(parts) for m in part}
    return {"parts": parts, "part_of": dict(sorted(part_of.items()))}


def world_section(world: World) -> dict[str, Any]:
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


def query(world: World, src: str, rumor_distance: int | None = None, explored: Iterable[str] = ()) -> dict[str, Any]:
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


def hint_location(world: World, value: str) -> tuple[str, str | None]:
    """Did-you-mean for a location id (matching ids and printed names)."""
    return _hint(value, world.locations, {i: loc.name for i, loc in world.locations.items()})


# --------------------------------------------------------------------------- the pass


def world_pass(model: Any, sink: Sink) -> Any:
    """Read every world of the pack's catalogs: sections `worlds` (id -> World), `world`
    (that World when there is exactly one) and `worlds_json` (id -> bundle section, only
    for worlds without errors)."""
    entries = (model.catalogs or {}).get("world") or {}
    if not entries:
        return model
    dice = (model.catalogs or {}).get("dice") or {}
    worlds = {wid: read_world(entry, dice, sink) for wid, entry in sorted(entries.items())}
    shipped = {wid: world_section(w) for wid, w in worlds.items() if w.ok}
    model = model.with_section("worlds", MappingProxyType(worlds))
    if len(worlds) == 1:  # the common case, under the name the renderer looks for
        model = model.with_section("world", next(iter(worlds.values())))
    return model.with_section("worlds_json", shipped) if shipped else model
