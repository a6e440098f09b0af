"""The attack templates catalog: YAML entries -> `Template`s.

Entry point: `read_templates(entries) -> dict[str, Template]`, ids sorted. The schema
(schemas/catalogs/templates.schema.json) is the whole check, so this reader only fills in
the defaults. What a template covers on a map is compiler/geometry/templates.py's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compiler import frozen
from compiler.catalogs.document import Entry



@frozen
class Template:
    """The squares one template ability covers (docs/rules.md, "Attack templates")."""

    id: str
    name: str
    ability: str  # the monster ability that uses it, lower case, without a rank
    anchor: str  # attacker_side | target
    squares: tuple[tuple[int, int], ...] = ()  # attacker_side: offsets for the north side
    radius: int | None = None  # target: a fixed radius; None with `by_rank`
    by_rank: bool = False  # target: the radius is the ability's rank
    needs_sight: bool = False
    stops_terrain: bool = False  # movement-blocking terrain stops it too (walls and closed doors always do)
    source: str = "illustrative"
    facts: tuple[tuple[str, str], ...] = ()

    def radius_for(self, rank: int | None) -> int:
        if self.by_rank:
            return rank if rank is not None else 1
        return self.radius or 0


def to_template(tid: str, data: Mapping[str, Any]) -> Template:
    radius = data.get("radius")
    return Template(
        id=tid,
        name=str(data.get("name", tid)),
        ability=str(data.get("ability", data.get("name", tid))).strip().lower(),
        anchor=str(data.get("anchor", "target")),
        squares=tuple((int(dx), int(dy)) for dx, dy in data.get("squares") or ()),
        radius=radius if isinstance(radius, int) else None,
        by_rank=radius == "rank",
        needs_sight=bool(data.get("needs_sight", False)),
        stops_terrain="blocking_terrain" in (data.get("stops") or ()),
        source=str(data.get("source", "illustrative")),
        facts=tuple(sorted((str(k), str(v)) for k, v in (data.get("facts") or {}).items())),
    )


def read_templates(entries: Mapping[str, Entry]) -> dict[str, Template]:
    return {tid: to_template(tid, e.data if isinstance(e.data, dict) else {}) for tid, e in sorted(entries.items())}


def ability_rank(ability: str) -> tuple[str, int | None]:
    """`Blast 2` -> ("blast", 2); `Breath` -> ("breath", None)."""
    # Not a regular expression: `\s*(.*?)\s*(\d+)?\s*$` backtracked cubically over a run
    # of blanks inside the name (8 s for 2,000 spaces).
    text = ability.strip()
    name = text.rstrip("0123456789")
    rank = text[len(name):]
    return name.strip().lower(), (int(rank) if rank and len(rank) <= 9 else None)


def template_of(abilities: tuple[str, ...], templates: Mapping[str, Template]) -> tuple[Template, int | None] | None:
    """The first of a monster's abilities that attacks with a template, with its rank."""
    by_ability = {t.ability: t for _, t in sorted(templates.items())}
    for a in abilities:
        name, rank = ability_rank(a)
        if name in by_ability:
            return by_ability[name], rank
    return None
