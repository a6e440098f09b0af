"""Suppression comments: `# questc: allow CODE` silences a warning on one line.

- `# questc: allow W0101` (or several codes, `allow M0304, Q0307`) at the end of a line of
  a `.quest` or YAML file silences those warnings located on that line;
- `# questc: allow-file M0304` anywhere in a file silences them in the whole file.

Only warnings can be silenced (docs/cli.md, "Silencing a warning"): an error says the
content is wrong or will not play, so a comment naming one is itself reported (S0141)
and the error stays. A comment that silences nothing (the warning was fixed, the code
is misspelt) is reported too (S0140), so suppressions do not outlive their reason.
Applied once, at the end of a compile (pipeline.compile_paths), to every diagnostic and
every source the compile read (render.accepted_since: the texts accepted since it
started, a kept verdict's included).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from compiler.diagnostics.model import Diagnostic, Severity, Sink, Span

MARK = re.compile(r"#[ \t]*questc:[ \t]*allow(-file)?[ \t]+([A-Z]{1,4}\d{4}(?:[ \t]*,[ \t]*[A-Z]{1,4}\d{4})*)")
CODE = re.compile(r"[A-Z]{1,4}\d{4}")


class _Allow:
    __slots__ = ("file", "line", "whole_file", "code", "span", "used")

    def __init__(self, file: str, line: int, whole_file: bool, code: str, span: Span) -> None:
        self.file, self.line, self.whole_file, self.code, self.span = file, line, whole_file, code, span
        self.used = False


def _allows(name: str, text: str) -> list[_Allow]:
    out: list[_Allow] = []
    if "questc:" not in text:
        return out
    for m in MARK.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        start_of_line = text.rfind("\n", 0, m.start()) + 1
        codes_at = m.start(2)
        for c in CODE.finditer(m.group(2)):
            col = codes_at + c.start() - start_of_line + 1
            out.append(_Allow(name, line, bool(m.group(1)), c.group(), Span(name, line, col, line, col + len(c.group()))))
    return out


def apply(sink: Sink, sources: Iterable[tuple[str, str]]) -> None:
    """Drop from `sink` the warnings the comments of `sources` ((display name, text) of
    every file read) allow; report each comment that silences nothing (S0140) or names
    an error (S0141)."""
    allows = [a for name, text in sources for a in _allows(name, text)]
    if not allows:
        return
    by_line: dict[tuple[str, int, str], _Allow] = {}
    by_file: dict[tuple[str, str], _Allow] = {}
    for a in allows:
        if a.whole_file:
            by_file.setdefault((a.file, a.code), a)
        else:
            by_line.setdefault((a.file, a.line, a.code), a)
    kept: list[Diagnostic] = []
    refused: list[tuple[_Allow, Diagnostic]] = []  # a comment naming an error (or a note): said once each
    for d in sink.items:
        found = by_line.get((d.span.file, d.span.line, d.code)) or by_file.get((d.span.file, d.code))
        if found is None:
            kept.append(d)
            continue
        a = found
        if d.severity is Severity.WARNING:
            a.used = True
            continue
        kept.append(d)
        if not a.used:
            a.used = True
            refused.append((a, d))
    sink.replace_items(kept)
    for a, d in refused:
        sink.report("S0141", a.span, code=d.code, severity_name=d.severity.value)
    for a in allows:
        if not a.used:
            sink.report("S0140", a.span, code=a.code, where="in this file" if a.whole_file else "on this line")



def sources_under(sources: Iterable[tuple[str, str]], roots: Iterable[str]) -> list[tuple[str, str]]:
    """The (display name, text) of `sources` inside one of the folders `roots`."""
    import os

    from compiler.reader import display_name

    prefixes = tuple(display_name(r).rstrip("/\\") + os.sep for r in roots)
    return [(name, text) for name, text in sources if name.startswith(prefixes)]


def anchors(sources: Iterable[tuple[str, str]]) -> list[Diagnostic]:
    """A stand-in diagnostic in each file that holds a suppression comment: given to
    verdicts.keep with the real ones, so a kept verdict keeps that file's text and a
    replay still finds its comments (the comments are read again on every replay)."""
    return [Diagnostic("S0140", Severity.NOTE, "", Span(name)) for name, text in sources if MARK.search(text)]
