"""The token kinds catalog: YAML entries -> `TokenKind`s.

Entry point: `read_tokens(entries) -> dict[str, TokenKind]`, ids sorted. `entries` is
the merged `tokens` catalog of one pack and everything it requires (id -> schema-valid
`compiler.catalogs.document.Entry`). Each edition's core pack holds its own kinds
(content/core-2e/tokens.yaml, content/core-1e/tokens.yaml); the schema
(schemas/catalogs/tokens.schema.json) is the whole check, so this reader only fills in
the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from compiler import frozen
from compiler.catalogs.document import Entry

ILLUSTRATIVE = "illustrative"


@frozen
class TokenKind:
    """What a token of one kind means (data from the core packs' tokens catalog)."""

    id: str
    name: str
    meaning: str  # search | unique_search | objective | villager | potion | treasure | …
    action: str = "none"  # search | pick_up | activate | none
    reach: str = "on_or_adjacent"  # on | on_or_adjacent
    colours: tuple[str, ...] = ()
    valkyrie: tuple[str, ...] = ()  # the Valkyrie app's token types for this kind
    source: str = ILLUSTRATIVE


def to_kind(kid: str, data: Mapping[str, Any]) -> TokenKind:
    return TokenKind(
        id=kid,
        name=str(data.get("name", kid)),
        meaning=str(data.get("meaning", kid)),
        action=str(data.get("action", "none")),
        reach=str(data.get("reach", "on_or_adjacent")),
        colours=tuple(data.get("colours") or ()),
        valkyrie=tuple(data.get("valkyrie") or ()),
        source=str(data.get("source", ILLUSTRATIVE)),
    )


def read_tokens(entries: Mapping[str, Entry]) -> dict[str, TokenKind]:
    return {kid: to_kind(kid, e.data if isinstance(e.data, dict) else {}) for kid, e in sorted(entries.items())}
