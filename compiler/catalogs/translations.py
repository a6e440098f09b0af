"""A pack's translations: `translations/<lang>.po`, gettext PO files keyed by string id.

Each entry's `msgctxt` is a string id of the bundle's string table (compiler/emit/strings.py),
its `msgid` the source text it was translated from and `msgstr` the translation. The
extracted comment (`#.`) holds the designer's doc comment and, on its last line,
`questc-source: <hash>`: the first 12 hex digits of the SHA-256 of the source text
(UTF-8) when the entry was last extracted or updated (`questc strings`). See
docs/translations.md.

The files are pack content, so they are read by `sources.read_source` like every other
file (UTF-8 only: another encoding is P0106 with the offending byte); this module parses
them with polib after a line-by-line check of its own (polib accepts some broken lines
silently), reporting located T01xx diagnostics. What the entries mean for the pack
(unknown ids, stale, missing, placeholders) is checked by compiler/passes/translations.py.

Only the loader's results are used downstream: `TranslationFile`, frozen, one per file.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from compiler.diagnostics import Related, Sink, Span
from compiler import frozen
from compiler.memo import remembered
from compiler.sources import inside, read_source, walk

if TYPE_CHECKING:
    import polib

FOLDER = "translations"
HASH_LENGTH = 12
HASH_PREFIX = "questc-source: "
LANGUAGE = re.compile(r"^[a-z]{2,3}(?:[_-][A-Za-z0-9]{2,8})*$")  # fr, pl, pt_BR, sr-Latn

_STRING = r'"(?:[^"\\]|\\.)*"'
_KEYWORD_LINE = re.compile(rf"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)(?![\w\[])\s*({_STRING})?\s*(.*)$")
_CONTINUATION = re.compile(rf"^{_STRING}\s*$")
_ESCAPES = re.compile(r'\\(.)')
_KNOWN_ESCAPES = set('ntr"\\abfv')
_LINE_OF = re.compile(r"\(line (\d+)\)")
# what must survive translation unchanged: {placeholders}, [Icons], <markup> tags, %s-style formats
PLACEHOLDER = re.compile(r"\{[^{}\s]*\}|\[[A-Za-z][\w ]*\]|</?[A-Za-z][\w-]*\s*/?>|%(?:\d+\$)?[sd]")


def source_hash(text: str) -> str:
    """The hash of a source text recorded beside its translation."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_LENGTH]


def placeholders(text: str) -> Counter[str]:
    """The placeholders and markup of a text, with how often each occurs."""
    return Counter(PLACEHOLDER.findall(text))


@frozen
class Translation:
    id: str  # msgctxt: the string id
    source: str  # msgid: the source text it was translated from
    text: str  # msgstr ("" = not translated yet)
    fuzzy: bool
    source_hash: str | None  # recorded `questc-source:` hash, if any
    span: Span  # the entry's msgctxt line


@frozen
class TranslationFile:
    lang: str
    name: str  # as shown in diagnostics
    entries: tuple[Translation, ...]  # live entries, unique by id (duplicates reported and left out)

    @property
    def span(self) -> Span:
        return Span.whole_file(self.name)

    def by_id(self) -> dict[str, Translation]:
        return {e.id: e for e in self.entries}


def split_note(comment: str | None) -> tuple[str | None, str | None]:
    """(translator note, recorded hash) from an entry's extracted comment."""
    lines = (comment or "").split("\n")
    found = None
    if lines and lines[-1].startswith(HASH_PREFIX):
        found = lines.pop().removeprefix(HASH_PREFIX).strip() or None
    note = "\n".join(lines).strip()
    return note or None, found


def join_note(note: str | None, hash_: str) -> str:
    return f"{note}\n{HASH_PREFIX}{hash_}" if note else f"{HASH_PREFIX}{hash_}"


def language_of(path: Path) -> str:
    return path.stem


