"""A loaded YAML document: plain Python data plus a span for every node.

`Document.data` holds only dicts, lists, str, int, float, bool and None, so readers never
see ruamel types. `Document.span(path)` locates any node by its path of keys and indices,
e.g. `doc.span(("tiles", "9A", "grid"))`; `doc.key_span(path)` locates the key itself.
Unknown paths fall back to the nearest known ancestor, so a reader can always locate.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from compiler.diagnostics import Span
from compiler import frozen

Path = tuple[Any, ...]


@frozen
class Document:
    file: str
    data: Any
    spans: dict[Path, Span] = field(default_factory=dict)  # value spans
    key_spans: dict[Path, Span] = field(default_factory=dict)  # spans of mapping keys

    def span(self, path: Path = ()) -> Span:
        path = tuple(path)
        while path not in self.spans and path:
            path = path[:-1]
        return self.spans.get(path, Span.whole_file(self.file))

    def key_span(self, path: Path) -> Span:
        path = tuple(path)
        return self.key_spans.get(path) or self.span(path)

    def get(self, path: Path, default: Any = None) -> Any:
        node = self.data
        for part in path:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                return default
        return node


@frozen
class Entry:
    """One catalog entry (a terrain, a tile, a monster, a die…) as the pipeline hands it to readers.

    `data` is `doc.get(path)`, already validated against `schemas/catalogs/<kind>.schema.json`;
    locate problems with `doc.span(path + ("grid",))` etc. `pack` is the id of the pack that
    defined it (a later pack in dependency order may not redefine an id: the pipeline reports that).
    """

    kind: str
    id: str
    data: Any
    doc: Document
    path: Path
    pack: str

    def span(self, *sub: Any) -> Span:
        return self.doc.span(self.path + tuple(sub))

    def key_span(self, *sub: Any) -> Span:
        return self.doc.key_span(self.path + tuple(sub))
