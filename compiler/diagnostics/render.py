"""Diagnostic renderers, one per output format, chosen from a table.

human: rustc-style, with the source line and a caret; json: the documented object
(schemas/diagnostics.schema.json); sarif: SARIF 2.1.0; github: workflow annotations.
"""

from __future__ import annotations

import json
import re
import sys
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from compiler import __version__
from compiler.diagnostics import fixes
from compiler.diagnostics.model import Diagnostic, Edit, Severity, Sink, Span, bounded

if TYPE_CHECKING:
    from typing import TextIO

# The text of every source the loader accepted (compiler/sources.py) and of sources that
# are not files ("<command line>"), by display name. Human output shows source lines
# only from here: a file is never opened again by name, so a file the loader refused
# (outside the pack, too large, not a regular file) shows no line, and a FIFO or
# /dev/zero cannot hang or fill the renderer. Bounded: the oldest texts go first.
_ACCEPTED: OrderedDict[str, str] = OrderedDict()
_CHARS = [0]  # characters held in _ACCEPTED
MAX_ACCEPTED_CHARS = 64 * 1024 * 1024


def accept_source(name: str, text: str) -> None:
    """Remember `text` as what diagnostics located in `name` refer to."""
    forget_source(name)
    _ACCEPTED[name] = text
    _TURN[0] += 1
    _ACCEPTED_AT[name] = _TURN[0]
    _CHARS[0] += len(text)
    while _CHARS[0] > MAX_ACCEPTED_CHARS and len(_ACCEPTED) > 1:
        _CHARS[0] -= len(_ACCEPTED.popitem(last=False)[1])


# When each source was accepted (a count of acceptances): what one compile read is what
# was accepted since it started (pipeline.compile_paths), not every text still held from
# earlier runs in this process (the language server, tests).
_TURN = [0]
_ACCEPTED_AT: dict[str, int] = {}


def accept_mark() -> int:
    """A mark to ask `accepted_since` with."""
    return _TURN[0]


def accepted_since(mark: int) -> list[tuple[str, str]]:
    """(name, text) of every source accepted after `mark` and still held."""
    return [(name, text) for name, text in _ACCEPTED.items() if _ACCEPTED_AT.get(name, 0) > mark]


def accepted(name: str) -> str | None:
    """The text accepted for `name`, if any (kept verdicts store it with the diagnostics)."""
    return _ACCEPTED.get(name)


def forget_source(name: str) -> None:
    """`name` was refused: show none of its lines, not even ones of an earlier version."""
    _CHARS[0] -= len(_ACCEPTED.pop(name, ""))
    _ACCEPTED_AT.pop(name, None)


def _source_line(file: str, line: int, lines_of: dict[str, list[str] | None]) -> str | None:
    """Line `line` of `file`. `lines_of` holds the lines of each file already split in
    this rendering: a file is split once, not once per diagnostic (20,000 diagnostics in
    one file were quadratic)."""
    if file not in lines_of:
        text = _ACCEPTED.get(file)
        # line breaks as the loader counts them (sources normalise CR and CRLF)
        lines_of[file] = text.split("\n") if text is not None else None
    lines = lines_of[file]
    return lines[line - 1].removesuffix("\r") if lines is not None and 0 < line <= len(lines) else None


# Characters that must not reach a terminal raw from a source, a message quoting one, or
# a file name: C0 controls but tab, DEL and C1 controls (ESC starts terminal escape
# sequences, BEL rings, CR rewrites the line), bidirectional marks, embeddings,
# overrides and isolates (they reorder what is shown: "Trojan source"), line and
# paragraph separators, and lone surrogates (undecodable file names) which cannot be
# printed at all.
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")


def visible(text: str) -> str:
    """`text` with every unsafe character shown as an escape (`\\x1b`, `\\u202e`)."""
    return _UNSAFE.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text)


def visible_lines(text: str) -> str:
    """`text` of several lines, each shown with `visible` (its line breaks kept)."""
    return "\n".join(visible(line) for line in text.split("\n"))


def _help(fix: str) -> str:
    """A fix is either a replacement for the underlined text (one token) or a sentence."""
    return f"replace with `{fix}`" if fix and not any(ch.isspace() for ch in fix) else fix


