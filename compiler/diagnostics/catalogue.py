"""The code catalogue: one YAML file per pipeline phase under `codes/`, loaded once.

Each entry: code -> {severity, message (a str.format template), explanation, example, fix}.
Codes carry a phase prefix: P packs, Y YAML/catalogs, S syntax, R resolve, M maps,
L sight, Q quests, C cards/decks, W world, X command line, I internal.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from importlib import resources

from compiler.diagnostics.model import Severity


@dataclass(frozen=True)
class Entry:
    code: str
    severity: Severity
    message: str
    explanation: str
    example: str
    fix: str

    def format(self, **args: object) -> str:
        try:
            return self.message.format(**args)
        except (KeyError, IndexError) as exc:
            raise KeyError(f"{self.code}: missing message argument {exc}") from None

    @property
    def fields(self) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(self.message) if f}


def _load() -> dict[str, Entry]:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    entries: dict[str, Entry] = {}
    folder = resources.files("compiler.diagnostics") / "codes"
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if not item.name.endswith(".yaml"):
            continue
        data = yaml.load(item.read_text(encoding="utf-8")) or {}
        for code, raw in data.items():
            if code in entries:
                raise ValueError(f"diagnostic code {code} defined twice ({item.name})")
            entries[code] = Entry(
                code=code,
                severity=Severity(raw.get("severity", "error")),
                message=raw["message"],
                explanation=raw.get("explanation", "").strip(),
                example=raw.get("example", "").rstrip(),
                fix=raw.get("fix", "").strip(),
            )
    return dict(sorted(entries.items()))


class _Lazy(dict):
    """Loads the catalogue on first use, so `questc --version` stays fast."""

    def _fill(self) -> None:
        if not dict.__len__(self):
            self.update(_load())

    def get(self, key, default=None):
        self._fill()
        return dict.get(self, key, default)

    def __getitem__(self, key):
        self._fill()
        return dict.__getitem__(self, key)

    def __iter__(self):
        self._fill()
        return dict.__iter__(self)

    def __len__(self):
        self._fill()
        return dict.__len__(self)

    def items(self):
        self._fill()
        return dict.items(self)

    def __contains__(self, key):
        self._fill()
        return dict.__contains__(self, key)


CATALOGUE: dict[str, Entry] = _Lazy()
