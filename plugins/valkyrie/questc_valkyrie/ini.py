"""The Valkyrie file formats, read with a line for everything and written back.

Valkyrie keeps a quest in `.ini` files (`[Section]` headers, `key=value` lines, `;`
comments) and its texts in `Localization.<Language>.txt` files (comma-separated
`key,text` lines under a `.,<Language>` header, RFC 4180 quoting). This module is the one
place that reads and writes both; the importer and the exporter work on its values.

Why not `configparser`: it gives no line numbers (a diagnostic must name the `.ini` file
and line), it silently continues an indented line into the previous value, and it
treats a key without `=` either as an error for the whole file or, with
`allow_no_value`, as valid everywhere. Valkyrie's own reader accepts bare keys only in
the file lists of `quest.ini` (`[QuestData]`, `[QuestText]`), so this reader does the same
and reports every other problem at its line: text before the first section (VK0101), a
key given twice in a section (VK0102), a line without `=` (VK0103), a section given twice
(VK0104), a broken section header (VK0105). Reading never raises.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from typing import Sequence

from compiler.plugins.api import Related, Sink, Span

# Sections whose lines are names, not key=value pairs (quest.ini's file lists).
LIST_SECTIONS = frozenset({"QuestData", "QuestText"})
_HEADER = re.compile(r"\[([^\[\]]+)\]\s*(?:;.*)?$")


@dataclass(frozen=True)
class Value:
    """One `key=value` line: the value as written (spaces around it stripped) and where."""

    key: str
    text: str
    span: Span  # the whole line
    value_span: Span  # just the value


@dataclass
class Section:
    name: str
    file: str
    span: Span  # the header line
    values: dict[str, Value] = field(default_factory=dict)
    names: list[Value] = field(default_factory=list)  # the lines of a list section, in order

    def get(self, key: str, default: str | None = None) -> str | None:
        v = self.values.get(key)
        return v.text if v is not None else default

    def span_of(self, key: str) -> Span:
        """The line of `key`, or the section header when the key is absent."""
        v = self.values.get(key)
        return v.span if v is not None else self.span


@dataclass
class IniFile:
    path: str  # as shown in diagnostics
    sections: list[Section] = field(default_factory=list)

    def section(self, name: str) -> Section | None:
        return next((s for s in self.sections if s.name == name), None)


MAX_REPEATS_SHOWN = 100  # VK0102 in one file: keys given again, each reported once


class _Repeats:
    """VK0102 of one file: once per key given again (at its first repeat), at most
    MAX_REPEATS_SHOWN keys, the last of them saying that the rest are not reported (a file of
    16,000 lines repeating one key was 16,000 warnings, 8.7 s to render: make fuzz seed 3902
    r:4176). The app ignores every repeat the same way (IniRead, DictionaryI18n)."""

    def __init__(self) -> None:
        self.done: set[tuple[str, str]] = set()

    def report(self, sink: Sink, span: Span, section: str, key: str, first: Span) -> None:
        if (section, key) in self.done or len(self.done) >= MAX_REPEATS_SHOWN:
            return
        self.done.add((section, key))
        more = "; keys given again after this one in the file are not reported" if len(self.done) == MAX_REPEATS_SHOWN else ""
        sink.report("VK0102", span, section=section, key=key, more=more, related=(Related(first, "first given here"),))


def read_ini(text: str, path: str, sink: Sink) -> IniFile:
    """Every section of one `.ini` text, in file order; problems reported at their line."""
    out = IniFile(path)
    repeats = _Repeats()
    current: Section | None = None
    seen: dict[str, Section] = {}
    orphan_reported = False
    no_equals = 0  # VK0103 reported in this file (at most MAX_REPEATS_SHOWN, as VK0102)
    for no, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip().lstrip("\ufeff")
        if not line or line.startswith(";") or line.startswith("#"):
            continue
        whole = Span(path, no, 1, no, len(raw) + 1)
        if line.startswith("["):
            m = _HEADER.match(line)
            if not m or not m.group(1).strip():
                sink.report("VK0105", whole, line=_shown(line))
                current = None
                continue
            name = m.group(1).strip()
            sec = Section(name, path, whole)
            if name in seen:
                sink.report("VK0104", whole, section=name, related=(Related(seen[name].span, "first given here"),))
                current = None  # the second copy is not read: one mistake, one diagnostic
                continue
            seen[name] = sec
            out.sections.append(sec)
            current = sec
            continue
        if current is None:
            if not orphan_reported and not seen:
                sink.report("VK0101", whole, line=_shown(line))
                orphan_reported = True
            continue
        if current.name in LIST_SECTIONS and "=" not in line:
            current.names.append(Value(line, "", whole, whole))
            continue
        key, eq, value = line.partition("=")
        key = key.strip()
        if not eq or not key:
            no_equals += 1
            if no_equals <= MAX_REPEATS_SHOWN:
                more = "; lines without `=` after this one in the file are not reported" if no_equals == MAX_REPEATS_SHOWN else ""
                sink.report("VK0103", whole, section=current.name, line=_shown(line), more=more)
            continue
        start = raw.index("=") + 2 + (len(value) - len(value.lstrip()))
        vspan = Span(path, no, start, no, max(start + len(value.strip()), start + 1))
        if key in current.values:
            repeats.report(sink, whole, current.name, key, current.values[key].span)
            continue
        current.values[key] = Value(key, value.strip(), whole, vspan)
    return out


def _shown(line: str) -> str:
    return line if len(line) <= 60 else line[:57] + "…"


def write_ini(sections: Sequence[tuple[str, Sequence[tuple[str, str | None]]]], header: str | None = None) -> str:
    """Sections as Valkyrie writes them: `[Name]`, `key=value` lines (a value of None writes
    the bare key, for quest.ini's file lists), a blank line between sections, CRLF-free."""
    out: list[str] = []
    if header:
        out.append(f"; {header}")
    for name, pairs in sections:
        if out:
            out.append("")
        out.append(f"[{name}]")
        for key, value in pairs:
            out.append(key if value is None else f"{key}={value}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- localisation files
@dataclass(frozen=True)
class Text:
    key: str
    text: str  # with Valkyrie's `\n` escapes turned into new lines
    span: Span


@dataclass
class Localization:
    path: str
    languages: tuple[str, ...]
    texts: dict[str, dict[str, Text]]  # language -> key -> text


def read_localization(text: str, path: str, sink: Sink) -> Localization | None:
    """A `Localization*.txt`: header `.,Lang1,Lang2…`, then `key,text1,text2…` rows."""
    rows = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""))
    try:
        header = next(rows, None)
    except csv.Error as exc:
        sink.report("VK0106", Span(path, 1), path=path, problem=str(exc))
        return None
    # The app reads the language from the header's second column and ignores the first
    # (DictionaryI18n.AddData: `languageData[0].Split(',')[1]`): `F.,German` is German, as `.,German`
    # is. A header without a second column throws there, so it stays VK0106.
    if not header or len(header) < 2 or not all(h.strip() for h in header[1:]):
        sink.report("VK0106", Span(path, 1), path=path, problem="the first line must be `.,<Language>` (e.g. `.,English`)")
        return None
    langs = tuple(h.strip() for h in header[1:])
    texts: dict[str, dict[str, Text]] = {lang: {} for lang in langs}
    first: dict[str, Span] = {}
    repeats = _Repeats()
    start = rows.line_num + 1
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as exc:
            sink.report("VK0106", Span(path, rows.line_num), path=path, problem=str(exc))
            return None
        line = start
        start = rows.line_num + 1
        if not row or not row[0].strip():
            continue
        key = row[0].strip()
        span = Span(path, line, 1, line, len(key) + 1)
        if key in first:  # the app keeps the first (DictionaryI18n: MakeEditable, LookInOneLanguage): a warning
            repeats.report(sink, span, path.rsplit("/", 1)[-1], key, first[key])
            continue
        first[key] = span
        # the app splits a row at its first comma only (DictionaryI18n: `Split(',', 2)`): in a
        # file of one language, an unquoted comma belongs to the text
        values = [",".join(row[1:])] if len(langs) == 1 else row[1:]
        for lang, value in zip(langs, values):
            if value != "":
                texts[lang][key] = Text(key, value.replace("\\n", "\n"), span)
    return Localization(path, langs, texts)


def write_localization(language: str, texts: list[tuple[str, str]]) -> str:
    """One language's `Localization.<Language>.txt` (new lines written as `\\n`)."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([".", language])
    for key, value in texts:
        w.writerow([key, value.replace("\n", "\\n")])
    return buf.getvalue()
