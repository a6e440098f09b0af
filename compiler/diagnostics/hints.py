"""Did-you-mean: the one place a misspelt name is matched against the names that exist.

difflib's ratio decides closeness (at least CUTOFF); among equally close names the
alphabetically first wins, so the same mistake always gets the same suggestion. A name
that does not match as written is tried case-folded with spaces as underscores, and
against printed names (`names`: id -> name) when the caller has them.

Given the `sink` the diagnostic goes to, the work is charged to its suggestion budget
(`Sink.comparisons_left`): matching an unknown name costs a comparison with every known
one, so N unknown names among N known ones were N² (4,000 declared tokens and 4,000
misspelt `on picked_up`: 106 s). A suggestion only helps with the first mistakes, so
once a Sink's budget is spent it gets no more suggestions; the diagnostics stay. The
passes, where names grow with the input, pass their sink; a one-off lookup (a command
line argument) need not.
"""

from __future__ import annotations

import difflib
from collections.abc import KeysView
from typing import TYPE_CHECKING, Iterable, Mapping

if TYPE_CHECKING:
    from collections.abc import Collection

    from compiler.diagnostics.model import Sink, Span

CUTOFF = 0.5


def _closest(word: str, choices: list[str]) -> str | None:
    best: tuple[float, str] | None = None
    matcher = difflib.SequenceMatcher()
    matcher.set_seq2(word)
    for choice in choices:
        matcher.set_seq1(choice)
        if matcher.real_quick_ratio() < CUTOFF or matcher.quick_ratio() < CUTOFF:
            continue
        ratio = matcher.ratio()
        if ratio >= CUTOFF and (best is None or (-ratio, choice) < (-best[0], best[1])):
            best = (ratio, choice)
    return best[1] if best else None


def did_you_mean(word: object, known: Iterable[str], names: Mapping[str, str] | None = None,
                 sink: Sink | None = None) -> str | None:
    """The known name closest to `word`, or None when none is close (or `sink`'s
    suggestion budget cannot pay for the comparisons)."""
    text = str(word)
    if sink is not None and isinstance(known, (set, frozenset, dict, KeysView)) and 2 * len(known) + len(names or ()) > sink.comparisons_left:
        return None  # what the check below says, before copying the names: once the budget is spent, each miss is O(1)
    unique = set(known)
    if not text or not unique:
        return None
    if sink is not None:
        cost = 2 * len(unique) + len(names or ())  # as written, then folded; the printed names
        if cost > sink.comparisons_left:
            return None
        sink.comparisons_left -= cost
    choices = sorted(unique)
    for i, printed in sorted((names or {}).items()):
        if text.casefold() == str(printed).casefold():
            return i
    hit = _closest(text, choices)
    if hit is None:
        folded = {c.casefold(): c for c in choices}
        low = _closest(text.casefold().replace(" ", "_"), sorted(folded))
        hit = folded[low] if low else None
    return hit


def hint(word: object, known: Iterable[str], names: Mapping[str, str] | None = None,
         sink: Sink | None = None) -> str:
    """`; did you mean `x`?` for a message, or the empty string."""
    hit = did_you_mean(word, known, names, sink)
    return f"; did you mean `{hit}`?" if hit else ""


def hint_and_fix(word: object, known: Iterable[str], names: Mapping[str, str] | None = None,
                 sink: Sink | None = None) -> tuple[str, str | None]:
    """`hint`'s suffix and the name it suggests (the fix), or `("", None)`; a suggestion
    whose printed name is what was written shows that name: `; did you mean `x` (X)?`."""
    guess = did_you_mean(word, known, names, sink)
    if guess is None:
        return "", None
    if names and guess in names and str(names[guess]).casefold() == str(word).casefold():
        return f"; did you mean `{guess}` ({names[guess]})?", guess
    return f"; did you mean `{guess}`?", guess


def unknown_monster(sink: Sink, span: Span, name: str, monsters: Collection[str]) -> None:
    """Q0201 for a spawn of `name`: with the closest monster as the did-you-mean and its
    fix (an edit), or, when none is close, a pointer at `questc monsters --pack` (the list
    of every monster the pack can spawn), for the folder of the quest file."""
    import posixpath

    guess = did_you_mean(name, monsters, sink=sink)
    if guess is not None:
        sink.report("Q0201", span, name=name, hint=f"; did you mean `{guess}`?", fix=guess)
        return
    folder = posixpath.dirname(span.file.replace("\\", "/")) or "."
    command = f"questc monsters --pack {folder}"
    sink.report("Q0201", span, name=name, hint=f"; no monster is named like it (`{command}` lists all {len(monsters)})",
                fix=f"Use a monster id that `{command}` lists, or declare a monster of your own (`monster ID based on …`).")