def load_translations(root: Path, sink: Sink, *, max_bytes: int) -> tuple[TranslationFile, ...]:
    """Every `translations/*.po` of the pack at `root`, parsed, sorted by language."""
    folder = root / FOLDER
    if not folder.is_dir() or not inside(root, folder):  # a linked folder out of the pack: P0105 from pack_files
        return ()
    out = []
    for here, dirnames, filenames in walk(folder, sink):
        dirnames[:] = []  # only the folder itself
        for f in filenames:
            if not f.endswith(".po"):
                continue
            src = read_source(root, here / f, sink, max_bytes=max_bytes)
            if src is None:
                continue
            parsed = remembered("po", src.name, src.text, parse_po, sink)
            if parsed is not None:
                out.append(parsed)
    return tuple(sorted(out, key=lambda t: t.lang))


# polib joins an entry's comment lines, and a string's continuation lines, one `+=` at a
# time: quadratic (65,000 `#.` lines in one entry took 10 s). More than this many in one
# entry, or in one string, is T0101 at the first line past it, before polib reads the file.
MAX_ENTRY_LINES = 1000
# T0101 shown one by one per file; the rest are counted in one more at the next bad line
# (a file of 122,771 broken lines gave 122,771 errors, 48 MB of JSON)
MAX_LINE_ERRORS = 100


def _check_lines(lines: list[str], name: str, sink: Sink) -> bool:
    """Each line is a comment, `keyword "string"` or a continuation `"string"`: T0101
    where one is not (polib reads some broken lines silently as something else), and
    where an entry's comments or a string's continuation lines run past MAX_ENTRY_LINES.
    At most MAX_LINE_ERRORS are reported one by one, then one saying how many more."""
    bad: list[tuple[int, int, str]] = []  # line, column, why: the first MAX_LINE_ERRORS + 1
    count = 0
    comments = continued = 0  # `#` lines since the last `msgstr`; continuation lines since the last keyword

    def found(n: int, col: int, why: Callable[[], str]) -> None:
        nonlocal count
        count += 1
        if len(bad) <= MAX_LINE_ERRORS:
            bad.append((n, col, why()))

    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        col = len(raw) - len(raw.lstrip()) + 1
        prefixed = line.startswith(("#~", "#|"))  # obsolete and previous entries: keyword lines too
        body = line[2:].strip() if prefixed else line
        keyword = _KEYWORD_LINE.match(body)
        if keyword:
            continued = 0
            if keyword.group(1).startswith("msgstr"):
                comments = 0
        elif _CONTINUATION.match(body):
            continued += 1
            if continued == MAX_ENTRY_LINES + 1:
                found(n, col, lambda: f"a string continued over more than {MAX_ENTRY_LINES} lines (questc reads at most {MAX_ENTRY_LINES})")
        if line.startswith("#"):
            comments += 1
            if comments == MAX_ENTRY_LINES + 1:
                found(n, col, lambda: f"more than {MAX_ENTRY_LINES} comment lines in one entry (questc reads at most {MAX_ENTRY_LINES})")
            if prefixed and body and (not (keyword or _CONTINUATION.match(body)) or _bad(body)):
                found(n, col, lambda: _why(body))
            continue
        if _bad(line) or not (_CONTINUATION.match(line) or keyword):
            found(n, col, lambda: _why(line))
    for n, col, why in bad[:MAX_LINE_ERRORS]:
        sink.report("T0101", Span(name, n, col), problem=why)
    if count > MAX_LINE_ERRORS:
        n, col, why = bad[MAX_LINE_ERRORS]
        sink.report("T0101", Span(name, n, col), problem=f"{why}; and {count - MAX_LINE_ERRORS - 1} more lines after this one "
                                                          f"cannot be read (the first {MAX_LINE_ERRORS} are shown one by one)")
    return count == 0


def _bad(line: str) -> bool:
    m = _KEYWORD_LINE.match(line)
    if m and (m.group(2) is None or m.group(3).strip()):
        return True
    strings = re.findall(_STRING, line)
    return any(c not in _KNOWN_ESCAPES for s in strings for c in _ESCAPES.findall(s))


