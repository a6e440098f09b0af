"""JSON Schema validation of catalogs and bundles, errors located at the YAML node.

Schemas live in `schemas/` (draft 2020-12). Catalog kind K is validated against
`schemas/catalogs/K.schema.json`. Cross-file `$ref`s resolve inside `schemas/` only.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from compiler.catalogs.document import Document, Path
from compiler.diagnostics import Sink
from compiler.diagnostics.hints import did_you_mean
from compiler.resources import packaged_text, schemas_dir

if TYPE_CHECKING:
    # jsonschema ships no types (pyproject's overrides): ValidationError and Validator are Any
    # to the checker; referencing is typed
    from jsonschema import ValidationError
    from jsonschema.protocols import Validator
    from referencing import Resource
    from referencing.jsonschema import Schema, SchemaRegistry


@functools.cache
def schema_registry(skipped: tuple[str, ...] = ()) -> SchemaRegistry:
    """Every schema under schemas/, by $id and by path; a `skipped` one accepts anything
    (a caller validates those parts on their own, see emit/bundle.py)."""
    from referencing import Registry, Resource

    resources: list[tuple[str, Resource[Schema]]] = []
    root = schemas_dir()
    for path in sorted(root.rglob("*.schema.json")):
        schema = json.loads(packaged_text(path))
        rel = path.relative_to(root).as_posix()
        resources.append((schema.get("$id", rel), Resource.from_contents(schema)))
        if schema.get("$id") and schema["$id"] != rel:
            resources.append((rel, Resource.from_contents(schema)))
    for name in skipped:
        resources.append((name, Resource.from_contents({"$schema": "https://json-schema.org/draft/2020-12/schema"})))
    return Registry().with_resources(resources)


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    """`name` relative to schemas/, e.g. 'catalogs/tiles.schema.json'."""
    schema: dict[str, Any] = json.loads(packaged_text(schemas_dir() / name))  # JSON: plain data
    return schema


@functools.cache
def _ecma(pattern: str) -> re.Pattern[str]:
    """A JSON Schema `pattern` with ECMA-262's meaning of `$`: the end of the text. Python's
    `$` also matches before a final newline, so "core\\n" would pass ^[a-z-]+$ and an id
    ending in a newline would become a folder name."""
    out, in_class, escaped = [], False, False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif ch == "$" and not in_class:
            ch = r"\Z"
        out.append(ch)
    return re.compile("".join(out))


def _pattern(validator: Validator, pattern: str, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    from jsonschema import ValidationError

    if validator.is_type(instance, "string") and not _ecma(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _integer(checker: Any, instance: Any) -> bool:
    """An integer is an int. JSON Schema also calls 2.0 and 1e308 integers (numbers with no
    fractional part), but YAML reads them as floats and the readers after the schema took
    `isinstance(v, int)` to tell an integer from a mapping: `openings: {north: [1e308]}`
    passed the schema and crashed the tiles pass (make fuzz)."""
    return isinstance(instance, int) and not isinstance(instance, bool)


@functools.cache
def validator_class() -> type[Validator]:
    """Draft 2020-12 with ECMA-262's `pattern` (see `_ecma`) and integers that are ints
    (`_integer`): every schema check uses it."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend

    types = Draft202012Validator.TYPE_CHECKER.redefine("integer", _integer)
    extended: type[Validator] = extend(Draft202012Validator, {"pattern": _pattern}, type_checker=types)
    return extended


@functools.cache
def validator(name: str, skipped: tuple[str, ...] = ()) -> Validator:
    return validator_class()(load_schema(name), registry=schema_registry(skipped))


def catalog_schema_name(kind: str) -> str:
    return f"catalogs/{kind}.schema.json"


def catalog_kinds() -> tuple[str, ...]:
    folder = schemas_dir() / "catalogs"
    return tuple(sorted(p.name.removesuffix(".schema.json") for p in folder.glob("*.schema.json")))


