"""The Diagnostic value and the Sink that collects them along the pipeline."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from compiler import frozen

if TYPE_CHECKING:
    from collections.abc import Iterable


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, order=True)
class Span:
    """A range of source text: 1-based line and column, end inclusive of the last character's column + 1."""

    file: str
    line: int = 1
    column: int = 1
    end_line: int = 0
    end_column: int = 0

    def __post_init__(self) -> None:
        if self.end_line < self.line or (self.end_line == self.line and self.end_column < self.column):
            object.__setattr__(self, "end_line", self.line)
            object.__setattr__(self, "end_column", self.column + 1)

    @classmethod
    def whole_file(cls, file: str) -> "Span":
        return cls(file, 1, 1, 1, 1)


@frozen
class Related:
    span: Span
    message: str


@frozen
class Edit:
    """A fix as data: replace the text of `span` with `text` (an empty span, end equal to
    start, inserts). compiler/diagnostics/fixes.py applies edits; SARIF, the language
    server's quick fix, the `help:` line and `questc check --fix` all read this one value."""

    span: Span
    text: str


@frozen
class Diagnostic:
    code: str
    severity: Severity
    message: str
    span: Span
    related: tuple[Related, ...] = ()
    fix: str | None = None  # one token = a replacement for the span; otherwise a sentence ("help:")
    edit: Edit | None = None  # the fix as an edit of the file, when the reporter knows it exactly

    @property
    def sort_key(self) -> tuple[str, int, int, str, str]:
        return (self.span.file, self.span.line, self.span.column, self.code, self.message)


# What a message may quote of its input: each value filled into a catalogue template is
# at most FIELD_MAX characters, cut with `…` (docs/robustness.md, "Second pass (issue
# 38): bounded output"). The longest a real pack gives is under 200; a name or token of
# 200,000 characters would otherwise be copied into every message about it, in every
# format.
FIELD_MAX = 500


def bounded(value: object) -> object:
    """`value`, or its text cut to FIELD_MAX characters with `…` when it is longer."""
    if isinstance(value, (int, float)):
        return value
    text = value if isinstance(value, str) else str(value)
    return value if len(text) <= FIELD_MAX else text[: FIELD_MAX - 1] + "\u2026"