def _edit(d: Diagnostic) -> Edit | None:
    """The fix of `d` as an edit (fixes.edit_of) in the text the loader accepted."""
    return fixes.edit_of(d, _ACCEPTED.get(d.span.file))


def _help_of(d: Diagnostic) -> str:
    """The `help:` line: a sentence of advice as it is; an edit said with where it goes
    when the underline is wider than the text it replaces (a whole statement)."""
    if not d.fix:
        return ""
    if any(ch.isspace() for ch in d.fix):
        return d.fix
    e = _edit(d)
    if e is None or (e.span.line, e.span.column, e.span.end_column) == (d.span.line, d.span.column, d.span.end_column):
        return _help(d.fix)
    return f"replace `{_replaced(e)}` with `{e.text}` (line {e.span.line}, column {e.span.column})"


def _replaced(e: Edit) -> str:
    text = _ACCEPTED.get(e.span.file) or ""
    return text[fixes.offset(text, e.span.line, e.span.column): fixes.offset(text, e.span.end_line, e.span.end_column)]


# ANSI styles of human output on a colour terminal (compiler/console.py decides when).
_STYLE = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m", Severity.NOTE: "\x1b[1;36m"}
_BLUE, _BOLD, _RESET = "\x1b[1;34m", "\x1b[1m", "\x1b[0m"


# Human output is bounded whatever the input (docs/robustness.md, "Second pass (issue 38):
# bounded output"): a source line is shown as a window of at most WINDOW columns around
# the span, `…` where it is cut; at most SHOWN diagnostics are written in full, then one
# line counts the rest; a diagnostic shows at most NOTES related notes. Machine formats
# keep every diagnostic (they never hold source lines).
WINDOW = 120
SHOWN = 100
NOTES = 20
CONTEXT = 20  # columns before the span a window keeps however wide the span
CUT = "\u2026"  # …


def _width(ch: str) -> int:
    """Columns `ch` takes on the terminal once shown (an escape is wider than its character)."""
    return 1 if not _UNSAFE.match(ch) else len(visible(ch))


def window(src: str, start: int, end: int, width: int = WINDOW) -> tuple[str, int, int]:
    """(shown text, columns before the span, columns of the span) for the 0-based span
    [start, end) of the source line `src`: the whole line, escaped, when it fits in
    `width` columns, else a window of it around the span with `…` at each cut end. The
    work is proportional to the window, never to the line (tabs show as one space;
    columns past the end of the line count one each, as for a span at the line's end)."""
    n = len(src)
    start, end = min(start, n + width), min(end, n + width)  # columns past the line: a window's worth at most
    if n <= width:
        shown = visible(src.replace("\t", " "))
        if len(shown) <= width:
            pad = len(visible(src[:start].replace("\t", " "))) + max(0, start - n)
            span = len(visible(src[start:end].replace("\t", " "))) + max(0, end - max(start, n))
            return shown, pad, max(1, span)

    def w(i: int) -> int:
        return 1 if i >= n else _width(src[i])

    budget = width - 2  # room for the two markers
    lo, hi = min(start, n), start  # the window is [lo, hi)
    used = start - lo  # columns past the end of the line before the span
    while lo > 0 and used + w(lo - 1) <= CONTEXT:  # a little of what comes before, always
        lo -= 1
        used += w(lo)
    while hi < max(end, start + 1) and (hi == start or used + w(hi) <= budget):  # then the span
        used += w(hi)
        hi += 1
    span_end = hi
    spare = (budget - used) // 2  # then up to half of what is left before it
    while lo > 0 and w(lo - 1) <= spare:
        lo -= 1
        spare -= w(lo)
        used += w(lo)
    while hi < n and used + w(hi) <= budget:  # the rest after it
        used += w(hi)
        hi += 1
    while lo > 0 and used + w(lo - 1) <= budget:  # and before it, when the line ends first
        lo -= 1
        used += w(lo)
    head, tail = CUT if lo > 0 else "", CUT if hi < n else ""
    shown = head + visible(src[lo:min(hi, n)].replace("\t", " ")) + tail
    pad = len(head) + sum(w(i) for i in range(lo, start))
    return shown, pad, max(1, sum(w(i) for i in range(start, span_end)))


def render_human(diags: list[Diagnostic], summary: dict[str, int], colour: bool = False, shown: int = SHOWN) -> str:
    """Everything taken from a source (lines, quoted text, file names) goes through
    `visible`, so the only escape sequences in the output are the styles added here.
    At most `shown` diagnostics are written in full; a line counts the others."""

    def paint(style: str, text: str) -> str:
        return f"{style}{text}{_RESET}" if colour else text

    out: list[str] = []
    lines_of: dict[str, list[str] | None] = {}
    for d in diags[:shown]:
        out.append(f"{paint(_STYLE[d.severity], f'{d.severity.value}[{d.code}]')}{paint(_BOLD, ': ' + visible(d.message))}")
        s = d.span
        out.append(f"  {paint(_BLUE, '-->')} {visible(s.file)}:{s.line}:{s.column}")
        src = _source_line(s.file, s.line, lines_of)
        if src is not None:
            gutter = " " * len(str(s.line))
            start = s.column - 1
            end = max(start, (s.end_column if s.end_line == s.line else len(src) + 1) - 1)
            text, pad, width = window(src, start, end)
            bar = paint(_BLUE, "|")
            out.append(f"{gutter} {bar}")
            out.append(f"{paint(_BLUE, str(s.line))} {bar} {text}")
            out.append(f"{gutter} {bar} {' ' * pad}{paint(_STYLE[d.severity], '^' * width)}")
        for r in d.related[:NOTES]:
            out.append(f"  note: {visible(str(bounded(r.message)))} at {visible(r.span.file)}:{r.span.line}:{r.span.column}")
        if len(d.related) > NOTES:
            out.append(f"  note: {CUT} and {len(d.related) - NOTES} more")
        help_line = _help_of(d)
        if help_line:
            out.append(f"  help: {visible(help_line)}")
        out.append("")
    if len(diags) > shown:
        out.append(_not_shown(diags[shown:]))
        out.append("")
    e, w = summary["errors"], summary["warnings"]
    out.append(f"{e} error{'s' * (e != 1)}, {w} warning{'s' * (w != 1)}" if diags else "no problems found")
    return "\n".join(out) + "\n"


def _not_shown(rest: list[Diagnostic]) -> str:
    """`… and 2900 more errors, 3 warnings not shown (use --format json for all)`."""
    counts = {sev: 0 for sev in Severity}
    for d in rest:
        counts[d.severity] += 1
    e, w, n = counts[Severity.ERROR], counts[Severity.WARNING], counts[Severity.NOTE]
    parts = [f"{e} more error{'s' * (e != 1)}" if e else "",
             f"{w}{'' if e else ' more'} warning{'s' * (w != 1)}" if w else "",
             f"{n}{'' if e or w else ' more'} note{'s' * (n != 1)}" if n else ""]
    return f"{CUT} and {', '.join(p for p in parts if p)} not shown (use --format json for all)"


def _as_dict(d: Diagnostic) -> dict[str, object]:
    out: dict[str, object] = {
        "code": d.code,
        "severity": d.severity.value,
        "message": d.message,
        "file": d.span.file,
        "line": d.span.line,
        "column": d.span.column,
        "end_line": d.span.end_line,
        "end_column": d.span.end_column,
        "related": [
            {"message": bounded(r.message), "file": r.span.file, "line": r.span.line, "column": r.span.column}
            for r in d.related
        ],
    }
    if d.fix:
        out["fix"] = d.fix
    e = _edit(d)
    if e is not None:
        out["edit"] = {"line": e.span.line, "column": e.span.column, "end_line": e.span.end_line,
                       "end_column": e.span.end_column, "text": e.text}
    return out


def render_json(diags: list[Diagnostic], summary: dict[str, int]) -> str:
    return json.dumps({"diagnostics": [_as_dict(d) for d in diags], "summary": summary}, indent=2, sort_keys=True) + "\n"


_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "note"}


