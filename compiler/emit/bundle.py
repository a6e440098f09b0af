"""The bundle: the checked model as JSON, validated against schemas/bundle.schema.json.

SECTIONS maps each optional top-level key to the function that emits it from the checked
model (None = absent). Emitters read the passes' typed results and never rerun a pass;
`questc check` never gets here. Keys are sorted and numbers
are integers or fixed strings, so the same model always gives the same bytes.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Callable, Hashable, Iterator

from compiler import __version__
from compiler.diagnostics import Sink, Span
from compiler.emit.campaign import campaign_section
from compiler.emit.app_campaigns import app_campaigns_section
from compiler.emit.cards import cards_json, decks_json, encounters_section
from compiler.emit.effects import chests_section, effects_section, experience_section, tracks_section
from compiler.emit.catalogs import die_json, monster_json, templates_json, terrain_json, tile_json, token_kinds_json
from compiler.emit.quests import quests_section
from compiler.emit.shared import JSON, JSONObject, Shared, shared, shared_with_texts
from compiler.emit.strings import StringTable, strings_json, translations_json
from compiler.emit.worlds import world_section
from compiler.catalogs.schema import load_schema, schema_registry, validator, validator_class
from compiler.memo import Same, remembered_pure
from compiler.model import Model

if TYPE_CHECKING:
    from jsonschema.protocols import Validator  # Any to the checker: jsonschema ships no types

FORMAT = "questc-bundle"
FORMAT_VERSION = "1.2.0"

# (where in the bundle, what is wrong): a schema violation
Problem = tuple[tuple[str | int, ...], str]


def _raw(kind: str) -> Callable[[Model, StringTable], Shared | None]:
    """A catalog section as validated YAML data: terrain and tiles when their pass gave nothing."""

    def emit(model: Model, table: StringTable) -> Shared | None:
        entries = sorted((model.catalogs.get(kind) or {}).items())
        if not entries:
            return None
        return shared(("raw", kind, tuple((i, Same(e.data)) for i, e in entries)), lambda: {i: e.data for i, e in entries})

    return emit


def _dice(model: Model, table: StringTable) -> Shared | None:
    dice = model.dice
    if not dice:
        return None
    return shared(("dice", Same(dice)), lambda: {did: die_json(die) for did, die in sorted(dice.items())})


def _monsters(model: Model, table: StringTable) -> Shared | None:
    monsters = model.monsters
    if not monsters:
        return None
    return shared(("monsters", Same(monsters)), lambda: {mid: monster_json(m) for mid, m in sorted(monsters.items())})


def _terrain(model: Model, table: StringTable) -> Shared | None:
    terrain = model.terrain
    if not terrain:
        return _raw("terrain")(model, table)
    return shared(("terrain", Same(terrain)), lambda: terrain_json(terrain))


def _token_kinds(model: Model, table: StringTable) -> Shared | None:
    kinds = model.token_kinds
    if not kinds:
        return None
    return shared(("token_kinds", Same(kinds)), lambda: token_kinds_json(kinds))


def _templates(model: Model, table: StringTable) -> Shared | None:
    templates = model.templates
    if not templates:
        return None
    return shared(("templates", Same(templates)), lambda: templates_json(templates))


def _tiles(model: Model, table: StringTable) -> Shared | None:
    tiles = model.tiles
    if not tiles:
        return _raw("tiles")(model, table)
    return shared(("tiles", Same(tiles)), lambda: {code: tile_json(t) for code, t in sorted(tiles.items())})


def _worlds(model: Model, table: StringTable) -> Shared | None:
    worlds = model.worlds or {}
    if not any(w.ok for w in worlds.values()):
        return None
    return shared(
        ("worlds", Same(model.worlds)),
        lambda: {wid: world_section(w) for wid, w in sorted(worlds.items()) if w.ok},
    )


def _cards(model: Model, table: StringTable) -> Shared | None:
    cards = model.cards
    if cards is None:
        return None
    return shared_with_texts(("cards", Same(cards)), lambda own: cards_json(cards, own), table)


def _decks(model: Model, table: StringTable) -> Shared | None:
    if model.cards is None or not model.decks:
        return None
    return shared(("decks", Same(model.decks), Same(model.deck_analysis)), lambda: decks_json(model))


# Top-level key -> its emitter, in the order they run: the texts of quests, then of
# top-level encounters, then of cards go into one string table (the first text under an
# id wins), and `strings` comes last. What depends only on catalogs or cards is Shared
# (compiler/emit/shared.py): the same object while its inputs are unchanged.
SECTIONS: dict[str, Callable[[Model, StringTable], JSON]] = {
    "terrain": _terrain,
    "dice": _dice,
    "tiles": _tiles,
    "token_kinds": _token_kinds,
    "templates": _templates,
    "monsters": _monsters,
    "quests": quests_section,
    "encounters": encounters_section,
    "cards": _cards,
    "decks": _decks,
    "effects": effects_section,
    "tracks": tracks_section,
    "experience": experience_section,
    "chests": chests_section,
    "worlds": _worlds,
    "campaign": campaign_section,
    "app_campaigns": app_campaigns_section,
    "strings": lambda model, table: strings_json(table, getattr(model.pack, "root", None)),
    "translations": lambda model, table: translations_json(model.languages),
}


def bundle_of(model: Model) -> JSONObject:
    pack = model.pack
    deps = {p.id: p.version for p in model.packs if p.id in pack.requires}
    out: JSONObject = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "compiler": {"name": "questc", "version": __version__},
        "pack": {
            "id": pack.id,
            "name": pack.name,
            "version": pack.version,
            "licence": pack.licence,
            "ruleset": pack.ruleset,
            "requires": dict(sorted(deps.items())),
        },
    }
    if pack.licence_notes:
        out["pack"]["licence_notes"] = pack.licence_notes
    table = StringTable()
    for key, emit in SECTIONS.items():
        value = emit(model, table)
        if value is not None:
            out[key] = value
    return out


MAP_SCHEMA = "bundle/map.schema.json"
SMALL = 4  # entries with at most this many keys are remembered by their JSON text


def validate_bundle(bundle: JSONObject, sink: Sink, where: str) -> bool:
    """Validate against the bundle schema; a failure is an internal error (the compiler made it).

    Exact, in parts: the top level with every section accepted as it is; each section
    against its own property schema with every map accepted as it is; each map against
    the map schema (the bundle schema refers to it only as an encounter's `map`). A
    Shared part's answer is remembered per object, so a rebuild after an edit validates
    only what changed; unchanged catalogs and maps are most of a bundle."""
    problems: list[Problem] = [(tuple(e.absolute_path), e.message) for e in _top_level().iter_errors(bundle)]
    for key, value in bundle.items():
        if key not in _properties():
            continue
        if _per_entry(key) and isinstance(value, dict) and not isinstance(value, Shared):
            # `{type: object, additionalProperties: S}`: each entry against S, each remembered
            for name, entry in value.items():
                found = _remembered_problems(_section_validator(key, "additionalProperties"), entry)
                problems.extend(((key, name, *path), message) for path, message in found)
        else:
            found = _remembered_problems(_section_validator(key), value)
            problems.extend(((key, *path), message) for path, message in found)
    if not problems:
        for at, amap in _maps(bundle):
            found = _remembered_problems(validator(MAP_SCHEMA), amap)
            problems.extend((at + path, message) for path, message in found)
    for path, message in sorted(problems, key=lambda p: list(map(str, p[0])))[:20]:
        sink.report("I0002", Span.whole_file(where), path="/".join(map(str, path)) or "(top)", problem=message[:300])
    return not problems


def _problems(check: Validator, instance: JSON) -> tuple[Problem, ...]:
    return tuple((tuple(e.absolute_path), e.message) for e in check.iter_errors(instance))


def _remembered_problems(check: Validator, instance: JSON) -> tuple[Problem, ...]:
    key: Hashable
    if isinstance(instance, Shared):  # the same object while its inputs are unchanged
        key = Same(instance)
    elif isinstance(instance, dict) and len(instance) <= SMALL:  # a string table entry: its text is its key
        key = json.dumps(instance, sort_keys=True)
    else:
        return _problems(check, instance)
    return remembered_pure(("valid", Same(check), key), lambda: _problems(check, instance))


def _per_entry(key: str) -> bool:
    prop = _properties()[key]
    return prop.get("type") == "object" and "additionalProperties" in prop and set(prop) <= {"type", "description", "additionalProperties"}


@functools.cache
def _properties() -> JSONObject:
    properties: JSONObject = load_schema("bundle.schema.json")["properties"]
    return properties


@functools.cache
def _top_level() -> Validator:
    """The bundle schema with each section accepted as it is (they are checked one by one)."""
    schema = {**load_schema("bundle.schema.json"), "properties": {k: True for k in _properties()}}
    return validator_class()(schema, registry=schema_registry())


@functools.cache
def _section_validator(key: str, *within: str) -> Validator:
    """A section's schema (or a part of it), with every map accepted as it is."""
    pointer = "/".join(("#/properties", key, *within))
    return validator_class()({"$ref": f"bundle.schema.json{pointer}"}, registry=schema_registry((MAP_SCHEMA,)))


def _maps(bundle: JSONObject) -> Iterator[tuple[tuple[str | int, ...], JSON]]:
    for qid, quest in sorted((bundle.get("quests") or {}).items()):
        for i, enc in enumerate(quest.get("encounters") or ()):
            yield ("quests", qid, "encounters", i, "map"), enc["map"]
    for eid, enc in sorted((bundle.get("encounters") or {}).items()):
        yield ("encounters", eid, "map"), enc["map"]
    campaign = bundle.get("campaign") or {}
    for part in ("levels", "locations"):
        for cid, item in sorted((campaign.get(part) or {}).items()):
            if "map" in item:
                yield ("campaign", part, cid, "map"), item["map"]
