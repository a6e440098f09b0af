"""JSON shared between builds: emitted, validated and serialised once per unchanged input.

`questc watch` rebuilds a pack after every save, and most of a bundle does not change:
the catalogs, the worlds, the cards and, above all, the maps (their adjacency, counting
and sight arrays are most of a bundle's bytes). An emitter returns such a part as a
`Shared` object, remembered (compiler/memo.py) under the very inputs it was made from,
so the next build gets the same object back; validation (emit/bundle.py) and
serialisation (`dumps` here) remember their answer per Shared object.

`dumps` writes exactly what `json.dumps(data, sort_keys=True, indent=2,
ensure_ascii=False, allow_nan=False)` writes: each Shared part is serialised on its own
and spliced in at its place with the indentation of the line it starts on, which is all
that depth changes in that format. A test compares the two on every shipped bundle.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Hashable, TypeAlias

from compiler.emit.strings import StringEntry, StringTable
from compiler.memo import Same, remembered_pure

# The bundle's JSON values, typed in this one place for every emitter (compiler/emit/)
# and the bundle's validation: what `json.loads` gives back (dicts, lists, str, int, float,
# bool, None). `JSON` is Any on purpose: as a recursive union it would reject every
# emitter's `dict[str, list[int]]` (dict and list are invariant) and each read of a
# bundle would need a cast; the shape is schemas/bundle.schema.json's to check, at
# every build (emit/bundle.py validate_bundle). `JSONObject` is a JSON object.
JSON: TypeAlias = Any
JSONObject: TypeAlias = dict[str, JSON]


def _text(value: JSON) -> str:
    """The canonical JSON text of `value` (no final newline)."""
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False)


# how json.dumps writes the placeholder string of part N
_TOKEN = re.compile(r'"\\u0000questc:(\d+)\\u0000"')


class Shared(dict[str, JSON]):
    """A JSON object that later builds share: never mutate one."""


def shared(key: Hashable, compute: Callable[[], JSONObject]) -> Shared:
    """`compute()` as a Shared object, remembered under `key` (which stands for its inputs)."""
    return remembered_pure(("shared", key), lambda: Shared(compute()))


def shared_with_texts(key: Hashable, emit: Callable[[StringTable], JSONObject], table: StringTable) -> Shared:
    """A part that adds texts to the string table: remembered with the texts it added,
    which are merged into `table` in their order (the same table a fresh emit would
    have filled, since the first text under an id wins)."""

    def fresh() -> tuple[Shared, tuple[tuple[str, StringEntry], ...]]:
        own = StringTable()
        return Shared(emit(own)), tuple(own.entries.items())

    value, texts = remembered_pure(("shared", key), fresh)
    table.merge(texts)
    return value


def dumps(data: JSON) -> bytes:
    """The canonical bytes of a JSON document: sorted keys, two-space indent, UTF-8, final newline."""
    parts: list[Shared] = []

    def skeleton(value: JSON) -> JSON:
        if isinstance(value, Shared):
            parts.append(value)
            return f"\x00questc:{len(parts) - 1}\x00"
        if isinstance(value, dict):
            return {k: skeleton(v) for k, v in value.items()}
        if isinstance(value, list):
            return [skeleton(v) for v in value]
        return value

    text = _text(skeleton(data))
    out: list[str] = []
    done = 0
    for m in _TOKEN.finditer(text):
        part = parts[int(m.group(1))]
        line_start = text.rfind("\n", 0, m.start()) + 1
        indent = len(text[line_start:m.start()]) - len(text[line_start:m.start()].lstrip(" "))
        own = remembered_pure(("json_text", Same(part)), lambda: _text(part))
        out += [text[done:m.start()], own.replace("\n", "\n" + " " * indent)]
        done = m.end()
    out.append(text[done:])
    return ("".join(out) + "\n").encode("utf-8")
