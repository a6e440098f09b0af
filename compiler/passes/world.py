"""The world pass: the campaign world catalog read into a World (compiler/model/world.py),
every mistake located at its YAML node: unknown kinds, fields that do not fit a kind,
ratings, buildings, trails to nowhere or to themselves, a map in several parts, a start
that is not a city, the encounter die. The rules are documented in docs/world.md.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

import networkx as nx

from compiler.catalogs.dice import face_shows, faces_of
from compiler.catalogs.document import Entry
from compiler.catalogs.document import Path as YamlPath
from compiler.diagnostics import Related, Severity, Sink, Span
from compiler.diagnostics.hints import hint_and_fix
from compiler.model import Model
from compiler.model.world import (
    BUILDINGS,
    DANGERS,
    ENCOUNTER_DIE,
    ENCOUNTER_FACE,
    EncounterDie,
    FIELD_KINDS,
    FLAG_BUILDINGS,
    KINDS,
    LEVELS,
    Location,
    MAX_TRAFFIC,
    RATED_BUILDINGS,
    RATING_RANGE,
    REQUIRED_FIELDS,
    SOURCES,
    TRAIL_TYPES,
    TRAITS,
    Trail,
    World,
    graph,
)

# --------------------------------------------------------------------------- reading


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class _Reader:
    """Reads one world entry; every problem is reported at its node."""

    def __init__(self, entry: Entry, sink: Sink) -> None:
        self.entry = entry
        self.sink = sink
        self.errors = 0
        self.dropped = False  # a location or trail left out for its errors: the graph is not the catalog's
        self.bad_buildings: set[tuple[str, str]] = set()  # (location, building) given with a bad rating

    def report(self, code: str, span: Span, **kw: Any) -> None:
        diag = self.sink.report(code, span, **kw)
        if diag.severity is Severity.ERROR:
            self.errors += 1

    def span(self, *sub: Any) -> Span:
        return self.entry.span(*sub)

    def key_span(self, *sub: Any) -> Span:
        return self.entry.key_span(*sub)

    def bad(self, sub: YamlPath, what: str, expected: str, value: Any) -> None:
        self.report("W0119", self.span(*sub), field=sub[-1], what=what, expected=expected, value=repr(value))


def read_world(entry: Entry, dice: Mapping[str, Any] | None, sink: Sink) -> World:
    """Read and check one `world:` catalog entry. Pure: reports to `sink`, returns the World.

    `entry` is a `compiler.catalogs.document.Entry` (data already schema-valid in the
    pipeline, but every check is repeated here so the reader is safe on its own).
    `dice` maps die ids to dice entries (or any object with `faces` / `data["faces"]`).
    """
    r = _Reader(entry, sink)
    data = entry.data if isinstance(entry.data, dict) else {}
    world_id = str(data.get("id", getattr(entry, "id", "world")))
    name = str(data.get("name", world_id))
    raw = data.get("locations")
    raw_locations: dict[Any, Any] = raw if isinstance(raw, dict) else {}
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
        if raw_locations:  # no locations at all is W0117 alone
            hint, fix = hint_and_fix(start, [i for i, loc in locations.items() if loc.kind == "city"] or locations, names, r.sink)
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
        span=entry.key_span(),
    )
    if start_ok:
        if not r.dropped:  # a part cut off by a dropped trail or location is the error's echo
            _check_connected(r, world)
        _check_start(r, world)
    return World(**{**world.__dict__, "errors": r.errors})


def _source(r: _Reader, raw: dict[Any, Any], sub: YamlPath) -> tuple[str, dict[str, str]]:
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
        r.dropped = True
        return None
    kind = raw.get("kind")
    if kind not in KINDS:
        hint, fix = hint_and_fix(kind, KINDS)
        r.report("W0114", r.span(*sub, "kind"), value=kind, hint=hint, fix=fix)
        r.dropped = True
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
    buildings = _read_buildings(r, sub, loc_id, raw.get("buildings") if kind == "city" else None)
    traits, skills = _read_trains(r, sub, raw.get("trains") if kind in FIELD_KINDS["trains"] else None)
    level = _read_level(r, sub, raw.get("level")) if kind == "legendary" else None
    ability = _read_ability(r, sub, raw.get("ability")) if kind == "city" else None
    pos = _read_pos(r, sub, loc_id, raw.get("pos"))

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


def _read_buildings(r: _Reader, sub: YamlPath, loc_id: str, raw_b: Any) -> dict[str, int | bool]:
    """A city's buildings: rated ones (alchemist, market, temple) with their rating, the
    others (tavern, training ground) when true."""
    buildings: dict[str, int | bool] = {}
    if isinstance(raw_b, dict):
        for b in sorted(raw_b):
            value = raw_b[b]
            if b in RATED_BUILDINGS:
                if value is None or value is False:
                    continue
                rating = _rating(r, sub + ("buildings", b), b.replace("_", " ").capitalize(), value, loc_id)
                if rating is not None:
                    buildings[b] = rating
                else:
                    r.bad_buildings.add((loc_id, b))
            elif b in FLAG_BUILDINGS:
                if not isinstance(value, bool):
                    r.bad(sub + ("buildings", b), b, "true or false", value)
                    r.bad_buildings.add((loc_id, b))
                elif value:
                    buildings[b] = True
            else:
                hint, fix = hint_and_fix(b, BUILDINGS)
                r.report("W0120", r.key_span(*sub, "buildings", b), value=b, hint=hint, fix=fix)
    elif raw_b is not None:
        r.bad(sub + ("buildings",), f"`{loc_id}`", "a mapping of buildings", raw_b)
    return buildings


def _read_trains(r: _Reader, sub: YamlPath, raw_t: Any) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """What a location trains: the traits (in TRAITS order) and the skills per deck."""
    traits: tuple[str, ...] = ()
    skills: dict[str, tuple[str, ...]] = {}
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
    return traits, skills


def _read_level(r: _Reader, sub: YamlPath, level: Any) -> str | None:
    """A legendary location's level (copper, silver or gold)."""
    if level is None:
        return None
    if level not in LEVELS:
        hint, fix = hint_and_fix(level, LEVELS)
        r.report("W0116", r.span(*sub, "level"), value=level, hint=hint, fix=fix)
        return None
    return str(level)


