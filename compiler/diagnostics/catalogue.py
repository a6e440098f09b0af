"""The code catalogue: one YAML file per pipeline phase under `codes/`, loaded once.

Each entry: code -> {severity, message (a str.format template), explanation, example, fix},
and `rule` on a code that enforces a rule the rulebooks state: the rule in our own words with
its source, quoted when a quest another program plays breaks it (compiler/diagnostics/origins.py).
Codes carry a phase prefix: P packs, Y YAML/catalogs, S syntax, R resolve, M maps,
L sight, Q quests, C cards/decks, W world, K campaign, G rendering, T translations, A activation
state files, X command line, F configuration, E plugins (loading and guarding them),
I internal. Plugins add their own entries under a prefix of two to four capital letters
(`register_plugin_codes`, called by compiler/plugins/loader.py when a plugin is enabled).
"""

from __future__ import annotations

import re
import string
from importlib import resources
from typing import TYPE_CHECKING, TypeVar, overload

from compiler.diagnostics.model import Severity
from compiler.resources import packaged_text
from compiler import frozen

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values
    from collections.abc import Iterable, Iterator, Mapping
    from importlib.resources.abc import Traversable

_T = TypeVar("_T")

# Fields that only ever add a did-you-mean to a message: empty when not given (a reporter
# that never has a suggestion to make need not pass one).
OPTIONAL_FIELDS: dict[str, object] = {"hint": ""}


@frozen
class Entry:
    code: str
    severity: Severity
    message: str
    explanation: str
    example: str
    fix: str
    rule: str = ""  # the rulebook rule this code enforces, in our words with its source; "" for none

    def format(self, **args: object) -> str:
        try:
            return self.message.format(**{**OPTIONAL_FIELDS, **args})
        except (KeyError, IndexError) as exc:
            raise KeyError(f"{self.code}: missing message argument {exc}") from None

    @property
    def readable(self) -> str:
        """The message as a reader sees it: each value it is filled with shown as
        `<name>` (`unknown tile `<tile>``), a did-you-mean field left out, `{{` as `{`."""
        parts = []
        for literal, name, _, _ in string.Formatter().parse(self.message):
            parts.append(literal)
            if name and name not in OPTIONAL_FIELDS:
                parts.append(f"<{name}>")
        return "".join(parts)

    @property
    def fields(self) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(self.message) if f}


def _files() -> dict[str, list[Traversable]]:
    """Code prefix -> the catalogue files that define codes with it (read from the text)."""
    by_prefix: dict[str, list[Traversable]] = {}
    folder = resources.files("compiler.diagnostics") / "codes"
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".yaml"):
            for prefix in sorted(set(_CODE.findall(packaged_text(item)))):
                by_prefix.setdefault(prefix, []).append(item)
    return by_prefix


_CODE = re.compile(r"^([A-Z])\d{4}:", re.M)


def _load(files: Iterable[Traversable]) -> dict[str, Entry]:
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe")
    entries: dict[str, Entry] = {}
    for item in files:
        data = yaml.load(packaged_text(item)) or {}
        for code, raw in data.items():
            if code in entries:
                raise ValueError(f"diagnostic code {code} defined twice ({item.name})")
            entries[code] = entry_of(code, raw)
    return entries


def entry_of(code: str, raw: Mapping[str, object]) -> Entry:
    """One catalogue entry from its YAML mapping (ValueError/KeyError/TypeError when malformed)."""
    return Entry(
        code=code,
        severity=Severity(raw.get("severity", "error")),
        message=str(raw["message"]),
        explanation=str(raw.get("explanation", "")).strip(),
        example=str(raw.get("example", "")).rstrip(),
        fix=str(raw.get("fix", "")).strip(),
        rule=" ".join(str(raw.get("rule", "")).split()),
    )


class _Lazy(dict[str, Entry]):
    """Loads the catalogue on first use, so `questc --version` stays fast; a lookup loads
    only the files of its code's phase (a whole YAML catalogue costs a second to parse)."""

    _by_prefix: dict[str, list[Traversable]] | None = None
    _loaded: set[str]  # names of the files read so far

    def _fill(self, prefix: str | None = None) -> None:
        if self._by_prefix is None:
            self._by_prefix, self._loaded = _files(), set()
        wanted = [prefix] if prefix is not None else sorted(self._by_prefix)
        files = sorted({f for p in wanted for f in self._by_prefix.get(p, []) if f.name not in self._loaded}, key=lambda f: f.name)
        if files:
            loaded = _load(files)
            present = set(dict.keys(self))  # apart: inside `&`, the checker would take the keys for objects
            clash = set(loaded) & present
            if clash:
                raise ValueError(f"diagnostic codes defined twice: {sorted(clash)}")
            dict.update(self, loaded)
            self._loaded.update(f.name for f in files)
        if prefix is None and list(dict.keys(self)) != sorted(dict.keys(self)):
            ordered = dict(sorted(dict.items(self)))  # whole-catalogue readers see codes in order
            dict.clear(self)
            dict.update(self, ordered)

    @overload
    def get(self, key: str, default: None = None) -> Entry | None: ...
    @overload
    def get(self, key: str, default: Entry) -> Entry: ...
    @overload
    def get(self, key: str, default: _T) -> Entry | _T: ...
    def get(self, key: str, default: object = None) -> object:
        self._fill(str(key)[:1] or None)
        return dict.get(self, key, default)

    def __getitem__(self, key: str) -> Entry:
        self._fill(str(key)[:1] or None)
        return dict.__getitem__(self, key)

    def __contains__(self, key: object) -> bool:
        self._fill(str(key)[:1] or None)
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def items(self) -> dict_items[str, Entry]:
        self._fill()
        return dict.items(self)

    def keys(self) -> dict_keys[str, Entry]:
        self._fill()
        return dict.keys(self)

    def values(self) -> dict_values[str, Entry]:
        self._fill()
        return dict.values(self)


CATALOGUE: dict[str, Entry] = _Lazy()


def register_plugin_codes(entries: dict[str, Entry]) -> None:
    """Add an enabled plugin's entries (codes under its own prefix, checked by the loader)."""
    for code, entry in entries.items():
        dict.__setitem__(CATALOGUE, code, entry)


def forget_plugin_codes(codes: Iterable[str]) -> None:
    """Take a plugin's entries out again (the plugins enabled for the next run differ)."""
    for code in codes:
        dict.pop(CATALOGUE, code, None)