# The project's documentation, as [project.urls] Documentation in pyproject.toml says
# (tests/test_ci.py keeps the two equal): SARIF's tool.driver.informationUri.
INFORMATION_URI = "https://github.com/questc/questc/tree/main/docs"
DIAGNOSTICS_URI = "https://github.com/questc/questc/blob/main/docs/diagnostics.md"


def rule_summary(message: str) -> str:
    """A catalogue message template as a sentence: each `{field}` becomes `…`, and a
    hint field that only ever adds a did-you-mean is left out."""
    import string

    parts = []
    for literal, name, _, _ in string.Formatter().parse(message):
        parts.append(literal)
        if name is not None and name not in ("hint", "extra", "suffix"):
            parts.append("…")
    return "".join(parts).strip()


def _sarif_rule(code: str) -> dict[str, object]:
    from compiler.diagnostics.catalogue import CATALOGUE

    e = CATALOGUE[code]
    help_text = "\n\n".join(x for x in (e.explanation, f"Example:\n{e.example}" if e.example else "", f"Fix: {e.fix}" if e.fix else "") if x)
    return {
        "id": code,
        "name": code,
        "shortDescription": {"text": rule_summary(e.message)},
        "fullDescription": {"text": e.explanation or rule_summary(e.message)},
        "help": {"text": help_text or rule_summary(e.message)},
        "helpUri": f"{DIAGNOSTICS_URI}#{code.lower()}",
        "defaultConfiguration": {"level": _SARIF_LEVEL[e.severity]},
    }