@dataclass
class Sink:
    """Collects diagnostics; stages report here instead of raising through the user."""

    items: list[Diagnostic] = field(default_factory=list)
    # `errors` and `warnings` are asked after every tile, statement… (to skip what depends
    # on a broken part), so they count only the items added since they were last asked:
    # counting the whole list each time was quadratic in the number of diagnostics.
    _counted: int = field(default=0, init=False, repr=False, compare=False)
    _counted_in: list[Diagnostic] | None = field(default=None, init=False, repr=False, compare=False)
    _by_severity: dict[Severity, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    # what did-you-mean suggestions may still cost (difflib comparisons): see hints.py
    comparisons_left: int = field(default=100_000, repr=False, compare=False)

    def report(
        self,
        code: str,
        span: Span,
        /,
        related: tuple[Related, ...] = (),
        fix: str | None = None,
        severity: Severity | None = None,
        **args: object,
    ) -> Diagnostic:
        """Report `code` at `span`; the message is the catalogue's template filled with `args`."""
        from compiler.diagnostics.catalogue import CATALOGUE

        # `edit=` (the fix as an Edit) is taken from the keywords rather than declared, so
        # callers that pass their message fields as `**dict[str, object]` still type-check
        edit = args.pop("edit", None)
        if edit is not None and not isinstance(edit, Edit):
            raise TypeError(f"edit= takes an Edit, not {type(edit).__name__}")

        entry = CATALOGUE.get(code)
        if entry is None:  # a programming error, not a user error: fail loudly in tests
            raise KeyError(f"diagnostic code {code} is not in the catalogue")
        diag = Diagnostic(
            code=code,
            severity=severity or entry.severity,
            message=entry.format(**{k: bounded(v) for k, v in args.items()}),
            span=span,
            related=tuple(related),
            fix=fix if fix is None or len(fix) <= FIELD_MAX else None,  # a replacement cut short is wrong
            edit=edit if edit is None or len(edit.text) <= FIELD_MAX else None,
        )
        self.items.append(diag)
        return diag

    def extend(self, diags: Iterable[Diagnostic]) -> None:
        self.items.extend(diags)

    def replace_items(self, diags: Iterable[Diagnostic]) -> None:
        """Put `diags` in place of the items (a filter: suppression comments, folding),
        counted afresh."""
        self.items[:] = list(diags)
        self._counted, self._by_severity = 0, {}

    def _count(self, severity: Severity) -> int:
        items = self.items
        if items is not self._counted_in or self._counted > len(items):  # replaced or shortened: afresh
            self._counted, self._by_severity, self._counted_in = 0, {}, items
        counts = self._by_severity
        for i in range(self._counted, len(items)):
            sev = items[i].severity
            counts[sev] = counts.get(sev, 0) + 1
        self._counted = len(items)
        return counts.get(severity, 0)

    @property
    def errors(self) -> int:
        return self._count(Severity.ERROR)

    @property
    def warnings(self) -> int:
        return self._count(Severity.WARNING)

    def sorted(self) -> list[Diagnostic]:
        seen: set[tuple[str, Span, str]] = set()
        out = []
        for d in sorted(self.items, key=lambda d: d.sort_key):
            key = (d.code, d.span, d.message)
            if key not in seen:
                seen.add(key)
                out.append(d)
        return out


def fold_same_place(items: list[Diagnostic]) -> list[Diagnostic]:
    """One error per place: an error located where an earlier one of `items` already
    is (same file, line, column) becomes a note of that one (`also: MESSAGE [CODE]`).
    For the checks of one declaration that can only point at the declaration itself (a
    deck, a cooperative quest's block): several faults there are still all said, in one
    diagnostic. Warnings and notes pass through."""
    out: list[Diagnostic] = []
    first: dict[tuple[str, int, int], int] = {}
    notes: dict[int, list[Related]] = {}  # gathered, then joined once: a tuple grown per error was quadratic
    for d in items:
        key = (d.span.file, d.span.line, d.span.column)
        if d.severity is not Severity.ERROR:
            out.append(d)
        elif key in first:
            notes.setdefault(first[key], []).extend((Related(d.span, f"also: {d.message} [{d.code}]"), *d.related))
        else:
            first[key] = len(out)
            out.append(d)
    for i, more in notes.items():
        held = out[i]
        out[i] = Diagnostic(held.code, held.severity, held.message, held.span, held.related + tuple(more), held.fix, held.edit)
    return out


# Codes that say, at one place, what another says more exactly: (the exact one, the one it
# makes redundant). A cooperative quest's encounter without its entrance is C0301 (the
# deck deals it where heroes arrive by the entrance) and was also Q0102 (no start area):
# one fault, so one error per place (the pipeline fuzzer's rule) keeps C0301.
SUPERSEDES: tuple[tuple[str, str], ...] = (("C0301", "Q0102"),)


# Counts of a block's parts, wrong when a syntax error inside the block cut it short: an
# `ask` or `random` whose second `choice`/`option` the parser skipped (`option { … } option
# { … }` on one line, S0101) has one left, and "needs at least two (it has 1)" is an error
# the quest does not hold (new-user trial). Dropped when a syntax error lies inside them.
COUNTS_OF_PARTS = frozenset({"Q0312", "Q0317"})


def _inside(inner: Span, outer: Span) -> bool:
    return inner.file == outer.file and (outer.line, outer.column) <= (inner.line, inner.column) <= (outer.end_line, outer.end_column)


def drop_superseded(items: list[Diagnostic]) -> list[Diagnostic]:
    """`items` without each error a SUPERSEDES pair's first code says again at its place,
    nor a COUNTS_OF_PARTS error holding a syntax error."""
    places = {(d.code, d.span.file, d.span.line, d.span.column) for d in items}
    syntax = [d.span for d in items if d.code.startswith("S") and d.severity == Severity.ERROR]
    return [d for d in items
            if not any(d.code == weaker and (stronger, d.span.file, d.span.line, d.span.column) in places
                       for stronger, weaker in SUPERSEDES)
            and not (d.code in COUNTS_OF_PARTS and any(_inside(s, d.span) for s in syntax))]
