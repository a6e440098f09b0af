"""Fixes as data, applied by one routine.

A diagnostic's fix is an Edit of its file (`Diagnostic.edit`): the text of a span replaced
by new text. A reporter that knows the exact edit gives it (S0106 inserts the missing `}`);
a reporter that gives only a one-token `fix` (a did-you-mean) gets the edit worked out
here, once. In a quest file the word inside the diagnostic's span most like the fix is
the one replaced, so a span that underlines a whole statement (`tile 10C at (0, 0)` with
the fix `10B`) replaces `10C` and nothing else; in a YAML file a span is the value
itself (`to: Old Quarry`), replaced whole. SARIF (render.py), the language server's quick fix,
the human `help:` line and `questc check --fix` all call `edit_of`, and `apply` is the
only place a fix is written into a text.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from functools import lru_cache

from compiler.diagnostics.model import Diagnostic, Edit, Span

WORD = re.compile(r"[A-Za-z0-9_]+")
QUOTED = re.compile(r"`([^`]*)`")


def _line(text: str, line: int) -> str | None:
    starts = _starts(text)
    if line > len(starts):
        return None
    start = starts[max(line, 1) - 1]
    end = text.find("\n", start)
    return (text[start:] if end < 0 else text[start:end]).removesuffix("\r")


@lru_cache(maxsize=8)
def _starts(text: str) -> tuple[int, ...]:
    """Where each line of `text` starts: worked out once per text, so that thousands of
    diagnostics in one long file each find their line at once (a str keeps its hash)."""
    return (0, *(m.end() for m in re.finditer("\n", text)))


def edit_of(d: Diagnostic, text: str | None) -> Edit | None:
    """The edit that fixes `d` in `text` (the file `d.span` is in), or None when `d` has
    no fix that is an edit (a sentence of advice)."""
    if d.edit is not None:
        return d.edit
    fix = d.fix
    if not fix or any(ch.isspace() for ch in fix) or d.span.end_line != d.span.line or text is None:
        return None
    row = _line(text, d.span.line)
    if row is None:
        return None
    start, end = d.span.column - 1, min(d.span.end_column - 1, len(row))
    line = d.span.line
    if not d.span.file.endswith(".quest"):  # a YAML value is spanned exactly (`to: Old Quarry`): all of it goes
        if start >= end or row[start:end] == fix:
            return None
        return Edit(Span(d.span.file, line, start + 1, line, end + 1), fix)
    words = [m for m in WORD.finditer(row, start, end) if m.group() != fix]
    # the wrong name is one the message quotes (`names `o2`, which is not a card`): a
    # keyword of the statement (`on`) is never the one, however like the fix it looks
    quoted = {w for q in QUOTED.findall(d.message) for w in WORD.findall(q)}
    words = [m for m in words if m.group() in quoted] or words
    if not words:
        return None
    best = words[0]
    if len(words) > 1:
        best = max(words, key=lambda m: (difflib.SequenceMatcher(None, m.group(), fix).ratio(), -m.start()))
    return Edit(Span(d.span.file, line, best.start() + 1, line, best.end() + 1), fix)


def describe(edit: Edit) -> str:
    """The `help:` line of an edit."""
    span = edit.span
    empty = (span.end_line, span.end_column) == (span.line, span.column)
    shown = edit.text.strip("\n") or edit.text
    if empty:
        return f"insert `{shown}` at line {span.line}, column {span.column}"
    if not edit.text:
        return f"delete line {span.line}, columns {span.column}-{span.end_column - 1}"
    return f"replace with `{shown}`"


def offset(text: str, line: int, column: int) -> int:
    """The position in `text` of a 1-based line and column (clamped to the line's end)."""
    start = 0
    for _ in range(line - 1):
        nxt = text.find("\n", start)
        if nxt < 0:
            return len(text)
        start = nxt + 1
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    return min(start + column - 1, end)


def apply(text: str, edits: Iterable[Edit]) -> tuple[str, list[Edit]]:
    """`text` with `edits` applied, and the edits applied (an edit overlapping one before
    it in the text, or an identical one, is left out: applied on its own next time)."""
    placed: list[tuple[int, int, Edit]] = []
    for e in edits:
        a = offset(text, e.span.line, e.span.column)
        b = max(a, offset(text, e.span.end_line, e.span.end_column))
        placed.append((a, b, e))
    placed.sort(key=lambda t: (t[0], t[1]))
    kept: list[tuple[int, int, Edit]] = []
    for a, b, e in placed:
        if kept and (a < kept[-1][1] or (a == kept[-1][0] and b == kept[-1][1])):
            continue
        kept.append((a, b, e))
    out: list[str] = []
    at = 0
    for a, b, e in kept:
        out.append(text[at:a])
        out.append(e.text)
        at = b
    out.append(text[at:])
    return "".join(out), [e for _, _, e in kept]