def validate_node(schema_name: str, doc: Document, path: Path, sink: Sink) -> bool:
    """Validate `doc.get(path)` against a schema; report each error at its node. True if valid."""
    instance = doc.get(path)
    errors = sorted(
        validator(schema_name).iter_errors(instance),
        key=lambda e: (list(map(str, e.absolute_path)), e.validator, e.message),
    )
    ok = True
    leaves = list(_leaves(errors))
    # a misspelt key is one mistake: `gird` is Y0102 (did you mean `grid`?), and the
    # "`grid` is required" of the same mapping is not said on top of it
    meant: set[tuple[Path, str]] = set()
    guessed: dict[tuple[str, tuple[str, ...]], str | None] = {}

    def meaning(extra: str, allowed: list[str]) -> str | None:
        """did_you_mean, once per misspelling and mapping kind: both loops ask, and a file
        of 18,725 entries each misspelling one key asked 37,450 times (4 s; make fuzz)."""
        key = (extra, tuple(allowed))
        if key not in guessed:
            guessed[key] = did_you_mean(extra, allowed)
        return guessed[key]

    for error in leaves:
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = sorted((error.schema.get("properties") or {}).keys())
            for extra in set(error.instance) - set(allowed):
                guess = meaning(extra, allowed)
                if guess is not None:
                    meant.add((tuple(error.absolute_path), guess))
    # the keys a mapping lacks are one message: an empty `1A:` lacks `grid` and `kind`
    lacking: dict[Path, list[str]] = {}
    for error in leaves:
        if error.validator == "required":
            missing = re.match(r"'(.*)' is a required property", error.message)
            if missing and (tuple(error.absolute_path), missing.group(1)) not in meant:
                lacking.setdefault(tuple(error.absolute_path), []).append(missing.group(1))
    said: set[Path] = set()
    for error in leaves:
        ok = False
        where = path + tuple(error.absolute_path)
        if error.validator == "required":
            missing = re.match(r"'(.*)' is a required property", error.message)
            if missing:
                keys = lacking.get(tuple(error.absolute_path), [])
                if tuple(error.absolute_path) in said or missing.group(1) not in keys:
                    continue
                said.add(tuple(error.absolute_path))
                if len(keys) > 1:
                    names = [f"`{k}`" for k in sorted(keys)]
                    problem = ", ".join(names[:-1]) + f" and {names[-1]} are required"
                    sink.report("Y0101", doc.span(where), problem=problem, where=_dotted(where))
                    continue
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = sorted((error.schema.get("properties") or {}).keys())
            for extra in sorted(set(error.instance) - set(allowed)):
                if any(__import__("re").fullmatch(p, extra) for p in (error.schema.get("patternProperties") or {})):
                    continue
                guess = meaning(extra, allowed)
                sink.report(
                    "Y0102",
                    doc.key_span(where + (extra,)),
                    key=extra,
                    hint=f"; did you mean `{guess}`?" if guess else f"; allowed: {', '.join(allowed)}",
                    fix=guess,
                )
            continue
        sink.report("Y0101", doc.span(where), problem=_describe(error), where=_dotted(where))
    return ok


def _leaves(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    """For oneOf/anyOf failures report the most specific sub-error instead of the whole blob."""
    for error in errors:
        if error.context:
            best = max(error.context, key=lambda e: (len(e.absolute_path), -len(e.message)))
            yield best
        else:
            yield error


def _dotted(path: Path) -> str:
    return ".".join(str(p) for p in path) or "(top)"


# JSON Schema's words -> YAML's (a designer writes mappings and sequences, not objects)
EXPECTED = {
    "object": "a mapping (`key: value` lines)",
    "array": "a sequence (`- item` lines or `[a, b]`)",
    "string": "a text",
    "integer": "a whole number",
    "number": "a number",
    "boolean": "true or false",
    "null": "nothing",
}


def yaml_type(value: Any) -> str:
    """What a designer wrote, in YAML's words, with the value when it is short."""
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"`{'true' if value else 'false'}`"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a sequence"
    kind = "a whole number" if isinstance(value, int) else "a number" if isinstance(value, float) else "a text"
    shown = str(value)
    return f"{kind}, `{shown}`" if len(shown) <= 40 else kind


def _expected(types: Any) -> str:
    names = [EXPECTED.get(t, t) for t in ([types] if isinstance(types, str) else types)]
    return " or ".join(names)


def _describe(error: ValidationError) -> str:
    v, want, got = error.validator, error.validator_value, error.instance
    if v == "required":
        missing = re.match(r"'(.*)' is a required property", error.message)
        return f"`{missing.group(1)}` is required" if missing else error.message
    if v == "type":
        return f"expected {_expected(want)}, got {yaml_type(got)}"
    if v == "enum":
        opts = ", ".join(map(str, want))
        guess = did_you_mean(str(got), [str(o) for o in want])
        return f"`{got}` is not one of {opts}" + (f"; did you mean `{guess}`?" if guess else "")
    if v == "const":
        return f"expected `{want}`, got {yaml_type(got)}"
    bounds = {
        "minimum": f"is below the least allowed, {want}",
        "exclusiveMinimum": f"must be more than {want}",
        "maximum": f"is above the most allowed, {want}",
        "exclusiveMaximum": f"must be less than {want}",
    }
    if v in bounds:
        return f"{got} {bounds[v]}"
    sizes = {
        "minItems": f"a sequence of at least {want} item(s)",
        "maxItems": f"a sequence of at most {want} item(s)",
        "minLength": f"a text of at least {want} character(s)",
        "maxLength": f"a text of at most {want} character(s)",
        "minProperties": f"a mapping with at least {want} key(s)",
    }
    if v in sizes:
        return f"expected {sizes[v]}"
    if v == "uniqueItems":
        return "the sequence holds the same item twice"
    if v == "pattern":
        return f"{yaml_type(got)} does not match the pattern `{want}`"
    message: str = error.message
    return message