def _read_ability(r: _Reader, sub: YamlPath, raw_a: Any) -> tuple[str, str] | None:
    """A city's ability: the building it comes with and its summary."""
    if not isinstance(raw_a, dict):
        return None
    b = raw_a.get("building")
    if b is not None and b not in BUILDINGS:
        hint, fix = hint_and_fix(b, BUILDINGS)
        r.report("W0120", r.span(*sub, "ability", "building"), value=b, hint=hint, fix=fix)
        return None
    return (b or "", str(raw_a.get("summary", "")))


def _read_pos(r: _Reader, sub: YamlPath, loc_id: str, raw_p: Any) -> tuple[float, float] | None:
    """Where the location is drawn: `[x, y]`."""
    if raw_p is None:
        return None
    if isinstance(raw_p, list) and len(raw_p) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in raw_p):
        return (raw_p[0], raw_p[1])
    r.bad(sub + ("pos",), f"`{loc_id}`", "[x, y]", raw_p)
    return None


def _rating(r: _Reader, sub: YamlPath, what: str, value: Any, loc_id: str) -> int | None:
    low, high = RATING_RANGE
    if not _is_int(value) or not low <= value <= high:
        r.report("W0110", r.span(*sub), what=what, value=value, name=loc_id, low=low, high=high)
        return None
    rating: int = value  # an int (not a bool) in range
    return rating


