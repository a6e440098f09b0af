"""The familiars catalog: YAML entries -> `Familiar`s.

Entry point: `read_familiars(entries) -> dict[str, Familiar]`, ids sorted. `entries` is the
merged `familiars` catalog of one pack and everything it requires. Each edition's core pack
holds its own (content/core-2e/familiars.yaml, content/core-1e/familiars.yaml); the schema
(schemas/catalogs/familiars.schema.json) is the whole check, so this reader fills in the
defaults. docs/rules.md, "Familiars", says what the executor does with them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compiler import frozen
from compiler.catalogs.document import Entry


@frozen
class Familiar:
    id: str
    name: str
    figure: bool  # blocks movement and sight, holds its space, a target as a hero
    targeted: bool  # monsters target it as a hero (defaults to `figure`)
    speed: int = 0
    health: int | None = None
    source: str = "illustrative"


def to_familiar(fid: str, data: Mapping[str, Any]) -> Familiar:
    figure = bool(data.get("figure", True))
    health = data.get("health")
    return Familiar(fid, str(data.get("name", fid)), figure, bool(data.get("targeted", figure)),
                    int(data.get("speed", 0)), None if health is None else int(health), str(data.get("source", "illustrative")))


def read_familiars(entries: Mapping[str, Entry]) -> dict[str, Familiar]:
    return {fid: to_familiar(fid, e.data if isinstance(e.data, dict) else {}) for fid, e in sorted(entries.items())}
