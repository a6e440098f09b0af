"""The bundle: the checked model as JSON, validated against schemas/bundle.schema.json.

SECTIONS maps each optional top-level key to the function that emits it from the model
(None = absent). A section's emitter reads the pass results in `model.sections`; the
catalog sections fall back to the validated catalog data. Keys are sorted and numbers
are integers or fixed strings, so the same model always gives the same bytes.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from compiler import __version__
from compiler.diagnostics import Sink, Span
from compiler.model import Model

FORMAT = "questc-bundle"
FORMAT_VERSION = "1.0.0"


def _catalog(kind: str) -> Callable[[Model], Any]:
    def emit(model: Model) -> Any:
        typed = model.section(f"{kind}_json")  # a pass may provide a richer, typed form
        if typed is not None:
            return typed
        entries = model.catalogs.get(kind) or {}
        return {i: e.data for i, e in sorted(entries.items())} if entries else None

    return emit


def _section(name: str) -> Callable[[Model], Any]:
    return lambda model: model.section(name)


SECTIONS: dict[str, Callable[[Model], Any]] = {
    "terrain": _catalog("terrain"),
    "dice": _catalog("dice"),
    "tiles": _catalog("tiles"),
    "monsters": _catalog("monsters"),
    "quests": _section("quests_json"),
    "encounters": _section("encounters_json"),
    "cards": _section("cards_json"),
    "decks": _section("decks_json"),
    "worlds": _section("worlds_json"),
    "strings": lambda model: _strings_json(model),
}


def _strings_json(model: Model) -> Any:
    from compiler.emit.strings import strings_json  # the string table every pass may add to

    return strings_json(model)


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
    for key, emit in SECTIONS.items():
        value = emit(model)
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