def _sarif_fix(d: Diagnostic) -> list[dict[str, object]]:
    """The fix's edit (fixes.edit_of: only the wrong word, not the statement underlined)
    as a SARIF fix with one replacement. A sentence is advice, not an edit, and stays in
    the message."""
    e = _edit(d)
    if e is None:
        return []
    s = e.span
    return [{
        "description": {"text": f"Replace with `{e.text}`" if d.fix and e.text == d.fix else d.fix or f"Insert `{e.text.strip()}`"},
        "artifactChanges": [{
            "artifactLocation": {"uri": Path(s.file).as_posix()},
            "replacements": [{
                "deletedRegion": {"startLine": s.line, "startColumn": s.column, "endLine": s.end_line, "endColumn": s.end_column},
                "insertedContent": {"text": e.text},
            }],
        }],
    }]


def render_sarif(diags: list[Diagnostic], summary: dict[str, int]) -> str:
    codes = sorted({d.code for d in diags})
    rules = [_sarif_rule(c) for c in codes]

    def loc(file: str, line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> dict[str, object]:
        region: dict[str, int | None] = {"startLine": line, "startColumn": col}
        if end_line:
            region.update(endLine=end_line, endColumn=end_col)
        return {"physicalLocation": {"artifactLocation": {"uri": Path(file).as_posix()}, "region": region}}

    results: list[dict[str, object]] = []
    for d in diags:
        sarif_fixes = _sarif_fix(d)
        r: dict[str, object] = {
            "ruleId": d.code,
            "ruleIndex": codes.index(d.code),
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message + (f" (help: {d.fix})" if d.fix and not sarif_fixes else "")},
            "locations": [loc(d.span.file, d.span.line, d.span.column, d.span.end_line, d.span.end_column)],
        }
        if sarif_fixes:
            r["fixes"] = sarif_fixes
        if d.related:
            r["relatedLocations"] = [
                {"id": i, "message": {"text": bounded(x.message)}, **loc(x.span.file, x.span.line, x.span.column)}
                for i, x in enumerate(d.related)
            ]
        results.append(r)
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "questc", "version": __version__, "informationUri": INFORMATION_URI, "rules": rules}},
                "results": results,
            }
        ],
    }
    return json.dumps(sarif, indent=2, sort_keys=True) + "\n"


def _gh_escape(text: str, prop: bool = False) -> str:
    """A workflow command's data (or, `prop`, a property value): control and bidi
    characters shown as escapes, as in human output (the log is read on a terminal or a
    web page, and a raw newline would start a command of its own), then GitHub's escapes."""
    text = visible(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(diags: list[Diagnostic], summary: dict[str, int]) -> str:
    kind = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.NOTE: "notice"}
    lines = []
    for d in diags:
        s = d.span
        props = f"file={_gh_escape(s.file, True)},line={s.line},col={s.column},endLine={s.end_line},endColumn={s.end_column},title={d.code}"
        lines.append(f"::{kind[d.severity]} {props}::{_gh_escape(d.message)}")
    return "\n".join(lines) + ("\n" if lines else "")