def _why(line: str) -> str:
    m = _KEYWORD_LINE.match(line)
    if m:
        if m.group(2) is None:
            return f"`{m.group(1)}` needs a quoted string (is a quote missing or unclosed?)"
        if m.group(3).strip():
            return f"unexpected text after the string: `{m.group(3).strip()[:40]}`"
    for s in re.findall(_STRING, line):
        for c in _ESCAPES.findall(s):
            if c not in _KNOWN_ESCAPES:
                return f"unknown escape `\\{c}`"
    if line.startswith('"'):
        return "a string that is not closed"
    return f"expected `msgctxt`, `msgid`, `msgstr`, a quoted string or a `#` comment, found `{line[:40]}`"


def pofile(text: str, **options: object) -> polib.POFile:
    """`polib.pofile` of `text`, which is always the text itself. polib takes a string
    that names an existing file for that file's name and opens it: a pack's PO text that
    happens to be a path (`#…` is a comment line) must not make questc read another file."""
    import polib

    try:
        names_a_file = os.path.isfile(text)
    except (TypeError, ValueError, UnicodeEncodeError):  # as polib asks: NUL, surrogates
        names_a_file = False
    if names_a_file:
        raise ValueError("the text of the file is the name of another file")
    return polib.pofile(text, **options)


def parse_po(text: str, name: str, sink: Sink) -> TranslationFile | None:
    """One PO file as a TranslationFile, or None (reported) when it cannot be read."""
    lang = language_of(Path(name))
    if not LANGUAGE.match(lang):
        sink.report("T0102", Span.whole_file(name), lang=lang)
        return None
    lines = text.split("\n")
    if not _check_lines(lines, name, sink):
        return None
    try:
        po = pofile(text, wrapwidth=0)
    except (OSError, ValueError) as exc:
        m = _LINE_OF.search(str(exc))
        sink.report("T0101", Span(name, int(m.group(1)) if m else 1), problem=str(exc).split(" (line")[0].lower())
        return None
    charset = _charset(po.metadata.get("Content-Type", ""))
    if charset and charset.lower().replace("-", "") != "utf8":
        sink.report("T0103", _header_span(lines, name, "Content-Type", charset), charset=charset)
    declared = po.metadata.get("Language", "").strip()
    if declared and declared.replace("-", "_").lower() != lang.replace("-", "_").lower():
        sink.report("T0104", _header_span(lines, name, "Language", declared), declared=declared, lang=lang)
    entries: dict[str, Translation] = {}
    for e in po:
        if e.obsolete:
            continue
        at = Span(name, _keyword_line(lines, e.linenum))
        if e.msgid_plural:
            sink.report("T0105", at)
            continue
        if e.msgctxt is None:
            if e.msgid:
                sink.report("T0106", at, source=_short(e.msgid))
            continue
        if e.msgctxt in entries:
            sink.report("T0107", at, id=e.msgctxt, related=(Related(entries[e.msgctxt].span, "first entry for this id"),))
            continue
        _, found = split_note(e.comment)
        entries[e.msgctxt] = Translation(e.msgctxt, e.msgid, e.msgstr, "fuzzy" in e.flags, found, at)
    return TranslationFile(lang, name, tuple(entries.values()))


def _header_span(lines: list[str], name: str, field: str, value: str) -> Span:
    """Where the header (the first entry, `msgid ""`) gives `value` in its `field:` line,
    or the file's first line when the header is written in some other way."""
    msgids = 0
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        if line.startswith("msgid"):
            msgids += 1
        if line.startswith("msgctxt") or msgids > 1:
            break
        at = raw.find(f'"{field}:')
        if at >= 0:
            col = raw.find(value, at + len(field) + 2)
            if col >= 0:
                return Span(name, n, col + 1, n, col + 1 + len(value))
    return Span(name, 1)


def _keyword_line(lines: list[str], start: int) -> int:
    """The line of an entry's first keyword (polib gives the entry's first line, comments included)."""
    for n in range(max(start, 1), len(lines) + 1):
        if lines[n - 1].lstrip().startswith("msg"):
            return n
    return max(start, 1)


def _charset(content_type: str) -> str | None:
    m = re.search(r"charset=([^\s;]+)", content_type)
    return m.group(1) if m else None


def _short(text: str) -> str:
    text = text.replace("\n", " ")
    return text if len(text) <= 40 else text[:39] + "…"
