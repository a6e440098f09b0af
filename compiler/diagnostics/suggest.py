"""Did-you-mean suggestions for unknown names, with the work bounded per Sink.

difflib compares an unknown name with every known one, so suggesting for each of N
unknown names among K known ones costs N × K comparisons: 4,000 declared tokens and
4,000 misspelt `on picked_up` took 106 s. A suggestion only helps with the first few
mistakes anyway, so each Sink answers with at most `Sink.comparisons_left` comparisons
in all (100,000, about a second), then stays silent: the diagnostics stay, without
their "did you mean".
"""

from __future__ import annotations

import difflib
from typing import Collection

from compiler.diagnostics.model import Sink


def closest(name: str, known: Collection[str], sink: Sink, cutoff: float = 0.6) -> str | None:
    """The known name most like `name`, if one is close enough and the budget allows."""
    if len(known) > sink.comparisons_left:
        return None
    sink.comparisons_left -= len(known)
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=cutoff)
    return close[0] if close else None


def hint(close: str | None) -> str:
    """The message tail for a suggestion (empty without one)."""
    return f"; did you mean `{close}`?" if close else ""