RENDERERS: dict[str, Callable[[list[Diagnostic], dict[str, int]], str]] = {
    "human": render_human,
    "json": render_json,
    "sarif": render_sarif,
    "github": render_github,
}


def summary_of(sink: Sink, shown: list[Diagnostic] | None = None) -> dict[str, int]:
    """The counts of what is shown: the same diagnostic reported twice (one code, place and
    message; `Sink.sorted` shows it once) is counted once. `shown`: `sink.sorted()`, when the
    caller has it already (sorting half a million diagnostics again costs seconds)."""
    if shown is None:
        shown = sink.sorted()
    return {"errors": sum(d.severity is Severity.ERROR for d in shown),
            "warnings": sum(d.severity is Severity.WARNING for d in shown)}


def render(sink: Sink, fmt: str, *, colour: bool = False, quiet: bool = False) -> str:
    """`quiet` (human output only): errors only, and no summary line when there are none."""
    shown = sink.sorted()
    if fmt == "human":
        diags = [d for d in shown if d.severity is Severity.ERROR] if quiet else shown
        if quiet and not diags:
            return ""
        return render_human(diags, summary_of(sink, shown), colour)
    return RENDERERS[fmt](shown, summary_of(sink, shown))


# The command line of this run (cli._run): a PATH argument that does not exist (P0111) is
# located on it, for every command, not at a line 1 of a file that is not there.
_ARGV: list[list[str]] = [[]]


_MISSING_SHOWN = [False]  # a P0111 was printed in this run: cli._run makes its exit 2


def set_command_line(argv: list[str]) -> None:
    _ARGV[0] = [str(a) for a in argv]
    _MISSING_SHOWN[0] = False


def missing_path_shown() -> bool:
    """Whether this run printed a P0111 (a PATH given that does not exist)."""
    return _MISSING_SHOWN[0]


def missing_path_span(path: str) -> Span | None:
    """Where the argument `path` is on this run's command line (registered as the source
    `<command line>`), or None when it is not one of its arguments."""
    argv = _ARGV[0]
    if path not in argv:
        return None
    line = " ".join(["questc", *argv])
    accept_source("<command line>", line)
    at = len("questc ") + sum(len(a) + 1 for a in argv[: argv.index(path)])
    return Span("<command line>", 1, at + 1, 1, at + 1 + max(1, len(path)))


def _paths_on_the_command_line(sink: Sink) -> None:
    from dataclasses import replace

    for i, d in enumerate(sink.items):
        if d.code == "P0111":
            _MISSING_SHOWN[0] = True
            span = missing_path_span(d.span.file) if d.span.file != "<command line>" else None
            if span is not None:
                sink.items[i] = replace(d, span=span)


def print_diagnostics(sink: Sink, fmt: str = "human", stream: TextIO | None = None) -> None:
    """Print every diagnostic in `fmt`. Human output goes to stderr, machine formats to
    stdout; only human output depends on the terminal (colour) and on -q. A missing PATH
    (P0111) is shown at its argument on the command line."""
    from compiler import console

    _paths_on_the_command_line(sink)
    if stream is None:
        stream = sys.stderr if fmt == "human" else sys.stdout
    human = fmt == "human"
    text = render(sink, fmt, colour=human and console.colour(stream), quiet=human and console.quiet())
    console.erase_progress()
    stream.write(text)


def exit_code(sink: Sink, strict: bool) -> int:
    """0 clean, 1 problems, 2 a PATH given that does not exist (a usage error, as for every
    command: docs/cli.md, "Exit codes")."""
    if any(d.code == "P0111" for d in sink.items):
        return 2
    if sink.errors or (strict and sink.warnings):
        return 1
    return 0


def iter_codes(diags: Iterable[Diagnostic]) -> list[str]:
    return [d.code for d in diags]