def _check_buildings_named(r: _Reader, loc: Location, sub: YamlPath) -> None:
    """A city's rules may only use buildings it has."""
    if loc.kind != "city":
        return
    if (loc.traits or any(loc.skills.values())) and not loc.has("training_ground") and (loc.id, "training_ground") not in r.bad_buildings:
        r.report("W0111", r.key_span(*sub, "trains"), name=loc.id, reason="trains heroes", building="Training Ground")
    if loc.ability and loc.ability[0] and not loc.has(loc.ability[0]) and (loc.id, loc.ability[0]) not in r.bad_buildings:
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
        trail = _read_trail(r, i, t, locations, names)
        if trail is None:
            r.dropped = True
            continue
        key = trail.ends + (trail.type,)
        if key in seen:
            first = trails[seen[key]]
            r.sink.report(
                "W0103",
                trail.span,
                a=key[0],
                b=key[1],
                type=trail.type,
                related=(Related(first.span, "first given here"),),
            )
            r.errors += 1
            continue
        seen[key] = len(trails)
        trails.append(trail)
    return trails


def _read_trail(r: _Reader, i: int, t: Any, locations: Mapping[str, Location], names: Mapping[str, str]) -> Trail | None:
    """Trail `i`, or None after reporting every problem it has."""
    sub = ("trails", i)
    if not isinstance(t, dict):
        r.bad(sub, "a trail", "a mapping {from, to, type, danger, traffic}", t)
        return None
    ok = True
    ends = []
    for end in ("from", "to"):
        value = t.get(end)
        value = "" if value is None else str(value)
        ends.append(value)
        if value not in locations:
            hint, fix = hint_and_fix(value, locations, names, r.sink)
            r.report("W0101", r.span(*sub, end), name=value, hint=hint, fix=fix)
            ok = False
    a, b = ends
    if ok and a == b:
        r.report("W0102", r.span(*sub), name=a)
        ok = False
    ttype = t.get("type", "normal")
    if ttype not in TRAIL_TYPES:
        hint, fix = hint_and_fix(ttype, TRAIL_TYPES)
        r.report("W0106", r.span(*sub, "type"), value=ttype, hint=hint, fix=fix)
        ok = False
    danger: Any = t.get("danger")  # YAML: one of DANGERS past this check
    if danger not in DANGERS:
        hint, fix = hint_and_fix(danger, DANGERS)
        r.report("W0104", r.span(*sub, "danger"), value=danger, hint=hint, fix=fix)
        ok = False
    traffic = t.get("traffic", 0)
    if not _is_int(traffic) or not 0 <= traffic <= MAX_TRAFFIC:  # 10**30 dice hung the exact chance
        r.report("W0105", r.span(*sub, "traffic"), value=repr(traffic), max=MAX_TRAFFIC)
        ok = False
    if not ok:
        return None
    source, facts = _source(r, t, sub)
    return Trail(i, a, b, ttype, danger, traffic, r.span(*sub), source, MappingProxyType(facts))


def _read_die(r: _Reader, dice: Mapping[str, Any] | None) -> EncounterDie | None:
    faces = faces_of((dice or {}).get(ENCOUNTER_DIE)) if dice else None
    if not faces:
        r.sink.report("W0115", r.key_span(), die=ENCOUNTER_DIE)
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
    if start.kind == "city" and not start.has("temple") and (start.id, "temple") not in r.bad_buildings:
        r.report(
            "W0111",
            start.span,
            name=start.id,
            reason="is the start city, where slain heroes return to the Temple,",
            building="Temple",
        )
    types = sorted({t.type for t in world.trails if start.id in (t.a, t.b)})
    if types and "normal" not in types and not r.dropped:
        r.sink.report("W0118", start.span, start=start.id, types=" or ".join(types))


def world_pass(model: Model, sink: Sink) -> Model:
    """Every world of the pack's catalogs (id -> World); a world read with errors keeps
    its error count, and the emitters ship only worlds without errors."""
    dice = model.catalogs.get("dice") or {}
    worlds = {wid: read_world(entry, dice, sink) for wid, entry in sorted(model.catalogs["world"].items())}
    return model.with_(worlds=MappingProxyType(worlds))
