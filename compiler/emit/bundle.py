"""The bundle: the checked model as JSON, validated against schemas/bundle.schema.json.

SECTIONS maps each optional top-level key to the function that emits it from the checked
model (None = absent). Emitters read the passes' typed results and never rerun a pass;
`questc check` never gets here. Keys are sorted and numbers
are integers or fixed strings, so the same model always gives the same bytes.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from compiler import __version__
from compiler.diagnostics import Sink, Span
from compiler.emit.cards import cards_section, decks_section, encounters_section
from compiler.emit.catalogs import terrain_json, tile_json
from compiler.emit.quests import quests_section
from compiler.emit.strings import StringTable, strings_json
from compiler.emit.worlds import world_section
from compiler.model import Model

FORMAT = "questc-bundle"
FORMAT_VERSION = "1.0.0"


def _raw(kind: str) -> Callable[[Model, StringTable], Any]:
    """A catalog section as validated YAML data (dice and monsters need no resolving)."""

    def emit(model: Model, table: StringTable) -> Any:
        entries = model.catalogs.get(kind) or {}
        return {i: e.data for i, e in sorted(entries.items())} or None

    return emit


def _terrain(model: Model, table: StringTable) -> Any:
    return terrain_json(model.terrain) if model.terrain else _raw("terrain")(model, table)


def _tiles(model: Model, table: StringTable) -> Any:
    if model.tiles:
        return {code: tile_json(t) for code, t in sorted(model.tiles.items())}
    return _raw("tiles")(model, table)


def _worlds(model: Model, table: StringTable) -> Any:
    shipped = {wid: world_section(w) for wid, w in sorted((model.worlds or {}).items()) if w.ok}
    return shipped or None


# Top-level key -> its emitter, in the order they run: the texts of quests, then of
# top-level encounters, then of cards go into one string table (the first text under an
# id wins), and `strings` comes last.
SECTIONS: dict[str, Callable[[Model, StringTable], Any]] = {
    "terrain": _terrain,
    "dice": _raw("dice"),
    "tiles": _tiles,
    "monsters": _raw("monsters"),
    "quests": quests_section,
    "encounters": encounters_section,
    "cards": cards_section,
    "decks": lambda model, table: decks_section(model),
    "worlds": _worlds,
    "strings": lambda model, table: strings_json(table, getattr(model.pack, "root", None)),
}


def bundle_of(model: Model) -> dict[str, Any]:
    pack = model.pack
    deps = {p.id: p.version for p in model.packs if p.id in pack.requires}
    out: dict[str, Any] = {
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


def dumps(data: Any) -> bytes:
    """The canonical bytes of a JSON document: sorted keys, two-space indent, UTF-8, final newline."""
    return (json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def validate_bundle(bundle: dict, sink: Sink, where: str) -> bool:
    """Validate against the bundle schema; a failure is an internal error (the compiler made it)."""
    from compiler.catalogs.schema import validator

    errors = sorted(validator("bundle.schema.json").iter_errors(bundle), key=lambda e: list(map(str, e.absolute_path)))
    for error in errors[:20]:
        path = "/".join(map(str, error.absolute_path))
        sink.report("I0002", Span.whole_file(where), path=path or "(top)", problem=error.message[:300])
    return not errors
