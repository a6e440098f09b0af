"""The lines catalog: YAML entries -> `LineRule`s.

A line runs along square edges (2nd-edition elevation); `line KIND at SPACE.SIDE, …`
places one on a map (compiler/geometry/assemble.py lays it on the Board). Entry point:
`read_lines(entries) -> dict[str, LineRule]`, ids sorted; the schema
(schemas/catalogs/lines.schema.json) is the whole check.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compiler import frozen
from compiler.catalogs.document import Entry


@frozen
class LineRule:
    """How one kind of line changes movement (none blocks sight: elevation does not)."""

    id: str
    name: str
    cross_cost: int = 0  # movement points added to a step across it
    colour: str = "#e07b00"
    source: str = "illustrative"
    facts: tuple[tuple[str, str], ...] = ()  # (field, source) where it differs from `source`


def to_line(lid: str, data: Mapping[str, Any]) -> LineRule:
    return LineRule(
        id=lid,
        name=str(data.get("name", lid)),
        cross_cost=int(data.get("cross_cost", 0)),
        colour=str(data.get("colour", "#e07b00")),
        source=str(data.get("source", "illustrative")),
        facts=tuple(sorted((str(k), str(v)) for k, v in (data.get("facts") or {}).items())),
    )


def read_lines(entries: Mapping[str, Entry]) -> dict[str, LineRule]:
    return {lid: to_line(lid, e.data if isinstance(e.data, dict) else {}) for lid, e in sorted(entries.items())}
