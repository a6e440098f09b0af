"""The string table: every player-facing text once, under an id derived from its place.

Ids say *where* a text sits, never what it says, so a translation keyed by id survives
any rewording of the source (docs/quests.md lists the id scheme):

    quest.<quest>.name
    quest.<quest>.e<N>.flavor | .setup
    quest.<quest>.e<N>.token.<token id>.label
    quest.<quest>.e<N>.event.<k>.<say|win|lose>[.<m>]   k: the event's place in its
                                                          encounter; m >= 2 for a second
                                                          text of the same kind in it

The emitters of compiler/emit/bundle.py share one table while they build the bundle;
its `strings` key is `strings_json(table, pack root)`. Its optional `translations` key is
`translations_json(model.languages)`: language -> id -> text, the usable entries of the
pack's translations/<lang>.po (compiler/passes/translations.py; docs/translations.md).
A pack without translations has no such key, so its bundle is byte for byte what it was.
Locations are `<file relative to the pack folder>:<line>:<column>`, so the bundle does
not depend on the folder the compiler ran in.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Mapping

from compiler.diagnostics import Span
from compiler import frozen
from compiler.syntax import ast

if TYPE_CHECKING:
    from compiler.emit.shared import JSONObject  # shared.py imports this module


@frozen
class StringEntry:
    text: str
    span: Span


def string_id(*parts: object) -> str:
    """Join id parts with dots; parts are identifiers or numbers (never the text)."""
    return ".".join(str(p) for p in parts)


class StringTable:
    """Collects texts by id; adding the same id twice keeps the first (places are unique)."""

    def __init__(self) -> None:
        self.entries: dict[str, StringEntry] = {}

    def add(self, sid: str, text: ast.Text | None) -> str | None:
        if text is None:
            return None
        self.entries.setdefault(sid, StringEntry(text.value, text.span))
        return sid

    def merge(self, entries: Iterable[tuple[str, StringEntry]]) -> None:
        """Add (id, entry) pairs another table collected, in their order (the first text wins)."""
        for sid, entry in entries:
            self.entries.setdefault(sid, entry)


def location(span: Span, root: Path | None) -> str:
    """`file:line:column` with the file relative to the pack folder, '/'-separated."""
    name = span.file
    if root is not None:
        try:
            rel = os.path.relpath(os.path.abspath(span.file), os.path.abspath(root))
        except ValueError:  # another drive on Windows
            rel = None
        if rel is not None and not rel.startswith(".."):
            name = rel  # files outside the pack folder (tests, stdin) keep their own name
    return f"{Path(name).as_posix()}:{span.line}:{span.column}"


def strings_json(table: StringTable, root: Path | None) -> JSONObject | None:
    """The bundle's `strings`: id -> {text, at}, sorted by id."""
    out = {sid: {"text": e.text, "at": location(e.span, root)} for sid, e in table.entries.items()}
    return dict(sorted(out.items())) if out else None


def translations_json(languages: Mapping[str, Mapping[str, str]] | None) -> dict[str, dict[str, str]] | None:
    """The bundle's `translations`: language -> string id -> text, every language the pack
    has a file for (an empty table when none of its entries is usable yet)."""
    if not languages:
        return None
    return {lang: dict(sorted(table.items())) for lang, table in sorted(languages.items())}
