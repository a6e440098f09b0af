"""The compiled model: the resolved pack, its catalogs and quest files, and each pass's results."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Mapping

from compiler.catalogs.document import Entry
from compiler.options import Options
from compiler.packs import Pack
from compiler.syntax import ast


@dataclass(frozen=True)
class Model:
    options: Options
    pack: Pack  # the pack being compiled
    packs: tuple[Pack, ...]  # its dependency closure in dependency order, `pack` last
    catalogs: Mapping[str, Mapping[str, Entry]]  # kind -> id -> entry, merged over `packs`
    modules: tuple[ast.Module, ...]  # the pack's own parsed .quest files, sorted by file
    sections: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def with_section(self, name: str, value: Any) -> "Model":
        """A new model with one more pass result (passes never mutate)."""
        return replace(self, sections=MappingProxyType({**self.sections, name: value}))

    def section(self, name: str, default: Any = None) -> Any:
        return self.sections.get(name, default)

    def declarations(self, kind: type) -> list:
        return [d for m in self.modules for d in m.declarations if isinstance(d, kind)]
